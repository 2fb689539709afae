//! The modal questions (unsaved changes, overwrite, recovery after a crash) and the file picker.
//!
//! `app/dialogs.rs` holds the question before a draft is saved over a file whose level plays
//! (`overwrite`), Play's `Source` (the level file's modification time and Edit's revision when the
//! game started; `play_changed` re-reads only when either moves) and messages keyed to what caused
//! them (Play's to the step and state hash, Edit's to the draft's revision). It holds the
//! unsaved-changes question (`Pending`: open another level, or close the window — `CancelClose`
//! until answered).

use super::*;
use crate::edit::EditAction;
use crate::files::{Opened, Purpose};
use crate::recovery::{Recovered, Recovery};
use std::path::{Path, PathBuf};
use tessera_core::Level;

/// A modal question with two buttons: `Some(true)` for the first (`yes`), `Some(false)` for the
/// second, `None` while unanswered. One layout for every question (issue 63.11): the safe
/// answer at the left, where the eye starts, the one that loses or overwrites something
/// (`risky_yes`: `yes` is it, else `no`) alone at the right edge, away from it. Escape answers
/// the safe one when that is a Cancel.
pub(super) fn ask(
    ctx: &egui::Context,
    id: &'static str,
    heading: &str,
    text: &str,
    (yes, no): (&str, &str),
    risky_yes: bool,
) -> Option<bool> {
    let mut answer = None;
    let (safe, risky) = if risky_yes { ((no, false), (yes, true)) } else { ((yes, true), (no, false)) };
    egui::Modal::new(egui::Id::unique(id)).show(ctx, |ui| {
        ui.set_width(460.0);
        ui.heading(heading);
        ui.label(text);
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button(safe.0).clicked() {
                answer = Some(safe.1);
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button(risky.0).clicked() {
                    answer = Some(risky.1);
                }
            });
        });
    });
    if answer.is_none()
        && safe.0 == "Cancel"
        && ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape))
    {
        answer = Some(safe.1);
    }
    answer
}

/// `text` over `board`, with how to go on (a PuzzleScript `message`): with the game's own
/// colours (background, text) a screen of them, as PuzzleScript shows a message; else a box
/// over the middle of the dimmed board.
pub(super) fn message_box(
    ui: &egui::Ui,
    board: egui::Rect,
    text: &str,
    colours: Option<(egui::Color32, egui::Color32)>,
) {
    let painter = ui.painter_at(board);
    let (back, fore) = colours.unwrap_or((egui::Color32::from_black_alpha(230), egui::Color32::WHITE));
    if colours.is_some() {
        painter.rect_filled(board, 0.0, back);
    } else {
        painter.rect_filled(board, 0.0, egui::Color32::from_black_alpha(170));
    }
    let wrap = (board.width() * 0.8).max(100.0);
    let mut job = egui::text::LayoutJob::simple(
        format!("{text}\n\n(press a key or click to continue)"),
        egui::FontId::proportional(20.0),
        fore,
        wrap,
    );
    job.halign = egui::Align::Center;
    let galley = painter.layout_job(job);
    let r = egui::Rect::from_center_size(board.center(), galley.size()).expand(16.0);
    if colours.is_none() {
        painter.rect_filled(r, 6.0, back);
    }
    painter.galley(egui::pos2(r.center().x, r.min.y + 16.0), galley, fore);
}

impl EditorApp {
    /// Keeps a copy of unsaved edits in `dir` ([`crate::recovery`]), at most `every` seconds
    /// behind, and offers back what an earlier run left there.
    pub fn enable_recovery(&mut self, dir: &Path, every: f64) {
        self.pack.enable_recovery(dir);
        self.recovered_pack = self.pack.left_over();
        let recovery = Recovery::new(dir, every);
        match recovery.left_over() {
            Ok(left) => self.recovered = left,
            Err(e) => self.error = Some(e),
        }
        self.recovery = Some(recovery);
    }

