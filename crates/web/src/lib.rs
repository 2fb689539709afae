//! tessera-web: a PuzzleScript game played in a web page on tessera's own engine.
//!
//! - [`Player`] is the whole game as the page plays it: the title screen and its options, the
//!   levels in order with their messages, each level played on tessera's rules (the same crates
//!   as the CLI, so a step gives the same events and hashes), undo and restart, the `again`
//!   turns shown one at a time, the sounds each turn plays, the progress kept between visits, and
//!   each level's line of play as a tessera log ([`Player::log`]), which `tessera replay verify`
//!   reads. It is plain Rust, tested natively.
//! - `ffi` (WebAssembly only) exports the player to the page's JavaScript as plain `extern "C"`
//!   functions over numbers and the module's memory (`player/player.js` is the loader).
//! - [`page`] (native only) writes a game as one self-contained HTML file: the module inlined
//!   (gzip, base64), the game's source, the player's script; `tessera export` and the editor use
//!   it. [`wasm_path`] finds the module `crates/web/build.sh` builds.

pub mod art;
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)]
mod ffi;
#[cfg(not(target_arch = "wasm32"))]
mod page;
#[cfg(not(target_arch = "wasm32"))]
pub use page::{BUILD_COMMAND, ExportError, page, wasm_path, write_page, write_source_page};

use std::collections::VecDeque;
use std::sync::Arc;
use tessera_core::puzzlescript::engine::{self, LevelEntry};
use tessera_core::puzzlescript::{
    PuzzleScriptCommand, PuzzleScriptEvent, PuzzleScriptLevel, describe_errors,
};
use tessera_core::{AnyCommand, AnyEvent, AnyState, Level};
use tessera_replay::History;

/// A key the page passes on (its number in the WebAssembly interface).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Up (arrow, W).
    Up = 0,
    /// Left (arrow, A).
    Left = 1,
    /// Down (arrow, S).
    Down = 2,
    /// Right (arrow, D).
    Right = 3,
    /// Action (X, Space, Enter).
    Action = 4,
    /// Undo (Z, U, Backspace).
    Undo = 5,
    /// Restart (R).
    Restart = 6,
    /// Escape: the menu.
    Escape = 7,
    /// No key: a realtime game's clock (`realtime_interval`).
    Tick = 8,
}

impl Key {
    /// The key numbered `n`.
    pub fn from_code(n: u32) -> Option<Key> {
        Some(match n {
            0 => Key::Up,
            1 => Key::Left,
            2 => Key::Down,
            3 => Key::Right,
            4 => Key::Action,
            5 => Key::Undo,
            6 => Key::Restart,
            7 => Key::Escape,
            8 => Key::Tick,
            _ => return None,
        })
    }
}

/// What is on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The title screen and its options.
    Title,
    /// A message between levels.
    Message,
    /// A level (with a `message` command's text over it while [`Player::overlay`] holds one).
    Level,
    /// The menu Escape opens over a level.
    Menu,
    /// After the last entry.
    End,
}

/// An entry of the game's level list.
#[derive(Clone, Debug)]
enum Entry {
    /// Playable level `number` (from 1).
    Level(usize),
    Message(String),
}

/// One turn of a step, shown after the ones before it.
#[derive(Clone, Debug, Default)]
struct Frame {
    /// Cells (row-major) and their objects after the turn.
    cells: Vec<(usize, Vec<u64>)>,
    sounds: Vec<String>,
    message: Option<String>,
}

/// What waits to be shown, at the game's pace.
#[derive(Clone, Debug)]
enum Item {
    /// An `again` turn, after `again_interval`.
    Turn(Frame),
    /// The level was won: on to the next entry.
    Next,
}

/// The level being played.
struct Play {
    number: usize,
    entry: usize,
    level: Level,
    seed: u64,
    history: History,
    /// The step undo stops at: the level continued from a checkpoint kept between visits
    /// starts there, as PuzzleScript's does (its undo has nothing before the checkpoint).
    floor: u64,
    /// The restart target the level starts with (a `checkpoint` changes it).
    start_target: Vec<u64>,
    width: usize,
    height: usize,
    stride: usize,
}

/// A menu option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Title: start from the first level.
    NewGame,
    /// Title: continue from the level reached.
    Continue,
    /// Menu: back to the level.
    Resume,
    /// Menu: restart the level.
    RestartLevel,
    /// Menu: download the session's log.
    Report,
    /// Menu: the title screen.
    TitleScreen,
}

