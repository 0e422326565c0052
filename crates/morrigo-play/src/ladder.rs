//! A ladder: a round robin of agent settings on one ruleset, rated by
//! Bradley–Terry maximum likelihood (draws half a win each, as ordo and
//! BayesElo count them), with each pairing's draw rate and, where a solved
//! table exists, each agent's blunder rate against it.
//!
//! Ratings are Elo, anchored at a mean of 0, found by the MM algorithm
//! (Hunter 2004) with one virtual draw per pairing (BayesElo's prior in
//! small), so an agent that wins or loses every game still gets a finite
//! rating. 95% intervals come from the observed Fisher information at the
//! maximum, under the same mean-0 anchor.
//!
//! Game `g` of pairing `k` is seeded by `game_rng(pair_seed(seed, k), g)`
//! and the agents take turns at the first seat (even games: the pairing's
//! first agent), so the results depend only on the seed, never on the
//! thread count (unless an agent has a time budget).

use crate::agent::Player;
use crate::progress::Progress;
use crate::seeds::{game_rng, splitmix64};
use crate::spec::{AgentSpec, PerfectParams};
use crate::stats::Z95;
use crate::table::Format;
use morrigo_engine::{with_machine, AnyMachine, Machine, Move, State};
use morrigo_solve::{Table, Value};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::sync::Arc;

/// Virtual draws added to every pairing before rating.
pub const PRIOR_DRAWS: f64 = 1.0;

/// Elo points per unit of natural-log strength.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// What to play.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The agent settings, each at most once.
    pub agents: Vec<AgentSpec>,
    /// Games of each pairing.
    pub games: u32,
    /// Seeds every pairing's games (see the module documentation).
    pub seed: u64,
    /// Games still running after this many plies count as unfinished.
    pub max_plies: u32,
    /// Worker threads; `None` uses rayon's global pool.
    pub threads: Option<usize>,
    /// The solved table moves are judged by (`None`: no blunder rates).
    pub table: Option<Arc<Table>>,
}

/// The results of two agents against each other.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairResult {
    /// Indices of the two agents in the ladder's list.
    pub agents: [usize; 2],
    /// Games played.
    pub games: u32,
    /// Games won by each of the two.
    pub wins: [u32; 2],
    /// Games drawn by an end rule.
    pub draws: u32,
    /// Games cut off at the ply cap, stuck, or ended with no result:
    /// counted as draws in the ratings, apart in the draw rate.
    pub unfinished: u32,
}

impl PairResult {
    /// Points of agent `side` (0 or 1): a win 1, anything else ½.
    pub fn score(&self, side: usize) -> f64 {
        f64::from(self.wins[side]) + 0.5 * f64::from(self.draws + self.unfinished)
    }
}

/// Ratings of `n` agents from their results.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo, mean 0.
    pub elo: Vec<f64>,
    /// Half the width of each 95% interval, in Elo.
    pub ci95: Vec<f64>,
}

/// Bradley–Terry maximum likelihood of `n` agents' `results` (draws and
/// unfinished games half a win each, plus [`PRIOR_DRAWS`] per pairing).
pub fn bradley_terry(n: usize, results: &[PairResult]) -> Ratings {
    // Games and points of each ordered pair, prior included.
    let mut games = vec![vec![0.0f64; n]; n];
    let mut points = vec![0.0f64; n];
    for r in results {
        let [a, b] = r.agents;
        if a >= n || b >= n || a == b {
            continue;
        }
        let g = f64::from(r.games) + PRIOR_DRAWS;
        games[a][b] += g;
        games[b][a] += g;
        points[a] += r.score(0) + 0.5 * PRIOR_DRAWS;
        points[b] += r.score(1) + 0.5 * PRIOR_DRAWS;
    }
    let mut gamma = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut change = 0.0f64;
        let mut next = gamma.clone();
        for i in 0..n {
            let denom: f64 = (0..n)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            if denom > 0.0 && points[i] > 0.0 {
                next[i] = points[i] / denom;
            }
        }
        // Geometric mean 1: the mean rating is 0.
        let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for (g, old) in next.iter_mut().zip(&gamma) {
            *g = (g.ln() - mean_log).exp();
            change = change.max((g.ln() - old.ln()).abs());
        }
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    // Observed information of the log-strengths: a Laplacian whose null
    // space is the common shift; its pseudo-inverse is the covariance under
    // the mean-0 anchor.
    let mut info = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                let p = gamma[i] / (gamma[i] + gamma[j]);
                let w = games[i][j] * p * (1.0 - p);
                info[i][j] -= w;
                info[i][i] += w;
            }
        }
    }
    let ci95 = match pseudo_inverse_diagonal(&info) {
        Some(d) => d
            .iter()
            .map(|v| Z95 * ELO_PER_NAT * v.max(0.0).sqrt())
            .collect(),
        None => vec![f64::INFINITY; n],
    };
    Ratings {
        elo: gamma.iter().map(|g| ELO_PER_NAT * g.ln()).collect(),
        ci95,
    }
}

