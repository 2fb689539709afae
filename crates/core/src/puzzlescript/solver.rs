//! A PuzzleScript solver: a breadth-first search over the states a level's steps reach, so the
//! first solution found has the fewest steps.
//!
//! - **Steps** are `up`, `down`, `left`, `right` and `action` (not when the game says
//!   `noaction`), each run exactly as the rule set runs it: the turn, then every `again` turn it
//!   queues (at most [`MAX_TURNS`](super::MAX_TURNS)), stopping at a win. `tick` and `restart`
//!   are not searched (`restart` only goes back to a state already seen).
//! - **States** are the engine's state: the board's objects and the rest (the checkpoint the
//!   restart goes to, pending movements). The board is stored in one arena; the rest, which
//!   rarely changes, is stored once and referred to. States are deduplicated exactly (a table of
//!   their ids keyed by a hash of the board, the boards compared on a hit), never iterated, so a
//!   search, its result and its counts are the same on every run and machine.
//! - **Randomness.** A step that draws from the game's generator (a `random` rule or a
//!   `randomdir` that fires) is not followed: its result depends on the seed. Every step the
//!   search does follow leaves the generator as it was, so the generator is the same in every
//!   state searched and a solution wins from every seed. When the search ends with no solution
//!   but left such steps out, the answer is [`SolveOutcome::Random`], not `Unsolvable`. A game
//!   with `realtime_interval` is refused: time, not the player, moves it.
//! - **Budget**: [`SolveLimits::max_nodes`] expansions, [`SolveLimits::max_bytes`] of stored
//!   states (the states stored times their size, plus the table; the search stops with
//!   [`SolveOutcome::Memory`] rather than grow past it), and a `stop` callback the caller passes
//!   (checked every 256 expansions; no clock in core).

use super::engine::{self, Game, Input};
use super::{MAX_TURNS, PuzzleScriptCommand, PuzzleScriptRules, PuzzleScriptState};
use crate::hash::keys::mix64;
use std::collections::HashMap;

/// How many expansions between two calls of the stop callback.
const STOP_EVERY: u64 = 256;
/// An empty slot of the table.
const EMPTY: u32 = u32::MAX;
/// No parent (the start).
const ROOT: u32 = u32::MAX;

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
    Solved(Vec<PuzzleScriptCommand>),
    /// No sequence of steps wins from this state.
    Unsolvable,
    /// No sequence of steps that draw nothing from the generator wins; `steps` steps that draw
    /// were left out (see the module docs).
    Random {
        /// Steps left out because they drew from the generator.
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
}

/// Why a level cannot be searched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game is realtime.
    #[error("the game is realtime (realtime_interval): time, not the player, moves it")]
    Realtime,
}

/// Whether `game` can be searched at all: `Err` for a realtime game.
pub fn check(game: &Game) -> Result<(), Refusal> {
    if game.prelude().realtime_interval.is_some() { Err(Refusal::Realtime) } else { Ok(()) }
}

/// The commands a search expands, in order.
pub fn moves(game: &Game) -> &'static [PuzzleScriptCommand] {
    use PuzzleScriptCommand::*;
    if game.prelude().noaction { &[Up, Down, Left, Right] } else { &[Up, Down, Left, Right, Action] }
}

/// One step as the rule set runs it (see [`PuzzleScriptRules::apply_into`]) on the engine's
/// state: whether it won.
fn step(game: &Game, state: &mut engine::State, input: Input) -> bool {
    let mut turn = 0u32;
    loop {
        let outcome = game.turn(state, (turn == 0).then_some(input), None);
        let won = outcome.won || game.is_won(state);
        turn += 1;
        if won || !outcome.again || turn >= MAX_TURNS {
            return won;
        }
    }
}

/// The engine input of a searched command.
fn input(cmd: PuzzleScriptCommand) -> Input {
    match cmd {
        PuzzleScriptCommand::Up => Input::Up,
        PuzzleScriptCommand::Down => Input::Down,
        PuzzleScriptCommand::Left => Input::Left,
        PuzzleScriptCommand::Right => Input::Right,
        _ => Input::Action,
    }
}

