//! Rating a pack: settings, the plan of work units, shards, and their merge.
//!
//! **The plan.** For each entry in pack order whose rating (level hash, bot, settings) is not in
//! the results file yet, the games `0..games` are cut into units of `unit_games` games:
//! `(level, first game, games)`. Units are numbered in that order; shard `K/N` (`K` from 0, as
//! Slurm array and Kubernetes completion indexes count) takes the units whose number is `K`
//! modulo `N`, so every shard gets a share of every part of the pack. The plan's hash (settings,
//! unit size, units) is in every shard file, so a merge refuses shards planned against another
//! pack, results file or settings.
//!
//! **Determinism.** Game `i` of a level uses seed `seed + i` whichever unit, shard, thread or
//! machine plays it; a level's rating is computed from its games sorted by number
//! ([`tessera_bots::difficulty::Summary::of`]), so one machine and any set of shards merged in
//! any order write the same results file, byte for byte.
//!
//! `Settings` (a `BotSpec` per rule set name or `*`), `Plan` (levels without a rating under the
//! settings, cut into `Unit`s of `unit_games`; `Plan::hash`), `Shard` (`K/N`, unit `u` is shard `u
//! mod N`'s), `run` (one shard's games on a rayon pool via `difficulty::play_one`; a stop keeps
//! whole units; the puzzle measure by the unit holding game 0), `finish` (ratings from units:
//! `Summary::of` over games sorted by number) and `merge` (checks each `ShardFile::check` — format,
//! a checksum of header and games, counts within `MAX_SHARDS`/`MAX_GAMES` before anything is
//! allocated — then plan hash, shard count, each shard once, whole, units as planned). Plans are
//! bounded (`MAX_PLAN_GAMES`); duplicate entries are found by canonical path, and plan, finish and
//! lookups are linear (hash sets, sorted ratings bisected).

use crate::error::PackError;
use crate::pack::Resolved;
use crate::results::{Estimated, Rating, RatingKey, Results};
pub use crate::settings::{ANY_RULE_SET, MAX_GAMES, Settings};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tessera_bots::difficulty::{Puzzle, Summary, Sweep, measure_puzzle, play_one};
use tessera_bots::{BotSpec, GameResult, Playable};
use tessera_core::{Level, RuleSet, state_hash};

/// The shard file format's version (2: a checksum of the header and the games).
pub const SHARD_FORMAT: u32 = 2;

/// The most games a plan holds over all its levels (every game is a work item in memory).
pub const MAX_PLAN_GAMES: u64 = 10_000_000;

/// The most shards a rating is cut into (`--shard K/N`, a shard file's `shard.count`).
pub const MAX_SHARDS: u64 = 65_536;

/// The most bytes read of a shard file (every game of its units).
pub const MAX_SHARD_FILE: u64 = 1 << 30;

/// A level to rate.
#[derive(Clone, Debug)]
pub struct PlannedLevel {
    /// Its entry in the pack (0-based).
    pub entry: usize,
    /// The level.
    pub level: Level,
    /// Its content hash.
    pub hash: String,
    /// Its rule set.
    pub rule_set: RuleSet,
    /// The bot that rates it.
    pub bot: BotSpec,
}

/// A work unit: games `first..first + games` of one planned level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// The level, an index into [`Plan::levels`].
    pub level: usize,
    /// The first game.
    pub first: u64,
    /// How many games.
    pub games: u64,
}

/// Which share of the units to play: `index` of `count`, `index` from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// The whole plan on one machine.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `K/N` (`K` from 0 to `N - 1`).
    pub fn parse(text: &str) -> Result<Shard, PackError> {
        let bad = |why: &str| PackError::Settings(format!("--shard {text}: {why}"));
        let (k, n) = text.split_once('/').ok_or_else(|| bad("expected K/N, such as 0/4"))?;
        let k: u64 = k.trim().parse().map_err(|_| bad("K is not a number"))?;
        let n: u64 = n.trim().parse().map_err(|_| bad("N is not a number"))?;
        if n == 0 {
            return Err(bad("N must be at least 1"));
        }
        if n > MAX_SHARDS {
            return Err(bad(&format!("at most {MAX_SHARDS} shards")));
        }
        if k >= n {
            return Err(bad("K counts from 0 and must be below N"));
        }
        Ok(Shard { index: k, count: n })
    }

    /// Whether unit number `unit` is this shard's.
    pub fn owns(self, unit: usize) -> bool {
        unit as u64 % self.count == self.index
    }
}

