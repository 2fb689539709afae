//! `collapse`: nested Monte Carlo search (NMCS, Cazenave 2009), the standard method for SameGame.
//!
//! **The search board.** NMCS spends its time in random playouts, so it does not play on
//! [`CollapseState`] (whose taps build events, hash keys and an allocated tile list) but on a
//! [`Board`] of its own: one byte per cell (0 empty, colour + 1), column by column from the
//! bottom, with a border of empty cells around it so that neighbour tests need no bounds checks.
//! A tap is a flood fill that empties the group, gravity in the columns it touched, the level's
//! column compaction and its scoring (both read from the rules' [`CollapseConfig`]); nothing is
//! allocated once the search's buffers are warm, and copying a 15×15 board is 289 bytes. A
//! property test plays the board and the engine side by side (same cells, score and groups after
//! every tap); [`solve`] replays its line on the engine before returning it.
//!
//! **Playouts** (level 0) list the groups (one labelling pass) and tap one drawn uniformly, until
//! none is left, avoiding the *tabu colour* (Cazenave's SameGame playout policy): the colour
//! with most tiles when the playout starts is not played while a group of another colour
//! exists. Keeping it whole makes one big group late, and `(n − 2)²` rewards big groups. A
//! playout's value is the final score (with the clear bonus under standard scoring).
//!
//! **Search.** A level-`n` search, from a position, tries every group, runs a level-`n − 1`
//! search after it, and keeps the best whole line found so far (score and taps); then it plays
//! the next tap of that line and repeats until the game ends. Remembering the best line is what
//! makes NMCS strong: a level never ends worse than the best line any of its sub-searches found.
//!
//! [`solve`] restarts the search with fresh generators until its budget is spent, each restart
//! seeded with the best line so far (the restart's top level starts as if it had found it, so
//! restarts refine the best line instead of starting over). The budget is a [`Deadline`]: wall-clock time, or the solving thread's CPU time
//! (fair on a loaded machine, where wall time measures the other processes too). When the
//! deadline passes during a search, the search stops trying moves and follows its best line to
//! the end (or a playout where it has none), so it always returns a complete line.
//!
//! Collapse draws nothing from its generator after the board is made, so there is no chance to
//! determinize: the bot's own generator only drives the playouts.
//!
//! `nrpa.rs` holds the other search, nested rollout policy adaptation ([`solve_nrpa`]), on the
//! same board.
//!
//! `register.rs` registers collapse with the bots (its [`crate::Playable`] impl, the `nmcs`
//! bot).

mod nrpa;
mod register;

pub use nrpa::{ALPHA, Budget, ITERATIONS, MAX_LEVEL, Nrpa, NrpaBot, TABU_BIAS, solve_nrpa};
pub(crate) use register::Game;
pub use register::{NMCS, NRPA};

use crate::{Bot, BotRng};
use std::time::{Duration, Instant};
use tessera_core::collapse::{CollapseCommand, CollapseConfig, CollapseRules, CollapseState, Compaction};
use tessera_core::{Pos, Rules};

/// Settings of [`NmcsBot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NmcsConfig {
    /// Nesting level, 1 to 3 (0 is a single random playout).
    pub level: u32,
}

impl Default for NmcsConfig {
    fn default() -> Self {
        NmcsConfig { level: 1 }
    }
}

/// A tap on a [`Board`]: the index of one cell of the group ([`Board::pos`] gives its place).
pub type Tap = u32;

/// A SameGame board for search (see the module docs). The default is an empty 0×0 board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    /// `height + 2`: the distance between two columns.
    stride: usize,
    /// `(width + 2) × (height + 2)` bytes: column `x` holds its cells at
    /// `(x + 1) · stride + 1 + r` for `r` from 0 (the bottom row) up; 0 is empty, else colour + 1.
    cells: Vec<u8>,
    score: u64,
    tiles: u32,
}

/// One group of a [`Board`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGroup {
    /// One of its cells.
    pub tap: Tap,
    /// Number of tiles.
    pub size: u32,
    /// Colour (as the engine numbers them).
    pub colour: u8,
}

