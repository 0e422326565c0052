//! Ranks and orbit indices: rank/unrank are inverse over whole sectors,
//! every arrangement's orbit index is that of its images, the orbit count
//! is Burnside's (the average number of arrangements each symmetry fixes).

use morrigo_sector::{symmetries, Binomial, SectorIndex, Symmetry};

fn burnside(group: &[Symmetry], binom: &Binomial, n: usize, w: usize, b: usize) -> u64 {
    let idx = SectorIndex::new(binom, &group[..1], n, w, b);
    let mut fixed = 0u64;
    for r in 0..idx.arrangements {
        let occ = idx.unrank(binom, r);
        fixed += group
            .iter()
            .filter(|g| g.apply(occ[0]) == occ[0] && g.apply(occ[1]) == occ[1])
            .count() as u64;
    }
    assert_eq!(fixed % group.len() as u64, 0);
    fixed / group.len() as u64
}

fn check_sector(name: &str, w: usize, b: usize) -> SectorIndex {
    let rules = crate::common::rules(name);
    let n = rules.topology.len();
    let group = symmetries(&rules);
    let binom = Binomial::new(n);
    let idx = SectorIndex::new(&binom, &group, n, w, b);
    assert_eq!(idx.arrangements, binom.c(n, w) * binom.c(n - w, b));
    let mut seen = vec![false; idx.orbits as usize];
    for r in 0..idx.arrangements {
        let occ = idx.unrank(&binom, r);
        assert_eq!(occ[0].count_ones() as usize, w);
        assert_eq!(occ[1].count_ones() as usize, b);
        assert_eq!(occ[0] & occ[1], 0);
        assert_eq!(idx.rank(&binom, occ), r, "rank inverts unrank");
        let o = idx.orbit(&binom, &group, occ);
        seen[o as usize] = true;
        let least = group
            .iter()
            .map(|g| idx.rank(&binom, [g.apply(occ[0]), g.apply(occ[1])]))
            .min();
        assert_eq!(
            Some(idx.canonical(&binom, &group, occ).1),
            least,
            "the canonical image is the least-rank one"
        );
        for g in &group {
            let image = [g.apply(occ[0]), g.apply(occ[1])];
            assert_eq!(
                idx.orbit(&binom, &group, image),
                o,
                "an image has the same orbit"
            );
        }
    }
    assert!(seen.iter().all(|&s| s), "every orbit index is used");
    let mut k = 0;
    idx.for_each(&binom, |i, occ| {
        assert_eq!(i, k);
        k += 1;
        assert_eq!(idx.arrangement(&binom, i), occ);
        assert_eq!(
            idx.orbit(&binom, &group, occ),
            i,
            "canonical arrangement → its orbit"
        );
    });
    assert_eq!(k, idx.orbits);
    // Split into ranges (as the solver's threads take them), the same visits.
    let step = (idx.orbits / 7).max(1);
    let mut k = 0;
    for a in (0..idx.orbits).step_by(step as usize) {
        idx.for_each_in(&binom, a..(a + step).min(idx.orbits), |i, occ| {
            assert_eq!((i, occ), (k, idx.arrangement(&binom, k)));
            k += 1;
        });
    }
    assert_eq!(k, idx.orbits);
    // Orbit sizes (from the first set's stabiliser) sum to the arrangements
    // and are |G| over the arrangement's own stabiliser.
    let mut total = 0;
    idx.for_each_sized(&binom, &group, |i, occ, size| {
        assert_eq!(occ, idx.arrangement(&binom, i));
        let fixing = group
            .iter()
            .filter(|g| g.apply(occ[0]) == occ[0] && g.apply(occ[1]) == occ[1])
            .count() as u64;
        assert_eq!(size, group.len() as u64 / fixing, "orbit size of {occ:?}");
        total += size;
    });
    assert_eq!(total, idx.arrangements);
    assert_eq!(
        idx.orbits,
        burnside(&group, &binom, n, w, b),
        "Burnside's count"
    );
    idx
}

#[test]
fn three_mens_morris_sectors_match_burnside() {
    for (w, b) in [(3, 3), (3, 2), (2, 2), (1, 0), (0, 0)] {
        check_sector("three-mens-morris", w, b);
    }
}

#[test]
fn six_mens_morris_sectors_match_burnside() {
    for (w, b) in [(4, 4), (5, 3), (3, 3)] {
        check_sector("six-mens-morris", w, b);
    }
}

#[test]
fn morabaraba_sector_matches_burnside() {
    check_sector("morabaraba", 3, 2);
}

#[test]
fn nine_mens_morris_three_against_three() {
    // C(24,3) · C(21,3) = 2024 · 1330 arrangements; the orbit count is
    // Burnside's (checked above over every arrangement and symmetry),
    // pinned so a change of the group or the index shows here: a little
    // more than 2 691 920 / 16 = 168 245, the symmetric arrangements
    // counting once each.
    let idx = check_sector("nine-mens-morris", 3, 3);
    assert_eq!(idx.arrangements, 2_691_920);
    assert_eq!(idx.orbits, 169_626);
}
