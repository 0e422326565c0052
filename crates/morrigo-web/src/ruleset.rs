//! Which ruleset a request is about, and its compiled machine (kept in a
//! small cache: every click replays the record on the same rules).

use crate::error::ApiError;
use crate::AppState;
use morrigo_diag::{Diagnostic, Diagnostics};
use morrigo_engine::{AnyMachine, Game};
use morrigo_rules::load::{self, Overrides};
use morrigo_rules::{builtin, compile};
use serde::Deserialize;
use serde_json::Value;
use std::collections::hash_map::DefaultHasher;
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A ruleset in a request: exactly one of `text` (an editor buffer, named
/// by `name`), `builtin` (a built-in name) or `file` (a file of the ruleset
/// directory); `size` and `komi` as the CLI's `--size` and `--komi`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetRef {
    /// The ruleset's text (an editor buffer).
    pub text: Option<String>,
    /// The buffer's file name, for messages and `extends` (default
    /// `ruleset.yaml`).
    pub name: Option<String>,
    /// A built-in ruleset's name.
    pub builtin: Option<String>,
    /// A file of the ruleset directory.
    pub file: Option<String>,
    /// Grid size, as `--size`: a number or `"7x5"`.
    pub size: Option<Value>,
    /// Komi, as `--komi`.
    pub komi: Option<f64>,
}

/// The name an editor buffer has when the request gives none.
const DEFAULT_NAME: &str = "ruleset.yaml";

/// A ruleset's text and where it stands, before it is loaded.
enum Source {
    /// Text standing in the ruleset directory `root` (a buffer or a file).
    Text {
        path: PathBuf,
        text: String,
        root: PathBuf,
    },
    /// An editor buffer on a server with no directory: `extends` may name
    /// built-ins only.
    Buffer {
        name: String,
        text: String,
    },
    Builtin(&'static builtin::Builtin),
}

impl RulesetRef {
    /// The `size` and `komi` overrides, checked.
    pub fn overrides(&self) -> Result<Overrides, ApiError> {
        let size = match &self.size {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(Overrides::parse_size(s).map_err(ApiError::bad)?),
            Some(Value::Number(n)) => {
                Some(Overrides::parse_size(&n.to_string()).map_err(ApiError::bad)?)
            }
            Some(other) => {
                return Err(ApiError::bad(format!("`size`: found {other}"))
                    .expected("a board size such as 9 or \"7x5\""))
            }
        };
        if let Some(k) = self.komi {
            if !k.is_finite() {
                return Err(ApiError::bad("`komi` is not a finite number"));
            }
        }
        Ok(Overrides {
            size,
            komi: self.komi,
        })
    }

    fn source(&self, state: &AppState) -> Result<Source, ApiError> {
        let given = [
            self.text.is_some(),
            self.builtin.is_some(),
            self.file.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return Err(ApiError::bad(
                "a ruleset is given by exactly one of `text`, `builtin` or `file`",
            ));
        }
        if let Some(text) = &self.text {
            let name = self.name.as_deref().unwrap_or(DEFAULT_NAME);
            check_file_name(name)?;
            // An unsaved buffer stands in the ruleset directory, so that its
            // `extends` finds the files beside it (and no others).
            return Ok(match &state.ruleset_dir {
                Some(dir) => Source::Text {
                    path: dir.join(name),
                    text: text.clone(),
                    root: dir.clone(),
                },
                None => Source::Buffer {
                    name: name.to_string(),
                    text: text.clone(),
                },
            });
        }
        if let Some(name) = &self.builtin {
            return builtin::find(name).map(Source::Builtin).ok_or_else(|| {
                let mut d = Diagnostic::new(format!("no built-in ruleset named `{name}`"))
                    .expected("a name from GET /api/rulesets");
                if let Some(n) = morrigo_diag::did_you_mean(name, builtin::names()) {
                    d = d.note(format!("did you mean `{n}`?"));
                }
                ApiError::diag(&d)
            });
        }
        let file = self.file.as_deref().unwrap_or_default();
        let path = state.dir_file(file, crate::Access::Read)?;
        let text = morrigo_diag::read_input(&path)
            .map_err(|e| ApiError::bad(format!("cannot read `{file}`: {}", e.why)))?;
        let root = state.ruleset_dir.clone().unwrap_or_default();
        Ok(Source::Text { path, text, root })
    }

