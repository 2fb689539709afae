//! The game's source as text: the legend's one-character keys (what a level's glyphs stand
//! for), and a level's rows in the `LEVELS` section, read and put back with every other line kept
//! as it was. For the text rendering and the editor's palette and painted levels.

use super::engine::{self, Game, LevelEntry};
use super::level::entry_of;
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
