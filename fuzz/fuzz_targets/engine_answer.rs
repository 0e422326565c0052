//! The referee's reader of an engine's answers (`morrigo match`): any
//! bytes as an engine's output are read as a run of responses, each a
//! bounded answer or a fault, until the output ends; nothing panics, no
//! answer exceeds `MAX_RESPONSE_BYTES`, no fault's message grows with the
//! input, and every read consumes input (so it cannot spin).
#![no_main]
use libfuzzer_sys::fuzz_target;
use morrigo_gtp::client::{read_response, Fault, MAX_RESPONSE_BYTES};

fuzz_target!(|data: &[u8]| {
    let mut input = data;
    let mut id = 1u64;
    while !input.is_empty() {
        let before = input.len();
        match read_response(&mut input, id, "genmove b") {
            Ok(text) => assert!(text.len() <= MAX_RESPONSE_BYTES),
            Err(Fault::Refused(text)) => assert!(text.len() <= MAX_RESPONSE_BYTES),
            Err(f) => assert!(f.describe().len() <= 512, "{f:?}"),
        }
        assert!(input.len() < before, "a read consumed nothing");
        id += 1;
    }
});
