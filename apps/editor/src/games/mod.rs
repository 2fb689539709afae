//! The editor's rule sets: what Edit and Play need from each game, behind one trait,
//! [`EditorGame`], with one file per rule set and one registry line ([`games!`]) listing them.
//!
//! Code outside this folder never matches a rule set: it looks the game up
//! ([`of`] by [`RuleSet`], [`of_level`] by a [`Level`]) and asks it. A rule set provides:
//! - Files: the importers it opens besides JSON levels ([`Import`]: extension, what it is, the
//!   reader, which gives one level or every level of a collection) and its level's name.
//! - Look: its board's ground as a picture ([`EditorGame::ground`]), the ground indices whose
//!   colour frames the piece standing on them ([`EditorGame::framed_ground`]).
//! - Edit, as data ([`crate::model`]): a draft is a [`Sketch`], a grid of glyphs ([`Ink`]) and
//!   the rule set's settings (its `Level`, board aside). The rule set converts levels and
//!   sketches ([`EditorGame::sketch`], [`EditorGame::level`]), gives its palette as a list of
//!   inks ([`EditorGame::palette`]: ink, label, colour; sprites by [`EditorGame::ink_art`]), how
//!   each ink is drawn ([`EditorGame::look`]), the inks it accepts and the one an eraser leaves,
//!   its largest side, Randomize, every check a sketch fails, whether its empty board is drawn
//!   from the seed at each game, and its settings panel.
//! - Play: keys, clicks and drags → commands (the selection it needs lives in [`PlayInput`]: a
//!   selected cell and a highlighted hint), the hover overlay, the Play panel (help, Hint, End
//!   turn), the objectives of the status bar and the debugger's inspector lines.
//!
//! Adding a rule set to the editor: a file `games/NAME.rs` with a unit struct implementing
//! [`EditorGame`], and its name in the `games!` line below.
//!
//! `games/`: what the editor needs from each rule set, behind one trait, `EditorGame`
//! (`games/mod.rs`), one file per rule set (`slide.rs`, `collapse.rs`, `tactics.rs`, `match3.rs`,
//! `sokoban.rs`, `puzzlescript.rs`, each a unit struct `Game`) and one registry line,
//! `games!(slide, collapse, tactics, match3, sokoban, puzzlescript)`, which declares the modules
//! and lists them in `games::ALL`; `games::of` finds an entry by `RuleSet`, `games::of_level` by a
//! `Level`. A rule set provides: its importers (`Import`: extension, description, reader of one
//! level or every level of a collection) and level name; its look (the ground as a picture,
//! `ground`; the ground indices whose colour frames a piece at rest on them, `framed_ground` — a
//! Sokoban box on its goal —; or the whole board as pixel art the rule set paints itself,
//! `board_art`, one texture of a few texels a cell uploaded when its key changes, in place of the
//! mirror's pieces, and its inks' art for Edit's canvas, `ink_art`: PuzzleScript's sprites,
//! `games/puzzlescript/art.rs`, art cached per game source; its Hint, `games/puzzlescript/hint.rs`,
//! searches in a thread through `games/search.rs`, which Sokoban's Hint shares (a job about one
//! position with a CPU and clock budget, and the solution it found, kept in egui's memory); "Show
//! the solution" returns `PlayAction::Walk`, which the app plays a step at a time once each is
//! animated, any step, undo or redo of the user's ending it; a realtime game's clock returns
//! `PlayAction::Clock`, a tick played unless a step runs or a solution is shown, silent when it
//! changes nothing); for Edit, as data (`model.rs`): the sketch ⇄ level conversion (`Sketch`: a
//! grid of glyphs, the units and the settings, the rule set's `Level` without its board), the
//! palette as a list of inks (`PaletteInk`: ink, label, colour; drawn as the ink's sprite when
//! `ink_art` has one) and the palette's own fields (`Brush`: slide's tile value, match3's lock,
//! tactics' units), how each ink is drawn (`InkLook`: fill, mark, frame), the inks it accepts and
//! the eraser's, its largest side, Randomize, whether an empty board is drawn from the seed, which
//! inks "Fix by shuffling" moves and when it helps, its own list of failing checks where it has
//! one, and the settings panel (which may return an `InkMap` to change cells: a tactics glyph
//! renamed or removed); for Play, keys, clicks and drags → `AnyCommand`, the hover overlay
//! (collapse's group and score, tactics' range and path), the Play panel (help, Hint, End turn,
//! another level → `PlayAction`), the text an event shows over the board until a key or click
//! (`message`), whether a settings change restarts Play (`restarts_play`: PuzzleScript's Rebuild),
//! whether the selection survives a step, the status bar's objectives and the debugger's inspector
//! lines; for Debug, a step's turns and the rules that fired (`rules_fired`), filter words it
//! recognises (`event_filter`: an object's name) and showing a source line in the rules panel
//! (`show_source_line`); for Play, the turns a step shows one by one (`turn_frames`: PuzzleScript's
//! again, kept as boards in `Session`, the last `MAX_TURN_BOARDS` (100) turns' only) and a message
//! screen's colours; for Edit, the game's level list (`levels_ui`). Code outside `games/` never
//! matches a rule set; a rule set with no entry opens and plays nothing by input (no keys, no
//! clicks) and cannot be edited. Adding a rule set to the editor: `games/NAME.rs` and its name in
//! the registry line. `games/` depends on `model.rs` (with `palette.rs`) and core only, never on
//! `edit.rs`, `draft.rs`, `board.rs` or `play.rs`, which depend on it (`board` and `play` re-export
//! `Overlay`, `BoardInput`, `PlayInput` from `model`); a unit test reading the files holds this.

