//! Who owns each point, estimated by playouts: the dead-stone estimate a
//! GTP engine answers `final_status_list dead` with. From the board as it
//! stands (a fresh history, so a game ended by passes plays on), seeded
//! playouts follow [`playout_move`] (a pass drawn again, played only when
//! nothing else is offered) until two passes or an eye fill settle the
//! board; at each end a point belongs
//! to the colour of its stone, or of the only colour its empty region
//! borders. A chain is dead when the opponent owns its points in at least
//! `threshold` of the playouts.

use crate::mcts::{fills_own_eye, playout_move};
use morrigo_engine::{Bits, Machine, Move, MoveKind, State};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::time::Instant;

/// Draws of the policy before a playout that offers only passes ends.
const PASS_TRIES: u32 = 8;

/// Points owned by each colour, summed over the playouts run.
#[derive(Clone, Debug, PartialEq)]
pub struct Ownership {
    /// Playouts run (fewer than asked when the deadline came first).
    pub playouts: u32,
    /// Per point: playouts that ended with it black's, white's.
    pub owned: Vec<[u32; 2]>,
}

impl Ownership {
    /// The share of playouts in which `player` owned point `p`.
    pub fn share(&self, p: usize, player: u8) -> f64 {
        match self.playouts {
            0 => 0.0,
            n => f64::from(self.owned[p][player as usize & 1]) / f64::from(n),
        }
    }
}

/// Run up to `playouts` playouts of at most `max_plies` plies each from the
/// board of `s` (seeded by `seed`), stopping early at `deadline`.
pub fn ownership<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    playouts: u32,
    max_plies: u32,
    seed: u64,
    deadline: Instant,
) -> Ownership {
    let n = m.points();
    let start = m.state_from(s.pos.occ[0], s.pos.occ[1], s.pos.in_hand, s.pos.to_move);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut buf: Vec<Move> = Vec::new();
    let mut region: Vec<usize> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut out = Ownership {
        playouts: 0,
        owned: vec![[0; 2]; n],
    };
    for _ in 0..playouts {
        if Instant::now() >= deadline {
            break;
        }
        let mut st = start.clone();
        let mut passed = false;
        'plies: for _ in 0..max_plies {
            // Passes are drawn again: one is played only when the policy
            // offers nothing else, and a second in a row, or an eye fill
            // (what the policy plays when a pass would lose by the count),
            // ends the playout: the board is settled.
            let mut pass = None;
            for _ in 0..PASS_TRIES {
                match playout_move(m, &mut st, &mut buf, &mut rng) {
                    None => break 'plies,
                    Some(mv) if mv.kind == MoveKind::Pass => pass = Some(mv),
                    Some(mv) if fills_own_eye(m, &st, mv) => break 'plies,
                    Some(mv) => {
                        m.apply(&mut st, mv);
                        passed = false;
                        continue 'plies;
                    }
                }
            }
            match pass {
                Some(mv) if !passed => {
                    m.apply(&mut st, mv);
                    passed = true;
                }
                _ => break,
            }
        }
        count_owners(m, &st, &mut out.owned, &mut region, &mut seen);
        out.playouts += 1;
    }
    out
}

/// Add one finished board's owners: stones to their colour, each empty
/// region to the one colour it borders (none when it borders both or none).
fn count_owners<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    owned: &mut [[u32; 2]],
    region: &mut Vec<usize>,
    seen: &mut [bool],
) {
    let nbrs = &m.rules.topology.neighbours;
    seen.fill(false);
    for p in 0..owned.len() {
        if let Some(c) = s.owner(p as u16) {
            owned[p][c as usize] += 1;
            continue;
        }
        if seen[p] {
            continue;
        }
        region.clear();
        region.push(p);
        seen[p] = true;
        let mut borders = [false; 2];
        let mut i = 0;
        while i < region.len() {
            for &q in &nbrs[region[i]] {
                let q = q as usize;
                match s.owner(q as u16) {
                    Some(c) => borders[c as usize] = true,
                    None if !seen[q] => {
                        seen[q] = true;
                        region.push(q);
                    }
                    None => {}
                }
            }
            i += 1;
        }
        if borders[0] != borders[1] {
            let c = usize::from(borders[1]);
            for &q in region.iter() {
                owned[q][c] += 1;
            }
        }
    }
}

