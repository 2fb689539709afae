//! The rule: a command runs the engine's turn (and the `again` turns it queues), and the step's
//! events are what changed (see the module docs of [`super`]).
//!
//! Around it, the rule set's files: a command runs `Game::turn` and the `again` turns it queues
//! (`apply.rs`; a level starts with `Game::start_settled`, which runs the start turn's `again`
//! turns too, from rules version 2, while version 1's `Game::start` is kept for its logs; the
//! registry's `Level::start_version` gives replay the start of a log's version), and the step's
//! events are the diff (`Cell` before/after per changed cell, `Aux` before/after of the rest of the
//! engine's state, encoded), plus the engine's trace (`Rule` lines, `Moved`) and outcome (`Sound`,
//! `Message`, `Cancelled`, `Won`); undo and checked redo use only `Cell` and `Aux`, so they are
//! exact by construction (`undo.rs`).

use super::engine::{self, Input};
use super::state::{Meta, PuzzleScriptState};
use super::{MAX_TURNS, PuzzleScriptCommand, PuzzleScriptEvent, PuzzleScriptRules, bridge};
use crate::rules::{Inconsistent, Rejected, Rules, Status};
use std::sync::Arc;

/// What a step did beyond its events, turn by turn: see [`PuzzleScriptRules::step_report`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    /// Whether `tried` was asked for.
    pub rules_tried: bool,
    /// Each turn's sounds (seeds), in the order PuzzleScript plays them.
    pub sounds: Vec<Vec<String>>,
    /// Each turn's rules tried, in order: the rule's source line and whether it matched
    /// anywhere (empty unless asked for).
    pub tried: Vec<Vec<(u32, bool)>>,
    /// Whether `boards` was asked for.
    pub rule_boards: bool,
    /// Each turn's boards after each rule that changed cells, in the order of its `Rule`
    /// events (one a rule's event), with the rule's line (empty unless asked for).
    pub boards: Vec<Vec<(u32, PuzzleScriptState)>>,
}

/// What every command answers once the level is won.
const WON: Rejected = Rejected::new("won", "the level is won");

/// What a step answers once the run's work budget ([`with_run_budget`]) is spent.
pub const RUN_BUDGET_SPENT: Rejected =
    Rejected::new("run_budget", "the run's work budget is spent (a bot's game: --work)");

/// What a run's budget ([`with_run_budget`]) counts for each turn of a step besides the work
/// the step bound counts, and one more unit a cell of the board: a turn's own cost (its
/// buffers and events, the board copied and compared), which is most of a turn's time when
/// its rules do little. An `again` chain of 1,000 turns a step on a board of 20 cells does
/// about 200 units a turn by the step bound's count but takes 15 µs a turn (issue 66.3: such a
/// game's run of 1,000,000,000 units took 94 s); with this it counts about 2,200.
pub const RUN_TURN_WORK: u64 = 2_000;

/// Takes `work` units from the run under way on this thread ([`with_run_budget`]), if any:
/// work done outside the rules' steps, a bot's own search (the solver bot's).
pub fn spend_run_work(work: u64) {
    RUN_WORK.with(|w| {
        if let Some(left) = w.get() {
            w.set(Some(left.saturating_sub(work)));
        }
    });
}

