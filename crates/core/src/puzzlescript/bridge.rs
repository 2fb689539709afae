//! Between the tessera rule set and the engine: the engine stores boards column-major (as the
//! reference does) and keeps more than the board in its state; the rule set speaks row-major
//! cells and treats everything but the board as one encoded value (`Aux`).

use super::engine::{self, Game, State, Trace, TraceEvent, TurnOutcome};
use super::state::Meta;
use super::{MAX_SIDE, PuzzleScriptEvent, source};
use crate::{Pos, Size};
use serde::{Deserialize, Serialize};

/// The engine's index of row-major cell `index`.
fn column_major(meta: &Meta, index: usize) -> usize {
    let w = usize::from(meta.size.width).max(1);
    let h = usize::from(meta.size.height);
    (index % w) * h + index / w
}

/// The position of the engine's cell `cell`.
fn pos_of(meta: &Meta, cell: usize) -> Pos {
    let h = usize::from(meta.size.height).max(1);
    Pos::new((cell / h) as u16, (cell % h) as u16)
}

/// The objects of row-major cell `index` (empty when off the board).
pub(super) fn cell<'a>(state: &'a State, meta: &Meta, index: usize) -> &'a [u64] {
    let s = meta.stride;
    let j = column_major(meta, index);
    state.cells.get(j * s..(j + 1) * s).unwrap_or(&[])
}

/// Sets the objects of row-major cell `index` (nothing when off the board).
pub(super) fn set_cell(state: &mut State, meta: &Meta, index: usize, words: &[u64]) {
    let s = meta.stride;
    let j = column_major(meta, index);
    if let Some(cell) = state.cells.get_mut(j * s..(j + 1) * s)
        && cell.len() == words.len()
    {
        cell.copy_from_slice(words);
    }
}

/// Everything of the engine's state but the board.
#[derive(Serialize, Deserialize)]
struct Aux {
    level: usize,
    movements: Vec<u8>,
    rng: engine::Rng,
    seed: String,
    restart_cells: Vec<u64>,
    text_mode: bool,
    title_screen: bool,
}

/// The rest of `state`, encoded (canonical bincode).
pub(super) fn aux(state: &State) -> Vec<u8> {
    let aux = (
        state.level,
        &state.movements,
        &state.rng,
        &state.seed,
        &state.restart_cells,
        state.text_mode,
        state.title_screen,
    );
    crate::canonical_bytes(&aux)
}

/// Sets the rest of `state` from its encoding; an encoding that is not one of this board's is
/// an error and changes nothing.
pub(super) fn set_aux(state: &mut State, bytes: &[u8]) -> Result<(), String> {
    let (aux, used): (Aux, usize) = bincode::serde::decode_from_slice(bytes, crate::canonical_config())
        .map_err(|e| format!("the game's state does not decode: {e}"))?;
    if used != bytes.len() {
        return Err("the game's state has trailing bytes".into());
    }
    if aux.restart_cells.len() != state.cells.len() || aux.movements.len() != state.movements.len() {
        return Err("the game's state is of another board".into());
    }
    state.level = aux.level;
    state.movements = aux.movements;
    state.rng = aux.rng;
    state.seed = aux.seed;
    state.restart_cells = aux.restart_cells;
    state.text_mode = aux.text_mode;
    state.title_screen = aux.title_screen;
    Ok(())
}

/// Reseeds the generator from `seed`.
pub(super) fn reseed(state: &mut State, seed: &str) {
    state.rng = engine::Rng::new(seed);
    state.seed = seed.to_string();
}

/// What views need of `game` with a board like `state`'s; an error for a board larger than
/// [`MAX_SIDE`].
pub(super) fn meta(game: &Game, state: &State, source_text: &str) -> Result<Meta, String> {
    let size = Size::new(state.width, state.height, MAX_SIDE as u16).map_err(|e| format!("the level's board: {e}"))?;
    let names: Vec<String> = game.objects().iter().map(|o| o.name.clone()).collect();
    let layers = game.objects().iter().map(|o| o.layer as u32).collect();
    let glyphs = source::glyph_words(source_text, game);
    Ok(Meta { size, stride: state.stride, names, layers, glyphs })
}

/// Whether `state`'s board has `meta`'s shape (a keyframe's check).
pub(super) fn check_shape(state: &State, meta: &Meta) -> Result<(), String> {
    let (w, h) = (usize::from(meta.size.width), usize::from(meta.size.height));
    if state.width != w || state.height != h || state.stride != meta.stride || state.cells.len() != w * h * meta.stride
    {
        return Err(format!("a keyframe of a {}x{} board in a log of a {w}x{h} one", state.width, state.height));
    }
    if state.restart_cells.len() != state.cells.len() {
        return Err("a keyframe whose restart board has another size".into());
    }
    Ok(())
}

/// The views' events of a turn's trace: each rule's changes (consecutive changes by one rule
/// become one event) and each movement.
pub(super) fn trace_events(trace: &Trace, meta: &Meta, out: &mut Vec<PuzzleScriptEvent>) {
    for e in &trace.events {
        match *e {
            TraceEvent::Rule { line, cell } => {
                let at = pos_of(meta, cell);
                if let Some(PuzzleScriptEvent::Rule { line: last, cells }) = out.last_mut()
                    && *last == line as u32
                {
                    if !cells.contains(&at) {
                        cells.push(at);
                    }
                    continue;
                }
                out.push(PuzzleScriptEvent::Rule { line: line as u32, cells: vec![at] });
            }
            TraceEvent::Move { object, from, to } => out.push(PuzzleScriptEvent::Moved {
                object: object as u32,
                from: pos_of(meta, from),
                to: pos_of(meta, to),
            }),
        }
    }
}

/// The views' events of a turn's outcome: its sounds, messages and a cancel.
pub(super) fn outcome_events(outcome: &TurnOutcome, out: &mut Vec<PuzzleScriptEvent>) {
    if outcome.cancelled {
        out.push(PuzzleScriptEvent::Cancelled);
    }
    out.extend(outcome.sounds.iter().map(|s| PuzzleScriptEvent::Sound { seed: s.clone() }));
    out.extend(outcome.messages.iter().map(|m| PuzzleScriptEvent::Message { text: m.clone() }));
}
