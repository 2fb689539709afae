//! Issue 65 in the editor: the Difficulty panel's estimate of a puzzle level (what
//! `tessera difficulty` prints, computed off the window's thread, belonging to the level it was
//! computed for) and the levels list's curve of every level's estimate with its breather marks.

use crate::common::{editor, fixtures};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::sync::Arc;
use tessera_core::{Level, Pos};
use tessera_editor::draft::Ink;
use tessera_editor::estimate::{RATING, STALE};
use tessera_editor::{EditorApp, Mode};

/// A level as `tessera difficulty … --all` prints it: its number, figure and reasons.
#[derive(Debug, PartialEq)]
struct Printed {
    number: usize,
    figure: String,
    why: String,
}

/// The report of `tessera difficulty fixtures/games/warehouse.txt --all` as docs/difficulty.md
/// shows it (a console block the CLI's docs test runs with this build's `tessera` and compares
/// line by line): its levels, and its breather marks `(level, harder level before it)`.
fn printed_report() -> (Vec<Printed>, Vec<(usize, usize)>) {
    let page = std::fs::read_to_string(fixtures().join("../docs/difficulty.md")).expect("docs/difficulty.md");
    let block = page
        .split("$ tessera difficulty fixtures/games/warehouse.txt --all\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the console block of the report");
    let (mut levels, mut marks) = (Vec::new(), Vec::new());
    for line in block.lines() {
        if let Some(rest) = line.strip_prefix("level ") {
            let (number, rest) = rest.trim_start().split_once(' ').expect("a number");
            let (figure, why) = rest.trim_start().split_once("  ").expect("a figure");
            levels.push(Printed {
                number: number.parse().expect("a number"),
                figure: figure.into(),
                why: why.into(),
            });
        } else if let Some(rest) = line.trim_start().strip_prefix("^ level ") {
            // "^ level 3 rates easier than level 2: a breather?"
            let (a, rest) = rest.split_once(" rates easier than level ").expect("a mark");
            let b = rest.split_once(':').expect("a mark").0;
            marks.push((a.parse().expect("a level"), b.parse().expect("a level")));
        }
    }
    assert!(levels.len() >= 3 && !marks.is_empty(), "{block}");
    (levels, marks)
}

/// Clicks the widget labelled `label`, scrolled into view first (the side panel scrolls).
fn click(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
}

/// The editor in Edit on warehouse.txt's level 1, the source pane and console aside, the
/// settings folded: the side panel's height for the levels list and Difficulty.
fn warehouse_in_edit() -> Harness<'static, EditorApp> {
    let mut h = editor();
    h.state_mut().open(&fixtures().join("games/warehouse.txt"));
    h.run();
    h.get_by_label("Level number").set_value_accesskit(1.0);
    h.run();
    click(&mut h, "Open level");
    h.state_mut().set_mode(Mode::Edit);
    h.state_mut().show_source(false);
    h.run();
    h.get_all_by_label("Console")
        .min_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
        .expect("the menu bar's Console")
        .click();
    h.run();
    click(&mut h, "Settings");
    h
}

/// Runs frames until the panel's estimate of the level shown is there (at most 120 s).
fn wait_for_estimate(h: &mut Harness<'_, EditorApp>) {
    for _ in 0..12_000 {
        if h.state().edit().difficulty().estimate().current().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.step();
    }
    h.run();
    if h.state().edit().difficulty().estimate().current().is_none() {
        let labels: Vec<String> =
            h.query_all_by_label_contains("").filter_map(|n| n.accesskit_node().label()).take(200).collect();
        panic!(
            "no estimate within 120 s: running {}; {labels:?}",
            h.state().edit().difficulty().estimate().running()
        );
    }
}

