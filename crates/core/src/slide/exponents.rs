//! A byte per cell beside the board, so that the scans of a slide look at eight cells at a time.
//!
//! A tile's value is a power of two, so one byte holds it: its exponent (1 for a 2, 11 for a
//! 2048), 0 for an empty cell. Read as a little-endian `u64`, eight neighbouring cells are one
//! word, and the tests a slide needs become a few word operations (SWAR: SIMD within a
//! register): which cells are empty, which neighbours are equal. Plain integer arithmetic, so
//! every machine computes the same bits; no platform SIMD.
//!
//! [`super::SlideState`] keeps it beside the board, writes both on every change, and rebuilds it
//! when it is deserialized (it is not part of the stored state). Property tests compare every
//! scan with a cell-by-cell reference.

use super::Tile;

/// The low seven bits of every byte.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The high bit of every byte.
const HIGH: u64 = 0x8080_8080_8080_8080;
/// One in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The byte of a [`super::MAX_TILE`] tile in every byte: two of them are equal but do not merge.
const NO_MERGE: u64 = 30 * ONES;
/// Zero bytes read past the board, so that a word can start at any cell.
const PAD: usize = 8;

/// A byte per cell: the exponent of the cell's tile, 0 for an empty cell; see the module docs.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Exponents {
    /// The cells, row by row, then [`PAD`] zero bytes.
    bytes: Vec<u8>,
    /// How many cells are empty (kept as cells are written).
    empty: u32,
}

impl std::fmt::Debug for Exponents {
    /// Short: the same facts are in the board beside it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Exponents({} cells)", self.len())
    }
}

/// The byte of a tile worth `value` (a power of two up to 2^31, or 0 for none).
#[inline]
fn exponent(value: u32) -> u8 {
    (value.trailing_zeros() & 31) as u8
}

/// The high bit of every byte of `x` that is not zero. Every byte must be below 0x80 (exponents
/// are at most 31, and so is the XOR of two): adding 0x7f to such a byte sets its high bit
/// unless it is zero, and never carries into the next byte.
#[inline]
fn nonzero_bytes(x: u64) -> u64 {
    (x + LOW7) & HIGH
}

/// The high bit of every byte of `x` that is zero (bytes below 0x80, as for [`nonzero_bytes`]).
#[inline]
fn zero_bytes(x: u64) -> u64 {
    !(x + LOW7) & HIGH
}

/// How many high bits `flags` (high bits only) has: each byte's bit moved to its low end, then
/// all bytes summed into the top one by a multiply.
#[inline]
fn count(flags: u64) -> u32 {
    ((flags >> 7).wrapping_mul(ONES) >> 56) as u32
}

