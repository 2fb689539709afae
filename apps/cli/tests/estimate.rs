//! `tessera difficulty` without `--bot`: the difficulty estimate of puzzle levels.

use crate::{scratch, stderr, tessera};

/// The last line of stdout, as JSON.
fn last_json(out: &std::process::Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or_else(|| panic!("no output; stderr: {}", stderr(out)));
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

/// Checks `doc` against the schema of the estimate's JSON (docs/difficulty.md): every key and
/// its type, nothing else. Returns the levels.
fn check_schema(doc: &serde_json::Value) -> &Vec<serde_json::Value> {
    let top = doc.as_object().expect("an object");
    let mut keys: Vec<&str> = top.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["disagreements", "file", "levels", "order_agreement", "states"], "{doc}");
    assert!(top["file"].is_string() && top["states"].is_u64());
    assert!(top["order_agreement"].is_null() || top["order_agreement"].is_f64());
    for m in top["disagreements"].as_array().expect("an array") {
        assert!(m["number"].is_u64() && m["easier_than"].is_u64(), "{m}");
        assert_eq!(m.as_object().map(|o| o.len()), Some(2));
    }
    let levels = top["levels"].as_array().expect("levels: an array");
    for l in levels {
        let o = l.as_object().expect("a level: an object");
        assert!(o["number"].is_u64(), "{l}");
        if o.contains_key("error") {
            assert!(o["error"].is_string() && o.len() == 2, "{l}");
            continue;
        }
        let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["difficulty", "features", "number", "solved", "why"], "{l}");
        assert!(o["difficulty"].is_f64() || o["difficulty"].is_u64(), "{l}");
        assert!(o["solved"].is_boolean());
        let why = o["why"].as_array().expect("why: an array");
        assert!(!why.is_empty() && why.iter().all(|w| w.as_str().is_some_and(|s| !s.is_empty())), "{l}");
        let f = o["features"].as_object().expect("features: an object");
        for k in [
            "steps",
            "pushes",
            "states",
            "search_steps",
            "bfs_states",
            "choices",
            "losing",
            "wrong_looking",
            "commitments",
            "mechanics",
            "cells",
            "objects",
            "away",
            "detour",
        ] {
            assert!(f[k].is_u64(), "features.{k}: {l}");
        }
        assert_eq!(f["solved"], o["solved"]);
        assert_eq!(f.len(), 15, "{l}");
    }
    levels
}

#[test]
fn every_level_of_a_game_is_rated_in_json_without_a_bot() {
    let out =
        tessera(&["difficulty", "fixtures/games/warehouse.txt", "--all", "--json", "--states", "300"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let doc = last_json(&out);
    let levels = check_schema(&doc);
    let numbers: Vec<u64> = levels.iter().map(|l| l["number"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>());
    assert!(levels.len() >= 2);
    // --number N gives that level's row, the same figures.
    let one = tessera(
        &["difficulty", "fixtures/games/warehouse.txt", "--number", "2", "--json", "--states", "300"],
        "",
    );
    assert!(one.status.success(), "{}", stderr(&one));
    let one = last_json(&one);
    assert_eq!(check_schema(&one)[0], levels[1]);
}

#[test]
fn the_estimate_is_the_same_on_one_and_two_jobs() {
    let run = |jobs: &str| {
        let out = tessera(
            &[
                "difficulty",
                "fixtures/games/warehouse.txt",
                "--all",
                "--json",
                "--states",
                "300",
                "--jobs",
                jobs,
            ],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        last_json(&out)
    };
    let one = run("1");
    check_schema(&one);
    assert_eq!(one, run("2"));
}

#[test]
fn a_sokoban_collection_is_rated_and_the_report_marks_a_breather() {
    let dir = scratch("estimate-sokoban");
    let file = dir.join("three.xsb");
    // Level 2 is easier than level 1: the report marks it.
    std::fs::write(
        &file,
        "; 1\n##########\n#@$     .#\n##########\n\n; 2\n#####\n#@$.#\n#####\n\n; 3\n############\n#@$       .#\n############\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = tessera(&["difficulty", path, "--all"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("level 2 rates easier than level 1: a breather?"), "{text}");
    assert!(text.contains("6 pushes"), "{text}");
    let json = tessera(&["difficulty", path, "--all", "--json"], "");
    let doc = last_json(&json);
    let levels = check_schema(&doc);
    let d: Vec<f64> = levels.iter().map(|l| l["difficulty"].as_f64().unwrap()).collect();
    assert!(d[1] < d[0] && d[0] < d[2], "{d:?}");
    assert_eq!(doc["disagreements"], serde_json::json!([{"number": 2, "easier_than": 1}]));
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    // Several levels, neither --all nor --number.
    let out = tessera(&["difficulty", "fixtures/games/warehouse.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--all"), "{}", stderr(&out));
    // A number past the game's levels.
    let out = tessera(&["difficulty", "fixtures/games/warehouse.txt", "--number", "99"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--number 99"), "{}", stderr(&out));
    // A rule set without a solver points at --bot.
    let out = tessera(&["difficulty", "fixtures/levels/classic.json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--bot"), "{}", stderr(&out));
    // --games without --bot.
    let out = tessera(&["difficulty", "fixtures/levels/sokoban.json", "--games", "3"], "");
    assert_eq!(out.status.code(), Some(2));
    // --all with --bot.
    let out = tessera(
        &["difficulty", "fixtures/games/warehouse.txt", "--all", "--bot", "random", "--games", "2"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}
