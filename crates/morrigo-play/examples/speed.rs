//! `cargo run --release -p morrigo-play --example speed [ruleset] [games] [size=N|WxH] [no-perft]`:
//! single-thread random playout and perft throughput, e.g.
//! `... --example speed chinese 20000 size=9 no-perft`.

use morrigo_play::{bench_perft, bench_playouts, machine_with, Unit};
use morrigo_rules::load::Overrides;

fn main() {
    let mut spec = "nine-mens-morris".to_string();
    let mut games: u32 = 20_000;
    let mut overrides = Overrides::default();
    let mut perft = true;
    for arg in std::env::args().skip(1) {
        if arg == "no-perft" {
            perft = false;
        } else if let Some(size) = arg.strip_prefix("size=") {
            overrides.size = Some(Overrides::parse_size(size).unwrap_or_else(|e| panic!("{e}")));
        } else if let Ok(n) = arg.parse() {
            games = n;
        } else {
            spec = arg;
        }
    }
    let any = machine_with(&spec, &overrides).unwrap_or_else(|e| panic!("{e}"));
    let _ = bench_playouts(&any, games / 10, 1); // warm up
    let b = bench_playouts(&any, games, 1);
    let size = overrides
        .size
        .map(|(w, h)| format!(" {w}x{h}"))
        .unwrap_or_default();
    println!(
        "{spec}{size}: {} games, {} plies in {:.3}s: {:.0} games/s, {:.2} M plies/s, {:.1} plies/game",
        b.games,
        b.plies,
        b.secs,
        b.games_per_sec,
        b.plies_per_sec / 1e6,
        b.plies as f64 / b.games as f64
    );
    if !perft {
        return;
    }
    let p = bench_perft(&any, 5, Unit::Ply);
    println!(
        "perft 5: {} nodes in {:.3}s: {:.2} M nodes/s",
        p.nodes,
        p.secs,
        p.nodes_per_sec / 1e6
    );
}