/// The units of a rating run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The settings.
    pub settings: Settings,
    /// Games per unit (the last unit of a level may have fewer).
    pub unit_games: u64,
    /// The levels to rate, in pack order.
    pub levels: Vec<PlannedLevel>,
    /// The units, numbered by position.
    pub units: Vec<Unit>,
}

impl Plan {
    /// The plan for `pack` (its resolved entries) given the ratings already in `results`.
    /// `pack_path` names the pack in errors (an entry no bot plays).
    pub fn new(
        pack_path: &Path,
        entries: &[Resolved],
        labels: &[String],
        results: &Results,
        settings: Settings,
        unit_games: u64,
    ) -> Result<Plan, PackError> {
        settings.check()?;
        if unit_games == 0 {
            return Err(PackError::Settings("--unit-games must be at least 1".into()));
        }
        let mut levels = Vec::new();
        let mut units = Vec::new();
        // Looked up only, never iterated: linear in the pack (20,000 entries).
        let rated: std::collections::HashSet<&RatingKey> = results.ratings.iter().map(|r| &r.key).collect();
        let mut planned: std::collections::HashSet<(String, String)> = std::collections::HashSet::new();
        for (i, e) in entries.iter().enumerate() {
            let bot = settings.bot_for(e.rule_set).ok_or_else(|| PackError::Entry {
                path: pack_path.to_path_buf(),
                entry: i + 1,
                label: labels.get(i).cloned().unwrap_or_default(),
                message: format!(
                    "no bot given plays {} levels (give one with --bot {}=NAME)",
                    e.rule_set,
                    e.rule_set.name()
                ),
            })?;
            let key = RatingKey::new(&e.hash, &bot, settings.seed, settings.games, settings.config);
            // Rated already, or planned for an earlier entry holding the same level.
            if rated.contains(&key) || !planned.insert((e.hash.clone(), key.bot.clone())) {
                continue;
            }
            if (levels.len() as u64 + 1).saturating_mul(settings.games) > MAX_PLAN_GAMES {
                return Err(PackError::Settings(format!(
                    "{}: {} levels of {} games each is more than {MAX_PLAN_GAMES} games in one rating; \
                     rate fewer games or a smaller pack",
                    pack_path.display(),
                    entries.len(),
                    settings.games
                )));
            }
            let level = levels.len();
            let mut first = 0;
            while first < settings.games {
                let games = unit_games.min(settings.games - first);
                units.push(Unit { level, first, games });
                first += games;
            }
            levels.push(PlannedLevel {
                entry: i,
                level: e.level.clone(),
                hash: e.hash.clone(),
                rule_set: e.rule_set,
                bot,
            });
        }
        Ok(Plan { settings, unit_games, levels, units })
    }

    /// The plan's identity: a hash of the settings, unit size and every unit's level and games.
    pub fn hash(&self) -> String {
        let units: Vec<(&str, u64, u64)> =
            self.units.iter().map(|u| (self.levels[u.level].hash.as_str(), u.first, u.games)).collect();
        let settings = serde_json::to_string(&self.settings).unwrap_or_default();
        format!("{:016x}", state_hash(&(settings, self.unit_games, units)))
    }

    /// How many games shard `shard` plays.
    pub fn games_of(&self, shard: Shard) -> u64 {
        self.units.iter().enumerate().filter(|(i, _)| shard.owns(*i)).map(|(_, u)| u.games).sum()
    }
}

