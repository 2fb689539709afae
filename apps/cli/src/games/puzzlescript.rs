//! PuzzleScript in the CLI: `tessera puzzlescript test SUITE` runs a regression suite in the
//! shape of PuzzleScript's own (`testdata.js`, or a JSON array of the same cases) through
//! tessera's engine. Each case compiles its game, loads its level with its seed, plays its
//! inputs (and the `again` turns they queue) and compares the final level, and the sounds played
//! when the case lists them. Each failure is printed with the first differing line; the run ends
//! with `N passed, M failed`, exits 1 on any failure, and writes a JUnit report with `--junit`.
//!
//! `tessera solve LEVEL` on a PuzzleScript level runs core's solver
//! ([`tessera_core::puzzlescript::solve_parallel`], on `--jobs` threads) with the search `--search` names (`mixed` by
//! default; `bfs` proves the fewest steps) in a wall-clock budget (`--seconds`, for the whole command: from its start, reading and compiling
//! the game included; checked through the solver's stop callback before every step it plays), or a budget of states expanded
//! (`--states N`, the same answer on any machine), and a memory budget (`--memory MIB`, default 1024). It prints the
//! steps, states searched and the solution's commands (one a line, the script text `tessera
//! play` reads), or one JSON object with `--json`; `--record LOG` writes the solution as a log
//! that `tessera replay verify` accepts. The solution is played on the game before anything is
//! printed. A realtime game's solution may wait for its clock: a `tick` line is a turn with no
//! input, which a player gets by waiting. Proved unsolvable, no solution in a random game, out of
//! time or out of memory is exit 1 (the text says which).
//!
//! `tessera puzzlescript test SUITE` (a suite in `testdata.js`'s shape through core's
//! `engine::suite`, `N passed, M failed`, `--junit`) and its solver (`--search
//! astar|bfs|greedy|mixed|width`, the solution checked on the engine).

use crate::error::{CliError, Input, output_error, read_input};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tessera_bots::games::puzzlescript::SOLVER;
use tessera_core::puzzlescript::engine::suite;
use tessera_core::puzzlescript::{Search, SolveLimits, SolveOutcome, solve_parallel};
use tessera_core::{AnyCommand, AnyRules, AnyState, Level, RuleSet, Rules, Status};

/// The puzzlescript subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// PuzzleScript: run a regression suite of games, inputs and expected levels.
    Puzzlescript(PuzzleScriptArgs),
    /// PuzzleScript's sounds: one seed's (`--wav OUT.wav` writes it), or a game's list, checked.
    Sound(super::sound::SoundArgs),
}

impl Command {
    /// Runs the subcommand.
    pub fn run(&self) -> Result<(), CliError> {
        match self {
            Command::Puzzlescript(args) => match &args.command {
                PsCommand::Test(t) => test(t),
            },
            Command::Sound(args) => super::sound::run(args),
        }
    }
}

/// `tessera solve` on a PuzzleScript level: the solver, best-first or breadth-first.
/// Events name the game's objects ([`tessera_core::puzzlescript::PuzzleScriptEvent::describe`]).
pub const DESCRIBE: Option<super::Describe> = Some(|state, e| match (state, e) {
    // Aux stays JSON: its bytes, shortened, tell two states apart.
    (_, tessera_core::AnyEvent::PuzzleScript(tessera_core::puzzlescript::PuzzleScriptEvent::Aux { .. })) => {
        None
    }
    (AnyState::PuzzleScript(s), tessera_core::AnyEvent::PuzzleScript(e)) => Some(e.describe(&s.meta().names)),
    _ => None,
});

pub const SOLVERS: &[crate::solve_args::Solver] =
    &[crate::solve_args::Solver { rule_set: RuleSet::PuzzleScript, run: solve_level }];

/// The search `tessera solve` runs without `--search`: A* and greedy in turns solved the most of
/// the suite's levels in 10 s, every level A* solved among them (`docs/solver.md`).
const DEFAULT_SEARCH: Search = Search::Mixed;

