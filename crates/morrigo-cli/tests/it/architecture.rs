//! The workspace's shape, read from its sources (`crates/*/src`): no
//! import circle between two modules of a crate, and no function longer
//! than [`MAX_FN_LINES`] lines but the few listed in [`LONG_FUNCTIONS`].
//!
//! A module is a file, found from a crate root (`lib.rs`, `main.rs`,
//! `bin/*.rs`) by its `mod` declarations. Module A imports module B when
//! A's file names `crate::B…`, `$crate::B…` or `super::B…` (in a `use`, a
//! path or a macro's tokens; doc links are not names). These rules make
//! the graph sound without being noisy:
//! - a module owns its children: the parent names them freely (declaring
//!   `mod x;`, re-exporting, calling into them) and that is no edge; a
//!   child naming its parent's items (`super::T`, `crate::parent::T`) is
//!   an edge child → parent, so children depend on their parent and never
//!   the other way round;
//! - a name re-exported by a `use` (`crate::Machine` for `pub use
//!   machine::Machine` in `lib.rs`) counts as naming the module that
//!   defines it, so re-exports cannot hide a circle;
//! - a path with no `crate`/`super` in front reaches only the module's own
//!   children, other crates, or names its `use`s brought in (counted there);
//! - test modules inside a file count as that file: a test reaching into
//!   a module that imports the file is a circle too;
//! - a method call is no name: `impl` blocks of one type in several
//!   modules call each other's methods without importing anything, and
//!   that is not seen (nor is it an import).
//!
//! A function's length runs from its `fn` line to its closing brace
//! (attributes and doc comments excluded); it is named by the inline
//! modules, `impl` type or trait and functions around it.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The longest a function may be, from its `fn` line to its closing brace.
const MAX_FN_LINES: usize = 120;

/// The functions over [`MAX_FN_LINES`] allowed: file (under `crates/`),
/// function, its length in lines (none today: the last three were split).
/// The list only shrinks: the test fails when one of these grows, changes
/// length or is short enough to leave it.
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[];

/// No two modules of a crate import each other, directly or through others.
#[test]
fn no_module_import_cycles() {
    let cycles: Vec<String> = crate_trees()
        .iter()
        .flat_map(|tree| {
            let graph = import_graph(tree);
            import_cycles(&graph)
                .into_iter()
                .map(move |cycle| format!("{}: {}", tree.name, cycle.join(" -> ")))
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "module import cycles (see the rules at the top of tests/it/architecture.rs):\n{}",
        cycles.join("\n")
    );
}

/// No function is longer than [`MAX_FN_LINES`] lines, but the listed ones,
/// whose lengths the list states exactly.
#[test]
fn no_function_over_the_length_limit() {
    let found: BTreeMap<(String, String), usize> = crate_trees()
        .iter()
        .flat_map(|tree| &tree.modules)
        .flat_map(|m| long_functions(&m.file, &m.source))
        .collect();
    let problems = length_list_problems(&found);
    assert!(
        problems.is_empty(),
        "functions over {MAX_FN_LINES} lines (split them; `LONG_FUNCTIONS` in \
         tests/it/architecture.rs lists today's exceptions):\n{}",
        problems.join("\n")
    );
}

/// The import reader follows the rules above, on a made-up crate: `use`
/// groups, names in macros, `super` from a child file and from an inline
/// test module, a re-export, a parent naming its child, and a circle.
/// Every crate root forbids unsafe code, or denies it so that only the
/// items that allow it (FFI, an allocator) may have any.
#[test]
fn every_crate_keeps_unsafe_code_out_or_fenced() {
    let open = crate_roots_without(&["#![forbid(unsafe_code)]", "#![deny(unsafe_code)]"]);
    assert!(
        open.is_empty(),
        "crate roots without #![forbid(unsafe_code)] or #![deny(unsafe_code)]: {open:?}"
    );
}

/// Every crate root asks for its public items to be documented (clippy
/// runs with `-D warnings`, so an undocumented item fails the lint step).
#[test]
fn every_crate_documents_its_public_items() {
    let open = crate_roots_without(&["#![warn(missing_docs)]", "#![deny(missing_docs)]"]);
    assert!(
        open.is_empty(),
        "crate roots without #![warn(missing_docs)]: {open:?}"
    );
}

/// A library built without its test harness (`[lib] test = false`, which
/// spares a cold `cargo test` a second compile of the crate) has no unit
/// test: one added there would never run.
#[test]
fn a_library_without_a_test_harness_has_no_unit_tests() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for entry in std::fs::read_dir(&crates).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let no_harness = manifest
            .split("\n[")
            .filter(|section| section.starts_with("lib]"))
            .any(|lib| lib.lines().any(|l| l.replace(' ', "") == "test=false"));
        if !no_harness {
            continue;
        }
        checked += 1;
        let mut dirs = vec![dir.join("src")];
        while let Some(d) = dirs.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let file = entry.unwrap().path();
                if file.is_dir() {
                    dirs.push(file);
                    continue;
                }
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                assert!(
                !text.contains("#[test]") && !text.contains("#[cfg(test)]"),
                "{} has unit tests, but its crate's library is built with `test = false`: move them to tests/ or drop the setting",
                    file.display()
                );
            }
        }
    }
    assert!(
        checked > 0,
        "morrigo-web sets `test = false`: the check must see it"
    );
}

