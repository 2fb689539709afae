//! [`Draft`]: a level being designed — a [`Sketch`] (a grid of glyphs, the units of a tactics
//! map, and the rule set's settings) with its rule set's editor entry — with the edits Edit mode
//! makes (paint, flood fill, rectangle, resize, randomize, shuffle) and [`EditHistory`], its undo
//! and redo (one step per stroke).
//!
//! A draft can always be written as a [`Level`] ([`Draft::to_level`]), playable or not;
//! [`Draft::check`] asks the level format itself ([`Level::start`]) whether it plays and, when it
//! does not, which cell the error places; [`Draft::problems`] lists every check it fails. Nothing
//! here knows egui, so it is tested directly.
//!
//! Nothing here knows a rule set either: a draft carries its editor entry
//! ([`crate::games::EditorGame`]), which converts sketches and levels, says which inks it accepts
//! and which one an eraser leaves, which cells a shuffle moves, and randomizes. [`Ink`] (a glyph)
//! is the vocabulary of cells the games share ([`crate::model`]).
//!
//! Decisions (the games' files hold the details):
//! - An empty `slide` or `collapse` board is written without a `board`: the game then starts as
//!   the rule set does by default (two spawned tiles; a random full board). Painting one tile
//!   makes the board explicit.
//! - Randomize uses each rule set's own generator with the draft's seed: `slide` and `collapse`
//!   new-game boards; `match3` starts the layout (fixed blocks opened, voids and locks kept) so
//!   the result has no run and a valid swap; `tactics`, whose rules draw nothing random, scatters
//!   the legend's terrain from a `GameRng`; `sokoban` walls a room and pulls its boxes off their
//!   goals by a random walk from a `GameRng`, so the level can be solved.
//!
//! `draft.rs` is the model (no egui, no rule set named): a `Draft` is a `Sketch` (`model.rs`: a
//! grid of `Ink`s — each a glyph of the rule set's own text format, `Ink::Glyph` such as match3's
//! `A` or Sokoban's `$`, or `Ink::Number` for slide's tile values —, the tactics units and the rule
//! set's settings, its `Level` minus the board) with its `games::EditorGame` entry, which every
//! rule-set question goes to: no `Ink` variant or special case per rule set.
//! `Draft::from_level`/`to_level` convert both ways through the entry (an empty `slide`/`collapse`
//! board is written without a `board`, so the game starts as the rule set does by default; Edit
//! then says "No fixed board: each game draws one from the seed; paint to fix cells" on the canvas
//! and in the panel); `check` asks `Level::start` and outlines the cell its error places
//! (`problems` lists every failing check: the rule set's own list where it has one,
//! `EditorGame::problems` — Sokoban's from core's `sokoban::board_problems`, whose first is
//! `parse_board`'s error; PuzzleScript's cells whose key is not in the legend and the compiler's
//! errors by line —, else `check`'s, then with that cell blanked or that unit's cell blanked the
//! level is started again, up to `MAX_PROBLEMS`, so each cell's problem is listed once in the
//! level's own words; after the first, a problem of no cell ends the list, since the blanking may
//! have caused it — a collapse column left empty) (`LevelError::place`: a cell, or the cell of the
//! unit it names; never read from the message text); the largest side is `RuleSet::max_side`. Edits
//! — `paint`, `erase`, `place_unit`, `fill`, `rect`, `resized`, `randomized` (each rule set's own
//! generator, in `games/`), `remap` (a settings change that changes inks), `shuffled` (the inks the
//! rule set shuffles, match3's fixed blocks, until the level plays) — record `Stroke`s (cell index,
//! before, after; units before/after) or whole-draft replacements in `EditHistory` (one undo step
//! per stroke; consecutive settings edits merge; a save point for "unsaved").

use crate::games::{self, EditorGame};
pub use crate::model::{Ink, Problem, Sketch, UnitInk};
use tessera_core::tactics::UnitSpec;
use tessera_core::{GameRng, Level, Place, Pos, RuleSet, Size};

/// The largest side of a draft of `rule_set` (what its level format accepts).
pub fn max_side(rule_set: RuleSet) -> u16 {
    u16::try_from(rule_set.max_side()).unwrap_or(tessera_core::MAX_SIDE)
}

/// The most problems [`Draft::problems`] lists by starting the level again (then it says more
/// may follow).
pub const MAX_PROBLEMS: usize = 12;

