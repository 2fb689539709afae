//! tessera-puzzlescript: the PuzzleScript language as a library — parser, compiler, turn
//! engine, the reference's test procedure and suite runner, and a solver.
//!
//! [`compile`] turns source text into a [`Game`] (or the reference's error diagnostics);
//! [`Game::start`] loads a level into a [`State`] (pure data); [`Game::turn`] plays one turn on it.
//! [`Session`] replays the reference test procedure exactly (`runTest`: again turns, undo stack,
//! restarts, level changes, the sound history), and [`suite`] runs the reference regression suite.
//! [`solver`] searches a level for a solution ([`solver::solve`]), reading the rules for what can
//! never win again (`prune.rs`) and for objects no rule tells apart ([`scenery`]).
//!
//! Boards are stored like the reference: cell index `x * height + y` (column-major), each cell
//! `stride` 64-bit words of object bits (object ids as in [`Game::objects`]).
//!
//! It depends on nothing of tessera. `tessera-core` wraps it as the `puzzlescript` rule set (the
//! level file, events, exact undo, the mirror, the plugin), which is what logs record.
//!
//! Compile a game and play a level:
//!
//! ```
//! use tessera_puzzlescript::{Input, compile};
//!
//! let source = "title Two steps
//! ========
//! OBJECTS
//! ========
//! Background
//! black
//! Wall
//! grey
//! Player
//! white
//! Goal
//! yellow
//! =======
//! LEGEND
//! =======
//! . = Background
//! W = Wall
//! P = Player
//! G = Goal
//! =======
//! SOUNDS
//! =======
//! ================
//! COLLISIONLAYERS
//! ================
//! Background
//! Goal
//! Player, Wall
//! ======
//! RULES
//! ======
//! ==============
//! WINCONDITIONS
//! ==============
//! all Player on Goal
//! =======
//! LEVELS
//! =======
//! WWWWW
//! WP.GW
//! WWWWW
//! ";
//! let game = compile(source).expect("the game compiles");
//! let mut state = game.start(0, None).expect("level 0 is a level");
//! game.turn(&mut state, Some(Input::Right), None);
//! assert!(!game.is_won(&state));
//! game.turn(&mut state, Some(Input::Right), None);
//! assert!(game.is_won(&state));
//! ```
//!
//! Solve it:
//!
//! ```
//! # let source = include_str!("../../../fixtures/games/warehouse.txt");
//! use tessera_puzzlescript::solver::{Puzzle, Search, SolveLimits, SolveOutcome, solve_with};
//! use tessera_puzzlescript::{LevelEntry, MAX_STEP_WORK, compile};
//!
//! let game = compile(source).expect("the game compiles");
//! // (the game's level list holds its messages too)
//! let first = game.levels().iter().position(|e| matches!(e, LevelEntry::Level { .. })).unwrap();
//! let start = game.start(first, None).expect("a level");
//! let puzzle = Puzzle { game: &game, start: &start, won: false, work_limit: MAX_STEP_WORK };
//! let report = solve_with(puzzle, SolveLimits::default(), Search::AStar, &mut || false);
//! let SolveOutcome::Solved(steps) = report.outcome else { panic!("{:?}", report.outcome) };
//! assert!(!steps.is_empty());
//! ```

pub mod art;
pub(crate) mod bits;
mod command;
pub(crate) mod compile;
pub mod level_string;
mod parse;
pub(crate) mod prune;
mod rng;
pub mod scenery;
pub mod session;
pub mod solver;
pub mod suite;
#[cfg(test)]
mod testkit;
mod turn;

pub use command::Command;
pub use rng::Rng;
pub use session::{Session, TestInput};

use serde::{Deserialize, Serialize};

/// The largest board side the editor makes a level with (the rule set's `max_side`); a game's
/// own levels are bounded by their area ([`MAX_LEVEL_AREA`]).
pub const MAX_SIDE: usize = 256;

/// The most cells a level may have (issue 66.1): 256 × 256, the largest board before, of any
/// shape. Real games use long thin levels: *An Auspicious Day*'s level 2 is 340×66 (22,440
/// cells), *The Overtaking*'s 5×10,230 (51,150); the 952 scraped games' largest level sits under
/// it. A level past it compiles without its board (the game's other levels play) and is refused
/// when started ([`StartError::TooLarge`]); a board of the area takes at most
/// 65,536 × 16 words (1,024 objects), 8 MiB.
pub const MAX_LEVEL_AREA: usize = 65_536;

/// The longest side a level may have: its coordinates are 16-bit.
pub const MAX_LEVEL_SIDE: usize = u16::MAX as usize;

