//! The worker pool: a batch of states expanded on several threads, the steps played on every
//! thread and the states they reach taken in the order one thread would take them.

use super::*;

/// States a batch holds per job (see [`solve_parallel`]).
pub(super) const BATCH_PER_JOB: usize = 16;
/// Expansions kept ahead of their turn, per state of a batch, before they are dropped.
pub(super) const AHEAD_LIMIT: usize = 64;
/// Whole batches (none cut short) after which the batch's size doubles again, at first; and
/// at most, after batches that grew were cut short again and again.
pub(super) const GROW_AFTER: usize = 8;
pub(super) const MAX_GROW_AFTER: usize = 4096;
/// The work, in nanoseconds of one thread's expansions, a batch needs before its states are
/// expanded ahead of their turn on every thread (the states after the first are a guess: a
/// best-first batch is often cut short, its expansions kept for later or dropped). (In the
/// unit tests, a nanosecond: every batch and step after the first goes to the threads, so
/// that the tests that ask for the same answer on any number of jobs try those paths whatever
/// the machine's speed.)
#[cfg(not(test))]
pub(super) const PARALLEL_WORK_NS: u64 = 300_000;
#[cfg(test)]
pub(super) const PARALLEL_WORK_NS: u64 = 1;
/// Every this many expansions, a state's steps are played the other way (spread over the
/// threads, or on this one) than the quicker so far, to time that way again: handing steps out
/// and gathering them back costs a few microseconds, which levels whose turns are cheap (6 to
/// 10 µs a state) do not win back. (Where spreading is the slower, 8 times as far apart: the
/// helpers then mostly sleep rather than spin, leaving the core to others.)
pub(super) const SPREAD_PROBE: u64 = 32;

/// What one step from a state reached.
pub(super) enum Reached {
    /// Nothing: the step passed the work bound.
    TooLong,
    /// Nothing: the step drew from the generator (not followed).
    Random,
    /// A win: whether the step drew from the generator.
    Won { drew: bool },
    /// A state: whether the step drew from the generator; its board; its rest (the state
    /// without its board) when that differs from its parent's; whether it is dead and its
    /// estimate, when worked out already.
    State { drew: bool, cells: Vec<u64>, rest: Option<Box<crate::State>>, dead: Option<bool>, h: Option<u32> },
}

/// One step tried from a state: the index of its command, what it reached.
pub(super) struct Tried {
    pub(super) cmd: u8,
    pub(super) what: Reached,
}

/// A thread's buffers for expanding states.
pub(super) struct Worker {
    pub(super) ws: crate::Workspace,
    pub(super) here: crate::State,
    pub(super) next: crate::State,
}

impl Worker {
    pub(super) fn new(start: &crate::State) -> Worker {
        Worker { ws: crate::Workspace::default(), here: start.clone(), next: start.clone() }
    }
}

/// Expands states: every step from them, as the search plays them.
pub(super) struct Expander<'a> {
    pub(super) game: &'a Game,
    pub(super) moves: &'a [Command],
    pub(super) work_limit: u64,
    pub(super) idle_action: bool,
    /// Whether steps that draw from the generator are followed (else left out).
    pub(super) follow_random: bool,
    /// Every step is played with the generator it starts from (its draws only paint scenery).
    pub(super) keep_rng: bool,
    /// The checks of each state reached, when worked out here: the pruning, the estimate,
    /// whether each applies.
    pub(super) checks: Option<(&'a Pruning, &'a Estimate<'a>, bool, bool)>,
}

