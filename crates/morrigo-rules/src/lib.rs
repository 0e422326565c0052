//! Ruleset files → checked, compiled [`Rules`].
//!
//! `load` reads YAML (the only module that does), `compile` resolves the
//! board, checks every rule expression against the [`vocab`] and produces
//! `Rules`: plain data with no text left to parse, ready for the engine.

#![warn(missing_docs)]
// Unsafe code only where an item allows it (FFI, an allocator, atomics
// over a buffer), each with its reason.
#![deny(unsafe_code)]

pub mod builtin;
mod compile;
pub mod eval;
pub mod load;
pub mod move_values;
pub mod schema;
pub mod shapes;
pub mod turns;
pub mod vocab;
pub mod yaml;

pub use compile::compile;
pub use eval::{EvalTerms, EvalWeights, MAX_EVAL_WEIGHT};
pub use vocab::{reads_piece_counts_only, Context, Prim};

use morrigo_board::Topology;
use morrigo_diag::{Diagnostics, Location, SourceFile};
use morrigo_dsl::Expr;
use std::fmt;

/// The board-size limit: the engine's widest machine holds this many points
/// (a 25×25 grid). `check` refuses larger boards.
pub const MAX_POINTS: usize = 640;

/// The hand-size limit: pieces a player may start with in hand, so that
/// every count of a game fits the engine's counters. `check` refuses more.
pub const MAX_IN_HAND: u32 = 1_000_000;

/// The most phases a ruleset may have: the engine keeps a phase index in a
/// byte, with one value reserved.
pub const MAX_PHASES: usize = u8::MAX as usize;

/// The most end rules a ruleset may have. An outcome names its rule in 16
/// bits (two values reserved), but each rule is checked against its
/// section, so the limit is set far below that to keep `check` fast.
pub const MAX_END_RULES: usize = 4096;

/// The most capture rules a ruleset may have: the engine arms them for a
/// move as the bits of one 64-bit word.
pub const MAX_CAPTURE_RULES: usize = 64;

/// The most forbid rules a ruleset may have (as for end rules).
pub const MAX_FORBID_RULES: usize = 4096;

/// Load and compile a ruleset by path or built-in name.
pub fn load_rules(spec: &str) -> Result<Rules, Diagnostics> {
    let loaded = load::load(spec)?;
    compile(&loaded)
}

/// Load a ruleset, apply command-line overrides, compile.
pub fn load_rules_with(spec: &str, overrides: &load::Overrides) -> Result<Rules, Diagnostics> {
    let loaded = load::with_overrides(load::load(spec)?, overrides)?;
    compile(&loaded)
}

/// Load and compile ruleset text held in memory.
pub fn rules_from_text(name: &str, text: &str) -> Result<Rules, Diagnostics> {
    let loaded = load::load_text(name, text)?;
    compile(&loaded)
}

/// A compiled rule expression with the text it came from.
#[derive(Clone, Debug)]
pub struct Cond {
    /// The checked expression over the vocabulary's primitives, as the engine
    /// evaluates it.
    pub expr: Expr<Prim>,
    /// The expression as written in the ruleset.
    pub text: String,
    /// Where it is written in the ruleset files (for a rule the compiler adds
    /// itself, its key), if known.
    pub at: Option<Location>,
}

impl Cond {
    /// The expression is the constant `true` (or any non-zero constant).
    pub fn is_always(&self) -> bool {
        self.expr.as_const().is_some_and(|v| v != 0)
    }

    /// Whether the expression reads `prim` anywhere.
    pub fn uses(&self, prim: Prim) -> bool {
        let mut found = false;
        self.expr.for_each_symbol(&mut |p| found |= *p == prim);
        found
    }
}

/// The kinds of action a phase may allow. Each is a built-in primitive of the
/// engine; rulesets choose them and guard them with conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// Put a piece from hand on an empty point.
    Place,
    /// Move an own piece along an edge to an adjacent empty point.
    Slide,
    /// Move an own piece to any empty point.
    Fly,
    /// Go's board play: put a stone on an empty point, then remove opposing
    /// chains left without liberty (see [`PlayRule`]).
    Play,
    /// Give up the turn with one of the ruleset's pass kinds.
    Pass,
}

