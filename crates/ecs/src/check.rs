//! The dry run's overlay: what an event's earlier ops did, as the checks of its later ops see
//! it (`follow.rs`), and the buffers the mirror keeps for them from event to event.

use hecs::Entity;
use tessera_core::Id;
use tessera_core::project::{Ops, Shape};

/// A piece as the checks see it: one on the board, or one an earlier op of the event spawned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    Real(Entity),
    New(u32),
}

/// The dry run's view of what the event's earlier ops did (latest entry wins), and buffers
/// reused by the checks.
#[derive(Default)]
pub(crate) struct Check {
    /// Cell index → the piece now there.
    pub(crate) cells: Vec<(usize, Option<Token>)>,
    /// Id → the piece that has it now.
    pub(crate) ids: Vec<(Id, Option<Token>)>,
    /// A piece's shape now.
    pub(crate) shapes: Vec<(Token, Shape)>,
    pub(crate) fresh: u32,
    /// The pieces an op names, in its items' order.
    pub(crate) toks: Vec<Token>,
    /// A column's pieces and rows.
    pub(crate) stack: Vec<(Token, u16)>,
    /// Keys sorted to find duplicates.
    pub(crate) keys: Vec<u64>,
}

impl Check {
    pub(crate) fn clear(&mut self) {
        self.cells.clear();
        self.ids.clear();
        self.shapes.clear();
        self.fresh = 0;
    }
}

/// Buffers reused from event to event.
#[derive(Default)]
pub(crate) struct Scratch {
    pub(crate) ops: Ops,
    pub(crate) check: Check,
}
