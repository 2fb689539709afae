//! Sokoban in the editor: played by keys, a click that walks and a click that pushes, undone;
//! a level painted from the palette with its checks live; collections (`.xsb`, Boxoban `.txt`)
//! opened by picking a level; its golden log stepped in Debug.

use crate::common::{click_cell, editor, editor_with, fixtures};
use egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tessera_core::sokoban::{PLAYER, SokobanState};
use tessera_core::{AnyState, Level, Pos, RuleSet};
use tessera_ecs::{Anim, AnimKind};
use tessera_editor::draft::Ink;
use tessera_editor::{EditorApp, Mode};

fn sokoban(h: &Harness<'_, EditorApp>) -> SokobanState {
    match h.state().session().state() {
        AnyState::Sokoban(s) => s.clone(),
        other => panic!("a sokoban game, not {:?}", other.rule_set()),
    }
}

fn click(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// Clicks Hint and waits for its answer (the search runs in a thread; the panel says so).
fn ask_hint(h: &mut Harness<'_, EditorApp>) {
    let before = h.state().session().history().step();
    click(h, "Hint");
    for _ in 0..3000 {
        if h.state().message().is_some_and(|m| m.starts_with("Hint:")) {
            break;
        }
        assert!(h.query_by_label("Searching for a hint…").is_some(), "the search shows while it runs");
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.step();
    }
    h.run();
    assert!(
        h.state().message().is_some_and(|m| m.starts_with("Hint:")),
        "an answer: {:?}",
        h.state().message()
    );
    assert_eq!(h.state().session().history().step(), before, "a hint plays nothing");
}

/// A unique path in the temp folder.
fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-editor-sokoban-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn plays_by_keys_walks_by_click_pushes_by_click_and_undoes() {
    let mut h = editor_with("levels/sokoban.json");
    let start = sokoban(&h);
    assert_eq!(start.player(), Pos::new(11, 8));
    assert!(h.query_all_by_label_contains("Boxes on goals 0 of 6").next().is_some(), "the counts show");
    assert!(h.query_by_label_contains("Score ").is_none(), "no generic score: the counts name the moves");
    // Arrow up, then A (left).
    h.key_press(Key::ArrowUp);
    h.run();
    assert_eq!(sokoban(&h).player(), Pos::new(11, 7));
    h.key_press(Key::A);
    h.run();
    assert_eq!(sokoban(&h).player(), Pos::new(10, 7));
    // A wall: refused, nothing changes.
    h.key_press(Key::W);
    h.run();
    assert_eq!(h.state().session().history().step(), 2, "up from (10, 7) is a wall");
    // A click on a free cell walks there: one step, four moves.
    click_cell(&mut h, Pos::new(6, 7));
    let s = sokoban(&h);
    assert_eq!((s.player(), s.moves(), s.pushes()), (Pos::new(6, 7), 6, 0));
    assert_eq!(h.state().session().history().step(), 3, "a walk is one step");
    // The mirror animates it: the player walks the path, cell by cell.
    let anim = |h: &Harness<'_, EditorApp>, id| {
        let m = h.state().session().mirror();
        let e = m.entity_of(id).expect("in the mirror");
        m.world().get::<&Anim>(e).ok().map(|a| (*a).clone())
    };
    let walk = anim(&h, PLAYER).expect("the player is animated");
    assert_eq!(walk.kind, AnimKind::Walk);
    assert_eq!(
        walk.path.as_deref(),
        Some(&[Pos::new(10, 7), Pos::new(9, 7), Pos::new(8, 7), Pos::new(7, 7), Pos::new(6, 7)][..])
    );
    // A click on the box beside the player pushes it.
    assert!(s.box_at(Pos::new(5, 7)).is_some());
    click_cell(&mut h, Pos::new(5, 7));
    let s = sokoban(&h);
    assert_eq!((s.player(), s.pushes()), (Pos::new(5, 7), 1));
    let id = s.box_at(Pos::new(4, 7)).expect("the box moved on");
    // The push slides the box and the player together.
    let (b, p) = (anim(&h, id).expect("the box slides"), anim(&h, PLAYER).expect("the player slides"));
    assert_eq!((b.kind, b.from, b.to, b.phase), (AnimKind::Glide, Pos::new(5, 7), Pos::new(4, 7), p.phase));
    assert_eq!((p.from, p.to), (Pos::new(6, 7), Pos::new(5, 7)));
    assert!(h.query_all_by_label_contains("pushes 1").next().is_some(), "the counts follow");
    // Undo by button, then by Ctrl+Z back to the start.
    click(&mut h, "Undo");
    assert!(sokoban(&h).box_at(Pos::new(5, 7)).is_some(), "undo takes the push back");
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
    }
    assert_eq!(h.state().session().history().step(), 0);
    assert_eq!(sokoban(&h), start, "undo restores the start exactly");
}

