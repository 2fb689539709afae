//! The `sokoban` part of the level format, and the board checks the importer shares.

use super::{Cell, MAX_SIDE, SokobanRules, SokobanState};
use crate::geom::{Dir, Grid, Pos, Size};
use crate::id::Id;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A Sokoban level: the board as rows of XSB characters, a name and an optional seed.
///
/// ```json
/// { "rule_set": "sokoban", "name": "first steps",
///   "board": ["#####",
///             "#@$.#",
///             "#####"] }
/// ```
/// - `board`: rows from the top, each a string with one character per cell, every row the
///   same length: `#` wall, ` ` (space), `-` or `_` floor, `.` goal, `$` box, `*` box on a
///   goal, `@` player, `+` player on a goal. Exactly one player; as many goals as boxes, at
///   least one; walls enclose the player (cells it can reach without crossing a wall never touch
///   the map's edge). Boxes get ids 0, 1, … row by row from the top left. 1 to 256 cells a side.
/// - `seed`: carried in the state, never drawn from (the player's `--seed` overrides it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SokobanLevel {
    /// A title for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The seed; the player's `--seed` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Rows from the top, in XSB characters.
    pub board: Vec<String>,
}

/// Why a board is not a playable Sokoban level: what is wrong and, when one cell says it, which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    /// The cell the problem is at, if one cell says it.
    pub cell: Option<Pos>,
    /// What is wrong (naming the cell too, as `board cell (x, y): …`).
    pub message: String,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<BoardError> for String {
    fn from(e: BoardError) -> String {
        e.message
    }
}

impl From<BoardError> for crate::LevelError {
    fn from(e: BoardError) -> crate::LevelError {
        match e.cell {
            Some(cell) => crate::LevelError::at(crate::Place::Cell(cell), e.message),
            None => crate::LevelError::invalid(e.message),
        }
    }
}

fn at(cell: Pos, message: String) -> BoardError {
    BoardError { cell: Some(cell), message: format!("board cell {cell}: {message}") }
}

fn whole(message: String) -> BoardError {
    BoardError { cell: None, message }
}

/// The characters a board may hold, for error messages.
const CHARACTERS: &str = "# wall, space - _ floor, . goal, $ box, * box on goal, @ player, + player on goal";

/// Checks `rows` of XSB characters (see [`SokobanLevel`]) and builds the starting state with
/// `seed`: the level's checks, shared with the importer, which turns the cell into a line and
/// column. The error is the first of [`board_problems`].
pub fn parse_board(rows: &[String], seed: u64) -> Result<SokobanState, BoardError> {
    let board = scan(rows)?;
    if let Some(first) = board.problems.into_iter().next() {
        return Err(first);
    }
    let (size, player) = (board.size, board.player.ok_or_else(|| whole("the board has no player".into()))?);
    let cells =
        Grid::from_cells(size, board.cells).ok_or_else(|| whole("board cell count does not match".into()))?;
    let boxes =
        Grid::from_cells(size, board.boxes).ok_or_else(|| whole("board cell count does not match".into()))?;
    SokobanState::new(cells, boxes, player, seed).map_err(whole)
}

/// Every reason `rows` do not play, in the order [`parse_board`] checks them (empty when they
/// play): each second player, no player, no box, boxes and goals unequal, the player able to
/// walk off the board. A board that cannot be read (rows of different lengths, a character
/// that is no cell, a bad size) gives that one error.
pub fn board_problems(rows: &[String]) -> Vec<BoardError> {
    match scan(rows) {
        Ok(board) => board.problems,
        Err(e) => vec![e],
    }
}

/// A board read cell by cell, with the problems found.
struct Scanned {
    size: Size,
    cells: Vec<Cell>,
    boxes: Vec<Option<Id>>,
    player: Option<Pos>,
    problems: Vec<BoardError>,
}

