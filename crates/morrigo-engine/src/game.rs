//! The width-erased game API the front ends use: a [`Game`] (a ruleset
//! compiled for its board, whatever the width), a [`GameState`] (a position
//! of that game with its histories), a [`Setup`] checked once into a state,
//! and a [`Move`] that says what it is without sentinel values.
//!
//! [`Machine<W>`](crate::Machine) stays the hot path (agents, solvers,
//! perft): its packed [`crate::Move`] and `State<W>` cost nothing to copy and
//! are monomorphised per width. This API pays one `match` per call to hide
//! the width, which is nothing beside parsing a move or rendering a board,
//! and spares every front end a generic parameter. The model is shakmaty's
//! `Setup` → `Position`: a position from outside is built through a check
//! (`set_up`; `from_parts` takes back a state that width-generic code
//! played to, for front ends not yet moved onto this API), and a move is
//! applied either checked (`apply`, an [`Illegal`] reason on refusal) or,
//! for moves the engine listed, unchecked (`apply_unchecked`).

use crate::legality::Illegal;
use crate::machine::{Machine, State};
use crate::moves::{MoveKind, Outcome, Point, NO_POINT};
use crate::notation::Intent;
use crate::{AnyMachine, Bits, Refusal};
use morrigo_diag::Diagnostic;
use morrigo_rules::Rules;
use std::any::Any;
use std::cell::RefCell;
use std::sync::Arc;

/// The state in `slot` (an `Option<State<_>>`) if it is a `State<V>`.
fn take_as<const V: usize>(slot: &mut dyn Any) -> Option<State<V>> {
    slot.downcast_mut::<Option<State<V>>>()?.take()
}

/// What stands on a point (a board concept: the SVG drawing takes it too).
pub use morrigo_board::Owner;

/// One ply, each kind with exactly the points it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece from the hand onto an empty point.
    Place {
        /// The empty point.
        to: Point,
    },
    /// A piece along an edge of the board.
    Slide {
        /// The piece's point.
        from: Point,
        /// The adjacent empty point.
        to: Point,
    },
    /// A piece to any empty point (flying).
    Fly {
        /// The piece's point.
        from: Point,
        /// The empty point.
        to: Point,
    },
    /// A capture rule's leap over the opposing piece between `from` and `to`.
    Leap {
        /// The leaping piece's point.
        from: Point,
        /// The empty point beyond the jumped piece.
        to: Point,
    },
    /// An opposing piece taken off (a step of the same turn).
    Remove {
        /// The piece's point.
        at: Point,
    },
    /// A board play (a stone from an unlimited supply, then captures).
    Play {
        /// The empty point played.
        at: Point,
    },
    /// A pass.
    Pass {
        /// The pass kind's index in `Rules::passes`.
        kind: u8,
    },
}

impl Move {
    /// The packed form the machine's hot loops use.
    pub fn packed(self) -> crate::Move {
        let (kind, from, to) = match self {
            Move::Place { to } => (MoveKind::Place, NO_POINT, to),
            Move::Slide { from, to } => (MoveKind::Slide, from, to),
            Move::Fly { from, to } => (MoveKind::Fly, from, to),
            Move::Leap { from, to } => (MoveKind::Leap, from, to),
            Move::Remove { at } => (MoveKind::Remove, NO_POINT, at),
            Move::Play { at } => (MoveKind::Play, NO_POINT, at),
            Move::Pass { kind } => (MoveKind::Pass, NO_POINT, Point::from(kind)),
        };
        crate::Move { kind, from, to }
    }

    /// The point a piece leaves, for moves that move one.
    pub fn from_point(self) -> Option<Point> {
        match self {
            Move::Slide { from, .. } | Move::Fly { from, .. } | Move::Leap { from, .. } => {
                Some(from)
            }
            _ => None,
        }
    }

    /// The point the move acts on: where a piece lands, is removed or is
    /// played (`None` for a pass).
    pub fn to_point(self) -> Option<Point> {
        match self {
            Move::Place { to }
            | Move::Slide { to, .. }
            | Move::Fly { to, .. }
            | Move::Leap { to, .. } => Some(to),
            Move::Remove { at } | Move::Play { at } => Some(at),
            Move::Pass { .. } => None,
        }
    }