impl ActionKind {
    /// Every action kind, for looking one up by its word.
    pub const ALL: [ActionKind; 5] = [
        ActionKind::Place,
        ActionKind::Slide,
        ActionKind::Fly,
        ActionKind::Play,
        ActionKind::Pass,
    ];

    /// The word a phase's `actions:` names it by (`place`, `slide`, …).
    pub fn name(self) -> &'static str {
        match self {
            ActionKind::Place => "place",
            ActionKind::Slide => "slide",
            ActionKind::Fly => "fly",
            ActionKind::Play => "play",
            ActionKind::Pass => "pass",
        }
    }
}

/// What a suicide (a board play leaving a chain of the mover without
/// liberty after captures) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuicideEffect {
    /// The play stands and the mover loses.
    Lose,
    /// The play is not allowed.
    Illegal,
    /// The play stands and the libertyless chain is removed (to the
    /// opponent's captured prisoners).
    Remove,
}

/// Board-play primitives of the Go family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayRule {
    /// Suicide of a single stone.
    pub suicide_single: SuicideEffect,
    /// Suicide of a chain of two or more stones.
    pub suicide_multi: SuicideEffect,
    /// Classify plays as ko captures `C` (JK Art. 2.5) or normal `N`.
    pub ko_capture: bool,
    /// The derived class of ko-capture runs, if the ruleset declares one.
    pub ko_runs: Option<KoRuns>,
}

/// A derived move class (JK's `D`): a run of ko captures of even length
/// ≥ 4 whose last capture takes the stone placed by the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KoRuns {
    /// The letter patterns name it by.
    pub letter: u8,
    /// Only runs of 4 or 6 count (otherwise 4, 6, 8, …).
    pub four_or_six: bool,
}

// The move classes recorded in the history of board plays.
/// `N`: a board play that is not a ko capture.
pub const CLASS_NORMAL: u8 = b'N';
/// `C`: a ko capture (JK Art. 2.5).
pub const CLASS_KO_CAPTURE: u8 = b'C';

/// The classes history patterns may name, as a ruleset declares them:
/// the plain ones (the play classes `N` and `C`, then the pass kinds) and
/// the derived ones (`play.derived`).
pub fn history_classes(play: Option<&PlayRule>, passes: &Passes) -> (Vec<u8>, Vec<u8>) {
    let mut classes = Vec::new();
    if let Some(p) = play {
        classes.push(CLASS_NORMAL);
        if p.ko_capture {
            classes.push(CLASS_KO_CAPTURE);
        }
    }
    classes.extend(&passes.kinds);
    let derived = play.and_then(|p| p.ko_runs).map(|r| r.letter);
    (classes, derived.into_iter().collect())
}

/// Pass kinds (letters) and the pass stones each pass gives the opponent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Passes {
    /// The pass kinds, one upper-case letter each, in the order written;
    /// [`MoveClass::Pass`] holds an index into it.
    pub kinds: Vec<u8>,
    /// Pass stones each pass gives the opponent.
    pub stones: u32,
}

impl Passes {
    /// The index in `kinds` of the pass kind written `letter`.
    pub fn kind_index(&self, letter: u8) -> Option<usize> {
        self.kinds.iter().position(|&k| k == letter)
    }

    /// The pass kinds as text (`["P", "E"]`), for messages and notation.
    pub fn names(&self) -> Vec<String> {
        self.kinds
            .iter()
            .map(|k| (*k as char).to_string())
            .collect()
    }
}

/// A move kind a forbid rule may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveClass {
    /// A placement from hand.
    Place,
    /// A slide along an edge.
    Slide,
    /// A fly to any empty point.
    Fly,
    /// A capture rule's leap.
    Leap,
    /// A removal a completed line earns.
    Remove,
    /// A board play (Go family).
    Play,
    /// Index into `Passes::kinds`.
    Pass(u8),
}

