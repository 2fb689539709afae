//! The Pack view: a level pack (`tessera_pack`) as a list in play order — a board thumbnail
//! (the editor's own `BoardView` over a mirror of the level's start), title, rule set and latest
//! rating per entry — with reorder (drag a row, or Move up / Move down), add (a level file or a
//! new level), duplicate, remove, rename, open in Edit or Play; Rate all (a bot per rule set, a
//! number of games, on a background thread with progress and Cancel, which keeps the levels
//! finished; only levels without a rating under those settings are played); and the difficulty
//! curve (egui_plot): win rate with its interval per level over the target bands, flagged
//! levels in red, a click on a point opens that level; the moves median below.
//!
//! `PackView` is the model the tests drive; `ui` returns a [`PackAction`] the app carries out.
//! The pack is saved atomically (`Pack::save`); the results file is written when a rating
//! ends.
//!
//! `PackView` (the model the tests drive, over `tessera_pack`): the pack file, one `Slot` per entry
//! (its level resolved or the error, and a thumbnail: a `Mirror` of the level's start drawn by a
//! `BoardView` of its own, the same drawing as the board), the results, the bot per rule set, a
//! rating running on a thread (`rate::run` of the whole plan, progress in atomics, Cancel through
//! its stop flag, `rate::finish` over a channel; the results file written when it arrives), and the
//! curve (`Curve::of`, drawn with egui_plot: target bands as polygons, intervals, points, flagged
//! points red, a click opens the entry in Play; moves median below). Edits (`move_entry` — Move
//! up/down or dragging a row —, `add_file`, `add_new`, `duplicate` as an inline copy, `remove`,
//! `rename`) mark it dirty; Save pack writes atomically after `Pack::resolve`. `ui` returns a
//! `PackAction` (open an entry in Edit or Play) that `EditorApp::pack_action` carries out; the app
//! asks before closing with an unsaved pack, and re-reads the entries' level files when the Pack
//! tab comes back (an inline entry opened in Edit, `EditorApp::pack_inline`, takes Edit's level
//! back through `PackView::replace_inline`). Unsaved pack edits go to `unsaved-pack.json` in the
//! recovery folder (the pack's absolute path and its JSON, atomically, at most once a second;
//! removed once saved); the next start asks about them ("Open pack with edits" / "Discard pack
//! edits", after the level question if both are left), and opening that pack restores them too.
//! `is_pack_file` tells a pack from a level on File → Open. Tests: `apps/editor/tests/pack.rs`.

use crate::board::{BoardView, Overlay};
use egui_plot::{Line, Plot, Points, Polygon};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use tessera_bots::{BotKind, BotSpec, GameConfig};
use tessera_core::{AnyRules, AnyState, Level, RuleSet};
use tessera_ecs::Mirror;
use tessera_pack::rate::{self, ANY_RULE_SET};
use tessera_pack::{Curve, Entry, Flag, LevelRef, Pack, Plan, Progress, Resolved, Results, Settings, Shard};

/// What the Pack view asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum PackAction {
    /// Open an entry's level in Edit (`play: false`) or Play, with its file when it has one.
    Open {
        /// The entry (0-based).
        entry: usize,
        /// The level.
        level: Box<Level>,
        /// Its file (`None` for an inline level).
        path: Option<PathBuf>,
        /// Play rather than Edit.
        play: bool,
    },
}

/// An entry's level read, or why not, and its thumbnail.
struct Slot {
    level: Result<Resolved, String>,
    thumb: Option<(Mirror, AnyRules, AnyState, BoardView)>,
}

impl Slot {
    fn of(pack: &Pack, path: &Path, i: usize) -> Slot {
        let level = pack.resolve_entry(path, i).map_err(|e| e.to_string());
        let thumb = level.as_ref().ok().and_then(|r| {
            let game = r.level.start(None).ok()?;
            Some((Mirror::from_state(&game.state), game.rules, game.state, BoardView::default()))
        });
        Slot { level, thumb }
    }
}

struct Running {
    stop: Arc<AtomicBool>,
    done: Arc<AtomicU64>,
    levels_done: Arc<AtomicU64>,
    total: u64,
    levels: u64,
    result: Receiver<Result<(Results, usize), String>>,
}

/// Where a message shows: beside the buttons that caused it, in a line kept for it, so that
/// nothing moves when a message comes or goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// The pack's toolbar (Save pack, New level, Add file, Undo, Redo).
    Toolbar,
    /// The selected entry's buttons.
    Entry,
    /// Rate all.
    Rate,
}

/// A message of the view: where it shows, whether it is an error, its text.
#[derive(Clone, Debug)]
struct Message {
    place: Place,
    error: bool,
    text: String,
}

/// The pack and the selection before an edit, for Undo.
#[derive(Clone, Debug)]
struct Snapshot {
    pack: Pack,
    selected: Option<usize>,
}

/// The Pack view.
pub struct PackView {
    path: Option<PathBuf>,
    pack: Pack,
    slots: Vec<Slot>,
    results: Results,
    dirty: bool,
    selected: Option<usize>,
    add_path: String,
    bots: BTreeMap<RuleSet, BotKind>,
    games: u64,
    jobs: usize,
    running: Option<Running>,
    message: Option<Message>,
    /// Undo and redo of pack edits (every edit: move, add, duplicate, remove, rename, an inline
    /// level edited in Edit).
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The entry whose title the last undo step renamed (typing a title is one step).
    renaming: Option<usize>,
    /// The pack as last opened or saved (unsaved is "differs from it").
    saved: Option<Pack>,
    /// Where unsaved pack edits are kept (see [`PackView::enable_recovery`]), and when they were
    /// last written (egui time).
    recovery: Option<(PathBuf, Option<f64>)>,
}