std::thread_local! {
    /// The work left to the run under way on this thread ([`with_run_budget`]), if any.
    static RUN_WORK: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with a budget of `work` units of work (as [`super::MAX_STEP_WORK`] counts them) for every
/// step this thread plays through the rules meanwhile (issue 66.3: a bot's game of 10,000 moves
/// of up to the step bound each, its look-aheads besides, ran for minutes). A step is held to
/// the step bound or to the work left, whichever is less; a step past the work left is refused
/// ([`RUN_BUDGET_SPENT`]) and changes nothing, as one past the step bound does; once the work
/// is spent every step is refused. The count is the same on every machine. Returns `f`'s value
/// and the work left. Budgets nest: the inner one is used while it runs.
pub fn with_run_budget<T>(work: u64, f: impl FnOnce() -> T) -> (T, u64) {
    let outer = RUN_WORK.with(|w| w.replace(Some(work)));
    let value = f();
    let left = RUN_WORK.with(|w| w.replace(outer)).unwrap_or(0);
    (value, left)
}

/// The work left to the run under way on this thread ([`with_run_budget`]), if any.
pub fn run_work_left() -> Option<u64> {
    RUN_WORK.with(std::cell::Cell::get)
}

impl PuzzleScriptRules {
    /// The state of a new game of the level with `seed`: from rules version 2 after the `again`
    /// turns of its start (at most [`MAX_TURNS`]).
    pub(super) fn start_state(&self, seed: u64) -> Result<PuzzleScriptState, String> {
        self.start_state_with(seed, None)
    }

    /// [`Self::start_state`] with the game's glyphs already read from its source (`None`: read
    /// them now).
    pub(super) fn start_state_with(
        &self,
        seed: u64,
        glyphs: Option<&[(char, Vec<u64>)]>,
    ) -> Result<PuzzleScriptState, String> {
        let seed_text = seed.to_string();
        let again_turns = if self.version() >= 2 { MAX_TURNS } else { 0 };
        let mut work = engine::Work::new(self.step_work_limit());
        let inner = self
            .game
            .start_settled_within(self.entry, Some(&seed_text), again_turns, &mut work)
            .map_err(|e| e.to_string())?;
        if work.over() {
            return Err(format!(
                "the level's start is too long: its turns do more than {} units of work (cells tested by rules)",
                self.step_work_limit()
            ));
        }
        let meta = Arc::new(match glyphs {
            Some(g) => bridge::meta_with(&self.game, &inner, g.to_vec())?,
            None => bridge::meta(&self.game, &inner, &self.source)?,
        });
        // The reference checks the win conditions at the end of a turn only: from version 3 a
        // level that starts in a winning layout needs one step (any, even one that moves nothing).
        let won = self.version() < 3 && self.game.is_won(&inner);
        Ok(PuzzleScriptState::new(meta, inner, won))
    }

    /// [`Rules::apply`], pushing into any buffer whose items can be made from a
    /// [`PuzzleScriptEvent`].
    pub fn apply_into<E: From<PuzzleScriptEvent>>(
        &self,
        state: &mut PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        self.step(state, cmd, events, None)
    }

    /// The sounds PuzzleScript plays for the step `cmd` makes from `state`, turn by turn (the
    /// command's turn, then each `again` turn), each turn's in the order it plays them: the
    /// recorded ones (`Sound` events) and those it plays without recording them (`sfx`
    /// commands, `cancel`, `restart`, `showmessage`, `endlevel`). `state` is not changed; a
    /// command `apply` refuses is refused here too.
    pub fn step_sounds(
        &self,
        state: &PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
    ) -> Result<Vec<Vec<String>>, Rejected> {
        Ok(self.step_report(state, cmd, false)?.sounds)
    }

    /// What the step `cmd` makes from `state` did beyond its events, turn by turn, for a
    /// console: the sounds it plays ([`Self::step_sounds`]) and, with `rules_tried`, every rule
    /// tried in order with whether it matched (PuzzleScript's verbose log). `state` is not
    /// changed; a command `apply` refuses is refused here too.
    pub fn step_report(
        &self,
        state: &PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
        rules_tried: bool,
    ) -> Result<StepReport, Rejected> {
        let mut work = state.clone();
        let mut events: Vec<PuzzleScriptEvent> = Vec::new();
        let mut report = StepReport { rules_tried, ..StepReport::default() };
        self.step(&mut work, cmd, &mut events, Some(&mut report))?;
        Ok(report)
    }

    /// The boards of the step `cmd` makes from `state` after each rule that changed cells, turn
    /// by turn, in the order of the step's `Rule` events (a debugger's "board after this
    /// rule"). The engine's trace records them only when asked (nothing else of the step
    /// changes: its events and hashes are those `apply` makes). `state` is not changed.
    pub fn rule_boards(
        &self,
        state: &PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
    ) -> Result<Vec<Vec<(u32, PuzzleScriptState)>>, Rejected> {
        Ok(self.traced_step(state, cmd)?.2)
    }

    /// The step `cmd` makes from `state` with the boards after each rule recorded
    /// ([`Self::rule_boards`]): its events, the state after it and the boards.
    #[allow(clippy::type_complexity)]
    pub fn traced_step(
        &self,
        state: &PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
    ) -> Result<(Vec<PuzzleScriptEvent>, PuzzleScriptState, Vec<Vec<(u32, PuzzleScriptState)>>), Rejected>
    {
        let mut work = state.clone();
        let mut events: Vec<PuzzleScriptEvent> = Vec::new();
        let mut report = StepReport { rule_boards: true, ..StepReport::default() };
        self.step(&mut work, cmd, &mut events, Some(&mut report))?;
        Ok((events, work, report.boards))
    }

    /// One step, held to the step bound and to the run's work left ([`with_run_budget`]), which
    /// it takes its work from.
    fn step<E: From<PuzzleScriptEvent>>(
        &self,
        state: &mut PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
        events: &mut Vec<E>,
        report: Option<&mut StepReport>,
    ) -> Result<(), Rejected> {
        let Some(left) = run_work_left() else {
            return self.step_within(state, cmd, events, report, self.step_work_limit(), None);
        };
        if state.is_won() {
            return Err(WON);
        }
        if left == 0 {
            return Err(RUN_BUDGET_SPENT);
        }
        let limit = self.step_work_limit().min(left);
        let mut used = 0;
        let result = self.step_within(state, cmd, events, report, limit, Some(&mut used));
        RUN_WORK.with(|w| w.set(Some(left.saturating_sub(used))));
        match result {
            Err(e) if e.code == "step_too_long" && limit < self.step_work_limit() => {
                RUN_WORK.with(|w| w.set(Some(0)));
                Err(RUN_BUDGET_SPENT)
            }
            other => other,
        }
    }

    /// One step within `limit` units of work. Under a run's budget (`used` given), each turn's
    /// own cost ([`RUN_TURN_WORK`] and a unit a cell) counts against `limit` too, before the
    /// turn, so a step past the work left is refused whole; `used` is set to the work it did.
    fn step_within<E: From<PuzzleScriptEvent>>(
        &self,
        state: &mut PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
        events: &mut Vec<E>,
        mut report: Option<&mut StepReport>,
        limit: u64,
        mut used: Option<&mut u64>,
    ) -> Result<(), Rejected> {
        if state.is_won() {
            return Err(WON);
        }
        let prelude = self.game.prelude();
        let input = match cmd {
            PuzzleScriptCommand::Up => Some(Input::Up),
            PuzzleScriptCommand::Down => Some(Input::Down),
            PuzzleScriptCommand::Left => Some(Input::Left),
            PuzzleScriptCommand::Right => Some(Input::Right),
            PuzzleScriptCommand::Action if prelude.noaction => {
                return Err(Rejected::new("noaction", "the game has no action key (noaction)"));
            }
            PuzzleScriptCommand::Action => Some(Input::Action),
            PuzzleScriptCommand::Tick => None,
            PuzzleScriptCommand::Restart if prelude.norestart => {
                return Err(Rejected::new("norestart", "the game does not allow restarting (norestart)"));
            }
            PuzzleScriptCommand::Restart => None,
        };
        let meta = state.meta_arc();
        let mut step: Vec<PuzzleScriptEvent> = Vec::new();
        let mut work = state.engine().clone();
        let mut turn = 0u32;
        let mut spent = engine::Work::new(limit);
        let turn_run_work = RUN_TURN_WORK + meta.size.area() as u64;
        let won = loop {
            let before = work.clone();
            step.push(PuzzleScriptEvent::Turn { index: turn });
            let mut trace = engine::Trace {
                again_check: self.version() < 2,
                tried: report.as_deref().is_some_and(|r| r.rules_tried).then(Vec::new),
                boards: report.as_deref().is_some_and(|r| r.rule_boards).then(Vec::new),
                ..engine::Trace::default()
            };
            if used.is_some() {
                // (the run's budget also counts each turn's own cost, which the step bound leaves
                // out: its buffers, events and the board's copy and comparison)
                spent.spent = spent.spent.saturating_add(turn_run_work);
            }
            let outcome = if turn == 0 && *cmd == PuzzleScriptCommand::Restart {
                self.game.restart_within(&mut work, &mut spent)
            } else {
                let input = if turn == 0 { input } else { None };
                self.game.turn_within(&mut work, input, Some(&mut trace), &mut spent)
            };
            if let Some(u) = used.as_deref_mut() {
                *u = spent.spent;
            }
            if spent.over() {
                // The turn stopped part-way: nothing of the step is kept.
                return Err(Rejected::detailed(
                    "step_too_long",
                    format!(
                        "step too long: more than {} units of work (cells tested by rules) in {} turn{}; \
                         nothing changed",
                        self.step_work_limit(),
                        turn + 1,
                        if turn == 0 { "" } else { "s" }
                    ),
                ));
            }
            bridge::trace_events(&trace, &meta, &mut step);
            diff(&meta, &before, &work, &mut step);
            bridge::outcome_events(&outcome, &mut step);
            if let Some(r) = report.as_deref_mut() {
                r.sounds.push(outcome.played);
                r.tried.push(
                    trace
                        .tried
                        .take()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(line, hit)| (line as u32, hit))
                        .collect(),
                );
                let boards = trace.boards.take().unwrap_or_default();
                r.boards.push(
                    boards
                        .into_iter()
                        .filter(|(_, cells)| cells.len() == before.cells.len())
                        .map(|(line, cells)| {
                            let mut board = before.clone();
                            board.cells = cells;
                            (line as u32, PuzzleScriptState::new(Arc::clone(&meta), board, false))
                        })
                        .collect(),
                );
            }
            let won = outcome.won || self.game.is_won(&work);
            turn += 1;
            if won || !outcome.again || turn >= MAX_TURNS {
                break won;
            }
        };
        if won {
            step.push(PuzzleScriptEvent::Won);
        }
        // A step that changed nothing and said nothing is no step. From rules version 4 an
        // object's "move" onto its own cell (the action key's, with no rule to act on it) is
        // nothing too: the reference keeps no undo state for a turn that left every object
        // where it was (`processCommandQueue`), whatever the key.
        let still = |e: &PuzzleScriptEvent| match e {
            PuzzleScriptEvent::Turn { .. } | PuzzleScriptEvent::Rule { .. } => true,
            PuzzleScriptEvent::Moved { from, to, .. } => from == to && self.version() >= 4,
            _ => false,
        };
        if step.iter().all(still) {
            return Err(Rejected::new("no_change", "nothing happens"));
        }
        // Apply through the events, so the state and its hash move exactly as redo moves them.
        for e in &step {
            redo_unchecked(state, e);
        }
        debug_assert!(state.engine() == &work, "the events rebuild the engine's state");
        events.extend(step.into_iter().map(E::from));
        Ok(())
    }

    /// The most work one step may do: the process's step bound when these rules were made
    /// ([`super::step_work`], by default [`super::MAX_STEP_WORK`]) unless [`Self::set_step_work_limit`]
    /// set another, under every rules version (see there why it needs none of its own).
    pub fn step_work_limit(&self) -> u64 {
        self.step_work
    }

    /// Sets the most work one step may do (the default is [`super::MAX_STEP_WORK`]): a step past it is
    /// refused, `step too long`. At least 1.
    pub fn set_step_work_limit(&mut self, work: u64) {
        self.step_work = work.max(1);
    }

    /// The commands `apply` would accept now, in the order of [`PuzzleScriptCommand::ALL`].
    pub fn commands(&self, state: &PuzzleScriptState) -> Vec<PuzzleScriptCommand> {
        if state.is_won() {
            return Vec::new();
        }
        let mut scratch: Vec<PuzzleScriptEvent> = Vec::new();
        PuzzleScriptCommand::ALL
            .into_iter()
            .filter(|c| {
                let mut s = state.clone();
                scratch.clear();
                self.apply_into(&mut s, c, &mut scratch).is_ok()
            })
            .collect()
    }
}

