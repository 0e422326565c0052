use crate::fail::{Failure, Outcome};
use clap::Args;

/// TODO
#[derive(Args, Debug)]
pub struct ReplayArgs {}

pub fn run(_args: ReplayArgs) -> Outcome {
    Err(Failure::usage("not yet"))
}
