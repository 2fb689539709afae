//! Proptest strategies for SameGame, for the conformance kit (feature `strategy`).

use super::{CollapseCommand, CollapseConfig, CollapseLevel, Compaction, Scoring};
use crate::strategy::{Strategies, mostly_legal};
use crate::{AnyCommand, AnyRules, AnyState, Level, Pos, RuleSet, Rules};
use proptest::prelude::*;

/// SameGame's strategies.
pub fn strategies() -> Strategies {
    Strategies { rule_set: RuleSet::Collapse, level, command, reaches: REACHES }
}

/// What games played from these strategies reach (the kit checks it).
const REACHES: &[&str] = &["Cleared", "Fell", "ColumnShifted", "Scored", "GameOver", "over"];

/// Any settings: groups of 1 to 3, every compaction and scoring.
fn config() -> impl Strategy<Value = CollapseConfig> {
    (
        1u32..=3,
        prop::sample::select(vec![Compaction::Center, Compaction::Left, Compaction::None]),
        prop::sample::select(vec![Scoring::Tiered, Scoring::Standard]),
    )
        .prop_map(|(min_group, compaction, scoring)| CollapseConfig { min_group, compaction, scoring })
}

/// A settled board of 1×1 to 7×7 in 1 to 4 colours, every column holding 1..=height tiles (no
/// empty column, so any compaction's layout holds), as level rows.
fn board() -> impl Strategy<Value = (Vec<String>, u8)> {
    (1usize..=7, 1usize..=7, 1u8..=4).prop_flat_map(|(w, h, k)| {
        (prop::collection::vec(1..=h, w), prop::collection::vec(0..k, w * h)).prop_map(
            move |(heights, colours)| {
                let rows = (0..h)
                    .map(|y| {
                        (0..w)
                            .map(|x| {
                                if y >= h - heights[x] { char::from(b'0' + colours[y * w + x]) } else { '.' }
                            })
                            .collect()
                    })
                    .collect();
                (rows, k.max(2))
            },
        )
    })
}

/// The fixture levels (the seed's 10×10 game, a centred board, a 15×15 benchmark board).
fn fixtures() -> Vec<Level> {
    [
        include_str!("../../../../fixtures/levels/collapse_seed.json"),
        include_str!("../../../../fixtures/levels/collapse_center_board.json"),
        include_str!("../../../../fixtures/levels/collapse_standard_15x15.json"),
    ]
    .into_iter()
    .filter_map(|text| Level::from_json(text).ok())
    .collect()
}

/// Random SameGame levels: a given settled board, or a new board of 1×1 to 8×8 in 2 to 5
/// colours drawn from the seed, or a fixture level; any settings.
pub fn level() -> BoxedStrategy<Level> {
    let given =
        (board(), config(), prop::option::of(any::<u64>())).prop_map(|((rows, colours), config, seed)| {
            Level::Collapse(CollapseLevel {
                colours: Some(colours),
                config,
                seed,
                board: Some(rows),
                ..Default::default()
            })
        });
    let fresh = (1usize..=8, 1usize..=8, 2u8..=5, config(), prop::option::of(any::<u64>())).prop_map(
        |(w, h, colours, config, seed)| {
            Level::Collapse(CollapseLevel {
                width: Some(w),
                height: Some(h),
                colours: Some(colours),
                config,
                seed,
                ..Default::default()
            })
        },
    );
    let fixtures = fixtures();
    if fixtures.is_empty() {
        return prop_oneof![3 => given, 2 => fresh].boxed();
    }
    prop_oneof![6 => given, 3 => fresh, 1 => prop::sample::select(fixtures)].boxed()
}

/// A tap: mostly on a group that clears (3 : 1), else on any cell up to one past the board's
/// edge (an empty cell, a group too small, off the board).
pub fn command(rules: &AnyRules, state: &AnyState) -> BoxedStrategy<AnyCommand> {
    let (w, h) = match state {
        AnyState::Collapse(s) => (s.board().width(), s.board().height()),
        _ => (1, 1),
    };
    let any_tap =
        (0..=w, 0..=h).prop_map(|(x, y)| AnyCommand::Collapse(CollapseCommand::Tap(Pos::new(x, y))));
    mostly_legal(rules.legal_commands(state), 3, any_tap.boxed())
}
