//! Debug mode: golden logs stepped through by keys, buttons, the slider and the step list, with
//! the board checked against the log at every stop; verify on a diverging log (in the window and
//! on a thread); broken logs; play from here; notes saved and read back.

use crate::common::{editor, fixtures};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use tessera_core::{AnyCommand, AnyState, Dir, Level, Rules};
use tessera_ecs::Mirror;
use tessera_editor::debug::{Debugger, VerifyStatus};
use tessera_editor::{EditorApp, Mode};
use tessera_replay::{Header, Log, LogWriter, TailPolicy};

/// Every `.tlog` under `dir`, recursively, sorted.
fn tlogs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("the fixtures folder reads") {
            let p = entry.expect("a folder entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "tlog") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn golden(name: &str) -> PathBuf {
    tlogs(&fixtures().join("logs"))
        .into_iter()
        .find(|p| p.file_name().is_some_and(|n| n == name))
        .unwrap_or_else(|| panic!("golden log {name}"))
}

fn debugger<'a>(h: &'a Harness<'_, EditorApp>) -> &'a Debugger {
    h.state().debug().debugger().expect("a log is open")
}

/// A unique path in the temp folder.
fn temp_path(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("tessera-debug-{}-{n}-{name}", std::process::id()))
}

/// The debugger shows step `s` exactly as the log has it: its state, and a mirror equal to one
/// built from that state.
#[track_caller]
fn assert_shows(h: &Harness<'_, EditorApp>, log: &Log, s: u64, what: &str) {
    let d = debugger(h);
    assert_eq!(d.step(), s, "{what}: the cursor");
    let expected = log.state_at(s).expect("the golden log has every state");
    assert_eq!(d.state(), Ok(&expected), "{what}: the state at step {s}");
    let mirror = d.mirror().expect("a board");
    assert!(*mirror == Mirror::from_state(&expected), "{what}: the board at step {s}");
    assert!(h.query_by_label(&format!("Step {s} / {}", log.steps())).is_some(), "{what}: the status line");
}

#[test]
fn every_golden_log_steps_by_keys_buttons_slider_and_rows() {
    let logs = tlogs(&fixtures().join("logs"));
    assert!(logs.len() >= 4, "golden logs found: {logs:?}");
    for path in logs {
        let name = path.display().to_string();
        let log = Log::open(&path).expect("a golden log opens");
        let n = log.steps();
        let mut h = editor();
        h.state_mut().open(&path);
        h.run();
        assert_eq!(h.state().error(), None, "{name}");
        assert_eq!(h.state().mode(), Mode::Debug, "{name}: a log opens in Debug");
        assert_shows(&h, &log, 0, &format!("{name}, opened"));
        if n < 6 {
            // A log of a few steps (one that pins a single step, as won_at_start's): End and
            // Home only.
            assert!(n >= 1, "{name}: a golden log has a step");
            h.key_press(Key::End);
            h.run();
            assert_shows(&h, &log, n, &format!("{name}, End"));
            h.key_press(Key::Home);
            h.run();
            assert_shows(&h, &log, 0, &format!("{name}, Home"));
            continue;
        }

        // Right arrow: animated steps forward.
        for s in 1..=3 {
            h.key_press(Key::ArrowRight);
            h.run();
            assert_shows(&h, &log, s, &format!("{name}, right arrow"));
        }
        // The step's touched cells are outlined.
        assert_eq!(debugger(&h).outlined_step(), Some(3), "{name}");
        // The buttons.
        h.get_by_label("Step back").click();
        h.run();
        assert_shows(&h, &log, 2, &format!("{name}, step back"));
        h.get_by_label("Step forward").click();
        h.run();
        assert_shows(&h, &log, 3, &format!("{name}, step forward"));
        h.key_press(Key::ArrowLeft);
        h.run();
        assert_shows(&h, &log, 2, &format!("{name}, left arrow"));
        // The slider: a long seek.
        let mid = n / 2 + 1;
        h.get_by_role(egui::accesskit::Role::Slider).set_value_accesskit(mid as f64);
        h.run();
        assert_shows(&h, &log, mid, &format!("{name}, slider"));
        // End, then a step back from there.
        h.key_press(Key::End);
        h.run();
        assert_shows(&h, &log, n, &format!("{name}, End"));
        h.key_press(Key::ArrowLeft);
        h.run();
        assert_shows(&h, &log, n - 1, &format!("{name}, back from the end"));
        // Home, then a click on a row of the step list.
        h.key_press(Key::Home);
        h.run();
        assert_shows(&h, &log, 0, &format!("{name}, Home"));
        h.get_by_label_contains(&format!("{:>7} ", 4)).click();
        h.run();
        assert_shows(&h, &log, 4, &format!("{name}, row 4 clicked"));
    }
}

