//! Building a machine: a ruleset compiled into the tables of [`Machine`]
//! (its hash keys drawn from one fixed seed), and the states a game starts
//! from. Everything here runs once per machine or per game, never in the
//! move loop.

use crate::bits::Bits;
use crate::compiled::lower;
use crate::grid::GridShifts;
use crate::machine::{CompiledForbid, CompiledPhase, Machine, Position, Reads, State};
use crate::moves::{Point, NO_POINT};
use crate::records::{KeyCounts, NO_D};
use crate::tables::captures;
use crate::tables::choose::ChooseRules;
use crate::tables::mills::{LineHistory, Marks, MillExtras};
use crate::tables::move_values::MoveJudge;
use crate::tables::phase_lines::PhaseLines;
use crate::tables::turns::TurnOrder;
use morrigo_board::Topology;
use morrigo_dsl::{BinOp, Expr};
use morrigo_rules::{reads_piece_counts_only, ForbidRule, PhaseRule, Prim, Rules};
use std::sync::Arc;

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
    mills: Option<MillExtras>,
    choose: Option<ChooseRules>,
}

impl Keys {
    fn draw(rules: &Rules, n: usize) -> Self {
        let mut seed = 0x6D6F_7272_6967_6F21; // "morrigo!"
        let z_piece = [(); 2].map(|_| (0..n).map(|_| splitmix(&mut seed)).collect());
        let z_hand = [(); 2].map(|_| splitmix(&mut seed));
        let z_side = splitmix(&mut seed);
        let mills = MillExtras::of(rules, n, &mut || splitmix(&mut seed));
        let choose = ChooseRules::of(rules, n, &mut || splitmix(&mut seed));
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

impl<const W: usize> Machine<W> {
    /// Build the tables. Panics only if the board has more than `64 * W`
    /// points, which [`crate::AnyMachine::new`] rules out.
    pub fn new(rules: Arc<Rules>) -> Self {
        let t = &rules.topology;
        let n = t.len();
        assert!(n <= 64 * W, "board of {n} points needs a wider machine");
        let neighbours: Vec<Bits<W>> = t.neighbours.iter().map(|ns| mask(ns)).collect();
        let grid = GridShifts::detect(t.width, &neighbours);
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
        let turns = TurnOrder::of(&rules);
        let captures = captures::compile(&rules);
        let leap_rules = captures::leap_rules(&rules);
        let judge = MoveJudge::of(&rules);
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
                Some(x) if x.history => LineHistory::new(self.line_masks.len()),
                _ => Default::default(),
            },
            marks: Marks::default(),
            phase_lines: match &self.mills {
                Some(x) if x.phase_lines => PhaseLines::new(self.phases.len()),
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
}
