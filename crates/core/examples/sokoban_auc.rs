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
//! - A fifth round, after the fourth round's figures were seen, committed before it was scored;
//!   nothing else changed. The Boxoban sets were filtered by what *trained* agents failed, so
//!   this round models the learner by learning: a value is trained, before any shared level is
//!   read, on levels the example generates itself, and the measures are how much play guided
//!   by it struggles on each shared level. Nothing about the shared files (no level, no label,
//!   no statistic) enters the training; its seed ([`TRAIN_SEED`]) is fixed, so it is
//!   deterministic, and it takes a few seconds of each run.
//!   - *Training levels* ([`boxoban_like`]): Boxoban's generator in spirit, since core's
//!     generator makes open random rooms, not Boxoban's. A 10×10 room is carved by a walker
//!     of 30 steps (it turns with probability 0.35) that opens one of Boxoban's five 3×3
//!     masks around itself each step; rooms with fewer than 12 floor cells are dropped. Four
//!     goals and the player go on random floor cells; the boxes start on the goals. Then
//!     [`REVERSE_PLAYS`] random reverse plays of [`REVERSE_STEPS`] moves each (the player steps
//!     at random and pulls the box behind it, when there is one) are made, and of every state
//!     they pass with all four boxes off the goals, the one with the highest Boxoban score,
//!     box swaps × total box displacement (Manhattan, each box from its own goal), is the
//!     level (about the 300,000 states Boxoban's search looks at). Levels the solver does not
//!     solve in [`GEN_NODES`] nodes are dropped. [`TRAIN_LEVELS`] levels are fitted on; the
//!     next [`HELD_OUT_LEVELS`] of the same stream only give the held-out error. They are
//!     shorter than Boxoban's (the run prints their optimal pushes: mean about 11).
//!   - *Labelled states* ([`label_level`]): every state before a push of a level's optimal
//!     solution, with its cost-to-go (the optimal pushes left: a suffix of an optimal solution
//!     is optimal); and from each of them one other push chosen at random (never onto a dead
//!     square), labelled by the solver: its optimal pushes, or [`DEAD_COST`] when the solver
//!     proves it unsolvable; left out when undecided within [`LABEL_NODES`] nodes.
//!   - *Features* ([`features`], of a push state): 1 (bias); the matching bound `h` (capped at
//!     [`DEAD_COST`]); boxes off goals; of those, boxes with a wall beside them, boxes between
//!     two walls (in a row or a column), boxes beside another box; 2×2 squares of walls and
//!     boxes holding a box off its goal (frozen boxes); the share of the floor the player
//!     reaches; the pushes the player can make (not onto a dead square).
//!   - *Fit* ([`fit`]): least squares of the labels on the features, with a ridge penalty of
//!     [`RIDGE`] × the number of states on every weight but the bias, solved exactly (normal
//!     equations, Gaussian elimination). The run prints the weights and the mean absolute and
//!     root-mean-square errors on the held-out levels' states, beside those of `h` alone and of
//!     the training mean.
//!   - `learned_value`: the learned value of the level's start.
//!   - `learned_gbfs_nodes`: `gbfs_nodes` with the learned value in place of `h` (the same
//!     search, push order, tie rule and [`GBFS_CAP`]).
//!   - `learned_beam_width`: `beam_width` with the learned value in place of `h` (the same
//!     widths, [`BEAM_DEPTH`] and 2,048 when unsolved).
//!   - `learned_off_greedy`: `off_greedy` with the learned value: the pushes of the optimal
//!     solution (but the last, solving one) after which the learned value is above the least
//!     value any push at that position gives (infinite when the solver did not finish).
//!   - `learned`: the mean of the pooled percentile ranks of `learned_gbfs_nodes`,
//!     `learned_beam_width` and `learned_off_greedy`; `ensemble`: the mean of the pooled
//!     percentile ranks of `nodes`, `learner` and `learned` (see below).
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
//! **How `learned` and `ensemble` were fixed.** Written into this file and committed, with the
//! fifth round's measures and its training, before the fifth round was scored on any level
//! (only `--limit 20` runs checked that the code works; their AUCs chose nothing); not changed
//! after. `learned` mirrors `learner` with the trained value in place of `h`: how much a
//! searcher guided by it must try, how many lines it must keep open, and how often optimal play
//! goes against its preference, weighted equally as pooled ranks (no labels). `learned_value`
//! is left out: it estimates a solution length, which `pushes` already is. `ensemble` weighs
//! equally three models of difficulty: the optimal search's effort (`nodes`), the hand-made
//! greedy learner (`learner`) and the trained one (`learned`), as pooled ranks. Its parts were
//! chosen knowing that `nodes` and `learner` scored best of the first four rounds, so it is
//! not free of the earlier figures; its form (equal weights of ranks) was fixed before scoring.
//!
//! **Results** (the full run below, the three files, 1,000 levels each, every level solved
//! within 10 s; the fifth round scored once, after its commit; the figures of the earlier
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
//! learned_value                    0.685             0.501
//! learned_gbfs_nodes               0.783             0.642
//! learned_beam_width               0.806             0.643
//! learned_off_greedy               0.547             0.559
//! learned                          0.767             0.641
//! ensemble                         0.827             0.657
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
//! The fifth round meets neither target either. The trained value (fitted on 5,627 states of
//! 300 generated levels, 561 of them proved dead; weights: bias 3.05, `h` 0.67, boxes off goals
//! 1.49, against a wall 0.11, between walls −0.10, beside a box −0.29, 2×2 frozen squares
//! 21.1, reached floor share 2.98, pushes −0.82) has on the 1,770 states of 100 held-out
//! generated levels a mean absolute error of 4.06 pushes (RMSE 7.45), against 2.80 (9.33) for
//! `h` alone and 6.96 (10.46) for the training mean; on the 1,606 solvable ones 2.44 (2.87)
//! against `h`'s 0.29 (1.02): it has learned to see frozen boxes, at the price of estimating
//! solvable states worse than `h` does. Guided by it, the beam (`learned_beam_width`, 0.806,
//! 0.643) and best-first search (`learned_gbfs_nodes`, 0.783, 0.642) score near their
//! `h`-guided versions (0.798, 0.626 and 0.804, 0.625): about 0.017 higher on hard vs medium,
//! some two standard errors of one AUC, and 0.008 higher or 0.021 lower on medium vs
//! unfiltered; the value of the start (`learned_value`, 0.685, 0.501) says nothing of hard vs
//! medium, and
//! `learned_off_greedy` (0.547, 0.559) little of anything, so `learned` (0.767, 0.641) is
//! below `learner`. `ensemble` (0.827, 0.657) is the best of all five rounds on both, by less
//! than the error over `learner`. Hard vs medium stays near 0.65 for every view. The run took
//! 62 s of wall time (2 shared cores, the training 2.3 s of it); its printout shifts the rows
//! of the three longest names two columns right.
//!
//! A level the solver does not finish in `--seconds` (default 10) counts as harder than every
//! solved level in every solver measure. `--limit N` measures only the first N levels of each
//! file. `--per-level FILE` writes one tab-separated line per level: the set (0 unfiltered,
//! 1 medium, 2 hard), the level, then the measures in print order without `combined`,
//! `learner`, `learned` and `ensemble`.
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
    Cell, SokobanCommand, SokobanRules, SokobanState, SolveLimits, SolveOutcome, parse_board, parse_levels,
    solve,
};
use tessera_core::{AnyState, Dir, GameRng, Level, Pos, Rules};