/// The search `tessera solve` runs, from `--search`.
fn search_of(args: &crate::solve_args::SolveArgs) -> Result<Search, CliError> {
    match &args.search {
        None => Ok(DEFAULT_SEARCH),
        Some(name) => Search::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Search::ALL.iter().map(|s| s.name()).collect();
            CliError::BadInput(format!("--search {name}: give one of {}", names.join(", ")))
        }),
    }
}

/// Refuses what the PuzzleScript solver does not take; the memory budget (MiB).
fn check_args(args: &crate::solve_args::SolveArgs) -> Result<u64, CliError> {
    if let Some(bot) = &args.bot
        && tessera_bots::BotKind::from_name(bot) != Some(SOLVER)
    {
        return Err(CliError::BadInput(format!(
            "--bot {bot}: solve has one solver for puzzlescript, {SOLVER}"
        )));
    }
    let takes = "the puzzlescript solver takes --seconds (wall clock) or --states, --memory, --search, --jobs, --all, \
                 --record, --gif and --json";
    args.refuse(args.nmcs_level.is_some(), "--level", takes)?;
    args.refuse(args.cpu_time, "--cpu-time", takes)?;
    args.refuse(args.seed.is_some(), "--seed", takes)?;
    args.refuse(args.threads.is_some(), "--threads", takes)?;
    let mib = args.memory.unwrap_or(1024);
    if !(1..=1 << 20).contains(&mib) {
        return Err(CliError::BadInput(format!("--memory {mib}: give 1 to 1048576 MiB")));
    }
    Ok(mib)
}

/// One level searched, its solution played on the rules (the steps only when it wins).
struct Searched {
    search: Search,
    /// The solution, or why there is none (the message `tessera solve` gives, and whether it
    /// is a refusal, exit 2, rather than a failure, exit 1).
    outcome: Result<Vec<tessera_core::puzzlescript::PuzzleScriptCommand>, (bool, String)>,
    /// In a word: solved, unsolvable, random, step work, time, states or memory.
    verdict: &'static str,
    report: tessera_core::puzzlescript::SolveReport,
    seconds: f64,
}

