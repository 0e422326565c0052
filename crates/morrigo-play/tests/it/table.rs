//! Comparison tables of fixed reports.

use morrigo_play::{
    compare_table, wilson, AgentSpec, EndOutcome, Format, LengthStats, RuleEvent, SimReport,
};

fn report(
    ruleset: &str,
    title: &str,
    wins: [u32; 2],
    draws: u32,
    ends: &[(&str, u32)],
) -> SimReport {
    let games = 1000;
    let decided: u32 = ends.iter().map(|(_, c)| c).sum();
    SimReport {
        ruleset: ruleset.into(),
        title: title.into(),
        players: ["white".into(), "black".into()],
        agents: [AgentSpec::Random; 2],
        seed: 42,
        max_plies: 2000,
        games,
        wins,
        draws,
        no_results: None,
        unfinished: games - decided,
        stuck: 0,
        counted: 0,
        mean_score: None,
        captured: [0, 0],
        mean_plies: 123.456,
        mean_turns: 101.5,
        end_rules: ends.iter().map(|(n, c)| (n.to_string(), *c)).collect(),
        total_plies: 123_456,
        total_turns: 101_500,
        wins_ci95: wins.map(|w| {
            let (lo, hi) = wilson(w, games);
            [lo, hi].map(|x| (x * 1e6).round() / 1e4)
        }),
        // Even counts split evenly between the seats, odd ones are draws.
        outcomes: ends
            .iter()
            .map(|(n, c)| EndOutcome {
                rule: n.to_string(),
                wins: if c % 2 == 0 { [c / 2, c / 2] } else { [0, 0] },
                draws: if c % 2 == 0 { 0 } else { *c },
            })
            .collect(),
        length: LengthStats {
            mean: 123.456,
            min: 9,
            q1: 80,
            median: 120,
            q3: 161,
            max: 2000,
        },
        distinct_games: Some(997),
        events: vec![
            RuleEvent {
                event: "removals".into(),
                count: 12_345,
            },
            RuleEvent {
                event: "flying moves".into(),
                count: 2_500,
            },
        ],
        elapsed_secs: 0.0,
        secs_per_game: 0.00125,
    }
}

fn reports() -> Vec<SimReport> {
    vec![
        report(
            "nine-mens-morris",
            "Nine Men's Morris",
            [412, 398],
            188,
            &[
                ("too_few_pieces", 700),
                ("blocked", 110),
                ("repetition", 120),
                ("no_removal", 68),
            ],
        ),
        report(
            "nine-mens-morris-no-flying",
            "Nine Men's Morris, no flying",
            [450, 420],
            130,
            &[
                ("too_few_pieces", 640),
                ("blocked", 230),
                ("repetition", 90),
                ("no_removal", 40),
            ],
        ),
        report(
            "twelve-mens-morris",
            "Twelve Men's Morris",
            [300, 250],
            450,
            &[
                ("board_full", 400),
                ("too_few_pieces", 500),
                ("blocked", 50),
                ("repetition", 30),
                ("no_removal", 20),
            ],
        ),
    ]
}

#[test]
fn compare_table_markdown_snapshot() {
    insta::assert_snapshot!(compare_table(&reports(), Format::Markdown));
}

#[test]
fn compare_table_csv_snapshot() {
    insta::assert_snapshot!(compare_table(&reports(), Format::Csv));
}

#[test]
fn csv_header_names_players_and_every_end_rule() {
    let csv = compare_table(&reports(), Format::Csv);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "ruleset,title,white_agent,black_agent,games,distinct_games,\
             white_wins,white_wins_pct,white_wins_ci95_low,white_wins_ci95_high,\
             black_wins,black_wins_pct,black_wins_ci95_low,black_wins_ci95_high,\
             draws,draws_pct,unfinished,\
             mean_plies,min_plies,q1_plies,median_plies,q3_plies,max_plies,mean_turns,secs_per_game,\
             too_few_pieces:white_wins,too_few_pieces:black_wins,too_few_pieces:draws,\
             blocked:white_wins,blocked:black_wins,blocked:draws,\
             repetition:white_wins,repetition:black_wins,repetition:draws,\
             no_removal:white_wins,no_removal:black_wins,no_removal:draws,\
             board_full:white_wins,board_full:black_wins,board_full:draws,\
             event:removals,event:flying_moves"
        )
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 3);
    // 45.0% of 1000 games: Wilson interval 41.94 to 48.10.
    assert!(rows[1].starts_with(
        "nine-mens-morris-no-flying,\"Nine Men's Morris, no flying\",random,random,1000,997,450,45.00,41.94,48.10,"
    ), "{}", rows[1]);
    // Nine Men's Morris has no board_full rule: three empty cells.
    assert!(rows[0].ends_with(",34,34,0,,,,12345,2500"), "{}", rows[0]);
}

