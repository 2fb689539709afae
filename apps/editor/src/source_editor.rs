//! [`SourceEditor`]: a game's source text as a code editor — monospace, unwrapped (long lines
//! scroll, never cut), line numbers in a gutter that stays in view when the text scrolls
//! sideways, PuzzleScript's syntax colours ([`crate::syntax`]; the layout is kept until the
//! text or its marks change, so a frame of a 2,000-line game only compares the text), the
//! compiler's errors and warnings at their lines (a mark in the gutter with the messages on
//! hover, the line's words underlined, the messages on hover over the line too), find
//! (Ctrl+F: next and previous, "k of n"), go to line (Ctrl+G), Tab indents, and its own undo
//! and redo (egui's text undo: Ctrl+Z in the text undoes typing, never the level's edits).
//!
//! A click on a token is answered ([`SourceOutput::clicked`]): the hook for whoever wants to
//! act on a word of the source (a sound's seed played, an object shown).

use crate::syntax::{self, Class, Token};
use egui::text::{CCursor, CCursorRange, LayoutJob, TextFormat};
use egui::{Color32, FontId, Galley, Id, Rect, Sense, Stroke, pos2, vec2};
use std::sync::Arc;

/// A compiler message at a line of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The line, from 1 (0: no line).
    pub line: usize,
    /// The column, from 1, best effort (0 or 1: the line's words).
    pub column: usize,
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
    /// A range of characters to select and scroll to, next frame (a match found).
    select: Option<(usize, usize)>,
    /// A line to scroll to, next frame, the cursor left where it is.
    show: Option<usize>,
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
        }
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
        self.find.current = Some(next);
        let (a, b) = m[next];
        let chars = |byte: usize| self.text[..byte].chars().count();
        self.select = Some((chars(a), chars(b)));
    }

    /// The keys of the editor, while it is shown: Ctrl+F find, Ctrl+G go to line, F3 and
    /// Shift+F3 next and previous match, Escape closes the bars.
    fn keys(&mut self, ctx: &egui::Context) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let find = KeyboardShortcut::new(Modifiers::COMMAND, Key::F);
        let goto = KeyboardShortcut::new(Modifiers::COMMAND, Key::G);
        let prev = KeyboardShortcut::new(Modifiers::SHIFT, Key::F3);
        let next = KeyboardShortcut::new(Modifiers::NONE, Key::F3);
        if ctx.input_mut(|i| i.consume_shortcut(&find)) {
            self.find.open = true;
            self.find.focus = true;
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
                }
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if enter {
                    let back = ui.input(|i| i.modifiers.shift);
                    self.find_step(!back);
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
                    || (r.has_focus() && ui.input(|i| i.key_pressed(egui::Key::Escape)))
                {
                    self.find.open = false;
                }
            });
        }
        let mut close = false;
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
                if ui.small_button("Close").clicked() {
                    close = true;
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

    /// Draws the editor filling the space left, and handles its keys.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> SourceOutput {
        self.keys(ui.ctx());
        self.bars(ui);
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let dark = ui.visuals().dark_mode;
        let line_height = ui.fonts_mut(|f| f.row_height(&font)) + ui.spacing().extra_text_line_spacing;
        let digits = self.text.lines().count().max(1).to_string().len().max(3);
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        let gutter = char_w * digits as f32 + 22.0;
        let text_id = self.text_id();
        let mut out = SourceOutput::default();
        let scroll = egui::ScrollArea::both().id_salt(self.id.with("scroll")).auto_shrink([false, false]);
        // Where the layout is kept: the closure below takes it.
        let mut layout = self.layout.take();
        let (marks, marks_gen) = (&self.marks, self.marks_gen);
        let go_to = self.go_to.take();
        let select = self.select.take();
        let show = self.show.take();
        let text = &mut self.text;
        scroll.show(ui, |ui| {
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
                out.changed = shown.response.changed();
                let galley = shown.galley.clone();
                let origin = shown.galley_pos;
                let row_top = |line: usize| origin.y + line.saturating_sub(1) as f32 * line_height;
                let line_at = |y: f32| ((y - origin.y) / line_height).floor().max(0.0) as usize + 1;
                // The cursor moved by go-to or find: set it, give the text the keyboard, show it.
                let mut cursor = None;
                if let Some(line) = go_to {
                    let at: usize = text
                        .split_inclusive('\n')
                        .take(line.saturating_sub(1))
                        .map(|s| s.chars().count())
                        .sum();
                    cursor = Some((at, at, line));
                }
                if let Some((a, b)) = select {
                    let line = text.chars().take(a).filter(|&c| c == '\n').count() + 1;
                    cursor = Some((a, b, line));
                }
                if let Some((a, b, line)) = cursor {
                    let mut state = shown.state.clone();
                    let range = CCursorRange::two(CCursor::new(a), CCursor::new(b));
                    state.cursor.set_char_range(Some(range));
                    state.store(ui.ctx(), text_id);
                    ui.memory_mut(|m| m.request_focus(text_id));
                    let x = galley.pos_from_cursor(CCursor::new(b)).min.x + origin.x;
                    let left = shown.response.rect.left();
                    let r = Rect::from_min_size(
                        pos2(left.max(x - 200.0), row_top(line)),
                        vec2(40.0, line_height),
                    );
                    ui.scroll_to_rect(r, Some(egui::Align::Center));
                }
                if let Some(line) = show {
                    let left = shown.response.rect.left();
                    let r = Rect::from_min_size(pos2(left, row_top(line)), vec2(40.0, line_height));
                    ui.scroll_to_rect(r, Some(egui::Align::Center));
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
                let lines = text.split('\n').count();
                let first = line_at(clip.top()).max(1);
                let last = line_at(clip.bottom()).min(lines);
                let weak = ui.visuals().weak_text_color();
                for line in first..=last {
                    let y = row_top(line);
                    painter.text(
                        pos2(clip.left() + gutter - 8.0, y),
                        egui::Align2::RIGHT_TOP,
                        line.to_string(),
                        font.clone(),
                        weak,
                    );
                }
                // A mark per line with messages: its messages on hover, a click goes there.
                let mut lines_marked: Vec<usize> = marks.iter().map(|m| m.line).filter(|&l| l > 0).collect();
                lines_marked.dedup();
                for line in lines_marked {
                    let said: Vec<&Mark> = marks.iter().filter(|m| m.line == line).collect();
                    let error = said.iter().any(|m| m.error);
                    let r =
                        Rect::from_min_size(pos2(clip.left() + 1.0, row_top(line)), vec2(12.0, line_height));
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
            });
        });
        self.layout = layout;
        out
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

/// The byte ranges to underline, in order: the word at each mark's column (its line's words
/// without one), red for errors and yellow for warnings.
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
        let (a, b) = if m.column > 1 && m.column <= line.len() {
            let from = m.column - 1;
            if !line.is_char_boundary(from) {
                continue;
            }
            let end = line[from..].find(char::is_whitespace).map_or(line.len(), |e| from + e);
            (from, end.max(from + 1).min(line.len()))
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
        let marks = vec![Mark { line: 2, column: 14, message: "no Crat".into(), error: true }];
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
