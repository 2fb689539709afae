//! [`SourceEditor`]: a game's source text as a code editor — monospace, unwrapped (long lines
//! scroll, never cut), line numbers in a gutter that stays in view when the text scrolls
//! sideways, PuzzleScript's syntax colours ([`crate::syntax`]; the layout is kept until the
//! text or its marks change, so a frame of a 2,000-line game only compares the text), the
//! compiler's errors and warnings at their lines (a mark in the gutter with the messages on
//! hover, the line's words underlined, the messages on hover over the line too), find
//! (Ctrl+F: searched as one types, next and previous, "k of n", Escape back to the text), go
//! to line (Ctrl+G), Tab indents, its own undo and redo (egui's text undo: Ctrl+Z in the text
//! undoes typing, never the level's edits), the line commands of code editors ([`text_ops`]:
//! Ctrl+/ comments, Alt+Up/Down moves lines, Ctrl+D duplicates, Home, Page Up/Down) and
//! autocomplete ([`complete`]: Ctrl+Space, or typing a name).
//!
//! The gutter's line numbers, the marks, hovering and scrolling to a line all read the rows of
//! the galley the text is drawn from (never a row height times a line number, which drifts
//! from the drawn rows as the font's rows are rounded to pixels).
//!
//! A click on a token is answered ([`SourceOutput::clicked`]): the hook for whoever wants to
//! act on a word of the source (a sound's seed played, an object shown).

use crate::syntax::{self, Class, Token};
use crate::{complete, text_ops};
use egui::text::{CCursor, CCursorRange, LayoutJob, TextFormat};
use egui::{Color32, FontId, Galley, Id, Rect, Sense, Stroke, pos2, vec2};
use std::sync::Arc;

/// A compiler message at a line of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The line, from 1 (0: no line).
    pub line: usize,
    /// The column (a character of the line), from 1, best effort (0 or 1 without a width:
    /// the word the message names, else the line's words).
    pub column: usize,
    /// How many characters from the column the message is about (0: the word at the column,
    /// up to a space).
    pub width: usize,
    /// The message, in plain words.
    pub message: String,
    /// An error (the game does not build) rather than a warning.
    pub error: bool,
}

/// A token of the source that was clicked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClickedToken {
    /// Its class (a [`Class::Sound`] is a sound's seed).
    pub class: Class,
    /// Its text.
    pub text: String,
    /// Its line, from 1.
    pub line: usize,
}

/// What a frame of the editor did.
#[derive(Clone, Debug, Default)]
pub struct SourceOutput {
    /// The text changed (typing, undo, redo).
    pub changed: bool,
    /// The token under a click, if a token was clicked.
    pub clicked: Option<ClickedToken>,
}

/// The find bar.
#[derive(Clone, Debug, Default)]
struct Find {
    /// Shown.
    open: bool,
    /// What is looked for (any case).
    query: String,
    /// The match last gone to (an index into the matches).
    current: Option<usize>,
    /// Give the field the keyboard on the next frame.
    focus: bool,
    /// Where the search as one types starts (a character: the cursor when the bar opened).
    from: usize,
}

/// The autocomplete list, open under the cursor.
#[derive(Clone, Debug)]
struct Completion {
    /// Where the word being completed starts (a character).
    start: usize,
    /// What is offered.
    items: Vec<complete::Suggestion>,
    /// The one Enter or Tab puts in.
    chosen: usize,
}

/// The layout kept between frames: made again only when the text, the marks, the font or the
/// theme changes.
struct Layout {
    text: String,
    marks: u64,
    font: FontId,
    dark: bool,
    galley: Arc<Galley>,
    tokens: Vec<Token>,
    /// Each line's row in the galley, top and bottom: the one source the gutter's labels, the
    /// marks, hovering and scrolling all read.
    rows: Vec<(f32, f32)>,
}

/// Each line's row (top, bottom) in `galley`, a line wrapped over several rows as one.
fn line_rows(galley: &Galley) -> Vec<(f32, f32)> {
    let mut out: Vec<(f32, f32)> = Vec::with_capacity(galley.rows.len());
    let mut starts_line = true;
    for row in &galley.rows {
        let r = row.rect();
        match out.last_mut() {
            Some(last) if !starts_line => last.1 = r.bottom(),
            _ => out.push((r.top(), r.bottom())),
        }
        starts_line = row.ends_with_newline;
    }
    if out.is_empty() {
        out.push((0.0, galley.rect.height()));
    }
    out
}

/// A key pressed this frame with exactly these modifiers (Ctrl or Cmd as one), taken out of
/// the frame's events so the text field does not see it.
fn take_key(ctx: &egui::Context, key: egui::Key, alt: bool, ctrl: bool, shift: bool) -> bool {
    ctx.input_mut(|i| {
        let at = i.events.iter().position(|e| {
            matches!(e, egui::Event::Key { key: k, pressed: true, modifiers: m, .. }
                if *k == key && m.alt == alt && (m.ctrl || m.command) == ctrl && m.shift == shift)
        });
        at.map(|at| i.events.remove(at)).is_some()
    })
}

/// The byte of character `c` of `text` (its length past the end).
fn byte_of(text: &str, c: usize) -> usize {
    text.char_indices().nth(c).map_or(text.len(), |(b, _)| b)
}

