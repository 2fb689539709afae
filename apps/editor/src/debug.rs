//! Debug mode: the time-travel debugger over a log.
//!
//! The model ([`Debugger`]: the log, the step shown, the state, the mirror, the verify result,
//! notes) knows no egui; [`DebugView`] draws it and turns clicks and keys into its calls.
//!
//! Decisions:
//! - **States come from the log, never from a replay from step 0.** The state at the cursor is
//!   always [`Log::state_at`] (the nearest keyframe plus at most a keyframe interval of recorded
//!   events, and the step's recorded hash checked). A step by one also moves the mirror by one
//!   step, animated: forward applies the step's events to the mirror, back unapplies the events of
//!   the step left. Any other move (the slider, a click on a far row, Home/End, a verify jump)
//!   rebuilds the mirror from `state_at(s - 1)` and applies step `s`'s events, unanimated, so the
//!   cells step `s` touched are outlined wherever the cursor lands.
//! - **The outline** is [`tessera_ecs::Mirror::touched`] of the step last applied or unapplied:
//!   step `s` after a move forward or a jump, step `s + 1` (the step undone) after a step back. The
//!   inspector names which step it is.
//! - **Bad logs never panic.** A step that does not decode, whose events do not fit the board, or
//!   whose recorded hash is not the hash of the replayed state shows its error in its row, in the
//!   inspector and where the board would be; events the mirror refuses ([`Mirror::try_apply`])
//!   make the mirror rebuild from the state and say so.
//! - **Verify** runs [`tessera_replay::verify`] synchronously for logs below
//!   [`DebugConfig::background_verify_from`] steps (at ~400 k steps/s on a busy machine, 20,000
//!   steps take about 50 ms) and on a thread otherwise, the window showing a spinner and staying
//!   live; the result comes back over a channel polled every frame. On a divergence the cursor
//!   jumps to the first divergent step and the inspector shows the recorded and today's events
//!   side by side, with both hashes.
//! - **Notes** are added to the log in memory ([`Log::with_note`], then the bytes are opened
//!   again, strictly), so the list and inspector show them at once; "Save log" writes the bytes
//!   with [`tessera_replay::atomic_write`] to the file the log came from, or to a path the user
//!   types for a log that came from memory. A log opened with a cut tail is saved without it.
//! - **Pin as regression test…** copies the log with [`tessera_replay::pin`], which verifies
//!   it first: now for a log below [`DebugConfig::background_verify_from`] steps, on a thread
//!   otherwise (Pin disabled and a spinner meanwhile), as Verify does.
//! - **Play from here** builds a [`History`] from the whole log (`History::from_log`, O(steps):
//!   about 1 s for a million steps), seeks it to the shown step and hands it to Play; the log's
//!   own line stays in the history, as the branch redo walks until a new command forks it.

use crate::anim::{Clock, Speed};
use crate::board::{BoardView, Overlay};
use crate::find::{self, FilterJob, Query};
use crate::session::Session;
use egui::{Color32, Key, RichText, Sense, pos2, vec2};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};
use tessera_core::{AnyEvent, AnyState, Pos, Rules};
use tessera_ecs::Mirror;
use tessera_replay::{History, Log, LogError, StepRecord, TailPolicy, VerifyReport, atomic_write};

/// What the debugger asks the app to do.
pub enum DebugAction {
    /// Continue from the shown step as a new branch, in Play.
    PlayFromHere(Box<Session>),
    /// Show this line of the game's source in Edit's rules panel (a rule that fired, clicked).
    ShowSourceLine(u32),
}

/// Settings of the debugger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugConfig {
    /// Logs of at least this many steps are verified on a background thread.
    pub background_verify_from: u64,
}

impl Default for DebugConfig {
    fn default() -> Self {
        DebugConfig { background_verify_from: 20_000 }
    }
}

/// Where verification of the open log stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyStatus {
    /// Not run on this log.
    NotRun,
    /// Running on a background thread.
    Running,
    /// Finished: the report, or why the log could not be checked.
    Done(Result<VerifyReport, String>),
}

impl VerifyStatus {
    /// One line for the status bar.
    pub fn summary(&self) -> String {
        match self {
            VerifyStatus::NotRun => "not verified".into(),
            VerifyStatus::Running => "verifying…".into(),
            VerifyStatus::Done(Err(e)) => format!("verify failed: {e}"),
            VerifyStatus::Done(Ok(r)) => match &r.divergence {
                None => format!("verified: all {} steps replay", r.steps),
                Some(d) => format!("diverges at step {}", d.step),
            },
        }
    }
}

/// The time-travel debugger's model: a log, the step shown and everything shown about it.
pub struct Debugger {
    log: Arc<Log>,
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
    start_hash: Option<u64>,
    /// The sounds of the steps shown one step forward at a time, for the app to play.
    sounds: Vec<crate::audio::StepSounds>,
}

fn text(e: &LogError) -> String {
    e.to_string()
}

impl Debugger {
    /// The debugger over `log` (read from `path`, if from a file), at step 0.
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
        };
        d.start_hash = d.log.state_at(0).ok().map(|s| s.hash());
        d.jump(0);
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
            self.sounds.extend(step_sounds(self.log.rules(), before, cmd, &r.events, now, speed));
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
        std::mem::take(&mut self.sounds)
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
fn step_sounds(
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

fn apply_all(m: &mut Mirror, events: &[AnyEvent]) -> Result<(), String> {
    for (i, e) in events.iter().enumerate() {
        m.try_apply(e).map_err(|err| format!("event {} does not fit the board: {err}", i + 1))?;
    }
    Ok(())
}

fn notes_at(log: &Log, step: u64) -> impl Iterator<Item = &str> {
    let notes = log.notes();
    let from = notes.partition_point(|n| n.step < step);
    notes[from..].iter().take_while(move |n| n.step == step).map(|n| n.text.as_str())
}

/// The name of an event (its variant).
fn event_name(e: &AnyEvent) -> String {
    match e.to_json() {
        serde_json::Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
        serde_json::Value::String(s) => s,
        v => v.to_string(),
    }
}

/// The events in a few words: each kind with its count, in order of first appearance.
pub fn events_summary(events: &[AnyEvent]) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for e in events {
        let name = event_name(e);
        match kinds.iter_mut().find(|(k, _)| *k == name) {
            Some((_, n)) => *n += 1,
            None => kinds.push((name, 1)),
        }
    }
    let parts: Vec<String> =
        kinds.into_iter().map(|(k, n)| if n > 1 { format!("{k}×{n}") } else { k }).collect();
    if parts.is_empty() { "no events".into() } else { parts.join(" ") }
}

