//! `tessera generate GAME.txt --count K --seed S (--seconds T | --states N) --out OUT.txt`: new
//! levels for a PuzzleScript game, every one proved by the solver and replayed to a win,
//! appended to the game's source in its own legend (see `tessera_generate` and
//! docs/generate.md). This module only reads the flags, shows the progress and writes the
//! results.

use crate::error::{CliError, Input, output_error, read_input};
use crate::level_file::load_level;
use clap::{Args, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tessera_generate::{Budget, Curve, Ended, Options, Outcome};

/// `tessera generate GAME.txt ...`, or `tessera generate merge PARTS...`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct GenerateArgs {
    #[command(subcommand)]
    pub command: Option<GenerateCommand>,
    /// The PuzzleScript game (`.txt`) whose rules and levels the new levels grow from (not with
    /// --rules).
    #[arg(required_unless_present = "rules", conflicts_with = "rules")]
    pub game: Option<PathBuf>,
    /// Generate with a rule set's own generator instead of a game: `sokoban` (reverse play,
    /// each level proved push-optimal; with --size and --boxes; OUT is an XSB collection) or
    /// `match3` (a stage's move limit and target score tuned by the match-3 bot; with --stage
    /// and --win-rate; OUT is the stage's level file, or one a level with --count above 1).
    /// Sokoban fills a room given with --stage instead of --size: its walls kept.
    #[arg(long, value_name = "RULE_SET")]
    pub rules: Option<String>,
    /// With --rules match3: the stage (a match-3 level file, `.json`) to tune. With --rules
    /// sokoban: a room to fill (a level file or `.xsb`): its walls stay, its boxes, goals and
    /// player are placed anew (as many boxes as it has, unless --boxes).
    #[arg(long, value_name = "STAGE.json", requires = "rules")]
    pub stage: Option<PathBuf>,
    /// With --rules match3: the share of the bot's games a stage must be won in, A..B (0 to 1).
    #[arg(long, value_name = "A..B", requires = "stage")]
    pub win_rate: Option<String>,
    /// With --rules match3: the bot's games each measure plays (the target is chosen on one set
    /// of games, the win rate checked on another).
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// With --rules sokoban: boxes in each level (with --stage, default the room's).
    #[arg(long, value_name = "N", requires = "rules")]
    pub boxes: Option<usize>,
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
    /// Where to write the game's source with the new levels appended (written once,
    /// atomically); with --shard, the shard's part (JSON) for `tessera generate merge`.
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
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
    /// The order of the levels: `rising` (by the difficulty estimate `tessera difficulty`
    /// prints, easy to hard; with --difficulty, spread over its range) or `flat` (as found).
    #[arg(long, default_value = "rising")]
    pub curve: String,
    /// Keep only levels whose difficulty estimate is in A..B (decimals allowed); with the
    /// rising curve, one level in each of --count equal bands of it.
    #[arg(long, value_name = "A..B")]
    pub difficulty: Option<String>,
    /// The budget of each of the difficulty estimate's searches, in states (as `tessera
    /// difficulty --states`).
    #[arg(long, value_name = "N", default_value_t = tessera_bots::estimate::Limits::DEFAULT_STATES, value_parser = clap::value_parser!(u64).range(1..))]
    pub estimate_states: u64,
    /// Add the levels to this pack (created when missing), each with its estimate, so that
    /// `tessera pack report` shows them on the pack's curve.
    #[arg(long, value_name = "PACK.json")]
    pub pack: Option<PathBuf>,
    /// Evaluate only shard I of N of the candidates (I from 1): candidates I-1, I-1+N, ...;
    /// needs --states; OUT is then the shard's part, which `tessera generate merge` joins.
    #[arg(long, value_name = "I/N", requires = "states", conflicts_with = "pack")]
    pub shard: Option<String>,
}

/// `tessera generate merge`.
#[derive(Subcommand, Debug)]
pub enum GenerateCommand {
    /// Join the parts of a run split by --shard I/N into what the run gives on one machine
    /// (the same OUT, byte for byte, and the same JSON but the seconds).
    Merge(MergeArgs),
}

