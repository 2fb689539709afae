//! Issue 21: `play --quiet/--every`, `replay pin`, `replay check` (with JUnit), `replay reduce`.

use crate::{scratch, stderr, tessera, workspace};
use std::time::{Duration, Instant};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A match-3 log of `steps` random adjacent swaps on a 5×5 board of 7 breeds (seed 3), made by
/// `play --record`: dead boards (and shuffles) come early on such a board (the first after
/// about 50 steps).
pub(crate) fn match3_log(dir: &std::path::Path, steps: usize) -> String {
    let level = dir.join("m3.json");
    std::fs::write(&level, r#"{"rule_set":"match3","width":5,"height":5,"config":{"breeds":7}}"#).unwrap();
    let mut x: u64 = 5;
    let mut script = String::new();
    let mut n = 0;
    while n < steps {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let (a, b, right) = ((x >> 33) % 5, (x >> 40) % 5, (x >> 50) & 1 == 1);
        if right && a < 4 {
            script.push_str(&format!("swap {a} {b} {} {b}\n", a + 1));
        } else if !right && b < 4 {
            script.push_str(&format!("swap {a} {b} {a} {}\n", b + 1));
        } else {
            continue;
        }
        n += 1;
    }
    let log = dir.join("m3.tlog").to_str().unwrap().to_string();
    let out = tessera(
        &["play", level.to_str().unwrap(), "--seed", "3", "--commands", "-", "--quiet", "--record", &log],
        &script,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    log
}

#[test]
fn quiet_prints_only_the_final_state_and_every_prints_every_nth() {
    let script = "up\nleft\ndown\nright\nup\nleft\ndown\n";
    let full = stdout(&tessera(&["play", "--seed", "7", "--commands", "-"], script));
    let quiet = tessera(&["play", "--seed", "7", "--commands", "-", "--quiet"], script);
    assert!(quiet.status.success(), "{}", stderr(&quiet));
    let quiet = stdout(&quiet);
    assert!(!quiet.contains("step 1:"), "{quiet}");
    assert!(quiet.contains("summary: 7 lines: "), "{quiet}");
    // The final board is the one the full run printed last.
    let last_board = |text: &str| {
        let i = text.rfind("score ").unwrap();
        let start = text[..i].rfind("step ").or_else(|| text[..i].rfind(" after ")).unwrap();
        text[text[start..].find('\n').unwrap() + start..i].trim_start_matches(|c: char| c != '\n').to_string()
    };
    assert!(full.contains(&last_board(&quiet)), "{full}\n---\n{quiet}");
    let every = stdout(&tessera(&["play", "--seed", "7", "--commands", "-", "--every", "3"], script));
    let shown: Vec<&str> = every.lines().filter(|l| l.starts_with("step ")).collect();
    assert_eq!(shown.len(), 2, "{every}");
    assert!(shown[0].starts_with("step 3:") && shown[1].starts_with("step 6:"), "{every}");
    assert!(every.contains("after 7 lines") && every.contains("summary: 7 lines"), "{every}");
    // JSON: the final state and a summary object.
    let json = stdout(&tessera(&["play", "--seed", "7", "--commands", "-", "--quiet", "--json"], script));
    let lines: Vec<serde_json::Value> = json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{json}");
    assert_eq!(lines[0]["step"], 7);
    assert_eq!(lines[1]["summary"]["lines"], 7);
    // Bad arguments are exit 2.
    let out = tessera(&["play", "--commands", "-", "--every", "0"], script);
    assert_eq!(out.status.code(), Some(2));
    let out = tessera(&["play", "--quiet"], "");
    assert_eq!(out.status.code(), Some(2), "--quiet needs --commands");
}

#[test]
fn quiet_with_undo_matches_a_printed_run() {
    // With an undo line the steps are kept; the end state is the same either way.
    let script = "up\nleft\nundo\nredo\ndown\nundo\nright\n";
    let json = stdout(&tessera(&["play", "--seed", "2", "--commands", "-", "--json"], script));
    let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    let quiet = stdout(&tessera(&["play", "--seed", "2", "--commands", "-", "--quiet", "--json"], script));
    let summary: serde_json::Value = serde_json::from_str(quiet.lines().last().unwrap()).unwrap();
    assert_eq!(summary["summary"]["hash"], last["hash"]);
    assert_eq!(summary["summary"]["undone"], 2);
    assert_eq!(summary["summary"]["redone"], 1);
}

#[test]
fn pin_then_check_with_a_junit_report_parsed_back() {
    let dir = scratch("pin-check");
    let log = match3_log(&dir, 40);
    let reg = dir.join("reg");
    let reg_s = reg.to_str().unwrap();
    let out = tessera(
        &["replay", "pin", &log, "--into", reg_s, "--name", "shuffle", "--note", "guards <x> & y"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let side: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(reg.join("shuffle.json")).unwrap()).unwrap();
    assert_eq!(side["steps"], 40);
    assert_eq!(side["rule_set"], "match3");
    assert_eq!(side["guards"], "guards <x> & y");
    assert_eq!(std::fs::read(reg.join("shuffle.tlog")).unwrap(), std::fs::read(&log).unwrap());
    // Never overwrites.
    let again = tessera(&["replay", "pin", &log, "--into", reg_s, "--name", "shuffle"], "");
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("already exists"), "{}", stderr(&again));
    // A second log, then one whose sidecar expects another end.
    let out = tessera(&["replay", "pin", &log, "--into", reg_s, "--name", "changed"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let p = reg.join("changed.json");
    let text = std::fs::read_to_string(&p).unwrap().replace("\"steps\": 40", "\"steps\": 41");
    std::fs::write(&p, text).unwrap();
    let junit = dir.join("report.xml");
    let out = tessera(&["replay", "check", reg_s, "--junit", junit.to_str().unwrap(), "--jobs", "2"], "");
    assert_eq!(out.status.code(), Some(1), "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("ok     shuffle (40 steps"), "{text}");
    assert!(text.contains("FAIL   changed: the sidecar expects 41 steps"), "{text}");
    assert!(text.contains("2 logs in") && text.contains("1 passed, 1 failed, 0 unreadable"), "{text}");

    // The JUnit file parses back: two test cases, one failure with the reason.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let mut reader = quick_xml::Reader::from_str(&xml);
    let (mut cases, mut failures, mut message) = (Vec::new(), 0, String::new());
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Eof => break,
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e) => {
                let attr = |name: &[u8]| {
                    e.attributes().filter_map(Result::ok).find(|a| a.key.as_ref() == name).map(|a| {
                        let raw = String::from_utf8(a.value.to_vec()).unwrap();
                        quick_xml::escape::unescape(&raw).unwrap().into_owned()
                    })
                };
                match e.name().as_ref() {
                    b"testcase" => cases.push(attr(b"name").unwrap()),
                    b"failure" => {
                        failures += 1;
                        message = attr(b"message").unwrap();
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    assert_eq!(cases, ["changed", "shuffle"]);
    assert_eq!(failures, 1);
    assert!(message.contains("expects 41 steps"), "{message}");

    // An unreadable log is exit 2; so is a folder that is not there.
    std::fs::write(reg.join("junk.tlog"), b"not a log").unwrap();
    let out = tessera(&["replay", "check", reg_s], "");
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stdout(&out).contains("ERROR  junk: "), "{}", stdout(&out));
    let out = tessera(&["replay", "check", dir.join("nope").to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_projects_regression_folder_passes() {
    let out = tessera(&["replay", "check", "fixtures/regressions"], "");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    assert!(workspace().join("fixtures/regressions/match3_dead_board_shuffle.tlog").exists());
}

#[test]
fn reduce_until_event_keeps_the_shuffle_and_never_overwrites_the_input() {
    let dir = scratch("reduce");
    let log = match3_log(&dir, 300);
    let before = std::fs::read(&log).unwrap();
    let out_path = dir.join("small.tlog");
    let out = tessera(
        &[
            "replay",
            "reduce",
            &log,
            "--until-event",
            "Shuffled",
            "--out",
            out_path.to_str().unwrap(),
            "--jobs",
            "2",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&log).unwrap(), before, "the input is untouched");
    assert!(stderr(&out).contains("reduce: "), "progress on stderr: {}", stderr(&out));
    // The smaller log verifies, is shorter, and its last step shuffles.
    let info = stdout(&tessera(&["replay", "info", out_path.to_str().unwrap()], ""));
    let steps: u64 = info.lines().find(|l| l.starts_with("steps:")).unwrap()[6..].trim().parse().unwrap();
    assert!((1..300).contains(&steps), "{info}");
    assert!(tessera(&["replay", "verify", out_path.to_str().unwrap()], "").status.success());
    let shown = stdout(&tessera(&["replay", "show", out_path.to_str().unwrap(), "--json"], ""));
    assert!(shown.contains("Shuffled"), "{shown}");
    // The same reduction with one job gives the same log (deterministic test, first wins).
    let one = dir.join("one.tlog");
    let out = tessera(
        &[
            "replay",
            "reduce",
            &log,
            "--until-event",
            "Shuffled",
            "--out",
            one.to_str().unwrap(),
            "--jobs",
            "1",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&out_path).unwrap());

    // --out naming the input is refused; a bad condition is exit 2.
    let out = tessera(&["replay", "reduce", &log, "--until-event", "Shuffled", "--out", &log], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("never overwrites"), "{}", stderr(&out));
    let out = tessera(&["replay", "reduce", &log, "--until-event", "Matched.cascade>"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = tessera(&["replay", "reduce", &log], "");
    assert_eq!(out.status.code(), Some(2), "a test is required");
    assert_eq!(std::fs::read(&log).unwrap(), before);
}

#[test]
fn reduce_whose_test_never_holds_fails_and_writes_nothing() {
    let dir = scratch("reduce-never");
    let log = match3_log(&dir, 20);
    let out_path = dir.join("never.tlog");
    for test in [&["--until-event", "NoSuchEvent"][..], &["--until-status", "won"], &["--test", "false"]] {
        let mut args = vec!["replay", "reduce", &log, "--out", out_path.to_str().unwrap()];
        args.extend_from_slice(test);
        let out = tessera(&args, "");
        assert_eq!(out.status.code(), Some(1), "{test:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("nothing to reduce"), "{}", stderr(&out));
        assert!(!out_path.exists());
        // A kind the log never has is named, with the kinds it has (a typo is seen at once).
        let named = stderr(&out).contains("no event of kind NoSuchEvent in it; its kinds:")
            && stderr(&out).contains("Swapped");
        assert_eq!(named, test[0] == "--until-event", "{}", stderr(&out));
    }
}

#[test]
fn reduce_with_a_test_command_and_a_hanging_one_killed_after_the_timeout() {
    let dir = scratch("reduce-cmd");
    let log = match3_log(&dir, 10);
    // Interesting: a log of at least one step; the reducer must get down to exactly one.
    let tessera_bin = env!("CARGO_BIN_EXE_tessera");
    let test = format!("{tessera_bin} replay show {{}} --json | grep -q '\"command\":\"swap'");
    let out_path = dir.join("one.tlog");
    let out = tessera(&["replay", "reduce", &log, "--test", &test, "--out", out_path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("10 -> 1 steps"), "{}", stdout(&out));

    // A test that hangs on every candidate but the input: each is killed after the timeout, with
    // the background job it started (its process group), and the input is kept as it was.
    let hang_dir = dir.join("hang");
    std::fs::create_dir_all(&hang_dir).unwrap();
    let log = match3_log(&hang_dir, 4);
    let marker = dir.join("marker");
    let script = dir.join("hang.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n[ \"$(wc -c < \"$1\")\" -eq {} ] && exit 0\n(sleep 1; touch {}) &\nwait\n",
            std::fs::metadata(&log).unwrap().len(),
            marker.display()
        ),
    )
    .unwrap();
    let hang_out = dir.join("hang.tlog");
    let started = Instant::now();
    let out = tessera(
        &[
            "replay",
            "reduce",
            &log,
            "--test",
            &format!("sh {}", script.display()),
            "--timeout",
            "0.2",
            "--jobs",
            "2",
            "--out",
            hang_out.to_str().unwrap(),
        ],
        "",
    );
    let took = started.elapsed();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(took < Duration::from_secs(15), "took {took:?}");
    assert!(stdout(&out).contains("4 -> 4 steps"), "{}", stdout(&out));
    std::thread::sleep(Duration::from_millis(1300));
    assert!(!marker.exists(), "a killed test's background job ran on");
}

#[test]
fn reduce_stops_at_the_time_limit_with_the_best_so_far() {
    let dir = scratch("reduce-time");
    let log = match3_log(&dir, 30);
    let out_path = dir.join("t.tlog");
    let out = tessera(
        &[
            "replay",
            "reduce",
            &log,
            "--test",
            "sleep 0.3; true",
            "--seconds",
            "0.5",
            "--jobs",
            "1",
            "--out",
            out_path.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("stopped early"), "{}", stdout(&out));
    assert!(tessera(&["replay", "verify", out_path.to_str().unwrap()], "").status.success());
}

/// Ctrl-C (SIGINT) stops the search, kills the running test and keeps the best so far: exit 130
/// with a log that verifies.
#[cfg(unix)]
#[test]
fn reduce_interrupted_by_ctrl_c_keeps_the_best_so_far() {
    use std::process::{Command, Stdio};
    let dir = scratch("reduce-int");
    let log = match3_log(&dir, 30);
    let out_path = dir.join("int.tlog");
    let child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["replay", "reduce", &log, "--test", "sleep 0.2; true", "--jobs", "1", "--out"])
        .arg(&out_path)
        .current_dir(workspace())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tessera runs");
    std::thread::sleep(Duration::from_millis(900));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).expect("the signal is sent");
    let started = Instant::now();
    let out = child.wait_with_output().expect("tessera ends");
    assert!(started.elapsed() < Duration::from_secs(5), "it stopped promptly");
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("kept the best so far"), "{}", stderr(&out));
    assert!(stdout(&out).contains("stopped early"), "{}", stdout(&out));
    let info = stdout(&tessera(&["replay", "info", out_path.to_str().unwrap()], ""));
    let steps: u64 = info.lines().find(|l| l.starts_with("steps:")).unwrap()[6..].trim().parse().unwrap();
    assert!(steps < 30, "some reduction was kept: {info}");
    assert!(tessera(&["replay", "verify", out_path.to_str().unwrap()], "").status.success());
}

#[test]
fn reduce_until_hash_reaches_that_state_and_bad_hashes_are_refused() {
    let dir = scratch("reduce-hash");
    let log = match3_log(&dir, 20);
    let shown = stdout(&tessera(&["replay", "show", &log, "--step", "12", "--json"], ""));
    let v: serde_json::Value = serde_json::from_str(shown.lines().next().unwrap()).unwrap();
    let hash = v["hash"].as_str().unwrap().to_string();
    let out_path = dir.join("h.tlog");
    let out =
        tessera(&["replay", "reduce", &log, "--until-hash", &hash, "--out", out_path.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let info = stdout(&tessera(&["replay", "info", out_path.to_str().unwrap()], ""));
    assert!(info.contains(&format!("last state hash:   {hash}")), "{info}");
    let steps: u64 = info.lines().find(|l| l.starts_with("steps:")).unwrap()[6..].trim().parse().unwrap();
    assert!(steps <= 12, "{info}");
    for bad in ["xyz", "12345678901234567", ""] {
        let out = tessera(&["replay", "reduce", &log, "--until-hash", bad], "");
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
    }
}
