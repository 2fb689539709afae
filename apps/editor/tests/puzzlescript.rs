//! PuzzleScript in the editor: a game's `.txt` opens by choosing a level; arrows, X and R play
//! it (a step runs its again turns), Ctrl+Z undoes it; Edit shows the level as the legend's
//! glyphs and saves painted rows back into the game's source.

use crate::common::{editor, fixtures};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_core::puzzlescript::PuzzleScriptState;
use tessera_core::{AnyState, Level};
use tessera_editor::draft::Ink;
use tessera_editor::{EditorApp, Mode};

fn ps(h: &Harness<'_, EditorApp>) -> PuzzleScriptState {
    match h.state().session().state() {
        AnyState::PuzzleScript(s) => s.clone(),
        other => panic!("a puzzlescript game, not {:?}", other.rule_set()),
    }
}

fn open_level_2(h: &mut Harness<'_, EditorApp>) {
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    assert_eq!(h.state().error(), None);
    assert!(h.query_by_label("Choose a level").is_some(), "a game of three levels asks which");
    h.get_by_label("Level number").set_value_accesskit(2.0);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
}

#[test]
fn a_game_opens_by_level_and_plays_by_keys_with_undo() {
    let mut h = editor();
    open_level_2(&mut h);
    assert_eq!(h.state().mode(), Mode::Play);
    let start = ps(&h);
    assert_eq!(start.rows()[3], "#.P**OO#", "level 2 of the game");
    assert!(h.state().title().ends_with("2. Warehouse 2"), "{}", h.state().title());
    // Down then right: the player walks under the crates.
    h.key_press(Key::ArrowDown);
    h.run();
    h.key_press(Key::ArrowRight);
    h.run();
    let walked = ps(&h);
    assert_eq!(walked.rows()[4], "#..P...#", "{:?}", walked.rows());
    // X is the action key: a spark is lit and fades in the step's again turn.
    h.key_press(Key::X);
    h.run();
    assert_ne!(ps(&h), walked, "the action moved the generator");
    assert_eq!(ps(&h).rows(), walked.rows(), "the spark faded within the step");
    // Ctrl+Z undoes the action, then the walk.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(ps(&h), walked);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(ps(&h), start);
}

#[test]
fn edit_paints_with_the_legend_and_saves_into_the_source() {
    let mut h = editor();
    open_level_2(&mut h);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    let draft = h.state().edit().draft().clone();
    assert_eq!(draft.cells()[8 * 3 + 2], Ink::Glyph('P'), "the player's cell is the legend's P");
    // The palette lists the legend's keys with what they stand for.
    assert!(h.query_by_label_contains("@ crate+target").is_some(), "the aggregate's glyph");
    let level = draft.to_level();
    let Level::PuzzleScript(l) = &level else { panic!("a puzzlescript level") };
    assert_eq!(l.level, 1);
    // The level as saved has its rows in the source, everything else unchanged.
    let source = std::fs::read_to_string(fixtures().join("games/warehouse.txt")).expect("the game");
    assert_eq!(l.source, source, "nothing painted: the source is the game's");
}
