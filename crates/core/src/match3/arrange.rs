//! Arranging breeds on a board so that no run of three exists and a valid swap does: the search
//! behind new boards (free choice of breeds) and shuffles (a fixed multiset of breeds, with as
//! few recolours as the search can prove).
//!
//! The search is a depth-first search over the cells to fill, in row-major order. At each cell it
//! tries every breed once, in an order that starts at a random breed (weighted by how many blocks
//! of each breed remain, so an unconstrained run is a uniformly random permutation of the pool)
//! and puts breeds still in the pool before breeds that would need a recolour ("borrowing").
//! A breed is refused when it would complete a run with the cells already known (fixed cells and
//! cells filled so far), which is complete: every run is checked when its last cell is filled.
//! At a full board, the board is accepted only if some swap of two movable cells makes a run.
//!
//! Every search has a node budget. A search that ends without running out of budget has tried
//! everything, so "not found" is then a proof; a search that runs out proves nothing and says so
//! ([`Outcome::OutOfBudget`]).

use super::board::{NONE, find_run, find_valid_swap, run_through, swap_structurally_possible};
use crate::rng::GameRng;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// `known` holds an arrangement.
    Found,
    /// Every arrangement within the recolour limit was tried: none exists.
    Exhausted,
    /// The node budget ran out first.
    OutOfBudget,
}

/// What a shuffle or generation found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plan {
    /// `known` holds an arrangement using `recolours` borrowed breeds. `proven_minimal` says
    /// whether every arrangement with fewer recolours was ruled out.
    Found { recolours: u32, proven_minimal: bool },
    /// No arrangement exists (proven).
    Impossible,
    /// The search budget ran out before an arrangement was found or ruled out.
    GaveUp,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    start: u8,
    t: u8,
    placed: u8,
    borrowed: bool,
}

/// Randomized restarts tried before the complete searches, and their node budget per movable
/// cell.
pub(crate) const RESTARTS: u32 = 8;
const RESTART_NODES_PER_CELL: u64 = 4;
/// The budget of the repair phase (random layout, local swaps) per movable cell.
const REPAIR_NODES_PER_CELL: u64 = 64;
/// The node budget of all complete searches of one shuffle or generation together.
pub(crate) const TOTAL_BUDGET: u64 = 2_000_000;

/// The board as the search sees it, with reusable buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct Arranger {
    pub(crate) w: usize,
    pub(crate) h: usize,
    /// The breed of every cell; [`NONE`] for Void and for cells still to fill.
    pub(crate) known: Vec<u8>,
    /// Cells holding a block (filled or to fill).
    pub(crate) playable: Vec<bool>,
    /// Cells whose block may be swapped.
    pub(crate) movable: Vec<bool>,
    /// The cells to fill, row-major.
    pub(crate) order: Vec<u32>,
    pub(crate) breeds: u8,
    frames: Vec<Frame>,
    /// The breeds the open cells hold now (a shuffle), in `order`; empty for a new board.
    current: Vec<u8>,
    /// Whether the last search refused a breed only because of the recolour limit.
    limited: bool,
}

impl Arranger {
    /// Prepares a `w × h` board with every cell Void; the caller then sets cells.
    pub(crate) fn reset(&mut self, w: usize, h: usize, breeds: u8) {
        self.w = w;
        self.h = h;
        self.breeds = breeds;
        self.known.clear();
        self.known.resize(w * h, NONE);
        self.playable.clear();
        self.playable.resize(w * h, false);
        self.movable.clear();
        self.movable.resize(w * h, false);
        self.order.clear();
        self.frames.clear();
        self.current.clear();
    }

    /// A cell holding a fixed block of `breed`.
    pub(crate) fn set_fixed(&mut self, i: usize, breed: u8, movable: bool) {
        self.known[i] = breed;
        self.playable[i] = true;
        self.movable[i] = movable;
    }

