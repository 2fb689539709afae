//! The turn engine (`engine.js` `processInput` and what it calls): player movement, rule groups
//! (with loops, random groups and rigid bodies), movement resolution, late rules, the command
//! queue (`cancel`, `restart`, `checkpoint`, `win`, `again`), win conditions and sounds, and the
//! undo / restart / level-change machinery the test procedure relies on.
//!
//! `processInput`: player movement, rule application, movement resolution, rigid bodies, late
//! rules, commands, win conditions, sounds; a `Memo` — kept by a `Session` from turn to turn —
//! remembers which rules found no match, and a rule looks again only once an object or movement
//! layer it tests has changed somewhere: per-object and per-layer change clocks behind a 64-bit
//! signature per rule; before matching a whole row at a cell, a quick test on one word of the row's
//! most telling fixed cell — one that needs a movement, else one that needs an object or one of a
//! property kept whole (`QuickKey`, chosen at compile time); a rule the whole board's objects and
//! movements rule out answered first, before the memo, and a group whose rules all need something
//! the board lacks (`GroupNeed`) passed over whole, charged the work of trying each; inside a
//! group, a rule lacking something is passed over for the price of reading a count (`Candidates`:
//! per rule, how many of the objects and movements it needs the board's masks lack, kept up to date
//! by the bits that changed, through `compile::RuleNeeds`, the rules indexed by what they need);
//! the `again` check (a turn played and undone to see whether an `again` turn would change
//! anything) looks at the board afresh, and a quiet runtime keeps what its rules did
//! (`CheckedTurn`) for the `again` turn after it, which takes the check's board, queue and work
//! instead of playing the same rules again when the check drew nothing; the moving cells found 64
//! bytes and then 8 at a time; every turn counts its work — cells tested, rule applications tried,
//! board passes — in `Work`, and every loop ends once it passes the limit the caller gave
//! (`Game::turn_within`): a step past `MAX_STEP_WORK` is refused whole, the same on every machine,
//! under every rules version

use super::bits;
use super::compile::{ACTION, DOWN, GroupNeed, LEFT, PatternCell, RIGHT, Rule, UP};
use super::rng::Rng;
use super::{Game, LevelEntry, State, Trace, TraceEvent};

mod matching;
mod movement;
mod replace;
mod rules;
#[cfg(test)]
mod tests;

/// The most match combinations one rule application tries (the reference has no limit).
pub const MAX_TUPLES: usize = 1 << 24;

/// The work ([`Runtime::work`]) of a turn's whole-board passes, per cell.
const PASS_WORK: usize = 4;
/// The work of one rule application tried (its replacement cells), against 1 for a cell tested.
const APPLY_WORK: usize = 8;

/// A row match: start cell and the ellipsis gaps (`k1`, `k2`).
type Match = [usize; 3];

/// An upper bound, twice over, of the work ([`Runtime::work`]) of a turn in which no rule
/// matches, on a board of `n` cells whose longer side is `side`: the turn's passes, each rule
/// looked at once and its rows scanned (every cell tested, every match of a row before the one
/// that fails counted, each ellipsis's gaps), and two passes of resolving moves. The solver
/// skips such a turn only when this bound is within the step work bound, so that the turn it
/// skips could not have been refused as too long. Keep it in step with the `spend` calls.
pub(crate) fn idle_turn_work_bound(game: &Game, n: usize, side: usize) -> u64 {
    let (n, side) = (n as u64, side as u64 + 2);
    let rules = game.rules.iter().chain(&game.late_rules).flatten();
    let rules_work = rules.fold(0u64, |total, rule| {
        let rows = rule.ellipses.iter().fold(0u64, |work, &e| {
            let gaps = match e {
                0 => 0,
                1 => side,
                _ => side.saturating_mul(side),
            };
            work.saturating_add(n.saturating_mul(1 + APPLY_WORK as u64 + gaps))
        });
        total.saturating_add(1 + rows)
    });
    // the whole-board passes ([`Runtime::pass_work`]) and two passes of resolving moves
    let bytes = (16 * game.stride + game.layer_count) as u64;
    let passes = n.saturating_mul(PASS_WORK as u64 + bytes.saturating_sub(32) / 4 + 2);
    rules_work.saturating_add(passes).saturating_mul(2)
}

