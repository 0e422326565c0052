//! `morrigo match`: a referee for two external GTP engines under a
//! Go-style ruleset.
//!
//! The referee keeps the game itself: each engine's `genmove` answer is
//! checked against the ruleset (a plain `pass` is the first pass kind
//! legal there, as in `morrigo gtp`), played, and sent to the other engine
//! (a typed pass `pass:E` to an engine that lists `morrigo-legal`, a plain
//! `pass` to any other). The ruleset's end rules end the game and its
//! scoring counts it. An illegal move, a crash, a timeout or an answer that
//! is not GTP loses the game, with the reason recorded; so does refusing
//! a legal move of the opponent (the engine cannot follow the game).
//!
//! Dead stones, as the ruleset's `scoring.dead_stones` says. Under
//! `agreement`, a game a count ends (two passes) is not counted at once:
//! both engines are asked `final_status_list dead`, and when they name the
//! same stones those are removed before counting. When they differ (or one
//! cannot answer: a refusal, garbage, a fault or a vertex that holds no
//! stone) the game goes on, the clean-up: play resumes from the board as it
//! stands with the player to move (`kgs-genmove_cleanup` to an engine that
//! knows it, `genmove` to others), the rules judge every move, and when
//! they end the game again every stone on the board counts. Under `none`
//! the board counts as it stands. The results line (`dead_stones`) and a
//! comment on the SGF's root node record which happened.
//!
//! A handicap match (`handicap: Some(n)`) starts each game with the
//! standard's fixed placement of `n` Black stones and White to move: both
//! engines get `fixed_handicap n`, and one that refuses it or answers other
//! vertices loses the game (end `handicap`).
//!
//! The output directory belongs to one match: a lock file keeps a second
//! referee out, a manifest (`match.json`) records the ruleset, board, komi
//! and handicap it was made under and a resume under others is refused,
//! and every results line carries its CRC-32 (a damaged line is refused,
//! never used). A results file from before the checksums (no manifest) is
//! refused too: it cannot be checked. A line cut short by a killed run is
//! dropped by rewriting the file whole (temporary file, rename), so a
//! failure during the repair leaves every game in place.

use crate::client::{Client, Fault};
use crate::engine::load;
use crate::game::{diag_line, new_game, one_line, outcome_words, Game};
use crate::handicap;
use crate::protocol::{colour_letter, parse_vertex, vertex_text};
use morrigo_engine::game::Move;
use morrigo_engine::notation::{self, Intent};
use morrigo_rules::load::Overrides;
use morrigo_rules::Rules;
use morrigo_sgf::{GameResult, Margin};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The results file in the output directory, one JSON object a line.
pub const RESULTS_FILE: &str = "results.jsonl";

/// What the output directory was made under (one checked JSON line).
pub const MANIFEST_FILE: &str = "match.json";

/// The lock a running referee holds on its output directory.
pub const LOCK_FILE: &str = "match.lock";

/// Longest results line read back (a game's line is well under 1 KiB).
pub const MAX_RESULT_LINE: usize = 1024 * 1024;

/// What a match directory was made under: a resume must agree on all of
/// it, or its games would be merged with another match's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The ruleset's name.
    pub ruleset: String,
    /// CRC-32 of the ruleset's source files (the file and its `extends`
    /// ancestors): an edited ruleset is another ruleset.
    pub ruleset_crc32: String,
    /// Board width and height.
    pub size: [u32; 2],
    /// The komi in force (0 for a ruleset without scoring).
    pub komi: f64,
    /// Fixed handicap stones for Black (absent: none).
    pub handicap: Option<u32>,
}

impl Manifest {
    /// The manifest of a match played under `rules` with `handicap`.
    pub fn of(rules: &Rules, handicap: Option<u32>) -> Self {
        let mut crc = crc32fast::Hasher::new();
        for source in &rules.sources {
            crc.update(source.text.as_bytes());
            crc.update(&[0]);
        }
        Manifest {
            ruleset: rules.name.clone(),
            ruleset_crc32: format!("{:08x}", crc.finalize()),
            size: [rules.topology.width, rules.topology.height],
            komi: rules.scoring.as_ref().map_or(0.0, |s| s.komi),
            handicap,
        }
    }

    /// How `self` (the directory's) differs from `now` (this run's), in
    /// words; `None` when they agree.
    fn differs(&self, now: &Manifest) -> Option<String> {
        let handicap =
            |h: Option<u32>| h.map_or("no handicap".to_string(), |n| format!("handicap {n}"));
        let size = |s: [u32; 2]| format!("size {}x{}", s[0], s[1]);
        if self.ruleset != now.ruleset {
            Some(format!("ruleset `{}`, not `{}`", self.ruleset, now.ruleset))
        } else if self.ruleset_crc32 != now.ruleset_crc32 {
            Some(format!(
                "another text of ruleset `{}` (CRC-32 {}, this one's is {})",
                self.ruleset, self.ruleset_crc32, now.ruleset_crc32
            ))
        } else if self.size != now.size {
            Some(format!("{}, not {}", size(self.size), size(now.size)))
        } else if self.komi.to_bits() != now.komi.to_bits() {
            Some(format!("komi {}, not komi {}", self.komi, now.komi))
        } else if self.handicap != now.handicap {
            Some(format!(
                "{}, not {}",
                handicap(self.handicap),
                handicap(now.handicap)
            ))
        } else {
            None
        }
    }
}

