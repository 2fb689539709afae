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

use crate::prune::{FAR, Pruning, Travel};
use crate::scenery::Scenery;
use crate::{Command, Game, Input, MAX_TURNS, State};
use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap, VecDeque};

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

/// What a step did ([`step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stepped {
    /// The step won.
    pub(crate) won: bool,
    /// A draw from the generator could have gone otherwise in one of its turns
    /// ([`crate::QuietOutcome::free_draw`]): without one, the step does the same whatever the
    /// generator holds, even if it drew.
    free_draw: bool,
}

/// One step as the rule set runs it (as the tessera rule set runs it) on the engine's
/// state: whether it won, and whether a draw could have gone otherwise.
///
/// `None` for a step past `work_limit` (see [`Puzzle::work_limit`]), which the
/// rules refuse: the state is then of no use.
pub(crate) fn step(
    game: &Game,
    ws: &mut crate::Workspace,
    state: &mut crate::State,
    input: Option<Input>,
    work_limit: u64,
) -> Option<Stepped> {
    let mut free_draw = false;
    let mut turn = 0u32;
    let mut work = crate::Work::new(work_limit);
    // A chain of `again` turns that comes back to a state it passed (an animation that loops)
    // repeats from there to the last turn, since an `again` turn depends on the state alone,
    // its work too. Found by Brent's method (the state kept at turns 4, 8, 16, ...): the
    // whole cycles left are skipped, their work counted, and the rest played. The same state
    // and answer as playing every turn, for a 60th of the work on a chain of 1,000 turns.
    let mut kept: Option<(crate::State, u32, u64)> = None;
    let mut cycled = false;
    loop {
        let outcome = game.quiet_turn(ws, state, if turn == 0 { input } else { None }, &mut work);
        if work.over() {
            return None;
        }
        let won = outcome.won || outcome.conditions_held.unwrap_or_else(|| game.is_won(state));
        free_draw |= outcome.free_draw;
        turn += 1;
        if won || !outcome.again || turn >= MAX_TURNS {
            return Some(Stepped { won, free_draw });
        }
        if cycled || turn < CYCLE_FROM {
            continue;
        }
        match &kept {
            Some((seen, at, spent)) if seen == state => {
                let period = turn - at;
                let cycles = (MAX_TURNS - turn) / period;
                let per_cycle = work.spent - spent;
                work.spent = work.spent.saturating_add(per_cycle.saturating_mul(u64::from(cycles)));
                if work.over() {
                    return None;
                }
                turn += cycles * period;
                if turn >= MAX_TURNS {
                    // (this state is the last turn's, which did not win; the cycle's turns
                    // are the ones played, their draws seen)
                    return Some(Stepped { won: false, free_draw });
                }
                cycled = true;
            }
            _ if turn.is_power_of_two() => kept = Some((state.clone(), turn, work.spent)),
            _ => {}
        }
    }
}

/// The turn of a step from which [`step`] looks for a loop of `again` turns (a power of two).
const CYCLE_FROM: u32 = 4;

/// The engine input of a searched command.
pub(crate) fn input(cmd: Command) -> Option<Input> {
    match cmd {
        Command::Up => Some(Input::Up),
        Command::Down => Some(Input::Down),
        Command::Left => Some(Input::Left),
        Command::Right => Some(Input::Right),
        Command::Tick => None,
        _ => Some(Input::Action),
    }
}

/// The board a state is known by: its look (`scenery.rs`), made in `buffer`, or itself.
fn seen_as<'b>(look: Option<&Scenery>, cells: &'b [u64], buffer: &'b mut Vec<u64>) -> &'b [u64] {
    match look {
        Some(look) => {
            look.look(cells, buffer);
            buffer
        }
        None => cells,
    }
}

/// The 128-bit hash a state is remembered by: xxh3-128 of its board's words (little-endian
/// bytes) seeded by its rest id (never 0, the table's empty slot).
fn state_key(cells: &[u64], rest: u32) -> u128 {
    thread_local! {
        static BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BYTES.with(|buffer| {
        let mut bytes = buffer.borrow_mut();
        bytes.resize(cells.len() * 8, 0);
        for (b, w) in bytes.chunks_exact_mut(8).zip(cells) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        xxhash_rust::xxh3::xxh3_128_with_seed(&bytes, u64::from(rest)).max(1)
    })
}

/// The estimate of the steps left (see the module docs): the cells that break a win condition.
struct Estimate<'g> {
    game: &'g Game,
    /// Where objects can travel, per win condition it was worked out for (`prune.rs`): its
    /// moves then stand for the columns plus rows.
    travel: &'g [Travel],
    /// `some X on Y` counts the nearest X's moves to a Y, not 1.
    some_distance: bool,
    /// `all X on Y`, where the moves to each Y are known, gives each X off a Y its own free Y.
    matching: bool,
    /// [`Estimate::key`] breaks ties by the player's lead (see [`Aids::lead`]).
    lead: bool,
}

/// The most (X, Y) pairs the estimate of `some X on Y` measures.
const MAX_PAIRS: usize = 4096;

/// Cells a win condition's estimate looks at (kept per thread between estimates): those with an
/// X, those with a Y, those with an X and no Y, each in board order.
#[derive(Default)]
struct Marks {
    xs: Vec<usize>,
    ys: Vec<usize>,
    off: Vec<usize>,
    assign: Assignment,
    /// The pairing's movers off a target and targets free of one.
    loose: Vec<usize>,
    free: Vec<usize>,
    /// The players' cells (the lead's).
    players: Vec<usize>,
}

/// The most movers off a target the estimate pairs (past it, each counts its nearest target):
/// the pairing takes `O(n³)` steps, 13,824 at 24 (a level with 39 targets all paired took 4.9
/// times the instructions a state).
const MAX_PAIRED: usize = 24;

/// The buffers of [`least_assignment`], kept between estimates.
#[derive(Default)]
struct Assignment {
    u: Vec<i64>,
    v: Vec<i64>,
    row_of: Vec<usize>,
    way: Vec<usize>,
    least: Vec<i64>,
    used: Vec<bool>,
}

/// A cost at or past which a pair cannot be made ([`FAR`]).
const NO_PAIR: i64 = 1 << 40;

/// The least total cost of giving each of `rows` its own one of `cols` (`rows <= cols`),
/// `cost(r, c)` each ([`FAR`]: never), or `None` when no such assignment avoids [`FAR`]: the
/// Hungarian algorithm with potentials, `O(rows² cols)`, in integers (the same answer on every
/// machine).
fn least_assignment(
    rows: usize,
    cols: usize,
    cost: &dyn Fn(usize, usize) -> u32,
    a: &mut Assignment,
) -> Option<u32> {
    if rows > cols {
        return None;
    }
    if rows == 0 {
        return Some(0);
    }
    let price = |r: usize, c: usize| match cost(r, c) {
        FAR => NO_PAIR,
        d => i64::from(d),
    };
    // (1-based: row 0 and column 0 stand for "none")
    a.u.clear();
    a.u.resize(rows + 1, 0);
    a.v.clear();
    a.v.resize(cols + 1, 0);
    a.row_of.clear();
    a.row_of.resize(cols + 1, 0);
    a.way.clear();
    a.way.resize(cols + 1, 0);
    for r in 1..=rows {
        a.row_of[0] = r;
        let mut c0 = 0;
        a.least.clear();
        a.least.resize(cols + 1, i64::MAX);
        a.used.clear();
        a.used.resize(cols + 1, false);
        loop {
            a.used[c0] = true;
            let r0 = a.row_of[c0];
            let (mut delta, mut c1) = (i64::MAX, 0);
            for c in 1..=cols {
                if !a.used[c] {
                    let cur = price(r0 - 1, c - 1) - a.u[r0] - a.v[c];
                    if cur < a.least[c] {
                        a.least[c] = cur;
                        a.way[c] = c0;
                    }
                    if a.least[c] < delta {
                        delta = a.least[c];
                        c1 = c;
                    }
                }
            }
            for c in 0..=cols {
                if a.used[c] {
                    a.u[a.row_of[c]] += delta;
                    a.v[c] -= delta;
                } else {
                    a.least[c] -= delta;
                }
            }
            c0 = c1;
            if a.row_of[c0] == 0 {
                break;
            }
        }
        loop {
            let c1 = a.way[c0];
            a.row_of[c0] = a.row_of[c1];
            c0 = c1;
            if c0 == 0 {
                break;
            }
        }
    }
    let total = -a.v[0];
    (total < NO_PAIR).then_some(total as u32)
}

thread_local! {
    static MARKS: std::cell::RefCell<Marks> = std::cell::RefCell::default();
}

/// Whether a cell's words `c` hold every object of `mask` (`all`), or some.
#[inline]
fn holds(mask: &[u64], all: bool, c: &[u64]) -> bool {
    if all {
        mask.iter().zip(c).all(|(m, w)| m & w == *m)
    } else {
        mask.iter().zip(c).any(|(m, w)| m & w != 0)
    }
}

impl Estimate<'_> {
    /// The estimate of the steps from `st` to a win.
    #[cfg(test)]
    fn of(&self, st: &crate::State) -> u32 {
        MARKS.with(|m| self.of_with(st, &mut m.borrow_mut())).0
    }

    /// The frontiers' key of `st`: its estimate, then (when `lead`) the player's lead, packed in
    /// one word (see [`key_of`]).
    fn key(&self, st: &crate::State) -> u32 {
        let (h, lead) = MARKS.with(|m| self.of_with(st, &mut m.borrow_mut()));
        key_of(h, lead)
    }

    /// The estimate, and the player's lead when `lead` (else 0): the fewest columns plus rows
    /// from a player's cell to an object still to be brought onto its place by an `all X on Y`
    /// condition (an X off a Y; where `prune.rs` worked out that the Ys are what moves, a Y off
    /// an X), 0 when there is none or too many pairs to measure.
    fn of_with(&self, st: &crate::State, marks: &mut Marks) -> (u32, u32) {
        let s = st.stride;
        let n = st.width * st.height;
        let cell = |i: usize| &st.cells[i * s..(i + 1) * s];
        // Cell `i` is at column `i / height`, row `i % height`.
        let far = |i: usize, j: usize| {
            ((i / st.height).abs_diff(j / st.height) + (i % st.height).abs_diff(j % st.height)) as u32
        };
        let mut total = 0u32;
        let mut lead = u32::MAX;
        let mut players = std::mem::take(&mut marks.players);
        players.clear();
        // (only where some condition is `all X on Y`: the lead measures nothing else)
        if self.lead && self.game.win_conditions.iter().any(|wc| wc.quantifier == 1) {
            if s == 1 {
                // (one word a cell: a test on words, as the conditions' scan below)
                let pm = self.game.player_mask.first().copied().unwrap_or(0);
                players.extend(
                    st.cells.iter().take(n).enumerate().filter(|&(_, &c)| c & pm != 0).map(|(i, _)| i),
                );
            } else {
                players.extend((0..n).filter(|&i| crate::bits::intersects(&self.game.player_mask, cell(i))));
            }
        }
        for (k, wc) in self.game.win_conditions.iter().enumerate() {
            let x = |i: usize| holds(&wc.mask1, wc.aggregate1, cell(i));
            let y = |i: usize| holds(&wc.mask2, wc.aggregate2, cell(i));
            // One pass over the board: the cells with an X, with a Y, with an X and no Y, and
            // how many have both.
            let Marks { xs, ys, off, assign, loose, free, .. } = marks;
            xs.clear();
            ys.clear();
            off.clear();
            let mut both = 0u32;
            let mut mark = |i: usize, xi: bool, yi: bool| {
                if yi {
                    ys.push(i);
                }
                if xi {
                    xs.push(i);
                    if yi {
                        both += 1;
                    } else {
                        off.push(i);
                    }
                }
            };
            if s == 1 {
                // one word a cell (at most 64 objects): the tests on words
                let word = |m: &[u64]| m.first().copied().unwrap_or(0);
                let (m1, m2) = (word(&wc.mask1), word(&wc.mask2));
                let (all1, all2) = (wc.aggregate1, wc.aggregate2);
                // (a cell with none of the objects has no X and no Y, unless a mask is empty
                // under `all`: most cells, passed over at once)
                let skip = !((all1 && m1 == 0) || (all2 && m2 == 0));
                let any = m1 | m2;
                for (i, &c) in st.cells.iter().take(n).enumerate() {
                    if skip && c & any == 0 {
                        continue;
                    }
                    let xi = if all1 { c & m1 == m1 } else { c & m1 != 0 };
                    let yi = if all2 { c & m2 == m2 } else { c & m2 != 0 };
                    if xi || yi {
                        mark(i, xi, yi);
                    }
                }
            } else {
                // (the same, word by word)
                let empty = |m: &[u64], all: bool| all && m.iter().all(|&w| w == 0);
                let skip = !empty(&wc.mask1, wc.aggregate1) && !empty(&wc.mask2, wc.aggregate2);
                for (i, c) in st.cells.chunks_exact(s.max(1)).take(n).enumerate() {
                    if skip && c.iter().zip(&wc.mask1).zip(&wc.mask2).all(|((w, m1), m2)| w & (m1 | m2) == 0)
                    {
                        continue;
                    }
                    mark(i, holds(&wc.mask1, wc.aggregate1, c), holds(&wc.mask2, wc.aggregate2, c));
                }
            }
            let travel = self.travel.iter().find(|t| t.condition == k);
            if wc.quantifier == 1 && !players.is_empty() {
                // (the objects still to be brought: each X off a Y; where the Ys are what moves,
                // each Y off an X)
                let reversed = travel.is_some_and(|t| t.reversed);
                let movers = if reversed { &ys[..] } else { &off[..] };
                if players.len() * movers.len() <= MAX_PAIRS {
                    for &m in movers.iter().filter(|&&m| !reversed || !x(m)) {
                        lead = players.iter().map(|&p| far(p, m)).fold(lead, u32::min);
                    }
                }
            }
            total = total.saturating_add(match wc.quantifier {
                -1 => both,
                0 if !self.some_distance => u32::from(both == 0),
                // The X nearest a Y: its moves there, or its columns plus rows (at least 1).
                0 => {
                    if both > 0 {
                        0
                    } else {
                        match travel {
                            Some(t) if !t.reversed => xs
                                .iter()
                                .flat_map(|&i| moves_from(t, cell(i), i))
                                .min()
                                .filter(|&m| m != FAR)
                                .unwrap_or(1)
                                .max(1),
                            _ => {
                                if ys.len() > MAX_PAIRS {
                                    1
                                } else {
                                    xs.iter()
                                        .take(MAX_PAIRS / ys.len().max(1))
                                        .flat_map(|&i| ys.iter().map(move |&j| far(i, j)))
                                        .min()
                                        .unwrap_or(1)
                                        .max(1)
                                }
                            }
                        }
                    }
                }
                _ => {
                    // Each X (reversed: each target) counted to its nearest, without pairing.
                    let nearest = |t: Option<&Travel>| match t {
                        // Each X off a Y: its moves to the nearest Y.
                        Some(t) if !t.reversed => off
                            .iter()
                            .map(|&i| moves_from(t, cell(i), i).min().unwrap_or(1))
                            .fold(0u32, u32::saturating_add),
                        // Each X without a Y: the moves of the Y that reaches it in the fewest.
                        Some(t) if !t.per_target.is_empty() => t
                            .per_target
                            .iter()
                            .filter(|(i, _)| x(*i) && !y(*i))
                            .map(|(_, m)| ys.iter().map(|&j| m[j]).min().unwrap_or(1))
                            .fold(0u32, u32::saturating_add),
                        // Each X off a Y: its distance to the nearest Y (at least 1), or 1 when
                        // there is none.
                        _ => off
                            .iter()
                            .map(|&i| ys.iter().map(|&j| far(i, j)).min().unwrap_or(1))
                            .fold(0u32, u32::saturating_add),
                    };
                    match travel {
                        // Each mover off a target its own free target (Sokoban's matching
                        // estimate: two crates cannot end on one target): the fewest moves in
                        // all over the ways to pair them, when one pairs every such mover
                        // (reversed: every target without one).
                        Some(t)
                            if self.matching
                                && !t.per_target.is_empty()
                                && (t.reversed || !off.is_empty()) =>
                        {
                            // (the pairs already made stay: the movers off a target are paired
                            // with the targets free of one, a few of each, not the whole board's)
                            let (rows, cols) = (&mut *loose, &mut *free);
                            rows.clear();
                            cols.clear();
                            let open = |k: usize| {
                                let i = t.per_target[k].0;
                                if t.reversed { !y(i) } else { !x(i) }
                            };
                            if t.reversed {
                                rows.extend((0..t.per_target.len()).filter(|&k| open(k)));
                                cols.extend(ys.iter().copied().filter(|&j| !x(j)));
                            } else {
                                rows.extend(off.iter().copied());
                                cols.extend((0..t.per_target.len()).filter(|&k| open(k)));
                            }
                            let cost = |r: usize, c: usize| {
                                if t.reversed {
                                    t.per_target[rows[r]].1[cols[c]]
                                } else {
                                    t.per_target[cols[c]].1[rows[r]]
                                }
                            };
                            if rows.len() > MAX_PAIRED {
                                nearest(Some(t))
                            } else {
                                least_assignment(rows.len(), cols.len(), &cost, assign)
                                    .unwrap_or_else(|| nearest(Some(t)))
                            }
                        }
                        t => nearest(t),
                    }
                }
            });
        }
        marks.players = players;
        (total, if lead == u32::MAX { 0 } else { lead })
    }
}