/// Reusable buffers for labelling and tapping a [`Board`].
#[derive(Clone, Debug, Default)]
pub struct BoardScratch {
    /// Per cell: whether the tile has a neighbour of its colour (see [`Board::for_each_group`]).
    joined: Vec<u8>,
    mark: Vec<u32>,
    epoch: u32,
    stack: Vec<u32>,
}

impl BoardScratch {
    fn next_epoch(&mut self, cells: usize) -> u32 {
        if self.mark.len() != cells || self.epoch == u32::MAX {
            self.mark.clear();
            self.mark.resize(cells, 0);
            self.epoch = 0;
        }
        self.epoch += 1;
        self.epoch
    }
}

impl Default for Board {
    fn default() -> Self {
        Board { width: 0, height: 0, stride: 2, cells: Vec::new(), score: 0, tiles: 0 }
    }
}

impl Board {
    /// The board, score and tile count of `state`.
    pub fn from_state(state: &CollapseState) -> Self {
        let grid = state.board();
        let (width, height) = (usize::from(grid.width()), usize::from(grid.height()));
        let stride = height + 2;
        let mut cells = vec![0u8; (width + 2) * stride];
        let mut tiles = 0;
        for x in 0..width {
            for r in 0..height {
                let at = Pos::new(x as u16, (height - 1 - r) as u16);
                if let Some(Some(t)) = grid.get(at) {
                    cells[(x + 1) * stride + 1 + r] = t.colour + 1;
                    tiles += 1;
                }
            }
        }
        Board { width, height, stride, cells, score: state.score(), tiles }
    }

    /// Makes this board a copy of `other`, reusing its buffer.
    #[inline]
    pub fn copy_from(&mut self, other: &Board) {
        self.width = other.width;
        self.height = other.height;
        self.stride = other.stride;
        self.cells.clone_from(&other.cells);
        self.score = other.score;
        self.tiles = other.tiles;
    }

    /// The score so far.
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Tiles left.
    pub fn tiles(&self) -> u32 {
        self.tiles
    }

    /// Where `tap` is on the engine's board.
    pub fn pos(&self, tap: Tap) -> Pos {
        let i = tap as usize;
        let (x, r) = (i / self.stride - 1, i % self.stride - 1);
        Pos::new(x as u16, (self.height - 1 - r) as u16)
    }

    /// The tap at `pos` (which must be on the board).
    pub fn tap_at(&self, pos: Pos) -> Tap {
        let r = self.height - 1 - usize::from(pos.y);
        ((usize::from(pos.x) + 1) * self.stride + 1 + r) as Tap
    }

    /// The colour at `pos`, if a tile is there.
    pub fn colour(&self, pos: Pos) -> Option<u8> {
        self.cells[self.tap_at(pos) as usize].checked_sub(1)
    }