/// The most nodes the solver gets to show that a push in `traps` still solves.
const TRAP_NODES: u64 = 5_000;

/// The measures, in print order.
const NAMES: [&str; 27] = [
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
    "learned_value",
    "learned_gbfs_nodes",
    "learned_beam_width",
    "learned_off_greedy",
    "learned",
    "ensemble",
];
/// Where `learner` sits in [`NAMES`].
const LEARNER: usize = 20;
/// Where the fifth round's combinations `learned` and `ensemble` sit in [`NAMES`].
const LEARNED: usize = 25;
const ENSEMBLE: usize = 26;
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
                    let r = solve(&child, SolveLimits::nodes(TRAP_NODES), &mut || false);
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

// ---------------------------------------------------------------------------------------------
// The fifth round: a learned value (see the module docs).

/// The training generator's seed (levels for fitting, then held-out levels, one stream).
const TRAIN_SEED: u64 = 0x0005_eed5;
/// Generated levels the value is fitted on.
const TRAIN_LEVELS: usize = 300;
/// Generated levels after those, for the held-out error only.
const HELD_OUT_LEVELS: usize = 100;
/// The cost-to-go a state gets when the solver proves it unsolvable.
const DEAD_COST: f64 = 40.0;
/// The solver's node budget for labelling a perturbed state (undecided: not used).
const LABEL_NODES: u64 = 5_000;
/// The solver's node budget for a generated level (unsolved: the level is dropped).
const GEN_NODES: u64 = 200_000;
/// Ridge penalty of the least-squares fit (on every weight but the bias).
const RIDGE: f64 = 1e-3;
/// Random reverse plays per generated room; the best-scoring state of all of them is kept.
const REVERSE_PLAYS: usize = 300;
/// Reverse moves per reverse play.
const REVERSE_STEPS: usize = 1000;
/// The learned features, in [`features`] order.
const FEATURES: [&str; 9] = [
    "bias",
    "bound",
    "off_goal",
    "against_wall",
    "in_corridor",
    "touching",
    "blocks_2x2",
    "reach_frac",
    "pushable",
];
const NF: usize = FEATURES.len();

