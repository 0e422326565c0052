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
//! - the line rule reads `phase` as the phase the turn began in;
//! - a phase's `remove` action adds, for each opposing piece `target` for
//!   which its condition holds, the move removing it (`no_legal_move` there:
//!   the phase allows no placement, slide or fly); such a removal ends the
//!   turn and forms no line; `remove_own` does the same for each of the
//!   mover's own pieces (the removed piece counts in its owner's `lost`);
//! - `lines_formed_in(phase, player)` adds up the `lines_formed` of every
//!   move the player made in a turn begun in that phase;
//! - a phase's `pass` action adds a pass of each kind no forbid rule
//!   forbids (see `pass_moves` for `no_legal_move` there); a pass ends the
//!   turn and changes nothing else;
//! - when a turn ends (counters updated), the next player is the opponent,
//!   or the mover if the phase the turn began in has an `extra_turn` that
//!   holds (`me` the mover, `lines_formed` the turn's lines); then, if the
//!   phase that player would be in is another phase with a `first`, the
//!   player `first` names.
//!
//! The line rule's extras, read as plainly:
//! - `counts`: each complete own line through the destination is judged
//!   with `line` set to it; `lines_formed` is the number that count, and no
//!   counting line means no removal. Every complete line through the
//!   destination is then written down as formed by the mover on this turn;
//!   a slide or fly that completed any line also writes down as traded
//!   each own line through its origin that was complete before the move.
//!   `formed_before`, `turns_since_formed`, `turns_since_traded` search
//!   that list for the player to move (never: 4294967295 turns);
//! - `from_hand`: when it holds, the owed removals are taken from the
//!   opponent's hand, as many as it holds; the rest from the board;
//! - `delay`: a removal made while it holds leaves a mark where the piece
//!   stood; no piece may go to a marked point; at the end of a turn, if it no
//!   longer holds for the next player, every mark goes.

//!
//! Captures by removal (`captures.*.take: choose | choose_one`):
//! - such a rule takes nothing with the move; after the move's lines are
//!   judged, its targets are: custodian — each flanked opposing piece that
//!   the line rule's `removable` allows (any, without a line rule);
//!   intervention — both ends of each line centred on the moved piece whose
//!   ends are opposing pieces, either of them allowed so;
//! - the mover then owes the largest of: the line's removals, the custodian
//!   targets (one if an armed custodian rule says `choose_one`), two for an
//!   intervention; the first removal picks an intervention target (then the
//!   one more removal must be its partner on a line with it), a custodian
//!   target (then the rest of what the custodian earns, from its targets),
//!   or another piece the line lets it remove (then the line's removals as
//!   usual); when no target is left, nothing more is owed.
//!
//! Forbid rules:
//! - a move (removals included) is not legal when a forbid rule naming its
//!   kind (`place`, `slide`, `fly`, `leap`, `remove`) holds, its `when` reading the
//!   move: `lines_formed` and `run_length` on the board after it (see
//!   `moves.rs`), `captures` the pieces its `captures:` rules would take.

use morrigo_dsl::{BinOp, Expr};
use morrigo_engine::{Move, MoveKind, Outcome, Point, Unit, NO_POINT};
use morrigo_rules::{
    ActionKind, CaptureKind, CaptureRule, CaptureTake, MoveClass, Prim, Rules, Verdict,
};

/// What decides a repetition: the board, both hands and the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefKey {
    /// Owner of the piece on each point.
    pub board: Vec<Option<u8>>,
    /// Points marked by delayed removals.
    pub marked: Vec<bool>,
    /// Pieces each player holds in hand.
    pub in_hand: [u32; 2],
    /// The player to move.
    pub to_move: u8,
}

/// The turn-start positions of a game, newest first: a persistent list,
/// so that a copy of the game (every probe and every perft node clones
/// one) shares its past instead of copying a board per turn played (which
/// made the reference quadratic in a game's length: Russian Mill's
/// 400-ply lock-step games spent 90% of their time in malloc).
#[derive(Clone, Debug, Default)]
struct History(Option<std::sync::Arc<Turn>>);

#[derive(Debug)]
struct Turn {
    key: RefKey,
    before: History,
}

impl History {
    /// This history with `key` the newest.
    fn with(self, key: RefKey) -> History {
        History(Some(std::sync::Arc::new(Turn { key, before: self })))
    }

    fn iter(&self) -> impl Iterator<Item = &RefKey> {
        std::iter::successors(self.0.as_deref(), |t| t.before.0.as_deref()).map(|t| &t.key)
    }
}

impl Drop for History {
    // Unlinked one turn at a time: the default drop would recurse once per
    // turn of a long record.
    fn drop(&mut self) {
        let mut next = self.0.take();
        while let Some(rc) = next {
            next = match std::sync::Arc::try_unwrap(rc) {
                Ok(mut turn) => turn.before.0.take(),
                Err(_) => None,
            };
        }
    }
}

