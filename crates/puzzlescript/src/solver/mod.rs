//! A PuzzleScript solver: a breadth-first search over the states a level's steps reach, so the
//! first solution found has the fewest steps; or a best-first search ([`Search::AStar`],
//! [`Search::Greedy`], [`Search::Width`], all in turns: [`Search::Mixed`]) guided by the win
//! conditions, which finds solutions with fewer states but does not prove them fewest.
//!
//! - **Steps** are `up`, `down`, `left`, `right` and `action` (not when the game says
//!   `noaction`), each run exactly as the rule set runs it: the turn, then every `again` turn it
//!   queues (at most [`MAX_TURNS`](crate::MAX_TURNS)), stopping at a win; a chain of `again`
//!   turns that comes back to a state it passed (an animation looping for ever) has its whole
//!   cycles skipped, their work counted, to the same state and verdict. `tick`
//!   is searched in a realtime game (`realtime_interval`) only: a turn with no input, as the
//!   game's clock plays it, which a player gets by waiting (a solution may ask for several
//!   steps between two ticks, as a quick hand plays them); `restart` is not searched (it only
//!   goes back to a state already seen). `action` is not
//!   played where it provably changes nothing (every rule needs something moving up, down, left
//!   or right; see `Game::action_is_idle`): it would find the state it starts from. The turns
//!   are played quietly (`Game::quiet_turn`: no messages, no sounds, buffers reused), with the
//!   same states, flags and work as the rule set's.
//! - **States** are the engine's state: the board's objects and the rest (the checkpoint the
//!   restart goes to, pending movements). The rest, which rarely changes, is stored once and
//!   referred to by an id. A state is remembered by a 128-bit hash of its board and rest id
//!   (xxh3-128), not by its board: the board is kept only while the state waits
//!   in the frontier, packed as the words where it differs from the start's board (a few
//!   cells of a large board: a few words), so a state seen costs about 60 bytes whatever the
//!   board's size, and one waiting little more than its changes. Two
//!   distinct states with the same 128-bit hash would be taken for one (the second skipped):
//!   among a billion states the chance is about 10^-21. Such a collision could only hide a
//!   solution (a longer one found, or `Unsolvable` said wrongly), never make a wrong one: the
//!   solution is a path of steps actually played, and the CLI plays it again before printing.
//!   Nothing is iterated in hash order, so a search, its result and its counts are the same on
//!   every run and machine.
//! - **Search.** [`Search::Bfs`] expands states in the order found: its first solution has the
//!   fewest steps, and when it ends with none, there is none. [`Search::AStar`] expands by the
//!   steps so far plus an estimate of the steps left, [`Search::Greedy`] by the estimate alone
//!   (ties by the smaller estimate, then the player's lead, then first found). The estimate sums, over the win
//!   conditions, the cells that break them: for `all X on Y` each cell with an X and no Y counts
//!   its distance (columns plus rows) to the nearest Y, or 1 when there is no Y (where the
//!   moves to each Y cell are known, `prune.rs`'s per-target maps, each X off a Y is given its
//!   own Y free of one instead, the least total moves over the ways to pair them: Sokoban's
//!   matching estimate, as two crates cannot end on one target; reversed, `all Target on
//!   Crate`, each target without a crate its own crate off a target; at most [`MAX_PAIRED`]
//!   pairs); for `no X on Y`
//!   each cell with both counts 1; `some X on Y`, when no cell has both, counts the X nearest a
//!   Y's distance to it (moves where worked out, else columns plus rows; at least 1: a player
//!   who must reach an exit is led to it, where counting 1 made A* breadth-first). Among states
//!   of one estimate, A* and greedy take first the one whose player is nearest (columns plus
//!   rows) an object still to be brought onto its place by an `all X on Y` condition, the
//!   player's *lead* ([`Aids::lead`]): the estimate does not see the player, so without it a
//!   search walks round the whole room before the push that counts (width's order leaves it
//!   out: its novelty leads it already). It is not
//!   admissible in general (one step may move many objects, a rule may clear a whole row), so
//!   A*'s solutions are usually but not provably the fewest; when either ends with no solution
//!   it has searched every state, so `Unsolvable` is a proof for all of them. A state found
//!   again by a shorter path is updated and expanded again (every best-first search).
//!   [`Search::Width`] is best-first width search (BFWS, Lipovetzky and Geffner, from classical
//!   planning): a state found is *novel* when it has some object on a cell where no state
//!   found before with the same estimate had it (one board of bits per estimate, ORed), and
//!   else novel in pairs (BFWS's width 2) when two of its objects that are off their start
//!   cells are together where no state found before with the same estimate had them (at most
//!   16 such objects, so pairs follow the pieces a search moves, not the scenery); novel
//!   states are expanded first, then novel pairs, each kind by the estimate, then the oldest. Where the estimate
//!   misleads (a lever to pull, a block to fetch first: steps that change nothing it counts),
//!   greedy circles among states of one estimate while width goes where the objects have not
//!   been yet. [`Search::Mixed`] takes A*'s, greedy's and width's next states in turns, over
//!   one store (alternation, as planners run several orders at once; greedy twice, its ties
//!   broken oldest first and newest first; width every other turn, [`MIXED_TURNS`]): on the
//!   suite's hard levels greedy solves several times as many as A*, whose solutions are
//!   shorter when it finds them, and width solves others still; in turns, the search finds
//!   A*'s short solution where one is near and the others' long ones where A* would need too
//!   many states. When a state one order took finds a state of a smaller estimate than any
//!   found before, that order takes the next [`BOOST_TURNS`] turns (the boost, as planners
//!   boost the queue that made progress; [`Aids::boost`]): the order that is getting somewhere
//!   is not made to wait five turns in six while the others look elsewhere. A* is not boosted:
//!   it takes the first turn, so the start's own children, a smaller estimate than the start's,
//!   would hand it the first 1,024 turns of nearly every level, and its progress costs the
//!   steps so far.
//! - **Scenery.** Objects no rule tells apart (`scenery.rs`: alike ones, read in exactly
//!   the same places, `FirePit1` and `FirePit2` only ever read as `FirePit`; unseen ones, read
//!   nowhere, on a layer where nothing moves: footprints, sparkles) are scenery: a state is
//!   known by its board's look (each group of alike objects as one, the unseen dropped), so
//!   two states that differ only in scenery are one. Randomness that only paints scenery (a
//!   random pick among alike objects, a random rule group whose every rule only paints) is
//!   played with the start's generator, so such a step does not count as drawing, and rules
//!   that only paint (every write keeps the look; what only they read is scenery too: borders
//!   drawn around walls and erased each turn) are not played in the search. The look is
//!   exact where no rule queues `again`; where one does, a turn that changes only scenery still
//!   counts as a change and lets a queued `again` turn play, so the look may hide a
//!   difference: breadth-first then goes without it (its solutions must be the fewest steps),
//!   and another search's "no solution" (not a proof then), or a solution that does not win when
//!   the rule set plays it again from the start, is searched again without the look, within
//!   what is left of the budget.
//! - **Randomness.** A step that draws from the game's generator (a `random` rule, a random
//!   object or a `randomdir` that fires) is left out at first: its result depends on the seed.
//!   Every step the search follows then leaves the generator as it was, so a solution wins from
//!   this board whatever the seed. A step whose every draw had one choice (a `random` rule with
//!   one match, a common way to apply a rule once) does the same whatever the generator holds:
//!   it is no draw, and is played with the generator it starts from (the engine's
//!   `QuietOutcome::free_draw` tells the two apart). Once that search meets a step that draws,
//!   a second search starts that follows them, each as this state's generator plays it: the
//!   generator is then part of the state (its rest), and a solution found wins from this state
//!   with its seed, maybe not from another ([`SolveReport::draws`] counts its steps that
//!   draw). The two take turns on the same threads, 1,024 expansions each, sharing the budget
//!   (states expanded, and bytes stored; the second is dropped when the first's next turn
//!   might not fit beside it),
//!   until one finds a solution or the second has searched everything it reaches (the
//!   first reaches nothing more); when the first ends with no solution, the second goes on
//!   alone. So a game whose `action` draws (a spark's place), which has a new state at every
//!   press once the generator is part of it, keeps the first search's answers at half its pace,
//!   and a game whose only ways on draw is not kept waiting for the first search to end. When
//!   neither finds a solution the
//!   answer is [`SolveOutcome::Random`], not `Unsolvable`. Steps past the step work bound, which
//!   the rules refuse, are left out ([`SolveOutcome::TooLong`]).
//! - **Jobs.** [`solve_parallel`] keeps `jobs - 1` helper threads for the search's life (they
//!   spin a while between tasks, then sleep) and hands them steps to play, one step (a state
//!   and a move) at a time: the steps of the state the search expands next, when a state's
//!   steps take long enough to pay for handing them out (about 10 µs; less, and one thread
//!   plays them); and, when the states next in line hold enough work, theirs too, ahead of
//!   their turn: the queue's next states (breadth-first), or the heaps' least (best-first, in
//!   turns; a state at the top of two heaps taken once). Then the states are taken one at a
//!   time in the order one thread would take them (best-first: when a state found meanwhile
//!   comes before the rest of the batch, or a state of the batch was found again by a shorter
//!   way, the rest waits, its expansions kept). So the states, counts and solution are the
//!   same for any number of jobs: the clock (the running mean of the last expansions' times)
//!   decides where a step is played, never which.
//! - **Budget**: [`SolveLimits::max_nodes`] expansions, [`SolveLimits::max_bytes`] of stored
//!   states (the table of hashes, the links back to each state's parent, the boards in the
//!   frontier, its queue's or heaps' entries, width's novelty boards; the search stops with [`SolveOutcome::Memory`] rather than grow past it), and a
//!   `stop` callback the caller passes (checked before every step the search plays, so a
//!   time budget overshoots by one step at most, which the engine's step bound caps; no clock
//!   in core).
//!
//! # Design
//!
//! Searches the engine's states breadth-first (fewest steps, proved) or best-first
//! (`Search::AStar`/`Greedy`, by the distances of the cells that break a win condition: not
//! admissible, so not proved fewest; ties by the player's lead, its distance to the nearest object
//! still to be placed, packed below the estimate in one word by `key_of`; `Width`: best-first width
//! search, novel states first, novelty kept per estimate as a board of bits in the `Store`, then
//! novel pairs of objects off their start cells (width 2, a set of packed pairs); `Mixed`: one heap
//! per order, taken in the turns `MIXED_TURNS` names over one store, except that the heap whose
//! state found a smaller estimate than any before takes the next `BOOST_TURNS` (greedy's and
//! width's, not A*'s: `Order::takes_boost`; `Boost`; a batch's states remember where they came
//! from, `Pick`, so that one cut short gives its turns back); each heap a bucket queue, `Buckets`:
//! a queue per (priority, estimate) in a sorted map, a binary heap's order); a state's key is
//! xxh3-128 of its board seeded by its rest's id; a step's loop of `again` turns is skipped by
//! whole cycles (Brent's method, the same state and work); states are remembered by a 128-bit hash
//! (boards kept only in the frontier, packed as their difference from the start's; the rest
//! interned), with node and memory budgets and a stop callback, no clock; it first skips steps that
//! change the generator (its solutions then seed-free), and once it meets one a second search (a
//! `Searcher`, as the first: both pause after a number of expansions and go on) takes turns with
//! it, following them with the generator in the state's rest (`SolveReport::draws`: that seed's
//! solution; `SolveOutcome::Random { followed }`); it skips `action` where no rule can fire without
//! something moving (`Game::action_is_idle`), and searches `tick` (a turn with no input) in a
//! realtime game only (`moves`). Its turns are `Game::quiet_turn`s: the same states and work as
//! `turn_within`, in an `engine::Workspace` whose buffers (`turn::Scratch`: masks, match lists,
//! board copies, the memo, the counts of rules ruled out, the last `again` check) a turn borrows
//! (never moves: it is large) and reuses, with no messages or sounds. `solve_parallel` keeps
//! `jobs - 1` helper threads for the search's life (`Pool`, `Shared`: a `Task` of states and their steps
//! behind an `RwLock`, handed out one step at a time by an atomic counter); a state's own steps go
//! to them while that times quicker than one thread, and batches of the states next in line when
//! they hold enough work; the states are taken in the order one thread would (the same answer for
//! any `--jobs`). A step whose every draw had one choice (a `random` rule with one match; the
//! engine's `QuietOutcome::free_draw` is false) does the same with any generator: the search takes
//! it as no draw, played with the generator it starts from.

