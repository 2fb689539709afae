//! tactics: terrain as ground, units walking, movement restored at a turn's end.

use crate::common::{anim_of, level, step, undo};
use tessera_core::tactics::{STEP, TacticsCommand, TacticsEvent};
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Id, Pos};
use tessera_ecs::{Anim, AnimKind, Look, Mirror, Shape};

/// A 4×3 map with a river cell and a forest cell; unit 0 (team 0, 3 points) at (0, 0), unit 1
/// (team 1, 2 points) at (3, 2).
fn game() -> (AnyRules, AnyState) {
    let g = level(
        r#"{"rule_set": "tactics", "map": ["....", "..~f", "...."],
            "units": [{"team": 0, "x": 0, "y": 0, "movement": 3}, {"team": 1, "x": 3, "y": 2, "movement": 2}]}"#,
    )
    .start(None)
    .unwrap();
    (g.rules, g.state)
}

fn kind(m: &Mirror, id: u32) -> Shape {
    m.world().get::<&Look>(m.entity_of(Id(id)).unwrap()).unwrap().shape
}

#[test]
fn every_cell_has_terrain_with_its_cost() {
    let (_, state) = game();
    let m = Mirror::from_state(&state);
    assert_eq!(m.world().len(), 12 + 2);
    let at = |x, y| m.world().get::<&Look>(m.ground_at(Pos::new(x, y)).unwrap()).unwrap().shape;
    assert_eq!(at(0, 0), Shape::Ground { index: 0, cost: STEP });
    assert_eq!(at(2, 1), Shape::Ground { index: 3, cost: 0 }, "water is impassable");
    assert_eq!(at(3, 1), Shape::Ground { index: 1, cost: 2 * STEP }, "forest costs one extra");
    assert_eq!(kind(&m, 1), Shape::Unit { team: 1, movement: 2 * STEP, left: 2 * STEP });
    m.check().unwrap();
}

#[test]
fn a_move_walks_its_path_and_spends_movement() {
    let (rules, mut state) = game();
    let cmd = AnyCommand::Tactics(TacticsCommand::Move { unit: Id(0), to: Pos::new(2, 0) });
    let (mut m, events) = step(&rules, &mut state, &cmd);
    let path = vec![Pos::new(0, 0), Pos::new(1, 0), Pos::new(2, 0)];
    assert_eq!(
        anim_of(&m, Id(0)).unwrap().0,
        Anim { kind: AnimKind::Walk, from: path[0], to: path[2], phase: 0, path: Some(path.clone()) }
    );
    assert_eq!(kind(&m, 0), Shape::Unit { team: 0, movement: 3 * STEP, left: STEP });
    assert_eq!(m.touched(), path);
    assert_eq!(m.phases(), 1);
    undo(&rules, &mut state, &mut m, &events);
    let back: Vec<Pos> = path.iter().rev().copied().collect();
    assert_eq!(
        anim_of(&m, Id(0)).unwrap().0,
        Anim { kind: AnimKind::Walk, from: path[2], to: path[0], phase: 0, path: Some(back) }
    );
    assert_eq!(kind(&m, 0), Shape::Unit { team: 0, movement: 3 * STEP, left: 3 * STEP });
}

#[test]
fn ending_turns_restores_movement_and_undo_takes_it_back() {
    let (rules, mut state) = game();
    let moves = [
        AnyCommand::Tactics(TacticsCommand::Move { unit: Id(0), to: Pos::new(1, 0) }),
        AnyCommand::Tactics(TacticsCommand::EndTurn),
        AnyCommand::Tactics(TacticsCommand::EndTurn),
    ];
    // One mirror follows the three steps.
    let mut m = Mirror::from_state(&state);
    let mut steps = Vec::new();
    for cmd in &moves {
        let mut events = Vec::new();
        tessera_core::Rules::apply(&rules, &mut state, cmd, &mut events).unwrap();
        crate::common::follow(&mut m, &events, true);
        crate::common::assert_mirrors(&m, &state);
        steps.push(events);
    }
    let last = steps.last().unwrap();
    assert!(last.iter().any(|e| matches!(
        e,
        AnyEvent::Tactics(TacticsEvent::MovementRestored { unit: Id(0), from, to }) if *from == 2 * STEP && *to == 3 * STEP
    )));
    assert_eq!(kind(&m, 0), Shape::Unit { team: 0, movement: 3 * STEP, left: 3 * STEP });
    assert_eq!(m.phases(), 0, "nothing walks");
    assert_eq!(m.touched(), vec![Pos::new(1, 0)], "the restored unit's cell");
    undo(&rules, &mut state, &mut m, last);
    assert_eq!(kind(&m, 0), Shape::Unit { team: 0, movement: 3 * STEP, left: 2 * STEP });
}

/// The largest map: a million terrain entities, indexed by cell.
#[test]
fn a_1024_by_1024_map_mirrors_every_cell() {
    let rows: Vec<String> =
        (0..1024).map(|y| if y == 1023 { "#".repeat(1024) } else { ".".repeat(1024) }).collect();
    let json = format!(
        r#"{{"rule_set": "tactics", "map": {}, "units": [{{"team": 0, "x": 1023, "y": 0}}]}}"#,
        serde_json::to_string(&rows).unwrap()
    );
    let (rules, mut state) = {
        let g = level(&json).start(None).unwrap();
        (g.rules, g.state)
    };
    let mut m = Mirror::from_state(&state);
    assert_eq!(m.world().len(), 1024 * 1024 + 1);
    let ground =
        |m: &Mirror, x, y| m.world().get::<&Look>(m.ground_at(Pos::new(x, y)).unwrap()).unwrap().shape;
    assert_eq!(ground(&m, 1023, 1023), Shape::Ground { index: 4, cost: 0 });
    assert_eq!(ground(&m, 0, 0), Shape::Ground { index: 0, cost: STEP });
    assert_eq!(m.piece_at(Pos::new(1023, 0)), m.entity_of(Id(0)));
    m.check().unwrap();
    let cmd = AnyCommand::Tactics(TacticsCommand::Move { unit: Id(0), to: Pos::new(1020, 2) });
    let mut events = Vec::new();
    use tessera_core::Rules;
    rules.apply(&mut state, &cmd, &mut events).unwrap();
    crate::common::follow(&mut m, &events, true);
    assert_eq!(m.touched().len(), 6, "the walked path");
    assert_eq!(m.piece_at(Pos::new(1020, 2)), m.entity_of(Id(0)));
}
