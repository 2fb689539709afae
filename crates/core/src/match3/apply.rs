//! The match-3 rule: `apply`/`apply_into`, `legal_commands` and `status`, with the swap,
//! cascade (matches, gravity, refills) and shuffle, and their thread-local scratch buffers.

use super::*;

/// Buffers reused by every step on a thread.
#[derive(Default)]
pub(super) struct Scratch {
    marked: Vec<bool>,
    parent: Vec<u32>,
    slot: Vec<u32>,
    matches: Vec<(u8, u32, Vec<MatchedBlock>)>,
    unlocks: Vec<MatchedBlock>,
    arranger: Arranger,
    counts_cells: Vec<u32>,
    source: Vec<u32>,
    used: Vec<bool>,
}

impl Scratch {
    fn fit(&mut self, area: usize) {
        if self.parent.len() != area {
            self.marked.clear();
            self.marked.resize(area, false);
            self.parent.clear();
            self.parent.extend(0..area as u32);
            self.slot.clear();
            self.slot.resize(area, u32::MAX);
            // A round has at most area / 3 matches: reserve once so rounds never grow it.
            self.matches.reserve(area / 3 + 1);
        }
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let p = self.parent[i as usize];
            self.parent[i as usize] = self.parent[p as usize];
            i = p;
        }
        i
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[hi as usize] = lo;
        }
    }
}

