//! The PuzzleScript workbench in the window: the source pane beside the board, the console under it, a rebuild and what it makes stale, and the sounds the game and the picker play.

use super::*;
use crate::edit::EditAction;
use crate::games::{self};
use std::path::Path;

impl EditorApp {
    /// Whether Edit holds a game written as text (a PuzzleScript source), which the source
    /// pane shows.
    pub fn has_source(&self) -> bool {
        self.edit.draft().game().source_text(&self.edit.draft().settings).is_some()
    }

    /// Whether the source pane is shown.
    pub fn source_shown(&self) -> bool {
        self.has_source() && !self.settings.source_hidden && self.mode != Mode::Pack
    }

    /// Shows or hides the source pane (the Source button).
    pub fn show_source(&mut self, show: bool) {
        self.settings.source_hidden = !show;
    }

    /// Whether the debugger's log was recorded by rules a rebuild has since replaced.
    pub fn debug_stale(&self) -> bool {
        self.debug_stale
    }

    /// Puts a game source that built into Edit's draft and into Play (what Rebuild does when
    /// the text compiles), in the mode the designer is in: Edit's draft takes the new source
    /// (its level and painted rows stay); Play keeps the level it shows and plays its line of
    /// play again with the new rules, to the position reached (else from the level's start,
    /// its steps kept for redo); Debug's line of play is opened again at the step it showed.
    /// Everything computed from the old rules goes: Hint's solution (it is keyed by the
    /// rules), the Difficulty figures, a solution being shown; a log file open in Debug is
    /// marked as of the old rules.
    pub fn rebuilt(&mut self, source: String) {
        let marks = self.workbench.marks().to_vec();
        match self.edit.rebuild_with(source.clone()) {
            Ok(level) => {
                self.rebuild_play(level, source);
                self.console.compiled(&marks, true);
            }
            Err(e) => {
                self.console.compiled(&marks, true);
                self.edit.say(format!("rebuilt, but the level does not play yet: {e}"));
            }
        }
    }

    /// Play (and Debug's line of play) after a rebuild to `source` ([`EditorApp::rebuilt`]);
    /// `edited`: Edit's level with it, played when Play's own level is not of this game.
    fn rebuild_play(&mut self, edited: Level, source: String) {
        let mode = self.mode;
        let debug_at = self.debug.debugger().map(|d| d.step());
        let played = self.session.level().clone();
        let game = games::of_level(&played).filter(|g| g.source_text(&played).is_some());
        let play_k = game.and_then(|g| g.source_text(&played)).map(|(_, k)| k);
        let edit_k = self.edit.draft().game().source_text(&self.edit.draft().settings).map(|(_, k)| k);
        let commands = self.session.history().commands();
        let seed = self.session.seed();
        let kept = game
            .filter(|_| !self.play_foreign)
            .and_then(|g| g.with_source(&played, source))
            .and_then(|level| Session::replayed(level, seed, &commands).ok());
        match kept {
            Some((s, n)) => {
                self.set_session(s);
                let of_edit = play_k == edit_k;
                let path = self.edit.path().map(Path::to_path_buf);
                self.set_source(path.as_deref(), of_edit);
                if let Some(cmd) = commands.get(n) {
                    self.say(
                        format!(
                            "The new rules refuse step {} ({cmd}) of the line of play: back at the level's start (Redo plays the {n} they take)",
                            n + 1
                        ),
                        false,
                    );
                }
            }
            None => {
                // Play held another game: it plays Edit's level.
                let seed = self.edit.play_seed();
                self.edit_action(EditAction::Play(edited, seed));
            }
        }
        self.mode = mode;
        if self.debug_of.is_some() {
            // The line of play shown in Debug is opened again from the new game: at once in
            // Debug (at the step it showed), else when Debug is next shown.
            if mode == Mode::Debug {
                self.debug_session();
                if let Some(step) = debug_at {
                    self.debug.seek(step.min(self.session.history().len()));
                }
            } else {
                self.debug_of = Some((u64::MAX, 0));
            }
        } else {
            // A log file stays, marked as of the old rules.
            self.debug_stale = self.debug.is_open();
        }
    }

