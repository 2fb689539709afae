//! Log benchmarks on a 1,000,000-step `slide` game: record, open, verify, seek, bytes per step.
//!
//! The game: 2048 on a 12×12 board, seed 1, every command chosen by a fixed priority (down, else
//! left, else right, else up: the first that the rules accept). A 4×4 game ends after a few
//! hundred moves; on 12×12 this simple corner strategy keeps going past a million steps, while
//! the state stays small enough (144 cells, ~950 bytes encoded) that a step costs what a real
//! game's step costs. The commands are worked out once, before any measurement.
//!
//! Run: `cargo bench -p tessera-replay --bench log`. Figures go to stdout; the log's size and
//! bytes per step are printed first.
//!
//! Figures of 2026-11-21 on the shared 2-core machine; the log is 79.6 MB, 79.6 bytes per step
//! (3.8 events per step). Two runs: at load average 0.4–3 (quiet) and at 5–9 (other builds).
//!
//! | measurement | quiet | busy | target |
//! |---|---|---|---|
//! | record, log writer alone (precomputed events and hashes, in memory) | 5.65 M steps/s | 2.85 M | ≥ 1 M |
//! | record, play + state hash + encode, in memory | 731 k steps/s | 428 k | |
//! | record to a file, buffered | 739 k steps/s | 341 k | |
//! | record to a file, flushed every frame (the default) | 447 k steps/s | 176 k | |
//! | open (every length and crc checked) | 33.5 M steps/s (30 ms) | 14.3 M | |
//! | decode every step | 5.0 M steps/s | 1.96 M | |
//! | verify (re-execute, compare events and hashes) | 699 k steps/s | 381 k | ≥ 500 k |
//! | seek: `Log::state_at(random step)` | 42 µs | 114 µs | ≤ 10 ms |
//! | seek: `History::seek(random step)`, 100k-step history | 14 µs | 29 µs | ≤ 10 ms |
//!
//! Measured as CPU time of the process at load 5–9 (`/proc/self/stat`), a million steps
//! cost: apply 0.30 s, state hash 0.61 s, play + record 1.15 s, verify 1.25 s (≈ 800 k steps/s).
//! Recording and verifying a step are dominated by the state hash, which the format requires
//! after every step: bincode's serde encoding of the 144-cell state (43% of the time in
//! `varint_encode_u32`), not the log itself.

//!
//! Figures of 2026-11-23 (incremental hash, log format 2, the direct encoder of `encode.rs`), one
//! run at load average 2.5–2.8: play without a log 1.06 M steps/s; record (play + hash + encode,
//! in memory) 742 k steps/s; the writer alone (precomputed steps) 3.65 M steps/s; verify
//! 690 k steps/s, 65 % of play. Quieter (load 1.2–1.3, one run of these three): play 1.26 M,
//! record 936 k (74 % of play), verify 731 k steps/s (58 %). By instruction counts (callgrind, 100k steps) a step costs 6.7 k
//! instructions to play and 1.2 k more to record (1.9 k before the direct encoder: bincode's
//! serde path wrote every integer through `io::Write`). Recording is now bounded by play itself:
//! the 12×12 slide `apply` (general line path and spawn scan) is 85 % of it.

//!
//! Figures of 2026-11-23, later (the slide exponents of `crates/core/src/slide/exponents.rs`, the
//! hand-written 2048 step encoder, one-write frames), one run at load average 1.2: play without a
//! log 2.62 M steps/s (382 ms); record (play + hash + encode, in memory) 1.73 M steps/s (578 ms);
//! verify 1.12 M steps/s (43 % of play). Runs on this shared machine vary by up to 20 % (the same
//! binary gave 386/624 ms and 438/696 ms in other runs); recording stayed above 1.5 M in every
//! run after the last change. By instruction counts (callgrind) a step now costs about 2.1 k
//! instructions to play (6.7 k before) and 0.86 k more to record (1.2 k before).

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::OnceLock;
use tessera_core::puzzlescript::{PuzzleScriptCommand, PuzzleScriptLevel};
use tessera_core::slide::{SlideCommand, SlideLevel};
use tessera_core::sokoban::SokobanCommand;
use tessera_core::tactics::{TacticsCommand, TacticsLevel, UnitSpec};
use tessera_core::{AnyCommand, AnyEvent, AnyState, Dir, Level, Pos, Rules};
use tessera_replay::{
    Flush, Header, History, Log, LogWriter, Recorder, RecorderConfig, StepRecord, TailPolicy, verify,
};

