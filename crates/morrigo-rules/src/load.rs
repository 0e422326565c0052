//! Reading ruleset files: the one place that touches YAML.
//!
//! A ruleset may `extends:` a parent (a built-in name or a relative path). The
//! chain is merged as YAML values — mappings merge key by key, a `null` value
//! deletes the parent's entry, anything else replaces it — and only then
//! deserialized. Each file is also deserialized on its own first, because
//! serde_yaml reports line and column only when it reads text.

use crate::builtin;
use crate::schema::RulesetFile;
use morrigo_diag::{Diagnostic, Location, SourceFile};
use serde_yaml::{Mapping, Value};
use std::path::{Path, PathBuf};

/// A ruleset file with its `extends` chain resolved and merged.
#[derive(Debug)]
pub struct Loaded {
    /// The file itself first, then its parent, grandparent…
    pub chain: Vec<SourceFile>,
    pub file: RulesetFile,
    /// The merged YAML, kept so command-line overrides can merge on top.
    merged: Value,
}

/// Command-line changes to a ruleset (`--size 7x5`, `--komi 6.5`), merged on
/// top of the file like one more variant.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overrides {
    /// Grid width and height.
    pub size: Option<(u32, u32)>,
    pub komi: Option<f64>,
}

impl Overrides {
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

/// Apply command-line overrides to a loaded ruleset.
pub fn with_overrides(loaded: Loaded, o: &Overrides) -> Result<Loaded, Diagnostic> {
    if o.is_empty() {
        return Ok(loaded);
    }
    let mut layer = Mapping::new();
    if let Some((w, h)) = o.size {
        if loaded
            .merged
            .get("board")
            .and_then(|b| b.get("grid"))
            .is_none()
        {
            return Err(Diagnostic::new(format!(
                "--size applies to grid boards, and ruleset `{}` has another board",
                loaded.file.name.clone().unwrap_or_default()
            ))
            .expected("a ruleset whose board is `grid:`"));
        }
        let grid: Value = serde_yaml::from_str(&format!("{{ width: {w}, height: {h} }}"))
            .expect("a literal mapping parses");
        let mut board = Mapping::new();
        board.insert("grid".into(), grid);
        layer.insert("board".into(), Value::Mapping(board));
    }
    if let Some(komi) = o.komi {
        if loaded.merged.get("scoring").is_none() {
            return Err(Diagnostic::new(format!(
                "--komi applies to rulesets that count the game, and `{}` has no `scoring`",
                loaded.file.name.clone().unwrap_or_default()
            ))
            .expected("a ruleset with a `scoring:` section"));
        }
        let mut scoring = Mapping::new();
        scoring.insert("komi".into(), Value::from(komi));
        layer.insert("scoring".into(), Value::Mapping(scoring));
    }
    let mut merged = loaded.merged;
    merge(&mut merged, Value::Mapping(layer));
    let file: RulesetFile = serde_yaml::from_value(merged.clone()).map_err(|e| {
        Diagnostic::new(format!(
            "after the command-line overrides: {}",
            clean_message(&e)
        ))
    })?;
    Ok(Loaded {
        chain: loaded.chain,
        file,
        merged,
    })
}

impl Loaded {
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
        return load_chain(Origin::File(path.to_path_buf()));
    }
    match builtin::find(spec) {
        Some(b) => load_chain(Origin::Builtin(b.path)),
        None => Err(Diagnostic::new(format!(
            "no ruleset file or built-in ruleset named `{spec}`"
        ))
        .expected("a path to a .yaml file or a built-in name")
        .note(format!(
            "built-in rulesets: {}",
            builtin::names().join(", ")
        ))),
    }
}

/// Load ruleset text held in memory (tests, scenarios with inline rules).
pub fn load_text(name: &str, text: &str) -> Result<Loaded, Diagnostic> {
    let source = SourceFile::new(name, text);
    let (value, parent) = read_one(&source)?;
    let parent_origin = parent
        .map(|p| resolve_parent(&source, None, &p))
        .transpose()?;
    finish(vec![(source, value)], parent_origin)
}

fn load_chain(origin: Origin) -> Result<Loaded, Diagnostic> {
    let source = read_origin(&origin)?;
    let (value, parent) = read_one(&source)?;
    let parent_origin = parent
        .map(|p| resolve_parent(&source, Some(&origin), &p))
        .transpose()?;
    finish(vec![(source, value)], parent_origin)
}

