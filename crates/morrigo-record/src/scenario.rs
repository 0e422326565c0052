//! Running scenario files (format: [`crate::scenario_file`]).

use crate::replay::{intent_text, pass_letters, records_classes, replay_from};
use crate::scenario_file::{self, Expect, Scenario, ScenarioFile, Setup, Spanned};
use crate::transcript::Transcript;
use morrigo_board::Named;
use morrigo_diag::{did_you_mean, Diagnostic, Location};
use morrigo_engine::game::Move;
use morrigo_engine::notation::{self, Intent};
use morrigo_engine::{Game, GameState, SetupError};
use morrigo_rules::load::Overrides;
use morrigo_rules::Rules;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One expectation that did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// Where the expectation is written.
    pub at: Option<Location>,
    /// What was checked (`legal moves`, `result`…).
    pub what: String,
    /// What the scenario file expected.
    pub expected: String,
    /// What the replayed game gave instead.
    pub got: String,
}

/// How one scenario went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioOutcome {
    /// Every expectation held.
    Pass,
    /// Expectations that did not hold.
    Fail(Vec<Check>),
    /// The scenario could not be run: impossible set-up, refused move…
    Error(Diagnostic),
}

/// One scenario's outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioResult {
    /// The scenario's `name:`.
    pub name: String,
    /// The scenario's `rule:`: the rule it checks, in the words of the spec.
    pub rule: String,
    /// Whether it passed.
    pub outcome: ScenarioOutcome,
    /// The game as replayed (up to the failing ply on a refused move).
    pub transcript: Option<Transcript>,
}

impl ScenarioResult {
    /// Every expectation held.
    pub fn passed(&self) -> bool {
        self.outcome == ScenarioOutcome::Pass
    }
}

/// The results of one scenario file.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The file's name as given.
    pub path: String,
    /// Name of the ruleset its scenarios ran on.
    pub ruleset: String,
    /// Each scenario's result, in file order.
    pub results: Vec<ScenarioResult>,
}

impl FileReport {
    /// Scenarios that passed.
    pub fn passed(&self) -> usize {
        self.results.iter().filter(|r| r.passed()).count()
    }

    /// Scenarios that failed or could not be run.
    pub fn failed(&self) -> usize {
        self.results.len() - self.passed()
    }

    /// Every scenario passed.
    pub fn all_passed(&self) -> bool {
        self.failed() == 0
    }
}

/// The results of every scenario file under a path.
#[derive(Clone, Debug)]
pub struct PathReport {
    /// Each file and its report, or the error that stopped it from running.
    pub files: Vec<(PathBuf, Result<FileReport, Diagnostic>)>,
    /// YAML files under a directory that are rulesets, not scenario files.
    pub skipped: Vec<PathBuf>,
}

impl PathReport {
    /// Every file ran and every scenario in it passed.
    pub fn all_passed(&self) -> bool {
        self.files
            .iter()
            .all(|(_, r)| r.as_ref().is_ok_and(FileReport::all_passed))
    }

    /// `(passed, failed, file errors)`.
    pub fn counts(&self) -> (usize, usize, usize) {
        self.files
            .iter()
            .fold((0, 0, 0), |(p, f, e), (_, r)| match r {
                Ok(r) => (p + r.passed(), f + r.failed(), e),
                Err(_) => (p, f, e + 1),
            })
    }
}

/// Run every scenario of one file. `Err` only when the file as a whole
/// cannot be used (unreadable, bad YAML, ruleset not found or invalid).
pub fn run_file(path: impl AsRef<Path>) -> Result<FileReport, Diagnostic> {
    let file = scenario_file::read(path.as_ref())?;
    run_parsed(&file)
}

/// Run scenario-file text held in memory; `name` is shown in messages and
/// a relative `ruleset` is resolved next to it.
pub fn run_text(name: &str, text: &str) -> Result<FileReport, Diagnostic> {
    let source = morrigo_diag::SourceFile::new(name, text);
    let file = scenario_file::parse(source, Path::new(name))?;
    run_parsed(&file)
}