/// `tessera generate merge PARTS... --out OUT [--json] [--pack PACK.json]`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts: each shard's --out, every shard 1..N once, in any order.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    /// Where to write the game's source with the levels (or the collection, or the stages).
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object (the last line of stdout), as the run does.
    #[arg(long)]
    pub json: bool,
    /// Add the levels and their estimates to this pack, as the run does.
    #[arg(long, value_name = "PACK.json")]
    pub pack: Option<PathBuf>,
}

impl GenerateArgs {
    fn out(&self) -> &Path {
        self.out.as_deref().unwrap_or(Path::new(""))
    }
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

/// `A..B`, two numbers (decimals allowed) with A <= B.
fn parse_range(text: &str) -> Result<(f64, f64), CliError> {
    let wrong = || bad(format!("--difficulty {text}: give A..B, two numbers with A <= B, as 8..20"));
    let (a, b) = text.split_once("..").ok_or_else(wrong)?;
    let n = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(wrong);
    let (a, b) = (n(a)?, n(b)?);
    if a > b {
        return Err(wrong());
    }
    Ok((a, b))
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
    if args.shard.is_some() && args.states.is_none() {
        return Err(bad("--shard needs --states N: a clock stops each machine at a different candidate"));
    }
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
        objects: args.boxes,
        min_steps: args.min_steps,
        max_steps: args.max_steps,
        keep_walls: args.keep_walls,
        jobs,
        level_states: args.level_states,
        difficulty: args.difficulty.as_deref().map(parse_range).transpose()?,
        estimate: tessera_bots::estimate::Limits {
            states: args.estimate_states,
            ..tessera_bots::estimate::Limits::default()
        },
        curve,
        shard: args.shard.as_deref().map(parse_shard).transpose()?,
        stage: match &args.stage {
            Some(p) => Some(load_stage(p)?),
            None => None,
        },
        win_rate: args.win_rate.as_deref().map(parse_win_rate).transpose()?,
        games: args.games,
        ..Options::default()
    })
}

/// The level `--stage` names: a level file, or a Sokoban collection (`.xsb`, `.sok`) of one
/// level (a room to fill).
fn load_stage(path: &Path) -> Result<tessera_core::Level, CliError> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("xsb" | "sok")) {
        return load_level(Some(path), None);
    }
    let text = read_input(path, Input::Import { name: "a Sokoban collection", limit: 64 << 20 })?;
    let mut levels = tessera_core::sokoban::parse_levels(&text).map_err(|e| CliError::file(path, e))?;
    match levels.len() {
        1 => Ok(levels.remove(0).1),
        n => Err(bad(format!(
            "--stage {}: it holds {n} levels; give a room of one (tessera convert sokoban splits a collection)",
            path.display()
        ))),
    }
}

