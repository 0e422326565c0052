//! `morrigo solve` on Go-style rulesets: the exact value by a full-history
//! game-tree search (morrigo-solve's `history` module), and the side-by-side
//! table of `compare --solve`.

use crate::fail::{Failure, Outcome};
use crate::game;
use morrigo_diag::{Diagnostic, Diagnostics};
use morrigo_engine::notation::format_move_in;
use morrigo_engine::{with_machine, Game, Machine, Move};
use morrigo_rules::Rules;
use morrigo_solve::go::{settled_boards_end_lines, solve_tt_with, KeySpec, TtOptions};
use morrigo_solve::history::{
    decided_by_rule, solve_history_with, winner_of, CapReport, HistorySolution, Limits, SolveError,
    SolveProgress, DEFAULT_MAX_PLIES,
};
use std::io::Write;

/// `morrigo solve` on a ruleset whose legal moves or wins read the history:
/// a full-history alpha-beta search (see `morrigo solve --help`).
pub fn run(
    played: &Game,
    position: Option<&str>,
    limits: &Limits,
    how: HistorySearch,
    progress: bool,
) -> Outcome {
    let text = with_machine!(played.machine().as_ref(), m => solve_text(played, m, position, limits, how, progress))?;
    write!(std::io::stdout().lock(), "{text}")?;
    Ok(())
}

fn solve_text<const W: usize>(
    played: &Game,
    m: &Machine<W>,
    position: Option<&str>,
    limits: &Limits,
    how: HistorySearch,
    progress: bool,
) -> Result<String, Failure> {
    let start = game::start(played, position)?;
    // A solve can run for hours: with `--progress` a log gets the nodes
    // searched so far, as the other long commands print their counts, and
    // a line per ply cap finished with the value or bounds it found, so a
    // run stopped early still tells them.
    let label = format!("solve {}", m.rules.name);
    let mut bar = crate::budget::Progress::counter(label, "nodes searched", progress);
    let (solved, plain_why) = solve(m, &start, limits, how, &mut |p| match p {
        SolveProgress::Nodes(nodes) => bar.set(nodes),
        SolveProgress::CapDone(cap) => bar.line(&cap_line(&m.rules, &cap)),
    });
    bar.finish();
    let solution = solved.map_err(|e| refusal(&m.rules, &e))?;
    Ok(report(
        m,
        &solution,
        position.is_some(),
        plain_why.as_deref(),
    ))
}

/// A ply cap's search finished, for the progress lines:
/// `cap 16: B+1..B+4, 131072 nodes, 0.4 s`; with `(3 first moves open)`
/// after an exact value when the cut lines leave first moves' values open
/// (the search goes on to the next cap).
fn cap_line(rules: &Rules, r: &CapReport) -> String {
    let value = match r.bounds {
        None => short_value(rules, r.value),
        Some((lo, hi)) => format!("{}..{}", short_value(rules, lo), short_value(rules, hi)),
    };
    let open = match (r.bounds, r.open_moves) {
        (None, n) if n > 0 => format!(" ({n} first move{} open)", if n == 1 { "" } else { "s" }),
        _ => String::new(),
    };
    format!(
        "cap {}: {value}{open}, {} nodes, {:.1} s",
        r.cap,
        r.nodes,
        r.elapsed.as_secs_f64()
    )
}

/// How `solve` searches a ruleset that reads the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistorySearch {
    /// The plain reference search (`--no-transpositions`).
    Plain,
    /// The transposition-table search where the rules give a key; every
    /// first move valued unless `--value-only`.
    Table {
        /// Value each first move, not only the best.
        every_first_move: bool,
    },
}

