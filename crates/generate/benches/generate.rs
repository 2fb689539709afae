//! Levels proved per minute (issue 64.8): `tessera generate`'s library on the fixtures' games
//! (fixtures/games/*.txt) and on ten games of PuzzleScript's suite (the first ten distinct
//! games, in suite order, for which the run below proves its levels within 5 s of this
//! machine's time (a game with very heavy turns, such as "late beginloop/endloop test", takes
//! a quarter of an hour a run and is passed over, said on stderr); skipped when `../shared` is
//! missing). Each iteration is one whole run: 2 levels, a budget of 1,000,000
//! states, 20,000 a candidate, `--min-steps 4`, one job, seed 1, so every iteration makes the
//! same levels; the throughput (elements/s) is levels proved a second: times 60, a minute.
//!
//! And Sokoban by reverse play (10×10, 3 and 4 boxes; see `sokoban_levels_per_minute`).
//!
//!   cargo bench -p tessera-generate --bench generate
//!
//! The steps of the levels each game gets are printed before its measurement.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tessera_core::puzzlescript::engine::suite::parse_testdata;
use tessera_generate::{Budget, Options, generate, generate_rules, prepare, rules_generator};

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

/// The levels' steps, or None when the game gives none (or, with a `limit`, takes longer).
fn steps(source: &str, limit: Option<Duration>) -> Option<Vec<usize>> {
    let opts = options();
    let game = prepare(source, &opts).ok()?;
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let done = std::sync::Arc::new(AtomicBool::new(false));
    if let Some(limit) = limit {
        let (stop, done) = (stop.clone(), done.clone());
        std::thread::spawn(move || {
            let clock = std::time::Instant::now();
            while clock.elapsed() < limit && !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(20));
            }
            stop.store(true, Ordering::Relaxed);
        });
    }
    let out = generate(&game, &opts, &stop, &mut |_| {});
    done.store(true, Ordering::Relaxed);
    let out = out.ok()?;
    (out.ended != tessera_generate::Ended::Interrupted && !out.levels.is_empty())
        .then(|| out.levels.iter().map(|l| l.steps()).collect())
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
                let clock = std::time::Instant::now();
                let proved = steps(&case.source, Some(Duration::from_secs(5))).is_some();
                if clock.elapsed() >= Duration::from_secs(5) {
                    eprintln!("suite {}: a run takes over 5 s; passed over", case.name);
                } else if proved {
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
        let Some(steps) = steps(&source, None) else {
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

/// Sokoban by reverse play (`tessera generate --rules sokoban`): 10×10 rooms with 3 and 4
/// boxes, 4 levels an iteration (`--states 20000000 --level-states 200000 --min-steps 1`, one
/// job, seed 1), every level proved push-optimal by the solver.
fn sokoban_levels_per_minute(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate-sokoban");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    for boxes in [3usize, 4] {
        let opts = Options {
            count: 4,
            seed: 1,
            budget: Budget::States(20_000_000),
            size: Some((10, 10)),
            objects: Some(boxes),
            level_states: 200_000,
            min_steps: 1,
            jobs: 1,
            ..Options::default()
        };
        let g = rules_generator("sokoban", &opts).expect("sokoban has a generator");
        let once = generate_rules(g, &opts, &AtomicBool::new(false), &mut |_| {}).expect("generates");
        let pushes: Vec<u64> = once.levels.iter().map(|l| l.optimal).collect();
        eprintln!("sokoban 10x10, {boxes} boxes: levels of {pushes:?} pushes");
        group.throughput(Throughput::Elements(once.levels.len() as u64));
        group.bench_function(format!("sokoban 10x10 {boxes} boxes"), |b| {
            b.iter(|| generate_rules(g, &opts, &AtomicBool::new(false), &mut |_| {}).expect("generates"))
        });
    }
    group.finish();
}

criterion_group!(benches, levels_per_minute, sokoban_levels_per_minute);
criterion_main!(benches);