/// One row of the step list: the step number, note mark and command; its events in a few
/// words on a second line; its recorded hash at the right. Lines too long for the column end
/// with "…", and hovering the row shows all of it.
struct StepRow {
    head: String,
    events: String,
    hash: String,
    /// The step does not decode (`events` says why).
    bad: bool,
}

impl StepRow {
    /// Draws the row, `height` points high; selected when it is the step shown.
    fn show(self, ui: &mut egui::Ui, height: f32, selected: bool) -> egui::Response {
        let (rect, response) = ui.allocate_exact_size(vec2(ui.available_width(), height), Sense::click());
        let full = if self.hash.is_empty() {
            format!("{}\n{}", self.head, self.events.trim_start())
        } else {
            format!("{}\n{}\nhash {}", self.head, self.events.trim_start(), self.hash)
        };
        response.widget_info(|| {
            egui::WidgetInfo::selected(
                egui::Role::Button,
                ui.is_enabled(),
                selected,
                full.replace('\n', "  "),
            )
        });
        if ui.is_rect_visible(rect) {
            let visuals = ui.visuals();
            let painter = ui.painter_at(rect);
            if selected {
                painter.rect_filled(rect, 2.0, visuals.selection.bg_fill);
            } else if response.hovered() {
                painter.rect_filled(rect, 2.0, visuals.widgets.hovered.weak_bg_fill);
            }
            let text = if self.bad {
                visuals.error_fg_color
            } else if selected {
                visuals.selection.stroke.color
            } else {
                visuals.text_color()
            };
            let font = egui::TextStyle::Monospace.resolve(ui.style());
            let pad = 4.0;
            let layout = |s: String, colour: Color32, width: f32| {
                let mut job = egui::text::LayoutJob::simple_singleline(s, font.clone(), colour);
                job.wrap = egui::text::TextWrapping::truncate_at_width(width.max(0.0));
                ui.fonts_mut(|f| f.layout_job(job))
            };
            let width = rect.width() - 2.0 * pad;
            let hash = layout(self.hash, Color32::GRAY, width);
            let head = layout(self.head, text, width - hash.size().x - 8.0);
            let events = layout(self.events, text.gamma_multiply(0.75), width);
            let top = rect.min + vec2(pad, 2.0);
            painter.galley(pos2(rect.max.x - pad - hash.size().x, top.y), hash, Color32::GRAY);
            painter.galley(top, head, text);
            painter.galley(top + vec2(0.0, rect.height() / 2.0 - 2.0), events, text);
        }
        response.on_hover_text(egui::RichText::new(full).monospace())
    }
}

/// The debugger's panel: the model, the board's view and what the user is typing.
#[derive(Default)]
pub struct DebugView {
    debugger: Option<Debugger>,
    board: BoardView,
    config: DebugConfig,
    note: String,
    save_path: String,
    /// The outcome of the last action (an error or a notice), shown under the controls.
    message: Option<(bool, String)>,
    /// Scroll the step list to the cursor on the next frame.
    scroll_to_cursor: bool,
    /// The rows the step list showed in the last frame.
    visible_rows: std::ops::Range<usize>,
    /// The filter box, its scan and its results.
    filter: Filter,
    /// The cell whose history is shown (and its scan).
    cell: CellHistory,
    /// The "Pin as regression test…" form, when open.
    pin: Option<PinForm>,
    /// A pin verifying on a thread (logs of [`DebugConfig::background_verify_from`] steps or
    /// more): its result comes back here, polled every frame.
    pin_rx: Option<std::sync::mpsc::Receiver<Result<tessera_replay::Pinned, String>>>,
    /// The board cell whose context menu is open, and where.
    menu: Option<(Pos, egui::Pos2)>,
    /// The rule that fired picked in the inspector (step, turn, rule in the turn): its cells are
    /// outlined on the board instead of the step's.
    fired: Option<(u64, usize, usize)>,
    /// What the inspector asked for this frame.
    action: Option<DebugAction>,
}

/// The filter over the step list.
#[derive(Default)]
struct Filter {
    text: String,
    job: Option<FilterJob>,
    /// The last scan's results (step numbers in order), or its error.
    results: Option<Result<Vec<u64>, String>>,
    /// What the results are for, as typed.
    shown_query: String,
    /// The query the results are for (to say why a step matched).
    query: Option<Query>,
    /// The step list shows only the results.
    only_matches: bool,
}

/// Cell history: the steps whose events touched one cell.
#[derive(Default)]
struct CellHistory {
    cell: Option<Pos>,
    job: Option<FilterJob>,
    steps: Option<Result<Vec<u64>, String>>,
    /// Jump to the last touch at or before the cursor when the scan ends (Alt+click).
    jump_when_done: bool,
    /// The step the last jump landed on: a jump from there goes further back.
    landed: Option<u64>,
    /// Scroll the list to the current step on the next frame (when it arrives).
    scroll: bool,
}

/// The fields of "Pin as regression test…".
struct PinForm {
    name: String,
    folder: String,
    note: String,
}

impl DebugView {
    /// Takes the sounds of the steps played forward since the last call ([`Debugger::take_sounds`]).
    pub fn take_sounds(&mut self) -> Vec<crate::audio::StepSounds> {
        self.debugger.as_mut().map(Debugger::take_sounds).unwrap_or_default()
    }

    /// Opens `log` (read from `path`, if from a file), paused at step 0.
    pub fn open_log(&mut self, log: Log, path: Option<PathBuf>) {
        self.save_path = path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
        self.debugger = Some(Debugger::new(log, path));
        self.filter = Filter { text: std::mem::take(&mut self.filter.text), ..Filter::default() };
        self.cell = CellHistory::default();
        self.pin = None;
        self.pin_rx = None;
        self.menu = None;
        self.board.fit();
        self.note.clear();
        self.message = None;
        self.scroll_to_cursor = true;
    }

    /// Whether a log is open.
    pub fn is_open(&self) -> bool {
        self.debugger.is_some()
    }

    /// The model of the open log.
    pub fn debugger(&self) -> Option<&Debugger> {
        self.debugger.as_ref()
    }

    /// The board's view (where cells are on screen).
    pub fn board(&self) -> &BoardView {
        &self.board
    }

    /// The settings.
    pub fn config_mut(&mut self) -> &mut DebugConfig {
        &mut self.config
    }

    /// The filter's results: steps in order (`None` before any filter ran or while it runs).
    pub fn filter_results(&self) -> Option<Result<&[u64], &str>> {
        self.filter.results.as_ref().map(|r| r.as_ref().map(Vec::as_slice).map_err(String::as_str))
    }

