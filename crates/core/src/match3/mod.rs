//! `match3`: swap two neighbouring blocks to line up three or more of a breed (seeds 000 and 004).
//!
//! # The board
//! Cells are [`Cell::Playable`] or [`Cell::Void`]. A Void cell never holds a block and blocks fall
//! past it. Every playable cell holds a [`Block`] between steps: a breed (`0..breeds`, default 6
//! breeds, 3 to 16 allowed, written `a`–`p`) and a `locked` flag. A locked block (the seed's rope
//! or ice) cannot be swapped or shuffled and does not fall, but it matches like any block; a
//! match that includes it removes the lock instead of the block. Every block has a stable [`Id`]
//! from the state's counter.
//!
//! # A step: `swap X1 Y1 X2 Y2`
//! [`Match3Command::Swap`] names two orthogonally adjacent playable cells holding unlocked blocks;
//! anything else is rejected (`off_board`, `not_adjacent`, `void_cell`, `locked`), as is any
//! command once the game is won or over (`finished`). The blocks swap ([`Match3Event::Swapped`]).
//! If no run of three or more equal breeds passes through either cell, they swap back
//! ([`Match3Event::SwappedBack`]) and the state is exactly as before. **Decision:** such a step is
//! accepted (`Ok`, with those two events) so that a view can animate the failed swap, and it does
//! **not** consume a move of the move limit: `Swapped` counts a move and `SwappedBack` gives it
//! back, so the state, move count included, is unchanged. (A swap of two blocks of one breed
//! always swaps back: it changes nothing.)
//!
//! Otherwise the board resolves until stable, one cascade level per round (the first round is
//! level 1):
//! 1. every horizontal and vertical run of at least three blocks of one breed is found; runs that
//!    share a block form one match (L, T and cross shapes), runs that merely touch do not. One
//!    [`Match3Event::Matched`] per match, ordered by the match's first cell in row-major order,
//!    its blocks in row-major order;
//! 2. all matched blocks are removed at once, except locked ones, which lose their lock instead
//!    ([`Match3Event::Unlocked`], right after their match). From this round's gravity on, an
//!    unlocked block is an ordinary block: it falls and can be swapped;
//! 3. [`Match3Event::Scored`]: `points_per_block` (default 10) × removed blocks × cascade level.
//!    Unlocking a block removes nothing and scores nothing (**decision**, literal to the rule);
//! 4. gravity, column by column from the left: a column is split into segments by locked blocks;
//!    in each segment the blocks fall to its lowest playable cells, passing Void cells, keeping
//!    their order ([`Match3Event::Fell`], bottom-up within a column);
//! 5. refill: every empty playable cell gets a new block of a uniformly random breed
//!    (`below(breeds)`), column by column from the left, bottom-up within a column, so each
//!    segment fills from its top ([`Match3Event::Spawned`]). A segment under a locked block is
//!    refilled in place: nothing can fall through the lock.
//!
//! Random refills can make runs again, so a cascade has no fixed length; it ends with probability
//! 1, and on 9×9 with 6 breeds it rarely passes a few levels. As a safety net, from cascade level
//! 1000 on a refill draws only among the breeds that put its cell on no run (when one does), so
//! no run of bad luck can keep a step going. (Locks cannot force runs forever either: a run
//! through a locked block unlocks it.)
//!
//! # After resolving
//! In this order, at most one of:
//! - the target score is reached: [`Match3Event::Won`]; the game ends (status `Won`);
//! - the move limit is used up: [`Match3Event::GameOver`] with [`GameOverReason::OutOfMoves`];
//! - no swap would make a run (the dead board, seed 000's "is bad"): shuffle, see below.
//!
//! [`Match3Rules::hint`] returns a valid swap whenever one exists: it tries every swap of
//! neighbouring movable blocks (not the seed's neighbour-counting shortcut).
//!
//! # Shuffle (seed 004) and new boards
//! A shuffle permutes the unlocked blocks among their own cells so that no run exists and a valid
//! swap does; locked blocks and Void cells stay. [`Match3Event::Shuffled`] lists the blocks that
//! moved. The multiset of breeds is kept whenever the search finds it possible; otherwise the
//! fewest blocks are recoloured ([`Match3Event::Recoloured`]) and the shuffle is still a single
//! step. How "possible" and "fewest" are established (module `arrange`, every phase bounded):
//! 1. if no two neighbouring movable cells could ever make a run (a structural check), the
//!    game ends at once with [`GameOverReason::NoMovesPossible`];
//! 2. eight randomized depth-first searches over the movable cells
//!    with small budgets and no recolours (they try every breed at every cell, check runs
//!    incrementally and the valid swap at full boards, so on small boards they also *prove*
//!    that the multiset cannot work);
//! 3. still keeping the multiset, a repair walk: from the current board, random transpositions
//!    that put neither cell on a run, local repair of any run, more transpositions until some
//!    swap is valid (this is what succeeds on large boards with many locks and few breeds);
//! 4. complete searches allowing 0, 1, 2, … recolours (iterative deepening): a search that
//!    finishes without finding proves that no arrangement with that many recolours exists, so
//!    the first arrangement found this way recolours as few blocks as possible;
//! 5. when the shared budget of the complete searches (two million nodes) runs out first
//!    (large boards whose breeds cannot avoid runs), a final search with unlimited recolours
//!    (pool breeds tried first), which is valid but **not proven minimal**.
//!
//! If the searches prove that no valid board exists, the game ends with
//! [`GameOverReason::NoMovesPossible`]; if even the final search runs out of budget, with
//! [`GameOverReason::ShuffleFailed`] (not observed in our tests). The property tests check
//! minimality and impossibility against brute force on boards of up to 8 cells.
//!
//! New boards (levels) use the same search with a free choice of breeds for the cells the level
//! leaves open (`.` and `*`; each cell tries breeds from a uniformly random one on), around the
//! blocks it fixes: no run of three and at least one valid
//! swap, or a level error saying that no such board exists (or none was found in the budget).
//! The seed's exclusion loop, which never ends when every breed is excluded, is not used.
//!
//! # Randomness and undo
//! Every random outcome is in the events: each `Spawned` carries its breed and the generator's
//! position around its draw, `Shuffled` the resulting positions and the generator's span, and
//! `Recoloured` the new breeds; redo never draws and undo restores the generator and the id
//! counter exactly. Events of one step: `Swapped`, then either `SwappedBack`, or for each cascade
//! level `Matched`/`Unlocked`…, `Scored`, `Fell`…, `Spawned`…, then `Won`, `GameOver` or
//! `Shuffled` + `Recoloured`… (or `GameOver` when no shuffle can succeed).
//!
//! Apply allocates nothing once warm except the block list each `Matched` (and a `Shuffled`)
//! event owns; scratch buffers live in a thread-local.
//!
//! # Where things are
//!
//! swap, cascades, locked blocks, dead boards and shuffle. `apply.rs` holds the rule (`mod.rs`'s
//! module docs list every decision: swap-backs are accepted steps that cost no move, locks score
//! nothing, event order); `board.rs` the run and swap tests shared by rules, generator and
//! shuffler; `arrange.rs` the bounded searches behind new boards and shuffles (depth-first
//! restarts, a run-free repair walk for large locked boards, then iterative deepening on the number
//! of recolours, which proves the fewest within a node budget; `Impossible` only when proven);
//! `level.rs` the level format and the seed's stage import. Scratch buffers are thread-local, so
//! `apply` allocates only the block lists of `Matched`/`Shuffled` events.

