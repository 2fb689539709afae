//! Property tests for the rule sets: one integration-test binary, one module per rule set.

mod determinism;
mod slide;