/// The hash of a board.
fn board_hash(cells: &[u64], rest: u32) -> u64 {
    cells.iter().fold(mix64(u64::from(rest) ^ 0x5053_5f53_4f4c_5645), |h, &w| mix64(h ^ w))
}

/// The stored states: boards in one arena, the rest interned, an open-addressing table of ids.
struct Store {
    /// Words per board.
    len: usize,
    boards: Vec<u64>,
    /// Per state: its rest's id, its parent and the command from the parent.
    rest_of: Vec<u32>,
    parent: Vec<u32>,
    cmd: Vec<u8>,
    /// The distinct rests (the state with no board), and their ids.
    rests: Vec<engine::State>,
    rest_ids: HashMap<engine::State, u32>,
    table: Vec<u32>,
}

impl Store {
    fn new(len: usize) -> Store {
        Store {
            len,
            boards: Vec::new(),
            rest_of: Vec::new(),
            parent: Vec::new(),
            cmd: Vec::new(),
            rests: Vec::new(),
            rest_ids: HashMap::new(),
            table: vec![EMPTY; 1024],
        }
    }

    fn count(&self) -> usize {
        self.parent.len()
    }

    /// Bytes per stored state (board, links) and per table slot.
    fn bytes(&self) -> u64 {
        let per_state = self.len as u64 * 8 + 4 + 4 + 1;
        let rest_bytes: u64 = self.rests.iter().map(|r| (r.restart_cells.len() * 8 * 2 + 512) as u64).sum();
        self.count() as u64 * per_state + self.table.len() as u64 * 4 + rest_bytes
    }

    /// The bytes the store would take after one more state (and the table's growth then).
    fn bytes_after_one_more(&self) -> u64 {
        let grow = if (self.count() + 1) * 2 > self.table.len() { self.table.len() as u64 * 4 } else { 0 };
        self.bytes() + self.len as u64 * 8 + 9 + grow
    }

    fn board(&self, id: u32) -> &[u64] {
        let i = id as usize * self.len;
        &self.boards[i..i + self.len]
    }

    /// The id of the rest of `state` (its board ignored).
    fn rest_id(&mut self, state: &engine::State) -> u32 {
        let mut rest = state.clone();
        rest.cells = Vec::new();
        if let Some(&id) = self.rest_ids.get(&rest) {
            return id;
        }
        let id = self.rests.len() as u32;
        self.rests.push(rest.clone());
        self.rest_ids.insert(rest, id);
        id
    }

