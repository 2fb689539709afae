//! One editor frame — layout and tessellation, in a headless `egui::Context` — for a 64×64
//! `match3` board mid-cascade (blocks falling and spawning, ghosts of matched blocks fading).
//!
//! Also the boards the issue names for smoothness: a 256×256 `collapse` board and a 1024×1024
//! tactics map, whole board in view (the worst case: every cell visible).
//!
//! `cargo bench -p tessera-editor --bench frame`
//!
//! Figures of 2026-11-23 (bench profile, a shared 2-core machine at load average about 5,
//! `-- --warm-up-time 1 --measurement-time 4`): match3 64×64 mid-cascade 0.39 ms (target 4 ms;
//! 18.0 ms before the board was drawn into meshes), collapse 256×256 0.58 ms (86 ms before),
//! tactics 1024×1024 0.22 ms (2.4 ms before).
//!
//! 2026-11-24, the plugin redesign against 99f4c81 (the commit before it), both benches built
//! and run alternately at load average about 11: match3 64×64 0.94/0.88 ms before, 0.28/0.30 ms
//! after (−68 %); collapse 256×256 0.39 → 0.36 ms; tactics 1024×1024 0.11 → 0.14 ms by
//! criterion, 0.069 → 0.072 ms of CPU per frame by `perf stat -e task-clock` over 1,000
//! frames. The redesign alone had made the 64×64 frame 8 % slower at equal instruction counts
//! (callgrind): the pieces' meshes grew by doubling, and the copies in `realloc` changed with
//! the heap's layout. Each frame now reserves last frame's mesh sizes (`BoardView::sizes`).

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_core::{AnyCommand, AnyEvent, Level, Rules};
use tessera_editor::{EditorApp, Settings};

/// A 64×64 match3 game and a swap of it whose step cascades (two or more cascade levels).
fn cascading_game() -> (Level, u64, AnyCommand) {
    let level = Level::from_json(r#"{"rule_set":"match3","width":64,"height":64}"#).expect("a 64x64 level");
    for seed in 0..50 {
        let game = level.start(Some(seed)).expect("starts");
        for cmd in game.rules.legal_commands(&game.state) {
            let mut state = game.state.clone();
            let mut events = Vec::new();
            if game.rules.apply(&mut state, &cmd, &mut events).is_ok()
                && events.iter().any(|e| {
                    matches!(
                        e,
                        AnyEvent::Match3(tessera_core::match3::Match3Event::Matched { cascade: 2.., .. })
                    )
                })
            {
                return (level, seed, cmd);
            }
        }
    }
    panic!("no cascading swap found");
}

fn input(time: f64) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        time: Some(time),
        ..Default::default()
    }
}

fn frame(c: &mut Criterion) {
    let (level, seed, cmd) = cascading_game();
    let ctx = egui::Context::default();
    let mut app = EditorApp::new(Settings::default());
    app.open_level(level, seed, "64x64");
    // Settle fonts and layout, then play the swap and stand in the middle of its cascade.
    for i in 0..3 {
        let _ = ctx.run_ui(input(f64::from(i)), |ui| app.ui(ui));
    }
    app.execute(&cmd, 10.0);
    let phases = app.session().mirror().phases();
    assert!(phases >= 4, "the swap cascades ({phases} phases)");
    let mid = 10.0 + 0.14 * 2.5;
    let mut group = c.benchmark_group("editor");
    group.bench_function("frame_match3_64x64_mid_cascade", |b| {
        b.iter(|| {
            let out = ctx.run_ui(input(mid), |ui| app.ui(ui));
            let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
            black_box(prims.len())
        })
    });

    // A 256×256 SameGame board, fitted to the window (every cell in view).
    let big =
        Level::from_json(r#"{"rule_set":"collapse","width":256,"height":256,"colours":5}"#).expect("256x256");
    bench_level(&mut group, &ctx, "frame_collapse_256x256_all_visible", big);

    // A 1024×1024 tactics map (a maze of walls and forest, two units), fitted to the window.
    let mut rows = common::maze_rows(1024);
    rows[0].replace_range(0..1, ".");
    rows[1023].replace_range(1023..1024, ".");
    let json = serde_json::json!({
        "rule_set": "tactics", "map": rows,
        "units": [{"team": 0, "x": 0, "y": 0}, {"team": 1, "x": 1023, "y": 1023}]
    });
    let map = Level::from_json(&json.to_string()).expect("1024x1024 map");
    bench_level(&mut group, &ctx, "frame_tactics_1024x1024_all_visible", map);
    group.finish();
}

/// One frame of the editor playing `level` at rest, whole board in view.
fn bench_level(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    ctx: &egui::Context,
    name: &str,
    level: Level,
) {
    let mut app = EditorApp::new(Settings::default());
    app.open_level(level, 1, name);
    for i in 0..3 {
        let _ = ctx.run_ui(input(f64::from(i)), |ui| app.ui(ui));
    }
    group.bench_function(name, |b| {
        b.iter(|| {
            let out = ctx.run_ui(input(5.0), |ui| app.ui(ui));
            black_box(ctx.tessellate(out.shapes, out.pixels_per_point).len())
        })
    });
}

criterion_group!(benches, frame);
criterion_main!(benches);
