//! `tessera play` with the `slide` rule set.

use crate::{json_lines, scratch, stderr, tessera};

#[test]
fn json_steps_carry_board_events_score_and_status() {
    let out = tessera(&["play", "--seed", "7", "--commands", "-", "--json"], "up\nleft\ndown\nright\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let steps = json_lines(&out);
    assert_eq!(steps.len(), 5, "a start line and one line per command");
    assert_eq!(steps[0]["step"], 0);
    assert_eq!(steps[0]["rule_set"], "slide");
    for (i, s) in steps.iter().enumerate().skip(1) {
        assert_eq!(s["step"], i);
        for key in ["command", "events", "board", "score", "status", "hash"] {
            assert!(s.get(key).is_some(), "step {i} lacks {key}: {s}");
        }
        let board = s["board"].as_array().unwrap();
        assert_eq!(board.len(), 4);
        // Every applied slide spawns exactly one tile.
        if s["outcome"] == "applied" {
            let spawns =
                s["events"].as_array().unwrap().iter().filter(|e| e.get("Spawned").is_some()).count();
            assert_eq!(spawns, 1, "{s}");
        }
    }
    assert_eq!(steps[1]["command"], "up");
}

#[test]
fn same_seed_same_output_and_a_different_seed_differs() {
    let script = "up\nleft\ndown\nright\nup\nup\nleft\n";
    let a = tessera(&["play", "--seed", "11", "--commands", "-", "--json"], script);
    let b = tessera(&["play", "--seed", "11", "--commands", "-", "--json"], script);
    let c = tessera(&["play", "--seed", "12", "--commands", "-", "--json"], script);
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn undo_and_redo_return_to_the_same_hash() {
    let out = tessera(&["play", "--seed", "1", "--commands", "-", "--json"], "up\nleft\nundo\nredo\n");
    let steps = json_lines(&out);
    assert_eq!(steps[3]["outcome"], "undone");
    assert_eq!(steps[3]["hash"], steps[1]["hash"]);
    assert_eq!(steps[4]["hash"], steps[2]["hash"]);
}

#[test]
fn a_level_board_starts_exactly_as_written() {
    let dir = scratch("board");
    let level = dir.join("l.json");
    std::fs::write(&level, r#"{"rule_set":"slide","board":[[2,2,0],[0,0,0]]}"#).unwrap();
    let out = tessera(&["play", level.to_str().unwrap(), "--commands", "-", "--json"], "left\n");
    let steps = json_lines(&out);
    assert_eq!(steps[0]["board"], serde_json::json!([[2, 2, 0], [0, 0, 0]]));
    assert_eq!(steps[1]["score"], 4);
    assert_eq!(steps[1]["board"][0][0], 4);
}

#[test]
fn refused_commands_are_reported_and_strict_fails() {
    let dir = scratch("refused");
    let level = dir.join("l.json");
    std::fs::write(&level, r#"{"rule_set":"slide","board":[[2,4],[0,0]]}"#).unwrap();
    let path = level.to_str().unwrap();
    let out = tessera(&["play", path, "--commands", "-", "--json"], "left\n");
    assert!(out.status.success());
    assert_eq!(json_lines(&out)[1]["rejected"]["code"], "no_change");
    let out = tessera(&["play", path, "--commands", "-", "--strict"], "left\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // Issue 12: the refusal names the script's file and line, not only the step.
    let script = dir.join("moves.txt");
    std::fs::write(&script, "# a comment\n\nleft # refused\n").unwrap();
    let out = tessera(&["play", path, "--commands", script.to_str().unwrap(), "--strict"], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("moves.txt:3: step 1: 'left # refused' was refused"), "{}", stderr(&out));
    let out = tessera(&["play", path, "--commands", "-", "--strict"], "\n\nleft\n");
    assert!(stderr(&out).contains("stdin:3: step 1: 'left' was refused"), "{}", stderr(&out));
}

/// Issue 36.2: a scripted `play --record` that fails (a bad line, a refused step under
/// `--strict`) writes nothing at the record path, and leaves a log already there as it was; one
/// that succeeds writes a log that verifies.
#[test]
fn a_failed_scripted_recording_writes_nothing() {
    let dir = scratch("record-fails");
    let level = dir.join("l.json");
    std::fs::write(&level, r########"{"rule_set":"sokoban","board":["######","#@$ .#","######"]}"########)
        .unwrap();
    let path = level.to_str().unwrap();
    let log = dir.join("out.tlog");
    let record = log.to_str().unwrap();
    // A line that does not parse: exit 2, nothing written.
    let out = tessera(&["play", path, "--commands", "-", "--record", record], "right\nsideways\n");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!log.exists(), "a script that does not parse records nothing");
    // A step refused under --strict after one that was played: exit 1, nothing written.
    let out = tessera(&["play", path, "--commands", "-", "--strict", "--record", record], "right\nup\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!log.exists(), "a script refused under --strict records nothing");
    // A file already at the path stays as it was.
    std::fs::write(&log, b"earlier").unwrap();
    let out = tessera(&["play", path, "--commands", "-", "--strict", "--record", record], "right\nup\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read(&log).unwrap(), b"earlier");
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // A script that runs whole writes a log of its steps that verifies.
    let out = tessera(&["play", path, "--commands", "-", "--strict", "--record", record], "right\nright\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let verify = tessera(&["replay", "verify", record], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    assert!(String::from_utf8_lossy(&verify.stdout).contains("2 steps replay exactly"));
}

#[test]
fn bad_level_files_name_the_file_and_the_problem() {
    let dir = scratch("bad-levels");
    let cases = [
        (
            "rows.json",
            r#"{"rule_set":"slide","board":[[2,0,0,0],[0,0,0,0],[0,0,0,0,0],[0,0,0,0]]}"#,
            "board row 2 has 5 cells, expected 4",
        ),
        ("six.json", r#"{"rule_set":"slide","board":[[6,0],[0,0]]}"#, "6 is not a power of two"),
        ("syntax.json", "{\"rule_set\": \"slide\",\n  \"board\": [[2,0]\n", "line 3"),
        ("kind.json", r#"{"rule_set":"chess"}"#, "unknown variant `chess`"),
        ("size.json", r#"{"rule_set":"slide","width":0}"#, "board size 0x4"),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = tessera(&["play", path.to_str().unwrap(), "--commands", "-"], "up\n");
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = stderr(&out);
        assert!(err.contains(name) && err.contains(expected), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}: nothing runs on a bad level");
    }
    let out = tessera(&["play", dir.join("missing.json").to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing.json"));
}

#[test]
fn bad_command_lines_name_the_file_and_line_before_anything_runs() {
    let dir = scratch("bad-commands");
    let script = dir.join("cmds.txt");
    std::fs::write(&script, "up\n\n# a comment\nsideways\n").unwrap();
    let out = tessera(&["play", "--commands", script.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cmds.txt:4: unknown slide command 'sideways'"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_fixture_levels_all_load() {
    let dir = crate::workspace().join("fixtures/levels");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let out = tessera(&["play", path.to_str().unwrap(), "--commands", "-", "--json"], "");
            assert!(out.status.success(), "{}: {}", path.display(), stderr(&out));
            n += 1;
        }
    }
    assert!(n >= 1);
}

#[test]
fn interactive_play_reads_stdin_and_runs_with_no_arguments() {
    let out = tessera(&[], "w\nd\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("built-in classic level (slide, seed 0)"), "{text}");
    assert!(text.contains("step 2: right"), "{text}");
}

/// Issue 12: `tessera play /dev/zero` read until memory ran out. Every input has a size limit,
/// named in the error; a log that is not a log stops at its magic.
#[test]
fn endless_inputs_are_refused_at_their_limit() {
    for (args, limit) in [
        (&["play", "/dev/zero"][..], "more than 64 MiB, the limit for a level"),
        (&["play", "--commands", "/dev/zero"], "more than 64 MiB, the limit for a command script"),
        (&["convert", "stage", "/dev/zero", "/tmp/tessera-never-written.json"], "the limit for a stage file"),
        (
            &["convert", "movingai", "/dev/zero", "/tmp/tessera-never-written.json"],
            "the limit for a Moving AI map",
        ),
        (&["range", "/dev/zero", "0"], "the limit for a level"),
        (&["replay", "info", "/dev/zero"], "not a tessera log"),
    ] {
        let out = tessera(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("/dev/zero: "), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(limit), "{args:?}: {}", stderr(&out));
    }
    assert!(!std::path::Path::new("/tmp/tessera-never-written.json").exists());
}

/// Issue 12: a command script with invalid UTF-8 named the file but not the line or byte.
#[test]
fn invalid_utf8_in_a_script_names_the_line_and_byte() {
    let dir = scratch("utf8");
    let script = dir.join("moves.txt");
    std::fs::write(&script, b"up\nleft\ndo\xffwn\n").unwrap();
    let out = tessera(&["play", "--commands", script.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("moves.txt:3: invalid UTF-8 at byte 10 of the file (line 3, column 3: byte 0xff)"),
        "{}",
        stderr(&out)
    );
    // The same on stdin.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["play", "--commands", "-"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"\xc3up\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(stderr(&out).contains("stdin:1: invalid UTF-8 at byte 0"), "{}", stderr(&out));
}
