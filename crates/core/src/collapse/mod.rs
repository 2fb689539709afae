//! `collapse`: SameGame (seed 001).
//!
//! The board is `width × height` cells, each empty or holding a tile of one of up to 16 colours.
//! One command, [`CollapseCommand::Tap`]:
//! 1. Tapping an empty cell, or a cell off the board, is rejected (`empty_cell`, `off_board`).
//! 2. The group is the 4-connected region of the tapped tile's colour. A group smaller than
//!    [`CollapseConfig::min_group`] (default 2, as the seed) is rejected (`group_too_small`).
//! 3. The group is cleared ([`CollapseEvent::Cleared`], tiles in row-major order).
//! 4. Gravity: in every column the group touched, the tiles above a gap fall to rest on the
//!    bottom row or on another tile ([`CollapseEvent::Fell`], column by column from the left,
//!    each column from the bottom up).
//! 5. Column compaction ([`Compaction`]), only when a column became empty:
//!    - `Center` (the seed): with `c = width / 2`, the non-empty columns among `0..=c` pack to
//!      the right end of that part (toward column `c`), and those among `c+1..width` pack to its
//!      left end (toward column `c + 1`), each side keeping its order. Events: the left part
//!      first, walking from `c` down to 0, then the right part from `c + 1` up.
//!    - `Left` (classic SameGame): every non-empty column packs to the left, in order.
//!    - `None`: empty columns stay.
//!
//!    Each moved column is one [`CollapseEvent::ColumnShifted`]; shifts are to be replayed in
//!    order (each moves a column into a column that is empty at that moment).
//! 6. Score ([`Scoring`]): `Tiered` (the seed) pays, for each cleared tile, the value of the
//!    highest tier whose threshold ≤ the group size (see [`TIERS`]): a group of n scores
//!    `value × n`. `Standard` (the published SameGame benchmark) scores `(n − 2)²` per group
//!    (0 when n < 2, possible only with `min_group` 1) and [`CLEAR_BONUS`] (1000) when the
//!    board ends empty. [`CollapseEvent::Scored`] is pushed when either part is non-zero.
//! 7. When no group of at least `min_group` tiles remains: [`CollapseEvent::GameOver`] with
//!    `cleared_all` telling whether the board is empty. [`CollapseRules::status`] is then
//!    `Over` (both for a cleared board and for one with tiles left; the event tells them apart);
//!    otherwise `Playing`.
//!
//! Events of one step come in the order `Cleared`, `Fell`…, `ColumnShifted`…, `Scored`,
//! `GameOver`.
//!
//! **The seed's scoring bug.** The seed walks its table `[(0, 5), (5, 8), (10, 10), (13, 12),
//! (15, 13), (100, 15)]` upward and breaks at the first tier with `count >= threshold`. Tier 0
//! always matches first, so the seed always pays 5 per tile. We implement the evident intent:
//! the *highest* tier whose threshold ≤ the group size (a group of 12 pays 10 per tile).
//!
//! **Boards.** A new game draws every cell's colour with `below(colours)` (row by row from the
//! top left; default 4 colours as the seed, 2 to 16 allowed) and gives the tiles ids 0, 1, …
//! in the same order. Loaded boards must be settled: no tile above an empty cell
//! ([`CollapseState::from_cells`] refuses, naming the cell); a level also refuses empty columns
//! where its compaction policy would not leave them ([`CollapseLevel`]). Ids are only allocated
//! when a board is made; the generator is not drawn from after that, so taps need no
//! [`crate::RngSpan`].
//! The seed does not say its board size; our default new game is 10×10.
//!
//! **`legal_commands`** lists one tap per group of at least `min_group` tiles, at the group's
//! first cell in row-major order (the top row first, left to right), in that order.
//! [`CollapseRules::groups_into`] gives the same list, with sizes and colours, into buffers the
//! caller reuses. [`CollapseRules::random_group`] draws one group uniformly by rejection sampling
//! (with the caller's generator), several times cheaper than listing them all: what random
//! playouts use (`benches/collapse.rs` measures both).
//!
//! **Allocation.** `undo` and `redo` allocate nothing. `apply` allocates exactly one `Vec`
//! per accepted tap: the `tiles` of the [`CollapseEvent::Cleared`] it pushes (events are plain
//! data and own their tiles; capacity 32, grown by doubling for larger groups); that vector also
//! serves as the flood fill's work list, so nothing else is allocated (`tests/alloc.rs` counts).
//! Rejections allocate their message, which names the cell. With `min_group` ≥ 3 the game-over
//! check after a tap labels groups with a fresh scratch buffer (allocations more); with
//! `min_group` ≤ 2 it is a neighbour scan.
//!
//! **Test sets.** [`parse_testset`] reads the text format of the standard SameGame test set
//! (boards of space-separated colour numbers, blank lines between) into levels with the
//! benchmark's rules ([`CollapseConfig::standard`]).
//!
//! # Where things are
//!
//! SameGame. `Tap(pos)` clears the 4-connected group (flood fill whose work list is the `Cleared`
//! event's own `Vec`, the one allocation per tap), then gravity in the touched columns, then column
//! compaction (`Center`, `Left`, `None`) only when a column emptied. States are settled by
//! construction (no tile above a gap). `groups_into` lists groups into caller-owned buffers for
//! bots and `random_group` draws one uniformly by rejection sampling (random playouts);
//! `parse_testset` reads the standard SameGame test-set text.

