//! The standard Sokoban text formats: `.xsb`/`.sok` collections and the Boxoban files.
//!
//! Text in, levels out (no I/O). A collection is a sequence of boards separated by other lines:
//! - A **board line** holds only XSB characters (`#` wall, space, `-` or `_` floor, `.` goal,
//!   `$` box, `*` box on goal, `@` player, `+` player on goal) and at least one `#`. Consecutive
//!   board lines are one level's board; shorter rows are padded on the right with floor
//!   (outside the walls). Trailing spaces and a `\r` are dropped.
//! - A line whose first character other than spaces is `#` but that holds another character is
//!   an error at that character (a damaged board row, not a title).
//! - Any other line (blank, a title, a `;` comment, `Title: …`, `Author: …`) separates boards.
//!
//! The run-length variant (`4#|#@$.#|4#`) is not read: such a line is taken as a title.
//!
//! A level's name is the text of a `Title:` line after its board (before the next board; a
//! `Title:` line with no untitled board before it names the next board), else
//! the last line before its board (after the previous one) that is neither blank nor a
//! `Key: value` header (`Author:`, `Comment:` …), with a leading `;` and spaces removed (the
//! Boxoban files' `; 12` names level `12`), else `level N` (1-based). Boxoban files (1,000 10×10
//! levels, each after a `; N` line) are such collections.
//!
//! All or none: the first bad level stops the import with an [`ImportError`] naming the level
//! (its 1-based index and name), the line and the column (1-based).

use super::{MAX_SIDE, SokobanLevel, parse_board};
use crate::Level;
use std::fmt;

/// Why a collection does not import: which level, where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// 1-based index of the level in the collection (0 when the collection has no level).
    pub level: usize,
    /// The level's name, if it has one yet.
    pub name: Option<String>,
    /// 1-based line of the problem (the board's first line when no cell says it).
    pub line: usize,
    /// 1-based column of the problem (1 when no cell says it).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(n) => write!(f, "level {} ({n}), ", self.level)?,
            None if self.level > 0 => write!(f, "level {}, ", self.level)?,
            None => {}
        }
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ImportError {}

/// What one line of a collection is.
enum Line<'a> {
    /// A row of a board (trailing spaces dropped).
    Board(&'a str),
    /// Anything else, trimmed.
    Other(&'a str),
}

const XSB: &str = "# -_.$*@+";

fn classify(raw: &str) -> Result<Line<'_>, (usize, char)> {
    let line = raw.trim_end_matches(['\r', '\n']).trim_end();
    if !line.is_empty() && line.contains('#') && line.chars().all(|c| XSB.contains(c)) {
        return Ok(Line::Board(line));
    }
    if line.trim_start().starts_with('#')
        && let Some((col, c)) = line.chars().enumerate().find(|(_, c)| !XSB.contains(*c))
    {
        return Err((col + 1, c));
    }
    Ok(Line::Other(line.trim()))
}

/// A `Key: value` header line (`Author: …`), which never names the level after it.
fn is_header(text: &str) -> bool {
    text.split_once(':').is_some_and(|(k, _)| !k.is_empty() && !k.contains(' ') && !k.starts_with(';'))
}

struct Block {
    /// 1-based line of the board's first row.
    first_line: usize,
    rows: Vec<String>,
    name_before: Option<String>,
    title_after: Option<String>,
}