/// A code editor for a game's source.
pub struct SourceEditor {
    /// The text.
    pub text: String,
    id: Id,
    marks: Vec<Mark>,
    /// Bumped whenever `marks` change (part of the layout's key).
    marks_gen: u64,
    layout: Option<Layout>,
    find: Find,
    /// The go-to-line field: shown, its text, focus it next frame.
    goto: Option<(String, bool)>,
    /// A line to put the cursor on and scroll to, next frame.
    go_to: Option<usize>,
    /// A range of characters to select and scroll to, next frame (a match found), and whether
    /// the text then takes the keyboard (not while typing in the find bar).
    select: Option<(usize, usize, bool)>,
    /// A line to scroll to, next frame, the cursor left where it is.
    show: Option<usize>,
    /// Scroll the cursor into view (the least needed) after the frame's commands.
    scroll_cursor: bool,
    /// The autocomplete list, when open.
    completion: Option<Completion>,
    /// How many rows Page Up and Page Down move (the rows in view, last frame).
    page_rows: usize,
    /// Where the text was scrolled to when last drawn: the Debug pane's scroll area is another
    /// widget than Play's and Edit's, and starts there rather than at line 1.
    offset: egui::Vec2,
}

impl SourceEditor {
    /// An editor of `text`, with the egui id `id` (its text field is `id.with("text")`).
    pub fn new(id: Id, text: String) -> SourceEditor {
        SourceEditor {
            text,
            id,
            marks: Vec::new(),
            marks_gen: 0,
            layout: None,
            find: Find::default(),
            goto: None,
            go_to: None,
            select: None,
            show: None,
            scroll_cursor: false,
            completion: None,
            page_rows: 20,
            offset: egui::Vec2::ZERO,
        }
    }

    /// Where the text is scrolled to (as last drawn).
    pub fn scroll_offset(&self) -> egui::Vec2 {
        self.offset
    }

    /// The id of the text field.
    pub fn text_id(&self) -> Id {
        self.id.with("text")
    }

    /// The compiler's messages shown at their lines.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// Sets the messages shown at their lines.
    pub fn set_marks(&mut self, marks: Vec<Mark>) {
        if marks != self.marks {
            self.marks = marks;
            self.marks_gen += 1;
        }
    }

    /// Puts the cursor at the start of `line` (from 1) and shows it, on the next frame.
    pub fn go_to_line(&mut self, line: usize) {
        self.go_to = Some(line.max(1));
    }

    /// Scrolls `line` (from 1) into view on the next frame, the cursor left where it is.
    pub fn show_line(&mut self, line: usize) {
        self.show = Some(line.max(1));
    }

    /// The line (from 1) the cursor is on, if the text has a cursor.
    pub fn cursor_line(&self, ctx: &egui::Context) -> Option<usize> {
        let state = egui::TextEdit::load_state(ctx, self.text_id())?;
        let at = state.cursor.char_range()?.primary.index;
        Some(self.text.chars().take(at.into()).filter(|&c| c == '\n').count() + 1)
    }

    /// The autocomplete list's suggestions as shown, if it is open.
    pub fn suggestions(&self) -> Option<Vec<String>> {
        self.completion.as_ref().map(|c| c.items.iter().map(|s| s.label.clone()).collect())
    }

    /// The find bar's matches (byte ranges) of its query, any case.
    fn matches(&self) -> Vec<(usize, usize)> {
        find_all(&self.text, &self.find.query)
    }

    /// Opens the find bar with `query` (Ctrl+F then typing), going to its first match.
    pub fn find(&mut self, query: &str) {
        self.find.open = true;
        self.find.query = query.to_string();
        self.find.current = None;
        self.find_step(true);
    }

    /// The find bar's count: the match gone to (from 1) and how many there are.
    pub fn find_count(&self) -> Option<(usize, usize)> {
        if !self.find.open {
            return None;
        }
        let n = self.matches().len();
        Some((self.find.current.map_or(0, |c| c + 1), n))
    }

    /// Goes to the next (`forward`) or previous match of the find bar's query, round the end.
    pub fn find_step(&mut self, forward: bool) {
        let m = self.matches();
        if m.is_empty() {
            self.find.current = None;
            return;
        }
        let next = match self.find.current {
            None if forward => 0,
            None => m.len() - 1,
            Some(c) if forward => (c + 1) % m.len(),
            Some(c) => (c + m.len() - 1) % m.len(),
        };
        self.go_to_match(next, true);
    }

    /// Selects match `k` of the query and shows it; `focus`: the text takes the keyboard.
    fn go_to_match(&mut self, k: usize, focus: bool) {
        let m = self.matches();
        let Some(&(a, b)) = m.get(k) else { return };
        self.find.current = Some(k);
        let chars = |byte: usize| self.text[..byte].chars().count();
        self.select = Some((chars(a), chars(b), focus));
    }

    /// Search as one types: the first match at or after where the search started (round the
    /// end), the keyboard left in the find field.
    fn find_live(&mut self) {
        let m = self.matches();
        if m.is_empty() {
            self.find.current = None;
            return;
        }
        let from = byte_of(&self.text, self.find.from);
        let k = m.iter().position(|&(a, _)| a >= from).unwrap_or(0);
        self.go_to_match(k, false);
    }

