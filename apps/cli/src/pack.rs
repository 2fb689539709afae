//! `tessera pack`: level packs from the command line — scripted editing (`new`, `add`,
//! `remove`, `move`, `list`), rating (`rate`, on one machine or as shard `K/N`), `merge` of
//! shard files, and the difficulty curve (`report` as text, JSON, CSV or HTML).
//!
//! Positions on the command line count from 1, as `list` shows them. The model, the results
//! file and the shard arithmetic are `tessera_pack`'s; this module parses arguments, shows a
//! progress bar and maps errors to exit codes (2 bad input, 1 `report --check` found flags,
//! 130 Ctrl-C).
//!
//! `tessera pack` (new, add, remove, move, list, rate with `--shard K/N`, merge, report), argument
//! parsing, the progress bar and exit codes over `tessera_pack`.

use crate::bots::BotOptions;
use crate::error::{CliError, output_error};
use clap::{Args, Subcommand};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use tessera_bots::{BotKind, GameConfig};
use tessera_pack::rate::{self, ANY_RULE_SET};
use tessera_pack::{Band, Entry, LevelRef, Opened, Pack, PackError, Progress, Settings, Shard, ShardFile};

/// `tessera pack`.
#[derive(Args, Debug)]
pub struct PackArgs {
    #[command(subcommand)]
    command: PackCommand,
}

