//! Move classes come from the ruleset's declarations: the pattern language
//! has no letter of its own (`D` exists only where `play.derived` declares
//! it), and a bad declaration is a located error (exit 1).

use crate::common::{check, refused};

#[test]
fn without_the_declaration_d_is_an_unknown_class() {
    // jk-final's forbid rules name D; deleting its declaration leaves them
    // naming a class the ruleset no longer has.
    let o = check(
        "no-d.yaml",
        "name: no-d\nextends: jk-final\nplay: { derived: { D: null } }\n",
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("unknown move class `D`"), "{err}");
    assert!(err.contains("expected one of N, C, P, E"), "{err}");
}

#[test]
fn a_derived_class_needs_classified_ko_captures() {
    let o = check(
        "no-ko.yaml",
        "name: no-ko\nextends: chinese\nplay: { derived: { D: { ko_runs: any } } }\n",
    );
    refused(
        &o,
        "no-ko.yaml",
        "3:20",
        "derived class `D` is made of ko captures, but plays are not classified",
    );
}

#[test]
fn a_derived_class_needs_a_definition_and_a_free_letter() {
    let o = check(
        "no-def.yaml",
        "name: no-def\nextends: jk-final\nplay: { derived: { D: null, Q: {} } }\n",
    );
    refused(
        &o,
        "no-def.yaml",
        "3:29",
        "derived class `Q` has no definition",
    );
    let o = check(
        "letter-c.yaml",
        "name: letter-c\nextends: jk-final\nplay: { derived: { D: null, C: { ko_runs: any } } }\n",
    );
    refused(
        &o,
        "letter-c.yaml",
        "3:29",
        "`C` cannot name a derived class",
    );
    let o = check(
        "pass-clash.yaml",
        "name: pass-clash\nextends: jk-final\npasses: { kinds: [P, E, D] }\n",
    );
    refused(&o, "pass-clash.yaml", "3:25", "`D` cannot name a pass kind");
}

#[test]
fn only_one_class_of_ko_runs() {
    let o = check(
        "two.yaml",
        "name: two\nextends: jk-final\nplay: { derived: { Q: { ko_runs: four_or_six } } }\n",
    );
    refused(
        &o,
        "two.yaml",
        "3:20",
        "only one class of ko-capture runs can be declared",
    );
}
