//! The table of states: every distinct state reached, its parent and step, the boards compressed
//! against the start, and the bytes they take (checked against the memory budget).

use super::*;

/// How a state was reached: its parent, the command from it, the steps from the start.
#[derive(Clone, Copy)]
pub(super) struct Link {
    pub(super) parent: u32,
    pub(super) cmd: u8,
    pub(super) depth: u32,
}

/// The states seen: a table of their keys, each state's link back to its parent, and the
/// boards of the states in the frontier (slots reused once expanded).
pub(super) struct Store {
    /// Words per board.
    pub(super) len: usize,
    /// Open addressing: the keys (0 empty) and the id of each.
    pub(super) keys: Vec<u128>,
    pub(super) ids: Vec<u32>,
    /// Per state: its rest's id, its parent, the command from the parent, its steps from the
    /// start, its frontier slot (`NONE` once expanded).
    pub(super) rest_of: Vec<u32>,
    pub(super) parent: Vec<u32>,
    pub(super) cmd: Vec<u8>,
    pub(super) depth: Vec<u32>,
    pub(super) slot: Vec<u32>,
    /// The frontier's boards by slot, each packed as its difference from the start's (see
    /// [`Store::pack`]; a free slot's is empty), the free slots, the words the boards take, and
    /// the most they took at once (what the store counts: so its bytes never go down).
    pub(super) boards: Vec<Box<[u64]>>,
    pub(super) free: Vec<u32>,
    pub(super) board_words: u64,
    pub(super) most_board_words: u64,
    /// The distinct rests (the state with no board), their ids, and what they take.
    pub(super) rests: Vec<crate::State>,
    pub(super) rest_ids: HashMap<crate::State, u32, rustc_hash::FxBuildHasher>,
    pub(super) rest_bytes: u64,
    /// Per estimate: every object on every cell of the states found with that estimate, a
    /// board's words ORed (width's novelty; at most [`MAX_NOVELTY_BYTES`] of them and of the
    /// pairs below).
    pub(super) seen: HashMap<u32, Vec<u64>, rustc_hash::FxBuildHasher>,
    /// Width's novelty of pairs: the start's board, and every pair of
    /// objects found together, with an estimate, on cells where the start did not have them
    /// (the estimate, each object's cell and id: 24, 20 and 20 bits).
    pub(super) start: Vec<u64>,
    pub(super) pairs: std::collections::HashSet<u64, rustc_hash::FxBuildHasher>,
}

/// The most objects off their start cells a state may have for its pairs to be noted (16 give
/// 120 pairs). On the suite at 10 s, 32 solved 195 levels where 16 solved 194 (3 gained, 2
/// lost, one solved in 0.4 s with 16), and 8 one more than 16 on the 129 levels hard or
/// unsolved: other levels each way, not a better bound.
pub(super) const MAX_ATOMS: usize = 16;

/// The most bytes [`Store::novelty`] keeps (its boards, and 16 bytes a pair): past them, a state
/// with an estimate not seen yet is not novel, and no pair is noted.
pub(super) const MAX_NOVELTY_BYTES: u64 = 64 << 20;

/// Bytes per state besides its board: rest id, parent, command, depth, slot.
pub(super) const PER_STATE: u64 = 4 + 4 + 1 + 4 + 4;
/// Bytes per table slot: key and id.
pub(super) const PER_SLOT: u64 = 16 + 4;
/// Bytes per frontier slot besides its board's words: the slot's pointer and length, and the
/// allocator's header of the board.
pub(super) const PER_BOARD: u64 = 16 + 16;
/// A packed board's first word when it lists the words that differ from the start's.
pub(super) const SPARSE: u64 = 1 << 63;

impl Store {
    pub(super) fn new(len: usize) -> Store {
        Store {
            start: Vec::new(),
            pairs: Default::default(),
            len,
            keys: vec![0; 64],
            ids: vec![NONE; 64],
            rest_of: Vec::new(),
            parent: Vec::new(),
            cmd: Vec::new(),
            depth: Vec::new(),
            slot: Vec::new(),
            boards: Vec::new(),
            free: Vec::new(),
            board_words: 0,
            most_board_words: 0,
            rests: Vec::new(),
            rest_ids: HashMap::default(),
            rest_bytes: 0,
            seen: HashMap::default(),
        }
    }

    pub(super) fn count(&self) -> usize {
        self.parent.len()
    }

    /// The bytes the store takes, at the most so far (checked against the budget).
    pub(super) fn bytes(&self) -> u64 {
        self.count() as u64 * PER_STATE
            + self.keys.len() as u64 * PER_SLOT
            + self.boards.len() as u64 * PER_BOARD
            + self.most_board_words * 8
            + self.free.len() as u64 * 4
            + self.rest_bytes
            + self.novelty_bytes()
    }

    pub(super) fn novelty_bytes(&self) -> u64 {
        self.seen.len() as u64 * self.len as u64 * 8 + self.pairs.len() as u64 * 16
    }