use crate::prune::{FAR, Pruning, Travel};
use crate::scenery::Scenery;
use crate::{Command, Game, Input, MAX_TURNS, State};
use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap, VecDeque};

mod estimate;
mod frontier;
mod pool;
mod search;
mod step;
mod store;
#[cfg(test)]
mod tests;

use estimate::*;
use frontier::*;
pub use frontier::{BOOST_TURNS, MIXED_TURNS};
use pool::*;
use search::*;
use step::*;
pub(crate) use step::{input, step};
pub use step::{search_work_left, with_search_work};
use store::*;

/// No parent (the start); no frontier slot.
const NONE: u32 = u32::MAX;
/// The most states a search stores (ids are `u32`).
const MAX_STATES: usize = (u32::MAX - 1) as usize;

/// How a search orders the states it expands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Search {
    /// Breadth-first: the fewest steps, proved.
    #[default]
    Bfs,
    /// Best-first by steps so far plus the estimate of the steps left (see the module docs):
    /// short solutions in fewer states, not proved fewest.
    AStar,
    /// Best-first by the estimate alone: a solution in the fewest states, often long.
    Greedy,
    /// A*, greedy and width in turns, over one store of states: each expansion takes the next
    /// state of one of four orders in turn (see [`MIXED_TURNS`]: width every other one): A*'s,
    /// greedy's with ties oldest first, greedy's with ties newest first, width's. Solves the
    /// levels any of them solves alone, mostly; its solutions are A*'s when A* finds one first,
    /// else the others'.
    Mixed,
    /// Best-first width search (Lipovetzky and Geffner's BFWS, from classical planning): a
    /// state is novel when it puts some object on a cell where no state found before with the
    /// same estimate had it, or else two objects off their start cells where none had them
    /// together; novel states first, then novel pairs, then by the estimate, then the oldest.
    /// It tries what the estimate alone passes over (steps that change nothing it counts).
    Width,
}

