//! What the rules can never do, read from the compiled game: the solver's proofs that a state
//! cannot be won, whatever the steps.
//!
//! Each object is looked at once: whether some rule's right-hand side can create it (it sets
//! it in a cell whose pattern did not need it, or may pick it at random), destroy it (it clears
//! it without setting it again, or sets another object of its layer), or move it (the player's
//! objects, every object of a layer some rule gives a movement, and an object a row takes from
//! the cell that needs it and puts in the next one, where it cannot be already: `[ > Player |
//! Crate | no Wall ] -> [ | Player | Crate ]` moves the crate, it neither creates nor destroys
//! it, and the player moved into its cell does not replace it there, as it has left; the cell
//! before it in the row is its pusher). These are over-estimates (a rule that
//! never fires still counts), so what follows from them is sound:
//! - a game with no win condition and no rule that says `win` is never won;
//! - a win condition whose objects are all fixed (never created, destroyed or moved) holds now
//!   or never;
//! - `some X` (or `some X on Y`) with no X left, when X is never created, never holds again;
//! - `all X on Y` with an X and no Y left, when X is never destroyed and Y never created,
//!   never holds again.
//!
//! - **Where an object can travel** (Sokoban's dead squares, read from the rules): for `all X
//!   on Y` and `some X on Y` with X never created (and for `all`, never destroyed) and Y fixed,
//!   each X object's cells from which it can reach a Y cell at all. An object moves one cell at
//!   a time, into a cell where no fixed object holds its layer; and when every rule that gives
//!   its layer a movement in a direction does it to a cell whose row needs another cell behind
//!   it (`[ > Player | Crate ] -> [ > Player | > Crate ]`), only when that cell's pattern can
//!   match there, given the fixed objects (a wall behind a crate: the crate cannot be pushed
//!   away from it). The player's objects move by themselves. An X on a cell from which no Y
//!   can be reached (`all`), or every X on one (`some`), is dead. The distances (moves to the
//!   nearest Y) also give the search's estimate.
//!
//! - **Frozen objects** (Sokoban's freeze deadlocks, read from the rules): for `all` of those
//!   conditions, when the moving side's objects share one layer, are never created or
//!   destroyed, are not the player's, and move only when pushed (every rule that moves them
//!   needs, in the cell behind, an object of their layer that is not one of them: a player):
//!   such an object can never move again when, along both axes, each way either the cell ahead
//!   is held for good or no pusher can ever stand behind it. A cell is held for good by a fixed
//!   object of the layer, or by another such object that can never move across the other axis
//!   (this one taken as a wall: neither can be the first to move); a move onto a cell from
//!   which no Y can be reached counts as none when every mover must reach one (it would kill
//!   the state: `all X on Y`, or reversed with as many movers as targets). A frozen X off every Y
//!   (`all X on Y`) is dead; reversed (`all Target on Crate`), a frozen Y off every X cannot
//!   reach one.
//!
//! A rule that says `win` can win whatever the win conditions, so then nothing is pruned; one
//! that says `restart` puts objects back, so then only the fixed conditions are checked.

use crate::compile::{CellPattern, DOWN, LEFT, PatternCell, RIGHT, UP, WinCondition};
use crate::{Game, State, bits};

/// The four directions of movement, in the order of [`Moves`]' arrays, and each one's step
/// (columns, rows).
const DIRS: [(u8, isize, isize); 4] = [(UP, 0, -1), (DOWN, 0, 1), (LEFT, -1, 0), (RIGHT, 1, 0)];

/// A cell no Y can be reached from.
pub(crate) const FAR: u32 = u32::MAX;

/// How the objects of one layer can be moved one cell in each direction: by a rule with no
/// condition behind the moving cell (`free`), or only by rules whose row needs one of
/// `pushers` in the cell behind.
#[derive(Clone, Debug, Default)]
struct Moves {
    free: [bool; 4],
    pushers: [Vec<CellPattern>; 4],
}

