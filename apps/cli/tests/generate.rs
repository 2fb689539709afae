//! `tessera generate` (issue 64): levels appended to the game's source in its legend, each one's
//! listed solution winning under `play --strict`, none trivial or repeated, the run the same for
//! any `--jobs` under a budget of states, the JSON's schema, the options, and the errors.

use crate::{scratch, stderr, tessera};
use std::path::Path;

const FUSE: &str = "fixtures/games/fuse.txt";

fn read(path: &str) -> String {
    std::fs::read_to_string(crate::workspace().join(path)).unwrap()
}

/// The last line of stdout as JSON.
fn last_json(out: &std::process::Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().last().unwrap_or_else(|| panic!("no stdout; stderr: {}", stderr(out)));
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

/// Runs generate on `game` with `extra` flags, writing `out`.
fn generate(game: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["generate", game, "--out", out.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    tessera(&args, "")
}

/// The game's playable levels' rows, read back through `tessera play --json` would need a
/// level each; the rows are read from the source's LEVELS section instead (blocks of lines
/// that are not messages).
fn level_blocks(source: &str) -> Vec<Vec<String>> {
    let levels =
        source.to_ascii_lowercase().lines().position(|l| l.trim() == "levels").expect("a LEVELS section");
    let mut blocks = Vec::new();
    let mut block: Vec<String> = Vec::new();
    for line in source.lines().skip(levels + 1) {
        let t = line.trim();
        if t.is_empty() || t.chars().all(|c| c == '=') || t.to_ascii_lowercase().starts_with("message") {
            if !block.is_empty() {
                blocks.push(std::mem::take(&mut block));
            }
            continue;
        }
        block.push(t.to_string());
    }
    if !block.is_empty() {
        blocks.push(block);
    }
    blocks
}

/// Checks the JSON's schema and that every level listed is in OUT, under its number, and its
/// solution wins there under `play --strict`.
fn check_levels(game: &str, out: &Path, json: &serde_json::Value, min_steps: usize) {
    let source = read(game);
    let written = std::fs::read_to_string(out).expect("OUT is written");
    assert!(written.starts_with(&source), "OUT is the game's source, unchanged, with levels appended");
    let own = level_blocks(&source);
    let all = level_blocks(&written);
    let levels = json["levels"].as_array().expect("levels: an array");
    assert_eq!(all.len(), own.len() + levels.len(), "OUT holds the game's levels and the new ones");
    assert_eq!(json["proved"].as_u64(), Some(levels.len() as u64));
    for (k, level) in levels.iter().enumerate() {
        let number = level["number"].as_u64().expect("number: an integer") as usize;
        assert_eq!(
            number,
            own.len() + k + 1,
            "numbered from 1 as solve --number counts, in the pack's order"
        );
        let solution: Vec<&str> = level["solution"]
            .as_array()
            .expect("solution: an array")
            .iter()
            .map(|w| w.as_str().expect("solution: words"))
            .collect();
        assert_eq!(level["steps"].as_u64(), Some(solution.len() as u64));
        assert!(solution.len() >= min_steps, "not trivial: {} steps", solution.len());
        assert!(level["difficulty"].as_u64().is_some(), "difficulty: an integer");
        let rows: Vec<String> =
            level["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
        assert_eq!(all[number - 1], rows, "level {number}'s rows are in OUT under its number");
        assert!(!own.contains(&rows), "level {number} repeats one of the game's own");
        assert_eq!(all.iter().filter(|b| **b == rows).count(), 1, "level {number} repeats another");
        let play = tessera(
            &[
                "play",
                out.to_str().unwrap(),
                "--number",
                &number.to_string(),
                "--commands",
                "-",
                "--json",
                "--strict",
            ],
            &solution.join("\n"),
        );
        assert!(play.status.success(), "level {number}: {}", stderr(&play));
        let last = crate::json_lines(&play).last().cloned().unwrap();
        assert_eq!(last["status"], "won", "level {number}'s solution wins it");
    }
}

#[test]
fn generated_levels_are_appended_in_the_legend_and_their_solutions_win() {
    let dir = scratch("generate-fuse");
    let out = dir.join("out.txt");
    let run = generate(
        FUSE,
        &out,
        &["--count", "3", "--states", "100000", "--level-states", "5000", "--jobs", "2"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let json = last_json(&run);
    assert_eq!(json["levels"].as_array().unwrap().len(), 3, "{json}");
    assert_eq!(json["ended"], "count");
    check_levels(FUSE, &out, &json, 6);
    // The rising curve: by difficulty, easy to hard.
    let d: Vec<u64> =
        json["levels"].as_array().unwrap().iter().map(|l| l["difficulty"].as_u64().unwrap()).collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "rising: {d:?}");
}

#[test]
fn a_budget_of_states_gives_the_same_output_for_any_jobs() {
    let dir = scratch("generate-jobs");
    let mut outputs = Vec::new();
    for jobs in ["1", "2", "3"] {
        let out = dir.join(format!("out{jobs}.txt"));
        let run = generate(
            FUSE,
            &out,
            &[
                "--count",
                "3",
                "--states",
                "20000",
                "--level-states",
                "5000",
                "--seed",
                "7",
                "--jobs",
                jobs,
                "--curve",
                "flat",
            ],
        );
        assert!(run.status.success(), "{}", stderr(&run));
        let mut json = last_json(&run);
        for l in json["levels"].as_array_mut().unwrap() {
            l.as_object_mut().unwrap().remove("seconds");
        }
        let levels = json["levels"].clone();
        let candidates: Vec<u64> =
            levels.as_array().unwrap().iter().map(|l| l["candidate"].as_u64().unwrap()).collect();
        assert!(candidates.windows(2).all(|w| w[0] < w[1]), "flat: as found, {candidates:?}");
        outputs.push((std::fs::read(&out).unwrap(), levels, json["states"].clone()));
    }
    assert_eq!(outputs[0], outputs[1], "--jobs 1 and 2");
    assert_eq!(outputs[0], outputs[2], "--jobs 1 and 3");
    // Another seed, other levels.
    let out = dir.join("other.txt");
    let run = generate(
        FUSE,
        &out,
        &["--count", "3", "--states", "100000", "--level-states", "5000", "--seed", "8"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    assert_ne!(std::fs::read(&out).unwrap(), outputs[0].0);
}

#[test]
fn the_options_shape_the_levels() {
    let dir = scratch("generate-options");
    let game = "fixtures/games/warehouse.txt";
    let source = read(game);
    let own = level_blocks(&source);
    // --from 1 --keep-walls: level 1's walls exactly; --min-steps/--max-steps bound the steps.
    let out = dir.join("walls.txt");
    let run = generate(
        game,
        &out,
        &[
            "--count",
            "2",
            "--states",
            "40000",
            "--level-states",
            "5000",
            "--from",
            "1",
            "--keep-walls",
            "--min-steps",
            "3",
            "--max-steps",
            "12",
        ],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let json = last_json(&run);
    check_levels(game, &out, &json, 3);
    for l in json["levels"].as_array().unwrap() {
        let steps = l["steps"].as_u64().unwrap();
        assert!((3..=12).contains(&steps), "{steps}");
        let rows: Vec<&str> = l["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        assert_eq!(rows.len(), own[0].len());
        for (r, t) in rows.iter().zip(&own[0]) {
            let walls = |s: &str| s.chars().map(|c| c == '#').collect::<Vec<_>>();
            assert_eq!(walls(r), walls(t), "the walls stay: {rows:?}");
        }
    }
    // --size: rooms of that size.
    let out = dir.join("size.txt");
    let run = generate(
        game,
        &out,
        &[
            "--count",
            "2",
            "--states",
            "300000",
            "--level-states",
            "5000",
            "--size",
            "6x5",
            "--min-steps",
            "4",
        ],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let json = last_json(&run);
    check_levels(game, &out, &json, 4);
    for l in json["levels"].as_array().unwrap() {
        let rows: Vec<&str> = l["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        assert_eq!(rows.len(), 5, "{rows:?}");
        assert!(rows.iter().all(|r| r.chars().count() == 6), "{rows:?}");
    }
}

/// A game whose source is the fuse game with every `from` replaced by `to`.
fn variant(dir: &Path, name: &str, from: &str, to: &str) -> String {
    let source = read(FUSE);
    assert!(source.contains(from), "{from}");
    let path = dir.join(name);
    std::fs::write(&path, source.replace(from, to)).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn bad_input_is_named_and_nothing_is_written() {
    let dir = scratch("generate-errors");
    let out = dir.join("out.txt");
    let cases: Vec<(Vec<String>, i32, &str)> = vec![
        (vec![FUSE.into(), "--count".into(), "0".into()], 2, "--count 0"),
        (vec![FUSE.into(), "--size".into(), "3x3".into()], 2, "cannot fill it"),
        (vec![FUSE.into(), "--size".into(), "axb".into()], 2, "give WxH"),
        (vec![FUSE.into(), "--from".into(), "9".into()], 2, "--from 9"),
        (
            vec![FUSE.into(), "--min-steps".into(), "9".into(), "--max-steps".into(), "3".into()],
            2,
            "--max-steps 3",
        ),
        (vec![FUSE.into(), "--curve".into(), "zigzag".into()], 2, "--curve zigzag"),
        (vec![variant(&dir, "noplayer.txt", "Player", "Hero"), "--count".into(), "1".into()], 2, "no player"),
        (vec![variant(&dir, "nowin.txt", "all Crate on Target", "")], 2, "no win condition"),
        (
            vec![FUSE.into(), "--states".into(), "30".into(), "--count".into(), "1".into()],
            1,
            "proved 0 levels in 30 states",
        ),
    ];
    for (args, code, message) in cases {
        let mut all: Vec<&str> = vec!["generate"];
        all.extend(args.iter().map(String::as_str));
        all.extend(["--out", out.to_str().unwrap()]);
        let run = tessera(&all, "");
        assert_eq!(run.status.code(), Some(code), "{args:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(message), "{args:?}: {}", stderr(&run));
        assert!(!out.exists(), "{args:?}: nothing written");
    }
    // The hint names the budget to give.
    let run = tessera(&["generate", FUSE, "--states", "30", "--out", out.to_str().unwrap()], "");
    assert!(stderr(&run).contains("try --states"), "{}", stderr(&run));
    // An OUT that cannot be written is refused before any time is spent.
    for bad in [dir.join("missing/out.txt"), dir.clone()] {
        let run = tessera(&["generate", FUSE, "--seconds", "600", "--out", bad.to_str().unwrap()], "");
        assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
        assert!(stderr(&run).contains("cannot write"), "{}", stderr(&run));
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_levels_proved() {
    use std::process::{Command, Stdio};
    let dir = scratch("generate-interrupt");
    let out = dir.join("out.txt");
    let child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args([
            "generate",
            FUSE,
            "--count",
            "1000",
            "--seconds",
            "120",
            "--min-steps",
            "4",
            "--json",
            "--jobs",
            "2",
        ])
        .args(["--out", out.to_str().unwrap()])
        .current_dir(crate::workspace())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(8));
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), nix::sys::signal::Signal::SIGINT)
        .unwrap();
    let started = std::time::Instant::now();
    let run = child.wait_with_output().unwrap();
    assert!(started.elapsed().as_secs() < 30, "stops soon after Ctrl-C");
    assert_eq!(run.status.code(), Some(130), "{}", stderr(&run));
    let json = last_json(&run);
    assert_eq!(json["ended"], "interrupted");
    assert!(!json["levels"].as_array().unwrap().is_empty(), "levels were proved in 8 s: {json}");
    check_levels(FUSE, &out, &json, 4);
}

/// Levels generated for two games of PuzzleScript's suite (games no fixture has) load in the
/// reference engine under Node, and their listed solutions win there at their last input
/// (`tools/puzzlescript/check_generated.js`). Skips, saying so, without Node or `../shared`.
#[test]
fn generated_levels_win_in_the_reference_engine() {
    let root = crate::workspace();
    let reference = root.join("../shared/benchmarks/puzzlescript/reference");
    let suite = reference.join("tests/resources/testdata.js");
    let node = std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if !node || !suite.exists() {
        eprintln!("skipped: needs node and {}", suite.display());
        return;
    }
    let dir = scratch("generate-reference");
    let games = dir.join("games");
    let split = std::process::Command::new("node")
        .arg(root.join("tools/puzzlescript/suite_games.js"))
        .args([&suite, &games])
        .output()
        .unwrap();
    assert!(split.status.success(), "{}", String::from_utf8_lossy(&split.stderr));
    let mut results = Vec::new();
    for wanted in ["sokoban_with_win_condition", "block_faker_with_win_condition"] {
        let game = std::fs::read_dir(&games)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.file_stem().is_some_and(|s| s.to_string_lossy().ends_with(wanted)))
            .unwrap_or_else(|| panic!("the suite has {wanted}"));
        let out = dir.join(format!("{wanted}.out.txt"));
        let run = generate(
            game.to_str().unwrap(),
            &out,
            &["--count", "2", "--states", "1000000", "--level-states", "20000", "--min-steps", "4"],
        );
        assert!(run.status.success(), "{wanted}: {}", stderr(&run));
        let json = dir.join(format!("{wanted}.json"));
        std::fs::write(&json, &run.stdout).unwrap();
        results.push(json);
    }
    let check = std::process::Command::new("node")
        .arg(root.join("tools/puzzlescript/check_generated.js"))
        .arg(&reference)
        .args(&results)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(check.status.success(), "{text}{}", String::from_utf8_lossy(&check.stderr));
    assert!(text.contains("4 passed, 0 failed"), "{text}");
}
