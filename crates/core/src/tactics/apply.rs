//! The tactics rule: `apply`/`apply_into`, `legal_commands` and `status`, with the movement range
//! and path queries moves are checked against ([`TacticsRules::reachable`], [`TacticsRules::path`]).

use super::*;

/// A path and its cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Path {
    /// Every cell from the start to the goal, both included.
    pub cells: Vec<Pos>,
    /// Total cost, fixed point.
    pub cost: Cost,
}

/// Scratch kept in the rules so that `apply` needs no caller-provided buffers. Cloning gives a
/// fresh one; it never takes part in equality, serialization or debug output (its buffers are
/// as large as the map).
#[derive(Default)]
pub struct Scratch(Mutex<Work>);

/// The buffers of one search: the path finder, and the terrain's jump-point map with the units
/// on it (version 3 on).
#[derive(Default)]
struct Work {
    finder: PathFinder,
    /// Boxed: it is large, and most rules never make one.
    map: Option<Box<Uniform>>,
}

/// The version of the tactics rules a [`TacticsRules`] behaves as ([`Tactics::VERSION`] unless
/// set for an older log by [`Plugin::set_version`](crate::Plugin::set_version)):
/// - 2: every cheapest path (moves, [`TacticsRules::path`]) is found by A*;
/// - 3: by jump point search when the terrain is uniform (every passable cell costs the same)
///   and the weight is optimal, A* otherwise. The cost is the same; among equal-cost paths the
///   two may pick different cells, which a move's `UnitMoved` event records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesVersion(pub u32);

impl Default for RulesVersion {
    fn default() -> Self {
        RulesVersion(<Tactics as crate::Plugin>::VERSION)
    }
}

/// The first version whose paths come from jump point search on uniform terrain.
pub const JPS_SINCE: u32 = 3;

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Scratch")
    }
}

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Scratch {}

impl TacticsRules {
    /// Rules with `config`.
    pub fn new(config: TacticsConfig) -> Self {
        TacticsRules { config, scratch: Scratch::default(), version: RulesVersion::default() }
    }

    /// Rules with `config` behaving as version `version` of the tactics rules (see
    /// [`RulesVersion`]); `None` for a version this build does not keep.
    pub fn with_version(config: TacticsConfig, version: u32) -> Option<Self> {
        let mut rules = TacticsRules::new(config);
        rules.set_version(version).then_some(rules)
    }

    /// The version of the rules these behave as.
    pub fn version(&self) -> u32 {
        self.version.0
    }

    /// Makes these rules behave as `version` did; false (unchanged) for a version this build
    /// does not keep (older than [`Tactics::OLDEST_VERSION`] or newer than today's).
    pub fn set_version(&mut self, version: u32) -> bool {
        let keeps = (<Tactics as crate::Plugin>::OLDEST_VERSION..=<Tactics as crate::Plugin>::VERSION)
            .contains(&version);
        if keeps {
            self.version = RulesVersion(version);
        }
        keeps
    }

    fn with_work<T>(&self, f: impl FnOnce(&mut Work) -> T) -> T {
        // Uncontended in practice; if another thread holds it, use a fresh one.
        match self.scratch.0.try_lock() {
            Ok(mut work) => f(&mut work),
            Err(_) => f(&mut Work::default()),
        }
    }

    fn with_scratch<T>(&self, f: impl FnOnce(&mut PathFinder) -> T) -> T {
        self.with_work(|w| f(&mut w.finder))
    }

    /// The cheapest path from `from` to `to` for `mover` (every other unit blocks), the search
    /// chosen by the rules' version ([`RulesVersion`]); its cost, with the cells in `cells`.
    fn cheapest(
        &self,
        state: &TacticsState,
        mover: Option<Id>,
        from: Pos,
        to: Pos,
        weight: Weight,
        cells: &mut Vec<Pos>,
    ) -> Option<Cost> {
        let size = state.size();
        let connectivity = self.config.connectivity;
        self.with_work(|work| {
            let uniform = if self.version.0 >= JPS_SINCE && weight == Weight::OPTIMAL {
                Graph::uniform(state.terrain())
            } else {
                None
            };
            let cost = match uniform {
                Some(base) => {
                    let others =
                        state.units().iter().filter(|u| Some(u.id) != mover).map(|u| size.index(u.pos));
                    let map = work.map.get_or_insert_with(|| Box::new(base.clone()));
                    map.block_into(base, others);
                    work.finder.jps(map, connectivity, from, to)?
                }
                None => work.finder.astar(&state.graph_for(mover), connectivity, from, to, weight)?,
            };
            work.finder.path_to(size, to, cells);
            Some(cost)
        })
    }