/// A linear value over [`features`]: estimated pushes to solve.
struct Model {
    w: [f64; NF],
}

impl Model {
    fn value(&self, b: &Board, s: &PushState) -> f64 {
        features(b, s).iter().zip(&self.w).map(|(f, w)| f * w).sum()
    }
}

/// The features of a push state (see the module docs).
fn features(b: &Board, s: &PushState) -> [f64; NF] {
    let boxed = s.boxed(b);
    let reach = b.reach(s.player, &boxed);
    let bound = f64::from(b.matching(&s.boxes).0).min(DEAD_COST);
    let is_goal = |c: usize| b.goals.contains(&c);
    let off: Vec<usize> = s.boxes.iter().copied().filter(|&c| !is_goal(c)).collect();
    let wall = |c: usize, d: usize| b.step(c, d).is_none();
    let against = off.iter().filter(|&&c| (0..4).any(|d| wall(c, d))).count();
    let corridor = off.iter().filter(|&&c| (wall(c, 0) && wall(c, 1)) || (wall(c, 2) && wall(c, 3))).count();
    let touching = off.iter().filter(|&&c| (0..4).any(|d| b.step(c, d).is_some_and(|n| boxed[n]))).count();
    // 2×2 squares of walls and boxes holding a box off its goal: such boxes never move again.
    let mut blocks = 0;
    for y in 0..b.h.saturating_sub(1) {
        for x in 0..b.w.saturating_sub(1) {
            let cells = [y * b.w + x, y * b.w + x + 1, (y + 1) * b.w + x, (y + 1) * b.w + x + 1];
            if cells.iter().all(|&c| b.wall[c] || boxed[c]) && cells.iter().any(|&c| boxed[c] && !is_goal(c))
            {
                blocks += 1;
            }
        }
    }
    let floor = b.wall.iter().filter(|w| !**w).count().max(1);
    let reached = reach.iter().filter(|r| **r).count();
    let mut pushable = 0;
    for &x in &s.boxes {
        for d in 0..4 {
            let (Some(ahead), Some(behind)) = (b.step(x, d), b.step(x, d ^ 1)) else { continue };
            if !boxed[ahead] && reach[behind] && !b.dead(ahead) {
                pushable += 1;
            }
        }
    }
    [
        1.0,
        bound,
        off.len() as f64,
        against as f64,
        corridor as f64,
        touching as f64,
        f64::from(blocks),
        reached as f64 / floor as f64,
        f64::from(pushable),
    ]
}

