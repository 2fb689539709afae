//! Issue 37: any bytes as a PuzzleScript game, compiled and a few steps of its first levels
//! played, under a memory and a time limit: run with
//! `cargo +nightly fuzz run puzzlescript_bounds -- -rss_limit_mb=1024 -timeout=10`; a source that
//! makes the compiler or a step take more fails the run. The body is shared with the stable
//! harness `cargo run --release -p tessera-core --example puzzlescript_fuzz_bounds -- CORPUS`.
#![no_main]

#[path = "../../crates/core/examples/puzzlescript_fuzz_bounds/body.rs"]
mod body;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| body::run(data));