/// For one win condition: the moving side's objects' moves to the nearest cell of the fixed
/// side from every cell ([`FAR`] where none can be reached). The moving side is X (`X on Y`,
/// Y fixed) or, written the other way round (`all Target on Crate`), Y.
#[derive(Clone, Debug)]
pub(crate) struct Travel {
    /// The win condition's index.
    pub condition: usize,
    /// `all` (true) or `some`.
    all: bool,
    /// Y moves to the fixed X (`all Target on Crate`): then `all` needs as many Y able to reach
    /// an X as there are cells with an X (a cell holds one Y: Y's objects share a layer).
    pub reversed: bool,
    /// Cells with an X (the reversed form's targets).
    targets: usize,
    /// Per object of the moving side: the object and its distances, a cell each.
    pub maps: Vec<(usize, Vec<u32>)>,
    /// Per cell of the fixed side (at most [`MAX_TARGET_MAPS`] of them; the moving side has
    /// no player object and, unless reversed, is `all` with its objects on one layer), the
    /// moves a mover needs to reach it from every cell (empty otherwise).
    pub per_target: Vec<(usize, Vec<u32>)>,
    /// `all`, when the moving side's objects move only when pushed: which can never move
    /// again (see the module docs).
    freeze: Option<Freeze>,
}

/// What tells a moving-side object that can never move again (see the module docs).
#[derive(Clone, Debug)]
struct Freeze {
    /// The moving side's objects.
    movers: bits::Bits,
    /// The board's columns and rows (cell `i` at column `i / height`, row `i % height`), and
    /// its words a cell.
    width: usize,
    height: usize,
    stride: usize,
    /// Per cell: no fixed object holds the movers' layer there.
    open: Vec<bool>,
    /// Per cell: a mover there kills the state for good (it can never reach a target, and
    /// every mover must: `all X on Y`, or reversed with as many movers as targets).
    dead: Vec<bool>,
    /// Per direction ([`DIRS`]' order) and cell: a pusher of a move that way could ever stand
    /// there.
    push: [Vec<bool>; 4],
}

/// The most movers a freeze check takes as walls at once, and the most axes it looks at in
/// all (past either, it says "can move"): a bound on one check's work whatever the board
/// (the ways to look grow exponentially with the depth; a room packed with 143 crates took
/// 0.03 s unbounded, so the bound is a guard, not a measured need).
const MAX_FREEZE_DEPTH: usize = 16;
const MAX_FREEZE_LOOKS: u32 = 256;

/// A freeze check's movers taken as walls (a stack, no allocation: the check runs on every
/// state found) and the axes it has looked at.
struct Walls {
    at: [usize; MAX_FREEZE_DEPTH],
    len: usize,
    looks: u32,
}

/// The most X cells the reversed form keeps a distance map for, each (the estimate's).
const MAX_TARGET_MAPS: usize = 64;

/// The win-condition checks that apply to a game (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct Pruning {
    /// No state of this game is ever won (no win condition and no `win`).
    never: bool,
    /// Conditions of fixed objects: checked once, on the start.
    fixed: Vec<usize>,
    /// `some X`, X never created: dead once no X is left.
    some_gone: Vec<usize>,
    /// `all X on Y`, X never destroyed and Y never created: dead once an X is left and no Y.
    all_without_y: Vec<usize>,
    /// Where X objects can travel, for the conditions it applies to (see the module docs).
    travel: Vec<Travel>,
}

