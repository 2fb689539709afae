//! `slide`: expectimax over the spawn chance on a 4×4 bitboard.
//!
//! **The bitboard.** A 4×4 board is a `u64` of sixteen 4-bit exponents (0 for empty, `k` for
//! the tile `2^k`); cell `(x, y)` is nibble `4y + x`, so a row is 16 bits and cells count in the
//! engine's row-major order. A slide looks every row up in tables of 65,536 entries built once:
//! the row after sliding left, after sliding right, and the points scored; up and down slide the
//! transposed board. Tables follow the engine's rule (condense, then merge from the edge, each
//! tile once); they are exact while merges stay within a nibble, so the bitboard is used only
//! while every tile is at most 2^14 (then no merge passes 2^15). A property test plays the
//! bitboard and the engine side by side. Up and down look the transposed board's rows up in
//! column tables whose entries are already laid out as columns (one transpose per slide, not
//! two); random playouts keep the board's transpose beside it and need none (see `slide_k`).
//!
//! **Random playouts** ([`random_playout`], [`random_slides`]: the throughput benchmark) draw
//! one 64-bit word per move from the bot's generator: it picks the slide, uniformly among those
//! that change the board, the spawn's cell, uniformly among the empty ones, and its value. The
//! step has no branch on the random direction (row and column results are both looked up and
//! one is kept), no transpose, and no loop to find the cell (a nibble-wise prefix count).
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
//!
//! `register.rs` registers slide with the bots (its [`crate::Playable`] impl, the `expectimax`
//! bot, the largest tiles in a difficulty report).

mod register;

pub use register::EXPECTIMAX;
pub(crate) use register::Game;

use crate::generic::GreedyBot;
use crate::playable::ScoreEval;
use crate::{Bot, BotRng};
use std::sync::OnceLock;
use tessera_core::slide::{SlideCommand, SlideRules, SlideState};
use tessera_core::{Dir, Pos, Rules};

/// A 4×4 board: sixteen 4-bit exponents, cell `(x, y)` at nibble `4y + x`.
pub type Board = u64;

/// A table indexed by a row (every `u16`): the index needs no bounds check.
type RowTable<T> = Box<[T; 1 << 16]>;

struct Tables {
    left: RowTable<u16>,
    right: RowTable<u16>,
    /// `up[r]`: the column `r` (a row of the transposed board) after sliding up, laid out as
    /// a column of the board (nibbles 0, 16, 32, 48); `down` likewise.
    up: RowTable<u64>,
    down: RowTable<u64>,
    score: RowTable<u32>,
    heur: RowTable<f32>,
}

