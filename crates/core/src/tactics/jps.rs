//! Jump point search (Harabor and Grastien, AAAI 2011) for maps where every passable cell costs
//! the same, with the block-based scanning of "Improving Jump Point Search" (ICAPS 2014): a
//! straight jump reads 64 cells at a time from bit planes of the map and finds the first cell
//! with a forced neighbour with a few shifts and a `trailing_zeros`.
//!
//! [`PathFinder::path`] chooses it by itself when the graph offers a [`Uniform`] (a
//! [`Terrain`](super::Terrain) whose passable cells all have one multiplier) and the weight is
//! [`Weight::OPTIMAL`]; A* (`PathFinder::astar`) serves everything else. Both find paths of the
//! same (optimal) cost, but not always the same cells among equal-cost paths; the rules use it
//! from version 3 (their moves record the cells), with the units blocking their cells
//! ([`Uniform::block_into`]), and keep A* for version 2's logs.
//!
//! Moves follow the A* rules exactly: 8-connected without corner cutting (a diagonal step needs
//! both orthogonal cells beside it enterable, as in the Moving AI benchmarks) or 4-connected.
//! - 8-connected, the pruning rules without corner cutting: arriving straight, only straight
//!   on, plus the perpendicular cell and the diagonal beside it on a side whose cell behind is
//!   blocked (forced); arriving diagonally, the two straight parts and the diagonal. A straight
//!   jump stops at a cell with a forced neighbour; a diagonal jump stops where a straight jump
//!   from it (along either part) would stop.
//! - 4-connected: horizontal jumps stop at forced cells (as straight jumps above); vertical
//!   jumps stop at forced cells and wherever a horizontal jump from the cell would stop, so
//!   vertical runs play the part of diagonals. From a jump point, straight on and both
//!   perpendicular directions.
//!
//! Jump points are searched with the same radix heap and per-cell stamps as A*; when the goal
//! is reached the cells between consecutive jump points (always a straight or diagonal line) are
//! given their parents, so [`PathFinder::path_to`] reads the whole path as after A*.

use super::queue::{Arrays, COST_MASK, NO_PARENT, Queue, RadixHeap, pack, stamp_of};
use super::{Connectivity, Cost, DIAGONAL, STEP};
use crate::geom::Size;

/// A bit per cell along lines of a map (rows or columns, either way round): 1 = passable.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Plane {
    /// Number of lines.
    lines: usize,
    /// Cells per line.
    len: usize,
    /// Words per line: room for the cells and one zero word more, so reading 64 cells from
    /// any position up to `len` needs no bounds test.
    words: usize,
    bits: Vec<u64>,
}

impl Plane {
    /// A plane of `lines` lines of `len` cells, `passable(line, pos)` giving each bit.
    fn new(lines: usize, len: usize, passable: impl Fn(usize, usize) -> bool) -> Plane {
        let words = len / 64 + 2;
        let mut bits = vec![0u64; lines * words];
        for line in 0..lines {
            for pos in 0..len {
                if passable(line, pos) {
                    bits[line * words + pos / 64] |= 1 << (pos % 64);
                }
            }
        }
        Plane { lines, len, words, bits }
    }

    /// Makes cell `pos` of `line` impassable.
    fn block(&mut self, line: usize, pos: usize) {
        self.bits[line * self.words + pos / 64] &= !(1 << (pos % 64));
    }

    /// The 64 cells of `line` from `pos` on (bit k = cell `pos + k`; 0 past the end).
    /// `pos` is at most `len + 63`.
    #[inline(always)]
    fn from(&self, line: usize, pos: usize) -> u64 {
        let base = line * self.words + pos / 64;
        let o = pos % 64;
        let lo = self.bits[base] >> o;
        if o == 0 { lo } else { lo | (self.bits[base + 1] << (64 - o)) }
    }

