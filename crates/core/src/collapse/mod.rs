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

mod level;
mod mirror;
mod testset;

pub use level::{CollapseLevel, DEFAULT_SIDE};
pub use testset::{TestsetBoard, TestsetError, parse_testset};

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
    board: Grid<Option<Tile>>,
    score: u64,
    ids: IdGen,
    rng: GameRng,
    #[serde(skip)]
    hash: u64,
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
fn pos_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// A whole tile's hash key: where it is and what colour.
#[inline]
fn tile_key(index: usize, tile: Tile) -> u64 {
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
    pub fn from_cells(size: Size, cells: &[Option<u8>], seed: u64) -> Result<Self, String> {
        if cells.len() != size.area() {
            return Err(format!("board has {} cells, expected {} for {size}", cells.len(), size.area()));
        }
        let w = usize::from(size.width);
        for (i, &c) in cells.iter().enumerate() {
            let at = size.pos(i);
            if let Some(c) = c {
                if c >= MAX_COLOURS {
                    return Err(format!("board cell {at}: colour {c} is not below {MAX_COLOURS}"));
                }
                if i + w < cells.len() && cells[i + w].is_none() {
                    return Err(format!(
                        "board cell {at} holds a tile above the empty cell {}: tiles must rest on the \
                         bottom row or on another tile",
                        size.pos(i + w)
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

/// A tile a tap cleared: its id and where it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClearedTile {
    /// The tile.
    pub id: Id,
    /// Its cell.
    pub at: Pos,
}

/// What happened in a tap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CollapseEvent {
    /// The tapped group was removed.
    Cleared {
        /// Every tile of the group with its cell, in row-major order.
        tiles: Vec<ClearedTile>,
        /// The group's colour.
        colour: u8,
    },
    /// A tile fell down its column.
    Fell {
        /// The tile.
        tile: Id,
        /// Where it was.
        from: Pos,
        /// Where it rests (same column, lower).
        to: Pos,
    },
    /// A whole column moved sideways into an empty column.
    ColumnShifted {
        /// The column it was.
        from: u16,
        /// The column it is.
        to: u16,
    },
    /// The score rose by `points + bonus`.
    Scored {
        /// Points for the cleared group.
        points: u64,
        /// The bonus for clearing the board (`Standard`: 1000), else 0.
        bonus: u64,
    },
    /// No group of at least `min_group` tiles is left.
    GameOver {
        /// Whether the board is empty.
        cleared_all: bool,
    },
}

/// A SameGame command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CollapseCommand {
    /// Clear the group at this cell.
    Tap(Pos),
}

impl fmt::Display for CollapseCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CollapseCommand::Tap(p) => write!(f, "tap {} {}", p.x, p.y),
        }
    }
}

impl FromStr for CollapseCommand {
    type Err = String;
    /// `tap X Y`: column X, row Y (0 is the top row).
    fn from_str(s: &str) -> Result<Self, String> {
        let usage = || format!("unknown collapse command '{}' (expected: tap X Y)", s.trim());
        let mut words = s.split_whitespace();
        if words.next() != Some("tap") {
            return Err(usage());
        }
        let mut coord = |name: &str| -> Result<u16, String> {
            let w = words.next().ok_or_else(usage)?;
            w.parse::<u16>().map_err(|_| format!("tap: {name} '{w}' is not a number from 0 to 65535"))
        };
        let x = coord("X")?;
        let y = coord("Y")?;
        if words.next().is_some() {
            return Err(usage());
        }
        Ok(CollapseCommand::Tap(Pos::new(x, y)))
    }
}

/// One group, as [`CollapseRules::groups_into`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The group's first cell in row-major order (where `legal_commands` taps).
    pub at: Pos,
    /// Number of tiles.
    pub size: u32,
    /// Colour.
    pub colour: u8,
}