    /// A cell to fill (cells must be added in row-major order).
    pub(crate) fn set_open(&mut self, i: usize, movable: bool) {
        self.known[i] = NONE;
        self.playable[i] = true;
        self.movable[i] = movable;
        self.order.push(i as u32);
    }

    /// Records the breed an open cell holds now (call right after [`Arranger::set_open`]).
    pub(crate) fn set_current(&mut self, breed: u8) {
        self.current.push(breed);
    }

    /// A cell of a run among the fixed cells, if any.
    pub(crate) fn fixed_run(&self) -> Option<usize> {
        let k = &self.known;
        find_run(self.w, self.h, &|i| k[i])
    }

    fn has_valid_swap(&self) -> bool {
        let (k, m) = (&self.known, &self.movable);
        find_valid_swap(self.w, self.h, &|i| k[i], &|i| m[i]).is_some()
    }

    /// Whether some arrangement could offer a valid swap at all (see
    /// [`swap_structurally_possible`]).
    pub(crate) fn swap_possible(&self) -> bool {
        let (p, m) = (&self.playable, &self.movable);
        swap_structurally_possible(self.w, self.h, &|i| p[i], &|i| m[i])
    }

    /// Depth-first search for an arrangement using the breeds in `counts` (consumed as used) and
    /// at most `max_borrow` breeds beyond them. On `Found`, `known` holds the arrangement and the
    /// return carries how many breeds were borrowed; otherwise `known` and `counts` are as before.
    pub(crate) fn search(
        &mut self,
        rng: &mut GameRng,
        counts: &mut [u32; 16],
        max_borrow: u32,
        budget: &mut u64,
    ) -> (Outcome, u32) {
        let n = self.order.len();
        let breeds = self.breeds;
        let (w, h) = (self.w, self.h);
        let leaf_cost = 1 + (w * h / 16) as u64;
        self.frames.clear();
        self.limited = false;
        let mut borrowed: u32 = 0;
        let mut pool: u32 = counts.iter().sum();
        let mut depth = 0usize;
        loop {
            if depth == n {
                if *budget < leaf_cost {
                    self.unwind(counts);
                    return (Outcome::OutOfBudget, 0);
                }
                *budget -= leaf_cost;
                if self.has_valid_swap() {
                    self.frames.clear();
                    return (Outcome::Found, borrowed);
                }
                if n == 0 {
                    return (Outcome::Exhausted, 0);
                }
                depth -= 1;
            }
            if self.frames.len() == depth {
                if *budget == 0 {
                    self.unwind(counts);
                    return (Outcome::OutOfBudget, 0);
                }
                *budget -= 1;
                let start = if pool > 0 {
                    let mut r = rng.below(pool);
                    let mut c = 0u8;
                    while r >= counts[usize::from(c)] {
                        r -= counts[usize::from(c)];
                        c += 1;
                    }
                    c
                } else {
                    rng.below(u32::from(breeds)) as u8
                };
                self.frames.push(Frame { start, t: 0, placed: NONE, borrowed: false });
            }
            let cell = self.order[depth] as usize;
            let f = &mut self.frames[depth];
            if f.placed != NONE {
                self.known[cell] = NONE;
                if f.borrowed {
                    borrowed -= 1;
                } else {
                    counts[usize::from(f.placed)] += 1;
                    pool += 1;
                }
                f.placed = NONE;
            }
            let mut placed = false;
            while f.t < 2 * breeds {
                let t = f.t;
                f.t += 1;
                let c = (f.start + t % breeds) % breeds;
                let avail = counts[usize::from(c)] > 0;
                let borrow = t >= breeds;
                if borrow == avail {
                    continue;
                }
                if borrow && borrowed >= max_borrow {
                    self.limited = true;
                    continue;
                }
                let k = &self.known;
                if run_through(w, h, &|i| k[i], cell, c, usize::MAX) {
                    continue;
                }
                self.known[cell] = c;
                f.placed = c;
                f.borrowed = borrow;
                if borrow {
                    borrowed += 1;
                } else {
                    counts[usize::from(c)] -= 1;
                    pool -= 1;
                }
                placed = true;
                break;
            }
            if placed {
                depth += 1;
            } else {
                self.frames.pop();
                if depth == 0 {
                    return (Outcome::Exhausted, 0);
                }
                depth -= 1;
            }
        }
    }

