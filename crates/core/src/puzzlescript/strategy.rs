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

/// One of the fixture game's levels with a random seed.
pub fn level() -> BoxedStrategy<Level> {
    (0usize..3, any::<u64>())
        .prop_map(|(level, seed)| {
            Level::PuzzleScript(PuzzleScriptLevel {
                name: None,
                seed: Some(seed),
                source: WAREHOUSE.to_string(),
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
