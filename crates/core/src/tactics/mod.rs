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
//!   optimal), as the seed explains. [`PathFinder`] keeps the scratch so queries allocate nothing.
//! - [`path_glyphs`]: the straight, corner and arrow pieces of the seed's path display.
//!
//! # Commands and events
//! - [`TacticsCommand::Move`] `{ unit, to }`: the unit must belong to the team whose turn it is
//!   and `to` must be reachable ([`TacticsRules::reachable`]). The rules pick the cheapest path
//!   (A*, w = 1; among equal-cost paths the one the search's fixed tie-breaking finds), deduct its
//!   cost and emit [`TacticsEvent::UnitMoved`] `{ unit, path, cost }`. `path` lists every cell
//!   from the start to `to`.
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

mod glyph;
mod level;
mod mirror;
pub mod movingai;
mod search;
mod terrain;

pub use glyph::{Axis, Glyph, Heading, SeedPiece, path_glyphs};
pub use level::{TacticsLevel, UnitSpec};
pub use search::{Graph, PathFinder, Weight};
pub use terrain::{MAX_EXTRA, MAX_TERRAIN_TYPES, Terrain, TerrainType, check_legend};

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

/// A unit on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Stable id.
    pub id: Id,
    /// Its team; teams take turns in increasing order.
    pub team: u8,
    /// Where it stands.
    pub pos: Pos,
    /// Movement per turn, in fixed point (points × [`STEP`]).
    pub movement: Cost,
    /// Movement left this turn, in fixed point.
    pub left: Cost,
}

/// A tactics game: the terrain, the units, whose turn it is.
///
/// Invariant: units are sorted by id, stand on passable cells of the map, one per cell; the
/// occupancy index matches them. Enforced by [`TacticsState::new`] and by deserialization.
///
/// It also keeps its incremental hash ([`TacticsState::hash`]; the terrain enters it once, by
/// its canonical hash), which is not serialized: deserialization recomputes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawState", into = "RawState")]
pub struct TacticsState {
    terrain: Terrain,
    units: Vec<Unit>,
    team: u8,
    turn: u32,
    ids: IdGen,
    /// Per cell, the index in `units` of the unit standing there, or `NOBODY`.
    occupant: Vec<u32>,
    hash: u64,
}

/// The hash key of unit `id` standing on cell `index`.
#[inline]
fn pos_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// The hash key of unit `id` having `left` movement left.
#[inline]
fn left_key(id: Id, left: Cost) -> u64 {
    mix64(cell_key(kind::LEFT, 0, id.0) ^ left)
}

/// The hash key of everything about a unit but where it stands and what it has left.
fn unit_key(u: &Unit) -> u64 {
    cell_key(kind::WHAT, u32::from(u.team), u.id.0) ^ mix64(cell_key(kind::LEFT, 1, u.id.0) ^ u.movement)
}

/// How the hash changes when the turn counter flips between `turn` and `turn + 1`.
fn turn_key(turn: u32) -> u64 {
    field_key(kind::MOVES, u64::from(turn)) ^ field_key(kind::MOVES, u64::from(turn) + 1)
}

/// How the hash changes when the team to move changes from `a` to `b`.
fn team_key(a: u8, b: u8) -> u64 {
    field_key(kind::OVER, u64::from(a)) ^ field_key(kind::OVER, u64::from(b))
}

const NOBODY: u32 = u32::MAX;

#[derive(Serialize, Deserialize)]
struct RawState {
    terrain: Terrain,
    units: Vec<Unit>,
    team: u8,
    turn: u32,
    ids: IdGen,
}

impl TryFrom<RawState> for TacticsState {
    type Error = String;
    fn try_from(r: RawState) -> Result<Self, String> {
        let mut s = TacticsState::new(r.terrain, Vec::new())?;
        s.units = r.units;
        s.team = r.team;
        s.turn = r.turn;
        s.ids = r.ids;
        if s.units.windows(2).any(|w| w[0].id >= w[1].id) {
            return Err("units are not sorted by id".into());
        }
        s.index_units()?;
        s.hash = s.recompute_hash();
        Ok(s)
    }
}

