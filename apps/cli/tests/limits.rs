//! Issue 66: bounds that never refuse a real game, and the holes a hostile sweep still found.
//! Generated inputs stand for the large ones of the issue.

use crate::bounds::tessera_limited;
use crate::{scratch, stderr, tessera, workspace};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const CHORUS: &str = "fixtures/games/chorus.txt";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// 66.9: `sound GAME --wav-dir DIR` is all or none: a symbolic link at one target (the 15th of
/// 30) gave exit 2 after 14 files were written; now every target is checked and every file
/// staged before any is moved into place, so nothing is written.
#[test]
fn sound_wav_dir_writes_all_or_none() {
    let dir = scratch("limits-wav-dir");
    let out = tessera(&["sound", CHORUS, "--wav-dir", s(&dir)], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names.len(), 30);
    let empty = scratch("limits-wav-dir-link");
    let link = empty.join(&names[14]);
    std::os::unix::fs::symlink("/nonexistent", &link).unwrap();
    let out = tessera(&["sound", CHORUS, "--wav-dir", s(&empty)], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("symbolic link") && stderr(&out).contains("nothing was written"),
        "{}",
        stderr(&out)
    );
    let left: Vec<_> = std::fs::read_dir(&empty).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![names[14].clone()], "only the link is there");
}

/// 66.11: `sound GAME` reads a game within the limit of every command (4 MiB), with the same
/// message as `play`, and no further (a `/dev/zero` game is refused at once).
#[test]
fn sound_reads_a_game_within_the_limit_of_every_command() {
    let dir = scratch("limits-sound-size");
    let big = dir.join("big.txt");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(5 << 20).unwrap();
    let sound = tessera(&["sound", s(&big)], "");
    let play = tessera(&["play", s(&big), "--number", "1"], "");
    assert_eq!(sound.status.code(), Some(2));
    assert_eq!(stderr(&sound), stderr(&play), "one limit, one message");
    assert!(
        stderr(&sound).contains("more than 4 MiB, the limit for a PuzzleScript game"),
        "{}",
        stderr(&sound)
    );
    // A device: read up to the limit and not a byte further (the process stays small).
    let zero = dir.join("zero.txt");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let out = tessera_limited(&["sound", s(&zero)], nix::sys::resource::Resource::RLIMIT_AS, 512 << 20);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("more than 4 MiB, the limit for a PuzzleScript game"), "{}", stderr(&out));
}

/// 66.12: a 100,000-digit seed is refused without being echoed whole; a 309-digit seed below
/// the largest double is a seed (the message said "at most 308 digits").
#[test]
fn seed_messages_are_short_and_true() {
    let huge = format!("1{}", "0".repeat(100_000));
    let out = tessera(&["sound", &huge], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).len() < 300, "{} bytes: {}", stderr(&out).len(), &stderr(&out)[..300]);
    assert!(stderr(&out).contains("100001 characters"), "{}", stderr(&out));
    let big = format!("17{}", "0".repeat(307));
    assert_eq!(big.len(), 309);
    let out = tessera(&["sound", &big], "");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// 66.6: `--jobs` past the cores runs one thread per core and says so (without a cap `solve
/// --jobs 1000` spent 10.6 s where one job solves in 0.01 s); under a 4 GiB address-space cap
/// every command that takes `--jobs` runs to its end at the top of the range, where `solve`
/// panicked and `puzzlescript test` and `difficulty` aborted.
#[test]
fn jobs_stop_at_what_helps_and_never_abort() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let level = "fixtures/games/warehouse.txt";
    let out = tessera(&["solve", level, "--number", "1", "--jobs", "1000"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("--jobs: 1000 threads asked, running {}", cores.min(1000))),
        "{}",
        stderr(&out)
    );
    let cap = nix::sys::resource::Resource::RLIMIT_AS;
    let runs: [&[&str]; 4] = [
        &["solve", level, "--number", "1", "--jobs", "1024"],
        &["solve", level, "--all", "--jobs", "1024", "--states", "100000"],
        &["puzzlescript", "test", "fixtures/puzzlescript/warehouse_suite.json", "--jobs", "1024"],
        &[
            "difficulty",
            level,
            "--number",
            "1",
            "--games",
            "4",
            "--bot",
            "random",
            "--max-moves",
            "20",
            "--jobs",
            "1024",
        ],
    ];
    for args in runs {
        let out = tessera_limited(args, cap, 4 << 30);
        assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}: {:?} {}", out.status, stderr(&out));
        assert!(stderr(&out).contains("threads asked, running"), "{args:?}: {}", stderr(&out));
    }
}

