//! tessera-pack: level packs — an ordered campaign of levels — their ratings by bots, and the
//! difficulty curve.
//!
//! - [`Pack`]: the pack file (JSON): a name and entries in play order, each a level file
//!   (relative to the pack) or an inline level, with optional `title`, `note` and `target`
//!   ([`Band`], a win-rate range). [`Pack::parse`] names the entry of every error (unknown
//!   fields, bad bands); [`Pack::resolve`] reads the levels (missing files, bad levels,
//!   duplicates by path or by content). Edits: [`Pack::add`], [`Pack::remove`],
//!   [`Pack::move_entry`]; [`Pack::save`] writes atomically.
//! - [`Results`]: the results file beside the pack ([`results_path`]): [`Rating`]s keyed by
//!   [`RatingKey`] (the level's content hash, the bot and its settings, seed, games), integers
//!   only, sorted: byte-deterministic. Re-rating after an edit plays only the levels whose key is
//!   missing.
//! - [`rate`]: [`Settings`] (a bot per rule set), the [`Plan`] of work units (level, range of
//!   games), [`rate::run`] of one [`Shard`] on a thread pool, [`rate::finish`] and [`rate::merge`]
//!   (any shard order gives the one-machine bytes).
//! - [`report`]: the [`Curve`] (win rate with its interval, moves median, flags) as JSON, CSV or
//!   a self-contained HTML page with SVG charts.
//!
//! The crate reads and writes files (packs, results, shards); it knows no terminal and no egui.
//!
//! ```
//! use tessera_pack::{Pack, Entry};
//! let mut pack = Pack::new("first steps");
//! pack.add(Entry::path("levels/classic.json"), None).unwrap();
//! let text = pack.to_json();
//! let again = Pack::parse(&text, std::path::Path::new("pack.json")).unwrap();
//! assert_eq!(again, pack);
//! ```

mod error;
mod pack;
pub mod rate;
pub mod report;
mod results;
mod settings;

pub use error::PackError;
pub use pack::{Band, Entry, LevelRef, MAX_FILE, Pack, Resolved, level_hash, results_path};
pub use rate::{Plan, Progress, Settings, Shard, ShardFile};
pub use report::{Curve, EstimatePoint, Flag};
pub use results::{Estimated, RESULTS_FORMAT, Rating, RatingKey, Results, Spread, has_estimate};

use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A pack read from its file with its levels resolved and its results file read.
#[derive(Clone, Debug)]
pub struct Opened {
    /// The pack.
    pub pack: Pack,
    /// Its entries' levels.
    pub entries: Vec<Resolved>,
    /// The ratings beside it.
    pub results: Results,
}

impl Opened {
    /// Reads the pack at `path`, its levels and its results file.
    pub fn open(path: &Path) -> Result<Opened, PackError> {
        let pack = Pack::read(path)?;
        let entries = pack.resolve(path)?;
        let results = Results::read(&results_path(path))?;
        Ok(Opened { pack, entries, results })
    }

    /// The plan for these settings.
    pub fn plan(&self, path: &Path, settings: Settings, unit_games: u64) -> Result<Plan, PackError> {
        let labels: Vec<String> = self.pack.entries.iter().map(Entry::label).collect();
        Plan::new(path, &self.entries, &labels, &self.results, settings, unit_games)
    }

    /// The difficulty curve.
    pub fn curve(&self) -> Curve {
        Curve::of(&self.pack, &self.entries, &self.results)
    }
}

/// Rates every level of the pack at `path` that has no rating under `settings`, on `jobs`
/// threads, and writes the results file (also when stopped: the levels finished are kept).
/// Returns the results and how many levels were rated now.
pub fn rate_pack(
    path: &Path,
    settings: Settings,
    unit_games: u64,
    jobs: usize,
    stop: &AtomicBool,
    on_game: &(dyn Fn(Progress) + Sync),
) -> Result<(Results, usize, bool), PackError> {
    let opened = Opened::open(path)?;
    let plan = opened.plan(path, settings, unit_games)?;
    let shard = rate::run(&plan, Shard::ALL, jobs, stop, on_game)?;
    let (mut results, rated) = rate::finish(&plan, &opened.results, &opened.entries, &shard.units);
    rate::fill_estimates(&opened.entries, &mut results, jobs, stop)?;
    results.save(&results_path(path))?;
    Ok((results, rated, shard.interrupted))
}
