//! `slide`: 2048 (seed 003).
//!
//! A command slides every tile toward one edge. Each row (for left and right) or column (for up
//! and down) is processed from the edge the tiles move toward:
//! 1. condense: tiles slide toward that edge, closing gaps;
//! 2. merge: walking from that edge, two equal neighbours merge into one tile of twice the value,
//!    and a tile merges at most once per move (`2 2 2 2 → 4 4`, `2 2 2 → 4 2`, `4 4 8 → 8 8`);
//! 3. the seed's move orders become events: [`SlideEvent::Moved`] for a tile that only moves,
//!    [`SlideEvent::Merged`] with [`Combine::Single`] when a moving tile lands on one at rest,
//!    and [`Combine::Double`] when two moving tiles meet at a new cell.
//!
//! The merged tile keeps the id of the tile nearer the edge (`tile`); the other (`absorbed`)
//! disappears. Only spawns allocate ids. The largest tile is [`MAX_TILE`] (2^30): two of them do
//! not merge, so values always fit a `u32` (levels and logs with larger tiles are refused).
//!
//! A slide that changes nothing is rejected (`no_change`) and spawns nothing. After a slide that
//! changed something one tile spawns on a uniformly random empty cell: the generator first draws
//! the cell (`below(empty cells)`, counting empty cells row by row from the top left), then the
//! value (4 when `chance(four_chance)`, else 2). A new game spawns two tiles the same way.
//!
//! Events of one step come in this order: `Moved`/`Merged` (line by line, each line from its
//! edge), `Scored`, `Spawned`, `Won` (the first time a tile reaches the target, merged or
//! spawned; play goes on), `GameOver` (no empty cell and no two equal orthogonal neighbours).
//!
//! [`SlideRules::status`] is `Over` when no slide is possible, else `Won` once the target has been
//! reached, else `Playing`. Display labels per value (the seed maps values to words) are the
//! view's business.
//!
//! How it is fast (the benchmark `slide` plays random 4×4 games): the board stores an empty cell
//! as value 0 rather than `None`, so reading a cell never branches; a line of four cells whose
//! tiles are at most 2^15 looks up what the slide does in a table of 65,536 precomputed plans
//! (built once, from the same rule as the general path; property tests compare both with a
//! plain reference implementation); on other boards one scan finds the lines that change, eight
//! cells at a time, in a byte-per-cell copy of the exponents kept beside the board
//! ([`exponents`]), and only those lines are condensed in place and merged in one pass; the
//! spawn finds its cell in the same bytes, eight cells a word; line geometry comes from selects,
//! not a `match` on the direction.

mod exponents;
mod level;
mod mirror;

use exponents::Exponents;
pub use level::SlideLevel;

use crate::geom::{Dir, Grid, Pos, Size};
use crate::hash::keys::{cell_key, field_key, kind, rng_key, size_key};
use crate::id::{Id, IdGen};
use crate::rng::{GameRng, RngSpan};
use crate::rules::{Inconsistent, Rejected, Rules, Status};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The largest board side `slide` accepts.
pub const MAX_SIDE: u16 = 256;

/// The largest tile: 2^30. Two of them do not merge, so every value fits a `u32` (a level or a
/// log may hold tiles of any size; without a cap, two 2^31 tiles merged past the type).
pub const MAX_TILE: u32 = 1 << 30;

/// Whether `value` can be a tile's: 0 (empty), or a power of two from 2 to [`MAX_TILE`].
pub fn valid_value(value: u32) -> bool {
    value == 0 || (value >= 2 && value.is_power_of_two() && value <= MAX_TILE)
}

/// Whether neighbouring tiles worth `a` and `b` merge when slid together.
#[inline]
fn merge(a: u32, b: u32) -> bool {
    a == b && a < MAX_TILE
}

/// A probability as a fraction of integers (no floats in rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chance {
    /// Numerator.
    pub num: u32,
    /// Denominator, at least 1; `num ≤ den`.
    pub den: u32,
}

/// Settings of a 2048 game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SlideConfig {
    /// The tile value that wins, a power of two of at least 4. Default 2048.
    pub target: u32,
    /// Probability that a spawned tile is a 4 rather than a 2. Default 1/10.
    pub four_chance: Chance,
}

impl Default for SlideConfig {
    fn default() -> Self {
        SlideConfig { target: 2048, four_chance: Chance { num: 1, den: 10 } }
    }
}

impl SlideConfig {
    /// Checks the settings, naming the first bad one.
    pub fn validate(&self) -> Result<(), String> {
        if self.target < 4 || !self.target.is_power_of_two() {
            return Err(format!("target {} is not a power of two of at least 4", self.target));
        }
        let Chance { num, den } = self.four_chance;
        if den == 0 || num > den {
            return Err(format!("four_chance {num}/{den} is not a probability"));
        }
        Ok(())
    }
}

/// A tile: its stable id and its value (a power of two, at least 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    /// Stable id.
    pub id: Id,
    /// Value, 2^k with k ≥ 1.
    pub value: u32,
}

