//! An optimal-in-pushes Sokoban solver: A* over push states.
//!
//! - **States** are the boxes' cells (sorted) and the player's reachable region, normalised to
//!   its top-left cell (the smallest row-major index the player can walk to without pushing).
//!   Only cells the player can reach from its start without crossing a wall (ignoring boxes)
//!   take part; a box outside them can never move (the search answers `Unsolvable` if such a
//!   box is not on a goal).
//! - **Moves** of the search are pushes: for every box and direction where the player can walk
//!   to the cell behind the box and the cell ahead is free. Every push costs 1, so the first
//!   solution A* finds has the fewest pushes.
//! - **Pruning**, never of a state that can still be solved:
//!   - dead squares: a box on a cell from which no goal can be reached even with no other box
//!     (a backward "pull" search from every goal) is a deadlock;
//!   - freeze deadlocks: after a push, the pushed box is frozen when it cannot move along either
//!     axis (a wall, two dead squares, or a frozen box on that axis, with the box under test
//!     counted as a wall while its neighbours are checked); a frozen group with a box off a goal
//!     is a deadlock.
//! - **Lower bound**: the minimum-cost matching (Hungarian algorithm, exact) of boxes to goals,
//!   a box's cost to a goal being the pushes it needs alone. Admissible and consistent (a push
//!   changes one box's costs by at most 1), so a state is solved when it is generated.
//! - **Ties** in the open list go to the deeper state (more pushes made), then to the state
//!   generated first. Visited states sit in a hash table that is only looked up, never iterated:
//!   the search, its result and its node count are the same on every run and machine.
//! - **Budget**: [`SolveLimits::max_nodes`] expansions; [`SolveLimits::max_bytes`] of tables
//!   (the distance table before it is made, then the search's tables, counted by capacity: the
//!   search gives up, [`SolveOutcome::OutOfMemory`], once they pass half the budget, since the
//!   next growth may double them); and a `stop` callback the caller passes (no clock in core),
//!   called every [`CHECK_WORK`] units of work in every phase — the distance tables, each
//!   matching (the Hungarian algorithm's inner loop), each reachability search and each
//!   expansion — so that a huge level (1,000 boxes: one matching is 10⁹ steps) stops on time.
//!
//! The solution comes back as commands for the rules: for each push, a `walk` to the cell behind
//! the box (when the player is not already there), then the step. Pushes are optimal; moves are
//! whatever those shortest walks add up to (not optimised).

use super::{SokobanCommand, SokobanRules, SokobanState};
use crate::geom::{Dir, Pos};
use crate::hash::keys::mix64;
use crate::rules::Rules;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No cell (off the interior).
const NONE: u16 = u16::MAX;
/// An unreachable distance.
const FAR: u32 = u32::MAX / 4;
/// Work (cells visited, matching steps; an expansion counts 64) between two calls of the stop
/// callback: well under a millisecond.
pub const CHECK_WORK: u64 = 1 << 16;

/// How far a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// The most states expanded before the search gives up (`Stopped`).
    pub max_nodes: u64,
    /// The most bytes the search's tables may take (`OutOfMemory` past it; see the module docs).
    pub max_bytes: u64,
}

impl Default for SolveLimits {
    fn default() -> Self {
        SolveLimits { max_nodes: u64::MAX, max_bytes: u64::MAX }
    }
}

impl SolveLimits {
    /// At most `max_nodes` expansions, no memory budget.
    pub const fn nodes(max_nodes: u64) -> SolveLimits {
        SolveLimits { max_nodes, max_bytes: u64::MAX }
    }
}

/// The stop callback, called every [`CHECK_WORK`] units of work; once it said stop, it stays.
struct Budget<'a> {
    stop: &'a mut dyn FnMut() -> bool,
    work: u64,
    next: u64,
    stopped: bool,
}

impl Budget<'_> {
    /// Counts `work`; whether the search must stop.
    fn tick(&mut self, work: u64) -> bool {
        self.work = self.work.saturating_add(work);
        if !self.stopped && self.work >= self.next {
            self.next = self.work.saturating_add(CHECK_WORK);
            self.stopped = (self.stop)();
        }
        self.stopped
    }
}

