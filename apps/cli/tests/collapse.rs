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

/// A small test set in the standard format: three boards of 4×3, trailing spaces and a doubled
/// blank line as in the real file.
const TESTSET: &str =
    "0 1 2 3 \n1 1 2 0 \n3 0 0 2 \n\n2 2 2 2 \n0 1 0 1 \n1 0 1 0 \n\n\n4 4 0 1 \n1 3 3 1 \n0 0 2 2 \n";

#[test]
fn convert_samegame_testset_writes_one_playable_level_per_board() {
    let dir = scratch("collapse-convert");
    let input = dir.join("small_testset.txt");
    std::fs::write(&input, TESTSET).unwrap();
    let outdir = dir.join("levels");
    let out =
        tessera(&["convert", "samegame-testset", input.to_str().unwrap(), outdir.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let mut names: Vec<String> = std::fs::read_dir(&outdir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec!["samegame-01.json", "samegame-02.json", "samegame-03.json"],
        "no temporary files left"
    );
    let level: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(outdir.join("samegame-02.json")).unwrap()).unwrap();
    assert_eq!(level["rule_set"], "collapse");
    assert_eq!(level["config"]["compaction"], "left");
    assert_eq!(level["config"]["scoring"], "standard");
    assert_eq!(level["board"], serde_json::json!(["2222", "0101", "1010"]));
    // The level plays: clearing the top row of 2s scores (4 − 2)² = 4.
    let path = outdir.join("samegame-02.json");
    let out =
        tessera(&["play", path.to_str().unwrap(), "--commands", "-", "--json", "--strict"], "tap 0 0\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = json_lines(&out);
    assert_eq!(steps[1]["score"], 4);
    assert_eq!(steps[1]["board"], serde_json::json!(["....", "0101", "1010"]));
}

/// Issue 12: a conversion that fails at board 3 (here the name `samegame-03.json` is taken by
/// a folder, so that level cannot be put in place) left boards 1 and 2 behind. All or nothing.
#[test]
fn convert_samegame_testset_failing_at_board_3_writes_nothing() {
    let dir = scratch("collapse-convert-fail");
    let input = dir.join("small_testset.txt");
    std::fs::write(&input, TESTSET).unwrap();
    let outdir = dir.join("levels");
    std::fs::create_dir_all(outdir.join("samegame-03.json")).unwrap();
    let out =
        tessera(&["convert", "samegame-testset", input.to_str().unwrap(), outdir.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("samegame-03.json"), "{}", stderr(&out));
    let names: Vec<String> = std::fs::read_dir(&outdir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["samegame-03.json"], "neither levels nor temporary files are left");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty(), "no level is reported written");
}

#[test]
fn convert_samegame_testset_names_file_and_line_of_bad_input_and_writes_nothing() {
    let dir = scratch("collapse-convert-bad");
    let cases = [
        ("letter.txt", "0 1\n1 x\n", "letter.txt:2: cell 2: 'x' is not a colour from 0 to 15"),
        (
            "ragged.txt",
            "0 1\n1 0\n\n0 1\n0 1 1\n",
            "ragged.txt:5: row has 3 cells but the board starting on line 4 has 2",
        ),
        ("empty.txt", "\n\n", "empty.txt:2: no boards found"),
    ];
    for (name, text, expected) in cases {
        let input = dir.join(name);
        std::fs::write(&input, text).unwrap();
        let outdir = dir.join(format!("out-{name}"));
        let out =
            tessera(&["convert", "samegame-testset", input.to_str().unwrap(), outdir.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(stderr(&out).contains(expected), "{name}: {}", stderr(&out));
        assert!(!outdir.exists(), "{name}: nothing is written on bad input");
    }
    let out = tessera(&["convert", "samegame-testset", dir.join("missing.txt").to_str().unwrap(), "x"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing.txt"));
}
