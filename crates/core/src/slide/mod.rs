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
//! disappears. Only spawns allocate ids.
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

mod level;

pub use level::SlideLevel;

use crate::geom::{Dir, Grid, Pos, Size};
use crate::id::{Id, IdGen};
use crate::rng::{GameRng, RngSpan};
use crate::rules::{Rejected, Rules, Status};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The largest board side `slide` accepts.
pub const MAX_SIDE: u16 = 256;

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

/// A 2048 game: board, score, the win flag, the id counter and the generator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlideState {
    board: Grid<Option<Tile>>,
    score: u64,
    won: bool,
    ids: IdGen,
    rng: GameRng,
}

impl SlideState {
    /// A new game on an empty `size` board: two tiles spawned from `seed`.
    pub fn new_game(size: Size, config: &SlideConfig, seed: u64) -> Self {
        let mut state = SlideState {
            board: Grid::filled(size, None),
            score: 0,
            won: false,
            ids: IdGen::default(),
            rng: GameRng::new(seed),
        };
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
        if values.len() != size.area() || values.iter().any(|&v| v != 0 && (v < 2 || !v.is_power_of_two())) {
            return None;
        }
        let mut ids = IdGen::default();
        let cells = values.iter().map(|&v| (v != 0).then(|| Tile { id: ids.next(), value: v })).collect();
        Some(SlideState {
            board: Grid::from_cells(size, cells)?,
            score: 0,
            won: false,
            ids,
            rng: GameRng::new(seed),
        })
    }