    /// The first cell at or after `pos` (≥ 1) along `line` where a straight move in the line's
    /// direction stops: `goal` (a position on this line, if the goal lies on it) or a cell with
    /// a forced neighbour (the cell beside it on a neighbouring line is passable while the one
    /// behind that is not). `None` when a blocked cell or the end of the line comes first.
    #[inline]
    fn scan(&self, line: usize, mut pos: usize, goal: Option<usize>) -> Option<usize> {
        let side_a = line.checked_sub(1);
        let side_b = (line + 1 < self.lines).then_some(line + 1);
        loop {
            let open = self.from(line, pos);
            let mut forced = 0;
            if let Some(s) = side_a {
                forced |= self.from(s, pos) & !self.from(s, pos - 1);
            }
            if let Some(s) = side_b {
                forced |= self.from(s, pos) & !self.from(s, pos - 1);
            }
            let blocked = (!open).trailing_zeros() as usize;
            let mut stop = forced.trailing_zeros() as usize;
            if let Some(g) = goal
                && g >= pos
                && g - pos < blocked
            {
                stop = stop.min(g - pos);
            }
            if stop < blocked {
                return Some(pos + stop);
            }
            if blocked < 64 || pos >= self.len {
                return None;
            }
            pos += 64;
        }
    }
}

/// What jump point search needs of a map whose passable cells all cost the same: the
/// multiplier they share, and the passable cells as bit planes (rows, rows mirrored, columns,
/// columns mirrored, so a jump in any of the four directions is a forward scan).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uniform {
    size: Size,
    multiplier: u32,
    /// Rows left to right, rows right to left, columns top down, columns bottom up.
    planes: [Plane; 4],
}

impl Uniform {
    /// The bit planes of a map of `size` with per-cell multipliers `m` (row-major, 0 =
    /// impassable), or `None` when two passable cells have different multipliers.
    pub fn of(size: Size, m: &[u16]) -> Option<Uniform> {
        let mut multiplier = None;
        for &k in m.iter().filter(|&&k| k != 0) {
            match multiplier {
                None => multiplier = Some(k),
                Some(first) if first != k => return None,
                Some(_) => {}
            }
        }
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let open = |x: usize, y: usize| m[y * w + x] != 0;
        let planes = [
            Plane::new(h, w, |y, x| open(x, y)),
            Plane::new(h, w, |y, x| open(w - 1 - x, y)),
            Plane::new(w, h, open),
            Plane::new(w, h, |x, y| open(x, h - 1 - y)),
        ];
        Some(Uniform { size, multiplier: u32::from(multiplier.unwrap_or(1)), planes })
    }

    /// Copies `base` into `self` (reusing `self`'s buffers) with the cells `blocked` (row-major
    /// indices on the map) made impassable: the terrain's map with the units standing on it.
    pub fn block_into(&mut self, base: &Uniform, blocked: impl IntoIterator<Item = usize>) {
        // Field by field: a derived `clone_from` would allocate anew.
        self.size = base.size;
        self.multiplier = base.multiplier;
        for (plane, from) in self.planes.iter_mut().zip(&base.planes) {
            plane.lines = from.lines;
            plane.len = from.len;
            plane.words = from.words;
            plane.bits.clone_from(&from.bits);
        }
        let (w, h) = (usize::from(self.size.width), usize::from(self.size.height));
        for i in blocked {
            let (x, y) = (i % w, i / w);
            if y >= h {
                continue;
            }
            self.planes[0].block(y, x);
            self.planes[1].block(y, w - 1 - x);
            self.planes[2].block(x, y);
            self.planes[3].block(x, h - 1 - y);
        }
    }

    /// The map's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The multiplier every passable cell has.
    pub fn multiplier(&self) -> u32 {
        self.multiplier
    }

    /// Whether `pos` is on the map and passable.
    pub fn passable(&self, pos: crate::geom::Pos) -> bool {
        self.open(i32::from(pos.x), i32::from(pos.y))
    }

    /// Whether (x, y) is on the map and passable.
    #[inline(always)]
    fn open(&self, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < usize::from(self.size.width)
            && (y as usize) < usize::from(self.size.height)
            && self.planes[0].from(y as usize, x as usize) & 1 != 0
    }
}

/// One search: the map, the goal and the step costs.
struct Jumper<'a> {
    map: &'a Uniform,
    goal: (i32, i32),
    w: i32,
    h: i32,
}

