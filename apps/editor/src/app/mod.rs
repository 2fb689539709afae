//! [`EditorApp`]: the window — a menu bar, the mode's panels, the board, a status bar — and what
//! persists between runs ([`Settings`]).
//!
//! `app/`: `EditorApp`, one file a part of the window, each an `impl EditorApp` block of its own
//! (as egui's demo keeps a window per file): `app/mod.rs` (the struct, `Settings`, `Mode`,
//! `EditorApp::ui` placing the panes, the mode switch, the title), `app/menu.rs` (menu bar,
//! window-wide shortcuts, the "changed on disk" bar), `app/status.rs` (status bar, the message line
//! of fixed height), `app/play.rs` (Play: moves, walks, undo/redo, and the Play panel — hint, end
//! turn, seed, new game, restart, speed, branches), `app/open.rs` (opening files, the level
//! chooser, sessions handed between modes), `app/dialogs.rs` (the modal questions: unsaved changes,
//! overwrite, recovery; the file picker) and `app/workbench.rs` (the source pane and console
//! placed, a rebuild, the sounds heard). `EditorApp::ui` takes an `egui::Ui`, so tests drive the
//! real UI headless with egui_kittest (`tests/`), and benches run it in a bare `egui::Context`.

use crate::anim::Speed;
use crate::board::BoardView;
use crate::debug::{DebugAction, DebugView};
use crate::edit::{EditAction, EditView};
use crate::files::{FilePicker, Purpose};
use crate::games::{self};
use crate::play::PlayInput;
use crate::recovery::{Recovered, Recovery};
pub use crate::session::STEP_WAIT;
use crate::session::Session;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use tessera_core::{AnyRules, AnyState, Level};

mod dialogs;
mod export;
mod generate;
mod menu;
mod open;
mod play;
mod status;
mod workbench;

/// The key under which [`Settings`] persist in eframe's storage.
pub const SETTINGS_KEY: &str = "tessera-editor";

/// How many recent files the File menu lists.
const MAX_RECENT: usize = 10;

/// What the editor remembers between runs (window size and position are eframe's).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Recently opened files, newest first.
    pub recent: Vec<PathBuf>,
    /// Animation speed.
    pub speed: Speed,
    /// The folder the file picker opens in.
    pub last_dir: Option<PathBuf>,
    /// The source pane's width (the split beside the board), in points.
    pub source_width: Option<f32>,
    /// The source pane is hidden (it shows for games written as text unless hidden).
    pub source_hidden: bool,
    /// The console is hidden.
    pub console_hidden: bool,
    /// Rebuild after a pause in typing.
    pub auto_rebuild: bool,
    /// Mute and volume.
    pub sound: crate::audio::SoundSettings,
}

/// The source pane's width before the designer drags the split.
const SOURCE_WIDTH: f32 = 520.0;

/// The editor's modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Design the level.
    Edit,
    /// Play the level.
    Play,
    /// Step through a log.
    Debug,
    /// A level pack: order, rate, the difficulty curve (`pack.rs`).
    Pack,
}

/// What waits for the user's answer about unsaved edits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Open this file.
    Open(PathBuf),
    /// Open level `1` (an index into the list) of the collection `0` being chosen from.
    OpenLevel(PathBuf, usize),
    /// Close the window.
    Quit,
    /// Open the game of the log open in Debug in Edit.
    OpenLogGame,
}

/// A message of Play in the status bar, about one position: it shows only while the game is at
/// that position (step and state hash) and in Play, so a hint or a refusal never outlives the
/// state that caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Notice {
    text: String,
    /// The position it is about: the step and the state hash.
    at: (u64, u64),
    /// Offer Undo beside it (the position is lost).
    undo: bool,
}

