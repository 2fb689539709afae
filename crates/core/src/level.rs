//! The level format: one JSON document naming its rule set.
//!
//! Every level is a JSON object with a `"rule_set"` field (`"slide"`, …) and that rule set's
//! fields, documented on its level type ([`SlideLevel`], [`CollapseLevel`], [`TacticsLevel`],
//! [`Match3Level`]). Unknown fields are errors, so a typo is caught rather than ignored.
//! [`Level::from_json`] parses and checks a level, naming what is wrong; [`Level::start`] builds
//! the game. The apps add the file name to the error.

use crate::any::{AnyRules, AnyState, Game};
use crate::collapse::CollapseLevel;
use crate::geom::Pos;
use crate::match3::Match3Level;
use crate::slide::SlideLevel;
use crate::tactics::TacticsLevel;
use serde::{Deserialize, Serialize};

/// The seed a game starts from when neither the level nor the player gives one.
pub const DEFAULT_SEED: u64 = 0;

/// A level of any rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule_set", rename_all = "snake_case")]
pub enum Level {
    /// 2048.
    Slide(SlideLevel),
    /// SameGame.
    Collapse(CollapseLevel),
    /// Turn-based tactics grid.
    Tactics(TacticsLevel),
    /// Match-3.
    Match3(Match3Level),
}

/// A level that cannot be read or played.
///
/// The message (`Display`) says what and where for a person; [`LevelError::place`] gives the
/// where as data, so a view can outline the cell without reading the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// Not valid JSON, or fields of the wrong type or name.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Well-formed but not a playable level (a bad board, size or setting).
    #[error("{message}")]
    Invalid {
        /// What is wrong, naming the place for a person.
        message: String,
        /// Where, when the problem is at one place of the board, map or unit list.
        at: Option<Place>,
    },
}

/// Where in a level a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A cell of the board or map (`x` the column, `y` the row from the top), whatever the rule
    /// set calls it in the message (`board cell (x, y)`, `map row y, column x`).
    Cell(Pos),
    /// A whole row of the board or map, from the top (one of the wrong length).
    Row(usize),
    /// A whole column of the board (an empty column where the compaction policy allows none).
    Column(usize),
    /// A unit of the level, by its index in the level's list (which is its id).
    Unit(usize),
}

impl Place {
    /// The cell at column `x`, row `y` of a board already checked to fit [`crate::MAX_SIDE`].
    pub(crate) fn cell(x: usize, y: usize) -> Place {
        Place::Cell(Pos::new(x as u16, y as u16))
    }
}

impl LevelError {
    /// A level that does not play, at no one place.
    pub fn invalid(message: impl Into<String>) -> LevelError {
        LevelError::Invalid { message: message.into(), at: None }
    }

    /// A level that does not play because of what is at `place`.
    pub fn at(place: Place, message: impl Into<String>) -> LevelError {
        LevelError::Invalid { message: message.into(), at: Some(place) }
    }

    /// Where the problem is, if it is at one place ([`LevelError::Syntax`]: the JSON text's line
    /// and column are in the variant, not a place of the level).
    pub fn place(&self) -> Option<Place> {
        match self {
            LevelError::Syntax { .. } => None,
            LevelError::Invalid { at, .. } => *at,
        }
    }
}

impl From<String> for LevelError {
    fn from(message: String) -> LevelError {
        LevelError::invalid(message)
    }
}

impl From<&str> for LevelError {
    fn from(message: &str) -> LevelError {
        LevelError::invalid(message)
    }
}

impl Level {
    /// Parses and checks a level.
    pub fn from_json(text: &str) -> Result<Level, LevelError> {
        let level = Level::parse_draft(text)?;
        level.start(None)?;
        Ok(level)
    }

    /// Parses a level without checking that it starts: the editor opens drafts (a level saved
    /// while it is not yet playable) this way and shows what [`Level::start`] says about them.
    pub fn parse_draft(text: &str) -> Result<Level, LevelError> {
        serde_json::from_str(text).map_err(|e| {
            let message = e.to_string().split(" at line ").next().unwrap_or_default().to_string();
            // serde_json reports line 0 when it cannot place the problem (a field missing from a
            // level, which it checks after buffering the whole object): say what, not where.
            if e.line() == 0 {
                LevelError::invalid(message)
            } else {
                LevelError::Syntax { line: e.line(), column: e.column(), message }
            }
        })
    }