/// How the board stores an empty cell: value 0 (and always id 0, so that equal boards are
/// equal). A plain value rather than `Option` lets the hot loop read a cell without branching.
const EMPTY: Tile = Tile { id: Id(0), value: 0 };

/// A 2048 game: board, score, the win flag, the id counter and the generator.
///
/// It also keeps its incremental hash ([`SlideState::hash`]), which is not serialized:
/// deserialization recomputes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawState")]
pub struct SlideState {
    board: Grid<Tile>, // value 0 = empty (see EMPTY)
    score: u64,
    won: bool,
    ids: IdGen,
    rng: GameRng,
    #[serde(skip)]
    hash: u64,
    /// The board's exponents, a byte per cell, for the slide's scans; written with the board.
    #[serde(skip)]
    exps: Exponents,
}

/// [`SlideState`] as stored (the same fields in the same order, without the hash).
#[derive(Deserialize)]
struct RawState {
    board: Grid<Tile>,
    score: u64,
    won: bool,
    ids: IdGen,
    rng: GameRng,
}

impl TryFrom<RawState> for SlideState {
    type Error = String;

    /// A stored state (a log's keyframe) with its tiles checked: any value a level may hold.
    fn try_from(r: RawState) -> Result<Self, String> {
        let RawState { board, score, won, ids, rng } = r;
        if let Some((p, t)) = board.iter().find(|(_, t)| !valid_value(t.value)) {
            return Err(format!(
                "cell {p}: {} is not a tile value (0, or a power of two from 2 to 2^30)",
                t.value
            ));
        }
        let exps = Exponents::of(board.cells());
        let mut s = SlideState { board, score, won, ids, rng, hash: 0, exps };
        s.hash = s.recompute_hash();
        Ok(s)
    }
}

/// The position half of a tile's hash key (see [`crate::keys`]).
#[inline]
fn pos_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// The content half of a tile's hash key: its value (as the exponent) and id.
#[inline]
fn what_key(value: u32, id: Id) -> u64 {
    cell_key(kind::WHAT, value.trailing_zeros(), id.0)
}

/// How the hash changes when tiles `tile` (at `from`) and `absorbed` (at `absorbed_from`), both
/// worth `value / 2`, become `tile` worth `value` at `to` (and back).
#[inline]
fn merge_key(tile: Id, from: usize, absorbed: Id, absorbed_from: usize, to: usize, value: u32) -> u64 {
    let half = what_key(value / 2, tile) ^ what_key(value / 2, absorbed);
    pos_key(from, tile) ^ pos_key(absorbed_from, absorbed) ^ half ^ pos_key(to, tile) ^ what_key(value, tile)
}

impl SlideState {
    /// A new game on an empty `size` board: two tiles spawned from `seed`.
    pub fn new_game(size: Size, config: &SlideConfig, seed: u64) -> Self {
        let board = Grid::filled(size, EMPTY);
        let exps = Exponents::of(board.cells());
        let mut state = SlideState {
            board,
            score: 0,
            won: false,
            ids: IdGen::default(),
            rng: GameRng::new(seed),
            hash: 0,
            exps,
        };
        state.hash = state.recompute_hash();
        for _ in 0..2 {
            let empty = state.empty_count();
            if empty > 0 {
                state.spawn(config, empty);
            }
        }
        state
    }

    /// A game starting from exactly `values` (row-major, 0 for empty); nothing is spawned.
    /// Values must be 0 or powers of two of at least 2 (the level loader checks and explains).
    pub fn from_values(size: Size, values: &[u32], seed: u64) -> Option<Self> {
        if values.len() != size.area() || !values.iter().all(|&v| valid_value(v)) {
            return None;
        }
        let mut ids = IdGen::default();
        let cells =
            values.iter().map(|&v| if v == 0 { EMPTY } else { Tile { id: ids.next(), value: v } }).collect();
        let board = Grid::from_cells(size, cells)?;
        let exps = Exponents::of(board.cells());
        let mut s = SlideState { board, score: 0, won: false, ids, rng: GameRng::new(seed), hash: 0, exps };
        s.hash = s.recompute_hash();
        Some(s)
    }

    /// The incremental hash of this state (see [`crate::keys`]): kept up to date by the rules,
    /// always equal to [`SlideState::recompute_hash`].
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The incremental hash computed from scratch over every cell and field: the reference the
    /// kept hash is tested against.
    pub fn recompute_hash(&self) -> u64 {
        let mut h = size_key(self.board.size())
            ^ field_key(kind::SCORE, self.score)
            ^ field_key(kind::WON, u64::from(self.won))
            ^ field_key(kind::IDS, u64::from(self.ids.peek().0))
            ^ rng_key(&self.rng);
        for (i, t) in self.board.cells().iter().enumerate() {
            if t.value != 0 {
                h ^= pos_key(i, t.id) ^ what_key(t.value, t.id);
            }
        }
        h
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.board.size()
    }

    /// The tile at `pos`, if any (`None` for an empty cell or a cell off the board).
    pub fn tile(&self, pos: Pos) -> Option<Tile> {
        self.board.get(pos).copied().filter(|t| t.value != 0)
    }

