//! A slow, obviously correct reference implementation of the rules, written
//! independently of [`morrigo_engine::Machine`] so tests can cross-check the two.
//!
//! Everything here is the most direct reading of the rules: the board is a
//! `Vec<Option<u8>>`, lines are found by scanning `Topology::lines`,
//! adjacency by `Topology::neighbours`, repetition by comparing whole
//! positions (no hashing, no bitsets), and rule expressions by a plain
//! recursive evaluator. Perft clones the game at every node. It shares only
//! the [`Move`], [`Outcome`] and [`Unit`] types with the fast engine.
//!
//! The rules it follows:
//! - the current phase is the first whose `when` holds for the player to move
//!   (a phase without `when` always holds; if none holds, the last phase);
//! - `place` needs a piece in hand and an empty point; `slide` moves an own
//!   piece to an adjacent empty point; `fly` to any empty point; a slide and
//!   a fly with the same from/to are one move (reported as a slide);
//! - after a non-removal move, `lines_formed` is the number of complete own
//!   lines through the destination; if it is positive and there is a line
//!   rule, the mover owes `removals` removals (negative counts as zero);
//! - whenever removals are owed but no opposing piece is `removable`, nothing
//!   more is owed; each removal is a ply by the same player; the turn ends
//!   when nothing is owed;
//! - at the start of each turn (never during owed removals) the end rules are
//!   checked in order with `me` the player to move; the first that holds ends
//!   the game (`lose`: the opponent wins, `win`: the mover wins, `draw`);
//! - a move (removals included) is not legal when a forbid rule naming its
//!   kind (`place`, `slide`, `fly`, `remove`) holds, its `when` reading the
//!   move: `lines_formed` and `run_length` on the board after it (see
//!   `moves.rs`), `captures` 0 (no Morris move takes pieces by itself).

use morrigo_dsl::{BinOp, Expr};
use morrigo_engine::{Move, MoveKind, Outcome, Point, Unit, NO_POINT};
use morrigo_rules::{ActionKind, MoveClass, Prim, Rules, Verdict};

/// What decides a repetition: the board, both hands and the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefKey {
    pub board: Vec<Option<u8>>,
    pub in_hand: [u32; 2],
    pub to_move: u8,
}

/// A game under the reference rules.
#[derive(Clone, Debug)]
pub struct RefGame<'r> {
    pub rules: &'r Rules,
    /// Owner of the piece on each point.
    pub board: Vec<Option<u8>>,
    pub in_hand: [u32; 2],
    /// Pieces of each player removed so far.
    pub lost: [u32; 2],
    pub to_move: u8,
    /// Removals the player to move still owes this turn.
    pub pending: u32,
    /// Lines completed by this turn's move (kept during its removals).
    pub lines_formed: u32,
    /// Turns completed so far.
    pub turn: u32,
    /// Plies played so far (a removal is a ply).
    pub ply: u32,
    pub turns_without_removal: u32,
    pub turns_without_line: u32,
    removed_this_turn: bool,
    line_this_turn: bool,
    /// Every turn-start position of the game, the current one (if the turn
    /// has started and no removal is owed) last.
    pub previous: Vec<RefKey>,
}

/// What an expression may read besides the position.
#[derive(Clone, Copy, Debug, Default)]
struct Ctx {
    phase: Option<usize>,
    no_legal_move: Option<bool>,
    target: Option<Point>,
    lines_formed: Option<u32>,
    /// The move a forbid rule judges.
    mv: Option<Move>,
}

