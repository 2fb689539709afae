//! Events that do not fit: a typed error from `try_apply`/`try_unapply`, nothing changed, never a
//! panic (`apply`/`unapply` ignore them).

use proptest::prelude::*;
use tessera_core::collapse::{ClearedTile, CollapseEvent, CollapseState};
use tessera_core::match3::{Match3Event, Match3State, MatchedBlock, ShuffledBlock};
use tessera_core::slide::{Combine, SlideEvent, SlideState};
use tessera_core::tactics::TacticsEvent;
use tessera_core::{AnyEvent, AnyState, Id, Pos, RngSpan, RuleSet, Size};
use tessera_ecs::{Mirror, MirrorError};

fn slide_mirror() -> Mirror {
    // 2 4 .
    // . 8 2
    let s = SlideState::from_values(Size::new(3, 2, 16).unwrap(), &[2, 4, 0, 0, 8, 2], 0).unwrap();
    Mirror::from_state(&AnyState::Slide(s))
}

fn match3_mirror() -> Mirror {
    Mirror::from_state(&AnyState::Match3(Match3State::from_rows(&["abc", "bca", "c#B"], 0).unwrap()))
}

fn tactics_mirror() -> Mirror {
    let g = tessera_core::Level::from_json(
        r#"{"rule_set": "tactics", "map": ["...", "..."], "units": [{"team": 0, "x": 0, "y": 0}, {"team": 1, "x": 2, "y": 1}]}"#,
    )
    .unwrap()
    .start(None)
    .unwrap();
    Mirror::from_state(&g.state)
}

fn moved(tile: u32, from: (u16, u16), to: (u16, u16)) -> AnyEvent {
    SlideEvent::Moved { tile: Id(tile), from: Pos::new(from.0, from.1), to: Pos::new(to.0, to.1) }.into()
}

/// `event` fails both ways with `expected` (forward) and leaves the mirror as it was.
fn refused(m: &mut Mirror, event: &AnyEvent, expected: MirrorError) {
    let before = m.snapshot();
    assert_eq!(m.try_apply(event), Err(expected));
    m.apply(event);
    assert_eq!(m.snapshot(), before);
    assert!(m.ghosts().is_empty());
    assert_eq!(m.phases(), 0);
    m.check().unwrap();
}

#[test]
fn events_of_another_rule_set_are_refused() {
    let mut m = slide_mirror();
    let e: AnyEvent = CollapseEvent::ColumnShifted { from: 0, to: 1 }.into();
    refused(&mut m, &e, MirrorError::WrongRuleSet { mirror: RuleSet::Slide, event: RuleSet::Collapse });
    assert!(m.try_unapply(&e).is_err());
}

#[test]
fn unknown_ids_misplaced_pieces_and_cells_off_the_board_are_refused() {
    let mut m = slide_mirror();
    refused(&mut m, &moved(99, (0, 0), (0, 1)), MirrorError::UnknownId { id: Id(99) });
    refused(&mut m, &moved(0, (1, 0), (0, 1)), MirrorError::NotAt { id: Id(0), pos: Pos::new(1, 0) });
    let size = m.size();
    refused(&mut m, &moved(0, (0, 0), (7, 0)), MirrorError::OffBoard { pos: Pos::new(7, 0), size });
    refused(&mut m, &moved(0, (0, 0), (1, 0)), MirrorError::Occupied { pos: Pos::new(1, 0) });
    let spawn = SlideEvent::Spawned {
        tile: Id(1),
        at: Pos::new(2, 0),
        value: 2,
        rng: RngSpan { before: 0, after: 0 },
    };
    refused(&mut m, &spawn.into(), MirrorError::DuplicateId { id: Id(1) });
    // Undoing a move whose tile is not at its destination.
    assert_eq!(
        m.try_unapply(&moved(0, (0, 1), (2, 0))),
        Err(MirrorError::NotAt { id: Id(0), pos: Pos::new(2, 0) })
    );
    // A merge whose absorbed tile is elsewhere.
    let merge = SlideEvent::Merged {
        tile: Id(0),
        from: Pos::new(0, 0),
        absorbed: Id(3),
        absorbed_from: Pos::new(1, 0),
        to: Pos::new(0, 0),
        value: 4,
        combine: Combine::Single,
    };
    refused(&mut m, &merge.into(), MirrorError::NotAt { id: Id(3), pos: Pos::new(1, 0) });
}

#[test]
fn a_multi_block_event_that_partly_fits_changes_nothing() {
    let mut m = match3_mirror();
    let shuffle = Match3Event::Shuffled {
        blocks: vec![
            ShuffledBlock { block: Id(0), breed: 0, from: Pos::new(0, 0), to: Pos::new(1, 0) },
            ShuffledBlock { block: Id(1), breed: 1, from: Pos::new(2, 2), to: Pos::new(0, 0) },
        ],
        rng: RngSpan { before: 0, after: 0 },
    };
    refused(&mut m, &shuffle.into(), MirrorError::NotAt { id: Id(1), pos: Pos::new(2, 2) });
    let matched = Match3Event::Matched {
        blocks: vec![
            MatchedBlock { block: Id(0), at: Pos::new(0, 0), locked: false },
            MatchedBlock { block: Id(42), at: Pos::new(1, 0), locked: false },
        ],
        breed: 0,
        cascade: 1,
    };
    refused(&mut m, &matched.into(), MirrorError::UnknownId { id: Id(42) });
    let fall = Match3Event::Fell { block: Id(0), from: Pos::new(0, 0), to: Pos::new(2, 2) };
    refused(&mut m, &fall.into(), MirrorError::Occupied { pos: Pos::new(2, 2) });
}