    /// Every tile with its cell, row by row from the top.
    pub fn tiles(&self) -> impl Iterator<Item = (Pos, Tile)> + '_ {
        self.board.iter().filter(|(_, t)| t.value != 0).map(|(p, t)| (p, *t))
    }

    /// The score so far.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Whether the target has been reached.
    pub fn won(&self) -> bool {
        self.won
    }

    /// The generator.
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Replaces the generator, returning the old one. Not used by the rules: this is for bots,
    /// whose look-ahead samples future spawns from a generator of their own (a determinized copy
    /// of the state) rather than reading the game's. Normal play never calls it, so no event or
    /// hash of a game changes.
    pub fn replace_rng(&mut self, rng: GameRng) -> GameRng {
        std::mem::replace(&mut self.rng, rng)
    }

    /// The board's values, row by row, 0 for empty (the level format's `board`).
    pub fn values(&self) -> Vec<Vec<u32>> {
        self.board.rows().map(|r| r.iter().map(|t| t.value).collect()).collect()
    }

    /// The board as text: one line per row, `.` for empty.
    pub fn render(&self) -> String {
        let widest = self.tiles().map(|(_, t)| t.value.to_string().len()).max().unwrap_or(1);
        let mut out = String::new();
        for row in self.board.rows() {
            let cells: Vec<String> = row
                .iter()
                .map(|t| match t.value {
                    0 => format!("{:>widest$}", "."),
                    v => format!("{v:>widest$}"),
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }

    fn empty_count(&self) -> u32 {
        self.exps.empty_count()
    }

    /// Spawns one tile on a random one of the `empty` empty cells (at least one); returns where,
    /// what, and the generator's position around the draws.
    fn spawn(&mut self, config: &SlideConfig, empty: u32) -> (Pos, Tile, RngSpan) {
        let (before, ids_before) = (self.rng.position(), self.ids.peek().0);
        let nth = self.rng.below(empty);
        let value = if self.rng.chance(config.four_chance.num, config.four_chance.den) { 4 } else { 2 };
        let tile = Tile { id: self.ids.next(), value };
        // The nth empty cell, row by row. There are `empty` > `nth`: the caller counted them.
        let index = self.exps.nth_empty(nth).unwrap_or_default();
        self.board.cells_mut()[index] = tile;
        self.exps.set(index, value);
        let after = self.rng.position();
        // The generator's key is its seed's and its position's (`rng_key`): the seed's cancels.
        self.hash ^= pos_key(index, tile.id)
            ^ what_key(value, tile.id)
            ^ field_key(kind::RNG, before)
            ^ field_key(kind::RNG, after)
            ^ field_key(kind::IDS, u64::from(ids_before))
            ^ field_key(kind::IDS, u64::from(self.ids.peek().0));
        let at = self.board.size().pos(index);
        (at, tile, RngSpan { before, after })
    }

    /// Whether any slide would change the board.
    pub fn can_move(&self) -> bool {
        let size = self.board.size();
        self.board.iter().any(|(p, t)| {
            t.value == 0
                || [Dir::Right, Dir::Down]
                    .into_iter()
                    .any(|d| p.step(d, size).is_some_and(|q| merge(self.board[q].value, t.value)))
        })
    }

    /// Whether sliding toward `dir` would change the board.
    pub fn can_slide(&self, dir: Dir) -> bool {
        let lines = Lines::new(self.board.size(), dir);
        (0..lines.count).any(|l| line_changes(self.board.cells(), &lines, l))
    }
}

/// Whether line `l` changes when slid. Branch-free per cell: a tile after a gap, or two equal
/// tiles in a row, means the line changes.
#[inline]
fn line_changes(cells: &[Tile], lines: &Lines, l: usize) -> bool {
    let (mut gap, mut prev, mut changes) = (false, 0u32, false);
    let mut i = lines.start(l);
    for _ in 0..lines.len {
        let v = cells[i as usize].value;
        changes |= (v != 0) & (gap | merge(v, prev));
        gap |= v == 0;
        prev = v;
        i += lines.cell_step;
    }
    changes
}

/// For each line of [`Lines`] that changes when the board slides toward `dir`, the first cell
/// (counted from the edge) that something happens next to: `first[l]` becomes the smallest `k`
/// such that cell `k + 1` of line `l` holds a tile and cell `k` is empty or holds an equal tile.
/// Lines that do not change keep [`UNCHANGED`].
///
/// Equivalent to [`line_changes`] on every line, but eight cells at a time: a line changes
/// exactly when it has such a pair (a tile after a gap has one at the gap's far end). Each pair
/// of neighbours is independent of the others, so [`Exponents::for_each_moving_pair`] tests them
/// a word at a time, and only the few pairs that move cost more.
fn changed_lines(exps: &Exponents, size: Size, dir: Dir, first: &mut [u16]) {
    // One copy per direction, so that nothing in the loop asks which.
    match dir {
        Dir::Up => changed_lines_toward::<{ Dir::Up as u8 }>(exps, size, first),
        Dir::Down => changed_lines_toward::<{ Dir::Down as u8 }>(exps, size, first),
        Dir::Left => changed_lines_toward::<{ Dir::Left as u8 }>(exps, size, first),
        Dir::Right => changed_lines_toward::<{ Dir::Right as u8 }>(exps, size, first),
    }
}

/// [`changed_lines`] toward the direction whose discriminant is `DIR`.
#[inline(always)]
fn changed_lines_toward<const DIR: u8>(exps: &Exponents, size: Size, first: &mut [u16]) {
    const UP: u8 = Dir::Up as u8;
    const DOWN: u8 = Dir::Down as u8;
    const LEFT: u8 = Dir::Left as u8;
    let (w, h) = (usize::from(size.width), usize::from(size.height));
    let vertical = DIR == UP || DIR == DOWN;
    let toward_second = !(DIR == UP || DIR == LEFT);
    exps.for_each_moving_pair(if vertical { w } else { 1 }, toward_second, |p| {
        let row = row_of(p, w);
        let column = p - row * w;
        // The line, and where along it the pair's cell nearer the edge is.
        let (line, k) = match DIR {
            UP => (column, row),
            DOWN => (column, h - 2 - row),
            LEFT => (row, column),
            _ => (row, w.wrapping_sub(2 + column)),
        };
        // A pair from the end of one row to the start of the next is not a pair.
        if vertical || column != w - 1 {
            first[line] = first[line].min(k as u16);
        }
    });
}

/// `p / w` for a cell index `p` (below 2^16) and a width `w` (1 to 256), by a multiply: a
/// division takes tens of cycles, several times a step. Exact: with `RECIPROCALS[w]` =
/// ceil(2^32 / w), 32 bits are enough for 16-bit dividends and 8-bit divisors (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019); a test checks every pair.
#[inline]
fn row_of(p: usize, w: usize) -> usize {
    ((p as u64 * RECIPROCALS[w]) >> 32) as usize
}

/// `RECIPROCALS[w]` = ceil(2^32 / w) for every board width (see [`row_of`]).
static RECIPROCALS: [u64; MAX_SIDE as usize + 1] = {
    let mut table = [0; MAX_SIDE as usize + 1];
    let mut w = 1;
    while w <= MAX_SIDE as usize {
        table[w] = (1u64 << 32).div_ceil(w as u64);
        w += 1;
    }
    table
};

/// [`changed_lines`]'s mark of a line that does not change.
const UNCHANGED: u16 = u16::MAX;

/// How a merge happened (the seed's single and double combine move orders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Combine {
    /// A moving tile landed on a tile at rest.
    Single,
    /// Two moving tiles met at a new cell.
    Double,
}

/// What happened in a slide step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlideEvent {
    /// A tile moved without merging.
    Moved {
        /// The tile.
        tile: Id,
        /// Where it was.
        from: Pos,
        /// Where it is.
        to: Pos,
    },
    /// Two tiles of equal value became one of twice the value at `to`.
    Merged {
        /// The surviving tile (the one nearer the edge), now worth `value`.
        tile: Id,
        /// Where the surviving tile was (equal to `to` for a single combine).
        from: Pos,
        /// The tile that merged into it and is gone.
        absorbed: Id,
        /// Where the absorbed tile was.
        absorbed_from: Pos,
        /// The cell of the merged tile.
        to: Pos,
        /// The new value.
        value: u32,
        /// Single or double combine.
        combine: Combine,
    },
    /// The score rose by the values of this step's merged tiles.
    Scored {
        /// Points gained.
        points: u64,
    },
    /// A new tile appeared.
    Spawned {
        /// The new tile's id.
        tile: Id,
        /// Its cell.
        at: Pos,
        /// 2 or 4.
        value: u32,
        /// The generator's position around the draw.
        rng: RngSpan,
    },
    /// A tile reached the target for the first time.
    Won {
        /// The tile value that won.
        value: u32,
    },
    /// No slide is possible any more.
    GameOver,
}