    /// Closes the find bar and gives the keyboard back to the text, the match gone to
    /// selected (typing replaces it).
    fn close_find(&mut self, ctx: &egui::Context) {
        if let Some(k) = self.find.current {
            self.go_to_match(k, true);
        }
        self.find.open = false;
        ctx.memory_mut(|m| m.request_focus(self.text_id()));
    }

    /// The keys of the editor, while it is shown: Ctrl+F find, Ctrl+G go to line, F3 and
    /// Shift+F3 next and previous match, Escape closes the bars (the text gets the keyboard).
    fn keys(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let find = KeyboardShortcut::new(Modifiers::COMMAND, Key::F);
        let goto = KeyboardShortcut::new(Modifiers::COMMAND, Key::G);
        let prev = KeyboardShortcut::new(Modifiers::SHIFT, Key::F3);
        let next = KeyboardShortcut::new(Modifiers::NONE, Key::F3);
        if ctx.input_mut(|i| i.consume_shortcut(&find)) {
            self.find.open = true;
            self.find.focus = true;
            let at = egui::TextEdit::load_state(ctx, self.text_id())
                .and_then(|s| s.cursor.char_range())
                .map_or(0, |r| r.primary.index.0.min(r.secondary.index.0));
            self.find.from = at;
        }
        if ctx.input_mut(|i| i.consume_shortcut(&goto)) {
            self.goto = Some((String::new(), true));
        }
        if self.find.open {
            if ctx.input_mut(|i| i.consume_shortcut(&prev)) {
                self.find_step(false);
            } else if ctx.input_mut(|i| i.consume_shortcut(&next)) {
                self.find_step(true);
            }
        }
        // Escape with the keyboard nowhere (a bar's button was clicked): the bars close.
        if (self.find.open || self.goto.is_some())
            && ctx.memory(|m| m.focused().is_none())
            && ctx.input(|i| i.key_pressed(Key::Escape))
        {
            self.goto = None;
            self.close_find(ctx);
        }
    }

    /// The find and go-to bars above the text.
    fn bars(&mut self, ui: &mut egui::Ui) {
        if self.find.open {
            ui.horizontal(|ui| {
                let label = ui.label("Find");
                let field = egui::TextEdit::singleline(&mut self.find.query).desired_width(160.0);
                let r = ui.add(field).labelled_by(label.id);
                if std::mem::take(&mut self.find.focus) {
                    r.request_focus();
                }
                if r.changed() {
                    self.find.current = None;
                    self.find_live();
                }
                let escape = ui.input(|i| i.key_pressed(egui::Key::Escape));
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if enter {
                    let back = ui.input(|i| i.modifiers.shift);
                    self.find_step(!back);
                    // Enter again goes on: the keyboard stays in the field.
                    if let Some((a, b, _)) = self.select {
                        self.select = Some((a, b, false));
                    }
                    r.request_focus();
                }
                if ui.small_button("Previous").on_hover_text("Shift+Enter or Shift+F3").clicked() {
                    self.find_step(false);
                }
                if ui.small_button("Next").on_hover_text("Enter or F3").clicked() {
                    self.find_step(true);
                }
                let (at, n) = self.find_count().unwrap_or((0, 0));
                ui.label(if n == 0 { "no match".to_string() } else { format!("{at} of {n}") });
                if ui.small_button("Close").on_hover_text("Escape").clicked()
                    || ((r.has_focus() || r.lost_focus()) && escape)
                {
                    self.close_find(ui.ctx());
                }
            });
        }
        let mut close = false;
        let text_id = self.text_id();
        if let Some((typed, focus)) = &mut self.goto {
            let mut go = None;
            ui.horizontal(|ui| {
                let label = ui.label("Go to line");
                let r = ui.add(egui::TextEdit::singleline(typed).desired_width(60.0)).labelled_by(label.id);
                if std::mem::take(focus) {
                    r.request_focus();
                }
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if enter || ui.small_button("Go").clicked() {
                    go = typed.trim().parse::<usize>().ok();
                    close = go.is_some();
                }
                if ui.small_button("Close").clicked()
                    || ((r.has_focus() || r.lost_focus()) && ui.input(|i| i.key_pressed(egui::Key::Escape)))
                {
                    close = true;
                    ui.memory_mut(|m| m.request_focus(text_id));
                }
            });
            if let Some(line) = go {
                self.go_to_line(line);
            }
        }
        if close {
            self.goto = None;
        }
    }