    /// Takes back every placement of an abandoned search.
    fn unwind(&mut self, counts: &mut [u32; 16]) {
        for (d, f) in self.frames.iter().enumerate() {
            if f.placed != NONE {
                self.known[self.order[d] as usize] = NONE;
                if !f.borrowed {
                    counts[usize::from(f.placed)] += 1;
                }
            }
        }
        self.frames.clear();
    }

    /// Keeps the multiset in `counts` (not consumed). Starts from the current breeds of the open
    /// cells when known ([`Arranger::set_current`], a shuffle) else from the pool in a random
    /// order; makes `2 n` random transpositions that put neither cell on a run (a transposition
    /// can only create runs through the two cells it changes), so a run-free start stays
    /// run-free; repairs any run left by swapping a cell of it with a random cell, or failing
    /// 16 tries, with the first cell (from a random offset) for which both end free of runs;
    /// finally transposes at random until some swap of neighbours is valid. Bounded by `budget`;
    /// `true` leaves the arrangement in `known`, `false` leaves the open cells unassigned.
    fn repair(&mut self, rng: &mut GameRng, counts: &[u32; 16], budget: &mut u64) -> bool {
        let n = self.order.len();
        if n < 2 {
            return false;
        }
        let (w, h) = (self.w, self.h);
        if self.current.len() == n {
            for (k, &cell) in self.order.iter().enumerate() {
                self.known[cell as usize] = self.current[k];
            }
        } else {
            let mut k = 0;
            for (c, &count) in counts.iter().enumerate() {
                for _ in 0..count {
                    if k < n {
                        self.known[self.order[k] as usize] = c as u8;
                        k += 1;
                    }
                }
            }
            for i in (1..n).rev() {
                let j = rng.below(i as u32 + 1) as usize;
                self.known.swap(self.order[i] as usize, self.order[j] as usize);
            }
        }
        // Swaps the breeds of cells a and b if that leaves neither on a run.
        let try_swap = |known: &mut Vec<u8>, a: usize, b: usize| -> bool {
            let (ca, cb) = (known[a], known[b]);
            if ca == cb {
                return false;
            }
            known[a] = cb;
            known[b] = ca;
            let k = &*known;
            if run_through(w, h, &|i| k[i], a, cb, usize::MAX)
                || run_through(w, h, &|i| k[i], b, ca, usize::MAX)
            {
                known[a] = ca;
                known[b] = cb;
                return false;
            }
            true
        };
        let pick = |rng: &mut GameRng, order: &[u32]| order[rng.below(order.len() as u32) as usize] as usize;
        for _ in 0..2 * n {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            let (a, b) = (pick(rng, &self.order), pick(rng, &self.order));
            try_swap(&mut self.known, a, b);
        }
        let scan_cost = 1 + (n / 16) as u64;
        let ok = loop {
            if *budget < scan_cost {
                break false;
            }
            *budget -= scan_cost;
            let mut clean = true;
            for idx in 0..n {
                let cell = self.order[idx] as usize;
                let k = &self.known;
                if !run_through(w, h, &|i| k[i], cell, k[cell], usize::MAX) {
                    continue;
                }
                clean = false;
                let mut fixed = false;
                for _ in 0..16 {
                    if *budget == 0 {
                        break;
                    }
                    *budget -= 1;
                    let j = pick(rng, &self.order);
                    if try_swap(&mut self.known, cell, j) {
                        fixed = true;
                        break;
                    }
                }
                if !fixed {
                    let off = rng.below(n as u32) as usize;
                    let cost = 1 + (n / 8) as u64;
                    if *budget < cost {
                        break;
                    }
                    *budget -= cost;
                    for t in 0..n {
                        let j = self.order[(off + t) % n] as usize;
                        if try_swap(&mut self.known, cell, j) {
                            break;
                        }
                    }
                }
            }
            if !clean {
                continue;
            }
            if self.has_valid_swap() {
                break true;
            }
            let (a, b) = (pick(rng, &self.order), pick(rng, &self.order));
            try_swap(&mut self.known, a, b);
        };
        if !ok {
            for &cell in &self.order {
                self.known[cell as usize] = NONE;
            }
        }
        ok
    }