/// A 2048 command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlideCommand {
    /// Slide every tile toward an edge.
    Slide(Dir),
}

impl fmt::Display for SlideCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlideCommand::Slide(d) => f.write_str(d.name()),
        }
    }
}

impl FromStr for SlideCommand {
    type Err = String;
    /// `up`, `down`, `left` or `right`.
    fn from_str(s: &str) -> Result<Self, String> {
        Dir::from_name(s.trim())
            .map(SlideCommand::Slide)
            .ok_or_else(|| format!("unknown slide command '{}' (expected up, down, left or right)", s.trim()))
    }
}

/// The 2048 rules with their settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlideRules {
    /// The settings.
    pub config: SlideConfig,
}

/// The lines of a board for one direction, each walked from the edge the tiles move toward:
/// cell `k` of line `l` has index `first + l * line_step + k * cell_step` and position
/// `(x0 + l * xl + k * xk, y0 + l * yl + k * yk)`.
#[derive(Clone, Copy)]
struct Lines {
    count: usize,
    len: usize,
    first: isize,
    line_step: isize,
    cell_step: isize,
    origin: (i32, i32),
    along_line: (i32, i32),
    across_lines: (i32, i32),
}

impl Lines {
    fn new(size: Size, dir: Dir) -> Lines {
        // Written with selects rather than a `match` on the direction: random directions would
        // make a jump table mispredict on most slides.
        let (w, h) = (size.width as isize, size.height as isize);
        let horizontal = matches!(dir, Dir::Left | Dir::Right);
        let reversed = matches!(dir, Dir::Right | Dir::Down);
        let sign: isize = if reversed { -1 } else { 1 };
        let (count, len, line_step, stride) = if horizontal { (h, w, w, 1) } else { (w, h, 1, w) };
        let last = (len - 1) as i32;
        Lines {
            count: count as usize,
            len: len as usize,
            first: if reversed { (len - 1) * stride } else { 0 },
            line_step,
            cell_step: stride * sign,
            origin: match (reversed, horizontal) {
                (false, _) => (0, 0),
                (true, true) => (last, 0),
                (true, false) => (0, last),
            },
            along_line: if horizontal { (sign as i32, 0) } else { (0, sign as i32) },
            across_lines: if horizontal { (0, 1) } else { (1, 0) },
        }
    }

