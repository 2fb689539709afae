//! Edit mode: levels painted, validated, saved, reloaded and played, by clicks, drags, keys and
//! widget labels.

use crate::common::{click_cell, editor, fixtures, recovering_editor};
use egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_core::{AnyCommand, AnyState, Level, Pos, RuleSet};
use tessera_editor::draft::Ink;
use tessera_editor::{EditorApp, Mode, Pending};

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-editor-edit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn centre(h: &Harness<'_, EditorApp>, p: Pos) -> Pos2 {
    h.state().edit().cell_centre(p).expect("the canvas was drawn")
}

fn button(h: &mut Harness<'_, EditorApp>, pressed: bool, at: Pos2) {
    h.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    });
}

/// Clicks canvas cell `p` in Edit mode.
fn paint_at(h: &mut Harness<'_, EditorApp>, p: Pos) {
    let at = centre(h, p);
    h.hover_at(at);
    h.run();
    button(h, true, at);
    button(h, false, at);
    h.run();
}

/// Drags on the canvas from `from` to `to` in a few pointer samples (cells between samples are
/// painted too).
fn stroke(h: &mut Harness<'_, EditorApp>, from: Pos, to: Pos) {
    let (a, b) = (centre(h, from), centre(h, to));
    h.hover_at(a);
    h.run();
    button(h, true, a);
    h.run();
    for i in 1..=3 {
        h.hover_at(a + (b - a) * (i as f32 / 3.0));
        h.run();
    }
    button(h, false, b);
    h.run();
}

fn click(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// The editor in Edit mode on a new empty level of `rule_set`, `w`×`h`, made through the New
/// level section.
fn new_level(rule_set: RuleSet, w: u16, hgt: u16) -> Harness<'static, EditorApp> {
    let mut h = editor();
    click(&mut h, "Edit");
    assert_eq!(h.state().mode(), Mode::Edit);
    click(&mut h, "New level");
    click(&mut h, rule_set.name());
    h.get_by_label("New width").set_value_accesskit(f64::from(w));
    h.run();
    h.get_by_label("New height").set_value_accesskit(f64::from(hgt));
    h.run();
    click(&mut h, "Create level");
    // Fold the section again so the palette stays in view.
    click(&mut h, "New level");
    let d = h.state().edit().draft();
    assert_eq!((d.rule_set(), d.size().width, d.size().height), (rule_set, w, hgt));
    h
}

fn ink(h: &Harness<'_, EditorApp>, x: u16, y: u16) -> Ink {
    h.state().edit().draft().ink(Pos::new(x, y)).expect("on the board")
}

#[test]
fn a_match3_level_painted_saves_as_json_that_reloads_equal() {
    let mut h = new_level(RuleSet::Match3, 9, 9);
    click(&mut h, "breed a");
    paint_at(&mut h, Pos::new(0, 0));
    click(&mut h, "breed b");
    paint_at(&mut h, Pos::new(1, 0));
    h.get_by_label("Locked blocks").click();
    h.run();
    click(&mut h, "breed C");
    paint_at(&mut h, Pos::new(4, 4));
    click(&mut h, "Void");
    stroke(&mut h, Pos::new(8, 0), Pos::new(8, 2));
    click(&mut h, "Random locked");
    paint_at(&mut h, Pos::new(6, 6));
    assert_eq!(ink(&h, 0, 0), Ink::Glyph('a'));
    assert_eq!(ink(&h, 1, 0), Ink::Glyph('b'));
    assert_eq!(ink(&h, 4, 4), Ink::Glyph('C'));
    for y in 0..3 {
        assert_eq!(ink(&h, 8, y), Ink::Glyph('#'), "the drag painted (8, {y})");
    }
    assert_eq!(ink(&h, 6, 6), Ink::Glyph('*'));
    assert!(h.query_by_label("Playable").is_some());
    assert!(h.state().edit().dirty());
    let painted = h.state().edit().draft().clone();

    // Save through the file picker.
    let path = temp_path("painted.json");
    click(&mut h, "Save level as…");
    h.get_by_label("Path").set_text_value_accesskit(&path.display().to_string());
    h.run();
    click(&mut h, "Save file");
    assert_eq!(h.state().error(), None);
    assert!(!h.state().edit().dirty(), "saved");
    let text = std::fs::read_to_string(&path).expect("saved");
    let level = Level::from_json(&text).expect("the file is a level `tessera play` accepts");
    assert_eq!(level, painted.to_level());
    assert!(text.contains("\"A\"") || text.contains("C"), "locked breed c is written as 'C': {text}");

    // Change it, then reopen the file: the unsaved change is asked about first.
    click(&mut h, "breed C");
    paint_at(&mut h, Pos::new(3, 3));
    assert!(h.state().edit().dirty());
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().pending(), Some(&Pending::Open(path.clone())));
    click(&mut h, "Discard changes");
    assert_eq!(h.state().pending(), None);
    assert_eq!(h.state().edit().draft(), &painted, "the reloaded level equals the saved one");
    assert!(!h.state().edit().dirty());
    std::fs::remove_file(&path).ok();
}

