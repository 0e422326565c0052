//! `morrigo sweep`: a sweep's report equals `compare`'s (and `simulate`'s)
//! with the same seed; a run cut short or split over workers (`--shard`)
//! resumes to the same results; bad specs are refused with located errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{assert_code, morrigo, root, run_in, scratch_dir, stderr, stdout};

fn spec(name: &str) -> String {
    format!("tests/sweeps/{name}")
}

fn json(o: &Output) -> serde_json::Value {
    assert_code(o, 0);
    serde_json::from_slice(&o.stdout).expect("JSON report")
}

/// The reports without their times (the only fields that vary between
/// identical runs).
fn untimed(mut v: serde_json::Value) -> serde_json::Value {
    for r in v.as_array_mut().expect("a list of reports") {
        let r = r.as_object_mut().expect("a report");
        r.remove("elapsed_secs");
        r.remove("secs_per_game");
    }
    v
}

fn sweep(args: &[&str]) -> Output {
    let mut all = vec!["sweep"];
    all.extend_from_slice(args);
    morrigo(&all)
}

fn dir_arg(dir: &Path) -> String {
    dir.display().to_string()
}

/// Rule: game i of each cell is game i of `compare` with the spec's seed,
/// whatever shard plays it, so the merged reports are `compare`'s.
#[test]
fn a_sweep_reports_what_compare_reports() {
    let dir = scratch_dir("equals-compare");
    let swept = untimed(json(&sweep(&[
        &spec("two-rulesets.yaml"),
        "--results",
        &dir_arg(&dir),
        "--format",
        "json",
    ])));
    let compared = untimed(json(&morrigo(&[
        "compare",
        "nine-mens-morris",
        "three-mens-morris",
        "--agents",
        "random",
        "--agents",
        "greedy,random",
        "--games",
        "120",
        "--seed",
        "7",
        "--format",
        "json",
    ])));
    assert_eq!(swept, compared);
    // 2 rulesets × 2 pairings × 120 games in shards of 25: 5 shards a cell.
    let shards = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("shard-")
        })
        .count();
    assert_eq!(shards, 20);
}

/// Rule: `size` and `komi` params are the command line's `--size` and
/// `--komi`; the report is `simulate`'s, labelled with the params.
#[test]
fn params_are_the_command_line_overrides() {
    let dir = scratch_dir("go-params");
    let swept = untimed(json(&sweep(&[
        &spec("go-params.yaml"),
        "--results",
        &dir_arg(&dir),
        "--format",
        "json",
    ])));
    let o = morrigo(&[
        "simulate",
        "tromp-taylor",
        "--size",
        "5",
        "--komi",
        "0.5",
        "--games",
        "40",
        "--seed",
        "3",
        "--agents",
        "random",
        "--json",
    ]);
    assert_code(&o, 0);
    let simulated: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut expected = untimed(serde_json::Value::Array(vec![simulated]));
    let r = &mut expected[0];
    r["ruleset"] = "tromp-taylor size=5 komi=0.5".into();
    r["title"] = format!("{} size=5 komi=0.5", r["title"].as_str().unwrap()).into();
    assert_eq!(swept, expected);
    assert!(swept[0]["counted"].as_u64().unwrap() > 0, "{swept}");
}

/// Rule: a ruleset param from the grid changes the rules (flying from 4
/// pieces is another game than from 3), and each row says its params.
#[test]
fn ruleset_params_change_the_game() {
    let dir = scratch_dir("flying");
    let text = r#"
rulesets: [nine-mens-morris]
params: { fly_at: [3, 4] }
agents: [random]
games: 60
seed: 7
shard_games: 30
"#;
    std::fs::write(dir.join("spec.yaml"), text).unwrap();
    let o = run_in(
        &dir,
        &["sweep", "spec.yaml", "--results", "out", "--format", "json"],
    );
    let v = json(&o);
    assert_eq!(v[0]["ruleset"], "nine-mens-morris fly_at=3");
    assert_eq!(v[1]["ruleset"], "nine-mens-morris fly_at=4");
    let flying = |r: &serde_json::Value| {
        r["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"] == "flying moves")
            .unwrap()["count"]
            .as_u64()
            .unwrap()
    };
    assert_ne!(flying(&v[0]), flying(&v[1]), "{v}");
    let row = std::fs::read_to_string(dir.join("out/shard-00002.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(row.lines().next().unwrap()).unwrap();
    assert_eq!(first["params"]["fly_at"], "4");
    assert_eq!(first["game"], 0);
    assert_eq!(first["seed"], 7);
}

fn shard_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            // A killed writer may leave its temporary file (`shard-K.tmp.…`),
            // which is never read as a shard.
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with("shard-") && !n.contains(".tmp")
            })
        })
        .collect();
    v.sort();
    v
}

