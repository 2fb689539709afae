//! The SameGame rule: `apply`/`apply_into`, `legal_commands` and `status`, with the group
//! search they share with bots (`groups_into`, `random_group`, [`GroupScratch`]) and gravity and
//! compaction.

use super::*;

/// One group, as [`CollapseRules::groups_into`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The group's first cell in row-major order (where `legal_commands` taps).
    pub at: Pos,
    /// Number of tiles.
    pub size: u32,
    /// Colour.
    pub colour: u8,
}

/// Reusable buffers for labelling groups without allocating once warm.
///
/// Labelling copies the colours into a byte grid with a one-cell border of "empty" around it
/// (so the flood fill needs no edge tests and no divisions) and marks visited cells in place.
/// A tile with no neighbour of its colour is a group of one, found without the fill.
#[derive(Clone, Debug, Default)]
pub struct GroupScratch {
    pad: Vec<u8>,
    stack: Vec<u32>,
    /// Visit marks of [`CollapseRules::random_group`]: a cell is visited when its mark equals
    /// `epoch`, so nothing needs clearing between calls.
    mark: Vec<u32>,
    epoch: u32,
    /// Work list of [`CollapseRules::random_group`]'s flood fill.
    work: Vec<u32>,
}

/// A padded cell holding no tile (or the border).
const PAD_EMPTY: u8 = 0xFF;
/// A padded cell already counted in a group.
const PAD_SEEN: u8 = 0xFE;

/// Calls `found` for every group of at least `min` tiles, in row-major order of the groups'
/// first cells, until `found` returns false.
pub(super) fn scan_groups(
    cells: &[Option<Tile>],
    size: Size,
    min: u32,
    scratch: &mut GroupScratch,
    mut found: impl FnMut(Group) -> bool,
) {
    let (w, h) = (usize::from(size.width), usize::from(size.height));
    let pw = w + 2;
    let GroupScratch { pad, stack, .. } = scratch;
    let padded = pw * (h + 2);
    if pad.len() != padded {
        pad.clear();
        pad.resize(padded, PAD_EMPTY);
        stack.clear();
        stack.resize(padded, 0);
    }
    // The border stays empty; the interior is rewritten every time.
    for (out, row) in pad.chunks_exact_mut(pw).skip(1).zip(cells.chunks_exact(w)) {
        for (o, c) in out[1..].iter_mut().zip(row) {
            *o = match c {
                Some(t) => t.colour,
                None => PAD_EMPTY,
            };
        }
    }
    // Only the box from the first row holding a tile down, and from the first to the last
    // non-empty column, can hold groups (tiles are settled).
    let bottom = &cells[(h - 1) * w..];
    let Some(x0) = bottom.iter().position(Option::is_some) else { return };
    let x1 = bottom.iter().rposition(Option::is_some).unwrap_or(x0);
    let y0 = (0..h).find(|&y| cells[y * w + x0..=y * w + x1].iter().any(Option::is_some)).unwrap_or(h);
    for y in y0..h {
        let row = (y + 1) * pw + 1;
        for x in x0..=x1 {
            let start = row + x;
            let colour = pad[start];
            if colour >= PAD_SEEN {
                continue;
            }
            let joined = (pad[start - 1] == colour)
                | (pad[start + 1] == colour)
                | (pad[start - pw] == colour)
                | (pad[start + pw] == colour);
            let n = if !joined {
                1
            } else {
                pad[start] = PAD_SEEN;
                stack[0] = start as u32;
                let mut top = 1;
                let mut n = 0u32;
                while top > 0 {
                    top -= 1;
                    let i = stack[top] as usize;
                    n += 1;
                    for j in [i - 1, i + 1, i - pw, i + pw] {
                        if pad[j] == colour {
                            pad[j] = PAD_SEEN;
                            stack[top] = j as u32;
                            top += 1;
                        }
                    }
                }
                n
            };
            if n >= min && !found(Group { at: Pos::new(x as u16, y as u16), size: n, colour }) {
                return;
            }
        }
    }
}

