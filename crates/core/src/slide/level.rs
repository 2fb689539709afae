//! The `slide` part of the level format.

use super::{MAX_SIDE, SlideConfig, SlideRules, SlideState};
use crate::geom::Size;
use crate::level::{LevelError, Place};
use serde::{Deserialize, Serialize};

/// A 2048 level: a board size or a starting board, settings and an optional seed.
///
/// ```json
/// { "rule_set": "slide", "width": 4, "height": 4, "config": { "target": 2048 },
///   "board": [[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0], [0, 0, 0, 0]], "seed": 7 }
/// ```
/// - `board`: rows from the top, each a list of numbers, `0` for empty, other values powers of
///   two from 2 to 2^30. With a board the game starts from exactly it (nothing spawned); without
///   one it starts a new game of `width × height` (default 4×4) with two spawned tiles.
/// - `width`, `height`: optional with a board (they must then match it).
/// - `config`: `target` (power of two ≥ 4, default 2048) and `four_chance`
///   (`{"num": 1, "den": 10}`, the probability that a spawn is a 4).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlideLevel {
    /// A title for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Board width; default 4, or the board's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
    /// Board height; default 4, or the board's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<usize>,
    /// Settings.
    #[serde(default)]
    pub config: SlideConfig,
    /// The seed; the player's `--seed` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Rows from the top, 0 for empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<Vec<u32>>>,
}

impl SlideLevel {
    /// The classic game: 4×4, target 2048, two spawned tiles.
    pub fn classic() -> Self {
        SlideLevel { name: Some("classic 4x4".into()), ..SlideLevel::default() }
    }

    /// Checks the level and builds its rules and starting state. Errors name the cell or row
    /// ([`LevelError::place`]).
    pub fn start(&self, seed: u64) -> Result<(SlideRules, SlideState), LevelError> {
        self.config.validate().map_err(|e| format!("config: {e}"))?;
        let rules = SlideRules::new(self.config.clone());
        let Some(rows) = &self.board else {
            let size = Size::new(self.width.unwrap_or(4), self.height.unwrap_or(4), MAX_SIDE)
                .map_err(|e| e.to_string())?;
            return Ok((rules, SlideState::new_game(size, &self.config, seed)));
        };
        let size = Size::of_rows("board", rows.iter().map(Vec::len), MAX_SIDE, self.width, self.height)?;
        let mut values = Vec::with_capacity(size.area());
        for (y, row) in rows.iter().enumerate() {
            for (x, &v) in row.iter().enumerate() {
                if v != 0 && (v < 2 || !v.is_power_of_two()) {
                    return Err(LevelError::at(
                        Place::cell(x, y),
                        format!("board cell ({x}, {y}): {v} is not a power of two of at least 2"),
                    ));
                }
                if v > super::MAX_TILE {
                    return Err(LevelError::at(
                        Place::cell(x, y),
                        format!("board cell ({x}, {y}): {v} is larger than 2^30, the largest tile"),
                    ));
                }
                values.push(v);
            }
        }
        let state = SlideState::from_values(size, &values, seed).ok_or("board values are invalid")?;
        Ok((rules, state))
    }
}
