//! One game played by a bot.

use crate::Bot;
use crate::any::BotError;
use crate::playable::Playable;
use serde::{Deserialize, Serialize};
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Rules};

/// When a bot's game stops, besides the rules' own end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// The most commands a bot plays (tactics and match3 levels without a move limit have no
    /// end of their own).
    pub max_moves: u32,
    /// Play on after a win (2048's "keep going"), until the game is over or the cap.
    pub keep_going: bool,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig { max_moves: 10_000, keep_going: false }
    }
}

impl GameConfig {
    /// Whether play stops after `moves` commands in `state`.
    pub fn finished<R: Playable>(&self, rules: &R, state: &R::State, moves: u32) -> bool {
        moves >= self.max_moves || rules.finished(state, self.keep_going)
    }
}

/// One game of a difficulty sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The game's number in the sweep (game `i` uses seed `seed + i`).
    pub game: u64,
    /// The seed of the game and of its bot.
    pub seed: u64,
    /// Whether the level's goal was reached.
    pub won: bool,
    /// Commands played.
    pub moves: u32,
    /// Final score.
    pub score: u64,
    /// Objectives met.
    pub objectives_met: u32,
    /// The largest tile (slide; 0 otherwise).
    pub top_tile: u32,
}

/// Plays `bot` on `state` until the game stops, calling `on_step` after each command with the
/// move number (from 1), the command, its events and the state after it. Returns the number of
/// commands played. A command the rules refuse is a bot bug: [`BotError::Illegal`].
pub fn play_game(
    rules: &AnyRules,
    state: &mut AnyState,
    bot: &mut dyn Bot<AnyRules>,
    config: &GameConfig,
    mut on_step: impl FnMut(u32, &AnyCommand, &[AnyEvent], &AnyState),
) -> Result<u32, BotError> {
    let mut moves = 0u32;
    let mut events = Vec::new();
    while !config.finished(rules, state, moves) {
        let Some(cmd) = bot.choose(rules, state) else { break };
        events.clear();
        if let Err(e) = rules.apply(state, &cmd, &mut events) {
            return Err(BotError::Illegal {
                step: moves + 1,
                command: cmd.to_string(),
                reason: e.message.into_owned(),
            });
        }
        moves += 1;
        on_step(moves, &cmd, &events, state);
    }
    Ok(moves)
}
