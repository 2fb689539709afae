//! Any text given as a pack file, a shard file or a results file (issue 29): a typed error or a
//! value, never a panic, an abort or an allocation sized by a number in the file (a shard count
//! of 2^63, 10^12 games). A shard that parses is merged against an empty plan, which must refuse
//! it without allocating for its counts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use tessera_pack::{Pack, Results, ShardFile};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let path = Path::new("fuzz.json");
    if let Ok(pack) = Pack::parse(text, path) {
        let _ = pack.to_json();
    }
    if let Ok(shard) = ShardFile::parse(text, path) {
        // Checked: its counts are within the bounds, so a plan from its settings is bounded too.
        let _ = shard.check("fuzz");
    }
    if let Ok(results) = serde_json::from_str::<Results>(text) {
        let _ = results.to_json();
    }
});
