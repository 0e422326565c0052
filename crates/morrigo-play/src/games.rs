//! Games one at a time, for sweeps that split a simulation into shards
//! played anywhere: each game's record with its rule events, and the
//! report of such games summed — the report [`simulate`](crate::simulate)
//! gives for the same games (all but the times), whatever the grouping.

use crate::agent::Player;
use crate::counters::{CountPlan, RuleEvent};
use crate::playout::GameRecord;
use crate::progress::Progress;
use crate::sim::{counted_game, report, ReportHeader, SimConfig, SimReport, Tally};
use morrigo_engine::{with_machine, AnyMachine, Machine};
use rayon::prelude::*;
use std::ops::Range;
use std::time::Instant;

/// One game of a run, as a sweep keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The game's number in its run (its random generator is
    /// [`game_rng`](crate::game_rng)`(seed, index)`).
    pub index: u32,
    /// How the game ended.
    pub record: GameRecord,
    /// Hash of the game's move sequence: games with equal hashes played
    /// the same moves (see [`SimReport::distinct_games`](crate::SimReport)).
    pub moves_hash: u64,
    /// Count of each rule event, in the order of [`ReportHeader::events`].
    pub events: Vec<u64>,
    /// Time the game took on its thread (not deterministic).
    pub secs: f64,
}

/// Play games `games` of the run `cfg` (`cfg.games` is not read), in
/// parallel on the current rayon pool; in index order. Game `i` is the
/// same game as game `i` of [`simulate`](crate::simulate) with `cfg`.
pub fn play_games(
    any: &AnyMachine,
    cfg: &SimConfig,
    games: Range<u32>,
    progress: Option<&dyn Progress>,
) -> Vec<PlayedGame> {
    with_machine!(any, m => play_on(m, cfg, games, progress))
}

fn play_on<const W: usize>(
    m: &Machine<W>,
    cfg: &SimConfig,
    games: Range<u32>,
    progress: Option<&dyn Progress>,
) -> Vec<PlayedGame> {
    let plan = CountPlan::new(&m.rules);
    let initial = m.initial();
    games
        .into_par_iter()
        .map_init(
            || (cfg.agents.map(Player::new), Vec::with_capacity(64)),
            |(players, moves), index| {
                let started = Instant::now();
                let mut counts = plan.counters();
                let (record, moves_hash) = counted_game(
                    m,
                    &initial,
                    cfg,
                    u64::from(index),
                    players,
                    moves,
                    &plan,
                    &mut counts,
                );
                let secs = started.elapsed().as_secs_f64();
                if let Some(p) = progress {
                    p.inc(1);
                }
                PlayedGame {
                    index,
                    record,
                    moves_hash,
                    events: plan
                        .events(&m.rules, &counts)
                        .into_iter()
                        .map(|e| e.count)
                        .collect(),
                    secs,
                }
            },
        )
        .collect()
}

/// Games summed into a report, one at a time, in any order.
#[derive(Clone, Debug)]
pub struct GameSum {
    header: ReportHeader,
    tally: Tally,
    events: Vec<u64>,
}

impl GameSum {
    /// An empty sum for games of the ruleset `header` describes.
    pub fn new(header: ReportHeader) -> Self {
        GameSum {
            tally: Tally::with_end_rules(header.end_rules.len()),
            events: vec![0; header.events.len()],
            header,
        }
    }

    /// Add one game: its record, its event counts (in the header's order)
    /// and the time it took. Its moves are unknown, so the report gives no
    /// count of distinct games; [`GameSum::add_played`] knows them.
    pub fn add(&mut self, record: &GameRecord, events: &[u64], secs: f64) {
        self.add_hashed(record, None, events, secs);
    }

    /// Add one game as [`play_games`] played it, its moves' hash included.
    pub fn add_played(&mut self, g: &PlayedGame) {
        self.add_hashed(&g.record, Some(g.moves_hash), &g.events, g.secs);
    }

    /// [`GameSum::add`] with the hash of the game's moves, if known.
    pub fn add_hashed(
        &mut self,
        record: &GameRecord,
        hash: Option<u64>,
        events: &[u64],
        secs: f64,
    ) {
        self.tally.add(record, hash);
        for (sum, n) in self.events.iter_mut().zip(events) {
            *sum += n;
        }
        self.tally.nanos += (secs * 1e9) as u128;
    }

    /// The report of the games added, as [`simulate`](crate::simulate)
    /// with `cfg` reports them (`cfg.games`: the games added).
    pub fn report(&self, cfg: &SimConfig, elapsed_secs: f64) -> SimReport {
        let events = self
            .header
            .events
            .iter()
            .zip(&self.events)
            .map(|(event, &count)| RuleEvent {
                event: event.clone(),
                count,
            })
            .collect();
        report(&self.header, cfg, &self.tally, events, elapsed_secs)
    }
}
