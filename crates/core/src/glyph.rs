//! Path arrows: the piece a view draws on each cell of a path (the seed's straight, corner and
//! arrow pieces).
//!
//! The seed looks at each cell after the start together with the cell before and the cell
//! after it: the same direction in and out is a straight piece, a change of direction is a
//! corner, and the last cell is an arrow pointing the way the path went. The start cell gets no
//! piece. [`Glyph::seed_rotation`] gives the seed's prefab and Y rotation for the same
//! coordinates, so a view that reuses the seed's art can place it directly.
//!
//! Path arrows (`path_glyphs`: straight, corner and arrow pieces of any path), which the editor's
//! board draws for any rule set.

use crate::geom::{Dir, Pos};
use serde::{Deserialize, Serialize};

/// One of the eight directions of a step on the grid (`y` grows downward, row 0 at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Heading {
    /// `(0, -1)`.
    Up,
    /// `(1, -1)`.
    UpRight,
    /// `(1, 0)`.
    Right,
    /// `(1, 1)`.
    DownRight,
    /// `(0, 1)`.
    Down,
    /// `(-1, 1)`.
    DownLeft,
    /// `(-1, 0)`.
    Left,
    /// `(-1, -1)`.
    UpLeft,
}

impl Heading {
    /// All eight, clockwise from `Up`.
    pub const ALL: [Heading; 8] = [
        Heading::Up,
        Heading::UpRight,
        Heading::Right,
        Heading::DownRight,
        Heading::Down,
        Heading::DownLeft,
        Heading::Left,
        Heading::UpLeft,
    ];

    /// `(dx, dy)` of one step.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Heading::Up => (0, -1),
            Heading::UpRight => (1, -1),
            Heading::Right => (1, 0),
            Heading::DownRight => (1, 1),
            Heading::Down => (0, 1),
            Heading::DownLeft => (-1, 1),
            Heading::Left => (-1, 0),
            Heading::UpLeft => (-1, -1),
        }
    }

    /// The heading from `a` toward `b`, by the signs of the differences (the seed normalises
    /// the difference vector); `None` when `a == b`.
    pub fn between(a: Pos, b: Pos) -> Option<Heading> {
        let dx = (i32::from(b.x) - i32::from(a.x)).signum();
        let dy = (i32::from(b.y) - i32::from(a.y)).signum();
        Heading::ALL.into_iter().find(|h| h.delta() == (dx, dy))
    }

    /// The opposite heading.
    pub const fn opposite(self) -> Heading {
        match self {
            Heading::Up => Heading::Down,
            Heading::UpRight => Heading::DownLeft,
            Heading::Right => Heading::Left,
            Heading::DownRight => Heading::UpLeft,
            Heading::Down => Heading::Up,
            Heading::DownLeft => Heading::UpRight,
            Heading::Left => Heading::Right,
            Heading::UpLeft => Heading::DownRight,
        }
    }

    /// Whether this is a diagonal heading.
    pub const fn is_diagonal(self) -> bool {
        let (dx, dy) = self.delta();
        dx != 0 && dy != 0
    }

    /// The line a step in this heading runs along.
    pub const fn axis(self) -> Axis {
        match self {
            Heading::Left | Heading::Right => Axis::Horizontal,
            Heading::Up | Heading::Down => Axis::Vertical,
            Heading::UpLeft | Heading::DownRight => Axis::Falling,
            Heading::UpRight | Heading::DownLeft => Axis::Rising,
        }
    }

    /// The lower-case name (`up`, `up-right`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Heading::Up => "up",
            Heading::UpRight => "up-right",
            Heading::Right => "right",
            Heading::DownRight => "down-right",
            Heading::Down => "down",
            Heading::DownLeft => "down-left",
            Heading::Left => "left",
            Heading::UpLeft => "up-left",
        }
    }
}

impl From<Dir> for Heading {
    fn from(d: Dir) -> Heading {
        match d {
            Dir::Up => Heading::Up,
            Dir::Down => Heading::Down,
            Dir::Left => Heading::Left,
            Dir::Right => Heading::Right,
        }
    }
}

