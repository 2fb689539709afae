//! Board geometry: cells, directions and a rectangular grid.
//!
//! Cells are addressed by `(x, y)` with `y = 0` the top row. A [`Grid`] can only be built with a
//! valid size (see [`Size`]), so code that holds one never re-checks its dimensions.
//!
//! `Pos` (`y = 0` is the top row), `Dir`, `Size` (valid by construction), `Grid<T>`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A cell address: column `x`, row `y`, `y = 0` at the top.
///
/// Serialized as the derive would (a struct of `x` then `y`), by hand so that it inlines: every
/// event names cells, and recording writes millions of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub struct Pos {
    /// Column, 0 at the left.
    pub x: u16,
    /// Row, 0 at the top.
    pub y: u16,
}

impl Serialize for Pos {
    #[inline]
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Pos", 2)?;
        s.serialize_field("x", &self.x)?;
        s.serialize_field("y", &self.y)?;
        s.end()
    }
}

impl Pos {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: u16, y: u16) -> Self {
        Self { x, y }
    }

    /// The neighbouring cell one step in `dir`, if that stays within `size`.
    pub fn step(self, dir: Dir, size: Size) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        self.offset(dx, dy, size)
    }

    /// The cell at `(x + dx, y + dy)`, if that stays within `size`.
    pub fn offset(self, dx: i32, dy: i32, size: Size) -> Option<Pos> {
        let x = i32::from(self.x) + dx;
        let y = i32::from(self.y) + dy;
        (x >= 0 && y >= 0 && x < i32::from(size.width) && y < i32::from(size.height))
            .then(|| Pos::new(x as u16, y as u16))
    }

    /// Manhattan distance to `other`.
    pub fn manhattan(self, other: Pos) -> u32 {
        u32::from(self.x.abs_diff(other.x)) + u32::from(self.y.abs_diff(other.y))
    }

    /// Whether `other` is one of the four orthogonal neighbours of this cell.
    pub fn is_orthogonal_neighbour(self, other: Pos) -> bool {
        self.manhattan(other) == 1
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// One of the four orthogonal directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dir {
    /// Toward row 0.
    Up,
    /// Toward the last row.
    Down,
    /// Toward column 0.
    Left,
    /// Toward the last column.
    Right,
}

impl Dir {
    /// All four directions, in a fixed order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// `(dx, dy)` of one step.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// The lower-case name used in command text and JSON (`up`, `down`, `left`, `right`).
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// Parses a direction name as written by [`Dir::name`].
    pub fn from_name(s: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == s)
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest width or height of a [`Grid`] (tactics maps go this far; a grid read from a log
/// is held to it). A [`Size`] itself may be as large as `u16` holds: a PuzzleScript level is
/// bounded by its area, not its sides (a level of 5×10,230 cells plays, issue 66.1).
pub const MAX_SIDE: u16 = 1024;

/// Width and height of a board, each at least 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Size {
    /// Number of columns.
    pub width: u16,
    /// Number of rows.
    pub height: u16,
}

/// A board size outside what a rule set accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board size {width}x{height} is outside 1x1..={max}x{max}")]
pub struct SizeError {
    /// The width asked for.
    pub width: usize,
    /// The height asked for.
    pub height: usize,
    /// The largest side allowed.
    pub max: u16,
}

impl Size {
    /// A size of `width × height`, both in `1..=max`.
    pub fn new(width: usize, height: usize, max: u16) -> Result<Size, SizeError> {
        let ok = |n: usize| (1..=usize::from(max)).contains(&n);
        if ok(width) && ok(height) {
            Ok(Size { width: width as u16, height: height as u16 })
        } else {
            Err(SizeError { width, height, max })
        }
    }

