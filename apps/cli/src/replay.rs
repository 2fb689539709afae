//! `tessera replay`: QA over recorded logs (info, verify, show, diff, export, repair, note, gif; pin
//! and check for regression folders; reduce, in `reduce.rs`), and
//! the recording behind `tessera play --record`.
//!
//! Exit codes: 0 ok; 1 `verify` found a divergence or `diff` found a difference; 2 bad input (a
//! file that is not a log, a step beyond the end, a damaged log). A log whose last frame is cut
//! short (a crash while recording) is read with every whole frame and a warning on stderr;
//! `repair` rewrites it, and `verify` fails on it (exit 1) unless `--allow-torn-tail`. Bytes
//! after the last whole frame that are not a cut frame (a damaged length, see the log format's
//! "Cut tails") are damage: exit 2.
//!
//! `tessera replay` (info, verify, show, diff, export, repair, note, pin, check) and the recording
//! behind `play --record`;

use crate::describe::{event_line, event_words};
use crate::error::CliError;
use crate::gif::{GifLook, write_gif};
use clap::{Args, Subcommand};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use tessera_core::{AnyCommand, AnyEvent, AnyState, Rules};
use tessera_replay::{Log, LogError, StepRecord, atomic_write, diff, export_json, verify};

/// Arguments of `tessera replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(subcommand)]
    command: ReplayCommand,
}

