use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::Diagnostic;
use std::io::Write;

/// Show the compiled rules and the board.
///
/// Prints the summary of the rules as the engine sees them (after `extends`
/// is merged and every expression is checked), then the empty board drawn in
/// ASCII. With `--position`, the board after playing a move record instead,
/// with whose turn it is and in which phase.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo show nine-mens-morris
  morrigo show my-variant.yaml
  morrigo show nine-mens-morris --position \"a1 d2 d1 b4 g1xd2\"
  morrigo show jk-final --size 5 --position \"C3 D3 pass:E\"
  morrigo show picaria-board.yaml --svg board.svg
  morrigo show cheng-san-qi --resolved > my-variant.yaml")]
pub struct ShowArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// A move record to play from the start before drawing the board
    /// (`d1` place, `d1-d2` slide or fly, `xd2` remove, `g1xd2` both).
    #[arg(long, value_name = "RECORD")]
    pub position: Option<String>,
    /// Also write the board (after `--position`, with its pieces) as SVG to
    /// this file: point names as labels and hover titles.
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<String>,
    /// Print the ruleset as one YAML file instead: its `extends` chain
    /// merged and `--size`/`--komi` applied (comments are not kept). It
    /// loads back to the same rules.
    #[arg(long, conflicts_with_all = ["position", "svg"])]
    pub resolved: bool,
    #[command(flatten)]
    pub ruleset: game::RulesetOptions,
}

pub fn run(args: ShowArgs) -> Outcome {
    if args.resolved {
        let loaded = game::loaded(&args.file, &args.ruleset)?;
        // Only a ruleset that compiles is written out.
        morrigo_rules::compile(&loaded)?;
        let text = loaded
            .resolved_yaml()
            .map_err(|e| Failure::game(Diagnostic::new(e)))?;
        write!(std::io::stdout().lock(), "{text}")?;
        return Ok(());
    }
    let played = game::game(&args.file, &args.ruleset)?;
    let rules = played.rules().clone();
    let board = match &args.position {
        None => {
            if let Some(path) = &args.svg {
                game::write_svg(&rules, |_| None, path)?;
            }
            format!(
                "board ({} points):\n{}\n",
                rules.topology.len(),
                game::draw_empty(&rules)
            )
        }
        Some(record) => {
            let start = game::start(&played, Some(record))?;
            if let Some(path) = &args.svg {
                game::write_svg(&rules, |p| start.state.owner(p), path)?;
            }
            position_report(&start)
        }
    };
    let mut out = std::io::stdout().lock();
    write!(out, "{rules}\n{board}")?;
    Ok(())
}

fn position_report(start: &game::Start) -> String {
    let s = &start.state;
    let mut text = format!("board after {} plies:\n{}\n", start.plies, game::draw(s));
    match &start.over {
        Some(why) => {
            text += &format!("game over: {why}\n");
            if let Some(score) = &start.score {
                text += &format!("{score}\n");
            }
        }
        None => {
            let moves = s.legal_moves().unwrap_or_default();
            text += &format!("{}\n", game::status(s));
            text += &format!("legal: {}\n", game::legal_summary(s, &moves));
        }
    }
    text
}
