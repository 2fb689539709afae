//! The components of the mirror's entities, and the ghosts of pieces that left the board. An
//! entity's look is a [`Look`] component (the generic vocabulary of `tessera_core::project`).
//!
//! `Cell`, `GameId`, `Anim`, `Trail` (every animation of an entity in the step), `Ghost`; `Look`,
//! `Shape`, `Label`, `Layer`, `AnimKind` are core's, re-exported.

use tessera_core::project::{AnimKind, Look};
use tessera_core::{Id, Pos};

/// Grid position component: the cell an entity rests at after the events applied so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(pub Pos);

/// The game's stable id of a piece. Ground entities have none: an entity is on the
/// [`Layer::Piece`](tessera_core::project::Layer) exactly when it has a `GameId`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub Id);

/// Animation component: what the current step did to this entity (its latest animation in the
/// step; [`Trail`] holds all of them when one entity moves more than once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anim {
    /// What happens.
    pub kind: AnimKind,
    /// The cell the entity is drawn at when the animation starts.
    pub from: Pos,
    /// The cell it is drawn at when the animation ends.
    pub to: Pos,
    /// When, within the step: animations of phase 0 play first (see the crate docs).
    pub phase: u32,
    /// Every cell walked, `from` first and `to` last ([`AnimKind::Walk`] only).
    pub path: Option<Vec<Pos>>,
}

impl Anim {
    /// An animation without a path.
    pub const fn new(kind: AnimKind, from: Pos, to: Pos, phase: u32) -> Anim {
        Anim { kind, from, to, phase, path: None }
    }
}

/// Every animation of an entity in the current step, in phase order; the last one is its
/// [`Anim`]. Present exactly when [`Anim`] is. A piece can move in several phases of one step (a
/// block falling in several cascade levels): a view that tweens it phase by phase reads this
/// rather than `Anim`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trail(pub Vec<Anim>);

/// A piece that left the board during the current step (cleared, matched away, absorbed in a
/// merge; or, when undoing, a spawned piece going away): kept only to draw its exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ghost {
    /// What it looked like when it left.
    pub look: Look,
    /// Its game id.
    pub id: Option<Id>,
    /// The last cell it stood on.
    pub at: Pos,
    /// Its exit animation.
    pub anim: Anim,
    /// Every animation it had in the step, in phase order, `anim` last (earlier ones are
    /// moves before it left, e.g. a fall in an earlier cascade level).
    pub trail: Vec<Anim>,
}
