//! QA: verify, diff, export, the recorder on disk, repair.

use crate::common::{level, open, record, slide};
use tessera_core::{AnyCommand, Rules};
use tessera_replay::{
    Flush, Header, History, Log, LogWriter, Mismatch, Recorder, RecorderConfig, TailPolicy, atomic_write,
    diff, export_json, verify,
};

const PICKS: [usize; 16] = [1, 2, 1, 3, 0, 2, 1, 1, 2, 3, 0, 1, 2, 2, 3, 1];

/// The sample game rewritten with `tamper` applied to step `at`'s (command, events, hash).
fn tampered(at: u64, tamper: impl Fn(&mut AnyCommand, &mut Vec<tessera_core::AnyEvent>, &mut u64)) -> Log {
    let lv = level(4);
    let log = open(&record(&lv, 5, 4, &PICKS, &[]).bytes);
    let game = log.start().unwrap();
    let mut w = LogWriter::new(Vec::new(), log.header(), &game.state).unwrap();
    let mut rec = tessera_replay::StepRecord::default();
    for s in 1..=log.steps() {
        log.read_step(s, &mut rec).unwrap();
        let mut cmd = rec.command.clone().unwrap();
        if s == at {
            tamper(&mut cmd, &mut rec.events, &mut rec.hash);
        }
        w.step(&cmd, &rec.events, rec.hash).unwrap();
    }
    open(&w.into_inner())
}

#[test]
fn verify_passes_a_faithful_log_and_names_the_rules_version() {
    let log = open(&record(&level(4), 5, 4, &PICKS, &[3]).bytes);
    let r = verify(&log).unwrap();
    assert!(r.ok(), "{:?}", r.divergence);
    assert_eq!(r.steps_ok, log.steps());
    assert_eq!(r.recorded_rules_version, tessera_core::RuleSet::Slide.version());
    assert!(!r.version_differs());
}

#[test]
fn verify_reports_the_first_divergence_with_both_sides() {
    // A wrong hash at step 6.
    let log = tampered(6, |_, _, h| *h ^= 1);
    let d = verify(&log).unwrap().divergence.unwrap();
    assert_eq!((d.step, d.what.clone()), (6, Mismatch::Hash));
    assert_eq!(d.offset, log.step_frame(6).unwrap().offset);
    assert_eq!(d.expected_hash ^ 1, d.actual_hash);
    assert_eq!(d.expected_events, d.actual_events);
    // Different events at step 4.
    let log = tampered(4, |_, e, _| {
        e.pop();
    });
    let d = verify(&log).unwrap().divergence.unwrap();
    assert_eq!((d.step, d.what.clone()), (4, Mismatch::Events));
    assert_eq!(d.expected_events.len() + 1, d.actual_events.len());
    assert!(d.to_string().contains("step 4"), "{d}");
    // A command today's rules refuse: the first step whose start state has an illegal slide.
    let lv = level(4);
    let r = record(&lv, 5, 4, &PICKS, &[]);
    let g = lv.start(Some(5)).unwrap();
    let (at, refused) = (1..=r.commands.len())
        .find_map(|s| {
            let legal = g.rules.legal_commands(&r.states[s - 1]);
            (0..4).map(slide).find(|c| !legal.contains(c)).map(|c| (s as u64, c))
        })
        .unwrap();
    let log = tampered(at, move |c, _, _| *c = refused.clone());
    let d = verify(&log).unwrap().divergence.unwrap();
    assert_eq!(d.step, at);
    assert!(matches!(d.what, Mismatch::Rejected(ref r) if r.code == "no_change"), "{:?}", d.what);
}

#[test]
fn verify_says_when_the_rules_version_differs() {
    let lv = level(4);
    let mut header = Header::new(&lv, 5, 4).unwrap();
    header.rules_version += 7;
    let g = lv.start(Some(5)).unwrap();
    let log = open(&LogWriter::new(Vec::new(), &header, &g.state).unwrap().into_inner());
    let r = verify(&log).unwrap();
    assert!(r.ok() && r.version_differs());
    assert_eq!(r.recorded_rules_version, r.current_rules_version + 7);
}

