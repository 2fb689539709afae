//! The reference's WAV file (`MakeRiff` in `riffwave.js`): a 44-byte RIFF header, mono, 8-bit
//! unsigned PCM at [`SAMPLE_RATE`](crate::SAMPLE_RATE), then the samples (no pad byte).

/// The WAV bytes of 8-bit samples at `sample_rate`.
pub fn wav(sample_rate: u32, samples: &[u8]) -> Vec<u8> {
    let len = samples.len() as u32;
    let mut out = Vec::with_capacity(44 + samples.len());
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36u32.wrapping_add(len)).to_le_bytes());
    out.extend_from_slice(b"WAVE");
    out.extend_from_slice(b"fmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&sample_rate.to_le_bytes());
    out.extend_from_slice(&sample_rate.to_le_bytes()); // bytes a second: rate * 1 channel * 8 / 8
    out.extend_from_slice(&1u16.to_le_bytes()); // block align
    out.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(samples);
    out
}