/// A capture a move makes by itself, along the lines through the moved
/// piece's new point: the captured pieces leave the board at once, as part
/// of the move (before any line it completes is judged).
#[derive(Clone, Debug)]
pub struct CaptureRule {
    /// The rule's key in `captures:`.
    pub name: String,
    /// Which shape of capture it makes.
    pub kind: CaptureKind,
    /// The line directions it works along (never empty).
    pub directions: Vec<morrigo_board::LineDirection>,
    /// Judged for the mover before the move.
    pub when: Cond,
    /// How the captured pieces leave the board.
    pub take: CaptureTake,
    /// The rule's `doc:` text, for the reader.
    pub doc: Option<String>,
}

/// How a custodian or intervention capture takes its pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CaptureTake {
    /// Every captured piece leaves at once, as part of the move.
    #[default]
    All,
    /// The captured pieces become removals the mover makes, one ply each
    /// (custodian: every flanked piece; intervention: the two ends of one
    /// line, the first removal fixing the line). When the move also
    /// completes a line, the first removal chooses between the captures
    /// and the line's removals.
    Choose,
    /// As `Choose`, but a custodian capture earns one removal: one of the
    /// flanked pieces.
    ChooseOne,
}

impl CaptureTake {
    /// The word a capture rule's `take:` writes it as.
    pub fn name(self) -> &'static str {
        match self {
            CaptureTake::All => "all",
            CaptureTake::Choose => "choose",
            CaptureTake::ChooseOne => "choose_one",
        }
    }
}

/// The shapes of capture a capture rule can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureKind {
    /// Three consecutive points of a line hold the moved piece, an opposing
    /// piece and an own piece: the opposing piece is captured.
    Custodian,
    /// The moved piece is the middle of three consecutive points of a line
    /// whose two ends hold opposing pieces: both are captured.
    Intervention,
    /// A move of its own: an own piece jumps from one end of three
    /// consecutive points of a line, over an opposing piece in the middle,
    /// to the empty other end, and takes the jumped piece.
    Leap,
}

impl CaptureKind {
    /// The word a capture rule's `kind:` writes it as.
    pub fn name(self) -> &'static str {
        match self {
            CaptureKind::Custodian => "custodian",
            CaptureKind::Intervention => "intervention",
            CaptureKind::Leap => "leap",
        }
    }
}

/// A named rule forbidding moves of some kinds while a condition holds.
#[derive(Clone, Debug)]
pub struct ForbidRule {
    /// The rule's key in `forbid:`.
    pub name: String,
    /// The move kinds it forbids.
    pub moves: Vec<MoveClass>,
    /// When they are forbidden; it may read values about the move being
    /// judged (see [`move_values`]).
    pub when: Cond,
    /// The rule's `doc:` text, for the reader.
    pub doc: Option<String>,
}

/// What an immediate repetition by a board play does (which plays are one:
/// [`ImmediateReading`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Immediate {
    /// Nothing: the play is allowed.
    Allowed,
    /// The player who recreates the board of two moves back loses (JK 3.2).
    Lose,
    /// Such a play is not allowed (simple ko).
    Illegal,
}

/// Which plays count as an immediate repetition (the verdict is separate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmediateReading {
    /// Simple ko: a board play recreating the board as it stood just before
    /// the opponent's last move, itself a board play (whatever came before).
    SimpleKo,
    /// JK Art. 3.2: the board after this play equals the board after the
    /// move two back, and that move was also a board play.
    Jk,
}

/// Which earlier boards a board play may not recreate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Superko {
    /// Any board may recur.
    None,
    /// No board that has occurred before.
    Positional,
    /// No board that has occurred before with the same player to move.
    Situational,
}

/// What a board occurring for the `count`-th time as the result of a board
/// play does (see [`RepetitionRule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeated {
    /// Nothing.
    Off,
    /// JK Art. 3.3: more captured prisoners since the first occurrence wins.
    Captures,
    /// The game is drawn.
    Draw,
}

/// The `repetition:` section (Go family), with its defaults when absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepetitionRule {
    /// What an immediate repetition does.
    pub immediate: Immediate,
    /// What `immediate` judges.
    pub reading: ImmediateReading,
    /// Which earlier boards a board play may not recreate.
    pub superko: Superko,
    /// What the `count`-th occurrence of a board does.
    pub repeated_board: Repeated,
    /// The occurrence (as the result of a board play) that ends the game.
    pub count: u32,
}