impl Search {
    /// Every search, in the order the CLI lists them.
    pub const ALL: [Search; 5] = [Search::Bfs, Search::AStar, Search::Greedy, Search::Mixed, Search::Width];

    /// Its name on the command line: `bfs`, `astar`, `greedy`, `mixed`, `width`.
    pub fn name(self) -> &'static str {
        match self {
            Search::Bfs => "bfs",
            Search::AStar => "astar",
            Search::Greedy => "greedy",
            Search::Mixed => "mixed",
            Search::Width => "width",
        }
    }

    /// The search of that name.
    pub fn from_name(name: &str) -> Option<Search> {
        Search::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether its first solution is proved to have the fewest steps.
    pub fn proves_fewest(self) -> bool {
        self == Search::Bfs
    }
}

impl std::fmt::Display for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How far a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// The most states expanded before the search gives up (`Stopped`).
    pub max_nodes: u64,
    /// The most bytes of stored states before the search gives up (`Memory`).
    pub max_bytes: u64,
}

impl SolveLimits {
    /// The default memory budget: 1 GiB.
    pub const DEFAULT_BYTES: u64 = 1 << 30;
}

impl Default for SolveLimits {
    fn default() -> Self {
        SolveLimits { max_nodes: u64::MAX, max_bytes: SolveLimits::DEFAULT_BYTES }
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A solution with the fewest steps: the commands, in order (empty when already won).
    Solved(Vec<Command>),
    /// No sequence of steps wins from this state.
    Unsolvable,
    /// No sequence of steps that draw nothing from the generator wins, and `steps` steps that
    /// draw were left out (`followed` false: the search that follows them gave up on its budget);
    /// or (`followed`) no sequence of steps wins from this state with its generator, `steps` of
    /// the steps searched drawing from it: from another seed one might. Not a proof for the
    /// level either way (see the module docs).
    Random {
        /// Steps that drew from the generator: left out, or followed.
        steps: u64,
        /// Whether the steps that draw were followed to the end of the search.
        followed: bool,
    },
    /// No sequence of the steps searched wins, but `steps` steps past the step work bound
    /// ([`Puzzle::work_limit`]), which the rules refuse, were left out: not a
    /// proof, since a game that allowed them might win through them.
    TooLong {
        /// Steps left out because they passed the work bound.
        steps: u64,
    },
    /// The node budget ran out or the stop callback said so.
    Stopped,
    /// The stored states reached the memory budget.
    Memory,
}

/// What [`solve`] answers: the outcome and the work done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// How the search ended.
    pub outcome: SolveOutcome,
    /// States expanded.
    pub nodes: u64,
    /// Distinct states stored (the start included).
    pub states: u64,
    /// Bytes the stored states took at the end (the estimate checked against the budget).
    pub bytes: u64,
    /// States reached but not stored: no sequence of steps wins from them (a win condition that
    /// can never hold again, read from the rules; see `prune.rs`).
    pub pruned: u64,
    /// The steps of the solution that drew from the generator: it wins from this state with its
    /// generator, and from this board with any generator when 0 (0 when there is no solution).
    pub draws: u64,
}

