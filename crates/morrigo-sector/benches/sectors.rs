//! The anchors of issue 22 as benchmarks: Six Men's Morris's moving phase
//! (every sector, in memory), the Nine Men's Morris sectors of at most three
//! pieces a side (the 3–3 endgame the hand-written solver is timed on), and
//! the search of Six Men's Morris's placing phase over its sectors.
//! `cargo bench -p morrigo-sector`.

use criterion::{criterion_group, criterion_main, Criterion};
use morrigo_sector::opening::{search_opening, Wdl};

fn machine(name: &str) -> morrigo_engine::Machine<1> {
    let rules = morrigo_rules::load_rules(name).expect("built-in loads");
    morrigo_sector::solver_machine(&rules).expect("the sector solver applies")
}

fn sectors(c: &mut Criterion) {
    let mut g = c.benchmark_group("sectors");
    g.sample_size(10);
    let six = machine("six-mens-morris");
    g.bench_function("six-mens-morris moving phase", |b| {
        b.iter(|| morrigo_sector::solve_sectors(&six, None, 0, 6, |_| {}).expect("solves"))
    });
    let nine = machine("nine-mens-morris");
    g.bench_function("nine-mens-morris up to 3-3", |b| {
        b.iter(|| morrigo_sector::solve_sectors(&nine, None, 0, 3, |_| {}).expect("solves"))
    });
    g.finish();
}

fn opening(c: &mut Criterion) {
    let six = machine("six-mens-morris");
    let dir = std::env::temp_dir().join(format!("morrigo-bench-opening-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    morrigo_sector::solve_sectors(&six, Some(&dir), 0, 6, |_| {}).expect("solves");
    let mut g = c.benchmark_group("opening");
    g.sample_size(10);
    g.bench_function("six-mens-morris placing phase by search", |b| {
        b.iter(|| {
            // Each run proves again: the file of first moves proved goes.
            let _ = std::fs::remove_file(dir.join(morrigo_sector::opening::OPENING_FILE));
            let r = search_opening(&six, &dir, 64 << 20, 2, |_| {}).expect("searches");
            assert_eq!(r.start, Wdl::Draw);
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, sectors, opening);
criterion_main!(benches);
