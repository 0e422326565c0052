//! The solve table's file: sealed with a checksum, so a damaged table is
//! refused, never used (a flipped bit used to load and change the games
//! the perfect player plays), and a table of the format before the
//! checksum is refused with a message asking for the solve again.

use morrigo_engine::Machine;
use morrigo_solve::{solve, solver_rules, LoadError, Table};
use std::path::Path;
use std::sync::Arc;

fn three_mens_table() -> (Vec<u8>, u64) {
    let rules = morrigo_rules::load_rules("three-mens-morris").unwrap();
    let fp = morrigo_solve::rules_fingerprint(&rules);
    let m = Machine::<1>::new(Arc::new(solver_rules(&rules)));
    let (table, _) = solve(&m, &m.initial(), u64::MAX, &morrigo_solve::Quiet).unwrap();
    let mut bytes = Vec::new();
    table.save(&mut bytes, "three-mens-morris", fp).unwrap();
    (bytes, fp)
}

#[test]
fn every_bit_flip_of_a_three_mens_morris_table_is_refused() {
    let (bytes, fp) = three_mens_table();
    let name = Path::new("three.solve");
    let table = Table::from_bytes(name, &bytes, fp).unwrap();
    assert_eq!(table.positions(), 5390);
    let mut flipped = bytes.clone();
    for bit in 0..bytes.len() * 8 {
        flipped[bit / 8] ^= 1 << (bit % 8);
        let r = Table::from_bytes(name, &flipped, fp);
        assert!(
            r.is_err(),
            "bit {bit} of {} flipped: loaded",
            bytes.len() * 8
        );
        flipped[bit / 8] ^= 1 << (bit % 8);
    }
    // A flip in the values: the checksum says so.
    let mut b = bytes.clone();
    let at = b.len() - 100;
    b[at] ^= 0x10;
    let e = Table::from_bytes(name, &b, fp).unwrap_err();
    assert!(matches!(e, LoadError::Damaged(_)), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("is damaged: its checksum does not match"),
        "{e}"
    );
    // Cut short anywhere: refused too.
    for n in [0, 10, 20, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            Table::from_bytes(name, &bytes[..n], fp).is_err(),
            "cut at {n}"
        );
    }
}

/// A table written before tables carried a checksum (format version 1: the
/// same payload, no trailer) is refused with what to do.
#[test]
fn a_table_of_the_format_before_checksums_is_refused_asking_to_solve_again() {
    let (bytes, fp) = three_mens_table();
    let mut old = bytes[..bytes.len() - morrigo_store::TRAILER_BYTES].to_vec();
    old[16..20].copy_from_slice(&1u32.to_le_bytes());
    let e = Table::from_bytes(Path::new("old.solve"), &old, fp).unwrap_err();
    assert!(matches!(e, LoadError::OldVersion { version: 1 }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.contains("format version 1, from before tables carried a checksum"),
        "{text}"
    );
    assert!(text.contains("run the solve again"), "{text}");
}
