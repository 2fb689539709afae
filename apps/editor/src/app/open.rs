//! Opening files: a level, a log, a pack or a game's source; the level chooser of a collection; sessions handed between Play, Edit and Debug.

use super::*;
use crate::board::BoardView;
use crate::files::Opened;
use crate::games::{self};
use crate::session::Session;
use std::path::Path;
use tessera_core::Level;

impl EditorApp {
    /// Opens a level (to edit and play: Edit mode stays in Edit, other modes go to Play), a
    /// draft (a level that does not play yet: in Edit) or a log (to debug, paused at step 0).
    /// Errors show in the window. With unsaved edits, opening a level asks first ([`Pending`]).
    pub fn open(&mut self, path: &Path) {
        let is_log = path.extension().is_some_and(|e| e == "tlog");
        if self.edit.dirty() && !is_log {
            self.pending = Some(Pending::Open(path.to_path_buf()));
            return;
        }
        self.open_now(path);
    }

    pub(super) fn open_now(&mut self, path: &Path) {
        self.collection = None;
        let ours = path.extension().is_some_and(|e| e == "json");
        if ours && crate::pack::is_pack_file(path) {
            match self.pack.open(path) {
                Ok(()) => {
                    // Opening it restored its kept edits: nothing left to ask about.
                    if self
                        .recovered_pack
                        .as_deref()
                        .is_some_and(|p| std::path::absolute(path).is_ok_and(|a| a == p))
                    {
                        self.recovered_pack = None;
                    }
                    self.mode = Mode::Pack;
                    self.remember(path);
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            }
            return;
        }
        match crate::files::open_path(path) {
            Ok(Opened::Level(level)) => self.start_opened(level, path, ours, path.display().to_string()),
            Ok(Opened::Levels(levels)) => {
                let names = levels
                    .iter()
                    .map(|(n, l)| {
                        let name = crate::games::of_level(l).and_then(|g| g.level_name(l));
                        format!("{n}. {}", name.unwrap_or_else(|| format!("level {n}")))
                    })
                    .collect();
                self.choice = Some(LevelChoice {
                    path: path.to_path_buf(),
                    levels,
                    names,
                    selected: 0,
                    discard_answered: false,
                    preview: None,
                });
                self.error = None;
            }
            Ok(Opened::Draft(level, _))
                if !ours && games::of_level(&level).is_some_and(|g| g.source_text(&level).is_some()) =>
            {
                self.open_failing_game(level, path);
            }
            Ok(Opened::Draft(level, problem)) => match self.edit.load(&level, Some(path)) {
                Ok(()) => {
                    self.workbench.forget();
                    self.mode = Mode::Edit;
                    self.title = path.display().to_string();
                    self.edit.say(format!("opened as a draft: {problem}"));
                    self.error = None;
                    self.remember(path);
                }
                Err(e) => self.error = Some(format!("{problem} ({e})")),
            },
            Ok(Opened::Log(log)) => {
                // Debug opens the log; Edit keeps the game and file it holds (issue 63.4: the
                // log's embedded copy replaced it, silently). Only an Edit holding nothing of
                // the designer's (no file, no edits, no game written as text) shows the log's
                // level; else, when the log's game is not Edit's, Debug says so and offers to
                // open it as a game of its own.
                let level = log.header().level.clone();
                let holds = self.edit.dirty()
                    || self.edit.path().is_some()
                    || self.edit.imported_from().is_some()
                    || self.has_source();
                self.log_game = None;
                if !holds {
                    if let Err(e) = self.edit.load(&level, None) {
                        self.say(format!("the log's level does not open in Edit: {e}"), false);
                    } else {
                        self.workbench.forget();
                    }
                } else if !same_game(&level, &self.edit.draft().to_level()) {
                    self.log_game = Some(level);
                }
                // A game written as text that Edit kept keeps its title (the window names the
                // log in Debug).
                if !holds || !self.has_source() {
                    self.title = path.display().to_string();
                }
                self.debug.open_log(*log, Some(path.to_path_buf()));
                self.debug_of = None;
                self.debug_stale = false;
                self.mode = Mode::Debug;
                self.remember(path);
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Opens a game written as text whose source does not compile (from `path`): into Edit,
    /// its source in the pane with its errors marked and listed in the console, for the
    /// designer to fix and rebuild; saved back to `path` by Ctrl+S (as typed while it does not
    /// build). Play keeps what it held until the first rebuild that builds plays Edit's level.
    pub(super) fn open_failing_game(&mut self, level: Level, path: &Path) {
        if let Err(e) = self.edit.load(&level, None) {
            self.error = Some(format!("{}: {e}", path.display()));
            return;
        }
        self.edit.set_imported_from(Some(path));
        self.workbench.forget();
        let source = games::of_level(&level)
            .and_then(|g| g.source_text(&level))
            .map(|(s, _)| s.to_string())
            .unwrap_or_default();
        let marks = self.workbench.open_failing(&source);
        self.console.clear();
        self.console.compiled(&marks, false);
        let errors = marks.iter().filter(|m| m.error).count();
        self.edit.say(format!(
            "the game does not build ({errors} error(s)): fix the source, then Rebuild (Ctrl+Enter)"
        ));
        self.play_foreign = true;
        self.settings.source_hidden = false;
        self.settings.console_hidden = false;
        self.mode = Mode::Edit;
        self.title = path.display().to_string();
        self.remember(path);
        self.error = None;
    }

    /// Opens the game of the log open in Debug in Edit as a game of its own (no file: Save
    /// game source as… asks where), when it differs from Edit's (the button Debug shows then);
    /// with unsaved edits in Edit, asks first.
    pub fn open_log_game(&mut self) {
        if self.edit.dirty() {
            self.pending = Some(Pending::OpenLogGame);
            return;
        }
        self.open_log_game_now();
    }

    pub(super) fn open_log_game_now(&mut self) {
        let Some(level) = self.log_game.take() else { return };
        if let Err(e) = self.edit.load(&level, None) {
            self.error = Some(format!("the log's game does not open in Edit: {e}"));
            return;
        }
        self.edit.set_imported_from(None);
        self.workbench.forget();
        self.collection = None;
        let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
        let name = self.debug.debugger().and_then(|d| d.path()).map(|p| p.display().to_string());
        let title = format!("the game of {}", name.unwrap_or_else(|| "the log".into()));
        if self.open_level(level, seed, &title) {
            self.set_source(None, true);
        }
        self.mode = Mode::Edit;
    }

    /// The game of the log open in Debug, when it is not Edit's (Debug offers to open it).
    pub fn log_game_differs(&self) -> bool {
        self.log_game.is_some()
    }

    /// Loads `level`, read from `path`, into Edit (as the file to save to when `ours`) and starts
    /// it (Edit mode stays in Edit, other modes go to Play), titled `title`.
    pub(super) fn start_opened(&mut self, level: Level, path: &Path, ours: bool, title: String) {
        let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
        if let Err(e) = self.edit.load(&level, ours.then_some(path)) {
            self.error = Some(format!("{}: {e}", path.display()));
            return;
        }
        self.edit.set_imported_from((!ours).then_some(path));
        self.workbench.forget();
        match Session::new(level, seed) {
            Ok(s) => {
                self.set_session(s);
                self.set_source(Some(path), true);
                if self.mode != Mode::Edit {
                    self.mode = Mode::Play;
                }
                self.title = title;
                self.remember(path);
                self.error = None;
            }
            Err(e) => self.error = Some(format!("{}: {e}", path.display())),
        }
    }

    /// The dialog that asks which level of a collection to open: a list (click, or arrows then
    /// Enter; a double click opens), the level's number (the one in the list and in `tessera
    /// convert`'s file names), and a preview of the level picked.
    pub(super) fn choice_ui(&mut self, ctx: &egui::Context) {
        // The question about recovered or unsaved edits comes first.
        if self.recovered.is_some() || self.pending.is_some() {
            return;
        }
        let Some(c) = &mut self.choice else { return };
        let mut open = None;
        let mut cancel = false;
        let n = c.levels.len();
        let (up, down, enter) = ctx.input(|i| {
            (
                i.key_pressed(egui::Key::ArrowUp),
                i.key_pressed(egui::Key::ArrowDown),
                i.key_pressed(egui::Key::Enter),
            )
        });
        let typing = ctx.egui_wants_keyboard_input();
        if !typing {
            if up {
                c.selected = c.selected.saturating_sub(1);
            }
            if down {
                c.selected = (c.selected + 1).min(n - 1);
            }
        }
        if enter {
            open = Some(c.selected);
        }
        if c.preview.as_ref().is_none_or(|p| p.0 != c.selected)
            && let Ok(game) = c.levels[c.selected].1.start(None)
        {
            let mirror = tessera_ecs::Mirror::from_state(&game.state);
            c.preview = Some((c.selected, mirror, game.rules, game.state, BoardView::default()));
        }
        egui::Modal::new(egui::Id::unique("choose-level")).show(ctx, |ui| {
            ui.heading("Choose a level");
            ui.label(format!("{} holds {n} levels.", c.path.display()));
            ui.horizontal(|ui| {
                // A list of a fixed width: the dialog keeps its size.
                ui.allocate_ui_with_layout(
                    egui::vec2(300.0, 320.0),
                    egui::Layout::top_down(egui::Align::Min),
                    |ui| {
                        let row = ui.spacing().interact_size.y;
                        egui::ScrollArea::vertical()
                            .max_height(320.0)
                            .max_width(300.0)
                            .auto_shrink([false, true])
                            .show_rows(ui, row, c.names.len(), |ui, rows| {
                                for i in rows {
                                    let r = ui.selectable_label(c.selected == i, &c.names[i]);
                                    if r.clicked() {
                                        c.selected = i;
                                    }
                                    if r.double_clicked() {
                                        open = Some(i);
                                    }
                                    if (up || down) && c.selected == i {
                                        r.scroll_to_me(None);
                                    }
                                }
                            });
                    },
                );
                let (rect, _) = ui.allocate_exact_size(egui::vec2(240.0, 240.0), egui::Sense::hover());
                if let Some((_, mirror, rules, state, view)) = &mut c.preview {
                    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
                    view.fit();
                    // The rule set's own picture where it has one (PuzzleScript's sprites).
                    let overlay = crate::board::Overlay::default();
                    view.show_game(&mut child, mirror, Some(rules), state, 1.0, &overlay);
                }
            });
            ui.horizontal(|ui| {
                let l = ui.label("Level number");
                let (lo, hi) = (c.levels[0].0, c.levels[n - 1].0);
                let mut number = c.levels[c.selected].0;
                let r = ui.add(egui::DragValue::new(&mut number).range(lo..=hi)).labelled_by(l.id);
                if r.changed() {
                    // The level with that number, else the nearest below it.
                    c.selected = c.levels.partition_point(|(k, _)| *k <= number).saturating_sub(1);
                }
                if ui.button("Open level").on_hover_text("Enter").clicked() {
                    open = Some(c.selected);
                }
                if ui.button("Cancel").clicked() {
                    cancel = true;
                }
            });
        });
        if cancel {
            self.choice = None;
        } else if let Some(i) = open
            && self.edit.dirty()
            && !c.discard_answered
        {
            // Opening the level would replace unsaved edits (restored ones too): ask first.
            let path = c.path.clone();
            self.pending = Some(Pending::OpenLevel(path, i));
        } else if let Some(i) = open
            && let Some(mut c) = self.choice.take()
        {
            c.selected = i;
            self.open_from_collection(c);
        }
    }

    /// Opens level `c.selected` of the collection `c`, which File → Next level / Previous level
    /// then walk.
    pub(super) fn open_from_collection(&mut self, c: LevelChoice) {
        let Some((_, level)) = c.levels.get(c.selected) else { return };
        let title = format!("{} · {}", c.path.display(), c.names[c.selected]);
        // A game's level starts with the messages before it (a PuzzleScript game's intro).
        let intro = games::of_level(level).map(|g| g.messages_before(level)).unwrap_or_default();
        self.error = None;
        self.start_opened(level.clone(), &c.path, false, title);
        if self.error.is_none() && self.mode == Mode::Play && !intro.is_empty() {
            self.play.show_messages(intro);
        }
        self.collection = Some(LevelChoice { preview: None, ..c });
    }

    /// Opens the next (`forward`) or previous level of the collection the level shown came
    /// from (File → Next level / Previous level).
    pub fn step_collection(&mut self, forward: bool) {
        let Some(mut c) = self.collection.take() else { return };
        let target = if forward { c.selected + 1 } else { c.selected.wrapping_sub(1) };
        if target < c.levels.len() {
            c.selected = target;
            self.open_from_collection(c);
        } else {
            self.collection = Some(c);
        }
    }

    /// The collection's level shown and how many it has (File → Next level / Previous level).
    pub fn collection_position(&self) -> Option<(usize, usize)> {
        self.collection.as_ref().map(|c| (c.selected, c.levels.len()))
    }

    /// Starts `level` with `seed` in Play, titled `title`; false (and the error shown) when it
    /// does not start.
    pub fn open_level(&mut self, level: Level, seed: u64, title: &str) -> bool {
        match Session::new(level, seed) {
            Ok(s) => {
                self.set_session(s);
                self.mode = Mode::Play;
                self.title = title.to_string();
                true
            }
            Err(e) => {
                self.error = Some(format!("{title}: {e}"));
                false
            }
        }
    }

    /// Starts a new game of the current level with `seed`.
    pub fn new_game(&mut self, seed: u64) {
        match Session::new(self.session.level().clone(), seed) {
            Ok(s) => {
                let source = std::mem::take(&mut self.source);
                self.set_session(s);
                self.source = source;
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Records that the game in Play is the level of `file` (if any) and, when `from_edit`,
    /// Edit's draft as it is now.
    pub(super) fn set_source(&mut self, file: Option<&Path>, from_edit: bool) {
        self.source = Source {
            file: file.map(|p| (p.to_path_buf(), modified(p), false)),
            edit: from_edit.then_some((self.edit.revision(), false)),
        };
    }

    /// What has changed since the game in Play started: its level file on disk (to a level
    /// other than the game's: saving the level being played is no change) or the level in
    /// Edit. Looked at again only when the file's modification time or Edit's draft changes.
    pub fn play_changed(&mut self) -> Option<Changed> {
        let level = self.session.level();
        if let Some((path, seen, differs)) = &mut self.source.file {
            let now = modified(path);
            if now != *seen {
                *seen = now;
                *differs = !matches!(crate::files::open_path(path), Ok(Opened::Level(l)) if l == *level);
            }
            if *differs {
                return Some(Changed::Disk(path.clone()));
            }
        }
        if let Some((rev, differs)) = &mut self.source.edit {
            let now = self.edit.revision();
            if now != *rev {
                *rev = now;
                *differs = self.edit.draft().to_level() != *level;
            }
            if *differs {
                return Some(Changed::Edit);
            }
        }
        None
    }

    pub(super) fn set_session(&mut self, s: Session) {
        self.play_foreign = false;
        self.walk.clear();
        self.source = Source::default();
        self.new_seed = s.seed();
        self.session = s;
        self.play.clear();
        self.board.fit();
        self.error = None;
        self.notice = None;
        // The console and the status bar's sounds are of the level played.
        self.console.clear();
        self.audio.forget_last_step();
    }

    /// Shows the current line of play in the debugger.
    pub(super) fn debug_session(&mut self) {
        match self.session.log_bytes().and_then(|b| {
            tessera_replay::Log::from_bytes(b, tessera_replay::TailPolicy::Strict).map_err(|e| e.to_string())
        }) {
            Ok(log) => {
                self.debug.open_log(log, None);
                self.debug_of = Some((self.session.history().step(), self.session.state().hash()));
                self.debug_stale = false;
                // Debug opens where Play is.
                self.debug.seek(self.session.history().step());
            }
            Err(e) => self.error = Some(e),
        }
    }

    pub(super) fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.settings.recent.retain(|p| p != &path);
        self.settings.recent.insert(0, path.clone());
        self.settings.recent.truncate(MAX_RECENT);
        self.settings.last_dir = path.parent().map(Path::to_path_buf);
    }
}

/// Whether `a` and `b` are levels of the same game: the same source for games written as
/// text (whichever level of it), else the same level.
pub(super) fn same_game(a: &Level, b: &Level) -> bool {
    let source = |l: &Level| games::of_level(l).and_then(|g| g.source_text(l)).map(|(s, _)| s.to_string());
    match (source(a), source(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a == b,
        _ => false,
    }
}
