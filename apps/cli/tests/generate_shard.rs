//! `tessera generate --shard I/N` and `tessera generate merge` (issue 64.4): a run split over
//! three shards and joined gives the one-machine run's OUT byte for byte and its JSON but the
//! seconds, whether it ends on the count or on the budget, for a game and for a rule set's
//! generator; parts of another run, a shard twice or missing are refused by name.

use crate::{scratch, stderr, tessera};
use std::path::Path;

const FUSE: &str = "fixtures/games/fuse.txt";

/// The last line of stdout as JSON, without what is not deterministic (seconds) or names
/// the file written (out, file).
fn json_of(out: &std::process::Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().last().unwrap_or_else(|| panic!("no stdout; stderr: {}", stderr(out)));
    let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("out");
    for l in v["levels"].as_array_mut().unwrap() {
        let l = l.as_object_mut().unwrap();
        l.remove("seconds");
        l.remove("file");
    }
    v
}

fn run(source: &[&str], flags: &[&str], out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["generate"];
    args.extend_from_slice(source);
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--out", out.to_str().unwrap(), "--json"]);
    args.extend_from_slice(extra);
    let r = tessera(&args, "");
    assert!(r.status.success(), "{args:?}: {}", stderr(&r));
    r
}

/// One machine against three shards (with other --jobs) joined in another order.
fn one_against_three(dir: &Path, name: &str, source: &[&str], flags: &[&str]) -> serde_json::Value {
    let one = dir.join(format!("{name}-one.out"));
    let single = json_of(&run(source, flags, &one, &["--jobs", "1"]));
    let mut parts = Vec::new();
    for i in 1..=3 {
        let part = dir.join(format!("{name}-part{i}.json"));
        let shard = format!("{i}/3");
        let r = run(source, flags, &part, &["--shard", &shard, "--jobs", "2"]);
        let v: serde_json::Value =
            serde_json::from_str(String::from_utf8_lossy(&r.stdout).lines().last().unwrap()).unwrap();
        assert_eq!(v["shard"], serde_json::json!([i, 3]));
        parts.push(part.to_str().unwrap().to_string());
    }
    let joined = dir.join(format!("{name}-joined.out"));
    let mut args = vec!["generate", "merge", &parts[2], &parts[0], &parts[1]];
    let j = joined.to_str().unwrap().to_string();
    args.extend_from_slice(&["--out", &j, "--json"]);
    let r = tessera(&args, "");
    assert!(r.status.success(), "merge: {}", stderr(&r));
    assert_eq!(json_of(&r), single, "{name}: the joined JSON is the one machine's");
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&joined).unwrap(), "{name}: OUT, byte for byte");
    single
}

#[test]
fn three_shards_joined_are_the_one_machine_run() {
    let dir = scratch("generate-shards");
    let count = ["--count", "3", "--seed", "1", "--states", "200000", "--level-states", "5000"];
    let v = one_against_three(&dir, "count", &[FUSE], &count);
    assert_eq!(v["ended"], "count");
    assert_eq!(v["levels"].as_array().unwrap().len(), 3);
    // A budget that ends the run before its count: the join stops at the same candidate.
    let budget = ["--count", "20", "--seed", "3", "--states", "30000", "--level-states", "5000"];
    let v = one_against_three(&dir, "budget", &[FUSE], &budget);
    assert_eq!(v["ended"], "budget");
    assert!(!v["levels"].as_array().unwrap().is_empty(), "{v}");
    // A rule set's generator.
    let sokoban = [
        "--size",
        "8x8",
        "--boxes",
        "2",
        "--count",
        "3",
        "--seed",
        "5",
        "--states",
        "2000000",
        "--level-states",
        "20000",
        "--min-steps",
        "3",
    ];
    let v = one_against_three(&dir, "sokoban", &["--rules", "sokoban"], &sokoban);
    assert_eq!(v["levels"].as_array().unwrap().len(), 3);
    // Match-3 stages: each written file the same too.
    let match3 = [
        "--stage",
        "fixtures/levels/stage_0001.json",
        "--win-rate",
        "0.3..0.7",
        "--count",
        "1",
        "--games",
        "30",
        "--seed",
        "2",
        "--states",
        "10000000",
    ];
    let v = one_against_three(&dir, "match3", &["--rules", "match3"], &match3);
    assert_eq!(v["levels"].as_array().unwrap().len(), 1);
}

#[test]
fn parts_that_are_not_one_run_are_refused_by_name() {
    let dir = scratch("generate-shards-bad");
    let flags = ["--count", "2", "--seed", "1", "--states", "100000", "--level-states", "5000"];
    let mut parts = Vec::new();
    for i in 1..=2 {
        let part = dir.join(format!("p{i}.json"));
        run(&[FUSE], &flags, &part, &["--shard", &format!("{i}/2")]);
        parts.push(part.to_str().unwrap().to_string());
    }
    let other = dir.join("other.json");
    run(
        &[FUSE],
        &["--count", "2", "--seed", "2", "--states", "100000", "--level-states", "5000"],
        &other,
        &["--shard", "2/2"],
    );
    let out = dir.join("out.txt");
    let o = out.to_str().unwrap();
    let merge = |parts: &[&str]| {
        let mut args = vec!["generate", "merge"];
        args.extend_from_slice(parts);
        args.extend_from_slice(&["--out", o]);
        tessera(&args, "")
    };
    for (parts, why) in [
        (vec![parts[0].as_str()], "shards missing: 2/2"),
        (vec![parts[0].as_str(), parts[0].as_str()], "shard 1 given twice"),
        (vec![parts[0].as_str(), other.to_str().unwrap()], "another run's"),
    ] {
        let r = merge(&parts);
        assert_eq!(r.status.code(), Some(2), "{parts:?}");
        assert!(stderr(&r).contains(why), "{parts:?}: {}", stderr(&r));
        assert!(!out.exists(), "nothing written");
    }
    // Not a part at all; a clock cannot be split.
    let r = merge(&[FUSE]);
    assert_eq!(r.status.code(), Some(2));
    assert!(stderr(&r).contains("not a generate part"), "{}", stderr(&r));
    let r = tessera(&["generate", FUSE, "--seconds", "5", "--shard", "1/2", "--out", o], "");
    assert_eq!(r.status.code(), Some(2));
    assert!(stderr(&r).contains("--states"), "{}", stderr(&r));
}