impl Default for RepetitionRule {
    fn default() -> Self {
        RepetitionRule {
            immediate: Immediate::Allowed,
            reading: ImmediateReading::SimpleKo,
            superko: Superko::None,
            repeated_board: Repeated::Off,
            count: 3,
        }
    }
}

/// What the score of a counted game is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoringMethod {
    /// JK Art. 5: territory by reachability plus all prisoners.
    Jk,
    /// Tromp-Taylor area: stones plus empty points reaching only one colour.
    Area,
    /// Territory (empty regions bordered by one colour only) plus prisoners:
    /// captured stones, pass stones and dead stones (Japanese, AGA).
    Territory,
}

/// Whether territory scoring counts the regions of chains in seki.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seki {
    /// A region bordered by one colour only is its territory, seki or not.
    Counted,
    /// A region bordered by a chain in seki counts for nobody (Japanese):
    /// a chain is in seki when it is next to an empty point bordering both
    /// colours that neither player can fill without leaving their own chain
    /// (joined through it) with at most one liberty.
    Nobody,
}

/// Whether stones are removed as dead before counting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeadStones {
    /// No stone is dead: the board counts as it stands (Tromp-Taylor; JK
    /// Art. 4.3, whose ending sequences leave no dead stone).
    #[default]
    None,
    /// The players name the dead stones at the end and those both name are
    /// removed before counting (Chinese, Japanese, AGA, New Zealand as
    /// people play them); `morrigo match` plays a clean-up when they
    /// disagree.
    Agreement,
}

/// How a game ended by a `score` end rule or by agreement is counted: the
/// `scoring:` section.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scoring {
    /// What is counted.
    pub method: ScoringMethod,
    /// Points added to the second player's score (`players[1]`).
    pub komi: f64,
    /// JK Art. 4.4: when the first player made the last move, it counts one
    /// more pass stone (only the `jk` method reads it).
    pub last_move_stone: bool,
    /// Whether territory scoring counts the regions of chains in seki.
    pub seki: Seki,
    /// Whether stones are removed as dead before counting.
    pub dead_stones: DeadStones,
}

/// The position a game starts from: `setup.stones` and `setup.to_move`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// Stones on the board at the start, per player (point indices, ascending).
    pub stones: [Vec<u16>; 2],
    /// The player who moves first.
    pub to_move: u8,
}

/// An action a phase allows, and when.
#[derive(Clone, Debug)]
pub struct ActionRule {
    /// The action.
    pub kind: ActionKind,
    /// It is allowed while this holds (`true`: always).
    pub guard: Cond,
}

/// A phase: when it applies and the actions a player may take in it.
#[derive(Clone, Debug)]
pub struct PhaseRule {
    /// The phase's key in `phases:`, which expressions compare `phase` with.
    pub name: String,
    /// `None`: the phase applies whenever no earlier phase does.
    pub when: Option<Cond>,
    /// The actions it allows, in the order written.
    pub actions: Vec<ActionRule>,
    /// `actions.remove`: the move removes an opposing piece `target` for
    /// which this holds (a removal not earned by a line; see `turns.rs`).
    pub remove: Option<Cond>,
    /// `actions.remove_own`: the move removes one of the mover's own
    /// pieces, `target`, for which this holds (see `turns.rs`).
    pub remove_own: Option<Cond>,
    /// Checked when a turn played in this phase ends: the mover moves again.
    pub extra_turn: Option<Cond>,
    /// The player who moves first when the game enters this phase.
    pub first: Option<Cond>,
}

impl PhaseRule {
    /// The conditions of the phase's `remove` and `remove_own` actions,
    /// `extra_turn` and `first`.
    pub fn turn_conds(&self) -> impl Iterator<Item = &Cond> {
        self.remove
            .iter()
            .chain(self.remove_own.iter())
            .chain(self.extra_turn.iter())
            .chain(self.first.iter())
    }
}

