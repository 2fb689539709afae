//! `tessera play` with the `collapse` rule set (SameGame).

use crate::{json_lines, scratch, stderr, tessera, workspace};

#[test]
fn tap_clears_a_group_and_undo_redo_return_to_the_same_hash() {
    let level = workspace().join("fixtures/levels/collapse_center_board.json");
    let out = tessera(
        &["play", level.to_str().unwrap(), "--commands", "-", "--json", "--strict"],
        "tap 2 1\nundo\nredo\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = json_lines(&out);
    assert_eq!(steps[0]["rule_set"], "collapse");
    assert_eq!(steps[0]["board"], serde_json::json!([".1023045.", ".1000045."]));
    assert_eq!(steps[1]["board"], serde_json::json!(["..1..45..", "..12345.."]));
    assert_eq!(steps[1]["score"], 48);
    let events = steps[1]["events"].as_array().unwrap();
    assert_eq!(events[0]["Cleared"]["colour"], 0);
    assert_eq!(events[0]["Cleared"]["tiles"].as_array().unwrap().len(), 6);
    let shifts: Vec<_> = events.iter().filter_map(|e| e.get("ColumnShifted")).collect();
    assert_eq!(shifts.len(), 3);
    assert_eq!(steps[2]["hash"], steps[0]["hash"]);
    assert_eq!(steps[3]["hash"], steps[1]["hash"]);
}

#[test]
fn refused_taps_say_why() {
    let dir = scratch("collapse-refused");
    let level = dir.join("l.json");
    std::fs::write(&level, r#"{"rule_set":"collapse","board":["01.","102"]}"#).unwrap();
    let path = level.to_str().unwrap();
    let out = tessera(&["play", path, "--commands", "-", "--json"], "tap 0 0\ntap 2 0\ntap 9 9\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = json_lines(&out);
    assert_eq!(steps[0]["status"], "over");
    assert_eq!(steps[1]["rejected"]["code"], "group_too_small");
    assert_eq!(steps[2]["rejected"]["code"], "empty_cell");
    assert_eq!(steps[3]["rejected"]["code"], "off_board");
    let out = tessera(&["play", path, "--commands", "-", "--strict"], "tap 0 0\n");
    assert_eq!(out.status.code(), Some(1));
    let out = tessera(&["play", path, "--commands", "-"], "tap 0\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("stdin:1: unknown collapse command 'tap 0'"), "{}", stderr(&out));
}

#[test]
fn a_random_board_is_the_same_on_every_run_and_uses_four_colours() {
    let level = workspace().join("fixtures/levels/collapse_seed.json");
    let run = || {
        let start = tessera(&["play", level.to_str().unwrap(), "--commands", "-", "--json"], "");
        let board = json_lines(&start)[0]["board"].clone();
        (board, start.stdout)
    };
    let (board, a) = run();
    let (_, b) = run();
    assert_eq!(a, b);
    let rows = board.as_array().unwrap();
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r.as_str().unwrap().chars().all(|c| ('0'..='3').contains(&c))));
}
