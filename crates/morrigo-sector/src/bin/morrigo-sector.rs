//! `morrigo-sector solve-sectors RULESET --db DIR --max-pieces N`: solve
//! the moving-phase sectors of a Morris-family ruleset up to N pieces a
//! side, one sealed file per sector in DIR; a rerun resumes. Not part of
//! `morrigo` yet: the front end for issue 22's sector solver while it
//! grows.

use clap::{Parser, Subcommand};
use morrigo_engine::memory::{self, show_bytes, Counting};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[global_allocator]
static ALLOC: Counting = Counting;

#[derive(Parser)]
#[command(
    name = "morrigo-sector",
    about = "Sector retrograde solver for Morris-family rulesets"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve (or resume) every moving-phase sector with at most N pieces a
    /// side, lower sectors first, printing each sector's counts.
    SolveSectors {
        /// A ruleset name or YAML file.
        ruleset: String,
        /// Directory of the sector files (created if missing).
        #[arg(long)]
        db: PathBuf,
        /// The most pieces a side.
        #[arg(long)]
        max_pieces: u32,
        /// The fewest pieces a side of the sectors asked for (lower ones
        /// are solved when a removal reaches them).
        #[arg(long, default_value_t = 0)]
        min_pieces: u32,
    },
    /// Solve the whole game from its start, in memory: the moving-phase
    /// sectors the placings lead to, then every placing position; prints
    /// the value of the start.
    SolveGame {
        /// A ruleset name or YAML file.
        ruleset: String,
    },
}

fn machine(ruleset: &str) -> Result<morrigo_engine::Machine<1>, String> {
    let rules = morrigo_rules::load_rules(ruleset).map_err(|e| format!("{ruleset}: {e:?}"))?;
    morrigo_sector::supported(&rules)?;
    Ok(morrigo_engine::Machine::<1>::new(Arc::new(
        morrigo_solve::solver_rules(&rules),
    )))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::SolveGame { ruleset } => {
            let m = match machine(&ruleset) {
                Ok(m) => m,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            let started = Instant::now();
            match morrigo_sector::GameTable::solve(&m) {
                Ok(t) => {
                    let (placing, units) = t.sizes();
                    println!(
                        "{}: start {:?}; {placing} placing orbits, {units} moving-phase sectors; {:.2} s, peak memory {}",
                        m.rules.name,
                        t.start_value(),
                        started.elapsed().as_secs_f64(),
                        show_bytes(memory::peak_bytes())
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::SolveSectors {
            ruleset,
            db,
            max_pieces,
            min_pieces,
        } => {
            let rules = match morrigo_rules::load_rules(&ruleset) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {ruleset}: {e:?}");
                    return ExitCode::from(1);
                }
            };
            if let Err(why) = morrigo_sector::supported(&rules) {
                eprintln!("error: {why}");
                return ExitCode::from(1);
            }
            let m =
                morrigo_engine::Machine::<1>::new(Arc::new(morrigo_solve::solver_rules(&rules)));
            let colours = if morrigo_sector::colour_blind(&m.rules, m.plain_turns()) {
                "; the players alike, so a sector with fewer pieces of the first player is read off its colour-swapped twin"
            } else {
                ""
            };
            println!(
                "{}: {} points, {} symmetries{colours}",
                rules.name,
                m.points(),
                morrigo_sector::symmetries(&m.rules).len()
            );
            println!("sector   orbits        positions     wins          losses        draws         longest  digest    ms");
            let started = Instant::now();
            let mut solved_positions = 0u64;
            let result =
                morrigo_sector::solve_sectors(&m, Some(&db), min_pieces, max_pieces, |s| {
                    if !s.loaded {
                        solved_positions += s.positions;
                    }
                    println!(
                        "{:<8} {:<13} {:<13} {:<13} {:<13} {:<13} {:<8} {:08x}  {}{}",
                        format!("{}-{}", s.w, s.b),
                        s.orbits,
                        s.positions,
                        s.wins,
                        s.losses,
                        s.draws,
                        s.longest_win,
                        s.digest,
                        s.millis,
                        if s.loaded { " (read back)" } else { "" }
                    );
                });
            let secs = started.elapsed().as_secs_f64();
            let peak = memory::peak_bytes();
            match result {
                Ok(log) => {
                    println!(
                        "{} sectors in {secs:.2} s, {solved_positions} positions solved ({:.0} positions/s on {} threads), peak memory {}",
                        log.len(),
                        solved_positions as f64 / secs.max(1e-9),
                        rayon::current_num_threads(),
                        show_bytes(peak)
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
    }
}