#[derive(Subcommand, Debug)]
enum ReplayCommand {
    /// What a log holds: rule set, versions, seed, steps, keyframes, notes, size.
    Info {
        /// The log file.
        log: PathBuf,
    },
    /// Re-execute the log with the rules of the version that recorded it (today's when this
    /// build no longer keeps it); exit 1 at the first divergence, or when the log ends in a
    /// cut-short frame (unless --allow-torn-tail).
    Verify {
        /// The log file.
        log: PathBuf,
        /// Accept a log whose last frame was cut short by a crash: verify its whole frames and
        /// exit 0 if they replay (the dropped bytes are still reported).
        #[arg(long)]
        allow_torn_tail: bool,
    },
    /// The board at a step (default: the last), with that step's command and events.
    Show {
        /// The log file.
        log: PathBuf,
        /// The step (0 is the start).
        #[arg(long)]
        step: Option<u64>,
        /// Print one JSON object instead of the board.
        #[arg(long)]
        json: bool,
    },
    /// The first step where two logs part; exit 1 when they differ.
    Diff {
        /// The first log.
        a: PathBuf,
        /// The second log.
        b: PathBuf,
    },
    /// The log as JSON lines: the header, then one line per frame.
    Export {
        /// The log file.
        log: PathBuf,
        /// JSON lines (the only format so far).
        #[arg(long)]
        json: bool,
    },
    /// Rewrite a log cut short by a crash with its whole frames only.
    Repair {
        /// The log file.
        log: PathBuf,
        /// Where to write the repaired log (default: over the log itself, atomically).
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Keep a log as a regression test: copy it into a regression folder with a sidecar (what it
    /// guards, its steps and final hash, rule set and rules version). Never overwrites.
    Pin {
        /// The log file.
        log: PathBuf,
        /// The regression folder.
        #[arg(long, default_value = tessera_replay::DEFAULT_REGRESSION_DIR)]
        into: PathBuf,
        /// The regression's name (default: the log's file name without its extension).
        #[arg(long)]
        name: Option<PathBuf>,
        /// What the log guards (stored in the sidecar).
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Verify every log of a regression folder in parallel: one line per log and a summary;
    /// exit 1 if any fails, 2 if any cannot be read (a log without its sidecar, an entry that is
    /// not a regular file) or the folder holds no log.
    Check {
        /// The regression folder.
        dir: PathBuf,
        /// Check logs without a sidecar on their replay alone (golden logs) instead of
        /// reporting them as errors.
        #[arg(long)]
        allow_unpinned: bool,
        /// Also write a JUnit XML report here (one test case per log).
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Logs checked at once (default: the number of CPUs).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        jobs: Option<u64>,
    },
    /// Shrink a log: find a smaller log for which a test still holds (see `--help`).
    Reduce(crate::reduce::ReduceArgs),
    /// An animated GIF of the log: its start, then a frame a turn (a PuzzleScript step's `again`
    /// turns each get one, as PuzzleScript's Ctrl+K records them), PuzzleScript games with their
    /// sprites, the other rule sets as their board's text (docs/gif.md).
    Gif {
        /// The log file.
        log: PathBuf,
        /// Where to write the GIF (replaced atomically).
        #[arg(long, short, value_name = "OUT.gif")]
        out: PathBuf,
        #[command(flatten)]
        look: GifLook,
    },
    /// Add a QA note (annotation or bookmark) at a step of a log.
    Note {
        /// The log file.
        log: PathBuf,
        /// The step the note is about (default: the last).
        #[arg(long)]
        step: Option<u64>,
        /// The note.
        text: String,
    },
}

fn open(path: &Path) -> Result<Log, CliError> {
    let log = Log::open(path).map_err(|e| CliError::file(path, e))?;
    if log.dropped_bytes() > 0 {
        eprintln!(
            "tessera: {}: the last frame is cut short; {} bytes after byte {} dropped (tessera replay repair rewrites it)",
            path.display(),
            log.dropped_bytes(),
            log.whole_bytes().len()
        );
    }
    Ok(log)
}

fn io_err(e: std::io::Error) -> CliError {
    crate::error::output_error(e)
}

fn log_err(path: &Path) -> impl Fn(LogError) -> CliError + '_ {
    move |e| CliError::file(path, e)
}

/// Runs `tessera replay`.
pub fn run(args: &ReplayArgs) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match &args.command {
        ReplayCommand::Info { log: path } => info(&open(path)?, path, &mut out),
        ReplayCommand::Verify { log: path, allow_torn_tail } => {
            let log = open(path)?;
            let r = verify(&log).map_err(log_err(path))?;
            let h = log.header();
            if r.version_dropped() {
                writeln!(
                    out,
                    "note: recorded with {} rules version {}, which this build does not keep (it keeps {}..={}); replayed with today's",
                    h.rule_set,
                    r.recorded_rules_version,
                    h.rule_set.oldest_version(),
                    r.current_rules_version
                )
                .map_err(io_err)?;
            } else if r.version_differs() {
                writeln!(
                    out,
                    "{} rules version {} (today's is {}; replayed with version {}'s rules, kept for its logs)",
                    h.rule_set, r.recorded_rules_version, r.current_rules_version, r.recorded_rules_version
                )
                .map_err(io_err)?;
            } else {
                writeln!(out, "{} rules version {} (today's)", h.rule_set, r.current_rules_version)
                    .map_err(io_err)?;
            }
            match &r.divergence {
                // A cut tail was never checked: not ok unless the caller accepts that.
                None if !r.complete() => {
                    let cut = format!(
                        "{} whole steps replay exactly, but the log ends in a cut-short frame: {} bytes after byte {} were not checked",
                        r.steps,
                        r.dropped_bytes,
                        log.whole_bytes().len()
                    );
                    if *allow_torn_tail {
                        writeln!(out, "ok (torn tail allowed): {cut}").map_err(io_err)
                    } else {
                        writeln!(out, "not verified: {cut} (--allow-torn-tail accepts it)")
                            .map_err(io_err)?;
                        Err(CliError::Failed(format!(
                            "{}: {} bytes at the end were not read (a cut-short last frame)",
                            path.display(),
                            r.dropped_bytes
                        )))
                    }
                }
                None => writeln!(out, "ok: {} steps replay exactly", r.steps).map_err(io_err),
                Some(d) => {
                    writeln!(out, "divergence after {} matching steps of {}:\n{d}", r.steps_ok, r.steps)
                        .map_err(io_err)?;
                    Err(CliError::Failed(format!("{}: diverges at step {}", path.display(), d.step)))
                }
            }
        }
        ReplayCommand::Show { log: path, step, json } => {
            let log = open(path)?;
            show(&log, path, step.unwrap_or(log.steps()), *json, &mut out)
        }
        ReplayCommand::Diff { a, b } => {
            let (la, lb) = (open(a)?, open(b)?);
            let d = diff(&la, &lb)
                .map_err(|e| CliError::BadInput(format!("{} / {}: {e}", a.display(), b.display())))?;
            for (field, x, y) in &d.header {
                writeln!(out, "header {field} differs:\n  a: {x}\n  b: {y}").map_err(io_err)?;
            }
            match &d.first_difference {
                None => writeln!(out, "the steps are identical ({} steps)", d.steps.0).map_err(io_err)?,
                Some((step, sa, sb)) => {
                    writeln!(
                        out,
                        "the logs part at step {step} (a has {} steps, b {}):",
                        d.steps.0, d.steps.1
                    )
                    .map_err(io_err)?;
                    for (name, side) in [("a", sa), ("b", sb)] {
                        match side {
                            None => writeln!(out, "  {name}: (ended)"),
                            Some(s) => writeln!(
                                out,
                                "  {name}: {} -> hash {:016x}\n     {}",
                                s.command,
                                s.hash,
                                events_text(&s.events, "\n     ")
                            ),
                        }
                        .map_err(io_err)?;
                    }
                }
            }
            if d.same() { Ok(()) } else { Err(CliError::Failed("the logs differ".into())) }
        }
        ReplayCommand::Export { log: path, json: _ } => {
            let log = open(path)?;
            export_json(&log, &mut out).map_err(|e| match e {
                LogError::Io(m) if m.contains("Broken pipe") => CliError::OutputClosed,
                e => CliError::file(path, e),
            })
        }
        ReplayCommand::Repair { log: path, output } => {
            report_stale(path, &mut out)?;
            let log = open(path)?;
            let target = output.as_deref().unwrap_or(path);
            if log.dropped_bytes() == 0 && target == path.as_path() {
                return writeln!(out, "{}: nothing to repair ({} steps)", path.display(), log.steps())
                    .map_err(io_err);
            }
            atomic_write(target, log.whole_bytes()).map_err(|e| CliError::file(target, e))?;
            writeln!(
                out,
                "{}: wrote {} steps ({} bytes), dropped {} bytes",
                target.display(),
                log.steps(),
                log.whole_bytes().len(),
                log.dropped_bytes()
            )
            .map_err(io_err)
        }
        ReplayCommand::Pin { log: path, into, name, note } => {
            let log = open(path)?;
            let name = match name {
                Some(n) => n.to_string_lossy().into_owned(),
                None => tessera_replay::default_name(path),
            };
            let pinned = tessera_replay::pin(&log, path, into, &name, note).map_err(|e| match e {
                tessera_replay::RegressError::Diverges { .. } => CliError::Failed(e.to_string()),
                e => CliError::BadInput(e.to_string()),
            })?;
            let s = &pinned.sidecar_data;
            if let Some(old) = &pinned.replaced {
                writeln!(
                    out,
                    "replaced {}, half of a pin that was stopped before it finished",
                    old.display()
                )
                .map_err(io_err)?;
            }
            writeln!(
                out,
                "pinned {} ({} steps, {} rules version {}, final hash {})\n  sidecar {}",
                pinned.log.display(),
                s.steps,
                s.rule_set,
                s.rules_version,
                s.final_hash,
                pinned.sidecar.display()
            )
            .map_err(io_err)
        }
        ReplayCommand::Check { dir, junit, jobs, allow_unpinned } => {
            check(dir, junit.as_deref(), *jobs, *allow_unpinned, &mut out)
        }
        ReplayCommand::Reduce(args) => crate::reduce::run(args, &mut out),
        ReplayCommand::Gif { log: path, out: out_path, look } => {
            // A target that cannot be replaced is refused before the log is drawn.
            tessera_replay::check_target(out_path).map_err(|e| CliError::BadInput(e.to_string()))?;
            let log = open(path)?;
            let gif = tessera_replay::gif::log_gif(&log, &look.options()).map_err(|e| match e {
                tessera_replay::gif::GifError::Log(e) => CliError::file(path, e),
                e => CliError::BadInput(e.to_string()),
            })?;
            write_gif(out_path, &gif, &mut out)
        }
        ReplayCommand::Note { log: path, step, text } => {
            let log = open(path)?;
            let step = step.unwrap_or(log.steps());
            let bytes = log.with_note(step, text).map_err(log_err(path))?;
            atomic_write(path, &bytes).map_err(|e| CliError::file(path, e))?;
            writeln!(out, "{}: note at step {step}", path.display()).map_err(io_err)
        }
    }
}

/// `tessera replay check DIR`.
fn check(
    dir: &Path,
    junit: Option<&Path>,
    jobs: Option<u64>,
    allow_unpinned: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    use tessera_replay::CheckOutcome;
    let jobs =
        jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), |j| j as usize);
    let started = std::time::Instant::now();
    let results = tessera_replay::check_dir_with(dir, jobs, !allow_unpinned)
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    if results.is_empty() {
        return Err(CliError::file(dir, "no logs (*.tlog) to check"));
    }
    let (mut passed, mut failed, mut unreadable) = (0, 0, 0);
    for r in &results {
        match &r.outcome {
            CheckOutcome::Passed { steps } => {
                passed += 1;
                writeln!(out, "ok     {} ({steps} steps, {:.3} s)", r.name, r.time.as_secs_f64())
            }
            CheckOutcome::Failed(m) => {
                failed += 1;
                writeln!(out, "FAIL   {}: {}", r.name, m.replace('\n', "\n       "))
            }
            CheckOutcome::Unreadable(m) => {
                unreadable += 1;
                writeln!(out, "ERROR  {}: {m}", r.name)
            }
        }
        .map_err(io_err)?;
    }
    writeln!(
        out,
        "{} logs in {}: {passed} passed, {failed} failed, {unreadable} unreadable ({:.2} s, {jobs} jobs)",
        results.len(),
        dir.display(),
        started.elapsed().as_secs_f64()
    )
    .map_err(io_err)?;
    if let Some(path) = junit {
        let suite = format!("tessera replay check {}", dir.display());
        atomic_write(path, tessera_replay::junit_xml(&suite, &results).as_bytes())
            .map_err(|e| CliError::file(path, e))?;
    }
    if unreadable > 0 {
        Err(CliError::BadInput(format!("{unreadable} of {} logs could not be read", results.len())))
    } else if failed > 0 {
        Err(CliError::Failed(format!("{failed} of {} regression logs failed", results.len())))
    } else {
        Ok(())
    }
}

