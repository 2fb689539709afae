//! `tessera-generate`: new levels from a game's rules, every one proved.
//!
//! [`generate`] turns a PuzzleScript game's source and its hand-made levels into new levels:
//!
//! 1. **Candidates.** Candidate `i` is made from one of the game's levels (the template: `from`,
//!    or one drawn among all of them) with a generator seeded by the run's seed and `i` alone, so
//!    candidate `i` is the same whatever ran before it or beside it. The template's movable
//!    glyphs (every cell that is neither the background nor a wall: players, crates, targets,
//!    and glyphs that stand for several objects) are moved to other floor cells, all of them or
//!    a few, and (unless `keep_walls`) a few inner walls are added or taken away. With `size`
//!    a room of that size is built instead: a wall border when the template has one, the
//!    template's share of inner walls, and the template's movable glyphs. Walls are the glyph
//!    most of the templates' border cells carry (the background excepted).
//! 2. **Proof.** The candidate is played on the game's own rules: a start already won, or won by
//!    one of a few random walks of `2 × min_steps` moves, is trivial and dropped; then the
//!    solver searches it breadth-first ([`Search::Bfs`], so the solution has the fewest steps,
//!    proved) within `level_states` states, and the solution is played again from the start by
//!    the rules (`apply`, one command at a time) to a win. A solution that draws from the game's
//!    generator (random rules) is dropped: kept levels win whatever the seed, as the reference
//!    engine seeds them.
//! 3. **Simplified.** Each object of each cell is taken away in turn (a glyph standing for
//!    several objects becomes the glyph of the rest): where the solution still wins without it,
//!    it stays away. The walls of the border stay (they frame the level), and with
//!    `keep_walls` every wall does. When something went, the level is solved again (the fewest steps may now be
//!    fewer) and simplified again, until nothing can go.
//! 4. **Kept.** A level with fewer than `min_steps` or more than `max_steps` steps, equal to one
//!    of the game's levels or to one kept before, or outside `difficulty`, is dropped. Results are
//!    taken in candidate order (candidates are evaluated `jobs` at a time, each on one thread,
//!    and the results put back in order), so with a budget of states ([`Budget::States`]: the
//!    solver's states, the commands played and the levels started by every candidate, in
//!    candidate order) the levels are the same on any machine and any `jobs`.
//! 5. **Ordered** by the difficulty estimate ([`Curve::Rising`]: `tessera_bots::estimate`'s
//!    `estimate_level`, the number `tessera difficulty` prints, within [`Options::estimate`]'s
//!    states) or as found ([`Curve::Flat`]). With a difficulty range and the rising curve, the
//!    range is cut into `count` equal bands and each band keeps one level, so the levels spread
//!    over the range from easy to hard. Then they are appended to the game's source in its own legend's characters ([`append_levels`]): the
//!    source is kept byte for byte, so PuzzleScript's editor and its reference engine open it.

mod candidate;
mod game;
mod keep;
mod lock;
mod playtest;
mod rules;
mod run;
mod shard;

pub use game::{Prepared, append_levels, prepare};
pub use keep::{Each, generate_each, generate_rules_each};
pub use playtest::{PLAYTEST_BOT, playtest};
pub use rules::{RulesLevel, RulesOutcome, collection, generate_rules, level_files, rules_generator};
pub use run::{Ended, Outcome, Progress, generate};
pub use shard::{
    GameFound, GamePart, PART_FORMAT, PART_VERSION, Part, PartLevel, Record, RulesFound, RulesPart, RunKey,
    generate_part, generate_rules_part, join, join_options, join_rules, read_part, source_hash,
};

use std::time::Duration;
pub use tessera_bots::estimate::Limits as EstimateLimits;
use tessera_core::puzzlescript::PuzzleScriptCommand;

/// What a run may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Wall-clock time: as many levels as are proved before it runs out.
    Time(Duration),
    /// States over the whole run, counted in candidate order: the solver's states expanded,
    /// each command the rules played (random walks, replays), and 64 for each level started
    /// (compiled and opened). The same levels on any machine and any number of jobs.
    States(u64),
}

/// How the kept levels are ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Curve {
    /// From easy to hard by the difficulty estimate (ties: fewer steps first, then as found);
    /// with a difficulty range, spread over it (one level in each of `count` equal bands).
    #[default]
    Rising,
    /// As found (candidate order).
    Flat,
}