/// The references' evaluator of rule expressions, written from the
/// language's definition and independent of the fast engine's lowering:
/// `var` reads a built-in value, `call` applies a built-in function.
pub(crate) fn eval_expr(
    e: &Expr<Prim>,
    var: &dyn Fn(Prim) -> i64,
    call: &dyn Fn(Prim, &[i64]) -> i64,
) -> i64 {
    let eval = |x: &Expr<Prim>| eval_expr(x, var, call);
    let truth = |t: bool| if t { 1 } else { 0 };
    match e {
        Expr::Const(v) => *v,
        Expr::Var(p) => var(*p),
        Expr::Call(f, args) => {
            let args: Vec<i64> = args.iter().map(eval).collect();
            call(*f, &args)
        }
        Expr::Not(x) => truth(eval(x) == 0),
        Expr::Neg(x) => 0i64.wrapping_sub(eval(x)),
        Expr::Bin(op, a, b) => {
            let (a, b) = (eval(a), eval(b));
            match op {
                BinOp::Or => truth(a != 0 || b != 0),
                BinOp::And => truth(a != 0 && b != 0),
                BinOp::Eq => truth(a == b),
                BinOp::Ne => truth(a != b),
                BinOp::Lt => truth(a < b),
                BinOp::Le => truth(a <= b),
                BinOp::Gt => truth(a > b),
                BinOp::Ge => truth(a >= b),
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::Min => {
                    if a <= b {
                        a
                    } else {
                        b
                    }
                }
                BinOp::Max => {
                    if a >= b {
                        a
                    } else {
                        b
                    }
                }
            }
        }
        Expr::If(parts) => {
            let [c, a, b] = &**parts;
            if eval(c) != 0 {
                eval(a)
            } else {
                eval(b)
            }
        }
    }
}

/// This reference covers rulesets without board plays or passes.
const GO_FAMILY: &str = "the Morris reference does not implement board plays or passes";

impl<'r> RefGame<'r> {
    /// The start of a game: empty board, full hands, the first player to move.
    pub fn new(rules: &'r Rules) -> Self {
        assert!(
            rules.play.is_none() && rules.passes.kinds.is_empty(),
            "{GO_FAMILY}"
        );
        let board = vec![None; rules.topology.len()];
        let in_hand = [rules.in_hand; 2];
        let start = RefKey {
            board: board.clone(),
            in_hand,
            to_move: 0,
        };
        RefGame {
            rules,
            board,
            in_hand,
            lost: [0; 2],
            to_move: 0,
            pending: 0,
            lines_formed: 0,
            turn: 0,
            ply: 0,
            turns_without_removal: 0,
            turns_without_line: 0,
            removed_this_turn: false,
            line_this_turn: false,
            previous: vec![start],
        }
    }

    /// The repetition key of the current position.
    pub fn key(&self) -> RefKey {
        RefKey {
            board: self.board.clone(),
            in_hand: self.in_hand,
            to_move: self.to_move,
        }
    }

    /// How many recorded turn-start positions equal the current position
    /// (at a turn start, the current one included).
    pub fn repetitions(&self) -> u32 {
        let now = self.key();
        self.previous.iter().filter(|k| **k == now).count() as u32
    }

    // ----- board reading ------------------------------------------------------

    fn owns_line(&self, player: u8, line: &[u16]) -> bool {
        line.iter().all(|&p| self.board[p as usize] == Some(player))
    }

    /// Complete lines of `player` that contain point `p`.
    pub fn lines_through(&self, player: u8, p: Point) -> u32 {
        self.rules
            .topology
            .lines
            .iter()
            .filter(|l| l.contains(&p) && self.owns_line(player, l))
            .count() as u32
    }

    /// Complete lines of `player` on the board.
    pub fn lines_of(&self, player: u8) -> u32 {
        self.rules
            .topology
            .lines
            .iter()
            .filter(|l| self.owns_line(player, l))
            .count() as u32
    }

    /// The piece on `p` lies in a complete line of its owner.
    pub fn in_line(&self, p: Point) -> bool {
        match self.board[p as usize] {
            Some(owner) => self.lines_through(owner, p) > 0,
            None => false,
        }
    }

    fn on_board(&self, player: u8) -> u32 {
        self.board.iter().filter(|&&o| o == Some(player)).count() as u32
    }

