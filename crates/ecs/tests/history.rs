//! The cross-crate invariant: for every rule set, after any sequence of `History` execute, undo,
//! redo and seek, the mirror that followed the events equals a mirror built fresh from the
//! state.
//!
//! How the mirror follows: execute and redo apply the step's events in order, undo unapplies
//! them in reverse order, each after `begin_step` (as the editor does). A seek walks the line
//! one step at a time with the recorded events (`History::events_at`), unapplying back or
//! applying forward. The editor rebuilds with `Mirror::from_state` on a seek instead, which
//! equals a fresh mirror by definition; walking is the check that says something.

use crate::common::{follow, level};
use proptest::prelude::*;
use proptest::sample::Index;
use tessera_core::collapse::CollapseCommand;
use tessera_core::match3::Match3Command;
use tessera_core::slide::SlideCommand;
use tessera_core::tactics::TacticsCommand;
use tessera_core::{AnyCommand, Dir, Id, Level, Pos, Rules};
use tessera_ecs::Mirror;
use tessera_replay::History;

#[derive(Clone, Debug)]
enum Op {
    /// A legal command (picked by index) when `legal` and there is one, else a random command
    /// built from `a`, `b`, `c` (often refused).
    Execute {
        legal: bool,
        pick: Index,
        a: u16,
        b: u16,
        c: u8,
    },
    Undo,
    Redo,
    Seek(Index),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => (prop::bool::weighted(0.75), any::<Index>(), 0u16..8, 0u16..8, any::<u8>())
            .prop_map(|(legal, pick, a, b, c)| Op::Execute { legal, pick, a, b, c }),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
        1 => any::<Index>().prop_map(Op::Seek),
    ]
}

/// The command an `Execute` op stands for in `h`'s game.
fn command(h: &History, legal: bool, pick: &Index, a: u16, b: u16, c: u8) -> AnyCommand {
    let commands = if legal { h.rules().legal_commands(h.state()) } else { Vec::new() };
    if !commands.is_empty() {
        return commands[pick.index(commands.len())].clone();
    }
    let size = Mirror::from_state(h.state()).size();
    // Cells up to one past the board's edge.
    let p = Pos::new(a % (size.width + 1), b % (size.height + 1));
    let dir = Dir::ALL[usize::from(c % 4)];
    match h.state() {
        tessera_core::AnyState::Slide(_) => AnyCommand::Slide(SlideCommand::Slide(dir)),
        tessera_core::AnyState::Collapse(_) => AnyCommand::Collapse(CollapseCommand::Tap(p)),
        tessera_core::AnyState::Match3(_) => {
            let (dx, dy) = dir.delta();
            let q = Pos::new(p.x.saturating_add_signed(dx as i16), p.y.saturating_add_signed(dy as i16));
            AnyCommand::Match3(Match3Command::Swap(p, q))
        }
        tessera_core::AnyState::Tactics(_) => match c % 3 {
            0 => AnyCommand::Tactics(TacticsCommand::EndTurn),
            _ => AnyCommand::Tactics(TacticsCommand::Move { unit: Id(u32::from(c % 5)), to: p }),
        },
    }
}

/// Plays `ops` on `level` with a mirror following every step; checks it after each.
fn run(level: &Level, seed: u64, keyframes: u32, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut h = History::with_keyframe_interval(level.start(Some(seed)).unwrap(), keyframes);
    let mut m = Mirror::from_state(h.state());
    for op in ops {
        match op {
            Op::Execute { legal, pick, a, b, c } => {
                let cmd = command(&h, *legal, pick, *a, *b, *c);
                if let Ok(events) = h.execute(&cmd) {
                    follow(&mut m, events, true);
                    prop_assert!(m.phases() > 0 || events.iter().all(|e| !moves_anything(e)));
                }
            }
            Op::Undo => {
                if let Some(events) = h.undo() {
                    follow(&mut m, events, false);
                }
            }
            Op::Redo => {
                if let Some(events) = h.redo() {
                    follow(&mut m, events, true);
                }
            }
            Op::Seek(i) => {
                let (from, to) = (h.step(), i.index(h.len() as usize + 1) as u64);
                h.seek(to).unwrap();
                if to < from {
                    for k in (to + 1..=from).rev() {
                        follow(&mut m, h.events_at(k).unwrap(), false);
                    }
                } else {
                    for k in from + 1..=to {
                        follow(&mut m, h.events_at(k).unwrap(), true);
                    }
                }
            }
        }
        prop_assert!(m.check().is_ok(), "{:?}", m.check());
        let fresh = Mirror::from_state(h.state());
        prop_assert_eq!(m.snapshot(), fresh.snapshot());
        prop_assert!(m == fresh);
    }
    Ok(())
}

