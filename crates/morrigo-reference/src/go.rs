//! A slow, obviously correct reference for the Go family (board plays and
//! passes), written independently of the fast engine's `chains.rs`,
//! `history.rs` and `scoring.rs` so tests can cross-check the two. It shares
//! only the [`Move`] and [`Outcome`] types with the fast engine, and the
//! history-pattern matcher (`morrigo_dsl::Pattern`, tested on its own).
//!
//! Everything is the most direct reading of the rules (rulesets/go/RULES.md
//! and the JK text, section 12.2):
//! - the board is a `Vec<Option<u8>>`; chains are found by flood fill over
//!   `Topology::neighbours`, liberties are sets of points;
//! - a board play puts a stone on an empty point; then every opposing chain
//!   without liberty is removed and counted as the mover's captured
//!   prisoners (JK Art. 2.3);
//! - if a chain of the mover then has no liberty, that is a suicide; per
//!   [`PlayRule`] (single stone / chain of 2+) the play is illegal, stands
//!   and the mover loses (Art. 2.4), or stands and the chain is removed to
//!   the opponent's captured prisoners;
//! - with `ko_capture`, a play is a ko capture `C` when, after placing the
//!   stone and before removing anything, each player has exactly one
//!   single-stone chain without liberty (Art. 2.5), counted over the whole
//!   board; every other play is `N`;
//! - a ko capture ends a D when moves `i..=n` are all `C`, `n - i + 1` is
//!   even and at least 4 (4 or 6 with `ko_runs: four_or_six`), and move `n` removes
//!   the very stone move `i` placed; when several `i` qualify, the pattern
//!   matcher is given the latest one (the shortest D) and all are recorded;
//! - with a limited hand (`setup.in_hand: N`) a board play takes a stone
//!   from the mover's hand and needs one;
//! - a board play whose stone stands after it and completes lines of its
//!   player owes `on_line_formed` removals, each a ply of the same player;
//!   the turn (one record, its board the board after the removals) ends
//!   when nothing is owed or nothing owed can be removed;
//! - a pass gives the opponent `passes.stones` pass stones;
//! - a move is refused if its action kind is not allowed by the phase, if a
//!   forbid rule naming it holds, and (board plays) if it is an illegal
//!   suicide, is an immediate repetition under `illegal` (simple ko: the
//!   opponent's last move was a board play and this play brings back the
//!   board from just before it; JK Art. 3.2: the board after the move two
//!   back, which was a board play), or recreates an earlier board
//!   (positional superko: the start and every board after a move) or an
//!   earlier board with the same player to move (situational superko);
//! - at the start of each turn the end rules are checked in order, the
//!   synthesized ones first: `suicide` (the last play left a chain of its
//!   player without liberty), `immediate_repetition` (Art. 3.2 as a loss),
//!   `repeated_board` (the board after the last move, a board play, has now
//!   occurred `count` times as the result of a board play; Art. 3.3: more
//!   captured prisoners taken since its first such occurrence wins);
//! - scoring: JK (Art. 4.4, 5): territory by reachability through empty
//!   points, plus captured prisoners and pass stones, plus one stone to the
//!   first player if they made the last move; area: stones plus empty points
//!   reaching only that colour; territory: each empty region (points joined
//!   through empty neighbours) bordered by stones of one colour only is its
//!   territory, plus captured prisoners and pass stones, except (with
//!   `seki: nobody`) a region bordering a chain in seki: a chain next to an
//!   empty point next to both colours where a stone of either colour would
//!   be in a chain with at most one liberty. Komi goes to the second player.
//! - the game starts from the ruleset's set-up stones with the player it
//!   names to move; that start is the board the repetition rules look back
//!   to before the first move. An end rule with `no_result` ends the game
//!   with no winner (as a draw does; the verdict tells them apart).

use morrigo_dsl::Expr;
use morrigo_engine::{Move, MoveKind, Outcome, Point};
use morrigo_rules::{
    ActionKind, Immediate, ImmediateReading, MoveClass, Prim, Repeated, Rules, ScoringMethod, Seki,
    SuicideEffect, Superko, Verdict, CLASS_KO_CAPTURE, CLASS_NORMAL,
};
use std::collections::BTreeSet;

/// Owner of the stone on each point.
pub type Board = Vec<Option<u8>>;

/// A chain: stones of one player connected through neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The player whose stones they are.
    pub owner: u8,
    /// Its points.
    pub stones: BTreeSet<Point>,
    /// The empty points next to it.
    pub liberties: BTreeSet<Point>,
}

/// Why a board play is not legal (apart from phases and forbid rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayRefusal {
    /// The point holds a stone.
    Occupied,
    /// It leaves a chain of the mover without liberty, and the rules forbid
    /// that.
    Suicide,
    /// It is an immediate repetition the rules forbid.
    ImmediateRepetition,
    /// It recreates a board that superko forbids.
    Superko,
}

/// What a board play on a point would do.
#[derive(Clone, Debug)]
pub struct RefPlay {
    /// Where the stone goes.
    pub point: Point,
    /// `N` or `C`.
    pub class: u8,
    /// Libertyless single-stone chains of each player after placing, before removal.
    pub libertyless_singles: [u32; 2],
    /// Opposing stones removed.
    pub removed: BTreeSet<Point>,
    /// The mover's stones left without liberty after the removals.
    pub suicide_chain: BTreeSet<Point>,
    /// What the rules make of that suicide, if there is one.
    pub suicide_effect: Option<SuicideEffect>,
    /// The board once the play is complete.
    pub board_after: Board,
    /// Why the play is not legal, if it is not.
    pub refusal: Option<PlayRefusal>,
}

