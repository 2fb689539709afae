//! What slide registers with the bots.
//!
//! - Won when a tile reached the target; one objective (the target tile). A game stops at the
//!   first win unless `keep_going` (then at game over). The outcome's `top_tile` is the largest
//!   tile, and a difficulty report adds the histogram of each game's largest tile (`top_tiles`).
//! - The value [`crate::ScoreEval`] maximizes: the score.
//! - Its bot: `expectimax` (also `--bot slide`), [`ExpectimaxBot`], whose `--depth` is 1 to 6.

use super::{ExpectimaxBot, ExpectimaxConfig};
use crate::Bot;
use crate::any::{BotInfo, BotKind, BotSpec, LevelSetting, Make, boxed};
use crate::game::GameResult;
use crate::games::GameBots;
use crate::playable::{Outcome, Playable};
use crate::summary::{Summary, histogram};
use tessera_core::slide::SlideRules;
use tessera_core::{AnyRules, GameRng, RuleSet};

/// The rules the registry's entry is built on.
pub(crate) type Game = SlideRules;

variant!(SlideRules, Slide);

impl Playable for SlideRules {
    fn determinize(state: &mut Self::State, rng: GameRng) {
        state.replace_rng(rng);
    }

    fn outcome(&self, state: &Self::State) -> Outcome {
        Outcome {
            won: state.won(),
            score: state.score(),
            objectives_met: u32::from(state.won()),
            objectives: 1,
            top_tile: state.tiles().map(|(_, t)| t.value).max().unwrap_or(0),
        }
    }

    fn score_value(&self, state: &Self::State) -> f64 {
        state.score() as f64
    }
}

static EXPECTIMAX_INFO: BotInfo = BotInfo {
    name: "expectimax",
    aliases: &["slide"],
    about: "Expectimax over spawns on a 4×4 bitboard.",
    only_for: Some(RuleSet::Slide),
    budget: false,
    level: Some(LevelSetting { flag: "--depth", min: 1, max: 6, range: "expectimax depth is 1 to 6" }),
    deterministic: false,
    make: Make::Own(expectimax),
};

/// `expectimax`: [`ExpectimaxBot`], its depth the spec's level (default adaptive).
pub const EXPECTIMAX: BotKind = BotKind::new(&EXPECTIMAX_INFO);

fn expectimax(spec: &BotSpec, seed: u64) -> Box<dyn Bot<AnyRules>> {
    boxed::<SlideRules, _>(ExpectimaxBot::new(seed, ExpectimaxConfig { depth: spec.level }))
}

impl GameBots for SlideRules {
    const RULE_SET: RuleSet = RuleSet::Slide;
    const BOTS: &'static [BotKind] = &[EXPECTIMAX];

    /// The largest tile of each game, as a histogram.
    fn summarize(results: &[GameResult], summary: &mut Summary) {
        summary.top_tiles = histogram(results.iter().map(|r| u64::from(r.top_tile)));
    }
}
