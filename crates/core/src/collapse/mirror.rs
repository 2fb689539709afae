//! The SameGame mirror projection: tiles are [`Shape::Square`]s of their colour, lettered with
//! [`colour_char`]; the clear, the falls and the column shifts are three stages.

use super::{CollapseEvent, CollapseRules, CollapseState, colour_char};
use crate::Size;
use crate::project::{AnimKind, Item, Label, Layer, Look, Ops, Piece, Project, Shape, Stage};

/// The tapped group goes.
const CLEAR: Stage = Stage::new(0);
/// Gravity.
const FALL: Stage = Stage::new(1);
/// Column compaction.
const SHIFT: Stage = Stage::new(2);

/// A tile of `colour`.
fn square(colour: u8) -> Look {
    Look::new(Shape::Square { colour, locked: false }, Some(Label::Char(colour_char(colour))))
}

impl Project for CollapseRules {
    type State = CollapseState;
    type Event = CollapseEvent;

    fn size(state: &CollapseState) -> Size {
        state.board().size()
    }

    fn pieces(state: &CollapseState) -> impl Iterator<Item = Piece> + '_ {
        state.board().iter().filter_map(|(cell, t)| {
            t.map(|t| Piece { cell, layer: Layer::Piece, id: Some(t.id), look: square(t.colour) })
        })
    }

    fn ops(event: &CollapseEvent, out: &mut Ops) {
        match *event {
            CollapseEvent::Cleared { ref tiles, colour } => {
                out.despawn(
                    tiles.iter().map(|t| Item::at(t.id, t.at)),
                    square(colour),
                    AnimKind::Clear,
                    CLEAR,
                );
            }
            CollapseEvent::Fell { tile, from, to } => out.move_one(tile, from, to, AnimKind::Fall, FALL),
            CollapseEvent::ColumnShifted { from, to } => {
                out.shift_column(from, to, AnimKind::ColumnShift, SHIFT);
            }
            CollapseEvent::Scored { .. } | CollapseEvent::GameOver { .. } => {}
        }
    }
}