/// A Boxoban-like 10×10 level with four boxes (see the module docs), or `None` when the room
/// does not take one.
fn boxoban_like(rng: &mut GameRng) -> Option<Vec<String>> {
    const N: usize = 10;
    // The room-carving masks of Boxoban's generator (3×3, centred on the walker).
    const MASKS: [[[bool; 3]; 3]; 5] = [
        [[false, false, false], [true, true, true], [false, false, false]],
        [[false, true, false], [false, true, false], [false, true, false]],
        [[false, false, false], [true, true, false], [false, true, false]],
        [[false, false, false], [true, true, false], [true, true, false]],
        [[false, false, false], [false, true, true], [false, true, false]],
    ];
    let mut floor = [[false; N]; N];
    let (mut x, mut y) = (1 + rng.below(8) as i32, 1 + rng.below(8) as i32);
    let mut dir = DIRS[rng.below(4) as usize];
    for _ in 0..30 {
        if rng.chance(35, 100) {
            dir = DIRS[rng.below(4) as usize];
        }
        x = (x + dir.0).clamp(1, 8);
        y = (y + dir.1).clamp(1, 8);
        for (dy, row) in MASKS[rng.below(5) as usize].iter().enumerate() {
            for (dx, &m) in row.iter().enumerate() {
                let (cx, cy) = (x + dx as i32 - 1, y + dy as i32 - 1);
                if m && (1..=8).contains(&cx) && (1..=8).contains(&cy) {
                    floor[cy as usize][cx as usize] = true;
                }
            }
        }
    }
    let mut cells: Vec<usize> = (0..N * N).filter(|&c| floor[c / N][c % N]).collect();
    if cells.len() < 12 {
        return None;
    }
    rng.shuffle(&mut cells);
    let goals: Vec<usize> = cells[..4].to_vec();
    let step = |c: usize, d: usize| {
        let (nx, ny) = ((c % N) as i32 + DIRS[d].0, (c / N) as i32 + DIRS[d].1);
        let n = ny as usize * N + nx as usize;
        floor[ny as usize][nx as usize].then_some(n)
    };
    // Reverse play: the player walks at random and pulls the box behind it; the state with the
    // most box swaps × total box displacement, every box off the goals, is kept.
    let mut best: Option<(u64, Vec<usize>, usize)> = None;
    for _ in 0..REVERSE_PLAYS {
        let (mut boxes, mut player) = (goals.clone(), cells[4]);
        let (mut swaps, mut last) = (0u64, None);
        for _ in 0..REVERSE_STEPS {
            let d = rng.below(4) as usize;
            let Some(to) = step(player, d) else { continue };
            if boxes.contains(&to) {
                continue;
            }
            if let Some(behind) = step(player, d ^ 1)
                && let Some(i) = boxes.iter().position(|&c| c == behind)
            {
                boxes[i] = player;
                if last != Some(i) {
                    swaps += 1;
                    last = Some(i);
                }
            }
            player = to;
            if boxes.iter().any(|c| goals.contains(c)) {
                continue;
            }
            let moved: u64 = boxes
                .iter()
                .zip(&goals)
                .map(|(&c, &g)| ((c % N).abs_diff(g % N) + (c / N).abs_diff(g / N)) as u64)
                .sum();
            if best.as_ref().is_none_or(|b| swaps * moved > b.0) {
                best = Some((swaps * moved, boxes.clone(), player));
            }
        }
    }
    let (_, boxes, player) = best?;
    let rows = (0..N)
        .map(|y| {
            (0..N)
                .map(|x| {
                    let c = y * N + x;
                    match (floor[y][x], goals.contains(&c), boxes.contains(&c), c == player) {
                        (false, ..) => '#',
                        (_, true, _, true) => '+',
                        (_, false, _, true) => '@',
                        (_, _, true, _) => '$',
                        (_, true, ..) => '.',
                        _ => ' ',
                    }
                })
                .collect()
        })
        .collect();
    Some(rows)
}

/// A board's push state from a game state.
fn push_state_of(b: &Board, s: &SokobanState) -> PushState {
    PushState {
        boxes: s.boxes().cells().iter().enumerate().filter(|(_, x)| x.is_some()).map(|(i, _)| i).collect(),
        player: s.player().y as usize * b.w + s.player().x as usize,
    }
}

