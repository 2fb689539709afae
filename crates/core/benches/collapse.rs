//! SameGame speed: full random playouts (start to game over) on 15×15 boards of 5 colours with
//! the benchmark rules (`Left` compaction, `Standard` score), playouts per second. Each tap is
//! uniform over the groups; events go into a reused buffer. Two ways to draw the tap:
//! - `random_group` (rejection sampling, uniform over groups): the engine as a bot would use it;
//! - `groups_into` (list every group, pick one): the cost of a full group listing every tap.
//!
//! Run: `cargo bench -p tessera-core --bench collapse`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_core::collapse::{
    CollapseCommand, CollapseConfig, CollapseEvent, CollapseRules, CollapseState, Group, GroupScratch,
};
use tessera_core::{Rules, Size};

/// Buffers reused across playouts.
struct Scratch {
    events: Vec<CollapseEvent>,
    groups: Vec<Group>,
    labels: GroupScratch,
}

/// A cheap xorshift (not the game's generator): `below(n)` by multiply-shift.
fn draws(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut x = seed | 1;
    move |n| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (((x >> 32) * u64::from(n)) >> 32) as u32
    }
}

/// Plays `start` to game over with `random_group`; returns the score.
fn playout_sampled(rules: &CollapseRules, start: &CollapseState, seed: u64, b: &mut Scratch) -> u64 {
    let mut s = start.clone();
    let mut below = draws(seed);
    while let Some(g) = rules.random_group(&s, &mut b.labels, &mut below) {
        b.events.clear();
        // A sampled group is a legal tap.
        let _ = rules.apply(&mut s, &CollapseCommand::Tap(g.at), &mut b.events);
    }
    s.score()
}

/// Plays `start` to game over listing every group each tap; returns the score.
fn playout_listed(rules: &CollapseRules, start: &CollapseState, seed: u64, b: &mut Scratch) -> u64 {
    let mut s = start.clone();
    let mut below = draws(seed);
    loop {
        b.groups.clear();
        rules.groups_into(&s, &mut b.labels, &mut b.groups);
        if b.groups.is_empty() {
            return s.score();
        }
        let g = b.groups[below(b.groups.len() as u32) as usize];
        b.events.clear();
        let _ = rules.apply(&mut s, &CollapseCommand::Tap(g.at), &mut b.events);
    }
}

type Playout = fn(&CollapseRules, &CollapseState, u64, &mut Scratch) -> u64;

fn bench(c: &mut Criterion) {
    let rules = CollapseRules::new(CollapseConfig::standard());
    let size = Size::new(15, 15, 256).unwrap();
    const N: usize = 100;
    let boards: Vec<CollapseState> =
        (0..N as u64).map(|seed| CollapseState::new_game(size, 5, seed)).collect();
    let mut b = Scratch {
        events: Vec::with_capacity(1024),
        groups: Vec::with_capacity(256),
        labels: GroupScratch::default(),
    };
    let mut group = c.benchmark_group("collapse");
    group.throughput(Throughput::Elements(N as u64));
    let playouts: [(&str, Playout); 2] = [
        (
            "random playouts 15x15, 5 colours, left + standard, random_group (100 per iteration)",
            playout_sampled,
        ),
        (
            "random playouts 15x15, 5 colours, left + standard, groups_into (100 per iteration)",
            playout_listed,
        ),
    ];
    for (name, playout) in playouts {
        group.bench_function(name, |bench| {
            let mut round = 0u64;
            bench.iter(|| {
                round += 1;
                let mut total = 0;
                for (i, start) in boards.iter().enumerate() {
                    total += playout(&rules, start, round * 1_000 + i as u64, &mut b);
                }
                black_box(total)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