/// Where the game in Play came from: the level file and Edit's draft, each with what was last
/// seen of it and whether it then differed from the game's level.
#[derive(Clone, Debug, Default)]
struct Source {
    /// The file the level was read from (or Edit saves to), its modification time when last
    /// looked at, and whether its level then differed from the game's.
    file: Option<(PathBuf, Option<std::time::SystemTime>, bool)>,
    /// Edit's revision when last looked at, and whether its level then differed from the
    /// game's (`None`: the game is not Edit's level).
    edit: Option<(u64, bool)>,
}

/// What changed since the game in Play started ([`EditorApp::play_changed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Changed {
    /// The level file on disk now holds another level.
    Disk(PathBuf),
    /// The level in Edit differs from the game's.
    Edit,
}

/// The modification time of `path`, if it can be read.
fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// A collection opened (a file of many levels): which of its levels to open.
struct LevelChoice {
    /// The file.
    path: PathBuf,
    /// Its levels with their numbers (as `tessera convert` names their files), each one starts.
    levels: Vec<(u64, Level)>,
    /// Their names for the list (`N. name`, N the level's number).
    names: Vec<String>,
    /// The level picked (an index into `levels`).
    selected: usize,
    /// The designer already answered Discard to the question about unsaved edits that opening
    /// the file asked: the level picked opens without asking again.
    discard_answered: bool,
    /// The preview of the picked level: which, and its board (rules and state).
    preview: Option<(usize, tessera_ecs::Mirror, tessera_core::AnyRules, AnyState, BoardView)>,
}

/// The pause between two steps of a solution shown ([`PlayAction::Walk`]), in animation
/// phases of the speed chosen (0.42 s at Normal; none at Instant).
const WALK_PHASES: f64 = 3.0;

/// The whole editor.
pub struct EditorApp {
    edit: EditView,
    pending: Option<Pending>,
    /// Keeps unsaved edits where a crash cannot take them (off until [`EditorApp::enable_recovery`]).
    recovery: Option<Recovery>,
    /// Edits an earlier run left unsaved, waiting for the user to restore or discard them.
    recovered: Option<Recovered>,
    /// A pack an earlier run left unsaved edits of, while the editor asks about them (after
    /// the question about a level's edits, if both are left).
    recovered_pack: Option<PathBuf>,
    /// The user chose to quit without saving: let the next close through.
    may_close: bool,
    settings: Settings,
    mode: Mode,
    session: Session,
    play: PlayInput,
    board: BoardView,
    debug: DebugView,
    /// When Debug shows the line of play (not a file): Play's step and state hash then, so a
    /// return to Debug after more play shows the line as it is now.
    debug_of: Option<(u64, u64)>,
    pack: crate::pack::PackView,
    /// The pack's inline entry open in Edit: its edits go back into the pack on return.
    pack_inline: Option<usize>,
    picker: Option<FilePicker>,
    /// A collection opened, waiting for the user to pick one of its levels.
    choice: Option<LevelChoice>,
    /// Saving would put a draft over a file whose level plays: the file and why the draft does
    /// not play, while the editor asks.
    overwrite: Option<(PathBuf, String)>,
    /// Where the game in Play came from, to say when that changed since it started.
    source: Source,
    /// The collection the level shown came from, for File → Next level / Previous level
    /// (`selected`: the level open).
    collection: Option<LevelChoice>,
    error: Option<String>,
    /// The sounds of the game (`audio.rs`).
    audio: crate::audio::Audio,
    /// What Play last said (a refusal, a hint), with the position it is about: shown only
    /// while that position is on the board (Edit's messages are Edit's, [`EditView::notice`]).
    notice: Option<Notice>,
    /// A solution being shown ([`PlayAction::Walk`]): the steps left to play, and how many it
    /// had. Any step, undo or redo of the user's stops it.
    walk: std::collections::VecDeque<tessera_core::AnyCommand>,
    walk_len: usize,
    /// The solution to save as a GIF ([`PlayAction::SaveGif`]) and the state it starts from.
    solution_gif: Option<(tessera_core::AnyState, Vec<tessera_core::AnyCommand>)>,
    /// The solution Show the solution plays and the state it started from (its Save GIF…).
    walk_from: Option<(tessera_core::AnyState, Vec<tessera_core::AnyCommand>)>,
    /// When the walk's next step may be played (egui time): a pause of [`WALK_PHASES`] phases
    /// of the speed after the last, so the eye can follow.
    walk_at: f64,
    /// The step running on its worker is the game's clock's ([`PlayAction::Clock`]): if it
    /// changes nothing, nothing is said.
    clock_running: bool,
    new_seed: u64,
    title: String,
    /// The window title last sent to the window.
    sent_title: String,
    last_hover: Option<tessera_core::Pos>,
    pinned_hover: Option<tessera_core::Pos>,
    /// The source pane of a game written as text (`workbench.rs`).
    workbench: crate::workbench::Workbench,
    /// The Generate pane (`generate.rs`, placed by `app/generate.rs`).
    generate: crate::generate::GeneratePanel,
    /// What the game said, step by step (`console.rs`).
    console: crate::console::Console,
    /// The debugger's log was recorded by rules a rebuild has since replaced.
    debug_stale: bool,
    /// Play holds no game of Edit's (a game opened that did not build): a rebuild plays Edit's
    /// level rather than replaying Play's line with the new rules.
    play_foreign: bool,
    /// The game of the log open in Debug when it is not Edit's, which Debug offers to open.
    log_game: Option<Level>,
    /// How long Play waits for a step before letting it run on while the UI draws
    /// ([`STEP_WAIT`]; tests set it).
    pub step_wait: std::time::Duration,
}

