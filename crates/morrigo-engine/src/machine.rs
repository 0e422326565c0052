//! The compiled machine: rules turned into flat tables and bitsets, and the
//! state transitions over them. Nothing here parses text or hashes strings;
//! the only growing buffers are the histories a rule needs.
//!
//! Board plays (the Go family) live in `chains.rs`, the move-class history
//! and board-state repetition in `history.rs`, counting in `scoring.rs`: all
//! are primitives of this one machine, switched on by the ruleset.

use crate::bits::Bits;
use crate::compiled::{lower, Counter, Op, Who};
use crate::history::{KeyCounts, MoveRecord, NO_D};
use morrigo_dsl::BinOp;
use morrigo_rules::{ActionKind, MoveClass, Prim, Rules, Verdict};
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
    /// Removals the player to move still owes this turn.
    pub pending: u8,
    pub turn: u32,
    pub ply: u32,
    pub turns_without_removal: u32,
    pub turns_without_line: u32,
    /// Lines completed by the last move other than a removal (removals of
    /// the same turn keep it, so `lines_formed` reads the same throughout).
    pub lines_formed: u8,
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
    line_this_turn: bool,
    /// Class and D start of this turn's board play while its removals are
    /// owed (0 / `NO_D` otherwise): the turn is recorded when it ends.
    turn_class: u8,
    turn_d_start: u32,
    /// History index from which the position can repeat (after the last
    /// placement or removal nothing earlier can match).
    reversible_from: u32,
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
    history: Vec<u64>,
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
}

/// What `apply` returns so `undo` can restore the state exactly.
#[derive(Clone, Copy, Debug)]
pub struct Undo<const W: usize> {
    pos: Position<W>,
    pushed: bool,
    recorded: bool,
    /// A board play's point and the `placed_at` entry it overwrote.
    placed: Option<(Point, u32)>,
}

#[derive(Clone, Debug)]
struct CompiledPhase {
    when: Option<Op>,
    /// Kinds allowed unconditionally.
    always: [bool; 5],
    /// Kinds allowed when their condition holds.
    guarded: Vec<(ActionKind, Op)>,
}

/// Rules compiled for boards of up to `64 * W` points.
#[derive(Debug)]
pub struct Machine<const W: usize> {
    pub rules: Arc<Rules>,
    pub(crate) n: usize,
    pub(crate) all: Bits<W>,
    pub(crate) neighbours: Vec<Bits<W>>,
    /// Shift-based dilation when the board is a plain grid.
    pub(crate) grid: Option<crate::chains::GridShifts<W>>,
    line_masks: Vec<Bits<W>>,
    /// Lines through each point: `lines_through[start[p]..start[p + 1]]`.
    lines_through: Vec<u16>,
    lines_through_start: Vec<u32>,
    phases: Vec<CompiledPhase>,
    removals: Option<(Op, Op)>,
    end: Vec<(Verdict, Op)>,
    /// Forbid rules in ruleset order: the kinds each names, and its condition.
    forbid: Vec<(Vec<MoveClass>, Op)>,
    pub(crate) z_piece: [Vec<u64>; 2],
    /// Per-player seeds of the hand-count keys ([`Machine::hand_key`]).
    z_hand: [u64; 2],
    pub(crate) z_side: u64,
    /// The ruleset has board plays or passes: keep the move-class history.
    pub(crate) record_moves: bool,
    /// What some rule reads, so the engine tracks or computes it.
    pub(crate) reads: Reads,
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

/// `Ctx::phase` when the phase is not known yet: reading it finds it.
const NO_PHASE: u8 = u8::MAX;

/// Evaluation context of one expression.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    me: u8,
    phase: u8,
    no_legal_move: bool,
    target: Point,
    lines_formed: i64,
}

impl Ctx {
    fn turn(me: u8, phase: u8) -> Self {
        Ctx {
            me,
            phase,
            no_legal_move: false,
            target: NO_POINT,
            lines_formed: 0,
        }
    }
}

