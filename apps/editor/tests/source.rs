//! Issue 63: the source editor's rows, find, editing keys and autocomplete, driven by keys and
//! checked against what the window shows (the accessibility tree: the gutter's row labels and
//! the text's own rows as egui lays them out).

use crate::common::{editor, fixtures};
use egui::{Key, Modifiers, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tessera_editor::EditorApp;
use tessera_editor::source_editor::SourceEditor;

/// The editor with `fixtures/games/<name>` open, in Edit, the source pane shown.
fn game(name: &str) -> Harness<'static, EditorApp> {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games").join(name));
    h.run();
    assert_eq!(h.state().error(), None);
    h.get_by_label("Open level").click();
    h.run();
    h.state_mut().set_mode(tessera_editor::Mode::Edit);
    h.run();
    assert!(h.state().source_shown());
    h
}

/// A source editor alone in a 700×600 window.
fn alone(text: &str) -> Harness<'static, SourceEditor> {
    Harness::builder().with_size(egui::vec2(700.0, 600.0)).with_max_steps(16).build_ui_state(
        |ui, e: &mut SourceEditor| {
            e.ui(ui);
        },
        SourceEditor::new(egui::Id::unique("alone"), text.to_string()),
    )
}

/// The gutter's row labels in view: (line number, where it is drawn).
fn gutter<S>(h: &Harness<'_, S>) -> Vec<(usize, Rect)> {
    h.query_all_by_label_contains("line number ")
        .filter_map(|n| {
            let label = n.accesskit_node().label().or_else(|| n.value())?;
            Some((label.strip_prefix("line number ")?.parse().ok()?, n.rect()))
        })
        .collect()
}

/// The source's rows as egui laid them out: (their text without the newline, where).
fn text_rows<S>(h: &Harness<'_, S>) -> Vec<(String, Rect)> {
    h.get_by_label("Game source")
        .children()
        .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::TextRun)
        .map(|n| (n.value().unwrap_or_default().trim_end_matches('\n').to_string(), n.rect()))
        .collect()
}

/// Every row label in view sits on the row of the text that is that line of `source`, and the
/// label of `at` is among them.
fn labels_match<S>(h: &Harness<'_, S>, source: &str, at: usize) {
    let lines: Vec<&str> = source.split('\n').collect();
    let labels = gutter(h);
    let rows = text_rows(h);
    assert!(labels.len() >= 10, "rows in view: {}", labels.len());
    assert!(labels.iter().any(|&(n, _)| n == at), "line {at} labelled in view: {labels:?}");
    for (n, r) in &labels {
        let on: Vec<&(String, Rect)> =
            rows.iter().filter(|(_, t)| (t.center().y - r.center().y).abs() < t.height() / 2.0).collect();
        assert_eq!(on.len(), 1, "one text row beside label {n} at {r:?}");
        assert_eq!(on[0].0, lines[n - 1], "the row labelled {n} shows line {n} (jumped to {at})");
        assert!((on[0].1.center().y - r.center().y).abs() <= 1.0, "label {n} is level with its row");
    }
}

fn go_to<S>(h: &mut Harness<'_, S>, line: usize) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::G);
    h.run();
    h.get_by_label("Go to line").type_text(&line.to_string());
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.run();
}

/// Point 2: after Ctrl+G to many lines, each row's label is the line that row shows, and the
/// cursor is on the row labelled with the line asked for; an error's dot is on its row.
#[test]
fn row_labels_match_the_text_after_jumps() {
    let mut h = game("chorus.txt");
    let source = h.state().workbench().text().to_string();
    let n = source.split('\n').count();
    for line in [74, 75, 120, n - 1, 30, 151, 2, 100] {
        go_to(&mut h, line);
        assert_eq!(h.state().workbench().editor().cursor_line(&h.ctx), Some(line));
        labels_match(&h, &source, line);
    }
    // An error at line 75: its dot on the row labelled 75.
    let lines: Vec<&str> = source.split('\n').collect();
    let rule = lines.iter().position(|l| l.contains("[ > Player | Crate ]")).expect("a push rule") + 1;
    let broken = source.replacen("[ > Player | Crate ]", "[ > Player | Crat ]", 1);
    h.state_mut().workbench_mut().set_text(&broken);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    h.run();
    go_to(&mut h, rule);
    let dot = h.get_by_label(&format!("error at line {rule}")).rect();
    let (_, label) = *gutter(&h).iter().find(|(k, _)| *k == rule).expect("the rule's row labelled");
    assert!((dot.center().y - label.center().y).abs() <= 1.0, "the dot {dot:?} on its row {label:?}");
}