    /// Opens a new game written as text (File → New game: a blank game or an example) in Edit,
    /// with its source in the source pane and its first level in Play; saved with Save game
    /// source as…
    pub fn new_source_game(&mut self, source: &str) {
        let level = games::source_game(source);
        if let Err(e) = self.edit.load(&level, None) {
            self.error = Some(format!("the new game does not open: {e}"));
            return;
        }
        self.edit.set_imported_from(None);
        self.collection = None;
        let title = source
            .lines()
            .find_map(|l| l.trim().strip_prefix("title "))
            .map_or("new game".to_string(), |t| format!("{} (new game)", t.trim()));
        if self.open_level(level, tessera_core::DEFAULT_SEED, &title) {
            self.set_source(None, true);
        }
        self.workbench.reset(source);
        self.settings.source_hidden = false;
        self.mode = Mode::Edit;
    }

    /// Feeds the console with the step just played.
    pub(super) fn console_step(&mut self) {
        let history = self.session.history();
        let step = history.step();
        let Some(events) = history.events_at(step) else { return };
        let (rules, state) = (history.rules(), history.state());
        let Some(game) = games::of(rules.rule_set()) else { return };
        let mut lines = Vec::new();
        game.console_lines(rules, state, events, self.session.report(), &mut lines);
        if lines.is_empty() && game.source_text(self.session.level()).is_none() {
            return;
        }
        let cmd = history.command_at(step).map_or_else(|| "?".to_string(), |c| c.to_string());
        let header =
            crate::console::ConsoleLine::new(crate::console::Kind::Step, format!("step {step}: {cmd}"), None);
        self.console.extend(std::iter::once(header).chain(lines));
    }

    /// The source pane at line `line` of the debugged log's game (Debug's "line N"): Edit
    /// keeps the game it holds when that is a game written as text (its file, its levels added
    /// since the log was recorded), saying so when the log was of another source; otherwise Edit
    /// shows the log's level first (unless it holds unsaved edits).
    pub(super) fn show_source_line(&mut self, line: u32) {
        let Some(d) = self.debug.debugger() else { return };
        let level = d.log().header().level.clone();
        let Some(game) = crate::games::of_level(&level) else { return };
        if !self.has_source() {
            if self.edit.dirty() {
                self.say(
                    "Edit holds unsaved edits of another level: save them to see the log's source".into(),
                    false,
                );
                return;
            }
            if let Err(e) = self.edit.load(&level, None) {
                self.say(format!("the log's level does not open in Edit: {e}"), false);
                return;
            }
        } else {
            let held = self.edit.draft().to_level();
            let logged = game.source_text(&level).map(|(s, _)| s);
            if logged != game.source_text(&held).map(|(s, _)| s) {
                self.debug_stale = true;
            }
        }
        self.settings.source_hidden = false;
        self.workbench.go_to_line(line as usize);
    }

