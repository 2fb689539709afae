//! match3 speed: random valid swaps on a 9×9 board with 6 breeds, resolved swaps per second:
//! cascades, refill, the dead-board check (and the rare shuffle) included, events into a reused
//! buffer. Run: `cargo bench -p tessera-core --bench match3`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_core::match3::{Match3Command, Match3Event, Match3Level, Match3Rules, Match3State};
use tessera_core::{Pos, Rules, Status};

fn start(seed: u64) -> (Match3Rules, Match3State) {
    // The standard level is 9×9 with 6 breeds; it cannot fail to start.
    Match3Level::standard().start(seed).expect("the standard level starts")
}

/// Plays `swaps` resolved swaps, each a valid swap picked at random: random cells and directions
/// from a cheap xorshift (not the game's generator) until one makes a run.
fn playout(swaps: u64, seed: u64, events: &mut Vec<Match3Event>) -> u64 {
    let (rules, mut game) = start(seed);
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut done = 0;
    let mut cascades = 0;
    while done < swaps {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let cell = (x >> 32) % 81;
        let a = Pos::new((cell % 9) as u16, (cell / 9) as u16);
        let b = if x & 1 == 0 { Pos::new(a.x + 1, a.y) } else { Pos::new(a.x, a.y + 1) };
        if !game.swap_makes_run(a, b) {
            continue;
        }
        events.clear();
        if rules.apply(&mut game, &Match3Command::Swap(a, b), events).is_ok() {
            done += 1;
            cascades += events.iter().filter(|e| matches!(e, Match3Event::Scored { .. })).count() as u64;
        }
        debug_assert_eq!(rules.status(&game), Status::Playing);
    }
    cascades
}

fn bench(c: &mut Criterion) {
    let mut events = Vec::with_capacity(256);
    let mut group = c.benchmark_group("match3");
    const N: u64 = 20_000;
    group.throughput(Throughput::Elements(N));
    group.bench_function("random valid swaps 9x9 6 breeds, 20k resolved swaps", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            black_box(playout(N, seed, &mut events))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
