//! Play: a few moves of each rule set by mouse and keys, then undo back to the start.

use crate::common::{click_cell, drag_cells, editor, editor_with, state};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use tessera_core::collapse::CollapseCommand;
use tessera_core::match3::Match3Command;
use tessera_core::{AnyCommand, AnyState, Rules};

#[test]
fn slide_plays_by_keys_and_swipes_and_undoes_by_shortcut() {
    let mut h = editor();
    let start = state(&h);
    let mut played = 0;
    for key in [Key::ArrowUp, Key::A, Key::ArrowDown, Key::D, Key::W] {
        let before = h.state().session().history().step();
        h.key_press(key);
        h.run();
        played += (h.state().session().history().step() > before) as u64;
    }
    assert!(played >= 2, "keys played {played} moves");
    assert!(h.query_by_label_contains("Score ").is_some(), "2048 shows its score in the status bar");
    // A swipe to the right across the board.
    let before = h.state().session().history().step();
    let s = h.state().session().state().clone();
    let AnyState::Slide(sl) = &s else { panic!("the default level is 2048") };
    let can_right = sl.can_slide(tessera_core::Dir::Right);
    drag_cells(&mut h, tessera_core::Pos::new(0, 1), tessera_core::Pos::new(3, 1));
    let after = h.state().session().history().step();
    assert_eq!(after > before, can_right, "a right swipe plays exactly when a right slide can");
    let steps = h.state().session().history().step();
    for _ in 0..steps {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
    }
    assert_eq!(state(&h), start, "undo by Ctrl+Z restores the start exactly");
    // Redo by Ctrl+Shift+Z and Ctrl+Y.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.run();
    assert_eq!(h.state().session().history().step(), 2.min(steps));
}

#[test]
fn collapse_plays_by_clicks_and_undoes_by_button() {
    let mut h = editor_with("levels/collapse_seed.json");
    let start = state(&h);
    for _ in 0..3 {
        let cmd =
            h.state().session().history().rules().legal_commands(h.state().session().state())[0].clone();
        let AnyCommand::Collapse(CollapseCommand::Tap(p)) = cmd else { panic!("collapse taps") };
        let before = h.state().session().history().step();
        click_cell(&mut h, p);
        assert_eq!(h.state().session().history().step(), before + 1, "a click on a group taps it");
    }
    for _ in 0..3 {
        h.get_by_label("Undo").click();
        h.run();
    }
    assert_eq!(state(&h), start);
}

#[test]
fn match3_swaps_by_two_clicks_and_by_drag() {
    let mut h = editor_with("levels/stage_0001.json");
    let start = state(&h);
    // The hint button highlights a swap; play it with two clicks.
    h.get_by_label("Hint").click();
    h.run();
    let AnyState::Match3(s) = h.state().session().state().clone() else { panic!("match3") };
    let Some(AnyCommand::Match3(Match3Command::Swap(a, b))) =
        h.state().session().history().rules().hint(h.state().session().state())
    else {
        panic!("the level has a swap")
    };
    assert!(s.swap_makes_run(a, b));
    click_cell(&mut h, a);
    click_cell(&mut h, a); // click again: deselect
    click_cell(&mut h, a);
    click_cell(&mut h, b);
    assert_eq!(h.state().session().history().step(), 1, "two clicks on neighbours swap");
    // A drag onto a neighbour swaps too.
    let rules = h.state().session().history().rules().clone();
    if let Some(AnyCommand::Match3(Match3Command::Swap(a, b))) = rules.hint(h.state().session().state()) {
        drag_cells(&mut h, a, b);
        assert_eq!(h.state().session().history().step(), 2, "a drag swaps");
    }
    while h.state().session().history().can_undo() {
        h.get_by_label("Undo").click();
        h.run();
    }
    assert_eq!(state(&h), start);
}

