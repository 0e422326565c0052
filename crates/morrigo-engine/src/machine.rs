//! The compiled machine: rules turned into flat tables and bitsets, and the
//! state transitions over them. Nothing here parses text, hashes strings or
//! allocates per move; the only growing buffer is the position history.

use crate::bits::Bits;
use morrigo_dsl::{BinOp, Expr};
use morrigo_rules::{ActionKind, Prim, Rules, Verdict};
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
}

/// One ply. `from` is [`NO_POINT`] for placements and removals.
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
    /// Index into `Rules::end`.
    pub rule: u16,
}

/// Everything about a position except its history: `Copy`, so undo is a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position<const W: usize> {
    pub occ: [Bits<W>; 2],
    pub in_hand: [u32; 2],
    pub lost: [u32; 2],
    pub to_move: u8,
    /// Removals the player to move still owes this turn.
    pub pending: u8,
    pub turn: u32,
    pub ply: u32,
    pub turns_without_removal: u32,
    pub turns_without_line: u32,
    /// Lines completed by the last move (0 after a removal).
    pub lines_formed: u8,
    removed_this_turn: bool,
    line_this_turn: bool,
    /// History index from which the position can repeat (after the last
    /// placement or removal nothing earlier can match).
    reversible_from: u32,
    /// Zobrist key of board, hands and player to move.
    pub hash: u64,
}

/// A game state: the position plus the keys of every turn-start position.
#[derive(Clone, Debug)]
pub struct State<const W: usize> {
    pub pos: Position<W>,
    history: Vec<u64>,
}

impl<const W: usize> State<W> {
    pub fn owner(&self, p: Point) -> Option<u8> {
        (0..2u8).find(|&pl| self.pos.occ[pl as usize].has(p as usize))
    }

    pub fn history(&self) -> &[u64] {
        &self.history
    }
}

/// What `apply` returns so `undo` can restore the state exactly.
#[derive(Clone, Copy, Debug)]
pub struct Undo<const W: usize> {
    pos: Position<W>,
    pushed: bool,
}

#[derive(Clone, Debug)]
struct CompiledPhase {
    when: Option<Expr<Prim>>,
    actions: Vec<(ActionKind, Expr<Prim>)>,
}

/// Rules compiled for boards of up to `64 * W` points.
#[derive(Debug)]
pub struct Machine<const W: usize> {
    pub rules: Arc<Rules>,
    n: usize,
    all: Bits<W>,
    neighbours: Vec<Bits<W>>,
    line_masks: Vec<Bits<W>>,
    /// Lines through each point: `lines_through[start[p]..start[p + 1]]`.
    lines_through: Vec<u16>,
    lines_through_start: Vec<u32>,
    phases: Vec<CompiledPhase>,
    removals: Option<(Expr<Prim>, Expr<Prim>)>,
    end: Vec<(Verdict, Expr<Prim>)>,
    z_piece: [Vec<u64>; 2],
    z_hand: [Vec<u64>; 2],
    z_side: u64,
    track_history: bool,
}