    /// The level as pretty JSON (what the apps save).
    pub fn to_json(&self) -> String {
        // Levels hold only strings, numbers, lists and structs: serialization cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The built-in default: classic 4×4 2048.
    pub fn classic() -> Level {
        Level::Slide(SlideLevel::classic())
    }

    /// The level's own seed, if it has one.
    pub fn seed(&self) -> Option<u64> {
        match self {
            Level::Slide(l) => l.seed,
            Level::Collapse(l) => l.seed,
            Level::Tactics(l) => l.seed,
            Level::Match3(l) => l.seed,
        }
    }

    /// Starts the level with `seed`, else its own seed, else [`DEFAULT_SEED`].
    pub fn start(&self, seed: Option<u64>) -> Result<Game, LevelError> {
        let seed = seed.or(self.seed()).unwrap_or(DEFAULT_SEED);
        match self {
            Level::Slide(l) => {
                let (r, s) = l.start(seed)?;
                Ok(Game { rules: AnyRules::Slide(r), state: AnyState::Slide(s) })
            }
            Level::Collapse(l) => {
                let (r, s) = l.start(seed)?;
                Ok(Game { rules: AnyRules::Collapse(r), state: AnyState::Collapse(s) })
            }
            Level::Tactics(l) => {
                let (r, s) = l.start()?;
                Ok(Game { rules: AnyRules::Tactics(r), state: AnyState::Tactics(s) })
            }
            Level::Match3(l) => {
                let (r, s) = l.start(seed)?;
                Ok(Game { rules: AnyRules::Match3(r), state: AnyState::Match3(s) })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RuleSet, Size};

    #[test]
    fn classic_round_trips_through_json() {
        let level = Level::classic();
        assert_eq!(Level::from_json(&level.to_json()).unwrap(), level);
    }

    #[test]
    fn unknown_fields_and_rule_sets_are_named() {
        let e = Level::from_json(r#"{"rule_set": "slide", "widht": 4}"#).unwrap_err();
        assert!(e.to_string().contains("widht"), "{e}");
        let e = Level::from_json(r#"{"rule_set": "chess"}"#).unwrap_err();
        assert!(e.to_string().contains("chess"), "{e}");
    }

    #[test]
    fn bad_boards_say_what_and_where() {
        let e = Level::from_json(r#"{"rule_set": "slide", "board": [[0,2],[2,0,0]]}"#).unwrap_err();
        assert_eq!(e.to_string(), "board row 1 has 3 cells, expected 2");
        let e = Level::from_json(r#"{"rule_set": "slide", "board": [[0,6],[2,0]]}"#).unwrap_err();
        assert_eq!(e.to_string(), "board cell (1, 0): 6 is not a power of two of at least 2");
        let e = Level::from_json("{\n\"rule_set\": \"slide\",\n\"board\": [[0,2],[2,0]\n}").unwrap_err();
        assert!(matches!(e, LevelError::Syntax { line: 4, .. }), "{e:?}");
        let e = Level::from_json(r#"{"rule_set": "tactics"}"#).unwrap_err();
        assert_eq!(e.to_string(), "missing field `map`");
        let e = Level::from_json(r#"{"rule_set": "slide", "config": {"target": 100}}"#).unwrap_err();
        assert!(e.to_string().contains("target 100"), "{e}");
    }

    /// The place of the first problem of `json`, and its message.
    fn place(json: &str) -> (Option<Place>, String) {
        let e = Level::from_json(json).unwrap_err();
        (e.place(), e.to_string())
    }

    #[test]
    fn errors_carry_their_cell_as_data() {
        let cell = |x, y| Some(Place::Cell(Pos::new(x, y)));
        assert_eq!(place(r#"{"rule_set": "slide", "board": [[0,2],[2,6]]}"#).0, cell(1, 1));
        assert_eq!(place(r#"{"rule_set": "collapse", "board": ["0x", "00"]}"#).0, cell(1, 0));
        // A tile above a gap is found by the state, not the level: its place still comes back.
        assert_eq!(place(r#"{"rule_set": "collapse", "board": ["00", ".0"]}"#).0, cell(0, 0));
        assert_eq!(place(r#"{"rule_set": "match3", "board": ["...", "..?"]}"#).0, cell(2, 1));
        assert_eq!(place(r#"{"rule_set": "match3", "board": ["....", "aaa."]}"#).0, cell(0, 1));
        // Tactics names map cells by row and column; the place is the same cell.
        let (at, message) = place(r#"{"rule_set": "tactics", "map": ["...", ".?."]}"#);
        assert_eq!(message, "map row 1, column 1: '?' is not in the legend");
        assert_eq!(at, cell(1, 1));
    }

    #[test]
    fn errors_carry_their_unit_row_or_column_as_data() {
        let tactics =
            |units: &str| format!(r#"{{"rule_set": "tactics", "map": ["..", ".#"], "units": [{units}]}}"#);
        let (at, message) = place(&tactics(r#"{"team": 0, "x": 0, "y": 0}, {"team": 1, "x": 9, "y": 0}"#));
        assert_eq!((at, message.as_str()), (Some(Place::Unit(1)), "unit 1: cell (9, 0) is off the 2x2 map"));
        let (at, message) = place(&tactics(r#"{"team": 0, "x": 1, "y": 1}"#));
        assert_eq!(
            (at, message.as_str()),
            (Some(Place::Unit(0)), "unit 0: cell (1, 1) is impassable terrain")
        );
        let (at, _) = place(&tactics(r#"{"team": 0, "x": 0, "y": 0}, {"team": 1, "x": 0, "y": 0}"#));
        assert_eq!(at, Some(Place::Unit(0)));
        let (at, _) = place(&tactics(r#"{"team": 0, "x": 0, "y": 0, "movement": 2000000}"#));
        assert_eq!(at, Some(Place::Unit(0)));

        let (at, message) = place(r#"{"rule_set": "match3", "board": ["...", "..", "..."]}"#);
        assert_eq!((at, message.as_str()), (Some(Place::Row(1)), "board row 1 has 2 cells, expected 3"));
        let (at, message) = place(r#"{"rule_set": "tactics", "map": ["..", "..."]}"#);
        assert_eq!((at, message.as_str()), (Some(Place::Row(1)), "map row 1 has 3 cells, expected 2"));
        let (at, message) =
            place(r#"{"rule_set": "collapse", "board": [".0", ".0"], "config": {"compaction": "left"}}"#);
        assert!(message.starts_with("board column 0 is empty but column 1 is not"), "{message}");
        assert_eq!(at, Some(Place::Column(0)));

        // Problems of the whole level are at no place.
        assert_eq!(place(r#"{"rule_set": "slide", "width": 3, "board": [[0,2],[2,0]]}"#).0, None);
        assert_eq!(place(r#"{"rule_set": "slide", "board": []}"#).0, None);
        assert_eq!(place(r#"{"rule_set": "collapse", "colours": 40}"#).0, None);
        assert_eq!(place("{\n\"rule_set\": \"slide\",\n\"board\": [[0,2],[2,0]\n}").0, None);
    }

    #[test]
    fn the_row_check_says_what_as_the_levels_said_it() {
        let rows = |lengths: &[usize], w, h| Size::of_rows("board", lengths.iter().copied(), 256, w, h);
        assert_eq!(rows(&[3, 3], None, None), Ok(Size { width: 3, height: 2 }));
        assert_eq!(rows(&[3, 3], Some(3), Some(2)), Ok(Size { width: 3, height: 2 }));
        let e = rows(&[], None, None).unwrap_err();
        assert_eq!(e.to_string(), "board: board size 0x0 is outside 1x1..=256x256");
        let e = rows(&[257], None, None).unwrap_err();
        assert_eq!(e.to_string(), "board: board size 257x1 is outside 1x1..=256x256");
        let e = rows(&[0, 0], None, None).unwrap_err();
        assert_eq!(e.to_string(), "board: board size 0x2 is outside 1x1..=256x256");
        // Width, then height, then each row, as every level format checked them.
        let e = rows(&[3, 2], Some(4), Some(5)).unwrap_err();
        assert_eq!((e.place(), e.to_string().as_str()), (None, "width is 4 but the board rows have 3 cells"));
        let e = rows(&[3, 2], None, Some(5)).unwrap_err();
        assert_eq!(e.to_string(), "height is 5 but the board has 2 rows");
        let e = Size::of_rows("map", [2, 2, 1], 1024, None, None).unwrap_err();
        assert_eq!(
            (e.place(), e.to_string().as_str()),
            (Some(Place::Row(2)), "map row 2 has 1 cells, expected 2")
        );
    }

    #[test]
    fn each_rule_set_states_its_largest_side() {
        assert_eq!(RuleSet::Slide.max_side(), 256);
        assert_eq!(RuleSet::Collapse.max_side(), 256);
        assert_eq!(RuleSet::Match3.max_side(), 256);
        assert_eq!(RuleSet::Tactics.max_side(), 1024);
        for &r in RuleSet::ALL {
            let side = r.max_side();
            let json = |w: usize| match r {
                RuleSet::Tactics => format!(r#"{{"rule_set": "tactics", "map": ["{}"]}}"#, ".".repeat(w)),
                _ => format!(r#"{{"rule_set": "{}", "width": {w}, "height": 3}}"#, r.name()),
            };
            assert!(Level::from_json(&json(side)).is_ok(), "{r:?} at {side}");
            let e = Level::from_json(&json(side + 1)).unwrap_err();
            assert!(e.to_string().contains(&format!("{}x", side + 1)), "{r:?}: {e}");
        }
    }

    #[test]
    fn a_board_starts_exactly_as_given() {
        let level = Level::from_json(r#"{"rule_set": "slide", "board": [[2,0],[0,4]]}"#).unwrap();
        let game = level.start(Some(5)).unwrap();
        assert_eq!(game.state.board_json(), serde_json::json!([[2, 0], [0, 4]]));
    }
}