const STEPS: usize = 1_000_000;
const SEED: u64 = 1;

struct Setup {
    level: Level,
    commands: Vec<AnyCommand>,
    /// Every step's events and hash, for the append-only measurement.
    steps: Vec<(Vec<AnyEvent>, u64)>,
    log: Vec<u8>,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let level = Level::Slide(SlideLevel { width: Some(12), height: Some(12), ..SlideLevel::default() });
        let mut game = level.start(Some(SEED)).expect("the level starts");
        let mut events = Vec::new();
        let mut commands = Vec::with_capacity(STEPS);
        let mut steps = Vec::with_capacity(STEPS);
        let order =
            [Dir::Down, Dir::Left, Dir::Right, Dir::Up].map(|d| AnyCommand::Slide(SlideCommand::Slide(d)));
        'steps: while commands.len() < STEPS {
            for c in &order {
                events.clear();
                if game.rules.apply(&mut game.state, c, &mut events).is_ok() {
                    commands.push(c.clone());
                    steps.push((events.clone(), game.state.hash()));
                    continue 'steps;
                }
            }
            panic!("the game ended after {} steps", commands.len());
        }
        let log = record(&level, &commands);
        println!(
            "log: {STEPS} steps, {} bytes ({:.1} MB), {:.1} bytes per step, {} events per step on average",
            log.len(),
            log.len() as f64 / 1e6,
            log.len() as f64 / STEPS as f64,
            steps.iter().map(|s| s.0.len()).sum::<usize>() as f64 / STEPS as f64,
        );
        Setup { level, commands, steps, log }
    })
}

/// Plays `commands` and records them into memory: what `tessera play --record` does per step.
fn record(level: &Level, commands: &[AnyCommand]) -> Vec<u8> {
    let mut game = level.start(Some(SEED)).expect("the level starts");
    let header = Header::new(level, SEED, tessera_replay::DEFAULT_KEYFRAME_INTERVAL).expect("header");
    let mut w = LogWriter::new(Vec::with_capacity(200 << 20), &header, &game.state).expect("writes");
    let mut events = Vec::new();
    for c in commands {
        events.clear();
        game.rules.apply(&mut game.state, c, &mut events).expect("recorded commands replay");
        w.record(c, &events, &game.state).expect("writes");
    }
    w.into_inner()
}

