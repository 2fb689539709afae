//! Issue 29: hostile inputs and kills on the surfaces added since the first sweep (packs,
//! merge, convert, reduce, pin, check, solve). Hostile inputs are made here, not stored.

use crate::{scratch, stderr, tessera, workspace};
use std::path::{Path, PathBuf};

/// A pack of two small collapse levels in a fresh folder; returns the pack's path.
pub fn small_pack(name: &str) -> PathBuf {
    let dir = scratch(name);
    for (i, colours) in [(0, 2), (1, 3)] {
        std::fs::write(
            dir.join(format!("l{i}.json")),
            format!(r#"{{"rule_set": "collapse", "width": 4, "height": 3, "colours": {colours}}}"#),
        )
        .unwrap();
    }
    let pack = dir.join("pack.json");
    std::fs::write(&pack, r#"{"name": "p", "levels": [{"level": "l0.json"}, {"level": "l1.json"}]}"#)
        .unwrap();
    pack
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit 2, no panic, and the message names `what`.
fn refused(out: &std::process::Output, what: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(what), "expected '{what}' in: {err}");
}

/// 29.2: counts from flags and from shard files are bounded before anything is allocated.
#[test]
fn huge_counts_are_refused_before_allocating() {
    let pack = small_pack("huge-counts");
    let dir = pack.parent().unwrap().to_path_buf();
    let out = tessera(&["pack", "rate", s(&pack), "--bot", "random", "--games", "1000000000000"], "");
    refused(&out, "at most 1000000 games");
    let out =
        tessera(&["pack", "rate", s(&pack), "--bot", "random", "--games", "2", "--jobs", "1000000000"], "");
    refused(&out, "--jobs");
    let out = tessera(
        &[
            "pack",
            "rate",
            s(&pack),
            "--bot",
            "random",
            "--games",
            "2",
            "--shard",
            "0/1000000000",
            "--out",
            "x",
        ],
        "",
    );
    refused(&out, "at most 65536 shards");
    let shard = dir.join("shard.json");
    let out = tessera(
        &["pack", "rate", s(&pack), "--bot", "random", "--games", "2", "--shard", "0/1", "--out", s(&shard)],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let good: tessera_pack::ShardFile = serde_json::from_slice(&std::fs::read(&shard).unwrap()).unwrap();
    for (count, games) in [(1u64 << 63, 2), (1_000_000_000, 2), (1, 1_000_000_000_000)] {
        let mut bad = good.clone();
        bad.shard.count = count;
        bad.settings.games = games;
        bad.seal();
        let file = dir.join(format!("bad-{count}-{games}.json"));
        std::fs::write(&file, serde_json::to_string(&bad).unwrap()).unwrap();
        let out = tessera(&["pack", "merge", s(&pack), s(&file)], "");
        refused(&out, s(&file));
        assert!(stderr(&out).contains("at most"), "{}", stderr(&out));
    }
    assert!(!dir.join("pack.results.json").exists(), "nothing written");
}

/// 29.1: a shard with one game flipped by hand is refused by name.
#[test]
fn a_hand_edited_shard_is_refused_by_name() {
    let pack = small_pack("edited-shard");
    let dir = pack.parent().unwrap().to_path_buf();
    let shard = dir.join("shard.json");
    let out = tessera(
        &["pack", "rate", s(&pack), "--bot", "random", "--games", "3", "--shard", "0/1", "--out", s(&shard)],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&shard).unwrap();
    let flipped = if text.contains("\"won\":true") {
        text.replacen("\"won\":true", "\"won\":false", 1)
    } else {
        text.replacen("\"won\":false", "\"won\":true", 1)
    };
    assert_ne!(flipped, text);
    std::fs::write(&shard, flipped).unwrap();
    let out = tessera(&["pack", "merge", s(&pack), s(&shard)], "");
    refused(&out, "shard.json");
    assert!(stderr(&out).contains("checksum"), "{}", stderr(&out));
    assert!(!dir.join("pack.results.json").exists());
    let _ = workspace();
}

/// 29.3: a Sokoban collection with a row of 1,000,000 cells (then 5,000 rows) is refused at
/// that row, naming the file, before any row is padded.
#[test]
fn convert_refuses_an_oversized_sokoban_board_while_reading() {
    let dir = scratch("convert-huge");
    let file = dir.join("huge.xsb");
    let mut text = "#".repeat(1_000_000);
    text.push('\n');
    text.push_str(&"#\n".repeat(5_000));
    std::fs::write(&file, text).unwrap();
    let out = tessera(&["convert", "sokoban", s(&file), s(&dir.join("out"))], "");
    refused(&out, "huge.xsb: level 1, line 1, column 257");
    assert!(stderr(&out).contains("at most 256"), "{}", stderr(&out));
    assert!(!dir.join("out").exists());
}

fn collection(dir: &Path, boards: usize) -> PathBuf {
    let file = dir.join("coll.xsb");
    let board = "#####\n#@$.#\n#####\n";
    let text: String = (0..boards).map(|i| format!("; {i}\n{board}\n")).collect();
    std::fs::write(&file, text).unwrap();
    file
}

/// 29.4: all or none: with `coll-001.json` already there and `coll-003.json` a folder, nothing
/// changes (the old file keeps its bytes) and nothing is left behind.
#[test]
fn convert_changes_nothing_when_one_target_is_a_folder() {
    let dir = scratch("convert-all-or-none");
    let file = collection(&dir, 4);
    let out_dir = dir.join("out");
    std::fs::create_dir_all(out_dir.join("coll-003.json")).unwrap();
    std::fs::write(out_dir.join("coll-001.json"), "old\n").unwrap();
    let out = tessera(&["convert", "sokoban", s(&file), s(&out_dir)], "");
    refused(&out, "coll-003.json");
    assert_eq!(std::fs::read_to_string(out_dir.join("coll-001.json")).unwrap(), "old\n");
    let mut left: Vec<String> =
        std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    left.sort();
    assert_eq!(left, ["coll-001.json", "coll-003.json"]);
    // Once the folder is gone, every level is written, the old file replaced, and it says so.
    std::fs::remove_dir(out_dir.join("coll-003.json")).unwrap();
    let out = tessera(&["convert", "sokoban", s(&file), s(&out_dir)], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("wrote 4 levels into"));
    assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 4);
    assert!(std::fs::read_to_string(out_dir.join("coll-001.json")).unwrap().contains("sokoban"));
}

/// 29.5: saving never replaces what is not a regular file: a FIFO, a symbolic link, a folder.
#[test]
fn saving_refuses_targets_that_are_not_regular_files() {
    let pack = small_pack("special-targets");
    let dir = pack.parent().unwrap().to_path_buf();
    let fifo = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let real = dir.join("real.txt");
    std::fs::write(&real, "mine\n").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).unwrap();
    for (target, what) in [(&fifo, "not a regular file"), (&link, "symbolic link"), (&folder, "a folder")] {
        let out = tessera(&["pack", "report", s(&pack), "--out", s(target)], "");
        refused(&out, what);
        let out = tessera(&["convert", "stage", "fixtures/stages/stage_0001.txt", s(target)], "");
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    }
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "mine\n");
    // A log reached through a symbolic link is not replaced by `note`.
    let log = dir.join("game.tlog");
    let out = tessera(&["play", "--seed", "1", "--commands", "-", "--record", s(&log)], "left\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let log_link = dir.join("link.tlog");
    std::os::unix::fs::symlink(&log, &log_link).unwrap();
    let out = tessera(&["replay", "note", s(&log_link), "hello"], "");
    refused(&out, "symbolic link");
    assert!(std::fs::symlink_metadata(&log_link).unwrap().file_type().is_symlink());
    let out = tessera(&["replay", "check", "fixtures/regressions", "--junit", s(&fifo)], "");
    refused(&out, "not a regular file");
}

use std::os::unix::fs::FileTypeExt;

/// A walled `side`×`side` Sokoban room with `boxes` boxes and goals scattered by a fixed
/// generator, as a level file.
pub fn room(dir: &Path, side: usize, boxes: usize) -> PathBuf {
    let mut rows: Vec<Vec<char>> = (0..side)
        .map(|y| {
            (0..side)
                .map(|x| if x == 0 || y == 0 || x == side - 1 || y == side - 1 { '#' } else { ' ' })
                .collect()
        })
        .collect();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    rows[1][1] = '@';
    for c in ['$', '.'] {
        let mut placed = 0;
        while placed < boxes {
            let (cx, cy) = (2 + next(side - 4), 2 + next(side - 4));
            if rows[cy][cx] == ' ' {
                rows[cy][cx] = c;
                placed += 1;
            }
        }
    }
    let board: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let file = dir.join(format!("room-{side}-{boxes}.json"));
    std::fs::write(&file, serde_json::json!({"rule_set": "sokoban", "board": board}).to_string()).unwrap();
    file
}

/// 29.8: `solve --memory` ends the search with "gave up: memory" rather than growing; a bad
/// budget is refused.
#[test]
fn solve_keeps_to_its_memory_budget() {
    let dir = scratch("solve-memory");
    let level = room(&dir, 128, 100);
    let out = tessera(&["solve", s(&level), "--memory", "1", "--seconds", "60"], "");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("gave up: memory"), "{err}");
    let out = tessera(&["solve", s(&level), "--memory", "0"], "");
    refused(&out, "--memory 0");
    let out = tessera(&["solve", "fixtures/levels/collapse_seed.json", "--memory", "10"], "");
    refused(&out, "--memory");
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// 29.6 and 28.14: `replay check` bounds the sidecar read, reports every entry it cannot read
/// (a dangling link, a folder, a link to a device), refuses a log without its sidecar unless
/// `--allow-unpinned`, says "no logs" for an empty folder, and puts the sidecar's note into
/// the JUnit report.
#[test]
fn check_reports_every_entry_it_cannot_read() {
    let dir = scratch("check-hostile");
    let log = crate::qa::match3_log(&dir, 5);
    let reg = dir.join("reg");
    let out =
        tessera(&["replay", "pin", &log, "--into", s(&reg), "--name", "good", "--note", "guards <this>"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let junit = dir.join("report.xml");
    let out = tessera(&["replay", "check", s(&reg), "--junit", s(&junit)], "");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(r#"<property name="guards" value="guards &lt;this&gt;"/>"#), "{xml}");

    // An empty folder: no logs, exit 2.
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    refused(&tessera(&["replay", "check", s(&empty)], ""), "no logs");

    // A log without its sidecar: an error unless --allow-unpinned.
    std::fs::copy(&log, reg.join("bare.tlog")).unwrap();
    let out = tessera(&["replay", "check", s(&reg)], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("ERROR  bare: ") && stdout(&out).contains("--allow-unpinned"),
        "{}",
        stdout(&out)
    );
    let out = tessera(&["replay", "check", s(&reg), "--allow-unpinned"], "");
    assert!(out.status.success(), "{}", stdout(&out));
    std::fs::remove_file(reg.join("bare.tlog")).unwrap();

    // Hostile entries: each reported by name, none skipped, none read for ever.
    std::os::unix::fs::symlink(dir.join("nowhere.tlog"), reg.join("dangling.tlog")).unwrap();
    std::fs::create_dir(reg.join("folder.tlog")).unwrap();
    std::fs::copy(&log, reg.join("zero.tlog")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", reg.join("zero.json")).unwrap();
    let out = tessera(&["replay", "check", s(&reg), "--allow-unpinned"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let text = stdout(&out);
    for name in ["dangling", "folder", "zero"] {
        assert!(text.contains(&format!("ERROR  {name}: ")), "{name}: {text}");
    }
    assert!(text.contains("ok     good"), "{text}");
    assert!(text.contains("1 passed, 0 failed, 3 unreadable"), "{text}");
}

/// 29.9 and 29.10: a pin killed at any moment never leaves a sidecar without its log; a re-pin
/// of the name replaces half a pair; temporary files of killed saves are removed by the next
/// save into the folder.
#[test]
fn a_killed_pin_leaves_nothing_a_re_pin_cannot_replace() {
    use std::process::{Command, Stdio};
    let dir = scratch("pin-kill");
    let log = crate::qa::match3_log(&dir, 30);
    let reg = dir.join("reg");
    std::fs::create_dir_all(&reg).unwrap();
    let mut x = 0x1234_5678u64;
    for i in 0..30 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let name = format!("k{i}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["replay", "pin", &log, "--into", s(&reg), "--name", &name])
            .current_dir(workspace())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(x % 15_000));
        let _ = child.kill();
        let _ = child.wait();
        // 37.8: a pin killed after its log and before its sidecar's rename has its sidecar
        // staged (`.NAME.json.pinPID`): the pair is complete, and the next pin finishes it.
        let staged = std::fs::read_dir(&reg)
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().starts_with(&format!(".{name}.json.pin")));
        let log_there = reg.join(format!("{name}.tlog")).exists();
        let side_there = reg.join(format!("{name}.json")).exists() || (log_there && staged);
        assert!(log_there || !side_there, "kill {i}: a sidecar without its log");
        // Pinning the name again always works, and completes the pair.
        let out = tessera(&["replay", "pin", &log, "--into", s(&reg), "--name", &name], "");
        if log_there && side_there {
            assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
        } else {
            assert!(out.status.success(), "kill {i}: {}", stderr(&out));
            assert_eq!(stdout(&out).contains("replaced"), log_there, "{}", stdout(&out));
        }
    }
    let out = tessera(&["replay", "check", s(&reg)], "");
    assert!(out.status.success(), "{}", stdout(&out));
    // Temporary files of dead processes (any name) go at the next save; a live one's stays.
    let dead = reg.join(".gone.tlog.tmp4194303-0");
    let live = reg.join(format!(".busy.tlog.tmp{}-0", std::process::id()));
    std::fs::write(&dead, "x").unwrap();
    std::fs::write(&live, "x").unwrap();
    let out = tessera(&["replay", "pin", &log, "--into", s(&reg), "--name", "after"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!dead.exists(), "a dead process's temporary file was removed");
    assert!(live.exists(), "a running process's temporary file is left alone");
}

/// Whether process `pid` still runs (a zombie does not count).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z')))
}

/// 29.7: no process of a test is left running: background jobs of a test that exited, and
/// grandchildren that left its process group with `setsid`.
#[test]
fn reduce_leaves_no_process_behind() {
    let dir = scratch("reduce-procs");
    let log = crate::qa::match3_log(&dir, 6);
    let pids = dir.join("pids");
    // Each process writes its id as the outside sees it (`/proc/self/stat`, read by the shell
    // itself): where reduce gives the test a PID namespace, `$!` is the namespace's id.
    let me = format!("read -r p r < /proc/self/stat; echo $p >> {}", pids.display());
    // A child started in the background, written down before the test goes on (a FIFO).
    let spawn = |prefix: &str| {
        format!(
            "s=$(mktemp -u); mkfifo $s; {prefix}sh -c '{me}; echo > '$s'; exec sleep 300' & read x < $s; rm $s; "
        )
    };
    let test = format!("{}{}true", spawn(""), spawn("setsid "));
    let out = tessera(
        &["replay", "reduce", &log, "--test", &test, "--jobs", "2", "--out", s(&dir.join("r.tlog"))],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let list = std::fs::read_to_string(&pids).unwrap();
    assert!(list.lines().count() >= 4, "{list}");
    // A process just killed may take a moment to go: wait up to 5 s (the test's sleeps are 300 s).
    let mut left: Vec<&str> = list.lines().filter(|p| alive(p)).collect();
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        left.retain(|p| alive(p));
    }
    assert!(left.is_empty(), "still running: {left:?}");
}

/// 29.7: `--seconds` bounds the whole run, a running test included, whatever `--timeout`.
#[test]
fn reduce_seconds_bounds_a_running_test() {
    let dir = scratch("reduce-bound");
    let log = crate::qa::match3_log(&dir, 6);
    let count = dir.join("count");
    // The log itself holds at once; every later candidate hangs far past --seconds.
    let test = format!(": {{}}; if [ -e {c} ]; then exec sleep 120; else touch {c}; fi", c = count.display());
    let started = std::time::Instant::now();
    let out = tessera(
        &[
            "replay",
            "reduce",
            &log,
            "--test",
            &test,
            "--seconds",
            "1",
            "--timeout",
            "300",
            "--jobs",
            "1",
            "--out",
            s(&dir.join("r.tlog")),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("stopped early"), "{}", stdout(&out));
    // Far below the 120 s the test would run: the bound held.
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "{:?}", started.elapsed());
}

/// 29.7: SIGTERM cleans up as Ctrl-C does: the running test is killed, the temporary folder
/// removed, the best so far kept (exit 130).
#[test]
fn reduce_cleans_up_on_sigterm() {
    use std::process::{Command, Stdio};
    let dir = scratch("reduce-term");
    let log = crate::qa::match3_log(&dir, 6);
    let pids = dir.join("pids");
    // Ids as the outside sees them (see `reduce_leaves_no_process_behind`).
    let me = format!("read -r p r < /proc/self/stat; echo $p >> {}", pids.display());
    let test = format!(": {{}}; {me}; sh -c '{me}; exec sleep 120' & wait");
    let child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["replay", "reduce", &log, "--test", &test, "--timeout", "300", "--jobs", "1", "--out"])
        .arg(dir.join("r.tlog"))
        .current_dir(workspace())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let temp = std::env::temp_dir().join(format!("tessera-reduce-{}-0", child.id()));
    for _ in 0..500 {
        if pids.exists() && std::fs::read_to_string(&pids).unwrap().lines().count() >= 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(temp.exists(), "the reducer's temporary folder {}", temp.display());
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(!temp.exists(), "the temporary folder was removed");
    let list = std::fs::read_to_string(&pids).unwrap();
    // A process just killed may take a moment to go: wait up to 5 s (the test's sleeps are 300 s).
    let mut left: Vec<&str> = list.lines().filter(|p| alive(p)).collect();
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        left.retain(|p| alive(p));
    }
    assert!(left.is_empty(), "still running: {left:?}");
}

/// 29.7 and 28.15: a test that stops holding is caught by the re-run on the answer (a flaky
/// test "reduced" a 107-step log to 0 steps); a test that never holds is reported with the exit
/// code it returned.
#[test]
fn reduce_re_runs_the_test_on_its_answer() {
    let dir = scratch("reduce-flaky");
    let log = crate::qa::match3_log(&dir, 8);
    let count = dir.join("count");
    // Holds on its first two runs only.
    let test = format!(
        ": {{}}; n=$(cat {c} 2>/dev/null || echo 0); echo $((n + 1)) > {c}; [ $n -lt 2 ]",
        c = count.display()
    );
    let out = tessera(
        &["replay", "reduce", &log, "--test", &test, "--jobs", "1", "--out", s(&dir.join("r.tlog"))],
        "",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no longer holds") && stderr(&out).contains("exited with 1"),
        "{}",
        stderr(&out)
    );
    let out = tessera(&["replay", "reduce", &log, "--test", "exit 3", "--out", s(&dir.join("n.tlog"))], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("exited with 3"), "{}", stderr(&out));
    // One progress line, not one per improvement.
    let out =
        tessera(&["replay", "reduce", &log, "--until-event", "Swapped", "--out", s(&dir.join("e.tlog"))], "");
    assert_eq!(stderr(&out).matches("reduce: ").count(), 1, "{}", stderr(&out));
}

/// 28.15: `play --help` lists every rule set's command syntax; `pack new`/`add` and
/// `convert` say what they wrote; `replay export --json` step lines carry the score.
#[test]
fn commands_say_what_they_did() {
    let help = stdout(&tessera(&["play", "--help"], ""));
    for r in tessera_core::RuleSet::ALL {
        assert!(help.contains(&format!("{}: {}", r.name(), r.command_help())), "{}: {help}", r.name());
    }
    let dir = scratch("say");
    let pack = dir.join("p.json");
    let out = tessera(&["pack", "new", s(&pack)], "");
    assert!(stdout(&out).contains("created pack 'p'"), "{}", stdout(&out));
    std::fs::copy(workspace().join("fixtures/levels/classic.json"), dir.join("a.json")).unwrap();
    let out = tessera(&["pack", "add", s(&pack), s(&dir.join("a.json"))], "");
    assert!(stdout(&out).contains("added 1 level at position 1 (1 entries)"), "{}", stdout(&out));
    let out = tessera(&["pack", "remove", s(&pack), "3"], "");
    refused(&out, "p.json");
    let out = tessera(&["convert", "stage", "fixtures/stages/stage_0001.txt", s(&dir.join("st.json"))], "");
    assert!(stdout(&out).contains("wrote "), "{}", stdout(&out));
    let log = dir.join("g.tlog");
    let out = tessera(&["play", "--seed", "1", "--commands", "-", "--record", s(&log)], "left\nup\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = crate::json_lines(&tessera(&["replay", "export", s(&log), "--json"], ""));
    let steps: Vec<&serde_json::Value> = lines.iter().filter(|l| l["kind"] == "step").collect();
    assert!(!steps.is_empty());
    assert!(steps.iter().all(|l| l["score"].is_u64()), "{steps:?}");
}