/// The games of one unit, played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitResult {
    /// The unit's number in the plan.
    pub unit: usize,
    /// Its level's hash (checked on merge).
    pub level_hash: String,
    /// Its first game.
    pub first: u64,
    /// Every game, by number.
    pub games: Vec<GameResult>,
    /// The level's puzzle measure, in the unit that holds game 0 (rule sets that have one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<Puzzle>,
    /// The level's difficulty estimate, in the unit that holds game 0 (puzzle levels: the rule
    /// sets with a solver).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimated>,
}

/// What a shard writes: its units' games, with what identifies the plan.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardFile {
    /// [`SHARD_FORMAT`].
    pub format: u32,
    /// [`Plan::hash`].
    pub plan: String,
    /// Which shard.
    pub shard: Shard,
    /// The plan's unit size.
    pub unit_games: u64,
    /// The plan's settings.
    pub settings: Settings,
    /// Whether the shard was stopped before all its units were played.
    pub interrupted: bool,
    /// The units played in full, by number.
    pub units: Vec<UnitResult>,
    /// [`ShardFile::checksum_of`] the fields above, 16 hex digits: a merge refuses a shard whose
    /// contents no longer match it (a hand edit, a damaged copy). It guards against accidents,
    /// not against someone who recomputes it.
    #[serde(default)]
    pub checksum: String,
}

impl ShardFile {
    /// The checksum of every field but `checksum` itself: the header and every game.
    pub fn checksum_of(&self) -> String {
        let body = (
            self.format,
            &self.plan,
            self.shard,
            self.unit_games,
            &self.settings,
            self.interrupted,
            &self.units,
        );
        format!("{:016x}", state_hash(&body))
    }

    /// Sets `checksum` to the contents' (after the shard is played, or edited on purpose).
    pub fn seal(&mut self) {
        self.checksum = self.checksum_of();
    }

    /// Checks what can be checked of a shard without its plan: the format, the checksum, and
    /// the sizes it gives (shard count, games) before anything is allocated for them. `name`
    /// names the file in errors.
    pub fn check(&self, name: &str) -> Result<(), PackError> {
        let bad = |m: String| Err(PackError::Merge(format!("{name}: {m}")));
        if self.format != SHARD_FORMAT {
            return bad(format!(
                "shard format {}, expected {SHARD_FORMAT} (rate that shard again with this version)",
                self.format
            ));
        }
        if self.checksum != self.checksum_of() {
            return bad(
                "its contents do not match its checksum (the file was edited or damaged): rate that shard again"
                    .into(),
            );
        }
        if self.shard.count == 0 || self.shard.count > MAX_SHARDS {
            return bad(format!("shard count {}: from 1, at most {MAX_SHARDS} shards", self.shard.count));
        }
        if self.shard.index >= self.shard.count {
            return bad(format!("shard index {} out of 0..{}", self.shard.index, self.shard.count));
        }
        if self.unit_games == 0 {
            return bad("unit_games is 0".into());
        }
        self.settings.check().or_else(|e| bad(format!("settings: {e}")))
    }

    /// Parses a shard file's text and [`ShardFile::check`]s it; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<ShardFile, PackError> {
        let shard: ShardFile = serde_json::from_str(text).map_err(|e| PackError::Syntax {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: format!(
                "not a pack shard file: {}",
                e.to_string().split(" at line ").next().unwrap_or_default()
            ),
        })?;
        shard.check(&path.display().to_string())?;
        Ok(shard)
    }

    /// Reads the shard file `path` (at most [`MAX_SHARD_FILE`] bytes; see [`ShardFile::parse`]).
    pub fn read(path: &Path) -> Result<ShardFile, PackError> {
        ShardFile::parse(&crate::pack::read_text_capped(path, MAX_SHARD_FILE)?, path)
    }
}

/// Progress of a run, after each game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Games played.
    pub games_done: u64,
    /// Games to play.
    pub games_total: u64,
    /// Levels whose games (in this shard) are all played.
    pub levels_done: u64,
    /// Levels with games in this shard.
    pub levels_total: u64,
}

