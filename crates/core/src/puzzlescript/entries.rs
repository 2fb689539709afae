//! A game's playable levels among its level list (which holds its messages too): how many, and
//! where the n-th is.

use super::engine;

/// The index in the game's level list (messages included) of playable level `playable`.
pub fn entry_of(game: &engine::Game, playable: usize) -> Option<usize> {
    game.levels()
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, engine::LevelEntry::Level { .. }))
        .nth(playable)
        .map(|(i, _)| i)
}

/// How many playable levels the game has.
pub fn playable_count(game: &engine::Game) -> usize {
    game.levels().iter().filter(|e| matches!(e, engine::LevelEntry::Level { .. })).count()
}