#[test]
fn verify_catches_a_level_that_starts_differently() {
    let lv = level(4);
    let header = Header::new(&lv, 5, 4).unwrap();
    let other = lv.start(Some(6)).unwrap();
    let log = open(&LogWriter::new(Vec::new(), &header, &other.state).unwrap().into_inner());
    let d = verify(&log).unwrap().divergence.unwrap();
    assert_eq!((d.step, d.what), (0, Mismatch::Start));
}

#[test]
fn diff_finds_where_two_logs_part() {
    let lv = level(4);
    let a = open(&record(&lv, 5, 4, &PICKS, &[]).bytes);
    let same = diff(&a, &open(&record(&lv, 5, 8, &PICKS, &[1]).bytes)).unwrap();
    assert!(same.same(), "{same:?}");
    let mut other = PICKS.to_vec();
    other[9] = (other[9] + 1) % 4;
    let b = open(&record(&lv, 5, 4, &other, &[]).bytes);
    let d = diff(&a, &b).unwrap();
    let (step, sa, sb) = d.first_difference.unwrap();
    assert!(step <= 10);
    assert_ne!(sa, sb);
    let shorter = open(&record(&lv, 5, 4, &PICKS[..8], &[]).bytes);
    let d = diff(&a, &shorter).unwrap();
    let (step, sa, sb) = d.first_difference.unwrap();
    assert_eq!(step, shorter.steps() + 1);
    assert!(sa.is_some() && sb.is_none());
    let d = diff(&a, &open(&record(&lv, 6, 4, &PICKS, &[]).bytes)).unwrap();
    assert_eq!(d.header[0].0, "seed");
}

#[test]
fn export_writes_one_json_line_per_frame() {
    let log = open(&record(&level(4), 5, 4, &PICKS, &[2]).bytes);
    let mut out = Vec::new();
    export_json(&log, &mut out).unwrap();
    let lines: Vec<serde_json::Value> =
        String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), log.frames().len());
    assert_eq!(lines[0]["kind"], "header");
    assert_eq!(lines[0]["rule_set"], "slide");
    assert_eq!(lines[0]["level"]["rule_set"], "slide");
    let steps: Vec<_> = lines.iter().filter(|l| l["kind"] == "step").collect();
    assert_eq!(steps.len() as u64, log.steps());
    assert_eq!(steps[0]["step"], 1);
    assert_eq!(steps[0]["hash"].as_str().unwrap().len(), 16);
    assert!(lines.iter().any(|l| l["kind"] == "note" && l["step"] == 3));
    assert!(lines.iter().any(|l| l["kind"] == "keyframe" && l["step"] == 4));
}

#[test]
fn history_from_a_log_replays_it() {
    let r = record(&level(4), 5, 4, &PICKS, &[]);
    let mut h = History::from_log(&open(&r.bytes)).unwrap();
    assert_eq!(h.state(), &r.end.state);
    assert_eq!(h.commands(), r.commands);
    h.seek(3).unwrap();
    assert_eq!(h.state(), &r.states[3]);
}

/// `name` in a folder of its own (tests run in parallel; one checks its folder for stray files).
fn tmp(name: &str) -> std::path::PathBuf {
    let dir =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay-tests").join(format!("{name}.d"));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn the_recorder_appends_flushes_and_cuts_back_on_undo() {
    let lv = level(4);
    let path = tmp("recorder.tlog");
    let mut g = lv.start(Some(11)).unwrap();
    let config = RecorderConfig { keyframe_interval: 3, flush: Flush::EveryFrame };
    let mut rec = Recorder::create(&path, &Header::new(&lv, 11, 0).unwrap(), &g.state, config).unwrap();
    let mut states = vec![g.state.clone()];
    let mut ev = Vec::new();
    for &p in &PICKS {
        ev.clear();
        if g.rules.apply(&mut g.state, &slide(p), &mut ev).is_ok() {
            rec.record(&slide(p), &ev, &g.state).unwrap();
            states.push(g.state.clone());
            // Flushed frame by frame: what is on disk opens, whole.
            let on_disk = Log::from_bytes(std::fs::read(&path).unwrap(), TailPolicy::Strict).unwrap();
            assert_eq!(on_disk.steps(), rec.steps());
        }
    }
    rec.note("the tile at the top left looks wrong").unwrap();
    let n = rec.steps();
    rec.truncate_to(n - 2).unwrap();
    let log = Log::open(&path).unwrap();
    assert_eq!(log.steps(), n - 2);
    assert_eq!(log.header().keyframe_interval, 3);
    assert!(log.notes().is_empty(), "the note went with the undone steps");
    assert_eq!(log.state_at(n - 2).unwrap(), states[n as usize - 2]);
    rec.note("bookmark").unwrap();
    rec.finish().unwrap();
    let log = Log::open(&path).unwrap();
    assert_eq!(log.notes()[0].step, n - 2);
    assert!(verify(&log).unwrap().ok());
}

