//! Exact movement range (Dijkstra) and A* over flat cell indices, with reusable scratch.
//!
//! A [`PathFinder`] owns every buffer a search needs: one [`Node`] per cell (best cost so far,
//! parent, and a generation stamp that says whether the other two belong to the current search),
//! and a binary heap. Starting a search bumps the generation instead of clearing the arrays, so
//! after the first search on a map of a given size, queries allocate nothing.
//!
//! The heap holds `(f, h, cell)` with lazy deletion: a cell may be pushed again when a cheaper
//! route to it turns up, and stale entries are skipped when popped. Ties on `f` go to the entry
//! with the smaller `h` (the one nearer the goal), then to the smaller cell index, so the order
//! of expansion, and with it the path chosen among equal-cost paths, is fully determined.

use super::{Connectivity, Cost, DIAGONAL, STEP};
use crate::geom::{Pos, Size};
use std::cmp::Ordering;
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
    /// `1 + extra` of cell `i` (row-major), or 0 when it cannot be entered.
    fn multiplier(&self, i: usize) -> u32;
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

/// Per-cell search record. `stamp == cur` means open (g and parent valid), `cur + 1` closed.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    g: Cost,
    parent: u32,
    stamp: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    f: Cost,
    h: Cost,
    cell: u32,
}

impl Ord for Entry {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: reverse so that the smallest (f, h, cell) comes first.
        other.f.cmp(&self.f).then(other.h.cmp(&self.h)).then(other.cell.cmp(&self.cell))
    }
}

impl PartialOrd for Entry {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

const NO_PARENT: u32 = u32::MAX;

/// (dx, dy) of the four orthogonal steps, then the four diagonals.
const STEPS: [(i64, i64); 8] = [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)];