/// The most turns one step runs (its own and the `again` turns it queues): a game whose `again`
/// never stops ends the step there, as if the player had waited.
pub const MAX_TURNS: u32 = 1_000;

/// The most work one step does by default (its turn and its `again` turns, or a level's start;
/// issues 37.4 and 66.2): a count of what the turn engine does (each cell a rule's row is
/// tested at, each rule application tried, each rule looked at, each cell visited while
/// resolving movements; [`Work`]), the same on every machine, never the clock. A step past it
/// is refused (`step_too_long`, "step too long: …") and changes nothing; a level whose start
/// passes it does not open. A setting of the process ([`set_step_work`], `tessera
/// --step-work`).
///
/// Where it sits: 8 times the heaviest step of a real game found, *A Plaid Puzzle*'s 4th input
/// of `real-bounds` (248,246,465 units, 1.2 s in a release build on a loaded 2-core machine,
/// where the reference plays it); the heaviest step of PuzzleScript's 470-case suite does 3.3
/// million (600 times less). A runaway step (1,000 `again` turns, each trying a rule with
/// ellipses at every pair of cells of a 256×256 level) ends at it in 13 to 15 s of one core on
/// that loaded machine (load 7.5 on 2 cores; 40,000,000, the bound until issue 66.2, refused
/// the Plaid step).
///
/// It holds under every rules version of the tessera rule set, without a version of its own: a
/// larger bound only lets longer steps finish, so a step recorded under a smaller one does the
/// same work and makes the same events and hashes (the golden logs replay unchanged); a log
/// recorded with a step past the bound replays with `--step-work` as large.
pub const MAX_STEP_WORK: u64 = 2_000_000_000;

/// The step bound of this process: [`MAX_STEP_WORK`] unless [`set_step_work`] changed it.
static STEP_WORK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(MAX_STEP_WORK);

/// The most work one step does in this process (the `tessera --step-work` setting):
/// [`MAX_STEP_WORK`] unless [`set_step_work`] changed it. Every [`Session`] and suite case
/// started, and every `PuzzleScriptRules` made, takes it from here.
pub fn step_work() -> u64 {
    STEP_WORK.load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets the step bound of this process (at least 1) for every session, suite case and rules
/// made from now on. A larger bound only lets longer steps finish: a step that finished under
/// the old bound does the same work, makes the same events and hashes, under the new one.
pub fn set_step_work(work: u64) {
    STEP_WORK.store(work.max(1), std::sync::atomic::Ordering::Relaxed);
}

/// A game's compile errors in words, each with its line (its first five; "(and N more)"), as
/// every command says them: "the game does not compile: line 12: …; …".
pub fn describe_errors(errors: &[Diagnostic]) -> String {
    let shown: Vec<String> = errors
        .iter()
        .filter(|d| d.is_error)
        .take(5)
        .map(|d| match d.line {
            // An error about the whole game (no player, no collision layers): no line to name.
            0 => d.message.clone(),
            line => format!("line {line}: {}", d.message),
        })
        .collect();
    if shown.is_empty() {
        return "the game does not compile".into();
    }
    let total = errors.iter().filter(|d| d.is_error).count();
    let more =
        if total > shown.len() { format!(" (and {} more)", total - shown.len()) } else { String::new() };
    format!("the game does not compile: {}{more}", shown.join("; "))
}

/// A compiler message, as the reference would print it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// 1-based source line (0: no particular line).
    pub line: usize,
    /// 1-based column (a character of the line), best effort: with a `width`, where the word
    /// the message is about starts.
    pub column: usize,
    /// How many characters from `column` the message is about (the word it names); 0: the
    /// message is about the line, not one word of it.
    #[serde(default)]
    pub width: usize,
    /// The message.
    pub message: String,
    /// An error (the game does not run) rather than a warning.
    pub is_error: bool,
}

/// An object as declared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectInfo {
    /// Its name, lower-cased.
    pub name: String,
    /// Its colours as written (names or `#hex`), lower-cased.
    pub colors: Vec<String>,
    /// Its pixel rows (colour index per pixel, -1 transparent), or `None` (one flat colour).
    pub sprite: Option<Vec<Vec<i8>>>,
    /// Its collision layer.
    pub layer: usize,
    /// The line it was declared on.
    pub line: usize,
}

/// A level or a message between levels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LevelEntry {
    /// A level.
    Level {
        /// Width in cells.
        width: usize,
        /// Height in cells.
        height: usize,
        /// First line of the level in the source.
        line: usize,
    },
    /// A message screen.
    Message {
        /// The text.
        text: String,
        /// Its line.
        line: usize,
    },
}

