//! The Sokoban mirror projection: every cell is [`Shape::Ground`] (index 0 wall, 1 floor,
//! 2 goal; nothing to spend), boxes are [`Shape::Square`]s, the player is a [`Shape::Unit`] (so
//! a walk animates along its path) with the id [`PLAYER`]. A step, a push and a walk are one
//! stage: the player and the box it pushes move together.

use super::{Cell, SokobanEvent, SokobanRules, SokobanState};
use crate::project::{AnimKind, Layer, Look, Ops, Piece, Project, Shape, Stage};
use crate::{Id, Size};

/// The player's game id in the mirror (box ids are below the board's area).
pub const PLAYER: Id = Id(u32::MAX);

/// Everything moves at once.
const MOVE: Stage = Stage::new(0);

/// A box.
const BOX: Look = Look::new(Shape::Square { colour: 1, locked: false }, None);

/// The player.
const PLAYER_LOOK: Look = Look::new(Shape::Unit { team: 0, movement: 0, left: 0 }, None);

/// The ground index of a cell.
pub const fn ground_index(cell: Cell) -> u8 {
    match cell {
        Cell::Wall => 0,
        Cell::Floor => 1,
        Cell::Goal => 2,
    }
}

impl Project for SokobanRules {
    type State = SokobanState;
    type Event = SokobanEvent;

    fn size(state: &SokobanState) -> Size {
        state.size()
    }

    fn pieces(state: &SokobanState) -> impl Iterator<Item = Piece> + '_ {
        let size = state.size();
        let ground = state.cells().cells().iter().enumerate().map(move |(i, &cell)| Piece {
            cell: size.pos(i),
            layer: Layer::Ground,
            id: None,
            look: Look::new(Shape::Ground { index: ground_index(cell), cost: 0 }, None),
        });
        let boxes = state.boxes().cells().iter().enumerate().filter_map(move |(i, id)| {
            id.map(|id| Piece { cell: size.pos(i), layer: Layer::Piece, id: Some(id), look: BOX })
        });
        let player = Piece { cell: state.player(), layer: Layer::Piece, id: Some(PLAYER), look: PLAYER_LOOK };
        ground.chain(boxes).chain(std::iter::once(player))
    }

    fn ops(event: &SokobanEvent, out: &mut Ops) {
        match *event {
            SokobanEvent::Moved { from, to } => out.move_one(PLAYER, from, to, AnimKind::Glide, MOVE),
            SokobanEvent::Pushed { id, from, to } => out.move_one(id, from, to, AnimKind::Glide, MOVE),
            SokobanEvent::Walked { ref path } => out.walk(PLAYER, path, 0, MOVE),
            SokobanEvent::Solved => {}
        }
    }
}