#[test]
fn hint_marks_a_move_and_solving_says_so() {
    let mut h = editor();
    let path = temp_path("corridor.json");
    std::fs::write(&path, r######"{"rule_set":"sokoban","board":["#####","#@$.#","#####"]}"######)
        .expect("write");
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().error(), None);
    ask_hint(&mut h);
    assert_eq!(h.state().message().as_deref(), Some("Hint: push the box right"), "the first move, in words");
    h.key_press(Key::D);
    h.run();
    assert!(sokoban(&h).is_solved());
    assert!(h.query_by_label_contains("Solved: every box is on a goal").is_some());
    let hint = h.get_by_label("Hint");
    assert!(hint.accesskit_node().is_disabled(), "nothing left to hint: Hint stays, disabled");
}

/// After Hint, "Show the solution" plays the fewest-pushes solution from here, a move at a time,
/// to the solved board; it is offered only for the position Hint was asked about.
#[test]
fn show_the_solution_plays_hints_solution_to_the_end() {
    let mut h = editor();
    open_rows(&mut h, "two-boxes.json", &["#######", "#     #", "# $@$ #", "#.   .#", "#######"]);
    assert!(h.query_by_label_contains("Show the solution (").is_none(), "not before a hint");
    ask_hint(&mut h);
    let moves = match h.state().message() {
        Some(m) if m.starts_with("Hint: ") => h
            .query_by_label_contains("Show the solution (")
            .and_then(|n| n.accesskit_node().label())
            .and_then(|l| l.trim_start_matches("Show the solution (").split(' ').next().map(str::to_string))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("a Show the solution button after {m}")),
        other => panic!("{other:?}"),
    };
    h.get_by_label(&format!("Show the solution ({moves} steps)")).click();
    h.step();
    assert!(h.state().walking());
    for _ in 0..1_000_000 {
        if !h.state().walking() {
            break;
        }
        h.step();
    }
    h.run();
    assert!(sokoban(&h).is_solved(), "the solution solves the level");
    assert_eq!(h.state().session().history().step(), moves);
    // A position Hint was not asked about offers no solution.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.query_by_label_contains("Show the solution (").is_none());
}

/// Opens a level of `rows` written to a temp file named `name`.
fn open_rows(h: &mut Harness<'_, EditorApp>, name: &str, rows: &[&str]) {
    let path = temp_path(name);
    let level = Level::Sokoban(tessera_core::sokoban::SokobanLevel::from_rows(
        rows.iter().map(|r| r.to_string()).collect(),
    ));
    std::fs::write(&path, level.to_json()).expect("write");
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().error(), None);
}