/// Removes the temporary files a killed save left beside `path` and says so; reports those of
/// a process that may still be running.
fn report_stale(path: &Path, out: &mut impl Write) -> Result<(), CliError> {
    let stale = tessera_replay::remove_stale_temps(path).map_err(|e| CliError::file(path, e))?;
    for t in &stale.removed {
        writeln!(out, "{}: removed a stale temporary file left by a killed save", t.display())
            .map_err(io_err)?;
    }
    for t in &stale.kept {
        writeln!(out, "{}: a temporary file of a save that may still be running; left alone", t.display())
            .map_err(io_err)?;
    }
    Ok(())
}

fn events_text(events: &[AnyEvent], sep: &str) -> String {
    events.iter().map(event_line).collect::<Vec<_>>().join(sep)
}

fn info(log: &Log, path: &Path, out: &mut impl Write) -> Result<(), CliError> {
    let h = log.header();
    let level: serde_json::Value = serde_json::from_str(&h.level_json).unwrap_or_default();
    let last_hash = match log.steps() {
        0 => h.state_hash(&log.start().map_err(log_err(path))?.state),
        n => {
            let mut rec = StepRecord::default();
            log.read_step(n, &mut rec).map_err(log_err(path))?;
            rec.hash
        }
    };
    let mut w = || -> std::io::Result<()> {
        writeln!(out, "file:              {} ({} bytes)", path.display(), log.whole_bytes().len())?;
        let today = tessera_replay::FORMAT_VERSION;
        let hash = if h.format_version <= 1 { "xxh3 of the encoding" } else { "incremental" };
        let note = if h.format_version == today { String::new() } else { format!("; today's is {today}") };
        writeln!(out, "format version:    {} (state hash: {hash}{note})", h.format_version)?;
        writeln!(out, "rule set:          {}", h.rule_set)?;
        let today = h.rule_set.version();
        let note = if today == h.rules_version {
            " (today's)".to_string()
        } else if h.rule_set.keeps_version(h.rules_version) {
            format!(" (today's is {today}; this build keeps version {})", h.rules_version)
        } else {
            format!(" (today's is {today}; this build does not keep version {})", h.rules_version)
        };
        writeln!(out, "rules version:     {}{note}", h.rules_version)?;
        if let Some(name) = level.get("name").and_then(|n| n.as_str()) {
            writeln!(out, "level:             {name}")?;
        }
        writeln!(out, "seed:              {}", h.seed)?;
        writeln!(out, "steps:             {}", log.steps())?;
        writeln!(out, "frames:            {}", log.frames().len())?;
        let kf: Vec<u64> = log.keyframe_steps().collect();
        writeln!(out, "keyframes:         {} (every {} steps)", kf.len(), h.keyframe_interval)?;
        writeln!(out, "last state hash:   {last_hash:016x}")?;
        if log.dropped_bytes() > 0 {
            writeln!(
                out,
                "dropped bytes:     {} (cut short; run tessera replay repair)",
                log.dropped_bytes()
            )?;
        }
        writeln!(out, "notes:             {}", log.notes().len())?;
        for n in log.notes() {
            writeln!(out, "  step {}: {}", n.step, n.text)?;
        }
        Ok(())
    };
    w().map_err(io_err)
}

