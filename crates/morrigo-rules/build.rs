//! Embeds every ruleset under the workspace's `rulesets/` folder, so the
//! `morrigo` binary runs its built-in defaults from any directory.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    let rulesets = root.join("rulesets");
    println!("cargo:rerun-if-changed={}", rulesets.display());
    let mut files = Vec::new();
    collect(&rulesets, &mut files);
    files.sort();
    let mut out = String::from(
        "/// Every ruleset under `rulesets/`, sorted by path (read it through `all`).\n\
         pub static BUILTINS: &[Builtin] = &[\n",
    );
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let rel = file.strip_prefix(&root).expect("inside the workspace");
        let rel = rel.to_string_lossy().replace('\\', "/");
        let stem = file.file_stem().expect("file has a name").to_string_lossy();
        let abs = file.canonicalize().expect("file exists");
        writeln!(
            out,
            "    Builtin {{ name: {stem:?}, path: {rel:?}, text: include_str!({:?}) }},",
            abs.display().to_string()
        )
        .expect("write to string");
    }
    out.push_str("];\n");
    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("builtins.rs");
    std::fs::write(dest, out).expect("write builtins.rs");
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}
