//! Shards are deterministic units: the plan covers every game of every cell
//! once, and a shard's games are the same whichever order, process or
//! split plays them.

use morrigo_diag::SourceFile;
use morrigo_sweep::{collect, plan, prepare_dir, run_shard, write_shard, Spec};

fn spec(text: &str) -> Spec {
    Spec::parse(SourceFile::new("spec.yaml", text), None, "test").expect("a valid spec")
}

const TEXT: &str = "rulesets: [nine-mens-morris, six-mens-morris]\nparams: { no_removal_limit: [20, 50] }\nagents: [random, 'greedy,random']\ngames: 23\nseed: 5\nshard_games: 10\n";

#[test]
fn the_plan_covers_each_game_of_each_cell_once() {
    let s = spec(TEXT);
    // 2 rulesets × 2 values × 2 pairings.
    assert_eq!(s.cells.len(), 8);
    let p = plan(&s);
    assert_eq!(p, plan(&s), "a plan depends only on its spec");
    assert_eq!(p.shard_count(), 8 * 3);
    assert_eq!(p.shards().count(), 8 * 3);
    assert_eq!(p.shard(8 * 3), None);
    for cell in 0..8 {
        let mut games: Vec<u32> = p
            .shards()
            .filter(|sh| sh.cell == cell)
            .flat_map(|sh| sh.start..sh.end)
            .collect();
        games.sort();
        assert_eq!(games, (0..23).collect::<Vec<_>>());
    }
    assert_eq!(p.total_games(), 8 * 23);
}

#[test]
fn a_shard_is_the_same_games_whatever_the_order_or_thread_count() {
    let p = plan(&spec(TEXT));
    let strip = |mut r: morrigo_sweep::ShardResult| {
        r.rows.iter_mut().for_each(|row| row.secs = 0.0);
        r
    };
    let forward: Vec<_> = (0..p.shard_count())
        .map(|k| strip(run_shard(&p, k).unwrap()))
        .collect();
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for k in (0..p.shard_count()).rev() {
        let again = one_thread.install(|| strip(run_shard(&p, k).unwrap()));
        assert_eq!(again, forward[k], "shard {k}");
    }
    // The param reaches the rules: a 20-move no-removal limit ends
    // Nine Men's Morris games sooner than 50.
    let mean = |cell: usize| {
        let rows: Vec<_> = forward
            .iter()
            .flat_map(|r| &r.rows)
            .filter(|row| row.cell == cell)
            .collect();
        rows.iter().map(|r| r.plies as f64).sum::<f64>() / rows.len() as f64
    };
    assert!(mean(0) < mean(2), "{} vs {}", mean(0), mean(2));
}

#[test]
fn collect_leaves_out_cells_with_missing_shards() {
    let p = plan(&spec(TEXT));
    let dir = std::env::temp_dir().join(format!("morrigo-sweep-collect-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    prepare_dir(&p, &dir).unwrap();
    // Cell 0 complete, cell 1 missing its last shards.
    for k in 0..5 {
        write_shard(&dir, &run_shard(&p, k).unwrap()).unwrap();
    }
    let c = collect(&dir).unwrap();
    assert_eq!(c.reports.len(), 1);
    assert_eq!(c.reports[0].games, 23);
    assert_eq!(c.missing, (5..p.shard_count()).collect::<Vec<_>>());
    assert_eq!(c.reports[0].ruleset, "nine-mens-morris no_removal_limit=20");
    // A shard file that does not hold its games is refused, not summed.
    std::fs::write(morrigo_sweep::shard_path(&dir, 0), "").unwrap();
    let e = collect(&dir).unwrap_err();
    assert!(
        e.message.contains("does not hold games 0..10 of cell 0"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
