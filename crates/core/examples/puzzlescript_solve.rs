//! Runs the PuzzleScript solver on every distinct (game, level) of PuzzleScript's regression
//! suite: `cargo run --release -p tessera-core --example puzzlescript_solve -- TESTDATA.js
//! [SECONDS] [MIB]` (defaults 10 s and 1024 MiB a level). Prints one line per level (the
//! outcome, steps, states expanded and stored, seconds) and a summary: levels solved, proved
//! unsolvable, given up, the median time of the solved ones and the states expanded per second
//! over all of them. Levels of games with `random`/`randomdir` in their rules are counted apart
//! ("random games"); the solver still searches them, leaving out the steps that draw.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use tessera_core::puzzlescript::engine::{self, LevelEntry, suite};
use tessera_core::puzzlescript::{PuzzleScriptLevel, SolveLimits, SolveOutcome, solve};

/// Whether the rules section of `source` mentions `random` or `randomdir` (a rough reading:
/// comments and case aside).
fn has_random_rules(source: &str) -> bool {
    let mut in_rules = false;
    let mut depth = 0usize;
    for line in source.lines() {
        let t = line.trim().to_ascii_lowercase();
        if ["objects", "legend", "sounds", "collisionlayers", "winconditions", "levels"].contains(&t.as_str())
        {
            in_rules = false;
        } else if t == "rules" {
            in_rules = true;
            continue;
        }
        let mut word = String::new();
        for c in t.chars().chain(std::iter::once(' ')) {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ if depth > 0 => {}
                c if c.is_alphanumeric() || c == '_' => {
                    word.push(c);
                    continue;
                }
                _ => {}
            }
            if in_rules && (word == "random" || word == "randomdir") {
                return true;
            }
            word.clear();
        }
    }
    false
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).cloned().unwrap_or_else(|| {
        "/work/shared/benchmarks/puzzlescript/reference/tests/resources/testdata.js".into()
    });
    let seconds: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let mib: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1024);
    let text = std::fs::read_to_string(&path).expect("the suite reads");
    let cases = suite::parse_testdata(&text).expect("the suite parses");
    let mut seen = BTreeSet::new();
    let (mut solved, mut unsolvable, mut random_only, mut stopped, mut memory, mut refused, mut failed) =
        (0, 0, 0, 0, 0, 0, 0);
    let (mut random_games, mut random_solved) = (0, 0);
    let mut times = Vec::new();
    let (mut all_nodes, mut all_seconds) = (0u64, 0f64);
    for case in &cases {
        if !seen.insert((case.source.clone(), case.level)) {
            continue;
        }
        let Ok(game) = engine::compile(&case.source) else { continue };
        if !matches!(game.levels().get(case.level), Some(LevelEntry::Level { .. })) {
            continue;
        }
        let playable =
            game.levels()[..case.level].iter().filter(|e| matches!(e, LevelEntry::Level { .. })).count();
        let level =
            PuzzleScriptLevel { name: None, seed: None, source: case.source.clone(), level: playable };
        let random = has_random_rules(&case.source);
        random_games += usize::from(random);
        let Ok((rules, state)) = level.start(0) else {
            failed += 1;
            println!("{:<50} does not start", case.name);
            continue;
        };
        let budget = Duration::from_secs_f64(seconds);
        let began = Instant::now();
        let limits = SolveLimits { max_nodes: u64::MAX, max_bytes: mib << 20 };
        let report = solve(&rules, &state, limits, &mut || began.elapsed() > budget);
        let t = began.elapsed().as_secs_f64();
        let what = match &report {
            Err(e) => {
                refused += 1;
                format!("refused: {e}")
            }
            Ok(r) => {
                all_nodes += r.nodes;
                all_seconds += t;
                match &r.outcome {
                    SolveOutcome::Solved(c) => {
                        solved += 1;
                        random_solved += usize::from(random);
                        times.push(t);
                        format!("solved in {} steps", c.len())
                    }
                    SolveOutcome::Unsolvable => {
                        unsolvable += 1;
                        "unsolvable".into()
                    }
                    SolveOutcome::Random { steps } => {
                        random_only += 1;
                        format!("no solution without random steps ({steps} left out)")
                    }
                    SolveOutcome::Stopped => {
                        stopped += 1;
                        "gave up: time".into()
                    }
                    SolveOutcome::Memory => {
                        memory += 1;
                        "gave up: memory".into()
                    }
                }
            }
        };
        let (nodes, states) = report.as_ref().map_or((0, 0), |r| (r.nodes, r.states));
        println!(
            "{:<50} level {:>2}{} {what}; {nodes} expanded, {states} stored, {t:.2} s",
            case.name.chars().take(50).collect::<String>(),
            case.level,
            if random { " (random game)" } else { "" }
        );
    }
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let searched = solved + unsolvable + random_only + stopped + memory + refused + failed;
    println!(
        "\n{searched} distinct levels ({random_games} of games with random rules): {solved} solved \
         ({random_solved} of them in random games), {unsolvable} proved unsolvable, {random_only} no solution \
         without random steps, {stopped} out of time ({seconds} s), {memory} out of memory ({mib} MiB), \
         {refused} refused (realtime), {failed} did not start"
    );
    println!(
        "median time of the solved: {median:.3} s; {:.0} states expanded/s over all searches ({all_nodes} in {all_seconds:.1} s)",
        all_nodes as f64 / all_seconds.max(1e-9)
    );
}
