//! One candidate: made from a template by its own seeded generator, then played, proved,
//! replayed and simplified (see the crate docs).

use crate::game::Prepared;
use crate::lock::is_locked;
use crate::{Level, Options};
use std::time::Instant;
use tessera_core::puzzlescript::{
    PuzzleScriptCommand, PuzzleScriptRules, PuzzleScriptState, Search, SolveLimits, SolveOutcome, solve_with,
};
use tessera_core::{GameRng, Rules};

/// Candidate `index`'s generator: the run's seed and the index, mixed (splitmix64).
pub(crate) fn rng_of(seed: u64, index: u64) -> GameRng {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    GameRng::new(z ^ (z >> 31))
}

/// `n` below the bound (0 when the bound is 0).
fn below(rng: &mut GameRng, n: usize) -> usize {
    if n == 0 { 0 } else { rng.below(n.min(u32::MAX as usize) as u32) as usize }
}

/// Candidate `index`'s grid.
pub(crate) fn make(game: &Prepared, options: &Options, index: u64) -> Vec<Vec<char>> {
    let mut rng = rng_of(options.seed, index);
    let choices: Vec<usize> = match options.size {
        Some((w, h)) => game.fitting(w, h),
        None => (0..game.templates.len()).collect(),
    };
    let template = &game.templates[choices[below(&mut rng, choices.len())]];
    match options.size {
        Some((w, h)) => room(game, template, w, h, &mut rng),
        None => mutate(game, template, options, &mut rng),
    }
}

/// Whether (x, y) is on the border of a `w` by `h` grid.
fn on_border(x: usize, y: usize, w: usize, h: usize) -> bool {
    x == 0 || y == 0 || x + 1 == w || y + 1 == h
}

/// The template with its movable glyphs moved and (unless `keep_walls`) a few inner walls
/// toggled; locked cells stay as they are.
fn mutate(game: &Prepared, template: &[Vec<char>], options: &Options, rng: &mut GameRng) -> Vec<Vec<char>> {
    let mut grid: Vec<Vec<char>> = template.to_vec();
    let h = grid.len();
    let free = |x: usize, y: usize| !is_locked(options, x, y);
    if let (Some(wall), false) = (game.wall, options.keep_walls) {
        let inner: Vec<(usize, usize)> = (0..h)
            .flat_map(|y| (0..grid[y].len()).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                !on_border(x, y, grid[y].len(), h)
                    && (grid[y][x] == wall || grid[y][x] == game.floor)
                    && free(x, y)
            })
            .collect();
        for _ in 0..below(rng, 3) {
            if inner.is_empty() {
                break;
            }
            let (x, y) = inner[below(rng, inner.len())];
            grid[y][x] = if grid[y][x] == wall { game.floor } else { wall };
        }
    }
    let cells: Vec<(usize, usize)> = (0..h)
        .flat_map(|y| (0..grid[y].len()).map(move |x| (x, y)))
        .filter(|&(x, y)| game.movable(grid[y][x]) && free(x, y))
        .collect();
    if cells.is_empty() {
        return grid;
    }
    // All of them, or one to three.
    let moved: Vec<(usize, usize)> = if rng.chance(1, 2) {
        cells
    } else {
        let mut c = cells;
        rng.shuffle(&mut c);
        let k = 1 + below(rng, c.len().min(3));
        c.truncate(k);
        c
    };
    let glyphs: Vec<char> = moved.iter().map(|&(x, y)| grid[y][x]).collect();
    for &(x, y) in &moved {
        grid[y][x] = game.floor;
    }
    let mut floor: Vec<(usize, usize)> = (0..h)
        .flat_map(|y| (0..grid[y].len()).map(move |x| (x, y)))
        .filter(|&(x, y)| grid[y][x] == game.floor && free(x, y))
        .collect();
    rng.shuffle(&mut floor);
    for (g, (x, y)) in glyphs.into_iter().zip(floor) {
        grid[y][x] = g;
    }
    grid
}

