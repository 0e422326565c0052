//! Side-by-side comparison of simulation reports.

use crate::sim::SimReport;
use std::fmt;
use std::str::FromStr;

/// Output format of [`compare_table`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// Aligned Markdown tables (results, how games ended, rule events);
    /// reads well raw in a terminal and renders on any Markdown viewer.
    #[default]
    Markdown,
    /// The same tables as plain aligned columns, for a terminal.
    Table,
    /// One row per ruleset and pairing with a header row; end-rule outcomes
    /// and rule events as columns.
    Csv,
    /// A JSON array of the reports.
    Json,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [Format::Markdown, Format::Table, Format::Csv, Format::Json];

    /// The format's name, as it is parsed and displayed.
    pub fn name(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Table => "table",
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "markdown" | "md" => Ok(Format::Markdown),
            "table" => Ok(Format::Table),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            other => Err(format!(
                "unknown format `{other}`: expected `markdown`, `table`, `csv` or `json`"
            )),
        }
    }
}

/// Compare rulesets (and agent pairings) side by side, one row per report.
pub fn compare_table(reports: &[SimReport], format: Format) -> String {
    compare_table_by(reports, format, None)
}

/// [`compare_table`] for games the built-in agents did not play (`morrigo
/// match`): `players` replaces the line naming the agents and the seed.
pub fn compare_table_by(reports: &[SimReport], format: Format, players: Option<&str>) -> String {
    match format {
        Format::Markdown => text(reports, Style::Markdown, players),
        Format::Table => text(reports, Style::Plain, players),
        Format::Csv => csv(reports),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(reports).unwrap_or_else(|_| "[]".into());
            s.push('\n');
            s
        }
    }
}

/// What the columns mean, printed under the text tables.
pub const LEGEND: &str = "\
Distinct games: games that differ from every other in their moves. Wins:
share of all games, with the 95% confidence interval (Wilson score
interval) in brackets. Length: plies (a removal is a ply of its own), mean and
quartiles by nearest rank (Q1 / median / Q3). Time: mean time of one game on
its thread. Rule events: moves of each kind, D runs, repetitions, and for each
forbid rule the turns at which it refused a kind of move the phase has.
";

/// Names for the two seats: the players' own names when every report agrees
/// on them, else "first player" / "second player".
fn seat_names(reports: &[SimReport]) -> [String; 2] {
    match reports.first() {
        Some(r0) if reports.iter().all(|r| r.players == r0.players) => r0.players.clone(),
        _ => ["first player".into(), "second player".into()],
    }
}

/// Every end-rule name of any report, in order of first appearance.
fn end_rule_names(reports: &[SimReport]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for r in reports {
        for (n, _) in &r.end_rules {
            if !names.contains(&n.as_str()) {
                names.push(n);
            }
        }
    }
    names
}

/// Every rule event of any report, in order of first appearance.
fn event_names(reports: &[SimReport]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for r in reports {
        for e in &r.events {
            if !names.contains(&e.event.as_str()) {
                names.push(&e.event);
            }
        }
    }
    names
}

/// Some ruleset can end a game with no result: only then do tables show
/// a column of them.
fn any_no_result(reports: &[SimReport]) -> bool {
    reports.iter().any(|r| r.no_results.is_some())
}

/// Some report has a stuck game: only then do tables show stuck games.
fn any_stuck(reports: &[SimReport]) -> bool {
    reports.iter().any(|r| r.stuck > 0)
}

/// Some report counted a game or saw captures (Go-style rulesets): only then
/// do tables show scores and prisoners.
fn any_counting(reports: &[SimReport]) -> bool {
    reports
        .iter()
        .any(|r| r.counted > 0 || r.captured != [0, 0])
}

/// The reports do not all seat the same agents: rows then name them.
fn mixed_agents(reports: &[SimReport]) -> bool {
    reports
        .first()
        .is_some_and(|r0| reports.iter().any(|r| r.agents != r0.agents))
}

