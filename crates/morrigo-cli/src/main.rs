//! `morrigo`: the command-line front end of the Morrigo rules engine.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod budget;
mod cmd;
mod fail;
mod game;

#[global_allocator]
static ALLOCATOR: budget::Counting = budget::Counting;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

const TOP_EXAMPLES: &str = "\
Examples:
  morrigo compare                         compare every built-in Morris ruleset
  morrigo rulesets                        list the built-in rulesets
  morrigo show nine-mens-morris           the compiled rules and the board
  morrigo play nine-mens-morris --as white --agent greedy
  morrigo replay nine-mens-morris --moves \"a1 d2 d1 b4 g1xd2\"
  morrigo perft nine-mens-morris 5
  morrigo check my-variant.yaml
  morrigo play jk-final --size 9 --save-sgf game.sgf
  morrigo replay jk-final --sgf game.sgf
  morrigo states tromp-taylor --size 3
  morrigo solve three-mens-morris
  morrigo solve jk-final --size 3x1 --komi 0
  morrigo compare jk-final chinese --size 9 --games 200
  morrigo ladder six-mens-morris          Elo of agent settings, draw rates by strength
  morrigo serve                           the web playground on http://127.0.0.1:8080/
  morrigo completions bash                a completion script for your shell

A ruleset is a path to a .yaml file or the name of a built-in ruleset;
`--size 9` / `--size 7x5` and `--komi 6.5` change a grid or scored ruleset.
Exit status: 0 ok, 1 rule or game error, 2 usage error.";

/// Morrigo: a rules-as-data engine for Morris-family and Go-style games.
///
/// Rulesets are YAML files (or built-in names); every command loads and
/// checks the ruleset first and reports problems as file:line:col errors.
#[derive(Parser, Debug)]
#[command(name = "morrigo", version, after_help = TOP_EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Check(cmd::check::CheckArgs),
    Show(cmd::show::ShowArgs),
    Replay(cmd::replay::ReplayArgs),
    Perft(cmd::perft::PerftArgs),
    Play(cmd::play::PlayArgs),
    Simulate(cmd::simulate::SimulateArgs),
    States(cmd::states::StatesArgs),
    Solve(cmd::solve_args::SolveArgs),
    Compare(cmd::compare::CompareArgs),
    Ladder(cmd::ladder::LadderArgs),
    Test(cmd::test::TestArgs),
    Bench(cmd::bench::BenchArgs),
    Rulesets(cmd::rulesets::RulesetsArgs),
    Gtp(cmd::gtp::GtpArgs),
    Match(cmd::gtp_match::MatchArgs),
    Serve(cmd::serve::ServeArgs),
    Sweep(cmd::sweep::SweepArgs),
    Completions(cmd::completions::CompletionsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Simulate(a) => cmd::simulate::run(a),
        Command::States(a) => cmd::states::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Ladder(a) => cmd::ladder::run(a),
        Command::Test(a) => cmd::test::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Rulesets(a) => cmd::rulesets::run(a),
        Command::Gtp(a) => cmd::gtp::run(a),
        Command::Match(a) => cmd::gtp_match::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Sweep(a) => cmd::sweep::run(a),
        Command::Completions(a) => cmd::completions::run(a, Cli::command()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    }
}
