//! How a command fails, and the exit code each failure maps to.
//!
//! Every message reaches the user through [`Diagnostic`]'s `Display`, on
//! stderr. Exit codes: 0 success, 1 a rule or game error (bad ruleset,
//! illegal move, failing scenario), 2 a usage error (clap's own code).

use morrigo_diag::{Diagnostic, Diagnostics};
use std::io;
use std::process::ExitCode;

/// Why a command stopped.
#[derive(Debug)]
pub enum Failure {
    /// A rule or game error: the diagnostics are printed, exit 1.
    Game(Diagnostics),
    /// The command line asked for something impossible: exit 2.
    Usage(Diagnostic),
    /// Everything has been reported already; exit with this code.
    Quiet(u8),
}

pub type Outcome = Result<(), Failure>;

impl Failure {
    pub fn game(d: impl Into<Diagnostics>) -> Self {
        Failure::Game(d.into())
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Failure::Usage(Diagnostic::new(message))
    }

    /// Print the failure to stderr and give the exit code.
    pub fn report(self) -> ExitCode {
        match self {
            Failure::Game(ds) => {
                eprintln!("{ds}");
                ExitCode::from(1)
            }
            Failure::Usage(d) => {
                eprintln!("{d}");
                eprintln!("\nFor more information, try '--help'.");
                ExitCode::from(2)
            }
            Failure::Quiet(code) => ExitCode::from(code),
        }
    }
}

impl From<Diagnostics> for Failure {
    fn from(ds: Diagnostics) -> Self {
        Failure::Game(ds)
    }
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Self {
        Failure::Game(d.into())
    }
}

/// Output errors: a closed pipe (`morrigo perft … | head`) ends quietly.
impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        match e.kind() {
            io::ErrorKind::BrokenPipe => Failure::Quiet(0),
            _ => Failure::game(Diagnostic::new(format!("cannot write output: {e}"))),
        }
    }
}
