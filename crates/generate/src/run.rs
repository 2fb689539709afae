//! The run: candidates evaluated `jobs` at a time, their results taken in candidate order
//! against the budget, the kept levels ordered and appended to the source.

use crate::candidate::{Evaluated, evaluate};
use crate::game::{Prepared, append_levels};
use crate::{Budget, Curve, GenerateError, Level, Options, band};
use std::collections::{BTreeMap, BTreeSet};
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

/// What [`schedule`] did: candidates taken, budget spent, how it ended, wall-clock seconds.
pub(crate) struct Scheduled {
    pub taken: u64,
    pub spent: u64,
    pub ended: Ended,
    pub seconds: f64,
}

/// A candidate's evaluation: from its index and a stop test, its result (if any) and its charge
/// in budget states.
pub(crate) type Eval<'a, T> = dyn Fn(u64, &dyn Fn() -> bool) -> (Option<T>, u64) + Sync + 'a;

/// Evaluates candidates `jobs` at a time (candidate `k * N + I` of shard `I/N`, `k` from 0),
/// each on one thread by `eval` (its result, if any, and its charge in budget states), and
/// takes their results in candidate order against the budget, offering each result to `keep`
/// (true: kept, one more of `count`), until `count` are kept, the budget ends or `interrupt`.
pub(crate) fn schedule<T: Send>(
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
    eval: &Eval<'_, T>,
    keep: &mut dyn FnMut(T) -> bool,
) -> Scheduled {
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
    let (mut taken, mut spent, mut kept) = (0u64, 0u64, 0usize);
    let mut ended = Ended::Budget;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, (Option<T>, u64))>();
        for _ in 0..options.jobs.max(1) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop() {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let index = k * shards + shard;
                    let result = eval(index, stop);
                    if tx.send((k, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, (Option<T>, u64)> = BTreeMap::new();
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
            while let Some((result, charge)) = pending.remove(&expected) {
                expected += 1;
                if let Budget::States(n) = options.budget
                    && spent + charge > n
                {
                    ended = Ended::Budget;
                    break 'run;
                }
                taken += 1;
                spent += charge;
                if let Some(r) = result
                    && keep(r)
                {
                    kept += 1;
                }
                progress(Progress { proved: kept, wanted: options.count, candidates: taken, states: spent });
                if kept >= options.count {
                    ended = Ended::Count;
                    break 'run;
                }
            }
        }
        finished.store(true, Ordering::Relaxed);
    });
    Scheduled { taken, spent, ended, seconds: began.elapsed().as_secs_f64() }
}

/// Whether a level of difficulty `d` is kept given the levels kept so far: inside the range,
/// and (the rising curve over a range) in a band not taken yet, which it then takes.
pub(crate) fn admit(options: &Options, filled: &mut [bool], d: f64) -> bool {
    if options.difficulty.is_some_and(|(a, b)| !(a..=b).contains(&d)) {
        return false;
    }
    let slot = match options.difficulty {
        Some(range) if options.curve == Curve::Rising => band(range, options.count, d),
        _ => None,
    };
    match slot {
        Some(k) if filled[k] => false,
        Some(k) => {
            filled[k] = true;
            true
        }
        None => true,
    }
}

/// Sorts levels by the curve: by difficulty then steps (rising; stable, ties as found), or not.
pub(crate) fn order<T>(options: &Options, levels: &mut [T], key: impl Fn(&T) -> (f64, u64)) {
    if options.curve == Curve::Rising {
        levels.sort_by(|a, b| {
            let (x, y) = (key(a), key(b));
            x.0.total_cmp(&y.0).then(x.1.cmp(&y.1))
        });
    }
}

/// The keep rule of a run, in candidate order: a level is kept when its rows are neither a
/// known level nor one kept before and [`admit`] takes its difficulty.
pub(crate) struct Keeper<'a, T> {
    options: &'a Options,
    seen: BTreeSet<Vec<String>>,
    filled: Vec<bool>,
    /// The levels kept, as found.
    pub kept: Vec<T>,
}

impl<'a, T> Keeper<'a, T> {
    pub(crate) fn new(options: &'a Options, known: BTreeSet<Vec<String>>) -> Self {
        Keeper { options, seen: known, filled: vec![false; options.count], kept: Vec::new() }
    }

    /// Offers `level` (its rows and difficulty): true when it is kept.
    pub(crate) fn offer(&mut self, level: T, rows: &[String], difficulty: f64) -> bool {
        if self.seen.contains(rows) || !admit(self.options, &mut self.filled, difficulty) {
            return false;
        }
        self.seen.insert(rows.to_vec());
        self.kept.push(level);
        true
    }
}

/// Generates levels for the game `game` by `options` (see the crate docs), calling `progress`
/// after each candidate taken; `interrupt` (Ctrl-C) ends the run with the levels kept so far.
pub fn generate(
    game: &Prepared,
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Outcome, GenerateError> {
    let mut keeper = Keeper::new(options, game.known.clone());
    let eval = |index: u64, stop: &dyn Fn() -> bool| {
        let e: Evaluated = evaluate(game, options, index, stop);
        (e.level, e.charge)
    };
    let run = schedule(options, interrupt, progress, &eval, &mut |level: Level| {
        let (rows, d) = (level.rows.clone(), level.difficulty);
        keeper.offer(level, &rows, d)
    });
    finish(game, options, keeper.kept, run)
}

/// The kept levels ordered by the curve and appended to the source, read back.
pub(crate) fn finish(
    game: &Prepared,
    options: &Options,
    mut kept: Vec<Level>,
    run: Scheduled,
) -> Result<Outcome, GenerateError> {
    order(options, &mut kept, |l| (l.difficulty, l.steps() as u64));
    let rows: Vec<Vec<String>> = kept.iter().map(|l| l.rows.clone()).collect();
    let source = append_levels(&game.source, &rows);
    check_output(game, &source, &rows)?;
    Ok(Outcome {
        levels: kept,
        first_number: game.playable + 1,
        first_entry: game.entries,
        candidates: run.taken,
        states: run.spent,
        seconds: run.seconds,
        ended: run.ended,
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
