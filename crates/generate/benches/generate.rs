//! Levels proved per minute (issue 64.8): `tessera generate`'s library on the fixtures' games
//! (fixtures/games/*.txt) and on ten games of PuzzleScript's suite (the first ten distinct
//! games, in suite order, for which the run below proves its levels; skipped when
//! `../shared` is missing). Each iteration is one whole run: 2 levels, a budget of 1,000,000
//! states, 20,000 a candidate, `--min-steps 4`, one job, seed 1, so every iteration makes the
//! same levels; the throughput (elements/s) is levels proved a second: times 60, a minute.
//!
//!   cargo bench -p tessera-generate --bench generate
//!
//! The steps of the levels each game gets are printed before its measurement.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tessera_core::puzzlescript::engine::suite::parse_testdata;
use tessera_generate::{Budget, Options, generate, prepare};

fn options() -> Options {
    Options {
        count: 2,
        seed: 1,
        budget: Budget::States(1_000_000),
        level_states: 20_000,
        min_steps: 4,
        jobs: 1,
        ..Options::default()
    }
}

/// The levels' steps, or None when the game gives none.
fn steps(source: &str) -> Option<Vec<usize>> {
    let opts = options();
    let game = prepare(source, &opts).ok()?;
    let out = generate(&game, &opts, &AtomicBool::new(false), &mut |_| {}).ok()?;
    (!out.levels.is_empty()).then(|| out.levels.iter().map(|l| l.steps()).collect())
}

fn games() -> Vec<(String, String)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut games = Vec::new();
    let mut fixtures: Vec<_> = std::fs::read_dir(format!("{root}/fixtures/games"))
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    fixtures.sort();
    for p in fixtures {
        if let Ok(text) = std::fs::read_to_string(&p) {
            let name = p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            games.push((format!("fixture {name}"), text));
        }
    }
    let suite = format!("{root}/../shared/benchmarks/puzzlescript/reference/tests/resources/testdata.js");
    match std::fs::read_to_string(&suite).map_err(|e| e.to_string()).and_then(|t| parse_testdata(&t)) {
        Ok(cases) => {
            let mut seen = std::collections::BTreeSet::new();
            let mut taken = 0;
            for case in cases {
                if taken == 10 {
                    break;
                }
                if !seen.insert(case.source.clone()) {
                    continue;
                }
                if steps(&case.source).is_some() {
                    games.push((format!("suite {}", case.name), case.source));
                    taken += 1;
                }
            }
        }
        Err(e) => eprintln!("no suite games ({suite}: {e})"),
    }
    games
}

fn levels_per_minute(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    for (name, source) in games() {
        let Some(steps) = steps(&source) else {
            eprintln!("{name}: no level proved at this budget; not measured");
            continue;
        };
        eprintln!("{name}: levels of {steps:?} steps");
        group.throughput(Throughput::Elements(steps.len() as u64));
        let opts = options();
        let game = prepare(&source, &opts).expect("prepared above");
        group.bench_function(&name, |b| {
            b.iter(|| generate(&game, &opts, &AtomicBool::new(false), &mut |_| {}).expect("generates"))
        });
    }
    group.finish();
}

criterion_group!(benches, levels_per_minute);
criterion_main!(benches);
