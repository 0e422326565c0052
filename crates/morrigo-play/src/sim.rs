//! Many playouts in parallel, summed into a [`SimReport`].

use crate::agent::Player;
use crate::counters::{CountPlan, RuleEvent};
use crate::playout::{playout, playout_hashed, GameRecord};
use crate::progress::Progress;
use crate::seeds::game_rng;
use crate::spec::AgentSpec;
use crate::stats::{wilson, LengthStats};
use morrigo_engine::{with_machine, AnyMachine, Machine, State};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Default ply cap of one simulated game.
pub const DEFAULT_MAX_PLIES: u32 = 2000;

/// What to simulate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimConfig {
    /// Games to play.
    pub games: u32,
    /// Seeds every game's random generator (see [`game_rng`](crate::game_rng)).
    pub seed: u64,
    /// Games still running after this many plies count as unfinished.
    pub max_plies: u32,
    /// Agent of the first and of the second player.
    pub agents: [AgentSpec; 2],
    /// Worker threads; `None` uses rayon's global pool.
    pub threads: Option<usize>,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            games: 1000,
            seed: 0,
            max_plies: DEFAULT_MAX_PLIES,
            agents: [AgentSpec::Random; 2],
            threads: None,
        }
    }
}

impl SimConfig {
    /// The default configuration with `games` games seeded by `seed`.
    pub fn new(games: u32, seed: u64) -> Self {
        SimConfig {
            games,
            seed,
            ..SimConfig::default()
        }
    }
}

/// The summed results of a simulation of one ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimReport {
    /// Ruleset name, e.g. `nine-mens-morris`.
    pub ruleset: String,
    /// The ruleset's title.
    pub title: String,
    /// Names of the first and second player.
    pub players: [String; 2],
    /// Agents of the first and second player.
    pub agents: [AgentSpec; 2],
    /// The seed the games were played with.
    pub seed: u64,
    /// The ply cap of every game.
    pub max_plies: u32,
    /// Games played.
    pub games: u32,
    /// Wins by seat: first player, second player.
    pub wins: [u32; 2],
    /// Games drawn by an end rule.
    pub draws: u32,
    /// Games ended with no result (neither a win nor a draw; not counted
    /// in `draws`); `None` (and left out of JSON) when no end rule of the
    /// ruleset has that verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_results: Option<u32>,
    /// Games no end rule decided: cut off at `max_plies`, or stuck.
    pub unfinished: u32,
    /// Of the unfinished games, those where the player to move had no legal
    /// move and no end rule decided (the rules left the game stuck).
    #[serde(default)]
    pub stuck: u32,
    /// Games ended by a `score` verdict (counted).
    #[serde(default)]
    pub counted: u32,
    /// Mean score of each player over the counted games (komi included);
    /// `None` when no game was counted.
    #[serde(default)]
    pub mean_score: Option<[f64; 2]>,
    /// Captured prisoners each player took, summed over all games.
    #[serde(default)]
    pub captured: [u64; 2],
    /// Mean game length in plies.
    pub mean_plies: f64,
    /// Mean game length in turns (a move with the removals it earns).
    pub mean_turns: f64,
    /// How often each end rule decided a game, in the ruleset's order.
    pub end_rules: Vec<(String, u32)>,
    /// Plies played, over all games.
    pub total_plies: u64,
    /// Turns played, over all games.
    pub total_turns: u64,
    /// 95% Wilson score intervals of each seat's share of wins, in percent:
    /// `[[first low, first high], [second low, second high]]`.
    #[serde(default)]
    pub wins_ci95: [[f64; 2]; 2],
    /// Per end rule, in the ruleset's order: the games it decided for each
    /// seat (a win of one seat is the other's loss) and as draws.
    #[serde(default)]
    pub outcomes: Vec<EndOutcome>,
    /// Game length in plies over all games.
    #[serde(default)]
    pub length: LengthStats,
    /// How many of the games differ from each other in their moves (by a
    /// 64-bit hash of each game's move sequence); `None` when the moves of
    /// some game are unknown (games summed from records without them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct_games: Option<u32>,
    /// How often each rule came into play, over all games.
    #[serde(default)]
    pub events: Vec<RuleEvent>,
    /// Wall-clock time; with `secs_per_game`, the only fields that vary
    /// between identical runs.
    pub elapsed_secs: f64,
    /// Mean time one game took on its thread.
    #[serde(default)]
    pub secs_per_game: f64,
}