impl Choice {
    /// The option's text.
    pub fn label(self) -> &'static str {
        match self {
            Choice::NewGame => "new game",
            Choice::Continue => "continue",
            Choice::Resume => "resume",
            Choice::RestartLevel => "restart level",
            Choice::Report => "report a problem (download the session log)",
            Choice::TitleScreen => "title screen",
        }
    }
}

/// A PuzzleScript game as the web page plays it.
pub struct Player {
    source: Arc<str>,
    game: Arc<engine::Game>,
    art: art::Art,
    entries: Vec<Entry>,
    screen: Screen,
    /// The entry on screen (a message's, a level's).
    entry: usize,
    play: Option<Play>,
    /// Playable levels won, from 1, in the order won (each once).
    won: Vec<usize>,
    /// Each won level's number and final state hash.
    results: Vec<(usize, u64)>,
    queue: VecDeque<Item>,
    /// Keys pressed while `again` turns were on screen, played in order once they are shown
    /// (PuzzleScript's key buffer), at most [`MAX_WAITING`].
    waiting: VecDeque<PuzzleScriptCommand>,
    /// The board shown (row-major cells, `stride` words each): the state, or an `again` turn
    /// on the way to it.
    display: Vec<u64>,
    overlay: Option<String>,
    /// Sounds to play now (seeds), taken by the page.
    sounds: Vec<String>,
    selected: usize,
    /// The entry to continue from (the progress kept between visits).
    reached: usize,
    next_seed: u64,
    /// Whether the page should download the session's log (Report a problem).
    report: bool,
    /// A checkpoint kept from an earlier visit, for Continue ([`Player::set_progress`]).
    resume: Option<Resume>,
    player_objects: Vec<usize>,
    pixels: Vec<u8>,
}

/// A checkpoint kept between visits: the level's entry and seed and the line of play that
/// reached it. Continue plays the line again and then `restart`, which goes back to the
/// checkpoint: the player sees the checkpoint's board, as PuzzleScript shows its saved
/// `curlevelTarget`, and the session's log (those steps and the restart) still replays.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Resume {
    entry: usize,
    seed: u64,
    line: Vec<PuzzleScriptCommand>,
}

/// A command as one letter of a kept line (`u d l r a t` and `R` for restart).
fn letter(c: PuzzleScriptCommand) -> char {
    match c {
        PuzzleScriptCommand::Up => 'u',
        PuzzleScriptCommand::Down => 'd',
        PuzzleScriptCommand::Left => 'l',
        PuzzleScriptCommand::Right => 'r',
        PuzzleScriptCommand::Action => 'a',
        PuzzleScriptCommand::Tick => 't',
        PuzzleScriptCommand::Restart => 'R',
    }
}

/// The command a letter of a kept line stands for.
fn of_letter(c: char) -> Option<PuzzleScriptCommand> {
    Some(match c {
        'u' => PuzzleScriptCommand::Up,
        'd' => PuzzleScriptCommand::Down,
        'l' => PuzzleScriptCommand::Left,
        'r' => PuzzleScriptCommand::Right,
        'a' => PuzzleScriptCommand::Action,
        't' => PuzzleScriptCommand::Tick,
        'R' => PuzzleScriptCommand::Restart,
        _ => return None,
    })
}

/// How many keys pressed while `again` turns play are kept for after them (more are dropped).
pub const MAX_WAITING: usize = 8;

/// The prelude's `flickscreen` / `zoomscreen` size (`WxH`).
fn screen_size(value: Option<&str>) -> Option<(usize, usize)> {
    let (w, h) = value?.trim().split_once('x')?;
    let (w, h) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}

/// The objects the legend's `player` stands for (an object, or a property or aggregate of
/// objects, through the legend's other names).
fn player_objects(game: &engine::Game, source: &str) -> Vec<usize> {
    let objects = game.objects();
    let mut legend: Vec<(String, Vec<String>)> = Vec::new();
    let mut section = String::new();
    for raw in source.lines() {
        let line = strip_comments(raw).trim().to_ascii_lowercase();
        if line.is_empty() || line.bytes().all(|b| b == b'=') {
            continue;
        }
        if ["objects", "legend", "sounds", "collisionlayers", "rules", "winconditions", "levels"]
            .contains(&line.as_str())
        {
            section = line;
            continue;
        }
        if section != "legend" {
            continue;
        }
        if let Some((name, rest)) = line.split_once('=') {
            let parts =
                rest.split_whitespace().filter(|w| *w != "or" && *w != "and").map(str::to_string).collect();
            legend.push((name.trim().to_string(), parts));
        }
    }
    let mut out = Vec::new();
    let mut todo = vec![("player".to_string(), 0)];
    while let Some((name, depth)) = todo.pop() {
        if let Some(i) = objects.iter().position(|o| o.name == name) {
            if !out.contains(&i) {
                out.push(i);
            }
        } else if depth < 16
            && let Some((_, parts)) = legend.iter().find(|(n, _)| *n == name)
        {
            todo.extend(parts.iter().map(|p| (p.clone(), depth + 1)));
        }
    }
    out
}