#[derive(Subcommand, Debug)]
enum PackCommand {
    /// Create an empty pack file.
    New {
        /// The pack file to create (JSON).
        pack: PathBuf,
        /// The pack's name (default: the file's stem).
        #[arg(long)]
        name: Option<String>,
        /// Replace an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Add level files (stored relative to the pack) or, with --inline, their contents; a
    /// PuzzleScript game's level (`GAME.txt --number N`) goes in the pack itself.
    Add {
        /// The pack file.
        pack: PathBuf,
        /// Level files (JSON), or PuzzleScript games (`.txt`, with `--number`).
        #[arg(required = true)]
        levels: Vec<PathBuf>,
        /// With a PuzzleScript game (`.txt`): which playable level, from 1 (as `tessera convert
        /// puzzlescript` numbers its files). Without it, a game of one level is that level.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        number: Option<u64>,
        /// Insert at this position (from 1; default: the end).
        #[arg(long)]
        at: Option<usize>,
        /// A title (with one level).
        #[arg(long)]
        title: Option<String>,
        /// A note (with one level).
        #[arg(long)]
        note: Option<String>,
        /// A target win-rate band, `LOW-HIGH` as fractions or percentages (`0.4-0.7`, `40%-70%`).
        #[arg(long)]
        target: Option<String>,
        /// Put the level itself in the pack file instead of its path.
        #[arg(long)]
        inline: bool,
    },
    /// Remove the entry at a position (from 1).
    Remove {
        /// The pack file.
        pack: PathBuf,
        /// The position.
        position: usize,
    },
    /// Move an entry from one position to another (from 1).
    Move {
        /// The pack file.
        pack: PathBuf,
        /// The entry's position.
        from: usize,
        /// Its new position.
        to: usize,
    },
    /// List the entries: position, title, rule set, hash, latest rating.
    List {
        /// The pack file.
        pack: PathBuf,
        /// One JSON object (the curve: entries, ratings, flags).
        #[arg(long)]
        json: bool,
    },
    /// Rate every level without a rating for these settings (writes PACK.results.json), or
    /// one shard of the work (--shard K/N --out FILE).
    Rate(RateArgs),
    /// Combine shard files into the results file one machine would write.
    Merge {
        /// The pack file.
        pack: PathBuf,
        /// Shard files written by `pack rate --shard K/N --out FILE`, in any order.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
    /// The difficulty curve and its flags, as text, JSON, CSV or one HTML page.
    Report(ReportArgs),
}

/// `tessera pack rate`.
#[derive(Args, Debug)]
pub struct RateArgs {
    /// The pack file.
    pack: PathBuf,
    /// The bot: `NAME` for every rule set, or `RULE_SET=NAME` for one (repeat the flag).
    #[arg(long = "bot", required = true)]
    bots: Vec<String>,
    /// Games per level.
    #[arg(long)]
    games: u64,
    /// Game i of a level uses seed S + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Games per work unit (the grain of shards; results do not depend on it).
    #[arg(long, default_value_t = 50)]
    unit_games: u64,
    /// Play only shard K of N (K from 0), writing its games to --out for `pack merge`.
    #[arg(long, requires = "out")]
    shard: Option<String>,
    /// The shard file to write (with --shard).
    #[arg(long, requires = "shard")]
    out: Option<PathBuf>,
    /// MCTS bots: playouts per move (default 200).
    #[arg(long, conflicts_with = "millis")]
    playouts: Option<u32>,
    /// MCTS bots: milliseconds per move (results then depend on the machine).
    #[arg(long)]
    millis: Option<u64>,
    /// Expectimax: search depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Nesting level of the nmcs bot (1 to 3, default 1) or the nrpa bot (1 to 3, default 2).
    #[arg(long = "level", value_name = "LEVEL")]
    nmcs_level: Option<u32>,
    /// The most moves a game may last.
    #[arg(long, default_value_t = GameConfig::default().max_moves)]
    max_moves: u32,
    /// Play 2048 on after the target.
    #[arg(long)]
    keep_going: bool,
}

/// `tessera pack report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The pack file.
    pack: PathBuf,
    /// The curve as JSON.
    #[arg(long, conflicts_with_all = ["csv", "html"])]
    json: bool,
    /// The curve as CSV.
    #[arg(long, conflicts_with = "html")]
    csv: bool,
    /// One self-contained HTML page with SVG charts.
    #[arg(long)]
    html: bool,
    /// Write to this file (atomically) instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Exit 1 when a level is flagged (outside its band, harder than its neighbours, cannot be
    /// won, or games hit the move cap).
    #[arg(long)]
    check: bool,
}

/// The most threads `pack rate --jobs` starts.
const MAX_JOBS: usize = 1024;

static STOP: AtomicBool = AtomicBool::new(false);

fn bad(e: PackError) -> CliError {
    match e {
        PackError::Bot { .. } => CliError::Failed(e.to_string()),
        _ => CliError::BadInput(e.to_string()),
    }
}

/// Runs `tessera pack`.
pub fn run(args: &PackArgs) -> Result<(), CliError> {
    match &args.command {
        PackCommand::New { pack, name, force } => {
            if pack.exists() && !force {
                return Err(CliError::file(pack, "already exists (--force replaces it)"));
            }
            let name = name.clone().unwrap_or_else(|| {
                let file = pack.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                file.strip_suffix(".json").unwrap_or(&file).to_string()
            });
            Pack::new(name.clone()).save(pack).map_err(bad)?;
            say(&format!("created pack '{name}' (no levels) -> {}", pack.display()))
        }
        PackCommand::Add { pack, levels, number, at, title, note, target, inline } => {
            add(pack, levels, *number, *at, title, note, target.as_deref(), *inline)
        }
        PackCommand::Remove { pack: path, position } => {
            let mut pack = Pack::read(path).map_err(bad)?;
            let removed = pack.remove(index(*position)?).map_err(|e| CliError::file(path, e))?;
            pack.save(path).map_err(bad)?;
            say(&format!("removed entry {position} ({})", removed.label()))
        }
        PackCommand::Move { pack: path, from, to } => {
            let mut pack = Pack::read(path).map_err(bad)?;
            pack.move_entry(index(*from)?, index(*to)?).map_err(|e| CliError::file(path, e))?;
            pack.save(path).map_err(bad)?;
            say(&format!("moved entry {from} to position {to} -> {}", path.display()))
        }
        PackCommand::List { pack, json } => list(pack, *json),
        PackCommand::Rate(args) => rate_command(args),
        PackCommand::Merge { pack, shards } => merge(pack, shards),
        PackCommand::Report(args) => report(args),
    }
}

fn say(text: &str) -> Result<(), CliError> {
    writeln!(std::io::stdout().lock(), "{text}").map_err(output_error)
}

/// A 1-based position from the command line as an index.
fn index(position: usize) -> Result<usize, CliError> {
    position.checked_sub(1).ok_or_else(|| CliError::BadInput("positions count from 1".into()))
}

/// `LOW-HIGH` as fractions or percentages.
fn parse_band(text: &str) -> Result<Band, CliError> {
    let bad =
        || CliError::BadInput(format!("--target {text}: expected LOW-HIGH, such as 0.4-0.7 or 40%-70%"));
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let num = |s: &str| -> Result<f64, CliError> {
        let s = s.trim();
        match s.strip_suffix('%') {
            Some(p) => p.trim().parse::<f64>().map(|v| v / 100.0).map_err(|_| bad()),
            None => s.parse::<f64>().map_err(|_| bad()),
        }
    };
    let band = Band { win_rate: [num(lo)?, num(hi)?] };
    let [l, h] = band.win_rate;
    if !(0.0..=1.0).contains(&l) || !(0.0..=1.0).contains(&h) || l > h {
        return Err(CliError::BadInput(format!("--target {text}: the band must be within 0-1, low first")));
    }
    Ok(band)
}

/// `path` relative to `dir` (both made absolute, `.` and `..` folded), with `..` where needed.
fn relative_to(path: &Path, dir: &Path) -> Result<String, CliError> {
    let parts = |p: &Path| -> Result<Vec<std::ffi::OsString>, CliError> {
        let abs = std::path::absolute(p).map_err(|e| CliError::file(p, e))?;
        let mut out: Vec<std::ffi::OsString> = Vec::new();
        for c in abs.components() {
            match c {
                Component::Normal(n) => out.push(n.to_os_string()),
                Component::ParentDir => {
                    out.pop();
                }
                Component::Prefix(p) => out.push(p.as_os_str().to_os_string()),
                Component::CurDir | Component::RootDir => {}
            }
        }
        Ok(out)
    };
    let (p, d) = (parts(path)?, parts(dir)?);
    let common = p.iter().zip(&d).take_while(|(a, b)| a == b).count();
    let mut rel = PathBuf::new();
    for _ in common..d.len() {
        rel.push("..");
    }
    for c in &p[common..] {
        rel.push(c);
    }
    Ok(rel.to_string_lossy().replace('\\', "/"))
}

#[allow(clippy::too_many_arguments)] // The flags of `pack add`, each used once.
fn add(
    path: &Path,
    levels: &[PathBuf],
    number: Option<u64>,
    at: Option<usize>,
    title: &Option<String>,
    note: &Option<String>,
    target: Option<&str>,
    inline: bool,
) -> Result<(), CliError> {
    if levels.len() > 1 && (title.is_some() || note.is_some()) {
        return Err(CliError::BadInput("--title and --note go with one level at a time".into()));
    }
    let mut pack = Pack::read(path).map_err(bad)?;
    let band = target.map(parse_band).transpose()?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut at = at.map(index).transpose()?;
    if number.is_some() && !levels.iter().any(|l| crate::level_file::is_game(l)) {
        return Err(CliError::BadInput("--number picks a level of a PuzzleScript game (.txt)".into()));
    }
    for level in levels {
        let mut title = title.clone();
        let level_ref = if crate::level_file::is_game(level) {
            // A game's level has no file of its own: the level itself goes in the pack (it
            // carries its game's source), titled after the game and its number.
            let parsed = crate::level_file::load_level(Some(level), number)?;
            if title.is_none() {
                let file = level.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                title = Some(format!("{file} level {}", number.unwrap_or(1)));
            }
            LevelRef::Inline(Box::new(parsed))
        } else if inline {
            let text = crate::error::read_input(level, crate::error::Input::Level)?;
            let parsed = tessera_core::Level::from_json(&text).map_err(|e| CliError::file(level, e))?;
            LevelRef::Inline(Box::new(parsed))
        } else {
            if !level.is_file() {
                return Err(CliError::file(level, "no such level file"));
            }
            LevelRef::Path(relative_to(level, dir)?)
        };
        let entry = Entry { level: level_ref, title, note: note.clone(), target: band };
        pack.add(entry, at).map_err(|e| CliError::file(path, e))?;
        at = at.map(|a| a + 1);
    }
    // Every entry must still resolve (no duplicate, no bad level) before the file changes.
    pack.resolve(path).map_err(bad)?;
    pack.save(path).map_err(bad)?;
    let first = at.map_or(pack.entries.len() + 1 - levels.len(), |a| a + 1 - levels.len());
    say(&format!(
        "added {} level{} at position {first} ({} entries) -> {}",
        levels.len(),
        if levels.len() == 1 { "" } else { "s" },
        pack.entries.len(),
        path.display()
    ))
}

fn list(path: &Path, json: bool) -> Result<(), CliError> {
    let opened = Opened::open(path).map_err(bad)?;
    let curve = opened.curve();
    if json {
        let stdout = std::io::stdout();
        return write!(stdout.lock(), "{}", curve.to_json()).map_err(output_error);
    }
    let mut text = format!("{} ({} levels)\n", opened.pack.name, curve.entries.len());
    for e in &curve.entries {
        let rating = match &e.rating {
            Some(r) if r.objectives == 0 => format!("played {}: cannot be won: no objective", r.games),
            Some(r) => format!(
                "won {}/{} ({:.1} %, {:.1}–{:.1} %), moves median {}",
                r.wins,
                r.games,
                100.0 * r.win_rate,
                100.0 * r.interval[0],
                100.0 * r.interval[1],
                r.moves_text()
            ),
            None => "not rated".into(),
        };
        let words: Vec<String> =
            e.flag_words().into_iter().filter(|w| w != "not rated" && !rating.contains(w.as_str())).collect();
        let rating = match &e.estimate {
            Some(d) => format!("{rating}; {}", d.text()),
            None => rating,
        };
        let rating = if words.is_empty() { rating } else { format!("{rating}  <- {}", words.join("; ")) };
        let title = if e.title == e.level { e.title.clone() } else { format!("{} ({})", e.title, e.level) };
        text += &format!("{:>3}. {title} [{}, {}] {rating}\n", e.index, e.rule_set, e.level_hash);
    }
    write!(std::io::stdout().lock(), "{text}").map_err(output_error)
}

/// The settings `tessera pack rate` was given.
fn settings(args: &RateArgs) -> Result<Settings, CliError> {
    let mut bots = BTreeMap::new();
    let mut used = [false; 4];
    for value in &args.bots {
        let (key, name) = match value.split_once('=') {
            Some((rule_set, name)) => (rule_set.trim().to_string(), name.trim()),
            None => (ANY_RULE_SET.to_string(), value.trim()),
        };
        let kind = BotKind::from_name(name).ok_or_else(|| {
            CliError::BadInput(format!("--bot {value}: unknown bot '{name}' (bots: {})", BotKind::names()))
        })?;
        let takes = |flag: &str| kind.level_setting().is_some_and(|s| s.flag == flag);
        let options = BotOptions {
            bot: Some(name.to_string()),
            playouts: args.playouts.filter(|_| kind.takes_budget()),
            millis: args.millis.filter(|_| kind.takes_budget()),
            depth: args.depth.filter(|_| takes("--depth")),
            nmcs_level: args.nmcs_level.filter(|_| takes("--level")),
            max_moves: Some(args.max_moves),
            keep_going: args.keep_going,
            // Pack ratings hold each game to the default work budget.
            work: tessera_bots::DEFAULT_RUN_WORK,
        };
        used[0] |= options.playouts.is_some();
        used[1] |= options.millis.is_some();
        used[2] |= options.depth.is_some();
        used[3] |= options.nmcs_level.is_some();
        if bots.insert(key.clone(), options.spec()?).is_some() {
            let whom = if key == ANY_RULE_SET { "every rule set".to_string() } else { key };
            return Err(CliError::BadInput(format!("--bot: two bots given for {whom}")));
        }
    }
    let given =
        [args.playouts.is_some(), args.millis.is_some(), args.depth.is_some(), args.nmcs_level.is_some()];
    for (i, flag) in ["--playouts", "--millis", "--depth", "--level"].iter().enumerate() {
        if given[i] && !used[i] {
            return Err(CliError::BadInput(format!("{flag}: none of the bots given takes it")));
        }
    }
    let settings = Settings {
        bots,
        games: args.games,
        seed: args.seed,
        config: GameConfig { max_moves: args.max_moves, keep_going: args.keep_going },
    };
    settings.check().map_err(bad)?;
    Ok(settings)
}

fn progress_bar(total: u64) -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} games  {elapsed} (eta {eta})")
        {
            bar.set_style(style);
        }
        bar
    })
}

