//! PuzzleScript through the CLI: `convert puzzlescript`, `play GAME.txt` (with `--number`,
//! `--record` and `replay verify`), and `puzzlescript test` on a suite (pass, fail, JUnit, bad
//! input). The game is the fixture `fixtures/games/warehouse.txt`; the suite's expected levels
//! and sounds were written by PuzzleScript's reference engine (`tools/puzzlescript/reference.js`).

use crate::{json_lines, scratch, stderr, tessera};

/// The fixture game: three levels between two messages.
const GAME: &str = "fixtures/games/warehouse.txt";
/// Four cases on the fixture game, answered by the reference engine.
const SUITE: &str = "fixtures/puzzlescript/warehouse_suite.json";

#[test]
fn convert_writes_one_level_per_playable_level() {
    let dir = scratch("ps-convert");
    let out = tessera(&["convert", "puzzlescript", GAME, dir.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["warehouse-001.json", "warehouse-002.json", "warehouse-003.json"]);
    // Each level embeds the whole source and plays without the .txt.
    let text = std::fs::read_to_string(dir.join("warehouse-002.json")).unwrap();
    let level: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(level["rule_set"], "puzzlescript");
    assert_eq!(level["level"], 1);
    assert_eq!(
        level["source"].as_str().unwrap(),
        std::fs::read_to_string(crate::workspace().join(GAME)).unwrap()
    );
    let play = tessera(
        &["play", dir.join("warehouse-001.json").to_str().unwrap(), "--commands", "-", "--json"],
        "right\nright\n",
    );
    assert!(play.status.success(), "{}", stderr(&play));
    let lines = json_lines(&play);
    assert_eq!(lines.last().unwrap()["status"], "won", "two pushes right solve level 1");
    // As text: the board, then its status once.
    let play = tessera(
        &["play", dir.join("warehouse-001.json").to_str().unwrap(), "--commands", "-"],
        "right\nright\n",
    );
    let text = String::from_utf8_lossy(&play.stdout).into_owned();
    assert_eq!(text.lines().filter(|l| *l == "won").count(), 1, "{text}");
    assert!(text.trim_end().ends_with("won"), "{text}");
}

/// The text form of a step stays readable: the `Aux` event (the generator and checkpoint, some
/// 500 bytes) shows its first numbers, its length and a checksum; `--json` keeps every number.
#[test]
fn play_text_shortens_long_aux_arrays_and_json_keeps_them() {
    let text = tessera(&["play", GAME, "--number", "2", "--seed", "3", "--commands", "-"], "action\n");
    assert!(text.status.success(), "{}", stderr(&text));
    let out = String::from_utf8_lossy(&text.stdout).into_owned();
    let aux = out.lines().find(|l| l.contains("\"Aux\"")).unwrap_or_else(|| panic!("an Aux event: {out}"));
    assert!(aux.contains("numbers, checksum"), "{aux}");
    assert!(aux.len() < 250, "{} characters: {aux}", aux.len());
    let (before, after) = aux.split_once("\"before\"").unwrap();
    assert_ne!(
        before.split("checksum").nth(1),
        after.split("checksum").nth(1),
        "the two sides differ: {aux}"
    );
    let json =
        tessera(&["play", GAME, "--number", "2", "--seed", "3", "--commands", "-", "--json"], "action\n");
    let whole = String::from_utf8_lossy(&json.stdout).into_owned();
    assert!(whole.contains("\"Aux\"") && !whole.contains("checksum"), "{whole}");
}

/// Issue 34.8 and 34.3: `play` names the objects in its events (the JSON keeps their numbers)
/// and prints the game's compile warnings on stderr.
#[test]
fn play_names_objects_and_prints_compile_warnings() {
    let out = tessera(&["play", GAME, "--number", "2", "--commands", "-"], "down\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("Moved player (2, 3) → (2, 4)"), "{text}");
    assert!(!text.contains("{\"Moved\""), "{text}");
    let json = tessera(&["play", GAME, "--number", "2", "--commands", "-", "--json"], "down\n");
    assert!(String::from_utf8_lossy(&json.stdout).contains("\"Moved\""), "the JSON keeps the numbers");
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    // A stray ']' is a warning: the game plays, and the warning names its line.
    let dir = scratch("ps-warn");
    let game = dir.join("warn.txt");
    let source = std::fs::read_to_string(crate::workspace().join(GAME)).unwrap();
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let line = source.lines().position(|l| l == rule).unwrap() + 1;
    std::fs::write(&game, source.replace(rule, &format!("{rule} ]"))).unwrap();
    let out = tessera(&["play", game.to_str().unwrap(), "--number", "2", "--commands", "-"], "down\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("warn.txt:{line}: warning: ")), "{}", stderr(&out));
}

#[test]
fn play_opens_a_game_and_picks_its_level_by_number() {
    let dir = scratch("ps-play");
    let log = dir.join("w.tlog");
    let out = tessera(
        &[
            "play",
            GAME,
            "--number",
            "1",
            "--commands",
            "-",
            "--json",
            "--strict",
            "--record",
            log.to_str().unwrap(),
        ],
        "up\nundo\nright\nright\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.last().unwrap()["status"], "won");
    let verify = tessera(&["replay", "verify", log.to_str().unwrap()], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    // Without --number, a game of three levels says how to choose one.
    let out = tessera(&["play", GAME, "--commands", "-"], "right\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the game has 3 levels: choose one with --number 1..3"),
        "{}",
        stderr(&out)
    );
    let out = tessera(&["play", GAME, "--number", "4", "--commands", "-"], "right\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--number 4: the game has 3 levels"), "{}", stderr(&out));
}

#[test]
fn a_game_that_does_not_compile_names_its_line() {
    let dir = scratch("ps-bad");
    let game = dir.join("bad.txt");
    std::fs::write(&game, "title broken\n\n========\nOBJECTS\n========\n\nPlayer\nblue\n\n=======\nLEGEND\n=======\n\nP = Playr\n").unwrap();
    let out =
        tessera(&["convert", "puzzlescript", game.to_str().unwrap(), dir.join("out").to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad.txt:") && err.contains("line "), "{err}");
    assert!(!dir.join("out").exists(), "nothing written");
}

#[test]
fn suite_passes_and_says_how_many() {
    let dir = scratch("ps-suite");
    let junit = dir.join("junit.xml");
    let out = tessera(&["puzzlescript", "test", SUITE, "--junit", junit.to_str().unwrap()], "");
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().last(), Some("4 passed, 0 failed"), "{text}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"4\" failures=\"0\""), "{xml}");
}

#[test]
fn a_failing_case_is_printed_with_its_first_difference_and_exits_1() {
    let dir = scratch("ps-suite-fail");
    let text = std::fs::read_to_string(crate::workspace().join(SUITE)).unwrap();
    let mut cases: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Case 2 expects the player somewhere else: one cell differs.
    let expected =
        cases[1][1][2].as_str().unwrap().replacen("background player target:3", "background target:3", 1);
    cases[1][1][2] = serde_json::Value::String(expected);
    let suite = dir.join("suite.json");
    std::fs::write(&suite, cases.to_string()).unwrap();
    let junit = dir.join("junit.xml");
    let out =
        tessera(&["puzzlescript", "test", suite.to_str().unwrap(), "--junit", junit.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("FAIL warehouse level 2 pushes and an undo:"), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("3 passed, 1 failed"), "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("failures=\"1\"") && xml.contains("<failure"), "{xml}");
}

#[test]
fn a_suite_that_is_not_one_is_bad_input() {
    let dir = scratch("ps-suite-bad");
    let suite = dir.join("suite.json");
    std::fs::write(&suite, "{\"not\": \"a suite\"}").unwrap();
    let out = tessera(&["puzzlescript", "test", suite.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("suite.json"), "{}", stderr(&out));
    let out = tessera(&["puzzlescript", "test", dir.join("missing.js").to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
}

/// `solve`, `bot` and `difficulty` take a game's `.txt` as `play` does: `--number` picks the
/// level, a game of one level needs none, and a game of more says how to choose.
#[test]
fn solve_and_bots_open_a_game_txt_by_number() {
    let dir = scratch("ps-solve-txt");
    let log = dir.join("solution.tlog");
    let out =
        tessera(&["solve", GAME, "--number", "2", "--seconds", "20", "--record", log.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let verify = tessera(&["replay", "verify", log.to_str().unwrap()], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    let info = tessera(&["replay", "info", log.to_str().unwrap()], "");
    assert!(
        String::from_utf8_lossy(&info.stdout).contains("Warehouse 2"),
        "{}",
        String::from_utf8_lossy(&info.stdout)
    );
    // One level: no --number needed.
    let out = tessera(&["solve", "fixtures/games/fuse.txt", "--seconds", "20", "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    for args in [
        &["solve", GAME][..],
        &["bot", GAME, "--bot", "random"],
        &["difficulty", GAME, "--games", "2", "--bot", "random"],
    ] {
        let out = tessera(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("the game has 3 levels: choose one with --number 1..3"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = tessera(&["solve", GAME, "--number", "4"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--number 4: the game has 3 levels"), "{}", stderr(&out));
    let out = tessera(&["solve", "fixtures/levels/warehouse.json", "--number", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--number picks a level of a PuzzleScript game"), "{}", stderr(&out));
    let out = tessera(&["bot", GAME, "--number", "1", "--bot", "random"], "");
    assert!(out.status.success(), "{}", stderr(&out));
}
