use super::*;

fn game(rows: &[&[u32]]) -> SlideState {
    let size = Size::new(rows[0].len(), rows.len(), MAX_SIDE).unwrap();
    let values: Vec<u32> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    SlideState::from_values(size, &values, 1).unwrap()
}

/// Slides and returns the board before the spawn (undoing just the spawn) and the events.
fn slide_no_spawn(state: &mut SlideState, dir: Dir) -> (Vec<Vec<u32>>, Vec<SlideEvent>) {
    let rules = SlideRules::default();
    let mut events = Vec::new();
    rules.apply(state, &SlideCommand::Slide(dir), &mut events).unwrap();
    let mut copy = state.clone();
    for e in events.iter().rev() {
        if matches!(e, SlideEvent::Spawned { .. } | SlideEvent::GameOver | SlideEvent::Won { .. }) {
            rules.undo_event(&mut copy, e);
        }
    }
    (copy.values(), events)
}

fn row_after(row: &[u32], dir: Dir) -> Vec<u32> {
    let mut s = game(&[row]);
    slide_no_spawn(&mut s, dir).0.remove(0)
}

#[test]
fn merges_once_per_move() {
    assert_eq!(row_after(&[2, 2, 2, 2], Dir::Left), [4, 4, 0, 0]);
    assert_eq!(row_after(&[2, 2, 2, 0], Dir::Left), [4, 2, 0, 0]);
    assert_eq!(row_after(&[4, 4, 8, 0], Dir::Left), [8, 8, 0, 0]);
    assert_eq!(row_after(&[2, 2, 2], Dir::Right), [0, 2, 4]);
    assert_eq!(row_after(&[2, 0, 0, 2], Dir::Left), [4, 0, 0, 0]);
    assert_eq!(row_after(&[8, 0, 4, 4], Dir::Right), [0, 0, 8, 8]);
}

#[test]
fn condense_closes_gaps_toward_the_edge() {
    assert_eq!(row_after(&[0, 2, 0, 4], Dir::Left), [2, 4, 0, 0]);
    assert_eq!(row_after(&[2, 0, 4, 0], Dir::Right), [0, 0, 2, 4]);
}

#[test]
fn seed_example_board_slides_up() {
    // The board of seed 003: | |4| | | / | | |4| | / |2| |2|2| / |2| | | |
    let mut s = game(&[&[0, 4, 0, 0], &[0, 0, 4, 0], &[2, 0, 2, 2], &[2, 0, 0, 0]]);
    let (board, events) = slide_no_spawn(&mut s, Dir::Up);
    assert_eq!(board, vec![vec![4, 4, 4, 2], vec![0, 0, 2, 0], vec![0, 0, 0, 0], vec![0, 0, 0, 0]]);
    // Column 0: both 2s move and meet at (0, 0): a double combine.
    assert!(events.iter().any(|e| matches!(e,
        SlideEvent::Merged { from, absorbed_from, to, value: 4, combine: Combine::Double, .. }
            if *from == Pos::new(0, 2) && *absorbed_from == Pos::new(0, 3) && *to == Pos::new(0, 0))));
    let moves: Vec<(Pos, Pos)> = events
        .iter()
        .filter_map(|e| match e {
            SlideEvent::Moved { from, to, .. } => Some((*from, *to)),
            _ => None,
        })
        .collect();
    assert_eq!(
        moves,
        vec![
            (Pos::new(2, 1), Pos::new(2, 0)),
            (Pos::new(2, 2), Pos::new(2, 1)),
            (Pos::new(3, 2), Pos::new(3, 0))
        ]
    );
    assert!(events.contains(&SlideEvent::Scored { points: 4 }));
}

#[test]
fn single_combine_when_the_first_tile_rests() {
    let mut s = game(&[&[2, 2, 0, 0]]);
    let (_, events) = slide_no_spawn(&mut s, Dir::Left);
    assert!(matches!(events[0], SlideEvent::Merged { combine: Combine::Single, value: 4, .. }));
    let mut s = game(&[&[0, 2, 2, 0]]);
    let (_, events) = slide_no_spawn(&mut s, Dir::Left);
    assert!(matches!(events[0], SlideEvent::Merged { combine: Combine::Double, value: 4, .. }));
}

#[test]
fn merged_tile_keeps_the_id_nearer_the_edge() {
    let mut s = game(&[&[2, 2, 0]]);
    let left_id = s.tile(Pos::new(0, 0)).unwrap().id;
    slide_no_spawn(&mut s, Dir::Left);
    assert_eq!(s.tile(Pos::new(0, 0)).unwrap().id, left_id);
    let mut s = game(&[&[0, 2, 2]]);
    let right_id = s.tile(Pos::new(2, 0)).unwrap().id;
    slide_no_spawn(&mut s, Dir::Right);
    assert_eq!(s.tile(Pos::new(2, 0)).unwrap().id, right_id);
}

#[test]
fn score_adds_every_merged_value() {
    let mut s = game(&[&[2, 2, 4, 4], &[8, 8, 0, 0]]);
    slide_no_spawn(&mut s, Dir::Left);
    assert_eq!(s.score(), 4 + 8 + 16);
}

