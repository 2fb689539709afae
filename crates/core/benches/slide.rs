//! 2048 speed: random 4×4 playouts, slides per second, events into a reused buffer, spawns
//! included. Run: `cargo bench -p tessera-core --bench slide`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_core::slide::{SlideCommand, SlideConfig, SlideEvent, SlideRules, SlideState};
use tessera_core::{Dir, Rules, Size, Status};

/// Plays `slides` accepted slides: random directions from a cheap xorshift (not the game's
/// generator, which the spawns use), starting a new game whenever one ends.
fn playout(rules: &SlideRules, slides: u64, seed: u64, events: &mut Vec<SlideEvent>) -> u64 {
    let size = Size::new(4, 4, 256).unwrap();
    let mut game = SlideState::new_game(size, &SlideConfig::default(), seed);
    let mut x = seed | 1;
    let mut done = 0;
    let mut games = 0;
    while done < slides {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let dir = Dir::ALL[(x >> 62) as usize];
        events.clear();
        if rules.apply(&mut game, &SlideCommand::Slide(dir), events).is_ok() {
            done += 1;
            if matches!(events.last(), Some(SlideEvent::GameOver)) {
                games += 1;
                game = SlideState::new_game(size, &SlideConfig::default(), seed + games);
            }
        }
    }
    debug_assert!(rules.status(&game) != Status::Over);
    games
}

fn bench(c: &mut Criterion) {
    let rules = SlideRules::default();
    let mut events = Vec::with_capacity(64);
    let mut group = c.benchmark_group("slide");
    const N: u64 = 100_000;
    group.throughput(Throughput::Elements(N));
    group.bench_function("random 4x4 playouts, 100k slides", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            black_box(playout(&rules, N, seed, &mut events))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
