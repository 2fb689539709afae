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
//! - A fourth round, after the third round's figures were seen, committed before it was scored;
//!   nothing else changed. Its measures model a learner rather than an optimal search: a policy
//!   that prefers what looks closest to solved, with little lookahead. "Looks closest" is the
//!   matching bound `h` of `detour`; every search below is over push states (the boxes, the
//!   player's region), never pushes a box onto a dead square (no other deadlock test: a learner
//!   has to find frozen boxes out), and tries a position's pushes in a fixed order (boxes in
//!   row-major order of their cells, then up, down, left, right).
//!   - `gbfs_nodes`: greedy best-first search ordered by `h` alone (ties to the state generated
//!     first), with duplicate states dropped: the states it expands until it generates a solved
//!     one, capped at [`GBFS_CAP`] (the cap counts as the value). `gbfs_pushes`: the pushes of
//!     the solution it finds (infinite when capped).
//!   - `beam_width`: the narrowest beam, of widths 1, 2, 4, …, 1,024, that solves the level: a
//!     beam keeps the `w` children of its current layer with the least `h` (ties to the child
//!     generated first, parents taken best first), drops every state the same beam generated
//!     before (kept or not), and fails when it empties or passes [`BEAM_DEPTH`] pushes (a fixed
//!     cap, the same for every level, so the measure does not lean on the solver). Unsolved at
//!     1,024: 2,048. How many lines of play a greedy player must keep open.
//!   - Along the optimal solution (infinite when the solver did not finish): `plateau`, the
//!     pushes that do not decrease `h`; `max_climb`, the longest run of consecutive pushes that
//!     do not bring `h` below its least value so far (how far a greedy player must play
//!     without visible progress); `off_greedy`, the pushes whose `h` after is above the least
//!     `h` any push at that position gives (a push the greedy player would not pick). The
//!     solver returns one optimal solution of possibly several; these read that one.
//!   - `learner`: the mean of the pooled percentile ranks of `gbfs_nodes`, `beam_width` and
//!     `max_climb` (see below).
//!
//! **How `combined` was fixed.** Before any AUC was computed (the example was committed with
//! this formula first): three label-free views of difficulty a learner meets — a long solution
//! (`pushes`), a solution that departs from the obvious plan (`detour`), and one that needs
//! search (`nodes`) — weighted equally; ranks (over all levels of the three files pooled, no
//! labels) so that no scale dominates. Nothing in it is fitted to the sets' labels.
//!
//! **How `learner` was fixed.** Written into this file and committed, with the fourth round's
//! measures, before the fourth round was scored on any level; it was not changed after. Three
//! limits of a greedy learner, one measure each, weighted equally as pooled ranks (no labels),
//! as `combined` is: how much a searcher guided only by `h` must try (`gbfs_nodes`), how many
//! lines it must keep open at once (`beam_width`), and how long it must play without visible
//! progress (`max_climb`). Left out: `gbfs_pushes` (a solution length, which `pushes` already
//! is), and `plateau` and `off_greedy`, which count the same pushes `detour` weighs (a push
//! decreases `h` by at most 1, so `detour` is the sum over the solution's pushes of 0 for a
//! push that decreases `h` and 1 + the rise of `h` otherwise: `plateau` ≤ `detour`). No
//! measure of the earlier rounds is in it, so it tests this round's idea alone.
//!
//! **Results** (the full run below, the three files, 1,000 levels each, every level solved
//! within 10 s; the fourth round scored once, after its commit; the figures of the earlier
//! measures are the same as in their rounds). AUC of medium vs unfiltered, of hard vs medium:
//!
//! ```text
//! measure           medium vs unfiltered    hard vs medium
//! pushes                           0.724             0.589
//! moves                            0.747             0.580
//! nodes                            0.809             0.641
//! detour                           0.726             0.636
//! nodes_per_push                   0.792             0.640
//! walk                             0.732             0.571
//! off_line                         0.486             0.518
//! goal_room                        0.515             0.522
//! dead                             0.539             0.482
//! greedy_undo                      0.749             0.585
//! combined                         0.807             0.645
//! traps                            0.774             0.589
//! box_lines                        0.676             0.620
//! box_changes                      0.679             0.625
//! gbfs_nodes                       0.804             0.625
//! gbfs_pushes                      0.725             0.592
//! beam_width                       0.798             0.626
//! plateau                          0.725             0.635
//! max_climb                        0.722             0.632
//! off_greedy                       0.691             0.606
//! learner                          0.826             0.651
//! ```
//!
//! The issue's targets (0.85 and 0.70) are met by no measure and by neither combination. The
//! fourth round's `learner` is the best of all on both (0.826, 0.651), above `nodes` and
//! `combined` by about 0.02 (medium vs unfiltered) and 0.01 (hard vs medium): small gains, an
//! AUC over 1,000 × 1,000 levels having a standard error of about 0.01. Of its parts,
//! `gbfs_nodes` (0.804, 0.625) and `beam_width` (0.798, 0.626) come close to `nodes` on medium
//! vs unfiltered but not on hard vs medium, and the counts along the optimal solution
//! (`plateau`, `max_climb`, `off_greedy`) read like `detour`. No level reached [`GBFS_CAP`] or
//! needed a beam wider than 1,024; the longest optimal solution has 44 pushes. The run took
//! 48 s of wall time (2 shared cores).
//!
//! A level the solver does not finish in `--seconds` (default 10) counts as harder than every
//! solved level in every solver measure. `--limit N` measures only the first N levels of each
//! file. `--per-level FILE` writes one tab-separated line per level: the set (0 unfiltered,
//! 1 medium, 2 hard), the level, then the measures in print order without `combined` and
//! `learner`.
//!
//! ```text
//! cargo run --release -p tessera-core --example sokoban_auc -- \
//!     ../shared/benchmarks/boxoban/unfiltered_test_000.txt \
//!     ../shared/benchmarks/boxoban/medium_valid_000.txt \
//!     ../shared/benchmarks/boxoban/hard_000.txt
//! ```

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::time::{Duration, Instant};
use tessera_core::sokoban::{
    Cell, SokobanCommand, SokobanRules, SokobanState, SolveLimits, SolveOutcome, parse_levels, solve,
};
use tessera_core::{AnyState, Dir, Level, Pos, Rules};