    /// The kind's name in JSON output (`place`, `slide`, … `pass`).
    pub fn kind_name(self) -> &'static str {
        self.packed().kind.name()
    }
}

impl From<crate::Move> for Move {
    fn from(m: crate::Move) -> Self {
        let (from, to) = (m.from, m.to);
        match m.kind {
            MoveKind::Place => Move::Place { to },
            MoveKind::Slide => Move::Slide { from, to },
            MoveKind::Fly => Move::Fly { from, to },
            MoveKind::Leap => Move::Leap { from, to },
            MoveKind::Remove => Move::Remove { at: to },
            MoveKind::Play => Move::Play { at: to },
            // The pass kind is stored in `to`; a ruleset has at most 255 kinds.
            MoveKind::Pass => Move::Pass { kind: to as u8 },
        }
    }
}

/// A position to start from, in points and counts: checked once by
/// [`Game::set_up`] into a [`GameState`] (counters and histories start
/// empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// The points holding each player's pieces (first player's, second's).
    pub pieces: [Vec<Point>; 2],
    /// Pieces each player has in hand; `None`: as at the ruleset's start.
    pub in_hand: Option<[u32; 2]>,
    /// The player to move; `None`: the ruleset's first to move.
    pub to_move: Option<u8>,
}

/// Why a [`Setup`] is not a position of the game (an impossible board).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A point index beyond the board.
    #[error("impossible board: point {point} is not on the board of {points} points")]
    NoSuchPoint {
        /// The index given.
        point: Point,
        /// The board's number of points.
        points: usize,
    },
    /// A point named twice (for one player or for both).
    #[error("impossible board: point `{name}` is used twice")]
    PointTwice {
        /// The point.
        point: Point,
        /// Its name on the board.
        name: String,
    },
    /// A player number other than 0 or 1.
    #[error("impossible board: there is no player {player} (players are 0 and 1)")]
    NoSuchPlayer {
        /// The number given.
        player: u8,
    },
    /// More pieces on the board and in hand than the ruleset gives a player.
    #[error("impossible board: {name} has {total} pieces ({on_board} on the board, {in_hand} in hand), but `{ruleset}` gives each player {limit}")]
    TooManyPieces {
        /// The player (0 = first).
        player: u8,
        /// The player's name.
        name: String,
        /// Pieces set on the board.
        on_board: u32,
        /// Pieces given in hand.
        in_hand: u32,
        /// Both together.
        total: u32,
        /// The pieces the ruleset gives each player.
        limit: u32,
        /// The ruleset's name.
        ruleset: String,
    },
}

impl SetupError {
    /// The error as a diagnostic, with what was expected.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let d = Diagnostic::new(self.to_string());
        match self {
            SetupError::NoSuchPoint { points, .. } => {
                d.expected(format!("a point index below {points}"))
            }
            SetupError::PointTwice { .. } => d.expected("each point at most once, for one player"),
            SetupError::NoSuchPlayer { .. } => d.expected("player 0 or 1"),
            SetupError::TooManyPieces { name, limit, .. } => {
                d.expected(format!("at most {limit} pieces for {name}"))
            }
        }
    }
}

/// A ruleset compiled for its board: cheap to clone (one `Arc`), shared by
/// every state of the game.
#[derive(Clone, Debug)]
pub struct Game {
    machine: Arc<AnyMachine>,
}

/// The state of one width, matched with its game's machine by [`dispatch!`].
#[derive(Clone, Debug)]
enum AnyState {
    W1(State<1>),
    W2(State<2>),
    W4(State<4>),
    W6(State<6>),
    W10(State<10>),
}

/// How to take back one move played by [`GameState::apply_undoable`]
/// (the machine's [`crate::Undo`] of the state's width): a take-back
/// without keeping a clone of the whole state per move.
#[derive(Clone, Copy, Debug)]
pub struct Undo(AnyUndo);

#[derive(Clone, Copy, Debug)]
enum AnyUndo {
    W1(crate::Undo<1>),
    W2(crate::Undo<2>),
    W4(crate::Undo<4>),
    W6(crate::Undo<6>),
    W10(crate::Undo<10>),
}

