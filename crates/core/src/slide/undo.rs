//! Undo and checked redo of one 2048 event.

use super::*;

/// The cell at `pos`, or why there is none.
fn tile_at(b: &Grid<Tile>, pos: Pos) -> Result<Tile, Inconsistent> {
    b.get(pos)
        .copied()
        .ok_or_else(|| Inconsistent::detailed(format!("cell {pos} is off the {} board", b.size())))
}

fn describe(t: Tile) -> String {
    if t.value == 0 { "nothing".into() } else { format!("tile {} worth {}", t.id, t.value) }
}

impl SlideRules {
    /// [`Rules::undo_event`]: puts back what `event` changed.
    pub(super) fn undo_one(&self, state: &mut SlideState, event: &SlideEvent) {
        let size = state.board.size();
        let b = &mut state.board;
        match *event {
            SlideEvent::Moved { tile, from, to } => {
                let (f, t) = (size.index(from), size.index(to));
                b[from] = std::mem::replace(&mut b[to], EMPTY);
                state.exps.set(f, b[from].value);
                state.exps.set(t, 0);
                state.hash ^= pos_key(f, tile) ^ pos_key(t, tile);
            }
            SlideEvent::Merged { tile, from, absorbed, absorbed_from, to, value, .. } => {
                b[to] = EMPTY;
                b[from] = Tile { id: tile, value: value / 2 };
                b[absorbed_from] = Tile { id: absorbed, value: value / 2 };
                let (f, a, t) = (size.index(from), size.index(absorbed_from), size.index(to));
                state.exps.set(t, 0);
                state.exps.set(f, value / 2);
                state.exps.set(a, value / 2);
                state.hash ^= merge_key(tile, f, absorbed, a, t, value);
            }
            SlideEvent::Scored { points } => {
                state.hash ^=
                    field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, state.score - points);
                state.score -= points;
            }
            SlideEvent::Spawned { tile, at, value, rng } => {
                b[at] = EMPTY;
                state.exps.set(size.index(at), 0);
                let before = rng_key(&state.rng);
                state.ids.reset(tile.0);
                state.rng.set_position(rng.before);
                state.hash ^= pos_key(size.index(at), tile)
                    ^ what_key(value, tile)
                    ^ before
                    ^ rng_key(&state.rng)
                    ^ field_key(kind::IDS, u64::from(tile.0))
                    ^ field_key(kind::IDS, u64::from(tile.0) + 1);
            }
            SlideEvent::Won { .. } => {
                state.won = false;
                state.hash ^= won_key();
            }
            SlideEvent::GameOver => {}
        }
    }

    /// [`Rules::redo_event`], checked: `Inconsistent` before any change for an event that does not fit.
    pub(super) fn redo_one(&self, state: &mut SlideState, event: &SlideEvent) -> Result<(), Inconsistent> {
        let size = state.board.size();
        let b = &mut state.board;
        // The tile `id` worth `value` (any tile when `value` is 0) at `pos`, as an index.
        let holds = |b: &Grid<Tile>, pos: Pos, id: Id, value: u32| -> Result<usize, Inconsistent> {
            let t = tile_at(b, pos)?;
            if t.value == 0 || t.id != id || (value != 0 && t.value != value) {
                return Err(Inconsistent::detailed(format!(
                    "tile {id} is not at {pos} (it holds {})",
                    describe(t)
                )));
            }
            Ok(size.index(pos))
        };
        let empty = |b: &Grid<Tile>, pos: Pos| -> Result<usize, Inconsistent> {
            let t = tile_at(b, pos)?;
            if t.value != 0 {
                return Err(Inconsistent::detailed(format!(
                    "cell {pos} is not empty (it holds {})",
                    describe(t)
                )));
            }
            Ok(size.index(pos))
        };
        match *event {
            SlideEvent::Moved { tile, from, to } => {
                let f = holds(b, from, tile, 0)?;
                let t = empty(b, to)?;
                b[to] = std::mem::replace(&mut b[from], EMPTY);
                state.exps.set(t, b[to].value);
                state.exps.set(f, 0);
                state.hash ^= pos_key(f, tile) ^ pos_key(t, tile);
            }
            SlideEvent::Merged { tile, from, absorbed, absorbed_from, to, value, .. } => {
                if value < 4 || !valid_value(value) {
                    return Err(Inconsistent::detailed(format!(
                        "merged value {value} is not a power of two from 4 to 2^30"
                    )));
                }
                if from == absorbed_from {
                    return Err(Inconsistent::detailed(format!(
                        "tiles {tile} and {absorbed} both at {from}"
                    )));
                }
                let f = holds(b, from, tile, value / 2)?;
                let a = holds(b, absorbed_from, absorbed, value / 2)?;
                let t = if to == from || to == absorbed_from { size.index(to) } else { empty(b, to)? };
                b[from] = EMPTY;
                b[absorbed_from] = EMPTY;
                b[to] = Tile { id: tile, value };
                state.exps.set(f, 0);
                state.exps.set(a, 0);
                state.exps.set(t, value);
                state.hash ^= merge_key(tile, f, absorbed, a, t, value);
            }
            SlideEvent::Scored { points } => {
                let Some(score) = state.score.checked_add(points) else {
                    return Err(Inconsistent::detailed(format!(
                        "score {} + {points} overflows",
                        state.score
                    )));
                };
                state.hash ^= field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, score);
                state.score = score;
            }
            SlideEvent::Spawned { tile, at, value, rng } => {
                let i = empty(b, at)?;
                if tile != state.ids.peek() || tile.0 == u32::MAX {
                    return Err(Inconsistent::detailed(format!(
                        "spawned tile {tile} is out of order (the next id is {})",
                        state.ids.peek()
                    )));
                }
                if value != 2 && value != 4 {
                    return Err(Inconsistent::detailed(format!("spawned value {value} is not 2 or 4")));
                }
                if rng.before != state.rng.position() || rng.after < rng.before {
                    return Err(Inconsistent::detailed(format!(
                        "the generator is at word {}, the spawn drew from word {} to {}",
                        state.rng.position(),
                        rng.before,
                        rng.after
                    )));
                }
                b[at] = Tile { id: tile, value };
                state.exps.set(i, value);
                let before = rng_key(&state.rng);
                state.ids.reset(tile.0 + 1);
                state.rng.set_position(rng.after);
                state.hash ^= pos_key(i, tile)
                    ^ what_key(value, tile)
                    ^ before
                    ^ rng_key(&state.rng)
                    ^ field_key(kind::IDS, u64::from(tile.0))
                    ^ field_key(kind::IDS, u64::from(tile.0) + 1);
            }
            SlideEvent::Won { .. } => {
                if state.won {
                    return Err(Inconsistent::new("the game was already won"));
                }
                state.won = true;
                state.hash ^= won_key();
            }
            SlideEvent::GameOver => {}
        }
        Ok(())
    }
}