/// What completing a line through the moved piece does.
#[derive(Clone, Debug)]
pub struct LineRule {
    /// Number of removals owed (may use `lines_formed`).
    pub removals: Cond,
    /// Whether the opposing piece on `target` may be removed.
    pub removable: Cond,
    /// Whether a completed `line` counts (absent: every line counts).
    pub counts: Option<Cond>,
    /// The owed removals come from the opponent's hand while it holds pieces.
    pub from_hand: Option<Cond>,
    /// A removed piece leaves a mark on its point while this holds.
    pub delay: Option<Cond>,
}

impl LineRule {
    /// The line rule's optional conditions, in file order.
    pub fn extras(&self) -> impl Iterator<Item = &Cond> {
        [&self.counts, &self.from_hand, &self.delay]
            .into_iter()
            .flatten()
    }
}

/// What an end rule decides when its condition holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The player to move loses.
    Lose,
    /// The player to move wins.
    Win,
    /// The game is drawn.
    Draw,
    /// The game ends and is counted by the `scoring` section.
    Score,
    /// The game ends; more captured prisoners since the first occurrence of
    /// the repeated board wins, equal is a draw (JK Art. 3.3).
    CompareCaptures,
    /// The game ends with no result: neither a win nor a draw (a void game,
    /// as the Japanese rules make a long cycle).
    NoResult,
}

impl Verdict {
    /// The key an end rule writes it with (`lose`, `win`, …).
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Lose => "lose",
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Score => "score",
            Verdict::CompareCaptures => "compare_captures",
            Verdict::NoResult => "no_result",
        }
    }
}

/// An end rule: a named condition judged at each turn and what it decides.
#[derive(Clone, Debug)]
pub struct EndRule {
    /// The rule's key in `end:` (or the name of a rule the `play` and
    /// `repetition` settings add).
    pub name: String,
    /// What it decides.
    pub verdict: Verdict,
    /// When it applies, judged for the player to move.
    pub when: Cond,
    /// One line saying what the rule is, shown in transcripts.
    pub doc: Option<String>,
}

/// A compiled ruleset.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The ruleset's `name:`.
    pub name: String,
    /// The `title:`, or the name when there is none.
    pub title: String,
    /// The `description:`, if any.
    pub description: Option<String>,
    /// The file and its `extends` ancestors, the file first.
    pub sources: Vec<SourceFile>,
    /// The compiled board: points, edges and lines.
    pub topology: Topology,
    /// The two players' names, the first listed first; expressions and the
    /// engine name a player by its index here.
    pub players: Vec<String>,
    /// Pieces in hand at the start (ignored when `unlimited_hand`).
    pub in_hand: u32,
    /// Go: every player has stones enough for any game.
    pub unlimited_hand: bool,
    /// Stones on the board at the start and the player to move first.
    pub start: Start,
    /// The `params:` by name, with their values after variants and overrides,
    /// in the order written.
    pub params: Vec<(String, i64)>,
    /// The phases in the order they are tried: the current one is the first
    /// that applies.
    pub phases: Vec<PhaseRule>,
    /// What completing a line does (`on_line_formed`); `None`: nothing.
    pub line_rule: Option<LineRule>,
    /// End rules in the order they are checked: those the `play` and
    /// `repetition` settings imply first, then the ruleset's own.
    pub end: Vec<EndRule>,
    /// Board plays (Go family), when the ruleset has `play:`.
    pub play: Option<PlayRule>,
    /// Pass kinds and pass stones (none when the ruleset has no `passes:`).
    pub passes: Passes,
    /// Forbid rules, in the order written.
    pub forbid: Vec<ForbidRule>,
    /// Captures moves make by themselves, in the order written.
    pub captures: Vec<CaptureRule>,
    /// Repetition rules of board plays.
    pub repetition: RepetitionRule,
    /// How a finished game is counted, when the ruleset has `scoring:`.
    pub scoring: Option<Scoring>,
    /// History patterns used by `after('…')`, indexed by the id the
    /// expression holds.
    pub patterns: Vec<morrigo_dsl::Pattern>,
    /// The alpha-beta evaluation weights when the ruleset has an `eval:`
    /// section (terms it leaves out hold the family default).
    pub eval: Option<EvalWeights>,
    /// The `playout.shapes` section, compiled (square-grid boards only).
    pub shapes: Option<std::sync::Arc<shapes::ShapeTable>>,
}

