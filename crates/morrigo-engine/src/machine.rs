//! The compiled machine and its state: [`Machine`], a ruleset turned into
//! flat tables and bitsets; [`State`], a game's position and the histories
//! the rules read; [`Position`], the part of it that is `Copy`; and
//! [`Undo`]. Beside them, the few methods every layer reads (hash keys,
//! lines, empty points). Nothing here parses text or hashes strings; the
//! only growing buffers are the histories a rule needs.
//!
//! The engine's modules form layers, each importing only from the layers
//! below it, so no two modules import each other (morrigo-cli's
//! `tests/it/architecture.rs` checks it):
//!
//! 1. Plain data, importing nothing above it: `bits`, `moves` (points,
//!    moves, outcomes), `compiled` (expressions lowered for evaluation),
//!    `records` and `ply_log` (what histories and logs hold), `grid`, and
//!    `tables`: per concern, the tables a machine holds and the logs a
//!    state keeps for the rules beyond the plain ones (`tables::captures`,
//!    `choose`, `mills`, `move_values`, `phase_lines`, `turns`).
//! 2. This module: the types built from them.
//! 3. The behaviour, each module an `impl Machine` block by concern:
//!    `eval` (expressions), `movegen` (legal moves), `legality` (why a move
//!    is not legal), `chains` (board plays and their captures), `captures`,
//!    `choose`, `mills`, `phase_lines`, `move_values` and `turns` (the
//!    rules of the tables of the same name), `history` (repetition and the
//!    move-class history), `end_rules`, `scoring`, `line_values`, `benson`,
//!    `apply` (apply and undo). They import from layers 1 and 2, and of
//!    each other only `eval` (its `Ctx`), `legality` (`Illegal`) and
//!    `scoring` (`winner`), which import no behaviour module. Their methods
//!    call each other freely: methods of one type need no import.
//! 4. `build`: a ruleset compiled into a machine, and the states a game
//!    starts from.
//! 5. The rest, for front ends: `perft`, `estimate` and `states`
//!    (counting), `explain` (refusals in words), `notation` (move text);
//!    and `lib.rs`, which shows the public API.

use crate::bits::Bits;
use crate::compiled::Op;
use crate::grid::GridShifts;
use crate::moves::{Point, NO_POINT};
use crate::records::{KeyCounts, MoveRecord, NO_D};
use crate::tables::captures::CompiledCapture;
use crate::tables::choose::{ChoiceLog, ChooseRules};
use crate::tables::mills::{LineHistory, Marks, MillExtras};
use crate::tables::move_values::MoveJudge;
use crate::tables::phase_lines::PhaseLines;
use crate::tables::turns::TurnOrder;
use morrigo_rules::{ActionKind, MoveClass, Rules, Verdict};
use std::sync::Arc;

/// Everything about a position except its histories: `Copy`, so undo is a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position<const W: usize> {
    /// The points each player's pieces stand on.
    pub occ: [Bits<W>; 2],
    /// Pieces on the board per player (kept so rules read it without a popcount).
    pub on_board: [u32; 2],
    /// Pieces each player still has to place (unused with an unlimited hand).
    pub in_hand: [u32; 2],
    /// Pieces each player has lost: removed, captured, or taken from the hand.
    pub lost: [u32; 2],
    /// The player whose move it is (0 or 1).
    pub to_move: u8,
    /// Removals the player to move still owes this turn (u16 holds more
    /// than a board's pieces, so the owed count is never cut short).
    pub pending: u16,
    /// Turns completed (a turn is a move and the removals it owes).
    pub turn: u32,
    /// Moves applied, removals included (the logs outside the position
    /// are tagged with it).
    pub ply: u32,
    /// Turns since a piece left the board or a hand (`turns_without_removal`).
    pub turns_without_removal: u32,
    /// Turns since one completed a line (`turns_without_line`).
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
    /// ([`TurnOrder::track_phase`]).
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
    /// The board, hands, counters and player to move.
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
    pub(crate) lines: LineHistory,
    /// Marks of delayed removals, kept outside [`Position`] (with their own
    /// undo log) so the position every undo copies stays small.
    pub(crate) marks: Marks<W>,
    /// `lines_formed_in` counts (empty unless a rule reads them).
    pub(crate) phase_lines: PhaseLines,
    /// Removals a capture by removal owes (`captures.*.take`), with its log.
    pub(crate) choice: ChoiceLog<W>,
}

impl<const W: usize> State<W> {
    /// The player whose piece stands on `p`, if any.
    pub fn owner(&self, p: Point) -> Option<u8> {
        (0..2u8).find(|&pl| self.pos.occ[pl as usize].has(p as usize))
    }

    /// The keys of the turn-start positions, oldest first: the start, and
    /// every later one when a rule reads `repetitions`.
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
    /// The ruleset the machine was compiled from.
    pub rules: Arc<Rules>,
    pub(crate) n: usize,
    pub(crate) all: Bits<W>,
    pub(crate) neighbours: Vec<Bits<W>>,
    /// Shift-based dilation when the board is a plain grid.
    pub(crate) grid: Option<GridShifts<W>>,
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
    pub(crate) judge: MoveJudge,
    /// Captures moves make by themselves (`captures:`), as tables.
    pub(crate) captures: Vec<CompiledCapture>,
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
    pub(crate) turns: TurnOrder,
    /// Line-rule extras (counting lines, removals from hand, marks).
    pub(crate) mills: Option<MillExtras>,
    /// Some rule beyond the plain ones is in play (turn order, capture
    /// rules, line-rule extras, forbid rules judged per move): `apply` and
    /// move generation run a copy with these checks only when it is set.
    pub(crate) extras: bool,
    /// Capture rules taking by removals the player chooses.
    pub(crate) choose: Option<ChooseRules>,
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

impl<const W: usize> Machine<W> {
    /// The number of points on the board.
    pub fn points(&self) -> usize {
        self.n
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

    /// The points a piece may be put on: neither occupied nor marked.
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