/// A game whose level 1 is won in one step, level 2 is a 12×12 room whose player leaves a trail
/// and whose one target is walled in (never won, its states without end: the search runs until
/// stopped) and levels 3 to `n` are level 1 again.
fn trail_game(dir: &Path, n: usize) -> PathBuf {
    let mut room: Vec<String> = (0..12).map(|_| ".".repeat(12)).collect();
    room[0].replace_range(0..1, "P");
    room[8].replace_range(8..9, "#");
    room[9].replace_range(7..10, "#T#");
    room[10].replace_range(8..9, "#");
    let mut levels = String::from("PT\n\n");
    levels += &room.join("\n");
    levels.push('\n');
    for _ in 2..n {
        levels += "\nPT\n";
    }
    let text = format!(
        "title trail\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nwhite\n\nTarget\ngreen\n\nMark\nblue\n\nWall\ngray\n\n\
         LEGEND\n\n. = Background\nP = Player\nT = Target\n# = Wall\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\n\
         Target\nMark\nPlayer, Wall\n\nRULES\n\nlate [ Player no Mark ] -> [ Player Mark ]\n\n\
         WINCONDITIONS\n\nall Target on Mark\n\nLEVELS\n\n{levels}\n"
    );
    let path = dir.join("trail.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// 66.8: `solve --all` prints each level's row as it finishes (in the levels' order), and on
/// Ctrl-C the search under way stops, no level more starts, the table of the levels searched
/// and the summary are printed, and the command exits 130.
#[test]
fn solve_all_prints_rows_as_levels_finish_and_on_ctrl_c() {
    let dir = scratch("limits-solve-all");
    let game = trail_game(&dir, 5);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["solve", s(&game), "--all", "--jobs", "1", "--seconds", "120"])
        .current_dir(workspace())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut first = Vec::new();
    for _ in 0..3 {
        first.push(lines.next().unwrap().unwrap());
    }
    // Level 1's row, while level 2 is still searched.
    assert!(first[2].trim_start().starts_with("1  solved"), "{first:?}");
    assert!(child.try_wait().unwrap().is_none(), "still searching level 2");
    std::thread::sleep(std::time::Duration::from_millis(300));
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), nix::sys::signal::Signal::SIGINT)
        .unwrap();
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{rest:?}");
    assert!(rest[0].trim_start().starts_with("2  stopped"), "{rest:?}");
    assert_eq!(rest.len(), 2, "level 2's row and the summary: {rest:?}");
    assert!(rest[1].contains("interrupted: 2 of 5 levels searched"), "{rest:?}");
}

/// 66.8: the levels of a game of many levels are started from one compilation (each was
/// compiled again, quadratic in the number of levels): 2,000 levels all solved.
#[test]
fn solve_all_solves_a_game_of_many_levels() {
    let dir = scratch("limits-solve-many");
    let text = std::fs::read_to_string(trail_game(&dir, 3)).unwrap();
    let (head, _) = text.split_once("LEVELS\n\n").unwrap();
    let levels: String = (0..2000).map(|_| "PT\n\n").collect();
    let game = dir.join("many.txt");
    std::fs::write(&game, format!("{head}LEVELS\n\n{levels}")).unwrap();
    let out = tessera(&["solve", s(&game), "--all", "--states", "100"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).ends_with("2000 of 2000 solved (2000 solved)\n"), "{}", stdout(&out));
}