/// What changes in a tactics game: everything in a [`TacticsState`] but the terrain. Log
/// keyframes (format 2) store this rather than the whole state, since the terrain is the level's
/// and would otherwise dominate a log of a large map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TacticsPlay {
    units: Vec<Unit>,
    team: u8,
    turn: u32,
    ids: IdGen,
}

impl TacticsState {
    /// What changes in play (see [`TacticsPlay`]).
    pub fn play(&self) -> TacticsPlay {
        TacticsPlay { units: self.units.clone(), team: self.team, turn: self.turn, ids: self.ids }
    }

    /// The state of `play` on this state's terrain, checked as deserialization checks a state
    /// (units sorted, on passable cells, one per cell).
    pub fn with_play(&self, play: TacticsPlay) -> Result<TacticsState, String> {
        let TacticsPlay { units, team, turn, ids } = play;
        TacticsState::try_from(RawState { terrain: self.terrain.clone(), units, team, turn, ids })
    }
}

impl From<TacticsState> for RawState {
    fn from(s: TacticsState) -> RawState {
        RawState { terrain: s.terrain, units: s.units, team: s.team, turn: s.turn, ids: s.ids }
    }
}

/// A unit to place when a game starts: team, cell and movement points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Team.
    pub team: u8,
    /// Cell.
    pub pos: Pos,
    /// Movement points per turn (whole points).
    pub movement: u32,
}

impl TacticsState {
    /// A game on `terrain` with units placed in order (ids 0, 1, …). The first turn is the
    /// lowest team's. Errors name the unit and cell.
    pub fn new(terrain: Terrain, placements: Vec<Placement>) -> Result<Self, String> {
        let mut s = TacticsState {
            occupant: vec![NOBODY; terrain.size().area()],
            terrain,
            units: Vec::with_capacity(placements.len()),
            team: 0,
            turn: 0,
            ids: IdGen::default(),
            hash: 0,
        };
        for (k, p) in placements.iter().enumerate() {
            if p.movement > MAX_MOVEMENT {
                return Err(format!("unit {k}: movement {} is more than {MAX_MOVEMENT}", p.movement));
            }
            let m = Cost::from(p.movement) * STEP;
            s.units.push(Unit { id: s.ids.next(), team: p.team, pos: p.pos, movement: m, left: m });
        }
        s.team = s.units.iter().map(|u| u.team).min().unwrap_or(0);
        s.index_units()?;
        s.hash = s.recompute_hash();
        Ok(s)
    }

    /// The incremental hash of this state (see [`crate::keys`]): kept up to date by the rules,
    /// always equal to [`TacticsState::recompute_hash`].
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The incremental hash computed from scratch (every unit, every field, and the terrain's
    /// canonical hash, which the terrain computed when it was made): the reference the kept hash
    /// is tested against.
    pub fn recompute_hash(&self) -> u64 {
        let size = self.size();
        let mut h = size_key(size)
            ^ field_key(kind::STATIC, self.terrain.canonical_hash())
            ^ field_key(kind::OVER, u64::from(self.team))
            ^ field_key(kind::MOVES, u64::from(self.turn))
            ^ field_key(kind::IDS, u64::from(self.ids.peek().0));
        for u in &self.units {
            // Units off the map cannot be built (new and deserialization refuse them).
            h ^= unit_key(u) ^ left_key(u.id, u.left) ^ pos_key(size.index(u.pos), u.id);
        }
        h
    }

    fn index_units(&mut self) -> Result<(), String> {
        let size = self.terrain.size();
        self.occupant.iter_mut().for_each(|o| *o = NOBODY);
        for (k, u) in self.units.iter().enumerate() {
            if !size.contains(u.pos) {
                return Err(format!("unit {}: cell {} is off the {size} map", u.id.0, u.pos));
            }
            if !self.terrain.passable(u.pos) {
                return Err(format!("unit {}: cell {} is impassable terrain", u.id.0, u.pos));
            }
            if u.left > u.movement {
                return Err(format!("unit {}: more movement left than it has", u.id.0));
            }
            let i = size.index(u.pos);
            if self.occupant[i] != NOBODY {
                let other = self.units[self.occupant[i] as usize].id.0;
                return Err(format!("units {other} and {} both stand on {}", u.id.0, u.pos));
            }
            self.occupant[i] = k as u32;
        }
        Ok(())
    }

    /// The terrain.
    pub fn terrain(&self) -> &Terrain {
        &self.terrain
    }

    /// The map's size.
    pub fn size(&self) -> Size {
        self.terrain.size()
    }

    /// Every unit, in id order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The unit with id `id`.
    pub fn unit(&self, id: Id) -> Option<&Unit> {
        self.slot(id).map(|k| &self.units[k])
    }

    fn slot(&self, id: Id) -> Option<usize> {
        self.units.binary_search_by_key(&id, |u| u.id).ok()
    }

    /// The unit standing on `pos`, if any.
    pub fn unit_at(&self, pos: Pos) -> Option<&Unit> {
        if !self.size().contains(pos) {
            return None;
        }
        let k = self.occupant[self.size().index(pos)];
        (k != NOBODY).then(|| &self.units[k as usize])
    }

    /// The team whose turn it is.
    pub fn team(&self) -> u8 {
        self.team
    }

    /// How many turns have ended.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The team after `team` in turn order (the next larger team that has units, wrapping).
    pub fn next_team(&self, team: u8) -> u8 {
        let after = self.units.iter().map(|u| u.team).filter(|&t| t > team).min();
        after.or_else(|| self.units.iter().map(|u| u.team).min()).unwrap_or(team)
    }

    /// The terrain as a search sees it for `mover`: other units' cells cannot be entered.
    pub fn graph_for(&self, mover: Option<Id>) -> Board<'_> {
        let mover = mover.and_then(|id| self.slot(id)).map_or(NOBODY, |k| k as u32);
        Board { terrain: &self.terrain, occupant: &self.occupant, mover }
    }

