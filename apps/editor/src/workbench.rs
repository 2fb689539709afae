//! [`Workbench`]: the source pane of a game written as text (PuzzleScript), beside the board
//! in Edit, Play and Debug — a split the designer drags (its width kept between runs), the
//! full height of the window, a [`SourceEditor`] under a bar of Rebuild (Ctrl+Enter), Auto
//! rebuild (after a pause in typing), Revert, Undo and Redo of the text, Find and Go to line.
//!
//! It shows Edit's game: the draft's source with the painted level's rows in it, followed as
//! the draft changes while nothing is typed. A rebuild compiles the text: errors and warnings
//! go to their lines (and to the console, by the app); a game that builds is answered
//! ([`WorkbenchAction::Rebuilt`]) for the app to put into Edit's draft and play.
//!
//! The workbench, for games written as text (PuzzleScript), one file a pane: `workbench.rs`
//! (`Workbench`: the source pane — its bar of Rebuild, Auto rebuild, Revert, Undo/Redo, Find —,
//! following Edit's draft while nothing is typed, compiling on rebuild into `Mark`s),
//! `source_editor.rs` (`SourceEditor`: the code editor widget — gutter, colours from a layout kept
//! until the text or marks change, marks with hover and click, find, go to line — and `layout_job`;
//! answers a clicked token, the hook for acting on a word of the source), `syntax.rs` (the
//! tokenizer into the reference's token classes, pure code; benchmark `benches/source.rs`),
//! `console.rs` (`Console`: lines from `EditorGame::console_lines`, links to source lines).
//! `app/workbench.rs` places them (`workbench_ui`: the pane left, full height, its width in
//! `Settings`; the console at the bottom) and carries out a rebuild (`EditorApp::rebuilt`: into
//! Edit's draft by `EditView::rebuild_with`, then Play; Hint keys its solutions by the rules'
//! source, the Difficulty panel forgets, Debug's log is marked). The example games of File → New
//! game are `games/puzzlescript/examples/*.txt`.

use crate::source_editor::{ClickedToken, Mark, SourceEditor};

/// The pause in typing after which Auto rebuild rebuilds, in seconds.
pub const AUTO_PAUSE: f64 = 0.8;

/// What the workbench asks the app to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkbenchAction {
    /// The text built: the new source for Edit's draft, to play.
    Rebuilt(String),
    /// The text did not build (the marks say why): for the console.
    Failed,
    /// A token of the source was clicked (a sound's seed, an object's name).
    Token(ClickedToken),
    /// The text that failed to build is back to the source as built (typed back, or
    /// Revert): its errors are gone.
    BackToBuilt,
}

/// The source pane.
pub struct Workbench {
    editor: SourceEditor,
    /// The source the text started from (Edit's, as last seen): the text differs from it while
    /// typing is not rebuilt.
    base: String,
    /// Edit's revision when `base` was last read.
    revision: Option<u64>,
    /// Rebuild after a pause in typing.
    pub auto: bool,
    /// When the text last changed (egui time), for Auto rebuild.
    typed_at: Option<f64>,
    /// What the last rebuild said, for the bar.
    said: Option<String>,
    /// The last rebuild failed (its error marks show until the text builds, or is back to the
    /// source as built).
    failed: bool,
    /// The warnings of the source as built, shown again when the text is back to it.
    built_marks: Vec<Mark>,
    /// The text as typed that Ctrl+S last wrote to the game's file while it did not build.
    saved_typing: Option<String>,
}

impl Default for Workbench {
    fn default() -> Self {
        Workbench {
            editor: SourceEditor::new(egui::Id::unique("workbench-source"), String::new()),
            base: String::new(),
            revision: None,
            auto: false,
            typed_at: None,
            said: None,
            saved_typing: None,
            failed: false,
            built_marks: Vec::new(),
        }
    }
}

/// The message at the `(` of a comment never closed.
pub const UNCLOSED_COMMENT: &str = "This '(' opens a comment that is never closed: comments nest, each '(' needs its ')', so everything after it is a comment.";