#[test]
fn hint_in_a_lost_position_says_so_and_offers_undo() {
    let mut h = editor();
    // The box pushed left lands against the wall, a column the goal is not in: lost.
    open_rows(&mut h, "lost.json", &["######", "#    #", "# $@.#", "#    #", "######"]);
    ask_hint(&mut h);
    let hint = h.state().message().unwrap_or_default();
    assert_eq!(hint, "Hint: walk to (1, 2), then push the box right", "in words, not `walk 1 2`");
    // The hint is framed in its own colour, not the goals' gold.
    let st = h.state().session().state().clone();
    let rules = h.state().session().history().rules().clone();
    let mut play = tessera_editor::play::PlayInput {
        hint: Some((Pos::new(3, 2), Pos::new(1, 2))),
        ..Default::default()
    };
    let o = play.overlay(&rules, &st, None);
    let game = tessera_editor::games::of(RuleSet::Sokoban).expect("sokoban");
    let goal = game.ground(&st).expect("a ground").legend
        [usize::from(tessera_core::sokoban::ground_index(tessera_core::sokoban::Cell::Goal))];
    let colour = o.highlight_colour.unwrap_or(tessera_editor::palette::HIGHLIGHT);
    let far = |a: u8, b: u8| a.abs_diff(b) > 0x60;
    assert!(
        far(colour.r(), goal.r()) || far(colour.g(), goal.g()) || far(colour.b(), goal.b()),
        "{colour:?} vs the goal's {goal:?}"
    );
    play.clear();
    h.key_press(Key::ArrowLeft);
    h.run();
    assert!(sokoban(&h).box_at(Pos::new(1, 2)).is_some(), "pushed against the wall");
    assert_eq!(h.state().message(), None, "the hint was about the position before the push");
    // Hint again, and again: never a move, but the verdict and Undo.
    for _ in 0..2 {
        ask_hint(&mut h);
        let m = h.state().message().unwrap_or_default();
        assert!(m.contains("no solution from here"), "{m}");
        assert_eq!(h.state().session().history().step(), 1, "a hint plays nothing");
    }
    click(&mut h, "Undo last move");
    assert_eq!(h.state().session().history().step(), 0, "the offered Undo goes back");
    assert_eq!(h.state().message(), None, "the verdict goes with the lost position");
    // Undo and redo take a hint away with its position.
    ask_hint(&mut h);
    assert!(h.state().message().is_some_and(|m| m.starts_with("Hint: walk")));
    h.key_press(Key::ArrowUp);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().message(), None, "no stale hint after undo");
    ask_hint(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.run();
    assert_eq!(h.state().message(), None, "no stale hint after redo");
}

#[test]
fn a_refusal_stays_in_play() {
    let mut h = editor();
    open_rows(&mut h, "refuse.json", &["#####", "#@$.#", "#####"]);
    h.key_press(Key::ArrowUp);
    h.run();
    let m = h.state().message().unwrap_or_default();
    assert!(m.starts_with("refused"), "{m}");
    click(&mut h, "Edit");
    assert_eq!(h.state().message(), None, "Play's refusal does not follow into Edit");
    click(&mut h, "Play");
    assert!(h.state().message().is_some_and(|m| m.starts_with("refused")), "it is still Play's");
}

fn canvas_centre(h: &Harness<'_, EditorApp>, p: Pos) -> Pos2 {
    h.state().edit().cell_centre(p).expect("the canvas was drawn")
}

/// Presses and releases the primary button at each of `cells` in turn (one stroke).
fn stroke(h: &mut Harness<'_, EditorApp>, cells: &[Pos]) {
    let button = |h: &mut Harness<'_, EditorApp>, pressed: bool, pos: Pos2| {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
    };
    let a = canvas_centre(h, cells[0]);
    h.hover_at(a);
    h.run();
    button(h, true, a);
    h.run();
    for &p in &cells[1..] {
        let b = canvas_centre(h, p);
        h.hover_at(b);
        h.run();
    }
    let last = canvas_centre(h, *cells.last().expect("a cell"));
    button(h, false, last);
    h.run();
}

fn problem(h: &Harness<'_, EditorApp>) -> String {
    crate::common::problems_shown(h)
}