    /// Calls `found` with every group of at least `min` tiles (in the order of their lowest
    /// cell index: column by column from the left, each from the bottom up).
    ///
    /// First a pass over the whole board, written so that it vectorizes, marks the tiles that
    /// have a neighbour of their colour (the border makes every neighbour an index away, so the
    /// pass is five shifted slices compared byte by byte); then only marked cells are visited,
    /// eight at a time past the unmarked, and each group is flood filled once through marked
    /// cells, unmarking them. Tiles with no such neighbour are groups of one, reported only when
    /// `min` ≤ 1.
    #[inline]
    pub fn for_each_group(
        &mut self,
        min: u32,
        scratch: &mut BoardScratch,
        mut found: impl FnMut(BoardGroup),
    ) {
        let s = self.stride;
        let n = self.cells.len();
        let BoardScratch { joined, stack, .. } = scratch;
        // Eight spare bytes at the end, so that the scan below reads whole words.
        if joined.len() != n + 8 {
            joined.clear();
            joined.resize(n + 8, 0);
        }
        if stack.len() < n {
            stack.resize(n, 0);
        }
        if n < 2 * s {
            return;
        }
        let (joined, stack) = (&mut joined[..], &mut stack[..]);
        let cells = &self.cells[..];
        self.mark_joined(joined);
        if min <= 1 {
            for (i, &c) in cells.iter().enumerate() {
                if c != 0 && joined[i] == 0 {
                    found(BoardGroup { tap: i as Tap, size: 1, colour: c - 1 });
                }
            }
        }
        let mut word_start = s;
        while word_start < n - s {
            let mut bits =
                u64::from_le_bytes(joined[word_start..word_start + 8].try_into().unwrap_or([0; 8]));
            if word_start + 8 > n - s {
                bits &= (1u64 << (8 * (n - s - word_start))) - 1;
            }
            while bits != 0 {
                let i = word_start + (bits.trailing_zeros() / 8) as usize;
                bits &= !(0xffu64 << (8 * (i - word_start)));
                let c = joined[i];
                if c == 0 {
                    continue; // unmarked by an earlier group's fill
                }
                joined[i] = 0;
                stack[0] = i as u32;
                let (mut top, mut size) = (1, 0);
                while top > 0 {
                    top -= 1;
                    let j = stack[top] as usize;
                    size += 1;
                    for k in [j - 1, j + 1, j - s, j + s] {
                        if joined[k] == c {
                            joined[k] = 0;
                            stack[top] = k as u32;
                            top += 1;
                        }
                    }
                }
                if size >= min {
                    found(BoardGroup { tap: i as Tap, size, colour: c - 1 });
                }
            }
            word_start += 8;
        }
    }

    /// Sets `joined[i]` (for every cell but the first and last padding column) to the colour
    /// byte of a tile that has a neighbour of its colour, else 0. Written so that it vectorizes:
    /// the border makes every neighbour an index away, so this is five shifted slices compared
    /// byte by byte. `joined` must be at least as long as the board's cells.
    #[inline]
    fn mark_joined(&self, joined: &mut [u8]) {
        let (s, n) = (self.stride, self.cells.len());
        let cells = &self.cells[..];
        let inner = &mut joined[s..n - s];
        let around = cells[s - 1..n - s - 1]
            .iter()
            .zip(&cells[s + 1..n - s + 1])
            .zip(cells[..n - 2 * s].iter().zip(&cells[2 * s..]));
        for ((j, &c), ((&below, &above), (&left, &right))) in
            inner.iter_mut().zip(&cells[s..n - s]).zip(around)
        {
            *j = c
                * (u8::from(c == below) | u8::from(c == above) | u8::from(c == left) | u8::from(c == right));
        }
    }

