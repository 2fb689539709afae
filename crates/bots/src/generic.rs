//! Bots for any rule set, built on `legal_commands`, `apply` and `undo` alone.
//!
//! - [`RandomBot`]: a uniformly random legal command.
//! - [`GreedyBot`]: the command whose result an [`Evaluator`] values most after one step, on a
//!   determinized copy of the state; ties go to the first command in `legal_commands` order.
//! - [`MctsBot`]: UCT. Each playout first gives the search's copy of the state a fresh generator
//!   from the bot's own [`BotRng`] (a determinization), then descends the tree by UCT, adds one
//!   node, plays random commands up to a depth and values the end with the evaluator. The tree
//!   is over command sequences (chance outcomes are not nodes: each playout samples its own), so
//!   a command stored in the tree may be refused under another determinization; the descent
//!   then stops there and the playout goes on from that state. Values are normalized by the
//!   smallest and largest value seen in this decision, so that UCT's exploration constant means
//!   the same for every rule set. The command played is the root's most visited child.
//!
//! Every bot searches on one copy of the state with `apply` and `undo`, reusing one event buffer
//! per depth.
//!
//! [`BOTS`] registers them by name (`random`, `greedy`, `mcts`); each rule set's registry entry
//! ([`crate::games`]) builds them on its own types.

use crate::any::{BotInfo, BotKind, BotSpec, Budget, Generic, Make};
use crate::playable::{Evaluator, Playable, ScoreEval};
use crate::{Bot, BotRng};
use std::time::{Duration, Instant};
use tessera_core::GameRng;

/// `random`.
pub(crate) static RANDOM: BotInfo = BotInfo {
    name: "random",
    aliases: &[],
    about: "Uniformly random legal commands.",
    only_for: None,
    budget: false,
    level: None,
    deterministic: false,
    make: Make::Generic(Generic::Random),
};

/// `greedy`.
pub(crate) static GREEDY: BotInfo = BotInfo {
    name: "greedy",
    aliases: &[],
    about: "Best immediate value.",
    only_for: None,
    budget: false,
    level: None,
    deterministic: false,
    make: Make::Generic(Generic::Greedy),
};

/// `mcts`.
pub(crate) static MCTS: BotInfo = BotInfo {
    name: "mcts",
    aliases: &[],
    about: "UCT with determinized rollouts.",
    only_for: None,
    budget: true,
    level: None,
    deterministic: false,
    make: Make::Generic(Generic::Mcts),
};

/// The generic bots, in the order the help lists them.
pub const BOTS: &[BotKind] = &[BotKind::RANDOM, BotKind::GREEDY, BotKind::MCTS];

/// A uniformly random legal command.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: BotRng,
}

impl RandomBot {
    /// A random bot with its own generator seeded from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: BotRng::new(seed) }
    }
}

impl<R: Playable> Bot<R> for RandomBot {
    fn choose(&mut self, rules: &R, state: &R::State) -> Option<R::Command> {
        let mut legal = rules.legal_commands(state);
        if legal.is_empty() {
            return None;
        }
        let i = self.rng.below(legal.len() as u32) as usize;
        Some(legal.swap_remove(i))
    }
}

/// The command with the best value after one step (ties: the first in `legal_commands` order).
pub struct GreedyBot<R: Playable, E = ScoreEval> {
    rng: BotRng,
    eval: E,
    events: Vec<R::Event>,
}

impl<R: Playable, E: Evaluator<R>> GreedyBot<R, E> {
    /// A greedy bot valuing states with `eval`, seeding its look-ahead from `seed`.
    pub fn new(seed: u64, eval: E) -> Self {
        GreedyBot { rng: BotRng::new(seed), eval, events: Vec::new() }
    }
}

impl<R: Playable, E: Evaluator<R>> Bot<R> for GreedyBot<R, E>
where
    R::Event: Send,
{
    fn choose(&mut self, rules: &R, state: &R::State) -> Option<R::Command> {
        let legal = rules.legal_commands(state);
        if legal.len() <= 1 {
            return legal.into_iter().next();
        }
        let mut s = state.clone();
        R::determinize(&mut s, GameRng::new(self.rng.next_u64()));
        let mut best: Option<(f64, usize)> = None;
        for (i, cmd) in legal.iter().enumerate() {
            self.events.clear();
            if rules.apply(&mut s, cmd, &mut self.events).is_err() {
                continue;
            }
            let v = self.eval.value(rules, &s);
            rules.undo(&mut s, &self.events);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, i));
            }
        }
        let i = best.map_or(0, |(_, i)| i);
        legal.into_iter().nth(i)
    }
}

/// Settings of an [`MctsBot`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Search per decision.
    pub budget: Budget,
    /// UCT's exploration constant, on values normalized to `[0, 1]`.
    pub exploration: f64,
    /// Random commands played after the tree, at most.
    pub rollout_depth: u32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig { budget: Budget::Playouts(200), exploration: 0.7, rollout_depth: 40 }
    }
}

struct Node<C> {
    cmd: Option<C>,
    first_child: u32,
    children: u32,
    expanded: bool,
    visits: u32,
    total: f64,
}

/// UCT over determinized playouts (see the module docs).
pub struct MctsBot<R: Playable, E = ScoreEval> {
    rng: BotRng,
    eval: E,
    config: MctsConfig,
    nodes: Vec<Node<R::Command>>,
    path: Vec<u32>,
    events: Vec<Vec<R::Event>>,
}

impl<R: Playable, E: Evaluator<R>> MctsBot<R, E> {
    /// An MCTS bot valuing playouts with `eval`, drawing from its own generator seeded by `seed`.
    pub fn new(seed: u64, eval: E, config: MctsConfig) -> Self {
        MctsBot {
            rng: BotRng::new(seed),
            eval,
            config,
            nodes: Vec::new(),
            path: Vec::new(),
            events: Vec::new(),
        }
    }

