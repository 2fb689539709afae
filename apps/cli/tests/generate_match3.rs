//! `tessera generate --rules match3 --stage STAGE.json --win-rate A..B` (issue 64.5): stages
//! whose move limit and target score make the match-3 bot win the wanted share of games, the
//! check's games replayed by `tessera difficulty --bot match3-greedy`, the same files on any
//! `--jobs`, and bad input named.

use crate::{scratch, stderr, tessera};

const STAGE: &str = "fixtures/levels/match3_locks.json";

fn last_json(out: &std::process::Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().last().unwrap_or_else(|| panic!("no stdout; stderr: {}", stderr(out)));
    serde_json::from_str(line).unwrap()
}

#[test]
fn tuned_stages_are_won_by_the_bot_in_the_wanted_share_of_games() {
    let dir = scratch("generate-match3");
    let mut files = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.join(format!("tuned{jobs}.json"));
        let run = tessera(
            &[
                "generate",
                "--rules",
                "match3",
                "--stage",
                STAGE,
                "--win-rate",
                "0.4..0.6",
                "--count",
                "2",
                "--games",
                "60",
                "--seed",
                "3",
                "--states",
                "100000000",
                "--min-steps",
                "10",
                "--max-steps",
                "25",
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
        assert_eq!(json["rules"], "match3");
        let levels = json["levels"].as_array().unwrap();
        assert_eq!(levels.len(), 2, "{json}");
        let mut texts = Vec::new();
        for (k, l) in levels.iter().enumerate() {
            let file = dir.join(format!("tuned{jobs}-{}.json", k + 1));
            assert_eq!(l["file"], file.to_str().unwrap());
            let text = std::fs::read_to_string(&file).unwrap();
            let level: serde_json::Value = serde_json::from_str(&text).unwrap();
            let limit = level["config"]["move_limit"].as_u64().unwrap();
            let target = level["config"]["target_score"].as_u64().unwrap();
            assert_eq!(l["move_limit"].as_u64(), Some(limit));
            assert_eq!(l["target_score"].as_u64(), Some(target));
            assert!((10..=25).contains(&limit), "{limit}");
            // The stage's board and settings but the limits are kept.
            let stage: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(crate::workspace().join(STAGE)).unwrap())
                    .unwrap();
            assert_eq!(level["board"], stage["board"]);
            assert_eq!(level["config"]["breeds"], stage["config"]["breeds"]);
            // The check's games, replayed by the bot through `tessera difficulty`.
            let seed = l["check_seed"].as_u64().unwrap().to_string();
            let sweep = tessera(
                &[
                    "difficulty",
                    file.to_str().unwrap(),
                    "--bot",
                    "match3-greedy",
                    "--games",
                    "60",
                    "--seed",
                    &seed,
                    "--json",
                ],
                "",
            );
            assert!(sweep.status.success(), "{}", stderr(&sweep));
            let report: serde_json::Value = serde_json::from_slice(&sweep.stdout).unwrap();
            let wins = report["summary"]["wins"].as_u64().unwrap();
            assert_eq!(Some(wins), l["wins"].as_u64(), "the bot wins the check's games again");
            let rate = wins as f64 / 60.0;
            assert!((0.4..=0.6).contains(&rate), "win rate {rate}");
            assert!((l["difficulty"].as_f64().unwrap() - (1.0 - rate) * 100.0).abs() < 1e-9);
            // Other games of the bot: near the range too (a wider band: a sample of 200).
            let other = tessera(
                &["difficulty", file.to_str().unwrap(), "--bot", "match3-greedy", "--games", "200", "--json"],
                "",
            );
            let report: serde_json::Value = serde_json::from_slice(&other.stdout).unwrap();
            let rate = report["summary"]["win_rate"].as_f64().unwrap();
            assert!((0.25..=0.75).contains(&rate), "other games' win rate {rate}");
            texts.push(text);
        }
        files.push(texts);
    }
    assert_eq!(files[0], files[1], "the same stages on 1 and 2 jobs");
}

#[test]
fn bad_stage_options_are_named() {
    let dir = scratch("generate-match3-bad");
    let out = dir.join("out.json");
    let o = out.to_str().unwrap();
    for (args, message) in [
        (vec!["--rules", "match3", "--win-rate", "0.4..0.6"], "--win-rate"),
        (vec!["--rules", "match3", "--stage", STAGE], "--win-rate 0.4..0.6"),
        (vec!["--rules", "match3", "--stage", STAGE, "--win-rate", "0.7..0.2"], "--win-rate 0.7..0.2"),
        (vec!["--rules", "match3", "--stage", STAGE, "--win-rate", "0.2..1.5"], "0 <= A <= B <= 1"),
        (
            vec!["--rules", "match3", "--stage", "fixtures/levels/classic.json", "--win-rate", "0.4..0.6"],
            "tunes match3 stages",
        ),
        (
            vec!["--rules", "match3", "--stage", "fixtures/levels/nope.json", "--win-rate", "0.4..0.6"],
            "nope.json",
        ),
    ] {
        let mut all = vec!["generate"];
        all.extend(args.iter());
        all.extend(["--out", o, "--states", "1000"]);
        let run = tessera(&all, "");
        assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(message), "{args:?}: {}", stderr(&run));
        assert!(!out.exists());
    }
}