/// A frontier's key: estimate `h` in the high half, the player's `lead` in the low (each at
/// most 65,535: an estimate past it, a sum of tens of thousands of moves, ranks with it), so
/// that states of one estimate come in the order of their leads.
fn key_of(h: u32, lead: u32) -> u32 {
    (h.min(0xFFFF) << 16) | lead.min(0xFFFF)
}

/// The estimate a frontier's key holds (see [`key_of`]).
fn estimate_of(key: u32) -> u32 {
    key >> 16
}

/// The moves to the nearest target of each moving-side object on cell `i` (words `c`).
fn moves_from<'t>(t: &'t Travel, c: &'t [u64], i: usize) -> impl Iterator<Item = u32> + 't {
    t.maps.iter().filter(move |(o, _)| crate::bits::get(c, *o)).map(move |(_, m)| m[i])
}

/// How a state was reached: its parent, the command from it, the steps from the start.
#[derive(Clone, Copy)]
struct Link {
    parent: u32,
    cmd: u8,
    depth: u32,
}

/// The states seen: a table of their keys, each state's link back to its parent, and the
/// boards of the states in the frontier (slots reused once expanded).
struct Store {
    /// Words per board.
    len: usize,
    /// Open addressing: the keys (0 empty) and the id of each.
    keys: Vec<u128>,
    ids: Vec<u32>,
    /// Per state: its rest's id, its parent, the command from the parent, its steps from the
    /// start, its frontier slot (`NONE` once expanded).
    rest_of: Vec<u32>,
    parent: Vec<u32>,
    cmd: Vec<u8>,
    depth: Vec<u32>,
    slot: Vec<u32>,
    /// The frontier's boards by slot, each packed as its difference from the start's (see
    /// [`Store::pack`]; a free slot's is empty), the free slots, the words the boards take, and
    /// the most they took at once (what the store counts: so its bytes never go down).
    boards: Vec<Box<[u64]>>,
    free: Vec<u32>,
    board_words: u64,
    most_board_words: u64,
    /// The distinct rests (the state with no board), their ids, and what they take.
    rests: Vec<crate::State>,
    rest_ids: HashMap<crate::State, u32, rustc_hash::FxBuildHasher>,
    rest_bytes: u64,
    /// Per estimate: every object on every cell of the states found with that estimate, a
    /// board's words ORed (width's novelty; at most [`MAX_NOVELTY_BYTES`] of them and of the
    /// pairs below).
    seen: HashMap<u32, Vec<u64>, rustc_hash::FxBuildHasher>,
    /// Width's novelty of pairs: the start's board, and every pair of
    /// objects found together, with an estimate, on cells where the start did not have them
    /// (the estimate, each object's cell and id: 24, 20 and 20 bits).
    start: Vec<u64>,
    pairs: std::collections::HashSet<u64, rustc_hash::FxBuildHasher>,
}

/// The most objects off their start cells a state may have for its pairs to be noted (16 give
/// 120 pairs). On the suite at 10 s, 32 solved 195 levels where 16 solved 194 (3 gained, 2
/// lost, one solved in 0.4 s with 16), and 8 one more than 16 on the 129 levels hard or
/// unsolved: other levels each way, not a better bound.
const MAX_ATOMS: usize = 16;

/// The most bytes [`Store::novelty`] keeps (its boards, and 16 bytes a pair): past them, a state
/// with an estimate not seen yet is not novel, and no pair is noted.
const MAX_NOVELTY_BYTES: u64 = 64 << 20;

/// Bytes per state besides its board: rest id, parent, command, depth, slot.
const PER_STATE: u64 = 4 + 4 + 1 + 4 + 4;
/// Bytes per table slot: key and id.
const PER_SLOT: u64 = 16 + 4;
/// Bytes per frontier slot besides its board's words: the slot's pointer and length, and the
/// allocator's header of the board.
const PER_BOARD: u64 = 16 + 16;
/// A packed board's first word when it lists the words that differ from the start's.
const SPARSE: u64 = 1 << 63;

impl Store {
    fn new(len: usize) -> Store {
        Store {
            start: Vec::new(),
            pairs: Default::default(),
            len,
            keys: vec![0; 64],
            ids: vec![NONE; 64],
            rest_of: Vec::new(),
            parent: Vec::new(),
            cmd: Vec::new(),
            depth: Vec::new(),
            slot: Vec::new(),
            boards: Vec::new(),
            free: Vec::new(),
            board_words: 0,
            most_board_words: 0,
            rests: Vec::new(),
            rest_ids: HashMap::default(),
            rest_bytes: 0,
            seen: HashMap::default(),
        }
    }

    fn count(&self) -> usize {
        self.parent.len()
    }

    /// The bytes the store takes, at the most so far (checked against the budget).
    fn bytes(&self) -> u64 {
        self.count() as u64 * PER_STATE
            + self.keys.len() as u64 * PER_SLOT
            + self.boards.len() as u64 * PER_BOARD
            + self.most_board_words * 8
            + self.free.len() as u64 * 4
            + self.rest_bytes
            + self.novelty_bytes()
    }

    fn novelty_bytes(&self) -> u64 {
        self.seen.len() as u64 * self.len as u64 * 8 + self.pairs.len() as u64 * 16
    }

    /// Width's novelty of a state found with estimate `h` and board `cells` (0 when no order
    /// asks, `width` false): 1 when it has some object on a cell where no state found before
    /// with the same estimate had it; else 2 when it has two objects, each on a cell the start
    /// did not have it on, that no state found before with the same estimate had together
    /// there (BFWS's width 2, over the objects off their start: at most [`MAX_ATOMS`] of them,
    /// so a state moves them, not the board's scenery); else 3. Notes its objects and pairs
    /// for the states after it.
    fn novelty(&mut self, width: bool, h: u32, cells: &[u64]) -> u32 {
        if !width {
            return 0;
        }
        let full = self.novelty_bytes() + self.len as u64 * 8 > MAX_NOVELTY_BYTES;
        let seen = match self.seen.entry(h) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(_) if full => return 3,
            std::collections::hash_map::Entry::Vacant(e) => e.insert(vec![0; cells.len()]),
        };
        let mut novel = false;
        for (s, &c) in seen.iter_mut().zip(cells) {
            novel |= c & !*s != 0;
            *s |= c;
        }
        // (an estimate or an object's cell and id past their bits: no pairs)
        if self.start.len() != cells.len() || h >= 1 << 24 || cells.len() * 64 >= 1 << 20 {
            return if novel { 1 } else { 3 };
        }
        // Width 2: the objects now on cells the start had them not, in pairs.
        // (word by word: an atom is the index of its bit in the board)
        let mut atoms = [0u64; MAX_ATOMS];
        let mut k = 0;
        'words: for (w, (&now, &was)) in cells.iter().zip(&self.start).enumerate() {
            let mut bits = now & !was;
            while bits != 0 {
                if k == MAX_ATOMS {
                    k = usize::MAX;
                    break 'words;
                }
                atoms[k] = (w * 64) as u64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                k += 1;
            }
        }
        let mut novel2 = false;
        if k != usize::MAX && self.novelty_bytes() <= MAX_NOVELTY_BYTES {
            let atoms = &atoms[..k];
            for (a, &x) in atoms.iter().enumerate() {
                for &y in &atoms[a + 1..] {
                    novel2 |= self.pairs.insert(u64::from(h) << 40 | x << 20 | y);
                }
            }
        }
        if novel {
            1
        } else if novel2 {
            2
        } else {
            3
        }
    }

    /// The bytes the store would take after one more state in the frontier (and the table's
    /// growth then).
    fn bytes_after_one_more(&self) -> u64 {
        let grow =
            if (self.count() + 1) * 2 > self.keys.len() { self.keys.len() as u64 * PER_SLOT } else { 0 };
        // (a board packs into at most its words)
        let board = self.len as u64 * 8 + if self.free.is_empty() { PER_BOARD } else { 0 };
        // (width's novelty may note a new estimate's board)
        let novelty = if self.seen.is_empty() { 0 } else { self.len as u64 * 8 };
        self.bytes() + PER_STATE + board + novelty + grow + 512
    }

    /// About the most the store grows by with `states` more states: each at the mean size so
    /// far (at least its board and links), and the table's doublings.
    fn growth(&self, states: u64) -> u64 {
        let count = self.count() as u64;
        let mean = (self.bytes() / count.max(1)).max(PER_STATE + self.len as u64 * 8);
        let mut slots = self.keys.len() as u64;
        while count.saturating_add(states).saturating_mul(2) > slots {
            slots *= 2;
        }
        states.saturating_mul(mean).saturating_add((slots - self.keys.len() as u64) * PER_SLOT)
    }

    /// The id of the rest of `state` (its board ignored).
    fn rest_id(&mut self, state: &crate::State) -> u32 {
        self.rest_id_of(state.without_cells())
    }

    /// The id of `rest`, a state without its board.
    fn rest_id_of(&mut self, rest: crate::State) -> u32 {
        if let Some(&id) = self.rest_ids.get(&rest) {
            return id;
        }
        let id = self.rests.len() as u32;
        self.rest_bytes += (rest.restart_cells.len() * 8 * 2 + rest.movements.len() * 2 + 512) as u64;
        self.rests.push(rest.clone());
        self.rest_ids.insert(rest, id);
        id
    }

    /// The table slot of `key`: whether it holds it (else it is the empty slot it would go to).
    fn find(&self, key: u128) -> (usize, bool) {
        let mask = self.keys.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            match self.keys[i] {
                0 => return (i, false),
                k if k == key => return (i, true),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The start's board word `i` (0 where no start was given).
    fn base(&self, i: usize) -> u64 {
        if self.start.len() == self.len { self.start[i] } else { 0 }
    }

    /// `cells` packed: where few words differ from the start's board (a state's moves change a
    /// few cells of a large board), [`SPARSE`] with their count, their indexes two to a word,
    /// and their differences (a 1,200-cell board with 10 cells changed: 16 words, not 1,200);
    /// else the board's words as they are. A packed board is never longer than the board.
    fn pack(&self, cells: &[u64]) -> Box<[u64]> {
        let differ = cells.iter().enumerate().filter(|&(i, &c)| c != self.base(i)).count();
        let sparse = 1 + differ.div_ceil(2) + differ;
        if sparse >= cells.len() || cells.len() > u32::MAX as usize {
            return cells.into();
        }
        let mut out = vec![0u64; sparse];
        out[0] = SPARSE | differ as u64;
        let (indexes, words) = out[1..].split_at_mut(differ.div_ceil(2));
        let changed = cells.iter().enumerate().filter(|&(i, &c)| c != self.base(i));
        for (k, (i, &c)) in changed.enumerate() {
            indexes[k / 2] |= (i as u64) << (32 * (k % 2));
            words[k] = c ^ self.base(i);
        }
        out.into_boxed_slice()
    }

    /// The board `packed` holds (see [`Store::pack`]), into `cells`.
    fn unpack(&self, packed: &[u64], cells: &mut Vec<u64>) {
        cells.clear();
        if packed.len() == self.len {
            cells.extend_from_slice(packed);
            return;
        }
        cells.extend((0..self.len).map(|i| self.base(i)));
        let differ = (packed[0] & !SPARSE) as usize;
        let (indexes, words) = packed[1..].split_at(differ.div_ceil(2));
        for (k, w) in words.iter().enumerate() {
            cells[(indexes[k / 2] >> (32 * (k % 2))) as u32 as usize] ^= w;
        }
    }

    /// Puts `cells` in a free frontier slot: the slot.
    fn keep_board(&mut self, cells: &[u64]) -> u32 {
        let packed = self.pack(cells);
        self.board_words += packed.len() as u64;
        self.most_board_words = self.most_board_words.max(self.board_words);
        match self.free.pop() {
            Some(slot) => {
                self.boards[slot as usize] = packed;
                slot
            }
            None => {
                self.boards.push(packed);
                (self.boards.len() - 1) as u32
            }
        }
    }

    /// Adds a new state to the frontier (its key not in the table, `at` its empty slot): its id.
    fn add(&mut self, at: usize, key: u128, cells: &[u64], rest: u32, link: Link) -> u32 {
        let id = self.count() as u32;
        let slot = self.keep_board(cells);
        self.rest_of.push(rest);
        self.parent.push(link.parent);
        self.cmd.push(link.cmd);
        self.depth.push(link.depth);
        self.slot.push(slot);
        self.keys[at] = key;
        self.ids[at] = id;
        if self.count() * 2 > self.keys.len() {
            self.grow();
        }
        id
    }

    /// Puts a state seen before back in the frontier, reached now by a shorter path.
    fn reopen(&mut self, id: u32, cells: &[u64], link: Link) {
        let i = id as usize;
        self.parent[i] = link.parent;
        self.cmd[i] = link.cmd;
        self.depth[i] = link.depth;
        if self.slot[i] == NONE {
            self.slot[i] = self.keep_board(cells);
        }
    }

    fn grow(&mut self) {
        let size = self.keys.len() * 2;
        let (keys, ids) = (std::mem::replace(&mut self.keys, vec![0; size]), std::mem::take(&mut self.ids));
        self.ids = vec![NONE; size];
        for (key, id) in keys.into_iter().zip(ids) {
            if key != 0 {
                let (at, _) = self.find(key);
                self.keys[at] = key;
                self.ids[at] = id;
            }
        }
    }

    /// Makes `state` the state `id` (in the frontier), which stays there.
    fn load(&self, id: u32, state: &mut crate::State) {
        let rest = &self.rests[self.rest_of[id as usize] as usize];
        let cells = std::mem::take(&mut state.cells);
        state.clone_from(rest);
        state.cells = cells;
        self.unpack(&self.boards[self.slot[id as usize] as usize], &mut state.cells);
    }

    /// Takes state `id` out of the frontier (it is expanded), its board's slot freed.
    fn release(&mut self, id: u32) {
        let slot = std::mem::replace(&mut self.slot[id as usize], NONE);
        let board = std::mem::take(&mut self.boards[slot as usize]);
        self.board_words -= board.len() as u64;
        self.free.push(slot);
    }

    /// The steps from the start to `id` that drew from the generator.
    fn draws(&self, mut id: u32) -> u64 {
        let mut draws = 0;
        while let Some(&parent) = self.parent.get(id as usize).filter(|&&p| p != NONE) {
            let rng = |i: u32| &self.rests[self.rest_of[i as usize] as usize].rng;
            draws += u64::from(rng(id) != rng(parent));
            id = parent;
        }
        draws
    }

    /// The commands from the start to `id`.
    fn path(&self, mut id: u32, moves: &[Command]) -> Vec<Command> {
        let mut out = Vec::new();
        while self.parent[id as usize] != NONE {
            out.push(moves[usize::from(self.cmd[id as usize])]);
            id = self.parent[id as usize];
        }
        out.reverse();
        out
    }
}

/// States a batch holds per job (see [`solve_parallel`]).
const BATCH_PER_JOB: usize = 16;
/// Expansions kept ahead of their turn, per state of a batch, before they are dropped.
const AHEAD_LIMIT: usize = 64;
/// Whole batches (none cut short) after which the batch's size doubles again, at first; and
/// at most, after batches that grew were cut short again and again.
const GROW_AFTER: usize = 8;
const MAX_GROW_AFTER: usize = 4096;
/// The work, in nanoseconds of one thread's expansions, a batch needs before its states are
/// expanded ahead of their turn on every thread (the states after the first are a guess: a
/// best-first batch is often cut short, its expansions kept for later or dropped). (In the
/// unit tests, a nanosecond: every batch and step after the first goes to the threads, so
/// that the tests that ask for the same answer on any number of jobs try those paths whatever
/// the machine's speed.)
#[cfg(not(test))]
const PARALLEL_WORK_NS: u64 = 300_000;
#[cfg(test)]
const PARALLEL_WORK_NS: u64 = 1;
/// Every this many expansions, a state's steps are played the other way (spread over the
/// threads, or on this one) than the quicker so far, to time that way again: handing steps out
/// and gathering them back costs a few microseconds, which levels whose turns are cheap (6 to
/// 10 µs a state) do not win back. (Where spreading is the slower, 8 times as far apart: the
/// helpers then mostly sleep rather than spin, leaving the core to others.)
const SPREAD_PROBE: u64 = 32;

/// What one step from a state reached.
enum Reached {
    /// Nothing: the step passed the work bound.
    TooLong,
    /// Nothing: the step drew from the generator (not followed).
    Random,
    /// A win: whether the step drew from the generator.
    Won { drew: bool },
    /// A state: whether the step drew from the generator; its board; its rest (the state
    /// without its board) when that differs from its parent's; whether it is dead and its
    /// estimate, when worked out already.
    State { drew: bool, cells: Vec<u64>, rest: Option<Box<crate::State>>, dead: Option<bool>, h: Option<u32> },
}

/// One step tried from a state: the index of its command, what it reached.
struct Tried {
    cmd: u8,
    what: Reached,
}

/// A thread's buffers for expanding states.
struct Worker {
    ws: crate::Workspace,
    here: crate::State,
    next: crate::State,
}

impl Worker {
    fn new(start: &crate::State) -> Worker {
        Worker { ws: crate::Workspace::default(), here: start.clone(), next: start.clone() }
    }
}

/// Expands states: every step from them, as the search plays them.
struct Expander<'a> {
    game: &'a Game,
    moves: &'a [Command],
    work_limit: u64,
    idle_action: bool,
    /// Whether steps that draw from the generator are followed (else left out).
    follow_random: bool,
    /// Every step is played with the generator it starts from (its draws only paint scenery).
    keep_rng: bool,
    /// The checks of each state reached, when worked out here: the pruning, the estimate,
    /// whether each applies.
    checks: Option<(&'a Pruning, &'a Estimate<'a>, bool, bool)>,
}

impl Expander<'_> {
    /// Whether `action` is left out from `here`: it changes nothing in this game and nothing
    /// waits to move (it would find the state itself, stored already).
    fn skips_action(&self, here: &crate::State) -> bool {
        self.idle_action
            && !here.text_mode
            && here.movements.iter().all(|&m| m == 0)
            && !self.game.is_won(here)
    }

    /// The steps from state `id` of `store`, in the order of the moves (an idle `action` left
    /// out), with the checks of each state reached when `checks`; `None` when `halt` said so
    /// before a step (asked before every step but the first).
    fn expand(
        &self,
        store: &Store,
        id: u32,
        w: &mut Worker,
        checks: bool,
        halt: &mut dyn FnMut() -> bool,
    ) -> Option<Vec<Tried>> {
        store.load(id, &mut w.here);
        let skip_action = self.skips_action(&w.here);
        let mut out = Vec::with_capacity(self.moves.len());
        for (k, &cmd) in self.moves.iter().enumerate() {
            if cmd == Command::Action && skip_action {
                continue;
            }
            // Before every step (issue 37.5: one check in 256 expansions let `--seconds 2` run
            // 19 to 34 s on large levels).
            if k > 0 && halt() {
                return None;
            }
            out.push(self.try_step(&w.here, k, &mut w.ws, &mut w.next, checks));
        }
        Some(out)
    }

    /// Plays move `k` from `here` (in `next`, with `ws`): what it reached, with the checks of
    /// the state reached when `checks`.
    fn try_step(
        &self,
        here: &crate::State,
        k: usize,
        ws: &mut crate::Workspace,
        next: &mut crate::State,
        checks: bool,
    ) -> Tried {
        let game = self.game;
        next.clone_from(here);
        let outcome = step(game, ws, next, input(self.moves[k]), self.work_limit);
        // (a step whose every draw had one choice did the same whatever the generator
        // held: where steps that draw are left out, it is played with the generator it
        // starts from, as a step that does not draw; followed, it keeps its draws, as the
        // game would go on from them)
        let forced = outcome.is_some_and(|o| !o.free_draw) && !self.follow_random;
        if self.keep_rng || forced {
            next.rng.clone_from(&here.rng);
        }
        let drew = outcome.is_some() && next.rng != here.rng;
        let what = match outcome.map(|o| o.won) {
            None => Reached::TooLong,
            Some(_) if drew && !self.follow_random => Reached::Random,
            Some(true) => Reached::Won { drew },
            Some(false) => {
                // (the generator too: a step that drew leads to a state with its own)
                let same_rest = !drew
                    && next.restart_cells == here.restart_cells
                    && next.movements == here.movements
                    && next.text_mode == here.text_mode
                    && next.title_screen == here.title_screen
                    && next.level == here.level;
                let (dead, h) = match self.checks.filter(|_| checks) {
                    Some((pruning, estimate, prunes, estimates)) => {
                        (Some(prunes && pruning.is_dead(game, next)), estimates.then(|| estimate.key(next)))
                    }
                    None => (None, None),
                };
                Reached::State {
                    drew,
                    cells: next.cells.clone(),
                    rest: (!same_rest).then(|| Box::new(next.without_cells())),
                    dead,
                    h,
                }
            }
        };
        Tried { cmd: k as u8, what }
    }
}

