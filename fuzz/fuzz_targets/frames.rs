//! Like `reader`, but every frame's crc is fixed up before reading, so that mutations reach the
//! payload decoders, the header checks and verify instead of stopping at a crc. (As in `reader`,
//! redo of recorded events is the `redo` target's: it feeds arbitrary well-framed events to the
//! checked redo, which returns `Inconsistent` rather than panicking.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_replay::{FRAME_HEADER_LEN, Log, PREAMBLE_LEN, StepRecord, TailPolicy, verify};

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    let mut pos = PREAMBLE_LEN;
    while pos + FRAME_HEADER_LEN <= bytes.len() {
        let len = u32::from_le_bytes([bytes[pos], bytes[pos + 1], bytes[pos + 2], bytes[pos + 3]]) as usize;
        let end = pos + FRAME_HEADER_LEN + len;
        if end > bytes.len() {
            break;
        }
        let mut h = crc32fast::Hasher::new();
        h.update(&bytes[pos + 8..end]);
        bytes[pos + 4..pos + 8].copy_from_slice(&h.finalize().to_le_bytes());
        pos = end;
    }
    let Ok(log) = Log::from_bytes(bytes, TailPolicy::Lenient) else { return };
    let _ = verify(&log);
    let mut rec = StepRecord::default();
    for step in 0..=log.steps().min(256) {
        let _ = log.read_step(step, &mut rec);
    }
});