use crate::model::{
    BoardInput, Brush, Ink, InkLook, Overlay, PaletteInk, PlayInput, Problem, Sketch, text_on,
};
use crate::palette;
use egui::Stroke;
use tessera_core::{AnyCommand, AnyRules, AnyState, Level, Pos, RuleSet};

/// Declares one module per rule set and lists their [`EditorGame`] impls in [`ALL`]; each module
/// defines `pub struct Game` (a unit struct).
macro_rules! games {
    ($($name:ident),* $(,)?) => {
        $(mod $name;)*
        /// Every rule set the editor knows, in menu order.
        pub static ALL: &[&dyn EditorGame] = &[$(&$name::Game),*];
    };
}

games!(slide, collapse, tactics, match3, sokoban, puzzlescript);

pub use puzzlescript::{EXAMPLES, source_game};
pub mod search;
pub use search::{HintBudget, set_hint_budget};

/// The editor entry of `rule_set`, if it has one.
pub fn of(rule_set: RuleSet) -> Option<&'static dyn EditorGame> {
    ALL.iter().copied().find(|g| g.rule_set() == rule_set)
}

/// The editor entry of the rule set `level` belongs to, if it has one.
pub fn of_level(level: &Level) -> Option<&'static dyn EditorGame> {
    ALL.iter().copied().find(|g| g.owns(level))
}

/// A file format a rule set imports as a level (besides JSON levels).
pub struct Import {
    /// The file extension, without the dot (`map`).
    pub ext: &'static str,
    /// What the file is, for messages ("a Moving AI map").
    pub what: &'static str,
    /// Reads the file's text into its levels (one, or every level of a collection, in file
    /// order), each with its number in the file (the one `tessera convert` names its file by);
    /// the second argument is the file's name without extension.
    pub read: fn(&str, Option<String>) -> Result<Vec<Numbered>, String>,
}

/// A level of a file with its number in it.
pub type Numbered = (u64, Level);

/// The rule set the New level section starts with.
pub const NEW_LEVEL: RuleSet = RuleSet::Match3;

/// A board's ground as a picture: see [`EditorGame::ground`].
pub struct GroundMap<'a> {
    /// The board's size.
    pub size: tessera_core::Size,
    /// The colour of each ground index.
    pub legend: Vec<egui::Color32>,
    /// Each cell's ground index, row by row.
    pub cells: std::borrow::Cow<'a, [u8]>,
}

/// A board the rule set draws itself as pixel art (PuzzleScript's sprites): see
/// [`EditorGame::board_art`].
pub struct BoardArt<'a> {
    /// Changes whenever the picture does (the game's art and the board's state): the board
    /// uploads the picture again only then.
    pub key: u64,
    /// The board's colour around and under the cells.
    pub background: egui::Color32,
    /// The picture, `side`×`side` pixels a cell, made only when `key` changed.
    pub image: Box<dyn FnOnce() -> egui::ColorImage + 'a>,
}

/// Each ink's pixel art in Edit (see [`EditorGame::ink_art`]): `side`×`side` pixels an ink, row
/// by row.
pub struct InkArt {
    /// Pixels a side.
    pub side: usize,
    /// The pixels of each ink that has art; an ink without is a flat square of its colour.
    pub inks: std::collections::HashMap<Ink, Vec<egui::Color32>>,
}

