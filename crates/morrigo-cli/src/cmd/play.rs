use crate::fail::{Failure, Outcome};
use clap::Args;

/// TODO
#[derive(Args, Debug)]
pub struct PlayArgs {}

pub fn run(_args: PlayArgs) -> Outcome {
    Err(Failure::usage("not yet"))
}
