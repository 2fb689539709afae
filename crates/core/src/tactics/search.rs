//! Exact movement range (Dijkstra) and A* over flat cell indices, with reusable scratch.
//!
//! A [`PathFinder`] owns every buffer a search needs: per cell one word packing a generation
//! stamp with the best cost so far, and the parent cell; the queues; a small stack. Starting a
//! search bumps the generation instead of clearing the arrays, so once the buffers have grown to
//! what the queries on a map need, repeated queries allocate nothing.
//!
//! Queues use lazy deletion: a cell is pushed again when a cheaper route to it turns up; the
//! cheaper entry has the smaller `f` and pops first, closing the cell, and closed cells are never
//! reopened, so superseded entries are recognised by the closed stamp alone.
//! - With w ≤ 1 (and for Dijkstra) the heuristic is consistent, `f` never decreases, and the
//!   queue is a radix heap: among equal `f` the most recently reached cell pops first.
//! - With w > 1 it is a binary heap of `(f, h, cell)`: ties go to the smaller `h`, then the
//!   smaller cell index.
//! - A neighbour whose `f` equals the `f` being expanded skips the queue and is expanded next
//!   (a stack), which saves most queue traffic on open ground.
//!
//! Every choice is a fixed function of the map and the query, so the path chosen among
//! equal-cost paths is the same on every machine. That path is recorded in `UnitMoved` events:
//! a change to the queues or the order neighbours are visited in changes recorded logs and must
//! bump `RuleSet::Tactics`'s version.

use super::jps::{self, Uniform};
use super::queue::{Arrays, COST_MASK, Entry, MAX_STAMP, NO_PARENT, Queue, RadixHeap, pack, stamp_of};
use super::{Connectivity, Cost, DIAGONAL, STEP};
use crate::geom::{Pos, Size};
use std::collections::BinaryHeap;

/// What a search walks on: a size and, for each cell, the cost multiplier of entering it.
///
/// Entering cell `i` costs `STEP × multiplier(i)` orthogonally and `DIAGONAL × multiplier(i)`
/// diagonally; a multiplier of 0 means the cell cannot be entered (impassable terrain or another
/// unit). Multipliers are `1 + extra` of the cell's terrain, so they are at least 1 where
/// passable, which keeps the Manhattan and octile heuristics admissible and consistent.
pub trait Graph {
    /// The map's size.
    fn size(&self) -> Size;
    /// `1 + extra` of cell `i` (row-major), or 0 when it cannot be entered. At most
    /// `1 + MAX_EXTRA` (1001), which keeps every path cost on a 1024×1024 map within the 42
    /// bits the search stores costs in.
    fn multiplier(&self, i: usize) -> u32;

    /// The map as jump point search reads it, when every enterable cell has the same
    /// multiplier and the graph keeps bit planes of it ([`Terrain`](super::Terrain) does;
    /// terrain with units does not). `None` (the default) means A*.
    fn uniform(&self) -> Option<&Uniform> {
        None
    }
}

/// A* heuristic weight in thousandths: `f = g + h × per_mille / 1000`.
///
/// `1000` (w = 1) is optimal; `0` turns A* into Dijkstra; above `1000` the search expands fewer
/// cells and may return a longer path (the seed's weighted A*). Integers keep it deterministic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Weight(pub u32);

impl Weight {
    /// w = 1: optimal paths.
    pub const OPTIMAL: Weight = Weight(1000);
    /// w = 0: Dijkstra.
    pub const DIJKSTRA: Weight = Weight(0);

    /// Parses a decimal weight such as `1`, `0`, `1.5` or `2.25` (at most three decimals).
    pub fn parse(text: &str) -> Option<Weight> {
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if int.is_empty() && frac.is_empty() || frac.len() > 3 {
            return None;
        }
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(int) || !all_digits(frac) {
            return None;
        }
        let int: u32 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let mut f: u32 = if frac.is_empty() { 0 } else { frac.parse().ok()? };
        for _ in frac.len()..3 {
            f *= 10;
        }
        int.checked_mul(1000)?.checked_add(f).map(Weight)
    }
}

