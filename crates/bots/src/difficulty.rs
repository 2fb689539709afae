//! Difficulty sweeps: a bot plays a level many times; the report says how hard it is.
//!
//! Game `i` of a sweep starts the level with seed `seed + i` and seeds its bot with the same
//! number (the bot mixes it into a stream of its own, see [`crate::BotRng`]). Games run in
//! parallel on a rayon pool of `jobs` threads; each game is independent and results are
//! collected in game order, so the report is the same for any number of threads.
//!
//! **Shards.** A sweep covers the games `first_game..first_game + games`. A [`Report`] keeps
//! every game's [`GameResult`] and the ranges of games it was asked for, and its [`Summary`] is
//! computed from the results alone, so [`merge`] of shards (checked to be the same level, bot,
//! seed and settings, with no game twice) gives exactly the report one run over their union
//! gives.
//!
//! **Interruption.** The `stop` flag (Ctrl-C in the CLI) is read before each game starts;
//! games already running finish, and the report holds the games played, marked `interrupted`.
//!
//! **Statistics.** The win rate comes with a 95 % Wilson score interval (sound at 0 % and
//! 100 %, unlike the normal approximation). Distributions give min, 10th percentile, median,
//! mean, 90th percentile and max (nearest-rank percentiles). The best game is the one that won,
//! then met the most objectives, then scored most, then used fewest moves; the worst the
//! reverse; ties go to the lower game number. Their seeds replay them with `tessera bot`.
//!
//! **Puzzle figures.** For a deterministic puzzle the rule set's registry entry may measure the
//! level itself once per sweep ([`crate::games::GameBots::puzzle`]: sokoban's solver gives the
//! optimal pushes and moves and the nodes it expanded), kept as [`Summary::puzzle`]. The measure
//! is bounded by a node count, never a clock, so it too is the same on every machine; a stop
//! before or during it leaves it `stopped`. [`merge`] keeps the first shard's measure that
//! finished (solved or proved unsolvable), else the first.
//!
//! Sweeps on a rayon pool, `Report`/`Summary` computed from per-game results only (plus the rule
//! set's `summarize`), the optional `Summary::puzzle` (`Puzzle`: solver, outcome, named `Figure`s;
//! from the entry's `puzzle` hook on the level's start, after the games; `merge` keeps the first
//! finished one), `merge`; `play_one` and `measure_puzzle` for callers that schedule the games
//! themselves (`tessera-pack`'s work units).

use crate::any::{BotError, BotSpec};
use crate::game::{GameConfig, GameResult, play_game_within};
use crate::games::make_bot;
use crate::playable::Playable;
use crate::summary::histogram;
pub use crate::summary::{Distribution, Figure, GameRef, Puzzle, PuzzleOutcome, Summary, wilson_interval};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use tessera_core::{Level, RuleSet, state_hash};

/// The report format's version (in every report, checked by [`merge`]).
pub const REPORT_FORMAT: u32 = 1;

/// What to sweep.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The level.
    pub level: Level,
    /// A name for the level in the report (its file name, say).
    pub level_name: String,
    /// The bot.
    pub bot: BotSpec,
    /// Game `i` uses seed `seed + i`.
    pub seed: u64,
    /// The first game's number.
    pub first_game: u64,
    /// How many games.
    pub games: u64,
    /// When a game stops.
    pub game: GameConfig,
}

/// Why a sweep or a merge cannot be done.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The bot cannot play the level, or misbehaved.
    #[error(transparent)]
    Bot(#[from] BotError),
    /// A bad setting (no game, no thread).
    #[error("{0}")]
    Invalid(String),
    /// Reports that cannot be merged.
    #[error("{0}")]
    Merge(String),
}

impl Summary {
    /// The figures of `results` (in any order) for a level of `rule_set` with `objectives`
    /// objectives, with the rule set's own figures ([`crate::games::GameBots::summarize`]).
    pub fn of(results: &[GameResult], objectives: u32, rule_set: RuleSet) -> Summary {
        let games = results.len() as u64;
        let wins = results.iter().filter(|r| r.won).count() as u64;
        let key = |r: &GameResult| (r.won, r.objectives_met, r.score, std::cmp::Reverse(r.moves));
        let as_ref = |r: &GameResult| GameRef {
            game: r.game,
            seed: r.seed,
            won: r.won,
            score: r.score,
            moves: r.moves,
        };
        // Best: the largest key, the lowest game number among equals; worst: the smallest key.
        let best = results.iter().max_by(|a, b| key(a).cmp(&key(b)).then(b.game.cmp(&a.game))).map(as_ref);
        let worst = results.iter().min_by(|a, b| key(a).cmp(&key(b)).then(a.game.cmp(&b.game))).map(as_ref);
        let mut summary = Summary {
            games,
            wins,
            win_rate: if games == 0 { 0.0 } else { wins as f64 / games as f64 },
            win_interval: wilson_interval(wins, games),
            moves: Distribution::of(results.iter().map(|r| u64::from(r.moves)).collect()),
            score: Distribution::of(results.iter().map(|r| r.score).collect()),
            objectives,
            objectives_met: histogram(results.iter().map(|r| u64::from(r.objectives_met))),
            top_tiles: Vec::new(),
            puzzle: None,
            cut_short: results.iter().filter(|r| r.cut_short).count() as u64,
            best,
            worst,
        };
        // The rule set's own figures (slide: the largest tiles).
        if let Some(game) = crate::games::find(rule_set) {
            game.summarize(results, &mut summary);
        }
        summary
    }
}

