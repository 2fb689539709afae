//! Same seed and bot, same moves.

use crate::{FIXTURES, spec, start};
use tessera_bots::{GameConfig, make_bot, play_game};
use tessera_core::AnyCommand;

fn moves(level: &str, bot: &str, seed: u64, max_moves: u32) -> Vec<AnyCommand> {
    let mut game = start(level, seed);
    let mut b = make_bot(&spec(bot), game.rules.rule_set(), seed).unwrap();
    let mut out = Vec::new();
    let config = GameConfig { max_moves, keep_going: false };
    play_game(&game.rules, &mut game.state, &mut b, &config, |_, c, _, _| out.push(c.clone())).unwrap();
    out
}

#[test]
fn same_seed_and_bot_play_the_same_moves() {
    for (level, bots) in FIXTURES {
        for bot in *bots {
            let a = moves(level, bot, 5, 12);
            assert!(!a.is_empty(), "{bot} on {level} played nothing");
            assert_eq!(a, moves(level, bot, 5, 12), "{bot} on {level}");
        }
    }
}

#[test]
fn another_seed_plays_another_game() {
    // The random bot on a fixed collapse board: only the bot's seed differs.
    assert_ne!(moves("collapse_seed.json", "random", 1, 30), moves("collapse_seed.json", "random", 2, 30));
}