/// A line without its parenthesised comments (which nest).
fn strip_comments(line: &str) -> String {
    let mut depth = 0usize;
    line.chars()
        .filter(|&c| match c {
            '(' => {
                depth += 1;
                false
            }
            ')' if depth > 0 => {
                depth -= 1;
                false
            }
            _ => depth == 0,
        })
        .collect()
}

impl Player {
    /// The game of `source`, on its title screen; its compile errors otherwise.
    pub fn new(source: &str) -> Result<Player, String> {
        let game = engine::compile(source).map_err(|e| describe_errors(&e))?;
        let mut playable = 0;
        let entries: Vec<Entry> = game
            .levels()
            .iter()
            .map(|e| match e {
                LevelEntry::Level { .. } => {
                    playable += 1;
                    Entry::Level(playable)
                }
                LevelEntry::Message { text, .. } => Entry::Message(text.clone()),
            })
            .collect();
        if playable == 0 {
            return Err("the game has no playable level".into());
        }
        let art = art::Art::new(&game);
        let player_objects = player_objects(&game, source);
        Ok(Player {
            source: Arc::from(source),
            game: Arc::new(game),
            art,
            entries,
            screen: Screen::Title,
            entry: 0,
            play: None,
            won: Vec::new(),
            results: Vec::new(),
            queue: VecDeque::new(),
            waiting: VecDeque::new(),
            display: Vec::new(),
            overlay: None,
            sounds: Vec::new(),
            selected: 0,
            reached: 0,
            next_seed: 0,
            report: false,
            resume: None,
            player_objects,
            pixels: Vec::new(),
        })
    }

    /// The game's background and text colours.
    pub fn view_colours(&self) -> (art::Rgba, art::Rgba) {
        (self.art.background, self.art.text)
    }

    /// The compiled game.
    pub fn game(&self) -> &engine::Game {
        &self.game
    }

    /// What is on screen.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// The playable level on screen, from 1; 0 on the title screen, a message (between levels or
    /// a `message` command's) and the menu.
    pub fn level(&self) -> usize {
        match (&self.play, self.screen, &self.overlay) {
            (Some(p), Screen::Level, None) => p.number,
            _ => 0,
        }
    }

    /// The state hash of the level played (on screen, or the last one), as `tessera play --json`
    /// prints it; `None` before any level.
    pub fn hash(&self) -> Option<u64> {
        self.play.as_ref().map(|p| p.history.state().hash())
    }

    /// The seed the level played was started with.
    pub fn seed(&self) -> Option<u64> {
        self.play.as_ref().map(|p| p.seed)
    }

    /// The playable levels won so far (from 1).
    pub fn won(&self) -> &[usize] {
        &self.won
    }

    /// Each won level's number and final state hash, in the order won.
    pub fn results(&self) -> &[(usize, u64)] {
        &self.results
    }

    /// A `message` command's text shown over the level, until Action.
    pub fn overlay(&self) -> Option<&str> {
        self.overlay.as_deref()
    }

    /// The seed the next level starts with (the page draws one per level, as PuzzleScript does;
    /// the log keeps it).
    pub fn set_next_seed(&mut self, seed: u64) {
        self.next_seed = seed;
    }

    /// The progress kept between visits: the entry to continue from, the levels won, and the
    /// level's checkpoint when one was reached on it (`checkpoint`: its entry, its seed and the
    /// line of play to it, a letter a step).
    pub fn progress(&self) -> serde_json::Value {
        let mut v = serde_json::json!({ "entry": self.reached, "won": self.won });
        if let Some(r) = self.checkpoint() {
            let line: String = r.line.iter().copied().map(letter).collect();
            v["checkpoint"] =
                serde_json::json!({ "entry": r.entry, "seed": r.seed.to_string(), "line": line });
        }
        v
    }

