//! The debugger's model ([`Debugger`]): the log, the step shown, its state and mirror, verify, notes; no egui.

use super::*;
use crate::anim::{Clock, Speed};
use crate::session::Session;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};
use tessera_core::{AnyEvent, AnyState};
use tessera_ecs::Mirror;
use tessera_replay::{History, Log, LogError, StepRecord, TailPolicy, VerifyReport, atomic_write};

/// The time-travel debugger's model: a log, the step shown and everything shown about it.
pub struct Debugger {
    pub(super) log: Arc<Log>,
    path: Option<PathBuf>,
    step: u64,
    state: Result<AnyState, String>,
    /// The shown step's record (`None` at step 0).
    record: Option<Result<StepRecord, String>>,
    mirror: Option<Mirror>,
    /// Which step the mirror's touched cells belong to.
    outlined: Option<u64>,
    /// Why the mirror was rebuilt from the state instead of following the step's events.
    mirror_note: Option<String>,
    clock: Clock,
    verify: VerifyStatus,
    verify_rx: Option<Receiver<Result<VerifyReport, String>>>,
    /// Bytes dropped from a cut tail when the log was opened.
    dropped: u64,
    /// Notes added since the log was last saved or opened.
    unsaved: bool,
    /// The hash of the start state, for the step list's first row.
    pub(super) start_hash: Option<u64>,
    /// The sounds of the steps shown one step forward at a time, for the app to play.
    sounds: Vec<crate::audio::StepSounds>,
    /// Sounds still being worked out on a thread (a step replayed to hear it), in step order.
    sound_jobs: Vec<Receiver<Option<crate::audio::StepSounds>>>,
}

pub(super) fn text(e: &LogError) -> String {
    e.to_string()
}

impl Debugger {
    /// The debugger over `log` (read from `path`, if from a file), at the step the player was
    /// on when a note says so (a web player's "Report a problem" log:
    /// [`tessera_replay::Log::player_step`]), else at step 0.
    pub fn new(log: Log, path: Option<PathBuf>) -> Debugger {
        let dropped = log.dropped_bytes();
        let mut d = Debugger {
            log: Arc::new(log),
            path,
            step: 0,
            state: Err(String::new()),
            record: None,
            mirror: None,
            outlined: None,
            mirror_note: None,
            clock: Clock::done(),
            verify: VerifyStatus::NotRun,
            verify_rx: None,
            dropped,
            unsaved: false,
            start_hash: None,
            sounds: Vec::new(),
            sound_jobs: Vec::new(),
        };
        d.start_hash = d.log.state_at(0).ok().map(|s| s.hash());
        let at = d.log.player_step().filter(|&s| s <= d.log.steps()).unwrap_or(0);
        d.jump(at);
        d
    }

    /// The log.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The log, shared (for a scan on a thread).
    pub fn shared_log(&self) -> Arc<Log> {
        Arc::clone(&self.log)
    }

    /// The file the log came from (`None`: from memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The step shown (0: the start).
    pub fn step(&self) -> u64 {
        self.step
    }

    /// Steps in the log.
    pub fn steps(&self) -> u64 {
        self.log.steps()
    }

    /// The state after the shown step, or why the log does not give it.
    pub fn state(&self) -> Result<&AnyState, &str> {
        self.state.as_ref().map_err(String::as_str)
    }

    /// The shown step's command, events and recorded hash (`None` at step 0), or why it does
    /// not decode.
    pub fn record(&self) -> Option<Result<&StepRecord, &str>> {
        self.record.as_ref().map(|r| r.as_ref().map_err(String::as_str))
    }

    /// The entities the board draws (`None` when neither the step nor the state before it can
    /// be read).
    pub fn mirror(&self) -> Option<&Mirror> {
        self.mirror.as_ref()
    }

    /// Why the mirror was rebuilt from the state rather than following the step's events.
    pub fn mirror_note(&self) -> Option<&str> {
        self.mirror_note.as_deref()
    }

