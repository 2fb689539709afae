//! Nested rollout policy adaptation (NRPA, Rosin, IJCAI 2011) for SameGame.
//!
//! **Policy.** A move's *code* is its colour and the cells of its group: the XOR of one fixed
//! 64-bit key per (cell, colour) over the group (Zobrist hashing), so a group keeps its code
//! for as long as none of its tiles moves. A policy maps codes to weights (0 when absent); a
//! playout draws each move with probability `exp(weight)` over the sum of its candidates'.
//! Candidates follow the tabu colour of [`super::Nmcs`]'s playouts (the colour with most tiles
//! when the playout starts) as a bias rather than a ban (GNRPA's β, Cazenave 2020): while a
//! group of another colour exists, a move of the tabu colour weighs `exp(weight + TABU_BIAS)`,
//! so playouts keep the colour whole as NMCS's do, and a best line that needs such a move can
//! still be found and learnt.
//!
//! **Search.** Level 0 is a playout under the policy. Level `l` runs [`ITERATIONS`] searches of
//! level `l − 1`, each from a copy of its own policy, keeps the best line (a later equal score
//! replaces it), and after each one adapts its policy toward the best line: along the line, the
//! move played gains [`ALPHA`] and every candidate loses `ALPHA × p` (its probability under the
//! policy before this adaptation). Each playout records its candidates' codes, so adapting
//! toward a line does not replay it.
//!
//! [`solve_nrpa`] runs level-`level` searches from empty policies again and again until its
//! budget is spent, keeping the best line; `threads` independent searches run side by side
//! (root parallelism), the `k`-th seeded from `seed` and `k` alone, and the best of them wins
//! (the lowest `k` on equal scores). For a fixed playout budget the result is a function of the
//! level, the seed and the thread count; a time budget stops it wherever the clock says. The
//! line is replayed on the engine before it is returned.

use super::{Board, BoardScratch, Deadline, Solution, Tap, engine_line};
use crate::BotRng;
use std::time::{Duration, Instant};
use tessera_core::collapse::{CollapseConfig, CollapseRules, CollapseState};

/// Searches of level `l − 1` per search of level `l` (Rosin's N).
pub const ITERATIONS: usize = 100;

/// The adaptation step (Rosin's α).
pub const ALPHA: f64 = 1.0;

/// The bias (GNRPA, Cazenave 2020) of a move of the tabu colour while another colour has a
/// group: its probability is `exp(weight + TABU_BIAS)` over the sum, so such moves are rare in
/// playouts (`e⁻⁶ ≈ 0.25 %` of an ordinary move's weight) but can be learnt when a best line
/// needs one. `f64::NEG_INFINITY` would forbid them, as NMCS's playouts do.
pub const TABU_BIAS: f64 = -6.0;

/// The highest level `solve_nrpa` accepts (level 5 is 10¹⁰ playouts: never finished, but the
/// budget stops it with its best line).
pub const MAX_LEVEL: u32 = 5;

/// How long [`solve_nrpa`] searches: per thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Until this wall-clock instant.
    Wall(Instant),
    /// This much CPU time of each search thread.
    ThreadCpu(Duration),
    /// This many playouts per thread (whatever the time: deterministic).
    Playouts(u64),
}

/// One slot of a [`Policy`]: a code (0 = empty), its weight and `exp(weight)`.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    code: u64,
    weight: f64,
    exp: f64,
}

/// Weights by code: an open-addressing table (linear probing, at most half full). Codes are
/// never 0 (see [`Keys`]). Never iterated, so nothing depends on its layout.
#[derive(Clone, Debug)]
struct Policy {
    slots: Vec<Slot>,
    len: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy { slots: vec![Slot::default(); 1 << 12], len: 0 }
    }
}

impl Policy {
    fn clear(&mut self) {
        self.slots.clear();
        self.slots.resize(1 << 12, Slot::default());
        self.len = 0;
    }

    #[inline]
    fn home(&self, code: u64) -> usize {
        // The codes are random words already: their high bits index the table.
        (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) as usize & (self.slots.len() - 1)
    }