/// Prelude options: the ones that change behaviour, typed, and every option as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Prelude {
    /// Every option in source order: key and value (`"true"` for flags).
    pub pairs: Vec<(String, String)>,
    /// `run_rules_on_level_start`.
    pub run_rules_on_level_start: bool,
    /// `require_player_movement`.
    pub require_player_movement: bool,
    /// `noundo`.
    pub noundo: bool,
    /// `norestart`.
    pub norestart: bool,
    /// `noaction`.
    pub noaction: bool,
    /// `norepeat_action`.
    pub norepeat_action: bool,
    /// `throttle_movement`.
    pub throttle_movement: bool,
    /// `again_interval` in seconds (default 0.15).
    pub again_interval: f64,
    /// `realtime_interval` in seconds, if any.
    pub realtime_interval: Option<f64>,
    /// `key_repeat_interval` in seconds (default 0.15).
    pub key_repeat_interval: f64,
}

impl Prelude {
    /// Looks an option up (the last one written wins).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn from_pairs(meta: &[(String, String, usize)], diags: &mut Vec<Diagnostic>) -> Prelude {
        let mut p = Prelude {
            pairs: meta.iter().map(|(k, v, _)| (k.clone(), v.clone())).collect(),
            again_interval: 0.15,
            key_repeat_interval: 0.15,
            ..Prelude::default()
        };
        for (k, v, line) in meta {
            let num = || v.trim().parse::<f64>().ok();
            match k.as_str() {
                "run_rules_on_level_start" => p.run_rules_on_level_start = true,
                "require_player_movement" => p.require_player_movement = true,
                "noundo" => p.noundo = true,
                "norestart" => p.norestart = true,
                "noaction" => p.noaction = true,
                "norepeat_action" => p.norepeat_action = true,
                "throttle_movement" => p.throttle_movement = true,
                "again_interval" => p.again_interval = num().unwrap_or(0.15),
                "key_repeat_interval" => p.key_repeat_interval = num().unwrap_or(0.15),
                "realtime_interval" => p.realtime_interval = num(),
                "youtube" => diags.push(Diagnostic {
                    line: *line,
                    column: 1,
                    width: 0,
                    message: "Unfortunately, YouTube support hasn't been working properly for a long time - it was always a hack and it hasn't gotten less hacky over time, so I can no longer pretend to support it.".into(),
                    is_error: false,
                }),
                _ => {}
            }
        }
        p
    }
}

/// A compiled game. Immutable; `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) objects: Vec<ObjectInfo>,
    pub(crate) stride: usize,
    pub(crate) layer_count: usize,
    pub(crate) layer_masks: Vec<bits::Bits>,
    pub(crate) player_mask: bits::Bits,
    pub(crate) player_aggregate: bool,
    pub(crate) rules: Vec<Vec<compile::Rule>>,
    pub(crate) rule_count: usize,
    pub(crate) late_rules: Vec<Vec<compile::Rule>>,
    pub(crate) loop_point: Vec<Option<usize>>,
    pub(crate) late_loop_point: Vec<Option<usize>>,
    /// what every rule of a group needs on the board, per group of `rules` and of `late_rules`
    pub(crate) group_needs: Vec<compile::GroupNeed>,
    pub(crate) late_group_needs: Vec<compile::GroupNeed>,
    /// what each rule needs on the board, by what it needs (see [`compile::RuleNeeds`])
    pub(crate) rule_needs: compile::RuleNeeds,
    pub(crate) rigid_group_to_group: Vec<usize>,
    #[allow(dead_code)]
    pub(crate) group_rigid_index: Vec<Option<usize>>,
    pub(crate) win_conditions: Vec<compile::WinCondition>,
    pub(crate) levels: Vec<LevelEntry>,
    pub(crate) boards: Vec<Option<Vec<u64>>>,
    pub(crate) sounds: compile::Sounds,
    pub(crate) prelude: Prelude,
    pub(crate) warnings: Vec<Diagnostic>,
}

/// Compiles a game. `Err` exactly when the reference would count errors; the diagnostics then
/// include every warning too.
pub fn compile(source: &str) -> Result<Game, Vec<Diagnostic>> {
    let (game, diags) = compile_lenient(source);
    match game {
        Some(g) if !diags.iter().any(|d| d.is_error) => Ok(g),
        _ => Err(diags),
    }
}

/// Compiles like the reference does before running a game: a game whenever the reference would
/// still run one (it runs games with a few errors), with all diagnostics.
///
/// A UTF-8 byte-order mark opening the source is skipped: the reference reads it as white space
/// (JavaScript's `\s` takes U+FEFF). Lines end at line feeds, as in the reference (`split('\n')`):
/// a source whose lines end with a carriage return alone is one long line there too, and refused;
/// the first diagnostic then says so in words.
pub fn compile_lenient(source: &str) -> (Option<Game>, Vec<Diagnostic>) {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let (game, mut diags) = compile::compile_lenient(source);
    if let Some(cr) = carriage_return_line_ends(source) {
        diags.insert(0, cr);
    }
    (game, distinct(diags))
}

