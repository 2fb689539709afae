//! Play mode: the board taking moves, walks, undo and redo, and the panel of controls beside it.

use super::dialogs::message_box;
use super::*;
use crate::anim::Speed;
use crate::games::{self, PlayAction};

impl EditorApp {
    /// Clicks board cell `p` in Play, as the pointer would (the screenshot hook and tests).
    pub fn click_cell(&mut self, p: tessera_core::Pos, now: f64) {
        let input = crate::board::BoardInput { clicked: Some(p), hovered: Some(p), swipe: None };
        let cmd = self.play.board_command(self.session.history().rules(), self.session.state(), &input);
        if let Some(cmd) = cmd {
            self.execute(&cmd, now);
        }
    }

    /// Shows the board as if the pointer were over cell `p`, wherever the pointer is (the group,
    /// path or score preview; for the screenshot hook).
    pub fn hover_cell(&mut self, p: tessera_core::Pos) {
        self.pinned_hover = Some(p);
    }

    /// Undoes a step of play.
    pub fn undo(&mut self, now: f64) {
        self.cancel_step();
        self.walk.clear();
        if self.session.undo(now, self.settings.speed) {
            self.play.clear();
            self.notice = None;
            self.console_back("undo");
        }
    }

    /// Says in the console (of a game written as text) that `what` (undo, redo, restart) took
    /// the game to another step.
    pub(super) fn console_back(&mut self, what: &str) {
        if self.has_source() {
            let step = self.session.history().step();
            self.console.extend([crate::console::ConsoleLine::new(
                crate::console::Kind::Step,
                format!("{what}: at step {step}"),
                None,
            )]);
        }
    }

    /// Redoes a step of play.
    pub fn redo(&mut self, now: f64) {
        self.cancel_step();
        self.walk.clear();
        if self.session.redo(now, self.settings.speed) {
            self.play.clear();
            self.notice = None;
            self.console_back("redo");
        }
    }

    /// Plays `cmd` at time `now` (seconds of egui time), animating it; a refusal shows in the
    /// status bar.
    pub fn execute(&mut self, cmd: &tessera_core::AnyCommand, now: f64) {
        self.walk.clear();
        self.play_step(cmd, now);
    }

    /// Whether a solution is being shown, step by step.
    pub fn walking(&self) -> bool {
        !self.walk.is_empty()
    }

    /// Plays the next step of the solution being shown, once the last one has been animated and
    /// no message waits; a refused step ends the walk and says why.
    pub(super) fn walk_on(&mut self, ctx: &egui::Context, now: f64) {
        if self.walk.is_empty() {
            return;
        }
        ctx.request_repaint();
        if now < self.walk_at
            || self.session.clock().running(now)
            || self.session.turns_running(now)
            || self.play.message.is_some()
            || self.session.running().is_some()
            || self.dialog_open()
        {
            return;
        }
        if let Some(cmd) = self.walk.pop_front() {
            let step = self.walk_len - self.walk.len();
            self.walk_at = now + WALK_PHASES * self.settings.speed.phase_secs();
            if !self.play_step(&cmd, now) {
                self.walk.clear();
                let why = self.notice().map(|n| n.text.clone()).unwrap_or_default();
                self.say(format!("The solution stopped at its step {step} ({cmd}): {why}"), false);
            }
        }
    }

    /// Plays `cmd`, animating it; whether the rules took it (a refusal shows in the status bar).
    /// The step runs on a worker thread: one that takes longer than [`EditorApp::step_wait`]
    /// goes on while the UI draws (with Cancel), and [`EditorApp::take_step`] takes it.
    pub(super) fn play_step(&mut self, cmd: &tessera_core::AnyCommand, now: f64) -> bool {
        self.start_step(cmd, now, false)
    }

    /// [`Self::play_step`], or for the game's clock (`clock`), a step that says nothing when it
    /// changes nothing.
    fn start_step(&mut self, cmd: &tessera_core::AnyCommand, now: f64, clock: bool) -> bool {
        self.session.rules_tried = self.console.verbose;
        match self.session.start(cmd, now, self.settings.speed, self.step_wait) {
            crate::session::Started::Done(Err(r)) if clock && r.code == "no_change" => false,
            crate::session::Started::Done(result) => self.step_done(cmd, result),
            crate::session::Started::Running => {
                self.clock_running = clock;
                true
            }
        }
    }