    /// Whether a filter or cell-history scan is running.
    pub fn scanning(&self) -> bool {
        self.filter.job.is_some() || self.cell.job.is_some()
    }

    /// The cell whose history is shown, and the steps that touched it (once scanned).
    pub fn cell_history(&self) -> Option<(Pos, Option<&[u64]>)> {
        let cell = self.cell.cell?;
        Some((cell, self.cell.steps.as_ref().and_then(|r| r.as_ref().ok()).map(Vec::as_slice)))
    }

    /// Starts the filter `text` (as typed in the box) on a thread.
    pub fn set_filter(&mut self, text: &str) {
        self.filter.text = text.to_string();
        self.start_filter();
    }

    fn start_filter(&mut self) {
        let Some(d) = &self.debugger else { return };
        self.filter.shown_query = self.filter.text.trim().to_string();
        self.filter.query = None;
        let size = d.mirror().map(Mirror::size);
        let rule_set = d.log().header().rule_set;
        let game = crate::games::of(rule_set);
        let parsed = self.filter.text.parse::<Query>().map(|mut q| {
            // Words the game recognises (a PuzzleScript object's name) test the events.
            if let (Some(g), Ok(state)) = (game, d.state()) {
                q.resolve(|w| g.event_filter(state, w));
            }
            q
        });
        match parsed.and_then(|q| q.check(rule_set, size).map(|()| q)) {
            Ok(q) if q.is_empty() => {
                self.filter.job = None;
                self.filter.results = None;
            }
            Ok(q) => {
                self.filter.results = None;
                self.filter.query = Some(q.clone());
                self.filter.job = Some(FilterJob::start(d.shared_log(), q));
            }
            Err(e) => {
                self.filter.job = None;
                self.filter.results = Some(Err(format!("filter {e}")));
            }
        }
    }

    /// Shows the history of `cell`; with `jump`, goes to the last step at or before the cursor
    /// that touched it (again: the one before), once the scan is done.
    pub fn show_cell_history(&mut self, cell: Pos, jump: bool) {
        let Some(d) = &mut self.debugger else { return };
        if self.cell.cell == Some(cell)
            && let Some(Ok(steps)) = &self.cell.steps
        {
            if jump {
                let again = self.cell.landed == Some(d.step());
                if let Some(s) = find::last_touch(steps, d.step(), again) {
                    d.jump(s);
                    self.cell.landed = Some(s);
                    self.cell.scroll = true;
                    self.scroll_to_cursor = true;
                } else {
                    self.message = Some((
                        false,
                        format!("no step before {} changed cell ({}, {})", d.step(), cell.x, cell.y),
                    ));
                }
            }
            return;
        }
        self.cell = CellHistory {
            cell: Some(cell),
            job: Some(FilterJob::start(d.shared_log(), Query::cell(cell))),
            steps: None,
            jump_when_done: jump,
            landed: None,
            scroll: false,
        };
    }

    /// Next (`forward`) or previous filter result from the cursor, wrapping.
    pub fn next_result(&mut self, forward: bool) {
        let Some(Ok(results)) = &self.filter.results else { return };
        let Some(d) = &mut self.debugger else { return };
        let target = if forward {
            find::next_after(results, d.step())
        } else {
            find::previous_before(results, d.step())
        };
        if let Some(s) = target {
            d.jump(s);
            self.scroll_to_cursor = true;
        }
    }

    /// Receives finished scans; true while one runs.
    fn poll_scans(&mut self) -> bool {
        if let Some(job) = &self.filter.job
            && let Some(r) = job.poll()
        {
            self.filter.job = None;
            if let Some(r) = r.transpose() {
                // Find goes to the first result.
                if let (Ok(results), Some(d)) = (&r, &mut self.debugger)
                    && let Some(&first) = results.first()
                {
                    d.jump(first);
                    self.scroll_to_cursor = true;
                }
                self.filter.results = Some(r);
            }
        }
        if let Some(job) = &self.cell.job
            && let Some(r) = job.poll()
        {
            self.cell.job = None;
            if let Some(r) = r.transpose() {
                self.cell.steps = Some(r);
                self.cell.scroll = true;
                if std::mem::take(&mut self.cell.jump_when_done)
                    && let Some(cell) = self.cell.cell
                {
                    self.show_cell_history(cell, true);
                }
            }
        }
        self.scanning()
    }

    /// Copies the open log into `folder` as a regression test named `name` (see
    /// [`tessera_replay::pin`], which verifies it first), now; the message says what was
    /// written.
    pub fn pin(&mut self, folder: &Path, name: &str, note: &str) -> Result<PathBuf, String> {
        let Some(d) = &self.debugger else { return Err("no log open".into()) };
        let source = d.path().map_or_else(|| PathBuf::from("unsaved.tlog"), Path::to_path_buf);
        let r = tessera_replay::pin(d.log(), &source, folder, name, note).map_err(|e| e.to_string());
        self.finish_pin(r)
    }

    /// [`DebugView::pin`] for the form: now for a log of fewer than
    /// [`DebugConfig::background_verify_from`] steps, else on a thread (verifying a million
    /// steps takes about a second), the window staying live; [`DebugView::poll_pin`] takes the
    /// result. The form closes when the pin succeeds.
    pub fn start_pin(&mut self, folder: PathBuf, name: String, note: String) {
        let Some(d) = &self.debugger else { return };
        if self.pin_rx.is_some() {
            return;
        }
        if d.steps() < self.config.background_verify_from {
            if self.pin(&folder, &name, &note).is_ok() {
                self.pin = None;
            }
            return;
        }
        let source = d.path().map_or_else(|| PathBuf::from("unsaved.tlog"), Path::to_path_buf);
        let log = d.shared_log();
        let steps = d.steps();
        let (tx, rx) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new().name("tessera-pin".into()).spawn(move || {
            // The receiver may be gone (another log opened): the copy is written all the same.
            let _ =
                tx.send(tessera_replay::pin(&log, &source, &folder, &name, &note).map_err(|e| e.to_string()));
        });
        match spawned {
            Ok(_) => {
                self.pin_rx = Some(rx);
                self.message = Some((false, format!("pinning: verifying {steps} steps…")));
            }
            Err(e) => self.message = Some((true, format!("not pinned: cannot start the pin thread: {e}"))),
        }
    }

    /// Takes a background pin's result if it has come; `true` while one is still running.
    pub fn poll_pin(&mut self) -> bool {
        let Some(rx) = &self.pin_rx else { return false };
        let result = match rx.try_recv() {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return true,
            Err(TryRecvError::Disconnected) => Err("the pin thread stopped without a result".into()),
        };
        self.pin_rx = None;
        if self.finish_pin(result).is_ok() {
            self.pin = None;
        }
        false
    }