impl Pruning {
    /// Reads what the rules of `game` can do, and where objects can travel on the board of
    /// `start` (whose fixed objects are those of every state the steps reach).
    pub(crate) fn of(game: &Game, start: &State) -> Pruning {
        let all_rules = game.rules.iter().chain(&game.late_rules).flatten();
        if all_rules.clone().any(|r| r.commands.iter().any(|c| c.0 == "win")) {
            return Pruning::default();
        }
        if game.win_conditions.is_empty() {
            return Pruning { never: true, ..Pruning::default() };
        }
        let stride = game.stride;
        let Effects { created, destroyed, moved, moves } = Effects::of(game);
        let mut fixed_objects = bits::empty(stride);
        for (w, f) in fixed_objects.iter_mut().enumerate() {
            *f = !(created[w] | destroyed[w] | moved[w]);
        }
        let none_of = |set: &[u64], mask: &[u64]| !bits::intersects(set, mask);
        // A `restart` command puts back the objects of the restart target (the start or a
        // checkpoint): only conditions of fixed objects can be relied on then.
        let restarts = game
            .rules
            .iter()
            .chain(&game.late_rules)
            .flatten()
            .any(|r| r.commands.iter().any(|c| c.0 == "restart"));
        let mut p = Pruning::default();
        for (k, wc) in game.win_conditions.iter().enumerate() {
            let fixed = |m: &[u64]| none_of(&created, m) && none_of(&destroyed, m) && none_of(&moved, m);
            if fixed(&wc.mask1) && fixed(&wc.mask2) {
                p.fixed.push(k);
            } else if restarts {
                continue;
            } else if wc.quantifier == 0 && !wc.aggregate1 && none_of(&created, &wc.mask1) {
                p.some_gone.push(k);
            } else if wc.quantifier == 1
                && !wc.aggregate1
                && !wc.aggregate2
                && none_of(&destroyed, &wc.mask1)
                && none_of(&created, &wc.mask2)
            {
                p.all_without_y.push(k);
            }
            if restarts || !(wc.quantifier == 0 || wc.quantifier == 1) || wc.aggregate1 || wc.aggregate2 {
                continue;
            }
            let all = wc.quantifier == 1;
            let y_fixed = bits::subset(&wc.mask2, &fixed_objects);
            let x_kept = none_of(&created, &wc.mask1) && (!all || none_of(&destroyed, &wc.mask1));
            let x_fixed = bits::subset(&wc.mask1, &fixed_objects);
            // (Y's objects on one layer: a cell holds at most one.)
            let mut y_layers = bits::ones(&wc.mask2).map(|o| game.objects[o].layer);
            let y_one_layer = y_layers.next().is_some_and(|l| y_layers.all(|m| m == l));
            if y_fixed && x_kept {
                p.travel.push(Travel {
                    condition: k,
                    all,
                    reversed: false,
                    targets: 0,
                    maps: Vec::new(),
                    per_target: Vec::new(),
                    freeze: None,
                });
            } else if x_fixed && none_of(&created, &wc.mask2) && y_one_layer {
                p.travel.push(Travel {
                    condition: k,
                    all,
                    reversed: true,
                    targets: 0,
                    maps: Vec::new(),
                    per_target: Vec::new(),
                    freeze: None,
                });
            }
        }
        if !p.travel.is_empty() {
            let mut travel = std::mem::take(&mut p.travel);
            for t in &mut travel {
                let wc = &game.win_conditions[t.condition];
                let (movers, fixed_side) =
                    if t.reversed { (&wc.mask2, &wc.mask1) } else { (&wc.mask1, &wc.mask2) };
                for o in bits::ones(movers) {
                    let player = bits::get(&game.player_mask, o);
                    t.maps.push((o, distances(game, start, &fixed_objects, o, player, &moves, fixed_side)));
                }
                let target_cells: Vec<usize> = start
                    .cells
                    .chunks(stride.max(1))
                    .enumerate()
                    .filter(|(_, c)| bits::intersects(fixed_side, c))
                    .map(|(i, _)| i)
                    .collect();
                t.targets = target_cells.len();
                let first = bits::ones(movers).next();
                // (`all X on Y`: X's objects on one layer, so that a Y cell holds one X and the
                // estimate can give each X its own Y)
                let mut mover_layers = bits::ones(movers).map(|o| game.objects[o].layer);
                let movers_one_layer = mover_layers.next().is_some_and(|l| mover_layers.all(|m| m == l));
                if (t.reversed || (t.all && movers_one_layer))
                    && t.targets <= MAX_TARGET_MAPS
                    && !bits::intersects(movers, &game.player_mask)
                    && let Some(o) = first
                {
                    for &cell in &target_cells {
                        let map = distances_to(game, start, &fixed_objects, o, false, &moves, &|i| i == cell);
                        t.per_target.push((cell, map));
                    }
                }
                let kept = !bits::intersects(&created, movers) && !bits::intersects(&destroyed, movers);
                if t.all && kept && !bits::intersects(movers, &game.player_mask) {
                    t.freeze = Freeze::of(game, start, &fixed_objects, &moves, movers);
                    // (reversed, a mover off every target kills only when none is spare)
                    let s = stride.max(1);
                    let count = start.cells.chunks(s).filter(|c| bits::intersects(movers, c)).count();
                    if let Some(f) = &mut t.freeze
                        && (!t.reversed || count == t.targets)
                    {
                        f.dead = (0..f.open.len()).map(|i| t.maps.iter().all(|(_, m)| m[i] == FAR)).collect();
                    }
                }
            }
            p.travel = travel;
        }
        p
    }