/// A solution with the fewest pushes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The commands, to apply in order from the solved state: `walk`s and steps.
    pub commands: Vec<SokobanCommand>,
    /// Pushes made (the fewest possible).
    pub pushes: u32,
    /// Moves made (steps, walks counted cell by cell).
    pub moves: u32,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A solution with the fewest pushes.
    Solved(Solution),
    /// No sequence of pushes solves the level from this state.
    Unsolvable,
    /// The node budget ran out or the stop callback said so.
    Stopped,
    /// The search's tables would pass [`SolveLimits::max_bytes`]: it gave up.
    OutOfMemory,
}

/// What [`solve`] answers: the outcome and the work done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// How the search ended.
    pub outcome: SolveOutcome,
    /// States expanded.
    pub nodes: u64,
}

/// The static part of a level as the search sees it: the interior cells, their neighbours,
/// goals, dead squares and push distances.
struct Problem {
    /// Interior index → board cell.
    pos: Vec<Pos>,
    /// Interior neighbours in [`Dir::ALL`] order (up, down, left, right), [`NONE`] for a wall.
    nb: Vec<[u16; 4]>,
    goal: Vec<bool>,
    dead: Vec<bool>,
    /// Goals' interior indexes.
    goals: Vec<u16>,
    /// `dist[g * n + c]`: pushes a box alone needs from `c` to goal `g` ([`FAR`] if none).
    dist: Vec<u32>,
}

/// Why a phase ended early.
enum Halt {
    Stopped,
    Memory,
}

impl Problem {
    fn new(
        state: &SokobanState,
        limits: SolveLimits,
        budget: &mut Budget,
    ) -> Result<(Problem, Vec<u16>, u16, bool), Halt> {
        let size = state.size();
        let mut index = vec![NONE; size.area()];
        let mut pos = vec![state.player()];
        index[size.index(state.player())] = 0;
        let mut head = 0;
        while head < pos.len() {
            let p = pos[head];
            head += 1;
            for d in Dir::ALL {
                let Some(q) = p.step(d, size) else { continue };
                let j = size.index(q);
                if index[j] == NONE
                    && state.cell(q).is_some_and(|c| c.is_open())
                    && pos.len() < usize::from(NONE)
                {
                    index[j] = pos.len() as u16;
                    pos.push(q);
                }
            }
        }
        // Number the interior in row-major order, so that the smallest index is the top-left
        // cell.
        pos.sort_unstable_by_key(|p| (p.y, p.x));
        for (i, p) in pos.iter().enumerate() {
            index[size.index(*p)] = i as u16;
        }
        let n = pos.len();
        let nb: Vec<[u16; 4]> = pos
            .iter()
            .map(|p| Dir::ALL.map(|d| p.step(d, size).map_or(NONE, |q| index[size.index(q)])))
            .collect();
        let goal: Vec<bool> = pos.iter().map(|p| state.cell(*p) == Some(super::Cell::Goal)).collect();
        let goals: Vec<u16> = (0..n as u16).filter(|&c| goal[usize::from(c)]).collect();
        // The distance table is the largest static table: 4 bytes per goal and cell.
        if (goals.len() as u64).saturating_mul(n as u64).saturating_mul(4) > limits.max_bytes / 2 {
            return Err(Halt::Memory);
        }
        // Allocated fallibly: a process limit (RLIMIT_AS, a cgroup) the budget did not see is
        // "gave up: memory", not an abort (issue 37.6).
        // Reserved (address space only), then filled one goal's row at a time between reads of
        // the clock: the pages are touched as the search gets to them, never all before the
        // clock is read (issue 66.5: 3.9 GB touched, 4.4 to 13.6 s, under `--seconds 2`).
        let mut dist = Vec::new();
        dist.try_reserve_exact(goals.len() * n).map_err(|_| Halt::Memory)?;
        let mut queue = Vec::with_capacity(n);
        for (g, &start) in goals.iter().enumerate() {
            if budget.tick(n as u64) {
                return Err(Halt::Stopped);
            }
            dist.resize((g + 1) * n, FAR);
            let d = &mut dist[g * n..(g + 1) * n];
            d[usize::from(start)] = 0;
            queue.clear();
            queue.push(start);
            let mut head = 0;
            while head < queue.len() {
                let t = usize::from(queue[head]);
                head += 1;
                // A box reaches t from b = t - dir, pushed by a player at b - dir.
                for k in 0..4 {
                    let back = k ^ 1; // the opposite of Dir::ALL[k]
                    let b = nb[t][back];
                    if b == NONE {
                        continue;
                    }
                    let p = nb[usize::from(b)][back];
                    if p != NONE && d[usize::from(b)] == FAR {
                        d[usize::from(b)] = d[t] + 1;
                        queue.push(b);
                    }
                }
            }
        }
        let mut dead = Vec::with_capacity(n);
        for c in 0..n {
            if budget.tick(goals.len() as u64) {
                return Err(Halt::Stopped);
            }
            dead.push(!goal[c] && (0..goals.len()).all(|g| dist[g * n + c] == FAR));
        }
        let mut boxes = Vec::new();
        let mut stuck = false;
        for (i, b) in state.boxes().cells().iter().enumerate() {
            if b.is_none() {
                continue;
            }
            match index[i] {
                NONE => stuck |= state.cells().cells()[i] != super::Cell::Goal,
                c => boxes.push(c),
            }
        }
        boxes.sort_unstable();
        let player = index[size.index(state.player())];
        Ok((Problem { pos, nb, goal, dead, goals, dist }, boxes, player, stuck))
    }