/// Run a scenario file, or every scenario file (`*.yaml`/`*.yml`) under a
/// directory, recursively, in path order. A directory is entered once even
/// when symbolic links lead back to it (a link loop ends); YAML files under
/// a directory that are rulesets rather than scenario files are listed as
/// skipped, not run.
pub fn run_path(path: impl AsRef<Path>) -> Result<PathReport, Diagnostic> {
    let path = path.as_ref();
    if !path.exists() {
        return Err(Diagnostic::new(format!(
            "no scenario file or directory `{}`",
            path.display()
        ))
        .expected("a .yaml scenario file or a directory of them"));
    }
    let mut paths = Vec::new();
    let mut skipped = Vec::new();
    if path.is_dir() {
        let mut seen = HashSet::new();
        collect(path, &mut paths, &mut seen)
            .map_err(|e| Diagnostic::new(format!("cannot list `{}`: {e}", path.display())))?;
        paths.retain(|p| {
            let ruleset = is_ruleset_file(p);
            if ruleset {
                skipped.push(p.clone());
            }
            !ruleset
        });
        if paths.is_empty() {
            let mut d = Diagnostic::new(format!(
                "no scenario files (*.yaml) under `{}`",
                path.display()
            ));
            if !skipped.is_empty() {
                d = d.note(format!(
                    "{} YAML file(s) there are rulesets, not scenario files",
                    skipped.len()
                ));
            }
            return Err(d);
        }
    } else {
        paths.push(path.to_path_buf());
    }
    let files = paths
        .into_iter()
        .map(|p| {
            let r = run_file(&p);
            (p, r)
        })
        .collect();
    Ok(PathReport { files, skipped })
}

/// Add the YAML files under `dir` to `out`; `seen` holds the canonical
/// paths of the directories entered, so a symbolic-link loop is entered once.
fn collect(dir: &Path, out: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) -> std::io::Result<()> {
    if !seen.insert(std::fs::canonicalize(dir)?) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out, seen)?;
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(p);
        }
    }
    Ok(())
}

/// Is this YAML file a ruleset rather than a scenario file? A mapping with
/// neither `scenarios:` nor `ruleset:` but with a key every ruleset uses
/// (`name:` or `extends:`). Unreadable or malformed files are not
/// rulesets: running them reports what is wrong.
fn is_ruleset_file(path: &Path) -> bool {
    let Ok(text) = morrigo_diag::read_input(path) else {
        return false;
    };
    let source = morrigo_diag::SourceFile::new(path.display().to_string(), text);
    let keys: BTreeMap<String, serde::de::IgnoredAny> =
        match morrigo_rules::load::parse_yaml(&source) {
            Ok(k) => k,
            Err(_) => return false,
        };
    !keys.contains_key("scenarios")
        && !keys.contains_key("ruleset")
        && (keys.contains_key("name") || keys.contains_key("extends"))
}

/// Load the file's ruleset, at a board size when one is given.
fn load_game(file: &ScenarioFile, size: Option<&Spanned<String>>) -> Result<Game, Diagnostic> {
    let spec = file.ruleset_spec();
    let at = file.location(file.ruleset.offset);
    let overrides = match size {
        None => Overrides::default(),
        Some(sz) => Overrides {
            size: Some(Overrides::parse_size(&sz.value).map_err(|e| {
                Diagnostic::new(format!("cannot read board size `{}`: {e}", sz.value))
                    .at(file.location(sz.offset))
                    .expected("`size: 5` or `size: 7x5` (columns x rows)")
            })?),
            komi: None,
        },
    };
    let rules = morrigo_rules::load_rules_with(&spec, &overrides).map_err(|ds| {
        let mut errors = ds.0.into_iter();
        let first = errors
            .next()
            .unwrap_or_else(|| Diagnostic::new(format!("cannot load ruleset `{spec}`")));
        let rest = errors.count();
        let d = match size {
            Some(sz) if first.location.is_none() => first.at(file.location(sz.offset)),
            _ => first.at_opt(Some(at.clone())),
        };
        match rest {
            0 => d,
            n => d.note(format!("and {n} more error(s) in ruleset `{spec}`")),
        }
    })?;
    Game::new(Arc::new(rules)).map_err(|d| d.at_opt(Some(at)))
}