    /// The compiled machine, from the cache when these rules were compiled
    /// before. A ruleset with errors is `Err` with every diagnostic.
    pub fn machine(&self, state: &AppState) -> Result<Loaded, Compiled> {
        let overrides = self.overrides().map_err(Compiled::Refused)?;
        let source = self.source(state).map_err(Compiled::Refused)?;
        let key = {
            let mut h = DefaultHasher::new();
            match &source {
                Source::Text { path, text, .. } => (0u8, path, text).hash(&mut h),
                Source::Buffer { name, text } => (2u8, name, text).hash(&mut h),
                Source::Builtin(b) => (1u8, b.path).hash(&mut h),
            }
            overrides.size.hash(&mut h);
            overrides.komi.map(f64::to_bits).hash(&mut h);
            h.finish()
        };
        if let Some(machine) = state.machines.get(key) {
            return Ok(Loaded { key, machine });
        }
        let loaded = match &source {
            Source::Text { path, text, root } => load::load_text_within(path, text, root),
            Source::Buffer { name, text } => load::load_text(name, text),
            Source::Builtin(b) => load::load_builtin(b),
        }
        .and_then(|l| load::with_overrides(l, &overrides))
        .map_err(|d| Compiled::Errors(vec![d]))?;
        let rules = compile(&loaded).map_err(|Diagnostics(ds)| Compiled::Errors(ds))?;
        let any = AnyMachine::new(Arc::new(rules)).map_err(|d| Compiled::Errors(vec![d]))?;
        let any = Arc::new(any);
        state.machines.put(key, any.clone());
        Ok(Loaded { key, machine: any })
    }

    /// [`Self::machine`] for routes that need good rules: errors are 400s.
    pub fn load(&self, state: &AppState) -> Result<Loaded, ApiError> {
        self.machine(state).map_err(|c| match c {
            Compiled::Refused(e) => e,
            Compiled::Errors(ds) => ApiError::diags(&ds),
        })
    }
}

/// A compiled ruleset and the key its request is cached by (positions
/// replayed on it are kept under the same key).
#[derive(Clone)]
pub struct Loaded {
    /// The hash of the ruleset's source and overrides.
    pub key: u64,
    /// The compiled machine.
    pub machine: Arc<AnyMachine>,
}

impl Loaded {
    /// The compiled game (a clone of the shared machine's handle).
    pub fn game(&self) -> Game {
        Game::from(self.machine.clone())
    }
}

impl std::ops::Deref for Loaded {
    type Target = AnyMachine;
    fn deref(&self) -> &AnyMachine {
        &self.machine
    }
}

/// Why a ruleset gave no machine.
pub enum Compiled {
    /// The request itself is wrong (no ruleset named, a bad size).
    Refused(ApiError),
    /// The ruleset has errors (check reports them).
    Errors(Vec<Diagnostic>),
}

/// A file name the ruleset directory may hold: one path component,
/// ending in `.yaml` or `.yml`.
pub fn check_file_name(name: &str) -> Result<(), ApiError> {
    let ok = !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && (name.ends_with(".yaml") || name.ends_with(".yml"));
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad(format!("`{name}` is not a ruleset file name"))
            .expected("a name of letters, digits, `-`, `_` and `.` ending in `.yaml`, such as `my-variant.yaml`"))
    }
}

/// The most compiled rulesets kept (MACHINE_CACHE); the oldest goes first.
pub const MACHINE_CACHE: usize = 16;

/// Compiled rulesets by a key of their request, newest last (at most
/// MACHINE_CACHE).
#[derive(Default)]
pub struct MachineCache(Mutex<VecDeque<(u64, Arc<AnyMachine>)>>);

impl MachineCache {
    fn get(&self, key: u64) -> Option<Arc<AnyMachine>> {
        let cache = self.0.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, m)| m.clone())
    }

    fn put(&self, key: u64, m: Arc<AnyMachine>) {
        let mut cache = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= MACHINE_CACHE {
            cache.pop_front();
        }
        cache.push_back((key, m));
    }

    /// Forget everything (a saved file may be another one's parent).
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}