    /// Takes the step running on its worker once it ends; a refused one stops a walk.
    pub(super) fn take_step(&mut self, ctx: &egui::Context, now: f64) {
        if self.session.running().is_none() {
            return;
        }
        match self.session.poll(now, self.settings.speed) {
            Some((cmd, result)) => {
                // (a tick of the clock that changes nothing: nothing to say)
                let clock = std::mem::take(&mut self.clock_running);
                if clock && matches!(&result, Err(r) if r.code == "no_change") {
                    return;
                }
                if !self.step_done(&cmd, result) {
                    self.walk.clear();
                }
            }
            None => ctx.request_repaint_after(std::time::Duration::from_millis(50)),
        }
    }

    /// Plays a step of the game's clock ([`PlayAction::Clock`]): not while a step runs or a
    /// solution is shown; one that changes nothing says nothing.
    fn clock_step(&mut self, cmd: &tessera_core::AnyCommand, now: f64) {
        if self.session.running().is_none() && self.walk.is_empty() {
            self.start_step(cmd, now, true);
        }
    }

    /// Cancels the step running on its worker: nothing of it is kept.
    pub fn cancel_step(&mut self) {
        self.clock_running = false;
        if self.session.cancel() {
            self.walk.clear();
            self.say("Cancelled the step: nothing changed".into(), false);
        }
    }

    /// What a step's end shows: its messages and console lines, or why it was refused.
    fn step_done(
        &mut self,
        cmd: &tessera_core::AnyCommand,
        result: Result<Vec<String>, tessera_core::Rejected>,
    ) -> bool {
        match result {
            Ok(said) => {
                self.console_step();
                self.notice = None;
                self.play.hint = None;
                if !said.is_empty() {
                    self.play.show_messages(said);
                }
                if !games::of(self.session.state().rule_set()).is_some_and(|g| g.keeps_selection()) {
                    self.play.selected = None;
                }
                true
            }
            Err(r) => {
                self.say(format!("refused: {}", r.message), false);
                if self.has_source() {
                    let line = format!("{cmd}: refused ({})", r.message);
                    self.console.extend([crate::console::ConsoleLine::new(
                        crate::console::Kind::Cancel,
                        line,
                        None,
                    )]);
                }
                false
            }
        }
    }

    pub(super) fn play_ui(&mut self, ui: &mut egui::Ui, now: f64) {
        self.walk_on(ui.ctx(), now);
        egui::Panel::right("play-controls").resizable(true).default_size(230.0).show(ui, |ui| {
            self.play_controls(ui, now);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            let clock = *self.session.clock();
            let at = clock.at(now);
            let (rules, state) = (self.session.history().rules(), self.session.state());
            // The overlay follows the cell hovered in the last frame.
            let overlay = self.play.overlay(rules, state, self.last_hover);
            // While a step's turns play out (PuzzleScript's again), the board of the turn shown.
            let shown = self.session.shown_state(now);
            let input = self.board.show_game(ui, self.session.mirror(), Some(rules), shown, at, &overlay);
            if self.session.turns_running(now) {
                ui.ctx().request_repaint();
            }
            self.last_hover = self.pinned_hover.or(input.hovered);
            if let Some(text) = &self.play.message {
                // The message over the board, as PuzzleScript shows it; a click dismisses it.
                let board = ui.min_rect();
                let colours = games::of(rules.rule_set()).and_then(|g| g.message_colours(rules));
                message_box(ui, board, text, colours);
                if ui.input(|i| i.pointer.primary_clicked()) && ui.rect_contains_pointer(board) {
                    self.play.dismiss_message();
                }
            } else if let Some(cmd) = self.play.board_command(rules, state, &input) {
                self.execute(&cmd, now);
            }
            if clock.running(now) {
                ui.ctx().request_repaint();
            }
        });
    }