#[test]
fn a_level_painted_from_the_palette_shows_its_checks_and_plays() {
    let mut h = editor();
    click(&mut h, "Edit");
    click(&mut h, "New level");
    click(&mut h, RuleSet::Sokoban.name());
    h.get_by_label("New width").set_value_accesskit(7.0);
    h.run();
    h.get_by_label("New height").set_value_accesskit(5.0);
    h.run();
    click(&mut h, "Create level");
    click(&mut h, "New level");
    assert_eq!(h.state().edit().draft().rule_set(), RuleSet::Sokoban);
    assert!(problem(&h).contains("no player"), "{}", problem(&h));
    assert!(problem(&h).contains("no box"), "every failing check is listed: {}", problem(&h));
    assert!(h.get_by_label("Play this level").accesskit_node().is_disabled(), "a draft does not play");
    // Walls all round.
    click(&mut h, "Wall");
    let (a, b, c, d) = (Pos::new(0, 0), Pos::new(6, 0), Pos::new(6, 4), Pos::new(0, 4));
    stroke(&mut h, &[a, b, c, d, a]);
    assert_eq!(h.state().edit().draft().ink(Pos::new(3, 4)), Some(Ink::Glyph('#')));
    click(&mut h, "Player");
    stroke(&mut h, &[Pos::new(1, 2)]);
    click(&mut h, "Box");
    stroke(&mut h, &[Pos::new(3, 2)]);
    assert!(problem(&h).contains("1 box but 0 goals"), "{}", problem(&h));
    click(&mut h, "Goal");
    stroke(&mut h, &[Pos::new(5, 2)]);
    assert!(h.query_by_label("Playable").is_some(), "{:?}", h.state().edit().draft().check());
    // A gap in the wall: named, with its cell outlined.
    click(&mut h, "Floor");
    stroke(&mut h, &[Pos::new(0, 2)]);
    assert!(problem(&h).contains("walk off"), "{}", problem(&h));
    assert_eq!(h.state().edit().draft().check().err().and_then(|p| p.cell), Some(Pos::new(0, 2)));
    // A second player: the one later in reading order is outlined, naming the first.
    click(&mut h, "Undo edit");
    click(&mut h, "Player on goal");
    stroke(&mut h, &[Pos::new(2, 1)]);
    assert!(problem(&h).contains("second player (the first is at (2, 1))"), "{}", problem(&h));
    assert_eq!(h.state().edit().draft().check().err().and_then(|p| p.cell), Some(Pos::new(1, 2)));
    click(&mut h, "Undo edit");
    assert!(h.query_by_label("Playable").is_some());
    let Level::Sokoban(l) = h.state().edit().draft().to_level() else { panic!("sokoban") };
    assert_eq!(l.board, ["#######", "#     #", "#@ $ .#", "#     #", "#######"]);
    // Play it: two pushes right solve it.
    click(&mut h, "Play this level");
    assert_eq!(h.state().mode(), Mode::Play);
    click_cell(&mut h, Pos::new(2, 2));
    h.key_press(Key::ArrowRight);
    h.run();
    h.key_press(Key::ArrowRight);
    h.run();
    assert!(sokoban(&h).is_solved(), "walk, push, push");
}

const COLLECTION: &str = "\
Title: Three small ones
Author: tests

; first
#####
#@$.#
#####

; second
######
#@ $.#
######

; third
#######
#@  $.#
#######
";

#[test]
fn a_collection_asks_which_level_and_opens_the_one_picked() {
    let path = temp_path("three.xsb");
    std::fs::write(&path, COLLECTION).expect("write");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().error(), None);
    assert!(h.query_by_label("Choose a level").is_some(), "the list dialog shows");
    assert!(h.state().dialog_open(), "keys go to the dialog");
    // Issue 36.9: the window's title names the file whose levels are offered, not the built-in
    // 2048 game behind the dialog.
    let title = h.state().window_title();
    assert!(title.contains("three.xsb") && !title.contains("2048"), "{title}");
    // Keys do not reach the board behind it.
    let before = h.state().session().state().clone();
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().session().state(), &before);
    click(&mut h, "2. three second");
    click(&mut h, "Open level");
    assert!(h.query_by_label("Choose a level").is_none(), "the dialog closed");
    assert_eq!(h.state().mode(), Mode::Play);
    let s = sokoban(&h);
    assert_eq!((s.size().width, s.player()), (6, Pos::new(1, 1)), "the second level");
    assert!(h.state().title().ends_with("2. three second"), "{}", h.state().title());
    // Cancel leaves the game as it was.
    h.state_mut().open(&path);
    h.run();
    click(&mut h, "Cancel");
    assert!(!h.state().dialog_open());
    assert_eq!(sokoban(&h).size().width, 6);
    // A bad level in a collection: nothing opens, and the error names the level, line and column.
    let bad = temp_path("bad.xsb");
    std::fs::write(&bad, COLLECTION.replace("#@  $.#", "#@  $x#")).expect("write");
    h.state_mut().open(&bad);
    h.run();
    let e = h.state().error().unwrap_or_default().to_string();
    assert!(e.contains("level 3") && e.contains("line 16") && e.contains("'x'"), "{e}");
    assert!(!h.state().dialog_open());
}