/// Point 2, on a long text alone: 2,000 lines, jumps all over it.
#[test]
fn row_labels_match_on_a_long_text() {
    let text: String = (1..=2000).map(|k| format!("( row {k} ) [ > Player | Crate{k} ]\n")).collect();
    let mut h = alone(&text);
    h.run();
    for line in [1500, 74, 1999, 1000, 333, 1] {
        go_to(&mut h, line);
        assert_eq!(h.state().cursor_line(&h.ctx), Some(line));
        labels_match(&h, &text, line);
    }
}

/// The selection in the source pane: (anchor, cursor), in characters.
fn selection(h: &Harness<'_, EditorApp>) -> (usize, usize) {
    let id = h.state().workbench().editor().text_id();
    let r = egui::TextEdit::load_state(&h.ctx, id).and_then(|s| s.cursor.char_range()).expect("a cursor");
    (r.secondary.index.0, r.primary.index.0)
}

fn source_focused(h: &Harness<'_, EditorApp>) -> bool {
    h.get_by_label("Game source").is_focused()
}

/// Point 7: Find searches as one types (the count and the match at once, before any Enter);
/// Escape closes the bar and gives the keyboard back to the text, where typing goes in.
#[test]
fn find_searches_as_one_types_and_escape_returns_to_the_text() {
    let mut h = game("warehouse.txt");
    let source = h.state().workbench().text().to_string();
    go_to(&mut h, 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    h.run();
    h.event(egui::Event::Text("crat".into()));
    h.run();
    h.run();
    let n = source.to_lowercase().matches("crat").count();
    assert!(n > 1);
    assert_eq!(h.state().workbench().editor().find_count(), Some((1, n)), "the first match, no Enter");
    assert!(h.query_by_label(&format!("1 of {n}")).is_some(), "the count shown while typing");
    let first = source.to_lowercase().find("crat").unwrap();
    let first_line = source[..first].matches('\n').count() + 1;
    assert_eq!(h.state().workbench().editor().cursor_line(&h.ctx), Some(first_line));
    assert_eq!(selection(&h).1, first + 4, "the cursor at the match");
    // More typing narrows it: still a match shown at once.
    h.event(egui::Event::Text("e".into()));
    h.run();
    h.run();
    let m = source.to_lowercase().matches("crate").count();
    assert_eq!(h.state().workbench().editor().find_count(), Some((1, m)));
    // Escape: the bar closes, the text has the keyboard, typing goes into the source.
    let revision = h.state().edit().revision();
    h.key_press(Key::Escape);
    h.run();
    h.run();
    assert_eq!(h.state().workbench().editor().find_count(), None, "the bar closed");
    assert!(source_focused(&h), "the text has the keyboard");
    assert_eq!(selection(&h), (first, first + 5), "the match selected");
    h.event(egui::Event::Text("Box".into()));
    h.run();
    let typed = h.state().workbench().text().to_string();
    assert_eq!(typed, format!("{}Box{}", &source[..first], &source[first + 5..]), "typed over the match");
    assert_eq!(h.state().edit().revision(), revision, "no tool of Edit took the keys");
}

/// The line (from 1) holding `text` in the source pane.
fn line_with(h: &Harness<'_, EditorApp>, text: &str) -> usize {
    h.state().workbench().text().lines().position(|l| l.contains(text)).expect("the line") + 1
}

fn line(h: &Harness<'_, EditorApp>, n: usize) -> String {
    h.state().workbench().text().split('\n').nth(n - 1).unwrap_or_default().to_string()
}

/// Point 13: Ctrl+/ comments the selected lines and uncomments them; Alt+Up/Down and
/// Ctrl+Shift+Up/Down move lines; Ctrl+D duplicates; Home goes to the first word then the
/// line's start; Shift selects.
#[test]
fn ctrl_slash_moves_and_duplicates_lines() {
    let mut h = game("warehouse.txt");
    let source = h.state().workbench().text().to_string();
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let at = line_with(&h, rule);
    let (a, b) = (line(&h, at), line(&h, at + 1));
    go_to(&mut h, at);
    // Ctrl+/ on the cursor's line, and again: back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Slash);
    h.run();
    assert_eq!(line(&h, at), format!("({rule})"));
    assert!(source_focused(&h));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Slash);
    h.run();
    assert_eq!(h.state().workbench().text(), source);
    // Two lines selected with Shift+Down (the selection ends at the start of a third).
    go_to(&mut h, at);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowDown);
    h.run();
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowDown);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Slash);
    h.run();
    let c = line(&h, at + 2);
    assert_eq!(line(&h, at), format!("({a})"));
    assert_eq!(line(&h, at + 1), if b.trim().is_empty() { b.clone() } else { format!("({b})") });
    assert_eq!(line(&h, at + 2), c, "the line the selection ends at the start of is left");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Slash);
    h.run();
    assert_eq!(h.state().workbench().text(), source);
    // Alt+Down moves the line down, the cursor with it; Ctrl+Shift+Up moves it back.
    go_to(&mut h, at);
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowDown);
    h.run();
    assert_eq!((line(&h, at), line(&h, at + 1)), (b.clone(), a.clone()));
    assert_eq!(h.state().workbench().editor().cursor_line(&h.ctx), Some(at + 1));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::ArrowUp);
    h.run();
    assert_eq!(h.state().workbench().text(), source);
    assert_eq!(h.state().workbench().editor().cursor_line(&h.ctx), Some(at));
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowUp);
    h.run();
    assert_eq!(line(&h, at - 1), a);
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowDown);
    h.run();
    assert_eq!(h.state().workbench().text(), source);
    // Ctrl+D: the line twice, the cursor on the copy.
    h.key_press_modifiers(Modifiers::COMMAND, Key::D);
    h.run();
    assert_eq!((line(&h, at), line(&h, at + 1)), (a.clone(), a.clone()));
    assert_eq!(h.state().workbench().text().split('\n').count(), source.split('\n').count() + 1);
    assert_eq!(h.state().workbench().editor().cursor_line(&h.ctx), Some(at + 1));
    // Home on an indented line: its first word, then its start; Shift+End selects to its end.
    let indented = source.replacen(rule, &format!("    {rule}"), 1);
    h.state_mut().workbench_mut().set_text(&indented);
    h.run();
    go_to(&mut h, at);
    let start: usize = indented.split('\n').take(at - 1).map(|l| l.chars().count() + 1).sum();
    h.key_press(Key::End);
    h.run();
    h.key_press(Key::Home);
    h.run();
    assert_eq!(selection(&h), (start + 4, start + 4), "Home: the first word");
    h.key_press(Key::Home);
    h.run();
    assert_eq!(selection(&h), (start, start), "Home again: the line's start");
    h.key_press_modifiers(Modifiers::SHIFT, Key::End);
    h.run();
    assert_eq!(selection(&h), (start, start + 4 + rule.len()), "Shift+End selects the line");
    h.key_press_modifiers(Modifiers::SHIFT, Key::Home);
    h.run();
    assert_eq!(selection(&h), (start, start + 4), "Shift+Home: from the start to the first word");
}

