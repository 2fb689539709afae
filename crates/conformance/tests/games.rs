//! The conformance kit on every rule set: one test per property, each over every rule set.

use tessera_conformance::{PROPERTIES, Strategies};
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

/// Cases per property and rule set: the whole kit stays well under a minute on two cores.
const CASES: u32 = 256;

/// Runs the property called `name` on every rule set.
fn property(name: &str) {
    let (_, check) = PROPERTIES.iter().find(|(n, _)| *n == name).expect("a property of the kit");
    for &rule_set in RuleSet::ALL {
        check(&strategies(rule_set), CASES);
    }
}

#[test]
fn every_rule_set_has_its_own_strategies() {
    for &rule_set in RuleSet::ALL {
        assert_eq!(strategies(rule_set).rule_set, rule_set);
    }
    assert_eq!(PROPERTIES.len(), 6, "a property without a test below");
}

#[test]
fn determinism() {
    property("determinism");
}

#[test]
fn undo_and_redo() {
    property("undo_and_redo");
}

#[test]
fn checked_redo() {
    property("checked_redo");
}

#[test]
fn history() {
    property("history");
}

#[test]
fn log_state_at() {
    property("log_state_at");
}

#[test]
fn level_json() {
    property("level_json");
}

/// The strategies reach what they say (every kind of event, wins and game overs), and refused
/// commands as well as accepted ones.
#[test]
fn strategies_reach_what_they_promise() {
    for &rule_set in RuleSet::ALL {
        let s = strategies(rule_set);
        let c = tessera_conformance::coverage(&s, 256);
        for what in s.reaches {
            let seen = c.events.contains_key(*what) || c.statuses.contains_key(what);
            assert!(seen, "{rule_set}: no game reached {what}: {c:?}");
        }
        assert!(c.accepted > 0 && c.refused > 0, "{rule_set}: {c:?}");
    }
}