#[test]
fn a_boxoban_txt_opens_through_the_level_list() {
    let mut text = String::new();
    for n in 0..2 {
        text.push_str(&format!("; {n}\n"));
        text.push_str("##########\n#@       #\n#  $   . #\n");
        for _ in 0..6 {
            text.push_str("#        #\n");
        }
        text.push_str("##########\n\n");
    }
    let path = temp_path("boxoban.txt");
    std::fs::write(&path, text).expect("write");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().error(), None);
    // Issue 28.6: one numbering: the file's own `; N` in the list, in "Level number" and in
    // `tessera convert`'s file names (boxoban-001.json).
    assert!(h.query_by_label("0. boxoban 0").is_some() && h.query_by_label("1. boxoban 1").is_some());
    h.get_by_label("Level number").set_value_accesskit(1.0);
    h.run();
    click(&mut h, "Open level");
    assert_eq!(sokoban(&h).size().width, 10);
    assert!(h.state().title().ends_with("1. boxoban 1"), "{}", h.state().title());
    // File → Previous level / Next level walk the collection.
    assert_eq!(h.state().collection_position(), Some((1, 2)));
    h.state_mut().step_collection(false);
    h.run();
    assert!(h.state().title().ends_with("0. boxoban 0"), "{}", h.state().title());
    h.state_mut().step_collection(false);
    assert!(h.state().title().ends_with("0. boxoban 0"), "no level before the first");
    h.state_mut().step_collection(true);
    assert!(h.state().title().ends_with("1. boxoban 1"), "{}", h.state().title());
    // Enter opens the level picked in the list.
    h.state_mut().open(&path);
    h.run();
    click(&mut h, "0. boxoban 0");
    h.key_press(Key::Enter);
    h.run();
    assert!(!h.state().dialog_open(), "Enter opened it");
    assert!(h.state().title().ends_with("0. boxoban 0"), "{}", h.state().title());
    // A match-3 stage `.txt` still opens as before.
    h.state_mut().open(&fixtures().join("stages/stage_voids.txt"));
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(h.state().session().state().rule_set(), RuleSet::Match3);
}

#[test]
fn the_golden_log_steps_in_debug_with_the_counts() {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("logs/v2/sokoban_seed0.tlog"));
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(h.state().mode(), Mode::Debug);
    h.key_press(Key::End);
    h.run();
    let log = tessera_replay::Log::open(fixtures().join("logs/v2/sokoban_seed0.tlog")).expect("the log");
    let d = h.state().debug().debugger().expect("a log is open");
    assert_eq!(d.step(), log.steps(), "End went to the last step");
    let last = log.state_at(log.steps()).expect("every state");
    assert_eq!(d.state(), Ok(&last));
    let AnyState::Sokoban(s) = &last else { panic!("a sokoban log") };
    let counts = format!("Boxes on goals {} of {} · moves {}", s.boxes_on_goals(), s.box_count(), s.moves());
    assert!(h.query_all_by_label_contains(&counts).next().is_some(), "the inspector says {counts}");
    assert!(h.query_by_label("Score").is_none(), "no generic score row: the counts name the moves");
}

