//! The observation planes of a position (`State.observation`): what is on
//! each point and how the game stands, seen by one seat, as
//! `(planes, points)` floats. The recent turns, which the planes cannot
//! show, are the history (`history.rs`).

use morrigo_engine::GameState;
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
pub fn planes(s: &GameState, seat: usize) -> Vec<f32> {
    let rules = &**s.rules();
    let n = rules.topology.len();
    let mut out = vec![0f32; plane_count(rules) * n];
    let me = seat & 1;
    let fill = |out: &mut [f32], plane: usize, v: f32| {
        out[plane * n..(plane + 1) * n]
            .iter_mut()
            .for_each(|x| *x = v);
    };
    // Every point empty, then the pieces taken off it.
    fill(&mut out, 2, 1.0);
    let mut pieces = Vec::new();
    for (player, plane) in [(me, 0), (me ^ 1, 1)] {
        s.pieces_into(player as u8, &mut pieces);
        for &p in &pieces {
            let p = usize::from(p);
            out[plane * n + p] = 1.0;
            out[2 * n + p] = 0.0;
        }
    }
    if rules.line_rule.as_ref().is_some_and(|l| l.delay.is_some()) {
        for p in s.marks() {
            out[3 * n + usize::from(p)] = 1.0;
        }
    }
    let owed = s.pending_removals() > 0 && s.to_move() as usize == me;
    fill(&mut out, 4, owed as u8 as f32);
    if !rules.unlimited_hand && rules.in_hand > 0 {
        let full = rules.in_hand as f32;
        let in_hand = s.in_hand();
        fill(&mut out, 5, (in_hand[me] as f32 / full).min(1.0));
        fill(&mut out, 6, (in_hand[me ^ 1] as f32 / full).min(1.0));
    }
    let phase = s.phase();
    if phase < rules.phases.len() {
        fill(&mut out, FIXED_PLANES + phase, 1.0);
    }
    out
}
