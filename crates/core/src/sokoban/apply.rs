//! The rule: what a step or a walk does (see the module docs of [`super`]).

use super::{SokobanCommand, SokobanEvent, SokobanRules, SokobanState};
use crate::geom::{Dir, Pos};
use crate::rules::{Inconsistent, Rejected, Rules, Status};

/// What every command answers once the level is solved.
const SOLVED: Rejected = Rejected::new("solved", "the level is solved: every box is on a goal");

/// No cell: the parent of the walk's start, and of cells not reached.
const NONE: u32 = u32::MAX;

/// The shortest path, by steps, from the player to `to` through open cells without boxes, as
/// the `walk` command takes it: every cell from the player's to `to`. Breadth-first from the
/// player, neighbours tried up, down, left, right; each cell keeps the first cell that reached
/// it. `None` when `to` is off the board, not free, or not reachable; `[player]` when `to` is
/// the player's cell.
pub fn walk_path(state: &SokobanState, to: Pos) -> Option<Vec<Pos>> {
    let size = state.size();
    let from = state.player();
    if to == from {
        return Some(vec![from]);
    }
    if !state.is_free(to) {
        return None;
    }
    let mut parent = vec![NONE; size.area()];
    let start = size.index(from);
    let goal = size.index(to);
    parent[start] = start as u32;
    let mut queue = vec![start as u32];
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head] as usize;
        head += 1;
        if i == goal {
            break;
        }
        for d in Dir::ALL {
            let Some(q) = size.pos(i).step(d, size) else { continue };
            let j = size.index(q);
            if parent[j] == NONE && state.is_free(q) {
                parent[j] = i as u32;
                queue.push(j as u32);
            }
        }
    }
    if parent[goal] == NONE {
        return None;
    }
    let mut path = vec![to];
    let mut i = goal;
    while i != start {
        i = parent[i] as usize;
        path.push(size.pos(i));
    }
    path.reverse();
    Some(path)
}

impl SokobanRules {
    /// [`Rules::apply`], pushing into any buffer whose items can be made from a
    /// [`SokobanEvent`] (the `AnyEvent` buffer of the apps, with no copy).
    pub fn apply_into<E: From<SokobanEvent>>(
        &self,
        state: &mut SokobanState,
        cmd: &SokobanCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        if state.is_solved() {
            return Err(SOLVED);
        }
        match *cmd {
            SokobanCommand::Step(dir) => step(state, dir, events),
            SokobanCommand::Walk(to) => walk(state, to, events),
        }
    }

    /// The steps `apply` would accept now, in the order up, down, left, right (walks are not
    /// listed; see the module docs).
    pub fn steps(&self, state: &SokobanState) -> Vec<SokobanCommand> {
        if state.is_solved() {
            return Vec::new();
        }
        Dir::ALL.into_iter().filter(|&d| can_step(state, d)).map(SokobanCommand::Step).collect()
    }
}

/// Whether the player can step (or push) in `dir`.
fn can_step(state: &SokobanState, dir: Dir) -> bool {
    let size = state.size();
    let Some(to) = state.player().step(dir, size) else { return false };
    if state.box_at(to).is_some() {
        to.step(dir, size).is_some_and(|beyond| state.is_free(beyond))
    } else {
        state.is_free(to)
    }
}

fn step<E: From<SokobanEvent>>(
    state: &mut SokobanState,
    dir: Dir,
    events: &mut Vec<E>,
) -> Result<(), Rejected> {
    let size = state.size();
    let from = state.player();
    let Some(to) = from.step(dir, size) else {
        return Err(Rejected::detailed("off_board", format!("{dir} from {from} leaves the {size} board")));
    };
    if !state.cell(to).is_some_and(|c| c.is_open()) {
        return Err(Rejected::detailed("wall", format!("a wall at {to} blocks the way {dir}")));
    }
    if let Some(id) = state.box_at(to) {
        let beyond = to.step(dir, size).filter(|&b| state.is_free(b));
        let Some(beyond) = beyond else {
            return Err(Rejected::detailed(
                "box_blocked",
                format!(
                    "the box at {to} cannot be pushed {dir}: the cell behind it is a wall or holds a box"
                ),
            ));
        };
        state.move_box(to, beyond, 1);
        events.push(E::from(SokobanEvent::Pushed { id, from: to, to: beyond }));
        state.set_player(to, 1);
        events.push(E::from(SokobanEvent::Moved { from, to }));
        if state.is_solved() {
            events.push(E::from(SokobanEvent::Solved));
        }
        return Ok(());
    }
    state.set_player(to, 1);
    events.push(E::from(SokobanEvent::Moved { from, to }));
    Ok(())
}

fn walk<E: From<SokobanEvent>>(
    state: &mut SokobanState,
    to: Pos,
    events: &mut Vec<E>,
) -> Result<(), Rejected> {
    let size = state.size();
    match state.cell(to) {
        None => return Err(Rejected::detailed("off_board", format!("{to} is off the {size} board"))),
        Some(c) if !c.is_open() => return Err(Rejected::detailed("wall", format!("{to} is a wall"))),
        Some(_) => {}
    }
    if state.box_at(to).is_some() {
        return Err(Rejected::detailed("box", format!("{to} holds a box")));
    }
    if to == state.player() {
        return Err(Rejected::detailed("no_change", format!("the player already stands at {to}")));
    }
    let Some(path) = walk_path(state, to) else {
        return Err(Rejected::detailed(
            "unreachable",
            format!("{to} cannot be reached from {} without pushing a box", state.player()),
        ));
    };
    state.set_player(to, path.len() as i64 - 1);
    events.push(E::from(SokobanEvent::Walked { path }));
    Ok(())
}

impl Rules for SokobanRules {
    type State = SokobanState;
    type Command = SokobanCommand;
    type Event = SokobanEvent;

    fn apply(
        &self,
        state: &mut SokobanState,
        cmd: &SokobanCommand,
        events: &mut Vec<SokobanEvent>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    fn undo_event(&self, state: &mut SokobanState, event: &SokobanEvent) {
        super::undo::undo_event(state, event);
    }

    fn redo_event(&self, state: &mut SokobanState, event: &SokobanEvent) -> Result<(), Inconsistent> {
        super::undo::redo_event(state, event)
    }

    fn legal_commands(&self, state: &SokobanState) -> Vec<SokobanCommand> {
        self.steps(state)
    }

    fn status(&self, state: &SokobanState) -> Status {
        if state.is_solved() { Status::Won } else { Status::Playing }
    }
}
