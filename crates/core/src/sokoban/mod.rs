//! `sokoban`: push every box onto a goal (not from a seed: the fifth game, added through the
//! plugin surface).
//!
//! The board is `width × height` cells, each a wall, floor or goal ([`Cell`]); the cells never
//! change. On them stand exactly one player and n ≥ 1 boxes, with exactly n goals. Boxes have
//! stable ids 0, 1, … in row-major order of their starting cells. Commands ([`SokobanCommand`]):
//! 1. `up`, `down`, `left`, `right` ([`SokobanCommand::Step`]): the player steps one cell.
//!    - Onto an empty floor or goal cell: [`SokobanEvent::Moved`].
//!    - Onto a box: the box is pushed one cell on, when the cell behind it is floor or goal with
//!      no box: [`SokobanEvent::Pushed`] (the box), then [`SokobanEvent::Moved`] (the player,
//!      into the cell the box left). No pulling, no pushing two boxes.
//!    - Onto a wall, or into a box that cannot move: refused (`wall`, `box_blocked`).
//! 2. `walk X Y` ([`SokobanCommand::Walk`]): the player walks a shortest path, by steps, through
//!    cells without boxes to `(X, Y)`: one step in the log, one [`SokobanEvent::Walked`] whose
//!    `path` lists every cell from the start to `(X, Y)`. Ties between shortest paths are broken
//!    by a breadth-first search from the player that tries the neighbours in the order up, down,
//!    left, right and keeps, for each cell, the first cell that reached it. Refused when `(X, Y)`
//!    is off the board (`off_board`), a wall (`wall`), holds a box (`box`), is where the player
//!    stands (`no_change`) or cannot be reached without pushing (`unreachable`). A walk never
//!    pushes.
//! 3. Won when every box stands on a goal: the step that puts the last box on its goal ends with
//!    [`SokobanEvent::Solved`], [`SokobanRules::status`] is then `Won`, and every further command
//!    is refused (`solved`). Otherwise `Playing`: the rules do not detect deadlocks (a box in a
//!    corner); undo is the way out.
//!
//! **Counts.** The state counts moves (every cell the player enters, by a step or along a walk)
//! and pushes, as Sokoban players count them; [`crate::Plugin::score`] is the moves. Undo takes
//! them back.
//!
//! **No randomness.** The seed is carried in the state (and its hash) but never drawn from;
//! there is no generator, and [`crate::Plugin::replace_rng`] does nothing.
//!
//! **`legal_commands`** lists the steps that would be accepted, in the order up, down, left,
//! right. Walks are not listed: each walk's outcome is reached by a sequence of the listed steps.
//! The hint ([`crate::Plugin::hint`]) is the first command of a solution with the fewest pushes
//! when the solver finds one within [`HINT_NODES`] expansions, else the first legal step.
//!
//! **Hash.** The incremental hash ([`crate::keys`]) is the XOR of the board size, the static
//! cells (one key of their canonical hash, entered once), one key per box (its cell and id), the
//! player's cell, the moves, the pushes and the seed. Each event changes only the keys it names.
//!
//! **Allocation.** Accepted steps (`up` …) allocate nothing once the event buffer has capacity;
//! a walk allocates its path (the event owns it) and the search's work arrays; refusals allocate
//! their message, which names the cell.
//!
//! **Levels.** [`SokobanLevel`] holds the board as rows of the standard XSB characters
//! (`#` wall, space floor, `.` goal, `$` box, `*` box on goal, `@` player, `+` player on goal; `-`
//! and `_` are read as floor). A level is refused unless it has exactly one player, as many goals
//! as boxes and at least one box, and walls enclose the player: a level where the player could
//! walk off the map is refused, naming the cell where it escapes. [`parse_levels`] reads the
//! standard text collections (`.xsb`, `.sok`) and the Boxoban files.
//!
//! **Solver.** [`solve`] finds a solution with the fewest pushes (A* over push states; see the
//! `solver` module's docs), with a node budget and a stop callback (no clock in core).
//!
//! # Where things are
//!
//! push every box onto a goal; the fifth rule set, added through the plugin surface (one registry
//! line in `lib.rs`, nothing else outside its folder in core). The layout every rule set folder
//! follows: `mod.rs` (the rules as module docs), `state.rs` (static cells, boxes by cell, player,
//! moves and pushes, the incremental hash; validated on deserialization), `event.rs` (commands with
//! their text form, events), `apply.rs` (steps, pushes, `walk X Y` by a fixed-order BFS), `undo.rs`
//! (undo, checked redo), `level.rs` (XSB rows in JSON; the board checks, with the cell as data in
//! `BoardError`), `plugin.rs`; plus `import.rs` (`.xsb`/`.sok` collections and Boxoban files, all
//! or none, errors by level, line and column) and `solver.rs` (A* over push states with the
//! player's region normalised, dead squares, freeze deadlocks and a Hungarian matching bound:
//! optimal in pushes, deterministic, a node budget, a byte budget on its tables (`OutOfMemory`) and
//! a stop callback instead of a clock, called every

mod apply;
mod event;
#[cfg(any(test, feature = "strategy"))]
mod generate;
mod import;
mod level;
mod mirror;
mod plugin;
pub mod reverse;
pub mod solver;
mod state;
#[cfg(feature = "strategy")]
pub mod strategy;
mod undo;

#[cfg(test)]
mod tests;

pub use apply::walk_path;
pub use event::{SokobanCommand, SokobanEvent};
pub use import::{ImportError, collection_numbers, parse_levels};
pub use level::{BoardError, SokobanLevel, board_problems, parse_board};
pub use mirror::{PLAYER, ground_index};
pub use plugin::{HINT_NODES, Sokoban};
pub use solver::{Solution, SolveLimits, SolveOutcome, SolveReport, solve};
pub use state::{Cell, SokobanState};

use serde::{Deserialize, Serialize};

/// The largest board side `sokoban` accepts.
pub const MAX_SIDE: u16 = 256;

/// The Sokoban rules. They have no settings: every Sokoban game follows the same rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SokobanRules;