/// How one end rule decided games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndOutcome {
    /// The end rule's name.
    pub rule: String,
    /// Games won by the first and by the second seat under this rule.
    pub wins: [u32; 2],
    /// Games the rule ended without a winner: draws, or games with no
    /// result when the rule's verdict is `no_result`.
    pub draws: u32,
}

impl EndOutcome {
    /// Games the rule decided, won or not.
    pub fn total(&self) -> u32 {
        self.wins[0] + self.wins[1] + self.draws
    }
}

impl SimReport {
    /// Share of all games, in percent (0 when no games were played).
    pub fn pct(&self, count: u32) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            100.0 * count as f64 / self.games as f64
        }
    }

    /// Plies played per second of wall-clock time.
    pub fn plies_per_sec(&self) -> f64 {
        per_sec(self.total_plies as f64, self.elapsed_secs)
    }

    /// Games cut off at `max_plies`.
    pub fn cut_off(&self) -> u32 {
        self.unfinished - self.stuck.min(self.unfinished)
    }
}

/// The pairing `compare` seats when none is given: the strongest agent
/// that keeps the main job (every built-in Morris ruleset, 30 games each)
/// within two minutes on two cores, the same on both seats, so each
/// seat's share of wins measures the seat. Rulesets whose turns move or
/// remove pieces (no board plays) get alpha-beta with a node budget
/// ([`DEFAULT_NODES`]: the same games on every machine; small games are
/// played from their solved table); rulesets of board plays (Go-style)
/// get Monte Carlo search ([`DEFAULT_PLAYOUTS`]), whose playouts see
/// captures and passes. Seeded ties make the games differ.
pub fn default_pairings(rules: &morrigo_rules::Rules) -> Vec<[AgentSpec; 2]> {
    let agent = if rules.play.is_some() {
        AgentSpec::Mcts(crate::spec::MctsParams {
            playouts: DEFAULT_PLAYOUTS,
            ..Default::default()
        })
    } else {
        AgentSpec::AlphaBeta(crate::spec::AlphaBetaParams {
            depth: crate::spec::AlphaBetaParams::MAX_DEPTH,
            nodes: Some(DEFAULT_NODES),
            ..Default::default()
        })
    };
    vec![[agent; 2]]
}

/// Playouts per move of the default Monte Carlo pairing (board plays).
pub const DEFAULT_PLAYOUTS: u32 = 200;

/// Positions per move of the default alpha-beta pairing (Morris-style).
pub const DEFAULT_NODES: u64 = 3000;

/// Scores are summed in fixed point (this many units per point), so the
/// sum — and the mean — is the same whatever the grouping of games.
const SCORE_UNIT: f64 = 4096.0;

pub(crate) fn per_sec(n: f64, secs: f64) -> f64 {
    if secs > 0.0 {
        n / secs
    } else {
        0.0
    }
}

/// Distinct games are counted exactly up to this many (8 bytes a game, so
/// a sweep of a billion games stays within tens of MiB); a report at the
/// cap says "at least" (`distinct_games == MAX_DISTINCT_COUNTED`).
pub const MAX_DISTINCT_COUNTED: usize = 1 << 20;

/// Sums over games; integer-only, so any grouping gives the same totals.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    wins: [u32; 2],
    draws: u32,
    no_results: u32,
    unfinished: u32,
    stuck: u32,
    counted: u32,
    score: [i64; 2],
    captured: [u64; 2],
    plies: u64,
    turns: u64,
    /// Per end rule: first-seat wins, second-seat wins, draws.
    by_rule: Vec<[u32; 3]>,
    /// Rule event counters (see [`CountPlan`]).
    pub(crate) counts: Vec<u64>,
    /// Game length in plies → games.
    lengths: BTreeMap<u32, u32>,
    /// Hashes of the games' move sequences (see `distinct_games`), at
    /// most [`MAX_DISTINCT_COUNTED`] of them.
    hashes: HashSet<u64>,
    /// Some game came without its hash: distinct games are not known.
    unhashed: bool,
    /// Summed time of the games (not deterministic; reported apart).
    pub(crate) nanos: u128,
}