/// The size of the group of `colour` at `start`, or `None` as soon as one of its cells comes
/// before `start` in row-major order.
fn first_cell_group(
    cells: &[Option<Tile>],
    w: usize,
    h: usize,
    start: usize,
    colour: u8,
    scratch: &mut GroupScratch,
) -> Option<u32> {
    scratch.epoch += 1;
    let epoch = scratch.epoch;
    let GroupScratch { mark, work: stack, .. } = scratch;
    stack.clear();
    stack.push(start as u32);
    mark[start] = epoch;
    let mut n = 0;
    while let Some(i) = stack.pop() {
        let i = i as usize;
        if i < start {
            return None;
        }
        n += 1;
        let (x, y) = (i % w, i / w);
        let mut visit = |j: usize| {
            if mark[j] != epoch && cells[j].is_some_and(|t| t.colour == colour) {
                mark[j] = epoch;
                stack.push(j as u32);
            }
        };
        if x > 0 {
            visit(i - 1);
        }
        if x + 1 < w {
            visit(i + 1);
        }
        if y > 0 {
            visit(i - w);
        }
        if y + 1 < h {
            visit(i + w);
        }
    }
    Some(n)
}

/// Whether two orthogonal neighbours share a colour. Walks each column from the bottom up to
/// its top tile (tiles are settled), comparing with the cells above and to the right.
pub(super) fn has_pair(cells: &[Option<Tile>], w: usize, h: usize) -> bool {
    for x in 0..w {
        for y in (0..h).rev() {
            let i = y * w + x;
            let Some(t) = cells[i] else { break };
            if y > 0 && cells[i - w].is_some_and(|u| u.colour == t.colour) {
                return true;
            }
            if x + 1 < w && cells[i + 1].is_some_and(|u| u.colour == t.colour) {
                return true;
            }
        }
    }
    false
}

/// Moves the settled tiles of column `from` into the empty column `to`; returns how the hash
/// changes.
#[inline]
pub(super) fn move_column(cells: &mut [Option<Tile>], w: usize, h: usize, from: usize, to: usize) -> u64 {
    let mut hash = 0;
    for y in (0..h).rev() {
        let Some(t) = cells[y * w + from].take() else { break };
        cells[y * w + to] = Some(t);
        hash ^= pos_key(y * w + from, t.id) ^ pos_key(y * w + to, t.id);
    }
    hash
}

fn too_small(at: Pos, n: usize, min: u32) -> Rejected {
    let tiles = if n == 1 { "tile" } else { "tiles" };
    Rejected::detailed(
        "group_too_small",
        format!("the group at {at} has {n} {tiles}; at least {min} are needed"),
    )
}

impl CollapseRules {
    /// Rules with `config`.
    pub fn new(config: CollapseConfig) -> Self {
        CollapseRules { config }
    }

    /// Pushes every group of at least `min_group` tiles into `out` (which is not cleared), in
    /// row-major order of their first cells. Allocates nothing once `scratch` and `out` have
    /// grown to the board.
    pub fn groups_into(&self, state: &CollapseState, scratch: &mut GroupScratch, out: &mut Vec<Group>) {
        scan_groups(state.board.cells(), state.board.size(), self.config.min_group.max(1), scratch, |g| {
            out.push(g);
            true
        });
    }

