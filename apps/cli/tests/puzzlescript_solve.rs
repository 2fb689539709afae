//! `tessera solve` on PuzzleScript levels: the solution printed (the script `play` reads), its
//! log verified, the JSON, a realtime game's ticks, and the give-ups (a game whose only ways on
//! are random, solved for its seed; an unsolvable level, the memory and time budgets).

use crate::{json_lines, scratch, stderr, tessera};
use std::path::{Path, PathBuf};

/// The fixture game.
const GAME: &str = "fixtures/games/warehouse.txt";

/// Writes level `n` (from 0) of `source` as a level file in `dir`.
fn level_file(dir: &Path, name: &str, source: &str, n: usize) -> PathBuf {
    let path = dir.join(name);
    let json = serde_json::json!({ "rule_set": "puzzlescript", "source": source, "level": n });
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

fn game() -> String {
    std::fs::read_to_string(crate::workspace().join(GAME)).unwrap()
}

#[test]
fn solve_prints_the_shortest_solution_that_play_and_replay_verify_accept() {
    let dir = scratch("ps-solve");
    for (n, steps) in [(0usize, 2usize), (1, 0), (2, 0)] {
        let level = level_file(&dir, &format!("w{n}.json"), &game(), n);
        let log = dir.join(format!("w{n}.tlog"));
        let out = tessera(&["solve", level.to_str().unwrap(), "--record", log.to_str().unwrap()], "");
        assert!(out.status.success(), "{}", stderr(&out));
        // The summary goes to stderr, the steps alone to stdout (issue 36.2).
        let head = stderr(&out);
        assert!(head.contains("solved in") && head.contains("states/s"), "{head}");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let commands: Vec<&str> = text.lines().collect();
        if steps > 0 {
            assert_eq!(commands, ["right"; 2].repeat(steps / 2), "level {n}");
        }
        // The commands are a script `play` reads, and they win.
        let play = tessera(
            &["play", level.to_str().unwrap(), "--commands", "-", "--json", "--strict"],
            &commands.join("\n"),
        );
        assert!(play.status.success(), "{}", stderr(&play));
        assert_eq!(json_lines(&play).last().unwrap()["status"], "won", "level {n}");
        let verify = tessera(&["replay", "verify", log.to_str().unwrap()], "");
        assert!(verify.status.success(), "{}", stderr(&verify));
    }
    let level = level_file(&dir, "w2.json", &game(), 2);
    let out = tessera(&["solve", level.to_str().unwrap(), "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let v = &json_lines(&out)[0];
    assert_eq!(v["solver"], "puzzlescript-solver");
    assert_eq!(v["steps"].as_u64().unwrap() as usize, v["commands"].as_array().unwrap().len());
    assert!(v["nodes"].as_u64().unwrap() >= 1 && v["states"].as_u64().unwrap() >= 1);
}

/// A realtime game whose crate only the clock moves: each tick moves it right, once the player
/// has walked out of its way.
fn conveyor() -> String {
    std::fs::read_to_string(crate::workspace().join("fixtures/games/conveyor.txt")).unwrap()
}

#[test]
fn solve_waits_for_a_realtime_game_s_clock_with_tick_steps_that_play_and_verify_accept() {
    let dir = scratch("ps-solve-realtime");
    let level = level_file(&dir, "conveyor.json", &conveyor(), 0);
    let log = dir.join("conveyor.tlog");
    let out = tessera(
        &["solve", level.to_str().unwrap(), "--search", "bfs", "--record", log.to_str().unwrap()],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let commands: Vec<&str> = text.lines().collect();
    assert_eq!(commands, ["right", "right", "right", "tick", "tick", "tick"], "{}", stderr(&out));
    let play = tessera(
        &["play", level.to_str().unwrap(), "--commands", "-", "--json", "--strict"],
        &commands.join("\n"),
    );
    assert!(play.status.success(), "{}", stderr(&play));
    assert_eq!(json_lines(&play).last().unwrap()["status"], "won");
    let verify = tessera(&["replay", "verify", log.to_str().unwrap()], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    // Without the clock nothing moves the crate: proved unsolvable, exit 1.
    let still = level_file(&dir, "still.json", &conveyor().replace("realtime_interval 0.5\n", ""), 0);
    let out = tessera(&["solve", still.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("unsolvable"), "{}", stderr(&out));
}

#[test]
fn solve_solves_random_games_for_their_seed_and_says_why_it_gives_up() {
    let dir = scratch("ps-solve-refuse");
    let random = game().replace(
        "[ > Player | Crate ] -> [ > Player | > Crate ]",
        "[ > Player ] -> [ randomdir Player ]\n[ > Player | Crate ] -> [ > Player | > Crate ]",
    );
    // Every move goes a random way: solved as the level's seed draws them, and said so.
    let rnd = level_file(&dir, "rnd.json", &random, 0);
    let out = tessera(&["solve", rnd.to_str().unwrap(), "--json"], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(v["draws"].as_u64().is_some_and(|d| d >= 1), "{v}");
    let out = tessera(&["solve", rnd.to_str().unwrap()], "");
    assert!(stderr(&out).contains("draw from the game's generator: it wins with seed"), "{}", stderr(&out));
    // Too few states to follow the draws: gave up, saying why.
    let out = tessera(&["solve", rnd.to_str().unwrap(), "--states", "3"], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("randomness"), "{}", stderr(&out));
    // Every level of the game: each row says how many of its solution's steps draw.
    let whole = dir.join("rnd.txt");
    std::fs::write(&whole, &random).expect("written");
    let out = tessera(&["solve", whole.to_str().unwrap(), "--all", "--json", "--states", "3000"], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let first = &v["levels"][0];
    assert_eq!(first["verdict"], "solved", "{v}");
    assert!(first["draws"].as_u64().is_some_and(|d| d >= 1), "{v}");
    assert!(first["note"].as_str().is_some_and(|n| n.contains("this seed's solution")), "{v}");
    // A crate in a corner off the target, no action key: proved unsolvable (exit 1).
    let stuck = game()
        .replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#")
        .replace("homepage example.invalid", "homepage example.invalid\nnoaction");
    let stuck = level_file(&dir, "stuck.json", &stuck, 0);
    let out = tessera(&["solve", stuck.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("unsolvable"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    // Budgets: flags it does not take, and a memory budget too small.
    let level = level_file(&dir, "w1.json", &game(), 1);
    for args in [&["--seed", "3"][..], &["--threads", "2"], &["--memory", "0"], &["--bot", "nmcs"]] {
        let mut all = vec!["solve", level.to_str().unwrap()];
        all.extend_from_slice(args);
        let out = tessera(&all, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    // A board big enough that its states do not fit in 1 MiB.
    let big_row = format!("#{}#", ".".repeat(60));
    let mut rows = vec!["#".repeat(62)];
    rows.push(format!("#P*{}O#", ".".repeat(57)));
    for _ in 0..30 {
        rows.push(big_row.clone());
    }
    rows.push("#".repeat(62));
    let big = game().replace("#######\n#.....#\n#.P*.O#\n#.....#\n#######", &rows.join("\n"));
    let big = level_file(
        &dir,
        "big.json",
        &big.replace("homepage example.invalid", "homepage example.invalid\nnoaction"),
        0,
    );
    let out = tessera(&["solve", big.to_str().unwrap(), "--memory", "1"], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("gave up: memory"), "{}", stderr(&out));
}

#[test]
fn solve_searches_by_mixed_unless_told_and_bfs_proves_the_fewest_steps() {
    let dir = scratch("ps-solve-search");
    let level = level_file(&dir, "w1.json", &game(), 1);
    let level = level.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["solve", level, "--json"];
        args.extend_from_slice(extra);
        let out = tessera(&args, "");
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        json_lines(&out).remove(0)
    };
    let default = run(&[]);
    assert_eq!((&default["search"], &default["fewest"]), (&"mixed".into(), &false.into()), "{default}");
    let bfs = run(&["--search", "bfs"]);
    assert_eq!((&bfs["search"], &bfs["fewest"]), (&"bfs".into(), &true.into()), "{bfs}");
    let greedy = run(&["--search", "greedy"]);
    assert_eq!(greedy["search"], "greedy");
    let astar = run(&["--search", "astar"]);
    assert_eq!(astar["search"], "astar");
    let width = run(&["--search", "width"]);
    assert_eq!((&width["search"], &width["fewest"]), (&"width".into(), &false.into()), "{width}");
    // The default expands fewer states than breadth-first here, and finds as few steps.
    let n = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap();
    assert!(n(&default, "nodes") < n(&bfs, "nodes"), "{default} {bfs}");
    for other in [&default, &greedy, &astar, &width] {
        assert!(n(other, "steps") >= n(&bfs, "steps"), "{other} {bfs}");
    }
    // The text says whether the steps are proved the fewest.
    let text = |extra: &[&str]| {
        let mut args = vec!["solve", level];
        args.extend_from_slice(extra);
        // The summary is on stderr (issue 36.2).
        String::from_utf8_lossy(&tessera(&args, "").stderr).lines().next().unwrap_or_default().to_string()
    };
    assert!(text(&["--search", "bfs"]).contains("(the fewest; bfs:"), "{}", text(&["--search", "bfs"]));
    assert!(text(&[]).contains("not proved the fewest; --search bfs proves it"), "{}", text(&[]));
    // An unknown search, and --search for a rule set whose solver has none, are refused.
    let out = tessera(&["solve", level, "--search", "dfs"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--search dfs: give one of bfs, astar, greedy, mixed, width"),
        "{}",
        stderr(&out)
    );
    let out = tessera(&["solve", "fixtures/levels/sokoban.json", "--search", "bfs"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--search"), "{}", stderr(&out));
}

/// `--states N` budgets the search in states expanded instead of the clock: the same answer,
/// states and solution on every run; too few states give up saying so; other solvers refuse it.
#[test]
fn solve_budgets_in_states_gives_the_same_answer_every_time() {
    let dir = scratch("ps-solve-states");
    let level = level_file(&dir, "w1.json", &game(), 1);
    let level = level.to_str().unwrap();
    let run = |states: &str| tessera(&["solve", level, "--json", "--states", states], "");
    let first = run("100000");
    assert!(first.status.success(), "{}", stderr(&first));
    let a = json_lines(&first).remove(0);
    let b = json_lines(&run("100000")).remove(0);
    for key in ["steps", "nodes", "states", "commands"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    let nodes = a["nodes"].as_u64().unwrap();
    // One state fewer than the search needed: it gives up, and says in what.
    let short = run(&(nodes - 1).to_string());
    assert_eq!(short.status.code(), Some(1), "{}", stderr(&short));
    assert!(
        stderr(&short).contains(&format!("gave up: states: no solution found in {} states", nodes - 1)),
        "{}",
        stderr(&short)
    );
    assert!(run(&nodes.to_string()).status.success());
    let out = tessera(&["solve", "fixtures/levels/sokoban.json", "--states", "10"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--states"), "{}", stderr(&out));
}

#[test]
fn play_s_hint_is_a_step_of_a_solution_found_and_none_without_one() {
    let dir = scratch("ps-hint");
    let hint_of = |level: &Path| {
        let out = tessera(&["play", level.to_str().unwrap(), "--commands", "-", "--json"], "hint\n");
        assert!(out.status.success(), "{}", stderr(&out));
        json_lines(&out).into_iter().find(|v| v["outcome"] == "hint").expect("a hint line")["hint"].clone()
    };
    // Level 2 (warehouse-002): the first step of the solution `solve` finds (its default search, as the
    // hint's), not the first legal command a search out of budget used to fall back to.
    let level = level_file(&dir, "w1.json", &game(), 1);
    let solved = tessera(&["solve", level.to_str().unwrap(), "--json"], "");
    let first = json_lines(&solved)[0]["commands"][0].clone();
    assert_eq!(hint_of(&level), first);
    // No solution (proved): no hint.
    let stuck = game()
        .replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#")
        .replace("homepage example.invalid", "homepage example.invalid\nnoaction");
    assert_eq!(hint_of(&level_file(&dir, "stuck.json", &stuck, 0)), serde_json::Value::Null);
}

/// `--jobs N` searches one level on N threads: the same solution, states and counts for any N,
/// under every search. `--all` solves every level of a game, several at once, and ends with a
/// table: each level's verdict, the same solution as the level alone, exit 1 when one is not
/// solved; a level file is refused.
#[test]
fn solve_on_several_jobs_answers_the_same_and_all_solves_every_level() {
    let dir = scratch("ps-solve-jobs");
    let level = level_file(&dir, "w1.json", &game(), 1);
    let level = level.to_str().unwrap();
    for search in ["bfs", "astar", "greedy", "mixed"] {
        let run = |jobs: &str| {
            let out = tessera(&["solve", level, "--json", "--search", search, "--jobs", jobs], "");
            assert!(out.status.success(), "{search} --jobs {jobs}: {}", stderr(&out));
            json_lines(&out).remove(0)
        };
        let one = run("1");
        for jobs in ["2", "3"] {
            let many = run(jobs);
            for key in ["steps", "nodes", "states", "commands"] {
                assert_eq!(one[key], many[key], "{search} --jobs {jobs}: {key}");
            }
        }
    }
    let out = tessera(&["solve", "fixtures/levels/sokoban.json", "--jobs", "2"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--jobs"), "{}", stderr(&out));

    // Every level of the fixture game: a table, each solution the one the level alone gets.
    let out = tessera(&["solve", GAME, "--all", "--jobs", "2", "--states", "100000", "--search", "bfs"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("level  verdict"), "{text}");
    assert!(text.lines().any(|l| l.trim_start().starts_with("3  solved")), "{text}");
    assert!(text.contains("3 of 3 solved"), "{text}");
    let out = tessera(&["solve", GAME, "--all", "--json", "--states", "100000", "--search", "bfs"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json_lines(&out).remove(0);
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 3, "{v}");
    for (k, row) in levels.iter().enumerate() {
        assert_eq!(row["number"], k + 1);
        assert_eq!(row["verdict"], "solved", "{row}");
        let alone = tessera(
            &[
                "solve",
                GAME,
                "--number",
                &(k + 1).to_string(),
                "--json",
                "--states",
                "100000",
                "--search",
                "bfs",
            ],
            "",
        );
        assert_eq!(json_lines(&alone).remove(0)["commands"], row["commands"], "level {}", k + 1);
    }
    // A game with an unsolvable first level: its row says so, the others are solved, exit 1.
    let stuck = game()
        .replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#")
        .replace("homepage example.invalid", "homepage example.invalid\nnoaction");
    let stuck_game = dir.join("stuck.txt");
    std::fs::write(&stuck_game, stuck).unwrap();
    let out = tessera(&["solve", stuck_game.to_str().unwrap(), "--all", "--states", "100000"], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.lines().any(|l| l.trim_start().starts_with("1  unsolvable")), "{text}");
    assert!(text.contains("2 of 3 solved (2 solved, 1 unsolvable)"), "{text}");
    // --all takes a game's source, not a level file; and not --number.
    let out = tessera(&["solve", level, "--all"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--all"), "{}", stderr(&out));
    let out = tessera(&["solve", GAME, "--all", "--number", "1"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