    /// Where X objects can travel, per win condition it applies to (see the module docs).
    pub(crate) fn travel(&self) -> &[Travel] {
        &self.travel
    }

    /// Leaves out the states' checks of where objects can travel (to measure what they buy).
    pub(crate) fn forget_travel(&mut self) {
        self.travel.clear();
    }

    /// Leaves out the checks of frozen objects (to measure what they buy).
    pub(crate) fn forget_freeze(&mut self) {
        for t in &mut self.travel {
            t.freeze = None;
        }
    }

    /// Whether no sequence of steps can win from the start `state` (the fixed conditions are
    /// checked here, once).
    pub(crate) fn start_is_dead(&self, game: &Game, state: &State) -> bool {
        self.never
            || self.fixed.iter().any(|&k| !holds(&game.win_conditions[k], state))
            || self.is_dead(game, state)
    }

    /// Whether no sequence of steps can win from `state`, reached from a start that was not
    /// dead.
    pub(crate) fn is_dead(&self, game: &Game, state: &State) -> bool {
        let cells = || state.cells.chunks(state.stride.max(1));
        let some_gone = self.some_gone.iter().any(|&k| {
            let m = &game.win_conditions[k].mask1;
            !cells().any(|c| bits::intersects(m, c))
        });
        some_gone
            || self.all_without_y.iter().any(|&k| {
                let wc = &game.win_conditions[k];
                cells().any(|c| bits::intersects(&wc.mask1, c))
                    && !cells().any(|c| bits::intersects(&wc.mask2, c))
            })
            || self.travel.iter().any(|t| t.is_dead(state))
    }

    /// Whether any check applies to a state after the start (the search can skip the scan).
    pub(crate) fn checks_states(&self) -> bool {
        !self.some_gone.is_empty() || !self.all_without_y.is_empty() || !self.travel.is_empty()
    }
}

/// What the rules can do to each object (over-estimates: a rule that never fires still counts).
struct Effects {
    /// Objects some rule sets where its pattern did not need them, or may pick at random.
    created: bits::Bits,
    /// Objects some rule clears without setting again, or replaces by another of their layer.
    destroyed: bits::Bits,
    /// The player's objects, and each object a rule gives a movement to or moves by rewriting.
    moved: bits::Bits,
    /// How each object can be moved (by index).
    moves: Vec<Moves>,
}

impl Effects {
    fn of(game: &Game) -> Effects {
        let stride = game.stride;
        let all_rules = game.rules.iter().chain(&game.late_rules).flatten();
        let (mut created, mut destroyed) = (bits::empty(stride), bits::empty(stride));
        // Moved: the player's objects, and each object a rule gives a movement to.
        let moves = moves_of(game);
        let mut moved = game.player_mask.clone();
        for (o, m) in moves.iter().enumerate() {
            if m.free.iter().any(|f| *f) || m.pushers.iter().any(|p| !p.is_empty()) {
                bits::set(&mut moved, o);
            }
        }
        for row in all_rules.flat_map(|r| &r.rows) {
            // (an object a row moves by rewriting is neither created nor destroyed by it)
            let relocated = rewrite_moves(game, row);
            let cells = row.iter().enumerate().filter_map(|(k, c)| match c {
                PatternCell::Cell(p) => p.replacement.as_ref().map(|r| (k, p, r)),
                PatternCell::Ellipsis => None,
            });
            for (k, pattern, rep) in cells {
                // set where the pattern did not need it: new; cleared and not set again, of what
                // the cell can hold when the pattern matches: gone
                let mut new: Vec<u64> =
                    rep.objects_set.iter().zip(&pattern.present).map(|(s, p)| s & !p).collect();
                let mut gone = bits::empty(stride);
                for l in 0..game.layer_count {
                    let held = could_hold(game, pattern, l);
                    for (w, g) in gone.iter_mut().enumerate() {
                        *g |= rep.objects_clear[w] & !rep.objects_set[w] & held[w];
                    }
                }
                for &(o, from, to) in &relocated {
                    if from == k {
                        gone[o / 64] &= !(1u64 << (o % 64));
                    }
                    if to == k {
                        new[o / 64] &= !(1u64 << (o % 64));
                    }
                }
                bits::or_into(&mut destroyed, &gone);
                for id in bits::ones(&new).chain(rep.random_entities.iter().copied()) {
                    bits::set(&mut created, id);
                    // the other objects of its layer in that cell go
                    if let Some(o) = game.objects.get(id) {
                        let mut mates = could_hold(game, pattern, o.layer);
                        mates[id / 64] &= !(1u64 << (id % 64));
                        bits::or_into(&mut destroyed, &mates);
                    }
                }
                // an object moved in by rewriting replaces the others of its layer too, but for
                // one moved out of the cell by the same row (`[ > Player | Crate | no Wall ] ->
                // [ | Player | Crate ]`: the crate is needed there, so it is all its layer
                // holds, and it moves on)
                for &(o, ..) in relocated.iter().filter(|m| m.2 == k) {
                    let mut mates = could_hold(game, pattern, game.objects[o].layer);
                    mates[o / 64] &= !(1u64 << (o % 64));
                    for &(out, ..) in relocated.iter().filter(|m| m.1 == k) {
                        mates[out / 64] &= !(1u64 << (out % 64));
                    }
                    bits::or_into(&mut destroyed, &mates);
                }
            }
        }
        Effects { created, destroyed, moved, moves }
    }
}

