//! match3: swap, swap-back, matches, unlocks, falls, spawns, shuffle and recolour.

use crate::common::{anim_of, assert_mirrors, follow, step, undo};
use tessera_core::match3::{Match3Command, Match3Event, Match3Rules, Match3State, ShuffledBlock};
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Id, Pos, RngSpan, Rules};
use tessera_ecs::{Anim, AnimKind, Label, Layer, Look, Mirror, Shape};

fn game(rows: &[&str]) -> (AnyRules, AnyState) {
    (AnyRules::Match3(Match3Rules::default()), AnyState::Match3(Match3State::from_rows(rows, 3).unwrap()))
}

fn swap(a: (u16, u16), b: (u16, u16)) -> AnyCommand {
    AnyCommand::Match3(Match3Command::Swap(Pos::new(a.0, a.1), Pos::new(b.0, b.1)))
}

fn m3(e: &AnyEvent) -> &Match3Event {
    match e {
        AnyEvent::Match3(e) => e,
        other => panic!("not a match3 event: {other:?}"),
    }
}

#[test]
fn voids_are_ground_entities_and_blocks_pieces() {
    let (_, state) = game(&["a#b", "cDe"]);
    let m = Mirror::from_state(&state);
    assert_eq!(m.world().len(), 6);
    let void = m.ground_at(Pos::new(1, 0)).unwrap();
    assert_eq!(m.world().get::<&Look>(void).unwrap().shape, Shape::Void);
    assert!(m.piece_at(Pos::new(1, 0)).is_none());
    assert!(m.ground_at(Pos::new(1, 1)).is_none());
    let cells = m.cells_by_position();
    assert_eq!(cells[1], (Pos::new(1, 0), Layer::Ground, Look::new(Shape::Void, None)));
    // A block is a disc lettered with its breed.
    let d = Look::new(Shape::Disc { colour: 3, locked: true }, Some(Label::Char('D')));
    assert_eq!(cells[4], (Pos::new(1, 1), Layer::Piece, d));
    m.check().unwrap();
}

/// No run after the swap: the blocks swap (phase 0) and swap back (phase 1), ending where they
/// started.
#[test]
fn swap_back_animates_both_ways() {
    let (rules, mut state) = game(&["abc", "bca", "cab"]);
    let (m, events) = step(&rules, &mut state, &swap((0, 0), (1, 0)));
    assert!(matches!(m3(&events[1]), Match3Event::SwappedBack { .. }));
    let (a, b) = (Pos::new(0, 0), Pos::new(1, 0));
    let (anim, trail) = anim_of(&m, Id(0)).unwrap();
    assert_eq!(trail, vec![Anim::new(AnimKind::Swap, a, b, 0), Anim::new(AnimKind::SwapBack, b, a, 1)]);
    assert_eq!(anim, trail[1]);
    assert_eq!(
        anim_of(&m, Id(1)).unwrap().1,
        vec![Anim::new(AnimKind::Swap, b, a, 0), Anim::new(AnimKind::SwapBack, a, b, 1)]
    );
    assert_eq!(m.phases(), 2);
    assert_eq!(m.touched(), vec![a, b]);
}