/// The crate roots (`crates/*/src/lib.rs`, `main.rs`) with none of these
/// inner attributes on a line of their own.
fn crate_roots_without(attributes: &[&str]) -> Vec<String> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut open = Vec::new();
    for entry in std::fs::read_dir(&crates).expect("crates/") {
        let src = entry.expect("a crate").path().join("src");
        for root in ["lib.rs", "main.rs"] {
            let Ok(text) = std::fs::read_to_string(src.join(root)) else {
                continue;
            };
            if !text.lines().any(|l| attributes.contains(&l.trim())) {
                open.push(file_under_crates(&src.join(root)));
            }
        }
    }
    open.sort();
    open
}

#[test]
fn import_reader_follows_the_rules() {
    let module = |path: &str, source: &str| {
        let file = PathBuf::from(format!("{path}.rs"));
        Module {
            path: path
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
            tokens: tokens_of(&file, source),
            file,
            source: source.to_string(),
        }
    };
    let tree = Tree {
        name: "example".into(),
        modules: vec![
            module("", "mod a; mod b; mod c; mod d; mod e; pub use b::Thing;"),
            module(
                "a",
                "use crate::{b::X, c::{self, Y}}; fn f() { println!(\"{}\", crate::d::Z); }
                 #[cfg(test)] mod tests { use super::*; }",
            ),
            module("b", "mod inner; pub struct Thing; fn g() { inner::h() }"),
            module("b::inner", "use super::X; pub fn h() {}"),
            module("c", "pub fn f() -> crate::Thing { todo!() }"),
            module("d", "use crate::e::E;"),
            module("e", "pub(crate) use super::d::D;"),
        ],
    };
    let graph = import_graph(&tree);
    let edges = |m: &str| graph[m].iter().map(String::as_str).collect::<Vec<_>>();
    assert_eq!(edges("crate"), Vec::<&str>::new());
    assert_eq!(edges("a"), ["b", "c", "d"]);
    assert_eq!(edges("b"), Vec::<&str>::new());
    assert_eq!(edges("b::inner"), ["b"]);
    assert_eq!(edges("c"), ["b"]);
    assert_eq!(import_cycles(&graph), [["d", "e", "d"]]);
}

/// Print every crate's module imports (`cargo test -p morrigo-cli --test
/// it architecture::print -- --ignored --nocapture`), to see the layers.
#[test]
#[ignore]
fn print_module_imports() {
    for tree in crate_trees() {
        println!("{}", tree.name);
        for (from, to) in import_graph(&tree) {
            if !to.is_empty() {
                let to: Vec<&str> = to.iter().map(String::as_str).collect();
                println!("  {from} -> {}", to.join(", "));
            }
        }
    }
}

/// One compiled unit (a library or a binary) and its module files.
struct Tree {
    name: String,
    modules: Vec<Module>,
}

struct Module {
    /// Path from the crate root (empty for the root itself).
    path: Vec<String>,
    file: PathBuf,
    source: String,
    tokens: Vec<TokenTree>,
}

fn module_name(path: &[String]) -> String {
    if path.is_empty() {
        "crate".to_string()
    } else {
        path.join("::")
    }
}

/// Every library and binary under `crates/*/src`, with its modules.
fn crate_trees() -> Vec<Tree> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&crates)
        .expect("crates/ is readable")
        .map(|e| e.expect("a crates/ entry").path())
        .filter(|d| d.join("src").is_dir())
        .collect();
    dirs.sort();
    let mut trees = Vec::new();
    for dir in dirs {
        let krate = dir.file_name().unwrap().to_string_lossy().into_owned();
        let src = dir.join("src");
        for (root, name) in crate_roots(&src, &krate) {
            let mut modules = Vec::new();
            collect_modules(&root, Vec::new(), true, &mut modules);
            trees.push(Tree { name, modules });
        }
    }
    trees
}