/// Changes every cell of a draft after a settings change (a tactics glyph renamed or removed).
pub type InkMap = Box<dyn Fn(Ink) -> Ink>;

/// What a rule set's Play panel asks the app to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayAction {
    /// Play this command (the selection is cleared first).
    Execute(AnyCommand),
    /// Play this step of the game's own clock (a realtime game's tick), unless a step is under
    /// way or a solution is being shown (its own ticks are its time): a tick that changes
    /// nothing says nothing.
    Clock(AnyCommand),
    /// Say this in the status bar.
    Notice(String),
    /// Say this in the status bar and offer Undo: the position is lost (no solution from it).
    Lost(String),
    /// Play these commands one after another, each once the last has been animated (a solution
    /// a search found); any key, click or Undo stops.
    Walk(Vec<AnyCommand>),
    /// Save these commands, played from here (a solution a search found), as an animated GIF:
    /// ask where.
    SaveGif(Vec<AnyCommand>),
    /// Play another level (of the same game: the next one after a win), titled so.
    Open(Level, String),
    /// Play another level, titled so, after showing these texts over it, one screen each (a
    /// PuzzleScript game's messages between the level won and the next).
    OpenAfterMessage(Level, String, Vec<String>),
}

/// What the editor needs from one rule set. Methods with a default are optional.
pub trait EditorGame: Sync {
    /// The rule set this entry is for.
    fn rule_set(&self) -> RuleSet;

    /// Whether `level` is of this rule set.
    fn owns(&self, level: &Level) -> bool {
        level.rule_set() == self.rule_set()
    }

    /// The level's name, if it has one.
    fn level_name(&self, level: &Level) -> Option<String>;