    fn n(&self) -> usize {
        self.pos.len()
    }
}

/// Minimum-cost assignment of rows to distinct columns (rows ≤ columns), the Hungarian
/// algorithm in its O(rows² · columns) form, with reusable buffers.
#[derive(Default)]
struct Hungarian {
    u: Vec<i64>,
    v: Vec<i64>,
    p: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
}

impl Hungarian {
    /// The least total of `cost(row, column)` over assignments of every row to its own column;
    /// `None` when `budget` says stop.
    fn solve(
        &mut self,
        rows: usize,
        cols: usize,
        cost: impl Fn(usize, usize) -> i64,
        budget: &mut Budget,
    ) -> Option<i64> {
        const INF: i64 = i64::MAX / 4;
        let Hungarian { u, v, p, way, minv, used } = self;
        for buf in [&mut *u, &mut *v, &mut *minv] {
            buf.clear();
            buf.resize(cols.max(rows) + 1, 0);
        }
        p.clear();
        p.resize(cols + 1, 0);
        way.clear();
        way.resize(cols + 1, 0);
        for i in 1..=rows {
            p[0] = i;
            let mut j0 = 0;
            minv.iter_mut().for_each(|m| *m = INF);
            used.clear();
            used.resize(cols + 1, false);
            loop {
                if budget.tick(cols as u64) {
                    return None;
                }
                used[j0] = true;
                let i0 = p[j0];
                let mut delta = INF;
                let mut j1 = 0;
                for j in 1..=cols {
                    if !used[j] {
                        let cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
                        if cur < minv[j] {
                            minv[j] = cur;
                            way[j] = j0;
                        }
                        if minv[j] < delta {
                            delta = minv[j];
                            j1 = j;
                        }
                    }
                }
                for j in 0..=cols {
                    if used[j] {
                        u[p[j]] += delta;
                        v[j] -= delta;
                    } else {
                        minv[j] -= delta;
                    }
                }
                j0 = j1;
                if p[j0] == 0 {
                    break;
                }
            }
            loop {
                let j1 = way[j0];
                p[j0] = p[j1];
                j0 = j1;
                if j0 == 0 {
                    break;
                }
            }
        }
        Some((1..=cols).filter(|&j| p[j] != 0).map(|j| cost(p[j] - 1, j - 1)).sum())
    }
}

/// Visited states: an open-addressing table of state ids over the states' keys (boxes, then
/// the normalised player) stored one after another. Only looked up, never iterated.
struct StateTable {
    stride: usize,
    keys: Vec<u16>,
    slots: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

fn key_hash(key: &[u16]) -> u64 {
    let mut h = 0u64;
    for chunk in key.chunks(4) {
        let mut w = 0u64;
        for (i, &k) in chunk.iter().enumerate() {
            w |= u64::from(k) << (16 * i);
        }
        h = mix64(h ^ w);
    }
    h
}

impl StateTable {
    fn new(stride: usize) -> Self {
        StateTable { stride, keys: Vec::new(), slots: vec![EMPTY; 1 << 12] }
    }

    fn len(&self) -> usize {
        self.keys.len() / self.stride
    }

    /// Bytes reserved.
    fn bytes(&self) -> u64 {
        (self.keys.capacity() * 2 + self.slots.capacity() * 4) as u64
    }