    /// Number of cells.
    pub const fn area(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether `pos` lies on the board.
    pub const fn contains(self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// Row-major index of `pos` (which must lie on the board).
    #[inline]
    pub const fn index(self, pos: Pos) -> usize {
        pos.y as usize * self.width as usize + pos.x as usize
    }

    /// The cell at row-major index `i`.
    #[inline]
    pub const fn pos(self, i: usize) -> Pos {
        Pos::new((i % self.width as usize) as u16, (i / self.width as usize) as u16)
    }

    /// Every cell, row by row from the top.
    pub fn cells(self) -> impl Iterator<Item = Pos> {
        (0..self.area()).map(move |i| self.pos(i))
    }

    /// The orthogonal neighbours of `pos` that lie on the board, in [`Dir::ALL`] order.
    pub fn neighbours4(self, pos: Pos) -> impl Iterator<Item = Pos> {
        Dir::ALL.into_iter().filter_map(move |d| pos.step(d, self))
    }

    /// The up-to-eight neighbours of `pos` that lie on the board.
    pub fn neighbours8(self, pos: Pos) -> impl Iterator<Item = Pos> {
        const D: [(i32, i32); 8] = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)];
        D.into_iter().filter_map(move |(dx, dy)| pos.offset(dx, dy, self))
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A rectangle of cells holding a `T` each, stored row by row.
///
/// Invariant: `cells.len() == size.area()`; enforced by the constructors and by deserialization.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Grid<T> {
    size: Size,
    cells: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A grid of `size` with every cell set to `fill`.
    pub fn filled(size: Size, fill: T) -> Self {
        Grid { size, cells: vec![fill; size.area()] }
    }
}

impl<T> Grid<T> {
    /// A grid from row-major cells; `None` when the count does not match the size.
    pub fn from_cells(size: Size, cells: Vec<T>) -> Option<Self> {
        (cells.len() == size.area()).then_some(Grid { size, cells })
    }

    /// The grid's size.
    #[inline]
    pub fn size(&self) -> Size {
        self.size
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> u16 {
        self.size.width
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> u16 {
        self.size.height
    }

    /// The cell at `pos`, or `None` off the board.
    #[inline]
    pub fn get(&self, pos: Pos) -> Option<&T> {
        self.size.contains(pos).then(|| &self.cells[self.size.index(pos)])
    }

    /// The cell at `pos`, mutably, or `None` off the board.
    #[inline]
    pub fn get_mut(&mut self, pos: Pos) -> Option<&mut T> {
        if self.size.contains(pos) {
            let i = self.size.index(pos);
            Some(&mut self.cells[i])
        } else {
            None
        }
    }

    /// All cells, row by row.
    #[inline]
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// All cells, row by row, mutably.
    #[inline]
    pub fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// One row, left to right.
    pub fn row(&self, y: u16) -> &[T] {
        let w = usize::from(self.size.width);
        let start = usize::from(y) * w;
        &self.cells[start..start + w]
    }

    /// Rows from the top, each left to right.
    pub fn rows(&self) -> impl Iterator<Item = &[T]> {
        self.cells.chunks(usize::from(self.size.width))
    }

    /// `(pos, cell)` for every cell, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (Pos, &T)> {
        let size = self.size;
        self.cells.iter().enumerate().map(move |(i, c)| (size.pos(i), c))
    }

    /// The same grid with every cell mapped through `f`.
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> Grid<U> {
        Grid { size: self.size, cells: self.cells.iter().map(f).collect() }
    }
}

impl<T> std::ops::Index<Pos> for Grid<T> {
    type Output = T;
    #[inline]
    fn index(&self, pos: Pos) -> &T {
        assert!(self.size.contains(pos), "{pos} is off the {} board", self.size);
        &self.cells[self.size.index(pos)]
    }
}

impl<T> std::ops::IndexMut<Pos> for Grid<T> {
    #[inline]
    fn index_mut(&mut self, pos: Pos) -> &mut T {
        assert!(self.size.contains(pos), "{pos} is off the {} board", self.size);
        let i = self.size.index(pos);
        &mut self.cells[i]
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Grid<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw<T> {
            size: Size,
            cells: Vec<T>,
        }
        let raw = Raw::<T>::deserialize(d)?;
        if raw.size.width == 0
            || raw.size.height == 0
            || raw.size.width > MAX_SIDE
            || raw.size.height > MAX_SIDE
        {
            return Err(serde::de::Error::custom(format!("grid size {} is invalid", raw.size)));
        }
        Grid::from_cells(raw.size, raw.cells).ok_or_else(|| {
            serde::de::Error::custom(format!("grid cell count does not match its size {}", raw.size))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_rejects_zero_and_too_large() {
        assert!(Size::new(0, 4, 256).is_err());
        assert!(Size::new(4, 257, 256).is_err());
        assert_eq!(Size::new(256, 1, 256).unwrap().area(), 256);
    }

    #[test]
    fn neighbours_stay_on_board() {
        let s = Size::new(3, 2, 256).unwrap();
        let n: Vec<Pos> = s.neighbours4(Pos::new(0, 0)).collect();
        assert_eq!(n, vec![Pos::new(0, 1), Pos::new(1, 0)]);
        assert_eq!(s.neighbours8(Pos::new(1, 0)).count(), 5);
    }

    #[test]
    fn index_round_trips() {
        let s = Size::new(5, 3, 256).unwrap();
        for i in 0..s.area() {
            assert_eq!(s.index(s.pos(i)), i);
        }
    }
}