/// A level being designed: its [`Sketch`] (read through `Deref`: `draft.name`, `draft.seed`,
/// `draft.settings`) and its rule set's editor entry.
#[derive(Clone)]
pub struct Draft {
    game: &'static dyn EditorGame,
    sketch: Sketch,
}

impl PartialEq for Draft {
    fn eq(&self, other: &Draft) -> bool {
        self.rule_set() == other.rule_set() && self.sketch == other.sketch
    }
}

impl Eq for Draft {}

impl std::fmt::Debug for Draft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Draft").field("rule_set", &self.rule_set()).field("sketch", &self.sketch).finish()
    }
}

impl std::ops::Deref for Draft {
    type Target = Sketch;

    fn deref(&self) -> &Sketch {
        &self.sketch
    }
}

/// Where resizing keeps the content.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Anchor {
    /// The top-left corner stays put.
    #[default]
    TopLeft,
    /// The centre stays put.
    Centre,
}

impl Draft {
    /// An empty board of `game`'s rule set, `size`, with its default settings.
    pub fn new(game: &'static dyn EditorGame, size: Size, seed: Option<u64>) -> Draft {
        let settings = game.default_settings();
        let blank = game.blank(&settings);
        Draft { game, sketch: Sketch { seed, ..Sketch::new(settings, size, blank) } }
    }

    /// The draft of `sketch`, of `game`'s rule set. Cells past the board are dropped, missing
    /// ones are blank.
    pub fn of_sketch(game: &'static dyn EditorGame, mut sketch: Sketch) -> Draft {
        let blank = game.blank(&sketch.settings);
        sketch.cells.resize(sketch.size.area(), blank);
        Draft { game, sketch }
    }

    /// The draft of `level` (its board as painted cells). Fails only for a board the draft
    /// cannot hold (a side past the rule set's limit, or a character that is no cell) or a rule
    /// set the editor has no entry for.
    pub fn from_level(level: &Level) -> Result<Draft, String> {
        let game = games::of_level(level).ok_or("the editor cannot edit this rule set's levels")?;
        let mut sketch = game.sketch(level)?;
        sketch.seed = level.seed();
        Ok(Draft::of_sketch(game, sketch))
    }

    /// The draft as a level, playable or not.
    pub fn to_level(&self) -> Level {
        self.game.level(&self.sketch)
    }

