//! Mirror speed: following one match3 step on a 64×64 board mid-cascade (the richest swap among
//! the legal ones, after a few moves), forward and backward; building mirrors from states (64×64
//! match3; a 1024×1024 tactics map, a million terrain entities).
//! Run: `cargo bench -p tessera-ecs --bench mirror`.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_core::match3::Match3Event;
use tessera_core::{AnyEvent, AnyRules, AnyState, Level, Rules};
use tessera_ecs::Mirror;

/// A 64×64 match3 game a few moves in, and the legal swap with the most cascade levels (then the
/// most events): the state before it and its events.
fn cascade_64() -> (AnyState, Vec<AnyEvent>) {
    let lv = Level::from_json(r#"{"rule_set": "match3", "width": 64, "height": 64}"#).expect("level");
    let game = lv.start(Some(11)).expect("starts");
    let (rules, mut state) = (game.rules, game.state);
    let mut events = Vec::new();
    for _ in 0..8 {
        let cmd = rules.hint(&state).expect("a valid swap");
        events.clear();
        rules.apply(&mut state, &cmd, &mut events).expect("applies");
    }
    let levels = |evs: &[AnyEvent]| {
        evs.iter().filter(|e| matches!(e, AnyEvent::Match3(Match3Event::Scored { .. }))).count()
    };
    let mut best: Option<(usize, usize, Vec<AnyEvent>)> = None;
    for cmd in rules.legal_commands(&state) {
        let mut s = state.clone();
        let mut evs = Vec::new();
        if rules.apply(&mut s, &cmd, &mut evs).is_ok() {
            let key = (levels(&evs), evs.len());
            if best.as_ref().is_none_or(|b| (b.0, b.1) < key) {
                best = Some((key.0, key.1, evs));
            }
        }
    }
    let (cascades, n, events) = best.expect("a legal swap");
    eprintln!("64x64 match3 step: {cascades} cascade levels, {n} events");
    (state, events)
}

/// A 1024×1024 tactics map (plain, forest, hills and walls in stripes) with 64 units.
fn tactics_1024() -> AnyState {
    let rows: Vec<String> = (0..1024)
        .map(|y| (0..1024).map(|x| ['.', '.', 'f', 'h', '.', '#'][(x * 7 + y * 3) % 6]).collect())
        .collect();
    // Units on the first plain cell of every 16th row.
    let units: Vec<String> = (0..64)
        .map(|k| {
            let y = k * 16;
            let x = rows[y].chars().position(|c| c == '.').expect("a plain cell");
            format!(r#"{{"team": {}, "x": {x}, "y": {y}}}"#, k % 2)
        })
        .collect();
    let rows_json: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    let json = format!(
        r#"{{"rule_set": "tactics", "map": [{}], "units": [{}]}}"#,
        rows_json.join(","),
        units.join(",")
    );
    Level::from_json(&json).expect("level").start(None).expect("starts").state
}

fn bench(c: &mut Criterion) {
    let (before, events) = cascade_64();
    let mut after = before.clone();
    let rules = match &before {
        AnyState::Match3(_) => AnyRules::Match3(Default::default()),
        _ => unreachable!("a match3 state"),
    };
    rules.redo(&mut after, &events).expect("recorded events fit");

    let mut group = c.benchmark_group("mirror");
    group.throughput(Throughput::Elements(events.len() as u64));
    group.bench_function("match3 64x64 cascade step: begin_step + apply", |b| {
        b.iter_batched(
            || Mirror::from_state(&before),
            |mut m| {
                m.begin_step();
                for e in &events {
                    m.apply(e);
                }
                m
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("match3 64x64 cascade step: begin_step + unapply", |b| {
        b.iter_batched(
            || Mirror::from_state(&after),
            |mut m| {
                m.begin_step();
                for e in events.iter().rev() {
                    m.unapply(e);
                }
                m
            },
            BatchSize::LargeInput,
        )
    });
    group.throughput(Throughput::Elements(64 * 64));
    group.bench_function("from_state match3 64x64", |b| b.iter(|| black_box(Mirror::from_state(&before))));
    group.finish();

    let big = tactics_1024();
    let mut group = c.benchmark_group("mirror large");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1024 * 1024));
    group.bench_function("from_state tactics 1024x1024", |b| b.iter(|| black_box(Mirror::from_state(&big))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
