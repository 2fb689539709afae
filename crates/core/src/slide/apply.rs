//! The 2048 rule: `apply`/`apply_into`, `legal_commands` and `status`, with what makes a slide
//! fast: the table of line plans for lines of four, the scan for the lines that change, and
//! the condense-and-merge of one line.

use super::*;

/// Whether line `l` changes when slid. Branch-free per cell: a tile after a gap, or two equal
/// tiles in a row, means the line changes.
#[inline]
pub(super) fn line_changes(cells: &[Tile], lines: &Lines, l: usize) -> bool {
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
pub(super) fn row_of(p: usize, w: usize) -> usize {
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

/// The lines of a board for one direction, each walked from the edge the tiles move toward:
/// cell `k` of line `l` has index `first + l * line_step + k * cell_step` and position
/// `(x0 + l * xl + k * xk, y0 + l * yl + k * yk)`.
#[derive(Clone, Copy)]
pub(super) struct Lines {
    pub(super) count: usize,
    len: usize,
    first: isize,
    line_step: isize,
    cell_step: isize,
    origin: (i32, i32),
    along_line: (i32, i32),
    across_lines: (i32, i32),
}

impl Lines {
    pub(super) fn new(size: Size, dir: Dir) -> Lines {
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
    #[inline(always)]
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
#[inline]
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
pub(super) static SELECT_IN_BYTE: [[u8; 8]; 256] = {
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

    #[inline]
    fn undo_event(&self, state: &mut SlideState, event: &SlideEvent) {
        self.undo_one(state, event)
    }

    #[inline]
    fn redo_event(&self, state: &mut SlideState, event: &SlideEvent) -> Result<(), Inconsistent> {
        self.redo_one(state, event)
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