/// `A..B`, two shares with 0 <= A <= B <= 1.
fn parse_win_rate(text: &str) -> Result<(f64, f64), CliError> {
    let wrong =
        || bad(format!("--win-rate {text}: give A..B, two shares with 0 <= A <= B <= 1, as 0.4..0.6"));
    let (a, b) = text.split_once("..").ok_or_else(wrong)?;
    let n = |s: &str| s.trim().parse::<f64>().ok().filter(|x| (0.0..=1.0).contains(x)).ok_or_else(wrong);
    let (a, b) = (n(a)?, n(b)?);
    if a > b {
        return Err(wrong());
    }
    Ok((a, b))
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

/// Refuses a pack that cannot take the levels, before any time is spent: an existing one must
/// read as a pack (its levels resolving), a new one must be writable.
fn check_pack(pack: &Path) -> Result<(), CliError> {
    if pack.exists() {
        let read = tessera_pack::Pack::read(pack).map_err(|e| CliError::BadInput(e.to_string()))?;
        read.resolve(pack).map_err(|e| CliError::BadInput(e.to_string()))?;
        tessera_pack::Results::read(&tessera_pack::results_path(pack))
            .map_err(|e| CliError::BadInput(e.to_string()))?;
        Ok(())
    } else {
        check_writable(pack)
    }
}

/// Adds the generated levels (each with its number in OUT, difficulty and reasons) to the pack
/// `pack` (created when missing), in their order, each as `tessera pack add` would put it (the
/// level itself in the pack, titled after OUT and its number), and keeps their difficulty
/// estimates in the pack's results file, so its curve shows them at once.
fn add_to_pack(
    pack: &Path,
    out: &Path,
    options: &Options,
    levels: &[(tessera_core::Level, usize, f64, Vec<String>)],
) -> Result<(), CliError> {
    use tessera_pack::{Entry, Estimated, LevelRef, Pack, Results, level_hash, results_path};
    let err = |e: tessera_pack::PackError| CliError::BadInput(e.to_string());
    let mut p = if pack.exists() {
        Pack::read(pack).map_err(err)?
    } else {
        let file = pack.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Pack::new(file.strip_suffix(".json").unwrap_or(&file))
    };
    let file = out.file_name().map(|n| n.to_string_lossy().into_owned());
    let mut estimates = Vec::new();
    for (level, number, difficulty, why) in levels {
        estimates.push(Estimated {
            level_hash: level_hash(level),
            states: options.estimate.states,
            difficulty: *difficulty,
            why: why.clone(),
        });
        let title = format!("{} level {number}", file.as_deref().unwrap_or("generated"));
        let entry = Entry {
            level: LevelRef::Inline(Box::new(level.clone())),
            title: Some(title),
            note: None,
            target: None,
        };
        p.add(entry, None).map_err(|e| CliError::file(pack, e))?;
    }
    p.resolve(pack).map_err(err)?;
    let results_file = results_path(pack);
    let mut results = Results::read(&results_file).map_err(err)?;
    results.add_estimates(estimates);
    p.save(pack).map_err(err)?;
    results.save(&results_file).map_err(err)?;
    eprintln!("added {} levels to {} ({} entries)", levels.len(), pack.display(), p.entries.len());
    Ok(())
}

/// The progress bar (on a terminal).
fn progress_bar(count: usize) -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(count as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} levels proved  {msg}  {elapsed} (eta {eta})",
        ) {
            bar.set_style(style);
        }
        bar
    })
}

/// Shows where a run is on its bar (none when stderr is not a terminal).
fn show_progress(bar: Option<&indicatif::ProgressBar>, p: tessera_generate::Progress) {
    if let Some(b) = bar {
        b.set_position(p.proved as u64);
        b.set_message(format!("{} candidates, {} states", p.candidates, p.states));
    }
}

/// Where a run's results go: OUT, the JSON or the table, the pack.
struct Dest<'a> {
    out: &'a Path,
    json: bool,
    pack: Option<&'a Path>,
}

impl<'a> Dest<'a> {
    fn of(args: &'a GenerateArgs) -> Self {
        Dest { out: args.out(), json: args.json, pack: args.pack.as_deref() }
    }

    /// Refuses an OUT or a pack that cannot take the results, before any time is spent.
    fn check(&self) -> Result<(), CliError> {
        check_writable(self.out)?;
        if let Some(pack) = self.pack {
            check_pack(pack)?;
        }
        Ok(())
    }
}

/// The error of a run that proved nothing: what was spent and what to try.
fn proved_nothing(
    name: &str,
    out: &Path,
    options: &Options,
    seconds: f64,
    candidates: u64,
    ended: Ended,
) -> CliError {
    let spent = match options.budget {
        Budget::Time(_) => format!("{seconds:.0} s"),
        Budget::States(n) => format!("{n} states"),
    };
    let hint = match options.budget {
        Budget::Time(d) => format!("try --seconds {}", (d.as_secs_f64() * 4.0).ceil().max(10.0)),
        Budget::States(n) => format!("try --states {}", n.saturating_mul(4).max(options.level_states)),
    };
    let what = format!(
        "{name}: proved 0 levels in {spent} ({candidates} candidates tried): {hint}, or ask less (--min-steps, --size); {} is not written",
        out.display()
    );
    if ended == Ended::Interrupted { CliError::Interrupted(what) } else { CliError::Failed(what) }
}