/// Everything a turn reads and writes besides the game: the state, the undo stack, the sound
/// history and the reference's global flags.
pub(crate) struct Runtime<'a> {
    pub game: &'a Game,
    pub st: &'a mut State,
    pub backups: &'a mut Vec<Vec<u64>>,
    pub sounds: &'a mut Vec<String>,
    pub trace: Option<&'a mut Trace>,
    /// load the next level on a win (the test procedure); otherwise only report it
    pub advance_on_win: bool,
    /// Leave out what only a player sees or hears (messages, sounds): the state and the
    /// flags are the same, the turn allocates less (the solver's turns).
    pub quiet: bool,
    pub againing: bool,
    pub won: bool,
    pub restarted: bool,
    pub checkpoint: bool,
    pub cancelled: bool,
    pub messages: Vec<String>,
    /// Every sound the reference plays, in its order: the history's (`sounds`) and those it
    /// plays without recording them (`tryPlaySimpleSound`: `sfx` commands, `cancel`,
    /// `restart`, `undo`, `showmessage`, `endlevel`, `startlevel`).
    pub played: Vec<String>,
    pub loop_limit_hit: bool,
    /// A draw from the generator could have gone otherwise: a random pick among two or more,
    /// or a random direction (a pick among one draws too, but does the same whatever it draws).
    pub free_draw: bool,
    /// Whether the win conditions held on the board when the turn checked them (the last
    /// check of a turn that ran one, `None` otherwise): the board is the same at the turn's
    /// end, so a caller need not check again.
    pub conditions_held: Option<bool>,
    /// Work done so far ([`Runtime::work`]), counted against `work_limit`.
    work: std::cell::Cell<u64>,
    /// Draws from the generator so far (any draw, a pick among one too).
    draws: u64,
    /// Past this much work the turn stops where it is (its state is then of no use: the caller
    /// throws it away). `u64::MAX`: no bound.
    pub work_limit: u64,
    restarting: bool,
    /// the command queue: names of the rules' commands (`again`, `cancel`, `sfx3`, …)
    queue: Vec<&'a str>,
    seeds_can_move: Vec<&'a str>,
    seeds_cant_move: Vec<&'a str>,
    /// the buffers kept from turn to turn (and what rules found)
    x: &'a mut Scratch,
    mstride: usize,
}

/// The buffers a turn works in, kept between turns so that a turn allocates next to nothing
/// once they have grown (a [`super::Workspace`] holds one). Their contents do not carry over,
/// except the [`Memo`], which is only right for the board it was last used on (see
/// [`Scratch::forget`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    create_mask: Vec<u64>,
    destroy_mask: Vec<u64>,
    rigid_group: Vec<u8>,
    rigid_applied: Vec<bool>,
    /// over-approximations of what the board holds (the whole map, each row, each column):
    /// objects and movements (bit `5 * layer + b`); a rule needing more cannot match
    map_obj: Vec<u64>,
    row_obj: Vec<u64>,
    col_obj: Vec<u64>,
    map_mov: Vec<u64>,
    row_mov: Vec<u64>,
    col_mov: Vec<u64>,
    /// bumped whenever `map_obj` or `map_mov` changes (each turn works them out afresh, and
    /// they grow as objects and movements appear)
    mask_version: u64,
    candidates: Candidates,
    /// a rigid turn's board and movements at its start (to start again from)
    start_cells: Vec<u64>,
    start_movements: Vec<u8>,
    /// rule groups a rigid body banned this turn
    banned: Vec<bool>,
    /// the player's cells at the start of the turn
    positions: Vec<usize>,
    /// the cells with some movement
    moving: Vec<usize>,
    /// boards no longer used (copies of the board, undo snapshots), to be reused
    boards: Vec<Vec<u64>>,
    /// match lists no longer used, to be reused
    matches: Vec<Matches>,
    /// a row's ellipsis matches while a match is checked again
    wild: Vec<Match>,
    /// a random replacement's movements (the rule's, with the random picks' layers)
    random_movs: Vec<(usize, u8, u8)>,
    memo: Memo,
    /// what the last `again` check of a quiet turn found, for the `again` turn after it
    again: CheckedTurn,
}

impl Scratch {
    /// Every rule must look again: the board changed outside the turns that kept the memo.
    pub fn forget(&mut self) {
        self.memo.version += 1;
    }

    /// A board buffer (empty), reused when one is free.
    fn board(&mut self) -> Vec<u64> {
        let mut b = self.boards.pop().unwrap_or_default();
        b.clear();
        b
    }

    /// Gives a board buffer back for reuse.
    pub fn recycle(&mut self, b: Vec<u64>) {
        if self.boards.len() < 8 {
            self.boards.push(b);
        }
    }
}

/// The rules and movements of an `again` check (a turn played and undone at the end of a turn
/// that queued `again`, to see whether it would change anything), kept for the `again` turn
/// that follows: that turn plays the same rules on the same board, so a quiet runtime (the
/// solver's) takes the check's board, queue and work instead of playing them again. Kept only
/// when the check drew nothing from the generator: then what the rules do is the board's alone.
/// The check looks at the board afresh (as a turn of its own does), so its work is the turn's.
#[derive(Clone, Debug, Default)]
struct CheckedTurn {
    /// whether the fields hold a check
    kept: bool,
    /// the game (its address, and its rules' index number) and the board's size
    game: usize,
    rules: u64,
    width: usize,
    height: usize,
    /// the board the check started from, and where its rules and movements left it
    from: Vec<u64>,
    to: Vec<u64>,
    /// the commands its rules queued (the engine's own words)
    queue: Vec<&'static str>,
    /// a loop of rules reached its bound
    loop_limit_hit: bool,
    /// its work, from the turn's start to its command queue
    work: u64,
}

