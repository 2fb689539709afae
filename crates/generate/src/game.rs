//! What the generator reads from a game once: its legend's glyphs (as sets of objects), which
//! glyph is the background and which the walls, its levels as templates, and the source cut
//! where candidates are put to be compiled.

use crate::{GenerateError, Options};
use std::collections::BTreeSet;
use std::sync::Arc;
use tessera_core::puzzlescript::engine::{self, Game, solver};
use tessera_core::puzzlescript::{
    PuzzleScriptCommand, PuzzleScriptLevel, PuzzleScriptRules, PuzzleScriptState, describe_errors, legend,
    level_rows, playable_count,
};

/// A glyph of the legend: its character and its objects (lower-cased, the background left out),
/// sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GlyphInfo {
    pub c: char,
    pub objects: Vec<String>,
}

/// A game made ready for generation (see [`prepare`]).
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The game's source, as given.
    pub source: String,
    /// The source up to and including its LEVELS header, with a line break: a candidate's rows
    /// follow it.
    pub(crate) base: String,
    /// The source's line ending.
    pub(crate) ending: &'static str,
    pub(crate) glyphs: Vec<GlyphInfo>,
    /// The background's glyph.
    pub(crate) floor: char,
    /// The walls' glyph, if the levels have one.
    pub(crate) wall: Option<char>,
    /// The templates: the levels grown from, as grids of glyphs (canonical spelling).
    pub(crate) templates: Vec<Vec<Vec<char>>>,
    /// Every level of the game, as rows (canonical spelling): a generated level must differ.
    pub(crate) known: BTreeSet<Vec<String>>,
    /// The commands the solver searches (random walks use them too).
    pub(crate) moves: Vec<PuzzleScriptCommand>,
    /// The game's playable levels.
    pub playable: usize,
    /// The entries of the game's level list, messages included (as PuzzleScript's `loadLevel`
    /// counts them).
    pub entries: usize,
}

/// The source without its comments (`(` … `)`, nested), line breaks kept.
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

const SECTIONS: [&str; 7] =
    ["objects", "legend", "sounds", "collisionlayers", "rules", "winconditions", "levels"];

/// Each section header's line (0-based) and name, in order.
fn sections(text: &str) -> Vec<(usize, &'static str)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let l = l.trim().to_ascii_lowercase();
            SECTIONS.into_iter().find(|s| *s == l).map(|s| (i, s))
        })
        .collect()
}

/// The game's win conditions: the non-empty lines of its WINCONDITIONS section.
fn win_conditions(text: &str) -> usize {
    let heads = sections(text);
    let Some(k) = heads.iter().position(|(_, s)| *s == "winconditions") else { return 0 };
    let start = heads[k].0 + 1;
    let end = heads.get(k + 1).map_or(usize::MAX, |h| h.0);
    text.lines()
        .enumerate()
        .filter(|(i, l)| {
            *i >= start && *i < end && !l.trim().is_empty() && !l.trim().chars().all(|c| c == '=')
        })
        .count()
}

/// Compiles `source` and reads what generation needs; checks `options` against the game.
pub fn prepare(source: &str, options: &Options) -> Result<Prepared, GenerateError> {
    check_options(options)?;
    prepare_checked(source, options)
}

/// Checks the options any run needs (count, steps, jobs, ranges, shard).
pub(crate) fn check_options(options: &Options) -> Result<(), GenerateError> {
    if options.count == 0 {
        return Err(GenerateError::Option("--count 0: ask for at least one level".into()));
    }
    if let Some(max) = options.max_steps
        && max < options.min_steps
    {
        return Err(GenerateError::Option(format!(
            "--max-steps {max} is below --min-steps {}: no level can have both",
            options.min_steps
        )));
    }
    if options.jobs == 0 {
        return Err(GenerateError::Option("--jobs 0: give at least one".into()));
    }
    if let Some((a, b)) = options.difficulty
        && a > b
    {
        return Err(GenerateError::Option(format!("--difficulty {a}..{b}: the range is empty")));
    }
    if let Some((i, n)) = options.shard
        && (n == 0 || i >= n)
    {
        return Err(GenerateError::Option(format!("--shard {}/{n}: give I/N with 1 <= I <= N", i + 1)));
    }
    Ok(())
}

