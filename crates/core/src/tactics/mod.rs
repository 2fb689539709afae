//! `tactics`: a turn-based tactics grid with terrain costs, exact movement range, A*, path
//! arrows and moves that undo (seed 002).
//!
//! # Rules
//! - A map of `width × height` cells (up to 1024×1024) of [`Terrain`]. Each terrain type has an
//!   extra cost (entering a cell costs `1 + extra` steps) or is impassable.
//! - Units ([`Unit`]) stand on passable cells, one per cell, each with a stable id, a team and
//!   movement points per turn (default 5).
//! - Costs are fixed point ([`Cost`]): a step is [`STEP`] = 1000, a diagonal step (8-connected
//!   maps) [`DIAGONAL`] = 1414 (√2 rounded down), times the `1 + extra` of the cell entered.
//!   Integers keep every machine in agreement.
//! - Moves are 4-connected by default ([`Connectivity::Four`]); 8-connected maps allow diagonal
//!   steps only when both orthogonal cells beside the step can be entered (no corner cutting).
//!   A cell can be entered when its terrain is passable and no other unit stands on it; units
//!   block the way for everyone, friend or foe.
//! - [`TacticsRules::reachable`]: every cell the unit can end on with total cost at most its
//!   remaining movement. The seed computes this with a breadth-first search that marks a cell
//!   visited the first time it is seen; with mixed costs that is wrong, because a cheaper route
//!   found later is ignored (a forest cell seen first through the forest keeps its expensive
//!   cost, and the plain route around it never extends the range). Ours is Dijkstra, exact; a
//!   property test compares it with brute force over every simple path.
//! - [`TacticsRules::path`]: A* with the Manhattan (4-connected) or octile (8-connected)
//!   heuristic scaled by a [`Weight`] (w = 1 optimal; w = 0 Dijkstra; w > 1 faster, not always
//!   optimal), as the seed explains; from rules version 3, jump point search (`jps.rs`) when
//!   the weight is optimal and the terrain uniform (every passable cell costs the same), on the
//!   map with the units standing on it. [`PathFinder`] keeps the scratch so queries allocate
//!   nothing.
//! - [`path_glyphs`]: the straight, corner and arrow pieces of the seed's path display.
//!
//! # Commands and events
//! - [`TacticsCommand::Move`] `{ unit, to }`: the unit must belong to the team whose turn it is
//!   and `to` must be reachable ([`TacticsRules::reachable`]). The rules pick the cheapest path
//!   ([`TacticsRules::path`], w = 1; among equal-cost paths the one the search's fixed
//!   tie-breaking finds), deduct its cost and emit [`TacticsEvent::UnitMoved`] `{ unit, path,
//!   cost }`. `path` lists every cell from the start to `to`.
//!
//! # Versions
//! [`RulesVersion`]: version 3 (today's) finds paths on uniform terrain by jump point search;
//! version 2 found every path by A*. The cost is the same, the cells among equal-cost paths may
//! differ, and a move's `UnitMoved` records them, so logs of version 2 replay with
//! `set_version(2)` (which `tessera_replay` does from the log's header).
//! - [`TacticsCommand::MoveAlong`] `{ unit, path }`: the same with a path given by the player,
//!   checked: it starts at the unit, each step goes to a neighbour (diagonal only on 8-connected
//!   maps, never cutting a corner), every cell after the start can be entered, it ends elsewhere
//!   than it started, and its cost is within the unit's remaining movement.
//! - [`TacticsCommand::EndTurn`]: [`TacticsEvent::TurnEnded`] `{ team, next }` (teams take turns
//!   in increasing order, wrapping around), then one [`TacticsEvent::MovementRestored`] per unit
//!   of the next team, in id order, giving its movement back in full.
//! - Undo of `UnitMoved` puts the unit back at the start of the path and returns the points (the
//!   seed's command stack); every event carries the values it replaced, so undo is exact.
//!
//! There is no randomness and no win condition: [`TacticsRules::status`] is always `Playing`.

mod apply;
mod event;

pub mod import;
mod jps;
mod level;
mod mirror;
pub mod movingai;
mod plugin;
mod queue;
mod search;
mod state;
#[cfg(feature = "strategy")]
pub mod strategy;
mod terrain;
#[cfg(test)]
mod tests;
mod undo;

pub use apply::{JPS_SINCE, Path, RulesVersion, Scratch};
pub use event::{TacticsCommand, TacticsEvent};
// Path arrows are generic (`crate::glyph`); tactics draws them, so they stay importable from here.
pub use crate::glyph::{Axis, Glyph, Heading, SeedPiece, path_glyphs};
pub use jps::Uniform;
pub use level::{TacticsLevel, UnitSpec};
pub use plugin::Tactics;
pub use search::{Graph, PathFinder, Weight};
pub use state::{Board, Placement, TacticsPlay, TacticsState, Unit, fmt_cost};
pub use terrain::{MAX_EXTRA, MAX_TERRAIN_TYPES, Terrain, TerrainType, check_legend};

use state::*;

use crate::geom::{Pos, Size};
use crate::hash::keys::{cell_key, field_key, kind, mix64, size_key};
use crate::id::{Id, IdGen};
use crate::rules::{Inconsistent, Rejected, Rules, Status};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

/// A cost in thousandths of a step (fixed point).
pub type Cost = u64;

/// The cost of one orthogonal step onto cost-1 ground.
pub const STEP: Cost = 1000;

/// The cost of one diagonal step onto cost-1 ground: √2 × 1000, rounded down.
pub const DIAGONAL: Cost = 1414;

/// The largest map side `tactics` accepts.
pub const MAX_SIDE: u16 = 1024;

/// The movement points a unit gets when its level gives none.
pub const DEFAULT_MOVEMENT: u32 = 5;

/// The most movement points a unit may have.
pub const MAX_MOVEMENT: u32 = 1_000_000;

/// Which neighbours a step may go to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Connectivity {
    /// Up, down, left, right (the seed).
    #[default]
    Four,
    /// Also the diagonals, at cost √2, never cutting a corner past a blocked cell.
    Eight,
}

/// Settings of a tactics game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TacticsConfig {
    /// 4-connected (default, the seed) or 8-connected moves.
    pub connectivity: Connectivity,
}

/// The tactics rules with their settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TacticsRules {
    /// The settings.
    pub config: TacticsConfig,
    #[serde(skip)]
    scratch: Scratch,
    /// The version of the rules these behave as (today's unless a log asks for an older one).
    #[serde(skip)]
    version: RulesVersion,
}
