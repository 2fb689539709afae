//! Issue 29: hostile inputs and kills on the surfaces added since the first sweep (packs,
//! merge, convert, reduce, pin, check, solve). Hostile inputs are made here, not stored.

use crate::{scratch, stderr, tessera, workspace};
use std::path::{Path, PathBuf};

/// A pack of two small collapse levels in a fresh folder; returns the pack's path.
fn small_pack(name: &str) -> PathBuf {
    let dir = scratch(name);
    for (i, colours) in [(0, 2), (1, 3)] {
        std::fs::write(
            dir.join(format!("l{i}.json")),
            format!(r#"{{"rule_set": "collapse", "width": 4, "height": 3, "colours": {colours}}}"#),
        )
        .unwrap();
    }
    let pack = dir.join("pack.json");
    std::fs::write(&pack, r#"{"name": "p", "levels": [{"level": "l0.json"}, {"level": "l1.json"}]}"#)
        .unwrap();
    pack
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit 2, no panic, and the message names `what`.
fn refused(out: &std::process::Output, what: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(what), "expected '{what}' in: {err}");
}

/// 29.2: counts from flags and from shard files are bounded before anything is allocated.
#[test]
fn huge_counts_are_refused_before_allocating() {
    let pack = small_pack("huge-counts");
    let dir = pack.parent().unwrap().to_path_buf();
    let out = tessera(&["pack", "rate", s(&pack), "--bot", "random", "--games", "1000000000000"], "");
    refused(&out, "at most 1000000 games");
    let out =
        tessera(&["pack", "rate", s(&pack), "--bot", "random", "--games", "2", "--jobs", "1000000000"], "");
    refused(&out, "--jobs");
    let out = tessera(
        &[
            "pack",
            "rate",
            s(&pack),
            "--bot",
            "random",
            "--games",
            "2",
            "--shard",
            "0/1000000000",
            "--out",
            "x",
        ],
        "",
    );
    refused(&out, "at most 65536 shards");
    let shard = dir.join("shard.json");
    let out = tessera(
        &["pack", "rate", s(&pack), "--bot", "random", "--games", "2", "--shard", "0/1", "--out", s(&shard)],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let good: tessera_pack::ShardFile = serde_json::from_slice(&std::fs::read(&shard).unwrap()).unwrap();
    for (count, games) in [(1u64 << 63, 2), (1_000_000_000, 2), (1, 1_000_000_000_000)] {
        let mut bad = good.clone();
        bad.shard.count = count;
        bad.settings.games = games;
        bad.seal();
        let file = dir.join(format!("bad-{count}-{games}.json"));
        std::fs::write(&file, serde_json::to_string(&bad).unwrap()).unwrap();
        let out = tessera(&["pack", "merge", s(&pack), s(&file)], "");
        refused(&out, s(&file));
        assert!(stderr(&out).contains("at most"), "{}", stderr(&out));
    }
    assert!(!dir.join("pack.results.json").exists(), "nothing written");
}

/// 29.1: a shard with one game flipped by hand is refused by name.
#[test]
fn a_hand_edited_shard_is_refused_by_name() {
    let pack = small_pack("edited-shard");
    let dir = pack.parent().unwrap().to_path_buf();
    let shard = dir.join("shard.json");
    let out = tessera(
        &["pack", "rate", s(&pack), "--bot", "random", "--games", "3", "--shard", "0/1", "--out", s(&shard)],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&shard).unwrap();
    let flipped = if text.contains("\"won\":true") {
        text.replacen("\"won\":true", "\"won\":false", 1)
    } else {
        text.replacen("\"won\":false", "\"won\":true", 1)
    };
    assert_ne!(flipped, text);
    std::fs::write(&shard, flipped).unwrap();
    let out = tessera(&["pack", "merge", s(&pack), s(&shard)], "");
    refused(&out, "shard.json");
    assert!(stderr(&out).contains("checksum"), "{}", stderr(&out));
    assert!(!dir.join("pack.results.json").exists());
    let _ = workspace();
}
