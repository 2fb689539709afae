//! The 2048 state: the board and scalars, their hash keys and the state's own methods.

use super::*;

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
pub(super) const EMPTY: Tile = Tile { id: Id(0), value: 0 };

/// A 2048 game: board, score, the win flag, the id counter and the generator.
///
/// It also keeps its incremental hash ([`SlideState::hash`]), which is not serialized:
/// deserialization recomputes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawState")]
pub struct SlideState {
    pub(super) board: Grid<Tile>, // value 0 = empty (see EMPTY)
    pub(super) score: u64,
    pub(super) won: bool,
    pub(super) ids: IdGen,
    pub(super) rng: GameRng,
    #[serde(skip)]
    pub(super) hash: u64,
    /// The board's exponents, a byte per cell, for the slide's scans; written with the board.
    #[serde(skip)]
    pub(super) exps: Exponents,
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
pub(super) fn pos_key(index: usize, id: Id) -> u64 {
    cell_key(kind::POS, index as u32, id.0)
}

/// The content half of a tile's hash key: its value (as the exponent) and id.
#[inline]
pub(super) fn what_key(value: u32, id: Id) -> u64 {
    cell_key(kind::WHAT, value.trailing_zeros(), id.0)
}

/// How the hash changes when tiles `tile` (at `from`) and `absorbed` (at `absorbed_from`), both
/// worth `value / 2`, become `tile` worth `value` at `to` (and back).
#[inline]
pub(super) fn merge_key(
    tile: Id,
    from: usize,
    absorbed: Id,
    absorbed_from: usize,
    to: usize,
    value: u32,
) -> u64 {
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

    pub(super) fn empty_count(&self) -> u32 {
        self.exps.empty_count()
    }

    /// Spawns one tile on a random one of the `empty` empty cells (at least one); returns where,
    /// what, and the generator's position around the draws.
    pub(super) fn spawn(&mut self, config: &SlideConfig, empty: u32) -> (Pos, Tile, RngSpan) {
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

/// How the hash changes when the win flag flips.
#[inline]
pub(super) fn won_key() -> u64 {
    field_key(kind::WON, 0) ^ field_key(kind::WON, 1)
}