    /// The board.
    pub fn board(&self) -> &Grid<Option<Tile>> {
        &self.board
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

    /// The board's values, row by row, 0 for empty (the level format's `board`).
    pub fn values(&self) -> Vec<Vec<u32>> {
        self.board.rows().map(|r| r.iter().map(|t| t.map_or(0, |t| t.value)).collect()).collect()
    }

    /// The board as text: one line per row, `.` for empty.
    pub fn render(&self) -> String {
        let widest =
            self.board.cells().iter().flatten().map(|t| t.value.to_string().len()).max().unwrap_or(1);
        let mut out = String::new();
        for row in self.board.rows() {
            let cells: Vec<String> = row
                .iter()
                .map(|t| match t {
                    Some(t) => format!("{:>widest$}", t.value),
                    None => format!("{:>widest$}", "."),
                })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }

    fn empty_count(&self) -> u32 {
        self.board.cells().iter().filter(|c| c.is_none()).count() as u32
    }

    /// Spawns one tile on a random one of the `empty` empty cells (at least one); returns where
    /// and what.
    fn spawn(&mut self, config: &SlideConfig, empty: u32) -> (Pos, Tile) {
        let mut nth = self.rng.below(empty);
        let value = if self.rng.chance(config.four_chance.num, config.four_chance.den) { 4 } else { 2 };
        let tile = Tile { id: self.ids.next(), value };
        let size = self.board.size();
        let mut at = Pos::new(0, 0);
        for (i, cell) in self.board.cells_mut().iter_mut().enumerate() {
            if cell.is_none() {
                if nth == 0 {
                    *cell = Some(tile);
                    at = size.pos(i);
                    break;
                }
                nth -= 1;
            }
        }
        (at, tile)
    }

    /// Whether any slide would change the board.
    pub fn can_move(&self) -> bool {
        let size = self.board.size();
        self.board.iter().any(|(p, t)| match t {
            None => true,
            Some(t) => [Dir::Right, Dir::Down]
                .into_iter()
                .any(|d| p.step(d, size).is_some_and(|q| self.board[q].is_some_and(|u| u.value == t.value))),
        })
    }

    /// Whether sliding toward `dir` would change the board.
    pub fn can_slide(&self, dir: Dir) -> bool {
        let lines = Lines::new(self.board.size(), dir);
        let cells = self.board.cells();
        (0..lines.count).any(|l| {
            let mut prev: Option<u32> = None; // value of the previous tile, None before any
            let mut seen_gap = false;
            for k in 0..lines.len {
                match cells[lines.index(l, k)] {
                    None => seen_gap = true,
                    Some(t) => {
                        if seen_gap || prev == Some(t.value) {
                            return true;
                        }
                        prev = Some(t.value);
                    }
                }
            }
            false
        })
    }
}

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

/// The lines of a board for one direction, each walked from the edge the tiles move toward.
#[derive(Clone, Copy)]
struct Lines {
    count: usize,
    len: usize,
    first: isize,     // index of line 0's first cell
    line_step: isize, // from line l's first cell to line l+1's
    cell_step: isize, // from one cell to the next along a line
    dir: Dir,
    last: u16, // len - 1
}

impl Lines {
    fn new(size: Size, dir: Dir) -> Lines {
        let (w, h) = (size.width as isize, size.height as isize);
        let (count, len, first, line_step, cell_step) = match dir {
            Dir::Left => (h, w, 0, w, 1),
            Dir::Right => (h, w, w - 1, w, -1),
            Dir::Up => (w, h, 0, 1, w),
            Dir::Down => (w, h, (h - 1) * w, 1, -w),
        };
        Lines {
            count: count as usize,
            len: len as usize,
            first,
            line_step,
            cell_step,
            dir,
            last: (len - 1) as u16,
        }
    }

    #[inline]
    fn index(&self, line: usize, k: usize) -> usize {
        (self.first + line as isize * self.line_step + k as isize * self.cell_step) as usize
    }

    /// The cell of `k` along `line`, without dividing by the width.
    #[inline]
    fn pos(&self, line: usize, k: usize) -> Pos {
        let (l, k) = (line as u16, k as u16);
        match self.dir {
            Dir::Left => Pos::new(k, l),
            Dir::Right => Pos::new(self.last - k, l),
            Dir::Up => Pos::new(l, k),
            Dir::Down => Pos::new(l, self.last - k),
        }
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
        let mut changed = false;
        let mut points: u64 = 0;
        let mut best: u32 = 0;
        let mut empty: u32 = 0; // empty cells after the slide, counted line by line

        for l in 0..lines.count {
            // The tile last placed at `dest - 1` that has not merged yet, with its source index
            // k. Its event waits until we know whether the next tile
            // merges into it (single or double combine) or not (a plain move).
            let mut pending: Option<(Tile, usize)> = None;
            let mut dest = 0usize;
            for k in 0..lines.len {
                let src_i = lines.index(l, k);
                let Some(tile) = cells[src_i] else { continue };
                if let Some((p, p_src)) = pending
                    && p.value == tile.value
                {
                    // Merge into the pending tile at dest - 1.
                    let to_i = lines.index(l, dest - 1);
                    let value = p.value * 2;
                    cells[to_i] = Some(Tile { id: p.id, value });
                    cells[src_i] = None;
                    let combine = if p_src == dest - 1 { Combine::Single } else { Combine::Double };
                    events.push(E::from(SlideEvent::Merged {
                        tile: p.id,
                        from: lines.pos(l, p_src),
                        absorbed: tile.id,
                        absorbed_from: lines.pos(l, k),
                        to: lines.pos(l, dest - 1),
                        value,
                        combine,
                    }));
                    points += u64::from(value);
                    best = best.max(value);
                    changed = true;
                    pending = None;
                    continue;
                }
                if let Some((p, p_src)) = pending.take() {
                    report_move(&mut *events, &lines, l, p, p_src, dest - 1);
                }
                if k != dest {
                    let dest_i = lines.index(l, dest);
                    cells[dest_i] = Some(tile);
                    cells[src_i] = None;
                    changed = true;
                }
                pending = Some((tile, k));
                dest += 1;
            }
            if let Some((p, p_src)) = pending {
                report_move(&mut *events, &lines, l, p, p_src, dest - 1);
            }
            empty += (lines.len - dest) as u32;
        }

        if !changed {
            return Err(Rejected::new("no_change", "the slide would not move or merge any tile"));
        }
        state.score += points;
        if points > 0 {
            events.push(E::from(SlideEvent::Scored { points }));
        }
        let before = state.rng.position();
        let (at, tile) = state.spawn(&self.config, empty);
        let after = state.rng.position();
        events.push(E::from(SlideEvent::Spawned {
            tile: tile.id,
            at,
            value: tile.value,
            rng: RngSpan { before, after },
        }));
        best = best.max(tile.value);
        if !state.won && best >= self.config.target {
            state.won = true;
            events.push(E::from(SlideEvent::Won { value: best }));
        }
        if empty == 1 && !state.can_move() {
            events.push(E::from(SlideEvent::GameOver));
        }
        Ok(())
    }
}

#[inline]
fn report_move<E: From<SlideEvent>>(
    events: &mut Vec<E>,
    lines: &Lines,
    line: usize,
    tile: Tile,
    src_k: usize,
    dest_k: usize,
) {
    if src_k != dest_k {
        events.push(E::from(SlideEvent::Moved {
            tile: tile.id,
            from: lines.pos(line, src_k),
            to: lines.pos(line, dest_k),
        }));
    }
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
        let b = &mut state.board;
        match *event {
            SlideEvent::Moved { tile: _, from, to } => {
                b[from] = b[to].take();
            }
            SlideEvent::Merged { tile, from, absorbed, absorbed_from, to, value, .. } => {
                b[to] = None;
                b[from] = Some(Tile { id: tile, value: value / 2 });
                b[absorbed_from] = Some(Tile { id: absorbed, value: value / 2 });
            }
            SlideEvent::Scored { points } => state.score -= points,
            SlideEvent::Spawned { tile, at, rng, .. } => {
                b[at] = None;
                state.ids.reset(tile.0);
                state.rng.set_position(rng.before);
            }
            SlideEvent::Won { .. } => state.won = false,
            SlideEvent::GameOver => {}
        }
    }

    fn redo_event(&self, state: &mut SlideState, event: &SlideEvent) {
        let b = &mut state.board;
        match *event {
            SlideEvent::Moved { tile: _, from, to } => {
                b[to] = b[from].take();
            }
            SlideEvent::Merged { tile, from, absorbed_from, to, value, .. } => {
                b[from] = None;
                b[absorbed_from] = None;
                b[to] = Some(Tile { id: tile, value });
            }
            SlideEvent::Scored { points } => state.score += points,
            SlideEvent::Spawned { tile, at, value, rng } => {
                b[at] = Some(Tile { id: tile, value });
                state.ids.reset(tile.0 + 1);
                state.rng.set_position(rng.after);
            }
            SlideEvent::Won { .. } => state.won = true,
            SlideEvent::GameOver => {}
        }
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
