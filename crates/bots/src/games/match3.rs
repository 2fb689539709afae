//! `match3` with the bots: what a game achieves, and the bots that play toward the level's
//! objectives.
//!
//! **Outcome.** Won when the target score is reached within the move limit (the rules' `Won`);
//! one objective when the level has a target score, none otherwise. The value
//! [`crate::ScoreEval`] maximizes: the score.
//!
//! **Bots.** [`ObjectiveEval`] values reaching the target score, then moves to spare;
//! `match3-greedy` is [`GreedyBot`] with it, `match3-mcts` [`MctsBot`] with it and rollouts of up
//! to 100 moves (the objective is decided toward the end of the move limit).

use crate::Bot;
use crate::any::{BotInfo, BotKind, BotSpec, Make, boxed};
use crate::games::GameBots;
use crate::generic::{GreedyBot, MctsBot};
use crate::playable::{Evaluator, Outcome, Playable};
use tessera_core::match3::Match3Rules;
use tessera_core::{AnyRules, GameRng, RuleSet, Rules};

/// The rules the registry's entry is built on.
pub(crate) type Game = Match3Rules;

variant!(Match3Rules, Match3);

impl Playable for Match3Rules {
    fn determinize(state: &mut Self::State, rng: GameRng) {
        state.replace_rng(rng);
    }

    fn outcome(&self, state: &Self::State) -> Outcome {
        let objectives = u32::from(self.config.target_score.is_some());
        Outcome {
            won: state.won(),
            score: state.score(),
            objectives_met: u32::from(state.won()).min(objectives),
            objectives,
            top_tile: 0,
        }
    }

    fn score_value(&self, state: &Self::State) -> f64 {
        state.score() as f64
    }
}

/// Match-3 objectives: a state that reached the target score is worth 2 plus the share of the
/// move limit left; any other state its share of the target score (below 1). Levels without a
/// target score are valued by their score.
#[derive(Clone, Copy, Debug, Default)]
pub struct ObjectiveEval;

impl Evaluator<Match3Rules> for ObjectiveEval {
    fn value(&self, rules: &Match3Rules, state: &<Match3Rules as Rules>::State) -> f64 {
        let Some(target) = rules.config.target_score else { return state.score() as f64 };
        if state.won() {
            let left = match rules.config.move_limit {
                Some(limit) => f64::from(limit.saturating_sub(state.moves())) / f64::from(limit.max(1)),
                None => 0.0,
            };
            return 2.0 + left;
        }
        state.score().min(target) as f64 / target as f64 * 0.999
    }
}

static GREEDY_INFO: BotInfo = BotInfo {
    name: "match3-greedy",
    aliases: &[],
    about: "Greedy toward the level's objectives.",
    only_for: Some(RuleSet::Match3),
    budget: false,
    level: None,
    deterministic: false,
    make: Make::Own(greedy),
};

static MCTS_INFO: BotInfo = BotInfo {
    name: "match3-mcts",
    aliases: &[],
    about: "MCTS toward the level's objectives.",
    only_for: Some(RuleSet::Match3),
    budget: true,
    level: None,
    deterministic: false,
    make: Make::Own(mcts),
};

/// `match3-greedy`: [`GreedyBot`] with [`ObjectiveEval`].
pub const GREEDY: BotKind = BotKind::new(&GREEDY_INFO);
/// `match3-mcts`: [`MctsBot`] with [`ObjectiveEval`].
pub const MCTS: BotKind = BotKind::new(&MCTS_INFO);

fn greedy(_spec: &BotSpec, seed: u64) -> Box<dyn Bot<AnyRules>> {
    boxed::<Match3Rules, _>(GreedyBot::<Match3Rules, _>::new(seed, ObjectiveEval))
}

fn mcts(spec: &BotSpec, seed: u64) -> Box<dyn Bot<AnyRules>> {
    let mut config = spec.mcts_config();
    // Play on toward the end of the move limit, where the objective is decided (levels without
    // one stop at the cap).
    config.rollout_depth = 100;
    boxed::<Match3Rules, _>(MctsBot::<Match3Rules, _>::new(seed, ObjectiveEval, config))
}

impl GameBots for Match3Rules {
    const RULE_SET: RuleSet = RuleSet::Match3;
    const BOTS: &'static [BotKind] = &[GREEDY, MCTS];
}
