//! The PuzzleScript workbench (issue 34): the source pane beside the board, errors at their
//! lines, rebuild with nothing stale after it, the console, PuzzleScript's keys, File → New
//! game, objects by their names.

use crate::common::{editor, fixtures};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_core::puzzlescript::{PuzzleScriptLevel, PuzzleScriptState, SolveLimits, SolveOutcome, solve};
use tessera_core::{AnyState, Level};
use tessera_editor::{EditorApp, Mode};

fn ps(h: &Harness<'_, EditorApp>) -> PuzzleScriptState {
    match h.state().session().state() {
        AnyState::PuzzleScript(s) => s.clone(),
        other => panic!("a puzzlescript game, not {:?}", other.rule_set()),
    }
}

/// The editor with level 2 of the warehouse game open in Play.
fn warehouse_2() -> Harness<'static, EditorApp> {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    h.get_by_label("Level number").set_value_accesskit(2.0);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    assert_eq!(h.state().mode(), Mode::Play);
    h.get_by_label("Instant").click();
    h.run();
    h
}

/// Makes the warehouse game's push rule a pull in the source pane and rebuilds.
fn rebuild_pulling(h: &mut Harness<'_, EditorApp>) {
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let pulling =
        h.state().workbench().text().replace(rule, "[ < Player | Crate ] -> [ < Player | < Crate ]");
    h.state_mut().workbench_mut().set_text(&pulling);
    h.run();
    h.get_by_label("Rebuild").click();
    h.run();
}

/// The line (from 1) of `text` in the source pane.
fn line_of(h: &Harness<'_, EditorApp>, text: &str) -> usize {
    h.state().workbench().text().lines().position(|l| l == text).expect("the line in the source") + 1
}

fn cursor(h: &Harness<'_, EditorApp>) -> Option<usize> {
    h.state().workbench().editor().cursor_line(&h.ctx)
}

/// Point 1: the source is a pane beside the board in Play, Edit and Debug (its Rebuild button
/// left of the board), full height, shown or hidden in one click; its width is kept in the
/// settings when the split is dragged.
#[test]
fn the_source_pane_sits_beside_the_board_in_play_edit_and_debug() {
    let mut h = warehouse_2();
    assert!(h.state().source_shown());
    assert_eq!(
        h.state().workbench().text(),
        std::fs::read_to_string(fixtures().join("games/warehouse.txt")).unwrap()
    );
    for mode in [Mode::Play, Mode::Edit, Mode::Debug] {
        h.state_mut().set_mode(mode);
        h.run();
        let rebuild = h.get_by_label("Rebuild").rect();
        assert!(rebuild.right() < 560.0, "{mode:?}: the pane on the left, {rebuild:?}");
    }
    // Debug (the step list, the board, the inspector) keeps the board in sight beside the pane.
    let board = h.state().debug().board();
    let corner = board.cell_centre(tessera_core::Pos::new(7, 5)).expect("Debug draws the board");
    let origin = board.cell_centre(tessera_core::Pos::new(0, 0)).expect("Debug draws the board");
    let pane = h.get_by_label("Rebuild").rect().right();
    assert!(origin.x > pane && corner.x < 1280.0 && corner.y < 800.0, "Debug: {origin:?} {corner:?}");
    assert!(corner.x - origin.x > 7.0 * 20.0, "Debug: cells big enough to see: {origin:?} {corner:?}");
    h.state_mut().set_mode(Mode::Play);
    h.run();
    // The board beside it, whole, at 1280×800.
    let corner = h.state().board().cell_centre(tessera_core::Pos::new(7, 5)).expect("drawn");
    let origin = h.state().board().cell_centre(tessera_core::Pos::new(0, 0)).expect("drawn");
    assert!(origin.x > 560.0 && corner.x < 1280.0 && corner.y < 800.0, "{origin:?} {corner:?}");
    assert!(corner.x - origin.x > 7.0 * 20.0, "cells big enough to see");
    // One click hides it, one shows it.
    h.get_by_label("Source").click();
    h.run();
    assert!(h.query_by_label("Rebuild").is_none());
    h.get_by_label("Source").click();
    h.run();
    assert!(h.query_by_label("Rebuild").is_some());
    // Dragging the split: the width goes into the settings (kept between runs).
    let x = h.get_by_label("Rebuild").rect().left() - 8.0 + 520.0;
    let at = |x: f32| egui::pos2(x, 400.0);
    h.hover_at(at(x));
    h.run();
    let button = egui::PointerButton::Primary;
    h.event(egui::Event::PointerButton { pos: at(x), button, pressed: true, modifiers: Default::default() });
    h.run();
    for k in 1..=5 {
        h.hover_at(at(x - 20.0 * k as f32));
        h.run();
    }
    h.event(egui::Event::PointerButton {
        pos: at(x - 100.0),
        button,
        pressed: false,
        modifiers: Default::default(),
    });
    h.run();
    let w = h.state().settings().source_width.expect("the width kept");
    assert!((w - 420.0).abs() < 30.0, "dragged 100 points narrower: {w}");
}

