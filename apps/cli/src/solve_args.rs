//! What `tessera solve` is given and what every solver shares: the arguments ([`SolveArgs`]),
//! the memory a search may take, the clock `--seconds` counts from, and the registry entry a
//! rule set's solver makes ([`Solver`]).

use crate::error::CliError;
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
    /// PuzzleScript only: the search, `bfs` (the fewest steps, proved), `astar`, `greedy`,
    /// `width` or `mixed` (best-first by the win conditions: fewer states, not proved fewest;
    /// `width` expands first the states that put an object where none was before; `mixed` takes
    /// A*'s, greedy's and width's next states in turns). Default `mixed`.
    #[arg(long, value_name = "SEARCH")]
    pub search: Option<String>,
    /// PuzzleScript only: the most states the search expands, instead of the clock: the same
    /// answer on any machine, however loaded (`--seconds` is then not used).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub states: Option<u64>,
    /// PuzzleScript only: threads one level's search runs on (default: one per core; never
    /// more than the cores, nor than the address space left holds, which it then says); the
    /// solution, states and counts are the same for any number. With `--all`: levels searched
    /// at once, one thread each.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// PuzzleScript only: solve every level of the game (`.txt`), each within `--seconds` (from
    /// its own start) or `--states`, on every core, with a progress bar; then a table of the
    /// levels (steps, states, seconds) and a summary.
    #[arg(long, conflicts_with_all = ["number", "record"])]
    pub all: bool,
    /// Record the solution (or best line) as a log.
    #[arg(long, value_name = "LOG")]
    pub record: Option<PathBuf>,
    /// Write the solution (or best line) as an animated GIF: the start, then a frame a turn
    /// (PuzzleScript's `again` turns included), as `tessera replay gif` draws a log.
    #[arg(long, value_name = "OUT.gif", conflicts_with = "all")]
    pub gif: Option<PathBuf>,
    /// How `--gif` draws and times the GIF.
    #[command(flatten)]
    pub gif_look: crate::gif::GifLook,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The GIF `--gif` asks for, drawn as the solution is played.
pub struct SolutionGif {
    path: PathBuf,
    maker: tessera_replay::gif::GifMaker,
}

impl SolutionGif {
    /// A GIF of the line played from `game` when `--gif` asks for one (its path checked now,
    /// before the line is played).
    pub fn start(args: &SolveArgs, game: &tessera_core::Game) -> Result<Option<SolutionGif>, CliError> {
        let Some(path) = &args.gif else { return Ok(None) };
        tessera_replay::check_target(path).map_err(|e| CliError::BadInput(e.to_string()))?;
        let maker = tessera_replay::gif::GifMaker::new(&game.rules, &game.state, &args.gif_look.options())
            .map_err(|e| CliError::file(path, e))?;
        Ok(Some(SolutionGif { path: path.clone(), maker }))
    }

    /// The line's next step, as the rules played it.
    pub fn step(
        &mut self,
        command: &tessera_core::AnyCommand,
        events: &[tessera_core::AnyEvent],
    ) -> Result<(), CliError> {
        self.maker.step(command, events).map_err(|e| CliError::file(&self.path, e))
    }

    /// Writes the GIF (atomically), saying so on stderr (stdout keeps the solution's lines).
    pub fn write(self) -> Result<(), CliError> {
        let gif = self.maker.finish().map_err(|e| CliError::file(&self.path, e))?;
        crate::gif::write_gif(&self.path, &gif, &mut std::io::stderr())
    }
}

impl SolveArgs {
    /// Refuses a flag this rule set's solver does not take: "`flag`: `why`".
    pub fn refuse(&self, given: bool, flag: &str, why: &str) -> Result<(), CliError> {
        if given { Err(CliError::BadInput(format!("{flag}: {why}"))) } else { Ok(()) }
    }
}

/// The memory budget of a search in bytes: `--memory` MiB, else half of what this process may
/// still allocate ([`memory_headroom`]), else 2 GiB where that cannot be read. A `--memory`
/// larger than three quarters of the headroom is cut to that, so the search gives up ("gave up:
/// memory") before an allocation fails (issue 37.6).
pub fn memory_budget(args: &SolveArgs) -> Result<u64, CliError> {
    let headroom = memory_headroom();
    if let Some(mib) = args.memory {
        if mib == 0 || mib > 1 << 30 {
            return Err(CliError::BadInput(format!("--memory {mib}: give 1 to {} MiB", 1u64 << 30)));
        }
        return Ok(headroom.map_or(mib << 20, |h| (mib << 20).min(h / 4 * 3)));
    }
    Ok(headroom.map_or(2 << 30, |b| b / 2))
}

/// What this process may still allocate, in bytes: the least of the machine's available memory
/// (`MemAvailable` of `/proc/meminfo`), the address-space limit (`RLIMIT_AS`, as `prlimit --as`
/// or `ulimit -v` set it) less the address space in use (`VmSize`), and, for the cgroup the
/// process runs in and each above it, `memory.max` less `memory.current` (cgroup v2; v1's
/// `memory.limit_in_bytes` less `memory.usage_in_bytes`). `None` where none can be read.
pub fn memory_headroom() -> Option<u64> {
    let mut least: Option<u64> = None;
    let mut take = |b: Option<u64>| {
        if let Some(b) = b {
            least = Some(least.map_or(b, |l| l.min(b)));
        }
    };
    let kib_field = |file: &str, key: &str| -> Option<u64> {
        let text = std::fs::read_to_string(file).ok()?;
        let line = text.lines().find(|l| l.starts_with(key))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib.saturating_mul(1024))
    };
    take(kib_field("/proc/meminfo", "MemAvailable:"));
    #[cfg(unix)]
    if let Ok((soft, _)) = nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_AS)
        && soft != nix::sys::resource::RLIM_INFINITY
    {
        let used = kib_field("/proc/self/status", "VmSize:").unwrap_or(0);
        take(Some(soft.saturating_sub(used)));
    }
    take(cgroup_headroom());
    least
}

/// `memory.max` less `memory.current` of this process's cgroup and each above it (the least),
/// or the cgroup v1 memory controller's limit less its usage.
fn cgroup_headroom() -> Option<u64> {
    let read = |p: &std::path::Path| -> Option<u64> { std::fs::read_to_string(p).ok()?.trim().parse().ok() };
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut least: Option<u64> = None;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (root, max, current) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes")
        } else {
            continue;
        };
        let mut dir = std::path::PathBuf::from(root).join(path.trim_start_matches('/'));
        loop {
            if let (Some(max), Some(current)) = (read(&dir.join(max)), read(&dir.join(current))) {
                let free = max.saturating_sub(current);
                least = Some(least.map_or(free, |l| l.min(free)));
            }
            if dir.as_path() == std::path::Path::new(root) || !dir.pop() {
                break;
            }
        }
    }
    least
}

/// A rule set's solver, registered in its module of [`crate::games`].
pub struct Solver {
    /// The rule set it solves.
    pub rule_set: RuleSet,
    /// Solves `level` (read from `args.level`) and prints the result.
    pub run: fn(&SolveArgs, &Level) -> Result<(), CliError>,
}

/// When `tessera solve` began: `--seconds` counts from here, loading and compiling the level
/// included (issue 37.5).
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// When the command began (see [`STARTED`]; now, on the first call, where `run` did not set it).
pub fn started() -> std::time::Instant {
    *STARTED.get_or_init(std::time::Instant::now)
}
