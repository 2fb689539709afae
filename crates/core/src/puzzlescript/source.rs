//! The game's source as text: the legend's one-character keys (what a level's glyphs stand
//! for), and a level's rows in the `LEVELS` section, read and put back with every other line kept
//! as it was. For the text rendering and the editor's palette and painted levels.
//!
//! Reads the legend's glyphs and a level's rows and writes painted rows back in place
//! (`edit_levels` adds, duplicates, moves and deletes levels by moving level rows only);

use super::engine::{self, Game, LevelEntry};
use super::entries::entry_of;
use std::collections::BTreeMap;

/// A glyph of the legend: its character and the objects it stands for (names, as written in
/// the legend, lower-cased).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glyph {
    /// The character levels use.
    pub glyph: char,
    /// The objects it stands for.
    pub objects: Vec<String>,
}

/// The paintable glyphs of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    /// In legend order (objects declared with a glyph first).
    pub glyphs: Vec<Glyph>,
}

/// The source without its comments (`(` … `)`, nested, across lines), line breaks kept.
fn strip_comments(source: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(source.len());
    for c in source.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            '\n' => out.push('\n'),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The section a line opens, if it is a section header.
fn section(line: &str) -> Option<&'static str> {
    const SECTIONS: [&str; 8] =
        ["objects", "legend", "sounds", "collisionlayers", "rules", "winconditions", "levels", "prelude"];
    let l = line.trim().to_ascii_lowercase();
    SECTIONS.into_iter().find(|s| *s == l)
}

/// The legend's one-character keys resolved to objects, in order: objects declared with a glyph
/// (`Player P`), then the legend's single-character keys that stand for one object or an `and`
/// of objects (keys for `or` properties cannot be painted and are left out).
pub fn legend(source: &str) -> Vec<Glyph> {
    let text = strip_comments(source);
    let mut current = "prelude";
    let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut order: Vec<(char, String)> = Vec::new();
    let mut expect_object = true;
    for line in text.lines() {
        if let Some(s) = section(line) {
            current = s;
            expect_object = true;
            continue;
        }
        let t = line.trim();
        if t.is_empty() {
            expect_object = true;
            continue;
        }
        if t.chars().all(|c| c == '=') {
            continue;
        }
        match current {
            "objects" if expect_object => {
                expect_object = false;
                let mut words = t.split_whitespace();
                let Some(name) = words.next() else { continue };
                let name = name.to_ascii_lowercase();
                names.insert(name.clone(), vec![name.clone()]);
                if let Some(g) = words.next()
                    && g.chars().count() == 1
                    && let Some(c) = g.chars().next()
                {
                    order.push((c, name));
                }
            }
            "legend" => {
                let Some((key, value)) = t.split_once('=') else { continue };
                let shown = key.trim();
                let key = shown.to_ascii_lowercase();
                let words: Vec<String> = value.split_whitespace().map(str::to_ascii_lowercase).collect();
                if words.iter().any(|w| w == "or") {
                    continue;
                }
                let mut objects = Vec::new();
                for w in words.iter().filter(|w| *w != "and") {
                    match names.get(w) {
                        Some(o) => objects.extend(o.iter().cloned()),
                        None => objects.push(w.clone()),
                    }
                }
                if shown.chars().count() == 1
                    && let Some(c) = shown.chars().next()
                {
                    order.push((c, key.clone()));
                }
                names.insert(key, objects);
            }
            _ => {}
        }
    }
    let mut seen: Vec<char> = Vec::new();
    let mut glyphs = Vec::new();
    for (c, name) in order {
        // Keys are case-insensitive: the first spelling stands.
        let folded = c.to_ascii_lowercase();
        if seen.contains(&folded) {
            continue;
        }
        seen.push(folded);
        let objects = names.get(&name).cloned().unwrap_or_default();
        glyphs.push(Glyph { glyph: c, objects });
    }
    glyphs
}

