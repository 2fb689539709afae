//! How well do difficulty measures of Sokoban levels agree with the public Boxoban order?
//!
//! Reads the three Boxoban files (`unfiltered`, `medium`, `hard`, given in that order), measures
//! every level, and prints for each measure the ROC AUC of medium vs unfiltered and of hard vs
//! medium: the chance that a level of the harder set scores higher than one of the easier set
//! (ties count half; Mann–Whitney U / (n₁ n₂)). 0.5 is no signal.
//!
//! The measures (the solver's are core's `sokoban::solve`, optimal in pushes):
//! - `pushes`, `moves`, `nodes`: the optimal solution's pushes and moves, and states expanded;
//! - `detour`: optimal pushes minus the matching lower bound (each box's pushes to its goal
//!   alone, boxes matched to goals at least total cost): the pushes a naive plan does not see;
//! - `nodes_per_push`: nodes / pushes;
//! - `walk`: moves − pushes (the player's walking);
//! - `off_line`: boxes sharing neither a row nor a column with their goal in that matching;
//! - `goal_room`: the size of the largest 4-connected group of goals (goals packed in a room
//!   must be filled in order);
//! - `dead`: floor cells a box can never leave for a goal (dead squares);
//! - `greedy_undo`: pushes a greedy player undoes: a depth-first search that always tries the
//!   push leading to the smallest matching bound first (never a dead square, never a position it
//!   has seen), counting each push it takes back, until solved (capped at 20,000 pushes made;
//!   the cap counts as the value);
//! - `combined`: the mean of the pooled percentile ranks of `pushes`, `detour` and `nodes`;
//! - `traps` (added in a second round, after the first round's figures were seen, and committed
//!   before it was scored; `combined` was not changed): deadlock near-misses along the optimal
//!   solution. Before each push of the solution, every other push the player could make that
//!   does not put a box on a dead square is tried, and counted when the solver then proves the
//!   level unsolvable or cannot solve it within [`TRAP_NODES`] nodes: pushes that look safe but
//!   lose.
//! - `box_lines`, `box_changes` (a third round, after the second round's figures were seen,
//!   committed before it was scored; nothing else changed): along the optimal solution, the
//!   pushes that do not continue the previous push in the same direction with the same box (box
//!   lines, as Sokoban programs such as YASC report them), and those that push another box than
//!   the previous push (box changes): how many separate sub-plans the solution is made of.
//!
//! **How `combined` was fixed.** Before any AUC was computed (the example was committed with
//! this formula first): three label-free views of difficulty a learner meets — a long solution
//! (`pushes`), a solution that departs from the obvious plan (`detour`), and one that needs
//! search (`nodes`) — weighted equally; ranks (over all levels of the three files pooled, no
//! labels) so that no scale dominates. Nothing in it is fitted to the sets' labels.
//!
//! A level the solver does not finish in `--seconds` (default 10) counts as harder than every
//! solved level in every solver measure. `--limit N` measures only the first N levels of each
//! file. `--per-level FILE` writes one tab-separated line per level: the set (0 unfiltered,
//! 1 medium, 2 hard), the level, then the measures in print order without `combined`.
//!
//! ```text
//! cargo run --release -p tessera-core --example sokoban_auc -- \
//!     ../shared/benchmarks/boxoban/unfiltered_test_000.txt \
//!     ../shared/benchmarks/boxoban/medium_valid_000.txt \
//!     ../shared/benchmarks/boxoban/hard_000.txt
//! ```

use std::collections::HashSet;
use std::time::{Duration, Instant};
use tessera_core::sokoban::{
    Cell, SokobanCommand, SokobanRules, SokobanState, SolveLimits, SolveOutcome, parse_levels, solve,
};
use tessera_core::{AnyState, Dir, Level, Pos, Rules};

/// The most nodes the solver gets to show that a push in `traps` still solves.
const TRAP_NODES: u64 = 5_000;

