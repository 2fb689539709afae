//! Issue 21 in the Debug view: the filter box (on a thread, with counts and Next / Previous
//! keys), cell history (Alt+click and the cell's menu), bookmarks from the log's notes and "Pin
//! as regression test…". Expected steps come from independent oracles: the events' JSON form
//! and the mirror's touched cells.

use crate::common::{editor, fixtures};
use egui::{Key, Modifiers, PointerButton};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tessera_core::Pos;
use tessera_editor::EditorApp;
use tessera_editor::debug::Debugger;
use tessera_replay::{Log, StepRecord};

fn golden(name: &str) -> PathBuf {
    fixtures().join("logs").join("v2").join(name)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-find-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("the temp folder is writable");
    d
}

fn opened(path: &Path) -> Harness<'static, EditorApp> {
    let mut h = editor();
    h.state_mut().open(path);
    h.run();
    assert_eq!(h.state().error(), None);
    h
}

fn step(h: &Harness<'_, EditorApp>) -> u64 {
    h.state().debug().debugger().expect("a log is open").step()
}

/// Runs frames until no scan is under way (the window draws meanwhile).
fn settle(h: &mut Harness<'_, EditorApp>) {
    let start = Instant::now();
    loop {
        h.run();
        if !h.state().debug().scanning() {
            h.run();
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "the scan never ended");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The steps of `log` having an event `kind` whose `field` is at least `min`, by the JSON form.
fn oracle_events(log: &Log, kind: &str, field: &str, min: i64) -> Vec<u64> {
    let mut rec = StepRecord::default();
    (1..=log.steps())
        .filter(|&s| {
            log.read_step(s, &mut rec).expect("decodes");
            rec.events.iter().any(|e| {
                e.to_json()
                    .get(kind)
                    .and_then(|v| v.get(field))
                    .and_then(serde_json::Value::as_i64)
                    .is_some_and(|v| v >= min)
            })
        })
        .collect()
}

#[test]
fn the_filter_finds_steps_by_event_and_command_and_walks_them_by_keys() {
    let path = golden("match3_locks_seed7.tlog");
    let log = Log::open(&path).expect("opens");
    let expected = oracle_events(&log, "Matched", "cascade", 2);
    assert!(expected.len() >= 2, "the golden log has cascades: {expected:?}");
    let mut h = opened(&path);
    h.get_by_label("Filter").click();
    h.run();
    h.get_by_label("Filter").type_text("event:Matched.cascade>=2");
    h.run();
    h.get_by_label("Find").click();
    settle(&mut h);
    assert_eq!(h.state().debug().filter_results(), Some(Ok(&expected[..])));
    let count = format!("{} of {} steps match 'event:Matched.cascade>=2'", expected.len(), log.steps());
    assert!(h.query_by_label(&count).is_some(), "the count shows: {count}");
    // Find goes to the first result (issue 28.11); F3 walks forward (wrapping), Shift+F3 back.
    assert_eq!(step(&h), expected[0]);
    h.key_press(Key::F3);
    h.run();
    assert_eq!(step(&h), expected[1]);
    h.key_press_modifiers(Modifiers::SHIFT, Key::F3);
    h.run();
    assert_eq!(step(&h), expected[0]);
    h.key_press_modifiers(Modifiers::SHIFT, Key::F3);
    h.run();
    assert_eq!(step(&h), *expected.last().unwrap(), "wraps to the last");
    // A result in the list is clicked.
    h.get_by_label(&format!("result: step {}", expected[1])).click();
    h.run();
    assert_eq!(step(&h), expected[1]);

    // Command text: words, all of which the command must contain ("cmd:" is optional).
    let mut rec = StepRecord::default();
    let by_text: Vec<u64> = (1..=log.steps())
        .filter(|&s| {
            log.read_step(s, &mut rec).unwrap();
            let t = rec.command.as_ref().unwrap().to_string();
            t.contains("swap") && t.contains('4')
        })
        .collect();
    assert!(!by_text.is_empty() && by_text.len() < log.steps() as usize, "{by_text:?}");
    h.state_mut().debug_mut().set_filter("cmd:swap swap 4");
    settle(&mut h);
    assert_eq!(h.state().debug().filter_results(), Some(Ok(&by_text[..])));

    // Score: steps that gained at least 100 points, by the states.
    let gained: Vec<u64> = (1..=log.steps())
        .filter(|&s| {
            let a = log.state_at(s - 1).unwrap().score().unwrap_or(0);
            let b = log.state_at(s).unwrap().score().unwrap_or(0);
            b >= a + 100
        })
        .collect();
    h.state_mut().debug_mut().set_filter("score>=100");
    settle(&mut h);
    assert_eq!(h.state().debug().filter_results(), Some(Ok(&gained[..])));

    // A bad query is an error in the panel, not a panic.
    h.state_mut().debug_mut().set_filter("cell:1");
    settle(&mut h);
    assert!(matches!(h.state().debug().filter_results(), Some(Err(e)) if e.contains("cell:1")));
}

/// The steps whose events touched `cell`, by the mirror (the debugger's outlined cells).
fn oracle_cell(path: &Path, cell: Pos) -> Vec<u64> {
    let mut d = Debugger::new(Log::open(path).expect("opens"), None);
    (1..=d.steps())
        .filter(|&s| {
            d.jump(s);
            d.mirror().expect("a board").touched().contains(&cell)
        })
        .collect()
}

fn board_click(h: &mut Harness<'_, EditorApp>, cell: Pos, button: PointerButton, modifiers: Modifiers) {
    let at = h.state().debug().board().cell_centre(cell).expect("the board was drawn");
    h.hover_at(at);
    h.run();
    h.event(egui::Event::PointerButton { pos: at, button, pressed: true, modifiers });
    h.event(egui::Event::PointerButton { pos: at, button, pressed: false, modifiers });
    h.run();
}

/// The cells the mirror says `path`'s steps touched, most often touched first (ties: row-major).
fn busiest_cells(path: &Path) -> Vec<Pos> {
    let mut d = Debugger::new(Log::open(path).expect("opens"), None);
    let mut counts = std::collections::BTreeMap::new();
    for s in 1..=d.steps() {
        d.jump(s);
        for p in d.mirror().expect("a board").touched() {
            *counts.entry((p.y, p.x)).or_insert(0u32) += 1;
        }
    }
    let mut cells: Vec<_> = counts.into_iter().collect();
    cells.sort_by_key(|&(k, n)| (std::cmp::Reverse(n), k));
    cells.into_iter().map(|((y, x), _)| Pos::new(x, y)).collect()
}

#[test]
fn alt_click_walks_a_cells_history_back_and_the_menu_lists_it() {
    let path = golden("match3_locks_seed7.tlog");
    let busiest = busiest_cells(&path);
    let cell = busiest[0];
    let expected = oracle_cell(&path, cell);
    assert!(expected.len() >= 2, "the cell changed more than once: {expected:?}");
    let mut h = opened(&path);
    h.key_press(Key::End);
    h.run();
    let end = step(&h);
    board_click(&mut h, cell, PointerButton::Primary, Modifiers::ALT);
    settle(&mut h);
    let at_or_before: Vec<u64> = expected.iter().copied().filter(|&s| s <= end).collect();
    let last = *at_or_before.last().unwrap();
    assert_eq!(step(&h), last, "the last step at or before {end} that changed the cell");
    assert_eq!(h.state().debug().cell_history(), Some((cell, Some(&expected[..]))));
    // Again: further back.
    board_click(&mut h, cell, PointerButton::Primary, Modifiers::ALT);
    settle(&mut h);
    assert_eq!(step(&h), at_or_before[at_or_before.len() - 2]);
    // A plain click does nothing.
    let here = step(&h);
    board_click(&mut h, cell, PointerButton::Primary, Modifiers::NONE);
    assert_eq!(step(&h), here);

    // The cell's menu on another cell: its history as a list, each entry a jump.
    let other = busiest[busiest.len() / 2];
    let expected_other = oracle_cell(&path, other);
    board_click(&mut h, other, PointerButton::Secondary, Modifiers::NONE);
    h.get_by_label("Cell history").click();
    settle(&mut h);
    assert_eq!(h.state().debug().cell_history(), Some((other, Some(&expected_other[..]))));
    let label = format!("{} steps changed this cell", expected_other.len());
    assert!(h.query_by_label(&label).is_some(), "{label}");
    if let Some(&first) = expected_other.first() {
        h.get_by_label(&format!("touched: step {first}")).click();
        h.run();
        assert_eq!(step(&h), first);
    }
}

#[test]
fn notes_are_bookmarks_in_a_list_and_a_click_jumps() {
    let dir = temp_dir("bookmarks");
    let path = dir.join("noted.tlog");
    let log = Log::open(golden("stage_0001_seed5.tlog")).expect("opens");
    let bytes = log.with_note(4, "cascade looks wrong").expect("a note");
    let log = tessera_replay::Log::from_bytes(bytes, tessera_replay::TailPolicy::Strict).expect("opens");
    let bytes = log.with_note(2, "start of the bug").expect("a note");
    std::fs::write(&path, bytes).expect("writes");
    let mut h = opened(&path);
    assert!(h.query_by_label("Bookmarks (2)").is_some());
    assert!(h.query_by_label("Timeline").is_some());
    h.get_by_label("bookmark: step 4: cascade looks wrong").click();
    h.run();
    assert_eq!(step(&h), 4);
    h.get_by_label("bookmark: step 2: start of the bug").click();
    h.run();
    assert_eq!(step(&h), 2);
    // The timeline: a click on the mark of step 4 goes there.
    let steps = log.steps() as f32;
    let rect = h.get_by_label("Timeline").rect();
    let x_of = |s: u64| rect.left() + 4.0 + (rect.width() - 8.0) * (s as f32 / steps);
    let click = |h: &mut Harness<'_, EditorApp>, x: f32| {
        let at = egui::pos2(x, rect.center().y);
        h.hover_at(at);
        h.run();
        for pressed in [true, false] {
            h.event(egui::Event::PointerButton {
                pos: at,
                button: PointerButton::Primary,
                pressed,
                modifiers: Modifiers::NONE,
            });
        }
        h.run();
    };
    click(&mut h, x_of(4) + 1.0);
    assert_eq!(step(&h), 4);
    // Issue 28.11: a click away from the marks seeks to the step under the pointer.
    click(&mut h, x_of(log.steps()));
    assert_eq!(step(&h), log.steps(), "the end of the timeline is the last step");
    let middle = log.steps() * 3 / 4;
    click(&mut h, x_of(middle));
    assert_eq!(step(&h), middle);
}

#[test]
fn pin_as_regression_test_writes_a_log_that_checks() {
    let dir = temp_dir("pin");
    let into = dir.join("regressions");
    let mut h = opened(&golden("collapse_seed1.tlog"));
    h.get_by_label("Pin as regression test…").click();
    h.run();
    h.get_by_label("Folder").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("Folder").type_text(&into.display().to_string());
    h.get_by_label("Guards").click();
    h.run();
    h.get_by_label("Guards").type_text("taps stay legal");
    h.run();
    h.get_by_label("Pin").click();
    h.run();
    assert_eq!(h.state().debug().message().map(|(e, _)| e), Some(false), "{:?}", h.state().debug().message());
    let results = tessera_replay::check_dir(&into, 1).expect("the folder lists");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].name, "collapse_seed1");
    assert!(results[0].passed(), "{:?}", results[0].outcome);
    let side = std::fs::read_to_string(into.join("collapse_seed1.json")).expect("a sidecar");
    assert!(side.contains("taps stay legal"), "{side}");
    // Again: it never overwrites; the error is in the window.
    h.get_by_label("Pin as regression test…").click();
    h.run();
    h.get_by_label("Folder").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("Folder").type_text(&into.display().to_string());
    h.run();
    h.get_by_label("Pin").click();
    h.run();
    assert!(matches!(h.state().debug().message(), Some((true, m)) if m.contains("already exists")));
}