    /// Every cell `unit` can end on this turn, with its cost, in row-major order (its own cell
    /// not included). Empty for an unknown unit.
    pub fn reachable(&self, state: &TacticsState, unit: Id) -> Vec<(Pos, Cost)> {
        let mut out = Vec::new();
        self.with_scratch(|finder| self.reachable_into(state, unit, finder, &mut out));
        out
    }

    /// [`TacticsRules::reachable`] into caller-owned buffers (allocation-free once warm).
    pub fn reachable_into(
        &self,
        state: &TacticsState,
        unit: Id,
        finder: &mut PathFinder,
        out: &mut Vec<(Pos, Cost)>,
    ) {
        out.clear();
        let Some(u) = state.unit(unit) else { return };
        let graph = state.graph_for(Some(unit));
        finder.reachable(&graph, self.config.connectivity, u.pos, u.left, out);
    }

    /// The cheapest path (for `weight` = [`Weight::OPTIMAL`]) from `from` to `to` around the
    /// units, other than one standing on `from`; `None` when there is none (also when `from` or
    /// `to` is impassable or off the map, or `to` is occupied: no path starts in a wall).
    pub fn path(&self, state: &TacticsState, from: Pos, to: Pos, weight: Weight) -> Option<Path> {
        if !state.size().contains(from) || !state.terrain().passable(from) {
            return None;
        }
        let mover = state.unit_at(from).map(|u| u.id);
        let mut cells = Vec::new();
        let cost = self.cheapest(state, mover, from, to, weight, &mut cells)?;
        Some(Path { cells, cost })
    }

    /// The path [`TacticsCommand::Move`] would take for `unit` to `to` (ignoring its movement).
    pub fn path_for(&self, state: &TacticsState, unit: Id, to: Pos, weight: Weight) -> Option<Path> {
        self.path(state, state.unit(unit)?.pos, to, weight)
    }