    /// The editing commands, taken before the text field sees their keys (while the text has
    /// the keyboard): the autocomplete list's keys, Ctrl+/, Alt+Up/Down and Ctrl+Shift+Up/Down,
    /// Ctrl+D, Home, Page Up and Page Down (with Shift: selecting). True when the text changed.
    fn commands(&mut self, ctx: &egui::Context) -> bool {
        use egui::Key;
        let text_id = self.text_id();
        if !ctx.memory(|m| m.has_focus(text_id)) {
            self.completion = None;
            return false;
        }
        let Some(mut state) = egui::TextEdit::load_state(ctx, text_id) else { return false };
        let Some(range) = state.cursor.char_range() else { return false };
        let sel = text_ops::Selection { anchor: range.secondary.index.0, cursor: range.primary.index.0 };
        // The list's keys.
        if let Some(c) = &mut self.completion {
            let n = c.items.len();
            if take_key(ctx, Key::ArrowDown, false, false, false) {
                c.chosen = (c.chosen + 1) % n;
            } else if take_key(ctx, Key::ArrowUp, false, false, false) {
                c.chosen = (c.chosen + n - 1) % n;
            } else if take_key(ctx, Key::Escape, false, false, false) {
                self.completion = None;
            } else if take_key(ctx, Key::Enter, false, false, false)
                || take_key(ctx, Key::Tab, false, false, false)
            {
                let k = c.chosen;
                return self.accept(ctx, k);
            }
        }
        let key = |k, alt, ctrl, shift| take_key(ctx, k, alt, ctrl, shift);
        let new = if key(Key::Slash, false, true, false) {
            Some(text_ops::toggle_comment(&self.text, sel))
        } else if key(Key::ArrowUp, true, false, false) || key(Key::ArrowUp, false, true, true) {
            Some(text_ops::move_lines(&self.text, sel, true))
        } else if key(Key::ArrowDown, true, false, false) || key(Key::ArrowDown, false, true, true) {
            Some(text_ops::move_lines(&self.text, sel, false))
        } else if key(Key::D, false, true, false) {
            Some(text_ops::duplicate_lines(&self.text, sel))
        } else {
            None
        };
        let moved = if new.is_some() {
            None
        } else if let Some(shift) = [false, true].into_iter().find(|&s| key(Key::Home, false, false, s)) {
            Some((text_ops::home(&self.text, sel.cursor), shift))
        } else if let Some(shift) = [false, true].into_iter().find(|&s| key(Key::PageUp, false, false, s)) {
            Some((text_ops::page(&self.text, sel.cursor, self.page_rows, true), shift))
        } else if let Some(shift) = [false, true].into_iter().find(|&s| key(Key::PageDown, false, false, s)) {
            Some((text_ops::page(&self.text, sel.cursor, self.page_rows, false), shift))
        } else {
            None
        };
        let (changed, sel) = match (new, moved) {
            (Some((text, sel)), _) => {
                self.text = text;
                (true, sel)
            }
            (None, Some((at, shift))) => {
                (false, text_ops::Selection { anchor: if shift { sel.anchor } else { at }, cursor: at })
            }
            (None, None) => return false,
        };
        let range = CCursorRange::two(CCursor::new(sel.anchor), CCursor::new(sel.cursor));
        state.cursor.set_char_range(Some(range));
        state.store(ctx, text_id);
        self.scroll_cursor = true;
        self.completion = None;
        changed
    }

    /// Puts suggestion `k` of the open list in place of the word typed.
    fn accept(&mut self, ctx: &egui::Context, k: usize) -> bool {
        let Some(c) = self.completion.take() else { return false };
        let Some(s) = c.items.get(k) else { return false };
        let text_id = self.text_id();
        let mut state = egui::TextEdit::load_state(ctx, text_id).unwrap_or_default();
        let at = state.cursor.char_range().map_or(c.start, |r| r.primary.index.0);
        let (a, b) = (byte_of(&self.text, c.start), byte_of(&self.text, at.max(c.start)));
        self.text.replace_range(a..b, &s.insert);
        let after = CCursor::new(c.start + s.insert.chars().count());
        state.cursor.set_char_range(Some(CCursorRange::one(after)));
        state.store(ctx, text_id);
        ctx.memory_mut(|m| m.request_focus(text_id));
        self.scroll_cursor = true;
        true
    }

    /// Opens, follows or closes the list after the frame's typing: `asked` (Ctrl+Space) opens
    /// it with what fits even before a letter; typing a name's second letter opens it
    /// (`typed`: a letter typed this frame); it follows the word while open (`changed`: the
    /// text changed) and closes when nothing fits or the cursor leaves the word.
    fn follow_completion(&mut self, ctx: &egui::Context, asked: bool, typed: bool, changed: bool) {
        let Some(at) = egui::TextEdit::load_state(ctx, self.text_id())
            .and_then(|s| s.cursor.char_range())
            .filter(|r| r.is_empty())
            .map(|r| r.primary.index.0)
        else {
            self.completion = None;
            return;
        };
        let open = self.completion.is_some();
        if !(asked || typed || open) {
            return;
        }
        let byte = byte_of(&self.text, at);
        let start = complete::word_start(&self.text, byte);
        let word = self.text[start..byte].chars().count();
        let start_char = at - word;
        if open && self.completion.as_ref().is_some_and(|c| c.start != start_char) {
            // The cursor left the word.
            self.completion = None;
            return;
        }
        if !asked && !changed {
            return;
        }
        if !asked && !open && word < 2 {
            return;
        }
        let (_, items) = complete::suggest(&self.text, byte, asked || open);
        self.completion =
            if items.is_empty() { None } else { Some(Completion { start: start_char, items, chosen: 0 }) };
    }

