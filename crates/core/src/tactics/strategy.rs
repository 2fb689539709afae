//! Proptest strategies for the tactics grid, for the conformance kit (feature `strategy`).

use super::{Connectivity, TacticsCommand, TacticsConfig, TacticsLevel, UnitSpec, Weight};
use crate::strategy::{Strategies, mostly_legal};
use crate::{AnyCommand, AnyRules, AnyState, Id, Level, Pos, RuleSet, Rules};
use proptest::prelude::*;

/// The tactics grid's strategies.
pub fn strategies() -> Strategies {
    Strategies { rule_set: RuleSet::Tactics, level, command, reaches: REACHES }
}

/// What games played from these strategies reach (the kit checks it).
const REACHES: &[&str] = &["UnitMoved", "TurnEnded", "MovementRestored"];

/// A random map of 1×1 to 6×6 (plain, forest, hills, water, wall), 4- or 8-connected, with up
/// to four units of up to three teams on distinct passable cells.
fn map() -> impl Strategy<Value = Level> {
    (1usize..=6, 1usize..=6, any::<bool>()).prop_flat_map(|(w, h, eight)| {
        let cells =
            prop::collection::vec(prop::sample::select(vec!['.', '.', '.', 'f', 'h', '~', '#']), w * h);
        let units = prop::collection::vec((0u8..3, 0..w as u16, 0..h as u16, 0u32..=6), 0..=4);
        (cells, units).prop_map(move |(cells, units)| {
            let map: Vec<String> = cells.chunks(w).map(|r| r.iter().collect()).collect();
            let mut taken = Vec::new();
            let units = units
                .into_iter()
                .filter(|&(_, x, y, _)| {
                    let free = !matches!(map[usize::from(y)].as_bytes()[usize::from(x)], b'#' | b'~')
                        && !taken.contains(&(x, y));
                    taken.push((x, y));
                    free
                })
                .map(|(team, x, y, movement)| UnitSpec { team, x, y, movement })
                .collect();
            let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
            Level::Tactics(TacticsLevel {
                map,
                units,
                config: TacticsConfig { connectivity },
                ..TacticsLevel::default()
            })
        })
    })
}

/// Random tactics levels, or the skirmish fixture (16×16, two squads, a legend of its own).
pub fn level() -> BoxedStrategy<Level> {
    match Level::from_json(include_str!("../../../../fixtures/levels/skirmish.json")) {
        Ok(skirmish) => prop_oneof![9 => map(), 1 => Just(skirmish)].boxed(),
        Err(_) => map().boxed(),
    }
}

/// A command: mostly a legal one (a move within range, or the end of the turn; 3 : 1), else a
/// move along the cheapest path (or a straight guess, often invalid) of any unit to any cell, a
/// move of any id (units of the other team, ids that do not exist) to any cell up to one past
/// the edge, or the end of the turn.
pub fn command(rules: &AnyRules, state: &AnyState) -> BoxedStrategy<AnyCommand> {
    let (AnyRules::Tactics(r), AnyState::Tactics(s)) = (rules, state) else {
        return Just(AnyCommand::Tactics(TacticsCommand::EndTurn)).boxed();
    };
    let size = s.size();
    let units: Vec<(Id, Pos)> = s.units().iter().map(|u| (u.id, u.pos)).collect();
    let n = units.len() as u32;
    let any_move = (0..=n, 0..=size.width, 0..=size.height).prop_map(|(unit, x, y)| {
        AnyCommand::Tactics(TacticsCommand::Move { unit: Id(unit), to: Pos::new(x, y) })
    });
    let end_turn = Just(AnyCommand::Tactics(TacticsCommand::EndTurn));
    let other = if units.is_empty() {
        prop_oneof![any_move, end_turn].boxed()
    } else {
        let (r, s) = (r.clone(), s.clone());
        let along =
            (prop::sample::select(units), 0..size.width, 0..size.height).prop_map(move |((id, at), x, y)| {
                let to = Pos::new(x, y);
                let path = r.path_for(&s, id, to, Weight::OPTIMAL).map_or_else(|| vec![at, to], |p| p.cells);
                AnyCommand::Tactics(TacticsCommand::MoveAlong { unit: id, path })
            });
        prop_oneof![2 => along, 2 => any_move, 1 => end_turn].boxed()
    };
    mostly_legal(rules.legal_commands(state), 3, other)
}