/// A match to referee.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Ruleset path or built-in name.
    pub ruleset: String,
    /// `--size` / `--komi` from the command line.
    pub overrides: Overrides,
    /// Command lines of the engines that play black and white in game 1.
    pub engines: [String; 2],
    /// Games to play in all, counting those already in the results file.
    pub games: u32,
    /// Swap colours every other game.
    pub swap: bool,
    /// Longest wait for any one answer.
    pub timeout: Duration,
    /// Games played at once.
    pub jobs: usize,
    /// The match directory: manifest, lock, results and SGF files.
    pub out: PathBuf,
    /// Moves after which a game is stopped unfinished.
    pub max_moves: u32,
    /// Fixed handicap stones for Black at the start of every game.
    pub handicap: Option<u32>,
}

/// How one game ended, as the results file records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 1-based game number.
    pub game: u32,
    /// Command line of the engine that played black.
    pub black: String,
    /// Command line of the engine that played white.
    pub white: String,
    /// `black`, `white`, or absent for a draw, no result or unfinished game.
    pub winner: Option<String>,
    /// The SGF result (`B+3.5`, `W+R`, `B+F`, `W+T`, `0`, `Void`), absent
    /// when unfinished.
    pub result: Option<String>,
    /// What ended the game: an end rule's name, `resignation`,
    /// `illegal move`, `crash`, `timeout`, `not GTP`, or `move limit`.
    pub end: String,
    /// The details: the refusal, the engine's message, the exit status.
    pub reason: String,
    /// Moves played in the game.
    pub moves: u32,
    /// The count of a game ended by a score verdict (komi included).
    pub score: Option<[f64; 2]>,
    /// Prisoners each side took.
    pub captured: [u32; 2],
    /// File name of the game's SGF record in the match directory (empty
    /// when none was written).
    pub sgf: String,
    /// Seconds the game took.
    pub secs: f64,
    /// The fixed handicap the game was played with (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<u32>,
    /// How the dead stones of a game a count ended were settled (absent:
    /// no count ended it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dead_stones: Option<DeadRecord>,
}

/// How dead stones were settled: `how` is `agreed` (both engines named
/// the same stones, removed before counting), `clean-up` (they differed:
/// play resumed, then every stone counted) or `as it stands` (the ruleset
/// removes no stone).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeadRecord {
    /// `agreed`, `clean-up` or `as it stands`.
    pub how: String,
    /// The stones removed (`agreed`), by vertex.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// Each engine's answer to `final_status_list dead` (black's, then
    /// white's; a fault in words), cut to [`MAX_DEAD_ANSWER`] characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<[String; 2]>,
    /// Moves played when the clean-up began.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cleanup_from: Option<u32>,
}

/// Longest engine answer a [`DeadRecord`] keeps (characters).
pub const MAX_DEAD_ANSWER: usize = 600;

impl DeadRecord {
    fn as_it_stands() -> Self {
        DeadRecord {
            how: "as it stands".into(),
            removed: Vec::new(),
            answers: None,
            cleanup_from: None,
        }
    }

    /// The SGF root comment.
    fn comment(&self) -> String {
        let answers = |a: &Option<[String; 2]>| match a {
            Some([b, w]) => format!(
                " (black named: {}; white named: {})",
                or_none(b),
                or_none(w)
            ),
            None => String::new(),
        };
        match self.how.as_str() {
            "agreed" if self.removed.is_empty() => {
                "morrigo match: both engines named no dead stone; the board counted as it stands"
                    .to_string()
            }
            "agreed" => format!(
                "morrigo match: dead stones both engines named, removed before counting: {}",
                self.removed.join(" ")
            ),
            "clean-up" => format!(
                "morrigo match: the engines disagreed on the dead stones{}; the game went on (clean-up) from move {}, and at its end every stone on the board counts",
                answers(&self.answers),
                self.cleanup_from.unwrap_or(0) + 1
            ),
            _ => "morrigo match: the ruleset removes no dead stone; the board counted as it stands"
                .to_string(),
        }
    }
}

fn or_none(s: &str) -> &str {
    if s.trim().is_empty() {
        "none"
    } else {
        s
    }
}

/// Whether the ruleset removes dead stones by agreement.
pub fn dead_by_agreement(rules: &Rules) -> bool {
    rules
        .scoring
        .as_ref()
        .is_some_and(|s| s.dead_stones == morrigo_rules::DeadStones::Agreement)
}

