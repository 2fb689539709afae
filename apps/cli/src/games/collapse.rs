//! Collapse in the CLI: its solvers for `tessera solve`, the best line nested Monte Carlo search
//! (`nmcs`, the default) or nested rollout policy adaptation (`nrpa`, in `--threads` threads)
//! finds for a collapse level in a time limit (wall clock or the solver threads' CPU time).
//!
//! Its solvers, NMCS (default) or NRPA (`--bot nrpa`, `--threads`) in a wall-clock or CPU-time
//! budget;

use crate::error::{CliError, output_error};
use crate::level_file::start;
use crate::solve_args::{SolveArgs, Solver};
use clap::Subcommand;
use serde_json::json;
use std::io::Write;
use std::time::{Duration, Instant};
use tessera_bots::BotKind;
use tessera_bots::games::collapse::{
    Budget, Deadline, MAX_LEVEL, NMCS, Solution, solve, solve_nrpa, thread_cpu_time,
};
use tessera_core::{AnyCommand, AnyRules, AnyState, Level, RuleSet, Rules};

/// The collapse subcommands: none of its own (its solver is `tessera solve`'s, [`SOLVERS`]).
#[derive(Subcommand, Debug)]
pub enum Command {}

impl Command {
    /// Runs the subcommand.
    pub fn run(&self) -> Result<(), CliError> {
        match *self {}
    }
}

/// `tessera solve` on a collapse level: NMCS (`--bot nmcs --level L --seconds T`).
/// Events are shown as their JSON.
pub const DESCRIBE: Option<super::Describe> = None;

pub const SOLVERS: &[Solver] = &[Solver { rule_set: RuleSet::Collapse, run: solve_level }];

/// Which search `solve` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    Nmcs,
    Nrpa,
}