/// Reusable buffers for labelling groups without allocating once warm.
///
/// Labelling copies the colours into a byte grid with a one-cell border of "empty" around it
/// (so the flood fill needs no edge tests and no divisions) and marks visited cells in place.
/// A tile with no neighbour of its colour is a group of one, found without the fill.
#[derive(Clone, Debug, Default)]
pub struct GroupScratch {
    pad: Vec<u8>,
    stack: Vec<u32>,
    /// Visit marks of [`CollapseRules::random_group`]: a cell is visited when its mark equals
    /// `epoch`, so nothing needs clearing between calls.
    mark: Vec<u32>,
    epoch: u32,
    /// Work list of [`CollapseRules::random_group`]'s flood fill.
    work: Vec<u32>,
}

/// A padded cell holding no tile (or the border).
const PAD_EMPTY: u8 = 0xFF;
/// A padded cell already counted in a group.
const PAD_SEEN: u8 = 0xFE;

/// Calls `found` for every group of at least `min` tiles, in row-major order of the groups'
/// first cells, until `found` returns false.
fn scan_groups(
    cells: &[Option<Tile>],
    size: Size,
    min: u32,
    scratch: &mut GroupScratch,
    mut found: impl FnMut(Group) -> bool,
) {
    let (w, h) = (usize::from(size.width), usize::from(size.height));
    let pw = w + 2;
    let GroupScratch { pad, stack, .. } = scratch;
    let padded = pw * (h + 2);
    if pad.len() != padded {
        pad.clear();
        pad.resize(padded, PAD_EMPTY);
        stack.clear();
        stack.resize(padded, 0);
    }
    // The border stays empty; the interior is rewritten every time.
    for (out, row) in pad.chunks_exact_mut(pw).skip(1).zip(cells.chunks_exact(w)) {
        for (o, c) in out[1..].iter_mut().zip(row) {
            *o = match c {
                Some(t) => t.colour,
                None => PAD_EMPTY,
            };
        }
    }
    // Only the box from the first row holding a tile down, and from the first to the last
    // non-empty column, can hold groups (tiles are settled).
    let bottom = &cells[(h - 1) * w..];
    let Some(x0) = bottom.iter().position(Option::is_some) else { return };
    let x1 = bottom.iter().rposition(Option::is_some).unwrap_or(x0);
    let y0 = (0..h).find(|&y| cells[y * w + x0..=y * w + x1].iter().any(Option::is_some)).unwrap_or(h);
    for y in y0..h {
        let row = (y + 1) * pw + 1;
        for x in x0..=x1 {
            let start = row + x;
            let colour = pad[start];
            if colour >= PAD_SEEN {
                continue;
            }
            let joined = (pad[start - 1] == colour)
                | (pad[start + 1] == colour)
                | (pad[start - pw] == colour)
                | (pad[start + pw] == colour);
            let n = if !joined {
                1
            } else {
                pad[start] = PAD_SEEN;
                stack[0] = start as u32;
                let mut top = 1;
                let mut n = 0u32;
                while top > 0 {
                    top -= 1;
                    let i = stack[top] as usize;
                    n += 1;
                    for j in [i - 1, i + 1, i - pw, i + pw] {
                        if pad[j] == colour {
                            pad[j] = PAD_SEEN;
                            stack[top] = j as u32;
                            top += 1;
                        }
                    }
                }
                n
            };
            if n >= min && !found(Group { at: Pos::new(x as u16, y as u16), size: n, colour }) {
                return;
            }
        }
    }
}

/// The size of the group of `colour` at `start`, or `None` as soon as one of its cells comes
/// before `start` in row-major order.
fn first_cell_group(
    cells: &[Option<Tile>],
    w: usize,
    h: usize,
    start: usize,
    colour: u8,
    scratch: &mut GroupScratch,
) -> Option<u32> {
    scratch.epoch += 1;
    let epoch = scratch.epoch;
    let GroupScratch { mark, work: stack, .. } = scratch;
    stack.clear();
    stack.push(start as u32);
    mark[start] = epoch;
    let mut n = 0;
    while let Some(i) = stack.pop() {
        let i = i as usize;
        if i < start {
            return None;
        }
        n += 1;
        let (x, y) = (i % w, i / w);
        let mut visit = |j: usize| {
            if mark[j] != epoch && cells[j].is_some_and(|t| t.colour == colour) {
                mark[j] = epoch;
                stack.push(j as u32);
            }
        };
        if x > 0 {
            visit(i - 1);
        }
        if x + 1 < w {
            visit(i + 1);
        }
        if y > 0 {
            visit(i - w);
        }
        if y + 1 < h {
            visit(i + w);
        }
    }
    Some(n)
}

