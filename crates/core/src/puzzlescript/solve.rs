//! The solver ([`tessera_puzzlescript::solver`]) on the rule set's rules and states, and what
//! the rule set's hint adds to it: a verdict in the player's words, and a solution kept while
//! the player follows it.

use super::engine::scenery::Scenery;
use super::engine::solver::{self, Puzzle};
pub use super::engine::solver::{Aids, Search, SolveLimits, SolveOutcome, SolveReport};
use super::{PuzzleScriptCommand, PuzzleScriptRules, PuzzleScriptState};

/// What the solver is asked when it solves `state` under `rules`.
pub fn puzzle<'a>(rules: &'a PuzzleScriptRules, state: &'a PuzzleScriptState) -> Puzzle<'a> {
    Puzzle {
        game: rules.game(),
        start: state.engine(),
        won: state.is_won(),
        work_limit: rules.step_work_limit(),
    }
}

/// Searches for a solution of `state` with the fewest steps (breadth-first), within `limits`,
/// calling `stop` before every step ([`solver::solve`]).
pub fn solve(
    rules: &PuzzleScriptRules,
    state: &PuzzleScriptState,
    limits: SolveLimits,
    stop: &mut dyn FnMut() -> bool,
) -> SolveReport {
    solver::solve(puzzle(rules, state), limits, stop)
}

/// Searches for a solution of `state` by `search` ([`solver::solve_with`]).
pub fn solve_with(
    rules: &PuzzleScriptRules,
    state: &PuzzleScriptState,
    limits: SolveLimits,
    search: Search,
    stop: &mut dyn FnMut() -> bool,
) -> SolveReport {
    solver::solve_with(puzzle(rules, state), limits, search, stop)
}

/// [`solve_with`] on `jobs` threads: the same solution, states and counts whatever `jobs`
/// ([`solver::solve_parallel`]).
pub fn solve_parallel(
    rules: &PuzzleScriptRules,
    state: &PuzzleScriptState,
    limits: SolveLimits,
    search: Search,
    jobs: usize,
    stop: &mut dyn FnMut() -> bool,
) -> SolveReport {
    solver::solve_parallel(puzzle(rules, state), limits, search, jobs, stop)
}

/// [`solve_parallel`] with only `aids` on ([`solver::solve_aided`]).
#[doc(hidden)]
pub fn solve_aided(
    rules: &PuzzleScriptRules,
    state: &PuzzleScriptState,
    limits: SolveLimits,
    search: Search,
    aids: Aids,
    jobs: usize,
    stop: &mut dyn FnMut() -> bool,
) -> SolveReport {
    solver::solve_aided(puzzle(rules, state), limits, search, aids, jobs, stop)
}

/// What a hint can say about a state (see [`hint_verdict`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintVerdict {
    /// The first command of a solution.
    Move {
        /// The command (the solution's first).
        first: PuzzleScriptCommand,
        /// The whole solution, from here to the win.
        solution: Vec<PuzzleScriptCommand>,
        /// Whether some of its steps draw from the generator: it wins with this state's seed,
        /// maybe not another.
        seeded: bool,
    },
    /// The search proved that no sequence of steps wins from here.
    NoSolution,
    /// No sequence of steps that draw nothing from the generator wins, and none that draw was
    /// found within the budget, or none wins as this state's seed plays them: not a proof for
    /// the level either way.
    Random,
    /// The budget (time, nodes or memory) ran out after this many states expanded.
    OutOfTime(u64),
    /// The level is won already.
    Won,
}

/// The hint for `state`: a search by [`HINT_SEARCH`](super::HINT_SEARCH) on `jobs` threads
/// (the same verdict on any number: [`solve_parallel`]) within `limits` and `stop`. A move only
/// from a solution found, never a guess.
pub fn hint_verdict(
    rules: &PuzzleScriptRules,
    state: &PuzzleScriptState,
    limits: SolveLimits,
    jobs: usize,
    stop: &mut dyn FnMut() -> bool,
) -> HintVerdict {
    let report = solve_parallel(rules, state, limits, super::HINT_SEARCH, jobs, stop);
    match report.outcome {
        SolveOutcome::Solved(c) => match c.first() {
            Some(&first) => HintVerdict::Move { first, solution: c, seeded: report.draws > 0 },
            None => HintVerdict::Won,
        },
        SolveOutcome::Unsolvable => HintVerdict::NoSolution,
        SolveOutcome::Random { .. } => HintVerdict::Random,
        // (steps past the work bound: the search could not look everywhere, as when out of time)
        SolveOutcome::TooLong { .. } | SolveOutcome::Stopped | SolveOutcome::Memory => {
            HintVerdict::OutOfTime(report.nodes)
        }
    }
}