    /// Moves unit `id` to `to` (on the map, and free) with `left` movement left.
    fn move_unit(&mut self, id: Id, to: Pos, left: Cost) {
        if let Some(k) = self.slot(id) {
            let size = self.size();
            let u = self.units[k];
            self.occupant[size.index(u.pos)] = NOBODY;
            self.occupant[size.index(to)] = k as u32;
            self.units[k].pos = to;
            self.units[k].left = left;
            self.hash ^= pos_key(size.index(u.pos), id)
                ^ pos_key(size.index(to), id)
                ^ left_key(id, u.left)
                ^ left_key(id, left);
        }
    }

    fn set_left(&mut self, id: Id, left: Cost) {
        if let Some(k) = self.slot(id) {
            self.hash ^= left_key(id, self.units[k].left) ^ left_key(id, left);
            self.units[k].left = left;
        }
    }

    /// The map as text: terrain glyphs with each unit drawn as its team number (`0`–`9`, then
    /// letters), then one line per unit.
    pub fn render(&self) -> String {
        let size = self.size();
        let mut out = String::new();
        for (y, row) in self.terrain.rows().iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                match self.unit_at(Pos::new(x as u16, y as u16)) {
                    Some(u) => out.push(team_char(u.team)),
                    None => out.push(c),
                }
            }
            out.push('\n');
        }
        out.push_str(&format!("{size} map, turn {}, team {} to move\n", self.turn, self.team));
        for u in &self.units {
            out.push_str(&format!(
                "unit {} team {} at {} movement {}/{}\n",
                u.id.0,
                u.team,
                u.pos,
                fmt_cost(u.left),
                fmt_cost(u.movement)
            ));
        }
        out
    }
}

fn team_char(team: u8) -> char {
    char::from_digit(u32::from(team % 36), 36).unwrap_or('?')
}

/// A cost as a decimal number of steps (`3`, `2.414`).
pub fn fmt_cost(c: Cost) -> String {
    if c.is_multiple_of(STEP) {
        format!("{}", c / STEP)
    } else {
        let s = format!("{}.{:03}", c / STEP, c % STEP);
        s.trim_end_matches('0').to_string()
    }
}

/// The state's terrain with units in the way: what moves and range queries search.
#[derive(Clone, Copy, Debug)]
pub struct Board<'a> {
    terrain: &'a Terrain,
    occupant: &'a [u32],
    mover: u32,
}