/// Plays shard `shard` of `plan` on `jobs` threads. Games not started when `stop` becomes true
/// are skipped; only whole units are kept. `on_game` is called after each game (from any
/// thread).
pub fn run(
    plan: &Plan,
    shard: Shard,
    jobs: usize,
    stop: &AtomicBool,
    on_game: &(dyn Fn(Progress) + Sync),
) -> Result<ShardFile, PackError> {
    if jobs == 0 {
        return Err(PackError::Settings("--jobs must be at least 1".into()));
    }
    let sweeps: Vec<Sweep> = plan
        .levels
        .iter()
        .map(|l| Sweep {
            level: l.level.clone(),
            level_name: l.hash.clone(),
            bot: l.bot.clone(),
            seed: plan.settings.seed,
            first_game: 0,
            games: plan.settings.games,
            game: plan.settings.config,
        })
        .collect();
    let mine: Vec<usize> = (0..plan.units.len()).filter(|&i| shard.owns(i)).collect();
    let work: Vec<(usize, u64)> = mine
        .iter()
        .flat_map(|&i| {
            let u = plan.units[i];
            (u.first..u.first + u.games).map(move |g| (i, g))
        })
        .collect();
    let remaining: Vec<AtomicU64> = (0..plan.levels.len()).map(|_| AtomicU64::new(0)).collect();
    for &(i, _) in &work {
        remaining[plan.units[i].level].fetch_add(1, Ordering::Relaxed);
    }
    let levels_total = remaining.iter().filter(|r| r.load(Ordering::Relaxed) > 0).count() as u64;
    let (games_done, levels_done) = (AtomicU64::new(0), AtomicU64::new(0));
    let games_total = work.len() as u64;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| PackError::Settings(format!("cannot start {jobs} threads: {e}")))?;
    let played: Vec<Option<GameResult>> = pool.install(|| {
        work.par_iter()
            .map(|&(i, game)| {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                let level = plan.units[i].level;
                let r = play_one(&sweeps[level], game).map_err(|e| PackError::Bot {
                    entry: plan.levels[level].entry + 1,
                    message: e.to_string(),
                })?;
                let level_finished = remaining[level].fetch_sub(1, Ordering::Relaxed) == 1;
                let levels = if level_finished {
                    levels_done.fetch_add(1, Ordering::Relaxed) + 1
                } else {
                    levels_done.load(Ordering::Relaxed)
                };
                let games = games_done.fetch_add(1, Ordering::Relaxed) + 1;
                on_game(Progress { games_done: games, games_total, levels_done: levels, levels_total });
                Ok(Some(r))
            })
            .collect::<Result<_, PackError>>()
    })?;
    // Back into units, in order; a unit with a game missing was interrupted.
    let mut games = played.into_iter();
    let mut units = Vec::new();
    let mut interrupted = false;
    for &i in &mine {
        let u = plan.units[i];
        let results: Vec<Option<GameResult>> = games.by_ref().take(u.games as usize).collect();
        if results.iter().all(Option::is_some) {
            let l = &plan.levels[u.level];
            units.push(UnitResult {
                unit: i,
                level_hash: l.hash.clone(),
                first: u.first,
                games: results.into_iter().flatten().collect(),
                puzzle: None,
                estimate: None,
            });
        } else {
            interrupted = true;
        }
    }
    // The puzzle measures, once per level, by the unit that holds game 0.
    let puzzles: Vec<Option<Puzzle>> = pool.install(|| {
        units
            .par_iter()
            .map(|u| {
                if u.first != 0 {
                    return Ok(None);
                }
                let l = &plan.levels[plan.units[u.unit].level];
                measure_puzzle(&l.level, plan.settings.seed, &|| stop.load(Ordering::Relaxed))
                    .map_err(|e| PackError::Bot { entry: l.entry + 1, message: e.to_string() })
            })
            .collect::<Result<_, PackError>>()
    })?;
    // The difficulty estimates likewise (bounded by states, never a clock: the same on every
    // machine).
    let estimates: Vec<Option<Estimated>> = pool.install(|| {
        units
            .par_iter()
            .map(|u| {
                if u.first != 0 || stop.load(Ordering::Relaxed) {
                    return None;
                }
                let l = &plan.levels[plan.units[u.unit].level];
                Estimated::measure(&l.level, &l.hash)
            })
            .collect()
    });
    for ((u, p), e) in units.iter_mut().zip(puzzles).zip(estimates) {
        u.puzzle = p;
        u.estimate = e;
    }
    let mut file = ShardFile {
        format: SHARD_FORMAT,
        plan: plan.hash(),
        shard,
        unit_games: plan.unit_games,
        settings: plan.settings.clone(),
        interrupted,
        units,
        checksum: String::new(),
    };
    file.seal();
    Ok(file)
}

