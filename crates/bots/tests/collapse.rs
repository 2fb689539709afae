//! NMCS and NRPA on SameGame: the search board taps as the engine does, lines replay to their
//! scores, level 2 finds the optimum of small boards, NRPA is deterministic for a seed and a
//! playout budget (in one thread or several) and learns (beats as many random playouts).

use proptest::prelude::*;
use std::time::{Duration, Instant};
use tessera_bots::BotRng;
use tessera_bots::games::collapse::{
    Board, BoardScratch, Budget, Deadline, Nmcs, Nrpa, Tap, solve, solve_nrpa, thread_cpu_time,
};
use tessera_core::collapse::{
    CollapseCommand, CollapseConfig, CollapseRules, CollapseState, Compaction, GroupScratch, Scoring,
};
use tessera_core::{Pos, Rules, Size};

fn board(rows: &[&str]) -> (CollapseRules, CollapseState) {
    let size = Size::new(rows[0].len(), rows.len(), 256).unwrap();
    let cells: Vec<Option<u8>> =
        rows.iter().flat_map(|r| r.bytes().map(|b| (b != b'.').then(|| b - b'0'))).collect();
    (CollapseRules::new(CollapseConfig::standard()), CollapseState::from_cells(size, &cells, 0).unwrap())
}

/// Plays taps of the search board on the engine (each at the engine's cell for it).
fn replay(rules: &CollapseRules, state: &CollapseState, line: &[Tap]) -> u64 {
    let b = Board::from_state(state);
    let mut s = state.clone();
    let mut events = Vec::new();
    for &tap in line {
        events.clear();
        rules.apply(&mut s, &CollapseCommand::Tap(b.pos(tap)), &mut events).unwrap();
    }
    assert!(rules.legal_commands(&s).is_empty(), "a line plays to the end");
    s.score()
}

/// The best final score by trying every line.
fn brute_force(rules: &CollapseRules, s: &mut CollapseState) -> u64 {
    let mut best = s.score();
    for cmd in rules.legal_commands(s) {
        let mut events = Vec::new();
        rules.apply(s, &cmd, &mut events).unwrap();
        best = best.max(brute_force(rules, s));
        rules.undo(s, &events);
    }
    best
}

const SMALL: &[&str] = &["1212", "2121", "1122", "2211", "1221"];

/// The search board and the engine hold the same tiles.
fn same_cells(b: &Board, s: &CollapseState) -> Result<(), TestCaseError> {
    let size = s.board().size();
    for y in 0..size.height {
        for x in 0..size.width {
            let p = Pos::new(x, y);
            prop_assert_eq!(b.colour(p), s.board()[p].map(|t| t.colour), "cell {}", p);
        }
    }
    prop_assert_eq!(b.score(), s.score());
    prop_assert_eq!(b.tiles() as usize, s.tile_count());
    Ok(())
}

