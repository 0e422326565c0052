//! `morrigo solve RULESET --db DIR [--at POSITION]`: the whole game by the
//! sector solver, kept in a database directory, and queries of it.

use super::solve_args::{Placing, SolveArgs};
use super::solve_text::{line_text, move_value_text, value_text};
use crate::fail::{Failure, Outcome};
use crate::game;
use morrigo_diag::Diagnostic;
use morrigo_engine::{Machine, State};
use morrigo_rules::Rules;
use morrigo_sector::opening::Wdl;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

pub fn run(args: &SolveArgs, dir: &Path) -> Outcome {
    let rules = game::rules(&args.file, &args.ruleset)?;
    let name = rules.name.clone();
    morrigo_sector::supported(&rules).map_err(|why| {
        Failure::game(Diagnostic::new(format!(
            "solve {name} --db: the sector solver does not apply: {why}"
        )))
    })?;
    let left_out = morrigo_solve::history_draw_rules(&rules);
    let m = Machine::<1>::new(Arc::new(morrigo_solve::solver_rules(&rules)));
    // The position is read before the solve, so a typo costs no solve.
    let at = match &args.at {
        Some(text) => Some(parse_position(&m, text)?),
        None => None,
    };
    args.budget.enforce();
    if args.placing == Placing::Search {
        return run_search(&m, dir, &left_out);
    }
    let started = Instant::now();
    let read_back = dir.join(morrigo_sector::game::GAME_FILE).exists();
    let table = morrigo_sector::GameTable::solve_in(&m, Some(dir)).map_err(|e| {
        Failure::game(Diagnostic::new(format!(
            "solve {name} --db {}: {e}",
            dir.display()
        )))
    })?;
    let secs = started.elapsed().as_secs_f64();
    let sizes = table.sizes();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "solve {name} --db {} ({} points, {} symmetries)",
        dir.display(),
        m.points(),
        morrigo_sector::symmetries(&m.rules).len()
    )?;
    writeln!(
        out,
        "  database   {} units with pieces in hand and {} without, {} positions up to symmetry ({} in {secs:.2} s)",
        sizes.placing_units,
        sizes.moving_units,
        sizes.values,
        if read_back { "read back" } else { "solved" }
    )?;
    let whole_game = at.is_none();
    let mut s = at.unwrap_or_else(|| m.initial());
    if !whole_game {
        writeln!(out, "  at         {}", args.at.as_deref().unwrap_or(""))?;
    }
    let Some(value) = table.value(&s.pos) else {
        out.flush()?;
        if let Some(why) = table.read_error() {
            return Err(Failure::game(Diagnostic::new(format!(
                "solve {name} --db: {why}"
            ))));
        }
        return Err(Failure::game(Diagnostic::new(format!(
            "solve {name} --db: the database does not hold this position: no game from the start reaches it (or its counts of pieces placed and in hand do not add up)"
        ))));
    };
    writeln!(
        out,
        "  value      {}",
        value_text(&m.rules, s.pos.to_move, value, whole_game)
    )?;
    let mut moves = Vec::new();
    if m.legal_moves(&s, &mut moves).is_none() && !moves.is_empty() {
        writeln!(
            out,
            "  moves from here ({} to move):",
            game::player_name(&m.rules, s.pos.to_move)
        )?;
        let width = moves
            .iter()
            .map(|mv| line_text(&m.rules, &[*mv]).len())
            .max()
            .unwrap_or(0);
        for &mv in &moves {
            let text = match table.after(&m, &mut s, mv) {
                Some(v) => move_value_text(v),
                None => "not in the database".to_string(),
            };
            writeln!(out, "    {:width$}  {text}", line_text(&m.rules, &[mv]))?;
        }
    }
    history_note(&mut out, &left_out)?;
    Ok(())
}

