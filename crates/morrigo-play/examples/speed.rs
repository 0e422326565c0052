//! `cargo run --release -p morrigo-play --example speed [ruleset] [games] [no-perft]`:
//! single-thread random playout and perft throughput.

use morrigo_play::{bench_perft, bench_playouts, machine, Unit};

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "nine-mens-morris".into());
    let games: u32 = args.next().and_then(|g| g.parse().ok()).unwrap_or(20_000);
    let any = machine(&spec).unwrap_or_else(|e| panic!("{e}"));
    let _ = bench_playouts(&any, games / 10, 1); // warm up
    let b = bench_playouts(&any, games, 1);
    println!(
        "{spec}: {} games, {} plies in {:.3}s: {:.0} games/s, {:.2} M plies/s, {:.1} plies/game",
        b.games,
        b.plies,
        b.secs,
        b.games_per_sec,
        b.plies_per_sec / 1e6,
        b.plies as f64 / b.games as f64
    );
    if args.next().as_deref() == Some("no-perft") {
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