impl Expander<'_> {
    /// Whether `action` is left out from `here`: it changes nothing in this game and nothing
    /// waits to move (it would find the state itself, stored already).
    pub(super) fn skips_action(&self, here: &crate::State) -> bool {
        self.idle_action
            && !here.text_mode
            && here.movements.iter().all(|&m| m == 0)
            && !self.game.is_won(here)
    }

    /// The steps from state `id` of `store`, in the order of the moves (an idle `action` left
    /// out), with the checks of each state reached when `checks`; `None` when `halt` said so
    /// before a step (asked before every step but the first).
    pub(super) fn expand(
        &self,
        store: &Store,
        id: u32,
        w: &mut Worker,
        checks: bool,
        halt: &mut dyn FnMut() -> bool,
    ) -> Option<Vec<Tried>> {
        store.load(id, &mut w.here);
        let skip_action = self.skips_action(&w.here);
        let mut out = Vec::with_capacity(self.moves.len());
        for (k, &cmd) in self.moves.iter().enumerate() {
            if cmd == Command::Action && skip_action {
                continue;
            }
            // Before every step (issue 37.5: one check in 256 expansions let `--seconds 2` run
            // 19 to 34 s on large levels).
            if k > 0 && halt() {
                return None;
            }
            out.push(self.try_step(&w.here, k, &mut w.ws, &mut w.next, checks));
        }
        Some(out)
    }

    /// Plays move `k` from `here` (in `next`, with `ws`): what it reached, with the checks of
    /// the state reached when `checks`.
    pub(super) fn try_step(
        &self,
        here: &crate::State,
        k: usize,
        ws: &mut crate::Workspace,
        next: &mut crate::State,
        checks: bool,
    ) -> Tried {
        let game = self.game;
        next.clone_from(here);
        let outcome = step(game, ws, next, input(self.moves[k]), self.work_limit);
        // (a step whose every draw had one choice did the same whatever the generator
        // held: where steps that draw are left out, it is played with the generator it
        // starts from, as a step that does not draw; followed, it keeps its draws, as the
        // game would go on from them)
        let forced = outcome.is_some_and(|o| !o.free_draw) && !self.follow_random;
        if self.keep_rng || forced {
            next.rng.clone_from(&here.rng);
        }
        let drew = outcome.is_some() && next.rng != here.rng;
        let what = match outcome.map(|o| o.won) {
            None => Reached::TooLong,
            Some(_) if drew && !self.follow_random => Reached::Random,
            Some(true) => Reached::Won { drew },
            Some(false) => {
                // (the generator too: a step that drew leads to a state with its own)
                let same_rest = !drew
                    && next.restart_cells == here.restart_cells
                    && next.movements == here.movements
                    && next.text_mode == here.text_mode
                    && next.title_screen == here.title_screen
                    && next.level == here.level;
                let (dead, h) = match self.checks.filter(|_| checks) {
                    Some((pruning, estimate, prunes, estimates)) => {
                        (Some(prunes && pruning.is_dead(game, next)), estimates.then(|| estimate.key(next)))
                    }
                    None => (None, None),
                };
                Reached::State {
                    drew,
                    cells: next.cells.clone(),
                    rest: (!same_rest).then(|| Box::new(next.without_cells())),
                    dead,
                    h,
                }
            }
        };
        Tried { cmd: k as u8, what }
    }
}

/// The threads that expand states beside the search's own (`--jobs`): they live as long as a
/// [`Searcher::run`], wait for work spinning a while (then asleep), and take the steps of a
/// batch of states one at a time, so that one state's steps spread over the threads too.
/// Which thread plays a step never changes what it reaches.
pub(super) struct Pool<'scope> {
    pub(super) shared: &'scope Shared,
    pub(super) expander: &'scope Expander<'scope>,
    pub(super) helpers: Vec<std::thread::ScopedJoinHandle<'scope, ()>>,
}

/// Expanded states: each one's id and what its steps reached, `None` when cut short.
pub(super) type Expanded = Vec<(u32, Option<Vec<Tried>>)>;

/// A step to play: its state's index in [`Task::states`], its move's index.
pub(super) type Item = (u32, u8);

/// One batch's states and steps, which the search's thread writes and the helpers read.
#[derive(Default)]
pub(super) struct Task {
    /// The states of the batch (buffers kept from task to task: the first as many as its ids
    /// are this task's).
    pub(super) states: Vec<crate::State>,
    pub(super) items: Vec<Item>,
}

/// What the search's thread shares with the helpers. No thread waits on a lock: the task is
/// written only once every step of the last one is played (the helpers give their reading of
/// it up before they say so), and read only once published.
#[derive(Default)]
pub(super) struct Shared {
    pub(super) task: std::sync::RwLock<Task>,
    /// The last task published: a helper works when it differs from the last it took.
    pub(super) round: std::sync::atomic::AtomicU64,
    /// The task's next item to take, and how many of its items the helpers have finished
    /// (played, or left when halted); set back with the task, under its write lock.
    pub(super) next: std::sync::atomic::AtomicUsize,
    pub(super) done: std::sync::atomic::AtomicUsize,
    /// What the helpers' items reached, by item index.
    pub(super) results: std::sync::Mutex<Vec<(usize, Tried)>>,
    /// The search's `stop` said so: the items left are not played.
    pub(super) halt: std::sync::atomic::AtomicBool,
    pub(super) quit: std::sync::atomic::AtomicBool,
}

/// Spins (a fraction of a millisecond) before a waiting helper sleeps, woken by the next task.
pub(super) const SPINS_BEFORE_SLEEP: u32 = 1 << 14;