#[test]
fn a_slide_that_changes_nothing_is_rejected_and_spawns_nothing() {
    let mut s = game(&[&[2, 4, 0, 0], &[8, 0, 0, 0]]);
    let before = s.clone();
    let mut events = Vec::new();
    let err = SlideRules::default().apply(&mut s, &SlideCommand::Slide(Dir::Left), &mut events).unwrap_err();
    assert_eq!(err.code, "no_change");
    assert!(events.is_empty());
    assert_eq!(s, before);
    assert!(!s.can_slide(Dir::Left) && !s.can_slide(Dir::Up));
    assert!(s.can_slide(Dir::Right) && s.can_slide(Dir::Down));
}

#[test]
fn one_tile_spawns_on_an_empty_cell_after_a_slide() {
    for seed in 0..50 {
        let size = Size::new(4, 4, MAX_SIDE).unwrap();
        let mut values = vec![0; 16];
        values[0] = 2;
        let mut s = SlideState::from_values(size, &values, seed).unwrap();
        let mut events = Vec::new();
        SlideRules::default().apply(&mut s, &SlideCommand::Slide(Dir::Right), &mut events).unwrap();
        let spawned: Vec<_> = events.iter().filter(|e| matches!(e, SlideEvent::Spawned { .. })).collect();
        assert_eq!(spawned.len(), 1);
        let SlideEvent::Spawned { at, value, .. } = spawned[0] else { unreachable!() };
        assert!(*at != Pos::new(3, 0), "spawned on the moved tile");
        assert!(*value == 2 || *value == 4);
        assert_eq!(s.tiles().count(), 2);
    }
}

#[test]
fn spawn_odds_are_configurable() {
    for (chance, expected) in [(Chance { num: 1, den: 1 }, 4), (Chance { num: 0, den: 1 }, 2)] {
        let config = SlideConfig { four_chance: chance, ..SlideConfig::default() };
        let s = SlideState::new_game(Size::new(4, 4, MAX_SIDE).unwrap(), &config, 9);
        let values: Vec<u32> = s.tiles().map(|(_, t)| t.value).collect();
        assert_eq!(values, vec![expected; 2]);
    }
}

#[test]
fn spawn_values_follow_the_default_odds() {
    // 2000 new games draw 4000 spawns; about one in ten should be a 4.
    let size = Size::new(4, 4, MAX_SIDE).unwrap();
    let fours: usize = (0..2000)
        .map(|seed| {
            let s = SlideState::new_game(size, &SlideConfig::default(), seed);
            s.tiles().filter(|(_, t)| t.value == 4).count()
        })
        .sum();
    assert!((300..500).contains(&fours), "{fours} fours in 4000 spawns");
}

#[test]
fn won_is_emitted_once_and_play_goes_on() {
    let rules = SlideRules::new(SlideConfig { target: 8, ..SlideConfig::default() });
    let mut s = game(&[&[4, 4, 0, 0], &[4, 4, 0, 0], &[0, 0, 0, 0]]);
    let mut events = Vec::new();
    rules.apply(&mut s, &SlideCommand::Slide(Dir::Left), &mut events).unwrap();
    assert_eq!(events.iter().filter(|e| matches!(e, SlideEvent::Won { value: 8 })).count(), 1);
    assert_eq!(rules.status(&s), Status::Won);
    events.clear();
    rules.apply(&mut s, &SlideCommand::Slide(Dir::Up), &mut events).unwrap();
    assert!(!events.iter().any(|e| matches!(e, SlideEvent::Won { .. })));
}

#[test]
fn game_over_when_full_and_no_equal_neighbours() {
    // 1×2: [4, .] slides right to [., 4]; the spawn fills the last cell. A 2 ends the game, a 4
    // can still merge.
    for seed in 0..40 {
        let mut s = SlideState::from_values(Size::new(2, 1, MAX_SIDE).unwrap(), &[4, 0], seed).unwrap();
        let mut events = Vec::new();
        SlideRules::default().apply(&mut s, &SlideCommand::Slide(Dir::Right), &mut events).unwrap();
        let spawned_two = events.iter().any(|e| matches!(e, SlideEvent::Spawned { value: 2, .. }));
        assert_eq!(events.last() == Some(&SlideEvent::GameOver), spawned_two);
        let status = SlideRules::default().status(&s);
        assert_eq!(status == Status::Over, spawned_two);
    }
    let full = game(&[&[2, 4], &[4, 2]]);
    assert_eq!(SlideRules::default().status(&full), Status::Over);
    assert!(SlideRules::default().legal_commands(&full).is_empty());
}

#[test]
fn undo_restores_seed_example_exactly() {
    let mut s = game(&[&[0, 4, 0, 0], &[0, 0, 4, 0], &[2, 0, 2, 2], &[2, 0, 0, 0]]);
    let before = s.clone();
    let rules = SlideRules::default();
    let mut events = Vec::new();
    rules.apply(&mut s, &SlideCommand::Slide(Dir::Up), &mut events).unwrap();
    let after = s.clone();
    rules.undo(&mut s, &events);
    assert_eq!(s, before);
    rules.redo(&mut s, &events).expect("recorded events fit");
    assert_eq!(s, after);
}