impl Graph for Board<'_> {
    #[inline]
    fn size(&self) -> Size {
        self.terrain.size()
    }

    #[inline]
    fn multiplier(&self, i: usize) -> u32 {
        let o = self.occupant[i];
        if o != NOBODY && o != self.mover { 0 } else { u32::from(self.terrain.multipliers()[i]) }
    }
}

/// Settings of a tactics game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TacticsConfig {
    /// 4-connected (default, the seed) or 8-connected moves.
    pub connectivity: Connectivity,
}

/// A path and its cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Path {
    /// Every cell from the start to the goal, both included.
    pub cells: Vec<Pos>,
    /// Total cost, fixed point.
    pub cost: Cost,
}

/// Scratch kept in the rules so that `apply` needs no caller-provided buffers. Cloning gives a
/// fresh one; it never takes part in equality, serialization or debug output (its buffers are
/// as large as the map).
#[derive(Default)]
pub struct Scratch(Mutex<PathFinder>);

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Scratch")
    }
}

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Scratch {}

/// The tactics rules with their settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TacticsRules {
    /// The settings.
    pub config: TacticsConfig,
    #[serde(skip)]
    scratch: Scratch,
}

/// What happened in a tactics step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TacticsEvent {
    /// A unit walked `path` (start and end included) and spent `cost`.
    UnitMoved {
        /// The unit.
        unit: Id,
        /// Every cell from where it stood to where it stands.
        path: Vec<Pos>,
        /// Movement spent, fixed point.
        cost: Cost,
    },
    /// The team whose turn it was ended it; `next` moves now.
    TurnEnded {
        /// The team that ended its turn.
        team: u8,
        /// The team whose turn it is now.
        next: u8,
    },
    /// A unit got its movement back at the start of its team's turn.
    MovementRestored {
        /// The unit.
        unit: Id,
        /// Movement left before.
        from: Cost,
        /// Movement left now (its full movement).
        to: Cost,
    },
}

/// A tactics command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TacticsCommand {
    /// Move a unit to a cell along the cheapest path.
    Move {
        /// The unit.
        unit: Id,
        /// Where to.
        to: Pos,
    },
    /// Move a unit along the given path (start and end included), checked.
    MoveAlong {
        /// The unit.
        unit: Id,
        /// Every cell from where it stands to where it goes.
        path: Vec<Pos>,
    },
    /// End the current team's turn.
    EndTurn,
}

impl fmt::Display for TacticsCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TacticsCommand::Move { unit, to } => write!(f, "move {} {} {}", unit.0, to.x, to.y),
            TacticsCommand::MoveAlong { unit, path } => {
                write!(f, "move-along {}", unit.0)?;
                for p in path {
                    write!(f, " {} {}", p.x, p.y)?;
                }
                Ok(())
            }
            TacticsCommand::EndTurn => f.write_str("end-turn"),
        }
    }
}

fn parse_unit(word: &str) -> Result<Id, String> {
    word.trim_start_matches('#').parse().map(Id).map_err(|_| format!("'{word}' is not a unit id"))
}

fn parse_coord(word: &str) -> Result<u16, String> {
    word.parse().map_err(|_| format!("'{word}' is not a coordinate"))
}

impl FromStr for TacticsCommand {
    type Err = String;
    /// `move UNIT X Y`, `move-along UNIT X1 Y1 X2 Y2 …` or `end-turn`.
    fn from_str(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            ["end-turn"] => Ok(TacticsCommand::EndTurn),
            ["move", unit, x, y] => Ok(TacticsCommand::Move {
                unit: parse_unit(unit)?,
                to: Pos::new(parse_coord(x)?, parse_coord(y)?),
            }),
            ["move-along", unit, rest @ ..] if !rest.is_empty() && rest.len() % 2 == 0 => {
                let path = rest
                    .chunks(2)
                    .map(|c| Ok(Pos::new(parse_coord(c[0])?, parse_coord(c[1])?)))
                    .collect::<Result<Vec<Pos>, String>>()?;
                Ok(TacticsCommand::MoveAlong { unit: parse_unit(unit)?, path })
            }
            _ => Err(format!(
                "unknown tactics command '{}' (expected move UNIT X Y, move-along UNIT X Y X Y ..., or end-turn)",
                s.trim()
            )),
        }
    }
}

impl TacticsRules {
    /// Rules with `config`.
    pub fn new(config: TacticsConfig) -> Self {
        TacticsRules { config, scratch: Scratch::default() }
    }

