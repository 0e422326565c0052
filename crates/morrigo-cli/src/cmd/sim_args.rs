//! Options shared by `simulate` and `compare`, and the progress bar.

use crate::cmd::play::AgentArg;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use morrigo_play::{AgentKind, SimConfig, DEFAULT_MAX_PLIES};
use std::io::IsTerminal;

#[derive(Args, Debug, Clone)]
pub struct SimOptions {
    /// Agents of the first and second player, comma-separated; one name
    /// seats the same agent on both sides.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        num_args = 1..=2,
        default_value = "random",
        value_name = "A[,B]"
    )]
    pub agents: Vec<AgentArg>,
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
        let first: AgentKind = self
            .agents
            .first()
            .copied()
            .map_or(AgentKind::Random, Into::into);
        let second: AgentKind = self.agents.get(1).copied().map_or(first, Into::into);
        SimConfig {
            games,
            seed,
            max_plies: self.max_plies,
            agents: [first, second],
            threads: self.threads.map(usize::from),
        }
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