    /// The checkpoint to keep: the level played's, when it is the entry to continue from and a
    /// `checkpoint` has moved its restart target, else the one kept from before and not yet
    /// continued from.
    fn checkpoint(&self) -> Option<Resume> {
        if let Some(p) = &self.play
            && p.entry == self.reached
        {
            let AnyState::PuzzleScript(s) = p.history.state() else { return None };
            if s.engine().restart_cells == p.start_target {
                return None;
            }
            let line = p
                .history
                .commands()
                .into_iter()
                .filter_map(|c| match c {
                    AnyCommand::PuzzleScript(c) => Some(c),
                    _ => None,
                })
                .collect();
            return Some(Resume { entry: p.entry, seed: p.seed, line });
        }
        self.resume.clone().filter(|r| r.entry == self.reached)
    }

    /// Takes the progress [`Player::progress`] gave (anything else is ignored).
    pub fn set_progress(&mut self, value: &serde_json::Value) {
        if let Some(e) = value.get("entry").and_then(serde_json::Value::as_u64)
            && (e as usize) < self.entries.len()
        {
            self.reached = e as usize;
        }
        if let Some(list) = value.get("won").and_then(serde_json::Value::as_array) {
            let playable = self.entries.iter().filter(|e| matches!(e, Entry::Level(_))).count();
            for n in list.iter().filter_map(serde_json::Value::as_u64) {
                let n = n as usize;
                if (1..=playable).contains(&n) && !self.won.contains(&n) {
                    self.won.push(n);
                }
            }
        }
        let c = &value["checkpoint"];
        let entry = c["entry"].as_u64().map(|e| e as usize);
        let seed = c["seed"].as_str().and_then(|s| s.parse::<u64>().ok());
        let line: Option<Vec<_>> =
            c["line"].as_str().map(|l| l.chars().map(of_letter).collect()).unwrap_or(None);
        if let (Some(entry), Some(seed), Some(line)) = (entry, seed, line)
            && entry == self.reached
            && matches!(self.entries.get(entry), Some(Entry::Level(_)))
        {
            self.resume = Some(Resume { entry, seed, line });
        }
    }

    /// The options of the title screen or the menu.
    pub fn choices(&self) -> Vec<Choice> {
        match self.screen {
            Screen::Title if self.reached > 0 || self.checkpoint().is_some() => {
                vec![Choice::Continue, Choice::NewGame]
            }
            Screen::Title => vec![Choice::NewGame],
            Screen::Menu => {
                let mut c = vec![Choice::Resume];
                if !self.game.prelude().norestart {
                    c.push(Choice::RestartLevel);
                }
                c.extend([Choice::Report, Choice::TitleScreen]);
                c
            }
            _ => Vec::new(),
        }
    }

    /// The option selected.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// Whether the page should download the log now (asked by Report a problem); clears it.
    pub fn take_report(&mut self) -> bool {
        std::mem::take(&mut self.report)
    }

    /// Asks for the log's download (the page's Report key).
    pub fn request_report(&mut self) {
        self.report = self.play.is_some();
    }

    /// Sounds to play now (seeds, in order); clears them.
    pub fn take_sounds(&mut self) -> Vec<String> {
        std::mem::take(&mut self.sounds)
    }

    fn sound_event(&mut self, name: &str) {
        if let Some(seed) = self.game.sound_event(name) {
            self.sounds.push(seed.to_string());
        }
    }

    /// Whether something waits to be shown ([`Player::advance`] after [`Player::delay_ms`]).
    pub fn pending(&self) -> bool {
        self.overlay.is_none() && !(self.queue.is_empty() && self.waiting.is_empty())
    }

    /// The keys pressed while `again` turns were on screen, waiting to be played after them.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// How long to wait before the next [`Player::advance`] (ms), when something waits.
    pub fn delay_ms(&self) -> Option<u32> {
        if !self.pending() {
            return None;
        }
        let again = (self.game.prelude().again_interval * 1000.0).clamp(0.0, 60_000.0) as u32;
        Some(match self.queue.front() {
            // A waiting key is played once the last `again` turn has been seen for as long.
            Some(Item::Turn(_)) | None => again,
            Some(Item::Next) => again.max(500),
        })
    }

    /// Shows the next waiting item: an `again` turn, or the entry after a won level.
    pub fn advance(&mut self) {
        if self.overlay.is_some() {
            return;
        }
        match self.queue.pop_front() {
            Some(Item::Turn(frame)) => self.show(frame),
            Some(Item::Next) => {
                self.queue.clear();
                self.goto(self.entry + 1);
            }
            None => {
                if let Some(command) = self.waiting.pop_front() {
                    self.step(command);
                }
            }
        }
    }