/// A `w` by `h` room: a wall border when the game has walls, the template's share of inner
/// walls, and the template's movable glyphs on random free cells.
fn room(game: &Prepared, template: &[Vec<char>], w: usize, h: usize, rng: &mut GameRng) -> Vec<Vec<char>> {
    let mut grid = vec![vec![game.floor; w]; h];
    let mut inner: Vec<(usize, usize)> = Vec::new();
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            match game.wall {
                Some(wall) if on_border(x, y, w, h) => *c = wall,
                _ => inner.push((x, y)),
            }
        }
    }
    let glyphs: Vec<char> = template.iter().flatten().copied().filter(|&c| game.movable(c)).collect();
    rng.shuffle(&mut inner);
    if let Some(wall) = game.wall {
        // The template's inner walls per inner cell, scaled to this room, leaving room for the
        // objects.
        let th = template.len();
        let (mut walls, mut cells) = (0usize, 0usize);
        for (y, row) in template.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                if !on_border(x, y, row.len(), th) {
                    cells += 1;
                    walls += usize::from(c == wall);
                }
            }
        }
        let want = (walls * inner.len()).checked_div(cells).unwrap_or(0);
        let spare = inner.len().saturating_sub(glyphs.len());
        let n = below(rng, want.min(spare) + 1).max(want.min(spare) / 2);
        for (x, y) in inner.drain(..n) {
            grid[y][x] = wall;
        }
    }
    for (g, (x, y)) in glyphs.into_iter().zip(inner) {
        grid[y][x] = g;
    }
    grid
}

/// What starting a level costs the budget, in states: compiling the game with the level and
/// starting it takes about what the solver takes to expand this many states (a convention, so
/// that a budget of states also bounds candidates that never reach the solver).
pub(crate) const START_COST: u64 = 64;

/// What one candidate came to.
pub(crate) struct Evaluated {
    /// The level, when it was proved and kept.
    pub level: Option<Level>,
    /// What it cost the budget: [`START_COST`] for each level started, one for each command
    /// the rules played (random walks, replays), and the states its searches expanded.
    pub charge: u64,
}

/// The grid as rows.
fn rows_of(grid: &[Vec<char>]) -> Vec<String> {
    grid.iter().map(|r| r.iter().collect()).collect()
}

/// Whether `solution` played from `start` by the rules wins (every command accepted).
pub(crate) fn wins(
    rules: &PuzzleScriptRules,
    start: &PuzzleScriptState,
    solution: &[PuzzleScriptCommand],
) -> bool {
    let mut state = start.clone();
    let mut events = Vec::new();
    for c in solution {
        if state.is_won() {
            return false;
        }
        events.clear();
        if rules.apply(&mut state, c, &mut events).is_err() {
            return false;
        }
    }
    state.is_won()
}

/// Random walks a candidate is tried with.
const WALKS: usize = 8;

/// Whether one of [`WALKS`] random walks of `length` moves wins.
fn random_win(
    game: &Prepared,
    rules: &PuzzleScriptRules,
    start: &PuzzleScriptState,
    length: usize,
    rng: &mut GameRng,
) -> bool {
    let mut events = Vec::new();
    for _ in 0..WALKS {
        let mut state = start.clone();
        for _ in 0..length {
            let c = game.moves[below(rng, game.moves.len())];
            events.clear();
            let _ = rules.apply(&mut state, &c, &mut events);
            if state.is_won() {
                return true;
            }
        }
    }
    false
}

/// A breadth-first proof of the level: its fewest steps when it has a solution that draws
/// nothing from the generator within the candidate's budget, and the states expanded.
fn prove(
    rules: &PuzzleScriptRules,
    start: &PuzzleScriptState,
    options: &Options,
    stop: &dyn Fn() -> bool,
) -> (Option<Vec<PuzzleScriptCommand>>, u64) {
    let limits = SolveLimits { max_nodes: options.level_states, max_bytes: options.level_bytes };
    let report = solve_with(rules, start, limits, Search::Bfs, &mut || stop());
    let solution = match report.outcome {
        SolveOutcome::Solved(s) if report.draws == 0 && wins(rules, start, &s) => Some(s),
        _ => None,
    };
    (solution, report.nodes)
}

