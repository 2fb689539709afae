//! The vocabulary the rule sets ([`crate::games`]) and the editor's modes share, as data: what a
//! draft's cell holds ([`Ink`], a glyph), a draft as the games read and write it ([`Sketch`]: a
//! grid of glyphs, the tactics units and the rule set's settings), a palette entry
//! ([`PaletteInk`]) and how a cell is drawn ([`InkLook`]), the palette's [`Brush`], a
//! [`Problem`] of a draft, and Play's input ([`BoardInput`], [`PlayInput`], [`swipe`]) and
//! [`Overlay`].
//!
//! It depends on egui and core only: `games/` imports this module and nothing of Edit
//! (`edit.rs`, `draft.rs`), the board (`board.rs`) or Play (`play.rs`), which all import
//! `games/`; so the rule sets are leaves under the modes that ask them.

use egui::{Color32, Vec2};
use tessera_core::tactics::UnitSpec;
use tessera_core::{Dir, Level, Pos, Size};

/// What one cell of a draft holds: a glyph of the rule set's own text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ink {
    /// One character, as the level format writes the cell (`collapse`'s `3`, `match3`'s `A`,
    /// a tactics terrain's glyph, Sokoban's `$`, a PuzzleScript legend key).
    Glyph(char),
    /// A number, for a rule set whose board is numbers (`slide`'s tile values, `0` for none).
    Number(u32),
}

impl Ink {
    /// The cell as the level format writes it (`#`, `2048`).
    pub fn text(self) -> String {
        match self {
            Ink::Glyph(c) => c.to_string(),
            Ink::Number(v) => v.to_string(),
        }
    }
}

/// How a cell of one ink is drawn on the Edit canvas (and its palette button).
#[derive(Clone, Debug, PartialEq)]
pub struct InkLook {
    /// The cell's colour.
    pub fill: Color32,
    /// The text written over the cell when it is big enough to read (`None`: nothing).
    pub mark: Option<String>,
    /// The mark's colour (`None`: black or white, whichever reads on `fill`).
    pub mark_colour: Option<Color32>,
    /// A white frame inside the cell (a locked block).
    pub framed: bool,
}

impl InkLook {
    /// A cell of `fill` with `mark` over it.
    pub fn new(fill: Color32, mark: Option<String>) -> InkLook {
        InkLook { fill, mark, mark_colour: None, framed: false }
    }
}

/// One entry of a rule set's palette: the ink it paints, its button's label and colour (the
/// button shows the ink's sprite instead when the rule set draws inks as pixel art,
/// `EditorGame::ink_art`), and what hovering it says.
#[derive(Clone, Debug, PartialEq)]
pub struct PaletteInk {
    /// The ink painted.
    pub ink: Ink,
    /// The button's text ("breed a", "Wall"); with a sprite, shown on hover.
    pub label: String,
    /// The button's colour.
    pub colour: Color32,
    /// More about it, on hover (`None`: nothing more).
    pub hover: Option<String>,
}

/// A unit to place on a tactics map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitInk {
    /// Its team.
    pub team: u8,
    /// Its movement points per turn.
    pub movement: u32,
}

/// What the palette paints with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Brush {
    /// The ink painted on cells.
    pub ink: Ink,
    /// Place units rather than paint inks (rule sets with units).
    pub units: bool,
    /// The unit placed.
    pub unit: UnitInk,
    /// The palette's variant switch (match3's "Locked blocks").
    pub locked: bool,
    /// The palette's number field (slide's "Tile value").
    pub tile_value: u32,
}

impl Brush {
    /// A brush of `ink`.
    pub fn new(ink: Ink) -> Brush {
        Brush { ink, units: false, unit: UnitInk { team: 0, movement: 5 }, locked: false, tile_value: 2 }
    }
}

/// A level being designed, as the rule sets read and write it: a grid of glyphs, the tactics
/// units and the rule set's settings (its `Level`, whose board is not read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sketch {
    /// A title for people.
    pub name: Option<String>,
    /// The level's seed.
    pub seed: Option<u64>,
    /// The rule set's settings: everything of a level but its board, name and seed.
    pub settings: Level,
    /// The board's size.
    pub size: Size,
    /// Every cell, row by row from the top (`size.area()` of them).
    pub cells: Vec<Ink>,
    /// Tactics units, in id order.
    pub units: Vec<UnitSpec>,
}

impl Sketch {
    /// A board of `size` filled with `blank`, with `settings`.
    pub fn new(settings: Level, size: Size, blank: Ink) -> Sketch {
        Sketch { name: None, seed: None, settings, size, cells: vec![blank; size.area()], units: Vec::new() }
    }

    /// The cells as rows of text, `f` giving each cell's.
    pub fn rows(&self, f: &dyn Fn(Ink) -> char) -> Vec<String> {
        let w = usize::from(self.size.width);
        self.cells.chunks(w.max(1)).map(|row| row.iter().map(|&c| f(c)).collect()).collect()
    }
}