/// A long log pins on a thread (here every log: the threshold set to 0): the form shows a
/// spinner with Pin disabled while the copy verifies, the window keeps drawing, and the result
/// lands in the message.
#[test]
fn pinning_a_long_log_verifies_on_a_thread() {
    let dir = temp_dir("pin-thread");
    let into = dir.join("regressions");
    let mut h = opened(&golden("skirmish_seed3.tlog"));
    h.state_mut().debug_mut().config_mut().background_verify_from = 0;
    h.get_by_label("Pin as regression test…").click();
    h.run();
    h.get_by_label("Folder").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("Folder").type_text(&into.display().to_string());
    h.run();
    h.get_by_label("Pin").click();
    h.step();
    let mut frames = 0;
    while h.state().debug().pinning() {
        assert!(frames < 2_000, "the pin thread finishes");
        std::thread::sleep(std::time::Duration::from_millis(5));
        h.step();
        frames += 1;
    }
    assert!(frames >= 1, "the pin ran on a thread, the window drawing meanwhile");
    h.run();
    assert_eq!(h.state().debug().message().map(|(e, _)| e), Some(false), "{:?}", h.state().debug().message());
    assert!(h.query_by_label("Guards").is_none(), "the form closes when the pin succeeds");
    let results = tessera_replay::check_dir(&into, 1).expect("the folder lists");
    assert_eq!(results.len(), 1);
    assert!(results[0].passed(), "{:?}", results[0].outcome);
}

