//! Bots never choose a command the rules refuse (property test over seeds and bots).

use crate::{FIXTURES, spec, start};
use proptest::prelude::*;
use tessera_bots::{GameConfig, make_bot, play_game};

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn bots_only_choose_legal_commands(seed in any::<u64>(), which in 0usize..4) {
        let (level, bots) = FIXTURES[which];
        for bot in bots {
            let mut game = start(level, seed);
            let mut b = make_bot(&spec(bot), game.rules.rule_set(), seed).unwrap();
            let config = GameConfig { max_moves: 15, keep_going: false };
            // `play_game` applies every choice and fails with `Illegal` on a refused one.
            let played = play_game(&game.rules, &mut game.state, &mut b, &config, |_, _, _, _| {});
            prop_assert!(played.is_ok(), "{bot} on {level}: {:?}", played);
        }
    }
}