    /// Index of the first cell of `line`.
    #[inline]
    fn start(&self, line: usize) -> isize {
        self.first + line as isize * self.line_step
    }

    /// The index of cell `k` along `line`.
    #[inline]
    fn index(&self, line: usize, k: usize) -> usize {
        (self.start(line) + k as isize * self.cell_step) as usize
    }

    /// The cell of `k` along `line`.
    #[inline]
    fn pos(&self, line: usize, k: usize) -> Pos {
        let (l, k) = (line as i32, k as i32);
        let x = self.origin.0 + l * self.across_lines.0 + k * self.along_line.0;
        let y = self.origin.1 + l * self.across_lines.1 + k * self.along_line.1;
        Pos::new(x as u16, y as u16)
    }
}

impl SlideRules {
    /// Rules with `config`.
    pub fn new(config: SlideConfig) -> Self {
        SlideRules { config }
    }

    /// [`Rules::apply`], pushing into any buffer whose items can be made from a [`SlideEvent`]
    /// (the `AnyEvent` buffer of the apps, with no copy).
    pub fn apply_into<E: From<SlideEvent>>(
        &self,
        state: &mut SlideState,
        cmd: &SlideCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        let SlideCommand::Slide(dir) = *cmd;
        let size = state.board.size();
        let lines = Lines::new(size, dir);
        let cells = state.board.cells_mut();
        let exps = &mut state.exps;
        let mut step = Step::default();
        // Boards whose lines are not four cells long find their changing lines in one scan
        // first, and count their empty cells before the slide (each merge adds one); lines of
        // four look theirs up in the plans and count line by line.
        let whole_board = lines.len != 4;
        // Where each line's first change is. The usual small board gets a small array, so that
        // filling it costs next to nothing.
        let (mut small, mut large);
        let first: &mut [u16] = if lines.count <= 16 {
            small = [UNCHANGED; 16];
            &mut small
        } else {
            large = [UNCHANGED; MAX_SIDE as usize];
            &mut large
        };
        if whole_board {
            changed_lines(exps, size, dir, first);
        }
        for (l, &from) in first[..lines.count].iter().enumerate() {
            // Lines of four cells holding tiles up to 2^15 (every classic 4×4 game until its
            // 65536 tile) follow a precomputed plan; other lines take the general path.
            if lines.len == 4 && slide_planned_line(cells, exps, &lines, l, &mut step, events) {
                continue;
            }
            let line_changes = if whole_board { from != UNCHANGED } else { line_changes(cells, &lines, l) };
            if line_changes {
                let from = if whole_board { usize::from(from) } else { 0 };
                slide_line(cells, exps, &lines, l, from, &mut step, events);
            }
        }
        let Step { changed, mut hash, points, mut best } = step;

        if !changed {
            return Err(Rejected::new("no_change", "the slide would not move or merge any tile"));
        }
        if points > 0 {
            hash ^= field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, state.score + points);
        }
        state.score += points;
        state.hash ^= hash;
        if points > 0 {
            events.push(E::from(SlideEvent::Scored { points }));
        }
        let empty = state.empty_count();
        let (at, tile, rng) = state.spawn(&self.config, empty);
        events.push(E::from(SlideEvent::Spawned { tile: tile.id, at, value: tile.value, rng }));
        best = best.max(tile.value);
        if !state.won && best >= self.config.target {
            state.won = true;
            state.hash ^= won_key();
            events.push(E::from(SlideEvent::Won { value: best }));
        }
        if empty == 1 && !state.can_move() {
            events.push(E::from(SlideEvent::GameOver));
        }
        Ok(())
    }
}

/// What the lines of one slide add up to.
#[derive(Default)]
struct Step {
    /// Whether any line changed.
    changed: bool,
    /// How the board's part of the hash changes.
    hash: u64,
    /// Points scored.
    points: u64,
    /// The largest merged value.
    best: u32,
}