#[test]
fn saving_a_draft_over_a_playable_level_asks_first_and_play_says_the_file_changed() {
    let mut h = editor();
    open_rows(&mut h, "keep.json", &["######", "#@ $.#", "######"]);
    let path = temp_path("keep.json");
    let playable = std::fs::read_to_string(&path).expect("written");
    assert_eq!(h.state_mut().play_changed(), None, "nothing changed yet");
    click(&mut h, "Edit");
    click(&mut h, "Floor");
    stroke(&mut h, &[Pos::new(1, 1)]);
    assert!(h.state().edit().draft().check().is_err(), "no player: a draft");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(h.state().overwrite_question(), Some(path.as_path()), "Ctrl+S asks first");
    assert!(h.query_by_label("Save a draft over a playable level?").is_some());
    assert!(h.state().dialog_open());
    assert_eq!(std::fs::read_to_string(&path).expect("there"), playable, "nothing written yet");
    click(&mut h, "Cancel");
    assert_eq!(std::fs::read_to_string(&path).expect("there"), playable, "Cancel keeps the level");
    assert!(h.state().edit().dirty());
    // Asked again, and saved.
    click(&mut h, "Save level");
    click(&mut h, "Save the draft over it");
    assert!(Level::from_json(&std::fs::read_to_string(&path).expect("there")).is_err(), "a draft now");
    assert!(!h.state().edit().dirty());
    // Play still plays the old game, and says the file changed.
    click(&mut h, "Play");
    assert_eq!(
        h.state_mut().play_changed(),
        Some(tessera_editor::Changed::Disk(path.clone())),
        "the file holds another level now"
    );
    assert!(h.query_by_label_contains("changed on disk").is_some());
}

#[test]
fn play_says_when_edit_or_the_file_changed_and_plays_the_new_level() {
    let mut h = editor();
    open_rows(&mut h, "changing.json", &["######", "#@ $.#", "#    #", "######"]);
    let path = temp_path("changing.json");
    // Edit changes the level (still playable): Play says so and plays Edit's on request.
    click(&mut h, "Edit");
    click(&mut h, "Wall");
    stroke(&mut h, &[Pos::new(1, 2)]);
    click(&mut h, "Play");
    assert_eq!(h.state_mut().play_changed(), Some(tessera_editor::Changed::Edit));
    assert!(h.query_by_label_contains("Edit has changes").is_some());
    click(&mut h, "Play the edited level");
    assert_eq!(h.state_mut().play_changed(), None, "the game is Edit's level now");
    assert_eq!(sokoban(&h).cell(Pos::new(1, 2)), Some(tessera_core::sokoban::Cell::Wall));
    // Saving that level is no change to what is played.
    click(&mut h, "Edit");
    click(&mut h, "Save level");
    click(&mut h, "Play");
    assert_eq!(h.state_mut().play_changed(), None, "the file holds the level played");
    // Another program rewrites the file: Play says so; Reload plays it.
    let other = Level::Sokoban(tessera_core::sokoban::SokobanLevel::from_rows(
        ["#######", "#@ $ .#", "#######"].iter().map(|r| r.to_string()).collect(),
    ));
    std::fs::write(&path, other.to_json()).expect("write");
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options().write(true).open(&path).and_then(|f| f.set_modified(later)).expect("mtime");
    assert_eq!(h.state_mut().play_changed(), Some(tessera_editor::Changed::Disk(path.clone())));
    h.run();
    click(&mut h, "Reload");
    assert_eq!(h.state_mut().play_changed(), None);
    assert_eq!(sokoban(&h).size().width, 7, "the file's new level");
}

