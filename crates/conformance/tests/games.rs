//! The conformance kit on every rule set: one test per property, each over every rule set.

use tessera_conformance::{Strategies, conformance_tests};
use tessera_core::RuleSet;

/// The rule sets' strategies, by rule set: the one list of games the kit checks (the rule set
/// registry takes it over).
fn strategies(rule_set: RuleSet) -> Strategies {
    use tessera_core::{collapse, match3, slide, tactics};
    match rule_set {
        RuleSet::Slide => slide::strategy::strategies(),
        RuleSet::Collapse => collapse::strategy::strategies(),
        RuleSet::Tactics => tactics::strategy::strategies(),
        RuleSet::Match3 => match3::strategy::strategies(),
    }
}

// Cases per property and rule set: the whole kit takes seconds on two cores.
conformance_tests!(strategies, 256);
