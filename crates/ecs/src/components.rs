//! The components of the mirror's entities, and the ghosts of pieces that left the board.

use tessera_core::tactics::Cost;
use tessera_core::{Id, Pos};

/// Grid position component: the cell an entity rests at after the events applied so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(pub Pos);

/// The game's stable id of a piece (slide or collapse tile, match3 block, tactics unit).
/// Ground entities (match3 void cells, tactics terrain) have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub Id);

/// What an entity is (a component every entity has).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A 2048 tile.
    SlideTile {
        /// Its value, a power of two.
        value: u32,
    },
    /// A SameGame tile.
    CollapseTile {
        /// Its colour, `0..16`.
        colour: u8,
    },
    /// A match-3 block.
    Block {
        /// Its breed, `0..16`.
        breed: u8,
        /// Whether it is locked (cannot move; a match unlocks it).
        locked: bool,
    },
    /// A match-3 void cell (one ground entity per void cell; playable cells have no ground
    /// entity).
    Void,
    /// Tactics ground: one entity per map cell.
    Terrain {
        /// The index of its type in the map's legend (`TacticsState::terrain().legend()`).
        terrain: u8,
        /// The cost of one orthogonal step onto the cell ([`tessera_core::tactics::STEP`] ×
        /// (1 + extra)); 0 when the terrain is impassable.
        cost: Cost,
    },
    /// A tactics unit.
    Unit {
        /// Its team.
        team: u8,
        /// Movement per turn, fixed point.
        movement: Cost,
        /// Movement left this turn, fixed point.
        left: Cost,
    },
}

/// Which per-cell index an entity is in: one ground entity and one piece per cell at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    /// Cells that never move: match3 voids, tactics terrain. Drawn first.
    Ground,
    /// Tiles, blocks and units. Drawn over the ground.
    Piece,
}

impl Kind {
    /// The layer of this kind: [`Kind::Void`] and [`Kind::Terrain`] are ground, the rest pieces.
    pub const fn layer(self) -> Layer {
        match self {
            Kind::Void | Kind::Terrain { .. } => Layer::Ground,
            _ => Layer::Piece,
        }
    }
}

/// What an animation shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AnimKind {
    /// A slide tile moved without merging.
    Slide,
    /// Two slide tiles became one: the survivor moves `from → to`; the absorbed tile's ghost
    /// moves to the same `to` and vanishes.
    Merge,
    /// A tile or block fell down its column.
    Fall,
    /// A new piece appeared at `to` (`from == to`).
    Spawn,
    /// A piece was cleared or matched away at `from` (`from == to`); only ghosts carry it going
    /// forward.
    Clear,
    /// A match3 swap.
    Swap,
    /// A match3 swap that made no run, going back.
    SwapBack,
    /// A match3 shuffle moved the block.
    Shuffle,
    /// A collapse column moved sideways.
    ColumnShift,
    /// A match3 block lost its lock (`from == to`).
    Unlock,
    /// A tactics unit walked [`Anim::path`].
    Walk,
}

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
/// [`Anim`]. Present exactly when [`Anim`] is. A match3 block can fall in several cascade levels
/// of one step: a view that tweens it phase by phase reads this rather than `Anim`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trail(pub Vec<Anim>);

/// A piece that left the board during the current step (cleared, matched away, absorbed in a
/// merge; or, when undoing, a spawned piece going away): kept only to draw its exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ghost {
    /// What it was when it left.
    pub kind: Kind,
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
