use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::{Diagnostic, Diagnostics};
use morrigo_rules::compile;
use std::io::Write;
use std::path::Path;

/// Load and check rulesets; report every error with its file:line:col.
///
/// Each ruleset is read, its `extends` chain merged, its board built and every
/// rule expression type-checked. A good file prints one `ok:` line; a bad one
/// prints all of its diagnostics to stderr, and the exit status is 1.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo check rulesets/morris/*.yaml
  morrigo check rulesets/morris
  morrigo check my-variant.yaml
  morrigo check nine-mens-morris        (a built-in name works too)
  morrigo check jk-final --size 9 --komi 6.5")]
pub struct CheckArgs {
    /// Ruleset files (or built-in names) to check; a directory checks every
    /// .yaml file in it.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

pub fn run(args: CheckArgs) -> Outcome {
    let mut out = std::io::stdout().lock();
    let (mut failed, mut misused) = (false, false);
    let files = expand(&args.files)?;
    for file in &files {
        // A flag the file cannot take is a usage error (exit 2), reported
        // like the file's own errors.
        let rules = match game::loaded(file, &args.ruleset) {
            Ok(loaded) => compile(&loaded),
            Err(Failure::Usage(d)) => {
                misused = true;
                Err(Diagnostics::from(d))
            }
            Err(Failure::Game(ds)) => Err(ds),
            Err(other) => return Err(other),
        };
        match rules {
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
    if misused {
        Err(Failure::Quiet(2))
    } else if failed {
        Err(Failure::Quiet(1))
    } else {
        Ok(())
    }
}

/// Directories become the `.yaml`/`.yml` files directly inside them, sorted.
fn expand(specs: &[String]) -> Result<Vec<String>, Failure> {
    let mut files = Vec::new();
    for spec in specs {
        let path = Path::new(spec);
        if !path.is_dir() {
            files.push(spec.clone());
            continue;
        }
        let entries = std::fs::read_dir(path)
            .map_err(|e| Failure::game(Diagnostic::new(format!("cannot list `{spec}`: {e}"))))?;
        let mut found: Vec<String> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if found.is_empty() {
            return Err(Failure::game(
                Diagnostic::new(format!("no ruleset files in `{spec}`"))
                    .expected("a directory holding .yaml files"),
            ));
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}