/// Point 13: Page Down and Page Up move by the rows in view, Shift selecting.
#[test]
fn page_down_and_up_move_by_a_page() {
    let text: String = (1..=300).map(|k| format!("line {k}\n")).collect();
    let mut h = alone(&text);
    h.run();
    go_to(&mut h, 1);
    let rows = gutter(&h).len();
    assert!(rows > 10);
    h.key_press(Key::PageDown);
    h.run();
    let down = h.state().cursor_line(&h.ctx).expect("a cursor");
    assert!(down > rows / 2 && down <= rows, "a page down: line {down} of {rows} in view");
    labels_match(&h, &text, down);
    h.key_press(Key::PageDown);
    h.run();
    h.key_press(Key::PageDown);
    h.run();
    let third = h.state().cursor_line(&h.ctx).unwrap();
    assert_eq!(third - 1, 3 * (down - 1), "pages of the same size");
    assert!(gutter(&h).iter().any(|&(n, _)| n == third), "the cursor's row in view");
    h.key_press_modifiers(Modifiers::SHIFT, Key::PageUp);
    h.run();
    let id = h.state().text_id();
    let r = egui::TextEdit::load_state(&h.ctx, id).and_then(|s| s.cursor.char_range()).unwrap();
    assert!(r.secondary.index.0 > r.primary.index.0, "Shift+Page Up selects back");
    assert_eq!(h.state().cursor_line(&h.ctx), Some(third - (down - 1)));
}

