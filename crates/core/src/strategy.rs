//! What a rule set hands the conformance kit (`tessera-conformance`): proptest strategies for
//! its levels and commands, over the type-erased API ([`Level`], [`AnyRules`], [`AnyState`],
//! [`AnyCommand`]). Only with the `strategy` feature (it brings in proptest).
//!
//! Each rule set's folder has a `strategy.rs` whose `strategies()` returns a [`Strategies`]; the
//! kit plays games drawn from them and checks the contract of [`crate::Rules`] (determinism,
//! exact undo, checked redo, the incremental hash, the log, the mirror, the level format).

use crate::{AnyCommand, AnyRules, AnyState, Level, RuleSet};
use proptest::prelude::*;
use proptest::sample::select;

/// A rule set's strategies for the conformance kit.
#[derive(Clone, Copy, Debug)]
pub struct Strategies {
    /// The rule set they are for; every level and command they make is of it.
    pub rule_set: RuleSet,
    /// Random levels that start ([`Level::start`] with their own seed succeeds; the kit leaves
    /// out the rare other seed a level does not start with): varied sizes, settings and boards
    /// (locks, voids, terrain, units), so that the commands reach every kind of event (merges,
    /// cascades, shuffles, moves, wins and game overs).
    pub level: fn() -> BoxedStrategy<Level>,
    /// A random command for the game `(rules, state)`: legal or illegal, mostly legal. The kit
    /// draws one per step from a generator of its own, seeded by the test case.
    pub command: fn(&AnyRules, &AnyState) -> BoxedStrategy<AnyCommand>,
    /// What games played from these strategies reach, so they cannot quietly grow dull: the
    /// kinds of events (their names in the events' JSON, `Merged`, `Shuffled`, ...) and the
    /// statuses (`won`, `over`). The kit's `coverage` test checks every one happens.
    pub reaches: &'static [&'static str],
}

/// Mostly one of `legal` (when there is any), else `other`: `legal_weight : 1`.
pub fn mostly_legal(
    legal: Vec<AnyCommand>,
    legal_weight: u32,
    other: BoxedStrategy<AnyCommand>,
) -> BoxedStrategy<AnyCommand> {
    if legal.is_empty() { other } else { prop_oneof![legal_weight => select(legal), 1 => other].boxed() }
}