/// The crate root files under `src`, each with the name reports give it.
fn crate_roots(src: &Path, krate: &str) -> Vec<(PathBuf, String)> {
    let mut roots = Vec::new();
    if src.join("lib.rs").is_file() {
        roots.push((src.join("lib.rs"), krate.to_string()));
    }
    if src.join("main.rs").is_file() {
        let name = if roots.is_empty() {
            krate.to_string()
        } else {
            format!("{krate} (main.rs)")
        };
        roots.push((src.join("main.rs"), name));
    }
    if let Ok(bins) = std::fs::read_dir(src.join("bin")) {
        let mut bins: Vec<PathBuf> = bins.map(|e| e.expect("a bin/ entry").path()).collect();
        bins.sort();
        for bin in bins {
            let main = if bin.is_dir() {
                bin.join("main.rs")
            } else {
                bin.clone()
            };
            let name = bin.file_stem().unwrap().to_string_lossy().into_owned();
            roots.push((main, format!("{krate} (bin {name})")));
        }
    }
    roots
}

/// Read `file` as module `path` and, through its `mod x;` declarations,
/// every module below it. `owns_dir`: its children live beside it (a root
/// or a `mod.rs`), not in a directory named after it.
fn collect_modules(file: &Path, path: Vec<String>, owns_dir: bool, out: &mut Vec<Module>) {
    let source = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("{} is readable: {e}", file.display()));
    let tokens = tokens_of(file, &source);
    let here = file.parent().unwrap();
    let dir = if owns_dir {
        here.to_path_buf()
    } else {
        here.join(file.file_stem().unwrap())
    };
    for decl in module_declarations(&tokens) {
        let (child_file, child_owns_dir) = match decl.path_attr {
            // `#[path]` outside an inline module is relative to this file's directory.
            Some(p) => (here.join(p), true),
            None => {
                let flat = dir.join(format!("{}.rs", decl.name));
                if flat.is_file() {
                    (flat, false)
                } else {
                    (dir.join(&decl.name).join("mod.rs"), true)
                }
            }
        };
        let mut child = path.clone();
        child.push(decl.name);
        collect_modules(&child_file, child, child_owns_dir, out);
    }
    out.push(Module {
        path,
        file: file.to_path_buf(),
        source,
        tokens,
    });
}

fn tokens_of(file: &Path, source: &str) -> Vec<TokenTree> {
    let stream: TokenStream = source
        .parse()
        .unwrap_or_else(|e| panic!("{} lexes: {e:?}", file.display()));
    stream.into_iter().collect()
}

/// A `mod name;` declaration (not an inline `mod name { … }`).
struct ModDecl {
    name: String,
    path_attr: Option<String>,
}

/// The file modules a file declares at its top level.
fn module_declarations(tokens: &[TokenTree]) -> Vec<ModDecl> {
    let mut decls = Vec::new();
    let mut path_attr = None;
    for (i, t) in tokens.iter().enumerate() {
        if let Some(p) = path_attribute(tokens, i) {
            path_attr = Some(p);
        }
        if is_ident(t, "mod") {
            if let (Some(TokenTree::Ident(name)), Some(TokenTree::Punct(semi))) =
                (tokens.get(i + 1), tokens.get(i + 2))
            {
                if semi.as_char() == ';' {
                    decls.push(ModDecl {
                        name: name.to_string(),
                        path_attr: path_attr.take(),
                    });
                }
            }
        }
        if matches!(t, TokenTree::Punct(p) if p.as_char() == ';')
            || matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace)
        {
            path_attr = None;
        }
    }
    decls
}

/// The file a `#[path = "…"]` attribute at `tokens[i]` names.
fn path_attribute(tokens: &[TokenTree], i: usize) -> Option<String> {
    let (TokenTree::Punct(hash), Some(TokenTree::Group(g))) = (&tokens[i], tokens.get(i + 1))
    else {
        return None;
    };
    if hash.as_char() != '#' || g.delimiter() != Delimiter::Bracket {
        return None;
    }
    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
    match inner.as_slice() {
        [TokenTree::Ident(path), TokenTree::Punct(eq), TokenTree::Literal(lit)]
            if path == "path" && eq.as_char() == '=' =>
        {
            Some(lit.to_string().trim_matches('"').to_string())
        }
        _ => None,
    }
}