/// One completed move.
#[derive(Clone, Debug)]
pub struct RefRecord {
    /// The move as the engine writes it.
    pub mv: Move,
    /// The player who made it.
    pub player: u8,
    /// `N`, `C` or the pass kind's letter.
    pub class: u8,
    /// A board play (not a pass or a removal).
    pub is_play: bool,
    /// The board after the move.
    pub board: Board,
    /// Which move (index) placed each stone on `board`.
    pub placed_by: Vec<Option<usize>>,
    /// Captured prisoners of each player after the move.
    pub captured: [u32; 2],
    /// Pass stones of each player after the move.
    pub pass_stones: [u32; 2],
    /// Stones each player holds in hand after the move.
    pub in_hand: [u32; 2],
    /// Stones removed by this move (opposing captures, then a removed suicide).
    pub removed: Vec<Point>,
    /// A board play that left a chain of its player without liberty.
    pub suicide: bool,
    /// A suicide whose chain was removed.
    pub suicide_removed: bool,
    /// Every `i` such that moves `i..=this` form a D, ascending.
    pub d_starts: Vec<usize>,
}

/// A Go-family game under the reference rules.
#[derive(Clone, Debug)]
pub struct RefGo<'r> {
    /// The rules the game is played by.
    pub rules: &'r Rules,
    /// The board now.
    pub board: Board,
    /// The player to move.
    pub to_move: u8,
    /// Captured prisoners each player has taken.
    pub captured: [u32; 2],
    /// Pass stones each player has received.
    pub pass_stones: [u32; 2],
    /// Stones of each player removed from the board (captured by the
    /// opponent, or removed as a suicide).
    pub lost: [u32; 2],
    /// Which move placed each stone on the board.
    pub placed_by: Vec<Option<usize>>,
    /// Every completed turn so far, oldest first.
    pub moves: Vec<RefRecord>,
    /// Stones each player still holds (never changes with an unlimited supply).
    pub in_hand: [u32; 2],
    /// Removals the player to move owes for a line their board play completed.
    pub pending: u32,
    /// The turn whose removals are owed: recorded when they are done.
    open_turn: Option<(RefRecord, u32)>,
    /// The board before the first move (the set-up stones).
    pub start: Board,
}

/// What an expression may read besides the game.
#[derive(Clone, Copy, Debug, Default)]
struct Ctx {
    phase: Option<usize>,
    no_legal_move: Option<bool>,
    /// In the line rule: the point a removal would take, and the lines the
    /// move completed.
    target: Option<Point>,
    lines_formed: Option<u32>,
    /// In a forbid rule reading values about the move: the move judged.
    mv: Option<Move>,
}

/// The move-class history as patterns read it.
struct Classes<'a>(&'a [RefRecord]);

impl morrigo_dsl::History for Classes<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn class(&self, i: usize) -> u8 {
        self.0[i].class
    }
    fn derived_start(&self, _k: usize, i: usize) -> Option<usize> {
        self.0[i].d_starts.last().copied()
    }
}

/// Rule values the Go reference does not evaluate: the Morris line history
/// (`formed_before`, `turns_since_formed`, `turns_since_traded`), lines
/// counted by a condition or per phase, line directions, and
/// `on_line_formed.counts`' `line`.
const UNJUDGED: [Prim; 8] = [
    Prim::FormedBefore,
    Prim::TurnsSinceFormed,
    Prim::TurnsSinceTraded,
    Prim::LinesFormedWhere,
    Prim::LinesBrokenWhere,
    Prim::LinesFormedIn,
    Prim::DirectionOf,
    Prim::Line,
];

impl<'r> RefGo<'r> {
    /// Whether this reference can judge games of `rules` (board plays or
    /// passes, line rules without extras, and no value it does not
    /// evaluate); else why not. A cross-check asks before it plays, since
    /// [`RefGo::new`] and the evaluation panic on what they do not cover.
    pub fn judges(rules: &Rules) -> Result<(), String> {
        if rules.play.is_none() && rules.passes.kinds.is_empty() {
            return Err("the Go reference covers rulesets with board plays or passes".into());
        }
        if rules
            .line_rule
            .as_ref()
            .is_some_and(|l| l.extras().next().is_some())
        {
            return Err("the Go reference has no line-rule extras".into());
        }
        match UNJUDGED.iter().find(|&&p| rules.uses(p)) {
            Some(p) => Err(format!("the Go reference does not evaluate {p:?}")),
            None => Ok(()),
        }
    }

    /// The start of a game: empty board, the first player to move.
    pub fn new(rules: &'r Rules) -> Self {
        assert!(
            rules.play.is_some() || !rules.passes.kinds.is_empty(),
            "the Go reference covers rulesets with board plays or passes"
        );
        assert!(
            rules
                .line_rule
                .as_ref()
                .is_none_or(|l| l.extras().next().is_none()),
            "the Go reference has no `counts`, `from_hand` or `delay` line rules"
        );
        for phase in &rules.phases {
            assert!(
                phase.turn_conds().next().is_none(),
                "the Go reference does not implement `remove` actions, `extra_turn` or `first`"
            );
            for a in &phase.actions {
                assert!(
                    matches!(a.kind, ActionKind::Play | ActionKind::Pass),
                    "the Go reference covers only `play` and `pass` actions"
                );
            }
        }
        let n = rules.topology.len();
        let mut start = vec![None; n];
        for (pl, stones) in rules.start.stones.iter().enumerate() {
            for &p in stones {
                start[p as usize] = Some(pl as u8);
            }
        }
        RefGo {
            rules,
            board: start.clone(),
            to_move: rules.start.to_move,
            captured: [0; 2],
            pass_stones: [0; 2],
            lost: [0; 2],
            placed_by: vec![None; n],
            moves: Vec::new(),
            in_hand: [rules.in_hand; 2],
            pending: 0,
            open_turn: None,
            start,
        }
    }