/// A game under the reference rules.
#[derive(Clone, Debug)]
pub struct RefGame<'r> {
    /// The rules the game is played by.
    pub rules: &'r Rules,
    /// Owner of the piece on each point.
    pub board: Vec<Option<u8>>,
    /// Pieces each player still holds in hand.
    pub in_hand: [u32; 2],
    /// Pieces of each player removed so far.
    pub lost: [u32; 2],
    /// The player to move.
    pub to_move: u8,
    /// Removals the player to move still owes this turn.
    pub pending: u32,
    /// Lines completed by this turn's move (kept during its removals).
    pub lines_formed: u32,
    /// Turns completed so far.
    pub turn: u32,
    /// Plies played so far (a removal is a ply).
    pub ply: u32,
    /// Turns since one removed a piece.
    pub turns_without_removal: u32,
    /// Turns since one completed a line.
    pub turns_without_line: u32,
    /// Turns since one placed or removed a piece.
    pub quiet_turns: u32,
    removed_this_turn: bool,
    placed_this_turn: bool,
    line_this_turn: bool,
    /// The phase this turn began in (set by the turn's first ply).
    turn_phase: Option<usize>,
    /// Every turn-start position of the game, the current one (if the turn
    /// has started and no removal is owed) first.
    previous: History,
    /// Points marked by delayed removals.
    pub marked: Vec<bool>,
    /// Every line formed or traded so far, oldest first.
    pub line_events: Vec<LineEvent>,
    /// (player, phase the turn began in, lines_formed) of every move that
    /// completed a counting line.
    pub formed_in: Vec<(u8, usize, u32)>,
    /// The removals a capture by removal owes this turn.
    choice: Option<RefChoice>,
}

/// What a capture by removal left to remove (see the module notes).
#[derive(Clone, Debug)]
struct RefChoice {
    /// No removal made yet.
    open: bool,
    /// Custodian targets still removable.
    custodian: Vec<usize>,
    /// Intervention targets still removable.
    intervention: Vec<usize>,
    /// The intervened lines' ends.
    pairs: Vec<(usize, usize)>,
    line_owes: u32,
    custodian_owes: u32,
}

/// A line formed or traded by a player on a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEvent {
    /// The player who formed or traded it.
    pub player: u8,
    /// Its index in the board's lines.
    pub line: usize,
    /// The turn it happened on (`RefGame::turn` then).
    pub turn: u32,
    /// Traded (a piece moved out of it while completing another line) rather
    /// than formed.
    pub traded: bool,
}

/// What an expression may read besides the position.
#[derive(Clone, Copy, Debug, Default)]
struct Ctx {
    phase: Option<usize>,
    no_legal_move: Option<bool>,
    target: Option<Point>,
    lines_formed: Option<u32>,
    line: Option<usize>,
    /// The move a forbid rule judges.
    mv: Option<Move>,
}

