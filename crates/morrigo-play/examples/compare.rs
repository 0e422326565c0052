//! `cargo run --release -p morrigo-play --example compare [games] [white] [black]`:
//! simulate every built-in Morris ruleset and print the comparison table.

use morrigo_play::{compare_table, machine, simulate, Format, SimConfig};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u32 = args.next().and_then(|g| g.parse().ok()).unwrap_or(1000);
    let white = args.next().and_then(|a| a.parse().ok()).unwrap_or_default();
    let black = args.next().and_then(|a| a.parse().ok()).unwrap_or_default();
    let cfg = SimConfig {
        agents: [white, black],
        ..SimConfig::new(games, 42)
    };
    let reports: Vec<_> = morrigo_rules::builtin::family("morris")
        .map(|b| {
            let any = machine(b.name).unwrap_or_else(|e| panic!("{e}"));
            simulate(&any, &cfg, None)
        })
        .collect();
    print!("{}", compare_table(&reports, Format::Markdown));
}
