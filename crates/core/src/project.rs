//! The mirror projection: the generic vocabulary in which a rule set shows itself to views.
//!
//! A view (the `tessera-ecs` mirror, the editor's board) knows no rule set. Each rule set
//! implements [`Project`] in its own folder (`<game>/mirror.rs`):
//! - **state → pieces**: every piece and ground cell as a [`Piece`] (its cell, its [`Layer`], its
//!   game id, and its [`Look`]: a generic [`Shape`] plus an optional [`Label`]), as an iterator
//!   a [`PieceVisitor`] can run more than once (no buffer of a million pieces for a big map);
//! - **event → ops**: each event as a short list of [`Op`]s (pieces move, walk, appear, leave,
//!   change look, a column of pieces shifts) written into an [`Ops`] buffer the caller owns and
//!   reuses, so projecting an event allocates nothing once warm.
//!
//! Ops describe an event going forward and carry what undoing it needs: a [`Op::Despawn`]
//! carries the look the piece comes back with, a [`Change`] both its values, an [`Item`] both
//! cells. A follower unapplies an event by taking its ops in reverse order, each inverted: a move
//! runs `to → from` (a walk along the reversed path), a spawn becomes a despawn and back, a change
//! swaps `before` and `after`, a column shift goes back. [`Item::oriented`] and
//! [`Change::oriented`] give the fields for either direction.
//!
//! Animations: every op that animates says how ([`AnimKind`]) and in which [`Stage`]; a follower
//! starts a new animation phase whenever the stage differs from the previous animating op's
//! (stages with a `level` also differ by level). The registry's
//! [`project_state`](crate::project_state) and [`project_event`](crate::project_event) dispatch
//! over `AnyState`/`AnyEvent`.
//!
//! No hecs and no egui here: colours and hecs components are the views' business.
//!
//! The mirror projection, how a rule set shows itself to views without them knowing it: `Piece`
//! (cell, `Layer`, game id, `Look` = a generic `Shape` — numbered tile, square or disc of a hue
//! with a lock flag, unit with team and movement bar, void, ground of a legend index — and an
//! optional `Label`), `Op`s written into a reused `Ops` buffer (move, walk, spawn, despawn, change
//! look, shift a column; each with its `AnimKind` and `Stage`, and enough to be inverted: a despawn
//! carries the look it comes back with, a change its before and after), and the `Project` trait
//! that each rule set implements in its own `mirror.rs` (state → an iterator of pieces, which a
//! follower may run more than once; event → ops; `Plugin::Rules` must implement it). The registry
//! generates `project_state` (hands the size and the pieces' iterator to a `PieceVisitor`: static
//! dispatch, no buffer of pieces) and `project_event`, the dispatch over `AnyState`/`AnyEvent`.

use crate::{Id, Pos, Size};

/// Which per-cell index an entity is in: one ground entity and one piece per cell at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    /// Cells that never move (voids, terrain), drawn first; they have no game id.
    Ground,
    /// Pieces (tiles, blocks, units), drawn over the ground; each has a game id.
    Piece,
}

/// What a piece or a ground cell looks like, generically: the view chooses the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// A numbered tile whose colours follow its value (the classic 2048 palette).
    Tile {
        /// Its value.
        value: u32,
    },
    /// A rounded square of one of the view's hues.
    Square {
        /// The hue's index.
        colour: u8,
        /// Whether it carries a lock.
        locked: bool,
    },
    /// A disc of one of the view's hues.
    Disc {
        /// The hue's index.
        colour: u8,
        /// Whether it carries a lock.
        locked: bool,
    },
    /// A unit: a disc of its team's hue with a white rim and a bar of movement left.
    Unit {
        /// Its team (a hue's index).
        team: u8,
        /// Movement per turn (the bar's full length), fixed point.
        movement: u64,
        /// Movement left (the bar's filled part), fixed point.
        left: u64,
    },
    /// A cell that is not part of the board (drawn dark; a ground cell).
    Void,
    /// A ground cell of terrain type `index` (the view colours it from the game's legend).
    Ground {
        /// The type's index in the legend.
        index: u8,
        /// The cost of one orthogonal step onto the cell, fixed point; 0 when impassable.
        cost: u64,
    },
}

/// The text a piece shows over its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Label {
    /// A number (a tile's value, a unit's id).
    Number(u32),
    /// One character (a colour's letter).
    Char(char),
}

/// What an entity looks like: a [`Shape`] and an optional [`Label`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Look {
    /// The shape and its colour.
    pub shape: Shape,
    /// The text over it, if any.
    pub label: Option<Label>,
}

impl Look {
    /// A look.
    pub const fn new(shape: Shape, label: Option<Label>) -> Look {
        Look { shape, label }
    }
}

