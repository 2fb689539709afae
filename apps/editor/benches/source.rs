//! The source pane's colouring on a 2,000-line PuzzleScript game (the warehouse game's rules and
//! levels repeated): tokenizing it into the reference's token classes, laying it out in colour
//! (what a keystroke costs), and a frame of the source editor at rest, layout kept (what every
//! other frame costs: the text compared with the kept one, the kept galley drawn).
//!
//! `cargo bench -p tessera-editor --bench source`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_editor::source_editor::{SourceEditor, layout_job};
use tessera_editor::syntax;

/// A game of at least `lines` lines: the warehouse game with its rules and levels repeated.
fn big_game(lines: usize) -> String {
    let base = include_str!("../../../fixtures/games/warehouse.txt");
    let (head, levels) = base.split_once("\nLEVELS").expect("a LEVELS section");
    let (pre, rules) = head.split_once("\nRULES").expect("a RULES section");
    let (rules, after) = rules.split_once("\nWINCONDITIONS").expect("WINCONDITIONS");
    let mut out = format!("{pre}\nRULES");
    let mut n = out.lines().count();
    let rule_lines: Vec<&str> = rules.lines().collect();
    while n < lines / 2 {
        for l in &rule_lines {
            out.push_str(l);
            out.push('\n');
        }
        n += rule_lines.len();
    }
    out.push_str("\nWINCONDITIONS");
    out.push_str(after);
    out.push_str("\nLEVELS");
    while out.lines().count() < lines {
        out.push_str(levels);
    }
    out
}

fn input(time: f64) -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
        time: Some(time),
        ..Default::default()
    }
}

fn source(c: &mut Criterion) {
    let text = big_game(2000);
    assert!(text.lines().count() >= 2000);
    let mut group = c.benchmark_group("source");
    group.sample_size(30);
    group.bench_function("tokens_2000_lines", |b| {
        b.iter(|| black_box(syntax::tokens(black_box(&text)).len()))
    });
    let tokens = syntax::tokens(&text);
    let font = egui::FontId::monospace(12.0);
    let ctx = egui::Context::default();
    let _ = ctx.run_ui(input(0.0), |_| {});
    let mut grey = 0u8;
    group.bench_function("colour_and_lay_out_2000_lines", |b| {
        b.iter(|| {
            grey = grey.wrapping_add(1);
            let toks = syntax::tokens(&text);
            let plain = egui::Color32::from_gray(grey);
            let job = layout_job(&text, &toks, &[], &font, 16.0, plain, true);
            // A new text each time: the fonts' own cache would otherwise answer.
            black_box(ctx.fonts_mut(|f| f.layout_job(job)).rows.len())
        })
    });
    black_box(tokens.len());
    let mut editor = SourceEditor::new(egui::Id::unique("bench-source"), text.clone());
    let mut t = 0.0;
    for _ in 0..3 {
        t += 1.0;
        let _ = ctx.run_ui(input(t), |ui| {
            editor.ui(ui);
        });
    }
    group.bench_function("frame_2000_lines_layout_kept", |b| {
        b.iter(|| {
            t += 0.01;
            let out = ctx.run_ui(input(t), |ui| {
                editor.ui(ui);
            });
            black_box(ctx.tessellate(out.shapes, out.pixels_per_point).len())
        })
    });
    group.finish();
}

criterion_group!(benches, source);
criterion_main!(benches);
