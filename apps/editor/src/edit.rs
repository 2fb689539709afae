//! Edit mode: [`EditView`] paints a [`Draft`] — tools, the rule set's palette, the level's
//! settings, resize, randomize, live validation, its own undo and redo — and saves it as the
//! JSON level `tessera play` reads. The palette is the rule set's list of inks
//! ([`crate::games::EditorGame::palette`]: each a button in its colour, or its sprite when the rule
//! set draws inks as pixel art) and its fields; the settings panel is the rule set's
//! ([`crate::games::EditorGame::settings_ui`]), editing the draft's settings (its `Level`). Cells
//! are drawn as the rule set says ([`crate::games::EditorGame::look`]).
//!
//! A draft with no fixed board (each game draws one from the seed: an empty `slide` or
//! `collapse` board) says so on the canvas and in the panel, since its canvas is empty.
//!
//! The canvas draws the draft as one texture (a texel per cell, rebuilt when the draft changes),
//! with grid lines, labels, locks and units on top when cells are big enough to read: a draft
//! need not be playable, so it is drawn from its cells, not from a game's mirror.
//!
//! Input: the primary button paints with the chosen tool (a press and drag is one stroke, one
//! undo step; the cells between two pointer samples are painted too); the secondary or middle
//! button pans; the wheel zooms. Keys: B paint, F fill, R rectangle, E erase, I pick,
//! Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo, Ctrl+S save.
//!
//! `edit.rs` draws it: the tool panel (the palette is a button per ink of the rule set's list, its
//! sprite when it has one, then the rule set's fields; the settings panel is the rule set's) and a
//! canvas (the draft as one nearest-filtered texture, a texel per cell, re-made when the draft
//! changes; grid, labels, locks and units on top when cells are large enough); a press starts a
//! stroke, the cells between pointer samples are painted (Bresenham), the release commits it.
//! Validation runs when the draft changes, not while a stroke is under way.
//!
//! The Select tool keeps a rectangle; Copy takes its inks into a `Clip` (kept across levels), Cut
//! erases them in one stroke, Paste paints the clip at the selection's top-left cell as one stroke
//! (cells past the edge and inks of another rule set left out; Ctrl+C/X/V arrive as egui's copy,
//! cut and paste events in a window and as keys in tests).

use crate::board::Viewport;
use crate::difficulty::DifficultyPanel;
use crate::draft::{Anchor, Draft, Edit, EditHistory, Ink, Problem, Stroke, UnitInk, line, max_side};
use crate::games;
pub use crate::model::{Brush, text_on};
use crate::model::{InkLook, PaletteInk};
use crate::palette;
use egui::{
    Align2, Color32, ColorImage, FontId, Pos2, Rect, Sense, Stroke as Line, StrokeKind, TextureHandle,
    TextureOptions, Vec2, pos2, vec2,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tessera_core::{Level, Pos, RuleSet, Size};

/// The lines the validity box keeps room for (more scroll).
const PROBLEM_LINES: usize = 4;

/// What the empty canvas of a level with no fixed board says.
pub const NO_FIXED_BOARD: &str = "No fixed board: each game draws one from the seed; paint to fix cells";

/// A painting tool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Paint cells under the pointer.
    #[default]
    Paint,
    /// Flood fill the region under the pointer.
    Fill,
    /// Fill a rectangle dragged from corner to corner.
    Rect,
    /// Erase cells (and units).
    Erase,
    /// Pick the ink under the pointer.
    Pick,
    /// Select a rectangle (drag), to copy, cut, or paste at.
    Select,
}

impl Tool {
    /// Every tool, its label and its key.
    pub const ALL: [(Tool, &'static str, egui::Key); 6] = [
        (Tool::Paint, "Paint", egui::Key::B),
        (Tool::Fill, "Fill", egui::Key::F),
        (Tool::Rect, "Rectangle", egui::Key::R),
        (Tool::Erase, "Erase", egui::Key::E),
        (Tool::Pick, "Pick", egui::Key::I),
        (Tool::Select, "Select", egui::Key::S),
    ];
}

/// Cells copied with the Select tool: a `width`×`height` block of inks, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
    /// The inks, row by row.
    pub inks: Vec<Ink>,
}

/// What Edit mode asks the app to do.
pub enum EditAction {
    /// Start Play on this level with this seed.
    Play(Level, u64),
    /// Ask where to save the draft.
    SaveAs,
    /// Save the draft to its file (the app asks first when that would put a draft over a level
    /// that plays).
    Save(PathBuf),
}

/// The pan and zoom of the canvas and its texture.
#[derive(Default)]
struct Canvas {
    view: Viewport,
    texture: Option<(u64, TextureHandle)>,
    /// Cells painted since the texture was last brought up to date (min and max corners), when
    /// only strokes changed the draft since: a stroke on a 1024×1024 map uploads those texels,
    /// not the whole map, each frame.
    painted: Option<(Pos, Pos)>,
    /// Something else changed: the texture is made anew.
    remake: bool,
}

/// A stroke being painted.
struct Active {
    stroke: Stroke,
    start: Pos,
    last: Pos,
}

/// Edit mode.
pub struct EditView {
    draft: Draft,
    history: EditHistory,
    path: Option<PathBuf>,
    /// Bumped on every change of the draft (texture and validation follow it).
    revision: u64,
    /// The draft's problems (empty: it plays) at a revision.
    checked: Option<(u64, Vec<Problem>)>,
    tool: Tool,
    brush: Brush,
    active: Option<Active>,
    canvas: Canvas,
    hovered: Option<Pos>,
    resize: (u16, u16),
    anchor: Anchor,
    random_seed: u64,
    play_seed: u64,
    new_level: (RuleSet, u16, u16, u64),
    /// Edit's message for the status bar, with the revision of the draft it is about: shown
    /// only while the draft is as it was (a fixed problem's message goes with the fix).
    notice: Option<(u64, String)>,
    difficulty: DifficultyPanel,
    /// The Select tool's rectangle (two corners), where copy and cut read and paste writes.
    selection: Option<(Pos, Pos)>,
    /// What Copy or Cut took, for Paste (kept across levels of the same rule set).
    clip: Option<Clip>,
    /// The file the level was imported from (a PuzzleScript game's `.txt`), which "Save game
    /// source" writes when the rule set has one ([`crate::games::EditorGame::game_source`]).
    imported_from: Option<PathBuf>,
}