    /// The board's ground as one picture (a texel per cell), for a rule set whose every cell has
    /// ground (a tactics terrain): its colours by index and each cell's index, row by row.
    /// `None` (the default) draws the plain board colour under the pieces.
    fn ground<'a>(&self, state: &'a AnyState) -> Option<GroundMap<'a>> {
        let _ = state;
        None
    }

    /// The ground indices of [`EditorGame::ground`] whose colour frames a piece at rest on them
    /// (a Sokoban box on its goal), so the ground still reads under the piece. None by default.
    fn framed_ground(&self) -> &'static [u8] {
        &[]
    }

    /// The board drawn by the rule set itself, as pixel art (PuzzleScript's sprites, layered):
    /// Play and Debug show it in place of the mirror's pieces (no animation). `None` (the
    /// default) draws the mirror's pieces.
    fn board_art<'a>(&self, rules: &'a AnyRules, state: &'a AnyState) -> Option<BoardArt<'a>> {
        let _ = (rules, state);
        None
    }

    /// The pixel art of the inks of a draft with `settings`, for the Edit canvas and its
    /// palette: `None` (the default) paints each cell in its ink's colour.
    fn ink_art(&self, settings: &Level) -> Option<std::sync::Arc<InkArt>> {
        let _ = settings;
        None
    }

    /// The file formats this rule set imports.
    fn imports(&self) -> &'static [Import] {
        &[]
    }

    // ---- Edit: the draft, as data.

    /// The largest side of a board (what its level format accepts: the rule set's
    /// `Plugin::MAX_SIDE`).
    fn max_side(&self) -> u16 {
        u16::try_from(self.rule_set().max_side()).unwrap_or(tessera_core::MAX_SIDE)
    }

    /// The settings of a new level (a level of the rule set whose board is not read).
    fn default_settings(&self) -> Level;

    /// The ink an eraser leaves on a board with `settings` (and new cells of a resize).
    fn blank(&self, settings: &Level) -> Ink;

    /// The ink the palette starts with.
    fn first_ink(&self) -> Ink;

    /// Whether `ink` can be painted on a board with `settings`.
    fn accepts(&self, settings: &Level, ink: Ink) -> bool;

    /// How a cell of `ink` is drawn on a board with `settings` (any ink a sketch may hold, in
    /// the palette or not).
    fn look(&self, settings: &Level, ink: Ink) -> InkLook;

    /// The palette for a board with `settings`: the inks to paint with, in order, each with its
    /// label and colour (`brush`: the palette's own switches, match3's "Locked blocks").
    fn palette(&self, settings: &Level, brush: &Brush) -> Vec<PaletteInk>;

    /// The palette's fields beside its inks (slide's tile value, match3's lock, tactics' units);
    /// true when the user chose a brush with them. None by default.
    fn palette_fields_ui(&self, ui: &mut egui::Ui, sketch: &Sketch, brush: &mut Brush) -> bool {
        let _ = (ui, sketch, brush);
        false
    }

    /// What picking `brush.ink` from the board (just set) says about the palette's fields (a
    /// slide tile's value, a match3 block's lock). Nothing by default.
    fn picked(&self, brush: &mut Brush) {
        let _ = brush;
    }

    /// Whether drafts carry units ([`Sketch::units`]).
    fn has_units(&self) -> bool {
        false
    }

    /// The sketch of `level` (of this rule set). Fails only for a board the draft cannot hold.
    fn sketch(&self, level: &Level) -> Result<Sketch, String>;

    /// The sketch as a level, playable or not.
    fn level(&self, sketch: &Sketch) -> Level;

    /// Whether games of this rule set use a seed (spawns, refills, a board drawn at start).
    /// No (Sokoban): Edit offers no level seed and writes none, Play and Difficulty ask for
    /// none, and every game of a level is the same.
    fn uses_seed(&self) -> bool {
        true
    }

    /// Whether the sketch has no fixed board: each game draws one from the seed.
    fn board_from_seed(&self, _sketch: &Sketch) -> bool {
        false
    }

    /// New cells for the sketch's board from the rule set's own generator with `seed`.
    fn randomized(&self, sketch: &Sketch, seed: u64) -> Result<Vec<Ink>, String>;

    /// Every check the sketch fails, each in words with its cell, for a rule set that lists
    /// them itself (its level's own checks, not a copy of them). Empty (the default): the
    /// draft lists what starting the level says, cell by cell (`Draft::problems`).
    fn problems(&self, _sketch: &Sketch) -> Vec<Problem> {
        Vec::new()
    }

    /// Whether "Fix by shuffling" shuffles cells of `ink` among their places (match3's fixed
    /// unlocked blocks). None by default.
    fn shuffles(&self, _ink: Ink) -> bool {
        false
    }

    /// Whether "Fix by shuffling" may fix `problem`.
    fn shuffle_helps(&self, _sketch: &Sketch, _problem: &Problem) -> bool {
        false
    }

    // ---- Edit: the panel.

    /// The settings panel, editing `settings` in place; a cell remap when a change asks for one.
    fn settings_ui(&self, ui: &mut egui::Ui, settings: &mut Level) -> Option<InkMap>;

    /// The text of the game file `level` came from, rewritten with the level (PuzzleScript: the
    /// game's source, its rules and this level's painted rows), for "Save game source". None by
    /// default: the rule set's imports are only read.
    fn game_source(&self, _level: &Level) -> Option<String> {
        None
    }

    /// Whether the settings change from `before` to `after` is new rules that Play restarts
    /// with at once (PuzzleScript's Rebuild). No by default.
    fn restarts_play(&self, _before: &Level, _after: &Level) -> bool {
        false
    }

    // ---- Play.

    /// The command a key press means (`input` has no Ctrl or Alt held).
    fn key_command(&self, _input: &egui::InputState) -> Option<AnyCommand> {
        None
    }

    /// The command the pointer input on the board means, if any; updates the selection.
    fn board_command(
        &self,
        play: &mut PlayInput,
        rules: &AnyRules,
        state: &AnyState,
        input: &BoardInput,
    ) -> Option<AnyCommand>;

    /// Adds what the pointer over `hovered` is about to do to `out` (a group and its score, a
    /// range and a path).
    fn overlay(
        &self,
        _play: &PlayInput,
        _rules: &AnyRules,
        _state: &AnyState,
        _hovered: Option<Pos>,
        _out: &mut Overlay,
    ) {
    }

    /// The rule set's part of the Play panel: how to play, and its buttons.
    fn play_panel(
        &self,
        ui: &mut egui::Ui,
        rules: &AnyRules,
        state: &AnyState,
        play: &mut PlayInput,
    ) -> Option<PlayAction>;

    /// Whether the selection stays after a step (a tactics unit that moved stays selected).
    fn keeps_selection(&self) -> bool {
        false
    }

    /// The text `event` shows over the board until a key or a click dismisses it (a
    /// PuzzleScript `message`), if any.
    fn message(&self, _event: &tessera_core::AnyEvent) -> Option<String> {
        None
    }

    /// The status bar's objectives (moves left, target, turn).
    fn objectives(&self, _rules: &AnyRules, _state: &AnyState, _out: &mut Vec<String>) {}

    /// Whether the status bar shows the generic "Score N" ([`AnyState::score`]). No for a
    /// game whose score is a count its objectives already name (Sokoban's moves).
    fn shows_score(&self) -> bool {
        true
    }

    /// The debugger inspector's lines about the state (turn, units).
    fn inspector_ui(&self, _ui: &mut egui::Ui, _state: &AnyState) {}

    /// A step's turns and the rules that fired in each, for the debugger (a PuzzleScript
    /// step's `Turn` and `Rule` events with the rules' text from the source). None by default.
    fn rules_fired(&self, _rules: &AnyRules, _events: &[tessera_core::AnyEvent]) -> Vec<TurnTrace> {
        Vec::new()
    }

    /// The boards of the step `cmd` makes from `state` after each rule that fired, turn by
    /// turn, as [`Self::rules_fired`] lists the rules (the debugger's "board after this rule";
    /// PuzzleScript's engine records them only when asked). None by default.
    fn rule_boards(&self, _rules: &AnyRules, _state: &AnyState, _cmd: &AnyCommand) -> Vec<Vec<AnyState>> {
        Vec::new()
    }

    /// A filter word that names something of the game the debugger can find steps by (a
    /// PuzzleScript object's name): the test an event touching it meets. `state` is any state
    /// of the log's game.
    fn event_filter(&self, _state: &AnyState, _word: &str) -> Option<crate::find::EventTest> {
        None
    }

    /// The turns of a step shown one after another in Play (a PuzzleScript step's `again`
    /// turns): the index of each turn's first event, and the seconds between turns at normal
    /// speed. None by default: a step is one board.
    fn turn_frames(
        &self,
        _rules: &AnyRules,
        _events: &[tessera_core::AnyEvent],
    ) -> Option<(Vec<usize>, f64)> {
        None
    }

    /// The colours of a message screen over the board (background, text), when the game has
    /// its own (PuzzleScript's `background_color` and `text_color`).
    fn message_colours(&self, _rules: &AnyRules) -> Option<(egui::Color32, egui::Color32)> {
        None
    }

    /// The sounds the step `cmd` plays from `state`, turn by turn, each turn's in the order the
    /// game plays them (a PuzzleScript step's, `again` turns included). None by default.
    fn step_sounds(&self, rules: &AnyRules, state: &AnyState, cmd: &AnyCommand) -> Vec<Vec<String>> {
        self.step_report(rules, state, cmd, false).sounds
    }

    /// What the step `cmd` makes from `state` does beyond its events, for the console: its
    /// sounds turn by turn ([`Self::step_sounds`]) and, with `rules_tried`, every rule it tries.
    /// Nothing by default.
    fn step_report(
        &self,
        _rules: &AnyRules,
        _state: &AnyState,
        _cmd: &AnyCommand,
        _rules_tried: bool,
    ) -> StepReport {
        StepReport::default()
    }

    /// The seed of the sound the game plays for `event` (PuzzleScript's `undo`, `startlevel`),
    /// and what plays a seed (`seed_name`: the game's words for it, `crate move`). None by
    /// default.
    fn event_sound(&self, _rules: &AnyRules, _event: &str) -> Option<String> {
        None
    }

    /// Whether the rule set's games make sounds (the status bar's Mute and Volume show then).
    fn makes_sounds(&self) -> bool {
        false
    }

    /// What plays `seed` in the game (the words of its sound declaration), if the game says.
    fn seed_name(&self, _rules: &AnyRules, _seed: &str) -> Option<String> {
        None
    }

    /// The levels of the game the draft's level is one of (a PuzzleScript source's), with ways
    /// to change them (add, duplicate, move, delete, edit another); answers the draft to edit
    /// afterwards, or why not. Nothing by default.
    fn levels_ui(&self, _ui: &mut egui::Ui, _sketch: &Sketch) -> Option<Result<Sketch, String>> {
        None
    }

    /// The game's source as text for the workbench (`crate::workbench`), with `level`'s rows in
    /// it, and the index of that level among the game's playable ones. None by default: the
    /// rule set's games are not written as text.
    fn source_text<'a>(&self, _level: &'a Level) -> Option<(&'a str, usize)> {
        None
    }

    /// `level` with its game's source replaced by `source` (a rebuild), its level, name and seed
    /// kept. None by default.
    fn with_source(&self, _level: &Level, _source: String) -> Option<Level> {
        None
    }

    /// The console's lines for a step's `events` (the rules that fired with their lines, again
    /// turns, sounds, messages, cancel, win; details by the objects' names; with the report's
    /// rules tried, each of them), `state` being the state after it and `report` the step's
    /// [`Self::step_report`]. Nothing by default.
    fn console_lines(
        &self,
        _rules: &AnyRules,
        _state: &AnyState,
        _events: &[tessera_core::AnyEvent],
        _report: &StepReport,
        _out: &mut Vec<crate::console::ConsoleLine>,
    ) {
    }

    /// An event in words, naming the game's things by name (a PuzzleScript object by its name,
    /// not its number), for the debugger's event list; `state` is any state of the game. None
    /// (the default): the event's JSON.
    fn describe_event(&self, _state: &AnyState, _event: &tessera_core::AnyEvent) -> Option<String> {
        None
    }

    /// Whether Z (no modifier) undoes a step and the rule set's games are played with keys
    /// only, as PuzzleScript's are. No by default.
    fn z_undoes(&self) -> bool {
        false
    }

    /// Whether Play shows a seed (and Edit a level seed and Randomize) for `level`: a game of
    /// the rule set whose rules use randomness. [`EditorGame::uses_seed`] by default.
    fn level_uses_seed(&self, _level: &Level) -> bool {
        self.uses_seed()
    }

    /// The messages a game shows before `level` when it is opened (a PuzzleScript game's
    /// messages between the level before and this one). None by default.
    fn messages_before(&self, _level: &Level) -> Vec<String> {
        Vec::new()
    }
}