/// An error explaining a source whose lines end with a carriage return alone (classic Mac OS
/// line ends): no line feed, and a CR before the end, so the reference reads one line. (A stray
/// CR within lines that end in LF is white space there, and here.)
fn carriage_return_line_ends(source: &str) -> Option<Diagnostic> {
    let body = source.trim_end_matches(['\r', '\n']);
    (!source.contains('\n') && body.contains('\r')).then(|| Diagnostic {
        line: 1,
        column: 1,
        width: 0,
        message:
            "the lines end with a carriage return alone (CR, as classic Mac OS saved text); PuzzleScript \
                  ends lines at line feeds (LF), so it reads the whole file as one line: save the file with \
                  LF or CRLF line ends"
                .into(),
        is_error: true,
    })
}

/// The diagnostics without repeats: like the reference, a message already given for the same
/// line is not given (or counted) again (a rule expanded into four directions reports its
/// problem once).
fn distinct(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = std::collections::BTreeSet::new();
    diags.into_iter().filter(|d| seen.insert((d.line, d.is_error, d.message.clone()))).collect()
}

/// Where `word` is in `line` (a line of the source): its column (a character, from 1) and width
/// in characters; the first whole occurrence in any case outside comments (the compiler
/// lower-cases names and prints some upper-cased), `None` when the line does not hold it.
pub(crate) fn word_span(line: &str, word: &str) -> Option<(usize, usize)> {
    let word: Vec<char> = word.trim().chars().flat_map(char::to_lowercase).collect();
    if word.is_empty() {
        return None;
    }
    let chars: Vec<char> = line.chars().collect();
    let low: Vec<char> = chars.iter().map(|c| c.to_lowercase().next().unwrap_or(*c)).collect();
    if low.len() != chars.len() {
        return None;
    }
    let is_word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    let mut depth = 0usize;
    for i in 0..low.len() {
        match low[i] {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > 0 || low[i] == ')' || i + word.len() > low.len() || low[i..i + word.len()] != word[..] {
            continue;
        }
        let joined_before = i > 0 && is_word(low.get(i - 1)) && is_word(word.first());
        let joined_after = is_word(low.get(i + word.len())) && is_word(word.last());
        if !joined_before && !joined_after {
            return Some((i + 1, word.len()));
        }
    }
    None
}

/// The line `line` (from 1) of `source`, if it has one.
pub(crate) fn source_line(source: &str, line: usize) -> Option<&str> {
    source.split('\n').nth(line.checked_sub(1)?)
}

/// An input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Input {
    /// Up.
    Up,
    /// Left.
    Left,
    /// Down.
    Down,
    /// Right.
    Right,
    /// Action (X / space).
    Action,
}

impl Input {
    pub(crate) fn mask(self) -> u8 {
        match self {
            Input::Up => compile::UP,
            Input::Left => compile::LEFT,
            Input::Down => compile::DOWN,
            Input::Right => compile::RIGHT,
            Input::Action => compile::ACTION,
        }
    }
}

/// Why a level cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// No level with this index.
    #[error("there is no level {0}")]
    NoSuchLevel(usize),
    /// The entry is a message, not a level.
    #[error("entry {0} is a message, not a level")]
    Message(usize),
    /// The level is larger than a board may be ([`MAX_LEVEL_AREA`] cells, [`MAX_LEVEL_SIDE`] a
    /// side): the game compiles and its other levels play, this one does not (issue 66.1).
    #[error(
        "the level at line {line} is {width}x{height} cells, more than {MAX_LEVEL_AREA} cells (or {MAX_LEVEL_SIDE} a side): it cannot be played"
    )]
    TooLarge {
        /// Its first line in the source.
        line: usize,
        /// Its width (its widest row).
        width: usize,
        /// Its height.
        height: usize,
    },
}

/// The play state: pure data.
#[derive(PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct State {
    /// The level entry shown (index into [`Game::levels`]).
    pub level: usize,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Words per cell.
    pub stride: usize,
    /// Object bits, cell index `x * height + y`, `stride` words per cell.
    pub cells: Vec<u64>,
    /// Pending movements, 5 bits per cell and layer (zero between turns in practice).
    pub movements: Vec<u8>,
    /// The generator.
    pub rng: Rng,
    /// The seed string (levels reseed from it).
    pub seed: String,
    /// The restart target (level start or last checkpoint).
    pub restart_cells: Vec<u64>,
    /// A message or title screen is showing (win conditions are not checked).
    pub text_mode: bool,
    /// The title screen is showing (after the last level).
    pub title_screen: bool,
}

