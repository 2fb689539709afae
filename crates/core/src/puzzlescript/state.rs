//! The state of a PuzzleScript game: the engine's state (the board's objects, the generator,
//! the checkpoint), whether the level is won, the incremental hash, and what views need of the
//! game (object names and the legend's glyphs).

pub use super::meta::Meta;
use super::{bridge, engine};
use crate::hash::keys::{field_key, kind, mix64};
use crate::hash::state_hash;
use crate::{Pos, Size};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A PuzzleScript game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleScriptState {
    #[serde(with = "shared")]
    meta: Arc<Meta>,
    inner: engine::State,
    won: bool,
    hash: u64,
}

/// The hash key of cell `index` holding `words` (0 for an empty cell).
pub(super) fn cell_hash(index: usize, words: &[u64]) -> u64 {
    if words.iter().all(|&w| w == 0) {
        return 0;
    }
    let mut h = mix64(index as u64 ^ 0x5053_0000_0000_0000);
    for &w in words {
        h = mix64(h ^ w);
    }
    h
}

/// The hash key of the rest of the state.
pub(super) fn aux_hash(aux: &[u8]) -> u64 {
    field_key(kind::RNG, state_hash(aux))
}

/// The hash key of the won flag.
pub(super) fn won_hash(won: bool) -> u64 {
    if won { field_key(kind::WON, 1) } else { 0 }
}

impl PuzzleScriptState {
    /// A state around the engine's `inner`, its hash computed.
    pub(super) fn new(meta: Arc<Meta>, inner: engine::State, won: bool) -> Self {
        let mut s = PuzzleScriptState { meta, inner, won, hash: 0 };
        s.hash = s.recompute_hash();
        s
    }

    /// What views need of the game.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The shared view data.
    pub(super) fn meta_arc(&self) -> Arc<Meta> {
        Arc::clone(&self.meta)
    }

    /// The engine's state.
    pub fn engine(&self) -> &engine::State {
        &self.inner
    }

    /// Whether the level is won.
    pub fn is_won(&self) -> bool {
        self.won
    }

    /// Sets the won flag, keeping the hash.
    pub(super) fn set_won(&mut self, won: bool) {
        self.hash ^= won_hash(self.won) ^ won_hash(won);
        self.won = won;
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.meta.size
    }

    /// The objects of the cell at `p` (bit words).
    pub fn cell(&self, p: Pos) -> Vec<u64> {
        bridge::cell(&self.inner, &self.meta, self.meta.size.index(p)).to_vec()
    }

    /// The objects of cell `index` (row-major), by index.
    pub fn objects_at(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        bits(bridge::cell(&self.inner, &self.meta, index))
    }

    /// The objects of cell `index` (row-major), as bit words.
    pub(super) fn engine_cell(&self, index: usize) -> &[u64] {
        bridge::cell(&self.inner, &self.meta, index)
    }

    /// Replaces cell `index`'s objects, keeping the hash.
    pub(super) fn set_cell(&mut self, index: usize, words: &[u64]) {
        let old = cell_hash(index, bridge::cell(&self.inner, &self.meta, index));
        bridge::set_cell(&mut self.inner, &self.meta, index, words);
        self.hash ^= old ^ cell_hash(index, words);
    }

    /// The rest of the state, encoded.
    pub(super) fn aux(&self) -> Vec<u8> {
        bridge::aux(&self.inner)
    }

    /// Replaces the rest of the state, keeping the hash; an encoding that is not one is an error
    /// and changes nothing.
    pub(super) fn set_aux(&mut self, aux: &[u8]) -> Result<(), String> {
        let old = aux_hash(&self.aux());
        bridge::set_aux(&mut self.inner, aux)?;
        self.hash ^= old ^ aux_hash(aux);
        Ok(())
    }

    /// The incremental hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from the whole state.
    pub fn recompute_hash(&self) -> u64 {
        let area = self.meta.size.area();
        let cells = (0..area).fold(0, |h, i| h ^ cell_hash(i, bridge::cell(&self.inner, &self.meta, i)));
        cells ^ aux_hash(&self.aux()) ^ won_hash(self.won)
    }

    /// The board as rows of glyphs from the game's legend (`?` for a cell no glyph stands for
    /// exactly).
    pub fn rows(&self) -> Vec<String> {
        let size = self.meta.size;
        (0..size.height)
            .map(|y| {
                (0..size.width)
                    .map(|x| {
                        let cell = bridge::cell(&self.inner, &self.meta, size.index(Pos::new(x, y)));
                        self.glyph(cell)
                    })
                    .collect()
            })
            .collect()
    }

    /// The glyph that stands for exactly `cell`'s objects, or `?`.
    fn glyph(&self, cell: &[u64]) -> char {
        self.meta.glyphs.iter().find(|(_, objs)| objs.as_slice() == cell).map_or('?', |(c, _)| *c)
    }

    /// The board's cells as lists of object names, rows from the top.
    pub fn names(&self) -> Vec<Vec<String>> {
        let size = self.meta.size;
        (0..size.height)
            .map(|y| {
                (0..size.width)
                    .map(|x| {
                        let i = size.index(Pos::new(x, y));
                        let names: Vec<&str> = self
                            .objects_at(i)
                            .filter_map(|o| self.meta.names.get(o).map(String::as_str))
                            .collect();
                        names.join(" ")
                    })
                    .collect()
            })
            .collect()
    }

    /// The board as text: the glyph rows (the status is the caller's to print).
    pub fn render(&self) -> String {
        let mut out = self.rows().join("\n");
        out.push('\n');
        out
    }

    /// Reseeds the game's generator from `seed` (bots' look-ahead), keeping the hash.
    pub(crate) fn reseed(&mut self, seed: &str) {
        let old = aux_hash(&self.aux());
        bridge::reseed(&mut self.inner, seed);
        self.hash ^= old ^ aux_hash(&self.aux());
    }
}

/// Serde for the shared view data (serde's `rc` feature would change serde for the workspace).
mod shared {
    use super::Meta;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<S: Serializer>(meta: &Arc<Meta>, s: S) -> Result<S::Ok, S::Error> {
        Meta::serialize(meta, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Meta>, D::Error> {
        Meta::deserialize(d).map(Arc::new)
    }
}

/// The indices of the set bits of `words`, ascending.
pub(super) fn bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words
        .iter()
        .enumerate()
        .flat_map(|(w, &word)| (0..64).filter(move |b| word & (1u64 << b) != 0).map(move |b| w * 64 + b))
}