#[test]
fn keyframes_stay_on_multiples_of_the_interval_after_an_undo() {
    let lv = level(4);
    let path = tmp("recorder-keyframes.tlog");
    let mut g = lv.start(Some(12)).unwrap();
    let config = RecorderConfig { keyframe_interval: 3, flush: Flush::EveryFrame };
    let mut rec = Recorder::create(&path, &Header::new(&lv, 12, 0).unwrap(), &g.state, config).unwrap();
    let mut states = vec![g.state.clone()];
    let mut ev = Vec::new();
    let mut play = |g: &mut tessera_core::Game,
                    rec: &mut Recorder,
                    states: &mut Vec<tessera_core::AnyState>,
                    picks: &[usize]| {
        for &p in picks {
            ev.clear();
            if g.rules.apply(&mut g.state, &slide(p), &mut ev).is_ok() {
                rec.record(&slide(p), &ev, &g.state).unwrap();
                states.push(g.state.clone());
            }
        }
    };
    play(&mut g, &mut rec, &mut states, &PICKS);
    // Undo to a step that is not a multiple of 3, then play on.
    let back = (1..rec.steps()).rev().find(|s| s % 3 != 0).unwrap();
    rec.truncate_to(back).unwrap();
    states.truncate(back as usize + 1);
    g.state = states[back as usize].clone();
    play(&mut g, &mut rec, &mut states, &PICKS);
    rec.finish().unwrap();
    let log = Log::open(&path).unwrap();
    let keyframes: Vec<u64> = log.keyframe_steps().collect();
    let expected: Vec<u64> = (0..=log.steps()).filter(|s| s % 3 == 0).collect();
    assert_eq!(keyframes, expected);
    assert!(verify(&log).unwrap().ok());
}