#[test]
fn undo_reverts_a_whole_stroke_and_resize_keeps_the_content() {
    let mut h = editor();
    click(&mut h, "Edit");
    // The built-in 4x4 2048 level.
    click(&mut h, "8");
    stroke(&mut h, Pos::new(0, 1), Pos::new(3, 1));
    for x in 0..4 {
        assert_eq!(ink(&h, x, 1), Ink::Number(8));
    }
    click(&mut h, "Undo edit");
    for x in 0..4 {
        assert_eq!(ink(&h, x, 1), Ink::Number(0), "one undo reverts the whole stroke");
    }
    click(&mut h, "Redo edit");
    for x in 0..4 {
        assert_eq!(ink(&h, x, 1), Ink::Number(8), "redo restores it");
    }
    // Resize to 6x5 keeping the centre: content moves right by one column.
    h.get_by_label("Width").set_value_accesskit(6.0);
    h.run();
    h.get_by_label("Height").set_value_accesskit(5.0);
    h.run();
    click(&mut h, "centre");
    click(&mut h, "Resize");
    let size = h.state().edit().draft().size();
    assert_eq!((size.width, size.height), (6, 5));
    for x in 0..6 {
        let want = if (1..5).contains(&x) { Ink::Number(8) } else { Ink::Number(0) };
        assert_eq!(ink(&h, x, 1), want, "column {x}");
    }
    // Ctrl+Z undoes the resize.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().edit().draft().size().width, 4);
    assert_eq!(ink(&h, 0, 1), Ink::Number(8));
}

#[test]
fn a_run_shows_the_reason_and_the_cell_and_shuffling_fixes_it() {
    let mut h = new_level(RuleSet::Match3, 7, 7);
    click(&mut h, "breed a");
    stroke(&mut h, Pos::new(2, 3), Pos::new(4, 3));
    click(&mut h, "breed b");
    paint_at(&mut h, Pos::new(5, 3));
    let shown = crate::common::problems_shown(&h);
    assert!(shown.contains("cell (2, 3)") && shown.contains("run"), "{shown}");
    assert_eq!(shown.matches("(2, 3)").count(), 1, "the cell said once: {shown}");
    click(&mut h, "Fix by shuffling");
    assert!(h.query_by_label("Playable").is_some(), "a shuffle of a, a, a, b breaks the run");
    assert_eq!(h.state().edit().draft().check(), Ok(()));
    // One undo brings the run back.
    click(&mut h, "Undo edit");
    assert!(h.state().edit().draft().check().is_err());
}

#[test]
fn play_this_level_plays_exactly_the_painted_board_and_edit_keeps_it() {
    let mut h = editor();
    click(&mut h, "Edit");
    click(&mut h, "2");
    paint_at(&mut h, Pos::new(0, 0));
    paint_at(&mut h, Pos::new(1, 0));
    click(&mut h, "64");
    paint_at(&mut h, Pos::new(3, 3));
    let painted = h.state().edit().draft().clone();
    click(&mut h, "Play this level");
    assert_eq!(h.state().mode(), Mode::Play);
    let AnyState::Slide(s) = h.state().session().state().clone() else { panic!("slide") };
    let want = vec![vec![2, 2, 0, 0], vec![0; 4], vec![0; 4], vec![0, 0, 0, 64]];
    assert_eq!(s.values(), want, "exactly the painted board, nothing spawned");
    // One move: the two 2s merge.
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().session().history().step(), 1);
    assert_eq!(h.state().session().state().score(), Some(4));
    click(&mut h, "Edit");
    assert_eq!(h.state().edit().draft(), &painted, "leaving Play returns to the board as painted");
}

#[test]
fn a_collapse_level_painted_plays_a_tap() {
    let mut h = new_level(RuleSet::Collapse, 3, 3);
    click(&mut h, "colour 0");
    stroke(&mut h, Pos::new(0, 2), Pos::new(1, 2));
    click(&mut h, "colour 1");
    paint_at(&mut h, Pos::new(2, 2));
    paint_at(&mut h, Pos::new(2, 1));
    assert!(h.query_by_label("Playable").is_some());
    click(&mut h, "Play this level");
    click_cell(&mut h, Pos::new(0, 2));
    assert_eq!(h.state().session().history().step(), 1, "the tap cleared the pair of colour 0");
    let AnyState::Collapse(s) = h.state().session().state() else { panic!("collapse") };
    assert_eq!(s.tile_count(), 2);
}

