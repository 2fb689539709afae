//! slide: moves, merges (single and double), spawns; their animations and undo.

use crate::common::{anim_of, assert_mirrors, step, undo};
use tessera_core::slide::{Combine, SlideCommand, SlideEvent, SlideRules, SlideState};
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Dir, Id, Pos, Rules, Size};
use tessera_ecs::{Anim, AnimKind, Ghost, Label, Layer, Look, Mirror, Shape};

fn game(width: usize, height: usize, values: &[u32]) -> (AnyRules, AnyState) {
    let size = Size::new(width, height, 16).unwrap();
    let state = SlideState::from_values(size, values, 5).unwrap();
    (AnyRules::Slide(SlideRules::default()), AnyState::Slide(state))
}

fn left() -> AnyCommand {
    AnyCommand::Slide(SlideCommand::Slide(Dir::Left))
}

fn spawned(events: &[AnyEvent]) -> (Id, Pos, u32) {
    events
        .iter()
        .find_map(|e| match e {
            AnyEvent::Slide(SlideEvent::Spawned { tile, at, value, .. }) => Some((*tile, *at, *value)),
            _ => None,
        })
        .unwrap()
}

#[test]
fn from_state_has_one_entity_per_tile_and_no_ground() {
    let (_, state) = game(3, 2, &[2, 0, 4, 0, 8, 2]);
    let m = Mirror::from_state(&state);
    assert_eq!(m.world().len(), 4);
    assert_eq!(
        m.pieces_by_id().into_iter().map(|(id, p, look)| (id, p, look.shape)).collect::<Vec<_>>(),
        vec![
            (Id(0), Pos::new(0, 0), Shape::Tile { value: 2 }),
            (Id(1), Pos::new(2, 0), Shape::Tile { value: 4 }),
            (Id(2), Pos::new(1, 1), Shape::Tile { value: 8 }),
            (Id(3), Pos::new(2, 1), Shape::Tile { value: 2 }),
        ]
    );
    // A tile is numbered with its value.
    let four = Look::new(Shape::Tile { value: 4 }, Some(Label::Number(4)));
    assert_eq!(m.cells_by_position()[1], (Pos::new(2, 0), Layer::Piece, four));
    assert!(m.ground_at(Pos::new(0, 0)).is_none());
    assert_eq!(m.piece_at(Pos::new(1, 1)), m.entity_of(Id(2)));
    assert_eq!(m.piece_at(Pos::new(3, 0)), None, "off the board");
    m.check().unwrap();
}

/// `2 2 . 4` left: the tile at rest survives (single combine), the other is absorbed; the 4
/// slides; a tile spawns in the next phase.
#[test]
fn single_merge_animates_survivor_and_leaves_a_ghost_for_the_absorbed_tile() {
    let (rules, mut state) = game(4, 1, &[2, 2, 0, 4]);
    let (m, events) = step(&rules, &mut state, &left());
    assert!(matches!(
        events[0],
        AnyEvent::Slide(SlideEvent::Merged { tile: Id(0), absorbed: Id(1), combine: Combine::Single, .. })
    ));
    let (a, trail) = anim_of(&m, Id(0)).unwrap();
    assert_eq!(a, Anim::new(AnimKind::Merge, Pos::new(0, 0), Pos::new(0, 0), 0));
    assert_eq!(trail, vec![a]);
    // The survivor doubles, label included.
    assert_eq!(
        *m.world().get::<&Look>(m.entity_of(Id(0)).unwrap()).unwrap(),
        Look::new(Shape::Tile { value: 4 }, Some(Label::Number(4)))
    );
    let absorbed = Anim::new(AnimKind::Merge, Pos::new(1, 0), Pos::new(0, 0), 0);
    assert_eq!(
        m.ghosts(),
        &[Ghost {
            look: Look::new(Shape::Tile { value: 2 }, Some(Label::Number(2))),
            id: Some(Id(1)),
            at: Pos::new(1, 0),
            anim: absorbed.clone(),
            trail: vec![absorbed]
        }]
    );
    assert_eq!(m.entity_of(Id(1)), None);
    assert_eq!(anim_of(&m, Id(2)).unwrap().0, Anim::new(AnimKind::Glide, Pos::new(3, 0), Pos::new(1, 0), 0));
    let (tile, at, _) = spawned(&events);
    assert_eq!(anim_of(&m, tile).unwrap().0, Anim::new(AnimKind::Spawn, at, at, 1));
    assert_eq!(m.phases(), 2);
    let mut touched = vec![Pos::new(0, 0), Pos::new(1, 0), Pos::new(3, 0), at];
    touched.sort_by_key(|p| (p.y, p.x));
    touched.dedup();
    assert_eq!(m.touched(), touched);
    assert!(!m.reversed());
}