/// Labelled states of one generated level: each state before a push of the optimal solution
/// (cost-to-go: the pushes left), and one other safe push from it chosen at random, labelled
/// by the solver (its optimal pushes, [`DEAD_COST`] when proved unsolvable, left out when
/// undecided in [`LABEL_NODES`] nodes). The level's optimal pushes; `None` when the solver
/// does not solve it.
fn label_level(state: &SokobanState, rng: &mut GameRng, out: &mut Vec<([f64; NF], f64)>) -> Option<u32> {
    let b = Board::new(state);
    let SolveOutcome::Solved(sol) = solve(state, SolveLimits::nodes(GEN_NODES), &mut || false).outcome else {
        return None;
    };
    let rules = SokobanRules;
    let mut events = Vec::new();
    let mut now = state.clone();
    for cmd in &sol.commands {
        let before = now.pushes();
        let mut next = now.clone();
        if rules.apply(&mut next, cmd, &mut events).is_err() {
            break;
        }
        if next.pushes() > before {
            out.push((features(&b, &push_state_of(&b, &now)), f64::from(sol.pushes - before)));
            // The other safe pushes from here.
            let ps = push_state_of(&b, &now);
            let boxed = ps.boxed(&b);
            let reach = b.reach(ps.player, &boxed);
            let mut others = Vec::new();
            for &x in &ps.boxes {
                for (d, dir) in Dir::ALL.into_iter().enumerate() {
                    let (Some(ahead), Some(behind)) = (b.step(x, d), b.step(x, d ^ 1)) else { continue };
                    if !boxed[ahead] && reach[behind] && !b.dead(ahead) {
                        others.push((behind, dir));
                    }
                }
            }
            if !others.is_empty() {
                let (behind, dir) = others[rng.below(others.len() as u32) as usize];
                let at = Pos { x: (behind % b.w) as u16, y: (behind / b.w) as u16 };
                let mut child = now.clone();
                let walked = behind == ps.player
                    || rules.apply(&mut child, &SokobanCommand::Walk(at), &mut events).is_ok();
                if walked
                    && rules.apply(&mut child, &SokobanCommand::Step(dir), &mut events).is_ok()
                    && child.boxes() != next.boxes()
                {
                    let r = solve(&child, SolveLimits::nodes(LABEL_NODES), &mut || false);
                    let target = match r.outcome {
                        SolveOutcome::Solved(s) => Some(f64::from(s.pushes)),
                        SolveOutcome::Unsolvable => Some(DEAD_COST),
                        SolveOutcome::Stopped | SolveOutcome::OutOfMemory => None,
                    };
                    if let Some(t) = target {
                        out.push((features(&b, &push_state_of(&b, &child)), t));
                    }
                }
            }
        }
        now = next;
    }
    Some(sol.pushes)
}

/// Generates `n` solvable Boxoban-like levels from `rng` and labels their states; also the
/// levels' optimal pushes.
fn labelled(rng: &mut GameRng, n: usize) -> (Vec<([f64; NF], f64)>, Vec<u32>) {
    let mut out = Vec::new();
    let mut pushes = Vec::new();
    while pushes.len() < n {
        let Some(rows) = boxoban_like(rng) else { continue };
        let Ok(state) = parse_board(&rows, 0) else { continue };
        if let Some(p) = label_level(&state, rng, &mut out) {
            pushes.push(p);
        }
    }
    (out, pushes)
}

/// Least squares with a ridge penalty: solves (XᵀX + λI′) w = Xᵀy by Gaussian elimination.
fn fit(data: &[([f64; NF], f64)]) -> [f64; NF] {
    let mut a = [[0.0f64; NF + 1]; NF];
    for (x, y) in data {
        for i in 0..NF {
            for j in 0..NF {
                a[i][j] += x[i] * x[j];
            }
            a[i][NF] += x[i] * y;
        }
    }
    for (i, row) in a.iter_mut().enumerate().skip(1) {
        row[i] += RIDGE * data.len() as f64;
    }
    for col in 0..NF {
        let pivot = (col..NF).max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-12 {
            continue;
        }
        for row in 0..NF {
            if row != col {
                let f = a[row][col] / d;
                let pivot_row = a[col];
                for (k, v) in a[row].iter_mut().enumerate() {
                    *v -= f * pivot_row[k];
                }
            }
        }
    }
    let mut w = [0.0; NF];
    for i in 0..NF {
        w[i] = if a[i][i].abs() < 1e-12 { 0.0 } else { a[i][NF] / a[i][i] };
    }
    w
}