/// The byte-level flags (high bits only) as eight bits, bit `j` for byte `j`: a multiply moves
/// byte `j`'s bit to bit `56 + j`, with no two partial products colliding.
#[inline]
fn gather(flags: u64) -> u8 {
    ((flags >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// `flags` without the bytes from `valid` on (`valid` < 8 keeps that many low bytes).
#[inline]
fn keep_bytes(flags: u64, valid: usize) -> u64 {
    if valid >= 8 { flags } else { flags & ((1u64 << (8 * valid)) - 1) }
}

/// The first eight bytes of `bytes` (at least eight, else zero) as a word, the first byte low.
#[inline]
fn word_of(bytes: &[u8]) -> u64 {
    bytes.first_chunk::<8>().map_or(0, |b| u64::from_le_bytes(*b))
}

impl Exponents {
    /// The bytes of `cells`.
    pub(super) fn of(cells: &[Tile]) -> Exponents {
        let mut bytes: Vec<u8> = cells.iter().map(|t| exponent(t.value)).collect();
        let empty = bytes.iter().filter(|&&b| b == 0).count() as u32;
        bytes.extend([0; PAD]);
        Exponents { bytes, empty }
    }

    /// The number of cells.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.bytes.len() - PAD
    }

    /// Records that cell `i` now holds a tile worth `value` (0 for none).
    #[inline]
    pub(super) fn set(&mut self, i: usize, value: u32) {
        let (was, now) = (self.bytes[i], exponent(value));
        self.bytes[i] = now;
        self.empty = self.empty + u32::from(was != 0) - u32::from(now != 0);
    }

    /// Records that cell `i` is empty.
    #[inline]
    pub(super) fn clear(&mut self, i: usize) {
        self.empty += u32::from(self.bytes[i] != 0);
        self.bytes[i] = 0;
    }

    /// The byte of cell `i`.
    #[inline]
    pub(super) fn get(&self, i: usize) -> u8 {
        self.bytes[i]
    }

    /// Cells `i..i + 8` as a word, cell `i` in the low byte; zero past the board.
    #[inline]
    fn word(&self, i: usize) -> u64 {
        self.bytes.get(i..).map_or(0, word_of)
    }

    /// How many cells are empty.
    #[inline]
    pub(super) fn empty_count(&self) -> u32 {
        self.empty
    }

    /// The index of the `nth` (from 0) empty cell, row by row, if there are more than `nth`.
    pub(super) fn nth_empty(&self, mut nth: u32) -> Option<usize> {
        let len = self.len();
        for i in (0..len).step_by(8) {
            let empty = keep_bytes(zero_bytes(self.word(i)), len - i);
            let n = count(empty);
            if nth < n {
                return Some(
                    i + usize::from(super::SELECT_IN_BYTE[usize::from(gather(empty))][nth as usize]),
                );
            }
            nth -= n;
        }
        None
    }

    /// Calls `f(p)` for every cell `p` of `0..len - off` whose tile would slide onto or into its
    /// neighbour `p + off`, or whose neighbour `p + off` would slide onto or into it: the
    /// neighbour nearer the edge the tiles move toward (`p + off` when `toward_second`) is empty
    /// or holds an equal tile, and the other cell holds a tile. Such a pair exists in a line
    /// exactly when the line changes.
    #[inline]
    pub(super) fn for_each_moving_pair(&self, off: usize, toward_second: bool, f: impl FnMut(usize)) {
        if toward_second { self.moving_pairs::<true>(off, f) } else { self.moving_pairs::<false>(off, f) }
    }

    /// [`Exponents::for_each_moving_pair`] with the direction fixed at compile time.
    #[inline]
    fn moving_pairs<const TOWARD_SECOND: bool>(&self, off: usize, mut f: impl FnMut(usize)) {
        let pairs = self.len().saturating_sub(off);
        // Words of cells `i..` and `i + off..` for i = 0, 8, 16, ...: the last words run into the
        // padding, and their bytes from `pairs` on are dropped.
        let words = pairs.div_ceil(8);
        let firsts = self.bytes[..8 * words].chunks_exact(8);
        let seconds = self.bytes.get(off..).unwrap_or_default().chunks_exact(8);
        for (w, (x, y)) in firsts.zip(seconds).enumerate() {
            let (x, y) = (word_of(x), word_of(y));
            let (toward, farther) = if TOWARD_SECOND { (y, x) } else { (x, y) };
            // The farther cell holds a tile, and the nearer one is empty or equal (and not the
            // largest tile, which does not merge).
            let equal = zero_bytes(x ^ y) & nonzero_bytes(x ^ NO_MERGE);
            let mut moving = nonzero_bytes(farther) & (zero_bytes(toward) | equal);
            if w + 1 == words {
                moving = keep_bytes(moving, pairs - 8 * w);
            }
            while moving != 0 {
                f(8 * w + moving.trailing_zeros() as usize / 8);
                moving &= moving - 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id::Id;
    use proptest::prelude::*;

    fn cells(exps: &[u8]) -> Vec<Tile> {
        exps.iter()
            .zip(1..)
            .map(
                |(&e, id)| {
                    if e == 0 { Tile { id: Id(0), value: 0 } } else { Tile { id: Id(id), value: 1 << e } }
                },
            )
            .collect()
    }

    #[test]
    fn word_tricks_agree_with_bytes() {
        let x = u64::from_le_bytes([0, 3, 0, 31, 1, 0, 0, 17]);
        assert_eq!(gather(zero_bytes(x)), 0b0110_0101);
        assert_eq!(count(zero_bytes(x)), 4);
        assert_eq!(keep_bytes(zero_bytes(x), 3), 0x80_0080);
        assert_eq!(gather(zero_bytes(0)), 0xff);
        assert_eq!(count(zero_bytes(0)), 8);
        assert_eq!(count(zero_bytes(u64::from_le_bytes([31; 8]))), 0);
    }

    proptest! {
        /// The scans give what a cell-by-cell walk gives, at every length (words that end
        /// inside the board and past it) and offset.
        #[test]
        fn scans_agree_with_a_walk(
            exps in prop::collection::vec(prop_oneof![Just(0u8), Just(30u8), 1u8..4, 1u8..32], 0..150),
            off in 1usize..20,
            toward_second: bool,
        ) {
            let e = Exponents::of(&cells(&exps));
            prop_assert_eq!(e.len(), exps.len());
            let empty: Vec<usize> = (0..exps.len()).filter(|&i| exps[i] == 0).collect();
            prop_assert_eq!(e.empty_count() as usize, empty.len());
            for (nth, &i) in empty.iter().enumerate() {
                prop_assert_eq!(e.nth_empty(nth as u32), Some(i));
            }
            prop_assert_eq!(e.nth_empty(empty.len() as u32), None);

            let mut found = Vec::new();
            e.for_each_moving_pair(off, toward_second, |p| found.push(p));
            let expected: Vec<usize> = (0..exps.len().saturating_sub(off))
                .filter(|&p| {
                    let (toward, farther) =
                        if toward_second { (exps[p + off], exps[p]) } else { (exps[p], exps[p + off]) };
                    farther != 0 && (toward == 0 || (toward == farther && farther != 30))
                })
                .collect();
            prop_assert_eq!(found, expected);
        }
    }
}