    fn empty_points(&self) -> u32 {
        self.board.iter().filter(|o| o.is_none()).count() as u32
    }

    // ----- expressions --------------------------------------------------------

    fn eval(&self, e: &Expr<Prim>, c: Ctx) -> i64 {
        eval_expr(e, &|p| self.var(p, c), &|f, args| self.call(f, args))
    }

    fn var(&self, p: Prim, c: Ctx) -> i64 {
        let me = self.to_move as i64;
        match p {
            Prim::Me => me,
            Prim::Opponent => 1 - me,
            Prim::Phase => c.phase.expect("`phase` is not available here") as i64,
            // Without board plays no move loses at once: safe means legal.
            Prim::NoLegalMove | Prim::NoSafeMove => {
                c.no_legal_move
                    .expect("`no_legal_move` is not available here") as i64
            }
            Prim::Repetitions => self.repetitions() as i64,
            Prim::TurnsWithoutRemoval => self.turns_without_removal as i64,
            Prim::TurnsWithoutLine => self.turns_without_line as i64,
            Prim::Turn => self.turn as i64,
            Prim::EmptyPoints => self.empty_points() as i64,
            Prim::Target => c.target.expect("`target` is not available here") as i64,
            Prim::LinesFormed if c.mv.is_some() => self.move_value(p, c.mv.unwrap()),
            Prim::LinesFormed => {
                c.lines_formed
                    .expect("`lines_formed` is not available here") as i64
            }
            Prim::Captures | Prim::RunLength => {
                self.move_value(p, c.mv.expect("move values exist only in forbid rules"))
            }
            Prim::InHand
            | Prim::OnBoard
            | Prim::Lines
            | Prim::InLine
            | Prim::AllInLines
            | Prim::Lost => panic!("{p:?} is a function, used without an argument"),
            Prim::After
            | Prim::Captured
            | Prim::PassStones
            | Prim::LastPlaySuicide
            | Prim::ImmediateRepetition
            | Prim::BoardRepetitions => unreachable!("{GO_FAMILY}"),
        }
    }

    fn call(&self, f: Prim, args: &[i64]) -> i64 {
        assert_eq!(args.len(), 1, "{f:?} takes one argument");
        let arg = args[0];
        let player = || -> u8 {
            assert!(arg == 0 || arg == 1, "{f:?}({arg}): not a player");
            arg as u8
        };
        match f {
            Prim::InHand => self.in_hand[player() as usize] as i64,
            Prim::OnBoard => self.on_board(player()) as i64,
            Prim::Lost => self.lost[player() as usize] as i64,
            Prim::Lines => self.lines_of(player()) as i64,
            Prim::AllInLines => {
                let pl = player();
                let all = (0..self.board.len())
                    .filter(|&p| self.board[p] == Some(pl))
                    .all(|p| self.in_line(p as Point));
                all as i64
            }
            Prim::InLine => {
                assert!(
                    arg >= 0 && (arg as usize) < self.board.len(),
                    "in_line({arg}): not a point"
                );
                self.in_line(arg as Point) as i64
            }
            _ => panic!("{f:?} is not a function"),
        }
    }

    // ----- the move being judged ---------------------------------------------

    /// The board after move `m` of the player to move, if it leaves a
    /// piece on `m.to`.
    fn board_after(&self, m: Move) -> Option<Vec<Option<u8>>> {
        let mut board = self.board.clone();
        match m.kind {
            MoveKind::Place => {}
            MoveKind::Slide | MoveKind::Fly => board[m.from as usize] = None,
            _ => return None,
        }
        board[m.to as usize] = Some(self.to_move);
        Some(board)
    }

    fn move_value(&self, p: Prim, m: Move) -> i64 {
        let lines = &self.rules.topology.lines;
        let Some(after) = self.board_after(m) else {
            return 0;
        };
        (match p {
            Prim::LinesFormed => crate::moves::lines_formed(lines, &after, self.to_move, m.to),
            Prim::RunLength => crate::moves::run_length(lines, &after, self.to_move, m.to),
            // Placing, sliding and flying take nothing by themselves.
            _ => 0,
        }) as i64
    }

