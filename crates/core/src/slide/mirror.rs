//! The 2048 mirror projection: tiles are numbered [`Shape::Tile`]s; moves and merges share one
//! stage, the spawn is the next.

use super::{SlideEvent, SlideRules, SlideState};
use crate::Size;
use crate::project::{AnimKind, Change, Item, Label, Layer, Look, Ops, Piece, Project, Shape, Stage};

/// Moves and merges.
const MOVE: Stage = Stage::new(0);
/// The new tile.
const SPAWN: Stage = Stage::new(1);

/// A tile of `value`: numbered with its value.
const fn tile(value: u32) -> Look {
    Look::new(Shape::Tile { value }, Some(Label::Number(value)))
}

impl Project for SlideRules {
    type State = SlideState;
    type Event = SlideEvent;

    fn size(state: &SlideState) -> Size {
        state.size()
    }

    fn pieces(state: &SlideState) -> impl Iterator<Item = Piece> + '_ {
        state.tiles().map(|(cell, t)| Piece {
            cell,
            layer: Layer::Piece,
            id: Some(t.id),
            look: tile(t.value),
        })
    }

    fn ops(event: &SlideEvent, out: &mut Ops) {
        match *event {
            SlideEvent::Moved { tile, from, to } => out.move_one(tile, from, to, AnimKind::Glide, MOVE),
            SlideEvent::Merged { tile: survivor, from, absorbed, absorbed_from, to, value, .. } => {
                // The absorbed tile slides into `to` and goes; the survivor doubles and moves
                // from → to (equal for a single combine). Undone: the survivor halves and moves
                // back, the absorbed tile comes back from `to` to its cell.
                let half = tile(value / 2);
                out.despawn([Item { id: absorbed, from: absorbed_from, to }], half, AnimKind::Merge, MOVE);
                out.change(survivor, Some(from), Change::Look { before: half, after: tile(value) }, None);
                out.move_one(survivor, from, to, AnimKind::Merge, MOVE);
            }
            SlideEvent::Spawned { tile: id, at, value, .. } => {
                out.spawn([Item::at(id, at)], tile(value), AnimKind::Spawn, SPAWN);
            }
            SlideEvent::Scored { .. } | SlideEvent::Won { .. } | SlideEvent::GameOver => {}
        }
    }
}