impl Tally {
    pub(crate) fn new(rules: usize, plan: &CountPlan) -> Self {
        Tally {
            by_rule: vec![[0; 3]; rules],
            counts: plan.counters(),
            ..Tally::default()
        }
    }

    /// Empty sums for a ruleset of `rules` end rules, without event counters.
    pub(crate) fn with_end_rules(rules: usize) -> Self {
        Tally {
            by_rule: vec![[0; 3]; rules],
            ..Tally::default()
        }
    }

    /// Add one game; `hash`: of its move sequence, if known.
    pub(crate) fn add(&mut self, g: &GameRecord, hash: Option<u64>) {
        match hash {
            Some(h) => {
                if self.hashes.len() < MAX_DISTINCT_COUNTED {
                    self.hashes.insert(h);
                }
            }
            None => self.unhashed = true,
        }
        match (g.end_rule, g.winner) {
            (None, _) => self.unfinished += 1,
            (Some(_), Some(w)) => self.wins[w as usize & 1] += 1,
            (Some(_), None) if g.no_result => self.no_results += 1,
            (Some(_), None) => self.draws += 1,
        }
        if let Some(r) = g.end_rule {
            if let Some(c) = self.by_rule.get_mut(r as usize) {
                c[g.winner.map_or(2, |w| w as usize & 1)] += 1;
            }
        }
        *self.lengths.entry(g.plies).or_default() += 1;
        self.stuck += g.stuck as u32;
        if let Some(score) = g.score {
            self.counted += 1;
            for (sum, v) in self.score.iter_mut().zip(score) {
                *sum += (v * SCORE_UNIT).round() as i64;
            }
        }
        self.captured[0] += g.captured[0] as u64;
        self.captured[1] += g.captured[1] as u64;
        self.plies += g.plies as u64;
        self.turns += g.turns as u64;
    }

    /// Games summed (each game has one length).
    fn games(&self) -> u64 {
        self.lengths.values().map(|&c| u64::from(c)).sum()
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
        self.no_results += o.no_results;
        self.unfinished += o.unfinished;
        self.stuck += o.stuck;
        self.counted += o.counted;
        for i in 0..2 {
            self.score[i] += o.score[i];
            self.captured[i] += o.captured[i];
        }
        self.plies += o.plies;
        self.turns += o.turns;
        for (a, b) in self.by_rule.iter_mut().zip(o.by_rule) {
            for i in 0..3 {
                a[i] += b[i];
            }
        }
        for (a, b) in self.counts.iter_mut().zip(o.counts) {
            *a += b;
        }
        for (l, c) in o.lengths {
            *self.lengths.entry(l).or_default() += c;
        }
        for h in o.hashes {
            if self.hashes.len() >= MAX_DISTINCT_COUNTED {
                break;
            }
            self.hashes.insert(h);
        }
        self.unhashed |= o.unhashed;
        self.nanos += o.nanos;
        self
    }
}

/// Play game `index` of a run from the initial position.
pub fn play_game<const W: usize>(
    m: &Machine<W>,
    cfg: &SimConfig,
    index: u64,
    moves: &mut Vec<morrigo_engine::Move>,
) -> GameRecord {
    let mut rng = game_rng(cfg.seed, index);
    let mut s = m.initial();
    playout(m, &mut s, cfg.agents, &mut rng, cfg.max_plies, moves)
}

/// Play `cfg.games` games in parallel. The report (but for `elapsed_secs`)
/// depends only on the ruleset and `cfg`, never on the thread count.
pub fn simulate(any: &AnyMachine, cfg: &SimConfig, progress: Option<&dyn Progress>) -> SimReport {
    let started = Instant::now();
    let tally = run_in_pool(any, cfg, progress, &AtomicBool::new(false));
    summed(any, cfg, &tally, started)
}

/// [`simulate`], stopped once `stop` is set: no game starts after that, so
/// the run ends when each worker thread has finished the game it was
/// playing. `None` when games were left unplayed (a report of part of the
/// games would not be the report of `cfg`); `progress` has counted the
/// games that were played.
pub fn simulate_until(
    any: &AnyMachine,
    cfg: &SimConfig,
    progress: Option<&dyn Progress>,
    stop: &AtomicBool,
) -> Option<SimReport> {
    let started = Instant::now();
    let tally = run_in_pool(any, cfg, progress, stop);
    if stop.load(Ordering::Relaxed) && tally.games() < u64::from(cfg.games) {
        return None;
    }
    Some(summed(any, cfg, &tally, started))
}