    fn show(&mut self, frame: Frame) {
        let Some(p) = &self.play else { return };
        let s = p.stride;
        for (i, words) in frame.cells {
            if let Some(cell) = self.display.get_mut(i * s..i * s + s) {
                for (d, w) in cell.iter_mut().zip(words.iter().chain(std::iter::repeat(&0))) {
                    *d = *w;
                }
            }
        }
        self.sounds.extend(frame.sounds);
        if let Some(m) = frame.message {
            // A message drops the keys waiting, as PuzzleScript's does its key buffer.
            self.waiting.clear();
            self.sound_event("showmessage");
            self.overlay = Some(m);
        }
    }

    /// Shows everything waiting at once (before undo, restart, the menu).
    fn flush(&mut self) {
        self.waiting.clear();
        while let Some(item) = self.queue.front() {
            match item {
                Item::Turn(_) => {
                    if let Some(Item::Turn(mut f)) = self.queue.pop_front() {
                        f.sounds.clear();
                        f.message = None;
                        self.show(f);
                    }
                }
                Item::Next => break,
            }
        }
        self.sync_display();
    }

    fn sync_display(&mut self) {
        let Some(p) = &self.play else { return };
        let AnyState::PuzzleScript(s) = p.history.state() else { return };
        self.display.clear();
        for i in 0..p.width * p.height {
            let x = (i % p.width) as u16;
            let y = (i / p.width) as u16;
            let mut c = s.cell(tessera_core::Pos { x, y });
            c.resize(p.stride, 0);
            self.display.extend(c);
        }
    }

    /// Goes to entry `entry`: a message, a level (started with the next seed), or the end.
    fn goto(&mut self, entry: usize) {
        self.overlay = None;
        self.queue.clear();
        self.waiting.clear();
        self.selected = 0;
        self.entry = entry;
        let Some(e) = self.entries.get(entry).cloned() else {
            self.screen = Screen::End;
            self.reached = 0;
            self.sound_event("endgame");
            return;
        };
        self.reached = entry;
        match e {
            Entry::Message(_) => {
                self.screen = Screen::Message;
                self.sound_event("showmessage");
            }
            Entry::Level(number) => match self.start_level(number, entry) {
                Ok(mut play) => {
                    // A checkpoint kept from an earlier visit: back to it (see `Resume`).
                    let kept = self.resume.take().or_else(|| self.checkpoint());
                    if let Some(r) = kept.filter(|r| r.entry == entry) {
                        play = self.resumed(number, entry, r).unwrap_or(play);
                    }
                    self.play = Some(play);
                    self.screen = Screen::Level;
                    self.sync_display();
                    self.sound_event("startlevel");
                }
                Err(message) => {
                    self.entries[entry] = Entry::Message(format!("Level {number} does not start: {message}"));
                    self.screen = Screen::Message;
                }
            },
        }
    }

    /// Level `number` (entry `entry`) started with the kept seed, the kept line played, then
    /// `restart`: at the checkpoint, undo stopping there. `None` when the line does not play
    /// (a game changed since): the level then starts afresh.
    fn resumed(&self, number: usize, entry: usize, r: Resume) -> Option<Play> {
        let mut play = self.start_level_with(number, entry, r.seed).ok()?;
        for c in &r.line {
            play.history.execute(&AnyCommand::PuzzleScript(*c)).ok()?;
        }
        // Refused only when it would change nothing: the line already ends at the checkpoint.
        let _ = play.history.execute(&AnyCommand::PuzzleScript(PuzzleScriptCommand::Restart));
        play.floor = play.history.step();
        Some(play)
    }

    fn start_level(&self, number: usize, entry: usize) -> Result<Play, String> {
        self.start_level_with(number, entry, self.next_seed)
    }

    fn start_level_with(&self, number: usize, entry: usize, seed: u64) -> Result<Play, String> {
        let title = self.game.prelude().get("title").unwrap_or("game");
        let level = Level::PuzzleScript(PuzzleScriptLevel {
            name: Some(format!("{title} {number}")),
            seed: None,
            source: Arc::clone(&self.source),
            level: number - 1,
        });
        let game = level.start(Some(seed)).map_err(|e| e.to_string())?;
        let AnyState::PuzzleScript(s) = &game.state else { return Err("not a PuzzleScript level".into()) };
        let size = s.size();
        let stride = s.meta().stride;
        let start_target = s.engine().restart_cells.clone();
        Ok(Play {
            number,
            entry,
            level,
            seed,
            floor: 0,
            start_target,
            history: History::new(game),
            width: usize::from(size.width),
            height: usize::from(size.height),
            stride,
        })
    }