/// The stones an answer to `final_status_list dead` names, sorted, or
/// `None` when it is not a list of vertices holding stones.
fn dead_list(rules: &Rules, game: &Game, answer: &str) -> Option<Vec<u16>> {
    let mut points = Vec::new();
    let mut stones = game.stones(0);
    stones.extend(game.stones(1));
    stones.sort_unstable();
    for v in answer.split_whitespace() {
        let (c, r) = parse_vertex(v)?;
        let p = rules.topology.point(&vertex_text(c, r))?;
        if stones.binary_search(&p).is_ok() {
            points.push(p);
        } else {
            return None;
        }
    }
    points.sort_unstable();
    points.dedup();
    Some(points)
}

/// The board points of `n` fixed handicap stones under `rules`, or why
/// there are none: the standard defines the placement on square boards
/// from 7x7 (2 to 4 stones on 7x7 and even sizes, 2 to 9 on odd sizes),
/// and a ruleset that sets up its own stones has no empty board to put
/// them on.
pub fn handicap_stones(rules: &Rules, n: u32) -> Result<Vec<u16>, String> {
    if rules.start.stones.iter().any(|s| !s.is_empty()) {
        return Err(format!(
            "ruleset `{}` starts with set-up stones, so there is no empty board for handicap stones",
            rules.name
        ));
    }
    let t = &rules.topology;
    let size = t.width;
    let max = handicap::fixed_max(size);
    let points = (t.width == t.height)
        .then(|| handicap::fixed(size, n))
        .flatten()
        .ok_or_else(|| match max {
            _ if t.width != t.height => format!(
                "fixed handicap needs a square board, and this one is {}x{}",
                t.width, t.height
            ),
            0 => format!("fixed handicap is defined from 7x7 up, and this board is {size}x{size}"),
            _ => format!("fixed handicap on {size}x{size} is 2 to {max} stones, not {n}"),
        })?;
    points
        .iter()
        .map(|&(c, r)| {
            let name = vertex_text(c, r);
            t.point(&name)
                .ok_or_else(|| format!("handicap point {name} is not on the board"))
        })
        .collect()
}

/// The engines of game `n` (1-based): black, white, with `{game}` in a
/// command line replaced by the game number (a seed per game for an engine
/// that plays the same game every time).
fn seats(cfg: &MatchConfig, n: u32) -> [String; 2] {
    let [a, b] = cfg
        .engines
        .clone()
        .map(|c| c.replace("{game}", &n.to_string()));
    if cfg.swap && n.is_multiple_of(2) {
        [b, a]
    } else {
        [a, b]
    }
}

/// Check the directory's manifest against this match's, or write it in a
/// new directory. A results file without a manifest was written before
/// results lines had checksums: refused, it cannot be checked.
pub fn check_manifest(dir: &Path, now: &Manifest) -> Result<(), String> {
    let path = dir.join(MANIFEST_FILE);
    let results = dir.join(RESULTS_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let object = morrigo_store::unseal_line(text.trim_end())
                .map_err(|why| format!("`{}` is damaged: {why}: refused", path.display()))?;
            let was: Manifest = serde_json::from_str(&object).map_err(|e| {
                format!(
                    "`{}` is not the manifest of a `morrigo match` directory: {e}",
                    path.display()
                )
            })?;
            match was.differs(now) {
                None => Ok(()),
                Some(how) => Err(format!(
                    "`{}` was made under {how}: this match's games cannot be added to it; give another --out directory",
                    dir.display()
                )),
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let old = std::fs::metadata(&results)
                .map(|m| m.len() > 0)
                .unwrap_or(false);
            if old {
                return Err(format!(
                    "`{}` has no `{MANIFEST_FILE}`: it was written by a Morrigo before results lines carried checksums, so its games cannot be checked; give another --out directory (the file stays readable as JSON lines)",
                    results.display()
                ));
            }
            let object = serde_json::to_string(now).map_err(|e| e.to_string())?;
            let line = morrigo_store::seal_line(&object) + "\n";
            morrigo_store::write_atomic(&path, line.as_bytes()).map_err(|e| e.to_string())
        }
        Err(e) => Err(format!("cannot read `{}`: {e}", path.display())),
    }
}

/// Read the finished games of an earlier run, each line checked against
/// its CRC-32. A last line cut short by a killed run is dropped (that game
/// is played again) by rewriting the file whole; a damaged line, or a game
/// recorded twice, is refused with the file and line number.
pub fn finished(dir: &Path) -> Result<Vec<GameRecord>, String> {
    let path = dir.join(RESULTS_FILE);
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
    };
    let mut reader = BufReader::new(file);
    let mut out = Vec::new();
    let mut lines_of: HashMap<u32, usize> = HashMap::new();
    let mut bytes = Vec::new();
    let mut complete = 0u64;
    let mut partial = false;
    for number in 1.. {
        bytes.clear();
        let n = (&mut reader)
            .take(MAX_RESULT_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        let at = format!("{}:{number}", path.display());
        if !bytes.ends_with(b"\n") {
            if n > MAX_RESULT_LINE {
                return Err(format!(
                    "{at}: a line longer than {MAX_RESULT_LINE} bytes: not a game result of `morrigo match`; refused"
                ));
            }
            // The last line, cut short by a killed run.
            partial = true;
            break;
        }
        complete += n as u64;
        let line = String::from_utf8_lossy(&bytes);
        if line.trim().is_empty() {
            continue;
        }
        let object = morrigo_store::unseal_line(&line)
            .map_err(|why| format!("{at}: the line is damaged ({why}); refused, never used"))?;
        let r: GameRecord = serde_json::from_str(&object)
            .map_err(|e| format!("{at}: not a game result of `morrigo match`: {e}"))?;
        if let Some(first) = lines_of.insert(r.game, number) {
            return Err(format!(
                "{at}: game {} is recorded twice (also on line {first}); refused",
                r.game
            ));
        }
        out.push(r);
    }
    if partial {
        repair(&path, complete)?;
    }
    Ok(out)
}

