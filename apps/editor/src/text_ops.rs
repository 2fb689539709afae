//! The source editor's line commands, as pure functions of a text and a selection: Ctrl+/
//! comments or uncomments the selected lines (PuzzleScript's comments are `( … )`), Alt+Up/Down
//! (or Ctrl+Shift+Up/Down) move them, Ctrl+D duplicates them, Home goes to the first word of
//! the line (again: to its start). Positions are in characters, as egui's text cursors are.

/// A selection: where it started and where the cursor is, in characters from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Where the selection started (the cursor itself when nothing is selected).
    pub anchor: usize,
    /// The cursor.
    pub cursor: usize,
}

impl Selection {
    /// A cursor alone at `at`.
    pub fn at(at: usize) -> Selection {
        Selection { anchor: at, cursor: at }
    }

    fn sorted(self) -> (usize, usize) {
        (self.anchor.min(self.cursor), self.anchor.max(self.cursor))
    }
}

/// The byte index of character `c` of `text` (its length past the end).
fn byte_of(text: &str, c: usize) -> usize {
    text.char_indices().nth(c).map_or(text.len(), |(b, _)| b)
}

/// The character index of byte `b` of `text`.
fn char_of(text: &str, b: usize) -> usize {
    text[..b].chars().count()
}

/// The lines of `text` (split at `\n`) the selection covers: the first and the last, from 0.
/// A selection of several lines that ends at the start of a line leaves that line out.
fn covered(text: &str, sel: Selection) -> (usize, usize) {
    let (a, b) = sel.sorted();
    let (ba, bb) = (byte_of(text, a), byte_of(text, b));
    let first = text[..ba].matches('\n').count();
    let mut last = text[..bb].matches('\n').count();
    if last > first && text[..bb].ends_with('\n') {
        last -= 1;
    }
    (first, last)
}