/// Rule: a re-run plays only the missing shards, and the results are the
/// same as an uninterrupted run: shards played one by one (`--shard K`, as
/// remote workers do), shards lost, and the rest played by a later run.
#[test]
fn a_cut_short_run_resumes_to_the_same_results() {
    let full = scratch_dir("full");
    let whole = untimed(json(&sweep(&[
        &spec("two-rulesets.yaml"),
        "--results",
        &dir_arg(&full),
        "--format",
        "json",
        "--jobs",
        "2",
    ])));

    // A worker's share: shards 0, 7 and 19 alone.
    let part = scratch_dir("part");
    for k in ["0", "7", "19"] {
        let o = sweep(&[
            &spec("two-rulesets.yaml"),
            "--results",
            &dir_arg(&part),
            "--shard",
            k,
        ]);
        assert_code(&o, 0);
        let games = if k == "19" { "20 games" } else { "25 games" };
        assert!(stdout(&o).contains(games), "{}", stdout(&o));
    }
    assert_eq!(shard_files(&part).len(), 3);
    let seventh = shard_files(&part)[1].clone();
    assert!(seventh.ends_with("shard-00007.jsonl"));
    let kept = std::fs::read(&seventh).unwrap();
    // What is finished so far: the cells whose shards are all there (none).
    let o = sweep(&[
        &spec("two-rulesets.yaml"),
        "--results",
        &dir_arg(&part),
        "--collect",
        "--format",
        "csv",
    ]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("17 of 20 shards not finished"),
        "{}",
        stdout(&o)
    );
    // The rest, with one job.
    let resumed = untimed(json(&sweep(&[
        &spec("two-rulesets.yaml"),
        "--results",
        &dir_arg(&part),
        "--format",
        "json",
        "--jobs",
        "1",
    ])));
    assert_eq!(resumed, whole);
    // A finished shard is not played again (its file, times included, is kept).
    assert!(
        std::fs::read(&seventh).unwrap() == kept,
        "shard 7 was played again"
    );

    // Shards lost (a worker's disk, a killed job): deleted, played again.
    for p in shard_files(&full).iter().step_by(3) {
        std::fs::remove_file(p).unwrap();
    }
    let again = untimed(json(&sweep(&[
        &spec("two-rulesets.yaml"),
        "--results",
        &dir_arg(&full),
        "--format",
        "json",
    ])));
    assert_eq!(again, whole);
    // Again with nothing to play: the same report from the files.
    let o = sweep(&[
        &spec("two-rulesets.yaml"),
        "--results",
        &dir_arg(&full),
        "--shard",
        "3",
    ]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("already finished"), "{}", stdout(&o));
}

