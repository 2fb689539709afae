//! PuzzleScript in the editor: a game's `.txt` opens by choosing a level; arrows, X and R play
//! it (a step runs its again turns), Ctrl+Z undoes it; Edit shows the level as the legend's
//! glyphs and saves painted rows back into the game's source.

use crate::common::{editor, fixtures, recovering_editor};
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

/// The editor on `source` (a game of one level), written to `NAME.txt` in a scratch folder of
/// its own: the harness and the folder (for the test to remove).
fn editor_on_game(name: &str, source: &str) -> (Harness<'static, EditorApp>, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("tessera-editor-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(format!("{name}.txt"));
    std::fs::write(&path, source).expect("the game written");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().error(), None);
    (h, dir)
}

fn open_level_2(h: &mut Harness<'_, EditorApp>) {
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    assert_eq!(h.state().error(), None);
    assert!(h.query_by_label("Choose a level").is_some(), "a game of three levels asks which");
    assert!(h.state().choice_preview_art().is_some(), "the preview draws the level's sprites");
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
    assert_eq!(*l.source, source, "nothing painted: the source is the game's");
}

/// The pixel at (`px`, `py`) of cell `cell`'s 5×5 block in a board picture.
fn pixel(image: &egui::ColorImage, cell: (usize, usize), px: usize, py: usize) -> egui::Color32 {
    image.pixels[(cell.1 * 5 + py) * image.size[0] + cell.0 * 5 + px]
}

#[test]
fn play_draws_the_objects_sprites_layered_and_follows_the_board() {
    let mut h = editor();
    open_level_2(&mut h);
    let key = h.state().board().art_key().expect("Play draws the game's own picture");
    let game = tessera_editor::games::of(tessera_core::RuleSet::PuzzleScript).expect("the entry");
    let image = {
        let (rules, state) = (h.state().session().history().rules(), h.state().session().state());
        let art = game.board_art(rules, state).expect("sprites");
        assert_eq!(art.key, key);
        (art.image)()
    };
    assert_eq!(image.size, [8 * 5, 6 * 5], "5×5 pixels a cell");
    let rgb = |v: u32| egui::Color32::from_rgb((v >> 16) as u8, (v >> 8) as u8, v as u8);
    // The player at (2, 3): its head (#f5e6c8), its body (#2b6cb0); its transparent corner shows
    // the background object's sprite under it (a lower layer): #1d1d2b or #23233a.
    assert_eq!(pixel(&image, (2, 3), 2, 0), rgb(0xf5e6c8));
    assert_eq!(pixel(&image, (2, 3), 2, 2), rgb(0x2b6cb0));
    assert_eq!(pixel(&image, (2, 3), 0, 0), rgb(0x23233a), "the background's pixel under the player");
    // A wall's brick pattern, and a crate's hollow middle showing the background.
    assert_eq!(pixel(&image, (0, 0), 3, 0), rgb(0x4a3626));
    assert_eq!(pixel(&image, (0, 0), 0, 0), rgb(0x6b4f3a));
    assert_eq!(pixel(&image, (3, 3), 0, 0), rgb(0xb7791f));
    assert_eq!(pixel(&image, (3, 3), 2, 2), rgb(0x23233a));
    // A move changes the picture's key (the texture is made again), and only then.
    h.run();
    assert_eq!(h.state().board().art_key(), Some(key), "nothing moved, same picture");
    h.key_press(Key::ArrowDown);
    h.run();
    assert_ne!(h.state().board().art_key(), Some(key));
    // The debugger draws the same sprites.
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    h.run();
    assert!(h.state().debug().board().art_key().is_some(), "Debug draws the sprites too");
}

#[test]
fn flat_objects_named_colours_and_the_background_colour() {
    let source = "title Flat\nbackground_color #123\n\n========\nOBJECTS\n========\n\nBackground\ntransparent\n\nPlayer\nred\n\nGem\nlightblue #00ff00\n..0..\n.010.\n00100\n.010.\n..0..\n\n=======\nLEGEND\n=======\n\n. = Background\nP = Player\nG = Gem\n\n======\nSOUNDS\n======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nGem\nPlayer\n\n======\nRULES\n======\n\n==============\nWINCONDITIONS\n==============\n\n=======\nLEVELS\n=======\n\nPG.\n";
    let importer = tessera_core::importer("puzzlescript").expect("importer");
    let level = importer.import_all(source, Some("flat.txt")).expect("the game imports").remove(0).level;
    let game = level.start(Some(0)).expect("it starts");
    let entry = tessera_editor::games::of_level(&level).expect("the entry");
    let image = (entry.board_art(&game.rules, &game.state).expect("sprites").image)();
    let rgb = |v: u32| egui::Color32::from_rgb((v >> 16) as u8, (v >> 8) as u8, v as u8);
    // The player has no sprite: a flat square of PuzzleScript's red.
    for (x, y) in [(0, 0), (4, 4), (2, 2)] {
        assert_eq!(pixel(&image, (0, 0), x, y), rgb(0xbe2633));
    }
    // The gem: lightblue and #00ff00; its transparent pixels show the background colour (#123,
    // the background object is transparent).
    assert_eq!(pixel(&image, (1, 0), 2, 0), rgb(0xb2dcef));
    assert_eq!(pixel(&image, (1, 0), 2, 1), rgb(0x00ff00));
    assert_eq!(pixel(&image, (1, 0), 0, 0), rgb(0x112233));
    assert_eq!(pixel(&image, (2, 0), 2, 2), rgb(0x112233), "an empty cell is the background colour");
}

#[test]
fn edit_draws_the_glyphs_as_sprites() {
    let mut h = editor();
    open_level_2(&mut h);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    assert!(h.state().edit().draws_art(), "the canvas draws the legend's sprites");
    let game = tessera_editor::games::of(tessera_core::RuleSet::PuzzleScript).expect("the entry");
    let art = game.ink_art(&h.state().edit().draft().settings).expect("ink art");
    assert_eq!(art.side, 5);
    let rgb = |v: u32| egui::Color32::from_rgb((v >> 16) as u8, (v >> 8) as u8, v as u8);
    let q = &art.inks[&Ink::Glyph('Q')];
    assert_eq!(q[2], rgb(0xf5e6c8), "Q: the player over the target");
    assert_eq!(q[5 + 1], rgb(0x2b6cb0));
    let at = &art.inks[&Ink::Glyph('@')];
    assert_eq!(at[0], rgb(0xb7791f), "@: the crate's rim");
    assert_eq!(at[5 + 1], rgb(0xd4a017), "@: the target shows through the crate's hollow");
    // Other rule sets keep their flat colours.
    h.state_mut().open(&fixtures().join("levels/sokoban.json"));
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    assert!(!h.state().edit().draws_art());
}

/// A one-level game whose action key shows a message.
const TALKING: &str = "title Talking\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nPlayer\nred\n\n=======\nLEGEND\n=======\n\n. = Background\nP = Player\n\n======\nSOUNDS\n======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nPlayer\n\n======\nRULES\n======\n\n[ action Player ] -> [ Player ] message Hello there\n\n==============\nWINCONDITIONS\n==============\n\n=======\nLEVELS\n=======\n\nP..\n";

