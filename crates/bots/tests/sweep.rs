//! Difficulty sweeps: the report does not depend on the threads, shards merge into one run.

use crate::{fixture, spec};
use std::sync::atomic::AtomicBool;
use tessera_bots::GameConfig;
use tessera_bots::difficulty::{Report, Sweep, merge, run, wilson_interval};

fn sweep(level: &str, bot: &str, first_game: u64, games: u64) -> Sweep {
    Sweep {
        level: fixture(level),
        level_name: level.into(),
        bot: spec(bot),
        seed: 100,
        first_game,
        games,
        game: GameConfig { max_moves: 40, keep_going: false },
    }
}

fn go(s: &Sweep, jobs: usize) -> Report {
    run(s, jobs, &AtomicBool::new(false), &|_| {}).unwrap()
}

#[test]
fn the_report_is_the_same_for_any_number_of_threads() {
    for (level, bot) in [("classic.json", "greedy"), ("match3_locks.json", "match3-greedy")] {
        let s = sweep(level, bot, 0, 8);
        let one = go(&s, 1);
        assert_eq!(one.summary.games, 8);
        assert_eq!(serde_json::to_string(&one).unwrap(), serde_json::to_string(&go(&s, 3)).unwrap());
    }
}

#[test]
fn merged_shards_equal_one_run() {
    let whole = go(&sweep("collapse_seed.json", "random", 0, 9), 2);
    let a = go(&sweep("collapse_seed.json", "random", 0, 4), 1);
    let b = go(&sweep("collapse_seed.json", "random", 4, 5), 2);
    let merged = merge(&[b.clone(), a.clone()]).unwrap();
    assert_eq!(serde_json::to_string(&merged).unwrap(), serde_json::to_string(&whole).unwrap());
    // A report read back from JSON merges the same.
    let back: Report = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
    assert_eq!(merge(&[back, b.clone()]).unwrap(), whole);
    // Overlapping shards and another bot are refused.
    assert!(merge(&[a.clone(), a.clone()]).is_err());
    let other = go(&sweep("collapse_seed.json", "greedy", 4, 5), 1);
    assert!(merge(&[a, other]).is_err());
}

#[test]
fn game_i_uses_seed_s_plus_i_and_best_and_worst_are_real_games() {
    let r = go(&sweep("classic.json", "random", 3, 5), 2);
    let seeds: Vec<u64> = r.games.iter().map(|g| g.seed).collect();
    assert_eq!(seeds, vec![103, 104, 105, 106, 107]);
    let best = r.summary.best.unwrap();
    let worst = r.summary.worst.unwrap();
    assert_eq!(best.score, r.games.iter().map(|g| g.score).max().unwrap());
    assert_eq!(worst.score, r.games.iter().map(|g| g.score).min().unwrap());
}

#[test]
fn a_stopped_sweep_reports_what_it_played() {
    let r = run(&sweep("classic.json", "random", 0, 4), 1, &AtomicBool::new(true), &|_| {}).unwrap();
    assert!(r.interrupted);
    assert_eq!(r.summary.games, 0);
}

#[test]
fn wilson_interval_brackets_the_rate() {
    let [lo, hi] = wilson_interval(0, 10);
    assert_eq!(lo, 0.0);
    assert!(hi > 0.25 && hi < 0.35, "{hi}");
    let [lo, hi] = wilson_interval(50, 100);
    assert!(lo < 0.5 && hi > 0.5 && (0.5 - lo - (hi - 0.5)).abs() < 1e-9);
}

/// The rule set's own figures come from its registry entry: a slide report has the histogram of
/// each game's largest tile, other rule sets' reports have none.
#[test]
fn only_slide_reports_the_largest_tiles() {
    let slide = go(&sweep("classic.json", "random", 0, 6), 1);
    let tiles = &slide.summary.top_tiles;
    assert_eq!(tiles.iter().map(|[_, n]| n).sum::<u64>(), 6, "{tiles:?}");
    let largest = slide.games.iter().map(|g| u64::from(g.top_tile)).max();
    assert_eq!(tiles.last().map(|[t, _]| *t), largest);
    assert!(tiles.iter().all(|[t, _]| t.is_power_of_two()), "{tiles:?}");
    let collapse = go(&sweep("collapse_seed.json", "random", 0, 3), 1);
    assert!(collapse.summary.top_tiles.is_empty());
}