/// Issue 28.11: an unknown event kind or an off-board cell is named at once (no scan); the step
/// list can show only the matches; the inspector says why the shown step matched.
#[test]
fn find_names_bad_terms_at_once_lists_only_matches_and_says_why() {
    let path = golden("match3_locks_seed7.tlog");
    let log = Log::open(&path).expect("opens");
    let mut h = opened(&path);
    h.state_mut().debug_mut().set_filter("event:Matchd");
    assert!(!h.state().debug().scanning(), "no scan for a kind match3 does not have");
    let err = h.state().debug().filter_results().and_then(Result::err).unwrap_or_default().to_string();
    assert!(err.contains("match3 has no event Matchd") && err.contains("Matched"), "{err}");
    h.run();
    assert!(h.query_by_label_contains("match3 has no event Matchd").is_some());
    h.state_mut().debug_mut().set_filter("cell:40,2");
    assert!(!h.state().debug().scanning(), "no scan for a cell off the board");
    let err = h.state().debug().filter_results().and_then(Result::err).unwrap_or_default().to_string();
    assert!(err.contains("off the 9×9 board"), "{err}");

    let expected = oracle_events(&log, "Matched", "cascade", 2);
    h.state_mut().debug_mut().set_filter("event:Matched.cascade>=2");
    settle(&mut h);
    assert_eq!(step(&h), expected[0], "Find goes to the first result");
    let why = h.state().debug().why_matched().expect("the shown step is a result");
    assert!(
        why.iter().any(|w| w.starts_with("event:Matched.cascade>=2: ") && w.contains("cascade")),
        "{why:?}"
    );
    assert!(h.query_by_label_contains("Matches 'event:Matched.cascade>=2':").is_some());
    // Only matches: the step list's rows are the results.
    let not_a_result = (1..=log.steps()).find(|s| !expected.contains(s)).unwrap();
    let row = |s: u64| format!("{s:>7}   ");
    assert!(h.query_by_label_contains(&row(not_a_result)).is_some() || not_a_result > 20);
    h.get_by_label("Only matches").click();
    h.run();
    h.run();
    assert!(h.query_by_label_contains(&row(not_a_result)).is_none(), "step {not_a_result} is not a match");
    for s in expected.iter().take(5) {
        assert!(h.query_by_label_contains(&row(*s)).is_some(), "match {s} listed");
    }
    h.get_by_label_contains(&row(expected[1])).click();
    h.run();
    assert_eq!(step(&h), expected[1]);
}

