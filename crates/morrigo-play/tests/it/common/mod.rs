//! Helpers the agent tests share: loading a ruleset, agent specs, points by name.

#![allow(dead_code)] // each test file uses its own subset

use morrigo_engine::{AnyMachine, Bits, Machine};
use morrigo_play::{machine_with, AgentSpec, AlphaBetaParams, MctsParams};
use morrigo_rules::load::Overrides;

/// A built-in ruleset, square `size` if given.
pub fn load(name: &str, size: Option<u32>) -> AnyMachine {
    let overrides = Overrides {
        size: size.map(|n| (n, n)),
        komi: None,
    };
    machine_with(name, &overrides).unwrap_or_else(|e| panic!("{name}: {e}"))
}

pub fn ab(depth: u32) -> AgentSpec {
    AgentSpec::AlphaBeta(AlphaBetaParams {
        depth,
        time_ms: None,
        margin: 0,
        ..AlphaBetaParams::default()
    })
}

pub fn mcts(playouts: u32) -> AgentSpec {
    AgentSpec::Mcts(MctsParams {
        playouts,
        ..MctsParams::default()
    })
}

/// The point named `name`.
pub fn at<const W: usize>(m: &Machine<W>, name: &str) -> u16 {
    m.rules
        .topology
        .point(name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

/// The set of the points named.
pub fn points<const W: usize>(m: &Machine<W>, names: &[&str]) -> Bits<W> {
    let mut b = Bits::EMPTY;
    for n in names {
        b.set(at(m, n) as usize);
    }
    b
}