/// What a step did beyond its events, turn by turn ([`EditorGame::step_report`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    /// Each turn's sounds (seeds), in the order the game plays them.
    pub sounds: Vec<Vec<String>>,
    /// Each turn's rules tried, in order: the rule's source line and whether it matched (empty
    /// unless asked for).
    pub tried: Vec<Vec<(u32, bool)>>,
}

/// A turn of a step, for the debugger: its index (0: the input's turn; 1, 2, …: `again` turns)
/// and the rules that fired in it, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnTrace {
    /// The turn's index in the step.
    pub index: u32,
    /// The rules that changed cells in it.
    pub rules: Vec<FiredRule>,
}

/// A rule that fired: its source line (from 1), its text there, and the cells it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FiredRule {
    /// The rule's line in the game's source.
    pub line: u32,
    /// The line's text (trimmed).
    pub text: String,
    /// The cells it changed.
    pub cells: Vec<Pos>,
}

/// The direction of an arrow key or WASD pressed this frame, if any (the Play keys of rule
/// sets that move in four directions).
pub fn pressed_dir(input: &egui::InputState) -> Option<tessera_core::Dir> {
    use egui::Key;
    use tessera_core::Dir;
    const KEYS: [(Key, Dir); 8] = [
        (Key::ArrowUp, Dir::Up),
        (Key::W, Dir::Up),
        (Key::ArrowDown, Dir::Down),
        (Key::S, Dir::Down),
        (Key::ArrowLeft, Dir::Left),
        (Key::A, Dir::Left),
        (Key::ArrowRight, Dir::Right),
        (Key::D, Dir::Right),
    ];
    KEYS.iter().find(|(k, _)| input.key_pressed(*k)).map(|&(_, d)| d)
}

