//! The `puzzlescript` part of the level format: a game's source and which of its levels.

pub use super::entries::{entry_of, playable_count};
use super::{PuzzleScriptRules, PuzzleScriptState, engine};
use crate::LevelError;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A PuzzleScript level: the whole game's source (so a log replays without the `.txt`) and
/// which of its levels to play.
///
/// ```json
/// { "rule_set": "puzzlescript", "name": "Microban 3",
///   "source": "title Microban\n\n========\nOBJECTS\n...", "level": 2 }
/// ```
/// - `source`: the game, as PuzzleScript reads it (objects, legend, sounds, collision layers,
///   rules, win conditions, levels).
/// - `level`: which playable level, counting from 0 in the `LEVELS` section (messages between
///   levels are not counted).
/// - `seed`: the seed of the game's generator (`random` rules): the generator is seeded with its
///   decimal digits as PuzzleScript seeds with a string. The player's `--seed` overrides it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleScriptLevel {
    /// A title for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The seed; the player's `--seed` overrides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The game's source text, shared by the levels of one game (issue 37.2: a copy per level
    /// took 2.5 GB for a 250 KB game of 10,000 levels); written as a JSON string.
    pub source: Arc<str>,
    /// The playable level, from 0.
    #[serde(default)]
    pub level: usize,
}

/// The compile errors of `source` as one message, each naming its line.
pub fn describe_errors(errors: &[engine::Diagnostic]) -> String {
    engine::describe_errors(errors)
}

impl PuzzleScriptLevel {
    /// Compiles the game and starts its level with `seed`, by today's rules.
    pub fn start(&self, seed: u64) -> Result<(PuzzleScriptRules, PuzzleScriptState), LevelError> {
        self.start_version(seed, <super::PuzzleScript as crate::Plugin>::VERSION)
    }

    /// [`PuzzleScriptLevel::start`] by the rules of `version` (as
    /// [`PuzzleScriptRules::set_version`]; today's for a version this build does not keep).
    pub fn start_version(
        &self,
        seed: u64,
        version: u32,
    ) -> Result<(PuzzleScriptRules, PuzzleScriptState), LevelError> {
        let game = engine::compile(&self.source).map_err(|e| LevelError::invalid(describe_errors(&e)))?;
        let count = playable_count(&game);
        let Some(entry) = entry_of(&game, self.level) else {
            return Err(LevelError::invalid(format!(
                "level {} does not exist: the game has {count} playable level{} (numbered from 0)",
                self.level,
                if count == 1 { "" } else { "s" }
            )));
        };
        let mut rules = PuzzleScriptRules::new(Arc::new(game), self.source.clone(), entry);
        rules.set_version(version);
        let state = rules.start_state(seed).map_err(LevelError::invalid)?;
        Ok((rules, state))
    }
}

/// Every level of one game, compiled once: [`GameLevels::start`] starts any of them without
/// compiling the game or reading its source again (issue 66.8: `solve --all` compiled the
/// whole game for each level, quadratic in the number of levels; 10,000 levels of 250 KB ran
/// past 300 s).
pub struct GameLevels {
    game: Arc<engine::Game>,
    source: Arc<str>,
    /// The level-list index of each playable level.
    entries: Vec<usize>,
    glyphs: Vec<(char, Vec<u64>)>,
}

impl GameLevels {
    /// Compiles the game whose source is `source`.
    pub fn compile(source: Arc<str>) -> Result<GameLevels, LevelError> {
        let game = engine::compile(&source).map_err(|e| LevelError::invalid(describe_errors(&e)))?;
        let entries = game
            .levels()
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, engine::LevelEntry::Level { .. }))
            .map(|(i, _)| i)
            .collect();
        let glyphs = super::source::glyph_words(&source, &game);
        Ok(GameLevels { game: Arc::new(game), source, entries, glyphs })
    }

    /// How many playable levels the game has.
    pub fn count(&self) -> usize {
        self.entries.len()
    }

    /// The level of playable index `playable` (from 0) as a level file holds it.
    pub fn level(&self, playable: usize) -> PuzzleScriptLevel {
        PuzzleScriptLevel { name: None, seed: None, source: self.source.clone(), level: playable }
    }

    /// Starts playable level `playable` (from 0) with `seed` by today's rules: what
    /// [`PuzzleScriptLevel::start`] gives for it.
    pub fn start(
        &self,
        playable: usize,
        seed: u64,
    ) -> Result<(PuzzleScriptRules, PuzzleScriptState), LevelError> {
        let count = self.count();
        let Some(&entry) = self.entries.get(playable) else {
            return Err(LevelError::invalid(format!(
                "level {playable} does not exist: the game has {count} playable level{} (numbered from 0)",
                if count == 1 { "" } else { "s" }
            )));
        };
        let rules = PuzzleScriptRules::new(self.game.clone(), self.source.clone(), entry);
        let state = rules.start_state_with(seed, Some(&self.glyphs)).map_err(LevelError::invalid)?;
        Ok((rules, state))
    }
}
