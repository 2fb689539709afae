//! [`Command`]: what a player does in one step (an arrow, action, a turn with no input, restart),
//! with its one-word text form.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A PuzzleScript command: one input, or a turn with no input, or a restart. One command is one
/// step: the `again` turns it queues run in the same step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
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

impl Command {
    /// Every command, in the order `legal_commands` lists them.
    pub const ALL: [Command; 7] = [
        Command::Up,
        Command::Down,
        Command::Left,
        Command::Right,
        Command::Action,
        Command::Tick,
        Command::Restart,
    ];

    /// Its word.
    pub const fn name(self) -> &'static str {
        match self {
            Command::Up => "up",
            Command::Down => "down",
            Command::Left => "left",
            Command::Right => "right",
            Command::Action => "action",
            Command::Tick => "tick",
            Command::Restart => "restart",
        }
    }

    /// The input as PuzzleScript's test suite writes it (`testdata.js`): 0 to 4 for up, left,
    /// down, right and action, else its word (`tick`, `restart`).
    pub fn suite_input(self) -> serde_json::Value {
        match self {
            Command::Up => 0.into(),
            Command::Left => 1.into(),
            Command::Down => 2.into(),
            Command::Right => 3.into(),
            Command::Action => 4.into(),
            other => other.name().into(),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Command {
    type Err = String;
    /// `up`, `down`, `left`, `right`, `action`, `tick` or `restart`.
    fn from_str(s: &str) -> Result<Self, String> {
        let word = s.trim();
        Command::ALL.into_iter().find(|c| c.name() == word).ok_or_else(|| {
            format!(
                "unknown puzzlescript command '{word}' (expected: up, down, left, right, action, tick or restart)"
            )
        })
    }
}
