//! PuzzleScript's seeded generator (`rng.js`): RC4 keyed by a string, and `uniform` built from
//! seven output bytes with double arithmetic, exactly as the reference computes it. The same
//! generator as the `puzzlescript` engine's (`tessera-core`); kept here so the synthesiser
//! depends on nothing.

/// RC4 state, keyed like `new RNG(key)`.
#[derive(Clone, Debug)]
pub struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    /// A generator keyed like `new RNG(key)`: each UTF-16 code unit of `key` as its big-endian
    /// bytes (one byte below 256) mixed into the key schedule. An empty key leaves the identity
    /// permutation.
    pub fn new(key: &str) -> Rc4 {
        let mut s = [0u8; 256];
        for (k, v) in s.iter_mut().enumerate() {
            *v = k as u8;
        }
        let mut input = Vec::new();
        for unit in key.encode_utf16() {
            if unit > 0xff {
                input.push((unit >> 8) as u8);
            }
            input.push((unit & 0xff) as u8);
        }
        if !input.is_empty() {
            let mut j = 0u8;
            for i in 0..256usize {
                j = j.wrapping_add(s[i]).wrapping_add(input[i % input.len()]);
                s.swap(i, usize::from(j));
            }
        }
        Rc4 { s, i: 0, j: 0 }
    }

    /// The next output byte.
    pub fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[usize::from(self.i)]);
        self.s.swap(usize::from(self.i), usize::from(self.j));
        let k = self.s[usize::from(self.i)].wrapping_add(self.s[usize::from(self.j)]);
        self.s[usize::from(k)]
    }

    /// A number in `[0, 1]` from seven bytes, as `RNG.prototype.uniform` computes it (the sum
    /// passes 2^53, so it rounds as the reference's doubles do).
    pub fn uniform(&mut self) -> f64 {
        let mut output = 0.0f64;
        for _ in 0..7 {
            output *= 256.0;
            output += f64::from(self.next_byte());
        }
        output / (2f64.powi(56) - 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_doc_example() {
        // rng.js's own example: new RNG('Example'); random(40, 50) => 42; uniform() => 0.797...
        let mut r = Rc4::new("Example");
        assert_eq!(40 + (r.uniform() * 10.0).floor() as i32, 42);
        assert_eq!(r.uniform(), 0.7972798995050903);
    }
}