    /// The step whose touched cells the board outlines.
    pub fn outlined_step(&self) -> Option<u64> {
        self.outlined
    }

    /// The clock of the step being animated.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Where verification stands.
    pub fn verify_status(&self) -> &VerifyStatus {
        &self.verify
    }

    /// Whether notes were added since the log was opened or saved.
    pub fn unsaved(&self) -> bool {
        self.unsaved
    }

    /// Bytes of a cut tail dropped when the log was opened.
    pub fn dropped_bytes(&self) -> u64 {
        self.dropped
    }

    /// Goes to `step` (clamped to the log): a step by one is animated from `now` at `speed`,
    /// anything else is a jump.
    pub fn go(&mut self, step: u64, now: f64, speed: Speed) {
        let step = step.min(self.steps());
        if step == self.step + 1 {
            self.forward(now, speed);
        } else if step + 1 == self.step {
            self.back(now, speed);
        } else if step != self.step {
            self.jump(step);
        }
    }

    /// Shows `step` (clamped to the log) without animation: the mirror is rebuilt from the
    /// state before it and follows its events, so its touched cells are outlined.
    pub fn jump(&mut self, step: u64) {
        let step = step.min(self.steps());
        self.step = step;
        self.clock = Clock::done();
        self.mirror_note = None;
        self.state = self.log.state_at(step).map_err(|e| text(&e));
        self.record = (step > 0).then(|| self.read(step));
        self.mirror = None;
        self.outlined = None;
        if let Some(Ok(rec)) = &self.record
            && let Ok(prev) = self.log.state_at(step - 1)
        {
            let mut m = Mirror::from_state(&prev);
            m.begin_step();
            match apply_all(&mut m, &rec.events) {
                Ok(()) => {
                    self.mirror = Some(m);
                    self.outlined = Some(step);
                }
                Err(e) => self.mirror_note = Some(e),
            }
        }
        if self.mirror.is_none() {
            self.mirror = self.state.as_ref().ok().map(Mirror::from_state);
        }
    }

    fn read(&self, step: u64) -> Result<StepRecord, String> {
        let mut rec = StepRecord::default();
        self.log.read_step(step, &mut rec).map_err(|e| text(&e))?;
        Ok(rec)
    }

    /// One step forward, animated.
    pub fn forward(&mut self, now: f64, speed: Speed) {
        let step = self.step + 1;
        if step > self.steps() {
            return;
        }
        let rec = self.read(step);
        let (Ok(r), Some(m)) = (&rec, &mut self.mirror) else { return self.jump(step) };
        m.begin_step();
        if let Err(e) = apply_all(m, &r.events) {
            self.jump(step);
            self.mirror_note = Some(e);
            return;
        }
        self.clock = Clock::start(now, m.phases(), speed);
        if let (Ok(before), Some(cmd)) = (&self.state, &r.command) {
            // The sounds need the step played again: on a thread, as Play's steps, so a long
            // step never holds up the frame; waited for as long as Play waits for a step.
            let (rules, before, cmd, events) =
                (self.log.rules().clone(), before.clone(), cmd.clone(), r.events.clone());
            let (tx, rx) = std::sync::mpsc::channel();
            let spawned = std::thread::Builder::new().name("tessera-debug-sounds".into()).spawn(move || {
                let _ = tx.send(step_sounds(&rules, &before, &cmd, &events, now, speed));
            });
            if spawned.is_ok() {
                self.sound_jobs.push(rx);
                self.hear_jobs(Some(crate::session::STEP_WAIT));
            }
        }
        self.step = step;
        self.outlined = Some(step);
        self.mirror_note = None;
        self.state = self.log.state_at(step).map_err(|e| text(&e));
        self.record = Some(rec);
    }

