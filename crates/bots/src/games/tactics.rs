//! `tactics` with the bots: what a game achieves, and the `tactics` bot ([`ApproachBot`]).
//!
//! **Outcome.** The rules have no combat and no end yet, so the objective is *contact*: each
//! unit of team 0 standing next to (4- or 8-connected, as the map) a unit of another team. The
//! objectives are team 0's units, won when all are in contact, and the game stops then (or at
//! the move cap). The value [`crate::ScoreEval`] maximizes: minus the sum over units of the
//! Manhattan distance to the nearest enemy. Tactics draws nothing from a generator, so there is
//! nothing to determinize.
//!
//! **The `tactics` bot**: every unit of the side to play walks toward the nearest enemy, then
//! the turn ends. There is no combat in the rules yet, so "toward" is the whole plan. For each unit of the team
//! to play that has not moved this turn (its movement is whole), in id order: the nearest enemy
//! is the one with the cheapest path (A*, units block, as `Move` walks) to a free cell next to
//! it; the unit moves along that path as far as its movement reaches (the last cell of the path
//! it can afford). A unit already next to an enemy, or with nowhere to go, stays. When no unit
//! moves, the bot ends the turn. Ties go to the enemy with the lower id, then to the neighbour
//! cell first in the map's neighbour order. Deterministic, no generator.

use crate::Bot;
use crate::any::{BotInfo, BotKind, BotSpec, Make, boxed};
use crate::games::GameBots;
use crate::playable::{Outcome, Playable};
use tessera_core::tactics::{Connectivity, TacticsCommand, TacticsRules, TacticsState, Weight};
use tessera_core::{AnyRules, GameRng, Id, Pos, RuleSet, Rules};

/// The rules the registry's entry is built on.
pub(crate) type Game = TacticsRules;

variant!(TacticsRules, Tactics);

/// Whether two cells are neighbours under `connectivity`.
fn touching(a: Pos, b: Pos, connectivity: Connectivity) -> bool {
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    match connectivity {
        Connectivity::Four => dx + dy == 1,
        Connectivity::Eight => dx.max(dy) == 1,
    }
}

/// Team 0's units in contact with an enemy, and how many units team 0 has.
fn contact(rules: &TacticsRules, state: &TacticsState) -> (u32, u32) {
    let units = state.units();
    let mine = units.iter().filter(|u| u.team == 0);
    let total = mine.clone().count() as u32;
    let met = mine
        .filter(|u| {
            units.iter().any(|e| e.team != u.team && touching(u.pos, e.pos, rules.config.connectivity))
        })
        .count() as u32;
    (met, total)
}

impl Playable for TacticsRules {
    /// Tactics draws nothing from a generator: nothing to replace.
    fn determinize(_state: &mut Self::State, _rng: GameRng) {}

    fn outcome(&self, state: &Self::State) -> Outcome {
        let (met, total) = contact(self, state);
        Outcome {
            won: total > 0 && met == total,
            score: 0,
            objectives_met: met,
            objectives: total,
            top_tile: 0,
        }
    }

    fn finished(&self, state: &Self::State, _keep_going: bool) -> bool {
        let (met, total) = contact(self, state);
        total > 0 && met == total
    }

    fn score_value(&self, state: &Self::State) -> f64 {
        let units = state.units();
        let mut sum = 0u64;
        for u in units {
            let nearest = units.iter().filter(|e| e.team != u.team).map(|e| u.pos.manhattan(e.pos)).min();
            sum += u64::from(nearest.unwrap_or(0));
        }
        -(sum as f64)
    }
}

static APPROACH_INFO: BotInfo = BotInfo {
    name: "tactics",
    aliases: &[],
    about: "Each unit toward the nearest enemy, then end the turn.",
    only_for: Some(RuleSet::Tactics),
    budget: false,
    level: None,
    deterministic: false,
    make: Make::Own(approach),
};

/// `tactics`: [`ApproachBot`].
pub const APPROACH: BotKind = BotKind::new(&APPROACH_INFO);

fn approach(_spec: &BotSpec, _seed: u64) -> Box<dyn Bot<AnyRules>> {
    boxed::<TacticsRules, _>(ApproachBot)
}

impl GameBots for TacticsRules {
    const RULE_SET: RuleSet = RuleSet::Tactics;
    const BOTS: &'static [BotKind] = &[APPROACH];
}

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
