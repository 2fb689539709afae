//! NMCS on SameGame: lines replay to their scores, and level 2 finds the optimum of small boards.

use std::time::{Duration, Instant};
use tessera_bots::collapse::{Nmcs, solve};
use tessera_core::collapse::{CollapseCommand, CollapseConfig, CollapseRules, CollapseState};
use tessera_core::{Pos, Rules, Size};

fn board(rows: &[&str]) -> (CollapseRules, CollapseState) {
    let size = Size::new(rows[0].len(), rows.len(), 256).unwrap();
    let cells: Vec<Option<u8>> =
        rows.iter().flat_map(|r| r.bytes().map(|b| (b != b'.').then(|| b - b'0'))).collect();
    (CollapseRules::new(CollapseConfig::standard()), CollapseState::from_cells(size, &cells, 0).unwrap())
}

fn replay(rules: &CollapseRules, state: &CollapseState, taps: &[Pos]) -> u64 {
    let mut s = state.clone();
    let mut events = Vec::new();
    for &at in taps {
        events.clear();
        rules.apply(&mut s, &CollapseCommand::Tap(at), &mut events).unwrap();
    }
    assert!(rules.legal_commands(&s).is_empty(), "a line plays to the end");
    s.score()
}

/// The best final score by trying every line.
fn brute_force(rules: &CollapseRules, s: &mut CollapseState) -> u64 {
    let mut best = s.score();
    for cmd in rules.legal_commands(s) {
        let mut events = Vec::new();
        rules.apply(s, &cmd, &mut events).unwrap();
        best = best.max(brute_force(rules, s));
        rules.undo(s, &events);
    }
    best
}

const SMALL: &[&str] = &["1212", "2121", "1122", "2211", "1221"];

#[test]
fn every_level_returns_a_line_that_replays_to_its_score() {
    let (rules, state) = board(SMALL);
    for level in 0..=2 {
        let mut s = state.clone();
        let mut search = Nmcs::new(&rules, 7, None);
        let (score, line) = search.search(&mut s, level, 0);
        assert_eq!(s, state, "the search leaves the state as it was");
        assert_eq!(replay(&rules, &state, &line), score, "level {level}");
    }
}

#[test]
fn level_two_finds_the_optimum_of_a_small_board() {
    let (rules, state) = board(SMALL);
    let optimum = brute_force(&rules, &mut state.clone());
    let mut search = Nmcs::new(&rules, 1, None);
    let (score, _) = search.search(&mut state.clone(), 2, 0);
    assert_eq!(score, optimum);
}

#[test]
fn solve_keeps_the_best_of_its_runs_and_stops_in_time() {
    let (rules, state) = board(SMALL);
    let began = Instant::now();
    let found = solve(&rules, &state, 1, 3, began + Duration::from_millis(50));
    assert!(began.elapsed() < Duration::from_secs(5));
    assert!(found.runs >= 1 && found.playouts >= 1);
    assert_eq!(replay(&rules, &state, &found.taps), found.score);
}
