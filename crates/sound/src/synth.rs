//! The samples of a sound (`SoundEffect.generate` in `sfxr.js`), as the reference makes them
//! when it has no Web Audio: 44,100 ticks a second, each the sum of 8 sub-samples, averaged 8
//! ticks at a time into 5,512 Hz, then quantised to 8 bits for its WAV (`MakeRiff`).

use crate::params::{BREAKER, NOISE, Params, SAWTOOTH, SINE, SQUARE, TRIANGLE};
use libm::{exp, pow, sin};

/// The sample rate of PuzzleScript's sounds (`SAMPLE_RATE`).
pub const SAMPLE_RATE: u32 = 5512;

/// PuzzleScript's sound volume (`SOUND_VOL`).
const SOUND_VOL: f64 = 0.25;

/// Why a sound cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SynthError {
    /// The parameters name a waveform past the six (the reference throws `bad wave type!`).
    #[error("bad wave type {wave} (the waveforms are 0 to 5)")]
    BadWave {
        /// The waveform number.
        wave: u32,
    },
}

/// Where the noise waveform's values come from: the reference calls `Math.random()` for them
/// (32 at the start, 32 more each period of a noise sound). Any `FnMut() -> f64` on `[0, 1)`.
pub trait Noise {
    /// The next value on `[0, 1)`.
    fn next(&mut self) -> f64;
}

impl<F: FnMut() -> f64> Noise for F {
    fn next(&mut self) -> f64 {
        self()
    }
}