#[test]
fn a_message_shows_over_the_board_until_a_key_or_a_click() {
    let mut h = editor();
    let importer = tessera_core::importer("puzzlescript").expect("importer");
    let level = importer.import_all(TALKING, Some("talking.txt")).expect("the game imports").remove(0).level;
    assert!(h.state_mut().open_level(level, 0, "talking"));
    h.run();
    h.key_press(Key::X);
    h.run();
    assert_eq!(h.state().play().message.as_deref(), Some("Hello there"));
    // While it shows, a key dismisses it and plays nothing.
    let before = ps(&h);
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().play().message, None, "the key dismissed the message");
    assert_eq!(ps(&h), before, "the dismissing key did not move the player");
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(ps(&h).rows()[0], ".P.", "the next key plays");
    // A click on the board dismisses it too.
    h.key_press(Key::X);
    h.run();
    assert!(h.state().play().message.is_some());
    crate::common::click_cell(&mut h, tessera_core::Pos::new(0, 0));
    assert_eq!(h.state().play().message, None, "the click dismissed the message");
}

#[test]
fn a_won_level_offers_the_next_level_of_the_source() {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    assert_eq!(ps(&h).rows()[2], "#.P*.O#", "level 1");
    assert!(h.query_by_label("Level 1 of 3").is_some());
    // The game's first level starts with the message before it, as PuzzleScript starts a game.
    let intro = h.state().play().message.clone().expect("the message before level 1");
    assert!(intro.starts_with("Push every crate"), "{intro}");
    h.key_press(Key::Space);
    h.run();
    assert_eq!(h.state().play().message, None, "a key dismissed it");
    assert_eq!(ps(&h).rows()[2], "#.P*.O#", "and played nothing");
    h.key_press(Key::ArrowRight);
    h.run();
    h.key_press(Key::ArrowRight);
    h.run();
    assert!(ps(&h).is_won());
    h.get_by_label("Next level").click();
    h.run();
    assert_eq!(ps(&h).rows()[3], "#.P**OO#", "level 2 of the same game");
    assert!(!ps(&h).is_won());
    assert!(h.state().title().ends_with("2. Warehouse 2"), "{}", h.state().title());
    assert!(h.query_by_label("Level 2 of 3").is_some());
    h.get_by_label("Previous level").click();
    h.run();
    assert_eq!(ps(&h).rows()[2], "#.P*.O#", "back to level 1");
}

#[test]
fn rebuild_lists_errors_by_line_and_new_rules_play_with_the_painted_board() {
    let mut h = editor();
    open_level_2(&mut h);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    // Paint a crate at (3, 2), a floor cell.
    let painted = tessera_core::Pos::new(3, 2);
    h.state_mut().edit_mut().set_ink(Ink::Glyph('*'));
    h.run();
    let at = h.state().edit().cell_centre(painted).expect("the canvas was drawn");
    h.hover_at(at);
    h.run();
    for pressed in [true, false] {
        let button = egui::PointerButton::Primary;
        h.event(egui::Event::PointerButton { pos: at, button, pressed, modifiers: Default::default() });
        h.run();
    }
    assert_eq!(h.state().edit().draft().ink(painted), Some(Ink::Glyph('*')));
    // The source pane shows the game with the painted level's rows in it.
    let source = h.state().workbench().text().to_string();
    assert!(source.contains("#.**.O.#"), "the painted crate is in the source pane's level");
    // A typo in a rule: Rebuild marks the error at its line, and changes nothing.
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let line = source.lines().position(|l| l == rule).expect("the push rule") + 1;
    let broken = source.replace(rule, "[ > Player | Crate ] -> [ > Player | > Crat ]");
    h.state_mut().workbench_mut().set_text(&broken);
    h.run();
    h.get_by_label("Rebuild").click();
    h.run();
    let errors = h.state().workbench().marks().to_vec();
    assert!(errors.iter().any(|m| m.line == line && m.error), "the error names line {line}: {errors:?}");
    assert!(h.query_by_label(&format!("error at line {line}")).is_some(), "marked in the gutter");
    assert_eq!(h.state().mode(), Mode::Edit, "nothing played");
    // The fixed rules, pulling instead of pushing: Ctrl+Enter rebuilds and Play restarts with
    // them, on the painted board.
    let pulling = source.replace(rule, "[ < Player | Crate ] -> [ < Player | < Crate ]");
    h.state_mut().workbench_mut().set_text(&pulling);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    h.run();
    assert!(h.state().workbench().marks().iter().all(|m| !m.error));
    // Issue 63.1: the rebuild stays in Edit; Play has the new rules on the painted board.
    assert_eq!(h.state().mode(), Mode::Edit, "the rebuild stays in the mode it was made in");
    h.state_mut().set_mode(Mode::Play);
    h.run();
    let start = ps(&h);
    assert_eq!(start.rows()[2].chars().nth(3), Some('*'), "the painted crate: {:?}", start.rows());
    // The player at (2, 3) walks left, away from the crates at (3, 3): the crate follows.
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(ps(&h).rows()[3], "#P*.*OO#", "{:?}", ps(&h).rows());
    // The draft's level carries the new rules and the painted board.
    let Level::PuzzleScript(l) = h.state().edit().draft().to_level() else { panic!("puzzlescript") };
    assert!(l.source.contains("[ < Player | Crate ] -> [ < Player | < Crate ]"));
    assert_eq!(tessera_core::puzzlescript::level_rows(&l.source, 1).expect("rows")[2], "#.**.O.#");
}