/// The measures, in print order.
const NAMES: [&str; 14] = [
    "pushes",
    "moves",
    "nodes",
    "detour",
    "nodes_per_push",
    "walk",
    "off_line",
    "goal_room",
    "dead",
    "greedy_undo",
    "combined",
    "traps",
    "box_lines",
    "box_changes",
];
/// The most pushes the greedy player makes.
const GREEDY_CAP: u64 = 20_000;
const FAR: u32 = u32::MAX / 4;
/// Up, down, left, right.
const DIRS: [(i32, i32); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

/// A board as the measures see it.
struct Board {
    w: usize,
    h: usize,
    wall: Vec<bool>,
    goals: Vec<usize>,
    /// `dist[g][c]`: pushes a box alone needs from `c` to goal `g`.
    dist: Vec<Vec<u32>>,
}

impl Board {
    fn new(s: &SokobanState) -> Board {
        let (w, h) = (s.cells().width() as usize, s.cells().height() as usize);
        let wall: Vec<bool> = s.cells().cells().iter().map(|c| *c == Cell::Wall).collect();
        let goals: Vec<usize> =
            s.cells().cells().iter().enumerate().filter(|(_, c)| **c == Cell::Goal).map(|(i, _)| i).collect();
        let mut b = Board { w, h, wall, goals, dist: Vec::new() };
        b.dist = b.goals.iter().map(|&g| b.pull(g)).collect();
        b
    }

    fn step(&self, c: usize, d: usize) -> Option<usize> {
        let (x, y) = ((c % self.w) as i32 + DIRS[d].0, (c / self.w) as i32 + DIRS[d].1);
        (x >= 0 && y >= 0 && (x as usize) < self.w && (y as usize) < self.h)
            .then(|| y as usize * self.w + x as usize)
            .filter(|&n| !self.wall[n])
    }

    /// Pushes from every cell to `goal` for a box alone (a backward pull search).
    fn pull(&self, goal: usize) -> Vec<u32> {
        let mut d = vec![FAR; self.w * self.h];
        d[goal] = 0;
        let mut queue = vec![goal];
        let mut head = 0;
        while head < queue.len() {
            let t = queue[head];
            head += 1;
            for k in 0..4 {
                // The box came from b = t - dir, pushed by a player at b - dir.
                let back = k ^ 1;
                let Some(b) = self.step(t, back) else { continue };
                if self.step(b, back).is_some() && d[b] == FAR {
                    d[b] = d[t] + 1;
                    queue.push(b);
                }
            }
        }
        d
    }

    fn dead(&self, c: usize) -> bool {
        self.dist.iter().all(|d| d[c] == FAR)
    }

    /// The least total push distance of boxes to distinct goals, and that matching (goal index
    /// per box), by exhaustive search (Boxoban has four boxes).
    fn matching(&self, boxes: &[usize]) -> (u32, Vec<usize>) {
        fn go(
            b: &Board,
            boxes: &[usize],
            i: usize,
            used: &mut Vec<bool>,
            cur: &mut Vec<usize>,
            acc: u32,
            best: &mut (u32, Vec<usize>),
        ) {
            if acc >= best.0 {
                return;
            }
            if i == boxes.len() {
                *best = (acc, cur.clone());
                return;
            }
            for g in 0..b.goals.len() {
                if !used[g] {
                    used[g] = true;
                    cur.push(g);
                    go(b, boxes, i + 1, used, cur, acc.saturating_add(b.dist[g][boxes[i]]), best);
                    cur.pop();
                    used[g] = false;
                }
            }
        }
        let mut best = (u32::MAX, Vec::new());
        go(self, boxes, 0, &mut vec![false; self.goals.len()], &mut Vec::new(), 0, &mut best);
        best
    }

    /// The cells the player reaches without pushing.
    fn reach(&self, player: usize, boxed: &[bool]) -> Vec<bool> {
        let mut seen = vec![false; self.w * self.h];
        seen[player] = true;
        let mut stack = vec![player];
        while let Some(c) = stack.pop() {
            for d in 0..4 {
                if let Some(n) = self.step(c, d)
                    && !seen[n]
                    && !boxed[n]
                {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        seen
    }
}

/// The greedy player's undone pushes (see the module docs).
fn greedy_undo(b: &Board, boxes0: &[usize], player0: usize) -> u64 {
    let n = b.w * b.h;
    let key = |boxes: &[usize], reach: &[bool]| {
        let mut k: Vec<usize> = boxes.to_vec();
        k.sort_unstable();
        k.push(reach.iter().position(|&r| r).unwrap_or(0));
        k
    };
    let mut seen: HashSet<Vec<usize>> = HashSet::new();
    // Each frame: the boxes, the player, the children still to try (best last).
    struct Frame {
        boxes: Vec<usize>,
        children: Vec<(Vec<usize>, usize)>,
    }
    let expand = |boxes: &[usize], player: usize, seen: &mut HashSet<Vec<usize>>| -> Option<Frame> {
        let mut boxed = vec![false; n];
        for &x in boxes {
            boxed[x] = true;
        }
        let reach = b.reach(player, &boxed);
        if !seen.insert(key(boxes, &reach)) {
            return None;
        }
        let mut children: Vec<(u32, usize, Vec<usize>, usize)> = Vec::new();
        for (i, &x) in boxes.iter().enumerate() {
            for d in 0..4 {
                let (Some(ahead), Some(behind)) = (b.step(x, d), b.step(x, d ^ 1)) else { continue };
                if boxed[ahead] || !reach[behind] || b.dead(ahead) {
                    continue;
                }
                let mut nb = boxes.to_vec();
                nb[i] = ahead;
                let (lb, _) = b.matching(&nb);
                children.push((lb, children.len(), nb, x));
            }
        }
        // Best (smallest bound, then first generated) last, so it is popped first.
        children.sort_by_key(|c| std::cmp::Reverse((c.0, c.1)));
        Some(Frame {
            boxes: boxes.to_vec(),
            children: children.into_iter().map(|(_, _, nb, p)| (nb, p)).collect(),
        })
    };
    let solved = |boxes: &[usize]| boxes.iter().all(|x| b.goals.contains(x));
    let mut stack = match expand(boxes0, player0, &mut seen) {
        Some(f) => vec![f],
        None => return 0,
    };
    let (mut made, mut undone) = (0u64, 0u64);
    while let Some(top) = stack.last_mut() {
        if solved(&top.boxes) {
            return undone;
        }
        match top.children.pop() {
            Some((nb, p)) => {
                made += 1;
                if made >= GREEDY_CAP {
                    return GREEDY_CAP;
                }
                match expand(&nb, p, &mut seen) {
                    Some(f) => stack.push(f),
                    None => undone += 1,
                }
            }
            None => {
                stack.pop();
                if !stack.is_empty() {
                    undone += 1;
                }
            }
        }
    }
    GREEDY_CAP
}

/// Deadlock near-misses along `solution` from `state` (see the module docs).
fn traps(b: &Board, state: &SokobanState, solution: &[SokobanCommand]) -> f64 {
    let rules = SokobanRules;
    let mut now = state.clone();
    let mut events = Vec::new();
    let mut count = 0u32;
    for cmd in solution {
        let pushes_before = now.pushes();
        let mut next = now.clone();
        if rules.apply(&mut next, cmd, &mut events).is_err() {
            break;
        }
        if next.pushes() > pushes_before {
            // `now` is the state before a push of the solution: try every other safe push.
            let n = b.w * b.h;
            let mut boxed = vec![false; n];
            for (i, x) in now.boxes().cells().iter().enumerate() {
                boxed[i] = x.is_some();
            }
            let player = now.player().y as usize * b.w + now.player().x as usize;
            let reach = b.reach(player, &boxed);
            for x in 0..n {
                if !boxed[x] {
                    continue;
                }
                for (d, dir) in Dir::ALL.into_iter().enumerate() {
                    let (Some(ahead), Some(behind)) = (b.step(x, d), b.step(x, d ^ 1)) else { continue };
                    if boxed[ahead] || !reach[behind] || b.dead(ahead) {
                        continue;
                    }
                    let at = |c: usize| Pos { x: (c % b.w) as u16, y: (c / b.w) as u16 };
                    let mut child = now.clone();
                    if behind != player
                        && rules.apply(&mut child, &SokobanCommand::Walk(at(behind)), &mut events).is_err()
                    {
                        continue;
                    }
                    if rules.apply(&mut child, &SokobanCommand::Step(dir), &mut events).is_err() {
                        continue;
                    }
                    // The solution's own push is no trap.
                    if child.boxes() == next.boxes() {
                        continue;
                    }
                    let r = solve(&child, SolveLimits { max_nodes: TRAP_NODES }, &mut || false);
                    if !matches!(r.outcome, SolveOutcome::Solved(_)) {
                        count += 1;
                    }
                }
            }
        }
        now = next;
    }
    f64::from(count)
}

/// The box lines and box changes of `solution` from `state` (see the module docs).
fn lines_and_changes(state: &SokobanState, solution: &[SokobanCommand]) -> (f64, f64) {
    let rules = SokobanRules;
    let mut now = state.clone();
    let mut events = Vec::new();
    let (mut lines, mut changes) = (0u32, 0u32);
    let mut last: Option<(tessera_core::Id, Dir)> = None;
    for cmd in solution {
        let before = now.pushes();
        if rules.apply(&mut now, cmd, &mut events).is_err() {
            break;
        }
        if let (SokobanCommand::Step(d), true) = (cmd, now.pushes() > before) {
            let pushed = now.player().step(*d, now.size()).and_then(|p| now.box_at(p));
            let Some(id) = pushed else { continue };
            match last {
                Some((b, dir)) if b == id && dir == *d => {}
                Some((b, _)) if b == id => lines += 1,
                _ => {
                    lines += 1;
                    changes += 1;
                }
            }
            last = Some((id, *d));
        }
    }
    (f64::from(lines), f64::from(changes))
}

/// The largest 4-connected group of goals.
fn goal_room(b: &Board) -> f64 {
    let mut seen = vec![false; b.w * b.h];
    let is_goal = |c: usize| b.goals.contains(&c);
    let mut best = 0;
    for &g in &b.goals {
        if seen[g] {
            continue;
        }
        seen[g] = true;
        let (mut stack, mut size) = (vec![g], 0);
        while let Some(c) = stack.pop() {
            size += 1;
            for d in 0..4 {
                if let Some(n) = b.step(c, d)
                    && is_goal(n)
                    && !seen[n]
                {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        best = best.max(size);
    }
    f64::from(best)
}

/// ROC AUC of `hi` above `lo` (ties half).
fn auc(lo: &[f64], hi: &[f64]) -> f64 {
    let mut wins = 0.0;
    for &h in hi {
        for &l in lo {
            wins += if h > l {
                1.0
            } else if h == l {
                0.5
            } else {
                0.0
            };
        }
    }
    wins / (lo.len() * hi.len()).max(1) as f64
}

/// Pooled percentile ranks (ties share their mean rank), in 0..=1.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; values.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && values[idx[j + 1]] == values[idx[i]] {
            j += 1;
        }
        let r = (i + j) as f64 / 2.0 / (values.len().max(2) - 1) as f64;
        for &k in &idx[i..=j] {
            out[k] = r;
        }
        i = j + 1;
    }
    out
}

fn main() {
    let (mut seconds, mut limit, mut per_level) = (10.0f64, usize::MAX, None::<String>);
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = args.next().and_then(|s| s.parse().ok()).unwrap_or(seconds),
            "--limit" => limit = args.next().and_then(|s| s.parse().ok()).unwrap_or(limit),
            "--per-level" => per_level = args.next(),
            _ => files.push(a),
        }
    }
    if files.len() != 3 {
        eprintln!("give the unfiltered, medium and hard files, in that order");
        std::process::exit(2);
    }
    let budget = Duration::from_secs_f64(seconds);
    // rows[set] = one Vec of measures per level (NAMES order, `combined` filled in later).
    let mut rows: Vec<Vec<Vec<f64>>> = Vec::new();
    let mut lines = String::new();
    for (set, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
            eprintln!("{file}: {e}");
            std::process::exit(2)
        });
        let levels = parse_levels(&text).unwrap_or_else(|e| {
            eprintln!("{file}: {e}");
            std::process::exit(2)
        });
        let mut out = Vec::new();
        for (name, level) in levels.iter().take(limit) {
            let Level::Sokoban(_) = level else { continue };
            let Ok(game) = level.start(None) else { continue };
            let AnyState::Sokoban(state) = game.state else { continue };
            let b = Board::new(&state);
            let boxes: Vec<usize> = state
                .boxes()
                .cells()
                .iter()
                .enumerate()
                .filter(|(_, x)| x.is_some())
                .map(|(i, _)| i)
                .collect();
            let player = state.player().y as usize * b.w + state.player().x as usize;
            let (lb, matched) = b.matching(&boxes);
            let t0 = Instant::now();
            let report = solve(&state, SolveLimits::default(), &mut || t0.elapsed() > budget);
            let (pushes, moves) = match &report.outcome {
                SolveOutcome::Solved(s) => (f64::from(s.pushes), f64::from(s.moves)),
                _ => (f64::INFINITY, f64::INFINITY),
            };
            let nodes = if pushes.is_finite() { report.nodes as f64 } else { f64::INFINITY };
            let off_line = boxes
                .iter()
                .zip(&matched)
                .filter(|(x, g)| {
                    let goal = b.goals[**g];
                    **x % b.w != goal % b.w && **x / b.w != goal / b.w
                })
                .count() as f64;
            let dead = (0..b.w * b.h).filter(|&c| !b.wall[c] && b.dead(c)).count() as f64;
            // An unsolved level is harder than every solved one in each solver measure.
            let solved = |v: f64| if pushes.is_finite() { v } else { f64::INFINITY };
            let m = vec![
                pushes,
                moves,
                nodes,
                solved(pushes - f64::from(lb)),
                solved(nodes / pushes.max(1.0)),
                solved(moves - pushes),
                off_line,
                goal_room(&b),
                dead,
                greedy_undo(&b, &boxes, player) as f64,
                0.0,
                match &report.outcome {
                    SolveOutcome::Solved(s) => traps(&b, &state, &s.commands),
                    _ => f64::INFINITY,
                },
            ];
            let (box_lines, box_changes) = match &report.outcome {
                SolveOutcome::Solved(s) => lines_and_changes(&state, &s.commands),
                _ => (f64::INFINITY, f64::INFINITY),
            };
            let mut m = m;
            m.extend([box_lines, box_changes]);
            if per_level.is_some() {
                let cols: Vec<String> =
                    m.iter().enumerate().filter(|(k, _)| *k != 10).map(|(_, v)| v.to_string()).collect();
                lines += &format!("{set}\t{name}\t{}\n", cols.join("\t"));
            }
            out.push(m);
        }
        rows.push(out);
    }
    // `combined`: the mean pooled rank of pushes, detour and nodes (fixed in advance).
    let pooled: Vec<&Vec<f64>> = rows.iter().flatten().collect();
    let rank_of = |k: usize| ranks(&pooled.iter().map(|m| m[k]).collect::<Vec<_>>());
    let (rp, rd, rn) = (rank_of(0), rank_of(3), rank_of(2));
    let mut i = 0;
    for set in rows.iter_mut() {
        for m in set.iter_mut() {
            m[10] = (rp[i] + rd[i] + rn[i]) / 3.0;
            i += 1;
        }
    }
    if let Some(path) = per_level {
        std::fs::write(&path, lines).unwrap_or_else(|e| eprintln!("{path}: {e}"));
    }
    let unsolved: Vec<usize> = rows.iter().map(|s| s.iter().filter(|m| !m[0].is_finite()).count()).collect();
    println!(
        "levels: unfiltered {}, medium {}, hard {} (unsolved in {seconds} s: {}, {}, {})",
        rows[0].len(),
        rows[1].len(),
        rows[2].len(),
        unsolved[0],
        unsolved[1],
        unsolved[2]
    );
    println!("{:<16}{:>22}{:>18}", "measure", "medium vs unfiltered", "hard vs medium");
    for (k, name) in NAMES.iter().enumerate() {
        let col = |s: usize| rows[s].iter().map(|m| m[k]).collect::<Vec<f64>>();
        println!("{name:<16}{:>22.3}{:>18.3}", auc(&col(0), &col(1)), auc(&col(1), &col(2)));
    }
}