/// The threads that expand states beside the search's own (`--jobs`): they live as long as a
/// [`Searcher::run`], wait for work spinning a while (then asleep), and take the steps of a
/// batch of states one at a time, so that one state's steps spread over the threads too.
/// Which thread plays a step never changes what it reaches.
struct Pool<'scope> {
    shared: &'scope Shared,
    expander: &'scope Expander<'scope>,
    helpers: Vec<std::thread::ScopedJoinHandle<'scope, ()>>,
}

/// Expanded states: each one's id and what its steps reached, `None` when cut short.
type Expanded = Vec<(u32, Option<Vec<Tried>>)>;

/// A step to play: its state's index in [`Task::states`], its move's index.
type Item = (u32, u8);

/// One batch's states and steps, which the search's thread writes and the helpers read.
#[derive(Default)]
struct Task {
    /// The states of the batch (buffers kept from task to task: the first as many as its ids
    /// are this task's).
    states: Vec<crate::State>,
    items: Vec<Item>,
}

/// What the search's thread shares with the helpers. No thread waits on a lock: the task is
/// written only once every step of the last one is played (the helpers give their reading of
/// it up before they say so), and read only once published.
#[derive(Default)]
struct Shared {
    task: std::sync::RwLock<Task>,
    /// The last task published: a helper works when it differs from the last it took.
    round: std::sync::atomic::AtomicU64,
    /// The task's next item to take, and how many of its items the helpers have finished
    /// (played, or left when halted); set back with the task, under its write lock.
    next: std::sync::atomic::AtomicUsize,
    done: std::sync::atomic::AtomicUsize,
    /// What the helpers' items reached, by item index.
    results: std::sync::Mutex<Vec<(usize, Tried)>>,
    /// The search's `stop` said so: the items left are not played.
    halt: std::sync::atomic::AtomicBool,
    quit: std::sync::atomic::AtomicBool,
}

/// Spins (a fraction of a millisecond) before a waiting helper sleeps, woken by the next task.
const SPINS_BEFORE_SLEEP: u32 = 1 << 14;

impl Shared {
    /// Takes `task`'s items until none is left (or halted): what they reached, and how many
    /// were taken. `stop` is asked before each (the search's thread), else the halt flag.
    fn take(
        &self,
        task: &Task,
        expander: &Expander,
        w: &mut Worker,
        stop: &mut dyn FnMut() -> bool,
    ) -> (Vec<(usize, Tried)>, usize) {
        use std::sync::atomic::Ordering;
        let mut mine = Vec::new();
        let mut taken = 0;
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(s, k)) = task.items.get(i) else { break };
            taken += 1;
            if self.halt.load(Ordering::Relaxed) {
                continue;
            }
            if stop() {
                self.halt.store(true, Ordering::Relaxed);
                continue;
            }
            let here = &task.states[s as usize];
            mine.push((i, expander.try_step(here, usize::from(k), &mut w.ws, &mut w.next, true)));
        }
        (mine, taken)
    }

    /// A helper's life: each task published, worked, until told to quit.
    fn help(&self, expander: &Expander, w: &mut Worker) {
        use std::sync::atomic::Ordering;
        let (mut seen, mut idle) = (0, 0u32);
        while !self.quit.load(Ordering::Acquire) {
            if self.round.load(Ordering::Acquire) == seen {
                idle = idle.saturating_add(1);
                if idle < SPINS_BEFORE_SLEEP {
                    std::hint::spin_loop();
                } else {
                    std::thread::park_timeout(std::time::Duration::from_millis(5));
                }
                continue;
            }
            // (never waits on the lock: the search's thread might be writing the next task)
            let Ok(task) = self.task.try_read() else {
                std::hint::spin_loop();
                continue;
            };
            idle = 0;
            // (the task read may be a later one than `seen` names: then this helper comes back
            // for it and finds its steps taken)
            seen = self.round.load(Ordering::Acquire);
            let (mine, taken) = self.take(&task, expander, w, &mut || false);
            drop(task);
            if taken > 0 {
                self.results.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(mine);
                self.done.fetch_add(taken, Ordering::Release);
            }
        }
    }
}

impl<'scope> Pool<'scope> {
    /// Starts a helper on each of `workers` in `scope`.
    fn start<'env>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        shared: &'env Shared,
        expander: &'env Expander<'env>,
        workers: &'env mut [Worker],
    ) -> Pool<'scope> {
        let helpers = workers.iter_mut().map(|w| scope.spawn(move || shared.help(expander, w))).collect();
        Pool { shared, expander, helpers }
    }

    /// The expansions of `ids` of `store` (see [`Expander::expand`], checks made), their steps
    /// spread over this thread (`w`) and the helpers, in the order of `ids`; `None` for those
    /// `stop` (asked before every step this thread plays) cut short.
    fn expand_all(
        &self,
        store: &Store,
        ids: &[u32],
        w: &mut Worker,
        stop: &mut dyn FnMut() -> bool,
    ) -> Expanded {
        use std::sync::PoisonError;
        use std::sync::atomic::Ordering;
        let (shared, expander) = (self.shared, self.expander);
        // (a helper late for the last task may still be reading it, for a moment)
        let mut guard = loop {
            match shared.task.try_write() {
                Ok(g) => break g,
                Err(std::sync::TryLockError::Poisoned(e)) => break e.into_inner(),
                Err(std::sync::TryLockError::WouldBlock) => std::hint::spin_loop(),
            }
        };
        let task = &mut *guard;
        task.items.clear();
        for (i, &id) in ids.iter().enumerate() {
            if task.states.len() <= i {
                task.states.push(w.here.clone());
            }
            store.load(id, &mut task.states[i]);
            let skip_action = expander.skips_action(&task.states[i]);
            for (k, &cmd) in expander.moves.iter().enumerate() {
                if !(cmd == Command::Action && skip_action) {
                    task.items.push((i as u32, k as u8));
                }
            }
        }
        shared.next.store(0, Ordering::Relaxed);
        shared.done.store(0, Ordering::Relaxed);
        shared.results.lock().unwrap_or_else(PoisonError::into_inner).clear();
        shared.halt.store(false, Ordering::Relaxed);
        drop(guard);
        shared.round.fetch_add(1, Ordering::Release);
        for h in &self.helpers {
            h.thread().unpark();
        }
        let task = shared.task.read().unwrap_or_else(PoisonError::into_inner);
        let (mut results, taken) = shared.take(&task, expander, w, stop);
        while shared.done.load(Ordering::Acquire) + taken < task.items.len() {
            // (a helper that panicked would leave its step undone: the scope passes its panic on)
            assert!(!self.helpers.iter().any(|h| h.is_finished()), "a search thread stopped");
            std::hint::spin_loop();
        }
        results.append(&mut shared.results.lock().unwrap_or_else(PoisonError::into_inner));
        results.sort_unstable_by_key(|&(i, _)| i);
        let mut out: Expanded = ids.iter().map(|&id| (id, Some(Vec::new()))).collect();
        let mut played = results.into_iter().peekable();
        for (i, &(s, _)) in task.items.iter().enumerate() {
            let slot = &mut out[s as usize].1;
            match played.next_if(|&(j, _)| j == i) {
                Some((_, tried)) => {
                    if let Some(v) = slot {
                        v.push(tried);
                    }
                }
                None => *slot = None,
            }
        }
        out
    }
}

impl Drop for Pool<'_> {
    fn drop(&mut self) {
        self.shared.quit.store(true, std::sync::atomic::Ordering::Release);
        for h in &self.helpers {
            h.thread().unpark();
        }
    }
}

/// A best-first frontier entry: (priority, estimate, order found (or its complement: newest
/// first), id, steps), the least first.
type Entry = Reverse<(u32, u32, u64, u32, u32)>;

/// One best-first order's entries, the least first: a bucket queue, the entries of one
/// (priority, estimate) in a queue sorted by the rest (the order found, then id and steps), the
/// buckets in a map sorted by their keys. It gives the entries in exactly the order a binary
/// heap of [`Entry`] would (they are all distinct: each push has its own order), in constant
/// time a push or pop but for the map's few buckets, where a heap of a million entries sifts
/// through twenty levels of cache misses. A push is nearly always at a queue's end (the order
/// found grows; newest first, its complement shrinks); an entry put back (a batch cut short)
/// goes where it belongs.
#[derive(Default)]
struct Buckets {
    buckets: BTreeMap<(u32, u32), Bucket>,
    /// Emptied queues, kept for the next bucket opened (a bucket of greedy's least estimate
    /// empties and fills again often).
    spare: Vec<Bucket>,
}

/// The entries of one (priority, estimate): (order found or its complement, id, steps), sorted.
type Bucket = VecDeque<(u64, u32, u32)>;

impl Buckets {
    fn push(&mut self, Reverse((priority, h, tie, id, depth)): Entry) {
        let spare = &mut self.spare;
        let q = self.buckets.entry((priority, h)).or_insert_with(|| spare.pop().unwrap_or_default());
        let item = (tie, id, depth);
        match (q.front(), q.back()) {
            (_, None) => q.push_back(item),
            (_, Some(back)) if *back < item => q.push_back(item),
            (Some(front), _) if item < *front => q.push_front(item),
            _ => {
                let at = q.partition_point(|x| *x < item);
                q.insert(at, item);
            }
        }
    }

    /// Takes the least entry.
    fn pop(&mut self) -> Option<Entry> {
        let mut first = self.buckets.first_entry()?;
        let (priority, h) = *first.key();
        let (tie, id, depth) = first.get_mut().pop_front()?;
        if first.get().is_empty() {
            self.spare.push(first.remove());
        }
        Some(Reverse((priority, h, tie, id, depth)))
    }

    /// The least entry.
    fn peek(&self) -> Option<Entry> {
        let (&(priority, h), q) = self.buckets.first_key_value()?;
        let &(tie, id, depth) = q.front()?;
        Some(Reverse((priority, h, tie, id, depth)))
    }
}

/// The states waiting to be expanded.
enum Frontier {
    /// Breadth-first: ids in the order found.
    Fifo(VecDeque<u32>),
    /// Best-first: one heap (a bucket queue, [`Buckets`]) of [`Entry`] per order (one, or
    /// [`Search::Mixed`]'s four), each holding every state waiting; the next state comes from the heap `turns[turn]` names,
    /// and `turn` moves on to the next after each. An entry whose steps are no longer the
    /// state's, or whose state was expanded since, is stale and skipped.
    Heaps { heaps: Vec<Buckets>, turns: &'static [usize], turn: usize, boost: Boost },
}

/// Mixed's boost: the heap whose expansion found a state of a smaller estimate than any found
/// before takes the next turns (as planners boost the queue that made progress).
#[derive(Clone, Copy, Debug)]
struct Boost {
    /// The heap boosted, and the turns it has left.
    heap: usize,
    left: u32,
    /// The least estimate pushed so far (`u32::MAX`: none yet).
    best: u32,
}

impl Default for Boost {
    fn default() -> Self {
        Boost { heap: 0, left: 0, best: u32::MAX }
    }
}

/// Where a batch's best-first state came from: the heap of turn `t`, or (`boosted`) the heap
/// boosted, the turn not moved on.
#[derive(Clone, Copy, Debug)]
struct Pick {
    t: usize,
    heap: usize,
    boosted: bool,
}

impl Frontier {
    /// The bytes its entries take at most after `pushes` states pushed (best-first: every push
    /// puts an entry in each heap, which stays there until it comes to the top, so the pushes
    /// bound them) out of `states` found (breadth-first: one id each, at most). Counted from
    /// what the search's order fixes, not from the heaps' allocations, which differ with the
    /// number of jobs (batches are taken out and put back), so that the budget ends a search
    /// at the same state on any number of jobs.
    fn bytes(&self, pushes: u64, states: u64) -> u64 {
        let entries = match self {
            Frontier::Fifo(_) => states,
            Frontier::Heaps { .. } => pushes,
        };
        entries.saturating_mul(self.per_state())
    }