/// A compiler message in plain words where the reference's is a joke; others as they are.
pub fn plain_words(message: &str) -> String {
    const JOKES: &[(&str, &str)] = &[
        ("  What am I supposed to do with this, eh, please tell me that.", ""),
        ("What am I supposed to do with this, eh, please tell me that.", ""),
        (
            "Multiple opening brackets without closing brackets.  Something fishy here.  Every '[' has to be closed by a ']', and you can't nest them.",
            "A '[' is not closed: each '[' needs its ']', and brackets do not nest.",
        ),
        (
            "Multiple closing brackets without corresponding opening brackets.  Something fishy here.  Every '[' has to be closed by a ']', and you can't nest them.",
            "A ']' closes no '[': each '[' needs its ']', and brackets do not nest.",
        ),
        (
            "Oh gosh you can mix late and non-late rules in a rule-group if you really want to, but gosh why would you want to do that?  What do you expect to accomplish?",
            "This rule group mixes late and non-late rules.",
        ),
        (
            " inside square brackets.  It's used to separate states, it has no place inside them >:| .",
            " inside square brackets: it separates a rule's two sides, outside the brackets.",
        ),
        (
            "This rule refers to nothing.  What the heck? :O",
            "This rule names no object: its cells are all empty, so it can match nothing.",
        ),
        (
            "You can't have anything in with an ellipsis. Sorry.",
            "Nothing can share a cell with an ellipsis (...).",
        ),
    ];
    let mut out = message.to_string();
    for (joke, plain) in JOKES {
        out = out.replace(joke, plain);
    }
    out.trim_end().to_string()
}

impl Workbench {
    /// The text being edited.
    pub fn text(&self) -> &str {
        &self.editor.text
    }

    /// Replaces the text (what typing would do), keeping what it started from.
    pub fn set_text(&mut self, text: &str) {
        self.editor.text = text.to_string();
        self.typed_at = None;
    }

    /// Whether the text has typing not rebuilt.
    pub fn unbuilt(&self) -> bool {
        self.editor.text != self.base
    }

    /// Whether the text has typing that is neither rebuilt nor saved as typed (Ctrl+S while
    /// it does not build).
    pub fn unsaved_typing(&self) -> bool {
        self.unbuilt() && self.saved_typing.as_deref() != Some(self.editor.text.as_str())
    }

    /// Records that the text as it is now was written to the game's file.
    pub fn saved_as_typed(&mut self) {
        self.saved_typing = Some(self.editor.text.clone());
    }

    /// The source editor.
    pub fn editor(&self) -> &SourceEditor {
        &self.editor
    }

    /// The source editor, to change (find, go to a line).
    pub fn editor_mut(&mut self) -> &mut SourceEditor {
        &mut self.editor
    }

    /// The errors and warnings at their lines.
    pub fn marks(&self) -> &[Mark] {
        self.editor.marks()
    }

    /// Follows Edit's source: when the draft changed (`revision`), the text becomes the draft's
    /// source (`source()`, asked only then: the text and the index of the level Edit shows).
    /// With typing not rebuilt, the typing stays and only the level's rows painted in Edit are
    /// put into it (when the text still reads as a game; else it is left as typed).
    pub fn follow(&mut self, revision: u64, source: impl FnOnce() -> Option<(String, usize)>) {
        if self.revision == Some(revision) {
            return;
        }
        self.revision = Some(revision);
        let Some((source, level)) = source() else { return };
        if source == self.base {
            return;
        }
        if !self.unbuilt() {
            self.editor.text = source.clone();
            self.editor.set_marks(Vec::new());
        } else if let Ok(rows) = tessera_core::puzzlescript::level_rows(&source, level)
            && let Ok(text) = tessera_core::puzzlescript::with_level_rows(&self.editor.text, level, &rows)
        {
            self.editor.text = text;
        }
        self.base = source;
    }

    /// Forgets the text: the next [`Workbench::follow`] reads Edit's source anew (another game
    /// or level was opened in Edit).
    pub fn forget(&mut self) {
        self.revision = None;
        self.base.clear();
        self.editor.text.clear();
        self.editor.set_marks(Vec::new());
        self.said = None;
        self.typed_at = None;
        self.failed = false;
        self.built_marks.clear();
    }

    /// Starts over on `source` (another game opened): its text, no marks, nothing typed.
    pub fn reset(&mut self, source: &str) {
        self.base = source.to_string();
        self.editor.text = source.to_string();
        self.editor.set_marks(Vec::new());
        self.said = None;
        self.typed_at = None;
        self.failed = false;
        self.built_marks.clear();
    }