/// Trains the value (see the module docs) and prints the fit and its held-out error.
fn train() -> Model {
    let t0 = Instant::now();
    let mut rng = GameRng::new(TRAIN_SEED);
    let (train, pushes) = labelled(&mut rng, TRAIN_LEVELS);
    let (held, _) = labelled(&mut rng, HELD_OUT_LEVELS);
    let mut sorted = pushes.clone();
    sorted.sort_unstable();
    println!(
        "generated levels' optimal pushes: mean {:.1}, median {}, max {}",
        f64::from(pushes.iter().sum::<u32>()) / pushes.len().max(1) as f64,
        sorted.get(sorted.len() / 2).copied().unwrap_or(0),
        sorted.last().copied().unwrap_or(0)
    );
    let model = Model { w: fit(&train) };
    let err = |data: &[([f64; NF], f64)], f: &dyn Fn(&[f64; NF]) -> f64| {
        let n = data.len().max(1) as f64;
        let mae = data.iter().map(|(x, y)| (f(x) - y).abs()).sum::<f64>() / n;
        let rmse = (data.iter().map(|(x, y)| (f(x) - y).powi(2)).sum::<f64>() / n).sqrt();
        (mae, rmse)
    };
    let mean = train.iter().map(|d| d.1).sum::<f64>() / train.len().max(1) as f64;
    let linear = |x: &[f64; NF]| x.iter().zip(&model.w).map(|(a, b)| a * b).sum::<f64>();
    let solvable: Vec<_> = held.iter().copied().filter(|d| d.1 < DEAD_COST).collect();
    println!(
        "training: {} generated levels, {} states ({} proved dead); held out: {} levels, {} states ({} dead); {:.1} s",
        TRAIN_LEVELS,
        train.len(),
        train.iter().filter(|d| d.1 >= DEAD_COST).count(),
        HELD_OUT_LEVELS,
        held.len(),
        held.len() - solvable.len(),
        t0.elapsed().as_secs_f64()
    );
    let weights: Vec<String> = FEATURES.iter().zip(&model.w).map(|(n, w)| format!("{n} {w:.3}")).collect();
    println!("weights: {}", weights.join(", "));
    for (what, data) in [("all held-out states", &held), ("solvable held-out states", &solvable)] {
        let (m1, r1) = err(data, &linear);
        let (m2, r2) = err(data, &|x| x[1]);
        let (m3, r3) = err(data, &|_| mean);
        println!(
            "{what}: learned MAE {m1:.2} RMSE {r1:.2}; bound MAE {m2:.2} RMSE {r2:.2}; training mean MAE {m3:.2} RMSE {r3:.2}"
        );
    }
    model
}

/// A state's children (as [`PushState::children`]) with their learned values.
fn learned_children(b: &Board, m: &Model, s: &PushState) -> Vec<(PushState, f64)> {
    s.children(b)
        .into_iter()
        .map(|(c, _)| {
            let v = m.value(b, &c);
            (c, v)
        })
        .collect()
}

/// A learned value as a total order key (ties to the state generated first, as in round four).
fn order(v: f64) -> i64 {
    (v * 1e6).round() as i64
}

/// `learned_gbfs_nodes`: [`gbfs`] ordered by the learned value instead of the bound.
fn learned_gbfs(b: &Board, m: &Model, start: &PushState) -> f64 {
    if start.solved(b) {
        return 0.0;
    }
    let mut states: Vec<PushState> = vec![start.clone()];
    let mut seen: HashSet<Vec<usize>> = HashSet::from([start.key(b)]);
    let mut open = BinaryHeap::from([Reverse((order(m.value(b, start)), 0usize))]);
    let mut expanded = 0u64;
    while let Some(Reverse((_, id))) = open.pop() {
        expanded += 1;
        if expanded > GBFS_CAP {
            break;
        }
        let s = states[id].clone();
        for (child, v) in learned_children(b, m, &s) {
            if child.solved(b) {
                return expanded as f64;
            }
            if seen.insert(child.key(b)) {
                open.push(Reverse((order(v), states.len())));
                states.push(child);
            }
        }
    }
    GBFS_CAP as f64
}

