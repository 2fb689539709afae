//! `tessera replay gif` and `tessera solve --gif`: the GIF decoded back (the `gif` crate's
//! decoder, frames composited as a viewer shows them) has a frame for the start and one for
//! every turn of the log (PuzzleScript's `again` turns included, counted from the log's own
//! `Turn` events), the game's size and its palette's colours at known cells; bad logs, paths
//! and options are refused with exit 2 and nothing written.

use crate::{scratch, stderr, tessera, workspace};
use std::path::Path;
use tessera_core::{Level, Rules};
use tessera_replay::{Header, LogWriter};

/// The fixture game: 5×5 sprites, a `late … again` rule, level 1 is `#.P*.O#` in a 7×5 room.
const GAME: &str = "fixtures/games/warehouse.txt";

/// A decoded GIF: each frame as a viewer shows it (RGB), and each frame's delay.
struct Decoded {
    width: usize,
    height: usize,
    frames: Vec<Vec<[u8; 3]>>,
    delays: Vec<u16>,
}

impl Decoded {
    /// The colour of pixel (`x`, `y`) of frame `f`.
    fn at(&self, f: usize, x: usize, y: usize) -> [u8; 3] {
        self.frames[f][y * self.width + x]
    }
}

fn decode(path: &Path) -> Decoded {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut d = options.read_info(std::fs::File::open(path).expect("the GIF exists")).expect("a GIF");
    let (width, height) = (usize::from(d.width()), usize::from(d.height()));
    let global = d.global_palette().map(<[u8]>::to_vec);
    let mut canvas = vec![[0u8; 3]; width * height];
    let (mut frames, mut delays) = (Vec::new(), Vec::new());
    while let Some(f) = d.read_next_frame().expect("a whole frame") {
        let palette = f.palette.clone().or_else(|| global.clone()).expect("a colour table");
        let (l, t, w) = (usize::from(f.left), usize::from(f.top), usize::from(f.width));
        for (i, &p) in f.buffer.iter().enumerate() {
            let (x, y) = (l + i % w, t + i / w);
            let p = usize::from(p) * 3;
            canvas[y * width + x] = [palette[p], palette[p + 1], palette[p + 2]];
        }
        assert_eq!(f.dispose, gif::DisposalMethod::Keep, "frames build on the one before");
        frames.push(canvas.clone());
        delays.push(f.delay);
    }
    Decoded { width, height, frames, delays }
}

fn rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// The top-left pixel of sprite pixel (`px`, `py`) of cell (`cx`, `cy`), at `scale`.
fn pixel(cx: usize, cy: usize, px: usize, py: usize, scale: usize) -> (usize, usize) {
    ((cx * 5 + px) * scale, (cy * 5 + py) * scale)
}

