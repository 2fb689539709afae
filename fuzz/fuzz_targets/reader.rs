//! Any bytes given to the log reader: an error or a log, never a panic, a hang or an allocation
//! beyond the frame limit. What opens is then verified, exported and every step decoded.
//!
//! Not called here: `Log::state_at` and `History::from_log`, which replay recorded events and
//! catch, with `catch_unwind`, a rule set's panic on events that do not fit the board (reported
//! as `LogError::Inconsistent`); libFuzzer aborts on any panic, caught or not. The property test
//! `format::frames_with_valid_crcs_and_random_payloads_do_not_panic` covers them.
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