/// Keep the first `complete` bytes of `path`: written whole to a temporary
/// file and renamed over it, so a failure leaves the file as it was.
fn repair(path: &Path, complete: u64) -> Result<(), String> {
    let fail = |e: String| format!("cannot repair `{}` (it is unchanged): {e}", path.display());
    let mut from = File::open(path)
        .map_err(|e| fail(e.to_string()))?
        .take(complete);
    let mut to = morrigo_store::AtomicFile::create(path).map_err(|e| fail(e.to_string()))?;
    std::io::copy(&mut from, &mut to).map_err(|e| fail(e.to_string()))?;
    to.commit().map_err(|e| fail(e.to_string()))
}

/// Play the games not yet in the results file, `cfg.jobs` at a time;
/// `report` is told of each game as it ends. Returns the finished games
/// of this match, 1 to `cfg.games` (earlier runs' too), by game number:
/// games past `cfg.games` that an earlier, longer run played stay in the
/// results file and out of the report.
pub fn run_match(
    cfg: &MatchConfig,
    report: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, String> {
    let any = load(&cfg.ruleset, &cfg.overrides).map_err(|d| diag_line(&d))?;
    let rules = any.rules().clone();
    if rules.topology.width != rules.topology.height {
        return Err(format!(
            "GTP boards are square, and this board is {}x{}",
            rules.topology.width, rules.topology.height
        ));
    }
    if let Some(n) = cfg.handicap {
        handicap_stones(&rules, n).map_err(|e| format!("--handicap {n}: {e}"))?;
    }
    std::fs::create_dir_all(&cfg.out)
        .map_err(|e| format!("cannot create `{}`: {e}", cfg.out.display()))?;
    let _lock = morrigo_store::lock_exclusive(
        &cfg.out.join(LOCK_FILE),
        &format!("the match directory `{}`", cfg.out.display()),
    )
    .map_err(|e| format!("{e}: one referee per --out directory"))?;
    check_manifest(&cfg.out, &Manifest::of(&rules, cfg.handicap))?;
    crate::client::kill_engines_on_signal();
    let mut done = finished(&cfg.out)?;
    for r in &done {
        let expect = seats(cfg, r.game);
        if r.handicap != cfg.handicap {
            let words =
                |h: Option<u32>| h.map_or("no handicap".to_string(), |n| format!("handicap {n}"));
            return Err(format!(
                "`{}` holds game {} played with {}, not this match's {}: give another --out directory",
                cfg.out.join(RESULTS_FILE).display(),
                r.game,
                words(r.handicap),
                words(cfg.handicap)
            ));
        }
        if [r.black.clone(), r.white.clone()] != expect {
            return Err(format!(
                "`{}` holds game {} between `{}` and `{}`, not this match's `{}` and `{}`: give another --out directory",
                cfg.out.join(RESULTS_FILE).display(),
                r.game,
                r.black,
                r.white,
                expect[0],
                expect[1]
            ));
        }
    }
    // The report counts the games asked for: the first `cfg.games`.
    done.retain(|r| r.game <= cfg.games);
    let skip: HashSet<u32> = done.iter().map(|r| r.game).collect();
    let left = (cfg.games as usize).saturating_sub(skip.len());
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(cfg.out.join(RESULTS_FILE))
        .map_err(|e| format!("cannot open `{}`: {e}", cfg.out.display()))?;
    let file = Mutex::new(file);
    let results = Mutex::new(Vec::new());
    let errors: Mutex<Option<String>> = Mutex::new(None);
    // Game numbers are handed out one at a time: no list of the games.
    let next = AtomicU64::new(1);
    std::thread::scope(|scope| {
        for _ in 0..cfg.jobs.max(1).min(left.max(1)) {
            scope.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n > u64::from(cfg.games) {
                    return;
                }
                let n = n as u32;
                if skip.contains(&n) {
                    continue;
                }
                if errors.lock().map(|e| e.is_some()).unwrap_or(true) {
                    return;
                }
                let record = play_one(cfg, &rules, n);
                let written = save(&file, &record);
                if let Err(e) = written {
                    if let Ok(mut slot) = errors.lock() {
                        slot.get_or_insert(e);
                    }
                    return;
                }
                report(&record);
                if let Ok(mut r) = results.lock() {
                    r.push(record);
                }
            });
        }
    });
    if let Some(e) = errors.into_inner().ok().flatten() {
        return Err(e);
    }
    done.extend(results.into_inner().unwrap_or_default());
    done.sort_by_key(|r| r.game);
    Ok(done)
}

