//! `tactics`: every unit of the side to play walks toward the nearest enemy, then the turn ends.
//!
//! There is no combat in the rules yet, so "toward" is the whole plan. For each unit of the team
//! to play that has not moved this turn (its movement is whole), in id order: the nearest enemy
//! is the one with the cheapest path (A*, units block, as `Move` walks) to a free cell next to
//! it; the unit moves along that path as far as its movement reaches (the last cell of the path
//! it can afford). A unit already next to an enemy, or with nowhere to go, stays. When no unit
//! moves, the bot ends the turn. Ties go to the enemy with the lower id, then to the neighbour
//! cell first in the map's neighbour order. Deterministic, no generator.

use crate::Bot;
use tessera_core::tactics::{Connectivity, TacticsCommand, TacticsRules, TacticsState, Weight};
use tessera_core::{Id, Pos, Rules};

/// The approach bot (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct ApproachBot;

impl ApproachBot {
    /// Where `unit` goes this turn, if anywhere.
    fn step_for(rules: &TacticsRules, state: &TacticsState, unit: Id) -> Option<Pos> {
        let u = *state.unit(unit)?;
        let size = state.size();
        let neighbours = |p: Pos| -> Vec<Pos> {
            match rules.config.connectivity {
                Connectivity::Four => size.neighbours4(p).collect(),
                Connectivity::Eight => size.neighbours8(p).collect(),
            }
        };
        let enemies: Vec<_> = state.units().iter().filter(|e| e.team != u.team).copied().collect();
        if enemies.iter().any(|e| neighbours(u.pos).contains(&e.pos)) {
            return None;
        }
        let mut best: Option<(u64, Vec<Pos>)> = None;
        for e in &enemies {
            for n in neighbours(e.pos) {
                if state.unit_at(n).is_some() {
                    continue;
                }
                let Some(path) = rules.path_for(state, unit, n, Weight::OPTIMAL) else { continue };
                if best.as_ref().is_none_or(|(c, _)| path.cost < *c) {
                    best = Some((path.cost, path.cells));
                }
            }
        }
        let (_, cells) = best?;
        // The farthest cell along the path the unit can afford and end on.
        let reachable = rules.reachable(state, unit);
        cells.iter().rev().find(|p| reachable.iter().any(|(q, _)| q == *p)).copied()
    }
}

impl Bot<TacticsRules> for ApproachBot {
    fn choose(&mut self, rules: &TacticsRules, state: &TacticsState) -> Option<TacticsCommand> {
        let team = state.team();
        for u in state.units().iter().filter(|u| u.team == team && u.left == u.movement && u.movement > 0) {
            if let Some(to) = Self::step_for(rules, state, u.id) {
                let cmd = TacticsCommand::Move { unit: u.id, to };
                // `reachable` listed it, so `Move` takes it; check anyway rather than trust.
                if rules.legal_commands(state).contains(&cmd) {
                    return Some(cmd);
                }
            }
        }
        Some(TacticsCommand::EndTurn)
    }
}