mod apply;
mod arrange;
mod board;
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
pub mod tune;
mod undo;

pub use event::{Match3Command, Match3Event, MatchedBlock, ShuffledBlock};
pub use level::{Match3Level, StageError};
pub use plugin::Match3;
pub use state::{Block, Cell, GameOverReason, Match3State, breed_char};

use state::*;

use crate::geom::{Grid, Pos, Size};
use crate::hash::keys::{cell_key, field_key, kind, rng_key, size_key};
use crate::hash::state_hash;
use crate::id::{Id, IdGen};
use crate::rng::{GameRng, RngSpan};
use crate::rules::{Inconsistent, Rejected, Rules, Status};
use arrange::{Arranger, Plan};
use board::NONE;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;

/// The largest board side `match3` accepts.
pub const MAX_SIDE: u16 = 256;
/// The fewest breeds a game may have.
pub const MIN_BREEDS: u8 = 3;
/// The most breeds a game may have (written `a` to `p`).
pub const MAX_BREEDS: u8 = 16;

/// Settings of a match-3 game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Match3Config {
    /// Number of breeds, 3 to 16. Default 6.
    pub breeds: u8,
    /// Points per removed block, multiplied by the cascade level. Default 10.
    pub points_per_block: u32,
    /// The number of resolved swaps allowed; reaching it without winning ends the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_limit: Option<u32>,
    /// The score that wins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_score: Option<u64>,
}

impl Default for Match3Config {
    fn default() -> Self {
        Match3Config { breeds: 6, points_per_block: 10, move_limit: None, target_score: None }
    }
}

impl Match3Config {
    /// Checks the settings, naming the first bad one.
    pub fn validate(&self) -> Result<(), String> {
        if !(MIN_BREEDS..=MAX_BREEDS).contains(&self.breeds) {
            return Err(format!("breeds {} is outside {MIN_BREEDS}..={MAX_BREEDS}", self.breeds));
        }
        if self.move_limit == Some(0) {
            return Err("move_limit 0 leaves no move; omit it for no limit".into());
        }
        if self.target_score == Some(0) {
            return Err("target_score 0 is won before the first move; omit it for no target".into());
        }
        Ok(())
    }
}

/// The match-3 rules with their settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match3Rules {
    /// The settings.
    pub config: Match3Config,
}
