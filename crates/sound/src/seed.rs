//! A sound's seed: the number a game's SOUNDS section gives, and the generator it picks.

use std::fmt;
use std::str::FromStr;

/// A bad seed: why, and the text.
///
/// The messages show a long text cut short ([`shorten`]): a 100,000-digit seed is not echoed
/// whole (issue 66.12).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// The text is not a seed: PuzzleScript's seeds are decimal digits and nothing else.
    #[error("\"{}\" is not a sound seed (a seed is a number written in digits, like 12345)", shorten(.text))]
    NotDigits {
        /// The text given.
        text: String,
    },
    /// So large that the number is infinite as a double: the reference cannot pick a generator
    /// for it (it throws). The largest seed is the largest double, about 1.8 × 10^308 (309
    /// digits); a 309-digit seed below it is a seed.
    #[error(
        "the sound seed {} is too large: a seed must be below about 1.8 × 10^308 (309 digits, \
         JavaScript's largest number)",
        shorten(.text)
    )]
    TooLarge {
        /// The text given.
        text: String,
    },
}

/// The most characters of a seed's text a message shows whole.
const SHOWN: usize = 40;

/// `text` as a message shows it: whole up to 40 characters, else its first 20 and how many
/// there are (`12345678901234567890… (100000 characters)`).
pub fn shorten(text: &str) -> String {
    let n = text.chars().count();
    if n <= SHOWN {
        return text.to_string();
    }
    let head: String = text.chars().take(SHOWN / 2).collect();
    format!("{head}… ({n} characters)")
}

/// The ten sound generators, in the reference's order (`generators` in `sfxr.js`): a seed picks
/// `seed % 100 % 10`; PuzzleScript's editor has one button per kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `pickupCoin`: a bright blip with an optional arpeggio.
    PickupCoin,
    /// `laserShoot`: a falling zap.
    LaserShoot,
    /// `explosion`: a noisy burst.
    Explosion,
    /// `powerUp`: a rising tone.
    PowerUp,
    /// `hitHurt`: a short falling hit.
    HitHurt,
    /// `jump`: a rising square.
    Jump,
    /// `blipSelect`: a short blip.
    BlipSelect,
    /// `pushSound`: a low scrape, mostly noise.
    PushSound,
    /// `random`: every parameter drawn at random.
    Random,
    /// `birdSound`: chirps.
    BirdSound,
}

impl Kind {
    /// Every kind, in the reference's order (a kind's index is its generator's).
    pub const ALL: [Kind; 10] = [
        Kind::PickupCoin,
        Kind::LaserShoot,
        Kind::Explosion,
        Kind::PowerUp,
        Kind::HitHurt,
        Kind::Jump,
        Kind::BlipSelect,
        Kind::PushSound,
        Kind::Random,
        Kind::BirdSound,
    ];

    /// The kind's index, 0 to 9: the last digit of its seeds.
    pub fn index(self) -> u32 {
        self as u32
    }

    /// The reference's name for it (`generatorNames`), as its console prints beside a new seed.
    pub fn name(self) -> &'static str {
        match self {
            Kind::PickupCoin => "pickupCoin",
            Kind::LaserShoot => "laserShoot",
            Kind::Explosion => "explosion",
            Kind::PowerUp => "powerUp",
            Kind::HitHurt => "hitHurt",
            Kind::Jump => "jump",
            Kind::BlipSelect => "blipSelect",
            Kind::PushSound => "pushSound",
            Kind::Random => "random",
            Kind::BirdSound => "birdSound",
        }
    }

    /// A short label for a button.
    pub fn label(self) -> &'static str {
        match self {
            Kind::PickupCoin => "Coin",
            Kind::LaserShoot => "Laser",
            Kind::Explosion => "Explosion",
            Kind::PowerUp => "Power-up",
            Kind::HitHurt => "Hit",
            Kind::Jump => "Jump",
            Kind::BlipSelect => "Blip",
            Kind::PushSound => "Push",
            Kind::Random => "Random",
            Kind::BirdSound => "Bird",
        }
    }
}

/// A sound seed: decimal digits (leading zeros allowed), read as the reference reads it, a
/// JavaScript number (a double). Build one with [`Seed::parse`] (or `str::parse`) or
/// [`Seed::of_kind`]; every `Seed` is finite, so it always names a sound.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seed {
    /// The digits, without leading zeros ("0" for zero).
    text: String,
}