/// Run width-generic code on a game state's machine and state: both have
/// the same width by construction (a state is only built by its game).
macro_rules! dispatch {
    ($gs:expr, $m:ident, $s:ident => $body:expr) => {
        match (&*$gs.game.machine, &$gs.state) {
            (AnyMachine::W1($m), AnyState::W1($s)) => $body,
            (AnyMachine::W2($m), AnyState::W2($s)) => $body,
            (AnyMachine::W4($m), AnyState::W4($s)) => $body,
            (AnyMachine::W6($m), AnyState::W6($s)) => $body,
            (AnyMachine::W10($m), AnyState::W10($s)) => $body,
            _ => unreachable!("a game state has its game's width"),
        }
    };
    (mut $gs:expr, $m:ident, $s:ident => $body:expr) => {
        match (&*$gs.game.machine, &mut $gs.state) {
            (AnyMachine::W1($m), AnyState::W1($s)) => $body,
            (AnyMachine::W2($m), AnyState::W2($s)) => $body,
            (AnyMachine::W4($m), AnyState::W4($s)) => $body,
            (AnyMachine::W6($m), AnyState::W6($s)) => $body,
            (AnyMachine::W10($m), AnyState::W10($s)) => $body,
            _ => unreachable!("a game state has its game's width"),
        }
    };
}

impl Game {
    /// Compile `rules` for its board (refused when the board is too large).
    pub fn new(rules: Arc<Rules>) -> Result<Self, Diagnostic> {
        Ok(Game::from(Arc::new(AnyMachine::new(rules)?)))
    }

    /// The ruleset.
    pub fn rules(&self) -> &Arc<Rules> {
        self.machine.rules()
    }

    /// The compiled machine, for the hot loops that need its width.
    pub fn machine(&self) -> &Arc<AnyMachine> {
        &self.machine
    }

    /// The start of a game: the ruleset's set-up stones and first player.
    pub fn start(&self) -> GameState {
        let state = match &*self.machine {
            AnyMachine::W1(m) => AnyState::W1(m.initial()),
            AnyMachine::W2(m) => AnyState::W2(m.initial()),
            AnyMachine::W4(m) => AnyState::W4(m.initial()),
            AnyMachine::W6(m) => AnyState::W6(m.initial()),
            AnyMachine::W10(m) => AnyState::W10(m.initial()),
        };
        GameState {
            game: self.clone(),
            state,
        }
    }

    /// The position a [`Setup`] describes, once it is checked to be one of
    /// this game (see [`Machine::set_up`]).
    pub fn set_up(&self, setup: &Setup) -> Result<GameState, SetupError> {
        let state = match &*self.machine {
            AnyMachine::W1(m) => AnyState::W1(m.set_up(setup)?),
            AnyMachine::W2(m) => AnyState::W2(m.set_up(setup)?),
            AnyMachine::W4(m) => AnyState::W4(m.set_up(setup)?),
            AnyMachine::W6(m) => AnyState::W6(m.set_up(setup)?),
            AnyMachine::W10(m) => AnyState::W10(m.set_up(setup)?),
        };
        Ok(GameState {
            game: self.clone(),
            state,
        })
    }
}

impl<const W: usize> Machine<W> {
    /// What stands on point `p` of `s`: a piece, or the mark of a delayed
    /// removal (which [`State::owner`] does not name: marks are kept apart).
    pub fn occupant(&self, s: &State<W>, p: Point) -> Option<Owner> {
        match s.owner(p) {
            Some(pl) => Some(Owner::Player(pl)),
            None if usize::from(p) < self.points() && self.marked(s).has(usize::from(p)) => {
                Some(Owner::Mark)
            }
            None => None,
        }
    }