/// Solve from `start`: with the transposition table when the rules give a
/// key and `how` asks for it, else by the plain search (which values
/// every first move); with why the plain search was used, when it was not
/// asked for.
pub(crate) fn solve<const W: usize>(
    m: &Machine<W>,
    start: &game::Start,
    limits: &Limits,
    how: HistorySearch,
    progress: &mut dyn FnMut(SolveProgress),
) -> (Result<HistorySolution, SolveError>, Option<String>) {
    let state = start.state_at::<W>();
    let HistorySearch::Table { every_first_move } = how else {
        return (solve_history_with(m, state, limits, progress), None);
    };
    let options = TtOptions {
        every_first_move,
        ..TtOptions::default()
    };
    match (KeySpec::of(&m.rules), &start.moves) {
        (Ok(spec), Some(moves)) => (
            solve_tt_with(m, spec, moves, limits, options, progress),
            None,
        ),
        (Err(why), _) => (solve_history_with(m, state, limits, progress), Some(why)),
        (_, None) => (
            solve_history_with(m, state, limits, progress),
            Some("the position's record holds a ply that is not a move".to_string()),
        ),
    }
}

/// A spinner with the node count on stderr, only when stderr is a
/// terminal (it ticks on its own, so there is no silent second).
fn spinner() -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message("estimating the tree");
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    Some(bar)
}

/// The board as `a 3x1 board` (a grid) or `a board of 24 points`.
fn board_text(rules: &Rules) -> String {
    let t = &rules.topology;
    if t.width as usize * t.height as usize == t.len() {
        format!("a {}x{} board", t.width, t.height)
    } else {
        format!("a board of {} points", t.len())
    }
}

fn komi_text(rules: &Rules) -> String {
    rules
        .scoring
        .as_ref()
        .map_or("no scoring".to_string(), |s| format!("komi {}", s.komi))
}

/// The refusal or budget stop as a located-free game error (exit 1).
fn refusal(rules: &Rules, e: &SolveError) -> Failure {
    let board = board_text(rules);
    let d = match e {
        SolveError::TooBig(est) => Diagnostic::new(format!(
            "{} on {board} is too large to solve by full-history search: \
             about {} nodes in the game tree (estimated from {} random games, the \
             longest {} plies), so at least about {} for alpha-beta, over the node \
             budget of {}",
            rules.name,
            count(est.full_tree),
            morrigo_solve::history::ESTIMATE_PROBES,
            est.longest,
            count(est.search),
            est.max_nodes,
        ))
        .expected(
            "a smaller board (most Go-style rulesets take under a second on 2x1, 3x1, 2x2) \
             or a larger --max-nodes"
                .to_string(),
        ),
        SolveError::Budget { max_nodes, .. } => Diagnostic::new(format!(
            "{} on {board}: the search reached the node budget of {max_nodes} \
             nodes without finishing",
            rules.name
        ))
        .expected("a larger --max-nodes or a smaller board".to_string()),
        SolveError::Memory(e) => Diagnostic::new(format!("{} on {board}: {e}", rules.name))
            .expected("`--max-memory SIZE` to allow more".to_string()),
    };
    Failure::Game(Diagnostics(vec![d]))
}

/// A node count for a message: exact below a million, else `2.3e11`.
fn count(n: f64) -> String {
    if !n.is_finite() {
        "more than 1e308".to_string()
    } else if n < 1e6 {
        format!("{}", n.round() as u64)
    } else {
        format!("{n:.1e}")
    }
}

/// "black wins by 2", "white wins by a rule", "draw".
pub fn value_text(rules: &Rules, value: f64) -> String {
    match winner_of(value) {
        None => "draw".to_string(),
        Some(p) => {
            let name = game::player_name(rules, p);
            if decided_by_rule(value) {
                format!("{name} wins by a rule")
            } else {
                format!("{name} wins by {}", value.abs())
            }
        }
    }
}

/// A bound of the value: a ±WIN bound comes from the cut lines themselves.
fn bound_text(rules: &Rules, value: f64) -> String {
    match winner_of(value) {
        Some(p) if decided_by_rule(value) => format!("{} wins", game::player_name(rules, p)),
        _ => value_text(rules, value),
    }
}

fn moves_text(rules: &Rules, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|mv| format_move_in(rules, mv))
        .collect::<Vec<_>>()
        .join(" ")
}