/// The legend's glyphs as the engine's cell words: each glyph's objects, plus the background
/// where the glyph names nothing on the background's layer (as levels load). Glyphs naming an
/// object the game does not have are left out.
pub(super) fn glyph_words(source: &str, game: &Game) -> Vec<(char, Vec<u64>)> {
    let objects = game.objects();
    let stride = objects.len().div_ceil(64).max(1);
    let id = |name: &str| objects.iter().position(|o| o.name == name);
    let background = id("background");
    let mut out = Vec::new();
    'glyphs: for g in legend(source) {
        let mut words = vec![0u64; stride];
        let mut layers = Vec::new();
        for name in &g.objects {
            let Some(i) = id(name) else { continue 'glyphs };
            words[i / 64] |= 1 << (i % 64);
            layers.push(objects[i].layer);
        }
        if let Some(b) = background
            && !layers.contains(&objects[b].layer)
        {
            words[b / 64] |= 1 << (b % 64);
        }
        out.push((g.glyph, words));
    }
    out
}

/// The palette of the game whose source is `source`: an error naming the first compile error.
pub fn palette(source: &str) -> Result<Palette, String> {
    engine::compile(source).map_err(|e| super::describe_errors(&e))?;
    Ok(Palette { glyphs: legend(source) })
}

/// The lines (0-based, end excluded) of the source holding playable level `playable`'s rows.
fn level_lines(source: &str, playable: usize) -> Result<(Game, std::ops::Range<usize>), String> {
    let game = engine::compile(source).map_err(|e| super::describe_errors(&e))?;
    let entry = entry_of(&game, playable).ok_or_else(|| format!("the game has no level {}", playable + 1))?;
    let Some(LevelEntry::Level { height, line, .. }) = game.levels().get(entry) else {
        return Err(format!("the game has no level {}", playable + 1));
    };
    let start = line.saturating_sub(1);
    let end = start + height;
    if end > source.lines().count() {
        return Err(format!("level {} runs past the end of the source", playable + 1));
    }
    Ok((game, start..end))
}

/// The rows of playable level `playable` as written in the source (each as wide as the widest,
/// padded with the level's last character of the row).
pub fn level_rows(source: &str, playable: usize) -> Result<Vec<String>, String> {
    let (game, lines) = level_lines(source, playable)?;
    let width = match game.levels().get(entry_of(&game, playable).unwrap_or(0)) {
        Some(LevelEntry::Level { width, .. }) => *width,
        _ => 0,
    };
    let rows = source
        .lines()
        .skip(lines.start)
        .take(lines.len())
        .map(|l| {
            let l = l.trim_end();
            let n = l.chars().count();
            let pad = l.chars().last().unwrap_or('.');
            l.chars().chain(std::iter::repeat_n(pad, width.saturating_sub(n))).collect()
        })
        .collect();
    Ok(rows)
}

/// The source with playable level `playable`'s rows replaced by `rows`; every other line (and
/// the line endings) kept byte for byte.
pub fn with_level_rows(source: &str, playable: usize, rows: &[String]) -> Result<String, String> {
    let (_, lines) = level_lines(source, playable)?;
    let ending = if source.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    let mut index = 0;
    while !rest.is_empty() {
        let (line, tail) = match rest.find('\n') {
            Some(i) => rest.split_at(i + 1),
            None => (rest, ""),
        };
        if index == lines.start {
            for r in rows {
                out.push_str(r);
                out.push_str(ending);
            }
        }
        if !lines.contains(&index) {
            out.push_str(line);
        }
        rest = tail;
        index += 1;
    }
    if index <= lines.start {
        for r in rows {
            out.push_str(r);
            out.push_str(ending);
        }
    }
    Ok(out)
}

/// A change to the playable levels of a game's source (levels numbered from 0, messages not
/// counted), made by [`edit_levels`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelEdit {
    /// A new level of these rows, after the last level.
    Add(Vec<String>),
    /// A copy of the level, right after it.
    Duplicate(usize),
    /// The level swapped with the one before it.
    MoveUp(usize),
    /// The level swapped with the one after it.
    MoveDown(usize),
    /// The level removed (a game keeps at least one).
    Delete(usize),
}

