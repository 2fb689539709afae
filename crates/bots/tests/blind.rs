//! A bot never reads the game's generator: two states equal except for their generators (so
//! different future spawns, refills and shuffles) get the same first choice.

use crate::{FIXTURES, spec, start};
use tessera_bots::make_bot;
use tessera_core::{GameRng, Rules};

#[test]
fn changing_only_the_games_future_does_not_change_the_first_choice() {
    for (level, bots) in FIXTURES {
        for bot in *bots {
            for seed in [3u64, 4] {
                let game = start(level, seed);
                let mut other = game.state.clone();
                other.replace_rng(GameRng::new(seed ^ 0xdead_beef));
                let mut a = make_bot(&spec(bot), game.rules.rule_set(), 9).unwrap();
                let mut b = make_bot(&spec(bot), game.rules.rule_set(), 9).unwrap();
                let first = a.choose(&game.rules, &game.state);
                assert!(first.is_some(), "{bot} on {level}");
                assert_eq!(first, b.choose(&game.rules, &other), "{bot} on {level}, seed {seed}");
            }
        }
    }
}

#[test]
fn the_two_generators_do_give_different_futures() {
    // Guard for the test above: on slide and match3 the swapped generator really changes what
    // happens next, so equal choices are not an accident of equal futures.
    for level in ["classic.json", "match3_locks.json"] {
        let game = start(level, 3);
        let mut other = game.state.clone();
        other.replace_rng(GameRng::new(3 ^ 0xdead_beef));
        let cmd = game.rules.legal_commands(&game.state)[0].clone();
        let (mut s1, mut s2, mut e1, mut e2) = (game.state.clone(), other, Vec::new(), Vec::new());
        game.rules.apply(&mut s1, &cmd, &mut e1).unwrap();
        game.rules.apply(&mut s2, &cmd, &mut e2).unwrap();
        assert_ne!(s1.board_json(), s2.board_json(), "{level}");
    }
}