#[test]
fn tactics_selects_a_unit_moves_it_and_ends_the_turn() {
    let mut h = editor_with("levels/skirmish.json");
    let start = state(&h);
    let AnyState::Tactics(s) = state(&h) else { panic!("tactics") };
    let AnyCommand::Tactics(_) =
        h.state().session().history().rules().legal_commands(&AnyState::Tactics(s.clone()))[0]
    else {
        panic!()
    };
    let unit = *s.units().iter().find(|u| u.team == s.team()).expect("a unit of the side to play");
    let tessera_core::AnyRules::Tactics(r) = h.state().session().history().rules().clone() else { panic!() };
    let target = r
        .reachable(&s, unit.id)
        .into_iter()
        .map(|(p, _)| p)
        .find(|&p| p != unit.pos)
        .expect("somewhere to go");
    click_cell(&mut h, unit.pos);
    click_cell(&mut h, target);
    let AnyState::Tactics(after) = state(&h) else { panic!() };
    assert_eq!(after.unit(unit.id).map(|u| u.pos), Some(target), "click unit, click cell: the unit moves");
    h.get_by_label("End turn").click();
    h.run();
    let AnyState::Tactics(after) = state(&h) else { panic!() };
    assert_ne!(after.team(), s.team(), "the turn passed");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(state(&h), start);
}

#[test]
fn a_new_branch_keeps_the_old_one() {
    let mut h = editor();
    for key in [Key::ArrowUp, Key::ArrowLeft, Key::ArrowDown, Key::ArrowRight] {
        h.key_press(key);
        h.run();
    }
    let len = h.state().session().history().len();
    h.get_by_label("Undo").click();
    h.run();
    h.get_by_label("Undo").click();
    h.run();
    // A different move than the undone one starts a branch.
    let AnyState::Slide(s) = state(&h) else { panic!() };
    let next = h.state().session().history().command_at(len - 1).cloned();
    let key = [
        (Key::ArrowUp, tessera_core::Dir::Up),
        (Key::ArrowDown, tessera_core::Dir::Down),
        (Key::ArrowLeft, tessera_core::Dir::Left),
        (Key::ArrowRight, tessera_core::Dir::Right),
    ]
    .into_iter()
    .find(|&(_, d)| {
        s.can_slide(d) && next != Some(AnyCommand::Slide(tessera_core::slide::SlideCommand::Slide(d)))
    })
    .map(|(k, _)| k)
    .expect("another move");
    h.key_press(key);
    h.run();
    assert_eq!(h.state().session().history().branches().len(), 2);
    h.get_by_label("Switch to #1").click();
    h.run();
    assert_eq!(h.state().session().history().step(), len, "back on the first line, at its tip");
}

/// The board fits the space the side panel leaves, and fits again when the window changes size
/// while the user has not zoomed or panned: every column shows, the last one left of the Play
/// panel. (A window that opened larger and then settled kept the first fit, cutting off the
/// right column until "Fit board".)
#[test]
fn the_board_fits_beside_the_side_panel_after_the_window_resizes() {
    let mut h = crate::common::editor();
    h.set_size(egui::vec2(1600.0, 1000.0));
    h.run();
    h.state_mut().open(&crate::common::fixtures().join("levels/field.json"));
    h.run();
    h.set_size(egui::vec2(1280.0, 800.0));
    h.run();
    let board = h.state().board();
    let cell = board.cell_size();
    let right = board.cell_centre(tessera_core::Pos::new(15, 11)).expect("drawn").x + cell / 2.0;
    let panel = h.get_by_label("Fit board").rect().min.x;
    assert!(right <= panel, "the last column ends at {right}, the side panel starts at {panel}");
}

