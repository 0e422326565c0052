use crate::fail::{Failure, Outcome};
use clap::Args;

/// TODO
#[derive(Args, Debug)]
pub struct TestArgs {}

pub fn run(_args: TestArgs) -> Outcome {
    Err(Failure::usage("not yet"))
}
