//! The frontier: breadth-first's queue, or one bucket heap per order (A*, greedy's two tie
//! orders, width) taken in turns, and the boost of the order that made progress.

use super::*;

/// A best-first frontier entry: (priority, estimate, order found (or its complement: newest
/// first), id, steps), the least first.
pub(super) type Entry = Reverse<(u32, u32, u64, u32, u32)>;

/// One best-first order's entries, the least first: a bucket queue, the entries of one
/// (priority, estimate) in a queue sorted by the rest (the order found, then id and steps), the
/// buckets in a map sorted by their keys. It gives the entries in exactly the order a binary
/// heap of [`Entry`] would (they are all distinct: each push has its own order), in constant
/// time a push or pop but for the map's few buckets, where a heap of a million entries sifts
/// through twenty levels of cache misses. A push is nearly always at a queue's end (the order
/// found grows; newest first, its complement shrinks); an entry put back (a batch cut short)
/// goes where it belongs.
#[derive(Default)]
pub(super) struct Buckets {
    pub(super) buckets: BTreeMap<(u32, u32), Bucket>,
    /// Emptied queues, kept for the next bucket opened (a bucket of greedy's least estimate
    /// empties and fills again often).
    pub(super) spare: Vec<Bucket>,
}

/// The entries of one (priority, estimate): (order found or its complement, id, steps), sorted.
pub(super) type Bucket = VecDeque<(u64, u32, u32)>;

impl Buckets {
    pub(super) fn push(&mut self, Reverse((priority, h, tie, id, depth)): Entry) {
        let spare = &mut self.spare;
        let q = self.buckets.entry((priority, h)).or_insert_with(|| spare.pop().unwrap_or_default());
        let item = (tie, id, depth);
        match (q.front(), q.back()) {
            (_, None) => q.push_back(item),
            (_, Some(back)) if *back < item => q.push_back(item),
            (Some(front), _) if item < *front => q.push_front(item),
            _ => {
                let at = q.partition_point(|x| *x < item);
                q.insert(at, item);
            }
        }
    }

    /// Takes the least entry.
    pub(super) fn pop(&mut self) -> Option<Entry> {
        let mut first = self.buckets.first_entry()?;
        let (priority, h) = *first.key();
        let (tie, id, depth) = first.get_mut().pop_front()?;
        if first.get().is_empty() {
            self.spare.push(first.remove());
        }
        Some(Reverse((priority, h, tie, id, depth)))
    }

    /// The least entry.
    pub(super) fn peek(&self) -> Option<Entry> {
        let (&(priority, h), q) = self.buckets.first_key_value()?;
        let &(tie, id, depth) = q.front()?;
        Some(Reverse((priority, h, tie, id, depth)))
    }
}

/// The states waiting to be expanded.
pub(super) enum Frontier {
    /// Breadth-first: ids in the order found.
    Fifo(VecDeque<u32>),
    /// Best-first: one heap (a bucket queue, [`Buckets`]) of [`Entry`] per order (one, or
    /// [`Search::Mixed`]'s four), each holding every state waiting; the next state comes from the heap `turns[turn]` names,
    /// and `turn` moves on to the next after each. An entry whose steps are no longer the
    /// state's, or whose state was expanded since, is stale and skipped.
    Heaps { heaps: Vec<Buckets>, turns: &'static [usize], turn: usize, boost: Boost },
}

/// Mixed's boost: the heap whose expansion found a state of a smaller estimate than any found
/// before takes the next turns (as planners boost the queue that made progress).
#[derive(Clone, Copy, Debug)]
pub(super) struct Boost {
    /// The heap boosted, and the turns it has left.
    pub(super) heap: usize,
    pub(super) left: u32,
    /// The least estimate pushed so far (`u32::MAX`: none yet).
    pub(super) best: u32,
}

impl Default for Boost {
    fn default() -> Self {
        Boost { heap: 0, left: 0, best: u32::MAX }
    }
}

/// Where a batch's best-first state came from: the heap of turn `t`, or (`boosted`) the heap
/// boosted, the turn not moved on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pick {
    pub(super) t: usize,
    pub(super) heap: usize,
    pub(super) boosted: bool,
}