/// A solution kept while the player follows it (keeping the search across steps): the states
/// it passes through, played by the rules when it was kept, so that a hint asked from one of
/// them is the rest of the solution at once, with no search. A state off the solution (a step
/// of one's own, undo, another level) is not one of them, and then a search is needed again.
#[derive(Clone, Debug)]
pub struct SolutionMemo {
    /// The rules' source the solution was played under.
    source: std::sync::Arc<str>,
    /// The state before each step of the solution (the first, the one it was found from).
    states: Vec<PuzzleScriptState>,
    solution: Vec<PuzzleScriptCommand>,
    /// Whether each step drew from the generator.
    drew: Vec<bool>,
}

impl SolutionMemo {
    /// Plays `solution` from `state` under `rules`: `None` unless every step is accepted and the
    /// last one wins (a solution that does not win is never kept).
    pub fn new(
        rules: &PuzzleScriptRules,
        state: &PuzzleScriptState,
        solution: &[PuzzleScriptCommand],
    ) -> Option<SolutionMemo> {
        use crate::Rules;
        let mut states = Vec::with_capacity(solution.len());
        let mut drew = Vec::with_capacity(solution.len());
        let mut s = state.clone();
        let mut events = Vec::new();
        // (draws that only paint scenery, where the look is exact, do not make it this seed's)
        let paints =
            Scenery::of(rules.game(), state.engine()).is_some_and(|l| l.random_is_scenery && l.exact);
        for cmd in solution {
            if s.is_won() {
                return None;
            }
            states.push(s.clone());
            events.clear();
            rules.apply(&mut s, cmd, &mut events).ok()?;
            let before = states[states.len() - 1].engine();
            // (a step whose every draw had one choice does the same with any generator)
            let free = s.engine().rng != before.rng
                && solver::draw_is_free(rules.game(), before, *cmd, rules.step_work_limit());
            drew.push(!paints && free);
        }
        s.is_won().then(|| SolutionMemo {
            source: rules.source().into(),
            states,
            solution: solution.to_vec(),
            drew,
        })
    }

    /// The steps of the solution still to play from `state`, when it is one of the states the
    /// solution passes through (before its winning step) under the same rules.
    pub fn rest(
        &self,
        rules: &PuzzleScriptRules,
        state: &PuzzleScriptState,
    ) -> Option<&[PuzzleScriptCommand]> {
        if *self.source != *rules.source() {
            return None;
        }
        // (the last such state: a solution that passes through one state twice goes on from
        // its last visit)
        let k = self.states.iter().rposition(|s| s.hash() == state.hash() && s == state)?;
        Some(&self.solution[k..])
    }