    /// Edits an earlier run left unsaved, while the editor asks what to do with them.
    pub fn recovered(&self) -> Option<&Recovered> {
        self.recovered.as_ref()
    }

    /// Answers the question about recovered edits: restore them in Edit mode, or discard them.
    pub fn answer_recovered(&mut self, restore: bool) {
        let Some(r) = self.recovered.take() else { return };
        if !restore {
            if let Some(rec) = &mut self.recovery
                && let Err(e) = rec.forget()
            {
                self.error = Some(e);
            }
            return;
        }
        let restored = Level::parse_draft(&r.level)
            .map_err(|e| e.to_string())
            .and_then(|level| self.edit.restore(&level, r.path.as_deref()));
        if restored.is_ok() {
            // A level of a game's file: Save game source writes that file again.
            self.edit.set_imported_from(r.game_source.as_deref());
            self.workbench.forget();
        }
        match restored {
            Ok(()) => {
                self.mode = Mode::Edit;
                self.title = r.path.as_ref().map_or("recovered level".into(), |p| p.display().to_string());
                self.edit.say(format!("restored unsaved edits ({})", r.describe()));
            }
            Err(e) => self.error = Some(format!("the recovered edits do not load: {e}")),
        }
    }

    /// The pack whose unsaved edits an earlier run left, while the editor asks about them.
    pub fn recovered_pack(&self) -> Option<&Path> {
        self.recovered_pack.as_deref()
    }

    /// Answers the question about a pack's recovered edits: open the pack with them (in the
    /// Pack view, marked unsaved), or discard them.
    pub fn answer_recovered_pack(&mut self, restore: bool) {
        let Some(path) = self.recovered_pack.take() else { return };
        if !restore {
            if let Err(e) = self.pack.discard_left_over() {
                self.error = Some(e);
            }
            return;
        }
        if !path.exists() {
            self.error = Some(format!(
                "the pack {} is gone, so its unsaved edits cannot be opened (they stay in the recovery file)",
                path.display()
            ));
            return;
        }
        self.open_now(&path);
    }