/// The line a straight piece runs along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Axis {
    /// Left–right.
    Horizontal,
    /// Up–down.
    Vertical,
    /// Top-left to bottom-right (`\`), 8-connected paths only.
    Falling,
    /// Bottom-left to top-right (`/`), 8-connected paths only.
    Rising,
}

/// The piece drawn on one cell of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Glyph {
    /// The path goes straight through the cell.
    Straight(Axis),
    /// The path turns in the cell: it comes in through the side (or corner) `from` and leaves
    /// through `to`. Going right then down is `Corner(Left, Down)`.
    Corner(Heading, Heading),
    /// The path ends here, arriving in this heading.
    Arrow(Heading),
}

/// Which of the seed's three prefabs a glyph uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SeedPiece {
    /// `UIPath`, the straight piece.
    Straight,
    /// `UIPathCor`, the corner piece.
    Corner,
    /// `UIPathArrow`, the arrow.
    Arrow,
}

impl Glyph {
    /// The seed's prefab and its rotation about Y in degrees (`Quaternion.Euler(0, angle, 0)`)
    /// for the same path coordinates, or `None` for pieces the seed cannot draw (diagonals).
    pub fn seed_rotation(self) -> Option<(SeedPiece, i32)> {
        use Heading::*;
        match self {
            Glyph::Straight(Axis::Horizontal) => Some((SeedPiece::Straight, 0)),
            Glyph::Straight(Axis::Vertical) => Some((SeedPiece::Straight, 90)),
            Glyph::Straight(_) => None,
            Glyph::Corner(from, to) => {
                if from.is_diagonal() || to.is_diagonal() || from == to {
                    return None;
                }
                // The seed's codes: horizontal 1 when the piece touches the +x side, vertical 1
                // when it touches the -y side.
                let right = from == Right || to == Right;
                let minus_y = from == Up || to == Up;
                Some((
                    SeedPiece::Corner,
                    match (right, minus_y) {
                        (false, false) => 180,
                        (true, false) => -90,
                        (false, true) => 90,
                        (true, true) => 0,
                    },
                ))
            }
            Glyph::Arrow(h) => match h {
                Right => Some((SeedPiece::Arrow, 180)),
                Up => Some((SeedPiece::Arrow, 270)),
                Left => Some((SeedPiece::Arrow, 0)),
                Down => Some((SeedPiece::Arrow, 90)),
                _ => None,
            },
        }
    }

    /// A one-character picture for terminals.
    pub fn to_char(self) -> char {
        use Heading::*;
        match self {
            Glyph::Straight(Axis::Horizontal) => '─',
            Glyph::Straight(Axis::Vertical) => '│',
            Glyph::Straight(Axis::Falling) => '╲',
            Glyph::Straight(Axis::Rising) => '╱',
            Glyph::Corner(a, b) => match (a.min(b), a.max(b)) {
                (Right, Down) => '┌',
                (Down, Left) => '┐',
                (Up, Right) => '└',
                (Up, Left) => '┘',
                _ => '+',
            },
            Glyph::Arrow(h) => match h {
                Up => '↑',
                UpRight => '↗',
                Right => '→',
                DownRight => '↘',
                Down => '↓',
                DownLeft => '↙',
                Left => '←',
                UpLeft => '↖',
            },
        }
    }
}

/// The glyph of every cell of `path` after the first, in order (the seed's `showPathUI`).
///
/// Returns `None` when two consecutive cells are equal (no direction). A path of one cell has
/// no glyphs.
pub fn path_glyphs(path: &[Pos]) -> Option<Vec<Glyph>> {
    let mut out = Vec::with_capacity(path.len().saturating_sub(1));
    for i in 1..path.len() {
        let came = Heading::between(path[i - 1], path[i])?;
        let glyph = match path.get(i + 1) {
            None => Glyph::Arrow(came),
            Some(&next) => {
                let goes = Heading::between(path[i], next)?;
                if goes == came { Glyph::Straight(came.axis()) } else { Glyph::Corner(came.opposite(), goes) }
            }
        };
        out.push(glyph);
    }
    Some(out)
}
