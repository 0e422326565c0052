use crate::fail::{Failure, Outcome};
use clap::Args;
use morrigo_diag::Diagnostics;
use morrigo_rules::load_rules;
use std::io::Write;

/// Load and check rulesets; report every error with its file:line:col.
///
/// Each ruleset is read, its `extends` chain merged, its board built and every
/// rule expression type-checked. A good file prints one `ok:` line; a bad one
/// prints all of its diagnostics to stderr, and the exit status is 1.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo check rulesets/morris/*.yaml
  morrigo check my-variant.yaml
  morrigo check nine-mens-morris        (a built-in name works too)")]
pub struct CheckArgs {
    /// Ruleset files (or built-in names) to check.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
}

pub fn run(args: CheckArgs) -> Outcome {
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for file in &args.files {
        match load_rules(file) {
            Ok(rules) => writeln!(
                out,
                "ok: {} ({} points, {} lines, {} end rules)",
                rules.name,
                rules.topology.len(),
                rules.topology.lines.len(),
                rules.end.len()
            )?,
            Err(Diagnostics(ds)) => {
                failed = true;
                out.flush()?;
                for d in &ds {
                    eprintln!("{d}");
                }
                eprintln!(
                    "{file}: {} error{}",
                    ds.len(),
                    if ds.len() == 1 { "" } else { "s" }
                );
            }
        }
    }
    if failed {
        Err(Failure::Quiet(1))
    } else {
        Ok(())
    }
}
