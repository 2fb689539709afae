//! Any text given to the Sokoban collection reader (`tessera convert sokoban`, issue 29.3): an
//! import error naming the line or levels, never a panic or an allocation beyond the text's own
//! size times a small factor (rows longer or taller than the largest side are refused while
//! reading, before padding).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tessera_core::sokoban::parse_levels;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(levels) = parse_levels(text) {
        for (_, level) in levels.iter().take(8) {
            let _ = level.start(None);
        }
    }
});