/// Calls `visit(j, step_cost)` for every neighbour `j` of cell `i` = (x, y) that a step may go
/// to: on the map, enterable, and for diagonals with both orthogonal cells beside the step
/// enterable (no corner cutting). Orthogonal neighbours come first (up, right, down, left), then
/// the diagonals (up-right, down-right, down-left, up-left).
#[inline(always)]
fn for_each_step<G: Graph>(
    graph: &G,
    size: Size,
    eight: bool,
    i: usize,
    mut visit: impl FnMut(usize, u32, u32, Cost),
) {
    let w = usize::from(size.width);
    let (x, y) = ((i as u32) % w as u32, (i as u32) / w as u32);
    let (xs, ys) = (x as usize, y as usize);
    let has_up = ys > 0;
    let has_down = ys + 1 < usize::from(size.height);
    let has_left = xs > 0;
    let has_right = xs + 1 < w;
    let m = |j: usize| graph.multiplier(j);
    let up = if has_up { m(i - w) } else { 0 };
    let right = if has_right { m(i + 1) } else { 0 };
    let down = if has_down { m(i + w) } else { 0 };
    let left = if has_left { m(i - 1) } else { 0 };
    if up != 0 {
        visit(i - w, x, y - 1, STEP * Cost::from(up));
    }
    if right != 0 {
        visit(i + 1, x + 1, y, STEP * Cost::from(right));
    }
    if down != 0 {
        visit(i + w, x, y + 1, STEP * Cost::from(down));
    }
    if left != 0 {
        visit(i - 1, x - 1, y, STEP * Cost::from(left));
    }
    if !eight {
        return;
    }
    if up != 0 && right != 0 {
        let d = m(i - w + 1);
        if d != 0 {
            visit(i - w + 1, x + 1, y - 1, DIAGONAL * Cost::from(d));
        }
    }
    if down != 0 && right != 0 {
        let d = m(i + w + 1);
        if d != 0 {
            visit(i + w + 1, x + 1, y + 1, DIAGONAL * Cost::from(d));
        }
    }
    if down != 0 && left != 0 {
        let d = m(i + w - 1);
        if d != 0 {
            visit(i + w - 1, x - 1, y + 1, DIAGONAL * Cost::from(d));
        }
    }
    if up != 0 && left != 0 {
        let d = m(i - w - 1);
        if d != 0 {
            visit(i - w - 1, x - 1, y - 1, DIAGONAL * Cost::from(d));
        }
    }
}

/// Reusable scratch for [`PathFinder::path`] and [`PathFinder::reachable`]: keep one around and
/// repeated queries allocate nothing.
#[derive(Clone, Debug, Default)]
pub struct PathFinder {
    /// Per cell: stamp and best cost (see [`pack`]).
    state: Vec<u64>,
    /// Per cell: the cell it was reached from (valid while the cell is stamped this search).
    parent: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<Entry>,
    radix: RadixHeap,
    /// Cells whose `f` equals the `f` being expanded: expanded next, without a heap round trip.
    stack: Vec<u32>,
    expanded: usize,
}

impl PathFinder {
    /// An empty finder; buffers grow to the map's size on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many cells the last search expanded (popped and settled).
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// Starts a new search over `area` cells: a fresh generation, an empty heap.
    fn begin(&mut self, area: usize) {
        if self.state.len() < area {
            self.state.resize(area, 0);
            self.parent.resize(area, NO_PARENT);
        }
        // Two stamps per search (open, closed). On wrap-around, forget every old stamp.
        if self.generation >= MAX_STAMP {
            self.state.iter_mut().for_each(|n| *n = 0);
            self.generation = 0;
        }
        self.generation += 2;
        self.heap.clear();
        self.radix.clear();
        self.stack.clear();
        self.expanded = 0;
    }

    /// The cheapest path from `from` to `to` (for `weight` = [`Weight::OPTIMAL`]); returns its
    /// cost, or `None` when `to` cannot be reached. Read the cells with [`PathFinder::path_to`].
    ///
    /// Chooses the search: jump point search (`jps.rs`) when the weight is optimal and the
    /// graph offers a [`Uniform`] view (every enterable cell costs the same), A*
    /// ([`PathFinder::astar`]) otherwise. Both return the optimal cost, and the same steps
    /// are allowed; among several cheapest paths they may pick different cells. The rules
    /// choose by their version ([`super::RulesVersion`]).
    pub fn path<G: Graph>(
        &mut self,
        graph: &G,
        connectivity: Connectivity,
        from: Pos,
        to: Pos,
        weight: Weight,
    ) -> Option<Cost> {
        if weight == Weight::OPTIMAL
            && let Some(map) = graph.uniform()
            && map.size() == graph.size()
        {
            return self.jps(map, connectivity, from, to);
        }
        self.astar(graph, connectivity, from, to, weight)
    }