    /// The rule set's editor entry.
    pub fn game(&self) -> &'static dyn EditorGame {
        self.game
    }

    /// The sketch, to change its name, seed or settings (its cells through the edits below).
    pub(crate) fn sketch_mut(&mut self) -> &mut Sketch {
        &mut self.sketch
    }

    /// Whether the draft has no fixed board: each game of it draws one from the seed.
    pub fn board_from_seed(&self) -> bool {
        self.game.board_from_seed(&self.sketch)
    }

    /// The ink an eraser leaves.
    pub fn blank(&self) -> Ink {
        self.game.blank(&self.sketch.settings)
    }

    /// Every check the level fails, each in words with the cell it places (empty when it
    /// plays): the rule set's own list when it gives one ([`EditorGame::problems`]); else what
    /// starting the level says ([`Draft::check`]), then, while the problem sits on a cell or a
    /// unit, that cell blanked (or that unit left out) and the level started again, so each
    /// cell's problem is listed once, in the level's own words, up to [`MAX_PROBLEMS`]. Only the
    /// first problem may be one of no cell: after a cell was blanked, such a problem may be the
    /// blanking's, and the list ends.
    pub fn problems(&self) -> Vec<Problem> {
        let listed = self.game.problems(&self.sketch);
        if !listed.is_empty() {
            return listed;
        }
        let Err((first, place)) = self.first_problem() else { return Vec::new() };
        let mut out = vec![first];
        let mut rest = self.clone();
        let mut place = place;
        loop {
            if !rest.set_aside(place) {
                break;
            }
            match rest.first_problem() {
                Ok(()) => break,
                Err(_) if out.len() == MAX_PROBLEMS => {
                    out.push(Problem {
                        cell: None,
                        message: "more problems may follow: fix these first".into(),
                    });
                    break;
                }
                Err((p, next)) => {
                    // A problem already listed (a cell that blanking did not change) ends the
                    // list, and so does one placed on no cell or unit: blanking may have caused
                    // it (a collapse column left empty), so it is not the draft's.
                    if out.contains(&p) || !matches!(next, Some(Place::Cell(_) | Place::Unit(_))) {
                        break;
                    }
                    out.push(p);
                    place = next;
                }
            }
        }
        out
    }

    /// Leaves out what a problem at `place` is about: its cell blanked, or for a unit, the cell
    /// under it blanked (a unit on a wall), else the unit removed when it is the last (so the
    /// others keep their ids). False when nothing changed.
    fn set_aside(&mut self, place: Option<Place>) -> bool {
        let mut stroke = Stroke::default();
        match place {
            Some(Place::Cell(p)) => self.paint(p, self.blank(), &mut stroke),
            Some(Place::Unit(k)) if k < self.units().len() => {
                let at = Pos::new(self.units()[k].x, self.units()[k].y);
                self.paint(at, self.blank(), &mut stroke);
                if stroke.is_empty() && k + 1 == self.units().len() {
                    let before = self.sketch.units.clone();
                    self.sketch.units.pop();
                    stroke.record_units(before, &self.sketch.units);
                }
            }
            _ => {}
        }
        !stroke.is_empty()
    }

    /// Whether the level plays: `Ok`, or what [`Level::start`] says and the cell its error
    /// places ([`LevelError::place`](tessera_core::LevelError::place): a cell, or a unit's cell).
    pub fn check(&self) -> Result<(), Problem> {
        self.first_problem().map_err(|(p, _)| p)
    }

    /// [`Draft::check`], with the place of the error as the level gives it.
    fn first_problem(&self) -> Result<(), (Problem, Option<Place>)> {
        match self.to_level().start(None) {
            Ok(_) => Ok(()),
            Err(e) => {
                // The message names a cell itself; a unit's cell is added when its message does
                // not name it, so every problem that has a cell says which, once.
                let place = e.place();
                let (cell, message) = match place {
                    Some(Place::Cell(pos)) => (Some(pos), e.to_string()),
                    Some(Place::Unit(k)) => match self.units.get(k) {
                        Some(u) if e.to_string().contains(&format!("({}, {})", u.x, u.y)) => {
                            (Some(Pos::new(u.x, u.y)), e.to_string())
                        }
                        Some(u) => (Some(Pos::new(u.x, u.y)), format!("{e} (at cell ({}, {}))", u.x, u.y)),
                        None => (None, e.to_string()),
                    },
                    Some(Place::Row(_) | Place::Column(_)) | None => (None, e.to_string()),
                };
                Err((Problem { cell, message }, place))
            }
        }
    }

    /// The rule set.
    pub fn rule_set(&self) -> RuleSet {
        self.game.rule_set()
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.sketch.size
    }

    /// Every cell, row by row from the top.
    pub fn cells(&self) -> &[Ink] {
        &self.sketch.cells
    }

    /// The ink at `p`.
    pub fn ink(&self, p: Pos) -> Option<Ink> {
        self.size().contains(p).then(|| self.sketch.cells[self.size().index(p)])
    }

    /// The tactics units, in id order.
    pub fn units(&self) -> &[UnitSpec] {
        &self.sketch.units
    }

    /// The unit at `p`, if any.
    pub fn unit_at(&self, p: Pos) -> Option<&UnitSpec> {
        self.sketch.units.iter().find(|u| u.x == p.x && u.y == p.y)
    }

    /// Whether `ink` belongs to this draft's rule set (and its settings: a tactics legend).
    pub fn accepts(&self, ink: Ink) -> bool {
        self.game.accepts(&self.sketch.settings, ink)
    }

    /// Puts `ink` at `p`, recording the change in `stroke`. Ignores cells off the board and inks
    /// the rule set does not accept.
    pub fn paint(&mut self, p: Pos, ink: Ink, stroke: &mut Stroke) {
        if !self.size().contains(p) || !self.accepts(ink) {
            return;
        }
        let i = self.size().index(p);
        let old = self.sketch.cells[i];
        if old != ink {
            self.sketch.cells[i] = ink;
            stroke.cells.push((i as u32, old, ink));
        }
    }

    /// Erases `p`: the blank ink, and no unit.
    pub fn erase(&mut self, p: Pos, stroke: &mut Stroke) {
        self.remove_unit(p, stroke);
        self.paint(p, self.blank(), stroke);
    }

    /// Places a unit at `p` (replacing the one there, keeping its id), recording it in `stroke`.
    pub fn place_unit(&mut self, p: Pos, unit: UnitInk, stroke: &mut Stroke) {
        if !self.game.has_units() || !self.size().contains(p) {
            return;
        }
        let units = &mut self.sketch.units;
        let before = units.clone();
        let spec = UnitSpec { team: unit.team, x: p.x, y: p.y, movement: unit.movement };
        match units.iter_mut().find(|u| u.x == p.x && u.y == p.y) {
            Some(u) if *u == spec => return,
            Some(u) => *u = spec,
            None => units.push(spec),
        }
        stroke.record_units(before, units);
    }

    /// Removes the unit at `p`, if any.
    pub fn remove_unit(&mut self, p: Pos, stroke: &mut Stroke) {
        if self.unit_at(p).is_none() {
            return;
        }
        let units = &mut self.sketch.units;
        let before = units.clone();
        units.retain(|u| !(u.x == p.x && u.y == p.y));
        stroke.record_units(before, units);
    }

    /// Paints `ink` over the cells connected to `p` (4-neighbours) that hold what `p` holds.
    pub fn fill(&mut self, p: Pos, ink: Ink, stroke: &mut Stroke) {
        let Some(target) = self.ink(p) else { return };
        if target == ink || !self.accepts(ink) {
            return;
        }
        let mut work = vec![p];
        let size = self.size();
        while let Some(q) = work.pop() {
            if self.ink(q) != Some(target) {
                continue;
            }
            self.paint(q, ink, stroke);
            work.extend(size.neighbours4(q));
        }
    }

    /// Paints `ink` over the rectangle with corners `a` and `b` (inclusive).
    pub fn rect(&mut self, a: Pos, b: Pos, ink: Ink, stroke: &mut Stroke) {
        for y in a.y.min(b.y)..=a.y.max(b.y) {
            for x in a.x.min(b.x)..=a.x.max(b.x) {
                self.paint(Pos::new(x, y), ink, stroke);
            }
        }
    }

    /// The draft at `size`, keeping the content at `anchor`; new cells are blank, units that fall
    /// off are dropped.
    pub fn resized(&self, size: Size, anchor: Anchor) -> Draft {
        let old = self.size();
        let (dx, dy) = match anchor {
            Anchor::TopLeft => (0, 0),
            Anchor::Centre => (
                (i32::from(size.width) - i32::from(old.width)) / 2,
                (i32::from(size.height) - i32::from(old.height)) / 2,
            ),
        };
        let mut out = self.clone();
        out.sketch.size = size;
        out.sketch.cells = vec![self.blank(); size.area()];
        for (i, &c) in self.cells().iter().enumerate() {
            if let Some(q) = old.pos(i).offset(dx, dy, size) {
                out.sketch.cells[size.index(q)] = c;
            }
        }
        out.sketch.units = self
            .units()
            .iter()
            .filter_map(|u| {
                let q = Pos::new(u.x, u.y).offset(dx, dy, size)?;
                Some(UnitSpec { x: q.x, y: q.y, ..*u })
            })
            .collect();
        out
    }

    /// A new board from the rule set's own generator with `seed` (see the module docs).
    pub fn randomized(&self, seed: u64) -> Result<Draft, String> {
        let cells = self.game.randomized(&self.sketch, seed)?;
        Ok(Draft::of_sketch(self.game, Sketch { cells, ..self.sketch.clone() }))
    }

    /// The cells the rule set shuffles (match3's fixed unlocked blocks,
    /// [`EditorGame::shuffles`]) shuffled among their places until the level plays (at most
    /// `tries` shuffles from `seed`); `None` when no shuffle tried works.
    pub fn shuffled(&self, seed: u64, tries: u32) -> Option<Draft> {
        let cells: Vec<usize> =
            (0..self.cells().len()).filter(|&i| self.game.shuffles(self.cells()[i])).collect();
        let mut breeds: Vec<Ink> = cells.iter().map(|&i| self.cells()[i]).collect();
        let mut rng = GameRng::new(seed);
        let mut out = self.clone();
        for _ in 0..tries {
            rng.shuffle(&mut breeds);
            for (&i, &b) in cells.iter().zip(&breeds) {
                out.sketch.cells[i] = b;
            }
            if out.check().is_ok() {
                return Some(out);
            }
        }
        None
    }

    /// Every cell replaced by `f` of it (a settings change that changes inks: a tactics glyph
    /// renamed or removed), recorded by the caller as a whole-draft replacement.
    pub fn remap(&mut self, f: &dyn Fn(Ink) -> Ink) {
        for c in &mut self.sketch.cells {
            *c = f(*c);
        }
    }

    /// Undoes `stroke`.
    pub fn revert(&mut self, stroke: &Stroke) {
        for &(i, old, _) in stroke.cells.iter().rev() {
            self.sketch.cells[i as usize] = old;
        }
        if let Some((before, _)) = &stroke.units {
            self.sketch.units = before.clone();
        }
    }

    /// Redoes `stroke`.
    pub fn replay(&mut self, stroke: &Stroke) {
        for &(i, _, new) in &stroke.cells {
            self.sketch.cells[i as usize] = new;
        }
        if let Some((_, after)) = &stroke.units {
            self.sketch.units = after.clone();
        }
    }
}