impl Default for EditView {
    fn default() -> Self {
        EditView::new(
            Draft::from_level(&Level::classic())
                .unwrap_or_else(|_| Draft::new(games::ALL[0], Size { width: 4, height: 4 }, None)),
        )
    }
}

impl EditView {
    /// Edit mode on `draft`, clean (nothing to save).
    pub fn new(draft: Draft) -> EditView {
        let size = draft.size();
        let mut v = EditView {
            brush: Brush::new(draft.blank()),
            draft,
            history: EditHistory::default(),
            path: None,
            revision: 1,
            checked: None,
            tool: Tool::Paint,
            active: None,
            canvas: Canvas::default(),
            hovered: None,
            resize: (size.width, size.height),
            anchor: Anchor::TopLeft,
            random_seed: 1,
            play_seed: 0,
            new_level: (crate::games::NEW_LEVEL, 9, 9, 1),
            notice: None,
            difficulty: DifficultyPanel::default(),
            selection: None,
            clip: None,
            imported_from: None,
        };
        v.reset_for_draft();
        v
    }

    fn reset_for_draft(&mut self) {
        self.brush.ink = self.draft.game().first_ink();
        self.brush.units = false;
        self.resize = (self.draft.size().width, self.draft.size().height);
        self.play_seed = self.draft.seed.unwrap_or(tessera_core::DEFAULT_SEED);
        self.canvas.view.fit();
        self.active = None;
        self.changed();
    }

    /// Loads `level` (opened from `path` if it is our JSON level file), forgetting edits.
    pub fn load(&mut self, level: &Level, path: Option<&Path>) -> Result<(), String> {
        let draft = Draft::from_level(level)?;
        // The Difficulty results stay with the level they are of (shown again on its return).
        self.difficulty.level_changed();
        *self = EditView {
            difficulty: std::mem::take(&mut self.difficulty),
            clip: self.clip.take(),
            ..EditView::new(draft)
        };
        // An import (a stage file, a Moving AI map) has no level file yet: Save asks where. It is
        // not "unsaved" until it is edited, so opening a map just to play it asks nothing on quit.
        self.path = path.map(Path::to_path_buf);
        Ok(())
    }

    /// Records the file the level was imported from (see "Save game source").
    pub fn set_imported_from(&mut self, path: Option<&Path>) {
        self.imported_from = path.map(Path::to_path_buf);
    }

    /// The file the level was imported from, which Save game source writes.
    pub fn imported_from(&self) -> Option<&Path> {
        self.imported_from.as_deref()
    }

    /// Writes the game's source with the draft in it (its rules and painted level) over the file
    /// the level was imported from, atomically; what to say.
    pub fn save_game_source(&mut self) -> Result<String, String> {
        self.finish_stroke();
        let path = self.imported_from.clone().ok_or("the level was not imported from a game's file")?;
        let level = self.draft.to_level();
        let text = self.draft.game().game_source(&level).ok_or("this rule set has no game source")?;
        tessera_replay::atomic_write(&path, text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        // The game's file holds the whole draft (rules and painted level): nothing is unsaved,
        // unless the draft also has a level file of its own, which this did not write.
        if self.path.is_none() {
            self.history.saved();
        }
        Ok(format!("saved the game's source to {}", path.display()))
    }

    /// Puts a rebuilt game source into the draft (the workbench's text, its level's rows read
    /// from it), as one undoable edit; the level to play then, or why it does not play.
    pub fn rebuild_with(&mut self, source: String) -> Result<Level, String> {
        self.finish_stroke();
        let game = self.draft.game();
        let level = game
            .with_source(&self.draft.to_level(), source)
            .ok_or("this rule set's games are not written as text")?;
        let mut after = Draft::from_level(&level)?;
        // The draft's name and seed stay (the level's own name is the importer's).
        let sketch = after.sketch_mut();
        (sketch.name, sketch.seed) = (self.draft.name.clone(), self.draft.seed);
        self.replace(after, true);
        self.after_undo_redo();
        // The Difficulty panel's figures were of the old rules.
        self.difficulty.forget();
        match self.problem() {
            None => Ok(self.draft.to_level()),
            Some(p) => Err(p.message.clone()),
        }
    }

    /// The draft becomes `level` (a generated candidate accepted: a tuned stage), as one
    /// undoable edit; its name stays.
    pub fn replace_level(&mut self, level: &Level) -> Result<(), String> {
        self.finish_stroke();
        let mut after = Draft::from_level(level)?;
        after.sketch_mut().name = self.draft.name.clone();
        self.replace(after, false);
        self.after_undo_redo();
        self.difficulty.forget();
        Ok(())
    }

    /// Whether the draft's game uses a seed (a PuzzleScript game only with `random` or real
    /// time): Play seed, Level seed and Randomize are shown only then.
    fn uses_seed(&self) -> bool {
        self.draft.game().level_uses_seed(&self.draft.settings)
    }

    /// The seed Play starts a game of the draft with.
    pub fn play_seed(&self) -> u64 {
        self.play_seed
    }

    /// Loads edits recovered after a crash ([`crate::recovery`]): `level` as it was being
    /// edited, from `path` if it had a file. The draft is unsaved, as it was.
    pub fn restore(&mut self, level: &Level, path: Option<&Path>) -> Result<(), String> {
        self.load(level, path)?;
        self.history.mark_unsaved();
        self.revision += 1;
        Ok(())
    }

    /// A number that changes whenever the draft does.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The draft.
    pub fn draft(&self) -> &Draft {
        &self.draft
    }

    /// Where the draft was opened from or last saved.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether the draft has changes not saved.
    pub fn dirty(&self) -> bool {
        self.history.dirty()
    }

    /// The Difficulty panel.
    pub fn difficulty(&self) -> &DifficultyPanel {
        &self.difficulty
    }

    /// The chosen tool.
    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// The chosen ink.
    pub fn ink(&self) -> Ink {
        self.brush.ink
    }

    /// The draft's first problem, if it does not play (checked when it changes).
    pub fn problem(&mut self) -> Option<&Problem> {
        self.problems().first()
    }

    /// Every problem of the draft that the rule set lists (at least the first), each with its
    /// cell; empty when it plays. Checked when the draft changes.
    pub fn problems(&mut self) -> &[Problem] {
        // While a stroke is painted the last answer stands: checking starts the level, which on
        // a large map costs more than a frame.
        let stale = self.checked.as_ref().is_none_or(|(rev, _)| *rev != self.revision);
        if stale && (self.active.is_none() || self.checked.is_none()) {
            self.checked = Some((self.revision, self.draft.problems()));
        }
        self.checked.as_ref().map_or(&[], |(_, r)| r.as_slice())
    }

    /// Says `text` in the status bar, about the draft as it is now.
    pub fn say(&mut self, text: impl Into<String>) {
        self.notice = Some((self.revision, text.into()));
    }

    /// Edit's message, while the draft is as it was when it was said.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_ref().filter(|(rev, _)| *rev == self.revision).map(|(_, n)| n.as_str())
    }