    /// Finds an arrangement of the open cells: with `counts` the multiset to keep (a shuffle),
    /// or all zero for a free choice of breeds (a new board).
    ///
    /// 1. Structural check: if no pair of neighbouring movable cells could ever make a run,
    ///    the answer is `Impossible` at once.
    /// 2. [`RESTARTS`] randomized searches without recolours, each with a small budget; then,
    ///    keeping the multiset, a random layout repaired by local swaps (bounded).
    /// 3. Complete searches allowing 0, 1, 2, … recolours (iterative deepening) within
    ///    [`TOTAL_BUDGET`] nodes: the first found uses the fewest recolours possible. A level
    ///    that never hit its recolour limit and found nothing proves that no arrangement exists.
    /// 4. If the budget runs out during 3, a last search allowing any number of recolours (still
    ///    trying pool breeds first, so it recolours few) with what remains; what it finds is
    ///    valid but not proven minimal.
    pub(crate) fn arrange(&mut self, rng: &mut GameRng, counts: &mut [u32; 16]) -> Plan {
        if !self.swap_possible() || self.fixed_run().is_some() {
            return Plan::Impossible;
        }
        let n = self.order.len() as u32;
        let free = counts.iter().all(|&c| c == 0);
        let restart_budget = RESTART_NODES_PER_CELL * u64::from(n) + 64;
        let max0 = if free { n } else { 0 };
        let mut proven_below = false; // level 0 of the deepening already ruled out by a restart
        for _ in 0..RESTARTS {
            let mut b = restart_budget;
            match self.search(rng, counts, max0, &mut b) {
                (Outcome::Found, r) => return Plan::Found { recolours: r, proven_minimal: r == 0 },
                (Outcome::Exhausted, _) => {
                    if free || !self.limited {
                        return Plan::Impossible;
                    }
                    proven_below = true;
                    break;
                }
                (Outcome::OutOfBudget, _) => {}
            }
        }
        if !free && !proven_below {
            // Large boards: the depth-first restarts thrash where locks and few breeds leave
            // little room; a random layout repaired by local swaps usually settles fast.
            let mut b = REPAIR_NODES_PER_CELL * u64::from(n) + 1024;
            if self.repair(rng, counts, &mut b) {
                for &cell in &self.order {
                    counts[usize::from(self.known[cell as usize])] -= 1;
                }
                return Plan::Found { recolours: 0, proven_minimal: true };
            }
        }
        let mut total = TOTAL_BUDGET;
        let first_k = if free {
            n
        } else if proven_below {
            1
        } else {
            0
        };
        for k in first_k..=n {
            match self.search(rng, counts, k, &mut total) {
                (Outcome::Found, r) => return Plan::Found { recolours: r, proven_minimal: true },
                (Outcome::Exhausted, _) => {
                    if !self.limited {
                        return Plan::Impossible;
                    }
                }
                (Outcome::OutOfBudget, _) => break,
            }
        }
        if total == 0 {
            // One more fair chance for the fallback, so a budget spent on proofs still leaves a
            // search able to find some arrangement.
            total = TOTAL_BUDGET / 2;
        }
        match self.search(rng, counts, n, &mut total) {
            (Outcome::Found, r) => Plan::Found { recolours: r, proven_minimal: r == 0 },
            (Outcome::Exhausted, _) => Plan::Impossible,
            (Outcome::OutOfBudget, _) => Plan::GaveUp,
        }
    }
}
