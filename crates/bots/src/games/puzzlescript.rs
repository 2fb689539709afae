//! `puzzlescript` with the bots: what a game of a PuzzleScript level achieves.
//!
//! **Outcome.** Won when the game's win conditions hold (or a `win` command ran); one objective,
//! the level; no score. A game stops when won or at the move cap (PuzzleScript games never end
//! otherwise). Determinization reseeds PuzzleScript's own generator from the bot's.
//!
//! **The value** [`crate::ScoreEval`] maximizes: 1 when won, else 0. The generic bots play
//! PuzzleScript levels (`random`, `greedy`, `mcts`); a solver for any PuzzleScript level is the
//! next step.

use crate::games::GameBots;
use crate::playable::{Outcome, Playable};
use tessera_core::puzzlescript::PuzzleScriptRules;
use tessera_core::{GameRng, Plugin, RuleSet};

/// The rules the registry's entry is built on.
pub(crate) type Game = PuzzleScriptRules;

variant!(PuzzleScriptRules, PuzzleScript);

impl Playable for PuzzleScriptRules {
    fn determinize(state: &mut Self::State, rng: GameRng) {
        tessera_core::puzzlescript::PuzzleScript::replace_rng(state, rng);
    }

    fn outcome(&self, state: &Self::State) -> Outcome {
        let won = state.is_won();
        Outcome { won, score: 0, objectives_met: u32::from(won), objectives: 1, top_tile: 0 }
    }

    fn score_value(&self, state: &Self::State) -> f64 {
        if state.is_won() { 1.0 } else { 0.0 }
    }
}

impl GameBots for PuzzleScriptRules {
    const RULE_SET: RuleSet = RuleSet::PuzzleScript;
    const BOTS: &'static [crate::BotKind] = &[];
}
