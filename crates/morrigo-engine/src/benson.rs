//! Benson's unconditional life (D. B. Benson, "Life in the game of Go",
//! 1976): the chains of a colour that no sequence of opposing plays can
//! capture even if their owner always passes, and the settled boards built
//! from them, whose every point is already its final owner's. Also life
//! with answers: the same test where an eye space like a straight four
//! counts as two eyes, because its owner can split it into two whatever
//! the opponent plays there first (M. Müller's life under alternating
//! play, "Playing it safe", 1997, in its simplest case).
//!
//! Only the board is read (stones and adjacency, on any board graph), so
//! what these say holds under any rule set whose opposing plays are board
//! plays that capture by liberties; whether a settled board's count is the
//! game's value is a question of the rule set's ending and scoring, which
//! the solver answers (`morrigo_solve::go::settled`).

use crate::bits::Bits;
use crate::machine::Machine;

/// A colour's unconditionally alive chains and the regions vital to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Life<const W: usize> {
    /// The stones of the unconditionally alive chains.
    pub alive: Bits<W>,
    /// The points of the enclosed regions, holding no opposing stone, each
    /// of whose empty points is a liberty of one alive chain: the opponent
    /// can never keep a stone there, so they are the owner's at the end.
    pub safe: Bits<W>,
}

impl<const W: usize> Machine<W> {
    /// Benson's algorithm for `player` on the stones `occ`: start from
    /// every chain of the player and every region (a maximal connected set
    /// of points without the player's stones); drop the chains with fewer
    /// than two regions *vital* to them (every empty point of the region a
    /// liberty of the chain), then the regions bordered by a dropped chain,
    /// until nothing changes. The chains left are alive whatever the
    /// opponent plays: filling a vital region's last liberty would leave the
    /// filling stones without a liberty while the chain keeps the other's.
    pub fn unconditional_life(&self, occ: &[Bits<W>; 2], player: usize) -> Life<W> {
        self.life(occ, player, false)
    }

    /// [`Machine::unconditional_life`] where the owner answers: a region
    /// that borders one chain only, holds no opposing stone, lies wholly
    /// next to the chain and has two *cut points* (points whose filling
    /// splits it, as the two middle points of a straight four) counts as
    /// two vital regions. Whatever the opponent plays there first, the
    /// owner fills a cut point the opponent did not take; the stone joins
    /// the chain and leaves two regions, each wholly next to it, each with
    /// an empty point (a part the opponent's stone filled alone loses its
    /// last liberty to the answer), so the chain is then alive by Benson's
    /// test. One opposing play touches one such region, so one answer
    /// always suffices. With the owner answering, then, these chains are
    /// never captured, and their safe regions end as the owner's.
    pub fn life_with_answers(&self, occ: &[Bits<W>; 2], player: usize) -> Life<W> {
        self.life(occ, player, true)
    }

    fn life(&self, occ: &[Bits<W>; 2], player: usize, answers: bool) -> Life<W> {
        // Sets of whole chains and whole regions, split into their parts
        // as needed: bitsets only, no allocation (the solver asks at nodes).
        let mine = occ[player];
        let empty = self.all.without(occ[0].or(occ[1]));
        let mut alive = mine;
        let mut regions = self.all.without(mine);
        loop {
            let mut kept = Bits::EMPTY;
            let mut chains = alive;
            while let Some(p) = chains.iter().next() {
                let chain = self.chain(&alive, p);
                chains = chains.without(chain);
                if self.vital_regions(&regions, &empty, &chain, answers.then_some(&mine)) >= 2 {
                    kept = kept.or(chain);
                }
            }
            let dropped = mine.without(kept);
            let mut left = Bits::EMPTY;
            let mut parts = regions;
            while let Some(p) = parts.iter().next() {
                let region = self.chain(&regions, p);
                parts = parts.without(region);
                if self.dilate(&region).and(dropped).is_empty() {
                    left = left.or(region);
                }
            }
            if kept == alive && left == regions {
                break;
            }
            (alive, regions) = (kept, left);
        }
        let mut safe = Bits::EMPTY;
        let mut parts = regions;
        while let Some(p) = parts.iter().next() {
            let region = self.chain(&regions, p);
            parts = parts.without(region);
            if !region.and(occ[player ^ 1]).is_empty() {
                continue;
            }
            let mut next_to = self.dilate(&region).and(alive);
            while let Some(q) = next_to.iter().next() {
                let chain = self.chain(&alive, q);
                next_to = next_to.without(chain);
                if region.and(empty).within(&self.dilate(&chain)) {
                    safe = safe.or(region);
                    break;
                }
            }
        }
        Life { alive, safe }
    }

    /// How many of `regions`' parts (up to two) are vital to `chain`: every
    /// empty point of the part is a liberty of the chain. With `answers`
    /// (the owner's stones), a part that splits by an answer counts twice
    /// ([`Machine::life_with_answers`]).
    fn vital_regions(
        &self,
        regions: &Bits<W>,
        empty: &Bits<W>,
        chain: &Bits<W>,
        answers: Option<&Bits<W>>,
    ) -> u32 {
        let reach = self.dilate(chain);
        let mut next_to = regions.and(reach);
        let mut vital = 0;
        while let Some(q) = next_to.iter().next() {
            let region = self.chain(regions, q);
            next_to = next_to.without(region);
            if region.and(*empty).within(&reach) {
                let splits = answers.is_some_and(|mine| {
                    region.within(empty)
                        && self.dilate(&region).and(*mine).within(chain)
                        && self.has_two_cut_points(&region)
                });
                vital += if splits { 2 } else { 1 };
                if vital >= 2 {
                    break;
                }
            }
        }
        vital
    }

    /// Whether at least two points of the connected `region` each split
    /// it in two or more parts when filled.
    fn has_two_cut_points(&self, region: &Bits<W>) -> bool {
        // A path of four is the smallest region with two.
        if region.count() < 4 {
            return false;
        }
        let mut cuts = 0;
        for a in region.iter() {
            let mut rest = *region;
            rest.clear(a);
            let start = rest.iter().next().expect("four points or more");
            if self.chain(&rest, start) != rest {
                cuts += 1;
                if cuts == 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether every point of the board is an unconditionally alive stone
    /// or lies in a safe region of one colour ([`Machine::unconditional_life`]):
    /// no play of either player can change the board's final owners.
    pub fn is_settled(&self, occ: &[Bits<W>; 2]) -> bool {
        self.settled(occ, false)
    }

    /// [`Machine::is_settled`] by [`Machine::life_with_answers`]: each
    /// player can keep the board's final owners as they are by answering
    /// the other's plays in their own regions.
    pub fn is_settled_with_answers(&self, occ: &[Bits<W>; 2]) -> bool {
        self.settled(occ, true)
    }

    fn settled(&self, occ: &[Bits<W>; 2], answers: bool) -> bool {
        let stones = occ[0].or(occ[1]);
        let empty = self.all.without(stones);
        // A cheap test first: an empty point of a safe region touches its
        // owner's stones or empty points only, and a region with no stone
        // next to it is no one's.
        let near = [self.dilate(&occ[0]), self.dilate(&occ[1])];
        if !near[0].and(near[1]).and(empty).is_empty() || !empty.within(&self.dilate(&stones)) {
            return false;
        }
        let mut owned = Bits::EMPTY;
        for player in 0..2 {
            let life = self.life(occ, player, answers);
            if life.alive != occ[player] {
                return false;
            }
            owned = owned.or(life.alive).or(life.safe);
        }
        owned == self.all
    }
}
