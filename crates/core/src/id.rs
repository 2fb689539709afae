//! Stable ids for tiles, blocks and units.
//!
//! `Id`, `IdGen` (the counter in each state).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The id of a tile, block or unit: allocated from a counter in the game state, never reused
/// within a game, and kept across moves so that views can animate and logs can name it.
///
/// Serialized as the derive would (a newtype struct), by hand so that it inlines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
pub struct Id(pub u32);

impl Serialize for Id {
    #[inline]
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct("Id", &self.0)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The counter ids are allocated from. Undo hands ids back by resetting it ([`IdGen::reset`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdGen {
    next: u32,
}

impl IdGen {
    /// A counter whose first id is `first`.
    pub const fn starting_at(first: u32) -> Self {
        IdGen { next: first }
    }

    /// Allocates the next id.
    #[inline]
    #[allow(clippy::should_implement_trait)] // a counter, not an iterator: it never ends
    pub fn next(&mut self) -> Id {
        let id = Id(self.next);
        self.next += 1;
        id
    }

    /// The id the next call to [`IdGen::next`] returns.
    #[inline]
    pub fn peek(&self) -> Id {
        Id(self.next)
    }

    /// Makes `id` the next id again (undo of its allocation, or redo past it with `id + 1`).
    #[inline]
    pub fn reset(&mut self, next: u32) {
        self.next = next;
    }
}