/// A comparison of two numbers (the lowering only fuses comparisons).
#[inline(always)]
fn cmp(op: BinOp, v: i64, k: i64) -> i64 {
    (match op {
        BinOp::Eq => v == k,
        BinOp::Ne => v != k,
        BinOp::Lt => v < k,
        BinOp::Le => v <= k,
        BinOp::Gt => v > k,
        BinOp::Ge => v >= k,
        other => return morrigo_dsl::fold(other, v, k),
    }) as i64
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
        let mask = |pts: &[u16]| {
            let mut b = Bits::EMPTY;
            pts.iter().for_each(|&p| b.set(p as usize));
            b
        };
        let neighbours: Vec<Bits<W>> = t.neighbours.iter().map(|ns| mask(ns)).collect();
        let grid = crate::chains::GridShifts::detect(t.width, &neighbours);
        let line_masks = t.lines.iter().map(|l| mask(l)).collect();
        let mut lines_through = Vec::new();
        let mut lines_through_start = vec![0u32];
        for p in 0..n {
            lines_through.extend(t.lines_through[p].iter().copied());
            lines_through_start.push(lines_through.len() as u32);
        }
        let phases = rules
            .phases
            .iter()
            .map(|p| {
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
            })
            .collect();
        let removals = rules
            .line_rule
            .as_ref()
            .map(|l| (lower(&l.removals.expr), lower(&l.removable.expr)));
        let end = rules
            .end
            .iter()
            .map(|e| (e.verdict, lower(&e.when.expr)))
            .collect();
        let forbid = rules
            .forbid
            .iter()
            .map(|f| (f.moves.clone(), lower(&f.when.expr)))
            .collect();
        let mut seed = 0x6D6F_7272_6967_6F21; // "morrigo!"
        let z_piece = [(); 2].map(|_| (0..n).map(|_| splitmix(&mut seed)).collect());
        let z_hand = [(); 2].map(|_| splitmix(&mut seed));
        let z_side = splitmix(&mut seed);
        let record_moves = rules.play.is_some() || !rules.passes.kinds.is_empty();
        let reads = Reads::of(&rules);
        Machine {
            n,
            all: Bits::first(n),
            neighbours,
            grid,
            line_masks,
            lines_through,
            lines_through_start,
            phases,
            removals,
            end,
            forbid,
            z_piece,
            z_hand,
            z_side,
            record_moves,
            reads,
            rules,
        }
    }

    pub fn points(&self) -> usize {
        self.n
    }

    /// The start of a game.
    pub fn initial(&self) -> State<W> {
        let in_hand = [self.rules.in_hand; 2];
        self.state_from(Bits::EMPTY, Bits::EMPTY, in_hand, 0)
    }

    /// A position built from parts (scenario set-ups). Counters start at zero.
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
            reversible_from: 0,
            board_key: 0,
            hash: 0,
        };
        pos.board_key = self.board_key(&occ);
        pos.hash = self.full_hash(&pos);
        let mut s = State {
            pos,
            history: vec![pos.hash],
            moves: Vec::new(),
            placed_at: vec![u32::MAX; self.n],
            play_keys: KeyCounts::default(),
            seen_keys: KeyCounts::default(),
            start_board_key: pos.board_key,
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

    fn full_hash(&self, pos: &Position<W>) -> u64 {
        let mut h = pos.board_key;
        for pl in 0..2 {
            h ^= self.hand_key(pl, pos.in_hand[pl]);
        }
        if pos.to_move == 1 {
            h ^= self.z_side;
        }
        h
    }

    /// Take one piece from a limited hand (nothing to do with an unlimited one).
    #[inline(always)]
    fn take_from_hand(&self, pos: &mut Position<W>, me: usize) {
        if !self.rules.unlimited_hand {
            pos.hash ^= self.hand_key(me, pos.in_hand[me]);
            pos.in_hand[me] -= 1;
            pos.hash ^= self.hand_key(me, pos.in_hand[me]);
        }
    }

    /// The hash key of `player` holding `count` pieces: the player's seed
    /// and the count mixed (SplitMix64's finaliser), so no table grows with
    /// the hand size and distinct counts get unrelated keys.
    #[inline(always)]
    fn hand_key(&self, player: usize, count: u32) -> u64 {
        let mut z = self.z_hand[player] ^ u64::from(count).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    // ----- reading the state -------------------------------------------------

    #[inline]
    fn lines_of(&self, p: usize) -> &[u16] {
        &self.lines_through
            [self.lines_through_start[p] as usize..self.lines_through_start[p + 1] as usize]
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
    fn lined(&self, occ: &Bits<W>) -> Bits<W> {
        self.line_masks
            .iter()
            .filter(|m| m.within(occ))
            .fold(Bits::EMPTY, |acc, m| acc.or(*m))
    }

    pub fn empty(&self, s: &State<W>) -> Bits<W> {
        self.all.without(s.pos.occ[0].or(s.pos.occ[1]))
    }

    /// How often the current position occurred, this time included.
    #[inline(never)]
    pub fn repetitions(&self, s: &State<W>) -> u32 {
        let from = (s.pos.reversible_from as usize).min(s.history.len());
        // Only positions with the same player to move can match (the key
        // includes it), and those are every second entry back from the end.
        s.history[from..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == s.pos.hash)
            .count() as u32
    }

    /// The phase (index into `Rules::phases`) of the player to move.
    pub fn phase(&self, s: &State<W>) -> usize {
        let ctx = Ctx::turn(s.pos.to_move, NO_PHASE);
        self.phases
            .iter()
            .position(|p| p.when.as_ref().is_none_or(|w| self.eval(w, s, ctx) != 0))
            .unwrap_or(self.phases.len().saturating_sub(1))
    }

    /// Evaluate a lowered expression. The shapes nearly every rule uses are
    /// handled here, inlined at the call site; the rest recurse through
    /// [`Machine::eval_tree`], so the common case pays no call frame.
    #[inline(always)]
    pub(crate) fn eval(&self, e: &Op, s: &State<W>, c: Ctx) -> i64 {
        match e {
            Op::Const(v) => *v,
            Op::CountCmp(counter, who, op, k) => cmp(*op, self.count(*counter, *who, s, c), *k),
            Op::ValueCmp(p, op, k) => cmp(*op, self.value(*p, s, c), *k),
            Op::Value(p) => self.value(*p, s, c),
            _ => self.eval_tree(e, s, c),
        }
    }

    #[inline(never)]
    fn eval_tree(&self, e: &Op, s: &State<W>, c: Ctx) -> i64 {
        match e {
            Op::And(a, b) => (self.eval(a, s, c) != 0 && self.eval(b, s, c) != 0) as i64,
            Op::Or(a, b) => (self.eval(a, s, c) != 0 || self.eval(b, s, c) != 0) as i64,
            Op::Not(x) => (self.eval(x, s, c) == 0) as i64,
            Op::Count(counter, who) => self.count(*counter, *who, s, c),
            Op::CmpConst(op, x, k) => cmp(*op, self.eval(x, s, c), *k),
            Op::Call(f, arg) => {
                let a = self.eval(arg, s, c);
                self.call(*f, a, s)
            }
            Op::Neg(x) => self.eval(x, s, c).wrapping_neg(),
            Op::Bin(op, a, b) => morrigo_dsl::fold(*op, self.eval(a, s, c), self.eval(b, s, c)),
            Op::Const(_) | Op::CountCmp(..) | Op::ValueCmp(..) | Op::Value(_) => self.eval(e, s, c),
        }
    }

    #[inline(always)]
    fn count(&self, counter: Counter, who: Who, s: &State<W>, c: Ctx) -> i64 {
        let p = match who {
            Who::Me => c.me,
            Who::Opponent => c.me ^ 1,
            Who::Player(p) => p,
        } as usize;
        let pos = &s.pos;
        (match counter {
            Counter::InHand => pos.in_hand[p],
            Counter::OnBoard => pos.on_board[p],
            Counter::Lost => pos.lost[p],
            Counter::Captured => pos.captured[p],
            Counter::PassStones => pos.pass_stones[p],
        }) as i64
    }

    /// Values read straight from the context or the position.
    #[inline(always)]
    fn value(&self, p: Prim, s: &State<W>, c: Ctx) -> i64 {
        let pos = &s.pos;
        match p {
            Prim::Me => c.me as i64,
            Prim::Opponent => (c.me ^ 1) as i64,
            // Found on demand where the caller has not found it already
            // (forbid rules, the line rule); a phase `when` cannot read it.
            Prim::Phase if c.phase == NO_PHASE => self.phase(s) as i64,
            Prim::Phase => c.phase as i64,
            Prim::NoLegalMove => c.no_legal_move as i64,
            Prim::TurnsWithoutRemoval => pos.turns_without_removal as i64,
            Prim::TurnsWithoutLine => pos.turns_without_line as i64,
            Prim::Turn => pos.turn as i64,
            Prim::Target => c.target as i64,
            Prim::LinesFormed => c.lines_formed,
            _ => self.computed_value(p, s),
        }
    }

    /// Values that take some work; kept out of line so the cheap ones stay cheap.
    #[inline(never)]
    fn computed_value(&self, p: Prim, s: &State<W>) -> i64 {
        let pos = &s.pos;
        match p {
            Prim::Repetitions => self.repetitions(s) as i64,
            Prim::EmptyPoints => self.n as i64 - (pos.on_board[0] + pos.on_board[1]) as i64,
            Prim::LastPlaySuicide => pos.last_suicide as i64,
            Prim::ImmediateRepetition => pos.last_immediate_repetition as i64,
            Prim::BoardRepetitions => pos.last_board_repetitions as i64,
            Prim::NoSafeMove => !self.has_safe_move(s) as i64,
            // Functions are reached through `call`; a bare use cannot type-check.
            _ => 0,
        }
    }

    fn call(&self, f: Prim, arg: i64, s: &State<W>) -> i64 {
        let pos = &s.pos;
        let player = (arg & 1) as usize;
        match f {
            Prim::InHand => pos.in_hand[player] as i64,
            Prim::OnBoard => pos.on_board[player] as i64,
            Prim::Lost => pos.lost[player] as i64,
            Prim::Captured => pos.captured[player] as i64,
            Prim::PassStones => pos.pass_stones[player] as i64,
            Prim::Lines => self
                .line_masks
                .iter()
                .filter(|m| m.within(&pos.occ[player]))
                .count() as i64,
            Prim::AllInLines => pos.occ[player].within(&self.lined(&pos.occ[player])) as i64,
            Prim::InLine => {
                let p = arg as usize;
                match s.owner(p as Point) {
                    Some(o) => (self.lines_at(&pos.occ[o as usize], p) > 0) as i64,
                    None => 0,
                }
            }
            Prim::After => self
                .rules
                .patterns
                .get(arg as usize)
                .is_some_and(|p| p.matches_end(&crate::history::Classes(&s.moves)))
                as i64,
            _ => 0,
        }
    }

    // ----- legal moves -------------------------------------------------------

    /// Fill `out` with the legal moves; when the turn starts in a finished
    /// game, leave it empty and return the outcome.
    pub fn legal_moves(&self, s: &State<W>, out: &mut Vec<Move>) -> Option<Outcome> {
        out.clear();
        if s.pos.pending > 0 {
            self.removal_targets(s, out);
            return None;
        }
        let phase = self.phase(s);
        self.turn_moves(s, phase, out);
        let outcome = self.outcome_with(s, phase, out.is_empty());
        if outcome.is_some() {
            out.clear();
        }
        outcome
    }

    /// The outcome at the start of this turn, if an end rule decides.
    pub fn outcome(&self, s: &State<W>) -> Option<Outcome> {
        if s.pos.pending > 0 {
            return None;
        }
        let phase = self.phase(s);
        let blocked = self.reads.no_legal_move && !self.has_legal_move(s, phase);
        self.outcome_with(s, phase, blocked)
    }

    fn outcome_with(&self, s: &State<W>, phase: usize, no_legal_move: bool) -> Option<Outcome> {
        let ctx = Ctx {
            no_legal_move,
            ..Ctx::turn(s.pos.to_move, phase as u8)
        };
        let rule = self
            .end
            .iter()
            .position(|(_, e)| self.eval(e, s, ctx) != 0)?;
        let me = s.pos.to_move;
        let winner = match self.end[rule].0 {
            Verdict::Lose => Some(me ^ 1),
            Verdict::Win => Some(me),
            Verdict::Draw => None,
            Verdict::Score => {
                let score = self.score(s, &Bits::EMPTY);
                crate::scoring::winner(score)
            }
            Verdict::CompareCaptures => self.captures_since_first_repetition(s),
        };
        Some(Outcome {
            winner,
            rule: rule as u16,
        })
    }

    /// Which action kinds the phase allows the player to move, right now
    /// (indexed by `ActionKind as usize`).
    pub fn allowed_actions(&self, s: &State<W>, phase: usize) -> [bool; 5] {
        let ctx = Ctx::turn(s.pos.to_move, phase as u8);
        let compiled = &self.phases[phase];
        let mut allowed = compiled.always;
        for (kind, guard) in &compiled.guarded {
            if !allowed[*kind as usize] && self.eval(guard, s, ctx) != 0 {
                allowed[*kind as usize] = true;
            }
        }
        if allowed[ActionKind::Play as usize]
            && (self.hand_empty(s) || self.play_forbidden_by(s).is_some())
        {
            allowed[ActionKind::Play as usize] = false;
        }
        allowed
    }

    /// The player to move has a limited hand and nothing left in it (no
    /// placement and no board play).
    #[inline]
    pub(crate) fn hand_empty(&self, s: &State<W>) -> bool {
        !self.rules.unlimited_hand && s.pos.in_hand[s.pos.to_move as usize] == 0
    }

    /// Index of the first forbid rule (in `Rules::forbid`) naming `class`
    /// whose condition holds now.
    fn forbidden_by(&self, s: &State<W>, class: MoveClass) -> Option<usize> {
        if self.forbid.is_empty() {
            return None;
        }
        let ctx = Ctx::turn(s.pos.to_move, NO_PHASE);
        self.forbid
            .iter()
            .position(|(classes, when)| classes.contains(&class) && self.eval(when, s, ctx) != 0)
    }

    /// The forbid rule (index into `Rules::forbid`) forbidding pass kind `kind` now.
    pub fn pass_forbidden_by(&self, s: &State<W>, kind: usize) -> Option<usize> {
        self.forbidden_by(s, MoveClass::Pass(kind as u8))
    }

    /// The forbid rule forbidding board plays now.
    pub fn play_forbidden_by(&self, s: &State<W>) -> Option<usize> {
        self.forbidden_by(s, MoveClass::Play)
    }

    fn pass_allowed(&self, s: &State<W>, kind: usize) -> bool {
        self.pass_forbidden_by(s, kind).is_none()
    }

    fn turn_moves(&self, s: &State<W>, phase: usize, out: &mut Vec<Move>) {
        let allowed = self.allowed_actions(s, phase);
        self.turn_moves_with(s, allowed, out);
    }

    /// Is there any legal move? Board plays are tried one by one, stopping
    /// at the first legal one.
    fn has_legal_move(&self, s: &State<W>, phase: usize) -> bool {
        let mut allowed = self.allowed_actions(s, phase);
        if allowed[ActionKind::Play as usize]
            && self.empty(s).iter().any(|p| self.play_legal(s, p as Point))
        {
            return true;
        }
        allowed[ActionKind::Play as usize] = false;
        let mut moves = Vec::new();
        self.turn_moves_with(s, allowed, &mut moves);
        !moves.is_empty()
    }

    /// Is there a legal move that does not lose at once? Passes and moves
    /// other than board plays are safe; a board play is unsafe when it is a
    /// suicide or an immediate repetition that the ruleset makes a loss.
    fn has_safe_move(&self, s: &State<W>) -> bool {
        let phase = self.phase(s);
        let mut allowed = self.allowed_actions(s, phase);
        if allowed[ActionKind::Play as usize] {
            let safe = self.empty(s).iter().any(|p| {
                let p = p as Point;
                self.play_legal(s, p) && !self.play_loses(s, p)
            });
            if safe {
                return true;
            }
        }
        allowed[ActionKind::Play as usize] = false;
        let mut moves = Vec::new();
        self.turn_moves_with(s, allowed, &mut moves);
        !moves.is_empty()
    }

    /// A legal board play on `p` that loses at once.
    fn play_loses(&self, s: &State<W>, p: Point) -> bool {
        let e = self.play_effect(s, p);
        let suicide = e.suicide && e.suicide_effect == morrigo_rules::SuicideEffect::Lose;
        let repeats = self.rules.repetition.immediate == morrigo_rules::Immediate::Lose
            && self.immediate_repetition(s, e.key_after);
        suicide || repeats
    }

    /// One legal move chosen uniformly at random, without generating them
    /// all when board plays make that costly: candidates are drawn in a
    /// random order and the first legal one is taken, which is uniform over
    /// the legal moves. `rng(n)` returns a number below `n`.
    pub fn sample_move(
        &self,
        s: &State<W>,
        buf: &mut Vec<Move>,
        rng: &mut impl FnMut(u32) -> u32,
    ) -> Sample {
        let board_plays = self.rules.play.is_some() && s.pos.pending == 0;
        if !board_plays {
            return match self.legal_moves(s, buf) {
                Some(o) => Sample::Over(o),
                None if buf.is_empty() => Sample::Stuck,
                None => Sample::Move(buf[rng(buf.len() as u32) as usize]),
            };
        }
        if let Some(o) = self.outcome(s) {
            return Sample::Over(o);
        }
        let phase = self.phase(s);
        let allowed = self.allowed_actions(s, phase);
        buf.clear();
        // Everything but board plays is legal as generated; plays are
        // checked only when drawn.
        let mut cheap = allowed;
        cheap[ActionKind::Play as usize] = false;
        self.turn_moves_with(s, cheap, buf);
        if allowed[ActionKind::Play as usize] {
            buf.extend(self.empty(s).iter().map(|p| Move::play(p as Point)));
        }
        while !buf.is_empty() {
            let i = rng(buf.len() as u32) as usize;
            let m = buf[i];
            if m.kind != MoveKind::Play || self.play_legal(s, m.to) {
                return Sample::Move(m);
            }
            buf.swap_remove(i);
        }
        Sample::Stuck
    }

    /// The moves of the allowed action kinds (indexed by `ActionKind as usize`).
    fn turn_moves_with(&self, s: &State<W>, allowed: [bool; 5], out: &mut Vec<Move>) {
        let me = s.pos.to_move as usize;
        let [place, slide, fly, play, pass] = allowed;
        let empty = self.empty(s);
        if place && !self.hand_empty(s) {
            out.extend(empty.iter().map(|p| Move::place(p as Point)));
        }
        if slide || fly {
            for from in s.pos.occ[me].iter() {
                let adjacent = self.neighbours[from];
                let reach = if fly { empty } else { adjacent.and(empty) };
                for to in reach.iter() {
                    // A fly to an adjacent point is the same move as a slide.
                    let kind = if slide && adjacent.has(to) {
                        MoveKind::Slide
                    } else {
                        MoveKind::Fly
                    };
                    out.push(Move {
                        kind,
                        from: from as Point,
                        to: to as Point,
                    });
                }
            }
        }
        if play {
            for p in empty.iter() {
                if self.play_legal(s, p as Point) {
                    out.push(Move::play(p as Point));
                }
            }
        }
        if pass {
            for k in 0..self.rules.passes.kinds.len() {
                if self.pass_allowed(s, k) {
                    out.push(Move::pass(k as u8));
                }
            }
        }
    }

    pub(crate) fn removable(&self, s: &State<W>, target: usize) -> bool {
        let Some((_, removable)) = &self.removals else {
            return false;
        };
        let ctx = Ctx {
            target: target as Point,
            lines_formed: s.pos.lines_formed as i64,
            ..Ctx::turn(s.pos.to_move, NO_PHASE)
        };
        self.eval(removable, s, ctx) != 0
    }

    fn removal_targets(&self, s: &State<W>, out: &mut Vec<Move>) {
        let opp = (s.pos.to_move ^ 1) as usize;
        for p in s.pos.occ[opp].iter() {
            if self.removable(s, p) {
                out.push(Move::remove(p as Point));
            }
        }
    }

    fn any_removable(&self, s: &State<W>) -> bool {
        let opp = (s.pos.to_move ^ 1) as usize;
        s.pos.occ[opp].iter().any(|p| self.removable(s, p))
    }

    // ----- transitions -------------------------------------------------------

    /// Play a legal move (as produced by `legal_moves` or `sample_move`).
    pub fn apply(&self, s: &mut State<W>, m: Move) -> Undo<W> {
        let saved = s.pos;
        let me = s.pos.to_move as usize;
        let opp = me ^ 1;
        let mut undo = Undo {
            pos: saved,
            pushed: false,
            recorded: false,
            placed: None,
        };
        s.pos.ply += 1;
        if m.kind != MoveKind::Remove {
            // What the last move did; removals belong to the move that owed them.
            s.pos.last_suicide = false;
            s.pos.last_immediate_repetition = false;
            s.pos.last_board_repetitions = 0;
        }
        let mut class = 0u8;
        let mut d_start = NO_D;
        match m.kind {
            MoveKind::Place => {
                self.take_from_hand(&mut s.pos, me);
                let pos = &mut s.pos;
                pos.hash ^= self.z_piece[me][m.to as usize];
                pos.board_key ^= self.z_piece[me][m.to as usize];
                pos.occ[me].set(m.to as usize);
                pos.on_board[me] += 1;
            }
            MoveKind::Slide | MoveKind::Fly => {
                let pos = &mut s.pos;
                pos.occ[me].clear(m.from as usize);
                pos.occ[me].set(m.to as usize);
                let k = self.z_piece[me][m.from as usize] ^ self.z_piece[me][m.to as usize];
                pos.hash ^= k;
                pos.board_key ^= k;
            }
            MoveKind::Remove => {
                // The removals complete the turn of the move that owed them.
                class = s.pos.turn_class;
                d_start = s.pos.turn_d_start;
                let pos = &mut s.pos;
                pos.occ[opp].clear(m.to as usize);
                pos.on_board[opp] -= 1;
                pos.hash ^= self.z_piece[opp][m.to as usize];
                pos.board_key ^= self.z_piece[opp][m.to as usize];
                pos.lost[opp] += 1;
                pos.pending -= 1;
                pos.removed_this_turn = true;
            }
            MoveKind::Play => {
                undo.placed = Some((m.to, s.placed_at[m.to as usize]));
                self.take_from_hand(&mut s.pos, me);
                let (c, d) = self.apply_play(s, m.to);
                class = c;
                d_start = d;
                s.pos.turn_class = c;
                s.pos.turn_d_start = d;
            }
            MoveKind::Pass => {
                let stones = self.rules.passes.stones;
                s.pos.pass_stones[opp] += stones;
                class = self.rules.passes.kinds[m.to as usize];
            }
        }
        // A board play's stone may be gone (a removed suicide): no line then.
        let forms_lines = match m.kind {
            MoveKind::Place | MoveKind::Slide | MoveKind::Fly => true,
            MoveKind::Play => s.pos.occ[me].has(m.to as usize),
            MoveKind::Remove | MoveKind::Pass => false,
        };
        if forms_lines {
            self.after_line_move(s, me, m.to);
        }
        if s.pos.pending > 0 && !self.any_removable(s) {
            s.pos.pending = 0;
        }
        if s.pos.pending == 0 {
            if self.record_moves {
                let is_play =
                    m.kind == MoveKind::Play || m.kind == MoveKind::Remove && s.pos.turn_class != 0;
                self.record_move(s, is_play, class, d_start);
                undo.recorded = true;
            }
            undo.pushed = self.reads.repetitions;
            self.end_turn(s, m);
        }
        undo
    }

    fn after_line_move(&self, s: &mut State<W>, me: usize, to: Point) {
        let formed = self.lines_at(&s.pos.occ[me], to as usize);
        s.pos.lines_formed = formed as u8;
        if formed == 0 {
            return;
        }
        s.pos.line_this_turn = true;
        if let Some((removals, _)) = &self.removals {
            let ctx = Ctx {
                lines_formed: formed as i64,
                ..Ctx::turn(me as u8, NO_PHASE)
            };
            let owed = self.eval(removals, s, ctx).clamp(0, u8::MAX as i64) as u8;
            s.pos.pending = owed;
        }
    }

    fn end_turn(&self, s: &mut State<W>, last: Move) {
        let pos = &mut s.pos;
        // With limited hands a player's pieces (board plus hand) only ever
        // decrease, so after a placement or a removal no earlier position can
        // come back. With an unlimited supply (Go) captured stones are
        // replaced by new plays and any earlier position may recur.
        let irreversible = !self.rules.unlimited_hand
            && (pos.removed_this_turn || matches!(last.kind, MoveKind::Place | MoveKind::Play));
        pos.turns_without_removal = if pos.removed_this_turn {
            0
        } else {
            pos.turns_without_removal + 1
        };
        pos.turns_without_line = if pos.line_this_turn {
            0
        } else {
            pos.turns_without_line + 1
        };
        pos.removed_this_turn = false;
        pos.line_this_turn = false;
        pos.turn_class = 0;
        pos.turn_d_start = NO_D;
        pos.turn += 1;
        pos.to_move ^= 1;
        pos.hash ^= self.z_side;
        if self.reads.repetitions {
            if irreversible {
                pos.reversible_from = s.history.len() as u32;
            }
            s.history.push(pos.hash);
        }
    }

    pub fn undo(&self, s: &mut State<W>, u: Undo<W>) {
        if u.recorded {
            self.unrecord_move(s);
        }
        if let Some((at, prev)) = u.placed {
            s.placed_at[at as usize] = prev;
        }
        s.pos = u.pos;
        if u.pushed {
            s.history.pop();
        }
    }
}