#[test]
fn a_crashed_recording_opens_and_repairs() {
    let path = tmp("crashed.tlog");
    let bytes = record(&level(4), 5, 4, &PICKS, &[]).bytes;
    let cut = bytes.len() - 3;
    std::fs::write(&path, &bytes[..cut]).unwrap();
    assert!(Log::from_bytes(bytes[..cut].to_vec(), TailPolicy::Strict).is_err());
    let log = Log::open(&path).unwrap();
    assert!(log.dropped_bytes() > 0);
    let whole = open(&bytes);
    assert_eq!(log.frames().len(), whole.frames().len() - 1);
    atomic_write(&path, log.whole_bytes()).unwrap();
    let repaired = Log::from_bytes(std::fs::read(&path).unwrap(), TailPolicy::Strict).unwrap();
    assert_eq!(repaired.steps(), log.steps());
    assert!(verify(&repaired).unwrap().ok());
    // atomic_write leaves no temporary file behind.
    let stray: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

#[test]
fn a_note_can_be_added_to_a_recorded_log() {
    let r = record(&level(4), 5, 4, &PICKS, &[]);
    let log = open(&r.bytes);
    for step in [0, 4, 7, log.steps()] {
        let with = open(&log.with_note(step, "look here").unwrap());
        assert_eq!(with.notes(), &[tessera_replay::Note { step, text: "look here".into() }]);
        assert_eq!(with.steps(), log.steps());
        assert!(verify(&with).unwrap().ok());
    }
    assert!(log.with_note(log.steps() + 1, "x").is_err());
}

/// Issue 12: a recording killed while its log was created left `.NAME.tmpPID-N` beside it. The
/// next recording removes such files of processes that no longer run (of any file in the
/// folder), and keeps the others.
#[test]
fn a_new_recording_removes_stale_temporary_files() {
    let path = tmp("stale.tlog");
    let dir = path.parent().unwrap().to_path_buf();
    for e in std::fs::read_dir(&dir).unwrap() {
        std::fs::remove_file(e.unwrap().path()).unwrap();
    }
    // No process has id 999999999 (Linux ids stop at 2^22).
    let dead = dir.join(".stale.tlog.tmp999999999-0");
    let ours = dir.join(format!(".stale.tlog.tmp{}-77", std::process::id()));
    let other_file = dir.join(".other.tlog.tmp999999999-0");
    let not_a_temp = dir.join(".stale.tlog.tmpx-0");
    for p in [&dead, &ours, &other_file, &not_a_temp] {
        std::fs::write(p, b"TESSLOG\0").unwrap();
    }
    let level = level(4);
    let game = level.start(Some(1)).unwrap();
    let header = tessera_replay::Header::new(&level, 1, 4).unwrap();
    let rec = tessera_replay::Recorder::create(&path, &header, &game.state, Default::default()).unwrap();
    assert_eq!(rec.stale_temps().removed, vec![dead.clone()]);
    assert_eq!(rec.stale_temps().kept, vec![ours.clone()]);
    rec.finish().unwrap();
    // A dead process's temporary file of another name goes too (issue 29.10: every save clears
    // the folder's stale temporaries, so pins under new names do not pile them up).
    assert!(!dead.exists() && ours.exists() && !other_file.exists() && not_a_temp.exists());
    assert!(open(&std::fs::read(&path).unwrap()).steps() == 0);
    // Asked again: nothing more to remove.
    let again = tessera_replay::remove_stale_temps(&path).unwrap();
    assert!(again.removed.is_empty() && again.kept == vec![ours]);
}

/// Issue 66.10: a valid file name of 245 to 255 bytes was refused by every atomic save ("File
/// name too long"), its temporary name being longer. The temporary name keeps within 255 bytes
/// (the name cut short, at a character), the save succeeds, and a killed save's temporary of
/// such a name is still found and removed.
#[test]
fn names_of_up_to_255_bytes_save_atomically() {
    let dir = tmp("long-names").with_file_name("long-names");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for len in [1usize, 200, 244, 245, 250, 254, 255] {
        // ASCII, and names ending in a 3-byte character (the cut falls inside it).
        for tail in ["", "€"] {
            let stem = "n".repeat(len.saturating_sub(tail.len() + 5));
            let name = format!("{stem}{tail}.tlog");
            assert!(name.len() <= 255);
            let path = dir.join(&name);
            atomic_write(&path, b"saved").unwrap_or_else(|e| panic!("{} bytes: {e}", name.len()));
            assert_eq!(std::fs::read(&path).unwrap(), b"saved");
            let temp = tessera_replay::temp_name(std::ffi::OsStr::new(&name), u64::MAX);
            assert!(temp.len() <= tessera_replay::MAX_FILE_NAME_BYTES, "{} bytes", temp.len());
            // A killed save's temporary (of a process that does not run) is recognised.
            // (Of the same length as ours: a dead process id of 9 digits, and a counter of as
            // many more as our id and counter have.)
            let ours = format!(".tmp{}-{}", std::process::id(), u64::MAX);
            let counter = "1".repeat(ours.len() - ".tmp999999999-".len());
            let dead = temp.to_str().unwrap().replace(&ours, &format!(".tmp999999999-{counter}"));
            assert_eq!(dead.len(), temp.len());
            std::fs::write(dir.join(&dead), b"x").unwrap();
            let found = tessera_replay::remove_stale_temps(&path).unwrap();
            assert_eq!(found.removed, vec![dir.join(&dead)], "{} bytes", name.len());
            std::fs::remove_file(&path).unwrap();
        }
    }
    // Nothing left but what the test wrote and removed.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}