    /// Draws the editor filling the space left, and handles its keys.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> SourceOutput {
        self.keys(ui.ctx());
        self.bars(ui);
        let ctx = ui.ctx().clone();
        let text_id = self.text_id();
        // Escape with the list open closes the list alone (egui drops the keyboard on Escape
        // before the text sees it: it is given back).
        if self.completion.is_some()
            && ctx.memory(|m| m.focused().is_none() && m.had_focus_last_frame(text_id))
            && take_key(&ctx, egui::Key::Escape, false, false, false)
        {
            self.completion = None;
            ctx.memory_mut(|m| m.request_focus(text_id));
        }
        let focused = ctx.memory(|m| m.has_focus(text_id));
        let asked = focused && take_key(&ctx, egui::Key::Space, false, true, false);
        let typed = focused
            && ctx.input(|i| {
                i.events.iter().any(|e| matches!(e, egui::Event::Text(t) if t.chars().next_back().is_some_and(complete::is_word_char)))
            });
        let commanded = self.commands(&ctx);
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let dark = ui.visuals().dark_mode;
        let line_height = ui.fonts_mut(|f| f.row_height(&font)) + ui.spacing().extra_text_line_spacing;
        let digits = self.text.lines().count().max(1).to_string().len().max(3);
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        let gutter = char_w * digits as f32 + 22.0;
        let mut out = SourceOutput { changed: commanded, ..SourceOutput::default() };
        let mut scroll = egui::ScrollArea::both().id_salt(self.id.with("scroll")).auto_shrink([false, false]);
        // A scroll area drawn for the first time (the pane shown in another panel: Debug's)
        // starts where the text was last scrolled to.
        let scroll_id = ui.make_persistent_id(self.id.with("scroll"));
        if egui::scroll_area::State::load(&ctx, scroll_id).is_none() && self.offset != egui::Vec2::ZERO {
            scroll = scroll.scroll_offset(self.offset);
        }
        // Where the layout is kept: the closure below takes it.
        let mut layout = self.layout.take();
        let (marks, marks_gen) = (&self.marks, self.marks_gen);
        let go_to = self.go_to.take();
        let select = self.select.take();
        let show = self.show.take();
        let scroll_cursor = std::mem::take(&mut self.scroll_cursor);
        let current_match =
            self.find.current.and_then(|k| self.matches().get(k).copied()).filter(|_| self.find.open);
        let completion = self.completion.clone();
        let mut clicked_item = None;
        let mut in_view = 0;
        let text = &mut self.text;
        let scrolled = scroll.show(ui, |ui| {
            ui.horizontal_top(|ui| {
                ui.add_space(gutter);
                let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
                    let s = buf.as_str();
                    if let Some(l) = &layout
                        && l.text == s
                        && l.marks == marks_gen
                        && l.font == font
                        && l.dark == dark
                    {
                        return Arc::clone(&l.galley);
                    }
                    let tokens = syntax::tokens(s);
                    let job =
                        layout_job(s, &tokens, marks, &font, line_height, ui.visuals().text_color(), dark);
                    let galley = ui.fonts_mut(|f| f.layout_job(job));
                    layout = Some(Layout {
                        text: s.to_string(),
                        marks: marks_gen,
                        font: font.clone(),
                        dark,
                        rows: line_rows(&galley),
                        galley: Arc::clone(&galley),
                        tokens,
                    });
                    galley
                };
                let edit = egui::TextEdit::multiline(text)
                    .id(text_id)
                    .code_editor()
                    .frame(egui::Frame::NONE)
                    .layouter(&mut layouter)
                    .desired_width(f32::INFINITY)
                    .desired_rows(1);
                let shown = edit.show(ui);
                // Named for the accessibility tree (and the tests).
                ui.ctx().accesskit_node_builder(text_id, |node| node.set_label("Game source"));
                out.changed |= shown.response.changed();
                let galley = shown.galley.clone();
                let origin = shown.galley_pos;
                // One source of rows: the galley's own, as the text is drawn.
                let no_rows = vec![(0.0, line_height)];
                let rows = layout.as_ref().map_or(&no_rows, |l| &l.rows);
                let row = |line: usize| {
                    let (t, b) = rows[line.clamp(1, rows.len()) - 1];
                    (origin.y + t, origin.y + b)
                };
                let line_at =
                    |y: f32| rows.partition_point(|&(_, b)| origin.y + b <= y).min(rows.len() - 1) + 1;
                let row_rect = |line: usize, x: f32, w: f32| {
                    let (t, b) = row(line);
                    Rect::from_min_max(pos2(x, t), pos2(x + w, b))
                };
                let line_of = |c: usize| text.chars().take(c).filter(|&c| c == '\n').count() + 1;
                // The cursor moved by go-to or find: set it, maybe give the text the keyboard,
                // show it.
                let mut cursor = None;
                if let Some(line) = go_to {
                    let at: usize = text
                        .split_inclusive('\n')
                        .take(line.saturating_sub(1))
                        .map(|s| s.chars().count())
                        .sum();
                    cursor = Some((at, at, true));
                }
                if let Some(s) = select {
                    cursor = Some(s);
                }
                if let Some((a, b, focus)) = cursor {
                    let mut state = shown.state.clone();
                    let range = CCursorRange::two(CCursor::new(a), CCursor::new(b));
                    state.cursor.set_char_range(Some(range));
                    state.store(ui.ctx(), text_id);
                    if focus {
                        ui.memory_mut(|m| m.request_focus(text_id));
                    }
                    let x = galley.pos_from_cursor(CCursor::new(b)).min.x + origin.x;
                    let left = shown.response.rect.left();
                    let r = row_rect(line_of(a), left.max(x - 200.0), 40.0);
                    ui.scroll_to_rect(r, Some(egui::Align::Center));
                }
                if let Some(line) = show {
                    ui.scroll_to_rect(
                        row_rect(line, shown.response.rect.left(), 40.0),
                        Some(egui::Align::Center),
                    );
                }
                let cursor_at = shown.state.cursor.char_range().map(|r| r.primary);
                if scroll_cursor && let Some(c) = cursor_at {
                    let r = galley.pos_from_cursor(c).translate(origin.to_vec2());
                    ui.scroll_to_rect(r.expand2(vec2(20.0, 0.0)), None);
                }
                // The match gone to, outlined (the text may not have the keyboard to show it
                // selected while one types in the find bar).
                if let Some((a, b)) = current_match {
                    let chars = |byte: usize| text[..byte.min(text.len())].chars().count();
                    let ra = galley.pos_from_cursor(CCursor::new(chars(a)));
                    let rb = galley.pos_from_cursor(CCursor::new(chars(b)));
                    if (ra.top() - rb.top()).abs() < 1.0 {
                        let r =
                            Rect::from_min_max(ra.min, pos2(rb.max.x, ra.max.y)).translate(origin.to_vec2());
                        let colour = ui.visuals().selection.stroke.color;
                        ui.painter().rect_stroke(
                            r.expand(1.0),
                            2.0,
                            Stroke::new(1.5, colour),
                            egui::StrokeKind::Outside,
                        );
                    }
                }
                // A click on a token: answered.
                if shown.response.clicked()
                    && let Some(range) = shown.cursor_range
                    && let Some(l) = &layout
                {
                    let c = range.primary.index;
                    let byte = text.char_indices().nth(c.into()).map_or(text.len(), |(b, _)| b);
                    let hit = l.tokens.partition_point(|t| t.range.end < byte);
                    if let Some(t) =
                        l.tokens.get(hit).filter(|t| t.range.start <= byte && byte <= t.range.end)
                    {
                        let line = text[..t.range.start].matches('\n').count() + 1;
                        out.clicked = Some(ClickedToken {
                            class: t.class,
                            text: text[t.range.clone()].to_string(),
                            line,
                        });
                    }
                }
                // Hovering a marked line shows its messages.
                if let Some(p) = shown.response.hover_pos() {
                    let line = line_at(p.y);
                    let said: Vec<&Mark> = marks.iter().filter(|m| m.line == line).collect();
                    if !said.is_empty() {
                        shown.response.response.clone().on_hover_ui_at_pointer(|ui| {
                            for m in &said {
                                mark_label(ui, m);
                            }
                        });
                    }
                }
                // The gutter, at the left of what is in view (it stays when the text scrolls).
                let clip = ui.clip_rect();
                let text_rect = shown.response.rect;
                let gutter_rect = Rect::from_min_max(
                    pos2(clip.left(), text_rect.top().min(clip.top())),
                    pos2(clip.left() + gutter, text_rect.bottom().max(clip.bottom())),
                );
                let painter = ui.painter();
                painter.rect_filled(gutter_rect, 0.0, ui.visuals().panel_fill);
                let first = line_at(clip.top());
                let last = line_at(clip.bottom());
                in_view = (clip.height() / line_height).floor() as usize;
                let weak = ui.visuals().weak_text_color();
                for line in first..=last {
                    let r = row_rect(line, clip.left(), gutter);
                    painter.text(
                        pos2(clip.left() + gutter - 8.0, r.center().y),
                        egui::Align2::RIGHT_CENTER,
                        line.to_string(),
                        font.clone(),
                        weak,
                    );
                    // Named for the accessibility tree (and the tests): "line number N".
                    let resp = ui.interact(r, self.id.with(("row", line)), Sense::hover());
                    resp.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Label, true, format!("line number {line}"))
                    });
                }
                // A mark per line with messages: its messages on hover, a click goes there.
                let mut lines_marked: Vec<usize> = marks.iter().map(|m| m.line).filter(|&l| l > 0).collect();
                lines_marked.sort_unstable();
                lines_marked.dedup();
                for line in lines_marked.into_iter().filter(|&l| l <= rows.len()) {
                    let said: Vec<&Mark> = marks.iter().filter(|m| m.line == line).collect();
                    let error = said.iter().any(|m| m.error);
                    let r = row_rect(line, clip.left() + 1.0, 12.0);
                    if !r.intersects(clip) {
                        continue;
                    }
                    let colour = if error { ui.visuals().error_fg_color } else { ui.visuals().warn_fg_color };
                    ui.painter().circle_filled(r.center(), 4.5, colour);
                    let what = if error { "error" } else { "warning" };
                    let resp =
                        ui.interact(r, self.id.with(("mark", line)), Sense::click()).on_hover_ui(|ui| {
                            for m in &said {
                                mark_label(ui, m);
                            }
                        });
                    // Named for the accessibility tree (and the tests): "error at line N".
                    resp.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, true, format!("{what} at line {line}"))
                    });
                    if resp.clicked() {
                        self.go_to = Some(line);
                    }
                }
                // The autocomplete list, under the cursor.
                if let (Some(c), Some(at)) = (&completion, cursor_at) {
                    let below = galley.pos_from_cursor(at).translate(origin.to_vec2()).left_bottom();
                    egui::Area::new(self.id.with("completion"))
                        .order(egui::Order::Foreground)
                        .fixed_pos(below + vec2(0.0, 2.0))
                        .show(ui.ctx(), |ui| {
                            egui::Frame::popup(ui.style()).show(ui, |ui| {
                                for (k, s) in c.items.iter().enumerate() {
                                    let r = ui.selectable_label(k == c.chosen, &s.label);
                                    // Named for the accessibility tree (and the tests).
                                    r.widget_info(|| {
                                        egui::WidgetInfo::selected(
                                            egui::Role::Button,
                                            true,
                                            k == c.chosen,
                                            format!("suggestion {}", s.label),
                                        )
                                    });
                                    if r.clicked() {
                                        clicked_item = Some(k);
                                    }
                                }
                                ui.weak("Enter or Tab: put in · Esc: close");
                            });
                        });
                }
            });
        });
        self.offset = scrolled.state.clamped_offset();
        self.layout = layout;
        self.page_rows = in_view.saturating_sub(2).max(1);
        if let Some(k) = clicked_item {
            out.changed |= self.accept(&ctx, k);
        } else {
            self.follow_completion(&ctx, asked, typed && out.changed, out.changed);
        }
        out
    }
}