    pub(super) fn play_controls(&mut self, ui: &mut egui::Ui, now: f64) {
        ui.heading("Play");
        ui.horizontal(|ui| {
            let can_undo = self.session.history().can_undo();
            if ui.add_enabled(can_undo, egui::Button::new("Undo")).on_hover_text("Ctrl+Z").clicked() {
                self.undo(now);
            }
            let can_redo = self.session.history().can_redo();
            if ui
                .add_enabled(can_redo, egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Shift+Z or Ctrl+Y")
                .clicked()
            {
                self.redo(now);
            }
        });
        // The line is always there (empty but for a walk), so Hint and the rest stay put when
        // a walk starts and ends (issue 36.6).
        games::fixed_line(ui, |ui| {
            if let Some((cmd, for_)) = self.session.running() {
                ui.spinner();
                ui.label(format!("Running the step '{cmd}': {:.1} s", for_.as_secs_f32()));
                if ui.button("Cancel").on_hover_text("Drop the step: nothing of it is kept").clicked() {
                    self.cancel_step();
                }
            } else if !self.walk.is_empty() {
                let step = self.walk_len - self.walk.len();
                ui.label(format!("Showing the solution: step {step} of {}", self.walk_len));
                if ui.button("Stop").on_hover_text("Stop here (any step, Undo or Redo also stops)").clicked()
                {
                    self.walk.clear();
                }
                let hint = "The whole solution, from the position it started from, as an animated GIF \
                            (docs/gif.md)";
                if ui.button("Save GIF…").on_hover_text(hint).clicked() {
                    self.solution_gif = self.walk_from.clone();
                    let dir = self.start_dir();
                    self.picker = Some(FilePicker::new(Purpose::SaveSolutionGif, dir, "solution.gif"));
                }
            }
        });
        let (rules, state) = (self.session.history().rules(), self.session.state());
        let action = games::of(rules.rule_set()).and_then(|g| g.play_panel(ui, rules, state, &mut self.play));
        match action {
            Some(PlayAction::Execute(cmd)) => self.execute(&cmd, now),
            Some(PlayAction::Clock(cmd)) => self.clock_step(&cmd, now),
            Some(PlayAction::Notice(n)) => self.say(n, false),
            Some(PlayAction::Lost(n)) => self.say(n, true),
            Some(PlayAction::Walk(steps)) => {
                self.notice = None;
                self.walk_from = Some((self.session.state().clone(), steps.clone()));
                self.walk_len = steps.len();
                self.walk = steps.into();
            }
            Some(PlayAction::SaveGif(steps)) => {
                self.solution_gif = Some((self.session.state().clone(), steps));
                let dir = self.start_dir();
                self.picker = Some(FilePicker::new(Purpose::SaveSolutionGif, dir, "solution.gif"));
            }
            Some(PlayAction::Open(level, title)) => {
                let seed = self.session.seed();
                self.open_level(level, seed, &title);
            }
            Some(PlayAction::OpenAfterMessage(level, title, messages)) => {
                let seed = self.session.seed();
                if self.open_level(level, seed, &title) {
                    self.play.show_messages(messages);
                }
            }
            None => {}
        }
        ui.separator();
        let uses_seed = games::of(self.session.state().rule_set())
            .is_none_or(|g| g.level_uses_seed(self.session.level()));
        if uses_seed {
            ui.horizontal(|ui| {
                let label = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut self.new_seed)).labelled_by(label.id);
            });
        }
        ui.horizontal(|ui| {
            // A level without chance has one game: New game would only wipe the line of play
            // that Restart keeps (issue 63.12), so only a level with a seed offers it.
            if uses_seed
                && ui.button("New game").on_hover_text("Start this level again with the seed above").clicked()
            {
                self.new_game(self.new_seed);
            }
            if ui.button("Restart").on_hover_text("Back to step 0; the line of play stays for redo").clicked()
            {
                self.session.restart();
                self.play.clear();
                self.console_back("restart");
            }
        });
        ui.horizontal(|ui| {
            ui.label("Speed");
            for s in Speed::ALL {
                ui.selectable_value(&mut self.settings.speed, s, s.label());
            }
        });
        if ui
            .button("Fit board")
            .on_hover_text("Also: double right-click. Scroll zooms, right-drag pans.")
            .clicked()
        {
            self.board.fit();
        }
        ui.separator();
        self.branches_ui(ui);
    }

    pub(super) fn branches_ui(&mut self, ui: &mut egui::Ui) {
        let branches = self.session.history().branches();
        ui.label(format!("Branches ({})", branches.len()));
        let mut switch = None;
        egui::ScrollArea::vertical().id_salt("branches").max_height(200.0).show(ui, |ui| {
            for (i, b) in branches.iter().enumerate() {
                ui.horizontal(|ui| {
                    let text = format!("#{} · {} steps · forks at {}", i + 1, b.steps, b.fork);
                    if b.current {
                        ui.strong(format!("{text} (current)"));
                    } else {
                        ui.label(text);
                        if ui.small_button(format!("Switch to #{}", i + 1)).clicked() {
                            switch = Some(b.tip);
                        }
                    }
                });
            }
        });
        if let Some(tip) = switch {
            if let Err(e) = self.session.switch_to(tip) {
                self.error = Some(e.to_string());
            }
            self.play.clear();
        }
    }
}
