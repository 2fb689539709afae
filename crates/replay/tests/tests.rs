//! Tests of the event store: one integration-test binary, one module per subject.

mod common;
mod fixtures;
mod format;
mod history;
mod qa;
mod regressions;