/// The commands a search expands, in order: the arrows, `action` unless the game says
/// `noaction`, and `tick` in a realtime game (a turn with no input: the clock's).
pub fn moves(game: &Game) -> &'static [Command] {
    use Command::*;
    let realtime = game.prelude().realtime_interval.is_some();
    match (game.prelude().noaction, realtime) {
        (true, false) => &[Up, Down, Left, Right],
        (false, false) => &[Up, Down, Left, Right, Action],
        (true, true) => &[Up, Down, Left, Right, Tick],
        (false, true) => &[Up, Down, Left, Right, Action, Tick],
    }
}

/// What a search is asked to solve: a compiled game, the state to solve from, whether that
/// state is won already, and the most work a step may do (a step past it is refused, as the
/// rule set refuses it: [`crate::MAX_STEP_WORK`] unless the game's player says otherwise).
#[derive(Clone, Copy, Debug)]
pub struct Puzzle<'a> {
    /// The compiled game.
    pub game: &'a Game,
    /// The state searched from.
    pub start: &'a State,
    /// Whether `start` is won already (the solution is then empty).
    pub won: bool,
    /// The most work one step may do ([`crate::Work`]).
    pub work_limit: u64,
}

/// Searches for a solution of `puzzle` with the fewest steps (breadth-first), within `limits`,
/// calling `stop` before every step (see the module docs).
pub fn solve(puzzle: Puzzle<'_>, limits: SolveLimits, stop: &mut dyn FnMut() -> bool) -> SolveReport {
    solve_with(puzzle, limits, Search::Bfs, stop)
}