    /// Its bytes for each state found (pushed).
    fn per_state(&self) -> u64 {
        match self {
            Frontier::Fifo(_) => 4,
            Frontier::Heaps { heaps, .. } => heaps.len() as u64 * size_of::<Entry>() as u64,
        }
    }
}

/// How a best-first heap ranks the states waiting (see [`Search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// Steps so far plus the estimate; ties by the smaller estimate, the smaller lead, then
    /// the oldest.
    AStar,
    /// The estimate; ties by the smaller lead, then oldest first, or newest first.
    Greedy { newest: bool },
    /// Novel states first (see [`Store::novelty`]), then by the estimate, then the oldest.
    Width,
}

impl Order {
    /// Whether the order takes the boost when its state finds a smaller estimate than any
    /// before ([`Aids::boost`]): greedy's and width's; not A*'s, which has the first turn (the
    /// start's children make the first such find on nearly every level) and weighs the steps
    /// so far as much as the estimate. (On the suite's 86 levels out of time at 10 s, boosting
    /// every order solved 1, all but A* 2; Oh no I accidentally swallowed myself 1: 19,635
    /// states with A* boosted, 5,857 without.)
    fn takes_boost(self) -> bool {
        self != Order::AStar
    }
}

/// [`Search::Mixed`]'s orders, one heap each.
const MIXED_ORDERS: [Order; 4] =
    [Order::AStar, Order::Greedy { newest: false }, Order::Greedy { newest: true }, Order::Width];

/// The heap [`Search::Mixed`] takes each expansion from, in turn (indexes into
/// [`MIXED_ORDERS`]): width every other expansion, A* and greedy's two a sixth each. (On the
/// suite's 89 levels the three others left unsolved at 10 s, width alone solved 11, and a
/// fourth turn each 8 of them; every other turn 9, losing one of the 174 the three solved.)
pub const MIXED_TURNS: [usize; 6] = [0, 3, 1, 3, 2, 3];

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

/// The expansions each of [`solve_aided`]'s two searches makes before the other takes its
/// turn, once both run.
const SLICE: u64 = 1024;

/// A search's running counts.
#[derive(Clone, Copy)]
struct Counts {
    /// States expanded.
    nodes: u64,
    /// Steps that drew from the generator (left out, or followed).
    random: u64,
    /// Steps left out: past the work bound.
    too_long: u64,
    /// States found dead, not stored.
    pruned: u64,
    /// States found so far (best-first's ties).
    order: u64,
    /// The batch's size now, the whole batches since it changed, and how many it waits for
    /// before it grows (see `run`).
    batch_size: usize,
    whole: usize,
    grow_after: usize,
    /// The mean time of one state's expansion on one thread (nanoseconds, a running mean of the
    /// last few): whether a batch is worth spreading over threads. (The clock decides only
    /// where states are expanded, never which: the answer stays the same.)
    mean_ns: u64,
    /// The mean time (the same kind of running mean) of one state's expansion its turn came
    /// to, its steps spread over the threads: the state's steps are spread while that is the
    /// quicker (tried again now and then, see [`SPREAD_PROBE`]).
    spread_ns: u64,
}

/// One search of [`solve_aided`], steps that draw from the generator followed or left out: it
/// runs until it ends or has expanded a given number of states, and goes on from there when
/// run again.
struct Searcher<'a> {
    game: &'a Game,
    moves: &'static [Command],
    search: Search,
    /// Each heap's order (see `new`).
    orders: &'static [Order],
    jobs: usize,
    follow_random: bool,
    /// States are keyed by their look (`scenery.rs`) when set; the buffer it is made in.
    look: Option<&'a Scenery>,
    look_cells: Vec<u64>,
    /// `look` takes the generator for scenery: every step is played with the start's.
    keep_rng: bool,
    /// `action` changes nothing in this game (see `Game::action_is_idle`): not played.
    idle_action: bool,
    work_limit: u64,
    store: Store,
    pruning: Pruning,
    prunes: bool,
    travel: Vec<Travel>,
    some_distance: bool,
    matching: bool,
    lead: bool,
    /// The turns a boost gives (0: none; see [`Aids::boost`]).
    boost_turns: u32,
    frontier: Frontier,
    workers: Vec<Worker>,
    /// A state's board, for the checks the merge makes (its other fields are the start's).
    view: crate::State,
    /// Expansions worked out ahead of their turn (best-first: a state found in a batch came
    /// before the rest of it), by state id.
    ahead: HashMap<u32, Vec<Tried>>,
    /// (id, and for best-first where it came from and its entry)
    batch: Vec<(u32, Option<(Pick, Entry)>)>,
    /// Entries taken out of a heap while the batch was filled because their state was in the
    /// batch already (mixed: the heaps' tops are often one state): the batch slot being filled,
    /// the heap, the entry. Put back with the slots they were taken for, when those wait.
    doubles: Vec<(usize, usize, Entry)>,
    k: Counts,
    /// The answer when known before the first expansion (the start won, or dead).
    early: Option<SolveOutcome>,
}

/// Adds state `id` to `frontier`, found `order`-th, `depth` steps from the start, estimated
/// `h` from a win, `novel` (1) or not (2) (see [`Store::novelty`]): in each heap by its order.
/// Whether its estimate is less than any pushed before it (the search's progress).
fn push(
    frontier: &mut Frontier,
    order: &mut u64,
    orders: &[Order],
    id: u32,
    depth: u32,
    h: u32,
    novel: u32,
) -> bool {
    match frontier {
        Frontier::Fifo(q) => {
            q.push_back(id);
            false
        }
        Frontier::Heaps { heaps, boost, .. } => {
            *order += 1;
            for (heap, o) in heaps.iter_mut().zip(orders) {
                // (`h` is the frontier's key: the estimate, then the player's lead, which width's
                // order leaves out: its novelty leads it already)
                let (priority, h, tie) = match *o {
                    Order::AStar => (depth.saturating_add(estimate_of(h)), h, *order),
                    Order::Greedy { newest: false } => (h, h, *order),
                    Order::Greedy { newest: true } => (h, h, u64::MAX - *order),
                    Order::Width => (novel, key_of(estimate_of(h), 0), *order),
                };
                heap.push(Reverse((priority, h, tie, id, depth)));
            }
            let progress = boost.best != u32::MAX && estimate_of(h) < boost.best;
            boost.best = boost.best.min(estimate_of(h));
            progress
        }
    }
}

/// The turns a boost gives the heap that made progress ([`Aids::boost`]).
pub const BOOST_TURNS: u32 = 1024;

/// Gives `heap` the next `turns` turns (mixed only: one heap has every turn already).
fn start_boost(frontier: &mut Frontier, heap: usize, turns: u32) {
    if let Frontier::Heaps { turns: order, boost, .. } = frontier
        && order.len() > 1
        && turns > 0
    {
        (boost.heap, boost.left) = (heap, turns);
    }
}

/// Puts back in their heaps the [`Searcher`]'s `doubles` taken while filling batch slots `from`
/// on (which wait, put back with [`put_back`]).
fn put_back_doubles(frontier: &mut Frontier, doubles: &[(usize, usize, Entry)], from: usize) {
    if let Frontier::Heaps { heaps, .. } = frontier {
        for &(slot, heap, e) in doubles {
            if slot >= from {
                heaps[heap].push(e);
            }
        }
    }
}

/// Puts states taken for a batch back in their places, waiting their turn: at the queue's
/// front, or in their heaps, the next turn the first one's (as one thread would take them).
fn put_back(frontier: &mut Frontier, rest: &[(u32, Option<(Pick, Entry)>)]) {
    match frontier {
        Frontier::Fifo(q) => {
            for &(id, _) in rest.iter().rev() {
                q.push_front(id);
            }
        }
        Frontier::Heaps { heaps, turn, boost, .. } => {
            for &(_, e) in rest {
                if let Some((pick, e)) = e {
                    heaps[pick.heap].push(e);
                    // (a boosted turn given back; the boost's turns come before the others)
                    boost.left += u32::from(pick.boosted);
                }
            }
            if let Some(pick) = rest.iter().find_map(|&(_, e)| e.map(|(p, _)| p).filter(|p| !p.boosted)) {
                *turn = pick.t;
            }
        }
    }
}

