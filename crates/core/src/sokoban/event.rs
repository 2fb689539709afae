//! Sokoban's commands (with their one-line text form) and events.

use crate::geom::{Dir, Pos};
use crate::id::Id;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A Sokoban command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SokobanCommand {
    /// `up`, `down`, `left`, `right`: one step, pushing a box in front when it can move.
    Step(Dir),
    /// `walk X Y`: walk a shortest path to the cell, pushing nothing.
    Walk(Pos),
}

impl fmt::Display for SokobanCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SokobanCommand::Step(d) => f.write_str(d.name()),
            SokobanCommand::Walk(p) => write!(f, "walk {} {}", p.x, p.y),
        }
    }
}

impl FromStr for SokobanCommand {
    type Err = String;
    /// `up`, `down`, `left`, `right`, or `walk X Y` (column X, row Y; 0 is the top row).
    fn from_str(s: &str) -> Result<Self, String> {
        let usage = || {
            format!("unknown sokoban command '{}' (expected: up, down, left, right or walk X Y)", s.trim())
        };
        let mut words = s.split_whitespace();
        let first = words.next().ok_or_else(usage)?;
        if let Some(d) = Dir::from_name(first) {
            return match words.next() {
                None => Ok(SokobanCommand::Step(d)),
                Some(_) => Err(usage()),
            };
        }
        if first != "walk" {
            return Err(usage());
        }
        let mut coord = |name: &str| -> Result<u16, String> {
            let w = words.next().ok_or_else(usage)?;
            w.parse::<u16>().map_err(|_| format!("walk: {name} '{w}' is not a number from 0 to 65535"))
        };
        let x = coord("X")?;
        let y = coord("Y")?;
        if words.next().is_some() {
            return Err(usage());
        }
        Ok(SokobanCommand::Walk(Pos::new(x, y)))
    }
}

/// What happened in a step. A step is `Moved`; a push is `Pushed` then `Moved`; a walk is
/// `Walked`; the step that solves the level ends with `Solved`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SokobanEvent {
    /// The player stepped from `from` to the neighbouring cell `to` (one move).
    Moved {
        /// Where it stood.
        from: Pos,
        /// Where it stands.
        to: Pos,
    },
    /// A box was pushed one cell, from `from` to the neighbouring cell `to` (one push). The
    /// player stood behind it, on the other side of `from`, and enters `from` (the `Moved` that
    /// follows).
    Pushed {
        /// The box.
        id: Id,
        /// Where it stood.
        from: Pos,
        /// Where it stands.
        to: Pos,
    },
    /// The player walked `path`: from `path[0]` (where it stood) to the last cell, each cell a
    /// neighbour of the one before (`path.len() - 1` moves).
    Walked {
        /// Every cell of the walk, the start included.
        path: Vec<Pos>,
    },
    /// Every box now stands on a goal.
    Solved,
}