impl SourceEditor {
    /// What the marks underline: each range's line (from 1) and its text, in order.
    pub fn underlined(&self) -> Vec<(usize, String)> {
        underline_ranges(&self.text, &self.marks)
            .into_iter()
            .map(|(a, b, _)| (self.text[..a].matches('\n').count() + 1, self.text[a..b].to_string()))
            .collect()
    }
}

/// A mark's message, in its colour.
fn mark_label(ui: &mut egui::Ui, m: &Mark) {
    let (colour, what) = if m.error {
        (ui.visuals().error_fg_color, "Error")
    } else {
        (ui.visuals().warn_fg_color, "Warning")
    };
    ui.colored_label(colour, format!("{what}, line {}: {}", m.line, m.message));
}

/// Every match of `query` in `text`, any ASCII case, as byte ranges.
pub fn find_all(text: &str, query: &str) -> Vec<(usize, usize)> {
    if query.is_empty() {
        return Vec::new();
    }
    let hay = text.to_ascii_lowercase();
    let needle = query.to_ascii_lowercase();
    hay.match_indices(&needle).map(|(i, m)| (i, i + m.len())).collect()
}

/// The layout of `text`: each token in its class's colour (an object's colour in its own),
/// the words of marked lines underlined (the word at the mark's column when it has one).
pub fn layout_job(
    text: &str,
    tokens: &[Token],
    marks: &[Mark],
    font: &FontId,
    line_height: f32,
    plain: Color32,
    dark: bool,
) -> LayoutJob {
    let mut job = LayoutJob { text: text.to_string(), ..LayoutJob::default() };
    job.wrap.max_width = f32::INFINITY;
    job.keep_trailing_whitespace = true;
    let underlines = underline_ranges(text, marks);
    let mut under = underlines.iter().peekable();
    let mut push = |job: &mut LayoutJob, a: usize, b: usize, colour: Color32, background: Color32| {
        // Split at the underlined ranges.
        let mut at = a;
        while at < b {
            while under.peek().is_some_and(|&&(_, e, _)| e <= at) {
                under.next();
            }
            let (end, stroke) = match under.peek() {
                Some(&&(s, e, c)) if s <= at => (e.min(b), Stroke::new(1.5, c)),
                Some(&&(s, _, _)) => (s.min(b), Stroke::NONE),
                None => (b, Stroke::NONE),
            };
            let format = TextFormat {
                font_id: font.clone(),
                color: colour,
                line_height: Some(line_height),
                underline: stroke,
                background,
                ..TextFormat::default()
            };
            job.sections.push(egui::text::LayoutSection {
                leading_space: 0.0,
                byte_range: egui::text::ByteIndex(at)..egui::text::ByteIndex(end),
                format,
            });
            at = end;
        }
    };
    let mut at = 0;
    for t in tokens {
        // Sections must follow each other: a token overlapping the one before (never made by
        // the tokenizer, but a panic in the layout would take the window) is cut to what is left.
        if t.range.end <= at {
            continue;
        }
        let t = &Token { range: t.range.start.max(at)..t.range.end, class: t.class };
        if t.range.start > at {
            push(&mut job, at, t.range.start, plain, Color32::TRANSPARENT);
        }
        let mut colour = syntax::colour(t.class).unwrap_or(plain);
        if !dark {
            colour = darker(colour);
        }
        let mut background = Color32::TRANSPARENT;
        if t.class == Class::Colour
            && let Some(c) = syntax::named_colour(&text[t.range.clone()])
        {
            // An object's colour is a swatch of itself, its name in black or white on it, so
            // a dark colour stays readable on a dark theme (and a light one on a light theme).
            background = c;
            colour = contrasting(c);
        }
        push(&mut job, t.range.start, t.range.end, colour, background);
        at = t.range.end;
    }
    if at < text.len() || text.is_empty() {
        push(&mut job, at, text.len(), plain, Color32::TRANSPARENT);
    }
    job
}