    /// The first forbid rule naming the kind of `m` whose `when` holds.
    pub fn forbidden_by(&self, m: Move) -> Option<usize> {
        let class = match m.kind {
            MoveKind::Place => MoveClass::Place,
            MoveKind::Slide => MoveClass::Slide,
            MoveKind::Fly => MoveClass::Fly,
            MoveKind::Remove => MoveClass::Remove,
            MoveKind::Play | MoveKind::Pass => unreachable!("{GO_FAMILY}"),
        };
        let c = Ctx {
            phase: Some(self.phase()),
            mv: Some(m),
            ..Ctx::default()
        };
        self.rules
            .forbid
            .iter()
            .position(|f| f.moves.contains(&class) && self.eval(&f.when.expr, c) != 0)
    }

    // ----- rules --------------------------------------------------------------

    /// The phase of the player to move: the first whose `when` holds.
    pub fn phase(&self) -> usize {
        let phases = &self.rules.phases;
        phases
            .iter()
            .position(|ph| match &ph.when {
                None => true,
                Some(w) => self.eval(&w.expr, Ctx::default()) != 0,
            })
            .unwrap_or(phases.len().saturating_sub(1))
    }

    fn allowed(&self, phase: usize, kind: ActionKind) -> bool {
        let c = Ctx {
            phase: Some(phase),
            ..Ctx::default()
        };
        self.rules.phases[phase]
            .actions
            .iter()
            .any(|a| a.kind == kind && self.eval(&a.guard.expr, c) != 0)
    }

    /// Moves of a turn (no removal pending) in the given phase.
    fn turn_moves(&self, phase: usize) -> Vec<Move> {
        let me = self.to_move;
        let n = self.board.len();
        let place = self.allowed(phase, ActionKind::Place);
        let slide = self.allowed(phase, ActionKind::Slide);
        let fly = self.allowed(phase, ActionKind::Fly);
        let mut out = Vec::new();
        if place && self.in_hand[me as usize] > 0 {
            for to in 0..n {
                if self.board[to].is_none() {
                    out.push(Move::place(to as Point));
                }
            }
        }
        for from in 0..n {
            if self.board[from] != Some(me) {
                continue;
            }
            for to in 0..n {
                if self.board[to].is_some() {
                    continue;
                }
                let adjacent = self.rules.topology.neighbours[from].contains(&(to as Point));
                let kind = if slide && adjacent {
                    MoveKind::Slide
                } else if fly {
                    MoveKind::Fly
                } else {
                    continue;
                };
                out.push(Move {
                    kind,
                    from: from as Point,
                    to: to as Point,
                });
            }
        }
        out.retain(|&m| self.forbidden_by(m).is_none());
        out
    }

    fn removal_ctx(&self, target: Option<Point>) -> Ctx {
        Ctx {
            phase: Some(self.phase()),
            // Owing a removal is not having no legal move.
            no_legal_move: Some(false),
            target,
            lines_formed: Some(self.lines_formed),
            mv: None,
        }
    }

    /// Whether the player to move may remove the opposing piece on `p`.
    pub fn removable(&self, p: Point) -> bool {
        let opp = 1 - self.to_move;
        if self.board[p as usize] != Some(opp) {
            return false;
        }
        match &self.rules.line_rule {
            Some(lr) => self.eval(&lr.removable.expr, self.removal_ctx(Some(p))) != 0,
            None => false,
        }
    }

    fn removal_targets(&self) -> Vec<Move> {
        (0..self.board.len() as Point)
            .filter(|&p| self.removable(p))
            .map(Move::remove)
            .filter(|&m| self.forbidden_by(m).is_none())
            .collect()
    }