    /// The message on screen (between levels, or a `message` command's over the level).
    pub fn message(&self) -> Option<&str> {
        if let Some(m) = &self.overlay {
            return Some(m);
        }
        match (self.screen, self.entries.get(self.entry)) {
            (Screen::Message, Some(Entry::Message(m))) => Some(m),
            _ => None,
        }
    }

    /// A held key's repeat (at `key_repeat_interval`): as [`Player::key`], except that while
    /// `again` turns are on screen it is dropped, not kept for after them (PuzzleScript's repeat
    /// does nothing then either), so holding a key through an animation plays it once.
    pub fn key_repeat(&mut self, key: Key) {
        if self.screen == Screen::Level && !(self.queue.is_empty() && self.waiting.is_empty()) {
            return;
        }
        self.key(key);
    }

    /// A key pressed.
    pub fn key(&mut self, key: Key) {
        match self.screen {
            Screen::Title | Screen::Menu => self.menu_key(key),
            Screen::Message => {
                if key == Key::Action {
                    self.sound_event("closemessage");
                    self.goto(self.entry + 1);
                } else if key == Key::Escape {
                    self.go_to_title();
                }
            }
            Screen::End => {
                if key == Key::Action || key == Key::Escape {
                    self.go_to_title();
                }
            }
            Screen::Level => self.level_key(key),
        }
    }

    fn go_to_title(&mut self) {
        self.flush();
        self.screen = Screen::Title;
        self.selected = 0;
    }

    fn menu_key(&mut self, key: Key) {
        let choices = self.choices();
        match key {
            Key::Up if self.selected > 0 => self.selected -= 1,
            Key::Down if self.selected + 1 < choices.len() => self.selected += 1,
            Key::Escape if self.screen == Screen::Menu => self.screen = Screen::Level,
            Key::Action => match choices.get(self.selected).copied() {
                Some(Choice::NewGame) => {
                    self.sound_event("startgame");
                    self.won.clear();
                    self.resume = None;
                    self.play = None;
                    self.goto(0);
                }
                Some(Choice::Continue) => {
                    self.sound_event("startgame");
                    self.goto(self.reached);
                }
                Some(Choice::Resume) => self.screen = Screen::Level,
                Some(Choice::RestartLevel) => {
                    self.screen = Screen::Level;
                    self.level_key(Key::Restart);
                }
                Some(Choice::Report) => {
                    self.report = true;
                    self.screen = Screen::Level;
                }
                Some(Choice::TitleScreen) => self.go_to_title(),
                None => {}
            },
            _ => {}
        }
    }

    fn level_key(&mut self, key: Key) {
        if self.overlay.is_some() {
            if key == Key::Action {
                self.overlay = None;
                self.sound_event("closemessage");
            }
            return;
        }
        let prelude = self.game.prelude().clone();
        let command = match key {
            Key::Escape => {
                self.flush();
                self.screen = Screen::Menu;
                self.selected = 0;
                return;
            }
            Key::Undo => {
                if prelude.noundo || matches!(self.queue.back(), Some(Item::Next)) {
                    return;
                }
                self.queue.clear();
                self.waiting.clear();
                let Some(p) = &mut self.play else { return };
                if p.history.step() > p.floor && p.history.undo().is_some() {
                    self.sync_display();
                    self.sound_event("undo");
                }
                return;
            }
            _ if matches!(self.queue.back(), Some(Item::Next)) => return,
            Key::Restart => {
                if prelude.norestart {
                    return;
                }
                self.queue.clear();
                self.waiting.clear();
                self.sync_display();
                PuzzleScriptCommand::Restart
            }
            Key::Up => PuzzleScriptCommand::Up,
            Key::Left => PuzzleScriptCommand::Left,
            Key::Down => PuzzleScriptCommand::Down,
            Key::Right => PuzzleScriptCommand::Right,
            Key::Action => PuzzleScriptCommand::Action,
            Key::Tick => PuzzleScriptCommand::Tick,
        };
        // Input waits for the `again` turns on screen (and for the keys before it), as in
        // PuzzleScript: kept, in order, and played once they have been shown. The clock's
        // tick waits for nothing: it is not kept.
        if !(self.queue.is_empty() && self.waiting.is_empty()) {
            if command != PuzzleScriptCommand::Tick && self.waiting.len() < MAX_WAITING {
                self.waiting.push_back(command);
            }
            return;
        }
        self.step(command);
    }

