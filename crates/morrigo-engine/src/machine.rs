//! The compiled machine: rules turned into flat tables and bitsets, its
//! state types, and building a state. Nothing here parses text or hashes
//! strings; the only growing buffers are the histories a rule needs.
//!
//! The machine's behaviour is split by concern, each module an `impl` block
//! over these types that imports only from here and from the leaf modules
//! (`bits`, `compiled`, `records`, `grid`), never from each other's
//! internals: `eval` (expressions), `movegen` (legal moves), `legality`
//! (why a move is not legal), `chains` (board plays and captures),
//! `history` (repetition and the move-class history), `end_rules`,
//! `apply` (apply and undo), `scoring`.

use crate::bits::Bits;
use crate::compiled::{lower, Op};
use crate::records::{KeyCounts, MoveRecord, NO_D};
use morrigo_board::Topology;
use morrigo_dsl::{BinOp, Expr};
use morrigo_rules::{
    reads_piece_counts_only, ActionKind, ForbidRule, MoveClass, PhaseRule, Prim, Rules, Verdict,
};
use std::sync::Arc;

pub type Point = u16;
pub const NO_POINT: Point = Point::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Place,
    Slide,
    Fly,
    /// Remove the opposing piece on `to` (a step of the same turn).
    Remove,
    /// A board play on `to` (stone from an unlimited supply, then captures).
    Play,
    /// A pass; `to` is the index of the pass kind in `Rules::passes`.
    Pass,
    /// A capture rule's leap: the piece on `from` jumps over the opposing
    /// piece between it and `to` (the middle of three consecutive points of
    /// a line) and takes it.
    Leap,
}

impl MoveKind {
    /// The kind's name in JSON output (the Python and web APIs).
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Place => "place",
            MoveKind::Slide => "slide",
            MoveKind::Fly => "fly",
            MoveKind::Remove => "remove",
            MoveKind::Play => "play",
            MoveKind::Pass => "pass",
            MoveKind::Leap => "leap",
        }
    }
}

/// One ply. `from` is [`NO_POINT`] except for slides and flies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub kind: MoveKind,
    pub from: Point,
    pub to: Point,
}

impl Move {
    pub fn place(to: Point) -> Self {
        Move {
            kind: MoveKind::Place,
            from: NO_POINT,
            to,
        }
    }
    pub fn remove(at: Point) -> Self {
        Move {
            kind: MoveKind::Remove,
            from: NO_POINT,
            to: at,
        }
    }
    pub fn play(at: Point) -> Self {
        Move {
            kind: MoveKind::Play,
            from: NO_POINT,
            to: at,
        }
    }
    pub fn pass(kind: u8) -> Self {
        Move {
            kind: MoveKind::Pass,
            from: NO_POINT,
            to: kind as Point,
        }
    }
    /// Whether two moves have the same effect (slide and fly to the same point do).
    pub fn same_effect(&self, o: &Move) -> bool {
        let moving = |k| matches!(k, MoveKind::Slide | MoveKind::Fly);
        // A leap is not the same move as a fly between the same points: it
        // takes the jumped piece (and a fly there is never listed, see
        // `turn_moves_with`).
        self.from == o.from
            && self.to == o.to
            && (self.kind == o.kind || moving(self.kind) && moving(o.kind))
    }
}

/// How a game ended, and which end rule decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<u8>,
    /// Index into `Rules::end`, or [`Outcome::RESIGNATION`] / [`Outcome::AGREEMENT`].
    pub rule: u16,
}

impl Outcome {
    /// A player resigned (a session action, not an end rule).
    pub const RESIGNATION: u16 = u16::MAX;
    /// The players agreed on the end and the dead stones; the game was counted.
    pub const AGREEMENT: u16 = u16::MAX - 1;

    /// The game ended with no result (an end rule with `no_result:`):
    /// neither a win nor a draw.
    pub fn is_no_result(&self, rules: &Rules) -> bool {
        rules
            .end
            .get(self.rule as usize)
            .is_some_and(|e| e.verdict == Verdict::NoResult)
    }

