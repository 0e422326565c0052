//! Reading ruleset files: the one place that touches YAML.
//!
//! A ruleset may `extends:` a parent (a built-in name or a relative path). The
//! chain is merged as located YAML trees ([`crate::yaml`]) — mappings merge
//! key by key in the parent's order, a `null` value deletes the parent's
//! entry, anything else replaces it — and only then deserialized. Every node
//! keeps the file and offset it came from, so an error in an inherited entry
//! points into the parent file.

use crate::builtin;
use crate::schema::RulesetFile;
use crate::yaml::{self, Kind, Node, Pos, Style};
use morrigo_diag::{Diagnostic, Location, SourceFile};
use std::path::{Path, PathBuf};

/// A ruleset file with its `extends` chain resolved and merged.
#[derive(Debug)]
pub struct Loaded {
    /// The file itself first, then its parent, grandparent…
    pub chain: Vec<SourceFile>,
    /// The merged chain, read into the file format.
    pub file: RulesetFile,
    /// The merged YAML, kept so command-line overrides can merge on top and
    /// so the checker can say where each value is written.
    merged: Node,
}

/// Command-line changes to a ruleset (`--size 7x5`, `--komi 6.5`), merged on
/// top of the file like one more variant.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overrides {
    /// Grid width and height.
    pub size: Option<(u32, u32)>,
    /// Komi, replacing `scoring.komi`.
    pub komi: Option<f64>,
}

impl Overrides {
    /// No override is set.
    pub fn is_empty(&self) -> bool {
        self.size.is_none() && self.komi.is_none()
    }

    /// Parse `9` or `7x5` (columns x rows).
    pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
        let parse = |t: &str| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=25).contains(n))
                .ok_or_else(|| format!("`{t}` is not a board dimension from 1 to 25"))
        };
        match text.split_once(['x', 'X']) {
            Some((w, h)) => Ok((parse(w)?, parse(h)?)),
            None => parse(text).map(|n| (n, n)),
        }
    }
}

/// A layer's `name: 4` over a param written `name: { value: 3, min: 0,
/// max: 9 }` below it sets the value and keeps the range: the number
/// becomes `{ value: 4 }` before the merge, which would replace the whole
/// mapping by a number.
fn keep_param_ranges(base: &Node, layer: &mut Node) {
    let Some(declared) = base.get("params") else {
        return;
    };
    let Kind::Map(entries) = &mut layer.kind else {
        return;
    };
    let Some((_, params)) = entries
        .iter_mut()
        .find(|(k, _)| k.as_str() == Some("params"))
    else {
        return;
    };
    let Kind::Map(params) = &mut params.kind else {
        return;
    };
    for (name, value) in params.iter_mut() {
        let ranged = name
            .as_str()
            .and_then(|n| declared.get(n))
            .is_some_and(|p| matches!(p.kind, Kind::Map(_)));
        if ranged && matches!(value.kind, Kind::Scalar { .. }) && !value.is_null() {
            let key = Node {
                pos: value.pos,
                kind: Kind::Scalar {
                    text: "value".to_string(),
                    style: Style::Plain,
                },
            };
            let number = value.clone();
            value.kind = Kind::Map(vec![(key, number)]);
        }
    }
}

/// A value typed on the command line: it has no place in any file.
fn typed(text: String) -> Node {
    Node {
        pos: Pos {
            file: usize::MAX,
            start: 0,
            end: 0,
        },
        kind: Kind::Scalar {
            text,
            style: Style::Plain,
        },
    }
}

fn mapping(entries: Vec<(&str, Node)>) -> Node {
    let mut node = typed(String::new());
    node.kind = Kind::Map(
        entries
            .into_iter()
            .map(|(k, v)| (typed(k.to_string()), v))
            .collect(),
    );
    node
}