/// Fixed-seed SplitMix64: the same keys on every run, so hashes are stable.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Evaluation context of one expression.
#[derive(Clone, Copy)]
struct Ctx {
    me: u8,
    phase: u8,
    no_legal_move: bool,
    target: Point,
    lines_formed: i64,
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
        let neighbours = t.neighbours.iter().map(|ns| mask(ns)).collect();
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
            .map(|p| CompiledPhase {
                when: p.when.as_ref().map(|c| c.expr.clone()),
                actions: p
                    .actions
                    .iter()
                    .map(|a| (a.kind, a.guard.expr.clone()))
                    .collect(),
            })
            .collect();
        let removals = rules
            .line_rule
            .as_ref()
            .map(|l| (l.removals.expr.clone(), l.removable.expr.clone()));
        let end = rules
            .end
            .iter()
            .map(|e| (e.verdict, e.when.expr.clone()))
            .collect();
        let mut seed = 0x6D6F_7272_6967_6F21; // "morrigo!"
        let z_piece = [(); 2].map(|_| (0..n).map(|_| splitmix(&mut seed)).collect());
        let hand_len = rules.in_hand as usize + 1;
        let z_hand = [(); 2].map(|_| (0..hand_len).map(|_| splitmix(&mut seed)).collect());
        let z_side = splitmix(&mut seed);
        let track_history = rules.uses(Prim::Repetitions);
        Machine {
            n,
            all: Bits::first(n),
            neighbours,
            line_masks,
            lines_through,
            lines_through_start,
            phases,
            removals,
            end,
            z_piece,
            z_hand,
            z_side,
            track_history,
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
            self.rules.in_hand.saturating_sub(placed)
        });
        let mut pos = Position {
            occ,
            in_hand,
            lost,
            to_move,
            pending: 0,
            turn: 0,
            ply: 0,
            turns_without_removal: 0,
            turns_without_line: 0,
            lines_formed: 0,
            removed_this_turn: false,
            line_this_turn: false,
            reversible_from: 0,
            hash: 0,
        };
        pos.hash = self.full_hash(&pos);
        State {
            pos,
            history: vec![pos.hash],
        }
    }

    fn full_hash(&self, pos: &Position<W>) -> u64 {
        let mut h = 0;
        for pl in 0..2 {
            for p in pos.occ[pl].iter() {
                h ^= self.z_piece[pl][p];
            }
            h ^= self.hand_key(pl, pos.in_hand[pl]);
        }
        if pos.to_move == 1 {
            h ^= self.z_side;
        }
        h
    }

    #[inline(always)]
    fn hand_key(&self, player: usize, count: u32) -> u64 {
        self.z_hand[player]
            .get(count as usize)
            .copied()
            .unwrap_or(0)
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
    pub fn repetitions(&self, s: &State<W>) -> u32 {
        let from = s.pos.reversible_from as usize;
        s.history[from.min(s.history.len())..]
            .iter()
            .filter(|&&h| h == s.pos.hash)
            .count() as u32
    }

    /// The phase (index into `Rules::phases`) of the player to move.
    pub fn phase(&self, s: &State<W>) -> usize {
        let ctx = Ctx {
            me: s.pos.to_move,
            phase: u8::MAX,
            no_legal_move: false,
            target: NO_POINT,
            lines_formed: 0,
        };
        self.phases
            .iter()
            .position(|p| p.when.as_ref().is_none_or(|w| self.eval(w, s, ctx) != 0))
            .unwrap_or(self.phases.len().saturating_sub(1))
    }

    fn eval(&self, e: &Expr<Prim>, s: &State<W>, c: Ctx) -> i64 {
        match e {
            Expr::Const(v) => *v,
            Expr::Var(p) => self.value(*p, s, c),
            Expr::Call(f, args) => {
                let a = self.eval(&args[0], s, c);
                self.call(*f, a, s)
            }
            Expr::Not(x) => (self.eval(x, s, c) == 0) as i64,
            Expr::Neg(x) => self.eval(x, s, c).wrapping_neg(),
            Expr::Bin(BinOp::And, a, b) => {
                (self.eval(a, s, c) != 0 && self.eval(b, s, c) != 0) as i64
            }
            Expr::Bin(BinOp::Or, a, b) => {
                (self.eval(a, s, c) != 0 || self.eval(b, s, c) != 0) as i64
            }
            Expr::Bin(op, a, b) => morrigo_dsl::fold(*op, self.eval(a, s, c), self.eval(b, s, c)),
        }
    }

    fn value(&self, p: Prim, s: &State<W>, c: Ctx) -> i64 {
        let pos = &s.pos;
        match p {
            Prim::Me => c.me as i64,
            Prim::Opponent => (c.me ^ 1) as i64,
            Prim::Phase => c.phase as i64,
            Prim::NoLegalMove => c.no_legal_move as i64,
            Prim::Repetitions => self.repetitions(s) as i64,
            Prim::TurnsWithoutRemoval => pos.turns_without_removal as i64,
            Prim::TurnsWithoutLine => pos.turns_without_line as i64,
            Prim::Turn => pos.turn as i64,
            Prim::EmptyPoints => self.empty(s).count() as i64,
            Prim::Target => c.target as i64,
            Prim::LinesFormed => c.lines_formed,
            // Functions are reached through `call`; a bare use cannot type-check.
            _ => 0,
        }
    }

    fn call(&self, f: Prim, arg: i64, s: &State<W>) -> i64 {
        let pos = &s.pos;
        let player = (arg & 1) as usize;
        match f {
            Prim::InHand => pos.in_hand[player] as i64,
            Prim::OnBoard => pos.occ[player].count() as i64,
            Prim::Lost => pos.lost[player] as i64,
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
        let ctx = Ctx {
            me: s.pos.to_move,
            phase: phase as u8,
            no_legal_move: out.is_empty(),
            target: NO_POINT,
            lines_formed: 0,
        };
        let rule = self
            .end
            .iter()
            .position(|(_, e)| self.eval(e, s, ctx) != 0)?;
        out.clear();
        let winner = match self.end[rule].0 {
            Verdict::Lose => Some(s.pos.to_move ^ 1),
            Verdict::Win => Some(s.pos.to_move),
            Verdict::Draw => None,
        };
        Some(Outcome {
            winner,
            rule: rule as u16,
        })
    }

    /// Which action kinds the phase allows the player to move, right now.
    pub fn allowed_actions(&self, s: &State<W>, phase: usize) -> [bool; 3] {
        let ctx = Ctx {
            me: s.pos.to_move,
            phase: phase as u8,
            no_legal_move: false,
            target: NO_POINT,
            lines_formed: 0,
        };
        let mut allowed = [false; 3];
        for (kind, guard) in &self.phases[phase].actions {
            if self.eval(guard, s, ctx) != 0 {
                allowed[*kind as usize] = true;
            }
        }
        allowed
    }

    fn turn_moves(&self, s: &State<W>, phase: usize, out: &mut Vec<Move>) {
        let me = s.pos.to_move as usize;
        let [place, slide, fly] = self.allowed_actions(s, phase);
        let empty = self.empty(s);
        if place && s.pos.in_hand[me] > 0 {
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
    }

    fn removable(&self, s: &State<W>, target: usize) -> bool {
        let Some((_, removable)) = &self.removals else {
            return false;
        };
        let ctx = Ctx {
            me: s.pos.to_move,
            phase: u8::MAX,
            no_legal_move: false,
            target: target as Point,
            lines_formed: s.pos.lines_formed as i64,
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

    /// Play a legal move (as produced by `legal_moves`).
    pub fn apply(&self, s: &mut State<W>, m: Move) -> Undo<W> {
        let saved = s.pos;
        let me = s.pos.to_move as usize;
        let opp = me ^ 1;
        let pos = &mut s.pos;
        pos.ply += 1;
        match m.kind {
            MoveKind::Place => {
                pos.hash ^= self.hand_key(me, pos.in_hand[me]);
                pos.in_hand[me] -= 1;
                pos.hash ^= self.hand_key(me, pos.in_hand[me]) ^ self.z_piece[me][m.to as usize];
                pos.occ[me].set(m.to as usize);
            }
            MoveKind::Slide | MoveKind::Fly => {
                pos.occ[me].clear(m.from as usize);
                pos.occ[me].set(m.to as usize);
                pos.hash ^= self.z_piece[me][m.from as usize] ^ self.z_piece[me][m.to as usize];
            }
            MoveKind::Remove => {
                pos.occ[opp].clear(m.to as usize);
                pos.hash ^= self.z_piece[opp][m.to as usize];
                pos.lost[opp] += 1;
                pos.pending -= 1;
                pos.removed_this_turn = true;
                pos.lines_formed = 0;
            }
        }
        if m.kind != MoveKind::Remove {
            let formed = self.lines_at(&s.pos.occ[me], m.to as usize);
            s.pos.lines_formed = formed as u8;
            if formed > 0 {
                s.pos.line_this_turn = true;
                if let Some((removals, _)) = &self.removals {
                    let ctx = Ctx {
                        me: me as u8,
                        phase: u8::MAX,
                        no_legal_move: false,
                        target: NO_POINT,
                        lines_formed: formed as i64,
                    };
                    let owed = self.eval(removals, s, ctx).clamp(0, u8::MAX as i64) as u8;
                    s.pos.pending = owed;
                }
            }
        }
        if s.pos.pending > 0 && !self.any_removable(s) {
            s.pos.pending = 0;
        }
        let pushed = s.pos.pending == 0;
        if pushed {
            self.end_turn(s, m);
        }
        Undo { pos: saved, pushed }
    }

    fn end_turn(&self, s: &mut State<W>, last: Move) {
        let pos = &mut s.pos;
        let irreversible = pos.removed_this_turn || last.kind == MoveKind::Place;
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
        pos.turn += 1;
        pos.to_move ^= 1;
        pos.hash ^= self.z_side;
        if self.track_history {
            if irreversible {
                pos.reversible_from = s.history.len() as u32;
            }
            s.history.push(pos.hash);
        }
    }

    pub fn undo(&self, s: &mut State<W>, u: Undo<W>) {
        s.pos = u.pos;
        if u.pushed && self.track_history {
            s.history.pop();
        }
    }
}