    /// Starts a search from `from` to `to` on a map of `size` (the same for A* and JPS):
    /// `Err` with the answer when it is decided already (`None` off the map or when
    /// `enterable(goal)` is false, `Some(0)` from a cell to itself, which is stamped closed so
    /// [`PathFinder::path_to`] reads it), else the start's and goal's indices and the
    /// generation, with the start open at cost 0.
    #[inline]
    fn open_search(
        &mut self,
        size: Size,
        from: Pos,
        to: Pos,
        enterable: impl FnOnce(usize) -> bool,
    ) -> Result<(usize, usize, u32), Option<Cost>> {
        if !size.contains(from) || !size.contains(to) {
            return Err(None);
        }
        self.begin(size.area());
        let (start, goal) = (size.index(from), size.index(to));
        let cur = self.generation;
        self.state[start] = pack(cur + 1, 0);
        self.parent[start] = NO_PARENT;
        if start == goal {
            return Err(Some(0));
        }
        if !enterable(goal) {
            return Err(None);
        }
        self.state[start] = pack(cur, 0);
        Ok((start, goal, cur))
    }

    /// Jump point search over `map` (see `jps.rs`): the optimal cost, like [`PathFinder::astar`]
    /// with w = 1 on the same map, found by expanding jump points only.
    pub fn jps(&mut self, map: &Uniform, connectivity: Connectivity, from: Pos, to: Pos) -> Option<Cost> {
        let (start, goal, cur) = match self.open_search(map.size(), from, to, |_| map.passable(to)) {
            Ok(s) => s,
            Err(decided) => return decided,
        };
        let arrays = Arrays { cur, state: &mut self.state, parent: &mut self.parent, stack: &mut self.stack };
        let (found, expanded) = jps::jps(arrays, map, connectivity, start, goal, &mut self.radix);
        self.expanded = expanded;
        found
    }

    /// A* from `from` to `to`; returns the path's cost, or `None` when `to` cannot be reached.
    ///
    /// `from` itself is never entered, so it may hold the moving unit; `to` must be enterable.
    /// The heuristic is Manhattan (4-connected) or octile (8-connected, diagonal `DIAGONAL`,
    /// no corner cutting: a diagonal step needs both orthogonal cells beside it enterable),
    /// scaled by `weight`. Read the cells with [`PathFinder::path_to`].
    ///
    /// Closed cells are never reopened. Every improvement of a cell's cost pushes an entry with a
    /// smaller `f` than the entries it supersedes, so that entry pops first and closes the cell;
    /// superseded entries are recognised by the closed stamp alone.
    pub fn astar<G: Graph>(
        &mut self,
        graph: &G,
        connectivity: Connectivity,
        from: Pos,
        to: Pos,
        weight: Weight,
    ) -> Option<Cost> {
        let (start, goal, cur) =
            match self.open_search(graph.size(), from, to, |goal| graph.multiplier(goal) != 0) {
                Ok(s) => s,
                Err(decided) => return decided,
            };
        let eight = connectivity == Connectivity::Eight;
        let (gx, gy) = (u32::from(to.x), u32::from(to.y));
        let wt = Cost::from(weight.0);
        let heuristic = |x: u32, y: u32| -> Cost {
            let dx = Cost::from(x.abs_diff(gx));
            let dy = Cost::from(y.abs_diff(gy));
            let h = if eight { STEP * dx.max(dy) + (DIAGONAL - STEP) * dx.min(dy) } else { STEP * (dx + dy) };
            if wt == 1000 { h } else { h * wt / 1000 }
        };
        let h0 = heuristic(u32::from(from.x), u32::from(from.y));
        // w ≤ 1 keeps the heuristic consistent, so f never decreases along the search: the
        // radix heap applies. Above 1 the keys are not monotone: the binary heap.
        let arrays = Arrays { cur, state: &mut self.state, parent: &mut self.parent, stack: &mut self.stack };
        let (found, expanded) = if weight.0 <= 1000 {
            astar(arrays, graph, eight, start, goal, h0, heuristic, &mut self.radix)
        } else {
            astar(arrays, graph, eight, start, goal, h0, heuristic, &mut self.heap)
        };
        self.expanded = expanded;
        found
    }

