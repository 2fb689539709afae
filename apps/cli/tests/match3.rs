//! `tessera play` and `tessera convert stage` with the `match3` rule set.

use crate::{json_lines, scratch, stderr, tessera, workspace};

#[test]
fn hint_prints_a_valid_swap_and_changes_nothing() {
    let out = tessera(
        &["play", "fixtures/levels/stage_0001.json", "--seed", "3", "--commands", "-", "--json"],
        "hint\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = json_lines(&out);
    assert_eq!(steps[0]["rule_set"], "match3");
    assert_eq!(steps[1]["outcome"], "hint");
    assert_eq!(steps[1]["hash"], steps[0]["hash"], "a hint changes nothing");
    let hint = steps[1]["hint"].as_str().unwrap().to_string();
    assert!(hint.starts_with("swap "), "{hint}");

    // Playing the hint resolves: a match, a score, and the board stays full.
    let script = format!("{hint}\nundo\nredo\n");
    let out = tessera(
        &["play", "fixtures/levels/stage_0001.json", "--seed", "3", "--commands", "-", "--json", "--strict"],
        &script,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = json_lines(&out);
    let events = steps[1]["events"].as_array().unwrap();
    assert!(events[0].get("Swapped").is_some());
    assert!(events.iter().any(|e| e.get("Matched").is_some()), "{events:?}");
    assert!(steps[1]["score"].as_u64().unwrap() >= 30);
    assert_eq!(steps[2]["hash"], steps[0]["hash"], "undo");
    assert_eq!(steps[3]["hash"], steps[1]["hash"], "redo");
    let board = steps[1]["board"].as_array().unwrap();
    assert_eq!(board.len(), 9);
    assert!(board.iter().all(|r| !r.as_str().unwrap().contains('.')), "every cell holds a block");
}

#[test]
fn a_swap_that_makes_no_run_swaps_back() {
    let dir = scratch("m3swapback");
    let level = dir.join("l.json");
    std::fs::write(&level, r#"{"rule_set":"match3","config":{"breeds":4},"board":["abca","bcab","aabc"]}"#)
        .unwrap();
    let out = tessera(
        &["play", level.to_str().unwrap(), "--commands", "-", "--json"],
        "swap 0 0 1 0\nswap 9 9 9 8\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = json_lines(&out);
    let events = steps[1]["events"].as_array().unwrap();
    assert_eq!(events.len(), 2);
    assert!(events[1].get("SwappedBack").is_some());
    assert_eq!(steps[1]["hash"], steps[0]["hash"]);
    assert_eq!(steps[2]["outcome"], "refused");
    assert_eq!(steps[2]["rejected"]["code"], "off_board");
}

#[test]
fn bad_swap_text_is_bad_input_naming_the_line() {
    let out = tessera(&["play", "fixtures/levels/stage_0001.json", "--commands", "-"], "hint\nswap 1 2 3\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("stdin:2: swap takes four numbers"), "{}", stderr(&out));
}

#[test]
fn convert_stage_writes_a_level_that_plays() {
    let dir = scratch("m3convert");
    let out_path = dir.join("stage.json");
    let out =
        tessera(&["convert", "stage", "fixtures/stages/stage_voids.txt", out_path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let level: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    assert_eq!(level["rule_set"], "match3");
    assert_eq!(level["name"], "stage_voids");
    assert_eq!(level["board"][0], "##.....##");
    assert_eq!(level["board"][3], "...#.#...");
    // The committed fixture is exactly what the converter writes.
    let fixture = std::fs::read_to_string(workspace().join("fixtures/levels/match3_voids.json")).unwrap();
    let mut expected: serde_json::Value = serde_json::from_str(&fixture).unwrap();
    expected["name"] = level["name"].clone();
    assert_eq!(level, expected);
    let out = tessera(&["play", out_path.to_str().unwrap(), "--commands", "-", "--json"], "hint\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = json_lines(&out);
    assert_eq!(steps[0]["board"][0].as_str().unwrap().len(), 9);
    assert!(steps[1]["hint"].is_string());
    // No temporary file is left beside the output.
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn convert_stage_rejects_bad_files_with_exit_2_naming_file_and_problem() {
    let dir = scratch("m3convertbad");
    let out_path = dir.join("never.json");
    for (file, what) in [
        (
            "fixtures/bad/stage_bad_code.txt",
            "\"cells\"[4] (cell (1, 1)): code 7 is not 0 (void) or 1 (playable)",
        ),
        ("fixtures/bad/stage_bad_count.txt", "\"cells\" has 6 entries, expected row × col = 3 × 3 = 9"),
        ("fixtures/bad/stage_truncated.txt", "line 4"),
        ("fixtures/bad/no_such_stage.txt", "no_such_stage.txt"),
    ] {
        let out = tessera(&["convert", "stage", file, out_path.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(file) && err.contains(what), "{file}: {err}");
        assert!(!out_path.exists(), "nothing is written for a bad stage");
    }
    // A layout on which no board can offer a swap is refused too.
    let tiny = dir.join("tiny.txt");
    std::fs::write(&tiny, r#"{"row": 1, "col": 3, "cells": [1, 1, 1]}"#).unwrap();
    let out = tessera(&["convert", "stage", tiny.to_str().unwrap(), out_path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no board without a run"), "{}", stderr(&out));
}

#[test]
fn match3_fixtures_start() {
    for f in ["stage_0001.json", "match3_voids.json", "match3_locks.json"] {
        let path = format!("fixtures/levels/{f}");
        let out = tessera(&["play", &path, "--commands", "-", "--json"], "hint\n");
        assert!(out.status.success(), "{f}: {}", stderr(&out));
        let steps = json_lines(&out);
        assert_eq!(steps[0]["rule_set"], "match3", "{f}");
        assert!(steps[1]["hint"].is_string(), "{f}");
    }
}