/// `path` made absolute (as the recovery file names packs), or as it is.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The pack file whose edits the recovery file `file` keeps.
fn kept_for(file: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(file).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value.get("path")?.as_str().map(PathBuf::from)
}

/// The side of a board thumbnail in the list, in points.
const THUMB: f32 = 72.0;

/// The file, in the recovery folder, that keeps a pack's unsaved edits.
pub const PACK_RECOVERY_FILE: &str = "unsaved-pack.json";

impl Default for PackView {
    fn default() -> Self {
        PackView {
            path: None,
            pack: Pack::new("new pack"),
            slots: Vec::new(),
            results: Results::empty(),
            dirty: false,
            selected: None,
            add_path: String::new(),
            bots: BTreeMap::new(),
            games: 100,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            running: None,
            message: None,
            undo: Vec::new(),
            redo: Vec::new(),
            renaming: None,
            saved: None,
            recovery: None,
        }
    }
}

impl PackView {
    /// Opens the pack file `path` with its results.
    pub fn open(&mut self, path: &Path) -> Result<(), String> {
        let pack = Pack::read(path).map_err(|e| e.to_string())?;
        let results = Results::read(&tessera_pack::results_path(path)).map_err(|e| e.to_string())?;
        self.cancel();
        self.running = None;
        self.slots = (0..pack.entries.len()).map(|i| Slot::of(&pack, path, i)).collect();
        self.pack = pack;
        self.results = results;
        self.path = Some(path.to_path_buf());
        self.dirty = false;
        self.saved = Some(self.pack.clone());
        self.undo.clear();
        self.redo.clear();
        self.renaming = None;
        self.message = None;
        self.restore(path);
        self.selected = None;
        if let Some(s) = &self.results.settings {
            for r in RuleSet::ALL {
                if let Some(b) = s.bot_for(*r) {
                    self.bots.insert(*r, b.kind);
                }
            }
            self.games = s.games;
        }
        Ok(())
    }

    /// Keeps unsaved pack edits in `dir` ([`PACK_RECOVERY_FILE`], written atomically at most
    /// once a second while the pack is unsaved, removed once it is saved). The next start asks
    /// about them ([`PackView::left_over`]); opening the same pack again restores them (marked
    /// unsaved, with a notice).
    pub fn enable_recovery(&mut self, dir: &Path) {
        self.recovery = Some((dir.join(PACK_RECOVERY_FILE), None));
    }

    /// The pack file an earlier run left unsaved edits of (named in the recovery file), if any:
    /// what the editor asks about when it starts.
    pub fn left_over(&self) -> Option<PathBuf> {
        let (file, _) = self.recovery.as_ref()?;
        kept_for(file)
    }