/// Marks a `source` entry whose block is recoloured.
const RECOLOUR: u32 = 1 << 31;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Match3Rules {
    /// Rules with `config`.
    pub fn new(config: Match3Config) -> Self {
        Match3Rules { config }
    }

    /// A valid swap (one that makes a run) when any exists, found by trying every swap of
    /// neighbouring movable blocks; the first in row-major order of its first cell, the right
    /// neighbour before the lower one. Changes nothing.
    pub fn hint(&self, state: &Match3State) -> Option<Match3Command> {
        if state.won || state.over.is_some() {
            return None;
        }
        state.find_valid_swap().map(|(a, b)| Match3Command::Swap(a, b))
    }

    fn check_swap(&self, state: &Match3State, a: Pos, b: Pos) -> Result<(), Rejected> {
        if state.won || state.over.is_some() {
            return Err(Rejected::new("finished", "the game has ended"));
        }
        let size = state.size();
        for p in [a, b] {
            if !size.contains(p) {
                return Err(Rejected::detailed("off_board", format!("cell {p} is off the {size} board")));
            }
        }
        if !a.is_orthogonal_neighbour(b) {
            return Err(Rejected::detailed(
                "not_adjacent",
                format!("cells {a} and {b} are not orthogonal neighbours"),
            ));
        }
        for p in [a, b] {
            match (state.cells[p], state.blocks[p]) {
                (Cell::Void, _) => {
                    return Err(Rejected::detailed("void_cell", format!("cell {p} is void")));
                }
                (Cell::Playable, None) => {
                    return Err(Rejected::detailed("empty_cell", format!("cell {p} holds no block")));
                }
                (Cell::Playable, Some(bl)) if bl.locked => {
                    return Err(Rejected::detailed("locked", format!("the block at {p} is locked")));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// [`Rules::apply`], pushing into any buffer whose items can be made from a [`Match3Event`].
    pub fn apply_into<E: From<Match3Event>>(
        &self,
        state: &mut Match3State,
        cmd: &Match3Command,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        let Match3Command::Swap(a, b) = *cmd;
        self.check_swap(state, a, b)?;
        let size = state.size();
        let (ia, ib) = (size.index(a), size.index(b));
        let (Some(ba), Some(bb)) = (state.blocks.cells()[ia], state.blocks.cells()[ib]) else {
            return Err(Rejected::new("empty_cell", "a cell holds no block"));
        };
        // Board changes update the hash where they happen; the scalar fields once, at the end.
        let scalars = state.scalar_key();
        let swap_key = swap_key(ia, ib, ba.id, bb.id);
        state.blocks.cells_mut().swap(ia, ib);
        state.hash ^= swap_key;
        state.moves += 1;
        events.push(E::from(Match3Event::Swapped { a, b, a_block: ba.id, b_block: bb.id }));
        let (w, h) = state.wh();
        let breed = |i: usize| state.breed(i);
        let made = board::run_through(w, h, &breed, ia, bb.breed, usize::MAX)
            || board::run_through(w, h, &breed, ib, ba.breed, usize::MAX);
        if !made || ba.breed == bb.breed {
            state.blocks.cells_mut().swap(ia, ib);
            state.hash ^= swap_key;
            state.moves -= 1;
            events.push(E::from(Match3Event::SwappedBack { a, b, a_block: ba.id, b_block: bb.id }));
            return Ok(());
        }
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            self.resolve(state, &mut s, events);
            self.finish_step(state, &mut s, events);
        });
        state.hash ^= scalars ^ state.scalar_key();
        Ok(())
    }

    /// Rounds of match, remove, score, fall and refill until no run is left.
    fn resolve<E: From<Match3Event>>(&self, state: &mut Match3State, s: &mut Scratch, events: &mut Vec<E>) {
        let size = state.size();
        let (w, h) = state.wh();
        s.fit(w * h);
        let mut cascade = 0u32;
        loop {
            // 1. runs, joined into matches by shared blocks (union-find over cells).
            let mut any = false;
            for y in 0..h {
                let row = y * w;
                let mut x = 0;
                while x < w {
                    let c = state.breed(row + x);
                    let mut e = x + 1;
                    while e < w && state.breed(row + e) == c {
                        e += 1;
                    }
                    if c != NONE && e - x >= 3 {
                        any = true;
                        for k in x..e {
                            s.marked[row + k] = true;
                            if k > x {
                                s.union((row + x) as u32, (row + k) as u32);
                            }
                        }
                    }
                    x = e;
                }
            }
            for x in 0..w {
                let mut y = 0;
                while y < h {
                    let c = state.breed(y * w + x);
                    let mut e = y + 1;
                    while e < h && state.breed(e * w + x) == c {
                        e += 1;
                    }
                    if c != NONE && e - y >= 3 {
                        any = true;
                        for k in y..e {
                            s.marked[k * w + x] = true;
                            if k > y {
                                s.union((y * w + x) as u32, (k * w + x) as u32);
                            }
                        }
                    }
                    y = e;
                }
            }
            if !any {
                break;
            }
            cascade += 1;
            // Two passes so that each match's block list is allocated once, at its exact size.
            s.matches.clear();
            for i in 0..w * h {
                if s.marked[i] {
                    let r = s.find(i as u32) as usize;
                    if s.slot[r] == u32::MAX {
                        s.slot[r] = s.matches.len() as u32;
                        s.matches.push((state.breed(i), 0, Vec::new()));
                    }
                    s.matches[s.slot[r] as usize].1 += 1;
                }
            }
            for m in &mut s.matches {
                m.2 = Vec::with_capacity(m.1 as usize);
            }
            for i in 0..w * h {
                if !s.marked[i] {
                    continue;
                }
                let r = s.find(i as u32) as usize;
                let Some(bl) = state.blocks.cells()[i] else { continue };
                let slot = s.slot[r] as usize;
                s.matches[slot].2.push(MatchedBlock { block: bl.id, at: size.pos(i), locked: bl.locked });
            }
            for i in 0..w * h {
                if s.marked[i] {
                    s.marked[i] = false;
                    s.parent[i] = i as u32;
                    s.slot[i] = u32::MAX;
                }
            }
            // 2. remove (or unlock) and report, match by match.
            let mut removed: u64 = 0;
            for (breed, _, blocks) in s.matches.drain(..) {
                s.unlocks.clear();
                for mb in &blocks {
                    let i = size.index(mb.at);
                    let cell = &mut state.blocks.cells_mut()[i];
                    if mb.locked {
                        if let Some(bl) = cell {
                            state.hash ^= what_key(*bl);
                            bl.locked = false;
                            state.hash ^= what_key(*bl);
                        }
                        s.unlocks.push(*mb);
                    } else {
                        if let Some(bl) = cell.take() {
                            state.hash ^= block_key(i, bl);
                        }
                        removed += 1;
                    }
                }
                events.push(E::from(Match3Event::Matched { blocks, breed, cascade }));
                for mb in &s.unlocks {
                    events.push(E::from(Match3Event::Unlocked { block: mb.block, at: mb.at }));
                }
            }
            // 3. score.
            let points = removed * u64::from(self.config.points_per_block) * u64::from(cascade);
            if points > 0 {
                state.score += points;
                events.push(E::from(Match3Event::Scored { points, cascade }));
            }
            // 4. gravity per column segment.
            for x in 0..w {
                gravity_column(state, x, w, h, events);
            }
            // 5. refill, column by column, bottom-up.
            let breeds = u32::from(self.config.breeds);
            for x in 0..w {
                for y in (0..h).rev() {
                    let i = y * w + x;
                    if state.cells.cells()[i] == Cell::Playable && state.blocks.cells()[i].is_none() {
                        let before = state.rng.position();
                        let breed = if cascade < CALM_AFTER {
                            state.rng.below(breeds) as u8
                        } else {
                            calm_breed(state, i, w, h, breeds)
                        };
                        let after = state.rng.position();
                        let id = state.ids.next();
                        let block = Block { id, breed, locked: false };
                        state.blocks.cells_mut()[i] = Some(block);
                        state.hash ^= block_key(i, block);
                        events.push(E::from(Match3Event::Spawned {
                            block: id,
                            at: size.pos(i),
                            breed,
                            rng: RngSpan { before, after },
                        }));
                    }
                }
            }
        }
    }

    /// Objectives, then the dead-board check and shuffle.
    fn finish_step<E: From<Match3Event>>(
        &self,
        state: &mut Match3State,
        s: &mut Scratch,
        events: &mut Vec<E>,
    ) {
        if let Some(t) = self.config.target_score
            && state.score >= t
        {
            state.won = true;
            events.push(E::from(Match3Event::Won { score: state.score }));
            return;
        }
        if let Some(l) = self.config.move_limit
            && state.moves >= l
        {
            state.over = Some(GameOverReason::OutOfMoves);
            events.push(E::from(Match3Event::GameOver { reason: GameOverReason::OutOfMoves }));
            return;
        }
        if state.find_valid_swap().is_none() {
            self.shuffle_board(state, s, events);
        }
    }

    /// Shuffles the board now, exactly as a dead board is shuffled at the end of a step (see the
    /// module docs), pushing `Shuffled` and `Recoloured` events, or `GameOver` when no board can
    /// work. Not a command (a log cannot record it): for property tests and tools.
    #[doc(hidden)]
    pub fn shuffle_into<E: From<Match3Event>>(&self, state: &mut Match3State, events: &mut Vec<E>) {
        SCRATCH.with(|s| self.shuffle(state, &mut s.borrow_mut(), events));
    }

    /// Shuffles a dead board (see the module docs), or ends the game when no shuffle can help.
    pub(super) fn shuffle<E: From<Match3Event>>(
        &self,
        state: &mut Match3State,
        s: &mut Scratch,
        events: &mut Vec<E>,
    ) {
        let scalars = state.scalar_key();
        self.shuffle_board(state, s, events);
        state.hash ^= scalars ^ state.scalar_key();
    }

    /// [`Match3Rules::shuffle`] but for the hash of the scalar fields (the generator, the
    /// outcome), which the caller updates.
    fn shuffle_board<E: From<Match3Event>>(
        &self,
        state: &mut Match3State,
        s: &mut Scratch,
        events: &mut Vec<E>,
    ) {
        let size = state.size();
        let (w, h) = state.wh();
        let before = state.rng.position();
        let mut counts = [0u32; 16];
        let ar = &mut s.arranger;
        ar.reset(w, h, self.config.breeds);
        s.counts_cells.clear();
        for i in 0..w * h {
            match state.blocks.cells()[i] {
                Some(b) if b.locked => ar.set_fixed(i, b.breed, false),
                Some(b) => {
                    ar.set_open(i, true);
                    ar.set_current(b.breed.min(15));
                    counts[usize::from(b.breed.min(15))] += 1;
                    s.counts_cells.push(i as u32);
                }
                None => {}
            }
        }
        let plan = ar.arrange(&mut state.rng, &mut counts);
        let reason = match plan {
            Plan::Found { .. } => None,
            Plan::Impossible => Some(GameOverReason::NoMovesPossible),
            Plan::GaveUp => Some(GameOverReason::ShuffleFailed),
        };
        if let Some(reason) = reason {
            state.rng.set_position(before);
            state.over = Some(reason);
            events.push(E::from(Match3Event::GameOver { reason }));
            return;
        }
        let after = state.rng.position();
        // Give blocks to cells: a block whose breed its cell wants stays; then each cell takes
        // the first unused block (row-major) of its breed; cells left over take the blocks left
        // over, recoloured. `source[k]` is the index (into the movable cells) of the block cell
        // k receives.
        let cells = &s.counts_cells;
        let m = cells.len();
        let target = |k: usize| s.arranger.known[cells[k] as usize];
        let breed_at = |k: usize| state.breed(cells[k] as usize);
        s.source.clear();
        s.source.resize(m, u32::MAX);
        s.used.clear();
        s.used.resize(m, false);
        for k in 0..m {
            if breed_at(k) == target(k) {
                s.source[k] = k as u32;
                s.used[k] = true;
            }
        }
        let mut cursor = [0usize; 16];
        for k in 0..m {
            if s.source[k] != u32::MAX {
                continue;
            }
            let t = target(k);
            let cur = &mut cursor[usize::from(t.min(15))];
            while *cur < m && (s.used[*cur] || breed_at(*cur) != t) {
                *cur += 1;
            }
            if *cur < m {
                s.used[*cur] = true;
                s.source[k] = *cur as u32;
            }
        }
        let mut spare = 0usize;
        for k in 0..m {
            if s.source[k] == u32::MAX {
                while spare < m && s.used[spare] {
                    spare += 1;
                }
                // The plan places exactly m blocks, so a spare block exists for every cell left.
                if spare < m {
                    s.used[spare] = true;
                    s.source[k] = spare as u32 | RECOLOUR;
                }
            }
        }
        let mut moved = Vec::with_capacity(m);
        for k in 0..m {
            let src = (s.source[k] & !RECOLOUR) as usize;
            if src < m && src != k {
                let Some(b) = state.blocks.cells()[cells[src] as usize] else { continue };
                moved.push(ShuffledBlock {
                    block: b.id,
                    breed: b.breed,
                    from: size.pos(cells[src] as usize),
                    to: size.pos(cells[k] as usize),
                });
            }
        }
        for sb in &moved {
            state.blocks[sb.to] = Some(Block { id: sb.block, breed: sb.breed, locked: false });
            state.hash ^= pos_key(size.index(sb.from), sb.block) ^ pos_key(size.index(sb.to), sb.block);
        }
        events.push(E::from(Match3Event::Shuffled { blocks: moved, rng: RngSpan { before, after } }));
        for (k, &cell) in cells.iter().enumerate() {
            if s.source[k] & RECOLOUR != 0
                && let Some(b) = &mut state.blocks.cells_mut()[cell as usize]
            {
                let (from, to) = (b.breed, target(k));
                state.hash ^= what_key(*b);
                b.breed = to;
                state.hash ^= what_key(*b);
                let at = size.pos(cell as usize);
                events.push(E::from(Match3Event::Recoloured { block: b.id, at, from, to }));
            }
        }
    }
}

/// The cascade level from which refills avoid runs (see the module docs).
const CALM_AFTER: u32 = 1000;

/// A random breed among those that put cell `i` on no run (judged on the blocks present), or
/// among all when every breed would.
pub(super) fn calm_breed(state: &mut Match3State, i: usize, w: usize, h: usize, breeds: u32) -> u8 {
    let mut allowed = [0u8; MAX_BREEDS as usize];
    let mut n = 0;
    for c in 0..breeds as u8 {
        if !board::run_through(w, h, &|k| state.breed(k), i, c, usize::MAX) {
            allowed[n] = c;
            n += 1;
        }
    }
    if n == 0 {
        return state.rng.below(breeds) as u8;
    }
    allowed[state.rng.below(n as u32) as usize]
}

/// Gravity in column `x`: blocks fall to the lowest empty playable cells of their segment.
fn gravity_column<E: From<Match3Event>>(
    state: &mut Match3State,
    x: usize,
    w: usize,
    h: usize,
    events: &mut Vec<E>,
) {
    // Empty playable cells of the current segment, bottom-up, as a ring of row numbers: at most
    // h of them. A fixed array keeps this allocation-free for boards up to MAX_SIDE rows.
    let mut empties = [0u16; MAX_SIDE as usize];
    let (mut head, mut tail) = (0usize, 0usize);
    let size = state.size();
    for y in (0..h).rev() {
        let i = y * w + x;
        if state.cells.cells()[i] == Cell::Void {
            continue;
        }
        match state.blocks.cells()[i] {
            None => {
                empties[tail] = y as u16;
                tail += 1;
            }
            Some(b) if b.locked => {
                head = 0;
                tail = 0;
            }
            Some(b) => {
                if head < tail {
                    let to = usize::from(empties[head]) * w + x;
                    head += 1;
                    state.blocks.cells_mut()[to] = Some(b);
                    state.blocks.cells_mut()[i] = None;
                    state.hash ^= pos_key(i, b.id) ^ pos_key(to, b.id);
                    events.push(E::from(Match3Event::Fell {
                        block: b.id,
                        from: size.pos(i),
                        to: size.pos(to),
                    }));
                    empties[tail] = y as u16;
                    tail += 1;
                }
            }
        }
    }
}

impl Rules for Match3Rules {
    type State = Match3State;
    type Command = Match3Command;
    type Event = Match3Event;

    fn apply(
        &self,
        state: &mut Match3State,
        cmd: &Match3Command,
        events: &mut Vec<Match3Event>,
    ) -> Result<(), Rejected> {
        self.apply_into(state, cmd, events)
    }

    #[inline]
    fn undo_event(&self, state: &mut Match3State, event: &Match3Event) {
        self.undo_one(state, event)
    }

    #[inline]
    fn redo_event(&self, state: &mut Match3State, event: &Match3Event) -> Result<(), Inconsistent> {
        self.redo_one(state, event)
    }

    /// The swaps that make a run (a swap that would swap back is accepted by `apply` but changes
    /// nothing, so it is not listed).
    fn legal_commands(&self, state: &Match3State) -> Vec<Match3Command> {
        if state.won || state.over.is_some() {
            return Vec::new();
        }
        let (w, h) = state.wh();
        let size = state.size();
        let breed = |i: usize| state.breed(i);
        let mut out = Vec::new();
        for i in 0..w * h {
            if !state.movable(i) {
                continue;
            }
            let (x, y) = (i % w, i / w);
            for j in [(x + 1 < w).then_some(i + 1), (y + 1 < h).then_some(i + w)].into_iter().flatten() {
                if state.movable(j) && board::swap_makes_run(w, h, &breed, i, j) {
                    out.push(Match3Command::Swap(size.pos(i), size.pos(j)));
                }
            }
        }
        out
    }

    fn status(&self, state: &Match3State) -> Status {
        if state.over.is_some() {
            Status::Over
        } else if state.won {
            Status::Won
        } else {
            Status::Playing
        }
    }
}