    fn with_scratch<T>(&self, f: impl FnOnce(&mut PathFinder) -> T) -> T {
        // Uncontended in practice; if another thread holds it, use a fresh one.
        match self.scratch.0.try_lock() {
            Ok(mut finder) => f(&mut finder),
            Err(_) => f(&mut PathFinder::new()),
        }
    }

    /// Every cell `unit` can end on this turn, with its cost, in row-major order (its own cell
    /// not included). Empty for an unknown unit.
    pub fn reachable(&self, state: &TacticsState, unit: Id) -> Vec<(Pos, Cost)> {
        let mut out = Vec::new();
        self.with_scratch(|finder| self.reachable_into(state, unit, finder, &mut out));
        out
    }

    /// [`TacticsRules::reachable`] into caller-owned buffers (allocation-free once warm).
    pub fn reachable_into(
        &self,
        state: &TacticsState,
        unit: Id,
        finder: &mut PathFinder,
        out: &mut Vec<(Pos, Cost)>,
    ) {
        out.clear();
        let Some(u) = state.unit(unit) else { return };
        let graph = state.graph_for(Some(unit));
        finder.reachable(&graph, self.config.connectivity, u.pos, u.left, out);
    }

    /// The cheapest path (for `weight` = [`Weight::OPTIMAL`]) from `from` to `to` around the
    /// units, other than one standing on `from`; `None` when there is none (also when `from` or
    /// `to` is impassable or off the map, or `to` is occupied: no path starts in a wall).
    pub fn path(&self, state: &TacticsState, from: Pos, to: Pos, weight: Weight) -> Option<Path> {
        if !state.size().contains(from) || !state.terrain().passable(from) {
            return None;
        }
        let mover = state.unit_at(from).map(|u| u.id);
        let graph = state.graph_for(mover);
        let mut cells = Vec::new();
        let cost = self.with_scratch(|finder| {
            let cost = finder.path(&graph, self.config.connectivity, from, to, weight)?;
            finder.path_to(state.size(), to, &mut cells);
            Some(cost)
        })?;
        Some(Path { cells, cost })
    }

    /// The path [`TacticsCommand::Move`] would take for `unit` to `to` (ignoring its movement).
    pub fn path_for(&self, state: &TacticsState, unit: Id, to: Pos, weight: Weight) -> Option<Path> {
        self.path(state, state.unit(unit)?.pos, to, weight)
    }