    /// Gives up the unsaved pack edits an earlier run left (removes the recovery file).
    pub fn discard_left_over(&mut self) -> Result<(), String> {
        let Some((file, _)) = &self.recovery else { return Ok(()) };
        match std::fs::remove_file(file) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(format!("cannot remove the recovery file {}: {e}", file.display())),
        }
    }

    /// Restores the edits kept for the pack file `path`, if the recovery file holds some.
    fn restore(&mut self, path: &Path) {
        let Some((file, _)) = &self.recovery else { return };
        let Ok(text) = std::fs::read_to_string(file) else { return };
        let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(&text) else {
            return;
        };
        let same = o.get("path").and_then(|p| p.as_str()).is_some_and(|p| Path::new(p) == absolute(path));
        let Some(kept) = o.get("pack").filter(|_| same) else { return };
        match Pack::parse(&kept.to_string(), file) {
            Ok(pack) => {
                self.slots = (0..pack.entries.len()).map(|i| Slot::of(&pack, path, i)).collect();
                self.pack = pack;
                self.dirty = true;
                self.say(Place::Toolbar, false, "restored unsaved pack edits from the recovery file");
            }
            Err(e) => self.say(Place::Toolbar, true, format!("the recovery file does not load: {e}")),
        }
    }

    /// Writes or removes the recovery file as the pack is unsaved or saved (`now`: egui time).
    pub fn keep_recovery(&mut self, now: f64) {
        let Some((file, written)) = &mut self.recovery else { return };
        if !self.dirty {
            // Saved (or never changed): drop what was kept for this pack; another pack's edits
            // stay until that pack is opened.
            let ours = written.take().is_some()
                || (file.exists()
                    && self.path.is_some()
                    && kept_for(file) == self.path.as_deref().map(absolute));
            if ours {
                let _ = std::fs::remove_file(&*file);
            }
            return;
        }
        if written.is_some_and(|t| now - t < 1.0) {
            return;
        }
        let Some(path) = &self.path else { return };
        let pack: serde_json::Value = serde_json::from_str(&self.pack.to_json()).unwrap_or_default();
        let text =
            serde_json::json!({ "path": absolute(path).display().to_string(), "pack": pack }).to_string();
        match tessera_replay::atomic_write(&*file, text.as_bytes()) {
            Ok(()) => *written = Some(now),
            Err(e) => {
                let text = format!("{}: {e}", file.display());
                self.say(Place::Toolbar, true, text);
            }
        }
    }

    /// The key of entry `i`'s thumbnail picture when the rule set draws its own (PuzzleScript's
    /// sprites), as last drawn.
    pub fn thumbnail_art(&self, i: usize) -> Option<u64> {
        self.slots.get(i)?.thumb.as_ref()?.3.art_key()
    }

    /// Whether a pack is open.
    pub fn is_open(&self) -> bool {
        self.path.is_some()
    }

    /// The pack file.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The pack as edited.
    pub fn pack(&self) -> &Pack {
        &self.pack
    }

    /// The ratings.
    pub fn results(&self) -> &Results {
        &self.results
    }

    /// Whether the pack has changes not saved.
    pub fn dirty(&self) -> bool {
        self.dirty
    }

    /// The message of the last failed action, if any.
    pub fn error(&self) -> Option<&str> {
        self.message.as_ref().filter(|m| m.error).map(|m| m.text.as_str())
    }

    /// The message shown (an error or a notice), if any.
    pub fn message(&self) -> Option<&str> {
        self.message.as_ref().map(|m| m.text.as_str())
    }

    fn say(&mut self, place: Place, error: bool, text: impl Into<String>) {
        self.message = Some(Message { place, error, text: text.into() });
    }

    /// Keeps the pack as it is before an edit, for Undo (a new edit clears Redo).
    fn remember(&mut self) {
        self.undo.push(Snapshot { pack: self.pack.clone(), selected: self.selected });
        self.redo.clear();
        self.renaming = None;
    }

    /// Whether there is a pack edit to undo / to redo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is a pack edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undoes the last pack edit.
    pub fn undo(&mut self) {
        if let Some(s) = self.undo.pop() {
            let now = Snapshot { pack: self.pack.clone(), selected: self.selected };
            self.redo.push(now);
            self.set_snapshot(s);
            self.say(Place::Toolbar, false, "undone");
        }
    }

    /// Redoes the last pack edit undone.
    pub fn redo(&mut self) {
        if let Some(s) = self.redo.pop() {
            let now = Snapshot { pack: self.pack.clone(), selected: self.selected };
            self.undo.push(now);
            self.set_snapshot(s);
            self.say(Place::Toolbar, false, "redone");
        }
    }

    fn set_snapshot(&mut self, s: Snapshot) {
        self.pack = s.pack;
        self.selected = s.selected.filter(|&i| i < self.pack.entries.len());
        self.renaming = None;
        self.refresh();
        self.dirty = self.saved.as_ref() != Some(&self.pack);
    }

    fn base(&self) -> PathBuf {
        self.path.clone().unwrap_or_else(|| PathBuf::from("pack.json"))
    }

    /// Re-reads every entry's level (after an edit in Edit mode saved a level file).
    pub fn refresh(&mut self) {
        let base = self.base();
        self.slots = (0..self.pack.entries.len()).map(|i| Slot::of(&self.pack, &base, i)).collect();
    }

    /// Saves the pack file (atomically).
    pub fn save(&mut self) -> Result<(), String> {
        let path = self.path.clone().ok_or("no pack file")?;
        self.pack.resolve(&path).map_err(|e| e.to_string())?;
        self.pack.save(&path).map_err(|e| e.to_string())?;
        self.dirty = false;
        self.saved = Some(self.pack.clone());
        Ok(())
    }

    /// Moves entry `from` to position `to` (0-based).
    pub fn move_entry(&mut self, from: usize, to: usize) {
        let before = Snapshot { pack: self.pack.clone(), selected: self.selected };
        if self.pack.move_entry(from, to).is_ok() {
            self.undo.push(before);
            self.redo.clear();
            self.renaming = None;
            let s = self.slots.remove(from);
            self.slots.insert(to, s);
            self.selected = Some(to);
            self.dirty = true;
        }
    }

    /// Adds the level file `file` after the selected entry (at the end without one).
    pub fn add_file(&mut self, file: &Path) -> Result<(), String> {
        let base = self.base();
        let dir = base.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let rel = match (std::path::absolute(file), std::path::absolute(dir)) {
            (Ok(f), Ok(d)) => f.strip_prefix(&d).map(|r| r.to_path_buf()).unwrap_or(f),
            _ => file.to_path_buf(),
        };
        self.insert(Entry::path(rel.to_string_lossy().replace('\\', "/")))
    }

    /// Adds a new inline level (the built-in classic 2048) after the selection.
    pub fn add_new(&mut self) -> Result<(), String> {
        let mut e = Entry {
            level: LevelRef::Inline(Box::new(Level::classic())),
            title: None,
            note: None,
            target: None,
        };
        e.title = Some(format!("new level {}", self.pack.entries.len() + 1));
        self.insert(e)
    }

    fn insert(&mut self, entry: Entry) -> Result<(), String> {
        let at = self.selected.map_or(self.pack.entries.len(), |s| s + 1);
        let mut pack = self.pack.clone();
        pack.add(entry, Some(at)).map_err(|e| e.to_string())?;
        let base = self.base();
        pack.resolve(&base).map_err(|e| e.to_string())?;
        self.remember();
        self.slots.insert(at, Slot::of(&pack, &base, at));
        self.pack = pack;
        self.selected = Some(at);
        self.dirty = true;
        Ok(())
    }

    /// Duplicates entry `i` after it: an inline copy of its level, titled "… (copy)" (the same
    /// content shares its ratings until edited).
    pub fn duplicate(&mut self, i: usize) -> Result<(), String> {
        let Some(Ok(r)) = self.slots.get(i).map(|s| s.level.as_ref()) else {
            return Err("this entry's level does not load".into());
        };
        let mut e = self.pack.entries[i].clone();
        e.title = Some(format!("{} (copy)", e.label()));
        e.level = LevelRef::Inline(Box::new(r.level.clone()));
        self.selected = Some(i);
        self.insert(e)
    }

    /// Removes entry `i` (Undo brings it back).
    pub fn remove(&mut self, i: usize) {
        let before = Snapshot { pack: self.pack.clone(), selected: self.selected };
        if let Ok(e) = self.pack.remove(i) {
            self.undo.push(before);
            self.redo.clear();
            self.renaming = None;
            self.slots.remove(i);
            self.selected = None;
            self.dirty = true;
            self.say(
                Place::Entry,
                false,
                format!("removed {}. {} (Undo or Ctrl+Z brings it back)", i + 1, e.label()),
            );
        }
    }

    /// Replaces inline entry `i`'s level with `level` (edited in Edit mode): the pack becomes
    /// unsaved, and the entry's rating is the new level's (none until rated). Refused for an
    /// entry that is a level file (Edit saves those itself) or a level that does not start.
    pub fn replace_inline(&mut self, i: usize, level: Level) -> Result<(), String> {
        level.start(None).map_err(|e| e.to_string())?;
        match self.pack.entries.get(i) {
            None => return Err(format!("no entry {}", i + 1)),
            Some(e) if !matches!(e.level, LevelRef::Inline(_)) => {
                return Err(format!("entry {} is a level file", i + 1));
            }
            Some(_) => {}
        }
        self.remember();
        self.pack.entries[i].level = LevelRef::Inline(Box::new(level));
        self.slots[i] = Slot::of(&self.pack, &self.base(), i);
        self.dirty = true;
        Ok(())
    }

    /// Sets entry `i`'s title (empty: none).
    pub fn rename(&mut self, i: usize, title: &str) {
        if i >= self.pack.entries.len() {
            return;
        }
        // Typing a title is one undo step.
        if self.renaming != Some(i) {
            self.remember();
            self.renaming = Some(i);
        }
        self.pack.entries[i].title = (!title.is_empty()).then(|| title.to_string());
        self.dirty = true;
    }

    /// The bot that rates levels of `rule_set` (default: greedy).
    pub fn bot(&self, rule_set: RuleSet) -> BotKind {
        self.bots.get(&rule_set).copied().unwrap_or(BotKind::GREEDY)
    }

    /// Chooses the bot for a rule set.
    pub fn set_bot(&mut self, rule_set: RuleSet, bot: BotKind) {
        self.bots.insert(rule_set, bot);
    }

    /// Sets the games per level for Rate all.
    pub fn set_games(&mut self, games: u64) {
        self.games = games.max(1);
    }

    /// Whether a rating runs.
    pub fn rating(&self) -> bool {
        self.running.is_some()
    }

    /// The curve of the pack as edited.
    pub fn curve(&self) -> Option<Curve> {
        let resolved: Vec<Resolved> =
            self.slots.iter().map(|s| s.level.clone()).collect::<Result<_, _>>().ok()?;
        Some(Curve::of(&self.pack, &resolved, &self.results))
    }

    /// Starts rating every level without a rating under the chosen bots and games.
    pub fn rate_all(&mut self) -> Result<(), String> {
        let resolved: Vec<Resolved> = self.slots.iter().map(|s| s.level.clone()).collect::<Result<_, _>>()?;
        let mut bots = BTreeMap::new();
        for r in &resolved {
            bots.insert(r.rule_set.name().to_string(), BotSpec::new(self.bot(r.rule_set)));
        }
        if bots.is_empty() {
            bots.insert(ANY_RULE_SET.to_string(), BotSpec::new(BotKind::GREEDY));
        }
        let settings = Settings { bots, games: self.games, seed: 0, config: GameConfig::default() };
        let labels: Vec<String> = self.pack.entries.iter().map(Entry::label).collect();
        let base = self.base();
        let plan =
            Plan::new(&base, &resolved, &labels, &self.results, settings, 50).map_err(|e| e.to_string())?;
        let (stop, done, levels_done) =
            (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let total = plan.games_of(Shard::ALL);
        let levels = plan.levels.len() as u64;
        let (tx, rx) = channel();
        let (s, d, l) = (stop.clone(), done.clone(), levels_done.clone());
        let old = self.results.clone();
        let jobs = self.jobs.max(1);
        std::thread::spawn(move || {
            let on_game = |p: Progress| {
                d.store(p.games_done, Ordering::Relaxed);
                l.store(p.levels_done, Ordering::Relaxed);
            };
            let r = rate::run(&plan, Shard::ALL, jobs, &s, &on_game)
                .map(|shard| rate::finish(&plan, &old, &resolved, &shard.units))
                .map_err(|e| e.to_string());
            let _ = tx.send(r);
        });
        self.running = Some(Running { stop, done, levels_done, total, levels, result: rx });
        self.message = None;
        Ok(())
    }

    /// Asks a rating to stop: the levels finished are kept.
    pub fn cancel(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Takes a finished rating's results (and writes the results file), if one has arrived.
    pub fn poll(&mut self) {
        let Some(r) = &self.running else { return };
        match r.result.try_recv() {
            Ok(Ok((results, rated))) => {
                self.running = None;
                self.results = results;
                let text = match rated {
                    0 => "rated 0 levels: every level has a rating under these settings".to_string(),
                    1 => "rated 1 level".to_string(),
                    n => format!("rated {n} levels"),
                };
                self.say(Place::Rate, false, text);
                if let Some(p) = &self.path
                    && let Err(e) = self.results.save(&tessera_pack::results_path(p))
                {
                    self.say(Place::Rate, true, e.to_string());
                }
            }
            Ok(Err(e)) => {
                self.running = None;
                self.say(Place::Rate, true, e);
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.running = None;
                self.say(Place::Rate, true, "the rating stopped without a result");
            }
        }
    }

    fn open_action(&self, i: usize, play: bool) -> Option<PackAction> {
        let level = self.slots.get(i)?.level.as_ref().ok()?.level.clone();
        let path = match &self.pack.entries[i].level {
            LevelRef::Path(p) => Some(self.base().parent().unwrap_or(Path::new(".")).join(p)),
            LevelRef::Inline(_) => None,
        };
        Some(PackAction::Open { entry: i, level: Box::new(level), path, play })
    }

    /// Draws the view.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<PackAction> {
        self.poll();
        self.keep_recovery(ui.input(|i| i.time));
        if self.running.is_some() {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        }
        let mut action = None;
        egui::Panel::left("pack-list").resizable(true).default_size(460.0).show(ui, |ui| {
            action = self.list_ui(ui);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(a) = self.rate_ui(ui) {
                action = Some(a);
            }
        });
        action
    }

    /// The message line kept for `place`: one line high whether a message is there or not, so
    /// that nothing under it moves.
    fn message_line(&self, ui: &mut egui::Ui, place: Place) {
        let h = ui.text_style_height(&egui::TextStyle::Body);
        let (rect, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), h), egui::Sense::hover());
        if let Some(m) = self.message.as_ref().filter(|m| m.place == place) {
            let colour = if m.error { ui.visuals().error_fg_color } else { ui.visuals().text_color() };
            let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
            child
                .add(egui::Label::new(egui::RichText::new(&m.text).color(colour)).truncate())
                .on_hover_text(&m.text);
        }
    }

    /// Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y) undo and redo pack edits, unless a text field has the keys.
    fn keys(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let (undo, redo) = ctx.input_mut(|i| {
            let redo = i.consume_shortcut(&egui::KeyboardShortcut::new(
                egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
                egui::Key::Z,
            )) || i
                .consume_shortcut(&egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Y));
            let undo =
                i.consume_shortcut(&egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Z));
            (undo, redo)
        });
        if undo {
            self.undo();
        }
        if redo {
            self.redo();
        }
    }

    fn list_ui(&mut self, ui: &mut egui::Ui) -> Option<PackAction> {
        let mut action = None;
        self.keys(ui.ctx());
        let title = match &self.path {
            Some(p) => format!("{}{} ({})", self.pack.name, if self.dirty { " *" } else { "" }, p.display()),
            None => "No pack open: File > Open… a pack file".into(),
        };
        ui.heading(title);
        ui.horizontal(|ui| {
            if ui.add_enabled(self.path.is_some(), egui::Button::new("Save pack")).clicked() {
                match self.save() {
                    Ok(()) => self.say(Place::Toolbar, false, "pack saved"),
                    Err(e) => self.say(Place::Toolbar, true, e),
                }
            }
            if ui.add_enabled(self.can_undo(), egui::Button::new("Undo")).on_hover_text("Ctrl+Z").clicked() {
                self.undo();
            }
            if ui
                .add_enabled(self.can_redo(), egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Shift+Z")
                .clicked()
            {
                self.redo();
            }
            if ui.button("New level").clicked()
                && let Err(e) = self.add_new()
            {
                self.say(Place::Toolbar, true, e);
            }
            let label = ui.label("Level file");
            ui.add(egui::TextEdit::singleline(&mut self.add_path).desired_width(150.0)).labelled_by(label.id);
            if ui.button("Add file").clicked() {
                let file = PathBuf::from(self.add_path.trim());
                let added = if self.add_path.trim().is_empty() {
                    Err("type a level file's path".into())
                } else {
                    self.add_file(&file)
                };
                match added {
                    Ok(()) => self.add_path.clear(),
                    Err(e) => self.say(Place::Toolbar, true, e),
                }
            }
        });
        self.message_line(ui, Place::Toolbar);
        // The selected entry's buttons and title are always there (disabled without a
        // selection): selecting a row moves nothing.
        let selected = self.selected.filter(|&i| i < self.pack.entries.len());
        ui.horizontal(|ui| {
            let n = self.pack.entries.len();
            let on = selected.is_some();
            let i = selected.unwrap_or(0);
            if ui.add_enabled(on && i > 0, egui::Button::new("Move up")).clicked() {
                self.move_entry(i, i - 1);
            }
            if ui.add_enabled(on && i + 1 < n, egui::Button::new("Move down")).clicked() {
                self.move_entry(i, i + 1);
            }
            if ui.add_enabled(on, egui::Button::new("Duplicate")).clicked()
                && let Err(e) = self.duplicate(i)
            {
                self.say(Place::Entry, true, e);
            }
            if ui
                .add_enabled(on, egui::Button::new("Remove"))
                .on_hover_text("Undo (Ctrl+Z) brings it back")
                .clicked()
            {
                self.remove(i);
            }
            if ui.add_enabled(on, egui::Button::new("Open in Edit")).clicked() {
                action = self.open_action(i, false);
            }
            if ui.add_enabled(on, egui::Button::new("Open in Play")).clicked() {
                action = self.open_action(i, true);
            }
        });
        let mut title = selected.and_then(|i| self.pack.entries[i].title.clone()).unwrap_or_default();
        ui.horizontal(|ui| {
            let label = ui.label("Title");
            let edit = ui.add_enabled(selected.is_some(), egui::TextEdit::singleline(&mut title));
            if edit.labelled_by(label.id).changed()
                && let Some(i) = selected
            {
                self.rename(i, &title);
            }
        });
        self.message_line(ui, Place::Entry);
        ui.separator();
        let curve = self.curve();
        let mut moved = None;
        let dragging = egui::DragAndDrop::has_payload_of_type::<usize>(ui.ctx());
        egui::ScrollArea::vertical().show(ui, |ui| {
            for i in 0..self.pack.entries.len() {
                let label = format!("{}. {}", i + 1, self.pack.entries[i].label());
                let rating =
                    match (&self.slots[i].level, curve.as_ref().and_then(|c| c.entries[i].rating.as_ref())) {
                        (Err(e), _) => e.clone(),
                        (Ok(r), Some(p)) if p.objectives == 0 => {
                            format!("{}: cannot be won: no objective ({} games)", r.rule_set, p.games)
                        }
                        (Ok(r), Some(p)) => format!(
                            "{}: won {:.0} % ({:.0}–{:.0} %) of {}{}",
                            r.rule_set,
                            100.0 * p.win_rate,
                            100.0 * p.interval[0],
                            100.0 * p.interval[1],
                            p.games,
                            if p.capped > 0 {
                                format!("; {} hit the move cap ({})", p.capped, p.max_moves)
                            } else {
                                String::new()
                            }
                        ),
                        (Ok(r), None) => format!("{}: not rated", r.rule_set),
                    };
                let flagged = curve.as_ref().is_some_and(|c| c.entries[i].flagged());
                // The whole row is the drag handle and where a dragged row lands; a line shows
                // where it will go. The row senses clicks and drags over its widgets (the
                // thumbnail's board would take drags to pan): a click selects, a drag moves.
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(ui.available_width(), THUMB), egui::Sense::hover());
                let mut row = ui.new_child(
                    egui::UiBuilder::new()
                        .max_rect(rect)
                        .layout(egui::Layout::left_to_right(egui::Align::Center)),
                );
                row.style_mut().interaction.selectable_labels = false;
                let (thumb, _) = row.allocate_exact_size(egui::vec2(THUMB, THUMB), egui::Sense::hover());
                if let Some((mirror, rules, state, view)) = &mut self.slots[i].thumb {
                    let mut child = row.new_child(egui::UiBuilder::new().max_rect(thumb));
                    view.fit();
                    // The rule set's own picture where it has one (PuzzleScript's sprites).
                    view.show_game(&mut child, mirror, Some(rules), state, 1.0, &Overlay::default());
                }
                let selected = self.selected == Some(i);
                if row.selectable_label(selected, &label).clicked() {
                    self.selected = Some(i);
                }
                let text = if flagged { format!("(flagged) {rating}") } else { rating };
                // Wrapped within the row: a long rating ("20 hit the move cap (1000)") was cut
                // at the panel's edge (issue 36.8).
                row.add(egui::Label::new(text).wrap());
                let response =
                    ui.interact(rect, ui.scope_id().with(("pack-row", i)), egui::Sense::click_and_drag());
                if response.drag_started() {
                    egui::DragAndDrop::set_payload(ui.ctx(), i);
                }
                if response.clicked() {
                    self.selected = Some(i);
                }
                if response.hovered() || response.dragged() {
                    ui.ctx().set_cursor_icon(if dragging {
                        egui::CursorIcon::Grabbing
                    } else {
                        egui::CursorIcon::Grab
                    });
                }
                if dragging
                    && let Some(from) = response.dnd_hover_payload::<usize>()
                    && *from != i
                {
                    let y = if *from < i { response.rect.bottom() } else { response.rect.top() };
                    let stroke = egui::Stroke::new(3.0, ui.visuals().selection.bg_fill);
                    ui.painter().hline(response.rect.x_range(), y, stroke);
                }
                if let Some(from) = response.dnd_release_payload::<usize>() {
                    moved = Some((*from, i));
                }
            }
        });
        if let Some((from, to)) = moved
            && from != to
        {
            self.move_entry(from, to);
        }
        action
    }

    fn rate_ui(&mut self, ui: &mut egui::Ui) -> Option<PackAction> {
        let mut rule_sets: Vec<RuleSet> =
            self.slots.iter().filter_map(|s| s.level.as_ref().ok().map(|r| r.rule_set)).collect();
        rule_sets.sort();
        rule_sets.dedup();
        ui.heading("Difficulty of the pack");
        for r in &rule_sets {
            let mut bot = self.bot(*r);
            egui::ComboBox::from_label(format!("bot for {r}")).selected_text(bot.name()).show_ui(ui, |ui| {
                for k in BotKind::ALL.iter().filter(|k| k.only_for().is_none_or(|o| o == *r)) {
                    ui.selectable_value(&mut bot, *k, k.name());
                }
            });
            self.bots.insert(*r, bot);
        }
        ui.horizontal(|ui| {
            let label = ui.label("Games per level");
            ui.add(egui::DragValue::new(&mut self.games).range(1..=100_000)).labelled_by(label.id);
        });
        // Rate all (or Cancel) with the progress or the rating's message beside it, on one line.
        ui.horizontal(|ui| match &self.running {
            Some(r) => {
                let done = r.done.load(Ordering::Relaxed);
                let levels = r.levels_done.load(Ordering::Relaxed);
                let frac = if r.total == 0 { 1.0 } else { done as f32 / r.total as f32 };
                let text = format!(
                    "level {} of {}, games {done} of {}",
                    (levels + 1).min(r.levels),
                    r.levels,
                    r.total
                );
                if ui.button("Cancel").clicked() {
                    self.cancel();
                }
                ui.add(egui::ProgressBar::new(frac).text(text));
            }
            None => {
                if ui.add_enabled(!self.slots.is_empty(), egui::Button::new("Rate all")).clicked()
                    && let Err(e) = self.rate_all()
                {
                    self.say(Place::Rate, true, e);
                }
                self.message_line(ui, Place::Rate);
            }
        });
        ui.separator();
        let curve = self.curve()?;
        let flagged: Vec<String> = curve
            .entries
            .iter()
            .filter(|e| e.flagged())
            .map(|e| format!("{}. {}: {}", e.index, e.title, e.flag_words().join("; ")))
            .collect();
        let rated = curve.entries.iter().filter(|e| e.rating.is_some()).count();
        let span = (0.5, curve.entries.len() as f64 + 0.5);
        ui.label(if rated == 0 {
            "No level rated yet: pick a bot per rule set and Rate all.".to_string()
        } else if flagged.is_empty() {
            format!("No level flagged ({rated} of {} rated).", curve.entries.len())
        } else {
            format!("Flagged: {}", flagged.join("; "))
        });
        let mut clicked = None;
        // Win rates in % (as the HTML report shows them); the level's title on hover.
        let band_fill = egui::Color32::from_rgba_unmultiplied(80, 190, 80, 70);
        let band_edge = egui::Color32::from_rgb(90, 170, 90);
        let blue = egui::Color32::from_rgb(110, 150, 230);
        let orange = egui::Color32::from_rgb(220, 140, 40);
        // The legend above the chart, never over a point (in the chart it hid level 7's point
        // at 100 % and a cap marker, issue 36.8).
        legend(
            ui,
            &[
                ('o', blue, "win rate"),
                ('|', blue, "95 % interval"),
                ('o', egui::Color32::RED, "flagged"),
                ('v', orange, "games hit the move cap"),
                ('#', band_edge, "target band"),
                ('x', egui::Color32::GRAY, "cannot be won"),
            ],
        );
        let response = Plot::new("pack-curve")
            .height(240.0)
            .include_x(span.0)
            .include_x(span.1)
            // Room under 0 % and over 100 % for a marker's whole size.
            .include_y(-4.0)
            .include_y(104.0)
            .allow_scroll(false)
            .x_axis_label("level")
            .y_axis_label("win rate %")
            .x_axis_formatter(level_mark(curve.entries.len()))
            .y_axis_formatter(|m, _| {
                if (0.0..=100.0).contains(&m.value) { format!("{:.0} %", m.value) } else { String::new() }
            })
            .label_formatter(|hover| {
                let p = hover_point(hover);
                Some(curve_hover(&curve, p.x, Some(p.y)))
            })
            .show(ui, |p| {
                for e in &curve.entries {
                    let x = e.index as f64;
                    if let Some([lo, hi]) = e.target {
                        let (lo, hi) = (100.0 * lo, 100.0 * hi);
                        let band = vec![[x - 0.45, lo], [x + 0.45, lo], [x + 0.45, hi], [x - 0.45, hi]];
                        p.polygon(
                            Polygon::new("target band", band)
                                .fill_color(band_fill)
                                .stroke(egui::Stroke::new(1.0, band_edge)),
                        );
                    }
                    if let Some(r) = e.rating.as_ref().filter(|r| r.objectives > 0) {
                        p.line(
                            Line::new(
                                "95 % interval",
                                vec![[x, 100.0 * r.interval[0]], [x, 100.0 * r.interval[1]]],
                            )
                            .width(2.0)
                            .color(egui::Color32::from_rgb(110, 150, 230)),
                        );
                    }
                }
                // Each rated level once: capped (its rate counts the games the cap stopped as
                // lost: not a point like the others), else flagged or not.
                #[derive(PartialEq)]
                enum Kind {
                    Plain,
                    Flagged,
                    Capped,
                }
                let kind = |e: &tessera_pack::report::CurveEntry| {
                    if e.flags.contains(&Flag::MoveCap) {
                        Kind::Capped
                    } else if e.flagged() {
                        Kind::Flagged
                    } else {
                        Kind::Plain
                    }
                };
                let point = |k: Kind| -> Vec<[f64; 2]> {
                    curve
                        .entries
                        .iter()
                        .filter(|e| kind(e) == k && !e.flags.contains(&Flag::NoObjective))
                        .filter_map(|e| Some([e.index as f64, 100.0 * e.rating.as_ref()?.win_rate]))
                        .collect()
                };
                p.points(Points::new("win rate", point(Kind::Plain)).radius(4.0).color(blue));
                p.points(Points::new("flagged", point(Kind::Flagged)).radius(5.0).color(egui::Color32::RED));
                p.points(
                    Points::new("games hit the move cap", point(Kind::Capped))
                        .shape(egui_plot::MarkerShape::Down)
                        .filled(true)
                        .radius(6.0)
                        .color(orange),
                );
                let none: Vec<[f64; 2]> = curve
                    .entries
                    .iter()
                    .filter(|e| e.flags.contains(&Flag::NoObjective))
                    .map(|e| [e.index as f64, 0.0])
                    .collect();
                if !none.is_empty() {
                    p.points(
                        Points::new("cannot be won", none)
                            .shape(egui_plot::MarkerShape::Cross)
                            .radius(5.0)
                            .color(egui::Color32::GRAY),
                    );
                }
            });
        if response.response.clicked()
            && let Some(pos) = response.response.interact_pointer_pos()
        {
            let x = response.transform.value_from_position(pos).x.round();
            if x >= 1.0 && (x as usize) <= curve.entries.len() {
                clicked = Some(x as usize - 1);
            }
        }
        ui.label("Moves used (median) per level");
        legend(ui, &[('o', blue, "moves median"), ('^', orange, "median at the move cap")]);
        // The cap's markers sit on the top edge: room above it for their whole size.
        let top = curve
            .entries
            .iter()
            .filter_map(|e| e.rating.as_ref()?.moves_figure())
            .max()
            .map_or(1.0, |m| m as f64)
            .max(1.0);
        let moves = Plot::new("pack-moves")
            .height(140.0)
            .include_x(span.0)
            .include_x(span.1)
            .include_y(0.0)
            .include_y(top * 1.15)
            .x_axis_label("level")
            .y_axis_label("moves")
            .x_axis_formatter(level_mark(curve.entries.len()))
            .label_formatter(|hover| Some(curve_hover(&curve, hover_point(hover).x, None)));
        moves.allow_scroll(false).show(ui, |p| {
            let pts: Vec<[f64; 2]> = curve
                .entries
                .iter()
                .filter_map(|e| Some([e.index as f64, e.rating.as_ref()?.moves_figure()? as f64]))
                .collect();
            p.line(Line::new("moves median", pts.clone()).color(blue));
            p.points(Points::new("moves median", pts.clone()).radius(3.0).color(blue));
            // Medians at the move cap: marked on top, out of the scale.
            let capped: Vec<[f64; 2]> = curve
                .entries
                .iter()
                .filter(|e| {
                    e.rating.as_ref().is_some_and(|r| r.moves_median.is_some() && r.moves_figure().is_none())
                })
                .map(|e| [e.index as f64, top])
                .collect();
            if !capped.is_empty() {
                p.points(
                    Points::new("median at the move cap", capped)
                        .shape(egui_plot::MarkerShape::Up)
                        .filled(true)
                        .radius(6.0)
                        .color(orange),
                );
            }
        });
        let i = clicked?;
        self.selected = Some(i);
        self.open_action(i, true)
    }

    /// What a click on the curve at entry `i` does (for tests: egui_plot's hit test needs a
    /// real pointer): selects it and opens it in Play.
    pub fn click_point(&mut self, i: usize) -> Option<PackAction> {
        self.selected = Some(i);
        self.open_action(i, true)
    }
}