/// The float samples of `params` at [`SAMPLE_RATE`] (before quantising), with the reference's
/// `sound_vol`, `sample_rate` and master volume (`cacheSeed`'s: 0.25, 5,512 Hz, 1.0).
pub fn synthesise(params: &Params, noise: &mut dyn Noise) -> Result<Vec<f64>, SynthError> {
    let ps = params;
    if ps.wave_type > BREAKER {
        return Err(SynthError::BadWave { wave: ps.wave_type });
    }
    let mut rep = Repeat::new(ps);

    // Filter
    let mut fltp = 0.0f64;
    let mut fltdp = 0.0f64;
    let mut fltw = pow(ps.lpf_freq, 3.0) * 0.1;
    let fltw_d = 1.0 + ps.lpf_ramp * 0.0001;
    let mut fltdmp = 5.0 / (1.0 + pow(ps.lpf_resonance, 2.0) * 20.0) * (0.01 + fltw);
    if fltdmp > 0.8 {
        fltdmp = 0.8;
    }
    let mut fltphp = 0.0f64;
    let mut flthp = pow(ps.hpf_freq, 2.0) * 0.1;
    let flthp_d = 1.0 + ps.hpf_ramp * 0.0003;

    // Vibrato
    let mut vib_phase = 0.0f64;
    let vib_speed = pow(ps.vib_speed, 2.0) * 0.01;
    let vib_amp = ps.vib_strength * 0.5;

    // Envelope
    let mut env_stage = 0usize;
    let mut env_time = 0.0f64;
    let env_length = [
        (ps.env_attack * ps.env_attack * 100000.0).floor(),
        (ps.env_sustain * ps.env_sustain * 100000.0).floor(),
        (ps.env_decay * ps.env_decay * 100000.0).floor(),
    ];
    let env_total_length = env_length[0] + env_length[1] + env_length[2];

    // Phaser
    let mut phase = 0.0f64;
    let mut fphase = pow(ps.pha_offset, 2.0) * 1020.0;
    if ps.pha_offset < 0.0 {
        fphase = -fphase;
    }
    let mut fdphase = pow(ps.pha_ramp, 2.0) * 1.0;
    if ps.pha_ramp < 0.0 {
        fdphase = -fdphase;
    }
    let mut iphase: i64;
    let mut ipp: i64 = 0;
    let mut phaser_buffer = [0.0f64; 1024];

    // Noise
    let mut noise_buffer = [0.0f64; 32];
    for v in noise_buffer.iter_mut() {
        *v = noise.next() * 2.0 - 1.0;
    }

    let gain = exp(SOUND_VOL) - 1.0;
    let summands = (44100 / SAMPLE_RATE) as usize; // 8
    let summands_f = summands as f64;
    let mut sample_sum = 0.0f64;
    let mut num_summed = 0usize;
    // `new Array(ceil(total / 8))`: a sound can write one sample more than that (the array
    // grows); slots never written read as 0 when quantised.
    let buffer_length = (env_total_length / summands_f).ceil().max(0.0) as usize;
    let mut buffer: Vec<f64> = Vec::with_capacity(buffer_length + 1);

    let mut sample;
    let mut t: f64 = 0.0;
    loop {
        // Repeats
        rep.rep_time += 1.0;
        if rep.rep_limit != 0.0 && rep.rep_time >= rep.rep_limit {
            rep.reset(ps);
        }

        // Arpeggio (single)
        if rep.arp_limit != 0.0 && t >= rep.arp_limit {
            rep.arp_limit = 0.0;
            rep.fperiod *= rep.arp_mod;
        }

        // Frequency slide, and frequency slide slide!
        rep.fslide += rep.fdslide;
        rep.fperiod *= rep.fslide;
        if rep.fperiod > rep.fmaxperiod {
            rep.fperiod = rep.fmaxperiod;
        }

        // Vibrato
        let mut rfperiod = rep.fperiod;
        if vib_amp > 0.0 {
            vib_phase += vib_speed;
            rfperiod = rep.fperiod * (1.0 + sin(vib_phase) * vib_amp);
        }
        let mut period = rfperiod.floor();
        if period < 8.0 {
            period = 8.0;
        }

        rep.square_duty += rep.square_slide;
        rep.square_duty = rep.square_duty.clamp(0.0, 0.5);

        // Volume envelope
        env_time += 1.0;
        if env_time > env_length[env_stage] {
            env_time = 1.0;
            env_stage += 1;
            while env_stage < 3 && env_length[env_stage] == 0.0 {
                env_stage += 1;
            }
            if env_stage == 3 {
                break;
            }
        }
        let env_vol = match env_stage {
            0 => env_time / env_length[0],
            1 => 1.0 + pow(1.0 - env_time / env_length[1], 1.0) * 2.0 * ps.env_punch,
            _ => 1.0 - env_time / env_length[2],
        };

        // Phaser step
        fphase += fdphase;
        iphase = fphase.floor().abs().min(1023.0) as i64;

        if flthp_d != 0.0 {
            flthp *= flthp_d;
            flthp = flthp.clamp(0.00001, 0.1);
        }

        // 8x supersampling
        sample = 0.0;
        for _ in 0..8 {
            phase += 1.0;
            if phase >= period {
                phase %= period;
                if ps.wave_type == NOISE {
                    for v in noise_buffer.iter_mut() {
                        *v = noise.next() * 2.0 - 1.0;
                    }
                }
            }

            // Base waveform
            let fp = phase / period;
            let mut sub_sample = match ps.wave_type {
                SQUARE => {
                    if fp < rep.square_duty {
                        0.5
                    } else {
                        -0.5
                    }
                }
                SAWTOOTH => 1.0 - fp * 2.0,
                SINE => sin(fp * 2.0 * std::f64::consts::PI),
                NOISE => noise_buffer[((phase * 32.0 / period).floor() as usize).min(31)],
                TRIANGLE => (1.0 - fp * 2.0).abs() - 1.0,
                _ => (1.0 - fp * fp * 2.0).abs() - 1.0,
            };

            // Low-pass filter
            let pp = fltp;
            fltw *= fltw_d;
            fltw = fltw.clamp(0.0, 0.1);
            if ps.lpf_freq != 1.0 {
                fltdp += (sub_sample - fltp) * fltw;
                fltdp -= fltdp * fltdmp;
            } else {
                fltp = sub_sample;
                fltdp = 0.0;
            }
            fltp += fltdp;

            // High-pass filter
            fltphp += fltp - pp;
            fltphp -= fltphp * flthp;
            sub_sample = fltphp;

            // Phaser
            phaser_buffer[(ipp & 1023) as usize] = sub_sample;
            sub_sample += phaser_buffer[((ipp - iphase + 1024) & 1023) as usize];
            ipp = (ipp + 1) & 1023;

            // final accumulation and envelope application
            sample += sub_sample * env_vol;
        }

        // Accumulate samples appropriately for sample rate
        sample_sum += sample;
        num_summed += 1;
        if num_summed >= summands {
            num_summed = 0;
            sample = sample_sum / summands_f;
            sample_sum = 0.0;
        } else {
            t += 1.0;
            continue;
        }
        sample = sample / 8.0 * 1.0;
        sample *= gain;
        buffer.push(sample);
        t += 1.0;
    }

    // The last, partial sum.
    sample = sample_sum / summands_f;
    sample = sample / 8.0 * 1.0;
    sample *= gain;
    buffer.push(sample);
    if buffer.len() < buffer_length {
        buffer.resize(buffer_length, f64::NAN);
    }
    Ok(buffer)
}

