//! The playtest bot a tuning generator (`Takes::Stage`: match-3's) is handed: `match3-greedy`
//! (`tessera_bots`), each game and its bot seeded by the game's seed, as `tessera difficulty
//! LEVEL --bot match3-greedy` plays game `i` with seed `S + i`.

use tessera_bots::{BotKind, BotSpec, GameConfig, make_bot, play_game};
use tessera_core::{Level, Playtested, Rules, Status};

/// The bot the stages are tuned with.
pub const PLAYTEST_BOT: &str = "match3-greedy";

/// Plays `level` with the game seed `seed` by [`PLAYTEST_BOT`] until the game ends or
/// `max_moves` commands; `None` when the level does not start or the bot cannot play it.
pub fn playtest(level: &Level, seed: u64, max_moves: u32) -> Option<Playtested> {
    let kind = BotKind::from_name(PLAYTEST_BOT)?;
    let mut game = level.start(Some(seed)).ok()?;
    let mut bot = make_bot(&BotSpec::new(kind), game.rules.rule_set(), seed).ok()?;
    let config = GameConfig { max_moves, keep_going: false };
    let mut played = Playtested::default();
    play_game(&game.rules, &mut game.state, bot.as_mut(), &config, |_, command, _, state| {
        played.commands.push(command.to_string());
        played.scores.push(state.score().unwrap_or(0));
    })
    .ok()?;
    played.won = game.rules.status(&game.state) == Status::Won;
    Some(played)
}
