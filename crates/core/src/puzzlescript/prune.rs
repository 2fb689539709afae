//! What the rules can never do, read from the compiled game: the solver's proofs that a state
//! cannot be won, whatever the steps.
//!
//! Each object is looked at once: whether some rule's right-hand side can create it (it sets
//! it in a cell whose pattern did not need it, or may pick it at random), destroy it (it clears
//! it without setting it again, or sets another object of its layer), or move it (the player's objects, and every object of a layer some rule gives a
//! movement). These are over-estimates (a rule that never fires still counts), so what follows
//! from them is sound:
//! - a game with no win condition and no rule that says `win` is never won;
//! - a win condition whose objects are all fixed (never created, destroyed or moved) holds now
//!   or never;
//! - `some X` (or `some X on Y`) with no X left, when X is never created, never holds again;
//! - `all X on Y` with an X and no Y left, when X is never destroyed and Y never created,
//!   never holds again.
//!
//! A rule that says `win` can win whatever the win conditions, so then nothing is pruned; one
//! that says `restart` puts objects back, so then only the fixed conditions are checked.

use super::engine::compile::{PatternCell, WinCondition};
use super::engine::{Game, State, bits};

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
}

impl Pruning {
    /// Reads what the rules of `game` can do.
    pub(crate) fn of(game: &Game) -> Pruning {
        let all_rules = game.rules.iter().chain(&game.late_rules).flatten();
        if all_rules.clone().any(|r| r.commands.iter().any(|c| c.0 == "win")) {
            return Pruning::default();
        }
        if game.win_conditions.is_empty() {
            return Pruning { never: true, ..Pruning::default() };
        }
        let stride = game.stride;
        let (mut created, mut destroyed) = (bits::empty(stride), bits::empty(stride));
        let mut moving_layers = vec![false; game.layer_count];
        for id in bits::ones(&game.player_mask) {
            if let Some(o) = game.objects.get(id) {
                moving_layers[o.layer] = true;
            }
        }
        let cells = all_rules.flat_map(|r| r.rows.iter().flatten());
        for (pattern, rep) in cells.filter_map(|c| match c {
            PatternCell::Cell(p) => p.replacement.as_ref().map(|r| (p, r)),
            PatternCell::Ellipsis => None,
        }) {
            // set where the pattern did not need it: new; cleared and not set again: gone
            let new = rep.objects_set.iter().zip(&pattern.present).map(|(s, p)| s & !p);
            let gone = rep.objects_clear.iter().zip(&rep.objects_set).map(|(c, s)| c & !s);
            let new: Vec<u64> = new.collect();
            for (d, g) in destroyed.iter_mut().zip(gone) {
                *d |= g;
            }
            for id in bits::ones(&new).chain(rep.random_entities.iter().copied()) {
                bits::set(&mut created, id);
                // the other objects of its layer in that cell go
                if let Some(o) = game.objects.get(id) {
                    let mut mates = game.layer_masks[o.layer].clone();
                    mates[id / 64] &= !(1u64 << (id % 64));
                    bits::or_into(&mut destroyed, &mates);
                }
            }
            for &(layer, _, set) in &rep.movs {
                if set != 0 {
                    moving_layers[layer] = true;
                }
            }
            for &layer in &rep.random_dir_layers {
                moving_layers[layer] = true;
            }
        }
        let mut moved = bits::empty(stride);
        for (layer, _) in moving_layers.iter().enumerate().filter(|(_, m)| **m) {
            bits::or_into(&mut moved, &game.layer_masks[layer]);
        }
        let none_of = |set: &[u64], mask: &[u64]| !bits::intersects(set, mask);
        // A `restart` command puts back the objects of the restart target (the start or a
        // checkpoint): only conditions of fixed objects can be relied on then.
        let restarts = game.rules.iter().chain(&game.late_rules).flatten().any(|r| r.commands.iter().any(|c| c.0 == "restart"));
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
        }
        p
    }

    /// Whether no sequence of steps can win from the start `state` (the fixed conditions are
    /// checked here, once).
    pub(crate) fn start_is_dead(&self, game: &Game, state: &State) -> bool {
        self.never || self.fixed.iter().any(|&k| !holds(&game.win_conditions[k], state)) || self.is_dead(game, state)
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
                cells().any(|c| bits::intersects(&wc.mask1, c)) && !cells().any(|c| bits::intersects(&wc.mask2, c))
            })
    }

    /// Whether any check applies to a state after the start (the search can skip the scan).
    pub(crate) fn checks_states(&self) -> bool {
        !self.some_gone.is_empty() || !self.all_without_y.is_empty()
    }
}

/// Whether one win condition holds on `state`.
fn holds(wc: &WinCondition, state: &State) -> bool {
    let has = |mask: &[u64], all: bool, c: &[u64]| if all { bits::subset(mask, c) } else { bits::intersects(mask, c) };
    let mut cells = state.cells.chunks(state.stride.max(1));
    let both = |c: &[u64]| has(&wc.mask1, wc.aggregate1, c) && has(&wc.mask2, wc.aggregate2, c);
    match wc.quantifier {
        -1 => !cells.any(both),
        0 => cells.any(both),
        _ => !cells.any(|c| has(&wc.mask1, wc.aggregate1, c) && !has(&wc.mask2, wc.aggregate2, c)),
    }
}