impl Rules {
    /// Does any rule read this primitive? (The engine skips tracking what no
    /// rule reads.)
    pub fn uses(&self, prim: Prim) -> bool {
        self.conds().any(|c| c.uses(prim))
    }

    /// Every rule expression of the ruleset, of every kind: phase `when`s,
    /// action guards, the line rule, end rules and forbid rules. What the
    /// engine tracks on demand is derived from this one list, so it is
    /// written to name every field: a new kind of rule fails to compile here
    /// until it is listed.
    pub fn conds(&self) -> impl Iterator<Item = &Cond> {
        let Rules {
            name: _,
            title: _,
            description: _,
            sources: _,
            topology: _,
            players: _,
            in_hand: _,
            unlimited_hand: _,
            start: _,
            params: _,
            phases,
            line_rule,
            end,
            play: _,
            passes: _,
            forbid,
            captures,
            repetition: _,
            scoring: _,
            patterns: _,
            eval: _,
            shapes: _,
        } = self;
        let phase_conds = phases.iter().flat_map(|p| {
            p.when
                .iter()
                .chain(p.actions.iter().map(|a| &a.guard))
                .chain(p.turn_conds())
        });
        let line = line_rule
            .iter()
            .flat_map(|l| [&l.removals, &l.removable].into_iter().chain(l.extras()));
        phase_conds
            .chain(line)
            .chain(end.iter().map(|e| &e.when))
            .chain(forbid.iter().map(|f| &f.when))
            .chain(captures.iter().map(|c| &c.when))
    }

    /// Where `key` is first written in the ruleset or its parents.
    pub fn locate_key(&self, key: &str) -> Option<Location> {
        self.sources
            .iter()
            .find_map(|src| src.text.find(key).map(|o| src.location(o)))
    }

    /// The weights alpha-beta evaluates positions of this ruleset with:
    /// its `eval:` section, or the default of its family.
    pub fn eval_weights(&self) -> EvalWeights {
        self.eval
            .unwrap_or_else(|| EvalWeights::family(self.play.is_some()))
    }

    /// The index in `phases` of the phase called `name`.
    pub fn phase_index(&self, name: &str) -> Option<usize> {
        self.phases.iter().position(|p| p.name == name)
    }
}

/// A readable summary of the compiled rules (`morrigo show`, snapshots).
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_setup(f)?;
        self.fmt_phases(f)?;
        self.fmt_line_rule(f)?;
        self.fmt_play(f)?;
        self.fmt_passes(f)?;
        self.fmt_captures(f)?;
        self.fmt_forbid(f)?;
        self.fmt_repetition(f)?;
        self.fmt_scoring(f)?;
        self.fmt_eval_and_shapes(f)?;
        self.fmt_end(f)
    }
}

