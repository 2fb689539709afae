//! SameGame speed: full random playouts (start to game over) on 15×15 boards of 5 colours with
//! the benchmark rules (`Left` compaction, `Standard` score), playouts per second. Each move is
//! uniform over the groups (`groups_into` into reused buffers), events go into a reused buffer.
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

/// Plays `start` to game over, each tap uniform over the groups (a cheap xorshift picks, not
/// the game's generator); returns the score.
fn playout(rules: &CollapseRules, start: &CollapseState, seed: u64, b: &mut Scratch) -> u64 {
    let mut s = start.clone();
    let mut x = seed | 1;
    loop {
        b.groups.clear();
        rules.groups_into(&s, &mut b.labels, &mut b.groups);
        if b.groups.is_empty() {
            return s.score();
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let g = b.groups[(((x >> 32) * b.groups.len() as u64) >> 32) as usize];
        b.events.clear();
        // Every listed group is a legal tap.
        let _ = rules.apply(&mut s, &CollapseCommand::Tap(g.at), &mut b.events);
    }
}

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
    group.bench_function("random playouts 15x15, 5 colours, left + standard (100 per iteration)", |bench| {
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
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