/// Whether two orthogonal neighbours share a colour. Walks each column from the bottom up to
/// its top tile (tiles are settled), comparing with the cells above and to the right.
fn has_pair(cells: &[Option<Tile>], w: usize, h: usize) -> bool {
    for x in 0..w {
        for y in (0..h).rev() {
            let i = y * w + x;
            let Some(t) = cells[i] else { break };
            if y > 0 && cells[i - w].is_some_and(|u| u.colour == t.colour) {
                return true;
            }
            if x + 1 < w && cells[i + 1].is_some_and(|u| u.colour == t.colour) {
                return true;
            }
        }
    }
    false
}

/// Moves the settled tiles of column `from` into the empty column `to`; returns how the hash
/// changes.
#[inline]
fn move_column(cells: &mut [Option<Tile>], w: usize, h: usize, from: usize, to: usize) -> u64 {
    let mut hash = 0;
    for y in (0..h).rev() {
        let Some(t) = cells[y * w + from].take() else { break };
        cells[y * w + to] = Some(t);
        hash ^= pos_key(y * w + from, t.id) ^ pos_key(y * w + to, t.id);
    }
    hash
}

/// The SameGame rules with their settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollapseRules {
    /// The settings.
    pub config: CollapseConfig,
}

fn describe(cell: Option<Tile>) -> String {
    match cell {
        None => "nothing".into(),
        Some(t) => format!("tile {} of colour {}", t.id, t.colour),
    }
}

fn too_small(at: Pos, n: usize, min: u32) -> Rejected {
    let tiles = if n == 1 { "tile" } else { "tiles" };
    Rejected::detailed(
        "group_too_small",
        format!("the group at {at} has {n} {tiles}; at least {min} are needed"),
    )
}

impl CollapseRules {
    /// Rules with `config`.
    pub fn new(config: CollapseConfig) -> Self {
        CollapseRules { config }
    }

    /// Pushes every group of at least `min_group` tiles into `out` (which is not cleared), in
    /// row-major order of their first cells. Allocates nothing once `scratch` and `out` have
    /// grown to the board.
    pub fn groups_into(&self, state: &CollapseState, scratch: &mut GroupScratch, out: &mut Vec<Group>) {
        scan_groups(state.board.cells(), state.board.size(), self.config.min_group.max(1), scratch, |g| {
            out.push(g);
            true
        });
    }

    /// One group of at least `min_group` tiles, chosen uniformly among all such groups, or
    /// `None` when there is none: what a random playout needs, far cheaper than listing every
    /// group with [`CollapseRules::groups_into`] after each tap.
    ///
    /// Rejection sampling: `below(n)` must return a uniform integer in `0..n` (the caller's
    /// generator; the game's own is not touched). A cell is drawn uniformly from the columns
    /// holding tiles and accepted when it is the first cell, in row-major order, of a group of at
    /// least `min_group` tiles. Every group has exactly one such cell, so every group is equally
    /// likely. Most rejections cost a look at two neighbours; an accepted cell's group is flood
    /// filled once to check it. Allocates nothing once `scratch` has grown to the board.
    pub fn random_group(
        &self,
        state: &CollapseState,
        scratch: &mut GroupScratch,
        mut below: impl FnMut(u32) -> u32,
    ) -> Option<Group> {
        let min = self.config.min_group.max(1);
        let size = state.board.size();
        let cells = state.board.cells();
        let any = match min {
            1 | 2 => state.has_group(min),
            _ => {
                let mut any = false;
                scan_groups(cells, size, min, scratch, |_| {
                    any = true;
                    false
                });
                any
            }
        };
        if !any {
            return None;
        }
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let bottom = &cells[(h - 1) * w..];
        let x0 = bottom.iter().position(Option::is_some)?;
        let x1 = bottom.iter().rposition(Option::is_some)?;
        let span = (x1 - x0 + 1) as u32;
        if scratch.mark.len() != cells.len() || scratch.epoch == u32::MAX {
            scratch.mark.clear();
            scratch.mark.resize(cells.len(), 0);
            scratch.epoch = 0;
        }
        loop {
            let x = x0 + below(span).min(span - 1) as usize;
            let y = below(h as u32).min(h as u32 - 1) as usize;
            let i = y * w + x;
            let Some(tile) = cells[i] else { continue };
            let same = |j: usize| cells[j].is_some_and(|t| t.colour == tile.colour);
            // A neighbour above or to the left would come first in row-major order.
            if (x > 0 && same(i - 1)) || (y > 0 && same(i - w)) {
                continue;
            }
            if min >= 2 && !((x + 1 < w && same(i + 1)) || (y + 1 < h && same(i + w))) {
                continue;
            }
            if let Some(n) = first_cell_group(cells, w, h, i, tile.colour, scratch)
                && n >= min
            {
                return Some(Group { at: Pos::new(x as u16, y as u16), size: n, colour: tile.colour });
            }
        }
    }