    /// Whether a pin is verifying on a thread.
    pub fn pinning(&self) -> bool {
        self.pin_rx.is_some()
    }

    fn finish_pin(&mut self, r: Result<tessera_replay::Pinned, String>) -> Result<PathBuf, String> {
        self.message = Some(match &r {
            Ok(p) => (false, format!("pinned as {} (with {})", p.log.display(), p.sidecar.display())),
            Err(e) => (true, format!("not pinned: {e}")),
        });
        r.map(|p| p.log)
    }

    /// The last action's error or notice (`(is_error, text)`).
    pub fn message(&self) -> Option<(bool, &str)> {
        self.message.as_ref().map(|(e, m)| (*e, m.as_str()))
    }

    /// Jumps to `step` (no animation) and scrolls the list to it.
    pub fn seek(&mut self, step: u64) {
        if let Some(d) = &mut self.debugger {
            d.jump(step);
            self.scroll_to_cursor = true;
        }
    }

    fn go(&mut self, step: u64, now: f64, speed: Speed, scroll: bool) {
        if let Some(d) = &mut self.debugger {
            d.go(step, now, speed);
            self.scroll_to_cursor |= scroll;
        }
    }

    fn keys(&mut self, ctx: &egui::Context, now: f64, speed: Speed) {
        if self.debugger.is_none() {
            return;
        }
        // Next / Previous filter result: F3 / Shift+F3 (also from the filter box).
        let f3 = ctx.input_mut(|i| {
            if i.consume_key(egui::Modifiers::SHIFT, Key::F3) {
                Some(false)
            } else if i.consume_key(egui::Modifiers::NONE, Key::F3) {
                Some(true)
            } else {
                None
            }
        });
        if let Some(forward) = f3 {
            self.next_result(forward);
        }
        let Some(d) = &self.debugger else { return };
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let (step, steps) = (d.step(), d.steps());
        let target = ctx.input(|i| {
            if i.modifiers.command || i.modifiers.alt {
                None
            } else if i.key_pressed(Key::ArrowLeft) {
                Some(step.saturating_sub(1))
            } else if i.key_pressed(Key::ArrowRight) {
                Some(step + 1)
            } else if i.key_pressed(Key::Home) {
                Some(0)
            } else if i.key_pressed(Key::End) {
                Some(steps)
            } else {
                None
            }
        });
        if let Some(t) = target {
            self.go(t, now, speed, true);
        }
    }