/// `solve --db DIR --placing search`: the moving-phase sectors the placing
/// phase reaches (those not in DIR yet), then the start and every first
/// move by the proof search over them.
fn run_search(m: &Machine<1>, dir: &Path, left_out: &[&str]) -> Outcome {
    let name = &m.rules.name;
    let failed = |e: morrigo_sector::SectorError| {
        Failure::game(Diagnostic::new(format!(
            "solve {name} --db {} --placing search: {e}",
            dir.display()
        )))
    };
    let started = Instant::now();
    // Progress on stderr: on Nine Men's Morris both steps take hours.
    let log = morrigo_sector::opening::solve_moving_phase(m, dir, |s| {
        if !s.loaded {
            eprintln!(
                "solve: sector {} solved ({} positions, {:.1} s)",
                s.sector(),
                s.positions,
                s.millis as f64 / 1000.0
            );
        }
    })
    .map_err(failed)?;
    let solved = log.iter().filter(|s| !s.loaded).count();
    let sector_secs = started.elapsed().as_secs_f64();
    let started = Instant::now();
    // A quarter of the memory budget for the tables; the units read take
    // two bits a position.
    let table = morrigo_engine::memory::limit().0 / 4;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let result = morrigo_sector::opening::search_opening(m, dir, table, threads, |f| {
        if !f.loaded {
            eprintln!(
                "solve: first move {} {} ({} positions searched, {:.1} s)",
                f.points.join(" "),
                f.value.word(),
                f.stats.nodes,
                f.millis as f64 / 1000.0
            );
        }
    })
    .map_err(failed)?;
    let search_secs = started.elapsed().as_secs_f64();
    let nodes: u64 = result.first_moves.iter().map(|f| f.stats.nodes).sum();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "solve {name} --db {} --placing search ({} points, {} symmetries)",
        dir.display(),
        m.points(),
        morrigo_sector::symmetries(&m.rules).len()
    )?;
    writeln!(
        out,
        "  sectors    moving phase: {solved} solved now ({sector_secs:.2} s), every other one already in the directory"
    )?;
    let read_back = result.first_moves.iter().filter(|f| f.loaded).count();
    writeln!(
        out,
        "  placing    searched over them: {} classes of first moves ({read_back} read back), {nodes} positions searched ({search_secs:.2} s)",
        result.first_moves.len()
    )?;
    let first = game::player_name(&m.rules, 0);
    writeln!(
        out,
        "  value      {}; win, draw or loss: the search proves no distance",
        match result.start {
            Wdl::Win => format!("{first} wins (the first player wins)"),
            Wdl::Loss => format!(
                "{} wins (the second player wins)",
                game::player_name(&m.rules, 1)
            ),
            Wdl::Draw => "draw (neither side can force a win)".to_string(),
        }
    )?;
    writeln!(
        out,
        "  first moves ({first} to move; a class is one move up to the board's symmetries):"
    )?;
    let width = result
        .first_moves
        .iter()
        .map(|f| f.points.join(" ").len())
        .max()
        .unwrap_or(0);
    for f in &result.first_moves {
        let text = match f.value {
            Wdl::Win => "wins",
            Wdl::Loss => "loses",
            Wdl::Draw => "draws",
        };
        writeln!(out, "    {:width$}  {text}", f.points.join(" "))?;
    }
    history_note(&mut out, left_out)?;
    Ok(())
}

/// The history draw rules the solve leaves out, if any.
fn history_note(out: &mut impl Write, left_out: &[&str]) -> std::io::Result<()> {
    if !left_out.is_empty() {
        let names: Vec<String> = left_out.iter().map(|n| format!("`{n}`")).collect();
        writeln!(
            out,
            "  history    {} left out, as in the published Morris solutions: a game neither side can force to a win is a draw",
            names.join(" and ")
        )?;
    }
    Ok(())
}

/// A position from `white: a1 d1; black: b2; in hand: 2 3; to move: white`
/// (the fields in any order, `in hand` optional: none in hand). Usage
/// errors say what was expected.
pub(crate) fn parse_position(m: &Machine<1>, text: &str) -> Result<State<1>, Failure> {
    let rules: &Rules = &m.rules;
    let bad = |why: String| {
        Failure::usage(format!(
            "--at `{text}`: {why}; expected e.g. `{}: a1 d1; {}: b2; in hand: 2 3; to move: {}`",
            game::player_name(rules, 0),
            game::player_name(rules, 1),
            game::player_name(rules, 0)
        ))
    };
    let mut pieces = [None::<Vec<u16>>, None::<Vec<u16>>];
    let mut hand = None;
    let mut to_move = None;
    for field in text.split(';').map(str::trim).filter(|f| !f.is_empty()) {
        let Some((key, rest)) = field.split_once(':') else {
            return Err(bad(format!("`{field}` has no `:`")));
        };
        let key = key.trim();
        let rest = rest.trim();
        let player = (0..2u8).find(|&p| game::player_name(rules, p) == key);
        if let Some(p) = player {
            let mut set = Vec::new();
            for name in rest.split_whitespace() {
                let q = rules
                    .topology
                    .point(name)
                    .ok_or_else(|| bad(format!("`{name}` is not a point of {}", rules.name)))?;
                set.push(q);
            }
            if pieces[p as usize].replace(set).is_some() {
                return Err(bad(format!("`{key}` is given twice")));
            }
        } else if key == "in hand" {
            let n: Vec<u32> = rest
                .split_whitespace()
                .map(|x| {
                    x.parse()
                        .map_err(|_| bad(format!("`{x}` is not a count of pieces")))
                })
                .collect::<Result<_, _>>()?;
            let [a, b] = n[..] else {
                return Err(bad(
                    "`in hand` takes two counts, the first player's then the second's".into(),
                ));
            };
            hand = Some([a, b]);
        } else if key == "to move" {
            to_move = Some(
                (0..2u8)
                    .find(|&p| game::player_name(rules, p) == rest)
                    .ok_or_else(|| bad(format!("`{rest}` is not a player")))?,
            );
        } else {
            return Err(bad(format!("unknown field `{key}`")));
        }
    }
    let setup = morrigo_engine::Setup {
        pieces: pieces.map(Option::unwrap_or_default),
        in_hand: Some(hand.unwrap_or([0, 0])),
        to_move: Some(to_move.ok_or_else(|| bad("no `to move`".into()))?),
    };
    // The engine checks the board (a point named twice, too many pieces).
    m.set_up(&setup).map_err(|e| bad(e.to_string()))
}
