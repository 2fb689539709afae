//! Sokoban in the CLI: its solver for `tessera solve`, core's optimal-in-pushes A*
//! ([`tessera_core::sokoban::solve`]) in a wall-clock budget (`--seconds`, checked through the
//! solver's stop callback inside every phase) and a memory budget (`--memory` MiB, default half
//! the machine's available memory: "gave up: memory", exit 1). It prints the pushes, moves, nodes expanded and the solution's
//! commands (one a line, the script text `tessera play` reads), or one JSON object with
//! `--json`; `--record LOG` writes the solution as a log that `tessera replay verify` accepts.
//! The solution is played on the game before anything is printed: a refused command or a
//! game not won at the end is exit 1. No solution is exit 1 too: proved unsolvable, or not found
//! in the budget (the text says which). Sokoban has no subcommands of its own.
//!
//! Its solver, core's push solver with a wall-clock stop callback, the solution checked on the
//! engine, printed (pushes, moves, nodes, commands) or recorded; no solution is exit 1;

use crate::error::{CliError, output_error};
use crate::level_file::start;
use crate::solve_args::{SolveArgs, Solver};
use clap::Subcommand;
use serde_json::json;
use std::io::Write;
use std::time::Duration;
use tessera_bots::BotKind;
use tessera_bots::games::sokoban::SOLVER;
use tessera_core::sokoban::{SolveLimits, SolveOutcome, solve};
use tessera_core::{AnyCommand, AnyState, Level, RuleSet, Rules, Status};

/// The sokoban subcommands: none of its own (its solver is `tessera solve`'s, [`SOLVERS`]).
#[derive(Subcommand, Debug)]
pub enum Command {}

impl Command {
    /// Runs the subcommand.
    pub fn run(&self) -> Result<(), CliError> {
        match *self {}
    }
}

/// `tessera solve` on a sokoban level: the push solver.
/// Events are shown as their JSON.
pub const DESCRIBE: Option<super::Describe> = None;

pub const SOLVERS: &[Solver] = &[Solver { rule_set: RuleSet::Sokoban, run: solve_level }];

/// The sokoban solver's memory budget without `--memory` (besides half of what the process may
/// still allocate): 1 GiB, the tables at most half of it. Real levels' tables are kilobytes
/// (the largest static one, the distances, takes 4 bytes a goal and a cell: 2,000 goals on a
/// 256×256 board, 512 MiB); a 256×256 level of 16,000 goals would take 4.2 GB of distances
/// alone, and now gives up at once ("gave up: memory"). `--memory` raises it.
const DEFAULT_MEMORY: u64 = 1 << 30;