/// Apply command-line overrides to a loaded ruleset.
pub fn with_overrides(loaded: Loaded, o: &Overrides) -> Result<Loaded, Diagnostic> {
    if o.is_empty() {
        return Ok(loaded);
    }
    let mut layer = Vec::new();
    if let Some((w, h)) = o.size {
        if loaded.merged.path(&["board", "grid"]).is_none() {
            return Err(Diagnostic::new(format!(
                "--size applies to grid boards, and ruleset `{}` has another board",
                loaded.file.name.clone().unwrap_or_default()
            ))
            .expected("a ruleset whose board is `grid:`"));
        }
        let grid = mapping(vec![
            ("width", typed(w.to_string())),
            ("height", typed(h.to_string())),
        ]);
        layer.push(("board", mapping(vec![("grid", grid)])));
    }
    if let Some(komi) = o.komi {
        if !komi.is_finite() {
            return Err(
                Diagnostic::new(format!("--komi {komi} is not a finite number"))
                    .expected("a number such as 6.5 or -3"),
            );
        }
        if loaded.merged.get("scoring").is_none() {
            return Err(Diagnostic::new(format!(
                "--komi applies to rulesets that count the game, and `{}` has no `scoring`",
                loaded.file.name.clone().unwrap_or_default()
            ))
            .expected("a ruleset with a `scoring:` section"));
        }
        layer.push((
            "scoring",
            mapping(vec![("komi", typed(format!("{komi:?}")))]),
        ));
    }
    let mut merged = loaded.merged;
    yaml::merge(&mut merged, mapping(layer));
    let file: RulesetFile = yaml::from_node(&merged).map_err(|e| {
        let mut d = e.to_diagnostic(&loaded.chain);
        d.message = format!("after the command-line overrides: {}", d.message);
        d
    })?;
    Ok(Loaded {
        chain: loaded.chain,
        file,
        merged,
    })
}

