//! The results file beside a pack: ratings keyed by level content hash, bot and settings.
//!
//! Integers only (the win rate and its interval are computed from `wins` and `games` when
//! shown), ratings sorted by their key, fields in a fixed order: the same ratings always give
//! the same bytes, whichever machine or shards computed them.
//!
//! `Results` (the results file beside the pack, `results_path`), `Rating` keyed by `RatingKey`
//! (level hash, bot JSON, seed, games, game config), integers only (`Spread`; the rate and its
//! Wilson interval are computed when shown), sorted on write.

use crate::error::PackError;
use crate::settings::Settings;
use serde::{Deserialize, Serialize};
use std::path::Path;
use tessera_bots::difficulty::{Distribution, GameRef, Puzzle, Summary, wilson_interval};
use tessera_bots::estimate::{Estimate, Limits, estimate_level};
use tessera_bots::{BotSpec, GameConfig};
use tessera_core::{Level, RuleSet};

/// The results file format's version.
pub const RESULTS_FORMAT: u32 = 1;

/// A distribution of one figure, integers only (nearest-rank percentiles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spread {
    /// Smallest.
    pub min: u64,
    /// 10th percentile.
    pub p10: u64,
    /// Median.
    pub median: u64,
    /// 90th percentile.
    pub p90: u64,
    /// Largest.
    pub max: u64,
}

impl From<&Distribution> for Spread {
    fn from(d: &Distribution) -> Spread {
        Spread { min: d.min, p10: d.p10, median: d.median, p90: d.p90, max: d.max }
    }
}

/// What a rating is of: a level (by content hash), a bot with its settings, the games.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingKey {
    /// The level's content hash ([`crate::level_hash`]).
    pub level_hash: String,
    /// The bot's name and settings, as JSON (a sortable, exact form of its [`BotSpec`]).
    pub bot: String,
    /// Game `i` used seed `seed + i`.
    pub seed: u64,
    /// How many games.
    pub games: u64,
    /// The most moves a game may last.
    pub max_moves: u32,
    /// Whether 2048 played on after the target.
    pub keep_going: bool,
}

impl RatingKey {
    /// The key of a rating of `level_hash` by `bot` over `games` games from `seed`.
    pub fn new(level_hash: &str, bot: &BotSpec, seed: u64, games: u64, config: GameConfig) -> RatingKey {
        RatingKey {
            level_hash: level_hash.to_string(),
            // A BotSpec is a name and numbers: serialization cannot fail.
            bot: serde_json::to_string(bot).unwrap_or_default(),
            seed,
            games,
            max_moves: config.max_moves,
            keep_going: config.keep_going,
        }
    }
}

/// One level rated by one bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rating {
    /// What was rated.
    pub key: RatingKey,
    /// The level's rule set.
    pub rule_set: RuleSet,
    /// Games won.
    pub wins: u64,
    /// Commands played per game.
    pub moves: Option<Spread>,
    /// Final score per game.
    pub score: Option<Spread>,
    /// How many objectives the level has.
    pub objectives: u32,
    /// `[objectives met, games]`.
    pub objectives_met: Vec<[u64; 2]>,
    /// `[tile, games]` (slide).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_tiles: Vec<[u64; 2]>,
    /// The level measured as a puzzle (sokoban).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<Puzzle>,
    /// The best game.
    pub best: Option<GameRef>,
    /// The worst game.
    pub worst: Option<GameRef>,
    /// Games stopped by the move cap (`key.max_moves`) without being won (absent when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub capped: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Rating {
    /// A rating from a sweep's summary (no game capped: see [`Rating::capped`]).
    pub fn of(key: RatingKey, rule_set: RuleSet, s: &Summary) -> Rating {
        Rating {
            capped: 0,
            key,
            rule_set,
            wins: s.wins,
            moves: s.moves.as_ref().map(Spread::from),
            score: s.score.as_ref().map(Spread::from),
            objectives: s.objectives,
            objectives_met: s.objectives_met.clone(),
            top_tiles: s.top_tiles.clone(),
            puzzle: s.puzzle.clone(),
            best: s.best,
            worst: s.worst,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.key.games
    }

    /// `wins / games`.
    pub fn win_rate(&self) -> f64 {
        if self.key.games == 0 { 0.0 } else { self.wins as f64 / self.key.games as f64 }
    }

    /// The 95 % Wilson interval of the win rate.
    pub fn interval(&self) -> [f64; 2] {
        wilson_interval(self.wins, self.key.games)
    }
}

/// A puzzle level's difficulty estimate (`tessera_bots::estimate::estimate_level`, what
/// `tessera difficulty` prints), kept beside the bots' ratings: the same number and reasons
/// for the pack's curve, `pack rate` and `tessera generate --pack`. It depends on the level and
/// the searches' budget alone (no bot, no seed), so it is keyed by those.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Estimated {
    /// The level's content hash ([`crate::level_hash`]).
    pub level_hash: String,
    /// The budget of each of its searches, in states ([`Limits::states`]).
    pub states: u64,
    /// The estimate: higher is harder (two decimals; 100 when the solver found no solution).
    pub difficulty: f64,
    /// Its reasons, in words, the largest first.
    pub why: Vec<String>,
}

impl Estimated {
    /// The estimate of the level of hash `level_hash` with `limits`, as the pack keeps it.
    pub fn of(level_hash: &str, limits: &Limits, estimate: &Estimate) -> Estimated {
        Estimated {
            level_hash: level_hash.to_string(),
            states: limits.states,
            difficulty: estimate.difficulty,
            why: estimate.why.clone(),
        }
    }