    /// Draws the debugger in the space left by the app's bars.
    pub fn ui(&mut self, ui: &mut egui::Ui, speed: Speed) -> Option<DebugAction> {
        let now = ui.input(|i| i.time);
        let Some(d) = &mut self.debugger else {
            egui::CentralPanel::default().show(ui, |ui| {
                ui.label("No log open: File > Open… a .tlog, or play and switch to Debug.");
            });
            return None;
        };
        if d.poll_verify() {
            self.scroll_to_cursor = true;
        }
        if d.verify_status() == &VerifyStatus::Running {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        if self.poll_scans() {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(50));
        }
        if self.poll_pin() {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        self.keys(ui.ctx(), now, speed);
        self.status_line(ui);
        let action = self.controls(ui, now, speed);
        // The board keeps at least a third of the width: the step list and the inspector are
        // narrowed when the window (or the source pane beside them) leaves less.
        let side = (ui.available_width() / 3.0).clamp(180.0, 1000.0);
        egui::Panel::left("debug-steps")
            .resizable(true)
            .default_size(430.0f32.min(side))
            .size_range(180.0f32.min(side)..=side)
            .show(ui, |ui| {
                self.step_list(ui, now, speed);
            });
        egui::Panel::right("debug-inspector")
            .resizable(true)
            .default_size(380.0f32.min(side))
            .size_range(180.0f32.min(side)..=side)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().id_salt("inspector").show(ui, |ui| self.inspector(ui));
            });
        egui::CentralPanel::default().show(ui, |ui| self.board_ui(ui, now));
        action.or_else(|| self.action.take())
    }

    fn status_line(&self, ui: &mut egui::Ui) {
        let Some(d) = &self.debugger else { return };
        let h = d.log().header();
        egui::Panel::bottom("debug-status").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("Step {} / {}", d.step(), d.steps()));
                ui.separator();
                ui.label(h.rule_set.name());
                ui.separator();
                let today = h.rule_set.version();
                if h.rules_version == today {
                    ui.label(format!("rules v{}", h.rules_version));
                } else if d.log().rules_version() == h.rules_version {
                    ui.label(format!("rules v{} (kept; today v{today})", h.rules_version))
                        .on_hover_text("Recorded by an older version of the rules, which this build keeps: it replays exactly.");
                } else {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        format!("rules v{} (today v{today})", h.rules_version),
                    );
                }
                ui.separator();
                match d.state() {
                    Ok(s) => ui.monospace(format!("hash {:016x}", s.hash())),
                    Err(_) => ui.colored_label(ui.visuals().error_fg_color, "no state"),
                };
                ui.separator();
                if d.verify_status() == &VerifyStatus::Running {
                    ui.spinner();
                }
                ui.label(d.verify_status().summary());
                if d.dropped_bytes() > 0 {
                    ui.separator();
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        format!("{} bytes of a cut last frame dropped", d.dropped_bytes()),
                    );
                }
                if d.unsaved() {
                    ui.separator();
                    ui.label("unsaved notes");
                }
            });
        });
    }

    fn controls(&mut self, ui: &mut egui::Ui, now: f64, speed: Speed) -> Option<DebugAction> {
        let mut action = None;
        let mut target = None;
        egui::Panel::top("debug-controls").show(ui, |ui| {
            let Some(d) = &mut self.debugger else { return };
            let (step, steps) = (d.step(), d.steps());
            ui.horizontal(|ui| {
                if ui.add_enabled(step > 0, egui::Button::new("Start")).on_hover_text("Home").clicked() {
                    target = Some(0);
                }
                if ui
                    .add_enabled(step > 0, egui::Button::new("Step back"))
                    .on_hover_text("Left arrow")
                    .clicked()
                {
                    target = Some(step - 1);
                }
                if ui
                    .add_enabled(step < steps, egui::Button::new("Step forward"))
                    .on_hover_text("Right arrow")
                    .clicked()
                {
                    target = Some(step + 1);
                }
                if ui.add_enabled(step < steps, egui::Button::new("End")).on_hover_text("End").clicked() {
                    target = Some(steps);
                }
                // The actions at the right edge first, then the slider in the room left: the
                // buttons are never clipped, whatever the window's width or the step count.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    let running = d.verify_status() == &VerifyStatus::Running;
                    let hint = "Copy this log (with its notes) into a regression folder that tessera replay check and cargo test run";
                    if ui.button("Pin as regression test…").on_hover_text(hint).clicked() {
                        let name = d.path().map_or_else(|| "regression".into(), tessera_replay::default_name);
                        self.pin = Some(PinForm {
                            name,
                            folder: tessera_replay::DEFAULT_REGRESSION_DIR.into(),
                            note: String::new(),
                        });
                    }
                    let hint = "Continue from this step in Play, as a new branch (the log's line stays)";
                    if ui.button("Play from here").on_hover_text(hint).clicked() {
                        match d.play_from_here() {
                            Ok(s) => action = Some(DebugAction::PlayFromHere(Box::new(s))),
                            Err(e) => self.message = Some((true, format!("cannot play from step {step}: {e}"))),
                        }
                    }
                    let hint = "Re-execute the log with today's rules and find the first divergence";
                    if ui.add_enabled(!running, egui::Button::new("Verify")).on_hover_text(hint).clicked() {
                        d.start_verify(steps >= self.config.background_verify_from);
                        self.scroll_to_cursor = true;
                    }
                    ui.separator();
                    let mut value = step;
                    ui.spacing_mut().slider_width = (ui.available_width() - 110.0).max(60.0);
                    // A log of no steps: the thumb at the start (a range 0..=0 would draw it
                    // in the middle), disabled.
                    let range = 0..=steps.max(1);
                    let slider =
                        ui.add_enabled(steps > 0, egui::Slider::new(&mut value, range).text("Step").integer());
                    if slider.changed() && value != step {
                        target = Some(value);
                    }
                });
            });
            if let Some(t) = timeline(ui, d) {
                target = Some(t);
            }
            if let Some(form) = &mut self.pin {
                let mut pin = false;
                let mut close = false;
                ui.horizontal(|ui| {
                    let l = ui.label("Name");
                    ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(160.0)).labelled_by(l.id);
                    let l = ui.label("Folder");
                    ui.add(egui::TextEdit::singleline(&mut form.folder).desired_width(200.0)).labelled_by(l.id);
                    let l = ui.label("Guards");
                    ui.add(
                        egui::TextEdit::singleline(&mut form.note)
                            .hint_text("what this log guards")
                            .desired_width(240.0),
                    )
                    .labelled_by(l.id);
                    let busy = self.pin_rx.is_some();
                    pin = ui.add_enabled(!busy, egui::Button::new("Pin")).clicked();
                    if busy {
                        ui.spinner();
                    }
                    close = ui.add_enabled(!busy, egui::Button::new("Cancel")).clicked();
                });
                if pin {
                    let (folder, name, note) = (PathBuf::from(form.folder.trim()), form.name.trim().to_string(), form.note.clone());
                    self.start_pin(folder, name, note);
                } else if close {
                    self.pin = None;
                }
            }
            if let Some((is_error, m)) = &self.message {
                let colour = if *is_error { ui.visuals().error_fg_color } else { ui.visuals().text_color() };
                ui.colored_label(colour, m);
            }
        });
        if let Some(t) = target {
            self.go(t, now, speed, true);
        }
        action
    }

    fn step_list(&mut self, ui: &mut egui::Ui, now: f64, speed: Speed) {
        if self.debugger.is_none() {
            return;
        }
        ui.heading("Steps");
        if let Some(s) = self.filter_ui(ui) {
            self.go(s, now, speed, true);
        }
        if let Some(s) = self.bookmarks_ui(ui) {
            self.go(s, now, speed, true);
        }
        let Some(d) = &self.debugger else { return };
        let log = d.log();
        // With "Only matches", the rows are the filter's results.
        let only: Option<&[u64]> = match &self.filter.results {
            Some(Ok(r)) if self.filter.only_matches => Some(r),
            _ => None,
        };
        let rows = match only {
            Some(r) => r.len(),
            None => usize::try_from(d.steps()).unwrap_or(usize::MAX - 1).saturating_add(1),
        };
        let step_of = |row: usize| only.map_or(row as u64, |r| r[row]);
        // Two lines a row: the step, its command and hash; under them its events.
        let line_h = ui.text_style_height(&egui::TextStyle::Monospace);
        let row_h = 2.0 * line_h + 4.0;
        let row_step = row_h + ui.spacing().item_spacing.y;
        let cursor = match only {
            Some(r) => r.partition_point(|&s| s < d.step()),
            None => usize::try_from(d.step()).unwrap_or(usize::MAX),
        };
        let mut area = egui::ScrollArea::vertical().id_salt("debug-step-list").auto_shrink([false, false]);
        if std::mem::take(&mut self.scroll_to_cursor) {
            let visible = &self.visible_rows;
            // Leave a row of margin: the first and last rows shown may be cut.
            let inside = visible.start < cursor && cursor + 2 < visible.end;
            if !inside {
                let in_view = visible.len().saturating_sub(2).max(1) as f32;
                let offset = (cursor as f32 - in_view / 2.0).max(0.0) * row_step;
                area = area.vertical_scroll_offset(offset);
            }
        }
        let start_hash = d.start_hash.map_or_else(|| "—".into(), |h| format!("{h:016x}"));
        let mut clicked = None;
        let out = area.show_rows(ui, row_h, rows, |ui, range| {
            let mut rec = StepRecord::default();
            for row in range.clone() {
                let s = step_of(row);
                let noted = notes_at(log, s).next().is_some();
                let mark = if noted { "*" } else { " " };
                let step_row = if s == 0 {
                    StepRow {
                        head: format!("{s:>7} {mark} start"),
                        events: String::new(),
                        hash: start_hash.clone(),
                        bad: false,
                    }
                } else {
                    match log.read_step(s, &mut rec) {
                        Ok(()) => {
                            let cmd = rec.command.as_ref().map_or_else(|| "?".into(), ToString::to_string);
                            StepRow {
                                head: format!("{s:>7} {mark} {cmd}"),
                                events: format!("{:>9} {}", "", events_summary(&rec.events)),
                                hash: format!("{:016x}", rec.hash),
                                bad: false,
                            }
                        }
                        Err(e) => StepRow {
                            head: format!("{s:>7} {mark} error"),
                            events: format!("{:>9} {e}", ""),
                            hash: String::new(),
                            bad: true,
                        },
                    }
                };
                if step_row.show(ui, row_h, s == d.step()).clicked() {
                    clicked = Some(s);
                }
            }
            range
        });
        self.visible_rows = out.inner;
        if let Some(s) = clicked {
            self.go(s, now, speed, false);
        }
    }

    /// The filter box, its progress, its results with counts and Next / Previous. Returns a
    /// step to go to.
    fn filter_ui(&mut self, ui: &mut egui::Ui) -> Option<u64> {
        let mut go = None;
        let hint = "text of the command, event:KIND (event:Matched.cascade>=3), score>=N, cell:X,Y, \
                    rule:LINE (a rule at that source line fired), an object's name (its cells changed)";
        ui.horizontal(|ui| {
            let label = ui.label("Filter");
            let edit = ui
                .add(egui::TextEdit::singleline(&mut self.filter.text).hint_text(hint).desired_width(220.0))
                .labelled_by(label.id)
                .on_hover_text(hint);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if ui.button("Find").clicked() || enter {
                self.start_filter();
            }
            let any = matches!(&self.filter.results, Some(Ok(r)) if !r.is_empty());
            if ui.add_enabled(any, egui::Button::new("Previous")).on_hover_text("Shift+F3").clicked() {
                self.next_result(false);
            }
            if ui.add_enabled(any, egui::Button::new("Next")).on_hover_text("F3").clicked() {
                self.next_result(true);
            }
        });
        if let Some(fraction) = self.filter.job.as_ref().map(FilterJob::fraction) {
            ui.horizontal(|ui| {
                ui.add(egui::ProgressBar::new(fraction).desired_width(200.0).show_percentage());
                if ui.button("Stop").clicked() {
                    self.filter.job = None;
                }
            });
        }
        let steps = self.debugger.as_ref().map_or(0, Debugger::steps);
        match &self.filter.results {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            Some(Ok(results)) => {
                ui.horizontal(|ui| {
                    ui.label(format!(
                        "{} of {steps} steps match '{}'",
                        results.len(),
                        self.filter.shown_query
                    ));
                    if ui
                        .checkbox(&mut self.filter.only_matches, "Only matches")
                        .on_hover_text("The step list shows only the matching steps")
                        .changed()
                    {
                        self.scroll_to_cursor = true;
                    }
                });
                if !results.is_empty() {
                    let row_h = ui.text_style_height(&egui::TextStyle::Button) + 2.0;
                    egui::ScrollArea::vertical().id_salt("debug-filter-results").max_height(120.0).show_rows(
                        ui,
                        row_h,
                        results.len(),
                        |ui, range| {
                            for &s in &results[range] {
                                if ui.small_button(format!("result: step {s}")).clicked() {
                                    go = Some(s);
                                }
                            }
                        },
                    );
                }
            }
        }
        ui.separator();
        go
    }

    /// The log's notes as bookmarks: one button per note. Returns a step to go to.
    fn bookmarks_ui(&mut self, ui: &mut egui::Ui) -> Option<u64> {
        let d = self.debugger.as_ref()?;
        let notes = d.log().notes();
        let mut go = None;
        egui::CollapsingHeader::new(format!("Bookmarks ({})", notes.len()))
            .id_salt("debug-bookmarks")
            .default_open(true)
            .show(ui, |ui| {
                if notes.is_empty() {
                    ui.weak("no notes in this log");
                }
                egui::ScrollArea::vertical().id_salt("debug-bookmark-list").max_height(100.0).show(
                    ui,
                    |ui| {
                        for n in notes {
                            let first = n.text.lines().next().unwrap_or_default();
                            if ui
                                .small_button(format!("bookmark: step {}: {first}", n.step))
                                .on_hover_text(&n.text)
                                .clicked()
                            {
                                go = Some(n.step);
                            }
                        }
                    },
                );
            });
        ui.separator();
        go
    }

    /// The cell history section of the inspector.
    fn cell_history_ui(&mut self, ui: &mut egui::Ui) {
        let Some(cell) = self.cell.cell else { return };
        ui.separator();
        let mut go = None;
        let mut close = false;
        ui.horizontal(|ui| {
            ui.strong(format!("Cell ({}, {}) history", cell.x, cell.y));
            close = ui.small_button("Close").clicked();
        });
        if let Some(job) = &self.cell.job {
            ui.add(egui::ProgressBar::new(job.fraction()).desired_width(200.0));
        }
        match &self.cell.steps {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            Some(Ok(steps)) => {
                let now = self.debugger.as_ref().map_or(0, Debugger::step);
                ui.label(format!("{} steps changed this cell", steps.len()));
                let row_h = ui.text_style_height(&egui::TextStyle::Button) + 2.0;
                let row_step = row_h + ui.spacing().item_spacing.y;
                // The list opens at the current step: the last change at or before it (marked).
                let here = steps.partition_point(|&s| s <= now).checked_sub(1);
                let mut area = egui::ScrollArea::vertical().id_salt("debug-cell-history").max_height(140.0);
                if std::mem::take(&mut self.cell.scroll) {
                    let row = here.unwrap_or(0) as f32;
                    area = area.vertical_scroll_offset((row - 2.0).max(0.0) * row_step);
                }
                area.show_rows(ui, row_h, steps.len(), |ui, range| {
                    for i in range {
                        let s = steps[i];
                        let text = format!("touched: step {s}");
                        let b =
                            egui::Button::new(egui::RichText::new(text).small()).selected(Some(i) == here);
                        if ui.add(b).clicked() {
                            go = Some(s);
                        }
                    }
                });
            }
        }
        if close {
            self.cell = CellHistory::default();
        }
        if let (Some(s), Some(d)) = (go, &mut self.debugger) {
            d.jump(s);
            self.scroll_to_cursor = true;
        }
    }

    /// Why the shown step is a filter result (a reason per term), if it is one.
    pub fn why_matched(&self) -> Option<Vec<String>> {
        let d = self.debugger.as_ref()?;
        let Some(Ok(results)) = &self.filter.results else { return None };
        let query = self.filter.query.as_ref()?;
        results.binary_search(&d.step()).ok()?;
        let rec = d.record()?.ok()?;
        Some(query.why(rec))
    }

    fn inspector(&mut self, ui: &mut egui::Ui) {
        let why = self.why_matched();
        let Some(d) = &mut self.debugger else { return };
        let log = Arc::clone(&d.log);
        let h = log.header();
        ui.heading(format!("Step {}", d.step()));
        if let Some(why) = why {
            ui.strong(format!("Matches '{}':", self.filter.shown_query));
            for w in why {
                ui.label(format!("• {w}"));
            }
        }
        self.rules_fired_ui(ui);
        let Some(d) = &mut self.debugger else { return };
        egui::Grid::new("debug-fields").num_columns(2).striped(true).show(ui, |ui| {
            ui.label("Rule set");
            ui.label(h.rule_set.name());
            ui.end_row();
            ui.label("Rules version");
            ui.label(format!("{} (today {})", h.rules_version, h.rule_set.version()));
            ui.end_row();
            ui.label("Seed");
            ui.label(h.seed.to_string());
            ui.end_row();
            if let Ok(s) = d.state() {
                if let Some(score) = crate::shown_score(s) {
                    ui.label("Score");
                    ui.label(score.to_string());
                    ui.end_row();
                }
                ui.label("Status");
                ui.label(log.rules().status(s).to_string());
                ui.end_row();
                for o in crate::objectives(log.rules(), s) {
                    ui.label("Objective");
                    ui.label(o);
                    ui.end_row();
                }
                ui.label("State hash");
                ui.monospace(format!("{:016x}", s.hash()));
                ui.end_row();
            }
            if let Some(Ok(r)) = d.record() {
                ui.label("Recorded hash");
                let same = d.state().is_ok_and(|s| s.hash() == r.hash);
                let mark = if same { "(matches the state)" } else { "(differs from the state)" };
                ui.monospace(format!("{:016x} {mark}", r.hash));
                ui.end_row();
            }
            if let Some(s) = d.outlined_step() {
                ui.label("Outlined");
                ui.label(format!("cells step {s} touched"));
                ui.end_row();
            }
        });
        if let Err(e) = d.state() {
            ui.colored_label(ui.visuals().error_fg_color, format!("Error: state: {e}"));
        }
        if let Some(n) = d.mirror_note() {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("Warning: board rebuilt from the state: {n}"),
            );
        }
        if let Ok(s) = d.state()
            && let Some(g) = crate::games::of(s.rule_set())
        {
            g.inspector_ui(ui, s);
        }
        self.divergence_ui(ui);
        self.cell_history_ui(ui);
        ui.separator();
        let Some(d) = &mut self.debugger else { return };
        ui.label("Notes here");
        let mut any = false;
        for n in d.notes_here() {
            ui.label(format!("Note: {n}"));
            any = true;
        }
        if !any {
            ui.weak("none");
        }
        let label = ui.label("New note");
        ui.add(
            egui::TextEdit::multiline(&mut self.note).hint_text("what happens at this step").desired_rows(2),
        )
        .labelled_by(label.id);
        ui.horizontal(|ui| {
            if ui.add_enabled(!self.note.trim().is_empty(), egui::Button::new("Add note")).clicked() {
                match d.add_note(&self.note) {
                    Ok(()) => {
                        self.message =
                            Some((false, format!("note added at step {} (not saved yet)", d.step())));
                        self.note.clear();
                    }
                    Err(e) => self.message = Some((true, e)),
                }
            }
            let hint = "Write the log with its notes (atomically) to the path below";
            if ui.button("Save log").on_hover_text(hint).clicked() {
                let typed = self.save_path.trim();
                let path = (!typed.is_empty()).then(|| PathBuf::from(typed));
                match d.save(path.as_deref()) {
                    Ok(p) => self.message = Some((false, format!("saved {}", p.display()))),
                    Err(e) => self.message = Some((true, e)),
                }
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Save to");
            ui.add(egui::TextEdit::singleline(&mut self.save_path).hint_text("path of a .tlog"))
                .labelled_by(label.id);
        });
        ui.separator();
        match d.record() {
            None => {
                ui.label("The start of the game.");
            }
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, format!("Error: step {}: {e}", d.step()));
            }
            Some(Ok(r)) => {
                let cmd = r.command.as_ref().map_or_else(|| "?".into(), ToString::to_string);
                ui.label(format!("Command: {cmd}"));
                ui.label(format!("Events ({})", r.events.len()));
                // In words where the rule set names its things (PuzzleScript's objects by name).
                let game = crate::games::of(d.log().header().rule_set);
                let state = d.state().ok();
                for e in &r.events {
                    let words = game.zip(state).and_then(|(g, s)| g.describe_event(s, e));
                    ui.monospace(words.unwrap_or_else(|| e.to_json().to_string()));
                }
            }
        }
        ui.separator();
        egui::CollapsingHeader::new("Board as text").default_open(true).show(ui, |ui| {
            if let Ok(s) = d.state() {
                ui.label(RichText::new(s.render()).monospace().size(11.0));
            }
        });
    }

    /// The shown step's turns and the rules that fired in each (rule sets whose rules are
    /// text, PuzzleScript): the line links to the rules panel, the rule's text picks it (its
    /// cells outlined on the board).
    fn rules_fired_ui(&mut self, ui: &mut egui::Ui) {
        let Some(d) = &self.debugger else { return };
        let rules = d.log().rules();
        let Some(game) = crate::games::of(d.log().header().rule_set) else { return };
        let Some(Ok(rec)) = d.record() else { return };
        let turns = game.rules_fired(rules, &rec.events);
        if turns.is_empty() {
            return;
        }
        let step = d.step();
        if self.fired.is_some_and(|(s, _, _)| s != step) {
            self.fired = None;
        }
        let count: usize = turns.iter().map(|t| t.rules.len()).sum();
        egui::CollapsingHeader::new(format!("Rules that fired ({count})"))
            .id_salt("debug-rules-fired")
            .default_open(true)
            .show(ui, |ui| {
                for (t, turn) in turns.iter().enumerate() {
                    let what =
                        if turn.index == 0 { "the input's turn".to_string() } else { "again".to_string() };
                    ui.strong(format!("Turn {} ({what})", turn.index));
                    if turn.rules.is_empty() {
                        ui.weak("no rule changed a cell");
                    }
                    for (r, rule) in turn.rules.iter().enumerate() {
                        ui.horizontal(|ui| {
                            let link = ui
                                .link(format!("line {}", rule.line))
                                .on_hover_text("Open the rules panel at this line");
                            if link.clicked() {
                                self.action = Some(DebugAction::ShowSourceLine(rule.line));
                            }
                            let picked = self.fired == Some((step, t, r));
                            let cells = rule.cells.len();
                            let text =
                                format!("{}  ({cells} cell{})", rule.text, if cells == 1 { "" } else { "s" });
                            // Wrapped at the panel's width, so a long rule does not widen the
                            // inspector over the board and can be read whole (it was cut with
                            // "…", issue 36.9).
                            let label = ui
                                .add(
                                    egui::Button::selectable(picked, RichText::new(&text).monospace()).wrap(),
                                )
                                .on_hover_text(format!("{text}\nClick: outline the cells this rule changed"));
                            if label.clicked() {
                                self.fired = if picked { None } else { Some((step, t, r)) };
                            }
                        });
                    }
                }
            });
    }

    /// The cells the picked rule that fired changed, when one is picked at the shown step.
    pub fn fired_cells(&self) -> Option<Vec<Pos>> {
        let d = self.debugger.as_ref()?;
        let (step, t, r) = self.fired?;
        if step != d.step() {
            return None;
        }
        let game = crate::games::of(d.log().header().rule_set)?;
        let rec = d.record()?.ok()?;
        let turns = game.rules_fired(d.log().rules(), &rec.events);
        Some(turns.get(t)?.rules.get(r)?.cells.clone())
    }

    fn divergence_ui(&mut self, ui: &mut egui::Ui) {
        let Some(d) = &mut self.debugger else { return };
        let VerifyStatus::Done(Ok(report)) = d.verify_status() else { return };
        let Some(div) = report.divergence.clone() else { return };
        ui.separator();
        ui.colored_label(ui.visuals().error_fg_color, format!("Diverges at step {}", div.step));
        let what = div.to_string();
        ui.label(what.lines().next().unwrap_or_default());
        if d.step() != div.step && ui.button(format!("Go to step {}", div.step)).clicked() {
            d.jump(div.step);
            self.scroll_to_cursor = true;
        }
        ui.columns(2, |cols| {
            let sides = [
                ("Recorded (the log)", &div.expected_events, div.expected_hash),
                ("Today's rules", &div.actual_events, div.actual_hash),
            ];
            for (ui, (title, events, hash)) in cols.iter_mut().zip(sides) {
                ui.strong(title);
                ui.monospace(format!("hash {hash:016x}"));
                if events.is_empty() {
                    ui.weak("no events");
                }
                for e in events {
                    ui.monospace(e.to_json().to_string());
                }
            }
        });
    }

    fn board_ui(&mut self, ui: &mut egui::Ui, now: f64) {
        let Some(d) = &self.debugger else { return };
        let Some(m) = d.mirror() else {
            ui.vertical_centered(|ui| {
                ui.add_space(40.0);
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("Error: no board at step {}", d.step()),
                );
                if let Err(e) = d.state() {
                    ui.label(e);
                }
                if let Some(Err(e)) = d.record() {
                    ui.label(e);
                }
            });
            return;
        };
        let highlights = self.fired_cells().unwrap_or_else(|| m.touched());
        let Some(d) = &self.debugger else { return };
        let Some(m) = d.mirror() else { return };
        let overlay = Overlay { highlights, ..Overlay::default() };
        let at = d.clock().at(now);
        // A state for the board's ground texture: the shown one, else the mirror draws alone.
        let input = match d.state() {
            Ok(s) => self.board.show_game(ui, m, Some(d.log().rules()), s, at, &overlay),
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, format!("Error: {e}"));
                match d.log().state_at(d.step().saturating_sub(1)) {
                    Ok(prev) => self.board.show_game(ui, m, Some(d.log().rules()), &prev, at, &overlay),
                    Err(_) => crate::board::BoardInput::default(),
                }
            }
        };
        if d.clock().running(now) {
            ui.ctx().request_repaint();
        }
        // Alt+click: the last step at or before this one that changed the cell (again: the one
        // before); a secondary click opens the cell's menu.
        let released = |button: egui::PointerButton| {
            ui.input(|i| {
                i.events.iter().find_map(|e| match e {
                    egui::Event::PointerButton { button: b, pressed: false, modifiers, pos }
                        if *b == button =>
                    {
                        Some((*modifiers, *pos))
                    }
                    _ => None,
                })
            })
        };
        if let Some(cell) = input.clicked
            && released(egui::PointerButton::Primary).is_some_and(|(m, _)| m.alt)
        {
            self.show_cell_history(cell, true);
        }
        if let Some(cell) = input.hovered
            && let Some((_, pos)) = released(egui::PointerButton::Secondary)
            && !ui.input(|i| i.pointer.is_decidedly_dragging())
        {
            self.menu = Some((cell, pos));
        }
        self.cell_menu(ui);
    }

    /// The context menu of a board cell.
    fn cell_menu(&mut self, ui: &mut egui::Ui) {
        let Some((cell, pos)) = self.menu else { return };
        let mut choice = None;
        let area = egui::Area::new(egui::Id::unique("debug-cell-menu"))
            .order(egui::Order::Foreground)
            .fixed_pos(pos)
            .show(ui.ctx(), |ui| {
                egui::Frame::menu(ui.style()).show(ui, |ui| {
                    ui.label(format!("Cell ({}, {})", cell.x, cell.y));
                    if ui.button("Last change of this cell").on_hover_text("Alt+click").clicked() {
                        choice = Some(true);
                    }
                    if ui.button("Cell history").clicked() {
                        choice = Some(false);
                    }
                });
            });
        let clicked_elsewhere = area.response.clicked_elsewhere();
        if let Some(jump) = choice {
            self.menu = None;
            self.show_cell_history(cell, jump);
        } else if clicked_elsewhere && ui.input(|i| !i.pointer.secondary_released()) {
            self.menu = None;
        }
    }
}