/// 66.3: a bot's game is held to a work budget (`--work`, its moves and its bot's look-aheads):
/// past it the game ends there, and `bot` and `difficulty` say it was cut short; the same
/// every time.
#[test]
fn a_bots_game_ends_at_its_work_budget_and_says_so() {
    let level = "fixtures/games/warehouse.txt";
    let bot = |work: &str| tessera(&["bot", level, "--number", "2", "--bot", "random", "--work", work], "");
    let out = bot("100000");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    assert!(last.contains("cut short: the game spent its work budget, --work 100000"), "{last}");
    let moves: u32 = last.split_whitespace().next().unwrap().parse().unwrap();
    assert!(moves > 0 && moves < 10_000, "{last}");
    assert_eq!(stdout(&bot("100000")), text, "deterministic");
    // A larger budget plays on further.
    let more = stdout(&bot("1000000"));
    let more_moves: u32 = more.lines().last().unwrap().split_whitespace().next().unwrap().parse().unwrap();
    assert!(more_moves > moves, "{more_moves} after {moves}");
    let sweep = |jobs: &str| {
        tessera(
            &[
                "difficulty",
                level,
                "--number",
                "2",
                "--bot",
                "random",
                "--games",
                "3",
                "--work",
                "20000",
                "--jobs",
                jobs,
            ],
            "",
        )
    };
    let out = sweep("1");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("cut short by the work budget (--work 20000): 3 of 3 games"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("--work 20000 --seed"),
        "the replay line keeps the budget: {}",
        stdout(&out)
    );
    assert_eq!(stdout(&sweep("2")), stdout(&out), "the same on any number of threads");
}

