//! Undo and checked redo of Sokoban's events.
//!
//! Undo reverses an event the rules produced (or a redo accepted) and is not checked, but it
//! never panics: an event naming a cell off the board changes nothing. Redo checks every event
//! against the state before changing anything and answers [`Inconsistent`] for one that does not
//! fit: a box that is not there, a cell off the board, a wall, a step that is not to a
//! neighbouring cell, a player that is not where the event starts.

use super::{SokobanEvent, SokobanState};
use crate::geom::Pos;
use crate::rules::Inconsistent;

/// Reverses one event.
pub(super) fn undo_event(state: &mut SokobanState, event: &SokobanEvent) {
    let size = state.size();
    match event {
        &SokobanEvent::Moved { from, .. } => {
            if size.contains(from) {
                state.set_player(from, -1);
            }
        }
        &SokobanEvent::Pushed { from, to, .. } => {
            if size.contains(from) && size.contains(to) {
                state.move_box(to, from, -1);
            }
        }
        SokobanEvent::Walked { path } => {
            if let Some(&start) = path.first().filter(|p| size.contains(**p)) {
                state.set_player(start, -(path.len() as i64 - 1));
            }
        }
        SokobanEvent::Solved => {}
    }
}

/// Whether `a` and `b` are orthogonal neighbours.
fn adjacent(a: Pos, b: Pos) -> bool {
    a.is_orthogonal_neighbour(b)
}

/// Checks that `at` is on the board, open and without a box, naming it otherwise.
fn check_free(state: &SokobanState, at: Pos, what: &str) -> Result<(), Inconsistent> {
    match state.cell(at) {
        None => Err(Inconsistent::detailed(format!("{what} {at} is off the {} board", state.size()))),
        Some(c) if !c.is_open() => Err(Inconsistent::detailed(format!("{what} {at} is a wall"))),
        Some(_) if state.box_at(at).is_some() => {
            Err(Inconsistent::detailed(format!("{what} {at} holds a box")))
        }
        Some(_) => Ok(()),
    }
}

/// Replays one recorded event, checked first.
pub(super) fn redo_event(state: &mut SokobanState, event: &SokobanEvent) -> Result<(), Inconsistent> {
    match event {
        &SokobanEvent::Moved { from, to } => {
            if from != state.player() {
                return Err(Inconsistent::detailed(format!(
                    "the player stands at {}, not at {from}",
                    state.player()
                )));
            }
            if !adjacent(from, to) {
                return Err(Inconsistent::detailed(format!("{to} is not a neighbour of {from}")));
            }
            check_free(state, to, "the step's cell")?;
            state.set_player(to, 1);
        }
        &SokobanEvent::Pushed { id, from, to } => {
            if state.box_at(from) != Some(id) {
                return Err(Inconsistent::detailed(format!("box {} is not at {from}", id.0)));
            }
            if !adjacent(from, to) {
                return Err(Inconsistent::detailed(format!("{to} is not a neighbour of {from}")));
            }
            check_free(state, to, "the push's cell")?;
            // The player stands behind the box: `from` is halfway between it and `to`.
            let p = state.player();
            let behind = i32::from(p.x) + i32::from(to.x) == 2 * i32::from(from.x)
                && i32::from(p.y) + i32::from(to.y) == 2 * i32::from(from.y);
            if !behind {
                return Err(Inconsistent::detailed(format!(
                    "the player at {p} is not behind the box at {from} pushed to {to}"
                )));
            }
            state.move_box(from, to, 1);
        }
        SokobanEvent::Walked { path } => {
            let Some((&start, rest)) = path.split_first() else {
                return Err(Inconsistent::new("a walk with no cells"));
            };
            if rest.is_empty() {
                return Err(Inconsistent::new("a walk of no step"));
            }
            if start != state.player() {
                return Err(Inconsistent::detailed(format!(
                    "the walk starts at {start} but the player stands at {}",
                    state.player()
                )));
            }
            let mut prev = start;
            for &p in rest {
                if !adjacent(prev, p) {
                    return Err(Inconsistent::detailed(format!("the walk jumps from {prev} to {p}")));
                }
                check_free(state, p, "the walk's cell")?;
                prev = p;
            }
            state.set_player(prev, rest.len() as i64);
        }
        SokobanEvent::Solved => {
            if !state.is_solved() {
                return Err(Inconsistent::detailed(format!(
                    "solved, but {} of {} boxes are on goals",
                    state.boxes_on_goals(),
                    state.box_count()
                )));
            }
        }
    }
    Ok(())
}
