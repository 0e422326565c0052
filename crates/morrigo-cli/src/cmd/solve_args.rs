//! The arguments of `morrigo solve`, shared by its three ways of solving
//! (`solve`, `solve_db`, `solve_layers`).

use crate::budget::BudgetOptions;
use crate::game;
use clap::Args;
use morrigo_solve::history::{DEFAULT_MAX_NODES, DEFAULT_MAX_PLIES};

/// Solve a ruleset exactly: who wins with perfect play, by how much, and how.
///
/// Two methods, chosen from the rules. Rulesets whose legal moves and wins
/// do not read the history (Morris-style) are solved by retrograde
/// analysis; the others (Go-style: ko, superko, JK move classes and D runs,
/// pass rules) by a full-history search, on tiny boards.
///
/// Retrograde analysis explores every position reachable from the start (or from `--position`),
/// then works backwards from the finished games: the game-theoretic value
/// (first player wins, draw, second player wins), the distance to the end
/// under perfect play in plies (the winner hurries, the loser delays), a
/// line of perfect play and the value of every first move.
///
/// A position is the board, the pieces in hand, the player to move and the
/// removals owed. End rules that read the history of the game (repetition
/// counts, turns without a removal) are left out, as in the published
/// Morris solutions: a game that neither side can force to a win is a
/// draw. Rulesets whose legal moves or wins read the history (Go-style ko
/// and pass rules) are refused.
///
/// Memory: about 8 bytes per position of the index space while exploring,
/// then 8 bytes per reachable position and 4 bytes per move while solving;
/// the counts and the memory needed are printed once the positions are
/// known, and the solve stops with an error (exit 1) when that would pass
/// `--max-memory`. The saved table holds 2 bytes per reachable position and
/// a bit per index.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo solve three-mens-morris
  morrigo solve six-mens-morris --save six.solve
  morrigo solve three-mens-morris --position \"b2 a1 c1\"
  morrigo solve six-mens-morris --db six-db
  morrigo solve six-mens-morris --db six-db --at \"white: a1 c1 e3; black: b2 d4; in hand: 3 4; to move: black\"
  morrigo play three-mens-morris --agent perfect:table=three.solve
  morrigo solve jk-final --size 2x1 --komi 0
  morrigo solve jk-final --size 2 --komi 0              (2x2: 6,187 nodes)
  morrigo solve jk-final --size 2 --komi 0 --no-transpositions   (the plain search)
  morrigo solve chinese-superko --size 5x2 --komi 0 --value-only
  morrigo solve chinese --size 3x1 --komi 0 --position b1")]
pub struct SolveArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Solve from the position after this move record.
    #[arg(long, value_name = "RECORD")]
    pub position: Option<String>,
    /// Keep the solved table in this file (for `play` and the `perfect`
    /// agent; retrograde analysis only).
    #[arg(long, value_name = "FILE")]
    pub save: Option<String>,
    /// Full-history search: its node budget; larger searches are refused
    /// or stopped.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Full-history search: the deepest ply cap. Lines are cut at 16
    /// plies, then 20, 25, 31, … (a quarter more each time) up to this, until no line is cut or the cut
    /// lines do not change the value.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_PLIES,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_plies: u32,
    /// Full-history search: search without the transposition table (the
    /// plain reference search, every node searched).
    #[arg(long)]
    pub no_transpositions: bool,
    /// Full-history search with the table: the value of the position and
    /// its best first move only; the other first moves are proved no
    /// better, without values of their own. Far cheaper past 3x3 (the
    /// null windows of the root alone, instead of each first move's).
    #[arg(long, conflicts_with_all = ["no_transpositions", "db", "shards", "save"])]
    pub value_only: bool,
    /// Solve layer by layer (pieces in hand and on the board), each layer
    /// a unit of work whose files go to this directory; a re-run resumes.
    #[arg(long, value_name = "DIR")]
    pub shards: Option<std::path::PathBuf>,
    /// Solve the whole game with the sector solver into a database
    /// directory (created if missing): one unit (pieces on the board and
    /// in hand per side) at a time, from the ones the start reaches down,
    /// each unit's file written as it is finished, then the list of units
    /// and the start's value as `game.tbl`. A killed run resumes at the
    /// first unfinished unit; a finished database is read back, checked,
    /// in a fraction of a second. Morris games of up to 64 points whose
    /// turns place, slide or fly and remove by lines (Lasker Morris's
    /// slides with pieces in hand too)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shards", "save", "position"])]
    pub db: Option<std::path::PathBuf>,
    /// With --db: the value and distance of one position and of each of
    /// its moves, e.g. `--at "white: a1 d1 c5; black: b2 d6 e4; to move:
    /// white"`; add `in hand: 2 3` (white's, then black's) for a position
    /// of the placing phase
    #[arg(long, value_name = "POSITION", requires = "db")]
    pub at: Option<String>,
    /// With --db: how the placing phase is solved. `units` (the default):
    /// every placing unit the start reaches, by retrograde analysis, so
    /// every position of the game gets its value and distance (what `--at`,
    /// `play`, the `perfect` agent and `serve --db` read). `search`: the
    /// moving-phase sectors, then the start and each first move by a proof
    /// search over them, as Gasser solved Nine Men's Morris: win, draw or
    /// loss, without distances, for far less work where the placing units
    /// are large.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = Placing::Units, conflicts_with = "at")]
    pub placing: Placing,
    /// With --shards: run this one unit (`explore:h6-6b0-0`,
    /// `solve:h0-0b3-3`, `expand:h0-0b5-5/2`, `round:h0-0b5-5/2/7`), what a
    /// cluster worker runs.
    #[arg(long, value_name = "UNIT", requires = "shards")]
    pub shard: Option<String>,
    /// With --shards: list the units ready to run, one a line, and run none.
    #[arg(long, requires = "shards", conflicts_with = "shard")]
    pub ready: bool,
    /// With --shards: solve a layer of more than N positions in ranges of
    /// at most N (units `expand:LAYER/RANGE`, then `round:LAYER/RANGE/DISTANCE`),
    /// so no unit holds a whole large layer. Set when the directory is
    /// started; the directory keeps it (default: layers are not split).
    #[arg(long, value_name = "N", requires = "shards",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_unit_positions: Option<u64>,
    /// With --shards: units run at a time (default: one per core).
    #[arg(long, value_name = "N", requires = "shards",
          value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    #[command(flatten)]
    pub budget: BudgetOptions,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

/// How `solve --db` solves the placing phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Placing {
    /// Every placing unit by retrograde analysis.
    Units,
    /// A proof search over the moving-phase sectors.
    Search,
}