fn config_strategy() -> impl Strategy<Value = CollapseConfig> {
    (1u32..=3, 0usize..3, any::<bool>()).prop_map(|(min_group, c, standard)| CollapseConfig {
        min_group,
        compaction: [Compaction::Center, Compaction::Left, Compaction::None][c],
        scoring: if standard { Scoring::Standard } else { Scoring::Tiered },
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// After every tap of a random game, under every rule variant, the search board has the
    /// engine's tiles, score and groups (as sets: the same sizes and colours at the same cells),
    /// and a tap the engine refuses changes nothing on the search board.
    #[test]
    fn search_board_taps_equal_the_engines(
        config in config_strategy(),
        w in 1u16..9,
        h in 1u16..9,
        colours in 2u8..6,
        seed in any::<u64>(),
    ) {
        let rules = CollapseRules::new(config.clone());
        let mut s = CollapseState::new_game(Size::new(w.into(), h.into(), 256).unwrap(), colours, seed);
        let mut b = Board::from_state(&s);
        let (mut scratch, mut engine_scratch) = (BoardScratch::default(), GroupScratch::default());
        let mut rng = BotRng::new(seed);
        let mut events = Vec::new();
        loop {
            same_cells(&b, &s)?;
            let mut engine = Vec::new();
            rules.groups_into(&s, &mut engine_scratch, &mut engine);
            let mut ours = Vec::new();
            b.groups_into(config.min_group.max(1), &mut scratch, &mut ours);
            let key = |p: Pos, size: u32, colour: u8| (s.group_at(p)[0], size, colour);
            let mut ours: Vec<_> = ours.iter().map(|g| key(b.pos(g.tap), g.size, g.colour)).collect();
            let mut theirs: Vec<_> = engine.iter().map(|g| key(g.at, g.size, g.colour)).collect();
            ours.sort_by_key(|k| (k.0.y, k.0.x));
            theirs.sort_by_key(|k| (k.0.y, k.0.x));
            prop_assert_eq!(&ours, &theirs);
            prop_assert_eq!(b.has_group(config.min_group.max(1), &mut scratch), !engine.is_empty());
            // A tap on any cell (often refused), then one on a group when there is one.
            let any = Pos::new(rng.below(u32::from(w)) as u16, rng.below(u32::from(h)) as u16);
            events.clear();
            let before = b.clone();
            match rules.apply(&mut s, &CollapseCommand::Tap(any), &mut events) {
                Ok(()) => prop_assert!(b.tap(b.tap_at(any), &config, &mut scratch) > 0),
                Err(_) => {
                    prop_assert_eq!(b.tap(b.tap_at(any), &config, &mut scratch), 0);
                    prop_assert_eq!(&b, &before);
                    if engine.is_empty() {
                        break;
                    }
                    let g = engine[rng.below(engine.len() as u32) as usize];
                    rules.apply(&mut s, &CollapseCommand::Tap(g.at), &mut events).unwrap();
                    prop_assert_eq!(b.tap(b.tap_at(g.at), &config, &mut scratch), g.size);
                }
            }
        }
    }
}

#[test]
fn every_level_returns_a_line_that_replays_to_its_score() {
    let (rules, state) = board(SMALL);
    let b = Board::from_state(&state);
    for level in 0..=2 {
        let mut search = Nmcs::new(&rules.config, 7, None);
        let (score, line) = search.search(&b, level);
        assert_eq!(replay(&rules, &state, &line), score, "level {level}");
    }
}

#[test]
fn level_two_finds_the_optimum_of_a_small_board() {
    let (rules, state) = board(SMALL);
    let optimum = brute_force(&rules, &mut state.clone());
    let mut search = Nmcs::new(&rules.config, 1, None);
    let (score, _) = search.search(&Board::from_state(&state), 2);
    assert_eq!(score, optimum);
}

#[test]
fn playouts_avoid_the_tabu_colour_while_another_group_exists() {
    // Colour 1 has most tiles; the only other group is the pair of 2s. Every playout taps the
    // 2s first (then the ten 1s make one group: 64 points, plus 1000 for the clear).
    let (rules, state) = board(&["1111", "1221", "1111"]);
    let b = Board::from_state(&state);
    let mut search = Nmcs::new(&rules.config, 5, None);
    for _ in 0..20 {
        let (score, line) = search.search(&b, 0);
        assert_eq!(b.colour(b.pos(line[0])), Some(2));
        assert_eq!(score, 1000 + 64);
    }
}

#[test]
fn playouts_draw_groups_uniformly_not_cells() {
    // Colour 1 has most tiles (tabu); the free groups are a pair of 2s (2 cells) and a block of
    // ten 3s: the first tap is either, about equally often, although one has five times the
    // cells.
    let (rules, state) = board(&["11111", "22333", "13333", "13331", "11111"]);
    let b = Board::from_state(&state);
    let mut search = Nmcs::new(&rules.config, 11, None);
    let mut twos = 0;
    for _ in 0..2000 {
        let (_, line) = search.search(&b, 0);
        let first = b.colour(b.pos(line[0])).unwrap();
        assert_ne!(first, 1, "the tabu colour is not played while others are");
        twos += u32::from(first == 2);
    }
    assert!((850..1150).contains(&twos), "{twos} of 2000 playouts began with the pair");
}

#[test]
fn solve_keeps_the_best_of_its_runs_and_stops_in_time() {
    let (rules, state) = board(SMALL);
    let began = Instant::now();
    let found = solve(&rules, &state, 1, 3, Deadline::wall_after(Duration::from_millis(50)));
    assert!(began.elapsed() < Duration::from_secs(5));
    assert!(found.runs >= 1 && found.playouts >= 1);
    let line: Vec<Tap> = found.taps.iter().map(|&p| Board::from_state(&state).tap_at(p)).collect();
    assert_eq!(replay(&rules, &state, &line), found.score);
    // The engine lists the same taps (each group's first cell).
    let mut s = state.clone();
    let mut events = Vec::new();
    for at in &found.taps {
        assert!(rules.legal_commands(&s).contains(&CollapseCommand::Tap(*at)), "{at}");
        rules.apply(&mut s, &CollapseCommand::Tap(*at), &mut events).unwrap();
    }
}

#[test]
fn a_cpu_time_budget_counts_this_threads_cpu_time() {
    let Some(start) = thread_cpu_time() else { return };
    let (rules, state) = board(SMALL);
    let deadline = Deadline::cpu_after(Duration::from_millis(30)).unwrap();
    let found = solve(&rules, &state, 1, 3, deadline);
    let used = thread_cpu_time().unwrap() - start;
    assert!(used >= Duration::from_millis(30) && used < Duration::from_secs(5), "{used:?}");
    assert!(found.runs > 1);
}

/// A random `w`×`h` board of `colours` colours from `seed`.
fn random_board(w: usize, h: usize, colours: u8, seed: u64) -> (CollapseRules, CollapseState) {
    let mut rng = BotRng::new(seed);
    let rows: Vec<String> = (0..h)
        .map(|_| (0..w).map(|_| char::from(b'0' + rng.below(u32::from(colours)) as u8)).collect())
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    board(&rows)
}

#[test]
fn nrpa_lines_replay_to_their_scores_at_every_level() {
    let (rules, state) = random_board(8, 8, 4, 21);
    for level in 0..=3 {
        let mut search = Nrpa::new(&rules.config, &state, 5, None, Some(2_000));
        let (score, line) = search.search(level);
        assert_eq!(replay(&rules, &state, &line), score, "level {level}");
        assert!(search.playouts <= 2_000 + 4, "level {level}: {} playouts", search.playouts);
    }
}

#[test]
fn nrpa_level_two_finds_the_optimum_of_a_small_board() {
    let (rules, state) = board(SMALL);
    let optimum = brute_force(&rules, &mut state.clone());
    let found = solve_nrpa(&rules, &state, 2, 1, 1, Budget::Playouts(20_000));
    assert_eq!(found.score, optimum);
}

/// Colour 1 has most tiles; the other group is the pair of 2s. An unadapted playout taps the
/// tabu 1s first in about e⁻⁶ of cases (0.25 %), so hardly ever.
#[test]
fn nrpa_playouts_rarely_play_the_tabu_colour_while_another_group_exists() {
    let (rules, state) = board(&["1111", "1221", "1111"]);
    let b = Board::from_state(&state);
    let mut search = Nrpa::new(&rules.config, &state, 3, None, None);
    let mut tabu_first = 0;
    for _ in 0..4000 {
        let (score, line) = search.search(0);
        if b.colour(b.pos(line[0])) == Some(1) {
            tabu_first += 1;
        } else {
            assert_eq!(score, 1000 + 64);
        }
    }
    assert!(tabu_first <= 30, "{tabu_first} of 4000 playouts began with the tabu colour");
}

/// Same seed, level, thread count and playout budget: the same line, in one thread or two; and
/// the two threads' result is the better of the two searches run one at a time.
#[test]
fn nrpa_is_deterministic_for_a_seed_and_a_playout_budget() {
    let (rules, state) = random_board(10, 10, 4, 8);
    for threads in [1, 2] {
        let a = solve_nrpa(&rules, &state, 2, 42, threads, Budget::Playouts(3_000));
        let b = solve_nrpa(&rules, &state, 2, 42, threads, Budget::Playouts(3_000));
        assert_eq!(
            (a.score, &a.taps, a.runs, a.playouts),
            (b.score, &b.taps, b.runs, b.playouts),
            "{threads} threads"
        );
        let line: Vec<Tap> = a.taps.iter().map(|&p| Board::from_state(&state).tap_at(p)).collect();
        assert_eq!(replay(&rules, &state, &line), a.score);
    }
    let two = solve_nrpa(&rules, &state, 2, 42, 2, Budget::Playouts(3_000));
    let one = solve_nrpa(&rules, &state, 2, 42, 1, Budget::Playouts(3_000));
    assert!(
        two.score >= one.score,
        "thread 0 of two is the one-thread search: {} < {}",
        two.score,
        one.score
    );
    assert!(two.playouts >= 2 * 3_000);
}

/// Adapting the policy pays: level-2 NRPA beats the best of as many playouts of the same
/// (tabu-colour) policy left unadapted, on a 15×15 board of five colours.
#[test]
fn nrpa_beats_as_many_unadapted_playouts() {
    let (rules, state) = random_board(15, 15, 5, 3);
    let budget = 10_000;
    let nrpa = solve_nrpa(&rules, &state, 2, 9, 1, Budget::Playouts(budget));
    let mut flat = Nrpa::new(&rules.config, &state, 9, None, None);
    let best_flat = (0..budget).map(|_| flat.search(0).0).max().unwrap_or(0);
    assert!(
        nrpa.score > best_flat + best_flat / 4,
        "NRPA {} vs best of {budget} playouts {best_flat}",
        nrpa.score
    );
}

#[test]
fn nrpa_stops_at_its_deadline_in_every_thread() {
    let (rules, state) = random_board(15, 15, 5, 4);
    let began = Instant::now();
    let found =
        solve_nrpa(&rules, &state, 5, 3, 2, Budget::Wall(Instant::now() + Duration::from_millis(100)));
    assert!(began.elapsed() < Duration::from_secs(5), "{:?}", began.elapsed());
    assert!(found.score > 0 && found.playouts > 0);
    if thread_cpu_time().is_some() {
        let found = solve_nrpa(&rules, &state, 5, 3, 2, Budget::ThreadCpu(Duration::from_millis(50)));
        let cpu = found.cpu.expect("a thread CPU clock");
        assert!(cpu >= Duration::from_millis(100) && cpu < Duration::from_secs(5), "{cpu:?}");
    }
}

/// The `nrpa` bot plans once: the game it plays is the best line of one level-2 search seeded
/// from its generator, played to the end (its final score is that line's), and the same seed
/// plays the same game.
#[test]
fn the_nrpa_bot_plays_the_line_of_its_one_search() {
    use tessera_bots::Bot;
    use tessera_bots::games::collapse::NrpaBot;
    let (rules, state) = random_board(10, 10, 4, 11);
    let planned = {
        let mut search = Nrpa::new(&rules.config, &state, BotRng::new(7).next_u64(), None, None);
        search.search(2).0
    };
    let play = || {
        let mut bot = NrpaBot::new(7, 2);
        let mut s = state.clone();
        let mut taps = Vec::new();
        let mut events = Vec::new();
        while let Some(tap) = bot.choose(&rules, &s) {
            rules.apply(&mut s, &tap, &mut events).expect("the bot plays legal taps");
            taps.push(tap);
            assert!(taps.len() <= 100, "a 10×10 board ends within 100 taps");
        }
        (s, taps)
    };
    let (end, taps) = play();
    assert!(rules.legal_commands(&end).is_empty(), "played to the end");
    assert_eq!(end.score(), planned, "the bot's game is its search's best line");
    assert_eq!(play().1, taps, "same seed, same game");
}
