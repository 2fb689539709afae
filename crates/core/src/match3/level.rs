//! The `match3` part of the level format, and the seed's stage format.

use super::arrange::{Arranger, Plan};
use super::{Block, Cell, MAX_SIDE, Match3Config, Match3Rules, Match3State, breed_char};
use crate::geom::{Grid, Size};
use crate::id::IdGen;
use crate::level::{LevelError, Place};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};

/// A match-3 level: the board layout (cells, fixed blocks, locks), settings and an optional seed.
///
/// ```json
/// { "rule_set": "match3", "name": "locks",
///   "board": ["......", ".#..#.", "..AB..", ".*..*.", "......"],
///   "config": { "breeds": 5, "points_per_block": 10, "move_limit": 20, "target_score": 1500 },
///   "seed": 7 }
/// ```
/// - `board`: rows from the top, one character per cell:
///   - `.` a playable cell whose block is chosen when the game starts;
///   - `#` a Void cell (no block ever; blocks fall past it);
///   - `a`–`p` a playable cell with an unlocked block of breed 0–15 (must be below `breeds`);
///   - `A`–`P` the same with a locked block;
///   - `*` a locked block whose breed is chosen when the game starts.
///
///   Open cells (`.` and `*`) are filled from the seed so that the board has no run of three
///   and at least one valid swap, around the fixed blocks; a layout where that is impossible
///   (or where the fixed blocks already form a run) is an error that says so.
/// - `width`, `height`: without `board`, a `width × height` board of `.` cells (default 9×9);
///   with `board`, optional and then they must match it. Sides 1 to 256.
/// - `config`: `breeds` (3–16, default 6), `points_per_block` (default 10), `move_limit`
///   (resolved swaps allowed; omit for none) and `target_score` (omit for none). See
///   [`Match3Config`].
/// - `seed`: the player's `--seed` overrides it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match3Level {
    /// A title for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Board width; default 9, or the board's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// Board height; default 9, or the board's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    /// Settings.
    #[serde(default)]
    pub config: Match3Config,
    /// The seed; the player's `--seed` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Rows from the top (see the type's docs for the characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<String>>,
}

/// A stage file in the seed's format that cannot be converted: the same type as a level's error,
/// [`LevelError::Syntax`] (with the file's line and column) when it is not JSON of the stage's
/// fields, else [`LevelError::Invalid`] with the cell of a bad code, or what the level says.
pub type StageError = LevelError;

/// The seed's stage format (seed 004): `row` rows of `col` cells, listed top row first.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Stage {
    row: usize,
    col: usize,
    cells: Vec<i64>,
}

impl Match3Level {
    /// The seed's 9×9 board of playable cells with default settings.
    pub fn standard() -> Self {
        Match3Level { name: Some("match3 9x9".into()), ..Match3Level::default() }
    }

    /// Converts a stage file of the seed's format, `{"row": R, "col": C, "cells": [...]}` with
    /// cell code 0 = Void and 1 = Playable, rows top first, into a level whose playable cells are
    /// filled when the game starts. The level is checked: a layout on which no board can offer a
    /// valid swap is an error.
    pub fn from_stage_json(text: &str, name: Option<String>) -> Result<Match3Level, StageError> {
        let stage: Stage = serde_json::from_str(text).map_err(|e| LevelError::Syntax {
            line: e.line(),
            column: e.column(),
            message: e.to_string().split(" at line ").next().unwrap_or_default().to_string(),
        })?;
        let size =
            Size::new(stage.col, stage.row, MAX_SIDE).map_err(|e| format!("\"col\" × \"row\": {e}"))?;
        if stage.cells.len() != size.area() {
            return Err(format!(
                "\"cells\" has {} entries, expected row × col = {} × {} = {}",
                stage.cells.len(),
                stage.row,
                stage.col,
                size.area()
            )
            .into());
        }
        let mut rows = Vec::with_capacity(stage.row);
        for (y, chunk) in stage.cells.chunks(stage.col).enumerate() {
            let mut row = String::with_capacity(stage.col);
            for (x, &code) in chunk.iter().enumerate() {
                row.push(match code {
                    0 => '#',
                    1 => '.',
                    _ => {
                        return Err(LevelError::at(
                            Place::cell(x, y),
                            format!(
                                "\"cells\"[{}] (cell ({x}, {y})): code {code} is not 0 (void) or 1 (playable)",
                                y * stage.col + x
                            ),
                        ));
                    }
                });
            }
            rows.push(row);
        }
        let level = Match3Level { name, board: Some(rows), ..Match3Level::default() };
        level.start(crate::level::DEFAULT_SEED)?;
        Ok(level)
    }

