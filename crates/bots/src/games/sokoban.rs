//! `sokoban` with the bots: what a game achieves, the `sokoban-solver` bot ([`SolverBot`]) and
//! the puzzle figures of a difficulty report.
//!
//! **Outcome.** Won when every box is on a goal; the objectives are the boxes, met when on a
//! goal; no score. A game stops when won (or at the move cap: the rules never end a game
//! otherwise). Sokoban draws nothing from a generator, so there is nothing to determinize.
//!
//! **The value** [`crate::ScoreEval`] maximizes: boxes on goals, minus a thousandth of the sum
//! over boxes of the Manhattan distance to the nearest goal. The generic bots mostly fail on it
//! (a greedy push into a corner is forever), which is expected.
//!
//! **`sokoban-solver`** ([`SolverBot`]) plays the optimal-in-pushes solution of
//! [`tessera_core::sokoban::solve`]: it solves once, then plays the solution's commands; when
//! the state is not the one its plan expects (the bot was handed another state), it solves
//! again from there. It gives up (no command) when the solver finds no solution within
//! [`SOLVER_NODES`] expansions or proves there is none. Deterministic, no generator.
//!
//! **Difficulty.** A report on a sokoban level carries the solver's figures for the level
//! ([`crate::difficulty::Puzzle`]): `pushes` and `moves` of the optimal solution and `nodes`
//! expanded, searched once per sweep within [`SOLVER_NODES`] (a node budget, not a clock, so
//! the report is the same on every machine and for any number of threads).

use crate::Bot;
use crate::any::{BotInfo, BotKind, BotSpec, Make, boxed};
use crate::games::GameBots;
use crate::playable::{Outcome, Playable};
use crate::summary::{Figure, Puzzle, PuzzleOutcome};
use tessera_core::sokoban::{
    Cell, SokobanCommand, SokobanRules, SokobanState, SolveLimits, SolveOutcome, solve,
};
use tessera_core::{AnyRules, GameRng, RuleSet, Rules};

/// The rules the registry's entry is built on.
pub(crate) type Game = SokobanRules;

variant!(SokobanRules, Sokoban);

/// The most states the solver expands for a bot's plan or a report's figures.
pub const SOLVER_NODES: u64 = 5_000_000;

/// The sum over boxes of the Manhattan distance to the nearest goal (0 with no goal).
fn goal_distance(state: &SokobanState) -> u64 {
    let goals: Vec<_> = state.cells().iter().filter(|(_, c)| **c == Cell::Goal).map(|(p, _)| p).collect();
    state
        .boxes()
        .iter()
        .filter(|(_, b)| b.is_some())
        .map(|(p, _)| goals.iter().map(|g| u64::from(p.manhattan(*g))).min().unwrap_or(0))
        .sum()
}

impl Playable for SokobanRules {
    /// Sokoban draws nothing from a generator: nothing to replace.
    fn determinize(_state: &mut Self::State, _rng: GameRng) {}

    fn outcome(&self, state: &Self::State) -> Outcome {
        Outcome {
            won: state.is_solved(),
            score: 0,
            objectives_met: state.boxes_on_goals(),
            objectives: state.box_count(),
            top_tile: 0,
        }
    }

    fn score_value(&self, state: &Self::State) -> f64 {
        f64::from(state.boxes_on_goals()) - 0.001 * goal_distance(state) as f64
    }
}

static SOLVER_INFO: BotInfo = BotInfo {
    name: "sokoban-solver",
    aliases: &["sokoban"],
    about: "Plays the optimal-in-pushes solution of the push solver (A*).",
    only_for: Some(RuleSet::Sokoban),
    budget: false,
    level: None,
    deterministic: true,
    make: Make::Own(solver_bot),
};

/// `sokoban-solver` (also `--bot sokoban`): [`SolverBot`].
pub const SOLVER: BotKind = BotKind::new(&SOLVER_INFO);

fn solver_bot(_spec: &BotSpec, _seed: u64) -> Box<dyn Bot<AnyRules>> {
    boxed::<SokobanRules, _>(SolverBot::default())
}

impl GameBots for SokobanRules {
    const RULE_SET: RuleSet = RuleSet::Sokoban;
    const BOTS: &'static [BotKind] = &[SOLVER];

    /// The solver's pushes, moves and nodes for the level's start.
    fn puzzle(_rules: &SokobanRules, start: &SokobanState, stop: &dyn Fn() -> bool) -> Option<Puzzle> {
        Some(measure(start, SOLVER_NODES, stop))
    }
}