fn report<const W: usize>(
    m: &Machine<W>,
    r: &HistorySolution,
    from_position: bool,
    plain_why: Option<&str>,
) -> String {
    let rules = &m.rules;
    let mut out = heading(rules, r, from_position, plain_why);
    out += &value_line(rules, r);
    out += &score_line(rules, r);
    out += &perfect_play_line(rules, r);
    out += &move_lines(rules, r);
    out += &format!("nodes searched: {}\n", r.nodes);
    out += &table_lines(rules, r);
    out += &cut_lines_text(rules, r);
    if let Some(deeper) = r.stopped_at {
        out += &format!(
            "the search cut at {deeper} plies reached the node budget (--max-nodes) before finishing\n"
        );
    }
    if r.stuck > 0 {
        out += &format!(
            "positions with no legal move and no verdict: {} (counted as draws)\n",
            r.stuck
        );
    }
    out += &time_line(r);
    out
}

/// The game, board and komi, and how it was searched.
fn heading(
    rules: &Rules,
    r: &HistorySolution,
    from_position: bool,
    plain_why: Option<&str>,
) -> String {
    let mut out = format!(
        "{} on {}, {}{}\n",
        rules.name,
        board_text(rules),
        komi_text(rules),
        if from_position {
            ", from the given position"
        } else {
            ""
        }
    );
    out += "search: full history (every rule applied as in play), alpha-beta, ";
    out += &match (r.tt, plain_why) {
        (Some(_), _) => "transposition table keyed by what the rules read\n".to_string(),
        (None, Some(why)) => format!("no transpositions ({why})\n"),
        (None, None) => "no transpositions\n".to_string(),
    };
    out
}

fn value_line(rules: &Rules, r: &HistorySolution) -> String {
    let mut value = value_text(rules, r.value);
    if !r.exact() {
        // The value is that of one convention; the bounds follow below.
        value += " if cut lines count as draws";
    } else if let Some(o) = r.end {
        // How the perfect-play line ends: by a count or by another rule.
        let counted = r.final_score.is_some();
        value = match (counted, winner_of(r.value)) {
            (true, _) => format!("{value} (counted by end rule `{}`)", o.rule_name(rules)),
            (false, None) => format!("draw by end rule `{}`", o.rule_name(rules)),
            (false, Some(p)) => format!(
                "{} wins by end rule `{}`",
                game::player_name(rules, p),
                o.rule_name(rules)
            ),
        };
    }
    format!("value: {value}\n")
}

fn score_line(rules: &Rules, r: &HistorySolution) -> String {
    match (r.final_score, r.end) {
        (Some(sc), _) => format!(
            "score with perfect play: {} {}, {} {}\n",
            game::player_name(rules, 0),
            sc[0],
            game::player_name(rules, 1),
            sc[1]
        ),
        (None, Some(_)) => "score with perfect play: not counted (decided by a rule)\n".to_string(),
        (None, None) if r.line.len() < r.max_plies as usize => {
            "score with perfect play: none (no end rule decides)\n".to_string()
        }
        (None, None) => "score with perfect play: none (the line is cut)\n".to_string(),
    }
}

fn perfect_play_line(rules: &Rules, r: &HistorySolution) -> String {
    let line = if r.line.is_empty() {
        "(no move from here)".to_string()
    } else {
        moves_text(rules, &r.line)
    };
    let ends = match r.end {
        Some(o) => format!("ends by `{}`", o.rule_name(rules)),
        None if r.line.len() < r.max_plies as usize => {
            "no legal move and no end rule decides".to_string()
        }
        None => format!("cut at {} plies", r.line.len()),
    };
    format!("perfect play: {line}  ({ends})\n")
}

/// The value of each first move, the texts aligned; empty without moves.
fn move_lines(rules: &Rules, r: &HistorySolution) -> String {
    if r.moves.is_empty() {
        return String::new();
    }
    if let (Some(n), [(best, v)]) = (r.refuted, r.moves.as_slice()) {
        // --value-only: the best move's value is the game's.
        return format!(
            "moves:\n  {}  {} (the best)\n  the other {n} first moves were proved no better, without values of their own (--value-only)\n",
            format_move_in(rules, best),
            value_text(rules, *v)
        );
    }
    let mut out = "moves:\n".to_string();
    let width = r
        .moves
        .iter()
        .map(|(mv, _)| format_move_in(rules, mv).len())
        .max()
        .unwrap_or(0);
    for ((mv, v), b) in r.moves.iter().zip(&r.move_bounds) {
        let unsure = b.map_or(String::new(), |(lo, hi)| {
            format!(
                " if cut lines count as draws ({} to {})",
                bound_text(rules, lo),
                bound_text(rules, hi)
            )
        });
        out += &format!(
            "  {:width$}  {}{unsure}\n",
            format_move_in(rules, mv),
            value_text(rules, *v)
        );
    }
    out
}

