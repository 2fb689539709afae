//! `tessera solve LEVEL`: the level's rule set's solver, found in the CLI's registry
//! ([`crate::games::solver`]) by the rule set of the level. The arguments are shared; each
//! solver says which it takes and refuses the others (exit 2), and prints its own result.
//! A level whose rule set has no solver is refused, naming the rule sets that have one.

use crate::error::CliError;
use crate::play::load_level;
use clap::Args;
use std::path::PathBuf;
use tessera_core::{Level, RuleSet};

/// `tessera solve LEVEL [--seconds T] [--search S] [--record LOG] [--json] ...`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A level file, of a rule set that has a solver (another is refused, naming those that do),
    /// or a PuzzleScript game (`.txt`, with `--number`).
    pub level: PathBuf,
    /// With a PuzzleScript game (`.txt`): which playable level, from 1 (as `tessera convert
    /// puzzlescript` numbers its files). Without it, a game of one level is that level.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub number: Option<u64>,
    /// The solver (default: the rule set's own; collapse: `nmcs` or `nrpa`).
    #[arg(long)]
    pub bot: Option<String>,
    /// Nesting level: NMCS 1 to 3 (default 2), NRPA 1 to 5 (default 4).
    #[arg(long = "level", value_name = "LEVEL")]
    pub nmcs_level: Option<u32>,
    /// NRPA only: searches run side by side, one per thread (default 2); with `--cpu-time` the
    /// budget is shared among them.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seconds to search, wall clock (NMCS restarts with fresh generators until then).
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Count `--seconds` as the solver thread's CPU time instead of wall-clock time: a fair
    /// budget on a loaded machine, where wall time also counts other processes (NMCS only).
    #[arg(long)]
    pub cpu_time: bool,
    /// The solver's seed (NMCS only).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The most memory (MiB) the search may take; past it the search gives up ("gave up:
    /// memory"). Sokoban: its tables, default half the memory the machine has available;
    /// PuzzleScript: its stored states, default 1024.
    #[arg(long, value_name = "MIB")]
    pub memory: Option<u64>,
    /// PuzzleScript only: the search, `bfs` (the fewest steps, proved), `astar` or `greedy`
    /// (best-first by the win conditions: fewer states, not proved fewest). Default `astar`.
    #[arg(long, value_name = "SEARCH")]
    pub search: Option<String>,
    /// Record the solution (or best line) as a log.
    #[arg(long, value_name = "LOG")]
    pub record: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

impl SolveArgs {
    /// Refuses a flag this rule set's solver does not take: "`flag`: `why`".
    pub fn refuse(&self, given: bool, flag: &str, why: &str) -> Result<(), CliError> {
        if given { Err(CliError::BadInput(format!("{flag}: {why}"))) } else { Ok(()) }
    }
}

/// The memory budget of a search in bytes: `--memory` MiB, else half of what the machine has
/// available (`MemAvailable` of `/proc/meminfo`), else 2 GiB where that cannot be read.
pub fn memory_budget(args: &SolveArgs) -> Result<u64, CliError> {
    if let Some(mib) = args.memory {
        if mib == 0 || mib > 1 << 30 {
            return Err(CliError::BadInput(format!("--memory {mib}: give 1 to {} MiB", 1u64 << 30)));
        }
        return Ok(mib << 20);
    }
    let available = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib.saturating_mul(1024))
    });
    Ok(available.map_or(2 << 30, |b| b / 2))
}

/// A rule set's solver, registered in its module of [`crate::games`].
pub struct Solver {
    /// The rule set it solves.
    pub rule_set: RuleSet,
    /// Solves `level` (read from `args.level`) and prints the result.
    pub run: fn(&SolveArgs, &Level) -> Result<(), CliError>,
}

/// Runs `tessera solve`.
pub fn run(args: &SolveArgs) -> Result<(), CliError> {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 86_400.0) {
        return Err(CliError::BadInput(format!("--seconds {}: give 0 to 86400 seconds", args.seconds)));
    }
    let level = load_level(Some(&args.level), args.number)?;
    let rule_set = level.rule_set();
    match crate::games::solver(rule_set) {
        Some(solver) => (solver.run)(args, &level),
        None => {
            let with: Vec<&str> = crate::games::solvers().map(|s| s.rule_set.name()).collect();
            Err(CliError::file(
                &args.level,
                format!(
                    "solve has no solver for {rule_set} levels (it solves {} levels)",
                    with.join(" and ")
                ),
            ))
        }
    }
}