/// Run a parsed scenario file.
pub(crate) fn run_parsed(file: &ScenarioFile) -> Result<FileReport, Diagnostic> {
    let game = load_game(file, file.size.as_ref())?;
    // Scenarios with a size of their own get a game per size.
    let mut sized: Vec<(String, Result<Game, Diagnostic>)> = Vec::new();
    let mut results = Vec::new();
    for sc in &file.scenarios {
        let sc_game = match &sc.size {
            None => Ok(&game),
            Some(sz) => {
                if !sized.iter().any(|(k, _)| *k == sz.value) {
                    sized.push((sz.value.clone(), load_game(file, Some(sz))));
                }
                let (_, g) = sized
                    .iter()
                    .find(|(k, _)| *k == sz.value)
                    .expect("just inserted");
                g.as_ref().map_err(Clone::clone)
            }
        };
        results.push(match sc_game {
            Ok(g) => run_scenario(g, file, sc),
            Err(d) => ScenarioResult {
                name: sc.name.value.clone(),
                rule: sc.rule.clone(),
                outcome: ScenarioOutcome::Error(d),
                transcript: None,
            },
        });
    }
    Ok(FileReport {
        path: file.source.name.to_string(),
        ruleset: game.rules().name.clone(),
        results,
    })
}

fn run_scenario(game: &Game, file: &ScenarioFile, sc: &Scenario) -> ScenarioResult {
    let mut transcript = None;
    let outcome = (|| {
        let state = match &sc.setup {
            Some(setup) => set_up(game, file, setup)?,
            None => game.start(),
        };
        let (t, state) = replay_from(state, &sc.moves.value, &file.source, sc.moves.offset)
            .map_err(|e| {
                transcript = Some(*e.transcript);
                *e.diagnostic
            })?;
        let checks = check(file, sc, &state, &t)?;
        transcript = Some(t);
        Ok::<_, Diagnostic>(checks)
    })();
    ScenarioResult {
        name: sc.name.value.clone(),
        rule: sc.rule.clone(),
        outcome: match outcome {
            Ok(checks) if checks.is_empty() => ScenarioOutcome::Pass,
            Ok(checks) => ScenarioOutcome::Fail(checks),
            Err(d) => ScenarioOutcome::Error(d),
        },
        transcript,
    }
}

fn player_index(
    rules: &Rules,
    file: &ScenarioFile,
    p: &Spanned<String>,
) -> Result<usize, Diagnostic> {
    let players = &rules.players;
    players.iter().position(|n| *n == p.value).ok_or_else(|| {
        let d = Diagnostic::new(format!(
            "unknown player `{}` in ruleset `{}`",
            p.value, rules.name
        ))
        .at(file.location(p.offset))
        .expected(format!("one of: {}", players.join(", ")));
        match did_you_mean(&p.value, players.iter().map(String::as_str)) {
            Some(s) => d.note(format!("did you mean `{s}`?")),
            None => d,
        }
    })
}

/// Build a set-up position: names resolved here (where each is written),
/// the board checked by the engine ([`Game::set_up`]), its refusal
/// located at the entry that makes the board impossible.
fn set_up(game: &Game, file: &ScenarioFile, setup: &Setup) -> Result<GameState, Diagnostic> {
    let rules = game.rules();
    let topo = &rules.topology;
    let mut checked = morrigo_engine::Setup::default();
    // Where each point is named, in order, to locate a point used twice.
    let mut named_at: Vec<(u16, usize)> = Vec::new();
    for (player, points) in &setup.pieces {
        let pl = player_index(rules, file, player)?;
        for p in points {
            let named = Named::located(p.value.clone(), file.location(p.offset));
            let id = topo.resolve(&named).map_err(|e| {
                let mut d = e.to_diagnostic();
                d.message = format!("impossible board: {}", d.message);
                d
            })?;
            named_at.push((id, p.offset));
            checked.pieces[pl].push(id);
        }
    }
    let mut in_hand = [0u32; 2];
    for (player, n) in &setup.in_hand {
        in_hand[player_index(rules, file, player)?] = *n;
    }
    checked.in_hand = Some(in_hand);
    checked.to_move = match &setup.to_move {
        Some(p) => Some(player_index(rules, file, p)? as u8),
        // The ruleset's first to move (`setup.to_move`), the first player by default.
        None => None,
    };
    game.set_up(&checked).map_err(|e| {
        let d = e.to_diagnostic();
        match e {
            SetupError::PointTwice { point, .. } => {
                let mut uses = named_at.iter().filter(|(id, _)| *id == point);
                let first = uses.next().map_or(setup.offset, |u| u.1);
                let again = uses.next().map_or(setup.offset, |u| u.1);
                d.at(file.location(again))
                    .note(format!("first used at {}", file.location(first)))
            }
            SetupError::TooManyPieces { name, .. } => {
                let at = setup
                    .pieces
                    .iter()
                    .map(|(p, _)| p)
                    .chain(setup.in_hand.iter().map(|(p, _)| p))
                    .find(|p| p.value == name)
                    .map_or(setup.offset, |p| p.offset);
                d.at(file.location(at))
            }
            _ => d.at(file.location(setup.offset)),
        }
    })
}