/// The transposition table's counts; empty for the plain search.
fn table_lines(rules: &Rules, r: &HistorySolution) -> String {
    let Some(tt) = r.tt else {
        return String::new();
    };
    let mut out = format!(
        "table: {} probes, {} hits ({:.1}%), {} stored ({} path-dependent, kept with the boards they read), {} not stored (path-dependent), {} MiB\n",
        tt.probes,
        tt.hits,
        100.0 * tt.hits as f64 / tt.probes.max(1) as f64,
        tt.stores,
        tt.stored_with_answers,
        tt.tainted,
        tt.bytes.div_ceil(1 << 20)
    );
    if settled_boards_end_lines(rules).is_ok() {
        out += &format!(
            "lines ended by Benson's life test with answers (a settled board's count, or a bound from the points held for good): {}\n",
            tt.settled
        );
    }
    out
}

/// The lines cut at the ply cap and whether they change the value; empty
/// when none was cut.
fn cut_lines_text(rules: &Rules, r: &HistorySolution) -> String {
    if r.cut_lines == 0 {
        return String::new();
    }
    let mut out = format!(
        "lines cut at {} plies: {} (counted as draws)",
        r.max_plies, r.cut_lines
    );
    // The table search bounds a cut line by the points each player
    // already holds for good where settled boards end lines, not by a
    // loss or a win.
    let held = r.tt.is_some() && settled_boards_end_lines(rules).is_ok();
    let (first, second) = (game::player_name(rules, 0), game::player_name(rules, 1));
    let counted = if held {
        format!("counted by the points {first} or {second} already holds for good there")
    } else {
        "lost or won".to_string()
    };
    out += &match r.bounds {
        None if r.all_exact() => {
            format!("; no value changes if they are {counted}, so all are exact\n")
        }
        None => format!("; the game's value is the same if they are {counted}, so it is exact\n"),
        Some((lo, hi)) if held => format!(
            "; the value depends on them: at least {}, at most {} if they are {counted}\n",
            bound_text(rules, lo),
            bound_text(rules, hi),
        ),
        Some((lo, hi)) => format!(
            "; the value depends on them: {} if {first} loses them, {} if {first} wins them\n",
            bound_text(rules, lo),
            bound_text(rules, hi),
        ),
    };
    out
}

fn time_line(r: &HistorySolution) -> String {
    let secs = r.elapsed.as_secs_f64();
    // The rate varies from run to run: it goes on the time line.
    let rate = if secs > 0.0 {
        format!(" ({:.0} nodes/s)", r.nodes as f64 / secs)
    } else {
        String::new()
    };
    format!("time: {secs:.2} s{rate}\n")
}

/// A value in a table cell: `B+3`, `W+2`, `draw`, `W by rule`.
pub(crate) fn short_value(rules: &Rules, value: f64) -> String {
    let letters = game::piece_letters(rules);
    match winner_of(value) {
        None => "draw".to_string(),
        Some(p) if decided_by_rule(value) => format!("{} by rule", letters[p as usize]),
        Some(p) => format!("{}+{}", letters[p as usize], value.abs()),
    }
}