impl Step {
    /// Tiles `tile` (from `k` along `line`) and `absorbed` (from `absorbed_k`) merge at `out`,
    /// becoming `tile` worth `value`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn merge<E: From<SlideEvent>>(
        &mut self,
        lines: &Lines,
        line: usize,
        (tile, k): (Id, usize),
        (absorbed, absorbed_k): (Id, usize),
        out: usize,
        value: u32,
        events: &mut Vec<E>,
    ) {
        let at = |k: usize| lines.index(line, k);
        self.hash ^= merge_key(tile, at(k), absorbed, at(absorbed_k), at(out), value);
        events.push(E::from(merged(lines, line, tile, k, absorbed, absorbed_k, out, value)));
        self.points += u64::from(value);
        self.best = self.best.max(value);
    }

    /// `tile` moves from `from` to `to` along `line`.
    #[inline]
    fn moved<E: From<SlideEvent>>(
        &mut self,
        lines: &Lines,
        line: usize,
        tile: Id,
        from: usize,
        to: usize,
        events: &mut Vec<E>,
    ) {
        events.push(E::from(SlideEvent::Moved {
            tile,
            from: lines.pos(line, from),
            to: lines.pos(line, to),
        }));
        self.hash ^= pos_key(lines.index(line, from), tile) ^ pos_key(lines.index(line, to), tile);
    }
}

/// Slides line `l` (of four cells) by its precomputed plan; `false`, touching nothing, when a
/// tile is too large for the plans (the general path takes the line then).
#[inline]
fn slide_planned_line<E: From<SlideEvent>>(
    cells: &mut [Tile],
    exps: &mut Exponents,
    lines: &Lines,
    l: usize,
    step: &mut Step,
    events: &mut Vec<E>,
) -> bool {
    let idx = [0, 1, 2, 3].map(|k| lines.index(l, k));
    let t = idx.map(|i| cells[i]);
    let e = idx.map(|i| u32::from(exps.get(i))); // 0 for an empty cell
    if (e[0] | e[1] | e[2] | e[3]) >= 16 {
        return false;
    }
    let plan = line_plans()[usize::from((e[0] | e[1] << 4 | e[2] << 8 | e[3] << 12) as u16)];
    if plan & PLAN_CHANGES == 0 {
        return true;
    }
    step.changed = true;
    let mut out = 0;
    while out < 4 && (plan >> (6 * out)) & SLOT_USED != 0 {
        let slot = plan >> (6 * out);
        let a = (slot >> 2 & 3) as usize;
        if slot & SLOT_MERGED != 0 {
            let b = (slot >> 4 & 3) as usize;
            let value = t[a].value * 2;
            cells[idx[out]] = Tile { id: t[a].id, value };
            exps.set(idx[out], value);
            step.merge(lines, l, (t[a].id, a), (t[b].id, b), out, value, events);
        } else if a != out {
            cells[idx[out]] = t[a];
            exps.set(idx[out], t[a].value);
            step.moved(lines, l, t[a].id, a, out, events);
        }
        out += 1;
    }
    for &i in &idx[out..] {
        cells[i] = EMPTY;
        exps.clear(i);
    }
    true
}

/// Slides line `l`, which changes, in one pass from its edge; nothing happens before cell `from`
/// (see [`changed_lines`]; 0 when not known).
///
/// The tiles before the gap that ends at `from` (or before `from + 1` when cell `from` holds a
/// tile) are packed against the edge with no two equal neighbours, so they stay where they are,
/// and only the last of them may still take part: the pass starts there.
///
/// `pending` is the tile placed last (at `out - 1`, from `pending_from`): the next tile may
/// still merge into it, so its event waits until that is known. Cells are written only where a
/// tile lands, and the cells from the last tile placed to the last tile read are cleared at the
/// end. Writing `out` never clobbers a tile still to be read: `out` never passes `k`.
fn slide_line<E: From<SlideEvent>>(
    cells: &mut [Tile],
    exps: &mut Exponents,
    lines: &Lines,
    l: usize,
    from: usize,
    step: &mut Step,
    events: &mut Vec<E>,
) {
    step.changed = true;
    let at = |k: usize| lines.index(l, k);
    let mut gap = from + usize::from(cells[at(from)].value != 0);
    while gap > 0 && cells[at(gap - 1)].value == 0 {
        gap -= 1;
    }
    let start = gap.saturating_sub(1);
    let (mut out, mut pending, mut pending_from, mut last) = (start, EMPTY, 0, start);
    for k in start..lines.len {
        let t = cells[at(k)];
        if t.value == 0 {
            continue;
        }
        last = k;
        if pending.value != 0 && merge(t.value, pending.value) {
            let (to, value) = (out - 1, t.value * 2);
            cells[at(to)] = Tile { id: pending.id, value };
            exps.set(at(to), value);
            step.merge(lines, l, (pending.id, pending_from), (t.id, k), to, value, events);
            pending = EMPTY;
            continue;
        }
        if pending.value != 0 && pending_from != out - 1 {
            step.moved(lines, l, pending.id, pending_from, out - 1, events);
        }
        if k != out {
            cells[at(out)] = t;
            exps.set(at(out), t.value);
        }
        (pending, pending_from) = (t, k);
        out += 1;
    }
    if pending.value != 0 && pending_from != out - 1 {
        step.moved(lines, l, pending.id, pending_from, out - 1, events);
    }
    for k in out..=last {
        cells[at(k)] = EMPTY;
        exps.clear(at(k));
    }
}