    /// The source pane (left, full height, a split the designer drags, its width kept) and the
    /// console under the board, for a game written as text; what they ask is done here.
    pub(super) fn workbench_ui(&mut self, ui: &mut egui::Ui) {
        if !self.source_shown() {
            // The console shows on its own when the source pane is hidden (issue 63.12).
            if self.has_source() && self.mode != Mode::Pack && !self.settings.console_hidden {
                self.console_ui(ui);
            }
            return;
        }
        let game = self.edit.draft().game();
        let edit = &self.edit;
        self.workbench.follow(edit.revision(), || {
            game.source_text(&edit.draft().to_level()).map(|(s, k)| (s.to_string(), k))
        });
        let level = game.source_text(&self.edit.draft().settings).map_or(0, |(_, k)| k);
        self.workbench.auto = self.settings.auto_rebuild;
        let width = self.settings.source_width.unwrap_or(SOURCE_WIDTH);
        // The board keeps room beside the pane: Play's and Edit's side panel and a board of
        // 300 px; in Debug the step list and the inspector too (each narrowed to fit), so at
        // 1280×800 a rule and the level it acts on are seen together in every mode.
        let room = match self.mode {
            Mode::Debug => ui.available_width() * 0.64,
            _ => 620.0,
        };
        let widest = (ui.available_width() - room).max(200.0);
        let mut action = None;
        // Debug's pane is its own (a narrower split there leaves Play's and Edit's as dragged).
        let id = if self.mode == Mode::Debug { "workbench-debug" } else { "workbench" };
        let shown = egui::Panel::left(id)
            .resizable(true)
            .default_size(width.min(widest))
            .size_range(200.0..=widest)
            .show(ui, |ui| action = self.workbench.ui(ui, level));
        let w = shown.response.rect.width();
        if self.mode != Mode::Debug && (w - width).abs() > 0.5 {
            self.settings.source_width = Some(w);
        }
        self.settings.auto_rebuild = self.workbench.auto;
        match action {
            Some(crate::workbench::WorkbenchAction::Rebuilt(source)) => self.rebuilt(source),
            Some(crate::workbench::WorkbenchAction::Failed) => {
                let marks = self.workbench.marks().to_vec();
                self.console.compiled(&marks, false);
                self.settings.console_hidden = false;
            }
            Some(crate::workbench::WorkbenchAction::Token(t)) => self.token_clicked(t),
            Some(crate::workbench::WorkbenchAction::BackToBuilt) => {
                self.console.extend([crate::console::ConsoleLine::new(
                    crate::console::Kind::Step,
                    "Back to the source as built: the failed rebuild's errors are gone",
                    None,
                )]);
            }
            None => {}
        }
        if !self.settings.console_hidden {
            self.console_ui(ui);
        }
    }

    /// The console under the board; a line's link shows the source pane at that line.
    fn console_ui(&mut self, ui: &mut egui::Ui) {
        let mut go = None;
        egui::Panel::bottom("console").resizable(true).default_size(170.0).show(ui, |ui| {
            go = self.console.ui(ui);
        });
        if let Some(line) = go {
            self.settings.source_hidden = false;
            self.workbench.go_to_line(line as usize);
        }
    }

    /// A token of the source was clicked: a sound's seed ([`crate::syntax::Class::Sound`]) plays.
    pub fn token_clicked(&mut self, token: crate::source_editor::ClickedToken) {
        if token.class == crate::syntax::Class::Sound {
            self.audio.play_now(&token.text);
            // A sign that it played, muted or not (issue 63.12).
            let muted = if self.audio.settings().muted { " (muted)" } else { "" };
            self.console.extend([crate::console::ConsoleLine::new(
                crate::console::Kind::Note,
                format!("played sound {}{muted}", token.text),
                None,
            )]);
            self.settings.console_hidden = false;
        }
    }

    /// What Ctrl+S does for a game written as text: typing not rebuilt is rebuilt first; then
    /// the game's source is written to the `.txt` it came from (or was saved as), a level file
    /// of the game's level is saved as a level, and a new game asks where (Save game source
    /// as…). Typing that does not build is written as typed to the game's file, as
    /// PuzzleScript saves it, and said so (Play keeps the last build).
    pub fn save_game(&mut self) {
        if self.workbench.unbuilt() {
            let level =
                self.edit.draft().game().source_text(&self.edit.draft().settings).map_or(0, |(_, k)| k);
            match self.workbench.rebuild(level) {
                crate::workbench::WorkbenchAction::Rebuilt(source) => self.rebuilt(source),
                _ => {
                    let marks = self.workbench.marks().to_vec();
                    let errors = marks.iter().filter(|m| m.error).count();
                    self.console.compiled(&marks, false);
                    self.settings.console_hidden = false;
                    let said = match self.edit.imported_from().map(Path::to_path_buf) {
                        Some(path) => {
                            match tessera_replay::atomic_write(&path, self.workbench.text().as_bytes()) {
                                Ok(()) => {
                                    self.workbench.saved_as_typed();
                                    format!(
                                        "saved the source as typed to {}: it does not build ({errors} error(s)), so Play keeps the last build",
                                        path.display()
                                    )
                                }
                                Err(e) => format!("not saved: {}: {e}", path.display()),
                            }
                        }
                        None => format!(
                            "not saved: the source does not build ({errors} error(s)); fix it, or Revert, then save"
                        ),
                    };
                    self.tell(said);
                    return;
                }
            }
        }
        if self.edit.imported_from().is_some() {
            let said = match self.edit.save_game_source() {
                Ok(msg) => {
                    if let Some(p) = self.edit.imported_from().map(Path::to_path_buf) {
                        self.remember(&p);
                    }
                    msg
                }
                Err(e) => format!("not saved: {e}"),
            };
            self.tell(said);
        } else if let Some(path) = self.edit.path().map(Path::to_path_buf) {
            self.save_level(&path);
            if let Some(n) = self.edit.notice().map(str::to_string) {
                self.tell(n);
            }
        } else {
            self.ask_save_game_source();
        }
    }

