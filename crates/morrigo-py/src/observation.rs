//! The observation planes of a position (`State.observation`): what is on
//! each point and how the game stands, seen by one seat, as
//! `(planes, points)` floats. The recent turns, which the planes cannot
//! show, are the history (`history.rs`).

use morrigo_engine::{Bits, Machine, State};
use morrigo_rules::Rules;

/// Planes every observation has before the phase planes.
pub const PLANE_NAMES: [&str; 7] = [
    "own pieces",
    "opponent pieces",
    "empty",
    "marked",
    "removal owed",
    "own hand",
    "opponent hand",
];

/// Number of the planes every observation has ([`PLANE_NAMES`]).
pub const FIXED_PLANES: usize = PLANE_NAMES.len();

/// Number of observation planes of a ruleset: the fixed ones, then one per
/// phase.
pub fn plane_count(rules: &Rules) -> usize {
    FIXED_PLANES + rules.phases.len()
}

/// The observation planes from `seat`'s view, row-major `(planes, points)`.
pub fn planes<const W: usize>(m: &Machine<W>, s: &State<W>, seat: usize) -> Vec<f32> {
    let rules = &*m.rules;
    let n = rules.topology.len();
    let mut out = vec![0f32; plane_count(rules) * n];
    let marked = if rules.line_rule.as_ref().is_some_and(|l| l.delay.is_some()) {
        m.marked(s)
    } else {
        Bits::EMPTY
    };
    let me = seat & 1;
    for p in 0..n {
        let own = s.pos.occ[me].has(p);
        let opp = s.pos.occ[me ^ 1].has(p);
        out[p] = own as u8 as f32;
        out[n + p] = opp as u8 as f32;
        out[2 * n + p] = (!own && !opp) as u8 as f32;
        out[3 * n + p] = marked.has(p) as u8 as f32;
    }
    let fill = |out: &mut [f32], plane: usize, v: f32| {
        out[plane * n..(plane + 1) * n]
            .iter_mut()
            .for_each(|x| *x = v);
    };
    let owed = s.pos.pending > 0 && s.pos.to_move as usize == me;
    fill(&mut out, 4, owed as u8 as f32);
    if !rules.unlimited_hand && rules.in_hand > 0 {
        let full = rules.in_hand as f32;
        fill(&mut out, 5, (s.pos.in_hand[me] as f32 / full).min(1.0));
        fill(&mut out, 6, (s.pos.in_hand[me ^ 1] as f32 / full).min(1.0));
    }
    let phase = m.phase(s);
    if phase < rules.phases.len() {
        fill(&mut out, FIXED_PLANES + phase, 1.0);
    }
    out
}
