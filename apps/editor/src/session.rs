//! [`Session`]: the game being played — a level, a seed, its [`History`] (undo, redo, seek,
//! branches) and the [`Mirror`] the board is drawn from, kept in step with every event.
//!
//! `Session` — level, seed, `History`, the `Mirror` kept in step with every event (execute and redo
//! apply, undo unapplies in reverse, seek and branch switches rebuild) and the animation `Clock`.
//! Play's steps go through `Session::start`: the step (and its `EditorGame::step_report`) runs on a
//! worker thread over copies of the rules and state; one that ends within `STEP_WAIT` (0.1 s) is
//! taken at once, a longer one is polled each frame (`Session::poll`, with "Running the step" and
//! Cancel in the Play panel) and taken by `History::accept` only if the history is still at the
//! node it started from.

use crate::anim::{Clock, Speed};
use crate::games::{EditorGame, StepReport};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Level, LevelError, Rejected, Rules};
use tessera_ecs::Mirror;
use tessera_replay::{History, NodeId, SeekError};

/// How long Play waits for a step before drawing on with the step running (and Cancel): below
/// what a player notices, so a usual step shows at once.
pub const STEP_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// A game in progress, with everything needed to draw, undo and save it.
pub struct Session {
    level: Level,
    seed: u64,
    history: History,
    mirror: Mirror,
    clock: Clock,
    /// The boards between the turns of the last step played (the `again`
    /// turns), shown one after another before its end.
    frames: Option<Frames>,
    /// Sounds the game played that the app has not taken yet (a step's, undo's, the level's
    /// start).
    sounds: Vec<crate::audio::StepSounds>,
    /// What the last step played did beyond its events (its sounds, the rules it tried), for
    /// the console.
    report: StepReport,
    /// Whether a step also lists every rule it tries (the console's Verbose).
    pub rules_tried: bool,
    /// The step running on a worker thread, if any ([`Session::start`]).
    pending: Option<Pending>,
    /// Holds the next step's worker until a message comes (tests see a step running).
    hold: Option<mpsc::Receiver<()>>,
}

/// A step running on a worker thread (issue 37.4: the UI never waits on a step, which the
/// rules bound by a count of work, not time).
struct Pending {
    cmd: AnyCommand,
    /// The history's node the step started from: its result is taken only there.
    from: NodeId,
    started: Instant,
    rx: mpsc::Receiver<Computed>,
}

/// A step computed away from the history: the state after it and its events (or why the
/// rules refused it), and its report.
struct Computed {
    result: Result<(AnyState, Vec<AnyEvent>), Rejected>,
    report: StepReport,
}

/// How a step [`Session::start`] began went.
#[derive(Debug)]
pub enum Started {
    /// Ended within the wait: the texts it shows, or why it was refused.
    Done(Result<Vec<String>, Rejected>),
    /// Still running: [`Session::poll`] takes it when it ends.
    Running,
}

/// What a step worker does: the step's report, then the step, on copies.
fn compute(
    game: Option<&dyn EditorGame>,
    rules: &AnyRules,
    state: &AnyState,
    cmd: &AnyCommand,
    tried: bool,
) -> Computed {
    let report = game.map(|g| g.step_report(rules, state, cmd, tried)).unwrap_or_default();
    let mut after = state.clone();
    let mut events = Vec::new();
    let result = rules.apply(&mut after, cmd, &mut events).map(|()| (after, events));
    Computed { result, report }
}

/// The most boards of a step's turns shown one by one (the last ones, before its end).
pub const MAX_TURN_BOARDS: usize = 100;

/// The board after each turn of a step but the last, and when to show them.
struct Frames {
    /// When the step was played (seconds of egui time).
    start: f64,
    /// Seconds each turn's board shows.
    secs: f64,
    /// The state after turn 0, 1, … (the last turn's is the session's state), or after the
    /// last [`MAX_TURN_BOARDS`] turns before it.
    states: Vec<AnyState>,
}

impl Session {
    /// A new game of `level` with `seed`.
    pub fn new(level: Level, seed: u64) -> Result<Session, LevelError> {
        let game = level.start(Some(seed))?;
        let mut session = Session::from_history(level, seed, History::new(game));
        // A game may play a sound as a level loads (`startlevel`).
        session.event_sound("startlevel", 0.0);
        Ok(session)
    }

    /// A session over an existing history (a log opened for play, "play from here").
    pub fn from_history(level: Level, seed: u64, history: History) -> Session {
        let mirror = Mirror::from_state(history.state());
        Session {
            level,
            seed,
            history,
            mirror,
            clock: Clock::done(),
            frames: None,
            sounds: Vec::new(),
            report: StepReport::default(),
            rules_tried: false,
            pending: None,
            hold: None,
        }
    }