fn row_table<T: Copy>(fill: T) -> RowTable<T> {
    match vec![fill; 1 << 16].into_boxed_slice().try_into() {
        Ok(t) => t,
        Err(_) => unreachable!("the vector has exactly 2^16 items"),
    }
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
            left: row_table(0),
            right: row_table(0),
            up: row_table(0),
            down: row_table(0),
            score: row_table(0),
            heur: row_table(0.0),
        };
        for r in 0..=u16::MAX {
            let (l, points) = slide_row_left(r);
            t.left[usize::from(r)] = l;
            t.score[usize::from(r)] = points;
            t.right[usize::from(reverse_row(r))] = reverse_row(l);
            t.heur[usize::from(r)] = row_heuristic(r);
        }
        for r in 0..=u16::MAX {
            t.up[usize::from(r)] = transpose(Board::from(t.left[usize::from(r)]));
            t.down[usize::from(r)] = transpose(Board::from(t.right[usize::from(r)]));
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

/// Row `k` (0 to 3) of `b`.
#[inline(always)]
fn row(b: Board, k: u32) -> usize {
    usize::from((b >> (16 * k)) as u16)
}

#[inline(always)]
fn rows_through(b: Board, table: &[u16; 1 << 16]) -> Board {
    Board::from(table[row(b, 0)])
        | Board::from(table[row(b, 1)]) << 16
        | Board::from(table[row(b, 2)]) << 32
        | Board::from(table[row(b, 3)]) << 48
}

#[inline(always)]
fn rows_score(b: Board, score: &[u32; 1 << 16]) -> u32 {
    score[row(b, 0)] + score[row(b, 1)] + score[row(b, 2)] + score[row(b, 3)]
}

/// [`slide`] with the tables in hand (hot loops fetch them once).
#[inline(always)]
fn slide_with(t: &Tables, b: Board, dir: Dir) -> Board {
    match dir {
        Dir::Left => rows_through(b, &t.left),
        Dir::Right => rows_through(b, &t.right),
        Dir::Up => columns_through(transpose(b), &t.up),
        Dir::Down => columns_through(transpose(b), &t.down),
    }
}

/// The board after sliding toward `dir` (without the spawn). Unchanged when the slide changes
/// nothing.
#[inline]
pub fn slide(b: Board, dir: Dir) -> Board {
    slide_with(tables(), b, dir)
}

/// The points sliding toward `dir` scores.
pub fn slide_score(b: Board, dir: Dir) -> u32 {
    let t = tables();
    let reversed = |x: Board| -> Board {
        (0..4).fold(0, |acc, k| acc | Board::from(reverse_row((x >> (16 * k)) as u16)) << (16 * k))
    };
    match dir {
        Dir::Left => rows_score(b, &t.score),
        Dir::Right => rows_score(reversed(b), &t.score),
        Dir::Up => rows_score(transpose(b), &t.score),
        Dir::Down => rows_score(reversed(transpose(b)), &t.score),
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

const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// Spawns from one 64-bit draw `r`: the empty cell of rank `(r >> 32) · empty / 2^32` in
/// row-major order (uniform), a 4 when bits 16..32 of `r` fall below `four >> 16` (`four` is a
/// probability in 2^32, kept to 16 bits), else a 2; bits 0..16 are left to the caller. The
/// board must have an empty cell.
///
/// The count and the rank's cell are found without a loop: multiplying the empty mask by
/// `0x1111…` puts in every nibble the number of empty cells up to it (1 to 16; 16 wraps to 0,
/// harmlessly, since the counts of empty cells then are 1..=16 mod 16, still distinct), and the
/// wanted cell is the empty one whose count is `rank + 1`: a nibble-wise equality test.
#[inline(always)]
fn spawn_bits(b: Board, r: u64, four: u32) -> Board {
    let (at, e) = spawn_cell(b, r, four);
    b | (e << at)
}

/// Where [`spawn_bits`] puts its tile (the bit offset of the cell's nibble) and the exponent.
#[inline(always)]
fn spawn_cell(b: Board, r: u64, four: u32) -> (u32, u64) {
    let mask = empty_mask(b);
    let counts = mask.wrapping_mul(NIBBLE_ONES);
    // The top nibble counts every empty cell (16 wrapped to 0: map 0 back to 16). Cheaper than
    // `count_ones`, which is a dozen instructions on the baseline x86-64 target (no popcnt).
    let n = ((counts >> 60).wrapping_sub(1) & 15) + 1;
    let rank = ((r >> 32) * n) >> 32;
    let x = counts ^ (((rank + 1) & 15) * NIBBLE_ONES);
    let at = (empty_mask(x) & mask).trailing_zeros();
    let e: u64 = if ((r >> 16) & 0xffff) < u64::from(four >> 16) { 2 } else { 1 };
    (at, e)
}

/// The bit offset, in the transposed board, of the nibble at bit offset `at`.
#[inline(always)]
fn transposed_at(at: u32) -> u32 {
    let i = at >> 2;
    ((i & 3) << 2 | i >> 2) << 2
}

/// Spawns a tile from the bot's generator (one draw): an empty cell chosen uniformly, a 4 with
/// probability `four` in 2^32 (else a 2). The board must have an empty cell.
#[inline]
pub fn spawn(b: Board, rng: &mut BotRng, four: u32) -> Board {
    spawn_bits(b, rng.next_u64(), four)
}

/// The columns of `b` (`tb` is `transpose(b)`) through a column table.
#[inline(always)]
fn columns_through(tb: Board, table: &[u64; 1 << 16]) -> Board {
    table[row(tb, 0)] | table[row(tb, 1)] << 4 | table[row(tb, 2)] << 8 | table[row(tb, 3)] << 12
}

/// Slide number `k & 3` of `b` and the transpose of the result, from `b` and `tb =
/// transpose(b)`, with no transpose: bit 0 of `k` picks right over left, bit 1 the columns over
/// the rows (so 0 left, 1 right, 2 up, 3 down). A row slide of `b` through the row table is the
/// result, and the same rows through the column table are its transpose; a column slide is the
/// rows of `tb` through the column table, and through the row table its transpose. So both are
/// eight independent lookups, and the playouts keep a board and its transpose side by side.
/// Branch-free: a random direction would mispredict a branch on it at nearly every step.
#[inline(always)]
fn slide_k(t: &Tables, b: Board, tb: Board, k: usize) -> (Board, Board) {
    let columns = 0u64.wrapping_sub(((k >> 1) & 1) as u64);
    let src = (tb & columns) | (b & !columns);
    let x = rows_through(src, [&t.left, &t.right][k & 1]);
    let y = columns_through(src, [&t.up, &t.down][k & 1]);
    ((y & columns) | (x & !columns), (x & columns) | (y & !columns))
}

/// The four slides of `b` (`tb` is `transpose(b)`) in [`slide_k`] order (left, right, up,
/// down).
#[inline(always)]
fn all_slides(t: &Tables, b: Board, tb: Board) -> [Board; 4] {
    [
        rows_through(b, &t.left),
        rows_through(b, &t.right),
        columns_through(tb, &t.up),
        columns_through(tb, &t.down),
    ]
}

/// `SELECT[v][i]`: the `i`-th set bit of the 4-bit mask `v` (0 where there is none).
const SELECT: [[u8; 4]; 16] = {
    let mut table = [[0u8; 4]; 16];
    let mut v = 0;
    while v < 16 {
        let (mut bit, mut i) = (0, 0);
        while bit < 4 {
            if v & (1 << bit) != 0 {
                table[v][i] = bit as u8;
                i += 1;
            }
            bit += 1;
        }
        v += 1;
    }
    table
};

/// One random step with the tables in hand and one draw `r`: a slide chosen uniformly among
/// those that change the board, then a spawn ([`spawn_bits`]); `None` when no slide changes
/// the board (the game is over).
///
/// The slide: direction `r & 3` ([`slide_k`]) when it changes the board (the usual case, one
/// slide computed); otherwise one drawn from bits 2..16 of `r` among all that do. Each of `c`
/// valid directions is then chosen with probability `1/4 + (4 − c)/4 · 1/c = 1/c`.
#[inline(always)]
fn random_step(t: &Tables, b: Board, tb: Board, r: u64, four: u32) -> Option<(Board, Board)> {
    let (nb, ntb) = slide_k(t, b, tb, r as usize);
    if nb != b {
        let (at, e) = spawn_cell(nb, r, four);
        return Some((nb | e << at, ntb | e << transposed_at(at)));
    }
    let next = all_slides(t, b, tb);
    let valid = usize::from(next[0] != b)
        | usize::from(next[1] != b) << 1
        | usize::from(next[2] != b) << 2
        | usize::from(next[3] != b) << 3;
    if valid == 0 {
        return None;
    }
    let count = (0x4332_3221_3221_2110u64 >> (4 * valid)) & 15; // set bits of `valid`
    let pick = ((((r >> 2) & 0x3fff) * count) >> 14) as usize;
    let nb = next[usize::from(SELECT[valid][pick & 3] & 3)];
    let (at, e) = spawn_cell(nb, r, four);
    Some((nb | e << at, transpose(nb) | e << transposed_at(at)))
}

/// A random playout from `b` until no slide changes the board: each step slides toward a random
/// direction (or the next one that changes the board), then spawns. Returns the final board and
/// the slides made.
pub fn random_playout(mut b: Board, rng: &mut BotRng, four: u32) -> (Board, u64) {
    let t = tables();
    let (mut tb, mut slides) = (transpose(b), 0);
    while let Some((nb, ntb)) = random_step(t, b, tb, rng.next_u64(), four) {
        (b, tb) = (nb, ntb);
        slides += 1;
    }
    (b, slides)
}

/// Exactly `n` slides of random play (as in [`random_playout`]) from `b`, starting a new game
/// (two spawns on an empty board) whenever one ends: the throughput benchmark's loop. A "slide"
/// is a move applied: one slide that changes the board and its spawn. Returns the final board
/// and the games ended on the way.
pub fn random_slides(mut b: Board, n: u64, rng: &mut BotRng, four: u32) -> (Board, u64) {
    let t = tables();
    let (mut tb, mut done, mut games) = (transpose(b), 0, 0);
    while done < n {
        match random_step(t, b, tb, rng.next_u64(), four) {
            Some((nb, ntb)) => {
                (b, tb) = (nb, ntb);
                done += 1;
            }
            None => {
                b = spawn(spawn(0, rng, four), rng, four);
                tb = transpose(b);
                games += 1;
            }
        }
    }
    (b, games)
}

/// The heuristic value of a board (rows and columns).
pub fn heuristic(b: Board) -> f32 {
    let t = tables();
    let rows =
        |x: Board| -> f32 { t.heur[row(x, 0)] + t.heur[row(x, 1)] + t.heur[row(x, 2)] + t.heur[row(x, 3)] };
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The playouts' branch-free slides equal [`slide`] (which the property test checks against
    /// the engine) on boards from random play.
    #[test]
    fn playout_slides_equal_slide() {
        let t = tables();
        let mut rng = BotRng::new(9);
        let mut b = spawn(spawn(0, &mut rng, 0), &mut rng, 0);
        let dirs = [Dir::Left, Dir::Right, Dir::Up, Dir::Down];
        for _ in 0..20_000 {
            let tb = transpose(b);
            let all = all_slides(t, b, tb);
            for (k, dir) in dirs.into_iter().enumerate() {
                let after = slide(b, dir);
                assert_eq!(slide_k(t, b, tb, k), (after, transpose(after)), "{b:016x} {dir:?}");
                assert_eq!(all[k], after, "{b:016x} {dir:?}");
            }
            b = match random_step(t, b, tb, rng.next_u64(), u32::MAX / 10) {
                Some((nb, ntb)) => {
                    assert_eq!(ntb, transpose(nb), "the playout's transpose after {b:016x}");
                    nb
                }
                None => spawn(spawn(0, &mut rng, 0), &mut rng, 0),
            };
        }
    }
}
