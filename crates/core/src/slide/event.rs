//! The 2048 commands (with their script text, `FromStr`/`Display`) and events.

use super::*;

/// How a merge happened (the seed's single and double combine move orders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Combine {
    /// A moving tile landed on a tile at rest.
    Single,
    /// Two moving tiles met at a new cell.
    Double,
}

/// What happened in a slide step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlideEvent {
    /// A tile moved without merging.
    Moved {
        /// The tile.
        tile: Id,
        /// Where it was.
        from: Pos,
        /// Where it is.
        to: Pos,
    },
    /// Two tiles of equal value became one of twice the value at `to`.
    Merged {
        /// The surviving tile (the one nearer the edge), now worth `value`.
        tile: Id,
        /// Where the surviving tile was (equal to `to` for a single combine).
        from: Pos,
        /// The tile that merged into it and is gone.
        absorbed: Id,
        /// Where the absorbed tile was.
        absorbed_from: Pos,
        /// The cell of the merged tile.
        to: Pos,
        /// The new value.
        value: u32,
        /// Single or double combine.
        combine: Combine,
    },
    /// The score rose by the values of this step's merged tiles.
    Scored {
        /// Points gained.
        points: u64,
    },
    /// A new tile appeared.
    Spawned {
        /// The new tile's id.
        tile: Id,
        /// Its cell.
        at: Pos,
        /// 2 or 4.
        value: u32,
        /// The generator's position around the draw.
        rng: RngSpan,
    },
    /// A tile reached the target for the first time.
    Won {
        /// The tile value that won.
        value: u32,
    },
    /// No slide is possible any more.
    GameOver,
}

/// A 2048 command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlideCommand {
    /// Slide every tile toward an edge.
    Slide(Dir),
}

impl fmt::Display for SlideCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlideCommand::Slide(d) => f.write_str(d.name()),
        }
    }
}

impl FromStr for SlideCommand {
    type Err = String;
    /// `up`, `down`, `left` or `right`.
    fn from_str(s: &str) -> Result<Self, String> {
        Dir::from_name(s.trim())
            .map(SlideCommand::Slide)
            .ok_or_else(|| format!("unknown slide command '{}' (expected up, down, left or right)", s.trim()))
    }
}
