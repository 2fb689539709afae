//! The editor's rule sets: what Edit and Play need from each game, behind one trait,
//! [`EditorGame`], with one file per rule set and one registry line ([`games!`]) listing them.
//!
//! Code outside this folder never matches a rule set: it looks the game up
//! ([`of`] by [`RuleSet`], [`of_level`] by a [`Level`]) and asks it. A rule set provides:
//! - Files: the importers it opens besides JSON levels ([`Import`]: extension, what it is, the
//!   reader, which gives one level or every level of a collection) and its level's name.
//! - Look: its board's ground as a picture ([`EditorGame::ground`]), the ground indices whose
//!   colour frames the piece standing on them ([`EditorGame::framed_ground`]) and the colours of
//!   its [`Ink::Glyph`] cells.
//! - Edit: the draft ⇄ level conversion ([`EditorGame::draft`], [`EditorGame::level`]), its
//!   settings ([`Options`]: the level without its board), the inks it accepts and the one an
//!   eraser leaves, its largest side, Randomize, whether its empty board is drawn from the seed at
//!   each game, and its palette and settings panel.
//! - Play: keys, clicks and drags → commands (the selection it needs lives in [`PlayInput`]: a
//!   selected cell and a highlighted hint), the hover overlay, the Play panel (help, Hint, End
//!   turn), the objectives of the status bar and the debugger's inspector lines.
//!
//! Adding a rule set to the editor: a file `games/NAME.rs` with a unit struct implementing
//! [`EditorGame`], and its name in the `games!` line below.

use crate::board::{BoardInput, Overlay};
use crate::draft::{Draft, Ink, Options, Problem};
use crate::edit::{Brush, ink_colour, text_on};
use crate::palette;
use egui::Stroke;
use tessera_core::tactics::TerrainType;
use tessera_core::{AnyCommand, AnyRules, AnyState, Level, Pos, RuleSet};

use crate::play::PlayInput;

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

pub use puzzlescript::{rules_cursor, rules_errors, rules_text, set_rules_text};

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

/// Remaps every cell of a draft after a settings change (a removed terrain type).
pub type InkMap = Box<dyn Fn(Ink) -> Ink>;