/// Black or white, whichever reads better on `c` (by its luma, ITU-R BT.601 weights in
/// whole numbers).
fn contrasting(c: Color32) -> Color32 {
    let luma = 299 * u32::from(c.r()) + 587 * u32::from(c.g()) + 114 * u32::from(c.b());
    if luma > 128 * 1000 { Color32::BLACK } else { Color32::WHITE }
}

/// The colours of a dark theme made readable on a light one.
fn darker(c: Color32) -> Color32 {
    Color32::from_rgb(c.r() / 2, c.g() / 2, c.b() / 2)
}

/// The word of `line` a message names in quotes (`Name "crat", referred to in a rule, does
/// not exist.`), found whole and in any case (the compiler lower-cases names): its byte range.
fn named_word(line: &str, message: &str) -> Option<(usize, usize)> {
    let low = line.to_lowercase();
    if low.len() != line.len() {
        return None;
    }
    let word_char = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    for quoted in message.split('"').skip(1).step_by(2) {
        let q = quoted.trim().to_lowercase();
        if q.is_empty() {
            continue;
        }
        for (i, _) in low.match_indices(&q) {
            let before = low[..i].chars().next_back();
            let after = low[i + q.len()..].chars().next();
            let joined_before = word_char(before) && word_char(q.chars().next());
            let joined_after = word_char(after) && word_char(q.chars().next_back());
            let whole = !joined_before && !joined_after;
            if whole {
                return Some((i, i + q.len()));
            }
        }
    }
    None
}

