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
        let keys: Vec<&str> = level.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want = vec![
            "candidate",
            "difficulty",
            "entry",
            "number",
            "removed",
            "rows",
            "seconds",
            "solution",
            "states",
            "steps",
            "why",
        ];
        want.sort();
        let mut keys = keys.clone();
        keys.sort();
        assert_eq!(keys, want, "a level's keys");
        assert!(level["difficulty"].as_f64().is_some(), "difficulty: a number");
        assert!(level["entry"].as_u64().is_some() && level["states"].as_u64().is_some());
        assert!(level["candidate"].as_u64().is_some() && level["removed"].as_u64().is_some());
        assert!(level["seconds"].as_f64().is_some());
        let why = level["why"].as_array().expect("why: an array");
        assert!(!why.is_empty() && why.iter().all(|w| w.is_string()), "why: words");
        // The same estimate `tessera difficulty` gives the level in OUT.
        let rated =
            tessera(&["difficulty", out.to_str().unwrap(), "--number", &number.to_string(), "--json"], "");
        assert!(rated.status.success(), "{}", stderr(&rated));
        let rated = last_json(&rated);
        assert_eq!(rated["levels"][0]["difficulty"], level["difficulty"], "level {number}: the estimate");
        assert_eq!(rated["levels"][0]["why"], level["why"], "level {number}: its reasons");
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
    let d: Vec<f64> =
        json["levels"].as_array().unwrap().iter().map(|l| l["difficulty"].as_f64().unwrap()).collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "rising: {d:?}");
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    let mut keys = keys.clone();
    keys.sort();
    assert_eq!(
        keys,
        ["candidates", "ended", "game", "levels", "out", "proved", "seconds", "states", "wanted"],
        "the run's keys"
    );
    for k in ["candidates", "proved", "states", "wanted"] {
        assert!(json[k].as_u64().is_some(), "{k}: an integer");
    }
    assert!(json["seconds"].as_f64().is_some() && json["game"].is_string() && json["out"].is_string());
}