    /// Whether `i` (a joined tile of colour byte `c`) is the lowest index of its group, by a
    /// flood fill through joined cells (marking them `epoch` in `mark`) that stops at the first
    /// lower index.
    #[inline]
    fn is_first_cell(
        &self,
        i: usize,
        c: u8,
        joined: &[u8],
        mark: &mut [u32],
        epoch: u32,
        stack: &mut [u32],
    ) -> bool {
        let s = self.stride;
        mark[i] = epoch;
        stack[0] = i as u32;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let j = stack[top] as usize;
            for k in [j - 1, j + 1, j - s, j + s] {
                if joined[k] == c && mark[k] != epoch {
                    if k < i {
                        return false;
                    }
                    mark[k] = epoch;
                    stack[top] = k as u32;
                    top += 1;
                }
            }
        }
        true
    }

    /// Pushes every group of at least `min` tiles into `out` (not cleared first).
    pub fn groups_into(&mut self, min: u32, scratch: &mut BoardScratch, out: &mut Vec<BoardGroup>) {
        self.for_each_group(min, scratch, |g| out.push(g));
    }

    /// Whether a group of at least two tiles exists.
    fn has_pair(&self) -> bool {
        let s = self.stride;
        for x in 0..self.width {
            let base = (x + 1) * s + 1;
            for i in base..base + self.height {
                let c = self.cells[i];
                if c == 0 {
                    break;
                }
                if self.cells[i + 1] == c || self.cells[i + s] == c {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a group of at least `min` tiles exists.
    pub fn has_group(&mut self, min: u32, scratch: &mut BoardScratch) -> bool {
        match min {
            0 | 1 => self.tiles > 0,
            2 => self.has_pair(),
            _ => {
                let mut any = false;
                self.for_each_group(min, scratch, |_| any = true);
                any
            }
        }
    }

    fn column_empty(&self, x: usize) -> bool {
        self.cells[(x + 1) * self.stride + 1] == 0
    }

    fn move_column(&mut self, from: usize, to: usize) {
        let (s, h) = (self.stride, self.height);
        let (f, t) = ((from + 1) * s + 1, (to + 1) * s + 1);
        for r in 0..h {
            let c = std::mem::take(&mut self.cells[f + r]);
            if c == 0 {
                break;
            }
            self.cells[t + r] = c;
        }
    }

    /// Taps the group at `tap` under `config`: clears it, lets the tiles above fall, closes
    /// empty columns and scores, as the engine does. Returns the tiles cleared; a tap on an
    /// empty cell or on a group smaller than `min_group` changes nothing and returns 0.
    pub fn tap(&mut self, tap: Tap, config: &CollapseConfig, scratch: &mut BoardScratch) -> u32 {
        let start = tap as usize;
        let c = self.cells.get(start).copied().unwrap_or(0);
        if c == 0 {
            return 0;
        }
        let s = self.stride;
        let min = config.min_group.max(1);
        if min >= 2 {
            let joined = (self.cells[start - 1] == c)
                | (self.cells[start + 1] == c)
                | (self.cells[start - s] == c)
                | (self.cells[start + s] == c);
            if !joined || (min >= 3 && self.group_size(start, scratch) < min) {
                return 0;
            }
        }
        let stack = &mut scratch.stack;
        stack.clear();
        stack.push(start as u32);
        self.cells[start] = 0;
        let (mut n, mut lo, mut hi) = (0u32, start, start);
        while let Some(j) = stack.pop() {
            let j = j as usize;
            n += 1;
            lo = lo.min(j);
            hi = hi.max(j);
            for k in [j - 1, j + 1, j - s, j + s] {
                if self.cells[k] == c {
                    self.cells[k] = 0;
                    stack.push(k as u32);
                }
            }
        }
        // Gravity in the columns the group touched (cells `lo..=hi` span them).
        let (x0, x1) = (lo / s - 1, hi / s - 1);
        for x in x0..=x1 {
            let base = (x + 1) * s + 1;
            let mut dest = base;
            for i in base..base + self.height {
                let v = self.cells[i];
                if v != 0 {
                    if i != dest {
                        self.cells[dest] = v;
                        self.cells[i] = 0;
                    }
                    dest += 1;
                }
            }
        }
        self.tiles -= n;
        if (x0..=x1).any(|x| self.column_empty(x)) {
            self.compact(config.compaction);
        }
        self.score += config.scoring.points(n);
        if self.tiles == 0 {
            self.score += config.scoring.clear_bonus();
        }
        n
    }

    /// The size of the group at `start` (a tile).
    fn group_size(&self, start: usize, scratch: &mut BoardScratch) -> u32 {
        let epoch = scratch.next_epoch(self.cells.len());
        let BoardScratch { mark, stack, .. } = scratch;
        let (c, s) = (self.cells[start], self.stride);
        mark[start] = epoch;
        stack.clear();
        stack.push(start as u32);
        let mut n = 0;
        while let Some(j) = stack.pop() {
            let j = j as usize;
            n += 1;
            for k in [j - 1, j + 1, j - s, j + s] {
                if self.cells[k] == c && mark[k] != epoch {
                    mark[k] = epoch;
                    stack.push(k as u32);
                }
            }
        }
        n
    }

    fn compact(&mut self, compaction: Compaction) {
        let w = self.width;
        match compaction {
            Compaction::None => {}
            Compaction::Left => {
                let mut dest = 0;
                for x in 0..w {
                    if !self.column_empty(x) {
                        if x != dest {
                            self.move_column(x, dest);
                        }
                        dest += 1;
                    }
                }
            }
            Compaction::Center => {
                let c = w / 2;
                let mut dest = c + 1;
                for x in (0..=c).rev() {
                    if !self.column_empty(x) {
                        dest -= 1;
                        if x != dest {
                            self.move_column(x, dest);
                        }
                    }
                }
                let mut dest = c + 1;
                for x in c + 1..w {
                    if !self.column_empty(x) {
                        if x != dest {
                            self.move_column(x, dest);
                        }
                        dest += 1;
                    }
                }
            }
        }
    }

    /// The colour with the most tiles (the lowest such colour on a tie), if any tile is left.
    fn most_common_colour(&self) -> Option<u8> {
        let mut counts = [0u32; 17];
        for &c in &self.cells {
            counts[usize::from(c).min(16)] += 1;
        }
        let (colour, &n) = counts[1..].iter().enumerate().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))?;
        (n > 0).then_some(colour as u8)
    }
}

/// When a search stops: a wall-clock instant, or an amount of the searching thread's CPU time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// When [`Instant::now`] reaches it.
    Wall(Instant),
    /// When the CPU time of the thread that checks it reaches it ([`thread_cpu_time`]).
    ThreadCpu(Duration),
}