    /// A new game of `level` with `seed` that plays `commands` again (a rebuild keeping the
    /// position reached): the session at their end, or when the new rules refuse one, at the
    /// start with the steps they took kept for redo; and how many of them were played.
    pub fn replayed(
        level: Level,
        seed: u64,
        commands: &[AnyCommand],
    ) -> Result<(Session, usize), LevelError> {
        let game = level.start(Some(seed))?;
        let mut history = History::new(game);
        let mut played = 0;
        for cmd in commands {
            if history.execute(cmd).is_err() {
                break;
            }
            played += 1;
        }
        if played < commands.len() {
            // Seeking to step 0 of the current line cannot fail.
            let _ = history.seek(0);
        }
        Ok((Session::from_history(level, seed, history), played))
    }

    /// The level the game started from.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The seed the game started with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The line of play, with its branches.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The current state.
    pub fn state(&self) -> &AnyState {
        self.history.state()
    }

    /// The entities the board draws.
    pub fn mirror(&self) -> &Mirror {
        &self.mirror
    }

    /// The clock of the step being animated.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Runs `cmd` here and now and animates its events from `now`.
    /// Answers the texts the step shows over the board (its rule set's
    /// [`crate::games::EditorGame::message`]s), in order.
    pub fn execute(&mut self, cmd: &AnyCommand, now: f64, speed: Speed) -> Result<Vec<String>, Rejected> {
        let game = crate::games::of(self.history.rules().rule_set());
        let computed = compute(game, self.history.rules(), self.history.state(), cmd, self.rules_tried);
        self.finish(cmd, self.history.current(), computed, now, speed)
    }

    /// Starts `cmd` on a worker thread and waits for it at most `wait`: a step that ends by
    /// then is taken at once (as [`Self::execute`]); a longer one runs on while the UI draws,
    /// and [`Self::poll`] takes it when it ends. A step while another runs is refused.
    pub fn start(&mut self, cmd: &AnyCommand, now: f64, speed: Speed, wait: Duration) -> Started {
        if let Some(p) = &self.pending {
            return Started::Done(Err(Rejected::detailed(
                "busy",
                format!("the step '{}' is still running: wait or Cancel it", p.cmd),
            )));
        }
        let game = crate::games::of(self.history.rules().rule_set());
        let (rules, state) = (self.history.rules().clone(), self.history.state().clone());
        let (work, tried, hold) = (cmd.clone(), self.rules_tried, self.hold.take());
        let (tx, rx) = mpsc::channel();
        let started = Instant::now();
        let spawned = std::thread::Builder::new().name("tessera-step".into()).spawn(move || {
            if let Some(hold) = hold {
                let _ = hold.recv();
            }
            // The receiver is gone when the step was cancelled: nothing to tell.
            let _ = tx.send(compute(game, &rules, &state, &work, tried));
        });
        let from = self.history.current();
        if spawned.is_err() {
            // No thread to be had: the step runs here.
            return Started::Done(self.execute(cmd, now, speed));
        }
        match rx.recv_timeout(wait) {
            Ok(computed) => Started::Done(self.finish(cmd, from, computed, now, speed)),
            Err(_) => {
                self.pending = Some(Pending { cmd: cmd.clone(), from, started, rx });
                Started::Running
            }
        }
    }

    /// Takes the running step if it has ended: its command and how it went (refused as
    /// `stale` when the game moved on meanwhile).
    pub fn poll(&mut self, now: f64, speed: Speed) -> Option<(AnyCommand, Result<Vec<String>, Rejected>)> {
        let computed = match self.pending.as_ref()?.rx.try_recv() {
            Ok(c) => Some(c),
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => None,
        };
        let p = self.pending.take()?;
        let result = match computed {
            Some(c) => self.finish(&p.cmd, p.from, c, now, speed),
            None => Err(Rejected::new("failed", "the step failed in the rules (a bug: please report it)")),
        };
        Some((p.cmd, result))
    }

    /// The step running, and for how long it has.
    pub fn running(&self) -> Option<(&AnyCommand, Duration)> {
        self.pending.as_ref().map(|p| (&p.cmd, p.started.elapsed()))
    }

    /// Drops the running step: nothing of it is taken (its worker ends within the rules' bound
    /// on a step's work, its result unread). Whether one was running.
    pub fn cancel(&mut self) -> bool {
        self.pending.take().is_some()
    }

    /// Holds the next step's worker until the answer's sender sends (or is dropped), so a
    /// test sees the step running.
    #[doc(hidden)]
    pub fn hold_next_step(&mut self) -> mpsc::Sender<()> {
        let (tx, rx) = mpsc::channel();
        self.hold = Some(rx);
        tx
    }

