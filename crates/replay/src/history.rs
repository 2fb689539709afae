//! [`History`]: the command pattern over a game, with undo, redo, seek and branches.
//!
//! `History`, the command pattern (undo through `Rules::undo`, redo through recorded events, never
//! replay from the start), with branches kept as a tree.

use crate::error::LogError;
use crate::format::{DEFAULT_KEYFRAME_INTERVAL, Header, StepRecord};
use crate::reader::Log;
use crate::writer::LogWriter;
use std::collections::BTreeMap;
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Game, Level, Rejected, Rules};

/// A point in a [`History`]: the state after some step on some branch. The start is
/// [`NodeId::START`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The start of the game (step 0).
    pub const START: NodeId = NodeId(0);
}

#[derive(Clone, Debug)]
struct Node {
    parent: Option<NodeId>,
    depth: u64,
    command: Option<AnyCommand>,
    events: Vec<AnyEvent>,
    hash: u64,
    children: Vec<NodeId>,
}

/// A branch of a [`History`]: the path from the start to a tip (a node nothing follows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// The last node of the branch.
    pub tip: NodeId,
    /// How many steps the branch has.
    pub steps: u64,
    /// The last step it shares with the current line.
    pub fork: u64,
    /// Whether it is the current line (the one undo and redo walk).
    pub current: bool,
}

/// Why a seek or a switch failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeekError {
    /// The current line has fewer steps.
    #[error("step {step} is beyond the end of the line ({len} steps)")]
    BeyondEnd {
        /// Asked for.
        step: u64,
        /// The line's length.
        len: u64,
    },
    /// No such node.
    #[error("no node {0:?} in this history")]
    NoSuchNode(NodeId),
}

/// The command pattern over a game: every executed command is kept with its events, so that
/// undo runs the rule set's exact inverse ([`Rules::undo`]) and redo replays the recorded
/// events ([`Rules::redo`]) without the generator; nothing is replayed from the start.
///
/// Steps form a tree. A command executed after an undo starts a new branch and keeps the old
/// one ([`History::branches`], [`History::switch_to`]); executing the very command an existing
/// branch continues with follows that branch instead of duplicating it. The *current line* is
/// the path from the start through the current node, continued by the most recently followed
/// child at each node: [`History::redo`] and [`History::seek`] walk it.
///
/// A copy of the state is kept every `keyframe_interval` steps along every branch, so that
/// [`History::seek`] reaches any step by redoing at most that many steps from the nearest
/// keyframe (or by walking from where it is, when that is shorter).
#[derive(Clone, Debug)]
pub struct History {
    rules: AnyRules,
    state: AnyState,
    nodes: Vec<Node>,
    current: NodeId,
    /// The current line: `line[d]` is its node at depth `d`.
    line: Vec<NodeId>,
    /// For each node, the child the current line continues with.
    next: Vec<Option<NodeId>>,
    keyframe_interval: u32,
    keyframes: BTreeMap<NodeId, AnyState>,
    scratch: Vec<AnyEvent>,
}

impl History {
    /// A history starting at `game`, keeping a state copy every 256 steps.
    pub fn new(game: Game) -> Self {
        History::with_keyframe_interval(game, DEFAULT_KEYFRAME_INTERVAL)
    }

    /// A history starting at `game`, keeping a state copy every `keyframe_interval` steps (0:
    /// only the start).
    pub fn with_keyframe_interval(game: Game, keyframe_interval: u32) -> Self {
        let hash = game.state.hash();
        let mut keyframes = BTreeMap::new();
        keyframes.insert(NodeId::START, game.state.clone());
        History {
            rules: game.rules,
            state: game.state,
            nodes: vec![Node {
                parent: None,
                depth: 0,
                command: None,
                events: Vec::new(),
                hash,
                children: Vec::new(),
            }],
            current: NodeId::START,
            line: vec![NodeId::START],
            next: vec![None],
            keyframe_interval,
            keyframes,
            scratch: Vec::new(),
        }
    }