    /// Opens Save game source as… (its name: the game's file's, else the game's title's).
    pub(super) fn ask_save_game_source(&mut self) {
        let dir = self.start_dir();
        let title = self.edit.draft().game().source_text(&self.edit.draft().settings).and_then(|(s, _)| {
            s.lines().find_map(|l| l.trim().strip_prefix("title ")).map(|t| t.trim().to_string())
        });
        let name = match self.edit.imported_from().and_then(|p| p.file_name()) {
            Some(n) => n.to_string_lossy().into_owned(),
            None => file_name_for(title.as_deref()).replace(".json", ".txt").replace("level.txt", "game.txt"),
        };
        self.picker = Some(FilePicker::new(Purpose::SaveGameSource, dir, &name));
    }

    /// Says `text` where the mode shows its messages (Edit's line, Play's line; Debug's in the
    /// console, as it has no line of its own).
    pub(super) fn tell(&mut self, text: String) {
        self.edit.say(text.clone());
        match self.mode {
            Mode::Play => self.say(text, false),
            Mode::Debug => self.console.extend([crate::console::ConsoleLine::new(
                crate::console::Kind::Note,
                text,
                None,
            )]),
            Mode::Edit | Mode::Pack => {}
        }
    }

    /// Writes the game's source being edited to `path` (Save game source as…), which Save game
    /// source then writes again.
    pub fn save_game_source_as(&mut self, path: &Path) {
        let before = self.edit.imported_from().map(Path::to_path_buf);
        self.edit.set_imported_from(Some(path));
        match self.edit.save_game_source() {
            Ok(msg) => {
                self.edit.say(msg);
                self.title = path.display().to_string();
                self.remember(path);
            }
            Err(e) => {
                self.edit.set_imported_from(before.as_deref());
                self.error = Some(e);
            }
        }
    }

    /// Plays the sounds the game made and those now due (`audio.rs`); says once when there is
    /// no audio device.
    pub(super) fn hear(&mut self, ctx: &egui::Context, now: f64) {
        for s in self.session.take_sounds().into_iter().chain(self.debug.take_sounds()) {
            self.audio.schedule(s);
        }
        for seed in crate::sound_picker::take_requests(ctx) {
            self.audio.play_now(&seed);
        }
        if self.audio.tick(now) || self.debug.sounds_pending() {
            ctx.request_repaint_after(std::time::Duration::from_millis(15));
        }
        if let Some(n) = self.audio.take_notice() {
            self.error.get_or_insert(n);
        }
        self.settings.sound = self.audio.settings();
    }

    /// Lets the editor open the audio device at the first sound (`main` does; tests never).
    pub fn enable_audio(&mut self) {
        self.audio.enable_output();
    }

    /// The sounds: what played, the last step's (for tests).
    pub fn audio(&self) -> &crate::audio::Audio {
        &self.audio
    }

    /// The sounds, to play one (the sound picker).
    pub fn audio_mut(&mut self) -> &mut crate::audio::Audio {
        &mut self.audio
    }
}