fn is_ident(t: &TokenTree, name: &str) -> bool {
    matches!(t, TokenTree::Ident(i) if i == name)
}

/// Whether `tokens[i..]` starts with `::`.
fn is_path_sep(tokens: &[TokenTree], i: usize) -> bool {
    matches!(
        (tokens.get(i), tokens.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

/// A path a module names, made absolute (from the crate root).
struct Named {
    path: Vec<String>,
    /// The name a `use` brings in (its alias or last segment), for a
    /// top-level `use`; `None` for other paths and globs.
    binds: Option<String>,
}

/// What a module's tokens name: every `crate::`/`super::`/`self::` path
/// (`scope` is the module's path, grown by inline `mod` blocks), and the
/// names its top-level `use`s bind.
fn named_paths(tokens: &[TokenTree], scope: &[String], top: bool, out: &mut Vec<Named>) {
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if let (true, Some(TokenTree::Ident(name)), Some(TokenTree::Group(body))) =
            (is_ident(t, "mod"), tokens.get(i + 1), tokens.get(i + 2))
        {
            if body.delimiter() == Delimiter::Brace {
                let mut inner = scope.to_vec();
                inner.push(name.to_string());
                let body: Vec<TokenTree> = body.stream().into_iter().collect();
                named_paths(&body, &inner, false, out);
                i += 3;
                continue;
            }
        }
        if top && is_ident(t, "use") {
            // A relative `use` (no `crate`/`super` in front) starts at this module.
            let start = i + 1 + 2 * usize::from(is_path_sep(tokens, i + 1));
            if !matches!(tokens.get(start), Some(TokenTree::Ident(s))
                if s == "crate" || s == "super" || s == "self")
            {
                let mut found = Vec::new();
                i = use_tree(tokens, start, scope.to_vec(), &mut found);
                out.extend(found);
                continue;
            }
            i += 1;
            let mut found = Vec::new();
            i = anchored_path(tokens, i, scope, &mut found).unwrap_or(i);
            out.extend(found);
            continue;
        }
        if let TokenTree::Group(g) = t {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            named_paths(&inner, scope, false, out);
            i += 1;
            continue;
        }
        let preceded_by_sep = i >= 2 && is_path_sep(tokens, i - 2);
        if !preceded_by_sep {
            let mut found = Vec::new();
            if let Some(next) = anchored_path(tokens, i, scope, &mut found) {
                out.extend(found.into_iter().map(|n| Named {
                    path: n.path,
                    binds: None,
                }));
                i = next;
                continue;
            }
        }
        i += 1;
    }
}

/// The path at `tokens[i]` if it starts with `crate::`, `super::` or
/// `self::` (the index after it), made absolute.
fn anchored_path(
    tokens: &[TokenTree],
    mut i: usize,
    scope: &[String],
    out: &mut Vec<Named>,
) -> Option<usize> {
    let mut base = match tokens.get(i) {
        Some(t) if is_ident(t, "crate") => Vec::new(),
        Some(t) if is_ident(t, "self") => scope.to_vec(),
        Some(t) if is_ident(t, "super") => scope[..scope.len().saturating_sub(1)].to_vec(),
        _ => return None,
    };
    if !is_path_sep(tokens, i + 1) {
        return None;
    }
    i += 3;
    while tokens.get(i).is_some_and(|t| is_ident(t, "super")) && is_path_sep(tokens, i + 1) {
        base.pop();
        i += 3;
    }
    Some(use_tree(tokens, i, base, out))
}

/// A path or use tree at `tokens[i]` below `prefix`: the paths it names
/// (each branch of a `{…}` group), and the index after it.
fn use_tree(
    tokens: &[TokenTree],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Named>,
) -> usize {
    loop {
        match tokens.get(i) {
            Some(TokenTree::Ident(seg)) if seg == "self" => {
                let binds = prefix.last().cloned();
                out.push(Named {
                    path: prefix,
                    binds,
                });
                return i + 1;
            }
            Some(TokenTree::Ident(seg)) => {
                prefix.push(seg.to_string());
                i += 1;
                if is_path_sep(tokens, i) {
                    i += 2;
                    continue;
                }
                let binds = match (tokens.get(i), tokens.get(i + 1)) {
                    (Some(a), Some(TokenTree::Ident(alias))) if is_ident(a, "as") => {
                        i += 2;
                        Some(alias.to_string())
                    }
                    _ => Some(seg.to_string()),
                };
                out.push(Named {
                    path: prefix,
                    binds,
                });
                return i;
            }
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                for branch in
                    inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                {
                    if !branch.is_empty() {
                        use_tree(branch, 0, prefix.clone(), out);
                    }
                }
                return i + 1;
            }
            // A glob, generic arguments or the end: the prefix is what is named.
            _ => {
                out.push(Named {
                    path: prefix,
                    binds: None,
                });
                return i;
            }
        }
    }
}

/// Each module's imports: the other modules it names, children excepted.
fn import_graph(tree: &Tree) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<Vec<String>> = tree.modules.iter().map(|m| m.path.clone()).collect();
    let named: BTreeMap<&Vec<String>, Vec<Named>> = tree
        .modules
        .iter()
        .map(|m| {
            let mut out = Vec::new();
            named_paths(&m.tokens, &m.path, true, &mut out);
            (&m.path, out)
        })
        .collect();
    // What each module's top-level `use`s bind, to follow re-exports.
    let bindings: BTreeMap<&Vec<String>, BTreeMap<&str, &Vec<String>>> = named
        .iter()
        .map(|(m, ns)| {
            let binds = ns
                .iter()
                .filter_map(|n| Some((n.binds.as_deref()?, &n.path)))
                .collect();
            (*m, binds)
        })
        .collect();
    let mut graph = BTreeMap::new();
    for (module, ns) in &named {
        let edges: BTreeSet<String> = ns
            .iter()
            .map(|n| defining_module(&n.path, &modules, &bindings, 0))
            .filter(|target| !target.starts_with(module))
            .map(|target| module_name(&target))
            .collect();
        graph.insert(module_name(module), edges);
    }
    graph
}