    /// The history of a recorded log: its steps as the current line, at the last step. The
    /// recorded events are replayed (not the commands re-executed: see [`crate::verify`] for
    /// that), and each step's state hash is checked against the log's.
    pub fn from_log(log: &Log) -> Result<History, LogError> {
        let mut game = log.start()?;
        if let Some(k) = log.keyframe(0)? {
            game.state = k;
        }
        let mut h = History::with_keyframe_interval(game, log.header().keyframe_interval);
        let mut rec = StepRecord::default();
        for step in 1..=log.steps() {
            log.read_step(step, &mut rec)?;
            let Some(command) = rec.command.take() else { continue };
            let offset = log.step_frame(step).map_or(0, |f| f.offset);
            let fail = |message: String| LogError::Inconsistent { offset, step, message };
            // Checked redo: events that do not fit the state are an error, never a panic.
            h.rules.redo(&mut h.state, &rec.events).map_err(|e| log.unfit(step, &rec, &e))?;
            let recorded = log.header().state_hash(&h.state);
            if recorded != rec.hash {
                return Err(fail(format!(
                    "the state hash is {recorded:016x}, the log recorded {:016x}",
                    rec.hash
                )));
            }
            let hash = h.state.hash();
            h.push(command, std::mem::take(&mut rec.events), hash);
        }
        Ok(h)
    }

    /// Writes the line of play from the start to the current state as a log of a game of
    /// `level` started with `seed` (what the editor saves as a bug log): the start keyframe,
    /// every step with its recorded events and hash, and the kept keyframes.
    pub fn write_log<W: std::io::Write>(&self, out: W, level: &Level, seed: u64) -> Result<W, LogError> {
        self.write_log_noted(out, level, seed, None)
    }

    /// [`History::write_log`], then, with `player`, a note at the current step (the log's last)
    /// saying the player was there: [`crate::player_note`] of `player`, which
    /// [`crate::Log::player_step`] finds again (the web player's "Report a problem" log, which
    /// the editor's Debug opens at that step). A note is a frame every reader already reads: the
    /// format does not change.
    pub fn write_log_noted<W: std::io::Write>(
        &self,
        out: W,
        level: &Level,
        seed: u64,
        player: Option<&str>,
    ) -> Result<W, LogError> {
        let mut header = Header::new(level, seed, self.keyframe_interval)
            .map_err(|e| LogError::BadLevel { offset: crate::PREAMBLE_LEN as u64, message: e.to_string() })?;
        // A history opened from an older log plays by that log's rules: say so.
        header.rules_version = self.rules.version();
        let start = self.keyframes.get(&NodeId::START).unwrap_or(&self.state);
        let mut w = LogWriter::new(out, &header, start)?;
        for &id in &self.line[1..=self.step() as usize] {
            let node = self.node(id);
            let Some(command) = &node.command else { continue };
            w.step(command, &node.events, node.hash)?;
            if let Some(state) = self.keyframes.get(&id) {
                w.keyframe(state)?;
            }
        }
        if let Some(said) = player {
            w.note(&crate::player_note(said))?;
        }
        Ok(w.into_inner())
    }

    /// The rules.
    pub fn rules(&self) -> &AnyRules {
        &self.rules
    }

    /// The current state.
    pub fn state(&self) -> &AnyState {
        &self.state
    }

    /// The current node.
    pub fn current(&self) -> NodeId {
        self.current
    }

    /// The current step: how many commands lead from the start to the current state.
    pub fn step(&self) -> u64 {
        self.node(self.current).depth
    }

    /// Steps on the current line (the step a full redo reaches).
    pub fn len(&self) -> u64 {
        self.line.len() as u64 - 1
    }

    /// Whether nothing has been executed on the current line.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The state hash recorded at the current node.
    pub fn hash(&self) -> u64 {
        self.node(self.current).hash
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        self.current != NodeId::START
    }

    /// Whether there is a step to redo on the current line.
    pub fn can_redo(&self) -> bool {
        self.next[self.current.0 as usize].is_some()
    }