impl<'a> Searcher<'a> {
    fn new(
        puzzle: Puzzle<'a>,
        search: Search,
        aids: Aids,
        jobs: usize,
        follow_random: bool,
        look: Option<&'a Scenery>,
    ) -> Searcher<'a> {
        // (the rules that only paint are not played where states are known by their look;
        // the pruning reads the whole game)
        let whole = puzzle.game;
        let game = look.and_then(|l| l.played.as_deref()).unwrap_or(whole);
        let work_limit = puzzle.work_limit;
        let start = puzzle.start;
        let mut pruning = Pruning::of(whole, start);
        let travel = if aids.travel_estimate { pruning.travel().to_vec() } else { Vec::new() };
        if !aids.travel_pruning {
            pruning.forget_travel();
        }
        if !aids.freeze {
            pruning.forget_freeze();
        }
        // Each heap's order, and the heap each expansion takes from in turn. Greedy's two tie
        // orders find different levels' solutions (on the suite, 3 levels each that the other
        // did not within 10 s): mixed runs both, and width's.
        let (orders, turns): (&'static [Order], &'static [usize]) = match search {
            Search::Bfs => (&[], &[]),
            Search::AStar => (&[Order::AStar], &[0]),
            Search::Greedy => (&[Order::Greedy { newest: false }], &[0]),
            Search::Width => (&[Order::Width], &[0]),
            Search::Mixed => (&MIXED_ORDERS, &MIXED_TURNS),
        };
        let width = orders.contains(&Order::Width);
        let jobs = jobs.max(1);
        let most = if jobs > 1 { BATCH_PER_JOB * jobs } else { 1 };
        let mut me = Searcher {
            game,
            moves: moves(game),
            search,
            orders,
            jobs,
            follow_random,
            look,
            look_cells: Vec::new(),
            keep_rng: look.is_some_and(|l| l.random_is_scenery),
            idle_action: aids.idle_action && game.action_is_idle(start.width, start.height, work_limit),
            work_limit,
            store: Store { start: start.cells.clone(), ..Store::new(start.cells.len()) },
            prunes: pruning.checks_states(),
            pruning,
            travel,
            some_distance: aids.some_distance,
            matching: aids.matching,
            lead: aids.lead,
            boost_turns: if aids.boost { BOOST_TURNS } else { 0 },
            frontier: match search {
                Search::Bfs => Frontier::Fifo(VecDeque::new()),
                _ => Frontier::Heaps {
                    heaps: orders.iter().map(|_| Buckets::default()).collect(),
                    turns,
                    turn: 0,
                    boost: Boost::default(),
                },
            },
            workers: (0..jobs).map(|_| Worker::new(start)).collect(),
            view: start.clone(),
            ahead: HashMap::new(),
            batch: Vec::new(),
            doubles: Vec::new(),
            k: Counts {
                nodes: 0,
                random: 0,
                too_long: 0,
                pruned: 0,
                order: 0,
                batch_size: most,
                whole: 0,
                grow_after: GROW_AFTER,
                mean_ns: 0,
                spread_ns: 0,
            },
            early: None,
        };
        if puzzle.won {
            me.early = Some(SolveOutcome::Solved(Vec::new()));
        } else if me.pruning.start_is_dead(game, start) {
            me.early = Some(SolveOutcome::Unsolvable);
        } else {
            let rest = me.store.rest_id(start);
            let seen = seen_as(look, &start.cells, &mut me.look_cells);
            let key = state_key(seen, rest);
            let (at, _) = me.store.find(key);
            let root = me.store.add(at, key, &start.cells, rest, Link { parent: NONE, cmd: 0, depth: 0 });
            let h = Estimate {
                game,
                travel: &me.travel,
                some_distance: me.some_distance,
                matching: me.matching,
                lead: me.lead,
            }
            .key(start);
            let novel = me.store.novelty(width, estimate_of(h), seen);
            push(&mut me.frontier, &mut me.k.order, orders, root, 0, h, novel);
        }
        me
    }

    /// The bytes it takes: its store's and its frontier's entries'.
    fn bytes(&self) -> u64 {
        self.store.bytes().saturating_add(self.frontier.bytes(self.k.order, self.store.count() as u64))
    }

    /// About the most it grows by with `states` more states (see [`Store::growth`]).
    fn growth(&self, states: u64) -> u64 {
        self.store.growth(states).saturating_add(states.saturating_mul(self.frontier.per_state()))
    }

    /// What the search has done, ended with `outcome`.
    fn report(&self, outcome: SolveOutcome, draws: u64) -> SolveReport {
        SolveReport {
            outcome,
            nodes: self.k.nodes,
            states: self.store.count() as u64,
            bytes: self.bytes(),
            pruned: self.k.pruned,
            draws,
        }
    }

    /// Runs the search until it ends (its report), or (`None`) until it has expanded
    /// `pause_at` states; within `max_nodes` expansions and `max_bytes` of stored states,
    /// calling `stop` before every step.
    fn run(
        &mut self,
        pause_at: u64,
        max_nodes: u64,
        max_bytes: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<SolveReport> {
        if let Some(outcome) = self.early.take() {
            return Some(self.report(outcome, 0));
        }
        let (outcome, draws) = self.run_until(pause_at, max_nodes, max_bytes, stop)?;
        Some(self.report(outcome, draws))
    }

    /// [`Searcher::run`]'s loop: the outcome and the solution's steps that drew.
    fn run_until(
        &mut self,
        pause_at: u64,
        max_nodes: u64,
        max_bytes: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<(SolveOutcome, u64)> {
        let Searcher {
            game,
            moves,
            search,
            orders,
            jobs,
            follow_random,
            look,
            look_cells,
            keep_rng,
            idle_action,
            work_limit,
            store,
            pruning,
            prunes,
            travel,
            some_distance,
            matching,
            lead,
            boost_turns,
            frontier,
            workers,
            view,
            ahead,
            batch,
            doubles,
            k,
            early: _,
        } = self;
        let (game, moves, search, orders, jobs, prunes) = (*game, *moves, *search, *orders, *jobs, *prunes);
        let width = orders.contains(&Order::Width);
        let estimate =
            Estimate { game, travel, some_distance: *some_distance, matching: *matching, lead: *lead };
        let expander = Expander {
            game,
            moves,
            work_limit: *work_limit,
            idle_action: *idle_action,
            follow_random: *follow_random,
            keep_rng: *keep_rng,
            // Several threads work out the checks of the states they reach; one leaves them to
            // the merge, which needs them for new states only.
            checks: (jobs > 1).then_some((&*pruning, &estimate, prunes, search != Search::Bfs)),
        };
        // The batch's size adapts: a best-first batch is cut short where a state found
        // meanwhile comes first (in greedy's order, nearly always the next state's own
        // children), and then its threads mostly expand states that wait; the size falls to
        // what was taken and grows back (doubling) after `grow_after` whole batches; a batch
        // that grew and was cut short again makes the next growth wait twice as long. (Any
        // size takes the states in one thread's order: the same answer.)
        let most = if jobs > 1 { BATCH_PER_JOB * jobs } else { 1 };
        let shared = Shared::default();
        // (never `None`: a search has one worker at least)
        let Some((mine, theirs)) = workers.split_first_mut() else {
            return Some((SolveOutcome::Stopped, 0));
        };
        let expander = &expander;
        std::thread::scope(|scope| {
            let pool = (jobs > 1).then(|| Pool::start(scope, &shared, expander, theirs));
            let pool = pool.as_ref();
            loop {
                // The states the search expands next, as far as known now: the queue's first ones,
                // or the heap's least (each still to be checked, in turn, against what the ones
                // before it add).
                batch.clear();
                doubles.clear();
                // (one state when the batch would stay on this thread: taking more out of the
                // heaps only to put them back costs time)
                let fill = if jobs > 1 && (k.batch_size as u64).saturating_mul(k.mean_ns) >= PARALLEL_WORK_NS
                {
                    k.batch_size
                } else {
                    1
                };
                while batch.len() < fill {
                    let head = match &mut *frontier {
                        Frontier::Fifo(q) => q.pop_front().map(|id| (id, None)),
                        Frontier::Heaps { heaps, turns, turn, boost } => {
                            let t = *turn;
                            let boosted = boost.left > 0;
                            let pick = Pick { t, heap: if boosted { boost.heap } else { turns[t] }, boosted };
                            let heap = &mut heaps[pick.heap];
                            let next = loop {
                                match heap.pop() {
                                    Some(Reverse((_, _, _, id, depth)))
                                        if store.depth[id as usize] != depth => {}
                                    Some(Reverse((_, _, _, id, _))) if store.slot[id as usize] == NONE => {}
                                    // A state the batch holds already: once the batch has taken it,
                                    // one thread would find this entry stale and skip it, as here;
                                    // it goes back if the batch is cut before this slot.
                                    Some(e) if batch.iter().any(|&(id, _)| id == e.0.3) => {
                                        doubles.push((batch.len(), pick.heap, e));
                                    }
                                    other => break other.map(|e| (e.0.3, Some((pick, e)))),
                                }
                            };
                            // (when this heap has nothing left, the turn stays its: the states the
                            // batch holds may add some)
                            if next.is_some() {
                                if boosted {
                                    boost.left -= 1;
                                } else {
                                    *turn = (t + 1) % turns.len();
                                }
                            }
                            next
                        }
                    };
                    match head {
                        Some(h) => batch.push(h),
                        None => break,
                    }
                }
                if batch.is_empty() {
                    break;
                }
                // Expand them (on every job), then take them in order as the search would, one at
                // a time: the same states, steps and answer whatever the number of jobs.
                // (a batch of cheap turns is left to this thread, one state at a time)
                if jobs > 1 && (batch.len() as u64).saturating_mul(k.mean_ns) >= PARALLEL_WORK_NS {
                    let budget = usize::try_from(max_nodes.saturating_sub(k.nodes)).unwrap_or(usize::MAX);
                    let todo: Vec<u32> = batch
                        .iter()
                        .take(budget.max(1))
                        .map(|&(id, _)| id)
                        .filter(|id| !ahead.contains_key(id))
                        .collect();
                    let clock = std::time::Instant::now();
                    let expanded = expand_batch(pool, expander, store, &todo, mine, &mut *stop);
                    if !expanded.is_empty() {
                        let per_state = clock.elapsed().as_nanos() * jobs as u128 / expanded.len() as u128;
                        k.mean_ns = (k.mean_ns * 7 + u64::try_from(per_state).unwrap_or(u64::MAX / 8)) / 8;
                    }
                    for (id, tried) in expanded {
                        if let Some(tried) = tried {
                            ahead.insert(id, tried);
                        }
                    }
                }
                // (how many of the batch were taken before it was cut short)
                let mut taken = batch.len();
                // (the heap whose state just expanded found a state of a smaller estimate than
                // any before: boosted once the states taken after it are put back)
                let mut boost_to = None;
                for i in 0..batch.len() {
                    let (head, entry) = batch[i];
                    if let Some(heap) = boost_to.take() {
                        // (the rest of the batch was taken in the turns' order: it waits)
                        put_back(frontier, &batch[i..]);
                        put_back_doubles(frontier, doubles, i);
                        start_boost(frontier, heap, *boost_turns);
                        taken = i;
                        break;
                    }
                    if let Some((pick, entry)) = entry
                        && i > 0
                        && let Frontier::Heaps { heaps, .. } = &mut *frontier
                    {
                        let stale =
                            store.depth[head as usize] != entry.0.4 || store.slot[head as usize] == NONE;
                        if stale && heaps.len() == 1 {
                            continue;
                        }
                        // A state found since that comes first, or (heaps in turns) a stale one,
                        // which one thread would have skipped for the next of the same heap: the
                        // rest of the batch waits its turn.
                        if stale || heaps[pick.heap].peek().is_some_and(|top| top > entry) {
                            put_back(frontier, &batch[i..]);
                            put_back_doubles(frontier, doubles, i);
                            taken = i;
                            break;
                        }
                    }
                    if k.nodes >= pause_at {
                        // (the rest of the batch waits for the next run, in its place)
                        put_back(frontier, &batch[i..]);
                        put_back_doubles(frontier, doubles, i);
                        return None;
                    }
                    if k.nodes >= max_nodes || stop() {
                        return Some((SolveOutcome::Stopped, 0));
                    }
                    let tried = match ahead.remove(&head) {
                        Some(t) => t,
                        None => {
                            let clock = std::time::Instant::now();
                            // (its steps spread over the threads while that is the quicker; in
                            // the unit tests, always, so that they try that path)
                            let quicker = cfg!(test) || k.spread_ns < k.mean_ns;
                            let probe =
                                k.nodes.is_multiple_of(if quicker { SPREAD_PROBE } else { SPREAD_PROBE * 8 });
                            let spread = pool.filter(|_| quicker != probe);
                            let tried =
                                expand_batch(spread, expander, store, &[head], mine, &mut *stop).pop();
                            let took = u64::try_from(clock.elapsed().as_nanos()).unwrap_or(u64::MAX / 8);
                            let mean = if spread.is_some() { &mut k.spread_ns } else { &mut k.mean_ns };
                            *mean = (*mean * 7 + took) / 8;
                            match tried.and_then(|(_, t)| t) {
                                Some(t) => t,
                                None => {
                                    k.nodes += 1;
                                    return Some((SolveOutcome::Stopped, 0));
                                }
                            }
                        }
                    };
                    store.release(head);
                    // (the heap it came from, which a boost would name when its order takes one)
                    let from =
                        batch[i].1.map(|(pick, _)| pick.heap).filter(|&heap| orders[heap].takes_boost());
                    let depth = store.depth[head as usize] + 1;
                    let parent_rest = store.rest_of[head as usize];
                    k.nodes += 1;
                    for t in tried {
                        let (cmd, cells, rest_state, dead, h) = match t.what {
                            Reached::TooLong => {
                                k.too_long += 1;
                                continue;
                            }
                            Reached::Random => {
                                k.random += 1;
                                continue;
                            }
                            Reached::Won { drew } => {
                                let mut path = store.path(head, moves);
                                path.push(moves[usize::from(t.cmd)]);
                                let draws = store.draws(head) + u64::from(drew);
                                return Some((SolveOutcome::Solved(path), draws));
                            }
                            Reached::State { drew, cells, rest, dead, h } => {
                                k.random += u64::from(drew);
                                (t.cmd, cells, rest, dead, h)
                            }
                        };
                        let rest = match rest_state {
                            None => parent_rest,
                            Some(st) => store.rest_id_of(*st),
                        };
                        let seen = seen_as(*look, &cells, look_cells);
                        let key = state_key(seen, rest);
                        let (at, found) = store.find(key);
                        let mut in_view = |cells: &Vec<u64>, f: &mut dyn FnMut(&crate::State) -> u32| {
                            view.cells.clone_from(cells);
                            f(view)
                        };
                        if !found && prunes {
                            let dead = dead.unwrap_or_else(|| {
                                in_view(&cells, &mut |v| u32::from(pruning.is_dead(game, v))) == 1
                            });
                            if dead {
                                // (not stored: a dead state found again is tested again)
                                k.pruned += 1;
                                continue;
                            }
                        }
                        let link = Link { parent: head, cmd, depth };
                        if found {
                            // Breadth-first finds every state first by a shortest path; best-first
                            // may not.
                            let id = store.ids[at];
                            if search != Search::Bfs && depth < store.depth[id as usize] {
                                store.reopen(id, &cells, link);
                                let h = h.unwrap_or_else(|| in_view(&cells, &mut |v| estimate.key(v)));
                                let novel = store.novelty(width, estimate_of(h), seen);
                                if push(frontier, &mut k.order, orders, id, depth, h, novel) {
                                    boost_to = from;
                                }
                            }
                            continue;
                        }
                        let entries = frontier.bytes(k.order + 1, store.count() as u64 + 1);
                        if store.bytes_after_one_more().saturating_add(entries) > max_bytes
                            || store.count() >= MAX_STATES
                        {
                            return Some((SolveOutcome::Memory, 0));
                        }
                        let id = store.add(at, key, &cells, rest, link);
                        let h = if search == Search::Bfs {
                            0
                        } else {
                            h.unwrap_or_else(|| in_view(&cells, &mut |v| estimate.key(v)))
                        };
                        let novel = store.novelty(width, estimate_of(h), seen);
                        if push(frontier, &mut k.order, orders, id, depth, h, novel) {
                            boost_to = from;
                        }
                    }
                }
                if let Some(heap) = boost_to {
                    start_boost(frontier, heap, *boost_turns);
                }
                if taken < batch.len() {
                    if taken <= 1 && batch.len() > 1 {
                        k.grow_after = (k.grow_after * 2).min(MAX_GROW_AFTER);
                    }
                    (k.batch_size, k.whole) = (taken.max(1), 0);
                } else {
                    k.whole += 1;
                    if batch.len() > 1 {
                        k.grow_after = GROW_AFTER;
                    }
                    if k.whole >= k.grow_after {
                        (k.batch_size, k.whole) = ((k.batch_size * 2).min(most), 0);
                    }
                }
                if ahead.len() > AHEAD_LIMIT * most {
                    ahead.clear();
                }
            }
            // Steps left out (past the work bound) make "no solution" no proof; steps that drew make
            // it this seed's.
            let outcome = if k.too_long > 0 {
                SolveOutcome::TooLong { steps: k.too_long }
            } else if k.random > 0 {
                SolveOutcome::Random { steps: k.random, followed: *follow_random }
            } else {
                SolveOutcome::Unsolvable
            };
            Some((outcome, 0))
        })
    }
}

/// The expansions of `ids` of `store`, in their order: on `pool`'s threads and this one (`w`)
/// when there is a pool, else on this thread alone, its checks left to the merge (which makes
/// them for new states only); `None` for those `stop` cut short.
fn expand_batch(
    pool: Option<&Pool>,
    expander: &Expander,
    store: &Store,
    ids: &[u32],
    w: &mut Worker,
    stop: &mut dyn FnMut() -> bool,
) -> Expanded {
    if let Some(pool) = pool {
        return pool.expand_all(store, ids, w, stop);
    }
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        let tried = expander.expand(store, id, w, false, stop);
        let halted = tried.is_none();
        out.push((id, tried));
        if halted {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = include_str!("../../../fixtures/games/warehouse.txt");

    use crate::testkit::{Played, Rules, Status, start_of};

    fn solve(rules: &Rules, s: &Played, limits: SolveLimits, stop: &mut dyn FnMut() -> bool) -> SolveReport {
        super::solve(rules.puzzle(s), limits, stop)
    }

    fn solve_with(
        rules: &Rules,
        s: &Played,
        limits: SolveLimits,
        search: Search,
        stop: &mut dyn FnMut() -> bool,
    ) -> SolveReport {
        super::solve_with(rules.puzzle(s), limits, search, stop)
    }

    fn solve_parallel(
        rules: &Rules,
        s: &Played,
        limits: SolveLimits,
        search: Search,
        jobs: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> SolveReport {
        super::solve_parallel(rules.puzzle(s), limits, search, jobs, stop)
    }

    fn solve_aided(
        rules: &Rules,
        s: &Played,
        limits: SolveLimits,
        search: Search,
        aids: Aids,
        jobs: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> SolveReport {
        super::solve_aided(rules.puzzle(s), limits, search, aids, jobs, stop)
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

    /// The fewest steps that win, by brute force over every sequence of `len` moves.
    fn any_wins_in(source: &str, n: usize, len: u32) -> bool {
        any_wins_in_seeded(source, n, 0, len)
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

    #[test]
    fn the_fixture_levels_are_solved_in_the_fewest_steps_from_any_seed() {
        for n in 0..3 {
            let commands = solved(GAME, n);
            assert!(!commands.is_empty());
            for seed in [0, 7, 12345] {
                assert!(wins(GAME, n, seed, &commands), "level {n} seed {seed}: {commands:?}");
            }
            // No shorter sequence of moves wins (the action key only lights a spark).
            if commands.len() <= 7 {
                assert!(!any_wins_in(GAME, n, commands.len() as u32 - 1), "level {n}: a shorter solution");
            }
        }
        assert_eq!(solved(GAME, 0).len(), 2, "right, right");
    }

    #[test]
    fn a_level_with_no_solution_is_proved_unsolvable() {
        // The crate is in a corner, off the target.
        let source = GAME.replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#");
        let (rules, s) = start_of(&source, 0, 0);
        let noaction = source.replace("homepage example.invalid", "homepage example.invalid\nnoaction");
        // The crate can never leave its corner: proved from the start, whatever the action key
        // draws.
        let report = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!((report.outcome, report.nodes), (SolveOutcome::Unsolvable, 0));
        // Without that proof the search goes everywhere; the action key draws a spark's place:
        // left out, so not proved. Followed, every press is a new state (the generator is part
        // of it): that search gives up on its budget, and the first one's answer stands.
        let limits = SolveLimits { max_nodes: 3_000, ..SolveLimits::default() };
        let report = solve_aided(&rules, &s, limits, Search::Bfs, no_travel(), 1, &mut || false);
        assert!(matches!(report.outcome, SolveOutcome::Random { followed: false, .. }), "{report:?}");
        assert_eq!(report.nodes, 3_000, "the budget is both searches'");
        let (rules, s) = start_of(&noaction, 0, 0);
        let report =
            solve_aided(&rules, &s, SolveLimits::default(), Search::Bfs, no_travel(), 1, &mut || false);
        assert_eq!(report.outcome, SolveOutcome::Unsolvable);
        assert!(report.states > 1 && report.nodes == report.states);
    }

    /// Every aid but the checks of where objects can travel.
    fn no_travel() -> Aids {
        Aids { travel_pruning: false, travel_estimate: false, ..Aids::default() }
    }

    /// A die on the way to the goal turns into a gem (eaten: the way is open) or a rock (the way
    /// is shut) as the generator draws.
    const DIE: &str = "title die\nnoaction\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\n\
        Die\nblue\n\nGem\nyellow\n\nRock\nbrown\n\nGoal\ngreen\n\nLEGEND\n\n. = Background\n# = Wall\n\
        P = Player\nD = Die\nG = Goal\nFace = Gem or Rock\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nGoal\n\
        Player, Wall, Die, Gem, Rock\n\nRULES\n\n[ > Player | Die ] -> [ > Player | random Face ]\n\
        [ > Player | Gem ] -> [ > Player | ]\n\nWINCONDITIONS\n\nsome Player on Goal\n\nLEVELS\n\n\
        #######\n#P.D.G#\n#######\n";

    /// [`DIE`] with a room of crates beside the way to the goal (through the die).
    fn die_room() -> String {
        DIE.replace("Rock\nbrown\n\n", "Rock\nbrown\n\nCrate\norange\n\n")
            .replace("G = Goal\n", "G = Goal\nC = Crate\n")
            .replace("Die, Gem, Rock", "Die, Gem, Rock, Crate")
            .replace("RULES\n\n", "RULES\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n")
            .replace(
                "#######\n#P.D.G#\n#######\n",
                "###########\n#......####\n#.C.C.C####\n#......####\n#.C.C.CP.DG\n###########\n",
            )
    }

    /// [`die_room`] and the report of its first search alone (breadth-first, draws left out, no
    /// budget): it ends with no solution without the die.
    fn die_room_first_alone() -> (String, SolveReport) {
        let game = die_room();
        let (rules, s) = start_of(&game, 0, 0);
        let mut first = Searcher::new(rules.puzzle(&s), Search::Bfs, Aids::default(), 1, false, None);
        let alone = first.run(u64::MAX, u64::MAX, u64::MAX, &mut || false).unwrap();
        (game, alone)
    }

    #[test]
    fn the_search_that_follows_draws_takes_turns_with_the_one_that_leaves_them_out() {
        // The room keeps the search that leaves the die out busy for thousands of states: it
        // ends (no solution without the die) only after them.
        let (game, alone) = die_room_first_alone();
        assert!(matches!(alone.outcome, SolveOutcome::Random { followed: false, .. }), "{alone:?}");
        let budget = 4 * SLICE;
        assert!(alone.nodes > 2 * budget, "{alone:?}");
        // With the way through the die, the search that follows draws takes its turns once the
        // first meets the die, and solves the level (for a seed whose die gives a gem) well
        // within a budget the first alone would have spent before ending: searched one after
        // the other, the answer would be "gave up".
        let (mut solved, mut other) = (0, 0);
        for seed in 0..8 {
            let (rules, s) = start_of(&game, 0, seed);
            let limits = SolveLimits { max_nodes: budget, ..SolveLimits::default() };
            for search in [Search::Bfs, Search::Mixed] {
                for jobs in [1, 2] {
                    let r = solve_parallel(&rules, &s, limits, search, jobs, &mut || false);
                    assert!(r.nodes <= budget, "seed {seed}: {r:?}");
                    match &r.outcome {
                        SolveOutcome::Solved(c) => {
                            solved += 1;
                            assert!(r.draws >= 1 && wins(&game, 0, seed, c), "seed {seed}: {r:?}");
                        }
                        // (a rock: the room is all there is, and more than the budget)
                        SolveOutcome::Stopped => other += 1,
                        o => panic!("seed {seed} {search:?} {jobs} jobs: {o:?}"),
                    }
                }
            }
        }
        assert!(solved > 0 && other > 0, "{solved} solved, {other} gave up");
    }

    #[test]
    fn the_search_that_follows_draws_gives_way_when_memory_runs_short() {
        // A memory budget the first search needs nearly all of: the second (whose states are
        // the first's and more) gives way, and the first's answer stands: never "out of
        // memory" for the search that fits.
        let (game, alone) = die_room_first_alone();
        let mut outcomes = Vec::new();
        for (seed, sixteenths) in (0..8).flat_map(|seed| [17, 20, 24, 32, 48].map(|x| (seed, x))) {
            let limits = SolveLimits { max_bytes: alone.bytes * sixteenths / 16, ..SolveLimits::default() };
            let (rules, s) = start_of(&game, 0, seed);
            let r = solve_parallel(&rules, &s, limits, Search::Bfs, 1, &mut || false);
            assert!(r.bytes <= limits.max_bytes, "seed {seed}, {sixteenths}/16: {r:?}");
            match &r.outcome {
                SolveOutcome::Solved(c) => assert!(wins(&game, 0, seed, c), "seed {seed}"),
                SolveOutcome::Random { followed: false, .. } => {}
                o => panic!("seed {seed}, {sixteenths}/16 of the memory: {o:?} ({r:?})"),
            }
            outcomes.push(r.outcome);
        }
        assert!(outcomes.iter().any(|o| matches!(o, SolveOutcome::Random { .. })), "{outcomes:?}");
    }

    #[test]
    fn a_game_that_moves_at_random_is_solved_for_its_seed() {
        // Every move goes a random way: no solution draws nothing, so the search follows the
        // draws, each as the state's generator plays it.
        let source = GAME.replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ > Player ] -> [ randomdir Player ]\n[ > Player | Crate ] -> [ > Player | > Crate ]",
        );
        for seed in [0, 1, 7] {
            let (rules, s) = start_of(&source, 0, seed);
            for jobs in [1, 3] {
                let r = solve_parallel(&rules, &s, SolveLimits::default(), Search::Bfs, jobs, &mut || false);
                let SolveOutcome::Solved(solution) = &r.outcome else { panic!("seed {seed}: {r:?}") };
                assert!(r.draws > 0 && r.draws <= solution.len() as u64, "seed {seed}: {r:?}");
                assert!(wins(&source, 0, seed, solution), "seed {seed}: the solution wins with its seed");
                // the fewest steps for this seed: no shorter sequence wins with it
                let shorter = (1..solution.len() as u32).any(|len| any_wins_in_seeded(&source, 0, seed, len));
                assert!(!shorter, "seed {seed}: {solution:?}");
            }
        }
        // A budget too small for the second search: the first one's answer.
        let (rules, s) = start_of(&source, 0, 0);
        let limits = SolveLimits { max_nodes: 3, ..SolveLimits::default() };
        let report = solve(&rules, &s, limits, &mut || false);
        assert!(
            matches!(report.outcome, SolveOutcome::Random { steps, followed: false } if steps >= 4),
            "{report:?}"
        );
        // A game that draws nothing gives solutions with no draws.
        let (rules, s) = start_of(GAME, 0, 0);
        assert_eq!(solve(&rules, &s, SolveLimits::default(), &mut || false).draws, 0);
    }

    /// A realtime game whose crate only the clock moves: a tick moves it right (the player,
    /// moving, is never stationary), and the player must first walk out of its way.

    /// Every state the steps reach from level `n` of `source` (no step that draws), by an exact
    /// set of whole engine states.
    fn reachable(source: &str, n: usize) -> usize {
        let (rules, s) = start_of(source, n, 0);
        let game = rules.game();
        let mut seen = std::collections::HashSet::new();
        let mut queue = VecDeque::from([s.engine().clone()]);
        seen.insert(s.engine().clone());
        while let Some(here) = queue.pop_front() {
            for &cmd in moves(game) {
                // Each step by the engine's plain turns (not the search's quiet ones).
                let mut next = here.clone();
                let mut turns = 0;
                let mut again = game.turn(&mut next, input(cmd), None).again;
                while again && !game.is_won(&next) && turns < MAX_TURNS {
                    again = game.turn(&mut next, None, None).again;
                    turns += 1;
                }
                if next.rng == here.rng && seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            }
        }
        seen.len()
    }

    /// Level 2 of the fixture game with its targets walled off: no solution, a few thousand
    /// states.
    fn walled() -> String {
        GAME.replace("#.*..O.#\n#.P**OO#", "#.*..#O#\n#.P**#O#")
            .replace("homepage example.invalid", "homepage example.invalid\nnoaction")
    }

    #[test]
    fn the_hashed_states_are_exactly_the_states_reached() {
        let source = walled();
        let exact = reachable(&source, 1);
        assert!(exact > 1_000, "{exact} states");
        let (rules, s) = start_of(&source, 1, 0);
        for search in Search::ALL {
            let r = solve_aided(&rules, &s, SolveLimits::default(), search, no_travel(), 1, &mut || false);
            assert_eq!(r.outcome, SolveOutcome::Unsolvable, "{search}");
            assert_eq!(r.states as usize, exact, "{search}: one stored state per distinct state");
            // Where crates can travel proves it at once: the targets' column can only be
            // entered up or down, with a pusher standing in the wall.
            let r = solve_with(&rules, &s, SolveLimits::default(), search, &mut || false);
            assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0), "{search}");
        }
        // A state costs its links and key, not its board: a long room with a target and a crate
        // stuck against its end stores its states in less than their boards would take.
        let room = format!("#*P{}O#", ".".repeat(58));
        let big = GAME.replace(
            "#######\n#.....#\n#.P*.O#\n#.....#\n#######",
            &format!("{}\n{room}\n{}", "#".repeat(63), "#".repeat(63)),
        );
        let (rules, s) = start_of(&big, 0, 0);
        // (the first search's states: the second, following the action key's draws, stops on
        // the budget)
        let limits = SolveLimits { max_nodes: 1_000, ..SolveLimits::default() };
        let r = solve_aided(&rules, &s, limits, Search::Bfs, no_travel(), 1, &mut || false);
        assert!(matches!(r.outcome, SolveOutcome::Random { followed: false, .. }), "{r:?}");
        let board = s.engine().cells.len() as u64 * 8;
        assert!(r.states > 50 && r.bytes < r.states * board, "{r:?}: boards of {board} bytes");
    }

    #[test]
    fn best_first_finds_short_solutions_in_fewer_states_and_bfs_the_fewest_steps() {
        for n in 0..3 {
            let (rules, s) = start_of(GAME, n, 0);
            let bfs = solve_with(&rules, &s, SolveLimits::default(), Search::Bfs, &mut || false);
            let SolveOutcome::Solved(fewest) = &bfs.outcome else { panic!("{bfs:?}") };
            for search in [Search::AStar, Search::Greedy, Search::Mixed, Search::Width] {
                let r = solve_with(&rules, &s, SolveLimits::default(), search, &mut || false);
                let SolveOutcome::Solved(c) = &r.outcome else { panic!("{search} level {n}: {r:?}") };
                assert!(c.len() >= fewest.len(), "{search} level {n}");
                for seed in [0, 99] {
                    assert!(wins(GAME, n, seed, c), "{search} level {n}: {c:?}");
                }
                assert!(r.nodes <= bfs.nodes, "{search} level {n}: {} against {}", r.nodes, bfs.nodes);
            }
        }
        // Level 2: A* finds the fewest steps here, in half the states.
        let (rules, s) = start_of(GAME, 1, 0);
        let bfs = solve_with(&rules, &s, SolveLimits::default(), Search::Bfs, &mut || false);
        let astar = solve_with(&rules, &s, SolveLimits::default(), Search::AStar, &mut || false);
        let steps = |r: &SolveReport| match &r.outcome {
            SolveOutcome::Solved(c) => c.len(),
            other => panic!("{other:?}"),
        };
        assert_eq!(steps(&astar), steps(&bfs), "the fewest steps");
        let greedy = solve_with(&rules, &s, SolveLimits::default(), Search::Greedy, &mut || false);
        // 3,048 states expanded breadth-first, 2,552 by A*, greedy fewer (a longer solution);
        // without the checks of where crates can travel, 34,842 and 15,457.
        assert!(astar.nodes < bfs.nodes, "{} against {}", astar.nodes, bfs.nodes);
        assert!(greedy.nodes < astar.nodes, "{} against {}", greedy.nodes, astar.nodes);
        // The searches name themselves.
        for search in Search::ALL {
            assert_eq!(Search::from_name(search.name()), Some(search));
        }
        assert_eq!(Search::from_name("dfs"), None);
    }

    #[test]
    fn every_search_answers_the_same_on_any_number_of_jobs() {
        // Solved levels, and one proved unsolvable after thousands of states (every batch taken
        // back and forth between the heaps of the mixed search).
        // (the walled level's with the pruning off: with it, the start is proved dead)
        let walled = walled();
        let unpruned = Aids { travel_pruning: false, freeze: false, ..Aids::default() };
        let cases = [(GAME, 0, Aids::default()), (GAME, 1, Aids::default()), (GAME, 2, Aids::default())];
        for (source, n, aids) in cases.into_iter().chain([(walled.as_str(), 1, unpruned)]) {
            let (rules, s) = start_of(source, n, 0);
            for search in Search::ALL {
                let solve =
                    |jobs| solve_aided(&rules, &s, SolveLimits::default(), search, aids, jobs, &mut || false);
                let one = solve(1);
                if source == walled {
                    assert!(
                        one.outcome == SolveOutcome::Unsolvable && one.nodes > 1_000,
                        "{search}: {one:?}"
                    );
                }
                for jobs in [2, 3] {
                    assert_eq!(solve(jobs), one, "{search} level {n}, {jobs} jobs");
                }
            }
        }
        // The mixed search takes A*'s and greedy's states in turns: between the two in states.
        let (rules, s) = start_of(GAME, 1, 0);
        let nodes = |search| solve_with(&rules, &s, SolveLimits::default(), search, &mut || false).nodes;
        let (astar, greedy, mixed) = (nodes(Search::AStar), nodes(Search::Greedy), nodes(Search::Mixed));
        assert!(greedy < mixed && mixed < astar, "greedy {greedy}, mixed {mixed}, A* {astar}");
    }

    #[test]
    fn the_estimate_is_the_distances_of_the_cells_that_break_a_win_condition() {
        // Each target without a crate counts the columns and rows to the nearest crate.
        for (n, want) in [(0, 2), (1, 5), (2, 3)] {
            let (rules, s) = start_of(GAME, n, 0);
            assert_eq!(
                Estimate { game: rules.game(), travel: &[], some_distance: true, matching: true, lead: true }
                    .of(s.engine()),
                want,
                "level {n}"
            );
        }
        let some = GAME.replace("All Target on Crate", "Some Crate on Target\nNo Player on Target");
        let (rules, s) = start_of(&some, 2, 0);
        assert_eq!(
            Estimate { game: rules.game(), travel: &[], some_distance: true, matching: true, lead: true }
                .of(s.engine()),
            2,
            "no crate on a target (the nearest 1 from one), the player on one"
        );
        // The same with more than 64 objects (two words a cell, not one): the same counts.
        let fillers: Vec<String> = (0..70).map(|k| format!("Filler{k}")).collect();
        let wide = |source: &str| {
            let objects: String = fillers.iter().map(|f| format!("{f}\nblack\n\n")).collect();
            source.replacen("Background\n", &format!("{objects}Background\n"), 1).replacen(
                "COLLISIONLAYERS\n================\n\n",
                &format!("COLLISIONLAYERS\n================\n\n{}\n", fillers.join(", ")),
                1,
            )
        };
        for (source, n, want) in
            [(wide(GAME), 0, 2), (wide(GAME), 1, 5), (wide(GAME), 2, 3), (wide(&some), 2, 2)]
        {
            let (rules, s) = start_of(&source, n, 0);
            assert_eq!(rules.game().stride, 2, "two words a cell");
            assert_eq!(
                Estimate { game: rules.game(), travel: &[], some_distance: true, matching: true, lead: true }
                    .of(s.engine()),
                want,
                "level {n}, 70 more objects"
            );
        }
    }

    /// [`GAME`] up to its levels, for a test's own level.
    fn game_head() -> &'static str {
        &GAME[..GAME.find("LEVELS\n=======\n").expect("levels") + "LEVELS\n=======\n".len()]
    }

    /// Two targets beside one crate and a second crate far right, the player in `player_row`.
    fn two_targets(player_row: &str) -> String {
        format!("{}\n############\n{player_row}\n#.O*O....*.#\n#..........#\n############\n", game_head())
    }

    /// Among states of one estimate, those whose player is nearer an object still to be
    /// brought onto its place come first: the player 3 columns and rows from the nearer crate
    /// off a target, or 2, the estimate the same.
    #[test]
    fn the_lead_orders_states_of_one_estimate_by_the_players_distance_to_a_crate_to_place() {
        let keys = |player_row: &str, lead: bool| {
            let (rules, s) = start_of(&two_targets(player_row), 0, 0);
            let game = rules.game();
            let pruning = Pruning::of(game, s.engine());
            let estimate =
                Estimate { game, travel: pruning.travel(), some_distance: true, matching: true, lead };
            (estimate.of(s.engine()), estimate.key(s.engine()))
        };
        let (h_left, left) = keys("#P.........#", true);
        let (h_right, right) = keys("#.........P#", true);
        assert_eq!((h_left, h_right), (6, 6), "the estimate does not see the player");
        assert_eq!((left, right), (key_of(6, 3), key_of(6, 2)));
        assert!(right < left, "the nearer player first");
        assert_eq!(estimate_of(left), 6);
        assert_eq!(keys("#P.........#", false), (6, key_of(6, 0)), "no lead: the estimate alone");
        // (an estimate past the key's half ranks with it)
        assert_eq!(estimate_of(key_of(70_000, 1)), 0xFFFF);
    }

    /// A crate one push from its target, across a room from the player: every state of the
    /// walk there has the same estimate, and greedy takes them oldest first (the whole room,
    /// breadth-first) unless the player's lead takes it straight to the crate.
    #[test]
    fn the_lead_takes_greedy_straight_to_the_crate() {
        let room = "##############\n#P...........#\n#............#\n#............#\n#............#\n#..........*O#\n##############\n";
        let (rules, s) = start_of(&format!("{}\n{room}", game_head()), 0, 0);
        let solve = |lead| {
            let aids = Aids { lead, ..Aids::default() };
            solve_aided(&rules, &s, SolveLimits::default(), Search::Greedy, aids, 1, &mut || false)
        };
        let (with, without) = (solve(true), solve(false));
        for r in [&with, &without] {
            let SolveOutcome::Solved(c) = &r.outcome else { panic!("{r:?}") };
            assert_eq!(c.len(), 14, "13 steps to the crate, one push");
        }
        assert!(
            with.nodes * 3 < without.nodes,
            "{} states with the lead, {} without",
            with.nodes,
            without.nodes
        );
    }

    /// A crate pushed 14 cells across a room, the player beside it: the start's first expansion (A*'s
    /// turn) finds the push, a smaller estimate than any before, but A* takes no boost; width's
    /// state, the next, finds the next push, and width's heap takes the next turns (the turns'
    /// order does not move on); without the boost the turns go round.
    #[test]
    fn the_boost_gives_the_order_that_made_progress_the_next_turns() {
        let (wall, floor) = ("#".repeat(20), format!("#{}#", ".".repeat(18)));
        let room = format!("{wall}\n{floor}\n#.P*{}O.#\n{floor}\n{wall}\n", ".".repeat(13));
        let (rules, s) = start_of(&format!("{}\n{room}", game_head()), 0, 0);
        let after = |boost: bool, states: u64| {
            let aids = Aids { boost, ..Aids::default() };
            let mut me = Searcher::new(rules.puzzle(&s), Search::Mixed, aids, 1, false, None);
            assert_eq!(me.run(states, u64::MAX, u64::MAX, &mut || false), None, "paused");
            let Frontier::Heaps { turn, boost, .. } = me.frontier else { panic!("mixed has heaps") };
            (turn, boost.heap, boost.left > 0)
        };
        let width = MIXED_ORDERS.iter().position(|&o| o == Order::Width).expect("mixed has width");
        assert_eq!(MIXED_TURNS[..2], [0, width], "A*'s turn, then width's");
        assert_eq!(after(true, 1), (1, 0, false), "A* (turn 0) not boosted, the turn moved on once");
        assert_eq!(after(true, 2), (2, width, true), "width (turn 1) boosted, the turn moved on once");
        assert_eq!(after(true, 12), (2, width, true), "ten more states, all width's");
        assert_eq!(after(false, 2), (2, 0, false));
        assert_eq!(after(false, 12), (12 % MIXED_TURNS.len(), 0, false), "the turns go round");
        // Solved either way, the same length; with the boost in no more states.
        let solve = |boost| {
            let aids = Aids { boost, ..Aids::default() };
            solve_aided(&rules, &s, SolveLimits::default(), Search::Mixed, aids, 1, &mut || false)
        };
        let (with, without) = (solve(true), solve(false));
        let steps = |r: &SolveReport| match &r.outcome {
            SolveOutcome::Solved(c) => c.len(),
            o => panic!("{o:?}"),
        };
        assert_eq!((steps(&with), steps(&without)), (14, 14), "14 pushes right");
        assert!(with.nodes <= without.nodes, "{} with the boost, {} without", with.nodes, without.nodes);
    }

    /// Two targets beside one crate: each target's nearest crate is that one (2 moves in
    /// all), where two crates cannot both end on it: giving each target its own crate counts
    /// the far crate's 5 pushes too (6). A* then solves it with fewer states.
    #[test]
    fn all_x_on_y_gives_each_target_its_own_crate() {
        let source = two_targets("#P.........#");
        let (rules, s) = start_of(&source, 0, 0);
        let game = rules.game();
        let pruning = Pruning::of(game, s.engine());
        let estimate =
            |matching| Estimate { game, travel: pruning.travel(), some_distance: true, matching, lead: true };
        assert_eq!(estimate(false).of(s.engine()), 2, "each target's nearest crate");
        assert_eq!(estimate(true).of(s.engine()), 6, "each target its own crate");
        // A crate already on a target stays paired with it: the same 6 (moved off its target, it
        // would reach the free one 3 pushes away: 4).
        let room = "#..........#\n#....@.....#\n#..........#\n############";
        let made = source.replace("#..........#\n############", room);
        let (rules_made, s_made) = start_of(&made, 0, 0);
        let pruning_made = Pruning::of(rules_made.game(), s_made.engine());
        let travel = pruning_made.travel();
        let made_estimate = |matching| {
            Estimate { game: rules_made.game(), travel, some_distance: true, matching, lead: true }
                .of(s_made.engine())
        };
        assert_eq!((made_estimate(false), made_estimate(true)), (2, 6), "a pair made stays");
        let with = |matching| {
            let aids = Aids { matching, ..Aids::default() };
            solve_aided(&rules, &s, SolveLimits::default(), Search::AStar, aids, 1, &mut || false)
        };
        let (own, nearest) = (with(true), with(false));
        for r in [&own, &nearest] {
            assert!(matches!(&r.outcome, SolveOutcome::Solved(p) if wins(&source, 0, 0, p)), "{r:?}");
        }
        assert!(
            own.nodes < nearest.nodes,
            "{} states with a crate each, {} without",
            own.nodes,
            nearest.nodes
        );
    }

    proptest::proptest! {
        /// The least assignment is the least over every way to give each row its own column
        /// (brute force), `None` exactly when each way uses a pair that cannot be made.
        #[test]
        fn the_least_assignment_is_the_least_of_every_way(
            rows in 0usize..5,
            extra in 0usize..3,
            costs in proptest::collection::vec(proptest::prop_oneof![4 => 0u32..30, 1 => proptest::strategy::Just(FAR)], 36),
        ) {
            let cols = rows + extra;
            let cost = |r: usize, c: usize| costs[r * 6 + c];
            // Every injective map of rows to columns, by recursion.
            fn best(r: usize, rows: usize, cols: usize, used: &mut Vec<bool>, cost: &dyn Fn(usize, usize) -> u32) -> Option<u32> {
                if r == rows {
                    return Some(0);
                }
                let mut least: Option<u32> = None;
                for c in 0..cols {
                    if used[c] || cost(r, c) == FAR {
                        continue;
                    }
                    used[c] = true;
                    if let Some(rest) = best(r + 1, rows, cols, used, cost) {
                        let total = rest + cost(r, c);
                        least = Some(least.map_or(total, |l| l.min(total)));
                    }
                    used[c] = false;
                }
                least
            }
            let want = best(0, rows, cols, &mut vec![false; cols], &cost);
            let mut buffers = Assignment::default();
            proptest::prop_assert_eq!(least_assignment(rows, cols, &cost, &mut buffers), want);
            // (the buffers, reused, give the same)
            proptest::prop_assert_eq!(least_assignment(rows, cols, &cost, &mut buffers), want);
            proptest::prop_assert_eq!(least_assignment(cols + 1, cols, &cost, &mut buffers), None);
        }
    }

    /// Width's novelty: a board is novel when some object is on a cell where no board noted
    /// before with the same estimate had it; estimates are kept apart; nothing is noted when
    /// no order asks.
    #[test]
    fn a_state_is_novel_when_an_object_is_where_none_was_at_its_estimate() {
        let mut store = Store::new(3);
        assert_eq!(store.novelty(false, 5, &[1, 0, 0]), 0, "no width order: not asked");
        assert_eq!(store.bytes(), Store::new(3).bytes(), "and nothing noted");
        assert_eq!(store.novelty(true, 5, &[1, 0, 0]), 1, "the first board");
        assert_eq!(store.novelty(true, 5, &[1, 0, 0]), 3, "the same board");
        assert_eq!(store.novelty(true, 5, &[0, 2, 0]), 1, "an object on a new cell");
        assert_eq!(store.novelty(true, 5, &[1, 2, 0]), 3, "each object seen there before");
        assert_eq!(store.novelty(true, 5, &[3, 0, 0]), 1, "another object on a cell seen");
        assert_eq!(store.novelty(true, 4, &[1, 0, 0]), 1, "another estimate: seen apart");
        assert_eq!(store.bytes(), Store::new(3).bytes() + 2 * 3 * 8, "a board of bits an estimate");
        // Past the bound, a new estimate is not novel; the ones noted still are.
        let mut full = Store::new(1 << 20);
        let board = vec![1u64; 1 << 20];
        let boards = (MAX_NOVELTY_BYTES / (8 << 20)) as u32;
        for h in 0..boards {
            assert_eq!(full.novelty(true, h, &board), 1, "estimate {h}");
        }
        assert_eq!(full.novelty(true, boards, &board), 3, "past the bound");
        assert!(full.bytes() <= MAX_NOVELTY_BYTES + Store::new(1 << 20).bytes());
        let mut other = board.clone();
        other[7] = 2;
        assert_eq!(full.novelty(true, 0, &other), 1, "an estimate noted before the bound");
    }

    proptest::proptest! {
        /// A frontier board comes back as it was kept, whatever it and the start hold, and is
        /// kept in at most its own words: a few words changed on a large board in a few.
        #[test]
        fn a_board_kept_in_the_frontier_comes_back_as_it_was(
            start in proptest::collection::vec(proptest::prelude::any::<u64>(), 1..200),
            changes in proptest::collection::vec((0usize..200, proptest::prelude::any::<u64>()), 0..40),
            kept in 1usize..4,
        ) {
            let mut board = start.clone();
            for &(i, w) in &changes {
                let i = i % board.len();
                board[i] = w;
            }
            let differ = board.iter().zip(&start).filter(|(a, b)| a != b).count();
            let mut store = Store { start: start.clone(), ..Store::new(start.len()) };
            let mut ids = Vec::new();
            for k in 0..kept {
                let link = Link { parent: NONE, cmd: 0, depth: 0 };
                let key = k as u128 + 1;
                let (at, _) = store.find(key);
                ids.push(store.add(at, key, if k == 1 { &start } else { &board }, 0, link));
            }
            let packed = &store.boards[store.slot[ids[0] as usize] as usize];
            proptest::prop_assert!(packed.len() <= board.len());
            proptest::prop_assert!(packed.len() <= 1 + differ.div_ceil(2) + differ);
            let mut cells = Vec::new();
            for (k, &id) in ids.iter().enumerate() {
                store.unpack(&store.boards[store.slot[id as usize] as usize], &mut cells);
                proptest::prop_assert_eq!(&cells, if k == 1 { &start } else { &board });
            }
            // Expanded, every board's words are given back.
            for &id in &ids {
                store.release(id);
            }
            proptest::prop_assert_eq!(store.board_words, 0);
        }
    }

    /// Width 2: a state none of whose objects is on a new cell for its estimate is still novel
    /// when two objects off their start cells are together where none were before.
    #[test]
    fn a_state_is_novel_when_two_objects_off_their_start_are_where_they_were_not_together() {
        // Objects 0 and 1 (bits 1 and 2), three cells, nothing at the start.
        let start = |board: Vec<u64>| Store { start: board, ..Store::new(3) };
        let mut store = start(vec![0, 0, 0]);
        assert_eq!(store.novelty(true, 5, &[1, 2, 0]), 1, "the first board");
        assert_eq!(store.novelty(true, 5, &[2, 1, 0]), 1, "object 1 on cell 0: new");
        assert_eq!(store.pairs.len(), 2, "a pair each");
        assert_eq!(store.novelty(true, 5, &[1, 1, 0]), 2, "each seen there, not the two together");
        assert_eq!(store.novelty(true, 5, &[1, 1, 0]), 3, "the same again");
        assert_eq!(store.novelty(true, 5, &[2, 2, 0]), 2);
        assert_eq!(store.novelty(true, 5, &[1, 2, 0]), 3, "the first board again");
        assert_eq!(store.novelty(true, 4, &[1, 1, 0]), 1, "another estimate: seen apart");
        assert_eq!(store.bytes(), Store::new(3).bytes() + 2 * 3 * 8 + store.pairs.len() as u64 * 16);
        // Only objects off their start cells pair: object 0 stays on cell 0 as at the start.
        let mut store = start(vec![1, 0, 0]);
        assert_eq!(store.novelty(true, 5, &[1, 2, 0]), 1);
        assert_eq!(store.novelty(true, 5, &[1, 2, 0]), 3);
        assert!(store.pairs.is_empty(), "{:?}", store.pairs);
        // More than MAX_ATOMS objects off their start: no pairs noted; as many: all their pairs.
        for n in [MAX_ATOMS + 1, MAX_ATOMS] {
            let mut store = Store { start: vec![0; n], ..Store::new(n) };
            assert_eq!(store.novelty(true, 5, &vec![1; n]), 1);
            assert_eq!(store.novelty(true, 5, &vec![1; n]), 3);
            assert_eq!(store.pairs.len(), if n > MAX_ATOMS { 0 } else { n * (n - 1) / 2 }, "{n}");
        }
    }

    proptest::proptest! {
        /// The bucket queue gives its entries in the order a binary heap would, whatever mix of
        /// pushes (the order found rising, or its complement falling, as greedy's newest first
        /// pushes) and entries put back after a pop.
        #[test]
        fn buckets_give_entries_as_a_heap_would(
            ops in proptest::collection::vec((0u8..4, 0u32..3, 0u32..3), 1..300),
        ) {
            let mut heap = std::collections::BinaryHeap::new();
            let mut buckets = Buckets::default();
            let mut order = 0u64;
            let mut popped = Vec::new();
            for (op, priority, h) in ops {
                match op {
                    // a push: newest first (the order's complement) or oldest first
                    0 | 1 => {
                        order += 1;
                        let tie = if op == 0 { order } else { u64::MAX - order };
                        let e = Reverse((priority, h, tie, order as u32, h + 1));
                        heap.push(e);
                        buckets.push(e);
                    }
                    // a pop, kept to be put back
                    2 => {
                        let e = heap.pop();
                        proptest::prop_assert_eq!(buckets.pop(), e);
                        popped.extend(e);
                    }
                    // the entries popped put back (a batch cut short)
                    _ => {
                        for e in popped.drain(..) {
                            heap.push(e);
                            buckets.push(e);
                        }
                    }
                }
                proptest::prop_assert_eq!(buckets.peek(), heap.peek().copied());
            }
            while let Some(e) = heap.pop() {
                proptest::prop_assert_eq!(buckets.pop(), Some(e));
            }
            proptest::prop_assert_eq!(buckets.pop(), None);
        }
    }

    /// The budget counts the frontier's entries by the states pushed (one entry a heap), not by
    /// what the heaps have allocated: the same on any number of jobs; a mixed search reports
    /// them in its bytes.
    #[test]
    fn the_memory_budget_counts_each_heaps_entries() {
        let fifo = Frontier::Fifo(VecDeque::new());
        assert_eq!(fifo.bytes(10, 7), 7 * 4, "breadth-first: an id a state");
        let heaps = Frontier::Heaps {
            heaps: MIXED_ORDERS.iter().map(|_| Buckets::default()).collect(),
            turns: &MIXED_TURNS,
            turn: 0,
            boost: Boost::default(),
        };
        assert_eq!(heaps.bytes(10, 7), 10 * 4 * size_of::<Entry>() as u64, "an entry a push and heap");
        // A mixed search's bytes: its store's and 4 entries for every state pushed.
        let (rules, s) = start_of(GAME, 1, 0);
        let mut me = Searcher::new(rules.puzzle(&s), Search::Mixed, no_travel(), 1, false, None);
        assert_eq!(me.run(100, u64::MAX, u64::MAX, &mut || false), None, "paused after 100 states");
        assert!(me.k.order >= me.store.count() as u64 && me.store.count() > 100);
        let entries = me.k.order * 4 * size_of::<Entry>() as u64;
        assert_eq!(me.bytes(), me.store.bytes() + entries);
        assert_eq!(me.report(SolveOutcome::Stopped, 0).bytes, me.bytes(), "as reported");
        let limits = SolveLimits { max_nodes: 200, ..SolveLimits::default() };
        let r = solve_aided(&rules, &s, limits, Search::Mixed, no_travel(), 1, &mut || false);
        // A budget a little below what it took ends it, out of memory.
        let short =
            SolveLimits { max_nodes: 200, max_bytes: r.bytes - r.states * 2 * size_of::<Entry>() as u64 };
        let cut = solve_aided(&rules, &s, short, Search::Mixed, no_travel(), 1, &mut || false);
        assert_eq!(cut.outcome, SolveOutcome::Memory, "{cut:?}");
    }

    /// What the rules can never do proves a level unsolvable: with no win condition (and no
    /// `win` command) at once; with a crate that a wall crushes and "some Crate on Target", each
    /// state without a crate is dropped unexpanded, and the solution is the one found without.
    #[test]
    fn states_that_can_never_win_are_proved_so_from_the_rules() {
        let noaction = |s: &str| s.replace("homepage example.invalid", "homepage example.invalid\nnoaction");
        let no_win = noaction(&GAME.replace("All Target on Crate", ""));
        let (rules, s) = start_of(&no_win, 1, 0);
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0));
        // A rule that says `win` can still win it: searched.
        let by_command = no_win.replace(
            "late [ Fade ] -> [ ]",
            "late [ Fade ] -> [ ]\n[ Player Target ] -> [ Player Target ] win",
        );
        let (rules, s) = start_of(&by_command, 0, 0);
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert!(matches!(r.outcome, SolveOutcome::Solved(_)), "{r:?}");

        let crush = "[ > Player | Crate | Wall ] -> [ > Player | | Wall ]\n[ > Player | Crate ] -> [ > Player | > Crate ]";
        let some = noaction(&GAME.replace("[ > Player | Crate ] -> [ > Player | > Crate ]", crush))
            .replace("All Target on Crate", "Some Crate on Target");
        let (rules, s) = start_of(&some, 0, 0);
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!(r.outcome, SolveOutcome::Solved(vec![Command::Right, Command::Right]));
        // Level 1 with its crate pushed down into the wall: no crate left, dead.
        let (rules, mut s) = start_of(&some, 0, 0);
        let mut events = Vec::new();
        use Command::{Down, Right, Up};
        for c in [Up, Right, Down, Down] {
            rules.apply(&mut s, &c, &mut events).unwrap();
        }
        assert_eq!(rules.cells_of(&s, "Player"), vec![(3, 3)]);
        assert!(rules.cells_of(&s, "Crate").is_empty(), "the crate is gone");
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0));
        // With the target walled off, where the crate can travel proves it at once (it can only
        // enter the target's cell up or down, pushed from a wall); without that, every state
        // where the crate is crushed is dropped on the way to the proof.
        let walled = some.replace("#.P*.O#", "#.P*#O#");
        let (rules, s) = start_of(&walled, 0, 0);
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0));
        let r = solve_aided(&rules, &s, SolveLimits::default(), Search::Bfs, no_travel(), 1, &mut || false);
        assert!(r.outcome == SolveOutcome::Unsolvable && r.pruned > 0 && r.nodes > 1, "{r:?}");
    }

    /// A crate is pushed away from its pusher whichever way the rule runs: `up` and `left`
    /// rules are compiled as `down` and `right` ones with their rows reversed, where the pusher
    /// comes after the crate. So a crate against the bottom or the right wall, with no target
    /// along it, is dead from the start (read as free to move up or left, it was not).
    #[test]
    fn a_crate_against_any_wall_can_only_be_pushed_along_it() {
        let game = GAME.replace("homepage example.invalid", "homepage example.invalid\nnoaction");
        for level in
            ["#######\n#..O..#\n#.....#\n#.P*..#\n#######", "#####\n#O..#\n#...#\n#P.*#\n#...#\n#####"]
        {
            let (rules, s) = start_of(&format!("{game}\n\n{level}\n"), 3, 0);
            let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
            assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0), "{level}");
        }
    }

    /// A crate moved by rewriting (taken from its cell and put in the next, as many games push:
    /// `[ > Player | Crate | no Wall ] -> [ | Player | Crate ]`) travels as a pushed crate: it
    /// is neither created nor destroyed, so where it can travel applies (against the bottom
    /// wall with no target along it, it is dead), and the fewest steps are still found.
    #[test]
    fn an_object_moved_by_rewriting_travels_as_a_pushed_one() {
        let game = GAME.replace("homepage example.invalid", "homepage example.invalid\nnoaction").replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ > Player | Crate | no Wall no Crate ] -> [ | Player | Crate ]",
        );
        let level = "#######\n#..O..#\n#.....#\n#.P*..#\n#######";
        let (rules, s) = start_of(&format!("{game}\n\n{level}\n"), 3, 0);
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0), "dead at the start");
        use Command::Right;
        assert_eq!(solved(&game, 0), vec![Right, Right]);
        let (rules, s) = start_of(&game, 1, 0);
        let with = solve(&rules, &s, SolveLimits::default(), &mut || false);
        let without =
            solve_aided(&rules, &s, SolveLimits::default(), Search::Bfs, no_travel(), 1, &mut || false);
        let SolveOutcome::Solved(steps) = &with.outcome else { panic!("{with:?}") };
        assert!(matches!(&without.outcome, SolveOutcome::Solved(o) if o.len() == steps.len()), "{without:?}");
        assert!(with.pruned > 0 && with.nodes < without.nodes, "{with:?} {without:?}");
    }

    /// Sokoban's freeze deadlocks, read from the rules: two crates side by side against a wall
    /// can never move again (each one's pusher would stand on the other), so a level where
    /// they are off the targets is dead from the start, though each alone could reach one. When
    /// a crate can push a crate, they can move, and the same level is solved.
    #[test]
    fn objects_that_can_never_move_again_off_their_targets_are_dead() {
        let with_level = |game: &str, level: &str| format!("{game}\n\n{level}\n");
        let game = GAME.replace("homepage example.invalid", "homepage example.invalid\nnoaction");
        let pair = "#######\n#OO**.#\n#....P#\n#######";
        let (rules, s) = start_of(&with_level(&game, pair), 3, 0);
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0), "frozen at the start");
        // Without the check, the search proves it the long way.
        let no_freeze = Aids { freeze: false, ..Aids::default() };
        let r = solve_aided(&rules, &s, SolveLimits::default(), Search::Bfs, no_freeze, 1, &mut || false);
        assert!(r.outcome == SolveOutcome::Unsolvable && r.nodes > 0, "{r:?}");
        // The same when the push rewrites (the player steps into the crate's cell as the crate
        // steps out of it: the crate is not destroyed there, so it is still kept and can freeze).
        let rewriting = game.replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ > Player | Crate | no Wall no Crate ] -> [ | Player | Crate ]",
        );
        let (rules, s) = start_of(&with_level(&rewriting, pair), 3, 0);
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0), "frozen at the start, rewriting");

        // A crate under a crate held on its target, between two cells from which no target
        // can be reached: either move would kill the state (as many crates as targets), so it
        // is frozen too; without that, the search proves it.
        let under = "#######\n###@###\n##.*.##\n###.###\n###P###\n###O###\n#######";
        let (rules, s) = start_of(&with_level(&game, under), 3, 0);
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Unsolvable, 0), "frozen between dead cells");
        let r = solve_aided(&rules, &s, SolveLimits::default(), Search::Bfs, no_freeze, 1, &mut || false);
        assert!(r.outcome == SolveOutcome::Unsolvable && r.nodes > 0, "{r:?}");

        // Crates push crates: the pair moves together, so nothing is frozen.
        let chain = game.replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ > Crate | Crate ] -> [ > Crate | > Crate ]",
        );
        let (rules, s) = start_of(&with_level(&chain, pair), 3, 0);
        use Command::{Left, Up};
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!(r.outcome, SolveOutcome::Solved(vec![Up, Left, Left]));

        // Apart, each crate can reach a target: solved in the fewest steps either way, and
        // the states where one is pushed against the other are dropped on the way.
        let apart = "#########\n#O.*.*.O#\n#.......#\n#...P...#\n#########";
        let (rules, s) = start_of(&with_level(&game, apart), 3, 0);
        let with = solve(&rules, &s, SolveLimits::default(), &mut || false);
        let without =
            solve_aided(&rules, &s, SolveLimits::default(), Search::Bfs, no_freeze, 1, &mut || false);
        let SolveOutcome::Solved(steps) = &with.outcome else { panic!("{with:?}") };
        assert!(matches!(&without.outcome, SolveOutcome::Solved(o) if o.len() == steps.len()), "{without:?}");
        assert!(with.pruned > without.pruned && with.nodes < without.nodes, "{with:?} {without:?}");
        assert!(wins(&with_level(&game, apart), 3, 0, steps));
    }

    /// A look can hide a difference where a game queues `again`: a turn that changes only
    /// scenery still counts as a change, and PuzzleScript plays the queued `again` turn only
    /// after a change. Here `action` lights a spark (scenery) and queues `again`, whose turn
    /// (the player standing still) opens the gate; on the start's spark it changes nothing, so
    /// no `again`. An arrow puts smoke there instead (scenery too): then `action` opens the
    /// gate. Known by their look, the start and the smoke are one state, so a search by the
    /// look finds no solution; the solver does not take that for a proof and searches again
    /// without the look (breadth-first never uses such a look).
    #[test]
    fn a_look_that_hides_an_again_turn_is_searched_again_without_it() {
        let game = "title spark\n\nOBJECTS\n\nBackground\nblack\n\nWall\ngrey\n\nPlayer\nwhite\n\nGate\nred\n\n\
                    Spark\nyellow\n\nSmoke\ngrey\n\nLEGEND\n\n. = Background\n# = Wall\nP = Player and Spark\n\
                    G = Gate\n\nSOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nSpark, Smoke\nPlayer, Wall, Gate\n\n\
                    RULES\n\n[ stationary Player | Gate ] -> [ Player | ]\n[ > Player ] -> [ > Player Smoke ]\n\
                    [ action Player ] -> [ Player Spark ] again\n\nWINCONDITIONS\n\nno Gate\n\nLEVELS\n\n\
                    ####\n#PG#\n####\n";
        let (rules, s) = start_of(game, 0, 0);
        let look = Scenery::of(rules.game(), s.engine()).expect("spark and smoke are scenery");
        assert!(!look.exact);
        use Command::{Action, Up};
        let fewest = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!(fewest.outcome, SolveOutcome::Solved(vec![Up, Action]));
        let limits = SolveLimits::default();
        let by_look = search_both(
            Ask { puzzle: rules.puzzle(&s), search: Search::Mixed, aids: Aids::default(), jobs: 1 },
            limits,
            &mut || false,
            Some(&look),
        );
        assert_eq!(by_look.outcome, SolveOutcome::Unsolvable, "the look hides the smoke");
        let r = solve_with(&rules, &s, limits, Search::Mixed, &mut || false);
        let SolveOutcome::Solved(steps) = &r.outcome else { panic!("{r:?}") };
        assert!(steps.len() == 2 && wins(game, 0, 0, steps), "{r:?}");
        assert!(r.nodes > by_look.nodes, "both searches' work counted: {r:?}");
    }

    /// A walk to an exit (`some Player on Exit`): the estimate counts the player's moves to
    /// the exit, so A* heads there; counting 1 until it holds, it searched breadth-first. The
    /// solution is the fewest steps either way (as breadth-first proves).
    #[test]
    fn some_x_on_y_is_estimated_by_the_nearest_x_s_moves() {
        let game = "title Exit\nnoaction\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nExit\nyellow\n\n\
                    Player\nwhite\n\nWall\nbrown\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\n\
                    P = Player\nE = Exit\n\n=======\nSOUNDS\n=======\n\n================\nCOLLISIONLAYERS\n\
                    ================\n\nBackground\nExit\nPlayer, Wall\n\n======\nRULES\n======\n\n\
                    ==============\nWINCONDITIONS\n==============\n\nsome Player on Exit\n\n=======\nLEVELS\n\
                    =======\n\n############\n#P.........#\n#..........#\n#......#...#\n#......#...#\n\
                    #......#..E#\n############\n";
        let (rules, s) = start_of(game, 0, 0);
        let fewest = solve(&rules, &s, SolveLimits::default(), &mut || false);
        let SolveOutcome::Solved(path) = &fewest.outcome else { panic!("{fewest:?}") };
        assert_eq!(path.len(), 13);
        let with = |some_distance| {
            let aids = Aids { some_distance, ..Aids::default() };
            solve_aided(&rules, &s, SolveLimits::default(), Search::AStar, aids, 1, &mut || false)
        };
        let (near, flat) = (with(true), with(false));
        for r in [&near, &flat] {
            assert!(matches!(&r.outcome, SolveOutcome::Solved(p) if p.len() == 13), "{r:?}");
        }
        // Straight there: 13 states (the steps) and a few ties, where counting 1 expands about
        // every cell nearer than the exit.
        assert!(
            near.nodes <= 20 && flat.nodes >= 40,
            "{} with the distance, {} without",
            near.nodes,
            flat.nodes
        );
    }

    /// An animation that loops for ever (sparks through three frames, `again` each turn) after
    /// a walk of `walk` turns (a mover stepping right until a wall).
    fn looping(walk: usize) -> String {
        let row = |c: char| format!("#{c}{}#", ".".repeat(walk));
        format!(
            "title loop\n========\nOBJECTS\n========\nBackground\nblack\nPlayer\nblue\nWall\ngrey\n\
             Mover\npurple\nSpark1\nred\nSpark2\norange\nSpark3\nyellow\n=======\nLEGEND\n=======\n\
             . = Background\n# = Wall\nP = Player\nM = Mover\n=======\nSOUNDS\n=======\n================\nCOLLISIONLAYERS\n\
             ================\nBackground\nPlayer, Wall, Mover\nSpark1, Spark2, Spark3\n======\nRULES\n\
             ======\n[ action Player ] -> [ Player Spark1 ]\n[ stationary Mover ] -> [ right Mover ] again\n\
             [ Spark2 ] -> [ Spark3 ] again\n[ Spark1 ] -> [ Spark2 ] again\n[ Spark3 ] -> [ Spark1 ] again\n\
             ==============\nWINCONDITIONS\n==============\nno Player\n=======\nLEVELS\n=======\n\
             {wall}\n{}\n{}\n{wall}\n",
            row('P'),
            row('M'),
            wall = "#".repeat(walk + 3),
        )
    }

    #[test]
    fn a_loop_of_again_turns_ends_in_the_state_and_work_of_playing_every_turn() {
        for walk in [0, 1, 5, 14, 15, 16, 30, 40] {
            let game = crate::compile(&looping(walk)).expect("compiles");
            let start = game.start(0, None).expect("starts");
            // Every turn played, as the rule set plays them.
            let mut every = start.clone();
            let mut work = crate::Work::unbounded();
            let mut turns = 0;
            loop {
                let outcome =
                    game.turn_within(&mut every, (turns == 0).then_some(Input::Action), None, &mut work);
                turns += 1;
                if !outcome.again || turns >= MAX_TURNS {
                    break;
                }
            }
            assert_eq!(turns, MAX_TURNS, "walk {walk}: the animation runs to the last turn");
            assert_ne!(every, start);
            let mut ws = crate::Workspace::default();
            let mut skipped = start.clone();
            assert_eq!(
                step(&game, &mut ws, &mut skipped, Some(Input::Action), work.spent).map(|s| s.won),
                Some(false),
                "walk {walk}"
            );
            assert_eq!(skipped, every, "walk {walk}: the state after the last turn");
            // The work of the turns skipped counts: one unit less than playing them all is over.
            let mut short = start.clone();
            assert_eq!(
                step(&game, &mut ws, &mut short, Some(Input::Action), work.spent - 1).map(|s| s.won),
                None,
                "walk {walk}"
            );
        }
    }

    #[test]
    fn the_budgets_stop_the_search() {
        let (rules, s) = start_of(GAME, 2, 0);
        let r = solve(&rules, &s, SolveLimits { max_nodes: 3, ..SolveLimits::default() }, &mut || false);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Stopped, 3));
        let r = solve(&rules, &s, SolveLimits { max_bytes: 4_000, ..SolveLimits::default() }, &mut || false);
        assert_eq!(r.outcome, SolveOutcome::Memory);
        assert!(r.bytes <= 4_000, "{r:?}");
        let r = solve(&rules, &s, SolveLimits::default(), &mut || true);
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Stopped, 0));
        // A won state needs no step.
        let (rules, mut s) = start_of(GAME, 0, 0);
        let mut events = Vec::new();
        for c in solved(GAME, 0) {
            rules.apply(&mut s, &c, &mut events).unwrap();
        }
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false);
        assert_eq!(r.outcome, SolveOutcome::Solved(Vec::new()));
    }

    /// `stop` asked while helper threads play a state's steps (the unit tests hand every state's
    /// steps to them) ends the search there, on any number of jobs, within a state.
    #[test]
    fn a_stop_while_the_helpers_play_ends_the_search() {
        // (warehouse-002: 71 states of the default search, thousands of breadth-first's)
        let (rules, s) = start_of(GAME, 1, 0);
        for search in Search::ALL {
            for jobs in [1, 2, 3] {
                for after in [1, 10, 100] {
                    let mut calls = 0;
                    let r = solve_aided(
                        &rules,
                        &s,
                        SolveLimits::default(),
                        search,
                        Aids::default(),
                        jobs,
                        &mut || {
                            calls += 1;
                            calls > after
                        },
                    );
                    let at = format!("{search}, {jobs} jobs, stop after {after} calls: {r:?}");
                    assert_eq!(r.outcome, SolveOutcome::Stopped, "{at}");
                    // (a state's steps ask it each, but for its first)
                    assert!(r.nodes <= after as u64, "{at}");
                }
            }
        }
    }
}
