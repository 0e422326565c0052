use crate::fail::{Failure, Outcome};
use crate::game;
use clap::Args;
use morrigo_diag::{Diagnostic, SourceFile};
use morrigo_record::replay;
use std::io::Write;

/// Replay a move record and print the annotated transcript.
///
/// Every ply is listed with its player, phase and what it did (lines
/// completed, removals, flying), then the result with the end rule that
/// decided it, and the final board. A move the rules refuse stops the replay:
/// the error points at the move's column and quotes the rule, and the
/// transcript up to that move is printed to stderr (exit status 1).
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  morrigo replay nine-mens-morris --moves \"a1 d2 d1 b4 g1xd2\"
  morrigo replay nine-mens-morris --moves \"a1 d2 d1 b4 g1 xd2\" --json
  morrigo replay my-variant.yaml --file game.txt

Notation: `d1` place, `d1-d2` slide or fly, `xd2` remove (a ply of its own),
`g1xd2` a move with its removal. Move numbers such as `1.` are skipped.")]
#[command(group = clap::ArgGroup::new("record").required(true).args(["moves", "file"]))]
pub struct ReplayArgs {
    /// Ruleset file or built-in name.
    #[arg(value_name = "FILE")]
    pub ruleset: String,
    /// The move record, separated by spaces or commas.
    #[arg(long, value_name = "RECORD")]
    pub moves: Option<String>,
    /// Read the move record from a file.
    #[arg(long, value_name = "RECORD_FILE")]
    pub file: Option<String>,
    /// Print the transcript as JSON: {"plies":[{"n","player","move","phase"}…],
    /// "result":{"status","winner","reason"}} (further keys, such as a ply's
    /// "note" or the final "board", may be present).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: ReplayArgs) -> Outcome {
    let any = game::machine(&args.ruleset)?;
    let source = match (&args.moves, &args.file) {
        (Some(moves), _) => SourceFile::new("--moves", moves.as_str()),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                Failure::game(Diagnostic::new(format!("cannot read `{path}`: {e}")))
            })?;
            SourceFile::new(path.as_str(), text)
        }
        (None, None) => return Err(Failure::usage("give the record with --moves or --file")),
    };
    let render = |t: &morrigo_record::Transcript| {
        if args.json {
            format!("{:#}\n", t.to_json())
        } else {
            t.to_text()
        }
    };
    match replay(&any, &source.text, &source) {
        Ok(t) => {
            let mut out = std::io::stdout().lock();
            write!(out, "{}", render(&t))?;
            Ok(())
        }
        Err(e) => {
            eprintln!("{}", e.diagnostic);
            eprintln!("\ntranscript up to ply {}:", e.ply);
            eprint!("{}", render(&e.transcript));
            Err(Failure::Quiet(1))
        }
    }
}