    /// The position a [`Setup`] describes, once it is checked to be one of
    /// this game: every point on the board and named once, players 0 and 1,
    /// no player with more pieces (on the board and in hand) than the
    /// ruleset gives (unless the supply is unlimited). The one check every
    /// front end's set-up goes through; `state_from` builds unchecked.
    pub fn set_up(&self, setup: &Setup) -> Result<State<W>, SetupError> {
        let rules = &self.rules;
        let points = self.points();
        let mut occ = [Bits::<W>::EMPTY; 2];
        for (pl, pieces) in setup.pieces.iter().enumerate() {
            for &p in pieces {
                if usize::from(p) >= points {
                    return Err(SetupError::NoSuchPoint { point: p, points });
                }
                if occ[0].has(usize::from(p)) || occ[1].has(usize::from(p)) {
                    return Err(SetupError::PointTwice {
                        point: p,
                        name: rules.topology.name(p).to_string(),
                    });
                }
                occ[pl].set(usize::from(p));
            }
        }
        let to_move = setup.to_move.unwrap_or(rules.start.to_move);
        if to_move > 1 {
            return Err(SetupError::NoSuchPlayer { player: to_move });
        }
        let in_hand = setup.in_hand.unwrap_or([rules.in_hand; 2]);
        if !rules.unlimited_hand {
            for player in 0..2u8 {
                let on_board = occ[usize::from(player)].count();
                let hand = in_hand[usize::from(player)];
                let total = on_board.saturating_add(hand);
                if total > rules.in_hand {
                    return Err(SetupError::TooManyPieces {
                        player,
                        name: rules.players[usize::from(player)].clone(),
                        on_board,
                        in_hand: hand,
                        total,
                        limit: rules.in_hand,
                        ruleset: rules.name.clone(),
                    });
                }
            }
        }
        Ok(self.state_from(occ[0], occ[1], in_hand, to_move))
    }
}

impl From<Arc<AnyMachine>> for Game {
    fn from(machine: Arc<AnyMachine>) -> Self {
        Game { machine }
    }
}

impl From<AnyMachine> for Game {
    fn from(machine: AnyMachine) -> Self {
        Game::from(Arc::new(machine))
    }
}

/// A position of a [`Game`] with the histories its rules read. Clone it to
/// keep a position; a move played by [`GameState::apply_undoable`] is
/// taken back without one.
#[derive(Clone, Debug)]
pub struct GameState {
    game: Game,
    state: AnyState,
}

impl GameState {
    /// The state as code generic over the width holds it, with its
    /// machine (`None` when the game has another width): the bridge for
    /// front ends that still run width-generic code on a kept state.
    pub fn parts<const W: usize>(&self) -> Option<(&Machine<W>, &State<W>)> {
        let (m, s): (&dyn Any, &dyn Any) = match (&*self.game.machine, &self.state) {
            (AnyMachine::W1(m), AnyState::W1(s)) => (m, s),
            (AnyMachine::W2(m), AnyState::W2(s)) => (m, s),
            (AnyMachine::W4(m), AnyState::W4(s)) => (m, s),
            (AnyMachine::W6(m), AnyState::W6(s)) => (m, s),
            (AnyMachine::W10(m), AnyState::W10(s)) => (m, s),
            _ => unreachable!("a game state has its game's width"),
        };
        Some((m.downcast_ref()?, s.downcast_ref()?))
    }

    /// A state of `game` that width-generic code built (`None` when the
    /// game has another width).
    pub fn from_parts<const W: usize>(game: &Game, state: State<W>) -> Option<GameState> {
        let mut slot = Some(state);
        let any: &mut dyn Any = &mut slot;
        let state = match &*game.machine {
            AnyMachine::W1(_) => AnyState::W1(take_as::<1>(any)?),
            AnyMachine::W2(_) => AnyState::W2(take_as::<2>(any)?),
            AnyMachine::W4(_) => AnyState::W4(take_as::<4>(any)?),
            AnyMachine::W6(_) => AnyState::W6(take_as::<6>(any)?),
            AnyMachine::W10(_) => AnyState::W10(take_as::<10>(any)?),
        };
        Some(GameState {
            game: game.clone(),
            state,
        })
    }

    /// The game this is a position of.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The ruleset.
    pub fn rules(&self) -> &Arc<Rules> {
        self.game.rules()
    }

    /// The player to move (0 = first).
    pub fn to_move(&self) -> u8 {
        dispatch!(self, _m, s => s.pos.to_move)
    }

    /// Plies played since the start or set-up.
    pub fn ply(&self) -> u32 {
        dispatch!(self, _m, s => s.pos.ply)
    }

    /// Turns completed (a turn is a move and the removals it owes): a Go
    /// front end numbers the next move with it.
    pub fn turn(&self) -> u32 {
        dispatch!(self, _m, s => s.pos.turn)
    }

    /// Removals the player to move still owes this turn.
    pub fn pending_removals(&self) -> u16 {
        dispatch!(self, _m, s => s.pos.pending)
    }

    /// Pieces each player has in hand.
    pub fn in_hand(&self) -> [u32; 2] {
        dispatch!(self, _m, s => s.pos.in_hand)
    }