/// Whether an event moves, adds or removes an entity (so its step has at least one phase).
fn moves_anything(e: &tessera_core::AnyEvent) -> bool {
    use tessera_core::AnyEvent::*;
    use tessera_core::{collapse::CollapseEvent as C, match3::Match3Event as M, slide::SlideEvent as S};
    match e {
        Slide(e) => matches!(e, S::Moved { .. } | S::Merged { .. } | S::Spawned { .. }),
        Collapse(e) => matches!(e, C::Cleared { .. } | C::Fell { .. } | C::ColumnShifted { .. }),
        Match3(e) => matches!(e, M::Swapped { .. } | M::Fell { .. } | M::Spawned { .. } | M::Unlocked { .. }),
        Tactics(e) => matches!(e, tessera_core::tactics::TacticsEvent::UnitMoved { .. }),
    }
}

fn slide_level(w: usize, h: usize) -> Level {
    level(&format!(r#"{{"rule_set": "slide", "width": {w}, "height": {h}}}"#))
}

const MATCH3_PLAIN: &str = r#"{"rule_set": "match3", "width": 6, "height": 5, "config": {"breeds": 4}}"#;
/// Small with many breeds: dead boards, so shuffles (and recolours), are common.
const MATCH3_SHUFFLING: &str = r#"{"rule_set": "match3", "width": 4, "height": 4, "config": {"breeds": 5}}"#;
const MATCH3_VOIDS_LOCKS: &str = r##"{"rule_set": "match3", "config": {"breeds": 4, "move_limit": 12},
    "board": ["#.....", "..*...", "...#..", ".*...A", "...B..", "..#..."]}"##;
const TACTICS: &str = r#"{"rule_set": "tactics", "map": [".f...", "..~..", "h.~f.", "....."],
    "units": [{"team": 0, "x": 0, "y": 0, "movement": 3}, {"team": 0, "x": 1, "y": 3, "movement": 2},
              {"team": 1, "x": 4, "y": 0, "movement": 3}, {"team": 2, "x": 4, "y": 3, "movement": 4}]}"#;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn slide_mirror_follows_history(
        seed in any::<u64>(), w in 2usize..5, h in 2usize..5, k in 0u32..4,
        ops in prop::collection::vec(op(), 1..40),
    ) {
        run(&slide_level(w, h), seed, k, &ops)?;
    }

    #[test]
    fn collapse_mirror_follows_history(
        seed in any::<u64>(), compaction in 0usize..3, k in 0u32..4,
        ops in prop::collection::vec(op(), 1..30),
    ) {
        let c = ["center", "left", "none"][compaction];
        let lv = level(&format!(
            r#"{{"rule_set": "collapse", "width": 6, "height": 5, "colours": 3, "config": {{"compaction": "{c}"}}}}"#
        ));
        run(&lv, seed, k, &ops)?;
    }

    #[test]
    fn match3_mirror_follows_history(
        seed in any::<u64>(), which in 0usize..3, k in 0u32..4,
        ops in prop::collection::vec(op(), 1..30),
    ) {
        let lv = level([MATCH3_PLAIN, MATCH3_VOIDS_LOCKS, MATCH3_SHUFFLING][which]);
        run(&lv, seed, k, &ops)?;
    }

    #[test]
    fn tactics_mirror_follows_history(
        k in 0u32..4, ops in prop::collection::vec(op(), 1..40),
    ) {
        run(&level(TACTICS), 0, k, &ops)?;
    }
}