/// Searches for a solution of `state` by `search` (see the module docs), within `limits`, calling
/// `stop` before every step.
pub fn solve_with(
    puzzle: Puzzle<'_>,
    limits: SolveLimits,
    search: Search,
    stop: &mut dyn FnMut() -> bool,
) -> SolveReport {
    solve_aided(puzzle, limits, search, Aids::default(), 1, stop)
}

/// [`solve_with`] on `jobs` threads: the same solution, states and counts whatever `jobs` (the
/// steps are played on every thread, the states they reach taken in the order one thread would
/// take them; see the module docs).
pub fn solve_parallel(
    puzzle: Puzzle<'_>,
    limits: SolveLimits,
    search: Search,
    jobs: usize,
    stop: &mut dyn FnMut() -> bool,
) -> SolveReport {
    solve_aided(puzzle, limits, search, Aids::default(), jobs, stop)
}

/// Which of the search's aids are on (all, by default): to measure what each one buys
/// (`puzzlescript_solve`'s `AIDS`). Turning one off never changes a solution's validity, only
/// the work to find it (and, for the estimate, which solution A* finds).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aids {
    /// Skip `action` where it provably changes nothing (`Game::action_is_idle`).
    pub idle_action: bool,
    /// Drop states where an object can no longer reach where it must be (`prune.rs`).
    pub travel_pruning: bool,
    /// Estimate by the moves objects need (`prune.rs`), not by columns plus rows.
    pub travel_estimate: bool,
    /// Estimate `some X on Y` by the nearest X's moves to a Y, not 1.
    pub some_distance: bool,
    /// Estimate `all X on Y` by giving each X off a Y its own free Y (the least total moves),
    /// not each X its nearest Y.
    pub matching: bool,
    /// Among states of one estimate, take first those whose player is nearest (columns plus
    /// rows) an object still to be brought onto its place by an `all X on Y` condition (A* and
    /// greedy; not width): the player walks to the next crate rather than round the room first.
    pub lead: bool,
    /// [`Search::Mixed`]: the order (greedy's or width's, not A*'s) whose state expanded found
    /// a smaller estimate than any found before takes the next [`BOOST_TURNS`] turns
    /// (planners' boost of the queue that made progress).
    pub boost: bool,
    /// Drop states where an object that must reach a place can never move again (`prune.rs`'s
    /// frozen objects; part of `travel_pruning`).
    pub freeze: bool,
    /// Take states whose boards differ only in scenery (objects no rule tells apart) for one,
    /// and play randomness that only paints scenery with the start's generator
    /// (`scenery.rs`).
    pub scenery: bool,
}

