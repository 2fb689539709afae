//! Sokoban speed: the push solver on fixed levels (the first Boxoban `unfiltered` and `medium`
//! levels, written here so the bench needs no file, and the fixture level, Original 1), and
//! pushes per second through the rules. Times one whole solve per iteration.
//!
//! Run: `cargo bench -p tessera-core --bench sokoban`. The 1,000-level runs over the shared
//! Boxoban files are `examples/sokoban_boxoban.rs`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_core::sokoban::{
    SokobanCommand, SokobanRules, SokobanState, SolveLimits, SolveOutcome, parse_board, solve,
};
use tessera_core::{Dir, Rules};

/// `unfiltered_test_000.txt`, level 0.
const UNFILTERED_0: [&str; 10] = [
    "##########",
    "###    . #",
    "## .   $.#",
    "##    .$ #",
    "#####    #",
    "####   ###",
    "##### $###",
    "#####$ ###",
    "#####@####",
    "##########",
];

/// `medium_valid_000.txt`, level 0.
const MEDIUM_0: [&str; 10] = [
    "##########",
    "#       ##",
    "# $    ###",
    "#. ## . ##",
    "# ####  ##",
    "#   #   ##",
    "#$$ #. ###",
    "# # # $@##",
    "# .    ###",
    "##########",
];

/// Original 1 (Thinking Rabbit, 1982): the fixture level.
const ORIGINAL_1: [&str; 11] = [
    "    #####          ",
    "    #   #          ",
    "    #$  #          ",
    "  ###  $##         ",
    "  #  $ $ #         ",
    "### # ## #   ######",
    "#   # ## #####  ..#",
    "# $  $          ..#",
    "##### ### #@##  ..#",
    "    #     #########",
    "    #######        ",
];

fn level(rows: &[&str]) -> SokobanState {
    let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
    parse_board(&rows, 0).unwrap_or_else(|e| panic!("bench level refused: {e}"))
}

fn solver(c: &mut Criterion) {
    let mut g = c.benchmark_group("sokoban_solve");
    for (name, rows) in
        [("unfiltered_0", &UNFILTERED_0[..]), ("medium_0", &MEDIUM_0[..]), ("original_1", &ORIGINAL_1[..])]
    {
        let s = level(rows);
        let report = solve(&s, SolveLimits::default(), &mut || false);
        assert!(matches!(report.outcome, SolveOutcome::Solved(_)), "{name}: {report:?}");
        g.throughput(Throughput::Elements(report.nodes));
        g.bench_function(name, |b| b.iter(|| solve(black_box(&s), SolveLimits::default(), &mut || false)));
    }
    g.finish();
}

/// One push and its undo, 1,000 times per iteration, on a 10×10 level: the cost of a push
/// through the rules (events into a reused buffer) and of taking it back.
fn pushes(c: &mut Criterion) {
    let mut rows = vec!["##########".to_string(), "#.@$     #".to_string()];
    for _ in 0..7 {
        rows.push("#        #".into());
    }
    rows.push("##########".into());
    let start = parse_board(&rows, 0).unwrap_or_else(|e| panic!("{e}"));
    let rules = SokobanRules;
    let push = SokobanCommand::Step(Dir::Right);
    let mut g = c.benchmark_group("sokoban_play");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("push_and_undo_1000", |b| {
        let mut events = Vec::with_capacity(4);
        let mut s = start.clone();
        b.iter(|| {
            for _ in 0..1000 {
                events.clear();
                let pushed = rules.apply(&mut s, black_box(&push), &mut events);
                assert!(pushed.is_ok());
                rules.undo(&mut s, &events);
            }
            black_box(s.hash())
        })
    });
    g.finish();
}

criterion_group!(benches, solver, pushes);
criterion_main!(benches);
