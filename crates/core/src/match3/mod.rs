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

mod arrange;
mod board;
mod level;
mod mirror;

pub use level::{Match3Level, StageError};

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
    cells: Grid<Cell>,
    blocks: Grid<Option<Block>>,
    score: u64,
    moves: u32,
    won: bool,
    over: Option<GameOverReason>,
    ids: IdGen,
    rng: GameRng,
    #[serde(skip)]
    hash: u64,
}

/// The position half of a block's hash key (see [`crate::keys`]).
#[inline]
fn pos_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// The content half of a block's hash key: breed, lock and id.
#[inline]
fn what_key(b: Block) -> u64 {
    cell_key(kind::WHAT, u32::from(b.breed) | u32::from(b.locked) << 8, b.id.0)
}

/// A whole block's hash key at cell `index`.
#[inline]
fn block_key(index: usize, b: Block) -> u64 {
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
    fn scalar_key(&self) -> u64 {
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
    fn breed(&self, i: usize) -> u8 {
        match self.blocks.cells()[i] {
            Some(b) => b.breed,
            None => NONE,
        }
    }

    #[inline]
    fn movable(&self, i: usize) -> bool {
        matches!(self.blocks.cells()[i], Some(b) if !b.locked)
    }

    fn wh(&self) -> (usize, usize) {
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

/// A match-3 command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Match3Command {
    /// Swap the blocks of two orthogonally adjacent cells.
    Swap(Pos, Pos),
}

impl fmt::Display for Match3Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Match3Command::Swap(a, b) = self;
        write!(f, "swap {} {} {} {}", a.x, a.y, b.x, b.y)
    }
}

impl FromStr for Match3Command {
    type Err = String;
    /// `swap X1 Y1 X2 Y2`.
    fn from_str(s: &str) -> Result<Self, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let usage = "expected 'swap X1 Y1 X2 Y2'";
        match words.as_slice() {
            ["swap", rest @ ..] if rest.len() == 4 => {
                let mut n = [0u16; 4];
                for (k, w) in rest.iter().enumerate() {
                    n[k] = w.parse().map_err(|_| format!("'{w}' is not a cell coordinate ({usage})"))?;
                }
                Ok(Match3Command::Swap(Pos::new(n[0], n[1]), Pos::new(n[2], n[3])))
            }
            ["swap", ..] => Err(format!("swap takes four numbers ({usage})")),
            _ => Err(format!("unknown match3 command '{}' ({usage})", s.trim())),
        }
    }
}

/// A block of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchedBlock {
    /// The block.
    pub block: Id,
    /// Its cell.
    pub at: Pos,
    /// Whether it was locked: it loses its lock ([`Match3Event::Unlocked`]) instead of going.
    pub locked: bool,
}

/// A block a shuffle moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShuffledBlock {
    /// The block.
    pub block: Id,
    /// Its breed (before any [`Match3Event::Recoloured`] of the same step).
    pub breed: u8,
    /// Where it was.
    pub from: Pos,
    /// Where it is.
    pub to: Pos,
}

/// What happened in a match-3 step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Match3Event {
    /// Two blocks swapped: `a_block` moved from `a` to `b`, `b_block` from `b` to `a`. Counts a
    /// move.
    Swapped {
        /// The first cell.
        a: Pos,
        /// The second cell.
        b: Pos,
        /// The block that was at `a`.
        a_block: Id,
        /// The block that was at `b`.
        b_block: Id,
    },
    /// The swap made no run: the blocks went back (`a_block` is at `a` again). Gives the move
    /// back.
    SwappedBack {
        /// The first cell.
        a: Pos,
        /// The second cell.
        b: Pos,
        /// The block back at `a`.
        a_block: Id,
        /// The block back at `b`.
        b_block: Id,
    },
    /// One match (runs sharing blocks) of one breed; its unlocked blocks are removed.
    Matched {
        /// Every block of the match, row-major.
        blocks: Vec<MatchedBlock>,
        /// The breed.
        breed: u8,
        /// The cascade level, 1 for the swap's own matches.
        cascade: u32,
    },
    /// A locked block in a match lost its lock and stays.
    Unlocked {
        /// The block.
        block: Id,
        /// Its cell.
        at: Pos,
    },
    /// A block fell within its column segment.
    Fell {
        /// The block.
        block: Id,
        /// Where it was.
        from: Pos,
        /// Where it landed.
        to: Pos,
    },
    /// A new block filled an empty cell.
    Spawned {
        /// The new block's id.
        block: Id,
        /// Its cell.
        at: Pos,
        /// Its breed.
        breed: u8,
        /// The generator's position around the draw.
        rng: RngSpan,
    },
    /// The score rose.
    Scored {
        /// Points gained.
        points: u64,
        /// The cascade level they were gained at.
        cascade: u32,
    },
    /// The board was dead: the movable blocks were permuted among their cells.
    Shuffled {
        /// The blocks that moved.
        blocks: Vec<ShuffledBlock>,
        /// The generator's position before and after the shuffle's search.
        rng: RngSpan,
    },
    /// A shuffle had to change a block's breed (no arrangement keeps the multiset).
    Recoloured {
        /// The block.
        block: Id,
        /// Its cell (after the shuffle).
        at: Pos,
        /// The old breed.
        from: u8,
        /// The new breed.
        to: u8,
    },
    /// The target score was reached; the game ends.
    Won {
        /// The score.
        score: u64,
    },
    /// The game ended without a win.
    GameOver {
        /// Why.
        reason: GameOverReason,
    },
}

