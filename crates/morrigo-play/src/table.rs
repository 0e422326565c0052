//! Side-by-side comparison of simulation reports.

use crate::sim::SimReport;
use std::fmt;
use std::str::FromStr;

/// Output format of [`compare_table`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// Two aligned Markdown tables (results, then how games ended); reads
    /// well raw in a terminal and renders on any Markdown viewer.
    #[default]
    Markdown,
    /// One row per ruleset with a header row; end-rule counts as columns.
    Csv,
    /// A JSON array of the reports.
    Json,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::Markdown, Format::Csv, Format::Json];

    pub fn name(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
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
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            other => Err(format!(
                "unknown format `{other}`: expected `markdown`, `csv` or `json`"
            )),
        }
    }
}

/// Compare rulesets side by side, one row per report.
pub fn compare_table(reports: &[SimReport], format: Format) -> String {
    match format {
        Format::Markdown => markdown(reports),
        Format::Csv => csv(reports),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(reports).unwrap_or_else(|_| "[]".into());
            s.push('\n');
            s
        }
    }
}

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

fn count_of(r: &SimReport, rule: &str) -> Option<u32> {
    r.end_rules.iter().find(|(n, _)| n == rule).map(|(_, c)| *c)
}

/// Some report has a stuck game: only then do tables show a stuck column.
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

fn count_pct(r: &SimReport, n: u32) -> String {
    format!("{n} ({:.1}%)", r.pct(n))
}

fn markdown(reports: &[SimReport]) -> String {
    let [first, second] = seat_names(reports);
    let mut out = String::new();
    let header: Vec<String> = [
        "ruleset".to_string(),
        "games".into(),
        format!("{first} wins"),
        format!("{second} wins"),
        "draws".into(),
        "unfinished".into(),
        "mean plies".into(),
        "mean turns".into(),
    ]
    .into();
    let rows: Vec<Vec<String>> = reports
        .iter()
        .map(|r| {
            vec![
                r.title.clone(),
                r.games.to_string(),
                count_pct(r, r.wins[0]),
                count_pct(r, r.wins[1]),
                count_pct(r, r.draws),
                r.unfinished.to_string(),
                format!("{:.1}", r.mean_plies),
                format!("{:.1}", r.mean_turns),
            ]
        })
        .collect();
    push_md_table(&mut out, &header, &rows);

    let rules = end_rule_names(reports);
    if !rules.is_empty() {
        out.push_str(
            "\nHow the games ended (the end rule that decided; — : not in this ruleset):\n\n",
        );
        let mut header = vec!["ruleset".to_string()];
        header.extend(rules.iter().map(|n| n.to_string()));
        header.push("cut off".into());
        let stuck = any_stuck(reports);
        if stuck {
            header.push("stuck".into());
        }
        let rows: Vec<Vec<String>> = reports
            .iter()
            .map(|r| {
                let mut row = vec![r.title.clone()];
                row.extend(rules.iter().map(|n| match count_of(r, n) {
                    Some(c) => count_pct(r, c),
                    None => "—".into(),
                }));
                row.push(count_pct(r, r.cut_off()));
                if stuck {
                    row.push(count_pct(r, r.stuck));
                }
                row
            })
            .collect();
        push_md_table(&mut out, &header, &rows);
    }

    if any_counting(reports) {
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
        let rows: Vec<Vec<String>> = reports
            .iter()
            .map(|r| {
                let [a, b] = match r.mean_score {
                    Some(m) => m.map(|v| format!("{v:.1}")),
                    None => ["—".into(), "—".into()],
                };
                vec![
                    r.title.clone(),
                    count_pct(r, r.counted),
                    a,
                    b,
                    r.captured[0].to_string(),
                    r.captured[1].to_string(),
                ]
            })
            .collect();
        push_md_table(&mut out, &header, &rows);
    }

    let agents = reports.first().map(|r| r.agents);
    if let Some(a) = agents.filter(|a| reports.iter().all(|r| r.agents == *a)) {
        out.push_str(&format!("\nAgents: {first} {}, {second} {}.\n", a[0], a[1]));
    }
    out
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// An aligned Markdown table: first column left, the rest right-aligned.
fn push_md_table(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    let header: Vec<String> = header.iter().map(|h| md_cell(h)).collect();
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| md_cell(c)).collect())
        .collect();
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].chars().count(), 3])
            .max()
            .unwrap_or(3)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let line = |cells: &[String]| {
        let mut s = String::from("|");
        for (i, c) in cells.iter().enumerate() {
            let pad = widths[i] - c.chars().count();
            if i == 0 {
                s.push_str(&format!(" {c}{} |", " ".repeat(pad)));
            } else {
                s.push_str(&format!(" {}{c} |", " ".repeat(pad)));
            }
        }
        s.push('\n');
        s
    };
    out.push_str(&line(&header));
    out.push('|');
    for (i, w) in widths.iter().enumerate() {
        if i == 0 {
            out.push_str(&format!(":{}|", "-".repeat(w + 1)));
        } else {
            out.push_str(&format!("{}:|", "-".repeat(w + 1)));
        }
    }
    out.push('\n');
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
    let [first, second] = seat_names(reports).map(|n| csv_name(&n));
    let rules = end_rule_names(reports);
    let mut header: Vec<String> = vec![
        "ruleset".into(),
        "title".into(),
        "games".into(),
        format!("{first}_wins"),
        format!("{first}_wins_pct"),
        format!("{second}_wins"),
        format!("{second}_wins_pct"),
        "draws".into(),
        "draws_pct".into(),
        "unfinished".into(),
    ];
    let stuck = any_stuck(reports);
    if stuck {
        header.push("stuck".into());
    }
    header.extend(["mean_plies".into(), "mean_turns".into()]);
    let counting = any_counting(reports);
    if counting {
        header.extend([
            "counted".into(),
            format!("{first}_mean_score"),
            format!("{second}_mean_score"),
            format!("{first}_captured"),
            format!("{second}_captured"),
        ]);
    }
    header.extend(rules.iter().map(|n| n.to_string()));
    let mut out = String::new();
    let push_row = |out: &mut String, cells: Vec<String>| {
        let cells: Vec<String> = cells.iter().map(|c| csv_field(c)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    };
    push_row(&mut out, header);
    for r in reports {
        let mut row = vec![
            r.ruleset.clone(),
            r.title.clone(),
            r.games.to_string(),
            r.wins[0].to_string(),
            format!("{:.2}", r.pct(r.wins[0])),
            r.wins[1].to_string(),
            format!("{:.2}", r.pct(r.wins[1])),
            r.draws.to_string(),
            format!("{:.2}", r.pct(r.draws)),
            r.unfinished.to_string(),
        ];
        if stuck {
            row.push(r.stuck.to_string());
        }
        row.extend([
            format!("{:.2}", r.mean_plies),
            format!("{:.2}", r.mean_turns),
        ]);
        if counting {
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
        // Empty cell: the ruleset has no such end rule.
        row.extend(
            rules
                .iter()
                .map(|n| count_of(r, n).map(|c| c.to_string()).unwrap_or_default()),
        );
        push_row(&mut out, row);
    }
    out
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