impl Clone for State {
    fn clone(&self) -> State {
        State { cells: self.cells.clone(), ..self.without_cells() }
    }

    /// Reuses the buffers of `self` (the solver copies a state before each step it tries).
    fn clone_from(&mut self, source: &State) {
        self.level = source.level;
        self.width = source.width;
        self.height = source.height;
        self.stride = source.stride;
        self.cells.clone_from(&source.cells);
        self.movements.clone_from(&source.movements);
        self.rng.clone_from(&source.rng);
        self.seed.clone_from(&source.seed);
        self.restart_cells.clone_from(&source.restart_cells);
        self.text_mode = source.text_mode;
        self.title_screen = source.title_screen;
    }
}

impl State {
    /// The state without its board (`cells` empty): what the solver stores once for the many
    /// boards that share it, copied without copying the board.
    pub fn without_cells(&self) -> State {
        State {
            level: self.level,
            width: self.width,
            height: self.height,
            stride: self.stride,
            cells: Vec::new(),
            movements: self.movements.clone(),
            rng: self.rng.clone(),
            seed: self.seed.clone(),
            restart_cells: self.restart_cells.clone(),
            text_mode: self.text_mode,
            title_screen: self.title_screen,
        }
    }

    /// Cell index of `(x, y)`.
    pub fn index(&self, x: usize, y: usize) -> usize {
        x * self.height + y
    }

    /// The object ids in a cell, ascending.
    pub fn objects_at(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let s = self.stride;
        let words = self.cells.get(cell * s..(cell + 1) * s).unwrap_or(&[]);
        bits::ones(words)
    }

    /// Replaces a cell's objects.
    pub fn set_cell(&mut self, cell: usize, objects: &[usize]) {
        let s = self.stride;
        if let Some(words) = self.cells.get_mut(cell * s..(cell + 1) * s) {
            for w in words.iter_mut() {
                *w = 0;
            }
            for &o in objects {
                bits::set(words, o);
            }
        }
    }
}

/// What a debugger or animator can learn from a turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// Events in order.
    pub events: Vec<TraceEvent>,
    /// Also record what the `again` check did: the reference tries the queued `again` turn at
    /// the end of a turn, to see whether it would change anything, and undoes it (with its own
    /// log turned off). Its rules changed nothing that stays, so they are left out unless this
    /// is set (rules version 1 recorded them).
    #[serde(default)]
    pub again_check: bool,
    /// When set, every rule tried, in order: its source line and whether it matched anywhere
    /// (PuzzleScript's verbose log; a rule of several directions is tried once per direction).
    #[serde(default)]
    pub tried: Option<Vec<(usize, bool)>>,
    /// When set, the board (its object bits, as [`State::cells`]) after each rule that changed
    /// it, in order, with the rule's source line: one board per run of a rule's changes (the
    /// changes the views make one event of), for a debugger that shows what each rule did.
    /// Nothing else of the turn depends on it.
    #[serde(default)]
    pub boards: Option<Vec<(usize, Vec<u64>)>>,
}

/// One traced event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraceEvent {
    /// The rule on `line` rewrote `cell`.
    Rule {
        /// Source line of the rule.
        line: usize,
        /// The cell it changed.
        cell: usize,
    },
    /// An object moved.
    Move {
        /// Object id.
        object: usize,
        /// From cell.
        from: usize,
        /// To cell.
        to: usize,
    },
}

/// A bound on the work of turns (issue 37.4): a deterministic count, the same on every machine,
/// of what the turn engine does (cells a rule's row is tested at, rule applications tried, rules
/// looked at, cells visited while resolving movements), never the clock. [`Game::turn_within`]
/// adds a turn's work to `spent`; once `spent` passes `limit` the turn stops where it is, and
/// its state is of no use (the caller throws it away: see [`Work::over`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    /// Work done so far.
    pub spent: u64,
    /// The most work allowed.
    pub limit: u64,
}

impl Work {
    /// No work done yet, at most `limit`.
    pub fn new(limit: u64) -> Work {
        Work { spent: 0, limit }
    }

    /// No bound.
    pub fn unbounded() -> Work {
        Work::new(u64::MAX)
    }

    /// Whether the work passed the limit: the last turn stopped part-way.
    pub fn over(&self) -> bool {
        self.spent > self.limit
    }
}

/// The buffers turns work in, kept from one turn to the next so that a turn allocates next to
/// nothing (the solver plays millions of turns): see [`Game::quiet_turn`]. Nothing in it
/// changes what a turn does; one workspace serves one game at a time (another game's turn
/// starts it afresh).
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    scratch: turn::Scratch,
    backups: Vec<Vec<u64>>,
    sounds: Vec<String>,
}

