//! Debug mode benchmark: opening a 1,000,000-step log and showing step 999,999 (target: under
//! 100 ms, what a user waits for).
//!
//! The log: 2048 on a 12×12 board, seed 1, every command chosen by a fixed priority (down, else
//! left, else right, else up), as `crates/replay/benches/log.rs` makes it; recorded once with the
//! default keyframe interval and written to a temporary file before anything is measured.
//!
//! Measured, per iteration: `EditorApp::open` of the file (`Log::open`: read, check every frame's
//! length and crc, index), the seek to step 999,999 (two `Log::state_at`, a mirror built and the
//! step's events applied) and one frame of the editor in Debug mode run in a headless
//! `egui::Context` and tessellated (the step list reads only its visible rows). The context is
//! warmed up by one frame first, as in a running editor (fonts loaded). Dropping the previous
//! iteration's log is inside the measurement. A second figure does the same through `DebugView`
//! alone.
//!
//! The filter (issue 21): `find::run` over the same log, one query per term kind — an event
//! kind (`event:Merged`), a cell (`cell:5,5`, every event projected to mirror ops), command
//! text (`left`) and a score change (`score>=256`, the recorded events redone from the start);
//! target under 1 s each, what the Debug view's filter box then takes on its thread. Figures of
//! 2026-11-24 (`cargo bench -p tessera-editor --bench debug -- --warm-up-time 1
//! --measurement-time 4 "debug filter"`, a shared 2-core machine at load average 9.5): 119 ms
//! (`event:Merged`), 163 ms (`cell:5,5`), 179 ms (`left`), 367 ms (`score>=256`).
//!
//! Find on a 326,000-step PuzzleScript log (issue 36.12: QA met 2–2.5 s; target under 1 s),
//! one thread and all cores in the same run. Figures of 2026-11-27 (`cargo bench -p
//! tessera-editor --bench debug -- --warm-up-time 1 --measurement-time 4 "debug find"`, this
//! 2-core machine at a load under 1): an object's name (`crate`), `event:Moved` and `cell:12,8`
//! 0.67 s on one thread and 0.34–0.38 s on both cores; command words (`left`, read from the
//! commands alone) 39 ms and 21 ms, from 1.28 s when every step's events were read.
//!
//! Run: `cargo bench -p tessera-editor --bench debug`.
//!
//! Figures of 2026-11-23 (bench profile, a shared 2-core machine, load average 5.4 falling to
//! 1.9 during the run; `cargo bench -p tessera-editor --bench frame --bench debug --
//! --warm-up-time 1 --measurement-time 4`): 61.4 ms (EditorApp) and 61.9 ms (DebugView), from
//! 152 ms and 153 ms before (load 6.8). What it took (profiled with `perf`): the log is read
//! into memory advised to use huge pages (most of the time was the kernel faulting in and
//! zeroing 20,000 fresh 4 KiB pages), each frame's crc is one call with a copy of one hasher
//! (`Hasher::new` detects CPU features every time), and no error value is built per frame.
//! What remains is about half crc, a quarter copying and zeroing the 80 MB, a fifth walking the
//! frames; the seek and the frame are under a millisecond.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::OnceLock;
use tessera_core::slide::{SlideCommand, SlideLevel};
use tessera_core::{AnyCommand, Dir, Level, Rules};
use tessera_editor::anim::Speed;
use tessera_editor::debug::DebugView;
use tessera_editor::{EditorApp, Settings};
use tessera_replay::{DEFAULT_KEYFRAME_INTERVAL, Header, LogWriter};

const STEPS: u64 = 1_000_000;
const SHOW: u64 = 999_999;

/// Writes the log once; its path.
fn log_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let level = Level::Slide(SlideLevel { width: Some(12), height: Some(12), ..SlideLevel::default() });
        let mut game = level.start(Some(1)).expect("the level starts");
        let header = Header::new(&level, 1, DEFAULT_KEYFRAME_INTERVAL).expect("a header");
        let mut w = LogWriter::new(Vec::new(), &header, &game.state).expect("writes to memory");
        let order =
            [Dir::Down, Dir::Left, Dir::Right, Dir::Up].map(|d| AnyCommand::Slide(SlideCommand::Slide(d)));
        let mut events = Vec::new();
        'steps: while w.steps() < STEPS {
            for c in &order {
                events.clear();
                if game.rules.apply(&mut game.state, c, &mut events).is_ok() {
                    w.record(c, &events, &game.state).expect("writes");
                    continue 'steps;
                }
            }
            panic!("the game ended after {} steps", w.steps());
        }
        let bytes = w.into_inner();
        let path = std::env::temp_dir().join(format!("tessera-debug-bench-{}.tlog", std::process::id()));
        tessera_replay::atomic_write(&path, &bytes).expect("the temp folder is writable");
        println!("log: {STEPS} steps, {:.1} MB at {}", bytes.len() as f64 / 1e6, path.display());
        path
    })
}

fn input() -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        ..Default::default()
    }
}

