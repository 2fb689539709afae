//! The tactics mirror projection: every map cell is [`Shape::Ground`] (its legend index and step
//! cost), units are [`Shape::Unit`]s labelled with their id; a move is a walk along its path,
//! the one stage.

use super::{STEP, TacticsEvent, TacticsRules, TacticsState};
use crate::Size;
use crate::project::{Change, Label, Layer, Look, Ops, Piece, Project, Shape, Stage};

/// A unit walks.
const WALK: Stage = Stage::new(0);

impl Project for TacticsRules {
    type State = TacticsState;
    type Event = TacticsEvent;

    fn size(state: &TacticsState) -> Size {
        state.size()
    }

    fn pieces(state: &TacticsState) -> impl Iterator<Item = Piece> + '_ {
        let terrain = state.terrain();
        let size = terrain.size();
        // Every cell has ground, in row-major order.
        let ground = terrain.cells().cells().iter().zip(terrain.multipliers()).enumerate().map(
            move |(i, (&index, &mul))| Piece {
                cell: size.pos(i),
                layer: Layer::Ground,
                id: None,
                look: Look::new(Shape::Ground { index, cost: STEP * u64::from(mul) }, None),
            },
        );
        ground.chain(state.units().iter().map(|u| Piece {
            cell: u.pos,
            layer: Layer::Piece,
            id: Some(u.id),
            look: Look::new(
                Shape::Unit { team: u.team, movement: u.movement, left: u.left },
                Some(Label::Number(u.id.0)),
            ),
        }))
    }

    fn ops(event: &TacticsEvent, out: &mut Ops) {
        match *event {
            TacticsEvent::UnitMoved { unit, ref path, cost } => out.walk(unit, path, cost, WALK),
            TacticsEvent::MovementRestored { unit, from, to } => {
                out.change(unit, None, Change::Left { before: from, after: to }, None);
            }
            TacticsEvent::TurnEnded { .. } => {}
        }
    }
}
