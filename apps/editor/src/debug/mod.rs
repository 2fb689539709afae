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
//!
//! The time-travel debugger, a file a pane: `debug/model.rs` (`Debugger`), `debug/mod.rs`
//! (`DebugView`: status line, controls, keys, the layout), `debug/steps.rs` (step list, timeline),
//! `debug/filter.rs` (filter box, bookmarks, cell history), `debug/inspector.rs`, `debug/board.rs`
//! (the board and its cell menu), `debug/pin.rs`. `Debugger` is the model (no egui): an `Arc<Log>`,
//! the step shown, its state (`Log::state_at`, never a replay from step 0), its record, the mirror,
//! the verify status, notes. A step by one moves the mirror one step, animated (apply forward,
//! unapply back); any other move rebuilds it from `state_at(s - 1)` and applies step `s`'s events,
//! so the cells step `s` touched are outlined. Steps that do not decode, events that do not fit
//! (`Mirror::try_apply`) and recorded hashes that do not match show as errors in the row, the
//! inspector and the board area; nothing panics. `DebugView` draws it: status line, controls
//! (Start, Step back, Step forward, End, the slider, Verify, Play from here; Left/Right/Home/End),
//! the step list (`ScrollArea::show_rows`, only visible rows read; two lines a row, cut with "…",
//! the whole text as the row's label and tooltip), the inspector (the rules that fired, by turn,
//! from `EditorGame::rules_fired`: a rule's text outlines its cells instead of the step's, its line
//! asks the app for `DebugAction::ShowSourceLine`; fields, hashes, command, events as JSON, notes,
//! the divergence side by side, the board as text) and the board. Verify runs on a thread from
//! `DebugConfig::background_verify_from` steps (20,000). Notes go through `Log::with_note` in
//! memory and `atomic_write` on "Save log". "Play from here" is `History::from_log` + `seek`
//! (O(steps)). Tests: `apps/editor/tests/debug.rs`; benchmark `apps/editor/benches/debug.rs` (open
//! a 1,000,000-step log and show step 999,999).

use crate::anim::Speed;
use crate::board::BoardView;
use crate::find::{FilterJob, Query};
use crate::session::Session;
use egui::Key;
use std::path::PathBuf;
use tessera_core::{AnyState, Pos};
use tessera_replay::{Log, VerifyReport};

mod board;
mod filter;
mod inspector;
mod model;
mod pin;
mod steps;

pub use model::Debugger;
pub use steps::events_summary;
use steps::timeline;

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
    /// "Board after this rule" picked in the inspector (step, turn, rule in the turn): the
    /// board shows it instead of the step's end.
    after_rule: Option<(u64, usize, usize)>,
    /// The shown step's boards after each rule (computed when first asked), by step.
    rule_boards: Option<(u64, Vec<Vec<AnyState>>)>,
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

    /// Whether a step's sounds are still being worked out.
    pub fn sounds_pending(&self) -> bool {
        self.debugger.as_ref().is_some_and(Debugger::sounds_pending)
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
        self.after_rule = None;
        self.rule_boards = None;
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
            // 340 points: at 1280 a 24×24 board keeps cells big enough for 3-digit labels.
            .default_size(340.0f32.min(side))
            .size_range(180.0f32.min(side)..=side)
            .show(ui, |ui| {
                self.step_list(ui, now, speed);
            });
        egui::Panel::right("debug-inspector")
            .resizable(true)
            .default_size(380.0f32.min(side))
            .size_range(180.0f32.min(side)..=side)
            .show(ui, |ui| {
                egui::ScrollArea::both().id_salt("inspector").show(ui, |ui| self.inspector(ui));
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
}