/// Append one checked result line (whole lines only: a killed run leaves
/// at most one partial line, which the next run drops).
fn save(file: &Mutex<File>, r: &GameRecord) -> Result<(), String> {
    let object = serde_json::to_string(r).map_err(|e| e.to_string())?;
    let line = morrigo_store::seal_line(&object) + "\n";
    let mut f = file
        .lock()
        .map_err(|_| "results file lock poisoned".to_string())?;
    morrigo_store::write_counted(&mut *f, line.as_bytes())
        .and_then(|_| f.flush())
        .map_err(|e| format!("cannot write the results: {e}"))
}

/// One game's end before the rules end it.
struct Stop {
    /// The seat that loses (`None`: unfinished).
    loser: Option<u8>,
    end: &'static str,
    reason: String,
    margin: Margin,
}

fn fault_stop(seat: u8, who: &str, f: Fault) -> Stop {
    let (end, margin) = match &f {
        Fault::Timeout(_) => ("timeout", Margin::Time),
        Fault::Crash(_) => ("crash", Margin::Forfeit),
        Fault::Garbage(_) => ("not GTP", Margin::Forfeit),
        Fault::Refused(_) => ("refused", Margin::Forfeit),
    };
    Stop {
        loser: Some(seat),
        end,
        reason: format!("{who}: {}", f.describe()),
        margin,
    }
}

/// Play game `n`: never fails, every fault is the result.
fn play_one(cfg: &MatchConfig, rules: &Arc<Rules>, n: u32) -> GameRecord {
    let started = Instant::now();
    let names = seats(cfg, n);
    let any = match morrigo_engine::AnyMachine::new(rules.clone()) {
        Ok(a) => a,
        Err(d) => return unplayable(cfg, n, names, diag_line(&d)),
    };
    let (setup, first) = match cfg.handicap.map(|h| handicap_stones(rules, h)) {
        None => (rules.start.stones.clone(), rules.start.to_move),
        Some(Ok(stones)) => ([stones, Vec::new()], 1),
        Some(Err(e)) => return unplayable(cfg, n, names, e),
    };
    let mut game = match new_game(any, setup, first) {
        Ok(g) => g,
        Err(e) => return unplayable(cfg, n, names, e),
    };
    let mut dead: Option<DeadRecord> = None;
    let stop = referee(cfg, rules, &names, &mut game, &mut dead);
    let removed: Vec<u16> = match &dead {
        Some(d) if d.how == "agreed" => d
            .removed
            .iter()
            .filter_map(|v| rules.topology.point(v))
            .collect(),
        _ => Vec::new(),
    };
    let sgf_name = format!("game-{n:04}.sgf");
    let (result, end, reason, winner) = match stop {
        Some(s) => {
            let result = match s.loser {
                Some(l) => GameResult::Win {
                    player: l ^ 1,
                    margin: s.margin,
                },
                None => GameResult::Ongoing,
            };
            (result, s.end.to_string(), s.reason, s.loser.map(|l| l ^ 1))
        }
        None => match game.legal() {
            // The count with the agreed dead stones removed.
            Err(o) if !removed.is_empty() => {
                let [b, w] = game.score_with(&removed);
                let winner = morrigo_engine::winner([b, w]);
                let result = match winner {
                    None => GameResult::Draw,
                    Some(player) => GameResult::Win {
                        player,
                        margin: Margin::Score((b - w).abs()),
                    },
                };
                let head = match winner {
                    Some(w) => format!("{} wins", rules.players[w as usize]),
                    None => "draw".to_string(),
                };
                let n = removed.len();
                let reason = format!(
                    "{head} by end rule `{}`, counted with the {n} dead stone{} both engines named removed",
                    o.rule_name(rules),
                    if n == 1 { "" } else { "s" }
                );
                (result, o.rule_name(rules).to_string(), reason, winner)
            }
            Err(o) => {
                let mut words = outcome_words(rules, &o);
                if dead.as_ref().is_some_and(|d| d.how == "clean-up") {
                    words += " after a clean-up (the engines disagreed on the dead stones)";
                }
                (
                    game.result(),
                    o.rule_name(rules).to_string(),
                    words,
                    o.winner,
                )
            }
            // `referee` stops without a reason only at the end of the game.
            Ok(_) => (
                GameResult::Ongoing,
                "unfinished".into(),
                String::new(),
                None,
            ),
        },
    };
    let scored = result_is_count(&result);
    let mut sgf = game
        .sgf(cfg.handicap, &result)
        .unwrap_or_else(|d| format!("(;C[{}])\n", diag_line(&d)));
    if let Some(d) = &dead {
        // Properties of a node come in any order: the comment goes first.
        sgf = sgf.replacen("(;", &format!("(;C[{}]", sgf_text(&d.comment())), 1);
    }
    let written = morrigo_store::write_atomic(&cfg.out.join(&sgf_name), sgf.as_bytes());
    let reason = match written {
        Ok(()) => reason,
        Err(e) => format!("{reason} (the SGF could not be written: {e})"),
    };
    GameRecord {
        game: n,
        black: names[0].clone(),
        white: names[1].clone(),
        winner: winner.map(|w| rules.players[w as usize].clone()),
        result: result.to_sgf(),
        end,
        reason,
        moves: game.played().len() as u32,
        score: scored.then(|| game.score_with(&removed)),
        captured: game.captured(),
        sgf: sgf_name,
        secs: started.elapsed().as_secs_f64(),
        handicap: cfg.handicap,
        dead_stones: dead,
    }
}