/// Whether one win condition holds on `state`.
fn holds(wc: &WinCondition, state: &State) -> bool {
    let has = |mask: &[u64], all: bool, c: &[u64]| {
        if all { bits::subset(mask, c) } else { bits::intersects(mask, c) }
    };
    let mut cells = state.cells.chunks(state.stride.max(1));
    let both = |c: &[u64]| has(&wc.mask1, wc.aggregate1, c) && has(&wc.mask2, wc.aggregate2, c);
    match wc.quantifier {
        -1 => !cells.any(both),
        0 => cells.any(both),
        _ => !cells.any(|c| has(&wc.mask1, wc.aggregate1, c) && !has(&wc.mask2, wc.aggregate2, c)),
    }
}

impl Travel {
    /// Whether an X is where no Y can be reached from (`all`), or every X is (`some`, with
    /// at least one X); reversed, whether fewer Y can reach an X than there are X (`all`),
    /// or none can (`some`).
    fn is_dead(&self, state: &State) -> bool {
        let s = state.stride.max(1);
        if self.reversed {
            let mut able = 0usize;
            for (i, cell) in state.cells.chunks(s).enumerate() {
                // (a frozen Y off an X reaches none)
                let reaches = |map: &[u32]| {
                    map[i] == 0
                        || (map[i] != FAR && !self.freeze.as_ref().is_some_and(|f| f.frozen(&state.cells, i)))
                };
                if self.maps.iter().any(|(o, map)| bits::get(cell, *o) && reaches(map)) {
                    able += 1;
                    if !self.all || able >= self.targets {
                        return false;
                    }
                }
            }
            return if self.all { able < self.targets } else { able == 0 };
        }
        let mut stuck = false;
        for (i, cell) in state.cells.chunks(s).enumerate() {
            for (o, map) in &self.maps {
                if bits::get(cell, *o) {
                    if map[i] != FAR && !self.all {
                        return false;
                    }
                    stuck |= map[i] == FAR
                        || (map[i] != 0 && self.freeze.as_ref().is_some_and(|f| f.frozen(&state.cells, i)));
                    if stuck && self.all {
                        return true;
                    }
                }
            }
        }
        stuck && !self.all
    }
}