fn run_in_pool(
    any: &AnyMachine,
    cfg: &SimConfig,
    progress: Option<&dyn Progress>,
    stop: &AtomicBool,
) -> Tally {
    match cfg.threads {
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => pool.install(|| run(any, cfg, progress, stop)),
            Err(_) => run(any, cfg, progress, stop),
        },
        None => run(any, cfg, progress, stop),
    }
}

fn summed(any: &AnyMachine, cfg: &SimConfig, tally: &Tally, started: Instant) -> SimReport {
    let elapsed_secs = started.elapsed().as_secs_f64();
    let rules = any.rules();
    let events = CountPlan::new(rules).events(rules, &tally.counts);
    report(&ReportHeader::of(rules), cfg, tally, events, elapsed_secs)
}

/// What a report says of its ruleset, whatever games were played: enough
/// to sum games played elsewhere (a sweep's shards) into the report
/// [`simulate`] gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportHeader {
    /// Ruleset name, e.g. `nine-mens-morris`.
    pub ruleset: String,
    /// The ruleset's title.
    pub title: String,
    /// Names of the first and second player.
    pub players: [String; 2],
    /// End rule names, in the ruleset's order.
    pub end_rules: Vec<String>,
    /// Some end rule has the `no_result` verdict.
    pub no_result: bool,
    /// The rule events the ruleset can produce, in report order.
    pub events: Vec<String>,
}

impl ReportHeader {
    /// The header of every report of `rules`.
    pub fn of(rules: &morrigo_rules::Rules) -> Self {
        let plan = CountPlan::new(rules);
        let player = |i: usize| {
            rules
                .players
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("player {}", i + 1))
        };
        ReportHeader {
            ruleset: rules.name.clone(),
            title: rules.title.clone(),
            players: [player(0), player(1)],
            end_rules: rules.end.iter().map(|e| e.name.clone()).collect(),
            no_result: rules
                .end
                .iter()
                .any(|e| e.verdict == morrigo_rules::Verdict::NoResult),
            events: plan
                .events(rules, &plan.counters())
                .into_iter()
                .map(|e| e.event)
                .collect(),
        }
    }
}

/// The report of the games summed in `tally` (`events`: the rule events
/// with their counts).
pub(crate) fn report(
    h: &ReportHeader,
    cfg: &SimConfig,
    tally: &Tally,
    events: Vec<RuleEvent>,
    elapsed_secs: f64,
) -> SimReport {
    let ci = |w: u32| {
        // Percent to 4 decimals: short decimals survive a JSON round trip.
        let (lo, hi) = wilson(w, cfg.games);
        [lo, hi].map(|x| (x * 1e6).round() / 1e4)
    };
    let mean = |total: u64| {
        if cfg.games == 0 {
            0.0
        } else {
            total as f64 / cfg.games as f64
        }
    };
    SimReport {
        ruleset: h.ruleset.clone(),
        title: h.title.clone(),
        players: h.players.clone(),
        agents: cfg.agents,
        seed: cfg.seed,
        max_plies: cfg.max_plies,
        games: cfg.games,
        wins: tally.wins,
        draws: tally.draws,
        no_results: h.no_result.then_some(tally.no_results),
        unfinished: tally.unfinished,
        stuck: tally.stuck,
        counted: tally.counted,
        mean_score: (tally.counted > 0).then(|| {
            tally
                .score
                .map(|t| t as f64 / SCORE_UNIT / tally.counted as f64)
        }),
        captured: tally.captured,
        mean_plies: mean(tally.plies),
        mean_turns: mean(tally.turns),
        end_rules: h
            .end_rules
            .iter()
            .zip(&tally.by_rule)
            .map(|(e, c)| (e.clone(), c.iter().sum()))
            .collect(),
        total_plies: tally.plies,
        total_turns: tally.turns,
        wins_ci95: [ci(tally.wins[0]), ci(tally.wins[1])],
        outcomes: h
            .end_rules
            .iter()
            .zip(&tally.by_rule)
            .map(|(e, c)| EndOutcome {
                rule: e.clone(),
                wins: [c[0], c[1]],
                draws: c[2],
            })
            .collect(),
        length: LengthStats::of(&tally.lengths),
        distinct_games: (!tally.unhashed).then_some(tally.hashes.len() as u32),
        events,
        elapsed_secs,
        secs_per_game: if cfg.games == 0 {
            0.0
        } else {
            tally.nanos as f64 / 1e9 / f64::from(cfg.games)
        },
    }
}

