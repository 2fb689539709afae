//! `tessera generate GAME.txt --count K --seed S (--seconds T | --states N) --out OUT.txt`: new
//! levels for a PuzzleScript game, every one proved by the solver and replayed to a win,
//! appended to the game's source in its own legend (see `tessera_generate` and
//! docs/generate.md). This module only reads the flags, shows the progress and writes the
//! results.

use crate::error::{CliError, Input, output_error, read_input};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tessera_generate::{Budget, Curve, Ended, Options, Outcome};

/// `tessera generate GAME.txt ...`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The PuzzleScript game (`.txt`) whose rules and levels the new levels grow from.
    pub game: PathBuf,
    /// How many levels.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// The run's seed: the same seed, game and options give the same candidates.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds to spend, wall clock (default 60).
    #[arg(long, conflicts_with = "states")]
    pub seconds: Option<f64>,
    /// Solver states to spend over the whole run instead of the clock: the same levels, byte
    /// for byte, on any machine and any --jobs.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub states: Option<u64>,
    /// Where to write the game's source with the new levels appended (written once, atomically).
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object (the last line of stdout): the levels, their solutions, steps and
    /// difficulty.
    #[arg(long)]
    pub json: bool,
    /// Grow from level N only (from 1; its size, walls and objects); default: all the levels.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub from: Option<u64>,
    /// Rooms of this size (WxH) instead of the levels' own.
    #[arg(long, value_name = "WxH", conflicts_with = "keep_walls")]
    pub size: Option<String>,
    /// The fewest steps a level's solution may have.
    #[arg(long, default_value_t = 6)]
    pub min_steps: usize,
    /// The most steps a level's solution may have.
    #[arg(long)]
    pub max_steps: Option<usize>,
    /// Change only movable objects: the walls stay as the level has them.
    #[arg(long)]
    pub keep_walls: bool,
    /// Candidates evaluated at once, one thread each (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// The most states one candidate's proof may expand (breadth-first).
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub level_states: u64,
    /// The order of the levels: `rising` (by difficulty, easy to hard) or `flat` (as found).
    #[arg(long, default_value = "rising")]
    pub curve: String,
    /// Keep only levels whose difficulty is in A..B.
    #[arg(long, value_name = "A..B")]
    pub difficulty: Option<String>,
    /// Evaluate only shard I of N of the candidates (I from 1): candidates I-1, I-1+N, ...
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
}

/// Set by Ctrl-C: the run stops with the levels proved so far.
static STOP: AtomicBool = AtomicBool::new(false);

fn bad(what: impl std::fmt::Display) -> CliError {
    CliError::BadInput(what.to_string())
}

/// `WxH`.
fn parse_size(text: &str) -> Result<(usize, usize), CliError> {
    let (w, h) =
        text.split_once(['x', 'X']).ok_or_else(|| bad(format!("--size {text}: give WxH, as 10x8")))?;
    let n = |s: &str| s.trim().parse::<usize>().map_err(|_| bad(format!("--size {text}: give WxH, as 10x8")));
    Ok((n(w)?, n(h)?))
}

/// `A..B`.
fn parse_range(text: &str) -> Result<(u64, u64), CliError> {
    let (a, b) =
        text.split_once("..").ok_or_else(|| bad(format!("--difficulty {text}: give A..B, as 8..20")))?;
    let n = |s: &str| {
        s.trim().parse::<u64>().map_err(|_| bad(format!("--difficulty {text}: give A..B, as 8..20")))
    };
    Ok((n(a)?, n(b)?))
}

/// `I/N`, I from 1: (I - 1, N).
fn parse_shard(text: &str) -> Result<(u64, u64), CliError> {
    let wrong = || bad(format!("--shard {text}: give I/N with 1 <= I <= N, as 2/4"));
    let (i, n) = text.split_once('/').ok_or_else(wrong)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| wrong())?, n.trim().parse().map_err(|_| wrong())?);
    if i == 0 || n == 0 || i > n {
        return Err(wrong());
    }
    Ok((i - 1, n))
}

/// The options the flags ask for.
fn options(args: &GenerateArgs) -> Result<Options, CliError> {
    let budget = match (args.seconds, args.states) {
        (_, Some(n)) => Budget::States(n),
        (Some(s), None) => {
            if !(s.is_finite() && s > 0.0 && s <= 86_400.0) {
                return Err(bad(format!("--seconds {s}: give 0 to 86400 seconds")));
            }
            Budget::Time(Duration::from_secs_f64(s))
        }
        (None, None) => Budget::Time(Duration::from_secs(60)),
    };
    let curve = Curve::from_name(&args.curve)
        .ok_or_else(|| bad(format!("--curve {}: give rising or flat", args.curve)))?;
    let jobs =
        args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
    Ok(Options {
        count: args.count,
        seed: args.seed,
        budget,
        from: args.from.map(|n| n as usize - 1),
        size: args.size.as_deref().map(parse_size).transpose()?,
        min_steps: args.min_steps,
        max_steps: args.max_steps,
        keep_walls: args.keep_walls,
        jobs,
        level_states: args.level_states,
        difficulty: args.difficulty.as_deref().map(parse_range).transpose()?,
        curve,
        shard: args.shard.as_deref().map(parse_shard).transpose()?,
        ..Options::default()
    })
}