    /// The cost of walking `path` for `unit`, checking every rule of [`TacticsCommand::MoveAlong`]
    /// except the remaining movement.
    pub fn path_cost(&self, state: &TacticsState, unit: Id, path: &[Pos]) -> Result<Cost, Rejected> {
        let Some(u) = state.unit(unit) else {
            return Err(Rejected::detailed("no_such_unit", format!("there is no unit {}", unit.0)));
        };
        if path.first() != Some(&u.pos) {
            return Err(Rejected::detailed(
                "bad_path",
                format!("the path must start at the unit's cell {}", u.pos),
            ));
        }
        if path.len() < 2 || path.last() == Some(&u.pos) {
            return Err(Rejected::new("bad_path", "the path must end on another cell than it starts"));
        }
        let graph = state.graph_for(Some(unit));
        let size = state.size();
        let enterable = |p: Pos| size.contains(p) && graph.multiplier(size.index(p)) != 0;
        let mut cost: Cost = 0;
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            if !size.contains(b) {
                return Err(Rejected::detailed("bad_path", format!("{b} is off the map")));
            }
            let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
            let diagonal = match (dx, dy, self.config.connectivity) {
                (0, 1, _) | (1, 0, _) => false,
                (1, 1, Connectivity::Eight) => true,
                _ => return Err(Rejected::detailed("bad_path", format!("{a} to {b} is not a single step"))),
            };
            if !enterable(b) {
                let why = if state.unit_at(b).is_some() {
                    "another unit stands there"
                } else {
                    "impassable terrain"
                };
                return Err(Rejected::detailed("bad_path", format!("{b} cannot be entered: {why}")));
            }
            if diagonal && !(enterable(Pos::new(b.x, a.y)) && enterable(Pos::new(a.x, b.y))) {
                return Err(Rejected::detailed("bad_path", format!("{a} to {b} cuts a blocked corner")));
            }
            let base = if diagonal { DIAGONAL } else { STEP };
            cost += base * Cost::from(graph.multiplier(size.index(b)));
        }
        Ok(cost)
    }

    fn check_mover(&self, state: &TacticsState, unit: Id) -> Result<Unit, Rejected> {
        let Some(u) = state.unit(unit) else {
            return Err(Rejected::detailed("no_such_unit", format!("there is no unit {}", unit.0)));
        };
        if u.team != state.team {
            return Err(Rejected::detailed(
                "not_your_turn",
                format!("unit {} is on team {}, and it is team {}'s turn", unit.0, u.team, state.team),
            ));
        }
        Ok(*u)
    }

    /// [`Rules::apply`], pushing into any buffer whose items can be made from a [`TacticsEvent`].
    pub fn apply_into<E: From<TacticsEvent>>(
        &self,
        state: &mut TacticsState,
        cmd: &TacticsCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        match cmd {
            TacticsCommand::Move { unit, to } => {
                let u = self.check_mover(state, *unit)?;
                let to = *to;
                if !state.size().contains(to) {
                    return Err(Rejected::detailed(
                        "off_map",
                        format!("{to} is off the {} map", state.size()),
                    ));
                }
                if to == u.pos {
                    return Err(Rejected::new("no_change", "the unit already stands there"));
                }
                if let Some(o) = state.unit_at(to) {
                    return Err(Rejected::detailed("occupied", format!("unit {} stands on {to}", o.id.0)));
                }
                if !state.terrain.passable(to) {
                    return Err(Rejected::detailed("impassable", format!("{to} is impassable terrain")));
                }
                let graph = state.graph_for(Some(*unit));
                let found = self.with_scratch(|finder| {
                    let cost = finder.path(&graph, self.config.connectivity, u.pos, to, Weight::OPTIMAL)?;
                    let mut cells = Vec::new();
                    finder.path_to(state.size(), to, &mut cells);
                    Some((cost, cells))
                });
                let Some((cost, path)) = found else {
                    return Err(Rejected::detailed(
                        "unreachable",
                        format!("no way leads from {} to {to}", u.pos),
                    ));
                };
                if cost > u.left {
                    return Err(Rejected::detailed(
                        "out_of_range",
                        format!(
                            "{to} costs {} and unit {} has {} left",
                            fmt_cost(cost),
                            unit.0,
                            fmt_cost(u.left)
                        ),
                    ));
                }
                state.move_unit(*unit, to, u.left - cost);
                events.push(E::from(TacticsEvent::UnitMoved { unit: *unit, path, cost }));
            }
            TacticsCommand::MoveAlong { unit, path } => {
                let u = self.check_mover(state, *unit)?;
                let cost = self.path_cost(state, *unit, path)?;
                if cost > u.left {
                    return Err(Rejected::detailed(
                        "out_of_range",
                        format!(
                            "the path costs {} and unit {} has {} left",
                            fmt_cost(cost),
                            unit.0,
                            fmt_cost(u.left)
                        ),
                    ));
                }
                let to = path[path.len() - 1];
                state.move_unit(*unit, to, u.left - cost);
                events.push(E::from(TacticsEvent::UnitMoved { unit: *unit, path: path.clone(), cost }));
            }
            TacticsCommand::EndTurn => {
                let team = state.team;
                let next = state.next_team(team);
                let Some(turn) = state.turn.checked_add(1) else {
                    return Err(Rejected::new("too_many_turns", "the turn counter is full"));
                };
                state.hash ^= team_key(team, next) ^ turn_key(state.turn);
                state.team = next;
                state.turn = turn;
                events.push(E::from(TacticsEvent::TurnEnded { team, next }));
                for u in state.units.iter_mut().filter(|u| u.team == next) {
                    let from = u.left;
                    state.hash ^= left_key(u.id, from) ^ left_key(u.id, u.movement);
                    u.left = u.movement;
                    events.push(E::from(TacticsEvent::MovementRestored { unit: u.id, from, to: u.movement }));
                }
            }
        }
        Ok(())
    }
}