    /// One group of at least `min_group` tiles, chosen uniformly among all such groups, or
    /// `None` when there is none: what a random playout needs, far cheaper than listing every
    /// group with [`CollapseRules::groups_into`] after each tap.
    ///
    /// Rejection sampling: `below(n)` must return a uniform integer in `0..n` (the caller's
    /// generator; the game's own is not touched). A cell is drawn uniformly from the columns
    /// holding tiles and accepted when it is the first cell, in row-major order, of a group of at
    /// least `min_group` tiles. Every group has exactly one such cell, so every group is equally
    /// likely. Most rejections cost a look at two neighbours; an accepted cell's group is flood
    /// filled once to check it. Allocates nothing once `scratch` has grown to the board.
    pub fn random_group(
        &self,
        state: &CollapseState,
        scratch: &mut GroupScratch,
        mut below: impl FnMut(u32) -> u32,
    ) -> Option<Group> {
        let min = self.config.min_group.max(1);
        let size = state.board.size();
        let cells = state.board.cells();
        let any = match min {
            1 | 2 => state.has_group(min),
            _ => {
                let mut any = false;
                scan_groups(cells, size, min, scratch, |_| {
                    any = true;
                    false
                });
                any
            }
        };
        if !any {
            return None;
        }
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let bottom = &cells[(h - 1) * w..];
        let x0 = bottom.iter().position(Option::is_some)?;
        let x1 = bottom.iter().rposition(Option::is_some)?;
        let span = (x1 - x0 + 1) as u32;
        if scratch.mark.len() != cells.len() || scratch.epoch == u32::MAX {
            scratch.mark.clear();
            scratch.mark.resize(cells.len(), 0);
            scratch.epoch = 0;
        }
        loop {
            let x = x0 + below(span).min(span - 1) as usize;
            let y = below(h as u32).min(h as u32 - 1) as usize;
            let i = y * w + x;
            let Some(tile) = cells[i] else { continue };
            let same = |j: usize| cells[j].is_some_and(|t| t.colour == tile.colour);
            // A neighbour above or to the left would come first in row-major order.
            if (x > 0 && same(i - 1)) || (y > 0 && same(i - w)) {
                continue;
            }
            if min >= 2 && !((x + 1 < w && same(i + 1)) || (y + 1 < h && same(i + w))) {
                continue;
            }
            if let Some(n) = first_cell_group(cells, w, h, i, tile.colour, scratch)
                && n >= min
            {
                return Some(Group { at: Pos::new(x as u16, y as u16), size: n, colour: tile.colour });
            }
        }
    }