/// Ctrl-C during `solve --all`: the searches under way stop, no level more starts, and the table
/// of the levels searched is printed.
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Searches the level `game` starts on `jobs` threads within the budgets of `args` (the clock
/// counted from `began`) and checks the solution on the rules.
fn search_level(
    args: &crate::solve_args::SolveArgs,
    mut game: tessera_core::Game,
    jobs: usize,
    max_bytes: u64,
    began: Instant,
) -> Result<Searched, CliError> {
    let search = search_of(args)?;
    let name = args.level.display();
    let (AnyRules::PuzzleScript(rules), AnyState::PuzzleScript(state)) = (&game.rules, &game.state) else {
        return Err(CliError::file(&args.level, "not a puzzlescript level"));
    };
    let state = state.clone();
    let budget = Duration::from_secs_f64(args.seconds);
    // A budget in states replaces the clock: the answer is then the same on any machine.
    let limits = SolveLimits { max_nodes: args.states.unwrap_or(u64::MAX), max_bytes };
    let timed = args.states.is_none();
    let stopped = || STOP.load(std::sync::atomic::Ordering::Relaxed);
    let report = solve_parallel(rules, &state, limits, search, jobs, &mut || {
        stopped() || (timed && began.elapsed() > budget)
    });
    let seconds = began.elapsed().as_secs_f64();
    let work = format!(
        "{search}: {} states expanded, {} stored, {:.0} states/s, {seconds:.2} s",
        report.nodes,
        report.states,
        report.nodes as f64 / seconds.max(1e-9)
    );
    let (verdict, outcome) = match &report.outcome {
        SolveOutcome::Solved(s) => ("solved", Ok(s.clone())),
        SolveOutcome::Unsolvable => {
            ("unsolvable", Err((false, format!("{name}: unsolvable: no sequence of steps wins ({work})"))))
        }
        SolveOutcome::Random { steps, followed: true } => (
            "random",
            Err((
                false,
                format!(
                    "{name}: no solution from this seed: the game uses randomness, and no sequence of steps wins \
                     as this seed plays them ({steps} steps drew from its generator; another seed may win; {work})"
                ),
            )),
        ),
        SolveOutcome::Random { steps, followed: false } => (
            "random",
            Err((
                false,
                format!(
                    "{name}: gave up: the game uses randomness: no sequence of steps that draws nothing from its \
                     generator wins ({steps} steps that draw were left out), and following them as this seed \
                     plays them found no solution within the budget ({work})"
                ),
            )),
        ),
        SolveOutcome::TooLong { steps } => (
            "step work",
            Err((
                false,
                format!(
                    "{name}: gave up: step work: no solution among the steps searched, but {steps} steps were too \
                     long to play (past the step work bound, as `play` refuses them) and were left out ({work})"
                ),
            )),
        ),
        SolveOutcome::Stopped if stopped() => {
            ("stopped", Err((false, format!("{name}: stopped by Ctrl-C ({work})"))))
        }
        SolveOutcome::Stopped => match args.states {
            Some(n) => (
                "states",
                Err((
                    false,
                    format!(
                        "{name}: gave up: states: no solution found in {n} states ({work}); give more --states"
                    ),
                )),
            ),
            None => (
                "time",
                Err((
                    false,
                    format!(
                        "{name}: gave up: time: no solution found in {} s ({work}); give more --seconds",
                        args.seconds
                    ),
                )),
            ),
        },
        SolveOutcome::Memory => (
            "memory",
            Err((
                false,
                format!(
                    "{name}: gave up: memory: the stored states reached {} MiB ({work}); give more --memory",
                    max_bytes >> 20
                ),
            )),
        ),
    };
    // Play the solution on the game (checking it).
    if let Ok(solution) = &outcome {
        let mut events = Vec::new();
        for (i, c) in solution.iter().enumerate() {
            let cmd = AnyCommand::PuzzleScript(*c);
            events.clear();
            game.rules.apply(&mut game.state, &cmd, &mut events).map_err(|e| {
                CliError::Failed(format!("{name}: command {} of the solution ({c}) was refused: {e}", i + 1))
            })?;
        }
        if game.rules.status(&game.state) != Status::Won {
            return Err(CliError::Failed(format!("{name}: the solver's solution does not win the level")));
        }
    }
    Ok(Searched { search, outcome, verdict, report, seconds })
}

/// The jobs `--jobs` asks for, else one per core; never more than the cores or the address
/// space hold ([`crate::jobs::threads`], which says so).
fn jobs_of(args: &crate::solve_args::SolveArgs) -> usize {
    crate::jobs::threads(args.jobs.map(usize::from), "--jobs")
}

/// Runs `tessera solve` on a PuzzleScript level.
fn solve_level(args: &crate::solve_args::SolveArgs, level: &Level) -> Result<(), CliError> {
    let mib = check_args(args)?;
    let name = args.level.display();
    // The budget counts from the command's start: reading and compiling the game are in it.
    let began = crate::solve_args::started();
    // Never more than half of what the process may still allocate (its RLIMIT_AS, its cgroup).
    let max_bytes = crate::solve_args::memory_headroom().map_or(mib << 20, |h| (mib << 20).min(h / 2));
    let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
    let game = crate::level_file::start(level, &args.level, seed)?;
    let found = search_level(args, game, jobs_of(args), max_bytes, began)?;
    let report = &found.report;
    let (search, elapsed) = (found.search, found.seconds);
    let rate = report.nodes as f64 / elapsed.max(1e-9);
    let work = format!(
        "{search}: {} states expanded, {} stored, {rate:.0} states/s, {elapsed:.2} s",
        report.nodes, report.states
    );
    let solution = match found.outcome {
        Ok(s) => s,
        Err((true, why)) => return Err(CliError::BadInput(why)),
        Err((false, why)) => return Err(CliError::Failed(why)),
    };
    // The GIF of the solution, played again through the rules.
    if args.gif.is_some() {
        let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
        let mut game = crate::level_file::start(level, &args.level, seed)?;
        let mut gif = crate::solve_args::SolutionGif::start(args, &game)?;
        let mut events = Vec::new();
        for c in &solution {
            let cmd = AnyCommand::PuzzleScript(*c);
            events.clear();
            game.rules
                .apply(&mut game.state, &cmd, &mut events)
                .map_err(|e| CliError::Failed(format!("{name}: the solution ({c}) was refused: {e}")))?;
            if let Some(g) = &mut gif {
                g.step(&cmd, &events)?;
            }
        }
        if let Some(g) = gif {
            g.write()?;
        }
    }
    // Record the solution, played again through the rules.
    if let Some(p) = &args.record {
        let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
        let mut game = crate::level_file::start(level, &args.level, seed)?;
        let mut log = crate::session_log::SessionLog::create_pending(p, level, seed, &game.state)?;
        let mut events = Vec::new();
        for c in &solution {
            let cmd = AnyCommand::PuzzleScript(*c);
            events.clear();
            game.rules
                .apply(&mut game.state, &cmd, &mut events)
                .map_err(|e| CliError::Failed(format!("{name}: the solution ({c}) was refused: {e}")))?;
            log.applied(&cmd, &events, &game.state)?;
        }
        log.commit()?;
    }
    let commands: Vec<String> = solution.iter().map(|c| c.to_string()).collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let v = serde_json::json!({
            "level": name.to_string(),
            "solver": SOLVER.name(),
            "search": search.name(),
            "fewest": search.proves_fewest(),
            "steps": commands.len(),
            "nodes": report.nodes,
            "states": report.states,
            "bytes": report.bytes,
            "seconds": elapsed,
            "nodes_per_second": rate,
            "draws": report.draws,
            "commands": commands,
        });
        writeln!(out, "{v}").map_err(output_error)
    } else {
        let proof = if search.proves_fewest() {
            "the fewest"
        } else {
            "not proved the fewest; --search bfs proves it"
        };
        // The summary to stderr, the steps alone to stdout: a script `tessera play --commands -`
        // reads from a pipe.
        // A solution whose steps draw from the generator wins with this seed only.
        let seeded = match report.draws {
            0 => String::new(),
            n => format!(
                "; {n} of its steps draw from the game's generator: it wins with seed {}, maybe not another",
                level.seed().unwrap_or(tessera_core::DEFAULT_SEED)
            ),
        };
        eprintln!("{name}: solved in {} steps ({proof}{seeded}; {work})", commands.len());
        let mut text = String::new();
        for c in &commands {
            text += c;
            text.push('\n');
        }
        write!(out, "{text}").map_err(output_error)
    }
}

