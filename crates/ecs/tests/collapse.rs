//! collapse: clear, fall, column shift; phases forward and backward.

use crate::common::{anim_of, step, undo};
use tessera_core::collapse::{CollapseCommand, CollapseConfig, CollapseEvent, CollapseRules, CollapseState};
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Id, Pos, Size};
use tessera_ecs::{Anim, AnimKind, Look, Mirror, Shape};

/// ```text
/// 2 . 3
/// 1 0 0
/// ```
/// Tapping (1, 1) clears the two 0s; the 3 falls; column 1 is empty, so (centre compaction,
/// c = 1) column 0 shifts into it.
fn game() -> (AnyRules, AnyState) {
    let size = Size::new(3, 2, 16).unwrap();
    let cells = [Some(2), None, Some(3), Some(1), Some(0), Some(0)];
    let state = CollapseState::from_cells(size, &cells, 1).unwrap();
    (AnyRules::Collapse(CollapseRules { config: CollapseConfig::default() }), AnyState::Collapse(state))
}

fn tap() -> AnyCommand {
    AnyCommand::Collapse(CollapseCommand::Tap(Pos::new(1, 1)))
}

#[test]
fn tap_clears_then_falls_then_shifts_columns_in_three_phases() {
    let (rules, mut state) = game();
    let (m, events) = step(&rules, &mut state, &tap());
    let kinds: Vec<_> = events
        .iter()
        .map(|e| match e {
            AnyEvent::Collapse(CollapseEvent::Cleared { .. }) => "cleared",
            AnyEvent::Collapse(CollapseEvent::Fell { .. }) => "fell",
            AnyEvent::Collapse(CollapseEvent::ColumnShifted { .. }) => "shifted",
            _ => "other",
        })
        .collect();
    // Then Scored and GameOver (2, 1, 3: no group left).
    assert_eq!(kinds, ["cleared", "fell", "shifted", "other", "other"]);
    assert_eq!(m.phases(), 3);
    // Ids are row-major: 2 → #0, 3 → #1, 1 → #2, the 0s → #3 and #4.
    let ghosts: Vec<_> = m.ghosts().iter().map(|g| (g.id, g.look.shape, g.anim.clone())).collect();
    assert_eq!(
        ghosts,
        vec![
            (
                Some(Id(3)),
                Shape::Square { colour: 0, locked: false },
                Anim::new(AnimKind::Clear, Pos::new(1, 1), Pos::new(1, 1), 0)
            ),
            (
                Some(Id(4)),
                Shape::Square { colour: 0, locked: false },
                Anim::new(AnimKind::Clear, Pos::new(2, 1), Pos::new(2, 1), 0)
            ),
        ]
    );
    assert_eq!(anim_of(&m, Id(1)).unwrap().0, Anim::new(AnimKind::Fall, Pos::new(2, 0), Pos::new(2, 1), 1));
    assert_eq!(
        anim_of(&m, Id(0)).unwrap().0,
        Anim::new(AnimKind::ColumnShift, Pos::new(0, 0), Pos::new(1, 0), 2)
    );
    assert_eq!(
        anim_of(&m, Id(2)).unwrap().0,
        Anim::new(AnimKind::ColumnShift, Pos::new(0, 1), Pos::new(1, 1), 2)
    );
    assert_eq!(m.piece_at(Pos::new(1, 0)), m.entity_of(Id(0)));
    assert_eq!(m.piece_at(Pos::new(0, 0)), None);
}

#[test]
fn undo_restores_the_group_with_phases_reversed() {
    let (rules, mut state) = game();
    let (mut m, events) = step(&rules, &mut state, &tap());
    undo(&rules, &mut state, &mut m, &events);
    assert_eq!(m.phases(), 3);
    assert!(m.ghosts().is_empty());
    assert_eq!(
        anim_of(&m, Id(0)).unwrap().0,
        Anim::new(AnimKind::ColumnShift, Pos::new(1, 0), Pos::new(0, 0), 0)
    );
    assert_eq!(anim_of(&m, Id(1)).unwrap().0, Anim::new(AnimKind::Fall, Pos::new(2, 1), Pos::new(2, 0), 1));
    assert_eq!(anim_of(&m, Id(3)).unwrap().0, Anim::new(AnimKind::Clear, Pos::new(1, 1), Pos::new(1, 1), 2));
    assert_eq!(
        m.world().get::<&Look>(m.entity_of(Id(4)).unwrap()).unwrap().shape,
        Shape::Square { colour: 0, locked: false }
    );
}

#[test]
fn a_whole_game_of_first_taps_follows_and_unwinds() {
    let lv = crate::common::level(r#"{"rule_set": "collapse", "width": 8, "height": 6, "colours": 3}"#);
    let game = lv.start(Some(9)).unwrap();
    let (rules, mut state) = (game.rules, game.state);
    let start = state.clone();
    let mut m = Mirror::from_state(&state);
    let mut steps = Vec::new();
    use tessera_core::Rules;
    while let Some(cmd) = rules.legal_commands(&state).into_iter().next() {
        let mut events = Vec::new();
        rules.apply(&mut state, &cmd, &mut events).unwrap();
        crate::common::follow(&mut m, &events, true);
        crate::common::assert_mirrors(&m, &state);
        steps.push(events);
    }
    assert!(steps.len() > 3);
    while let Some(events) = steps.pop() {
        undo(&rules, &mut state, &mut m, &events);
    }
    assert_eq!(state, start);
}
