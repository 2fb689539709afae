//! The product's promise: the same level, seed and commands give the same events and hashes on
//! every machine, forever. These values were recorded once; if a change alters them, every log
//! ever recorded stops verifying, so the change must bump `RuleSet::version` and say why.
//!
//! Each game pins both state hashes: the version 1 hash (`AnyState::hash_v1`, xxh3 of the
//! canonical encoding, what format-1 logs record; these values are the ones first recorded) and
//! the incremental hash (`AnyState::hash`, what format-2 logs record; pinned when it was
//! introduced).

use tessera_core::slide::SlideCommand;
use tessera_core::{AnyCommand, Dir, GameRng, Level, Rules, canonical_bytes, state_hash};

#[test]
fn the_generator_stream_is_pinned() {
    let mut r = GameRng::new(0);
    let draws: Vec<u32> = (0..8).map(|_| r.below(100)).collect();
    assert_eq!(draws, PINNED_DRAWS);
    assert_eq!(r.position(), 8);
    let mut r = GameRng::new(u64::MAX);
    assert_eq!(r.next_u32(), PINNED_WORD_MAX_SEED);
}

#[test]
fn a_classic_game_is_pinned() {
    let mut game = Level::classic().start(Some(42)).unwrap();
    let mut events = Vec::new();
    let mut all = Vec::new();
    for i in 0..200usize {
        let d = Dir::ALL[(i * 5 + i / 7) % 4];
        events.clear();
        if game.rules.apply(&mut game.state, &AnyCommand::Slide(SlideCommand::Slide(d)), &mut events).is_ok()
        {
            all.extend(events.iter().cloned());
        }
    }
    assert_eq!(state_hash(&all), PINNED_EVENTS_HASH, "events changed");
    assert_eq!(game.state.hash_v1(), PINNED_STATE_HASH, "final state changed");
    assert_eq!(game.state.hash(), PINNED_STATE_HASH_V2, "the incremental hash changed");
    assert_eq!(canonical_bytes(&game.state).len(), PINNED_STATE_BYTES);
}

const PINNED_DRAWS: [u32; 8] = [65, 70, 72, 46, 50, 69, 56, 6];
const PINNED_WORD_MAX_SEED: u32 = 3819388078;
const PINNED_EVENTS_HASH: u64 = 12146274607796063260;
const PINNED_STATE_HASH: u64 = 17065654626947851367;
const PINNED_STATE_BYTES: usize = 43;
const PINNED_STATE_HASH_V2: u64 = 16121446962900533444;

/// A whole `collapse` game: the seed's 10×10 level from seed 42, the `i`-th tap picking legal
/// command `(7 i) mod n`, until game over.
#[test]
fn a_collapse_game_is_pinned() {
    let level = Level::Collapse(tessera_core::collapse::CollapseLevel::seed_game());
    let mut game = level.start(Some(42)).unwrap();
    let start = game.state.hash_v1();
    let start_v2 = game.state.hash();
    let mut events = Vec::new();
    let mut all = Vec::new();
    let mut taps = 0usize;
    loop {
        let legal = game.rules.legal_commands(&game.state);
        if legal.is_empty() {
            break;
        }
        events.clear();
        game.rules.apply(&mut game.state, &legal[(taps * 7) % legal.len()], &mut events).unwrap();
        all.extend(events.iter().cloned());
        taps += 1;
    }
    assert_eq!(
        (start, taps, game.state.score(), state_hash(&all), game.state.hash_v1()),
        PINNED_COLLAPSE,
        "start board, taps, score, events or final state changed"
    );
    assert_eq!((start_v2, game.state.hash()), PINNED_COLLAPSE_V2, "the incremental hash changed");
}

const PINNED_COLLAPSE_V2: (u64, u64) = (17913353145085347543, 13897292331397736835);

const PINNED_COLLAPSE: (u64, usize, Option<u64>, u64, u64) =
    (11819936915756764101, 30, Some(616), 18349147014451889785, 10423654841117702165);

/// A `match3` game: the standard 9×9 level with 5 breeds from seed 42, the `i`-th swap picking
/// legal command `(7 i) mod n`, with a swap that swaps back every fifth step, 300 steps.
#[test]
fn a_match3_game_is_pinned() {
    use tessera_core::match3::{Match3Command, Match3Level};
    let mut level = Match3Level::standard();
    level.config.breeds = 5;
    let mut game = Level::Match3(level).start(Some(42)).unwrap();
    let start = game.state.hash_v1();
    let start_v2 = game.state.hash();
    let mut events = Vec::new();
    let mut all = Vec::new();
    for i in 0..300usize {
        let legal = game.rules.legal_commands(&game.state);
        if legal.is_empty() {
            break;
        }
        let cmd = if i % 5 == 4 {
            let (a, b) = (tessera_core::Pos::new(0, 0), tessera_core::Pos::new(1, 0));
            AnyCommand::Match3(Match3Command::Swap(a, b))
        } else {
            legal[(i * 7) % legal.len()].clone()
        };
        events.clear();
        game.rules.apply(&mut game.state, &cmd, &mut events).unwrap();
        all.extend(events.iter().cloned());
    }
    let got = (start, all.len(), game.state.score(), state_hash(&all), game.state.hash_v1());
    assert_eq!(got, PINNED_MATCH3, "start board, events, score or final state changed");
    assert_eq!((start_v2, game.state.hash()), PINNED_MATCH3_V2, "the incremental hash changed");
}

const PINNED_MATCH3_V2: (u64, u64) = (454887871516223069, 16823821531252905924);

const PINNED_MATCH3: (u64, usize, Option<u64>, u64, u64) =
    (17418380526200455925, 5479, Some(28610), 5604173943180996723, 6892604462848954782);