/// A piece or ground cell as a view sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its cell.
    pub cell: Pos,
    /// Its layer: a [`Layer::Piece`] has a game id, a [`Layer::Ground`] none (followers ignore
    /// an id on the ground and a piece without one).
    pub layer: Layer,
    /// The game's stable id of a piece.
    pub id: Option<Id>,
    /// What it looks like.
    pub look: Look,
}

/// What an animation shows (how a view poses the entity over its phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AnimKind {
    /// A piece moved in a straight line to another cell without merging (a 2048 tile sliding,
    /// a Sokoban player stepping or a box pushed).
    Glide,
    /// Two tiles became one: the survivor moves `from → to`; the absorbed tile's ghost moves to
    /// the same `to` and vanishes (with a pop when it lands).
    Merge,
    /// A piece fell down its column.
    Fall,
    /// A new piece appeared at `to` (`from == to`): it grows in.
    Spawn,
    /// A piece was cleared or matched away at `from` (`from == to`): it shrinks out; only
    /// ghosts carry it going forward.
    Clear,
    /// Two pieces swapped.
    Swap,
    /// A swap going there and back within its phase.
    SwapBack,
    /// A shuffle moved the piece.
    Shuffle,
    /// A column of pieces moved sideways.
    ColumnShift,
    /// A piece lost its lock (`from == to`): the lock fades halfway through.
    Unlock,
    /// A unit walked a path cell by cell.
    Walk,
}

/// Which phase group an animating op belongs to: a follower starts a new phase whenever an
/// animating op's stage differs from the previous one's (`group`, or both `level`s set and
/// different; an op without a level joins the current level of its group).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    /// The kind of thing happening, numbered by the rule set.
    pub group: u8,
    /// A sub-division of the group (a cascade level), if any.
    pub level: Option<u32>,
}

impl Stage {
    /// A stage without levels.
    pub const fn new(group: u8) -> Stage {
        Stage { group, level: None }
    }

    /// A stage of `group` at `level`.
    pub const fn at_level(group: u8, level: u32) -> Stage {
        Stage { group, level: Some(level) }
    }
}

/// One piece in an op: its id and two cells. For [`Op::Move`] the piece moves `from → to`; for
/// [`Op::Spawn`] it appears at `to`, animated from `from`; for [`Op::Despawn`] it leaves `from`,
/// its ghost animated towards `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    /// The piece's game id.
    pub id: Id,
    /// See the type's docs.
    pub from: Pos,
    /// See the type's docs.
    pub to: Pos,
}

impl Item {
    /// An item that stays on one cell (a spawn or a clear in place).
    pub const fn at(id: Id, at: Pos) -> Item {
        Item { id, from: at, to: at }
    }

    /// `(id, from, to)` going forward, `(id, to, from)` going backward.
    pub const fn oriented(self, forward: bool) -> (Id, Pos, Pos) {
        if forward { (self.id, self.from, self.to) } else { (self.id, self.to, self.from) }
    }
}

/// A change of a piece's look, with the value before and after (so it can be undone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The whole look (any shape).
    Look {
        /// Before.
        before: Look,
        /// After.
        after: Look,
    },
    /// The lock flag of a [`Shape::Square`] or [`Shape::Disc`].
    Lock {
        /// Before.
        before: bool,
        /// After.
        after: bool,
    },
    /// The hue and label of a [`Shape::Square`] or [`Shape::Disc`].
    Colour {
        /// Before.
        before: (u8, Option<Label>),
        /// After.
        after: (u8, Option<Label>),
    },
    /// The movement left of a [`Shape::Unit`].
    Left {
        /// Before.
        before: u64,
        /// After.
        after: u64,
    },
}

impl Change {
    /// The change going forward, or its inverse going backward.
    pub const fn oriented(self, forward: bool) -> Change {
        if forward {
            return self;
        }
        match self {
            Change::Look { before, after } => Change::Look { before: after, after: before },
            Change::Lock { before, after } => Change::Lock { before: after, after: before },
            Change::Colour { before, after } => Change::Colour { before: after, after: before },
            Change::Left { before, after } => Change::Left { before: after, after: before },
        }
    }

    /// Whether the change applies to a piece of `shape` (a lock or a colour only to squares
    /// and discs, movement only to units, a whole look to anything).
    pub const fn fits(&self, shape: &Shape) -> bool {
        match self {
            Change::Look { .. } => true,
            Change::Lock { .. } | Change::Colour { .. } => {
                matches!(shape, Shape::Square { .. } | Shape::Disc { .. })
            }
            Change::Left { .. } => matches!(shape, Shape::Unit { .. }),
        }
    }

