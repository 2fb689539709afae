//! Any bytes given to the log reader: an error or a log, never a panic, a hang or an allocation
//! beyond the frame limit. What opens is then verified, exported and every step decoded.
//!
//! Not called here: `Log::state_at` and `History::from_log`, which replay recorded events; the
//! `redo` target feeds arbitrary well-framed events to the checked redo behind them (an event
//! that does not fit is `LogError::Inconsistent`, with no panic and no `catch_unwind`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_replay::{Log, StepRecord, TailPolicy, export_json, verify};

fuzz_target!(|data: &[u8]| {
    for tail in [TailPolicy::Strict, TailPolicy::Lenient] {
        let Ok(log) = Log::from_bytes(data.to_vec(), tail) else { continue };
        let _ = verify(&log);
        let _ = export_json(&log, &mut std::io::sink());
        let mut rec = StepRecord::default();
        for step in 0..=log.steps().min(256) {
            let _ = log.read_step(step, &mut rec);
        }
    }
});
