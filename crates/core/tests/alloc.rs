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
            rules.redo(&mut s, &events);
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
            game.rules.redo(&mut game.state, &events);
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