/// The 8-bit samples of the reference's WAV: `255 & floor(128 * max(0, min(x + 1, 2)))`, with
/// JavaScript's NaN rules (a slot never written, or NaN, is 0; so is a full-scale 1.0, as the
/// mask wraps 256).
pub fn quantise(samples: &[f64]) -> Vec<u8> {
    samples.iter().map(|&x| quantise_one(x)).collect()
}

fn quantise_one(x: f64) -> u8 {
    let v = x + 1.0;
    // Math.min / Math.max propagate NaN (Rust's min/max would not).
    if v.is_nan() {
        return 0;
    }
    let clamped = if v < 2.0 { v } else { 2.0 };
    let clamped = if clamped > 0.0 { clamped } else { 0.0 };
    ((128.0 * clamped).floor() as i64 & 255) as u8
}

/// The state `repeat()` resets.
struct Repeat {
    rep_time: f64,
    rep_limit: f64,
    fperiod: f64,
    fmaxperiod: f64,
    fslide: f64,
    fdslide: f64,
    square_duty: f64,
    square_slide: f64,
    arp_mod: f64,
    arp_limit: f64,
}

impl Repeat {
    fn new(ps: &Params) -> Repeat {
        let mut rep_limit = (pow(1.0 - ps.repeat_speed, 2.0) * 20000.0 + 32.0).floor();
        if ps.repeat_speed == 0.0 {
            rep_limit = 0.0;
        }
        let mut r = Repeat {
            rep_time: 0.0,
            rep_limit,
            fperiod: 0.0,
            fmaxperiod: 0.0,
            fslide: 0.0,
            fdslide: 0.0,
            square_duty: 0.0,
            square_slide: 0.0,
            arp_mod: 0.0,
            arp_limit: 0.0,
        };
        r.reset(ps);
        r
    }

    /// `repeat()`.
    fn reset(&mut self, ps: &Params) {
        self.rep_time = 0.0;
        self.fperiod = 100.0 / (ps.base_freq * ps.base_freq + 0.001);
        self.fmaxperiod = 100.0 / (ps.freq_limit * ps.freq_limit + 0.001);
        self.fslide = 1.0 - pow(ps.freq_ramp, 3.0) * 0.01;
        self.fdslide = -pow(ps.freq_dramp, 3.0) * 0.000001;
        self.square_duty = 0.5 - ps.duty * 0.5;
        self.square_slide = -ps.duty_ramp * 0.00005;
        self.arp_mod = if ps.arp_mod >= 0.0 {
            1.0 - pow(ps.arp_mod, 2.0) * 0.9
        } else {
            1.0 + pow(ps.arp_mod, 2.0) * 10.0
        };
        self.arp_limit = (pow(1.0 - ps.arp_speed, 2.0) * 20000.0 + 32.0).floor();
        if ps.arp_speed == 1.0 {
            self.arp_limit = 0.0;
        }
    }
}