/// Issue 64.6: `--pack` adds the levels to a pack (created when missing), in their order, and
/// the pack's curve shows each with its estimate (the one the JSON gives); a second run adds
/// more; `--difficulty A..B` keeps the levels inside the range, spread and rising.
#[test]
fn generated_levels_go_into_a_pack_and_its_curve_shows_them() {
    let dir = scratch("generate-pack");
    let (out, pack) = (dir.join("out.txt"), dir.join("campaign.json"));
    let budget = ["--states", "300000", "--level-states", "5000", "--jobs", "2"];
    let mut args = vec!["--count", "3", "--pack", pack.to_str().unwrap()];
    args.extend(budget);
    let run = generate(FUSE, &out, &args);
    assert!(run.status.success(), "{}", stderr(&run));
    let json = last_json(&run);
    let report = tessera(&["pack", "report", pack.to_str().unwrap(), "--json"], "");
    assert!(report.status.success(), "{}", stderr(&report));
    let curve: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    let entries = curve["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 3);
    for (e, l) in entries.iter().zip(json["levels"].as_array().unwrap()) {
        assert_eq!(e["rule_set"], "puzzlescript");
        assert_eq!(e["title"], format!("out.txt level {}", l["number"]));
        assert_eq!(e["estimate"]["difficulty"], l["difficulty"], "{e}");
        assert_eq!(e["estimate"]["why"], l["why"], "{e}");
    }
    let text = tessera(&["pack", "report", pack.to_str().unwrap()], "");
    assert!(String::from_utf8_lossy(&text.stdout).contains("difficulty "), "{}", stderr(&text));
    // The same levels as `pack add OUT --number N` gives: one more would be a duplicate content
    // entry sharing its estimate.
    let out2 = dir.join("out2.txt");
    let mut args = vec!["--count", "2", "--seed", "7", "--pack", pack.to_str().unwrap()];
    args.extend(budget);
    let run = generate(FUSE, &out2, &args);
    assert!(run.status.success(), "{}", stderr(&run));
    let curve: serde_json::Value =
        serde_json::from_slice(&tessera(&["pack", "report", pack.to_str().unwrap(), "--json"], "").stdout)
            .unwrap();
    assert_eq!(curve["entries"].as_array().unwrap().len(), 5);
    assert!(curve["entries"].as_array().unwrap().iter().all(|e| e["estimate"]["difficulty"].is_number()));
    // A range: every level inside it, rising.
    let d: Vec<f64> =
        json["levels"].as_array().unwrap().iter().map(|l| l["difficulty"].as_f64().unwrap()).collect();
    let range = format!("{}..{}", d[0], d[2]);
    let out3 = dir.join("out3.txt");
    let mut args = vec!["--count", "2", "--min-steps", "2", "--difficulty", range.as_str()];
    args.extend(budget);
    let run = generate(FUSE, &out3, &args);
    assert!(run.status.success(), "{}", stderr(&run));
    let got: Vec<f64> = last_json(&run)["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["difficulty"].as_f64().unwrap())
        .collect();
    assert!(got.iter().all(|x| (d[0]..=d[2]).contains(x)), "{got:?} in {range}");
    assert!(got.windows(2).all(|w| w[0] <= w[1]), "rising: {got:?}");
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
    let bad_pack = dir.join("bad.json");
    std::fs::write(&bad_pack, "{\"name\": 3}").unwrap();
    let bad_pack = bad_pack.to_str().unwrap().to_string();
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
        (vec![FUSE.into(), "--difficulty".into(), "9..3".into()], 2, "--difficulty 9..3"),
        (vec![FUSE.into(), "--pack".into(), bad_pack.clone()], 2, "bad.json"),
        (
            vec![FUSE.into(), "--pack".into(), dir.join("nowhere/p.json").to_str().unwrap().into()],
            2,
            "cannot write",
        ),
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

/// Issue 64.5: Sokoban through the same command (`--rules sokoban`, reverse play): every level
/// listed is in OUT (an XSB collection, `; N` from 1) under its number, its solution wins under
/// `play --strict`, its pushes are the fewest (`tessera difficulty`'s solver finds as many), its
/// difficulty is `tessera difficulty`'s; the same output for 1 and 2 jobs.
#[test]
fn sokoban_levels_by_reverse_play_are_proved_push_optimal() {
    let dir = scratch("generate-sokoban");
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.join(format!("rooms{jobs}.xsb"));
        let run = tessera(
            &[
                "generate",
                "--rules",
                "sokoban",
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
                "--jobs",
                jobs,
                "--out",
                out.to_str().unwrap(),
                "--json",
            ],
            "",
        );
        assert!(run.status.success(), "{}", stderr(&run));
        let json = last_json(&run);
        let mut keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(
            keys,
            ["candidates", "ended", "levels", "out", "proved", "rules", "seconds", "states", "wanted"]
        );
        assert_eq!(json["rules"], "sokoban");
        let levels = json["levels"].as_array().unwrap();
        assert_eq!(levels.len(), 3, "{json}");
        let text = std::fs::read_to_string(&out).unwrap();
        for (k, level) in levels.iter().enumerate() {
            let mut keys: Vec<&str> = level.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort();
            assert_eq!(
                keys,
                [
                    "candidate",
                    "difficulty",
                    "number",
                    "pushes",
                    "rows",
                    "seconds",
                    "solution",
                    "states",
                    "steps",
                    "why"
                ]
            );
            let number = level["number"].as_u64().unwrap();
            assert_eq!(number, k as u64 + 1);
            let rows: Vec<&str> =
                level["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
            assert!(text.contains(&format!("; {number}\n{}\n", rows.join("\n"))), "level {number} in OUT");
            let pushes = level["pushes"].as_u64().unwrap();
            assert!(pushes >= 3, "not trivial: {pushes} pushes");
            let file = dir.join(format!("level{jobs}-{number}.json"));
            std::fs::write(&file, serde_json::json!({"rule_set": "sokoban", "board": rows}).to_string())
                .unwrap();
            let words: Vec<&str> =
                level["solution"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
            let play = tessera(
                &["play", file.to_str().unwrap(), "--commands", "-", "--json", "--strict"],
                &words.join("\n"),
            );
            assert!(play.status.success(), "{}", stderr(&play));
            assert_eq!(crate::json_lines(&play).last().unwrap()["status"], "won", "level {number} wins");
            let rated = tessera(
                &["difficulty", out.to_str().unwrap(), "--number", &number.to_string(), "--json"],
                "",
            );
            assert!(rated.status.success(), "{}", stderr(&rated));
            let rated = last_json(&rated);
            assert_eq!(rated["levels"][0]["features"]["pushes"].as_u64(), Some(pushes), "the fewest pushes");
            assert_eq!(rated["levels"][0]["difficulty"], level["difficulty"]);
        }
        let d: Vec<f64> = levels.iter().map(|l| l["difficulty"].as_f64().unwrap()).collect();
        assert!(d.windows(2).all(|w| w[0] <= w[1]), "rising: {d:?}");
        outputs.push(text);
    }
    assert_eq!(outputs[0], outputs[1], "the same levels on 1 and 2 jobs");
    // Bad input names the flag.
    let out = dir.join("bad.xsb");
    for (args, message) in [
        (vec!["--rules", "sokoban", "--size", "8x8"], "--boxes 4"),
        (vec!["--rules", "sokoban", "--size", "8x8", "--boxes", "40"], "--boxes 40"),
        (vec!["--rules", "chess", "--size", "8x8", "--boxes", "2"], "those with one: match3, sokoban"),
        (vec!["--rules", "sokoban", "--size", "3x3", "--boxes", "1"], "5 to 64"),
    ] {
        let mut all = vec!["generate"];
        all.extend(args.iter());
        all.extend(["--out", out.to_str().unwrap()]);
        let run = tessera(&all, "");
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(message), "{args:?}: {}", stderr(&run));
        assert!(!out.exists());
    }
}

/// Issue 64.5 and 64.7: Sokoban rooms given (`--stage ROOM.xsb`, what the editor's pane sends
/// when it grows from the level shown): every level keeps the room's walls and its count of
/// boxes, none is the room itself, each wins by its solution; `--size` with a room is refused.
#[test]
fn a_sokoban_room_given_is_filled_with_its_walls_kept() {
    let dir = scratch("generate-sokoban-room");
    let room = [
        "#########",
        "###   ###",
        "###   ###",
        "#   .   #",
        "#  $@ .$#",
        "#       #",
        "###   ###",
        "###   ###",
        "#########",
    ];
    let file = dir.join("room.xsb");
    std::fs::write(&file, room.join("\n") + "\n").unwrap();
    let out = dir.join("filled.xsb");
    let args = |extra: &[&str]| {
        let mut all = vec!["generate", "--rules", "sokoban", "--stage", file.to_str().unwrap()];
        all.extend(["--count", "2", "--states", "3000000", "--level-states", "40000", "--min-steps", "2"]);
        all.extend(["--out", out.to_str().unwrap(), "--json"]);
        all.extend(extra);
        all.iter().map(|s| s.to_string()).collect::<Vec<String>>()
    };
    let a = args(&[]);
    let run = tessera(&a.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(run.status.success(), "{}", stderr(&run));
    let json = last_json(&run);
    let levels = json["levels"].as_array().unwrap();
    assert!(!levels.is_empty(), "{json}");
    for level in levels {
        let rows: Vec<&str> = level["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        assert_ne!(rows, room, "not the room itself");
        for (a, b) in rows.iter().zip(room) {
            let walls = |r: &str| r.chars().map(|c| c == '#').collect::<Vec<_>>();
            assert_eq!(walls(a), walls(b), "the walls stay: {rows:?}");
        }
        let boxes = rows.iter().flat_map(|r| r.chars()).filter(|&c| matches!(c, '$' | '*')).count();
        assert_eq!(boxes, 2, "the room's own count of boxes: {rows:?}");
        let level_file = dir.join("one.json");
        std::fs::write(&level_file, serde_json::json!({"rule_set": "sokoban", "board": rows}).to_string())
            .unwrap();
        let words: Vec<&str> =
            level["solution"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
        let play = tessera(
            &["play", level_file.to_str().unwrap(), "--commands", "-", "--json", "--strict"],
            &words.join("\n"),
        );
        assert!(play.status.success(), "{}", stderr(&play));
        assert_eq!(crate::json_lines(&play).last().unwrap()["status"], "won");
    }
    std::fs::remove_file(&out).unwrap();
    let a = args(&["--size", "9x9"]);
    let run = tessera(&a.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("--size with --stage"), "{}", stderr(&run));
    assert!(!out.exists());
    // A collection of two rooms is refused by name.
    std::fs::write(&file, format!("{}\n\n{}\n", room.join("\n"), room.join("\n"))).unwrap();
    let a = args(&[]);
    let run = tessera(&a.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("holds 2 levels"), "{}", stderr(&run));
    assert!(!out.exists());
}