/// `learned_beam_width`: [`beam_width`] keeping the children of least learned value.
fn learned_beam(b: &Board, m: &Model, start: &PushState) -> f64 {
    if start.solved(b) {
        return 1.0;
    }
    let mut w = 1usize;
    while w <= 1024 {
        let mut seen: HashSet<Vec<usize>> = HashSet::from([start.key(b)]);
        let mut layer = vec![start.clone()];
        for _ in 0..BEAM_DEPTH {
            let mut next: Vec<(i64, usize, PushState)> = Vec::new();
            for s in &layer {
                for (child, v) in learned_children(b, m, s) {
                    if child.solved(b) {
                        return w as f64;
                    }
                    if seen.insert(child.key(b)) {
                        next.push((order(v), next.len(), child));
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

/// `learned_off_greedy`: the pushes of `solution` whose learned value after is above the least
/// any push at that position gives.
fn learned_off_greedy(b: &Board, m: &Model, state: &SokobanState, solution: &[SokobanCommand]) -> f64 {
    let rules = SokobanRules;
    let mut now = state.clone();
    let mut events = Vec::new();
    let mut count = 0u32;
    for cmd in solution {
        let before = push_state_of(b, &now);
        let pushes = now.pushes();
        if rules.apply(&mut now, cmd, &mut events).is_err() {
            break;
        }
        if now.pushes() == pushes || now.is_solved() {
            continue;
        }
        let mut after = push_state_of(b, &now);
        after.boxes.sort_unstable();
        let v = order(m.value(b, &after));
        let best = learned_children(b, m, &before).iter().map(|c| order(c.1)).min().unwrap_or(v);
        count += u32::from(v > best);
    }
    f64::from(count)
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
    let model = train();
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
            m.extend([
                model.value(&b, &start),
                learned_gbfs(&b, &model, &start),
                learned_beam(&b, &model, &start),
                match &report.outcome {
                    SolveOutcome::Solved(s) => learned_off_greedy(&b, &model, &state, &s.commands),
                    _ => f64::INFINITY,
                },
                0.0,
                0.0,
            ]);
            if per_level.is_some() {
                let cols: Vec<String> = m
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| ![10, LEARNER, LEARNED, ENSEMBLE].contains(k))
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
    // The fifth round's combinations (fixed in advance): `learned`, the mean pooled rank of
    // learned_gbfs_nodes, learned_beam_width and learned_off_greedy; `ensemble`, the mean pooled
    // rank of nodes, learner and learned.
    let pooled: Vec<&Vec<f64>> = rows.iter().flatten().collect();
    let rank_of = |k: usize| ranks(&pooled.iter().map(|m| m[k]).collect::<Vec<_>>());
    let (lg, lb, lo) = (rank_of(22), rank_of(23), rank_of(24));
    let mut i = 0;
    for set in rows.iter_mut() {
        for m in set.iter_mut() {
            m[LEARNED] = (lg[i] + lb[i] + lo[i]) / 3.0;
            i += 1;
        }
    }
    let pooled: Vec<&Vec<f64>> = rows.iter().flatten().collect();
    let rank_of = |k: usize| ranks(&pooled.iter().map(|m| m[k]).collect::<Vec<_>>());
    let (en, el, ed) = (rank_of(2), rank_of(LEARNER), rank_of(LEARNED));
    let mut i = 0;
    for set in rows.iter_mut() {
        for m in set.iter_mut() {
            m[ENSEMBLE] = (en[i] + el[i] + ed[i]) / 3.0;
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
    println!("{:<20}{:>22}{:>18}", "measure", "medium vs unfiltered", "hard vs medium");
    for (k, name) in NAMES.iter().enumerate() {
        let col = |s: usize| rows[s].iter().map(|m| m[k]).collect::<Vec<f64>>();
        println!("{name:<20}{:>22.3}{:>18.3}", auc(&col(0), &col(1)), auc(&col(1), &col(2)));
    }
}
