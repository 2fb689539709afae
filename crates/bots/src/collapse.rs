//! `collapse`: nested Monte Carlo search (NMCS, Cazenave 2009), the standard method for SameGame.
//!
//! Level 0 is a random playout: taps drawn uniformly among the groups
//! ([`CollapseRules::random_group`], with the bot's generator) until none is left, avoiding the
//! *tabu colour* (the colour with most tiles when the playout starts, Cazenave's SameGame
//! playout policy: keeping it whole makes one big group late, and `(n − 2)²` rewards big groups):
//! a group of that colour is redrawn up to 12 times before it is played. Its value is the final
//! score (with the clear bonus under standard scoring). A level-`n` search, from a
//! position, tries every group, runs a level-`n − 1` search after it, and keeps the best whole
//! line found so far (score and taps); then it plays the next tap of that line and repeats until
//! the game ends. Remembering the best line is what makes NMCS strong: a level never ends worse
//! than the best line any of its sub-searches found.
//!
//! All on one state with `apply` and `undo` (one event buffer per depth). [`solve`] restarts the
//! search with fresh generators until its time is up and keeps the best line; when the deadline
//! passes during a search, the search stops trying moves and follows its best line to the end
//! (or a playout where it has none), so it always returns a complete line.
//!
//! Collapse draws nothing from its generator after the board is made, so there is no chance to
//! determinize: the bot's own generator only drives the playouts.

use crate::{Bot, BotRng};
use std::time::Instant;
use tessera_core::collapse::{
    CollapseCommand, CollapseEvent, CollapseRules, CollapseState, Group, GroupScratch,
};
use tessera_core::{Pos, Rules};

/// Settings of [`NmcsBot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NmcsConfig {
    /// Nesting level, 1 to 3 (0 is a single random playout).
    pub level: u32,
}

impl Default for NmcsConfig {
    fn default() -> Self {
        NmcsConfig { level: 1 }
    }
}

/// The search's buffers and counters.
pub struct Nmcs<'a> {
    rules: &'a CollapseRules,
    rng: BotRng,
    scratch: GroupScratch,
    groups: Vec<Vec<Group>>,
    events: Vec<Vec<CollapseEvent>>,
    deadline: Option<Instant>,
    /// Random playouts run so far.
    pub playouts: u64,
}

impl<'a> Nmcs<'a> {
    /// A search under `rules`, drawing its playouts from `seed`, stopping its tries at `deadline`.
    pub fn new(rules: &'a CollapseRules, seed: u64, deadline: Option<Instant>) -> Self {
        Nmcs {
            rules,
            rng: BotRng::new(seed),
            scratch: GroupScratch::default(),
            groups: Vec::new(),
            events: Vec::new(),
            deadline,
            playouts: 0,
        }
    }

    fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn apply(&mut self, s: &mut CollapseState, at: Pos, depth: usize) {
        if self.events.len() <= depth {
            self.events.resize_with(depth + 1, Vec::new);
        }
        let buf = &mut self.events[depth];
        buf.clear();
        // Taps come from the rules' own group lists, so they are accepted.
        let _ = self.rules.apply_into(s, &CollapseCommand::Tap(at), buf);
    }

    fn undo(&mut self, s: &mut CollapseState, depth: usize) {
        self.rules.undo(s, &self.events[depth]);
    }

    /// A random playout from `s` (at `depth` taps from the root): the final score, with the taps
    /// appended to `line`. Leaves `s` as it was.
    pub fn playout(&mut self, s: &mut CollapseState, depth: usize, line: &mut Vec<Pos>) -> u64 {
        self.playouts += 1;
        let tabu = tabu_colour(s);
        let mut d = depth;
        loop {
            let rng = &mut self.rng;
            let Some(mut g) = self.rules.random_group(s, &mut self.scratch, |n| rng.below(n)) else { break };
            // The tabu colour: redraw (a bounded number of times) while the group is of it.
            for _ in 0..TABU_TRIES {
                if Some(g.colour) != tabu {
                    break;
                }
                let rng = &mut self.rng;
                match self.rules.random_group(s, &mut self.scratch, |n| rng.below(n)) {
                    Some(other) => g = other,
                    None => break,
                }
            }
            self.apply(s, g.at, d);
            line.push(g.at);
            d += 1;
        }
        let score = s.score();
        while d > depth {
            d -= 1;
            self.undo(s, d);
        }
        score
    }

