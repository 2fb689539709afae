//! The estimate of the steps still needed: each object's moves to where the win conditions want
//! it (`prune.rs`'s travel tables), `all X on Y` by the least-cost assignment of Xs to Ys, and the
//! player's lead to the next object to bring; packed with the lead into a heap key.

use super::*;

/// The estimate of the steps left (see the module docs): the cells that break a win condition.
pub(super) struct Estimate<'g> {
    pub(super) game: &'g Game,
    /// Where objects can travel, per win condition it was worked out for (`prune.rs`): its
    /// moves then stand for the columns plus rows.
    pub(super) travel: &'g [Travel],
    /// `some X on Y` counts the nearest X's moves to a Y, not 1.
    pub(super) some_distance: bool,
    /// `all X on Y`, where the moves to each Y are known, gives each X off a Y its own free Y.
    pub(super) matching: bool,
    /// [`Estimate::key`] breaks ties by the player's lead (see [`Aids::lead`]).
    pub(super) lead: bool,
}

/// The most (X, Y) pairs the estimate of `some X on Y` measures.
pub(super) const MAX_PAIRS: usize = 4096;

/// Cells a win condition's estimate looks at (kept per thread between estimates): those with an
/// X, those with a Y, those with an X and no Y, each in board order.
#[derive(Default)]
pub(super) struct Marks {
    pub(super) xs: Vec<usize>,
    pub(super) ys: Vec<usize>,
    pub(super) off: Vec<usize>,
    pub(super) assign: Assignment,
    /// The pairing's movers off a target and targets free of one.
    pub(super) loose: Vec<usize>,
    pub(super) free: Vec<usize>,
    /// The players' cells (the lead's).
    pub(super) players: Vec<usize>,
}

/// The most movers off a target the estimate pairs (past it, each counts its nearest target):
/// the pairing takes `O(n³)` steps, 13,824 at 24 (a level with 39 targets all paired took 4.9
/// times the instructions a state).
pub(super) const MAX_PAIRED: usize = 24;

/// The buffers of [`least_assignment`], kept between estimates.
#[derive(Default)]
pub(super) struct Assignment {
    pub(super) u: Vec<i64>,
    pub(super) v: Vec<i64>,
    pub(super) row_of: Vec<usize>,
    pub(super) way: Vec<usize>,
    pub(super) least: Vec<i64>,
    pub(super) used: Vec<bool>,
}

/// A cost at or past which a pair cannot be made ([`FAR`]).
pub(super) const NO_PAIR: i64 = 1 << 40;

/// The least total cost of giving each of `rows` its own one of `cols` (`rows <= cols`),
/// `cost(r, c)` each ([`FAR`]: never), or `None` when no such assignment avoids [`FAR`]: the
/// Hungarian algorithm with potentials, `O(rows² cols)`, in integers (the same answer on every
/// machine).
pub(super) fn least_assignment(
    rows: usize,
    cols: usize,
    cost: &dyn Fn(usize, usize) -> u32,
    a: &mut Assignment,
) -> Option<u32> {
    if rows > cols {
        return None;
    }
    if rows == 0 {
        return Some(0);
    }
    let price = |r: usize, c: usize| match cost(r, c) {
        FAR => NO_PAIR,
        d => i64::from(d),
    };
    // (1-based: row 0 and column 0 stand for "none")
    a.u.clear();
    a.u.resize(rows + 1, 0);
    a.v.clear();
    a.v.resize(cols + 1, 0);
    a.row_of.clear();
    a.row_of.resize(cols + 1, 0);
    a.way.clear();
    a.way.resize(cols + 1, 0);
    for r in 1..=rows {
        a.row_of[0] = r;
        let mut c0 = 0;
        a.least.clear();
        a.least.resize(cols + 1, i64::MAX);
        a.used.clear();
        a.used.resize(cols + 1, false);
        loop {
            a.used[c0] = true;
            let r0 = a.row_of[c0];
            let (mut delta, mut c1) = (i64::MAX, 0);
            for c in 1..=cols {
                if !a.used[c] {
                    let cur = price(r0 - 1, c - 1) - a.u[r0] - a.v[c];
                    if cur < a.least[c] {
                        a.least[c] = cur;
                        a.way[c] = c0;
                    }
                    if a.least[c] < delta {
                        delta = a.least[c];
                        c1 = c;
                    }
                }
            }
            for c in 0..=cols {
                if a.used[c] {
                    a.u[a.row_of[c]] += delta;
                    a.v[c] -= delta;
                } else {
                    a.least[c] -= delta;
                }
            }
            c0 = c1;
            if a.row_of[c0] == 0 {
                break;
            }
        }
        loop {
            let c1 = a.way[c0];
            a.row_of[c0] = a.row_of[c1];
            c0 = c1;
            if c0 == 0 {
                break;
            }
        }
    }
    let total = -a.v[0];
    (total < NO_PAIR).then_some(total as u32)
}

thread_local! {
    static MARKS: std::cell::RefCell<Marks> = std::cell::RefCell::default();
}