/// Rows of the step list too long for the column are cut with "…" on screen, but each row
/// carries (as its label and its tooltip) the whole of its command, events and hash.
#[test]
fn step_rows_carry_the_whole_command_events_and_hash() {
    let path = golden("match3_locks_seed7.tlog");
    let log = Log::open(&path).expect("the golden log reads");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    let mut rec = tessera_replay::StepRecord::default();
    for s in 1..=5 {
        log.read_step(s, &mut rec).expect("the step decodes");
        let cmd = rec.command.as_ref().expect("a command").to_string();
        let events = tessera_editor::debug::events_summary(&rec.events);
        let head = format!("{s:>7}   {cmd}");
        let row = h.get_by_label_contains(&head);
        let label = egui_kittest::kittest::NodeT::accesskit_node(&row).label().unwrap_or_default();
        assert!(label.contains(&events), "row {s}: {label:?} has {events:?}");
        assert!(label.contains(&format!("{:016x}", rec.hash)), "row {s}: {label:?} has its hash");
    }
}

#[test]
fn a_long_log_scrolls_the_list_to_the_cursor() {
    // 12×12 slide with a fixed priority: a few hundred steps, more than the list shows at once.
    let (bytes, _) = slide_log(400, None);
    let log = Log::from_bytes(bytes.clone(), TailPolicy::Strict).expect("the log reads");
    let path = temp_path("long.tlog");
    std::fs::write(&path, &bytes).expect("the temp folder is writable");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    h.key_press(Key::End);
    h.run();
    assert_shows(&h, &log, 400, "End");
    let label = format!("{:>7} ", 400);
    let last = h.get_by_label_contains(&label);
    assert!(last.rect().max.y <= 800.0, "the last row is in view: {:?}", last.rect());
    last.click();
    h.run();
    assert_shows(&h, &log, 400, "the last row clicked");
    assert!(h.query_by_label_contains(&format!("{:>7} ", 1)).is_none(), "the first rows are not built");
    std::fs::remove_file(&path).ok();
}

/// A 12×12 slide game of `steps` steps (a fixed move priority), recorded with keyframes every
/// 16 steps; step `wrong_hash_at` records a hash off by one (crcs stay valid). Returns the log's
/// bytes and the wrong hash.
fn slide_log(steps: usize, wrong_hash_at: Option<usize>) -> (Vec<u8>, u64) {
    let level = Level::Slide(tessera_core::slide::SlideLevel {
        width: Some(12),
        height: Some(12),
        ..Default::default()
    });
    let mut game = level.start(Some(1)).expect("the level starts");
    let header = Header::new(&level, 1, 16).expect("a header");
    let mut w = LogWriter::new(Vec::new(), &header, &game.state).expect("writes to memory");
    let order = [Dir::Down, Dir::Left, Dir::Right, Dir::Up]
        .map(|d| AnyCommand::Slide(tessera_core::slide::SlideCommand::Slide(d)));
    let mut events = Vec::new();
    let mut wrong = 0;
    for step in 1..=steps {
        let cmd = order
            .iter()
            .find(|c| {
                let mut probe = game.state.clone();
                game.rules.apply(&mut probe, c, &mut Vec::new()).is_ok()
            })
            .expect("the game goes on")
            .clone();
        events.clear();
        game.rules.apply(&mut game.state, &cmd, &mut events).expect("legal");
        if wrong_hash_at == Some(step) {
            wrong = game.state.hash().wrapping_add(1);
            w.step(&cmd, &events, wrong).expect("writes");
        } else {
            w.record(&cmd, &events, &game.state).expect("writes");
        }
    }
    (w.into_inner(), wrong)
}