/// The figure and the reasons the panel shows, as `tessera difficulty` joins them.
fn shown(h: &Harness<'_, EditorApp>) -> (String, String) {
    let figure = h.get_by_label_contains("Estimate: ").value().unwrap_or_default();
    let figure = figure
        .strip_prefix("Estimate: ")
        .and_then(|f| f.strip_suffix(" (higher is harder)"))
        .unwrap_or_else(|| panic!("{figure}"))
        .to_string();
    let why: Vec<String> = h
        .query_all_by_label_contains("• ")
        .filter_map(|n| n.value())
        .filter_map(|v| v.strip_prefix("• ").map(str::to_string))
        .collect();
    (figure, why.join("; "))
}

/// The source of the game Edit holds.
fn source(h: &Harness<'_, EditorApp>) -> Arc<str> {
    match &h.state().edit().draft().settings {
        Level::PuzzleScript(l) => Arc::clone(&l.source),
        _ => panic!("a puzzlescript game"),
    }
}

#[test]
fn the_panel_shows_for_each_level_the_figure_and_reasons_tessera_difficulty_prints() {
    let (printed, _) = printed_report();
    let mut h = warehouse_in_edit();
    click(&mut h, "Difficulty");
    for p in &printed {
        if p.number != 1 {
            // Another level picked in the levels list: the panel's figures are of it.
            click(&mut h, &format!("Level {}", p.number));
        }
        wait_for_estimate(&mut h);
        let (figure, why) = shown(&h);
        assert_eq!(
            (figure.as_str(), why.as_str()),
            (p.figure.as_str(), p.why.as_str()),
            "level {}",
            p.number
        );
        assert!(h.query_by_label(STALE).is_none(), "nothing stale on level {}", p.number);
    }
    // The bots stay, under the estimate.
    assert!(h.query_by_label("Run bots").is_some());
    // Back on level 1: its estimate (kept) at once, not level 3's.
    click(&mut h, "Level 1");
    let e =
        h.state().edit().difficulty().estimate().current().expect("kept").as_ref().expect("rated").clone();
    assert_eq!(e.shown(), printed[0].figure);
}

#[test]
fn an_edit_makes_the_estimate_stale_and_it_is_rated_again_off_the_windows_thread() {
    let mut h = editor();
    let path = std::env::temp_dir().join(format!("tessera-editor-estimate-{}.json", std::process::id()));
    let rows = ["########", "#@ $  .#", "#      #", "########"];
    let level = Level::Sokoban(tessera_core::sokoban::SokobanLevel::from_rows(
        rows.iter().map(|r| r.to_string()).collect(),
    ));
    std::fs::write(&path, level.to_json()).expect("write");
    h.state_mut().open(&path);
    h.run();
    click(&mut h, "Edit");
    h.get_by_label("Difficulty").click();
    // The first frame of the panel starts the estimate and draws on: it says it is rating.
    h.step();
    assert!(h.query_by_label(RATING).is_some(), "no frame waits on the estimate");
    wait_for_estimate(&mut h);
    let before = shown(&h);
    // A second box and its goal painted: the level still plays; its estimate is stale until
    // rated again.
    h.state_mut().edit_mut().set_tool(tessera_editor::edit::Tool::Paint);
    h.state_mut().edit_mut().set_ink(Ink::Glyph('$'));
    h.run();
    paint(&mut h, Pos::new(3, 2));
    assert!(h.state_mut().edit_mut().problem().is_some(), "two boxes, one goal");
    h.state_mut().edit_mut().set_ink(Ink::Glyph('.'));
    h.run();
    // The goal's click: painted in the frame after it; the panel (drawn before the canvas)
    // sees the new level in the frame after that, starts rating it and draws on.
    let at = h.state().edit().cell_centre(Pos::new(5, 2)).expect("the canvas was drawn");
    h.hover_at(at);
    h.run();
    press(&mut h, at);
    h.step();
    h.step();
    assert!(h.state_mut().edit_mut().problem().is_none(), "it plays");
    assert!(h.query_by_label(STALE).is_some(), "the last estimate is shown as another level's");
    assert!(h.query_by_label(RATING).is_some());
    wait_for_estimate(&mut h);
    let after = shown(&h);
    assert_ne!(after, before, "two boxes rate otherwise");
    assert!(h.query_by_label(STALE).is_none());
    // Undone: the first level's estimate is back at once (it belongs to that level).
    h.state_mut().edit_mut().undo();
    h.state_mut().edit_mut().undo();
    h.run();
    assert_eq!(shown(&h), before);
    std::fs::remove_file(&path).ok();
}

