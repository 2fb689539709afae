//! Bit sets over object ids: a cell's objects are `stride` 64-bit words.

/// A set of object ids as 64-bit words (all sets of one game have the same length): up to 128
/// objects inline, without an allocation.
pub type Bits = smallvec::SmallVec<[u64; 2]>;

/// An empty set of `stride` words.
pub fn empty(stride: usize) -> Bits {
    smallvec::smallvec![0; stride]
}

/// Sets bit `i`.
pub fn set(bits: &mut [u64], i: usize) {
    if let Some(w) = bits.get_mut(i / 64) {
        *w |= 1u64 << (i % 64);
    }
}

/// Whether bit `i` is set.
pub fn get(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w & (1u64 << (i % 64)) != 0)
}

/// `a |= b`.
pub fn or_into(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= *y;
    }
}

/// Whether `a` and `b` share a bit.
#[inline]
pub fn intersects(a: &[u64], b: &[u64]) -> bool {
    // (one or two words, as nearly every game's cells: no loop; matching asks this per row)
    match (a, b) {
        ([x], [y, ..]) => x & y != 0,
        ([x0, x1], [y0, y1, ..]) => (x0 & y0) | (x1 & y1) != 0,
        _ => a.iter().zip(b).any(|(x, y)| x & y != 0),
    }
}

/// Whether every bit of `a` is in `b`.
#[inline]
pub fn subset(a: &[u64], b: &[u64]) -> bool {
    match (a, b) {
        ([x], [y, ..]) => x & !y == 0,
        ([x0, x1], [y0, y1, ..]) => (x0 & !y0) | (x1 & !y1) == 0,
        _ => a.iter().zip(b).all(|(x, y)| x & !y == 0),
    }
}

/// Whether no bit is set.
pub fn is_zero(a: &[u64]) -> bool {
    a.iter().all(|x| *x == 0)
}

/// The set bits, ascending.
pub fn ones(a: &[u64]) -> impl Iterator<Item = usize> + '_ {
    a.iter().enumerate().flat_map(|(wi, w)| {
        let mut w = *w;
        std::iter::from_fn(move || {
            if w == 0 {
                None
            } else {
                let t = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + t)
            }
        })
    })
}