    fn list_groups(&mut self, s: &CollapseState, depth: usize) -> Vec<Group> {
        if self.groups.len() <= depth {
            self.groups.resize_with(depth + 1, Vec::new);
        }
        let mut out = std::mem::take(&mut self.groups[depth]);
        out.clear();
        self.rules.groups_into(s, &mut self.scratch, &mut out);
        out
    }

    /// A level-`level` search from `s` (at `depth` taps from the root): the best final score
    /// found and its line of taps from `s`. Leaves `s` as it was.
    pub fn search(&mut self, s: &mut CollapseState, level: u32, depth: usize) -> (u64, Vec<Pos>) {
        let mut line = Vec::new();
        if level == 0 {
            let score = self.playout(s, depth, &mut line);
            return (score, line);
        }
        let mut best: (u64, Vec<Pos>) = (s.score(), Vec::new());
        let mut played = 0usize;
        loop {
            let groups = self.list_groups(s, depth + played);
            if groups.is_empty() {
                self.groups[depth + played] = groups;
                break;
            }
            if !self.timed_out() {
                for g in &groups {
                    let d = depth + played;
                    self.apply(s, g.at, d);
                    let (score, sub) = self.search(s, level - 1, d + 1);
                    self.undo(s, d);
                    if score > best.0 || best.1.len() <= played {
                        let mut l = best.1[..played].to_vec();
                        l.push(g.at);
                        l.extend(sub);
                        best = (score, l);
                    }
                    if self.timed_out() {
                        break;
                    }
                }
            }
            if best.1.len() <= played {
                // Out of time before any try here: finish with a playout.
                let mut tail = Vec::new();
                let score = self.playout(s, depth + played, &mut tail);
                best.1.truncate(played);
                best.1.extend(tail);
                best.0 = score;
            }
            self.groups[depth + played] = groups;
            let next = best.1[played];
            self.apply(s, next, depth + played);
            played += 1;
        }
        while played > 0 {
            played -= 1;
            self.undo(s, depth + played);
        }
        best
    }
}

/// How many times a playout redraws a group of the tabu colour before playing it anyway.
const TABU_TRIES: u32 = 12;

/// The colour with the most tiles (the lowest such colour on a tie), which playouts avoid.
fn tabu_colour(s: &CollapseState) -> Option<u8> {
    let mut counts = [0u32; 16];
    for t in s.board().cells().iter().flatten() {
        counts[usize::from(t.colour & 15)] += 1;
    }
    let (colour, &n) = counts.iter().enumerate().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))?;
    (n > 0).then_some(colour as u8)
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best final score.
    pub score: u64,
    /// Its taps, from the start.
    pub taps: Vec<Pos>,
    /// Searches run (restarts).
    pub runs: u32,
    /// Random playouts in all.
    pub playouts: u64,
}

/// Runs level-`level` NMCS from `state` again and again with fresh generators (seeded from
/// `seed`) until `deadline`, and returns the best line. At least one search runs.
pub fn solve(
    rules: &CollapseRules,
    state: &CollapseState,
    level: u32,
    seed: u64,
    deadline: Instant,
) -> Solution {
    let mut s = state.clone();
    let mut seeds = BotRng::new(seed);
    let mut best = Solution { score: 0, taps: Vec::new(), runs: 0, playouts: 0 };
    loop {
        let mut search = Nmcs::new(rules, seeds.next_u64(), Some(deadline));
        let (score, taps) = search.search(&mut s, level, 0);
        best.runs += 1;
        best.playouts += search.playouts;
        if best.runs == 1 || score > best.score {
            best.score = score;
            best.taps = taps;
        }
        if Instant::now() >= deadline {
            return best;
        }
    }
}

/// A bot that runs a level-`level` NMCS before each tap and plays the first tap of the best line.
pub struct NmcsBot {
    rng: BotRng,
    config: NmcsConfig,
}

impl NmcsBot {
    /// A bot seeded with `seed`.
    pub fn new(seed: u64, config: NmcsConfig) -> Self {
        NmcsBot { rng: BotRng::new(seed), config }
    }
}

impl Bot<CollapseRules> for NmcsBot {
    fn choose(&mut self, rules: &CollapseRules, state: &CollapseState) -> Option<CollapseCommand> {
        let mut s = state.clone();
        let mut search = Nmcs::new(rules, self.rng.next_u64(), None);
        let (_, line) = search.search(&mut s, self.config.level, 0);
        line.first().map(|&at| CollapseCommand::Tap(at))
    }
}
