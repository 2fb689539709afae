//! Undo and checked redo of PuzzleScript's events: `Cell` and `Aux` carry the exact before and
//! after, so undo sets the before and redo checks the before is there, then sets the after.
//! The view events (`Turn`, `Rule`, `Moved`, `Sound`, `Message`, `Cancelled`) change nothing;
//! redo checks that the cells and objects they name exist.

use super::{PuzzleScriptEvent, PuzzleScriptState};
use crate::geom::Pos;
use crate::rules::Inconsistent;

/// Reverses one event (never panics: an event that does not fit changes nothing).
pub(super) fn undo_event(state: &mut PuzzleScriptState, event: &PuzzleScriptEvent) {
    match event {
        PuzzleScriptEvent::Cell { at, before, .. }
            if state.size().contains(*at) && before.len() == state.meta().stride =>
        {
            state.set_cell(state.size().index(*at), before);
        }
        PuzzleScriptEvent::Aux { before, .. } => {
            let _ = state.set_aux(before);
        }
        PuzzleScriptEvent::Won => state.set_won(false),
        _ => {}
    }
}

/// Checks that `at` is on the board.
fn on_board(state: &PuzzleScriptState, at: Pos) -> Result<(), Inconsistent> {
    if state.size().contains(at) {
        Ok(())
    } else {
        Err(Inconsistent::detailed(format!("cell {at} is off the {} board", state.size())))
    }
}

/// Replays one recorded event, checked first.
pub(super) fn redo_event(
    state: &mut PuzzleScriptState,
    event: &PuzzleScriptEvent,
) -> Result<(), Inconsistent> {
    match event {
        PuzzleScriptEvent::Cell { at, before, after } => {
            on_board(state, *at)?;
            let stride = state.meta().stride;
            if before.len() != stride || after.len() != stride {
                return Err(Inconsistent::detailed(format!("cell {at}: objects of the wrong width")));
            }
            let index = state.size().index(*at);
            if state.engine_cell(index) != before.as_slice() {
                return Err(Inconsistent::detailed(format!(
                    "cell {at} does not hold the objects the event starts from"
                )));
            }
            let objects = state.meta().names.len();
            if super::state::bits(after).any(|o| o >= objects) {
                return Err(Inconsistent::detailed(format!("cell {at}: an object the game does not have")));
            }
            state.set_cell(index, after);
        }
        PuzzleScriptEvent::Aux { before, after } => {
            if state.aux() != *before {
                return Err(Inconsistent::new("the game's state is not the one the event starts from"));
            }
            state.set_aux(after).map_err(Inconsistent::detailed)?;
        }
        PuzzleScriptEvent::Won => {
            if state.is_won() {
                return Err(Inconsistent::new("the level is already won"));
            }
            state.set_won(true);
        }
        PuzzleScriptEvent::Rule { cells, .. } => {
            for &c in cells {
                on_board(state, c)?;
            }
        }
        PuzzleScriptEvent::Moved { object, from, to } => {
            on_board(state, *from)?;
            on_board(state, *to)?;
            if *object as usize >= state.meta().names.len() {
                return Err(Inconsistent::detailed(format!("object {object} is not one of the game's")));
            }
        }
        PuzzleScriptEvent::Turn { .. }
        | PuzzleScriptEvent::Sound { .. }
        | PuzzleScriptEvent::Message { .. }
        | PuzzleScriptEvent::Cancelled => {}
    }
    Ok(())
}
