//! The run: candidates evaluated `jobs` at a time, their results taken in candidate order
//! against the budget, the kept levels ordered and appended to the source.

use crate::candidate::{Evaluated, evaluate};
use crate::game::{Prepared, append_levels};
use crate::{Budget, Curve, GenerateError, Level, Options};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tessera_core::puzzlescript::{engine, level_rows, playable_count};

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It had the levels asked for.
    Count,
    /// The budget ran out first.
    Budget,
    /// It was interrupted (Ctrl-C): the levels proved so far are kept.
    Interrupted,
}

/// Where a run is, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Levels kept so far.
    pub proved: usize,
    /// Levels asked for.
    pub wanted: usize,
    /// Candidates taken so far.
    pub candidates: u64,
    /// Budget states spent so far.
    pub states: u64,
}

/// What a run made.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The kept levels, in the curve's order.
    pub levels: Vec<Level>,
    /// The playable number (from 1) of the first of them in [`Outcome::source`].
    pub first_number: usize,
    /// The entry of the first of them in the output's level list (from 0, messages included,
    /// as PuzzleScript's `loadLevel` counts).
    pub first_entry: usize,
    /// Candidates taken.
    pub candidates: u64,
    /// Budget states spent (in candidate order, up to the last candidate taken).
    pub states: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// How it ended.
    pub ended: Ended,
    /// The game's source with the levels appended.
    pub source: String,
}

/// Generates levels for the game `game` by `options` (see the crate docs), calling `progress`
/// after each candidate taken; `interrupt` (Ctrl-C) ends the run with the levels kept so far.
pub fn generate(
    game: &Prepared,
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Outcome, GenerateError> {
    let began = Instant::now();
    let deadline = match options.budget {
        Budget::Time(d) => Some(began + d),
        Budget::States(_) => None,
    };
    let (shard, shards) = options.shard.unwrap_or((0, 1));
    let next = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
    let stop = || finished.load(Ordering::Relaxed) || interrupt.load(Ordering::Relaxed) || out_of_time();
    let mut kept: Vec<Level> = Vec::new();
    let mut seen = game.known.clone();
    let (mut taken, mut spent) = (0u64, 0u64);
    let mut ended = Ended::Budget;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Evaluated)>();
        for _ in 0..options.jobs.max(1) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop() {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let index = k * shards + shard;
                    let result = evaluate(game, options, index, stop);
                    if tx.send((k, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, Evaluated> = BTreeMap::new();
        let mut expected = 0u64;
        'run: loop {
            if interrupt.load(Ordering::Relaxed) {
                ended = Ended::Interrupted;
                break;
            }
            if out_of_time() {
                ended = Ended::Budget;
                break;
            }
            let got = match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(g) => g,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            pending.insert(got.0, got.1);
            while let Some(result) = pending.remove(&expected) {
                expected += 1;
                if let Budget::States(n) = options.budget
                    && spent + result.charge > n
                {
                    ended = Ended::Budget;
                    break 'run;
                }
                taken += 1;
                spent += result.charge;
                if let Some(level) = result.level
                    && options.difficulty.is_none_or(|(a, b)| (a..=b).contains(&level.difficulty))
                    && seen.insert(level.rows.clone())
                {
                    kept.push(level);
                }
                progress(Progress {
                    proved: kept.len(),
                    wanted: options.count,
                    candidates: taken,
                    states: spent,
                });
                if kept.len() >= options.count {
                    ended = Ended::Count;
                    break 'run;
                }
            }
        }
        finished.store(true, Ordering::Relaxed);
    });
    if options.curve == Curve::Rising {
        kept.sort_by_key(|l| (l.difficulty, l.steps()));
    }
    let rows: Vec<Vec<String>> = kept.iter().map(|l| l.rows.clone()).collect();
    let source = append_levels(&game.source, &rows);
    check_output(game, &source, &rows)?;
    Ok(Outcome {
        levels: kept,
        first_number: game.playable + 1,
        first_entry: game.entries,
        candidates: taken,
        states: spent,
        seconds: began.elapsed().as_secs_f64(),
        ended,
        source,
    })
}

/// The output read back: it compiles, and its last levels are the generated ones, row for row.
fn check_output(game: &Prepared, source: &str, rows: &[Vec<String>]) -> Result<(), GenerateError> {
    let compiled = engine::compile(source)
        .map_err(|e| GenerateError::Compile(format!("the output does not compile: {e:?}")))?;
    if playable_count(&compiled) != game.playable + rows.len() {
        return Err(GenerateError::Compile(
            "the output's levels are not the game's and the generated ones".into(),
        ));
    }
    for (k, r) in rows.iter().enumerate() {
        let read = level_rows(source, game.playable + k).map_err(GenerateError::Compile)?;
        if &read != r {
            return Err(GenerateError::Compile(format!(
                "generated level {} reads back differently from the output",
                game.playable + k + 1
            )));
        }
    }
    Ok(())
}
