//! Like `reader`, but every frame's crc is fixed up before reading, so that mutations reach the
//! payload decoders, the header checks and verify instead of stopping at a crc. (As in `reader`,
//! redo of recorded events is the `redo` target's: it feeds arbitrary well-framed events to the
//! checked redo, which returns `Inconsistent` rather than panicking.)
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use tessera_replay::{Log, StepRecord, TailPolicy, verify};

fuzz_target!(|data: &[u8]| {
    let bytes = common::with_fixed_crcs(data);
    let Ok(log) = Log::from_bytes(bytes, TailPolicy::Lenient) else { return };
    let _ = verify(&log);
    let mut rec = StepRecord::default();
    for step in 0..=log.steps().min(256) {
        let _ = log.read_step(step, &mut rec);
    }
});