/// Solve each ruleset on each board size and put the values side by side:
/// one table per board, one row per ruleset, with the value of the game and
/// of every first move (a column per move text; `-` where the ruleset has
/// no such move), so a rule change that changes any of them shows.
pub fn compare_table(
    specs: &[String],
    sizes: &[(u32, u32)],
    komi: Option<f64>,
    position: Option<&str>,
    limits: &Limits,
) -> Result<String, Failure> {
    let mut out = String::new();
    for &size in sizes {
        let opts = game::RulesetOptions {
            size: Some(size),
            komi,
        };
        // Per ruleset: name, komi, value, first moves (text, value), nodes.
        type Row = (String, String, String, Vec<(String, String)>, String);
        let mut rows: Vec<Row> = Vec::new();
        for spec in specs {
            let played = game::game(spec, &opts)?;
            let row = with_machine!(played.machine().as_ref(), m => {
                let start = game::start(&played, position)?;
                let bar = spinner();
                if let Some(b) = &bar {
                    b.set_message(format!("solving {} on {}x{}", m.rules.name, size.0, size.1));
                }
                let rules = &m.rules;
                let (solved, _) = solve(m, &start, limits, HistorySearch::Table { every_first_move: true }, &mut |_| {});
                let (value, moves, nodes) = match solved {
                    Ok(r) => {
                        let exact = if r.exact() { "" } else { " if cut lines count as draws" };
                        let moves = r
                            .moves
                            .iter()
                            .zip(&r.move_bounds)
                            .map(|((mv, v), b)| {
                                // `?`: the value depends on the cut lines.
                                let unsure = if b.is_some() { "?" } else { "" };
                                (format_move_in(rules, mv), format!("{}{unsure}", short_value(rules, *v)))
                            })
                            .collect();
                        (format!("{}{exact}", short_value(rules, r.value)), moves, r.nodes.to_string())
                    }
                    Err(SolveError::TooBig(_)) => {
                        ("too large to solve".to_string(), Vec::new(), "-".to_string())
                    }
                    Err(SolveError::Memory(_)) => {
                        ("out of memory".to_string(), Vec::new(), "-".to_string())
                    }
                    Err(SolveError::Budget { max_nodes, .. }) => {
                        ("node budget reached".to_string(), Vec::new(), format!("> {max_nodes}"))
                    }
                };
                if let Some(b) = bar {
                    b.finish_and_clear();
                }
                (rules.name.clone(), komi_text(rules), value, moves, nodes)
            });
            rows.push(row);
        }
        let mut columns: Vec<String> = Vec::new();
        for (_, _, _, moves, _) in &rows {
            for (text, _) in moves {
                if !columns.contains(text) {
                    columns.push(text.clone());
                }
            }
        }
        let mut header = vec![
            "ruleset".to_string(),
            "komi".to_string(),
            "value".to_string(),
        ];
        header.extend(columns.iter().cloned());
        header.push("nodes".to_string());
        let mut table = vec![header];
        for (name, k, value, moves, nodes) in rows {
            let mut row = vec![name, k, value];
            for c in &columns {
                let cell = moves.iter().find(|(t, _)| t == c).map(|(_, v)| v.clone());
                row.push(cell.unwrap_or_else(|| "-".to_string()));
            }
            row.push(nodes);
            table.push(row);
        }
        let from = position.map_or(String::new(), |p| format!(", after `{p}`"));
        if !out.is_empty() {
            out.push('\n');
        }
        out += &format!(
            "{}x{} board{from}: value and value of each move (B+n: black wins by n; \
             ?: if cut lines count as draws)\n\n",
            size.0, size.1
        );
        out += &markdown(&table);
    }
    Ok(out)
}

/// An aligned Markdown table (the first row is the header).
pub(crate) fn markdown(rows: &[Vec<String>]) -> String {
    let cols = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..cols)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let line = |r: &Vec<String>| {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:w$}"))
            .collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut out = line(&rows[0]);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    out += &format!("|-{}-|\n", rule.join("-|-"));
    for r in &rows[1..] {
        out += &line(r);
    }
    out
}

/// The board sizes `compare --solve` uses when no --size is given.
pub const COMPARE_SIZES: [(u32, u32); 3] = [(2, 1), (3, 1), (2, 2)];

/// `compare --solve`: the solved values of the rulesets, side by side.
pub fn run_compare(
    specs: &[String],
    opts: &game::RulesetOptions,
    position: Option<&str>,
    max_nodes: u64,
) -> Outcome {
    let sizes: Vec<(u32, u32)> = match opts.size {
        Some(s) => vec![s],
        None => COMPARE_SIZES.to_vec(),
    };
    let limits = Limits {
        max_nodes,
        max_plies: DEFAULT_MAX_PLIES,
        ..Limits::default()
    };
    let text = compare_table(specs, &sizes, opts.komi, position, &limits)?;
    let mut out = std::io::stdout().lock();
    write!(out, "{text}")?;
    Ok(())
}
