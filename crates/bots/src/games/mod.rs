//! The bots' registry of rule sets: one module per rule set, one line in `games!` each.
//!
//! A rule set's module gives what the bots crate needs from it and nothing else outside it
//! names the rule set:
//! - its [`Playable`] impl (determinization, when a game is finished, its [`Outcome`] and the
//!   value [`crate::ScoreEval`] maximizes) and its [`Variant`] impl (the `variant!` macro: its
//!   rules, state and commands inside [`AnyRules`]);
//! - [`GameBots`]: which [`RuleSet`] it is, its own bots ([`BotKind`]s of [`crate::BotInfo`]s,
//!   registered by name with their help text and settings) and its figures in a difficulty
//!   report (slide: the largest tile of each game; a deterministic puzzle such as sokoban: its
//!   solver's figures for the level, [`GameBots::puzzle`]);
//! - `pub(crate) type Game`: the rules type the registry entry is built on.
//!
//! From these the registry builds [`BotKind::ALL`] (the generic bots, then each rule set's in
//! registry order) and one entry per rule set, found by [`RuleSet`], through which
//! [`crate::make_bot`] builds the generic bots on the rule set's own types and
//! `Playable for AnyRules` answers. Adding a rule set: a module here and its name in
//! `games!`.
//!
//! `games/` is the registry: `games!(slide, collapse, match3, tactics, sokoban, puzzlescript)` in
//! `games/mod.rs` declares one module per rule set and lists them (the order of that line is the
//! order of `BotKind::ALL`, after the generic bots, and of the help). A rule set's module gives:
//! its `Playable` impl (its docs say what "won" and "objectives" mean for it), `variant!(Rules,
//! Variant)`, `impl GameBots` (its `RuleSet`, its bots as `BotKind`s of `static BotInfo`s,
//! `summarize`, its figures in a difficulty report: slide's `top_tiles`, and `puzzle`, the level
//! measured once per sweep as a deterministic puzzle: sokoban's solver figures), and `pub(crate)
//! type Game`. Nothing outside `games/` names a rule set; a new one is a module there and one name
//! in `games!` (a unit test checks that every `RuleSet` is registered and every bot name is
//! unique).
//!
//! `games/slide/`: the 4×4 bitboard (row and column tables, branch-free random playouts) and
//! `ExpectimaxBot` (`mod.rs`), the registration (`register.rs`). `games/collapse/`: NMCS
//! (`Nmcs::search`, `solve`, `NmcsBot`) on a search board of its own (`collapse::Board`: a padded
//! byte grid, copied rather than undone, with the engine's tap, gravity, compaction and scoring; a
//! property test plays it beside the engine, and `solve` replays its line on the engine), and
//! `Deadline` (wall clock or the thread's CPU time); `nrpa.rs`: nested rollout policy adaptation
//! (`Nrpa::search`, `solve_nrpa`) on the same board: moves coded by colour and cells (Zobrist), a
//! policy table of weights by code (open addressing, never iterated), the tabu colour as a bias
//! (`TABU_BIAS`), each playout keeping its candidates' codes so adapting needs no replay, `threads`
//! root-parallel searches seeded from (seed, thread) and combined by score then thread index, and a
//! trace of best scores over time; `register.rs`. `games/match3.rs`: `ObjectiveEval` and the
//! `match3-greedy`/`match3-mcts` bots. `games/tactics.rs`: contact objectives and `ApproachBot`.
//! `games/sokoban.rs`: boxes on goals as objectives, `SolverBot` (`sokoban-solver`, alias
//! `sokoban`: plays core's optimal-in-pushes solution, solving again from a state its plan did not
//! expect, within `SOLVER_NODES`), and `measure`, the report's puzzle figures (`pushes`, `moves`,
//! `nodes`, bounded by nodes, not a clock).

use crate::any::{BotError, BotSpec, Generic, Make, Variant, boxed};
use crate::game::GameResult;
use crate::generic::{GreedyBot, MctsBot, RandomBot};
use crate::playable::{Outcome, Playable, ScoreEval};
use crate::summary::{Puzzle, Summary};
use crate::{Bot, BotKind};
use std::marker::PhantomData;
use tessera_core::{AnyRules, AnyState, GameRng, RuleSet};

/// What one rule set registers with the bots (implemented in its module).
pub trait GameBots: Variant {
    /// The rule set.
    const RULE_SET: RuleSet;
    /// The bots that play this rule set alone, in the order the help lists them.
    const BOTS: &'static [BotKind];