    /// [`Rules::apply`], pushing into any buffer whose items can be made from a
    /// [`CollapseEvent`] (the `AnyEvent` buffer of the apps, with no copy).
    pub fn apply_into<E: From<CollapseEvent>>(
        &self,
        state: &mut CollapseState,
        cmd: &CollapseCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        let CollapseCommand::Tap(at) = *cmd;
        let size = state.board.size();
        if !size.contains(at) {
            return Err(Rejected::detailed("off_board", format!("{at} is off the {size} board")));
        }
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let min = self.config.min_group.max(1);
        let cells = state.board.cells_mut();
        let start = size.index(at);
        let Some(first) = cells[start] else {
            return Err(Rejected::detailed("empty_cell", format!("cell {at} is empty")));
        };
        let colour = first.colour;
        let same = |c: &Option<Tile>| c.is_some_and(|t| t.colour == colour);
        if min >= 2 {
            let (x, y) = (start % w, start / w);
            let alone = !((x > 0 && same(&cells[start - 1]))
                || (x + 1 < w && same(&cells[start + 1]))
                || (y > 0 && same(&cells[start - w]))
                || (y + 1 < h && same(&cells[start + w])));
            if alone {
                return Err(too_small(at, 1, min));
            }
        }

        // Flood fill, taking tiles off the board as they are found; `tiles` is the work list.
        let mut tiles = Vec::with_capacity(32);
        cells[start] = None;
        tiles.push(ClearedTile { id: first.id, at });
        let mut k = 0;
        while k < tiles.len() {
            let p = tiles[k].at;
            k += 1;
            let (x, y) = (usize::from(p.x), usize::from(p.y));
            let i = y * w + x;
            let mut take = |j: usize, tiles: &mut Vec<ClearedTile>| {
                if let Some(t) = cells[j]
                    && t.colour == colour
                {
                    cells[j] = None;
                    tiles.push(ClearedTile { id: t.id, at: Pos::new((j % w) as u16, (j / w) as u16) });
                }
            };
            if x > 0 {
                take(i - 1, &mut tiles);
            }
            if x + 1 < w {
                take(i + 1, &mut tiles);
            }
            if y > 0 {
                take(i - w, &mut tiles);
            }
            if y + 1 < h {
                take(i + w, &mut tiles);
            }
        }
        if tiles.len() < min as usize {
            for t in &tiles {
                cells[size.index(t.at)] = Some(Tile { id: t.id, colour });
            }
            return Err(too_small(at, tiles.len(), min));
        }
        let (mut min_x, mut max_x) = (w, 0);
        for t in &tiles {
            min_x = min_x.min(usize::from(t.at.x));
            max_x = max_x.max(usize::from(t.at.x));
        }
        tiles.sort_unstable_by_key(|t| (t.at.y, t.at.x));
        let n = tiles.len() as u32;
        let mut hash = 0u64; // how the hash changes
        for t in &tiles {
            hash ^= tile_key(size.index(t.at), Tile { id: t.id, colour });
        }
        events.push(E::from(CollapseEvent::Cleared { tiles, colour }));

        // Gravity, in the columns the group touched.
        for x in min_x..=max_x {
            let mut dest = h;
            for y in (0..h).rev() {
                let i = y * w + x;
                let Some(t) = cells[i] else { continue };
                dest -= 1;
                if dest != y {
                    cells[dest * w + x] = Some(t);
                    cells[i] = None;
                    hash ^= pos_key(i, t.id) ^ pos_key(dest * w + x, t.id);
                    events.push(E::from(CollapseEvent::Fell {
                        tile: t.id,
                        from: Pos::new(x as u16, y as u16),
                        to: Pos::new(x as u16, dest as u16),
                    }));
                }
            }
        }

        // Compaction, when one of those columns became empty.
        let bottom = (h - 1) * w;
        let emptied = (min_x..=max_x).any(|x| cells[bottom + x].is_none());
        if emptied {
            let mut shift = |cells: &mut [Option<Tile>], from: usize, to: usize, events: &mut Vec<E>| {
                hash ^= move_column(cells, w, h, from, to);
                events.push(E::from(CollapseEvent::ColumnShifted { from: from as u16, to: to as u16 }));
            };
            match self.config.compaction {
                Compaction::None => {}
                Compaction::Left => {
                    let mut dest = 0;
                    for x in 0..w {
                        if cells[bottom + x].is_some() {
                            if x != dest {
                                shift(cells, x, dest, events);
                            }
                            dest += 1;
                        }
                    }
                }
                Compaction::Center => {
                    let c = w / 2;
                    let mut dest = c + 1; // one past the next free column, walking left
                    for x in (0..=c).rev() {
                        if cells[bottom + x].is_some() {
                            dest -= 1;
                            if x != dest {
                                shift(cells, x, dest, events);
                            }
                        }
                    }
                    let mut dest = c + 1;
                    for x in c + 1..w {
                        if cells[bottom + x].is_some() {
                            if x != dest {
                                shift(cells, x, dest, events);
                            }
                            dest += 1;
                        }
                    }
                }
            }
        }

        state.hash ^= hash;
        let cleared_all = state.is_cleared();
        let points = self.config.scoring.points(n);
        let bonus = if cleared_all { self.config.scoring.clear_bonus() } else { 0 };
        if points + bonus > 0 {
            state.hash ^=
                field_key(kind::SCORE, state.score) ^ field_key(kind::SCORE, state.score + points + bonus);
            state.score += points + bonus;
            events.push(E::from(CollapseEvent::Scored { points, bonus }));
        }
        if cleared_all || !state.has_group(min) {
            events.push(E::from(CollapseEvent::GameOver { cleared_all }));
        }
        Ok(())
    }
}

impl Rules for CollapseRules {
    type State = CollapseState;
    type Command = CollapseCommand;
    type Event = CollapseEvent;

    fn apply(
        &self,
        state: &mut CollapseState,
        cmd: &CollapseCommand,
        events: &mut Vec<CollapseEvent>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    #[inline]
    fn undo_event(&self, state: &mut CollapseState, event: &CollapseEvent) {
        self.undo_one(state, event)
    }

    #[inline]
    fn redo_event(&self, state: &mut CollapseState, event: &CollapseEvent) -> Result<(), Inconsistent> {
        self.redo_one(state, event)
    }

    /// One tap per group of at least `min_group` tiles, at the group's first cell in row-major
    /// order, listed in that order.
    fn legal_commands(&self, state: &CollapseState) -> Vec<CollapseCommand> {
        let mut groups = Vec::new();
        self.groups_into(state, &mut GroupScratch::default(), &mut groups);
        groups.into_iter().map(|g| CollapseCommand::Tap(g.at)).collect()
    }

    fn status(&self, state: &CollapseState) -> Status {
        if state.has_group(self.config.min_group.max(1)) { Status::Playing } else { Status::Over }
    }
}
