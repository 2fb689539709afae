//! Proptest strategies for Sokoban, for the conformance kit (feature `strategy`).

use super::generate::{pulled_rows, random_rows};
use super::{SokobanCommand, SokobanLevel};
use crate::strategy::{Strategies, mostly_legal};
use crate::{AnyCommand, AnyRules, AnyState, Dir, Level, Pos, RuleSet, Rules};
use proptest::prelude::*;

/// Sokoban's strategies.
pub fn strategies() -> Strategies {
    Strategies { rule_set: RuleSet::Sokoban, level, command, reaches: REACHES }
}

/// What games played from these strategies reach (the kit checks it).
const REACHES: &[&str] = &["Moved", "Pushed", "Walked", "Solved", "won"];

/// Small rooms: solvable by construction (boxes pulled off their goals), or random (mostly
/// unsolvable), or the fixture level.
pub fn level() -> BoxedStrategy<Level> {
    let room = (any::<u64>(), 4u16..=8, 4u16..=8, 1usize..=3, 0usize..12, any::<bool>()).prop_filter_map(
        "the cells do not fit",
        |(seed, w, h, n, pulls, solvable)| {
            let rows =
                if solvable { pulled_rows(seed, w, h, n, pulls)? } else { random_rows(seed, w, h, n)? };
            let level = Level::Sokoban(SokobanLevel { name: None, seed: None, board: rows });
            level.start(None).is_ok().then_some(level)
        },
    );
    match Level::from_json(include_str!("../../../../fixtures/levels/sokoban.json")) {
        Ok(fixture) => prop_oneof![9 => room, 1 => Just(fixture)].boxed(),
        Err(_) => room.boxed(),
    }
}

/// The solver's next move half the time, else a step (mostly legal) or a walk to any cell up to
/// one past the board's edge (floor, wall, box, off the board).
pub fn command(rules: &AnyRules, state: &AnyState) -> BoxedStrategy<AnyCommand> {
    let (w, h) = match state {
        AnyState::Sokoban(s) => (s.size().width, s.size().height),
        _ => (1, 1),
    };
    let other = prop_oneof![
        prop::sample::select(Dir::ALL.to_vec()).prop_map(|d| AnyCommand::Sokoban(SokobanCommand::Step(d))),
        (0..=w, 0..=h).prop_map(|(x, y)| AnyCommand::Sokoban(SokobanCommand::Walk(Pos::new(x, y)))),
    ];
    let play = mostly_legal(rules.legal_commands(state), 3, other.boxed());
    // Random steps rarely solve a level: now and then the solver's next move (the hint).
    match rules.hint(state) {
        Some(hint) => prop_oneof![1 => Just(hint), 2 => play].boxed(),
        None => play,
    }
}