impl Frontier {
    /// The bytes its entries take at most after `pushes` states pushed (best-first: every push
    /// puts an entry in each heap, which stays there until it comes to the top, so the pushes
    /// bound them) out of `states` found (breadth-first: one id each, at most). Counted from
    /// what the search's order fixes, not from the heaps' allocations, which differ with the
    /// number of jobs (batches are taken out and put back), so that the budget ends a search
    /// at the same state on any number of jobs.
    pub(super) fn bytes(&self, pushes: u64, states: u64) -> u64 {
        let entries = match self {
            Frontier::Fifo(_) => states,
            Frontier::Heaps { .. } => pushes,
        };
        entries.saturating_mul(self.per_state())
    }

    /// Its bytes for each state found (pushed).
    pub(super) fn per_state(&self) -> u64 {
        match self {
            Frontier::Fifo(_) => 4,
            Frontier::Heaps { heaps, .. } => heaps.len() as u64 * size_of::<Entry>() as u64,
        }
    }
}

/// How a best-first heap ranks the states waiting (see [`Search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    /// Steps so far plus the estimate; ties by the smaller estimate, the smaller lead, then
    /// the oldest.
    AStar,
    /// The estimate; ties by the smaller lead, then oldest first, or newest first.
    Greedy { newest: bool },
    /// Novel states first (see [`Store::novelty`]), then by the estimate, then the oldest.
    Width,
}

impl Order {
    /// Whether the order takes the boost when its state finds a smaller estimate than any
    /// before ([`Aids::boost`]): greedy's and width's; not A*'s, which has the first turn (the
    /// start's children make the first such find on nearly every level) and weighs the steps
    /// so far as much as the estimate. (On the suite's 86 levels out of time at 10 s, boosting
    /// every order solved 1, all but A* 2; Oh no I accidentally swallowed myself 1: 19,635
    /// states with A* boosted, 5,857 without.)
    pub(super) fn takes_boost(self) -> bool {
        self != Order::AStar
    }
}

/// [`Search::Mixed`]'s orders, one heap each.
pub(super) const MIXED_ORDERS: [Order; 4] =
    [Order::AStar, Order::Greedy { newest: false }, Order::Greedy { newest: true }, Order::Width];

/// The heap [`Search::Mixed`] takes each expansion from, in turn (indexes into
/// [`MIXED_ORDERS`]): width every other expansion, A* and greedy's two a sixth each. (On the
/// suite's 89 levels the three others left unsolved at 10 s, width alone solved 11, and a
/// fourth turn each 8 of them; every other turn 9, losing one of the 174 the three solved.)
pub const MIXED_TURNS: [usize; 6] = [0, 3, 1, 3, 2, 3];

/// The turns a boost gives the heap that made progress ([`Aids::boost`]).
pub const BOOST_TURNS: u32 = 1024;

/// Gives `heap` the next `turns` turns (mixed only: one heap has every turn already).
pub(super) fn start_boost(frontier: &mut Frontier, heap: usize, turns: u32) {
    if let Frontier::Heaps { turns: order, boost, .. } = frontier
        && order.len() > 1
        && turns > 0
    {
        (boost.heap, boost.left) = (heap, turns);
    }
}

/// Puts back in their heaps the [`Searcher`]'s `doubles` taken while filling batch slots `from`
/// on (which wait, put back with [`put_back`]).
pub(super) fn put_back_doubles(frontier: &mut Frontier, doubles: &[(usize, usize, Entry)], from: usize) {
    if let Frontier::Heaps { heaps, .. } = frontier {
        for &(slot, heap, e) in doubles {
            if slot >= from {
                heaps[heap].push(e);
            }
        }
    }
}

/// Puts states taken for a batch back in their places, waiting their turn: at the queue's
/// front, or in their heaps, the next turn the first one's (as one thread would take them).
pub(super) fn put_back(frontier: &mut Frontier, rest: &[(u32, Option<(Pick, Entry)>)]) {
    match frontier {
        Frontier::Fifo(q) => {
            for &(id, _) in rest.iter().rev() {
                q.push_front(id);
            }
        }
        Frontier::Heaps { heaps, turn, boost, .. } => {
            for &(_, e) in rest {
                if let Some((pick, e)) = e {
                    heaps[pick.heap].push(e);
                    // (a boosted turn given back; the boost's turns come before the others)
                    boost.left += u32::from(pick.boosted);
                }
            }
            if let Some(pick) = rest.iter().find_map(|&(_, e)| e.map(|(p, _)| p).filter(|p| !p.boosted)) {
                *turn = pick.t;
            }
        }
    }
}