    /// The command of step `step` (1-based) on the current line.
    pub fn command_at(&self, step: u64) -> Option<&AnyCommand> {
        self.node(*self.line.get(usize::try_from(step).ok()?)?).command.as_ref()
    }

    /// The events of step `step` (1-based) on the current line.
    pub fn events_at(&self, step: u64) -> Option<&[AnyEvent]> {
        let id = *self.line.get(usize::try_from(step).ok()?)?;
        (step > 0).then(|| self.node(id).events.as_slice())
    }

    /// The commands from the start to the current state.
    pub fn commands(&self) -> Vec<AnyCommand> {
        self.line[1..=self.step() as usize].iter().filter_map(|&id| self.node(id).command.clone()).collect()
    }

    /// Runs `cmd`. On success the new step becomes current and its events are returned; a
    /// refused command changes nothing.
    pub fn execute(&mut self, cmd: &AnyCommand) -> Result<&[AnyEvent], Rejected> {
        let here = self.current;
        // The same command as an existing continuation: follow it (the rules are deterministic,
        // so it would produce the same events).
        if let Some(&child) =
            self.node(here).children.iter().find(|&&c| self.node(c).command.as_ref() == Some(cmd))
        {
            self.set_next(here, child);
            self.redo_node(child);
            return Ok(&self.node(child).events);
        }
        self.scratch.clear();
        self.rules.apply(&mut self.state, cmd, &mut self.scratch)?;
        let events = self.scratch.clone();
        let hash = self.state.hash();
        let id = self.push(cmd.clone(), events, hash);
        Ok(&self.node(id).events)
    }

    /// Takes a step computed away from the history (on a worker thread, so a long step never
    /// holds up an editor's frames): `after` and `events` are what `self.rules().apply(cmd)`
    /// made from the state of node `from`. None, and nothing changes, unless `from` is still
    /// the current node (the history moved on while the step ran). As [`Self::execute`], the
    /// same command as an existing continuation follows it.
    pub fn accept(
        &mut self,
        cmd: &AnyCommand,
        from: NodeId,
        after: AnyState,
        events: Vec<AnyEvent>,
    ) -> Option<&[AnyEvent]> {
        let here = self.current;
        if from != here {
            return None;
        }
        if let Some(&child) =
            self.node(here).children.iter().find(|&&c| self.node(c).command.as_ref() == Some(cmd))
        {
            self.set_next(here, child);
            self.redo_node(child);
            return Some(&self.node(child).events);
        }
        self.state = after;
        let hash = self.state.hash();
        let id = self.push(cmd.clone(), events, hash);
        Some(&self.node(id).events)
    }