#[test]
fn verify_finds_the_divergence_jumps_there_and_shows_both_sides() {
    let (bytes, wrong) = slide_log(8, Some(3));
    let path = temp_path("diverges.tlog");
    std::fs::write(&path, &bytes).expect("the temp folder is writable");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(debugger(&h).step(), 0);
    h.get_by_label("Verify").click();
    h.run();
    let d = debugger(&h);
    assert_eq!(d.step(), 3, "the view jumped to the divergence");
    let VerifyStatus::Done(Ok(report)) = d.verify_status() else {
        panic!("verify ran: {:?}", d.verify_status())
    };
    assert_eq!(report.divergence.as_ref().map(|d| d.step), Some(3));
    assert!(h.query_by_label("Diverges at step 3").is_some(), "the inspector names the step");
    assert!(h.query_by_label("diverges at step 3").is_some(), "the status line names the step");
    assert!(h.query_by_label("Recorded (the log)").is_some() && h.query_by_label("Today's rules").is_some());
    assert!(h.query_by_label(&format!("hash {wrong:016x}")).is_some(), "the recorded (wrong) hash shows");
    // The recorded hash is not the replayed state's: the state shows as an error, the board as
    // the step's events left it, nothing panics.
    assert!(d.state().is_err());
    assert!(d.mirror().is_some(), "the board follows the recorded events");
    assert!(h.query_all_by_label_contains("the log recorded").count() >= 1, "the hash mismatch is shown");
    // The next step is fine again.
    h.key_press(Key::ArrowRight);
    h.run();
    let log = Log::from_bytes(bytes, TailPolicy::Strict).expect("reads");
    assert_shows(&h, &log, 4, "after the divergence");
    std::fs::remove_file(&path).ok();
}

#[test]
fn verify_on_a_thread_keeps_the_window_live() {
    let (bytes, _) = slide_log(300, Some(250));
    let path = temp_path("bg.tlog");
    std::fs::write(&path, &bytes).expect("the temp folder is writable");
    let mut h = editor();
    h.state_mut().debug_mut().config_mut().background_verify_from = 0;
    h.state_mut().open(&path);
    h.run();
    h.get_by_label("Verify").click();
    h.step();
    let mut frames = 0;
    while debugger(&h).verify_status() == &VerifyStatus::Running {
        assert!(frames < 2000, "verify finished within 20 s");
        // The window keeps drawing and takes input while verify runs.
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
        frames += 1;
    }
    h.run();
    assert_eq!(debugger(&h).step(), 250, "jumped to the divergence");
    assert!(h.query_by_label("Diverges at step 250").is_some());
    std::fs::remove_file(&path).ok();
}

#[test]
fn broken_logs_show_errors_and_never_panic() {
    let bad = fixtures().join("bad");
    let mut refused = 0;
    for path in tlogs(&bad) {
        let name = path.display().to_string();
        let mut h = editor();
        h.state_mut().open(&path);
        h.run();
        match Log::open(&path) {
            Err(e) => {
                refused += 1;
                let shown = h.state().error().unwrap_or_else(|| panic!("{name}: an error shows"));
                assert!(shown.contains(&e.to_string()), "{name}: {shown}");
                assert!(h.query_by_label_contains(shown).is_some(), "{name}: the banner");
            }
            Ok(log) => {
                // It opens (a cut tail, or a step that only fails when read): walk all of it.
                assert_eq!(h.state().mode(), Mode::Debug, "{name}");
                for s in 0..=log.steps() {
                    h.key_press(Key::ArrowRight);
                    h.run();
                    let d = debugger(&h);
                    assert_eq!(d.step(), (s + 1).min(log.steps()), "{name}");
                }
                h.key_press(Key::Home);
                h.run();
                h.key_press(Key::End);
                h.run();
                h.get_by_label("Verify").click();
                h.run();
            }
        }
    }
    assert!(refused >= 8, "the catalogue's logs that do not open: {refused}");

    // The log whose last step does not decode: the error is where the row and the board are.
    let mut h = editor();
    h.state_mut().open(&bad.join("undecodable_step.tlog"));
    h.run();
    assert_eq!(h.state().error(), None, "it opens: steps decode when read");
    h.key_press(Key::End);
    h.run();
    let d = debugger(&h);
    let Some(Err(e)) = d.record() else { panic!("the last step does not decode") };
    assert!(e.contains("undecodable"), "{e}");
    assert!(d.state().is_err());
    assert!(h.query_all_by_label_contains("undecodable").count() >= 2, "in the row and the inspector");
    assert!(h.query_by_label_contains("no board at step").is_none() || d.mirror().is_none());
    h.get_by_label("Verify").click();
    h.run();
    assert!(
        matches!(debugger(&h).verify_status(), VerifyStatus::Done(Err(e)) if e.contains("undecodable")),
        "verify reports the bad frame"
    );

    // The cut tail opens with its whole frames and says what it dropped.
    let mut h = editor();
    h.state_mut().open(&bad.join("truncated_tail.tlog"));
    h.run();
    assert_eq!(debugger(&h).dropped_bytes(), 68);
    assert!(h.query_by_label("68 bytes of a cut last frame dropped").is_some());
}

