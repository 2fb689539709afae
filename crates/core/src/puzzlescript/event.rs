//! PuzzleScript's commands (with their one-line text form) and events.

use crate::geom::Pos;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A PuzzleScript command: one input, or a turn with no input, or a restart. One command is one
/// step: the `again` turns it queues run in the same step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PuzzleScriptCommand {
    /// `up`.
    Up,
    /// `down`.
    Down,
    /// `left`.
    Left,
    /// `right`.
    Right,
    /// `action` (X or Space in the editor).
    Action,
    /// `tick`: a turn with no input (realtime games, and the turn an `again` waits for).
    Tick,
    /// `restart`: back to the last checkpoint, or to the level's start.
    Restart,
}

impl PuzzleScriptCommand {
    /// Every command, in the order `legal_commands` lists them.
    pub const ALL: [PuzzleScriptCommand; 7] = [
        PuzzleScriptCommand::Up,
        PuzzleScriptCommand::Down,
        PuzzleScriptCommand::Left,
        PuzzleScriptCommand::Right,
        PuzzleScriptCommand::Action,
        PuzzleScriptCommand::Tick,
        PuzzleScriptCommand::Restart,
    ];

    /// Its word.
    pub const fn name(self) -> &'static str {
        match self {
            PuzzleScriptCommand::Up => "up",
            PuzzleScriptCommand::Down => "down",
            PuzzleScriptCommand::Left => "left",
            PuzzleScriptCommand::Right => "right",
            PuzzleScriptCommand::Action => "action",
            PuzzleScriptCommand::Tick => "tick",
            PuzzleScriptCommand::Restart => "restart",
        }
    }

    /// The input as PuzzleScript's test suite writes it (`testdata.js`): 0 to 4 for up, left,
    /// down, right and action, else its word (`tick`, `restart`).
    pub fn suite_input(self) -> serde_json::Value {
        match self {
            PuzzleScriptCommand::Up => 0.into(),
            PuzzleScriptCommand::Left => 1.into(),
            PuzzleScriptCommand::Down => 2.into(),
            PuzzleScriptCommand::Right => 3.into(),
            PuzzleScriptCommand::Action => 4.into(),
            other => other.name().into(),
        }
    }
}

impl fmt::Display for PuzzleScriptCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PuzzleScriptCommand {
    type Err = String;
    /// `up`, `down`, `left`, `right`, `action`, `tick` or `restart`.
    fn from_str(s: &str) -> Result<Self, String> {
        let word = s.trim();
        PuzzleScriptCommand::ALL.into_iter().find(|c| c.name() == word).ok_or_else(|| {
            format!(
                "unknown puzzlescript command '{word}' (expected: up, down, left, right, action, tick or restart)"
            )
        })
    }
}

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
