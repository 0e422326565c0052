//! Counting a finished game: JK territory (reachability) plus prisoners,
//! Tromp-Taylor area, or territory plus prisoners (Japanese, AGA) with the
//! regions of chains in seki counted for nobody when the ruleset says so;
//! komi to the second player.

use crate::bits::Bits;
use crate::machine::{Machine, State};
use crate::moves::Outcome;
use morrigo_rules::{ScoringMethod, Seki};

/// The higher score wins; equal scores draw.
pub fn winner(score: [f64; 2]) -> Option<u8> {
    if score[0] > score[1] {
        Some(0)
    } else if score[1] > score[0] {
        Some(1)
    } else {
        None
    }
}

impl<const W: usize> Machine<W> {
    /// `seed` grown through the points of `within` (seed points outside it dropped).
    fn flood(&self, seed: Bits<W>, within: &Bits<W>) -> Bits<W> {
        let mut reached = seed.and(*within);
        let mut frontier = reached;
        while !frontier.is_empty() {
            let grown = self.dilate(&frontier).and(*within).without(reached);
            reached = reached.or(grown);
            frontier = grown;
        }
        reached
    }

    /// Empty points reachable from `stones` through empty points.
    fn reach(&self, stones: &Bits<W>, empty: &Bits<W>) -> Bits<W> {
        self.flood(self.dilate(stones), empty)
    }

    /// Empty points of the regions bordered by a chain in seki.
    fn seki_points(&self, stones: &[Bits<W>; 2], empty: &Bits<W>) -> Bits<W> {
        self.reach(&self.seki_chains(stones, empty), empty)
    }

    /// The stones of the chains in seki on the board of `s`, by the reading
    /// `seki: nobody` scores with (what GTP's `final_status_list seki`
    /// answers).
    pub fn seki_stones(&self, s: &State<W>) -> Bits<W> {
        let empty = self.all.without(s.pos.occ[0].or(s.pos.occ[1]));
        self.seki_chains(&s.pos.occ, &empty)
    }

    /// The chains in seki. A seki point is an empty point next to both
    /// colours where a stone of either colour would leave its own chain
    /// (joined through it) with at most one liberty; the chains next to a
    /// seki point are in seki.
    fn seki_chains(&self, stones: &[Bits<W>; 2], empty: &Bits<W>) -> Bits<W> {
        let shared = self
            .dilate(&stones[0])
            .and(self.dilate(&stones[1]))
            .and(*empty);
        let mut in_seki = Bits::EMPTY;
        for q in shared.iter() {
            let mut point = Bits::EMPTY;
            point.set(q);
            let around = self.dilate(&point);
            let self_atari = |c: usize| {
                let joined = self.flood(around, &stones[c]).or(point);
                self.dilate(&joined).and(*empty).without(point).count() <= 1
            };
            if self_atari(0) && self_atari(1) {
                in_seki = in_seki
                    .or(self.flood(around, &stones[0]))
                    .or(self.flood(around, &stones[1]));
            }
        }
        in_seki
    }

    /// Each player's score, after removing `dead` stones (added to the
    /// opponent's prisoners). Zero when the ruleset has no scoring.
    pub fn score(&self, s: &State<W>, dead: &Bits<W>) -> [f64; 2] {
        let Some(scoring) = &self.rules.scoring else {
            return [0.0; 2];
        };
        let stones = [s.pos.occ[0].without(*dead), s.pos.occ[1].without(*dead)];
        let dead_of = [
            s.pos.occ[0].and(*dead).count(),
            s.pos.occ[1].and(*dead).count(),
        ];
        let empty = self.all.without(stones[0].or(stones[1]));
        let points = [
            self.reach(&stones[0], &empty),
            self.reach(&stones[1], &empty),
        ];
        let territory = [
            points[0].without(points[1]).count(),
            points[1].without(points[0]).count(),
        ];
        // JK Art. 4.4's extra pass stone: a prisoner, so every count of
        // prisoners (jk, territory) takes it; `check` refuses it under area.
        let last_by_first = s.pos.turn > 0 && s.pos.to_move == 1;
        let bonus = (scoring.last_move_stone && last_by_first) as u32;
        let mut score = match scoring.method {
            ScoringMethod::Jk => [
                territory[0] + s.pos.captured[0] + dead_of[1] + s.pos.pass_stones[0] + bonus,
                territory[1] + s.pos.captured[1] + dead_of[0] + s.pos.pass_stones[1],
            ]
            .map(f64::from),
            ScoringMethod::Area => [
                stones[0].count() + territory[0],
                stones[1].count() + territory[1],
            ]
            .map(f64::from),
            ScoringMethod::Territory => {
                let nobody = match scoring.seki {
                    Seki::Counted => Bits::EMPTY,
                    Seki::Nobody => self.seki_points(&stones, &empty),
                };
                let own = [
                    points[0].without(points[1]).without(nobody).count(),
                    points[1].without(points[0]).without(nobody).count(),
                ];
                [
                    own[0] + s.pos.captured[0] + dead_of[1] + s.pos.pass_stones[0] + bonus,
                    own[1] + s.pos.captured[1] + dead_of[0] + s.pos.pass_stones[1],
                ]
                .map(f64::from)
            }
        };
        score[1] += scoring.komi;
        score
    }

    /// A resignation by `player`.
    pub fn resign(&self, player: u8) -> Outcome {
        Outcome {
            winner: Some(player ^ 1),
            rule: Outcome::RESIGNATION,
        }
    }

    /// The players agree to end, with `dead` stones: the game is counted.
    pub fn agree(&self, s: &State<W>, dead: &Bits<W>) -> Outcome {
        Outcome {
            winner: winner(self.score(s, dead)),
            rule: Outcome::AGREEMENT,
        }
    }
}