/// The diagonal of the pseudo-inverse of a connected graph's Laplacian `l`:
/// (L + J/n)⁻¹ − J/n, J the all-ones matrix. `None` if singular (the
/// agents' games do not connect them all).
fn pseudo_inverse_diagonal(l: &[Vec<f64>]) -> Option<Vec<f64>> {
    let n = l.len();
    let k = 1.0 / n as f64;
    // Gauss–Jordan on [L + J/n | I].
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let mut row: Vec<f64> = l[i].iter().map(|v| v + k).collect();
            row.extend((0..n).map(|j| f64::from(u8::from(i == j))));
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        a[col].iter_mut().for_each(|v| *v /= p);
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let f = row[col];
            if r != col && f != 0.0 {
                for (v, p) in row.iter_mut().zip(&pivot_row) {
                    *v -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n + i] - k).collect())
}

/// Moves an agent chose where it had a choice, judged by a solved table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blunders {
    /// Moves chosen among two or more legal moves, all of known value.
    pub moves: u64,
    /// Of those, moves that turned a won position into a drawn or lost
    /// one, or a drawn one into a lost one.
    pub blunders: u64,
}

impl Blunders {
    /// Share of judged moves that were blunders, in percent.
    pub fn pct(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            100.0 * self.blunders as f64 / self.moves as f64
        }
    }
}

/// One agent's line of the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentRow {
    /// The agent settings.
    pub agent: AgentSpec,
    /// The rating: Elo, with a mean of 0 over the ladder.
    pub elo: f64,
    /// 95% interval of `elo`.
    pub elo_ci95: [f64; 2],
    /// Games played, over all pairings.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn by an end rule.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Games cut off, stuck or ended with no result.
    pub unfinished: u32,
    /// Points (draws and unfinished games ½) per game, in percent.
    pub score_pct: f64,
    /// `None` when no table judged the moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blunders: Option<Blunders>,
}

impl AgentRow {
    /// Draws among this agent's games, in percent.
    pub fn draw_pct(&self) -> f64 {
        pct(self.draws, self.games)
    }
    /// Games won or lost, in percent.
    pub fn decisive_pct(&self) -> f64 {
        pct(self.wins + self.losses, self.games)
    }
}

fn pct(k: u32, n: u32) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * f64::from(k) / f64::from(n)
    }
}

/// A ladder's results: agents in the order given, pairings in round-robin
/// order (0–1, 0–2, …, 1–2, …).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderReport {
    /// Ruleset name, e.g. `nine-mens-morris`.
    pub ruleset: String,
    /// The ruleset's title.
    pub title: String,
    /// The seed the ladder was played with.
    pub seed: u64,
    /// Games of each pairing.
    pub games: u32,
    /// The ply cap of every game.
    pub max_plies: u32,
    /// How the ratings were made, in words.
    pub method: String,
    /// The value of the start under perfect play, when a table judged moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perfect_play: Option<String>,
    /// One line per agent, in the order given.
    pub agents: Vec<AgentRow>,
    /// One result per pairing, in round-robin order.
    pub pairs: Vec<PairResult>,
}

/// How [`bradley_terry`] rates, for reports.
pub const METHOD: &str = "Bradley–Terry maximum likelihood (MM), draws and unfinished games half a win, one virtual draw per pairing; Elo anchored at a mean of 0; 95% intervals from the observed Fisher information";

/// The seed of pairing `k`'s games.
pub fn pair_seed(seed: u64, k: usize) -> u64 {
    splitmix64(seed ^ splitmix64(k as u64 ^ 0x6c61_6464_6572))
}

