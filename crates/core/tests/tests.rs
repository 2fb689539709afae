//! Property tests for the rule sets: one integration-test binary, one module per rule set.

mod collapse;
mod determinism;
mod hash;
mod match3;
mod puzzlescript;
mod puzzlescript_compiler;
mod puzzlescript_props;
mod puzzlescript_reference;
mod sides;
mod slide;
mod tactics;
