//! The open list of the tactics searches (A* in `search.rs`, jump point search in `jps.rs`): each
//! cell's state packed in one word (a generation stamp and the best cost so far), the queues
//! (a binary heap, a radix heap for integer costs), and the arrays a search borrows.

use super::Cost;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Per-cell search state packed in one word: the generation stamp in the high
/// [`STAMP_BITS`] bits, the best cost so far below. `stamp == cur` means open (cost and parent
/// valid), `cur + 1` closed, anything else untouched by this search. One word per cell keeps the
/// array a search jumps around in small (2 MB for 512×512); parents live in their own array,
/// written only when a cell improves.
pub(super) const COST_BITS: u32 = 42;
pub(super) const STAMP_BITS: u32 = 64 - COST_BITS;
pub(super) const COST_MASK: u64 = (1 << COST_BITS) - 1;
/// The largest generation before the stamps are reset.
pub(super) const MAX_STAMP: u32 = (1 << STAMP_BITS) - 3;

#[inline(always)]
pub(super) fn pack(stamp: u32, g: Cost) -> u64 {
    (u64::from(stamp) << COST_BITS) | g
}

#[inline(always)]
pub(super) fn stamp_of(word: u64) -> u32 {
    (word >> COST_BITS) as u32
}

/// A heap entry: `f`, then `tie` = (h clamped to 32 bits) << 32 | cell. 16 bytes, compared as
/// the pair, so the order is total and the pop order fully determined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) f: Cost,
    pub(super) tie: u64,
}

impl Entry {
    #[inline]
    pub(super) fn new(f: Cost, h: Cost, cell: usize) -> Entry {
        Entry { f, tie: (h.min(u64::from(u32::MAX)) << 32) | cell as u64 }
    }

    #[inline]
    pub(super) fn cell(self) -> usize {
        (self.tie & 0xffff_ffff) as usize
    }
}

impl Ord for Entry {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: reverse so that the smallest (f, h, cell) comes first.
        (other.f, other.tie).cmp(&(self.f, self.tie))
    }
}

impl PartialOrd for Entry {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A priority queue of cells keyed by `f`, popping the smallest key first.
pub(super) trait Queue {
    fn push(&mut self, f: Cost, h: Cost, cell: usize);
    fn pop(&mut self) -> Option<(Cost, usize)>;
}

impl Queue for BinaryHeap<Entry> {
    #[inline]
    fn push(&mut self, f: Cost, h: Cost, cell: usize) {
        BinaryHeap::push(self, Entry::new(f, h, cell));
    }

    #[inline]
    fn pop(&mut self) -> Option<(Cost, usize)> {
        BinaryHeap::pop(self).map(|e| (e.f, e.cell()))
    }
}

/// A radix heap: a monotone priority queue (every key pushed is at least the last key popped),
/// which is what Dijkstra and A* with a consistent heuristic (w ≤ 1) need. Bucket `b > 0` holds
/// keys whose highest bit differing from the last popped key is bit `b - 1`; bucket 0 holds keys
/// equal to it and pops last-in first-out, so among equal `f` the most recently reached cell (the
/// deeper one) goes first. Buckets keep their capacity between searches.
#[derive(Clone, Debug)]
pub(super) struct RadixHeap {
    pub(super) last: Cost,
    pub(super) len: usize,
    pub(super) buckets: Vec<Vec<(Cost, u32)>>,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap { last: 0, len: 0, buckets: vec![Vec::new(); 65] }
    }
}

impl RadixHeap {
    pub(super) fn clear(&mut self) {
        self.last = 0;
        self.len = 0;
        self.buckets.iter_mut().for_each(Vec::clear);
    }

    #[inline(always)]
    pub(super) fn bucket(&self, key: Cost) -> usize {
        (64 - (key ^ self.last).leading_zeros()) as usize
    }
}

impl Queue for RadixHeap {
    #[inline]
    fn push(&mut self, f: Cost, _h: Cost, cell: usize) {
        // Keys below `last` cannot occur with a consistent heuristic; should one ever come, it
        // is treated as `last` (bucket 0) rather than corrupting the buckets.
        let f = f.max(self.last);
        let b = self.bucket(f);
        self.buckets[b].push((f, cell as u32));
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(Cost, usize)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let b = self.buckets.iter().position(|v| !v.is_empty())?;
            let mut moving = std::mem::take(&mut self.buckets[b]);
            self.last = moving.iter().map(|&(k, _)| k).min()?;
            for &(k, c) in &moving {
                let nb = self.bucket(k);
                self.buckets[nb].push((k, c));
            }
            moving.clear();
            self.buckets[b] = moving; // hand the capacity back
        }
        self.len -= 1;
        self.buckets[0].pop().map(|(k, c)| (k, c as usize))
    }
}

pub(super) const NO_PARENT: u32 = u32::MAX;

/// The borrowed per-search arrays of a `PathFinder`.
pub(super) struct Arrays<'a> {
    pub(super) cur: u32,
    pub(super) state: &'a mut [u64],
    pub(super) parent: &'a mut [u32],
    pub(super) stack: &'a mut Vec<u32>,
}
