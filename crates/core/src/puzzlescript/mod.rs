//! `puzzlescript`: games written in the PuzzleScript rules language, as a tessera rule set.
//!
//! [`engine`] is the language itself: the parser, the compiler and the turn engine, following
//! the reference engine's semantics exactly (proven on its 470-case regression suite).

pub mod engine;