    /// Takes a computed step if the history is still at `from`, and animates its events.
    fn finish(
        &mut self,
        cmd: &AnyCommand,
        from: NodeId,
        computed: Computed,
        now: f64,
        speed: Speed,
    ) -> Result<Vec<String>, Rejected> {
        let (after, events) = computed.result?;
        let game = crate::games::of(self.history.rules().rule_set());
        let Some(events) = self.history.accept(cmd, from, after, events) else {
            return Err(Rejected::new("stale", "the game moved on while the step ran: it was dropped"));
        };
        let turns = computed.report.sounds.clone();
        self.report = computed.report;
        let said = events.iter().filter_map(|e| game.and_then(|g| g.message(e))).collect();
        self.mirror.begin_step();
        for e in events {
            self.mirror.apply(e);
        }
        self.clock = Clock::start(now, self.mirror.phases(), speed);
        self.frames = self.turn_boards(game, now, speed);
        // Each turn's sounds as its board shows (`again_interval` apart; at once at Instant):
        // the turns whose boards are left out are heard at once (each sound once) with the
        // first shown.
        let mut turns = turns;
        if let Some(f) = &self.frames
            && turns.len() > f.states.len() + 1
        {
            let skipped = turns.len() - f.states.len() - 1;
            let mut first: Vec<String> = Vec::new();
            for seed in turns.drain(..=skipped).flatten() {
                if !first.contains(&seed) {
                    first.push(seed);
                }
            }
            turns.insert(0, first);
        }
        if turns.iter().any(|t| !t.is_empty()) {
            let secs = self.frames.as_ref().map_or(0.0, |f| f.secs);
            self.sounds.push(crate::audio::StepSounds { start: now, secs, turns });
        }
        Ok(said)
    }

    /// What the last step played did beyond its events ([`crate::games::EditorGame::step_report`]).
    pub fn report(&self) -> &StepReport {
        &self.report
    }

    /// Takes the sounds played since the last call, for the app to hear.
    pub fn take_sounds(&mut self) -> Vec<crate::audio::StepSounds> {
        std::mem::take(&mut self.sounds)
    }

    /// Queues the game's sound for `event` (`undo`, `startlevel`), if it has one, at `now`.
    fn event_sound(&mut self, event: &str, now: f64) {
        let rules = self.history.rules();
        if let Some(seed) = crate::games::of(rules.rule_set()).and_then(|g| g.event_sound(rules, event)) {
            self.sounds.push(crate::audio::StepSounds { start: now, secs: 0.0, turns: vec![vec![seed]] });
        }
    }

    /// The state the board shows at `now`: the session's, or while the last step's turns play
    /// out (`again` turns), the board after the turn shown.
    pub fn shown_state(&self, now: f64) -> &AnyState {
        self.turn_shown(now).unwrap_or_else(|| self.history.state())
    }

    /// The board of a turn of the last step shown at `now`, while they play out.
    fn turn_shown(&self, now: f64) -> Option<&AnyState> {
        let f = self.frames.as_ref()?;
        let t = now - f.start;
        if t < 0.0 || f.secs <= 0.0 {
            return None;
        }
        f.states.get((t / f.secs) as usize)
    }

    /// Whether the last step's turns are still playing out at `now`.
    pub fn turns_running(&self, now: f64) -> bool {
        self.turn_shown(now).is_some()
    }

    /// The turns of the last step shown one by one: when it was played, the seconds each
    /// shows, and how many boards come before the end.
    pub fn turn_frames(&self) -> Option<(f64, f64, usize)> {
        self.frames.as_ref().map(|f| (f.start, f.secs, f.states.len()))
    }

    /// The boards between the turns of the step just played, when its rule set shows them
    /// one by one: the step's events undone from the end, turn by turn.
    fn turn_boards(
        &self,
        game: Option<&dyn crate::games::EditorGame>,
        now: f64,
        speed: Speed,
    ) -> Option<Frames> {
        if speed == Speed::Instant {
            return None;
        }
        let events = self.history.events_at(self.history.step())?;
        let rules = self.history.rules();
        let (starts, secs) = game?.turn_frames(rules, events)?;
        if starts.len() < 2 {
            return None;
        }
        let mut state = self.history.state().clone();
        // The boards of the last turns only: a long `again` chain on a large board would
        // otherwise keep a copy of the board a turn (1,000 turns of a 256×256 board: 0.5 GB).
        let shown = (starts.len() - 1).min(MAX_TURN_BOARDS);
        let mut states = Vec::with_capacity(shown);
        for k in (starts.len() - shown..starts.len()).rev() {
            let end = starts.get(k + 1).copied().unwrap_or(events.len());
            rules.undo(&mut state, events.get(starts[k]..end)?);
            states.push(state.clone());
        }
        states.reverse();
        let secs = secs * speed.phase_secs() / Speed::Normal.phase_secs();
        Some(Frames { start: now, secs, states })
    }

