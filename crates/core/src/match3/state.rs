//! The match-3 state: the board and scalars, their hash keys and the state's own methods.

use super::*;

/// What a cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    /// Holds a block.
    Playable,
    /// Never holds a block; blocks fall past it (the seed's EMPTY cell type).
    Void,
}

/// A block: stable id, breed and lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// Stable id.
    pub id: Id,
    /// Breed (colour), `0..breeds`.
    pub breed: u8,
    /// Cannot be swapped, shuffled or fall; a match removes the lock instead of the block.
    pub locked: bool,
}

/// Why a game ended without a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameOverReason {
    /// The move limit is used up.
    OutOfMoves,
    /// No arrangement of the movable blocks (even recoloured) can offer a valid swap.
    NoMovesPossible,
    /// The shuffle search ran out of budget before finding or ruling out a board (large boards
    /// with few breeds and many locks only; see the module docs).
    ShuffleFailed,
}

/// A match-3 game: cells, blocks, score, moves, outcome, ids and the generator.
///
/// Deserialization checks the invariants the rules rely on (one size for cells and blocks, a
/// block on exactly the playable cells, sides up to 256, breeds below 16, ids below the counter),
/// so a corrupt saved state is an error rather than a panic later.
///
/// It also keeps its incremental hash ([`Match3State::hash`]; the void cells enter it once, by
/// their canonical hash), which is not serialized: deserialization recomputes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawState")]
pub struct Match3State {
    pub(super) cells: Grid<Cell>,
    pub(super) blocks: Grid<Option<Block>>,
    pub(super) score: u64,
    pub(super) moves: u32,
    pub(super) won: bool,
    pub(super) over: Option<GameOverReason>,
    pub(super) ids: IdGen,
    pub(super) rng: GameRng,
    #[serde(skip)]
    pub(super) hash: u64,
}

/// The position half of a block's hash key (see [`crate::keys`]).
#[inline]
pub(super) fn pos_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// The content half of a block's hash key: breed, lock and id.
#[inline]
pub(super) fn what_key(b: Block) -> u64 {
    cell_key(kind::WHAT, u32::from(b.breed) | u32::from(b.locked) << 8, b.id.0)
}

/// A whole block's hash key at cell `index`.
#[inline]
pub(super) fn block_key(index: usize, b: Block) -> u64 {
    pos_key(index, b.id) ^ what_key(b)
}

/// [`Match3State`] as stored, before its checks.
#[derive(Deserialize)]
struct RawState {
    cells: Grid<Cell>,
    blocks: Grid<Option<Block>>,
    score: u64,
    moves: u32,
    won: bool,
    over: Option<GameOverReason>,
    ids: IdGen,
    rng: GameRng,
}

impl TryFrom<RawState> for Match3State {
    type Error = String;
    fn try_from(r: RawState) -> Result<Self, String> {
        if r.cells.size() != r.blocks.size() {
            return Err(format!("cells are {} but blocks are {}", r.cells.size(), r.blocks.size()));
        }
        let size = r.cells.size();
        if size.width > MAX_SIDE || size.height > MAX_SIDE {
            return Err(format!("board size {size} is larger than {MAX_SIDE}x{MAX_SIDE}"));
        }
        for (i, (c, b)) in r.cells.cells().iter().zip(r.blocks.cells()).enumerate() {
            let at = size.pos(i);
            match (c, b) {
                (Cell::Void, Some(_)) => return Err(format!("void cell {at} holds a block")),
                (Cell::Playable, None) => return Err(format!("playable cell {at} holds no block")),
                (_, Some(b)) if b.breed >= MAX_BREEDS => {
                    return Err(format!("the block at {at} has breed {}", b.breed));
                }
                (_, Some(b)) if b.id >= r.ids.peek() => {
                    return Err(format!("the block at {at} has id {} beyond the counter", b.id));
                }
                _ => {}
            }
        }
        let RawState { cells, blocks, score, moves, won, over, ids, rng } = r;
        let mut s = Match3State { cells, blocks, score, moves, won, over, ids, rng, hash: 0 };
        s.hash = s.recompute_hash();
        Ok(s)
    }
}

/// The letter of a breed: `a` for 0 … `p` for 15 (upper case when locked).
pub fn breed_char(breed: u8, locked: bool) -> char {
    let c = char::from(b'a' + breed.min(25));
    if locked { c.to_ascii_uppercase() } else { c }
}

