//! Sokoban levels by reverse play (issue 64.5), after Taylor & Parberry 2011 and Boxoban's
//! `generate_room` (Racanière et al. 2017): a room carved by a random walk, boxes put on their
//! goals, then played backwards.
//!
//! 1. **Room.** A `width × height` board of walls; a random walk of `1.7 × (width + height)`
//!    steps from a random inner cell (turning with probability 0.35) carves floor under one of
//!    Boxoban's five masks at each step, never on the border.
//! 2. **Goals and player.** `boxes` goal cells and the player's cell are drawn among the floor
//!    cells; the boxes start on the goals.
//! 3. **Reverse search.** Where Boxoban pulls boxes along one random depth-first path and scores
//!    the end by box displacement, this is a breadth-first search over *pull* states (the boxes'
//!    cells and the player's region, normalised to its smallest cell), from every solved state
//!    (the boxes on the goals, the player in each region the boxes leave free). A pull is a push
//!    played backwards, so a state first reached after `d` pulls needs exactly `d` pushes to be
//!    solved: the search gives each state its push-optimal length. It stops after `max_states`
//!    expansions (the states found until then keep their exact depth), and one of the deepest
//!    states found is the level (drawn by the seed among them).
//!
//! Given a room instead ([`Room::of_rows`], `tessera generate --rules sokoban --stage ROOM`,
//! the editor's Generate pane growing from the level shown), step 1 is skipped: its walls stay,
//! and cells locked by the Keep brush keep their ground (a locked goal stays a goal, the goals
//! drawn only elsewhere) with no box or player starting on them (the deepest layer with such a
//! state gives the level).
//!
//! The caller then proves it with the forward solver ([`super::solve`], A* with the fewest
//! pushes), which must find the same number of pushes. Everything is drawn from a [`GameRng`]
//! seeded by the caller; the hash set is only looked up, never iterated: the same seed gives the
//! same level on every machine.

use crate::GameRng;
use std::collections::HashSet;

/// Boxoban's masks: the cells carved around the walk's position at each step.
const MASKS: [&[(i32, i32)]; 5] = [
    &[(-1, 0), (0, 0), (1, 0)],
    &[(0, -1), (0, 0), (0, 1)],
    &[(-1, 0), (0, 0), (0, 1)],
    &[(-1, 0), (0, 0), (-1, 1), (0, 1)],
    &[(0, 0), (1, 0), (0, 1)],
];

/// What one reverse-played level came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reversed {
    /// The level's rows (XSB characters).
    pub rows: Vec<String>,
    /// The pushes it needs, exactly (the depth of the reverse search).
    pub pushes: u32,
    /// States the reverse search expanded.
    pub states: u64,
}

/// The floor cells of a room carved by a random walk (see the module docs): `true` for floor.
pub fn room(width: usize, height: usize, rng: &mut GameRng) -> Vec<bool> {
    let mut floor = vec![false; width * height];
    if width < 3 || height < 3 {
        return floor;
    }
    let (iw, ih) = (width - 2, height - 2);
    let mut x = 1 + rng.below(iw as u32) as i32;
    let mut y = 1 + rng.below(ih as u32) as i32;
    let dirs = [(0, -1), (0, 1), (-1, 0), (1, 0)];
    let mut d = dirs[rng.below(4) as usize];
    let steps = (17 * (width + height)) / 10;
    for _ in 0..steps {
        if rng.below(100) < 35 {
            d = dirs[rng.below(4) as usize];
        }
        x = (x + d.0).clamp(1, width as i32 - 2);
        y = (y + d.1).clamp(1, height as i32 - 2);
        for &(dx, dy) in MASKS[rng.below(MASKS.len() as u32) as usize] {
            let (cx, cy) = (x + dx, y + dy);
            if cx >= 1 && cy >= 1 && cx <= width as i32 - 2 && cy <= height as i32 - 2 {
                floor[cy as usize * width + cx as usize] = true;
            }
        }
    }
    floor
}

/// The board the reverse search walks: floor cells and their neighbours.
struct Board {
    width: usize,
    floor: Vec<bool>,
}