/// Reads `rows`; `Err` for a board that cannot be read (before any other problem found).
fn scan(rows: &[String]) -> Result<Scanned, BoardError> {
    let height = rows.len();
    let width = rows.first().map_or(0, |r| r.chars().count());
    let size = Size::new(width, height, MAX_SIDE).map_err(|e| whole(format!("board: {e}")))?;
    let mut cells = Vec::with_capacity(size.area());
    let mut boxes = Vec::with_capacity(size.area());
    let mut player: Option<Pos> = None;
    let mut problems = Vec::new();
    let (mut n_boxes, mut n_goals) = (0u32, 0u32);
    // A board that cannot be read: that error, unless a problem came first (the first is what
    // `parse_board` reports).
    let unreadable = |problems: &mut Vec<BoardError>, e: BoardError| -> BoardError {
        if problems.is_empty() { e } else { problems.swap_remove(0) }
    };
    for (y, row) in rows.iter().enumerate() {
        let n = row.chars().count();
        if n != width {
            return Err(unreadable(
                &mut problems,
                whole(format!("board row {y} has {n} cells, expected {width}")),
            ));
        }
        for (x, ch) in row.chars().enumerate() {
            let p = Pos::new(x as u16, y as u16);
            let (cell, boxed, man) = match ch {
                '#' => (Cell::Wall, false, false),
                ' ' | '-' | '_' => (Cell::Floor, false, false),
                '.' => (Cell::Goal, false, false),
                '$' => (Cell::Floor, true, false),
                '*' => (Cell::Goal, true, false),
                '@' => (Cell::Floor, false, true),
                '+' => (Cell::Goal, false, true),
                _ => {
                    let e = at(p, format!("'{ch}' is not a Sokoban character ({CHARACTERS})"));
                    return Err(unreadable(&mut problems, e));
                }
            };
            if man {
                match player {
                    Some(first) => problems.push(at(p, format!("a second player (the first is at {first})"))),
                    None => player = Some(p),
                }
            }
            n_goals += u32::from(cell == Cell::Goal);
            cells.push(cell);
            boxes.push(boxed.then(|| {
                n_boxes += 1;
                Id(n_boxes - 1)
            }));
        }
    }
    if player.is_none() {
        problems.push(whole("the board has no player (@ or +)".into()));
    }
    if n_boxes == 0 {
        problems.push(whole("the board has no box ($ or *)".into()));
    }
    if n_boxes != n_goals && n_boxes > 0 {
        let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        problems.push(whole(format!(
            "the board has {} but {}",
            plural(n_boxes, "box", "boxes"),
            plural(n_goals, "goal", "goals")
        )));
    }
    if let Some(p) = player {
        // Every opening, each at its first cell (issue 36.4: only one of two was listed).
        for (edge, n) in openings(&cells, size, p) {
            let what = "the player can walk off the map here: no wall encloses it";
            problems.push(at(
                edge,
                if n == 1 { what.into() } else { format!("{what} ({n} edge cells in a row)") },
            ));
        }
    }
    Ok(Scanned { size, cells, boxes, player, problems })
}

/// The openings in the walls: runs of cells on the map's edge, next to each other around it,
/// that the player reaches without crossing a wall (breadth-first from the player, neighbours
/// up, down, left, right). Each is given as its first cell in reading order and its length; the
/// openings in reading order of those cells.
fn openings(cells: &[Cell], size: Size, player: Pos) -> Vec<(Pos, usize)> {
    let mut seen = vec![false; size.area()];
    seen[size.index(player)] = true;
    let mut queue = vec![player];
    let mut head = 0;
    while head < queue.len() {
        let p = queue[head];
        head += 1;
        for d in Dir::ALL {
            let Some(q) = p.step(d, size) else { continue };
            let j = size.index(q);
            if !seen[j] && cells[j].is_open() {
                seen[j] = true;
                queue.push(q);
            }
        }
    }
    // The edge once around, clockwise from the top-left corner (a map one cell wide or high is
    // all edge, in one line).
    let (w, h) = (size.width, size.height);
    let mut ring: Vec<Pos> = Vec::new();
    if w == 1 || h == 1 {
        ring.extend((0..h).flat_map(|y| (0..w).map(move |x| Pos::new(x, y))));
    } else {
        ring.extend((0..w).map(|x| Pos::new(x, 0)));
        ring.extend((1..h).map(|y| Pos::new(w - 1, y)));
        ring.extend((0..w - 1).rev().map(|x| Pos::new(x, h - 1)));
        ring.extend((1..h - 1).rev().map(|y| Pos::new(0, y)));
    }
    let reached: Vec<bool> = ring.iter().map(|&p| seen[size.index(p)]).collect();
    let Some(closed) = reached.iter().position(|r| !r) else {
        // No wall on the edge at all: one opening all around.
        return if ring.is_empty() { Vec::new() } else { vec![(ring[0], ring.len())] };
    };
    // Runs of reached cells, going once around from just after a cell that is not reached (a
    // ring wraps: a run may pass the top-left corner; a line does not).
    let wraps = !(w == 1 || h == 1);
    let order: Vec<usize> = if wraps {
        (1..=ring.len()).map(|k| (closed + k) % ring.len()).collect()
    } else {
        (0..ring.len()).collect()
    };
    let mut found: Vec<(Pos, usize)> = Vec::new();
    let mut run: Vec<Pos> = Vec::new();
    for k in order {
        if reached[k] {
            run.push(ring[k]);
        } else if !run.is_empty() {
            let first = *run.iter().min_by_key(|p| (p.y, p.x)).unwrap_or(&run[0]);
            found.push((first, run.len()));
            run.clear();
        }
    }
    if let Some(&first) = run.iter().min_by_key(|p| (p.y, p.x)) {
        found.push((first, run.len()));
    }
    found.sort_by_key(|(p, _)| (p.y, p.x));
    found
}

impl SokobanLevel {
    /// A level of `board` rows (see the type's docs).
    pub fn from_rows(board: Vec<String>) -> Self {
        SokobanLevel { board, ..SokobanLevel::default() }
    }

    /// Checks the level and builds its rules and starting state.
    pub fn start(&self, seed: u64) -> Result<(SokobanRules, SokobanState), crate::LevelError> {
        Ok((SokobanRules, parse_board(&self.board, seed)?))
    }
}