/// A small game whose every step is an `again` chain of 1,000 turns (a flag toggled each turn),
/// as the 647-byte game; the `Target` rule could make a target, so the solver cannot
/// prove at once that none comes.
fn again_chain_game(dir: &Path) -> PathBuf {
    let text = "title again chain\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\n\
                Target\ngreen\n\nF1\nred\n\nF2\nblue\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\n\
                T = Target\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nPlayer, Wall\nF1\nF2\n\n\
                RULES\n\n[ Player | Player ] -> [ Player | Player Target ]\n[ Player F1 ] -> [ Player F2 ] again\n\
                [ Player no F1 no F2 ] -> [ Player F1 ] again\n[ Player F2 ] -> [ Player ] again\n\n\
                WINCONDITIONS\n\nsome Target\n\nLEVELS\n\n#####\n#P..#\n#...#\n#####\n";
    let path = dir.join("again.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// 66.3: the default work budget ends a game of `again` chains within seconds: each turn counts
/// its own cost (`RUN_TURN_WORK`), not only its rules' work, so the 1,000 turns of each of a
/// move's 8 steps (the move and the random bot's look-aheads) count 16 million units or more;
/// without it the budget allowed ten times the moves (94 s for such a game). A difficulty
/// report's solver measure is held to the same budget and says when it was cut short by it.
#[test]
fn the_default_work_budget_ends_an_again_chain_game_and_the_solver_measure() {
    let dir = scratch("limits-again-chain");
    let game = again_chain_game(&dir);
    let out = tessera(&["bot", s(&game), "--bot", "random"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let last = stdout(&out).lines().last().unwrap().to_string();
    assert!(last.contains("cut short: the game spent its work budget, --work 400000000"), "{last}");
    let moves: u32 = last.split_whitespace().next().unwrap().parse().unwrap();
    assert!((1..=25).contains(&moves), "{last}");
    let sweep = |work: &str| {
        let out = tessera(&["difficulty", s(&game), "--bot", "random", "--games", "2", "--work", work], "");
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let text = sweep("400000000");
    assert!(text.contains("puzzle (puzzlescript-solver): unsolvable"), "{text}");
    let text = sweep("2000000");
    assert!(text.contains("puzzle (puzzlescript-solver): cut short by the work budget"), "{text}");
    assert!(text.contains("cut short by the work budget (--work 2000000): 2 of 2 games"), "{text}");
    let json = tessera(
        &["difficulty", s(&game), "--bot", "random", "--games", "2", "--work", "2000000", "--json"],
        "",
    );
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["summary"]["puzzle"]["outcome"], "cut_short", "{report}");
}

/// Runs `tessera` with `args`: its exit status, stderr, and its peak resident memory in bytes
/// (`VmHWM`, read every 5 ms while it runs: the peak is monotonic, so the last read is within
/// 5 ms of the end).
fn run_measured(args: &[&str]) -> (std::process::ExitStatus, String, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .current_dir(workspace())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        if let Some(kib) = std::fs::read_to_string(&status_file).ok().and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        }) {
            peak = peak.max(kib * 1024);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (status, err, peak)
}

/// 66.5: Sokoban `solve --seconds 2` on a 254×254 room of 16,000 boxes, no address cap: its
/// distance table alone would take 4.2 GB, touched before the clock was read (3.9 GB, 4.4 to
/// 13.6 s); by default the solver's budget is 1 GiB, so it gives up at once, in a few
/// megabytes.
#[test]
fn sokoban_solve_on_a_huge_level_keeps_its_seconds_and_memory() {
    let dir = scratch("limits-sokoban");
    let level = crate::hostile::room(&dir, 256, 16_000);
    let (status, err, peak) = run_measured(&["solve", s(&level), "--seconds", "2"]);
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("gave up: memory"), "{err}");
    assert!(peak < 200 << 20, "peak {} MB", peak >> 20);
}

/// 66.12: `puzzlescript test` says a case's compile failure in words, with its line, not in
/// Rust's debug form.
#[test]
fn a_suite_case_that_does_not_compile_is_said_in_words() {
    let dir = scratch("limits-suite-words");
    let suite = dir.join("suite.json");
    let case = serde_json::json!([["broken", ["title x\n\nOBJECTS\n\nBackground\nblack\n", [], "", 0]]]);
    std::fs::write(&suite, case.to_string()).unwrap();
    let out = tessera(&["puzzlescript", "test", s(&suite)], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("FAIL broken: the game does not compile: "), "{text}");
    assert!(!text.contains("Diagnostic {") && !text.contains("Some("), "{text}");
}

/// 66.1: a level past the board's sides (a row of 340 cells in *An Auspicious Day*, 257 rows in
/// *The Overtaking*) refused the whole game; now the game compiles, its other levels play, and
/// that level alone is refused when started, saying why. The real games' cases of
/// `real-bounds` whose level played is small pass.
#[test]
fn a_game_with_one_huge_level_plays_its_others() {
    let dir = scratch("limits-huge-level");
    let text = std::fs::read_to_string(trail_game(&dir, 3)).unwrap();
    let (head, _) = text.split_once("LEVELS\n\n").unwrap();
    // Long and thin, as real games' levels are: 340 wide, and 10,230 tall; and one of 300×300,
    // past the area.
    let wide = format!("P{}T\n", ".".repeat(338)).repeat(66);
    let tall: Vec<String> =
        std::iter::once("P".to_string()).chain((0..10_228).map(|_| ".".into())).chain(["T".into()]).collect();
    let square = format!("P{}\n", ".".repeat(299)).repeat(300);
    let game = dir.join("huge.txt");
    std::fs::write(&game, format!("{head}LEVELS\n\nPT\n\n{wide}\n{}\n\n{square}\nPT\n", tall.join("\n")))
        .unwrap();
    // (Level 3, 1×10,230, was refused by `play` as a board past 1,024 a side: a PuzzleScript
    // board is bounded by its area alone.)
    for n in ["1", "2", "3", "5"] {
        let out = tessera(&["play", s(&game), "--number", n, "--commands", "-"], "right\n");
        assert!(out.status.success(), "level {n}: {}", stderr(&out));
    }
    let out = tessera(&["play", s(&game), "--number", "4", "--commands", "-"], "right\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("is 300x300 cells, more than 65536 cells (or 65535 a side): it cannot be played"),
        "{}",
        stderr(&out)
    );
    let suite = std::path::Path::new("/work/shared/benchmarks/puzzlescript/real-bounds/cases.json");
    if suite.exists() {
        for name in ["An_Auspicious_Day", "The_Overtaking"] {
            let out = tessera(&["puzzlescript", "test", s(suite), "--filter", name], "");
            assert!(out.status.success(), "{name}: {}", stdout(&out));
        }
    }
}
