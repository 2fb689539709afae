//! `puzzlescript` with the bots: what a game of a PuzzleScript level achieves.
//!
//! **Outcome.** Won when the game's win conditions hold (or a `win` command ran); one objective,
//! the level; no score. A game stops when won or at the move cap (PuzzleScript games never end
//! otherwise). Determinization reseeds PuzzleScript's own generator from the bot's.
//!
//! **The value** [`crate::ScoreEval`] maximizes: 1 when won, else 0. The generic bots play
//! PuzzleScript levels (`random`, `greedy`, `mcts`).
//!
//! **`puzzlescript-solver`** ([`SolverBot`]) plays the fewest-steps solution of core's
//! breadth-first solver ([`tessera_core::puzzlescript::solve`]): it solves once, then plays the
//! solution's commands; when the state is not the one its plan expects, it solves again from
//! there. It gives up (no command) when the solver finds no solution within [`SOLVER_NODES`]
//! expansions and [`SOLVER_BYTES`] of stored states, or proves there is none. Its solutions
//! take a step that draws from the game's generator only where none wins without one: they
//! win with the state's generator (a determinized run that draws otherwise leaves the plan's
//! states, and the bot solves again from where it is).
//!
//! **Difficulty.** A report on a PuzzleScript level carries the solver's figures for the level
//! ([`crate::difficulty::Puzzle`]): `steps` of the shortest solution and `nodes` expanded,
//! searched once per sweep within the same budgets (counts, not a clock: the report is the same
//! on every machine). A search that ends without deciding (the budgets, the stop flag, or a
//! random game with no solution found, which another seed might have) is `stopped`. A realtime
//! game's solution may wait for the clock (`tick` steps; see core's solver).

use crate::Bot;
use crate::any::{BotInfo, BotKind, BotSpec, Make, boxed};
use crate::games::GameBots;
use crate::playable::{Outcome, Playable};
use crate::summary::{Figure, Puzzle, PuzzleOutcome};
use tessera_core::puzzlescript::{
    PuzzleScriptCommand, PuzzleScriptRules, PuzzleScriptState, SolveLimits, SolveOutcome, solve,
};
use tessera_core::{AnyRules, GameRng, Plugin, RuleSet, Rules};

/// The most states the solver expands for a bot's plan or a report's figures.
pub const SOLVER_NODES: u64 = 2_000_000;

/// The most bytes of stored states the solver keeps for a bot's plan or a report's figures.
pub const SOLVER_BYTES: u64 = 512 << 20;

/// The limits of a bot's or a report's search.
const LIMITS: SolveLimits = SolveLimits { max_nodes: SOLVER_NODES, max_bytes: SOLVER_BYTES };

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

static SOLVER_INFO: BotInfo = BotInfo {
    name: "puzzlescript-solver",
    aliases: &["puzzlescript"],
    about: "Plays the fewest-steps solution of the breadth-first solver.",
    only_for: Some(RuleSet::PuzzleScript),
    budget: false,
    level: None,
    deterministic: true,
    make: Make::Own(solver_bot),
};

/// `puzzlescript-solver` (also `--bot puzzlescript`): [`SolverBot`].
pub const SOLVER: BotKind = BotKind::new(&SOLVER_INFO);

fn solver_bot(_spec: &BotSpec, _seed: u64) -> Box<dyn Bot<AnyRules>> {
    boxed::<PuzzleScriptRules, _>(SolverBot::default())
}

impl GameBots for PuzzleScriptRules {
    const RULE_SET: RuleSet = RuleSet::PuzzleScript;
    const BOTS: &'static [BotKind] = &[SOLVER];

    /// The solver's steps and nodes for the level's start.
    fn puzzle(
        rules: &PuzzleScriptRules,
        start: &PuzzleScriptState,
        stop: &dyn Fn() -> bool,
    ) -> Option<Puzzle> {
        Some(measure(rules, start, LIMITS, stop))
    }
}