impl Deadline {
    /// `budget` of wall-clock time from now.
    pub fn wall_after(budget: Duration) -> Self {
        Deadline::Wall(Instant::now() + budget)
    }

    /// `budget` of the calling thread's CPU time from now; `None` where that clock is not
    /// available.
    pub fn cpu_after(budget: Duration) -> Option<Self> {
        thread_cpu_time().map(|now| Deadline::ThreadCpu(now + budget))
    }

    /// Whether the deadline has passed (a clock that fails counts as passed, so that a search
    /// never runs on without end).
    pub fn passed(&self) -> bool {
        match *self {
            Deadline::Wall(at) => Instant::now() >= at,
            Deadline::ThreadCpu(at) => thread_cpu_time().is_none_or(|now| now >= at),
        }
    }
}

/// The CPU time the calling thread has used (user and system), where the platform has that
/// clock (`CLOCK_THREAD_CPUTIME_ID` on Unix).
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID).ok().map(Duration::from)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The search's buffers and counters.
pub struct Nmcs<'a> {
    config: &'a CollapseConfig,
    min: u32,
    rng: BotRng,
    scratch: BoardScratch,
    /// The taps' buffers, apart from `scratch`, whose marks the sampled playout keeps.
    scratch_tap: BoardScratch,
    /// Per level: the position the level plays on, and a child position.
    current: Vec<Board>,
    child: Vec<Board>,
    groups: Vec<Vec<BoardGroup>>,
    /// The playout's board and taps, and its groups not of the tabu colour and of it.
    playout_board: Board,
    free: Vec<Tap>,
    taboo: Vec<Tap>,
    playout_line: Vec<Tap>,
    deadline: Option<Deadline>,
    expired: bool,
    /// Random playouts run so far.
    pub playouts: u64,
}

impl<'a> Nmcs<'a> {
    /// A search under `config`, drawing its playouts from `seed`, stopping its tries at
    /// `deadline`.
    pub fn new(config: &'a CollapseConfig, seed: u64, deadline: Option<Deadline>) -> Self {
        Nmcs {
            config,
            min: config.min_group.max(1),
            rng: BotRng::new(seed),
            scratch: BoardScratch::default(),
            scratch_tap: BoardScratch::default(),
            current: Vec::new(),
            child: Vec::new(),
            groups: Vec::new(),
            playout_board: Board::default(),
            free: Vec::new(),
            taboo: Vec::new(),
            playout_line: Vec::new(),
            deadline,
            expired: false,
            playouts: 0,
        }
    }

    fn timed_out(&mut self) -> bool {
        if !self.expired && self.deadline.is_some_and(|d| d.passed()) {
            self.expired = true;
        }
        self.expired
    }

