//! The mirror's tests: one binary, one module per subject.

mod collapse;
mod common;
mod errors;
mod match3;
mod slide;
mod tactics;