fn benches(c: &mut Criterion) {
    let s = setup();
    let mut g = c.benchmark_group("log");
    g.sample_size(10);
    g.throughput(Throughput::Elements(STEPS as u64));

    g.bench_function("play the same steps without a log", |b| {
        b.iter(|| {
            let mut game = s.level.start(Some(SEED)).expect("the level starts");
            let mut events = Vec::new();
            for c in &s.commands {
                events.clear();
                game.rules.apply(&mut game.state, c, &mut events).expect("replays");
            }
            black_box(game.state.hash())
        })
    });
    g.bench_function("record: play + hash + encode, in memory", |b| {
        b.iter(|| black_box(record(&s.level, &s.commands).len()))
    });
    g.bench_function("record: append precomputed steps, in memory", |b| {
        let header = Header::new(&s.level, SEED, 256).expect("header");
        let start = s.level.start(Some(SEED)).expect("starts").state;
        b.iter(|| {
            let mut w = LogWriter::new(Vec::with_capacity(200 << 20), &header, &start).expect("writes");
            for (c, (events, hash)) in s.commands.iter().zip(&s.steps) {
                w.step(c, events, *hash).expect("writes");
            }
            black_box(w.len())
        })
    });
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-logs");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    for (name, flush) in [("buffered", Flush::Buffered), ("flush every frame", Flush::EveryFrame)] {
        g.bench_function(format!("record: play + record to a file, {name}"), |b| {
            let header = Header::new(&s.level, SEED, 256).expect("header");
            b.iter(|| {
                let mut game = s.level.start(Some(SEED)).expect("starts");
                let config = RecorderConfig { keyframe_interval: 256, flush };
                let mut r =
                    Recorder::create(dir.join("bench.tlog"), &header, &game.state, config).expect("creates");
                let mut events = Vec::new();
                for c in &s.commands {
                    events.clear();
                    game.rules.apply(&mut game.state, c, &mut events).expect("replays");
                    r.record(c, &events, &game.state).expect("writes");
                }
                r.finish().expect("syncs");
            })
        });
    }
    g.bench_function("open (check every length and crc)", |b| {
        b.iter_batched(
            || s.log.clone(),
            |bytes| black_box(Log::from_bytes(bytes, TailPolicy::Strict).expect("opens").steps()),
            BatchSize::LargeInput,
        )
    });
    let log = Log::from_bytes(s.log.clone(), TailPolicy::Strict).expect("opens");
    g.bench_function("verify (re-execute, compare events and hashes)", |b| {
        b.iter(|| {
            let r = verify(&log).expect("reads");
            assert!(r.ok());
            black_box(r.steps_ok)
        })
    });
    g.bench_function("read every step (decode only)", |b| {
        let mut rec = StepRecord::default();
        b.iter(|| {
            for n in 1..=log.steps() {
                log.read_step(n, &mut rec).expect("decodes");
            }
            black_box(rec.hash)
        })
    });
    g.finish();

    let mut g = c.benchmark_group("seek");
    // A fixed pseudo-random walk over the steps (xorshift), the same every run.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % (STEPS as u64 + 1)
    };
    g.bench_function("log.state_at(random step) in the 1M-step log", |b| {
        b.iter(|| black_box(log.state_at(next()).expect("seeks").hash()))
    });
    // A history keeps every step's events in memory: 100,000 steps of the same game.
    const HISTORY: u64 = 100_000;
    let mut h = History::new(s.level.start(Some(SEED)).expect("starts"));
    for c in &s.commands[..HISTORY as usize] {
        h.execute(c).expect("replays");
    }
    g.bench_function("history.seek(random step) over 100k steps", |b| {
        b.iter(|| {
            let n = next() % (HISTORY + 1);
            h.seek(n).expect("seeks");
            black_box(h.step())
        })
    });
    g.finish();
}

/// A `tactics` level on a `side × side` maze (corridors two cells wide between walls with one
/// gap each, the gaps staggered) with two units of different teams, as `tessera convert
/// movingai` makes of a Moving AI maze: generated here, so that the bench needs no data files.
fn maze(side: usize) -> Level {
    let map = (0..side)
        .map(|y| {
            (0..side)
                .map(|x| if y % 3 == 2 && x % side.min(64) != (y / 3 * 7) % side.min(64) { '#' } else { '.' })
                .collect()
        })
        .collect();
    let units =
        vec![UnitSpec { team: 0, x: 0, y: 0, movement: 5 }, UnitSpec { team: 1, x: 3, y: 1, movement: 5 }];
    Level::Tactics(TacticsLevel { map, units, ..TacticsLevel::default() })
}

/// A 3,000-step log of `end-turn` on `level` (keyframes every 256 steps), in format `version`.
fn tactics_log(level: &Level, version: u32) -> Vec<u8> {
    let mut game = level.start(Some(SEED)).expect("the level starts");
    let mut header = Header::new(level, SEED, tessera_replay::DEFAULT_KEYFRAME_INTERVAL).expect("header");
    header.format_version = version;
    let mut w = LogWriter::new(Vec::new(), &header, &game.state).expect("writes");
    let mut events = Vec::new();
    let cmd = AnyCommand::Tactics(TacticsCommand::EndTurn);
    for _ in 0..TACTICS_STEPS {
        events.clear();
        game.rules.apply(&mut game.state, &cmd, &mut events).expect("end-turn is always accepted");
        w.record(&cmd, &events, &game.state).expect("writes");
    }
    w.into_inner()
}

const TACTICS_STEPS: u64 = 3_000;

