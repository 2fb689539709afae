//! Terrain: a legend of terrain types and a grid of indices into it.

use super::jps::Uniform;
use super::search::Graph;
use crate::geom::{Grid, Pos, Size};
use crate::level::{LevelError, Place};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// The largest extra cost a terrain type may have (so that costs stay far from overflow).
pub const MAX_EXTRA: u32 = 1000;

/// The most terrain types one legend may hold.
pub const MAX_TERRAIN_TYPES: usize = 256;

/// A kind of ground: entering it costs `1 + extra` steps, or it cannot be entered at all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainType {
    /// The character that stands for it in level rows.
    pub glyph: char,
    /// A name for people (`plain`, `forest`).
    pub name: String,
    /// Extra steps it costs to enter, on top of 1. At most [`MAX_EXTRA`].
    #[serde(default)]
    pub extra: u32,
    /// Whether no unit may enter it.
    // Always written: states (and so log keyframes) are encoded with bincode, which is not
    // self-describing, so a skipped field would not decode (found by the replay fixture tests).
    #[serde(default)]
    pub impassable: bool,
}

impl TerrainType {
    /// A passable terrain type.
    pub fn new(glyph: char, name: &str, extra: u32) -> Self {
        TerrainType { glyph, name: name.into(), extra, impassable: false }
    }

    /// An impassable terrain type.
    pub fn blocked(glyph: char, name: &str) -> Self {
        TerrainType { glyph, name: name.into(), extra: 0, impassable: true }
    }

    /// `1 + extra`, or 0 when impassable.
    pub fn multiplier(&self) -> u32 {
        if self.impassable { 0 } else { 1 + self.extra }
    }

    /// The legend levels get when they give none: `.` plain, `f` forest (+1), `h` hills (+2),
    /// `~` water (impassable), `#` wall (impassable).
    pub fn default_legend() -> Vec<TerrainType> {
        vec![
            TerrainType::new('.', "plain", 0),
            TerrainType::new('f', "forest", 1),
            TerrainType::new('h', "hills", 2),
            TerrainType::blocked('~', "water"),
            TerrainType::blocked('#', "wall"),
        ]
    }

    /// The legend of Moving AI `.map` files: `.` `G` `S` passable, `@` `O` `T` `W` blocked.
    pub fn movingai_legend() -> Vec<TerrainType> {
        vec![
            TerrainType::new('.', "ground", 0),
            TerrainType::new('G', "ground", 0),
            TerrainType::new('S', "swamp", 0),
            TerrainType::blocked('@', "out of bounds"),
            TerrainType::blocked('O', "out of bounds"),
            TerrainType::blocked('T', "trees"),
            TerrainType::blocked('W', "water"),
        ]
    }
}

/// Checks a legend: 1 to [`MAX_TERRAIN_TYPES`] types, distinct glyphs, sane costs.
pub fn check_legend(legend: &[TerrainType]) -> Result<(), String> {
    if legend.is_empty() || legend.len() > MAX_TERRAIN_TYPES {
        return Err(format!(
            "the legend has {} terrain types, expected 1 to {MAX_TERRAIN_TYPES}",
            legend.len()
        ));
    }
    for (k, t) in legend.iter().enumerate() {
        if legend[..k].iter().any(|u| u.glyph == t.glyph) {
            return Err(format!("legend: glyph '{}' is used twice", t.glyph));
        }
        if t.extra > MAX_EXTRA {
            return Err(format!(
                "legend: terrain '{}' has extra cost {}, at most {MAX_EXTRA}",
                t.glyph, t.extra
            ));
        }
        if t.impassable && t.extra != 0 {
            return Err(format!("legend: terrain '{}' is impassable and cannot have an extra cost", t.glyph));
        }
    }
    Ok(())
}

/// The ground of a map: a legend and, per cell, which terrain type it is.
///
/// Invariant: every cell indexes the legend, and the legend passes [`check_legend`]; enforced by
/// [`Terrain::new`] and by deserialization. The per-cell cost multipliers the searches read are
/// derived from the two and kept alongside, and so is its canonical hash (terrain never changes
/// in a game: the state hash takes it from here).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawTerrain", into = "RawTerrain")]
pub struct Terrain {
    legend: Vec<TerrainType>,
    cells: Grid<u8>,
    multipliers: Vec<u16>,
    hash: u64,
    uniform: UniformCache,
}

/// A terrain's [`Uniform`] view (or that it has none), made on the first search that asks:
/// games whose paths are all A* never pay for it. Derived from the cells, so it takes no part in
/// equality.
#[derive(Clone, Default)]
struct UniformCache(OnceLock<Option<Uniform>>);

