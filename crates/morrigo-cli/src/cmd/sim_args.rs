//! Options shared by `simulate` and `compare`, and the progress bar.

use crate::fail::Failure;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use morrigo_diag::Diagnostic;
use morrigo_play::{AgentSpec, Progress, SimConfig, DEFAULT_MAX_PLIES};
use morrigo_rules::Rules;
use std::io::IsTerminal;

#[derive(Args, Debug, Clone)]
pub struct SimOptions {
    /// Agents of the first and second player, comma-separated, each with
    /// its parameters (`alphabeta:depth=3,greedy`); one agent seats the
    /// same agent on both sides. Agents: `uniform`, `random` (avoids moves
    /// that lose at once), `greedy`,
    /// `alphabeta[:depth=N][,time=MS][,nodes=N][,margin=C][,hash=MB][,table=FILE]`,
    /// `mcts[:playouts=N][,c=F]`, `perfect[:table=FILE]` (a table from
    /// `morrigo solve --save`; without one, small games are solved first).
    /// `simulate` plays
    /// one pairing (default `random`); `compare` takes the option more than
    /// once, one pairing each (default on both seats: `alphabeta:nodes=3000`
    /// where turns move pieces, `mcts:playouts=200` for board plays).
    #[arg(long, value_name = "A[,B]", value_parser = parse_agents, action = clap::ArgAction::Append)]
    pub agents: Vec<AgentPair>,
    #[command(flatten)]
    pub colours: ColourAgents,
    /// A game still running after this many plies counts as unfinished.
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MAX_PLIES,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

/// The agent seated when none is named.
const DEFAULT_AGENT: AgentSpec = AgentSpec::Random;

impl SimOptions {
    /// The simulation of `games` games of `rules` (whose player names
    /// place `--white` and `--black`).
    pub fn config(&self, rules: &Rules, games: u32, seed: u64) -> Result<SimConfig, Failure> {
        Ok(SimConfig {
            games,
            seed,
            max_plies: self.max_plies,
            agents: self.seat_agents(rules, self.agents.first().map(|p| p.0))?,
            threads: self.threads.map(usize::from),
        })
    }

    /// The agents of the two seats: one `--agents` pairing (`None`: the
    /// default), then `--white` and `--black` in the seats of those
    /// players. A colour that names another agent than `--agents` gives its
    /// seat is a usage error.
    pub fn seat_agents(
        &self,
        rules: &Rules,
        pairing: Option<[AgentSpec; 2]>,
    ) -> Result<[AgentSpec; 2], Failure> {
        self.seat_agents_over(rules, pairing, [DEFAULT_AGENT; 2])
    }

    /// [`Self::seat_agents`] with the pairing to use when `--agents` gives none.
    pub fn seat_agents_over(
        &self,
        rules: &Rules,
        pairing: Option<[AgentSpec; 2]>,
        default: [AgentSpec; 2],
    ) -> Result<[AgentSpec; 2], Failure> {
        let mut agents = pairing.unwrap_or(default);
        for (seat, flag, spec) in self.colours.seats(rules)? {
            match pairing {
                Some(given) if given[seat] != spec => {
                    return Err(Failure::Usage(
                        Diagnostic::new(format!(
                            "`--{flag} {spec}` conflicts with `--agents`, which seats `{}` as {flag} in {}",
                            given[seat], rules.name
                        ))
                        .expected(format!(
                            "either `--agents` (first player, second player: {}) or `--white`/`--black`",
                            rules.players.join(", ")
                        )),
                    ))
                }
                _ => agents[seat] = spec,
            }
        }
        Ok(agents)
    }
}

/// `--white SPEC` and `--black SPEC`: an agent for the player of that name,
/// whichever seat the ruleset gives it (White moves first in Morris, Black
/// in Go).
#[derive(Args, Debug, Clone, Default)]
pub struct ColourAgents {
    /// The agent of the player named `white` (one agent, with parameters).
    #[arg(long, value_name = "AGENT", value_parser = parse_agent)]
    pub white: Option<AgentSpec>,
    /// The agent of the player named `black` (one agent, with parameters).
    #[arg(long, value_name = "AGENT", value_parser = parse_agent)]
    pub black: Option<AgentSpec>,
}

impl ColourAgents {
    /// Each colour given, with its seat in `rules` and its flag name; a
    /// ruleset with no player of that name is a usage error.
    pub fn seats(&self, rules: &Rules) -> Result<Vec<(usize, &'static str, AgentSpec)>, Failure> {
        let mut out = Vec::new();
        for (flag, spec) in [("white", self.white), ("black", self.black)] {
            let Some(spec) = spec else { continue };
            let seat = rules
                .players
                .iter()
                .position(|p| p.eq_ignore_ascii_case(flag))
                .ok_or_else(|| {
                    Failure::Usage(
                        Diagnostic::new(format!(
                            "`--{flag}` names a player {} does not have (its players: {})",
                            rules.name,
                            rules.players.join(", ")
                        ))
                        .expected("`--agents A,B` (first player, second player)"),
                    )
                })?;
            out.push((seat, flag, spec));
        }
        Ok(out)
    }
}

/// The agents of the two seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentPair(pub [AgentSpec; 2]);

/// Parse one agent specification (clap reports a refusal as a usage error).
pub fn parse_agent(text: &str) -> Result<AgentSpec, String> {
    text.parse()
}

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

/// The CLI's side of [`morrigo_play::Progress`]: an indicatif bar the runs
/// advance once per game (the library knows no bar); its methods are the
/// bar's.
pub struct Bar(ProgressBar);

impl Progress for Bar {
    fn inc(&self, n: u64) {
        self.0.inc(n);
    }
}

impl std::ops::Deref for Bar {
    type Target = ProgressBar;
    fn deref(&self) -> &ProgressBar {
        &self.0
    }
}

/// The progress a run reports to, if a bar is shown.
pub fn reported(bar: &Option<Bar>) -> Option<&dyn Progress> {
    bar.as_ref().map(|b| b as &dyn Progress)
}

/// Progress lines on stderr when it is not a terminal and `--progress`
/// asks for them: a hidden bar the simulation advances, read once a second
/// by a thread that prints it. The thread ends with the bar.
pub fn progress_lines(total: u64, label: String) -> Bar {
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
    Bar(bar)
}

/// A progress bar on stderr, only when stderr is a terminal.
pub fn progress(total: u64) -> Option<Bar> {
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
    // Slow agents may take seconds a game: redraw (elapsed time, rate) anyway.
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    Some(Bar(bar))
}