impl Freeze {
    /// The check for `movers`, when they move only when pushed (see the module docs), on the
    /// board of `start` with the `fixed` objects.
    fn of(game: &Game, start: &State, fixed: &[u64], moves: &[Moves], movers: &[u64]) -> Option<Freeze> {
        let mut layers = bits::ones(movers).map(|o| game.objects[o].layer);
        let layer = layers.next()?;
        if !layers.all(|l| l == layer) {
            return None;
        }
        // The layer's other objects: a pusher must be one of them, so a mover's cell holds none.
        let others: bits::Bits = game.layer_masks[layer].iter().zip(movers).map(|(l, m)| l & !m).collect();
        let needs_other = |p: &CellPattern| {
            bits::intersects(&p.present, &others)
                || p.any_present.iter().any(|a| !bits::is_zero(a) && bits::subset(a, &others))
        };
        let pushed_only = bits::ones(movers).all(|o| {
            let m = &moves[o];
            !m.free.iter().any(|&f| f) && m.pushers.iter().flatten().all(needs_other)
        });
        if !pushed_only {
            return None;
        }
        let (width, height) = (start.width, start.height);
        let s = start.stride.max(1);
        let n = width * height;
        let open = (0..n)
            .map(|i| {
                !start.cells[i * s..(i + 1) * s]
                    .iter()
                    .zip(fixed)
                    .zip(&game.layer_masks[layer])
                    .any(|((c, f), m)| c & f & m != 0)
            })
            .collect();
        let push = std::array::from_fn(|d| {
            (0..n)
                .map(|b| {
                    bits::ones(movers)
                        .any(|o| moves[o].pushers[d].iter().any(|p| could_match(game, start, fixed, p, b)))
                })
                .collect()
        });
        let dead = vec![false; n];
        Some(Freeze { movers: movers.iter().copied().collect(), width, height, stride: s, open, dead, push })
    }

    /// The cell one step from `i` in direction `d` ([`DIRS`]' order), if on the board.
    fn step(&self, i: usize, d: usize) -> Option<usize> {
        let (_, dx, dy) = DIRS[d];
        let (x, y) = ((i / self.height) as isize + dx, (i % self.height) as isize + dy);
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| x as usize * self.height + y as usize)
    }

    /// Whether the mover at cell `i` of the board `cells` can never move again.
    fn frozen(&self, cells: &[u64], i: usize) -> bool {
        let mut walls = Walls { at: [0; MAX_FREEZE_DEPTH], len: 0, looks: 0 };
        self.blocked(cells, i, 0, &mut walls) && self.blocked(cells, i, 1, &mut walls)
    }

    /// Whether the mover at `i` can never move along `axis` (0: up and down, 1: left and
    /// right), the movers at `walls` taken as walls.
    fn blocked(&self, cells: &[u64], i: usize, axis: usize, walls: &mut Walls) -> bool {
        walls.looks += 1;
        if walls.len >= MAX_FREEZE_DEPTH || walls.looks > MAX_FREEZE_LOOKS {
            return false;
        }
        walls.at[walls.len] = i;
        walls.len += 1;
        let (a, b) = (2 * axis, 2 * axis + 1);
        // A move in direction `d`, pushed from the cell the other way (`e`).
        let moves = |d: usize, e: usize, walls: &mut Walls| {
            self.step(i, d)
                .is_some_and(|j| self.open[j] && !self.dead[j] && !self.held(cells, j, axis, walls))
                && self.step(i, e).is_some_and(|k| self.push[d][k] && !self.held(cells, k, axis, walls))
        };
        let blocked = !moves(a, b, walls) && !moves(b, a, walls);
        walls.len -= 1;
        blocked
    }

    /// Whether cell `j`, next to a mover along `axis`, is held for good by a mover: one taken
    /// as a wall, or one that can never move across `axis` (along it, the mover beside it is a
    /// wall).
    fn held(&self, cells: &[u64], j: usize, axis: usize, walls: &mut Walls) -> bool {
        let s = self.stride;
        walls.at[..walls.len].contains(&j)
            || (bits::intersects(&self.movers, &cells[j * s..(j + 1) * s])
                && self.blocked(cells, j, 1 - axis, walls))
    }
}

/// The objects of layer `layer` a cell can hold when `p` matches there: the object it needs
/// on that layer, else the one-of set that lies in the layer, else every object of the layer
/// it does not forbid.
fn could_hold(game: &Game, p: &CellPattern, layer: usize) -> bits::Bits {
    let lm = &game.layer_masks[layer];
    let within = |m: &[u64]| -> bits::Bits { m.iter().zip(lm.iter()).map(|(a, b)| a & b).collect() };
    let needed = within(&p.present);
    if !bits::is_zero(&needed) {
        return needed;
    }
    if let Some(any) = p.any_present.iter().find(|a| bits::subset(a, lm) && !bits::is_zero(a)) {
        return any.clone();
    }
    lm.iter().zip(p.missing.iter()).map(|(l, m)| l & !m).collect()
}

