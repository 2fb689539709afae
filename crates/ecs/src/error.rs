//! Why an event did not fit the mirror.

use std::fmt;
use tessera_core::{Id, Pos, RuleSet, Size};

/// An event that does not fit the mirror: [`crate::Mirror::try_apply`] and
/// [`crate::Mirror::try_unapply`] return it having changed nothing ([`crate::Mirror::apply`]
/// and [`crate::Mirror::unapply`] ignore it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MirrorError {
    /// The event belongs to another rule set than the mirrored game.
    WrongRuleSet {
        /// The mirror's rule set.
        mirror: RuleSet,
        /// The event's rule set.
        event: RuleSet,
    },
    /// The event names a cell off the board.
    OffBoard {
        /// The cell.
        pos: Pos,
        /// The board's size.
        size: Size,
    },
    /// The event names a piece the mirror does not hold.
    UnknownId {
        /// The piece.
        id: Id,
    },
    /// The piece is not on the cell the event says it is on.
    NotAt {
        /// The piece.
        id: Id,
        /// The cell the event names.
        pos: Pos,
    },
    /// The cell a piece is to move or appear on holds another piece.
    Occupied {
        /// The cell.
        pos: Pos,
    },
    /// A piece is to appear with an id that is already on the board (or twice in one event).
    DuplicateId {
        /// The id.
        id: Id,
    },
    /// The event names the same cell twice where cells must differ.
    DuplicateCell {
        /// The cell.
        pos: Pos,
    },
    /// A unit moved along an empty path.
    EmptyPath {
        /// The unit.
        id: Id,
    },
    /// The piece is not of the kind the event is about (e.g. a movement change for a tile).
    WrongKind {
        /// The piece.
        id: Id,
    },
}

impl fmt::Display for MirrorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MirrorError::WrongRuleSet { mirror, event } => {
                write!(f, "a {event} event does not apply to a {mirror} mirror")
            }
            MirrorError::OffBoard { pos, size } => write!(f, "cell {pos} is off the {size} board"),
            MirrorError::UnknownId { id } => write!(f, "no piece {id} on the board"),
            MirrorError::NotAt { id, pos } => write!(f, "piece {id} is not at {pos}"),
            MirrorError::Occupied { pos } => write!(f, "cell {pos} already holds a piece"),
            MirrorError::DuplicateId { id } => write!(f, "piece {id} is already on the board"),
            MirrorError::DuplicateCell { pos } => write!(f, "cell {pos} is named twice"),
            MirrorError::EmptyPath { id } => write!(f, "unit {id} moved along an empty path"),
            MirrorError::WrongKind { id } => write!(f, "piece {id} is not of the kind the event is about"),
        }
    }
}

impl std::error::Error for MirrorError {}

/// The mirror's indexes disagree with its world ([`crate::Mirror::check`]): a bug in this crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inconsistent {
    /// The cell concerned, if any.
    pub pos: Option<Pos>,
    /// What disagrees.
    pub what: String,
}

impl fmt::Display for Inconsistent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some(p) => write!(f, "mirror inconsistent at {p}: {}", self.what),
            None => write!(f, "mirror inconsistent: {}", self.what),
        }
    }
}

impl std::error::Error for Inconsistent {}