/// What a turn played by [`Game::quiet_turn`] did: [`TurnOutcome`]'s flags without its
/// messages and sounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuietOutcome {
    /// The level changed.
    pub changed: bool,
    /// An `again` turn is queued.
    pub again: bool,
    /// The level was won.
    pub won: bool,
    /// The turn was cancelled.
    pub cancelled: bool,
    /// Whether the win conditions hold on the board the turn ends on, when the turn checked
    /// them there (`None`: ask [`Game::is_won`]).
    pub conditions_held: Option<bool>,
    /// A draw from the generator could have gone otherwise (a random pick among two or more,
    /// or a random direction): `false` when the turn did the same whatever the generator
    /// held, even if it drew (a `random` rule with one match draws among one).
    pub free_draw: bool,
}

/// What a turn did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnOutcome {
    /// The level changed (the reference would push an undo state for an input turn).
    pub changed: bool,
    /// An `again` turn is queued.
    pub again: bool,
    /// The level was won (the state is left on the won board).
    pub won: bool,
    /// The turn was cancelled.
    pub cancelled: bool,
    /// A `restart` command ran.
    pub restarted: bool,
    /// A `checkpoint` command ran.
    pub checkpoint: bool,
    /// Messages shown.
    pub messages: Vec<String>,
    /// Sounds recorded (seeds), as the reference's `soundHistory`.
    pub sounds: Vec<String>,
    /// Every sound the reference plays in the turn (seeds), in its order: the recorded ones and
    /// those it plays without recording (`sfx` commands, `cancel`, `restart`, `showmessage`,
    /// `endlevel`).
    #[serde(default)]
    pub played: Vec<String>,
}

/// One line of a game's SOUNDS section that the game keeps: what plays the sound, and its seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoundDeclaration {
    /// What plays it, the line's words before the seed, lowercase: `sfx3`, `startlevel`,
    /// `crate move up`.
    pub name: String,
    /// The seed, as written (decimal digits).
    pub seed: String,
    /// The source line (1-based).
    pub line: usize,
}

impl Game {
    /// Warnings from compilation.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// Levels and messages in order.
    pub fn levels(&self) -> &[LevelEntry] {
        &self.levels
    }

    /// Objects by id.
    pub fn objects(&self) -> &[ObjectInfo] {
        &self.objects
    }

    /// Number of objects.
    pub fn object_count(&self) -> usize {
        self.objects.len()
    }

    /// Number of collision layers.
    pub fn layer_count(&self) -> usize {
        self.layer_count
    }

    /// The prelude.
    pub fn prelude(&self) -> &Prelude {
        &self.prelude
    }

    /// The sounds the game declares and keeps, in source order.
    pub fn sound_declarations(&self) -> &[SoundDeclaration] {
        &self.sounds.declared
    }

    /// The seed of a sound event the game declares (`undo`, `restart`, `startlevel`, `sfx0`,
    /// …; lowercase), the last declaration winning as in the reference.
    pub fn sound_event(&self, event: &str) -> Option<&str> {
        self.sounds.events.get(event).map(String::as_str)
    }

    /// Loads a level (`loadLevel`): the board, the generator from `seed`, and the
    /// `run_rules_on_level_start` turn when the prelude asks for it (not the `again` turns it
    /// queues: [`Game::start_settled`] runs those).
    pub fn start(&self, level: usize, seed: Option<&str>) -> Result<State, StartError> {
        self.start_settled(level, seed, 0)
    }

    /// Loads a level as [`Game::start`] does, then runs the `again` turns its
    /// `run_rules_on_level_start` turn queued (at most `max_turns`, stopping at a win), as the
    /// reference's timer runs them before the first input can (and its suite's `runTest` does).
    pub fn start_settled(
        &self,
        level: usize,
        seed: Option<&str>,
        max_turns: u32,
    ) -> Result<State, StartError> {
        self.start_settled_within(level, seed, max_turns, &mut Work::unbounded())
    }