#[test]
fn save_game_source_writes_the_painted_level_into_the_txt() {
    let dir = std::env::temp_dir().join(format!("tessera-ps-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let game = dir.join("warehouse.txt");
    let source = std::fs::read_to_string(fixtures().join("games/warehouse.txt")).expect("the game");
    std::fs::write(&game, &source).expect("a copy");
    let mut h = editor();
    h.state_mut().open(&game);
    h.run();
    h.get_by_label("Level number").set_value_accesskit(2.0);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    // Paint a crate at (3, 2), then save the game's source.
    h.state_mut().edit_mut().set_ink(Ink::Glyph('*'));
    h.run();
    let at = h.state().edit().cell_centre(tessera_core::Pos::new(3, 2)).expect("the canvas was drawn");
    h.hover_at(at);
    h.run();
    for pressed in [true, false] {
        let button = egui::PointerButton::Primary;
        h.event(egui::Event::PointerButton { pos: at, button, pressed, modifiers: Default::default() });
        h.run();
    }
    h.get_by_label("Save game source").click();
    h.run();
    let saved = std::fs::read_to_string(&game).expect("the game file");
    assert_eq!(tessera_core::puzzlescript::level_rows(&saved, 1).expect("rows")[2], "#.**.O.#");
    assert_eq!(saved.replace("#.**.O.#", "#.*..O.#"), source, "every other line kept");
    assert!(!h.state().edit().dirty(), "the game's file holds the draft: nothing unsaved");
    assert!(
        h.state().edit().status().contains("warehouse.txt"),
        "named by its file: {}",
        h.state().edit().status()
    );
    // A level opened from its JSON has no game file to write.
    let mut h = editor();
    h.state_mut().open(&fixtures().join("levels/warehouse.json"));
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    assert!(h.query_by_label("Save game source").is_none());
    std::fs::remove_dir_all(&dir).ok();
}

/// A level whose `run_rules_on_level_start` turn queues `again` opens after those turns, as in
/// PuzzleScript (rules version 2): the fuse has burnt and the wall is open; five pushes win the
/// game's only level, and no next level is offered.
#[test]
fn a_level_opens_after_its_start_again_turns_and_the_last_won_says_so() {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games/fuse.txt"));
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(ps(&h).rows()[0], "#########", "the fuse burnt as the level opened");
    assert_eq!(ps(&h).rows()[2], "#P*....O#", "and blew the dynamite away");
    assert_eq!(h.state().session().history().step(), 0, "opening plays no step");
    assert!(h.query_by_label("The game's only level: won.").is_none());
    for _ in 0..5 {
        h.key_press(Key::ArrowRight);
        h.run();
    }
    assert!(ps(&h).is_won());
    assert!(h.query_by_label("Level 1 of 1").is_some());
    assert!(h.query_by_label("The game's only level: won.").is_some());
}

/// Runs frames until the debugger's scans are done.
fn settle(h: &mut Harness<'_, EditorApp>) {
    let start = std::time::Instant::now();
    loop {
        h.run();
        if !h.state().debug().scanning() {
            h.run();
            return;
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(20), "the scan never ended");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Level 2 played: down, right, up (a crate pushed up from (3, 3) to (3, 2)), X (a spark, which
/// fades in the again turn); then Debug over it. Answers the push rule's line.
fn debug_a_push(h: &mut Harness<'_, EditorApp>) -> u32 {
    open_level_2(h);
    for k in [Key::ArrowDown, Key::ArrowRight, Key::ArrowUp, Key::X] {
        h.key_press(k);
        h.run();
    }
    assert_eq!(ps(h).rows()[2], "#.**.O.#", "the crate was pushed up: {:?}", ps(h).rows());
    // The source pane and console hidden: the rules' text and links are Debug's alone.
    h.state_mut().show_source(false);
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    let source = std::fs::read_to_string(fixtures().join("games/warehouse.txt")).expect("the game");
    let push = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    source.lines().position(|l| l == push).expect("the push rule") as u32 + 1
}

#[test]
fn debug_lists_the_rules_that_fired_outlines_their_cells_and_opens_the_rules_panel_at_their_line() {
    let mut h = editor();
    let line = debug_a_push(&mut h);
    h.state_mut().debug_mut().seek(3);
    h.run();
    h.run();
    assert!(h.query_by_label_contains("Rules that fired (1)").is_some(), "the push step fired one rule");
    assert!(h.query_by_label("Turn 0 (the input's turn)").is_some());
    // The inspector's (the console under the board says it too): the rightmost.
    let text = h
        .get_all_by_label_contains("[ > Player | Crate ] -> [ > Player | > Crate ]")
        .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("the rule in the inspector");
    // Issue 36.9: the whole rule shows, wrapped within the panel (it was cut with "…"): its
    // button is taller than one line and ends within the window.
    let (rect, line_height) = (text.rect(), 20.0);
    assert!(rect.height() > 1.5 * line_height && rect.right() <= 1280.0, "{rect:?}");
    text.click();
    h.run();
    h.run();
    let cells = h.state().debug().fired_cells().expect("a rule picked");
    assert!(cells.contains(&tessera_core::Pos::new(3, 3)), "the crate's cell: {cells:?}");
    // The action step: the random rule in the input's turn, the late rules in the again turn.
    h.state_mut().debug_mut().seek(4);
    h.run();
    h.run();
    assert_eq!(h.state().debug().fired_cells(), None, "a pick belongs to its step");
    assert!(h.query_by_label("Turn 1 (again)").is_some(), "the again turn is listed");
    // A click on the line shows the source pane with the cursor on it, Debug staying.
    h.state_mut().debug_mut().seek(3);
    h.state_mut().show_source(false);
    h.run();
    h.run();
    // The inspector's link (the console under the board has one too): the rightmost.
    h.get_all_by_label(&format!("line {line}"))
        .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("the inspector's link")
        .click();
    h.run();
    h.run();
    h.run();
    assert_eq!(h.state().mode(), Mode::Debug);
    assert!(h.state().source_shown(), "the source pane opened");
    assert_eq!(
        h.state().workbench().editor().cursor_line(&h.ctx),
        Some(line as usize),
        "the cursor on the rule's line"
    );
}

#[test]
fn debug_finds_the_steps_where_a_rule_fired_and_the_steps_that_touched_an_object() {
    fn results(h: &Harness<'_, EditorApp>) -> Option<Result<Vec<u64>, String>> {
        h.state().debug().filter_results().map(|r| r.map(<[u64]>::to_vec).map_err(str::to_string))
    }
    let mut h = editor();
    let line = debug_a_push(&mut h);
    h.state_mut().debug_mut().set_filter(&format!("rule:{line}"));
    settle(&mut h);
    assert_eq!(results(&h), Some(Ok(vec![3])), "the push fired at step 3 only");
    h.state_mut().debug_mut().set_filter("Crate");
    settle(&mut h);
    assert_eq!(results(&h), Some(Ok(vec![3])), "only the push moved a crate");
    // The action lights a spark that fades in the same turn (a late rule) and goes in the
    // again turn.
    h.state_mut().debug_mut().set_filter("fade");
    settle(&mut h);
    assert_eq!(results(&h), Some(Ok(vec![4])), "the action's fading spark");
    let why = h.state().debug().why_matched().expect("step 4 matches");
    assert!(why.iter().any(|w| w.starts_with("'fade' touched by")), "{why:?}");
    h.state_mut().debug_mut().set_filter("rule:1000");
    settle(&mut h);
    assert_eq!(results(&h), Some(Ok(vec![])));
    h.state_mut().debug_mut().set_filter("rule:x");
    settle(&mut h);
    assert!(matches!(results(&h), Some(Err(e)) if e.contains("rule:LINE")));
}

#[test]
fn clicking_a_rebuild_error_puts_the_cursor_on_its_line() {
    let mut h = editor();
    open_level_2(&mut h);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    let source = h.state().workbench().text().to_string();
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let line = source.lines().position(|l| l == rule).expect("the push rule") + 1;
    let broken = source.replace(rule, "[ > Player | Crate ] -> [ > Player | > Crat ]");
    h.state_mut().workbench_mut().set_text(&broken);
    h.run();
    h.get_by_label("Rebuild").click();
    h.run();
    let cursor = |h: &Harness<'_, EditorApp>| h.state().workbench().editor().cursor_line(&h.ctx);
    assert_ne!(cursor(&h), Some(line));
    // The gutter's mark goes to the line.
    h.get_by_label(&format!("error at line {line}")).click();
    h.run();
    h.run();
    assert_eq!(cursor(&h), Some(line), "the cursor on the error's line");
    // So does the console's link, after the cursor went elsewhere.
    h.state_mut().workbench_mut().go_to_line(1);
    h.run();
    h.run();
    assert_eq!(cursor(&h), Some(1));
    h.query_all_by_label(&format!("line {line}")).next().expect("the console's link").click();
    h.run();
    h.run();
    assert_eq!(cursor(&h), Some(line), "the console's link goes to the error's line");
}

#[test]
fn levels_are_added_duplicated_moved_and_deleted_and_saved_into_the_txt() {
    let dir = std::env::temp_dir().join(format!("tessera-ps-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let game = dir.join("warehouse.txt");
    let source = std::fs::read_to_string(fixtures().join("games/warehouse.txt")).expect("the game");
    std::fs::write(&game, &source).expect("a copy");
    let mut h = editor();
    h.state_mut().open(&game);
    h.run();
    h.get_by_label("Level number").set_value_accesskit(2.0);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    let edited = |h: &Harness<'_, EditorApp>| match h.state().edit().draft().to_level() {
        Level::PuzzleScript(l) => l,
        _ => panic!("a puzzlescript level"),
    };
    let rows = |l: &tessera_core::puzzlescript::PuzzleScriptLevel, k| {
        tessera_core::puzzlescript::level_rows(&l.source, k).expect("rows")
    };
    let level2 = rows(&edited(&h), 1);
    assert!(h.query_by_label_contains("Levels of the game (3)").is_some());
    // Duplicate: the copy follows and is edited.
    h.get_by_label("Duplicate level").click();
    h.run();
    assert_eq!(h.state().edit().notice(), None);
    let l = edited(&h);
    assert_eq!(l.level, 2, "the copy is edited");
    assert_eq!(l.name.as_deref(), Some("Warehouse 3"), "named as its place in the game now");
    assert_eq!((rows(&l, 1), rows(&l, 2)), (level2.clone(), level2.clone()));
    assert!(h.query_by_label_contains("Levels of the game (4)").is_some());
    // Ctrl+Z undoes it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(*edited(&h).source, source, "undone");
    assert_eq!(edited(&h).level, 1);
    // Move level 2 up: it becomes level 1, the message before the first level stays first.
    h.get_by_label("Move level up").click();
    h.run();
    let l = edited(&h);
    assert_eq!(l.level, 0);
    assert_eq!(rows(&l, 0), level2);
    let first = l.source.find("message Push every crate").expect("the first message");
    assert!(first < l.source.find("#.P**OO#").expect("level 2's row"), "the message stays before it");
    // Add a level after the last one: a walled room of the edited level's size, edited.
    h.get_by_label("Add level").click();
    h.run();
    let l = edited(&h);
    assert_eq!(l.level, 3);
    assert_eq!(rows(&l, 3)[0], "########");
    assert_eq!(rows(&l, 3)[1], "#P.....#");
    // Delete it: level 3 is edited.
    h.get_by_label("Delete level").click();
    h.run();
    let l = edited(&h);
    assert_eq!(l.level, 2);
    // Click level 2 (the first level, moved down) to edit it; save the game's source.
    h.get_by_label("Level 2").click();
    h.run();
    assert_eq!(edited(&h).level, 1);
    h.get_by_label("Save game source").click();
    h.run();
    let saved = std::fs::read_to_string(&game).expect("the game file");
    let levels: Vec<Vec<String>> =
        (0..3).map(|k| tessera_core::puzzlescript::level_rows(&saved, k).expect("rows")).collect();
    let original: Vec<Vec<String>> =
        (0..3).map(|k| tessera_core::puzzlescript::level_rows(&source, k).expect("rows")).collect();
    assert_eq!(levels, vec![original[1].clone(), original[0].clone(), original[2].clone()]);
    // Everything but the two swapped levels' rows is as it was.
    let strip =
        |s: &str| -> Vec<String> { s.lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect() };
    assert_eq!(strip(&saved), strip(&source));
    std::fs::remove_dir_all(&dir).ok();
}

/// Two levels won by walking onto the target, with a message between them, in the Game Boy
/// Color's palette with colours of its own for messages.
const TWO_LEVELS: &str = "title Two\ncolor_palette gameboycolour\nbackground_color darkblue\ntext_color #ffcc00\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nTarget\nyellow\n\nPlayer\nred\n\n=======\nLEGEND\n=======\n\n. = Background\nP = Player\nO = Target\n\n======\nSOUNDS\n======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nTarget\nPlayer\n\n======\nRULES\n======\n\n==============\nWINCONDITIONS\n==============\n\nSome Player on Target\n\n=======\nLEVELS\n=======\n\nmessage Before\n\nPO.\n\nmessage Between one\nmessage and two\n\n.PO\n";

#[test]
fn the_messages_between_levels_show_after_a_win_in_the_games_colours() {
    let mut h = editor();
    let importer = tessera_core::importer("puzzlescript").expect("importer");
    let level = importer.import_all(TWO_LEVELS, Some("two.txt")).expect("the game imports").remove(0).level;
    assert!(h.state_mut().open_level(level, 0, "two"));
    h.run();
    // The palette is the game's: its red is the Game Boy Color's.
    let game = tessera_editor::games::of(tessera_core::RuleSet::PuzzleScript).expect("the entry");
    let rules = h.state().session().history().rules().clone();
    let image = (game.board_art(&rules, h.state().session().state()).expect("sprites").image)();
    assert_eq!(
        image.pixels[0],
        egui::Color32::from_rgb(0xa7, 0x12, 0x0c),
        "the player in gameboycolour's red"
    );
    let (back, text) = game.message_colours(&rules).expect("the game's colours");
    assert_eq!(back, egui::Color32::from_rgb(0x4b, 0x57, 0x5d), "background_color: gameboycolour's darkblue");
    assert_eq!(text, egui::Color32::from_rgb(0xff, 0xcc, 0x00));
    h.key_press(Key::ArrowRight);
    h.run();
    assert!(ps(&h).is_won());
    h.get_by_label("Next level").click();
    h.run();
    assert_eq!(ps(&h).rows()[0], ".PO", "level 2");
    // The messages between, one screen each: a key dismisses each and plays nothing.
    assert_eq!(h.state().play().message.as_deref(), Some("Between one"), "the first message between");
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().play().message.as_deref(), Some("and two"), "then the second");
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(h.state().play().message, None);
    assert_eq!(ps(&h).rows()[0], ".PO");
    // Going back shows nothing.
    h.get_by_label("Previous level").click();
    h.run();
    assert_eq!(h.state().play().message, None);
}

#[test]
fn again_turns_play_out_one_board_after_another() {
    let mut h = editor();
    open_level_2(&mut h);
    h.key_press(Key::X);
    h.run();
    let session = h.state().session();
    let (start, secs, boards) = session.turn_frames().expect("the action's again turn is shown");
    assert_eq!(boards, 1, "one board before the end: the spark lit, fading");
    assert!(secs > 0.0);
    let lit = session.shown_state(start + secs * 0.5);
    assert_ne!(lit, session.state(), "the spark shows first");
    let AnyState::PuzzleScript(lit) = lit else { panic!("puzzlescript") };
    assert!(lit.names().iter().flatten().any(|n| n.contains("fade")), "the spark fading: {:?}", lit.names());
    assert_eq!(session.shown_state(start + secs * 1.5), session.state(), "then the end of the step");
    // At the Instant speed a step is its end at once.
    h.get_by_label("Instant").click();
    h.run();
    h.key_press(Key::X);
    h.run();
    assert!(h.state().session().turn_frames().is_none());
}

/// Issue 28.9, with the source pane: painted cells are rows of the level in the source pane, so
/// a rebuild that removes their key from the legend fails with the error at the level's row
/// (nothing is rebuilt, the draft keeps its cells).
#[test]
fn a_rebuild_that_removes_a_painted_key_is_an_error_at_the_level_row() {
    let mut h = editor();
    open_level_2(&mut h);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    h.state_mut().edit_mut().set_ink(Ink::Glyph('@'));
    h.run();
    for p in [tessera_core::Pos::new(1, 1), tessera_core::Pos::new(6, 4)] {
        let at = h.state().edit().cell_centre(p).expect("the canvas was drawn");
        h.hover_at(at);
        h.run();
        for pressed in [true, false] {
            let button = egui::PointerButton::Primary;
            h.event(egui::Event::PointerButton { pos: at, button, pressed, modifiers: Default::default() });
            h.run();
        }
    }
    assert_eq!(h.state().edit().draft().check(), Ok(()), "crates on targets play");
    // The rules without the `@` key: the painted level in the source uses it.
    let source = h.state().workbench().text().to_string();
    let row = source.lines().position(|l| l == "#@.....#").expect("the painted row in the source") + 1;
    // The reference names the level's first rows for its errors: any row of the level.
    let rows = row - 2..=row + 4;
    let without = source.replace("@ = Crate and Target\n", "");
    h.state_mut().workbench_mut().set_text(&without);
    h.run();
    h.get_by_label("Rebuild").click();
    h.run();
    let marks = h.state().workbench().marks().to_vec();
    assert!(
        marks.iter().any(|m| m.error && rows.contains(&m.line)),
        "an error at the level's rows {rows:?}: {marks:?}"
    );
    assert_eq!(h.state().mode(), Mode::Edit, "nothing played");
    assert_eq!(
        h.state().edit().draft().ink(tessera_core::Pos::new(1, 1)),
        Some(Ink::Glyph('@')),
        "the draft kept"
    );
}

/// Issue 27: the palette is the game's legend, each key's button drawn as its sprite (the
/// key and its objects named by the button, shown on hover); clicking one paints with it.
/// Issue 36.9: the key is written beside the sprite, so sprites that look alike are told apart
/// (the button is its square sprite and a column for the key).
#[test]
fn the_palette_shows_each_legend_key_as_its_sprite() {
    let mut h = editor();
    open_level_2(&mut h);
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    for label in
        [". background", "# wall", "P player", "* crate", "@ crate+target", "O target", "Q player+target"]
    {
        let b = h.get_by_label(label);
        let size = b.rect().size();
        assert!(size.y >= 20.0 && size.x >= size.y + 8.0, "{label}: a sprite and its key, {size:?}");
    }
    h.get_by_label("Q player+target").click();
    h.run();
    assert_eq!(h.state().edit().ink(), Ink::Glyph('Q'));
}

#[test]
fn hint_on_level_2_names_a_step_of_a_solution_searched_off_the_ui_thread() {
    use tessera_core::puzzlescript::{PuzzleScriptCommand, SolveLimits, SolveOutcome, solve};
    use tessera_core::{AnyRules, Rules};
    let mut h = editor();
    open_level_2(&mut h);
    let start = ps(&h);
    // The node budget alone decides (A* needs about 15,000 of its 50,000 states here): half a
    // second of CPU is too little for this test build on a loaded CI machine.
    let budget = tessera_editor::games::HintBudget { cpu_seconds: 120.0, wall_seconds: 120.0 };
    tessera_editor::games::set_hint_budget(&h.ctx, budget);
    h.get_by_label("Hint").click();
    h.run();
    // The search runs in a thread; the panel says so until its answer arrives.
    let mut message = None;
    for _ in 0..6000 {
        message = h.state().message().filter(|m| m.starts_with("Hint:"));
        if message.is_some() {
            break;
        }
        assert!(h.query_by_label("Searching for a hint…").is_some(), "the search shows while it runs");
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    let message = message.expect("an answer within two minutes");
    assert_eq!(h.state().session().history().step(), 0, "a hint plays nothing");
    let word = message.trim_start_matches("Hint: ").split(' ').next().unwrap_or_default();
    let first: PuzzleScriptCommand = word.parse().unwrap_or_else(|_| panic!("a step: {message}"));
    // A step of the solution it names: after it, the fewest steps left are fewer than that
    // solution's (the search is not breadth-first, so not always one fewer than from the start).
    let AnyRules::PuzzleScript(rules) = h.state().session().history().rules().clone() else { panic!() };
    let fewest = |s: &PuzzleScriptState| match solve(&rules, s, SolveLimits::default(), &mut || false).outcome
    {
        SolveOutcome::Solved(c) => c.len(),
        other => panic!("{other:?}"),
    };
    let named: usize = message
        .split("a solution in ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the solution's steps: {message}"));
    let mut after = start.clone();
    rules.apply(&mut after, &first, &mut Vec::new()).expect("the hint is legal");
    assert!(fewest(&after) < named && fewest(&start) <= named, "{message}");
}

/// The editor on level 2, Hint given two minutes (the solver is slow on a loaded machine).
fn level_2_with_time_to_hint() -> Harness<'static, EditorApp> {
    let mut h = editor();
    open_level_2(&mut h);
    let budget = tessera_editor::games::HintBudget { cpu_seconds: 120.0, wall_seconds: 120.0 };
    tessera_editor::games::set_hint_budget(&h.ctx, budget);
    h
}

/// Clicks Hint and waits for its answer (at most two minutes): what the status bar then says.
fn ask_hint(h: &mut Harness<'_, EditorApp>) -> String {
    h.get_by_label("Hint").click();
    h.run();
    for _ in 0..6000 {
        if h.state().message().is_some_and(|m| m.starts_with("Hint:")) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    h.run();
    h.state().message().unwrap_or_default()
}

/// Clicks "Show the solution (STEPS steps)" and lets the walk run to its end.
fn show_the_whole_solution(h: &mut Harness<'_, EditorApp>, steps: u64) {
    h.get_by_label(&format!("Show the solution ({steps} steps)")).click();
    h.run();
    for _ in 0..1_000_000 {
        if !h.state().walking() {
            break;
        }
        h.step();
    }
    h.run();
}

/// The steps of the solution a hint's answer names ("… a solution in N steps …").
fn solution_steps(said: &str) -> u64 {
    said.split("a solution in ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"))
}

/// Stepping onto the die turns it into one of two gems, at random; a gem is eaten. With
/// `ruby_rings`, eating a ruby sounds (a rule reads the ruby apart from the topaz).
fn die_game(ruby_rings: bool) -> String {
    let (sound, ring) = if ruby_rings {
        ("sfx0 45612103\n", "[ > Player | Ruby ] -> [ > Player | ] sfx0\n")
    } else {
        ("", "")
    };
    format!(
        "title die\nnoaction\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\n\
         Die\nblue\n\nRuby\nred\n\nTopaz\nyellow\n\nGoal\ngreen\n\nLEGEND\n\n. = Background\n# = Wall\n\
         P = Player\nD = Die\nG = Goal\nGem = Ruby or Topaz\n\nSOUNDS\n\n{sound}\nCOLLISIONLAYERS\n\nBackground\n\
         Goal\nPlayer, Wall, Die, Ruby, Topaz\n\nRULES\n\n[ > Player | Die ] -> [ > Player | random Gem ]\n\
         {ring}[ > Player | Gem ] -> [ > Player | ]\n\nWINCONDITIONS\n\nsome Player on Goal\n\nLEVELS\n\n\
         #######\n#P.D.G#\n#######\n"
    )
}

/// A game whose only way on draws from the generator: Hint finds the solution as this play's
/// seed draws it, says so, and "Show the solution" plays it to the win.
#[test]
fn hint_in_a_game_that_draws_gives_this_seeds_solution() {
    let (mut h, dir) = editor_on_game("die", &die_game(true));
    let budget = tessera_editor::games::HintBudget { cpu_seconds: 120.0, wall_seconds: 120.0 };
    tessera_editor::games::set_hint_budget(&h.ctx, budget);
    let said = ask_hint(&mut h);
    assert!(said.starts_with("Hint: right (a solution in 4 steps from here, with this seed"), "{said}");
    show_the_whole_solution(&mut h, 4);
    assert!(ps(&h).is_won(), "the solution wins with this seed: {:?}", h.state().message());
    assert_eq!(h.state().session().history().step(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same die where no rule tells the two gems apart: the draw only paints the board
/// (scenery), so Hint's solution wins whatever the seed, and it says no seed.
#[test]
fn hint_in_a_game_whose_draws_only_paint_wins_with_any_seed() {
    let (mut h, dir) = editor_on_game("die-paint", &die_game(false));
    let said = ask_hint(&mut h);
    assert!(said.starts_with("Hint: right (a solution in 4 steps from here)"), "{said}");
    show_the_whole_solution(&mut h, 4);
    assert!(ps(&h).is_won(), "{:?}", h.state().message());
    let _ = std::fs::remove_dir_all(&dir);
}

/// After a Hint found a solution, "Show the solution" plays it from here, one animated step
/// after another, to the win; a step of the user's own stops a walk under way.
#[test]
fn show_the_solution_walks_the_hints_solution_to_the_win() {
    let mut h = level_2_with_time_to_hint();
    assert!(h.query_by_label_contains("Show the solution (").is_none(), "no solution before a hint");
    let said = ask_hint(&mut h);
    let steps = solution_steps(&said);
    // Walk a few steps, then step by hand: the walk stops there.
    // (`step`, not `run`: a run would play every frame the walk asks for.)
    h.get_by_label(&format!("Show the solution ({steps} steps)")).click();
    h.step();
    assert!(h.state().walking());
    for _ in 0..100_000 {
        if h.state().session().history().step() >= 2 {
            break;
        }
        h.step();
    }
    assert!(h.query_by_label_contains("Showing the solution: step").is_some());
    h.key_press(Key::ArrowLeft);
    h.step();
    assert!(!h.state().walking(), "the user's own step stopped the walk");
    let after = h.state().session().history().step();
    for _ in 0..50 {
        h.step();
    }
    assert_eq!(h.state().session().history().step(), after, "and nothing more was played");
    // From the start again: a new hint, then the whole walk to the win, at any speed.
    h.get_by_label("Restart").click();
    h.run();
    let said = ask_hint(&mut h);
    assert!(said.contains(&format!("a solution in {steps} steps")), "{said}");
    show_the_whole_solution(&mut h, steps);
    assert!(!h.state().walking());
    assert!(ps(&h).is_won(), "the solution wins");
    assert_eq!(h.state().session().history().step(), steps, "in the steps the hint said");
}

/// Issue 38 (the search kept across steps): after the hinted step, the rest of the solution is
/// offered at once, and Hint answers its next step from it, with no new search.
#[test]
fn a_hint_followed_answers_from_the_solution_kept() {
    use tessera_core::puzzlescript::PuzzleScriptCommand;
    let mut h = level_2_with_time_to_hint();
    let said = ask_hint(&mut h);
    let word = said.trim_start_matches("Hint: ").split(' ').next().unwrap_or_default();
    let first: PuzzleScriptCommand = word.parse().unwrap_or_else(|_| panic!("a step: {said}"));
    let steps = solution_steps(&said);
    let key = match first {
        PuzzleScriptCommand::Up => Key::ArrowUp,
        PuzzleScriptCommand::Down => Key::ArrowDown,
        PuzzleScriptCommand::Left => Key::ArrowLeft,
        PuzzleScriptCommand::Right => Key::ArrowRight,
        _ => Key::X,
    };
    h.key_press(key);
    h.run();
    assert_eq!(h.state().session().history().step(), 1);
    // The rest is offered from here, and Hint answers in the same frame.
    assert!(
        h.query_by_label(&format!("Show the solution ({} steps)", steps - 1)).is_some(),
        "the rest is kept"
    );
    h.get_by_label("Hint").click();
    h.run();
    assert!(h.query_by_label("Searching for a hint…").is_none(), "no new search");
    let said = h.state().message().unwrap_or_default();
    assert!(said.contains(&format!("a solution in {} steps", steps - 1)), "{said}");
    // Undone, then a step of one's own off the solution: the solution is no longer offered.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.key_press(if key == Key::ArrowDown { Key::ArrowLeft } else { Key::ArrowDown });
    h.run();
    assert!(h.query_by_label_contains("Show the solution (").is_none(), "off the solution");
}

/// Issue 27: a PuzzleScript level rates in Edit's Difficulty panel with the solver's figures
/// (its steps and states), as a Sokoban level does with its pushes.
#[test]
fn the_difficulty_panel_rates_a_level_with_the_solvers_steps() {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    h.get_by_label("Level number").set_value_accesskit(1.0);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    // The source pane and its console aside: the side panel's full height for Difficulty.
    h.state_mut().show_source(false);
    h.run();
    // The console shows on its own (issue 63.12): its button in the menu bar hides it too.
    h.get_all_by_label("Console")
        .min_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
        .expect("the menu bar's Console")
        .click();
    h.run();
    // The rules panel and the game's levels fill the side panel: fold them to reach Difficulty.
    for section in ["Settings", "Levels of the game (3)", "Difficulty"] {
        h.get_by_label(section).click();
        h.run();
    }
    h.get_by_label("Games").set_value_accesskit(2.0);
    h.run();
    // The estimate comes first in the panel (issue 65): the bots' button is under it.
    h.get_by_label("Run bots").scroll_to_me();
    h.run();
    h.get_by_label("Run bots").click();
    h.run();
    let mut frames = 0;
    h.step();
    while h.state().edit().difficulty().running() {
        assert!(frames < 6000, "the sweep finished within 60 s");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
        frames += 1;
    }
    h.run();
    let solver = h.get_by_label_contains("Solver (puzzlescript-solver)");
    let text = solver.value().unwrap_or_default();
    assert!(text.contains("solved") && text.contains(" steps") && text.contains(" nodes searched"), "{text}");
    assert!(h.query_by_label_contains("won 2 ").is_some(), "the solver's bot wins every game");
    // PuzzleScript keeps no score: no best and worst seed by score, no score histogram.
    assert!(h.query_by_label_contains("best game").is_none());
    assert!(h.query_by_label_contains("Final score").is_none());
}

/// Issue 27: a realtime game ticks on its own clock in Play (`realtime_interval`), each tick a
/// step; unticking the box stops the clock.
#[test]
fn a_realtime_game_ticks_on_its_clock_until_the_box_is_unticked() {
    let (mut h, dir) = editor_on_game("realtime", REALTIME);
    assert_eq!(h.state().mode(), Mode::Play);
    let steps = |h: &Harness<'_, EditorApp>| h.state().session().history().step();
    // (the clock may have ticked already while the level opened)
    let start = std::time::Instant::now();
    while steps(&h) < 2 {
        assert!(start.elapsed().as_secs() < 20, "two ticks within 20 s of a 0.05 s clock");
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    // Each tick moved the dot right (its rule), as a step of the history.
    assert_ne!(ps(&h).rows()[0], "PD.........", "the dot moved");
    h.get_by_label("Realtime: a tick every 0.05 s").click();
    h.run();
    let stopped = steps(&h);
    for _ in 0..10 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    assert_eq!(steps(&h), stopped, "no tick once the box is unticked");
    std::fs::remove_dir_all(&dir).ok();
}

const REALTIME: &str = "title Clock\nrealtime_interval 0.05\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nPlayer\nred\n\nDot\nyellow\n\n=======\nLEGEND\n=======\n\n. = Background\nP = Player\nD = Dot\n\n======\nSOUNDS\n======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nPlayer, Dot\n\n======\nRULES\n======\n\nright [ stationary Dot ] -> [ right Dot ]\n\n==============\nWINCONDITIONS\n==============\n\n=======\nLEVELS\n=======\n\nPD.........\n";

/// Opens level 1 of `game`, and in Edit duplicates it, leaving the edit unsaved.
fn duplicate_a_level_unsaved(h: &mut Harness<'_, EditorApp>, game: &std::path::Path) {
    h.state_mut().open(game);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    h.get_by_label("Duplicate level").click();
    h.run();
    assert!(h.state().edit().dirty());
}

/// Issue 27: edits to a level of a game's `.txt` survive a crash with their game's file: after
/// Restore edits, Save game source writes that `.txt` again.
#[test]
fn a_games_edits_recovered_after_a_crash_save_into_its_txt() {
    let dir = std::env::temp_dir().join(format!("tessera-ps-recovery-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let game = dir.join("warehouse.txt");
    std::fs::copy(fixtures().join("games/warehouse.txt"), &game).expect("copy the game");
    let recovering = || recovering_editor(&dir.join("recovery"));
    let mut h = recovering();
    duplicate_a_level_unsaved(&mut h, &game);
    let copy = std::fs::read_to_string(dir.join("recovery").join(tessera_editor::recovery::RECOVERY_FILE))
        .expect("unsaved edits are copied");
    let copy: tessera_editor::recovery::Recovered = serde_json::from_str(&copy).expect("a recovery file");
    assert_eq!(copy.game_source.as_deref(), Some(game.as_path()), "the copy names the game's file");
    // The process dies.
    drop(h);
    let mut h = recovering();
    assert!(h.query_by_label_contains("a level of warehouse.txt").is_some(), "the question names the game");
    h.get_by_label("Restore edits").click();
    h.run();
    h.get_by_label("Save game source").click();
    h.run();
    assert_eq!(h.state().error(), None);
    let saved = std::fs::read_to_string(&game).expect("the game");
    let levels =
        |text: &str| tessera_core::puzzlescript::engine::compile(text).map(|g| g.levels().len()).unwrap_or(0);
    let before = std::fs::read_to_string(fixtures().join("games/warehouse.txt")).expect("the fixture");
    assert_eq!(levels(&saved), levels(&before) + 1, "the duplicated level is in the .txt");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 34.11: restored rule edits are never lost to the level chooser. After a crash, the
/// game's `.txt` is opened again (its chooser) and "Restore edits" answered: the chooser's Open
/// level asks first, offering Save game source (not Save level); Cancel keeps the restored draft
/// and its recovery file; Save game source writes the edits into the `.txt` and opens the level.
#[test]
fn restored_edits_are_not_replaced_by_the_level_chooser_and_save_into_the_games_txt() {
    let dir = std::env::temp_dir().join(format!("tessera-ps-recovery-chooser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let game = dir.join("warehouse.txt");
    std::fs::copy(fixtures().join("games/warehouse.txt"), &game).expect("copy the game");
    let recovery = dir.join("recovery");
    let recovering = || recovering_editor(&recovery);
    let levels =
        |text: &str| tessera_core::puzzlescript::engine::compile(text).map_or(0, |g| g.levels().len());
    let before = levels(&std::fs::read_to_string(&game).unwrap());
    let mut h = recovering();
    duplicate_a_level_unsaved(&mut h, &game);
    drop(h); // the process dies
    let file = recovery.join(tessera_editor::recovery::RECOVERY_FILE);
    assert!(file.exists(), "the edits were copied");
    // The next run opens the game again (its level chooser) and restores the edits.
    let mut h = recovering();
    h.state_mut().open(&game);
    h.run();
    h.get_by_label("Restore edits").click();
    h.run();
    assert!(h.state().edit().dirty(), "the restored draft");
    // The chooser's Open level would replace them: it asks, its Save writing the game's file
    // (issue 63.11: one Save button, the question saying what it writes).
    h.get_by_label("Open level").click();
    h.run();
    assert!(h.state().pending().is_some(), "asked before replacing restored edits");
    assert!(
        h.query_by_label_contains("Save writes the game's source into").is_some(),
        "the question's Save writes the game's own file"
    );
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.state().edit().dirty(), "Cancel keeps the restored draft");
    assert!(file.exists(), "and its recovery file");
    assert_eq!(levels(&std::fs::read_to_string(&game).unwrap()), before, "nothing written yet");
    // Open level again, Save game source: the edits go into the .txt, then the level opens.
    h.get_by_label("Open level").click();
    h.run();
    h.get_by_label("Save").click();
    h.run();
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(levels(&std::fs::read_to_string(&game).unwrap()), before + 1, "the duplicated level saved");
    assert!(!h.state().edit().dirty());
    std::fs::remove_dir_all(&dir).ok();
}

/// A step of hundreds of `again` turns keeps the boards of its last `MAX_TURN_BOARDS`
/// turns only, the board before the end being the one after the turn before the last, and
/// its sounds are all heard, those of the turns not shown at once.
#[test]
fn a_long_again_chain_shows_its_last_turns_only() {
    use tessera_core::AnyCommand;
    use tessera_editor::anim::Speed;
    use tessera_editor::{MAX_TURN_BOARDS, Session};
    let source = "title Run\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nred\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\nP = Player\n\n======\nSOUNDS\n======\n\nsfx0 23659300\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nPlayer, Wall\n\n======\nRULES\n======\n\nright [ Player | no Wall ] -> [ > Player | ] again sfx0\n\n==============\nWINCONDITIONS\n==============\n\n=======\nLEVELS\n=======\n\n";
    let width = 170;
    let level = format!("{}\n#P{}#\n{}\n", "#".repeat(width), ".".repeat(width - 3), "#".repeat(width));
    let level = Level::PuzzleScript(tessera_core::puzzlescript::PuzzleScriptLevel {
        name: None,
        seed: None,
        source: format!("{source}{level}").into(),
        level: 0,
    });
    let mut s = Session::new(level, 0).expect("starts");
    s.take_sounds();
    let right = AnyCommand::PuzzleScript(tessera_core::puzzlescript::PuzzleScriptCommand::Right);
    s.execute(&right, 0.0, Speed::Normal).expect("runs right");
    let turns = s.report().sounds.len();
    assert!(turns > MAX_TURN_BOARDS + 50, "a long chain: {turns} turns");
    let (start, secs, boards) = s.turn_frames().expect("the turns play out");
    assert_eq!(boards, MAX_TURN_BOARDS);
    // The last board before the end: the step's state with its last turn undone.
    let AnyState::PuzzleScript(last) = s.shown_state(start + (boards as f64 - 0.5) * secs).clone() else {
        panic!()
    };
    let AnyState::PuzzleScript(end) = s.state() else { panic!() };
    let moved = |st: &tessera_core::puzzlescript::PuzzleScriptState| {
        st.rows()[1].find('p').or(st.rows()[1].find('P'))
    };
    assert_eq!(moved(&last).map(|x| x + 1), moved(end), "one cell behind the end");
    let sounds = s.take_sounds();
    assert_eq!(sounds.len(), 1);
    assert_eq!(sounds[0].turns.len(), MAX_TURN_BOARDS + 1, "one turn of sounds a board, and the end's");
    assert_eq!(sounds[0].turns[0], vec!["23659300".to_string()], "the hidden turns' sound, once");
    assert!(secs > 0.0);
}

/// A realtime game whose crate only the clock moves (each tick moves it right), once the player
/// has walked out of its way; its clock here ticks every 0.2 s.
fn conveyor() -> String {
    std::fs::read_to_string(fixtures().join("games/conveyor.txt"))
        .expect("the fixture reads")
        .replace("realtime_interval 0.5", "realtime_interval 0.2")
}

/// A realtime game's solution waits for the clock: Hint finds it (its ticks steps of their own),
/// a tick of the clock that changes nothing says nothing, and "Show the solution" plays it to
/// the win, the clock waiting meanwhile (its own tick would put the solution off its course).
#[test]
fn a_realtime_game_s_solution_plays_its_ticks_while_the_clock_waits() {
    let (mut h, dir) = editor_on_game("conveyor", &conveyor());
    let budget = tessera_editor::games::HintBudget { cpu_seconds: 120.0, wall_seconds: 120.0 };
    tessera_editor::games::set_hint_budget(&h.ctx, budget);
    // The clock's ticks change nothing while the player blocks the crate: no step, no word.
    for _ in 0..30 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    assert_eq!(h.state().session().history().step(), 0);
    assert_eq!(h.state().message(), None, "a tick of the clock that changes nothing says nothing");
    let said = ask_hint(&mut h);
    assert!(said.starts_with("Hint: right (a solution in"), "{said}");
    let steps = solution_steps(&said);
    show_the_whole_solution(&mut h, steps);
    assert!(ps(&h).is_won(), "the solution wins: {:?}", h.state().message());
    assert_eq!(h.state().session().history().step(), steps, "the clock played no step of its own");
    let _ = std::fs::remove_dir_all(&dir);
}

/// "Save solution GIF…" saves Hint's solution from here as a GIF (a frame for the position and
/// one a turn of the solution: warehouse's pushes queue no `again`), playing nothing on the board.
#[test]
fn save_solution_gif_draws_hints_solution_from_here() {
    let mut h = level_2_with_time_to_hint();
    let said = ask_hint(&mut h);
    let steps = solution_steps(&said);
    let path = crate::gif::temp_path("solution.gif");
    h.get_by_label("Save solution GIF…").click();
    h.run();
    h.get_by_label("Path").set_text_value_accesskit(&path.display().to_string());
    h.run();
    h.get_by_label("Save file").click();
    h.run();
    assert_eq!(h.state().error(), None);
    let (frames, w, hgt) = crate::gif::frames(&path);
    assert_eq!(frames as u64, steps + 1, "{said}");
    let s = ps(&h);
    assert_eq!((w, hgt), (s.size().width * 30, s.size().height * 30));
    assert_eq!(h.state().session().history().step(), 0, "saving plays nothing");
    std::fs::remove_file(&path).ok();
}

/// While "Show the solution" plays, "Save GIF…" beside Stop saves the whole solution from the
/// position the walk started from (not from the step it has reached), and the walk goes on.
#[test]
fn save_gif_beside_stop_saves_the_whole_solution_shown() {
    let mut h = level_2_with_time_to_hint();
    let start = ps(&h);
    let said = ask_hint(&mut h);
    let steps = solution_steps(&said);
    h.get_by_label(&format!("Show the solution ({steps} steps)")).click();
    h.step();
    // A step or two into the walk, if it gets there before it ends (frame by frame: `run`
    // would play the whole walk).
    for _ in 0..2000 {
        if h.state().session().history().step() >= 1 || !h.state().walking() {
            break;
        }
        h.step();
    }
    assert!(
        h.state().walking(),
        "still showing the solution at step {}",
        h.state().session().history().step()
    );
    let path = crate::gif::temp_path("walk.gif");
    h.get_by_label("Save GIF…").click();
    h.run_steps(3);
    h.get_by_label("Path").set_text_value_accesskit(&path.display().to_string());
    h.run_steps(3);
    h.get_by_label("Save file").click();
    h.run_steps(3);
    assert_eq!(h.state().error(), None);
    let (frames, w, hgt) = crate::gif::frames(&path);
    assert_eq!(frames as u64, steps + 1, "the start and every step: {said}");
    assert_eq!((w, hgt), (start.size().width * 30, start.size().height * 30));
    // The first frame is the position the walk started from, not the one it had reached.
    let first = crate::gif::first_frame(&path);
    let art = tessera_replay::gif::art::Art::new(match h.state().session().history().rules() {
        tessera_core::AnyRules::PuzzleScript(r) => r.game(),
        _ => unreachable!("a PuzzleScript game"),
    });
    let picture = art.picture(&start);
    assert_eq!(first[..3], picture.pixels[0][..], "the top-left pixel");
    let at = |x: usize, y: usize| picture.pixels[(y * 5 / 30) * picture.width + x * 5 / 30];
    for (i, px) in first.chunks_exact(4).enumerate().step_by(97) {
        let (x, y) = (i % usize::from(w), i / usize::from(w));
        assert_eq!(px[..3], at(x, y)[..], "pixel ({x}, {y}) of the first frame");
    }
    std::fs::remove_file(&path).ok();
}
