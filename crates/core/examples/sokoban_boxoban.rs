//! Solves every level of Sokoban collections (`.xsb`/`.sok` or Boxoban files) with the push
//! solver and prints, per file: levels solved, total and median time, the slowest level, and
//! nodes expanded per second. A level gets at most `--seconds S` (default 10). Every solution
//! is replayed through the rules and must end won (the run stops with exit code 1 otherwise).
//! `--per-level` also prints one tab-separated line per solved level: file, level, pushes, moves,
//! nodes, microseconds.
//!
//! ```text
//! cargo run --release -p tessera-core --example sokoban_boxoban -- \
//!     ../shared/benchmarks/boxoban/unfiltered_test_000.txt ../shared/benchmarks/boxoban/medium_valid_000.txt
//! ```

use std::time::{Duration, Instant};
use tessera_core::sokoban::{SokobanRules, SolveLimits, SolveOutcome, parse_levels, solve};
use tessera_core::{AnyState, Level, Rules, Status};

fn main() {
    let mut seconds = 10.0f64;
    let mut per_level = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--per-level" {
            per_level = true;
        } else if a == "--seconds" {
            seconds = args.next().and_then(|s| s.parse().ok()).unwrap_or(seconds);
        } else {
            files.push(a);
        }
    }
    let budget = Duration::from_secs_f64(seconds);
    for file in files {
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{file}: {e}");
                std::process::exit(2);
            }
        };
        let levels = match parse_levels(&text) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{file}: {e}");
                std::process::exit(2);
            }
        };
        let (mut solved, mut unsolvable, mut stopped) = (0, 0, 0);
        let mut times = Vec::with_capacity(levels.len());
        let (mut nodes, mut pushes) = (0u64, 0u64);
        let mut slowest = (Duration::ZERO, String::new());
        let all = Instant::now();
        for (name, level) in &levels {
            let Level::Sokoban(_) = level else { continue };
            let Ok(game) = level.start(None) else { continue };
            let AnyState::Sokoban(state) = game.state else { continue };
            let t0 = Instant::now();
            let report = solve(&state, SolveLimits::default(), &mut || t0.elapsed() > budget);
            let dt = t0.elapsed();
            times.push(dt);
            nodes += report.nodes;
            if dt > slowest.0 {
                slowest = (dt, name.clone());
            }
            match report.outcome {
                SolveOutcome::Solved(s) => {
                    // Every solution is replayed through the rules and must end won.
                    let rules = SokobanRules;
                    let mut play = state.clone();
                    let mut events = Vec::new();
                    for c in &s.commands {
                        if let Err(e) = rules.apply(&mut play, c, &mut events) {
                            eprintln!("{file}: level {name}: the solution's {c} was refused: {e}");
                            std::process::exit(1);
                        }
                    }
                    if rules.status(&play) != Status::Won || play.pushes() != s.pushes {
                        eprintln!("{file}: level {name}: the solution does not solve the level");
                        std::process::exit(1);
                    }
                    solved += 1;
                    pushes += u64::from(s.pushes);
                    if per_level {
                        println!(
                            "{file}\t{name}\t{}\t{}\t{}\t{}",
                            s.pushes,
                            s.moves,
                            report.nodes,
                            dt.as_micros()
                        );
                    }
                }
                SolveOutcome::Unsolvable => unsolvable += 1,
                SolveOutcome::Stopped | SolveOutcome::OutOfMemory => stopped += 1,
            }
        }
        let total = all.elapsed();
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        println!(
            "{file}: {solved}/{} solved ({unsolvable} unsolvable, {stopped} over {seconds} s); total {:.2} s, \
             median {:.2} ms, slowest {:.2} ms (level {}); {nodes} nodes, {:.0} nodes/s; {pushes} pushes in all",
            levels.len(),
            total.as_secs_f64(),
            median.as_secs_f64() * 1e3,
            slowest.0.as_secs_f64() * 1e3,
            slowest.1,
            nodes as f64 / total.as_secs_f64(),
        );
    }
}