/// `A a b a` → swapping the last two makes the run `A a a` through a locked block: the two
/// unlocked blocks go (ghosts), the locked one is unlocked in the same phase; then falls and
/// spawns, each in later phases.
#[test]
fn a_match_through_a_lock_unlocks_it_and_removes_the_rest() {
    let (rules, mut state) = game(&["cdef", "defc", "Aaba", "efcd"]);
    let locked = Id(8);
    let (m, events) = step(&rules, &mut state, &swap((2, 2), (3, 2)));
    assert!(matches!(m3(&events[1]), Match3Event::Matched { cascade: 1, .. }));
    assert!(matches!(m3(&events[2]), Match3Event::Unlocked { block, .. } if *block == locked));
    let (unlock, _) = anim_of(&m, locked).unwrap();
    assert_eq!(unlock.kind, AnimKind::Unlock);
    assert_eq!(unlock.phase, 1, "the swap is phase 0");
    assert_eq!(
        m.world().get::<&Look>(m.entity_of(locked).unwrap()).unwrap().shape,
        Shape::Disc { colour: 0, locked: false }
    );
    // The swapped block that went in the match: its ghost's trail is the swap, then the clear.
    let swapped = m.ghosts().iter().find(|g| g.id == Some(Id(11))).unwrap();
    assert_eq!(swapped.trail[0], Anim::new(AnimKind::Swap, Pos::new(3, 2), Pos::new(2, 2), 0));
    assert_eq!(swapped.anim, Anim::new(AnimKind::Clear, Pos::new(2, 2), Pos::new(2, 2), 1));
    let level1: Vec<_> = m.ghosts().iter().filter(|g| g.anim.phase == 1).map(|g| g.at).collect();
    assert_eq!(level1, vec![Pos::new(1, 2), Pos::new(2, 2)]);
    // Blocks above the cleared cells fall after the match, spawns come after the falls.
    let fall = anim_of(&m, Id(1)).unwrap().1[0].clone();
    assert_eq!(fall.kind, AnimKind::Fall);
    assert_eq!((fall.from, fall.phase), (Pos::new(1, 0), 2));
    let spawn_phases: Vec<u32> = events
        .iter()
        .filter_map(|e| match m3(e) {
            Match3Event::Spawned { block, .. } => Some(*block),
            _ => None,
        })
        .filter_map(|id| anim_of(&m, id).map(|(_, t)| t[0].phase))
        .collect();
    assert!(spawn_phases.iter().all(|&p| p >= 3));
    assert!(m.phases() >= 4);
}

#[test]
fn undo_of_a_cascade_relocks_and_restores_every_block() {
    let (rules, mut state) = game(&["cdef", "defc", "Aaba", "efcd"]);
    let (mut m, events) = step(&rules, &mut state, &swap((2, 2), (3, 2)));
    let spawned = events.iter().filter(|e| matches!(m3(e), Match3Event::Spawned { .. })).count();
    undo(&rules, &mut state, &mut m, &events);
    assert_eq!(m.ghosts().len(), spawned, "every spawned block leaves as a ghost");
    assert!(m.ghosts().iter().all(|g| g.anim.kind == AnimKind::Spawn));
    assert_eq!(
        m.world().get::<&Look>(m.entity_of(Id(8)).unwrap()).unwrap().shape,
        Shape::Disc { colour: 0, locked: true }
    );
    let (swap_back, _) = anim_of(&m, Id(10)).unwrap();
    assert_eq!(swap_back, Anim::new(AnimKind::Swap, Pos::new(3, 2), Pos::new(2, 2), m.phases() - 1));
}

/// A shuffle and a recolour (events made by hand: a dead board is rare), redone by the rules
/// and applied by the mirror.
#[test]
fn shuffle_moves_blocks_and_recolour_changes_breed() {
    let (rules, mut state) = game(&["abA", "ba#"]);
    let mut m = Mirror::from_state(&state);
    let events: Vec<AnyEvent> = vec![
        Match3Event::Shuffled {
            blocks: vec![
                ShuffledBlock { block: Id(0), breed: 0, from: Pos::new(0, 0), to: Pos::new(1, 1) },
                ShuffledBlock { block: Id(4), breed: 0, from: Pos::new(1, 1), to: Pos::new(0, 1) },
                ShuffledBlock { block: Id(3), breed: 1, from: Pos::new(0, 1), to: Pos::new(0, 0) },
            ],
            rng: RngSpan { before: 0, after: 0 },
        }
        .into(),
        Match3Event::Recoloured { block: Id(0), at: Pos::new(1, 1), from: 0, to: 2 }.into(),
    ];
    let before = state.clone();
    rules.redo(&mut state, &events).expect("recorded events fit");
    follow(&mut m, &events, true);
    assert_mirrors(&m, &state);
    assert_eq!(m.phases(), 1);
    assert_eq!(
        anim_of(&m, Id(0)).unwrap().0,
        Anim::new(AnimKind::Shuffle, Pos::new(0, 0), Pos::new(1, 1), 0)
    );
    assert_eq!(
        m.world().get::<&Look>(m.entity_of(Id(0)).unwrap()).unwrap().shape,
        Shape::Disc { colour: 2, locked: false }
    );
    rules.undo(&mut state, &events);
    assert_eq!(state, before);
    follow(&mut m, &events, false);
    assert_mirrors(&m, &state);
    assert_eq!(
        anim_of(&m, Id(3)).unwrap().0,
        Anim::new(AnimKind::Shuffle, Pos::new(0, 0), Pos::new(0, 1), 0)
    );
}