/// How the hash changes when the win flag flips.
#[inline]
fn won_key() -> u64 {
    field_key(kind::WON, 0) ^ field_key(kind::WON, 1)
}

/// The cell at `pos`, or why there is none.
fn tile_at(b: &Grid<Tile>, pos: Pos) -> Result<Tile, Inconsistent> {
    b.get(pos)
        .copied()
        .ok_or_else(|| Inconsistent::detailed(format!("cell {pos} is off the {} board", b.size())))
}

fn describe(t: Tile) -> String {
    if t.value == 0 { "nothing".into() } else { format!("tile {} worth {}", t.id, t.value) }
}

/// The `Merged` event of tiles `tile` (from `k` along `line`) and `absorbed` (from
/// `absorbed_k`) meeting at `out`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn merged(
    lines: &Lines,
    line: usize,
    tile: Id,
    k: usize,
    absorbed: Id,
    absorbed_k: usize,
    out: usize,
    value: u32,
) -> SlideEvent {
    SlideEvent::Merged {
        tile,
        from: lines.pos(line, k),
        absorbed,
        absorbed_from: lines.pos(line, absorbed_k),
        to: lines.pos(line, out),
        value,
        combine: if k == out { Combine::Single } else { Combine::Double },
    }
}

/// `SELECT_IN_BYTE[b][k]`: the index of the `k`th set bit of byte `b` (0 where there is none).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                table[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// Set in a line plan when the line changes.
const PLAN_CHANGES: u32 = 1 << 31;
/// In each 6-bit slot of a plan (slot `j` = output cell `j`): a tile lands here ...
const SLOT_USED: u32 = 1;
/// ... made by merging two tiles; bits 2–3 give the (first) source cell, bits 4–5 the second.
const SLOT_MERGED: u32 = 2;

/// What sliding a line of four cells does, for every line whose tiles are at most 2^15: indexed
/// by the four exponents (cell k's in bits 4k..4k+4, 0 for empty). Built once, from the same
/// condense-then-merge rule as the general path, and checked against it by the property tests.
fn line_plans() -> &'static [u32; 1 << 16] {
    static PLANS: std::sync::OnceLock<Box<[u32; 1 << 16]>> = std::sync::OnceLock::new();
    PLANS.get_or_init(|| {
        let mut plans = Box::new([0u32; 1 << 16]);
        for (key, plan) in (0u32..).zip(plans.iter_mut()) {
            *plan = line_plan(std::array::from_fn(|k| key >> (4 * k) & 15));
        }
        plans
    })
}

fn line_plan(e: [u32; 4]) -> u32 {
    let (mut tiles, mut n) = ([0u32; 4], 0);
    for k in 0..4 {
        if e[k as usize] != 0 {
            tiles[n] = k;
            n += 1;
        }
    }
    let (mut plan, mut i, mut out) = (0u32, 0usize, 0u32);
    while i < n {
        let a = tiles[i];
        let slot = if i + 1 < n && e[tiles[i + 1] as usize] == e[a as usize] {
            plan |= PLAN_CHANGES;
            i += 2;
            SLOT_USED | SLOT_MERGED | a << 2 | tiles[i - 1] << 4
        } else {
            if a != out {
                plan |= PLAN_CHANGES;
            }
            i += 1;
            SLOT_USED | a << 2
        };
        plan |= slot << (6 * out);
        out += 1;
    }
    plan
}

impl Rules for SlideRules {
    type State = SlideState;
    type Command = SlideCommand;
    type Event = SlideEvent;

    fn apply(
        &self,
        state: &mut SlideState,
        cmd: &SlideCommand,
        events: &mut Vec<SlideEvent>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    fn undo_event(&self, state: &mut SlideState, event: &SlideEvent) {
        let size = state.board.size();
        let b = &mut state.board;
        match *event {
            SlideEvent::Moved { tile, from, to } => {
                let (f, t) = (size.index(from), size.index(to));
                b[from] = std::mem::replace(&mut b[to], EMPTY);
                state.exps.set(f, b[from].value);
                state.exps.set(t, 0);
                state.hash ^= pos_key(f, tile) ^ pos_key(t, tile);
            }
            SlideEvent::Merged { tile, from, absorbed, absorbed_from, to, value, .. } => {
                b[to] = EMPTY;
                b[from] = Tile { id: tile, value: value / 2 };
                b[absorbed_from] = Tile { id: absorbed, value: value / 2 };
                let (f, a, t) = (size.index(from), size.index(absorbed_from), size.index(to));
                state.exps.set(t, 0);
                state.exps.set(f, value / 2);
                state.exps.set(a, value / 2);
                state.hash ^= merge_key(tile, f, absorbed, a, t, value);
            }
            SlideEvent::Scored { points } => {
                state.hash ^=
                    field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, state.score - points);
                state.score -= points;
            }
            SlideEvent::Spawned { tile, at, value, rng } => {
                b[at] = EMPTY;
                state.exps.set(size.index(at), 0);
                let before = rng_key(&state.rng);
                state.ids.reset(tile.0);
                state.rng.set_position(rng.before);
                state.hash ^= pos_key(size.index(at), tile)
                    ^ what_key(value, tile)
                    ^ before
                    ^ rng_key(&state.rng)
                    ^ field_key(kind::IDS, u64::from(tile.0))
                    ^ field_key(kind::IDS, u64::from(tile.0) + 1);
            }
            SlideEvent::Won { .. } => {
                state.won = false;
                state.hash ^= won_key();
            }
            SlideEvent::GameOver => {}
        }
    }