#[test]
fn play_from_here_branches_and_keeps_the_original_line() {
    let path = golden("classic_seed7.tlog");
    let log = Log::open(&path).expect("opens");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    for _ in 0..5 {
        h.get_by_label("Step forward").click();
        h.run();
    }
    h.get_by_label("Play from here").click();
    h.run();
    assert_eq!(h.state().mode(), Mode::Play);
    let history = h.state().session().history();
    assert_eq!(history.step(), 5);
    assert_eq!(history.len(), log.steps(), "the log's line is the line redo walks");
    assert_eq!(h.state().session().state(), &log.state_at(5).expect("step 5"));
    // A different move than the log's step 6 starts a branch.
    let next = history.command_at(6).cloned();
    let AnyState::Slide(s) = h.state().session().state().clone() else { panic!("slide") };
    let key = [
        (Key::ArrowUp, Dir::Up),
        (Key::ArrowDown, Dir::Down),
        (Key::ArrowLeft, Dir::Left),
        (Key::ArrowRight, Dir::Right),
    ]
    .into_iter()
    .find(|&(_, d)| {
        s.can_slide(d) && next != Some(AnyCommand::Slide(tessera_core::slide::SlideCommand::Slide(d)))
    })
    .map(|(k, _)| k)
    .expect("another move");
    h.key_press(key);
    h.run();
    let branches = h.state().session().history().branches();
    assert_eq!(branches.len(), 2, "the new line and the log's");
    assert!(branches.iter().any(|b| b.steps == log.steps() && !b.current), "the log's line is kept");
    assert_eq!(h.state().session().history().step(), 6);
    h.get_by_label("Switch to #1").click();
    h.run();
    assert_eq!(h.state().session().history().step(), log.steps());
    assert_eq!(h.state().session().state(), &log.state_at(log.steps()).expect("the last step"));
}

#[test]
fn a_note_is_added_saved_and_read_back() {
    let path = temp_path("noted.tlog");
    std::fs::copy(golden("stage_0001_seed5.tlog"), &path).expect("the temp folder is writable");
    let before = Log::open(&path).expect("opens").notes().len();
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    for _ in 0..4 {
        h.key_press(Key::ArrowRight);
        h.run();
    }
    h.get_by_label("New note").click();
    h.run();
    h.get_by_label("New note").type_text("the cascade looks wrong here");
    h.run();
    h.get_by_label("Add note").click();
    h.run();
    assert!(debugger(&h).unsaved());
    assert!(h.query_by_label("Note: the cascade looks wrong here").is_some(), "the inspector shows it");
    assert!(h.query_by_label_contains(&format!("{:>7} *", 4)).is_some(), "the row is marked");
    h.get_by_label("Save log").click();
    h.run();
    assert!(!debugger(&h).unsaved());
    assert_eq!(h.state().debug().message().map(|(e, _)| e), Some(false), "{:?}", h.state().debug().message());

    let reread = Log::open(&path).expect("the saved log opens");
    assert_eq!(reread.notes().len(), before + 1);
    assert!(reread.notes().iter().any(|n| n.step == 4 && n.text == "the cascade looks wrong here"));
    assert!(tessera_replay::verify(&reread).expect("verifies").ok(), "the note changes no step");

    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    assert!(h.query_by_label("Note: the cascade looks wrong here").is_none(), "not at step 0");
    h.get_by_label_contains(&format!("{:>7} *", 4)).click();
    h.run();
    assert_eq!(debugger(&h).step(), 4);
    assert!(h.query_by_label("Note: the cascade looks wrong here").is_some(), "reopened, the note is there");
    std::fs::remove_file(&path).ok();
}

/// Debug opens the game being played at the step Play shows (after an undo too), not at step 0.
#[test]
fn debug_opens_at_plays_current_step() {
    let mut h = editor();
    for key in [Key::ArrowUp, Key::ArrowLeft, Key::ArrowDown] {
        h.key_press(key);
        h.run();
    }
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.run();
    let at = h.state().session().history().step();
    assert!(at >= 1, "played some steps: {at}");
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    assert_eq!(debugger(&h).step(), at);
}

#[test]
fn an_in_memory_log_needs_a_path_to_save() {
    let mut h = editor();
    h.key_press(Key::ArrowUp);
    h.run();
    h.key_press(Key::ArrowLeft);
    h.run();
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    assert_eq!(debugger(&h).steps(), h.state().session().history().len());
    assert_eq!(debugger(&h).path(), None);
    h.get_by_label("Save log").click();
    h.run();
    assert!(matches!(h.state().debug().message(), Some((true, m)) if m.contains("give a path")));
    let path = temp_path("memory.tlog");
    h.get_by_label("Save to").click();
    h.run();
    h.get_by_label("Save to").type_text(&path.display().to_string());
    h.run();
    h.get_by_label("Save log").click();
    h.run();
    assert_eq!(h.state().debug().message().map(|(e, _)| e), Some(false));
    let log = Log::open(&path).expect("saved");
    assert_eq!(log.steps(), debugger(&h).steps());
    std::fs::remove_file(&path).ok();
}