    fn key(&self, id: u32) -> &[u16] {
        let s = id as usize * self.stride;
        &self.keys[s..s + self.stride]
    }

    /// The id of `key`, and whether it was just added; `None` when the table could not grow
    /// (the allocation failed).
    fn get_or_insert(&mut self, key: &[u16]) -> Option<(u32, bool)> {
        if (self.len() + 1) * 2 > self.slots.len() {
            self.grow()?;
        }
        if self.keys.len() == self.keys.capacity() {
            self.keys.try_reserve(self.keys.len().max(key.len())).ok()?;
        }
        let mask = self.slots.len() - 1;
        let mut i = key_hash(key) as usize & mask;
        loop {
            let id = self.slots[i];
            if id == EMPTY {
                let id = self.len() as u32;
                self.keys.extend_from_slice(key);
                self.slots[i] = id;
                return Some((id, true));
            }
            if self.key(id) == key {
                return Some((id, false));
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) -> Option<()> {
        let mut slots = Vec::new();
        slots.try_reserve_exact(self.slots.len() * 2).ok()?;
        slots.resize(self.slots.len() * 2, EMPTY);
        let mask = slots.len() - 1;
        for id in 0..self.len() as u32 {
            let mut i = key_hash(self.key(id)) as usize & mask;
            while slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            slots[i] = id;
        }
        self.slots = slots;
        Some(())
    }
}

/// The search's work buffers.
struct Search<'a> {
    pb: &'a Problem,
    /// Box occupancy of the interior: 0 empty, 1 box, 2 a box counted as a wall (freeze test).
    occ: Vec<u8>,
    /// Reachability marks: a cell is reached when its mark equals `epoch`.
    mark: Vec<u32>,
    epoch: u32,
    queue: Vec<u16>,
    hungarian: Hungarian,
    budget: Budget<'a>,
}

impl Search<'_> {
    /// Marks the player's region from `from` (cells reached get `mark == epoch`) and returns
    /// its smallest index.
    fn reach(&mut self, from: u16) -> u16 {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        self.queue.clear();
        self.queue.push(from);
        self.mark[usize::from(from)] = epoch;
        let mut least = from;
        let mut head = 0;
        self.budget.tick(self.pb.n() as u64 / 4);
        while head < self.queue.len() {
            let c = usize::from(self.queue[head]);
            head += 1;
            for &q in &self.pb.nb[c] {
                if q != NONE && self.mark[usize::from(q)] != epoch && self.occ[usize::from(q)] == 0 {
                    self.mark[usize::from(q)] = epoch;
                    least = least.min(q);
                    self.queue.push(q);
                }
            }
        }
        least
    }

    /// The matching lower bound of `boxes`, or `None` when some box cannot reach any free goal;
    /// `Err` when the budget says stop.
    fn lower_bound(&mut self, boxes: &[u16]) -> Result<Option<u32>, Halt> {
        let pb = self.pb;
        let n = pb.n();
        let cost = |b: usize, g: usize| i64::from(pb.dist[g * n + usize::from(boxes[b])]);
        let total =
            self.hungarian.solve(boxes.len(), pb.goals.len(), cost, &mut self.budget).ok_or(Halt::Stopped)?;
        Ok((total < i64::from(FAR)).then_some(total as u32))
    }

    /// Whether the box at `c` (with `occ[c] == 1`) is frozen: `None` if not, else whether some
    /// box of the frozen group stands off a goal.
    fn frozen(&mut self, c: usize) -> Option<bool> {
        let v = self.blocked(c, 0)?;
        let h = self.blocked(c, 2)?;
        Some(v || h || !self.pb.goal[c])
    }