/// Runs `tessera solve`.
fn solve_level(args: &SolveArgs, level: &Level) -> Result<(), CliError> {
    let search = match args.bot.as_deref() {
        None => Search::Nmcs,
        Some("nrpa") => Search::Nrpa,
        Some(bot) if BotKind::from_name(bot) == Some(NMCS) => Search::Nmcs,
        Some(bot) => {
            return Err(CliError::BadInput(format!(
                "--bot {bot}: solve's collapse solvers are nmcs and nrpa"
            )));
        }
    };
    let (name, default_level, max_level) = match search {
        Search::Nmcs => ("NMCS", 2, 3),
        Search::Nrpa => ("NRPA", 4, MAX_LEVEL),
    };
    let nmcs_level = args.nmcs_level.unwrap_or(default_level);
    if !(1..=max_level).contains(&nmcs_level) {
        return Err(CliError::BadInput(format!(
            "--level {nmcs_level}: the {name} level is 1 to {max_level}"
        )));
    }
    args.refuse(
        args.memory.is_some(),
        "--memory",
        "the collapse solvers keep one line; --memory is for the sokoban and puzzlescript solvers",
    )?;
    args.refuse(
        args.search.is_some(),
        "--search",
        "the collapse solvers are chosen by --bot; --search is for puzzlescript",
    )?;
    args.refuse(
        args.states.is_some(),
        "--states",
        "the collapse solvers are budgeted in --seconds; --states is for puzzlescript",
    )?;
    args.refuse(
        args.jobs.is_some(),
        "--jobs",
        "the collapse solvers take --threads (--jobs is for puzzlescript)",
    )?;
    let threads = args.threads.unwrap_or(2);
    if search == Search::Nmcs {
        args.refuse(
            args.threads.is_some(),
            "--threads",
            "NMCS runs in one thread (--bot nrpa takes --threads)",
        )?;
    } else if !(1..=64).contains(&threads) {
        return Err(CliError::BadInput(format!("--threads {threads}: give 1 to 64 threads")));
    }
    let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
    let mut game = start(level, &args.level, seed)?;
    let (AnyRules::Collapse(rules), AnyState::Collapse(state)) = (&game.rules, &game.state) else {
        return Err(CliError::file(&args.level, "solve plays collapse levels only"));
    };
    let budget = Duration::from_secs_f64(args.seconds);
    if args.cpu_time && thread_cpu_time().is_none() {
        return Err(CliError::BadInput("--cpu-time: this platform has no thread CPU clock".into()));
    }
    let began = Instant::now();
    let solver_seed = args.seed.unwrap_or(0);
    let found: Solution = match search {
        Search::Nmcs => {
            let deadline = if args.cpu_time {
                Deadline::cpu_after(budget).ok_or_else(|| {
                    CliError::BadInput("--cpu-time: this platform has no thread CPU clock".into())
                })?
            } else {
                Deadline::wall_after(budget)
            };
            solve(rules, state, nmcs_level, solver_seed, deadline)
        }
        Search::Nrpa => {
            let nrpa_budget = if args.cpu_time {
                Budget::ThreadCpu(budget / threads as u32)
            } else {
                Budget::Wall(began + budget)
            };
            solve_nrpa(rules, state, nmcs_level, solver_seed, threads, nrpa_budget)
        }
    };
    let cpu = found.cpu.map(|c| c.as_secs_f64());
    let elapsed = began.elapsed().as_secs_f64();
    // Play the line on the game (checking it) and record it.
    let mut log = match &args.record {
        Some(p) => Some(crate::session_log::SessionLog::create_pending(p, level, seed, &game.state)?),
        None => None,
    };
    let mut gif = crate::solve_args::SolutionGif::start(args, &game)?;
    let mut events = Vec::new();
    for (i, &at) in found.taps.iter().enumerate() {
        let cmd = AnyCommand::Collapse(tessera_core::collapse::CollapseCommand::Tap(at));
        events.clear();
        game.rules
            .apply(&mut game.state, &cmd, &mut events)
            .map_err(|e| CliError::Failed(format!("tap {} of the line was refused: {e}", i + 1)))?;
        if let Some(log) = &mut log {
            log.applied(&cmd, &events, &game.state)?;
        }
        if let Some(g) = &mut gif {
            g.step(&cmd, &events)?;
        }
    }
    if let Some(log) = log {
        log.commit()?;
    }
    if let Some(g) = gif {
        g.write()?;
    }
    let score = game.state.score().unwrap_or(0);
    let rate = found.playouts as f64 / elapsed.max(1e-9);
    let cpu_rate = cpu.map(|c| found.playouts as f64 / c.max(1e-9));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let v = json!({
            "level": args.level.display().to_string(),
            "solver": if search == Search::Nmcs { "nmcs" } else { "nrpa" },
            "nmcs_level": nmcs_level,
            "threads": if search == Search::Nmcs { 1 } else { threads },
            "seconds": elapsed,
            "cpu_seconds": cpu,
            "budget": if args.cpu_time { "cpu" } else { "wall" },
            "score": score,
            "taps": found.taps.len(),
            "runs": found.runs,
            "playouts": found.playouts,
            "playouts_per_second": rate,
            "playouts_per_cpu_second": cpu_rate,
            "trace": found.trace.iter().map(|(t, s)| json!([t.as_secs_f64(), s])).collect::<Vec<_>>(),
            "line": found.taps.iter().map(|p| format!("tap {} {}", p.x, p.y)).collect::<Vec<_>>(),
        });
        writeln!(out, "{v}").map_err(output_error)
    } else {
        let cpu_text = cpu.map_or(String::new(), |c| format!(", {c:.1} s CPU"));
        // The summary to stderr, the taps alone to stdout: a script `tessera play --commands -`
        // reads from a pipe.
        eprintln!(
            "{}: score {score} in {} taps ({name} level {}{}, {} runs, {} playouts, {:.0} playouts/s, {elapsed:.1} s{cpu_text})",
            args.level.display(),
            found.taps.len(),
            nmcs_level,
            if search == Search::Nrpa { format!(", {threads} threads") } else { String::new() },
            found.runs,
            found.playouts,
            rate
        );
        let mut text = String::new();
        for p in &found.taps {
            text += &format!("tap {} {}\n", p.x, p.y);
        }
        write!(out, "{text}").map_err(output_error)
    }
}
