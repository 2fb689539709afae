//! `tessera bot`, `tessera difficulty` (with shards and merge) and `tessera solve`.

use crate::{scratch, stderr, tessera};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn bot_prints_each_move_and_its_log_replays() {
    let dir = scratch("bot-log");
    let log = dir.join("game.log");
    let log = log.to_str().unwrap();
    let out = tessera(
        &["bot", "fixtures/levels/collapse_seed.json", "--bot", "greedy", "--seed", "4", "--record", log],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let moves = text.lines().filter(|l| l.starts_with("move ")).count();
    assert!(moves > 5, "{text}");
    let verify = tessera(&["replay", "verify", log], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    let info = tessera(&["replay", "info", log], "");
    assert!(String::from_utf8_lossy(&info.stdout).contains(&format!("{moves}")), "steps in the log");
    // Same seed, same game.
    let again = tessera(&["bot", "fixtures/levels/collapse_seed.json", "--bot", "greedy", "--seed", "4"], "");
    assert_eq!(again.stdout, out.stdout);
}

fn report(args: &[&str]) -> serde_json::Value {
    let out = tessera(args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("one JSON report")
}

#[test]
fn difficulty_is_the_same_on_any_jobs_and_shards_merge_into_one_run() {
    let base = ["difficulty", "fixtures/levels/classic.json", "--bot", "greedy", "--seed", "9", "--json"];
    let with = |extra: &[&str]| {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        report(&v)
    };
    let one = with(&["--games", "6", "--jobs", "1"]);
    let two = with(&["--games", "6", "--jobs", "2"]);
    assert_eq!(one, two);
    assert_eq!(one["summary"]["games"], 6);
    let dir = scratch("shards");
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    std::fs::write(&a, serde_json::to_string(&with(&["--games", "2", "--jobs", "1"])).unwrap()).unwrap();
    std::fs::write(&b, serde_json::to_string(&with(&["--games", "4", "--first-game", "2"])).unwrap())
        .unwrap();
    let merged = report(&["difficulty", "merge", a.to_str().unwrap(), b.to_str().unwrap(), "--json"]);
    assert_eq!(merged, one);
    // The text report names the win rate and the seeds to replay.
    let out = tessera(&["difficulty", "merge", a.to_str().unwrap(), b.to_str().unwrap()], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("95 % interval") && text.contains("best game") && text.contains("--seed"),
        "{text}"
    );
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let level = "fixtures/levels/classic.json";
    let cases: &[(&[&str], &str)] = &[
        (&["difficulty", level, "--bot", "nope", "--games", "3"], "unknown bot"),
        (&["difficulty", level, "--bot", "random", "--games", "0"], "--games"),
        (&["difficulty", level, "--bot", "random", "--games", "3", "--jobs", "0"], "--jobs"),
        (&["difficulty", level, "--bot", "nmcs", "--games", "3"], "collapse"),
        (&["difficulty", level, "--bot", "random"], "--games"),
        (&["difficulty", "no/such/level.json", "--bot", "random", "--games", "3"], "no/such/level.json"),
        (&["difficulty", "merge", "no/such.json"], "no/such.json"),
        (&["difficulty", "merge", level], "not a difficulty report"),
        (&["bot", level, "--bot", "mcts", "--playouts", "0"], "--playouts"),
        (&["bot", level, "--bot", "greedy", "--playouts", "5"], "mcts"),
        (&["bot", level, "--bot", "tactics"], "tactics"),
        (&["bot", level, "--bot", "expectimax", "--depth", "9"], "--depth"),
        (&["bot", level, "--bot", "random", "--seed", "x"], "--seed"),
        (&["solve", level, "--seconds", "1"], "collapse"),
        (&["solve", "fixtures/levels/collapse_seed.json", "--level", "4"], "--level"),
        (&["solve", "fixtures/levels/collapse_seed.json", "--seconds", "0"], "--seconds"),
        (&["solve", "fixtures/levels/collapse_seed.json", "--bot", "nrpa", "--level", "6"], "--level 6"),
        (&["solve", "fixtures/levels/collapse_seed.json", "--bot", "nrpa", "--threads", "0"], "--threads"),
        (&["solve", "fixtures/levels/collapse_seed.json", "--threads", "2"], "--threads"),
        (&["solve", "fixtures/levels/collapse_seed.json", "--bot", "greedy"], "nmcs and nrpa"),
    ];
    for (args, what) in cases {
        let out = tessera(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(what), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn solve_records_a_line_that_verifies() {
    let dir = scratch("solve");
    let log = dir.join("best.log");
    let out = tessera(
        &[
            "solve",
            "fixtures/levels/collapse_standard_15x15.json",
            "--level",
            "1",
            "--seconds",
            "0.3",
            "--record",
            log.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["score"].as_u64().unwrap() > 0 && v["playouts"].as_u64().unwrap() > 0, "{v}");
    let verify = tessera(&["replay", "verify", log.to_str().unwrap()], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
}

#[test]
fn solve_can_budget_the_solver_threads_cpu_time() {
    let out = tessera(
        &[
            "solve",
            "fixtures/levels/collapse_standard_15x15.json",
            "--level",
            "1",
            "--seconds",
            "0.3",
            "--cpu-time",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["budget"], "cpu", "{v}");
    let cpu = v["cpu_seconds"].as_f64().unwrap();
    // The budget is spent (within one playout) and no more than a little beyond.
    assert!((0.3..1.5).contains(&cpu), "{v}");
    assert!(v["seconds"].as_f64().unwrap() >= cpu * 0.9, "{v}");
    assert!(v["playouts_per_cpu_second"].as_f64().unwrap() > 0.0, "{v}");
}

#[test]
fn solve_with_nrpa_records_a_line_that_verifies_and_traces_its_scores() {
    let dir = scratch("solve-nrpa");
    let log = dir.join("best.log");
    let out = tessera(
        &[
            "solve",
            "fixtures/levels/collapse_standard_15x15.json",
            "--bot",
            "nrpa",
            "--level",
            "2",
            "--seconds",
            "0.3",
            "--record",
            log.to_str().unwrap(),
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["solver"].as_str(), v["threads"].as_u64(), v["nmcs_level"].as_u64()),
        (Some("nrpa"), Some(2), Some(2))
    );
    let score = v["score"].as_u64().unwrap();
    assert!(score > 0 && v["playouts"].as_u64().unwrap() > 0, "{v}");
    // The trace rises to the score of the line.
    let trace = v["trace"].as_array().unwrap();
    let scores: Vec<u64> = trace.iter().map(|p| p[1].as_u64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] < w[1]), "{v}");
    assert_eq!(scores.last(), Some(&score), "{v}");
    let verify = tessera(&["replay", "verify", log.to_str().unwrap()], "");
    assert!(verify.status.success(), "{}", stderr(&verify));
    let text = tessera(
        &[
            "solve",
            "fixtures/levels/collapse_standard_15x15.json",
            "--bot",
            "nrpa",
            "--threads",
            "1",
            "--seconds",
            "0.2",
        ],
        "",
    );
    assert!(text.status.success(), "{}", stderr(&text));
    // The summary goes to stderr, the taps alone to stdout: a script `play` wins with
    // (issue 36.2).
    assert!(stderr(&text).contains("(NRPA level 4, 1 threads, "), "{}", stderr(&text));
    let taps = stdout(&text);
    assert!(!taps.is_empty() && taps.lines().all(|l| l.starts_with("tap ")), "{taps}");
    let play = tessera(
        &["play", "fixtures/levels/collapse_standard_15x15.json", "--commands", "-", "--strict", "--quiet"],
        &taps,
    );
    assert!(play.status.success(), "{}", stderr(&play));
    let score = stderr(&text).split("score ").nth(1).and_then(|s| s.split(' ').next()).unwrap().to_string();
    assert!(stdout(&play).contains(&format!("score {score}")), "{}", stdout(&play));
}

#[test]
fn solve_with_nrpa_shares_a_cpu_budget_among_its_threads() {
    let out = tessera(
        &[
            "solve",
            "fixtures/levels/collapse_standard_15x15.json",
            "--bot",
            "nrpa",
            "--threads",
            "2",
            "--seconds",
            "0.4",
            "--cpu-time",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["budget"], "cpu", "{v}");
    // Two threads of 0.2 s each: 0.4 s of CPU in all, and a little beyond.
    let cpu = v["cpu_seconds"].as_f64().unwrap();
    assert!((0.4..2.0).contains(&cpu), "{v}");
}
