//! Bot speed: 2048 bitboard random playouts (slides per second) and expectimax decisions,
//! SameGame NMCS playouts, match-3 bot games. Run: `cargo bench -p tessera-bots`.
//!
//! The group `bots` measures wall-clock time, as usual. The group `bots_cpu` measures the two
//! playout loops again by the benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): on the
//! shared 2-core machine, where other builds take the CPU away, that figure does not depend on
//! the load (the wall-clock one does; give the load average with it). It is not entirely
//! load-free either: the two cores are hyperthread-like vCPUs, and a busy sibling slows a thread
//! per CPU-second (the slide figure fell to 26 M/CPU-s at load 7 from 33 M at load 3).
//!
//! Figures of 2026-11-23, one run at load average 2.8: random 4×4 slides 27.0 M/s wall,
//! 32.9 M per CPU-second; SameGame 15×15 playouts from the full board 14.0 k/s wall, 16.9 k per
//! CPU-second (NMCS averages about 29 k per CPU-second, its playouts starting deeper). At load
//! 1.2 the slides ran at 34.1 M/s wall (and 27.9 M per CPU-second in the run after it, when
//! something else took the sibling vCPU: compare figures from the same run only).

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tessera_bots::games::collapse::{self, Nmcs};
use tessera_bots::games::slide::{self, Board, ExpectimaxBot, ExpectimaxConfig};
use tessera_bots::{BotRng, BotSpec, Budget, GameConfig, make_bot, play_game};
use tessera_core::collapse::{CollapseConfig, CollapseRules, CollapseState};
use tessera_core::{Level, Size};

const FOUR: u32 = u32::MAX / 10 + 1; // 1/10 in 2^32

/// A new game's board: two spawns on an empty board.
fn fresh(rng: &mut BotRng) -> Board {
    slide::spawn(slide::spawn(0, rng, FOUR), rng, FOUR)
}

/// Exactly `n` slides of random 4×4 play (see [`slide::random_slides`]).
fn random_slides(n: u64, rng: &mut BotRng) -> Board {
    slide::random_slides(fresh(rng), n, rng, FOUR).0
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("bots");
    // Slides per second: moves applied (one slide that changes the board, plus its spawn), with
    // a new game started (uncounted) whenever one ends.
    const N: u64 = 1_000_000;
    g.throughput(Throughput::Elements(N));
    let mut rng = BotRng::new(1);
    g.bench_function("slide_bitboard_random_slides", |b| b.iter(|| black_box(random_slides(N, &mut rng))));

    // Expectimax decisions from mid-game boards (default adaptive depth).
    let boards: Vec<Board> = (0..32).map(|i| random_slides(150 + i, &mut BotRng::new(i))).collect();
    g.throughput(Throughput::Elements(boards.len() as u64));
    let mut bot = ExpectimaxBot::new(0, ExpectimaxConfig::default());
    g.bench_function("slide_expectimax_moves", |b| {
        b.iter(|| {
            for &board in &boards {
                let depth = if slide::empty_mask(board).count_ones() <= 4 { 3 } else { 2 };
                black_box(bot.best_dir(board, depth));
            }
        })
    });

    collapse_playouts(&mut g);

    // Match-3 games with objectives (the locks fixture: 3000 points in 25 moves).
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/levels/match3_locks.json"
    ))
    .expect("fixture");
    let level = Level::from_json(&text).expect("level");
    g.throughput(Throughput::Elements(1));
    g.sample_size(10);
    for (name, budget) in [("match3-greedy", None), ("match3-mcts", Some(Budget::Playouts(100)))] {
        let spec = BotSpec { budget, ..BotSpec::new(tessera_bots::BotKind::from_name(name).unwrap()) };
        let mut seed = 0;
        g.bench_function(format!("{name}_games"), |b| {
            b.iter(|| {
                seed += 1;
                let mut game = level.start(Some(seed)).unwrap();
                let mut bot = make_bot(&spec, game.rules.rule_set(), seed).unwrap();
                black_box(play_game(
                    &game.rules,
                    &mut game.state,
                    &mut bot,
                    &GameConfig::default(),
                    |_, _, _, _| {},
                ))
            })
        });
    }
    g.finish();
}

/// Criterion measuring the benchmark thread's CPU time.
struct CpuTime;

fn cpu_now() -> Duration {
    tessera_bots::games::collapse::thread_cpu_time().unwrap_or_default()
}

impl Measurement for CpuTime {
    type Intermediate = Duration;
    type Value = Duration;
    fn start(&self) -> Duration {
        cpu_now()
    }
    fn end(&self, start: Duration) -> Duration {
        cpu_now().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

/// SameGame random playouts (tabu colour) on a 15×15, 5-colour board (the standard test-set
/// shape), on the search board, as NMCS runs them: 100 per iteration.
fn collapse_playouts<M: Measurement>(g: &mut criterion::BenchmarkGroup<'_, M>) {
    let rules = CollapseRules::new(CollapseConfig::standard());
    let state = CollapseState::new_game(Size::new(15, 15, 256).unwrap(), 5, 3);
    let start = collapse::Board::from_state(&state);
    let mut search = Nmcs::new(&rules.config, 1, None);
    g.throughput(Throughput::Elements(100));
    g.bench_function("collapse_nmcs_playouts", |b| {
        let (mut board, mut line) = (start.clone(), Vec::new());
        b.iter(|| {
            for _ in 0..100 {
                board.copy_from(&start);
                line.clear();
                black_box(search.playout(&mut board, &mut line));
            }
        })
    });
}

/// The playout loops, by CPU time (see the module docs).
fn bench_cpu(c: &mut Criterion<CpuTime>) {
    let mut g = c.benchmark_group("bots_cpu");
    const N: u64 = 1_000_000;
    g.throughput(Throughput::Elements(N));
    let mut rng = BotRng::new(1);
    g.bench_function("slide_bitboard_random_slides", |b| b.iter(|| black_box(random_slides(N, &mut rng))));
    collapse_playouts(&mut g);
    g.finish();
}

criterion_group!(benches, bench);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(CpuTime);
    targets = bench_cpu
}
criterion_main!(benches, cpu);