/// Point 1: find with a count, next and previous; go to line; Tab indents; the text's own undo
/// leaves the level's edits alone.
#[test]
fn find_go_to_line_tab_and_the_texts_own_undo() {
    let mut h = warehouse_2();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    let n = h.state().workbench().text().matches("Crate").count()
        + h.state().workbench().text().matches("crate").count()
        + h.state().workbench().text().matches("CRATE").count();
    h.state_mut().workbench_mut().editor_mut().find("crate");
    h.run();
    h.run();
    assert_eq!(h.state().workbench().editor().find_count(), Some((1, n)));
    assert!(h.query_by_label(&format!("1 of {n}")).is_some(), "the count shown");
    let first = cursor(&h).expect("the cursor at the first match");
    h.get_by_label("Next").click();
    h.run();
    h.run();
    assert_eq!(h.state().workbench().editor().find_count(), Some((2, n)));
    h.get_by_label("Previous").click();
    h.run();
    h.get_by_label("Previous").click();
    h.run();
    h.run();
    assert_eq!(h.state().workbench().editor().find_count(), Some((n, n)), "round the start");
    assert!(cursor(&h).expect("a cursor") >= first);
    // Ctrl+G, a number, Enter.
    h.key_press_modifiers(Modifiers::COMMAND, Key::G);
    h.run();
    h.get_by_label("Go to line").type_text("12");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.run();
    assert_eq!(cursor(&h), Some(12));
    // Tab indents at the cursor (the start of line 12), typing goes in; the level is untouched.
    let before = h.state().workbench().text().to_string();
    let revision = h.state().edit().revision();
    h.key_press(Key::Tab);
    h.run();
    h.event(egui::Event::Text("x".into()));
    h.run();
    let typed = h.state().workbench().text().to_string();
    assert_eq!(
        typed.lines().nth(11).map(|l| l.starts_with("\tx")),
        Some(true),
        "{:?}",
        typed.lines().nth(11)
    );
    assert!(h.state().workbench().unbuilt());
    assert_eq!(h.state().edit().revision(), revision, "typing is not an edit of the level");
    // The text's Undo takes the typing back.
    for _ in 0..4 {
        if h.state().workbench().text() == before {
            break;
        }
        h.get_by_label("Undo").click();
        h.run();
    }
    assert_eq!(h.state().workbench().text(), before, "the text's undo");
    assert_eq!(h.state().edit().revision(), revision);
}

/// Points 2 and 3: a typo is an error at its line — a mark in the gutter (the message on
/// hover, a click goes there), the word underlined (unit tests of `source_editor`), the list in
/// the console in plain words; fixing it and rebuilding clears the marks.
#[test]
fn a_typo_is_marked_at_its_line_and_fixed_from_the_gutter() {
    let mut h = warehouse_2();
    let good = h.state().workbench().text().to_string();
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let line = line_of(&h, rule);
    h.state_mut()
        .workbench_mut()
        .set_text(&good.replace(rule, "[ > Player | Crate ] -> [ > Player | > Crat ]"));
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    h.run();
    let marks = h.state().workbench().marks().to_vec();
    assert!(marks.iter().any(|m| m.error && m.line == line), "{marks:?}");
    assert!(marks.iter().all(|m| !m.message.contains("What am I supposed")), "plain words: {marks:?}");
    let console = h.state().console().text();
    assert!(console.contains("Rebuild failed") && console.contains(&format!("line {line}: ")), "{console}");
    // Hover the mark: its message; click it: the cursor on the line.
    h.get_by_label(&format!("error at line {line}")).hover();
    h.run();
    h.run();
    assert!(
        h.query_all_by_label_contains(&format!("Error, line {line}:")).next().is_some(),
        "the message on hover"
    );
    h.get_by_label(&format!("error at line {line}")).click();
    h.run();
    h.run();
    assert_eq!(cursor(&h), Some(line));
    // Fixed: the marks go, the game plays the rules.
    h.state_mut().workbench_mut().set_text(&good);
    h.run();
    h.get_by_label("Rebuild").click();
    h.run();
    assert!(h.state().workbench().marks().is_empty());
    assert!(h.query_by_label(&format!("error at line {line}")).is_none());
}