/// The module a path reaches: its longest prefix that is a module, or,
/// when that module only re-exports the next name, the module that name
/// comes from.
fn defining_module(
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
    bindings: &BTreeMap<&Vec<String>, BTreeMap<&str, &Vec<String>>>,
    depth: usize,
) -> Vec<String> {
    let len = (0..=path.len())
        .rev()
        .find(|&k| modules.contains(&path[..k]))
        .unwrap_or(0);
    let module = path[..len].to_vec();
    let reexport = path
        .get(len)
        .and_then(|name| bindings.get(&module)?.get(name.as_str()));
    match reexport {
        Some(target) if depth < 8 && target.as_slice() != path => {
            let mut through = target.to_vec();
            through.extend_from_slice(&path[len + 1..]);
            defining_module(&through, modules, bindings, depth + 1)
        }
        _ => module,
    }
}

/// One cycle through each module of every strongly connected component
/// (the shortest from it), each starting at its least module, no repeats.
fn import_cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut cycles = BTreeSet::new();
    for component in strongly_connected(graph)
        .into_iter()
        .filter(|c| c.len() > 1)
    {
        for start in &component {
            if let Some(cycle) = shortest_cycle(graph, start, &component) {
                cycles.insert(rotated_to_least(cycle));
            }
        }
    }
    cycles.into_iter().collect()
}

/// Tarjan's strongly connected components.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<BTreeSet<String>>,
    }
    fn visit<'g>(w: &mut Walk<'g>, v: &'g str) {
        let i = w.index.len();
        w.index.insert(v, i);
        w.low.insert(v, i);
        w.stack.push(v);
        w.on_stack.insert(v);
        let graph = w.graph;
        for u in graph.get(v).into_iter().flatten() {
            if !w.index.contains_key(u.as_str()) {
                visit(w, u);
                let low = w.low[v].min(w.low[u.as_str()]);
                w.low.insert(v, low);
            } else if w.on_stack.contains(u.as_str()) {
                let low = w.low[v].min(w.index[u.as_str()]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = BTreeSet::new();
            while let Some(u) = w.stack.pop() {
                w.on_stack.remove(u);
                component.insert(u.to_string());
                if u == v {
                    break;
                }
            }
            w.found.push(component);
        }
    }
    let mut w = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found
}