/// Rule: a sweep killed mid-run (SIGKILL) leaves only whole shard files,
/// and the next run completes it to the uninterrupted results.
#[test]
fn a_killed_sweep_resumes_to_the_same_results() {
    let text = "rulesets: [morabaraba]\nagents: [random]\ngames: 800\nseed: 11\nshard_games: 10\n";
    let dir = scratch_dir("killed");
    std::fs::write(dir.join("spec.yaml"), text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(&dir)
        .args(["sweep", "spec.yaml", "--results", "out", "--jobs", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = dir.join("out");
    let started = std::time::Instant::now();
    while (!out.is_dir() || shard_files(&out).len() < 2)
        && started.elapsed() < std::time::Duration::from_secs(60)
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let written = shard_files(&out);
    assert!(written.len() < 80, "the sweep ended before it was killed");
    // Every file there is a whole shard: the collector reads each one.
    for p in &written {
        let rows = std::fs::read_to_string(p).unwrap().lines().count();
        assert_eq!(rows, 10, "{}", p.display());
    }
    let resumed = untimed(json(&run_in(
        &dir,
        &["sweep", "spec.yaml", "--results", "out", "--format", "json"],
    )));
    let single = untimed(json(&morrigo(&[
        "compare",
        "morabaraba",
        "--agents",
        "random",
        "--games",
        "800",
        "--seed",
        "11",
        "--format",
        "json",
    ])));
    assert_eq!(resumed, single);
}

/// A spec file in a fresh directory; `sweep` run there.
fn refused(name: &str, text: &str) -> String {
    let dir = scratch_dir(name.trim_end_matches(".yaml"));
    std::fs::write(dir.join(name), text).unwrap();
    let o = run_in(&dir, &["sweep", name, "--results", "out"]);
    assert_code(&o, 1);
    assert!(!dir.join("out").exists(), "no results for a refused spec");
    stderr(&o)
}

#[test]
fn an_unknown_ruleset_is_located_with_the_nearest_name() {
    let err = refused(
        "unknown-ruleset.yaml",
        "rulesets:\n  - nine-mens-morris\n  - six-mens-moris\ngames: 10\n",
    );
    assert!(err.starts_with("unknown-ruleset.yaml:3:5: error"), "{err}");
    assert!(err.contains("did you mean `six-mens-morris`"), "{err}");
    insta::assert_snapshot!(err);
}

#[test]
fn an_unknown_param_is_located_with_the_nearest_name() {
    let err = refused(
        "unknown-param.yaml",
        "rulesets: [nine-mens-morris]\nparams:\n  fly_att: [3, 4]\ngames: 10\n",
    );
    assert!(err.starts_with("unknown-param.yaml:3:3: error"), "{err}");
    assert!(err.contains("did you mean `fly_at`"), "{err}");
    insta::assert_snapshot!(err);
}

#[test]
fn a_size_on_a_board_that_is_not_a_grid_is_located() {
    let err = refused(
        "size-morris.yaml",
        "rulesets: [tromp-taylor, nine-mens-morris]\nparams:\n  size: [5]\ngames: 10\n",
    );
    assert!(err.starts_with("size-morris.yaml:3:3: error"), "{err}");
    insta::assert_snapshot!(err);
}

/// A sweep value outside the range the ruleset declares for the param is
/// refused at the spec's param, naming where the range is declared; the
/// values in range (`fly_at: 4`, flying at four and below) are accepted.
#[test]
fn a_param_value_outside_its_range_is_located_in_the_spec() {
    let err = refused(
        "fly-range.yaml",
        "rulesets: [nine-mens-morris]\nparams:\n  fly_at: [-1, 4]\ngames: 10\n",
    );
    assert!(err.starts_with("fly-range.yaml:3:3: error"), "{err}");
    assert!(
        err.contains("param `fly_at` is -1, outside its range")
            && err.contains("the range is declared at rulesets/morris/nine-mens-morris.yaml:18:11")
            && !err.contains("is 4"),
        "{err}"
    );
}

#[test]
fn an_unknown_agent_is_located_with_the_nearest_name() {
    let err = refused(
        "unknown-agent.yaml",
        "rulesets: [nine-mens-morris]\nagents:\n  - random\n  - greddy,random\ngames: 10\n",
    );
    assert!(err.starts_with("unknown-agent.yaml:4:5: error"), "{err}");
    assert!(err.contains("did you mean `greedy`"), "{err}");
    insta::assert_snapshot!(err);
}

#[test]
fn bad_values_and_keys_are_located() {
    let err = refused(
        "bad-values.yaml",
        "rulesets: [tromp-taylor]\nparams:\n  size: [5, 30]\n  komi: [six]\ngames: 0\n",
    );
    assert!(err.starts_with("bad-values.yaml:5:8: error"), "{err}");
    assert!(err.contains("bad-values.yaml:3:13: error"), "{err}");
    assert!(err.contains("bad-values.yaml:4:10: error"), "{err}");
    insta::assert_snapshot!("bad_values", err);
    let err = refused("bad-key.yaml", "rulesets: [tromp-taylor]\ngmes: 10\n");
    assert!(err.starts_with("bad-key.yaml:2:1: error"), "{err}");
    assert!(err.contains("did you mean `games`"), "{err}");
    insta::assert_snapshot!("bad_key", err);
    let err = refused("bad-type.yaml", "rulesets: nine-mens-morris\ngames: 10\n");
    assert!(err.starts_with("bad-type.yaml:1:11: error"), "{err}");
    insta::assert_snapshot!("bad_type", err);
}

/// Rule: a results directory belongs to one sweep; another spec's plan
/// there is refused before anything is played.
#[test]
fn a_results_directory_of_another_sweep_is_refused() {
    let dir = scratch_dir("other-plan");
    let o = sweep(&[&spec("go-params.yaml"), "--results", &dir_arg(&dir)]);
    assert_code(&o, 0);
    let o = sweep(&[&spec("two-rulesets.yaml"), "--results", &dir_arg(&dir)]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("holds another sweep's plan"),
        "{}",
        stderr(&o)
    );
    assert_eq!(shard_files(&dir).len(), 3);
}

#[test]
fn a_shard_out_of_range_is_a_usage_error() {
    let dir = scratch_dir("range");
    let o = sweep(&[
        &spec("go-params.yaml"),
        "--results",
        &dir_arg(&dir),
        "--shard",
        "3",
    ]);
    assert_code(&o, 2);
    assert!(
        stderr(&o).contains("--shard 3: the sweep has shards 0 to 2"),
        "{}",
        stderr(&o)
    );
}

/// Rule: `--ray` hands the sweep to the Python package; without it, a
/// clear error (exit 1), never a panic.
#[test]
fn ray_without_the_python_package_is_a_clear_error() {
    let dir = scratch_dir("ray");
    let o = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(root())
        .env("MORRIGO_PYTHON", "/nonexistent/python3")
        .args([
            "sweep",
            &spec("go-params.yaml"),
            "--results",
            &dir_arg(&dir),
            "--ray",
            "127.0.0.1:6379",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("--ray needs the morrigo Python package"),
        "{err}"
    );
    insta::assert_snapshot!(err);
    assert!(shard_files(&dir).is_empty());
}

#[test]
fn sweep_help_has_examples() {
    let o = morrigo(&["sweep", "--help"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("Examples:"), "{}", stdout(&o));
    assert!(stdout(&o).contains("--shard"), "{}", stdout(&o));
}

/// Rule: `--ray-timeout` bounds attaching to a `--ray` cluster; it needs
/// `--ray` and a positive number of seconds (usage errors, exit 2).
#[test]
fn ray_timeout_needs_ray_and_a_positive_count() {
    let dir = scratch_dir("ray-timeout");
    let o = morrigo(&[
        "sweep",
        &spec("go-params.yaml"),
        "--results",
        &dir_arg(&dir),
        "--ray-timeout",
        "5",
    ]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("--ray <ADDRESS>"), "{}", stderr(&o));
    let o = morrigo(&[
        "sweep",
        &spec("go-params.yaml"),
        "--results",
        &dir_arg(&dir),
        "--ray",
        "127.0.0.1:6379",
        "--ray-timeout",
        "0",
    ]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("--ray-timeout"), "{}", stderr(&o));
    assert!(shard_files(&dir).is_empty());
}

/// Rule: the limits are checked from the spec's counts, before a cell or a
/// plan is built: 200^4 param combinations are refused at once, located.
#[test]
fn two_hundred_to_the_fourth_combinations_are_refused_before_planning() {
    let values: Vec<String> = (0..200).map(|i| i.to_string()).collect();
    let v = format!("[{}]", values.join(", "));
    let err = refused(
        "combinations.yaml",
        &format!("rulesets: [nine-mens-morris]\nparams:\n  a: {v}\n  b: {v}\n  c: {v}\n  d: {v}\ngames: 1\n"),
    );
    assert!(err.starts_with("combinations.yaml:3:3: error"), "{err}");
    insta::assert_snapshot!(err);
}

/// Rule: a billion one-game shards (a billion files) are refused at
/// `shard_games`, with the smallest shard size that fits.
#[test]
fn a_billion_one_game_shards_are_refused_before_planning() {
    let err = refused(
        "billion.yaml",
        "rulesets: [nine-mens-morris]\ngames: 1000000000\nshard_games: 1\n",
    );
    assert!(err.starts_with("billion.yaml:3:14: error"), "{err}");
    insta::assert_snapshot!(err);
}

fn flip_byte(path: &Path, at: usize) -> Vec<u8> {
    let mut bytes = std::fs::read(path).unwrap();
    let at = at.min(bytes.len() - 1);
    bytes[at] ^= 1;
    std::fs::write(path, &bytes).unwrap();
    bytes
}

/// Rule: a resume refuses a damaged shard, naming it and saying to delete
/// it, and plays nothing (so nothing is lost or counted twice); once it is
/// deleted, the shard is played again to the uninterrupted results.
#[test]
fn a_resume_refuses_a_damaged_shard_until_it_is_deleted() {
    let dir = scratch_dir("damaged-shard");
    let args = [spec("go-params.yaml"), "--results".into(), dir_arg(&dir)];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let json_args = [&args[..], &["--format", "json"]].concat();
    let whole = untimed(json(&sweep(&json_args)));
    let shard = dir.join("shard-00001.jsonl");
    let damaged = flip_byte(&shard, 700);
    std::fs::remove_file(dir.join("shard-00002.jsonl")).unwrap();
    for extra in [&[][..], &["--collect"], &["--shard", "1"]] {
        let o = sweep(&[&args[..], extra].concat());
        assert_code(&o, 1);
        let err = stderr(&o);
        assert!(
            err.contains("shard-00001.jsonl` is damaged: line "),
            "{extra:?}: {err}"
        );
        assert!(err.contains("checksum does not match"), "{extra:?}: {err}");
        assert!(
            err.contains(&format!("delete `{}`", shard.display())),
            "{extra:?}: {err}"
        );
        assert_eq!(std::fs::read(&shard).unwrap(), damaged, "{extra:?}: kept");
    }
    // A worker's `--shard 2` plays its own shard, whatever the others'.
    assert_code(&sweep(&[&args[..], &["--shard", "2"]].concat()), 0);
    assert!(dir.join("shard-00002.jsonl").is_file());
    assert_code(&sweep(&args), 1);
    std::fs::remove_file(&shard).unwrap();
    assert_eq!(untimed(json(&sweep(&json_args))), whole);
}

/// Rule: a damaged plan is refused by name and kept, never rewritten.
#[test]
fn a_damaged_plan_is_refused() {
    let dir = scratch_dir("damaged-plan");
    let o = sweep(&[&spec("go-params.yaml"), "--results", &dir_arg(&dir)]);
    assert_code(&o, 0);
    let plan = dir.join("plan.json");
    let damaged = flip_byte(&plan, 200);
    for extra in [&[][..], &["--collect"], &["--shard", "0"]] {
        let o = sweep(
            &[
                &[&spec("go-params.yaml"), "--results", &dir_arg(&dir)][..],
                extra,
            ]
            .concat(),
        );
        assert_code(&o, 1);
        let err = stderr(&o);
        assert!(err.contains("plan.json` is damaged"), "{extra:?}: {err}");
        assert!(err.contains("checksum does not match"), "{extra:?}: {err}");
        assert_eq!(std::fs::read(&plan).unwrap(), damaged, "{extra:?}: kept");
    }
    let o = sweep(&[&spec("go-params.yaml"), "--results", &dir_arg(&dir)]);
    assert!(stderr(&o).contains("delete `"), "{}", stderr(&o));
}

/// Rule: writes are atomic: a disk that fills up mid-sweep (injected with
/// MORRIGO_FAIL_WRITES_AFTER) is an error naming the file (exit 1), leaves
/// only whole shards and no temporary file, and the next run completes the
/// sweep to the uninterrupted results.
#[test]
fn a_full_disk_leaves_only_whole_shards() {
    let full = scratch_dir("disk-full-reference");
    let whole = untimed(json(&sweep(&[
        &spec("two-rulesets.yaml"),
        "--results",
        &dir_arg(&full),
        "--format",
        "json",
    ])));
    let dir = scratch_dir("disk-full");
    let o = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .current_dir(root())
        .env("MORRIGO_FAIL_WRITES_AFTER", "40000")
        .args([
            "sweep",
            &spec("two-rulesets.yaml"),
            "--results",
            &dir_arg(&dir),
            "--jobs",
            "1",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("no space left on device"), "{err}");
    assert!(err.contains("shard-000"), "{err}");
    let written = shard_files(&dir);
    assert!(
        !written.is_empty() && written.len() < 20,
        "{} shards written",
        written.len()
    );
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names.len(),
        written.len() + 1,
        "only the plan and whole shards: {names:?}"
    );
    let resumed = untimed(json(&sweep(&[
        &spec("two-rulesets.yaml"),
        "--results",
        &dir_arg(&dir),
        "--format",
        "json",
    ])));
    assert_eq!(resumed, whole);
}
