//! Save GIF in the editor: File → Save GIF… (the line of play), the Debug inspector's Save GIF
//! (the opened log), Save solution GIF… (Hint's solution from here) and Save GIF… beside Stop
//! (the solution Show the solution plays; in `puzzlescript.rs`), each decoded back with the
//! `gif` crate: a frame for the start and one a turn (PuzzleScript's `again` turns included,
//! counted from the log's own `Turn` events), the game's size. A failed save says why and leaves
//! nothing behind, and a file already there as it was.

use crate::common::{editor, fixtures};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::{Path, PathBuf};
use tessera_core::puzzlescript::PuzzleScriptEvent;
use tessera_core::{AnyEvent, AnyState};
use tessera_editor::EditorApp;
use tessera_replay::{Log, StepRecord};

/// A unique path in the temp folder.
pub fn temp_path(name: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("tessera-gif-{}-{n}-{name}", std::process::id()))
}

/// The GIF's frames and size.
pub fn frames(path: &Path) -> (usize, u16, u16) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut d = gif::DecodeOptions::new().read_info(file).expect("a GIF");
    let (w, h) = (d.width(), d.height());
    let mut n = 0;
    while d.read_next_frame().expect("a whole frame").is_some() {
        n += 1;
    }
    (n, w, h)
}

/// The GIF's first frame as RGBA, row by row.
pub fn first_frame(path: &Path) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut o = gif::DecodeOptions::new();
    o.set_color_output(gif::ColorOutput::RGBA);
    let mut d = o.read_info(file).expect("a GIF");
    let (w, h) = (d.width(), d.height());
    let f = d.read_next_frame().expect("a whole frame").expect("a frame");
    assert_eq!((f.left, f.top, f.width, f.height), (0, 0, w, h), "the first frame is whole");
    f.buffer.to_vec()
}

/// The turns of a log's steps: its PuzzleScript `Turn` events, or one a step.
fn turns(log: &Log) -> usize {
    let mut rec = StepRecord::default();
    (1..=log.steps())
        .map(|n| {
            log.read_step(n, &mut rec).expect("a step");
            let t = rec
                .events
                .iter()
                .filter(|e| matches!(e, AnyEvent::PuzzleScript(PuzzleScriptEvent::Turn { .. })))
                .count();
            t.max(1)
        })
        .sum()
}

/// File → Save GIF…, the path typed, Save file.
fn file_save_gif(h: &mut Harness<'_, EditorApp>, path: &Path) {
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Save GIF…").click();
    h.run();
    h.get_by_label("Path").set_text_value_accesskit(&path.display().to_string());
    h.run();
    h.get_by_label("Save file").click();
    h.run();
}

#[test]
fn file_save_gif_writes_the_line_of_play() {
    let mut h = editor();
    for key in [Key::ArrowUp, Key::ArrowLeft, Key::ArrowDown] {
        h.key_press(key);
        h.run();
    }
    let steps = h.state().session().history().len() as usize;
    assert!(steps >= 2, "played: {steps}");
    let path = temp_path("line.gif");
    file_save_gif(&mut h, &path);
    assert_eq!(h.state().error(), None);
    let (n, w, hgt) = frames(&path);
    assert_eq!(n, steps + 1, "the start and a frame a step");
    // The 2048 board's text: 4×6 font pixels a character, 3 pixels each.
    assert_eq!((w % 12, hgt % 18), (0, 0));
    assert!(
        h.state().message().is_some_and(|m| m.contains(&format!("{n} frames"))),
        "{:?}",
        h.state().message()
    );
    std::fs::remove_file(&path).ok();
}