    /// Whether the box at `c` cannot move along the axis of `Dir::ALL[k]` and `Dir::ALL[k + 1]`:
    /// `None` if it can, else whether a frozen box blocking it stands off a goal.
    fn blocked(&mut self, c: usize, k: usize) -> Option<bool> {
        let (a, b) = (self.pb.nb[c][k], self.pb.nb[c][k + 1]);
        let wall = |x: u16, occ: &[u8]| x == NONE || occ[usize::from(x)] == 2;
        if wall(a, &self.occ) || wall(b, &self.occ) {
            return Some(false);
        }
        let (a, b) = (usize::from(a), usize::from(b));
        if self.pb.dead[a] && self.pb.dead[b] {
            return Some(false);
        }
        self.occ[c] = 2;
        let mut r = None;
        if self.occ[a] == 1 {
            r = self.frozen(a);
        }
        if r.is_none() && self.occ[b] == 1 {
            r = self.frozen(b);
        }
        self.occ[c] = 1;
        r
    }
}

/// Searches for a solution of `state` with the fewest pushes, within `limits`, calling `stop`
/// every [`CHECK_WORK`] units of work in every phase (it returns `true` to end the search:
/// `Stopped`). Deterministic: the same state and limits give the same report (unless `stop`
/// says stop).
pub fn solve(state: &SokobanState, limits: SolveLimits, stop: &mut dyn FnMut() -> bool) -> SolveReport {
    if state.is_solved() {
        let solution = Solution { commands: Vec::new(), pushes: 0, moves: 0 };
        return SolveReport { outcome: SolveOutcome::Solved(solution), nodes: 0 };
    }
    let mut budget = Budget { stop, work: 0, next: 0, stopped: false };
    let (pb, boxes, player, stuck) = match Problem::new(state, limits, &mut budget) {
        Ok(p) => p,
        Err(h) => return halted(h, 0),
    };
    let unsolvable = SolveReport { outcome: SolveOutcome::Unsolvable, nodes: 0 };
    if stuck || boxes.len() > pb.goals.len() || boxes.iter().any(|&b| pb.dead[usize::from(b)]) {
        return unsolvable;
    }
    let n = pb.n();
    let k = boxes.len();
    let mut s = Search {
        pb: &pb,
        occ: vec![0; n],
        mark: vec![0; n],
        epoch: 0,
        queue: Vec::with_capacity(n),
        hungarian: Hungarian::default(),
        budget,
    };
    let h0 = match s.lower_bound(&boxes) {
        Ok(Some(h)) => h,
        Ok(None) => return unsolvable,
        Err(h) => return halted(h, 0),
    };
    for &b in &boxes {
        s.occ[usize::from(b)] = 1;
    }
    let mut key = boxes.clone();
    key.push(s.reach(player));
    for &b in &boxes {
        s.occ[usize::from(b)] = 0;
    }
    let mut table = StateTable::new(k + 1);
    let Some((root, _)) = table.get_or_insert(&key) else { return halted(Halt::Memory, 0) };
    // Per state id: pushes so far, parent, the push that made it (box cell, direction), closed.
    let mut g: Vec<u32> = vec![0];
    let mut parent: Vec<u32> = vec![root];
    let mut push: Vec<(u16, u8)> = vec![(NONE, 0)];
    let mut closed: Vec<bool> = vec![false];
    let mut open = BinaryHeap::new();
    open.push(Reverse((h0, Reverse(0u32), root)));
    let mut nodes = 0u64;
    let mut cur = vec![0u16; k + 1];
    let mut child = vec![0u16; k + 1];
    let mut found = None;
    let mut pushes: Vec<(usize, usize)> = Vec::with_capacity(4 * k);
    'search: while let Some(Reverse((_, Reverse(gn), id))) = open.pop() {
        let i = id as usize;
        if closed[i] || g[i] != gn {
            continue;
        }
        closed[i] = true;
        nodes += 1;
        if nodes > limits.max_nodes || s.budget.tick(64) {
            return halted(Halt::Stopped, nodes);
        }
        // Capacities: the next growth of every table at once at most doubles them.
        let bytes = pb.dist.len() as u64 * 4
            + table.bytes()
            + (g.capacity() * 4 + parent.capacity() * 4 + push.capacity() * 4 + closed.capacity()) as u64
            + (open.capacity() * std::mem::size_of::<Reverse<(u32, Reverse<u32>, u32)>>()) as u64;
        if bytes > limits.max_bytes / 2 {
            return halted(Halt::Memory, nodes);
        }
        cur.copy_from_slice(table.key(id));
        let (bx, pl) = cur.split_at(k);
        for &b in bx {
            s.occ[usize::from(b)] = 1;
        }
        s.reach(pl[0]);
        let region = s.epoch;
        // The region's marks are overwritten by the children's normalisation: list the pushes
        // to try first.
        pushes.clear();
        for (slot, &b) in bx.iter().enumerate() {
            for (d, &t) in pb.nb[usize::from(b)].iter().enumerate() {
                let behind = pb.nb[usize::from(b)][d ^ 1];
                if behind == NONE || s.mark[usize::from(behind)] != region {
                    continue;
                }
                if t == NONE || s.occ[usize::from(t)] != 0 || pb.dead[usize::from(t)] {
                    continue;
                }
                pushes.push((slot, d));
            }
        }
        for &(slot, d) in &pushes {
            let b = cur[slot];
            let t = pb.nb[usize::from(b)][d];
            s.occ[usize::from(b)] = 0;
            s.occ[usize::from(t)] = 1;
            let deadlock = s.frozen(usize::from(t)) == Some(true);
            if !deadlock {
                // The child's boxes, sorted: replace b by t and move it into place.
                child[..k].copy_from_slice(&cur[..k]);
                child[slot] = t;
                let mut j = slot;
                while j > 0 && child[j - 1] > child[j] {
                    child.swap(j - 1, j);
                    j -= 1;
                }
                while j + 1 < k && child[j + 1] < child[j] {
                    child.swap(j, j + 1);
                    j += 1;
                }
                let bound = match s.lower_bound(&child[..k]) {
                    Ok(b) => b,
                    Err(h) => return halted(h, nodes),
                };
                if let Some(h) = bound {
                    child[k] = s.reach(b);
                    let gc = gn + 1;
                    let Some((cid, new)) = table.get_or_insert(&child) else {
                        return halted(Halt::Memory, nodes);
                    };
                    let c = cid as usize;
                    if new {
                        g.push(gc);
                        parent.push(id);
                        push.push((b, d as u8));
                        closed.push(false);
                    }
                    if new || (gc < g[c] && !closed[c]) {
                        g[c] = gc;
                        parent[c] = id;
                        push[c] = (b, d as u8);
                        if h == 0 {
                            found = Some(cid);
                            s.occ[usize::from(t)] = 0;
                            break 'search;
                        }
                        open.push(Reverse((gc + h, Reverse(gc), cid)));
                    }
                }
            }
            s.occ[usize::from(t)] = 0;
            s.occ[usize::from(b)] = 1;
        }
        for &b in &cur[..k] {
            s.occ[usize::from(b)] = 0;
        }
    }
    let Some(goal) = found else {
        return SolveReport { outcome: SolveOutcome::Unsolvable, nodes };
    };
    let mut steps = Vec::new();
    let mut at = goal;
    while at != root {
        let (b, d) = push[at as usize];
        steps.push((pb.pos[usize::from(b)], Dir::ALL[usize::from(d)]));
        at = parent[at as usize];
    }
    steps.reverse();
    SolveReport { outcome: SolveOutcome::Solved(replay(state, &steps)), nodes }
}