#[test]
fn a_match3_level_randomized_plays_a_swap() {
    let mut h = new_level(RuleSet::Match3, 6, 6);
    click(&mut h, "Void");
    paint_at(&mut h, Pos::new(0, 0));
    click(&mut h, "Randomize");
    assert_eq!(ink(&h, 0, 0), Ink::Glyph('#'), "randomize keeps voids");
    assert!(
        h.state()
            .edit()
            .draft()
            .cells()
            .iter()
            .filter(|c| matches!(c, Ink::Glyph('a'..='p' | 'A'..='P')))
            .count()
            == 35
    );
    assert!(h.query_by_label("Playable").is_some(), "no run and a valid swap");
    let painted = h.state().edit().draft().to_level();
    click(&mut h, "Play this level");
    let game = painted.start(None).expect("plays with the level's seed");
    assert_eq!(h.state().session().state(), &game.state, "the painted board, fixed blocks as painted");
    let Some(AnyCommand::Match3(tessera_core::match3::Match3Command::Swap(a, b))) =
        h.state().session().history().rules().hint(h.state().session().state())
    else {
        panic!("a valid swap exists")
    };
    click_cell(&mut h, a);
    click_cell(&mut h, b);
    assert_eq!(h.state().session().history().step(), 1);
}

#[test]
fn a_tactics_map_painted_with_units_plays_a_move() {
    let mut h = new_level(RuleSet::Tactics, 6, 4);
    click(&mut h, "wall (blocked)");
    stroke(&mut h, Pos::new(3, 0), Pos::new(3, 2));
    click(&mut h, "forest (cost 2)");
    paint_at(&mut h, Pos::new(1, 0));
    click(&mut h, "Unit");
    paint_at(&mut h, Pos::new(0, 0));
    h.get_by_label("team").set_value_accesskit(1.0);
    h.run();
    paint_at(&mut h, Pos::new(5, 3));
    assert_eq!(h.state().edit().draft().units().len(), 2);
    assert!(h.query_by_label("Playable").is_some());
    // A unit on a wall is named.
    paint_at(&mut h, Pos::new(3, 1));
    let shown = crate::common::problems_shown(&h);
    assert!(shown.contains("unit 2") && shown.contains("cell (3, 1)"), "{shown}");
    assert_eq!(shown.matches("(3, 1)").count(), 1, "the cell said once: {shown}");
    click(&mut h, "Undo edit");
    click(&mut h, "Play this level");
    click_cell(&mut h, Pos::new(0, 0));
    click_cell(&mut h, Pos::new(0, 3));
    assert_eq!(h.state().session().history().step(), 1, "unit 0 moved");
    let AnyState::Tactics(s) = h.state().session().state() else { panic!("tactics") };
    assert_eq!(s.units()[0].pos, Pos::new(0, 3));
}

#[test]
fn an_unplayable_level_opens_as_a_draft_and_saves_as_one() {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("bad/levels/not_a_power_of_two.json"));
    h.run();
    assert_eq!(h.state().mode(), Mode::Edit, "a draft opens in Edit");
    assert_eq!(h.state().error(), None);
    assert!(h.state().edit().draft().check().is_err());
    let path = temp_path("draft.json");
    h.state_mut().save_level(&path);
    h.run();
    assert!(h.query_by_label_contains("does not play yet").is_some());
    assert!(Level::from_json(&std::fs::read_to_string(&path).unwrap()).is_err(), "still a draft");
    std::fs::remove_file(&path).ok();
}

/// Runs frames until the Difficulty panel's sweep is over (at most 60 s).
fn wait_for_sweep(h: &mut Harness<'_, EditorApp>) {
    let mut frames = 0;
    h.step();
    while h.state().edit().difficulty().running() {
        assert!(frames < 6000, "the sweep finished within 60 s");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
        frames += 1;
    }
    h.run();
}

#[test]
fn difficulty_runs_bots_in_the_background_and_shows_the_results() {
    let mut h = editor();
    click(&mut h, "Edit");
    click(&mut h, "Difficulty");
    click(&mut h, "random");
    h.get_by_label("Games").set_value_accesskit(24.0);
    h.run();
    click(&mut h, "Run bots");
    // 24 quick games may be over within the frames of the click; the cancel test below shows the
    // window staying live through a long sweep.
    wait_for_sweep(&mut h);
    let report = h.state().edit().difficulty().report().expect("a report").clone();
    assert_eq!(report.summary.games, 24);
    assert!(!report.interrupted);
    assert!(h.query_by_label_contains("24 games: won").is_some());
    assert!(
        h.query_by_label_contains("Commands per game").is_some()
            && h.query_by_label_contains("Final score").is_some()
    );
    // The same sweep from the command line's engine gives the same games.
    let sweep = tessera_bots::difficulty::Sweep {
        level: h.state().edit().draft().to_level(),
        level_name: report.level.clone(),
        bot: report.bot.clone(),
        seed: 0,
        first_game: 0,
        games: 24,
        game: Default::default(),
    };
    let again = tessera_bots::difficulty::run(&sweep, 1, &Default::default(), &|_| {}).expect("runs");
    assert_eq!(again.games, report.games);
}