/// Whether a cell's words `c` hold every object of `mask` (`all`), or some.
#[inline]
pub(super) fn holds(mask: &[u64], all: bool, c: &[u64]) -> bool {
    if all {
        mask.iter().zip(c).all(|(m, w)| m & w == *m)
    } else {
        mask.iter().zip(c).any(|(m, w)| m & w != 0)
    }
}

impl Estimate<'_> {
    /// The estimate of the steps from `st` to a win.
    #[cfg(test)]
    pub(super) fn of(&self, st: &crate::State) -> u32 {
        MARKS.with(|m| self.of_with(st, &mut m.borrow_mut())).0
    }

    /// The frontiers' key of `st`: its estimate, then (when `lead`) the player's lead, packed in
    /// one word (see [`key_of`]).
    pub(super) fn key(&self, st: &crate::State) -> u32 {
        let (h, lead) = MARKS.with(|m| self.of_with(st, &mut m.borrow_mut()));
        key_of(h, lead)
    }

    /// The estimate, and the player's lead when `lead` (else 0): the fewest columns plus rows
    /// from a player's cell to an object still to be brought onto its place by an `all X on Y`
    /// condition (an X off a Y; where `prune.rs` worked out that the Ys are what moves, a Y off
    /// an X), 0 when there is none or too many pairs to measure.
    pub(super) fn of_with(&self, st: &crate::State, marks: &mut Marks) -> (u32, u32) {
        let s = st.stride;
        let n = st.width * st.height;
        let cell = |i: usize| &st.cells[i * s..(i + 1) * s];
        // Cell `i` is at column `i / height`, row `i % height`.
        let far = |i: usize, j: usize| {
            ((i / st.height).abs_diff(j / st.height) + (i % st.height).abs_diff(j % st.height)) as u32
        };
        let mut total = 0u32;
        let mut lead = u32::MAX;
        let mut players = std::mem::take(&mut marks.players);
        players.clear();
        // (only where some condition is `all X on Y`: the lead measures nothing else)
        if self.lead && self.game.win_conditions.iter().any(|wc| wc.quantifier == 1) {
            if s == 1 {
                // (one word a cell: a test on words, as the conditions' scan below)
                let pm = self.game.player_mask.first().copied().unwrap_or(0);
                players.extend(
                    st.cells.iter().take(n).enumerate().filter(|&(_, &c)| c & pm != 0).map(|(i, _)| i),
                );
            } else {
                players.extend((0..n).filter(|&i| crate::bits::intersects(&self.game.player_mask, cell(i))));
            }
        }
        for (k, wc) in self.game.win_conditions.iter().enumerate() {
            let x = |i: usize| holds(&wc.mask1, wc.aggregate1, cell(i));
            let y = |i: usize| holds(&wc.mask2, wc.aggregate2, cell(i));
            // One pass over the board: the cells with an X, with a Y, with an X and no Y, and
            // how many have both.
            let Marks { xs, ys, off, assign, loose, free, .. } = marks;
            xs.clear();
            ys.clear();
            off.clear();
            let mut both = 0u32;
            let mut mark = |i: usize, xi: bool, yi: bool| {
                if yi {
                    ys.push(i);
                }
                if xi {
                    xs.push(i);
                    if yi {
                        both += 1;
                    } else {
                        off.push(i);
                    }
                }
            };
            if s == 1 {
                // one word a cell (at most 64 objects): the tests on words
                let word = |m: &[u64]| m.first().copied().unwrap_or(0);
                let (m1, m2) = (word(&wc.mask1), word(&wc.mask2));
                let (all1, all2) = (wc.aggregate1, wc.aggregate2);
                // (a cell with none of the objects has no X and no Y, unless a mask is empty
                // under `all`: most cells, passed over at once)
                let skip = !((all1 && m1 == 0) || (all2 && m2 == 0));
                let any = m1 | m2;
                for (i, &c) in st.cells.iter().take(n).enumerate() {
                    if skip && c & any == 0 {
                        continue;
                    }
                    let xi = if all1 { c & m1 == m1 } else { c & m1 != 0 };
                    let yi = if all2 { c & m2 == m2 } else { c & m2 != 0 };
                    if xi || yi {
                        mark(i, xi, yi);
                    }
                }
            } else {
                // (the same, word by word)
                let empty = |m: &[u64], all: bool| all && m.iter().all(|&w| w == 0);
                let skip = !empty(&wc.mask1, wc.aggregate1) && !empty(&wc.mask2, wc.aggregate2);
                for (i, c) in st.cells.chunks_exact(s.max(1)).take(n).enumerate() {
                    if skip && c.iter().zip(&wc.mask1).zip(&wc.mask2).all(|((w, m1), m2)| w & (m1 | m2) == 0)
                    {
                        continue;
                    }
                    mark(i, holds(&wc.mask1, wc.aggregate1, c), holds(&wc.mask2, wc.aggregate2, c));
                }
            }
            let travel = self.travel.iter().find(|t| t.condition == k);
            if wc.quantifier == 1 && !players.is_empty() {
                // (the objects still to be brought: each X off a Y; where the Ys are what moves,
                // each Y off an X)
                let reversed = travel.is_some_and(|t| t.reversed);
                let movers = if reversed { &ys[..] } else { &off[..] };
                if players.len() * movers.len() <= MAX_PAIRS {
                    for &m in movers.iter().filter(|&&m| !reversed || !x(m)) {
                        lead = players.iter().map(|&p| far(p, m)).fold(lead, u32::min);
                    }
                }
            }
            total = total.saturating_add(match wc.quantifier {
                -1 => both,
                0 if !self.some_distance => u32::from(both == 0),
                // The X nearest a Y: its moves there, or its columns plus rows (at least 1).
                0 => {
                    if both > 0 {
                        0
                    } else {
                        match travel {
                            Some(t) if !t.reversed => xs
                                .iter()
                                .flat_map(|&i| moves_from(t, cell(i), i))
                                .min()
                                .filter(|&m| m != FAR)
                                .unwrap_or(1)
                                .max(1),
                            _ => {
                                if ys.len() > MAX_PAIRS {
                                    1
                                } else {
                                    xs.iter()
                                        .take(MAX_PAIRS / ys.len().max(1))
                                        .flat_map(|&i| ys.iter().map(move |&j| far(i, j)))
                                        .min()
                                        .unwrap_or(1)
                                        .max(1)
                                }
                            }
                        }
                    }
                }
                _ => {
                    // Each X (reversed: each target) counted to its nearest, without pairing.
                    let nearest = |t: Option<&Travel>| match t {
                        // Each X off a Y: its moves to the nearest Y.
                        Some(t) if !t.reversed => off
                            .iter()
                            .map(|&i| moves_from(t, cell(i), i).min().unwrap_or(1))
                            .fold(0u32, u32::saturating_add),
                        // Each X without a Y: the moves of the Y that reaches it in the fewest.
                        Some(t) if !t.per_target.is_empty() => t
                            .per_target
                            .iter()
                            .filter(|(i, _)| x(*i) && !y(*i))
                            .map(|(_, m)| ys.iter().map(|&j| m[j]).min().unwrap_or(1))
                            .fold(0u32, u32::saturating_add),
                        // Each X off a Y: its distance to the nearest Y (at least 1), or 1 when
                        // there is none.
                        _ => off
                            .iter()
                            .map(|&i| ys.iter().map(|&j| far(i, j)).min().unwrap_or(1))
                            .fold(0u32, u32::saturating_add),
                    };
                    match travel {
                        // Each mover off a target its own free target (Sokoban's matching
                        // estimate: two crates cannot end on one target): the fewest moves in
                        // all over the ways to pair them, when one pairs every such mover
                        // (reversed: every target without one).
                        Some(t)
                            if self.matching
                                && !t.per_target.is_empty()
                                && (t.reversed || !off.is_empty()) =>
                        {
                            // (the pairs already made stay: the movers off a target are paired
                            // with the targets free of one, a few of each, not the whole board's)
                            let (rows, cols) = (&mut *loose, &mut *free);
                            rows.clear();
                            cols.clear();
                            let open = |k: usize| {
                                let i = t.per_target[k].0;
                                if t.reversed { !y(i) } else { !x(i) }
                            };
                            if t.reversed {
                                rows.extend((0..t.per_target.len()).filter(|&k| open(k)));
                                cols.extend(ys.iter().copied().filter(|&j| !x(j)));
                            } else {
                                rows.extend(off.iter().copied());
                                cols.extend((0..t.per_target.len()).filter(|&k| open(k)));
                            }
                            let cost = |r: usize, c: usize| {
                                if t.reversed {
                                    t.per_target[rows[r]].1[cols[c]]
                                } else {
                                    t.per_target[cols[c]].1[rows[r]]
                                }
                            };
                            if rows.len() > MAX_PAIRED {
                                nearest(Some(t))
                            } else {
                                least_assignment(rows.len(), cols.len(), &cost, assign)
                                    .unwrap_or_else(|| nearest(Some(t)))
                            }
                        }
                        t => nearest(t),
                    }
                }
            });
        }
        marks.players = players;
        (total, if lead == u32::MAX { 0 } else { lead })
    }
}

/// A frontier's key: estimate `h` in the high half, the player's `lead` in the low (each at
/// most 65,535: an estimate past it, a sum of tens of thousands of moves, ranks with it), so
/// that states of one estimate come in the order of their leads.
pub(super) fn key_of(h: u32, lead: u32) -> u32 {
    (h.min(0xFFFF) << 16) | lead.min(0xFFFF)
}

/// The estimate a frontier's key holds (see [`key_of`]).
pub(super) fn estimate_of(key: u32) -> u32 {
    key >> 16
}

/// The moves to the nearest target of each moving-side object on cell `i` (words `c`).
pub(super) fn moves_from<'t>(t: &'t Travel, c: &'t [u64], i: usize) -> impl Iterator<Item = u32> + 't {
    t.maps.iter().filter(move |(o, _)| crate::bits::get(c, *o)).map(move |(_, m)| m[i])
}
