//! Edit mode frames — layout and tessellation in a headless `egui::Context` — on a 1024×1024
//! tactics map, the largest board a level may have, whole map in view: a frame at rest, and a
//! frame of a paint stroke (the pointer held down and moved one cell: the stroke paints the
//! cells between, uploads only those texels, and waits with validation until the stroke ends).
//!
//! `cargo bench -p tessera-editor --bench edit`

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_core::Level;
use tessera_editor::{EditorApp, Mode, Settings};

fn input(time: f64, events: Vec<egui::Event>) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        time: Some(time),
        events,
        ..Default::default()
    }
}

fn edit(c: &mut Criterion) {
    let rows = common::maze_rows(1024);
    let level = Level::from_json(&serde_json::json!({"rule_set": "tactics", "map": rows}).to_string())
        .expect("a 1024x1024 map");
    let path = std::env::temp_dir().join(format!("tessera-edit-bench-{}.json", std::process::id()));
    std::fs::write(&path, level.to_json()).expect("temp file");
    let ctx = egui::Context::default();
    let mut app = EditorApp::new(Settings::default());
    app.set_mode(Mode::Edit);
    app.open(&path);
    std::fs::remove_file(&path).ok();
    assert_eq!(app.edit().draft().size().width, 1024);
    let mut t = 0.0;
    for _ in 0..3 {
        t += 1.0;
        let _ = ctx.run_ui(input(t, Vec::new()), |ui| app.ui(ui));
    }
    let mut group = c.benchmark_group("edit");
    group.sample_size(20);
    group.bench_function("frame_tactics_1024x1024_at_rest", |b| {
        b.iter(|| {
            t += 0.01;
            let out = ctx.run_ui(input(t, Vec::new()), |ui| app.ui(ui));
            black_box(ctx.tessellate(out.shapes, out.pixels_per_point).len())
        })
    });
    // Paint with water (never on this map) so every cell the stroke crosses changes. Press on a
    // cell near the board's middle, then move right one cell per frame.
    app.edit_mut().set_ink(tessera_editor::draft::Ink::Glyph('~'));
    let a = app.edit().cell_centre(tessera_core::Pos::new(100, 500)).expect("drawn");
    let step = app.edit().cell_centre(tessera_core::Pos::new(101, 500)).expect("drawn") - a;
    let press = egui::Event::PointerButton {
        pos: a,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Default::default(),
    };
    let _ = ctx.run_ui(input(t, vec![egui::Event::PointerMoved(a), press]), |ui| app.ui(ui));
    let mut at = a;
    group.bench_function("frame_tactics_1024x1024_painting", |b| {
        b.iter(|| {
            t += 0.01;
            at += step;
            if at.x > a.x + step.x * 800.0 {
                at = a;
            }
            let out = ctx.run_ui(input(t, vec![egui::Event::PointerMoved(at)]), |ui| app.ui(ui));
            black_box(ctx.tessellate(out.shapes, out.pixels_per_point).len())
        })
    });
    group.finish();
    let water =
        app.edit().draft().cells().iter().filter(|c| **c == tessera_editor::draft::Ink::Glyph('~')).count();
    assert!(water > 100, "the stroke painted ({water} cells)");
}

criterion_group!(benches, edit);
criterion_main!(benches);