/// One expected move text, read and written back canonically.
fn expected_move(
    rules: &Rules,
    file: &ScenarioFile,
    mv: &Spanned<String>,
) -> Result<String, Diagnostic> {
    let intents = notation::parse_token_in(rules, &mv.value, Some(file.location(mv.offset)))?;
    match intents.as_slice() {
        [one] => Ok(intent_text(rules, *one)),
        _ => Err(Diagnostic::new(format!(
            "`{}` is two plies; a list of legal moves names single plies",
            mv.value
        ))
        .at(file.location(mv.offset))
        .expected("`d1`, `d1-d2` or `xd2`")),
    }
}

fn expected_moves(
    rules: &Rules,
    file: &ScenarioFile,
    list: &[Spanned<String>],
) -> Result<Vec<(String, usize)>, Diagnostic> {
    list.iter()
        .map(|mv| Ok((expected_move(rules, file, mv)?, mv.offset)))
        .collect()
}

fn show(set: &BTreeSet<String>) -> String {
    if set.is_empty() {
        "(none)".into()
    } else {
        set.iter().cloned().collect::<Vec<_>>().join(" ")
    }
}

fn normalize_board(b: &str) -> String {
    let lines: Vec<&str> = b.lines().map(str::trim_end).collect();
    let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    lines[first..last.max(first)].join("\n")
}

/// Check a scenario's expectations against the replayed game: the ones that
/// did not hold, or an error for one that cannot be read (an unknown player,
/// phase, end rule…). Expectations are checked in the order of `Expect`'s
/// fields, so the first unreadable one is the error.
fn check(
    file: &ScenarioFile,
    sc: &Scenario,
    s: &GameState,
    t: &Transcript,
) -> Result<Vec<Check>, Diagnostic> {
    let mut c = Checker::new(file, &sc.expect, s, t);
    c.check_to_move()?;
    c.check_phase()?;
    c.check_legal()?;
    c.check_legal_includes()?;
    c.check_legal_excludes()?;
    c.check_illegal()?;
    c.check_result()?;
    c.check_reason()?;
    c.check_board();
    c.require_go_keys_apply()?;
    c.check_go_classes();
    c.check_legal_passes()?;
    c.check_score()?;
    Ok(c.checks)
}

/// What a scenario's expectations are checked against, and the checks that
/// failed so far.
struct Checker<'a> {
    /// The ruleset.
    rules: &'a Rules,
    file: &'a ScenarioFile,
    e: &'a Expect,
    /// The final state.
    s: &'a GameState,
    t: &'a Transcript,
    /// The legal moves of the final state (none once the players ended the game).
    moves: Vec<Move>,
    /// `moves` as the record writes them.
    legal: BTreeSet<String>,
    /// A resignation or an agreement ended the game outside the engine.
    session_end: bool,
    checks: Vec<Check>,
}

impl<'a> Checker<'a> {
    fn new(file: &'a ScenarioFile, e: &'a Expect, s: &'a GameState, t: &'a Transcript) -> Self {
        let mut moves = Vec::new();
        let outcome = s.legal_moves_into(&mut moves);
        // A resignation or an agreement ends the game outside the engine.
        let session_end = outcome.is_none() && t.result.status == crate::Status::Over;
        if session_end {
            moves.clear();
        }
        let legal: BTreeSet<String> = moves
            .iter()
            .map(|mv| notation::format_move_in(s.rules(), &mv.packed()))
            .collect();
        Checker {
            rules: s.rules(),
            file,
            e,
            s,
            t,
            moves,
            legal,
            session_end,
            checks: Vec::new(),
        }
    }

    fn fail(&mut self, offset: usize, what: &str, expected: String, got: String) {
        self.checks.push(Check {
            at: Some(self.file.location(offset)),
            what: what.to_string(),
            expected,
            got,
        })
    }