#[test]
fn difficulty_cancel_stops_the_sweep_and_keeps_what_was_played() {
    let mut h = editor();
    click(&mut h, "Edit");
    click(&mut h, "Difficulty");
    click(&mut h, "random");
    h.get_by_label("Games").set_value_accesskit(1_000_000.0);
    h.run();
    click(&mut h, "Run bots");
    for _ in 0..5 {
        // The window keeps drawing while the games run.
        h.step();
        assert!(h.state().edit().difficulty().running());
        assert!(h.query_by_label_contains("of 1000000 games").is_some(), "a progress bar");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    click(&mut h, "Cancel");
    wait_for_sweep(&mut h);
    let report = h.state().edit().difficulty().report().expect("a report of what was played");
    assert!(report.interrupted);
    assert!(report.summary.games < 1_000_000);
    assert!(h.query_by_label_contains("(cancelled)").is_some());
}

/// Asks the window to close, as its close button does.
fn close(h: &mut Harness<'_, EditorApp>) {
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.run();
}

#[test]
fn closing_the_window_with_unsaved_edits_asks_first() {
    let mut h = editor();
    click(&mut h, "Edit");
    close(&mut h);
    assert_eq!(h.state().pending(), None, "nothing to save: the window may close");
    click(&mut h, "2");
    paint_at(&mut h, Pos::new(2, 2));
    close(&mut h);
    assert_eq!(h.state().pending(), Some(&Pending::Quit));
    assert!(h.query_by_label_contains("Quit without saving?").is_some());
    click(&mut h, "Cancel");
    assert_eq!(h.state().pending(), None);
    assert_eq!(ink(&h, 2, 2), Ink::Number(2), "cancel keeps the edit");
}

#[test]
fn fill_rectangle_erase_and_pick_by_their_keys() {
    let mut h = new_level(RuleSet::Collapse, 6, 5);
    // Fill (F): the whole empty board becomes colour 2, in one stroke.
    click(&mut h, "colour 2");
    h.key_press(Key::F);
    h.run();
    paint_at(&mut h, Pos::new(0, 0));
    assert!(h.state().edit().draft().cells().iter().all(|c| *c == Ink::Glyph('2')));
    // Rectangle (R): drag corner to corner.
    click(&mut h, "colour 1");
    h.key_press(Key::R);
    h.run();
    stroke(&mut h, Pos::new(1, 1), Pos::new(3, 2));
    for y in 0..5 {
        for x in 0..6 {
            let inside = (1..=3).contains(&x) && (1..=2).contains(&y);
            assert_eq!(ink(&h, x, y), if inside { Ink::Glyph('1') } else { Ink::Glyph('2') }, "({x}, {y})");
        }
    }
    // Erase (E) by dragging along the top row.
    h.key_press(Key::E);
    h.run();
    stroke(&mut h, Pos::new(0, 0), Pos::new(5, 0));
    assert!((0..6).all(|x| ink(&h, x, 0) == Ink::Glyph('.')));
    // Pick (I) takes colour 1 from the rectangle; Paint (B) then paints with it.
    h.key_press(Key::I);
    h.run();
    paint_at(&mut h, Pos::new(2, 2));
    assert_eq!(h.state().edit().ink(), Ink::Glyph('1'));
    h.key_press(Key::B);
    h.run();
    paint_at(&mut h, Pos::new(5, 4));
    assert_eq!(ink(&h, 5, 4), Ink::Glyph('1'));
    // Four tools, four undo steps back to the empty board (picking changes nothing).
    for _ in 0..4 {
        click(&mut h, "Undo edit");
    }
    assert!(h.state().edit().draft().cells().iter().all(|c| *c == Ink::Glyph('.')));
}

#[test]
fn a_stage_file_imports_into_edit_and_saves_as_a_level() {
    let mut h = editor();
    click(&mut h, "Edit");
    h.state_mut().open(&fixtures().join("stages/stage_voids.txt"));
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(h.state().mode(), Mode::Edit, "Edit stays in Edit");
    let d = h.state().edit().draft().clone();
    assert_eq!(d.rule_set(), RuleSet::Match3);
    assert!(d.cells().contains(&Ink::Glyph('#')) && d.cells().contains(&Ink::Glyph('.')));
    assert_eq!(h.state().edit().path(), None, "an import has no level file yet");
    assert!(!h.state().edit().dirty(), "nothing edited: quitting asks nothing");
    // Ctrl+S asks where to save it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let path = temp_path("stage_voids.json");
    h.get_by_label("Path").set_text_value_accesskit(&path.display().to_string());
    h.run();
    click(&mut h, "Save file");
    let level = Level::from_json(&std::fs::read_to_string(&path).expect("saved")).expect("a level");
    assert_eq!(
        Some(level),
        tessera_editor::files::open_path(&fixtures().join("stages/stage_voids.txt")).ok().and_then(
            |o| match o {
                tessera_editor::files::Opened::Level(l) =>
                    Some(tessera_editor::draft::Draft::from_level(&l).expect("draft").to_level()),
                _ => None,
            }
        )
    );
    std::fs::remove_file(&path).ok();
}

/// A fresh recovery folder for one test.
fn recovery_dir(name: &str) -> std::path::PathBuf {
    let dir = temp_path(&format!("recovery-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn recovery_file(dir: &std::path::Path) -> std::path::PathBuf {
    dir.join(tessera_editor::recovery::RECOVERY_FILE)
}

#[test]
fn unsaved_edits_survive_a_crash_and_come_back() {
    let dir = recovery_dir("crash");
    let saved = temp_path("recovered.json");
    let mut h = recovering_editor(&dir);
    assert!(h.state().recovered().is_none(), "nothing to recover on a first start");
    click(&mut h, "Edit");
    assert!(!recovery_file(&dir).exists(), "nothing unsaved, no copy");
    click(&mut h, "8");
    paint_at(&mut h, Pos::new(1, 2));
    paint_at(&mut h, Pos::new(3, 0));
    let edited = h.state().edit().draft().clone();
    // The copy on disk is the draft as edited.
    let text = std::fs::read_to_string(recovery_file(&dir)).expect("unsaved edits are copied");
    let copy: tessera_editor::recovery::Recovered = serde_json::from_str(&text).expect("a recovery file");
    let level = Level::parse_draft(&copy.level).expect("the copy is a level");
    assert_eq!(&tessera_editor::draft::Draft::from_level(&level).unwrap(), &edited);
    // The process dies: no save, no question, no clean exit.
    drop(h);

    let mut h = recovering_editor(&dir);
    assert!(h.state().recovered().is_some());
    assert!(h.query_by_label_contains("Recover unsaved edits?").is_some());
    click(&mut h, "Restore edits");
    assert_eq!(h.state().mode(), Mode::Edit);
    assert_eq!(h.state().edit().draft(), &edited, "the edits are back");
    assert!(h.state().edit().dirty(), "and still unsaved");
    assert!(recovery_file(&dir).exists(), "kept until saved");
    // Saving them ends the recovery.
    h.state_mut().save_level(&saved);
    h.run();
    assert!(!recovery_file(&dir).exists(), "saved: the copy is gone");
    assert_eq!(h.state().error(), None);
    let on_disk = Level::from_json(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(&tessera_editor::draft::Draft::from_level(&on_disk).unwrap(), &edited);
}

#[test]
fn recovered_edits_can_be_discarded_and_undo_to_the_save_forgets_them() {
    let dir = recovery_dir("discard");
    let mut h = recovering_editor(&dir);
    click(&mut h, "Edit");
    let clean = h.state().edit().draft().clone();
    click(&mut h, "16");
    paint_at(&mut h, Pos::new(0, 0));
    assert!(recovery_file(&dir).exists());
    // Undoing back to the saved draft leaves nothing to recover.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().edit().draft(), &clean);
    assert!(!recovery_file(&dir).exists(), "nothing unsaved: no copy");
    paint_at(&mut h, Pos::new(0, 0));
    drop(h);

    let mut h = recovering_editor(&dir);
    click(&mut h, "Discard edits");
    assert!(h.state().recovered().is_none());
    assert!(!recovery_file(&dir).exists(), "discarded for good");
    assert!(!h.state().edit().dirty());
    drop(h);
    let h = recovering_editor(&dir);
    assert!(h.state().recovered().is_none(), "not offered again");
}

#[test]
fn quitting_without_saving_leaves_nothing_to_recover() {
    let dir = recovery_dir("quit");
    let mut h = recovering_editor(&dir);
    click(&mut h, "Edit");
    click(&mut h, "4");
    paint_at(&mut h, Pos::new(2, 1));
    assert!(recovery_file(&dir).exists());
    close(&mut h);
    click(&mut h, "Discard changes");
    assert!(!recovery_file(&dir).exists(), "the user gave the edits up");
}

#[test]
fn an_unreadable_recovery_file_is_reported_and_moved_aside() {
    let dir = recovery_dir("unreadable");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(recovery_file(&dir), "{ not json").unwrap();
    let h = recovering_editor(&dir);
    let error = h.state().error().expect("the window says so").to_string();
    assert!(error.contains("unreadable") && error.contains("moved to"), "{error}");
    assert!(h.state().recovered().is_none());
    assert!(!recovery_file(&dir).exists());
    assert!(dir.join(format!("{}.unreadable", tessera_editor::recovery::RECOVERY_FILE)).exists());
    drop(h);
    let h = recovering_editor(&dir);
    assert_eq!(h.state().error(), None, "reported once");
}

#[test]
fn select_copy_cut_and_paste_a_block_of_cells() {
    let mut h = new_level(RuleSet::Collapse, 6, 5);
    // A 2×2 block: colours 1 and 2 on top, 3 and 1 below.
    for (p, label) in [((0, 0), "colour 1"), ((1, 0), "colour 2"), ((0, 1), "colour 3"), ((1, 1), "colour 1")]
    {
        click(&mut h, label);
        paint_at(&mut h, Pos::new(p.0, p.1));
    }
    let block = [ink(&h, 0, 0), ink(&h, 1, 0), ink(&h, 0, 1), ink(&h, 1, 1)];
    // Select it by dragging with the Select tool (S), copy (Ctrl+C, which a window sends as a
    // copy event).
    h.key_press(Key::S);
    h.run();
    stroke(&mut h, Pos::new(0, 0), Pos::new(1, 1));
    assert_eq!(h.state().edit().selection(), Some((Pos::new(0, 0), Pos::new(1, 1))));
    h.event(egui::Event::Copy);
    h.step();
    // The cells go onto the system clipboard as text too (a window passes Ctrl+V on only when
    // the clipboard holds text).
    let copied: Vec<String> = h
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(copied, ["1 2\n3 1"]);
    h.run();
    assert_eq!(h.state().edit().clip().map(|c| (c.width, c.height)), Some((2, 2)));
    // Click where it goes, paste (Ctrl+V): the block lands with its corner there.
    paint_at(&mut h, Pos::new(3, 2));
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    assert_eq!([ink(&h, 3, 2), ink(&h, 4, 2), ink(&h, 3, 3), ink(&h, 4, 3)], block);
    assert_eq!(h.state().edit().selection(), Some((Pos::new(3, 2), Pos::new(4, 3))), "the paste is selected");
    // One undo takes the whole paste back.
    let blank = ink(&h, 5, 4);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!([ink(&h, 3, 2), ink(&h, 4, 2), ink(&h, 3, 3), ink(&h, 4, 3)], [blank; 4]);
    // Pasting at the edge keeps what fits.
    paint_at(&mut h, Pos::new(5, 4));
    click(&mut h, "Paste");
    assert_eq!(ink(&h, 5, 4), block[0]);
    // Cut (the button): the source is erased, the clip kept. Then paste as a window sends it:
    // a paste event carrying the clipboard's text.
    stroke(&mut h, Pos::new(0, 0), Pos::new(1, 1));
    click(&mut h, "Cut");
    assert_eq!([ink(&h, 0, 0), ink(&h, 1, 0), ink(&h, 0, 1), ink(&h, 1, 1)], [blank; 4]);
    paint_at(&mut h, Pos::new(2, 0));
    h.event(egui::Event::Paste("1 2\n3 1".into()));
    h.run();
    assert_eq!([ink(&h, 2, 0), ink(&h, 3, 0), ink(&h, 2, 1), ink(&h, 3, 1)], block);
}

#[test]
fn paste_with_nothing_copied_or_selected_says_what_to_do() {
    let mut h = new_level(RuleSet::Slide, 4, 4);
    let before = h.state().edit().draft().clone();
    h.key_press(Key::S);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run();
    assert!(h.query_by_label_contains("nothing to paste").is_some());
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run();
    assert!(h.query_by_label_contains("select cells first").is_some());
    assert_eq!(h.state().edit().draft(), &before, "nothing changed");
}

/// Arrow keys press in Play while a dialog shows: true when any of them played a move.
fn arrows_play(h: &mut Harness<'_, EditorApp>) -> bool {
    let before = h.state().session().history().step();
    for key in [Key::ArrowUp, Key::ArrowLeft, Key::ArrowDown, Key::ArrowRight, Key::W, Key::A] {
        h.key_press(key);
        h.run();
    }
    h.state().session().history().step() != before
}

/// Issue 17: play keys must not act behind a dialog (File → Open… played 2048 moves behind it).
#[test]
fn play_keys_do_nothing_while_a_dialog_shows() {
    // The file picker.
    let mut h = editor();
    assert_eq!(h.state().mode(), Mode::Play);
    click(&mut h, "File");
    click(&mut h, "Open…");
    assert!(h.state().dialog_open(), "the picker shows");
    assert!(!arrows_play(&mut h), "no move behind the file picker");
    click(&mut h, "Cancel");
    assert!(!h.state().dialog_open());
    assert!(arrows_play(&mut h), "with the picker gone the same keys play");

    // The unsaved-changes question.
    let mut h = editor();
    click(&mut h, "Edit");
    click(&mut h, "2");
    paint_at(&mut h, Pos::new(2, 2));
    click(&mut h, "Play");
    h.state_mut().open(&fixtures().join("levels/collapse_seed.json"));
    h.run();
    assert_eq!(h.state().pending(), Some(&Pending::Open(fixtures().join("levels/collapse_seed.json"))));
    assert!(!arrows_play(&mut h), "no move behind the unsaved-changes question");
    click(&mut h, "Cancel");
    assert!(arrows_play(&mut h), "answered: the keys play");

    // The recovery question.
    let dir = recovery_dir("dialog-keys");
    let mut h = recovering_editor(&dir);
    click(&mut h, "Edit");
    click(&mut h, "8");
    paint_at(&mut h, Pos::new(1, 2));
    drop(h);
    let mut h = recovering_editor(&dir);
    assert!(h.state().recovered().is_some());
    assert_eq!(h.state().mode(), Mode::Play);
    assert!(!arrows_play(&mut h), "no move behind the recovery question");
    click(&mut h, "Discard edits");
    assert!(arrows_play(&mut h), "answered: the keys play");
}

/// Issue 17: a level whose board is drawn from the seed at each game shows an empty canvas;
/// Edit says why.
#[test]
fn a_level_with_no_fixed_board_says_so_in_edit() {
    let no_board = "No fixed board: each game draws one from the seed; paint to fix cells";
    // The classic 2048 level and a collapse level without a board.
    for level in [None, Some("levels/collapse_seed.json")] {
        let mut h = match level {
            None => editor(),
            Some(rel) => crate::common::editor_with(rel),
        };
        click(&mut h, "Edit");
        assert!(
            h.state().edit().draft().cells().iter().all(|c| *c == h.state().edit().draft().blank()),
            "{level:?}: empty canvas"
        );
        assert!(h.query_by_label(no_board).is_some(), "{level:?}: the panel says why");
        // One painted cell fixes the board: the note goes.
        let ink = if level.is_none() { "2" } else { "colour 1" };
        click(&mut h, ink);
        paint_at(&mut h, Pos::new(0, 0));
        assert!(h.query_by_label(no_board).is_none(), "{level:?}: a fixed board says nothing");
    }
    // A board that is fixed says nothing.
    let mut h = crate::common::editor_with("levels/match3_voids.json");
    click(&mut h, "Edit");
    assert!(h.query_by_label(no_board).is_none());
}

/// Issue 17: "Play this level" on an untouched level does not call it edited.
#[test]
fn playing_an_untouched_level_does_not_mark_it_edited() {
    let mut h = crate::common::editor_with("levels/classic.json");
    let opened = h.state().title().to_string();
    click(&mut h, "Edit");
    click(&mut h, "Play this level");
    assert_eq!(h.state().mode(), Mode::Play);
    assert_eq!(h.state().title(), opened, "untouched: the file's name");
    assert!(h.query_by_label_contains("(edited)").is_none());
    // Edited, it says so.
    click(&mut h, "Edit");
    click(&mut h, "2");
    paint_at(&mut h, Pos::new(0, 0));
    assert_eq!(ink(&h, 0, 0), Ink::Number(2), "painted");
    assert!(h.state().edit().dirty());
    click(&mut h, "Play this level");
    assert_eq!(h.state().title(), format!("{opened} (edited)"));
    // The built-in level, untouched, keeps its name too.
    let mut h = editor();
    let opened = h.state().title().to_string();
    click(&mut h, "Edit");
    click(&mut h, "Play this level");
    assert_eq!(h.state().title(), opened);
}

/// Opens `json` (a level file's text) and answers the problems Edit lists.
fn problems_of(json: &str, name: &str) -> (Harness<'static, EditorApp>, String) {
    let mut h = editor();
    let path = temp_path(name);
    std::fs::write(&path, json).expect("write");
    h.state_mut().open(&path);
    h.run();
    std::fs::remove_file(&path).ok();
    assert_eq!(h.state().mode(), Mode::Edit, "a draft opens in Edit");
    let shown = crate::common::problems_shown(&h);
    (h, shown)
}

/// Issue 28.9: every failing check is listed, each with its cell said once, for every rule set
/// (Sokoban's and PuzzleScript's are in their own files).
#[test]
fn every_failing_check_is_listed_with_its_cell() {
    let cases = [
        ("slide", r##"{"rule_set":"slide","board":[[6,0,0],[0,0,3]]}"##, [(0, 0), (2, 1)]),
        ("collapse", r##"{"rule_set":"collapse","board":["1.2","...","012"]}"##, [(0, 0), (2, 0)]),
        (
            "match3",
            r##"{"rule_set":"match3","seed":1,"board":["aaa....",".......",".......",".......","bbb....",".......","......."]}"##,
            [(0, 0), (0, 4)],
        ),
        (
            "tactics",
            r##"{"rule_set":"tactics","map":["#..","..#"],"units":[{"team":0,"x":0,"y":0},{"team":1,"x":2,"y":1}]}"##,
            [(0, 0), (2, 1)],
        ),
    ];
    for (name, json, cells) in cases {
        let (h, shown) = problems_of(json, &format!("two-problems-{name}.json"));
        assert_eq!(shown.lines().count(), 2, "{name}: two problems: {shown}");
        for (x, y) in cells {
            assert_eq!(
                shown.matches(&format!("({x}, {y})")).count(),
                1,
                "{name}: cell ({x}, {y}) said once: {shown}"
            );
        }
        assert!(h.query_by_label_contains("2 problems").is_some(), "{name}: the heading counts them");
        let outlined: Vec<Option<Pos>> = h.state().edit().draft().problems().iter().map(|p| p.cell).collect();
        assert_eq!(outlined, cells.map(|(x, y)| Some(Pos::new(x, y))), "{name}: each with its cell");
    }
}

/// Issue 27: tactics cells are the legend's glyphs: renaming a terrain type's glyph moves its
/// cells with it (a glyph another type has is refused), removing a type gives its cells to the
/// first type, and each is one undo step.
#[test]
fn a_tactics_glyph_renamed_or_removed_carries_its_cells() {
    let mut h = new_level(RuleSet::Tactics, 4, 3);
    click(&mut h, "forest (cost 2)");
    paint_at(&mut h, Pos::new(1, 1));
    assert_eq!(ink(&h, 1, 1), Ink::Glyph('f'));
    let glyph_field = |h: &Harness<'static, EditorApp>, k: usize| {
        h.query_all_by_label("glyph")
            .filter(|n| n.value().is_some())
            .nth(k)
            .map(|n| n.value().unwrap_or_default())
    };
    assert_eq!(glyph_field(&h, 1).as_deref(), Some("f"), "forest's glyph field");
    h.query_all_by_label("glyph")
        .filter(|n| n.value().is_some())
        .nth(1)
        .expect("forest")
        .set_text_value_accesskit("g");
    h.run();
    assert_eq!(ink(&h, 1, 1), Ink::Glyph('g'), "the cell follows its type");
    assert_eq!(h.state().edit().ink(), Ink::Glyph('g'), "and so does the brush");
    let Level::Tactics(l) = h.state().edit().draft().to_level() else { panic!("tactics") };
    assert_eq!(l.map[1], ".g..");
    assert_eq!(h.state().edit().draft().check(), Ok(()));
    // Hills may not take forest's glyph.
    h.query_all_by_label("glyph")
        .filter(|n| n.value().is_some())
        .nth(2)
        .expect("hills")
        .set_text_value_accesskit("g");
    h.run();
    assert_eq!(glyph_field(&h, 2).as_deref(), Some("h"), "refused");
    assert_eq!(ink(&h, 1, 1), Ink::Glyph('g'));
    // Removing forest: its cell becomes plain.
    h.query_all_by_label("Remove").nth(1).expect("forest's Remove").click();
    h.run();
    assert_eq!(ink(&h, 1, 1), Ink::Glyph('.'));
    assert!(h.query_by_label("forest (cost 2)").is_none(), "gone from the palette");
    click(&mut h, "Undo edit");
    assert_eq!(ink(&h, 1, 1), Ink::Glyph('g'), "one undo brings the type and its cell back");
}

/// The board cell whose centre is nearest `at`, if `at` lies on the board (Edit's canvas).
fn cell_under(h: &Harness<'_, EditorApp>, at: Pos2) -> Option<Pos> {
    let size = h.state().edit().draft().size();
    let half = (centre(h, Pos::new(1, 0)).x - centre(h, Pos::new(0, 0)).x) / 2.0;
    (0..size.height).flat_map(|y| (0..size.width).map(move |x| Pos::new(x, y))).find(|&p| {
        let c = centre(h, p);
        (c.x - at.x).abs() < half && (c.y - at.y).abs() < half
    })
}

/// Issue 36.1: no click or drag that began on a dialog, or outside the board, reaches the
/// board: Cancel in "Quit without saving?" and in the "Save level as" picker painted the cell
/// under the button (an invisible undo step), and a drag begun on the side panel painted where
/// it ended over the board.
#[test]
fn clicks_on_dialogs_and_drags_begun_off_the_board_paint_nothing() {
    let mut h = editor();
    click(&mut h, "Edit");
    click(&mut h, "2");
    paint_at(&mut h, Pos::new(0, 0));
    let (cells, revision) = (h.state().edit().draft().cells().to_vec(), h.state().edit().revision());
    let unchanged = |h: &Harness<'_, EditorApp>, what: &str| {
        assert_eq!(h.state().edit().draft().cells(), &cells[..], "{what}: the board is as it was");
        assert_eq!(h.state().edit().revision(), revision, "{what}: no step was added");
    };
    // The quit question's Cancel, over the board.
    close(&mut h);
    // A click on the question (its text, over the board) paints nothing; then Cancel.
    let text = h.get_by_label_contains("has changes that are not saved").rect();
    let at = (0..40)
        .map(|k| egui::pos2(text.left() + text.width() * k as f32 / 40.0, text.center().y))
        .find(|&p| cell_under(&h, p).is_some())
        .expect("the question lies over a cell");
    h.hover_at(at);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
        h.run();
    }
    unchanged(&h, "a click on the quit question");
    click(&mut h, "Cancel");
    unchanged(&h, "Cancel in Quit without saving?");
    // The Save level as picker's Cancel.
    click(&mut h, "Save level as…");
    assert!(h.state().dialog_open());
    click(&mut h, "Cancel");
    assert!(!h.state().dialog_open());
    unchanged(&h, "Cancel in Save level as");
    // A press on the side panel, the pointer over the board by the same frame, released there.
    let from = h.get_by_label("Palette").rect().center();
    let to = centre(&h, Pos::new(2, 2));
    button(&mut h, true, from);
    h.event(egui::Event::PointerMoved(to));
    h.run();
    button(&mut h, false, to);
    h.run();
    unchanged(&h, "a drag begun on the side panel");
    // A press on the board still paints.
    paint_at(&mut h, Pos::new(2, 2));
    assert_eq!(ink(&h, 2, 2), Ink::Number(2));
}