/// Verify per step of the same 3,000-step `tactics` log on a 16×16 and a 512×512 map: the
/// per-step cost should follow the step, not the board (format 2), where format 1 hashes the
/// whole state every step.
fn tactics(c: &mut Criterion) {
    let mut g = c.benchmark_group("tactics verify");
    g.sample_size(10);
    g.throughput(Throughput::Elements(TACTICS_STEPS));
    for side in [16, 512] {
        for version in [2, 1] {
            let bytes = tactics_log(&maze(side), version);
            println!(
                "tactics log, {side}x{side}, format {version}: {TACTICS_STEPS} steps, {} bytes ({:.2} MB)",
                bytes.len(),
                bytes.len() as f64 / 1e6
            );
            let log = Log::from_bytes(bytes, TailPolicy::Strict).expect("opens");
            g.bench_function(format!("{side}x{side} format {version}"), |b| {
                b.iter(|| {
                    let r = verify(&log).expect("reads");
                    assert!(r.ok());
                    black_box(r.steps_ok)
                })
            });
        }
    }
    g.finish();
}

criterion_group!(log_benches, benches, tactics, sokoban, puzzlescript);
criterion_main!(log_benches);

const SOKOBAN_STEPS: usize = 100_000;

/// A 10×10 Sokoban room: two boxes to push around, three goals along the walls, and a third box
/// pinned in the bottom-left corner off every goal, so the game is never won and a log can run
/// on. (Two boxes kept off the cells along the walls can never freeze each other.)
const SOKOBAN_ROOM: [&str; 10] = [
    "##########",
    "#@       #",
    "#        #",
    "#  $     #",
    "#        #",
    "#     $  #",
    "#        #",
    "#       .#",
    "#$     ..#",
    "##########",
];

/// 100,000 steps of pushing on [`SOKOBAN_ROOM`], chosen by a fixed xorshift: pick a box and a
/// direction whose push keeps the box off the cells along the walls, `walk` behind it if the player is not there, then push. About half the
/// steps are pushes, half walks.
fn sokoban_commands(level: &Level) -> Vec<AnyCommand> {
    let mut game = level.start(Some(SEED)).expect("the level starts");
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let mut commands = Vec::with_capacity(SOKOBAN_STEPS);
    let mut events = Vec::new();
    let mut run = |game: &mut tessera_core::Game, c: SokobanCommand, commands: &mut Vec<AnyCommand>| {
        let c = AnyCommand::Sokoban(c);
        events.clear();
        let ok = game.rules.apply(&mut game.state, &c, &mut events).is_ok();
        if ok {
            commands.push(c);
        }
        ok
    };
    let mut misses = 0;
    while commands.len() < SOKOBAN_STEPS {
        assert!(misses < 10_000, "no push found after {} steps", commands.len());
        misses += 1;
        let AnyState::Sokoban(s) = &game.state else { unreachable!("a sokoban level") };
        let size = s.size();
        let boxes: Vec<Pos> = size.cells().filter(|&p| s.box_at(p).is_some() && p.x > 1).collect();
        let b = boxes[next(boxes.len() as u64) as usize];
        let d = Dir::ALL[next(4) as usize];
        let (Some(to), Some(behind)) = (b.step(d, size), b.step(d.opposite(), size)) else { continue };
        let inside = (2..=7).contains(&to.x) && (2..=7).contains(&to.y);
        if !inside || !s.is_free(to) || !s.is_free(behind) {
            continue;
        }
        if s.player() != behind && !run(&mut game, SokobanCommand::Walk(behind), &mut commands) {
            continue;
        }
        if run(&mut game, SokobanCommand::Step(d), &mut commands) {
            misses = 0;
        }
    }
    commands.truncate(SOKOBAN_STEPS);
    commands
}