    /// The name of what decided the game.
    pub fn rule_name<'r>(&self, rules: &'r Rules) -> &'r str {
        match self.rule {
            Outcome::RESIGNATION => "resignation",
            Outcome::AGREEMENT => "agreement",
            r => rules
                .end
                .get(r as usize)
                .map_or("unknown", |e| e.name.as_str()),
        }
    }
}

/// Everything about a position except its histories: `Copy`, so undo is a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position<const W: usize> {
    pub occ: [Bits<W>; 2],
    /// Pieces on the board per player (kept so rules read it without a popcount).
    pub on_board: [u32; 2],
    pub in_hand: [u32; 2],
    pub lost: [u32; 2],
    pub to_move: u8,
    /// Removals the player to move still owes this turn (u16 holds more
    /// than a board's pieces, so the owed count is never cut short).
    pub pending: u16,
    pub turn: u32,
    pub ply: u32,
    pub turns_without_removal: u32,
    pub turns_without_line: u32,
    /// Turns since one placed or removed a piece (`quiet_turns`).
    pub quiet_turns: u32,
    /// Lines completed by the last move other than a removal (removals of
    /// the same turn keep it, so `lines_formed` reads the same throughout).
    /// (u16: a board has at most `u16::MAX` lines.)
    pub lines_formed: u16,
    /// Captured prisoners each player has taken.
    pub captured: [u32; 2],
    /// Pass stones each player has received.
    pub pass_stones: [u32; 2],
    /// The last move was a board play leaving its player's chain without liberty.
    pub last_suicide: bool,
    /// The last move was an immediate repetition (in the ruleset's reading).
    pub last_immediate_repetition: bool,
    /// Occurrences of the board after the last move as a board-play result.
    pub last_board_repetitions: u32,
    pub(crate) removed_this_turn: bool,
    pub(crate) line_this_turn: bool,
    /// Class and D start of this turn's board play while its removals are
    /// owed (0 / `NO_D` otherwise): the turn is recorded when it ends.
    pub(crate) turn_class: u8,
    pub(crate) turn_d_start: u32,
    /// The phase this turn began in, kept only when a rule reads it
    /// ([`crate::turns::TurnOrder::track_phase`]).
    pub(crate) turn_phase: u8,
    /// History index from which the position can repeat (after the last
    /// placement or removal nothing earlier can match).
    pub(crate) reversible_from: u32,
    /// Zobrist key of the board alone (the JK "state of the board").
    pub board_key: u64,
    /// Zobrist key of board, hands and player to move.
    pub hash: u64,
}

/// A game state: the position plus the histories the rules read.
#[derive(Clone, Debug)]
pub struct State<const W: usize> {
    pub pos: Position<W>,
    /// Keys of every turn-start position (for `repetitions`).
    pub(crate) history: Vec<u64>,
    /// `history[..history_counted]` counted by key, kept once a reversible
    /// stretch is too long to scan (see [`Machine::repetitions`]).
    pub(crate) history_counts: KeyCounts,
    pub(crate) history_counted: u32,
    /// One record per completed move, when the ruleset has board plays or passes.
    pub(crate) moves: Vec<MoveRecord>,
    /// Index of the move that placed the stone on each point (board plays).
    pub(crate) placed_at: Vec<u32>,
    /// Board keys after board plays, counted (JK Art. 3.3).
    pub(crate) play_keys: KeyCounts,
    /// Board keys after every move and at the start (positional superko),
    /// or keyed with the player to move (situational).
    pub(crate) seen_keys: KeyCounts,
    /// The board before the first move (simple ko looks back to it).
    pub(crate) start_board_key: u64,
    /// Per-line history (empty unless a rule reads it).
    pub(crate) lines: crate::mills::LineHistory,
    /// Marks of delayed removals, kept outside [`Position`] (with their own
    /// undo log) so the position every undo copies stays small.
    pub(crate) marks: crate::mills::Marks<W>,
    /// `lines_formed_in` counts (empty unless a rule reads them).
    pub(crate) phase_lines: crate::phase_lines::PhaseLines,
    /// Removals a capture by removal owes (`captures.*.take`), with its log.
    pub(crate) choice: crate::choose::ChoiceLog<W>,
}