    /// Width's novelty of a state found with estimate `h` and board `cells` (0 when no order
    /// asks, `width` false): 1 when it has some object on a cell where no state found before
    /// with the same estimate had it; else 2 when it has two objects, each on a cell the start
    /// did not have it on, that no state found before with the same estimate had together
    /// there (BFWS's width 2, over the objects off their start: at most [`MAX_ATOMS`] of them,
    /// so a state moves them, not the board's scenery); else 3. Notes its objects and pairs
    /// for the states after it.
    pub(super) fn novelty(&mut self, width: bool, h: u32, cells: &[u64]) -> u32 {
        if !width {
            return 0;
        }
        let full = self.novelty_bytes() + self.len as u64 * 8 > MAX_NOVELTY_BYTES;
        let seen = match self.seen.entry(h) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(_) if full => return 3,
            std::collections::hash_map::Entry::Vacant(e) => e.insert(vec![0; cells.len()]),
        };
        let mut novel = false;
        for (s, &c) in seen.iter_mut().zip(cells) {
            novel |= c & !*s != 0;
            *s |= c;
        }
        // (an estimate or an object's cell and id past their bits: no pairs)
        if self.start.len() != cells.len() || h >= 1 << 24 || cells.len() * 64 >= 1 << 20 {
            return if novel { 1 } else { 3 };
        }
        // Width 2: the objects now on cells the start had them not, in pairs.
        // (word by word: an atom is the index of its bit in the board)
        let mut atoms = [0u64; MAX_ATOMS];
        let mut k = 0;
        'words: for (w, (&now, &was)) in cells.iter().zip(&self.start).enumerate() {
            let mut bits = now & !was;
            while bits != 0 {
                if k == MAX_ATOMS {
                    k = usize::MAX;
                    break 'words;
                }
                atoms[k] = (w * 64) as u64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                k += 1;
            }
        }
        let mut novel2 = false;
        if k != usize::MAX && self.novelty_bytes() <= MAX_NOVELTY_BYTES {
            let atoms = &atoms[..k];
            for (a, &x) in atoms.iter().enumerate() {
                for &y in &atoms[a + 1..] {
                    novel2 |= self.pairs.insert(u64::from(h) << 40 | x << 20 | y);
                }
            }
        }
        if novel {
            1
        } else if novel2 {
            2
        } else {
            3
        }
    }

    /// The bytes the store would take after one more state in the frontier (and the table's
    /// growth then).
    pub(super) fn bytes_after_one_more(&self) -> u64 {
        let grow =
            if (self.count() + 1) * 2 > self.keys.len() { self.keys.len() as u64 * PER_SLOT } else { 0 };
        // (a board packs into at most its words)
        let board = self.len as u64 * 8 + if self.free.is_empty() { PER_BOARD } else { 0 };
        // (width's novelty may note a new estimate's board)
        let novelty = if self.seen.is_empty() { 0 } else { self.len as u64 * 8 };
        self.bytes() + PER_STATE + board + novelty + grow + 512
    }

    /// About the most the store grows by with `states` more states: each at the mean size so
    /// far (at least its board and links), and the table's doublings.
    pub(super) fn growth(&self, states: u64) -> u64 {
        let count = self.count() as u64;
        let mean = (self.bytes() / count.max(1)).max(PER_STATE + self.len as u64 * 8);
        let mut slots = self.keys.len() as u64;
        while count.saturating_add(states).saturating_mul(2) > slots {
            slots *= 2;
        }
        states.saturating_mul(mean).saturating_add((slots - self.keys.len() as u64) * PER_SLOT)
    }

    /// The id of the rest of `state` (its board ignored).
    pub(super) fn rest_id(&mut self, state: &crate::State) -> u32 {
        self.rest_id_of(state.without_cells())
    }

    /// The id of `rest`, a state without its board.
    pub(super) fn rest_id_of(&mut self, rest: crate::State) -> u32 {
        if let Some(&id) = self.rest_ids.get(&rest) {
            return id;
        }
        let id = self.rests.len() as u32;
        self.rest_bytes += (rest.restart_cells.len() * 8 * 2 + rest.movements.len() * 2 + 512) as u64;
        self.rests.push(rest.clone());
        self.rest_ids.insert(rest, id);
        id
    }

    /// The table slot of `key`: whether it holds it (else it is the empty slot it would go to).
    pub(super) fn find(&self, key: u128) -> (usize, bool) {
        let mask = self.keys.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            match self.keys[i] {
                0 => return (i, false),
                k if k == key => return (i, true),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The start's board word `i` (0 where no start was given).
    pub(super) fn base(&self, i: usize) -> u64 {
        if self.start.len() == self.len { self.start[i] } else { 0 }
    }

    /// `cells` packed: where few words differ from the start's board (a state's moves change a
    /// few cells of a large board), [`SPARSE`] with their count, their indexes two to a word,
    /// and their differences (a 1,200-cell board with 10 cells changed: 16 words, not 1,200);
    /// else the board's words as they are. A packed board is never longer than the board.
    pub(super) fn pack(&self, cells: &[u64]) -> Box<[u64]> {
        let differ = cells.iter().enumerate().filter(|&(i, &c)| c != self.base(i)).count();
        let sparse = 1 + differ.div_ceil(2) + differ;
        if sparse >= cells.len() || cells.len() > u32::MAX as usize {
            return cells.into();
        }
        let mut out = vec![0u64; sparse];
        out[0] = SPARSE | differ as u64;
        let (indexes, words) = out[1..].split_at_mut(differ.div_ceil(2));
        let changed = cells.iter().enumerate().filter(|&(i, &c)| c != self.base(i));
        for (k, (i, &c)) in changed.enumerate() {
            indexes[k / 2] |= (i as u64) << (32 * (k % 2));
            words[k] = c ^ self.base(i);
        }
        out.into_boxed_slice()
    }

    /// The board `packed` holds (see [`Store::pack`]), into `cells`.
    pub(super) fn unpack(&self, packed: &[u64], cells: &mut Vec<u64>) {
        cells.clear();
        if packed.len() == self.len {
            cells.extend_from_slice(packed);
            return;
        }
        cells.extend((0..self.len).map(|i| self.base(i)));
        let differ = (packed[0] & !SPARSE) as usize;
        let (indexes, words) = packed[1..].split_at(differ.div_ceil(2));
        for (k, w) in words.iter().enumerate() {
            cells[(indexes[k / 2] >> (32 * (k % 2))) as u32 as usize] ^= w;
        }
    }

    /// Puts `cells` in a free frontier slot: the slot.
    pub(super) fn keep_board(&mut self, cells: &[u64]) -> u32 {
        let packed = self.pack(cells);
        self.board_words += packed.len() as u64;
        self.most_board_words = self.most_board_words.max(self.board_words);
        match self.free.pop() {
            Some(slot) => {
                self.boards[slot as usize] = packed;
                slot
            }
            None => {
                self.boards.push(packed);
                (self.boards.len() - 1) as u32
            }
        }
    }

    /// Adds a new state to the frontier (its key not in the table, `at` its empty slot): its id.
    pub(super) fn add(&mut self, at: usize, key: u128, cells: &[u64], rest: u32, link: Link) -> u32 {
        let id = self.count() as u32;
        let slot = self.keep_board(cells);
        self.rest_of.push(rest);
        self.parent.push(link.parent);
        self.cmd.push(link.cmd);
        self.depth.push(link.depth);
        self.slot.push(slot);
        self.keys[at] = key;
        self.ids[at] = id;
        if self.count() * 2 > self.keys.len() {
            self.grow();
        }
        id
    }

    /// Puts a state seen before back in the frontier, reached now by a shorter path.
    pub(super) fn reopen(&mut self, id: u32, cells: &[u64], link: Link) {
        let i = id as usize;
        self.parent[i] = link.parent;
        self.cmd[i] = link.cmd;
        self.depth[i] = link.depth;
        if self.slot[i] == NONE {
            self.slot[i] = self.keep_board(cells);
        }
    }

    pub(super) fn grow(&mut self) {
        let size = self.keys.len() * 2;
        let (keys, ids) = (std::mem::replace(&mut self.keys, vec![0; size]), std::mem::take(&mut self.ids));
        self.ids = vec![NONE; size];
        for (key, id) in keys.into_iter().zip(ids) {
            if key != 0 {
                let (at, _) = self.find(key);
                self.keys[at] = key;
                self.ids[at] = id;
            }
        }
    }

    /// Makes `state` the state `id` (in the frontier), which stays there.
    pub(super) fn load(&self, id: u32, state: &mut crate::State) {
        let rest = &self.rests[self.rest_of[id as usize] as usize];
        let cells = std::mem::take(&mut state.cells);
        state.clone_from(rest);
        state.cells = cells;
        self.unpack(&self.boards[self.slot[id as usize] as usize], &mut state.cells);
    }

    /// Takes state `id` out of the frontier (it is expanded), its board's slot freed.
    pub(super) fn release(&mut self, id: u32) {
        let slot = std::mem::replace(&mut self.slot[id as usize], NONE);
        let board = std::mem::take(&mut self.boards[slot as usize]);
        self.board_words -= board.len() as u64;
        self.free.push(slot);
    }

    /// The steps from the start to `id` that drew from the generator.
    pub(super) fn draws(&self, mut id: u32) -> u64 {
        let mut draws = 0;
        while let Some(&parent) = self.parent.get(id as usize).filter(|&&p| p != NONE) {
            let rng = |i: u32| &self.rests[self.rest_of[i as usize] as usize].rng;
            draws += u64::from(rng(id) != rng(parent));
            id = parent;
        }
        draws
    }

    /// The commands from the start to `id`.
    pub(super) fn path(&self, mut id: u32, moves: &[Command]) -> Vec<Command> {
        let mut out = Vec::new();
        while self.parent[id as usize] != NONE {
            out.push(moves[usize::from(self.cmd[id as usize])]);
            id = self.parent[id as usize];
        }
        out.reverse();
        out
    }
}