impl Rules for TacticsRules {
    type State = TacticsState;
    type Command = TacticsCommand;
    type Event = TacticsEvent;

    fn apply(
        &self,
        state: &mut TacticsState,
        cmd: &TacticsCommand,
        events: &mut Vec<TacticsEvent>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    fn undo_event(&self, state: &mut TacticsState, event: &TacticsEvent) {
        match event {
            TacticsEvent::UnitMoved { unit, path, cost } => {
                if let (Some(&start), Some(u)) = (path.first(), state.unit(*unit)) {
                    let left = u.left + cost;
                    state.move_unit(*unit, start, left);
                }
            }
            TacticsEvent::TurnEnded { team, .. } => {
                if let Some(turn) = state.turn.checked_sub(1) {
                    state.hash ^= team_key(state.team, *team) ^ turn_key(turn);
                    state.team = *team;
                    state.turn = turn;
                }
            }
            TacticsEvent::MovementRestored { unit, from, .. } => state.set_left(*unit, *from),
        }
    }

    fn redo_event(&self, state: &mut TacticsState, event: &TacticsEvent) -> Result<(), Inconsistent> {
        let unit_of = |state: &TacticsState, id: Id| {
            state
                .unit(id)
                .copied()
                .ok_or_else(|| Inconsistent::detailed(format!("there is no unit {}", id.0)))
        };
        match event {
            TacticsEvent::UnitMoved { unit, path, cost } => {
                let u = unit_of(state, *unit)?;
                let (Some(&start), Some(&end)) = (path.first(), path.last()) else {
                    return Err(Inconsistent::new("a move with an empty path"));
                };
                if start != u.pos {
                    return Err(Inconsistent::detailed(format!(
                        "unit {} stands on {}, the path starts at {start}",
                        unit.0, u.pos
                    )));
                }
                let size = state.size();
                if !size.contains(end) {
                    return Err(Inconsistent::detailed(format!("cell {end} is off the {size} map")));
                }
                if !state.terrain.passable(end) {
                    return Err(Inconsistent::detailed(format!("cell {end} is impassable terrain")));
                }
                if let Some(o) = state.unit_at(end).filter(|o| o.id != *unit) {
                    return Err(Inconsistent::detailed(format!("unit {} stands on {end}", o.id.0)));
                }
                if *cost > u.left {
                    return Err(Inconsistent::detailed(format!(
                        "the move costs {} and unit {} has {} left",
                        fmt_cost(*cost),
                        unit.0,
                        fmt_cost(u.left)
                    )));
                }
                state.move_unit(*unit, end, u.left - cost);
            }
            TacticsEvent::TurnEnded { team, next } => {
                if *team != state.team {
                    return Err(Inconsistent::detailed(format!(
                        "team {team} ends its turn during team {}'s",
                        state.team
                    )));
                }
                let Some(turn) = state.turn.checked_add(1) else {
                    return Err(Inconsistent::new("the turn counter is full"));
                };
                state.hash ^= team_key(state.team, *next) ^ turn_key(state.turn);
                state.team = *next;
                state.turn = turn;
            }
            TacticsEvent::MovementRestored { unit, from, to } => {
                let u = unit_of(state, *unit)?;
                if u.left != *from || *to > u.movement {
                    return Err(Inconsistent::detailed(format!(
                        "unit {} has {} of {} left, the event restores {} to {}",
                        unit.0,
                        fmt_cost(u.left),
                        fmt_cost(u.movement),
                        fmt_cost(*from),
                        fmt_cost(*to)
                    )));
                }
                state.set_left(*unit, *to);
            }
        }
        Ok(())
    }

    /// `EndTurn`, then for each unit of the team to move (in id order) a `Move` to every
    /// reachable cell (row-major).
    fn legal_commands(&self, state: &TacticsState) -> Vec<TacticsCommand> {
        let mut out = vec![TacticsCommand::EndTurn];
        for u in state.units.iter().filter(|u| u.team == state.team) {
            for (to, _) in self.reachable(state, u.id) {
                out.push(TacticsCommand::Move { unit: u.id, to });
            }
        }
        out
    }

    fn status(&self, _state: &TacticsState) -> Status {
        Status::Playing
    }
}

#[cfg(test)]
mod tests;