    /// Pieces each player has on the board.
    pub fn on_board(&self) -> [u32; 2] {
        dispatch!(self, _m, s => s.pos.on_board)
    }

    /// Prisoners each player has taken.
    pub fn captured(&self) -> [u32; 2] {
        dispatch!(self, _m, s => s.pos.captured)
    }

    /// Pass stones each player has received.
    pub fn pass_stones(&self) -> [u32; 2] {
        dispatch!(self, _m, s => s.pos.pass_stones)
    }

    /// The key of board, hands and player to move (equal positions, equal keys).
    pub fn hash(&self) -> u64 {
        dispatch!(self, _m, s => s.pos.hash)
    }

    /// What stands on point `p` (`None`: empty, or not a point of the board).
    pub fn owner(&self, p: Point) -> Option<Owner> {
        dispatch!(self, m, s => m.occupant(s, p))
    }

    /// The points of a player's pieces, in point order.
    pub fn pieces(&self, player: u8) -> Vec<Point> {
        dispatch!(self, _m, s => s.pos.occ[usize::from(player & 1)]
            .iter()
            .map(|p| p as Point)
            .collect())
    }

    /// The points holding the mark of a delayed removal, in point order
    /// (empty for a ruleset without `delay`); [`GameState::owner`] names
    /// a mark only on an empty point.
    pub fn marks(&self) -> Vec<Point> {
        dispatch!(self, m, s => m.marked(s).iter().map(|p| p as Point).collect())
    }

    /// The index into `Rules::phases` of the phase this turn is in.
    pub fn phase(&self) -> usize {
        dispatch!(self, m, s => m.phase(s))
    }

    /// The name of the phase the player to move is in: `removing` while a
    /// removal is owed (the front ends show it so), `?` past the last phase.
    pub fn phase_name(&self) -> &str {
        if self.pending_removals() > 0 {
            "removing"
        } else {
            self.rules()
                .phases
                .get(self.phase())
                .map_or("?", |p| p.name.as_str())
        }
    }