fn run(
    any: &AnyMachine,
    cfg: &SimConfig,
    progress: Option<&dyn Progress>,
    stop: &AtomicBool,
) -> Tally {
    with_machine!(any, m => run_on(m, cfg, progress, stop))
}

fn run_on<const W: usize>(
    m: &Machine<W>,
    cfg: &SimConfig,
    progress: Option<&dyn Progress>,
    stop: &AtomicBool,
) -> Tally {
    let rules = m.rules.end.len();
    let plan = CountPlan::new(&m.rules);
    let initial = m.initial();
    (0..cfg.games)
        .into_par_iter()
        .with_min_len(8)
        .fold(
            || {
                let players = cfg.agents.map(Player::new);
                (Tally::new(rules, &plan), Vec::with_capacity(64), players)
            },
            |(mut tally, mut moves, mut players), index| {
                // One relaxed load a game: once stopped, the remaining
                // indices are skipped without playing.
                if stop.load(Ordering::Relaxed) {
                    return (tally, moves, players);
                }
                let started = Instant::now();
                let (g, hash) = counted_game(
                    m,
                    &initial,
                    cfg,
                    index as u64,
                    &mut players,
                    &mut moves,
                    &plan,
                    &mut tally.counts,
                );
                tally.add(&g, Some(hash));
                tally.nanos += started.elapsed().as_nanos();
                if let Some(p) = progress {
                    p.inc(1);
                }
                (tally, moves, players)
            },
        )
        .map(|(tally, _, _)| tally)
        .reduce(|| Tally::new(rules, &plan), Tally::merge)
}

/// Game `index` of a run from `initial`, its rule events added to `counts`,
/// with the hash of its moves: the one place a simulated game is set up
/// ([`simulate`], a sweep's shards).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn counted_game<const W: usize>(
    m: &Machine<W>,
    initial: &State<W>,
    cfg: &SimConfig,
    index: u64,
    players: &mut [Player; 2],
    moves: &mut Vec<morrigo_engine::Move>,
    plan: &CountPlan,
    counts: &mut [u64],
) -> (GameRecord, u64) {
    let mut rng = game_rng(cfg.seed, index);
    let mut s = initial.clone();
    players.iter_mut().for_each(Player::new_game);
    playout_hashed(
        m,
        &mut s,
        players,
        &mut rng,
        cfg.max_plies,
        moves,
        Some((plan, counts)),
    )
}

#[cfg(test)]
mod distinct_cap_tests {
    use super::*;
    use crate::seeds::splitmix64;

    fn record() -> GameRecord {
        GameRecord {
            winner: None,
            end_rule: Some(0),
            stuck: false,
            score: None,
            captured: [0; 2],
            no_result: false,
            plies: 1,
            turns: 1,
        }
    }

    /// A sweep's billion games must not keep a hash each: distinct games
    /// are counted up to the cap, in one tally and across merged ones.
    #[test]
    fn distinct_games_stop_being_counted_at_the_cap_whatever_the_games() {
        let extra = 1000u64;
        let mut a = Tally::with_end_rules(1);
        for h in 0..MAX_DISTINCT_COUNTED as u64 + extra {
            a.add(&record(), Some(splitmix64(h)));
        }
        assert_eq!(a.hashes.len(), MAX_DISTINCT_COUNTED);
        let mut b = Tally::with_end_rules(1);
        for h in 0..extra {
            b.add(&record(), Some(splitmix64(h ^ (1 << 40))));
        }
        let merged = b.merge(a);
        assert_eq!(merged.hashes.len(), MAX_DISTINCT_COUNTED);
        // Below the cap the count is exact: repeats count once.
        let mut c = Tally::with_end_rules(1);
        for h in [1u64, 2, 1, 3, 2] {
            c.add(&record(), Some(h));
        }
        assert_eq!(c.hashes.len(), 3);
    }
}
