//! Tests of tessera-pack: the pack file and its errors, rating and re-rating, shards and their
//! merge (a property test: any shard count and order gives the one-machine bytes), the curve's
//! flags and outputs.

mod file;
mod rate;
mod report;

use std::path::{Path, PathBuf};

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-pack-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Small levels that rate fast: random 3×3 2048 boards and small SameGame boards.
pub fn small_level(i: usize) -> String {
    match i % 3 {
        0 => format!(
            r#"{{"rule_set": "slide", "width": 3, "height": 3, "config": {{"target": {}}}, "seed": {i}}}"#,
            16 << (i % 2)
        ),
        1 => format!(
            r#"{{"rule_set": "collapse", "width": 4, "height": 3, "colours": {}, "seed": {i}}}"#,
            2 + i % 3
        ),
        _ => format!(
            r#"{{"rule_set": "collapse", "width": 5, "height": 2, "colours": {}, "seed": {i}}}"#,
            2 + i % 2
        ),
    }
}

/// Writes a pack of `n` small level files into `dir`; returns the pack's path.
pub fn write_pack(dir: &Path, n: usize) -> PathBuf {
    let mut entries = Vec::new();
    for i in 0..n {
        let file = format!("level{i}.json");
        std::fs::write(dir.join(&file), small_level(i)).expect("level written");
        entries.push(format!(r#"{{"level": "{file}", "title": "L{i}"}}"#));
    }
    let pack = dir.join("pack.json");
    std::fs::write(&pack, format!(r#"{{"name": "test", "levels": [{}]}}"#, entries.join(","))).expect("pack");
    pack
}
