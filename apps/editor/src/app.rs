//! [`EditorApp`]: the window — a menu bar, the mode's panels, the board, a status bar — and what
//! persists between runs ([`Settings`]).

use crate::anim::Speed;
use crate::board::BoardView;
use crate::debug::{DebugAction, DebugView};
use crate::edit::{EditAction, EditView};
use crate::files::{FilePicker, Opened, Purpose};
use crate::games::{self, PlayAction};
use crate::play::PlayInput;
use crate::recovery::{Recovered, Recovery};
use crate::session::Session;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use tessera_core::{AnyRules, AnyState, Level, Rules};

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
    /// When the walk's next step may be played (egui time): a pause of [`WALK_PHASES`] phases
    /// of the speed after the last, so the eye can follow.
    walk_at: f64,
    new_seed: u64,
    title: String,
    /// The window title last sent to the window.
    sent_title: String,
    last_hover: Option<tessera_core::Pos>,
    pinned_hover: Option<tessera_core::Pos>,
    /// The source pane of a game written as text (`workbench.rs`).
    workbench: crate::workbench::Workbench,
    /// What the game said, step by step (`console.rs`).
    console: crate::console::Console,
    /// The debugger's log was recorded by rules a rebuild has since replaced.
    debug_stale: bool,
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
            walk_at: 0.0,
            new_seed: 0,
            title: "classic 2048 (built in)".into(),
            sent_title: String::new(),
            last_hover: None,
            pinned_hover: None,
            workbench: crate::workbench::Workbench::default(),
            console: crate::console::Console::default(),
            debug_stale: false,
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

    /// Puts a game source that built into Edit's draft and plays it (what Rebuild does when the
    /// text compiles): the level Edit shows, with the new rules, in Play. Everything computed
    /// from the old rules goes: Hint's solution (it is keyed by the rules), the Difficulty
    /// figures, a solution being shown; the debugger's log is marked as of the old rules.
    pub fn rebuilt(&mut self, source: String) {
        let marks = self.workbench.marks().to_vec();
        match self.edit.rebuild_with(source) {
            Ok(level) => {
                let seed = self.edit.play_seed();
                self.edit_action(EditAction::Play(level, seed));
                if self.debug_of.is_some() {
                    // The line of play shown in Debug is opened again from the new game.
                    self.debug_of = Some((u64::MAX, 0));
                } else {
                    // A log file stays, marked as of the old rules.
                    self.debug_stale = self.debug.is_open();
                }
                self.console.compiled(&marks, true);
            }
            Err(e) => {
                self.console.compiled(&marks, true);
                self.edit.say(format!("rebuilt, but the level does not play yet: {e}"));
            }
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
    fn console_step(&mut self) {
        let history = self.session.history();
        let step = history.step();
        let Some(events) = history.events_at(step) else { return };
        let (rules, state) = (history.rules(), history.state());
        let Some(game) = games::of(rules.rule_set()) else { return };
        let mut lines = Vec::new();
        game.console_lines(rules, state, events, &mut lines);
        if lines.is_empty() && game.source_text(self.session.level()).is_none() {
            return;
        }
        let cmd = history.command_at(step).map_or_else(|| "?".to_string(), |c| c.to_string());
        let header =
            crate::console::ConsoleLine::new(crate::console::Kind::Step, format!("step {step}: {cmd}"), None);
        self.console.extend(std::iter::once(header).chain(lines));
    }

    /// The game being played.
    pub fn session(&self) -> &Session {
        &self.session
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
            Pending::Open(path) => self.open_now(&path),
            Pending::OpenLevel(_, i) => {
                if let Some(mut c) = self.choice.take() {
                    c.selected = i;
                    self.open_from_collection(c);
                }
            }
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

    /// The source pane at line `line` of the debugged log's game (Debug's "line N"): Edit
    /// keeps the game it holds when that is a game written as text (its file, its levels added
    /// since the log was recorded), saying so when the log was of another source; otherwise Edit
    /// shows the log's level first (unless it holds unsaved edits).
    fn show_source_line(&mut self, line: u32) {
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
                let level = self.session.level();
                let game = games::of_level(level);
                let (source, k) = game.and_then(|g| g.source_text(level)).unwrap_or(("", 0));
                let name = source.lines().find_map(|l| l.trim().strip_prefix("title ")).map(str::trim);
                let unsaved = self.edit.dirty() || self.workbench.unbuilt();
                format!(
                    "{} · level {} · {}{}",
                    name.unwrap_or("untitled game"),
                    k + 1,
                    self.title,
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

    fn open_now(&mut self, path: &Path) {
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
                self.choice =
                    Some(LevelChoice { path: path.to_path_buf(), levels, names, selected: 0, preview: None });
                self.error = None;
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
                // Edit shows the log's level (unless it holds unsaved edits, kept as they are).
                if !self.edit.dirty() {
                    let level = log.header().level.clone();
                    if let Err(e) = self.edit.load(&level, None) {
                        self.say(format!("the log's level does not open in Edit: {e}"), false);
                    }
                }
                self.debug.open_log(*log, Some(path.to_path_buf()));
                self.debug_of = None;
                self.debug_stale = false;
                self.mode = Mode::Debug;
                self.title = path.display().to_string();
                self.remember(path);
                self.error = None;
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Loads `level`, read from `path`, into Edit (as the file to save to when `ours`) and starts
    /// it (Edit mode stays in Edit, other modes go to Play), titled `title`.
    fn start_opened(&mut self, level: Level, path: &Path, ours: bool, title: String) {
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
    fn choice_ui(&mut self, ctx: &egui::Context) {
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
    fn open_from_collection(&mut self, c: LevelChoice) {
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
    fn set_source(&mut self, file: Option<&Path>, from_edit: bool) {
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

    fn set_session(&mut self, s: Session) {
        self.walk.clear();
        self.source = Source::default();
        self.new_seed = s.seed();
        self.session = s;
        self.play.clear();
        self.board.fit();
        self.error = None;
        self.notice = None;
        // The console is of the level played.
        self.console.clear();
    }

    /// Shows the current line of play in the debugger.
    fn debug_session(&mut self) {
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

    fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.settings.recent.retain(|p| p != &path);
        self.settings.recent.insert(0, path.clone());
        self.settings.recent.truncate(MAX_RECENT);
        self.settings.last_dir = path.parent().map(Path::to_path_buf);
    }

    /// Undoes a step of play.
    pub fn undo(&mut self, now: f64) {
        self.walk.clear();
        if self.session.undo(now, self.settings.speed) {
            self.play.clear();
            self.notice = None;
        }
    }

    /// Redoes a step of play.
    pub fn redo(&mut self, now: f64) {
        self.walk.clear();
        if self.session.redo(now, self.settings.speed) {
            self.play.clear();
            self.notice = None;
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
    fn walk_on(&mut self, ctx: &egui::Context, now: f64) {
        if self.walk.is_empty() {
            return;
        }
        ctx.request_repaint();
        if now < self.walk_at
            || self.session.clock().running(now)
            || self.session.turns_running(now)
            || self.play.message.is_some()
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
    fn play_step(&mut self, cmd: &tessera_core::AnyCommand, now: f64) -> bool {
        match self.session.execute(cmd, now, self.settings.speed) {
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
        if self.mode == Mode::Edit
            && !self.dialog_open()
            && let Some(a) = self.edit.shortcuts(ui.ctx())
        {
            self.edit_action(a);
        }
        self.shortcuts(ui.ctx(), now);
        let title = self.window_title();
        if title != self.sent_title {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Title(format!("{title} — tessera")));
            self.sent_title = title;
        }
        self.menu_bar(ui);
        self.status_bar(ui, now);
        self.workbench_ui(ui);
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

    /// Plays the sounds the game made and those now due (`audio.rs`); says once when there is
    /// no audio device.
    fn hear(&mut self, ctx: &egui::Context, now: f64) {
        for s in self.session.take_sounds().into_iter().chain(self.debug.take_sounds()) {
            self.audio.schedule(s);
        }
        for seed in crate::sound_picker::take_requests(ctx) {
            self.audio.play_now(&seed);
        }
        if self.audio.tick(now) {
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

    /// The source pane (left, full height, a split the designer drags, its width kept) and the
    /// console under the board, for a game written as text; what they ask is done here.
    fn workbench_ui(&mut self, ui: &mut egui::Ui) {
        if !self.source_shown() {
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
            None => {}
        }
        if !self.settings.console_hidden {
            let mut go = None;
            egui::Panel::bottom("console").resizable(true).default_size(170.0).show(ui, |ui| {
                go = self.console.ui(ui);
            });
            if let Some(line) = go {
                self.workbench.go_to_line(line as usize);
            }
        }
    }

    /// A token of the source was clicked: a sound's seed ([`crate::syntax::Class::Sound`]) plays.
    fn token_clicked(&mut self, token: crate::source_editor::ClickedToken) {
        if token.class == crate::syntax::Class::Sound {
            self.audio.play_now(&token.text);
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

    /// Keeps the recovery file in step with the draft (not while recovered edits wait for an
    /// answer: they must not be overwritten).
    fn keep_recovery(&mut self, ctx: &egui::Context, now: f64) {
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
    fn recovered_ui(&mut self, ctx: &egui::Context) {
        if let Some(r) = &self.recovered {
            let text = format!("The editor closed before these edits were saved: {}.", r.describe());
            let buttons = ("Restore edits", "Discard edits");
            if let Some(restore) = ask(ctx, "recovered-edits", "Recover unsaved edits?", &text, buttons) {
                self.answer_recovered(restore);
            }
        } else if let Some(path) = &self.recovered_pack {
            let text = format!("The editor closed before edits to the pack {} were saved.", path.display());
            let buttons = ("Open pack with edits", "Discard pack edits");
            if let Some(restore) = ask(ctx, "recovered-pack", "Recover unsaved pack edits?", &text, buttons) {
                self.answer_recovered_pack(restore);
            }
        }
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

    fn overwrite_ui(&mut self, ctx: &egui::Context) {
        let Some((path, reason)) = &self.overwrite else { return };
        let text = format!(
            "{} holds a level that plays. The level being edited does not play yet ({reason}). \
             Saving it there replaces the playable level with this draft.",
            path.display()
        );
        let buttons = ("Save the draft over it", "Cancel");
        if let Some(save) =
            ask(ctx, "overwrite-playable", "Save a draft over a playable level?", &text, buttons)
        {
            self.answer_overwrite(save);
        }
    }

    fn save_level_now(&mut self, path: &Path) {
        match self.edit.save(path) {
            Ok(msg) => {
                self.edit.say(msg);
                self.title = path.display().to_string();
                self.remember(path);
            }
            Err(e) => self.error = Some(e),
        }
    }

    fn pending_ui(&mut self, ctx: &egui::Context) {
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
        };
        let mut answer = None;
        // A level of a game's file is saved into that file.
        let game_source = self.edit.imported_from().is_some() && self.has_source();
        egui::Modal::new(egui::Id::unique("unsaved-changes")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!("The level being edited has changes that are not saved. {what}"));
            ui.horizontal(|ui| {
                let save = if game_source { "Save game source" } else { "Save level" };
                if ui.button(save).clicked() {
                    answer = Some(Answer::Save);
                }
                if ui.button("Discard changes").clicked() {
                    answer = Some(Answer::Discard);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(Answer::Cancel);
                }
            });
        });
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

    fn shortcuts(&mut self, ctx: &egui::Context, now: f64) {
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

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
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
                        let dir = self.start_dir();
                        let name = self
                            .edit
                            .imported_from()
                            .and_then(|p| p.file_name())
                            .map_or("game.txt".into(), |n| n.to_string_lossy().into_owned());
                        self.picker = Some(FilePicker::new(Purpose::SaveGameSource, dir, &name));
                    }
                    if ui.button("Save log…").clicked() {
                        let dir = self.start_dir();
                        self.picker = Some(FilePicker::new(Purpose::SaveLog, dir, "session.tlog"));
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
    fn changed_ui(&mut self, ui: &mut egui::Ui) {
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

    fn start_dir(&self) -> PathBuf {
        self.settings
            .last_dir
            .clone()
            .filter(|d| d.is_dir())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."))
    }

    fn picker_ui(&mut self, ctx: &egui::Context) {
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
            Purpose::SaveLog => match self.session.save_log(&path) {
                Ok(()) => {
                    self.say(format!("saved {}", path.display()), false);
                    self.remember(&path);
                }
                Err(e) => self.error = Some(e),
            },
        }
    }

    /// The status bar: a line about the level or game, then the message line — the error, or
    /// the mode's message — which is always there and one line high (long text is cut, the
    /// whole of it on hover), so a message coming or going never moves what is above it.
    /// The debugger and the Pack view have their own status lines; an error shows under them.
    fn status_bar(&mut self, ui: &mut egui::Ui, now: f64) {
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
    fn message_line(&mut self, ui: &mut egui::Ui, now: f64) {
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
    fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref().filter(|n| n.at == self.position())
    }

    /// The position Play is at: the step and the state hash.
    fn position(&self) -> (u64, u64) {
        (self.session.history().step(), self.session.state().hash())
    }

    /// Says `text` in Play's status bar, about the position on the board (`undo`: offer Undo).
    fn say(&mut self, text: String, undo: bool) {
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

    fn play_ui(&mut self, ui: &mut egui::Ui, now: f64) {
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

    fn play_controls(&mut self, ui: &mut egui::Ui, now: f64) {
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
            if !self.walk.is_empty() {
                let step = self.walk_len - self.walk.len();
                ui.label(format!("Showing the solution: step {step} of {}", self.walk_len));
                if ui.button("Stop").on_hover_text("Stop here (any step, Undo or Redo also stops)").clicked()
                {
                    self.walk.clear();
                }
            }
        });
        let (rules, state) = (self.session.history().rules(), self.session.state());
        let action = games::of(rules.rule_set()).and_then(|g| g.play_panel(ui, rules, state, &mut self.play));
        match action {
            Some(PlayAction::Execute(cmd)) => self.execute(&cmd, now),
            Some(PlayAction::Notice(n)) => self.say(n, false),
            Some(PlayAction::Lost(n)) => self.say(n, true),
            Some(PlayAction::Walk(steps)) => {
                self.notice = None;
                self.walk_len = steps.len();
                self.walk = steps.into();
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
            let hover = if uses_seed {
                "Start this level again with the seed above"
            } else {
                "Start this level again"
            };
            if ui.button("New game").on_hover_text(hover).clicked() {
                self.new_game(self.new_seed);
            }
            if ui.button("Restart").on_hover_text("Back to step 0; the line of play stays for redo").clicked()
            {
                self.session.restart();
                self.play.clear();
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

    fn branches_ui(&mut self, ui: &mut egui::Ui) {
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

/// A modal question with two buttons: `Some(true)` for the first, `Some(false)` for the second,
/// `None` while unanswered.
fn ask(
    ctx: &egui::Context,
    id: &'static str,
    heading: &str,
    text: &str,
    (yes, no): (&str, &str),
) -> Option<bool> {
    let mut answer = None;
    egui::Modal::new(egui::Id::unique(id)).show(ctx, |ui| {
        ui.heading(heading);
        ui.label(text);
        ui.horizontal(|ui| {
            if ui.button(yes).clicked() {
                answer = Some(true);
            }
            if ui.button(no).clicked() {
                answer = Some(false);
            }
        });
    });
    answer
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

/// `text` over `board`, with how to go on (a PuzzleScript `message`): with the game's own
/// colours (background, text) a screen of them, as PuzzleScript shows a message; else a box
/// over the middle of the dimmed board.
fn message_box(
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