/// The labels of the autocomplete list.
fn suggestions(h: &Harness<'_, EditorApp>) -> Vec<String> {
    h.query_all_by_label_contains("suggestion ")
        .filter_map(|n| n.accesskit_node().label().map(|l| l.trim_start_matches("suggestion ").to_string()))
        .collect()
}

/// Point 14: autocomplete as one types a name and on Ctrl+Space: the game's names in rules,
/// colour names in an object's colours, section names at a line's start; Enter, Tab, a click
/// or the arrows and Enter put one in; Escape closes the list; PuzzleScript's suffix
/// variants generate the other directions' objects.
#[test]
fn autocomplete_offers_what_fits_where_the_cursor_is() {
    let mut h = game("warehouse.txt");
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let at = line_with(&h, rule);
    // A new rule on an empty line under the push rule: "[ > Pl" offers Player; Enter puts it in.
    go_to(&mut h, at + 1);
    h.event(egui::Event::Text("[ > ".into()));
    h.run();
    assert!(suggestions(&h).is_empty(), "nothing before a name is typed");
    h.event(egui::Event::Text("Pl".into()));
    h.run();
    h.run();
    assert_eq!(suggestions(&h), vec!["Player"]);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(line(&h, at + 1), "[ > Player");
    assert!(suggestions(&h).is_empty(), "the list closes");
    // Ctrl+Space with nothing typed: the game's names, directions and commands.
    h.event(egui::Event::Text(" | ".into()));
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Space);
    h.run();
    h.run();
    let all = suggestions(&h);
    assert!(all.contains(&"Crate".to_string()) && all.contains(&"Wall".to_string()), "{all:?}");
    h.key_press(Key::Escape);
    h.run();
    assert!(suggestions(&h).is_empty(), "Escape closes it");
    assert!(source_focused(&h), "the text keeps the keyboard");
    // Typing a command: "ag" offers again; Tab puts it in.
    h.event(egui::Event::Text("ag".into()));
    h.run();
    h.run();
    assert_eq!(suggestions(&h), vec!["again"]);
    h.key_press(Key::Tab);
    h.run();
    assert_eq!(line(&h, at + 1), "[ > Player | again");
    // A colour in an object's colours: the arrows choose, Enter puts it in.
    let colours = line_with(&h, "Target") + 1;
    go_to(&mut h, colours);
    h.key_press(Key::End);
    h.run();
    h.event(egui::Event::Text(" darkb".into()));
    h.run();
    h.run();
    assert_eq!(suggestions(&h), vec!["darkblue", "darkbrown"]);
    h.key_press(Key::ArrowDown);
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert!(line(&h, colours).ends_with(" darkbrown"), "{}", line(&h, colours));
    // A section's name at a line's start, clicked in the list.
    go_to(&mut h, at + 3);
    assert_eq!(line(&h, at + 3), "");
    h.event(egui::Event::Text("WINC".into()));
    h.run();
    h.run();
    assert_eq!(suggestions(&h), vec!["WINCONDITIONS"]);
    h.get_by_label("suggestion WINCONDITIONS").click();
    h.run();
    h.run();
    assert_eq!(line(&h, at + 3), "WINCONDITIONS");
    assert!(source_focused(&h), "the text keeps the keyboard after a click in the list");
}

