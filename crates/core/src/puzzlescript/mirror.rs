//! The PuzzleScript mirror projection: one [`Shape::Square`] piece per cell that holds any
//! object, its hue the highest object index there (views that know the game draw the objects'
//! sprites from the state instead), its game id made of its cell (`y << 16 | x`), so a fresh
//! mirror and a followed one agree. A `Cell` event spawns the piece of a cell that gains its first
//! object, despawns the piece of a cell that loses its last, and changes the look of the others.

use super::{PuzzleScriptEvent, PuzzleScriptRules, PuzzleScriptState};
use crate::project::{AnimKind, Change, Item, Layer, Look, Ops, Piece, Project, Shape, Stage};
use crate::{Id, Pos, Size};

/// Every change in one stage.
const TURN: Stage = Stage::new(0);

/// The look of a cell holding `words` (bit `k` for object `k`), `None` when empty.
pub fn cell_look(words: &[u64]) -> Option<Look> {
    let top = words
        .iter()
        .enumerate()
        .rev()
        .find(|(_, w)| **w != 0)
        .map(|(i, w)| i * 64 + 63 - w.leading_zeros() as usize)?;
    Some(Look::new(Shape::Square { colour: (top % 256) as u8, locked: false }, None))
}

/// The game id of the piece at `p`.
pub const fn piece_id(p: Pos) -> Id {
    Id((p.y as u32) << 16 | p.x as u32)
}

impl Project for PuzzleScriptRules {
    type State = PuzzleScriptState;
    type Event = PuzzleScriptEvent;

    fn size(state: &PuzzleScriptState) -> Size {
        state.size()
    }

    fn pieces(state: &PuzzleScriptState) -> impl Iterator<Item = Piece> + '_ {
        let size = state.size();
        (0..size.area()).filter_map(move |i| {
            let cell = size.pos(i);
            let look = cell_look(state.engine_cell(i))?;
            Some(Piece { cell, layer: Layer::Piece, id: Some(piece_id(cell)), look })
        })
    }

    fn ops(event: &PuzzleScriptEvent, out: &mut Ops) {
        let PuzzleScriptEvent::Cell { at, before, after } = event else { return };
        let id = piece_id(*at);
        match (cell_look(before), cell_look(after)) {
            (None, Some(look)) => out.spawn([Item::at(id, *at)], look, AnimKind::Spawn, TURN),
            (Some(look), None) => out.despawn([Item::at(id, *at)], look, AnimKind::Clear, TURN),
            (Some(b), Some(a)) if a != b => {
                out.change(id, Some(*at), Change::Look { before: b, after: a }, None);
            }
            _ => {}
        }
    }
}