impl Seed {
    /// Reads a seed as a game's SOUNDS section writes it.
    pub fn parse(text: &str) -> Result<Seed, SeedError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SeedError::NotDigits { text: text.to_string() });
        }
        let digits = text.trim_start_matches('0');
        let seed = Seed { text: if digits.is_empty() { "0".to_string() } else { digits.to_string() } };
        if !seed.value().is_finite() {
            return Err(SeedError::TooLarge { text: text.to_string() });
        }
        Ok(seed)
    }

    /// A new seed of `kind` as PuzzleScript's editor makes one (`newSound` in `soundbar.js`):
    /// `kind + 100 * (draw | 1)`, where the editor's `draw` is `Math.random() * 1000000`
    /// truncated; `draw` is taken modulo 1,000,000 here.
    pub fn of_kind(kind: Kind, draw: u32) -> Seed {
        let value = u64::from(kind.index()) + 100 * u64::from((draw % 1_000_000) | 1);
        Seed { text: value.to_string() }
    }

    /// The seed's digits (no leading zeros).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The seed as the reference's number.
    pub fn value(&self) -> f64 {
        // Digits only: the parse is correctly rounded, as JavaScript's Number() is.
        self.text.parse().unwrap_or(f64::INFINITY)
    }

    /// The generator the seed picks: `generators[(seed % 100) % 10]`.
    pub fn kind(&self) -> Kind {
        let index = (self.value() % 100.0) % 10.0;
        Kind::ALL[index as usize % 10]
    }

    /// The key of the generator the parameters are drawn from: `new RNG((seed / 100) | 0)`
    /// keys RC4 with the decimal text of that 32-bit integer.
    pub fn rng_key(&self) -> String {
        to_int32(self.value() / 100.0).to_string()
    }
}

impl FromStr for Seed {
    type Err = SeedError;

    fn from_str(text: &str) -> Result<Seed, SeedError> {
        Seed::parse(text)
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// JavaScript's ToInt32 (`x | 0`): truncate, wrap modulo 2^32, read as signed.
fn to_int32(x: f64) -> i32 {
    if !x.is_finite() {
        return 0;
    }
    // Exact: the remainder of a double by a power of two is exact.
    let m = x.trunc().rem_euclid(4_294_967_296.0);
    (m as u32) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_int32_wraps_as_javascript_does() {
        assert_eq!(to_int32(3.9), 3);
        assert_eq!(to_int32(-3.9), -3);
        assert_eq!(to_int32(2_147_483_648.0), -2_147_483_648);
        assert_eq!(to_int32(4_294_967_296.0 + 5.0), 5);
        assert_eq!(to_int32(1e300), 0);
    }

    /// Issue 66.12: the message of a refused seed does not echo a long seed whole, and says
    /// what the largest seed is (a 309-digit seed below the largest double is a seed, where
    /// the message said "at most 308 digits").
    #[test]
    fn refusals_say_the_bound_in_few_words() {
        let huge = "9".repeat(100_000);
        for e in [Seed::parse(&huge).unwrap_err(), Seed::parse(&format!("{huge}x")).unwrap_err()] {
            let message = e.to_string();
            assert!(message.len() < 200, "{} bytes", message.len());
            assert!(message.contains("characters)"), "{message}");
        }
        let largest = format!("17976931348623157{}", "0".repeat(292));
        assert_eq!(largest.len(), 309);
        assert!(Seed::parse(&largest).is_ok());
        let past = format!("18{}", "0".repeat(307));
        let message = Seed::parse(&past).unwrap_err().to_string();
        assert!(message.contains("below about 1.8 × 10^308"), "{message}");
        assert!(!message.contains("308 digits"), "{message}");
        assert_eq!(shorten("12345"), "12345");
    }

    #[test]
    fn seeds_read_as_numbers() {
        let s = Seed::parse("000123").expect("digits");
        assert_eq!(s.as_str(), "123");
        assert_eq!(s.kind(), Kind::PowerUp);
        assert_eq!(s.rng_key(), "1");
        assert_eq!(Seed::parse("0").expect("zero").rng_key(), "0");
        assert!(matches!(Seed::parse("12a"), Err(SeedError::NotDigits { .. })));
        assert!(matches!(Seed::parse(""), Err(SeedError::NotDigits { .. })));
        assert!(matches!(Seed::parse(&"9".repeat(400)), Err(SeedError::TooLarge { .. })));
    }

    #[test]
    fn a_kind_s_seeds_end_in_its_digit() {
        for kind in Kind::ALL {
            for draw in [0, 1, 2, 999_999, 1_000_000, u32::MAX] {
                let seed = Seed::of_kind(kind, draw);
                assert_eq!(seed.kind(), kind, "{seed}");
                assert_eq!(Seed::parse(seed.as_str()).as_ref(), Ok(&seed));
            }
        }
    }
}