impl Jumper<'_> {
    /// From (x, y) straight on in (dx, dy) (one of them 0): the first jump point and its
    /// distance in steps, or `None`.
    #[inline]
    fn straight(&self, x: i32, y: i32, dx: i32, dy: i32) -> Option<(i32, i32, i32)> {
        let (gx, gy) = self.goal;
        if dy == 0 {
            let (plane, pos, goal) = if dx > 0 {
                (0, x, (gy == y).then_some(gx))
            } else {
                (1, self.w - 1 - x, (gy == y).then_some(self.w - 1 - gx))
            };
            let goal = goal.and_then(|g| usize::try_from(g).ok());
            let stop = self.map.planes[plane].scan(y as usize, pos as usize + 1, goal)? as i32;
            let n = stop - pos;
            Some((x + dx * n, y, n))
        } else {
            let (plane, pos, goal) = if dy > 0 {
                (2, y, (gx == x).then_some(gy))
            } else {
                (3, self.h - 1 - y, (gx == x).then_some(self.h - 1 - gy))
            };
            let goal = goal.and_then(|g| usize::try_from(g).ok());
            let stop = self.map.planes[plane].scan(x as usize, pos as usize + 1, goal)? as i32;
            let n = stop - pos;
            Some((x, y + dy * n, n))
        }
    }

    /// 8-connected: from (x, y) diagonally in (dx, dy), never cutting a corner: the first cell
    /// that is the goal or from which a straight jump along either part stops.
    #[inline]
    fn diagonal(&self, x: i32, y: i32, dx: i32, dy: i32) -> Option<(i32, i32, i32)> {
        let m = self.map;
        let (mut cx, mut cy, mut n) = (x, y, 0);
        loop {
            if !(m.open(cx + dx, cy) && m.open(cx, cy + dy) && m.open(cx + dx, cy + dy)) {
                return None;
            }
            cx += dx;
            cy += dy;
            n += 1;
            if (cx, cy) == self.goal
                || self.straight(cx, cy, dx, 0).is_some()
                || self.straight(cx, cy, 0, dy).is_some()
            {
                return Some((cx, cy, n));
            }
        }
    }

    /// 4-connected: from (x, y) vertically in `dy`: the first cell that is the goal, has a
    /// forced neighbour, or from which a horizontal jump stops.
    #[inline]
    fn vertical(&self, x: i32, y: i32, dy: i32) -> Option<(i32, i32, i32)> {
        let m = self.map;
        let (mut cy, mut n) = (y, 0);
        loop {
            cy += dy;
            n += 1;
            if !m.open(x, cy) {
                return None;
            }
            if (x, cy) == self.goal
                || (m.open(x - 1, cy) && !m.open(x - 1, cy - dy))
                || (m.open(x + 1, cy) && !m.open(x + 1, cy - dy))
                || self.straight(x, cy, 1, 0).is_some()
                || self.straight(x, cy, -1, 0).is_some()
            {
                return Some((x, cy, n));
            }
        }
    }
}