impl<const W: usize> State<W> {
    pub fn owner(&self, p: Point) -> Option<u8> {
        (0..2u8).find(|&pl| self.pos.occ[pl as usize].has(p as usize))
    }

    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The move-class history, oldest first (`N`, `C`, pass kind letters).
    pub fn classes(&self) -> impl Iterator<Item = u8> + '_ {
        self.moves.iter().map(|m| m.class)
    }

    /// Whether the move with this index (0-based) ends a D.
    pub fn ends_d(&self, index: usize) -> bool {
        self.moves.get(index).is_some_and(|m| m.d_start != NO_D)
    }

    /// Class letter of the last move, if the ruleset records classes.
    pub fn last_class(&self) -> Option<u8> {
        self.moves.last().map(|m| m.class)
    }

    /// Whether the last move ends a D (O(1), unlike counting `classes`).
    pub fn last_ends_d(&self) -> bool {
        self.moves.last().is_some_and(|m| m.d_start != NO_D)
    }

    /// Moves recorded in the history (those of a ruleset with board plays
    /// or passes).
    pub fn recorded_moves(&self) -> usize {
        self.moves.len()
    }

    /// The length of the D (a derived run of ko captures) that move `index`
    /// ends, if it ends one.
    pub fn d_len(&self, index: usize) -> Option<u32> {
        let m = self.moves.get(index)?;
        (m.d_start != NO_D).then(|| index as u32 - m.d_start + 1)
    }

    /// Whether move `index` was a board play (not a pass).
    pub fn move_was_play(&self, index: usize) -> Option<bool> {
        self.moves.get(index).map(|m| m.is_play)
    }

    /// The index of the board play that placed the stone now on point `p`
    /// (`None` if no recorded play placed one there; the entry of an
    /// emptied point is stale until a play refills it).
    pub fn placed_at(&self, p: usize) -> Option<u32> {
        self.placed_at.get(p).copied().filter(|&i| i != u32::MAX)
    }
}

/// What `apply` returns so `undo` can restore the state exactly.
#[derive(Clone, Copy, Debug)]
pub struct Undo<const W: usize> {
    pub(crate) pos: Position<W>,
    pub(crate) pushed: bool,
    pub(crate) recorded: bool,
    /// A board play's point and the `placed_at` entry it overwrote.
    pub(crate) placed: Option<(Point, u32)>,
}

#[derive(Clone, Debug)]
pub(crate) struct CompiledPhase {
    pub(crate) when: Option<Op>,
    /// Kinds allowed unconditionally.
    pub(crate) always: [bool; 5],
    /// Kinds allowed when their condition holds.
    pub(crate) guarded: Vec<(ActionKind, Op)>,
}

/// Rules compiled for boards of up to `64 * W` points.
#[derive(Debug)]
pub struct Machine<const W: usize> {
    pub rules: Arc<Rules>,
    pub(crate) n: usize,
    pub(crate) all: Bits<W>,
    pub(crate) neighbours: Vec<Bits<W>>,
    /// Shift-based dilation when the board is a plain grid.
    pub(crate) grid: Option<crate::grid::GridShifts<W>>,
    pub(crate) line_masks: Vec<Bits<W>>,
    /// Lines through each point: `lines_through[start[p]..start[p + 1]]`.
    pub(crate) lines_through: Vec<u16>,
    pub(crate) lines_through_start: Vec<u32>,
    pub(crate) phases: Vec<CompiledPhase>,
    pub(crate) removals: Option<(Op, Op)>,
    pub(crate) end: Vec<(Verdict, Op)>,
    /// Forbid rules in ruleset order.
    pub(crate) forbid: Vec<CompiledForbid>,
    /// Forbid rules judged per move, and what their values need.
    pub(crate) judge: crate::move_values::MoveJudge,
    /// Captures moves make by themselves (`captures:`), as tables.
    pub(crate) captures: Vec<crate::captures::CompiledCapture>,
    /// Bits of `captures` that are leap rules (moves of their own).
    pub(crate) leap_rules: u64,
    pub(crate) z_piece: [Vec<u64>; 2],
    /// Per-player seeds of the hand-count keys ([`Machine::hand_key`]).
    pub(crate) z_hand: [u64; 2],
    pub(crate) z_side: u64,
    /// The ruleset has board plays or passes: keep the move-class history.
    pub(crate) record_moves: bool,
    /// What some rule reads, so the engine tracks or computes it.
    pub(crate) reads: Reads,
    /// Extra turns, the first player of a phase, removal moves.
    pub(crate) turns: crate::turns::TurnOrder,
    /// Line-rule extras (counting lines, removals from hand, marks).
    pub(crate) mills: Option<crate::mills::MillExtras>,
    /// Some rule beyond the plain ones is in play (turn order, capture
    /// rules, line-rule extras, forbid rules judged per move): `apply` and
    /// move generation run a copy with these checks only when it is set.
    pub(crate) extras: bool,
    /// Capture rules taking by removals the player chooses.
    pub(crate) choose: Option<crate::choose::ChooseRules>,
    /// Some state outside `Position` keeps an undo log (line extras, choices).
    pub(crate) logs: bool,
    /// The eight points around each point (`NO_POINT` off the board) when
    /// the ruleset has playout shapes, which are read from them.
    pub(crate) cells: Vec<[Point; 8]>,
}