    /// How the game ended, if an end rule decides it at this turn's start.
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, m, s => m.outcome(s))
    }

    /// The legal moves, or how the game ended (no move is legal then).
    pub fn legal_moves(&self) -> Result<Vec<Move>, Outcome> {
        let mut moves = Vec::new();
        match self.legal_moves_into(&mut moves) {
            Some(outcome) => Err(outcome),
            None => Ok(moves),
        }
    }

    /// Fill `out` with the legal moves, reusing its room (for loops that
    /// ask at every ply: a replay allocates nothing here once warm); when
    /// the game is over, leave it empty and return how it ended.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) -> Option<Outcome> {
        thread_local! {
            static PACKED: RefCell<Vec<crate::Move>> = const { RefCell::new(Vec::new()) };
        }
        PACKED.with(|cell| {
            // Taken out, not borrowed: the cell stays usable whatever runs
            // while the moves are generated.
            let mut packed = cell.take();
            let outcome = dispatch!(self, m, s => m.legal_moves(s, &mut packed));
            out.clear();
            out.extend(packed.iter().map(|&mv| Move::from(mv)));
            cell.replace(packed);
            outcome
        })
    }

    /// `Ok` iff `mv` is among the legal moves; otherwise the first reason.
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        dispatch!(self, m, s => m.check_move(s, mv.packed()))
    }

    /// `Ok` iff `mv` is among the legal moves; otherwise why not, in
    /// words, with the rule that refuses it: [`GameState::check`]'s reason
    /// as [`crate::refusal`] words it (for the move itself, where
    /// [`GameState::explain`] judges an intent's forms).
    pub fn check_explained(&self, mv: Move) -> Result<(), Refusal> {
        let mv = mv.packed();
        dispatch!(self, m, s => m
            .check_move(s, mv)
            .map_err(|why| crate::refusal(m, s, mv, why)))
    }

    /// Play `mv` if it is legal; on refusal the state is unchanged.
    pub fn apply(&mut self, mv: Move) -> Result<(), Illegal> {
        self.check(mv)?;
        self.apply_unchecked(mv);
        Ok(())
    }

    /// Play a move known to be legal (one [`GameState::legal_moves`]
    /// listed); an illegal one leaves the state meaningless.
    pub fn apply_unchecked(&mut self, mv: Move) {
        dispatch!(mut self, m, s => {
            m.apply(s, mv.packed());
        })
    }

    /// Why the move an intent names is refused, in words, with the rule
    /// that refuses it (a legal move's answer says it is legal).
    pub fn explain(&self, intent: Intent) -> Refusal {
        dispatch!(self, m, s => crate::explain(m, s, intent))
    }

    /// Each player's count now (no dead stones), komi included; zeros for a
    /// ruleset without scoring.
    pub fn score(&self) -> [f64; 2] {
        dispatch!(self, m, s => m.score(s, &Bits::EMPTY))
    }

    /// Each player's count with the stones on `dead` taken off as
    /// prisoners (an agreement's count); points off the board are ignored.
    pub fn score_with_dead(&self, dead: &[Point]) -> [f64; 2] {
        dispatch!(self, m, s => m.score(s, &points_in(m, dead)))
    }

    /// The end the players agree on, with `dead` stones: the game counted
    /// as [`GameState::score_with_dead`] counts it.
    pub fn agree(&self, dead: &[Point]) -> Outcome {
        dispatch!(self, m, s => m.agree(s, &points_in(m, dead)))
    }

    /// The end if the player to move resigns.
    pub fn resign(&self) -> Outcome {
        dispatch!(self, m, s => m.resign(s.pos.to_move))
    }

    /// Fill `out` with the points of a player's pieces, in point order,
    /// reusing its room (see [`GameState::pieces`]).
    pub fn pieces_into(&self, player: u8, out: &mut Vec<Point>) {
        out.clear();
        dispatch!(self, _m, s => out.extend(s.pos.occ[usize::from(player & 1)]
            .iter()
            .map(|p| p as Point)))
    }

    /// Lines completed by the last move other than a removal (removals of
    /// the same turn keep the count).
    pub fn lines_formed(&self) -> u16 {
        dispatch!(self, _m, s => s.pos.lines_formed)
    }

    /// Complete lines of `player`'s pieces through point `p` (whether or
    /// not the rules let them count).
    pub fn lines_at(&self, player: u8, p: Point) -> u32 {
        dispatch!(self, m, s => m.lines_at(&s.pos.occ[usize::from(player & 1)], usize::from(p)))
    }

    /// The last move was a board play leaving its own chain without liberty.
    pub fn last_suicide(&self) -> bool {
        dispatch!(self, _m, s => s.pos.last_suicide)
    }

    /// The class letter of the last move (`N`, `C`, `P`, `E`), for a
    /// ruleset with board plays or passes (which keeps the history).
    pub fn last_class(&self) -> Option<u8> {
        dispatch!(self, _m, s => s.last_class())
    }

    /// Whether a D ends at the last move (see [`State::last_ends_d`]).
    pub fn last_ends_d(&self) -> bool {
        dispatch!(self, _m, s => s.last_ends_d())
    }

    /// Whether the removals owed now are a capture by removal's (its
    /// choice still open or made).
    pub fn capture_owed(&self) -> bool {
        dispatch!(self, m, s => m.capture_owed(s))
    }

    /// Whether the open choice of a capture by removal also lets the
    /// line's removals be taken.
    pub fn capture_owed_lines(&self) -> bool {
        dispatch!(self, m, s => m.capture_owed_lines(s))
    }

    /// The pieces a capture by removal has made removable now, in point
    /// order (empty when none is owed).
    pub fn capture_targets(&self) -> Vec<Point> {
        dispatch!(self, m, s => m.capture_targets(s).iter().map(|p| p as Point).collect())
    }

    /// Play a move known to be legal, as [`GameState::apply_unchecked`],
    /// keeping how to take it back (see [`GameState::undo`]).
    pub fn apply_undoable(&mut self, mv: Move) -> Undo {
        let mv = mv.packed();
        Undo(match (&*self.game.machine, &mut self.state) {
            (AnyMachine::W1(m), AnyState::W1(s)) => AnyUndo::W1(m.apply(s, mv)),
            (AnyMachine::W2(m), AnyState::W2(s)) => AnyUndo::W2(m.apply(s, mv)),
            (AnyMachine::W4(m), AnyState::W4(s)) => AnyUndo::W4(m.apply(s, mv)),
            (AnyMachine::W6(m), AnyState::W6(s)) => AnyUndo::W6(m.apply(s, mv)),
            (AnyMachine::W10(m), AnyState::W10(s)) => AnyUndo::W10(m.apply(s, mv)),
            _ => unreachable!("a game state has its game's width"),
        })
    }

    /// Take back the move [`GameState::apply_undoable`] returned `u` for,
    /// the last one played: the state is exactly as it was before it.
    /// Panics on the undo of a game of another width.
    pub fn undo(&mut self, u: Undo) {
        match (&*self.game.machine, &mut self.state, u.0) {
            (AnyMachine::W1(m), AnyState::W1(s), AnyUndo::W1(u)) => m.undo(s, u),
            (AnyMachine::W2(m), AnyState::W2(s), AnyUndo::W2(u)) => m.undo(s, u),
            (AnyMachine::W4(m), AnyState::W4(s), AnyUndo::W4(u)) => m.undo(s, u),
            (AnyMachine::W6(m), AnyState::W6(s), AnyUndo::W6(u)) => m.undo(s, u),
            (AnyMachine::W10(m), AnyState::W10(s), AnyUndo::W10(u)) => m.undo(s, u),
            _ => panic!("an undo of another game's width"),
        }
    }

    /// Hand the turn to the other player without a move (see
    /// [`Machine::hand_over`]); calling it again takes it back. False, and
    /// nothing changes, while a removal is owed.
    pub fn hand_over(&mut self) -> bool {
        dispatch!(mut self, m, s => m.hand_over(s))
    }

    /// The board as it stands on a fresh history (no repetitions, move
    /// classes or counters), prisoners and pass stones kept: where a game
    /// resumed after its end plays on.
    pub fn on_fresh_history(&self) -> GameState {
        let state = match (&*self.game.machine, &self.state) {
            (AnyMachine::W1(m), AnyState::W1(s)) => AnyState::W1(fresh(m, s)),
            (AnyMachine::W2(m), AnyState::W2(s)) => AnyState::W2(fresh(m, s)),
            (AnyMachine::W4(m), AnyState::W4(s)) => AnyState::W4(fresh(m, s)),
            (AnyMachine::W6(m), AnyState::W6(s)) => AnyState::W6(fresh(m, s)),
            (AnyMachine::W10(m), AnyState::W10(s)) => AnyState::W10(fresh(m, s)),
            _ => unreachable!("a game state has its game's width"),
        };
        GameState {
            game: self.game.clone(),
            state,
        }
    }

    /// The move-class history, oldest first (`N`, `C`, pass kind letters;
    /// empty for a ruleset without board plays or passes).
    pub fn classes(&self) -> Vec<u8> {
        dispatch!(self, _m, s => s.classes().collect())
    }

    /// Whether the move with this index (0-based) ends a D.
    pub fn ends_d(&self, index: usize) -> bool {
        dispatch!(self, _m, s => s.ends_d(index))
    }

    /// The stones of the chains in seki, in point order, by the reading
    /// `seki: nobody` scores with.
    pub fn seki_stones(&self) -> Vec<Point> {
        dispatch!(self, m, s => m.seki_stones(s).iter().map(|p| p as Point).collect())
    }

    /// The forbid rule (index into `Rules::forbid`) forbidding pass kind
    /// `kind` now, if one does.
    pub fn pass_forbidden_by(&self, kind: usize) -> Option<usize> {
        dispatch!(self, m, s => m.pass_forbidden_by(s, kind))
    }
}

/// `s`'s board on a fresh history, prisoners and pass stones kept (see
/// [`GameState::on_fresh_history`]).
fn fresh<const W: usize>(m: &Machine<W>, s: &State<W>) -> State<W> {
    let pos = &s.pos;
    let mut st = m.state_from(pos.occ[0], pos.occ[1], pos.in_hand, pos.to_move);
    st.pos.captured = pos.captured;
    st.pos.pass_stones = pos.pass_stones;
    st
}

/// The points of `points` on `m`'s board as a bitset.
fn points_in<const W: usize>(m: &Machine<W>, points: &[Point]) -> Bits<W> {
    let mut set = Bits::EMPTY;
    for &p in points {
        if usize::from(p) < m.points() {
            set.set(usize::from(p));
        }
    }
    set
}