/// The table of `perfect` (from `table=FILE`, or solved in at most
/// `max_bytes`), for judging moves; the error says why not, for the user.
pub fn table_for(
    rules: &morrigo_rules::Rules,
    p: PerfectParams,
    max_bytes: u64,
) -> Result<Arc<Table>, String> {
    crate::perfect::prepare_agents(rules, &[AgentSpec::Perfect(p)], max_bytes)?;
    crate::perfect::table(rules, p).ok_or_else(|| "the solved table could not be had".into())
}

/// Most piece placements (both sides' pieces on the board, every count up
/// to what each player has) a game may have for [`solves_cheaply`].
pub const CHEAP_PLACEMENTS: f64 = 100_000.0;

/// Whether the game is small enough to solve in memory at once, in well
/// under a second: the solver accepts it, and its placements of pieces on
/// the board, Σ C(points, a)·C(points − a, b) over each side's counts, are
/// at most [`CHEAP_PLACEMENTS`] (so a large game is refused before any
/// exploration).
pub fn solves_cheaply(any: &AnyMachine) -> bool {
    if morrigo_solve::retrograde_applies(any.rules()).is_err() {
        return false;
    }
    let (points, pieces) = with_machine!(any, m => {
        let s = m.initial();
        (m.points(), [0, 1].map(|i| s.pos.in_hand[i] + s.pos.on_board[i]))
    });
    placements(points as u32, pieces) <= CHEAP_PLACEMENTS
}

/// Σ C(p, a)·C(p − a, b) for a ≤ pieces[0], b ≤ pieces[1] (as a float: a
/// large game only needs to compare as large).
fn placements(p: u32, pieces: [u32; 2]) -> f64 {
    let choose = |n: u32, k: u32| -> f64 {
        if k > n {
            return 0.0;
        }
        (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
    };
    let mut total = 0.0;
    for a in 0..=pieces[0].min(p) {
        for b in 0..=pieces[1].min(p - a) {
            total += choose(p, a) * choose(p - a, b);
        }
    }
    total
}

/// One game's result, seen from the pairing.
#[derive(Clone, Copy, Debug, Default)]
struct GameResult {
    /// Winner: 0 the pairing's first agent, 1 the second.
    winner: Option<usize>,
    draw: bool,
    blunders: [Blunders; 2],
}

/// Play the round robin. The report depends only on `any` and `cfg`.
pub fn ladder(
    any: &AnyMachine,
    cfg: &LadderConfig,
    progress: Option<&dyn Progress>,
) -> LadderReport {
    let n = cfg.agents.len();
    let pairs: Vec<[usize; 2]> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| [a, b]))
        .collect();
    let jobs: Vec<(usize, u32)> = (0..pairs.len())
        .flat_map(|k| (0..cfg.games).map(move |g| (k, g)))
        .collect();
    let play = || with_machine!(any, m => play_all(m, cfg, &pairs, &jobs, progress));
    let results = match cfg.threads {
        Some(t) => match rayon::ThreadPoolBuilder::new().num_threads(t).build() {
            Ok(pool) => pool.install(play),
            Err(_) => play(),
        },
        None => play(),
    };
    let mut sums: Vec<PairResult> = pairs
        .iter()
        .map(|&agents| PairResult {
            agents,
            ..PairResult::default()
        })
        .collect();
    let mut blunders = vec![Blunders::default(); n];
    for (&(k, _), r) in jobs.iter().zip(&results) {
        let p = &mut sums[k];
        p.games += 1;
        match r.winner {
            Some(w) => p.wins[w] += 1,
            None if r.draw => p.draws += 1,
            None => p.unfinished += 1,
        }
        for side in 0..2 {
            let b = &mut blunders[p.agents[side]];
            b.moves += r.blunders[side].moves;
            b.blunders += r.blunders[side].blunders;
        }
    }
    let ratings = bradley_terry(n, &sums);
    let agents = (0..n)
        .map(|i| {
            let mut row = AgentRow {
                agent: cfg.agents[i],
                elo: round2(ratings.elo[i]),
                elo_ci95: [
                    round2(ratings.elo[i] - ratings.ci95[i]),
                    round2(ratings.elo[i] + ratings.ci95[i]),
                ],
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                unfinished: 0,
                score_pct: 0.0,
                blunders: cfg.table.as_ref().map(|_| blunders[i]),
            };
            let mut points = 0.0;
            for p in &sums {
                let Some(side) = p.agents.iter().position(|&a| a == i) else {
                    continue;
                };
                row.games += p.games;
                row.wins += p.wins[side];
                row.losses += p.wins[1 - side];
                row.draws += p.draws;
                row.unfinished += p.unfinished;
                points += p.score(side);
            }
            row.score_pct = if row.games == 0 {
                0.0
            } else {
                round2(100.0 * points / f64::from(row.games))
            };
            row
        })
        .collect();
    LadderReport {
        ruleset: any.rules().name.clone(),
        title: any.rules().title.clone(),
        seed: cfg.seed,
        games: cfg.games,
        max_plies: cfg.max_plies,
        method: METHOD.to_string(),
        perfect_play: cfg.table.as_ref().map(|t| describe(t.start_value())),
        agents,
        pairs: sums,
    }
}

