use crate::cmd::sim_args::parse_agent;
use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::Diagnostic;
use morrigo_gtp::{Config, Engine};
use morrigo_play::{AgentSpec, MctsParams};

/// Serve GTP (Go Text Protocol 2) on stdin/stdout: a Go engine for GUIs.
///
/// GUIs (Sabaki, GoGui, Lizzie) and tournament tools play a Go-style
/// ruleset against a built-in agent through it.
///
/// Standard commands: protocol_version, name, version, known_command,
/// list_commands, boardsize, clear_board, komi, fixed_handicap,
/// place_free_handicap, set_free_handicap, play, genmove, undo,
/// showboard, final_score, final_status_list, loadsgf, printsgf,
/// time_settings, time_left, quit. Handicap stones are Black's set-up
/// stones with White to move (not moves: `undo` keeps them). Extensions: typed passes (`play b
/// pass:E`; `genmove` answers `pass:P` / `pass:E` where the ruleset has
/// several pass kinds), `morrigo-explain MOVE` (why a move is or is not
/// legal, naming the rule), `morrigo-legal` (the legal moves),
/// `morrigo-classes` (the move-class history, `N C P E`).
///
/// A plain `pass` is the first pass kind of the ruleset's `passes.kinds`
/// that is legal at that moment. Two moves of one colour in a row hand the
/// turn over first (nothing enters the history for the skipped turn).
/// No stone is dead (`final_status_list dead` is empty): games are played
/// out; `final_status_list seki` names the chains in seki.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo gtp chinese --size 9 --komi 7
  morrigo gtp jk-final --size 9 --agent mcts:playouts=2000 --seed 7
  printf 'boardsize 5\\nplay b C3\\ngenmove w\\nshowboard\\n' | morrigo gtp tromp-taylor

In Sabaki (Engines > Manage Engines) or GoGui (Program > New Program), the
engine command is the path of `morrigo` with these arguments, e.g.
`/usr/local/bin/morrigo gtp jk-final --agent mcts:playouts=3000 --plain-passes`
(--plain-passes for GUIs that read no typed passes such as `pass:E`).")]
pub struct GtpArgs {
    /// Ruleset file or built-in name (a Go-style ruleset).
    #[arg(value_name = "RULESET")]
    pub file: String,
    /// The agent that answers `genmove`: `uniform`, `random`, `greedy`,
    /// `alphabeta[:depth=N][,time=MS]`, `mcts[:playouts=N][,c=F]`,
    /// `perfect[:table=FILE]` (default: `mcts:playouts=1000`).
    #[arg(long, value_name = "AGENT", value_parser = parse_agent)]
    pub agent: Option<AgentSpec>,
    /// Seed of the agent's choices (default 0: a session plays the same
    /// moves when given the same commands).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Answer every pass of `genmove` as GTP's plain `pass`, for GUIs that
    /// know no typed passes (the agent then passes only by the kind a plain
    /// `pass` stands for, so the GUI's record replays to the same game).
    #[arg(long)]
    pub plain_passes: bool,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

pub fn run(args: GtpArgs) -> Outcome {
    let rules = game::rules(&args.file, &args.ruleset)?;
    if !game::is_go(&rules) {
        return Err(Failure::Usage(
            Diagnostic::new(format!(
                "GTP plays Go-style games, and `{}` is a Morris-family ruleset (no board plays)",
                rules.name
            ))
            .expected("a Go-style ruleset such as `chinese`, `tromp-taylor` or `jk-final` (`morrigo rulesets` lists them)"),
        ));
    }
    // Refused at start, as a Morris ruleset is: exit 2 before any command.
    morrigo_gtp::engine::go_board(&rules).map_err(Failure::Usage)?;
    let cfg = Config {
        ruleset: args.file.clone(),
        overrides: args.ruleset.overrides(),
        agent: args.agent.unwrap_or(AgentSpec::Mcts(MctsParams::default())),
        seed: args.seed,
        plain_passes: args.plain_passes,
    };
    let mut engine = Engine::new(cfg)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    engine.run(&mut input, &mut out)?;
    Ok(())
}
