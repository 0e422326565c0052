//! Shards and the plan carry checksums (one CRC-32 a line) and a shard must
//! hold exactly the games the plan gives it: a damaged file is refused with
//! its name and what is wrong, never merged, and never written over.

use morrigo_diag::SourceFile;
use morrigo_sweep::{
    check_finished, collect, plan, prepare_dir, read_plan, read_shard, run_shard, shard_path,
    write_shard, Plan, Spec, MANIFEST,
};
use std::path::{Path, PathBuf};

const TEXT: &str = "rulesets: [three-mens-morris, nine-mens-morris]\nagents: [random]\ngames: 6\nseed: 3\nshard_games: 3\n";

/// A results directory with every shard of [`TEXT`] written.
fn finished_dir(name: &str) -> (Plan, PathBuf) {
    let spec = Spec::parse(SourceFile::new("spec.yaml", TEXT), None, "test").unwrap();
    let p = plan(&spec);
    let dir = std::env::temp_dir().join(format!("morrigo-sweep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    prepare_dir(&p, &dir).unwrap();
    for k in 0..p.shard_count() {
        write_shard(&dir, &run_shard(&p, k).unwrap()).unwrap();
    }
    assert_eq!(collect(&dir).unwrap().reports.len(), 2);
    (p, dir)
}

/// The refusal of shard `k` as damaged, by every reader: it names the file
/// and says how to play the shard again.
fn assert_refused(p: &Plan, dir: &Path, k: usize, what: &str) -> String {
    let name = format!("shard-{k:05}.jsonl");
    let e = read_shard(p, dir, k).unwrap_err().to_string();
    assert!(e.contains(&name) && e.contains("is damaged"), "{what}: {e}");
    assert!(
        e.contains(&format!("delete `{}`", shard_path(dir, k).display())),
        "{what}: {e}"
    );
    let all = check_finished(p, dir).unwrap_err().to_string();
    assert!(all.contains(&name), "{what}: {all}");
    let merged = collect(dir).unwrap_err().to_string();
    assert!(merged.contains(&name), "{what}: {merged}");
    e
}

#[test]
fn a_flipped_byte_of_a_shard_is_refused() {
    let (p, dir) = finished_dir("flipped");
    let path = shard_path(&dir, 1);
    let whole = std::fs::read(&path).unwrap();
    // Every byte, one bit flipped (the low bit; the high bit on the sampled
    // bytes too).
    for i in 0..whole.len() {
        for bit in [0u8, 7] {
            if bit == 7 && i % 17 != 0 {
                continue;
            }
            let mut b = whole.clone();
            b[i] ^= 1 << bit;
            std::fs::write(&path, &b).unwrap();
            let e = read_shard(&p, &dir, 1).unwrap_err().to_string();
            assert!(
                e.contains("shard-00001.jsonl` is damaged"),
                "byte {i} bit {bit}: {e}"
            );
        }
    }
    let mut b = whole.clone();
    b[40] ^= 1;
    std::fs::write(&path, &b).unwrap();
    let e = assert_refused(&p, &dir, 1, "a flipped bit");
    assert!(
        e.contains("line 1: the line's checksum does not match"),
        "{e}"
    );
    std::fs::write(&path, &whole).unwrap();
    assert!(collect(&dir).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_truncated_shard_is_refused() {
    let (p, dir) = finished_dir("truncated");
    let path = shard_path(&dir, 2);
    let whole = std::fs::read(&path).unwrap();
    for n in 0..whole.len() {
        std::fs::write(&path, &whole[..n]).unwrap();
        let e = read_shard(&p, &dir, 2).unwrap_err().to_string();
        assert!(
            e.contains("shard-00002.jsonl` is damaged"),
            "cut at {n}: {e}"
        );
    }
    // Cut after a whole line: the rows are counted against the plan.
    let first_line = whole.iter().position(|&b| b == b'\n').unwrap() + 1;
    std::fs::write(&path, &whole[..first_line]).unwrap();
    let e = assert_refused(&p, &dir, 2, "one line of three");
    assert!(
        e.contains(
            "it does not hold games 0..3 of cell 1: it has 1 rows, the plan's shard 2 has 3"
        ),
        "{e}"
    );
    // Cut inside a line.
    std::fs::write(&path, &whole[..first_line + 10]).unwrap();
    let e = assert_refused(&p, &dir, 2, "cut inside line 2");
    assert!(
        e.contains("its last line (line 2) has no line break"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shard_holding_another_shards_games_is_refused() {
    // Whole lines with good checksums, but not this shard's games: a file
    // copied over another, or a row appended twice.
    let (p, dir) = finished_dir("copied");
    let first = std::fs::read(shard_path(&dir, 0)).unwrap();
    std::fs::copy(shard_path(&dir, 1), shard_path(&dir, 0)).unwrap();
    let e = assert_refused(&p, &dir, 0, "shard 1's file as shard 0");
    assert!(
        e.contains("it does not hold games 0..3 of cell 0: line 1 is game 3 of cell 0 (shard 1)"),
        "{e}"
    );
    let mut twice = first.clone();
    twice.extend_from_slice(&first[..first.iter().position(|&b| b == b'\n').unwrap() + 1]);
    std::fs::write(shard_path(&dir, 0), &twice).unwrap();
    let e = assert_refused(&p, &dir, 0, "a row twice");
    assert!(e.contains("line 4 is game 0 of cell 0 (shard 0)"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_plan_is_refused() {
    let (p, dir) = finished_dir("plan");
    let path = dir.join(MANIFEST);
    let whole = std::fs::read(&path).unwrap();
    assert!(
        whole.starts_with(b"{\"crc32\":\""),
        "the plan's line is sealed"
    );
    for i in 0..whole.len() {
        let mut b = whole.clone();
        b[i] ^= 1;
        std::fs::write(&path, &b).unwrap();
        let e = read_plan(&dir).unwrap_err().to_string();
        assert!(e.contains("plan.json` is damaged"), "byte {i}: {e}");
    }
    for n in [0, 1, whole.len() / 2, whole.len() - 1] {
        std::fs::write(&path, &whole[..n]).unwrap();
        let e = read_plan(&dir).unwrap_err().to_string();
        assert!(e.contains("plan.json` is damaged"), "cut at {n}: {e}");
    }
    let mut b = whole.clone();
    b[whole.len() / 2] ^= 1;
    std::fs::write(&path, &b).unwrap();
    // Refused by every reader; never written over by the plan of the spec.
    let e = collect(&dir).unwrap_err().to_string();
    assert!(e.contains("checksum does not match"), "{e}");
    assert!(e.contains("delete `"), "{e}");
    let e = prepare_dir(&p, &dir).unwrap_err().to_string();
    assert!(e.contains("plan.json` is damaged"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), b, "the damaged plan is kept");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plan_of_format_one_is_refused_as_older() {
    let (_, dir) = finished_dir("format-one");
    let old = "{\n  \"format\": 1,\n  \"spec\": {},\n  \"shards\": []\n}\n";
    std::fs::write(dir.join(MANIFEST), old).unwrap();
    let e = read_plan(&dir).unwrap_err().to_string();
    assert!(
        e.contains("is a plan of format 1, written by an older Morrigo; this one reads format 2"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shard_is_written_as_checksummed_json_lines() {
    // Each line stays JSON (pandas, jq), its checksum the first field.
    let (_, dir) = finished_dir("lines");
    let text = std::fs::read_to_string(shard_path(&dir, 3)).unwrap();
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["crc32"].as_str().unwrap().len(), 8);
        assert_eq!(v["ruleset"], "nine-mens-morris");
    }
    // No temporary file is left beside the shards.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 5, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn many_damaged_shards_are_listed_ten_then_counted() {
    let text = "rulesets: [three-mens-morris]\nagents: [random]\ngames: 12\nshard_games: 1\n";
    let spec = Spec::parse(SourceFile::new("spec.yaml", text), None, "test").unwrap();
    let p = plan(&spec);
    let dir = std::env::temp_dir().join(format!("morrigo-sweep-many-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    prepare_dir(&p, &dir).unwrap();
    for k in 0..12 {
        std::fs::write(shard_path(&dir, k), "").unwrap();
    }
    let ds = check_finished(&p, &dir).unwrap_err();
    assert_eq!(ds.0.len(), 11, "{ds}");
    assert!(ds.0[9].message.contains("shard-00009.jsonl"), "{ds}");
    assert_eq!(ds.0[10].message, "and 2 more damaged shard files");
    std::fs::remove_dir_all(&dir).unwrap();
}