/// Two decimals: short numbers that survive a JSON round trip unchanged.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn describe(v: Value) -> String {
    match v {
        Value::Win(d) => format!("the first player wins (in {d} plies)"),
        Value::Loss(d) => format!("the second player wins (in {d} plies)"),
        Value::Draw => "a draw".to_string(),
    }
}

fn play_all<const W: usize>(
    m: &Machine<W>,
    cfg: &LadderConfig,
    pairs: &[[usize; 2]],
    jobs: &[(usize, u32)],
    progress: Option<&dyn Progress>,
) -> Vec<GameResult> {
    let initial = m.initial();
    jobs.par_iter()
        .map_init(
            || {
                let players: Vec<Option<Player>> = cfg.agents.iter().map(|_| None).collect();
                (players, Vec::with_capacity(64))
            },
            |(players, moves), &(k, g)| {
                let [a, b] = pairs[k];
                // Even games: the pairing's first agent moves first.
                let seats = if g % 2 == 0 { [a, b] } else { [b, a] };
                let mut seated = seats.map(|i| {
                    let mut p = players[i]
                        .take()
                        .unwrap_or_else(|| Player::new(cfg.agents[i]));
                    p.new_game();
                    p
                });
                let mut rng = game_rng(pair_seed(cfg.seed, k), u64::from(g));
                let (winner_seat, draw, judged) =
                    play_one(m, &initial, cfg, &mut seated, &mut rng, moves);
                for (i, p) in seats.into_iter().zip(seated) {
                    players[i] = Some(p);
                }
                if let Some(p) = progress {
                    p.inc(1);
                }
                // Seat → side of the pairing.
                let side = |seat: usize| usize::from(seats[seat] != a);
                let mut blunders = [Blunders::default(); 2];
                for seat in 0..2 {
                    blunders[side(seat)] = judged[seat];
                }
                GameResult {
                    winner: winner_seat.map(side),
                    draw,
                    blunders,
                }
            },
        )
        .collect()
}

/// One game from `initial`: the winning seat, whether it was a draw, and
/// each seat's judged moves.
fn play_one<const W: usize>(
    m: &Machine<W>,
    initial: &State<W>,
    cfg: &LadderConfig,
    players: &mut [Player; 2],
    rng: &mut rand::rngs::SmallRng,
    moves: &mut Vec<Move>,
) -> (Option<usize>, bool, [Blunders; 2]) {
    let mut s = initial.clone();
    let mut judged = [Blunders::default(); 2];
    let start = s.pos.ply;
    loop {
        if let Some(o) = m.legal_moves(&s, moves) {
            let draw = o.winner.is_none() && !o.is_no_result(&m.rules);
            return (o.winner.map(|w| usize::from(w & 1)), draw, judged);
        }
        if moves.is_empty() || s.pos.ply - start >= cfg.max_plies {
            return (None, false, judged);
        }
        let seat = usize::from(s.pos.to_move & 1);
        let mv = players[seat].choose(m, &mut s, moves, rng);
        if let Some(t) = &cfg.table {
            if moves.len() > 1 {
                if let Some(blunder) = is_blunder(m, t, &s, mv) {
                    judged[seat].moves += 1;
                    judged[seat].blunders += u64::from(blunder);
                }
            }
        }
        m.apply(&mut s, mv);
    }
}

