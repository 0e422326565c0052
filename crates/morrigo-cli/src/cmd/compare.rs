use crate::fail::{Failure, Outcome};
use clap::Args;

/// TODO
#[derive(Args, Debug)]
pub struct CompareArgs {}

pub fn run(_args: CompareArgs) -> Outcome {
    Err(Failure::usage("not yet"))
}