/// Issue 28.12: the cell history list opens at the current step (the last change at or before
/// it, marked), not at the log's first change.
#[test]
fn cell_history_opens_at_the_current_step() {
    let path = golden("classic_seed7.tlog");
    let cell = busiest_cells(&path)[0];
    let expected = oracle_cell(&path, cell);
    assert!(expected.len() >= 20, "a long history: {}", expected.len());
    let mut h = opened(&path);
    h.key_press(Key::End);
    h.run();
    let end = step(&h);
    board_click(&mut h, cell, PointerButton::Secondary, Modifiers::NONE);
    h.get_by_label("Cell history").click();
    settle(&mut h);
    h.run();
    let last = *expected.iter().rev().find(|&&s| s <= end).unwrap();
    assert!(h.query_by_label(&format!("touched: step {last}")).is_some(), "the current step's row is shown");
    assert!(
        h.query_by_label(&format!("touched: step {}", expected[0])).is_none(),
        "the list is scrolled away from the first change"
    );
}

/// A scan cut into runs side by side finds what one scan from the start finds, for every
/// kind of term (the score term starts each run from a keyframe's state).
#[test]
fn a_scan_on_several_threads_finds_what_one_scan_finds() {
    use tessera_core::slide::{SlideCommand, SlideLevel};
    use tessera_core::{Dir, Level, Rules};
    use tessera_replay::{DEFAULT_KEYFRAME_INTERVAL, Header, LogWriter};
    let level = Level::Slide(SlideLevel { width: Some(12), height: Some(12), ..SlideLevel::default() });
    let mut game = level.start(Some(3)).expect("starts");
    let header = Header::new(&level, 3, DEFAULT_KEYFRAME_INTERVAL).expect("a header");
    let mut w = LogWriter::new(Vec::new(), &header, &game.state).expect("writes");
    let order = [Dir::Down, Dir::Left, Dir::Right, Dir::Up]
        .map(|d| tessera_core::AnyCommand::Slide(SlideCommand::Slide(d)));
    let mut events = Vec::new();
    'steps: while w.steps() < 3 * tessera_editor::find::MIN_STEPS_PER_THREAD + 77 {
        for c in &order {
            events.clear();
            if game.rules.apply(&mut game.state, c, &mut events).is_ok() {
                w.record(c, &events, &game.state).expect("writes");
                continue 'steps;
            }
        }
        panic!("the game ended");
    }
    let log =
        tessera_replay::Log::from_bytes(w.into_inner(), tessera_replay::TailPolicy::Strict).expect("reads");
    for text in ["left", "event:Merged", "cell:5,5", "score>=64", "down cell:0,11"] {
        let q: tessera_editor::find::Query = text.parse().unwrap();
        let (p, c) = (std::sync::atomic::AtomicU64::new(0), std::sync::atomic::AtomicBool::new(false));
        let one = tessera_editor::find::run_on(&log, &q, 1, &p, &c).unwrap().unwrap();
        let many = tessera_editor::find::run_on(&log, &q, 4, &p, &c).unwrap().unwrap();
        assert!(!one.is_empty(), "{text}: something to find");
        assert_eq!(many, one, "{text}");
        assert_eq!(p.load(std::sync::atomic::Ordering::Relaxed), log.steps(), "{text}: progress at the end");
    }
}