/// How each object can be moved (see [`Moves`]), by index: every rule cell that gives its
/// layer a movement while it can be the object there (the object the cell's right-hand side
/// names, else those the left-hand side lets be there), and whether its row needs a cell
/// behind it.
fn moves_of(game: &Game) -> Vec<Moves> {
    let mut moves = vec![Moves::default(); game.objects.len()];
    for rule in game.rules.iter().chain(&game.late_rules).flatten() {
        for row in &rule.rows {
            // Moves by rewriting: along the row, pushed from the cell before; against it, from
            // the cell after.
            for (o, from, to) in rewrite_moves(game, row) {
                let (bit, back) = if to > from {
                    (rule.direction, from.checked_sub(1))
                } else {
                    (opposite(rule.direction), Some(from + 1))
                };
                let Some(d) = DIRS.iter().position(|&(b, _, _)| b == bit) else { continue };
                match back.and_then(|b| row.get(b)) {
                    Some(PatternCell::Cell(q)) => moves[o].pushers[d].push(q.clone()),
                    _ => moves[o].free[d] = true,
                }
            }
            for (k, cell) in row.iter().enumerate() {
                let PatternCell::Cell(p) = cell else { continue };
                let Some(rep) = &p.replacement else { continue };
                let moved = |l: usize| {
                    let named: bits::Bits =
                        rep.objects_set.iter().zip(game.layer_masks[l].iter()).map(|(a, b)| a & b).collect();
                    if bits::is_zero(&named) { could_hold(game, p, l) } else { named }
                };
                for &l in &rep.random_dir_layers {
                    for o in bits::ones(&moved(l)) {
                        moves[o].free = [true; 4];
                    }
                }
                for &(l, _, set) in &rep.movs {
                    if set & (UP | DOWN | LEFT | RIGHT) == 0 {
                        continue;
                    }
                    let objects: Vec<usize> = bits::ones(&moved(l)).collect();
                    for (d, &(bit, _, _)) in DIRS.iter().enumerate() {
                        if set & bit == 0 {
                            continue;
                        }
                        // The cell behind, against the move: it must match for the rule to
                        // move this one. An up or left rule without an ellipsis is compiled as
                        // a down or right one with its rows reversed, so behind is the cell
                        // before along the row's direction, or the cell after against it.
                        let back = if rule.direction == bit {
                            k.checked_sub(1)
                        } else if opposite(rule.direction) == bit {
                            Some(k + 1)
                        } else {
                            None
                        };
                        let behind = match back.and_then(|b| row.get(b)) {
                            Some(PatternCell::Cell(q)) => Some(q),
                            _ => None,
                        };
                        for &o in &objects {
                            match behind {
                                Some(q) => moves[o].pushers[d].push(q.clone()),
                                None => moves[o].free[d] = true,
                            }
                        }
                    }
                }
            }
        }
    }
    moves
}

/// A row's moves by rewriting (`[ > Player | Crate | no Wall ] -> [ | Player | Crate ]`): an
/// object its cell needs, cleared there and set in the next cell (along the row or against
/// it), where it cannot be already, and set in no other cell of the row: (object, from, to).
/// Each cell takes at most one object so.
fn rewrite_moves(game: &Game, row: &[PatternCell]) -> Vec<(usize, usize, usize)> {
    let cell = |k: usize| match row.get(k) {
        Some(PatternCell::Cell(p)) => p.replacement.as_ref().map(|r| (p, r)),
        _ => None,
    };
    // Cell `j` sets `o` where its pattern did not need it.
    let sets = |j: usize, o: usize| {
        cell(j).is_some_and(|(q, r)| bits::get(&r.objects_set, o) && !bits::get(&q.present, o))
    };
    let mut out: Vec<(usize, usize, usize)> = Vec::new();
    for k in 0..row.len() {
        let Some((p, rep)) = cell(k) else { continue };
        for o in bits::ones(&p.present) {
            if !bits::get(&rep.objects_clear, o) || bits::get(&rep.objects_set, o) {
                continue;
            }
            let layer = game.objects[o].layer;
            let targets: Vec<usize> = (0..row.len()).filter(|&j| sets(j, o)).collect();
            let [to] = targets[..] else { continue };
            let free_there = cell(to).is_some_and(|(q, _)| !bits::get(&could_hold(game, q, layer), o));
            if to.abs_diff(k) == 1 && free_there && !out.iter().any(|m| m.2 == to || (m.0 == o && m.1 == k)) {
                out.push((o, k, to));
            }
        }
    }
    out
}

