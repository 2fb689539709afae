//! The match-3 commands (with their script text, `FromStr`/`Display`) and events.

use super::*;

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