    /// The estimate of `level` at the default budget, when its rule set has a solver
    /// (PuzzleScript, Sokoban); `None` for the others (they keep their bots' figures) and for a
    /// level that does not start.
    pub fn measure(level: &Level, level_hash: &str) -> Option<Estimated> {
        if !has_estimate(level.rule_set()) {
            return None;
        }
        let limits = Limits::default();
        estimate_level(level, &limits).ok().map(|e| Estimated::of(level_hash, &limits, &e))
    }
}

/// Whether levels of `rule_set` get a difficulty estimate (those with a solver).
pub fn has_estimate(rule_set: RuleSet) -> bool {
    tessera_bots::estimate::rates(rule_set)
}

/// The results file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    /// [`RESULTS_FORMAT`].
    pub format: u32,
    /// The settings of the last rating: the ones reports and views show.
    pub settings: Option<Settings>,
    /// Every rating, sorted by key (lookups bisect); one per key.
    pub ratings: Vec<Rating>,
    /// The puzzle levels' difficulty estimates, sorted by level hash and budget; one per pair
    /// (absent in files written before they were kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub estimates: Vec<Estimated>,
}

impl Results {
    /// No ratings.
    pub fn empty() -> Results {
        Results { format: RESULTS_FORMAT, settings: None, ratings: Vec::new(), estimates: Vec::new() }
    }

    /// Reads `path`; a missing file is no ratings.
    pub fn read(path: &Path) -> Result<Results, PackError> {
        if !path.exists() {
            return Ok(Results::empty());
        }
        let text = crate::pack::read_text(path)?;
        let mut results: Results = serde_json::from_str(&text).map_err(|e| PackError::Syntax {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string().split(" at line ").next().unwrap_or_default().to_string(),
        })?;
        if results.format != RESULTS_FORMAT {
            return Err(PackError::Io {
                path: path.to_path_buf(),
                message: format!("results format {}, expected {RESULTS_FORMAT}", results.format),
            });
        }
        // Sorted as the file is written, so that `get` can bisect (a hand-edited file may not be).
        results.ratings.sort_by(|a, b| a.key.cmp(&b.key));
        results.sort_estimates();
        // A win rate outside 0–100 % (issue 29.11: shown as "1000.0 %") is a damaged file.
        for (i, r) in results.ratings.iter().enumerate() {
            if r.key.games == 0 || r.wins > r.key.games {
                return Err(PackError::Io {
                    path: path.to_path_buf(),
                    message: format!(
                        "rating {} ({}): {} wins of {} games is not a win rate from 0 to 100 %",
                        i + 1,
                        r.key.level_hash,
                        r.wins,
                        r.key.games
                    ),
                });
            }
        }
        Ok(results)
    }

    /// The file's bytes: pretty JSON, ratings sorted, a final newline.
    pub fn to_json(&self) -> String {
        let mut sorted = self.clone();
        sorted.ratings.sort_by(|a, b| a.key.cmp(&b.key));
        sorted.ratings.dedup_by(|a, b| a.key == b.key);
        sorted.sort_estimates();
        serde_json::to_string_pretty(&sorted).unwrap_or_default() + "\n"
    }

    /// Writes the file atomically.
    pub fn save(&self, path: &Path) -> Result<(), PackError> {
        tessera_replay::atomic_write(path, self.to_json().as_bytes())
            .map_err(|e| PackError::Io { path: path.to_path_buf(), message: e.to_string() })
    }

    /// The rating with this key, by bisection: `ratings` are sorted by key, as
    /// [`Results::read`] and rating leave them.
    pub fn get(&self, key: &RatingKey) -> Option<&Rating> {
        self.ratings.binary_search_by(|r| r.key.cmp(key)).ok().map(|i| &self.ratings[i])
    }

    /// Sorts the estimates by level hash and budget, one per pair (the last given wins).
    fn sort_estimates(&mut self) {
        // A stable sort keeps the order among equal keys: keep the last of each.
        self.estimates.sort_by(|a, b| (&a.level_hash, a.states).cmp(&(&b.level_hash, b.states)));
        let mut kept: Vec<Estimated> = Vec::with_capacity(self.estimates.len());
        for e in self.estimates.drain(..) {
            match kept.last_mut() {
                Some(k) if k.level_hash == e.level_hash && k.states == e.states => *k = e,
                _ => kept.push(e),
            }
        }
        self.estimates = kept;
    }

    /// Adds (or replaces) estimates, keeping them sorted.
    pub fn add_estimates(&mut self, estimates: impl IntoIterator<Item = Estimated>) {
        self.estimates.extend(estimates);
        self.sort_estimates();
    }

    /// The estimate a view shows for a level: the one at the default budget, else the one of
    /// the largest budget kept.
    pub fn estimate(&self, level_hash: &str) -> Option<&Estimated> {
        let first = self.estimates.partition_point(|e| e.level_hash.as_str() < level_hash);
        let mine = self.estimates[first..].iter().take_while(|e| e.level_hash == level_hash);
        let mut best: Option<&Estimated> = None;
        for e in mine {
            if e.states == Limits::DEFAULT_STATES {
                return Some(e);
            }
            best = Some(e);
        }
        best
    }

    /// The rating a view shows for a level: the one under the last settings' bot for its rule
    /// set, if any.
    pub fn latest(&self, level_hash: &str, rule_set: RuleSet) -> Option<&Rating> {
        let settings = self.settings.as_ref()?;
        let bot = settings.bot_for(rule_set)?;
        self.get(&RatingKey::new(level_hash, &bot, settings.seed, settings.games, settings.config))
    }
}
