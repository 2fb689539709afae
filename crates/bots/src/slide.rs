//! `slide`: expectimax over the spawn chance on a 4×4 bitboard.
//!
//! **The bitboard.** A 4×4 board is a `u64` of sixteen 4-bit exponents (0 for empty, `k` for
//! the tile `2^k`); cell `(x, y)` is nibble `4y + x`, so a row is 16 bits and cells count in the
//! engine's row-major order. A slide looks every row up in tables of 65,536 entries built once:
//! the row after sliding left, after sliding right, and the points scored; up and down slide the
//! transposed board. Tables follow the engine's rule (condense, then merge from the edge, each
//! tile once); they are exact while merges stay within a nibble, so the bitboard is used only
//! while every tile is at most 2^14 (then no merge passes 2^15). A property test plays the
//! bitboard and the engine side by side.
//!
//! **Expectimax.** A move node takes the best of the four slides (unchanged boards excluded); a
//! chance node averages over every empty cell and both spawns (2 and 4, with the rules'
//! `four_chance`). The search stops at its depth, or when the path's probability falls below
//! 10⁻⁴, and values the board with the usual heuristics, precomputed per row and summed over
//! rows and columns: empty cells, merges available, monotonic rows, and a penalty growing with
//! the tiles' sizes (the weights of the well-known open-source 2048 AI by R. Xiao). A
//! transposition table, cleared per decision by a generation stamp, keeps chance-node values with
//! the depth they were searched at. The bot never reads the game's generator: it enumerates
//! every spawn.
//!
//! Depth: the number of chance nodes on a line; the default adapts to the board (see
//! [`ExpectimaxConfig`]).

use crate::generic::GreedyBot;
use crate::playable::ScoreEval;
use crate::{Bot, BotRng};
use std::sync::OnceLock;
use tessera_core::slide::{SlideCommand, SlideRules, SlideState};
use tessera_core::{Dir, Pos, Rules};

/// A 4×4 board: sixteen 4-bit exponents, cell `(x, y)` at nibble `4y + x`.
pub type Board = u64;

struct Tables {
    left: Vec<u16>,
    right: Vec<u16>,
    score: Vec<u32>,
    heur: Vec<f32>,
}

fn reverse_row(r: u16) -> u16 {
    (r >> 12) | ((r >> 4) & 0x00f0) | ((r << 4) & 0x0f00) | (r << 12)
}

/// Slides one row toward cell 0: the new row and the points.
fn slide_row_left(row: u16) -> (u16, u32) {
    let cells: Vec<u32> = (0..4).map(|k| u32::from(row >> (4 * k)) & 15).filter(|&e| e != 0).collect();
    let (mut out, mut n, mut points, mut i) = (0u16, 0, 0u32, 0);
    while i < cells.len() {
        let e = cells[i];
        if i + 1 < cells.len() && cells[i + 1] == e && e < 15 {
            out |= ((e + 1) as u16) << (4 * n);
            points += 1 << (e + 1);
            i += 2;
        } else {
            out |= (e as u16) << (4 * n);
            i += 1;
        }
        n += 1;
    }
    (out, points)
}

/// The heuristic value of one row (see the module docs).
fn row_heuristic(row: u16) -> f32 {
    const LOST_PENALTY: f32 = 200_000.0;
    const MONOTONICITY_POWER: f32 = 4.0;
    const MONOTONICITY_WEIGHT: f32 = 47.0;
    const SUM_POWER: f32 = 3.5;
    const SUM_WEIGHT: f32 = 11.0;
    const MERGES_WEIGHT: f32 = 700.0;
    const EMPTY_WEIGHT: f32 = 270.0;
    let line: [u32; 4] = std::array::from_fn(|k| u32::from(row >> (4 * k)) & 15);
    let (mut sum, mut empty, mut merges, mut prev, mut counter) = (0f32, 0u32, 0u32, 0u32, 0u32);
    for &rank in &line {
        sum += (rank as f32).powf(SUM_POWER);
        if rank == 0 {
            empty += 1;
        } else {
            if prev == rank {
                counter += 1;
            } else if counter > 0 {
                merges += 1 + counter;
                counter = 0;
            }
            prev = rank;
        }
    }
    if counter > 0 {
        merges += 1 + counter;
    }
    let (mut mono_left, mut mono_right) = (0f32, 0f32);
    for i in 1..4 {
        let (a, b) =
            ((line[i - 1] as f32).powf(MONOTONICITY_POWER), (line[i] as f32).powf(MONOTONICITY_POWER));
        if line[i - 1] > line[i] {
            mono_left += a - b;
        } else {
            mono_right += b - a;
        }
    }
    LOST_PENALTY + EMPTY_WEIGHT * empty as f32 + MERGES_WEIGHT * merges as f32
        - MONOTONICITY_WEIGHT * mono_left.min(mono_right)
        - SUM_WEIGHT * sum
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            left: vec![0; 1 << 16],
            right: vec![0; 1 << 16],
            score: vec![0; 1 << 16],
            heur: vec![0.0; 1 << 16],
        };
        for r in 0..=u16::MAX {
            let (l, points) = slide_row_left(r);
            t.left[usize::from(r)] = l;
            t.score[usize::from(r)] = points;
            t.right[usize::from(reverse_row(r))] = reverse_row(l);
            t.heur[usize::from(r)] = row_heuristic(r);
        }
        t
    })
}

