//! Mixing sounds for an audio device: each sound starts when it is added and plays to its end
//! beside the others, as the reference plays each sound on its own.

use crate::Sound;
use std::sync::Arc;

/// Sounds playing, mixed into signed 16-bit mono frames at [`SAMPLE_RATE`](crate::SAMPLE_RATE).
#[derive(Default)]
pub struct Mixer {
    playing: Vec<(Arc<Sound>, usize)>,
    /// 0 (silent) to 100.
    volume: u8,
}

impl Mixer {
    /// A mixer at `volume` (0 silent to 100 full; above 100 reads as 100).
    pub fn new(volume: u8) -> Mixer {
        Mixer { playing: Vec::new(), volume: volume.min(100) }
    }

    /// Sets the volume (0 to 100) for everything still to be mixed.
    pub fn set_volume(&mut self, volume: u8) {
        self.volume = volume.min(100);
    }

    /// Starts `sound` at the next frame mixed.
    pub fn play(&mut self, sound: Arc<Sound>) {
        self.playing.push((sound, 0));
    }

    /// Stops every sound.
    pub fn stop(&mut self) {
        self.playing.clear();
    }

    /// Whether a sound is still playing.
    pub fn is_playing(&self) -> bool {
        !self.playing.is_empty()
    }

    /// Mixes the next `out.len()` frames into `out` (silence where nothing plays): each sound's
    /// samples centred on 0, summed, scaled by the volume, clipped to 16 bits.
    pub fn mix(&mut self, out: &mut [i16]) {
        let volume = i32::from(self.volume);
        for (k, frame) in out.iter_mut().enumerate() {
            let mut sum = 0i32;
            for (sound, at) in &self.playing {
                if let Some(&s) = sound.samples().get(at + k) {
                    sum += i32::from(s) - 128;
                }
            }
            // 8-bit to 16-bit is * 256; the volume is a percentage.
            *frame = (sum * 256 * volume / 100).clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        }
        for (_, at) in &mut self.playing {
            *at += out.len();
        }
        self.playing.retain(|(sound, at)| *at < sound.samples().len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Seed;

    fn sound(seed: &str) -> Arc<Sound> {
        Arc::new(Sound::new(&Seed::parse(seed).expect("a seed")).expect("a sound"))
    }

    #[test]
    fn one_sound_at_full_volume_is_its_samples() {
        let s = sound("142315");
        let mut m = Mixer::new(100);
        m.play(s.clone());
        let mut out = vec![0i16; s.samples().len() + 10];
        m.mix(&mut out);
        for (k, &v) in s.samples().iter().enumerate() {
            assert_eq!(i32::from(out[k]), (i32::from(v) - 128) * 256);
        }
        assert!(out[s.samples().len()..].iter().all(|&v| v == 0));
        assert!(!m.is_playing());
    }

    #[test]
    fn sounds_sum_and_the_volume_scales() {
        let (a, b) = (sound("142315"), sound("3217903"));
        let mut m = Mixer::new(50);
        m.play(a.clone());
        let mut first = vec![0i16; 100];
        m.mix(&mut first);
        m.play(b.clone());
        let mut next = vec![0i16; 100];
        m.mix(&mut next);
        for (k, got) in next.iter().enumerate() {
            let sa = a.samples().get(100 + k).map_or(0, |&v| i32::from(v) - 128);
            let sb = b.samples().get(k).map_or(0, |&v| i32::from(v) - 128);
            let want = ((sa + sb) * 256 * 50 / 100).clamp(-32768, 32767);
            assert_eq!(i32::from(*got), want, "frame {k}");
        }
        m.set_volume(0);
        let mut silent = vec![1i16; 50];
        m.mix(&mut silent);
        assert!(silent.iter().all(|&v| v == 0));
    }
}