/// Runs `tessera generate` (or `tessera generate merge`).
pub fn run(args: &GenerateArgs) -> Result<(), CliError> {
    if let Some(GenerateCommand::Merge(m)) = &args.command {
        return merge(m);
    }
    let options = options(args)?;
    let Some(game_path) = &args.game else { return run_rules(args, &options) };
    let source = read_input(game_path, Input::Import { name: "a PuzzleScript game", limit: 16 << 20 })?;
    let game = tessera_generate::prepare(&source, &options).map_err(|e| CliError::file(game_path, e))?;
    let dest = Dest::of(args);
    dest.check()?;
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let bar = progress_bar(options.count);
    let mut progress = |p: tessera_generate::Progress| show_progress(bar.as_ref(), p);
    let name = game_path.display().to_string();
    if options.shard.is_some() {
        let part = tessera_generate::generate_part(&game, &name, &options, &STOP, &mut progress)
            .map_err(|e| CliError::Failed(format!("{name}: {e}")))?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        return write_part(&dest, &part);
    }
    let outcome = tessera_generate::generate(&game, &options, &STOP, &mut progress)
        .map_err(|e| CliError::Failed(format!("{name}: {e}")))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    write_game(&dest, &name, &options, &outcome)
}

/// Writes a shard's part (JSON, atomically) and says what it holds.
fn write_part<L: tessera_generate::PartLevel>(
    dest: &Dest,
    part: &tessera_generate::Part<L>,
) -> Result<(), CliError> {
    let mut text = serde_json::to_string_pretty(part).map_err(|e| CliError::Failed(e.to_string()))?;
    text.push('\n');
    tessera_replay::atomic_write(dest.out, text.as_bytes())
        .map_err(|e| CliError::file(dest.out, format!("cannot write: {e}")))?;
    let proved = part.records.iter().filter(|r| r.level.is_some()).count();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if dest.json {
        let v = serde_json::json!({
            "shard": part.shard,
            "out": dest.out.display().to_string(),
            "candidates": part.candidates,
            "states": part.states,
            "proved": proved,
            "seconds": part.seconds,
            "ended": part.ended,
        });
        writeln!(out, "{v}").map_err(output_error)?;
    } else {
        writeln!(
            out,
            "shard {}/{}: {} candidates ({} states, {:.1} s, ended: {}), {proved} levels proved; part written to {} (join the parts with tessera generate merge)",
            part.shard[0],
            part.shard[1],
            part.candidates,
            part.states,
            part.seconds,
            part.ended,
            dest.out.display()
        )
        .map_err(output_error)?;
    }
    drop(out);
    if part.ended == "interrupted" {
        return Err(CliError::Interrupted(format!(
            "interrupted: the part in {} cannot be joined; run the shard again",
            dest.out.display()
        )));
    }
    Ok(())
}