    // ----- chains -------------------------------------------------------------

    /// The chain through the stone on `start` (which must hold a stone).
    pub fn chain_at(&self, board: &Board, start: Point) -> Chain {
        let owner = board[start as usize].expect("a stone");
        let mut stones = BTreeSet::new();
        let mut liberties = BTreeSet::new();
        let mut todo = vec![start];
        stones.insert(start);
        while let Some(p) = todo.pop() {
            for &q in &self.rules.topology.neighbours[p as usize] {
                match board[q as usize] {
                    None => {
                        liberties.insert(q);
                    }
                    Some(o) if o == owner => {
                        if stones.insert(q) {
                            todo.push(q);
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        Chain {
            owner,
            stones,
            liberties,
        }
    }

    /// Every chain on the board.
    pub fn chains(&self, board: &Board) -> Vec<Chain> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for p in 0..board.len() as Point {
            if board[p as usize].is_some() && !seen.contains(&p) {
                let c = self.chain_at(board, p);
                seen.extend(c.stones.iter().copied());
                out.push(c);
            }
        }
        out
    }

    // ----- board plays --------------------------------------------------------

    /// What a board play by the player to move on `p` would do.
    pub fn play(&self, p: Point) -> RefPlay {
        let me = self.to_move;
        let opp = 1 - me;
        let mut out = RefPlay {
            point: p,
            class: CLASS_NORMAL,
            libertyless_singles: [0; 2],
            removed: BTreeSet::new(),
            suicide_chain: BTreeSet::new(),
            suicide_effect: None,
            board_after: self.board.clone(),
            refusal: None,
        };
        if self.board[p as usize].is_some() {
            out.refusal = Some(PlayRefusal::Occupied);
            return out;
        }
        // Place the stone.
        let mut board = self.board.clone();
        board[p as usize] = Some(me);
        let placed = self.chains(&board);
        // Art. 2.5, counted before anything is removed.
        for c in &placed {
            if c.stones.len() == 1 && c.liberties.is_empty() {
                out.libertyless_singles[c.owner as usize] += 1;
            }
        }
        let ko = self.rules.play.as_ref().is_some_and(|r| r.ko_capture);
        if ko && out.libertyless_singles == [1, 1] {
            out.class = CLASS_KO_CAPTURE;
        }
        // Art. 2.3: remove every opposing chain without liberty.
        for c in &placed {
            if c.owner == opp && c.liberties.is_empty() {
                out.removed.extend(c.stones.iter().copied());
            }
        }
        for &q in &out.removed {
            board[q as usize] = None;
        }
        // Art. 2.4: a chain of the mover without liberty after removal.
        for c in self.chains(&board) {
            if c.owner == me && c.liberties.is_empty() {
                out.suicide_chain.extend(c.stones.iter().copied());
            }
        }
        if !out.suicide_chain.is_empty() {
            let rule = self
                .rules
                .play
                .as_ref()
                .expect("board plays need a play rule");
            let effect = if out.suicide_chain.len() >= 2 {
                rule.suicide_multi
            } else {
                rule.suicide_single
            };
            out.suicide_effect = Some(effect);
            match effect {
                SuicideEffect::Illegal => {
                    out.refusal = Some(PlayRefusal::Suicide);
                    out.board_after = board;
                    return out;
                }
                SuicideEffect::Remove => {
                    for &q in &out.suicide_chain {
                        board[q as usize] = None;
                    }
                }
                SuicideEffect::Lose => {}
            }
        }
        // Repetition rules that refuse the play.
        let rep = &self.rules.repetition;
        let n = self.moves.len();
        if rep.immediate == Immediate::Illegal && self.repeats_at_once(n, &board) {
            out.refusal = Some(PlayRefusal::ImmediateRepetition);
        } else if rep.superko != Superko::None && self.superko_repeats(&board, opp) {
            out.refusal = Some(PlayRefusal::Superko);
        }
        out.board_after = board;
        out
    }

    /// Has `board` with `next` to move (situational) or at all (positional)
    /// occurred: at the start or after any move?
    fn superko_repeats(&self, board: &Board, next: u8) -> bool {
        let situational = self.rules.repetition.superko == Superko::Situational;
        let same = |b: &Board, to_move: u8| b == board && (!situational || to_move == next);
        same(&self.start, self.rules.start.to_move)
            || self.moves.iter().any(|r| same(&r.board, 1 - r.player))
    }

    // ----- expressions --------------------------------------------------------

    fn eval(&self, e: &Expr<Prim>, c: Ctx) -> i64 {
        crate::morris::eval_expr(
            e,
            &|p| self.var(p, c),
            &|f, args| self.call(f, args),
            &|f, _| panic!("the Go reference does not count lines by a condition ({f:?})"),
        )
    }

    fn var(&self, p: Prim, c: Ctx) -> i64 {
        let me = self.to_move as i64;
        match p {
            Prim::Me => me,
            Prim::Opponent => 1 - me,
            Prim::Phase => c.phase.expect("`phase` is not available here") as i64,
            Prim::NoLegalMove => {
                c.no_legal_move
                    .expect("`no_legal_move` is not available here") as i64
            }
            Prim::Repetitions => self.repetitions() as i64,
            Prim::TurnsWithoutRemoval => self.turns_without_removal() as i64,
            Prim::TurnsWithoutLine => self.turns_without_line() as i64,
            Prim::QuietTurns => self.quiet_turns() as i64,
            Prim::Turn => self.moves.len() as i64,
            Prim::EmptyPoints => self.board.iter().filter(|o| o.is_none()).count() as i64,
            Prim::LastPlaySuicide => self.moves.last().is_some_and(|r| r.suicide) as i64,
            Prim::ImmediateRepetition => self.immediate_repetition() as i64,
            Prim::NoSafeMove => !self.has_safe_move() as i64,
            Prim::BoardRepetitions => self.board_repetitions() as i64,
            Prim::Target => c.target.expect("`target` exists only in `removable`") as i64,
            Prim::LinesFormed if c.mv.is_some() => self.move_value(p, c.mv.unwrap()),
            Prim::LinesFormed => {
                c.lines_formed
                    .expect("`lines_formed` exists only in the line rule") as i64
            }
            Prim::Line => panic!("the Go reference has no `on_line_formed.counts`"),
            Prim::Captures | Prim::RunLength => {
                self.move_value(p, c.mv.expect("move values exist only in forbid rules"))
            }
            // A play or a pass: a point or none, no origin, no direction.
            Prim::To => match c.mv.expect("move values exist only in forbid rules") {
                m if m.kind == MoveKind::Play => m.to as i64,
                _ => -1,
            },
            Prim::From => -1,
            Prim::Direction => morrigo_rules::vocab::NO_DIRECTION,
            Prim::LinesBroken => 0,
            Prim::InHand
            | Prim::OnBoard
            | Prim::Lines
            | Prim::InLine
            | Prim::AllInLines
            | Prim::Lost
            | Prim::After
            | Prim::Captured
            | Prim::PassStones
            | Prim::OwnNeighbours
            | Prim::FormedBefore
            | Prim::TurnsSinceFormed
            | Prim::TurnsSinceTraded
            | Prim::LinesFormedWhere
            | Prim::LinesBrokenWhere
            | Prim::DirectionOf => panic!("{p:?} is a function, used without an argument"),
            Prim::LinesFormedIn => panic!("the Go reference does not count lines per phase"),
        }
    }

    fn call(&self, f: Prim, args: &[i64]) -> i64 {
        assert_eq!(args.len(), 1, "{f:?} takes one argument");
        let arg = args[0];
        let player = || -> usize {
            assert!(arg == 0 || arg == 1, "{f:?}({arg}): not a player");
            arg as usize
        };
        match f {
            Prim::InHand => self.in_hand[player()] as i64,
            Prim::OnBoard => self.stones_of(player() as u8) as i64,
            Prim::Lost => self.lost[player()] as i64,
            Prim::Captured => self.captured[player()] as i64,
            Prim::PassStones => self.pass_stones[player()] as i64,
            Prim::Lines => self.lines_of(player() as u8) as i64,
            Prim::InLine => {
                assert!(
                    arg >= 0 && (arg as usize) < self.board.len(),
                    "in_line({arg}): not a point"
                );
                self.in_line(arg as Point) as i64
            }
            Prim::AllInLines => {
                let pl = player() as u8;
                (0..self.board.len())
                    .filter(|&p| self.board[p] == Some(pl))
                    .all(|p| self.in_line(p as Point)) as i64
            }
            Prim::OwnNeighbours => self.rules.topology.neighbours[arg as usize]
                .iter()
                .filter(|&&q| self.board[q as usize] == Some(self.to_move))
                .count() as i64,
            Prim::After => {
                let pattern = self
                    .rules
                    .patterns
                    .get(arg as usize)
                    .unwrap_or_else(|| panic!("after(#{arg}): no such pattern"));
                pattern.matches_end(&Classes(&self.moves)) as i64
            }
            _ => panic!("{f:?} is not a function"),
        }
    }

    // ----- reading the game ---------------------------------------------------

    /// Stones `player` has on the board.
    pub fn stones_of(&self, player: u8) -> u32 {
        self.board.iter().filter(|&&o| o == Some(player)).count() as u32
    }

    fn owns_line(&self, player: u8, line: &[u16]) -> bool {
        line.iter().all(|&p| self.board[p as usize] == Some(player))
    }

    /// Lines of the board `player` fills completely.
    pub fn lines_of(&self, player: u8) -> u32 {
        self.rules
            .topology
            .lines
            .iter()
            .filter(|l| self.owns_line(player, l))
            .count() as u32
    }

    fn lines_through_on(&self, board: &Board, player: u8, p: Point) -> u32 {
        self.rules
            .topology
            .lines
            .iter()
            .filter(|l| l.contains(&p) && l.iter().all(|&q| board[q as usize] == Some(player)))
            .count() as u32
    }

    /// The stone on `p` lies in a complete line of its owner.
    pub fn in_line(&self, p: Point) -> bool {
        match self.board[p as usize] {
            Some(o) => self.lines_through_on(&self.board, o, p) > 0,
            None => false,
        }
    }

    /// How often the current position (board, hands, player to move)
    /// occurred at the start of a turn, this time included.
    pub fn repetitions(&self) -> u32 {
        let start_hands = [self.rules.in_hand; 2];
        let now = (&self.board, self.in_hand, self.to_move);
        let first = self.rules.start.to_move;
        let earlier = std::iter::once((&self.start, start_hands, first)).chain(
            self.moves
                .iter()
                .map(|r| (&r.board, r.in_hand, 1 - r.player)),
        );
        earlier.filter(|&(b, h, t)| (b, h, t) == now).count() as u32
    }

    /// Moves since the last that removed stones.
    pub fn turns_without_removal(&self) -> u32 {
        self.moves
            .iter()
            .rev()
            .take_while(|r| r.removed.is_empty())
            .count() as u32
    }

    /// Moves since the last board play or removal (passes, in Go).
    pub fn quiet_turns(&self) -> u32 {
        self.moves
            .iter()
            .rev()
            .take_while(|r| !r.is_play && r.removed.is_empty())
            .count() as u32
    }

    /// Moves since the last board play that completed a line through its stone.
    pub fn turns_without_line(&self) -> u32 {
        self.moves
            .iter()
            .rev()
            .take_while(|r| !(r.is_play && self.lines_through_on(&r.board, r.player, r.mv.to) > 0))
            .count() as u32
    }

    /// The board before move `i` (the start for the first move).
    fn board_before(&self, i: usize) -> Board {
        match i {
            0 => self.start.clone(),
            _ => self.moves[i - 1].board.clone(),
        }
    }

    /// Would a board play that is move number `n` (0-based), leaving
    /// `after`, be an immediate repetition in the ruleset's reading?
    fn repeats_at_once(&self, n: usize, after: &Board) -> bool {
        match self.rules.repetition.reading {
            // JK Art. 3.2: move n - 2 was a board play and left this board.
            ImmediateReading::Jk => {
                n >= 2 && self.moves[n - 2].is_play && self.moves[n - 2].board == *after
            }
            // Simple ko: move n - 1 (the opponent's) was a board play, and
            // this play brings back the board from just before it.
            ImmediateReading::SimpleKo => {
                n >= 1 && self.moves[n - 1].is_play && self.board_before(n - 1) == *after
            }
        }
    }

    /// The last move was a board play that is an immediate repetition.
    pub fn immediate_repetition(&self) -> bool {
        let n = self.moves.len();
        n >= 1 && self.moves[n - 1].is_play && self.repeats_at_once(n - 1, &self.moves[n - 1].board)
    }

    /// If the last move is a board play: how often its board has resulted
    /// from a board play, this time included; else 0.
    pub fn board_repetitions(&self) -> u32 {
        match self.moves.last() {
            Some(last) if last.is_play => self
                .moves
                .iter()
                .filter(|r| r.is_play && r.board == last.board)
                .count() as u32,
            _ => 0,
        }
    }

    /// JK Art. 3.3: the player who took more captured prisoners since the
    /// first time the current board resulted from a board play (draw if
    /// equal, or if it never did).
    pub fn compare_captures(&self) -> Option<u8> {
        let first = self
            .moves
            .iter()
            .find(|r| r.is_play && r.board == self.board)?;
        let gained = [0, 1].map(|p| self.captured[p] - first.captured[p]);
        winner_of(gained[0] as f64, gained[1] as f64)
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

    /// The first forbid rule naming `class` whose condition holds.
    pub fn forbidden_by(&self, class: MoveClass) -> Option<usize> {
        self.forbidden_among(class, true)
    }

    /// The first forbid rule naming `class` whose condition holds, among
    /// all rules or (`all` false) those that do not read `no_legal_move`.
    /// In a rule that reads it, `no_legal_move` holds when no move of a
    /// class the rule does not name is allowed by the phase and by the
    /// rules that do not read it.
    fn forbidden_among(&self, class: MoveClass, all: bool) -> Option<usize> {
        let c = Ctx {
            phase: Some(self.phase()),
            ..Ctx::default()
        };
        self.rules.forbid.iter().position(|f| {
            if !f.moves.contains(&class) {
                return false;
            }
            if reads_move(f) {
                return false;
            }
            let mut reads = false;
            f.when
                .expr
                .for_each_symbol(&mut |p| reads |= *p == Prim::NoLegalMove);
            if !reads {
                return self.eval(&f.when.expr, c) != 0;
            }
            if !all {
                return false;
            }
            let blocked = !self
                .candidate_moves_among(false)
                .iter()
                .any(|m| !f.moves.contains(&class_of(m)));
            let c = Ctx {
                no_legal_move: Some(blocked),
                ..c
            };
            self.eval(&f.when.expr, c) != 0
        })
    }

    /// The first forbid rule judged move by move (reading values about the
    /// move, or naming removals) that names the class of `m` and holds for it.
    pub fn forbidden_move(&self, m: Move) -> Option<usize> {
        let c = Ctx {
            phase: Some(self.phase()),
            mv: Some(m),
            ..Ctx::default()
        };
        let class = class_of(&m);
        // Removals are judged move by move whatever the rule reads.
        let per_move = |f| reads_move(f) || class == MoveClass::Remove;
        self.rules.forbid.iter().position(|f| {
            per_move(f) && f.moves.contains(&class) && self.eval(&f.when.expr, c) != 0
        })
    }

    /// A value about move `m` of the player to move: captures are the
    /// stones the play removes; lines and runs are read on the board after
    /// it, if its stone is still there.
    fn move_value(&self, p: Prim, m: Move) -> i64 {
        if m.kind != MoveKind::Play {
            return 0;
        }
        let r = self.play(m.to);
        let lines = &self.rules.topology.lines;
        let me = self.to_move;
        let stands = r.board_after[m.to as usize] == Some(me);
        (match p {
            Prim::Captures => r.removed.len() as u32,
            Prim::LinesFormed if stands => {
                crate::moves::lines_formed(lines, &r.board_after, me, m.to)
            }
            Prim::RunLength if stands => crate::moves::run_length(lines, &r.board_after, me, m.to),
            _ => 0,
        }) as i64
    }

    /// The moves the phase and forbid rules allow, before end rules.
    fn candidate_moves(&self) -> Vec<Move> {
        self.candidate_moves_among(true)
    }

    /// As `candidate_moves`, with all forbid rules or (`all` false) only
    /// those that do not read `no_legal_move`.
    fn candidate_moves_among(&self, all: bool) -> Vec<Move> {
        let phase = self.phase();
        let mut out = Vec::new();
        let has_stone = self.rules.unlimited_hand || self.in_hand[self.to_move as usize] > 0;
        if has_stone
            && self.allowed(phase, ActionKind::Play)
            && self.forbidden_among(MoveClass::Play, all).is_none()
        {
            for p in 0..self.board.len() as Point {
                if self.board[p as usize].is_none()
                    && self.play(p).refusal.is_none()
                    && self.forbidden_move(Move::play(p)).is_none()
                {
                    out.push(Move::play(p));
                }
            }
        }
        if self.allowed(phase, ActionKind::Pass) {
            for k in 0..self.rules.passes.kinds.len() {
                if self
                    .forbidden_among(MoveClass::Pass(k as u8), all)
                    .is_none()
                    && self.forbidden_move(Move::pass(k as u8)).is_none()
                {
                    out.push(Move::pass(k as u8));
                }
            }
        }
        out
    }

    /// The end rules the compiler puts first, from the `play` and
    /// `repetition` sections: their names, in order.
    pub fn synthesized_rules(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let loses = |e: SuicideEffect| e == SuicideEffect::Lose;
        if let Some(p) = &self.rules.play {
            if loses(p.suicide_single) || loses(p.suicide_multi) {
                out.push("suicide");
            }
        }
        let rep = &self.rules.repetition;
        if rep.immediate == Immediate::Lose {
            out.push("immediate_repetition");
        }
        if rep.repeated_board != Repeated::Off {
            out.push("repeated_board");
        }
        out
    }

    /// A synthesized end rule, judged from its meaning: `Some(winner)` if
    /// it ends the game now.
    fn synthesized_verdict(&self, name: &str) -> Option<Option<u8>> {
        let me = self.to_move;
        match name {
            // The player who left a chain without liberty (Art. 2.4) or
            // recreated the board of two moves back (Art. 3.2) loses: that
            // is the player who just moved, so the player to move wins.
            "suicide" => self
                .moves
                .last()
                .is_some_and(|r| r.suicide)
                .then_some(Some(me)),
            "immediate_repetition" => self.immediate_repetition().then_some(Some(me)),
            "repeated_board" => {
                let rep = &self.rules.repetition;
                (self.board_repetitions() >= rep.count).then(|| match rep.repeated_board {
                    Repeated::Captures => self.compare_captures(),
                    _ => None,
                })
            }
            other => unreachable!("no synthesized rule `{other}`"),
        }
    }

    /// Some legal move does not lose at once: a pass, or a board play that
    /// is neither a losing suicide nor a losing immediate repetition.
    fn has_safe_move(&self) -> bool {
        let n = self.moves.len();
        self.candidate_moves().iter().any(|m| {
            if m.kind != MoveKind::Play {
                return true;
            }
            let r = self.play(m.to);
            let suicide = r.suicide_effect == Some(SuicideEffect::Lose);
            let repeats = self.rules.repetition.immediate == Immediate::Lose
                && self.repeats_at_once(n, &r.board_after);
            !suicide && !repeats
        })
    }

    /// The legal moves, or (with no moves) the outcome if the game is over.
    pub fn legal_moves(&self) -> (Vec<Move>, Option<Outcome>) {
        if self.pending > 0 {
            return (self.removal_targets(), None);
        }
        let moves = self.candidate_moves();
        let c = Ctx {
            phase: Some(self.phase()),
            no_legal_move: Some(moves.is_empty()),
            ..Ctx::default()
        };
        let synthesized = self.synthesized_rules();
        for (i, rule) in self.rules.end.iter().enumerate() {
            let decided = if i < synthesized.len() {
                assert_eq!(rule.name, synthesized[i], "end rule {i}");
                self.synthesized_verdict(synthesized[i])
            } else if self.eval(&rule.when.expr, c) != 0 {
                let me = self.to_move;
                Some(match rule.verdict {
                    Verdict::Lose => Some(1 - me),
                    Verdict::Win => Some(me),
                    Verdict::Draw | Verdict::NoResult => None,
                    Verdict::Score => {
                        let [a, b] = self.score();
                        winner_of(a, b)
                    }
                    Verdict::CompareCaptures => self.compare_captures(),
                })
            } else {
                None
            };
            if let Some(winner) = decided {
                let outcome = Outcome {
                    winner,
                    rule: i as u16,
                };
                return (Vec::new(), Some(outcome));
            }
        }
        (moves, None)
    }

    /// The line rule's context for this turn's move.
    fn line_ctx(&self, lines_formed: u32, target: Option<Point>) -> Ctx {
        Ctx {
            phase: Some(self.phase()),
            no_legal_move: None,
            target,
            lines_formed: Some(lines_formed),
            mv: None,
        }
    }

    /// The opposing stones the line rule lets the player to move remove now.
    fn removal_targets(&self) -> Vec<Move> {
        let Some(line) = &self.rules.line_rule else {
            return Vec::new();
        };
        let formed = self.open_turn.as_ref().map_or(0, |t| t.1);
        (0..self.board.len() as Point)
            .filter(|&p| self.board[p as usize] == Some(1 - self.to_move))
            .filter(|&p| self.eval(&line.removable.expr, self.line_ctx(formed, Some(p))) != 0)
            .map(Move::remove)
            .filter(|&m| self.forbidden_move(m).is_none())
            .collect()
    }

    /// Every `i` such that ko capture number `n` (the next move) removing
    /// `removed` ends a D starting at move `i`.
    fn d_starts(&self, removed: &BTreeSet<Point>) -> Vec<usize> {
        let Some(runs) = self.rules.play.as_ref().and_then(|p| p.ko_runs) else {
            return Vec::new();
        };
        let n = self.moves.len();
        let mut out = Vec::new();
        for i in (0..n).rev() {
            if self.moves[i].class != CLASS_KO_CAPTURE {
                break;
            }
            let len = n - i + 1;
            if !len.is_multiple_of(2) || len < 4 || (runs.four_or_six && len > 6) {
                continue;
            }
            let q = self.moves[i].mv.to;
            if self.placed_by[q as usize] == Some(i) && removed.contains(&q) {
                out.push(i);
            }
        }
        out.sort_unstable();
        out
    }

    /// Play a legal move. Panics on a board play the rules refuse outright
    /// (occupied point, illegal suicide, illegal repetition); phases and
    /// forbid rules are not checked here (take moves from `legal_moves`).
    pub fn apply(&mut self, m: Move) {
        let me = self.to_move;
        let opp = 1 - me;
        let n = self.moves.len();
        let mut record = RefRecord {
            mv: m,
            player: me,
            class: 0,
            is_play: false,
            board: Vec::new(),
            placed_by: Vec::new(),
            captured: [0; 2],
            pass_stones: [0; 2],
            in_hand: [0; 2],
            removed: Vec::new(),
            suicide: false,
            suicide_removed: false,
            d_starts: Vec::new(),
        };
        match m.kind {
            MoveKind::Play => {
                let play = self.play(m.to);
                assert_eq!(play.refusal, None, "{m:?} is refused");
                if !self.rules.unlimited_hand {
                    self.in_hand[me as usize] -= 1;
                }
                record.is_play = true;
                record.class = play.class;
                if play.class == CLASS_KO_CAPTURE {
                    record.d_starts = self.d_starts(&play.removed);
                }
                self.captured[me as usize] += play.removed.len() as u32;
                self.lost[opp as usize] += play.removed.len() as u32;
                record.removed.extend(play.removed.iter().copied());
                match play.suicide_effect {
                    None => {}
                    Some(SuicideEffect::Remove) => {
                        self.captured[opp as usize] += play.suicide_chain.len() as u32;
                        self.lost[me as usize] += play.suicide_chain.len() as u32;
                        record.removed.extend(play.suicide_chain.iter().copied());
                        record.suicide_removed = true;
                    }
                    Some(SuicideEffect::Lose) => record.suicide = true,
                    Some(SuicideEffect::Illegal) => unreachable!("refused above"),
                }
                self.placed_by[m.to as usize] = Some(n);
                self.board = play.board_after;
                for (p, owner) in self.board.iter().enumerate() {
                    if owner.is_none() {
                        self.placed_by[p] = None;
                    }
                }
            }
            MoveKind::Pass => {
                let k = m.to as usize;
                record.class = self.rules.passes.kinds[k];
                self.pass_stones[opp as usize] += self.rules.passes.stones;
            }
            MoveKind::Remove => {
                let (mut open, formed) = self.open_turn.take().expect("a removal is owed");
                assert_eq!(
                    self.board[m.to as usize],
                    Some(opp),
                    "{m:?}: no opposing stone"
                );
                self.board[m.to as usize] = None;
                self.placed_by[m.to as usize] = None;
                self.lost[opp as usize] += 1;
                open.removed.push(m.to);
                self.pending -= 1;
                if self.pending > 0 && !self.removal_targets_after(&open, formed) {
                    self.pending = 0;
                }
                if self.pending > 0 {
                    self.open_turn = Some((open, formed));
                    return;
                }
                record = open;
            }
            other => panic!("the Go reference has no {other:?} moves"),
        }
        // A board play whose stone stands and completes lines owes removals
        // (on_line_formed), made by the same player before the turn ends.
        if m.kind == MoveKind::Play && self.board[m.to as usize] == Some(me) {
            if let Some(line) = &self.rules.line_rule {
                let formed = self.lines_through_on(&self.board, me, m.to);
                if formed > 0 {
                    let owed = self.eval(&line.removals.expr, self.line_ctx(formed, None));
                    self.pending = owed.clamp(0, u8::MAX as i64) as u32;
                    self.open_turn = Some((record, formed));
                    if self.pending > 0 && !self.removal_targets().is_empty() {
                        return;
                    }
                    self.pending = 0;
                    record = self.open_turn.take().expect("just set").0;
                }
            }
        }
        record.board = self.board.clone();
        record.placed_by = self.placed_by.clone();
        record.captured = self.captured;
        record.pass_stones = self.pass_stones;
        record.in_hand = self.in_hand;
        self.moves.push(record);
        self.to_move = opp;
    }

    /// With `open` as the turn still owing removals: is any stone removable?
    fn removal_targets_after(&mut self, open: &RefRecord, formed: u32) -> bool {
        self.open_turn = Some((open.clone(), formed));
        let any = !self.removal_targets().is_empty();
        self.open_turn = None;
        any
    }

    /// Leaves of the move tree of `depth` plies from here (a finished game
    /// has no moves, so it is no leaf below depth 0).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (moves, _) = self.legal_moves();
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.apply(m);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// The class letter of the last move.
    pub fn last_class(&self) -> Option<u8> {
        self.moves.last().map(|r| r.class)
    }

    /// Whether move `i` ends a D.
    pub fn ends_d(&self, i: usize) -> bool {
        self.moves.get(i).is_some_and(|r| !r.d_starts.is_empty())
    }

    // ----- scoring ------------------------------------------------------------

    /// Empty points reachable from a stone of `player` through empty points.
    pub fn reached_by(&self, player: u8) -> BTreeSet<Point> {
        let nb = &self.rules.topology.neighbours;
        let mut reached = BTreeSet::new();
        let mut todo: Vec<Point> = Vec::new();
        for (p, around) in nb.iter().enumerate() {
            if self.board[p] == Some(player) {
                for &q in around {
                    if self.board[q as usize].is_none() && reached.insert(q) {
                        todo.push(q);
                    }
                }
            }
        }
        while let Some(p) = todo.pop() {
            for &q in &nb[p as usize] {
                if self.board[q as usize].is_none() && reached.insert(q) {
                    todo.push(q);
                }
            }
        }
        reached
    }

    /// Territory counted region by region: an empty region bordered by one
    /// colour only is that colour's, unless (`seki_nobody`) a chain in
    /// seki borders it: a chain next to an empty point where a stone of
    /// either colour would be in a chain of at most one liberty.
    pub fn territory_by_regions(&self, seki_nobody: bool) -> [u32; 2] {
        let mut in_seki: BTreeSet<Point> = BTreeSet::new();
        for q in 0..self.board.len() as Point {
            if self.board[q as usize].is_some() {
                continue;
            }
            let next: Vec<Point> = self.rules.topology.neighbours[q as usize].clone();
            let next_to = |c: u8| next.iter().any(|&n| self.board[n as usize] == Some(c));
            if !(next_to(0) && next_to(1)) {
                continue;
            }
            let self_atari = |c: u8| {
                let mut b = self.board.clone();
                b[q as usize] = Some(c);
                self.chain_at(&b, q).liberties.len() <= 1
            };
            if self_atari(0) && self_atari(1) {
                for &n in &next {
                    if self.board[n as usize].is_some() {
                        in_seki.extend(self.chain_at(&self.board, n).stones);
                    }
                }
            }
        }
        let nb = &self.rules.topology.neighbours;
        let mut seen = BTreeSet::new();
        let mut own = [0u32; 2];
        for p in 0..self.board.len() as Point {
            if self.board[p as usize].is_some() || !seen.insert(p) {
                continue;
            }
            let mut region = vec![p];
            let mut colours = BTreeSet::new();
            let mut by_seki = false;
            let mut i = 0;
            while i < region.len() {
                for &q in &nb[region[i] as usize] {
                    match self.board[q as usize] {
                        None => {
                            if seen.insert(q) {
                                region.push(q);
                            }
                        }
                        Some(o) => {
                            colours.insert(o);
                            by_seki |= in_seki.contains(&q);
                        }
                    }
                }
                i += 1;
            }
            if colours.len() == 1 && !(seki_nobody && by_seki) {
                let o = *colours.iter().next().expect("one colour");
                own[o as usize] += region.len() as u32;
            }
        }
        own
    }

    /// Each player's score after the players agree that the stones on
    /// `dead` are dead: they leave the board and, where prisoners count,
    /// become the opponent's prisoners.
    pub fn score_with_dead(&self, dead: &BTreeSet<Point>) -> [f64; 2] {
        let mut agreed = self.clone();
        for &p in dead {
            if let Some(owner) = agreed.board[p as usize].take() {
                agreed.captured[1 - owner as usize] += 1;
            }
        }
        agreed.score()
    }

    /// Each player's score as the game stands (no dead stones); zero
    /// without a scoring section.
    pub fn score(&self) -> [f64; 2] {
        let Some(scoring) = &self.rules.scoring else {
            return [0.0; 2];
        };
        let points = [self.reached_by(0), self.reached_by(1)];
        let territory = [
            points[0].difference(&points[1]).count() as u32,
            points[1].difference(&points[0]).count() as u32,
        ];
        let first_moved_last = self.moves.last().is_some_and(|r| r.player == 0);
        let extra = u32::from(scoring.last_move_stone && first_moved_last);
        let mut score = match scoring.method {
            ScoringMethod::Jk => [
                territory[0] + self.captured[0] + self.pass_stones[0] + extra,
                territory[1] + self.captured[1] + self.pass_stones[1],
            ]
            .map(f64::from),
            ScoringMethod::Area => [
                self.stones_of(0) + territory[0],
                self.stones_of(1) + territory[1],
            ]
            .map(f64::from),
            ScoringMethod::Territory => {
                let own = self.territory_by_regions(scoring.seki == Seki::Nobody);
                [
                    own[0] + self.captured[0] + self.pass_stones[0] + extra,
                    own[1] + self.captured[1] + self.pass_stones[1],
                ]
                .map(f64::from)
            }
        };
        score[1] += scoring.komi;
        score
    }
}

/// The higher value wins (player 0 or 1); equal is a draw.
fn winner_of(a: f64, b: f64) -> Option<u8> {
    if a > b {
        Some(0)
    } else if b > a {
        Some(1)
    } else {
        None
    }
}

/// Does the rule read a value about the move being judged?
fn reads_move(f: &morrigo_rules::ForbidRule) -> bool {
    let mut reads = false;
    f.when
        .expr
        .for_each_symbol(&mut |p| reads |= morrigo_rules::move_values::MOVE_VALUES.contains(p));
    reads
}

/// The move class a forbid rule names a move by.
fn class_of(m: &Move) -> MoveClass {
    match m.kind {
        MoveKind::Pass => MoveClass::Pass(m.to as u8),
        MoveKind::Remove => MoveClass::Remove,
        MoveKind::Place => MoveClass::Place,
        MoveKind::Slide => MoveClass::Slide,
        MoveKind::Fly => MoveClass::Fly,
        MoveKind::Leap => MoveClass::Leap,
        MoveKind::Play => MoveClass::Play,
    }
}