impl Curve {
    /// `rising` or `flat`.
    pub fn from_name(name: &str) -> Option<Curve> {
        match name {
            "rising" => Some(Curve::Rising),
            "flat" => Some(Curve::Flat),
            _ => None,
        }
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// How many levels.
    pub count: usize,
    /// The run's seed: candidate `i` draws from a generator seeded by it and `i`.
    pub seed: u64,
    /// What the run may spend.
    pub budget: Budget,
    /// Grow from this playable level only (from 0); `None`: from all of them.
    pub from: Option<usize>,
    /// Rooms of this size (width, height) instead of the templates' own.
    pub size: Option<(usize, usize)>,
    /// A rule set's generator (`--rules`): how many of its main objects (Sokoban: boxes).
    pub objects: Option<usize>,
    /// The fewest steps a kept level's solution may have.
    pub min_steps: usize,
    /// The most steps a kept level's solution may have.
    pub max_steps: Option<usize>,
    /// Change only movable objects: walls stay where the template has them.
    pub keep_walls: bool,
    /// Candidates evaluated at once, one thread each.
    pub jobs: usize,
    /// The most states one candidate's search expands.
    pub level_states: u64,
    /// The most bytes one candidate's search stores.
    pub level_bytes: u64,
    /// Keep only levels whose difficulty estimate is in this range (inclusive); with
    /// [`Curve::Rising`], one level in each of `count` equal bands of it.
    pub difficulty: Option<(f64, f64)>,
    /// The budget of the difficulty estimate's searches (`tessera difficulty --states`).
    pub estimate: EstimateLimits,
    /// The order of the kept levels.
    pub curve: Curve,
    /// Evaluate only the candidates `i` with `i % N == I` (`Some((I, N))`, I from 0).
    pub shard: Option<(u64, u64)>,
    /// A rule set's generator that tunes a given level (`--rules match3 --stage FILE`): the
    /// level.
    pub stage: Option<tessera_core::Level>,
    /// The share of the bot's games a tuned level must be won in (`--win-rate A..B`, 0 to 1).
    pub win_rate: Option<(f64, f64)>,
    /// The bot's games each measure of a tuned level plays (`--games`).
    pub games: u32,
    /// Grow from this level, given as rows in the game's legend characters, instead of the
    /// game's own levels (the editor's "More like this"; see `keep.rs`). Not with `size`.
    pub template: Option<Vec<String>>,
    /// Cells `(x, y)` of the one template (`template`, or `from`) that every candidate keeps
    /// as the template has them: nothing moves into, out of or onto them, and simplification
    /// leaves them (the editor's Keep brush). Not with `size`.
    pub locked: Vec<(usize, usize)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            count: 10,
            seed: 1,
            budget: Budget::Time(Duration::from_secs(60)),
            from: None,
            size: None,
            objects: None,
            min_steps: 6,
            max_steps: None,
            keep_walls: false,
            jobs: 1,
            level_states: 200_000,
            level_bytes: 256 << 20,
            difficulty: None,
            estimate: EstimateLimits::default(),
            curve: Curve::Rising,
            shard: None,
            stage: None,
            win_rate: None,
            games: 200,
            template: None,
            locked: Vec::new(),
        }
    }
}

/// A level proved, replayed to a win and simplified.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Its rows, in the game's legend characters.
    pub rows: Vec<String>,
    /// Its solution: the fewest steps (breadth-first, proved).
    pub solution: Vec<PuzzleScriptCommand>,
    /// States the breadth-first search expanded to prove it (the final level's search).
    pub states: u64,
    /// Its difficulty estimate (`estimate_level`: higher is harder).
    pub difficulty: f64,
    /// The estimate's reasons, in words, the largest first.
    pub why: Vec<String>,
    /// The candidate it came from.
    pub candidate: u64,
    /// Objects simplification took away.
    pub removed: usize,
    /// Milliseconds its candidate took, from making it to its last replay (not deterministic).
    pub millis: u64,
}

impl Level {
    /// The solution's steps.
    pub fn steps(&self) -> usize {
        self.solution.len()
    }
}

/// The band of `--difficulty A..B` that a level of difficulty `d` falls in, when the range is
/// cut into `count` equal bands (the rising curve keeps one level in each): `None` outside
/// the range or when it is one point.
pub fn band(range: (f64, f64), count: usize, d: f64) -> Option<usize> {
    let (a, b) = range;
    if !(a..=b).contains(&d) || b <= a || count == 0 {
        return None;
    }
    let k = ((d - a) / (b - a) * count as f64) as usize;
    Some(k.min(count - 1))
}

/// Why levels could not be generated: each names what and where.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenerateError {
    /// The game does not compile.
    #[error("{0}")]
    Compile(String),
    /// The game has no player.
    #[error(
        "the game has no player (an object or legend entry called Player): a level needs one to be played"
    )]
    NoPlayer,
    /// The game has no win condition.
    #[error(
        "the game has no win condition (its WINCONDITIONS section is empty): no level can be proved winnable"
    )]
    NoWinCondition,
    /// The game has no level to grow from.
    #[error("the game has no level to grow from: draw one in its LEVELS section first")]
    NoLevels,
    /// The LEVELS section is not the source's last.
    #[error(
        "the game's LEVELS section is not its last section (line {line} starts another): levels are appended at the end"
    )]
    LevelsNotLast {
        /// The line of the section after LEVELS.
        line: usize,
    },
    /// `from` names no level.
    #[error("--from {number}: the game has {count} levels (numbered from 1)")]
    NoSuchLevel {
        /// The level asked for, from 1.
        number: usize,
        /// How many the game has.
        count: usize,
    },
    /// A size that no template fits.
    #[error("--size {width}x{height}: {why}")]
    Size {
        /// Asked width.
        width: usize,
        /// Asked height.
        height: usize,
        /// Why it cannot be filled.
        why: String,
    },
    /// An option out of range.
    #[error("{0}")]
    Option(String),
    /// Parts that do not join into one run.
    #[error("{0}")]
    Parts(String),
}

#[cfg(test)]
mod tests;