#[test]
fn every_size_from_one_by_one_to_256_is_accepted() {
    assert!(Size::new(1, 1, MAX_SIDE).is_ok());
    let s = SlideState::new_game(Size::new(256, 256, MAX_SIDE).unwrap(), &SlideConfig::default(), 3);
    assert_eq!(s.tiles().count(), 2);
    let one = SlideState::new_game(Size::new(1, 1, MAX_SIDE).unwrap(), &SlideConfig::default(), 3);
    assert_eq!(one.tiles().count(), 1);
    assert!(Size::new(257, 4, MAX_SIDE).is_err());
}

#[test]
fn command_text_round_trips() {
    for d in Dir::ALL {
        let c = SlideCommand::Slide(d);
        assert_eq!(c.to_string().parse::<SlideCommand>().unwrap(), c);
    }
    assert!("sideways".parse::<SlideCommand>().is_err());
}

mod exponents_follow_the_board {
    use super::*;
    use proptest::prelude::*;

    /// A random board up to 20×20 (lines of four and others), tiles up to 2^17 (beyond the
    /// four-cell plans' 2^15).
    fn state() -> impl Strategy<Value = SlideState> {
        (1usize..=20, 1usize..=20, any::<u64>()).prop_flat_map(|(w, h, seed)| {
            prop::collection::vec(prop::option::weighted(0.6, 1u32..=17), w * h).prop_map(move |cells| {
                let values: Vec<u32> = cells.iter().map(|c| c.map_or(0, |k| 1 << k)).collect();
                SlideState::from_values(Size::new(w, h, MAX_SIDE).unwrap(), &values, seed).unwrap()
            })
        })
    }

    fn assert_follows(s: &SlideState) {
        assert_eq!(s.exps, Exponents::of(s.board.cells()), "the exponents drifted from the board");
    }

    proptest! {
        /// After any sequence of slides, undos and redos, the exponents the scans read are those
        /// of the board: the cache never drifts.
        #[test]
        fn after_apply_undo_and_redo(mut s in state(), ops in prop::collection::vec((0u8..4, 0usize..4), 1..40)) {
            let rules = SlideRules::default();
            let mut done: Vec<Vec<SlideEvent>> = Vec::new();
            let mut undone: Vec<Vec<SlideEvent>> = Vec::new();
            for (op, d) in ops {
                match op {
                    0 | 1 => {
                        let mut events = Vec::new();
                        if rules.apply(&mut s, &SlideCommand::Slide(Dir::ALL[d]), &mut events).is_ok() {
                            done.push(events);
                            undone.clear();
                        }
                    }
                    2 => {
                        if let Some(events) = done.pop() {
                            for e in events.iter().rev() {
                                rules.undo_event(&mut s, e);
                            }
                            undone.push(events);
                        }
                    }
                    _ => {
                        if let Some(events) = undone.pop() {
                            for e in &events {
                                rules.redo_event(&mut s, e).unwrap();
                            }
                            done.push(events);
                        }
                    }
                }
                assert_follows(&s);
                prop_assert_eq!(s.hash(), s.recompute_hash());
            }
        }
    }
}

#[test]
fn rows_by_multiplying_equal_rows_by_dividing() {
    for w in 1..=usize::from(MAX_SIDE) {
        for p in 0..usize::from(MAX_SIDE) * usize::from(MAX_SIDE) {
            assert_eq!(row_of(p, w), p / w, "cell {p}, width {w}");
        }
    }
}

#[test]
fn the_largest_tiles_do_not_merge_and_nothing_overflows() {
    let big = MAX_TILE;
    // Two 2^29 merge into the largest tile; two of those stay apart.
    assert_eq!(row_after(&[big / 2, big / 2, 0], Dir::Left), [big, 0, 0]);
    let mut s = game(&[&[big, big]]);
    let mut events = Vec::new();
    let refused = SlideRules::default().apply(&mut s, &SlideCommand::Slide(Dir::Left), &mut events);
    assert_eq!(refused.map_err(|r| r.code), Err("no_change"));
    assert!(!s.can_move() && !s.can_slide(Dir::Right));
    assert_eq!(row_after(&[big, big, 0, 2], Dir::Right), [0, big, big, 2], "they slide, not merge");
    // Larger values are not tiles: not in a level, not in a stored state.
    assert!(SlideState::from_values(Size::new(2, 1, MAX_SIDE).unwrap(), &[big * 2, 0], 1).is_none());
    let json = serde_json::to_string(&game(&[&[2, 4]])).unwrap().replace("\"value\":4", "\"value\":3");
    let e = serde_json::from_str::<SlideState>(&json).unwrap_err().to_string();
    assert!(e.contains("cell (1, 0): 3 is not a tile value"), "{e}");
}