    /// Compiles the text with `level` (the index of the level edited) as the level to play: the
    /// game's errors and warnings become the marks; the new source when it builds.
    pub fn rebuild(&mut self, level: usize) -> WorkbenchAction {
        use tessera_core::puzzlescript::engine;
        self.typed_at = None;
        match engine::compile(&self.editor.text) {
            Err(diags) => {
                let errors = diags.iter().filter(|d| d.is_error).count();
                self.editor.set_marks(marks_of(&self.editor.text, &diags, true));
                self.said = Some(format!("{errors} error(s): nothing rebuilt"));
                self.failed = true;
                // The first error in view (the cursor stays where it is).
                let first =
                    self.editor.marks().iter().filter(|m| m.error && m.line > 0).map(|m| m.line).min();
                if let Some(line) = first {
                    self.editor.show_line(line);
                }
                WorkbenchAction::Failed
            }
            Ok(game) => {
                let mut marks = marks_of(&self.editor.text, game.warnings(), false);
                if tessera_core::puzzlescript::entry_of(&game, level).is_none() {
                    let message = format!("the game has no level {} (the one Edit shows)", level + 1);
                    marks.push(Mark { line: 0, column: 0, width: 0, message, error: true });
                    self.editor.set_marks(marks);
                    self.said = Some(format!("no level {}: nothing rebuilt", level + 1));
                    self.failed = true;
                    return WorkbenchAction::Failed;
                }
                let warnings = marks.len();
                self.built_marks = marks.clone();
                self.failed = false;
                self.editor.set_marks(marks);
                self.base = self.editor.text.clone();
                self.said = Some(match warnings {
                    0 => "rebuilt".into(),
                    n => format!("rebuilt, {n} warning(s)"),
                });
                WorkbenchAction::Rebuilt(self.editor.text.clone())
            }
        }
    }

    /// Starts over on `source`, a game opened that does not build: its errors marked (they
    /// stay until a rebuild builds; Revert comes back to this text and its errors), the first
    /// shown, and what to tell the console.
    pub fn open_failing(&mut self, source: &str) -> Vec<Mark> {
        self.reset(source);
        let Err(diags) = tessera_core::puzzlescript::engine::compile(source) else { return Vec::new() };
        let marks = marks_of(source, &diags, true);
        let errors = marks.iter().filter(|m| m.error).count();
        self.built_marks = marks.clone();
        self.editor.set_marks(marks.clone());
        self.said = Some(format!("{errors} error(s): the game does not build yet"));
        if let Some(line) = marks.iter().filter(|m| m.error && m.line > 0).map(|m| m.line).min() {
            self.editor.go_to_line(line);
        }
        marks
    }

    /// Puts the cursor on `line` and shows it.
    pub fn go_to_line(&mut self, line: usize) {
        self.editor.go_to_line(line);
    }

