//! `morrigo-sector solve-sectors RULESET --db DIR --max-pieces N`: solve
//! the moving-phase sectors of a Morris-family ruleset up to N pieces a
//! side, one sealed file per sector in DIR; a rerun resumes.
//! `morrigo-sector solve-game RULESET [--db DIR]`: the whole game, placing
//! phase included, unit by unit. (`morrigo solve RULESET --db DIR` is the
//! user's command; this one prints every unit's counts as it goes.)

use clap::{Parser, Subcommand};
use morrigo_engine::memory::{self, show_bytes, Counting};
use morrigo_sector::{Sector, Solver};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
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
    /// Memory the solve may hold (`512M`, `8G`, or bytes): past a third of
    /// it, the units solved least recently are dropped and read back from
    /// their files when needed. Default: the memory available on the
    /// machine, or the address space left under `ulimit -v` when less.
    #[arg(long, global = true, value_name = "SIZE", value_parser = memory::parse_bytes)]
    max_memory: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Solve (or resume) every moving-phase sector with at most N pieces a
    /// side, lower sectors first, printing each sector's counts; with
    /// `--hands`, every unit with pieces in hand too.
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
        /// Also every unit with pieces in hand, counting a side's pieces on
        /// the board and in hand together: every position of a game once
        /// both sides are down to N (where turns may move while pieces
        /// wait in hand, as in Lasker Morris, the game's start needs them
        /// all).
        #[arg(long)]
        hands: bool,
    },
    /// Check a database directory: every unit file is read back (its seal,
    /// rules and counts checked) and random positions of each are checked
    /// forward, their value against their successors'.
    Check {
        /// A ruleset name or YAML file.
        ruleset: String,
        /// Directory of the unit files.
        #[arg(long)]
        db: PathBuf,
        /// Orbits checked per unit (every one, if the unit has fewer).
        #[arg(long, default_value_t = 1000)]
        samples: u64,
        /// Seed of the random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solve the whole game from its start: every unit (pieces on the
    /// board and in hand) its turns reach, lowest first, printing each
    /// unit's counts, then the value of the start.
    SolveGame {
        /// A ruleset name or YAML file.
        ruleset: String,
        /// Directory of the unit files (created if missing): a rerun
        /// resumes. Without it, the solve is in memory only.
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// The value of the start and of every first move by search over the
    /// solved units, as Gasser proved Nine Men's Morris: the moving-phase
    /// sectors (every one the placing phase reaches, from solve-sectors)
    /// and any placing unit solved are exact leaves. Each first move proved
    /// is kept in DIR/opening.tbl: a rerun resumes at the next.
    /// Check the placing units of a database directory against the
    /// placing-phase search: random positions of each, searched down to
    /// the moving phase (no placing unit read), must have the unit's
    /// win, draw or loss. Two algorithms, one answer.
    CheckOpening {
        /// A ruleset name or YAML file.
        ruleset: String,
        /// Directory of the unit files.
        #[arg(long)]
        db: PathBuf,
        /// Positions checked per unit and side to move solved.
        #[arg(long, default_value_t = 100)]
        samples: u64,
        /// Seed of the random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Memory of the transposition table.
        #[arg(long, default_value = "1G", value_name = "SIZE", value_parser = memory::parse_bytes)]
        table: u64,
    },
    SearchOpening {
        /// A ruleset name or YAML file.
        ruleset: String,
        /// Directory of the unit files.
        #[arg(long)]
        db: PathBuf,
        /// Memory of the transposition tables, shared by the searches.
        #[arg(long, default_value = "2G", value_name = "SIZE", value_parser = memory::parse_bytes)]
        table: u64,
        /// Searches at once (one first move each).
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
}

const HEADING: &str = "sector      orbits        positions     wins          losses        draws         longest  digest    ms";

/// One unit's counts under [`HEADING`]; a unit with pieces in hand shows
/// them (`+2-3`) and the side to move of a half solved alone.
fn print_unit(s: &morrigo_sector::SectorStats) {
    let side = match s.halves {
        [true, false] => " (first to move)",
        [false, true] => " (second to move)",
        _ => "",
    };
    println!(
        "{:<11} {:<13} {:<13} {:<13} {:<13} {:<13} {:<8} {:08x}  {}{}{side}",
        s.sector().to_string(),
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
}

fn machine(ruleset: &str) -> Result<morrigo_engine::Machine<1>, String> {
    let rules = morrigo_rules::load_rules(ruleset).map_err(|e| e.to_string())?;
    morrigo_sector::solver_machine(&rules)
}

/// The unit a file in a database directory holds, by its name
/// (`w3-b4.sec`, `w3-b4-h2-3.sec`).
fn unit_of(name: &str) -> Option<Sector> {
    let stem = name.strip_suffix(".sec")?;
    let nums: Vec<u32> = stem
        .split(['w', 'b', 'h', '-'])
        .filter(|p| !p.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    let c = match nums[..] {
        [w, b] => Sector::moving(w, b),
        [w, b, x, y] => Sector {
            on_board: [w, b],
            in_hand: [x, y],
        },
        _ => return None,
    };
    // Only the names the solver writes.
    let again = if c.is_moving() {
        format!("w{w}-b{b}.sec", w = c.on_board[0], b = c.on_board[1])
    } else {
        format!(
            "w{}-b{}-h{}-{}.sec",
            c.on_board[0], c.on_board[1], c.in_hand[0], c.in_hand[1]
        )
    };
    (again == name).then_some(c)
}

/// The units a database directory holds files of, lowest first.
fn units_in(db: &Path) -> Result<Vec<Sector>, String> {
    let mut units: Vec<Sector> = std::fs::read_dir(db)
        .map_err(|e| format!("{}: {e}", db.display()))?
        .filter_map(|e| unit_of(&e.ok()?.file_name().to_string_lossy()))
        .collect();
    units.sort_unstable();
    Ok(units)
}

fn check(
    m: &morrigo_engine::Machine<1>,
    db: &Path,
    samples: u64,
    seed: u64,
) -> Result<u64, String> {
    use rand::{Rng, SeedableRng};
    let units = units_in(db)?;
    if units.is_empty() {
        return Err(format!("{} holds no unit files", db.display()));
    }
    let mut solver = Solver::new(m, Some(db)).map_err(|e| e.to_string())?;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut checked = 0;
    println!("unit        checked   wins      losses    draws");
    for c in units {
        solver.load_sector(c).map_err(|e| e.to_string())?;
        let orbits = solver.values(c).map_or(0, |(index, _)| index.orbits);
        let picks: Vec<u64> = if orbits <= samples {
            (0..orbits).collect()
        } else {
            (0..samples).map(|_| rng.random_range(0..orbits)).collect()
        };
        let [w, l, d] = solver.check_orbits(c, &picks).map_err(|e| e.to_string())?;
        println!("{:<11} {:<9} {w:<9} {l:<9} {d}", c.to_string(), w + l + d);
        checked += w + l + d;
        // Each unit on its own: the ones it read are dropped again.
        solver.evict(|_| true);
    }
    Ok(checked)
}

fn check_opening(
    m: &morrigo_engine::Machine<1>,
    db: &Path,
    samples: u64,
    seed: u64,
    table: u64,
) -> Result<u64, String> {
    use morrigo_sector::opening::{OpeningSearch, Wdl};
    use rand::{Rng, SeedableRng};
    let mut units = units_in(db)?;
    units.retain(|c| !c.is_moving());
    if units.is_empty() {
        return Err(format!("{} holds no placing unit files", db.display()));
    }
    let solver = Solver::new(m, None).map_err(|e| e.to_string())?;
    let binom = morrigo_sector::Binomial::new(m.points());
    let fingerprint = morrigo_solve::rules_fingerprint(&m.rules);
    let mut search = OpeningSearch::new(m, db, table)
        .map_err(|e| e.to_string())?
        .without_placing_units();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut checked = 0;
    println!("unit        to move  checked   wins      losses    draws     nodes         ms");
    for c in units {
        let index = morrigo_sector::SectorIndex::new(
            &binom,
            solver.group(),
            m.points(),
            c.on_board[0] as usize,
            c.on_board[1] as usize,
        );
        let path = morrigo_sector::solver::unit_path(db, c);
        let (values, halves) = morrigo_sector::solver::read_unit(&path, fingerprint, c, &index)
            .map_err(|e| e.to_string())?;
        for half in (0..2u8).filter(|&h| halves[usize::from(h)]) {
            let started = Instant::now();
            let before = search.stats().nodes;
            let mut counts = [0u64; 3];
            for _ in 0..samples.min(index.orbits) {
                let i = rng.random_range(0..index.orbits);
                let board = morrigo_sector::Board {
                    occ: index.arrangement(&binom, i),
                    in_hand: c.in_hand,
                    to_move: half,
                };
                let stored = Wdl::of_stored(values[(u64::from(half) * index.orbits + i) as usize]);
                let searched = search.value(&board).map_err(|e| e.to_string())?;
                if searched != stored {
                    return Err(format!(
                        "unit {c}, orbit {i} ({board:?}): the unit holds a {stored}, the search finds a {searched}"
                    ));
                }
                counts[match stored {
                    Wdl::Win => 0,
                    Wdl::Loss => 1,
                    Wdl::Draw => 2,
                }] += 1;
            }
            println!(
                "{:<11} {:<8} {:<9} {:<9} {:<9} {:<9} {:<13} {}",
                c.to_string(),
                if half == 0 { "first" } else { "second" },
                counts.iter().sum::<u64>(),
                counts[0],
                counts[1],
                counts[2],
                search.stats().nodes - before,
                started.elapsed().as_millis()
            );
            checked += counts.iter().sum::<u64>();
        }
    }
    Ok(checked)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (limit, source) = match cli.max_memory {
        Some(b) => (b, "--max-memory"),
        None => memory::default_limit(),
    };
    memory::set_limit(limit, source);
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        // A ruleset's diagnostics say `error:` themselves.
        Err(e) if e.starts_with("error:") => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// One command; its error is what `main` prints (exit 1).
fn run(command: Command) -> Result<(), String> {
    let started = Instant::now();
    let secs = || started.elapsed().as_secs_f64();
    match command {
        Command::Check {
            ruleset,
            db,
            samples,
            seed,
        } => {
            let m = machine(&ruleset)?;
            let n = check(&m, &db, samples, seed)?;
            println!(
                "{n} positions checked against their successors in {:.2} s: every value holds",
                secs()
            );
        }
        Command::SolveGame { ruleset, db } => {
            let m = machine(&ruleset)?;
            println!("{HEADING}");
            let t = morrigo_sector::GameTable::solve_with(&m, db.as_deref(), print_unit)
                .map_err(|e| e.to_string())?;
            let sizes = t.sizes();
            println!(
                "{}: start {:?}; {} units with pieces in hand, {} without, {} values; {:.2} s, peak memory {}",
                m.rules.name,
                t.start_value(),
                sizes.placing_units,
                sizes.moving_units,
                sizes.values,
                secs(),
                show_bytes(memory::peak_bytes())
            );
        }
        Command::CheckOpening {
            ruleset,
            db,
            samples,
            seed,
            table,
        } => {
            let m = machine(&ruleset)?;
            let n = check_opening(&m, &db, samples, seed, table)?;
            println!(
                "{n} placing positions searched in {:.2} s: every one has its unit's value",
                secs()
            );
        }
        Command::SearchOpening {
            ruleset,
            db,
            table,
            threads,
        } => {
            let m = machine(&ruleset)?;
            println!(
                "first move                    value  nodes         unit hits     table hits    ms"
            );
            let r = morrigo_sector::opening::search_opening(&m, &db, table, threads, |f| {
                println!(
                    "{:<29} {:<6} {:<13} {:<13} {:<13} {}{}",
                    f.points.join(" "),
                    f.value.word(),
                    f.stats.nodes,
                    f.stats.unit_hits,
                    f.stats.table_hits,
                    f.millis,
                    if f.loaded { " (read back)" } else { "" }
                );
            })
            .map_err(|e| e.to_string())?;
            println!(
                "{}: the start is a {} for the first player; {:.2} s, peak memory {}",
                m.rules.name,
                r.start.word(),
                secs(),
                show_bytes(memory::peak_bytes())
            );
        }
        Command::SolveSectors {
            ruleset,
            db,
            max_pieces,
            min_pieces,
            hands,
        } => solve_sectors(&ruleset, &db, (min_pieces, max_pieces), hands)?,
    }
    Ok(())
}

/// `solve-sectors`: the moving-phase sectors (with `hands`, every unit)
/// with `min..=max` pieces a side, each printed as it is solved.
fn solve_sectors(
    ruleset: &str,
    db: &Path,
    (min_pieces, max_pieces): (u32, u32),
    hands: bool,
) -> Result<(), String> {
    let started = Instant::now();
    let m = machine(ruleset)?;
    let colours = if morrigo_sector::colour_blind(&m.rules, m.plain_turns()) {
        "; the players alike, so a sector with fewer pieces of the first player is read off its colour-swapped twin"
    } else {
        ""
    };
    println!(
        "{}: {} points, {} symmetries{colours}",
        m.rules.name,
        m.points(),
        morrigo_sector::symmetries(&m.rules).len()
    );
    println!("{HEADING}");
    let mut solved_positions = 0u64;
    let each = |s: &morrigo_sector::SectorStats| {
        if !s.loaded {
            solved_positions += s.positions;
        }
        print_unit(s);
    };
    let log = if hands {
        morrigo_sector::solve_units(&m, Some(db), min_pieces, max_pieces, each)
    } else {
        morrigo_sector::solve_sectors(&m, Some(db), min_pieces, max_pieces, each)
    }
    .map_err(|e| e.to_string())?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} sectors in {secs:.2} s, {solved_positions} positions solved ({:.0} positions/s on {} threads), peak memory {}",
        log.len(),
        solved_positions as f64 / secs.max(1e-9),
        rayon::current_num_threads(),
        show_bytes(memory::peak_bytes())
    );
    Ok(())
}