    /// The cost of walking `path` for `unit`, checking every rule of [`TacticsCommand::MoveAlong`]
    /// except the remaining movement.
    pub fn path_cost(&self, state: &TacticsState, unit: Id, path: &[Pos]) -> Result<Cost, Rejected> {
        let Some(u) = state.unit(unit) else {
            return Err(Rejected::detailed("no_such_unit", format!("there is no unit {}", unit.0)));
        };
        if path.first() != Some(&u.pos) {
            return Err(Rejected::detailed(
                "bad_path",
                format!("the path must start at the unit's cell {}", u.pos),
            ));
        }
        if path.len() < 2 || path.last() == Some(&u.pos) {
            return Err(Rejected::new("bad_path", "the path must end on another cell than it starts"));
        }
        let graph = state.graph_for(Some(unit));
        let size = state.size();
        let enterable = |p: Pos| size.contains(p) && graph.multiplier(size.index(p)) != 0;
        let mut cost: Cost = 0;
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            if !size.contains(b) {
                return Err(Rejected::detailed("bad_path", format!("{b} is off the map")));
            }
            let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
            let diagonal = match (dx, dy, self.config.connectivity) {
                (0, 1, _) | (1, 0, _) => false,
                (1, 1, Connectivity::Eight) => true,
                _ => return Err(Rejected::detailed("bad_path", format!("{a} to {b} is not a single step"))),
            };
            if !enterable(b) {
                let why = if state.unit_at(b).is_some() {
                    "another unit stands there"
                } else {
                    "impassable terrain"
                };
                return Err(Rejected::detailed("bad_path", format!("{b} cannot be entered: {why}")));
            }
            if diagonal && !(enterable(Pos::new(b.x, a.y)) && enterable(Pos::new(a.x, b.y))) {
                return Err(Rejected::detailed("bad_path", format!("{a} to {b} cuts a blocked corner")));
            }
            let base = if diagonal { DIAGONAL } else { STEP };
            cost += base * Cost::from(graph.multiplier(size.index(b)));
        }
        Ok(cost)
    }

    fn check_mover(&self, state: &TacticsState, unit: Id) -> Result<Unit, Rejected> {
        let Some(u) = state.unit(unit) else {
            return Err(Rejected::detailed("no_such_unit", format!("there is no unit {}", unit.0)));
        };
        if u.team != state.team {
            return Err(Rejected::detailed(
                "not_your_turn",
                format!("unit {} is on team {}, and it is team {}'s turn", unit.0, u.team, state.team),
            ));
        }
        Ok(*u)
    }

    /// [`Rules::apply`], pushing into any buffer whose items can be made from a [`TacticsEvent`].
    pub fn apply_into<E: From<TacticsEvent>>(
        &self,
        state: &mut TacticsState,
        cmd: &TacticsCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        match cmd {
            TacticsCommand::Move { unit, to } => {
                let u = self.check_mover(state, *unit)?;
                let to = *to;
                if !state.size().contains(to) {
                    return Err(Rejected::detailed(
                        "off_map",
                        format!("{to} is off the {} map", state.size()),
                    ));
                }
                if to == u.pos {
                    return Err(Rejected::new("no_change", "the unit already stands there"));
                }
                if let Some(o) = state.unit_at(to) {
                    return Err(Rejected::detailed("occupied", format!("unit {} stands on {to}", o.id.0)));
                }
                if !state.terrain.passable(to) {
                    return Err(Rejected::detailed("impassable", format!("{to} is impassable terrain")));
                }
                let mut path = Vec::new();
                let Some(cost) = self.cheapest(state, Some(*unit), u.pos, to, Weight::OPTIMAL, &mut path)
                else {
                    return Err(Rejected::detailed(
                        "unreachable",
                        format!("no way leads from {} to {to}", u.pos),
                    ));
                };
                if cost > u.left {
                    return Err(Rejected::detailed(
                        "out_of_range",
                        format!(
                            "{to} costs {} and unit {} has {} left",
                            fmt_cost(cost),
                            unit.0,
                            fmt_cost(u.left)
                        ),
                    ));
                }
                state.move_unit(*unit, to, u.left - cost);
                events.push(E::from(TacticsEvent::UnitMoved { unit: *unit, path, cost }));
            }
            TacticsCommand::MoveAlong { unit, path } => {
                let u = self.check_mover(state, *unit)?;
                let cost = self.path_cost(state, *unit, path)?;
                if cost > u.left {
                    return Err(Rejected::detailed(
                        "out_of_range",
                        format!(
                            "the path costs {} and unit {} has {} left",
                            fmt_cost(cost),
                            unit.0,
                            fmt_cost(u.left)
                        ),
                    ));
                }
                let to = path[path.len() - 1];
                state.move_unit(*unit, to, u.left - cost);
                events.push(E::from(TacticsEvent::UnitMoved { unit: *unit, path: path.clone(), cost }));
            }
            TacticsCommand::EndTurn => {
                let team = state.team;
                let next = state.next_team(team);
                let Some(turn) = state.turn.checked_add(1) else {
                    return Err(Rejected::new("too_many_turns", "the turn counter is full"));
                };
                state.hash ^= team_key(team, next) ^ turn_key(state.turn);
                state.team = next;
                state.turn = turn;
                events.push(E::from(TacticsEvent::TurnEnded { team, next }));
                for u in state.units.iter_mut().filter(|u| u.team == next) {
                    let from = u.left;
                    state.hash ^= left_key(u.id, from) ^ left_key(u.id, u.movement);
                    u.left = u.movement;
                    events.push(E::from(TacticsEvent::MovementRestored { unit: u.id, from, to: u.movement }));
                }
            }
        }
        Ok(())
    }
}

impl Rules for TacticsRules {
    type State = TacticsState;
    type Command = TacticsCommand;
    type Event = TacticsEvent;

    fn apply(
        &self,
        state: &mut TacticsState,
        cmd: &TacticsCommand,
        events: &mut Vec<TacticsEvent>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    #[inline]
    fn undo_event(&self, state: &mut TacticsState, event: &TacticsEvent) {
        self.undo_one(state, event)
    }

    #[inline]
    fn redo_event(&self, state: &mut TacticsState, event: &TacticsEvent) -> Result<(), Inconsistent> {
        self.redo_one(state, event)
    }

    /// `EndTurn`, then for each unit of the team to move (in id order) a `Move` to every
    /// reachable cell (row-major).
    fn legal_commands(&self, state: &TacticsState) -> Vec<TacticsCommand> {
        let mut out = vec![TacticsCommand::EndTurn];
        for u in state.units.iter().filter(|u| u.team == state.team) {
            for (to, _) in self.reachable(state, u.id) {
                out.push(TacticsCommand::Move { unit: u.id, to });
            }
        }
        out
    }

    fn status(&self, _state: &TacticsState) -> Status {
        Status::Playing
    }
}