/// The cells (index, before, after) and units one stroke changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stroke {
    /// Each cell change, in order.
    pub cells: Vec<(u32, Ink, Ink)>,
    /// The unit list before the stroke and after it, if it changed.
    pub units: Option<(Vec<UnitSpec>, Vec<UnitSpec>)>,
}

impl Stroke {
    /// Whether the stroke changed nothing.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty() && self.units.is_none()
    }

    fn record_units(&mut self, before: Vec<UnitSpec>, after: &[UnitSpec]) {
        match &mut self.units {
            Some((_, a)) => *a = after.to_vec(),
            None => self.units = Some((before, after.to_vec())),
        }
    }
}

/// One undoable edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Cells and units painted in one stroke.
    Stroke(Stroke),
    /// The whole draft replaced (resize, randomize, shuffle, settings, a new level).
    Replace {
        /// Before.
        before: Box<Draft>,
        /// After.
        after: Box<Draft>,
        /// Settings edits merge into one step while they follow each other.
        settings: bool,
    },
    /// Another level of the same file shown (a PuzzleScript game's levels list): undone and
    /// redone as an edit, but nothing to save (the file's text is the same).
    Switch {
        /// Before.
        before: Box<Draft>,
        /// After.
        after: Box<Draft>,
    },
}