    fn expand(&mut self, node: usize, legal: Vec<R::Command>) {
        let first = self.nodes.len() as u32;
        let n = legal.len() as u32;
        for cmd in legal {
            self.nodes.push(Node {
                cmd: Some(cmd),
                first_child: 0,
                children: 0,
                expanded: false,
                visits: 0,
                total: 0.0,
            });
        }
        let nd = &mut self.nodes[node];
        nd.first_child = first;
        nd.children = n;
        nd.expanded = true;
    }

    fn select(&self, node: usize, lo: f64, hi: f64) -> usize {
        let nd = &self.nodes[node];
        let children = nd.first_child as usize..(nd.first_child + nd.children) as usize;
        if let Some(c) = children.clone().find(|&c| self.nodes[c].visits == 0) {
            return c;
        }
        let ln = f64::from(nd.visits.max(1)).ln();
        let span = hi - lo;
        let mut best = (f64::NEG_INFINITY, children.start);
        for c in children {
            let ch = &self.nodes[c];
            let mean = ch.total / f64::from(ch.visits);
            let norm = if span > 0.0 { (mean - lo) / span } else { 0.5 };
            let u = norm + self.config.exploration * (ln / f64::from(ch.visits)).sqrt();
            if u > best.0 {
                best = (u, c);
            }
        }
        best.1
    }

    fn buffer(&mut self, depth: usize) -> &mut Vec<R::Event> {
        if self.events.len() <= depth {
            self.events.resize_with(depth + 1, Vec::new);
        }
        let b = &mut self.events[depth];
        b.clear();
        b
    }
}

impl<R: Playable, E: Evaluator<R>> Bot<R> for MctsBot<R, E>
where
    R::Event: Send,
    R::Command: Send,
{
    fn choose(&mut self, rules: &R, state: &R::State) -> Option<R::Command> {
        let legal = rules.legal_commands(state);
        if legal.len() <= 1 {
            return legal.into_iter().next();
        }
        let mut s = state.clone();
        self.nodes.clear();
        self.nodes.push(Node {
            cmd: None,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            total: 0.0,
        });
        self.expand(0, legal);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let start = Instant::now();
        let mut playouts = 0u32;
        loop {
            let done = match self.config.budget {
                Budget::Playouts(n) => playouts >= n.max(1),
                Budget::Millis(ms) => playouts > 0 && start.elapsed() >= Duration::from_millis(ms),
            };
            if done {
                break;
            }
            playouts += 1;
            R::determinize(&mut s, GameRng::new(self.rng.next_u64()));
            // Descend.
            self.path.clear();
            self.path.push(0);
            let mut node = 0usize;
            let mut depth = 0usize;
            loop {
                if rules.finished(&s, false) {
                    break;
                }
                if !self.nodes[node].expanded {
                    let legal = rules.legal_commands(&s);
                    self.expand(node, legal);
                }
                if self.nodes[node].children == 0 {
                    break;
                }
                let child = self.select(node, lo, hi);
                let Some(cmd) = self.nodes[child].cmd.clone() else { break };
                let mut buf = std::mem::take(self.buffer(depth));
                let ok = rules.apply(&mut s, &cmd, &mut buf).is_ok();
                self.events[depth] = buf;
                if !ok {
                    break;
                }
                depth += 1;
                node = child;
                self.path.push(child as u32);
                if self.nodes[child].visits == 0 {
                    break;
                }
            }
            // Roll out.
            let mut rolled = 0;
            while rolled < self.config.rollout_depth && !rules.finished(&s, false) {
                let mut legal = rules.legal_commands(&s);
                if legal.is_empty() {
                    break;
                }
                let cmd = legal.swap_remove(self.rng.below(legal.len() as u32) as usize);
                let mut buf = std::mem::take(self.buffer(depth));
                let ok = rules.apply(&mut s, &cmd, &mut buf).is_ok();
                self.events[depth] = buf;
                if !ok {
                    break;
                }
                depth += 1;
                rolled += 1;
            }
            let value = self.eval.value(rules, &s);
            for d in (0..depth).rev() {
                rules.undo(&mut s, &self.events[d]);
            }
            lo = lo.min(value);
            hi = hi.max(value);
            for &n in &self.path {
                let nd = &mut self.nodes[n as usize];
                nd.visits += 1;
                nd.total += value;
            }
        }
        let root = &self.nodes[0];
        let children = root.first_child as usize..(root.first_child + root.children) as usize;
        let mut best = (0u32, f64::NEG_INFINITY, children.start);
        for c in children {
            let ch = &self.nodes[c];
            let mean = if ch.visits > 0 { ch.total / f64::from(ch.visits) } else { f64::NEG_INFINITY };
            if ch.visits > best.0 || (ch.visits == best.0 && mean > best.1) {
                best = (ch.visits, mean, c);
            }
        }
        self.nodes[best.2].cmd.clone()
    }
}

impl BotKind {
    /// `random`: uniformly random legal commands (any rule set).
    pub const RANDOM: BotKind = BotKind::new(&RANDOM);
    /// `greedy`: best immediate value (any rule set).
    pub const GREEDY: BotKind = BotKind::new(&GREEDY);
    /// `mcts`: UCT with determinized rollouts (any rule set).
    pub const MCTS: BotKind = BotKind::new(&MCTS);
}

impl BotSpec {
    /// The MCTS settings: the defaults with this spec's budget.
    pub fn mcts_config(&self) -> MctsConfig {
        let mut c = MctsConfig::default();
        if let Some(b) = self.budget {
            c.budget = b;
        }
        c
    }
}
