//! Runs every scenario file under `tests/scenarios/` and fails listing the
//! scenarios that did not pass.

use std::path::Path;

/// Run from the workspace root so reports show `tests/scenarios/...` paths.
fn scenarios_dir() -> &'static Path {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::set_current_dir(root).expect("workspace root");
    Path::new("tests/scenarios")
}

#[test]
fn every_scenario_file_passes() {
    let report = morrigo_record::run_path(scenarios_dir()).unwrap_or_else(|d| panic!("{d}"));
    let (passed, _, _) = report.counts();
    assert!(passed > 0, "no scenarios ran");
    assert!(report.all_passed(), "\n{report}");
    println!("{report}");
}
