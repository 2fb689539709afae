//! Any text given as a pack file, a shard file or a results file (issue 29): a typed error or a
//! value, never a panic, an abort or an allocation sized by a number in the file (a shard count
//! of 2^63, 10^12 games).
//!
//! A random edit of a shard fails its checksum, which would hide the size checks behind it: so
//! a shard that deserializes is also resealed (its checksum recomputed, as someone editing it
//! on purpose would) and then checked and merged against an empty plan made from its own
//! settings, which must refuse it or accept it without allocating for its counts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use tessera_pack::rate::{self, Plan};
use tessera_pack::{Pack, Results, ShardFile};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let path = Path::new("fuzz.json");
    if let Ok(pack) = Pack::parse(text, path) {
        let _ = pack.to_json();
    }
    let _ = ShardFile::parse(text, path);
    if let Ok(mut shard) = serde_json::from_str::<ShardFile>(text) {
        shard.seal();
        if shard.check("fuzz").is_ok() {
            let empty = Results::empty();
            if let Ok(plan) = Plan::new(path, &[], &[], &empty, shard.settings.clone(), shard.unit_games) {
                let _ = rate::merge(&plan, &empty, &[], &[("fuzz".to_string(), shard)]);
            }
        }
    }
    if let Ok(results) = serde_json::from_str::<Results>(text) {
        let _ = results.to_json();
    }
});
