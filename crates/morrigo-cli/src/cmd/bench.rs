use crate::fail::{Failure, Outcome};
use clap::Args;

/// TODO
#[derive(Args, Debug)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> Outcome {
    Err(Failure::usage("not yet"))
}
