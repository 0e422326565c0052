//! The README and the book (`docs/src`) cannot go stale: every ```console
//! block in them is run and its output compared (trycmd), the book's table
//! of contents lists every chapter, every relative link leads to a file, and
//! the expression reference is the one generated from the vocabulary.
//!
//! How the console blocks run: `$ morrigo ARGS` lines, output below them
//! (stdout and stderr together), `? 1` under the command for an exit status
//! other than 0; `[..]` matches the rest of a line (times, rates), a line
//! `...` any number of lines. Commands run in a scratch directory that
//! mirrors the project root (a symbolic link to each of its entries), so the
//! paths the docs show (`tests/scenarios`, `rulesets/…`) work, and files a
//! command writes (`--db three-db`) land in the scratch directory, not in
//! the checkout. All the documents share it and run side by side, so two
//! documents must not write the same name. A code block fenced
//! ```` ```yaml file=NAME ```` is written to NAME there first, so the
//! tutorial's and the recipes' rulesets are the ones shown. A block fenced
//! ```` ```console piped ```` (a shell pipeline, `printf … | morrigo gtp …`)
//! is run by `sh -c` with the test's `morrigo` first on `PATH`, its output
//! compared exactly.
//!
//! When an output changes, the test fails with a diff. Fix the document
//! (never the program, unless the program is wrong): `TRYCMD=overwrite cargo
//! test -p morrigo-cli --test it docs` rewrites the outputs in place; then
//! put the wildcards back where outputs vary.
//!
//! trycmd runs commands in the test process's working directory, and the
//! CLI tests share one process (changing its directory would move the other
//! tests), so the console blocks run in a child process: this test binary
//! again, running only `docs::console_blocks_child`, in the scratch
//! directory.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Set (to the scratch directory) in the child process that runs the
/// console blocks; the child test does nothing without it.
const CHILD_ENV: &str = "MORRIGO_DOCS_CHILD";

fn root() -> PathBuf {
    crate::common::root()
        .canonicalize()
        .expect("the project root")
}

/// README.md and every chapter of the book, in a fixed order.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut docs = vec![root.join("README.md")];
    let mut chapters: Vec<PathBuf> = std::fs::read_dir(root.join("docs/src"))
        .expect("docs/src")
        .map(|e| e.expect("a docs/src entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    docs.extend(chapters);
    docs
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// A fenced code block: its info string, the line of its opening fence
/// (1-based) and its lines.
struct Block {
    info: String,
    line: usize,
    body: Vec<String>,
}

/// The fenced code blocks of a Markdown text (fences of backticks at the
/// start of a line, as the documents write them).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, Block)> = None;
    for (i, line) in text.lines().enumerate() {
        let ticks = line.chars().take_while(|&c| c == '`').count();
        match &mut open {
            None if ticks >= 3 => {
                let block = Block {
                    info: line[ticks..].trim().to_string(),
                    line: i + 1,
                    body: Vec::new(),
                };
                open = Some((line[..ticks].to_string(), block));
            }
            None => {}
            Some((fence, _)) if line.starts_with(fence.as_str()) && line.trim() == fence => {
                out.push(open.take().expect("an open block").1);
            }
            Some((_, block)) => block.body.push(line.to_string()),
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    out
}

/// The text outside code blocks and inline code (where links live).
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            // Drop inline code spans: `[a](b)` in backticks is not a link.
            let mut code = false;
            for c in line.chars() {
                if c == '`' {
                    code = !code;
                } else if !code {
                    out.push(c);
                }
            }
            out.push('\n');
        }
    }
    out
}

/// The targets of the Markdown links and images `[text](target)` in `text`.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        match after.find(')') {
            Some(j) => {
                out.push(after[..j].trim().to_string());
                rest = &after[j..];
            }
            None => break,
        }
    }
    out
}

/// A heading's anchor as mdBook and GitHub make it: lower case, spaces as
/// `-`, only letters, digits, `-` and `_` kept.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
        } else if !in_block && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// Every chapter file is in SUMMARY.md, and every file SUMMARY.md names
