//! The conformance kit on every rule set of the registry: one test per property, each over
//! every rule set (`RuleSet::ALL`), with the strategies each rule set's plugin provides.

use tessera_conformance::conformance_tests;
use tessera_core::RuleSet;

// Cases per property and rule set: the whole kit takes seconds on two cores.
conformance_tests!(RuleSet::strategies, 256);
