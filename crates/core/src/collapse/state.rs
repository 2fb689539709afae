//! The SameGame state: the board and scalars, their hash keys and the state's own methods.

use super::*;
use crate::level::{LevelError, Place};

/// A tile: its stable id and its colour (`0..16`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    /// Stable id.
    pub id: Id,
    /// Colour, below [`MAX_COLOURS`].
    pub colour: u8,
}

/// The character a colour is written as in levels and renders: `0`–`9`, then `a`–`f`.
pub fn colour_char(colour: u8) -> char {
    char::from_digit(u32::from(colour), u32::from(MAX_COLOURS)).unwrap_or('?')
}

/// The colour written as `c` (`0`–`9`, `a`–`f`; lower case only), if any.
pub fn colour_from_char(c: char) -> Option<u8> {
    if c.is_ascii_uppercase() {
        return None;
    }
    c.to_digit(u32::from(MAX_COLOURS)).map(|d| d as u8)
}

/// A SameGame game: the board, the score, the id counter and the generator.
///
/// Invariant (enforced by the constructors and kept by every tap): no tile sits above an empty
/// cell in its column.
///
/// It also keeps its incremental hash ([`CollapseState::hash`]), which is not serialized:
/// deserialization recomputes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "RawState")]
pub struct CollapseState {
    pub(super) board: Grid<Option<Tile>>,
    pub(super) score: u64,
    ids: IdGen,
    rng: GameRng,
    #[serde(skip)]
    pub(super) hash: u64,
}

/// [`CollapseState`] as stored (the same fields in the same order, without the hash).
#[derive(Deserialize)]
struct RawState {
    board: Grid<Option<Tile>>,
    score: u64,
    ids: IdGen,
    rng: GameRng,
}

impl From<RawState> for CollapseState {
    fn from(r: RawState) -> Self {
        CollapseState::with_hash(r.board, r.score, r.ids, r.rng)
    }
}

/// The position half of a tile's hash key (see [`crate::keys`]).
#[inline]
pub(super) fn pos_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// A whole tile's hash key: where it is and what colour.
#[inline]
pub(super) fn tile_key(index: usize, tile: Tile) -> u64 {
    pos_key(index, tile.id) ^ cell_key(kind::WHAT, u32::from(tile.colour), tile.id.0)
}

impl CollapseState {
    /// A new full board of `size` with colours drawn from `seed`: each cell `below(colours)`,
    /// row by row from the top left. `colours` is clamped to `1..=16` (levels check `2..=16`).
    pub fn new_game(size: Size, colours: u8, seed: u64) -> Self {
        let k = u32::from(colours.clamp(1, MAX_COLOURS));
        let mut rng = GameRng::new(seed);
        let mut ids = IdGen::default();
        let cells =
            (0..size.area()).map(|_| Some(Tile { id: ids.next(), colour: rng.below(k) as u8 })).collect();
        // `cells` has exactly `size.area()` items, so `from_cells` cannot refuse it.
        let board = Grid::from_cells(size, cells).unwrap_or_else(|| Grid::filled(size, None));
        CollapseState::with_hash(board, 0, ids, rng)
    }

    fn with_hash(board: Grid<Option<Tile>>, score: u64, ids: IdGen, rng: GameRng) -> Self {
        let mut s = CollapseState { board, score, ids, rng, hash: 0 };
        s.hash = s.recompute_hash();
        s
    }

    /// The incremental hash of this state (see [`crate::keys`]): kept up to date by the rules,
    /// always equal to [`CollapseState::recompute_hash`].
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The incremental hash computed from scratch over every cell and field: the reference the
    /// kept hash is tested against.
    pub fn recompute_hash(&self) -> u64 {
        let mut h = size_key(self.board.size())
            ^ field_key(kind::SCORE, self.score)
            ^ field_key(kind::IDS, u64::from(self.ids.peek().0))
            ^ rng_key(&self.rng);
        for (i, t) in self.board.cells().iter().enumerate() {
            if let Some(t) = t {
                h ^= tile_key(i, *t);
            }
        }
        h
    }