/// Adds to `results` the difficulty estimate of every puzzle level of `entries` that has none
/// at the default budget (levels rated before estimates were kept), on `jobs` threads; a stop
/// leaves the rest for the next run. Returns how many were added.
pub fn fill_estimates(
    entries: &[Resolved],
    results: &mut Results,
    jobs: usize,
    stop: &AtomicBool,
) -> Result<usize, PackError> {
    let limits = tessera_bots::estimate::Limits::default();
    let mut missing: Vec<(&Level, &str)> = Vec::new();
    // Looked up only, never iterated.
    let mut seen = std::collections::HashSet::new();
    for e in entries {
        let kept = results.estimate(&e.hash).is_some_and(|k| k.states == limits.states);
        if crate::results::has_estimate(e.rule_set) && !kept && seen.insert(e.hash.as_str()) {
            missing.push((&e.level, e.hash.as_str()));
        }
    }
    if missing.is_empty() {
        return Ok(0);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| PackError::Settings(format!("cannot start {jobs} threads: {e}")))?;
    let found: Vec<Option<Estimated>> = pool.install(|| {
        missing
            .par_iter()
            .map(
                |(level, hash)| {
                    if stop.load(Ordering::Relaxed) { None } else { Estimated::measure(level, hash) }
                },
            )
            .collect()
    });
    let added = found.iter().flatten().count();
    results.add_estimates(found.into_iter().flatten());
    Ok(added)
}

/// The results file after `plan`: the ratings of `old` for levels still in the pack
/// (`entries`), plus a rating for every planned level all of whose units are in `units`.
/// Returns it with the number of levels rated now.
pub fn finish(plan: &Plan, old: &Results, entries: &[Resolved], units: &[UnitResult]) -> (Results, usize) {
    let mut by_unit: BTreeMap<usize, &UnitResult> = BTreeMap::new();
    for u in units {
        by_unit.insert(u.unit, u);
    }
    let hashes: std::collections::HashSet<&str> = entries.iter().map(|e| e.hash.as_str()).collect();
    let mut ratings: Vec<Rating> =
        old.ratings.iter().filter(|r| hashes.contains(r.key.level_hash.as_str())).cloned().collect();
    let mut rated = 0;
    let mut units_of: Vec<Vec<usize>> = vec![Vec::new(); plan.levels.len()];
    for (i, u) in plan.units.iter().enumerate() {
        units_of[u.level].push(i);
    }
    let mut new_ratings = Vec::new();
    for (li, l) in plan.levels.iter().enumerate() {
        let mine = &units_of[li];
        let Some(parts) = mine.iter().map(|i| by_unit.get(i).copied()).collect::<Option<Vec<&UnitResult>>>()
        else {
            continue;
        };
        let mut games: Vec<GameResult> = parts.iter().flat_map(|u| u.games.iter().copied()).collect();
        games.sort_unstable_by_key(|g| g.game);
        let objectives = l
            .level
            .start(Some(plan.settings.seed))
            .map(|g| g.rules.outcome(&g.state).objectives)
            .unwrap_or_default();
        let mut summary = Summary::of(&games, objectives, l.rule_set);
        summary.puzzle = parts.iter().find(|u| u.first == 0).and_then(|u| u.puzzle.clone());
        let s = &plan.settings;
        let key = RatingKey::new(&l.hash, &l.bot, s.seed, s.games, s.config);
        let mut rating = Rating::of(key, l.rule_set, &summary);
        rating.capped = games.iter().filter(|g| !g.won && g.moves >= s.config.max_moves).count() as u64;
        new_ratings.push(rating);
        rated += 1;
    }
    // A new rating replaces an old one of the same key.
    let new_keys: std::collections::HashSet<RatingKey> = new_ratings.iter().map(|r| r.key.clone()).collect();
    ratings.retain(|r| !new_keys.contains(&r.key));
    ratings.extend(new_ratings);
    ratings.sort_by(|a, b| a.key.cmp(&b.key));
    let mut results = Results {
        format: crate::results::RESULTS_FORMAT,
        settings: Some(plan.settings.clone()),
        ratings,
        estimates: old.estimates.iter().filter(|e| hashes.contains(e.level_hash.as_str())).cloned().collect(),
    };
    results.add_estimates(units.iter().filter_map(|u| u.estimate.clone()));
    (results, rated)
}