/// The report of a search that ended early.
fn halted(h: Halt, nodes: u64) -> SolveReport {
    let outcome = match h {
        Halt::Stopped => SolveOutcome::Stopped,
        Halt::Memory => SolveOutcome::OutOfMemory,
    };
    SolveReport { outcome, nodes }
}

/// The commands that make `pushes` (each a box's cell and direction) from `state`: a walk to
/// the cell behind the box when needed, then the step; with the counts the rules give.
fn replay(state: &SokobanState, pushes: &[(Pos, Dir)]) -> Solution {
    let rules = SokobanRules;
    let mut play = state.clone();
    let mut events = Vec::new();
    let mut commands = Vec::with_capacity(2 * pushes.len());
    // The search only makes pushes the rules accept; a refusal would be a solver bug, which
    // the tests replaying every solution would catch.
    let mut apply = |c: SokobanCommand, play: &mut SokobanState| {
        events.clear();
        let accepted = rules.apply(play, &c, &mut events).is_ok();
        debug_assert!(accepted, "the solver's command {c} was refused");
        commands.push(c);
    };
    for &(from, dir) in pushes {
        let behind = from.step(dir.opposite(), play.size()).unwrap_or(from);
        if behind != play.player() {
            apply(SokobanCommand::Walk(behind), &mut play);
        }
        apply(SokobanCommand::Step(dir), &mut play);
    }
    Solution {
        commands,
        pushes: play.pushes().wrapping_sub(state.pushes()),
        moves: play.moves().wrapping_sub(state.moves()),
    }
}