    /// Sets the change's `after` value on `look` (call [`Change::oriented`] first to undo).
    pub fn apply_to(&self, look: &mut Look) {
        match (*self, &mut look.shape) {
            (Change::Look { after, .. }, _) => *look = after,
            (Change::Lock { after, .. }, Shape::Square { locked, .. } | Shape::Disc { locked, .. }) => {
                *locked = after
            }
            (Change::Colour { after, .. }, Shape::Square { colour, .. } | Shape::Disc { colour, .. }) => {
                *colour = after.0;
                look.label = after.1;
            }
            (Change::Left { after, .. }, Shape::Unit { left, .. }) => *left = after,
            _ => {}
        }
    }
}

/// A range of an [`Ops`] buffer's items or cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The number of entries.
    pub const fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether it has none.
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// One generic mirror operation (see the module docs for how each one is undone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Pieces move at once, each `from → to`: a destination must be free or left by one of the
    /// moving pieces, destinations and ids must differ. Nothing animates when there are none.
    Move {
        /// The pieces ([`Ops::items`]).
        items: Span,
        /// Their animation.
        anim: AnimKind,
        /// Its stage.
        stage: Stage,
    },
    /// A [`Shape::Unit`] walks `path` (its first cell to its last, [`AnimKind::Walk`]) and
    /// spends `spend` of its movement left (saturating).
    Walk {
        /// The unit.
        id: Id,
        /// Every cell walked ([`Ops::cells`]); an empty path does not fit.
        path: Span,
        /// The movement spent.
        spend: u64,
        /// Its stage.
        stage: Stage,
    },
    /// New pieces of `look` appear (on free cells, with new ids, all different).
    Spawn {
        /// The pieces ([`Ops::items`]).
        items: Span,
        /// Their look.
        look: Look,
        /// Their animation.
        anim: AnimKind,
        /// Its stage.
        stage: Stage,
    },
    /// Pieces leave the board (each must be on its `from`); `look` is what they come back as
    /// when the op is undone.
    Despawn {
        /// The pieces ([`Ops::items`]).
        items: Span,
        /// Their look, to come back with.
        look: Look,
        /// Their exit animation.
        anim: AnimKind,
        /// Its stage.
        stage: Stage,
    },
    /// A piece's look changes (found on `at`, or by id alone when `at` is `None`); animated in
    /// place when `anim` is set.
    Change {
        /// The piece.
        id: Id,
        /// The cell it must be on, if the event names one.
        at: Option<Pos>,
        /// What changes.
        change: Change,
        /// Its animation and stage, if it animates.
        anim: Option<(AnimKind, Stage)>,
    },
    /// The pieces of column `from`, from the bottom row up to the first empty cell, move to
    /// column `to` (same rows; the cells there must be free).
    ShiftColumn {
        /// The column they leave.
        from: u16,
        /// The column they go to.
        to: u16,
        /// Their animation.
        anim: AnimKind,
        /// Its stage.
        stage: Stage,
    },
}

/// A buffer of ops, with the items and cells they refer to; cleared and reused per event.
#[derive(Clone, Debug, Default)]
pub struct Ops {
    ops: Vec<Op>,
    items: Vec<Item>,
    cells: Vec<Pos>,
}

impl Ops {
    /// Empties the buffer, keeping its memory.
    pub fn clear(&mut self) {
        self.ops.clear();
        self.items.clear();
        self.cells.clear();
    }

    /// The ops, in forward order.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// The items of an op.
    pub fn items(&self, span: Span) -> &[Item] {
        self.items.get(span.start as usize..span.end as usize).unwrap_or(&[])
    }

    /// The cells of an op (a walk's path).
    pub fn cells(&self, span: Span) -> &[Pos] {
        self.cells.get(span.start as usize..span.end as usize).unwrap_or(&[])
    }

    fn push_items(&mut self, items: impl IntoIterator<Item = Item>) -> Span {
        let start = self.items.len() as u32;
        self.items.extend(items);
        Span { start, end: self.items.len() as u32 }
    }

    /// Pieces move at once ([`Op::Move`]).
    pub fn moves(&mut self, items: impl IntoIterator<Item = Item>, anim: AnimKind, stage: Stage) {
        let items = self.push_items(items);
        self.ops.push(Op::Move { items, anim, stage });
    }

    /// One piece moves `from → to`.
    pub fn move_one(&mut self, id: Id, from: Pos, to: Pos, anim: AnimKind, stage: Stage) {
        self.moves([Item { id, from, to }], anim, stage);
    }

    /// A unit walks `path` ([`Op::Walk`]).
    pub fn walk(&mut self, id: Id, path: &[Pos], spend: u64, stage: Stage) {
        let start = self.cells.len() as u32;
        self.cells.extend_from_slice(path);
        let path = Span { start, end: self.cells.len() as u32 };
        self.ops.push(Op::Walk { id, path, spend, stage });
    }