/// Point 4: a rebuild keeps the board and drops what the old rules computed: Hint's solution is
/// no longer offered, and a log open in Debug is marked as recorded by the old rules.
#[test]
fn after_a_rebuild_the_old_solution_is_gone_and_debug_says_its_log_is_old() {
    let mut h = warehouse_2();
    // A log of the old rules, open in Debug.
    h.key_press(Key::ArrowDown);
    h.run();
    let dir = std::env::temp_dir().join(format!("tessera-workbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("old.tlog");
    h.state().session().save_log(&log).expect("saved");
    h.state_mut().open(&log);
    h.run();
    assert_eq!(h.state().mode(), Mode::Debug);
    h.state_mut().set_mode(Mode::Play);
    h.run();
    // Hint finds a solution.
    h.get_by_label("Hint").click();
    for _ in 0..400 {
        h.run();
        if h.query_by_label_contains("Show the solution").is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(h.query_by_label_contains("Show the solution").is_some(), "Hint found a solution");
    // New rules (pulling), the same board: the solution is gone.
    rebuild_pulling(&mut h);
    h.run();
    assert_eq!(h.state().mode(), Mode::Play);
    assert!(
        h.query_by_label_contains("Show the solution (").is_none(),
        "no solution of the old rules offered"
    );
    assert!(h.state().debug_stale());
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    assert!(h.query_by_label_contains("recorded by the rules before the rebuild").is_some());
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 7: the console lists each step's rules (a link to the line), again turns, sounds and
/// the win; Verbose adds the moves by name; a level loaded clears it.
#[test]
fn the_console_says_which_rules_fired_and_links_to_their_lines() {
    let mut h = warehouse_2();
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let line = line_of(&h, rule) as u32;
    for k in [Key::ArrowDown, Key::ArrowRight, Key::ArrowUp] {
        h.key_press(k);
        h.run();
    }
    let lines = h.state().console().lines().to_vec();
    assert!(lines.iter().any(|l| l.line == Some(line) && l.text == rule), "{lines:?}");
    assert!(lines.iter().any(|l| l.text.starts_with("step 3: up")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.text.starts_with("sound: crate move ")),
        "the push's sound, by name: {lines:?}"
    );
    assert!(!lines.iter().any(|l| l.text.starts_with("Moved")), "details only with Verbose");
    h.state_mut().workbench_mut().go_to_line(1);
    h.run();
    h.get_by_label(&format!("line {line}")).click();
    h.run();
    h.run();
    assert_eq!(cursor(&h), Some(line as usize), "the link goes to the rule");
    // Verbose: the moves, by the objects' names (Escape leaves the text: keys play again).
    h.state_mut().console_mut().verbose = true;
    h.key_press(Key::Escape);
    h.run();
    h.key_press(Key::ArrowLeft);
    h.run();
    let lines = h.state().console().lines().to_vec();
    assert!(lines.iter().any(|l| l.text.starts_with("Moved player")), "verbose names the objects: {lines:?}");
    // Verbose: every rule tried, each linked to its line, the ones that missed too.
    let tried: Vec<_> = lines.iter().filter(|l| l.text.starts_with("tried ")).collect();
    assert!(tried.iter().any(|l| l.text.ends_with("(no match)")), "the rules that missed: {lines:?}");
    let source = h.state().workbench().text().to_string();
    let at = |n: u32| source.lines().nth(n as usize - 1).unwrap_or("?").trim();
    assert!(
        tried.iter().all(|l| l.line.is_some_and(|n| l.text.contains(at(n)))),
        "linked to its rule: {tried:?}"
    );
    // Another level: a clean console.
    h.get_by_label("Next level").click();
    h.run();
    assert!(h.state().console().lines().is_empty(), "{:?}", h.state().console().lines());
}

/// Point 9: Z undoes, R restarts, WASD move, Space is the action, as in PuzzleScript.
#[test]
fn puzzlescript_keys_z_r_wasd_and_space() {
    let mut h = warehouse_2();
    let start = ps(&h);
    h.key_press(Key::S);
    h.run();
    let down = ps(&h);
    assert_ne!(down.rows(), start.rows(), "S moves down");
    h.key_press(Key::Z);
    h.run();
    assert_eq!(ps(&h), start, "Z undoes");
    h.key_press(Key::S);
    h.run();
    h.key_press(Key::D);
    h.run();
    let walked = ps(&h);
    h.key_press(Key::Space);
    h.run();
    assert_ne!(ps(&h), walked, "Space is the action");
    h.key_press(Key::R);
    h.run();
    assert_eq!(ps(&h).rows(), start.rows(), "R restarts");
}

/// Point 10: File → New game opens each example in Edit, its source in the pane, and every
/// example's levels can be won (core's solver finds a solution of each).
#[test]
fn new_game_opens_examples_that_can_be_won() {
    for (name, source) in tessera_editor::games::EXAMPLES {
        let game =
            tessera_core::puzzlescript::engine::compile(source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let levels = tessera_core::puzzlescript::playable_count(&game);
        assert!(levels >= 1, "{name}");
        for k in 0..levels {
            let level = PuzzleScriptLevel { name: None, seed: None, source: (*source).into(), level: k };
            let (rules, s) = level.start(0).expect("starts");
            let report = solve(&rules, &s, SolveLimits::default(), &mut || false);
            assert!(
                matches!(&report.outcome, SolveOutcome::Solved(c) if !c.is_empty()),
                "{name} {k}: {:?}",
                report.outcome
            );
        }
    }
    let mut h = editor();
    h.get_by_label("File").click();
    h.run();
    // The File menu's New game (the Play panel has a New game button too: it is further right).
    let menu = h.query_all_by_label("New game").min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()));
    menu.expect("File → New game").click();
    h.run();
    h.get_by_label("Pull (drag a crate)").click();
    h.run();
    assert_eq!(h.state().mode(), Mode::Edit);
    assert!(h.state().workbench().text().contains("[ < Player | Crate ] -> [ < Player | < Crate ]"));
    assert!(h.state().window_title().starts_with("Pull · level 1"), "{}", h.state().window_title());
    // Its first level plays: walk right, away from the crate, twice... the pull rule fires.
    h.state_mut().set_mode(Mode::Play);
    h.run();
    assert!(h.query_by_label("Seed").is_none(), "no seed for a game without randomness");
    let start = ps(&h);
    h.key_press(Key::ArrowRight);
    h.run();
    assert_ne!(ps(&h).rows(), start.rows());
    assert!(h.state().console().text().contains("[ < Player | Crate ] -> [ < Player | < Crate ]"));
}

/// Point 8: Debug's events name the objects.
#[test]
fn debug_names_objects_in_events() {
    let mut h = warehouse_2();
    h.key_press(Key::ArrowDown);
    h.run();
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    h.state_mut().debug_mut().seek(1);
    h.run();
    h.run();
    assert!(h.query_by_label_contains("Moved player (2, 3) → (2, 4)").is_some(), "the move by name");
    assert!(h.query_by_label_contains("{\"Moved\"").is_none(), "no numbers");
    let _ = Level::classic();
}

/// Point 6: the title names the game, the level and whether the source is unsaved; Play and
/// Edit say which level each shows when they differ.
#[test]
fn the_title_names_game_level_and_unsaved_and_differing_levels_are_said() {
    let mut h = warehouse_2();
    let title = h.state().window_title();
    assert!(title.starts_with("Warehouse · level 2 · "), "{title}");
    assert!(!title.ends_with("unsaved"), "{title}");
    let typed = format!("{}\n", h.state().workbench().text());
    h.state_mut().workbench_mut().set_text(&typed);
    h.run();
    assert!(h.state().window_title().ends_with(" · unsaved"));
    h.state_mut().workbench_mut().set_text(typed.trim_end_matches('\n'));
    h.get_by_label("Next level").click();
    h.run();
    assert_eq!(h.state().levels_shown(), Some((3, 2)));
    assert!(h.query_by_label_contains("Play shows level 3, Edit level 2").is_some());
}

/// Point 6: a log of a game opened in Debug is titled by that game and level, not by the game
/// Play had (here the built-in 2048, which has no title: it said "untitled game · level 1").
#[test]
fn a_log_opened_in_debug_is_titled_by_its_game() {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("logs/v2/warehouse_seed3.tlog"));
    h.run();
    assert_eq!(h.state().mode(), Mode::Debug);
    let title = h.state().window_title();
    assert!(title.starts_with("Warehouse · level "), "{title}");
}

/// Point 4: the Difficulty panel's results are of the old rules: a rebuild drops them.
#[test]
fn a_rebuild_drops_the_difficulty_results_of_the_old_rules() {
    let mut h = warehouse_2();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    // At the foot of the Edit panel: scrolled into view, opened.
    h.get_by_label("Difficulty").scroll_to_me();
    h.run();
    h.get_by_label("Difficulty").click();
    h.run();
    h.get_by_label("Run bots").scroll_to_me();
    h.run();
    h.get_by_label("random").click();
    h.run();
    h.get_by_label("Games").set_value_accesskit(4.0);
    h.run();
    h.get_by_label("Run bots").click();
    h.run();
    for _ in 0..6000 {
        if !h.state().edit().difficulty().running() {
            break;
        }
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run();
    assert!(h.state().edit().difficulty().report().is_some(), "a report of the old rules");
    rebuild_pulling(&mut h);
    assert!(h.state().edit().difficulty().report().is_none(), "dropped by the rebuild");
}