    /// [`Game::start_settled`] within `work` (see [`Game::turn_within`]): its turns stop once
    /// `work` is over, and the state is then of no use.
    pub fn start_settled_within(
        &self,
        level: usize,
        seed: Option<&str>,
        max_turns: u32,
        work: &mut Work,
    ) -> Result<State, StartError> {
        match self.levels.get(level) {
            None => return Err(StartError::NoSuchLevel(level)),
            Some(LevelEntry::Message { .. }) => return Err(StartError::Message(level)),
            Some(LevelEntry::Level { .. }) => self.check_playable(level)?,
        }
        let mut st = self.blank_state(seed.unwrap_or(DEFAULT_SEED));
        let mut again = {
            let (mut backups, mut sounds, mut scratch) = (Vec::new(), Vec::new(), turn::Scratch::default());
            let mut rt =
                turn::Runtime::with_scratch(self, &mut st, &mut backups, &mut sounds, None, &mut scratch);
            rt.advance_on_win = false;
            rt.work_limit = work.limit.saturating_sub(work.spent);
            rt.load_level(level);
            work.spent = work.spent.saturating_add(rt.work());
            rt.againing
        };
        let mut turns = 0;
        while again && turns < max_turns && !self.is_won(&st) && !work.over() {
            again = self.turn_within(&mut st, None, None, work).again;
            turns += 1;
        }
        Ok(st)
    }

    /// [`StartError::TooLarge`] when level entry `level` is a level compiled without its board.
    pub(crate) fn check_playable(&self, level: usize) -> Result<(), StartError> {
        match (self.levels.get(level), self.boards.get(level)) {
            (Some(LevelEntry::Level { width, height, line }), Some(None)) => {
                Err(StartError::TooLarge { line: *line, width: *width, height: *height })
            }
            _ => Ok(()),
        }
    }

    pub(crate) fn blank_state(&self, seed: &str) -> State {
        State {
            level: 0,
            width: 0,
            height: 0,
            stride: self.stride,
            cells: Vec::new(),
            movements: Vec::new(),
            rng: Rng::new(seed),
            seed: seed.to_string(),
            restart_cells: Vec::new(),
            text_mode: true,
            title_screen: false,
        }
    }

    /// One turn: an input, or `None` for a tick / again turn. The state stays on the level
    /// (a win is reported, not acted on).
    pub fn turn(&self, state: &mut State, input: Option<Input>, trace: Option<&mut Trace>) -> TurnOutcome {
        self.turn_within(state, input, trace, &mut Work::unbounded())
    }

    /// [`Game::turn`] within `work` (see [`Work`]): when `work` is over after it, the turn
    /// stopped part-way and `state` is of no use.
    pub fn turn_within(
        &self,
        state: &mut State,
        input: Option<Input>,
        trace: Option<&mut Trace>,
        work: &mut Work,
    ) -> TurnOutcome {
        let mut backups = Vec::new();
        let mut sounds = Vec::new();
        let mut scratch = turn::Scratch::default();
        let mut rt = turn::Runtime::with_scratch(self, state, &mut backups, &mut sounds, trace, &mut scratch);
        rt.advance_on_win = false;
        rt.work_limit = work.limit.saturating_sub(work.spent);
        let changed = rt.process_input(input.map(Input::mask), false, false);
        work.spent = work.spent.saturating_add(rt.work());
        TurnOutcome {
            changed,
            again: rt.againing,
            won: rt.won,
            cancelled: rt.cancelled,
            restarted: rt.restarted,
            checkpoint: rt.checkpoint,
            messages: std::mem::take(&mut rt.messages),
            played: std::mem::take(&mut rt.played),
            sounds,
        }
    }

    /// [`Game::turn_within`] without the trace, the messages and the sounds, in the buffers of
    /// `ws`: the state, the work and the flags are exactly those of `turn_within` (the rules
    /// look at the board afresh, as a new turn does), at a fraction of the allocations.
    pub fn quiet_turn(
        &self,
        ws: &mut Workspace,
        state: &mut State,
        input: Option<Input>,
        work: &mut Work,
    ) -> QuietOutcome {
        ws.scratch.forget();
        let outcome = {
            let mut rt = turn::Runtime::with_scratch(
                self,
                state,
                &mut ws.backups,
                &mut ws.sounds,
                None,
                &mut ws.scratch,
            );
            rt.advance_on_win = false;
            rt.quiet = true;
            rt.work_limit = work.limit.saturating_sub(work.spent);
            let changed = rt.process_input(input.map(Input::mask), false, false);
            work.spent = work.spent.saturating_add(rt.work());
            QuietOutcome {
                changed,
                again: rt.againing,
                won: rt.won,
                cancelled: rt.cancelled,
                conditions_held: rt.conditions_held,
                free_draw: rt.free_draw,
            }
        };
        for b in ws.backups.drain(..) {
            ws.scratch.recycle(b);
        }
        ws.sounds.clear();
        outcome
    }

    /// `DoRestart`: back to the restart target (level start or checkpoint), then the
    /// `run_rules_on_level_start` turn if any.
    pub fn restart(&self, state: &mut State) -> TurnOutcome {
        self.restart_within(state, &mut Work::unbounded())
    }

