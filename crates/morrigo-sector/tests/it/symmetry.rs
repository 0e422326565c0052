//! The symmetry group is computed from the board: its size on the Morris
//! boards, that each element keeps adjacency and lines, and that a point
//! a rule names breaks the symmetries that move it.

use morrigo_sector::symmetries;
use std::collections::HashSet;

fn check_automorphisms(rules: &morrigo_rules::Rules) -> usize {
    let t = &rules.topology;
    let group = symmetries(rules);
    assert!(group[0].is_identity(), "the identity comes first");
    let lines: HashSet<Vec<u16>> = t
        .lines
        .iter()
        .map(|l| {
            let mut l = l.clone();
            l.sort_unstable();
            l
        })
        .collect();
    let mut seen = HashSet::new();
    for g in &group {
        assert!(seen.insert(g.perm.clone()), "each symmetry once");
        for p in 0..t.len() {
            for &q in &t.neighbours[p] {
                let (gp, gq) = (g.perm[p] as u16, g.perm[q as usize]);
                assert!(
                    t.neighbours[gp as usize].contains(&u16::from(gq)),
                    "adjacency kept"
                );
            }
        }
        for l in &t.lines {
            let mut image: Vec<u16> = l.iter().map(|&p| u16::from(g.perm[p as usize])).collect();
            image.sort_unstable();
            assert!(lines.contains(&image), "lines map to lines");
        }
    }
    // Closed under composition: a group.
    let perms: HashSet<Vec<u8>> = group.iter().map(|g| g.perm.clone()).collect();
    for a in &group {
        for b in &group {
            let ab: Vec<u8> = (0..t.len()).map(|p| a.perm[b.perm[p] as usize]).collect();
            assert!(perms.contains(&ab), "closed under composition");
        }
    }
    group.len()
}

#[test]
fn nine_mens_morris_has_sixteen_symmetries() {
    // Rotations and reflections of the square (8) times swapping the inner
    // and outer rings (2).
    assert_eq!(
        check_automorphisms(&crate::common::rules("nine-mens-morris")),
        16
    );
}

#[test]
fn six_mens_morris_has_sixteen_symmetries() {
    // Two rings: the square's 8 times swapping the rings.
    assert_eq!(
        check_automorphisms(&crate::common::rules("six-mens-morris")),
        16
    );
}

#[test]
fn three_mens_morris_has_the_eight_of_the_square() {
    // Rows, columns and both long diagonals are lines: all 8 symmetries of
    // the square keep them.
    assert_eq!(
        check_automorphisms(&crate::common::rules("three-mens-morris")),
        8
    );
}

#[test]
fn morabaraba_keeps_sixteen_with_its_diagonals() {
    // Corner diagonals are edges and lines; the ring swap still maps
    // them onto each other.
    assert_eq!(check_automorphisms(&crate::common::rules("morabaraba")), 16);
}

#[test]
fn a_named_point_keeps_only_the_symmetries_fixing_it() {
    let nmm = crate::common::rules("nine-mens-morris");
    // A corner of the outer or inner ring: degree 2, its neighbours of
    // degree 3 (the middle ring's midpoints have 4).
    let t = &nmm.topology;
    let corner = (0..t.len())
        .find(|&p| {
            t.neighbours[p].len() == 2
                && t.neighbours[p]
                    .iter()
                    .all(|&q| t.neighbours[q as usize].len() == 3)
        })
        .unwrap();
    let name = &nmm.topology.names[corner];
    let dir = std::env::temp_dir().join(format!("morrigo-sector-sym-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../rulesets/morris/nine-mens-morris.yaml");
    std::fs::copy(&base, dir.join("nine-mens-morris.yaml")).unwrap();
    let file = dir.join("no-corner.yaml");
    std::fs::write(
        &file,
        format!(
            "name: no-corner\nextends: nine-mens-morris\nforbid:\n  corner:\n    moves: [slide, fly]\n    when: \"to == {name}\"\n"
        ),
    )
    .unwrap();
    let rules = morrigo_rules::load_rules(&file.to_string_lossy()).unwrap();
    let group = symmetries(&rules);
    // Only the identity and the reflection through the corner's diagonal
    // fix a corner of the outer ring (the ring swap moves it).
    assert_eq!(check_automorphisms(&rules), 2);
    assert!(group.iter().all(|g| g.perm[corner] as usize == corner));
    std::fs::remove_dir_all(&dir).unwrap();
}