/// The board with rows and columns swapped.
#[inline]
pub fn transpose(x: Board) -> Board {
    let a1 = x & 0xf0f0_0f0f_f0f0_0f0f;
    let a2 = x & 0x0000_f0f0_0000_f0f0;
    let a3 = x & 0x0f0f_0000_0f0f_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xff00_ff00_00ff_00ff;
    let b2 = a & 0x00ff_00ff_0000_0000;
    let b3 = a & 0x0000_0000_ff00_ff00;
    b1 | (b2 >> 24) | (b3 << 24)
}

#[inline]
fn rows_through(b: Board, table: &[u16]) -> Board {
    let row = |k: u32| Board::from(table[((b >> (16 * k)) & 0xffff) as usize]) << (16 * k);
    row(0) | row(1) | row(2) | row(3)
}

#[inline]
fn rows_score(b: Board, score: &[u32]) -> u32 {
    (0..4).map(|k| score[((b >> (16 * k)) & 0xffff) as usize]).sum()
}

/// The board after sliding toward `dir` (without the spawn). Unchanged when the slide changes
/// nothing.
#[inline]
pub fn slide(b: Board, dir: Dir) -> Board {
    let t = tables();
    match dir {
        Dir::Left => rows_through(b, &t.left),
        Dir::Right => rows_through(b, &t.right),
        Dir::Up => transpose(rows_through(transpose(b), &t.left)),
        Dir::Down => transpose(rows_through(transpose(b), &t.right)),
    }
}

/// The points sliding toward `dir` scores.
pub fn slide_score(b: Board, dir: Dir) -> u32 {
    let t = tables();
    match dir {
        Dir::Left => rows_score(b, &t.score),
        Dir::Right => {
            (0..4).map(|k| t.score[usize::from(reverse_row(((b >> (16 * k)) & 0xffff) as u16))]).sum()
        }
        Dir::Up => rows_score(transpose(b), &t.score),
        Dir::Down => {
            let tb = transpose(b);
            (0..4).map(|k| t.score[usize::from(reverse_row(((tb >> (16 * k)) & 0xffff) as u16))]).sum()
        }
    }
}

/// A mask with bit `4i` set for every empty cell `i`.
#[inline]
pub fn empty_mask(b: Board) -> u64 {
    let x = b | (b >> 1) | (b >> 2) | (b >> 3);
    !x & 0x1111_1111_1111_1111
}

/// The bitboard of a 4×4 state whose tiles are all at most 2^14; `None` otherwise.
pub fn from_state(state: &SlideState) -> Option<Board> {
    let size = state.size();
    if size.width != 4 || size.height != 4 {
        return None;
    }
    let mut b = 0;
    for (p, t) in state.tiles() {
        let e = t.value.trailing_zeros();
        if e > 14 {
            return None;
        }
        b |= Board::from(e) << (4 * (4 * u32::from(p.y) + u32::from(p.x)));
    }
    Some(b)
}

/// The exponent at `pos`.
pub fn cell(b: Board, pos: Pos) -> u32 {
    ((b >> (4 * (4 * u32::from(pos.y) + u32::from(pos.x)))) & 15) as u32
}

/// Spawns a tile as the engine does, from the bot's generator: the `nth` empty cell in row-major
/// order, a 4 with probability `four` in 2^32 (else a 2). The board must have an empty cell.
#[inline]
pub fn spawn(b: Board, rng: &mut BotRng, four: u32) -> Board {
    let mut mask = empty_mask(b);
    let n = rng.below(mask.count_ones());
    for _ in 0..n {
        mask &= mask - 1;
    }
    let at = mask.trailing_zeros();
    let r = rng.next_u64() as u32;
    let e = if r < four { 2 } else { 1 };
    b | (e << at)
}