/// The stones of the chains of `s` whose points the opponent owns, on
/// average over the chain, in at least `threshold` (0 to 1) of the
/// playouts of `own`. Empty when no playout ran.
pub fn dead_chains<const W: usize>(
    m: &Machine<W>,
    s: &State<W>,
    own: &Ownership,
    threshold: f64,
) -> Bits<W> {
    let mut dead = Bits::EMPTY;
    if own.playouts == 0 {
        return dead;
    }
    let nbrs = &m.rules.topology.neighbours;
    let n = m.points();
    let mut seen = vec![false; n];
    let mut chain: Vec<usize> = Vec::new();
    for p in 0..n {
        let Some(c) = s.owner(p as u16) else { continue };
        if seen[p] {
            continue;
        }
        chain.clear();
        chain.push(p);
        seen[p] = true;
        let mut i = 0;
        while i < chain.len() {
            for &q in &nbrs[chain[i]] {
                let q = q as usize;
                if !seen[q] && s.owner(q as u16) == Some(c) {
                    seen[q] = true;
                    chain.push(q);
                }
            }
            i += 1;
        }
        let taken: f64 = chain.iter().map(|&q| own.share(q, c ^ 1)).sum();
        if taken / chain.len() as f64 >= threshold {
            for &q in &chain {
                dead.set(q);
            }
        }
    }
    dead
}

#[cfg(test)]
mod tests {
    use super::*;
    use morrigo_engine::AnyMachine;
    use std::sync::Arc;
    use std::time::Duration;

    /// 7x7 area scoring: Black's group (A2-D2, B1, D1, the wall D3-D7,
    /// eyes A1 and C1) owns columns A-C, White's (E1-E7, eyes F1, F3, G4)
    /// the rest, and a lone White stone sits at B5 in Black's area.
    /// Playouts give B5's point to Black and keep both groups: B5 alone
    /// is dead.
    #[test]
    fn a_lone_stone_in_the_opponents_area_is_dead_and_the_walls_live() {
        let overrides = morrigo_rules::load::Overrides {
            size: Some((7, 7)),
            ..Default::default()
        };
        let rules = morrigo_rules::load_rules_with("chinese", &overrides).unwrap();
        let any = AnyMachine::new(Arc::new(rules)).unwrap();
        let AnyMachine::W1(m) = any else {
            panic!("a 7x7 board fits one word")
        };
        let t = &m.rules.topology;
        let mut occ = [Bits::EMPTY; 2];
        let black = "A2 B2 C2 D2 D1 B1 D3 D4 D5 D6 D7";
        let white = "E1 E2 E3 E4 E5 E6 E7 F2 G2 G1 G3 F4 G5 F5 B5";
        for v in black.split(' ') {
            occ[0].set(t.point(v).unwrap() as usize);
        }
        for v in white.split(' ') {
            occ[1].set(t.point(v).unwrap() as usize);
        }
        let s = m.state_from(occ[0], occ[1], m.initial().pos.in_hand, 0);
        let deadline = Instant::now() + Duration::from_secs(60);
        let own = ownership(&m, &s, 200, 600, 7, deadline);
        assert_eq!(own.playouts, 200);
        let b5 = t.point("B5").unwrap() as usize;
        let d4 = t.point("D4").unwrap() as usize;
        let e4 = t.point("E4").unwrap() as usize;
        assert!(own.share(b5, 0) >= 0.8, "{own:?}");
        assert!(
            own.share(d4, 1) <= 0.2 && own.share(e4, 0) <= 0.2,
            "{own:?}"
        );
        let dead = dead_chains(&m, &s, &own, 0.7);
        let named: Vec<&str> = dead.iter().map(|p| t.name(p as u16)).collect();
        assert_eq!(named, ["B5"]);
    }
}