/// A chart's legend, above it: each mark (drawn as the chart draws it: `o` a point, `|` an
/// interval, `v` and `^` triangles, `#` a band, `x` a cross) in its colour, and what it stands
/// for.
fn legend(ui: &mut egui::Ui, items: &[(char, egui::Color32, &str)]) {
    ui.horizontal_wrapped(|ui| {
        for &(mark, colour, what) in items {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            let (c, r, p) = (rect.center(), 5.0, ui.painter());
            let stroke = egui::Stroke::new(2.0, colour);
            match mark {
                '|' => {
                    p.line_segment([c - egui::vec2(0.0, r), c + egui::vec2(0.0, r)], stroke);
                }
                'v' | '^' => {
                    let s = if mark == 'v' { 1.0 } else { -1.0 };
                    let pts = vec![
                        c + egui::vec2(-r, -r * s),
                        c + egui::vec2(r, -r * s),
                        c + egui::vec2(0.0, r * s),
                    ];
                    p.add(egui::Shape::convex_polygon(pts, colour, egui::Stroke::NONE));
                }
                '#' => {
                    p.rect_filled(rect.shrink(1.0), 0.0, colour.gamma_multiply(0.6));
                }
                'x' => {
                    p.line_segment([c - egui::vec2(r, r), c + egui::vec2(r, r)], stroke);
                    p.line_segment([c + egui::vec2(-r, r), c + egui::vec2(r, -r)], stroke);
                }
                _ => {
                    p.circle_filled(c, 4.0, colour);
                }
            }
            ui.label(what);
            ui.add_space(8.0);
        }
    });
}