/// A random playout from `b` until no slide changes the board: each step slides toward a random
/// direction among those that change it, then spawns. Returns the slides made.
pub fn random_playout(mut b: Board, rng: &mut BotRng, four: u32) -> u64 {
    let mut slides = 0;
    loop {
        let first = rng.below(4) as usize;
        let mut moved = false;
        for k in 0..4 {
            let dir = Dir::ALL[(first + k) & 3];
            let nb = slide(b, dir);
            if nb != b {
                b = spawn(nb, rng, four);
                slides += 1;
                moved = true;
                break;
            }
        }
        if !moved {
            return slides;
        }
    }
}

/// The heuristic value of a board (rows and columns).
pub fn heuristic(b: Board) -> f32 {
    let t = tables();
    let rows = |x: Board| -> f32 { (0..4).map(|k| t.heur[((x >> (16 * k)) & 0xffff) as usize]).sum() };
    rows(b) + rows(transpose(b))
}

/// Settings of [`ExpectimaxBot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ExpectimaxConfig {
    /// Move nodes per line; `None` adapts: 2, or 3 when at most 4 cells are empty.
    pub depth: Option<u32>,
}

const TT_BITS: u32 = 18;
const PROB_CUTOFF: f32 = 1e-4;

#[derive(Clone, Copy, Default)]
struct Entry {
    board: Board,
    generation: u32,
    depth: u8,
    value: f32,
}

/// Expectimax over spawns on the bitboard (see the module docs).
pub struct ExpectimaxBot {
    config: ExpectimaxConfig,
    tt: Vec<Entry>,
    generation: u32,
    four: f32,
    fallback: GreedyBot<SlideRules, ScoreEval>,
    /// Nodes searched since the bot was made (move and chance nodes).
    pub nodes: u64,
}

impl ExpectimaxBot {
    /// A bot; `seed` only seeds the fallback for boards the bitboard cannot hold.
    pub fn new(seed: u64, config: ExpectimaxConfig) -> Self {
        ExpectimaxBot {
            config,
            tt: vec![Entry::default(); 1 << TT_BITS],
            generation: 0,
            four: 0.1,
            fallback: GreedyBot::new(seed, ScoreEval),
            nodes: 0,
        }
    }

    fn move_node(&mut self, b: Board, prob: f32, depth: u32) -> f32 {
        self.nodes += 1;
        let mut best = 0f32;
        for dir in Dir::ALL {
            let nb = slide(b, dir);
            if nb != b {
                best = best.max(self.chance_node(nb, prob, depth));
            }
        }
        best
    }

    fn chance_node(&mut self, b: Board, prob: f32, depth: u32) -> f32 {
        if depth == 0 || prob < PROB_CUTOFF {
            return heuristic(b);
        }
        let slot = (b.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - TT_BITS)) as usize;
        let e = self.tt[slot];
        if e.generation == self.generation && e.board == b && u32::from(e.depth) >= depth {
            return e.value;
        }
        self.nodes += 1;
        let mut mask = empty_mask(b);
        let open = mask.count_ones();
        let p = prob / open as f32;
        let mut sum = 0f32;
        while mask != 0 {
            let at = mask.trailing_zeros();
            mask &= mask - 1;
            sum += (1.0 - self.four) * self.move_node(b | (1 << at), p * (1.0 - self.four), depth - 1);
            sum += self.four * self.move_node(b | (2 << at), p * self.four, depth - 1);
        }
        let value = sum / open as f32;
        self.tt[slot] = Entry { board: b, generation: self.generation, depth: depth as u8, value };
        value
    }

    /// The best direction for `b` at `depth`, if any slide changes it (ties: `Dir::ALL` order).
    pub fn best_dir(&mut self, b: Board, depth: u32) -> Option<Dir> {
        self.generation = self.generation.wrapping_add(1);
        let mut best: Option<(f32, Dir)> = None;
        for dir in Dir::ALL {
            let nb = slide(b, dir);
            if nb == b {
                continue;
            }
            let v = self.chance_node(nb, 1.0, depth) + 1e-6;
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, dir));
            }
        }
        best.map(|(_, d)| d)
    }
}

impl Bot<SlideRules> for ExpectimaxBot {
    fn choose(&mut self, rules: &SlideRules, state: &SlideState) -> Option<SlideCommand> {
        let Some(b) = from_state(state) else { return self.fallback.choose(rules, state) };
        let c = rules.config.four_chance;
        self.four = c.num as f32 / c.den.max(1) as f32;
        let depth = self.config.depth.unwrap_or(if empty_mask(b).count_ones() <= 4 { 3 } else { 2 });
        let dir = self.best_dir(b, depth.max(1))?;
        let cmd = SlideCommand::Slide(dir);
        // The bitboard and the engine agree (property test); keep the bot legal regardless.
        if rules.legal_commands(state).contains(&cmd) {
            Some(cmd)
        } else {
            self.fallback.choose(rules, state)
        }
    }
}
