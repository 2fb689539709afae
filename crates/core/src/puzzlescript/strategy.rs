//! Proptest strategies for PuzzleScript, for the conformance kit (feature `strategy`).

use super::{PuzzleScriptCommand, PuzzleScriptLevel};
use crate::strategy::{Strategies, mostly_legal};
use crate::{AnyCommand, AnyRules, AnyState, Level, RuleSet, Rules};
use proptest::prelude::*;

/// PuzzleScript's strategies.
pub fn strategies() -> Strategies {
    Strategies { rule_set: RuleSet::PuzzleScript, level, command, reaches: REACHES }
}

/// What games played from these strategies reach (the kit checks it).
const REACHES: &[&str] = &["Turn", "Cell", "Aux", "Moved", "Rule", "Sound", "won"];

/// The fixture game (pushing, a random rule, late rules, again, sounds, a win condition).
const WAREHOUSE: &str = include_str!("../../../../fixtures/games/warehouse.txt");
/// The fixture whose level opens with `again` turns (`run_rules_on_level_start`): rules versions
/// 1 and 2 start it differently.
const FUSE: &str = include_str!("../../../../fixtures/games/fuse.txt");

/// One of the fixture games' levels (warehouse's three, fuse's one) with a random seed.
pub fn level() -> BoxedStrategy<Level> {
    (0usize..4, any::<u64>())
        .prop_map(|(k, seed)| {
            let (source, level) = if k < 3 { (WAREHOUSE, k) } else { (FUSE, 0) };
            Level::PuzzleScript(PuzzleScriptLevel {
                name: None,
                seed: Some(seed),
                source: source.into(),
                level,
            })
        })
        .boxed()
}

/// Mostly a legal command, else any.
pub fn command(rules: &AnyRules, state: &AnyState) -> BoxedStrategy<AnyCommand> {
    let any = prop::sample::select(PuzzleScriptCommand::ALL.to_vec()).prop_map(AnyCommand::PuzzleScript);
    mostly_legal(rules.legal_commands(state), 3, any.boxed())
}