    /// [`Game::restart`] within `work` (see [`Game::turn_within`]).
    pub fn restart_within(&self, state: &mut State, work: &mut Work) -> TurnOutcome {
        let mut backups = Vec::new();
        let mut sounds = Vec::new();
        let mut scratch = turn::Scratch::default();
        let mut rt = turn::Runtime::with_scratch(self, state, &mut backups, &mut sounds, None, &mut scratch);
        rt.advance_on_win = false;
        rt.work_limit = work.limit.saturating_sub(work.spent);
        rt.do_restart(true);
        work.spent = work.spent.saturating_add(rt.work());
        TurnOutcome {
            changed: true,
            again: rt.againing,
            won: rt.won,
            restarted: true,
            messages: std::mem::take(&mut rt.messages),
            played: std::mem::take(&mut rt.played),
            sounds,
            ..TurnOutcome::default()
        }
    }

    /// Whether an `action` step changes nothing, provably, on a board of `width` × `height`
    /// cells from any state where no movement is pending and the win conditions do not hold:
    /// every rule (late ones too) needs some cell moving up, down, left or right, which an
    /// action turn does not start and no rule can give before one fires, so no rule fires, the
    /// player moves onto its own cell, no command runs and the board stays as it was; and the
    /// work such a turn can do ([`turn::idle_turn_work_bound`]) is within `work_limit`, so it
    /// is never refused as too long. The solver skips such steps: they would find the state
    /// they start from.
    pub(crate) fn action_is_idle(&self, width: usize, height: usize, work_limit: u64) -> bool {
        use compile::{DOWN, LEFT, PatternCell, RIGHT, UP};
        let needs_a_move = |rule: &compile::Rule| {
            rule.rows.iter().flatten().any(|c| match c {
                PatternCell::Cell(p) => {
                    p.mov_present.iter().any(|&(_, b)| b & (UP | DOWN | LEFT | RIGHT) != 0)
                }
                PatternCell::Ellipsis => false,
            })
        };
        self.rules.iter().chain(&self.late_rules).flatten().all(needs_a_move)
            && turn::idle_turn_work_bound(self, width * height, width.max(height)) <= work_limit
    }

    /// Whether the win conditions hold on this board (false when there are none).
    pub fn is_won(&self, state: &State) -> bool {
        self.win_conditions_hold(state)
    }

    pub(crate) fn win_conditions_hold(&self, st: &State) -> bool {
        if self.win_conditions.is_empty() {
            return false;
        }
        let s = self.stride;
        let n = st.width * st.height;
        let Some(cells) = st.cells.get(..n * s) else {
            return false;
        };
        use bits::Bits;
        self.win_conditions.iter().all(|wc| {
            let has = |mask: &[u64], all: bool, c: &[u64]| {
                if all { bits::subset(mask, c) } else { bits::intersects(mask, c) }
            };
            // Whether some cell has the first mask and (or, for `all`, but not) the second.
            let found = |want2: bool| {
                if s == 1 {
                    // one word a cell (at most 64 objects): the tests on words
                    let word = |m: &Bits| m.first().copied().unwrap_or(0);
                    let (m1, m2) = (word(&wc.mask1), word(&wc.mask2));
                    let has1 = |c: u64| if wc.aggregate1 { c & m1 == m1 } else { c & m1 != 0 };
                    let has2 = |c: u64| if wc.aggregate2 { c & m2 == m2 } else { c & m2 != 0 };
                    cells.iter().any(|&c| has1(c) && has2(c) == want2)
                } else {
                    cells.chunks_exact(s.max(1)).any(|c| {
                        has(&wc.mask1, wc.aggregate1, c) && has(&wc.mask2, wc.aggregate2, c) == want2
                    })
                }
            };
            match wc.quantifier {
                -1 => !found(true),
                0 => found(true),
                _ => !found(false),
            }
        })
    }
}

/// The most bytes a game's source may have (issue 37): a longer one is refused before it is read.
/// The same limit as the `.txt` files `tessera` and the editor read, and it holds for a source
/// embedded in a level or a suite case too.
pub const MAX_SOURCE_BYTES: usize = 4 << 20;
/// The most objects a game may declare (PuzzleScript's 470-case suite: at most 355 in one game).
pub const MAX_OBJECTS: usize = 1024;
/// The most collision layers a game may have (the suite: at most 188).
pub const MAX_LAYERS: usize = 1024;
/// The most names one legend key may combine with `and` or `or` (the suite: at most 200).
pub const MAX_LEGEND_NAMES: usize = 1024;
/// The most rule lines a game may have (the suite: about 590).
pub const MAX_RULE_LINES: usize = 10_000;
/// The most levels and messages a game may have (the suite: at most 130).
pub const MAX_LEVELS: usize = 10_000;

/// The seed used when none is given.
pub const DEFAULT_SEED: &str = "tessera";