/// Reusable scratch for [`PathFinder::path`] and [`PathFinder::reachable`]: keep one around and
/// repeated queries allocate nothing.
#[derive(Clone, Debug, Default)]
pub struct PathFinder {
    nodes: Vec<Node>,
    generation: u32,
    heap: BinaryHeap<Entry>,
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
        if self.nodes.len() < area {
            self.nodes.resize(area, Node::default());
        }
        // Two stamps per search (open, closed). On wrap-around, forget every old stamp.
        if self.generation >= u32::MAX - 2 {
            self.nodes.iter_mut().for_each(|n| n.stamp = 0);
            self.generation = 0;
        }
        self.generation += 2;
        self.heap.clear();
        self.expanded = 0;
    }

    /// A* from `from` to `to`; returns the path's cost, or `None` when `to` cannot be reached.
    ///
    /// `from` itself is never entered, so it may hold the moving unit; `to` must be enterable.
    /// The heuristic is Manhattan (4-connected) or octile (8-connected, diagonal `DIAGONAL`,
    /// no corner cutting: a diagonal step needs both orthogonal cells beside it enterable),
    /// scaled by `weight`. Read the cells with [`PathFinder::path_to`].
    pub fn path<G: Graph>(
        &mut self,
        graph: &G,
        connectivity: Connectivity,
        from: Pos,
        to: Pos,
        weight: Weight,
    ) -> Option<Cost> {
        let size = graph.size();
        if !size.contains(from) || !size.contains(to) {
            return None;
        }
        self.begin(size.area());
        let start = size.index(from);
        let goal = size.index(to);
        let cur = self.generation;
        self.nodes[start] = Node { g: 0, parent: NO_PARENT, stamp: cur + 1 };
        if start == goal {
            return Some(0);
        }
        if graph.multiplier(goal) == 0 {
            return None;
        }
        let (gx, gy) = (i64::from(to.x), i64::from(to.y));
        let heuristic = |x: i64, y: i64| -> Cost {
            let dx = (x - gx).unsigned_abs();
            let dy = (y - gy).unsigned_abs();
            let h = match connectivity {
                Connectivity::Four => STEP * (dx + dy),
                Connectivity::Eight => STEP * dx.max(dy) + (DIAGONAL - STEP) * dx.min(dy),
            };
            h * Cost::from(weight.0) / 1000
        };
        self.nodes[start] = Node { g: 0, parent: NO_PARENT, stamp: cur };
        let h0 = heuristic(i64::from(from.x), i64::from(from.y));
        self.heap.push(Entry { f: h0, h: h0, cell: start as u32 });
        let w = i64::from(size.width);
        let hgt = i64::from(size.height);
        let dirs = match connectivity {
            Connectivity::Four => &STEPS[..4],
            Connectivity::Eight => &STEPS[..],
        };
        while let Some(Entry { f, h, cell }) = self.heap.pop() {
            let i = cell as usize;
            let node = self.nodes[i];
            if node.stamp != cur || node.g + h != f {
                continue; // closed already, or a stale entry superseded by a cheaper one
            }
            self.nodes[i].stamp = cur + 1;
            self.expanded += 1;
            if i == goal {
                return Some(node.g);
            }
            let x = i as i64 % w;
            let y = i as i64 / w;
            for &(dx, dy) in dirs {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= hgt {
                    continue;
                }
                let j = (ny * w + nx) as usize;
                let m = graph.multiplier(j);
                if m == 0 {
                    continue;
                }
                let base = if dx != 0 && dy != 0 {
                    // No corner cutting: both orthogonal neighbours must be enterable.
                    if graph.multiplier((y * w + nx) as usize) == 0
                        || graph.multiplier((ny * w + x) as usize) == 0
                    {
                        continue;
                    }
                    DIAGONAL
                } else {
                    STEP
                };
                let g = node.g + base * Cost::from(m);
                let n = &mut self.nodes[j];
                if n.stamp == cur + 1 || (n.stamp == cur && n.g <= g) {
                    continue;
                }
                *n = Node { g, parent: cell, stamp: cur };
                let hj = heuristic(nx, ny);
                self.heap.push(Entry { f: g + hj, h: hj, cell: j as u32 });
            }
        }
        None
    }

    /// After [`PathFinder::path`] returned `Some`, writes the path's cells into `out`
    /// (cleared first), from the start to `to`, both included.
    pub fn path_to(&self, size: Size, to: Pos, out: &mut Vec<Pos>) {
        out.clear();
        let mut i = size.index(to) as u32;
        let cur = self.generation;
        loop {
            let node = &self.nodes[i as usize];
            if node.stamp != cur && node.stamp != cur + 1 {
                out.clear();
                return;
            }
            out.push(size.pos(i as usize));
            if node.parent == NO_PARENT {
                break;
            }
            i = node.parent;
        }
        out.reverse();
    }

    /// Every cell reachable from `from` with total cost at most `budget` (Dijkstra, exact),
    /// written into `out` (cleared first) as `(cell, cost)` in row-major order. `from` itself is
    /// not listed. Steps follow the same rules as [`PathFinder::path`].
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
        self.nodes[start] = Node { g: 0, parent: NO_PARENT, stamp: cur };
        self.heap.push(Entry { f: 0, h: 0, cell: start as u32 });
        let w = i64::from(size.width);
        let hgt = i64::from(size.height);
        let dirs = match connectivity {
            Connectivity::Four => &STEPS[..4],
            Connectivity::Eight => &STEPS[..],
        };
        while let Some(Entry { f, cell, .. }) = self.heap.pop() {
            let i = cell as usize;
            let node = self.nodes[i];
            if node.stamp != cur || node.g != f {
                continue;
            }
            self.nodes[i].stamp = cur + 1;
            self.expanded += 1;
            if i != start {
                out.push((size.pos(i), node.g));
            }
            let x = i as i64 % w;
            let y = i as i64 / w;
            for &(dx, dy) in dirs {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= hgt {
                    continue;
                }
                let j = (ny * w + nx) as usize;
                let m = graph.multiplier(j);
                if m == 0 {
                    continue;
                }
                let base = if dx != 0 && dy != 0 {
                    if graph.multiplier((y * w + nx) as usize) == 0
                        || graph.multiplier((ny * w + x) as usize) == 0
                    {
                        continue;
                    }
                    DIAGONAL
                } else {
                    STEP
                };
                let g = node.g + base * Cost::from(m);
                if g > budget {
                    continue;
                }
                let n = &mut self.nodes[j];
                if n.stamp == cur + 1 || (n.stamp == cur && n.g <= g) {
                    continue;
                }
                *n = Node { g, parent: cell, stamp: cur };
                self.heap.push(Entry { f: g, h: 0, cell: j as u32 });
            }
        }
        out.sort_unstable_by_key(|&(p, _)| (p.y, p.x));
    }
}