/// Pushes a `Cell` event for every cell whose objects differ between `before` and `after`, and
/// an `Aux` event when the rest of the state does.
fn diff(meta: &Meta, before: &engine::State, after: &engine::State, out: &mut Vec<PuzzleScriptEvent>) {
    for i in 0..meta.size.area() {
        let (a, b) = (bridge::cell(before, meta, i), bridge::cell(after, meta, i));
        if a != b {
            out.push(PuzzleScriptEvent::Cell { at: meta.size.pos(i), before: a.to_vec(), after: b.to_vec() });
        }
    }
    let (a, b) = (bridge::aux(before), bridge::aux(after));
    if a != b {
        out.push(PuzzleScriptEvent::Aux { before: a, after: b });
    }
}

/// Applies an event the rules just made (it fits by construction).
fn redo_unchecked(state: &mut PuzzleScriptState, event: &PuzzleScriptEvent) {
    match event {
        PuzzleScriptEvent::Cell { at, after, .. } => state.set_cell(state.size().index(*at), after),
        PuzzleScriptEvent::Aux { after, .. } => {
            let _ = state.set_aux(after);
        }
        PuzzleScriptEvent::Won => state.set_won(true),
        _ => {}
    }
}

impl Rules for PuzzleScriptRules {
    type State = PuzzleScriptState;
    type Command = PuzzleScriptCommand;
    type Event = PuzzleScriptEvent;

    fn apply(
        &self,
        state: &mut PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
        events: &mut Vec<PuzzleScriptEvent>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    fn undo_event(&self, state: &mut PuzzleScriptState, event: &PuzzleScriptEvent) {
        super::undo::undo_event(state, event);
    }

    fn redo_event(
        &self,
        state: &mut PuzzleScriptState,
        event: &PuzzleScriptEvent,
    ) -> Result<(), Inconsistent> {
        super::undo::redo_event(state, event)
    }

    fn legal_commands(&self, state: &PuzzleScriptState) -> Vec<PuzzleScriptCommand> {
        self.commands(state)
    }

    fn status(&self, state: &PuzzleScriptState) -> Status {
        if state.is_won() { Status::Won } else { Status::Playing }
    }
}