    /// An unknown name of `kind` (phase, end rule): the names the ruleset
    /// has, and the nearest one.
    fn unknown(&self, kind: &str, p: &Spanned<String>, names: &[&str]) -> Diagnostic {
        let d = Diagnostic::new(format!(
            "unknown {kind} `{}` in ruleset `{}`",
            p.value, self.rules.name
        ))
        .at(self.file.location(p.offset))
        .expected(format!("one of: {}", names.join(", ")));
        match did_you_mean(&p.value, names.iter().copied()) {
            Some(s) => d.note(format!("did you mean `{s}`?")),
            None => d,
        }
    }

    fn check_to_move(&mut self) -> Result<(), Diagnostic> {
        let Some(p) = &self.e.to_move else {
            return Ok(());
        };
        player_index(self.rules, self.file, p)?;
        let got = &self.rules.players[usize::from(self.s.to_move())];
        if *got != p.value {
            self.fail(p.offset, "player to move", p.value.clone(), got.clone());
        }
        Ok(())
    }

    fn check_phase(&mut self) -> Result<(), Diagnostic> {
        let Some(p) = &self.e.phase else {
            return Ok(());
        };
        let (rules, s) = (self.rules, self.s);
        let names: Vec<&str> = rules
            .phases
            .iter()
            .map(|ph| ph.name.as_str())
            .chain(["remove"])
            .collect();
        if !names.contains(&p.value.as_str()) {
            return Err(self.unknown("phase", p, &names));
        }
        let got = if s.pending_removals() > 0 {
            "remove"
        } else {
            rules.phases[s.phase()].name.as_str()
        };
        if got != p.value {
            self.fail(p.offset, "phase", p.value.clone(), got.to_string());
        }
        Ok(())
    }

    fn check_legal(&mut self) -> Result<(), Diagnostic> {
        let Some(list) = &self.e.legal else {
            return Ok(());
        };
        let want: BTreeSet<String> = expected_moves(self.rules, self.file, list)?
            .into_iter()
            .map(|(mv, _)| mv)
            .collect();
        if want != self.legal {
            let missing: BTreeSet<String> = want.difference(&self.legal).cloned().collect();
            let extra: BTreeSet<String> = self.legal.difference(&want).cloned().collect();
            let offset = list.first().map_or(self.e.offset, |s| s.offset);
            let got = format!(
                "{} (missing: {}; not expected: {})",
                show(&self.legal),
                show(&missing),
                show(&extra)
            );
            self.fail(offset, "legal moves", show(&want), got);
        }
        Ok(())
    }

    fn check_legal_includes(&mut self) -> Result<(), Diagnostic> {
        for (mv, offset) in expected_moves(self.rules, self.file, &self.e.legal_includes)? {
            if !self.legal.contains(&mv) {
                let got = format!("it is not; legal: {}", show(&self.legal));
                self.fail(
                    offset,
                    "legal moves include",
                    format!("`{mv}` to be legal"),
                    got,
                );
            }
        }
        Ok(())
    }

    fn check_legal_excludes(&mut self) -> Result<(), Diagnostic> {
        for (mv, offset) in expected_moves(self.rules, self.file, &self.e.legal_excludes)? {
            if self.legal.contains(&mv) {
                self.fail(
                    offset,
                    "legal moves exclude",
                    format!("`{mv}` to be illegal"),
                    "it is legal".to_string(),
                );
            }
        }
        Ok(())
    }

