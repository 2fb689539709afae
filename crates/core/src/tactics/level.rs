//! The `tactics` part of the level format.

use super::movingai::{self, MapError};
use super::terrain::{Terrain, TerrainType};
use super::{Connectivity, DEFAULT_MOVEMENT, MAX_SIDE, Placement, TacticsConfig, TacticsRules, TacticsState};
use crate::geom::Pos;
use crate::level::{LevelError, Place};
use serde::{Deserialize, Serialize};

/// A unit in a level: its team, cell and movement points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Team number (0–255); teams take turns in increasing order.
    pub team: u8,
    /// Column.
    pub x: u16,
    /// Row, 0 at the top.
    pub y: u16,
    /// Movement points per turn; default 5.
    #[serde(default = "default_movement")]
    pub movement: u32,
}

fn default_movement() -> u32 {
    DEFAULT_MOVEMENT
}

/// A tactics level: terrain rows, a legend, units and settings.
///
/// ```json
/// { "rule_set": "tactics",
///   "legend": [ {"glyph": ".", "name": "plain"}, {"glyph": "f", "name": "forest", "extra": 1},
///               {"glyph": "#", "name": "wall", "impassable": true} ],
///   "map": [ "..f.", ".#f.", "...." ],
///   "units": [ {"team": 0, "x": 0, "y": 0, "movement": 5}, {"team": 1, "x": 3, "y": 2} ],
///   "config": { "connectivity": "four" } }
/// ```
/// - `map`: rows from the top, one character per cell, each a `glyph` of the legend. 1×1 up to
///   1024×1024; every row as long as the first.
/// - `legend` (optional): terrain types. `extra` (default 0, at most 1000) is added to the cost
///   of 1 for entering the cell; `impassable: true` cells cannot be entered. Glyphs are unique.
///   Without a legend: `.` plain, `f` forest (+1), `h` hills (+2), `~` water and `#` wall
///   (impassable) ([`TerrainType::default_legend`]).
/// - `units` (optional): `team`, cell `x`, `y` (on passable ground, one unit per cell) and
///   `movement` points per turn (default 5). Units get ids 0, 1, … in list order.
/// - `config` (optional): `connectivity` `"four"` (default) or `"eight"`.
///
/// Moving AI `.map` files open as levels too ([`TacticsLevel::from_movingai`]): their terrain
/// with the Moving AI legend, 8-connected, no units.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TacticsLevel {
    /// A title for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Settings.
    #[serde(default)]
    pub config: TacticsConfig,
    /// Terrain types; the default legend when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legend: Option<Vec<TerrainType>>,
    /// Rows from the top, one legend glyph per cell.
    pub map: Vec<String>,
    /// The units, in id order.
    #[serde(default)]
    pub units: Vec<UnitSpec>,
    /// A seed, accepted like every level's; tactics draws nothing random.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl TacticsLevel {
    /// A level from a Moving AI `.map` file: its terrain, 8-connected, no units.
    pub fn from_movingai(text: &str) -> Result<TacticsLevel, MapError> {
        let terrain = movingai::parse_map(text)?;
        Ok(TacticsLevel {
            name: None,
            config: TacticsConfig { connectivity: Connectivity::Eight },
            legend: Some(terrain.legend().to_vec()),
            map: terrain.rows(),
            units: Vec::new(),
            seed: None,
        })
    }

    /// The terrain, checked. Errors name the row and column.
    pub fn terrain(&self) -> Result<Terrain, LevelError> {
        let legend = self.legend.clone().unwrap_or_else(TerrainType::default_legend);
        Terrain::from_rows(legend, &self.map, MAX_SIDE)
    }

    /// Checks the level and builds its rules and starting state. Errors name the map cell, row
    /// or unit ([`LevelError::place`]).
    pub fn start(&self) -> Result<(TacticsRules, TacticsState), LevelError> {
        let terrain = self.terrain()?;
        let size = terrain.size();
        let mut placements = Vec::with_capacity(self.units.len());
        for (k, u) in self.units.iter().enumerate() {
            let pos = Pos::new(u.x, u.y);
            if !size.contains(pos) {
                return Err(LevelError::at(
                    Place::Unit(k),
                    format!("unit {k}: cell {pos} is off the {size} map"),
                ));
            }
            placements.push(Placement { team: u.team, pos, movement: u.movement });
        }
        let state = TacticsState::new(terrain, placements)?;
        Ok((TacticsRules::new(self.config.clone()), state))
    }
}