/// SGF text: `]` and `\` escaped.
fn sgf_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

fn result_is_count(r: &GameResult) -> bool {
    matches!(
        r,
        GameResult::Win {
            margin: Margin::Score(_),
            ..
        }
    )
}

fn unplayable(cfg: &MatchConfig, n: u32, names: [String; 2], why: String) -> GameRecord {
    GameRecord {
        game: n,
        black: names[0].clone(),
        white: names[1].clone(),
        winner: None,
        result: None,
        end: "unplayable".into(),
        reason: why,
        moves: 0,
        score: None,
        captured: [0, 0],
        sgf: String::new(),
        secs: 0.0,
        handicap: cfg.handicap,
        dead_stones: None,
    }
}

/// Run the game; `None` when the rules ended it.
fn referee(
    cfg: &MatchConfig,
    rules: &Arc<Rules>,
    names: &[String; 2],
    game: &mut Game,
    dead: &mut Option<DeadRecord>,
) -> Option<Stop> {
    let clients = match spawn_engines(cfg, rules, names) {
        Ok(c) => c,
        Err(stop) => return Some(stop),
    };
    let mut referee = Referee {
        cfg,
        rules,
        clients,
        typed: [false; 2],
        cleanup_move: [false; 2],
        moves: 0,
    };
    let stop = referee.run(game, dead).err();
    for c in referee.clients {
        c.stop();
    }
    stop
}

/// Start the engines of both seats: when one cannot start, those already
/// started are stopped and its seat loses.
fn spawn_engines(
    cfg: &MatchConfig,
    rules: &Rules,
    names: &[String; 2],
) -> Result<Vec<Client>, Stop> {
    let mut clients: Vec<Client> = Vec::new();
    for (seat, cmd) in names.iter().enumerate() {
        match Client::spawn(cmd, cfg.timeout) {
            Ok(c) => clients.push(c),
            Err(f) => {
                for c in clients {
                    c.stop();
                }
                return Err(fault_stop(seat as u8, &who(rules, seat as u8, cmd), f));
            }
        }
    }
    Ok(clients)
}

/// One game's running engines (black's, then white's) and what the
/// referee has learned of them.
struct Referee<'a> {
    cfg: &'a MatchConfig,
    rules: &'a Rules,
    clients: Vec<Client>,
    /// Whether each engine lists `morrigo-legal` (it is sent typed passes).
    typed: [bool; 2],
    /// Whether each engine knows `kgs-genmove_cleanup` (asked at a clean-up).
    cleanup_move: [bool; 2],
    /// Moves played, counted against `--max-moves` across a clean-up too.
    moves: u32,
}