    /// [`Rules::apply`], pushing into any buffer whose items can be made from a
    /// [`CollapseEvent`] (the `AnyEvent` buffer of the apps, with no copy).
    pub fn apply_into<E: From<CollapseEvent>>(
        &self,
        state: &mut CollapseState,
        cmd: &CollapseCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        let CollapseCommand::Tap(at) = *cmd;
        let size = state.board.size();
        if !size.contains(at) {
            return Err(Rejected::detailed("off_board", format!("{at} is off the {size} board")));
        }
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let min = self.config.min_group.max(1);
        let cells = state.board.cells_mut();
        let start = size.index(at);
        let Some(first) = cells[start] else {
            return Err(Rejected::detailed("empty_cell", format!("cell {at} is empty")));
        };
        let colour = first.colour;
        let same = |c: &Option<Tile>| c.is_some_and(|t| t.colour == colour);
        if min >= 2 {
            let (x, y) = (start % w, start / w);
            let alone = !((x > 0 && same(&cells[start - 1]))
                || (x + 1 < w && same(&cells[start + 1]))
                || (y > 0 && same(&cells[start - w]))
                || (y + 1 < h && same(&cells[start + w])));
            if alone {
                return Err(too_small(at, 1, min));
            }
        }

        // Flood fill, taking tiles off the board as they are found; `tiles` is the work list.
        let mut tiles = Vec::with_capacity(32);
        cells[start] = None;
        tiles.push(ClearedTile { id: first.id, at });
        let mut k = 0;
        while k < tiles.len() {
            let p = tiles[k].at;
            k += 1;
            let (x, y) = (usize::from(p.x), usize::from(p.y));
            let i = y * w + x;
            let mut take = |j: usize, tiles: &mut Vec<ClearedTile>| {
                if let Some(t) = cells[j]
                    && t.colour == colour
                {
                    cells[j] = None;
                    tiles.push(ClearedTile { id: t.id, at: Pos::new((j % w) as u16, (j / w) as u16) });
                }
            };
            if x > 0 {
                take(i - 1, &mut tiles);
            }
            if x + 1 < w {
                take(i + 1, &mut tiles);
            }
            if y > 0 {
                take(i - w, &mut tiles);
            }
            if y + 1 < h {
                take(i + w, &mut tiles);
            }
        }
        if tiles.len() < min as usize {
            for t in &tiles {
                cells[size.index(t.at)] = Some(Tile { id: t.id, colour });
            }
            return Err(too_small(at, tiles.len(), min));
        }
        let (mut min_x, mut max_x) = (w, 0);
        for t in &tiles {
            min_x = min_x.min(usize::from(t.at.x));
            max_x = max_x.max(usize::from(t.at.x));
        }
        tiles.sort_unstable_by_key(|t| (t.at.y, t.at.x));
        let n = tiles.len() as u32;
        let mut hash = 0u64; // how the hash changes
        for t in &tiles {
            hash ^= tile_key(size.index(t.at), Tile { id: t.id, colour });
        }
        events.push(E::from(CollapseEvent::Cleared { tiles, colour }));

        // Gravity, in the columns the group touched.
        for x in min_x..=max_x {
            let mut dest = h;
            for y in (0..h).rev() {
                let i = y * w + x;
                let Some(t) = cells[i] else { continue };
                dest -= 1;
                if dest != y {
                    cells[dest * w + x] = Some(t);
                    cells[i] = None;
                    hash ^= pos_key(i, t.id) ^ pos_key(dest * w + x, t.id);
                    events.push(E::from(CollapseEvent::Fell {
                        tile: t.id,
                        from: Pos::new(x as u16, y as u16),
                        to: Pos::new(x as u16, dest as u16),
                    }));
                }
            }
        }

        // Compaction, when one of those columns became empty.
        let bottom = (h - 1) * w;
        let emptied = (min_x..=max_x).any(|x| cells[bottom + x].is_none());
        if emptied {
            let mut shift = |cells: &mut [Option<Tile>], from: usize, to: usize, events: &mut Vec<E>| {
                hash ^= move_column(cells, w, h, from, to);
                events.push(E::from(CollapseEvent::ColumnShifted { from: from as u16, to: to as u16 }));
            };
            match self.config.compaction {
                Compaction::None => {}
                Compaction::Left => {
                    let mut dest = 0;
                    for x in 0..w {
                        if cells[bottom + x].is_some() {
                            if x != dest {
                                shift(cells, x, dest, events);
                            }
                            dest += 1;
                        }
                    }
                }
                Compaction::Center => {
                    let c = w / 2;
                    let mut dest = c + 1; // one past the next free column, walking left
                    for x in (0..=c).rev() {
                        if cells[bottom + x].is_some() {
                            dest -= 1;
                            if x != dest {
                                shift(cells, x, dest, events);
                            }
                        }
                    }
                    let mut dest = c + 1;
                    for x in c + 1..w {
                        if cells[bottom + x].is_some() {
                            if x != dest {
                                shift(cells, x, dest, events);
                            }
                            dest += 1;
                        }
                    }
                }
            }
        }

        state.hash ^= hash;
        let cleared_all = state.is_cleared();
        let points = self.config.scoring.points(n);
        let bonus = if cleared_all { self.config.scoring.clear_bonus() } else { 0 };
        if points + bonus > 0 {
            state.hash ^=
                field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, state.score + points + bonus);
            state.score += points + bonus;
            events.push(E::from(CollapseEvent::Scored { points, bonus }));
        }
        if cleared_all || !state.has_group(min) {
            events.push(E::from(CollapseEvent::GameOver { cleared_all }));
        }
        Ok(())
    }
}

