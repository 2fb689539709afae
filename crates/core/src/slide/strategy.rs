//! Proptest strategies for 2048, for the conformance kit (feature `strategy`).

use super::{Chance, SlideCommand, SlideConfig, SlideLevel};
use crate::strategy::{Strategies, mostly_legal};
use crate::{AnyCommand, AnyRules, AnyState, Dir, Level, RuleSet, Rules};
use proptest::prelude::*;

/// 2048's strategies.
pub fn strategies() -> Strategies {
    Strategies { rule_set: RuleSet::Slide, level, command, reaches: REACHES }
}

/// What games played from these strategies reach (the kit checks it).
const REACHES: &[&str] = &["Moved", "Merged", "Scored", "Spawned", "Won", "won", "over"];

/// A tile's exponent: mostly small (merges), sometimes past the four-cell plans' 2^15, rarely
/// the largest tiles (2^29, 2^30: two 2^30 do not merge).
fn exponent() -> impl Strategy<Value = u32> {
    prop_oneof![20 => 1u32..=6, 2 => 7u32..=17, 1 => 29u32..=30]
}

/// Small targets (wins happen) and any chance of a 4.
fn config() -> impl Strategy<Value = SlideConfig> {
    (prop::sample::select(vec![4u32, 8, 16, 32, 64, 2048]), 1u32..=10)
        .prop_flat_map(|(target, den)| (Just(target), 0..=den, Just(den)))
        .prop_map(|(target, num, den)| SlideConfig { target, four_chance: Chance { num, den } })
}

/// Random 2048 levels: a given board of 1×1 to 6×6 (cells empty or a tile), or a new game of
/// 1×1 to 10×10 (two spawned tiles), or the classic level; small targets, any chance of a 4,
/// with or without a seed of their own.
pub fn level() -> BoxedStrategy<Level> {
    let board = (1usize..=6, 1usize..=6).prop_flat_map(|(w, h)| {
        prop::collection::vec(prop::option::weighted(0.6, exponent()), w * h).prop_map(move |cells| {
            let values: Vec<u32> = cells.iter().map(|c| c.map_or(0, |k| 1 << k)).collect();
            Some(values.chunks(w).map(<[u32]>::to_vec).collect::<Vec<_>>())
        })
    });
    let given = (board, config(), prop::option::of(any::<u64>()))
        .prop_map(|(board, config, seed)| SlideLevel { config, seed, board, ..SlideLevel::default() });
    let fresh = (1usize..=10, 1usize..=10, config(), prop::option::of(any::<u64>())).prop_map(
        |(w, h, config, seed)| SlideLevel {
            width: Some(w),
            height: Some(h),
            config,
            seed,
            ..SlideLevel::default()
        },
    );
    prop_oneof![4 => given, 2 => fresh, 1 => Just(SlideLevel::classic())].prop_map(Level::Slide).boxed()
}

/// A slide: mostly one that moves something (3 : 1), else any direction (refused when nothing
/// moves that way).
pub fn command(rules: &AnyRules, state: &AnyState) -> BoxedStrategy<AnyCommand> {
    let any_dir =
        prop::sample::select(Dir::ALL.to_vec()).prop_map(|d| AnyCommand::Slide(SlideCommand::Slide(d)));
    mostly_legal(rules.legal_commands(state), 3, any_dir.boxed())
}