/// Clicks Edit's canvas cell `p`.
fn paint(h: &mut Harness<'_, EditorApp>, p: Pos) {
    let at = h.state().edit().cell_centre(p).expect("the canvas was drawn");
    h.hover_at(at);
    h.run();
    press(h, at);
    h.run();
}

/// A click of the primary button at `at` (pressed and released), for the next frame.
fn press(h: &mut Harness<'_, EditorApp>, at: egui::Pos2) {
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
    }
}

#[test]
fn the_levels_list_curve_rates_every_level_once_per_source_with_the_reports_breathers() {
    let (printed, marks) = printed_report();
    let started = tessera_editor::estimate::curves_started();
    let mut h = warehouse_in_edit();
    let src = source(&h);
    let count = printed.len();
    for _ in 0..12_000 {
        if tessera_editor::estimate::curve_for(&src, count, |c| c.finished()) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.step();
    }
    h.run();
    assert!(tessera_editor::estimate::curve_for(&src, count, |c| c.finished()), "rated within 120 s");
    assert_eq!(tessera_editor::estimate::curves_started(), started + 1, "one curve for the game");
    // Every level's figure is the report's, and so are its breather marks.
    let figures: Vec<String> = tessera_editor::estimate::curve_for(&src, count, |c| {
        c.points().iter().map(|p| p.as_ref().unwrap().as_ref().unwrap().shown()).collect()
    });
    assert_eq!(figures, printed.iter().map(|p| p.figure.clone()).collect::<Vec<_>>());
    let curve_marks: Vec<(usize, usize)> = tessera_editor::estimate::curve_for(&src, count, |c| c.marks())
        .iter()
        .map(|(i, j)| (i + 1, j + 1))
        .collect();
    assert_eq!(curve_marks, marks);
    // Hovering a breather's point names the level, its figure and the mark.
    let rect = h.get_by_label("Difficulty curve").rect();
    let (level, harder) = marks[0];
    let x = tessera_editor::estimate::curve_x(rect, count, level - 1);
    let at = egui::pos2(x, rect.center().y);
    h.hover_at(at);
    for _ in 0..30 {
        h.step();
    }
    let said = format!("Level {level}: {}", printed[level - 1].figure);
    if h.query_by_label_contains(&said).is_none() {
        let labels: Vec<String> =
            h.query_all_by_label_contains("").filter_map(|n| n.accesskit_node().label()).collect();
        panic!("{:?} {at:?} {labels:?}", h.get_by_label("Difficulty curve").rect());
    }
    let tip = h.get_by_label_contains(&said).value().unwrap_or_default();
    assert!(tip.contains(&format!("rates easier than level {harder}: a breather?")), "{tip}");
    // A click on it opens that level in Edit; the game's source is the same: no new curve.
    press(&mut h, at);
    h.run();
    let Level::PuzzleScript(l) = &h.state().edit().draft().settings else { panic!("puzzlescript") };
    assert_eq!(l.level, level - 1, "the clicked level is edited");
    click(&mut h, "Level 1");
    for _ in 0..20 {
        h.step();
    }
    assert_eq!(
        tessera_editor::estimate::curves_started(),
        started + 1,
        "switching levels rates nothing again"
    );
    // A rebuild (new source) rates the game again, once.
    let rebuilt = format!("{}\n(a comment)\n", src);
    h.state_mut().rebuilt(rebuilt);
    for _ in 0..20 {
        h.step();
    }
    assert_eq!(tessera_editor::estimate::curves_started(), started + 2, "the rebuild's curve");
}
