//! The SameGame commands (with their script text, `FromStr`/`Display`) and events.

use super::*;

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