/// Reads every level of a `.xsb`/`.sok` collection or a Boxoban file (see the module docs) as
/// `(name, level)` pairs, in order; all or none.
pub fn parse_levels(text: &str) -> Result<Vec<(String, Level)>, ImportError> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut in_board = false;
    let mut pending_name: Option<String> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let line = classify(raw).map_err(|(column, c)| ImportError {
            level: blocks.len() + usize::from(!in_board),
            name: if in_board { blocks.last().and_then(|b| b.name_before.clone()) } else { pending_name.clone() },
            line: line_no,
            column,
            message: format!("'{c}' is not a Sokoban character (# wall, space - _ floor, . goal, $ box, * box on goal, @ player, + player on goal)"),
        })?;
        match line {
            Line::Board(row) => {
                // Checked while reading (issue 29.3): rows are padded to the widest one later,
                // so one long row in a tall board would grow past any memory.
                let width = row.chars().count();
                let height = if in_board { blocks.last().map_or(0, |b| b.rows.len()) } else { 0 } + 1;
                if width > usize::from(MAX_SIDE) || height > usize::from(MAX_SIDE) {
                    let (column, what) = if width > usize::from(MAX_SIDE) {
                        (usize::from(MAX_SIDE) + 1, format!("a board row of {width} cells"))
                    } else {
                        (1, format!("a board of more than {MAX_SIDE} rows"))
                    };
                    let level = blocks.len() + usize::from(!in_board);
                    let name = if in_board {
                        blocks.last().and_then(|b| b.name_before.clone())
                    } else {
                        pending_name.clone()
                    };
                    return Err(ImportError {
                        level,
                        name,
                        line: line_no,
                        column,
                        message: format!("{what}: a sokoban board is at most {MAX_SIDE}×{MAX_SIDE}"),
                    });
                }
                let row: String = row.chars().map(|c| if c == '-' || c == '_' { ' ' } else { c }).collect();
                if in_board {
                    if let Some(b) = blocks.last_mut() {
                        b.rows.push(row);
                    }
                } else {
                    blocks.push(Block {
                        first_line: line_no,
                        rows: vec![row],
                        name_before: pending_name.take(),
                        title_after: None,
                    });
                    in_board = true;
                }
            }
            Line::Other(t) => {
                in_board = false;
                if t.is_empty() {
                    continue;
                }
                if let Some(title) = t.strip_prefix("Title:") {
                    let title = title.trim().to_string();
                    match blocks.last_mut().filter(|b| b.title_after.is_none()) {
                        Some(b) => b.title_after = Some(title),
                        None => pending_name = Some(title),
                    }
                    continue;
                }
                if !is_header(t) {
                    let name = t.trim_start_matches(';').trim();
                    if !name.is_empty() {
                        pending_name = Some(name.to_string());
                    }
                }
            }
        }
    }
    if blocks.is_empty() {
        return Err(ImportError {
            level: 0,
            name: None,
            line: 1,
            column: 1,
            message: "no Sokoban board found (a board row holds only XSB characters and a #)".into(),
        });
    }
    let mut levels = Vec::with_capacity(blocks.len());
    for (k, mut b) in blocks.into_iter().enumerate() {
        let name =
            b.title_after.take().or(b.name_before.take()).unwrap_or_else(|| format!("level {}", k + 1));
        let width = b.rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        for r in &mut b.rows {
            let n = r.chars().count();
            r.extend(std::iter::repeat_n(' ', width - n));
        }
        if let Err(e) = parse_board(&b.rows, crate::DEFAULT_SEED) {
            let (line, column) = match e.cell {
                Some(p) => (b.first_line + usize::from(p.y), usize::from(p.x) + 1),
                None => (b.first_line, 1),
            };
            return Err(ImportError { level: k + 1, name: Some(name), line, column, message: e.message });
        }
        let level = SokobanLevel { name: Some(name.clone()), seed: None, board: b.rows };
        levels.push((name, Level::Sokoban(level)));
    }
    Ok(levels)
}

/// `sokoban`: a Sokoban collection (`.xsb`/`.sok` text, or a Boxoban file) into one level per
/// puzzle, all or none.
pub const SOKOBAN: crate::Importer = crate::Importer {
    name: "sokoban",
    about: "A Sokoban collection in the standard text format (.xsb/.sok: # wall, space/-/_ floor, \
            . goal, $ box, * box on goal, @ player, + player on goal; levels separated by blank \
            and title lines; Boxoban files with `; N` headers) into one sokoban level per puzzle: \
            OUTDIR/STEM-001.json, STEM-002.json, ...",
    input: "a Sokoban collection",
    max_bytes: 64 << 20,
    extensions: &["xsb", "sok"],
    output: crate::ImportOutput::Many,
    import: |text, file_name, sink| crate::import::push_all(import_collection(text, file_name), sink),
};

/// This rule set's importers.
pub const IMPORTERS: &[crate::Importer] = &[SOKOBAN];

/// The number of each level of a collection: the file's own numbers when every title is one
/// (a Boxoban file's `; N`), else the position from 1. The one numbering of a collection:
/// `tessera convert`'s file names and the editor's chooser use it.
pub fn collection_numbers(titles: &[&str]) -> Vec<u64> {
    let own: Option<Vec<u64>> = titles.iter().map(|t| t.trim().parse::<u64>().ok()).collect();
    match own {
        Some(n) if !n.is_empty() && n.windows(2).all(|w| w[0] < w[1]) => n,
        _ => (1..=titles.len() as u64).collect(),
    }
}

/// Every puzzle as a level named "STEM TITLE", written as `STEM-NNN.json` where NNN is its
/// number ([`collection_numbers`]).
fn import_collection(
    text: &str,
    file_name: Option<&str>,
) -> Result<Vec<crate::Imported>, crate::ImportError> {
    let levels = parse_levels(text).map_err(crate::ImportError::whole)?;
    let stem = crate::import::stem(file_name).unwrap_or_else(|| "sokoban".into());
    let titles: Vec<&str> = levels.iter().map(|(t, _)| t.as_str()).collect();
    let numbers = collection_numbers(&titles);
    let digits = numbers.last().copied().unwrap_or(0).to_string().len().max(3);
    Ok(levels
        .into_iter()
        .zip(numbers)
        .map(|((title, mut level), n)| {
            if let Level::Sokoban(l) = &mut level {
                l.name = Some(format!("{stem} {title}"));
            }
            crate::Imported { file: Some(format!("{stem}-{n:0digits$}.json")), level, summary: None }
        })
        .collect())
}
