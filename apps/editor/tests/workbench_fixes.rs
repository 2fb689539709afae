//! Issue 63's last defects: a game whose source does not compile opens into Edit with its
//! errors; a message with parentheses draws; a message about a word underlines that word; and
//! Debug's board after each rule of a step (point 16).

use crate::common::{editor, fixtures};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tessera_core::AnyState;
use tessera_editor::{EditorApp, Mode};

/// A scratch folder of the test's own (removed by the test).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-fixes-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn warehouse() -> String {
    std::fs::read_to_string(fixtures().join("games/warehouse.txt")).expect("the fixture game")
}

fn line_of(text: &str, what: &str) -> usize {
    text.lines().position(|l| l.contains(what)).expect("the line") + 1
}

fn rebuild_by_key(h: &mut Harness<'_, EditorApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    h.run();
    h.run();
}

/// A game whose source does not compile opens (it was refused with an error): into Edit, its
/// text in the source pane as in the file, its error marked at its line (the unknown word
/// underlined) and listed in the console; once fixed, Rebuild builds it and Play plays its
/// level; Ctrl+S writes the file.
#[test]
fn a_game_that_does_not_compile_opens_in_edit_with_its_errors() {
    let dir = scratch("failing");
    let good = warehouse();
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let bad = good.replacen(rule, "[ > Player | Crat ] -> [ > Player | > Crate ]", 1);
    let at = line_of(&bad, "| Crat ]");
    let path = dir.join("broken.txt");
    std::fs::write(&path, &bad).expect("the game written");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    h.run();
    assert_eq!(h.state().error(), None, "the game opens");
    assert_eq!(h.state().mode(), Mode::Edit);
    assert!(h.state().source_shown(), "its source pane shows");
    assert_eq!(h.state().workbench().text(), bad, "the file's text, as it is");
    let marks = h.state().workbench().marks().to_vec();
    assert!(marks.iter().any(|m| m.error && m.line == at), "the error at line {at}: {marks:?}");
    assert!(h.query_by_label(&format!("error at line {at}")).is_some(), "its mark in the gutter");
    assert_eq!(h.state().workbench().editor().underlined(), vec![(at, "Crat".to_string())]);
    assert!(h.state().console().text().contains("Rebuild failed"), "{}", h.state().console().text());
    assert!(h.state().window_title().contains("broken.txt"), "{}", h.state().window_title());
    // Fixed and rebuilt: Edit stays, and the game plays its first level.
    h.state_mut().workbench_mut().set_text(&good);
    h.run();
    rebuild_by_key(&mut h);
    assert_eq!(h.state().mode(), Mode::Edit, "the rebuild stays in Edit");
    assert!(h.state().workbench().marks().iter().all(|m| !m.error), "{:?}", h.state().workbench().marks());
    let AnyState::PuzzleScript(s) = h.state().session().state() else { panic!("Play holds the game") };
    assert_eq!(s.rows().len(), 5, "the first level's board: {:?}", s.rows());
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(std::fs::read_to_string(&path).expect("saved"), good, "Ctrl+S writes the fixed game");
    std::fs::remove_dir_all(&dir).ok();
}

