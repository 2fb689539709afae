//! Undo and checked redo of one SameGame event.

use super::*;

fn describe(cell: Option<Tile>) -> String {
    match cell {
        None => "nothing".into(),
        Some(t) => format!("tile {} of colour {}", t.id, t.colour),
    }
}

impl CollapseRules {
    /// [`Rules::undo_event`]: puts back what `event` changed.
    pub(super) fn undo_one(&self, state: &mut CollapseState, event: &CollapseEvent) {
        let (w, h) = (usize::from(state.board.width()), usize::from(state.board.height()));
        let size = state.board.size();
        let b = &mut state.board;
        match event {
            CollapseEvent::Cleared { tiles, colour } => {
                for t in tiles {
                    if let Some(c) = b.get_mut(t.at) {
                        let tile = Tile { id: t.id, colour: *colour };
                        *c = Some(tile);
                        state.hash ^= tile_key(size.index(t.at), tile);
                    }
                }
            }
            &CollapseEvent::Fell { from, to, .. } => {
                if size.contains(from) && size.contains(to) {
                    b[from] = b[to].take();
                    if let Some(t) = b[from] {
                        state.hash ^= pos_key(size.index(from), t.id) ^ pos_key(size.index(to), t.id);
                    }
                }
            }
            &CollapseEvent::ColumnShifted { from, to } => {
                if usize::from(from) < w && usize::from(to) < w {
                    state.hash ^= move_column(b.cells_mut(), w, h, usize::from(to), usize::from(from));
                }
            }
            CollapseEvent::Scored { points, bonus } => {
                let score = state.score.saturating_sub(points + bonus);
                state.hash ^= field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, score);
                state.score = score;
            }
            CollapseEvent::GameOver { .. } => {}
        }
    }

    /// [`Rules::redo_event`], checked: `Inconsistent` before any change for an event that does not fit.
    pub(super) fn redo_one(
        &self,
        state: &mut CollapseState,
        event: &CollapseEvent,
    ) -> Result<(), Inconsistent> {
        let (w, h) = (usize::from(state.board.width()), usize::from(state.board.height()));
        let size = state.board.size();
        let b = &mut state.board;
        let off = |p: Pos| Inconsistent::detailed(format!("cell {p} is off the {size} board"));
        match event {
            CollapseEvent::Cleared { tiles, colour } => {
                // Cleared one by one, each checked against the board as it is then (so a tile
                // listed twice is caught); on a misfit the ones cleared are put back.
                let mut hash = 0;
                for (k, t) in tiles.iter().enumerate() {
                    let tile = Tile { id: t.id, colour: *colour };
                    let found = b.get(t.at).copied();
                    if found != Some(Some(tile)) {
                        for u in &tiles[..k] {
                            b[u.at] = Some(Tile { id: u.id, colour: *colour });
                        }
                        return Err(match found {
                            None => off(t.at),
                            Some(other) => Inconsistent::detailed(format!(
                                "tile {} of colour {colour} is not at {} (it holds {})",
                                t.id,
                                t.at,
                                describe(other)
                            )),
                        });
                    }
                    b[t.at] = None;
                    hash ^= tile_key(size.index(t.at), tile);
                }
                state.hash ^= hash;
            }
            &CollapseEvent::Fell { tile, from, to } => {
                let (Some(&src), Some(&dst)) = (b.get(from), b.get(to)) else {
                    return Err(off(if size.contains(from) { to } else { from }));
                };
                if src.map(|t| t.id) != Some(tile) {
                    return Err(Inconsistent::detailed(format!(
                        "tile {tile} is not at {from} (it holds {})",
                        describe(src)
                    )));
                }
                if dst.is_some() {
                    return Err(Inconsistent::detailed(format!(
                        "cell {to} is not empty (it holds {})",
                        describe(dst)
                    )));
                }
                b[to] = b[from].take();
                state.hash ^= pos_key(size.index(from), tile) ^ pos_key(size.index(to), tile);
            }
            &CollapseEvent::ColumnShifted { from, to } => {
                let (f, t) = (usize::from(from), usize::from(to));
                if f >= w || t >= w || f == t {
                    return Err(Inconsistent::detailed(format!(
                        "column shift {from} to {to} on a board {w} wide"
                    )));
                }
                if (0..h).any(|y| b.cells()[y * w + t].is_some()) {
                    return Err(Inconsistent::detailed(format!("column {to} is not empty")));
                }
                state.hash ^= move_column(b.cells_mut(), w, h, f, t);
            }
            CollapseEvent::Scored { points, bonus } => {
                let Some(score) = points.checked_add(*bonus).and_then(|p| state.score.checked_add(p)) else {
                    return Err(Inconsistent::detailed(format!(
                        "score {} + {points} + {bonus} overflows",
                        state.score
                    )));
                };
                state.hash ^= field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, score);
                state.score = score;
            }
            CollapseEvent::GameOver { .. } => {}
        }
        Ok(())
    }
}
