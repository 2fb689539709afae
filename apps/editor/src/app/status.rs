//! The status bar and the message line over the board.

use super::*;
use tessera_core::Rules;

impl EditorApp {
    /// The status bar: a line about the level or game, then the message line — the error, or
    /// the mode's message — which is always there and one line high (long text is cut, the
    /// whole of it on hover), so a message coming or going never moves what is above it.
    /// The debugger and the Pack view have their own status lines; an error shows under them.
    pub(super) fn status_bar(&mut self, ui: &mut egui::Ui, now: f64) {
        if self.mode == Mode::Debug || self.mode == Mode::Pack {
            if self.error.is_some() {
                egui::Panel::bottom("error").show(ui, |ui| self.message_line(ui, now));
            }
            return;
        }
        egui::Panel::bottom("status").show(ui, |ui| {
            if self.mode == Mode::Edit {
                ui.horizontal(|ui| {
                    ui.add(egui::Label::new(self.edit.status()).truncate());
                });
            } else {
                let (state, history) = (self.session.state(), self.session.history());
                let rules = history.rules();
                ui.horizontal_wrapped(|ui| {
                    ui.label(state.rule_set().name());
                    ui.separator();
                    if let Some(score) = shown_score(state) {
                        ui.label(format!("Score {score}"));
                        ui.separator();
                    }
                    ui.label(format!("Status: {}", rules.status(state)));
                    ui.separator();
                    ui.label(format!("Step {} / {}", history.step(), history.len()));
                    ui.separator();
                    for o in objectives(rules, state) {
                        ui.label(o);
                        ui.separator();
                    }
                    ui.monospace(format!("hash {:016x}", state.hash()));
                    // Only games that make sounds have Mute and Volume.
                    if let Some(g) = crate::games::of(rules.rule_set())
                        && g.makes_sounds()
                    {
                        ui.separator();
                        crate::audio::controls_ui(ui, &mut self.audio, &|seed| g.seed_name(rules, seed));
                    }
                });
            }
            self.message_line(ui, now);
        });
    }

    /// The message line of the status bar: the error (with Dismiss), else the mode's message
    /// (Play's with Undo when the position is lost).
    pub(super) fn message_line(&mut self, ui: &mut egui::Ui, now: f64) {
        ui.horizontal(|ui| {
            ui.set_min_height(ui.spacing().interact_size.y);
            if let Some(e) = self.error.clone() {
                if ui.small_button("Dismiss").clicked() {
                    self.error = None;
                }
                let text = egui::RichText::new(format!("Error: {e}")).color(ui.visuals().error_fg_color);
                ui.add(egui::Label::new(text).truncate());
                return;
            }
            let message = match self.mode {
                Mode::Edit => self.edit.notice().map(|n| (n.to_string(), false)),
                Mode::Play => self.notice().map(|n| (n.text.clone(), n.undo)),
                Mode::Debug | Mode::Pack => None,
            };
            if let Some((text, undo)) = message {
                if undo
                    && ui
                        .add_enabled(
                            self.session.history().can_undo(),
                            egui::Button::new("Undo last move").small(),
                        )
                        .on_hover_text("Back a step (Ctrl+Z)")
                        .clicked()
                {
                    self.undo(now);
                }
                ui.add(egui::Label::new(text).truncate());
            }
        });
    }

    /// Play's message, if it is about the position on the board.
    pub(super) fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref().filter(|n| n.at == self.position())
    }

    /// The position Play is at: the step and the state hash.
    pub(super) fn position(&self) -> (u64, u64) {
        (self.session.history().step(), self.session.state().hash())
    }

    /// Says `text` in Play's status bar, about the position on the board (`undo`: offer Undo).
    pub(super) fn say(&mut self, text: String, undo: bool) {
        self.notice = Some(Notice { text, at: self.position(), undo });
    }

    /// The message the status bar shows now (the error first), for tests.
    pub fn message(&self) -> Option<String> {
        if let Some(e) = &self.error {
            return Some(format!("Error: {e}"));
        }
        match self.mode {
            Mode::Edit => self.edit.notice().map(str::to_string),
            Mode::Play => self.notice().map(|n| n.text.clone()),
            Mode::Debug | Mode::Pack => None,
        }
    }
}
