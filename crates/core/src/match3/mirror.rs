//! The match-3 mirror projection: blocks are [`Shape::Disc`]s of their breed, lettered `A`,
//! `B`, …, with their lock; void cells are [`Shape::Void`] ground. Stages: the swap, the swap
//! going back, then per cascade level the matches and unlocks (a stage per level), the falls and
//! the spawns; then the shuffle.

use super::{Cell, Match3Event, Match3Rules, Match3State};
use crate::Size;
use crate::project::{AnimKind, Change, Item, Label, Layer, Look, Ops, Piece, Project, Shape, Stage};

const SWAP: u8 = 0;
const SWAP_BACK: u8 = 1;
/// Matches and unlocks; matches carry their cascade level.
const MATCH: u8 = 2;
const FALL: u8 = 3;
const SPAWN: u8 = 4;
const SHUFFLE: u8 = 5;

/// A breed's letter.
fn letter(breed: u8) -> Option<Label> {
    Some(Label::Char(char::from(b'A' + breed % 26)))
}

/// A block of `breed`.
fn disc(breed: u8, locked: bool) -> Look {
    Look::new(Shape::Disc { colour: breed, locked }, letter(breed))
}

impl Project for Match3Rules {
    type State = Match3State;
    type Event = Match3Event;

    fn size(state: &Match3State) -> Size {
        state.size()
    }

    fn pieces(state: &Match3State) -> impl Iterator<Item = Piece> + '_ {
        let void = Look::new(Shape::Void, None);
        let voids = state.cells().iter().filter(|(_, c)| **c == Cell::Void).map(move |(cell, _)| Piece {
            cell,
            layer: Layer::Ground,
            id: None,
            look: void,
        });
        voids.chain(state.blocks().iter().filter_map(|(cell, b)| {
            b.map(|b| Piece { cell, layer: Layer::Piece, id: Some(b.id), look: disc(b.breed, b.locked) })
        }))
    }

    fn ops(event: &Match3Event, out: &mut Ops) {
        match *event {
            Match3Event::Swapped { a, b, a_block, b_block } => out.moves(
                [Item { id: a_block, from: a, to: b }, Item { id: b_block, from: b, to: a }],
                AnimKind::Swap,
                Stage::new(SWAP),
            ),
            Match3Event::SwappedBack { a, b, a_block, b_block } => out.moves(
                [Item { id: a_block, from: b, to: a }, Item { id: b_block, from: a, to: b }],
                AnimKind::SwapBack,
                Stage::new(SWAP_BACK),
            ),
            Match3Event::Matched { ref blocks, breed, cascade } => {
                // Locked blocks of a run stay (they unlock): only the others go.
                let going = blocks.iter().filter(|mb| !mb.locked).map(|mb| Item::at(mb.block, mb.at));
                out.despawn(going, disc(breed, false), AnimKind::Clear, Stage::at_level(MATCH, cascade));
            }
            Match3Event::Unlocked { block, at } => out.change(
                block,
                Some(at),
                Change::Lock { before: true, after: false },
                Some((AnimKind::Unlock, Stage::new(MATCH))),
            ),
            Match3Event::Fell { block, from, to } => {
                out.move_one(block, from, to, AnimKind::Fall, Stage::new(FALL));
            }
            Match3Event::Spawned { block, at, breed, .. } => {
                out.spawn([Item::at(block, at)], disc(breed, false), AnimKind::Spawn, Stage::new(SPAWN));
            }
            Match3Event::Shuffled { ref blocks, .. } => out.moves(
                blocks.iter().map(|sb| Item { id: sb.block, from: sb.from, to: sb.to }),
                AnimKind::Shuffle,
                Stage::new(SHUFFLE),
            ),
            Match3Event::Recoloured { block, at, from, to } => out.change(
                block,
                Some(at),
                Change::Colour { before: (from, letter(from)), after: (to, letter(to)) },
                None,
            ),
            Match3Event::Scored { .. } | Match3Event::Won { .. } | Match3Event::GameOver { .. } => {}
        }
    }
}