    /// A random playout on `b` (played to the end): the final score, with the taps appended to
    /// `line`.
    pub fn playout(&mut self, b: &mut Board, line: &mut Vec<Tap>) -> u64 {
        self.playouts += 1;
        let tabu = b.most_common_colour();
        if self.min == 2 {
            return self.sampled_playout(b, line, tabu);
        }
        let (min, config) = (self.min, self.config);
        let (mut free, mut taboo) = (std::mem::take(&mut self.free), std::mem::take(&mut self.taboo));
        // Room for every group (at most one per tile): pushes need no capacity checks.
        let room = b.cells.len();
        if free.len() < room {
            free.resize(room, 0);
            taboo.resize(room, 0);
        }
        loop {
            // One labelling pass: the groups not of the tabu colour, and those of it.
            let (mut nf, mut nt) = (0, 0);
            b.for_each_group(min, &mut self.scratch, |g| {
                if Some(g.colour) == tabu {
                    taboo[nt] = g.tap;
                    nt += 1;
                } else {
                    free[nf] = g.tap;
                    nf += 1;
                }
            });
            let from = if nf > 0 { &free[..nf] } else { &taboo[..nt] };
            if from.is_empty() {
                break;
            }
            let tap = from[self.rng.below(from.len() as u32) as usize];
            b.tap(tap, config, &mut self.scratch);
            line.push(tap);
        }
        self.free = free;
        self.taboo = taboo;
        b.score
    }