/// The solver's figures for `state` within `limits` (see the module docs). A stop already given
/// leaves it `stopped` without searching.
pub fn measure(
    rules: &PuzzleScriptRules,
    state: &PuzzleScriptState,
    limits: SolveLimits,
    stop: &dyn Fn() -> bool,
) -> Puzzle {
    let puzzle = |outcome, figures| Puzzle { solver: SOLVER.name().into(), outcome, figures };
    let nodes = |value| Figure { name: "nodes".into(), value };
    if stop() {
        return puzzle(PuzzleOutcome::Stopped, vec![nodes(0)]);
    }
    // Held to the run's work budget as a game is (issue 66.3: 2,000,000 states with no clock
    // took minutes on an `again` chain): every step of the search takes its work from it.
    let (report, left) =
        tessera_core::puzzlescript::engine::solver::with_search_work(crate::run_work(), || {
            let spent = || tessera_core::puzzlescript::engine::solver::search_work_left() == Some(0);
            solve(rules, state, limits, &mut || stop() || spent())
        });
    if left == 0 && !matches!(report.outcome, SolveOutcome::Solved(_) | SolveOutcome::Unsolvable) {
        return puzzle(PuzzleOutcome::CutShort, vec![nodes(report.nodes)]);
    }
    match report.outcome {
        SolveOutcome::Solved(s) => puzzle(
            PuzzleOutcome::Solved,
            vec![Figure { name: "steps".into(), value: s.len() as u64 }, nodes(report.nodes)],
        ),
        SolveOutcome::Unsolvable => puzzle(PuzzleOutcome::Unsolvable, vec![nodes(report.nodes)]),
        SolveOutcome::Random { .. }
        | SolveOutcome::TooLong { .. }
        | SolveOutcome::Stopped
        | SolveOutcome::Memory => puzzle(PuzzleOutcome::Stopped, vec![nodes(report.nodes)]),
    }
}

/// Plays the solver's solution (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct SolverBot {
    /// The commands still to play, last first.
    plan: Vec<PuzzleScriptCommand>,
    /// The hash of the state the next command of the plan expects.
    expect: Option<u64>,
}

impl SolverBot {
    fn replan(&mut self, rules: &PuzzleScriptRules, state: &PuzzleScriptState) {
        self.plan.clear();
        self.expect = None;
        // The search takes its work from the game's budget, as the rules' steps do (issue 66.3).
        let budget = tessera_core::puzzlescript::run_work_left().unwrap_or(u64::MAX);
        let (report, left) = tessera_core::puzzlescript::engine::solver::with_search_work(budget, || {
            let spent = || tessera_core::puzzlescript::engine::solver::search_work_left() == Some(0);
            solve(rules, state, LIMITS, &mut || spent())
        });
        tessera_core::puzzlescript::spend_run_work(budget - left);
        if let SolveOutcome::Solved(commands) = report.outcome {
            self.plan = commands;
            self.plan.reverse();
            self.expect = Some(state.hash());
        }
    }
}