/// Per rule, how many of the objects and movements it needs somewhere on the board
/// ([`super::compile::RuleNeeds`]) the board's masks lack: a rule lacking one cannot match
/// ([`Runtime::may_match`]), and is passed over for the price of reading a number. The counts
/// follow the masks as they change, by the bits that changed, from turn to turn: a game whose
/// rules expand into thousands (Crate Assembler's) no longer asks each rule's masks every turn.
#[derive(Clone, Debug, Default)]
struct Candidates {
    /// the [`super::compile::RuleNeeds::id`] the counts are for (0: none yet)
    owner: u64,
    /// the `mask_version` they were brought up to
    synced: u64,
    /// the masks they count against
    obj: Vec<u64>,
    mov: Vec<u64>,
    /// per rule id
    missing: Vec<u32>,
}

/// The matches of a rule's rows (`rows[..used]`), each row's list kept for reuse.
#[derive(Clone, Debug, Default)]
pub(crate) struct Matches {
    rows: Vec<Vec<Match>>,
    used: usize,
}

impl Matches {
    fn is_empty(&self) -> bool {
        self.used == 0
    }

    fn rows(&self) -> &[Vec<Match>] {
        &self.rows[..self.used]
    }
}

/// What rules found no match, kept across turns (a [`super::Session`] keeps one; a runtime
/// made without one starts empty). A rule that found no match need not look again until a
/// cell changes an object or a movement layer that the rule tests.
#[derive(Clone, Debug)]
pub(crate) struct Memo {
    /// bumped when the board changes wholesale (a level load, a rigid retry, a long log): every
    /// rule must look again
    version: u64,
    /// counts changes to single cells since `version` began
    clock: u64,
    /// per bit of a rule's [`Rule::signature`]: the `clock` of the last change to an object or
    /// a layer's movement with that bit, at some cell
    stamp: [u64; 64],
    /// the same per object and per layer, asked when the signature's bits say "maybe"
    obj_stamp: Vec<u64>,
    layer_stamp: Vec<u64>,
    /// per rule: `(version + 1, clock)` when it last found no match
    no_match_at: Vec<(u64, u64)>,
}

impl Default for Memo {
    fn default() -> Self {
        Memo {
            version: 0,
            clock: 0,
            stamp: [0; 64],
            obj_stamp: Vec::new(),
            layer_stamp: Vec::new(),
            no_match_at: Vec::new(),
        }
    }
}

/// The cells (in order) with some movement, of `movements` (`lc` layers a cell). Few cells move:
/// the scan skips still runs 64 bytes at a time.
#[cfg(test)]
fn moving_cells(movements: &[u8], lc: usize) -> Vec<usize> {
    let mut out = Vec::new();
    moving_cells_into(movements, lc, &mut out);
    out
}

/// [`moving_cells`] into `out` (cleared first). Few cells move: the scan skips still runs 64
/// bytes at a time, and in a run that moves finds its moving bytes 8 at a time.
fn moving_cells_into(movements: &[u8], lc: usize, out: &mut Vec<usize>) {
    out.clear();
    if lc == 0 {
        return;
    }
    let n = movements.len() / lc;
    let movements = &movements[..n * lc];
    for (c, chunk) in movements.chunks(64).enumerate() {
        if chunk.iter().fold(0u8, |a, m| a | m) == 0 {
            continue;
        }
        let mut push = |byte: usize| {
            let cell = (c * 64 + byte) / lc;
            if out.last() != Some(&cell) {
                out.push(cell);
            }
        };
        let mut words = chunk.chunks_exact(8);
        for (k, w) in (&mut words).enumerate() {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(w);
            let mut v = u64::from_le_bytes(bytes);
            while v != 0 {
                let b = v.trailing_zeros() as usize / 8;
                push(k * 8 + b);
                v &= !(0xff << (b * 8));
            }
        }
        let rest = chunk.len() - words.remainder().len();
        for (k, &m) in words.remainder().iter().enumerate() {
            if m != 0 {
                push(rest + k);
            }
        }
    }
}

/// The objects of each row (`rows`, `h` rows of `S` words) and each column (`cols`) of a board
/// of `S` words a cell, stored column by column (`h` cells a column), ORed into both (zero
/// them first). With the stride known the loops unroll and vectorise: most games have at most
/// 128 objects, and this runs at the start of every turn.
fn board_masks<const S: usize>(cells: &[u64], h: usize, rows: &mut [u64], cols: &mut [u64]) {
    let rows = &mut rows[..h * S];
    for (column, col) in cells.chunks_exact(h * S).zip(cols.chunks_exact_mut(S)) {
        let mut acc = [0u64; S];
        for (cell, row) in column.chunks_exact(S).zip(rows.chunks_exact_mut(S)) {
            for k in 0..S {
                acc[k] |= cell[k];
                row[k] |= cell[k];
            }
        }
        col.copy_from_slice(&acc);
    }
}

fn delta_xy(dir: u8) -> (isize, isize) {
    match dir {
        UP => (0, -1),
        DOWN => (0, 1),
        LEFT => (-1, 0),
        RIGHT => (1, 0),
        _ => (0, 0),
    }
}

