#![allow(dead_code)]
//! Shared helpers of the tests: rulesets by name, machines, random boards.

use morrigo_engine::Machine;
use morrigo_sector::Board;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

pub fn rules(name: &str) -> morrigo_rules::Rules {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../rulesets/morris")
        .join(format!("{name}.yaml"));
    morrigo_rules::load_rules(&path.to_string_lossy()).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

pub fn machine(name: &str) -> Machine<1> {
    solver_machine(rules(name))
}

/// The machine of a test ruleset, `tests/solve/NAME.yaml` at the top.
pub fn test_machine(name: &str) -> Machine<1> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/solve")
        .join(format!("{name}.yaml"));
    let r = morrigo_rules::load_rules(&path.to_string_lossy())
        .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    solver_machine(r)
}

fn solver_machine(r: morrigo_rules::Rules) -> Machine<1> {
    morrigo_solve::retrograde_applies(&r).unwrap();
    Machine::new(Arc::new(morrigo_solve::solver_rules(&r)))
}

pub fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

/// A random board with `w` and `b` pieces on `n` points.
pub fn random_board(rng: &mut SmallRng, n: usize, w: u32, b: u32) -> Board {
    let mut occ = [0u64; 2];
    for (pl, count) in [w, b].into_iter().enumerate() {
        let mut placed = 0;
        while placed < count {
            let p = rng.random_range(0..n);
            if (occ[0] | occ[1]) >> p & 1 == 0 {
                occ[pl] |= 1 << p;
                placed += 1;
            }
        }
    }
    Board::moving(occ, rng.random_range(0..2))
}