/// Win 2, draw 1, loss 0: what a move keeps, whatever the distance.
fn class(v: Value) -> u8 {
    match v {
        Value::Win(_) => 2,
        Value::Draw => 1,
        Value::Loss(_) => 0,
    }
}

/// Whether `mv` gives away a win or a draw the position held; `None` when
/// the table does not know every move's value.
fn is_blunder<const W: usize>(m: &Machine<W>, t: &Table, s: &State<W>, mv: Move) -> Option<bool> {
    let values = morrigo_solve::move_values(m, t, s);
    let mut best = 0;
    let mut chosen = None;
    for (x, v) in values {
        let c = class(v?);
        best = best.max(c);
        if x == mv {
            chosen = Some(c);
        }
    }
    Some(chosen? < best)
}

/// The report as text in `format`.
pub fn ladder_table(r: &LadderReport, format: Format) -> String {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(r).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Csv => csv(r),
        Format::Markdown | Format::Table => text(r, format == Format::Markdown),
    }
}

/// Agents by rating, strongest first (ties: the order given).
fn by_rating(r: &LadderReport) -> Vec<usize> {
    let mut order: Vec<usize> = (0..r.agents.len()).collect();
    order.sort_by(|&a, &b| r.agents[b].elo.total_cmp(&r.agents[a].elo));
    order
}

fn signed(x: f64) -> String {
    format!("{:+.0}", x).replace("+0", "0").replace("-0", "0")
}

fn agent_rows(r: &LadderReport) -> Vec<Vec<String>> {
    let judged = r.agents.iter().any(|a| a.blunders.is_some());
    let mut head: Vec<String> = [
        "rank",
        "agent",
        "Elo",
        "95% interval",
        "games",
        "score",
        "wins",
        "draws",
        "losses",
        "unfinished",
        "draw rate",
        "decisive",
    ]
    .map(String::from)
    .to_vec();
    if judged {
        head.push("blunders".into());
    }
    let mut rows = vec![head];
    for (rank, &i) in by_rating(r).iter().enumerate() {
        let a = &r.agents[i];
        let mut row = vec![
            (rank + 1).to_string(),
            a.agent.to_string(),
            signed(a.elo),
            format!("{} … {}", signed(a.elo_ci95[0]), signed(a.elo_ci95[1])),
            a.games.to_string(),
            format!("{:.1}%", a.score_pct),
            a.wins.to_string(),
            a.draws.to_string(),
            a.losses.to_string(),
            a.unfinished.to_string(),
            format!("{:.1}%", a.draw_pct()),
            format!("{:.1}%", a.decisive_pct()),
        ];
        if let Some(b) = a.blunders {
            row.push(format!("{:.2}% ({}/{})", b.pct(), b.blunders, b.moves));
        } else if judged {
            row.push(String::new());
        }
        rows.push(row);
    }
    rows
}

fn matrix_rows(r: &LadderReport) -> Vec<Vec<String>> {
    let order = by_rating(r);
    let mut head = vec!["score of ↓ against →".to_string()];
    head.extend(order.iter().map(|&i| r.agents[i].agent.to_string()));
    let mut rows = vec![head];
    for &i in &order {
        let mut row = vec![r.agents[i].agent.to_string()];
        for &j in &order {
            let cell = r.pairs.iter().find_map(|p| match p.agents {
                [a, b] if a == i && b == j => Some((p.score(0), p.games)),
                [a, b] if a == j && b == i => Some((p.score(1), p.games)),
                _ => None,
            });
            row.push(match cell {
                Some((pts, g)) if g > 0 => format!("{:.1}%", 100.0 * pts / f64::from(g)),
                _ => "—".to_string(),
            });
        }
        rows.push(row);
    }
    rows
}

fn pair_rows(r: &LadderReport) -> Vec<Vec<String>> {
    let mut rows = vec![[
        "agent A",
        "agent B",
        "games",
        "A wins",
        "B wins",
        "draws",
        "unfinished",
        "draw rate",
        "decisive",
        "A score",
    ]
    .map(String::from)
    .to_vec()];
    for p in &r.pairs {
        rows.push(vec![
            r.agents[p.agents[0]].agent.to_string(),
            r.agents[p.agents[1]].agent.to_string(),
            p.games.to_string(),
            p.wins[0].to_string(),
            p.wins[1].to_string(),
            p.draws.to_string(),
            p.unfinished.to_string(),
            format!("{:.1}%", pct(p.draws, p.games)),
            format!("{:.1}%", pct(p.wins[0] + p.wins[1], p.games)),
            format!(
                "{:.1}%",
                if p.games == 0 {
                    0.0
                } else {
                    100.0 * p.score(0) / f64::from(p.games)
                }
            ),
        ]);
    }
    rows
}