/// The direction opposite `d` (one of [`DIRS`]' bits).
fn opposite(d: u8) -> u8 {
    match d {
        UP => DOWN,
        DOWN => UP,
        LEFT => RIGHT,
        RIGHT => LEFT,
        other => other,
    }
}

/// Whether pattern `p` could ever match at `cell` of `start`, given only its fixed objects
/// (those in `fixed`, which are there in every state): each object it needs is a fixed one
/// there, or one whose layer no fixed object there holds; none it forbids is fixed there.
fn could_match(game: &Game, start: &State, fixed: &[u64], p: &CellPattern, cell: usize) -> bool {
    let s = start.stride.max(1);
    let here = &start.cells[cell * s..(cell + 1) * s];
    let fixed_here: Vec<u64> = here.iter().zip(fixed).map(|(c, f)| c & f).collect();
    let can_hold = |o: usize| {
        if bits::get(fixed, o) {
            bits::get(&fixed_here, o)
        } else {
            !bits::intersects(&game.layer_masks[game.objects[o].layer], &fixed_here)
        }
    };
    bits::ones(&p.present).all(can_hold)
        && !bits::intersects(&p.missing, &fixed_here)
        && p.any_present.iter().all(|any| bits::ones(any).any(can_hold))
}

/// The moves object `object` needs to reach a cell with one of `targets` from each cell of
/// `start`'s board ([`FAR`]: never), by a search backwards from the targets over the moves
/// [`Moves`] allows (see the module docs).
fn distances(
    game: &Game,
    start: &State,
    fixed: &[u64],
    object: usize,
    player: bool,
    moves: &[Moves],
    targets: &[u64],
) -> Vec<u32> {
    let s = start.stride.max(1);
    let is_target = |i: usize| bits::intersects(targets, &start.cells[i * s..(i + 1) * s]);
    distances_to(game, start, fixed, object, player, moves, &is_target)
}

/// [`distances`] to the cells `is_target` says.
fn distances_to(
    game: &Game,
    start: &State,
    fixed: &[u64],
    object: usize,
    player: bool,
    moves: &[Moves],
    is_target: &dyn Fn(usize) -> bool,
) -> Vec<u32> {
    let (w, h) = (start.width, start.height);
    let s = start.stride.max(1);
    let n = w * h;
    let layer = game.objects[object].layer;
    let cell = |i: usize| &start.cells[i * s..(i + 1) * s];
    // A fixed object of the layer holds the cell for good.
    let open: Vec<bool> = (0..n)
        .map(|i| !cell(i).iter().zip(fixed).zip(&game.layer_masks[layer]).any(|((c, f), m)| c & f & m != 0))
        .collect();
    let step = |i: usize, dx: isize, dy: isize| {
        let (x, y) = ((i / h) as isize + dx, (i % h) as isize + dy);
        (x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h).then(|| x as usize * h + y as usize)
    };
    let m = &moves[object];
    // Whether the object can move from `i` in direction `d` (to an open cell).
    let can_move = |i: usize, d: usize| {
        let (_, dx, dy) = DIRS[d];
        if !step(i, dx, dy).is_some_and(|j| open[j]) {
            return false;
        }
        player
            || m.free[d]
            || step(i, -dx, -dy)
                .is_some_and(|b| m.pushers[d].iter().any(|p| could_match(game, start, fixed, p, b)))
    };
    let mut dist = vec![FAR; n];
    let mut queue = std::collections::VecDeque::new();
    for i in 0..n {
        if open[i] && is_target(i) {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(j) = queue.pop_front() {
        for (d, &(_, dx, dy)) in DIRS.iter().enumerate() {
            // `i` moves in direction `d` onto `j`.
            if let Some(i) = step(j, -dx, -dy)
                && dist[i] == FAR
                && open[i]
                && can_move(i, d)
            {
                dist[i] = dist[j] + 1;
                queue.push_back(i);
            }
        }
    }
    dist
}