    fn redo_event(&self, state: &mut SlideState, event: &SlideEvent) -> Result<(), Inconsistent> {
        let size = state.board.size();
        let b = &mut state.board;
        // The tile `id` worth `value` (any tile when `value` is 0) at `pos`, as an index.
        let holds = |b: &Grid<Tile>, pos: Pos, id: Id, value: u32| -> Result<usize, Inconsistent> {
            let t = tile_at(b, pos)?;
            if t.value == 0 || t.id != id || (value != 0 && t.value != value) {
                return Err(Inconsistent::detailed(format!(
                    "tile {id} is not at {pos} (it holds {})",
                    describe(t)
                )));
            }
            Ok(size.index(pos))
        };
        let empty = |b: &Grid<Tile>, pos: Pos| -> Result<usize, Inconsistent> {
            let t = tile_at(b, pos)?;
            if t.value != 0 {
                return Err(Inconsistent::detailed(format!(
                    "cell {pos} is not empty (it holds {})",
                    describe(t)
                )));
            }
            Ok(size.index(pos))
        };
        match *event {
            SlideEvent::Moved { tile, from, to } => {
                let f = holds(b, from, tile, 0)?;
                let t = empty(b, to)?;
                b[to] = std::mem::replace(&mut b[from], EMPTY);
                state.exps.set(t, b[to].value);
                state.exps.set(f, 0);
                state.hash ^= pos_key(f, tile) ^ pos_key(t, tile);
            }
            SlideEvent::Merged { tile, from, absorbed, absorbed_from, to, value, .. } => {
                if value < 4 || !valid_value(value) {
                    return Err(Inconsistent::detailed(format!(
                        "merged value {value} is not a power of two from 4 to 2^30"
                    )));
                }
                if from == absorbed_from {
                    return Err(Inconsistent::detailed(format!(
                        "tiles {tile} and {absorbed} both at {from}"
                    )));
                }
                let f = holds(b, from, tile, value / 2)?;
                let a = holds(b, absorbed_from, absorbed, value / 2)?;
                let t = if to == from || to == absorbed_from { size.index(to) } else { empty(b, to)? };
                b[from] = EMPTY;
                b[absorbed_from] = EMPTY;
                b[to] = Tile { id: tile, value };
                state.exps.set(f, 0);
                state.exps.set(a, 0);
                state.exps.set(t, value);
                state.hash ^= merge_key(tile, f, absorbed, a, t, value);
            }
            SlideEvent::Scored { points } => {
                let Some(score) = state.score.checked_add(points) else {
                    return Err(Inconsistent::detailed(format!(
                        "score {} + {points} overflows",
                        state.score
                    )));
                };
                state.hash ^= field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, score);
                state.score = score;
            }
            SlideEvent::Spawned { tile, at, value, rng } => {
                let i = empty(b, at)?;
                if tile != state.ids.peek() || tile.0 == u32::MAX {
                    return Err(Inconsistent::detailed(format!(
                        "spawned tile {tile} is out of order (the next id is {})",
                        state.ids.peek()
                    )));
                }
                if value != 2 && value != 4 {
                    return Err(Inconsistent::detailed(format!("spawned value {value} is not 2 or 4")));
                }
                if rng.before != state.rng.position() || rng.after < rng.before {
                    return Err(Inconsistent::detailed(format!(
                        "the generator is at word {}, the spawn drew from word {} to {}",
                        state.rng.position(),
                        rng.before,
                        rng.after
                    )));
                }
                b[at] = Tile { id: tile, value };
                state.exps.set(i, value);
                let before = rng_key(&state.rng);
                state.ids.reset(tile.0 + 1);
                state.rng.set_position(rng.after);
                state.hash ^= pos_key(i, tile)
                    ^ what_key(value, tile)
                    ^ before
                    ^ rng_key(&state.rng)
                    ^ field_key(kind::IDS, u64::from(tile.0))
                    ^ field_key(kind::IDS, u64::from(tile.0) + 1);
            }
            SlideEvent::Won { .. } => {
                if state.won {
                    return Err(Inconsistent::new("the game was already won"));
                }
                state.won = true;
                state.hash ^= won_key();
            }
            SlideEvent::GameOver => {}
        }
        Ok(())
    }

    fn legal_commands(&self, state: &SlideState) -> Vec<SlideCommand> {
        Dir::ALL.into_iter().filter(|&d| state.can_slide(d)).map(SlideCommand::Slide).collect()
    }

    fn status(&self, state: &SlideState) -> Status {
        if !state.can_move() {
            Status::Over
        } else if state.won {
            Status::Won
        } else {
            Status::Playing
        }
    }
}

#[cfg(test)]
mod tests;