#[test]
fn collapse_and_tactics_refusals() {
    let s = CollapseState::from_cells(Size::new(2, 1, 16).unwrap(), &[Some(0), Some(0)], 0).unwrap();
    let mut m = Mirror::from_state(&AnyState::Collapse(s));
    let size = m.size();
    refused(
        &mut m,
        &CollapseEvent::ColumnShifted { from: 5, to: 0 }.into(),
        MirrorError::OffBoard { pos: Pos::new(5, 0), size },
    );
    refused(
        &mut m,
        &CollapseEvent::ColumnShifted { from: 0, to: 1 }.into(),
        MirrorError::Occupied { pos: Pos::new(1, 0) },
    );
    let cleared =
        CollapseEvent::Cleared { tiles: vec![ClearedTile { id: Id(0), at: Pos::new(0, 0) }], colour: 0 };
    assert_eq!(m.try_unapply(&cleared.into()), Err(MirrorError::Occupied { pos: Pos::new(0, 0) }));

    let mut m = tactics_mirror();
    refused(
        &mut m,
        &TacticsEvent::UnitMoved { unit: Id(0), path: vec![], cost: 0 }.into(),
        MirrorError::EmptyPath { id: Id(0) },
    );
    let onto =
        TacticsEvent::UnitMoved { unit: Id(0), path: vec![Pos::new(0, 0), Pos::new(2, 1)], cost: 1000 };
    refused(&mut m, &onto.into(), MirrorError::Occupied { pos: Pos::new(2, 1) });
    let restore = TacticsEvent::MovementRestored { unit: Id(7), from: 0, to: 5000 };
    refused(&mut m, &restore.into(), MirrorError::UnknownId { id: Id(7) });
}

fn pos() -> impl Strategy<Value = Pos> {
    (0u16..5, 0u16..4).prop_map(|(x, y)| Pos::new(x, y))
}

fn id() -> impl Strategy<Value = Id> {
    (0u32..12).prop_map(Id)
}