impl<'a> Runtime<'a> {
    /// A runtime over `st` working in `x` (new, or from an earlier runtime on the same game: its
    /// memo is kept, so `x` must have last been used on this state's board, or forgotten; see
    /// [`Scratch::forget`]). The scratch is borrowed, not moved: it is large, and the solver
    /// starts millions of runtimes.
    pub fn with_scratch(
        game: &'a Game,
        st: &'a mut State,
        backups: &'a mut Vec<Vec<u64>>,
        sounds: &'a mut Vec<String>,
        trace: Option<&'a mut Trace>,
        x: &'a mut Scratch,
    ) -> Runtime<'a> {
        let stride = game.stride;
        for mask in [&mut x.create_mask, &mut x.destroy_mask] {
            mask.clear();
            mask.resize(stride, 0);
        }
        let memo = &x.memo;
        if memo.no_match_at.len() != game.rule_count
            || memo.obj_stamp.len() != game.objects.len()
            || memo.layer_stamp.len() != game.layer_count
        {
            x.memo = Memo {
                no_match_at: vec![(0, 0); game.rule_count],
                obj_stamp: vec![0; game.objects.len()],
                layer_stamp: vec![0; game.layer_count],
                ..Memo::default()
            };
        }
        Runtime {
            game,
            st,
            backups,
            sounds,
            trace,
            advance_on_win: true,
            quiet: false,
            againing: false,
            won: false,
            restarted: false,
            checkpoint: false,
            cancelled: false,
            messages: Vec::new(),
            played: Vec::new(),
            loop_limit_hit: false,
            free_draw: false,
            conditions_held: None,
            work: std::cell::Cell::new(0),
            draws: 0,
            work_limit: u64::MAX,
            restarting: false,
            queue: Vec::new(),
            seeds_can_move: Vec::new(),
            seeds_cant_move: Vec::new(),
            x,
            mstride: (5 * game.layer_count).div_ceil(64).max(1),
        }
    }

    /// The work the turn did: cells a rule's row was tested at (the quick test counts), rule
    /// applications tried, rules looked at, cells visited while resolving movements. The same
    /// count on every machine: a deterministic measure of the turn's time.
    pub fn work(&self) -> u64 {
        self.work.get()
    }

    /// Counts `n` units of work.
    fn spend(&self, n: usize) {
        self.work.set(self.work.get().saturating_add(n as u64));
    }

    /// Whether the work passed `work_limit`: every loop of the turn then ends at once.
    pub fn over(&self) -> bool {
        self.work.get() > self.work_limit
    }

    /// Every rule must look again.
    fn invalidate(&mut self) {
        self.x.memo.version += 1;
    }

    /// Notes that the objects in `diff` (a cell's words XOR before and after) changed.
    fn touch_objs(&mut self, w: usize, diff: u64) {
        if diff == 0 {
            return;
        }
        self.x.memo.clock += 1;
        let mut d = diff;
        while d != 0 {
            let o = w * 64 + d.trailing_zeros() as usize;
            d &= d - 1;
            self.x.memo.stamp[super::compile::object_signature_bit(o)] = self.x.memo.clock;
            if let Some(t) = self.x.memo.obj_stamp.get_mut(o) {
                *t = self.x.memo.clock;
            }
        }
    }

    /// Notes that layer `l`'s movement changed at some cell.
    fn touch_layer(&mut self, l: usize) {
        self.x.memo.clock += 1;
        self.x.memo.stamp[super::compile::layer_signature_bit(l)] = self.x.memo.clock;
        if let Some(t) = self.x.memo.layer_stamp.get_mut(l) {
            *t = self.x.memo.clock;
        }
    }

    /// Replaces the board with `cells` and clears every movement, logging what changed.
    fn set_board(&mut self, cells: &[u64]) {
        let s = self.game.stride;
        let lc = self.game.layer_count;
        for i in 0..self.n_cells() {
            let old = &self.st.cells[i * s..(i + 1) * s];
            let new = &cells[i * s..(i + 1) * s];
            let moving = self.st.movements[i * lc..(i + 1) * lc].iter().any(|m| *m != 0);
            if old == new && !moving {
                continue;
            }
            for w in 0..s {
                self.touch_objs(w, self.st.cells[i * s + w] ^ cells[i * s + w]);
            }
            for l in 0..lc {
                if self.st.movements[i * lc + l] != 0 {
                    self.touch_layer(l);
                }
            }
        }
        self.st.cells.copy_from_slice(cells);
        self.st.movements.fill(0);
    }

    /// `calculateRowColMasks`.
    fn recompute_masks(&mut self) {
        self.x.mask_version += 1;
        let (w, h) = (self.st.width, self.st.height);
        let s = self.game.stride;
        let ms = self.mstride;
        let reset = |v: &mut Vec<u64>, n: usize| {
            v.clear();
            v.resize(n, 0);
        };
        reset(&mut self.x.map_obj, s);
        reset(&mut self.x.row_obj, h * s);
        reset(&mut self.x.col_obj, w * s);
        reset(&mut self.x.map_mov, ms);
        reset(&mut self.x.row_mov, h * ms);
        reset(&mut self.x.col_mov, w * ms);
        if w * h * s == 0 {
            return;
        }
        let cells = &self.st.cells[..w * h * s];
        match s {
            1 => board_masks::<1>(cells, h, &mut self.x.row_obj, &mut self.x.col_obj),
            2 => board_masks::<2>(cells, h, &mut self.x.row_obj, &mut self.x.col_obj),
            _ => {
                // cells are stored column by column: each column is one run of `h * s` words
                for (x, column) in cells.chunks_exact(h * s).enumerate() {
                    let col = &mut self.x.col_obj[x * s..(x + 1) * s];
                    for (cell, row) in column.chunks_exact(s).zip(self.x.row_obj.chunks_exact_mut(s)) {
                        for ((c, r), v) in col.iter_mut().zip(row.iter_mut()).zip(cell) {
                            *c |= v;
                            *r |= v;
                        }
                    }
                }
            }
        }
        for col in self.x.col_obj.chunks_exact(s) {
            bits::or_into(&mut self.x.map_obj, col);
        }
        let lc = self.game.layer_count;
        let mut moving = std::mem::take(&mut self.x.moving);
        moving_cells_into(&self.st.movements[..w * h * lc], lc, &mut moving);
        for &i in &moving {
            for l in 0..lc {
                let m = self.st.movements[i * lc + l];
                if m != 0 {
                    self.note_movement(i, l, m);
                }
            }
        }
        self.x.moving = moving;
    }

    /// ORs cell `i`'s objects into the masks.
    fn note_objects(&mut self, i: usize) {
        let h = self.st.height;
        let (x, y) = (i / h, i % h);
        let s = self.game.stride;
        for wi in 0..s {
            let v = self.st.cells[i * s + wi];
            if v & !self.x.map_obj[wi] != 0 {
                self.x.mask_version += 1;
            }
            self.x.map_obj[wi] |= v;
            self.x.row_obj[y * s + wi] |= v;
            self.x.col_obj[x * s + wi] |= v;
        }
    }

    /// ORs movement `m` of layer `l` at cell `i` into the masks.
    fn note_movement(&mut self, i: usize, l: usize, m: u8) {
        if m == 0 {
            return;
        }
        let h = self.st.height;
        let (x, y) = (i / h, i % h);
        let ms = self.mstride;
        for bit in 0..5 {
            if m & (1 << bit) != 0 {
                let b = l * 5 + bit;
                let (wi, mask) = (b / 64, 1u64 << (b % 64));
                if self.x.map_mov[wi] & mask == 0 {
                    self.x.mask_version += 1;
                }
                self.x.map_mov[wi] |= mask;
                self.x.row_mov[y * ms + wi] |= mask;
                self.x.col_mov[x * ms + wi] |= mask;
            }
        }
    }

    /// The work of a turn's whole-board passes: [`PASS_WORK`] a cell, and a unit for every 4
    /// bytes of a cell's state past 32 (its objects and restart objects, 8 bytes a word each,
    /// and a byte of movement a layer), which every turn copies and scans. Issue 37.4: counted
    /// per cell alone, a game of 1,000 layers on a 256×256 level took 14 s a step at the bound;
    /// a game of at most 64 objects and 16 layers counts as before.
    fn pass_work(&self) -> usize {
        let bytes = 16 * self.st.stride + self.game.layer_count;
        self.n_cells() * (PASS_WORK + bytes.saturating_sub(32) / 4)
    }

    fn n_cells(&self) -> usize {
        self.st.width * self.st.height
    }

    fn delta(&self, dir: u8) -> isize {
        let (dx, dy) = delta_xy(dir);
        dx * self.st.height as isize + dy
    }

    fn cell(&self, i: usize) -> &[u64] {
        let s = self.game.stride;
        &self.st.cells[i * s..(i + 1) * s]
    }

    /// `loadLevelFromLevelDat`: a level (or a message screen).
    pub fn load_level(&mut self, index: usize) {
        self.invalidate();
        self.st.rng = Rng::new(&self.st.seed);
        self.againing = false;
        self.st.level = index;
        match self.game.levels.get(index) {
            Some(LevelEntry::Level { line, .. })
                if self.game.boards.get(index).is_some_and(Option::is_none) =>
            {
                // A level too large to play (reached by winning the one before): shown as a
                // message screen saying so.
                self.st.text_mode = true;
                self.messages.push(format!("the level at line {line} is too large to be played"));
            }
            Some(LevelEntry::Level { width, height, .. }) => {
                self.play_simple("startlevel");
                let cells = self.game.boards[index].clone().unwrap_or_default();
                self.st.width = *width;
                self.st.height = *height;
                self.st.cells = cells.clone();
                self.st.movements = vec![0; width * height * self.game.layer_count];
                self.st.text_mode = false;
                self.st.title_screen = false;
                self.backups.clear();
                self.st.restart_cells = cells;
                if self.game.prelude.run_rules_on_level_start {
                    self.process_input(None, true, false);
                }
            }
            Some(LevelEntry::Message { text, .. }) => {
                self.st.text_mode = true;
                self.messages.push(text.clone());
            }
            None => {
                self.go_to_title_screen();
            }
        }
    }

    fn go_to_title_screen(&mut self) {
        self.againing = false;
        self.st.title_screen = true;
        self.st.text_mode = true;
        self.st.level = 0;
    }

    /// `nextLevel`.
    fn next_level(&mut self) {
        self.againing = false;
        if self.st.title_screen {
            self.load_level(0);
            return;
        }
        if self.st.level + 1 < self.game.levels.len() {
            let next = self.st.level + 1;
            self.st.text_mode = false;
            self.load_level(next);
        } else {
            self.go_to_title_screen();
        }
    }

    fn restore(&mut self, cells: Vec<u64>) {
        if cells.len() == self.st.cells.len() {
            self.set_board(&cells);
            self.x.recycle(cells);
        } else {
            self.invalidate();
            let old = std::mem::replace(&mut self.st.cells, cells);
            self.x.recycle(old);
            self.st.movements.fill(0);
        }
        self.againing = false;
        self.queue.clear();
    }

    fn add_undo(&mut self, cells: Vec<u64>) {
        self.backups.push(cells);
    }

    /// `DoUndo`.
    pub fn do_undo(&mut self, force: bool, ignore_duplicates: bool) {
        if self.game.prelude.noundo && !force {
            return;
        }
        if ignore_duplicates {
            while self.backups.last().is_some_and(|b| *b == self.st.cells) {
                if let Some(b) = self.backups.pop() {
                    self.x.recycle(b);
                }
            }
        }
        if let Some(b) = self.backups.pop() {
            self.restore(b);
            if !force {
                self.play_simple("undo");
            }
        }
    }

    /// `tryPlaySimpleSound`: the game's sound for `event`, if it declares one.
    fn play_simple(&mut self, event: &str) {
        if self.quiet {
            return;
        }
        if let Some(seed) = self.game.sounds.events.get(event) {
            self.played.push(seed.clone());
        }
    }

    /// `processOutputCommands`: each `sfx` command's sound, and a `message` command's
    /// `showmessage` (the reference shows messages only outside its tests; a player sees them).
    fn play_output_commands(&mut self) {
        if self.quiet {
            return;
        }
        for k in 0..self.queue.len() {
            let c = self.queue[k];
            if c.as_bytes().get(1) == Some(&b'f') {
                self.play_simple(c);
            }
            if c == "message" {
                self.play_simple("showmessage");
            }
        }
    }

    /// `DoRestart`.
    pub fn do_restart(&mut self, force: bool) {
        if self.restarting {
            return;
        }
        if !force && self.game.prelude.norestart {
            return;
        }
        if self.againing {
            self.do_undo(force, true);
        }
        self.restarting = true;
        if !force {
            let mut c = self.x.board();
            c.extend_from_slice(&self.st.cells);
            self.add_undo(c);
        }
        if self.st.restart_cells.len() == self.st.cells.len() {
            let mut target = self.x.board();
            target.extend_from_slice(&self.st.restart_cells);
            self.restore(target);
        }
        self.restarted = true;
        self.play_simple("restart");
        if self.game.prelude.run_rules_on_level_start {
            self.process_input(None, true, false);
        }
        self.queue.clear();
        self.restarting = false;
    }

    /// The player's cells, into `self.x.positions`.
    fn find_player_positions(&mut self) {
        let pm = &self.game.player_mask;
        let s = self.game.stride;
        let aggregate = self.game.player_aggregate;
        let cells = &self.st.cells[..self.n_cells() * s];
        self.x.positions.clear();
        if s == 1 {
            let m = pm.first().copied().unwrap_or(0);
            if aggregate && m.count_ones() != 1 {
                for (i, &c) in cells.iter().enumerate() {
                    if c & m == m {
                        self.x.positions.push(i);
                    }
                }
                return;
            }
            // (one object, or any of several: a cell with none of them is passed over eight
            // at a time)
            for (k, run) in cells.chunks(8).enumerate() {
                if run.iter().fold(0, |a, &c| a | c) & m == 0 {
                    continue;
                }
                for (j, &c) in run.iter().enumerate() {
                    if c & m != 0 {
                        self.x.positions.push(k * 8 + j);
                    }
                }
            }
            return;
        }
        for (i, c) in cells.chunks_exact(s.max(1)).enumerate() {
            if if aggregate { bits::subset(pm, c) } else { bits::intersects(pm, c) } {
                self.x.positions.push(i);
            }
        }
    }

    /// Gives the player's objects movement `dir`; the player's cells are in `self.x.positions`.
    fn start_movement(&mut self, dir: u8) {
        self.find_player_positions();
        let lc = self.game.layer_count;
        let s = self.game.stride;
        for k in 0..self.x.positions.len() {
            let p = self.x.positions[k];
            for w in 0..s {
                let mut m = self.st.cells[p * s + w] & self.game.player_mask[w];
                while m != 0 {
                    let o = w * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    let layer = self.game.objects[o].layer;
                    self.st.movements[p * lc + layer] |= dir;
                    self.touch_layer(layer);
                }
            }
        }
    }

    /// `processInput`: one turn. `dir`: a movement mask, or `None` for a tick / again turn.
    /// Returns whether the level changed (the reference's return value).
    pub fn process_input(&mut self, dir: Option<u8>, dont_do_win: bool, dont_modify: bool) -> bool {
        let bak = match self.checked_turn(dir, dont_modify) {
            Some(bak) => bak,
            None => self.play_rules(dir, dont_modify),
        };
        if !self.x.positions.is_empty() && self.game.prelude.require_player_movement {
            let pm = &self.game.player_mask;
            let somemoved = self.x.positions.iter().any(|&p| !bits::intersects(pm, self.cell(p)));
            if !somemoved {
                self.add_undo(bak);
                self.do_undo(true, false);
                self.st.text_mode = false;
                return false;
            }
        }
        self.process_command_queue(bak, dont_modify, dont_do_win, dir.is_some())
    }

    /// An `again` turn of a quiet runtime from the board the last `again` check started from:
    /// the check's rules and movements taken over ([`CheckedTurn`]), its work counted again.
    /// The board before them, or `None` when there is no such check to take.
    fn checked_turn(&mut self, dir: Option<u8>, dont_modify: bool) -> Option<Vec<u64>> {
        let c = &self.x.again;
        let fits = c.kept
            && dir.is_none()
            && !dont_modify
            && self.quiet
            && self.trace.is_none()
            && c.game == std::ptr::from_ref(self.game) as usize
            && c.rules == self.game.rule_needs.id
            && (c.width, c.height) == (self.st.width, self.st.height)
            && c.from == self.st.cells
            && self.st.movements.iter().all(|&m| m == 0);
        if !fits {
            return None;
        }
        self.spend(usize::try_from(self.x.again.work).unwrap_or(usize::MAX));
        self.againing = false;
        let mut bak = self.x.board();
        bak.extend_from_slice(&self.st.cells);
        self.x.positions.clear();
        self.invalidate();
        let c = &self.x.again;
        self.st.cells.copy_from_slice(&c.to);
        self.queue.clear();
        self.queue.extend(c.queue.iter().copied());
        self.loop_limit_hit |= c.loop_limit_hit;
        for w in self.x.create_mask.iter_mut().chain(self.x.destroy_mask.iter_mut()) {
            *w = 0;
        }
        self.seeds_can_move.clear();
        self.seeds_cant_move.clear();
        Some(bak)
    }

    /// Keeps what an `again` check's rules and movements did ([`CheckedTurn`]), begun at
    /// `work` and `draws` (and the loop bound `hit` or not before it), from board `from`.
    fn keep_checked_turn(&mut self, work: u64, draws: u64, hit: bool, from: &[u64]) {
        self.x.again.kept = false;
        // (a loop bound already reached before the check hides whether the check reached it)
        if hit || self.draws != draws || self.over() || self.st.movements.iter().any(|&m| m != 0) {
            return;
        }
        let mut queue = std::mem::take(&mut self.x.again.queue);
        queue.clear();
        for c in &self.queue {
            match super::compile::COMMAND_WORDS.iter().find(|w| **w == *c) {
                Some(w) => queue.push(*w),
                None => return,
            }
        }
        let game = std::ptr::from_ref(self.game) as usize;
        let spent = self.work() - work;
        let c = &mut self.x.again;
        c.queue = queue;
        c.game = game;
        c.rules = self.game.rule_needs.id;
        c.width = self.st.width;
        c.height = self.st.height;
        c.from.clear();
        c.from.extend_from_slice(from);
        c.to.clone_from(&self.st.cells);
        c.loop_limit_hit = self.loop_limit_hit;
        c.work = spent;
        c.kept = true;
    }

    /// `processInput` up to its command queue: the player's movement, the rules, the
    /// movements, the late rules. The board before them.
    fn play_rules(&mut self, dir: Option<u8>, checking: bool) -> Vec<u64> {
        let (work, draws, hit) = (self.work(), self.draws, self.loop_limit_hit);
        // The whole-board passes of every turn (copies, masks, the moving cells, the win check).
        self.spend(self.pass_work());
        self.againing = false;
        let mut bak = self.x.board();
        bak.extend_from_slice(&self.st.cells);
        match dir {
            Some(d) => self.start_movement(d),
            None => self.x.positions.clear(),
        }
        self.recompute_masks();
        let n_groups = self.game.rules.len();
        let mut banned = std::mem::take(&mut self.x.banned);
        banned.clear();
        banned.resize(n_groups, false);
        self.queue.clear();
        let has_rigid = !self.game.rigid_group_to_group.is_empty();
        let (mut start_cells, mut start_movements) =
            (std::mem::take(&mut self.x.start_cells), std::mem::take(&mut self.x.start_movements));
        if has_rigid {
            start_cells.clone_from(&self.st.cells);
            start_movements.clone_from(&self.st.movements);
        }
        for w in self.x.create_mask.iter_mut().chain(self.x.destroy_mask.iter_mut()) {
            *w = 0;
        }
        self.seeds_can_move.clear();
        self.seeds_cant_move.clear();
        if has_rigid {
            let nl = self.n_cells() * self.game.layer_count;
            self.x.rigid_group.clear();
            self.x.rigid_group.resize(nl, 0);
            self.x.rigid_applied.clear();
            self.x.rigid_applied.resize(nl, false);
        }
        let game = self.game;
        let mut i = 0;
        loop {
            i += 1;
            self.apply_rules(&game.rules, &game.group_needs, &game.loop_point, Some(&banned));
            let should_undo = self.resolve_movements(&mut banned);
            let rigidloop = should_undo;
            if should_undo {
                self.invalidate();
                self.st.cells.clone_from(&start_cells);
                self.st.movements.clone_from(&start_movements);
                self.queue.clear();
                for w in self.x.create_mask.iter_mut().chain(self.x.destroy_mask.iter_mut()) {
                    *w = 0;
                }
                self.seeds_can_move.clear();
            } else {
                self.apply_rules(&game.late_rules, &game.late_group_needs, &game.late_loop_point, None);
            }
            if !(i < 50 && rigidloop) || self.over() {
                break;
            }
        }
        self.x.banned = banned;
        self.x.start_cells = start_cells;
        self.x.start_movements = start_movements;
        if checking && self.quiet {
            self.keep_checked_turn(work, draws, hit, &bak);
        }
        bak
    }

    fn play_sounds(&mut self) {
        if self.quiet {
            return;
        }
        let mut out: Vec<String> = Vec::new();
        out.extend(self.seeds_cant_move.iter().map(|s| s.to_string()));
        out.extend(self.seeds_can_move.iter().map(|s| s.to_string()));
        for (mask, seed) in &self.game.sounds.creation {
            if bits::intersects(&self.x.create_mask, mask) {
                out.push(seed.clone());
            }
        }
        for (mask, seed) in &self.game.sounds.destruction {
            if bits::intersects(&self.x.destroy_mask, mask) {
                out.push(seed.clone());
            }
        }
        self.played.extend(out.iter().cloned());
        self.sounds.extend(out);
    }

    fn process_command_queue(
        &mut self,
        bak: Vec<u64>,
        dont_modify: bool,
        dont_do_win: bool,
        input_given: bool,
    ) -> bool {
        if self.queue.contains(&"cancel") {
            if !dont_modify {
                self.play_output_commands();
            }
            let commands_left = self.queue.len() > 1;
            self.add_undo(bak);
            self.do_undo(true, false);
            if !dont_modify {
                self.cancelled = true;
            }
            self.play_simple("cancel");
            return commands_left;
        }
        if self.queue.contains(&"restart") {
            if !dont_modify {
                self.play_output_commands();
            }
            let mut copy = self.x.board();
            copy.extend_from_slice(&bak);
            self.add_undo(copy);
            if !dont_modify {
                self.do_restart(true);
            }
        }
        let modified = self.st.cells != bak;
        if modified && dont_modify {
            self.add_undo(bak);
            self.do_undo(true, false);
            return true;
        } else if modified && input_given {
            self.add_undo(bak);
        } else {
            self.x.recycle(bak);
        }
        if dont_modify && self.queue.iter().any(|c| *c == "win" || *c == "restart") {
            return true;
        }
        if !dont_modify {
            self.play_sounds();
            self.play_output_commands();
        }
        if !dont_do_win && !self.st.text_mode && self.check_win() {
            // DoWin
            self.play_simple("endlevel");
            self.againing = false;
            self.won = true;
            self.queue.clear();
            if self.advance_on_win {
                self.next_level();
            }
            return modified;
        }
        if self.queue.contains(&"checkpoint") {
            self.st.restart_cells.clone_from(&self.st.cells);
            if !dont_modify {
                self.checkpoint = true;
            }
        }
        if modified && self.queue.contains(&"again") {
            let keep_messages = self.messages.len();
            // The check is undone: its trace only when asked for (rules version 1).
            let hidden = match self.trace.as_deref() {
                Some(t) if !t.again_check => self.trace.take(),
                _ => None,
            };
            // The check looks at the board afresh, as the `again` turn it stands for will: its
            // work is that turn's, whether the turn is played or taken from the check.
            self.invalidate();
            let would_change = self.process_input(None, true, true);
            if hidden.is_some() {
                self.trace = hidden;
            }
            if would_change {
                self.againing = true;
            }
            self.messages.truncate(keep_messages);
        }
        self.queue.clear();
        modified
    }

    /// Whether the win conditions (or a `win` command) hold now.
    fn check_win(&mut self) -> bool {
        if self.queue.contains(&"win") {
            return true;
        }
        let held = self.game.win_conditions_hold(self.st);
        self.conditions_held = Some(held);
        held
    }
}