mod apply;
mod event;
pub mod import;
mod level;
mod mirror;
mod plugin;
mod state;
#[cfg(feature = "strategy")]
pub mod strategy;
#[cfg(test)]
mod tests;
mod testset;
mod undo;

pub use apply::{Group, GroupScratch};
pub use event::{ClearedTile, CollapseCommand, CollapseEvent};
pub use level::{CollapseLevel, DEFAULT_SIDE};
pub use plugin::Collapse;
pub use state::{CollapseState, Tile, colour_char, colour_from_char};
pub use testset::{TestsetBoard, TestsetError, parse_testset};

use {apply::*, state::*};

use crate::geom::{Grid, Pos, Size};
use crate::hash::keys::{cell_key, field_key, kind, rng_key, size_key};
use crate::id::{Id, IdGen};
use crate::rng::GameRng;
use crate::rules::{Inconsistent, Rejected, Rules, Status};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The largest board side `collapse` accepts.
pub const MAX_SIDE: u16 = 256;

/// The most colours a board may use (colour digits `0`–`9`, then `a`–`f`).
pub const MAX_COLOURS: u8 = 16;

/// Colours of a new random board when the level does not say (the seed's four).
pub const DEFAULT_COLOURS: u8 = 4;

/// The seed's score table: `(threshold, value per tile)`, thresholds ascending. A group of n
/// tiles pays `value × n` with the value of the highest tier whose threshold ≤ n.
pub const TIERS: [(u32, u32); 6] = [(0, 5), (5, 8), (10, 10), (13, 12), (15, 13), (100, 15)];

/// What `Standard` scoring adds when a tap leaves the board empty.
pub const CLEAR_BONUS: u64 = 1000;

/// How empty columns close up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compaction {
    /// The seed: both halves close toward the middle (`c = width / 2`; columns `0..=c` pack
    /// toward `c`, columns `c+1..` toward `c + 1`).
    #[default]
    Center,
    /// Classic SameGame: all non-empty columns pack to the left.
    Left,
    /// Empty columns stay where they are.
    None,
}

/// How a cleared group scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// The seed's table ([`TIERS`]), as intended: the highest tier whose threshold ≤ n.
    #[default]
    Tiered,
    /// `(n − 2)²` per group, plus [`CLEAR_BONUS`] when the board ends empty.
    Standard,
}

impl Scoring {
    /// Points for clearing a group of `n` tiles.
    pub const fn points(self, n: u32) -> u64 {
        match self {
            Scoring::Tiered => tier_value(n) as u64 * n as u64,
            Scoring::Standard => {
                let k = n.saturating_sub(2) as u64;
                k * k
            }
        }
    }

    /// Points added when a tap leaves the board empty.
    pub const fn clear_bonus(self) -> u64 {
        match self {
            Scoring::Tiered => 0,
            Scoring::Standard => CLEAR_BONUS,
        }
    }
}

/// The per-tile value of a group of `n` under [`Scoring::Tiered`]: the value of the highest tier
/// in [`TIERS`] whose threshold ≤ `n`.
pub const fn tier_value(n: u32) -> u32 {
    let mut i = TIERS.len();
    while i > 0 {
        i -= 1;
        if TIERS[i].0 <= n {
            return TIERS[i].1;
        }
    }
    0
}

/// Settings of a SameGame game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CollapseConfig {
    /// The smallest group a tap may clear, at least 1. Default 2.
    pub min_group: u32,
    /// How empty columns close up. Default `center` (the seed).
    pub compaction: Compaction,
    /// How groups score. Default `tiered` (the seed).
    pub scoring: Scoring,
}

impl Default for CollapseConfig {
    fn default() -> Self {
        CollapseConfig { min_group: 2, compaction: Compaction::Center, scoring: Scoring::Tiered }
    }
}

impl CollapseConfig {
    /// The published SameGame benchmark rules: groups of 2 or more, `Left`, `Standard`.
    pub fn standard() -> Self {
        CollapseConfig { min_group: 2, compaction: Compaction::Left, scoring: Scoring::Standard }
    }

    /// Checks the settings, naming the first bad one.
    pub fn validate(&self) -> Result<(), String> {
        if self.min_group == 0 {
            return Err("min_group 0 is not at least 1".into());
        }
        Ok(())
    }
}

/// The SameGame rules with their settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollapseRules {
    /// The settings.
    pub config: CollapseConfig,
}
