//! A tiny board text format for tests, so names carry real source locations:
//!
//! ```text
//! nodes: a b c
//! edges: a-b b-c
//! lines: a-b-c
//! ```

use morrigo_board::{BoardSpec, Named};
use morrigo_diag::SourceFile;

pub fn explicit(text: &str) -> BoardSpec {
    let file = SourceFile::new("board.txt", text);
    let (mut nodes, mut edges, mut lines) = (Vec::new(), Vec::new(), Vec::new());
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let (key, rest) = line.split_once(':').unwrap_or(("", ""));
        let base = start + key.len() + 1;
        for (offset, token) in words(rest) {
            let parts = dashed(&file, token, base + offset);
            match key {
                "nodes" => nodes.extend(parts.into_iter().map(|n| (n, None))),
                "edges" => {
                    let [a, b]: [Named; 2] = parts.try_into().expect("edge is a-b");
                    edges.push((a, b));
                }
                "lines" => lines.push(parts),
                _ => panic!("unknown key {key:?}"),
            }
        }
        start += line.len();
    }
    BoardSpec::Explicit {
        nodes,
        edges,
        lines,
    }
}

/// Whitespace-separated words with their byte offsets.
fn words(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut begin = None;
    for (i, c) in s.char_indices().chain(std::iter::once((s.len(), ' '))) {
        match (c.is_whitespace(), begin) {
            (true, Some(b)) => {
                out.push((b, &s[b..i]));
                begin = None;
            }
            (false, None) => begin = Some(i),
            _ => {}
        }
    }
    out
}

/// `a-b-c` split at dashes, each name located in the file.
fn dashed(file: &SourceFile, token: &str, at: usize) -> Vec<Named> {
    let mut offset = at;
    token
        .split('-')
        .map(|name| {
            let named = Named::located(name, file.location(offset));
            offset += name.len() + 1;
            named
        })
        .collect()
}