/// The most nodes the solver gets to show that a push in `traps` still solves.
const TRAP_NODES: u64 = 5_000;

/// The measures, in print order.
const NAMES: [&str; 21] = [
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
    "gbfs_nodes",
    "gbfs_pushes",
    "beam_width",
    "plateau",
    "max_climb",
    "off_greedy",
    "learner",
];
/// Where `learner` sits in [`NAMES`].
const LEARNER: usize = 20;
/// The most states greedy best-first search expands (`gbfs_nodes`): at a few microseconds a
/// state, a fraction of a second for a level that reaches it.
const GBFS_CAP: u64 = 20_000;
/// The deepest a beam goes, in pushes (`beam_width`).
const BEAM_DEPTH: usize = 120;

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

/// One push state for the fourth round's measures: the boxes' cells (sorted) and the player's
/// cell.
#[derive(Clone)]
struct PushState {
    boxes: Vec<usize>,
    player: usize,
}

impl PushState {
    fn solved(&self, b: &Board) -> bool {
        self.boxes.iter().all(|x| b.goals.contains(x))
    }

    /// The boxes' occupancy of the board.
    fn boxed(&self, b: &Board) -> Vec<bool> {
        let mut boxed = vec![false; b.w * b.h];
        for &x in &self.boxes {
            boxed[x] = true;
        }
        boxed
    }

    /// The state's identity: the sorted boxes, then the smallest cell of the player's region.
    fn key(&self, b: &Board) -> Vec<usize> {
        let reach = b.reach(self.player, &self.boxed(b));
        let mut k = self.boxes.clone();
        k.push(reach.iter().position(|&r| r).unwrap_or(0));
        k
    }

    /// Every push the player can make that does not put a box on a dead square, in a fixed
    /// order (boxes in row-major order, then up, down, left, right), each with the state it
    /// makes and that state's matching bound.
    fn children(&self, b: &Board) -> Vec<(PushState, u32)> {
        let boxed = self.boxed(b);
        let reach = b.reach(self.player, &boxed);
        let mut out = Vec::new();
        for (i, &x) in self.boxes.iter().enumerate() {
            for d in 0..4 {
                let (Some(ahead), Some(behind)) = (b.step(x, d), b.step(x, d ^ 1)) else { continue };
                if boxed[ahead] || !reach[behind] || b.dead(ahead) {
                    continue;
                }
                let mut boxes = self.boxes.clone();
                boxes[i] = ahead;
                boxes.sort_unstable();
                let h = b.matching(&boxes).0;
                out.push((PushState { boxes, player: x }, h));
            }
        }
        out
    }
}