    /// Undoes the last step (animated backwards); `false` at the start.
    pub fn undo(&mut self, now: f64, speed: Speed) -> bool {
        self.frames = None;
        let Some(events) = self.history.undo() else { return false };
        self.mirror.begin_step();
        for e in events.iter().rev() {
            self.mirror.unapply(e);
        }
        self.clock = Clock::start(now, self.mirror.phases(), speed);
        self.event_sound("undo", now);
        true
    }

    /// Redoes the next step of the current line; `false` at its end.
    pub fn redo(&mut self, now: f64, speed: Speed) -> bool {
        self.frames = None;
        let Some(events) = self.history.redo() else { return false };
        self.mirror.begin_step();
        for e in events {
            self.mirror.apply(e);
        }
        self.clock = Clock::start(now, self.mirror.phases(), speed);
        true
    }

    /// Jumps to `step` of the current line (no animation).
    pub fn seek(&mut self, step: u64) -> Result<(), SeekError> {
        self.history.seek(step)?;
        self.resync();
        Ok(())
    }

    /// Switches to another branch (its tip), keeping every branch.
    pub fn switch_to(&mut self, node: NodeId) -> Result<(), SeekError> {
        self.history.switch_to(node)?;
        self.resync();
        Ok(())
    }

    /// Back to the start of the game, keeping the line of play (redo walks it again).
    pub fn restart(&mut self) {
        // Seeking to step 0 of the current line cannot fail.
        let _ = self.seek(0);
    }

    /// Saves the line of play from the start to here as a log, atomically.
    pub fn save_log(&self, path: &Path) -> Result<(), String> {
        let bytes = self
            .history
            .write_log(Vec::new(), &self.level, self.seed)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        tessera_replay::atomic_write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the line of play as an animated GIF (atomically, `tessera replay gif`'s
    /// renderer and defaults); says what it wrote.
    pub fn save_gif(&self, path: &Path) -> Result<String, String> {
        let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let bytes = self.log_bytes().map_err(|e| fail(&e))?;
        let log = tessera_replay::Log::from_bytes(bytes, tessera_replay::TailPolicy::Strict)
            .map_err(|e| fail(&e))?;
        let gif = tessera_replay::gif::log_gif(&log, &Default::default()).map_err(|e| fail(&e))?;
        write_gif(path, &gif)
    }

    /// The log of the line of play, in memory (for the debugger).
    pub fn log_bytes(&self) -> Result<Vec<u8>, String> {
        self.history.write_log(Vec::new(), &self.level, self.seed).map_err(|e| e.to_string())
    }

    fn resync(&mut self) {
        self.frames = None;
        self.mirror = Mirror::from_state(self.history.state());
        self.clock = Clock::done();
    }
}

/// Writes the GIF of `steps` played by `rules` from `start` (a solution shown), atomically;
/// says what it wrote.
pub fn save_line_gif(
    path: &Path,
    rules: &tessera_core::AnyRules,
    start: &AnyState,
    steps: &[tessera_core::AnyCommand],
) -> Result<String, String> {
    let fail = |e: tessera_replay::gif::GifError| format!("{}: {e}", path.display());
    let mut maker = tessera_replay::gif::GifMaker::new(rules, start, &Default::default()).map_err(fail)?;
    for c in steps {
        maker.play(c).map_err(fail)?;
    }
    write_gif(path, &maker.finish().map_err(fail)?)
}

/// Writes `gif` to `path` atomically; says what it wrote.
fn write_gif(path: &Path, gif: &tessera_replay::gif::Gif) -> Result<String, String> {
    tessera_replay::atomic_write(path, &gif.bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!("saved {} ({} frames, {}×{} pixels)", path.display(), gif.frames, gif.width, gif.height))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::Rules;

    #[test]
    fn the_mirror_follows_execute_undo_redo_and_seek() {
        let mut s = Session::new(Level::classic(), 3).expect("classic starts");
        for _ in 0..6 {
            let cmd = s.history().rules().legal_commands(s.state())[0].clone();
            s.execute(&cmd, 0.0, Speed::Instant).expect("legal");
            assert!(*s.mirror() == Mirror::from_state(s.state()));
        }
        assert!(s.undo(0.0, Speed::Instant));
        assert!(*s.mirror() == Mirror::from_state(s.state()));
        assert!(s.redo(0.0, Speed::Instant));
        assert!(*s.mirror() == Mirror::from_state(s.state()));
        s.seek(2).expect("step 2 exists");
        assert_eq!(s.history().step(), 2);
        assert!(*s.mirror() == Mirror::from_state(s.state()));
    }
}