impl Shared {
    /// Takes `task`'s items until none is left (or halted): what they reached, and how many
    /// were taken. `stop` is asked before each (the search's thread), else the halt flag.
    pub(super) fn take(
        &self,
        task: &Task,
        expander: &Expander,
        w: &mut Worker,
        stop: &mut dyn FnMut() -> bool,
    ) -> (Vec<(usize, Tried)>, usize) {
        use std::sync::atomic::Ordering;
        let mut mine = Vec::new();
        let mut taken = 0;
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(s, k)) = task.items.get(i) else { break };
            taken += 1;
            if self.halt.load(Ordering::Relaxed) {
                continue;
            }
            if stop() {
                self.halt.store(true, Ordering::Relaxed);
                continue;
            }
            let here = &task.states[s as usize];
            mine.push((i, expander.try_step(here, usize::from(k), &mut w.ws, &mut w.next, true)));
        }
        (mine, taken)
    }

    /// A helper's life: each task published, worked, until told to quit.
    pub(super) fn help(&self, expander: &Expander, w: &mut Worker) {
        use std::sync::atomic::Ordering;
        let (mut seen, mut idle) = (0, 0u32);
        while !self.quit.load(Ordering::Acquire) {
            if self.round.load(Ordering::Acquire) == seen {
                idle = idle.saturating_add(1);
                if idle < SPINS_BEFORE_SLEEP {
                    std::hint::spin_loop();
                } else {
                    std::thread::park_timeout(std::time::Duration::from_millis(5));
                }
                continue;
            }
            // (never waits on the lock: the search's thread might be writing the next task)
            let Ok(task) = self.task.try_read() else {
                std::hint::spin_loop();
                continue;
            };
            idle = 0;
            // (the task read may be a later one than `seen` names: then this helper comes back
            // for it and finds its steps taken)
            seen = self.round.load(Ordering::Acquire);
            let (mine, taken) = self.take(&task, expander, w, &mut || false);
            drop(task);
            if taken > 0 {
                self.results.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(mine);
                self.done.fetch_add(taken, Ordering::Release);
            }
        }
    }
}

impl<'scope> Pool<'scope> {
    /// Starts a helper on each of `workers` in `scope`.
    pub(super) fn start<'env>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        shared: &'env Shared,
        expander: &'env Expander<'env>,
        workers: &'env mut [Worker],
    ) -> Pool<'scope> {
        let helpers = workers.iter_mut().map(|w| scope.spawn(move || shared.help(expander, w))).collect();
        Pool { shared, expander, helpers }
    }

    /// The expansions of `ids` of `store` (see [`Expander::expand`], checks made), their steps
    /// spread over this thread (`w`) and the helpers, in the order of `ids`; `None` for those
    /// `stop` (asked before every step this thread plays) cut short.
    pub(super) fn expand_all(
        &self,
        store: &Store,
        ids: &[u32],
        w: &mut Worker,
        stop: &mut dyn FnMut() -> bool,
    ) -> Expanded {
        use std::sync::PoisonError;
        use std::sync::atomic::Ordering;
        let (shared, expander) = (self.shared, self.expander);
        // (a helper late for the last task may still be reading it, for a moment)
        let mut guard = loop {
            match shared.task.try_write() {
                Ok(g) => break g,
                Err(std::sync::TryLockError::Poisoned(e)) => break e.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => std::hint::spin_loop(),
            }
        };
        let task = &mut *guard;
        task.items.clear();
        for (i, &id) in ids.iter().enumerate() {
            if task.states.len() <= i {
                task.states.push(w.here.clone());
            }
            store.load(id, &mut task.states[i]);
            let skip_action = expander.skips_action(&task.states[i]);
            for (k, &cmd) in expander.moves.iter().enumerate() {
                if !(cmd == Command::Action && skip_action) {
                    task.items.push((i as u32, k as u8));
                }
            }
        }
        shared.next.store(0, Ordering::Relaxed);
        shared.done.store(0, Ordering::Relaxed);
        shared.results.lock().unwrap_or_else(PoisonError::into_inner).clear();
        shared.halt.store(false, Ordering::Relaxed);
        drop(guard);
        shared.round.fetch_add(1, Ordering::Release);
        for h in &self.helpers {
            h.thread().unpark();
        }
        let task = shared.task.read().unwrap_or_else(PoisonError::into_inner);
        let (mut results, taken) = shared.take(&task, expander, w, stop);
        while shared.done.load(Ordering::Acquire) + taken < task.items.len() {
            // (a helper that panicked would leave its step undone: the scope passes its panic on)
            assert!(!self.helpers.iter().any(|h| h.is_finished()), "a search thread stopped");
            std::hint::spin_loop();
        }
        results.append(&mut shared.results.lock().unwrap_or_else(PoisonError::into_inner));
        results.sort_unstable_by_key(|&(i, _)| i);
        let mut out: Expanded = ids.iter().map(|&id| (id, Some(Vec::new()))).collect();
        let mut played = results.into_iter().peekable();
        for (i, &(s, _)) in task.items.iter().enumerate() {
            let slot = &mut out[s as usize].1;
            match played.next_if(|&(j, _)| j == i) {
                Some((_, tried)) => {
                    if let Some(v) = slot {
                        v.push(tried);
                    }
                }
                None => *slot = None,
            }
        }
        out
    }
}

impl Drop for Pool<'_> {
    fn drop(&mut self) {
        self.shared.quit.store(true, std::sync::atomic::Ordering::Release);
        for h in &self.helpers {
            h.thread().unpark();
        }
    }
}
