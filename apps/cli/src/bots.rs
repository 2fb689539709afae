//! Bots from the command line: `tessera bot` (one game) and `tessera difficulty` (a sweep, and
//! `merge` of shards). The bots, their names, settings and help come from the bots' registry
//! ([`tessera_bots::BotKind::ALL`]).
//!
//! `difficulty` prints a text summary, or with `--json` the whole report (every game), which is
//! what `difficulty merge` reads. A progress bar goes to stderr when it is a terminal and
//! `--json` is off. Ctrl-C stops the sweep: games already running end at their next move and
//! are not counted, the report of the games played is printed (marked interrupted) and the
//! command exits 130; `bot` prints the moves played and the board and exits 130. Every game is
//! held to a work budget (`--work`, [`tessera_bots::DEFAULT_RUN_WORK`]; issue 66.3): a game
//! that spends it ends there, and the report counts it as cut short.
//!
//! `tessera bot` and `difficulty` (progress bar, Ctrl-C, `merge`); the bot names, `--bot` help and
//! which flags a bot takes (`--playouts`/`--millis`, its `LevelSetting` flag `--depth` or `--level`
//! and range) come from `BotKind::ALL`.

use crate::error::{CliError, Input, output_error, read_input};
use crate::level_file::{load_level, start};
use clap::{Args, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use tessera_bots::difficulty::{self, Report, Sweep};
use tessera_bots::{BotKind, BotSpec, Budget, GameConfig, Playable, make_bot, play_game_within};
use tessera_core::Rules;

/// Settings shared by every bot command.
#[derive(Args, Debug, Clone)]
pub struct BotOptions {
    // (optional to clap, checked in `spec`: `difficulty` without `--bot` is the estimate)
    #[arg(long, help = bot_help())]
    pub bot: Option<String>,
    /// MCTS: playouts per move (default 200).
    #[arg(long, conflicts_with = "millis")]
    pub playouts: Option<u32>,
    /// MCTS: milliseconds per move instead of a playout count (results then depend on the
    /// machine's speed).
    #[arg(long)]
    pub millis: Option<u64>,
    /// Expectimax: search depth (default: adaptive).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nesting level: nmcs 1 to 3 (default 1); nrpa 1 to 3 (100^level playouts plan the game; default 2).
    #[arg(long = "level", value_name = "LEVEL")]
    pub nmcs_level: Option<u32>,
    /// The most moves a game may last (default 2000).
    // (no clap default: with one, `difficulty` without `--bot` would count the group as given
    // and ask for `--bot`)
    #[arg(long, value_name = "MAX_MOVES")]
    pub max_moves: Option<u32>,
    /// Play on after reaching the target (2048's "keep going"), until the game is over.
    #[arg(long)]
    pub keep_going: bool,
    /// The most work one game may do, its moves and its bot's look-aheads (the solver bot's
    /// searches) together, in PuzzleScript's units of work (cells tested by rules, each turn's
    /// own cost and the like: the same count on every machine; other rule sets' steps count
    /// nothing); a difficulty report's solver measure is held to it too. A game that spends it
    /// ends there and is reported cut short. Default 400,000,000: a few seconds at most
    /// (docs/limits.md).
    #[arg(long, value_name = "UNITS", default_value_t = tessera_bots::DEFAULT_RUN_WORK,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub work: u64,
}

impl BotOptions {
    pub(crate) fn spec(&self) -> Result<BotSpec, CliError> {
        let Some(bot) = &self.bot else {
            return Err(CliError::BadInput(format!("--bot is required (bots: {})", BotKind::names())));
        };
        let kind = BotKind::from_name(bot).ok_or_else(|| {
            CliError::BadInput(format!("--bot: unknown bot '{bot}' (bots: {})", BotKind::names()))
        })?;
        let budget = match (self.playouts, self.millis) {
            (Some(0), _) => return Err(CliError::BadInput("--playouts must be at least 1".into())),
            (_, Some(0)) => return Err(CliError::BadInput("--millis must be at least 1".into())),
            (Some(n), _) => Some(Budget::Playouts(n)),
            (_, Some(ms)) => Some(Budget::Millis(ms)),
            _ => None,
        };
        if budget.is_some() && !kind.takes_budget() {
            return Err(CliError::BadInput(format!("--playouts and --millis are for mcts bots, not {kind}")));
        }
        let level = level_setting(kind, &[("--depth", self.depth), ("--level", self.nmcs_level)])?;
        if self.max_moves == Some(0) {
            return Err(CliError::BadInput("--max-moves must be at least 1".into()));
        }
        tessera_bots::set_run_work(self.work);
        Ok(BotSpec { kind, budget, level })
    }

    fn game(&self) -> GameConfig {
        GameConfig {
            max_moves: self.max_moves.unwrap_or(GameConfig::default().max_moves),
            keep_going: self.keep_going,
        }
    }
}

/// `--bot`'s help: every bot, grouped by the rule set it plays (`random, greedy, mcts (any
/// level); expectimax (slide); ...`).
fn bot_help() -> String {
    let mut groups: Vec<(Option<tessera_core::RuleSet>, Vec<&str>)> = Vec::new();
    for k in BotKind::ALL {
        match groups.last_mut() {
            Some((only, names)) if *only == k.only_for() => names.push(k.name()),
            _ => groups.push((k.only_for(), vec![k.name()])),
        }
    }
    let groups: Vec<String> = groups
        .iter()
        .map(|(only, names)| {
            let plays = only.map_or("any level", |r| r.name());
            format!("{} ({plays})", names.join(", "))
        })
        .collect();
    format!("The bot: {}", groups.join("; "))
}

/// The bot's numeric setting from the flags given (`flags`: each flag and its value): the one
/// flag the bot's [`tessera_bots::LevelSetting`] names, within its range, or none.
fn level_setting(kind: BotKind, flags: &[(&str, Option<u32>)]) -> Result<Option<u32>, CliError> {
    let mut given = flags.iter().filter_map(|&(flag, v)| Some((flag, v?)));
    let Some((flag, value)) = given.next() else { return Ok(None) };
    let setting = kind.level_setting().filter(|s| s.flag == flag);
    match setting {
        Some(s) if given.next().is_none() => {
            if (s.min..=s.max).contains(&value) {
                Ok(Some(value))
            } else {
                Err(CliError::BadInput(format!("{flag} {value}: {}", s.range)))
            }
        }
        _ => {
            let owners: Vec<&str> = BotKind::ALL
                .iter()
                .filter(|k| k.level_setting().is_some_and(|s| s.flag == flag))
                .map(|k| k.name())
                .collect();
            let owners = if owners.is_empty() { "no bot".to_string() } else { owners.join(" and ") };
            Err(CliError::BadInput(format!("{flag} is for {owners}, not {kind}")))
        }
    }
}

/// `tessera bot LEVEL --bot NAME [--seed N] [--record LOG]`.
#[derive(Args, Debug)]
pub struct BotArgs {
    /// The level file, or a PuzzleScript game (`.txt`, with `--number`).
    pub level: PathBuf,
    /// With a PuzzleScript game (`.txt`): which playable level, from 1 (as `tessera convert
    /// puzzlescript` numbers its files). Without it, a game of one level is that level.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub number: Option<u64>,
    /// The seed of the game and of the bot (default: the level's, else 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Record the game as a log (`tessera replay` opens it).
    #[arg(long, value_name = "LOG")]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub options: BotOptions,
}

/// Runs `tessera bot`.
pub fn bot(args: &BotArgs) -> Result<(), CliError> {
    let spec = args.options.spec()?;
    let level = load_level(Some(&args.level), args.number)?;
    let seed = args.seed.or(level.seed()).unwrap_or(tessera_core::DEFAULT_SEED);
    let mut game = start(&level, &args.level, seed)?;
    let rule_set = game.rules.rule_set();
    spec.check(rule_set).map_err(|e| CliError::BadInput(format!("--bot: {e}")))?;
    let mut bot = make_bot(&spec, rule_set, seed).map_err(|e| CliError::BadInput(e.to_string()))?;
    let mut log = match &args.record {
        Some(p) => Some(crate::session_log::SessionLog::create(p, &level, seed, &game.state)?),
        None => None,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{} ({rule_set}, seed {seed}), bot {spec}", args.level.display()).map_err(output_error)?;
    let mut failure = None;
    // Ctrl-C ends the game after the move under way: what was played is printed (exit 130).
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let stop = || STOP.load(Ordering::Relaxed);
    let played = play_game_within(
        &game.rules,
        &mut game.state,
        &mut bot,
        &args.options.game(),
        &stop,
        |n, cmd, events, state| {
            if failure.is_some() {
                return;
            }
            let score = state.score().map(|s| format!(", score {s}")).unwrap_or_default();
            if let Err(e) = writeln!(out, "move {n}: {cmd}{score}") {
                failure = Some(output_error(e));
            } else if let Some(log) = &mut log
                && let Err(e) = log.applied(cmd, events, state)
            {
                failure = Some(e);
            }
        },
    );
    if let Some(e) = failure {
        return Err(e);
    }
    let played = played.map_err(|e| CliError::Failed(e.to_string()))?;
    let moves = played.moves;
    let o = game.rules.outcome(&game.state);
    write!(out, "{}", game.state.render()).map_err(output_error)?;
    let score = game.state.score().map(|s| format!("score {s}, ")).unwrap_or_default();
    let verdict = if o.won { "won" } else { "not won" };
    let cut = if played.cut_short {
        format!(" (cut short: the game spent its work budget, --work {})", args.options.work)
    } else if played.stopped {
        " (stopped by Ctrl-C)".to_string()
    } else {
        String::new()
    };
    writeln!(
        out,
        "{moves} moves, {score}{verdict}, objectives met {}/{}, {}{cut}",
        o.objectives_met,
        o.objectives,
        game.rules.status(&game.state)
    )
    .map_err(output_error)?;
    if played.stopped {
        return Err(CliError::Interrupted(format!("interrupted after {moves} moves")));
    }
    Ok(())
}

/// `tessera difficulty`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DifficultyArgs {
    #[command(subcommand)]
    command: Option<DifficultyCommand>,
    /// The level file, a PuzzleScript game (`.txt`, with `--number` or `--all`), or a Sokoban
    /// collection (`.xsb`, `.sok`, a Boxoban `.txt`). Without `--bot`: the difficulty estimate
    /// of a puzzle level (PuzzleScript, Sokoban; docs/difficulty.md).
    #[arg(required = true)]
    level: Option<PathBuf>,
    /// With a PuzzleScript game (`.txt`): which playable level, from 1 (as `tessera convert
    /// puzzlescript` numbers its files). Without it, a game of one level is that level.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    number: Option<u64>,
    /// How many games (with `--bot`).
    #[arg(long)]
    games: Option<u64>,
    /// Without `--bot`: rate every level of the game or collection, in its order.
    #[arg(long, conflicts_with = "number")]
    all: bool,
    /// Without `--bot`: the states each of the estimate's searches may expand (default 2000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    states: Option<u64>,
    /// Game i uses seed S + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Play games K..K+N (for shards of a sweep over many machines).
    #[arg(long, default_value_t = 0)]
    first_game: u64,
    /// Threads (default: every core; never more than the cores, nor than the address space
    /// left holds, which it then says); without `--bot`, levels rated at once.
    #[arg(long)]
    jobs: Option<usize>,
    /// Print the whole report as JSON (what `difficulty merge` reads).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    options: Option<BotOptions>,
}

#[derive(Subcommand, Debug)]
enum DifficultyCommand {
    /// Combine shard reports (`--json` output) into the report one run would give.
    Merge {
        /// The reports.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Print the merged report as JSON.
        #[arg(long)]
        json: bool,
    },
}

static STOP: AtomicBool = AtomicBool::new(false);

/// Runs `tessera difficulty`.
pub fn difficulty(args: &DifficultyArgs) -> Result<(), CliError> {
    if let Some(DifficultyCommand::Merge { reports, json }) = &args.command {
        let mut all = Vec::new();
        for p in reports {
            let report: Report = serde_json::from_str(&read_input(p, Input::Report)?)
                .map_err(|e| CliError::file(p, format!("not a difficulty report: {e}")))?;
            all.push(report);
        }
        let merged = difficulty::merge(&all).map_err(|e| CliError::BadInput(e.to_string()))?;
        return print_report(&merged, *json);
    }
    if args.options.as_ref().is_none_or(|o| o.bot.is_none()) {
        return estimate(args);
    }
    let (Some(path), Some(games), Some(options)) = (&args.level, args.games, &args.options) else {
        return Err(CliError::BadInput("difficulty: LEVEL, --games and --bot are required".into()));
    };
    if args.all || args.states.is_some() {
        return Err(CliError::BadInput(
            "--all and --states are for the estimate (without --bot); a bot sweeps one level".into(),
        ));
    }
    let spec = options.spec()?;
    let level = load_level(Some(path), args.number)?;
    let rule_set = start(&level, path, args.seed)?.rules.rule_set();
    spec.check(rule_set).map_err(|e| CliError::BadInput(format!("--bot: {e}")))?;
    if games == 0 {
        return Err(CliError::BadInput("--games must be at least 1".into()));
    }
    if args.jobs == Some(0) {
        return Err(CliError::BadInput("--jobs must be at least 1".into()));
    }
    // Never more threads than the cores or the address space hold (issue 66.6).
    let jobs = crate::jobs::threads(args.jobs, "--jobs");
    let sweep = Sweep {
        level,
        level_name: path.display().to_string(),
        bot: spec,
        seed: args.seed,
        first_game: args.first_game,
        games,
        game: options.game(),
    };
    // Ctrl-C asks the sweep to stop; a second handler cannot be set (tests run one per process).
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let bar = (!args.json && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(games);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} (eta {eta})")
        {
            bar.set_style(style);
        }
        bar
    });
    let on_game = |_: &tessera_bots::GameResult| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let report = difficulty::run(&sweep, jobs, &STOP, &on_game).map_err(|e| match e {
        difficulty::SweepError::Bot(tessera_bots::BotError::Illegal { .. }) => {
            CliError::Failed(e.to_string())
        }
        _ => CliError::BadInput(e.to_string()),
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    print_report(&report, args.json)?;
    if report.interrupted {
        return Err(CliError::Interrupted(format!(
            "interrupted: {} of {games} games played",
            report.summary.games
        )));
    }
    Ok(())
}

/// `tessera difficulty LEVEL` without `--bot`: the estimate ([`crate::estimate`]).
fn estimate(args: &DifficultyArgs) -> Result<(), CliError> {
    let Some(path) = &args.level else {
        return Err(CliError::BadInput("difficulty: LEVEL is required".into()));
    };
    if args.games.is_some() {
        return Err(CliError::BadInput("--games is for a bot's sweep: give --bot too".into()));
    }
    crate::estimate::run(&crate::estimate::EstimateRequest {
        path,
        number: args.number,
        all: args.all,
        states: args.states,
        jobs: args.jobs,
        json: args.json,
    })
}

/// The `tessera bot` flags that replay a game of report `r`.
fn replay_flags(r: &Report) -> String {
    let mut flags = format!("--bot {}", r.bot.kind);
    match r.bot.budget {
        Some(Budget::Playouts(n)) => flags += &format!(" --playouts {n}"),
        Some(Budget::Millis(ms)) => flags += &format!(" --millis {ms}"),
        None => {}
    }
    if let Some(l) = r.bot.level {
        let flag = r.bot.kind.level_setting().map_or("--level", |s| s.flag);
        flags += &format!(" {flag} {l}");
    }
    if r.config.max_moves != GameConfig::default().max_moves {
        flags += &format!(" --max-moves {}", r.config.max_moves);
    }
    if r.config.keep_going {
        flags += " --keep-going";
    }
    if r.work != tessera_bots::DEFAULT_RUN_WORK {
        flags += &format!(" --work {}", r.work);
    }
    flags
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

fn print_report(r: &Report, as_json: bool) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if as_json {
        let text = serde_json::to_string(r).map_err(|e| CliError::Failed(e.to_string()))?;
        return writeln!(out, "{text}").map_err(output_error);
    }
    let s = &r.summary;
    let ranges: Vec<String> = r.ranges.iter().map(|[a, b]| format!("{a}..{b}")).collect();
    let mut text = format!(
        "level {} ({}), bot {}, seed {}, games {}{}\n",
        r.level,
        r.rule_set,
        r.bot,
        r.seed,
        ranges.join(", "),
        if r.interrupted { " (interrupted)" } else { "" }
    );
    text += &format!(
        "played {}, won {} ({}, 95 % interval {} to {})\n",
        s.games,
        s.wins,
        pct(s.win_rate),
        pct(s.win_interval[0]),
        pct(s.win_interval[1])
    );
    for (name, d) in [("moves", &s.moves), ("score", &s.score)] {
        if let Some(d) = d {
            text += &format!(
                "{name}: min {}, p10 {}, median {}, mean {:.1}, p90 {}, max {}\n",
                d.min, d.p10, d.median, d.mean, d.p90, d.max
            );
        }
    }
    if s.cut_short > 0 {
        text += &format!(
            "cut short by the work budget (--work {}): {} of {} games\n",
            r.work, s.cut_short, s.games
        );
    }
    let met: Vec<String> = s.objectives_met.iter().map(|[m, n]| format!("{m}: {n}")).collect();
    text += &format!("objectives met (of {}), games: {}\n", s.objectives, met.join(", "));
    if !s.top_tiles.is_empty() {
        let tiles: Vec<String> = s.top_tiles.iter().map(|[t, n]| format!("{t}: {n}")).collect();
        text += &format!("largest tile, games: {}\n", tiles.join(", "));
    }
    if let Some(p) = &s.puzzle {
        let figures: Vec<String> = p.figures.iter().map(|f| format!("{} {}", f.name, f.value)).collect();
        text += &format!("puzzle ({}): {}, {}\n", p.solver, p.outcome, figures.join(", "));
    }
    for (name, g) in [("best", &s.best), ("worst", &s.worst)] {
        if let Some(g) = g {
            text += &format!(
                "{name} game: #{} seed {} ({}, score {}, {} moves): tessera bot {} {} --seed {}\n",
                g.game,
                g.seed,
                if g.won { "won" } else { "not won" },
                g.score,
                g.moves,
                r.level,
                replay_flags(r),
                g.seed
            );
        }
    }
    write!(out, "{text}").map_err(output_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `--bot` help is made from the registry, and says what it said before it.
    #[test]
    fn bot_help_lists_every_bot_by_the_rule_set_it_plays() {
        assert_eq!(
            bot_help(),
            "The bot: random, greedy, mcts (any level); expectimax (slide); nmcs, nrpa (collapse); \
             match3-greedy, match3-mcts (match3); tactics (tactics); sokoban-solver (sokoban); \
             puzzlescript-solver (puzzlescript)"
        );
    }

    /// `--depth` and `--level` go to the bot whose setting they are, within its range.
    #[test]
    fn a_level_flag_is_checked_against_the_bots_setting() {
        let bot = |name| BotKind::from_name(name).expect("a bot");
        let set = |name, depth, level| level_setting(bot(name), &[("--depth", depth), ("--level", level)]);
        let message = |r: Result<Option<u32>, CliError>| r.map_err(|e| e.to_string());
        assert_eq!(message(set("expectimax", Some(3), None)), Ok(Some(3)));
        assert_eq!(message(set("nmcs", None, Some(2))), Ok(Some(2)));
        assert_eq!(message(set("random", None, None)), Ok(None));
        assert_eq!(
            message(set("expectimax", Some(9), None)),
            Err("--depth 9: expectimax depth is 1 to 6".into())
        );
        assert_eq!(message(set("nmcs", None, Some(4))), Err("--level 4: the NMCS level is 1 to 3".into()));
        assert_eq!(
            message(set("random", Some(2), None)),
            Err("--depth is for expectimax, not random".into())
        );
        assert_eq!(message(set("nrpa", None, Some(3))), Ok(Some(3)));
        assert_eq!(
            message(set("nrpa", None, Some(4))),
            Err("--level 4: the NRPA level of the bot is 1 to 3".into())
        );
        assert_eq!(
            message(set("greedy", None, Some(2))),
            Err("--level is for nmcs and nrpa, not greedy".into())
        );
        assert_eq!(message(set("nmcs", Some(2), Some(2))), Err("--depth is for expectimax, not nmcs".into()));
    }
}