    /// [`Nmcs::playout`] for groups of two or more (the usual rule), without listing the groups:
    /// each step marks the tiles that have a neighbour of their colour (one vectorized pass,
    /// then a count of them and of those not of the tabu colour), then draws cells uniformly
    /// until one is a marked tile of an allowed colour that is the lowest cell of its group (a
    /// flood fill that stops at the first lower cell). Every group has exactly one lowest cell,
    /// so every allowed group is equally likely, as with the list; most draws cost a byte test.
    fn sampled_playout(&mut self, b: &mut Board, line: &mut Vec<Tap>, tabu: Option<u8>) -> u64 {
        let config = self.config;
        let tabu_byte = tabu.map_or(0, |t| t + 1);
        let (s, n) = (b.stride, b.cells.len());
        let BoardScratch { joined, mark, stack, .. } = &mut self.scratch;
        if joined.len() < n + 8 {
            joined.resize(n + 8, 0);
        }
        if stack.len() < n {
            stack.resize(n, 0);
        }
        if mark.len() < n {
            mark.resize(n, 0);
        }
        mark[..n].fill(0);
        let mut epoch = 0u32;
        loop {
            b.mark_joined(joined);
            let marked = &joined[s..n - s];
            let avoid = if marked.iter().any(|&j| j != 0 && j != tabu_byte) {
                tabu_byte
            } else if marked.iter().any(|&j| j != 0) {
                0
            } else {
                break;
            };
            // Draw among the columns holding tiles.
            let first = (0..b.width).find(|&x| !b.column_empty(x)).unwrap_or(0);
            let last = (0..b.width).rev().find(|&x| !b.column_empty(x)).unwrap_or(first);
            let (lo, span) = ((first + 1) * s, ((last - first + 1) * s) as u32);
            // Four draws from each 64-bit word, 16 bits each, while the span has at most 2^16
            // cells (every board up to 250×250; a 16-bit draw reaches every cell of such a span,
            // with a bias irrelevant to a playout); a whole draw each beyond.
            let (mut bits, mut left, mut misses) = (0u64, 0u32, 0u32);
            let short = span <= 1 << 16;
            let tap = 'draw: loop {
                if misses == 24 {
                    // Few candidates among many cells (late in a game): list them, then draw
                    // from the list (still uniform over cells, so over groups).
                    let cands = &mut self.free;
                    cands.clear();
                    for (k, &j) in joined[lo..lo + span as usize].iter().enumerate() {
                        if j != 0 && j != avoid {
                            cands.push((lo + k) as Tap);
                        }
                    }
                    loop {
                        let i = cands[self.rng.below(cands.len() as u32) as usize] as usize;
                        epoch = epoch.wrapping_add(1);
                        if epoch == 0 {
                            mark[..n].fill(0);
                            epoch = 1;
                        }
                        if b.is_first_cell(i, joined[i], joined, mark, epoch, stack) {
                            break 'draw i;
                        }
                    }
                }
                let i = if short {
                    if left == 0 {
                        bits = self.rng.next_u64();
                        left = 4;
                    }
                    let i = lo + (((bits & 0xffff) * u64::from(span)) >> 16) as usize;
                    bits >>= 16;
                    left -= 1;
                    i
                } else {
                    lo + self.rng.below(span) as usize
                };
                let c = joined[i];
                if c == 0 || c == avoid {
                    misses += 1;
                    continue;
                }
                epoch = epoch.wrapping_add(1);
                if epoch == 0 {
                    mark[..n].fill(0);
                    epoch = 1;
                }
                if b.is_first_cell(i, c, joined, mark, epoch, stack) {
                    break i;
                }
            };
            b.tap(tap as Tap, config, &mut self.scratch_tap);
            line.push(tap as Tap);
        }
        b.score
    }

    fn ensure(&mut self, level: usize) {
        while self.current.len() <= level {
            self.current.push(Board::default());
            self.child.push(Board::default());
            self.groups.push(Vec::new());
        }
    }

    /// A level-`level` search from `b`: the best final score found and its line of taps from `b`.
    pub fn search(&mut self, b: &Board, level: u32) -> (u64, Vec<Tap>) {
        self.search_from(b, level, None)
    }

    /// [`Nmcs::search`], starting from a known line of `b` (its final score and taps): the
    /// search begins as if it had found that line, so it returns it or a better one. `solve`
    /// seeds each restart with the best line so far, so that restarts refine it rather than
    /// start over.
    pub fn search_from(&mut self, b: &Board, level: u32, known: Option<(u64, Vec<Tap>)>) -> (u64, Vec<Tap>) {
        if level == 0 {
            let mut pb = std::mem::take(&mut self.playout_board);
            pb.copy_from(b);
            let mut line = Vec::new();
            let score = self.playout(&mut pb, &mut line);
            self.playout_board = pb;
            return (score, line);
        }
        let lv = level as usize;
        self.ensure(lv);
        let mut cur = std::mem::take(&mut self.current[lv]);
        let mut child = std::mem::take(&mut self.child[lv]);
        let mut groups = std::mem::take(&mut self.groups[lv]);
        cur.copy_from(b);
        let mut best: (u64, Vec<Tap>) = known.unwrap_or((cur.score, Vec::new()));
        let mut played = 0usize;
        loop {
            groups.clear();
            cur.groups_into(self.min, &mut self.scratch, &mut groups);
            if groups.is_empty() {
                break;
            }
            if !self.timed_out() {
                for g in &groups {
                    child.copy_from(&cur);
                    child.tap(g.tap, self.config, &mut self.scratch);
                    if level == 1 {
                        // Straight into a playout on the child, with a reused line buffer.
                        let mut line = std::mem::take(&mut self.playout_line);
                        line.clear();
                        let score = self.playout(&mut child, &mut line);
                        if score > best.0 || best.1.len() <= played {
                            best.1.truncate(played);
                            best.1.push(g.tap);
                            best.1.extend_from_slice(&line);
                            best.0 = score;
                        }
                        self.playout_line = line;
                    } else {
                        let (score, sub) = self.search_from(&child, level - 1, None);
                        if score > best.0 || best.1.len() <= played {
                            best.1.truncate(played);
                            best.1.push(g.tap);
                            best.1.extend(sub);
                            best.0 = score;
                        }
                    }
                    if self.timed_out() {
                        break;
                    }
                }
            }
            if best.1.len() <= played {
                // Out of time before any try here: finish with a playout.
                child.copy_from(&cur);
                let mut tail = Vec::new();
                best.0 = self.playout(&mut child, &mut tail);
                best.1.truncate(played);
                best.1.extend(tail);
            }
            cur.tap(best.1[played], self.config, &mut self.scratch);
            played += 1;
        }
        self.current[lv] = cur;
        self.child[lv] = child;
        self.groups[lv] = groups;
        best
    }
}

