//! Options shared by `simulate` and `compare`, and the progress bar.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use morrigo_play::{AgentSpec, SimConfig, DEFAULT_MAX_PLIES};
use std::io::IsTerminal;

#[derive(Args, Debug, Clone)]
pub struct SimOptions {
    /// Agents of the first and second player, comma-separated, each with
    /// its parameters (`alphabeta:depth=3,greedy`); one agent seats the
    /// same agent on both sides. Agents: `uniform`, `random` (avoids moves
    /// that lose at once), `greedy`, `alphabeta[:depth=N][,time=MS]`,
    /// `mcts[:playouts=N][,c=F]`, `perfect[:table=FILE]` (a table from
    /// `morrigo solve --save`; without one, small games are solved first).
    #[arg(long, default_value = "random", value_name = "A[,B]", value_parser = parse_agents)]
    pub agents: AgentPair,
    /// A game still running after this many plies counts as unfinished.
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MAX_PLIES,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

impl SimOptions {
    pub fn config(&self, games: u32, seed: u64) -> SimConfig {
        SimConfig {
            games,
            seed,
            max_plies: self.max_plies,
            agents: self.agents.0,
            threads: self.threads.map(usize::from),
        }
    }
}

/// The agents of the two seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentPair(pub [AgentSpec; 2]);

/// One or two agents; one seats the same agent on both sides.
fn parse_agents(text: &str) -> Result<AgentPair, String> {
    match AgentSpec::parse_list(text)?.as_slice() {
        [a] => Ok(AgentPair([*a, *a])),
        [a, b] => Ok(AgentPair([*a, *b])),
        more => Err(format!(
            "{} agents given; expected one or two (first player, second player)",
            more.len()
        )),
    }
}

/// Progress lines on stderr when it is not a terminal and `--progress`
/// asks for them: a hidden bar the simulation advances, read once a second
/// by a thread that prints it. The thread ends with the bar.
pub fn progress_lines(total: u64, label: String) -> ProgressBar {
    let bar = ProgressBar::hidden();
    bar.set_length(total);
    let watched = bar.clone();
    std::thread::spawn(move || {
        while !watched.is_finished() {
            std::thread::sleep(std::time::Duration::from_secs(1));
            if watched.is_finished() {
                break;
            }
            eprintln!("{label}: {}/{total} games", watched.position());
        }
    });
    bar
}

/// A progress bar on stderr, only when stderr is a terminal.
pub fn progress(total: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template(
        "{msg:>24} [{bar:30}] {pos}/{len} games ({per_sec}, {eta} left)",
    )
    .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    Some(bar)
}