/// Set named numbers of the ruleset's `params:` (a sweep's parameter grid),
/// merged on top like one more variant. A name the ruleset has no param of
/// is refused, with the nearest name and the list of its params.
pub fn with_params(loaded: Loaded, params: &[(String, i64)]) -> Result<Loaded, Diagnostic> {
    if params.is_empty() {
        return Ok(loaded);
    }
    let name = loaded.file.name.clone().unwrap_or_default();
    let known: Vec<&str> = loaded
        .merged
        .get("params")
        .map(|p| p.entries().iter().filter_map(|(k, _)| k.as_str()).collect())
        .unwrap_or_default();
    let mut layer = Vec::new();
    for (key, value) in params {
        if !known.contains(&key.as_str()) {
            let d = Diagnostic::new(format!("ruleset `{name}` has no param `{key}`")).expected(
                if known.is_empty() {
                    "a ruleset with `params:` (this one has none)".to_string()
                } else {
                    format!(
                        "one of its params: {}",
                        known
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                },
            );
            return Err(
                match morrigo_diag::did_you_mean(key, known.iter().copied()) {
                    Some(k) => d.note(format!("did you mean `{k}`?")),
                    None => d,
                },
            );
        }
        layer.push((key.as_str(), typed(value.to_string())));
    }
    let mut merged = loaded.merged;
    let mut layer = mapping(vec![("params", mapping(layer))]);
    keep_param_ranges(&merged, &mut layer);
    yaml::merge(&mut merged, layer);
    let file: RulesetFile = yaml::from_node(&merged).map_err(|e| e.to_diagnostic(&loaded.chain))?;
    Ok(Loaded {
        chain: loaded.chain,
        file,
        merged,
    })
}

impl Loaded {
    /// The ruleset as one self-contained YAML file: its `extends` chain
    /// merged (and any command-line overrides), which reads back to the
    /// same compiled rules.
    pub fn resolved_yaml(&self) -> Result<String, String> {
        let name = self.file.name.as_deref().unwrap_or("ruleset");
        let chain: Vec<&str> = self.chain.iter().map(|s| &*s.name).collect();
        let body = serde_yaml::to_string(&yaml::to_value(&self.merged))
            .map_err(|e| format!("cannot write ruleset `{name}` as YAML: {e}"))?;
        Ok(format!(
            "# {name} resolved: {} merged into one file (`morrigo show --resolved`)\n{body}",
            chain.join(" ← ")
        ))
    }

    /// Where `needle` (a name or a rule's text) is written, searching the
    /// file first and then its parents; `key` narrows the search to lines
    /// that also contain that key when there are several candidates.
    pub fn locate(&self, needle: &str, key: Option<&str>) -> Option<Location> {
        let (source, offset) = self.find(needle, key)?;
        Some(source.location(offset))
    }

    /// Byte offset of `needle` in the file that defines it.
    pub fn find(&self, needle: &str, key: Option<&str>) -> Option<(&SourceFile, usize)> {
        if needle.is_empty() {
            return None;
        }
        for source in &self.chain {
            let text = &*source.text;
            let hits: Vec<usize> = text.match_indices(needle).map(|(i, _)| i).collect();
            let on_key_line = key.and_then(|k| {
                hits.iter().copied().find(|&i| {
                    let start = text[..i].rfind('\n').map_or(0, |n| n + 1);
                    text[start..i].contains(k)
                })
            });
            if let Some(i) = on_key_line.or(hits.first().copied()) {
                return Some((source, i));
            }
        }
        None
    }

    /// The location of the start of the root file (for "missing field" errors).
    pub fn start(&self) -> Location {
        self.chain[0].location(0)
    }

    /// The merged value at a path of keys (`["phases", "moving", "when"]`).
    pub fn node(&self, keys: &[&str]) -> Option<&Node> {
        self.merged.path(keys)
    }

    /// The merged YAML tree.
    pub fn tree(&self) -> &Node {
        &self.merged
    }

    /// The source file a node was read from (none for command-line values).
    pub fn source_of(&self, pos: Pos) -> Option<&SourceFile> {
        self.chain.get(pos.file)
    }

    /// Where a node is written.
    pub fn location(&self, pos: Pos) -> Option<Location> {
        self.source_of(pos).map(|s| s.location(pos.start))
    }

    /// Where the value at a path is written.
    pub fn value_at(&self, keys: &[&str]) -> Option<Location> {
        self.location(self.node(keys)?.pos)
    }

    /// Where the key at the end of a path is written (`params.and` → `and:`).
    pub fn key_at(&self, keys: &[&str]) -> Option<Location> {
        let (last, parent) = keys.split_last()?;
        let (k, _) = self.merged.path(parent)?.entry(last)?;
        self.location(k.pos)
    }
}

/// Where the text of a ruleset comes from.
enum Origin {
    File(PathBuf),
    Builtin(&'static str),
}

/// Load a ruleset by path, or by built-in name when no such file exists.
pub fn load(spec: &str) -> Result<Loaded, Diagnostic> {
    let path = Path::new(spec);
    if path.exists() {
        return load_chain(Origin::File(path.to_path_buf()), None);
    }
    match builtin::find(spec) {
        Some(b) => load_chain(Origin::Builtin(b.path), None),
        None => Err(unknown_builtin_notes(
            Diagnostic::new(format!(
                "no ruleset file or built-in ruleset named `{spec}`"
            ))
            .expected("a path to a .yaml file or a built-in name"),
            spec,
        )),
    }
}

/// The notes of an unknown ruleset name: the nearest built-in, and where
/// the full list is (it is too long to print in every message).
fn unknown_builtin_notes(d: Diagnostic, wrong: &str) -> Diagnostic {
    let d = match morrigo_diag::did_you_mean(wrong, builtin::names()) {
        Some(name) => d.note(format!("did you mean `{name}`?")),
        None => d,
    };
    d.note("`morrigo rulesets` lists the built-in rulesets")
}

/// Load ruleset text held in memory (tests, scenarios with inline rules).
pub fn load_text(name: &str, text: &str) -> Result<Loaded, Diagnostic> {
    let source = SourceFile::new(name, text);
    let (value, parent) = read_one(&source, 0)?;
    let parent_origin = parent
        .map(|p| resolve_parent(&source, None, &p, None))
        .transpose()?;
    finish(vec![(source, value)], parent_origin, None)
}

/// Load ruleset text that stands for the file at `path` (an editor's
/// unsaved buffer): `extends` finds files next to `path`, then built-ins.
pub fn load_text_at(path: &Path, text: &str) -> Result<Loaded, Diagnostic> {
    load_text_confined(path, text, None)
}

/// [`load_text_at`] for a server that must read nothing outside `root`
/// (the playground): `extends` may name a built-in or a file of `root`
/// by its bare name, found after resolving symlinks; anything else is one
/// located refusal, the same whether such a file exists or not.
pub fn load_text_within(path: &Path, text: &str, root: &Path) -> Result<Loaded, Diagnostic> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    load_text_confined(path, text, Some(&root))
}

fn load_text_confined(path: &Path, text: &str, root: Option<&Path>) -> Result<Loaded, Diagnostic> {
    let source = SourceFile::new(path.display().to_string(), text);
    let (value, parent) = read_one(&source, 0)?;
    let origin = Origin::File(path.to_path_buf());
    let parent_origin = parent
        .map(|p| resolve_parent(&source, Some(&origin), &p, root))
        .transpose()?;
    finish(vec![(source, value)], parent_origin, root)
}

/// Load a built-in ruleset (never a file of the same name).
pub fn load_builtin(b: &builtin::Builtin) -> Result<Loaded, Diagnostic> {
    load_chain(Origin::Builtin(b.path), None)
}

fn load_chain(origin: Origin, root: Option<&Path>) -> Result<Loaded, Diagnostic> {
    let source = read_origin(&origin)?;
    let (value, parent) = read_one(&source, 0)?;
    let parent_origin = parent
        .map(|p| resolve_parent(&source, Some(&origin), &p, root))
        .transpose()?;
    finish(vec![(source, value)], parent_origin, root)
}

fn finish(
    mut files: Vec<(SourceFile, Node)>,
    mut parent: Option<Origin>,
    root: Option<&Path>,
) -> Result<Loaded, Diagnostic> {
    while let Some(origin) = parent.take() {
        let source = read_origin(&origin)?;
        if files.iter().any(|(s, _)| s.name == source.name) {
            let names: Vec<&str> = files.iter().map(|(s, _)| &*s.name).collect();
            return Err(Diagnostic::new(format!(
                "`extends` forms a cycle: {} → {}",
                names.join(" → "),
                source.name
            )));
        }
        let (value, grandparent) = read_one(&source, files.len())?;
        parent = grandparent
            .map(|p| resolve_parent(&source, Some(&origin), &p, root))
            .transpose()?;
        files.push((source, value));
    }
    // Merge from the root ancestor down to the file itself.
    let mut values = files.iter().rev().map(|(_, v)| v.clone());
    let mut merged = values.next().expect("at least the file itself");
    for mut value in values {
        keep_param_ranges(&merged, &mut value);
        yaml::merge(&mut merged, value);
    }
    if let Kind::Map(entries) = &mut merged.kind {
        entries.retain(|(k, _)| k.as_str() != Some("extends"));
    }
    let chain: Vec<SourceFile> = files.into_iter().map(|(s, _)| s).collect();
    let file: RulesetFile = yaml::from_node(&merged).map_err(|e| e.to_diagnostic(&chain))?;
    Ok(Loaded {
        chain,
        file,
        merged,
    })
}

fn read_origin(origin: &Origin) -> Result<SourceFile, Diagnostic> {
    match origin {
        Origin::File(path) => morrigo_diag::read_input(path)
            .map(|text| SourceFile::new(path.display().to_string(), text))
            .map_err(Diagnostic::from),
        Origin::Builtin(path) => {
            let b = builtin::by_path(path)
                .ok_or_else(|| Diagnostic::new(format!("no built-in ruleset `{path}`")))?;
            Ok(SourceFile::new(b.path, b.text))
        }
    }
}

/// Parse one file (number `index` in the chain) into a located tree.
/// Returns the tree and the `extends` target, if any.
fn read_one(source: &SourceFile, index: usize) -> Result<(Node, Option<String>), Diagnostic> {
    let value = yaml::parse(source, index)?;
    if !matches!(value.kind, Kind::Map(_)) {
        return Err(Diagnostic::new("a ruleset must be a YAML mapping")
            .at(source.location(value.pos.start))
            .expected("keys such as `name:`, `board:`, `phases:`"));
    }
    let parent = match value.get("extends") {
        None => None,
        Some(n) if n.is_null() => None,
        Some(n) => match &n.kind {
            Kind::Scalar { text, style }
                if *style != Style::Plain || n.describe().starts_with("the string") =>
            {
                Some(text.clone())
            }
            _ => {
                return Err(
                    Diagnostic::new(format!("`extends`: found {}", n.describe()))
                        .at(source.location(n.pos.start))
                        .expected("the name of a built-in ruleset or the path of a ruleset file"),
                )
            }
        },
    };
    Ok((value, parent))
}

fn resolve_parent(
    child: &SourceFile,
    origin: Option<&Origin>,
    parent: &str,
    root: Option<&Path>,
) -> Result<Origin, Diagnostic> {
    let here = child
        .text
        .find(parent)
        .map(|o| child.location(o))
        .unwrap_or_else(|| child.location(0));
    let with_ext = if parent.ends_with(".yaml") || parent.ends_with(".yml") {
        parent.to_string()
    } else {
        format!("{parent}.yaml")
    };
    match origin {
        Some(Origin::File(path)) if root.is_some() => {
            let dir = path.parent().unwrap_or(Path::new("."));
            if let Some(found) = file_within(root.unwrap_or(dir), dir, &with_ext, parent, &here)? {
                return Ok(Origin::File(found));
            }
        }
        Some(Origin::File(path)) => {
            let candidate = path.parent().unwrap_or(Path::new(".")).join(&with_ext);
            if candidate.exists() {
                return Ok(Origin::File(candidate));
            }
        }
        Some(Origin::Builtin(path)) => {
            let dir = Path::new(path).parent().unwrap_or(Path::new(""));
            let candidate = dir.join(&with_ext);
            if let Some(b) = builtin::by_path(&candidate.to_string_lossy()) {
                return Ok(Origin::Builtin(b.path));
            }
        }
        None => {}
    }
    match builtin::find(parent) {
        Some(b) => Ok(Origin::Builtin(b.path)),
        None => Err(unknown_builtin_notes(
            Diagnostic::new(format!("cannot find the parent ruleset `{parent}`"))
                .at(here)
                .expected("a file next to this one or a built-in ruleset name"),
            parent,
        )),
    }
}

/// The parent file `name` of a child in `dir`, confined to `root`
/// (canonical): `Ok(None)` when `dir` has no such entry (the built-ins are
/// tried next). A path (separators, so `..` and absolute ones too), a link that leaves `root`
/// (dangling or not) and anything but a regular file are refused alike,
/// without reading them, unless `extends` names a built-in.
fn file_within(
    root: &Path,
    dir: &Path,
    name: &str,
    written: &str,
    here: &Location,
) -> Result<Option<PathBuf>, Diagnostic> {
    let refuse = || {
        if builtin::find(written).is_some() {
            return Ok(None);
        }
        Err(Diagnostic::new(format!(
            "`extends: {written}` names no built-in ruleset and no file of the ruleset directory"
        ))
        .at(here.clone())
        .expected("a built-in ruleset name or the bare name of a file beside this one, such as `my-base.yaml`")
        .note("this server reads only the files of its ruleset directory (links leading out of it are not followed)"))
    };
    if name.contains(['/', '\\', '\0']) || !dir.starts_with(root) {
        return refuse();
    }
    let candidate = dir.join(name);
    let meta = match std::fs::symlink_metadata(&candidate) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(_) => return refuse(),
    };
    let target = if meta.file_type().is_symlink() {
        match candidate.canonicalize() {
            Ok(t) if t.starts_with(root) => t,
            _ => return refuse(),
        }
    } else {
        candidate
    };
    match std::fs::metadata(&target) {
        Ok(m) if m.is_file() => Ok(Some(target)),
        _ => refuse(),
    }
}