    fn check_illegal(&mut self) -> Result<(), Diagnostic> {
        let (rules, file, t) = (self.rules, self.file, self.t);
        for ill in &self.e.illegal {
            let intents =
                notation::parse_token_in(rules, &ill.mv.value, Some(file.location(ill.mv.offset)))?;
            let refused = if self.session_end {
                Some(format!(
                    "the game is over: {}",
                    t.result.reason.as_deref().unwrap_or("ended")
                ))
            } else {
                refusal(self.s, &intents)
            };
            match refused {
                None => self.fail(
                    ill.mv.offset,
                    "illegal move",
                    format!("`{}` to be refused", ill.mv.value),
                    "it is legal".to_string(),
                ),
                Some(text) => {
                    if let Some(needle) = &ill.reason_contains {
                        if !text.contains(needle.as_str()) {
                            self.fail(
                                ill.mv.offset,
                                "refusal reason",
                                format!("a reason containing `{needle}`"),
                                text,
                            );
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn check_result(&mut self) -> Result<(), Diagnostic> {
        let Some(r) = &self.e.result else {
            return Ok(());
        };
        let (rules, t) = (self.rules, self.t);
        let valid = r.value == "ongoing"
            || r.value == "draw"
            || r.value == "no result"
            || r.value
                .strip_suffix(" wins")
                .is_some_and(|p| rules.players.iter().any(|n| n == p));
        if !valid {
            let wins: Vec<String> = rules
                .players
                .iter()
                .map(|p| format!("`{p} wins`"))
                .collect();
            return Err(Diagnostic::new(format!("cannot read result `{}`", r.value))
                .at(self.file.location(r.offset))
                .expected(format!(
                    "`ongoing`, `draw`, `no result`, {}",
                    wins.join(", ")
                )));
        }
        let got = t.result.summary();
        if got != r.value {
            let why = match (&t.result.reason, &t.result.rule) {
                (Some(name), Some(rule)) => format!("{got} (end rule `{name}`: `{rule}`)"),
                _ => format!("{got}, {} to move", t.result.to_move),
            };
            self.fail(r.offset, "result", r.value.clone(), why);
        }
        Ok(())
    }

    /// The end rule that decided the game (`reason:`).
    fn check_reason(&mut self) -> Result<(), Diagnostic> {
        let Some(r) = &self.e.reason else {
            return Ok(());
        };
        let names: Vec<&str> = self
            .rules
            .end
            .iter()
            .map(|e| e.name.as_str())
            .chain(["resignation", "agreement"])
            .collect();
        if !names.contains(&r.value.as_str()) {
            return Err(self.unknown("end rule", r, &names));
        }
        let got = self
            .t
            .result
            .reason
            .clone()
            .unwrap_or_else(|| "none: the game is not over".to_string());
        if got != r.value {
            self.fail(r.offset, "end rule", r.value.clone(), got);
        }
        Ok(())
    }

    fn check_board(&mut self) {
        let Some(b) = &self.e.board else {
            return;
        };
        let want = normalize_board(&b.value);
        let got = normalize_board(&self.t.board);
        if want != got {
            self.fail(b.offset, "board", format!("\n{want}"), format!("\n{got}"));
        }
    }

    /// The Go-family keys read the move-class history, which only rulesets
    /// with board plays or passes keep: refuse them elsewhere.
    fn require_go_keys_apply(&self) -> Result<(), Diagnostic> {
        let e = self.e;
        let go_keys = [
            e.class.as_ref().map(|c| ("class", c.offset)),
            e.classes.as_ref().map(|c| ("classes", c.offset)),
            e.d.as_ref().map(|c| ("d", c.offset)),
            e.legal_passes
                .as_ref()
                .map(|c| ("legal_passes", c.first().map_or(e.offset, |k| k.offset))),
        ];
        if let Some((key, offset)) = go_keys.iter().flatten().next() {
            if !records_classes(self.rules) {
                return Err(Diagnostic::new(format!(
                    "`{key}` applies to rulesets with board plays or passes, and `{}` has neither",
                    self.rules.name
                ))
                .at(self.file.location(*offset)));
            }
        }
        Ok(())
    }

    /// The Go-family move classes: of the last ply (`class:`), of every ply
    /// (`classes:`), and whether a D ends at the last ply (`d:`).
    fn check_go_classes(&mut self) {
        let (e, t) = (self.e, self.t);
        let last = t.plies.last().and_then(|p| p.go.as_ref());
        if let Some(c) = &e.class {
            let got = last
                .and_then(|g| g.class)
                .map_or("(no move)".to_string(), String::from);
            if got != c.value {
                self.fail(c.offset, "class of the last move", c.value.clone(), got);
            }
        }
        if let Some(c) = &e.classes {
            let want: String = c.value.split_whitespace().collect();
            let got: String = t
                .plies
                .iter()
                .filter_map(|p| p.go.as_ref())
                .map(|g| g.class.unwrap_or('-'))
                .collect();
            if want != got {
                self.fail(c.offset, "classes of the record", want, got);
            }
        }
        if let Some(d) = &e.d {
            let got = last.is_some_and(|g| g.d);
            if got != d.value {
                self.fail(
                    d.offset,
                    "a D ends at the last move",
                    d.value.to_string(),
                    got.to_string(),
                );
            }
        }
    }

    fn check_legal_passes(&mut self) -> Result<(), Diagnostic> {
        let Some(list) = &self.e.legal_passes else {
            return Ok(());
        };
        let rules = self.rules;
        let kinds: Vec<String> = rules.passes.names();
        for k in list {
            if !kinds.contains(&k.value) {
                return Err(Diagnostic::new(format!(
                    "unknown pass kind `{}` in ruleset `{}`",
                    k.value, rules.name
                ))
                .at(self.file.location(k.offset))
                .expected(format!("some of: {}", kinds.join(", "))));
            }
        }
        let want: BTreeSet<String> = list.iter().map(|k| k.value.clone()).collect();
        let got: BTreeSet<String> = pass_letters(rules, &self.moves).into_iter().collect();
        if want != got {
            let offset = list.first().map_or(self.e.offset, |k| k.offset);
            self.fail(offset, "legal passes", show(&want), show(&got));
        }
        Ok(())
    }

    fn check_score(&mut self) -> Result<(), Diagnostic> {
        let Some(sc) = &self.e.score else {
            return Ok(());
        };
        let (rules, file) = (self.rules, self.file);
        for (player, _) in &sc.value {
            player_index(
                rules,
                file,
                &Spanned {
                    value: player.clone(),
                    offset: sc.offset,
                },
            )?;
        }
        let want = rules
            .players
            .iter()
            .map(|p| {
                let v = sc.value.iter().find(|(n, _)| n == p).map(|(_, v)| *v);
                format!("{p} {}", v.map_or("?".to_string(), |v| v.to_string()))
            })
            .collect::<Vec<_>>()
            .join(", ");
        let got = match &self.t.result.score {
            None => "no count (the game did not end by scoring or agreement)".to_string(),
            Some(crate::transcript::Score(v)) => rules
                .players
                .iter()
                .zip(v)
                .map(|(p, v)| format!("{p} {v}"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        if want != got {
            self.fail(sc.offset, "score", want, got);
        }
        Ok(())
    }
}

/// Play `intents` from `s`; the refusal text of the first that is not
/// legal, or `None` when all are.
fn refusal(s: &GameState, intents: &[Intent]) -> Option<String> {
    let mut s = s.clone();
    let mut moves = Vec::new();
    for intent in intents {
        s.legal_moves_into(&mut moves);
        match moves.iter().find(|mv| intent.matches(&mv.packed())) {
            Some(mv) => s.apply_unchecked(*mv),
            None => return Some(s.explain(*intent).to_string()),
        }
    }
    None
}

// ----- reports ---------------------------------------------------------------

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = &self.at {
            write!(f, "{at}: ")?;
        }
        write!(f, "{}: expected {}", self.what, self.expected)?;
        write!(f, "\n      got {}", self.got.replace('\n', "\n      "))
    }
}

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| format!("{by}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl fmt::Display for ScenarioResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            ScenarioOutcome::Pass => write!(f, "  ok     {}", self.name),
            ScenarioOutcome::Fail(checks) => {
                write!(f, "  FAIL   {}\n         rule: {}", self.name, self.rule)?;
                for c in checks {
                    write!(f, "\n{}", indent(&c.to_string(), "         "))?;
                }
                Ok(())
            }
            ScenarioOutcome::Error(d) => {
                write!(f, "  ERROR  {}\n         rule: {}", self.name, self.rule)?;
                write!(f, "\n{}", indent(&d.to_string(), "         "))
            }
        }
    }
}

impl fmt::Display for FileReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} (ruleset {}): {} passed, {} failed",
            self.path,
            self.ruleset,
            self.passed(),
            self.failed()
        )?;
        for r in &self.results {
            writeln!(f, "{r}")?;
        }
        Ok(())
    }
}

impl fmt::Display for PathReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (path, r) in &self.files {
            match r {
                Ok(report) => write!(f, "{report}")?,
                Err(d) => writeln!(
                    f,
                    "{}: cannot run:\n{}",
                    path.display(),
                    indent(&d.to_string(), "  ")
                )?,
            }
        }
        for path in &self.skipped {
            writeln!(
                f,
                "{}: skipped: a ruleset, not a scenario file",
                path.display()
            )?;
        }
        let (passed, failed, errors) = self.counts();
        write!(
            f,
            "{} scenario file(s): {passed} passed, {failed} failed",
            self.files.len()
        )?;
        if errors > 0 {
            write!(f, ", {errors} file(s) could not be run")?;
        }
        writeln!(f)
    }
}