/// Issue 28.13: Edit after opening a log shows the log's level; the toolbar's "Pin as
/// regression test…" is never clipped, in the default window.
#[test]
fn edit_after_a_log_shows_its_level_and_the_toolbar_fits() {
    let path = golden("match3_locks_seed7.tlog");
    let log = Log::open(&path).expect("opens");
    let mut h = editor();
    h.state_mut().open(&path);
    h.run();
    for width in [1280.0, 900.0] {
        h.set_size(egui::vec2(width, 800.0));
        h.run();
        let pin = h.get_by_label("Pin as regression test…").rect();
        assert!(pin.max.x <= width && pin.width() > 100.0, "{width}: the button shows whole: {pin:?}");
    }
    h.get_by_label("Edit").click();
    h.run();
    assert_eq!(h.state().mode(), tessera_editor::Mode::Edit);
    assert_eq!(h.state().edit().draft().to_level(), log.header().level, "the log's level");
}

/// A game of no steps yet: Debug's step slider is disabled (its thumb at the start). Back in
/// Debug after playing on, the line of play is shown as it is now (not as Debug first saw it),
/// and the slider is enabled.
#[test]
fn the_step_slider_waits_for_a_first_step() {
    use egui_kittest::kittest::NodeT;
    let mut h = editor();
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    let disabled = |h: &Harness<'_, EditorApp>| {
        h.get_all_by_label("Step").filter(|n| n.accesskit_node().is_disabled()).count()
    };
    assert!(disabled(&h) > 0, "the slider (and its value): nothing to seek");
    h.state_mut().set_mode(Mode::Play);
    h.run();
    for key in [Key::ArrowUp, Key::ArrowLeft, Key::ArrowDown, Key::ArrowRight] {
        h.key_press(key);
        h.run();
    }
    assert!(h.state().session().history().step() > 0, "played a step");
    h.state_mut().set_mode(Mode::Debug);
    h.run();
    assert_eq!(debugger(&h).steps(), h.state().session().history().step(), "the line as it is now");
    assert_eq!(disabled(&h), 0);
}

/// A player's "Report a problem" log (the web player writes it with
/// `History::write_log_noted`: the line of play up to the step on screen, and a note there)
/// opens in Debug at the step the player was on, its board that step's; the same log without
/// the note opens at step 0, as every other log does.
#[test]
fn a_players_report_opens_at_the_step_the_player_was_on() {
    use tessera_core::puzzlescript::{PuzzleScriptCommand as C, import_level};
    let source = std::fs::read_to_string(fixtures().join("games/chorus.txt")).expect("the fixture game");
    let (level, _) = import_level(&source, Some("chorus.txt"), 2).expect("level 2 imports");
    let level = level.expect("a playable level").level;
    let mut h = tessera_replay::History::new(level.start(Some(77)).expect("starts"));
    for c in [C::Down, C::Left, C::Up, C::Right, C::Down] {
        let _ = h.execute(&AnyCommand::PuzzleScript(c));
    }
    let _ = h.undo();
    let at = h.step();
    assert!(at >= 2, "some moves were taken: {at}");
    let noted = h.write_log_noted(Vec::new(), &level, 77, Some("level 2, step 4")).expect("the log");
    let path = temp_path("report.tlog");
    std::fs::write(&path, &noted).expect("the temp folder is writable");
    let log = Log::open(&path).expect("the report reads");
    let mut ed = editor();
    ed.state_mut().open(&path);
    ed.run();
    assert_eq!(ed.state().error(), None);
    assert_eq!(ed.state().mode(), Mode::Debug);
    assert_shows(&ed, &log, at, "a player's report");
    // The same line without the note: step 0.
    let plain = h.write_log(Vec::new(), &level, 77).expect("the log");
    let path2 = temp_path("plain.tlog");
    std::fs::write(&path2, &plain).expect("the temp folder is writable");
    ed.state_mut().open(&path2);
    ed.run();
    assert_eq!(debugger(&ed).step(), 0);
    std::fs::remove_file(&path).ok();
    std::fs::remove_file(&path2).ok();
}