impl Rules for CollapseRules {
    type State = CollapseState;
    type Command = CollapseCommand;
    type Event = CollapseEvent;

    fn apply(
        &self,
        state: &mut CollapseState,
        cmd: &CollapseCommand,
        events: &mut Vec<CollapseEvent>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    fn undo_event(&self, state: &mut CollapseState, event: &CollapseEvent) {
        let (w, h) = (usize::from(state.board.width()), usize::from(state.board.height()));
        let size = state.board.size();
        let b = &mut state.board;
        match event {
            CollapseEvent::Cleared { tiles, colour } => {
                for t in tiles {
                    if let Some(c) = b.get_mut(t.at) {
                        let tile = Tile { id: t.id, colour: *colour };
                        *c = Some(tile);
                        state.hash ^= tile_key(size.index(t.at), tile);
                    }
                }
            }
            &CollapseEvent::Fell { from, to, .. } => {
                if size.contains(from) && size.contains(to) {
                    b[from] = b[to].take();
                    if let Some(t) = b[from] {
                        state.hash ^= pos_key(size.index(from), t.id) ^ pos_key(size.index(to), t.id);
                    }
                }
            }
            &CollapseEvent::ColumnShifted { from, to } => {
                if usize::from(from) < w && usize::from(to) < w {
                    state.hash ^= move_column(b.cells_mut(), w, h, usize::from(to), usize::from(from));
                }
            }
            CollapseEvent::Scored { points, bonus } => {
                let score = state.score.saturating_sub(points + bonus);
                state.hash ^= field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, score);
                state.score = score;
            }
            CollapseEvent::GameOver { .. } => {}
        }
    }