    /// After [`PathFinder::path`] returned `Some`, writes the path's cells into `out`
    /// (cleared first), from the start to `to`, both included.
    pub fn path_to(&self, size: Size, to: Pos, out: &mut Vec<Pos>) {
        out.clear();
        if !size.contains(to) || self.state.len() < size.area() {
            return;
        }
        let mut i = size.index(to) as u32;
        let cur = self.generation;
        loop {
            let st = stamp_of(self.state[i as usize]);
            if (st != cur && st != cur + 1) || out.len() > size.area() {
                out.clear();
                return;
            }
            out.push(size.pos(i as usize));
            let p = self.parent[i as usize];
            if p == NO_PARENT {
                break;
            }
            i = p;
        }
        out.reverse();
    }

    /// Every cell reachable from `from` with total cost at most `budget` (Dijkstra, exact),
    /// written into `out` (cleared first) as `(cell, cost)` in row-major order. `from` itself is
    /// not listed. Steps follow the same rules as [`PathFinder::path`]; afterwards
    /// [`PathFinder::path_to`] gives the cheapest path to any listed cell.
    pub fn reachable<G: Graph>(
        &mut self,
        graph: &G,
        connectivity: Connectivity,
        from: Pos,
        budget: Cost,
        out: &mut Vec<(Pos, Cost)>,
    ) {
        out.clear();
        let size = graph.size();
        if !size.contains(from) {
            return;
        }
        self.begin(size.area());
        let cur = self.generation;
        let start = size.index(from);
        self.state[start] = pack(cur, 0);
        self.parent[start] = NO_PARENT;
        let eight = connectivity == Connectivity::Eight;
        let state = &mut self.state;
        let parent = &mut self.parent;
        let heap = &mut self.radix;
        heap.push(0, 0, start);
        let mut expanded = 0;
        let open = pack(cur, 0);
        while let Some((_, i)) = heap.pop() {
            let word = state[i];
            if stamp_of(word) != cur {
                continue;
            }
            let g0 = word & COST_MASK;
            state[i] = pack(cur + 1, g0);
            expanded += 1;
            if i != start {
                out.push((size.pos(i), g0));
            }
            for_each_step(graph, size, eight, i, |j, _, _, step| {
                let g = g0 + step;
                if g > budget {
                    return;
                }
                let word = state[j];
                let st = stamp_of(word);
                if st == cur + 1 || (st == cur && word & COST_MASK <= g) {
                    return;
                }
                state[j] = open | g;
                parent[j] = i as u32;
                heap.push(g, 0, j);
            });
        }
        self.expanded = expanded;
        out.sort_unstable_by_key(|&(p, _)| (p.y, p.x));
    }
}

/// The A* loop of [`PathFinder::path`], generic over the queue; returns the cost found and the
/// number of cells expanded.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn astar<G: Graph, Q: Queue>(
    arrays: Arrays<'_>,
    graph: &G,
    eight: bool,
    start: usize,
    goal: usize,
    h0: Cost,
    heuristic: impl Fn(u32, u32) -> Cost,
    queue: &mut Q,
) -> (Option<Cost>, usize) {
    let size = graph.size();
    let Arrays { cur, state, parent, stack } = arrays;
    queue.push(h0, h0, start);
    let mut expanded = 0;
    let mut found = None;
    let mut f_now = h0;
    let open = pack(cur, 0);
    loop {
        // A neighbour whose f equals the f being expanded is as good as anything in the
        // queue: expand it next (last found first) and skip the queue. With a consistent
        // heuristic this keeps the expansion order a valid A* order.
        let i = if let Some(i) = stack.pop() {
            i as usize
        } else if let Some((f, i)) = queue.pop() {
            f_now = f;
            i
        } else {
            break;
        };
        let word = state[i];
        if stamp_of(word) != cur {
            continue; // closed already: a superseded entry
        }
        let g0 = word & COST_MASK;
        state[i] = pack(cur + 1, g0);
        expanded += 1;
        if i == goal {
            found = Some(g0);
            break;
        }
        for_each_step(graph, size, eight, i, |j, x, y, step| {
            let g = g0 + step;
            let word = state[j];
            let st = stamp_of(word);
            if st == cur + 1 || (st == cur && word & COST_MASK <= g) {
                return;
            }
            state[j] = open | g;
            parent[j] = i as u32;
            let h = heuristic(x, y);
            if g + h == f_now {
                stack.push(j as u32);
            } else {
                queue.push(g + h, h, j);
            }
        });
    }
    (found, expanded)
}