#[test]
fn sokoban_edits_without_a_seed_and_its_difficulty_shows_the_solvers_figures_in_view() {
    let mut h = editor();
    open_rows(&mut h, "puzzle.json", &["#######", "#@ $ .#", "#     #", "#######"]);
    assert!(h.query_by_label("Seed").is_none(), "Play asks for no seed: nothing is random");
    click(&mut h, "Edit");
    assert!(h.query_by_label("Level seed").is_none() && h.query_by_label("Play seed").is_none());
    // Save as proposes the level's name when it has no file yet.
    click(&mut h, "Name");
    h.get_by_label("Name").type_text("Box: the first");
    h.run();
    let Level::Sokoban(l) = h.state().edit().draft().to_level() else { panic!("sokoban") };
    assert_eq!((l.name.as_deref(), l.seed), (Some("Box: the first"), None), "no seed written");
    assert!(!h.state().edit().draft().to_level().to_json().contains("seed"));
    assert_eq!(tessera_editor::file_name_for(l.name.as_deref()), "box-the-first.json");
    click(&mut h, "Difficulty");
    assert!(h.query_by_label("First seed").is_none());
    // Issue 36.7: the solver's bot on a level without chance plays one game, and says so.
    assert!(h.query_by_label(tessera_editor::difficulty::ONE_GAME).is_some());
    assert!(h.query_by_label("Games").is_none(), "no number of games to choose");
    // The estimate comes first in the panel (issue 65): the bots' button is under it, and moves
    // down when the estimate's figures come (on a loaded machine, after the first frames): the
    // click waits for them, or it lands where the button was.
    let mut frames = 0;
    while h.state().edit().difficulty().estimate().running() {
        assert!(frames < 6000, "the estimate came within 6,000 frames");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
        frames += 1;
    }
    h.run();
    h.get_by_label("Run bots").scroll_to_me();
    h.run();
    click(&mut h, "Run bots");
    let d = h.state().edit().difficulty();
    assert!(d.running() || d.report().is_some(), "Run bots started the bots' sweep");
    let mut frames = 0;
    h.step();
    // Until the sweep has run (under a loaded machine it may not have begun by the first frame).
    while h.state().edit().difficulty().running() || h.state().edit().difficulty().report().is_none() {
        assert!(frames < 6000, "the sweep finished within 6,000 frames");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
        frames += 1;
    }
    h.run();
    assert_eq!(h.state().edit().difficulty().report().map(|r| r.summary.games), Some(1), "one game");
    let solver = h.get_by_label_contains("Solver (");
    let text = solver.value().unwrap_or_default();
    // Each figure with its unit: the solver's moves are steps, the bot's game counts commands.
    assert!(text.contains("2 pushes") && text.contains("moves (steps of one cell)"), "{text}");
    assert!(solver.rect().max.y <= 800.0, "the results scrolled into view: {:?}", solver.rect());
    let game = h.get_by_label_contains("The bot's game: won, ");
    let game = game.value().unwrap_or_default();
    assert!(game.contains(" commands (each step, push, tap, swap or walk"), "{game}");
    assert!(h.query_by_label_contains("best game").is_none(), "no best seed: every game is the same");
    assert!(h.query_by_label_contains("games: won").is_none(), "no win rate of one game");
    // Another bot plays by its seed: the number of games is back.
    click(&mut h, "random");
    assert!(h.query_by_label(tessera_editor::difficulty::ONE_GAME).is_none());
    assert!(h.query_by_label("Games").is_some());
}

#[test]
fn save_as_proposes_the_levels_name() {
    let path = temp_path("named.xsb");
    std::fs::write(&path, COLLECTION).expect("write");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    click(&mut h, "2. named second");
    click(&mut h, "Open level");
    click(&mut h, "Edit");
    click(&mut h, "Save level as…");
    let proposed = h.get_by_label("Path").value().unwrap_or_default();
    assert!(proposed.ends_with("named-second.json"), "{proposed}");
}

#[test]
fn a_box_on_its_goal_is_framed_right_after_the_push_as_after_the_next_walk() {
    let settings =
        tessera_editor::Settings { speed: tessera_editor::anim::Speed::Instant, ..Default::default() };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_max_steps(64)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), EditorApp::new(settings));
    open_rows(&mut h, "frame.json", &["######", "#@$ .#", "#    #", "######"]);
    h.key_press(Key::ArrowRight);
    h.run();
    assert!(h.state().board().framed().is_empty(), "no box on a goal yet");
    h.key_press(Key::ArrowRight);
    h.run();
    assert!(sokoban(&h).is_solved());
    assert_eq!(h.state().board().framed(), [Pos::new(4, 1)], "framed as soon as it rests on the goal");
    click_cell(&mut h, Pos::new(1, 2));
    assert_eq!(h.state().board().framed(), [Pos::new(4, 1)], "and the same after a walk");
}