fn rate_command(args: &RateArgs) -> Result<(), CliError> {
    let settings = settings(args)?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 || jobs > MAX_JOBS {
        return Err(CliError::BadInput(format!("--jobs {jobs}: give 1 to {MAX_JOBS} threads")));
    }
    let shard = args.shard.as_deref().map(Shard::parse).transpose().map_err(bad)?;
    let opened = Opened::open(&args.pack).map_err(bad)?;
    let plan = opened.plan(&args.pack, settings, args.unit_games).map_err(bad)?;
    let shard_of = shard.unwrap_or(Shard::ALL);
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let bar = progress_bar(plan.games_of(shard_of));
    let on_game = |p: Progress| {
        if let Some(b) = &bar {
            b.set_position(p.games_done);
            b.set_message(format!("level {} of {}", (p.levels_done + 1).min(p.levels_total), p.levels_total));
        }
    };
    let played = rate::run(&plan, shard_of, jobs, &STOP, &on_game).map_err(bad)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let interrupted = played.interrupted;
    match (shard, &args.out) {
        (Some(s), Some(out)) => {
            let text = serde_json::to_string(&played).map_err(|e| CliError::Failed(e.to_string()))? + "\n";
            tessera_replay::atomic_write(out, text.as_bytes()).map_err(|e| CliError::file(out, e))?;
            let games: usize = played.units.iter().map(|u| u.games.len()).sum();
            eprintln!(
                "shard {}/{}: {} units, {games} games -> {}",
                s.index,
                s.count,
                played.units.len(),
                out.display()
            );
        }
        _ => {
            let (mut results, rated) = rate::finish(&plan, &opened.results, &opened.entries, &played.units);
            // Puzzle levels rated before estimates were kept get theirs now.
            rate::fill_estimates(&opened.entries, &mut results, jobs, &STOP).map_err(bad)?;
            let path = tessera_pack::results_path(&args.pack);
            results.save(&path).map_err(bad)?;
            // Entries not planned had a rating, or hold the same level as an earlier entry.
            let skipped = opened.entries.len() - plan.levels.len();
            say(&format!(
                "rated {rated} of {} levels ({skipped} already rated) -> {}",
                opened.entries.len(),
                path.display()
            ))?;
        }
    }
    if interrupted {
        return Err(CliError::Interrupted("interrupted: the levels finished were kept".into()));
    }
    Ok(())
}