#[test]
fn headers_fall_back_to_seats_when_player_names_differ() {
    let mut rs = reports();
    rs[2].players = ["red".into(), "blue".into()];
    let md = compare_table(&rs, Format::Markdown);
    assert!(
        md.contains("first player wins") && md.contains("second player wins"),
        "{md}"
    );
    let csv = compare_table(&rs, Format::Csv);
    assert!(
        csv.starts_with(
            "ruleset,title,first_player_agent,second_player_agent,games,distinct_games,first_player_wins,"
        ),
        "{csv}"
    );
}

#[test]
fn json_is_an_array_of_the_reports() {
    let rs = reports();
    let json = compare_table(&rs, Format::Json);
    let back: Vec<SimReport> = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(back, rs);
}

/// Two Go-style reports: counted games, prisoners, and a stuck game.
fn go_reports() -> Vec<SimReport> {
    let mut chinese = report(
        "chinese",
        "Chinese rules (simple ko)",
        [480, 515],
        0,
        &[("two_passes", 995)],
    );
    chinese.counted = 995;
    chinese.mean_score = Some([38.25, 42.5]);
    chinese.captured = [10_234, 9_876];
    let mut jk = report(
        "jk-final",
        "JK Baduk rules (final)",
        [600, 390],
        5,
        &[
            ("suicide", 700),
            ("immediate_repetition", 20),
            ("repeated_board", 5),
            ("ending_sequence", 270),
        ],
    );
    jk.stuck = 2;
    jk.counted = 270;
    jk.mean_score = Some([20.0, 18.5]);
    jk.captured = [3_000, 2_900];
    let mut none = report(
        "jk-final",
        "JK Baduk rules (final), 1x1",
        [0, 0],
        0,
        &[("suicide", 0), ("ending_sequence", 0)],
    );
    none.players = chinese.players.clone();
    // Games whose moves are unknown (a referee's match): no count.
    none.distinct_games = None;
    vec![chinese, jk, none]
}

#[test]
fn go_compare_table_markdown_snapshot() {
    let md = compare_table(&go_reports(), Format::Markdown);
    assert!(md.contains("| (stuck) "), "{md}");
    insta::assert_snapshot!(md);
}

#[test]
fn go_compare_table_csv_snapshot() {
    let csv = compare_table(&go_reports(), Format::Csv);
    assert!(
        csv.starts_with(
            "ruleset,title,white_agent,black_agent,games,distinct_games,\
         white_wins,white_wins_pct,white_wins_ci95_low,white_wins_ci95_high,\
         black_wins,black_wins_pct,black_wins_ci95_low,black_wins_ci95_high,\
         draws,draws_pct,unfinished,stuck,\
         mean_plies,min_plies,q1_plies,median_plies,q3_plies,max_plies,mean_turns,secs_per_game,\
         counted,white_mean_score,black_mean_score,white_captured,black_captured,\
         two_passes:white_wins,"
        ),
        "{csv}"
    );
    // Unknown distinct games: an empty cell, not a zero.
    assert!(
        csv.contains(",\"JK Baduk rules (final), 1x1\",random,random,1000,,0,"),
        "{csv}"
    );
    insta::assert_snapshot!(csv);
}

#[test]
fn distinct_games_are_a_column_of_every_format_and_unknown_ones_a_dash() {
    let md = compare_table(&go_reports(), Format::Markdown);
    let header = md.lines().next().unwrap();
    assert!(header.contains("| games | distinct games |"), "{header}");
    let row = |title: &str| {
        md.lines()
            .find(|l| l.starts_with(&format!("| {title} ")))
            .unwrap()
            .to_string()
    };
    assert!(
        row("Chinese rules (simple ko)").contains("|  1000 |            997 |"),
        "{md}"
    );
    assert!(
        row("JK Baduk rules (final), 1x1").contains("|  1000 |              — |"),
        "{md}"
    );
    let plain = compare_table(&go_reports(), Format::Table);
    assert!(
        plain
            .lines()
            .next()
            .unwrap()
            .contains("games  distinct games"),
        "{plain}"
    );
    let json = compare_table(&go_reports(), Format::Json);
    assert_eq!(json.matches("\"distinct_games\": 997").count(), 2, "{json}");
}

#[test]
fn morris_tables_have_no_stuck_or_score_columns() {
    let md = compare_table(&reports(), Format::Markdown);
    assert!(!md.contains("stuck") && !md.contains("mean score"), "{md}");
    let csv = compare_table(&reports(), Format::Csv);
    assert!(!csv.contains("stuck") && !csv.contains("counted"), "{csv}");
}