impl Match3State {
    /// A state holding exactly the board written in `rows` (from the top): `#` Void, `a`–`p` an
    /// unlocked block of breed 0–15, `A`–`P` a locked one. Ids are given row by row. Nothing is
    /// checked beyond the characters and the shape: for tests and tools that need a precise board
    /// (a level goes through [`Match3Level`]).
    pub fn from_rows(rows: &[&str], seed: u64) -> Result<Match3State, String> {
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.chars().count());
        let size = Size::new(width, height, MAX_SIDE).map_err(|e| e.to_string())?;
        let mut cells = Vec::with_capacity(size.area());
        let mut blocks = Vec::with_capacity(size.area());
        let mut ids = IdGen::default();
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() != width {
                return Err(format!("row {y} has {} cells, expected {width}", row.chars().count()));
            }
            for (x, ch) in row.chars().enumerate() {
                match ch {
                    '#' => {
                        cells.push(Cell::Void);
                        blocks.push(None);
                    }
                    'a'..='p' | 'A'..='P' => {
                        cells.push(Cell::Playable);
                        let breed = ch.to_ascii_lowercase() as u8 - b'a';
                        blocks.push(Some(Block { id: ids.next(), breed, locked: ch.is_ascii_uppercase() }));
                    }
                    _ => return Err(format!("cell ({x}, {y}): '{ch}' is not '#', a-p or A-P")),
                }
            }
        }
        Ok(Match3State::with_hash(
            Grid::from_cells(size, cells).ok_or("bad shape")?,
            Grid::from_cells(size, blocks).ok_or("bad shape")?,
            ids,
            GameRng::new(seed),
        ))
    }

    /// A new game's state (score, moves and outcome zero) with its hash.
    pub(crate) fn with_hash(
        cells: Grid<Cell>,
        blocks: Grid<Option<Block>>,
        ids: IdGen,
        rng: GameRng,
    ) -> Self {
        let mut s =
            Match3State { cells, blocks, score: 0, moves: 0, won: false, over: None, ids, rng, hash: 0 };
        s.hash = s.recompute_hash();
        s
    }

    /// The incremental hash of this state (see [`crate::keys`]): kept up to date by the rules,
    /// always equal to [`Match3State::recompute_hash`].
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The incremental hash computed from scratch (the cells' canonical hash, every block,
    /// every field): the reference the kept hash is tested against.
    pub fn recompute_hash(&self) -> u64 {
        let mut h = size_key(self.cells.size())
            ^ field_key(kind::STATIC, state_hash(&self.cells))
            ^ self.scalar_key();
        for (i, b) in self.blocks.cells().iter().enumerate() {
            if let Some(b) = b {
                h ^= block_key(i, *b);
            }
        }
        h
    }

    /// The hash keys of the scalar fields: score, moves, outcome, ids, generator. Steps that
    /// change them XOR this out before and in after.
    pub(super) fn scalar_key(&self) -> u64 {
        let over = self.over.map_or(0, |r| r as u64 + 1);
        field_key(kind::SCORE, self.score)
            ^ field_key(kind::MOVES, u64::from(self.moves))
            ^ field_key(kind::WON, u64::from(self.won))
            ^ field_key(kind::OVER, over)
            ^ field_key(kind::IDS, u64::from(self.ids.peek().0))
            ^ rng_key(&self.rng)
    }

    /// The cells.
    pub fn cells(&self) -> &Grid<Cell> {
        &self.cells
    }

    /// The blocks (`None` only on Void cells between steps).
    pub fn blocks(&self) -> &Grid<Option<Block>> {
        &self.blocks
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.cells.size()
    }

    /// The score so far.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Resolved swaps so far (what the move limit counts).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Whether the target score was reached.
    pub fn won(&self) -> bool {
        self.won
    }

    /// Why the game ended, if it did without a win.
    pub fn over(&self) -> Option<GameOverReason> {
        self.over
    }

    /// The generator.
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

    /// The board as rows of the level format: `#` Void, `a`–`p` blocks, `A`–`P` locked blocks
    /// (`.` for an empty playable cell, which exists only mid-step).
    pub fn rows(&self) -> Vec<String> {
        let w = usize::from(self.size().width);
        (0..self.blocks.cells().len())
            .collect::<Vec<_>>()
            .chunks(w)
            .map(|r| r.iter().map(|&i| self.cell_char(i)).collect())
            .collect()
    }

    fn cell_char(&self, i: usize) -> char {
        match (self.cells.cells()[i], self.blocks.cells()[i]) {
            (Cell::Void, _) => '#',
            (Cell::Playable, None) => '.',
            (Cell::Playable, Some(b)) => breed_char(b.breed, b.locked),
        }
    }

    /// The board as text: one line per row, cells separated by spaces (see [`Match3State::rows`]).
    pub fn render(&self) -> String {
        let mut out = String::new();
        for row in self.rows() {
            let cells: Vec<String> = row.chars().map(String::from).collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }

    /// The breed at row-major index `i`, [`NONE`] without a block.
    #[inline]
    pub(super) fn breed(&self, i: usize) -> u8 {
        match self.blocks.cells()[i] {
            Some(b) => b.breed,
            None => NONE,
        }
    }

    #[inline]
    pub(super) fn movable(&self, i: usize) -> bool {
        matches!(self.blocks.cells()[i], Some(b) if !b.locked)
    }

    pub(super) fn wh(&self) -> (usize, usize) {
        (usize::from(self.size().width), usize::from(self.size().height))
    }

    /// A cell of some run of three or more, if the board has one.
    pub fn find_run(&self) -> Option<Pos> {
        let (w, h) = self.wh();
        board::find_run(w, h, &|i| self.breed(i)).map(|i| self.size().pos(i))
    }

    /// Whether swapping the blocks at `a` and `b` is allowed and makes a run (what a view
    /// highlights; `apply` would resolve it rather than swap back).
    pub fn swap_makes_run(&self, a: Pos, b: Pos) -> bool {
        let size = self.size();
        if !size.contains(a) || !size.contains(b) || !a.is_orthogonal_neighbour(b) {
            return false;
        }
        let (i, j) = (size.index(a), size.index(b));
        let (w, h) = self.wh();
        self.movable(i) && self.movable(j) && board::swap_makes_run(w, h, &|k| self.breed(k), i, j)
    }

    /// The first valid swap in row-major order (see [`Match3Rules::hint`]).
    pub fn find_valid_swap(&self) -> Option<(Pos, Pos)> {
        let (w, h) = self.wh();
        let size = self.size();
        board::find_valid_swap(w, h, &|i| self.breed(i), &|i| self.movable(i))
            .map(|(i, j)| (size.pos(i), size.pos(j)))
    }
}

/// How the hash changes when blocks `a` (at cell `ia`) and `b` (at `ib`) trade places.
#[inline]
pub(super) fn swap_key(ia: usize, ib: usize, a: Id, b: Id) -> u64 {
    pos_key(ia, a) ^ pos_key(ib, a) ^ pos_key(ia, b) ^ pos_key(ib, b)
}
