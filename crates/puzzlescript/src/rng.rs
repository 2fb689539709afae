//! The reference's seeded generator: RC4 keyed by the seed string, and `uniform` built from seven
//! output bytes with IEEE double arithmetic, exactly as `rng.js` computes it.

use serde::{Deserialize, Serialize};

/// RC4 state plus the helpers the engine draws from (`uniform`).
#[derive(PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "RawRng")]
pub struct Rng {
    /// The permutation: always 256 bytes (`new` makes it so, and reading refuses another length).
    s: Vec<u8>,
    i: u8,
    j: u8,
}

/// [`Rng`] as read, before its permutation's length is checked.
#[derive(Deserialize)]
struct RawRng {
    s: Vec<u8>,
    i: u8,
    j: u8,
}

impl TryFrom<RawRng> for Rng {
    type Error = String;

    fn try_from(raw: RawRng) -> Result<Rng, String> {
        if raw.s.len() != 256 {
            return Err(format!("a generator's permutation has {} bytes, not 256", raw.s.len()));
        }
        Ok(Rng { s: raw.s, i: raw.i, j: raw.j })
    }
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
        let (mut i, mut j) = (self.i, self.j);
        let b = Self::byte(Self::table(&mut self.s[..]), &mut i, &mut j);
        (self.i, self.j) = (i, j);
        b
    }

    /// The permutation as an array, indexed by a byte with no bounds check.
    fn table(s: &mut [u8]) -> &mut [u8; 256] {
        <&mut [u8; 256]>::try_from(s).unwrap_or_else(|_| unreachable!("a permutation has 256 bytes"))
    }

    /// RC4's output step on `s` with counters `i` and `j`.
    #[inline(always)]
    fn byte(s: &mut [u8; 256], i: &mut u8, j: &mut u8) -> u8 {
        *i = i.wrapping_add(1);
        *j = j.wrapping_add(s[usize::from(*i)]);
        s.swap(usize::from(*i), usize::from(*j));
        let k = s[usize::from(*i)].wrapping_add(s[usize::from(*j)]);
        s[usize::from(k)]
    }

    /// A number in `[0, 1]` from seven bytes, as the reference computes it (double arithmetic:
    /// `output = output * 256 + byte`, seven times). The first six steps stay below 2^48, exact
    /// in a double as in an integer; the last one's sum is rounded to the nearest double, as the
    /// integer's conversion rounds it: the same number.
    pub fn uniform(&mut self) -> f64 {
        let (mut i, mut j) = (self.i, self.j);
        let s = Self::table(&mut self.s[..]);
        let mut output = 0u64;
        for _ in 0..7 {
            output = output << 8 | u64::from(Self::byte(s, &mut i, &mut j));
        }
        (self.i, self.j) = (i, j);
        output as f64 / (2f64.powi(56) - 1.0)
    }

    /// `Math.floor(uniform() * n)`, clamped below `n` (n > 0). (The product is not negative:
    /// truncation is the floor.)
    pub fn below(&mut self, n: usize) -> usize {
        let v = (self.uniform() * n as f64) as usize;
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

    /// The reference's arithmetic, step by step in doubles.
    fn uniform_in_doubles(r: &mut Rng) -> f64 {
        let mut output = 0.0f64;
        for _ in 0..7 {
            output *= 256.0;
            output += f64::from(r.next_byte());
        }
        output / (2f64.powi(56) - 1.0)
    }

    #[test]
    fn uniform_is_the_references_double_arithmetic_bit_for_bit() {
        for seed in ["", "Example", "1234", "a longer seed with spaces"] {
            let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
            for _ in 0..20_000 {
                assert_eq!(a.uniform().to_bits(), uniform_in_doubles(&mut b).to_bits(), "seed {seed:?}");
            }
        }
    }

    proptest::proptest! {
        /// Every 56-bit number, rounded as the last step's sum is.
        #[test]
        fn a_56_bit_integer_converts_as_its_last_step_rounds(x in 0u64..1 << 48, byte in 0u64..256) {
            let stepped = (x as f64) * 256.0 + byte as f64;
            proptest::prop_assert_eq!(((x << 8) | byte) as f64, stepped);
        }
    }

    #[test]
    fn a_generator_read_back_draws_the_same_and_a_short_permutation_is_refused() {
        let mut r = Rng::new("seed");
        r.uniform();
        let json = serde_json::to_string(&r).expect("writes");
        let mut back: Rng = serde_json::from_str(&json).expect("reads");
        assert_eq!((back.uniform(), back.below(7)), (r.uniform(), r.below(7)));
        let error = serde_json::from_str::<Rng>(r#"{"s":[0,1,2],"i":0,"j":0}"#).expect_err("refused");
        assert!(error.to_string().contains("3 bytes, not 256"), "{error}");
    }
}
