//! `tessera play --record` and `tessera replay`.

use crate::{json_lines, scratch, stderr, tessera, workspace};
use tessera_core::{Level, Rules};
use tessera_replay::{Header, LogWriter};

const SCRIPT: &str = "up\nleft\ndown\nright\nup\nleft\nundo\nredo\ndown\ndown\nleft\n";

fn recorded(dir: &std::path::Path, name: &str, seed: &str, script: &str) -> String {
    let path = dir.join(name).to_str().unwrap().to_string();
    let out = tessera(&["play", "--seed", seed, "--commands", "-", "--record", &path], script);
    assert!(out.status.success(), "{}", stderr(&out));
    path
}

#[test]
fn a_recorded_session_verifies_and_shows_every_step() {
    let dir = scratch("record");
    let log = recorded(&dir, "a.tlog", "7", SCRIPT);
    let out = tessera(&["replay", "verify", &log], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok: "));
    // The board `show` gives at each step is the board `play` printed after that step.
    let played = json_lines(&tessera(&["play", "--seed", "7", "--commands", "-", "--json"], SCRIPT));
    let applied: Vec<_> = played.iter().filter(|s| s["step"] == 0 || s["outcome"] != "refused").collect();
    let mut line = vec![applied[0]];
    for s in &applied[1..] {
        match s["outcome"].as_str() {
            Some("undone") => {
                line.pop();
            }
            _ => line.push(s),
        }
    }
    for (n, expected) in line.iter().enumerate() {
        let out = tessera(&["replay", "show", &log, "--step", &n.to_string(), "--json"], "");
        assert!(out.status.success(), "{}", stderr(&out));
        let shown = &json_lines(&out)[0];
        assert_eq!(shown["board"], expected["board"], "step {n}");
        assert_eq!(shown["hash"], expected["hash"], "step {n}");
    }
    let out = tessera(&["replay", "show", &log, "--step", "999"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("beyond the end"), "{}", stderr(&out));
}

#[test]
fn info_export_and_notes() {
    let dir = scratch("info");
    let log = recorded(&dir, "a.tlog", "3", SCRIPT);
    let out = tessera(&["replay", "note", &log, "--step", "2", "the 4 appeared twice"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let info = String::from_utf8_lossy(&tessera(&["replay", "info", &log], "").stdout).into_owned();
    assert!(info.contains("rule set:          slide"), "{info}");
    assert!(info.contains("seed:              3"), "{info}");
    assert!(info.contains("step 2: the 4 appeared twice"), "{info}");
    let lines = json_lines(&tessera(&["replay", "export", &log, "--json"], ""));
    assert_eq!(lines[0]["kind"], "header");
    assert!(lines.iter().any(|l| l["kind"] == "note" && l["step"] == 2));
    assert_eq!(
        lines.iter().filter(|l| l["kind"] == "step").count() as u64,
        lines[0]["steps"].as_u64().unwrap()
    );
}

#[test]
fn diff_exits_1_where_logs_part() {
    let dir = scratch("diff");
    let a = recorded(&dir, "a.tlog", "7", SCRIPT);
    let b = recorded(&dir, "b.tlog", "7", SCRIPT);
    let c = recorded(&dir, "c.tlog", "7", "up\nleft\ndown\nleft\n");
    assert_eq!(tessera(&["replay", "diff", &a, &b], "").status.code(), Some(0));
    let out = tessera(&["replay", "diff", &a, &c], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("part at step"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn verify_exits_1_at_a_divergence() {
    let dir = scratch("diverge");
    let level = Level::classic();
    let mut g = level.start(Some(5)).unwrap();
    let mut w = LogWriter::new(Vec::new(), &Header::new(&level, 5, 256).unwrap(), &g.state).unwrap();
    let mut events = Vec::new();
    for i in 0..6 {
        let cmd = g.rules.legal_commands(&g.state)[0].clone();
        events.clear();
        g.rules.apply(&mut g.state, &cmd, &mut events).unwrap();
        let hash = if i == 3 { g.state.hash() ^ 0xff } else { g.state.hash() };
        w.step(&cmd, &events, hash).unwrap();
    }
    let path = dir.join("bad.tlog");
    std::fs::write(&path, w.into_inner()).unwrap();
    let out = tessera(&["replay", "verify", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("step 4"), "{text}");
    assert!(text.contains("expected hash") && text.contains("actual hash"), "{text}");
}

#[test]
fn broken_logs_exit_2_naming_the_byte() {
    let bad = workspace().join("fixtures/bad/flipped_byte.tlog");
    let out = tessera(&["replay", "verify", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("flipped_byte.tlog: byte 311, frame 4: crc mismatch"), "{}", stderr(&out));
    let out = tessera(&["replay", "info", "no/such/file.tlog"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_cut_log_opens_with_a_warning_and_repair_rewrites_it() {
    let dir = scratch("repair");
    let log = recorded(&dir, "a.tlog", "7", SCRIPT);
    let bytes = std::fs::read(&log).unwrap();
    std::fs::write(&log, &bytes[..bytes.len() - 4]).unwrap();
    // Issue 12: verify never says ok for a log it did not read to the end...
    let out = tessera(&["replay", "verify", &log], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cut short"), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("ok") && text.contains("--allow-torn-tail"), "{text}");
    // ...unless told that a torn tail is fine.
    let out = tessera(&["replay", "verify", "--allow-torn-tail", &log], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok (torn tail allowed)"));
    let out = tessera(&["replay", "repair", &log], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let out = tessera(&["replay", "verify", &log], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&tessera(&["replay", "repair", &log], "").stdout)
            .contains("nothing to repair")
    );
}

/// Issue 12: bit 5 of byte 211 of `classic_seed7.tlog` lengthens the step-0 keyframe past the
/// end of the file; verify said "ok" for 0 of 107 steps and exited 0.
#[test]
fn a_flipped_length_bit_is_reported_as_damage() {
    let dir = scratch("flipped-length");
    let mut bytes = std::fs::read(workspace().join("fixtures/logs/v1/classic_seed7.tlog")).unwrap();
    bytes[211] ^= 1 << 5;
    let path = dir.join("flipped.tlog");
    std::fs::write(&path, &bytes).unwrap();
    let path = path.to_str().unwrap();
    for args in [
        &["replay", "verify", path][..],
        &["replay", "verify", "--allow-torn-tail", path],
        &["replay", "info", path],
    ] {
        let out = tessera(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("flipped.tlog: byte 210, frame 1: the log is damaged, not cut short"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains("ok"));
    }
    // repair does not "repair" it by dropping 107 steps either.
    let out = tessera(&["replay", "repair", path], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read(path).unwrap(), bytes);
}

/// Issue 12: a recording killed while its log was created leaves a temporary file beside it;
/// `repair` and the next recording remove it and say so.
#[test]
fn stale_temporary_files_are_removed_and_reported() {
    let dir = scratch("stale");
    let log = recorded(&dir, "a.tlog", "7", SCRIPT);
    // No process has id 999999999 (Linux ids stop at 2^22).
    let stale = dir.join(".a.tlog.tmp999999999-0");
    std::fs::write(&stale, b"TESSLOG\0").unwrap();
    let out = tessera(&["replay", "repair", &log], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(".a.tlog.tmp999999999-0: removed a stale temporary file"), "{text}");
    assert!(!stale.exists());
    std::fs::write(&stale, b"TESSLOG\0").unwrap();
    let path = dir.join("a.tlog");
    let out =
        tessera(&["play", "--seed", "7", "--commands", "-", "--record", path.to_str().unwrap()], "up\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(".a.tlog.tmp999999999-0: removed a stale temporary file"),
        "{}",
        stderr(&out)
    );
    assert!(!stale.exists());
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("a.tlog")]);
}

/// A forged log: valid crcs, but step 3's events name cells off the board and tiles that are not
/// there, for each rule set. `show` exits 2 with a typed error naming the step and the event,
/// and no panic message reaches stderr (redo is checked; nothing is caught).
#[test]
fn forged_events_are_an_error_naming_step_and_event_without_a_panic() {
    use tessera_core::AnyEvent;
    let dir = scratch("forged");
    let levels = [
        ("slide", Level::classic()),
        ("collapse", Level::from_json(include_str!("../../../fixtures/levels/collapse_seed.json")).unwrap()),
        ("tactics", Level::from_json(include_str!("../../../fixtures/levels/skirmish.json")).unwrap()),
        ("match3", Level::from_json(include_str!("../../../fixtures/levels/stage_0001.json")).unwrap()),
    ];
    for (name, level) in levels {
        let mut g = level.start(Some(5)).unwrap();
        let mut w = LogWriter::new(Vec::new(), &Header::new(&level, 5, 256).unwrap(), &g.state).unwrap();
        let mut events = Vec::new();
        for i in 1..=4 {
            let cmd = g.rules.legal_commands(&g.state).last().unwrap().clone();
            events.clear();
            g.rules.apply(&mut g.state, &cmd, &mut events).unwrap();
            let mut recorded = events.clone();
            if i == 3 {
                // Every number in the first event becomes 250: cells off the board, ids unknown.
                let mut v = serde_json::to_value(&recorded[0]).unwrap();
                fn big(v: &mut serde_json::Value) {
                    match v {
                        serde_json::Value::Number(n) => *n = 250.into(),
                        serde_json::Value::Array(a) => a.iter_mut().for_each(big),
                        serde_json::Value::Object(o) => o.values_mut().for_each(big),
                        _ => {}
                    }
                }
                big(&mut v);
                recorded[0] = serde_json::from_value::<AnyEvent>(v).unwrap();
            }
            w.step(&cmd, &recorded, g.state.hash()).unwrap();
        }
        let path = dir.join(format!("{name}.tlog"));
        std::fs::write(&path, w.into_inner()).unwrap();
        let out = tessera(&["replay", "show", path.to_str().unwrap(), "--step", "4"], "");
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("step 3") && err.contains("event 0"), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

/// A log of an older rules version this build keeps (tactics 2: A* paths) verifies with that
/// version's rules, `info` says so, and a reduction of it is recorded with the same version;
/// a log of a version this build does not keep is replayed with today's rules, with a note.
#[test]
fn logs_of_a_kept_rules_version_replay_with_its_rules() {
    let old = workspace().join("fixtures/logs/v2/field_seed0.rules2.tlog");
    let old = old.to_str().unwrap();
    let out = tessera(&["replay", "verify", old], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("tactics rules version 2 (today's is 3; replayed with version 2's rules"),
        "{text}"
    );
    let info = tessera(&["replay", "info", old], "");
    assert!(
        String::from_utf8_lossy(&info.stdout)
            .contains("rules version:     2 (today's is 3; this build keeps version 2)")
    );
    let dir = scratch("kept-version");
    let reduced = dir.join("r.tlog");
    let out = tessera(
        &["replay", "reduce", old, "--until-event", "UnitMoved", "-o", reduced.to_str().unwrap()],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let info = tessera(&["replay", "info", reduced.to_str().unwrap()], "");
    assert!(
        String::from_utf8_lossy(&info.stdout).contains("rules version:     2 "),
        "the reduction keeps the version"
    );
    assert!(tessera(&["replay", "verify", reduced.to_str().unwrap()], "").status.success());

    // Version 99 of slide is not kept: today's rules replay it, and say so.
    let level = Level::classic();
    let mut g = level.start(Some(5)).unwrap();
    let mut header = Header::new(&level, 5, 256).unwrap();
    header.rules_version = 99;
    let mut w = LogWriter::new(Vec::new(), &header, &g.state).unwrap();
    let mut events = Vec::new();
    for _ in 0..4 {
        let cmd = g.rules.legal_commands(&g.state)[0].clone();
        events.clear();
        g.rules.apply(&mut g.state, &cmd, &mut events).unwrap();
        w.step(&cmd, &events, g.state.hash()).unwrap();
    }
    let path = dir.join("future.tlog");
    std::fs::write(&path, w.into_inner()).unwrap();
    let out = tessera(&["replay", "verify", path.to_str().unwrap()], "");
    let text = String::from_utf8_lossy(&out.stdout);
    let slide = tessera_core::RuleSet::Slide;
    let (oldest, today) = (slide.oldest_version(), slide.version());
    assert!(
        text.contains(&format!(
            "recorded with slide rules version 99, which this build does not keep (it keeps {oldest}..={today}); \
             replayed with today's"
        )),
        "{text}"
    );
}
