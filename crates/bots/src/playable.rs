//! What a bot needs from a rule set beyond [`Rules`]: how to determinize a look-ahead, when a
//! game is finished, what it achieved ([`Outcome`]), and what a search maximizes ([`Evaluator`]).
//!
//! Decisions per rule set (what "won" and "objectives" mean in a difficulty report):
//! - `slide`: won when a tile reached the target; one objective (the target tile). A game stops
//!   at the first win unless `keep_going` (then at game over). `top_tile` is the largest tile.
//! - `collapse`: won when the board is cleared; one objective (clear the board).
//! - `match3`: won when the target score is reached within the move limit (the rules' `Won`);
//!   one objective when the level has a target score, none otherwise.
//! - `tactics`: the rules have no combat and no end yet, so the objective is *contact*: each unit
//!   of team 0 standing next to (4- or 8-connected, as the map) a unit of another team. The
//!   objectives are team 0's units, won when all are in contact, and the game stops then (or at
//!   the move cap).
//!
//! Default values searches maximize ([`ScoreEval`]): the score for slide, collapse and match3;
//! for tactics, minus the sum over units of the Manhattan distance to the nearest enemy.
//! [`ObjectiveEval`] (match3) values reaching the target score, then moves to spare.

use tessera_core::collapse::CollapseRules;
use tessera_core::match3::Match3Rules;
use tessera_core::slide::SlideRules;
use tessera_core::tactics::{Connectivity, TacticsRules, TacticsState};
use tessera_core::{AnyRules, AnyState, GameRng, Rules, Status};

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

/// Whether two cells are neighbours under `connectivity`.
fn touching(a: tessera_core::Pos, b: tessera_core::Pos, connectivity: Connectivity) -> bool {
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    match connectivity {
        Connectivity::Four => dx + dy == 1,
        Connectivity::Eight => dx.max(dy) == 1,
    }
}

/// Team 0's units in contact with an enemy, and how many units team 0 has.
fn contact(rules: &TacticsRules, state: &TacticsState) -> (u32, u32) {
    let units = state.units();
    let mine = units.iter().filter(|u| u.team == 0);
    let total = mine.clone().count() as u32;
    let met = mine
        .filter(|u| {
            units.iter().any(|e| e.team != u.team && touching(u.pos, e.pos, rules.config.connectivity))
        })
        .count() as u32;
    (met, total)
}

impl Playable for TacticsRules {
    /// Tactics draws nothing from a generator: nothing to replace.
    fn determinize(_state: &mut Self::State, _rng: GameRng) {}

    fn outcome(&self, state: &Self::State) -> Outcome {
        let (met, total) = contact(self, state);
        Outcome {
            won: total > 0 && met == total,
            score: 0,
            objectives_met: met,
            objectives: total,
            top_tile: 0,
        }
    }

    fn finished(&self, state: &Self::State, _keep_going: bool) -> bool {
        let (met, total) = contact(self, state);
        total > 0 && met == total
    }

    fn score_value(&self, state: &Self::State) -> f64 {
        let units = state.units();
        let mut sum = 0u64;
        for u in units {
            let nearest = units.iter().filter(|e| e.team != u.team).map(|e| u.pos.manhattan(e.pos)).min();
            sum += u64::from(nearest.unwrap_or(0));
        }
        -(sum as f64)
    }
}

impl Playable for AnyRules {
    fn determinize(state: &mut AnyState, rng: GameRng) {
        state.replace_rng(rng);
    }

    fn outcome(&self, state: &AnyState) -> Outcome {
        match (self, state) {
            (AnyRules::Slide(r), AnyState::Slide(s)) => r.outcome(s),
            (AnyRules::Collapse(r), AnyState::Collapse(s)) => r.outcome(s),
            (AnyRules::Tactics(r), AnyState::Tactics(s)) => r.outcome(s),
            (AnyRules::Match3(r), AnyState::Match3(s)) => r.outcome(s),
            _ => Outcome::default(),
        }
    }

    fn finished(&self, state: &AnyState, keep_going: bool) -> bool {
        match (self, state) {
            (AnyRules::Slide(r), AnyState::Slide(s)) => r.finished(s, keep_going),
            (AnyRules::Collapse(r), AnyState::Collapse(s)) => r.finished(s, keep_going),
            (AnyRules::Tactics(r), AnyState::Tactics(s)) => r.finished(s, keep_going),
            (AnyRules::Match3(r), AnyState::Match3(s)) => r.finished(s, keep_going),
            _ => true,
        }
    }

    fn score_value(&self, state: &AnyState) -> f64 {
        match (self, state) {
            (AnyRules::Slide(r), AnyState::Slide(s)) => r.score_value(s),
            (AnyRules::Collapse(r), AnyState::Collapse(s)) => r.score_value(s),
            (AnyRules::Tactics(r), AnyState::Tactics(s)) => r.score_value(s),
            (AnyRules::Match3(r), AnyState::Match3(s)) => r.score_value(s),
            _ => 0.0,
        }
    }
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