/// Writes a PuzzleScript run's output (OUT, the pack) and prints its table or JSON.
fn write_game(dest: &Dest, name: &str, options: &Options, outcome: &Outcome) -> Result<(), CliError> {
    if outcome.levels.is_empty() {
        return Err(proved_nothing(
            name,
            dest.out,
            options,
            outcome.seconds,
            outcome.candidates,
            outcome.ended,
        ));
    }
    tessera_replay::atomic_write(dest.out, outcome.source.as_bytes())
        .map_err(|e| CliError::file(dest.out, format!("cannot write: {e}")))?;
    if let Some(pack) = dest.pack {
        let file = dest.out.file_name().map(|n| n.to_string_lossy().into_owned());
        let mut levels = Vec::new();
        for (k, l) in outcome.levels.iter().enumerate() {
            let number = outcome.first_number + k;
            let (found, _) =
                tessera_core::puzzlescript::import_level(&outcome.source, file.as_deref(), number)
                    .map_err(|e| CliError::Failed(format!("{}: level {number}: {e}", dest.out.display())))?;
            let level = found
                .ok_or_else(|| CliError::Failed(format!("{}: no level {number}", dest.out.display())))?
                .level;
            levels.push((level, number, l.difficulty, l.why.clone()));
        }
        add_to_pack(pack, dest.out, options, &levels)?;
    }
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
                "why": l.why,
                "states": l.states,
                "candidate": l.candidate,
                "removed": l.removed,
                "seconds": l.millis as f64 / 1000.0,
                "rows": l.rows,
            })
        })
        .collect();
    let rows: Vec<Row> = outcome
        .levels
        .iter()
        .enumerate()
        .map(|(k, l)| Row {
            number: outcome.first_number + k,
            figure: None,
            steps: l.steps() as u64,
            difficulty: l.difficulty,
            states: l.states,
            millis: l.millis,
        })
        .collect();
    let run = Run {
        source: ("game", name),
        levels,
        rows,
        figure: None,
        wanted: options.count,
        candidates: outcome.candidates,
        states: outcome.states,
        seconds: outcome.seconds,
        ended: outcome.ended,
    };
    report(dest, &run)?;
    finish(name, dest.out, options, outcome.ended, outcome.levels.len())
}