/// A sweep's report: what was asked, every game, and the figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// [`REPORT_FORMAT`].
    pub format: u32,
    /// The level's name.
    pub level: String,
    /// The level's hash (hex): shards of different levels do not merge.
    pub level_hash: String,
    /// Its rule set.
    pub rule_set: RuleSet,
    /// The bot.
    pub bot: BotSpec,
    /// Game `i` used seed `seed + i`.
    pub seed: u64,
    /// When a game stopped.
    pub config: GameConfig,
    /// The work budget of each game ([`crate::run_work`]); reports before it have the default.
    #[serde(default = "default_work")]
    pub work: u64,
    /// The games asked for, as sorted, disjoint, non-adjacent `[first, end)` ranges.
    pub ranges: Vec<[u64; 2]>,
    /// Whether the sweep was stopped before every game was played.
    pub interrupted: bool,
    /// The figures.
    pub summary: Summary,
    /// Every game played, by game number.
    pub games: Vec<GameResult>,
}

fn default_work() -> u64 {
    crate::DEFAULT_RUN_WORK
}

/// Sorts and coalesces `[first, end)` ranges; `None` when two overlap.
fn normalize(mut ranges: Vec<[u64; 2]>) -> Option<Vec<[u64; 2]>> {
    ranges.retain(|r| r[0] < r[1]);
    ranges.sort_unstable();
    let mut out: Vec<[u64; 2]> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if r[0] < last[1] => return None,
            Some(last) if r[0] == last[1] => last[1] = r[1],
            _ => out.push(r),
        }
    }
    Some(out)
}

/// Plays one game of the sweep.
pub fn play_one(sweep: &Sweep, game: u64) -> Result<GameResult, SweepError> {
    play_one_within(sweep, game, &|| false).map(|r| r.unwrap_or_else(|| unreachable!("never stopped")))
}

/// [`play_one`], ended by `stop` (read before each move): `None` when it stopped the game
/// before its end (a game cut by Ctrl-C is not counted). A game that spent its work budget
/// ([`crate::run_work`]) ends there and is counted, [`GameResult::cut_short`].
pub fn play_one_within(
    sweep: &Sweep,
    game: u64,
    stop: &dyn Fn() -> bool,
) -> Result<Option<GameResult>, SweepError> {
    let seed = sweep.seed.wrapping_add(game);
    let mut g = sweep.level.start(Some(seed)).map_err(|e| BotError::Level(e.to_string()))?;
    let mut bot = make_bot(&sweep.bot, g.rules.rule_set(), seed)?;
    let played = play_game_within(&g.rules, &mut g.state, &mut bot, &sweep.game, stop, |_, _, _, _| {})?;
    if played.stopped {
        return Ok(None);
    }
    let o = g.rules.outcome(&g.state);
    Ok(Some(GameResult {
        game,
        seed,
        won: o.won,
        moves: played.moves,
        score: o.score,
        objectives_met: o.objectives_met,
        top_tile: o.top_tile,
        cut_short: played.cut_short,
    }))
}