    /// `exp(weight)` of `code` (1 when it has no weight).
    #[inline]
    fn exp(&self, code: u64) -> f64 {
        let mask = self.slots.len() - 1;
        let mut i = self.home(code);
        loop {
            let s = &self.slots[i];
            if s.code == code {
                return s.exp;
            }
            if s.code == 0 {
                return 1.0;
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `delta` to the weight of `code`.
    fn add(&mut self, code: u64, delta: f64) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(code);
        loop {
            let s = &mut self.slots[i];
            if s.code == code {
                s.weight += delta;
                s.exp = s.weight.exp();
                return;
            }
            if s.code == 0 {
                *s = Slot { code, weight: delta, exp: delta.exp() };
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let grown = vec![Slot::default(); self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, grown);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.code != 0) {
            let mut i = self.home(s.code);
            while self.slots[i].code != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }

    fn copy_from(&mut self, other: &Policy) {
        self.slots.clone_from(&other.slots);
        self.len = other.len;
    }
}

/// Zobrist keys per (cell index of the search board, colour byte), never 0.
struct Keys(Vec<u64>);

impl Keys {
    fn new(cells: usize) -> Keys {
        let mut rng = BotRng::new(0x5a3e_9a3e_0000_0001);
        Keys((0..cells * 17).map(|_| rng.next_u64() | 1).collect())
    }

    #[inline(always)]
    fn of(&self, cell: usize, colour: u8) -> u64 {
        self.0[cell * 17 + usize::from(colour.min(16))]
    }
}

/// A played line and what adapting toward it needs: per step, the candidates' codes and which
/// was played.
#[derive(Clone, Debug, Default)]
struct Line {
    score: u64,
    taps: Vec<Tap>,
    /// Every step's candidates' codes, one step after the other.
    codes: Vec<u64>,
    /// Per code: whether the move was of the tabu colour while another colour had a group
    /// (its probability carries the [`TABU_BIAS`]).
    tabu: Vec<bool>,
    /// Per step: where its codes start in `codes`, and the offset of the one played.
    steps: Vec<(u32, u32)>,
}

impl Line {
    fn clear(&mut self) {
        self.score = 0;
        self.taps.clear();
        self.codes.clear();
        self.tabu.clear();
        self.steps.clear();
    }

    fn copy_from(&mut self, other: &Line) {
        self.score = other.score;
        self.taps.clone_from(&other.taps);
        self.codes.clone_from(&other.codes);
        self.tabu.clone_from(&other.tabu);
        self.steps.clone_from(&other.steps);
    }
}

/// A candidate move: its tap, colour and code.
#[derive(Clone, Copy, Debug)]
struct Move {
    tap: Tap,
    colour: u8,
    code: u64,
}

/// One NRPA search (one thread's): its generator, buffers and counters.
pub struct Nrpa<'a> {
    config: &'a CollapseConfig,
    min: u32,
    rng: BotRng,
    keys: Keys,
    root: Board,
    board: Board,
    scratch: BoardScratch,
    scratch_tap: BoardScratch,
    /// Per level: its policy and its best line.
    policies: Vec<Policy>,
    best: Vec<Line>,
    /// The playout's line, and scratch for moves, weights and adaptations.
    line: Line,
    moves: Vec<Move>,
    weights: Vec<f64>,
    deltas: Vec<(u64, f64)>,
    deadline: Option<Deadline>,
    max_playouts: Option<u64>,
    expired: bool,
    /// Playouts run so far.
    pub playouts: u64,
    /// When the search began (the thread's CPU clock, or the wall clock without one) and each
    /// improvement of its best playout score since: (time from the start, score).
    began: (Option<Duration>, Instant),
    trace: Vec<(Duration, u64)>,
}

impl<'a> Nrpa<'a> {
    /// A search of `state` under `config`, drawing from `seed`, stopping at `deadline` or after
    /// `max_playouts` playouts (whichever comes first; neither: never).
    pub fn new(
        config: &'a CollapseConfig,
        state: &CollapseState,
        seed: u64,
        deadline: Option<Deadline>,
        max_playouts: Option<u64>,
    ) -> Self {
        let root = Board::from_state(state);
        Nrpa {
            config,
            min: config.min_group.max(1),
            rng: BotRng::new(seed),
            keys: Keys::new(root.cells.len()),
            board: root.clone(),
            root,
            scratch: BoardScratch::default(),
            scratch_tap: BoardScratch::default(),
            policies: Vec::new(),
            best: Vec::new(),
            line: Line::default(),
            moves: Vec::new(),
            weights: Vec::new(),
            deltas: Vec::new(),
            deadline,
            max_playouts,
            expired: false,
            playouts: 0,
            began: (super::thread_cpu_time(), Instant::now()),
            trace: Vec::new(),
        }
    }

    /// Every improvement of the best playout score so far: (time since the search was made,
    /// on this thread's CPU clock where there is one, else the wall clock; the new score).
    pub fn trace(&self) -> &[(Duration, u64)] {
        &self.trace
    }

    /// The search board of the position searched.
    pub fn root(&self) -> &Board {
        &self.root
    }

    /// Whether the budget is spent (checked before each playout after the first of a level).
    fn timed_out(&mut self) -> bool {
        if !self.expired
            && (self.max_playouts.is_some_and(|m| self.playouts >= m)
                || self.deadline.is_some_and(|d| d.passed()))
        {
            self.expired = true;
        }
        self.expired
    }

    /// Whether the budget was spent during the last search.
    pub fn expired(&self) -> bool {
        self.expired
    }

    /// A level-`level` search from an empty policy: the best final score found and its taps.
    pub fn search(&mut self, level: u32) -> (u64, Vec<Tap>) {
        let l = level as usize;
        while self.policies.len() <= l {
            self.policies.push(Policy::default());
            self.best.push(Line::default());
        }
        self.policies[l].clear();
        self.nrpa(l);
        let best = &self.best[l];
        (best.score, best.taps.clone())
    }

    /// Level `l`'s search with `policies[l]` as it is: leaves its best line in `best[l]`.
    fn nrpa(&mut self, l: usize) {
        if l == 0 {
            self.playout(0);
            let line = std::mem::take(&mut self.line);
            self.best[0].copy_from(&line);
            self.line = line;
            return;
        }
        self.best[l].clear();
        let mut have = false;
        for _ in 0..ITERATIONS {
            if have && self.timed_out() {
                break;
            }
            if l == 1 {
                self.playout(1);
                if !have || self.line.score >= self.best[1].score {
                    std::mem::swap(&mut self.line, &mut self.best[1]);
                }
            } else {
                let (lower, upper) = self.policies.split_at_mut(l);
                lower[l - 1].copy_from(&upper[0]);
                self.nrpa(l - 1);
                if !have || self.best[l - 1].score >= self.best[l].score {
                    let (lower, upper) = self.best.split_at_mut(l);
                    upper[0].copy_from(&lower[l - 1]);
                }
            }
            have = true;
            self.adapt(l);
        }
    }

    /// Adapts `policies[l]` toward `best[l]`: every step's played move gains [`ALPHA`], every
    /// candidate loses `ALPHA ×` its probability under the policy as it was before.
    fn adapt(&mut self, l: usize) {
        let policy = &self.policies[l];
        let line = &self.best[l];
        self.deltas.clear();
        for (k, &(start, chosen)) in line.steps.iter().enumerate() {
            let end = line.steps.get(k + 1).map_or(line.codes.len(), |s| s.0 as usize);
            let codes = &line.codes[start as usize..end];
            let tabu = &line.tabu[start as usize..end];
            self.weights.clear();
            self.weights.extend(codes.iter().zip(tabu).map(|(&c, &t)| policy.exp(c) * bias(t)));
            let z: f64 = self.weights.iter().sum();
            for (&c, &e) in codes.iter().zip(&self.weights) {
                self.deltas.push((c, -ALPHA * e / z));
            }
            self.deltas.push((codes[chosen as usize], ALPHA));
        }
        let policy = &mut self.policies[l];
        for &(c, d) in &self.deltas {
            policy.add(c, d);
        }
    }

    /// A playout from the root under `policies[l]` into `self.line`.
    fn playout(&mut self, l: usize) {
        self.playouts += 1;
        let Nrpa {
            config,
            min,
            rng,
            keys,
            root,
            board,
            scratch,
            scratch_tap,
            policies,
            line,
            moves,
            weights,
            ..
        } = self;
        let policy = &policies[l];
        board.copy_from(root);
        line.clear();
        let tabu = board.most_common_colour();
        loop {
            moves.clear();
            coded_groups(board, *min, scratch, keys, moves);
            if moves.is_empty() {
                break;
            }
            let avoid = if moves.iter().any(|m| Some(m.colour) != tabu) { tabu } else { None };
            weights.clear();
            weights.extend(moves.iter().map(|m| policy.exp(m.code) * bias(Some(m.colour) == avoid)));
            let z: f64 = weights.iter().sum();
            let mut r = rng.unit() * z;
            let mut pick = moves.len() - 1;
            for (k, &w) in weights.iter().enumerate() {
                if r < w {
                    pick = k;
                    break;
                }
                r -= w;
            }
            line.steps.push((line.codes.len() as u32, pick as u32));
            line.codes.extend(moves.iter().map(|m| m.code));
            line.tabu.extend(moves.iter().map(|m| Some(m.colour) == avoid));
            line.taps.push(moves[pick].tap);
            board.tap(moves[pick].tap, config, scratch_tap);
        }
        line.score = board.score;
        if self.trace.last().is_none_or(|&(_, best)| line.score > best) {
            let at = match (self.began.0, super::thread_cpu_time()) {
                (Some(b), Some(now)) => now.saturating_sub(b),
                _ => self.began.1.elapsed(),
            };
            self.trace.push((at, line.score));
        }
    }
}

/// The factor [`TABU_BIAS`] puts on a move's `exp(weight)`: `e^TABU_BIAS` for a tabu move, else 1.
#[inline(always)]
fn bias(tabu: bool) -> f64 {
    if tabu { TABU_FACTOR } else { 1.0 }
}

/// `exp(TABU_BIAS)`, written out (`exp` is not const).
const TABU_FACTOR: f64 = 0.002_478_752_176_666_358_4;

/// Every group of at least `min` tiles of `b` with its code, in [`Board::for_each_group`]'s
/// order (the same labelling, hashing the cells as it fills).
fn coded_groups(b: &mut Board, min: u32, scratch: &mut BoardScratch, keys: &Keys, out: &mut Vec<Move>) {
    let s = b.stride;
    let n = b.cells.len();
    let BoardScratch { joined, stack, .. } = scratch;
    if joined.len() != n + 8 {
        joined.clear();
        joined.resize(n + 8, 0);
    }
    if stack.len() < n {
        stack.resize(n, 0);
    }
    if n < 2 * s {
        return;
    }
    b.mark_joined(joined);
    if min <= 1 {
        for (i, &c) in b.cells.iter().enumerate() {
            if c != 0 && joined[i] == 0 {
                out.push(Move { tap: i as Tap, colour: c - 1, code: keys.of(i, c) });
            }
        }
    }
    for i in s..n - s {
        let c = joined[i];
        if c == 0 {
            continue;
        }
        joined[i] = 0;
        stack[0] = i as u32;
        let (mut top, mut size, mut code) = (1, 0u32, 0u64);
        while top > 0 {
            top -= 1;
            let j = stack[top] as usize;
            size += 1;
            code ^= keys.of(j, c);
            for k in [j - 1, j + 1, j - s, j + s] {
                if joined[k] == c {
                    joined[k] = 0;
                    stack[top] = k as u32;
                    top += 1;
                }
            }
        }
        if size >= min {
            out.push(Move { tap: i as Tap, colour: c - 1, code: code | 1 });
        }
    }
}

/// What one thread of [`solve_nrpa`] found: best score, its line, searches run, playouts, CPU
/// time, trace.
type ThreadResult = (u64, Vec<Tap>, u32, u64, Option<Duration>, Vec<(Duration, u64)>);

/// Runs `threads` (at least 1) level-`level` NRPA searches side by side on `state`, each
/// restarting from an empty policy with a fresh seed until its `budget` is spent, and returns
/// the best line found (see the module docs), replayed on the engine. At least one search runs
/// in each thread.
pub fn solve_nrpa(
    rules: &CollapseRules,
    state: &CollapseState,
    level: u32,
    seed: u64,
    threads: usize,
    budget: Budget,
) -> Solution {
    let threads = threads.max(1);
    let run = |k: usize| -> ThreadResult {
        let cpu_began = super::thread_cpu_time();
        let deadline = match budget {
            Budget::Wall(at) => Some(Deadline::Wall(at)),
            Budget::ThreadCpu(d) => {
                Some(Deadline::cpu_after(d).unwrap_or(Deadline::Wall(Instant::now() + d)))
            }
            Budget::Playouts(_) => None,
        };
        let max = match budget {
            Budget::Playouts(p) => Some(p),
            _ => None,
        };
        let mut seeds = BotRng::new(seed ^ (k as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
        let mut search = Nrpa::new(&rules.config, state, seeds.next_u64(), deadline, max);
        let mut best: Option<(u64, Vec<Tap>)> = None;
        let mut runs = 0;
        loop {
            search.rng = BotRng::new(seeds.next_u64());
            let found = search.search(level);
            runs += 1;
            if best.as_ref().is_none_or(|b| found.0 > b.0) {
                best = Some(found);
            }
            if search.expired() || search.timed_out() {
                break;
            }
        }
        let (score, line) = best.unwrap_or_default();
        let cpu = cpu_began.and_then(|b| Some(super::thread_cpu_time()?.saturating_sub(b)));
        (score, line, runs, search.playouts, cpu, search.trace)
    };
    let results: Vec<ThreadResult> = if threads == 1 {
        vec![run(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|k| scope.spawn(move || run(k))).collect();
            handles.into_iter().map(|h| h.join().expect("an NRPA thread panicked")).collect()
        })
    };
    let runs = results.iter().map(|r| r.2).sum();
    let playouts = results.iter().map(|r| r.3).sum();
    let cpu = results.iter().map(|r| r.4).sum();
    // The threads' improvements merged in time order, keeping those that beat all before.
    let mut all: Vec<(Duration, u64)> = results.iter().flat_map(|r| r.5.iter().copied()).collect();
    all.sort_unstable();
    let mut trace: Vec<(Duration, u64)> = Vec::new();
    for (t, score) in all {
        if trace.last().is_none_or(|&(_, best)| score > best) {
            trace.push((t, score));
        }
    }
    // The best score; on equal scores the lowest thread.
    let best =
        results.into_iter().reduce(|a, b| if b.0 > a.0 { b } else { a }).map(|r| r.1).unwrap_or_default();
    let board = Board::from_state(state);
    let (score, taps) = engine_line(rules, state, &board, &best);
    Solution { score, taps, runs, playouts, cpu, trace }
}

/// A bot that plans with one level-`level` NRPA search from an empty policy
/// ([`ITERATIONS`]`^level` playouts) and plays the best line it found, tap by tap; it plans
/// again only when the game is not where the line expects it (SameGame has no chance, so
/// that is never, unless it is handed another game). Deterministic for its seed, whatever the
/// clock. Planning once per game rather than once per tap is what NRPA is for: the policy it
/// learns is about the whole game.
pub struct NrpaBot {
    rng: BotRng,
    level: u32,
    /// The rest of the line, last tap first: each tap with the hash of the state it is for.
    plan: Vec<(u64, tessera_core::Pos)>,
}

impl NrpaBot {
    /// A bot seeded with `seed`, searching at `level` (at least 1).
    pub fn new(seed: u64, level: u32) -> Self {
        NrpaBot { rng: BotRng::new(seed), level: level.max(1), plan: Vec::new() }
    }
}

impl crate::Bot<CollapseRules> for NrpaBot {
    fn choose(
        &mut self,
        rules: &CollapseRules,
        state: &CollapseState,
    ) -> Option<tessera_core::collapse::CollapseCommand> {
        use tessera_core::Rules;
        use tessera_core::collapse::CollapseCommand;
        if self.plan.last().is_none_or(|&(hash, _)| hash != state.hash()) {
            let mut search = Nrpa::new(&rules.config, state, self.rng.next_u64(), None, None);
            let (_, line) = search.search(self.level);
            let (_, taps) = engine_line(rules, state, search.root(), &line);
            let mut s = state.clone();
            let mut events = Vec::new();
            self.plan.clear();
            for at in taps {
                self.plan.push((s.hash(), at));
                events.clear();
                if rules.apply(&mut s, &CollapseCommand::Tap(at), &mut events).is_err() {
                    break;
                }
            }
            self.plan.reverse();
        }
        self.plan.pop().map(|(_, at)| CollapseCommand::Tap(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::Size;

    fn random_state(seed: u64) -> CollapseState {
        let mut rng = BotRng::new(seed);
        let (w, h) = (1 + rng.below(12) as usize, 1 + rng.below(12) as usize);
        let colours = 1 + rng.below(5) as u8;
        // Settled columns: each filled from the bottom to a random height.
        let heights: Vec<usize> = (0..w).map(|_| rng.below(h as u32 + 1) as usize).collect();
        let cells: Vec<Option<u8>> = (0..w * h)
            .map(|i| (i / w >= h - heights[i % w]).then(|| rng.below(u32::from(colours)) as u8))
            .collect();
        CollapseState::from_cells(Size::new(w, h, 256).unwrap(), &cells, 0).unwrap()
    }

    /// The coded labelling lists the groups `for_each_group` lists, in its order, and two
    /// groups have one code only when they are one group.
    #[test]
    fn coded_groups_are_the_boards_groups_with_distinct_codes() {
        for seed in 0..300 {
            let state = random_state(seed);
            let mut b = Board::from_state(&state);
            let keys = Keys::new(b.cells.len());
            for min in 1..=3 {
                let (mut scratch, mut plain, mut coded) = (BoardScratch::default(), Vec::new(), Vec::new());
                b.groups_into(min, &mut scratch, &mut plain);
                coded_groups(&mut b, min, &mut scratch, &keys, &mut coded);
                let taps: Vec<(Tap, u8)> = coded.iter().map(|m| (m.tap, m.colour)).collect();
                let want: Vec<(Tap, u8)> = plain.iter().map(|g| (g.tap, g.colour)).collect();
                assert_eq!(taps, want, "seed {seed}, min {min}");
                let mut codes: Vec<u64> = coded.iter().map(|m| m.code).collect();
                codes.sort_unstable();
                codes.dedup();
                assert_eq!(codes.len(), coded.len(), "seed {seed}: codes are distinct");
            }
        }
    }

    /// A group's code does not depend on the rest of the board: tapping a group elsewhere that
    /// moves none of its tiles leaves its code as it was.
    #[test]
    fn a_groups_code_is_its_colour_and_cells() {
        // Column 0 is a pair of 1s; the pair of 2s on top of columns 1 and 2 is tapped, which
        // moves no other tile.
        let cells: Vec<Option<u8>> = [Some(1), Some(2), Some(2), Some(1), Some(3), Some(3)].to_vec();
        let state = CollapseState::from_cells(Size::new(3, 2, 256).unwrap(), &cells, 0).unwrap();
        let mut b = Board::from_state(&state);
        let keys = Keys::new(b.cells.len());
        let config = CollapseConfig::standard();
        let mut scratch = BoardScratch::default();
        let mut before = Vec::new();
        coded_groups(&mut b, 2, &mut scratch, &keys, &mut before);
        let ones = before.iter().find(|m| m.colour == 1).copied().expect("the pair of 1s");
        let twos = before.iter().find(|m| m.colour == 2).copied().expect("the pair of 2s");
        b.tap(twos.tap, &config, &mut scratch);
        let mut after = Vec::new();
        coded_groups(&mut b, 2, &mut scratch, &keys, &mut after);
        assert_eq!(after.iter().find(|m| m.colour == 1).map(|m| m.code), Some(ones.code));
    }

    /// Adapting toward a line raises the line's probability under the policy (the product of
    /// its moves' probabilities at their steps).
    #[test]
    fn adapting_makes_the_best_line_likelier() {
        let state = random_state(5);
        let config = CollapseConfig::standard();
        let mut search = Nrpa::new(&config, &state, 1, None, None);
        search.search(1);
        let line = search.best[1].clone();
        let p = |policy: &Policy, k: usize| {
            let (start, chosen) = line.steps[k];
            let end = line.steps.get(k + 1).map_or(line.codes.len(), |s| s.0 as usize);
            let codes = &line.codes[start as usize..end];
            let tabu = &line.tabu[start as usize..end];
            let w = |k: usize| policy.exp(codes[k]) * bias(tabu[k]);
            w(chosen as usize) / (0..codes.len()).map(w).sum::<f64>()
        };
        let log_p = |policy: &Policy| (0..line.steps.len()).map(|k| p(policy, k).ln()).sum::<f64>();
        let before = search.policies[1].clone();
        search.adapt(1);
        let (a, b) = (log_p(&before), log_p(&search.policies[1]));
        assert!(line.steps.len() > 3 && b > a, "{a} -> {b}");
    }

    #[test]
    fn the_tabu_factor_is_exp_of_the_bias() {
        assert_eq!(TABU_FACTOR, TABU_BIAS.exp());
    }

    #[test]
    fn the_policy_table_keeps_every_weight_as_it_grows() {
        let mut policy = Policy::default();
        let mut rng = BotRng::new(3);
        let codes: Vec<u64> = (0..20_000).map(|_| rng.next_u64() | 1).collect();
        for (k, &c) in codes.iter().enumerate() {
            policy.add(c, k as f64 / 10_000.0);
        }
        for (k, &c) in codes.iter().enumerate() {
            assert_eq!(policy.exp(c), (k as f64 / 10_000.0).exp());
        }
        assert_eq!(policy.exp(2), 1.0, "absent codes weigh 0");
    }
}
