//! PuzzleScript's events (the commands are the language crate's [`PuzzleScriptCommand`]).

use crate::geom::Pos;
use serde::{Deserialize, Serialize};
pub use tessera_puzzlescript::Command as PuzzleScriptCommand;

/// What happened in a step, in order. A step is one or more turns (the input's, then each
/// `again` turn it queued), each opened by [`PuzzleScriptEvent::Turn`]; within a turn the rules'
/// changes, the movements, and the turn's sounds and messages. Undo and redo use
/// [`PuzzleScriptEvent::Cell`] and [`PuzzleScriptEvent::Aux`] (before and after, exact); the others
/// are for views (animation, the debugger, sound) and are checked, not replayed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PuzzleScriptEvent {
    /// Turn `index` of the step starts (0: the input's turn or the restart; 1, 2, …: `again`
    /// turns).
    Turn {
        /// The turn's index in the step.
        index: u32,
    },
    /// A rule changed cells: the rule's source line and the cells (row-major indices) whose
    /// objects or movements it changed, in the order it changed them.
    Rule {
        /// The rule's line in the game's source (1-based).
        line: u32,
        /// The cells it changed.
        cells: Vec<Pos>,
    },
    /// An object moved from a cell to a neighbouring one.
    Moved {
        /// The object's index in the game's object list.
        object: u32,
        /// Its cell before.
        from: Pos,
        /// Its cell after.
        to: Pos,
    },
    /// A cell's objects changed this turn: exactly the objects before and after (bit words, bit
    /// `k` of word `k / 32` for object `k`).
    Cell {
        /// The cell.
        at: Pos,
        /// Its objects before.
        before: Vec<u64>,
        /// Its objects after.
        after: Vec<u64>,
    },
    /// The game's other state changed (the generator, the checkpoint, …): exactly before and
    /// after, encoded.
    Aux {
        /// Before (the engine's canonical bytes).
        before: Vec<u8>,
        /// After.
        after: Vec<u8>,
    },
    /// A sound played: `sfx0`…`sfx10`, or an object's sound event, by its seed as the game's
    /// sound section gives it (PuzzleScript's sound history).
    Sound {
        /// The sound's seed.
        seed: String,
    },
    /// A `message` command showed this text.
    Message {
        /// The text.
        text: String,
    },
    /// The `cancel` command undid this turn's changes (nothing else of it happened).
    Cancelled,
    /// The win conditions hold (or a `win` command ran): the level is won.
    Won,
}

impl PuzzleScriptEvent {
    /// The event in words for people, objects by their names (`names`: the game's objects by
    /// number, [`super::Meta::names`]): `Moved Player (2, 3) → (2, 4)`, `Cell (2, 4): Background
    /// Player → Background`. For display only: logs keep the numbers.
    pub fn describe(&self, names: &[String]) -> String {
        let name = |k: usize| names.get(k).cloned().unwrap_or_else(|| format!("object {k}"));
        let objects = |words: &[u64]| {
            let mut out = Vec::new();
            for (w, bits) in words.iter().enumerate() {
                for b in 0..64 {
                    if bits & (1 << b) != 0 {
                        out.push(name(w * 64 + b));
                    }
                }
            }
            if out.is_empty() { "nothing".to_string() } else { out.join(" ") }
        };
        match self {
            PuzzleScriptEvent::Turn { index } => format!("Turn {index}"),
            PuzzleScriptEvent::Rule { line, cells } => {
                format!("Rule at line {line} changed {} cell(s)", cells.len())
            }
            PuzzleScriptEvent::Moved { object, from, to } => {
                format!("Moved {} ({}, {}) → ({}, {})", name(*object as usize), from.x, from.y, to.x, to.y)
            }
            PuzzleScriptEvent::Cell { at, before, after } => {
                format!("Cell ({}, {}): {} → {}", at.x, at.y, objects(before), objects(after))
            }
            PuzzleScriptEvent::Aux { before, after } => {
                format!(
                    "Other state changed (generator, checkpoint: {} → {} bytes)",
                    before.len(),
                    after.len()
                )
            }
            PuzzleScriptEvent::Sound { seed } => format!("Sound {seed}"),
            PuzzleScriptEvent::Message { text } => format!("Message: {text}"),
            PuzzleScriptEvent::Cancelled => "Cancelled".into(),
            PuzzleScriptEvent::Won => "Won".into(),
        }
    }
}