/// Why a draft cannot be played, and the cell the error places (if it places one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong, in words (naming its cell once when it has one).
    pub message: String,
    /// The cell it places: a board or map cell, or the cell of the unit it names.
    pub cell: Option<Pos>,
}

/// Black or white, whichever reads on `fill`.
pub fn text_on(fill: Color32) -> Color32 {
    let l = 299 * u32::from(fill.r()) + 587 * u32::from(fill.g()) + 114 * u32::from(fill.b());
    if l > 150_000 { Color32::from_rgb(0x20, 0x20, 0x20) } else { Color32::WHITE }
}

/// What to draw over the board besides the pieces.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    /// Cells to outline (the step's touched cells, a hovered group, a hint).
    pub highlights: Vec<Pos>,
    /// The selected cell.
    pub selected: Option<Pos>,
    /// A movement range to tint.
    pub range: Vec<Pos>,
    /// A path to draw with the seed's straight, corner and arrow pieces.
    pub path: Vec<Pos>,
    /// A small label at the pointer (what a tap would score).
    pub tooltip: Option<String>,
    /// The colour of the highlights when the rule set's own colours would hide the usual one
    /// (Sokoban's goals are gold): `None` for `palette::HIGHLIGHT`.
    pub highlight_colour: Option<Color32>,
}

/// What the pointer did on the board this frame.
#[derive(Clone, Debug, Default)]
pub struct BoardInput {
    /// The cell under the pointer.
    pub hovered: Option<Pos>,
    /// A cell clicked with the primary button.
    pub clicked: Option<Pos>,
    /// A primary-button drag that ended: the cell it started on and its movement in cells.
    pub swipe: Option<(Pos, Vec2)>,
}

/// What the player has picked but not yet played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayInput {
    /// The piece picked: match3's block for a swap, tactics' unit.
    pub selected: Option<Pos>,
    /// A pair of cells to highlight (match3: the swap the hint button found).
    pub hint: Option<(Pos, Pos)>,
    /// The text shown over the board until a key or a click dismisses it (a PuzzleScript
    /// `message`); play waits meanwhile.
    pub message: Option<String>,
    /// The messages shown after it, one screen each.
    pub queued: std::collections::VecDeque<String>,
}

impl PlayInput {
    /// Shows `messages` over the board, one screen each, in order.
    pub fn show_messages(&mut self, messages: Vec<String>) {
        self.queued = messages.into();
        self.message = self.queued.pop_front();
    }

    /// Dismisses the message shown: the next one queued, if any, takes its place.
    pub fn dismiss_message(&mut self) {
        self.message = self.queued.pop_front();
    }
}

impl PlayInput {
    /// Forgets selections (after a step, undo, or a new game).
    pub fn clear(&mut self) {
        *self = PlayInput::default();
    }
}

/// Minimum drag, in cells, that counts as a swipe.
const SWIPE: f32 = 0.4;

/// The swipe in `input`, if the drag was long enough: where it started and its direction (the
/// longer axis; vertical on a tie).
pub fn swipe(input: &BoardInput) -> Option<(Pos, Dir)> {
    let (from, d) = input.swipe?;
    if d.x.abs().max(d.y.abs()) < SWIPE {
        return None;
    }
    let dir = if d.x.abs() > d.y.abs() {
        if d.x > 0.0 { Dir::Right } else { Dir::Left }
    } else if d.y > 0.0 {
        Dir::Down
    } else {
        Dir::Up
    };
    Some((from, dir))
}

#[cfg(test)]
mod tests {
    /// The rule sets depend on this module, never on Edit, the board or Play (which depend on
    /// them): no file of `games/` names those modules.
    #[test]
    fn the_games_import_none_of_the_modes() {
        let files = [
            ("games/mod.rs", include_str!("games/mod.rs")),
            ("games/slide.rs", include_str!("games/slide.rs")),
            ("games/collapse.rs", include_str!("games/collapse.rs")),
            ("games/match3.rs", include_str!("games/match3.rs")),
            ("games/tactics.rs", include_str!("games/tactics.rs")),
            ("games/sokoban.rs", include_str!("games/sokoban.rs")),
            ("games/puzzlescript.rs", include_str!("games/puzzlescript.rs")),
            ("games/puzzlescript/art.rs", include_str!("games/puzzlescript/art.rs")),
        ];
        for (name, text) in files {
            for module in ["edit", "draft", "board", "play", "app", "debug", "pack"] {
                assert!(!text.contains(&format!("crate::{module}")), "{name} names crate::{module}");
                assert!(!text.contains(&format!("crate::{{{module}")), "{name} imports {module}");
            }
        }
    }
}