/// Issue 28.13: a 24×24 board at the default window: every label drawn is readable (at least
/// `MIN_LABEL` points) or left out, in Play and in Debug (a narrower board); hovering a piece
/// whose label was left out shows it.
#[test]
fn labels_on_a_24_by_24_board_are_readable_or_left_out() {
    let values = [2u32, 16, 128, 1024, 2048, 16384];
    let board: Vec<Vec<u32>> = (0..24)
        .map(|y| (0..24).map(|x| if (x + y) % 3 == 0 { 0 } else { values[(x * 7 + y) % 6] }).collect())
        .collect();
    let json =
        serde_json::json!({"rule_set": "slide", "width": 24, "height": 24, "board": board}).to_string();
    let level = tessera_core::Level::from_json(&json).expect("a 24×24 board");
    let mut h = editor();
    assert!(h.state_mut().open_level(level, 0, "big"));
    h.run();
    h.run();
    let check = |h: &egui_kittest::Harness<'_, tessera_editor::EditorApp>,
                 view: &tessera_editor::board::BoardView,
                 mode: &str| {
        let _ = h;
        let (smallest, dropped) = view.label_sizes();
        assert!(view.cell_size() >= 14.0, "{mode}: cells of {} points show labels", view.cell_size());
        assert!(smallest.is_some(), "{mode}: some labels drawn");
        assert!(
            smallest >= Some(tessera_editor::board::MIN_LABEL),
            "{mode}: the smallest label is {smallest:?} points"
        );
        dropped
    };
    // Issue 36.5: every tile shows its value, 5-digit ones in a short form ("16k").
    let dropped = check(&h, h.state().board(), "Play");
    assert_eq!(dropped, 0, "every tile of a 24×24 board at 1280×800 has its number");
    assert_eq!(tessera_editor::board::short_text(tessera_core::project::Label::Number(16384)), "16k");
    h.state_mut().set_mode(tessera_editor::Mode::Debug);
    h.run();
    h.run();
    // Issue 63.12: Debug's narrower board labels every tile too (128–512 and 16k were left out).
    let dropped = check(&h, h.state().debug().board(), "Debug");
    assert_eq!(dropped, 0, "every tile of Debug's 24×24 board at 1280×800 has its number");
}

/// Issue 37.4: a step runs on a worker thread. While it runs the editor draws on (a spinner,
/// the step's name and Cancel) and refuses another step; Cancel drops it with nothing changed;
/// a step that ends is taken as if it had run at once.
#[test]
fn a_step_runs_off_the_ui_thread_and_cancel_drops_it() {
    let mut h = editor();
    let start = state(&h);
    let cmd: AnyCommand = {
        let history = h.state().session().history();
        history.rules().legal_commands(history.state())[0].clone()
    };
    // A held worker: the step is still running when the frame ends.
    let release = h.state_mut().session_mut().hold_next_step();
    h.state_mut().execute(&cmd, 0.0);
    h.run_steps(2);
    assert!(h.state().session().running().is_some(), "the step runs on");
    assert!(h.query_by_label_contains(&format!("Running the step '{cmd}'")).is_some());
    h.state_mut().execute(&cmd, 0.0);
    h.run_steps(2);
    assert!(h.query_by_label_contains("is still running").is_some(), "a second step waits its turn");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(h.state().session().running().is_none());
    assert_eq!(state(&h), start, "a cancelled step changes nothing");
    assert_eq!(h.state().session().history().step(), 0);
    drop(release);
    // Held, then let go: the frames after it ends take it.
    let release = h.state_mut().session_mut().hold_next_step();
    h.state_mut().execute(&cmd, 0.0);
    h.run_steps(2);
    assert!(h.state().session().running().is_some());
    release.send(()).expect("the worker waits");
    for _ in 0..500 {
        if h.state().session().running().is_none() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
    assert!(h.state().session().running().is_none(), "the step ended and was taken");
    assert_eq!(h.state().session().history().step(), 1);
    let mut expected = start.clone();
    h.state().session().history().rules().apply(&mut expected, &cmd, &mut Vec::new()).expect("legal");
    assert_eq!(state(&h), expected, "the same state as the step run at once");
}