    /// A game starting from exactly `cells` (row-major from the top left, `None` for empty).
    /// Tiles get ids 0, 1, … in that order. Refuses (naming the cell) a wrong cell count, a
    /// colour of 16 or more, and a tile above an empty cell.
    pub fn from_cells(size: Size, cells: &[Option<u8>], seed: u64) -> Result<Self, LevelError> {
        if cells.len() != size.area() {
            return Err(
                format!("board has {} cells, expected {} for {size}", cells.len(), size.area()).into()
            );
        }
        let w = usize::from(size.width);
        for (i, &c) in cells.iter().enumerate() {
            let at = size.pos(i);
            if let Some(c) = c {
                if c >= MAX_COLOURS {
                    return Err(LevelError::at(
                        Place::Cell(at),
                        format!("board cell {at}: colour {c} is not below {MAX_COLOURS}"),
                    ));
                }
                if i + w < cells.len() && cells[i + w].is_none() {
                    return Err(LevelError::at(
                        Place::Cell(at),
                        format!(
                            "board cell {at} holds a tile above the empty cell {}: tiles must rest on \
                             the bottom row or on another tile",
                            size.pos(i + w)
                        ),
                    ));
                }
            }
        }
        let mut ids = IdGen::default();
        let tiles = cells.iter().map(|c| c.map(|colour| Tile { id: ids.next(), colour })).collect();
        let board = Grid::from_cells(size, tiles).ok_or("board cell count does not match its size")?;
        Ok(CollapseState::with_hash(board, 0, ids, GameRng::new(seed)))
    }

    /// The board.
    pub fn board(&self) -> &Grid<Option<Tile>> {
        &self.board
    }

    /// The score so far.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// The generator (drawn from only when the board was made).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Replaces the generator, returning the old one. Not used by the rules: this is for bots,
    /// whose look-ahead samples future spawns from a generator of their own (a determinized copy
    /// of the state) rather than reading the game's. Normal play never calls it, so no event or
    /// hash of a game changes.
    pub fn replace_rng(&mut self, rng: GameRng) -> GameRng {
        std::mem::replace(&mut self.rng, rng)
    }

    /// The id counter.
    pub fn ids(&self) -> IdGen {
        self.ids
    }

    /// Number of tiles on the board.
    pub fn tile_count(&self) -> usize {
        self.board.cells().iter().flatten().count()
    }

    /// Whether no tile is left.
    pub fn is_cleared(&self) -> bool {
        // Tiles rest on the bottom row or on other tiles: the board is empty iff its bottom row is.
        self.board.row(self.board.height() - 1).iter().all(Option::is_none)
    }

    /// Whether column `x` holds no tile.
    pub fn column_is_empty(&self, x: u16) -> bool {
        self.board.get(Pos::new(x, self.board.height() - 1)).is_none_or(Option::is_none)
    }

    /// The board as the level format writes it: one string per row from the top, colour
    /// characters ([`colour_char`]) and `.` for empty.
    pub fn rows(&self) -> Vec<String> {
        self.board
            .rows()
            .map(|r| r.iter().map(|t| t.map_or('.', |t| colour_char(t.colour))).collect())
            .collect()
    }

    /// The board as text: [`CollapseState::rows`], one per line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for row in self.rows() {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }

    /// The cells of the group at `at` (4-connected, same colour), in row-major order; empty
    /// for an empty cell or a cell off the board.
    pub fn group_at(&self, at: Pos) -> Vec<Pos> {
        let size = self.board.size();
        let Some(Some(tile)) = self.board.get(at) else { return Vec::new() };
        let mut seen = vec![false; size.area()];
        let mut group = vec![at];
        seen[size.index(at)] = true;
        let mut i = 0;
        while i < group.len() {
            let p = group[i];
            i += 1;
            for q in size.neighbours4(p) {
                let j = size.index(q);
                if !seen[j] && self.board.cells()[j].is_some_and(|t| t.colour == tile.colour) {
                    seen[j] = true;
                    group.push(q);
                }
            }
        }
        group.sort_unstable_by_key(|p| (p.y, p.x));
        group
    }

    /// Whether some group of at least `min` tiles exists.
    pub fn has_group(&self, min: u32) -> bool {
        let (w, h) = (usize::from(self.board.width()), usize::from(self.board.height()));
        let cells = self.board.cells();
        match min {
            0 | 1 => !self.is_cleared(),
            2 => has_pair(cells, w, h),
            _ => {
                let mut scratch = GroupScratch::default();
                let mut found = false;
                scan_groups(cells, self.board.size(), min, &mut scratch, |_| {
                    found = true;
                    false
                });
                found
            }
        }
    }
}