/// The exit after the levels were written: 130 when interrupted, a note when the budget ran
/// out first.
fn finish(name: &str, out: &Path, options: &Options, ended: Ended, proved: usize) -> Result<(), CliError> {
    match ended {
        Ended::Interrupted => Err(CliError::Interrupted(format!(
            "{name}: interrupted: {proved} levels proved were written to {}",
            out.display()
        ))),
        Ended::Budget if proved < options.count => {
            eprintln!(
                "{name}: proved {proved} of {} levels within the budget; give more --seconds or --states for the rest",
                options.count
            );
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `tessera generate --rules NAME ...`: a rule set's own generator.
fn run_rules(args: &GenerateArgs, options: &Options) -> Result<(), CliError> {
    let name = args.rules.clone().unwrap_or_default();
    let g =
        tessera_generate::rules_generator(&name, options).map_err(|e| CliError::BadInput(e.to_string()))?;
    let dest = Dest::of(args);
    dest.check()?;
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let bar = progress_bar(options.count);
    let mut progress = |p: tessera_generate::Progress| show_progress(bar.as_ref(), p);
    if options.shard.is_some() {
        let part = tessera_generate::generate_rules_part(g, options, &STOP, &mut progress)
            .map_err(|e| CliError::Failed(format!("--rules {name}: {e}")))?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        return write_part(&dest, &part);
    }
    let outcome = tessera_generate::generate_rules(g, options, &STOP, &mut progress)
        .map_err(|e| CliError::Failed(format!("--rules {name}: {e}")))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    write_rules(&dest, g, options, &outcome)
}

/// The files a tuned generator's levels go to: OUT itself when one level is asked for, else
/// OUT's name with `-1`, `-2`, … before its extension.
fn stage_paths(out: &Path, count: usize, levels: usize) -> Vec<PathBuf> {
    if count == 1 {
        return vec![out.to_path_buf()];
    }
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = out.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    (1..=levels).map(|k| out.with_file_name(format!("{stem}-{k}{ext}"))).collect()
}

/// Writes a rule set's run's output (the collection or the stage files, the pack) and prints
/// its table or JSON.
fn write_rules(
    dest: &Dest,
    g: &tessera_core::Generator,
    options: &Options,
    outcome: &tessera_generate::RulesOutcome,
) -> Result<(), CliError> {
    let label = format!("--rules {}", g.name);
    if outcome.levels.is_empty() {
        return Err(proved_nothing(
            &label,
            dest.out,
            options,
            outcome.seconds,
            outcome.candidates,
            outcome.ended,
        ));
    }
    let files = match g.takes {
        tessera_core::Takes::Room => {
            tessera_replay::atomic_write(dest.out, outcome.text.as_bytes())
                .map_err(|e| CliError::file(dest.out, format!("cannot write: {e}")))?;
            Vec::new()
        }
        tessera_core::Takes::Stage => {
            let texts = tessera_generate::level_files(&outcome.levels)
                .map_err(|e| CliError::Failed(format!("{label}: {e}")))?;
            let paths = stage_paths(dest.out, options.count, texts.len());
            for p in &paths {
                check_writable(p)?;
            }
            for (p, t) in paths.iter().zip(&texts) {
                tessera_replay::atomic_write(p, t.as_bytes())
                    .map_err(|e| CliError::file(p, format!("cannot write: {e}")))?;
            }
            paths
        }
    };
    if let Some(pack) = dest.pack {
        let levels: Vec<_> = outcome
            .levels
            .iter()
            .enumerate()
            .map(|(k, l)| (l.level.clone(), k + 1, l.difficulty, l.why.clone()))
            .collect();
        add_to_pack(pack, dest.out, options, &levels)?;
    }
    let levels: Vec<serde_json::Value> = outcome
        .levels
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let mut v = serde_json::json!({
                "number": k + 1,
                "solution": l.solution,
                "steps": l.steps,
                "difficulty": l.difficulty,
                "why": l.why,
                "states": l.states,
                "candidate": l.candidate,
                "seconds": l.millis as f64 / 1000.0,
                "rows": l.rows,
            });
            v[l.figure] = serde_json::json!(l.optimal);
            if let Some(m) = l.measured {
                v["wins"] = serde_json::json!(m.wins);
                v["games"] = serde_json::json!(m.games);
                v["check_seed"] = serde_json::json!(m.seed);
                v["win_rate"] = serde_json::json!(f64::from(m.wins) / f64::from(m.games.max(1)));
                v["bot"] = serde_json::json!(tessera_generate::PLAYTEST_BOT);
            }
            if let tessera_core::Level::Match3(m) = &l.level {
                v["target_score"] = serde_json::json!(m.config.target_score);
                v["seed"] = serde_json::json!(m.seed);
            }
            if let Some(f) = files.get(k) {
                v["file"] = serde_json::json!(f.display().to_string());
            }
            v
        })
        .collect();
    let rows: Vec<Row> = outcome
        .levels
        .iter()
        .enumerate()
        .map(|(k, l)| Row {
            number: k + 1,
            figure: Some(l.optimal),
            steps: l.steps,
            difficulty: l.difficulty,
            states: l.states,
            millis: l.millis,
        })
        .collect();
    let run = Run {
        source: ("rules", g.name),
        levels,
        rows,
        figure: Some(g.figure),
        wanted: options.count,
        candidates: outcome.candidates,
        states: outcome.states,
        seconds: outcome.seconds,
        ended: outcome.ended,
    };
    report(dest, &run)?;
    finish(&label, dest.out, options, outcome.ended, outcome.levels.len())
}

/// `tessera generate merge PARTS... --out OUT`: the parts joined into the one-machine run.
fn merge(m: &MergeArgs) -> Result<(), CliError> {
    let mut values = Vec::new();
    for p in &m.parts {
        let text = read_input(p, Input::Report)?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| CliError::file(p, format!("not a generate part: {e}")))?;
        if v.get("format").and_then(|f| f.as_str()) != Some(tessera_generate::PART_FORMAT) {
            return Err(CliError::file(p, "not a generate part (no \"format\": \"tessera-generate-part\")"));
        }
        values.push((p, v));
    }
    let dest = Dest { out: &m.out, json: m.json, pack: m.pack.as_deref() };
    let is_game = values[0].1.get("game").is_some();
    let join_error = |e: tessera_generate::GenerateError| CliError::BadInput(format!("generate merge: {e}"));
    if is_game {
        let parts: Vec<tessera_generate::GamePart> =
            parts_of(values, "a game's part", serde_json::from_value)?;
        let options = tessera_generate::join_options(&parts).map_err(join_error)?;
        let name = parts[0].game.clone().unwrap_or_default();
        let game_path = PathBuf::from(&name);
        let source = read_input(&game_path, Input::Import { name: "a PuzzleScript game", limit: 16 << 20 })?;
        let game = tessera_generate::prepare(&source, &options).map_err(|e| CliError::file(&game_path, e))?;
        dest.check()?;
        let outcome = tessera_generate::join(&game, &parts).map_err(join_error)?;
        write_game(&dest, &name, &options, &outcome)
    } else {
        let parts: Vec<tessera_generate::RulesPart> =
            parts_of(values, "a rule set's part", serde_json::from_value)?;
        let options = tessera_generate::join_options(&parts).map_err(join_error)?;
        dest.check()?;
        let (g, outcome) = tessera_generate::join_rules(&parts).map_err(join_error)?;
        write_rules(&dest, g, &options, &outcome)
    }
}