/// The timeline under the controls: the log's notes as marks (bookmarks) and the cursor; a
/// click near a mark returns its step.
fn timeline(ui: &mut egui::Ui, d: &Debugger) -> Option<u64> {
    let width = ui.available_width().max(50.0);
    let (rect, response) = ui.allocate_exact_size(vec2(width, 12.0), Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, "Timeline"));
    let response = response.on_hover_text("Click to go to that step (a bookmark, within a few pixels)");
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let steps = d.steps().max(1) as f32;
    let x_of = |s: u64| rect.left() + 4.0 + (rect.width() - 8.0) * (s as f32 / steps);
    let mark = Color32::from_rgb(240, 190, 40);
    for n in d.log().notes() {
        let x = x_of(n.step);
        painter.line_segment([pos2(x, rect.top()), pos2(x, rect.bottom())], (2.0, mark));
    }
    let x = x_of(d.step());
    painter.line_segment(
        [pos2(x, rect.top() + 3.0), pos2(x, rect.bottom() - 3.0)],
        (2.0, ui.visuals().text_color()),
    );
    if !response.clicked() {
        return None;
    }
    let px = response.interact_pointer_pos()?.x;
    // A click on (or within 6 px of) a bookmark goes to it; anywhere else, to the step there.
    let near = d
        .log()
        .notes()
        .iter()
        .map(|n| (n.step, (x_of(n.step) - px).abs()))
        .filter(|&(_, dx)| dx <= 6.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(s, _)| s);
    near.or_else(|| {
        let fraction = ((px - rect.left() - 4.0) / (rect.width() - 8.0)).clamp(0.0, 1.0);
        Some(((f64::from(fraction) * d.steps() as f64).round() as u64).min(d.steps()))
    })
}