    /// Adds this rule set's own figures to a sweep's `summary` of `results` (slide: the largest
    /// tile of each game). Nothing by default.
    fn summarize(results: &[GameResult], summary: &mut Summary) {
        let _ = (results, summary);
    }

    /// The level's figures as a deterministic puzzle, measured once per sweep from its `start`
    /// (sokoban: the optimal solution's pushes and moves, and the solver's nodes), deterministic
    /// whatever the machine; `stop` (the sweep's stop flag) ends the measure early. `None` by
    /// default: the rule set has no such measure.
    fn puzzle(rules: &Self, start: &Self::State, stop: &dyn Fn() -> bool) -> Option<Puzzle> {
        let _ = (rules, start, stop);
        None
    }
}

/// Implements [`Variant`] for a rule set's rules type, whose variant of [`AnyRules`],
/// [`AnyState`] and [`tessera_core::AnyCommand`] is `$name`.
macro_rules! variant {
    ($rules:ty, $name:ident) => {
        impl $crate::any::Variant for $rules {
            fn split<'a>(
                rules: &'a tessera_core::AnyRules,
                state: &'a tessera_core::AnyState,
            ) -> Option<(&'a Self, &'a Self::State)> {
                match (rules, state) {
                    (tessera_core::AnyRules::$name(r), tessera_core::AnyState::$name(s)) => Some((r, s)),
                    _ => None,
                }
            }
            fn wrap(cmd: Self::Command) -> tessera_core::AnyCommand {
                tessera_core::AnyCommand::$name(cmd)
            }
        }
    };
}

/// A rule set's entry in the registry, built once for any [`GameBots`].
pub(crate) trait Entry: Sync {
    /// The rule set.
    fn rule_set(&self) -> RuleSet;
    /// A generic bot on the rule set's own types.
    fn generic(&self, which: Generic, spec: &BotSpec, seed: u64) -> Box<dyn Bot<AnyRules>>;
    /// [`Playable::outcome`], when `rules` and `state` are of this rule set.
    fn outcome(&self, rules: &AnyRules, state: &AnyState) -> Option<Outcome>;
    /// [`Playable::finished`], when `rules` and `state` are of this rule set.
    fn finished(&self, rules: &AnyRules, state: &AnyState, keep_going: bool) -> Option<bool>;
    /// [`Playable::score_value`], when `rules` and `state` are of this rule set.
    fn score_value(&self, rules: &AnyRules, state: &AnyState) -> Option<f64>;
    /// [`GameBots::summarize`].
    fn summarize(&self, results: &[GameResult], summary: &mut Summary);
    /// [`GameBots::puzzle`], when `rules` and `start` are of this rule set.
    fn puzzle(&self, rules: &AnyRules, start: &AnyState, stop: &dyn Fn() -> bool) -> Option<Puzzle>;
}

/// The entry of rule set `R`.
struct EntryOf<R>(PhantomData<fn() -> R>);

impl<R> EntryOf<R> {
    const NEW: EntryOf<R> = EntryOf(PhantomData);
}

impl<R: GameBots> Entry for EntryOf<R>
where
    R::Event: Send,
    R::Command: Send,
{
    fn rule_set(&self) -> RuleSet {
        R::RULE_SET
    }

    fn generic(&self, which: Generic, spec: &BotSpec, seed: u64) -> Box<dyn Bot<AnyRules>> {
        match which {
            Generic::Random => boxed::<R, _>(RandomBot::new(seed)),
            Generic::Greedy => boxed::<R, _>(GreedyBot::<R, _>::new(seed, ScoreEval)),
            Generic::Mcts => boxed::<R, _>(MctsBot::<R, _>::new(seed, ScoreEval, spec.mcts_config())),
        }
    }

    fn outcome(&self, rules: &AnyRules, state: &AnyState) -> Option<Outcome> {
        R::split(rules, state).map(|(r, s)| r.outcome(s))
    }

    fn finished(&self, rules: &AnyRules, state: &AnyState, keep_going: bool) -> Option<bool> {
        R::split(rules, state).map(|(r, s)| r.finished(s, keep_going))
    }

    fn score_value(&self, rules: &AnyRules, state: &AnyState) -> Option<f64> {
        R::split(rules, state).map(|(r, s)| r.score_value(s))
    }

    fn summarize(&self, results: &[GameResult], summary: &mut Summary) {
        R::summarize(results, summary);
    }

    fn puzzle(&self, rules: &AnyRules, start: &AnyState, stop: &dyn Fn() -> bool) -> Option<Puzzle> {
        R::split(rules, start).and_then(|(r, s)| R::puzzle(r, s, stop))
    }
}