impl EditorApp {
    /// The editor on the built-in default level (classic 2048), with `settings`.
    pub fn new(settings: Settings) -> EditorApp {
        // The built-in level always starts.
        let session = Session::new(Level::classic(), 0).expect("the built-in level starts");
        let mut audio = crate::audio::Audio::default();
        audio.set_settings(settings.sound);
        EditorApp {
            audio,
            edit: EditView::default(),
            pending: None,
            recovery: None,
            recovered: None,
            recovered_pack: None,
            may_close: false,
            settings,
            mode: Mode::Play,
            session,
            play: PlayInput::default(),
            board: BoardView::default(),
            debug: DebugView::default(),
            debug_of: None,
            pack: crate::pack::PackView::default(),
            pack_inline: None,
            picker: None,
            choice: None,
            overwrite: None,
            source: Source::default(),
            collection: None,
            error: None,
            notice: None,
            walk: Default::default(),
            walk_len: 0,
            solution_gif: None,
            walk_from: None,
            walk_at: 0.0,
            clock_running: false,
            new_seed: 0,
            title: "classic 2048 (built in)".into(),
            sent_title: String::new(),
            last_hover: None,
            pinned_hover: None,
            workbench: crate::workbench::Workbench::default(),
            generate: crate::generate::GeneratePanel::default(),
            console: crate::console::Console::default(),
            debug_stale: false,
            play_foreign: false,
            log_game: None,
            step_wait: STEP_WAIT,
        }
    }

    /// The source pane.
    pub fn workbench(&self) -> &crate::workbench::Workbench {
        &self.workbench
    }

    /// The source pane, to change (its text, as typing would).
    pub fn workbench_mut(&mut self) -> &mut crate::workbench::Workbench {
        &mut self.workbench
    }

    /// The console.
    pub fn console(&self) -> &crate::console::Console {
        &self.console
    }

    /// The console, to change (Verbose).
    pub fn console_mut(&mut self) -> &mut crate::console::Console {
        &mut self.console
    }

    /// The game being played.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The game being played, to change (a test holding a step's worker).
    #[doc(hidden)]
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Edit mode.
    pub fn edit(&self) -> &EditView {
        &self.edit
    }

    /// Edit mode, to change (tools, inks, edits).
    pub fn edit_mut(&mut self) -> &mut EditView {
        &mut self.edit
    }