impl Default for Aids {
    fn default() -> Self {
        Aids {
            idle_action: true,
            travel_pruning: true,
            travel_estimate: true,
            some_distance: true,
            matching: true,
            lead: true,
            boost: true,
            freeze: true,
            scenery: true,
        }
    }
}

/// [`solve_parallel`] with only `aids` on.
#[doc(hidden)]
pub fn solve_aided(
    puzzle: Puzzle<'_>,
    limits: SolveLimits,
    search: Search,
    aids: Aids,
    jobs: usize,
    stop: &mut dyn FnMut() -> bool,
) -> SolveReport {
    let ask = Ask { puzzle, search, aids, jobs };
    let scenery = if aids.scenery { Scenery::of(puzzle.game, puzzle.start) } else { None };
    // (a look that may hide a difference, in a game with `again`, could hide the shortest
    // solution: breadth-first goes without)
    let Some(look) = scenery.as_ref().filter(|s| s.exact || !search.proves_fewest()) else {
        return search_both(ask, limits, stop, None);
    };
    let mut report = search_both(ask, limits, stop, Some(look));
    let sure = match &report.outcome {
        SolveOutcome::Solved(path) => match played(puzzle, path) {
            // (a game with `again` whose draws paint only scenery: the solution is known to
            // win with this generator, maybe not another)
            Some(draws) if look.random_is_scenery && !look.exact => {
                report.draws = draws;
                true
            }
            Some(_) => true,
            None => false,
        },
        SolveOutcome::Unsolvable | SolveOutcome::Random { followed: true, .. } => look.exact,
        SolveOutcome::Random { followed: false, .. }
        | SolveOutcome::TooLong { .. }
        | SolveOutcome::Stopped
        | SolveOutcome::Memory => true,
    };
    if sure {
        return report;
    }
    // The look hid a difference that mattered (see `scenery.rs`): searched again without it,
    // within what is left of the budget.
    let left = SolveLimits { max_nodes: limits.max_nodes.saturating_sub(report.nodes), ..limits };
    let again = search_both(ask, left, stop, None);
    SolveReport { nodes: again.nodes.saturating_add(report.nodes), ..again }
}

/// When `path` wins from the puzzle's start, played step by step on the whole game (every step
/// accepted: none past the work bound, none after the win): its steps that drew from the
/// generator.
fn played(puzzle: Puzzle<'_>, path: &[Command]) -> Option<u64> {
    let mut s = puzzle.start.clone();
    let mut ws = crate::Workspace::default();
    let mut won = puzzle.won;
    let mut draws = 0;
    for c in path {
        if won {
            return None;
        }
        let rng = s.rng.clone();
        won = step(puzzle.game, &mut ws, &mut s, input(*c), puzzle.work_limit)?.won;
        draws += u64::from(s.rng != rng);
    }
    won.then_some(draws)
}

/// Whether the step `cmd` from `before` makes a draw from the generator that could have gone
/// otherwise (without one, the step does the same whatever the generator holds, even if it
/// drew); true for a step past `work_limit`.
pub fn draw_is_free(game: &Game, before: &State, cmd: Command, work_limit: u64) -> bool {
    let mut again = before.clone();
    step(game, &mut crate::Workspace::default(), &mut again, input(cmd), work_limit)
        .is_none_or(|o| o.free_draw)
}