    fn redo_event(&self, state: &mut CollapseState, event: &CollapseEvent) -> Result<(), Inconsistent> {
        let (w, h) = (usize::from(state.board.width()), usize::from(state.board.height()));
        let size = state.board.size();
        let b = &mut state.board;
        let off = |p: Pos| Inconsistent::detailed(format!("cell {p} is off the {size} board"));
        match event {
            CollapseEvent::Cleared { tiles, colour } => {
                // Cleared one by one, each checked against the board as it is then (so a tile
                // listed twice is caught); on a misfit the ones cleared are put back.
                let mut hash = 0;
                for (k, t) in tiles.iter().enumerate() {
                    let tile = Tile { id: t.id, colour: *colour };
                    let found = b.get(t.at).copied();
                    if found != Some(Some(tile)) {
                        for u in &tiles[..k] {
                            b[u.at] = Some(Tile { id: u.id, colour: *colour });
                        }
                        return Err(match found {
                            None => off(t.at),
                            Some(other) => Inconsistent::detailed(format!(
                                "tile {} of colour {colour} is not at {} (it holds {})",
                                t.id,
                                t.at,
                                describe(other)
                            )),
                        });
                    }
                    b[t.at] = None;
                    hash ^= tile_key(size.index(t.at), tile);
                }
                state.hash ^= hash;
            }
            &CollapseEvent::Fell { tile, from, to } => {
                let (Some(&src), Some(&dst)) = (b.get(from), b.get(to)) else {
                    return Err(off(if size.contains(from) { to } else { from }));
                };
                if src.map(|t| t.id) != Some(tile) {
                    return Err(Inconsistent::detailed(format!(
                        "tile {tile} is not at {from} (it holds {})",
                        describe(src)
                    )));
                }
                if dst.is_some() {
                    return Err(Inconsistent::detailed(format!(
                        "cell {to} is not empty (it holds {})",
                        describe(dst)
                    )));
                }
                b[to] = b[from].take();
                state.hash ^= pos_key(size.index(from), tile) ^ pos_key(size.index(to), tile);
            }
            &CollapseEvent::ColumnShifted { from, to } => {
                let (f, t) = (usize::from(from), usize::from(to));
                if f >= w || t >= w || f == t {
                    return Err(Inconsistent::detailed(format!(
                        "column shift {from} to {to} on a board {w} wide"
                    )));
                }
                if (0..h).any(|y| b.cells()[y * w + t].is_some()) {
                    return Err(Inconsistent::detailed(format!("column {to} is not empty")));
                }
                state.hash ^= move_column(b.cells_mut(), w, h, f, t);
            }
            CollapseEvent::Scored { points, bonus } => {
                let Some(score) = points.checked_add(*bonus).and_then(|p| state.score.checked_add(p)) else {
                    return Err(Inconsistent::detailed(format!(
                        "score {} + {points} + {bonus} overflows",
                        state.score
                    )));
                };
                state.hash ^= field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, score);
                state.score = score;
            }
            CollapseEvent::GameOver { .. } => {}
        }
        Ok(())
    }

    /// One tap per group of at least `min_group` tiles, at the group's first cell in row-major
    /// order, listed in that order.
    fn legal_commands(&self, state: &CollapseState) -> Vec<CollapseCommand> {
        let mut groups = Vec::new();
        self.groups_into(state, &mut GroupScratch::default(), &mut groups);
        groups.into_iter().map(|g| CollapseCommand::Tap(g.at)).collect()
    }

    fn status(&self, state: &CollapseState) -> Status {
        if state.has_group(self.config.min_group.max(1)) { Status::Playing } else { Status::Over }
    }
}

#[cfg(test)]
mod tests;