/// Refuses an OUT that cannot be written, before any time is spent: its folder must exist and
/// take a new file, and OUT must be missing or a regular file.
fn check_writable(out: &Path) -> Result<(), CliError> {
    tessera_replay::check_target(out).map_err(|e| CliError::file(out, format!("cannot write: {e}")))?;
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let probe = dir.join(format!(".tessera-generate-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(CliError::file(out, format!("cannot write there: {e}"))),
    }
}

/// Runs `tessera generate`.
pub fn run(args: &GenerateArgs) -> Result<(), CliError> {
    let options = options(args)?;
    let source = read_input(&args.game, Input::Import { name: "a PuzzleScript game", limit: 16 << 20 })?;
    let game = tessera_generate::prepare(&source, &options).map_err(|e| CliError::file(&args.game, e))?;
    check_writable(&args.out)?;
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(options.count as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} levels proved  {msg}  {elapsed} (eta {eta})",
        ) {
            bar.set_style(style);
        }
        bar
    });
    let outcome = tessera_generate::generate(&game, &options, &STOP, &mut |p| {
        if let Some(b) = &bar {
            b.set_position(p.proved as u64);
            b.set_message(format!("{} candidates, {} states", p.candidates, p.states));
        }
    })
    .map_err(|e| CliError::Failed(format!("{}: {e}", args.game.display())))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let name = args.game.display();
    if outcome.levels.is_empty() {
        let spent = match options.budget {
            Budget::Time(_) => format!("{:.0} s", outcome.seconds),
            Budget::States(n) => format!("{n} states"),
        };
        let hint = match options.budget {
            Budget::Time(d) => format!("try --seconds {}", (d.as_secs_f64() * 4.0).ceil().max(10.0)),
            Budget::States(n) => format!("try --states {}", n.saturating_mul(4).max(options.level_states)),
        };
        let what = format!(
            "{name}: proved 0 levels in {spent} ({} candidates tried): {hint}, or ask less (--min-steps, --size); {} is not written",
            outcome.candidates,
            args.out.display()
        );
        return Err(if outcome.ended == Ended::Interrupted {
            CliError::Interrupted(what)
        } else {
            CliError::Failed(what)
        });
    }
    tessera_replay::atomic_write(&args.out, outcome.source.as_bytes())
        .map_err(|e| CliError::file(&args.out, format!("cannot write: {e}")))?;
    report(args, &outcome)?;
    match outcome.ended {
        Ended::Interrupted => Err(CliError::Interrupted(format!(
            "{name}: interrupted: {} levels proved were written to {}",
            outcome.levels.len(),
            args.out.display()
        ))),
        Ended::Budget if outcome.levels.len() < options.count => {
            eprintln!(
                "{name}: proved {} of {} levels within the budget; give more --seconds or --states for the rest",
                outcome.levels.len(),
                options.count
            );
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Prints the levels: a table, or one JSON object (the last line of stdout).
fn report(args: &GenerateArgs, outcome: &Outcome) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let levels: Vec<serde_json::Value> = outcome
        .levels
        .iter()
        .enumerate()
        .map(|(k, l)| {
            serde_json::json!({
                "number": outcome.first_number + k,
                "entry": outcome.first_entry + k,
                "solution": l.solution.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                "steps": l.steps(),
                "difficulty": l.difficulty,
                "states": l.states,
                "candidate": l.candidate,
                "removed": l.removed,
                "seconds": l.millis as f64 / 1000.0,
                "rows": l.rows,
            })
        })
        .collect();
    if args.json {
        let v = serde_json::json!({
            "game": args.game.display().to_string(),
            "out": args.out.display().to_string(),
            "levels": levels,
            "proved": outcome.levels.len(),
            "wanted": args.count,
            "candidates": outcome.candidates,
            "states": outcome.states,
            "seconds": outcome.seconds,
            "ended": match outcome.ended {
                Ended::Count => "count",
                Ended::Budget => "budget",
                Ended::Interrupted => "interrupted",
            },
        });
        writeln!(out, "{v}").map_err(output_error)
    } else {
        let mut text = String::from("level  steps  difficulty  states  seconds\n");
        for (k, l) in outcome.levels.iter().enumerate() {
            text += &format!(
                "{:>5}  {:>5}  {:>10}  {:>6}  {:>7.2}\n",
                outcome.first_number + k,
                l.steps(),
                l.difficulty,
                l.states,
                l.millis as f64 / 1000.0
            );
        }
        text += &format!(
            "{} levels proved from {} candidates ({} states, {:.1} s), written to {}\n",
            outcome.levels.len(),
            outcome.candidates,
            outcome.states,
            outcome.seconds,
            args.out.display()
        );
        write!(out, "{text}").map_err(output_error)
    }
}