/// Where a plot's pointer is, near a point or not.
fn hover_point(hover: &egui_plot::HoverPosition<'_>) -> egui_plot::PlotPoint {
    match *hover {
        egui_plot::HoverPosition::NearDataPoint { position, .. }
        | egui_plot::HoverPosition::Elsewhere { position } => position,
    }
}

/// The x axis of the curves: level numbers at whole marks only.
fn level_mark(n: usize) -> impl Fn(egui_plot::GridMark, &std::ops::RangeInclusive<f64>) -> String {
    move |m, _| {
        let i = m.value.round();
        if (m.value - i).abs() < 1e-6 && i >= 1.0 && i as usize <= n {
            format!("{i:.0}")
        } else {
            String::new()
        }
    }
}

/// What hovering a curve at `x` says: the level's number and title, its win rate (or why there
/// is none) and its flags in words; with `y`, the win rate under the pointer.
pub fn curve_hover(curve: &Curve, x: f64, y: Option<f64>) -> String {
    let i = x.round();
    let Some(e) = (i >= 1.0).then(|| curve.entries.get(i as usize - 1)).flatten() else {
        return y.map(|y| format!("{y:.0} %")).unwrap_or_default();
    };
    let mut out = format!("{}. {}", e.index, e.title);
    match &e.rating {
        Some(r) if r.objectives == 0 => {}
        Some(r) => {
            out += &format!(
                "\nwon {:.0} % ({:.0}–{:.0} %), moves median {}",
                100.0 * r.win_rate,
                100.0 * r.interval[0],
                100.0 * r.interval[1],
                r.moves_text()
            );
        }
        None => {}
    }
    if let Some([lo, hi]) = e.target {
        out += &format!("\ntarget {:.0}–{:.0} %", 100.0 * lo, 100.0 * hi);
    }
    let words = e.flag_words();
    if !words.is_empty() {
        out += &format!("\n{}", words.join("; "));
    }
    out
}

/// Whether `path` holds a pack (a JSON object with `levels` and no `rule_set`) rather than a
/// level: how File → Open tells them apart.
pub fn is_pack_file(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else { return false };
    if meta.len() > tessera_pack::MAX_FILE {
        return false;
    }
    let Ok(text) = std::fs::read_to_string(path) else { return false };
    matches!(serde_json::from_str::<serde_json::Value>(&text),
        Ok(serde_json::Value::Object(o)) if o.contains_key("levels") && !o.contains_key("rule_set"))
}