    /// Checks the level and builds its rules and starting state. Errors name the cell or row
    /// ([`LevelError::place`]).
    pub fn start(&self, seed: u64) -> Result<(Match3Rules, Match3State), LevelError> {
        self.config.validate().map_err(|e| format!("config: {e}"))?;
        let breeds = self.config.breeds;
        let rows: Vec<String> = match &self.board {
            Some(rows) => rows.clone(),
            None => {
                let size = Size::new(self.width.unwrap_or(9), self.height.unwrap_or(9), MAX_SIDE)
                    .map_err(|e| e.to_string())?;
                vec![".".repeat(usize::from(size.width)); usize::from(size.height)]
            }
        };
        let lengths = rows.iter().map(|r| r.chars().count());
        let size = Size::of_rows("board", lengths, MAX_SIDE, self.width, self.height)?;
        let (width, height) = (usize::from(size.width), usize::from(size.height));
        let (w, h) = (width, height);
        let mut ar = Arranger::default();
        ar.reset(w, h, breeds);
        let mut cells = Vec::with_capacity(size.area());
        let mut locked = vec![false; size.area()];
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let i = y * w + x;
                match ch {
                    '#' => cells.push(Cell::Void),
                    '.' | '*' => {
                        cells.push(Cell::Playable);
                        locked[i] = ch == '*';
                        ar.set_open(i, ch == '.');
                    }
                    'a'..='p' | 'A'..='P' => {
                        let breed = ch.to_ascii_lowercase() as u8 - b'a';
                        if breed >= breeds {
                            return Err(LevelError::at(
                                Place::cell(x, y),
                                format!(
                                    "board cell ({x}, {y}): breed '{ch}' is outside the {breeds} breeds ({}-{})",
                                    breed_char(0, false),
                                    breed_char(breeds - 1, false)
                                ),
                            ));
                        }
                        cells.push(Cell::Playable);
                        locked[i] = ch.is_ascii_uppercase();
                        ar.set_fixed(i, breed, !locked[i]);
                    }
                    _ => {
                        return Err(LevelError::at(
                            Place::cell(x, y),
                            format!(
                                "board cell ({x}, {y}): '{ch}' is not a cell ('.', '#', '*', a-p or A-P)"
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(i) = ar.fixed_run() {
            return Err(LevelError::at(
                Place::cell(i % w, i / w),
                format!("board cell ({}, {}): the given blocks form a run of three or more", i % w, i / w),
            ));
        }
        let mut rng = GameRng::new(seed);
        match ar.arrange(&mut rng, &mut [0; 16]) {
            Plan::Found { .. } => {}
            Plan::Impossible if ar.order.is_empty() => {
                return Err("the board has no valid swap (no swap of two blocks makes a run)".into());
            }
            Plan::Impossible => {
                return Err(format!(
                    "no board without a run of three and with a valid swap exists for this layout \
                     with {breeds} breeds"
                )
                .into());
            }
            Plan::GaveUp => {
                return Err(format!(
                    "no board without a run of three and with a valid swap was found for this layout \
                     with {breeds} breeds within the search budget"
                )
                .into());
            }
        }
        let mut ids = IdGen::default();
        let blocks: Vec<Option<Block>> = (0..size.area())
            .map(|i| {
                (cells[i] == Cell::Playable).then(|| Block {
                    id: ids.next(),
                    breed: ar.known[i],
                    locked: locked[i],
                })
            })
            .collect();
        let state = Match3State::with_hash(
            Grid::from_cells(size, cells).ok_or("board shape")?,
            Grid::from_cells(size, blocks).ok_or("board shape")?,
            ids,
            rng,
        );
        Ok((Match3Rules::new(self.config.clone()), state))
    }
}