/// Random games on a board with voids and locks: every step follows, and unwinds to the start.
#[test]
fn hinted_games_with_voids_and_locks_follow_and_unwind() {
    let lv = crate::common::level(
        r##"{"rule_set": "match3", "config": {"breeds": 4},
            "board": ["#.....", "..*...", "...#..", ".*....", "......", "..#..."]}"##,
    );
    for seed in 0..4 {
        let game = lv.start(Some(seed)).unwrap();
        let (rules, mut state) = (game.rules, game.state);
        let start = state.clone();
        let mut m = Mirror::from_state(&state);
        let mut steps = Vec::new();
        for _ in 0..15 {
            let Some(cmd) = rules.hint(&state) else { break };
            let mut events = Vec::new();
            rules.apply(&mut state, &cmd, &mut events).unwrap();
            follow(&mut m, &events, true);
            assert_mirrors(&m, &state);
            steps.push(events);
        }
        while let Some(events) = steps.pop() {
            undo(&rules, &mut state, &mut m, &events);
        }
        assert_eq!(state, start);
    }
}

/// A real dead board: small boards with many breeds die often (4×4 with 5 breeds: most games). Plays first legal swaps from a few
/// seeds until a step shuffles, then follows that step and undoes it.
#[test]
fn a_shuffle_step_from_the_rules_follows_and_unwinds() {
    let lv =
        crate::common::level(r#"{"rule_set": "match3", "width": 4, "height": 4, "config": {"breeds": 5}}"#);
    let mut shuffled = 0;
    for seed in 0..40 {
        let game = lv.start(Some(seed)).unwrap();
        let (rules, mut state) = (game.rules, game.state);
        let mut m = Mirror::from_state(&state);
        for _ in 0..20 {
            let Some(cmd) = rules.legal_commands(&state).into_iter().next() else { break };
            let mut events = Vec::new();
            rules.apply(&mut state, &cmd, &mut events).unwrap();
            follow(&mut m, &events, true);
            assert_mirrors(&m, &state);
            if events.iter().any(|e| matches!(m3(e), Match3Event::Shuffled { .. })) {
                shuffled += 1;
                assert!(anim_of_any(&m, AnimKind::Shuffle));
                undo(&rules, &mut state, &mut m, &events);
                break;
            }
        }
    }
    assert!(shuffled > 0, "no shuffle in 40 games");
}

fn anim_of_any(m: &Mirror, kind: AnimKind) -> bool {
    m.world().query::<&Anim>().iter().any(|a| a.kind == kind)
}

/// The id map is a hash map: `pieces_by_id` still lists every piece once, sorted by id, each
/// where `entity_of` and `piece_at` find it, after steps whose spawns gave new ids to the top
/// rows (so ids no longer follow the cells' order).
#[test]
fn pieces_by_id_is_sorted_after_spawns() {
    let lv = crate::common::level(r#"{"rule_set": "match3", "width": 12, "height": 12}"#);
    let game = lv.start(Some(5)).unwrap();
    let (rules, mut state) = (game.rules, game.state);
    let mut m = Mirror::from_state(&state);
    let mut spawned = 0;
    for _ in 0..6 {
        let cmd = rules.hint(&state).expect("a valid swap");
        let mut events = Vec::new();
        rules.apply(&mut state, &cmd, &mut events).unwrap();
        spawned += events.iter().filter(|e| matches!(m3(e), Match3Event::Spawned { .. })).count();
        follow(&mut m, &events, true);
    }
    assert!(spawned > 0, "the steps spawned blocks");
    let pieces = m.pieces_by_id();
    assert_eq!(pieces.len(), 144);
    assert!(pieces.windows(2).all(|w| w[0].0 < w[1].0), "sorted by id, no duplicate");
    let in_row_order: Vec<Id> = m
        .cells_by_position()
        .iter()
        .filter(|&&(_, layer, _)| layer == Layer::Piece)
        .filter_map(|&(p, ..)| m.piece_at(p))
        .map(|e| m.world().get::<&tessera_ecs::GameId>(e).unwrap().0)
        .collect();
    assert_ne!(in_row_order, pieces.iter().map(|p| p.0).collect::<Vec<_>>(), "ids out of cell order");
    for &(id, cell, look) in &pieces {
        let e = m.entity_of(id).unwrap();
        assert_eq!(m.piece_at(cell), Some(e));
        assert_eq!(*m.world().get::<&Look>(e).unwrap(), look);
    }
    assert_mirrors(&m, &state);
}