/// The byte ranges to underline, in order: the word at each mark's column, else the word its
/// message names, else its line's words; red for errors and yellow for warnings.
fn underline_ranges(text: &str, marks: &[Mark]) -> Vec<(usize, usize, Color32)> {
    if marks.is_empty() {
        return Vec::new();
    }
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    let mut out = Vec::new();
    for m in marks {
        let Some(&s) = starts.get(m.line.wrapping_sub(1)) else { continue };
        let line = text[s..].split('\n').next().unwrap_or("");
        let line = line.trim_end_matches('\r');
        let chars = line.chars().count();
        let (a, b) = if m.width > 0 && m.column >= 1 && m.column <= chars {
            // The compiler's span: exactly the word.
            (byte_of(line, m.column - 1), byte_of(line, m.column - 1 + m.width))
        } else if m.column > 1 && m.column <= chars {
            let from = byte_of(line, m.column - 1);
            let end = line[from..].find(char::is_whitespace).map_or(line.len(), |e| from + e);
            (from, end.max(from + 1).min(line.len()))
        } else if let Some(word) = named_word(line, &m.message) {
            word
        } else {
            let lead = line.len() - line.trim_start().len();
            (lead, line.trim_end().len())
        };
        if a < b {
            let colour = if m.error {
                Color32::from_rgb(0xff, 0x40, 0x40)
            } else {
                Color32::from_rgb(0xe0, 0xc0, 0x20)
            };
            out.push((s + a, s + b, colour));
        }
    }
    out.sort_by_key(|r| (r.0, r.1));
    // No overlaps: a later range starts after the one before ends.
    let mut kept: Vec<(usize, usize, Color32)> = Vec::with_capacity(out.len());
    for r in out {
        match kept.last() {
            Some(&(_, e, _)) if r.0 < e => {}
            _ => kept.push(r),
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_all_is_any_case() {
        assert_eq!(find_all("Crate crate CRATE", "crate"), vec![(0, 5), (6, 11), (12, 17)]);
        assert!(find_all("abc", "").is_empty());
    }

    #[test]
    fn the_layout_covers_the_text_once_and_underlines_the_marked_word() {
        let text = "RULES\n[ > Player | Crat ] -> [ Player ]\n";
        let tokens = syntax::tokens(text);
        let marks = vec![Mark { line: 2, column: 14, width: 4, message: "no Crat".into(), error: true }];
        let job = layout_job(text, &tokens, &marks, &FontId::monospace(12.0), 14.0, Color32::WHITE, true);
        let mut at = 0;
        for s in &job.sections {
            assert_eq!(s.byte_range.start.0, at, "sections follow each other");
            at = s.byte_range.end.0;
        }
        assert_eq!(at, text.len());
        let underlined: Vec<&str> = job
            .sections
            .iter()
            .filter(|s| s.format.underline != Stroke::NONE)
            .map(|s| &text[s.byte_range.start.0..s.byte_range.end.0])
            .collect();
        assert_eq!(underlined, vec!["Crat"]);
    }

    /// An object's colours are swatches: a dark one (`#1d1d2b`, unreadable as text on the dark
    /// theme) has white text on itself, a light one black.
    #[test]
    fn an_objects_colours_are_swatches_with_readable_text() {
        let text = "OBJECTS\n\nBackground\n#1d1d2b #f5e6c8\n";
        let tokens = syntax::tokens(text);
        for dark in [true, false] {
            let job = layout_job(text, &tokens, &[], &FontId::monospace(12.0), 14.0, Color32::WHITE, dark);
            let section = |word: &str| {
                let at = text.find(word).unwrap();
                job.sections
                    .iter()
                    .find(|s| s.byte_range.start.0 == at)
                    .expect("a section of its own")
                    .format
                    .clone()
            };
            let (deep, light) = (section("#1d1d2b"), section("#f5e6c8"));
            assert_eq!(deep.background, Color32::from_rgb(0x1d, 0x1d, 0x2b));
            assert_eq!(deep.color, Color32::WHITE);
            assert_eq!(light.background, Color32::from_rgb(0xf5, 0xe6, 0xc8));
            assert_eq!(light.color, Color32::BLACK);
        }
    }
}