    /// A line for the status bar: what is painted with, where, and whether it is saved.
    pub fn status(&self) -> String {
        // A level of a game's file is named by that file until it has a level file of its own.
        let file = self.path.as_ref().or(self.imported_from.as_ref());
        let name = file.map_or("untitled".into(), |p| p.display().to_string());
        let size = self.draft.size();
        let mut s = format!(
            "{} · {}×{} · {}{}",
            self.draft.rule_set().name(),
            size.width,
            size.height,
            name,
            if self.dirty() { " (unsaved)" } else { "" }
        );
        if let Some(p) = self.hovered {
            s.push_str(&format!(" · cell ({}, {})", p.x, p.y));
        }
        s
    }

    /// The screen position of the centre of cell `p` as last drawn (for tests).
    pub fn cell_centre(&self, p: Pos) -> Option<Pos2> {
        self.canvas.view.cell_centre(p)
    }

    /// Chooses a tool.
    pub fn set_tool(&mut self, tool: Tool) {
        self.tool = tool;
    }

    /// Chooses the ink (ignored when it is not of the draft's rule set).
    pub fn set_ink(&mut self, ink: Ink) {
        if self.draft.accepts(ink) {
            self.brush.ink = ink;
            self.brush.units = false;
        }
    }

    /// The Select tool's rectangle, as its top-left and bottom-right cells (within the board).
    pub fn selection(&self) -> Option<(Pos, Pos)> {
        let (a, b) = self.selection?;
        let size = self.draft.size();
        (size.contains(a) && size.contains(b))
            .then(|| (Pos::new(a.x.min(b.x), a.y.min(b.y)), Pos::new(a.x.max(b.x), a.y.max(b.y))))
    }

    /// What Copy or Cut took.
    pub fn clip(&self) -> Option<&Clip> {
        self.clip.as_ref()
    }

    /// The clip as text for the system clipboard: a row per line, cells as the level format
    /// writes them (`.` for empty). A window only sends Ctrl+V on when the system clipboard
    /// holds text, so Copy and Cut put this there.
    pub fn clip_text(&self) -> Option<String> {
        let clip = self.clip.as_ref()?;
        let cell = |ink: &Ink| ink.text();
        let rows: Vec<String> = clip
            .inks
            .chunks(usize::from(clip.width).max(1))
            .map(|row| row.iter().map(cell).collect::<Vec<_>>().join(" "))
            .collect();
        Some(rows.join("\n"))
    }

    /// Copy or Cut, then the clip's text onto the system clipboard.
    fn copy_or_cut(&mut self, ctx: &egui::Context, cut: bool) {
        let copied = if cut { self.cut() } else { self.copy() };
        if copied && let Some(text) = self.clip_text() {
            ctx.copy_text(text);
        }
    }

    /// Copies the selected cells (not units) for Paste; false with nothing selected.
    pub fn copy(&mut self) -> bool {
        let Some((lo, hi)) = self.selection() else {
            self.say("select cells first (Select tool, S): drag over them");
            return false;
        };
        let (width, height) = (hi.x - lo.x + 1, hi.y - lo.y + 1);
        let inks = (lo.y..=hi.y)
            .flat_map(|y| (lo.x..=hi.x).map(move |x| Pos::new(x, y)))
            .filter_map(|p| self.draft.ink(p))
            .collect();
        self.clip = Some(Clip { width, height, inks });
        self.say(format!("copied {width}×{height} cells"));
        true
    }

