//! What a bot needs from a rule set beyond [`Rules`]: how to determinize a look-ahead, when a
//! game is finished, what it achieved ([`Outcome`]), and what a search maximizes ([`Evaluator`]).
//!
//! Each rule set implements [`Playable`] in its module of [`crate::games`], whose docs say what
//! "won" and "objectives" mean for it in a difficulty report and what its
//! [`Playable::score_value`] is; `Playable for AnyRules` asks the registry. [`ScoreEval`], the
//! default value searches maximize, is that score value.

use tessera_core::{GameRng, Rules, Status};

/// What a game achieved, as a difficulty report counts it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Whether the level's goal was reached.
    pub won: bool,
    /// The score (0 for rule sets without one).
    pub score: u64,
    /// How many of the level's objectives were met.
    pub objectives_met: u32,
    /// How many objectives the level has.
    pub objectives: u32,
    /// The largest tile (slide only; 0 otherwise).
    pub top_tile: u32,
}

/// A rule set bots can play: [`Rules`] plus determinization and outcomes.
pub trait Playable: Rules + Sync {
    /// Replaces the state's generator with `rng` (the bot's own): what a look-ahead does to its
    /// copy of the state so that it samples chance instead of reading the game's future.
    fn determinize(state: &mut Self::State, rng: GameRng);

    /// What the game has achieved so far.
    fn outcome(&self, state: &Self::State) -> Outcome;

    /// Whether play stops here: the game is over, or won (unless `keep_going`).
    fn finished(&self, state: &Self::State, keep_going: bool) -> bool {
        match self.status(state) {
            Status::Playing => false,
            Status::Won => !keep_going,
            Status::Over => true,
        }
    }

    /// The value [`ScoreEval`] gives a state: higher is better.
    fn score_value(&self, state: &Self::State) -> f64;
}

/// What a search maximizes.
pub trait Evaluator<R: Rules>: Send + Sync {
    /// The value of `state`: higher is better.
    fn value(&self, rules: &R, state: &R::State) -> f64;
}

/// The rule set's own value ([`Playable::score_value`]): the score, or closeness for tactics.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScoreEval;

impl<R: Playable> Evaluator<R> for ScoreEval {
    fn value(&self, rules: &R, state: &R::State) -> f64 {
        rules.score_value(state)
    }
}
