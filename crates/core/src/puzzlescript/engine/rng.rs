//! The reference's seeded generator: RC4 keyed by the seed string, and `uniform` built from seven
//! output bytes with IEEE double arithmetic, exactly as `rng.js` computes it.

use serde::{Deserialize, Serialize};

/// RC4 state plus the helpers the engine draws from (`uniform`).
#[derive(PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Rng {
    s: Vec<u8>,
    i: u8,
    j: u8,
}

impl Clone for Rng {
    fn clone(&self) -> Rng {
        Rng { s: self.s.clone(), i: self.i, j: self.j }
    }

    fn clone_from(&mut self, source: &Rng) {
        self.s.clone_from(&source.s);
        self.i = source.i;
        self.j = source.j;
    }
}

impl Rng {
    /// A generator seeded like `new RNG(seed)`: the seed's UTF-16 code units, each as its
    /// big-endian bytes (one byte when below 256), mixed into the RC4 key schedule. An empty seed
    /// leaves the identity permutation.
    pub fn new(seed: &str) -> Rng {
        let mut s: Vec<u8> = (0..=255u8).collect();
        let mut input = Vec::new();
        for unit in seed.encode_utf16() {
            let mut bytes = Vec::new();
            let mut c = unit as u32;
            loop {
                bytes.push((c & 0xff) as u8);
                c >>= 8;
                if c == 0 {
                    break;
                }
            }
            bytes.reverse();
            input.extend(bytes);
        }
        if !input.is_empty() {
            let mut j: u32 = 0;
            for i in 0..256usize {
                j = (j + u32::from(s[i]) + u32::from(input[i % input.len()])) % 256;
                s.swap(i, j as usize);
            }
        }
        Rng { s, i: 0, j: 0 }
    }

    /// The next RC4 output byte.
    pub fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        self.s.swap(self.i as usize, self.j as usize);
        let k = self.s[self.i as usize].wrapping_add(self.s[self.j as usize]);
        self.s[k as usize]
    }

    /// A number in `[0, 1]` from seven bytes, as the reference computes it (double arithmetic).
    pub fn uniform(&mut self) -> f64 {
        let mut output = 0.0f64;
        for _ in 0..7 {
            output *= 256.0;
            output += f64::from(self.next_byte());
        }
        output / (2f64.powi(56) - 1.0)
    }

    /// `Math.floor(uniform() * n)`, clamped below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        let v = (self.uniform() * n as f64).floor() as usize;
        v.min(n.saturating_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_from_the_reference() {
        // rng.js's own doc example: new RNG('Example').uniform() after random(40, 50).
        let mut r = Rng::new("Example");
        let first = 40 + (r.uniform() * 10.0).floor() as i32;
        assert_eq!(first, 42);
        assert_eq!(r.uniform(), 0.7972798995050903);
    }
}
