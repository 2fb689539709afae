//! The PuzzleScript workbench's loop (issue 63): a rebuild stays in the mode and on the level
//! shown, Ctrl+S saves the game, a log opened never takes Edit's game, Debug beside the source,
//! difficulty results of their level, modal dialogs, nothing stale, prompts that keep their
//! place, and the example games.

use crate::common::{editor, fixtures};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_core::AnyState;
use tessera_core::puzzlescript::PuzzleScriptState;
use tessera_editor::{EditorApp, Mode};

fn ps(h: &Harness<'_, EditorApp>) -> PuzzleScriptState {
    match h.state().session().state() {
        AnyState::PuzzleScript(s) => s.clone(),
        other => panic!("a puzzlescript game, not {:?}", other.rule_set()),
    }
}

/// A scratch folder of the test's own (removed by the test).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-loop-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The editor with level `k` (from 1) of the warehouse game (a copy in `dir`) open in Play.
fn warehouse(dir: &std::path::Path, k: usize) -> (Harness<'static, EditorApp>, std::path::PathBuf) {
    let path = dir.join("warehouse.txt");
    std::fs::copy(fixtures().join("games/warehouse.txt"), &path).expect("the game copied");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    h.get_by_label("Level number").set_value_accesskit(k as f64);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    assert_eq!(h.state().mode(), Mode::Play);
    h.get_by_label("Instant").click();
    h.run();
    (h, path)
}

fn press(h: &mut Harness<'_, EditorApp>, keys: &[Key]) {
    for k in keys {
        h.key_press(*k);
        h.run();
    }
}

fn rebuild_by_key(h: &mut Harness<'_, EditorApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    h.run();
    h.run();
}