    /// Plays `command` on the level: its first turn shown now, its `again` turns queued.
    fn step(&mut self, command: PuzzleScriptCommand) {
        let Some(p) = &mut self.play else { return };
        let width = p.width;
        let Ok(events) = p.history.execute(&AnyCommand::PuzzleScript(command)) else { return };
        let mut frames: Vec<Frame> = Vec::new();
        let mut won = false;
        for e in events {
            let AnyEvent::PuzzleScript(e) = e else { continue };
            match e {
                PuzzleScriptEvent::Turn { .. } => frames.push(Frame::default()),
                PuzzleScriptEvent::Cell { at, after, .. } => {
                    if let Some(f) = frames.last_mut() {
                        f.cells.push((usize::from(at.y) * width + usize::from(at.x), after.clone()));
                    }
                }
                PuzzleScriptEvent::Sound { seed } => {
                    if let Some(f) = frames.last_mut() {
                        f.sounds.push(seed.clone());
                    }
                }
                PuzzleScriptEvent::Message { text } => {
                    if let Some(f) = frames.last_mut() {
                        f.message = Some(text.clone());
                    }
                }
                PuzzleScriptEvent::Won => won = true,
                _ => {}
            }
        }
        let number = p.number;
        let hash = p.history.state().hash();
        if command == PuzzleScriptCommand::Restart {
            self.sound_event("restart");
        }
        let mut frames = frames.into_iter();
        if let Some(first) = frames.next() {
            self.show(first);
        }
        self.queue.extend(frames.map(Item::Turn));
        if won {
            if !self.won.contains(&number) {
                self.won.push(number);
            }
            self.results.push((number, hash));
            self.sound_event("endlevel");
            self.reached = self.entry + 1;
            self.queue.push_back(Item::Next);
        }
    }

    /// The cells shown: `(x, y, width, height)` of the level, the whole level or the
    /// `flickscreen` / `zoomscreen` window around the player.
    pub fn window(&self) -> (usize, usize, usize, usize) {
        let Some(p) = &self.play else { return (0, 0, 0, 0) };
        let (w, h) = (p.width, p.height);
        let prelude = self.game.prelude();
        let player = (0..w * h).find(|&i| {
            self.player_objects.iter().any(|&o| {
                self.display.get(i * p.stride + o / 64).is_some_and(|word| word >> (o % 64) & 1 == 1)
            })
        });
        let (px, py) = player.map_or((0, 0), |i| (i % w, i / w));
        if let Some((sw, sh)) = screen_size(prelude.get("flickscreen")) {
            // PuzzleScript's screens: from multiples of the screen's size, cut at the level's edge.
            let (x, y) = ((px / sw) * sw, (py / sh) * sh);
            return (x, y, sw.min(w - x), sh.min(h - y));
        }
        if let Some((sw, sh)) = screen_size(prelude.get("zoomscreen")) {
            let (sw, sh) = (sw.min(w), sh.min(h));
            let x = px.saturating_sub(sw / 2).min(w - sw);
            let y = py.saturating_sub(sh / 2).min(h - sh);
            return (x, y, sw, sh);
        }
        (0, 0, w, h)
    }

    /// The board's picture (RGBA, [`art::SIDE`] pixels a cell, the cells of [`Player::window`]).
    pub fn render(&mut self) -> &[u8] {
        let window = self.window();
        let Some(p) = &self.play else {
            self.pixels.clear();
            return &self.pixels;
        };
        self.art.paint(&self.display, p.stride, p.width, window, &mut self.pixels);
        &self.pixels
    }

    /// The text lines of the screen (title, message, menu, end), for the page to draw.
    pub fn lines(&self) -> Vec<String> {
        let prelude = self.game.prelude();
        let mut lines = Vec::new();
        match self.screen {
            Screen::Title | Screen::Menu => {
                if self.screen == Screen::Title {
                    lines.push(prelude.get("title").unwrap_or("PuzzleScript Game").to_string());
                    if let Some(a) = prelude.get("author") {
                        lines.push(format!("by {a}"));
                    }
                } else {
                    lines.push("menu".into());
                }
                lines.push(String::new());
                for (i, c) in self.choices().iter().enumerate() {
                    let mark = if i == self.selected { "> " } else { "  " };
                    lines.push(format!("{mark}{}", c.label()));
                }
                lines.push(String::new());
                lines.push("arrow keys to move".into());
                lines.push(if prelude.noaction { "X to select".into() } else { "X to action".into() });
                let mut keys = Vec::new();
                if !prelude.noundo {
                    keys.push("Z to undo");
                }
                if !prelude.norestart {
                    keys.push("R to restart");
                }
                if !keys.is_empty() {
                    lines.push(keys.join(", "));
                }
                lines.push("Esc for the menu, L to report a problem".into());
            }
            Screen::Message | Screen::Level => {
                if let Some(m) = self.message() {
                    lines.extend(m.lines().map(str::to_string));
                    lines.push(String::new());
                    lines.push("X to continue".into());
                }
            }
            Screen::End => {
                lines.push("congratulations!".into());
                lines.push(String::new());
                lines.push("X to return to the title".into());
            }
        }
        lines
    }