fn prepare_checked(source: &str, options: &Options) -> Result<Prepared, GenerateError> {
    let game = match engine::compile(source) {
        Ok(g) => g,
        Err(e) => {
            if e.iter().any(|d| d.is_error && d.message.contains("object called player")) {
                return Err(GenerateError::NoPlayer);
            }
            return Err(GenerateError::Compile(describe_errors(&e)));
        }
    };
    let text = strip_comments(source);
    if win_conditions(&text) == 0 {
        return Err(GenerateError::NoWinCondition);
    }
    let heads = sections(&text);
    let Some(k) = heads.iter().position(|(_, s)| *s == "levels") else { return Err(GenerateError::NoLevels) };
    if let Some((line, _)) = heads.get(k + 1) {
        return Err(GenerateError::LevelsNotLast { line: line + 1 });
    }
    let playable = playable_count(&game);
    if playable == 0 {
        return Err(GenerateError::NoLevels);
    }
    if let Some(f) = options.from
        && f >= playable
    {
        return Err(GenerateError::NoSuchLevel { number: f + 1, count: playable });
    }
    let ending = if source.contains("\r\n") { "\r\n" } else { "\n" };
    let mut base: String = source.split_inclusive('\n').take(heads[k].0 + 1).collect();
    if !base.ends_with('\n') {
        base.push_str(ending);
    }
    let glyphs = glyph_infos(source, &game);
    let floor = glyphs.iter().find(|g| g.objects.is_empty()).map(|g| g.c).ok_or_else(|| {
        GenerateError::Compile(
            "the legend has no glyph for the background alone (such as `. = Background`)".into(),
        )
    })?;
    let canonical =
        |c: char| -> char { glyphs.iter().find(|g| g.c.eq_ignore_ascii_case(&c)).map_or(c, |g| g.c) };
    let mut known = BTreeSet::new();
    let mut all = Vec::new();
    for k in 0..playable {
        let rows = level_rows(source, k).map_err(GenerateError::Compile)?;
        let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().map(canonical).collect()).collect();
        known.insert(grid.iter().map(|r| r.iter().collect()).collect());
        all.push(grid);
    }
    let templates: Vec<Vec<Vec<char>>> =
        match crate::lock::template_grid(options, &glyphs.iter().map(|g| g.c).collect::<Vec<_>>())? {
            Some(t) => {
                // A candidate equal to the template is no new level.
                known.insert(t.iter().map(|r| r.iter().collect()).collect());
                vec![t]
            }
            None => match options.from {
                Some(f) => vec![all[f].clone()],
                None => all,
            },
        };
    crate::lock::check_locked(options, &templates)?;
    let wall = wall_glyph(&templates, floor);
    let moves = solver::moves(&game).to_vec();
    let prepared = Prepared {
        source: source.to_string(),
        base,
        ending,
        glyphs,
        floor,
        wall,
        templates,
        known,
        moves,
        playable,
        entries: game.levels().len(),
    };
    if let Some((w, h)) = options.size {
        prepared.check_size(w, h)?;
    }
    Ok(prepared)
}

/// The legend's glyphs whose objects the game has, as sorted sets without the background.
fn glyph_infos(source: &str, game: &Game) -> Vec<GlyphInfo> {
    let names: BTreeSet<&str> = game.objects().iter().map(|o| o.name.as_str()).collect();
    legend(source)
        .into_iter()
        .filter(|g| g.objects.iter().all(|o| names.contains(o.as_str())))
        .map(|g| {
            let set: BTreeSet<String> = g.objects.into_iter().filter(|o| o != "background").collect();
            GlyphInfo { c: g.glyph, objects: set.into_iter().collect() }
        })
        .collect()
}

/// The glyph most border cells of the templates carry, the background excepted, when it is on
/// at least half of them.
fn wall_glyph(templates: &[Vec<Vec<char>>], floor: char) -> Option<char> {
    let mut counts: Vec<(char, usize)> = Vec::new();
    let mut border = 0usize;
    for t in templates {
        let h = t.len();
        for (y, row) in t.iter().enumerate() {
            let w = row.len();
            for (x, &c) in row.iter().enumerate() {
                if y == 0 || x == 0 || y + 1 == h || x + 1 == w {
                    border += 1;
                    if c == floor {
                        continue;
                    }
                    match counts.iter_mut().find(|(g, _)| *g == c) {
                        Some((_, n)) => *n += 1,
                        None => counts.push((c, 1)),
                    }
                }
            }
        }
    }
    let (c, n) = counts.into_iter().max_by_key(|&(g, n)| (n, std::cmp::Reverse(g)))?;
    (n * 2 >= border).then_some(c)
}