/// Aligned columns; the first `left` columns left-aligned, the others right.
fn render(out: &mut String, rows: &[Vec<String>], left: usize, markdown: bool) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let pad = |s: &str, w: usize, left: bool| {
        let fill = " ".repeat(w.saturating_sub(s.chars().count()));
        if left {
            format!("{s}{fill}")
        } else {
            format!("{fill}{s}")
        }
    };
    for (k, row) in rows.iter().enumerate() {
        let cells: Vec<String> = (0..cols)
            .map(|c| pad(row.get(c).map_or("", String::as_str), width[c], c < left))
            .collect();
        if markdown {
            let _ = writeln!(out, "| {} |", cells.join(" | "));
            if k == 0 {
                let rule: Vec<String> = (0..cols)
                    .map(|c| {
                        if c < left {
                            format!(":{}", "-".repeat(width[c].max(2) - 1))
                        } else {
                            format!("{}:", "-".repeat(width[c].max(2) - 1))
                        }
                    })
                    .collect();
                let _ = writeln!(out, "| {} |", rule.join(" | "));
            }
        } else {
            let _ = writeln!(out, "{}", cells.join("  ").trim_end());
            if k == 0 {
                let rule: Vec<String> = width.iter().map(|&w| "-".repeat(w)).collect();
                let _ = writeln!(out, "{}", rule.join("  "));
            }
        }
    }
}

fn text(r: &LadderReport, markdown: bool) -> String {
    let mut out = String::new();
    let h = if markdown { "## " } else { "" };
    let h3 = if markdown { "### " } else { "" };
    let _ = writeln!(
        out,
        "{h}Ladder: {} ({}), {} games a pairing, seed {}\n",
        r.ruleset, r.title, r.games, r.seed
    );
    let _ = writeln!(out, "Ratings: {}.", r.method);
    if let Some(v) = &r.perfect_play {
        let _ = writeln!(
            out,
            "Perfect play: {v}. A blunder turns a won position into a drawn or lost one, or a drawn one into a lost one (moves with a choice, judged by the solved table)."
        );
    }
    out.push('\n');
    render(&mut out, &agent_rows(r), 2, markdown);
    let _ = writeln!(out, "\n{h3}Score matrix\n");
    render(&mut out, &matrix_rows(r), 1, markdown);
    let _ = writeln!(out, "\n{h3}Pairings\n");
    render(&mut out, &pair_rows(r), 2, markdown);
    out
}