/// Sokoban play speed through the log: play alone, play + record, verify, per step of the
/// 100,000-step log of [`sokoban_commands`].
///
/// Figures of 2026-11-24 (`cargo bench -p tessera-replay --bench log -- sokoban`, load average
/// about 11 from parallel builds): 53,423 of the steps are pushes, the rest walks; 36.3 bytes per
/// step. Play 2.41 M steps/s (41.4 ms), record (play + hash + encode) 1.93 M steps/s (51.8 ms),
/// verify 1.40 M steps/s (71.3 ms). Pushes alone (`cargo bench -p tessera-core --bench sokoban
/// -- sokoban_play`, a push and its undo): 6.1 M pushes/s.
fn sokoban(c: &mut Criterion) {
    let level = Level::from_json(&format!(r#"{{"rule_set":"sokoban","board":{:?}}}"#, SOKOBAN_ROOM))
        .expect("the room is a level");
    let commands = sokoban_commands(&level);
    let pushes =
        commands.iter().filter(|c| matches!(c, AnyCommand::Sokoban(SokobanCommand::Step(_)))).count();
    let bytes = record(&level, &commands);
    println!(
        "sokoban log: {SOKOBAN_STEPS} steps ({pushes} pushes), {} bytes, {:.1} bytes per step",
        bytes.len(),
        bytes.len() as f64 / SOKOBAN_STEPS as f64
    );
    play_record_verify(c, "sokoban log", &level, &commands, bytes);
}

/// Steps of the PuzzleScript log.
const PUZZLESCRIPT_STEPS: usize = 10_000;

/// `PUZZLESCRIPT_STEPS` applied commands on the fixture game's level 2 without its win condition
/// (so play goes on): random moves and actions (each action lights a spark from the random rule
/// and runs an again turn), a restart now and then; refused commands are left out.
fn puzzlescript_commands(level: &Level) -> Vec<AnyCommand> {
    let mut game = level.start(Some(SEED)).expect("the level starts");
    let mut x = 0x5eed_u64;
    let mut commands = Vec::with_capacity(PUZZLESCRIPT_STEPS);
    let mut events = Vec::new();
    while commands.len() < PUZZLESCRIPT_STEPS {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let z = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let cmd = match (z >> 33) % 41 {
            0..=9 => PuzzleScriptCommand::Up,
            10..=19 => PuzzleScriptCommand::Down,
            20..=29 => PuzzleScriptCommand::Left,
            30..=37 => PuzzleScriptCommand::Right,
            38 | 39 => PuzzleScriptCommand::Action,
            _ => PuzzleScriptCommand::Restart,
        };
        let c = AnyCommand::PuzzleScript(cmd);
        events.clear();
        if game.rules.apply(&mut game.state, &c, &mut events).is_ok() {
            commands.push(c);
        }
    }
    commands
}

/// PuzzleScript play speed through the log: play alone, play + record, verify, per step of the
/// 10,000-step log of [`puzzlescript_commands`] (`cargo bench -p tessera-replay --bench log --
/// puzzlescript`).
fn puzzlescript(c: &mut Criterion) {
    let source = include_str!("../../../fixtures/games/warehouse.txt").replace("All Target on Crate", "");
    let level =
        Level::PuzzleScript(PuzzleScriptLevel { name: None, seed: None, source: source.into(), level: 1 });
    let commands = puzzlescript_commands(&level);
    let bytes = record(&level, &commands);
    println!(
        "puzzlescript log: {PUZZLESCRIPT_STEPS} steps, {} bytes, {:.1} bytes per step",
        bytes.len(),
        bytes.len() as f64 / PUZZLESCRIPT_STEPS as f64
    );
    play_record_verify(c, "puzzlescript log", &level, &commands, bytes);
}

/// The group both rule sets' log benches share: play alone, play + record, verify, per step of
/// `commands` on `level` (whose recorded log is `bytes`).
fn play_record_verify(c: &mut Criterion, name: &str, level: &Level, commands: &[AnyCommand], bytes: Vec<u8>) {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.throughput(Throughput::Elements(commands.len() as u64));
    g.bench_function("play without a log", |b| {
        b.iter(|| {
            let mut game = level.start(Some(SEED)).expect("starts");
            let mut events = Vec::new();
            for c in commands {
                events.clear();
                game.rules.apply(&mut game.state, c, &mut events).expect("replays");
            }
            black_box(game.state.hash())
        })
    });
    g.bench_function("record: play + hash + encode, in memory", |b| {
        b.iter(|| black_box(record(level, commands).len()))
    });
    let log = Log::from_bytes(bytes, TailPolicy::Strict).expect("opens");
    g.bench_function("verify", |b| {
        b.iter(|| {
            let r = verify(&log).expect("reads");
            assert!(r.ok());
            black_box(r.steps_ok)
        })
    });
    g.finish();
}