/// A palette button: the ink's sprite (`sprite`, `side`×`side` pixels) with its label on hover,
/// or a button in its colour with its label; clicking it chooses the ink. True when clicked.
pub fn ink_button(
    ui: &mut egui::Ui,
    brush: &mut Brush,
    entry: &PaletteInk,
    sprite: Option<(&[egui::Color32], usize)>,
) -> bool {
    let selected = brush.ink == entry.ink && !brush.units;
    let stroke = if selected { Stroke::new(2.0, palette::HIGHLIGHT) } else { Stroke::NONE };
    let response = match sprite {
        Some((pixels, side)) => {
            // The sprite, then the ink's key (PuzzleScript's legend key) beside it: sprites can
            // look alike (Kettle's four showed four identical buttons, issue 36.9).
            let key = ui.painter().layout_no_wrap(
                entry.ink.text(),
                egui::FontId::monospace(14.0),
                ui.visuals().strong_text_color(),
            );
            let sprite = egui::vec2(26.0, 26.0);
            let size = sprite + egui::vec2(key.size().x + 8.0, 0.0);
            let (whole, response) = ui.allocate_exact_size(size, egui::Sense::click());
            let rect = egui::Rect::from_min_size(whole.min, sprite);
            let at = egui::pos2(rect.right() + 4.0, whole.center().y - key.size().y / 2.0);
            ui.painter().galley(at, key, ui.visuals().strong_text_color());
            let texel = rect.width() / side.max(1) as f32;
            let painter = ui.painter_at(rect);
            for (i, &c) in pixels.iter().enumerate() {
                let (x, y) = ((i % side) as f32, (i / side) as f32);
                let r =
                    egui::Rect::from_min_size(rect.min + egui::vec2(x, y) * texel, egui::vec2(texel, texel));
                painter.rect_filled(r, 0.0, c);
            }
            let outline = if selected { stroke } else { Stroke::new(1.0, egui::Color32::from_gray(0x60)) };
            painter.rect_stroke(rect, 0.0, outline, egui::StrokeKind::Inside);
            if selected {
                ui.painter().rect_stroke(
                    whole,
                    2.0,
                    Stroke::new(1.0, palette::HIGHLIGHT),
                    egui::StrokeKind::Inside,
                );
            }
            response
                .widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, selected, &entry.label));
            let hover = match &entry.hover {
                Some(more) => format!("{}\n{more}", entry.label),
                None => entry.label.clone(),
            };
            response.on_hover_text(hover)
        }
        None => {
            let text = egui::RichText::new(&entry.label).color(text_on(entry.colour));
            let b = egui::Button::new(text).fill(entry.colour).selected(selected).stroke(stroke);
            let r = ui.add(b);
            match &entry.hover {
                Some(more) => r.on_hover_text(more),
                None => r,
            }
        }
    };
    if response.clicked() {
        brush.ink = entry.ink;
        brush.units = false;
        return true;
    }
    false
}