    /// The hint from `state` when it lies on the solution: its next step and the rest.
    pub fn verdict(&self, rules: &PuzzleScriptRules, state: &PuzzleScriptState) -> Option<HintVerdict> {
        let rest = self.rest(rules, state)?;
        let seeded = self.drew[self.solution.len() - rest.len()..].contains(&true);
        Some(HintVerdict::Move { first: *rest.first()?, solution: rest.to_vec(), seeded })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzlescript::PuzzleScriptLevel;
    use crate::{Rules, Status};
    use tessera_puzzlescript::Command;
    use tessera_puzzlescript::solver::moves;

    const GAME: &str = include_str!("../../../../fixtures/games/warehouse.txt");

    fn start_of(source: &str, n: usize, seed: u64) -> (PuzzleScriptRules, PuzzleScriptState) {
        PuzzleScriptLevel { name: None, seed: None, source: source.into(), level: n }
            .start(seed)
            .expect("the level starts")
    }

    fn solved(source: &str, n: usize) -> Vec<Command> {
        let (rules, s) = start_of(source, n, 0);
        let report = solve(&rules, &s, SolveLimits::default(), &mut || false);
        match report.outcome {
            SolveOutcome::Solved(c) => c,
            other => panic!("level {n}: {other:?}"),
        }
    }

    /// Plays `commands` through the rule set from seed `seed`: whether it ends won (every
    /// command accepted).
    fn wins(source: &str, n: usize, seed: u64, commands: &[Command]) -> bool {
        let (rules, mut s) = start_of(source, n, seed);
        let mut events = Vec::new();
        for c in commands {
            rules.apply(&mut s, c, &mut events).unwrap_or_else(|e| panic!("{c}: {e}"));
        }
        rules.status(&s) == Status::Won
    }

    /// Whether some sequence of `len` arrows wins level `n` from `seed`.
    fn any_wins_in_seeded(source: &str, n: usize, seed: u64, len: u32) -> bool {
        use Command::*;
        let dirs = [Up, Down, Left, Right];
        let (rules, start) = start_of(source, n, seed);
        (0..4u32.pow(len)).any(|mut code| {
            let mut s = start.clone();
            let mut events = Vec::new();
            for _ in 0..len {
                let c = dirs[(code % 4) as usize];
                code /= 4;
                // A refused step (nothing happens, or won already) changes nothing.
                let _ = rules.apply(&mut s, &c, &mut events);
            }
            s.is_won()
        })
    }

    /// A die on the way to the goal turns into a gem (eaten: the way is open) or a rock (the way
    /// is shut) as the generator draws.
    const DIE: &str = "title die\nnoaction\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\n\
        Die\nblue\n\nGem\nyellow\n\nRock\nbrown\n\nGoal\ngreen\n\nLEGEND\n\n. = Background\n# = Wall\n\
        P = Player\nD = Die\nG = Goal\nFace = Gem or Rock\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nGoal\n\
        Player, Wall, Die, Gem, Rock\n\nRULES\n\n[ > Player | Die ] -> [ > Player | random Face ]\n\
        [ > Player | Gem ] -> [ > Player | ]\n\nWINCONDITIONS\n\nsome Player on Goal\n\nLEVELS\n\n\
        #######\n#P.D.G#\n#######\n";

    const CONVEYOR: &str = include_str!("../../../../fixtures/games/conveyor.txt");

    /// A crate room with scenery: a footprint where the player stood (no rule reads it) and a
    /// patch of grass repainted at random every turn (`Grass = Grass1 or Grass2`, only ever read
    /// as `Grass`). `plain` leaves both rules out.
    fn garden(plain: bool) -> String {
        let rules =
            if plain { "" } else { "[ > Player ] -> [ > Player Step ]\n[ Grass ] -> [ random Grass ]\n" };
        format!(
            "title garden\nnoaction\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\n\
             Crate\norange\n\nTarget\nyellow\n\nGrass1\ngreen\n\nGrass2\ndarkgreen\n\nStep\nbrown\n\n\
             LEGEND\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\ng = Grass1\n\
             Grass = Grass1 or Grass2\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nTarget\nGrass1, Grass2\n\
             Step\nPlayer, Wall, Crate\n\nRULES\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n{rules}\n\
             WINCONDITIONS\n\nAll Target on Crate\n\nLEVELS\n\n\
             ########\n#g.....#\n#.*..O.#\n#.P**OO#\n#......#\n########\n"
        )
    }

    /// A gem room where a `random` rule takes the gem ahead of the player: with one player, it
    /// has one match, so it draws among one (the generator moves on, the step is the same
    /// whatever it held). With `two`, a second rule takes one of the two fires at random: a
    /// draw that could go otherwise.
    fn gem_room(two: bool) -> String {
        let fires = if two { "\nrandom [ Fire ] -> [ ]" } else { "" };
        format!(
            "title gems\nnoaction\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\nGem\nblue\n\n\
             Fire\nred\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player\nG = Gem\nF = Fire\n\nSOUNDS\n\n\
             COLLISIONLAYERS\n\nBackground\nFire\nPlayer, Wall, Gem\n\nRULES\n\n\
             random [ > Player | Gem ] -> [ > Player | ]{fires}\n\nWINCONDITIONS\n\nno Gem\n\nLEVELS\n\n\
             #######\n#P..G.#\n#F...F#\n#######\n"
        )
    }

    #[test]
    fn a_solution_through_a_draw_wins_with_its_seed_and_none_is_said_only_for_that_seed() {
        let (mut solved, mut shut) = (0, 0);
        for seed in 0..24 {
            let (rules, s) = start_of(DIE, 0, seed);
            let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
            match &r.outcome {
                SolveOutcome::Solved(c) => {
                    solved += 1;
                    assert!(r.draws >= 1 && wins(DIE, 0, seed, c), "seed {seed}: {r:?}");
                    // (on one to three threads: the hint is the same)
                    let jobs = 1 + seed as usize % 3;
                    let hint = hint_verdict(&rules, &s, SolveLimits::default(), jobs, &mut || false);
                    assert!(
                        matches!(&hint, HintVerdict::Move { seeded: true, solution, .. } if solution == c),
                        "seed {seed}: {hint:?}"
                    );
                }
                // A rock for this seed: the whole space searched, none wins with it, and no
                // sequence of up to 7 arrows does.
                SolveOutcome::Random { followed: true, steps } => {
                    shut += 1;
                    assert!(*steps >= 1, "seed {seed}: {r:?}");
                    assert!((1..=7).all(|len| !any_wins_in_seeded(DIE, 0, seed, len)), "seed {seed}");
                }
                other => panic!("seed {seed}: {other:?}"),
            }
        }
        assert!(solved > 0 && shut > 0, "{solved} seeds solved, {shut} shut");
    }

    /// A realtime game whose crate only the clock moves: a tick moves it right (the player,
    /// moving, is never stationary), and the player must first walk out of its way.
    #[test]
    fn a_realtime_game_is_searched_with_the_clock_s_tick_as_a_step() {
        use Command::{Right, Tick};
        let (rules, s) = start_of(CONVEYOR, 0, 0);
        for search in Search::ALL {
            for jobs in [1, 2] {
                let r = solve_parallel(&rules, &s, SolveLimits::default(), search, jobs, &mut || false);
                let SolveOutcome::Solved(solution) = &r.outcome else { panic!("{search}: {r:?}") };
                assert!(wins(CONVEYOR, 0, 0, solution), "{search}: {solution:?}");
                // Three ticks carry the crate home; three steps right take the player out of its
                // way first (the crate cannot go where the player stands).
                assert_eq!(solution.iter().filter(|&&c| c == Tick).count(), 3, "{search}: {solution:?}");
                if search == Search::Bfs {
                    assert_eq!(solution.len(), 6, "{solution:?}");
                    assert_eq!(solution[0], Right, "the player steps aside before the first tick");
                }
            }
        }
        // The hint is the solution's first step; a tick where the clock must move next.
        let mut s = s;
        for _ in 0..3 {
            rules.apply(&mut s, &Right, &mut Vec::new()).unwrap();
        }
        let HintVerdict::Move { first, solution, .. } =
            hint_verdict(&rules, &s, SolveLimits::default(), 1, &mut || false)
        else {
            panic!("a move")
        };
        assert_eq!((first, solution), (Tick, vec![Tick; 3]));
        // Without the clock no step moves the crate: proved unsolvable, no tick searched.
        let still = CONVEYOR.replace("realtime_interval 0.5\n", "");
        let (rules, s) = start_of(&still, 0, 0);
        assert_eq!(
            solve(&rules, &s, SolveLimits::default(), &mut || false).outcome,
            SolveOutcome::Unsolvable
        );
        assert!(!moves(rules.game()).contains(&Tick));
        assert_eq!(
            hint_verdict(&rules, &s, SolveLimits::default(), 1, &mut || false),
            HintVerdict::NoSolution
        );
    }

    #[test]
    fn the_hint_is_a_solution_s_first_step_and_none_when_no_solution_was_found() {
        use crate::Plugin;
        use crate::puzzlescript::PuzzleScript;
        let (rules, s) = start_of(GAME, 0, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), Some(Command::Right));
        // Level 2 (warehouse-002): a step toward a win, not the first legal command (`up`, which
        // the hint fell back to when its search ran out): after it, the rest of the solution
        // found wins, and the fewest steps left are no more than that rest.
        for n in [1, 2] {
            let (rules, mut s) = start_of(GAME, n, 0);
            let hint = PuzzleScript::hint(&rules, &s).expect("a hint");
            let HintVerdict::Move { first, solution, .. } =
                hint_verdict(&rules, &s, SolveLimits::default(), 1, &mut || false)
            else {
                panic!("level {n}: a move")
            };
            assert_eq!((first, solution.first()), (hint, Some(&hint)), "level {n}");
            rules.apply(&mut s, &hint, &mut Vec::new()).unwrap();
            let mut events = Vec::new();
            let mut rest = s.clone();
            for c in &solution[1..] {
                rules.apply(&mut rest, c, &mut events).unwrap();
            }
            assert_eq!(rules.status(&rest), Status::Won, "level {n}: {hint}, then {:?}", &solution[1..]);
            let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
            assert!(
                matches!(r.outcome, SolveOutcome::Solved(c) if c.len() < solution.len()),
                "level {n}: {hint}"
            );
        }
        // The verdict carries the whole solution found (the hint's search: A* and greedy in
        // turns, so not always the fewest steps), which wins and starts with the hint.
        let (rules, s) = start_of(GAME, 1, 0);
        let fewest = solved(GAME, 1).len();
        let HintVerdict::Move { first, solution, seeded: false } =
            hint_verdict(&rules, &s, SolveLimits::default(), 1, &mut || false)
        else {
            panic!("a move")
        };
        assert_eq!(Some(first), PuzzleScript::hint(&rules, &s));
        assert_eq!(solution.first(), Some(&first));
        assert!(solution.len() >= fewest && wins(GAME, 1, 0, &solution), "{solution:?}");
        // Out of budget: no move, and the verdict says so.
        let tiny = SolveLimits { max_nodes: 1, ..SolveLimits::default() };
        assert_eq!(hint_verdict(&rules, &s, tiny, 1, &mut || false), HintVerdict::OutOfTime(1));
        let stuck = GAME
            .replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#")
            .replace("homepage example.invalid", "homepage example.invalid\nnoaction");
        let (rules, s) = start_of(&stuck, 0, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), None, "no solution from here");
        assert_eq!(
            hint_verdict(&rules, &s, SolveLimits::default(), 1, &mut || false),
            HintVerdict::NoSolution
        );
        // With the action key too: the crate in its corner can never reach the target.
        let stuck = GAME.replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#");
        let (rules, s) = start_of(&stuck, 0, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), None);
        assert_eq!(
            hint_verdict(&rules, &s, SolveLimits::default(), 1, &mut || false),
            HintVerdict::NoSolution
        );
        // Where no proof comes from the rules, a search that left out steps that draw is no
        // proof, and no move is offered either: the crate can reach the target, which a wall
        // keeps the player from. (Following the action key's draws, each press is a new state:
        // that search ends on its budget.)
        let fenced = GAME.replace("#.....#\n#.P*.O#\n#.....#", "#P#...#\n#.#.*O#\n#.#...#");
        let (rules, s) = start_of(&fenced, 0, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), None);
        let limits = SolveLimits { max_nodes: 2_000, ..SolveLimits::default() };
        assert_eq!(hint_verdict(&rules, &s, limits, 1, &mut || false), HintVerdict::Random);
    }

    /// States are known by their look (`scenery.rs`): the garden's footprints and grass change
    /// nothing any rule can tell, so breadth-first searches exactly the states of the plain
    /// room, and finds a solution as short, which wins whatever the seed (the grass's draws
    /// are played with the start's generator: no step counts as drawing). Without the look,
    /// every footprint makes a new state and every step draws.
    #[test]
    fn boards_that_differ_only_in_scenery_are_one_state() {
        let (rules, s) = start_of(&garden(true), 0, 0);
        let plain = solve(&rules, &s, SolveLimits::default(), &mut || false);
        let SolveOutcome::Solved(plain_steps) = &plain.outcome else { panic!("{plain:?}") };
        for seed in [0, 1, 7] {
            let (rules, s) = start_of(&garden(false), 0, seed);
            let with = solve(&rules, &s, SolveLimits::default(), &mut || false);
            let SolveOutcome::Solved(steps) = &with.outcome else { panic!("seed {seed}: {with:?}") };
            assert_eq!(
                (steps.len(), with.nodes, with.states),
                (plain_steps.len(), plain.nodes, plain.states)
            );
            assert_eq!(with.draws, 0, "seed {seed}");
            assert!(
                (0..4).all(|other| wins(&garden(false), 0, other, steps)),
                "seed {seed}: wins from any seed"
            );
            for search in [Search::Bfs, Search::Mixed] {
                let one = solve_parallel(&rules, &s, SolveLimits::default(), search, 1, &mut || false);
                let two = solve_parallel(&rules, &s, SolveLimits::default(), search, 2, &mut || false);
                assert_eq!(one, two, "seed {seed}, {search}: the same answer on any number of jobs");
            }
            let memo = SolutionMemo::new(&rules, &s, steps).expect("the solution wins");
            let hint = memo.verdict(&rules, &s);
            assert!(matches!(hint, Some(HintVerdict::Move { seeded: false, .. })), "seed {seed}: {hint:?}");
        }
        let (rules, s) = start_of(&garden(false), 0, 0);
        let no_scenery = Aids { scenery: false, ..Aids::default() };
        let limits = SolveLimits { max_nodes: 4 * plain.nodes, ..SolveLimits::default() };
        let without = solve_aided(&rules, &s, limits, Search::Bfs, no_scenery, 1, &mut || false);
        assert!(
            !matches!(without.outcome, SolveOutcome::Solved(_)) || without.draws > 0,
            "without the look, the first search leaves out every step (they draw): {without:?}"
        );
    }

    /// A step whose every draw had one choice does the same whatever the generator holds: the
    /// search takes it as a step that does not draw, so its solution wins from any seed and
    /// Hint says so. A draw that could go otherwise still counts.
    #[test]
    fn a_draw_among_one_is_no_draw() {
        let game = gem_room(false);
        let (rules, s) = start_of(&game, 0, 0);
        let r = solve_with(&rules, &s, SolveLimits::default(), Search::Bfs, &mut || false);
        let SolveOutcome::Solved(steps) = &r.outcome else { panic!("{r:?}") };
        assert_eq!((steps.len(), r.draws), (3, 0), "{r:?}");
        assert!((0..4).all(|seed| wins(&game, 0, seed, steps)));
        let memo = SolutionMemo::new(&rules, &s, steps).expect("the solution wins");
        let hint = memo.verdict(&rules, &s);
        assert!(matches!(hint, Some(HintVerdict::Move { seeded: false, .. })), "{hint:?}");
        // (the generator did move on: the rule drew)
        let mut played = s.clone();
        for step in steps {
            rules.apply(&mut played, step, &mut Vec::new()).expect("a step");
        }
        assert_ne!(played.engine().rng, s.engine().rng);
        // Two fires, one put out at random each turn: every step draws among two.
        let game = gem_room(true);
        let (rules, s) = start_of(&game, 0, 0);
        let r = solve_with(&rules, &s, SolveLimits::default(), Search::Bfs, &mut || false);
        assert!(matches!(&r.outcome, SolveOutcome::Solved(steps) if steps.len() == 3), "{r:?}");
        assert_eq!(r.draws, 3, "{r:?}");
    }

    /// A hint followed: from each state the solution passes through, the memo answers the rest
    /// of it; off it (another step, other rules) it answers nothing; a solution that does not
    /// win is not kept.
    #[test]
    fn a_solution_followed_is_answered_from_the_memo() {
        use Command::{Down, Left, Up};
        let (rules, s) = start_of(GAME, 1, 0);
        let HintVerdict::Move { solution, .. } =
            hint_verdict(&rules, &s, SolveLimits::default(), 1, &mut || false)
        else {
            panic!("level 2 has a solution")
        };
        let memo = SolutionMemo::new(&rules, &s, &solution).expect("the solution wins");
        let mut here = s.clone();
        let mut events = Vec::new();
        for k in 0..solution.len() {
            assert_eq!(memo.rest(&rules, &here), Some(&solution[k..]), "after {k} steps");
            let Some(HintVerdict::Move { first, .. }) = memo.verdict(&rules, &here) else {
                panic!("step {k}")
            };
            assert_eq!(first, solution[k]);
            rules.apply(&mut here, &solution[k], &mut events).unwrap();
        }
        assert!(here.is_won());
        assert_eq!(memo.rest(&rules, &here), None, "won: nothing left to hint");
        // A step off the solution: no answer from the memo.
        let mut off = s.clone();
        let other = [Up, Down, Left].into_iter().find(|c| *c != solution[0]).unwrap();
        rules.apply(&mut off, &other, &mut events).unwrap();
        assert!(off != s && memo.rest(&rules, &off).is_none());
        // Other rules (the same board): none either.
        let (other_rules, _) = start_of(&GAME.replace("title Warehouse", "title Warehouse 2"), 1, 0);
        assert_eq!(memo.rest(&other_rules, &s), None);
        // A solution cut short does not win: not kept.
        assert!(SolutionMemo::new(&rules, &s, &solution[..solution.len() - 1]).is_none());
    }
}
