//! What a difficulty sweep reports of one level: the figures of its games ([`Summary`]: win
//! rate with its interval, distributions, the best and worst games) and the rule set's own
//! measure of a puzzle ([`Puzzle`]). Computed in `difficulty.rs`; the rule sets' registry fills
//! in their parts.

use serde::{Deserialize, Serialize};

/// A distribution of one figure over the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Distribution {
    /// Smallest.
    pub min: u64,
    /// 10th percentile (nearest rank).
    pub p10: u64,
    /// Median (nearest rank).
    pub median: u64,
    /// Mean.
    pub mean: f64,
    /// 90th percentile (nearest rank).
    pub p90: u64,
    /// Largest.
    pub max: u64,
}

impl Distribution {
    pub(crate) fn of(mut values: Vec<u64>) -> Option<Distribution> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let n = values.len();
        let rank = |p: usize| values[(p * n).div_ceil(100).clamp(1, n) - 1];
        let sum: u128 = values.iter().map(|&v| u128::from(v)).sum();
        Some(Distribution {
            min: values[0],
            p10: rank(10),
            median: rank(50),
            mean: sum as f64 / n as f64,
            p90: rank(90),
            max: values[n - 1],
        })
    }
}

/// One game singled out (best or worst), with what replays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRef {
    /// The game's number.
    pub game: u64,
    /// Its seed (`tessera bot LEVEL --bot NAME --seed SEED` replays it).
    pub seed: u64,
    /// Whether it won.
    pub won: bool,
    /// Its score.
    pub score: u64,
    /// Its moves.
    pub moves: u32,
}

/// How a puzzle measure ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PuzzleOutcome {
    /// The solver found an optimal solution.
    Solved,
    /// The solver proved the level has none.
    Unsolvable,
    /// The node budget ran out, or the sweep was stopped.
    Stopped,
    /// The work budget of a run ([`crate::run_work`]) ran out first (issue 66.3).
    #[serde(rename = "cut_short")]
    CutShort,
}

impl std::fmt::Display for PuzzleOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PuzzleOutcome::Solved => "solved",
            PuzzleOutcome::Unsolvable => "unsolvable",
            PuzzleOutcome::Stopped => "stopped",
            PuzzleOutcome::CutShort => "cut short by the work budget",
        })
    }
}

/// One named figure of a puzzle measure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// What it counts (`pushes`, `moves`, `nodes`).
    pub name: String,
    /// Its value.
    pub value: u64,
}

/// The level measured as a deterministic puzzle by its rule set's solver (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    /// The solver (a bot name: `sokoban-solver`).
    pub solver: String,
    /// How the search ended.
    pub outcome: PuzzleOutcome,
    /// Its figures, in the rule set's order (sokoban: `pushes`, `moves` and `nodes` when
    /// solved; `nodes` alone otherwise).
    pub figures: Vec<Figure>,
}

/// The figures of a sweep, computed from its games alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// `wins / games` (0 when no game was played).
    pub win_rate: f64,
    /// The 95 % Wilson score interval of the win rate.
    pub win_interval: [f64; 2],
    /// Commands played per game.
    pub moves: Option<Distribution>,
    /// Final score per game.
    pub score: Option<Distribution>,
    /// How many objectives the level has.
    pub objectives: u32,
    /// `[objectives met, games]`, for each number of objectives met that occurred.
    pub objectives_met: Vec<[u64; 2]>,
    /// `[tile, games]`: the largest tile of each game (rule sets that report it: slide).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_tiles: Vec<[u64; 2]>,
    /// The level measured as a deterministic puzzle (rule sets that have a measure: sokoban).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<Puzzle>,
    /// Games cut short by the work budget ([`Report::work`]; issue 66.3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cut_short: u64,
    /// The best game.
    pub best: Option<GameRef>,
    /// The worst game.
    pub worst: Option<GameRef>,
}

/// The 95 % Wilson score interval for `wins` out of `n`.
pub fn wilson_interval(wins: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, wins as f64 / n as f64);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// `[value, count]` for each value that occurs, in increasing order.
pub(crate) fn histogram(values: impl Iterator<Item = u64>) -> Vec<[u64; 2]> {
    let mut v: Vec<u64> = values.collect();
    v.sort_unstable();
    let mut out: Vec<[u64; 2]> = Vec::new();
    for x in v {
        match out.last_mut() {
            Some(last) if last[0] == x => last[1] += 1,
            _ => out.push([x, 1]),
        }
    }
    out
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