/// Runs `sweep` on `jobs` threads. `on_game` is called after each game (from any thread, in
/// any order: for a progress bar). Games not started when `stop` becomes true are skipped.
pub fn run(
    sweep: &Sweep,
    jobs: usize,
    stop: &AtomicBool,
    on_game: &(dyn Fn(&GameResult) + Sync),
) -> Result<Report, SweepError> {
    if sweep.games == 0 {
        return Err(SweepError::Invalid("--games must be at least 1".into()));
    }
    if jobs == 0 {
        return Err(SweepError::Invalid("--jobs must be at least 1".into()));
    }
    let end = sweep
        .first_game
        .checked_add(sweep.games)
        .ok_or_else(|| SweepError::Invalid("--first-game + --games is past 2^64".into()))?;
    let start = sweep.level.start(Some(sweep.seed)).map_err(|e| BotError::Level(e.to_string()))?;
    let rule_set = start.rules.rule_set();
    sweep.bot.check(rule_set)?;
    let objectives = start.rules.outcome(&start.state).objectives;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| SweepError::Invalid(format!("cannot start {jobs} threads: {e}")))?;
    let results: Vec<Option<GameResult>> = pool.install(|| {
        (sweep.first_game..end)
            .into_par_iter()
            .map(|game| {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                let r = play_one_within(sweep, game, &|| stop.load(Ordering::Relaxed))?;
                if let Some(r) = &r {
                    on_game(r);
                }
                Ok(r)
            })
            .collect::<Result<_, SweepError>>()
    })?;
    let games: Vec<GameResult> = results.into_iter().flatten().collect();
    let interrupted = games.len() as u64 != sweep.games;
    let mut summary = Summary::of(&games, objectives, rule_set);
    summary.puzzle = crate::games::find(rule_set)
        .and_then(|g| g.puzzle(&start.rules, &start.state, &|| stop.load(Ordering::Relaxed)));
    Ok(Report {
        format: REPORT_FORMAT,
        level: sweep.level_name.clone(),
        level_hash: format!("{:016x}", state_hash(&sweep.level)),
        rule_set,
        bot: sweep.bot.clone(),
        seed: sweep.seed,
        config: sweep.game,
        work: crate::run_work(),
        ranges: vec![[sweep.first_game, end]],
        interrupted,
        summary,
        games,
    })
}

/// The level's puzzle measure ([`Summary::puzzle`]): what [`run`] adds after the games, for a
/// caller that plays the games itself (a pack's work units). `None` for rule sets without one.
pub fn measure_puzzle(
    level: &Level,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Puzzle>, SweepError> {
    let start = level.start(Some(seed)).map_err(|e| BotError::Level(e.to_string()))?;
    Ok(crate::games::find(start.rules.rule_set()).and_then(|g| g.puzzle(&start.rules, &start.state, stop)))
}

/// Combines shards of one sweep into the report a single run over all their games gives.
/// Refuses reports of another format, level, bot, seed or settings, and overlapping games.
pub fn merge(reports: &[Report]) -> Result<Report, SweepError> {
    let Some(first) = reports.first() else {
        return Err(SweepError::Merge("nothing to merge".into()));
    };
    for (i, r) in reports.iter().enumerate() {
        let differ =
            |what: &str| SweepError::Merge(format!("report {} has another {what} than report 1", i + 1));
        if r.format != REPORT_FORMAT {
            return Err(SweepError::Merge(format!(
                "report {} has format {}, expected {REPORT_FORMAT}",
                i + 1,
                r.format
            )));
        }
        if r.level_hash != first.level_hash || r.rule_set != first.rule_set {
            return Err(differ("level"));
        }
        if r.bot != first.bot {
            return Err(differ("bot"));
        }
        if r.seed != first.seed {
            return Err(differ("seed"));
        }
        if r.config != first.config || r.work != first.work {
            return Err(differ("game configuration"));
        }
        if r.summary.objectives != first.summary.objectives {
            return Err(differ("objective count"));
        }
    }
    let ranges =
        normalize(reports.iter().flat_map(|r| r.ranges.iter().copied()).collect()).ok_or_else(|| {
            SweepError::Merge("the reports share games (overlapping --first-game ranges)".into())
        })?;
    let mut games: Vec<GameResult> = reports.iter().flat_map(|r| r.games.iter().copied()).collect();
    games.sort_unstable_by_key(|g| g.game);
    if games.windows(2).any(|w| w[0].game == w[1].game) {
        return Err(SweepError::Merge("the reports share games".into()));
    }
    let interrupted = reports.iter().any(|r| r.interrupted);
    let mut summary = Summary::of(&games, first.summary.objectives, first.rule_set);
    let measures = || reports.iter().filter_map(|r| r.summary.puzzle.as_ref());
    summary.puzzle = measures()
        .find(|p| !matches!(p.outcome, PuzzleOutcome::Stopped | PuzzleOutcome::CutShort))
        .or_else(|| measures().next())
        .cloned();
    Ok(Report {
        format: REPORT_FORMAT,
        level: first.level.clone(),
        level_hash: first.level_hash.clone(),
        rule_set: first.rule_set,
        bot: first.bot.clone(),
        seed: first.seed,
        config: first.config,
        work: first.work,
        ranges,
        interrupted,
        summary,
        games,
    })
}
