//! Rulesets shipped inside the binary (everything under `rulesets/`).

/// One embedded ruleset file.
#[derive(Debug, Clone, Copy)]
pub struct Builtin {
    /// File stem, the name users type: `nine-mens-morris`.
    pub name: &'static str,
    /// Path inside the repository: `rulesets/morris/nine-mens-morris.yaml`.
    pub path: &'static str,
    /// The file's text, embedded at build time.
    pub text: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/builtins.rs"));

/// All embedded rulesets, sorted by path.
pub fn all() -> &'static [Builtin] {
    BUILTINS
}

/// Built-ins whose path lies in `rulesets/<family>/`.
pub fn family(family: &str) -> impl Iterator<Item = &'static Builtin> + '_ {
    BUILTINS.iter().filter(move |b| {
        b.path
            .strip_prefix("rulesets/")
            .and_then(|p| p.split_once('/'))
            .is_some_and(|(f, _)| f == family)
    })
}

/// By name (`nine-mens-morris`), family/name (`morris/nine-mens-morris`) or path.
pub fn find(spec: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| {
        b.name == spec
            || b.path == spec
            || b.path
                .strip_prefix("rulesets/")
                .and_then(|p| p.strip_suffix(".yaml"))
                == Some(spec)
    })
}

/// The built-in at repository path `path` (`rulesets/morris/….yaml`).
pub fn by_path(path: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.path == path)
}

/// Every built-in's name, sorted by path.
pub fn names() -> Vec<&'static str> {
    BUILTINS.iter().map(|b| b.name).collect()
}
