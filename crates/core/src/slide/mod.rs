//! `slide`: 2048 (seed 003).
//!
//! A command slides every tile toward one edge. Each row (for left and right) or column (for up
//! and down) is processed from the edge the tiles move toward:
//! 1. condense: tiles slide toward that edge, closing gaps;
//! 2. merge: walking from that edge, two equal neighbours merge into one tile of twice the value,
//!    and a tile merges at most once per move (`2 2 2 2 → 4 4`, `2 2 2 → 4 2`, `4 4 8 → 8 8`);
//! 3. the seed's move orders become events: [`SlideEvent::Moved`] for a tile that only moves,
//!    [`SlideEvent::Merged`] with [`Combine::Single`] when a moving tile lands on one at rest,
//!    and [`Combine::Double`] when two moving tiles meet at a new cell.
//!
//! The merged tile keeps the id of the tile nearer the edge (`tile`); the other (`absorbed`)
//! disappears. Only spawns allocate ids. The largest tile is [`MAX_TILE`] (2^30): two of them do
//! not merge, so values always fit a `u32` (levels and logs with larger tiles are refused).
//!
//! A slide that changes nothing is rejected (`no_change`) and spawns nothing. After a slide that
//! changed something one tile spawns on a uniformly random empty cell: the generator first draws
//! the cell (`below(empty cells)`, counting empty cells row by row from the top left), then the
//! value (4 when `chance(four_chance)`, else 2). A new game spawns two tiles the same way.
//!
//! Events of one step come in this order: `Moved`/`Merged` (line by line, each line from its
//! edge), `Scored`, `Spawned`, `Won` (the first time a tile reaches the target, merged or
//! spawned; play goes on), `GameOver` (no empty cell and no two equal orthogonal neighbours).
//!
//! [`SlideRules::status`] is `Over` when no slide is possible, else `Won` once the target has been
//! reached, else `Playing`. Display labels per value (the seed maps values to words) are the
//! view's business.
//!
//! How it is fast (the benchmark `slide` plays random 4×4 games): the board stores an empty cell
//! as value 0 rather than `None`, so reading a cell never branches; a line of four cells whose
//! tiles are at most 2^15 looks up what the slide does in a table of 65,536 precomputed plans
//! (built once, from the same rule as the general path; property tests compare both with a
//! plain reference implementation); on other boards one scan finds the lines that change, eight
//! cells at a time, in a byte-per-cell copy of the exponents kept beside the board
//! ([`exponents`]), and only those lines are condensed in place and merged in one pass; the
//! spawn finds its cell in the same bytes, eight cells a word; line geometry comes from selects,
//! not a `match` on the direction.
//!
//! # Where things are
//!
//! Lines of four follow a table of 65,536 precomputed plans. Other boards keep `exponents.rs`
//! beside the board: a byte per cell (the tile's exponent, 0 for empty) and the empty-cell count,
//! written with every cell. A slide scans it eight cells to a `u64` (SWAR, plain integer
//! arithmetic) for the pairs of neighbours that move, one compiled copy per direction, and slides
//! only the lines that change, from their first change; the spawn finds its cell in the same bytes.
//! The module docs of `mod.rs` give the rules and event order; the line plans, the scan and the
//! slide itself are in `apply.rs`.

mod apply;
mod encode;
mod event;
mod exponents;
mod level;
mod mirror;
mod plugin;
mod state;
#[cfg(feature = "strategy")]
pub mod strategy;
#[cfg(test)]
mod tests;
mod undo;

pub use event::{Combine, SlideCommand, SlideEvent};
pub use level::SlideLevel;
pub use plugin::Slide;
pub use state::{SlideState, Tile};

use {apply::*, exponents::Exponents, state::*};

use crate::geom::{Dir, Grid, Pos, Size};
use crate::hash::keys::{cell_key, field_key, kind, rng_key, size_key};
use crate::id::{Id, IdGen};
use crate::rng::{GameRng, RngSpan};
use crate::rules::{Inconsistent, Rejected, Rules, Status};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The largest board side `slide` accepts.
pub const MAX_SIDE: u16 = 256;

/// The largest tile: 2^30. Two of them do not merge, so every value fits a `u32` (a level or a
/// log may hold tiles of any size; without a cap, two 2^31 tiles merged past the type).
pub const MAX_TILE: u32 = 1 << 30;

/// Whether `value` can be a tile's: 0 (empty), or a power of two from 2 to [`MAX_TILE`].
pub fn valid_value(value: u32) -> bool {
    value == 0 || (value >= 2 && value.is_power_of_two() && value <= MAX_TILE)
}

/// Whether neighbouring tiles worth `a` and `b` merge when slid together.
#[inline]
fn merge(a: u32, b: u32) -> bool {
    a == b && a < MAX_TILE
}

/// A probability as a fraction of integers (no floats in rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chance {
    /// Numerator.
    pub num: u32,
    /// Denominator, at least 1; `num ≤ den`.
    pub den: u32,
}

/// Settings of a 2048 game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SlideConfig {
    /// The tile value that wins, a power of two of at least 4. Default 2048.
    pub target: u32,
    /// Probability that a spawned tile is a 4 rather than a 2. Default 1/10.
    pub four_chance: Chance,
}

impl Default for SlideConfig {
    fn default() -> Self {
        SlideConfig { target: 2048, four_chance: Chance { num: 1, den: 10 } }
    }
}

impl SlideConfig {
    /// Checks the settings, naming the first bad one.
    pub fn validate(&self) -> Result<(), String> {
        if self.target < 4 || !self.target.is_power_of_two() {
            return Err(format!("target {} is not a power of two of at least 4", self.target));
        }
        let Chance { num, den } = self.four_chance;
        if den == 0 || num > den {
            return Err(format!("four_chance {num}/{den} is not a probability"));
        }
        Ok(())
    }
}

/// The 2048 rules with their settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlideRules {
    /// The settings.
    pub config: SlideConfig,
}