    /// Copies the selected cells, then erases them (and their units), as one undoable step;
    /// false with nothing selected.
    pub fn cut(&mut self) -> bool {
        if !self.copy() {
            return false;
        }
        let Some((lo, hi)) = self.selection() else { return false };
        self.finish_stroke();
        let mut stroke = Stroke::default();
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                self.draft.erase(Pos::new(x, y), &mut stroke);
            }
        }
        self.commit(stroke);
        if let Some(clip) = &self.clip {
            self.say(format!("cut {}×{} cells", clip.width, clip.height));
        }
        true
    }

    /// Pastes what was copied with its top-left corner at the selection's top-left cell, as one
    /// undoable step; cells past the board's edge and inks of another rule set are left out.
    /// The pasted cells become the selection.
    pub fn paste(&mut self) {
        let Some(clip) = self.clip.clone() else {
            self.say("nothing to paste: copy (Ctrl+C) or cut (Ctrl+X) cells first");
            return;
        };
        let Some((at, _)) = self.selection() else {
            self.say("select where to paste first (Select tool, S): click a cell");
            return;
        };
        self.finish_stroke();
        let mut stroke = Stroke::default();
        for (i, &ink) in clip.inks.iter().enumerate() {
            let (dx, dy) = ((i % usize::from(clip.width)) as u16, (i / usize::from(clip.width)) as u16);
            if let (Some(x), Some(y)) = (at.x.checked_add(dx), at.y.checked_add(dy)) {
                self.draft.paint(Pos::new(x, y), ink, &mut stroke);
            }
        }
        self.commit(stroke);
        let size = self.draft.size();
        let end = Pos::new(
            (at.x + clip.width - 1).min(size.width - 1),
            (at.y + clip.height - 1).min(size.height - 1),
        );
        self.selection = Some((at, end));
        self.say(format!("pasted {}×{} cells at ({}, {})", clip.width, clip.height, at.x, at.y));
    }

    /// Records `stroke`, already made, as one undoable step.
    fn commit(&mut self, stroke: Stroke) {
        if !stroke.is_empty() {
            self.history.push(Edit::Stroke(stroke));
            self.changed();
        }
    }

    fn changed(&mut self) {
        self.revision += 1;
        self.canvas.remake = true;
    }

    /// Cells `from..` of the active stroke were just painted.
    fn painted(&mut self, from: usize) {
        self.revision += 1;
        let Some(a) = &self.active else { return };
        let size = self.draft.size();
        for &(i, _, _) in &a.stroke.cells[from..] {
            let p = size.pos(i as usize);
            self.canvas.painted = Some(match self.canvas.painted {
                None => (p, p),
                Some((lo, hi)) => {
                    (Pos::new(lo.x.min(p.x), lo.y.min(p.y)), Pos::new(hi.x.max(p.x), hi.y.max(p.y)))
                }
            });
        }
    }

    /// Replaces the draft with `after` as one undoable step.
    fn replace(&mut self, after: Draft, settings: bool) {
        if after == self.draft {
            return;
        }
        let before = std::mem::replace(&mut self.draft, after);
        self.history.push(Edit::Replace {
            before: Box::new(before),
            after: Box::new(self.draft.clone()),
            settings,
        });
        self.changed();
    }

    /// Shows `after`, another level of the same file, as one undoable step with nothing to save.
    fn switch(&mut self, after: Draft) {
        if after == self.draft {
            return;
        }
        let before = std::mem::replace(&mut self.draft, after);
        self.history.push(Edit::Switch { before: Box::new(before), after: Box::new(self.draft.clone()) });
        self.changed();
    }

    /// Undoes an edit.
    pub fn undo(&mut self) {
        self.finish_stroke();
        if self.history.undo(&mut self.draft) {
            self.after_undo_redo();
        }
    }

    /// Redoes an edit.
    pub fn redo(&mut self) {
        self.finish_stroke();
        if self.history.redo(&mut self.draft) {
            self.after_undo_redo();
        }
    }

    fn after_undo_redo(&mut self) {
        if !self.draft.accepts(self.brush.ink) {
            self.brush.ink = self.draft.blank();
        }
        self.resize = (self.draft.size().width, self.draft.size().height);
        self.changed();
    }

    /// Starts a new empty level.
    pub fn new_level(&mut self, rule_set: RuleSet, width: u16, height: u16, seed: u64) -> Result<(), String> {
        let game = games::of(rule_set)
            .ok_or_else(|| format!("the editor cannot make {} levels", rule_set.name()))?;
        let size =
            Size::new(width.into(), height.into(), game.max_side()).map_err(|e| format!("size: {e}"))?;
        let draft = Draft::new(game, size, Some(seed));
        self.replace(draft, false);
        self.path = None;
        self.history.mark_unsaved();
        self.reset_for_draft();
        Ok(())
    }

    /// Resizes the board to the size chosen in the panel, at the chosen anchor.
    pub fn resize(&mut self, width: u16, height: u16, anchor: Anchor) -> Result<(), String> {
        let max = max_side(self.draft.rule_set());
        let size = Size::new(width.into(), height.into(), max).map_err(|e| format!("size: {e}"))?;
        let after = self.draft.resized(size, anchor);
        self.replace(after, false);
        self.resize = (width, height);
        self.canvas.view.fit();
        Ok(())
    }

    /// Fills the board from the rule set's generator with `seed`.
    pub fn randomize(&mut self, seed: u64) -> Result<(), String> {
        let after = self.draft.randomized(seed)?;
        self.replace(after, false);
        Ok(())
    }

    /// `match3`: shuffles the fixed blocks until the level plays.
    pub fn fix_by_shuffling(&mut self) -> Result<(), String> {
        let seed = self.random_seed;
        match self.draft.shuffled(seed, 2000) {
            Some(after) => {
                self.replace(after, false);
                Ok(())
            }
            None => Err("no shuffle of the fixed blocks plays; try Randomize or fewer fixed blocks".into()),
        }
    }

    /// Saves the draft to `path` as JSON, atomically. Returns what to tell the user: saved, or
    /// saved as a draft that does not play yet (and why).
    pub fn save(&mut self, path: &Path) -> Result<String, String> {
        self.finish_stroke();
        let json = self.draft.to_level().to_json();
        tessera_replay::atomic_write(path, json.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        self.path = Some(path.to_path_buf());
        self.history.saved();
        Ok(match self.problem() {
            None => format!("saved {}", path.display()),
            Some(p) => format!("saved {} as a draft: it does not play yet ({})", path.display(), p.message),
        })
    }

    /// Applies a tool at cell `p` as the start of a stroke (`start`) or its continuation.
    fn tool_at(&mut self, p: Pos, start: bool) {
        let Some(active) = &mut self.active else { return };
        let from = if start { p } else { active.last };
        active.last = p;
        let mut stroke = std::mem::take(&mut active.stroke);
        let (cells_before, units_before) = (stroke.cells.len(), stroke.units.clone());
        match self.tool {
            Tool::Paint | Tool::Erase => {
                for q in line(from, p) {
                    match (self.tool, self.brush.units) {
                        (Tool::Erase, _) => self.draft.erase(q, &mut stroke),
                        (_, true) => self.draft.place_unit(q, self.brush.unit, &mut stroke),
                        _ => self.draft.paint(q, self.brush.ink, &mut stroke),
                    }
                }
            }
            Tool::Fill if start => {
                if self.brush.units {
                    self.draft.place_unit(p, self.brush.unit, &mut stroke);
                } else {
                    self.draft.fill(p, self.brush.ink, &mut stroke);
                }
            }
            Tool::Select => {
                let corner = if start { p } else { self.selection.map_or(p, |(a, _)| a) };
                self.selection = Some((corner, p));
            }
            Tool::Pick if start => {
                if let Some(u) = self.draft.unit_at(p) {
                    self.brush.unit = UnitInk { team: u.team, movement: u.movement };
                    self.brush.units = true;
                } else if let Some(ink) = self.draft.ink(p) {
                    self.brush.ink = ink;
                    self.brush.units = false;
                    self.draft.game().picked(&mut self.brush);
                }
            }
            _ => {}
        }
        let (painted, units_changed) = (stroke.cells.len() > cells_before, stroke.units != units_before);
        if let Some(active) = &mut self.active {
            active.stroke = stroke;
        }
        if painted {
            self.painted(cells_before);
        } else if units_changed {
            // Units are drawn over the texture: only validation follows them.
            self.revision += 1;
        }
    }

    fn finish_stroke(&mut self) {
        let Some(mut active) = self.active.take() else { return };
        if self.tool == Tool::Rect {
            let ink = self.brush.ink;
            self.draft.rect(active.start, active.last, ink, &mut active.stroke);
        }
        if !active.stroke.is_empty() {
            let rect_cells = self.tool == Tool::Rect;
            self.history.push(Edit::Stroke(active.stroke));
            if rect_cells {
                self.changed();
            } else {
                // The strokes' cells are on the texture already.
                self.revision += 1;
            }
        }
    }

    /// Handles Edit mode's keys.
    pub fn shortcuts(&mut self, ctx: &egui::Context) -> Option<EditAction> {
        if ctx.egui_wants_keyboard_input() {
            return None;
        }
        use egui::{Key, KeyboardShortcut, Modifiers};
        let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
        let redo_z = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        // The window turns Ctrl+C, X and V into copy, cut and paste events; tests press keys.
        let clipboard = |i: &mut egui::InputState, key: Key, event: fn(&egui::Event) -> bool| {
            i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, key)) || i.events.iter().any(event)
        };
        if ctx.input_mut(|i| clipboard(i, Key::C, |e| matches!(e, egui::Event::Copy))) {
            self.copy_or_cut(ctx, false);
        } else if ctx.input_mut(|i| clipboard(i, Key::X, |e| matches!(e, egui::Event::Cut))) {
            self.copy_or_cut(ctx, true);
        } else if ctx.input_mut(|i| {
            clipboard(i, Key::V, |e| matches!(e, egui::Event::Paste(_) | egui::Event::PasteImage(_)))
        }) {
            self.paste();
        } else if ctx.input_mut(|i| i.consume_shortcut(&redo_z) || i.consume_shortcut(&redo_y)) {
            self.redo();
        } else if ctx.input_mut(|i| i.consume_shortcut(&undo)) {
            self.undo();
        } else if ctx.input_mut(|i| i.consume_shortcut(&save)) {
            return self.save_or_ask();
        } else {
            for (tool, _, key) in Tool::ALL {
                if ctx.input(|i| i.key_pressed(key) && i.modifiers.is_none()) {
                    self.tool = tool;
                }
            }
        }
        None
    }

    fn save_or_ask(&mut self) -> Option<EditAction> {
        self.finish_stroke();
        Some(match self.path.clone() {
            Some(p) => EditAction::Save(p),
            None => EditAction::SaveAs,
        })
    }

    /// Draws Edit mode: the tool panel and the canvas. `error` receives messages for the
    /// window's error line.
    pub fn ui(&mut self, ui: &mut egui::Ui, error: &mut Option<String>) -> Option<EditAction> {
        let mut action = None;
        egui::Panel::left("edit-tools").resizable(true).default_size(330.0).show(ui, |ui| {
            egui::ScrollArea::vertical().id_salt("edit-tools-scroll").show(ui, |ui| {
                action = self.panel(ui, error);
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            self.canvas_ui(ui);
        });
        action
    }

    fn panel(&mut self, ui: &mut egui::Ui, error: &mut Option<String>) -> Option<EditAction> {
        let mut action = None;
        ui.heading("Edit");
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.history.can_undo(), egui::Button::new("Undo edit"))
                .on_hover_text("Ctrl+Z")
                .clicked()
            {
                self.undo();
            }
            if ui
                .add_enabled(self.history.can_redo(), egui::Button::new("Redo edit"))
                .on_hover_text("Ctrl+Shift+Z or Ctrl+Y")
                .clicked()
            {
                self.redo();
            }
        });
        // For a game written as text Ctrl+S saves the game (its source), not the level.
        let source_game = self.draft.game().game_source(&self.draft.settings).is_some();
        let saves_level = if source_game && (self.imported_from.is_some() || self.path.is_none()) {
            "Save the level as a level file (Ctrl+S saves the game's source)"
        } else {
            "Ctrl+S"
        };
        ui.horizontal(|ui| {
            if ui.button("Save level").on_hover_text(saves_level).clicked() {
                action = self.save_or_ask();
            }
            if ui.button("Save level as…").clicked() {
                action = Some(EditAction::SaveAs);
            }
        });
        if let Some(p) = &self.imported_from
            && self.draft.game().game_source(&self.draft.settings).is_some()
        {
            let hover = format!("Ctrl+S: write the rules and this level into {}", p.display());
            if ui.button("Save game source").on_hover_text(hover).clicked() {
                let said = self.save_game_source().unwrap_or_else(|e| format!("not saved: {e}"));
                self.say(said);
            }
        }
        ui.horizontal(|ui| {
            if self.uses_seed() {
                let label = ui.label("Play seed");
                ui.add(egui::DragValue::new(&mut self.play_seed)).labelled_by(label.id);
            }
            let problem = self.problem().map(|p| p.message.clone());
            let play = ui.add_enabled(problem.is_none(), egui::Button::new("Play this level"));
            let play = match &problem {
                None => play.on_hover_text("Play the painted board; Edit keeps it as it is"),
                Some(p) => play.on_disabled_hover_text(format!("It does not play yet: {p}")),
            };
            if play.clicked() {
                self.finish_stroke();
                action = Some(EditAction::Play(self.draft.to_level(), self.play_seed));
            }
        });
        self.validation_ui(ui, error);
        ui.separator();
        ui.label("Tool");
        ui.horizontal_wrapped(|ui| {
            for (tool, label, key) in Tool::ALL {
                ui.selectable_value(&mut self.tool, tool, label).on_hover_text(format!("key {}", key.name()));
            }
        });
        if self.tool == Tool::Select {
            ui.horizontal(|ui| {
                let selected = self.selection().is_some();
                if ui.add_enabled(selected, egui::Button::new("Copy")).on_hover_text("Ctrl+C").clicked() {
                    self.copy_or_cut(ui.ctx(), false);
                }
                if ui.add_enabled(selected, egui::Button::new("Cut")).on_hover_text("Ctrl+X").clicked() {
                    self.copy_or_cut(ui.ctx(), true);
                }
                let can_paste = selected && self.clip.is_some();
                if ui.add_enabled(can_paste, egui::Button::new("Paste")).on_hover_text("Ctrl+V").clicked() {
                    self.paste();
                }
            });
            ui.weak("Drag over cells to select them. Paste puts the copy at the selected top-left cell.");
        }
        ui.separator();
        self.palette_ui(ui);
        ui.separator();
        let game = self.draft.game();
        if let Some(r) = game.levels_ui(ui, &self.draft) {
            match r {
                Ok(after) => {
                    let after = crate::draft::Draft::of_sketch(game, after);
                    self.finish_stroke();
                    // Another level of the game picked, its text the same: nothing to save
                    // (unless the draft is a level file, which names its level).
                    let same_text =
                        game.game_source(&after.to_level()) == game.game_source(&self.draft.to_level());
                    if same_text && self.path.is_none() {
                        self.switch(after);
                    } else {
                        self.replace(after, false);
                    }
                    self.after_undo_redo();
                    self.canvas.view.fit();
                }
                Err(e) => self.say(format!("levels: {e}")),
            }
        }
        let mut rebuilt = false;
        egui::CollapsingHeader::new("Settings")
            .default_open(true)
            .show(ui, |ui| rebuilt = self.settings_ui(ui));
        if rebuilt && self.problem().is_none() {
            // New rules: Play restarts with them.
            action = Some(EditAction::Play(self.draft.to_level(), self.play_seed));
        }
        egui::CollapsingHeader::new("Size").default_open(true).show(ui, |ui| self.size_ui(ui, error));
        egui::CollapsingHeader::new("New level")
            .default_open(false)
            .show(ui, |ui| self.new_level_ui(ui, error));
        egui::CollapsingHeader::new("Difficulty").default_open(false).show(ui, |ui| {
            let playable = self.problem().is_none();
            let uses_seed = self.uses_seed();
            let (draft, revision) = (&self.draft, self.revision);
            self.difficulty.ui(ui, draft.rule_set(), &|| draft.to_level(), revision, playable, uses_seed);
        });
        action
    }

    /// Whether the draft plays, or every problem listed with its cell, in a box of fixed height
    /// (scrolling past [`PROBLEM_LINES`] lines), so nothing under it moves as problems come and
    /// go.
    fn validation_ui(&mut self, ui: &mut egui::Ui, error: &mut Option<String>) {
        let problems = self.problems().to_vec();
        let height = PROBLEM_LINES as f32 * ui.text_style_height(&egui::TextStyle::Body)
            + (PROBLEM_LINES - 1) as f32 * ui.spacing().item_spacing.y;
        let width = ui.available_width();
        ui.allocate_ui_with_layout(vec2(width, height), egui::Layout::top_down(egui::Align::Min), |ui| {
            ui.set_min_size(vec2(width, height));
            egui::ScrollArea::vertical()
                .id_salt("problems")
                .max_height(height)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    let Some(first) = problems.first() else {
                        ui.colored_label(Color32::from_rgb(0x6a, 0xc0, 0x6a), "Playable");
                        if self.draft.board_from_seed() {
                            ui.label(NO_FIXED_BOARD);
                        }
                        return;
                    };
                    let heading = match problems.len() {
                        1 => "Not playable (it can still be saved as a draft):".to_string(),
                        n => format!("Not playable, {n} problems (it can still be saved as a draft):"),
                    };
                    ui.colored_label(ui.visuals().error_fg_color, heading);
                    for p in &problems {
                        ui.label(format!("• {}", p.message));
                    }
                    let shuffle_helps = self.draft.game().shuffle_helps(&self.draft, first);
                    if shuffle_helps
                        && ui
                            .button("Fix by shuffling")
                            .on_hover_text("Shuffle the fixed blocks until it plays")
                            .clicked()
                        && let Err(e) = self.fix_by_shuffling()
                    {
                        *error = Some(e);
                    }
                });
        });
    }

    /// The rule set's palette: a button for each of its inks (its sprite, when the rule set
    /// draws inks as pixel art), then its own fields.
    fn palette_ui(&mut self, ui: &mut egui::Ui) {
        ui.label("Palette");
        let game = self.draft.game();
        let entries: Vec<PaletteInk> = game.palette(&self.draft.settings, &self.brush);
        let art = game.ink_art(&self.draft.settings);
        let mut chose = false;
        ui.horizontal_wrapped(|ui| {
            for entry in &entries {
                let sprite =
                    art.as_ref().and_then(|a| a.inks.get(&entry.ink).map(|px| (px.as_slice(), a.side)));
                chose |= games::ink_button(ui, &mut self.brush, entry, sprite);
            }
        });
        chose |= game.palette_fields_ui(ui, &self.draft, &mut self.brush);
        if chose && (self.tool == Tool::Erase || self.tool == Tool::Pick) {
            self.tool = Tool::Paint;
        }
    }

    /// The settings panel; true when the change is new rules Play restarts with.
    fn settings_ui(&mut self, ui: &mut egui::Ui) -> bool {
        // The settings only: cloning the whole draft each frame would copy every cell.
        let game = self.draft.game();
        let (mut name_v, mut seed_v, mut settings) =
            (self.draft.name.clone(), self.draft.seed, self.draft.settings.clone());
        ui.horizontal(|ui| {
            let label = ui.label("Name");
            let mut name = name_v.clone().unwrap_or_default();
            if ui.text_edit_singleline(&mut name).labelled_by(label.id).changed() {
                name_v = (!name.is_empty()).then_some(name);
            }
        });
        if self.uses_seed() {
            ui.horizontal(|ui| {
                let mut has = seed_v.is_some();
                let cb = ui.checkbox(&mut has, "Level seed");
                let mut seed = seed_v.unwrap_or(0);
                ui.add_enabled(has, egui::DragValue::new(&mut seed)).labelled_by(cb.id);
                seed_v = has.then_some(seed);
            });
        }
        let remap = game.settings_ui(ui, &mut settings);
        let changed = name_v != self.draft.name
            || seed_v != self.draft.seed
            || settings != self.draft.settings
            || remap.is_some();
        let rebuilt = changed && game.restarts_play(&self.draft.settings, &settings);
        if changed {
            let mut d = self.draft.clone();
            let sketch = d.sketch_mut();
            (sketch.name, sketch.seed, sketch.settings) = (name_v, seed_v, settings);
            if let Some(f) = remap {
                d.remap(&f);
                // The brush follows its ink too (a renamed tactics glyph).
                self.brush.ink = f(self.brush.ink);
            }
            if !d.accepts(self.brush.ink) {
                self.brush.ink = d.blank();
            }
            self.replace(d, true);
        } else if !ui.input(|i| i.pointer.any_down()) && !ui.ctx().egui_wants_keyboard_input() {
            // The drag or the typing that changed settings is over: the next change is a new step.
            self.history.seal();
        }
        rebuilt
    }

    fn size_ui(&mut self, ui: &mut egui::Ui, error: &mut Option<String>) {
        let max = max_side(self.draft.rule_set());
        ui.horizontal(|ui| {
            let l = ui.label("Width");
            ui.add(egui::DragValue::new(&mut self.resize.0).range(1..=max)).labelled_by(l.id);
            let l = ui.label("Height");
            ui.add(egui::DragValue::new(&mut self.resize.1).range(1..=max)).labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            ui.label("Keep");
            ui.selectable_value(&mut self.anchor, Anchor::TopLeft, "top-left");
            ui.selectable_value(&mut self.anchor, Anchor::Centre, "centre");
            if ui.button("Resize").clicked()
                && let Err(e) = self.resize(self.resize.0, self.resize.1, self.anchor)
            {
                *error = Some(e);
            }
        });
        if !self.uses_seed() {
            return;
        }
        ui.horizontal(|ui| {
            let l = ui.label("Random seed");
            ui.add(egui::DragValue::new(&mut self.random_seed)).labelled_by(l.id);
            if ui
                .button("Randomize")
                .on_hover_text("Fill the board from the rule set's own generator")
                .clicked()
                && let Err(e) = self.randomize(self.random_seed)
            {
                *error = Some(format!("randomize: {e}"));
            }
        });
    }

    fn new_level_ui(&mut self, ui: &mut egui::Ui, error: &mut Option<String>) {
        ui.horizontal_wrapped(|ui| {
            for g in games::ALL {
                let r = g.rule_set();
                ui.selectable_value(&mut self.new_level.0, r, r.name());
            }
        });
        let max = max_side(self.new_level.0);
        ui.horizontal(|ui| {
            let l = ui.label("New width");
            ui.add(egui::DragValue::new(&mut self.new_level.1).range(1..=max)).labelled_by(l.id);
            let l = ui.label("New height");
            ui.add(egui::DragValue::new(&mut self.new_level.2).range(1..=max)).labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.label("New seed");
            ui.add(egui::DragValue::new(&mut self.new_level.3)).labelled_by(l.id);
        });
        if ui.button("Create level").on_hover_text("Options are in Settings once it exists").clicked() {
            let (r, w, h, s) = self.new_level;
            if let Err(e) = self.new_level(r, w, h, s) {
                *error = Some(e);
            }
        }
    }

    fn canvas_ui(&mut self, ui: &mut egui::Ui) {
        let size = self.draft.size();
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, palette::BACKGROUND);
        let origin = self.canvas.view.update(ui, &response, rect, size);
        let cell = self.canvas.view.cell_size();
        let cell_of = |p: Pos2| -> Option<Pos> {
            let v = (p - origin) / cell;
            (v.x >= 0.0 && v.y >= 0.0 && v.x < f32::from(size.width) && v.y < f32::from(size.height))
                .then(|| Pos::new(v.x as u16, v.y as u16))
        };

        // Input: primary presses paint; the stroke ends when the button is released. Only a
        // press on the canvas itself starts a stroke, where it went down: not one on a dialog
        // over it (Cancel's click reached the cell under it, issue 36.1), nor one that began
        // elsewhere (a side panel's edge) and moved over the board within the frame.
        let (press, released, down, pointer) = ui.input(|i| {
            let press = i.events.iter().find_map(|e| match e {
                egui::Event::PointerButton {
                    pos,
                    button: egui::PointerButton::Primary,
                    pressed: true,
                    ..
                } => Some(*pos),
                _ => None,
            });
            (press, i.pointer.primary_released(), i.pointer.primary_down(), i.pointer.interact_pos())
        });
        let on_canvas = |p: &Pos2| rect.contains(*p) && ui.ctx().layer_id_at(*p) == Some(ui.layer_id());
        self.hovered = pointer.filter(on_canvas).and_then(cell_of);
        if let Some(p) = press.filter(on_canvas).and_then(cell_of) {
            self.finish_stroke();
            self.active = Some(Active { stroke: Stroke::default(), start: p, last: p });
            self.tool_at(p, true);
        }
        if self.active.is_some()
            && (down || released)
            && let Some(p) = pointer.map(|p| {
                // Clamp to the board so a drag past its edge paints up to the edge.
                let v = (p - origin) / cell;
                let x = v.x.clamp(0.0, f32::from(size.width) - 0.5) as u16;
                let y = v.y.clamp(0.0, f32::from(size.height) - 0.5) as u16;
                Pos::new(x, y)
            })
            && self.active.as_ref().is_some_and(|a| a.last != p)
        {
            self.tool_at(p, false);
        }
        if released || (!down && self.active.is_some()) {
            self.finish_stroke();
        }

        // The board: one texture, then detail when cells are big enough.
        let tex = self.texture(ui.ctx());
        let (w, h) = (f32::from(size.width), f32::from(size.height));
        let board = Rect::from_min_size(origin, vec2(w * cell, h * cell));
        painter.image(tex, board, Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)), Color32::WHITE);
        let (x0, x1, y0, y1) = self.canvas.view.visible(rect, origin, size);
        let cell_rect = |p: Pos| {
            Rect::from_min_size(origin + vec2(f32::from(p.x), f32::from(p.y)) * cell, Vec2::splat(cell))
        };
        // How each ink is drawn, asked once per ink a frame.
        let mut looks: HashMap<Ink, InkLook> = HashMap::new();
        let game = self.draft.game();
        if cell >= 8.0 {
            let grid = Line::new(1.0, palette::BACKGROUND);
            for x in x0..=x1 {
                let sx = origin.x + f32::from(x) * cell;
                painter.line_segment(
                    [pos2(sx, origin.y + f32::from(y0) * cell), pos2(sx, origin.y + f32::from(y1) * cell)],
                    grid,
                );
            }
            for y in y0..=y1 {
                let sy = origin.y + f32::from(y) * cell;
                painter.line_segment(
                    [pos2(origin.x + f32::from(x0) * cell, sy), pos2(origin.x + f32::from(x1) * cell, sy)],
                    grid,
                );
            }
        }
        // Pixel art shows what a cell holds: no letter over it.
        if cell >= 14.0 && !self.draws_art() {
            let font = FontId::monospace((cell * 0.42).min(22.0));
            for y in y0..y1 {
                for x in x0..x1 {
                    let p = Pos::new(x, y);
                    let Some(ink) = self.draft.ink(p) else { continue };
                    let r = cell_rect(p);
                    let look = looks.entry(ink).or_insert_with(|| game.look(&self.draft.settings, ink));
                    let Some(label) = look.mark.clone() else { continue };
                    if look.framed {
                        painter.rect_stroke(
                            r.shrink(cell * 0.12),
                            3.0,
                            Line::new(2.0, Color32::WHITE),
                            StrokeKind::Inside,
                        );
                    }
                    let colour = look.mark_colour.unwrap_or_else(|| text_on(look.fill));
                    painter.text(r.center(), Align2::CENTER_CENTER, label, font.clone(), colour);
                }
            }
        }
        for (id, u) in self.draft.units().iter().enumerate() {
            let p = Pos::new(u.x, u.y);
            if u.x < x0 || u.x >= x1 || u.y < y0 || u.y >= y1 {
                continue;
            }
            let r = cell_rect(p);
            let radius = (cell * 0.38).max(1.5);
            painter.circle(r.center(), radius, palette::hue(u.team), Line::new(1.5, Color32::WHITE));
            if cell >= 14.0 {
                painter.text(
                    r.center(),
                    Align2::CENTER_CENTER,
                    id.to_string(),
                    FontId::proportional(cell * 0.38),
                    Color32::WHITE,
                );
            }
        }
        if self.draft.board_from_seed() {
            // The canvas is empty, but the level is not: say why.
            painter.text(
                board.center(),
                Align2::CENTER_CENTER,
                NO_FIXED_BOARD,
                FontId::proportional(14.0),
                Color32::from_gray(0xd0),
            );
        }
        // The problem's cell, the rectangle being dragged, the hovered cell.
        let cells: Vec<Pos> = self.problems().iter().filter_map(|p| p.cell).collect();
        for p in cells.into_iter().filter(|&p| size.contains(p)) {
            painter.rect_stroke(
                cell_rect(p).expand(1.0),
                2.0,
                Line::new(3.0, Color32::from_rgb(0xff, 0x30, 0x30)),
                StrokeKind::Outside,
            );
        }
        if self.tool == Tool::Rect
            && let Some(a) = &self.active
        {
            let r = cell_rect(a.start).union(cell_rect(a.last));
            painter.rect_stroke(r, 0.0, Line::new(2.0, palette::HIGHLIGHT), StrokeKind::Inside);
        }
        if self.tool == Tool::Select
            && let Some((lo, hi)) = self.selection()
        {
            // Where a paste would land, then the selection itself.
            if let Some(clip) = &self.clip {
                let end = Pos::new(
                    (lo.x + clip.width - 1).min(size.width - 1),
                    (lo.y + clip.height - 1).min(size.height - 1),
                );
                let r = cell_rect(lo).union(cell_rect(end));
                painter.rect_stroke(
                    r,
                    0.0,
                    Line::new(1.0, palette::HIGHLIGHT.gamma_multiply(0.6)),
                    StrokeKind::Outside,
                );
            }
            let r = cell_rect(lo).union(cell_rect(hi));
            painter.rect_stroke(r, 0.0, Line::new(2.0, palette::HIGHLIGHT), StrokeKind::Inside);
        }
        if let Some(p) = self.hovered {
            painter.rect_stroke(cell_rect(p), 0.0, Line::new(1.5, palette::SELECTED), StrokeKind::Inside);
        }
    }

    fn texture(&mut self, ctx: &egui::Context) -> egui::TextureId {
        if let Some((_, tex)) = &self.canvas.texture
            && !self.canvas.remake
            && self.canvas.painted.is_none()
        {
            return tex.id();
        }
        let (game, settings) = (self.draft.game(), &self.draft.settings);
        // A rule set with pixel art (PuzzleScript's sprites) draws each cell as `side`×`side`
        // texels; the others a texel per cell, in the colour the rule set gives each ink (asked
        // once per ink).
        let art = game.ink_art(settings);
        let mut fills: HashMap<Ink, Color32> = HashMap::new();
        let mut last: Option<(Ink, Color32)> = None;
        let side = art.as_ref().map_or(1, |a| a.side.max(1));
        let size = self.draft.size();
        let dims = [usize::from(size.width) * side, usize::from(size.height) * side];
        // The texels of columns `lo.x..=hi.x` and rows `lo.y..=hi.y`.
        let mut texels = |lo: Pos, hi: Pos| -> ColorImage {
            let (w, h) = (usize::from(hi.x - lo.x) + 1, usize::from(hi.y - lo.y) + 1);
            let stride = w * side;
            let mut pixels = vec![Color32::BLACK; stride * h * side];
            for y in lo.y..=hi.y {
                for x in lo.x..=hi.x {
                    let ink = self.draft.ink(Pos::new(x, y));
                    let at = usize::from(y - lo.y) * side * stride + usize::from(x - lo.x) * side;
                    let block = ink.and_then(|i| art.as_ref()?.inks.get(&i));
                    for row in 0..side {
                        let out = &mut pixels[at + row * stride..at + row * stride + side];
                        match block {
                            Some(px) => out.copy_from_slice(&px[row * side..row * side + side]),
                            None => {
                                // Neighbouring cells mostly hold the same ink: the last one's
                                // colour first, then the map.
                                let colour = match (ink, last) {
                                    (None, _) => Color32::BLACK,
                                    (Some(c), Some((l, colour))) if l == c => colour,
                                    (Some(c), _) => {
                                        let colour =
                                            *fills.entry(c).or_insert_with(|| game.look(settings, c).fill);
                                        last = Some((c, colour));
                                        colour
                                    }
                                };
                                out.fill(colour);
                            }
                        }
                    }
                }
            }
            ColorImage {
                size: [stride, h * side],
                pixels,
                source_size: vec2(stride as f32, (h * side) as f32),
            }
        };
        if !self.canvas.remake
            && let Some((lo, hi)) = self.canvas.painted.take()
            && let Some((rev, tex)) = &mut self.canvas.texture
            && tex.size() == dims
        {
            let image = texels(lo, hi);
            let at = [usize::from(lo.x) * side, usize::from(lo.y) * side];
            tex.set_partial(at, image, TextureOptions::NEAREST);
            *rev = self.revision;
            return tex.id();
        }
        self.canvas.remake = false;
        self.canvas.painted = None;
        let image = texels(Pos::new(0, 0), Pos::new(size.width - 1, size.height - 1));
        match &mut self.canvas.texture {
            Some((rev, tex)) if tex.size() == dims => {
                tex.set(image, TextureOptions::NEAREST);
                *rev = self.revision;
                tex.id()
            }
            _ => {
                let tex = ctx.load_texture("tessera-draft", image, TextureOptions::NEAREST);
                let id = tex.id();
                self.canvas.texture = Some((self.revision, tex));
                id
            }
        }
    }

    /// Whether the canvas draws the draft's cells as the rule set's pixel art (for tests).
    pub fn draws_art(&self) -> bool {
        self.draft.game().ink_art(&self.draft.settings).is_some()
    }
}