/// Point 14: PuzzleScript's suffix variants: an object `Hero_up` offers `Hero_down`,
/// `Hero_left` and `Hero_right` with their sprites turned, and then the legend's property of
/// them all.
#[test]
fn autocomplete_makes_the_other_directions_objects() {
    let mut h = game("warehouse.txt");
    let source = h.state().workbench().text().to_string();
    let hero = "Hero_up\n#ff0000\n..0..\n.000.\n..0..\n..0..\n..0..\n\n\n";
    let with_hero = source.replacen("Crate\n", &format!("{hero}Crate\n"), 1);
    h.state_mut().workbench_mut().set_text(&with_hero);
    h.run();
    let before_crate = with_hero.split('\n').position(|l| l == "Crate").unwrap() + 1;
    go_to(&mut h, before_crate - 1);
    assert_eq!(line(&h, before_crate - 1), "");
    h.event(egui::Event::Text("He".into()));
    h.run();
    h.run();
    let offered = suggestions(&h);
    assert_eq!(offered, vec!["Hero_down, Hero_left, Hero_right (from Hero_up, turned)"]);
    h.key_press(Key::Enter);
    h.run();
    let text = h.state().workbench().text().to_string();
    assert!(
        text.contains("Hero_right\n#ff0000\n.....\n...0.\n00000\n...0.\n.....\n"),
        "turned right: {text}"
    );
    assert!(text.contains("Hero_down\n#ff0000\n..0..\n..0..\n..0..\n.000.\n..0..\n"), "upside down: {text}");
    // The legend: "Hero" on a new line offers the property of the four.
    let legend = line_with(&h, "P = Player");
    go_to(&mut h, legend);
    h.key_press(Key::End);
    h.run();
    h.event(egui::Event::Text("\nHero".into()));
    h.run();
    h.run();
    assert_eq!(suggestions(&h), vec!["Hero = Hero_up or Hero_down or Hero_left or Hero_right"]);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(line(&h, legend + 1), "Hero = Hero_up or Hero_down or Hero_left or Hero_right");
}

/// Makes the source pane's text `text` and rebuilds it (Ctrl+Enter).
fn rebuild(h: &mut Harness<'_, EditorApp>, text: &str) {
    h.state_mut().workbench_mut().set_text(text);
    h.run();
    go_to(h, 1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Enter);
    h.run();
    h.run();
}

/// Point 10: an unknown name underlines that word, not its line; the messages are in plain
/// words; a comment never closed is an error at the `(` that opened it; console lines wrap
/// at the pane's edge.
#[test]
fn errors_at_the_word_in_plain_words_and_the_unclosed_comment() {
    let mut h = game("warehouse.txt");
    let source = h.state().workbench().text().to_string();
    let rule = "[ > Player | Crate ] -> [ > Player | > Crate ]";
    let at = line_with(&h, rule);
    rebuild(&mut h, &source.replacen(rule, "[ > Player | Crat ] -> [ > Player | > Crate ]", 1));
    assert!(h.state().workbench().marks().iter().any(|m| m.error && m.line == at));
    assert_eq!(h.state().workbench().editor().underlined(), vec![(at, "Crat".to_string())], "the word alone");
    // A rule of empty cells: said plainly.
    rebuild(&mut h, &source.replacen(rule, "-> again", 1));
    let marks = h.state().workbench().marks().to_vec();
    assert!(marks.iter().any(|m| m.line == at), "{marks:?}");
    assert!(
        marks.iter().all(|m| !m.message.contains("What the heck") && !m.message.contains(":O")),
        "{marks:?}"
    );
    assert!(!h.state().console().text().contains("What the heck"), "{}", h.state().console().text());
    // A comment opened in the objects section and never closed: the error is at its `(`.
    let wall = line_with(&h, "Wall");
    let open = source.replacen("\nWall\n", "\nWall (the walls\n", 1);
    rebuild(&mut h, &open);
    let column = "Wall (".len();
    let comment: Vec<_> = h
        .state()
        .workbench()
        .marks()
        .iter()
        .filter(|m| m.message.contains("never closed"))
        .cloned()
        .collect();
    assert_eq!(comment.len(), 1, "{:?}", h.state().workbench().marks());
    assert_eq!((comment[0].line, comment[0].column, comment[0].error), (wall, column, true));
    assert!(h.query_by_label(&format!("error at line {wall}")).is_some(), "its mark in the gutter");
    assert!(h.state().workbench().editor().underlined().contains(&(wall, "(".to_string())), "the `(` alone");
    assert!(h.state().console().text().contains("never closed"));
    // The console's long lines wrap: the message's label is no wider than the pane and
    // taller than a row.
    let said = h
        .query_all_by_label_contains("never closed")
        .max_by(|a, b| a.rect().top().total_cmp(&b.rect().top()));
    let said = said.expect("the console line").rect();
    assert!(said.right() <= 1280.0 && said.height() > 20.0, "wrapped in the window: {said:?}");
}