impl Referee<'_> {
    /// Play the game to its end; `Err` when it ends before the rules end
    /// it. Stopping the engines is the caller's.
    fn run(&mut self, game: &mut Game, dead: &mut Option<DeadRecord>) -> Result<(), Stop> {
        self.set_up(game)?;
        let agreement = dead_by_agreement(self.rules);
        loop {
            let unsent = self.play_moves(game)?;
            if game.legal().is_ok() {
                return Err(Stop {
                    loser: None,
                    end: "move limit",
                    reason: format!("stopped after {} moves (--max-moves)", self.cfg.max_moves),
                    margin: Margin::Rule,
                });
            }
            if !game.ended_by_count() {
                return Ok(());
            }
            if !agreement {
                *dead = Some(DeadRecord::as_it_stands());
                return Ok(());
            }
            if game.cleanup_from().is_some() {
                // After the clean-up every stone counts.
                return Ok(());
            }
            if let Some((other, text)) = unsent {
                if let Some(stop) =
                    tell(&mut self.clients[other as usize], self.rules, other, &text)
                {
                    return Err(stop);
                }
            }
            let (answers, lists) = self.ask_dead_stones(game);
            match lists {
                [Some(a), Some(b)] if a == b => {
                    let t = &self.rules.topology;
                    *dead = Some(DeadRecord {
                        how: "agreed".into(),
                        removed: a.iter().map(|&p| t.name(p).to_string()).collect(),
                        answers: None,
                        cleanup_from: None,
                    });
                    return Ok(());
                }
                _ => {
                    *dead = Some(DeadRecord {
                        how: "clean-up".into(),
                        removed: Vec::new(),
                        answers: Some(answers),
                        cleanup_from: Some(game.played().len() as u32),
                    });
                    game.resume();
                    self.ask_cleanup_move();
                }
            }
        }
    }

    /// Board size, komi, an empty board and the handicap stones to each
    /// engine, and whether it takes typed passes: a fault loses the game.
    fn set_up(&mut self, game: &Game) -> Result<(), Stop> {
        let rules = self.rules;
        let size = rules.topology.width;
        let komi = rules.scoring.as_ref().map_or(0.0, |s| s.komi);
        for (seat, c) in self.clients.iter_mut().enumerate() {
            let w = who(rules, seat as u8, &c.command);
            let setup = [
                format!("boardsize {size}"),
                format!("komi {komi}"),
                "clear_board".to_string(),
            ];
            for command in setup {
                if let Err(f) = c.send(&command) {
                    return Err(fault_stop(seat as u8, &w, f));
                }
            }
            if let Some(n) = self.cfg.handicap {
                if let Some(stop) = handicap_check(c, seat as u8, &w, n, rules, game) {
                    return Err(stop);
                }
            }
            self.typed[seat] = match c.send("known_command morrigo-legal") {
                Ok(t) => t.trim() == "true",
                Err(f @ (Fault::Crash(_) | Fault::Timeout(_) | Fault::Garbage(_))) => {
                    return Err(fault_stop(seat as u8, &w, f))
                }
                Err(Fault::Refused(_)) => false,
            };
        }
        Ok(())
    }

    /// Ask for moves, play them and tell the other engine, until the game
    /// ends or the move limit. The move that ended the game comes back
    /// unsent with the seat to tell: that engine need not follow, unless
    /// it is asked for the dead stones.
    fn play_moves(&mut self, game: &mut Game) -> Result<Option<(u8, String)>, Stop> {
        while self.moves < self.cfg.max_moves {
            if game.legal().is_err() {
                break;
            }
            let seat = game.to_move();
            let mv = self.ask_move(game, seat)?;
            game.play(game.to_move(), mv);
            self.moves += 1;
            let other = seat ^ 1;
            let text = format!(
                "play {} {}",
                colour_letter(seat),
                move_for(self.rules, &mv, self.typed[other as usize])
            );
            if game.legal().is_err() {
                // The move ended the game (a suicide that loses, an
                // ending sequence).
                return Ok(Some((other, text)));
            }
            if let Some(stop) = tell(&mut self.clients[other as usize], self.rules, other, &text) {
                return Err(stop);
            }
        }
        Ok(None)
    }

    /// The legal move the engine of `seat` answers (`kgs-genmove_cleanup`
    /// in a clean-up when it knows it, else `genmove`): resigning, a fault
    /// or a move the rules refuse loses the game.
    fn ask_move(&mut self, game: &mut Game, seat: u8) -> Result<Move, Stop> {
        let w = who(self.rules, seat, &self.clients[seat as usize].command);
        let colour = colour_letter(seat);
        let ask = match game.cleanup_from().is_some() && self.cleanup_move[seat as usize] {
            true => "kgs-genmove_cleanup",
            false => "genmove",
        };
        let answer = match self.clients[seat as usize].send(&format!("{ask} {colour}")) {
            Ok(a) => a,
            Err(f) => return Err(fault_stop(seat, &w, f)),
        };
        let answer = answer.trim().to_string();
        if answer.eq_ignore_ascii_case("resign") {
            return Err(Stop {
                loser: Some(seat),
                end: "resignation",
                reason: format!("{w} resigned"),
                margin: Margin::Resign,
            });
        }
        read_move(self.rules, game, &answer).map_err(|why| Stop {
            loser: Some(seat),
            end: "illegal move",
            reason: format!("{w} played `{}`: {why}", clip(&answer)),
            margin: Margin::Forfeit,
        })
    }

    /// Ask both engines for `final_status_list dead`: each answer as the
    /// record keeps it, and the stones it names (`None`: no list, which
    /// makes a disagreement).
    fn ask_dead_stones(&mut self, game: &Game) -> ([String; 2], [Option<Vec<u16>>; 2]) {
        let mut answers = [String::new(), String::new()];
        let mut lists = [None, None];
        for (seat, c) in self.clients.iter_mut().enumerate() {
            match c.send("final_status_list dead") {
                Ok(a) => {
                    lists[seat] = dead_list(self.rules, game, &a);
                    answers[seat] = clip_to(&one_line(&a), MAX_DEAD_ANSWER);
                }
                // No list: a disagreement. A fault that lasts loses the
                // clean-up's first `genmove` or `play`.
                Err(f) => answers[seat] = clip_to(&f.describe(), MAX_DEAD_ANSWER),
            }
        }
        (answers, lists)
    }

    /// Learn which engines know `kgs-genmove_cleanup`, for the clean-up's
    /// moves; any failure to answer counts as not.
    fn ask_cleanup_move(&mut self) {
        for (seat, c) in self.clients.iter_mut().enumerate() {
            self.cleanup_move[seat] = match c.send("known_command kgs-genmove_cleanup") {
                Ok(t) => t.trim() == "true",
                Err(_) => false,
            };
        }
    }
}