/// The parts read as `what` (one kind for all: a game's or a rule set's), naming the file that
/// is not one.
fn parts_of<T>(
    values: Vec<(&PathBuf, serde_json::Value)>,
    what: &str,
    read: fn(serde_json::Value) -> serde_json::Result<T>,
) -> Result<Vec<T>, CliError> {
    values
        .into_iter()
        .map(|(p, v)| read(v).map_err(|e| CliError::file(p, format!("not {what}: {e}"))))
        .collect()
}

fn ended_name(ended: Ended) -> &'static str {
    match ended {
        Ended::Count => "count",
        Ended::Budget => "budget",
        Ended::Interrupted => "interrupted",
    }
}

/// One line of the table.
struct Row {
    /// The level's number in OUT.
    number: usize,
    /// The rule set's figure (Sokoban: pushes), when it has one.
    figure: Option<u64>,
    steps: u64,
    difficulty: f64,
    states: u64,
    millis: u64,
}

/// What a run printed: its levels as JSON and as table rows, and its figures.
struct Run<'a> {
    /// `("game", path)` or `("rules", name)`: the JSON's first field.
    source: (&'static str, &'a str),
    levels: Vec<serde_json::Value>,
    rows: Vec<Row>,
    /// The name of the rows' figure column (a rule set's generator).
    figure: Option<&'static str>,
    wanted: usize,
    candidates: u64,
    states: u64,
    seconds: f64,
    ended: Ended,
}

/// The table of levels with a summary line.
fn table(run: &Run, out: &Path) -> String {
    let moves = if run.figure.is_some() { "moves" } else { "steps" };
    let mut text = match run.figure {
        Some(f) => format!("level  {f:>6}  {moves}  difficulty  states  seconds\n"),
        None => format!("level  {moves}  difficulty  states  seconds\n"),
    };
    for r in &run.rows {
        text += &format!("{:>5}", r.number);
        if let Some(f) = r.figure {
            let w = run.figure.map_or(6, |n| n.len().max(6));
            text += &format!("  {f:>w$}");
        }
        text += &format!(
            "  {:>5}  {:>10.2}  {:>6}  {:>7.2}\n",
            r.steps,
            r.difficulty,
            r.states,
            r.millis as f64 / 1000.0
        );
    }
    text += &format!(
        "{} levels proved from {} candidates ({} states, {:.1} s), written to {}\n",
        run.rows.len(),
        run.candidates,
        run.states,
        run.seconds,
        out.display()
    );
    text
}

/// Prints the levels: a table, or one JSON object (the last line of stdout).
fn report(dest: &Dest, run: &Run) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if dest.json {
        let mut v = serde_json::json!({
            "out": dest.out.display().to_string(),
            "levels": run.levels,
            "proved": run.levels.len(),
            "wanted": run.wanted,
            "candidates": run.candidates,
            "states": run.states,
            "seconds": run.seconds,
            "ended": ended_name(run.ended),
        });
        v[run.source.0] = serde_json::json!(run.source.1);
        writeln!(out, "{v}").map_err(output_error)
    } else {
        write!(out, "{}", table(run, dest.out)).map_err(output_error)
    }
}