/// The shortest path from `start` back to it inside `within` (breadth first).
fn shortest_cycle(
    graph: &BTreeMap<String, BTreeSet<String>>,
    start: &str,
    within: &BTreeSet<String>,
) -> Option<Vec<String>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for u in graph
            .get(v)
            .into_iter()
            .flatten()
            .filter(|u| within.contains(*u))
        {
            if u == start {
                let mut cycle = vec![start.to_string()];
                let mut at = v;
                while at != start {
                    cycle.push(at.to_string());
                    at = came_from[at];
                }
                cycle[1..].reverse();
                cycle.push(start.to_string());
                return Some(cycle);
            }
            if !came_from.contains_key(u.as_str()) {
                came_from.insert(u, v);
                queue.push_back(u);
            }
        }
    }
    None
}

/// A cycle `a -> … -> a` restarted at its least module.
fn rotated_to_least(mut cycle: Vec<String>) -> Vec<String> {
    cycle.pop();
    let least = (0..cycle.len()).min_by_key(|&k| &cycle[k]).unwrap_or(0);
    cycle.rotate_left(least);
    cycle.push(cycle[0].clone());
    cycle
}

/// The functions of a file longer than [`MAX_FN_LINES`]: (file under
/// `crates/`, qualified name) and length.
fn long_functions(file: &Path, source: &str) -> Vec<((String, String), usize)> {
    let parsed =
        syn::parse_file(source).unwrap_or_else(|e| panic!("{} parses: {e}", file.display()));
    let mut lengths = FunctionLengths::default();
    lengths.visit_file(&parsed);
    let shown = file_under_crates(file);
    lengths
        .found
        .into_iter()
        .filter(|(_, lines)| *lines > MAX_FN_LINES)
        .map(|(name, lines)| ((shown.clone(), name), lines))
        .collect()
}

fn file_under_crates(file: &Path) -> String {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let relative = file.strip_prefix(&crates).unwrap_or(file);
    relative.to_string_lossy().replace('\\', "/")
}

/// Every function's length (`fn` line to closing brace), named by the
/// inline modules, impl or trait and functions around it.
#[derive(Default)]
struct FunctionLengths {
    around: Vec<String>,
    found: Vec<(String, usize)>,
}

impl FunctionLengths {
    fn record(&mut self, name: &syn::Ident, fn_token: &syn::Token![fn], block: &syn::Block) {
        let first = fn_token.span.start().line;
        let last = block.brace_token.span.close().end().line;
        let mut qualified = self.around.clone();
        qualified.push(name.to_string());
        self.found.push((qualified.join("::"), last + 1 - first));
    }

    fn enter(&mut self, name: String) {
        self.around.push(name);
    }

    fn leave(&mut self) {
        self.around.pop();
    }
}

impl<'ast> Visit<'ast> for FunctionLengths {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.record(&f.sig.ident, &f.sig.fn_token, &f.block);
        self.enter(f.sig.ident.to_string());
        syn::visit::visit_item_fn(self, f);
        self.leave();
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.record(&f.sig.ident, &f.sig.fn_token, &f.block);
        self.enter(f.sig.ident.to_string());
        syn::visit::visit_impl_item_fn(self, f);
        self.leave();
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.record(&f.sig.ident, &f.sig.fn_token, block);
        }
        self.enter(f.sig.ident.to_string());
        syn::visit::visit_trait_item_fn(self, f);
        self.leave();
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let name = match &*i.self_ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        self.enter(name.unwrap_or_else(|| "impl".into()));
        syn::visit::visit_item_impl(self, i);
        self.leave();
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.enter(t.ident.to_string());
        syn::visit::visit_item_trait(self, t);
        self.leave();
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.enter(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.leave();
    }
}

/// Where the functions found over the limit and [`LONG_FUNCTIONS`] disagree.
fn length_list_problems(found: &BTreeMap<(String, String), usize>) -> Vec<String> {
    let listed: BTreeMap<(String, String), usize> = LONG_FUNCTIONS
        .iter()
        .map(|&(file, name, lines)| ((file.to_string(), name.to_string()), lines))
        .collect();
    let mut problems = Vec::new();
    for ((file, name), &lines) in found {
        match listed.get(&(file.clone(), name.clone())) {
            None => problems.push(format!("{file}: {name} has {lines} lines")),
            Some(&was) if was != lines => problems.push(format!(
                "{file}: {name} has {lines} lines, listed with {was}: {}",
                if lines > was {
                    "shorten it"
                } else {
                    "update the list"
                }
            )),
            Some(_) => {}
        }
    }
    for ((file, name), was) in &listed {
        if !found.contains_key(&(file.clone(), name.clone())) {
            problems.push(format!(
                "{file}: {name} (listed with {was} lines) is no longer over \
                 {MAX_FN_LINES} lines: take it off the list"
            ));
        }
    }
    problems
}
