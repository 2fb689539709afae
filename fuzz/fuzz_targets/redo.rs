//! Redo of arbitrary well-framed events: the input is a log whose crcs are fixed up (as in
//! `frames`), so mutations of real logs (seed the corpus with the golden logs) become step
//! payloads with valid crcs whose events need not fit the board. Redo is checked: every step
//! either redoes, keeping the incremental hash equal to the recomputed one, or is refused with
//! `Inconsistent` and changes nothing. `Log::state_at` and `History::from_log`, which redo
//! recorded events, must answer with an error rather than panic (nothing catches a panic now).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use tessera_core::Rules;
use tessera_replay::{History, Log, StepRecord, TailPolicy};

fuzz_target!(|data: &[u8]| {
    let bytes = common::with_fixed_crcs(data);
    let Ok(log) = Log::from_bytes(bytes, TailPolicy::Lenient) else { return };
    let steps = log.steps().min(512);
    let _ = log.state_at(steps);
    let _ = History::from_log(&log);
    let Ok(game) = log.start() else { return };
    let mut state = game.state;
    let mut rec = StepRecord::default();
    for step in 1..=steps {
        if log.read_step(step, &mut rec).is_err() {
            continue;
        }
        let before = state.clone();
        match game.rules.redo(&mut state, &rec.events) {
            Ok(()) => assert_eq!(state.hash(), state.recompute_hash(), "step {step}: the kept hash drifted"),
            Err(e) => {
                assert!(e.event < rec.events.len());
                assert_eq!(state, before, "step {step}: a refused step changed the state");
            }
        }
    }
});
