//! Two defects seen in the window: a level picked in the levels list and played was called
//! "edited level · unsaved" with nothing edited; the source pane jumped to line 1 the first time
//! Debug was shown.

use crate::common::{editor, fixtures};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_core::Level;
use tessera_editor::{EditorApp, Mode};

/// The editor on warehouse.txt's level 1, as the level chooser opens it.
fn warehouse() -> Harness<'static, EditorApp> {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    h.get_by_label("Level number").set_value_accesskit(1.0);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    h
}

#[test]
fn a_level_picked_in_the_levels_list_and_played_is_not_called_edited_or_unsaved() {
    let mut h = warehouse();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    let before = h.state().window_title();
    assert!(!before.ends_with("unsaved"), "{before}");
    h.get_by_label("Level 2").scroll_to_me();
    h.run();
    h.get_by_label("Level 2").click();
    h.run();
    let Level::PuzzleScript(l) = &h.state().edit().draft().settings else { panic!("puzzlescript") };
    assert_eq!(l.level, 1, "level 2 is edited");
    assert!(!h.state().edit().dirty(), "picking a level edits nothing");
    h.get_by_label("Play this level").scroll_to_me();
    h.run();
    h.get_by_label("Play this level").click();
    h.run();
    assert_eq!(h.state().mode(), Mode::Play);
    let title = h.state().window_title();
    assert!(title.contains("level 2"), "{title}");
    assert!(!title.contains("edited level") && !title.ends_with("unsaved"), "{title}");
    assert!(h.state().title().contains("warehouse.txt"), "{}", h.state().title());
    // Undo edit goes back to level 1, still nothing to save; a painted cell is an edit.
    h.state_mut().set_mode(Mode::Edit);
    h.state_mut().edit_mut().undo();
    h.run();
    let Level::PuzzleScript(l) = &h.state().edit().draft().settings else { panic!("puzzlescript") };
    assert_eq!(l.level, 0, "undone: level 1");
    assert!(!h.state().edit().dirty());
    h.state_mut().edit_mut().redo();
    h.run();
    assert!(!h.state().edit().dirty());
    h.state_mut().edit_mut().set_ink(tessera_editor::draft::Ink::Glyph('#'));
    let at = h.state().edit().cell_centre(tessera_core::Pos::new(1, 1)).expect("the canvas");
    h.hover_at(at);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
    }
    h.run();
    assert!(h.state().edit().dirty(), "a painted cell is unsaved");
    assert!(h.state().window_title().ends_with("unsaved"));
}

#[test]
fn the_source_pane_stays_where_it_was_scrolled_when_debug_is_first_shown() {
    let mut h = warehouse();
    h.state_mut().show_source(true);
    h.run();
    // Line 70 of 139: in the middle, so that neither pane's height limits the scroll.
    h.state_mut().workbench_mut().go_to_line(70);
    h.run();
    let before = h.state().workbench().editor().scroll_offset();
    assert!(before.y > 100.0, "scrolled down to line 70: {before:?}");
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    let after = h.state().workbench().editor().scroll_offset();
    assert!((after.y - before.y).abs() < 1.0, "Debug's pane at {after:?}, Play's was at {before:?}");
    // And back in Play, where it was too.
    h.state_mut().set_mode(Mode::Play);
    h.run();
    let back = h.state().workbench().editor().scroll_offset();
    assert!((back.y - before.y).abs() < 1.0, "{back:?}");
}
