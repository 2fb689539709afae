//! The SameGame test-set text format (the standard 20 positions of the SameGame search
//! literature), read into `collapse` levels.
//!
//! The format: boards one after another, separated by one or more blank lines. A board is rows
//! of colour numbers separated by spaces or tabs, the first line the top row. Every row of a
//! board has the same number of cells; colours are `0` to `15`. The standard file has 20 boards
//! of 15 rows of 15 cells in 5 colours. Boards hold no empty cells, so they are always settled.

use super::{CollapseConfig, CollapseLevel, MAX_COLOURS, MAX_SIDE, colour_char};
use std::fmt;

/// A test-set text that cannot be read: the 1-based line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestsetError {
    /// 1-based line of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TestsetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TestsetError {}

/// One board of a test set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestsetBoard {
    /// The 1-based line of its top row.
    pub line: usize,
    /// Rows from the top, as the level format writes them (colour characters).
    pub rows: Vec<String>,
    /// How many distinct colours it uses.
    pub colours_used: usize,
    /// One more than its highest colour.
    pub colour_bound: u8,
}

impl TestsetBoard {
    /// The board as a level with the benchmark's rules (`Left` compaction, `Standard` score);
    /// `name` is its title.
    pub fn to_level(&self, name: String) -> CollapseLevel {
        CollapseLevel {
            name: Some(name),
            colours: Some(self.colour_bound.max(2)),
            ..CollapseLevel::from_rows(self.rows.clone(), CollapseConfig::standard())
        }
    }
}

/// Reads every board of a test-set text, naming the line of the first problem.
pub fn parse_testset(text: &str) -> Result<Vec<TestsetBoard>, TestsetError> {
    let mut boards: Vec<TestsetBoard> = Vec::new();
    let mut current: Option<(TestsetBoard, usize, u16)> = None; // board, width, colour mask
    let finish = |cur: Option<(TestsetBoard, usize, u16)>, boards: &mut Vec<TestsetBoard>| {
        if let Some((mut b, _, mask)) = cur {
            b.colours_used = mask.count_ones() as usize;
            boards.push(b);
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |message: String| TestsetError { line, message };
        if raw.trim().is_empty() {
            finish(current.take(), &mut boards);
            continue;
        }
        let mut row = String::new();
        let mut mask = 0u16;
        let mut bound = 0u8;
        for (x, word) in raw.split_whitespace().enumerate() {
            let colour = word
                .parse::<u8>()
                .ok()
                .filter(|&c| c < MAX_COLOURS)
                .ok_or_else(|| err(format!("cell {}: '{word}' is not a colour from 0 to 15", x + 1)))?;
            if x >= usize::from(MAX_SIDE) {
                return Err(err(format!("more than {MAX_SIDE} cells in a row")));
            }
            row.push(colour_char(colour));
            mask |= 1 << colour;
            bound = bound.max(colour + 1);
        }
        let width = row.len();
        match &mut current {
            None => {
                let board = TestsetBoard { line, rows: vec![row], colours_used: 0, colour_bound: bound };
                current = Some((board, width, mask));
            }
            Some((board, w, m)) => {
                if width != *w {
                    return Err(err(format!(
                        "row has {width} cells but the board starting on line {} has {w}",
                        board.line
                    )));
                }
                if board.rows.len() >= usize::from(MAX_SIDE) {
                    return Err(err(format!(
                        "the board starting on line {} has more than {MAX_SIDE} rows",
                        board.line
                    )));
                }
                board.rows.push(row);
                board.colour_bound = board.colour_bound.max(bound);
                *m |= mask;
            }
        }
    }
    finish(current.take(), &mut boards);
    if boards.is_empty() {
        return Err(TestsetError { line: text.lines().count().max(1), message: "no boards found".into() });
    }
    Ok(boards)
}