/// What [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best final score.
    pub score: u64,
    /// Its taps, from the start, each at its group's first cell in row-major order (as
    /// `legal_commands` lists them).
    pub taps: Vec<Pos>,
    /// Searches run (restarts).
    pub runs: u32,
    /// Random playouts in all.
    pub playouts: u64,
    /// The CPU time the search threads used in all, where the platform has a thread CPU clock.
    pub cpu: Option<Duration>,
    /// NRPA: each improvement of the best score, (time into its thread's search — CPU time
    /// where there is a thread CPU clock —, score), the threads' merged in time order. Empty for
    /// NMCS.
    pub trace: Vec<(Duration, u64)>,
}

/// Runs level-`level` NMCS from `state` again and again with fresh generators (seeded from
/// `seed`) until `deadline`, each run starting from the best line so far
/// ([`Nmcs::search_from`]), and returns the best line, replayed on the engine (its score is the
/// engine's). At least one search runs.
pub fn solve(
    rules: &CollapseRules,
    state: &CollapseState,
    level: u32,
    seed: u64,
    deadline: Deadline,
) -> Solution {
    let cpu_began = thread_cpu_time();
    let board = Board::from_state(state);
    let mut seeds = BotRng::new(seed);
    let (mut best, mut runs, mut playouts) = (None, 0u32, 0);
    loop {
        let mut search = Nmcs::new(&rules.config, seeds.next_u64(), Some(deadline));
        let found = search.search_from(&board, level, best.take());
        best = Some(found);
        runs += 1;
        playouts += search.playouts;
        if deadline.passed() {
            break;
        }
    }
    let best_line = best.map(|(_, line)| line).unwrap_or_default();
    let cpu = cpu_began.and_then(|b| Some(thread_cpu_time()?.saturating_sub(b)));
    let (score, taps) = engine_line(rules, state, &board, &best_line);
    Solution { score, taps, runs, playouts, cpu, trace: Vec::new() }
}

/// Plays `line` (taps on `board`, the board of `state`) on the engine: the final score and the
/// taps as the engine lists them. Stops at the first tap the engine refuses (none, as the
/// property test checks).
fn engine_line(rules: &CollapseRules, state: &CollapseState, board: &Board, line: &[Tap]) -> (u64, Vec<Pos>) {
    let mut s = state.clone();
    let mut events = Vec::new();
    let mut taps = Vec::with_capacity(line.len());
    for &tap in line {
        let at = s.group_at(board.pos(tap)).first().copied().unwrap_or(board.pos(tap));
        events.clear();
        if rules.apply(&mut s, &CollapseCommand::Tap(at), &mut events).is_err() {
            break;
        }
        taps.push(at);
    }
    (s.score(), taps)
}

/// A bot that runs a level-`level` NMCS before each tap and plays the first tap of the best line.
pub struct NmcsBot {
    rng: BotRng,
    config: NmcsConfig,
}

impl NmcsBot {
    /// A bot seeded with `seed`.
    pub fn new(seed: u64, config: NmcsConfig) -> Self {
        NmcsBot { rng: BotRng::new(seed), config }
    }
}

impl Bot<CollapseRules> for NmcsBot {
    fn choose(&mut self, rules: &CollapseRules, state: &CollapseState) -> Option<CollapseCommand> {
        let board = Board::from_state(state);
        let mut search = Nmcs::new(&rules.config, self.rng.next_u64(), None);
        let (_, line) = search.search(&board, self.config.level);
        let &tap = line.first()?;
        let at = state.group_at(board.pos(tap)).first().copied()?;
        Some(CollapseCommand::Tap(at))
    }
}