impl Board {
    /// The cell one step from `c` in direction `k` (up, down, left, right), when it is floor.
    fn step(&self, c: usize, k: usize) -> Option<usize> {
        let (x, y) = (c % self.width, c / self.width);
        let n = match k {
            0 if y > 0 => c - self.width,
            1 => c + self.width,
            2 if x > 0 => c - 1,
            3 if x + 1 < self.width => c + 1,
            _ => return None,
        };
        (n < self.floor.len() && self.floor[n]).then_some(n)
    }

    /// The cells the player reaches from `from` without crossing a box, marked in `seen` (which
    /// it clears first), and the smallest of them.
    fn region(&self, from: usize, boxes: &[u16], seen: &mut Vec<bool>, stack: &mut Vec<usize>) -> usize {
        seen.clear();
        seen.resize(self.floor.len(), false);
        for &b in boxes {
            seen[usize::from(b)] = true;
        }
        let mut least = from;
        stack.clear();
        stack.push(from);
        seen[from] = true;
        while let Some(c) = stack.pop() {
            least = least.min(c);
            for k in 0..4 {
                if let Some(n) = self.step(c, k)
                    && !seen[n]
                {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        // Boxes were marked only to stop the fill: unmark them.
        for &b in boxes {
            seen[usize::from(b)] = false;
        }
        least
    }
}

/// A pull state: the boxes' cells, sorted, then the player's normalised cell.
type Key = Vec<u16>;

fn key(boxes: &[u16], player: usize) -> Key {
    let mut k = boxes.to_vec();
    k.push(player as u16);
    k
}

/// One level by reverse play (see the module docs) in a `width × height` room with `boxes`
/// boxes, the reverse search expanding at most `max_states` states; `None` when the room has
/// too few floor cells or no pull is possible.
pub fn reverse_level(
    width: usize,
    height: usize,
    boxes: usize,
    max_states: u64,
    rng: &mut GameRng,
) -> Option<Reversed> {
    if boxes == 0 || width > 255 || height > 255 {
        return None;
    }
    let floor = room(width, height, rng);
    reverse_in(&Room { width, height, floor, goals: Vec::new(), locked: Vec::new() }, boxes, max_states, rng)
}

/// A room to fill by reverse play: its floor, the goals it must have and the cells left alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Room {
    /// Its width, walls included.
    pub width: usize,
    /// Its height, walls included.
    pub height: usize,
    /// `true` for a floor cell, row by row.
    pub floor: Vec<bool>,
    /// Cells that are goals whatever is drawn (a locked goal of the given room).
    pub goals: Vec<usize>,
    /// `true` for a cell left alone: no goal is drawn on it (unless in `goals`) and no box or
    /// player starts on it. Empty: none.
    pub locked: Vec<bool>,
}

impl Room {
    /// The room of a given level `rows` (XSB): its floor is what the player reaches without
    /// crossing a wall (boxes are on floor), the rest wall; the cells of `locked` left alone
    /// (those holding a goal stay goals). `None` when the level has no player, a locked cell
    /// lies outside it, or it is larger than 255 cells a side.
    pub fn of_rows(rows: &[String], locked: &[(usize, usize)]) -> Option<Room> {
        let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
        let (width, height) = (grid.iter().map(Vec::len).max().unwrap_or(0), grid.len());
        if width > 255 || height > 255 {
            return None;
        }
        let at = |c: usize| grid[c / width].get(c % width).copied().unwrap_or(' ');
        let player = (0..width * height).find(|&c| matches!(at(c), '@' | '+'))?;
        let mut floor = vec![false; width * height];
        let mut stack = vec![player];
        floor[player] = true;
        while let Some(c) = stack.pop() {
            let (x, y) = (c % width, c / width);
            let near = [
                (y > 0).then(|| c - width),
                (y + 1 < height).then(|| c + width),
                (x > 0).then(|| c - 1),
                (x + 1 < width).then(|| c + 1),
            ];
            for n in near.into_iter().flatten() {
                if !floor[n] && at(n) != '#' {
                    floor[n] = true;
                    stack.push(n);
                }
            }
        }
        let mut mask = vec![false; width * height];
        let mut goals = Vec::new();
        for &(x, y) in locked {
            if x >= width || y >= height {
                return None;
            }
            let c = y * width + x;
            mask[c] = true;
            if floor[c] && matches!(at(c), '.' | '*' | '+') {
                goals.push(c);
            }
        }
        goals.sort_unstable();
        goals.dedup();
        Some(Room { width, height, floor, goals, locked: if locked.is_empty() { Vec::new() } else { mask } })
    }

    /// Whether cell `c` is left alone.
    fn is_locked(&self, c: usize) -> bool {
        self.locked.get(c).copied().unwrap_or(false)
    }
}

/// One level by reverse play in `room` with `boxes` boxes (see the module docs): the goals are
/// the room's own and others drawn among its free floor cells, and the level is one of the
/// deepest states whose boxes stand on no locked cell. `None` when the room has too few free
/// floor cells, more goals of its own than boxes, or no pull is possible.
pub fn reverse_in(room: &Room, boxes: usize, max_states: u64, rng: &mut GameRng) -> Option<Reversed> {
    let (width, height) = (room.width, room.height);
    if boxes == 0 || width > 255 || height > 255 || room.floor.len() != width * height {
        return None;
    }
    let free = |c: usize| room.floor[c] && !room.is_locked(c);
    let fixed = room.goals.len();
    if fixed > boxes || room.goals.iter().any(|&g| g >= room.floor.len() || !room.floor[g]) {
        return None;
    }
    let drawn = boxes - fixed;
    let mut cells: Vec<usize> = (0..room.floor.len()).filter(|&c| free(c)).collect();
    if cells.len() < drawn + 2 {
        return None;
    }
    rng.shuffle(&mut cells);
    let mut goals: Vec<u16> = room.goals.iter().chain(&cells[..drawn]).map(|&c| c as u16).collect();
    goals.sort_unstable();
    let board = Board { width, floor: room.floor.clone() };
    let (mut seen, mut stack) = (Vec::new(), Vec::new());
    // The pulled state's region, apart from `seen` (the region pulled in).
    let (mut seen2, mut stack2) = (Vec::new(), Vec::new());
    // The solved states: the boxes on the goals, the player in each region left free.
    let mut visited: HashSet<Key> = HashSet::new();
    let mut layer: Vec<(Vec<u16>, usize)> = Vec::new();
    let mut covered = vec![false; board.floor.len()];
    for &c in &cells[drawn..] {
        if covered[c] {
            continue;
        }
        let least = board.region(c, &goals, &mut seen, &mut stack);
        for (i, s) in seen.iter().enumerate() {
            covered[i] |= *s;
        }
        if visited.insert(key(&goals, least)) {
            layer.push((goals.clone(), least));
        }
    }
    // A state the level may start from: no box on a locked cell.
    let allowed = |bx: &[u16]| bx.iter().all(|&b| !room.is_locked(usize::from(b)));
    let mut expanded = 0u64;
    let mut depth = 0u32;
    // The states to start from: those allowed of the deepest layer that has any. While that
    // layer is `layer` itself (`in_layer`), they are taken from it when it is replaced or at
    // the end: layers are moved, never copied.
    let (mut deepest, mut deepest_depth): (Vec<(Vec<u16>, usize)>, u32) = (Vec::new(), 0);
    let mut in_layer = false;
    'search: while !layer.is_empty() {
        let mut next: Vec<(Vec<u16>, usize)> = Vec::new();
        for (bx, player) in &layer {
            if expanded >= max_states {
                break 'search;
            }
            expanded += 1;
            board.region(*player, bx, &mut seen, &mut stack);
            for (i, &b) in bx.iter().enumerate() {
                let b = usize::from(b);
                for k in 0..4 {
                    // The player stands next to the box (at `p`) and steps away from it (to
                    // `q`), pulling it to `p`.
                    let Some(p) = board.step(b, k) else { continue };
                    let Some(q) = board.step(p, k) else { continue };
                    if !seen[p] || !seen[q] {
                        continue;
                    }
                    let mut moved = bx.clone();
                    moved[i] = p as u16;
                    moved.sort_unstable();
                    let least = board.region(q, &moved, &mut seen2, &mut stack2);
                    if visited.insert(key(&moved, least)) {
                        next.push((moved, least));
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        depth += 1;
        let before = std::mem::replace(&mut layer, next);
        if layer.iter().any(|(bx, _)| allowed(bx)) {
            (in_layer, deepest_depth) = (true, depth);
        } else if in_layer {
            deepest = before.into_iter().filter(|(bx, _)| allowed(bx)).collect();
            in_layer = false;
        }
    }
    if in_layer {
        deepest = layer.into_iter().filter(|(bx, _)| allowed(bx)).collect();
    }
    if deepest_depth == 0 || deepest.is_empty() {
        return None;
    }
    let (bx, least) = &deepest[rng.below(deepest.len().min(u32::MAX as usize) as u32) as usize];
    // The player's cell: its region's smallest, or its smallest cell not locked.
    let player = if room.is_locked(*least) {
        board.region(*least, bx, &mut seen, &mut stack);
        (0..seen.len()).find(|&c| seen[c] && !room.is_locked(c))?
    } else {
        *least
    };
    let mut grid: Vec<Vec<char>> = (0..height)
        .map(|y| (0..width).map(|x| if board.floor[y * width + x] { ' ' } else { '#' }).collect())
        .collect();
    for &g in &goals {
        grid[usize::from(g) / width][usize::from(g) % width] = '.';
    }
    for &b in bx {
        let c = &mut grid[usize::from(b) / width][usize::from(b) % width];
        *c = if *c == '.' { '*' } else { '$' };
    }
    let c = &mut grid[player / width][player % width];
    *c = if *c == '.' { '+' } else { '@' };
    Some(Reversed {
        rows: grid.into_iter().map(|r| r.into_iter().collect()).collect(),
        pushes: deepest_depth,
        states: expanded,
    })
}

/// The `sokoban` rule set's generator (`Plugin::GENERATORS`).
pub const GENERATOR: crate::Generator = crate::Generator {
    name: "sokoban",
    takes: crate::Takes::Room,
    figure: "pushes",
    help: "rooms by a random walk, boxes pulled back from their goals by a breadth-first reverse search; each level proved push-optimal by the solver",
    generate,
};

/// Makes one level by [`reverse_level`] (half of `max_states` for the reverse search) and proves
/// it with the forward solver (the rest): kept when the solver finds a solution with as many
/// pushes as the reverse search gave, at least `min_steps`, the rules replay it to a win, and
/// it moves every box (a box it never moves would be a wall on a goal).
fn generate(req: &crate::GenerateRequest<'_>, rng: &mut GameRng) -> Result<crate::Generated, crate::NoLevel> {
    use super::{SokobanLevel, SolveLimits, SolveOutcome, solve};
    use crate::Rules;
    let half = (req.max_states / 2).max(1);
    let made = match req.stage {
        None if req.locked.is_empty() => reverse_level(req.width, req.height, req.objects, half, rng),
        None => {
            let (width, height) = (req.width, req.height);
            if width > 255 || height > 255 || req.locked.iter().any(|&(x, y)| x >= width || y >= height) {
                return Err(crate::NoLevel { states: 0 });
            }
            let floor = room(width, height, rng);
            let mut locked = vec![false; width * height];
            for &(x, y) in req.locked {
                locked[y * width + x] = true;
            }
            reverse_in(&Room { width, height, floor, goals: Vec::new(), locked }, req.objects, half, rng)
        }
        Some(crate::Level::Sokoban(given)) => {
            let Some(room) = Room::of_rows(&given.board, req.locked) else {
                return Err(crate::NoLevel { states: 0 });
            };
            let boxes = match req.objects {
                0 => given.board.iter().flat_map(|r| r.chars()).filter(|&c| matches!(c, '$' | '*')).count(),
                n => n,
            };
            reverse_in(&room, boxes, half, rng)
        }
        Some(_) => None,
    };
    let Some(made) = made else {
        return Err(crate::NoLevel { states: 0 });
    };
    let mut states = made.states;
    let no = |states| Err(crate::NoLevel { states });
    if (made.pushes as usize) < req.min_steps.max(1) {
        return no(states);
    }
    let level = SokobanLevel::from_rows(made.rows.clone());
    let Ok((rules, start)) = level.start(0) else { return no(states) };
    let report = solve(&start, SolveLimits::nodes(half), &mut || false);
    states += report.nodes;
    let SolveOutcome::Solved(solution) = report.outcome else { return no(states) };
    if solution.pushes != made.pushes {
        // The two searches disagree: never keep such a level (a test guards against it).
        return no(states);
    }
    // Every box matters: a box the push-optimal solution never moves stands on its goal as a
    // wall would, so the level is another one's with a box fewer; it is dropped.
    let starts: Vec<(usize, crate::Id)> =
        start.boxes().cells().iter().enumerate().filter_map(|(k, b)| b.map(|id| (k, id))).collect();
    let mut moved = vec![false; starts.len()];
    let mut s = start;
    let mut events = Vec::new();
    for c in &solution.commands {
        events.clear();
        if rules.apply(&mut s, c, &mut events).is_err() {
            return no(states);
        }
        let now = s.boxes().cells();
        for (m, (k, id)) in moved.iter_mut().zip(&starts) {
            *m |= now[*k] != Some(*id);
        }
    }
    if !s.is_solved() || moved.contains(&false) {
        return no(states);
    }
    Ok(crate::Generated {
        level: crate::Level::Sokoban(level),
        rows: made.rows,
        solution: solution.commands.iter().map(|c| c.to_string()).collect(),
        figure: "pushes",
        optimal: u64::from(solution.pushes),
        steps: u64::from(solution.moves),
        states,
        measured: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;
    use crate::sokoban::{SokobanLevel, SolveLimits, SolveOutcome, solve};

    /// The reverse search's depth is the forward solver's fewest pushes, on every level made.
    #[test]
    fn the_reverse_depth_is_the_fewest_pushes() {
        let mut made = 0;
        for seed in 0..40u64 {
            let mut rng = GameRng::new(seed);
            let Some(level) = reverse_level(8, 8, 2 + (seed % 2) as usize, 20_000, &mut rng) else {
                continue;
            };
            let (_, start) = SokobanLevel::from_rows(level.rows.clone()).start(0).expect("starts");
            let report = solve(&start, SolveLimits::nodes(200_000), &mut || false);
            let SolveOutcome::Solved(s) = report.outcome else {
                panic!("{:?}: {:?}", level.rows, report.outcome)
            };
            assert_eq!(s.pushes, level.pushes, "{:?}", level.rows);
            made += 1;
        }
        assert!(made >= 30, "most rooms give a level: {made} of 40");
    }

    /// The same seed gives the same level; the room stays inside its wall border.
    #[test]
    fn a_seed_gives_one_level() {
        for seed in 0..10u64 {
            let a = reverse_level(10, 10, 3, 5_000, &mut GameRng::new(seed));
            let b = reverse_level(10, 10, 3, 5_000, &mut GameRng::new(seed));
            assert_eq!(a, b);
            if let Some(l) = a {
                assert_eq!(l.rows.len(), 10);
                assert!(l.rows[0].chars().all(|c| c == '#') && l.rows[9].chars().all(|c| c == '#'));
                assert!(l.rows.iter().all(|r| r.len() == 10 && r.starts_with('#') && r.ends_with('#')));
            }
        }
    }

    /// The registered generator's levels are proved: its solution wins with the optimal pushes.
    #[test]
    fn the_generator_is_registered_and_proves_its_levels() {
        let g = crate::generator("sokoban").expect("registered");
        let req = crate::GenerateRequest {
            width: 8,
            height: 8,
            objects: 2,
            max_states: 40_000,
            min_steps: 2,
            ..Default::default()
        };
        let mut kept = 0;
        for seed in 0..10 {
            if let Ok(level) = (g.generate)(&req, &mut GameRng::new(seed)) {
                assert!(level.optimal >= 2);
                let crate::Level::Sokoban(sokoban) = &level.level else { panic!("a Sokoban level") };
                let (_, mut state) = sokoban.start(0).unwrap();
                let first = state.boxes().clone();
                let mut moved = std::collections::BTreeSet::new();
                for w in &level.solution {
                    let c = crate::AnyCommand::parse(crate::RuleSet::Sokoban, w).unwrap();
                    let crate::AnyCommand::Sokoban(c) = c else { panic!("a Sokoban command") };
                    crate::sokoban::SokobanRules.apply(&mut state, &c, &mut Vec::new()).unwrap();
                    for (pos, b) in first.iter() {
                        if b.is_some() && state.boxes().get(pos) != Some(b) {
                            moved.insert(*b);
                        }
                    }
                }
                assert!(state.is_solved());
                let boxes = first.cells().iter().filter(|b| b.is_some()).count();
                assert_eq!(moved.len(), boxes, "every box is moved by the solution: {:?}", level.rows);
                kept += 1;
            }
        }
        assert!(kept > 0);
    }

    /// A room shaped like a plus, walls around: rows of XSB.
    fn cross() -> Vec<String> {
        [
            "#########",
            "###   ###",
            "###   ###",
            "#   .   #",
            "#  $@   #",
            "#       #",
            "###   ###",
            "###   ###",
            "#########",
        ]
        .map(String::from)
        .to_vec()
    }

    /// A given room keeps its walls; a locked cell keeps its ground and holds no box or player
    /// at the start; the level proves push-optimal.
    #[test]
    fn a_given_room_is_filled_leaving_locked_cells_alone() {
        let g = crate::generator("sokoban").expect("registered");
        let rows = cross();
        let given = crate::Level::Sokoban(SokobanLevel::from_rows(rows.clone()));
        // The goal (4, 3) locked stays a goal; (1, 3) and (5, 5) locked stay plain floor.
        let locked = [(4usize, 3usize), (1, 3), (5, 5)];
        let mut made = 0;
        for seed in 0..20u64 {
            let req = crate::GenerateRequest {
                objects: 2,
                max_states: 40_000,
                min_steps: 2,
                stage: Some(&given),
                locked: &locked,
                ..Default::default()
            };
            let Ok(level) = (g.generate)(&req, &mut GameRng::new(seed)) else { continue };
            made += 1;
            for (y, (a, b)) in level.rows.iter().zip(&rows).enumerate() {
                for (x, (ca, cb)) in a.chars().zip(b.chars()).enumerate() {
                    assert_eq!(
                        ca == '#',
                        cb == '#',
                        "seed {seed}: walls stay at ({x}, {y}): {:?}",
                        level.rows
                    );
                }
            }
            let at = |x: usize, y: usize| level.rows[y].chars().nth(x).unwrap();
            assert_eq!(at(4, 3), '.', "seed {seed}: the locked goal stays an empty goal: {:?}", level.rows);
            assert_eq!(at(1, 3), ' ', "seed {seed}: {:?}", level.rows);
            assert_eq!(at(5, 5), ' ', "seed {seed}: {:?}", level.rows);
            let boxes = level.rows.iter().flat_map(|r| r.chars()).filter(|&c| matches!(c, '$' | '*')).count();
            assert_eq!(boxes, 2);
        }
        assert!(made > 0, "some seed fills the room");
        // Without a count of boxes, the room's own (1).
        let req = crate::GenerateRequest {
            max_states: 40_000,
            min_steps: 1,
            stage: Some(&given),
            ..Default::default()
        };
        let level = (0..20).find_map(|s| (g.generate)(&req, &mut GameRng::new(s)).ok()).expect("a level");
        assert_eq!(level.rows.iter().flat_map(|r| r.chars()).filter(|&c| matches!(c, '$' | '*')).count(), 1);
    }

    /// Locking nothing draws exactly what the room alone draws; a room of no player or a
    /// locked cell outside gives no level, and more locked goals than boxes none either.
    #[test]
    fn rooms_of_rows_and_their_refusals() {
        let room = Room::of_rows(&cross(), &[]).unwrap();
        assert_eq!((room.width, room.height), (9, 9));
        assert_eq!(room.floor.iter().filter(|&&f| f).count(), 3 * 4 + 7 * 3);
        assert!(room.locked.is_empty() && room.goals.is_empty());
        assert_eq!(Room::of_rows(&["#####".into(), "#   #".into(), "#####".into()], &[]), None);
        assert_eq!(Room::of_rows(&cross(), &[(9, 0)]), None);
        let two_goals = Room { goals: vec![3 * 9 + 4, 5 * 9 + 4], ..room.clone() };
        assert_eq!(reverse_in(&two_goals, 1, 1000, &mut GameRng::new(1)), None);
        for seed in 0..10 {
            let a = reverse_level(9, 9, 2, 5_000, &mut GameRng::new(seed));
            let mut rng = GameRng::new(seed);
            let floor = super::room(9, 9, &mut rng);
            let b = reverse_in(&Room { width: 9, height: 9, floor, ..Room::default() }, 2, 5_000, &mut rng);
            assert_eq!(a, b);
        }
    }
}