#[test]
fn nothing_moves_when_problems_or_errors_come_and_a_fixed_problems_message_goes() {
    let mut h = editor();
    let path = temp_path("draft-no-player.json");
    std::fs::write(&path, r#######"{"rule_set":"sokoban","board":["######","#  $.#","######"]}"#######)
        .expect("write");
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().mode(), Mode::Edit, "a draft opens in Edit");
    let m = h.state().message().unwrap_or_default();
    assert!(m.starts_with("opened as a draft"), "{m}");
    let wall = h.get_by_label("Wall").rect().min;
    let cell = canvas_centre(&h, Pos::new(1, 1));
    // Fixed: the message about the problem goes with it.
    click(&mut h, "Player");
    stroke(&mut h, &[Pos::new(1, 1)]);
    assert!(h.query_by_label("Playable").is_some());
    assert_eq!(h.state().message(), None, "a fixed problem's message does not stay");
    assert_eq!(h.get_by_label("Wall").rect().min, wall, "the palette stays put");
    // Three problems at once (a second and third player, a gap): listed, nothing moves.
    stroke(&mut h, &[Pos::new(2, 1)]);
    click(&mut h, "Floor");
    stroke(&mut h, &[Pos::new(0, 1)]);
    assert!(problem(&h).lines().count() >= 2, "{}", problem(&h));
    assert_eq!(h.get_by_label("Wall").rect().min, wall, "the problems' box keeps its room");
    assert_eq!(canvas_centre(&h, Pos::new(1, 1)), cell, "the canvas keeps its place");
    // An error: in the status bar, nothing above it moves.
    h.state_mut().open(&temp_path("no such log.tlog"));
    h.run();
    assert!(h.state().error().is_some());
    assert_eq!(h.get_by_label("Wall").rect().min, wall, "no banner pushes the panel down");
    assert_eq!(canvas_centre(&h, Pos::new(1, 1)), cell, "nor the canvas");
    click(&mut h, "Dismiss");
    assert_eq!(h.state().error(), None);
}

/// Where the Play panel's buttons are: Hint's, Restart's and Fit board's tops (a level without
/// chance has no New game: issue 63.12).
fn panel_rows(h: &Harness<'_, EditorApp>) -> [f32; 3] {
    let hint = h.query_by_label("Hint").or_else(|| h.query_by_label("Searching for a hint…"));
    [
        hint.expect("the Hint row is always there").rect().top(),
        h.get_by_label("Restart").rect().top(),
        h.get_by_label("Fit board").rect().top(),
    ]
}

/// Issue 36.6: the Play panel does not move under the pointer: Hint's answer ("Show the solution
/// (N steps)"), a solution being shown ("step k of N / Stop") and the win leave Hint, New game
/// and Restart where they were.
#[test]
fn the_play_panel_keeps_its_rows_through_hint_solution_and_win() {
    let mut h = editor();
    open_rows(&mut h, "steady.json", &["#######", "#     #", "# $@$ #", "#.   .#", "#######"]);
    let start = panel_rows(&h);
    h.get_by_label("Hint").click();
    for _ in 0..3000 {
        h.step();
        if h.query_by_label_contains("Show the solution (").is_some() {
            break;
        }
        assert_eq!(panel_rows(&h), start, "while searching");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run();
    assert_eq!(panel_rows(&h), start, "with a solution to show");
    h.get_by_label_contains("Show the solution (").click();
    h.step();
    h.step();
    assert!(h.state().walking());
    assert!(h.query_by_label_contains("Showing the solution: step").is_some());
    assert_eq!(panel_rows(&h), start, "while the solution is shown");
    for _ in 0..1_000_000 {
        if !h.state().walking() {
            break;
        }
        h.step();
    }
    h.run();
    assert!(sokoban(&h).is_solved());
    assert_eq!(panel_rows(&h), start, "once won");
}

/// Issue 36.4: with the walls open at (6, 2) and (0, 3), Edit lists and outlines both openings
/// (it listed only (0, 3)).
#[test]
fn every_opening_in_the_walls_is_listed_and_outlined() {
    let mut h = editor();
    open_rows(&mut h, "gaps.json", &["#######", "#@$. ##", "#      ", "   ####", "#######"]);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    let shown = problem(&h);
    for cell in ["(6, 2)", "(0, 3)"] {
        assert_eq!(
            shown.matches(&format!("board cell {cell}: the player can walk off")).count(),
            1,
            "{shown}"
        );
    }
    let outlined: Vec<Option<Pos>> = h.state_mut().edit_mut().problems().iter().map(|p| p.cell).collect();
    assert_eq!(outlined, [Some(Pos::new(6, 2)), Some(Pos::new(0, 3))]);
}
