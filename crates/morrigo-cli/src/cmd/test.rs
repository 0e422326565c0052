use crate::fail::{Failure, Outcome};
use clap::Args;
use morrigo_record::run_path;
use std::io::Write;

/// Run scenario files: what a ruleset must do, checked move by move.
///
/// A scenario file names a ruleset and lists scenarios (a set-up or a move
/// record, and the expected verdicts: legal or refused moves, phase, result,
/// the end rule that decides). A directory runs every scenario file (.yaml)
/// under it, entering each directory once even where symbolic links loop;
/// YAML rulesets there are listed as skipped, not run.
/// Exit status 0 when every scenario passes, 1 otherwise.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo test tests/scenarios
  morrigo test tests/scenarios/morris/three-mens-morris.yaml")]
pub struct TestArgs {
    /// Scenario files or directories of them.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

pub fn run(args: TestArgs) -> Outcome {
    let mut out = std::io::stdout().lock();
    let mut ok = true;
    for path in &args.paths {
        match run_path(path) {
            Ok(report) => {
                ok &= report.all_passed();
                write!(out, "{report}")?;
            }
            Err(d) => {
                ok = false;
                out.flush()?;
                eprintln!("{d}");
            }
        }
    }
    if ok {
        Ok(())
    } else {
        Err(Failure::Quiet(1))
    }
}