/// The match-3 rules with their settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match3Rules {
    /// The settings.
    pub config: Match3Config,
}

/// Buffers reused by every step on a thread.
#[derive(Default)]
struct Scratch {
    marked: Vec<bool>,
    parent: Vec<u32>,
    slot: Vec<u32>,
    matches: Vec<(u8, u32, Vec<MatchedBlock>)>,
    unlocks: Vec<MatchedBlock>,
    arranger: Arranger,
    counts_cells: Vec<u32>,
    source: Vec<u32>,
    used: Vec<bool>,
}

impl Scratch {
    fn fit(&mut self, area: usize) {
        if self.parent.len() != area {
            self.marked.clear();
            self.marked.resize(area, false);
            self.parent.clear();
            self.parent.extend(0..area as u32);
            self.slot.clear();
            self.slot.resize(area, u32::MAX);
            // A round has at most area / 3 matches: reserve once so rounds never grow it.
            self.matches.reserve(area / 3 + 1);
        }
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let p = self.parent[i as usize];
            self.parent[i as usize] = self.parent[p as usize];
            i = p;
        }
        i
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[hi as usize] = lo;
        }
    }
}

/// Marks a `source` entry whose block is recoloured.
const RECOLOUR: u32 = 1 << 31;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Match3Rules {
    /// Rules with `config`.
    pub fn new(config: Match3Config) -> Self {
        Match3Rules { config }
    }

    /// A valid swap (one that makes a run) when any exists, found by trying every swap of
    /// neighbouring movable blocks; the first in row-major order of its first cell, the right
    /// neighbour before the lower one. Changes nothing.
    pub fn hint(&self, state: &Match3State) -> Option<Match3Command> {
        if state.won || state.over.is_some() {
            return None;
        }
        state.find_valid_swap().map(|(a, b)| Match3Command::Swap(a, b))
    }

    fn check_swap(&self, state: &Match3State, a: Pos, b: Pos) -> Result<(), Rejected> {
        if state.won || state.over.is_some() {
            return Err(Rejected::new("finished", "the game has ended"));
        }
        let size = state.size();
        for p in [a, b] {
            if !size.contains(p) {
                return Err(Rejected::detailed("off_board", format!("cell {p} is off the {size} board")));
            }
        }
        if !a.is_orthogonal_neighbour(b) {
            return Err(Rejected::detailed(
                "not_adjacent",
                format!("cells {a} and {b} are not orthogonal neighbours"),
            ));
        }
        for p in [a, b] {
            match (state.cells[p], state.blocks[p]) {
                (Cell::Void, _) => {
                    return Err(Rejected::detailed("void_cell", format!("cell {p} is void")));
                }
                (Cell::Playable, None) => {
                    return Err(Rejected::detailed("empty_cell", format!("cell {p} holds no block")));
                }
                (Cell::Playable, Some(bl)) if bl.locked => {
                    return Err(Rejected::detailed("locked", format!("the block at {p} is locked")));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// [`Rules::apply`], pushing into any buffer whose items can be made from a [`Match3Event`].
    pub fn apply_into<E: From<Match3Event>>(
        &self,
        state: &mut Match3State,
        cmd: &Match3Command,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        let Match3Command::Swap(a, b) = *cmd;
        self.check_swap(state, a, b)?;
        let size = state.size();
        let (ia, ib) = (size.index(a), size.index(b));
        let (Some(ba), Some(bb)) = (state.blocks.cells()[ia], state.blocks.cells()[ib]) else {
            return Err(Rejected::new("empty_cell", "a cell holds no block"));
        };
        // Board changes update the hash where they happen; the scalar fields once, at the end.
        let scalars = state.scalar_key();
        let swap_key = swap_key(ia, ib, ba.id, bb.id);
        state.blocks.cells_mut().swap(ia, ib);
        state.hash ^= swap_key;
        state.moves += 1;
        events.push(E::from(Match3Event::Swapped { a, b, a_block: ba.id, b_block: bb.id }));
        let (w, h) = state.wh();
        let breed = |i: usize| state.breed(i);
        let made = board::run_through(w, h, &breed, ia, bb.breed, usize::MAX)
            || board::run_through(w, h, &breed, ib, ba.breed, usize::MAX);
        if !made || ba.breed == bb.breed {
            state.blocks.cells_mut().swap(ia, ib);
            state.hash ^= swap_key;
            state.moves -= 1;
            events.push(E::from(Match3Event::SwappedBack { a, b, a_block: ba.id, b_block: bb.id }));
            return Ok(());
        }
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            self.resolve(state, &mut s, events);
            self.finish_step(state, &mut s, events);
        });
        state.hash ^= scalars ^ state.scalar_key();
        Ok(())
    }

    /// Rounds of match, remove, score, fall and refill until no run is left.
    fn resolve<E: From<Match3Event>>(&self, state: &mut Match3State, s: &mut Scratch, events: &mut Vec<E>) {
        let size = state.size();
        let (w, h) = state.wh();
        s.fit(w * h);
        let mut cascade = 0u32;
        loop {
            // 1. runs, joined into matches by shared blocks (union-find over cells).
            let mut any = false;
            for y in 0..h {
                let row = y * w;
                let mut x = 0;
                while x < w {
                    let c = state.breed(row + x);
                    let mut e = x + 1;
                    while e < w && state.breed(row + e) == c {
                        e += 1;
                    }
                    if c != NONE && e - x >= 3 {
                        any = true;
                        for k in x..e {
                            s.marked[row + k] = true;
                            if k > x {
                                s.union((row + x) as u32, (row + k) as u32);
                            }
                        }
                    }
                    x = e;
                }
            }
            for x in 0..w {
                let mut y = 0;
                while y < h {
                    let c = state.breed(y * w + x);
                    let mut e = y + 1;
                    while e < h && state.breed(e * w + x) == c {
                        e += 1;
                    }
                    if c != NONE && e - y >= 3 {
                        any = true;
                        for k in y..e {
                            s.marked[k * w + x] = true;
                            if k > y {
                                s.union((y * w + x) as u32, (k * w + x) as u32);
                            }
                        }
                    }
                    y = e;
                }
            }
            if !any {
                break;
            }
            cascade += 1;
            // Two passes so that each match's block list is allocated once, at its exact size.
            s.matches.clear();
            for i in 0..w * h {
                if s.marked[i] {
                    let r = s.find(i as u32) as usize;
                    if s.slot[r] == u32::MAX {
                        s.slot[r] = s.matches.len() as u32;
                        s.matches.push((state.breed(i), 0, Vec::new()));
                    }
                    s.matches[s.slot[r] as usize].1 += 1;
                }
            }
            for m in &mut s.matches {
                m.2 = Vec::with_capacity(m.1 as usize);
            }
            for i in 0..w * h {
                if !s.marked[i] {
                    continue;
                }
                let r = s.find(i as u32) as usize;
                let Some(bl) = state.blocks.cells()[i] else { continue };
                let slot = s.slot[r] as usize;
                s.matches[slot].2.push(MatchedBlock { block: bl.id, at: size.pos(i), locked: bl.locked });
            }
            for i in 0..w * h {
                if s.marked[i] {
                    s.marked[i] = false;
                    s.parent[i] = i as u32;
                    s.slot[i] = u32::MAX;
                }
            }
            // 2. remove (or unlock) and report, match by match.
            let mut removed: u64 = 0;
            for (breed, _, blocks) in s.matches.drain(..) {
                s.unlocks.clear();
                for mb in &blocks {
                    let i = size.index(mb.at);
                    let cell = &mut state.blocks.cells_mut()[i];
                    if mb.locked {
                        if let Some(bl) = cell {
                            state.hash ^= what_key(*bl);
                            bl.locked = false;
                            state.hash ^= what_key(*bl);
                        }
                        s.unlocks.push(*mb);
                    } else {
                        if let Some(bl) = cell.take() {
                            state.hash ^= block_key(i, bl);
                        }
                        removed += 1;
                    }
                }
                events.push(E::from(Match3Event::Matched { blocks, breed, cascade }));
                for mb in &s.unlocks {
                    events.push(E::from(Match3Event::Unlocked { block: mb.block, at: mb.at }));
                }
            }
            // 3. score.
            let points = removed * u64::from(self.config.points_per_block) * u64::from(cascade);
            if points > 0 {
                state.score += points;
                events.push(E::from(Match3Event::Scored { points, cascade }));
            }
            // 4. gravity per column segment.
            for x in 0..w {
                gravity_column(state, x, w, h, events);
            }
            // 5. refill, column by column, bottom-up.
            let breeds = u32::from(self.config.breeds);
            for x in 0..w {
                for y in (0..h).rev() {
                    let i = y * w + x;
                    if state.cells.cells()[i] == Cell::Playable && state.blocks.cells()[i].is_none() {
                        let before = state.rng.position();
                        let breed = if cascade < CALM_AFTER {
                            state.rng.below(breeds) as u8
                        } else {
                            calm_breed(state, i, w, h, breeds)
                        };
                        let after = state.rng.position();
                        let id = state.ids.next();
                        let block = Block { id, breed, locked: false };
                        state.blocks.cells_mut()[i] = Some(block);
                        state.hash ^= block_key(i, block);
                        events.push(E::from(Match3Event::Spawned {
                            block: id,
                            at: size.pos(i),
                            breed,
                            rng: RngSpan { before, after },
                        }));
                    }
                }
            }
        }
    }

    /// Objectives, then the dead-board check and shuffle.
    fn finish_step<E: From<Match3Event>>(
        &self,
        state: &mut Match3State,
        s: &mut Scratch,
        events: &mut Vec<E>,
    ) {
        if let Some(t) = self.config.target_score
            && state.score >= t
        {
            state.won = true;
            events.push(E::from(Match3Event::Won { score: state.score }));
            return;
        }
        if let Some(l) = self.config.move_limit
            && state.moves >= l
        {
            state.over = Some(GameOverReason::OutOfMoves);
            events.push(E::from(Match3Event::GameOver { reason: GameOverReason::OutOfMoves }));
            return;
        }
        if state.find_valid_swap().is_none() {
            self.shuffle_board(state, s, events);
        }
    }

    /// Shuffles the board now, exactly as a dead board is shuffled at the end of a step (see the
    /// module docs), pushing `Shuffled` and `Recoloured` events, or `GameOver` when no board can
    /// work. Not a command (a log cannot record it): for property tests and tools.
    #[doc(hidden)]
    pub fn shuffle_into<E: From<Match3Event>>(&self, state: &mut Match3State, events: &mut Vec<E>) {
        SCRATCH.with(|s| self.shuffle(state, &mut s.borrow_mut(), events));
    }

    /// Shuffles a dead board (see the module docs), or ends the game when no shuffle can help.
    fn shuffle<E: From<Match3Event>>(&self, state: &mut Match3State, s: &mut Scratch, events: &mut Vec<E>) {
        let scalars = state.scalar_key();
        self.shuffle_board(state, s, events);
        state.hash ^= scalars ^ state.scalar_key();
    }

    /// [`Match3Rules::shuffle`] but for the hash of the scalar fields (the generator, the
    /// outcome), which the caller updates.
    fn shuffle_board<E: From<Match3Event>>(
        &self,
        state: &mut Match3State,
        s: &mut Scratch,
        events: &mut Vec<E>,
    ) {
        let size = state.size();
        let (w, h) = state.wh();
        let before = state.rng.position();
        let mut counts = [0u32; 16];
        let ar = &mut s.arranger;
        ar.reset(w, h, self.config.breeds);
        s.counts_cells.clear();
        for i in 0..w * h {
            match state.blocks.cells()[i] {
                Some(b) if b.locked => ar.set_fixed(i, b.breed, false),
                Some(b) => {
                    ar.set_open(i, true);
                    ar.set_current(b.breed.min(15));
                    counts[usize::from(b.breed.min(15))] += 1;
                    s.counts_cells.push(i as u32);
                }
                None => {}
            }
        }
        let plan = ar.arrange(&mut state.rng, &mut counts);
        let reason = match plan {
            Plan::Found { .. } => None,
            Plan::Impossible => Some(GameOverReason::NoMovesPossible),
            Plan::GaveUp => Some(GameOverReason::ShuffleFailed),
        };
        if let Some(reason) = reason {
            state.rng.set_position(before);
            state.over = Some(reason);
            events.push(E::from(Match3Event::GameOver { reason }));
            return;
        }
        let after = state.rng.position();
        // Give blocks to cells: a block whose breed its cell wants stays; then each cell takes
        // the first unused block (row-major) of its breed; cells left over take the blocks left
        // over, recoloured. `source[k]` is the index (into the movable cells) of the block cell
        // k receives.
        let cells = &s.counts_cells;
        let m = cells.len();
        let target = |k: usize| s.arranger.known[cells[k] as usize];
        let breed_at = |k: usize| state.breed(cells[k] as usize);
        s.source.clear();
        s.source.resize(m, u32::MAX);
        s.used.clear();
        s.used.resize(m, false);
        for k in 0..m {
            if breed_at(k) == target(k) {
                s.source[k] = k as u32;
                s.used[k] = true;
            }
        }
        let mut cursor = [0usize; 16];
        for k in 0..m {
            if s.source[k] != u32::MAX {
                continue;
            }
            let t = target(k);
            let cur = &mut cursor[usize::from(t.min(15))];
            while *cur < m && (s.used[*cur] || breed_at(*cur) != t) {
                *cur += 1;
            }
            if *cur < m {
                s.used[*cur] = true;
                s.source[k] = *cur as u32;
            }
        }
        let mut spare = 0usize;
        for k in 0..m {
            if s.source[k] == u32::MAX {
                while spare < m && s.used[spare] {
                    spare += 1;
                }
                // The plan places exactly m blocks, so a spare block exists for every cell left.
                if spare < m {
                    s.used[spare] = true;
                    s.source[k] = spare as u32 | RECOLOUR;
                }
            }
        }
        let mut moved = Vec::with_capacity(m);
        for k in 0..m {
            let src = (s.source[k] & !RECOLOUR) as usize;
            if src < m && src != k {
                let Some(b) = state.blocks.cells()[cells[src] as usize] else { continue };
                moved.push(ShuffledBlock {
                    block: b.id,
                    breed: b.breed,
                    from: size.pos(cells[src] as usize),
                    to: size.pos(cells[k] as usize),
                });
            }
        }
        for sb in &moved {
            state.blocks[sb.to] = Some(Block { id: sb.block, breed: sb.breed, locked: false });
            state.hash ^= pos_key(size.index(sb.from), sb.block) ^ pos_key(size.index(sb.to), sb.block);
        }
        events.push(E::from(Match3Event::Shuffled { blocks: moved, rng: RngSpan { before, after } }));
        for (k, &cell) in cells.iter().enumerate() {
            if s.source[k] & RECOLOUR != 0
                && let Some(b) = &mut state.blocks.cells_mut()[cell as usize]
            {
                let (from, to) = (b.breed, target(k));
                state.hash ^= what_key(*b);
                b.breed = to;
                state.hash ^= what_key(*b);
                let at = size.pos(cell as usize);
                events.push(E::from(Match3Event::Recoloured { block: b.id, at, from, to }));
            }
        }
    }
}

/// How the hash changes when blocks `a` (at cell `ia`) and `b` (at `ib`) trade places.
#[inline]
fn swap_key(ia: usize, ib: usize, a: Id, b: Id) -> u64 {
    pos_key(ia, a) ^ pos_key(ib, a) ^ pos_key(ia, b) ^ pos_key(ib, b)
}

/// The block at `at`, or why there is none that fits.
fn block_at(state: &Match3State, at: Pos, id: Id) -> Result<(usize, Block), Inconsistent> {
    let size = state.size();
    if !size.contains(at) {
        return Err(Inconsistent::detailed(format!("cell {at} is off the {size} board")));
    }
    let i = size.index(at);
    match state.blocks.cells()[i] {
        Some(b) if b.id == id => Ok((i, b)),
        Some(b) => Err(Inconsistent::detailed(format!("block {id} is not at {at} (block {} is)", b.id))),
        None => Err(Inconsistent::detailed(format!("block {id} is not at {at} (it is empty)"))),
    }
}

/// The generator must be where a recorded draw starts.
fn check_rng(state: &Match3State, rng: RngSpan) -> Result<(), Inconsistent> {
    if rng.before != state.rng.position() || rng.after < rng.before {
        return Err(Inconsistent::detailed(format!(
            "the generator is at word {}, the event drew from word {} to {}",
            state.rng.position(),
            rng.before,
            rng.after
        )));
    }
    Ok(())
}

/// The empty playable cell `at`, as an index, or why it is not.
fn empty_at(state: &Match3State, at: Pos) -> Result<usize, Inconsistent> {
    let size = state.size();
    if !size.contains(at) {
        return Err(Inconsistent::detailed(format!("cell {at} is off the {size} board")));
    }
    let i = size.index(at);
    match (state.cells.cells()[i], state.blocks.cells()[i]) {
        (Cell::Playable, None) => Ok(i),
        (Cell::Void, _) => Err(Inconsistent::detailed(format!("cell {at} is void"))),
        (_, Some(b)) => {
            Err(Inconsistent::detailed(format!("cell {at} is not empty (block {} is there)", b.id)))
        }
    }
}

/// The cascade level from which refills avoid runs (see the module docs).
const CALM_AFTER: u32 = 1000;

/// A random breed among those that put cell `i` on no run (judged on the blocks present), or
/// among all when every breed would.
fn calm_breed(state: &mut Match3State, i: usize, w: usize, h: usize, breeds: u32) -> u8 {
    let mut allowed = [0u8; MAX_BREEDS as usize];
    let mut n = 0;
    for c in 0..breeds as u8 {
        if !board::run_through(w, h, &|k| state.breed(k), i, c, usize::MAX) {
            allowed[n] = c;
            n += 1;
        }
    }
    if n == 0 {
        return state.rng.below(breeds) as u8;
    }
    allowed[state.rng.below(n as u32) as usize]
}

/// Gravity in column `x`: blocks fall to the lowest empty playable cells of their segment.
fn gravity_column<E: From<Match3Event>>(
    state: &mut Match3State,
    x: usize,
    w: usize,
    h: usize,
    events: &mut Vec<E>,
) {
    // Empty playable cells of the current segment, bottom-up, as a ring of row numbers: at most
    // h of them. A fixed array keeps this allocation-free for boards up to MAX_SIDE rows.
    let mut empties = [0u16; MAX_SIDE as usize];
    let (mut head, mut tail) = (0usize, 0usize);
    let size = state.size();
    for y in (0..h).rev() {
        let i = y * w + x;
        if state.cells.cells()[i] == Cell::Void {
            continue;
        }
        match state.blocks.cells()[i] {
            None => {
                empties[tail] = y as u16;
                tail += 1;
            }
            Some(b) if b.locked => {
                head = 0;
                tail = 0;
            }
            Some(b) => {
                if head < tail {
                    let to = usize::from(empties[head]) * w + x;
                    head += 1;
                    state.blocks.cells_mut()[to] = Some(b);
                    state.blocks.cells_mut()[i] = None;
                    state.hash ^= pos_key(i, b.id) ^ pos_key(to, b.id);
                    events.push(E::from(Match3Event::Fell {
                        block: b.id,
                        from: size.pos(i),
                        to: size.pos(to),
                    }));
                    empties[tail] = y as u16;
                    tail += 1;
                }
            }
        }
    }
}

impl Rules for Match3Rules {
    type State = Match3State;
    type Command = Match3Command;
    type Event = Match3Event;

    fn apply(
        &self,
        state: &mut Match3State,
        cmd: &Match3Command,
        events: &mut Vec<Match3Event>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    fn undo_event(&self, state: &mut Match3State, event: &Match3Event) {
        let scalars = state.scalar_key();
        let size = state.size();
        let b = &mut state.blocks;
        let mut hash = 0;
        match event {
            Match3Event::Swapped { a, b: q, a_block, b_block } => {
                let (ia, iq) = (size.index(*a), size.index(*q));
                b.cells_mut().swap(ia, iq);
                hash ^= swap_key(ia, iq, *a_block, *b_block);
                state.moves -= 1;
            }
            Match3Event::SwappedBack { a, b: q, a_block, b_block } => {
                let (ia, iq) = (size.index(*a), size.index(*q));
                b.cells_mut().swap(ia, iq);
                hash ^= swap_key(ia, iq, *a_block, *b_block);
                state.moves += 1;
            }
            Match3Event::Matched { blocks, breed, .. } => {
                for mb in blocks.iter().filter(|mb| !mb.locked) {
                    let block = Block { id: mb.block, breed: *breed, locked: false };
                    b[mb.at] = Some(block);
                    hash ^= block_key(size.index(mb.at), block);
                }
            }
            Match3Event::Unlocked { at, .. } => {
                if let Some(bl) = &mut b[*at] {
                    hash ^= what_key(*bl);
                    bl.locked = true;
                    hash ^= what_key(*bl);
                }
            }
            Match3Event::Fell { block, from, to } => {
                b[*from] = b[*to].take();
                hash ^= pos_key(size.index(*from), *block) ^ pos_key(size.index(*to), *block);
            }
            Match3Event::Spawned { block, at, breed, rng } => {
                b[*at] = None;
                hash ^= block_key(size.index(*at), Block { id: *block, breed: *breed, locked: false });
                state.ids.reset(block.0);
                state.rng.set_position(rng.before);
            }
            Match3Event::Scored { points, .. } => state.score -= points,
            Match3Event::Shuffled { blocks, rng } => {
                for sb in blocks {
                    b[sb.from] = Some(Block { id: sb.block, breed: sb.breed, locked: false });
                    hash ^= pos_key(size.index(sb.from), sb.block) ^ pos_key(size.index(sb.to), sb.block);
                }
                state.rng.set_position(rng.before);
            }
            Match3Event::Recoloured { at, from, .. } => {
                if let Some(bl) = &mut b[*at] {
                    hash ^= what_key(*bl);
                    bl.breed = *from;
                    hash ^= what_key(*bl);
                }
            }
            Match3Event::Won { .. } => state.won = false,
            Match3Event::GameOver { .. } => state.over = None,
        }
        state.hash ^= hash ^ scalars ^ state.scalar_key();
    }

    fn redo_event(&self, state: &mut Match3State, event: &Match3Event) -> Result<(), Inconsistent> {
        let scalars = state.scalar_key();
        let size = state.size();
        let mut hash = 0;
        match event {
            Match3Event::Swapped { a, b: q, a_block, b_block }
            | Match3Event::SwappedBack { a, b: q, a_block, b_block } => {
                let back = matches!(event, Match3Event::SwappedBack { .. });
                // A swap moves `a_block` from `a` to `q`; a swap back returns it to `a`.
                let (ia, ba) = block_at(state, if back { *q } else { *a }, *a_block)?;
                let (iq, bq) = block_at(state, if back { *a } else { *q }, *b_block)?;
                if ia == iq || ba.locked || bq.locked {
                    return Err(Inconsistent::detailed(format!(
                        "blocks {a_block} and {b_block} cannot swap between {a} and {q}"
                    )));
                }
                let moves = if back { state.moves.checked_sub(1) } else { state.moves.checked_add(1) };
                let Some(moves) = moves else {
                    return Err(Inconsistent::detailed(format!("the move counter is at {}", state.moves)));
                };
                state.blocks.cells_mut().swap(ia, iq);
                hash ^= swap_key(ia, iq, *a_block, *b_block);
                state.moves = moves;
            }
            Match3Event::Matched { blocks, breed, .. } => {
                // Checked first, then removed; a block listed twice is caught on its second
                // removal, and the ones removed are put back.
                for mb in blocks {
                    let (_, bl) = block_at(state, mb.at, mb.block)?;
                    if bl.breed != *breed || bl.locked != mb.locked {
                        return Err(Inconsistent::detailed(format!(
                            "block {} at {} is of breed {}{}, the match says {breed}{}",
                            mb.block,
                            mb.at,
                            bl.breed,
                            if bl.locked { " (locked)" } else { "" },
                            if mb.locked { " (locked)" } else { "" }
                        )));
                    }
                }
                let unlocked = blocks.iter().filter(|mb| !mb.locked);
                for (k, mb) in unlocked.clone().enumerate() {
                    let i = size.index(mb.at);
                    let Some(bl) = state.blocks.cells_mut()[i].take() else {
                        for back in unlocked.take(k) {
                            let block = Block { id: back.block, breed: *breed, locked: false };
                            state.blocks[back.at] = Some(block);
                        }
                        return Err(Inconsistent::detailed(format!("block {} is listed twice", mb.block)));
                    };
                    hash ^= block_key(i, bl);
                }
            }
            Match3Event::Unlocked { block, at } => {
                let (i, bl) = block_at(state, *at, *block)?;
                if !bl.locked {
                    return Err(Inconsistent::detailed(format!("block {block} at {at} is not locked")));
                }
                let unlocked = Block { locked: false, ..bl };
                state.blocks.cells_mut()[i] = Some(unlocked);
                hash ^= what_key(bl) ^ what_key(unlocked);
            }
            Match3Event::Fell { block, from, to } => {
                let (i, bl) = block_at(state, *from, *block)?;
                let j = empty_at(state, *to)?;
                if bl.locked {
                    return Err(Inconsistent::detailed(format!("block {block} at {from} is locked")));
                }
                state.blocks.cells_mut()[j] = state.blocks.cells_mut()[i].take();
                hash ^= pos_key(i, *block) ^ pos_key(j, *block);
            }
            Match3Event::Spawned { block, at, breed, rng } => {
                let i = empty_at(state, *at)?;
                if *block != state.ids.peek() || block.0 == u32::MAX {
                    return Err(Inconsistent::detailed(format!(
                        "spawned block {block} is out of order (the next id is {})",
                        state.ids.peek()
                    )));
                }
                if *breed >= MAX_BREEDS {
                    return Err(Inconsistent::detailed(format!("breed {breed} is not below {MAX_BREEDS}")));
                }
                check_rng(state, *rng)?;
                let b = Block { id: *block, breed: *breed, locked: false };
                state.blocks.cells_mut()[i] = Some(b);
                hash ^= block_key(i, b);
                state.ids.reset(block.0 + 1);
                state.rng.set_position(rng.after);
            }
            Match3Event::Scored { points, .. } => {
                let Some(score) = state.score.checked_add(*points) else {
                    return Err(Inconsistent::detailed(format!(
                        "score {} + {points} overflows",
                        state.score
                    )));
                };
                state.score = score;
            }
            Match3Event::Shuffled { blocks, rng } => {
                check_rng(state, *rng)?;
                for sb in blocks {
                    let (_, bl) = block_at(state, sb.from, sb.block)?;
                    if bl.locked || bl.breed != sb.breed {
                        return Err(Inconsistent::detailed(format!(
                            "block {} at {} is not an unlocked block of breed {}",
                            sb.block, sb.from, sb.breed
                        )));
                    }
                }
                // The blocks must trade places among their own cells: take them all off, put
                // each on its cell (which must then be empty and playable), and check that every
                // cell left is filled again. Otherwise put everything back.
                for sb in blocks {
                    state.blocks[sb.from] = None;
                }
                let mut placed = 0;
                let mut misfit = None;
                for sb in blocks {
                    match empty_at(state, sb.to) {
                        Ok(j) => {
                            state.blocks.cells_mut()[j] =
                                Some(Block { id: sb.block, breed: sb.breed, locked: false });
                            placed += 1;
                        }
                        Err(e) => {
                            misfit = Some(e);
                            break;
                        }
                    }
                }
                if misfit.is_none()
                    && let Some(sb) = blocks.iter().find(|sb| state.blocks[sb.from].is_none())
                {
                    misfit = Some(Inconsistent::detailed(format!(
                        "the shuffle leaves {} empty: its blocks do not trade places",
                        sb.from
                    )));
                }
                if let Some(e) = misfit {
                    for sb in &blocks[..placed] {
                        state.blocks[sb.to] = None;
                    }
                    for sb in blocks {
                        state.blocks[sb.from] = Some(Block { id: sb.block, breed: sb.breed, locked: false });
                    }
                    return Err(e);
                }
                for sb in blocks {
                    hash ^= pos_key(size.index(sb.from), sb.block) ^ pos_key(size.index(sb.to), sb.block);
                }
                state.rng.set_position(rng.after);
            }
            Match3Event::Recoloured { block, at, from, to } => {
                let (i, bl) = block_at(state, *at, *block)?;
                if bl.breed != *from || *to >= MAX_BREEDS {
                    return Err(Inconsistent::detailed(format!(
                        "block {block} at {at} is of breed {}, the recolouring is from {from} to {to}",
                        bl.breed
                    )));
                }
                let recoloured = Block { breed: *to, ..bl };
                state.blocks.cells_mut()[i] = Some(recoloured);
                hash ^= what_key(bl) ^ what_key(recoloured);
            }
            Match3Event::Won { .. } => {
                if state.won {
                    return Err(Inconsistent::new("the game was already won"));
                }
                state.won = true;
            }
            Match3Event::GameOver { reason } => {
                if state.over.is_some() {
                    return Err(Inconsistent::new("the game was already over"));
                }
                state.over = Some(*reason);
            }
        }
        state.hash ^= hash ^ scalars ^ state.scalar_key();
        Ok(())
    }

    /// The swaps that make a run (a swap that would swap back is accepted by `apply` but changes
    /// nothing, so it is not listed).
    fn legal_commands(&self, state: &Match3State) -> Vec<Match3Command> {
        if state.won || state.over.is_some() {
            return Vec::new();
        }
        let (w, h) = state.wh();
        let size = state.size();
        let breed = |i: usize| state.breed(i);
        let mut out = Vec::new();
        for i in 0..w * h {
            if !state.movable(i) {
                continue;
            }
            let (x, y) = (i % w, i / w);
            for j in [(x + 1 < w).then_some(i + 1), (y + 1 < h).then_some(i + w)].into_iter().flatten() {
                if state.movable(j) && board::swap_makes_run(w, h, &breed, i, j) {
                    out.push(Match3Command::Swap(size.pos(i), size.pos(j)));
                }
            }
        }
        out
    }

    fn status(&self, state: &Match3State) -> Status {
        if state.over.is_some() {
            Status::Over
        } else if state.won {
            Status::Won
        } else {
            Status::Playing
        }
    }
}

#[cfg(test)]
mod tests;
