//! The state of a Sokoban game: the cells (static), the boxes, the player, the counts, the hash.

use super::MAX_SIDE;
use crate::geom::{Grid, Pos, Size};
use crate::hash::keys::{cell_key, field_key, kind, size_key};
use crate::hash::state_hash;
use crate::id::Id;
use serde::{Deserialize, Serialize};

/// What a cell is. Cells never change in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cell {
    /// Nothing enters it.
    Wall,
    /// The player and boxes may stand on it.
    Floor,
    /// A floor cell a box must end on.
    Goal,
}

impl Cell {
    /// Whether the player and boxes may stand on it.
    pub const fn is_open(self) -> bool {
        !matches!(self, Cell::Wall)
    }
}

/// The player's id in the hash keys (box ids are below the board's area, at most 2^16).
const PLAYER: u32 = u32::MAX;

/// The hash key of box `id` at cell `index`.
#[inline]
pub(super) fn box_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// The hash key of the player at cell `index`.
#[inline]
pub(super) fn player_key(index: usize) -> u64 {
    cell_key(kind::POS, index as u32, PLAYER)
}

/// The hash key of the move count.
#[inline]
pub(super) fn moves_key(moves: u32) -> u64 {
    field_key(kind::MOVES, u64::from(moves))
}

/// The hash key of the push count.
#[inline]
pub(super) fn pushes_key(pushes: u32) -> u64 {
    field_key(kind::SCORE, u64::from(pushes))
}

/// A Sokoban game: the cells, the boxes, the player, moves and pushes so far, and the seed
/// (carried, never drawn from).
///
/// Invariants (checked by [`SokobanState::new`] and by deserialization, kept by every command):
/// the cells and the boxes have the same size; box ids are 0..n, each once; no box stands on a
/// wall; the player stands on the board, on no wall and no box.
///
/// It also keeps its incremental hash ([`SokobanState::hash`]) and how many boxes stand on
/// goals; neither is serialized: deserialization recomputes them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawState")]
pub struct SokobanState {
    cells: Grid<Cell>,
    boxes: Grid<Option<Id>>,
    player: Pos,
    moves: u32,
    pushes: u32,
    seed: u64,
    #[serde(skip)]
    box_count: u32,
    #[serde(skip)]
    on_goal: u32,
    #[serde(skip)]
    hash: u64,
}

/// [`SokobanState`] as stored (the same fields in the same order, without the derived ones).
#[derive(Deserialize)]
struct RawState {
    cells: Grid<Cell>,
    boxes: Grid<Option<Id>>,
    player: Pos,
    moves: u32,
    pushes: u32,
    seed: u64,
}

impl TryFrom<RawState> for SokobanState {
    type Error = String;
    fn try_from(r: RawState) -> Result<Self, String> {
        let mut s = SokobanState::new(r.cells, r.boxes, r.player, r.seed)?;
        s.hash ^= moves_key(0) ^ moves_key(r.moves) ^ pushes_key(0) ^ pushes_key(r.pushes);
        s.moves = r.moves;
        s.pushes = r.pushes;
        Ok(s)
    }
}

impl SokobanState {
    /// A game starting from `cells`, `boxes` and the `player`'s cell, with no moves made.
    /// Refuses (naming the cell) boxes and cells of different sizes, a box on a wall, box ids
    /// that are not 0..n each once, and a player off the board, on a wall or on a box. (The
    /// level checks more: see [`super::parse_board`].)
    pub fn new(cells: Grid<Cell>, boxes: Grid<Option<Id>>, player: Pos, seed: u64) -> Result<Self, String> {
        let size = cells.size();
        if boxes.size() != size {
            return Err(format!("the boxes' grid is {} but the cells' is {size}", boxes.size()));
        }
        if size.width > MAX_SIDE || size.height > MAX_SIDE {
            return Err(format!("the board {size} is larger than {MAX_SIDE}×{MAX_SIDE}"));
        }
        let n = boxes.cells().iter().flatten().count();
        let mut seen = vec![false; n];
        let mut on_goal = 0;
        for (i, b) in boxes.cells().iter().enumerate() {
            let Some(id) = *b else { continue };
            let at = size.pos(i);
            match cells.cells()[i] {
                Cell::Wall => return Err(format!("board cell {at}: a box on a wall")),
                Cell::Goal => on_goal += 1,
                Cell::Floor => {}
            }
            match seen.get_mut(id.0 as usize) {
                Some(s) if !*s => *s = true,
                _ => return Err(format!("board cell {at}: box id {} is repeated or not below {n}", id.0)),
            }
        }
        match cells.get(player) {
            None => return Err(format!("the player's cell {player} is off the {size} board")),
            Some(Cell::Wall) => return Err(format!("board cell {player}: the player on a wall")),
            Some(_) if boxes[player].is_some() => {
                return Err(format!("board cell {player}: the player on a box"));
            }
            Some(_) => {}
        }
        let mut s = SokobanState {
            cells,
            boxes,
            player,
            moves: 0,
            pushes: 0,
            seed,
            box_count: n as u32,
            on_goal,
            hash: 0,
        };
        s.hash = s.recompute_hash();
        Ok(s)
    }

