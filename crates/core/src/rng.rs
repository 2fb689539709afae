//! The seeded, portable generator every rule set draws from.
//!
//! [`GameRng`] is ChaCha8 (`rand_chacha`, pinned exactly) seeded from a `u64` with
//! `SeedableRng::seed_from_u64`. It lives inside the game state, so cloning a state clones the
//! generator, and it serializes as `(seed, word position)`: a few bytes that restore it exactly.
//!
//! Sampling is done here, not with `rand`'s distributions, so that the value streams depend only
//! on ChaCha8 and on the short, documented routines below:
//! - [`GameRng::below`]`(n)`: Lemire's multiply-and-reject on 32-bit words (unbiased).
//! - [`GameRng::chance`]`(num, den)`: `below(den) < num`.
//!
//! Undo restores the generator by word position ([`GameRng::position`] and
//! [`GameRng::set_position`]); rule sets record the positions before and after each step in
//! their events.
//!
//! `GameRng` (ChaCha8 from a `u64`, serialized as seed + word position; our own
//! `below`/`chance`/`shuffle` so value streams depend only on ChaCha8), `RngSpan`.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::fmt;

/// ChaCha8 seeded from a `u64`; the only source of randomness in the rules.
#[derive(Clone)]
pub struct GameRng {
    seed: u64,
    inner: ChaCha8Rng,
}

impl GameRng {
    /// A generator at the start of the stream for `seed`.
    pub fn new(seed: u64) -> Self {
        GameRng { seed, inner: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The seed this generator was made from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many 32-bit words have been drawn since the start of the stream.
    ///
    /// A game would need to draw for millennia to pass `u64::MAX` words; the position is kept
    /// as a `u64` so that events and logs stay small.
    pub fn position(&self) -> u64 {
        self.inner.get_word_pos() as u64
    }

    /// Moves the generator to word `pos` of its stream (what undo and redo use).
    pub fn set_position(&mut self, pos: u64) {
        self.inner.set_word_pos(u128::from(pos));
    }

    /// The next raw 32-bit word.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.inner.next_u32()
    }

    /// A uniform integer in `0..n`. `n` must be at least 1.
    ///
    /// Lemire's method: take the high word of `x * n` for a random 32-bit `x`, rejecting the few
    /// `x` whose low word falls below `2^32 mod n`. Unbiased, and usually one draw.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "below(0)");
        let n = n.max(1);
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// `true` with probability `num / den` (`den` at least 1; `num ≥ den` is always true).
    #[inline]
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den.max(1)) < num
    }

    /// Fisher–Yates shuffle of `items` (from the last index down, `below(i + 1)` each).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below((i + 1) as u32) as usize;
            items.swap(i, j);
        }
    }
}

impl PartialEq for GameRng {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed && self.inner.get_word_pos() == other.inner.get_word_pos()
    }
}

impl Eq for GameRng {}

impl fmt::Debug for GameRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameRng {{ seed: {}, position: {} }}", self.seed, self.position())
    }
}

impl Serialize for GameRng {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.seed, self.position()).serialize(s)
    }
}

impl<'de> Deserialize<'de> for GameRng {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (seed, pos) = <(u64, u64)>::deserialize(d)?;
        let mut rng = GameRng::new(seed);
        rng.set_position(pos);
        Ok(rng)
    }
}

/// The generator's position before and after one step, carried in events so that undo and redo
/// put it back exactly without drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RngSpan {
    /// Word position before the step drew anything.
    pub before: u64,
    /// Word position after the step's last draw.
    pub after: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = GameRng::new(7);
        let mut b = GameRng::new(7);
        for _ in 0..100 {
            assert_eq!(a.below(10), b.below(10));
        }
        assert_eq!(a, b);
    }

    #[test]
    fn position_restores_stream() {
        let mut a = GameRng::new(3);
        a.below(5);
        let pos = a.position();
        let next: Vec<u32> = (0..10).map(|_| a.next_u32()).collect();
        a.set_position(pos);
        let again: Vec<u32> = (0..10).map(|_| a.next_u32()).collect();
        assert_eq!(next, again);
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut r = GameRng::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = r.below(7);
            seen[v as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn serializes_as_seed_and_position() {
        let mut r = GameRng::new(0);
        r.below(100);
        let enc = bincode::serde::encode_to_vec(&r, bincode::config::standard()).unwrap();
        let (back, _): (GameRng, usize) =
            bincode::serde::decode_from_slice(&enc, bincode::config::standard()).unwrap();
        assert_eq!(back, r);
        assert_eq!(enc, [0, 1], "seed 0, position 1, as varints");
    }
}
