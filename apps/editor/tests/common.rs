//! Building the editor in a test harness, and finding the fixtures.

use egui_kittest::Harness;
use std::path::PathBuf;
use tessera_core::{AnyState, Pos};
use tessera_editor::{EditorApp, Settings};

/// The workspace's `fixtures/` folder.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// The editor on the default level, in a 1280×800 window.
pub fn editor() -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), EditorApp::new(Settings::default()))
}

/// The editor with `fixtures/<rel>` opened.
pub fn editor_with(rel: &str) -> Harness<'static, EditorApp> {
    let mut h = editor();
    h.state_mut().open(&fixtures().join(rel));
    h.run();
    assert_eq!(h.state().error(), None, "opening {rel}");
    h
}

/// The current game state.
pub fn state(h: &Harness<'_, EditorApp>) -> AnyState {
    h.state().session().state().clone()
}

/// Clicks the centre of board cell `p` (Play board) and runs the frames that follow.
pub fn click_cell(h: &mut Harness<'_, EditorApp>, p: Pos) {
    let at = h.state().board().cell_centre(p).expect("the board was drawn");
    h.hover_at(at);
    h.run();
    h.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Default::default(),
    });
    h.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: Default::default(),
    });
    h.run();
}

/// Drags from the centre of cell `from` to the centre of cell `to` with the primary button.
pub fn drag_cells(h: &mut Harness<'_, EditorApp>, from: Pos, to: Pos) {
    let a = h.state().board().cell_centre(from).expect("the board was drawn");
    let b = h.state().board().cell_centre(to).expect("the board was drawn");
    h.hover_at(a);
    h.run();
    h.event(egui::Event::PointerButton {
        pos: a,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Default::default(),
    });
    h.run();
    for i in 1..=6 {
        h.hover_at(a + (b - a) * (i as f32 / 6.0));
        h.run();
    }
    h.event(egui::Event::PointerButton {
        pos: b,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: Default::default(),
    });
    h.run();
}

/// The problems Edit lists under "Not playable", one a line ("" when it plays).
pub fn problems_shown(h: &Harness<'_, EditorApp>) -> String {
    use egui_kittest::kittest::Queryable;
    let lines: Vec<String> =
        h.query_all_by_label_contains("• ").map(|n| n.value().unwrap_or_default()).collect();
    lines.join("\n")
}

/// The editor as `main` starts it, at 1280×800, keeping unsaved edits in `dir` (written at
/// once, so the test needs no clock) and finding what a run before left there.
pub fn recovering_editor(dir: &std::path::Path) -> Harness<'static, EditorApp> {
    let mut app = EditorApp::new(Settings::default());
    app.enable_recovery(dir, 0.0);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app);
    h.run();
    h
}