    /// The incremental hash of this state (see [`crate::keys`]): kept up to date by the rules,
    /// always equal to [`SokobanState::recompute_hash`].
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The incremental hash computed from scratch over every cell and field: the reference the
    /// kept hash is tested against.
    pub fn recompute_hash(&self) -> u64 {
        let size = self.cells.size();
        let mut h = size_key(size)
            ^ field_key(kind::STATIC, state_hash(&self.cells))
            ^ field_key(kind::SEED, self.seed)
            ^ moves_key(self.moves)
            ^ pushes_key(self.pushes)
            ^ player_key(size.index(self.player));
        for (i, b) in self.boxes.cells().iter().enumerate() {
            if let Some(id) = b {
                h ^= box_key(i, *id);
            }
        }
        h
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.cells.size()
    }

    /// The cells (walls, floors, goals).
    pub fn cells(&self) -> &Grid<Cell> {
        &self.cells
    }

    /// The boxes, by cell.
    pub fn boxes(&self) -> &Grid<Option<Id>> {
        &self.boxes
    }

    /// The cell at `at`, or `None` off the board.
    #[inline]
    pub fn cell(&self, at: Pos) -> Option<Cell> {
        self.cells.get(at).copied()
    }

    /// The box at `at`, if any.
    #[inline]
    pub fn box_at(&self, at: Pos) -> Option<Id> {
        self.boxes.get(at).copied().flatten()
    }

    /// Whether `at` is on the board, open (floor or goal) and holds no box: where the player
    /// may step and a box may be pushed.
    #[inline]
    pub fn is_free(&self, at: Pos) -> bool {
        self.cell(at).is_some_and(Cell::is_open) && self.box_at(at).is_none()
    }

    /// The player's cell.
    pub fn player(&self) -> Pos {
        self.player
    }

    /// Cells the player has entered (steps and walks).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Boxes pushed.
    pub fn pushes(&self) -> u32 {
        self.pushes
    }

    /// The seed (carried, never drawn from).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Number of boxes.
    pub fn box_count(&self) -> u32 {
        self.box_count
    }

    /// Number of boxes standing on goals.
    pub fn boxes_on_goals(&self) -> u32 {
        self.on_goal
    }

    /// Whether every box stands on a goal.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.on_goal == self.box_count
    }

    /// The XSB character of the cell at `at` with what stands on it.
    pub fn char_at(&self, at: Pos) -> char {
        let cell = self.cell(at).unwrap_or(Cell::Wall);
        let boxed = self.box_at(at).is_some();
        match (cell, boxed, at == self.player) {
            (Cell::Wall, _, _) => '#',
            (Cell::Goal, true, _) => '*',
            (Cell::Floor, true, _) => '$',
            (Cell::Goal, false, true) => '+',
            (Cell::Floor, false, true) => '@',
            (Cell::Goal, false, false) => '.',
            (Cell::Floor, false, false) => ' ',
        }
    }

    /// The board as rows of XSB characters from the top (what the level format's `board`
    /// holds).
    pub fn rows(&self) -> Vec<String> {
        let size = self.size();
        (0..size.height).map(|y| (0..size.width).map(|x| self.char_at(Pos::new(x, y))).collect()).collect()
    }

    /// The board as text: [`SokobanState::rows`], one per line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for row in self.rows() {
            out.push_str(&row);
            out.push('\n');
        }
        out
    }

    /// Moves the player to `to` (on the board) and adds `steps` to the moves (wrapping, so
    /// that undo's negative steps are exact).
    #[inline]
    pub(super) fn set_player(&mut self, to: Pos, steps: i64) {
        let size = self.size();
        let moves = self.moves.wrapping_add(steps as u32);
        self.hash ^= player_key(size.index(self.player))
            ^ player_key(size.index(to))
            ^ moves_key(self.moves)
            ^ moves_key(moves);
        self.player = to;
        self.moves = moves;
    }

    /// Moves the box at `from` to `to` (both on the board; `to` free) and adds `delta` to the
    /// pushes (wrapping).
    #[inline]
    pub(super) fn move_box(&mut self, from: Pos, to: Pos, delta: i64) {
        let size = self.size();
        // Callers check both cells; an unchecked undo of a foreign event changes nothing here.
        if !size.contains(to) || self.boxes[to].is_some() {
            return;
        }
        let Some(id) = self.boxes.get_mut(from).and_then(Option::take) else { return };
        self.boxes[to] = Some(id);
        let pushes = self.pushes.wrapping_add(delta as u32);
        self.hash ^= box_key(size.index(from), id)
            ^ box_key(size.index(to), id)
            ^ pushes_key(self.pushes)
            ^ pushes_key(pushes);
        self.pushes = pushes;
        let goal = |c: Option<Cell>| u32::from(c == Some(Cell::Goal));
        self.on_goal = self.on_goal + goal(self.cell(to)) - goal(self.cell(from));
    }
}