/// Point 1: Ctrl+Enter rebuilds in the mode the designer is in, on the level on screen: Play
/// on level 3 (Edit on level 2) stays in Play on level 3 at the position reached; Edit stays in
/// Edit; Debug stays in Debug at its step. Rules that refuse the line of play start it over.
#[test]
fn a_rebuild_stays_in_its_mode_on_its_level_at_its_position() {
    let dir = scratch("rebuild");
    let (mut h, _) = warehouse(&dir, 2);
    h.get_by_label("Next level").click();
    h.run();
    assert_eq!(h.state().levels_shown(), Some((3, 2)));
    press(&mut h, &[Key::ArrowDown, Key::ArrowRight]);
    let before = ps(&h);
    assert_eq!(h.state().session().history().step(), 2);
    // A harmless change (a comment), rebuilt from Play.
    let text = format!("{}\n(a note)\n", h.state().workbench().text());
    h.state_mut().workbench_mut().set_text(&text);
    h.run();
    rebuild_by_key(&mut h);
    assert_eq!(h.state().workbench().marks(), &[], "it built");
    assert_eq!(h.state().mode(), Mode::Play, "the rebuild stays in Play");
    assert_eq!(h.state().levels_shown(), Some((3, 2)), "Play keeps level 3");
    assert_eq!(h.state().session().history().step(), 2, "at the position reached");
    assert_eq!(ps(&h).rows(), before.rows());
    assert!(h.state().edit().draft().to_level().to_json().contains("(a note)"), "Edit has the new source");
    // From Edit: Edit stays.
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    rebuild_by_key(&mut h);
    assert_eq!(h.state().mode(), Mode::Edit, "the rebuild stays in Edit");
    assert_eq!(h.state().levels_shown(), Some((3, 2)));
    // From Debug (the line of play): Debug stays, at the step it showed.
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    h.state_mut().debug_mut().seek(1);
    h.run();
    rebuild_by_key(&mut h);
    assert_eq!(h.state().mode(), Mode::Debug, "the rebuild stays in Debug");
    assert_eq!(h.state().debug().debugger().map(|d| d.step()), Some(1));
    assert!(!h.state().debug_stale(), "the line of play is of the new rules");
    // Rules under which the line of play does not replay (the player cannot move down): Play
    // is back at the level's start, its steps kept for redo, and says so.
    h.state_mut().set_mode(Mode::Play);
    h.run();
    let walls = h
        .state()
        .workbench()
        .text()
        .replace("[ > Player | Crate ]", "[ down Player ] -> [ Player ]\n[ > Player | Crate ]");
    h.state_mut().workbench_mut().set_text(&walls);
    h.run();
    rebuild_by_key(&mut h);
    assert_eq!(h.state().mode(), Mode::Play);
    assert_eq!(h.state().levels_shown(), Some((3, 2)), "still level 3");
    assert_eq!(h.state().session().history().step(), 0, "back at the start");
    assert!(h.state().message().is_some_and(|m| m.contains("refuse step 1")), "{:?}", h.state().message());
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 3: Ctrl+S saves the game's `.txt`, from Play, from Edit, and with the source's text
/// holding the focus: typing not rebuilt is rebuilt first; typing that does not build is saved
/// as typed and said so; a new game asks where (Save game source as…).
#[test]
fn ctrl_s_saves_the_games_source_in_play_edit_and_the_text() {
    let dir = scratch("ctrl-s");
    let (mut h, path) = warehouse(&dir, 2);
    // In Play, after a rebuild: the file has the rebuilt source.
    let noted = format!("{}\n(note one)\n", h.state().workbench().text());
    h.state_mut().workbench_mut().set_text(&noted);
    h.run();
    rebuild_by_key(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(h.state().error(), None);
    assert!(std::fs::read_to_string(&path).unwrap().contains("(note one)"), "saved from Play");
    assert!(!h.state().window_title().ends_with("unsaved"), "{}", h.state().window_title());
    // In Edit, the focus in the text, typing not rebuilt: rebuilt, then saved.
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    h.get_by_label("Game source").click();
    h.run();
    let typed = format!("{}(note two)\n", h.state().workbench().text());
    h.state_mut().workbench_mut().set_text(&typed);
    h.run();
    assert!(h.state().window_title().ends_with("unsaved"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.run();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("(note two)"), "saved from the text's focus");
    assert!(!h.state().workbench().unbuilt(), "rebuilt first");
    assert!(!h.state().window_title().ends_with("unsaved"), "{}", h.state().window_title());
    // Typing that does not build: saved as typed, and said.
    let broken = h.state().workbench().text().replace(
        "[ > Player | Crate ] -> [ > Player | > Crate ]",
        "[ > Player | Crate ] -> [ > Player | > Crat ]",
    );
    h.state_mut().workbench_mut().set_text(&broken);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken, "the text as typed");
    assert!(h.state().message().is_some_and(|m| m.contains("as typed")), "{:?}", h.state().message());
    assert!(!h.state().window_title().ends_with("unsaved"), "saved as typed: {}", h.state().window_title());
    // A new game has no file yet: Ctrl+S asks where, as a game's source.
    h.state_mut().workbench_mut().set_text(&saved);
    h.run();
    rebuild_by_key(&mut h);
    let blank = tessera_editor::games::EXAMPLES.iter().find(|(n, _)| *n == "Blank game").expect("blank").1;
    h.state_mut().new_source_game(blank);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(h.query_by_label("Save game source as").is_some(), "Save game source as… asks where");
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 4: opening a log keeps Edit's game and file: Debug shows the log; Ctrl+S still saves
/// the game's `.txt`; the title names the game; a log of another version of the game is said
/// to be so, with the offer to open its game on its own.
#[test]
fn opening_a_log_never_takes_edits_game_away() {
    let dir = scratch("log");
    let (mut h, path) = warehouse(&dir, 2);
    press(&mut h, &[Key::ArrowDown]);
    let same = dir.join("same.tlog");
    h.state().session().save_log(&same).expect("saved");
    h.state_mut().open(&same);
    h.run();
    assert_eq!(h.state().mode(), Mode::Debug);
    assert_eq!(h.state().edit().imported_from(), Some(path.as_path()), "Edit keeps its file");
    assert!(!h.state().log_game_differs(), "the log is of Edit's game");
    assert!(h.query_by_label("Open the log's game in Edit").is_none());
    // Another version of the game: Edit's rules change, then the old log is opened.
    h.state_mut().set_mode(Mode::Play);
    h.run();
    let noted = format!("{}\n(a newer version)\n", h.state().workbench().text());
    h.state_mut().workbench_mut().set_text(&noted);
    h.run();
    rebuild_by_key(&mut h);
    h.state_mut().open(&same);
    h.run();
    assert_eq!(h.state().mode(), Mode::Debug);
    assert_eq!(h.state().edit().imported_from(), Some(path.as_path()), "Edit keeps its file");
    assert!(h.state().workbench().text().contains("(a newer version)"), "and its game");
    assert!(h.state().log_game_differs());
    assert!(h.query_by_label_contains("This log is of another game than Edit's").is_some());
    let title = h.state().window_title();
    assert!(title.starts_with("Warehouse · level 2 · ") && title.contains("same.tlog"), "{title}");
    // Ctrl+S in Debug saves Edit's game into its file.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(std::fs::read_to_string(&path).unwrap().contains("(a newer version)"), "saved from Debug");
    // The offer: the log's game opens in Edit on its own (no file).
    h.get_by_label("Open the log's game in Edit").click();
    h.run();
    assert_eq!(h.state().mode(), Mode::Edit);
    assert_eq!(h.state().edit().imported_from(), None);
    assert!(!h.state().workbench().text().contains("(a newer version)"), "the log's own game");
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 5: at 1280×800, Debug beside the source pane keeps the inspector in view beside the
/// board (its notes and Save log reachable), and the split narrows the source to 300 points.
#[test]
fn debug_beside_the_source_keeps_the_inspector_usable_at_1280() {
    let dir = scratch("debug-layout");
    let (mut h, _) = warehouse(&dir, 2);
    press(&mut h, &[Key::ArrowDown, Key::ArrowRight]);
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    h.run();
    let board = h.state().debug().board();
    let cell = board.cell_size();
    let right =
        board.cell_centre(tessera_core::Pos::new(7, 0)).expect("Debug draws the board").x + cell / 2.0;
    let pane = h.get_by_label("Rebuild").rect().right();
    let left = board.cell_centre(tessera_core::Pos::new(0, 0)).expect("drawn").x - cell / 2.0;
    assert!(left > pane, "the board beside the pane: {left} > {pane}");
    for label in ["Save log", "Add note"] {
        let r = h.get_by_label(label).rect();
        assert!(
            r.left() >= right && r.right() <= 1280.0,
            "{label} beside the board, in the window: {r:?}, board ends at {right}"
        );
    }
    let fired = h.get_by_label_contains("Rules that fired").rect();
    assert!(fired.left() >= right && fired.right() <= 1280.0, "{fired:?}");
    let save_to = h.get_by_label("Save to").rect();
    assert!(save_to.left() >= right && save_to.right() <= 1280.0, "{save_to:?}");
    // The split (just left of Debug's bar of controls) narrows the source pane to 300 points.
    let x = h.get_by_label("Start").rect().left() - 9.0;
    let at = |x: f32| egui::pos2(x, 400.0);
    let button = egui::PointerButton::Primary;
    h.hover_at(at(x));
    h.run();
    h.event(egui::Event::PointerButton { pos: at(x), button, pressed: true, modifiers: Default::default() });
    h.run();
    let target = 300.0;
    for k in 1..=8 {
        h.hover_at(at(x + (target - x) * k as f32 / 8.0));
        h.run();
    }
    h.event(egui::Event::PointerButton {
        pos: at(target),
        button,
        pressed: false,
        modifiers: Default::default(),
    });
    h.run();
    h.run();
    let start = h.get_by_label("Start").rect().left();
    assert!(start < 330.0, "the source narrowed to about 300 points: Debug's bar starts at {start}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs the Difficulty panel's bots with the bot `bot` (its `games` games when asked) and
/// waits for the report.
fn run_bots(h: &mut Harness<'_, EditorApp>, bot: &str, games: Option<u64>) {
    if h.query_by_label("Run bots").is_none() {
        h.get_by_label("Difficulty").scroll_to_me();
        h.run();
        h.get_by_label("Difficulty").click();
        h.run();
    }
    h.get_by_label("Run bots").scroll_to_me();
    h.run();
    h.get_by_label(bot).click();
    h.run();
    if let Some(n) = games {
        h.get_by_label("Games").set_value_accesskit(n as f64);
        h.run();
    }
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
    assert!(h.state().edit().difficulty().report().is_some(), "a report");
}

/// Point 6: difficulty results belong to their level: not shown beside another level (shown
/// again when it comes back), nor beside the level painted since; a PuzzleScript level
/// without randomness plays its solver's game once.
#[test]
fn difficulty_results_belong_to_their_level() {
    let dir = scratch("difficulty");
    let (mut h, _) = warehouse(&dir, 2);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    run_bots(&mut h, "random", Some(4));
    assert!(h.state().edit().difficulty().current_report().is_some());
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Next level").click();
    h.run();
    h.run();
    assert_eq!(h.state().mode(), Mode::Edit);
    assert!(h.state().edit().difficulty().current_report().is_none(), "level 3 has no results");
    assert!(h.query_by_label_contains("The last results were of another level").is_some());
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Previous level").click();
    h.run();
    h.run();
    assert!(h.state().edit().difficulty().current_report().is_some(), "level 2's are back with it");
    // A Sokoban level painted unplayable: its results are not its own any more.
    h.state_mut().open(&fixtures().join("levels/sokoban.json"));
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    run_bots(&mut h, "sokoban-solver", None);
    assert!(h.state().edit().difficulty().current_report().is_some());
    let player = h
        .state()
        .edit()
        .draft()
        .cells()
        .iter()
        .position(|c| *c == tessera_editor::draft::Ink::Glyph('@'))
        .expect("the player's cell");
    let w = h.state().edit().draft().size().width as usize;
    let p = tessera_core::Pos::new((player % w) as _, (player / w) as _);
    h.state_mut().edit_mut().set_tool(tessera_editor::edit::Tool::Erase);
    let at = h.state().edit().cell_centre(p).expect("the canvas drawn");
    h.hover_at(at);
    h.run();
    h.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Default::default(),
    });
    h.run();
    h.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: Default::default(),
    });
    h.run();
    h.run();
    assert!(h.state_mut().edit_mut().problem().is_some(), "no player: it does not play");
    assert!(h.state().edit().difficulty().current_report().is_none(), "the results were of the level before");
    // A PuzzleScript game without randomness: the solver plays once.
    let push = tessera_editor::games::EXAMPLES.iter().find(|(n, _)| n.starts_with("Push")).expect("push").1;
    h.state_mut().new_source_game(push);
    h.run();
    h.get_by_label("Run bots").scroll_to_me();
    h.run();
    h.get_by_label("puzzlescript-solver").click();
    h.run();
    assert!(h.query_by_label(tessera_editor::difficulty::ONE_GAME).is_some(), "one game");
    assert!(h.query_by_label("Games").is_none());
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 8: File → Open… is modal: a click beside it does not reach the source, and Ctrl+A
/// and typing replace nothing.
#[test]
fn the_file_dialog_is_modal() {
    let dir = scratch("modal");
    let (mut h, _) = warehouse(&dir, 2);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    let before = h.state().workbench().text().to_string();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open…").click();
    h.run();
    assert!(h.state().dialog_open());
    let source = h.get_by_label("Game source").rect();
    let at = egui::pos2(source.left() + 60.0, source.top() + 40.0);
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
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.event(egui::Event::Text("/tmp/elsewhere.txt".into()));
    h.run();
    assert_eq!(h.state().workbench().text(), before, "the source untouched");
    assert!(h.state().dialog_open(), "the dialog still asks");
    h.key_press(Key::Escape);
    h.run();
    assert!(!h.state().dialog_open(), "Escape cancels it");
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 9: nothing stale: a failed rebuild's marks and words go when the text is back to the
/// source as built (Revert, or typed back); the status bar's sounds are of the level played.
#[test]
fn nothing_stale_after_revert_or_another_level() {
    let dir = scratch("stale");
    let (mut h, _) = warehouse(&dir, 2);
    let good = h.state().workbench().text().to_string();
    let bad = good.replace(
        "[ > Player | Crate ] -> [ > Player | > Crate ]",
        "[ > Player | Crate ] -> [ > Player | > Crat ]",
    );
    let fail = |h: &mut Harness<'_, EditorApp>| {
        h.state_mut().workbench_mut().set_text(&bad);
        h.run();
        rebuild_by_key(h);
        assert!(h.state().workbench().marks().iter().any(|m| m.error));
        assert!(h.query_by_label_contains("nothing rebuilt").is_some());
    };
    fail(&mut h);
    h.get_by_label("Revert").click();
    h.run();
    h.run();
    assert_eq!(h.state().workbench().marks(), &[], "Revert: no marks");
    assert!(h.query_by_label_contains("nothing rebuilt").is_none(), "nor the words");
    assert!(
        h.state()
            .console()
            .text()
            .ends_with("Back to the source as built: the failed rebuild's errors are gone")
    );
    fail(&mut h);
    h.state_mut().workbench_mut().set_text(&good);
    h.run();
    h.run();
    assert_eq!(h.state().workbench().marks(), &[], "typed back: no marks");
    // A push's sound in the status bar; another level: none.
    press(&mut h, &[Key::ArrowDown, Key::ArrowRight, Key::ArrowUp]);
    assert!(h.query_by_label_contains("Sounds: crate move").is_some(), "the push's sound");
    h.get_by_label("Next level").click();
    h.run();
    h.run();
    assert!(h.query_by_label_contains("Sounds: crate move").is_none(), "not on another level");
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 11: one question per action (Open, then the chooser's Open level, asks once), in one
/// layout whatever the mode or game: Cancel at the left, Save beside it, Discard alone at the
/// right edge.
#[test]
fn one_prompt_per_action_with_buttons_that_keep_their_place() {
    let dir = scratch("prompts");
    let (mut h, path) = warehouse(&dir, 2);
    let rects =
        |h: &Harness<'_, EditorApp>| ["Cancel", "Save", "Discard changes"].map(|l| h.get_by_label(l).rect());
    let mut layouts = Vec::new();
    for mode in [Mode::Edit, Mode::Play] {
        h.state_mut().set_mode(Mode::Edit);
        h.run();
        h.get_by_label("Duplicate level").click();
        h.run();
        assert!(h.state().edit().dirty());
        h.state_mut().set_mode(mode);
        h.run();
        h.state_mut().open(&path);
        h.run();
        assert!(h.state().pending().is_some(), "{mode:?}: asked");
        assert!(h.query_by_label_contains("Save writes the game's source into").is_some());
        layouts.push(rects(&h));
        if mode == Mode::Edit {
            h.get_by_label("Cancel").click();
            h.run();
            assert!(h.state().edit().dirty(), "Cancel keeps the edits");
            h.state_mut().edit_mut().undo();
            h.run();
        }
    }
    assert_eq!(layouts[0], layouts[1], "the same places in Edit and Play");
    let [cancel, save, discard] = layouts[0];
    assert!(cancel.right() < save.left(), "Cancel first: {cancel:?} {save:?}");
    assert!(discard.left() - save.right() > 150.0, "Discard away from Save: {save:?} {discard:?}");
    // Discard, then the chooser's Open level: no second question.
    h.get_by_label("Discard changes").click();
    h.run();
    assert!(h.query_by_label("Choose a level").is_some());
    h.get_by_label("Open level").click();
    h.run();
    assert!(h.state().pending().is_none(), "asked once");
    assert!(!h.state().dialog_open(), "the level opened");
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 12: the title after a crash recovery names the game; a level without chance offers
/// Restart, not a New game that wipes the line of play; the console shows with the source
/// hidden and logs undo; a seed clicked says it played.
#[test]
fn small_things_title_new_game_console_undo_and_a_seed_played() {
    let dir = scratch("small");
    let recovery = dir.join("recovery");
    let game = dir.join("warehouse.txt");
    std::fs::copy(fixtures().join("games/warehouse.txt"), &game).expect("the game copied");
    let mut h = crate::common::recovering_editor(&recovery);
    h.state_mut().open(&game);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    h.get_by_label("Duplicate level").click();
    h.run();
    drop(h); // the process dies
    let mut h = crate::common::recovering_editor(&recovery);
    h.get_by_label("Restore edits").click();
    h.run();
    let title = h.state().window_title();
    assert!(title.starts_with("Warehouse · level "), "the recovered game's title: {title}");
    // A game without randomness: Restart, no New game beside it.
    let push = tessera_editor::games::EXAMPLES.iter().find(|(n, _)| n.starts_with("Push")).expect("push").1;
    h.state_mut().edit_mut().undo();
    h.run();
    h.state_mut().new_source_game(push);
    h.run();
    h.state_mut().set_mode(Mode::Play);
    h.run();
    assert!(h.query_by_label("Restart").is_some());
    assert!(h.query_by_label("New game").is_none(), "no New game for a level without chance");
    // The console with the source hidden; undo in it.
    h.get_by_label("Source").click();
    h.run();
    assert!(h.query_by_label("Verbose").is_some(), "the console shows without the source pane");
    press(&mut h, &[Key::ArrowRight]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().console().text().ends_with("undo: at step 0"), "{}", h.state().console().text());
    // A sound's seed clicked in the source: the console says it played.
    h.state_mut().token_clicked(tessera_editor::source_editor::ClickedToken {
        class: tessera_editor::syntax::Class::Sound,
        text: "36772507".into(),
        line: 1,
    });
    h.run();
    assert!(h.state().console().text().ends_with("played sound 36772507"), "{}", h.state().console().text());
    std::fs::remove_dir_all(&dir).ok();
}

/// Point 15: File → New game offers tessera's own example games of what PuzzleScript's
/// examples teach, each of a few levels that the solver wins, each using its mechanic.
#[test]
fn new_game_offers_examples_of_each_mechanic_that_the_solver_wins() {
    use tessera_core::puzzlescript::{PuzzleScriptLevel, SolveLimits, SolveOutcome, solve};
    let wanted = [
        ("Chain push (movement and pushing)", "[ > Crate | Crate ] -> [ > Crate | > Crate ]"),
        ("Holes (late rules)", "late ["),
        ("Gravity (again)", " again"),
        ("Rafts (rigid)", "rigid ["),
        ("Beetles (random)", "random ["),
        ("Belts (realtime)", "realtime_interval"),
        ("Signs (messages)", "message "),
        ("Flags (checkpoints)", " checkpoint"),
    ];
    for (name, uses) in wanted {
        let source = tessera_editor::games::EXAMPLES
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("{name} is offered"))
            .1;
        let rules = source.split("RULES").nth(1).unwrap_or("");
        let prelude = source.split("OBJECTS").next().unwrap_or("");
        assert!(rules.contains(uses) || prelude.contains(uses), "{name} uses {uses:?}");
        let game =
            tessera_core::puzzlescript::engine::compile(source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(game.warnings().is_empty(), "{name}: {:?}", game.warnings());
        let levels = tessera_core::puzzlescript::playable_count(&game);
        assert!(levels >= 2, "{name}: a few levels, not {levels}");
        for k in 0..levels {
            let level = PuzzleScriptLevel { name: None, seed: None, source: source.into(), level: k };
            let (rules, s) = level.start(0).expect("starts");
            let report = solve(&rules, &s, SolveLimits::default(), &mut || false);
            assert!(
                matches!(&report.outcome, SolveOutcome::Solved(c) if !c.is_empty()),
                "{name} level {}: {:?}",
                k + 1,
                report.outcome
            );
        }
    }
    // Each opens from the menu in Edit, its source in the pane.
    let mut h = editor();
    for (name, _) in wanted {
        h.get_by_label("File").click();
        h.run();
        let menu =
            h.query_all_by_label("New game").min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()));
        menu.expect("File → New game").click();
        h.run();
        h.get_by_label(name).click();
        h.run();
        assert_eq!(h.state().mode(), Mode::Edit, "{name}");
        let title = name.split(" (").next().unwrap_or(name);
        assert!(
            h.state().window_title().starts_with(&format!("{title} · level 1")),
            "{}",
            h.state().window_title()
        );
    }
}
