use crate::fail::{Failure, Outcome};
use clap::Args;

/// TODO
#[derive(Args, Debug)]
pub struct SimulateArgs {}

pub fn run(_args: SimulateArgs) -> Outcome {
    Err(Failure::usage("not yet"))
}