    /// The legal moves, or (with no moves) the outcome if the game is over.
    pub fn legal_moves(&self) -> (Vec<Move>, Option<Outcome>) {
        if self.pending > 0 {
            return (self.removal_targets(), None);
        }
        let phase = self.phase();
        let moves = self.turn_moves(phase);
        let c = Ctx {
            phase: Some(phase),
            no_legal_move: Some(moves.is_empty()),
            target: None,
            lines_formed: None,
            mv: None,
        };
        for (i, rule) in self.rules.end.iter().enumerate() {
            if self.eval(&rule.when.expr, c) != 0 {
                let winner = match rule.verdict {
                    Verdict::Lose => Some(1 - self.to_move),
                    Verdict::Win => Some(self.to_move),
                    Verdict::Draw => None,
                    Verdict::Score | Verdict::CompareCaptures => unreachable!("{GO_FAMILY}"),
                };
                let outcome = Outcome {
                    winner,
                    rule: i as u16,
                };
                return (Vec::new(), Some(outcome));
            }
        }
        (moves, None)
    }

    /// Play a move. Panics if it is plainly not playable (it does not check
    /// the phase's action guards: pass moves from [`RefGame::legal_moves`]).
    pub fn apply(&mut self, m: Move) {
        let me = self.to_move;
        let opp = 1 - me;
        let to = m.to as usize;
        match m.kind {
            MoveKind::Place => {
                assert_eq!(self.pending, 0, "{m:?}: a removal is owed");
                assert!(self.in_hand[me as usize] > 0, "{m:?}: nothing in hand");
                assert_eq!(self.board[to], None, "{m:?}: point taken");
                self.in_hand[me as usize] -= 1;
                self.board[to] = Some(me);
            }
            MoveKind::Slide | MoveKind::Fly => {
                assert_eq!(self.pending, 0, "{m:?}: a removal is owed");
                assert_ne!(m.from, NO_POINT);
                assert_eq!(self.board[m.from as usize], Some(me), "{m:?}: not own");
                assert_eq!(self.board[to], None, "{m:?}: point taken");
                self.board[m.from as usize] = None;
                self.board[to] = Some(me);
            }
            MoveKind::Remove => {
                assert!(self.pending > 0, "{m:?}: no removal owed");
                assert_eq!(self.board[to], Some(opp), "{m:?}: not an opposing piece");
                self.board[to] = None;
                self.lost[opp as usize] += 1;
                self.pending -= 1;
                self.removed_this_turn = true;
            }
            MoveKind::Play | MoveKind::Pass => unreachable!("{GO_FAMILY}"),
        }
        self.ply += 1;
        if m.kind != MoveKind::Remove {
            let formed = self.lines_through(me, m.to);
            self.lines_formed = formed;
            if formed > 0 {
                self.line_this_turn = true;
                if let Some(lr) = &self.rules.line_rule {
                    let c = self.removal_ctx(None);
                    self.pending = self.eval(&lr.removals.expr, c).max(0) as u32;
                }
            }
        }
        if self.pending > 0 && self.removal_targets().is_empty() {
            self.pending = 0;
        }
        if self.pending == 0 {
            self.turns_without_removal = if self.removed_this_turn {
                0
            } else {
                self.turns_without_removal + 1
            };
            self.turns_without_line = if self.line_this_turn {
                0
            } else {
                self.turns_without_line + 1
            };
            self.removed_this_turn = false;
            self.line_this_turn = false;
            self.lines_formed = 0;
            self.turn += 1;
            self.to_move = opp;
            self.previous.push(self.key());
        }
    }

    /// Leaf count of the game tree of `depth` levels (see [`Unit`]).
    pub fn perft(&self, depth: u32, unit: Unit) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (moves, _) = self.legal_moves();
        let mut total = 0;
        for m in moves {
            let mut next = self.clone();
            next.apply(m);
            let rest = if unit == Unit::Turn && next.pending > 0 {
                depth
            } else {
                depth - 1
            };
            total += next.perft(rest, unit);
        }
        total
    }
}