/// The references' evaluator of rule expressions, written from the
/// language's definition and independent of the fast engine's lowering:
/// `var` reads a built-in value, `call` applies a built-in function.
/// `each_line` counts the lines for which a condition holds
/// (`lines_formed(cond)`, `lines_broken(cond)`: their argument is not a
/// value but a condition judged per line).
pub(crate) fn eval_expr(
    e: &Expr<Prim>,
    var: &dyn Fn(Prim) -> i64,
    call: &dyn Fn(Prim, &[i64]) -> i64,
    each_line: &dyn Fn(Prim, &Expr<Prim>) -> i64,
) -> i64 {
    let eval = |x: &Expr<Prim>| eval_expr(x, var, call, each_line);
    let truth = |t: bool| if t { 1 } else { 0 };
    match e {
        Expr::Const(v) => *v,
        Expr::Var(p) => var(*p),
        Expr::Call(f @ (Prim::LinesFormedWhere | Prim::LinesBrokenWhere), args) => {
            each_line(*f, &args[0])
        }
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
const GO_FAMILY: &str =
    "the Morris reference does not implement board plays, pass stones or move-history patterns";

impl<'r> RefGame<'r> {
    /// Whether this reference can judge games of `rules`, else why not (see
    /// `GO_FAMILY`); [`RefGame::new`] panics on what it does not cover.
    pub fn judges(rules: &Rules) -> Result<(), String> {
        match rules.play.is_none() && rules.patterns.is_empty() && rules.passes.stones == 0 {
            true => Ok(()),
            false => Err(GO_FAMILY.into()),
        }
    }

    /// The start of a game: empty board, full hands, the first player to move.
    pub fn new(rules: &'r Rules) -> Self {
        if let Err(why) = Self::judges(rules) {
            panic!("{why}");
        }
        // The set-up stones (`setup.stones`) and the first to move.
        let mut board = vec![None; rules.topology.len()];
        for (pl, stones) in rules.start.stones.iter().enumerate() {
            for &p in stones {
                board[p as usize] = Some(pl as u8);
            }
        }
        let to_move = rules.start.to_move;
        let in_hand = [rules.in_hand; 2];
        let start = RefKey {
            board: board.clone(),
            marked: vec![false; board.len()],
            in_hand,
            to_move,
        };
        RefGame {
            rules,
            board,
            in_hand,
            lost: [0; 2],
            to_move,
            pending: 0,
            lines_formed: 0,
            turn: 0,
            ply: 0,
            turns_without_removal: 0,
            turns_without_line: 0,
            quiet_turns: 0,
            placed_this_turn: false,
            removed_this_turn: false,
            line_this_turn: false,
            turn_phase: None,
            marked: vec![false; rules.topology.len()],
            previous: History::default().with(start),
            line_events: Vec::new(),
            formed_in: Vec::new(),
            choice: None,
        }
    }

    /// The phase the current turn began in (`None` at a turn's start).
    pub fn turn_phase(&self) -> Option<usize> {
        self.turn_phase
    }

    /// The repetition key of the current position.
    pub fn key(&self) -> RefKey {
        RefKey {
            board: self.board.clone(),
            marked: self.marked.clone(),
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
        (0..self.board.len()).filter(|&p| self.free(p)).count() as u32
    }

    /// Nothing stands on the point: no piece and no mark.
    fn free(&self, p: usize) -> bool {
        self.board[p].is_none() && !self.marked[p]
    }

    /// The last event of this kind for the player to move and `line`.
    fn last_event(&self, line: i64, traded: bool) -> Option<&LineEvent> {
        self.line_events
            .iter()
            .rev()
            .find(|e| e.player == self.to_move && e.line as i64 == line && e.traded == traded)
    }

    // ----- expressions --------------------------------------------------------

    fn eval(&self, e: &Expr<Prim>, c: Ctx) -> i64 {
        eval_expr(
            e,
            &|p| self.var(p, c),
            &|f, args| self.call(f, args),
            &|f, cond| self.count_lines(f, cond, c),
        )
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
            Prim::QuietTurns => self.quiet_turns as i64,
            Prim::Turn => self.turn as i64,
            Prim::EmptyPoints => self.empty_points() as i64,
            Prim::Target => c.target.expect("`target` is not available here") as i64,
            Prim::LinesFormed if c.mv.is_some() => self.move_value(p, c.mv.unwrap()),
            Prim::LinesFormed => {
                c.lines_formed
                    .expect("`lines_formed` is not available here") as i64
            }
            Prim::Line => c.line.expect("`line` is not available here") as i64,
            Prim::Captures
            | Prim::RunLength
            | Prim::To
            | Prim::From
            | Prim::Direction
            | Prim::LinesBroken => {
                self.move_value(p, c.mv.expect("move values exist only in forbid rules"))
            }
            Prim::InHand
            | Prim::OnBoard
            | Prim::Lines
            | Prim::InLine
            | Prim::AllInLines
            | Prim::Lost
            | Prim::OwnNeighbours
            | Prim::FormedBefore
            | Prim::TurnsSinceFormed
            | Prim::TurnsSinceTraded
            | Prim::LinesFormedWhere
            | Prim::LinesBrokenWhere
            | Prim::DirectionOf
            | Prim::LinesFormedIn => panic!("{p:?} is a function, used without an argument"),
            Prim::After
            | Prim::Captured
            | Prim::PassStones
            | Prim::LastPlaySuicide
            | Prim::ImmediateRepetition
            | Prim::BoardRepetitions => unreachable!("{GO_FAMILY}"),
        }
    }

    fn call(&self, f: Prim, args: &[i64]) -> i64 {
        if f == Prim::LinesFormedIn {
            let [phase, player] = args else {
                panic!("lines_formed_in takes a phase and a player")
            };
            return self
                .formed_in
                .iter()
                .filter(|&&(p, ph, _)| p as i64 == *player && ph as i64 == *phase)
                .map(|&(_, _, n)| n as i64)
                .sum();
        }
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
            Prim::OwnNeighbours => self.rules.topology.neighbours[arg as usize]
                .iter()
                .filter(|&&q| self.board[q as usize] == Some(self.to_move))
                .count() as i64,
            Prim::FormedBefore => self.last_event(arg, false).is_some() as i64,
            Prim::TurnsSinceFormed | Prim::TurnsSinceTraded => {
                let traded = f == Prim::TurnsSinceTraded;
                match self.last_event(arg, traded) {
                    Some(e) => (self.turn - e.turn) as i64,
                    None => u32::MAX as i64,
                }
            }
            Prim::DirectionOf => {
                let d = self.rules.topology.line_directions[arg as usize];
                morrigo_rules::vocab::direction_value(d)
            }
            _ => panic!("{f:?} is not a function"),
        }
    }

    /// `lines_formed(cond)`: the own lines through the destination complete
    /// on the board after move `c.mv`; `lines_broken(cond)`: the own lines
    /// through the point a slide, fly or leap leaves, complete before it.
    /// Each is judged with `line` set to it, on the position before the move.
    fn count_lines(&self, f: Prim, cond: &Expr<Prim>, c: Ctx) -> i64 {
        let m = c.mv.expect("lines of the move exist only in forbid rules");
        let (board, at) = if f == Prim::LinesFormedWhere {
            match self.board_after(m) {
                Some(after) => (after, m.to),
                None => return 0,
            }
        } else if matches!(m.kind, MoveKind::Slide | MoveKind::Fly | MoveKind::Leap) {
            (self.board.clone(), m.from)
        } else {
            return 0;
        };
        let mut count = 0;
        for (i, line) in self.rules.topology.lines.iter().enumerate() {
            let complete = line
                .iter()
                .all(|&q| board[q as usize] == Some(self.to_move));
            if line.contains(&at) && complete {
                let each = Ctx { line: Some(i), ..c };
                if self.eval(cond, each) != 0 {
                    count += 1;
                }
            }
        }
        count
    }

    // ----- the move being judged ---------------------------------------------

    /// The board after move `m` of the player to move, if it leaves a
    /// piece on `m.to`.
    fn board_after(&self, m: Move) -> Option<Vec<Option<u8>>> {
        let mut board = self.board.clone();
        match m.kind {
            MoveKind::Place => {}
            MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => board[m.from as usize] = None,
            _ => return None,
        }
        board[m.to as usize] = Some(self.to_move);
        Some(board)
    }

    fn move_value(&self, p: Prim, m: Move) -> i64 {
        let moves_piece = matches!(m.kind, MoveKind::Slide | MoveKind::Fly | MoveKind::Leap);
        match p {
            Prim::To => return m.to as i64,
            Prim::From if moves_piece => return m.from as i64,
            Prim::From => return -1,
            Prim::Direction => return crate::moves::direction(self.rules, m),
            Prim::LinesBroken if moves_piece => {
                return self.lines_through(self.to_move, m.from) as i64
            }
            Prim::LinesBroken => return 0,
            _ => {}
        }
        if p == Prim::Captures {
            // The opposing pieces the move takes by itself (its `captures:`
            // rules): play it on a copy and see which leave the board.
            if m.kind == MoveKind::Remove {
                return 0;
            }
            let opp = Some(1 - self.to_move);
            let mut after = self.clone();
            after.apply(m);
            return (0..self.board.len())
                .filter(|&q| self.board[q] == opp && after.board[q] != opp)
                .count() as i64;
        }
        let lines = &self.rules.topology.lines;
        let Some(after) = self.board_after(m) else {
            return 0;
        };
        (match p {
            Prim::LinesFormed => crate::moves::lines_formed(lines, &after, self.to_move, m.to),
            Prim::RunLength => crate::moves::run_length(lines, &after, self.to_move, m.to),
            _ => 0,
        }) as i64
    }

    /// The class forbid rules name a move by.
    fn class(m: Move) -> MoveClass {
        match m.kind {
            MoveKind::Place => MoveClass::Place,
            MoveKind::Slide => MoveClass::Slide,
            MoveKind::Fly => MoveClass::Fly,
            MoveKind::Leap => MoveClass::Leap,
            MoveKind::Remove => MoveClass::Remove,
            MoveKind::Pass => MoveClass::Pass(m.to as u8),
            MoveKind::Play => unreachable!("{GO_FAMILY}"),
        }
    }

    /// The passes of a turn whose other moves are `others`: each pass kind,
    /// when the phase allows `pass` and no forbid rule naming it holds. A
    /// forbid rule reading `no_legal_move` reads it as: no move in `others`
    /// and no other pass kind (one no rule without `no_legal_move` forbids)
    /// is outside the rule's own kinds.
    fn pass_moves(&self, phase: usize, others: &[Move]) -> Vec<Move> {
        if !self.allowed(phase, ActionKind::Pass) {
            return Vec::new();
        }
        let kinds = self.rules.passes.kinds.len();
        let ctx = |k: usize, no_legal_move: Option<bool>| Ctx {
            phase: Some(phase),
            no_legal_move,
            mv: Some(Move::pass(k as u8)),
            ..Ctx::default()
        };
        let plainly_forbidden = |k: usize| {
            self.rules.forbid.iter().any(|f| {
                f.moves.contains(&MoveClass::Pass(k as u8))
                    && !f.when.uses(Prim::NoLegalMove)
                    && self.eval(&f.when.expr, ctx(k, None)) != 0
            })
        };
        let forbidden = |k: usize| {
            self.rules.forbid.iter().any(|f| {
                if !f.moves.contains(&MoveClass::Pass(k as u8)) {
                    return false;
                }
                let blocked = f.when.uses(Prim::NoLegalMove).then(|| {
                    let outside = |c: MoveClass| !f.moves.contains(&c);
                    !(others.iter().any(|&o| outside(Self::class(o)))
                        || (0..kinds)
                            .any(|j| outside(MoveClass::Pass(j as u8)) && !plainly_forbidden(j)))
                });
                self.eval(&f.when.expr, ctx(k, blocked)) != 0
            })
        };
        (0..kinds)
            .filter(|&k| !forbidden(k))
            .map(|k| Move::pass(k as u8))
            .collect()
    }

    /// The first forbid rule naming the kind of `m` whose `when` holds.
    pub fn forbidden_by(&self, m: Move) -> Option<usize> {
        let class = Self::class(m);
        let c = Ctx {
            phase: Some(self.phase()),
            mv: Some(m),
            target: (m.kind == MoveKind::Remove).then_some(m.to),
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
                if self.free(to) {
                    out.push(Move::place(to as Point));
                }
            }
        }
        for from in 0..n {
            if self.board[from] != Some(me) {
                continue;
            }
            for to in 0..n {
                if !self.free(to) {
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
        // Leaps: a move between the same points as a slide or fly is the
        // leap (it takes the jumped piece), whether or not a forbid rule
        // naming `leap` refuses it.
        let leaps = self.leaps(phase);
        out.retain(|m| !leaps.iter().any(|l| l.from == m.from && l.to == m.to));
        out.extend(
            leaps
                .into_iter()
                .filter(|&l| self.forbidden_by(l).is_none()),
        );
        out
    }

    /// Capture rules of kind `kind` whose condition holds for the mover.
    fn armed(&self, phase: usize, kind: Option<CaptureKind>) -> Vec<&'r CaptureRule> {
        let ctx = Ctx {
            phase: Some(phase),
            ..Ctx::default()
        };
        self.rules
            .captures
            .iter()
            .filter(|c| kind.is_none_or(|k| c.kind == k))
            .filter(|c| self.eval(&c.when.expr, ctx) != 0)
            .collect()
    }

    /// Triples of consecutive points of the lines a rule works along.
    fn triples(&self, rule: &CaptureRule) -> Vec<[usize; 3]> {
        let t = &self.rules.topology;
        let mut out = Vec::new();
        for (line, dir) in t.lines.iter().zip(&t.line_directions) {
            if rule.directions.contains(dir) {
                for w in line.windows(3) {
                    out.push([w[0] as usize, w[1] as usize, w[2] as usize]);
                }
            }
        }
        out
    }

    /// The leaps of the mover: from an own piece at one end of a triple,
    /// over an opposing middle piece, to the empty other end.
    fn leaps(&self, phase: usize) -> Vec<Move> {
        let me = Some(self.to_move);
        let opp = Some(1 - self.to_move);
        let mut out: Vec<Move> = Vec::new();
        for rule in self.armed(phase, Some(CaptureKind::Leap)) {
            for [a, b, c] in self.triples(rule) {
                for (from, to) in [(a, c), (c, a)] {
                    let m = Move {
                        kind: MoveKind::Leap,
                        from: from as Point,
                        to: to as Point,
                    };
                    if self.board[from] == me
                        && self.board[b] == opp
                        && self.board[to].is_none()
                        && !out.contains(&m)
                    {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// Removals the phase's `remove` action (opposing pieces) and
    /// `remove_own` action (own pieces) allow as moves.
    fn removal_moves(&self, phase: usize) -> Vec<Move> {
        let rule = &self.rules.phases[phase];
        let blocked = self.turn_moves(phase).is_empty();
        let actions = [
            (&rule.remove, 1 - self.to_move),
            (&rule.remove_own, self.to_move),
        ];
        let mut out = Vec::new();
        for (action, owner) in actions {
            let Some(guard) = action else { continue };
            for p in 0..self.board.len() as Point {
                if self.board[p as usize] != Some(owner) {
                    continue;
                }
                let c = Ctx {
                    phase: Some(phase),
                    no_legal_move: Some(blocked),
                    target: Some(p),
                    lines_formed: None,
                    line: None,
                    mv: None,
                };
                if self.eval(&guard.expr, c) != 0 {
                    out.push(Move::remove(p));
                }
            }
        }
        out
    }

    /// Who moves after the turn that just ended (counters updated, the
    /// mover still to move).
    fn next_player(&self) -> u8 {
        let me = self.to_move;
        let phase = self.turn_phase.expect("a turn has begun");
        let c = Ctx {
            phase: Some(phase),
            no_legal_move: None,
            target: None,
            lines_formed: Some(self.lines_formed),
            line: None,
            mv: None,
        };
        let rule = &self.rules.phases[phase];
        let again = rule
            .extra_turn
            .as_ref()
            .is_some_and(|x| self.eval(&x.expr, c) != 0);
        let next = if again { me } else { 1 - me };
        let mut probe = self.clone();
        probe.to_move = next;
        let entered = probe.phase();
        match &self.rules.phases[entered].first {
            Some(f) if entered != phase => self.eval(&f.expr, c) as u8,
            _ => next,
        }
    }

    fn removal_ctx(&self, target: Option<Point>) -> Ctx {
        Ctx {
            phase: Some(self.turn_phase.unwrap_or_else(|| self.phase())),
            // Owing a removal is not having no legal move.
            no_legal_move: Some(false),
            target,
            lines_formed: Some(self.lines_formed),
            line: None,
            mv: None,
        }
    }

    fn holds(&self, cond: Option<&morrigo_rules::Cond>) -> bool {
        cond.is_some_and(|c| self.eval(&c.expr, self.removal_ctx(None)) != 0)
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
        if let Some(c) = &self.choice {
            let mut targets: Vec<usize> = c.custodian.clone();
            targets.extend(&c.intervention);
            if c.open && c.line_owes > 0 {
                targets.extend((0..self.board.len()).filter(|&p| self.removable(p as Point)));
            }
            targets.sort_unstable();
            targets.dedup();
            return targets
                .into_iter()
                .map(|p| Move::remove(p as Point))
                .filter(|&m| self.forbidden_by(m).is_none())
                .collect();
        }
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
        let mut moves = self.turn_moves(phase);
        moves.extend(self.removal_moves(phase));
        let passes = self.pass_moves(phase, &moves);
        moves.extend(passes);
        let c = Ctx {
            phase: Some(phase),
            no_legal_move: Some(moves.is_empty()),
            target: None,
            lines_formed: None,
            line: None,
            mv: None,
        };
        for (i, rule) in self.rules.end.iter().enumerate() {
            if self.eval(&rule.when.expr, c) != 0 {
                let winner = match rule.verdict {
                    Verdict::Lose => Some(1 - self.to_move),
                    Verdict::Win => Some(self.to_move),
                    Verdict::Draw | Verdict::NoResult => None,
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
    ///
    /// In order: the piece moves (`place_from_hand`, `move_piece`,
    /// `remove_piece`; a pass changes nothing), the armed capture rules take
    /// what they take with the move (`capture`), the lines the move
    /// completed are judged and what they owe is set (`judge_lines`),
    /// captures by removal add their targets (`open_choice`); when nothing
    /// (more) is owed or can be, the turn ends (`end_turn`).
    pub fn apply(&mut self, m: Move) {
        if self.pending == 0 {
            self.turn_phase = Some(self.phase());
        }
        // Capture rules are judged for the mover before the move.
        let moves_a_piece = !matches!(m.kind, MoveKind::Remove | MoveKind::Pass);
        let armed = if moves_a_piece {
            self.armed(self.phase(), None)
        } else {
            Vec::new()
        };
        let board_before = self.board.clone();
        match m.kind {
            MoveKind::Place => self.place_from_hand(m),
            MoveKind::Slide | MoveKind::Fly | MoveKind::Leap => self.move_piece(m, &armed),
            MoveKind::Remove => self.remove_piece(m),
            MoveKind::Pass => {
                // A pass ends the turn and changes nothing on the board.
                assert_eq!(self.pending, 0, "{m:?}: a removal is owed");
                assert!((m.to as usize) < self.rules.passes.kinds.len(), "{m:?}");
            }
            MoveKind::Play => unreachable!("{GO_FAMILY}"),
        }
        self.capture(&armed, m.to);
        self.ply += 1;
        if moves_a_piece {
            self.judge_lines(m, &board_before);
            self.open_choice(&armed, m.to as usize);
        }
        if self.pending > 0 && self.removal_targets().is_empty() {
            self.pending = 0;
        }
        if self.pending == 0 {
            self.end_turn();
        }
    }

    /// A piece from the mover's hand onto the empty point `m.to`.
    fn place_from_hand(&mut self, m: Move) {
        let me = self.to_move;
        let to = m.to as usize;
        assert_eq!(self.pending, 0, "{m:?}: a removal is owed");
        assert!(self.in_hand[me as usize] > 0, "{m:?}: nothing in hand");
        assert!(self.free(to), "{m:?}: point taken");
        self.in_hand[me as usize] -= 1;
        self.board[to] = Some(me);
        self.placed_this_turn = true;
    }

    /// A slide, fly or leap: an own piece from `m.from` to the empty point
    /// `m.to`; a leap first takes every opposing piece it jumps under an
    /// armed leap rule.
    fn move_piece(&mut self, m: Move, armed: &[&CaptureRule]) {
        let me = self.to_move;
        let to = m.to as usize;
        assert_eq!(self.pending, 0, "{m:?}: a removal is owed");
        if m.kind == MoveKind::Leap {
            self.take_jumped(m, armed);
        }
        assert_ne!(m.from, NO_POINT);
        assert_eq!(self.board[m.from as usize], Some(me), "{m:?}: not own");
        assert!(self.free(to), "{m:?}: point taken");
        self.board[m.from as usize] = None;
        self.board[to] = Some(me);
    }

    /// Take every opposing piece the leap `m` jumps under an armed leap
    /// rule (the middle of a rule's three points whose ends are the leap's
    /// `from` and `to`); a leap must jump something.
    fn take_jumped(&mut self, m: Move, armed: &[&CaptureRule]) {
        let opp = 1 - self.to_move;
        let (from, to) = (m.from as usize, m.to as usize);
        let mut over = Vec::new();
        for rule in armed.iter().filter(|r| r.kind == CaptureKind::Leap) {
            for [a, b, c] in self.triples(rule) {
                let joins = (a, c) == (from, to) || (c, a) == (from, to);
                if joins && self.board[b] == Some(opp) && !over.contains(&b) {
                    over.push(b);
                }
            }
        }
        assert!(!over.is_empty(), "{m:?}: nothing to jump");
        for b in over {
            self.board[b] = None;
            self.lost[opp as usize] += 1;
            self.removed_this_turn = true;
        }
    }

    /// A removal of the piece on `m.to`: an owed one (an opposing piece),
    /// or one made as a move (the phase's `remove` or `remove_own` action,
    /// nothing owed). Marks the point while the line rule's `delay` holds.
    fn remove_piece(&mut self, m: Move) {
        let opp = 1 - self.to_move;
        let to = m.to as usize;
        // An own piece only by a `remove_own` action (nothing owed).
        let owner = self.board[to].expect("a removal takes a piece");
        assert!(
            owner == opp || self.pending == 0,
            "{m:?}: an owed removal takes an opposing piece"
        );
        let delay = self.rules.line_rule.as_ref().and_then(|l| l.delay.as_ref());
        if self.holds(delay) {
            self.marked[to] = true;
        }
        self.board[to] = None;
        self.lost[owner as usize] += 1;
        if self.pending > 0 {
            self.pending -= 1;
        } else {
            // A removal made as a move: the phase's `remove` action.
            self.lines_formed = 0;
        }
        self.removed_this_turn = true;
        self.chose(to);
    }

    /// After the mover's piece arrived on `m.to`: the complete own lines
    /// through it are written down as formed (and, if it completed any,
    /// the own lines through `m.from` that were complete in `board_before`
    /// as traded); `lines_formed` is the number that count (the line
    /// rule's `counts`), and counting lines owe the line rule's removals.
    fn judge_lines(&mut self, m: Move, board_before: &[Option<u8>]) {
        let me = self.to_move;
        let complete: Vec<usize> = (0..self.rules.topology.lines.len())
            .filter(|&l| {
                let line = &self.rules.topology.lines[l];
                line.contains(&m.to) && self.owns_line(me, line)
            })
            .collect();
        // Judged before this move's lines are written down (`counts` may
        // read the lines formed before).
        let counting = complete.iter().filter(|&&l| self.counts(l)).count() as u32;
        for &l in &complete {
            self.line_events.push(LineEvent {
                player: me,
                line: l,
                turn: self.turn,
                traded: false,
            });
        }
        if m.from != NO_POINT && !complete.is_empty() {
            for (l, line) in self.rules.topology.lines.iter().enumerate() {
                let was_complete = line.iter().all(|&p| board_before[p as usize] == Some(me));
                if line.contains(&m.from) && was_complete {
                    self.line_events.push(LineEvent {
                        player: me,
                        line: l,
                        turn: self.turn,
                        traded: true,
                    });
                }
            }
        }
        self.lines_formed = counting;
        if counting > 0 {
            let phase = self.turn_phase.expect("a turn has begun");
            self.formed_in.push((me, phase, counting));
        }
        if !complete.is_empty() {
            self.line_this_turn = true;
        }
        if counting > 0 {
            self.owe_line_removals();
        }
    }

    /// Whether the complete line `l` counts: the line rule's `counts` with
    /// `line` set to it (every line counts without one).
    fn counts(&self, l: usize) -> bool {
        let counts = self
            .rules
            .line_rule
            .as_ref()
            .and_then(|lr| lr.counts.as_ref());
        match counts {
            None => true,
            Some(c) => {
                let ctx = Ctx {
                    lines_formed: None,
                    line: Some(l),
                    ..self.removal_ctx(None)
                };
                self.eval(&c.expr, ctx) != 0
            }
        }
    }

    /// The removals the line rule owes for this move's counting lines
    /// (none without a line rule); while its `from_hand` holds they are
    /// taken from the opponent's hand first.
    fn owe_line_removals(&mut self) {
        let Some(lr) = self.rules.line_rule.as_ref() else {
            return;
        };
        let opp = 1 - self.to_move;
        let c = self.removal_ctx(None);
        self.pending = self.eval(&lr.removals.expr, c).max(0) as u32;
        if self.pending > 0 && self.holds(lr.from_hand.as_ref()) {
            let taken = self.pending.min(self.in_hand[opp as usize]);
            self.in_hand[opp as usize] -= taken;
            self.lost[opp as usize] += taken;
            self.pending -= taken;
            if taken > 0 {
                self.removed_this_turn = true;
            }
        }
    }

    /// The turn is over (nothing owed): the counters of quiet turns, the
    /// next player (`next_player`), the marks (gone unless the
    /// line rule's `delay` still holds), and the new turn-start position.
    fn end_turn(&mut self) {
        self.choice = None;
        self.turns_without_removal = if self.removed_this_turn {
            0
        } else {
            self.turns_without_removal + 1
        };
        self.quiet_turns = if self.removed_this_turn || self.placed_this_turn {
            0
        } else {
            self.quiet_turns + 1
        };
        self.placed_this_turn = false;
        self.turns_without_line = if self.line_this_turn {
            0
        } else {
            self.turns_without_line + 1
        };
        self.removed_this_turn = false;
        self.line_this_turn = false;
        self.turn += 1;
        self.to_move = self.next_player();
        self.lines_formed = 0;
        self.turn_phase = None;
        let delay = self.rules.line_rule.as_ref().and_then(|l| l.delay.as_ref());
        if self.marked.contains(&true) && !self.holds(delay) {
            self.marked = vec![false; self.board.len()];
        }
        self.previous = std::mem::take(&mut self.previous).with(self.key());
    }

    /// The captures the mover's piece arriving on `to` makes: for every
    /// three consecutive points of a line in a rule's directions, custodian
    /// takes an opposing middle piece between `to` and an own piece,
    /// intervention takes both opposing ends when `to` is the middle.
    fn capture(&mut self, armed: &[&CaptureRule], to: Point) {
        let me = Some(self.to_move);
        let opp = Some(1 - self.to_move);
        let to = to as usize;
        let at = |p: usize| self.board[p];
        let mut taken: Vec<usize> = Vec::new();
        // Rules taking by removals take nothing here (`open_choice`).
        for rule in armed.iter().filter(|r| r.take == CaptureTake::All) {
            for [a, b, c] in self.triples(rule) {
                match rule.kind {
                    CaptureKind::Custodian => {
                        let flanked =
                            at(b) == opp && ((a == to && at(c) == me) || (c == to && at(a) == me));
                        if flanked {
                            taken.push(b);
                        }
                    }
                    CaptureKind::Intervention => {
                        if b == to && at(a) == opp && at(c) == opp {
                            taken.push(a);
                            taken.push(c);
                        }
                    }
                    // A leap takes what it jumps (in `apply`).
                    CaptureKind::Leap => {}
                }
            }
        }
        taken.sort_unstable();
        taken.dedup();
        for p in taken {
            self.board[p] = None;
            self.lost[(1 - self.to_move) as usize] += 1;
            self.removed_this_turn = true;
        }
    }

    /// After a move to `to` and its lines: the targets of the armed rules
    /// taking by removals, and what the mover owes.
    fn open_choice(&mut self, armed: &[&CaptureRule], to: usize) {
        let me = Some(self.to_move);
        let opp = Some(1 - self.to_move);
        let allowed = |g: &Self, p: usize| g.rules.line_rule.is_none() || g.removable(p as Point);
        let mut custodian = Vec::new();
        let mut pairs = Vec::new();
        let mut one = false;
        for rule in armed.iter().filter(|r| r.take != CaptureTake::All) {
            for [a, b, c] in self.triples(rule) {
                match rule.kind {
                    CaptureKind::Custodian => {
                        one |= rule.take == CaptureTake::ChooseOne;
                        let ends =
                            (a == to && self.board[c] == me) || (c == to && self.board[a] == me);
                        if ends
                            && self.board[b] == opp
                            && allowed(self, b)
                            && !custodian.contains(&b)
                        {
                            custodian.push(b);
                        }
                    }
                    CaptureKind::Intervention => {
                        let ends = self.board[a] == opp && self.board[c] == opp;
                        if b == to
                            && ends
                            && (allowed(self, a) || allowed(self, c))
                            && !pairs.contains(&(a, c))
                        {
                            pairs.push((a, c));
                        }
                    }
                    CaptureKind::Leap => {}
                }
            }
        }
        if custodian.is_empty() && pairs.is_empty() {
            return;
        }
        let custodian_owes = if one {
            custodian.len().min(1)
        } else {
            custodian.len()
        } as u32;
        let intervention_owes = if pairs.is_empty() { 0 } else { 2 };
        let line_owes = self.pending;
        self.pending = line_owes.max(custodian_owes).max(intervention_owes);
        let intervention = pairs.iter().flat_map(|&(a, c)| [a, c]).collect();
        self.choice = Some(RefChoice {
            open: true,
            custodian,
            intervention,
            pairs,
            line_owes,
            custodian_owes,
        });
    }

    /// The removal on `at` was made (`pending` lowered): the first one
    /// decides what the turn takes.
    fn chose(&mut self, at: usize) {
        let Some(mut c) = self.choice.take() else {
            return;
        };
        if c.open {
            c.open = false;
            if c.intervention.contains(&at) {
                let partners: Vec<usize> = c
                    .pairs
                    .iter()
                    .filter_map(|&(a, b)| match () {
                        _ if a == at => Some(b),
                        _ if b == at => Some(a),
                        _ => None,
                    })
                    .collect();
                c.intervention = partners;
                c.custodian.clear();
                self.pending = u32::from(!c.intervention.is_empty());
            } else if c.custodian.contains(&at) {
                c.custodian.retain(|&p| p != at);
                c.intervention.clear();
                self.pending = c.custodian_owes - 1;
            } else {
                // The line's removals, as usual from here on.
                self.pending = c.line_owes - 1;
                return;
            }
        } else {
            c.custodian.retain(|&p| p != at);
            c.intervention.retain(|&p| p != at);
            if c.custodian.is_empty() && c.intervention.is_empty() {
                self.pending = 0;
            }
        }
        if self.pending > 0 {
            self.choice = Some(c);
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