/// exists: mdBook builds only what SUMMARY.md lists.
#[test]
fn the_summary_lists_every_chapter() {
    let src = root().join("docs/src");
    let summary = read(&src.join("SUMMARY.md"));
    let listed: BTreeSet<String> = link_targets(&summary).into_iter().collect();
    let files: BTreeSet<String> = documents()
        .iter()
        .filter(|p| p.starts_with(&src))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|n| n != "SUMMARY.md")
        .collect();
    let missing: Vec<_> = files.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "docs/src/SUMMARY.md does not list {missing:?}"
    );
    let absent: Vec<_> = listed.difference(&files).collect();
    assert!(
        absent.is_empty(),
        "docs/src/SUMMARY.md lists missing files {absent:?}"
    );
    assert!(root().join("docs/book.toml").is_file(), "docs/book.toml");
}

/// Every relative link of the README and the book leads to an existing file
/// (on a forge, without mdBook), and an `#anchor` into a Markdown file to
/// one of its headings.
#[test]
fn relative_links_resolve() {
    let mut broken = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        for target in link_targets(&prose(&text)) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(path)
            };
            if !file.exists() {
                broken.push(format!("{}: `{target}`: no such file", rel(&doc)));
                continue;
            }
            if let Some(fragment) = fragment {
                if file.extension().is_some_and(|e| e == "md")
                    && !anchors(&read(&file)).contains(fragment)
                {
                    broken.push(format!("{}: `{target}`: no such heading", rel(&doc)));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The expression language's table of built-in names is generated from the
/// vocabulary the checker uses (`morrigo_rules::vocab`); the chapter must
/// hold it as generated.
#[test]
fn the_expression_reference_is_the_vocabulary() {
    let chapter = read(&root().join("docs/src/expressions.md"));
    let table = morrigo_rules::vocab::reference_markdown();
    assert!(
        chapter.contains(&table),
        "docs/src/expressions.md's table of built-in names is stale; paste in:\n{table}"
    );
}

/// The architecture chapter's table of dependencies between the crates is
/// the one their `Cargo.toml` files declare (`[dependencies]` only).
#[test]
fn the_architecture_shows_the_real_dependencies() {
    let root = root();
    let chapter = read(&root.join("docs/src/architecture.md"));
    let mut shown = std::collections::BTreeMap::new();
    let start = chapter
        .find("| crate | depends on |")
        .expect("docs/src/architecture.md has a `| crate | depends on |` table");
    for row in chapter[start..].lines().skip(2) {
        if !row.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let names = |cell: &str| -> BTreeSet<String> {
            cell.split(',')
                .map(|n| n.trim().trim_matches('`').to_string())
                .filter(|n| n.starts_with("morrigo-"))
                .collect()
        };
        let krate = names(cells[1]).into_iter().next().expect("a crate name");
        shown.insert(krate, names(cells[2]));
    }
    let mut declared = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
        let dir = entry.expect("a crate").path();
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let mut deps = BTreeSet::new();
        let mut in_deps = false;
        for line in manifest.lines() {
            if line.starts_with('[') {
                in_deps = line.trim() == "[dependencies]";
            } else if in_deps && line.starts_with("morrigo-") {
                let name = line.split(['.', ' ', '=']).next().unwrap_or_default();
                deps.insert(name.to_string());
            }
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        declared.insert(name, deps);
    }
    assert_eq!(
        shown, declared,
        "docs/src/architecture.md's dependency table (left) differs from the crates' Cargo.toml files (right)"
    );
}

/// trycmd takes a fence without a language for a console block: every code
/// block names its language.
#[test]
fn every_code_block_names_its_language() {
    let mut bare = Vec::new();
    for doc in documents() {
        for b in blocks(&read(&doc)) {
            if b.info.is_empty() {
                bare.push(format!("{}:{}", rel(&doc), b.line));
            }
        }
    }
    assert!(bare.is_empty(), "code blocks without a language: {bare:?}");
}

/// Runs the console blocks (in a child process, see the module's comment)
/// and fails with the child's report when one does not match.
#[test]
fn console_blocks_show_real_output() {
    let root = root();
    let scratch = crate::common::scratch_dir("docs");
    for entry in std::fs::read_dir(&root).expect("the project root") {
        let entry = entry.expect("a root entry");
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        std::os::unix::fs::symlink(entry.path(), scratch.join(&name)).expect("a symbolic link");
    }
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "docs::console_blocks_child",
            "--exact",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CHILD_ENV, &scratch)
        .current_dir(&scratch)
        .stdin(Stdio::null())
        .output()
        .expect("the test binary runs");
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        out.status.success(),
        "a console block of the README or the book does not match (see above each diff; \
         TRYCMD=overwrite rewrites them)\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The child's side: writes the `file=` blocks, runs the piped blocks, then
/// the console blocks through trycmd. Does nothing in an ordinary run.
#[test]
fn console_blocks_child() {
    let Some(scratch) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let scratch = PathBuf::from(scratch);
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_morrigo"));
    let mut written = BTreeSet::new();
    let mut failures = Vec::new();
    for doc in documents() {
        for b in blocks(&read(&doc)) {
            let mut words = b.info.split_whitespace();
            let lang = words.next().unwrap_or_default();
            for word in words {
                if let Some(name) = word.strip_prefix("file=") {
                    assert!(
                        written.insert(name.to_string()),
                        "{}:{}: `{name}` is written by two blocks",
                        rel(&doc),
                        b.line
                    );
                    let mut text = b.body.join("\n");
                    text.push('\n');
                    std::fs::write(scratch.join(name), text).expect("write a file= block");
                } else if word == "piped" && lang == "console" {
                    if let Err(e) = run_piped(&b, &bin, &scratch) {
                        let failure = format!("{}:{}: {e}", rel(&doc), b.line);
                        eprintln!("{failure}");
                        failures.push(failure);
                    }
                }
            }
        }
    }
    let cases = trycmd::TestCases::new();
    cases.register_bin("morrigo", bin);
    for doc in documents() {
        cases.case(doc);
    }
    cases.run();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs a ```` ```console piped ```` block: one `$ ` command (a shell line),
/// its output (stdout and stderr together) compared line by line, trailing
/// spaces aside, with trycmd's wildcards: `[..]` in a line, `...` for lines.
fn run_piped(b: &Block, bin: &Path, dir: &Path) -> Result<(), String> {
    let (first, expected) = b.body.split_first().ok_or("an empty block")?;
    let command = first
        .strip_prefix("$ ")
        .ok_or("the first line is not a `$ ` command")?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin.parent().expect("the binary's directory").to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    let out = Command::new("sh")
        .args(["-c", &format!("exec 2>&1\n{command}")])
        .env("PATH", std::env::join_paths(dirs).expect("a PATH"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("sh: {e}"))?;
    let actual = String::from_utf8_lossy(&out.stdout).into_owned();
    let actual_lines: Vec<&str> = actual.trim_end_matches('\n').lines().collect();
    let expected_lines: Vec<&str> = expected.iter().map(String::as_str).collect();
    if !out.status.success() || !lines_match(&expected_lines, &actual_lines) {
        let expected = expected.join("\n");
        return Err(format!(
            "`{command}` ({})\n--- expected\n{expected}\n--- actual\n{actual}",
            out.status
        ));
    }
    Ok(())
}

/// `expected` matches `actual`: line by line, trailing spaces aside; a line
/// `...` matches any number of lines, `[..]` any text within a line.
fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|k| lines_match(rest, &actual[k..])),
        Some((line, rest)) => {
            !actual.is_empty()
                && line_matches(line.trim_end(), actual[0].trim_end())
                && lines_match(rest, &actual[1..])
        }
    }
}

fn line_matches(pattern: &str, line: &str) -> bool {
    match pattern.split_once("[..]") {
        None => pattern == line,
        Some((head, tail)) => {
            line.starts_with(head)
                && (head.len()..=line.len())
                    .filter(|&i| line.is_char_boundary(i))
                    .any(|i| line_matches(tail, &line[i..]))
        }
    }
}
