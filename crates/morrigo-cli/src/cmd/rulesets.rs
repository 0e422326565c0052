use crate::fail::Outcome;
use clap::Args;
use morrigo_rules::builtin;
use std::io::Write;

/// List the built-in rulesets with their titles.
///
/// Any command that takes a ruleset accepts these names in place of a path.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo rulesets
  morrigo show twelve-mens-morris")]
pub struct RulesetsArgs {}

pub fn run(_args: RulesetsArgs) -> Outcome {
    let mut out = std::io::stdout().lock();
    let width = builtin::all()
        .iter()
        .map(|b| b.name.len())
        .max()
        .unwrap_or(0);
    for b in builtin::all() {
        let title = morrigo_rules::load_rules(b.name)
            .map(|r| r.title)
            .ok()
            .or_else(|| title_of(b.text))
            .unwrap_or_default();
        writeln!(out, "{:width$}  {title}  ({})", b.name, b.path)?;
    }
    Ok(())
}

/// The `title:` line of a built-in that does not compile (a test of the
/// rules crate rules that out; the listing should still work).
fn title_of(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("title:"))
        .map(|t| t.trim().trim_matches('"').to_string())
}
