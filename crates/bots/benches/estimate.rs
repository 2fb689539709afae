//! The difficulty estimate's cost per level at the default budget ([`Limits::default`]):
//! `cargo bench -p tessera-bots --bench estimate`. Measured by the benchmark thread's CPU time
//! (the machine is shared; one core's work is what the 2 s target is about).
//!
//! Levels: the fixture game `warehouse.txt`'s second level (a small PuzzleScript level), and,
//! when PuzzleScript's suite is in `../shared` (`TESSERA_SUITE` names another copy), its game
//! "Boxes & Balloons", the suite game whose levels cost the estimate most in the
//! `difficulty_fit` run (its heaviest levels spend the whole budget); and the
//! first Boxoban medium level when the Boxoban files are there.

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tessera_bots::estimate::{Limits, estimate_level};
use tessera_core::Level;

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

fn ps_level(source: &str, k: usize) -> Option<Level> {
    tessera_core::puzzlescript::import_level(source, None, k).ok()?.0.map(|l| l.level)
}

fn levels() -> Vec<(String, Level)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut out = Vec::new();
    if let Ok(text) = std::fs::read_to_string(format!("{root}/fixtures/games/warehouse.txt"))
        && let Some(l) = ps_level(&text, 2)
    {
        out.push(("warehouse_2".into(), l));
    }
    let suite = std::env::var("TESSERA_SUITE").unwrap_or_else(|_| {
        format!("{root}/../shared/benchmarks/puzzlescript/reference/tests/resources/testdata.js")
    });
    if let Ok(text) = std::fs::read_to_string(&suite)
        && let Ok(cases) = tessera_core::puzzlescript::engine::suite::parse_testdata(&text)
        && let Some(case) = cases.iter().find(|c| c.source.contains("title Boxes & Balloons"))
    {
        for k in [5, 22] {
            if let Some(l) = ps_level(&case.source, k) {
                out.push((format!("boxes_and_balloons_{k}"), l));
            }
        }
    }
    if let Ok(text) =
        std::fs::read_to_string(format!("{root}/../shared/benchmarks/boxoban/medium_valid_000.txt"))
        && let Ok(mut ls) = tessera_core::sokoban::parse_levels(&text)
        && !ls.is_empty()
    {
        out.push(("boxoban_medium_0".into(), ls.swap_remove(0).1));
    }
    out
}

fn bench(c: &mut Criterion<CpuTime>) {
    let mut g = c.benchmark_group("estimate_cpu");
    g.sample_size(10);
    let limits = Limits::default();
    for (name, level) in levels() {
        g.bench_function(name, |b| b.iter(|| black_box(estimate_level(&level, &limits).ok())));
    }
    g.finish();
}

criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(CpuTime);
    targets = bench
}
criterion_main!(cpu);