/// Whether `line` is one comment: it starts with `(` after its indent and that bracket closes
/// at its end (comments nest, so `( a ) b ( c )` is not one).
fn is_comment(line: &str) -> bool {
    let t = line.trim();
    if !t.starts_with('(') || !t.ends_with(')') {
        return false;
    }
    let mut depth = 0u32;
    for (i, c) in t.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1 == t.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// The lines `first..=last` replaced by `f` of them, the selection given by `select` of the
/// new text and the byte where the block now starts.
fn replace_lines(
    text: &str,
    first: usize,
    last: usize,
    f: impl FnOnce(&[&str]) -> Vec<String>,
) -> (String, usize, usize) {
    let lines: Vec<&str> = text.split('\n').collect();
    let new = f(&lines[first..=last]);
    let mut out: Vec<String> = lines[..first].iter().map(|s| s.to_string()).collect();
    let start: usize = lines[..first].iter().map(|l| l.len() + 1).sum();
    let len = new.iter().map(|l| l.len() + 1).sum::<usize>().saturating_sub(1);
    out.extend(new);
    out.extend(lines[last + 1..].iter().map(|s| s.to_string()));
    (out.join("\n"), start, start + len)
}

/// Ctrl+/: comments out the covered lines, `(` after the indent and `)` at the end, or, when
/// every non-blank one is already a comment, takes those brackets off. Blank lines stay blank.
/// A cursor alone keeps its place in its line's text; a selection covers the changed lines.
pub fn toggle_comment(text: &str, sel: Selection) -> (String, Selection) {
    let (first, last) = covered(text, sel);
    let lines: Vec<&str> = text.split('\n').collect();
    let block = &lines[first..=last];
    let uncomment = block.iter().any(|l| !l.trim().is_empty())
        && block.iter().all(|l| l.trim().is_empty() || is_comment(l));
    let lead = |l: &str| l.len() - l.trim_start().len();
    let (new, start, end) = replace_lines(text, first, last, |block| {
        block
            .iter()
            .map(|l| {
                if l.trim().is_empty() {
                    l.to_string()
                } else {
                    // The brackets go round the words, the indent and trailing spaces outside.
                    let (a, body) = l.split_at(lead(l));
                    let words = body.trim_end();
                    let tail = &body[words.len()..];
                    if uncomment {
                        format!("{a}{}{tail}", &words[1..words.len() - 1])
                    } else {
                        format!("{a}({words}){tail}")
                    }
                }
            })
            .collect()
    });
    if sel.anchor == sel.cursor {
        // The cursor moves with its line's text: past the new `(` (or back over the old one).
        let line_start: usize = lines[..first].iter().map(|l| l.len() + 1).sum();
        let col = byte_of(text, sel.cursor) - line_start;
        let line = lines[first];
        let pad = lead(line);
        let col = if line.trim().is_empty() {
            col
        } else if uncomment {
            if col > pad { col - 1 } else { col }
        } else if col >= pad {
            col + 1
        } else {
            col
        };
        let new_line_len = new[line_start..].split('\n').next().map_or(0, str::len);
        let at = char_of(&new, line_start + col.min(new_line_len));
        return (new, Selection::at(at));
    }
    let (a, b) = (char_of(&new, start), char_of(&new, end));
    (new, Selection { anchor: a, cursor: b })
}

/// Alt+Up / Alt+Down: moves the covered lines one line up (`up`) or down, the selection with
/// them; at the top or bottom, nothing changes.
pub fn move_lines(text: &str, sel: Selection, up: bool) -> (String, Selection) {
    let (first, last) = covered(text, sel);
    let lines: Vec<&str> = text.split('\n').collect();
    if (up && first == 0) || (!up && last + 1 >= lines.len()) {
        return (text.to_string(), sel);
    }
    let (from, to) = if up { (first - 1, last) } else { (first, last + 1) };
    let (new, _, _) = replace_lines(text, from, to, |block| {
        let mut v: Vec<String> = block.iter().map(|s| s.to_string()).collect();
        if up {
            v.rotate_left(1);
        } else {
            v.rotate_right(1);
        }
        v
    });
    // The block moved by the other line's length and its newline, in characters.
    let other = if up { lines[first - 1] } else { lines[last + 1] };
    let shift = other.chars().count() + 1;
    let moved = |c: usize| if up { c - shift } else { c + shift };
    (new, Selection { anchor: moved(sel.anchor), cursor: moved(sel.cursor) })
}

/// Ctrl+D: a copy of the covered lines under them, the selection moved onto the copy.
pub fn duplicate_lines(text: &str, sel: Selection) -> (String, Selection) {
    let (first, last) = covered(text, sel);
    let (new, start, end) = replace_lines(text, first, last, |block| {
        let mut v: Vec<String> = block.iter().map(|s| s.to_string()).collect();
        v.extend(block.iter().map(|s| s.to_string()));
        v
    });
    // The copy starts after the block and its newline.
    let block_len = (end - start) / 2;
    let shift = char_of(&new, start + block_len + 1) - char_of(&new, start);
    (new, Selection { anchor: sel.anchor + shift, cursor: sel.cursor + shift })
}

/// Home: the first non-blank character of the cursor's line, or the line's start when the
/// cursor is there already (or the line is blank).
pub fn home(text: &str, cursor: usize) -> usize {
    let b = byte_of(text, cursor);
    let start = text[..b].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].split('\n').next().unwrap_or("");
    let first = start + (line.len() - line.trim_start().len());
    if b == first || line.trim().is_empty() { char_of(text, start) } else { char_of(text, first) }
}

