//! Between the tessera rule set and the engine: the engine stores boards column-major (as the
//! reference does) and keeps more than the board in its state; the rule set speaks row-major
//! cells and treats everything but the board as one encoded value (`Aux`).
//!
//! `bridge.rs` is where the engine's column-major board meets tessera's row-major cells;

use super::engine::{self, Game, State, Trace, TraceEvent, TurnOutcome};
use super::meta::Meta;
use super::{PuzzleScriptEvent, source};
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
/// [`tessera_puzzlescript::MAX_LEVEL_SIDE`] a side.
pub(super) fn meta(game: &Game, state: &State, source_text: &str) -> Result<Meta, String> {
    meta_with(game, state, source::glyph_words(source_text, game))
}

/// [`meta`] with the game's glyphs already read from its source (`source::glyph_words`), for
/// many levels of one game ([`super::GameLevels`]): reading them scans the whole source.
pub(super) fn meta_with(game: &Game, state: &State, glyphs: Vec<(char, Vec<u64>)>) -> Result<Meta, String> {
    let size = Size::new(state.width, state.height, tessera_puzzlescript::MAX_LEVEL_SIDE as u16)
        .map_err(|e| format!("the level's board: {e}"))?;
    let names: Vec<String> = game.objects().iter().map(|o| o.name.clone()).collect();
    let layers = game.objects().iter().map(|o| o.layer as u32).collect();
    Ok(Meta { size, stride: state.stride, names, layers, glyphs })
}

/// Whether `state`'s board has `meta`'s shape (a keyframe's check).
pub(super) fn check_shape(state: &State, meta: &Meta) -> Result<(), String> {
    let (w, h) = (usize::from(meta.size.width), usize::from(meta.size.height));
    if state.width != w
        || state.height != h
        || state.stride != meta.stride
        || state.cells.len() != w * h * meta.stride
    {
        return Err(format!(
            "a keyframe of a {}x{} board in a log of a {w}x{h} one",
            state.width, state.height
        ));
    }
    if state.restart_cells.len() != state.cells.len() {
        return Err("a keyframe whose restart board has another size".into());
    }
    Ok(())
}

/// The views' events of a turn's trace: each rule's changes (consecutive changes by one rule
/// become one event, each cell once, in the order first changed) and each movement.
///
/// Linear in the trace (issue 37.4): a cell is looked up in a table of the board's cells, where
/// a scan of the event's cells made a rule that changed every cell of a 256×256 board cost 2
/// billion comparisons, about 1.5 s a turn that the step's work count did not see.
pub(super) fn trace_events(trace: &Trace, meta: &Meta, out: &mut Vec<PuzzleScriptEvent>) {
    // Per engine cell: the number (from 1) of the last Rule event it was put in.
    let mut seen: Vec<u32> = Vec::new();
    let mut event = 0u32;
    for e in &trace.events {
        match *e {
            TraceEvent::Rule { line, cell } => {
                let at = pos_of(meta, cell);
                if seen.len() <= cell {
                    seen.resize(cell.max(meta.size.area()) + 1, 0);
                }
                if let Some(PuzzleScriptEvent::Rule { line: last, cells }) = out.last_mut()
                    && *last == line as u32
                {
                    if event == 0 {
                        // An event made before this trace (no caller leaves one): its cells
                        // are not in the table.
                        if !cells.contains(&at) {
                            cells.push(at);
                        }
                    } else if seen[cell] != event {
                        seen[cell] = event;
                        cells.push(at);
                    }
                    continue;
                }
                event += 1;
                seen[cell] = event;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The events the scan of the event's cells made, before issue 37.4 (the reference here).
    fn by_scan(trace: &Trace, meta: &Meta) -> Vec<PuzzleScriptEvent> {
        let mut out = vec![PuzzleScriptEvent::Turn { index: 0 }];
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
        out
    }

    fn meta(width: usize, height: usize) -> Meta {
        let size = Size::new(width, height, super::super::MAX_SIDE as u16).unwrap();
        Meta { size, stride: 1, names: Vec::new(), layers: Vec::new(), glyphs: Vec::new() }
    }

    fn events(trace: &Trace, meta: &Meta) -> Vec<PuzzleScriptEvent> {
        let mut out = vec![PuzzleScriptEvent::Turn { index: 0 }];
        trace_events(trace, meta, &mut out);
        out
    }

    /// Issue 37.4: a turn's rule events are what the scan made (so no log changes), for traces
    /// of repeated cells, rules alternating and moves between them (a generated sample).
    #[test]
    fn rule_events_are_the_scans() {
        let meta = meta(7, 5);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300 {
            let mut trace = Trace::default();
            for _ in 0..(x % 60) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let cell = (x >> 8) as usize % 35;
                trace.events.push(match x % 9 {
                    0 => TraceEvent::Move { object: 1, from: cell, to: (cell + 1) % 35 },
                    k => TraceEvent::Rule { line: 10 + (k as usize % 3) / 2, cell },
                });
            }
            assert_eq!(events(&trace, &meta), by_scan(&trace, &meta), "{:?}", trace.events);
        }
    }

    /// Issue 37.4: a rule that changes every cell of a 256×256 board twice in a turn (the fuzz
    /// corpus's `again-chain`) makes one event of each cell once, in the order first changed.
    /// The scan compared each cell with those before it: 4 billion comparisons, 1.5 s a turn
    /// (release build) that the step's work count (1.2 million units) did not see.
    #[test]
    fn a_rule_changing_every_cell_is_one_event_of_each_cell_once() {
        let meta = meta(256, 256);
        let n = meta.size.area();
        let mut trace = Trace::default();
        for round in 0..2 {
            trace.events.extend((0..n).map(|k| TraceEvent::Rule { line: 7, cell: (k * 7 + round) % n }));
        }
        let out = events(&trace, &meta);
        let [PuzzleScriptEvent::Turn { .. }, PuzzleScriptEvent::Rule { line: 7, cells }] = &out[..] else {
            panic!("one rule event: {:?}", &out[..2.min(out.len())]);
        };
        let expected: Vec<Pos> = (0..n).map(|k| pos_of(&meta, (k * 7) % n)).collect();
        assert_eq!(cells, &expected);
    }
}