/// Read any YAML document of the project (rulesets here, scenario files in
/// morrigo-record) with errors located in `source`: the one place that
/// reads YAML.
pub fn parse_yaml<T: serde::de::DeserializeOwned>(source: &SourceFile) -> Result<T, Diagnostic> {
    let node = yaml::parse(source, 0)?;
    yaml::from_node(&node).map_err(|e| e.to_diagnostic(std::slice::from_ref(source)))
}

/// [`parse_yaml`] that also gives the located tree, so the caller can
/// point at a value its own checks refuse (a sweep spec's unknown ruleset).
pub fn parse_yaml_located<T: serde::de::DeserializeOwned>(
    source: &SourceFile,
) -> Result<(T, Node), Diagnostic> {
    let node = yaml::parse(source, 0)?;
    let value =
        yaml::from_node(&node).map_err(|e| e.to_diagnostic(std::slice::from_ref(source)))?;
    Ok((value, node))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(loaded: &Loaded, section: &str) -> Vec<String> {
        loaded
            .node(&[section])
            .unwrap()
            .entries()
            .iter()
            .map(|(k, _)| k.as_str().unwrap().to_string())
            .collect()
    }

    /// Deleting an inherited end rule keeps the others in the parent's order
    /// (end rules are checked in order, so order is semantics).
    #[test]
    fn merge_keeps_the_parents_order_when_deleting() {
        let loaded = load_text(
            "child.yaml",
            "extends: nine-mens-morris\nend:\n  too_few_pieces: null\n  extra: { draw: \"false\" }\n",
        )
        .unwrap();
        let parent = load("nine-mens-morris").unwrap();
        let mut expected: Vec<String> = keys(&parent, "end")
            .into_iter()
            .filter(|k| k != "too_few_pieces")
            .collect();
        expected.push("extra".into());
        assert_eq!(keys(&loaded, "end"), expected);
    }

    /// The playground's `extends: /any/path` (or `../x`, or a link out)
    /// read files anywhere and said whether they existed.
    #[cfg(unix)]
    #[test]
    fn extends_within_a_root_reads_nothing_outside_it_and_refuses_alike() {
        let base = std::env::temp_dir().join(format!("morrigo-within-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("rulesets");
        std::fs::create_dir_all(&root).unwrap();
        let secret = base.join("secret.yaml");
        std::fs::write(&secret, "name: secret-line\n").unwrap();
        std::os::unix::fs::symlink(&secret, root.join("link.yaml")).unwrap();
        std::os::unix::fs::symlink(base.join("gone.yaml"), root.join("dangling.yaml")).unwrap();
        std::fs::write(
            root.join("base.yaml"),
            "extends: nine-mens-morris\nname: base\n",
        )
        .unwrap();
        let child = root.join("child.yaml");
        let load = |parent: &str| {
            load_text_within(&child, &format!("extends: {parent}\nname: child\n"), &root)
        };
        let mut messages = Vec::new();
        for parent in [
            secret.display().to_string(),
            base.join("missing.yaml").display().to_string(),
            "../secret".to_string(),
            "../missing".to_string(),
            "link".to_string(),
            "dangling".to_string(),
        ] {
            let e = load(&parent).unwrap_err();
            let text = e.to_string();
            assert!(!text.contains("secret-line"), "{text}");
            assert_eq!(e.location.as_ref().map(|l| l.line), Some(1), "{text}");
            messages.push(e.message.replace(&parent, "X"));
        }
        messages.dedup();
        assert_eq!(messages.len(), 1, "one refusal for all: {messages:?}");
        assert_eq!(load("base").unwrap().chain.len(), 3);
        assert_eq!(load("nine-mens-morris").unwrap().chain.len(), 2);
        // The CLI's loader still reads any path it is given.
        let cli = load_text_at(&child, &format!("extends: {}\n", secret.display())).unwrap();
        assert_eq!(&*cli.chain[1].name, secret.display().to_string());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn an_extends_that_is_not_text_is_a_located_error() {
        let e = load_text("bad.yaml", "name: x\nextends: 5\n").unwrap_err();
        assert_eq!(
            e.location.map(|l| (l.line, l.col)),
            Some((2, 10)),
            "{}",
            e.message
        );
        assert!(e.message.contains("found the number 5"), "{}", e.message);
    }

    #[test]
    fn yaml_syntax_errors_are_located() {
        let e = load_text("bad.yaml", "name: x\nphases: {placing: [\n").unwrap_err();
        let loc = e.location.clone().expect("located");
        assert_eq!(&*loc.file, "bad.yaml");
        assert!(loc.line >= 2, "{e}");
    }

    #[test]
    fn unknown_keys_are_located_and_list_the_expected_ones() {
        let e = load_text(
            "bad.yaml",
            "name: x\nphases:\n  placing:\n    wen: \"true\"\n",
        )
        .unwrap_err();
        let loc = e.location.clone().expect("located");
        assert_eq!((loc.line, loc.col), (4, 5), "{e}");
        assert!(e.message.contains("unknown key `wen`"), "{e}");
        assert!(
            e.expected.as_deref().unwrap_or("").contains("`when`"),
            "{e}"
        );
        assert!(
            e.notes.iter().any(|n| n.contains("did you mean `when`")),
            "{e}"
        );
    }
}