/// Page Up / Page Down: the cursor `rows` lines up or down, at the same column (or its line's
/// end), clamped to the text.
pub fn page(text: &str, cursor: usize, rows: usize, up: bool) -> usize {
    let b = byte_of(text, cursor);
    let line = text[..b].matches('\n').count();
    let start = text[..b].rfind('\n').map_or(0, |i| i + 1);
    let col = text[start..b].chars().count();
    let lines: Vec<&str> = text.split('\n').collect();
    let target = if up { line.saturating_sub(rows) } else { (line + rows).min(lines.len() - 1) };
    let before: usize = lines[..target].iter().map(|l| l.chars().count() + 1).sum();
    before + col.min(lines[target].chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sel(a: usize, b: usize) -> Selection {
        Selection { anchor: a, cursor: b }
    }

    #[test]
    fn ctrl_slash_comments_and_uncomments_the_covered_lines() {
        let text = "RULES\n  [ > P | C ] -> [ > P | > C ]\n\nlate [ A ] -> [ B ]\nEND";
        // Lines 2 to 4 (the selection ends inside line 4).
        let a = text.find("  [").unwrap() + 1;
        let b = text.find("late").unwrap() + 2;
        let (c, s) = toggle_comment(text, sel(a, b));
        assert_eq!(c, "RULES\n  ([ > P | C ] -> [ > P | > C ])\n\n(late [ A ] -> [ B ])\nEND");
        let (u, _) = toggle_comment(&c, s);
        assert_eq!(u, text, "again: back as it was");
        // A cursor alone: its line, the cursor kept in its text.
        let at = text.find("late").unwrap() + 4;
        let (c, s) = toggle_comment(text, Selection::at(at));
        assert!(c.contains("\n(late [ A ] -> [ B ])\n"), "{c}");
        assert_eq!(&c[s.cursor - 4..s.cursor], "late");
        // A line of two comments is not one comment: it is commented (nested).
        let (c, _) = toggle_comment("( a ) b ( c )", Selection::at(0));
        assert_eq!(c, "(( a ) b ( c ))");
    }

    #[test]
    fn lines_move_up_and_down_with_the_selection() {
        let text = "a\nbb\nccc\nd";
        let at = text.find("ccc").unwrap() + 1;
        let (t, s) = move_lines(text, Selection::at(at), true);
        assert_eq!(t, "a\nccc\nbb\nd");
        assert_eq!(&t[s.cursor..s.cursor + 2], "cc");
        let (t, s) = move_lines(&t, s, true);
        assert_eq!(t, "ccc\na\nbb\nd");
        let (same, s2) = move_lines(&t, s, true);
        assert_eq!((same.as_str(), s2), (t.as_str(), s), "at the top nothing moves");
        let (t, _) = move_lines(text, sel(0, 3), false);
        assert_eq!(t, "ccc\na\nbb\nd", "two lines down");
    }

    #[test]
    fn ctrl_d_duplicates_the_lines_and_moves_onto_the_copy() {
        let text = "a\nbb\nc";
        let (t, s) = duplicate_lines(text, Selection::at(3));
        assert_eq!(t, "a\nbb\nbb\nc");
        assert_eq!(s.cursor, 6);
        let (t, s) = duplicate_lines(text, sel(0, 4));
        assert_eq!(t, "a\nbb\na\nbb\nc");
        assert_eq!(s, sel(5, 9));
    }

    #[test]
    fn home_goes_to_the_first_word_then_the_start_and_pages_keep_the_column() {
        let text = "x\n    word here\nend";
        let line = text.find("    ").unwrap();
        assert_eq!(home(text, line + 8), line + 4);
        assert_eq!(home(text, line + 4), line);
        assert_eq!(page(text, 1, 1, false), line + 1);
        assert_eq!(page(text, line + 9, 5, false), text.len(), "clamped to the last line's end");
        assert_eq!(page(text, line + 9, 5, true), 1);
    }

    proptest! {
        /// Moving lines keeps them (a permutation), and down then up is the identity.
        #[test]
        fn moves_keep_the_lines(lines in prop::collection::vec("[a-z ()]{0,6}", 1..8), pick in 0usize..8) {
            let text = lines.join("\n");
            let pick = pick % lines.len();
            let at: usize = lines[..pick].iter().map(|l| l.chars().count() + 1).sum();
            let (down, s) = move_lines(&text, Selection::at(at), false);
            let mut a: Vec<&str> = text.split('\n').collect();
            let mut b: Vec<&str> = down.split('\n').collect();
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b);
            if pick + 1 < lines.len() {
                let (back, s2) = move_lines(&down, s, true);
                prop_assert_eq!(&back, &text);
                prop_assert_eq!(s2, Selection::at(at));
            }
        }

        /// Ctrl+/ twice gives the text back, whatever the lines and the selection.
        #[test]
        fn comment_twice_is_the_identity(
            lines in prop::collection::vec("[a-z \\[\\]|>]{0,8}", 1..8),
            a in 0usize..80,
            b in 0usize..80,
        ) {
            let text = lines.join("\n");
            let n = text.chars().count();
            let s = sel(a.min(n), b.min(n));
            let (once, s1) = toggle_comment(&text, s);
            let (twice, _) = toggle_comment(&once, s1);
            prop_assert_eq!(twice, text);
        }
    }
}
