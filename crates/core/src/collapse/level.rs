//! The `collapse` part of the level format.

use super::{
    CollapseConfig, CollapseRules, CollapseState, Compaction, DEFAULT_COLOURS, MAX_COLOURS, MAX_SIDE,
    colour_from_char,
};
use crate::geom::Size;
use crate::level::{LevelError, Place};
use serde::{Deserialize, Serialize};

/// The side of a new random board when the level gives neither a board nor a size (the seed
/// does not say its own).
pub const DEFAULT_SIDE: usize = 10;

/// A SameGame level: a starting board or the size and colours of a random one, settings and an
/// optional seed.
///
/// ```json
/// { "rule_set": "collapse", "name": "small", "colours": 3,
///   "config": { "min_group": 2, "compaction": "center", "scoring": "tiered" },
///   "board": ["..1..",
///             ".021.",
///             "20112"] }
/// ```
/// - `board`: rows from the top, each a string with one character per cell: a colour digit
///   `0`–`9`, then `a`–`f` for colours 10 to 15 (lower case), or `.` for an empty cell. Every
///   row has the same length. Tiles must be settled (no tile above an empty cell), and the
///   empty columns must be where the `compaction` policy puts them (`left`: all at the right;
///   `center`: at both edges, see [`super::Compaction`]; `none`: anywhere). With a board the
///   game starts from exactly it; tile ids are 0, 1, … row by row from the top left.
/// - Without a board: a new full board of `width × height` (default 10×10), each cell one of
///   `colours` colours drawn from the seed.
/// - `width`, `height`: 1 to 256; optional with a board (they must then match it).
/// - `colours`: 2 to 16, default 4 (the seed). With a board, every colour must be below it.
/// - `config`: `min_group` (≥ 1, default 2), `compaction` (`center` (default), `left`, `none`),
///   `scoring` (`tiered` (default), `standard`).
/// - `seed`: the generator's seed; the player's `--seed` overrides it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollapseLevel {
    /// A title for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Board width; default 10, or the board's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// Board height; default 10, or the board's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    /// Number of colours, 2 to 16; default 4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colours: Option<u8>,
    /// Settings.
    #[serde(default)]
    pub config: CollapseConfig,
    /// The seed; the player's `--seed` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Rows from the top: colour characters and `.` for empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<String>>,
}

impl CollapseLevel {
    /// The seed's game: a random 10×10 board of 4 colours, `center` compaction, `tiered` score.
    pub fn seed_game() -> Self {
        CollapseLevel { name: Some("seed 001: 10x10, 4 colours".into()), ..CollapseLevel::default() }
    }

    /// A level starting from `board` rows (see the type's docs) with `config`.
    pub fn from_rows(board: Vec<String>, config: CollapseConfig) -> Self {
        CollapseLevel { board: Some(board), config, ..CollapseLevel::default() }
    }

    /// Checks the level and builds its rules and starting state. Errors name the cell, row or
    /// column ([`LevelError::place`]).
    pub fn start(&self, seed: u64) -> Result<(CollapseRules, CollapseState), LevelError> {
        self.config.validate().map_err(|e| format!("config: {e}"))?;
        let rules = CollapseRules::new(self.config.clone());
        if let Some(k) = self.colours.filter(|k| !(2..=MAX_COLOURS).contains(k)) {
            return Err(format!("colours {k} is outside 2..={MAX_COLOURS}").into());
        }
        let Some(rows) = &self.board else {
            let size =
                Size::new(self.width.unwrap_or(DEFAULT_SIDE), self.height.unwrap_or(DEFAULT_SIDE), MAX_SIDE)
                    .map_err(|e| e.to_string())?;
            let colours = self.colours.unwrap_or(DEFAULT_COLOURS);
            return Ok((rules, CollapseState::new_game(size, colours, seed)));
        };
        let lengths = rows.iter().map(|r| r.chars().count());
        let size = Size::of_rows("board", lengths, MAX_SIDE, self.width, self.height)?;
        let limit = self.colours.unwrap_or(MAX_COLOURS);
        let mut cells = Vec::with_capacity(size.area());
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == '.' {
                    cells.push(None);
                    continue;
                }
                let Some(c) = colour_from_char(ch) else {
                    return Err(LevelError::at(
                        Place::cell(x, y),
                        format!("board cell ({x}, {y}): '{ch}' is not a colour (0-9, a-f) or '.' (empty)"),
                    ));
                };
                if c >= limit {
                    return Err(LevelError::at(
                        Place::cell(x, y),
                        format!("board cell ({x}, {y}): colour {ch} is not below colours {limit}"),
                    ));
                }
                cells.push(Some(c));
            }
        }
        let state = CollapseState::from_cells(size, &cells, seed)?;
        check_compaction(&state, self.config.compaction)?;
        Ok((rules, state))
    }
}

/// Refuses a board whose empty columns are not where `compaction` keeps them.
/// The place is the empty column.
fn check_compaction(state: &CollapseState, compaction: Compaction) -> Result<(), LevelError> {
    let w = state.board().width();
    let empty = |x: u16| state.column_is_empty(x);
    match compaction {
        Compaction::None => Ok(()),
        Compaction::Left => match (0..w).find(|&x| empty(x)) {
            Some(e) => match (e + 1..w).find(|&x| !empty(x)) {
                Some(x) => Err(LevelError::at(
                    Place::Column(usize::from(e)),
                    format!(
                        "board column {e} is empty but column {x} is not: with left compaction the \
                         non-empty columns are packed to the left"
                    ),
                )),
                None => Ok(()),
            },
            None => Ok(()),
        },
        Compaction::Center => {
            let c = w / 2;
            // Left part 0..=c packs toward c: no non-empty column left of an empty one.
            if let Some(e) = (0..=c).rev().find(|&x| empty(x))
                && let Some(x) = (0..e).find(|&x| !empty(x))
            {
                return Err(LevelError::at(
                    Place::Column(usize::from(e)),
                    format!(
                        "board column {e} is empty but column {x} left of it is not: with center \
                         compaction columns 0..={c} are packed toward column {c}"
                    ),
                ));
            }
            // Right part c+1.. packs toward c+1: no non-empty column right of an empty one.
            if let Some(e) = (c + 1..w).find(|&x| empty(x))
                && let Some(x) = (e + 1..w).find(|&x| !empty(x))
            {
                return Err(LevelError::at(
                    Place::Column(usize::from(e)),
                    format!(
                        "board column {e} is empty but column {x} right of it is not: with center \
                         compaction columns {}..{w} are packed toward column {}",
                        c + 1,
                        c + 1
                    ),
                ));
            }
            Ok(())
        }
    }
}