/// A line of a panel one button high whatever `add` puts in it (nothing, a label or a button),
/// so the rows under it stay where they are as its contents come and go.
pub fn fixed_line(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui)) {
    ui.horizontal(|ui| {
        ui.set_min_height(ui.spacing().interact_size.y);
        add(ui);
    });
}

/// A labelled number field.
pub fn num_field(ui: &mut egui::Ui, label: &str, v: &mut u32, range: std::ops::RangeInclusive<u32>) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::DragValue::new(v).range(range)).labelled_by(l.id);
    });
}

/// A number that may be absent: a checkbox labelled `label` and the value (`default` when
/// turned on).
pub fn optional_field(ui: &mut egui::Ui, label: &str, v: &mut Option<u64>, default: u64) {
    ui.horizontal(|ui| {
        let mut on = v.is_some();
        let cb = ui.checkbox(&mut on, label);
        let mut x = v.unwrap_or(default);
        ui.add_enabled(on, egui::DragValue::new(&mut x)).labelled_by(cb.id);
        *v = on.then_some(x);
    });
}

/// The rows of a board given as strings, checked to be of one width: `(width, height)`.
pub fn rows_size(rows: &[String]) -> Result<(usize, usize), String> {
    let w = rows.first().map_or(0, |r| r.chars().count());
    if let Some((y, r)) = rows.iter().enumerate().find(|(_, r)| r.chars().count() != w) {
        return Err(format!("board row {y} has {} cells, expected {w}", r.chars().count()));
    }
    Ok((w, rows.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_has_one_entry() {
        for r in RuleSet::ALL {
            assert_eq!(ALL.iter().filter(|g| g.rule_set() == *r).count(), 1, "{r:?}");
            let g = of(*r).unwrap();
            let settings = g.default_settings();
            assert_eq!(settings.rule_set(), *r);
            assert!(g.accepts(&settings, g.blank(&settings)), "{r:?}: the eraser's ink is its own");
            assert!(g.accepts(&settings, g.first_ink()), "{r:?}");
            let palette = g.palette(&settings, &Brush::new(g.first_ink()));
            assert!(palette.iter().all(|e| g.accepts(&settings, e.ink)), "{r:?}: the palette paints");
            assert!(palette.iter().any(|e| e.ink == g.first_ink()), "{r:?}: the first ink is listed");
        }
    }
}