/// A forbid rule: the classes named, the condition, whether it reads
/// `no_legal_move` (then judged per rule, see `forbidden_by`) and whether
/// it reads a value about the move (then judged per move).
#[derive(Clone, Debug)]
pub(crate) struct CompiledForbid {
    pub(crate) classes: Vec<MoveClass>,
    pub(crate) when: Op,
    pub(crate) blocked: bool,
    pub(crate) reads_move: bool,
    /// The conjuncts of `when` that read piece counts only, and-ed: when
    /// false, the rule holds nowhere with these counts and this mover
    /// (judged first, and by [`Machine::forbid_may_apply`]).
    pub(crate) by_counts: Option<Op>,
}

/// Values the engine tracks or computes only when some rule reads them,
/// derived from every expression of the ruleset ([`Rules::conds`]) so no
/// kind of rule can read a value that was not kept up to date.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reads {
    /// `repetitions`: keep the turn-start position keys.
    pub(crate) repetitions: bool,
    /// `board_repetitions`: count board-play results.
    pub(crate) board_repetitions: bool,
    /// `no_legal_move`: look for a legal move before the end rules.
    pub(crate) no_legal_move: bool,
}

impl Reads {
    fn of(rules: &Rules) -> Self {
        let mut reads = Reads {
            repetitions: false,
            board_repetitions: false,
            no_legal_move: false,
        };
        for c in rules.conds() {
            c.expr.for_each_symbol(&mut |p| match p {
                Prim::Repetitions => reads.repetitions = true,
                Prim::BoardRepetitions => reads.board_repetitions = true,
                Prim::NoLegalMove => reads.no_legal_move = true,
                _ => {}
            });
        }
        reads
    }
}

/// Fixed-seed SplitMix64: the same keys on every run, so hashes are stable.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The bitset of the points `pts`.
fn mask<const W: usize>(pts: &[u16]) -> Bits<W> {
    let mut b = Bits::EMPTY;
    pts.iter().for_each(|&p| b.set(p as usize));
    b
}

/// The lines through each point, flattened: the lines through `p` are
/// `lines[start[p]..start[p + 1]]`.
fn lines_through_table(t: &Topology) -> (Vec<u16>, Vec<u32>) {
    let mut lines_through = Vec::new();
    let mut lines_through_start = vec![0u32];
    for p in 0..t.len() {
        lines_through.extend(t.lines_through[p].iter().copied());
        lines_through_start.push(lines_through.len() as u32);
    }
    (lines_through, lines_through_start)
}