fn merge(path: &Path, shard_paths: &[PathBuf]) -> Result<(), CliError> {
    let opened = Opened::open(path).map_err(bad)?;
    let mut shards = Vec::new();
    for p in shard_paths {
        // Format, checksum and sizes checked before anything is planned from it.
        shards.push((p.display().to_string(), ShardFile::read(p).map_err(bad)?));
    }
    let (first_name, first) = &shards[0];
    let plan = opened
        .plan(path, first.settings.clone(), first.unit_games)
        .map_err(|e| CliError::BadInput(format!("{first_name}: {e}")))?;
    let results = rate::merge(&plan, &opened.results, &opened.entries, &shards).map_err(bad)?;
    let out = tessera_pack::results_path(path);
    results.save(&out).map_err(bad)?;
    say(&format!("merged {} shards ({} levels rated) -> {}", shards.len(), plan.levels.len(), out.display()))
}

fn report(args: &ReportArgs) -> Result<(), CliError> {
    let opened = Opened::open(&args.pack).map_err(bad)?;
    let curve = opened.curve();
    let text = if args.json {
        curve.to_json()
    } else if args.csv {
        curve.to_csv()
    } else if args.html {
        curve.to_html()
    } else {
        let mut t = format!("{}: {} levels, {} flagged\n", curve.pack, curve.entries.len(), curve.flagged());
        for e in &curve.entries {
            let rate = match &e.rating {
                None => "not rated".to_string(),
                Some(r) if r.objectives == 0 => "    - (no win rate)".to_string(),
                Some(r) => format!(
                    "{:5.1} % [{:.1}–{:.1}], moves median {}",
                    100.0 * r.win_rate,
                    100.0 * r.interval[0],
                    100.0 * r.interval[1],
                    r.moves_text()
                ),
            };
            let band = e
                .target
                .map_or(String::new(), |b| format!(" · target {:.0}–{:.0} %", 100.0 * b[0], 100.0 * b[1]));
            let flags: Vec<String> = e.flag_words().into_iter().filter(|w| w != "not rated").collect();
            let flags = if flags.is_empty() { String::new() } else { format!("  <- {}", flags.join("; ")) };
            let estimate = e.estimate.as_ref().map_or(String::new(), |d| format!(" · {}", d.text()));
            t += &format!("{:>3}. {:<30} {rate}{band}{estimate}{flags}\n", e.index, e.title);
        }
        t
    };
    match &args.out {
        Some(out) => {
            tessera_replay::atomic_write(out, text.as_bytes()).map_err(|e| CliError::file(out, e))?
        }
        None => write!(std::io::stdout().lock(), "{text}").map_err(output_error)?,
    }
    if args.check && curve.flagged() > 0 {
        return Err(CliError::Failed(format!("{} levels flagged", curve.flagged())));
    }
    Ok(())
}
