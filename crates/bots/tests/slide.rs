//! The 2048 bitboard slides exactly as the engine does, and expectimax plays well.

use proptest::prelude::*;
use tessera_bots::games::slide::{self, ExpectimaxBot, ExpectimaxConfig, from_state};
use tessera_bots::{Bot, BotRng};
use tessera_core::slide::{SlideCommand, SlideEvent, SlideRules, SlideState};
use tessera_core::{Dir, Level, Pos, Rules, Size};

/// A 4x4 state after `moves` random slides from `seed`.
fn random_state(seed: u64, moves: u32) -> (SlideRules, SlideState) {
    let rules = SlideRules::default();
    let mut state = SlideState::new_game(Size::new(4, 4, 4).unwrap(), &rules.config, seed);
    let mut rng = BotRng::new(seed);
    let mut events = Vec::new();
    for _ in 0..moves {
        let legal = rules.legal_commands(&state);
        if legal.is_empty() {
            break;
        }
        events.clear();
        let cmd = legal[rng.below(legal.len() as u32) as usize];
        rules.apply(&mut state, &cmd, &mut events).unwrap();
    }
    (rules, state)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Both slide every reachable board alike: same tiles, same points, same refusals.
    #[test]
    fn bitboard_slides_equal_the_engines(seed in any::<u64>(), moves in 0u32..400) {
        let (rules, state) = random_state(seed, moves);
        let Some(board) = from_state(&state) else { return Ok(()) };
        for dir in Dir::ALL {
            let after = slide::slide(board, dir);
            let mut s = state.clone();
            let mut events = Vec::new();
            match rules.apply(&mut s, &SlideCommand::Slide(dir), &mut events) {
                Err(_) => prop_assert_eq!(after, board, "{:?} refused by the engine", dir),
                Ok(()) => {
                    let spawned = events.iter().find_map(|e| match e {
                        SlideEvent::Spawned { at, .. } => Some(*at),
                        _ => None,
                    });
                    for y in 0..4 {
                        for x in 0..4 {
                            let p = Pos::new(x, y);
                            let engine = if Some(p) == spawned {
                                0
                            } else {
                                s.tile(p).map_or(0, |t| t.value.trailing_zeros())
                            };
                            prop_assert_eq!(slide::cell(after, p), engine, "{:?} at {}", dir, p);
                        }
                    }
                    prop_assert_eq!(
                        u64::from(slide::slide_score(board, dir)),
                        s.score() - state.score(),
                        "points of {:?}", dir
                    );
                }
            }
        }
    }

    /// The bot's move is always one the engine accepts, and it plays on the engine's board.
    #[test]
    fn expectimax_moves_are_the_engines(seed in any::<u64>(), moves in 0u32..300) {
        let (rules, state) = random_state(seed, moves);
        let mut bot = ExpectimaxBot::new(seed, ExpectimaxConfig { depth: Some(1) });
        match bot.choose(&rules, &state) {
            Some(cmd) => prop_assert!(rules.legal_commands(&state).contains(&cmd)),
            None => prop_assert!(rules.legal_commands(&state).is_empty()),
        }
    }
}

#[test]
fn expectimax_reaches_512_where_random_play_does_not() {
    // A short, real check of strength (figures come from the benchmark): depth 1 expectimax
    // reaches 512 on a few seeds, which random play essentially never does.
    let level = Level::classic();
    for seed in 0..2 {
        let mut game = level.start(Some(seed)).unwrap();
        let tessera_core::AnyRules::Slide(rules) = &game.rules else { unreachable!() };
        let tessera_core::AnyState::Slide(state) = &mut game.state else { unreachable!() };
        let mut bot = ExpectimaxBot::new(seed, ExpectimaxConfig { depth: Some(1) });
        let mut events = Vec::new();
        while let Some(cmd) = bot.choose(rules, state) {
            events.clear();
            rules.apply(state, &cmd, &mut events).unwrap();
            if state.tiles().any(|(_, t)| t.value >= 512) {
                break;
            }
        }
        assert!(state.tiles().any(|(_, t)| t.value >= 512), "seed {seed}:\n{}", state.render());
    }
}

#[test]
fn random_playouts_end_on_a_full_board_with_no_merge() {
    let mut rng = BotRng::new(1);
    let b = slide::spawn(slide::spawn(0, &mut rng, 0), &mut rng, 0);
    let mut rng2 = rng.clone();
    let (end, n) = slide::random_playout(b, &mut rng, u32::MAX / 10);
    assert!(n > 10, "{n} slides");
    assert_eq!(slide::empty_mask(end), 0, "full board");
    for dir in Dir::ALL {
        assert_eq!(slide::slide(end, dir), end, "{dir:?} still changes the final board");
    }
    assert_eq!((end, n), slide::random_playout(b, &mut rng2, u32::MAX / 10), "deterministic");
}

#[test]
fn random_slides_makes_exactly_n_slides_across_games() {
    let mut rng = BotRng::new(3);
    let b = slide::spawn(slide::spawn(0, &mut rng, 0), &mut rng, 0);
    let (_, games) = slide::random_slides(b, 20_000, &mut rng, u32::MAX / 10);
    // Random games last about 100-200 slides: 20,000 slides end many of them.
    assert!((50..400).contains(&games), "{games} games");
}

#[test]
fn spawns_reach_every_empty_cell_about_equally_and_fours_at_their_rate() {
    // A board with 16, 9 and 1 empty cells: 20,000 spawns each.
    for b in [0, 0x0000_0000_0211_2121, 0x1234_5612_3456_1230] {
        let empty = slide::empty_mask(b);
        let k = empty.count_ones();
        let mut rng = BotRng::new(u64::from(k));
        let (mut hits, mut fours) = ([0u32; 16], 0u32);
        let draws = 20_000u32;
        for _ in 0..draws {
            let after = slide::spawn(b, &mut rng, u32::MAX / 10);
            let changed = after ^ b;
            assert_eq!(changed.count_ones(), 1, "one cell, one bit: {b:016x} -> {after:016x}");
            let at = changed.trailing_zeros() / 4;
            assert_ne!(empty & (1 << (4 * at)), 0, "cell {at} was not empty in {b:016x}");
            hits[at as usize] += 1;
            fours += u32::from((after >> (4 * at)) & 15 == 2);
        }
        let expected = draws / k;
        for (i, &h) in hits.iter().enumerate() {
            if empty & (1 << (4 * i)) != 0 {
                assert!(h * 10 > expected * 9 && h * 10 < expected * 11, "cell {i}: {h} of {draws}, k {k}");
            }
        }
        assert!((1_700..2_300).contains(&fours), "{fours} fours in {draws}");
    }
}
