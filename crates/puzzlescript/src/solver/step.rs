//! One step of a level as the rule set plays it, on the engine's state alone (its turn and the
//! `again` turns it queues, loops of `again` skipped), and how a board is known in the store.

use super::*;

/// What a step did ([`step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stepped {
    /// The step won.
    pub(crate) won: bool,
    /// A draw from the generator could have gone otherwise in one of its turns
    /// ([`crate::QuietOutcome::free_draw`]): without one, the step does the same whatever the
    /// generator holds, even if it drew.
    pub(crate) free_draw: bool,
}

/// One step as the rule set runs it (as the tessera rule set runs it) on the engine's
/// state: whether it won, and whether a draw could have gone otherwise.
///
/// `None` for a step past `work_limit` (see [`Puzzle::work_limit`]), which the
/// rules refuse: the state is then of no use.
///
/// Within [`with_search_work`], the step is also held to the work left to the searches of this
/// thread, and takes its work from it: once that is spent every step is refused.
pub(crate) fn step(
    game: &Game,
    ws: &mut crate::Workspace,
    state: &mut crate::State,
    input: Option<Input>,
    work_limit: u64,
) -> Option<Stepped> {
    let Some(left) = SEARCH_WORK.with(std::cell::Cell::get) else {
        return step_within(game, ws, state, input, &mut crate::Work::new(work_limit));
    };
    let mut work = crate::Work::new(work_limit.min(left));
    let stepped = if left == 0 { None } else { step_within(game, ws, state, input, &mut work) };
    let left = if stepped.is_none() && left < work_limit { 0 } else { left.saturating_sub(work.spent) };
    SEARCH_WORK.with(|w| w.set(Some(left)));
    stepped
}

thread_local! {
    /// The work left to the searches of this thread ([`with_search_work`]), if bounded.
    static SEARCH_WORK: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with `work` units of work (as [`crate::Work`] counts them) for every step the
/// searches of this thread play meanwhile (a search on one thread: `jobs` 1): a step is held to
/// its own bound or to the work left, whichever is less, and once the work is spent every step
/// is refused, as one past the step bound is (issue 66.3: the solver's measure of a
/// `difficulty` report is held to the run's work budget). The same on every machine. Returns
/// `f`'s value and the work left. Budgets nest: the inner one is used while it runs.
pub fn with_search_work<T>(work: u64, f: impl FnOnce() -> T) -> (T, u64) {
    let outer = SEARCH_WORK.with(|w| w.replace(Some(work)));
    let value = f();
    let left = SEARCH_WORK.with(|w| w.replace(outer)).unwrap_or(0);
    (value, left)
}

/// The work left to the searches of this thread ([`with_search_work`]), if bounded.
pub fn search_work_left() -> Option<u64> {
    SEARCH_WORK.with(std::cell::Cell::get)
}

/// [`step`] within `work`.
fn step_within(
    game: &Game,
    ws: &mut crate::Workspace,
    state: &mut crate::State,
    input: Option<Input>,
    work: &mut crate::Work,
) -> Option<Stepped> {
    let mut free_draw = false;
    let mut turn = 0u32;
    // A chain of `again` turns that comes back to a state it passed (an animation that loops)
    // repeats from there to the last turn, since an `again` turn depends on the state alone,
    // its work too. Found by Brent's method (the state kept at turns 4, 8, 16, ...): the
    // whole cycles left are skipped, their work counted, and the rest played. The same state
    // and answer as playing every turn, for a 60th of the work on a chain of 1,000 turns.
    let mut kept: Option<(crate::State, u32, u64)> = None;
    let mut cycled = false;
    loop {
        let outcome = game.quiet_turn(ws, state, if turn == 0 { input } else { None }, work);
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
pub(super) const CYCLE_FROM: u32 = 4;

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
pub(super) fn seen_as<'b>(look: Option<&Scenery>, cells: &'b [u64], buffer: &'b mut Vec<u64>) -> &'b [u64] {
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
pub(super) fn state_key(cells: &[u64], rest: u32) -> u128 {
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