impl Bot<PuzzleScriptRules> for SolverBot {
    fn choose(
        &mut self,
        rules: &PuzzleScriptRules,
        state: &PuzzleScriptState,
    ) -> Option<PuzzleScriptCommand> {
        if self.expect != Some(state.hash()) || self.plan.is_empty() {
            self.replan(rules, state);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::difficulty::{Sweep, run};
    use crate::game::{GameConfig, play_game};
    use crate::{BotSpec, make_bot};
    use std::sync::atomic::AtomicBool;
    use tessera_core::puzzlescript::PuzzleScriptLevel;
    use tessera_core::{AnyState, Level, Status};

    const GAME: &str = include_str!("../../../../fixtures/games/warehouse.txt");

    fn level(source: &str, n: usize, seed: Option<u64>) -> Level {
        Level::PuzzleScript(PuzzleScriptLevel { name: None, seed, source: source.into(), level: n })
    }

    #[test]
    fn the_solver_bot_wins_each_fixture_level_whatever_the_seed() {
        for (n, seed) in [(0, 1), (1, 2), (2, 99)] {
            let mut g = level(GAME, n, None).start(Some(seed)).unwrap();
            let mut bot = make_bot(&BotSpec::new(SOLVER), g.rules.rule_set(), 0).unwrap();
            let cfg = GameConfig::default();
            play_game(&g.rules, &mut g.state, &mut bot, &cfg, |_, _, _, _| {}).unwrap();
            assert_eq!(g.rules.status(&g.state), Status::Won, "level {n}");
        }
        assert_eq!(BotKind::from_name("puzzlescript"), Some(SOLVER));
    }

    #[test]
    fn the_solver_bot_replans_and_gives_up_on_an_unsolvable_state() {
        let g = level(GAME, 1, None).start(Some(0)).unwrap();
        let AnyState::PuzzleScript(mut s) = g.state else { panic!("not puzzlescript") };
        let tessera_core::AnyRules::PuzzleScript(rules) = g.rules else { panic!("not puzzlescript") };
        let mut bot = SolverBot::default();
        bot.choose(&rules, &s).expect("a first step");
        // Someone else moves: left instead (up would push a crate against the wall for good).
        let mut events = Vec::new();
        rules.apply(&mut s, &PuzzleScriptCommand::Left, &mut events).unwrap();
        while !s.is_won() {
            let cmd = bot.choose(&rules, &s).expect("a plan from any solvable state");
            rules.apply(&mut s, &cmd, &mut events).unwrap();
        }
        // A crate in a corner off the target, no action key: proved unsolvable.
        let stuck = GAME
            .replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#")
            .replace("homepage example.invalid", "homepage example.invalid\nnoaction");
        let g = level(&stuck, 0, None).start(Some(0)).unwrap();
        let (tessera_core::AnyRules::PuzzleScript(rules), AnyState::PuzzleScript(s)) = (&g.rules, &g.state)
        else {
            panic!("not puzzlescript")
        };
        assert_eq!(SolverBot::default().choose(rules, s), None);
        let p = measure(rules, s, LIMITS, &|| false);
        assert_eq!(p.outcome, PuzzleOutcome::Unsolvable);
    }

    #[test]
    fn a_report_on_a_puzzlescript_level_carries_the_solver_figures() {
        let sweep = |bot, games| Sweep {
            level: level(GAME, 0, Some(3)),
            level_name: "w1.json".into(),
            bot: BotSpec::new(bot),
            seed: 1,
            first_game: 0,
            games,
            game: GameConfig { max_moves: 30, ..GameConfig::default() },
        };
        let stop = AtomicBool::new(false);
        let r = run(&sweep(BotKind::RANDOM, 2), 1, &stop, &|_| {}).unwrap();
        let p = r.summary.puzzle.as_ref().expect("a puzzlescript report has puzzle figures");
        assert_eq!(p.solver, "puzzlescript-solver");
        assert_eq!(p.outcome, PuzzleOutcome::Solved);
        assert_eq!((p.figures[0].name.as_str(), p.figures[0].value), ("steps", 2));
        assert_eq!(p.figures[1].name, "nodes");
        let r = run(&sweep(SOLVER, 2), 1, &stop, &|_| {}).unwrap();
        assert_eq!(r.summary.wins, 2);
        // A realtime game has figures too (its solution may wait for the clock; here it needs
        // not), and the solver bot wins it.
        let realtime =
            GAME.replace("homepage example.invalid", "homepage example.invalid\nrealtime_interval 1");
        let g = level(&realtime, 0, None).start(Some(0)).unwrap();
        let (tessera_core::AnyRules::PuzzleScript(rules), AnyState::PuzzleScript(s)) = (&g.rules, &g.state)
        else {
            panic!("not puzzlescript")
        };
        let p = measure(rules, s, LIMITS, &|| false);
        assert_eq!(p.outcome, PuzzleOutcome::Solved);
        assert_eq!((p.figures[0].name.as_str(), p.figures[0].value), ("steps", 2));
        assert_eq!(measure(rules, s, LIMITS, &|| true).outcome, PuzzleOutcome::Stopped);
        let mut bot = SolverBot::default();
        let mut s = s.clone();
        while let Some(c) = bot.choose(rules, &s) {
            rules.apply(&mut s, &c, &mut Vec::new()).unwrap();
        }
        assert!(s.is_won());
    }
}