fn csv(r: &LadderReport) -> String {
    let mut out = String::from(
        "ruleset,agent,elo,elo_low,elo_high,games,score_pct,wins,draws,losses,unfinished,draw_pct,decisive_pct,judged_moves,blunders,blunder_pct\n",
    );
    for &i in &by_rating(r) {
        let a = &r.agents[i];
        let (moves, blunders, bpct) = match a.blunders {
            Some(b) => (
                b.moves.to_string(),
                b.blunders.to_string(),
                format!("{:.4}", b.pct()),
            ),
            None => Default::default(),
        };
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{:.4},{:.4},{moves},{blunders},{bpct}",
            r.ruleset,
            a.agent,
            a.elo,
            a.elo_ci95[0],
            a.elo_ci95[1],
            a.games,
            a.score_pct,
            a.wins,
            a.draws,
            a.losses,
            a.unfinished,
            a.draw_pct(),
            a.decisive_pct()
        );
    }
    out.push_str("\nruleset,agent_a,agent_b,games,a_wins,b_wins,draws,unfinished\n");
    for p in &r.pairs {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            r.ruleset,
            r.agents[p.agents[0]].agent,
            r.agents[p.agents[1]].agent,
            p.games,
            p.wins[0],
            p.wins[1],
            p.draws,
            p.unfinished
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Games between agents of known Elo, drawn from the Bradley–Terry
    /// model with a draw share taken half from each side's win chance.
    fn synthetic(elo: &[f64], games: u32, draw: f64, seed: u64) -> Vec<PairResult> {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for a in 0..elo.len() {
            for b in a + 1..elo.len() {
                let p = 1.0 / (1.0 + 10f64.powf((elo[b] - elo[a]) / 400.0));
                // Expected score p, of which `d` comes as draws.
                let d = draw * 2.0 * p.min(1.0 - p);
                let mut r = PairResult {
                    agents: [a, b],
                    games,
                    ..Default::default()
                };
                for _ in 0..games {
                    let x: f64 = rng.random();
                    if x < d {
                        r.draws += 1;
                    } else if x < d + (p - d / 2.0) {
                        r.wins[0] += 1;
                    } else {
                        r.wins[1] += 1;
                    }
                }
                out.push(r);
            }
        }
        out
    }

    fn pair(a: usize, b: usize, wins: [u32; 2], draws: u32) -> PairResult {
        PairResult {
            agents: [a, b],
            games: wins[0] + wins[1] + draws,
            wins,
            draws,
            unfinished: 0,
        }
    }

    #[test]
    fn bradley_terry_recovers_known_ratings() {
        let truth = [-300.0, -100.0, 100.0, 300.0];
        let results = synthetic(&truth, 4000, 0.3, 7);
        let r = bradley_terry(4, &results);
        for (i, (&e, &t)) in r.elo.iter().zip(&truth).enumerate() {
            assert!((e - t).abs() < 25.0, "agent {i}: {e:.1} vs {t}");
            assert!(
                (e - t).abs() < r.ci95[i] * 1.5,
                "agent {i} outside its interval"
            );
        }
        assert!(r.elo.iter().sum::<f64>().abs() < 1e-6, "mean 0");
    }

    #[test]
    fn a_dominant_agent_rates_above_a_weaker_one() {
        // A clean sweep: finite ratings, the winner far above.
        let r = bradley_terry(2, &[pair(0, 1, [20, 0], 0)]);
        assert!(r.elo[0].is_finite() && r.elo[1].is_finite());
        assert!(r.elo[0] - r.elo[1] > 400.0, "{:?}", r.elo);
        assert!(
            r.elo[0] - r.ci95[0] > r.elo[1] + r.ci95[1],
            "intervals overlap"
        );
    }

    #[test]
    fn draws_count_half() {
        // All draws: equal. 10 wins + 10 losses equal too, and 10 wins +
        // 20 draws rate as 20 wins + 10 losses (both score 2/3).
        let r = bradley_terry(2, &[pair(0, 1, [0, 0], 30)]);
        assert!((r.elo[0] - r.elo[1]).abs() < 1e-9);
        let a = bradley_terry(2, &[pair(0, 1, [10, 0], 20)]);
        let b = bradley_terry(2, &[pair(0, 1, [20, 10], 0)]);
        assert!(a.elo[0] > 50.0);
        assert!(
            (a.elo[0] - b.elo[0]).abs() < 1e-6,
            "{:?} {:?}",
            a.elo,
            b.elo
        );
    }

    #[test]
    fn intervals_shrink_with_more_games() {
        let few = bradley_terry(3, &synthetic(&[-100.0, 0.0, 100.0], 20, 0.2, 3));
        let many = bradley_terry(3, &synthetic(&[-100.0, 0.0, 100.0], 2000, 0.2, 3));
        for i in 0..3 {
            assert!(
                many.ci95[i] * 5.0 < few.ci95[i],
                "{:?} {:?}",
                few.ci95,
                many.ci95
            );
        }
    }

    #[test]
    fn placements_count_every_split_of_the_pieces() {
        assert_eq!(placements(2, [1, 1]), 7.0); // 1 + 2 + 2 + 2
    }

    #[test]
    fn pseudo_inverse_of_two_agents_is_a_quarter_over_weight() {
        // L = w[[1,-1],[-1,1]]: L⁺ = [[1,-1],[-1,1]]/(4w).
        let d = pseudo_inverse_diagonal(&[vec![2.0, -2.0], vec![-2.0, 2.0]]).unwrap();
        assert!((d[0] - 0.125).abs() < 1e-12 && (d[1] - 0.125).abs() < 1e-12);
        assert!(pseudo_inverse_diagonal(&[vec![0.0, 0.0], vec![0.0, 0.0]]).is_none());
    }
}