fn show(log: &Log, path: &Path, step: u64, json: bool, out: &mut impl Write) -> Result<(), CliError> {
    let state: AnyState = log.state_at(step).map_err(log_err(path))?;
    let mut rec = StepRecord::default();
    if step > 0 {
        log.read_step(step, &mut rec).map_err(log_err(path))?;
    }
    let status = log.rules().status(&state);
    let command = rec.command.as_ref().map(AnyCommand::to_string);
    let notes: Vec<&str> = log.notes().iter().filter(|n| n.step == step).map(|n| n.text.as_str()).collect();
    let r = if json {
        let v = json!({
            "step": step,
            "steps": log.steps(),
            "command": command,
            "events": rec.events.iter().map(AnyEvent::to_json).collect::<Vec<_>>(),
            "board": state.board_json(),
            "score": state.score(),
            "status": status.name(),
            "hash": format!("{:016x}", log.header().state_hash(&state)),
            "notes": notes,
        });
        writeln!(out, "{v}")
    } else {
        let head = match &command {
            Some(c) => format!("step {step} of {}: {c}", log.steps()),
            None => format!("step 0 of {}: start", log.steps()),
        };
        (|| {
            writeln!(out, "{head}")?;
            if !rec.events.is_empty() {
                let words: Vec<String> = rec.events.iter().map(|e| event_words(e, &state)).collect();
                writeln!(out, "  {}", words.join("\n  "))?;
            }
            write!(out, "{}", state.render())?;
            let score = state.score().map(|s| format!("score {s} · ")).unwrap_or_default();
            writeln!(out, "{score}{status} · hash {:016x}", log.header().state_hash(&state))?;
            for n in notes {
                writeln!(out, "note: {n}")?;
            }
            Ok(())
        })()
    };
    r.map_err(io_err)
}