    /// The screen as JSON for the page: `screen`, `lines`, `level`, `hash`, `seed`, `won`,
    /// `results`, the board's `window`, `pending`, `delay`, colours and intervals.
    pub fn view(&self) -> serde_json::Value {
        let prelude = self.game.prelude();
        let board = matches!(self.screen, Screen::Level) && self.overlay.is_none();
        let (_, _, w, h) = self.window();
        serde_json::json!({
            "screen": format!("{:?}", self.screen).to_ascii_lowercase(),
            "board": board,
            "lines": if board { Vec::new() } else { self.lines() },
            "level": self.level(),
            "hash": self.hash().map(|h| format!("{h:016x}")),
            "seed": self.seed().map(|s| s.to_string()),
            "won": self.won,
            "results": self.results.iter().map(|(n, h)| serde_json::json!({"level": n, "hash": format!("{h:016x}")})).collect::<Vec<_>>(),
            "width": w * art::SIDE,
            "height": h * art::SIDE,
            "cells": [w, h],
            "pending": self.pending(),
            "waiting": self.waiting.len(),
            "delay": self.delay_ms(),
            "steps": self.play.as_ref().map_or(0, |p| p.history.step()),
            "background": art::css(self.art.background),
            "text": art::css(self.art.text),
            "title": prelude.get("title").unwrap_or("PuzzleScript Game"),
            "realtime": prelude.realtime_interval.map(|s| (s * 1000.0).clamp(1.0, 3_600_000.0) as u32),
            "key_repeat": (prelude.key_repeat_interval * 1000.0).clamp(1.0, 60_000.0) as u32,
            "noundo": prelude.noundo,
            "norestart": prelude.norestart,
            "norepeat_action": prelude.norepeat_action,
            "throttle_movement": prelude.throttle_movement,
            "key": format!("tessera-progress-{:016x}", tessera_core::state_hash(self.source.as_bytes())),
            "log_name": self.play.as_ref().map(|p| format!("{}-level{}.tlog", slug(prelude.get("title").unwrap_or("game")), p.number)),
        })
    }

    /// The line of play of the level played (on screen, or the last one) as a tessera log: its
    /// level (the game's source and the level's number), its seed and each step with its events
    /// and hash, as `tessera replay verify` reads it, and a note at the step the player is on
    /// (the log's last: an undone step is off the line) saying so
    /// ([`tessera_replay::Log::player_step`], where the editor's Debug opens it); `None` before
    /// any level.
    pub fn log(&self) -> Option<Vec<u8>> {
        let p = self.play.as_ref()?;
        let said = format!("level {}, step {}", p.number, p.history.step());
        p.history.write_log_noted(Vec::new(), &p.level, p.seed, Some(&said)).ok()
    }

    /// The entry of the level played.
    pub fn level_entry(&self) -> Option<usize> {
        self.play.as_ref().map(|p| p.entry)
    }
}

/// A file name's word for a title: letters and digits, dashes between.
fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "game".into() } else { out }
}

/// The 8-bit samples (128 silence) of the sound of `seed` at [`tessera_sound::SAMPLE_RATE`], as
/// `tessera sound` makes them.
pub fn sound_samples(seed: &str) -> Result<Vec<u8>, String> {
    let seed = tessera_sound::Seed::parse(seed).map_err(|e| e.to_string())?;
    tessera_sound::Sound::new(&seed).map(|s| s.samples().to_vec()).map_err(|e| e.to_string())
}

/// Runs PuzzleScript's regression suite (`testdata.js`'s text) on this engine: the number of
/// cases passed, and the names of those failed.
pub fn run_suite(text: &str) -> Result<(usize, Vec<String>), String> {
    let cases = engine::suite::parse_testdata(text)?;
    let mut passed = 0;
    let mut failed = Vec::new();
    for case in &cases {
        if engine::suite::run_case(case).passed {
            passed += 1;
        } else {
            failed.push(case.name.clone());
        }
    }
    Ok((passed, failed))
}

#[cfg(test)]
mod tests;