/// A phase's actions sorted by their guards: never (dropped), always, or
/// when the guard holds.
fn compile_phase(p: &PhaseRule) -> CompiledPhase {
    let mut always = [false; 5];
    let mut guarded = Vec::new();
    for a in &p.actions {
        let op = lower(&a.guard.expr);
        match op.constant() {
            Some(0) => {}
            Some(_) => always[a.kind as usize] = true,
            None => guarded.push((a.kind, op)),
        }
    }
    CompiledPhase {
        when: p.when.as_ref().map(|c| lower(&c.expr)),
        always,
        guarded,
    }
}

/// A forbid rule's condition lowered, with what it reads and the part of
/// it judged from the piece counts alone.
fn compile_forbid(f: &ForbidRule) -> CompiledForbid {
    let mut blocked = false;
    f.when
        .expr
        .for_each_symbol(&mut |p| blocked |= *p == Prim::NoLegalMove);
    let by_counts = f
        .when
        .expr
        .conjuncts()
        .into_iter()
        .filter(|c| c.as_const().is_none() && reads_piece_counts_only(c))
        .cloned()
        .reduce(|a, b| Expr::Bin(BinOp::And, Box::new(a), Box::new(b)));
    CompiledForbid {
        classes: f.moves.clone(),
        when: lower(&f.when.expr),
        blocked,
        reads_move: f.reads_move(),
        by_counts: by_counts.map(|e| lower(&e)),
    }
}

/// The hash keys, and the rule extras that hold keys of their own, drawn
/// in this order from one fixed seed: the order is part of every key.
struct Keys {
    z_piece: [Vec<u64>; 2],
    z_hand: [u64; 2],
    z_side: u64,
    mills: Option<crate::mills::MillExtras>,
    choose: Option<crate::choose::ChooseRules>,
}

impl Keys {
    fn draw(rules: &Rules, n: usize) -> Self {
        let mut seed = 0x6D6F_7272_6967_6F21; // "morrigo!"
        let z_piece = [(); 2].map(|_| (0..n).map(|_| splitmix(&mut seed)).collect());
        let z_hand = [(); 2].map(|_| splitmix(&mut seed));
        let z_side = splitmix(&mut seed);
        let mills = crate::mills::MillExtras::of(rules, n, &mut || splitmix(&mut seed));
        let choose = crate::choose::ChooseRules::of(rules, n, &mut || splitmix(&mut seed));
        Keys {
            z_piece,
            z_hand,
            z_side,
            mills,
            choose,
        }
    }
}