/// The sections of the summary, in the order `Display` writes them.
impl Rules {
    /// Name, sources, board, players, the starting position and params.
    fn fmt_setup(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "ruleset {} — {}", self.name, self.title)?;
        let chain: Vec<&str> = self.sources.iter().map(|s| &*s.name).collect();
        writeln!(f, "  from: {}", chain.join(" ← "))?;
        let t = &self.topology;
        writeln!(
            f,
            "  board: {} points, {} edges, {} lines",
            t.len(),
            t.edge_count(),
            t.lines.len()
        )?;
        writeln!(
            f,
            "  players: {} (first to move: {})",
            self.players.join(", "),
            self.players[self.start.to_move as usize]
        )?;
        for (player, stones) in self.players.iter().zip(&self.start.stones) {
            if !stones.is_empty() {
                let names: Vec<&str> = stones.iter().map(|&p| t.name(p)).collect();
                writeln!(f, "  {player} stones at start: {}", names.join(" "))?;
            }
        }
        if self.unlimited_hand {
            writeln!(f, "  in hand at start: unlimited")?;
        } else {
            writeln!(f, "  in hand at start: {} each", self.in_hand)?;
        }
        if !self.params.is_empty() {
            let ps: Vec<String> = self
                .params
                .iter()
                .map(|(n, v)| format!("{n} = {v}"))
                .collect();
            writeln!(f, "  params: {}", ps.join(", "))?;
        }
        Ok(())
    }

    fn fmt_phases(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  phases (first that applies):")?;
        for p in &self.phases {
            match &p.when {
                Some(w) => writeln!(f, "    {} when {}", p.name, w.text)?,
                None => writeln!(f, "    {} otherwise", p.name)?,
            }
            for a in &p.actions {
                if a.guard.is_always() {
                    writeln!(f, "      {}", a.kind.name())?;
                } else {
                    writeln!(f, "      {} if {}", a.kind.name(), a.guard.text)?;
                }
            }
            if let Some(r) = &p.remove {
                writeln!(f, "      remove an opposing piece (target) if {}", r.text)?;
            }
            if let Some(r) = &p.remove_own {
                writeln!(f, "      remove an own piece (target) if {}", r.text)?;
            }
            if let Some(x) = &p.extra_turn {
                writeln!(f, "      then the mover moves again if {}", x.text)?;
            }
            if let Some(x) = &p.first {
                writeln!(f, "      on entering this phase, {} moves first", x.text)?;
            }
        }
        Ok(())
    }

    /// `on_line_formed`; "nothing" is said only of rulesets without board
    /// plays, where a line could matter.
    fn fmt_line_rule(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.line_rule {
            Some(l) => {
                writeln!(f, "  on line formed: remove {} piece(s)", l.removals.text)?;
                writeln!(f, "    removable: {}", l.removable.text)?;
                if let Some(c) = &l.counts {
                    writeln!(f, "    a completed line counts if: {}", c.text)?;
                }
                if let Some(c) = &l.from_hand {
                    writeln!(f, "    from the opponent's hand if: {}", c.text)?;
                }
                if let Some(c) = &l.delay {
                    writeln!(f, "    removed pieces stay marked while: {}", c.text)?;
                }
            }
            None if self.play.is_none() => writeln!(f, "  on line formed: nothing")?,
            None => {}
        }
        Ok(())
    }

    /// Go's board play: suicide and the move classes ko rules read.
    fn fmt_play(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(p) = &self.play else {
            return Ok(());
        };
        let effect = |e: SuicideEffect| match e {
            SuicideEffect::Lose => "the mover loses",
            SuicideEffect::Illegal => "illegal",
            SuicideEffect::Remove => "legal, the chain is removed",
        };
        writeln!(f, "  board play: captures chains without liberties")?;
        writeln!(
            f,
            "    suicide: single stone {}; chain of 2+ {}",
            effect(p.suicide_single),
            effect(p.suicide_multi)
        )?;
        if p.ko_capture {
            let derived = match p.ko_runs {
                Some(r) => format!(
                    "; {} = a run of {} Cs",
                    r.letter as char,
                    if r.four_or_six {
                        "4 or 6"
                    } else {
                        "4, 6, 8, …"
                    }
                ),
                None => String::new(),
            };
            writeln!(f, "    classes: C (ko capture, JK Art. 2.5) or N{derived}")?;
        }
        Ok(())
    }

    fn fmt_passes(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.passes.kinds.is_empty() {
            let kinds: Vec<String> = self.passes.names();
            writeln!(
                f,
                "  passes: {} ({} pass stone(s) each)",
                kinds.join(", "),
                self.passes.stones
            )?;
        }
        Ok(())
    }

    fn fmt_captures(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.captures.is_empty() {
            return Ok(());
        }
        writeln!(f, "  captures (made by the move itself):")?;
        for c in &self.captures {
            let dirs: Vec<&str> = c.directions.iter().map(|d| d.name()).collect();
            write!(
                f,
                "    {}: {} along {}",
                c.name,
                c.kind.name(),
                dirs.join(", ")
            )?;
            if !c.when.is_always() {
                write!(f, " when {}", c.when.text)?;
            }
            match c.take {
                CaptureTake::All => {}
                CaptureTake::Choose => write!(f, ", taken by removals the player chooses")?,
                CaptureTake::ChooseOne => write!(f, ", one flanked piece taken by a removal")?,
            }
            writeln!(f)?;
        }
        Ok(())
    }

    fn fmt_forbid(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.forbid.is_empty() {
            return Ok(());
        }
        writeln!(f, "  forbidden moves:")?;
        for r in &self.forbid {
            let kinds: Vec<String> = r.moves.iter().map(|m| m.name(&self.passes)).collect();
            writeln!(
                f,
                "    {}: no {} when {}",
                r.name,
                kinds.join("/"),
                r.when.text
            )?;
        }
        Ok(())
    }

    /// Written only when the ruleset changes the default repetition rule.
    fn fmt_repetition(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rep = &self.repetition;
        if *rep == RepetitionRule::default() {
            return Ok(());
        }
        let verdict = match rep.immediate {
            Immediate::Allowed => "allowed",
            Immediate::Lose => "loses",
            Immediate::Illegal => "illegal",
        };
        let immediate = match (rep.immediate, rep.reading) {
            (Immediate::Allowed, _) => verdict.to_string(),
            (_, ImmediateReading::SimpleKo) => format!(
                "{verdict} (simple ko: recreating the board as it was before the opponent's last play)"
            ),
            (_, ImmediateReading::Jk) => format!(
                "{verdict} (JK Art. 3.2: recreating the board after the move two back, both board plays)"
            ),
        };
        let superko = match rep.superko {
            Superko::None => "none",
            Superko::Positional => "positional",
            Superko::Situational => "situational",
        };
        let repeated = match rep.repeated_board {
            Repeated::Off => "nothing".to_string(),
            Repeated::Captures => format!(
                "occurrence {} ends it, more captures since the first win",
                rep.count
            ),
            Repeated::Draw => format!("occurrence {} is a draw", rep.count),
        };
        writeln!(
            f,
            "  repetition: immediate recapture {immediate}; superko {superko}; a repeated board: {repeated}"
        )
    }

    fn fmt_scoring(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(s) = &self.scoring else {
            return Ok(());
        };
        let method = match s.method {
            ScoringMethod::Jk => "JK territory + prisoners",
            ScoringMethod::Area => "area (stones + territory)",
            ScoringMethod::Territory if s.seki == Seki::Nobody => {
                "territory + prisoners (captured, pass and dead stones; regions of chains in seki count for nobody)"
            }
            ScoringMethod::Territory => "territory + prisoners (captured, pass and dead stones)",
        };
        let stone = if s.last_move_stone {
            "; one more pass stone if the first player moved last"
        } else {
            ""
        };
        let dead = match s.dead_stones {
            DeadStones::Agreement => "; dead stones removed by agreement",
            DeadStones::None => "",
        };
        writeln!(f, "  scoring: {method}, komi {}{stone}{dead}", s.komi)
    }

    /// The engine's `eval:` and `playout.shapes` settings, when given.
    fn fmt_eval_and_shapes(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(w) = &self.eval {
            let terms: Vec<String> = w.terms().iter().map(|(n, v)| format!("{n} {v}")).collect();
            writeln!(f, "  eval weights (alphabeta): {}", terms.join(", "))?;
        }
        if let Some(t) = &self.shapes {
            writeln!(f, "  playout shapes (mcts): {}", t.names.join(", "))?;
        }
        Ok(())
    }

    fn fmt_end(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  end rules (checked in order at each turn):")?;
        for e in &self.end {
            let v = match e.verdict {
                Verdict::Lose => "player to move loses",
                Verdict::Win => "player to move wins",
                Verdict::Draw => "draw",
                Verdict::Score => "game ends, counted",
                Verdict::CompareCaptures => {
                    "more captured prisoners since the first occurrence wins"
                }
                Verdict::NoResult => "game ends with no result",
            };
            writeln!(f, "    {}: {v} if {}", e.name, e.when.text)?;
        }
        Ok(())
    }
}