/// Evaluates candidate `index` (see the crate docs); `stop` cuts its searches short.
pub(crate) fn evaluate(game: &Prepared, options: &Options, index: u64, stop: &dyn Fn() -> bool) -> Evaluated {
    let began = Instant::now();
    let mut grid = make(game, options, index);
    let mut charge = START_COST;
    let walk = 2 * options.min_steps.max(1);
    let mut rng = rng_of(options.seed ^ 0x5EED, index);
    let dropped = |charge| Evaluated { level: None, charge };
    if game.known.contains(&rows_of(&grid)) {
        return dropped(charge);
    }
    let Ok((rules, start)) = game.start(&rows_of(&grid)) else { return dropped(charge) };
    charge += WALKS as u64 * walk as u64;
    if start.is_won() || random_win(game, &rules, &start, walk, &mut rng) {
        return dropped(charge);
    }
    let (solution, nodes) = prove(&rules, &start, options, stop);
    charge += nodes;
    let Some(mut solution) = solution else { return dropped(charge) };
    let mut states = nodes;
    let mut removed = 0usize;
    // Simplify, solve again, until nothing can go (a few rounds at most).
    for _ in 0..4 {
        let (taken, starts) = simplify(game, options, &mut grid, &solution);
        charge += starts * (START_COST + solution.len() as u64);
        if taken == 0 {
            break;
        }
        removed += taken;
        charge += START_COST;
        let Ok((rules, start)) = game.start(&rows_of(&grid)) else { return dropped(charge) };
        if start.is_won() {
            return dropped(charge);
        }
        let (again, nodes) = prove(&rules, &start, options, stop);
        charge += nodes;
        let Some(again) = again else { return dropped(charge) };
        states = nodes;
        solution = again;
    }
    let steps = solution.len();
    if steps < options.min_steps || options.max_steps.is_some_and(|m| steps > m) {
        return dropped(charge);
    }
    let rows = rows_of(&grid);
    if game.known.contains(&rows) {
        return dropped(charge);
    }
    // The final level: trivial by random walks?
    charge += START_COST + WALKS as u64 * walk as u64 + steps as u64;
    let Ok((rules, start)) = game.start(&rows) else { return dropped(charge) };
    if random_win(game, &rules, &start, walk, &mut rng) || !wins(&rules, &start, &solution) {
        return dropped(charge);
    }
    // The difficulty estimate of the level as the output holds it (the game's source with it).
    let estimated = tessera_core::Level::PuzzleScript(tessera_core::puzzlescript::PuzzleScriptLevel {
        name: None,
        seed: None,
        source: std::sync::Arc::from(game.level_source(&rows)),
        level: 0,
    });
    let Ok(estimate) = tessera_bots::estimate::estimate_level(&estimated, &options.estimate) else {
        return dropped(charge);
    };
    let f = &estimate.features;
    charge += START_COST + f.states + f.bfs_states + f.choices * options.estimate.probe_states;
    let level = Level {
        difficulty: estimate.difficulty,
        why: estimate.why,
        rows,
        solution,
        states,
        candidate: index,
        removed,
        millis: began.elapsed().as_millis() as u64,
    };
    Evaluated { level: Some(level), charge }
}

/// Takes away, cell by cell in reading order, each object whose level `solution` still wins
/// without (the walls of the border excepted: they frame the level); the objects taken away and
/// the levels started.
fn simplify(
    game: &Prepared,
    options: &Options,
    grid: &mut [Vec<char>],
    solution: &[PuzzleScriptCommand],
) -> (usize, u64) {
    let (mut taken, mut starts) = (0, 0u64);
    loop {
        let mut changed = false;
        for y in 0..grid.len() {
            for x in 0..grid[y].len() {
                let c = grid[y][x];
                let wall = Some(c) == game.wall;
                let border = on_border(x, y, grid[y].len(), grid.len());
                if c == game.floor || (wall && (options.keep_walls || border)) || is_locked(options, x, y) {
                    continue;
                }
                let Some(objects) = game.objects_of(c) else { continue };
                for k in 0..objects.len() {
                    let mut rest = objects.to_vec();
                    rest.remove(k);
                    let Some(g) = game.glyph_for(&rest) else { continue };
                    grid[y][x] = g;
                    starts += 1;
                    let still = game
                        .start(&rows_of(grid))
                        .is_ok_and(|(rules, start)| !start.is_won() && wins(&rules, &start, solution));
                    if still {
                        taken += 1;
                        changed = true;
                        break;
                    }
                    grid[y][x] = c;
                }
            }
        }
        if !changed {
            return (taken, starts);
        }
    }
}