impl PartialEq for UniformCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for UniformCache {}

impl std::fmt::Debug for UniformCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UniformCache")
    }
}

/// [`RawTerrain`] borrowed: the same encoding, for hashing without a copy.
#[derive(Serialize)]
struct RawTerrainRef<'a> {
    legend: &'a [TerrainType],
    cells: &'a Grid<u8>,
}

#[derive(Serialize, Deserialize)]
struct RawTerrain {
    legend: Vec<TerrainType>,
    cells: Grid<u8>,
}

impl TryFrom<RawTerrain> for Terrain {
    type Error = String;
    fn try_from(raw: RawTerrain) -> Result<Terrain, String> {
        Terrain::new(raw.legend, raw.cells)
    }
}

impl From<Terrain> for RawTerrain {
    fn from(t: Terrain) -> RawTerrain {
        RawTerrain { legend: t.legend, cells: t.cells }
    }
}

impl Terrain {
    /// Terrain from a legend and a grid of legend indices.
    pub fn new(legend: Vec<TerrainType>, cells: Grid<u8>) -> Result<Terrain, String> {
        check_legend(&legend)?;
        if let Some((p, &k)) = cells.iter().find(|(_, k)| usize::from(**k) >= legend.len()) {
            return Err(format!("cell {p}: terrain index {k} is not in the legend"));
        }
        // `1 + extra` ≤ 1 + MAX_EXTRA fits in 16 bits: half the memory a search streams through.
        let multipliers = cells.cells().iter().map(|&k| legend[usize::from(k)].multiplier() as u16).collect();
        let hash = crate::hash::state_hash(&RawTerrainRef { legend: &legend, cells: &cells });
        Ok(Terrain { legend, cells, multipliers, hash, uniform: UniformCache::default() })
    }

    /// [`crate::state_hash`] of the terrain (its canonical encoding), computed once when it is
    /// made.
    pub fn canonical_hash(&self) -> u64 {
        self.hash
    }

    /// Terrain from rows of legend glyphs. Errors name the row and column ([`LevelError::place`]).
    pub fn from_rows<S: AsRef<str>>(
        legend: Vec<TerrainType>,
        rows: &[S],
        max_side: u16,
    ) -> Result<Terrain, LevelError> {
        check_legend(&legend)?;
        let size =
            Size::of_rows("map", rows.iter().map(|r| r.as_ref().chars().count()), max_side, None, None)?;
        let mut cells = Vec::with_capacity(size.area());
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.as_ref().chars().enumerate() {
                let Some(k) = legend.iter().position(|t| t.glyph == c) else {
                    return Err(LevelError::at(
                        Place::cell(x, y),
                        format!("map row {y}, column {x}: '{c}' is not in the legend"),
                    ));
                };
                cells.push(k as u8);
            }
        }
        let grid = Grid::from_cells(size, cells).ok_or("map cell count does not match its size")?;
        Ok(Terrain::new(legend, grid)?)
    }

    /// The map's size.
    pub fn size(&self) -> Size {
        self.cells.size()
    }

    /// The legend.
    pub fn legend(&self) -> &[TerrainType] {
        &self.legend
    }

    /// The terrain type of `pos` (which must be on the map).
    pub fn at(&self, pos: Pos) -> &TerrainType {
        &self.legend[usize::from(self.cells[pos])]
    }

    /// Legend indices, row by row.
    pub fn cells(&self) -> &Grid<u8> {
        &self.cells
    }

    /// Whether `pos` is on the map and passable.
    pub fn passable(&self, pos: Pos) -> bool {
        self.size().contains(pos) && self.multipliers[self.size().index(pos)] != 0
    }

    /// Per-cell `1 + extra`, 0 for impassable, row by row.
    pub fn multipliers(&self) -> &[u16] {
        &self.multipliers
    }

    /// The rows as legend glyphs (the level format's `map`).
    pub fn rows(&self) -> Vec<String> {
        self.cells.rows().map(|r| r.iter().map(|&k| self.legend[usize::from(k)].glyph).collect()).collect()
    }
}

impl Graph for Terrain {
    #[inline]
    fn size(&self) -> Size {
        self.cells.size()
    }

    #[inline]
    fn multiplier(&self, i: usize) -> u32 {
        u32::from(self.multipliers[i])
    }

    /// Every passable cell of one multiplier: the bit planes, made once per terrain.
    fn uniform(&self) -> Option<&Uniform> {
        self.uniform.0.get_or_init(|| Uniform::of(self.size(), &self.multipliers)).as_ref()
    }
}