    /// Takes the sounds of the steps played forward since the last call (only a step forward by
    /// one makes its sounds: a jump or a step back is silent), for the app to hear.
    pub fn take_sounds(&mut self) -> Vec<crate::audio::StepSounds> {
        self.hear_jobs(None);
        std::mem::take(&mut self.sounds)
    }

    /// Whether sounds are still being worked out (the app asks for frames until they come).
    pub fn sounds_pending(&self) -> bool {
        !self.sound_jobs.is_empty()
    }

    /// Takes the sounds the threads have worked out, in step order, the first waited for at
    /// most `wait`.
    fn hear_jobs(&mut self, wait: Option<std::time::Duration>) {
        while let Some(rx) = self.sound_jobs.first() {
            let got = match wait {
                Some(w) => {
                    rx.recv_timeout(w).map_err(|e| matches!(e, std::sync::mpsc::RecvTimeoutError::Timeout))
                }
                None => rx.try_recv().map_err(|e| matches!(e, TryRecvError::Empty)),
            };
            match got {
                Ok(sounds) => self.sounds.extend(sounds),
                Err(true) => return,
                Err(false) => {}
            }
            self.sound_jobs.remove(0);
        }
    }

    /// One step back, animated (the events of the step left, unapplied in reverse order).
    pub fn back(&mut self, now: f64, speed: Speed) {
        let Some(step) = self.step.checked_sub(1) else { return };
        let (Some(Ok(r)), Some(m)) = (&self.record, &mut self.mirror) else { return self.jump(step) };
        m.begin_step();
        let undone = r.events.iter().rev().try_for_each(|e| m.try_unapply(e).map_err(|e| e.to_string()));
        if let Err(e) = undone {
            self.jump(step);
            self.mirror_note = Some(format!("step {}'s events do not unapply: {e}", step + 1));
            return;
        }
        self.clock = Clock::start(now, m.phases(), speed);
        self.outlined = Some(self.step);
        self.step = step;
        self.mirror_note = None;
        self.state = self.log.state_at(step).map_err(|e| text(&e));
        self.record = (step > 0).then(|| self.read(step));
    }

