//! The tactics bot walks every unit toward the nearest enemy, then ends the turn.

use crate::start;
use tessera_bots::games::tactics::ApproachBot;
use tessera_bots::playable::Playable;
use tessera_bots::{Bot, ForAny};
use tessera_core::tactics::TacticsCommand;
use tessera_core::{AnyCommand, AnyRules, Rules};

#[test]
fn units_close_in_and_the_turn_ends_when_all_have_moved() {
    let mut game = start("skirmish.json", 0);
    let mut bot = ForAny::<tessera_core::tactics::TacticsRules, _>::new(ApproachBot);
    let before = game.rules.score_value(&game.state);
    let mut events = Vec::new();
    let mut moved = Vec::new();
    loop {
        let cmd = bot.choose(&game.rules, &game.state).unwrap();
        events.clear();
        game.rules.apply(&mut game.state, &cmd, &mut events).unwrap();
        match cmd {
            AnyCommand::Tactics(TacticsCommand::Move { unit, .. }) => moved.push(unit.0),
            _ => break,
        }
    }
    // Units 0 and 1 walk to the only bridge south (4, 6); unit 1 then stands on its far end,
    // which blocks the way for units 2 and 3 this turn (units block everyone), so they stay.
    assert_eq!(moved, vec![0, 1], "each unit at most once, in id order");
    assert!(game.rules.score_value(&game.state) > before, "the squads are closer");
}

#[test]
fn both_squads_make_contact_within_a_few_turns() {
    let mut game = start("skirmish.json", 0);
    let AnyRules::Tactics(rules) = &game.rules else { unreachable!() };
    let rules = rules.clone();
    let tessera_core::AnyState::Tactics(state) = &mut game.state else { unreachable!() };
    let mut bot = ApproachBot;
    let mut events = Vec::new();
    for _ in 0..200 {
        if rules.finished(state, false) {
            break;
        }
        let cmd = bot.choose(&rules, state).unwrap();
        events.clear();
        rules.apply(state, &cmd, &mut events).unwrap();
    }
    let o = rules.outcome(state);
    assert!(o.objectives_met >= 1, "some unit of team 0 reached an enemy: {o:?}\n{}", state.render());
}
