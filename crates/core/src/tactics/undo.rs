//! Undo and checked redo of one tactics event.

use super::*;

impl TacticsRules {
    /// [`Rules::undo_event`]: puts back what `event` changed.
    pub(super) fn undo_one(&self, state: &mut TacticsState, event: &TacticsEvent) {
        match event {
            TacticsEvent::UnitMoved { unit, path, cost } => {
                if let (Some(&start), Some(u)) = (path.first(), state.unit(*unit)) {
                    let left = u.left + cost;
                    state.move_unit(*unit, start, left);
                }
            }
            TacticsEvent::TurnEnded { team, .. } => {
                if let Some(turn) = state.turn.checked_sub(1) {
                    state.hash ^= team_key(state.team, *team) ^ turn_key(turn);
                    state.team = *team;
                    state.turn = turn;
                }
            }
            TacticsEvent::MovementRestored { unit, from, .. } => state.set_left(*unit, *from),
        }
    }

    /// [`Rules::redo_event`], checked: `Inconsistent` before any change for an event that does not fit.
    pub(super) fn redo_one(
        &self,
        state: &mut TacticsState,
        event: &TacticsEvent,
    ) -> Result<(), Inconsistent> {
        let unit_of = |state: &TacticsState, id: Id| {
            state
                .unit(id)
                .copied()
                .ok_or_else(|| Inconsistent::detailed(format!("there is no unit {}", id.0)))
        };
        match event {
            TacticsEvent::UnitMoved { unit, path, cost } => {
                let u = unit_of(state, *unit)?;
                let (Some(&start), Some(&end)) = (path.first(), path.last()) else {
                    return Err(Inconsistent::new("a move with an empty path"));
                };
                if start != u.pos {
                    return Err(Inconsistent::detailed(format!(
                        "unit {} stands on {}, the path starts at {start}",
                        unit.0, u.pos
                    )));
                }
                let size = state.size();
                if !size.contains(end) {
                    return Err(Inconsistent::detailed(format!("cell {end} is off the {size} map")));
                }
                if !state.terrain.passable(end) {
                    return Err(Inconsistent::detailed(format!("cell {end} is impassable terrain")));
                }
                if let Some(o) = state.unit_at(end).filter(|o| o.id != *unit) {
                    return Err(Inconsistent::detailed(format!("unit {} stands on {end}", o.id.0)));
                }
                if *cost > u.left {
                    return Err(Inconsistent::detailed(format!(
                        "the move costs {} and unit {} has {} left",
                        fmt_cost(*cost),
                        unit.0,
                        fmt_cost(u.left)
                    )));
                }
                state.move_unit(*unit, end, u.left - cost);
            }
            TacticsEvent::TurnEnded { team, next } => {
                if *team != state.team {
                    return Err(Inconsistent::detailed(format!(
                        "team {team} ends its turn during team {}'s",
                        state.team
                    )));
                }
                let Some(turn) = state.turn.checked_add(1) else {
                    return Err(Inconsistent::new("the turn counter is full"));
                };
                state.hash ^= team_key(state.team, *next) ^ turn_key(state.turn);
                state.team = *next;
                state.turn = turn;
            }
            TacticsEvent::MovementRestored { unit, from, to } => {
                let u = unit_of(state, *unit)?;
                if u.left != *from || *to > u.movement {
                    return Err(Inconsistent::detailed(format!(
                        "unit {} has {} of {} left, the event restores {} to {}",
                        unit.0,
                        fmt_cost(u.left),
                        fmt_cost(u.movement),
                        fmt_cost(*from),
                        fmt_cost(*to)
                    )));
                }
                state.set_left(*unit, *to);
            }
        }
        Ok(())
    }
}