/// The jump point search behind [`PathFinder::path`](super::PathFinder::path): the arrays are
/// the finder's (freshly begun, `start` stamped open with cost 0); returns the cost found and the
/// number of jump points expanded.
#[allow(clippy::too_many_arguments)]
pub(super) fn jps(
    arrays: Arrays<'_>,
    map: &Uniform,
    connectivity: Connectivity,
    start: usize,
    goal: usize,
    queue: &mut RadixHeap,
) -> (Option<Cost>, usize) {
    let Arrays { cur, state, parent, .. } = arrays;
    let size = map.size;
    let w = usize::from(size.width);
    let (wi, hi) = (i32::from(size.width), i32::from(size.height));
    let xy = |i: usize| ((i % w) as i32, (i / w) as i32);
    let at = |x: i32, y: i32| y as usize * w + x as usize;
    let (gx, gy) = xy(goal);
    let jumper = Jumper { map, goal: (gx, gy), w: wi, h: hi };
    let mult = Cost::from(map.multiplier);
    let (step, diag) = (STEP * mult, DIAGONAL * mult);
    let eight = connectivity == Connectivity::Eight;
    let heuristic = |x: i32, y: i32| -> Cost {
        let dx = Cost::from(x.abs_diff(gx));
        let dy = Cost::from(y.abs_diff(gy));
        if eight { step * dx.max(dy) + (diag - step) * dx.min(dy) } else { step * (dx + dy) }
    };
    let (sx, sy) = xy(start);
    queue.push(heuristic(sx, sy), 0, start);
    let open = pack(cur, 0);
    let mut expanded = 0;
    let mut found = None;
    let mut succ: [(i32, i32); 8] = [(0, 0); 8];
    while let Some((_, i)) = queue.pop() {
        let word = state[i];
        if stamp_of(word) != cur {
            continue;
        }
        let g0 = word & COST_MASK;
        state[i] = pack(cur + 1, g0);
        expanded += 1;
        if i == goal {
            found = Some(g0);
            break;
        }
        let (x, y) = xy(i);
        let from = match parent[i] {
            NO_PARENT => None,
            p => {
                let (px, py) = xy(p as usize);
                Some(((x - px).signum(), (y - py).signum()))
            }
        };
        // The directions to jump in (pruned by the arrival direction).
        let mut k = 0;
        let mut add = |d: (i32, i32)| {
            succ[k] = d;
            k += 1;
        };
        match (from, eight) {
            (None, true) => {
                for d in [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)] {
                    add(d);
                }
            }
            (None, false) => {
                for d in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                    add(d);
                }
            }
            (Some((dx, dy)), true) if dx != 0 && dy != 0 => {
                add((dx, 0));
                add((0, dy));
                add((dx, dy));
            }
            (Some((dx, dy)), true) => {
                add((dx, dy));
                // The two sides across the move: (sx, sy) perpendicular to (dx, dy).
                for s in [-1, 1] {
                    let (px, py) = if dx != 0 { (0, s) } else { (s, 0) };
                    if !map.open(x - dx + px, y - dy + py) && map.open(x + px, y + py) {
                        add((px, py));
                        add((dx + px, dy + py));
                    }
                }
            }
            (Some((dx, dy)), false) => {
                add((dx, dy));
                if dx != 0 {
                    add((0, -1));
                    add((0, 1));
                } else {
                    add((-1, 0));
                    add((1, 0));
                }
            }
        }
        for &(dx, dy) in &succ[..k] {
            let jump = if dx != 0 && dy != 0 {
                jumper.diagonal(x, y, dx, dy).map(|(jx, jy, n)| (jx, jy, diag * n as Cost))
            } else if !eight && dy != 0 {
                jumper.vertical(x, y, dy).map(|(jx, jy, n)| (jx, jy, step * n as Cost))
            } else {
                jumper.straight(x, y, dx, dy).map(|(jx, jy, n)| (jx, jy, step * n as Cost))
            };
            let Some((jx, jy, cost)) = jump else { continue };
            let j = at(jx, jy);
            let g = g0 + cost;
            let word = state[j];
            let st = stamp_of(word);
            if st == cur + 1 || (st == cur && word & COST_MASK <= g) {
                continue;
            }
            state[j] = open | g;
            parent[j] = i as u32;
            queue.push(g + heuristic(jx, jy), 0, j);
        }
    }
    if found.is_some() {
        // Give the cells between jump points their parents, from the goal back.
        let mut j = goal;
        while parent[j] != NO_PARENT {
            let a = parent[j] as usize;
            let ((ax, ay), (bx, by)) = (xy(a), xy(j));
            let (dx, dy) = ((bx - ax).signum(), (by - ay).signum());
            let each = if dx != 0 && dy != 0 { diag } else { step };
            let g_a = state[a] & COST_MASK;
            let (mut cx, mut cy, mut prev, mut n) = (ax, ay, a, 0);
            while (cx, cy) != (bx, by) {
                cx += dx;
                cy += dy;
                n += 1;
                let c = at(cx, cy);
                if c != j {
                    state[c] = pack(cur + 1, g_a + each * n);
                }
                parent[c] = prev as u32;
                prev = c;
            }
            j = a;
        }
    }
    (found, expanded)
}