/// Declares the rule sets' modules and lists them: the registry.
macro_rules! games {
    ($($game:ident),* $(,)?) => {
        $(pub mod $game;)*

        /// Every rule set's entry, in registry order.
        static ENTRIES: &[&dyn Entry] = &[$(&EntryOf::<$game::Game>::NEW),*];

        /// The generic bots, then each rule set's, in registry order.
        const PARTS: &[&[BotKind]] = &[crate::generic::BOTS, $(<$game::Game as GameBots>::BOTS),*];
    };
}

// The registry: one name per rule set, in the order the help lists their bots.
games!(slide, collapse, match3, tactics, sokoban, puzzlescript);

/// The entry of `rule_set`, if it is registered.
pub(crate) fn find(rule_set: RuleSet) -> Option<&'static dyn Entry> {
    ENTRIES.iter().copied().find(|e| e.rule_set() == rule_set)
}

/// The registered rule sets, in registry order.
pub fn rule_sets() -> impl Iterator<Item = RuleSet> {
    ENTRIES.iter().map(|e| e.rule_set())
}

const fn count(parts: &[&[BotKind]]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

const fn concat<const N: usize>(parts: &[&[BotKind]]) -> [BotKind; N] {
    let mut out = [BotKind::RANDOM; N];
    let (mut k, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

const ALL_ARRAY: [BotKind; count(PARTS)] = concat(PARTS);

/// [`BotKind::ALL`].
pub(crate) const ALL_BOTS: &[BotKind] = &ALL_ARRAY;

impl Playable for AnyRules {
    fn determinize(state: &mut AnyState, rng: GameRng) {
        state.replace_rng(rng);
    }

    /// The rule set's own outcome (through the registry, [`crate::games`]); nothing achieved for
    /// rules and a state of different rule sets, or an unregistered one.
    fn outcome(&self, state: &AnyState) -> Outcome {
        find(self.rule_set()).and_then(|g| g.outcome(self, state)).unwrap_or_default()
    }

    /// The rule set's own answer; finished for a mismatched or unregistered rule set.
    fn finished(&self, state: &AnyState, keep_going: bool) -> bool {
        find(self.rule_set()).and_then(|g| g.finished(self, state, keep_going)).unwrap_or(true)
    }

    /// The rule set's own value; 0 for a mismatched or unregistered rule set.
    fn score_value(&self, state: &AnyState) -> f64 {
        find(self.rule_set()).and_then(|g| g.score_value(self, state)).unwrap_or(0.0)
    }
}

impl BotKind {
    /// Every bot, in the order the help lists them: the generic bots, then each rule set's own
    /// in registry order.
    pub const ALL: &'static [BotKind] = ALL_BOTS;
}

/// The bot `spec` names, for a game of `rule_set`, seeded with `seed`.
pub fn make_bot(spec: &BotSpec, rule_set: RuleSet, seed: u64) -> Result<Box<dyn Bot<AnyRules>>, BotError> {
    spec.check(rule_set)?;
    let game = find(rule_set).ok_or(BotError::Unregistered(rule_set))?;
    Ok(match spec.kind.info().make {
        Make::Generic(which) => game.generic(which, spec, seed),
        Make::Own(make) => make(spec, seed),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_set_is_registered_once() {
        let mut registered: Vec<RuleSet> = rule_sets().collect();
        registered.sort_by_key(|r| r.name());
        let mut all = RuleSet::ALL.to_vec();
        all.sort_by_key(|r| r.name());
        assert_eq!(registered, all);
    }

    #[test]
    fn bot_names_and_aliases_are_unique_and_each_bot_is_in_its_rule_sets_entry() {
        let mut names: Vec<&str> = BotKind::ALL
            .iter()
            .flat_map(|k| std::iter::once(k.name()).chain(k.info().aliases.iter().copied()))
            .collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a name or alias is registered twice");
        for k in BotKind::ALL {
            assert_eq!(BotKind::from_name(k.name()), Some(*k));
            if let Some(rs) = k.only_for() {
                assert!(find(rs).is_some(), "{k} plays {rs}, which has no entry");
            }
        }
        assert_eq!(BotKind::ALL.len(), count(PARTS));
    }

    #[test]
    fn a_rule_sets_name_names_its_own_bot() {
        assert_eq!(BotKind::from_name("slide"), Some(slide::EXPECTIMAX));
        assert_eq!(BotKind::from_name("collapse"), Some(collapse::NMCS));
    }
}