/// The solver's figures for `state` within `max_nodes` expansions (see the module docs).
/// A stop already given leaves it `stopped` without searching.
pub fn measure(state: &SokobanState, max_nodes: u64, stop: &dyn Fn() -> bool) -> Puzzle {
    if stop() {
        let nodes = Figure { name: "nodes".into(), value: 0 };
        return Puzzle {
            solver: SOLVER.name().into(),
            outcome: PuzzleOutcome::Stopped,
            figures: vec![nodes],
        };
    }
    let report = solve(state, SolveLimits::nodes(max_nodes), &mut || stop());
    let nodes = Figure { name: "nodes".into(), value: report.nodes };
    match report.outcome {
        SolveOutcome::Solved(s) => Puzzle {
            solver: SOLVER.name().into(),
            outcome: PuzzleOutcome::Solved,
            figures: vec![
                Figure { name: "pushes".into(), value: u64::from(s.pushes) },
                Figure { name: "moves".into(), value: u64::from(s.moves) },
                nodes,
            ],
        },
        SolveOutcome::Unsolvable => {
            Puzzle { solver: SOLVER.name().into(), outcome: PuzzleOutcome::Unsolvable, figures: vec![nodes] }
        }
        SolveOutcome::Stopped | SolveOutcome::OutOfMemory => {
            Puzzle { solver: SOLVER.name().into(), outcome: PuzzleOutcome::Stopped, figures: vec![nodes] }
        }
    }
}

/// Plays the solver's solution (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct SolverBot {
    /// The commands still to play, last first.
    plan: Vec<SokobanCommand>,
    /// The hash of the state the next command of the plan expects.
    expect: Option<u64>,
}

impl SolverBot {
    fn replan(&mut self, state: &SokobanState) {
        self.plan.clear();
        self.expect = None;
        if let SolveOutcome::Solved(s) = solve(state, SolveLimits::nodes(SOLVER_NODES), &mut || false).outcome
        {
            self.plan = s.commands;
            self.plan.reverse();
            self.expect = Some(state.hash());
        }
    }
}

impl Bot<SokobanRules> for SolverBot {
    fn choose(&mut self, rules: &SokobanRules, state: &SokobanState) -> Option<SokobanCommand> {
        if self.expect != Some(state.hash()) || self.plan.is_empty() {
            self.replan(state);
        }
        let cmd = self.plan.pop()?;
        let mut next = state.clone();
        let mut events = Vec::new();
        match rules.apply(&mut next, &cmd, &mut events) {
            Ok(()) => self.expect = Some(next.hash()),
            // The plan does not fit this state after all: no command rather than a refused one.
            Err(_) => {
                self.plan.clear();
                self.expect = None;
                return None;
            }
        }
        Some(cmd)
    }
}

/// A sokoban level of `rows` (tests).
#[cfg(test)]
pub(crate) fn level_of(rows: &[&str]) -> tessera_core::Level {
    let json = serde_json::json!({ "rule_set": "sokoban", "board": rows });
    tessera_core::Level::from_json(&json.to_string()).expect("a valid sokoban level")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameConfig, play_game};
    use crate::{BotSpec, make_bot};
    use tessera_core::{AnyState, Level, Status};

    fn level() -> Level {
        level_of(&["#######", "#@ $ .#", "# $  .#", "#######"])
    }

    #[test]
    fn the_solver_bot_wins_in_the_fewest_pushes() {
        let mut g = level().start(None).unwrap();
        let mut bot = make_bot(&BotSpec::new(SOLVER), g.rules.rule_set(), 0).unwrap();
        let moves =
            play_game(&g.rules, &mut g.state, &mut bot, &GameConfig::default(), |_, _, _, _| {}).unwrap();
        assert_eq!(g.rules.status(&g.state), Status::Won);
        let AnyState::Sokoban(s) = &g.state else { panic!("not sokoban") };
        assert_eq!(s.pushes(), 5, "two pushes for the top box, three for the other");
        assert!(moves >= 4);
        assert_eq!(BotKind::from_name("sokoban"), Some(SOLVER));
    }

    #[test]
    fn the_solver_bot_replans_from_a_state_it_did_not_expect() {
        let g = level().start(None).unwrap();
        let AnyState::Sokoban(mut s) = g.state else { panic!("not sokoban") };
        let mut bot = SolverBot::default();
        let first = bot.choose(&SokobanRules, &s).unwrap();
        // Someone else moves: the player steps down instead.
        let mut events = Vec::new();
        SokobanRules.apply(&mut s, &"down".parse().unwrap(), &mut events).unwrap();
        let _ = first;
        while SokobanRules.status(&s) != Status::Won {
            let cmd = bot.choose(&SokobanRules, &s).expect("a plan from any solvable state");
            SokobanRules.apply(&mut s, &cmd, &mut events).unwrap();
        }
        assert_eq!(s.boxes_on_goals(), 2);
    }

    #[test]
    fn the_solver_bot_gives_up_on_an_unsolvable_state() {
        // The box is in a corner, off the goal.
        let g = level_of(&["#####", "#$ .#", "# @ #", "#####"]).start(None).unwrap();
        let AnyState::Sokoban(s) = g.state else { panic!("not sokoban") };
        assert_eq!(SolverBot::default().choose(&SokobanRules, &s), None);
        let p = measure(&s, SOLVER_NODES, &|| false);
        assert_eq!(p.outcome, PuzzleOutcome::Unsolvable);
    }

    #[test]
    fn the_measure_names_pushes_moves_and_nodes() {
        let g = level().start(None).unwrap();
        let AnyState::Sokoban(s) = g.state else { panic!("not sokoban") };
        let p = measure(&s, SOLVER_NODES, &|| false);
        assert_eq!(p.outcome, PuzzleOutcome::Solved);
        let names: Vec<&str> = p.figures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["pushes", "moves", "nodes"]);
        assert_eq!(p.figures[0].value, 5);
        assert!(p.figures[2].value >= 1);
        // A stop given before the search leaves it stopped.
        let stopped = measure(&s, SOLVER_NODES, &|| true);
        assert_eq!(stopped.outcome, PuzzleOutcome::Stopped);
        assert_eq!(stopped.figures, [Figure { name: "nodes".into(), value: 0 }]);
    }

    #[test]
    fn the_value_rewards_boxes_on_goals_and_closeness() {
        let g = level().start(None).unwrap();
        let AnyState::Sokoban(s) = g.state else { panic!("not sokoban") };
        let v0 = SokobanRules.score_value(&s);
        let mut t = s.clone();
        SokobanRules.apply(&mut t, &"right".parse().unwrap(), &mut Vec::new()).unwrap();
        SokobanRules.apply(&mut t, &"right".parse().unwrap(), &mut Vec::new()).unwrap();
        assert!(SokobanRules.score_value(&t) > v0);
        assert_eq!(SokobanRules.outcome(&s).objectives, 2);
    }
}