/// What a rule set's Play panel asks the app to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayAction {
    /// Play this command (the selection is cleared first).
    Execute(AnyCommand),
    /// Say this in the status bar.
    Notice(String),
    /// Say this in the status bar and offer Undo: the position is lost (no solution from it).
    Lost(String),
    /// Play another level (of the same game: the next one after a win), titled so.
    Open(Level, String),
    /// Play another level, titled so, after showing this text over it (a PuzzleScript game's
    /// messages between the level won and the next).
    OpenAfterMessage(Level, String, String),
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

    /// The pixel art of the inks of a draft with `options`, for the Edit canvas: `None` (the
    /// default) paints each cell in its ink's colour.
    fn ink_art(&self, options: &Options) -> Option<std::sync::Arc<InkArt>> {
        let _ = options;
        None
    }

    /// The colour of an [`Ink::Glyph`] cell in Edit (for rule sets whose cells are characters).
    fn glyph_colour(&self, glyph: char) -> egui::Color32 {
        palette::hue(glyph as u8)
    }

    /// The file formats this rule set imports.
    fn imports(&self) -> &'static [Import] {
        &[]
    }

    // ---- Edit: the draft.

    /// The largest side of a board (what its level format accepts: the rule set's
    /// `Plugin::MAX_SIDE`).
    fn max_side(&self) -> u16 {
        crate::draft::max_side(self.rule_set())
    }

    /// The default settings of a new level.
    fn default_options(&self) -> Options;

    /// The ink an eraser leaves (and new cells of a resize).
    fn blank(&self) -> Ink;

    /// The ink the palette starts with.
    fn first_ink(&self) -> Ink;

    /// Whether `ink` can be painted on a board with `options`.
    fn accepts(&self, options: &Options, ink: Ink) -> bool;

    /// The terrain types [`Ink::Terrain`] indexes (empty when the rule set has none).
    fn legend<'a>(&self, _options: &'a Options) -> &'a [TerrainType] {
        &[]
    }

    /// Whether drafts carry units ([`crate::draft::Draft::place_unit`]).
    fn has_units(&self) -> bool {
        false
    }

    /// The draft of `level` (of this rule set). Fails only for a board the draft cannot hold.
    fn draft(&self, level: &Level) -> Result<Draft, String>;

    /// The draft as a level, playable or not.
    fn level(&self, draft: &Draft) -> Level;

    /// Whether games of this rule set use a seed (spawns, refills, a board drawn at start).
    /// No (Sokoban): Edit offers no level seed and writes none, Play and Difficulty ask for
    /// none, and every game of a level is the same.
    fn uses_seed(&self) -> bool {
        true
    }

    /// Whether the draft has no fixed board: each game draws one from the seed.
    fn board_from_seed(&self, _draft: &Draft) -> bool {
        false
    }

    /// The draft with a new board from the rule set's own generator with `seed`.
    fn randomized(&self, draft: &Draft, seed: u64) -> Result<Draft, String>;

    /// Every reason the draft does not play, each with its cell, for a rule set that can list
    /// them all (its level's own checks, not a copy of them). Empty (the default): Edit shows
    /// the first problem [`Draft::check`] meets.
    fn problems(&self, _draft: &Draft) -> Vec<Problem> {
        Vec::new()
    }

    /// Whether "Fix by shuffling" ([`Draft::shuffled`]) may fix `problem`.
    fn shuffle_helps(&self, _draft: &Draft, _problem: &Problem) -> bool {
        false
    }

    // ---- Edit: the panel.

    /// The palette: buttons that choose `brush`. True when the user chose one.
    fn palette_ui(&self, ui: &mut egui::Ui, draft: &Draft, brush: &mut Brush) -> bool;

    /// The settings panel, editing `options` in place; a cell remap when a change asks for one.
    fn settings_ui(&self, ui: &mut egui::Ui, options: &mut Options) -> Option<InkMap>;

    /// The text of the game file `level` came from, rewritten with the level (PuzzleScript: the
    /// game's source, its rules and this level's painted rows), for "Save game source". None by
    /// default: the rule set's imports are only read.
    fn game_source(&self, _level: &Level) -> Option<String> {
        None
    }

    /// Whether the settings change from `before` to `after` is new rules that Play restarts
    /// with at once (PuzzleScript's Rebuild). No by default.
    fn restarts_play(&self, _before: &Options, _after: &Options) -> bool {
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

    /// The levels of the game the draft's level is one of (a PuzzleScript source's), with ways
    /// to change them (add, duplicate, move, delete, edit another); answers the draft to edit
    /// afterwards, or why not. Nothing by default.
    fn levels_ui(&self, _ui: &mut egui::Ui, _draft: &Draft) -> Option<Result<Draft, String>> {
        None
    }

    /// Shows line `line` of the game's source in Edit's rules panel (the cursor on it, scrolled
    /// to it) the next time the panel is drawn for `options`. Nothing by default.
    fn show_source_line(&self, _ctx: &egui::Context, _options: &Options, _line: u32) {}
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

/// A palette button painted in `ink`'s colour; clicking it chooses the ink. True when clicked.
pub fn ink_button(
    ui: &mut egui::Ui,
    brush: &mut Brush,
    ink: Ink,
    label: String,
    legend: &[TerrainType],
) -> bool {
    fill_button(ui, brush, ink, label, ink_colour(ink, legend))
}

/// A palette button painted in `fill`; clicking it chooses `ink`. True when clicked.
pub fn fill_button(
    ui: &mut egui::Ui,
    brush: &mut Brush,
    ink: Ink,
    label: String,
    fill: egui::Color32,
) -> bool {
    let selected = brush.ink == ink && !brush.units;
    let text = egui::RichText::new(label).color(text_on(fill));
    let b = egui::Button::new(text).fill(fill).selected(selected).stroke(if selected {
        Stroke::new(2.0, palette::HIGHLIGHT)
    } else {
        Stroke::NONE
    });
    if ui.add(b).clicked() {
        brush.ink = ink;
        brush.units = false;
        return true;
    }
    false
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

/// The draft's cells as rows of characters, `f` giving each cell's.
pub fn rows_of(draft: &Draft, f: &dyn Fn(Ink) -> char) -> Vec<String> {
    let w = usize::from(draft.size().width);
    draft.cells().chunks(w.max(1)).map(|row| row.iter().map(|&c| f(c)).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_has_one_entry() {
        for r in RuleSet::ALL {
            assert_eq!(ALL.iter().filter(|g| g.rule_set() == *r).count(), 1, "{r:?}");
            let g = of(*r).unwrap();
            let options = g.default_options();
            assert_eq!(options.rule_set(), *r);
            assert!(g.accepts(&options, g.blank()), "{r:?}: the eraser's ink is its own");
            assert!(g.accepts(&options, g.first_ink()), "{r:?}");
        }
    }
}