/// The source with `edit` made to its `LEVELS` section, and the number of the level the edit
/// is about afterwards (the new level, the copy, the moved level, the level after the deleted
/// one, else the one before). Only level rows move: every other line — the other sections, the
/// messages between levels, comments — is kept byte for byte where it was (a deleted level
/// takes one blank line next to it along; an added or duplicated level brings one).
pub fn edit_levels(source: &str, edit: &LevelEdit) -> Result<(String, usize), String> {
    let game = engine::compile(source).map_err(|e| super::describe_errors(&e))?;
    // Each playable level's lines (0-based, end excluded), in order.
    let blocks: Vec<std::ops::Range<usize>> = game
        .levels()
        .iter()
        .filter_map(|e| match e {
            LevelEntry::Level { height, line, .. } => {
                Some(line.saturating_sub(1)..line.saturating_sub(1) + height)
            }
            LevelEntry::Message { .. } => None,
        })
        .collect();
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    if blocks.iter().any(|b| b.end > lines.len()) {
        return Err("a level runs past the end of the source".into());
    }
    let n = blocks.len();
    let no_level = |k: usize| format!("the game has no level {} (it has {n})", k + 1);
    let ending = if source.contains("\r\n") { "\r\n" } else { "\n" };
    let block_text = |b: &std::ops::Range<usize>| -> String {
        lines[b.clone()].iter().map(|l| format!("{}{ending}", l.trim_end_matches(['\r', '\n']))).collect()
    };
    let rows_text = |rows: &[String]| -> String { rows.iter().map(|r| format!("{r}{ending}")).collect() };
    // What goes at each block's place (by block), what else is dropped, and what follows a block.
    let mut at: Vec<String> = blocks.iter().map(&block_text).collect();
    let mut dropped: Vec<usize> = Vec::new();
    let mut after: Vec<(usize, String)> = Vec::new();
    let blank = |i: usize| lines.get(i).is_some_and(|l| l.trim().is_empty());
    let shown = match edit {
        LevelEdit::Add(rows) => {
            if rows.is_empty() {
                return Err("a level needs at least one row".into());
            }
            match blocks.last() {
                Some(b) => after.push((b.end, format!("{ending}{}", rows_text(rows)))),
                None => return Err("the game has no level to add after".into()),
            }
            n
        }
        &LevelEdit::Duplicate(k) => {
            let b = blocks.get(k).ok_or_else(|| no_level(k))?;
            after.push((b.end, format!("{ending}{}", block_text(b))));
            k + 1
        }
        &LevelEdit::MoveUp(k) | &LevelEdit::MoveDown(k) => {
            if k >= n {
                return Err(no_level(k));
            }
            let other = match edit {
                LevelEdit::MoveUp(_) => k.checked_sub(1).ok_or("the first level cannot move up")?,
                _ if k + 1 < n => k + 1,
                _ => return Err("the last level cannot move down".into()),
            };
            at.swap(k, other);
            other
        }
        &LevelEdit::Delete(k) => {
            let b = blocks.get(k).ok_or_else(|| no_level(k))?;
            if n == 1 {
                return Err("the game's only level cannot be deleted".into());
            }
            at[k].clear();
            // One blank line next to it goes too: after it, else before it.
            if blank(b.end) {
                dropped.push(b.end);
            } else if b.start > 0 && blank(b.start - 1) {
                dropped.push(b.start - 1);
            }
            k.min(n - 2)
        }
    };
    let mut out = String::with_capacity(source.len() + 64);
    for (i, line) in lines.iter().enumerate() {
        if let Some((k, b)) = blocks.iter().enumerate().find(|(_, b)| b.contains(&i)) {
            if i == b.start {
                out.push_str(&at[k]);
            }
        } else if !dropped.contains(&i) {
            // The line before an inserted level ends with a line break.
            out.push_str(line);
        }
        for (end, text) in &after {
            if *end == i + 1 {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push_str(ending);
                }
                out.push_str(text);
            }
        }
    }
    // A source that did not end with a line break still does not.
    if !source.ends_with('\n') && out.ends_with('\n') && !source.is_empty() {
        let cut = out.len() - if out.ends_with("\r\n") { 2 } else { 1 };
        out.truncate(cut);
    }
    Ok((out, shown))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of three levels with messages around and between them, and a comment in LEVELS.
    fn game(levels: &str) -> String {
        format!(
            "title T\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nred\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\nP = Player\n\n======\nSOUNDS\n======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nPlayer, Wall\n\n======\nRULES\n======\n\n==============\nWINCONDITIONS\n==============\n\n=======\nLEVELS\n=======\n\n{levels}"
        )
    }

    const THREE: &str =
        "message Hello\n\n#P#\n\n(a comment)\n##\nP.\n\nmessage Middle\n\nP..\n...\n...\n\nmessage Bye\n";

    fn levels(source: &str) -> Vec<Vec<String>> {
        let game = engine::compile(source).expect("compiles");
        (0..super::super::playable_count(&game)).map(|k| level_rows(source, k).expect("rows")).collect()
    }

    fn rows(r: &[&str]) -> Vec<String> {
        r.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn levels_move_and_messages_stay() {
        let src = game(THREE);
        let (moved, k) = edit_levels(&src, &LevelEdit::MoveDown(0)).expect("moves");
        assert_eq!(k, 1);
        assert_eq!(levels(&moved), vec![rows(&["##", "P."]), rows(&["#P#"]), rows(&["P..", "...", "..."])]);
        assert_eq!(
            moved,
            game(
                "message Hello\n\n##\nP.\n\n(a comment)\n#P#\n\nmessage Middle\n\nP..\n...\n...\n\nmessage Bye\n"
            )
        );
        let (back, k) = edit_levels(&moved, &LevelEdit::MoveUp(1)).expect("moves back");
        assert_eq!((back.as_str(), k), (src.as_str(), 0), "up undoes down, byte for byte");
        let (last, k) = edit_levels(&src, &LevelEdit::MoveUp(2)).expect("moves");
        assert_eq!(k, 1);
        assert!(last.ends_with("\nmessage Middle\n\n##\nP.\n\nmessage Bye\n"), "{last}");
        assert!(last.contains("(a comment)\nP..\n...\n...\n\nmessage Middle"), "{last}");
        assert!(edit_levels(&src, &LevelEdit::MoveUp(0)).is_err());
        assert!(edit_levels(&src, &LevelEdit::MoveDown(2)).is_err());
        assert!(edit_levels(&src, &LevelEdit::MoveDown(3)).is_err());
    }

    #[test]
    fn levels_are_added_duplicated_and_deleted() {
        let src = game(THREE);
        let (dup, k) = edit_levels(&src, &LevelEdit::Duplicate(1)).expect("duplicates");
        assert_eq!(k, 2);
        assert_eq!(levels(&dup)[1], levels(&dup)[2]);
        assert_eq!(levels(&dup).len(), 4);
        assert_eq!(
            dup,
            game(
                "message Hello\n\n#P#\n\n(a comment)\n##\nP.\n\n##\nP.\n\nmessage Middle\n\nP..\n...\n...\n\nmessage Bye\n"
            )
        );
        let (del, k) = edit_levels(&dup, &LevelEdit::Delete(2)).expect("deletes");
        assert_eq!((del.as_str(), k), (src.as_str(), 2), "delete undoes duplicate");
        let (added, k) = edit_levels(&src, &LevelEdit::Add(rows(&["#P", ".#"]))).expect("adds");
        assert_eq!(k, 3);
        assert_eq!(levels(&added)[3], rows(&["#P", ".#"]));
        assert!(added.ends_with("P..\n...\n...\n\n#P\n.#\n\nmessage Bye\n"), "after the last level: {added}");
        let (first, k) = edit_levels(&src, &LevelEdit::Delete(0)).expect("deletes");
        assert_eq!(k, 0);
        assert_eq!(
            first,
            game("message Hello\n\n(a comment)\n##\nP.\n\nmessage Middle\n\nP..\n...\n...\n\nmessage Bye\n")
        );
        let (last, k) = edit_levels(&src, &LevelEdit::Delete(2)).expect("deletes");
        assert_eq!(k, 1);
        assert_eq!(levels(&last).len(), 2);
        assert!(last.ends_with("\nmessage Middle\n\nmessage Bye\n"), "{last}");
        let one = game("P.\n");
        assert!(edit_levels(&one, &LevelEdit::Delete(0)).is_err(), "the only level stays");
        assert!(edit_levels(&src, &LevelEdit::Add(Vec::new())).is_err());
    }

    #[test]
    fn crlf_and_no_final_line_break_are_kept() {
        let src = game("#P#\n\nP.\n").replace('\n', "\r\n");
        let src = src.trim_end().to_string();
        let (moved, _) = edit_levels(&src, &LevelEdit::MoveDown(0)).expect("moves");
        assert_eq!(moved, game("P.\n\n#P#\n").replace('\n', "\r\n").trim_end());
        let (dup, _) = edit_levels(&src, &LevelEdit::Duplicate(1)).expect("duplicates");
        assert_eq!(dup, game("#P#\n\nP.\n\nP.\n").replace('\n', "\r\n").trim_end());
    }
}