/// Send the opponent's move `text` (`play b D4`) to the engine of `seat`:
/// a fault, or refusing the legal move, loses the game.
fn tell(c: &mut Client, rules: &Rules, seat: u8, text: &str) -> Option<Stop> {
    let w = who(rules, seat, &c.command);
    match c.send(text) {
        Ok(_) => None,
        Err(f) => {
            let mut s = fault_stop(seat, &w, f.clone());
            if let Fault::Refused(why) = f {
                s.reason = format!("{w} refused the legal move `{text}`: {why}");
            }
            Some(s)
        }
    }
}

/// Send `fixed_handicap n` and check the engine put its stones where the
/// game has them (in any order): a refusal or other vertices lose the game.
fn handicap_check(
    c: &mut Client,
    seat: u8,
    w: &str,
    n: u32,
    rules: &Rules,
    game: &Game,
) -> Option<Stop> {
    let command = format!("fixed_handicap {n}");
    let t = &rules.topology;
    let mut want: Vec<String> = game
        .stones(0)
        .iter()
        .map(|&p| t.name(p).to_string())
        .collect();
    want.sort();
    let lost = |reason: String| Stop {
        loser: Some(seat),
        end: "handicap",
        reason,
        margin: Margin::Forfeit,
    };
    let answer = match c.send(&command) {
        Ok(a) => a,
        Err(Fault::Refused(why)) => return Some(lost(format!("{w} refused `{command}`: {why}"))),
        Err(f) => return Some(fault_stop(seat, w, f)),
    };
    // Vertices as the engine names them (`c3`, `C3`): compared by point.
    let mut got: Vec<String> = answer
        .split_whitespace()
        .map(|v| match parse_vertex(v) {
            Some((c, r)) => vertex_text(c, r),
            None => v.to_string(),
        })
        .collect();
    got.sort();
    if got != want {
        return Some(lost(format!(
            "{w} answered `{command}` with `{}`, not the standard's {}",
            clip(answer.trim()),
            want.join(" ")
        )));
    }
    None
}

/// "black (gnugo --mode gtp)".
fn who(rules: &Rules, seat: u8, cmd: &str) -> String {
    format!(
        "{} (`{cmd}`)",
        rules.players.get(seat as usize).map_or("?", String::as_str)
    )
}

fn clip_to(s: &str, n: usize) -> String {
    let mut t: String = s.chars().take(n).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

/// The legal move an engine's answer names, or why it is none.
fn read_move(rules: &Rules, game: &mut Game, answer: &str) -> Result<Move, String> {
    let lower = answer.to_ascii_lowercase();
    let intent = if lower == "pass" {
        Intent::Pass(game.plain_pass(game.to_move()))
    } else if lower.starts_with("pass:") {
        notation::parse_token_in(rules, answer, None)
            .map_err(|d| diag_line(&d))?
            .first()
            .copied()
            .ok_or("not a move")?
    } else {
        let (c, r) = parse_vertex(answer).ok_or("not a GTP vertex or pass")?;
        let p = rules
            .topology
            .point(&vertex_text(c, r))
            .ok_or("off the board")?;
        Intent::Place(p)
    };
    game.check(game.to_move(), intent)
}

/// A move as sent with `play`: passes typed for a Morrigo engine, plain
/// `pass` for any other.
fn move_for(rules: &Rules, mv: &Move, typed: bool) -> String {
    match mv {
        Move::Pass { .. } if !typed => "pass".to_string(),
        _ => notation::format_move_in(rules, &mv.packed()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            ruleset: "chinese".into(),
            ruleset_crc32: "0badf00d".into(),
            size: [9, 9],
            komi: 7.5,
            handicap: None,
        }
    }

    /// Each field of the manifest tells two matches apart, in words: an
    /// edited ruleset text under the same name too.
    #[test]
    fn a_manifest_names_what_differs() {
        let was = manifest();
        assert_eq!(was.differs(&manifest()), None);
        let now = Manifest {
            ruleset_crc32: "12345678".into(),
            ..manifest()
        };
        assert_eq!(
            was.differs(&now).unwrap(),
            "another text of ruleset `chinese` (CRC-32 0badf00d, this one's is 12345678)"
        );
        let now = Manifest {
            handicap: Some(3),
            ..manifest()
        };
        assert_eq!(was.differs(&now).unwrap(), "no handicap, not handicap 3");
    }

    /// A manifest whose checksum does not match is refused, never compared.
    #[test]
    fn a_damaged_manifest_is_refused() {
        let dir = std::env::temp_dir().join(format!("morrigo-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        check_manifest(&dir, &manifest()).unwrap();
        check_manifest(&dir, &manifest()).unwrap();
        let path = dir.join(MANIFEST_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("7.5", "6.5")).unwrap();
        let e = check_manifest(&dir, &manifest()).unwrap_err();
        assert!(
            e.contains("match.json` is damaged: the line's checksum does not match"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
