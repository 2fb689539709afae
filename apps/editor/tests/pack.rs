//! The Pack view, driven by its labels: open a pack, reorder, add, save, rate all with a tiny
//! game count, the curve's flags, an entry opened in Play, unsaved changes asked on close, and
//! a reopened pack that keeps its order and ratings.

use crate::common::{editor, fixtures};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use tessera_bots::BotKind;
use tessera_editor::{EditorApp, Mode, Pending};

/// The fixture pack and its levels copied to a scratch folder; returns the pack's path.
fn scratch_pack(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-editor-pack-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::create_dir_all(dir.join("packs")).unwrap();
    for l in [
        "classic.json",
        "collapse_center_board.json",
        "sokoban.json",
        "match3_locks.json",
        "collapse_seed.json",
    ] {
        std::fs::copy(fixtures().join("levels").join(l), dir.join("levels").join(l)).unwrap();
    }
    let pack = dir.join("packs/first-steps.json");
    std::fs::copy(fixtures().join("packs/first-steps.json"), &pack).unwrap();
    pack
}

fn opened(pack: &Path) -> Harness<'static, EditorApp> {
    let mut h = editor();
    h.state_mut().open(pack);
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(h.state().mode(), Mode::Pack);
    h
}

fn click(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

fn titles(h: &Harness<'_, EditorApp>) -> Vec<String> {
    h.state().pack().pack().entries.iter().map(|e| e.label()).collect()
}

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
fn reorder_add_save_and_reopen_keep_the_order() {
    let pack = scratch_pack("reorder");
    let mut h = opened(&pack);
    assert!(h.query_all_by_label_contains("First steps").next().is_some());
    click(&mut h, "3. Three colours (inline)");
    click(&mut h, "Move up");
    assert_eq!(titles(&h)[..3], ["Classic 2048", "Three colours (inline)", "Centre column"]);
    assert!(h.state().pack().dirty());
    // Unsaved pack changes ask on close.
    close(&mut h);
    assert_eq!(h.state().pending(), Some(&Pending::Quit));
    click(&mut h, "Cancel");
    // Add an existing file by its path, after the selected entry.
    let file = pack.parent().unwrap().join("../levels/collapse_seed.json");
    h.get_by_label("Level file").click();
    h.run();
    h.get_by_label("Level file").type_text(file.to_str().unwrap());
    h.run();
    click(&mut h, "Add file");
    assert_eq!(h.state().pack().error(), None);
    assert_eq!(titles(&h).len(), 6);
    assert_eq!(titles(&h)[2], "../levels/collapse_seed.json", "stored relative to the pack");
    // A file already in the pack is refused, naming both entries.
    h.get_by_label("Level file").click();
    h.run();
    h.get_by_label("Level file").type_text(file.to_str().unwrap());
    h.run();
    click(&mut h, "Add file");
    assert!(
        h.state().pack().error().is_some_and(|e| e.contains("entries 3 and 4")),
        "{:?}",
        h.state().pack().error()
    );
    click(&mut h, "New level");
    assert_eq!(titles(&h).len(), 7);
    click(&mut h, "Save pack");
    assert!(!h.state().pack().dirty());
    let saved = titles(&h);
    let h2 = opened(&pack);
    assert_eq!(titles(&h2), saved);
}

#[test]
fn rate_all_then_the_curve_flags_and_a_reopen_keeps_the_ratings() {
    let pack = scratch_pack("rate");
    let mut h = opened(&pack);
    assert_eq!(h.query_all_by_label_contains("not rated").count(), 5);
    assert!(h.query_by_label_contains("No level rated yet").is_some());
    {
        let view = h.state_mut().pack_mut();
        view.set_games(3);
        for r in tessera_core::RuleSet::ALL {
            view.set_bot(*r, BotKind::RANDOM);
        }
    }
    click(&mut h, "Rate all");
    let start = std::time::Instant::now();
    while h.state().pack().rating() {
        assert!(start.elapsed().as_secs() < 60, "the rating finishes");
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    h.run();
    assert_eq!(h.state().pack().error(), None);
    let results = h.state().pack().results().clone();
    assert_eq!(results.ratings.len(), 5);
    assert!(tessera_pack::results_path(&pack).exists(), "the results file is written");
    // Random play never solves the Sokoban level: below its 50-100 % band, flagged.
    assert!(h.query_by_label_contains("4. First push: outside the target band").is_some());
    assert!(h.query_by_label_contains("No level rated yet").is_none());
    assert!(h.query_all_by_label_contains("won 0 % (0–").count() >= 2);
    // Only levels whose hash changed are rated again: none.
    click(&mut h, "Rate all");
    while h.state().pack().rating() {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    h.run();
    assert!(h.query_by_label_contains("rated 0 levels").is_some());
    // A point of the curve opens its level in Play.
    let action = h.state_mut().pack_mut().click_point(1).expect("an entry with a file");
    h.state_mut().pack_action(action);
    h.run();
    assert_eq!(h.state().mode(), Mode::Play);
    assert!(h.state().title().contains("collapse_center_board.json"), "{}", h.state().title());
    // Back to Pack; then a fresh editor reopens the pack with its ratings.
    click(&mut h, "Pack");
    assert_eq!(h.state().mode(), Mode::Pack);
    let h2 = opened(&pack);
    assert_eq!(h2.state().pack().results(), &results);
    assert!(h2.query_by_label_contains("4. First push: outside the target band").is_some());
}

#[test]
fn unsaved_pack_edits_survive_a_crash_in_the_recovery_file() {
    let pack = scratch_pack("recovery");
    let dir = pack.parent().unwrap().join("recovery");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(tessera_editor::pack::PACK_RECOVERY_FILE);
    let mut h = editor();
    h.state_mut().enable_recovery(&dir, 1.0);
    h.state_mut().open(&pack);
    h.run();
    click(&mut h, "2. Centre column");
    click(&mut h, "Move down");
    let moved = titles(&h);
    assert!(file.exists(), "unsaved pack edits are kept");
    // The editor "crashes" (is dropped); the next one opening the pack gets the edits back.
    drop(h);
    let mut h = editor();
    h.state_mut().enable_recovery(&dir, 1.0);
    h.state_mut().open(&pack);
    h.run();
    assert_eq!(titles(&h), moved);
    assert!(h.state().pack().dirty());
    assert!(h.query_by_label_contains("restored unsaved pack edits").is_some());
    assert!(h.state().recovered_pack().is_none(), "opened: no question about it left");
    click(&mut h, "Save pack");
    h.run();
    assert!(!file.exists(), "saved: nothing to keep");
    assert_eq!(titles(&opened(&pack)), moved);
}

/// Presses at `from`, moves in steps to `to` and releases there.
fn drag(h: &mut Harness<'_, EditorApp>, from: egui::Pos2, to: egui::Pos2) {
    let press = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    h.hover_at(from);
    h.run();
    h.event(press(from, true));
    h.run();
    for i in 1..=8 {
        h.hover_at(from + (to - from) * (i as f32 / 8.0));
        h.run();
    }
    h.event(press(to, false));
    h.run();
}

#[test]
fn dragging_a_row_onto_another_moves_it_there() {
    let pack = scratch_pack("drag");
    let mut h = opened(&pack);
    let first = h.get_by_label("1. Classic 2048").rect();
    let third = h.get_by_label("3. Three colours (inline)").rect();
    // The thumbnail, left of the title, is the handle; the row under the pointer takes it.
    let handle = egui::pos2(first.min.x - 30.0, first.center().y);
    drag(&mut h, handle, egui::pos2(third.center().x, third.center().y));
    assert_eq!(titles(&h)[..3], ["Centre column", "Three colours (inline)", "Classic 2048"]);
    assert!(h.state().pack().dirty());
}

#[test]
fn an_inline_level_edited_in_edit_comes_back_into_the_pack() {
    let pack = scratch_pack("inline-edit");
    let mut h = opened(&pack);
    let before = h.state().pack().curve().expect("every entry loads").entries[2].level_hash.clone();
    click(&mut h, "3. Three colours (inline)");
    click(&mut h, "Open in Edit");
    assert_eq!(h.state().mode(), Mode::Edit);
    h.state_mut().edit_mut().randomize(5).expect("a random board");
    h.run();
    assert!(h.state().edit().dirty());
    click(&mut h, "Pack");
    let after = h.state().pack().curve().expect("every entry loads").entries[2].level_hash.clone();
    assert_ne!(after, before, "the edited level is the entry's now");
    assert!(h.state().pack().dirty());
    assert!(!h.state().edit().dirty(), "the edits are the pack's to save");
    click(&mut h, "Save pack");
    let again = opened(&pack);
    assert_eq!(again.state().pack().curve().expect("loads").entries[2].level_hash, after);
}

/// The next start asks about a pack's unsaved edits (no need to remember to open it): "Open
/// pack with edits" opens it in the Pack view with them, unsaved; "Discard pack edits" removes
/// them.
#[test]
fn the_next_start_offers_a_packs_unsaved_edits_back() {
    let pack = scratch_pack("recovery-ask");
    let dir = pack.parent().unwrap().join("recovery");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(tessera_editor::pack::PACK_RECOVERY_FILE);
    let crash = || {
        let mut h = editor();
        h.state_mut().enable_recovery(&dir, 1.0);
        assert!(h.state().recovered_pack().is_none(), "nothing left over");
        h.state_mut().open(&pack);
        h.run();
        click(&mut h, "2. Centre column");
        click(&mut h, "Move down");
        assert!(file.exists(), "unsaved pack edits are kept");
        titles(&h)
    };
    let moved = crash();
    let mut h = editor();
    h.state_mut().enable_recovery(&dir, 1.0);
    h.run();
    assert_eq!(h.state().recovered_pack(), Some(std::path::absolute(&pack).unwrap().as_path()));
    assert!(h.query_by_label_contains("Recover unsaved pack edits?").is_some());
    assert!(h.state().dialog_open(), "keys go to the question");
    click(&mut h, "Open pack with edits");
    assert_eq!(h.state().mode(), Mode::Pack);
    assert_eq!(titles(&h), moved);
    assert!(h.state().pack().dirty(), "restored, still unsaved");
    assert!(h.state().recovered_pack().is_none());
    // Discarding instead removes them: the next start asks nothing.
    drop(h);
    let mut h = editor();
    h.state_mut().enable_recovery(&dir, 1.0);
    h.run();
    click(&mut h, "Discard pack edits");
    assert!(!file.exists(), "discarded");
    drop(h);
    let mut h = editor();
    h.state_mut().enable_recovery(&dir, 1.0);
    h.run();
    assert!(h.state().recovered_pack().is_none());
    assert!(h.query_by_label_contains("Recover unsaved pack edits?").is_none());
}

/// Issue 28.2: a level that cannot be won and games stopped by the move cap are said in words
/// in the row and the flagged list, not shown as a 0 % "very hard" level.
#[test]
fn a_level_that_cannot_be_won_and_capped_games_are_said_as_such() {
    let pack = scratch_pack("cap");
    let dir = pack.parent().unwrap();
    std::fs::write(
        dir.join("endless.json"),
        r#"{"rule_set": "match3", "config": {"breeds": 5}, "seed": 1, "width": 6, "height": 6}"#,
    )
    .unwrap();
    let mut p = tessera_pack::Pack::new("Caps");
    p.add(tessera_pack::Entry::path("endless.json"), None).unwrap();
    p.add(tessera_pack::Entry::path("../levels/classic.json"), None).unwrap();
    p.save(&pack).unwrap();
    let mut bots = std::collections::BTreeMap::new();
    bots.insert("*".to_string(), tessera_bots::BotSpec::new(BotKind::RANDOM));
    let config = tessera_bots::GameConfig { max_moves: 20, keep_going: false };
    let settings = tessera_pack::Settings { bots, games: 3, seed: 0, config };
    let stop = std::sync::atomic::AtomicBool::new(false);
    tessera_pack::rate_pack(&pack, settings, 50, 1, &stop, &|_| {}).unwrap();
    let h = opened(&pack);
    assert!(h.query_by_label_contains("match3: cannot be won: no objective (3 games)").is_some());
    assert!(h.query_by_label_contains("3 hit the move cap (20)").is_some());
    assert!(h.query_by_label_contains("1. endless.json: cannot be won: no objective").is_some());
    assert!(
        h.query_by_label_contains("2. ../levels/classic.json: 3 of 3 games hit the move cap (20)").is_some()
    );
    // Issue 28.10: the curve has a legend, and hovering a level names it with its flags.
    for entry in ["cannot be won", "flagged", "median at the move cap"] {
        assert!(h.query_by_label(entry).is_some(), "legend entry {entry}");
    }
    let curve = h.state().pack().curve().expect("every entry loads");
    let hover = tessera_editor::pack::curve_hover(&curve, 2.1, Some(30.0));
    assert!(hover.starts_with("2. ../levels/classic.json\nwon 0 %"), "{hover}");
    assert!(
        hover.contains("moves median at the move cap (20)") && hover.contains("3 of 3 games hit"),
        "{hover}"
    );
    assert!(tessera_editor::pack::curve_hover(&curve, 1.0, None).contains("cannot be won: no objective"));
}

/// Issue 28.5: every pack edit undoes and redoes (buttons and Ctrl+Z / Ctrl+Shift+Z); Remove
/// says how to bring the entry back; the window title names the open pack.
#[test]
fn pack_edits_undo_and_redo_and_the_title_names_the_pack() {
    let pack = scratch_pack("undo");
    let mut h = opened(&pack);
    let start = titles(&h);
    assert!(h.state().window_title().contains("First steps"), "{}", h.state().window_title());
    assert!(h.query_by_label_contains("pack First steps (").is_some(), "the menu bar names the pack");
    click(&mut h, "3. Three colours (inline)");
    click(&mut h, "Move up");
    let moved = titles(&h);
    assert_ne!(moved, start);
    click(&mut h, "Remove");
    assert_eq!(titles(&h).len(), start.len() - 1);
    assert!(h.query_by_label_contains("removed 2. Three colours (inline) (Undo").is_some());
    assert!(h.state().window_title().contains("First steps *"), "unsaved");
    // Ctrl+Z brings the entry back, again undoes the move; Ctrl+Shift+Z redoes the move.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(titles(&h), moved);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(titles(&h), start);
    assert!(!h.state().pack().dirty(), "back to the file as saved");
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    h.run();
    assert_eq!(titles(&h), moved);
    // A title typed is one step; New level is one step; the Undo button undoes them.
    click(&mut h, "1. Classic 2048");
    h.get_by_label("Title").click();
    h.run();
    h.get_by_label("Title").type_text(" (easy)");
    h.run();
    assert_eq!(titles(&h)[0], "Classic 2048 (easy)");
    click(&mut h, "New level");
    assert_eq!(titles(&h).len(), start.len() + 1);
    click(&mut h, "Undo");
    assert_eq!(titles(&h).len(), start.len());
    click(&mut h, "Undo");
    assert_eq!(titles(&h), moved, "the whole title typed is one step");
    click(&mut h, "Redo");
    assert_eq!(titles(&h)[0], "Classic 2048 (easy)");
}

/// Issue 28.4: selecting a row, a message ("rated 0 levels", an error) and a rating's end
/// move no button: their lines are kept.
#[test]
fn nothing_moves_under_the_pointer() {
    let pack = scratch_pack("still");
    let mut h = opened(&pack);
    let at = |h: &Harness<'_, EditorApp>| {
        ["Move up", "Remove", "1. Classic 2048", "5. Locks", "Rate all"].map(|l| h.get_by_label(l).rect().min)
    };
    let before = at(&h);
    click(&mut h, "2. Centre column");
    assert_eq!(at(&h), before, "selecting a row");
    click(&mut h, "Add file");
    assert!(h.state().pack().error().is_some_and(|e| e.contains("type a level file")));
    assert_eq!(at(&h), before, "an error");
    click(&mut h, "Save pack");
    assert!(h.query_by_label("pack saved").is_some());
    assert_eq!(at(&h), before, "a notice");
    // Rows are larger thumbnails (72 points).
    assert!(h.get_by_label("2. Centre column").rect().height() < 72.0);
    let first = h.get_by_label("1. Classic 2048").rect();
    let second = h.get_by_label("2. Centre column").rect();
    assert!(second.center().y - first.center().y >= 72.0, "{first:?} {second:?}");
}

/// Issue 28.5: a row drags by any part of it (here its rating text), not only its thumbnail.
#[test]
fn a_row_drags_by_its_text() {
    let pack = scratch_pack("drag-text");
    let mut h = opened(&pack);
    let rating = h.get_by_label_contains("slide: not rated").rect();
    let third = h.get_by_label("3. Three colours (inline)").rect();
    drag(&mut h, rating.center(), egui::pos2(third.center().x, third.center().y));
    assert_eq!(titles(&h)[..3], ["Centre column", "Three colours (inline)", "Classic 2048"]);
}

/// Issue 28.4: the window's error banner does not push the Pack view down: in the Pack view it
/// is a status line at the bottom.
#[test]
fn an_error_in_the_pack_view_moves_no_button() {
    let pack = scratch_pack("banner");
    let mut h = opened(&pack);
    let before = h.get_by_label("Move up").rect().min;
    h.state_mut().open(&pack.with_file_name("no-such-pack.json"));
    h.run();
    assert!(h.state().error().is_some());
    assert_eq!(h.state().mode(), Mode::Pack);
    assert!(h.query_by_label_contains("Error:").is_some());
    assert_eq!(h.get_by_label("Move up").rect().min, before);
}

/// Issue 27: a PuzzleScript level's thumbnail is its sprites, as Play draws them.
#[test]
fn a_puzzlescript_levels_thumbnail_is_drawn_with_its_sprites() {
    let pack = scratch_pack("ps-thumb");
    let dir = pack.parent().unwrap();
    std::fs::copy(fixtures().join("levels/warehouse.json"), dir.join("warehouse.json")).unwrap();
    let mut p = tessera_pack::Pack::new("Sprites");
    p.add(tessera_pack::Entry::path("warehouse.json"), None).unwrap();
    p.add(tessera_pack::Entry::path("../levels/sokoban.json"), None).unwrap();
    p.save(&pack).unwrap();
    let mut h = opened(&pack);
    h.run();
    assert!(h.state().pack().thumbnail_art(0).is_some(), "the PuzzleScript level's sprites");
    assert_eq!(h.state().pack().thumbnail_art(1), None, "Sokoban draws its pieces");
}
