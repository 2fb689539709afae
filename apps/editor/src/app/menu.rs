//! The menu bar and the window-wide shortcuts, and the "changed on disk" bar.

use super::*;
use crate::edit::EditAction;
use crate::files::{FilePicker, Purpose};
use crate::games::{self};
use crate::play::PlayInput;
use crate::session::Session;
use tessera_core::Level;

impl EditorApp {
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context, now: f64) {
        if self.mode != Mode::Play || self.dialog_open() || ctx.egui_wants_keyboard_input() {
            return;
        }
        use egui::{Key, KeyboardShortcut, Modifiers};
        let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
        let redo_z = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        // The longer shortcut first: Ctrl+Shift+Z also matches Ctrl+Z's keys.
        if ctx.input_mut(|i| i.consume_shortcut(&redo_z) || i.consume_shortcut(&redo_y)) {
            self.redo(now);
        } else if ctx.input_mut(|i| i.consume_shortcut(&undo)) {
            self.undo(now);
        } else if self.play.message.is_none()
            && games::of(self.session.state().rule_set()).is_some_and(|g| g.z_undoes())
            && ctx.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Z))
        {
            // PuzzleScript's Z.
            self.undo(now);
        } else if self.play.message.is_some() {
            // A message waits for a key (any) before play goes on.
            if ctx.input(|i| i.events.iter().any(|e| matches!(e, egui::Event::Key { pressed: true, .. }))) {
                self.play.dismiss_message();
            }
        } else if let Some(cmd) = PlayInput::key_command(self.session.history().rules(), ctx) {
            self.execute(&cmd, now);
        }
    }

    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| {
                    if ui.button("Open…").clicked() {
                        let dir = self.start_dir();
                        self.picker = Some(FilePicker::new(Purpose::Open, dir, ""));
                    }
                    ui.menu_button("New game", |ui| {
                        for (name, source) in crate::games::EXAMPLES {
                            if ui.button(*name).clicked() {
                                if self.edit.dirty() {
                                    self.error = Some("save or undo the level's edits first".into());
                                } else {
                                    self.new_source_game(source);
                                }
                            }
                        }
                    });
                    if ui.button("Save level as…").clicked() {
                        self.edit_action(EditAction::SaveAs);
                    }
                    if self.has_source() && ui.button("Save game source as…").clicked() {
                        self.ask_save_game_source();
                    }
                    if self.has_source() {
                        if ui
                            .button("Export playable game…")
                            .on_hover_text("One HTML file that plays the game")
                            .clicked()
                        {
                            let dir = self.start_dir();
                            self.picker = Some(FilePicker::new(Purpose::ExportGame, dir, "game.html"));
                        }
                        if ui.button("Play in browser").clicked() {
                            self.play_in_browser();
                        }
                    }
                    if ui.button("Save log…").clicked() {
                        let dir = self.start_dir();
                        self.picker = Some(FilePicker::new(Purpose::SaveLog, dir, "session.tlog"));
                    }
                    if ui
                        .button("Save GIF…")
                        .on_hover_text("The line of play as an animated GIF, a frame a turn (docs/gif.md)")
                        .clicked()
                    {
                        let dir = self.start_dir();
                        self.picker = Some(FilePicker::new(Purpose::SaveGif, dir, "session.gif"));
                    }
                    let at = self.collection_position();
                    let has_next = at.is_some_and(|(i, n)| i + 1 < n);
                    if ui.add_enabled(has_next, egui::Button::new("Next level")).clicked() {
                        self.step_collection(true);
                    }
                    let has_previous = at.is_some_and(|(i, _)| i > 0);
                    if ui.add_enabled(has_previous, egui::Button::new("Previous level")).clicked() {
                        self.step_collection(false);
                    }
                    ui.menu_button("Recent", |ui| {
                        if self.settings.recent.is_empty() {
                            ui.label("Nothing yet");
                        }
                        let mut chosen = None;
                        for p in &self.settings.recent {
                            if ui.button(p.display().to_string()).clicked() {
                                chosen = Some(p.clone());
                            }
                        }
                        if let Some(p) = chosen {
                            self.open(&p);
                        }
                    });
                    if ui.button("Default level").clicked() {
                        if let Ok(s) = Session::new(Level::classic(), 0) {
                            self.set_session(s);
                            self.title = "classic 2048 (built in)".into();
                        }
                        self.mode = Mode::Play;
                    }
                });
                ui.separator();
                for (mode, label) in
                    [(Mode::Edit, "Edit"), (Mode::Play, "Play"), (Mode::Debug, "Debug"), (Mode::Pack, "Pack")]
                {
                    if ui.selectable_label(self.mode == mode, label).clicked() && self.mode != mode {
                        self.set_mode(mode);
                    }
                }
                ui.separator();
                if self.has_source() && self.mode != Mode::Pack {
                    let mut shown = !self.settings.source_hidden;
                    ui.toggle_value(&mut shown, "Source").on_hover_text("The game's source beside the board");
                    self.settings.source_hidden = !shown;
                    let mut console = !self.settings.console_hidden;
                    ui.toggle_value(&mut console, "Console")
                        .on_hover_text("What the rules did, step by step");
                    self.settings.console_hidden = !console;
                    ui.toggle_value(&mut self.generate.open, "Generate")
                        .on_hover_text("New levels from the rules, each proved by the solver");
                    ui.separator();
                } else if self.can_generate() && matches!(self.mode, Mode::Edit | Mode::Play) {
                    ui.toggle_value(&mut self.generate.open, "Generate")
                        .on_hover_text("New levels by the rule set's generator, each proved or playtested");
                    ui.separator();
                }
                ui.label(&self.sent_title);
                if self.mode == Mode::Play {
                    self.changed_ui(ui);
                }
                if matches!(self.mode, Mode::Play | Mode::Edit)
                    && let Some((play, edit)) = self.levels_shown()
                {
                    let warn = ui.visuals().warn_fg_color;
                    ui.colored_label(warn, format!("· Play shows level {play}, Edit level {edit}"));
                }
            });
        });
    }

    /// After the title in Play: what changed since the game started, and the way to play it.
    pub(super) fn changed_ui(&mut self, ui: &mut egui::Ui) {
        let warn = ui.visuals().warn_fg_color;
        match self.play_changed() {
            None => {}
            Some(Changed::Disk(path)) => {
                ui.colored_label(warn, "· the file changed on disk since this game started");
                if ui.small_button("Reload").on_hover_text(format!("Open {} again", path.display())).clicked()
                {
                    self.open(&path);
                }
            }
            Some(Changed::Edit) => {
                ui.colored_label(warn, "· Edit has changes this game does not have");
                let problem = self.edit.problem().map(|p| p.message.clone());
                let button =
                    ui.add_enabled(problem.is_none(), egui::Button::new("Play the edited level").small());
                let button = match &problem {
                    Some(p) => button.on_disabled_hover_text(format!("It does not play yet: {p}")),
                    None => button.on_hover_text("Start a game of the level as Edit has it"),
                };
                if button.clicked() {
                    let seed = self.session.seed();
                    self.edit_action(EditAction::Play(self.edit.draft().to_level(), seed));
                }
            }
        }
    }
}
