//! `tessera-sound`: PuzzleScript's sounds, exact to the reference.
//!
//! A PuzzleScript game names each sound by a number, its seed (`Player move 142315`, `sfx3
//! 213424`). The reference (`sfxr.js`) turns a seed into a sound in two steps, and so does this
//! crate, with the reference's arithmetic:
//!
//! - [`Params::from_seed`]: the seed's last two digits pick one of ten generators ([`Kind`]:
//!   coin, laser, explosion, …) and the rest key PuzzleScript's RC4 generator, from which the
//!   generator draws the synthesis parameters (`generateFromSeed`).
//! - [`synthesise`]: sfxr's synthesis of those parameters into samples at 5,512 Hz, which
//!   [`quantise`] turns into the 8-bit samples of the WAV the reference writes when it has no
//!   Web Audio ([`wav`], `MakeRiff`). [`Sound`] does both for a seed.
//!
//! The only input that is not the seed is the noise waveform's values, which the reference takes
//! from `Math.random()`: [`Sound::new`] takes them from RC4 keyed by the seed
//! ([`seed_noise`]), so a seed always makes the same sound, and the comparison with the reference
//! (`tests/reference.rs`) gives the reference that same source. `Math.sin`, `Math.pow` and
//! `Math.exp` are fdlibm's in V8 and here (the `libm` crate), so the bytes match on every
//! platform.
//!
//! [`Mixer`] mixes sounds started at different moments into one stream for an audio device,
//! with a volume; it does no I/O (the editor owns the device).
//!
//! ```
//! use tessera_sound::{Kind, Seed, Sound};
//!
//! let seed: Seed = "142315".parse()?;
//! assert_eq!(seed.kind(), Kind::Jump);
//! let sound = Sound::new(&seed)?;
//! let wav = sound.wav();
//! assert_eq!(&wav[..4], b"RIFF");
//! assert_eq!(wav.len(), 44 + sound.samples().len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where things are
//!
//! PuzzleScript's sfxr synthesiser, exact to the reference (`sfxr.js`), depending on nothing of
//! tessera. Start at `lib.rs` (`Sound::new`: a seed to its samples and WAV). `seed.rs`: `Seed`
//! (digits, read as the reference's double; its `Kind` is `seed % 100 % 10`, its generator key
//! `(seed / 100) | 0`), `Kind` (the ten generators, the editor's buttons); `rng.rs`: `Rc4`, the
//! reference's generator (the same as the engine's in core, kept here so this crate needs nothing);
//! `params.rs`: `Params::from_seed` (the ten generators, drawing in the reference's order);
//! `synth.rs`: `synthesise` (sfxr at 44,100 ticks a second, 8 sub-samples a tick, averaged 8 ticks
//! to a 5,512 Hz sample, as the reference's no-Web-Audio path) and `quantise` (its 8-bit WAV
//! samples, with JavaScript's NaN rules); `wav.rs`: `MakeRiff`'s header; `mixer.rs`: `Mixer`,
//! sounds started at different moments mixed into 16-bit frames with a volume. Invariants: no I/O;
//! every float operation is the reference's, in its order, and `Math.sin`, `Math.exp` and
//! `Math.pow` are fdlibm's (`libm`), so the bytes are the same on every platform; the noise
//! waveform's source is a parameter (`Noise`), `seed_noise` by default.

mod mixer;
mod params;
mod rng;
mod seed;
mod synth;
mod wav;

pub use mixer::Mixer;
pub use params::{BREAKER, NOISE, Params, SAWTOOTH, SINE, SQUARE, TRIANGLE, Wave};
pub use rng::Rc4;
pub use seed::{Kind, Seed, SeedError, shorten};
pub use synth::{Noise, SAMPLE_RATE, SynthError, quantise, synthesise};
pub use wav::wav;

use std::time::Duration;

/// One seed's sound: its parameters and its 8-bit samples at [`SAMPLE_RATE`].
#[derive(Clone, Debug, PartialEq)]
pub struct Sound {
    seed: Seed,
    params: Params,
    samples: Vec<u8>,
}

impl Sound {
    /// The sound of `seed`, its noise from [`seed_noise`].
    pub fn new(seed: &Seed) -> Result<Sound, SynthError> {
        Sound::with_noise(seed, &mut seed_noise(seed))
    }

    /// The sound of `seed` with the noise waveform's values from `noise`.
    pub fn with_noise(seed: &Seed, noise: &mut dyn Noise) -> Result<Sound, SynthError> {
        let params = Params::from_seed(seed);
        let samples = quantise(&synthesise(&params, noise)?);
        Ok(Sound { seed: seed.clone(), params, samples })
    }

    /// The seed.
    pub fn seed(&self) -> &Seed {
        &self.seed
    }

    /// The parameters drawn from the seed.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The 8-bit unsigned samples (128 is silence) at [`SAMPLE_RATE`], as the reference's WAV
    /// holds them.
    pub fn samples(&self) -> &[u8] {
        &self.samples
    }

    /// How long the sound plays.
    pub fn duration(&self) -> Duration {
        Duration::from_secs_f64(self.samples.len() as f64 / f64::from(SAMPLE_RATE))
    }

    /// The reference's WAV file of the sound.
    pub fn wav(&self) -> Vec<u8> {
        wav(SAMPLE_RATE, &self.samples)
    }
}

/// The noise source [`Sound::new`] uses: PuzzleScript's RC4 keyed by `sfxr-noise ` and the
/// seed's digits, its `uniform()` as `Math.random()`.
pub fn seed_noise(seed: &Seed) -> impl Noise + use<> {
    let mut rng = Rc4::new(&format!("sfxr-noise {}", seed.as_str()));
    move || rng.uniform()
}