#[cfg(test)]
mod difficulty_tests {
    use crate::difficulty::{PuzzleOutcome, Sweep, merge, run};
    use crate::{BotKind, BotSpec, GameConfig};
    use std::sync::atomic::AtomicBool;

    fn sweep(bot: BotKind, first_game: u64, games: u64) -> Sweep {
        let level = super::level_of(&["#######", "#@ $ .#", "# $  .#", "#######"]);
        Sweep {
            level,
            level_name: "two.json".into(),
            bot: BotSpec::new(bot),
            seed: 1,
            first_game,
            games,
            game: GameConfig { max_moves: 200, ..GameConfig::default() },
        }
    }

    #[test]
    fn a_report_on_sokoban_carries_the_solver_figures_whatever_the_threads() {
        let stop = AtomicBool::new(false);
        let one = run(&sweep(BotKind::RANDOM, 0, 6), 1, &stop, &|_| {}).unwrap();
        let two = run(&sweep(BotKind::RANDOM, 0, 6), 2, &stop, &|_| {}).unwrap();
        assert_eq!(serde_json::to_string(&one).unwrap(), serde_json::to_string(&two).unwrap());
        let p = one.summary.puzzle.as_ref().expect("a sokoban report has puzzle figures");
        assert_eq!(p.solver, "sokoban-solver");
        assert_eq!(p.outcome, PuzzleOutcome::Solved);
        assert_eq!((p.figures[0].name.as_str(), p.figures[0].value), ("pushes", 5));
        let json = serde_json::to_string(&one).unwrap();
        assert!(json.contains(r#""puzzle":{"solver":"sokoban-solver","outcome":"solved""#), "{json}");
        // Shards merge to what one run gives, the measure included.
        let a = run(&sweep(BotKind::RANDOM, 0, 3), 1, &stop, &|_| {}).unwrap();
        let b = run(&sweep(BotKind::RANDOM, 3, 3), 1, &stop, &|_| {}).unwrap();
        assert_eq!(merge(&[a, b]).unwrap(), one);
    }

    #[test]
    fn the_generic_bots_play_sokoban() {
        let stop = AtomicBool::new(false);
        for kind in [BotKind::RANDOM, BotKind::GREEDY, BotKind::MCTS] {
            let mut sw = sweep(kind, 0, 2);
            sw.game.max_moves = 40;
            let r = run(&sw, 1, &stop, &|_| {}).unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(r.summary.games, 2, "{kind}");
            assert_eq!(r.summary.objectives, 2, "{kind}: the boxes are the objectives");
            // Every game ends won or at the cap: sokoban has no other end.
            assert!(r.games.iter().all(|g| g.won || g.moves == 40), "{kind}: {:?}", r.games);
        }
    }

    #[test]
    fn the_solver_bot_wins_every_game_of_a_sweep_and_a_stopped_sweep_says_so() {
        let stop = AtomicBool::new(false);
        let r = run(&sweep(super::SOLVER, 0, 3), 1, &stop, &|_| {}).unwrap();
        assert_eq!(r.summary.wins, 3);
        let stop = AtomicBool::new(true);
        let r = run(&sweep(super::SOLVER, 0, 3), 1, &stop, &|_| {}).unwrap();
        assert!(r.interrupted);
        assert_eq!(r.summary.puzzle.unwrap().outcome, PuzzleOutcome::Stopped);
    }
}
