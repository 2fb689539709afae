//! Sokoban through the CLI: `play` (with `--record` and `replay verify`), `convert sokoban`,
//! `solve` (text, JSON, `--record`, its failures) and `difficulty` (the solver's puzzle figures).
//! Levels are the fixture or written to a scratch directory (no dependency on `../shared`).

use crate::{json_lines, scratch, stderr, tessera};

/// The fixture level: Original 1, whose optimal solution has 97 pushes.
const LEVEL: &str = "fixtures/levels/sokoban.json";

/// Writes a sokoban level of `rows` as `dir/name`; returns its path.
fn level(dir: &std::path::Path, name: &str, rows: &[&str]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::json!({ "rule_set": "sokoban", "board": rows }).to_string()).unwrap();
    p.to_str().unwrap().to_owned()
}

/// Two boxes in corridors: 2 + 3 pushes.
fn small(dir: &std::path::Path) -> String {
    level(dir, "small.json", &["#######", "#@ $ .#", "# $  .#", "#######"])
}

#[test]
fn play_records_a_log_that_verifies() {
    let dir = scratch("sok-play");
    let log = dir.join("play.log");
    let out = tessera(
        &[
            "play",
            LEVEL,
            "--commands",
            "fixtures/logs/v2/sokoban_seed0.commands",
            "--strict",
            "--json",
            "--record",
            log.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // The first line is the start, then one line per command.
    let lines = json_lines(&out);
    let steps = &lines[1..];
    assert!(!steps.is_empty() && steps.iter().all(|s| s["outcome"] == "applied"), "every command applies");
    assert!(steps.iter().any(|s| s["command"].as_str().unwrap().starts_with("walk ")));
    let verify = tessera(&["replay", "verify", log.to_str().unwrap()], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    let text = String::from_utf8_lossy(&verify.stdout);
    assert!(text.contains(&format!("{} steps replay exactly", steps.len())), "{text}");
}

#[test]
fn convert_writes_one_level_per_puzzle_that_plays() {
    let dir = scratch("sok-convert");
    let file = dir.join("pair.xsb");
    std::fs::write(&file, "; 0\n#####\n#@$.#\n#####\n\n; 1\n######\n#@ $.#\n######\n").unwrap();
    let out_dir = dir.join("out");
    let out = tessera(&["convert", "sokoban", file.to_str().unwrap(), out_dir.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let mut names: Vec<String> =
        std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    // Issue 28.6: a Boxoban file's own `; N` numbers the files (as the editor's chooser).
    assert_eq!(names, ["pair-000.json", "pair-001.json"]);
    // Each converted level plays: the first is won by one push, the second by two steps.
    for (name, commands) in names.iter().zip(["right\n", "right\nright\n"]) {
        let level = out_dir.join(name);
        let play =
            tessera(&["play", level.to_str().unwrap(), "--commands", "-", "--strict", "--json"], commands);
        assert!(play.status.success(), "{name}: {}", stderr(&play));
        assert_eq!(json_lines(&play).last().unwrap()["status"], "won", "{name}");
    }
}

#[test]
fn convert_with_one_bad_level_writes_none_and_names_level_line_and_column() {
    let dir = scratch("sok-convert-bad");
    let file = dir.join("bad.xsb");
    std::fs::write(&file, "#####\n#@$.#\n#####\n\n#####\n#@$.#\n#x###\n").unwrap();
    let out_dir = dir.join("out");
    let out = tessera(&["convert", "sokoban", file.to_str().unwrap(), out_dir.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("bad.xsb") && err.contains("level 2, line 7, column 2"), "{err}");
    let written = std::fs::read_dir(&out_dir).map(|d| d.count()).unwrap_or(0);
    assert_eq!(written, 0, "all or none: nothing is written");
    // A level whose player can walk off the board: no level is written either.
    std::fs::write(&file, "#####\n#@$.#\n#####\n\n#####\n @$.#\n#####\n").unwrap();
    let out = tessera(&["convert", "sokoban", file.to_str().unwrap(), out_dir.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("level 2"), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(&out_dir).map(|d| d.count()).unwrap_or(0), 0);
}

#[test]
fn solve_prints_the_optimal_solution_whose_commands_win() {
    let out = tessera(&["solve", LEVEL, "--seconds", "60"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    // The summary goes to stderr, the commands alone to stdout (issue 36.2).
    let head = stderr(&out);
    assert!(head.starts_with(&format!("{LEVEL}: solved in 97 pushes, ")), "{head}");
    assert!(head.contains("nodes expanded"), "{head}");
    let text = String::from_utf8_lossy(&out.stdout);
    let commands: Vec<&str> = text.lines().collect();
    assert!(head.contains(&format!("({} commands;", commands.len())), "{head}");
    // stdout as it is is a script `tessera play` wins with: `solve ... | play ... --commands -`.
    let play = tessera(&["play", LEVEL, "--commands", "-", "--strict", "--json"], &text);
    assert!(play.status.success(), "{}", stderr(&play));
    let steps = json_lines(&play);
    assert_eq!(steps.len(), commands.len() + 1, "the start, then one line per command");
    assert_eq!(steps.last().unwrap()["status"], "won");
}

#[test]
fn solve_records_a_solution_that_verifies_and_prints_json() {
    let dir = scratch("sok-solve");
    let level = small(&dir);
    let log = dir.join("solution.log");
    let out = tessera(&["solve", &level, "--json", "--record", log.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solver"], "sokoban-solver");
    assert_eq!(v["pushes"], 5, "{v}");
    assert!(v["moves"].as_u64().unwrap() >= 5 && v["nodes"].as_u64().unwrap() >= 1, "{v}");
    let commands = v["commands"].as_array().unwrap();
    assert!(!commands.is_empty());
    let verify = tessera(&["replay", "verify", log.to_str().unwrap()], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    let info = String::from_utf8_lossy(&verify.stdout);
    assert!(info.contains(&format!("{} steps replay exactly", commands.len())), "{info}");
}

#[test]
fn solve_without_a_solution_exits_1_and_says_why() {
    let dir = scratch("sok-solve-none");
    // A box in a corner off its goal: proved unsolvable.
    let stuck = level(&dir, "stuck.json", &["#####", "#$ .#", "# @ #", "#####"]);
    let out = tessera(&["solve", &stuck], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("stuck.json: unsolvable"), "{}", stderr(&out));
    // The fixture needs thousands of nodes: a millisecond is not enough.
    let log = dir.join("none.log");
    let out = tessera(&["solve", LEVEL, "--seconds", "0.001", "--record", log.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("no solution found in 0.001 s"), "{}", stderr(&out));
    assert!(!log.exists(), "no log without a solution");
}

#[test]
fn solve_refuses_what_the_sokoban_solver_does_not_take() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", LEVEL, "--bot", "nmcs"], "--bot nmcs"),
        (&["solve", LEVEL, "--cpu-time"], "--cpu-time"),
        (&["solve", LEVEL, "--level", "2"], "--level"),
        (&["solve", LEVEL, "--threads", "2"], "--threads"),
        (&["solve", LEVEL, "--seed", "3"], "--seed"),
        (&["solve", LEVEL, "--seconds", "0"], "--seconds"),
        (&["solve", "fixtures/levels/classic.json"], "no solver for slide levels"),
    ];
    for (args, what) in cases {
        let out = tessera(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(what), "{args:?}: {}", stderr(&out));
    }
    // The solver's own name and the rule set's name both pick it.
    for bot in ["sokoban-solver", "sokoban"] {
        let dir = scratch(&format!("sok-bot-{bot}"));
        let out = tessera(&["solve", &small(&dir), "--bot", bot], "");
        assert!(out.status.success(), "{bot}: {}", stderr(&out));
    }
}

#[test]
fn difficulty_reports_the_solver_figures_and_the_solver_bot_wins() {
    let dir = scratch("sok-difficulty");
    let level = small(&dir);
    let out = tessera(&["difficulty", &level, "--bot", "random", "--games", "4", "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = &v["summary"]["puzzle"];
    assert_eq!(p["solver"], "sokoban-solver", "{v}");
    assert_eq!(p["outcome"], "solved");
    assert_eq!(p["figures"][0], serde_json::json!({"name": "pushes", "value": 5}));
    assert_eq!(p["figures"][1]["name"], "moves");
    assert_eq!(p["figures"][2]["name"], "nodes");
    let text = tessera(&["difficulty", &level, "--bot", "sokoban-solver", "--games", "3"], "");
    assert!(text.status.success(), "{}", stderr(&text));
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("won 3 (100.0 %"), "{text}");
    assert!(text.contains("puzzle (sokoban-solver): solved, pushes 5, moves "), "{text}");
}