    /// Lets the window close without asking about unsaved edits (the screenshot hook).
    pub fn close_without_asking(&mut self) {
        self.may_close = true;
    }

    /// The Pack view.
    pub fn pack(&self) -> &crate::pack::PackView {
        &self.pack
    }

    /// The Pack view, to change (the tests' edits and ratings).
    pub fn pack_mut(&mut self) -> &mut crate::pack::PackView {
        &mut self.pack
    }

    /// Carries out what the Pack view asked: an entry opened in Edit or Play (a level file
    /// through [`EditorApp::open`], which asks about unsaved edits first).
    pub fn pack_action(&mut self, action: crate::pack::PackAction) {
        let crate::pack::PackAction::Open { entry, level, path, play } = action;
        self.mode = if play { Mode::Play } else { Mode::Edit };
        self.pack_inline = None;
        match path {
            Some(p) => self.open(&p),
            None if self.edit.dirty() => self.error = Some("save or undo the level's edits first".into()),
            None => {
                let title = crate::games::of_level(&level)
                    .and_then(|g| g.level_name(&level))
                    .unwrap_or_else(|| "pack level".into());
                let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
                if let Err(e) = self.edit.load(&level, None) {
                    self.error = Some(e.to_string());
                    return;
                }
                self.pack_inline = Some(entry);
                self.workbench.forget();
                match Session::new(*level, seed) {
                    Ok(s) => {
                        self.set_session(s);
                        self.set_source(None, true);
                        self.title = title;
                    }
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
        }
    }

    /// The debugger.
    pub fn debug(&self) -> &DebugView {
        &self.debug
    }

    /// The debugger, to change (its settings, a seek).
    pub fn debug_mut(&mut self) -> &mut DebugView {
        &mut self.debug
    }

    /// The Play board's view (pan, zoom, where cells are on screen).
    pub fn board(&self) -> &BoardView {
        &self.board
    }

    /// What the player has picked in Play, and the message shown over the board.
    pub fn play(&self) -> &PlayInput {
        &self.play
    }

    /// The mode shown.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Switches mode.
    pub fn set_mode(&mut self, mode: Mode) {
        if mode == Mode::Debug {
            // The line of play shown earlier is shown again as it is now, unless notes were
            // added to it and not saved (those would be lost).
            let now = (self.session.history().step(), self.session.state().hash());
            let stale = self.debug_of.is_some_and(|then| then != now)
                && !self.debug.debugger().is_some_and(|d| d.unsaved());
            if !self.debug.is_open() || stale {
                self.debug_session();
            }
        }
        if mode == Mode::Pack && self.pack.is_open() {
            // Come back from Edit: level files saved meanwhile are read again, and an inline
            // entry's edits go into the pack (Edit then holds them as saved).
            self.pack.refresh();
            if let Some(i) = self.pack_inline
                && self.edit.dirty()
            {
                let level = self.edit.draft().to_level();
                match self.pack.replace_inline(i, level.clone()) {
                    Ok(()) => {
                        if let Err(e) = self.edit.load(&level, None) {
                            self.error = Some(e);
                        }
                    }
                    Err(e) => self.error = Some(format!("the edited level stays in Edit: {e}")),
                }
            }
        }
        self.mode = mode;
    }

    /// The key of the picture the level chooser's preview drew, when its rule set draws its own
    /// (PuzzleScript's sprites).
    pub fn choice_preview_art(&self) -> Option<u64> {
        self.choice.as_ref()?.preview.as_ref()?.4.art_key()
    }

    /// What the menu bar names as the level or log shown (its file, "(edited)" when Play runs
    /// Edit's changed draft).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// What the window's title bar and the menu bar name: in the Pack view the open pack (its
    /// name, `*` when unsaved, its file), elsewhere [`EditorApp::title`].
    pub fn window_title(&self) -> String {
        // While a file's levels are offered, the title names that file, not the game behind
        // the chooser (issue 36.9: it still said "classic 2048 (built in)").
        if let Some(c) = &self.choice {
            return format!("choose a level of {}", c.path.display());
        }
        match self.pack.path() {
            Some(path) if self.mode == Mode::Pack => format!(
                "pack {}{} ({})",
                self.pack.pack().name,
                if self.pack.dirty() { " *" } else { "" },
                path.display()
            ),
            _ if self.has_source() => {
                // A game written as text: its title, the level played, and whether its source
                // has changes not saved (in Edit or typed in the source pane).
                // Debug names the log's level (the session may be another game's).
                // Edit names its draft's game; Play its game when that is written as text
                // (after a crash recovery Play may still hold another: issue 63.12).
                let draft = &self.edit.draft().settings;
                let level = match self.debug.debugger() {
                    Some(d) if self.mode == Mode::Debug => &d.log().header().level,
                    _ if self.mode == Mode::Edit => draft,
                    _ => self.session.level(),
                };
                let (source, k) = source_of(level).or_else(|| source_of(draft)).unwrap_or(("", 0));
                let name = source.lines().find_map(|l| l.trim().strip_prefix("title ")).map(str::trim);
                let unsaved = self.edit.dirty() || self.workbench.unsaved_typing();
                let file = match self.debug.debugger().and_then(|d| d.path()) {
                    Some(p) if self.mode == Mode::Debug => p.display().to_string(),
                    _ => self.title.clone(),
                };
                format!(
                    "{} · level {} · {}{}",
                    name.unwrap_or("untitled game"),
                    k + 1,
                    file,
                    if unsaved { " · unsaved" } else { "" }
                )
            }
            _ => self.title.clone(),
        }
    }

    /// The levels Play and Edit show (from 1) when they differ, for a game written as text.
    pub fn levels_shown(&self) -> Option<(usize, usize)> {
        if !self.has_source() {
            return None;
        }
        let play = games::of_level(self.session.level())?.source_text(self.session.level())?.1;
        let edit = self.edit.draft().game().source_text(&self.edit.draft().settings)?.1;
        (play != edit).then_some((play + 1, edit + 1))
    }

    /// The error shown in the window, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The settings (to persist).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Draws the editor and handles its input.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let now = ui.input(|i| i.time);
        if ui.input(|i| i.viewport().close_requested())
            && (self.edit.dirty() || self.pack.dirty())
            && !self.may_close
        {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
        if self.dialog_open() {
            // A dialog takes the keys: the source's text gives up the focus it had.
            let id = self.workbench.editor().text_id();
            ui.ctx().memory_mut(|m| {
                if m.has_focus(id) {
                    m.surrender_focus(id);
                }
            });
        }
        // Ctrl+S saves the game of a game written as text, wherever the focus is (the source
        // pane's text too) in Edit, Play and Debug.
        let save = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::S);
        if self.has_source()
            && self.mode != Mode::Pack
            && !self.dialog_open()
            && ui.input_mut(|i| i.consume_shortcut(&save))
        {
            self.save_game();
        }
        if self.mode == Mode::Edit
            && !self.dialog_open()
            && let Some(a) = self.edit.shortcuts(ui.ctx())
        {
            self.edit_action(a);
        }
        self.take_step(ui.ctx(), now);
        self.shortcuts(ui.ctx(), now);
        let title = self.window_title();
        if title != self.sent_title {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Title(format!("{title} — tessera")));
            self.sent_title = title;
        }
        self.menu_bar(ui);
        self.status_bar(ui, now);
        // The Generate pane first: it takes the window's height at the right (the console is
        // under the board and the source pane).
        self.generate_ui(ui);
        self.workbench_ui(ui);
        if self.mode == Mode::Debug && self.log_game.is_some() {
            let mut open = false;
            egui::Panel::top("debug-other-game").show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        "This log is of another game than Edit's (or another version of it): Edit keeps its own.",
                    );
                    open = ui
                        .button("Open the log's game in Edit")
                        .on_hover_text("As a game of its own, without a file (Save game source as… asks where)")
                        .clicked();
                });
            });
            if open {
                self.open_log_game();
            }
        }
        if self.mode == Mode::Debug && self.debug_stale {
            egui::Panel::top("debug-stale").show(ui, |ui| {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    "This line of play was recorded by the rules before the rebuild: the source's lines may have moved.",
                );
            });
        }
        match self.mode {
            Mode::Edit => {
                let mut error = None;
                let action = self.edit.ui(ui, &mut error);
                if error.is_some() {
                    self.error = error;
                }
                if let Some(a) = action {
                    self.edit_action(a);
                }
            }
            Mode::Play => self.play_ui(ui, now),
            Mode::Debug => match self.debug.ui(ui, self.settings.speed) {
                Some(DebugAction::PlayFromHere(s)) => {
                    self.set_session(*s);
                    self.mode = Mode::Play;
                }
                Some(DebugAction::ShowSourceLine(line)) => self.show_source_line(line),
                None => {}
            },
            Mode::Pack => {
                if let Some(a) = self.pack.ui(ui) {
                    self.pack_action(a);
                }
            }
        }
        self.picker_ui(ui.ctx());
        self.choice_ui(ui.ctx());
        self.pending_ui(ui.ctx());
        self.overwrite_ui(ui.ctx());
        self.recovered_ui(ui.ctx());
        self.keep_recovery(ui.ctx(), now);
        self.hear(ui.ctx(), now);
    }

    fn edit_action(&mut self, action: EditAction) {
        match action {
            EditAction::Play(level, seed) => {
                // "(edited)" only when it is: an untouched level keeps its file's name (or, when
                // it has none, what the window shows, as an import's path).
                let title = match (self.edit.path(), self.edit.dirty()) {
                    (Some(p), true) => format!("{} (edited)", p.display()),
                    (None, true) => "edited level".into(),
                    (Some(p), false) => p.display().to_string(),
                    (None, false) => self.title.clone(),
                };
                if self.open_level(level, seed, &title) {
                    let path = self.edit.path().map(Path::to_path_buf);
                    self.set_source(path.as_deref(), true);
                }
            }
            EditAction::SaveAs => {
                let dir = self.start_dir();
                // Its file's name, else the level's own name, else "level.json".
                let name = match self.edit.path().and_then(|p| p.file_name()) {
                    Some(n) => n.to_string_lossy().into_owned(),
                    None => file_name_for(self.edit.draft().name.as_deref()),
                };
                self.picker = Some(FilePicker::new(Purpose::SaveLevel, dir, &name));
            }
            EditAction::Save(path) => self.save_level(&path),
        }
    }
}

/// The source of a game written as text `level` is a level of, and which level it is.
fn source_of(level: &Level) -> Option<(&str, usize)> {
    games::of_level(level).and_then(|g| g.source_text(level))
}

/// A file name for a level called `name`: its letters and digits, other characters as `-`
/// (`"Level 3: the box"` → `level-3-the-box.json`); `level.json` without a usable name.
pub fn file_name_for(name: Option<&str>) -> String {
    let mut out = String::new();
    for c in name.unwrap_or("").chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let stem = out.trim_end_matches('-');
    if stem.is_empty() { "level.json".into() } else { format!("{stem}.json") }
}

/// The score the status bar and the inspector show: [`AnyState::score`], unless the rule set's
/// entry says its objectives already name it ([`games::EditorGame::shows_score`]).
pub fn shown_score(state: &AnyState) -> Option<u64> {
    state.score().filter(|_| games::of(state.rule_set()).is_none_or(|g| g.shows_score()))
}

/// The objectives line of the status bar (match3's moves and target, tactics' turn, 2048's
/// target), from the rule set's editor entry.
pub fn objectives(rules: &AnyRules, state: &AnyState) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(g) = games::of(rules.rule_set()) {
        g.objectives(rules, state, &mut out);
    }
    out
}