/// Runs `tessera solve` on a sokoban level.
fn solve_level(args: &SolveArgs, level: &Level) -> Result<(), CliError> {
    if let Some(bot) = &args.bot
        && BotKind::from_name(bot) != Some(SOLVER)
    {
        return Err(CliError::BadInput(format!("--bot {bot}: solve has one solver for sokoban, {SOLVER}")));
    }
    let takes = "the sokoban solver takes --seconds (wall clock), --memory, --record, --gif and --json";
    args.refuse(args.nmcs_level.is_some(), "--level", takes)?;
    args.refuse(args.cpu_time, "--cpu-time", takes)?;
    args.refuse(args.seed.is_some(), "--seed", takes)?;
    args.refuse(args.threads.is_some(), "--threads", takes)?;
    args.refuse(
        args.search.is_some(),
        "--search",
        "the sokoban solver is A* in pushes (--search is for puzzlescript)",
    )?;
    args.refuse(
        args.states.is_some(),
        "--states",
        "the sokoban solver is budgeted in --seconds (--states is for puzzlescript)",
    )?;
    args.refuse(
        args.jobs.is_some(),
        "--jobs",
        "the sokoban solver runs in one thread (--jobs is for puzzlescript)",
    )?;
    let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
    let mut game = start(level, &args.level, seed)?;
    let AnyState::Sokoban(state) = &game.state else {
        return Err(CliError::file(&args.level, "not a sokoban level"));
    };
    let budget = Duration::from_secs_f64(args.seconds);
    // Without --memory, at most DEFAULT_MEMORY: a level whose tables would take more gives up
    // at once rather than take gigabytes (issue 66.5).
    let mut max_bytes = crate::solve_args::memory_budget(args)?;
    if args.memory.is_none() {
        max_bytes = max_bytes.min(DEFAULT_MEMORY);
    }
    let limits = SolveLimits { max_nodes: u64::MAX, max_bytes };
    let began = crate::solve_args::started(); // the budget counts from the command's start
    let report = solve(state, limits, &mut || began.elapsed() > budget);
    let elapsed = began.elapsed().as_secs_f64();
    let rate = report.nodes as f64 / elapsed.max(1e-9);
    let name = args.level.display();
    let solution = match report.outcome {
        SolveOutcome::Solved(s) => s,
        SolveOutcome::Unsolvable => {
            return Err(CliError::Failed(format!(
                "{name}: unsolvable: no sequence of pushes solves it ({} nodes expanded, {elapsed:.2} s)",
                report.nodes
            )));
        }
        SolveOutcome::OutOfMemory => {
            return Err(CliError::Failed(format!(
                "{name}: gave up: memory: the search's tables reached half of {} MiB ({} nodes expanded, {elapsed:.2} s); give more --memory",
                limits.max_bytes >> 20,
                report.nodes
            )));
        }
        SolveOutcome::Stopped => {
            return Err(CliError::Failed(format!(
                "{name}: no solution found in {} s ({} nodes expanded, {rate:.0} nodes/s); give more --seconds",
                args.seconds, report.nodes
            )));
        }
    };
    // Play the solution on the game (checking it) and record it.
    let mut log = match &args.record {
        Some(p) => Some(crate::session_log::SessionLog::create_pending(p, level, seed, &game.state)?),
        None => None,
    };
    let mut gif = crate::solve_args::SolutionGif::start(args, &game)?;
    let mut events = Vec::new();
    for (i, c) in solution.commands.iter().enumerate() {
        let cmd = AnyCommand::Sokoban(*c);
        events.clear();
        game.rules.apply(&mut game.state, &cmd, &mut events).map_err(|e| {
            CliError::Failed(format!("{name}: command {} of the solution ({c}) was refused: {e}", i + 1))
        })?;
        if let Some(log) = &mut log {
            log.applied(&cmd, &events, &game.state)?;
        }
        if let Some(g) = &mut gif {
            g.step(&cmd, &events)?;
        }
    }
    if game.rules.status(&game.state) != Status::Won {
        return Err(CliError::Failed(format!("{name}: the solver's solution does not solve the level")));
    }
    if let Some(log) = log {
        log.commit()?;
    }
    if let Some(g) = gif {
        g.write()?;
    }
    let commands: Vec<String> = solution.commands.iter().map(|c| c.to_string()).collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let v = json!({
            "level": name.to_string(),
            "solver": SOLVER.name(),
            "pushes": solution.pushes,
            "moves": solution.moves,
            "nodes": report.nodes,
            "seconds": elapsed,
            "nodes_per_second": rate,
            "commands": commands,
        });
        writeln!(out, "{v}").map_err(output_error)
    } else {
        // The summary to stderr, the commands alone to stdout: a script `tessera play
        // --commands -` reads from a pipe.
        eprintln!(
            "{name}: solved in {} pushes, {} moves ({} commands; {} nodes expanded, {rate:.0} nodes/s, {elapsed:.2} s)",
            solution.pushes,
            solution.moves,
            commands.len(),
            report.nodes,
        );
        let mut text = String::new();
        for c in &commands {
            text += c;
            text.push('\n');
        }
        write!(out, "{text}").map_err(output_error)
    }
}