    /// Adds a child of the current node for a step already applied to `self.state`, makes it
    /// current and the current line's continuation.
    fn push(&mut self, command: AnyCommand, events: Vec<AnyEvent>, hash: u64) -> NodeId {
        let parent = self.current;
        let depth = self.node(parent).depth + 1;
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            parent: Some(parent),
            depth,
            command: Some(command),
            events,
            hash,
            children: Vec::new(),
        });
        self.next.push(None);
        self.nodes[parent.0 as usize].children.push(id);
        self.next[parent.0 as usize] = Some(id);
        self.line.truncate(depth as usize);
        self.line.push(id);
        self.current = id;
        let k = u64::from(self.keyframe_interval);
        if k > 0 && depth.is_multiple_of(k) {
            self.keyframes.insert(id, self.state.clone());
        }
        id
    }

    /// Steps back one step through the rules' exact inverse; returns the undone events.
    pub fn undo(&mut self) -> Option<&[AnyEvent]> {
        let here = self.current;
        let parent = self.node(here).parent?;
        let node = &self.nodes[here.0 as usize];
        self.rules.undo(&mut self.state, &node.events);
        self.current = parent;
        Some(&self.nodes[here.0 as usize].events)
    }

    /// Steps forward one step on the current line by replaying its recorded events.
    pub fn redo(&mut self) -> Option<&[AnyEvent]> {
        let child = self.next[self.current.0 as usize]?;
        self.redo_node(child);
        Some(&self.node(child).events)
    }

    /// Moves to the state after `step` steps of the current line: from the nearest keyframe at
    /// or before it, or by undoing or redoing from here, whichever is fewer steps.
    pub fn seek(&mut self, step: u64) -> Result<(), SeekError> {
        let len = self.len();
        if step > len {
            return Err(SeekError::BeyondEnd { step, len });
        }
        let here = self.step();
        let walk = here.abs_diff(step);
        let k = u64::from(self.keyframe_interval);
        let kf_step = step.checked_div(k).map_or(0, |q| q * k);
        // Loading a keyframe costs about one clone; take it when it saves steps.
        if step - kf_step + 1 < walk
            && let Some(state) = self.keyframes.get(&self.line[kf_step as usize])
        {
            self.state.clone_from(state);
            self.current = self.line[kf_step as usize];
            for d in kf_step + 1..=step {
                self.redo_node(self.line[d as usize]);
            }
            return Ok(());
        }
        while self.step() > step {
            self.undo();
        }
        while self.step() < step {
            self.redo();
        }
        Ok(())
    }

    /// Every branch: one per tip, in creation order.
    pub fn branches(&self) -> Vec<Branch> {
        let tip = *self.line.last().unwrap_or(&NodeId::START);
        (0..self.nodes.len())
            .map(|i| NodeId(i as u32))
            .filter(|&id| self.node(id).children.is_empty())
            .map(|id| {
                let mut fork = id;
                while self.line.get(self.node(fork).depth as usize) != Some(&fork) {
                    fork = self.node(fork).parent.unwrap_or(NodeId::START);
                }
                Branch {
                    tip: id,
                    steps: self.node(id).depth,
                    fork: self.node(fork).depth,
                    current: id == tip,
                }
            })
            .collect()
    }

    /// Moves to `node` (any node, usually a branch's tip): undoes back to where the current
    /// state and `node` share a step, then redoes down to `node`. Its branch becomes the current
    /// line.
    pub fn switch_to(&mut self, node: NodeId) -> Result<(), SeekError> {
        if node.0 as usize >= self.nodes.len() {
            return Err(SeekError::NoSuchNode(node));
        }
        // The path from the start to `node`.
        let mut path = vec![node];
        while let Some(p) = self.node(*path.last().unwrap_or(&NodeId::START)).parent {
            path.push(p);
        }
        path.reverse();
        // Undo to the deepest node of the path that is an ancestor of the current node.
        while path.get(self.step() as usize) != Some(&self.current) {
            self.undo();
        }
        for w in path.windows(2) {
            self.set_next(w[0], w[1]);
        }
        for &id in &path[self.step() as usize + 1..] {
            self.redo_node(id);
        }
        Ok(())
    }

    /// Makes `child` the continuation of `parent` and rebuilds the current line below it.
    fn set_next(&mut self, parent: NodeId, child: NodeId) {
        if self.next[parent.0 as usize] == Some(child)
            && self.line.get(self.node(child).depth as usize) == Some(&child)
        {
            return;
        }
        self.next[parent.0 as usize] = Some(child);
        let depth = self.node(parent).depth as usize;
        if self.line.get(depth) == Some(&parent) {
            self.line.truncate(depth + 1);
            let mut at = Some(child);
            while let Some(id) = at {
                self.line.push(id);
                at = self.next[id.0 as usize];
            }
        }
    }

    /// Replays a child of the current node.
    fn redo_node(&mut self, child: NodeId) {
        let node = &self.nodes[child.0 as usize];
        // A node's events were applied (or checked on load) from its parent's state, which is
        // the current state here, so they fit; a misfit would leave the state unchanged.
        let fitted = self.rules.redo(&mut self.state, &node.events);
        debug_assert!(fitted.is_ok(), "a history node's events do not fit its parent: {fitted:?}");
        if fitted.is_ok() {
            self.current = child;
        }
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }
}