/// `gbfs_nodes` and `gbfs_pushes`: greedy best-first search ordered by the matching bound
/// alone, ties to the state generated first (see the module docs). Unsolved within
/// [`GBFS_CAP`] expansions: ([`GBFS_CAP`], infinity).
fn gbfs(b: &Board, start: &PushState) -> (f64, f64) {
    if start.solved(b) {
        return (0.0, 0.0);
    }
    // Per generated state: the state and its pushes from the start.
    let mut states: Vec<(PushState, u32)> = vec![(start.clone(), 0)];
    let mut seen: HashSet<Vec<usize>> = HashSet::from([start.key(b)]);
    let mut open = BinaryHeap::from([Reverse((b.matching(&start.boxes).0, 0usize))]);
    let mut expanded = 0u64;
    while let Some(Reverse((_, id))) = open.pop() {
        expanded += 1;
        if expanded > GBFS_CAP {
            break;
        }
        let (s, g) = states[id].clone();
        for (child, h) in s.children(b) {
            if child.solved(b) {
                return (expanded as f64, f64::from(g + 1));
            }
            if seen.insert(child.key(b)) {
                open.push(Reverse((h, states.len())));
                states.push((child, g + 1));
            }
        }
    }
    (GBFS_CAP as f64, f64::INFINITY)
}

/// `beam_width`: the narrowest beam, of widths 1, 2, 4, …, 1,024, that solves the level (see
/// the module docs); 2,048 when none does within [`BEAM_DEPTH`] pushes. At most
/// [`BEAM_DEPTH`] × 2,047 states expanded.
fn beam_width(b: &Board, start: &PushState) -> f64 {
    if start.solved(b) {
        return 1.0;
    }
    let mut w = 1usize;
    while w <= 1024 {
        let mut seen: HashSet<Vec<usize>> = HashSet::from([start.key(b)]);
        let mut layer = vec![start.clone()];
        for _ in 0..BEAM_DEPTH {
            // Candidates in generation order (best parent first), then kept by bound.
            let mut next: Vec<(u32, usize, PushState)> = Vec::new();
            for s in &layer {
                for (child, h) in s.children(b) {
                    if child.solved(b) {
                        return w as f64;
                    }
                    if seen.insert(child.key(b)) {
                        next.push((h, next.len(), child));
                    }
                }
            }
            next.sort_by_key(|c| (c.0, c.1));
            next.truncate(w);
            if next.is_empty() {
                break;
            }
            layer = next.into_iter().map(|c| c.2).collect();
        }
        w *= 2;
    }
    2048.0
}

/// `plateau`, `max_climb` and `off_greedy` along `solution` from `state` (see the module docs).
fn along(b: &Board, state: &SokobanState, solution: &[SokobanCommand]) -> (f64, f64, f64) {
    let rules = SokobanRules;
    let mut now = state.clone();
    let mut events = Vec::new();
    let push_state = |s: &SokobanState| PushState {
        boxes: s.boxes().cells().iter().enumerate().filter(|(_, x)| x.is_some()).map(|(i, _)| i).collect(),
        player: s.player().y as usize * b.w + s.player().x as usize,
    };
    let mut h = b.matching(&push_state(&now).boxes).0;
    let (mut least, mut run) = (h, 0u32);
    let (mut plateau, mut max_climb, mut off_greedy) = (0u32, 0u32, 0u32);
    for cmd in solution {
        let before = push_state(&now);
        let pushes = now.pushes();
        if rules.apply(&mut now, cmd, &mut events).is_err() {
            break;
        }
        if now.pushes() == pushes {
            continue;
        }
        let after = b.matching(&push_state(&now).boxes).0;
        let best = before.children(b).iter().map(|c| c.1).min().unwrap_or(after);
        off_greedy += u32::from(after > best);
        plateau += u32::from(after >= h);
        if after < least {
            least = after;
            run = 0;
        } else {
            run += 1;
            max_climb = max_climb.max(run);
        }
        h = after;
    }
    (f64::from(plateau), f64::from(max_climb), f64::from(off_greedy))
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
            let start = PushState { boxes: boxes.clone(), player };
            let (gbfs_nodes, gbfs_pushes) = gbfs(&b, &start);
            let (plateau, max_climb, off_greedy) = match &report.outcome {
                SolveOutcome::Solved(s) => along(&b, &state, &s.commands),
                _ => (f64::INFINITY, f64::INFINITY, f64::INFINITY),
            };
            m.extend([gbfs_nodes, gbfs_pushes, beam_width(&b, &start), plateau, max_climb, off_greedy, 0.0]);
            if per_level.is_some() {
                let cols: Vec<String> = m
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| *k != 10 && *k != LEARNER)
                    .map(|(_, v)| v.to_string())
                    .collect();
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
    // `learner`: the mean pooled rank of gbfs_nodes, beam_width and max_climb (fixed in advance,
    // fourth round).
    let (rg, rb, rc) = (rank_of(14), rank_of(16), rank_of(18));
    let mut i = 0;
    for set in rows.iter_mut() {
        for m in set.iter_mut() {
            m[10] = (rp[i] + rd[i] + rn[i]) / 3.0;
            m[LEARNER] = (rg[i] + rb[i] + rc[i]) / 3.0;
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
