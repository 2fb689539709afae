//! The tactics state: terrain, units and turn, their hash keys, the state's own methods, and the
//! [`Board`] searches see (terrain with units in the way).

use super::*;
use crate::level::{LevelError, Place};

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
    pub(super) terrain: Terrain,
    pub(super) units: Vec<Unit>,
    pub(super) team: u8,
    pub(super) turn: u32,
    ids: IdGen,
    /// Per cell, the index in `units` of the unit standing there, or `NOBODY`.
    occupant: Vec<u32>,
    pub(super) hash: u64,
}

/// The hash key of unit `id` standing on cell `index`.
#[inline]
fn pos_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// The hash key of unit `id` having `left` movement left.
#[inline]
pub(super) fn left_key(id: Id, left: Cost) -> u64 {
    mix64(cell_key(kind::LEFT, 0, id.0) ^ left)
}

/// The hash key of everything about a unit but where it stands and what it has left.
fn unit_key(u: &Unit) -> u64 {
    cell_key(kind::WHAT, u32::from(u.team), u.id.0) ^ mix64(cell_key(kind::LEFT, 1, u.id.0) ^ u.movement)
}

/// How the hash changes when the turn counter flips between `turn` and `turn + 1`.
pub(super) fn turn_key(turn: u32) -> u64 {
    field_key(kind::MOVES, u64::from(turn)) ^ field_key(kind::MOVES, u64::from(turn) + 1)
}

/// How the hash changes when the team to move changes from `a` to `b`.
pub(super) fn team_key(a: u8, b: u8) -> u64 {
    field_key(kind::OVER, u64::from(a)) ^ field_key(kind::OVER, u64::from(b))
}

pub(super) const NOBODY: u32 = u32::MAX;

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
        let mut s = TacticsState::new(r.terrain, Vec::new()).map_err(|e| e.to_string())?;
        s.units = r.units;
        s.team = r.team;
        s.turn = r.turn;
        s.ids = r.ids;
        if s.units.windows(2).any(|w| w[0].id >= w[1].id) {
            return Err("units are not sorted by id".into());
        }
        s.index_units().map_err(|e| e.to_string())?;
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
    pub fn new(terrain: Terrain, placements: Vec<Placement>) -> Result<Self, LevelError> {
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
                return Err(LevelError::at(
                    Place::Unit(k),
                    format!("unit {k}: movement {} is more than {MAX_MOVEMENT}", p.movement),
                ));
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

    fn index_units(&mut self) -> Result<(), LevelError> {
        let size = self.terrain.size();
        self.occupant.iter_mut().for_each(|o| *o = NOBODY);
        for (k, u) in self.units.iter().enumerate() {
            if !size.contains(u.pos) {
                return Err(LevelError::at(
                    unit(u.id),
                    format!("unit {}: cell {} is off the {size} map", u.id.0, u.pos),
                ));
            }
            if !self.terrain.passable(u.pos) {
                return Err(LevelError::at(
                    unit(u.id),
                    format!("unit {}: cell {} is impassable terrain", u.id.0, u.pos),
                ));
            }
            if u.left > u.movement {
                return Err(LevelError::at(
                    unit(u.id),
                    format!("unit {}: more movement left than it has", u.id.0),
                ));
            }
            let i = size.index(u.pos);
            if self.occupant[i] != NOBODY {
                let other = self.units[self.occupant[i] as usize].id.0;
                let message = format!("units {other} and {} both stand on {}", u.id.0, u.pos);
                return Err(LevelError::at(Place::Unit(other as usize), message));
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
    pub(super) fn move_unit(&mut self, id: Id, to: Pos, left: Cost) {
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

    pub(super) fn set_left(&mut self, id: Id, left: Cost) {
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

/// The place of unit `id` in a level: its index in the level's list, which is its id.
fn unit(id: Id) -> Place {
    Place::Unit(id.0 as usize)
}