fn open_and_show(c: &mut Criterion) {
    let path = log_path();
    let mut group = c.benchmark_group("debug");
    group.sample_size(10);

    let ctx = egui::Context::default();
    let mut warm = EditorApp::new(Settings::default());
    ctx.run_ui(input(), |ui| warm.ui(ui)).textures_delta.clear();
    group.bench_function("open 1M-step log + show step 999,999 (EditorApp)", |b| {
        b.iter(|| {
            let mut app = EditorApp::new(Settings::default());
            app.open(path);
            assert_eq!(app.error(), None);
            app.debug_mut().seek(SHOW);
            let mut out = ctx.run_ui(input(), |ui| app.ui(ui));
            out.textures_delta.clear();
            let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
            assert_eq!(app.debug().debugger().map(|d| d.step()), Some(SHOW));
            black_box(prims);
        })
    });

    let ctx = egui::Context::default();
    let mut empty = DebugView::default();
    ctx.run_ui(input(), |ui| {
        let _ = empty.ui(ui, Speed::Instant);
    })
    .textures_delta
    .clear();
    group.bench_function("open 1M-step log + show step 999,999 (DebugView)", |b| {
        b.iter(|| {
            let log = tessera_replay::Log::open(path).expect("opens");
            let mut view = DebugView::default();
            view.open_log(log, Some(path.clone()));
            view.seek(SHOW);
            let mut out = ctx.run_ui(input(), |ui| {
                let _ = view.ui(ui, Speed::Instant);
            });
            out.textures_delta.clear();
            black_box(ctx.tessellate(out.shapes, out.pixels_per_point));
        })
    });
    group.finish();
    std::fs::remove_file(path).ok();
}

fn filter(c: &mut Criterion) {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use tessera_editor::find::{Query, run};
    let log = tessera_replay::Log::open(log_path()).expect("opens");
    let mut group = c.benchmark_group("debug filter 1M steps");
    group.sample_size(10);
    for text in ["event:Merged", "cell:5,5", "left", "score>=256"] {
        let query: Query = text.parse().expect("a query");
        group.bench_function(text, |b| {
            b.iter(|| {
                let found = run(&log, &query, &AtomicU64::new(0), &AtomicBool::new(false));
                black_box(found.expect("scans").expect("not cancelled").len())
            })
        });
    }
    group.finish();
}

/// Steps in the PuzzleScript log Find is timed on (issue 36.12: the size QA met).
const PS_STEPS: u64 = 326_000;

/// A PuzzleScript log of [`PS_STEPS`] steps: the warehouse game's rules on a 24×16 room of 8
/// crates and 8 targets, moved at random (a fixed xorshift; refused moves skipped) so that
/// crates are pushed about the room, with the action key one time in five.
fn puzzlescript_log() -> tessera_replay::Log {
    use tessera_core::puzzlescript::PuzzleScriptCommand as C;
    let source = include_str!("../../../fixtures/games/warehouse.txt");
    let (head, _) = source.split_once("\nLEVELS").expect("a LEVELS section");
    let mut room = String::from("##########################\n");
    for y in 0..16 {
        room.push('#');
        for x in 0..24 {
            room.push(match (x, y) {
                (1, 1) => 'P',
                (x, 4) if x % 3 == 0 => '*',
                (x, 11) if x % 3 == 0 => 'O',
                _ => '.',
            });
        }
        room.push_str("#\n");
    }
    room.push_str("##########################\n");
    let game = format!("{head}\nLEVELS\n\n{room}");
    let (level, _) = tessera_core::puzzlescript::import_level(&game, Some("find.txt"), 1).expect("imports");
    let level = level.expect("one level").level;
    let mut g = level.start(Some(1)).expect("the level starts");
    let header = Header::new(&level, 1, DEFAULT_KEYFRAME_INTERVAL).expect("a header");
    let mut w = LogWriter::new(Vec::new(), &header, &g.state).expect("writes to memory");
    // The action too: the game's action rules fade a cell at random (a `Cell` and an `Aux`
    // event with the generator's state, the heaviest events to read).
    let moves = [C::Up, C::Down, C::Left, C::Right, C::Action].map(AnyCommand::PuzzleScript);
    let (mut x, mut events) = (0x9E37_79B9_7F4A_7C15u64, Vec::new());
    while w.steps() < PS_STEPS {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let c = &moves[(x % 5) as usize];
        events.clear();
        if g.rules.apply(&mut g.state, c, &mut events).is_ok() {
            w.record(c, &events, &g.state).expect("writes");
        }
        let tessera_core::AnyState::PuzzleScript(st) = &g.state else { unreachable!("a PuzzleScript game") };
        assert!(!st.is_won(), "random play won the room after {} steps", w.steps());
    }
    tessera_replay::Log::from_bytes(w.into_inner(), tessera_replay::TailPolicy::Strict).expect("reads back")
}

/// Debug's Find (issue 36.12) on a 326,000-step PuzzleScript log: an object's name (`crate`,
/// the steps that moved one), an event kind, a cell and command text, as the filter box runs
/// them (`find::run`, the query resolved by the rule set as the Debug view resolves it).
fn find_puzzlescript(c: &mut Criterion) {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use tessera_editor::find::{Query, run_on};
    let log = puzzlescript_log();
    let state = log.state_at(0).expect("the start");
    let game = tessera_editor::games::of(log.rules().rule_set()).expect("PuzzleScript");
    let mut group = c.benchmark_group("debug find 326k PuzzleScript steps");
    group.sample_size(10);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for text in ["crate", "event:Moved", "cell:12,8", "left"] {
        let mut query: Query = text.parse().expect("a query");
        query.resolve(|w| game.event_filter(&state, w));
        for (threads, name) in [(1, "one thread"), (cores, "all cores")] {
            group.bench_function(format!("{text} ({name})"), |b| {
                b.iter(|| {
                    let found = run_on(&log, &query, threads, &AtomicU64::new(0), &AtomicBool::new(false));
                    black_box(found.expect("scans").expect("not cancelled").len())
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, filter, find_puzzlescript, open_and_show);
criterion_main!(benches);