/// What [`solve_aided`] is asked: the level, the search, its aids and threads.
#[derive(Clone, Copy)]
struct Ask<'a> {
    puzzle: Puzzle<'a>,
    search: Search,
    aids: Aids,
    jobs: usize,
}

/// [`solve_aided`]'s two searches (steps that draw left out, and followed), states known by
/// their `look` when given.
fn search_both(
    ask: Ask,
    limits: SolveLimits,
    stop: &mut dyn FnMut() -> bool,
    look: Option<&Scenery>,
) -> SolveReport {
    let Ask { puzzle, search, aids, jobs } = ask;
    let mut first = Searcher::new(puzzle, search, aids, jobs, false, look);
    // The search that follows the steps that draw, once the first has met one: the two take
    // turns, `SLICE` expansions each, sharing the budget (see the module docs).
    let mut second: Option<Searcher> = None;
    // (dropped: memory ran short while the first went on; its expansions still count)
    let mut second_gone = false;
    let mut gone_nodes = 0u64;
    let mut first_ended: Option<SolveReport> = None;
    let both = |first: &Searcher, second: &Searcher, r: SolveReport| SolveReport {
        nodes: first.k.nodes.saturating_add(second.k.nodes),
        states: first.store.count().max(second.store.count()) as u64,
        bytes: first.bytes().max(second.bytes()),
        ..r
    };
    loop {
        if first_ended.is_none() {
            // The second gives way when the first's next turn might not fit beside it: the
            // first's answer holds for every seed.
            if let Some(s) = &second {
                let need = first.bytes().saturating_add(first.growth(SLICE * first.moves.len() as u64));
                if need.saturating_add(s.bytes()) > limits.max_bytes {
                    gone_nodes = s.k.nodes;
                    second = None;
                    second_gone = true;
                }
            }
            let (n, bytes) = second.as_ref().map_or((gone_nodes, 0), |s| (s.k.nodes, s.bytes()));
            let pause = first.k.nodes.saturating_add(SLICE);
            let ended = first.run(
                pause,
                limits.max_nodes.saturating_sub(n),
                limits.max_bytes.saturating_sub(bytes),
                stop,
            );
            if second.is_none() && !second_gone && first.k.random > 0 {
                second = Some(Searcher::new(puzzle, search, aids, jobs, true, look));
            }
            match (ended, &second) {
                (None, _) => {}
                // (no step left out drew, or the second search ran out of memory: the first
                // search's answer stands)
                (Some(r), None) => return SolveReport { nodes: r.nodes.saturating_add(gone_nodes), ..r },
                // (a solution or a proof ends both; so do the budgets, which are shared: the
                // first search out of memory is not taken up again, since it stopped within a
                // state's steps; the second gave way before its turn when the memory might not
                // hold both)
                (Some(r), Some(s)) => match r.outcome {
                    SolveOutcome::Random { .. } | SolveOutcome::TooLong { .. } => first_ended = Some(r),
                    _ => return both(&first, s, r),
                },
            }
        }
        let Some(s) = second.as_mut() else { continue };
        // (alone once the first ended)
        let pause = if first_ended.is_some() { u64::MAX } else { s.k.nodes.saturating_add(SLICE) };
        let bytes = if first_ended.is_some() { 0 } else { first.bytes() };
        let Some(r) = s.run(
            pause,
            limits.max_nodes.saturating_sub(first.k.nodes),
            limits.max_bytes.saturating_sub(bytes),
            stop,
        ) else {
            continue;
        };
        let s = &*s;
        match (&r.outcome, &first_ended) {
            // Out of budget: nothing found; the first search's answer, if it had one, stands.
            (SolveOutcome::Stopped | SolveOutcome::Memory, Some(a)) => {
                return both(&first, s, a.clone());
            }
            (SolveOutcome::Stopped, None) => return both(&first, s, r),
            // (out of memory with the first search still going: it goes on alone)
            (SolveOutcome::Memory, None) => {
                gone_nodes = s.k.nodes;
                second = None;
                second_gone = true;
            }
            // A solution, or the whole search for this seed, or steps left out past the work
            // bound: the search that leaves out draws would find nothing more (what it
            // reaches, this one reaches).
            _ => return both(&first, s, r),
        }
    }
}