/// The log's steps as exported (one JSON object a step).
fn steps(log: &Path) -> Vec<serde_json::Value> {
    let out = tessera(&["replay", "export", log.to_str().unwrap(), "--json"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v.get("command").is_some())
        .collect()
}

/// Records `script` on level 1 of the fixture game.
fn record(dir: &Path, script: &str) -> std::path::PathBuf {
    let log = dir.join("play.tlog");
    let out = tessera(
        &["play", GAME, "--number", "1", "--commands", "-", "--record", log.to_str().unwrap(), "--quiet"],
        script,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    log
}

#[test]
fn a_frame_a_turn_again_turns_included_in_the_games_colours() {
    let dir = scratch("gif-turns");
    let log = record(&dir, "action\naction\nright\nright\n");
    let out_path = dir.join("play.gif");
    let out = tessera(
        &["replay", "gif", log.to_str().unwrap(), "--out", out_path.to_str().unwrap(), "--scale", "4"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let gif = decode(&out_path);
    // One frame for the start and one for each turn the log's steps ran.
    let steps = steps(&log);
    let turns: usize = steps.iter().map(|s| s.to_string().matches("\"Turn\"").count()).sum();
    assert!(turns > steps.len(), "the action key's spark queues an again turn: {turns} turns");
    assert_eq!(gif.frames.len(), 1 + turns);
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("{} frames, 140×100 pixels", 1 + turns)));
    // The level is 7×5 cells of 5×5 sprite pixels, 4 pixels each.
    assert_eq!((gif.width, gif.height), (7 * 5 * 4, 5 * 5 * 4));
    // Walls (`00010` in #6b4f3a #4a3626) round the room in every frame.
    for f in 0..gif.frames.len() {
        let (x, y) = pixel(0, 0, 0, 0, 4);
        assert_eq!(gif.at(f, x, y), rgb("#6b4f3a"), "frame {f}");
        let (x, y) = pixel(6, 4, 3, 0, 4);
        assert_eq!(gif.at(f, x, y), rgb("#4a3626"), "frame {f}");
    }
    // The player (`.000.` in #f5e6c8 over the floor `11111` in #23233a) starts at (2, 2) and
    // ends at (4, 2), its crate (#b7791f) on the target at (5, 2).
    let last = gif.frames.len() - 1;
    let (x, y) = pixel(2, 2, 1, 0, 4);
    assert_eq!(gif.at(0, x, y), rgb("#f5e6c8"));
    assert_eq!(gif.at(last, x, y), rgb("#23233a"));
    let (x, y) = pixel(4, 2, 1, 0, 4);
    assert_eq!(gif.at(last, x, y), rgb("#f5e6c8"));
    let (x, y) = pixel(5, 2, 0, 0, 4);
    assert_eq!(gif.at(last, x, y), rgb("#b7791f"));
    // Inside the crate's frame, the target under it (`.000.` in #d4a017) shows.
    let (x, y) = pixel(5, 2, 1, 1, 4);
    assert_eq!(gif.at(last, x, y), rgb("#d4a017"));
    // The first action's turn leaves a Fade (its centre pixel #975a16) where the log says; the
    // again turn after it takes it away: frames 1 and 2.
    let cell = steps[0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|e| e.get("Cell"))
        .and_then(|c| c.get("at").cloned())
        .expect("the spark's cell");
    let (cx, cy) = (cell["x"].as_u64().unwrap() as usize, cell["y"].as_u64().unwrap() as usize);
    let (x, y) = pixel(cx, cy, 2, 2, 4);
    assert_eq!(gif.at(1, x, y), rgb("#975a16"), "the fade after the action's turn");
    assert_eq!(gif.at(0, x, y), gif.at(2, x, y), "the again turn clears it");
    assert_ne!(gif.at(2, x, y), rgb("#975a16"));
    // Timing: 150 ms (the game's key_repeat_interval and again_interval), the last frame held 1 s.
    assert!(gif.delays[..last].iter().all(|&d| d == 15), "{:?}", gif.delays);
    assert_eq!(gif.delays[last], 100);
}

#[test]
fn delay_and_hold_time_the_key_presses_not_the_again_turns() {
    let dir = scratch("gif-delay");
    let log = record(&dir, "action\nright\n");
    let out_path = dir.join("slow.gif");
    let out = tessera(
        &[
            "replay",
            "gif",
            log.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
            "--delay",
            "400",
            "--hold",
            "2500",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let gif = decode(&out_path);
    // Start (shown until the action), the action's turn (until its again turn, 150 ms), the
    // again turn (until the push), the push (held).
    assert_eq!(gif.delays, [40, 15, 40, 250]);
    // The default scale: 6 pixels a sprite pixel.
    assert_eq!((gif.width, gif.height), (7 * 30, 5 * 30));
}

#[test]
fn other_rule_sets_get_a_frame_a_step_of_their_boards_text() {
    let dir = scratch("gif-text");
    for name in ["classic_seed7", "sokoban_seed0", "collapse_seed1"] {
        let log = workspace().join(format!("fixtures/logs/v2/{name}.tlog"));
        let out_path = dir.join(format!("{name}.gif"));
        let out = tessera(&["replay", "gif", log.to_str().unwrap(), "--out", out_path.to_str().unwrap()], "");
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let gif = decode(&out_path);
        assert_eq!(gif.frames.len(), steps(&log).len() + 1, "{name}");
        // Characters are 4×6 font pixels, 3 pixels each.
        assert_eq!((gif.width % 12, gif.height % 18), (0, 0), "{name}");
        // The board changes between the first frame and the last.
        assert_ne!(gif.frames[0], gif.frames[gif.frames.len() - 1], "{name}");
        assert!(gif.delays[..gif.delays.len() - 1].iter().all(|&d| d == 30), "{name}: 300 ms a step");
    }
}

#[test]
fn solve_gif_draws_the_solution() {
    let dir = scratch("gif-solve");
    let out_path = dir.join("solution.gif");
    let out =
        tessera(&["solve", GAME, "--number", "1", "--gif", out_path.to_str().unwrap(), "--scale", "2"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let solution = String::from_utf8_lossy(&out.stdout).lines().count();
    assert!(stderr(&out).contains("solution.gif"), "{}", stderr(&out));
    let gif = decode(&out_path);
    assert_eq!(gif.frames.len(), solution + 1, "pushes queue no again turn");
    let last = gif.frames.len() - 1;
    let (x, y) = pixel(5, 2, 0, 0, 2);
    assert_eq!(gif.at(last, x, y), rgb("#b7791f"), "the crate on its target");
    // Sokoban's solver too.
    let out_path = dir.join("sokoban.gif");
    let out = tessera(&["solve", "fixtures/levels/sokoban.json", "--gif", out_path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let solution = String::from_utf8_lossy(&out.stdout).lines().count();
    assert_eq!(decode(&out_path).frames.len(), solution + 1);
}

#[test]
fn bad_logs_paths_and_options_write_nothing() {
    let dir = scratch("gif-bad");
    let out_path = dir.join("out.gif");
    let o = out_path.to_str().unwrap();
    std::fs::write(&out_path, b"kept").unwrap();
    let kept = || assert_eq!(std::fs::read(&out_path).unwrap(), b"kept", "the old file is untouched");
    // Not a log; no such log; a damaged one.
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a log").unwrap();
    for (log, says) in [
        (text.to_str().unwrap().to_string(), "notes.txt"),
        ("no/such.tlog".to_string(), "no/such.tlog"),
        (workspace().join("fixtures/bad/flipped_byte.tlog").display().to_string(), "crc mismatch"),
    ] {
        let out = tessera(&["replay", "gif", &log, "--out", o], "");
        assert_eq!(out.status.code(), Some(2), "{log}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{log}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
        kept();
    }
    // Forged events (valid crcs): the step and event are named.
    let level = Level::classic();
    let mut g = level.start(Some(5)).unwrap();
    let mut w = LogWriter::new(Vec::new(), &Header::new(&level, 5, 256).unwrap(), &g.state).unwrap();
    let mut events = Vec::new();
    for i in 1..=3 {
        let cmd = g.rules.legal_commands(&g.state)[0].clone();
        events.clear();
        g.rules.apply(&mut g.state, &cmd, &mut events).unwrap();
        let hash = if i == 2 { g.state.hash() ^ 1 } else { g.state.hash() };
        w.step(&cmd, &events, hash).unwrap();
    }
    let forged = dir.join("forged.tlog");
    std::fs::write(&forged, w.into_inner()).unwrap();
    let out = tessera(&["replay", "gif", forged.to_str().unwrap(), "--out", o], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("step 2") && stderr(&out).contains("state hash"), "{}", stderr(&out));
    kept();
    // Targets that cannot be written: a folder, a missing folder; bad options.
    let log = workspace().join("fixtures/logs/v2/classic_seed7.tlog");
    let log = log.to_str().unwrap();
    let out = tessera(&["replay", "gif", log, "--out", dir.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("a folder"), "{}", stderr(&out));
    let missing = dir.join("no/such/dir/x.gif");
    let out = tessera(&["replay", "gif", log, "--out", missing.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!missing.exists());
    for bad in [["--scale", "0"], ["--scale", "33"], ["--delay", "700000"], ["--hold", "-1"]] {
        let out = tessera(&["replay", "gif", log, "--out", o, bad[0], bad[1]], "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        kept();
    }
    // Too large a picture: a 2048 board's text at scale 32 is within limits, so a big map.
    let big = workspace().join("fixtures/logs/v2/skirmish_seed3.tlog");
    let out = tessera(&["replay", "gif", big.to_str().unwrap(), "--out", o, "--scale", "32"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("smaller --scale"), "{}", stderr(&out));
    kept();
    // No temporary file is left beside the target.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