/// A folder that does not exist, and a target that is a folder: an error naming the path, and
/// nothing written (the folder stays a folder, no temporary file is left beside it).
#[test]
fn file_save_gif_reports_a_bad_target_and_writes_nothing() {
    let mut h = editor();
    h.key_press(Key::ArrowUp);
    h.run();
    let bad = temp_path("missing").join("x.gif");
    file_save_gif(&mut h, &bad);
    assert!(h.state().error().is_some_and(|e| e.contains("x.gif")), "{:?}", h.state().error());
    assert!(!bad.exists());
    let dir = temp_path("folder");
    let target = dir.join("taken.gif");
    std::fs::create_dir_all(&target).expect("a folder named like the GIF");
    file_save_gif(&mut h, &target);
    assert!(h.state().error().is_some_and(|e| e.contains("taken.gif")), "{:?}", h.state().error());
    assert!(target.is_dir(), "the folder is left as it was");
    let names: Vec<_> =
        std::fs::read_dir(&dir).expect("the folder").map(|e| e.expect("an entry").file_name()).collect();
    assert_eq!(names, ["taken.gif"], "nothing else written beside it");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn debug_save_gif_writes_the_logs_turns() {
    let golden = fixtures().join("logs/v2/warehouse_seed3.tlog");
    let log = Log::open(&golden).expect("the golden log");
    let mut h = editor();
    h.state_mut().open(&golden);
    h.run();
    let path = temp_path("debug.gif");
    h.get_by_label("Save to").set_text_value_accesskit(&path.display().to_string());
    h.run();
    h.get_by_label("Save GIF").click();
    h.run();
    assert_eq!(h.state().debug().message().map(|(e, _)| e), Some(false), "{:?}", h.state().debug().message());
    assert!(h.state().debug().message().is_some_and(|(_, m)| m.contains(&path.display().to_string())));
    let (n, w, hgt) = frames(&path);
    let turns = turns(&log);
    assert!(turns > log.steps() as usize, "the golden log has again turns");
    assert_eq!(n, 1 + turns);
    // 30 pixels a cell (5 sprite pixels, 6 pixels each).
    let AnyState::PuzzleScript(s) = log.state_at(0).expect("the start") else { panic!("a PuzzleScript log") };
    assert_eq!((w, hgt), (s.size().width * 30, s.size().height * 30));
    // The first frame is the log's start, as `tessera replay gif` draws it.
    let AnyState::PuzzleScript(start) = log.state_at(0).expect("the start") else { unreachable!() };
    let tessera_core::AnyRules::PuzzleScript(rules) = log.rules() else { unreachable!() };
    let picture = tessera_replay::gif::art::Art::new(rules.game()).picture(&start);
    let first = first_frame(&path);
    for (i, px) in first.chunks_exact(4).enumerate() {
        let (x, y) = (i % usize::from(w), i / usize::from(w));
        assert_eq!(px[..3], picture.get(x / 6, y / 6)[..], "pixel ({x}, {y})");
    }
    std::fs::remove_file(&path).ok();
}

/// Debug's Save GIF over a file already there that is not writable as a GIF (a folder): an
/// error in the inspector, the folder as it was; a GIF already there is replaced whole.
#[test]
fn debug_save_gif_reports_errors_and_replaces_whole() {
    let golden = fixtures().join("logs/v2/warehouse_seed3.tlog");
    let mut h = editor();
    h.state_mut().open(&golden);
    h.run();
    let dir = temp_path("debug-folder");
    std::fs::create_dir_all(dir.join("log.gif")).expect("a folder named like the GIF");
    let save = |h: &mut Harness<'_, EditorApp>, path: &Path| {
        h.get_by_label("Save to").set_text_value_accesskit(&path.display().to_string());
        h.run();
        h.get_by_label("Save GIF").click();
        h.run();
    };
    save(&mut h, &dir.join("log.gif"));
    let m = h.state().debug().message().map(|(e, m)| (e, m.to_string()));
    assert!(m.as_ref().is_some_and(|(e, m)| *e && m.contains("log.gif")), "{m:?}");
    assert!(dir.join("log.gif").is_dir());
    let old = dir.join("old.gif");
    std::fs::write(&old, b"not a gif yet").expect("a file");
    save(&mut h, &old);
    assert_eq!(h.state().debug().message().map(|(e, _)| e), Some(false), "{:?}", h.state().debug().message());
    assert!(frames(&old).0 > 1, "the whole GIF replaced the file");
    std::fs::remove_dir_all(&dir).ok();
}
