//! What collapse registers with the bots.
//!
//! - Won when the board is cleared; one objective (clear the board).
//! - The value [`crate::ScoreEval`] maximizes: the score.
//! - Its bots: `nmcs` (also `--bot collapse`), [`NmcsBot`], whose `--level` (the nesting level)
//!   is 1 to 3, default 1; and `nrpa`, [`NrpaBot`], whose `--level` is 1 or 2 (100 or 10,000
//!   playouts per tap), default 1.

use super::{NmcsBot, NmcsConfig, NrpaBot};
use crate::Bot;
use crate::any::{BotInfo, BotKind, BotSpec, LevelSetting, Make, boxed};
use crate::games::GameBots;
use crate::playable::{Outcome, Playable};
use tessera_core::collapse::CollapseRules;
use tessera_core::{AnyRules, GameRng, RuleSet};

/// The rules the registry's entry is built on.
pub(crate) type Game = CollapseRules;

variant!(CollapseRules, Collapse);

impl Playable for CollapseRules {
    fn determinize(state: &mut Self::State, rng: GameRng) {
        state.replace_rng(rng);
    }

    fn outcome(&self, state: &Self::State) -> Outcome {
        let cleared = state.is_cleared();
        Outcome {
            won: cleared,
            score: state.score(),
            objectives_met: u32::from(cleared),
            objectives: 1,
            top_tile: 0,
        }
    }

    fn score_value(&self, state: &Self::State) -> f64 {
        state.score() as f64
    }
}

static NMCS_INFO: BotInfo = BotInfo {
    name: "nmcs",
    aliases: &["collapse"],
    about: "Nested Monte Carlo search.",
    only_for: Some(RuleSet::Collapse),
    budget: false,
    level: Some(LevelSetting { flag: "--level", min: 1, max: 3, range: "the NMCS level is 1 to 3" }),
    deterministic: false,
    make: Make::Own(nmcs),
};

/// `nmcs`: [`NmcsBot`], its nesting level the spec's level (default 1).
pub const NMCS: BotKind = BotKind::new(&NMCS_INFO);

fn nmcs(spec: &BotSpec, seed: u64) -> Box<dyn Bot<AnyRules>> {
    boxed::<CollapseRules, _>(NmcsBot::new(seed, NmcsConfig { level: spec.level.unwrap_or(1) }))
}

static NRPA_INFO: BotInfo = BotInfo {
    name: "nrpa",
    aliases: &[],
    about: "Nested rollout policy adaptation: one search of 100^level playouts plans the game.",
    only_for: Some(RuleSet::Collapse),
    budget: false,
    level: Some(LevelSetting {
        flag: "--level",
        min: 1,
        max: 3,
        range: "the NRPA level of the bot is 1 to 3",
    }),
    deterministic: false,
    make: Make::Own(nrpa),
};

/// `nrpa`: [`NrpaBot`], its level the spec's level (default 2).
pub const NRPA: BotKind = BotKind::new(&NRPA_INFO);

fn nrpa(spec: &BotSpec, seed: u64) -> Box<dyn Bot<AnyRules>> {
    boxed::<CollapseRules, _>(NrpaBot::new(seed, spec.level.unwrap_or(2)))
}

impl GameBots for CollapseRules {
    const RULE_SET: RuleSet = RuleSet::Collapse;
    const BOTS: &'static [BotKind] = &[NMCS, NRPA];
}