    /// The slot where a board with this hash and content is, or would go.
    fn slot(&self, cells: &[u64], rest: u32, h: u64) -> (usize, bool) {
        let mask = self.table.len() - 1;
        let mut i = (h as usize) & mask;
        loop {
            match self.table[i] {
                EMPTY => return (i, false),
                id if self.rest_of[id as usize] == rest && self.board(id) == cells => return (i, true),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds the state unless it is stored: its id, or `None` when it was stored.
    fn insert(&mut self, cells: &[u64], rest: u32, parent: u32, cmd: u8) -> Option<u32> {
        let h = board_hash(cells, rest);
        let (slot, found) = self.slot(cells, rest, h);
        if found {
            return None;
        }
        let id = self.count() as u32;
        self.boards.extend_from_slice(cells);
        self.rest_of.push(rest);
        self.parent.push(parent);
        self.cmd.push(cmd);
        self.table[slot] = id;
        if self.count() * 2 > self.table.len() {
            self.grow();
        }
        Some(id)
    }

    fn grow(&mut self) {
        let mut table = vec![EMPTY; self.table.len() * 2];
        let mask = table.len() - 1;
        for id in 0..self.count() as u32 {
            let mut i = (board_hash(self.board(id), self.rest_of[id as usize]) as usize) & mask;
            while table[i] != EMPTY {
                i = (i + 1) & mask;
            }
            table[i] = id;
        }
        self.table = table;
    }

    /// Makes `state` the stored state `id`.
    fn load(&self, id: u32, state: &mut engine::State) {
        let rest = &self.rests[self.rest_of[id as usize] as usize];
        let cells = std::mem::take(&mut state.cells);
        *state = rest.clone();
        state.cells = cells;
        state.cells.clear();
        state.cells.extend_from_slice(self.board(id));
    }

    /// The commands from the start to `id`.
    fn path(&self, mut id: u32, moves: &[PuzzleScriptCommand]) -> Vec<PuzzleScriptCommand> {
        let mut out = Vec::new();
        while self.parent[id as usize] != ROOT {
            out.push(moves[usize::from(self.cmd[id as usize])]);
            id = self.parent[id as usize];
        }
        out.reverse();
        out
    }
}

/// Searches for a solution of `state` with the fewest steps, within `limits`, calling `stop`
/// every few hundred expansions (see the module docs). `Err` for a game the search refuses.
pub fn solve(
    rules: &PuzzleScriptRules,
    state: &PuzzleScriptState,
    limits: SolveLimits,
    stop: &mut dyn FnMut() -> bool,
) -> Result<SolveReport, Refusal> {
    let game = rules.game();
    check(game)?;
    let moves = moves(game);
    let start = state.engine();
    let mut store = Store::new(start.cells.len());
    let report = |outcome, nodes, store: &Store| SolveReport {
        outcome,
        nodes,
        states: store.count() as u64,
        bytes: store.bytes(),
    };
    if state.is_won() {
        return Ok(report(SolveOutcome::Solved(Vec::new()), 0, &store));
    }
    let rest = store.rest_id(start);
    store.insert(&start.cells, rest, ROOT, 0);
    let mut nodes = 0u64;
    let mut random = 0u64;
    let mut here = start.clone();
    let mut next = start.clone();
    let mut head = 0u32;
    while (head as usize) < store.count() {
        if nodes >= limits.max_nodes || (nodes.is_multiple_of(STOP_EVERY) && stop()) {
            return Ok(report(SolveOutcome::Stopped, nodes, &store));
        }
        store.load(head, &mut here);
        nodes += 1;
        for (k, &cmd) in moves.iter().enumerate() {
            next.clone_from(&here);
            let won = step(game, &mut next, input(cmd));
            if next.rng != here.rng {
                random += 1;
                continue;
            }
            if won {
                let mut path = store.path(head, moves);
                path.push(cmd);
                return Ok(report(SolveOutcome::Solved(path), nodes, &store));
            }
            if store.bytes_after_one_more() > limits.max_bytes {
                return Ok(report(SolveOutcome::Memory, nodes, &store));
            }
            let rest = if next.restart_cells == here.restart_cells
                && next.movements == here.movements
                && next.text_mode == here.text_mode
                && next.title_screen == here.title_screen
                && next.level == here.level
            {
                store.rest_of[head as usize]
            } else {
                store.rest_id(&next)
            };
            store.insert(&next.cells, rest, head, k as u8);
        }
        head += 1;
    }
    let outcome = if random > 0 { SolveOutcome::Random { steps: random } } else { SolveOutcome::Unsolvable };
    Ok(report(outcome, nodes, &store))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzlescript::PuzzleScriptLevel;
    use crate::{Rules, Status};

    const GAME: &str = include_str!("../../../../fixtures/games/warehouse.txt");

    fn start_of(source: &str, n: usize, seed: u64) -> (PuzzleScriptRules, PuzzleScriptState) {
        PuzzleScriptLevel { name: None, seed: None, source: source.to_string(), level: n }
            .start(seed)
            .expect("the level starts")
    }

    fn solved(source: &str, n: usize) -> Vec<PuzzleScriptCommand> {
        let (rules, s) = start_of(source, n, 0);
        let report = solve(&rules, &s, SolveLimits::default(), &mut || false).expect("searchable");
        match report.outcome {
            SolveOutcome::Solved(c) => c,
            other => panic!("level {n}: {other:?}"),
        }
    }

    /// Plays `commands` through the rule set from seed `seed`: whether it ends won (every
    /// command accepted).
    fn wins(source: &str, n: usize, seed: u64, commands: &[PuzzleScriptCommand]) -> bool {
        let (rules, mut s) = start_of(source, n, seed);
        let mut events = Vec::new();
        for c in commands {
            rules.apply(&mut s, c, &mut events).unwrap_or_else(|e| panic!("{c}: {e}"));
        }
        rules.status(&s) == Status::Won
    }

    /// The fewest steps that win, by brute force over every sequence of `len` moves.
    fn any_wins_in(source: &str, n: usize, len: u32) -> bool {
        use PuzzleScriptCommand::*;
        let dirs = [Up, Down, Left, Right];
        (0..4u32.pow(len)).any(|mut code| {
            let (rules, mut s) = start_of(source, n, 0);
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
        let report = solve(&rules, &s, SolveLimits::default(), &mut || false).unwrap();
        // The action key draws a spark's place: left out, so not proved.
        assert!(matches!(report.outcome, SolveOutcome::Random { .. }), "{report:?}");
        let (rules, s) = start_of(&noaction, 0, 0);
        let report = solve(&rules, &s, SolveLimits::default(), &mut || false).unwrap();
        assert_eq!(report.outcome, SolveOutcome::Unsolvable);
        assert!(report.states > 1 && report.nodes == report.states);
    }

    #[test]
    fn a_game_that_moves_at_random_is_refused_and_a_realtime_one_too() {
        let source = GAME.replace(
            "[ > Player | Crate ] -> [ > Player | > Crate ]",
            "[ > Player ] -> [ randomdir Player ]\n[ > Player | Crate ] -> [ > Player | > Crate ]",
        );
        let (rules, s) = start_of(&source, 0, 0);
        let report = solve(&rules, &s, SolveLimits::default(), &mut || false).unwrap();
        assert!(matches!(report.outcome, SolveOutcome::Random { steps } if steps >= 4), "{report:?}");
        let realtime = GAME.replace("homepage example.invalid", "homepage example.invalid\nrealtime_interval 0.5");
        let (rules, s) = start_of(&realtime, 0, 0);
        assert_eq!(solve(&rules, &s, SolveLimits::default(), &mut || false), Err(Refusal::Realtime));
    }

    #[test]
    fn the_hint_is_the_solution_s_first_step_and_none_when_there_is_none() {
        use crate::Plugin;
        use crate::puzzlescript::PuzzleScript;
        let (rules, s) = start_of(GAME, 0, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), Some(PuzzleScriptCommand::Right));
        let (rules, s) = start_of(GAME, 2, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), solved(GAME, 2).first().copied());
        // Level 2 needs more states than the hint's budget: the first legal command.
        let (rules, s) = start_of(GAME, 1, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), Some(PuzzleScriptCommand::Up));
        let stuck = GAME
            .replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#")
            .replace("homepage example.invalid", "homepage example.invalid\nnoaction");
        let (rules, s) = start_of(&stuck, 0, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), None, "no solution from here");
        // With the action key the search is not a proof: a legal command still.
        let stuck = GAME.replace("#.....#\n#.P*.O#\n#.....#", "#*....#\n#.P..O#\n#.....#");
        let (rules, s) = start_of(&stuck, 0, 0);
        assert_eq!(PuzzleScript::hint(&rules, &s), Some(PuzzleScriptCommand::Up));
    }

    #[test]
    fn the_budgets_stop_the_search() {
        let (rules, s) = start_of(GAME, 2, 0);
        let r = solve(&rules, &s, SolveLimits { max_nodes: 3, ..SolveLimits::default() }, &mut || false).unwrap();
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Stopped, 3));
        let r = solve(&rules, &s, SolveLimits { max_bytes: 8_000, ..SolveLimits::default() }, &mut || false).unwrap();
        assert_eq!(r.outcome, SolveOutcome::Memory);
        assert!(r.bytes <= 8_000, "{r:?}");
        let r = solve(&rules, &s, SolveLimits::default(), &mut || true).unwrap();
        assert_eq!((r.outcome, r.nodes), (SolveOutcome::Stopped, 0));
        // A won state needs no step.
        let (rules, mut s) = start_of(GAME, 0, 0);
        let mut events = Vec::new();
        for c in solved(GAME, 0) {
            rules.apply(&mut s, &c, &mut events).unwrap();
        }
        let r = solve(&rules, &s, SolveLimits::default(), &mut || false).unwrap();
        assert_eq!(r.outcome, SolveOutcome::Solved(Vec::new()));
    }
}
