//! Any bytes given to the log reader: an error or a log, never a panic, a hang or an allocation
//! beyond the frame limit. What opens is then verified, exported and sought through.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_replay::{History, Log, StepRecord, TailPolicy, export_json, verify};

fuzz_target!(|data: &[u8]| {
    for tail in [TailPolicy::Strict, TailPolicy::Lenient] {
        let Ok(log) = Log::from_bytes(data.to_vec(), tail) else { continue };
        let _ = verify(&log);
        let _ = export_json(&log, &mut std::io::sink());
        let mut rec = StepRecord::default();
        for step in 0..=log.steps().min(256) {
            let _ = log.read_step(step, &mut rec);
            let _ = log.state_at(step);
        }
        let _ = History::from_log(&log);
    }
});