/// The label of a row: the ruleset's title, and its pairing when the
/// reports seat different agents.
fn label(r: &SimReport, mixed: bool) -> String {
    if mixed {
        format!("{} ({} vs {})", r.title, r.agents[0], r.agents[1])
    } else {
        r.title.clone()
    }
}

/// Distinct games, or "—" when the games' moves are unknown; "≥ N" at the
/// counting cap.
fn distinct(r: &SimReport) -> String {
    match r.distinct_games {
        None => "—".into(),
        Some(n) if n as usize >= crate::sim::MAX_DISTINCT_COUNTED => format!("≥ {n}"),
        Some(n) => n.to_string(),
    }
}

fn count_pct(r: &SimReport, n: u32) -> String {
    format!("{n} ({:.1}%)", r.pct(n))
}

fn share_ci(r: &SimReport, seat: usize) -> String {
    let [lo, hi] = r.wins_ci95[seat];
    format!("{:.1}% [{lo:.1}, {hi:.1}]", r.pct(r.wins[seat]))
}

fn per_game(r: &SimReport, n: u64) -> String {
    if r.games == 0 {
        "0".into()
    } else {
        format!("{:.2}", n as f64 / f64::from(r.games))
    }
}

fn time_per_game(secs: f64) -> String {
    if secs >= 1.0 {
        format!("{secs:.2} s")
    } else if secs >= 1e-3 {
        format!("{:.1} ms", secs * 1e3)
    } else {
        format!("{:.0} µs", secs * 1e6)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Markdown,
    Plain,
}

/// Which optional columns and sections the reports call for, asked once
/// for both the text tables and CSV.
struct Columns<'a> {
    /// The reports seat different agents: rows name them.
    mixed: bool,
    no_result: bool,
    stuck: bool,
    counting: bool,
    rules: Vec<&'a str>,
    events: Vec<&'a str>,
}

impl<'a> Columns<'a> {
    fn of(reports: &'a [SimReport]) -> Self {
        Columns {
            mixed: mixed_agents(reports),
            no_result: any_no_result(reports),
            stuck: any_stuck(reports),
            counting: any_counting(reports),
            rules: end_rule_names(reports),
            events: event_names(reports),
        }
    }
}

/// How often rule event `e` happened over all of a report's games, or
/// `None` when the ruleset has no such event.
fn event_count(r: &SimReport, e: &str) -> Option<u64> {
    r.events.iter().find(|x| x.event == e).map(|x| x.count)
}

/// The text tables of [`compare_table`], one section a method.
struct Text<'a> {
    reports: &'a [SimReport],
    style: Style,
    /// The seats' names, as column headers say them.
    seats: [String; 2],
    cols: Columns<'a>,
}

fn text(reports: &[SimReport], style: Style, players: Option<&str>) -> String {
    let t = Text {
        reports,
        style,
        seats: seat_names(reports),
        cols: Columns::of(reports),
    };
    let mut out = String::new();
    t.push_results(&mut out);
    if !t.cols.rules.is_empty() {
        t.push_endings(&mut out);
    }
    if !t.cols.events.is_empty() {
        t.push_events(&mut out);
    }
    if t.cols.counting {
        t.push_counts(&mut out);
    }
    t.push_footer(&mut out, players);
    out
}