    /// The question about unsaved edits waiting for an answer, if any.
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// Answers the question about unsaved edits: `discard` goes on without saving, otherwise
    /// the question is dropped (Cancel).
    pub fn answer_pending(&mut self, discard: bool, ctx: &egui::Context) {
        let Some(p) = self.pending.take() else { return };
        if !discard {
            return;
        }
        match p {
            Pending::Open(path) => {
                self.open_now(&path);
                // The file's levels are offered next: the answer given holds for the level
                // picked (one question per action, issue 63.11).
                if let Some(c) = &mut self.choice {
                    c.discard_answered = true;
                }
            }
            Pending::OpenLevel(_, i) => {
                if let Some(mut c) = self.choice.take() {
                    c.selected = i;
                    self.open_from_collection(c);
                }
            }
            Pending::OpenLogGame => self.open_log_game_now(),
            Pending::Quit => {
                // Closing without saving: the edits are given up, so no recovery either (and
                // none kept in the frames left before the window closes).
                if let Some(mut rec) = self.recovery.take() {
                    let _ = rec.forget();
                }
                self.may_close = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Keeps the recovery file in step with the draft (not while recovered edits wait for an
    /// answer: they must not be overwritten).
    pub(super) fn keep_recovery(&mut self, ctx: &egui::Context, now: f64) {
        let Some(rec) = &mut self.recovery else { return };
        if self.recovered.is_some() {
            return;
        }
        match rec.tick(&self.edit, now) {
            Ok(Some(wait)) => ctx.request_repaint_after(std::time::Duration::from_secs_f64(wait)),
            Ok(None) => {}
            Err(e) => self.error = Some(e),
        }
    }

    /// The recovery questions, one at a time: a level's unsaved edits first, then a pack's.
    pub(super) fn recovered_ui(&mut self, ctx: &egui::Context) {
        if let Some(r) = &self.recovered {
            let text = format!("The editor closed before these edits were saved: {}.", r.describe());
            let buttons = ("Restore edits", "Discard edits");
            if let Some(restore) =
                ask(ctx, "recovered-edits", "Recover unsaved edits?", &text, buttons, false)
            {
                self.answer_recovered(restore);
            }
        } else if let Some(path) = &self.recovered_pack {
            let text = format!("The editor closed before edits to the pack {} were saved.", path.display());
            let buttons = ("Open pack with edits", "Discard pack edits");
            if let Some(restore) =
                ask(ctx, "recovered-pack", "Recover unsaved pack edits?", &text, buttons, false)
            {
                self.answer_recovered_pack(restore);
            }
        }
    }

    /// Saves the level being edited to `path` (what Save level, Ctrl+S and Save level as… do
    /// once a path is chosen). A draft that does not play, over a file whose level plays, is
    /// not saved before the user says so ([`EditorApp::overwrite_question`]).
    pub fn save_level(&mut self, path: &Path) {
        let problem = self.edit.problem().map(|p| p.message.clone());
        if let Some(reason) = problem
            && matches!(crate::files::open_path(path), Ok(Opened::Level(_)))
        {
            self.overwrite = Some((path.to_path_buf(), reason));
            return;
        }
        self.save_level_now(path);
    }

    /// The file a draft would be saved over, while the editor asks whether to (its level plays,
    /// the draft does not).
    pub fn overwrite_question(&self) -> Option<&Path> {
        self.overwrite.as_ref().map(|(p, _)| p.as_path())
    }

    /// Answers [`EditorApp::overwrite_question`]: save the draft over the file, or not.
    pub fn answer_overwrite(&mut self, save: bool) {
        let Some((path, _)) = self.overwrite.take() else { return };
        if save {
            self.save_level_now(&path);
        } else {
            self.edit.say(format!("not saved: {} still holds the level that plays", path.display()));
        }
    }

    pub(super) fn overwrite_ui(&mut self, ctx: &egui::Context) {
        let Some((path, reason)) = &self.overwrite else { return };
        let text = format!(
            "{} holds a level that plays. The level being edited does not play yet ({reason}). \
             Saving it there replaces the playable level with this draft.",
            path.display()
        );
        let buttons = ("Save the draft over it", "Cancel");
        if let Some(save) =
            ask(ctx, "overwrite-playable", "Save a draft over a playable level?", &text, buttons, true)
        {
            self.answer_overwrite(save);
        }
    }

    pub(super) fn save_level_now(&mut self, path: &Path) {
        match self.edit.save(path) {
            Ok(msg) => {
                self.edit.say(msg);
                self.title = path.display().to_string();
                self.remember(path);
            }
            Err(e) => self.error = Some(e),
        }
    }

    pub(super) fn pending_ui(&mut self, ctx: &egui::Context) {
        enum Answer {
            Save,
            Discard,
            Cancel,
        }
        let Some(p) = self.pending.clone() else { return };
        let what = match &p {
            Pending::Open(path) => format!("Open {} without saving?", path.display()),
            Pending::OpenLevel(path, i) => {
                format!("Open level {} of {} without saving?", i + 1, path.display())
            }
            Pending::Quit => "Quit without saving?".to_string(),
            Pending::OpenLogGame => "Open the log's game without saving?".to_string(),
        };
        let mut answer = None;
        // A level of a game's file is saved into that file.
        let game_source = self.edit.imported_from().is_some() && self.has_source();
        // One layout whatever the mode or the game (issue 63.11): Cancel at the left, Save
        // next to it saying which file it writes, Discard alone at the right edge.
        let writes = if game_source {
            self.edit.imported_from().map(|p| format!("Save writes the game's source into {}.", p.display()))
        } else {
            Some(match self.edit.path() {
                Some(p) => format!("Save writes the level into {}.", p.display()),
                None => "Save asks where to write the level.".to_string(),
            })
        };
        egui::Modal::new(egui::Id::unique("unsaved-changes")).show(ctx, |ui| {
            ui.set_width(520.0);
            ui.heading("Unsaved changes");
            ui.label(format!("The level being edited has changes that are not saved. {what}"));
            if let Some(w) = &writes {
                ui.label(w);
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Cancel").on_hover_text("Escape").clicked() {
                    answer = Some(Answer::Cancel);
                }
                if ui.button("Save").on_hover_text(writes.clone().unwrap_or_default()).clicked() {
                    answer = Some(Answer::Save);
                }
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.button("Discard changes").clicked() {
                        answer = Some(Answer::Discard);
                    }
                });
            });
        });
        if answer.is_none() && ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
            answer = Some(Answer::Cancel);
        }
        match answer {
            Some(Answer::Save) if game_source => match self.edit.save_game_source() {
                Ok(msg) => {
                    self.edit.say(msg);
                    let saved = !self.edit.dirty();
                    self.answer_pending(saved, ctx);
                }
                Err(e) => {
                    self.pending = None;
                    self.error = Some(e);
                }
            },
            Some(Answer::Save) => {
                // Save, then go on if the save worked; without a file, ask where first.
                match self.edit.path().map(Path::to_path_buf) {
                    Some(path) => {
                        self.save_level(&path);
                        let saved = !self.edit.dirty();
                        self.answer_pending(saved, ctx);
                    }
                    None => {
                        self.pending = None;
                        self.edit_action(EditAction::SaveAs);
                    }
                }
            }
            Some(Answer::Discard) => self.answer_pending(true, ctx),
            Some(Answer::Cancel) => self.answer_pending(false, ctx),
            None => {}
        }
    }

    /// Whether a dialog is showing (the file picker, the choice of a collection's level, the
    /// unsaved-changes or the recovery question): keys then go to it, never to the board behind
    /// it.
    pub fn dialog_open(&self) -> bool {
        self.picker.is_some()
            || self.choice.is_some()
            || self.pending.is_some()
            || self.overwrite.is_some()
            || self.recovered.is_some()
            || self.recovered_pack.is_some()
    }

    pub(super) fn start_dir(&self) -> PathBuf {
        self.settings
            .last_dir
            .clone()
            .filter(|d| d.is_dir())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."))
    }

    pub(super) fn picker_ui(&mut self, ctx: &egui::Context) {
        let Some(picker) = &mut self.picker else { return };
        let mut open = true;
        let chosen = picker.ui(ctx, &mut open);
        let purpose = picker.purpose;
        if !open {
            self.picker = None;
        }
        let Some(path) = chosen else { return };
        self.picker = None;
        match purpose {
            Purpose::Open => self.open(&path),
            Purpose::SaveLevel => self.save_level(&path),
            Purpose::SaveGameSource => self.save_game_source_as(&path),
            Purpose::ExportGame => self.export_game(&path),
            Purpose::SaveCollection => match self.save_collection(&path) {
                Ok(said) => {
                    self.tell(said);
                    self.remember(&path);
                }
                Err(e) => self.error = Some(e),
            },
            Purpose::SaveGif => match self.session.save_gif(&path) {
                Ok(said) => {
                    self.say(said, false);
                    self.remember(&path);
                }
                Err(e) => self.error = Some(e),
            },
            Purpose::SaveSolutionGif => {
                let Some((start, steps)) = &self.solution_gif else {
                    self.error = Some(format!("{}: no solution to save", path.display()));
                    return;
                };
                match crate::session::save_line_gif(&path, self.session.history().rules(), start, steps) {
                    Ok(said) => {
                        self.say(said, false);
                        self.remember(&path);
                    }
                    Err(e) => self.error = Some(e),
                }
            }
            Purpose::SaveLog => match self.session.save_log(&path) {
                Ok(()) => {
                    self.say(format!("saved {}", path.display()), false);
                    self.remember(&path);
                }
                Err(e) => self.error = Some(e),
            },
        }
    }
}