    /// Starts [`tessera_replay::verify`]: on a thread when `background`, else now. On a
    /// divergence the cursor jumps to its step.
    pub fn start_verify(&mut self, background: bool) {
        if self.verify == VerifyStatus::Running {
            return;
        }
        if !background {
            let result = tessera_replay::verify(&self.log).map_err(|e| text(&e));
            self.finish_verify(result);
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let log = Arc::clone(&self.log);
        let spawned = std::thread::Builder::new().name("tessera-verify".into()).spawn(move || {
            // The receiver may be gone (another log opened): nothing to report to then.
            let _ = tx.send(tessera_replay::verify(&log).map_err(|e| text(&e)));
        });
        match spawned {
            Ok(_) => {
                self.verify = VerifyStatus::Running;
                self.verify_rx = Some(rx);
            }
            Err(e) => self.verify = VerifyStatus::Done(Err(format!("cannot start the verify thread: {e}"))),
        }
    }

    /// Takes the background verify's result if it has come; `true` when it just did.
    pub fn poll_verify(&mut self) -> bool {
        let Some(rx) = &self.verify_rx else { return false };
        let result = match rx.try_recv() {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return false,
            Err(TryRecvError::Disconnected) => Err("the verify thread stopped without a result".into()),
        };
        self.verify_rx = None;
        self.finish_verify(result);
        true
    }

    fn finish_verify(&mut self, result: Result<VerifyReport, String>) {
        if let Ok(r) = &result
            && let Some(d) = &r.divergence
        {
            self.jump(d.step);
        }
        self.verify = VerifyStatus::Done(result);
    }

    /// The notes about the shown step.
    pub fn notes_here(&self) -> impl Iterator<Item = &str> {
        notes_at(&self.log, self.step)
    }

    /// Adds a note about the shown step to the log (in memory: see [`Debugger::save`]).
    pub fn add_note(&mut self, note: &str) -> Result<(), String> {
        let note = note.trim();
        if note.is_empty() {
            return Err("the note is empty".into());
        }
        let bytes = self.log.with_note(self.step, note).map_err(|e| text(&e))?;
        let log = Log::from_bytes(bytes, TailPolicy::Strict).map_err(|e| text(&e))?;
        self.log = Arc::new(log);
        self.unsaved = true;
        Ok(())
    }

    /// Writes the log (with its notes) atomically to `path`, or to the file it came from; the
    /// log then belongs to that file.
    pub fn save(&mut self, path: Option<&Path>) -> Result<PathBuf, String> {
        let target = path
            .or(self.path.as_deref())
            .map(Path::to_path_buf)
            .ok_or("this log came from memory: give a path to save it to")?;
        atomic_write(&target, self.log.whole_bytes()).map_err(|e| format!("{}: {e}", target.display()))?;
        self.path = Some(target.clone());
        self.unsaved = false;
        Ok(target)
    }

    /// Writes the log's animated GIF (a frame a turn, `tessera replay gif`'s renderer and
    /// defaults) atomically to `path`, or beside the file the log came from (its name with
    /// `.gif`); says what it wrote.
    pub fn save_gif(&self, path: Option<&Path>) -> Result<String, String> {
        let target = path
            .map(Path::to_path_buf)
            .or_else(|| self.path.as_ref().map(|p| p.with_extension("gif")))
            .ok_or("this log came from memory: give a path to save its GIF to")?;
        let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", target.display());
        let gif = tessera_replay::gif::log_gif(&self.log, &Default::default()).map_err(|e| fail(&e))?;
        atomic_write(&target, &gif.bytes).map_err(|e| fail(&e))?;
        Ok(format!("saved {} ({} frames, {}×{} pixels)", target.display(), gif.frames, gif.width, gif.height))
    }

    /// A play session continuing from the shown step: the log's line of play as a history,
    /// at this step (the rest of the line stays in it, for redo and as a branch).
    pub fn play_from_here(&self) -> Result<Session, String> {
        let mut history = History::from_log(&self.log).map_err(|e| text(&e))?;
        history.seek(self.step).map_err(|e| e.to_string())?;
        let h = self.log.header();
        Ok(Session::from_history(h.level.clone(), h.seed, history))
    }
}

/// The sounds step `cmd` makes from `before`, its turns `again_interval` apart as Play plays
/// them (at once at Instant); `None` for a silent step or a game without sounds.
pub(super) fn step_sounds(
    rules: &tessera_core::AnyRules,
    before: &AnyState,
    cmd: &tessera_core::AnyCommand,
    events: &[AnyEvent],
    now: f64,
    speed: Speed,
) -> Option<crate::audio::StepSounds> {
    let game = crate::games::of(rules.rule_set())?;
    let turns = game.step_sounds(rules, before, cmd);
    if turns.iter().all(Vec::is_empty) {
        return None;
    }
    let secs = match (speed, game.turn_frames(rules, events)) {
        (Speed::Instant, _) | (_, None) => 0.0,
        (_, Some((_, secs))) => secs * speed.phase_secs() / Speed::Normal.phase_secs(),
    };
    Some(crate::audio::StepSounds { start: now, secs, turns })
}

pub(super) fn apply_all(m: &mut Mirror, events: &[AnyEvent]) -> Result<(), String> {
    for (i, e) in events.iter().enumerate() {
        m.try_apply(e).map_err(|err| format!("event {} does not fit the board: {err}", i + 1))?;
    }
    Ok(())
}

pub(super) fn notes_at(log: &Log, step: u64) -> impl Iterator<Item = &str> {
    let notes = log.notes();
    let from = notes.partition_point(|n| n.step < step);
    notes[from..].iter().take_while(move |n| n.step == step).map(|n| n.text.as_str())
}