/// A `message` whose text holds parentheses (in a rule and between levels) is its text, not a
/// comment: the source pane draws it (it panicked: "LayoutSections must be ordered"), colours
/// it as a message and finds no unclosed comment in it.
#[test]
fn a_message_with_parentheses_draws() {
    let mut h = editor();
    let push = tessera_editor::games::EXAMPLES.iter().find(|(n, _)| n.starts_with("Push")).expect("push").1;
    h.state_mut().new_source_game(push);
    h.run();
    let text = h.state().workbench().text().to_string();
    let rules = text.find("\nRULES").expect("a RULES section");
    let rule_end = text[rules + 1..].find("\n\n").map(|i| rules + 1 + i).expect("the section's first rule");
    let mut typed = text.clone();
    typed.insert_str(rule_end, "\n[ > Player | Wall ] -> [ Player | Wall ] message ouch (a wall) (so it is");
    let levels = typed.find("\nLEVELS").expect("LEVELS");
    let after = typed[levels + 1..].find("\n\n").map(|i| levels + 1 + i).expect("the levels' start");
    typed.insert_str(after, "\nmessage Level one (of three");
    h.state_mut().workbench_mut().set_text(&typed);
    h.run();
    h.run();
    assert_eq!(h.state().workbench().text(), typed, "drawn, nothing lost");
    let tokens = tessera_editor::syntax::tokens(&typed);
    let message = |t: &str| {
        tokens
            .iter()
            .any(|k| k.class == tessera_editor::syntax::Class::Message && &typed[k.range.clone()] == t)
    };
    assert!(message("ouch (a wall) (so it is"), "the rule's message is its text");
    assert!(message("Level one (of three"), "the level's message is its text");
    let comment_in = |what: &str| {
        let at = typed.find(what).expect("the line");
        let end = at + typed[at..].find('\n').unwrap_or(typed.len() - at);
        tokens.iter().any(|k| {
            k.class == tessera_editor::syntax::Class::Comment && k.range.start < end && k.range.end > at
        })
    };
    assert!(!comment_in("message ouch") && !comment_in("message Level one"), "no comment in the messages");
    assert_eq!(tessera_editor::syntax::unclosed_comment(&typed), None);
    // It builds (the compiler reads messages so too).
    rebuild_by_key(&mut h);
    assert!(h.state().workbench().marks().iter().all(|m| !m.error), "{:?}", h.state().workbench().marks());
}

/// Point 10: a message about a word that does not quote it (the legend's "You're talking about
/// GEM but it's not defined anywhere.") underlines the word, from the compiler's column, not the
/// whole line.
#[test]
fn a_legend_error_underlines_its_word() {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    h.state_mut().set_mode(Mode::Edit);
    h.run();
    let text = h.state().workbench().text().to_string();
    let legend = text.find("\nLEGEND").expect("LEGEND");
    let first = text[legend..].find("\n. = ").map(|i| legend + i).expect("the legend's first entry");
    let mut typed = text.clone();
    typed.insert_str(first, "\nQ = Crate and Gem");
    let at = line_of(&typed, "Q = Crate and Gem");
    h.state_mut().workbench_mut().set_text(&typed);
    h.run();
    rebuild_by_key(&mut h);
    let marks = h.state().workbench().marks().to_vec();
    let gem = marks.iter().find(|m| m.line == at && m.message.contains("GEM")).expect("the legend's error");
    assert!(gem.width > 0, "the compiler says where the word is: {gem:?}");
    let under: Vec<_> =
        h.state().workbench().editor().underlined().into_iter().filter(|(l, _)| *l == at).collect();
    assert_eq!(under, vec![(at, "Gem".to_string())], "the word alone");
}

/// Point 16: in Debug, each rule that fired in the shown step has a "board" button: the board
/// as that rule left it (before the step's later rules and moves), said above the board, and
/// again the step's end.
#[test]
fn debug_shows_the_board_after_each_rule() {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    h.get_by_label("Level number").set_value_accesskit(2.0);
    h.run();
    h.get_by_label("Open level").click();
    h.run();
    h.get_by_label("Instant").click();
    h.run();
    // The action lights a spark (a random rule), which late rules fade (again).
    h.key_press(Key::X);
    h.run();
    h.run();
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    h.run();
    let end =
        h.state().debug().debugger().expect("Debug shows the line of play").state().expect("a state").clone();
    assert_eq!(h.state().debug().debugger().map(|d| d.step()), Some(1));
    let first = h.get_by_label("board after rule 1 of turn 0");
    first.click();
    h.run();
    h.run();
    let after = h.state_mut().debug_mut().rule_board().cloned().expect("the board after the first rule");
    assert_ne!(after, end, "the board after the spark's rule is not the step's end");
    assert!(h.query_by_label_contains("The board after rule 1 of turn 0").is_some(), "said above the board");
    let AnyState::PuzzleScript(a) = &after else { panic!("a puzzlescript board") };
    let AnyState::PuzzleScript(e) = &end else { panic!("a puzzlescript board") };
    assert_ne!(a.rows(), e.rows(), "the board drawn differs: {:?} vs {:?}", a.rows(), e.rows());
    // Again: the step's end.
    h.get_by_label("board after rule 1 of turn 0").click();
    h.run();
    assert!(h.state_mut().debug_mut().rule_board().is_none());
    assert!(h.query_by_label_contains("The board after rule").is_none());
}