impl Text<'_> {
    /// The main table: games, wins, draws and lengths per report.
    fn push_results(&self, out: &mut String) {
        let [first, second] = &self.seats;
        let mixed = self.cols.mixed;
        let no_result = self.cols.no_result;
        let mut header: Vec<String> = vec!["ruleset".into()];
        if mixed {
            header.push("agents".into());
        }
        header.extend([
            "games".into(),
            "distinct games".into(),
            format!("{first} wins"),
            format!("{second} wins"),
            "draws".into(),
        ]);
        if no_result {
            header.push("no result".into());
        }
        header.extend([
            "unfinished".into(),
            "mean plies".into(),
            "Q1 / median / Q3".into(),
            "time/game".into(),
        ]);
        let rows: Vec<Vec<String>> = self
            .reports
            .iter()
            .map(|r| {
                let mut row = vec![r.title.clone()];
                if mixed {
                    row.push(format!("{} vs {}", r.agents[0], r.agents[1]));
                }
                row.extend([
                    r.games.to_string(),
                    distinct(r),
                    share_ci(r, 0),
                    share_ci(r, 1),
                    count_pct(r, r.draws),
                ]);
                if no_result {
                    row.push(count_pct(r, r.no_results.unwrap_or(0)));
                }
                row.extend([
                    r.unfinished.to_string(),
                    format!("{:.1}", r.length.mean),
                    format!("{} / {} / {}", r.length.q1, r.length.median, r.length.q3),
                    time_per_game(r.secs_per_game),
                ]);
                row
            })
            .collect();
        push_table(out, self.style, 1 + usize::from(mixed), &header, &rows);
    }

    /// How the games ended: per end rule that decided a game, then the
    /// unfinished ones.
    fn push_endings(&self, out: &mut String) {
        let [first, second] = &self.seats;
        out.push_str(
            "\nHow the games ended: the end rule that decided, and for whom \
             (a win of one seat is a loss of the other; rules that decided no \
             game are left out):\n\n",
        );
        let header: Vec<String> = vec![
            "ruleset".into(),
            "end rule".into(),
            "games".into(),
            format!("{first} wins"),
            format!("{second} wins"),
            "draws".into(),
        ];
        let mut rows: Vec<Vec<String>> = Vec::new();
        for r in self.reports {
            let name = label(r, self.cols.mixed);
            for o in r.outcomes.iter().filter(|o| o.total() > 0) {
                rows.push(vec![
                    name.clone(),
                    o.rule.clone(),
                    count_pct(r, o.total()),
                    o.wins[0].to_string(),
                    o.wins[1].to_string(),
                    o.draws.to_string(),
                ]);
            }
            let mut unfinished = vec![("cut off", r.cut_off())];
            if self.cols.stuck {
                unfinished.push(("stuck", r.stuck));
            }
            for (what, n) in unfinished.into_iter().filter(|(_, n)| *n > 0) {
                rows.push(vec![
                    name.clone(),
                    format!("({what})"),
                    count_pct(r, n),
                    "—".into(),
                    "—".into(),
                    "—".into(),
                ]);
            }
        }
        push_table(out, self.style, 2, &header, &rows);
    }

    /// Rule events: totals, and per game in brackets.
    fn push_events(&self, out: &mut String) {
        let events = &self.cols.events;
        out.push_str(
            "\nRule events over all games, per game in brackets (— : not in this ruleset):\n\n",
        );
        let mut header: Vec<String> = vec!["ruleset".into()];
        header.extend(events.iter().map(|e| e.to_string()));
        let rows: Vec<Vec<String>> = self
            .reports
            .iter()
            .map(|r| {
                let mut row = vec![label(r, self.cols.mixed)];
                row.extend(events.iter().map(|e| match event_count(r, e) {
                    Some(n) => format!("{n} ({})", per_game(r, n)),
                    None => "—".into(),
                }));
                row
            })
            .collect();
        push_table(out, self.style, 1, &header, &rows);
    }

    /// Counted games' scores and the prisoners (Go-style rulesets).
    fn push_counts(&self, out: &mut String) {
        let [first, second] = &self.seats;
        out.push_str(
            "\nCounted games (ended by a score verdict; mean score, komi included) \
             and captured prisoners over all games:\n\n",
        );
        let header: Vec<String> = vec![
            "ruleset".into(),
            "counted".into(),
            format!("{first} mean score"),
            format!("{second} mean score"),
            format!("{first} captured"),
            format!("{second} captured"),
        ];
        let rows: Vec<Vec<String>> = self
            .reports
            .iter()
            .map(|r| {
                let [a, b] = match r.mean_score {
                    Some(m) => m.map(|v| format!("{v:.1}")),
                    None => ["—".into(), "—".into()],
                };
                vec![
                    label(r, self.cols.mixed),
                    count_pct(r, r.counted),
                    a,
                    b,
                    r.captured[0].to_string(),
                    r.captured[1].to_string(),
                ]
            })
            .collect();
        push_table(out, self.style, 1, &header, &rows);
    }

    /// Who played (`players`, or the agents and the seed), the move limit,
    /// and the legend.
    fn push_footer(&self, out: &mut String, players: Option<&str>) {
        let [first, second] = &self.seats;
        let reports = self.reports;
        out.push('\n');
        if let Some(p) = players {
            out.push_str(p);
            if let Some(r) = reports.first() {
                out.push_str(&format!("At most {} moves a game.\n", r.max_plies));
            }
        } else if let Some(a) = reports
            .first()
            .map(|r| r.agents)
            .filter(|_| !self.cols.mixed)
        {
            out.push_str(&format!("Agents: {first} {}, {second} {}.\n", a[0], a[1]));
        }
        if let Some(r) = reports.first().filter(|_| players.is_none()) {
            out.push_str(&format!(
                "Seed {}, at most {} plies a game.\n",
                r.seed, r.max_plies
            ));
        }
        out.push('\n');
        out.push_str(LEGEND);
    }
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// An aligned table: the first `left` columns left-aligned, the rest
/// right-aligned; Markdown pipes, or plain columns two spaces apart under a
/// dashed rule.
fn push_table(
    out: &mut String,
    style: Style,
    left: usize,
    header: &[String],
    rows: &[Vec<String>],
) {
    let fix = |c: &String| match style {
        Style::Markdown => md_cell(c),
        Style::Plain => c.clone(),
    };
    let header: Vec<String> = header.iter().map(fix).collect();
    let rows: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(fix).collect()).collect();
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].chars().count(), 3])
            .max()
            .unwrap_or(3)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let pad = " ".repeat(widths[i] - c.chars().count());
            let cell = if i < left {
                format!("{c}{pad}")
            } else {
                format!("{pad}{c}")
            };
            match style {
                Style::Markdown => {
                    s.push_str(if i == 0 { "| " } else { " " });
                    s.push_str(&cell);
                    s.push_str(" |");
                }
                Style::Plain => {
                    if i > 0 {
                        s.push_str("  ");
                    }
                    s.push_str(&cell);
                }
            }
        }
        s.push('\n');
        s
    };
    out.push_str(&line(&header));
    match style {
        Style::Markdown => {
            out.push('|');
            for (i, w) in widths.iter().enumerate() {
                if i < left {
                    out.push_str(&format!(":{}|", "-".repeat(w + 1)));
                } else {
                    out.push_str(&format!("{}:|", "-".repeat(w + 1)));
                }
            }
            out.push('\n');
        }
        Style::Plain => {
            let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    for r in &rows {
        out.push_str(&line(r));
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Header names for CSV: lower case, spaces as underscores.
fn csv_name(s: &str) -> String {
    s.trim().to_lowercase().replace(char::is_whitespace, "_")
}

fn csv(reports: &[SimReport]) -> String {
    let seats = seat_names(reports).map(|n| csv_name(&n));
    let cols = Columns::of(reports);
    let mut out = String::new();
    push_csv_row(&mut out, csv_header(&seats, &cols));
    for r in reports {
        push_csv_row(&mut out, csv_row(r, &cols));
    }
    out
}

fn push_csv_row(out: &mut String, cells: Vec<String>) {
    let cells: Vec<String> = cells.iter().map(|c| csv_field(c)).collect();
    out.push_str(&cells.join(","));
    out.push('\n');
}

/// The CSV header, in the order [`csv_row`] writes the cells.
fn csv_header(seats: &[String; 2], cols: &Columns) -> Vec<String> {
    let [first, second] = seats;
    let mut header: Vec<String> = vec![
        "ruleset".into(),
        "title".into(),
        format!("{first}_agent"),
        format!("{second}_agent"),
        "games".into(),
        "distinct_games".into(),
    ];
    for seat in [first, second] {
        header.extend([
            format!("{seat}_wins"),
            format!("{seat}_wins_pct"),
            format!("{seat}_wins_ci95_low"),
            format!("{seat}_wins_ci95_high"),
        ]);
    }
    header.extend(["draws".into(), "draws_pct".into()]);
    if cols.no_result {
        header.push("no_results".into());
    }
    header.push("unfinished".into());
    if cols.stuck {
        header.push("stuck".into());
    }
    header.extend(
        [
            "mean_plies",
            "min_plies",
            "q1_plies",
            "median_plies",
            "q3_plies",
            "max_plies",
            "mean_turns",
            "secs_per_game",
        ]
        .map(String::from),
    );
    if cols.counting {
        header.extend([
            "counted".into(),
            format!("{first}_mean_score"),
            format!("{second}_mean_score"),
            format!("{first}_captured"),
            format!("{second}_captured"),
        ]);
    }
    for n in &cols.rules {
        header.extend([
            format!("{n}:{first}_wins"),
            format!("{n}:{second}_wins"),
            format!("{n}:draws"),
        ]);
    }
    header.extend(cols.events.iter().map(|e| format!("event:{}", csv_name(e))));
    header
}

/// One report's CSV row, cell for cell under [`csv_header`].
fn csv_row(r: &SimReport, cols: &Columns) -> Vec<String> {
    let mut row = vec![
        r.ruleset.clone(),
        r.title.clone(),
        r.agents[0].to_string(),
        r.agents[1].to_string(),
        r.games.to_string(),
        r.distinct_games.map(|n| n.to_string()).unwrap_or_default(),
    ];
    for seat in 0..2 {
        row.extend([
            r.wins[seat].to_string(),
            format!("{:.2}", r.pct(r.wins[seat])),
            format!("{:.2}", r.wins_ci95[seat][0]),
            format!("{:.2}", r.wins_ci95[seat][1]),
        ]);
    }
    row.extend([r.draws.to_string(), format!("{:.2}", r.pct(r.draws))]);
    if cols.no_result {
        row.push(r.no_results.unwrap_or(0).to_string());
    }
    row.push(r.unfinished.to_string());
    if cols.stuck {
        row.push(r.stuck.to_string());
    }
    let l = &r.length;
    row.extend([
        format!("{:.2}", l.mean),
        l.min.to_string(),
        l.q1.to_string(),
        l.median.to_string(),
        l.q3.to_string(),
        l.max.to_string(),
        format!("{:.2}", r.mean_turns),
        format!("{:.6}", r.secs_per_game),
    ]);
    if cols.counting {
        let [a, b] = r
            .mean_score
            .map(|m| m.map(|v| format!("{v:.2}")))
            .unwrap_or_default();
        row.extend([
            r.counted.to_string(),
            a,
            b,
            r.captured[0].to_string(),
            r.captured[1].to_string(),
        ]);
    }
    // Empty cells: the ruleset has no such end rule (or event).
    for n in &cols.rules {
        match r.outcomes.iter().find(|o| o.rule == *n) {
            Some(o) => row.extend([
                o.wins[0].to_string(),
                o.wins[1].to_string(),
                o.draws.to_string(),
            ]),
            None => row.extend([String::new(), String::new(), String::new()]),
        }
    }
    row.extend(
        cols.events
            .iter()
            .map(|e| event_count(r, e).map(|n| n.to_string()).unwrap_or_default()),
    );
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_parses_names_and_md_alias() {
        for f in Format::ALL {
            assert_eq!(f.to_string().parse::<Format>(), Ok(f));
        }
        assert_eq!("MD".parse::<Format>(), Ok(Format::Markdown));
        assert!("html".parse::<Format>().is_err());
    }

    #[test]
    fn csv_fields_with_commas_are_quoted() {
        assert_eq!(
            csv_field("Nine Men's Morris, no flying"),
            "\"Nine Men's Morris, no flying\""
        );
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