/// `tessera solve GAME.txt --all`: every level of the game, `--jobs` at once (one thread each),
/// a progress bar on a terminal, the table's rows on stdout as the levels finish (in their
/// order), then the summary (or one JSON object at the end). The game is compiled once, and
/// each level started from it (issue 66.8: it was compiled again for each level, quadratic in
/// their number). Ctrl-C stops the searches under way and starts no more: the table then holds
/// the levels searched (those stopped marked so), and the command exits 130. Exit 0 when every
/// level was solved, 1 otherwise.
pub fn solve_all(args: &crate::solve_args::SolveArgs) -> Result<(), CliError> {
    use std::sync::atomic::Ordering;
    let mib = check_args(args)?;
    let search = search_of(args)?;
    if !crate::level_file::is_game(&args.level) {
        return Err(CliError::BadInput(format!(
            "{}: --all solves every level of a PuzzleScript game (a .txt file)",
            args.level.display()
        )));
    }
    let importer = tessera_core::importer("puzzlescript")
        .ok_or_else(|| CliError::BadInput("no puzzlescript importer is registered".into()))?;
    let text = read_input(&args.level, crate::convert::input_of(importer))?;
    let levels = tessera_core::puzzlescript::GameLevels::compile(std::sync::Arc::from(text))
        .map_err(|e| CliError::file(&args.level, e))?;
    let count = levels.count();
    if count == 0 {
        return Err(CliError::file(&args.level, "the game has no playable level"));
    }
    let jobs = jobs_of(args).min(count);
    // The memory budget is shared by the levels searched at once.
    let headroom = crate::solve_args::memory_headroom().map_or(u64::MAX, |h| h / 2);
    let max_bytes = (mib << 20).min(headroom / jobs as u64);
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let bar = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
        let bar = indicatif::ProgressBar::new(count as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{msg} {bar:30} {pos}/{len} levels  {elapsed} (eta {eta})",
        ) {
            bar.set_style(style);
        }
        bar.set_message(format!("solving {}", args.level.display()));
        bar
    });
    let budget = match args.states {
        Some(n) => format!("{n} states"),
        None => format!("{} s", args.seconds),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut print = |text: &str| -> Result<(), CliError> {
        let mut write = || write!(out, "{text}").and_then(|()| out.flush()).map_err(output_error);
        match &bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    };
    if !args.json {
        print(&format!(
            "{}: {count} levels, {search}, {budget} a level, {jobs} at once\nlevel  verdict     steps      states   seconds\n",
            args.level.display()
        ))?;
    }
    let mut tally: std::collections::BTreeMap<&'static str, usize> = std::collections::BTreeMap::new();
    let mut json_rows = Vec::new();
    let mut done = 0usize;
    // One level's row: printed (text) or kept (JSON), counted.
    let mut row = |k: usize, found: Result<Searched, CliError>| -> Result<(), CliError> {
        let (verdict, steps, nodes, seconds, note) = match &found {
            Ok(f) => (
                f.verdict,
                f.outcome.as_ref().ok().map(Vec::len),
                f.report.nodes,
                f.seconds,
                match &f.outcome {
                    Ok(_) if f.report.draws > 0 => {
                        format!(
                            "{} of its steps draw from the generator: this seed's solution",
                            f.report.draws
                        )
                    }
                    Ok(_) => String::new(),
                    Err((_, why)) => why.clone(),
                },
            ),
            Err(e) => ("error", None, 0, 0.0, e.to_string()),
        };
        *tally.entry(verdict).or_default() += 1;
        done += 1;
        if args.json {
            json_rows.push(serde_json::json!({
                "number": k,
                "verdict": verdict,
                "steps": steps,
                "nodes": nodes,
                "seconds": seconds,
                "draws": found.as_ref().map_or(0, |f| f.report.draws),
                "commands": match &found {
                    Ok(Searched { outcome: Ok(c), .. }) => c.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                    _ => Vec::new(),
                },
                "note": note,
            }));
            Ok(())
        } else {
            print(&format!(
                "{k:>5}  {verdict:<10}  {:>5}  {nodes:>10}  {seconds:>8.2}\n",
                steps.map_or("-".to_string(), |s| s.to_string())
            ))
        }
    };
    let next = std::sync::atomic::AtomicUsize::new(1);
    let (send, receive) = std::sync::mpsc::channel::<(usize, Result<Searched, CliError>)>();
    let searched: Result<(), CliError> = std::thread::scope(|scope| {
        let mut started = 0;
        for _ in 0..jobs {
            let (next, levels, bar, send) = (&next, &levels, &bar, send.clone());
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                loop {
                    if STOP.load(Ordering::Relaxed) {
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k > count {
                        break;
                    }
                    let began = Instant::now();
                    let found = levels
                        .start(k - 1, tessera_core::DEFAULT_SEED)
                        .map_err(|e| CliError::file(&args.level, format!("level {k}: {e}")))
                        .and_then(|(rules, state)| {
                            let game = tessera_core::Game {
                                rules: AnyRules::PuzzleScript(rules),
                                state: AnyState::PuzzleScript(state),
                            };
                            search_level(args, game, 1, max_bytes, began)
                        });
                    if let Some(bar) = bar {
                        bar.inc(1);
                    }
                    if send.send((k, found)).is_err() {
                        break;
                    }
                }
            });
            match spawned {
                Ok(_) => started += 1,
                Err(e) if started == 0 => return Err(crate::jobs::spawn_error(&e)),
                Err(_) => break,
            }
        }
        drop(send);
        // Rows arrive in any order; they are printed in the levels' order.
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = 1;
        for (k, found) in receive {
            waiting.insert(k, found);
            while let Some(found) = waiting.remove(&due) {
                if let Err(e) = row(due, found) {
                    next.store(count + 1, Ordering::Relaxed);
                    return Err(e);
                }
                due += 1;
            }
        }
        // After Ctrl-C, levels past a gap (one not started) are shown too.
        for (k, found) in std::mem::take(&mut waiting) {
            row(k, found)?;
        }
        Ok(())
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    searched?;
    let interrupted = STOP.load(Ordering::Relaxed);
    let solved = tally.get("solved").copied().unwrap_or(0);
    let summary: Vec<String> = tally.iter().map(|(v, n)| format!("{n} {v}")).collect();
    if args.json {
        let v = serde_json::json!({
            "game": args.level.display().to_string(),
            "search": search.name(),
            "budget": budget,
            "jobs": jobs,
            "levels": json_rows,
            "solved": solved,
            "interrupted": interrupted,
        });
        print(&format!("{v}\n"))?;
    } else {
        let stop = if interrupted {
            format!("; interrupted: {done} of {count} levels searched")
        } else {
            String::new()
        };
        print(&format!("{solved} of {count} solved ({}){stop}\n", summary.join(", ")))?;
    }
    if interrupted {
        return Err(CliError::Interrupted(format!("interrupted: {done} of {count} levels searched")));
    }
    if solved == count {
        Ok(())
    } else {
        Err(CliError::Failed(format!("{} of {count} levels not solved", count - solved)))
    }
}

/// `tessera puzzlescript ...`.
#[derive(Args, Debug)]
pub struct PuzzleScriptArgs {
    #[command(subcommand)]
    command: PsCommand,
}

/// The `tessera puzzlescript` subcommands.
#[derive(Subcommand, Debug)]
enum PsCommand {
    /// Run a suite: PuzzleScript's `testdata.js` or a JSON array of cases
    /// `[name, [source, inputs, expected, level?, seed?, sounds?]]`.
    Test(TestArgs),
}

/// `tessera puzzlescript test SUITE [--junit FILE] [--filter TEXT]`.
#[derive(Args, Debug)]
struct TestArgs {
    /// The suite: a `.js` file in `testdata.js`'s shape, or a JSON array of the same cases.
    suite: PathBuf,
    /// Also write a JUnit XML report here (atomically).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Run only the cases whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Print every case, passed or failed.
    #[arg(long)]
    verbose: bool,
    /// Cases run at once, on as many threads (default: one per core; never more than the cores,
    /// nor than the address space left holds, which it then says). The report is in the
    /// suite's order whatever the number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    jobs: Option<u16>,
}

/// One case's result for the report.
struct Outcome {
    name: String,
    failure: Option<String>,
    seconds: f64,
    /// The case's heaviest step and its whole work, in units of work (`--verbose` prints them).
    heaviest_step: u64,
    work: u64,
}

fn test(args: &TestArgs) -> Result<(), CliError> {
    let input = Input::Import { name: "a PuzzleScript test suite", limit: 256 << 20 };
    let text = read_input(&args.suite, input)?;
    let cases = suite::parse_testdata(&text).map_err(|e| CliError::file(&args.suite, e))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let began = Instant::now();
    let chosen: Vec<&suite::Case> =
        cases.iter().filter(|c| args.filter.as_ref().is_none_or(|f| c.name.contains(f.as_str()))).collect();
    let jobs = crate::jobs::threads(args.jobs.map(usize::from), "--jobs");
    let mut outcomes = Vec::with_capacity(chosen.len());
    let mut report = |o: Outcome| -> Result<(), CliError> {
        match &o.failure {
            Some(why) => writeln!(out, "FAIL {}: {why}", o.name).map_err(output_error)?,
            None if args.verbose => writeln!(
                out,
                "ok   {} (heaviest step {} units of work, the case {})",
                o.name, o.heaviest_step, o.work
            )
            .map_err(output_error)?,
            None => {}
        }
        outcomes.push(o);
        Ok(())
    };
    run_cases(&chosen, jobs, &mut report)?;
    let failed = outcomes.iter().filter(|o| o.failure.is_some()).count();
    let passed = outcomes.len() - failed;
    eprintln!("{} cases in {:.2} s", outcomes.len(), began.elapsed().as_secs_f64());
    writeln!(out, "{passed} passed, {failed} failed").map_err(output_error)?;
    if let Some(path) = &args.junit {
        let name = args.suite.file_stem().map_or("puzzlescript".into(), |s| s.to_string_lossy().into_owned());
        tessera_replay::atomic_write(path, junit(&name, &outcomes).as_bytes())
            .map_err(|e| CliError::file(path, e))?;
    }
    if failed > 0 {
        return Err(CliError::Failed(format!("{failed} of {} cases failed", outcomes.len())));
    }
    if outcomes.is_empty() {
        return Err(CliError::BadInput(format!("{}: no case to run", args.suite.display())));
    }
    Ok(())
}

/// One case, timed.
fn run_one(case: &suite::Case) -> Outcome {
    let t = Instant::now();
    let result = suite::run_case(case);
    let (heaviest_step, work) = (result.heaviest_step, result.work);
    // (a compile failure comes in words, each error with its line: issue 66.12)
    let failure =
        (!result.passed).then(|| result.first_difference.unwrap_or_else(|| "the level differs".into()));
    Outcome { name: case.name.clone(), failure, seconds: t.elapsed().as_secs_f64(), heaviest_step, work }
}

/// Runs `cases` on `jobs` threads, handing each outcome to `report` in the cases' order as soon
/// as it and every case before it are done.
fn run_cases(
    cases: &[&suite::Case],
    jobs: usize,
    report: &mut dyn FnMut(Outcome) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let jobs = jobs.clamp(1, cases.len().max(1));
    if jobs == 1 {
        return cases.iter().try_for_each(|c| report(run_one(c)));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel::<(usize, Outcome)>();
    std::thread::scope(|scope| {
        let mut started = 0;
        for _ in 0..jobs {
            let (next, send) = (&next, send.clone());
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    if send.send((i, run_one(case))).is_err() {
                        break;
                    }
                }
            });
            match spawned {
                Ok(_) => started += 1,
                // The threads started run every case; none started is an error, not an abort.
                Err(e) if started == 0 => return Err(crate::jobs::spawn_error(&e)),
                Err(_) => break,
            }
        }
        drop(send);
        // Outcomes arrive in any order; they are reported in the suite's.
        let mut waiting: std::collections::BTreeMap<usize, Outcome> = std::collections::BTreeMap::new();
        let mut due = 0;
        for (i, o) in receive {
            waiting.insert(i, o);
            while let Some(o) = waiting.remove(&due) {
                due += 1;
                if let Err(e) = report(o) {
                    // Stop the workers: they find no case left.
                    next.store(cases.len(), std::sync::atomic::Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(())
    })
}

/// `s` with XML's special characters escaped.
fn xml_escape(s: &str) -> String {
    let mut x = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => x.push_str("&amp;"),
            '<' => x.push_str("&lt;"),
            '>' => x.push_str("&gt;"),
            '"' => x.push_str("&quot;"),
            '\'' => x.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => x.push_str(&format!("&#{};", c as u32)),
            c => x.push(c),
        }
    }
    x
}

/// The results as a JUnit XML report: one `testsuite`, one `testcase` per case.
fn junit(suite: &str, outcomes: &[Outcome]) -> String {
    use std::fmt::Write as _;
    let failures = outcomes.iter().filter(|o| o.failure.is_some()).count();
    let total: f64 = outcomes.iter().map(|o| o.seconds).sum();
    let suite = xml_escape(suite);
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let n = outcomes.len();
    let _ = writeln!(
        x,
        "<testsuites name=\"{suite}\" tests=\"{n}\" failures=\"{failures}\" time=\"{total:.3}\">"
    );
    let _ = writeln!(
        x,
        "  <testsuite name=\"{suite}\" tests=\"{n}\" failures=\"{failures}\" time=\"{total:.3}\">"
    );
    for o in outcomes {
        let open = format!(
            "    <testcase name=\"{}\" classname=\"{suite}\" time=\"{:.3}\"",
            xml_escape(&o.name),
            o.seconds
        );
        match &o.failure {
            None => {
                let _ = writeln!(x, "{open}/>");
            }
            Some(why) => {
                let first = xml_escape(why.lines().next().unwrap_or_default());
                let _ = writeln!(
                    x,
                    "{open}>\n      <failure message=\"{first}\">{}</failure>\n    </testcase>",
                    xml_escape(why)
                );
            }
        }
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}