/// The eight points around each point when the ruleset has playout
/// shapes; empty otherwise.
fn shape_cells(rules: &Rules) -> Vec<[Point; 8]> {
    // `check` refuses shapes on a board that is not a square grid.
    match (&rules.shapes, rules.topology.square_cells()) {
        (Some(_), Some(cells)) => cells
            .iter()
            .map(|c| c.map(|q| q.unwrap_or(NO_POINT)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The result of asking for one random legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sample {
    Move(Move),
    Over(Outcome),
    /// No legal move and no end rule decides: the rules leave the game stuck.
    Stuck,
}

impl<const W: usize> Machine<W> {
    /// Build the tables. Panics only if the board has more than `64 * W`
    /// points, which [`crate::AnyMachine::new`] rules out.
    pub fn new(rules: Arc<Rules>) -> Self {
        let t = &rules.topology;
        let n = t.len();
        assert!(n <= 64 * W, "board of {n} points needs a wider machine");
        let neighbours: Vec<Bits<W>> = t.neighbours.iter().map(|ns| mask(ns)).collect();
        let grid = crate::grid::GridShifts::detect(t.width, &neighbours);
        let line_masks = t.lines.iter().map(|l| mask(l)).collect();
        let (lines_through, lines_through_start) = lines_through_table(t);
        let phases = rules.phases.iter().map(compile_phase).collect();
        let removals = rules
            .line_rule
            .as_ref()
            .map(|l| (lower(&l.removals.expr), lower(&l.removable.expr)));
        let end = rules
            .end
            .iter()
            .map(|e| (e.verdict, lower(&e.when.expr)))
            .collect();
        let forbid = rules.forbid.iter().map(compile_forbid).collect();
        let keys = Keys::draw(&rules, n);
        let logs = keys.mills.is_some() || keys.choose.is_some();
        let cells = shape_cells(&rules);
        let record_moves = rules.play.is_some() || !rules.passes.kinds.is_empty();
        let reads = Reads::of(&rules);
        let turns = crate::turns::TurnOrder::of(&rules);
        let captures = crate::captures::compile(&rules);
        let leap_rules = crate::captures::leap_rules(&rules);
        let judge = crate::move_values::MoveJudge::of(&rules);
        let extras = turns.track_phase
            || turns.order
            || turns.has_remove
            || !captures.is_empty()
            || leap_rules != 0
            || keys.mills.is_some()
            || judge.any;
        Machine {
            n,
            all: Bits::first(n),
            neighbours,
            grid,
            cells,
            line_masks,
            lines_through,
            lines_through_start,
            phases,
            removals,
            end,
            forbid,
            judge,
            captures,
            leap_rules,
            z_piece: keys.z_piece,
            z_hand: keys.z_hand,
            z_side: keys.z_side,
            record_moves,
            reads,
            turns,
            mills: keys.mills,
            extras,
            choose: keys.choose,
            logs,
            rules,
        }
    }

    pub fn points(&self) -> usize {
        self.n
    }

    /// The start of a game: the ruleset's set-up stones (none by default)
    /// and the player it names to move first.
    pub fn initial(&self) -> State<W> {
        let in_hand = [self.rules.in_hand; 2];
        let start = &self.rules.start;
        let [first, second] = [0, 1].map(|pl| {
            let mut b = Bits::EMPTY;
            start.stones[pl].iter().for_each(|&p| b.set(p as usize));
            b
        });
        self.state_from(first, second, in_hand, start.to_move)
    }

    /// A position built from parts, unchecked (hot loops that rebuild a
    /// state they already hold; a set-up from outside goes through
    /// [`Machine::set_up`]). Counters start at zero.
    pub fn state_from(
        &self,
        first: Bits<W>,
        second: Bits<W>,
        in_hand: [u32; 2],
        to_move: u8,
    ) -> State<W> {
        let occ = [first, second];
        let lost = [0, 1].map(|p| {
            let placed = occ[p].count() + in_hand[p];
            if self.rules.unlimited_hand {
                0
            } else {
                self.rules.in_hand.saturating_sub(placed)
            }
        });
        let mut pos = Position {
            occ,
            on_board: [occ[0].count(), occ[1].count()],
            in_hand,
            lost,
            to_move,
            pending: 0,
            turn: 0,
            ply: 0,
            turns_without_removal: 0,
            turns_without_line: 0,
            quiet_turns: 0,
            lines_formed: 0,
            captured: [0; 2],
            pass_stones: [0; 2],
            last_suicide: false,
            last_immediate_repetition: false,
            last_board_repetitions: 0,
            removed_this_turn: false,
            line_this_turn: false,
            turn_class: 0,
            turn_d_start: NO_D,
            turn_phase: 0,
            reversible_from: 0,
            board_key: 0,
            hash: 0,
        };
        pos.board_key = self.board_key(&occ);
        pos.hash = self.full_hash(&pos);
        let mut s = State {
            pos,
            history: vec![pos.hash],
            history_counts: KeyCounts::default(),
            history_counted: 0,
            moves: Vec::new(),
            placed_at: vec![u32::MAX; self.n],
            play_keys: KeyCounts::default(),
            seen_keys: KeyCounts::default(),
            start_board_key: pos.board_key,
            lines: match &self.mills {
                Some(x) if x.history => crate::mills::LineHistory::new(self.line_masks.len()),
                _ => Default::default(),
            },
            marks: crate::mills::Marks::default(),
            phase_lines: match &self.mills {
                Some(x) if x.phase_lines => crate::phase_lines::PhaseLines::new(self.phases.len()),
                _ => Default::default(),
            },
            choice: Default::default(),
        };
        if self.rules.repetition.superko != morrigo_rules::Superko::None {
            let key = self.superko_key(pos.board_key, to_move);
            s.seen_keys.add(key);
        }
        s
    }

    pub(crate) fn board_key(&self, occ: &[Bits<W>; 2]) -> u64 {
        let mut h = 0;
        for (pl, set) in occ.iter().enumerate() {
            for p in set.iter() {
                h ^= self.z_piece[pl][p];
            }
        }
        h
    }

    pub(crate) fn full_hash(&self, pos: &Position<W>) -> u64 {
        let mut h = pos.board_key;
        for pl in 0..2 {
            h ^= self.hand_key(pl, pos.in_hand[pl]);
        }
        if pos.to_move == 1 {
            h ^= self.z_side;
        }
        h
    }

    /// The position key computed afresh from the board, marks, hands and
    /// player to move (what `apply` keeps up to date move by move).
    pub fn recomputed_hash(&self, s: &State<W>) -> u64 {
        let mut pos = s.pos;
        pos.board_key = self.board_key(&pos.occ);
        let marks = match &self.mills {
            Some(x) => s.marks.now.iter().fold(0, |k, p| k ^ x.z_mark[p]),
            None => 0,
        };
        let choice = self.choose.as_ref().map_or(0, |x| x.key(&s.choice.now));
        self.full_hash(&pos) ^ marks ^ choice
    }

    /// The hash key of `player` holding `count` pieces: the player's seed
    /// and the count mixed (SplitMix64's finaliser), so no table grows with
    /// the hand size and distinct counts get unrelated keys.
    #[inline(always)]
    pub(crate) fn hand_key(&self, player: usize, count: u32) -> u64 {
        let mut z = self.z_hand[player] ^ u64::from(count).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[inline]
    pub(crate) fn lines_of(&self, p: usize) -> &[u16] {
        &self.lines_through
            [self.lines_through_start[p] as usize..self.lines_through_start[p + 1] as usize]
    }

    /// Whether turns are plain: no turn-order, capture, line-extra or
    /// per-move judging rule is in play, so a board move that completes
    /// no line ends the turn, changes the board by the move alone and
    /// hands the turn to the opponent. Solvers take that without asking
    /// `apply`.
    pub fn plain_turns(&self) -> bool {
        !self.extras
    }

    /// Complete lines of `player` through point `p`.
    #[inline]
    pub fn lines_at(&self, occ: &Bits<W>, p: usize) -> u32 {
        self.lines_of(p)
            .iter()
            .filter(|&&l| self.line_masks[l as usize].within(occ))
            .count() as u32
    }

    /// Union of the complete lines of one player.
    pub(crate) fn lined(&self, occ: &Bits<W>) -> Bits<W> {
        self.line_masks
            .iter()
            .filter(|m| m.within(occ))
            .fold(Bits::EMPTY, |acc, m| acc.or(*m))
    }

    pub fn empty(&self, s: &State<W>) -> Bits<W> {
        self.all
            .without(s.pos.occ[0].or(s.pos.occ[1]).or(s.marks.now))
    }

    /// The eight points around `p` (`NO_POINT` off the board), when the
    /// ruleset has playout shapes (see [`Machine::shape_at`]).
    #[inline]
    pub fn cells_around(&self, p: Point) -> Option<&[Point; 8]> {
        self.cells.get(p as usize)
    }

    /// Whether a playout shape of the ruleset holds around empty point `p`
    /// for the player to move: one lookup of the eight cells' code.
    #[inline]
    pub fn shape_at(&self, s: &State<W>, p: Point) -> bool {
        let Some(table) = &self.rules.shapes else {
            return false;
        };
        use morrigo_rules::shapes::{CELL_EMPTY, CELL_MOVER, CELL_OFF_BOARD, CELL_OPPONENT};
        let me = s.pos.to_move as usize & 1;
        let (mine, theirs) = (&s.pos.occ[me], &s.pos.occ[me ^ 1]);
        let mut code = 0u16;
        for (i, &q) in self.cells[p as usize].iter().enumerate() {
            let cell = match q {
                NO_POINT => CELL_OFF_BOARD,
                q if mine.has(q as usize) => CELL_MOVER,
                q if theirs.has(q as usize) => CELL_OPPONENT,
                _ => CELL_EMPTY,
            };
            code |= cell << (2 * i);
        }
        table.matches(code)
    }
}
