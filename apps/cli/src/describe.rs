//! Events in words for a person: the rule set's own words where it has them (through the CLI's
//! registry, [`crate::games::describe_event`]), else one line of JSON with long arrays shortened.

use tessera_core::{AnyEvent, AnyState};

/// Arrays of numbers longer than this are shortened in [`event_line`].
const LONG_ARRAY: usize = 24;

/// An event as one line of JSON for people to read. An array of more than [`LONG_ARRAY`]
/// numbers (a PuzzleScript `Aux`: its generator and checkpoint, hundreds of bytes) shows its
/// first 8, then how many there are and a checksum of them all, so two that differ still read
/// differently. `--json` and `replay export` keep every number.
pub(crate) fn event_words(e: &AnyEvent, state: &AnyState) -> String {
    crate::games::describe_event(state, e).unwrap_or_else(|| event_line(e))
}

/// An event as one line of JSON, long arrays shortened (see [`event_words`], which names a
/// game's things where its rule set can).
pub(crate) fn event_line(e: &AnyEvent) -> String {
    let mut v = e.to_json();
    shorten_arrays(&mut v);
    v.to_string()
}

fn shorten_arrays(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Array(items) if items.len() > LONG_ARRAY && items.iter().all(Value::is_number) => {
            // FNV-1a over the numbers' text: a checksum to tell arrays apart, not to store.
            let sum = items.iter().fold(0x811c_9dc5_u32, |h, n| {
                n.to_string()
                    .bytes()
                    .chain([b','])
                    .fold(h, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
            });
            let len = items.len();
            items.truncate(8);
            items.push(Value::String(format!("… {len} numbers, checksum {sum:08x}")));
        }
        Value::Array(items) => items.iter_mut().for_each(shorten_arrays),
        Value::Object(map) => map.values_mut().for_each(shorten_arrays),
        _ => {}
    }
}
