//! Collapse in the CLI: its solver for `tessera solve`, the best line nested Monte Carlo search
//! finds for a collapse level in a time limit (wall clock or the solver thread's CPU time).

use crate::bots::start;
use crate::error::{CliError, output_error};
use crate::solve::{SolveArgs, Solver};
use clap::Subcommand;
use serde_json::json;
use std::io::Write;
use std::time::{Duration, Instant};
use tessera_bots::BotKind;
use tessera_bots::games::collapse::{Deadline, NMCS, solve, thread_cpu_time};
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
pub const SOLVERS: &[Solver] = &[Solver { rule_set: RuleSet::Collapse, run: solve_level }];

/// Runs `tessera solve`.
fn solve_level(args: &SolveArgs, level: &Level) -> Result<(), CliError> {
    if let Some(bot) = &args.bot
        && BotKind::from_name(bot) != Some(NMCS)
    {
        return Err(CliError::BadInput(format!("--bot {bot}: solve has one solver for collapse, nmcs")));
    }
    let nmcs_level = args.nmcs_level.unwrap_or(2);
    if !(1..=3).contains(&nmcs_level) {
        return Err(CliError::BadInput(format!("--level {nmcs_level}: the NMCS level is 1 to 3")));
    }
    let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
    let mut game = start(level, &args.level, seed)?;
    let (AnyRules::Collapse(rules), AnyState::Collapse(state)) = (&game.rules, &game.state) else {
        return Err(CliError::file(&args.level, "solve plays collapse levels only"));
    };
    let budget = Duration::from_secs_f64(args.seconds);
    let deadline = if args.cpu_time {
        Deadline::cpu_after(budget)
            .ok_or_else(|| CliError::BadInput("--cpu-time: this platform has no thread CPU clock".into()))?
    } else {
        Deadline::wall_after(budget)
    };
    let began = Instant::now();
    let cpu_began = thread_cpu_time();
    let found = solve(rules, state, nmcs_level, args.seed.unwrap_or(0), deadline);
    let elapsed = began.elapsed().as_secs_f64();
    let cpu = cpu_began.and_then(|b| Some(thread_cpu_time()?.saturating_sub(b).as_secs_f64()));
    // Play the line on the game (checking it) and record it.
    let mut log = match &args.record {
        Some(p) => Some(crate::replay::SessionLog::create(p, level, seed, &game.state)?),
        None => None,
    };
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
    }
    let score = game.state.score().unwrap_or(0);
    let rate = found.playouts as f64 / elapsed.max(1e-9);
    let cpu_rate = cpu.map(|c| found.playouts as f64 / c.max(1e-9));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let v = json!({
            "level": args.level.display().to_string(),
            "nmcs_level": nmcs_level,
            "seconds": elapsed,
            "cpu_seconds": cpu,
            "budget": if args.cpu_time { "cpu" } else { "wall" },
            "score": score,
            "taps": found.taps.len(),
            "runs": found.runs,
            "playouts": found.playouts,
            "playouts_per_second": rate,
            "playouts_per_cpu_second": cpu_rate,
            "line": found.taps.iter().map(|p| format!("tap {} {}", p.x, p.y)).collect::<Vec<_>>(),
        });
        writeln!(out, "{v}").map_err(output_error)
    } else {
        let cpu_text = cpu.map_or(String::new(), |c| format!(", {c:.1} s CPU"));
        writeln!(
            out,
            "{}: score {score} in {} taps (NMCS level {}, {} runs, {} playouts, {:.0} playouts/s, {elapsed:.1} s{cpu_text})",
            args.level.display(),
            found.taps.len(),
            nmcs_level,
            found.runs,
            found.playouts,
            rate
        )
        .map_err(output_error)
    }
}
