//! [`Settings`]: what a rating run uses (a bot per rule set, the games and their seeds), as the
//! plan, the shards and the results file all record it.

use crate::error::PackError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tessera_bots::{BotSpec, GameConfig};
use tessera_core::RuleSet;

/// The most games per level a rating plays (`--games`, a shard's `settings.games`): checked
/// before anything is allocated for them.
pub const MAX_GAMES: u64 = 1_000_000;

/// The bot used for every rule set without a bot of its own in [`Settings::bots`].
pub const ANY_RULE_SET: &str = "*";

/// What a rating run uses: a bot per rule set, the games and their seeds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The bot for each rule set, by rule set name, or [`ANY_RULE_SET`] for the others.
    pub bots: BTreeMap<String, BotSpec>,
    /// Games per level.
    pub games: u64,
    /// Game `i` uses seed `seed + i`.
    pub seed: u64,
    /// When a game stops.
    pub config: GameConfig,
}

impl Settings {
    /// The bot that rates levels of `rule_set`: its own, else the default, if it plays it.
    pub fn bot_for(&self, rule_set: RuleSet) -> Option<BotSpec> {
        let spec = self.bots.get(rule_set.name()).or_else(|| self.bots.get(ANY_RULE_SET))?;
        spec.check(rule_set).is_ok().then(|| spec.clone())
    }

    /// Checks the settings: games at least 1, every key a rule set (or `*`), each bot playing
    /// the rule set it is given for.
    pub fn check(&self) -> Result<(), PackError> {
        if self.games == 0 {
            return Err(PackError::Settings("--games must be at least 1".into()));
        }
        if self.games > MAX_GAMES {
            return Err(PackError::Settings(format!(
                "--games {}: at most {MAX_GAMES} games per level",
                self.games
            )));
        }
        if self.bots.is_empty() {
            return Err(PackError::Settings("no bot given (--bot NAME or --bot RULE_SET=NAME)".into()));
        }
        for (key, spec) in &self.bots {
            if key == ANY_RULE_SET {
                continue;
            }
            let Some(rule_set) = RuleSet::ALL.iter().copied().find(|r| r.name() == key) else {
                let names: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
                return Err(PackError::Settings(format!(
                    "--bot {key}=…: no rule set is called {key} (rule sets: {})",
                    names.join(", ")
                )));
            };
            spec.check(rule_set)
                .map_err(|e| PackError::Settings(format!("--bot {key}={}: {e}", spec.kind)))?;
        }
        Ok(())
    }
}