    /// New pieces appear ([`Op::Spawn`]).
    pub fn spawn(&mut self, items: impl IntoIterator<Item = Item>, look: Look, anim: AnimKind, stage: Stage) {
        let items = self.push_items(items);
        self.ops.push(Op::Spawn { items, look, anim, stage });
    }

    /// Pieces leave ([`Op::Despawn`]).
    pub fn despawn(
        &mut self,
        items: impl IntoIterator<Item = Item>,
        look: Look,
        anim: AnimKind,
        stage: Stage,
    ) {
        let items = self.push_items(items);
        self.ops.push(Op::Despawn { items, look, anim, stage });
    }

    /// A piece's look changes ([`Op::Change`]).
    pub fn change(&mut self, id: Id, at: Option<Pos>, change: Change, anim: Option<(AnimKind, Stage)>) {
        self.ops.push(Op::Change { id, at, change, anim });
    }

    /// A column of pieces shifts ([`Op::ShiftColumn`]).
    pub fn shift_column(&mut self, from: u16, to: u16, anim: AnimKind, stage: Stage) {
        self.ops.push(Op::ShiftColumn { from, to, anim, stage });
    }
}

/// What takes a state's pieces from [`project_state`](crate::project_state): a visitor, so that
/// each rule set's [`Project::pieces`] iterator reaches it with its own type (static dispatch,
/// no buffer).
pub trait PieceVisitor {
    /// What the visit makes.
    type Output;

    /// Called once with the board's size and a way to run the pieces' iterator (as often as
    /// the visitor needs).
    fn visit<I: Iterator<Item = Piece>>(self, size: Size, pieces: impl Fn() -> I) -> Self::Output;
}

/// A rule set's mirror projection (implemented in each rule set's `mirror.rs`).
pub trait Project {
    /// The rule set's state.
    type State;
    /// The rule set's event.
    type Event;

    /// The board's size.
    fn size(state: &Self::State) -> Size;

    /// Every ground cell and piece of `state`, in any order. A follower may run it more than
    /// once (a counting pass, then one per layer) rather than hold a million pieces in a buffer:
    /// it must yield the same pieces each time, and be cheap to run again.
    fn pieces(state: &Self::State) -> impl Iterator<Item = Piece> + '_;

    /// Pushes the ops of `event` (going forward) onto `out`; events that show nothing (scores,
    /// turn ends) push none.
    fn ops(event: &Self::Event, out: &mut Ops);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(colour: u8, locked: bool) -> Look {
        Look::new(Shape::Disc { colour, locked }, Some(Label::Char(char::from(b'A' + colour))))
    }

    /// A change carried out forward then backward restores the look; it only fits the shapes it
    /// is about.
    #[test]
    fn changes_invert_and_fit_only_their_shapes() {
        let before = disc(1, true);
        let changes = [
            Change::Lock { before: true, after: false },
            Change::Colour { before: (1, Some(Label::Char('B'))), after: (4, Some(Label::Char('E'))) },
            Change::Look { before, after: disc(2, false) },
        ];
        for change in changes {
            let mut look = before;
            assert!(change.fits(&look.shape));
            change.apply_to(&mut look);
            assert_ne!(look, before, "{change:?}");
            change.oriented(false).apply_to(&mut look);
            assert_eq!(look, before, "{change:?}");
        }
        assert_eq!(
            {
                let mut l = disc(1, false);
                changes[1].apply_to(&mut l);
                l
            },
            disc(4, false)
        );
        let unit = Shape::Unit { team: 0, movement: 3000, left: 1000 };
        assert!(Change::Left { before: 1000, after: 3000 }.fits(&unit));
        assert!(!Change::Lock { before: true, after: false }.fits(&unit));
        assert!(!Change::Left { before: 1, after: 2 }.fits(&Shape::Tile { value: 2 }));
    }

    /// Items, spans and the buffer: what an op refers to is read back in order, and an item
    /// reads backward with its cells swapped.
    #[test]
    fn ops_keep_their_items_and_paths() {
        let (a, b) = (Pos::new(0, 1), Pos::new(2, 1));
        let mut ops = Ops::default();
        ops.move_one(Id(3), a, b, AnimKind::Fall, Stage::new(1));
        ops.walk(Id(4), &[a, Pos::new(1, 1), b], 2000, Stage::new(0));
        let [Op::Move { items, .. }, Op::Walk { path, .. }] = ops.ops() else { panic!("{:?}", ops.ops()) };
        assert_eq!(ops.items(*items), &[Item { id: Id(3), from: a, to: b }]);
        assert_eq!(ops.items(*items)[0].oriented(false), (Id(3), b, a));
        assert_eq!(ops.cells(*path).len(), 3);
        ops.clear();
        assert!(ops.ops().is_empty());
    }
}