/// Undo and redo of edits, separate from play history.
#[derive(Clone, Debug, Default)]
pub struct EditHistory {
    undo: Vec<Edit>,
    redo: Vec<Edit>,
    /// Changes since the last save (negative after undoing past it).
    since_save: i64,
    /// Whether the saved state can no longer be reached by undo and redo.
    save_lost: bool,
}

/// The most edits kept for undo.
const MAX_UNDO: usize = 200;

impl EditHistory {
    /// Records an edit already made to the draft.
    pub fn push(&mut self, edit: Edit) {
        if let Edit::Stroke(s) = &edit
            && s.is_empty()
        {
            return;
        }
        if let (
            Edit::Replace { after, settings: true, .. },
            Some(Edit::Replace { after: last_after, settings: true, .. }),
        ) = (&edit, self.undo.last_mut())
        {
            *last_after = after.clone();
            self.redo.clear();
            return;
        }
        let saves = !matches!(edit, Edit::Switch { .. });
        if saves && self.since_save < 0 {
            self.save_lost = true;
        }
        self.undo.push(edit);
        self.redo.clear();
        self.since_save += i64::from(saves);
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
    }

    /// Ends merging of settings edits (the next one is a new step).
    pub fn seal(&mut self) {
        if let Some(Edit::Replace { settings, .. }) = self.undo.last_mut() {
            *settings = false;
        }
    }

    /// Undoes the last edit on `draft`; false when there is none.
    pub fn undo(&mut self, draft: &mut Draft) -> bool {
        let Some(edit) = self.undo.pop() else { return false };
        match &edit {
            Edit::Stroke(s) => draft.revert(s),
            Edit::Replace { before, .. } | Edit::Switch { before, .. } => *draft = (**before).clone(),
        }
        self.since_save -= i64::from(!matches!(edit, Edit::Switch { .. }));
        self.redo.push(edit);
        true
    }