/// `. 2 . 2` left: both tiles move and meet at the edge (double combine).
#[test]
fn double_merge_moves_both_tiles_to_the_new_cell() {
    let (rules, mut state) = game(4, 1, &[0, 2, 0, 2]);
    let (m, events) = step(&rules, &mut state, &left());
    assert!(matches!(events[0], AnyEvent::Slide(SlideEvent::Merged { combine: Combine::Double, .. })));
    assert_eq!(anim_of(&m, Id(0)).unwrap().0, Anim::new(AnimKind::Merge, Pos::new(1, 0), Pos::new(0, 0), 0));
    assert_eq!(m.ghosts().len(), 1);
    assert_eq!(m.ghosts()[0].anim, Anim::new(AnimKind::Merge, Pos::new(3, 0), Pos::new(0, 0), 0));
    assert_eq!(m.piece_at(Pos::new(0, 0)), m.entity_of(Id(0)));
}

/// Undo gives the reversed animations: the spawned tile leaves first (a ghost, phase 0), then
/// the merge comes apart (phase 1), the absorbed tile live again.
#[test]
fn undo_reverses_the_merge_and_the_spawn() {
    let (rules, mut state) = game(4, 1, &[2, 2, 0, 4]);
    let (mut m, events) = step(&rules, &mut state, &left());
    let (tile, at, value) = spawned(&events);
    undo(&rules, &mut state, &mut m, &events);
    assert_eq!(m.phases(), 2);
    assert_eq!(m.ghosts().len(), 1);
    assert_eq!(m.ghosts()[0].id, Some(tile));
    assert_eq!(m.ghosts()[0].look.shape, Shape::Tile { value });
    assert_eq!(m.ghosts()[0].anim, Anim::new(AnimKind::Spawn, at, at, 0));
    assert_eq!(anim_of(&m, Id(0)).unwrap().0, Anim::new(AnimKind::Merge, Pos::new(0, 0), Pos::new(0, 0), 1));
    assert_eq!(anim_of(&m, Id(1)).unwrap().0, Anim::new(AnimKind::Merge, Pos::new(0, 0), Pos::new(1, 0), 1));
    assert_eq!(anim_of(&m, Id(2)).unwrap().0, Anim::new(AnimKind::Glide, Pos::new(1, 0), Pos::new(3, 0), 1));
    assert_eq!(m.world().get::<&Look>(m.entity_of(Id(1)).unwrap()).unwrap().shape, Shape::Tile { value: 2 });
    // And redo again.
    let mut redo = state.clone();
    rules.redo(&mut redo, &events).expect("recorded events fit");
    crate::common::follow(&mut m, &events, true);
    assert_mirrors(&m, &redo);
}

#[test]
fn begin_step_clears_animations_and_ghosts() {
    let (rules, mut state) = game(4, 1, &[2, 2, 0, 4]);
    let (mut m, _) = step(&rules, &mut state, &left());
    m.begin_step();
    assert!(m.ghosts().is_empty());
    assert_eq!(m.phases(), 0);
    assert!(m.touched().is_empty());
    assert_eq!(m.world().query::<&Anim>().iter().count(), 0);
    assert_mirrors(&m, &state);
}

#[test]
fn won_scored_and_game_over_change_no_entity() {
    let (_, state) = game(2, 1, &[2, 4]);
    let mut m = Mirror::from_state(&state);
    let before = m.snapshot();
    for e in [SlideEvent::Scored { points: 8 }, SlideEvent::Won { value: 2048 }, SlideEvent::GameOver] {
        m.try_apply(&AnyEvent::Slide(e.clone())).unwrap();
        m.try_unapply(&AnyEvent::Slide(e)).unwrap();
    }
    assert_eq!(m.snapshot(), before);
    assert_eq!(m.phases(), 0);
}