/// Arbitrary events of every rule set, on cells and ids around those of small boards.
fn event() -> impl Strategy<Value = AnyEvent> {
    let span = RngSpan { before: 0, after: 0 };
    prop_oneof![
        (id(), pos(), pos()).prop_map(|(tile, from, to)| SlideEvent::Moved { tile, from, to }.into()),
        (id(), pos(), id(), pos(), pos()).prop_map(|(tile, from, absorbed, absorbed_from, to)| {
            SlideEvent::Merged { tile, from, absorbed, absorbed_from, to, value: 4, combine: Combine::Double }
                .into()
        }),
        (id(), pos())
            .prop_map(move |(tile, at)| SlideEvent::Spawned { tile, at, value: 2, rng: span }.into()),
        prop::collection::vec((id(), pos()), 0..4).prop_map(|t| {
            CollapseEvent::Cleared {
                tiles: t.into_iter().map(|(id, at)| ClearedTile { id, at }).collect(),
                colour: 1,
            }
            .into()
        }),
        (id(), pos(), pos()).prop_map(|(tile, from, to)| CollapseEvent::Fell { tile, from, to }.into()),
        (0u16..5, 0u16..5).prop_map(|(from, to)| CollapseEvent::ColumnShifted { from, to }.into()),
        (pos(), pos(), id(), id()).prop_map(|(a, b, a_block, b_block)| Match3Event::Swapped {
            a,
            b,
            a_block,
            b_block
        }
        .into()),
        (pos(), pos(), id(), id()).prop_map(|(a, b, a_block, b_block)| Match3Event::SwappedBack {
            a,
            b,
            a_block,
            b_block
        }
        .into()),
        prop::collection::vec((id(), pos(), any::<bool>()), 0..4).prop_map(|b| {
            let blocks =
                b.into_iter().map(|(block, at, locked)| MatchedBlock { block, at, locked }).collect();
            Match3Event::Matched { blocks, breed: 2, cascade: 1 }.into()
        }),
        (id(), pos()).prop_map(|(block, at)| Match3Event::Unlocked { block, at }.into()),
        (id(), pos(), pos()).prop_map(|(block, from, to)| Match3Event::Fell { block, from, to }.into()),
        (id(), pos())
            .prop_map(move |(block, at)| Match3Event::Spawned { block, at, breed: 1, rng: span }.into()),
        prop::collection::vec((id(), pos(), pos()), 0..4).prop_map(move |b| {
            let blocks =
                b.into_iter().map(|(block, from, to)| ShuffledBlock { block, breed: 0, from, to }).collect();
            Match3Event::Shuffled { blocks, rng: span }.into()
        }),
        (id(), pos()).prop_map(|(block, at)| Match3Event::Recoloured { block, at, from: 0, to: 3 }.into()),
        (id(), prop::collection::vec(pos(), 0..4), 0u64..5000)
            .prop_map(|(unit, path, cost)| TacticsEvent::UnitMoved { unit, path, cost }.into()),
        (id(), 0u64..5000, 0u64..5000).prop_map(|(unit, from, to)| TacticsEvent::MovementRestored {
            unit,
            from,
            to
        }
        .into()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any event, forward or backward, on a mirror of any rule set: no panic, the indexes stay
    /// consistent, and a refused event changes nothing.
    #[test]
    fn arbitrary_events_never_break_a_mirror(
        which in 0usize..4,
        events in prop::collection::vec((event(), any::<bool>()), 1..30),
    ) {
        let mut m = match which {
            0 => slide_mirror(),
            1 => match3_mirror(),
            2 => tactics_mirror(),
            _ => Mirror::from_state(&AnyState::Collapse(
                CollapseState::from_cells(Size::new(3, 2, 16).unwrap(), &[None, Some(1), None, Some(0), Some(1), Some(2)], 0).unwrap(),
            )),
        };
        for (e, forward) in &events {
            let before = m.snapshot();
            let r = if *forward { m.try_apply(e) } else { m.try_unapply(e) };
            if r.is_err() {
                prop_assert_eq!(m.snapshot(), before);
            }
            prop_assert!(m.check().is_ok(), "{:?}", m.check());
            let _ = m.touched();
            m.begin_step();
        }
    }
}

/// An event of several ops (a merge: the absorbed tile goes, the survivor changes and moves) is
/// checked whole before any op is carried out: here the absorbed tile's despawn fits but the
/// survivor's move does not, and nothing changes (not even the absorbed tile).
#[test]
fn a_multi_op_event_whose_last_op_does_not_fit_changes_nothing() {
    let mut m = slide_mirror();
    // 2 4 .      tile 0 absorbs tile 1 and moves onto (1, 1), which holds tile 2.
    // . 8 2
    let merge = SlideEvent::Merged {
        tile: Id(0),
        from: Pos::new(0, 0),
        absorbed: Id(1),
        absorbed_from: Pos::new(1, 0),
        to: Pos::new(1, 1),
        value: 4,
        combine: Combine::Double,
    };
    refused(&mut m, &merge.into(), MirrorError::Occupied { pos: Pos::new(1, 1) });
    assert!(m.entity_of(Id(1)).is_some(), "the absorbed tile is still there");
    // Backward: the survivor (tile 0 on (0, 0)) goes back to (2, 0), which is free, but the
    // absorbed tile would come back on (1, 0), which holds tile 1.
    let unmerge = SlideEvent::Merged {
        tile: Id(0),
        from: Pos::new(2, 0),
        absorbed: Id(7),
        absorbed_from: Pos::new(1, 0),
        to: Pos::new(0, 0),
        value: 2,
        combine: Combine::Double,
    };
    let before = m.snapshot();
    assert_eq!(m.try_unapply(&unmerge.into()), Err(MirrorError::Occupied { pos: Pos::new(1, 0) }));
    assert_eq!(m.snapshot(), before);
    assert_eq!(m.phases(), 0);
    m.check().unwrap();
}

/// The mirror knows no rule set (issue 17): its sources name none.
#[test]
fn the_mirror_sources_name_no_rule_set() {
    let sources = [
        include_str!("../src/lib.rs"),
        include_str!("../src/mirror.rs"),
        include_str!("../src/follow.rs"),
        include_str!("../src/components.rs"),
        include_str!("../src/error.rs"),
    ];
    for name in ["slide", "collapse", "match3", "tactics", "Slide", "Collapse", "Match3", "Tactics"] {
        for (i, src) in sources.iter().enumerate() {
            let code: String =
                src.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
            assert!(!code.contains(name), "source {i} names {name}");
        }
    }
}

/// A refused multi-op event leaves nothing behind for the next event: a plain move after it
/// checks against the mirror itself.
#[test]
fn after_a_refused_merge_the_next_event_sees_the_mirror() {
    let mut m = slide_mirror();
    // The dry run despawns tile 1 from (1, 0), then the survivor's move fails.
    let merge = SlideEvent::Merged {
        tile: Id(0),
        from: Pos::new(0, 0),
        absorbed: Id(1),
        absorbed_from: Pos::new(1, 0),
        to: Pos::new(1, 1),
        value: 4,
        combine: Combine::Double,
    };
    assert!(m.try_apply(&merge.into()).is_err());
    // (1, 0) still holds tile 1: a move onto it is refused.
    assert_eq!(m.try_apply(&moved(0, (0, 0), (1, 0))), Err(MirrorError::Occupied { pos: Pos::new(1, 0) }));
    m.check().unwrap();
}