impl Prepared {
    /// The glyph standing for exactly `objects` (sorted, no background).
    pub(crate) fn glyph_for(&self, objects: &[String]) -> Option<char> {
        self.glyphs.iter().find(|g| g.objects == objects).map(|g| g.c)
    }

    /// The objects of glyph `c` (none for an unknown one).
    pub(crate) fn objects_of(&self, c: char) -> Option<&[String]> {
        self.glyphs.iter().find(|g| g.c == c).map(|g| g.objects.as_slice())
    }

    /// Whether glyph `c` is moved by candidates: neither the floor, nor a wall, nor a character
    /// the legend does not paint.
    pub(crate) fn movable(&self, c: char) -> bool {
        c != self.floor && Some(c) != self.wall && self.objects_of(c).is_some()
    }

    /// The movable cells of template `t`.
    pub(crate) fn movables(&self, t: &[Vec<char>]) -> usize {
        t.iter().flatten().filter(|&&c| self.movable(c)).count()
    }

    /// The templates that fit a room of `w` by `h`.
    pub(crate) fn fitting(&self, w: usize, h: usize) -> Vec<usize> {
        let inner = self.inner_cells(w, h);
        (0..self.templates.len()).filter(|&k| self.movables(&self.templates[k]) <= inner).collect()
    }

    /// The cells of a `w` by `h` room that objects can take (inside its wall border).
    pub(crate) fn inner_cells(&self, w: usize, h: usize) -> usize {
        match self.wall {
            Some(_) => w.saturating_sub(2) * h.saturating_sub(2),
            None => w * h,
        }
    }

    /// An error unless some template's objects fit a `w` by `h` room.
    fn check_size(&self, w: usize, h: usize) -> Result<(), GenerateError> {
        let max = tessera_core::puzzlescript::MAX_SIDE;
        let error = |why: String| GenerateError::Size { width: w, height: h, why };
        if w == 0 || h == 0 || w > max || h > max {
            return Err(error(format!("give 1 to {max} cells a side")));
        }
        if self.fitting(w, h).is_empty() {
            let least = self.templates.iter().map(|t| self.movables(t)).min().unwrap_or(0);
            return Err(error(format!(
                "the game's levels cannot fill it: the smallest has {least} objects to place, and the room has {} free cells{}",
                self.inner_cells(w, h),
                if self.wall.is_some() { " inside its wall border" } else { "" }
            )));
        }
        Ok(())
    }

    /// The game's source with the level of `rows` as its only level.
    pub(crate) fn level_source(&self, rows: &[String]) -> String {
        let mut text = String::with_capacity(self.base.len() + rows.len() * 16);
        text.push_str(&self.base);
        text.push_str(self.ending);
        for r in rows {
            text.push_str(r);
            text.push_str(self.ending);
        }
        text
    }

    /// The rules and start of the level of `rows`, or why it does not start.
    pub(crate) fn start(&self, rows: &[String]) -> Result<(PuzzleScriptRules, PuzzleScriptState), String> {
        let level = PuzzleScriptLevel {
            name: None,
            seed: None,
            source: Arc::from(self.level_source(rows)),
            level: 0,
        };
        level.start(tessera_core::DEFAULT_SEED).map_err(|e| e.to_string())
    }
}

/// The game's source with `levels` appended after its last level, each after a blank line, in
/// the source's line ending: every byte of the source is kept.
pub fn append_levels(source: &str, levels: &[Vec<String>]) -> String {
    let ending = if source.contains("\r\n") { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(source.len() + levels.len() * 64);
    out.push_str(source);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push_str(ending);
    }
    for rows in levels {
        out.push_str(ending);
        for r in rows {
            out.push_str(r);
            out.push_str(ending);
        }
    }
    out
}
