//! Proptest strategies for match-3, for the conformance kit (feature `strategy`).

use super::{Match3Command, Match3Config, Match3Level};
use crate::strategy::{Strategies, mostly_legal};
use crate::{AnyCommand, AnyRules, AnyState, Level, Pos, RuleSet, Rules};
use proptest::prelude::*;

/// Match-3's strategies.
pub fn strategies() -> Strategies {
    Strategies { rule_set: RuleSet::Match3, level, command, reaches: REACHES }
}

/// What games played from these strategies reach (the kit checks it).
const REACHES: &[&str] = &[
    "Swapped",
    "SwappedBack",
    "Matched",
    "Unlocked",
    "Fell",
    "Spawned",
    "Scored",
    "Shuffled",
    "Recoloured",
    "Won",
    "GameOver",
    "won",
    "over",
];

/// A random layout of 1×1 to 7×7: cells mostly open, some Void (`#`), some locked (`*`), rarely
/// a fixed block (`a`, `B`); 3 to 6 breeds (small boards with many breeds go dead: shuffles and
/// recolours); sometimes a move limit and a target score (wins and game overs).
fn layout() -> impl Strategy<Value = Match3Level> {
    let objectives = (prop::option::weighted(0.3, 1u32..8), prop::option::weighted(0.3, 20u64..400));
    (1usize..=7, 1usize..=7, 3u8..=6, prop::option::of(any::<u64>()), objectives).prop_flat_map(
        |(w, h, breeds, seed, (move_limit, target_score))| {
            let cell = prop::sample::select(vec!['.', '.', '.', '.', '.', '.', '.', '.', '#', '*', 'a', 'B']);
            prop::collection::vec(cell, w * h).prop_map(move |cells| Match3Level {
                board: Some(cells.chunks(w).map(|r| r.iter().collect()).collect()),
                config: Match3Config { breeds, move_limit, target_score, ..Match3Config::default() },
                seed,
                ..Match3Level::default()
            })
        },
    )
}

/// The fixture levels (locks, voids, the seed's first stage).
fn fixtures() -> Vec<Level> {
    [
        include_str!("../../../../fixtures/levels/match3_locks.json"),
        include_str!("../../../../fixtures/levels/match3_voids.json"),
        include_str!("../../../../fixtures/levels/stage_0001.json"),
    ]
    .into_iter()
    .filter_map(|text| Level::from_json(text).ok())
    .collect()
}

/// Random match-3 levels that start (a layout with no board without runs is left out), or a
/// fixture level.
pub fn level() -> BoxedStrategy<Level> {
    let random = layout().prop_map(Level::Match3).prop_filter("the layout starts", |l| l.start(None).is_ok());
    let fixtures = fixtures();
    if fixtures.is_empty() {
        return random.boxed();
    }
    prop_oneof![8 => random, 1 => prop::sample::select(fixtures)].boxed()
}

/// A swap: mostly one that makes a run (2 : 1), else a cell with its right or lower neighbour
/// (often swapped back; refused past the edge, on a void or a lock), rarely two cells that are
/// not neighbours.
pub fn command(rules: &AnyRules, state: &AnyState) -> BoxedStrategy<AnyCommand> {
    let (w, h) = match state {
        AnyState::Match3(s) => (s.size().width, s.size().height),
        _ => (1, 1),
    };
    let swap = |a: Pos, b: Pos| AnyCommand::Match3(Match3Command::Swap(a, b));
    let neighbours = (0..w, 0..h, any::<bool>()).prop_map(move |(x, y, right)| {
        let b = if right { Pos::new(x + 1, y) } else { Pos::new(x, y + 1) };
        swap(Pos::new(x, y), b)
    });
    let any_two =
        (0..=w, 0..=h, 0..=w, 0..=h).prop_map(move |(x, y, u, v)| swap(Pos::new(x, y), Pos::new(u, v)));
    let other = prop_oneof![4 => neighbours, 1 => any_two].boxed();
    mostly_legal(rules.legal_commands(state), 2, other)
}