    /// The pane: the bar, then the editor filling the rest. `level`: the index of the level
    /// Edit shows (the one a rebuild plays).
    pub fn ui(&mut self, ui: &mut egui::Ui, level: usize) -> Option<WorkbenchAction> {
        let now = ui.input(|i| i.time);
        let shortcut = egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Enter);
        let mut rebuild = ui.input_mut(|i| i.consume_shortcut(&shortcut));
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            rebuild |=
                ui.button("Rebuild").on_hover_text("Ctrl+Enter: compile the rules and play them").clicked();
            ui.checkbox(&mut self.auto, "Auto rebuild")
                .on_hover_text(format!("Rebuild {AUTO_PAUSE} s after typing stops"));
            if ui
                .add_enabled(self.unbuilt(), egui::Button::new("Revert"))
                .on_hover_text("Back to the source as built")
                .clicked()
            {
                self.editor.text = self.base.clone();
            }
            let id = self.editor.text_id();
            let state = egui::TextEdit::load_state(ui.ctx(), id);
            let current = state.as_ref().and_then(|s| s.cursor.char_range()).unwrap_or_default();
            let undoer = state.as_ref().map(egui::text_edit::TextEditState::undoer);
            let now_state = (current, self.editor.text.clone());
            let can_undo = undoer.as_ref().is_some_and(|u| u.has_undo(&now_state));
            let can_redo = undoer.as_ref().is_some_and(|u| u.has_redo(&now_state));
            let undo = ui
                .add_enabled(can_undo, egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z in the text: its typing, not the level's edits");
            let redo =
                ui.add_enabled(can_redo, egui::Button::new("Redo")).on_hover_text("Ctrl+Shift+Z in the text");
            if (undo.clicked() || redo.clicked())
                && let (Some(mut state), Some(mut u)) = (state, undoer)
            {
                let back =
                    if undo.clicked() { u.undo(&now_state).cloned() } else { u.redo(&now_state).cloned() };
                if let Some((cursor, text)) = back {
                    self.editor.text = text;
                    state.cursor.set_char_range(Some(cursor));
                    state.set_undoer(u);
                    state.store(ui.ctx(), id);
                    self.typed_at = Some(now);
                }
            }
            if ui.button("Find").on_hover_text("Ctrl+F").clicked() {
                let q = String::new();
                self.editor.find(&q);
            }
            if let Some(s) = &self.said {
                ui.weak(s);
            }
        });
        // PuzzleScript's sound buttons, above the source as above its console: a new seed of a
        // kind, played at once (app/workbench.rs), put in at the text's cursor on request.
        if let Some(crate::sound_picker::PickerAction::Insert(seed)) = crate::sound_picker::picker_ui(ui) {
            let id = self.editor.text_id();
            let mut state = egui::TextEdit::load_state(ui.ctx(), id).unwrap_or_default();
            let at = state.cursor.char_range().map(|r| usize::from(r.primary.index));
            let (text, after) = crate::sound_picker::insert_at(&self.editor.text, at, &seed);
            self.editor.text = text;
            let c = egui::text::CCursor::new(after);
            state.cursor.set_char_range(Some(egui::text::CCursorRange::one(c)));
            state.store(ui.ctx(), id);
            self.typed_at = Some(now);
        }
        let out = self.editor.ui(ui);
        if out.changed {
            self.typed_at = Some(now);
        }
        if let Some(t) = out.clicked {
            action = Some(WorkbenchAction::Token(t));
        }
        if self.failed && !self.unbuilt() {
            // Back to the source as built: the failed build's errors no longer apply.
            self.failed = false;
            self.editor.set_marks(self.built_marks.clone());
            self.said = None;
            action = Some(WorkbenchAction::BackToBuilt);
        }
        if self.auto
            && let Some(t) = self.typed_at
        {
            if now - t >= AUTO_PAUSE {
                rebuild = self.unbuilt();
                self.typed_at = None;
            } else {
                ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(AUTO_PAUSE - (now - t)));
            }
        }
        if rebuild {
            action = Some(self.rebuild(level));
        }
        action
    }
}

/// The compiler's messages as marks (in plain words, at their word), and an unclosed comment's
/// `(` (an error when `error`: the game does not build).
fn marks_of(text: &str, diags: &[tessera_core::puzzlescript::engine::Diagnostic], error: bool) -> Vec<Mark> {
    let mut marks: Vec<Mark> = diags
        .iter()
        .map(|d| Mark {
            line: d.line,
            column: d.column,
            width: d.width,
            message: plain_words(&d.message),
            error: d.is_error,
        })
        .collect();
    // A comment never closed greys the rest of the file: said at its `(`.
    marks.extend(crate::syntax::unclosed_comment(text).map(|(line, column)| Mark {
        line,
        column,
        width: 1,
        message: UNCLOSED_COMMENT.to_string(),
        error,
    }));
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_joke_messages_read_plainly() {
        let joke = "Error, malformed cell rule - was looking for cell contents, but found \"x\".  What am I supposed to do with this, eh, please tell me that.";
        assert_eq!(
            plain_words(joke),
            "Error, malformed cell rule - was looking for cell contents, but found \"x\"."
        );
        assert_eq!(plain_words("a plain one"), "a plain one");
        let gosh = "Oh gosh you can mix late and non-late rules in a rule-group if you really want to, but gosh why would you want to do that?  What do you expect to accomplish?";
        assert_eq!(plain_words(gosh), "This rule group mixes late and non-late rules.");
    }
}
