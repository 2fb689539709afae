//! The hot paths allocate nothing once the event buffer is warm: counted with a global allocator
//! that tallies allocations made by the current thread. A test binary of its own, so that the
//! counting allocator sees only this file's tests.

// A GlobalAlloc implementation is unsafe by definition; it only forwards to the system allocator.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use tessera_core::slide::{SlideCommand, SlideConfig, SlideRules, SlideState};
use tessera_core::{AnyCommand, Dir, Level, Rules, Size, Status};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|a| a.set(a.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn slide_apply_undo_redo_allocate_nothing_once_warm() {
    let rules = SlideRules::default();
    let size = Size::new(4, 4, 256).unwrap();
    let mut s = SlideState::new_game(size, &SlideConfig::default(), 5);
    let mut events = Vec::with_capacity(64);
    // Warm up: the first slide builds the line-plan table once per process.
    let _ = rules.apply(&mut s.clone(), &SlideCommand::Slide(Dir::Left), &mut events);
    let (mut applied, mut counted, mut games) = (0, 0, 0);
    for i in 0..20_000usize {
        events.clear();
        let cmd = SlideCommand::Slide(Dir::ALL[(i * 7 + i / 3) % 4]);
        let before = allocations();
        if rules.apply(&mut s, &cmd, &mut events).is_ok() {
            applied += 1;
            rules.undo(&mut s, &events);
            rules.redo(&mut s, &events).expect("recorded events fit");
        }
        counted += allocations() - before;
        if rules.status(&s) == Status::Over {
            games += 1;
            s = SlideState::new_game(size, &SlideConfig::default(), games);
        }
    }
    assert!(applied > 1000 && games > 3, "{applied} slides, {games} games");
    assert_eq!(counted, 0, "allocations in {applied} slides");
}

#[test]
fn any_rules_apply_allocates_nothing_once_warm() {
    let mut game = Level::classic().start(Some(9)).unwrap();
    let mut events = Vec::with_capacity(64);
    let cmds: Vec<AnyCommand> = Dir::ALL.iter().map(|&d| AnyCommand::Slide(SlideCommand::Slide(d))).collect();
    let _ = game.rules.apply(&mut game.state.clone(), &cmds[0], &mut events);
    let (mut applied, mut counted) = (0, 0);
    for i in 0..10_000usize {
        events.clear();
        let before = allocations();
        if game.rules.apply(&mut game.state, &cmds[(i * 7 + i / 3) % 4], &mut events).is_ok() {
            applied += 1;
            game.rules.undo(&mut game.state, &events);
            game.rules.redo(&mut game.state, &events).expect("recorded events fit");
            let _ = game.state.hash();
        }
        counted += allocations() - before;
        if game.rules.status(&game.state) == Status::Over {
            game = Level::classic().start(Some(i as u64)).unwrap();
        }
    }
    assert!(applied > 1000);
    assert_eq!(counted, 0, "allocations in {applied} steps");
}

/// `collapse` allocates exactly the `tiles` vector of each accepted tap's `Cleared` event
/// (capacity 32, doubled for larger groups); undo, redo, status and hashing allocate nothing.
/// A tap refused because its tile stands alone allocates only the refusal's message.
#[test]
fn collapse_allocates_only_the_cleared_tiles() {
    use tessera_core::collapse::{
        CollapseCommand, CollapseConfig, CollapseEvent, CollapseRules, CollapseState, Group, GroupScratch,
    };
    let rules = CollapseRules::new(CollapseConfig::standard());
    let size = Size::new(15, 15, 256).unwrap();
    let mut events: Vec<CollapseEvent> = Vec::with_capacity(1024);
    let mut scratch = GroupScratch::default();
    let mut groups: Vec<Group> = Vec::with_capacity(256);
    let (mut taps, mut expected, mut counted) = (0u64, 0u64, 0u64);
    for seed in 0..20 {
        let mut s = CollapseState::new_game(size, 5, seed);
        let mut pick = seed as usize;
        loop {
            groups.clear();
            rules.groups_into(&s, &mut scratch, &mut groups);
            let Some(&g) = groups.get(pick % groups.len().max(1)) else { break };
            pick = pick.wrapping_mul(31).wrapping_add(7) % 1_000_003;
            events.clear();
            let before = allocations();
            rules.apply(&mut s, &CollapseCommand::Tap(g.at), &mut events).unwrap();
            rules.undo(&mut s, &events);
            rules.redo(&mut s, &events).expect("recorded events fit");
            let _ = (rules.status(&s), tessera_core::state_hash(&s));
            counted += allocations() - before;
            taps += 1;
            let mut cap = 32;
            expected += 1;
            while cap < g.size {
                cap *= 2;
                expected += 1;
            }
        }
    }
    assert!(taps > 500, "{taps} taps");
    assert_eq!(counted, expected, "allocations in {taps} taps");
    // A lone tile is refused without a flood fill: one allocation, the message naming the cell.
    let mut s = CollapseState::from_cells(Size::new(2, 1, 256).unwrap(), &[Some(0), Some(1)], 0).unwrap();
    let before = allocations();
    let refused = rules.apply(&mut s, &CollapseCommand::Tap(tessera_core::Pos::new(0, 0)), &mut events);
    assert_eq!(allocations() - before, 1);
    assert_eq!(refused.unwrap_err().message, "the group at (0, 0) has 1 tile; at least 2 are needed");
}

/// `match3` allocates exactly the block list of each `Matched` event (sized once) and of each
/// `Shuffled` event; swap-backs, spawns, falls, undo, redo, status and hashing allocate nothing.
#[test]
fn match3_allocates_only_the_match_and_shuffle_lists() {
    use tessera_core::match3::{Match3Command, Match3Event, Match3Level};
    let mut events: Vec<Match3Event> = Vec::with_capacity(4096);
    let (mut steps, mut expected, mut counted, mut swap_backs) = (0u64, 0u64, 0u64, 0u64);
    for (seed, breeds) in [(1u64, 6u8), (2, 4), (3, 3)] {
        let mut level = Match3Level::standard();
        level.config.breeds = breeds;
        let (rules, mut s) = level.start(seed).unwrap();
        // Warm up the thread's scratch buffers: a resolved swap and a shuffle on copies.
        let hint = rules.hint(&s).unwrap();
        rules.apply(&mut s.clone(), &hint, &mut events).unwrap();
        rules.shuffle_into(&mut s.clone(), &mut events);
        for i in 0..400u64 {
            // Every seventh step a swap that swaps back (or is refused), else the hint.
            let cmd = if i % 7 == 3 {
                let x = (i % 8) as u16;
                Match3Command::Swap(tessera_core::Pos::new(x, 0), tessera_core::Pos::new(x + 1, 0))
            } else {
                match rules.hint(&s) {
                    Some(c) => c,
                    None => break,
                }
            };
            events.clear();
            let before = allocations();
            let ok = rules.apply(&mut s, &cmd, &mut events).is_ok();
            if ok {
                rules.undo(&mut s, &events);
                rules.redo(&mut s, &events).expect("recorded events fit");
            }
            let _ = (rules.status(&s), tessera_core::state_hash(&s));
            counted += allocations() - before;
            steps += 1;
            swap_backs += u64::from(matches!(events.last(), Some(Match3Event::SwappedBack { .. })));
            expected += events
                .iter()
                .filter(|e| match e {
                    Match3Event::Matched { .. } => true,
                    Match3Event::Shuffled { blocks, .. } => !blocks.is_empty(),
                    _ => false,
                })
                .count() as u64;
        }
    }
    assert!(steps > 1000 && swap_backs > 20, "{steps} steps, {swap_backs} swap-backs");
    assert_eq!(counted, expected, "allocations in {steps} steps");
}

#[test]
fn tactics_searches_allocate_nothing_once_warm() {
    use tessera_core::Pos;
    use tessera_core::tactics::{Connectivity, PathFinder, TacticsCommand, TacticsLevel, UnitSpec, Weight};
    let map: Vec<String> = (0..40)
        .map(|y| {
            (0..40)
                .map(|x| {
                    if (x * 7 + y * 3) % 11 == 0 {
                        '#'
                    } else if x % 5 == 0 {
                        'f'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let level = TacticsLevel {
        map,
        units: vec![
            UnitSpec { team: 0, x: 1, y: 1, movement: 12 },
            UnitSpec { team: 1, x: 30, y: 30, movement: 5 },
        ],
        config: tessera_core::tactics::TacticsConfig { connectivity: Connectivity::Eight },
        ..TacticsLevel::default()
    };
    let (rules, mut state) = level.start().unwrap();
    let unit = state.units()[0].id;
    let mut finder = PathFinder::new();
    let mut range = Vec::new();
    let mut cells = Vec::new();
    let graph = state.graph_for(Some(unit));
    // The first round grows the buffers (cells, queue buckets, stack) to what these queries
    // need; the second repeats the same queries and must allocate nothing.
    let queries = |finder: &mut PathFinder, cells: &mut Vec<Pos>, range: &mut Vec<_>| {
        for k in 0..200u16 {
            let to = Pos::new(2 + k % 37, 38 - k % 29);
            let w = Weight([0, 1000, 1500][usize::from(k % 3)]);
            if finder.path(&graph, Connectivity::Eight, Pos::new(1, 1), to, w).is_some() {
                finder.path_to(state.size(), to, cells);
            }
            rules.reachable_into(&state, unit, finder, range);
        }
    };
    queries(&mut finder, &mut cells, &mut range);
    let before = allocations();
    queries(&mut finder, &mut cells, &mut range);
    assert_eq!(allocations() - before, 0, "path and reachable allocated");
    // End-turn apply, undo and redo allocate nothing once the event buffer is warm.
    let mut events = Vec::with_capacity(16);
    rules.apply(&mut state.clone(), &TacticsCommand::EndTurn, &mut events).unwrap();
    let before = allocations();
    for _ in 0..100 {
        events.clear();
        rules.apply(&mut state, &TacticsCommand::EndTurn, &mut events).unwrap();
        rules.undo(&mut state, &events);
        rules.redo(&mut state, &events).expect("recorded events fit");
    }
    assert_eq!(allocations() - before, 0, "end-turn allocated");
}

/// `random_group` and `groups_into` allocate nothing once their buffers have grown.
#[test]
fn collapse_group_sampling_and_listing_allocate_nothing_once_warm() {
    use tessera_core::collapse::{
        CollapseCommand, CollapseConfig, CollapseRules, CollapseState, GroupScratch,
    };
    let rules = CollapseRules::new(CollapseConfig::standard());
    let size = Size::new(15, 15, 256).unwrap();
    let mut scratch = GroupScratch::default();
    let mut groups = Vec::with_capacity(256);
    let mut events = Vec::with_capacity(1024);
    let mut x = 99u64;
    let mut below = move |n: u32| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (((x >> 32) * u64::from(n)) >> 32) as u32
    };
    // Warm up on one board, then count on others of the same size.
    let warm = CollapseState::new_game(size, 5, 0);
    rules.groups_into(&warm, &mut scratch, &mut groups);
    let _ = rules.random_group(&warm, &mut scratch, &mut below);
    let (mut counted, mut taps) = (0, 0);
    for seed in 1..10 {
        let mut s = CollapseState::new_game(size, 5, seed);
        loop {
            let before = allocations();
            groups.clear();
            rules.groups_into(&s, &mut scratch, &mut groups);
            let g = rules.random_group(&s, &mut scratch, &mut below);
            counted += allocations() - before;
            let Some(g) = g else { break };
            events.clear();
            rules.apply(&mut s, &CollapseCommand::Tap(g.at), &mut events).unwrap();
            taps += 1;
        }
    }
    assert!(taps > 100);
    assert_eq!(counted, 0, "allocations in {taps} samplings");
}