    /// Redoes the last undone edit on `draft`; false when there is none.
    pub fn redo(&mut self, draft: &mut Draft) -> bool {
        let Some(mut edit) = self.redo.pop() else { return false };
        match &edit {
            Edit::Stroke(s) => draft.replay(s),
            Edit::Replace { after, .. } | Edit::Switch { after, .. } => *draft = (**after).clone(),
        }
        if let Edit::Replace { settings, .. } = &mut edit {
            *settings = false;
        }
        self.since_save += i64::from(!matches!(edit, Edit::Switch { .. }));
        self.undo.push(edit);
        true
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Marks the draft as saved now.
    pub fn saved(&mut self) {
        self.since_save = 0;
        self.save_lost = false;
    }

    /// Whether the draft differs from what was last saved (or opened).
    pub fn dirty(&self) -> bool {
        self.since_save != 0 || self.save_lost
    }

    /// Forgets every edit (a new or opened level), clean.
    pub fn clear(&mut self) {
        *self = EditHistory::default();
    }

    /// Marks the draft as changed with no save behind it (a new level never saved).
    pub fn mark_unsaved(&mut self) {
        self.save_lost = true;
    }
}

/// The cells on the straight line from `a` to `b` (Bresenham), so a fast drag leaves no gaps.
pub fn line(a: Pos, b: Pos) -> Vec<Pos> {
    let (mut x, mut y) = (i32::from(a.x), i32::from(a.y));
    let (x1, y1) = (i32::from(b.x), i32::from(b.y));
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    let mut out = Vec::new();
    loop {
        out.push(Pos::new(x as u16, y as u16));
        if x == x1 && y == y1 {
            return out;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new(rule_set: RuleSet, size: Size, seed: Option<u64>) -> Draft {
        Draft::new(games::of(rule_set).expect("an editor entry"), size, seed)
    }

    fn size(w: usize, h: usize) -> Size {
        Size::new(w, h, 1024).unwrap()
    }

    #[test]
    fn fixture_levels_round_trip_through_a_draft() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/levels");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let level = Level::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let draft = Draft::from_level(&level).unwrap();
            let again = Draft::from_level(&draft.to_level()).unwrap();
            assert_eq!(again, draft, "{}", path.display());
            // The draft's level plays the same game as the file's.
            let a = level.start(None).unwrap().state;
            let b = draft.to_level().start(None).unwrap().state;
            assert_eq!(a.hash(), b.hash(), "{}", path.display());
            n += 1;
        }
        assert!(n >= 6);
    }

    /// Every ink of every rule set's palette (match3's blocks locked and not) painted, saved as
    /// a level file's text and opened again: the same glyph grid, the same settings.
    #[test]
    fn every_palette_ink_round_trips_through_a_saved_level() {
        for game in games::ALL {
            let settings = game.default_settings();
            let mut inks: Vec<Ink> = Vec::new();
            for locked in [false, true] {
                let brush = crate::model::Brush { locked, ..crate::model::Brush::new(game.first_ink()) };
                for e in game.palette(&settings, &brush) {
                    if !inks.contains(&e.ink) {
                        inks.push(e.ink);
                    }
                }
            }
            assert!(inks.len() >= 2, "{:?}: a palette", game.rule_set());
            let side = (inks.len() as f64).sqrt().ceil() as usize + 1;
            let mut d = Draft::new(*game, size(side, side), game.uses_seed().then_some(5));
            let mut s = Stroke::default();
            for (i, &ink) in inks.iter().enumerate() {
                d.paint(d.size().pos(i), ink, &mut s);
                assert_eq!(d.ink(d.size().pos(i)), Some(ink), "{:?}: {ink:?} paints", game.rule_set());
            }
            let text = d.to_level().to_json();
            let level = Level::parse_draft(&text).unwrap_or_else(|e| panic!("{:?}: {e}", game.rule_set()));
            let again = Draft::from_level(&level).unwrap_or_else(|e| panic!("{:?}: {e}", game.rule_set()));
            assert_eq!(again.cells(), d.cells(), "{:?}: the same glyphs", game.rule_set());
            assert_eq!(again.size(), d.size(), "{:?}", game.rule_set());
            // (A PuzzleScript draft's settings hold the game's source, whose level rows are the
            // painted ones once saved: the levels agree.)
            assert_eq!(again.to_level(), d.to_level(), "{:?}: the same level", game.rule_set());
        }
    }

    #[test]
    fn strokes_undo_and_redo_exactly() {
        let mut d = new(RuleSet::Match3, size(5, 5), Some(1));
        let start = d.clone();
        let mut h = EditHistory::default();
        let mut s = Stroke::default();
        for p in line(Pos::new(0, 0), Pos::new(4, 2)) {
            d.paint(p, Ink::Glyph('#'), &mut s);
        }
        assert_eq!(s.cells.len(), 5, "a line across 5 columns");
        h.push(Edit::Stroke(s));
        let painted = d.clone();
        let mut s = Stroke::default();
        d.fill(Pos::new(0, 4), Ink::Glyph('C'), &mut s);
        h.push(Edit::Stroke(s));
        assert!(h.dirty());
        assert!(h.undo(&mut d));
        assert_eq!(d, painted);
        assert!(h.undo(&mut d));
        assert_eq!(d, start);
        assert!(!h.dirty());
        assert!(!h.undo(&mut d));
        assert!(h.redo(&mut d));
        assert_eq!(d, painted);
    }

    #[test]
    fn resize_keeps_content_at_the_anchor() {
        let mut d = new(RuleSet::Collapse, size(3, 3), None);
        let mut s = Stroke::default();
        d.paint(Pos::new(0, 2), Ink::Glyph('1'), &mut s);
        d.paint(Pos::new(1, 2), Ink::Glyph('2'), &mut s);
        let big = d.resized(size(5, 5), Anchor::TopLeft);
        assert_eq!(big.ink(Pos::new(0, 2)), Some(Ink::Glyph('1')));
        assert_eq!(big.ink(Pos::new(4, 4)), Some(Ink::Glyph('.')));
        let centred = d.resized(size(5, 5), Anchor::Centre);
        assert_eq!(centred.ink(Pos::new(1, 3)), Some(Ink::Glyph('1')));
        assert_eq!(centred.ink(Pos::new(2, 3)), Some(Ink::Glyph('2')));
        assert_eq!(centred.resized(size(3, 3), Anchor::Centre), d);
    }

    #[test]
    fn problems_name_their_cell() {
        let mut d = new(RuleSet::Match3, size(6, 6), Some(1));
        let mut s = Stroke::default();
        for x in 1..4 {
            d.paint(Pos::new(x, 2), Ink::Glyph('a'), &mut s);
        }
        let p = d.check().unwrap_err();
        assert_eq!(p.cell, Some(Pos::new(1, 2)), "{}", p.message);
        let fixed = d.shuffled(3, 10);
        // Three blocks of one breed stay a run wherever they go in one row: no shuffle helps.
        assert!(fixed.is_none() || fixed.unwrap().check().is_ok());

        let mut t = new(RuleSet::Tactics, size(4, 4), None);
        let mut s = Stroke::default();
        t.paint(Pos::new(2, 1), Ink::Glyph('#'), &mut s); // wall
        t.place_unit(Pos::new(2, 1), UnitInk { team: 0, movement: 5 }, &mut s);
        let p = t.check().unwrap_err();
        assert_eq!(p.cell, Some(Pos::new(2, 1)), "{}", p.message);

        let mut c = new(RuleSet::Collapse, size(3, 3), None);
        let mut s = Stroke::default();
        c.paint(Pos::new(1, 0), Ink::Glyph('0'), &mut s);
        let p = c.check().unwrap_err();
        assert_eq!(p.cell, Some(Pos::new(1, 0)), "{}", p.message);

        let mut sl = new(RuleSet::Slide, size(4, 4), None);
        let mut s = Stroke::default();
        sl.paint(Pos::new(3, 2), Ink::Number(6), &mut s);
        let p = sl.check().unwrap_err();
        assert_eq!(p.cell, Some(Pos::new(3, 2)), "{}", p.message);
    }

    /// Each problem of a cell is listed once; a problem that setting a cell aside made (a
    /// collapse column left empty) is not listed.
    #[test]
    fn problems_list_each_cell_once_and_nothing_the_listing_made() {
        let draft = |json: &str| Draft::from_level(&Level::parse_draft(json).unwrap()).unwrap();
        let d = draft(r#"{"rule_set":"slide","board":[[6,0,0],[0,5,3]]}"#);
        let cells: Vec<Option<Pos>> = d.problems().iter().map(|p| p.cell).collect();
        assert_eq!(cells.len(), 3, "{:?}", d.problems());
        for at in [Pos::new(0, 0), Pos::new(1, 1), Pos::new(2, 1)] {
            assert!(cells.contains(&Some(at)), "{at:?} in {cells:?}");
        }
        // A floating tile alone in its column, with left compaction: blanking it leaves the
        // column empty, which the draft itself is not.
        let d =
            draft(r#"{"rule_set":"collapse","config":{"compaction":"left"},"board":["1..","...",".22"]}"#);
        let problems = d.problems();
        assert!(problems.iter().all(|p| !p.message.contains("column")), "{problems:?}");
        assert_eq!(problems.first().and_then(|p| p.cell), d.check().err().and_then(|p| p.cell));
    }

    #[test]
    fn drafts_that_do_not_play_still_edit_without_panics() {
        // A unit off the board and a glyph-free legend entry: every edit still works.
        let text = r##"{"rule_set":"tactics","map":["..","#."],"units":[{"team":0,"x":9,"y":9}]}"##;
        let level = Level::parse_draft(text).unwrap();
        let mut d = Draft::from_level(&level).unwrap();
        assert!(d.check().is_err());
        let r = d.randomized(1).unwrap();
        assert_eq!(r.units().len(), 1);
        let mut s = Stroke::default();
        d.erase(Pos::new(1, 1), &mut s);
        d.fill(Pos::new(0, 0), Ink::Glyph('f'), &mut s);
        let small = d.resized(size(1, 1), Anchor::Centre);
        assert!(small.units().is_empty(), "the unit off the board is dropped");
    }

    #[test]
    fn randomized_boards_play() {
        for rule_set in RuleSet::ALL {
            let d = new(*rule_set, size(7, 6), Some(3));
            let r = d.randomized(11).unwrap();
            assert_eq!(r.check(), Ok(()), "{rule_set:?}");
            assert_eq!(r.randomized(11).unwrap(), r.randomized(11).unwrap(), "deterministic");
        }
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        #[derive(Clone, Debug)]
        enum Op {
            Paint(u16, u16, u8),
            Line(u16, u16, u16, u16, u8),
            Fill(u16, u16, u8),
            Rect(u16, u16, u16, u16, u8),
            Erase(u16, u16),
            Resize(u16, u16, bool),
            Undo,
            Redo,
        }

        fn op() -> impl Strategy<Value = Op> {
            let c = 0u16..8;
            prop_oneof![
                (c.clone(), c.clone(), 0u8..4).prop_map(|(x, y, k)| Op::Paint(x, y, k)),
                (c.clone(), c.clone(), c.clone(), c.clone(), 0u8..4)
                    .prop_map(|(a, b, x, y, k)| Op::Line(a, b, x, y, k)),
                (c.clone(), c.clone(), 0u8..4).prop_map(|(x, y, k)| Op::Fill(x, y, k)),
                (c.clone(), c.clone(), c.clone(), c.clone(), 0u8..4)
                    .prop_map(|(a, b, x, y, k)| Op::Rect(a, b, x, y, k)),
                (c.clone(), c.clone()).prop_map(|(x, y)| Op::Erase(x, y)),
                (1u16..9, 1u16..9, any::<bool>()).prop_map(|(w, h, centre)| Op::Resize(w, h, centre)),
                Just(Op::Undo),
                Just(Op::Redo),
            ]
        }

        proptest! {
            /// Undoing every edit returns the start exactly (and clean); redoing them all returns
            /// the last edit's result.
            #[test]
            fn undo_and_redo_retrace_every_edit(ops in proptest::collection::vec(op(), 1..40)) {
                let mut d = new(RuleSet::Collapse, Size::new(5, 4, 1024).unwrap(), None);
                let start = d.clone();
                let mut h = EditHistory::default();
                for op in ops {
                    let mut s = Stroke::default();
                    let at = |x: u16, y: u16| Pos::new(x, y);
                    match op {
                        Op::Paint(x, y, k) => d.paint(at(x, y), Ink::Glyph(tessera_core::collapse::colour_char(k)), &mut s),
                        Op::Line(a, b, x, y, k) => {
                            for p in line(at(a, b), at(x, y)) {
                                d.paint(p, Ink::Glyph(tessera_core::collapse::colour_char(k)), &mut s);
                            }
                        }
                        Op::Fill(x, y, k) => d.fill(at(x, y), Ink::Glyph(tessera_core::collapse::colour_char(k)), &mut s),
                        Op::Rect(a, b, x, y, k) => d.rect(at(a, b), at(x, y), Ink::Glyph(tessera_core::collapse::colour_char(k)), &mut s),
                        Op::Erase(x, y) => d.erase(at(x, y), &mut s),
                        Op::Resize(w, hh, centre) => {
                            let anchor = if centre { Anchor::Centre } else { Anchor::TopLeft };
                            let after = d.resized(Size::new(w.into(), hh.into(), 1024).unwrap(), anchor);
                            if after != d {
                                let before = std::mem::replace(&mut d, after.clone());
                                h.push(Edit::Replace { before: Box::new(before), after: Box::new(after), settings: false });
                            }
                            continue;
                        }
                        Op::Undo => { h.undo(&mut d); continue; }
                        Op::Redo => { h.redo(&mut d); continue; }
                    }
                    h.push(Edit::Stroke(s));
                }
                // The tip of the edits: every undone edit redone.
                while h.redo(&mut d) {}
                let end = d.clone();
                let mut undone = 0;
                while h.undo(&mut d) {
                    undone += 1;
                }
                prop_assert_eq!(&d, &start);
                prop_assert!(!h.dirty() || undone == MAX_UNDO);
                while h.redo(&mut d) {}
                prop_assert_eq!(&d, &end);
            }
        }
    }
}