/// Merges shard files of `plan` into the results file one machine would write. `names` names
/// each shard (its file) in errors. Every shard `0..N` must be there exactly once, whole, and
/// planned against the same pack, results file and settings.
pub fn merge(
    plan: &Plan,
    old: &Results,
    entries: &[Resolved],
    shards: &[(String, ShardFile)],
) -> Result<Results, PackError> {
    let Some((_, first)) = shards.first() else {
        return Err(PackError::Merge("no shard to merge".into()));
    };
    for (name, s) in shards {
        s.check(name)?;
    }
    let count = first.shard.count;
    let hash = plan.hash();
    // Bounded by MAX_SHARDS (checked above).
    let mut seen = vec![None::<&str>; count as usize];
    let mut units = Vec::new();
    for (name, s) in shards {
        if s.plan != hash {
            return Err(PackError::Merge(format!(
                "{name}: planned for another pack, results file or settings (plan {}, this pack's is {hash})",
                s.plan
            )));
        }
        if s.shard.count != count {
            return Err(PackError::Merge(format!(
                "{name}: shard {}/{}, but the first shard is of {count}",
                s.shard.index, s.shard.count
            )));
        }
        if s.shard.index >= count {
            return Err(PackError::Merge(format!("{name}: shard index {} out of 0..{count}", s.shard.index)));
        }
        if let Some(other) = seen[s.shard.index as usize] {
            return Err(PackError::Merge(format!(
                "{name} and {other} are both shard {}/{count}",
                s.shard.index
            )));
        }
        seen[s.shard.index as usize] = Some(name);
        if s.interrupted {
            return Err(PackError::Merge(format!(
                "{name}: interrupted before it finished: run that shard again"
            )));
        }
        let expected: Vec<usize> = (0..plan.units.len()).filter(|&i| s.shard.owns(i)).collect();
        let got: Vec<usize> = s.units.iter().map(|u| u.unit).collect();
        if got != expected {
            return Err(PackError::Merge(format!(
                "{name}: does not hold the units its plan gives shard {}",
                s.shard.index
            )));
        }
        for u in &s.units {
            let planned = plan.units[u.unit];
            let games_ok = u.games.len() as u64 == planned.games
                && u.games.iter().zip(planned.first..).all(|(g, n)| g.game == n);
            if u.level_hash != plan.levels[planned.level].hash || u.first != planned.first || !games_ok {
                return Err(PackError::Merge(format!("{name}: unit {} is not the planned one", u.unit)));
            }
        }
        units.extend(s.units.iter().cloned());
    }
    let missing: Vec<String> =
        seen.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| format!("{i}/{count}")).collect();
    if !missing.is_empty() {
        return Err(PackError::Merge(format!("missing shards: {}", missing.join(", "))));
    }
    Ok(finish(plan, old, entries, &units).0)
}