fn finish(
    mut files: Vec<(SourceFile, Value)>,
    mut parent: Option<Origin>,
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
        let (value, grandparent) = read_one(&source)?;
        parent = grandparent
            .map(|p| resolve_parent(&source, Some(&origin), &p))
            .transpose()?;
        files.push((source, value));
    }
    // Merge from the root ancestor down to the file itself.
    let mut merged = Value::Mapping(Mapping::new());
    for (_, value) in files.iter().rev() {
        merge(&mut merged, value.clone());
    }
    if let Value::Mapping(m) = &mut merged {
        m.remove("extends");
    }
    let chain: Vec<SourceFile> = files.into_iter().map(|(s, _)| s).collect();
    let file: RulesetFile = serde_yaml::from_value(merged.clone()).map_err(|e| {
        Diagnostic::new(clean_message(&e))
            .at(chain[0].location(0))
            .note("the error is in the merged `extends` chain")
    })?;
    Ok(Loaded {
        chain,
        file,
        merged,
    })
}

fn read_origin(origin: &Origin) -> Result<SourceFile, Diagnostic> {
    match origin {
        Origin::File(path) => std::fs::read_to_string(path)
            .map(|text| SourceFile::new(path.display().to_string(), text))
            .map_err(|e| Diagnostic::new(format!("cannot read `{}`: {e}", path.display()))),
        Origin::Builtin(path) => {
            let b = builtin::by_path(path)
                .ok_or_else(|| Diagnostic::new(format!("no built-in ruleset `{path}`")))?;
            Ok(SourceFile::new(b.path, b.text))
        }
    }
}

/// Parse one file and check it against the schema (for located errors).
/// Returns the YAML value and the `extends` target, if any.
fn read_one(source: &SourceFile) -> Result<(Value, Option<String>), Diagnostic> {
    let value: Value = parse_yaml(source)?;
    if !value.is_mapping() {
        return Err(Diagnostic::new("a ruleset must be a YAML mapping")
            .at(source.location(0))
            .expected("keys such as `name:`, `board:`, `phases:`"));
    }
    parse_yaml::<RulesetFile>(source)?;
    let parent = value
        .get("extends")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok((value, parent))
}

fn resolve_parent(
    child: &SourceFile,
    origin: Option<&Origin>,
    parent: &str,
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
        None => Err(
            Diagnostic::new(format!("cannot find the parent ruleset `{parent}`"))
                .at(here)
                .expected("a file next to this one or a built-in ruleset name")
                .note(format!(
                    "built-in rulesets: {}",
                    builtin::names().join(", ")
                )),
        ),
    }
}

/// Read any YAML document of the project (rulesets here, scenario files in
/// morrigo-record) with errors located in `source`: the one place that calls
/// serde_yaml.
pub fn parse_yaml<T: serde::de::DeserializeOwned>(source: &SourceFile) -> Result<T, Diagnostic> {
    serde_yaml::from_str(&source.text).map_err(|e| yaml_error(source, &e))
}

/// A serde_yaml error turned into a located diagnostic.
fn yaml_error(source: &SourceFile, e: &serde_yaml::Error) -> Diagnostic {
    let mut d = Diagnostic::new(clean_message(e));
    if let Some(loc) = e.location() {
        let mut offset = source.offset_of(loc.line(), loc.column());
        // An error "at the end" is shown on the last line, not on the empty
        // line after the final newline.
        let text = source.text.trim_end();
        if offset > text.len() {
            offset = text.len();
        }
        d = d.at(source.location(offset));
    }
    d
}

/// serde_yaml appends " at line L column C"; the location is shown separately.
fn clean_message(e: &serde_yaml::Error) -> String {
    let msg = e.to_string();
    match msg.find(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    }
}

/// Merge `child` into `base`: mappings key by key, `null` deletes.
fn merge(base: &mut Value, child: Value) {
    match (base, child) {
        (Value::Mapping(b), Value::Mapping(c)) => {
            for (k, v) in c {
                if v.is_null() {
                    b.remove(&k);
                } else if let Some(existing) = b.get_mut(&k) {
                    merge(existing, v);
                } else {
                    b.insert(k, v);
                }
            }
        }
        (b, c) => *b = c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_overrides_keys_and_null_deletes() {
        let mut base: Value = serde_yaml::from_str("a: {x: 1, y: 2}\nb: [1, 2]\nc: 3").unwrap();
        let child: Value = serde_yaml::from_str("a: {y: null, z: 4}\nb: [9]").unwrap();
        merge(&mut base, child);
        assert_eq!(
            base,
            serde_yaml::from_str::<Value>("a: {x: 1, z: 4}\nb: [9]\nc: 3").unwrap()
        );
    }

    #[test]
    fn merge_keeps_the_parents_key_order() {
        let mut base: Value = serde_yaml::from_str("end: {a: 1, b: 2, c: 3}").unwrap();
        merge(
            &mut base,
            serde_yaml::from_str("end: {b: 5, d: 6}").unwrap(),
        );
        let keys: Vec<_> = base["end"]
            .as_mapping()
            .unwrap()
            .keys()
            .map(|k| k.as_str().unwrap())
            .collect();
        assert_eq!(keys, ["a", "b", "c", "d"]);
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
        assert!(e.message.contains("unknown field `wen`"), "{e}");
        assert!(e.message.contains("`when`"), "{e}");
    }
}
