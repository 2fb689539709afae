//! Random small Sokoban rooms, for the unit tests and the conformance kit's strategies.

use crate::Dir;

/// A random small enclosed level: `w × h` with walls around, some inner walls, `n` boxes and
/// goals, one player; `None` when the cells do not fit.
pub(crate) fn random_rows(seed: u64, w: u16, h: u16, n: usize) -> Option<Vec<String>> {
    let mut rng = crate::GameRng::new(seed);
    let mut grid = vec![vec!['#'; usize::from(w)]; usize::from(h)];
    let mut free = Vec::new();
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            if rng.below(100) >= 20 {
                grid[usize::from(y)][usize::from(x)] = ' ';
                free.push((usize::from(x), usize::from(y)));
            }
        }
    }
    if free.len() < n + 1 {
        return None;
    }
    let mut take = |free: &mut Vec<(usize, usize)>| free.swap_remove(rng.below(free.len() as u32) as usize);
    let mut cells = free.clone();
    for _ in 0..n {
        let (x, y) = take(&mut cells);
        grid[y][x] = '$';
    }
    let (x, y) = take(&mut cells);
    grid[y][x] = '@';
    let mut goals = free;
    for _ in 0..n {
        let (x, y) = take(&mut goals);
        grid[y][x] = match grid[y][x] {
            '$' => '*',
            '@' => '+',
            _ => '.',
        };
    }
    Some(grid.into_iter().map(|r| r.into_iter().collect()).collect())
}

/// A random small level that is solvable by construction: boxes start on the goals of a
/// [`random_rows`] room, then the player makes `pulls` random reverse moves (a step, pulling the
/// box behind it along half the time); the pushes that undo those pulls solve it.
pub(crate) fn pulled_rows(seed: u64, w: u16, h: u16, n: usize, pulls: usize) -> Option<Vec<String>> {
    let rows = random_rows(seed, w, h, n)?;
    let mut grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let mut boxes = Vec::new();
    let mut player = (0, 0);
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            match *c {
                '$' | '*' => {
                    *c = if *c == '*' { '.' } else { ' ' };
                }
                '@' | '+' => {
                    player = (x, y);
                    *c = if *c == '+' { '.' } else { ' ' };
                }
                _ => {}
            }
            if *c == '.' {
                boxes.push((x, y));
            }
        }
    }
    if boxes.contains(&player) {
        return None;
    }
    let mut rng = crate::GameRng::new(seed ^ 0x5eed);
    for _ in 0..pulls {
        let at = |p: (usize, usize), d: Dir, k: i32| {
            let (dx, dy) = d.delta();
            ((p.0 as i32 + k * dx) as usize, (p.1 as i32 + k * dy) as usize)
        };
        // Mostly away from a neighbouring box (a pull), else a random step.
        let away: Vec<Dir> = Dir::ALL.into_iter().filter(|&d| boxes.contains(&at(player, d, -1))).collect();
        let d = if !away.is_empty() && rng.below(4) != 0 {
            away[rng.below(away.len() as u32) as usize]
        } else {
            Dir::ALL[rng.below(4) as usize]
        };
        let to = at(player, d, 1);
        if grid[to.1][to.0] == '#' || boxes.contains(&to) {
            continue;
        }
        let behind = at(player, d, -1);
        if rng.below(8) != 0
            && let Some(b) = boxes.iter_mut().find(|b| **b == behind)
        {
            *b = player;
        }
        player = to;
    }
    for (x, y) in boxes {
        grid[y][x] = if grid[y][x] == '.' { '*' } else { '$' };
    }
    grid[player.1][player.0] = if grid[player.1][player.0] == '.' { '+' } else { '@' };
    Some(grid.into_iter().map(|r| r.into_iter().collect()).collect())
}
