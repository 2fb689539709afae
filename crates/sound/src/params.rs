//! The parameters a seed draws (`generateFromSeed` and the ten generators of `sfxr.js`), drawn in
//! the reference's order from its generator, with its arithmetic: `Math.pow` is `libm::pow`.

// The generators' constants are written as the reference writes them (17 digits, more than a
// double holds): Rust reads them to the same doubles as JavaScript does.
#![allow(clippy::excessive_precision)]

use crate::rng::Rc4;
use crate::seed::{Kind, Seed};
use libm::pow;

/// A waveform: `square`, `sawtooth`, `sine`, `noise`, `triangle`, `breaker` are 0 to 5 (the
/// reference's `SHAPES`).
pub type Wave = u32;

/// The square wave.
pub const SQUARE: Wave = 0;
/// The sawtooth wave.
pub const SAWTOOTH: Wave = 1;
/// The sine wave.
pub const SINE: Wave = 2;
/// Noise (32 random values per period).
pub const NOISE: Wave = 3;
/// The triangle wave.
pub const TRIANGLE: Wave = 4;
/// The breaker wave.
pub const BREAKER: Wave = 5;

/// One sound's parameters: the reference's `Params()` fields, on `[0, 1]` unless signed, though
/// some generators draw outside that range and the synthesiser takes them as they are.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // the fields are the reference's `p_*` fields, named as there
pub struct Params {
    /// The waveform (0 to 5; the reference throws on 6, which a draw of exactly 1.0 makes).
    pub wave_type: Wave,
    pub env_attack: f64,
    pub env_sustain: f64,
    pub env_punch: f64,
    pub env_decay: f64,
    pub base_freq: f64,
    pub freq_limit: f64,
    pub freq_ramp: f64,
    pub freq_dramp: f64,
    pub vib_strength: f64,
    pub vib_speed: f64,
    pub arp_mod: f64,
    pub arp_speed: f64,
    pub duty: f64,
    pub duty_ramp: f64,
    pub repeat_speed: f64,
    pub pha_offset: f64,
    pub pha_ramp: f64,
    pub lpf_freq: f64,
    pub lpf_ramp: f64,
    pub lpf_resonance: f64,
    pub hpf_freq: f64,
    pub hpf_ramp: f64,
}

impl Default for Params {
    /// The reference's `Params()`.
    fn default() -> Params {
        Params {
            wave_type: SQUARE,
            env_attack: 0.0,
            env_sustain: 0.3,
            env_punch: 0.0,
            env_decay: 0.4,
            base_freq: 0.3,
            freq_limit: 0.0,
            freq_ramp: 0.0,
            freq_dramp: 0.0,
            vib_strength: 0.0,
            vib_speed: 0.0,
            arp_mod: 0.0,
            arp_speed: 0.0,
            duty: 0.0,
            duty_ramp: 0.0,
            repeat_speed: 0.0,
            pha_offset: 0.0,
            pha_ramp: 0.0,
            lpf_freq: 1.0,
            lpf_ramp: 0.0,
            lpf_resonance: 0.0,
            hpf_freq: 0.0,
            hpf_ramp: 0.0,
        }
    }
}

impl Params {
    /// The parameters `generateFromSeed(seed)` draws.
    pub fn from_seed(seed: &Seed) -> Params {
        let mut d = Draw(Rc4::new(&seed.rng_key()));
        match seed.kind() {
            Kind::PickupCoin => pickup_coin(&mut d),
            Kind::LaserShoot => laser_shoot(&mut d),
            Kind::Explosion => explosion(&mut d),
            Kind::PowerUp => power_up(&mut d),
            Kind::HitHurt => hit_hurt(&mut d),
            Kind::Jump => jump(&mut d),
            Kind::BlipSelect => blip_select(&mut d),
            Kind::PushSound => push_sound(&mut d),
            Kind::Random => random(&mut d),
            Kind::BirdSound => bird_sound(&mut d),
        }
    }

    /// Sets each field to `value(name)` where that is `Some` (names as [`Params::fields`]).
    pub fn set_fields(&mut self, mut value: impl FnMut(&str) -> Option<f64>) {
        let p = self;
        let slots: [(&str, &mut f64); 22] = [
            ("p_env_attack", &mut p.env_attack),
            ("p_env_sustain", &mut p.env_sustain),
            ("p_env_punch", &mut p.env_punch),
            ("p_env_decay", &mut p.env_decay),
            ("p_base_freq", &mut p.base_freq),
            ("p_freq_limit", &mut p.freq_limit),
            ("p_freq_ramp", &mut p.freq_ramp),
            ("p_freq_dramp", &mut p.freq_dramp),
            ("p_vib_strength", &mut p.vib_strength),
            ("p_vib_speed", &mut p.vib_speed),
            ("p_arp_mod", &mut p.arp_mod),
            ("p_arp_speed", &mut p.arp_speed),
            ("p_duty", &mut p.duty),
            ("p_duty_ramp", &mut p.duty_ramp),
            ("p_repeat_speed", &mut p.repeat_speed),
            ("p_pha_offset", &mut p.pha_offset),
            ("p_pha_ramp", &mut p.pha_ramp),
            ("p_lpf_freq", &mut p.lpf_freq),
            ("p_lpf_ramp", &mut p.lpf_ramp),
            ("p_lpf_resonance", &mut p.lpf_resonance),
            ("p_hpf_freq", &mut p.hpf_freq),
            ("p_hpf_ramp", &mut p.hpf_ramp),
        ];
        for (name, slot) in slots {
            if let Some(v) = value(name) {
                *slot = v;
            }
        }
        if let Some(w) = value("wave_type") {
            p.wave_type = w as Wave;
        }
    }

    /// The fields by the reference's names (`wave_type`, `p_env_attack`, …), for comparing and
    /// printing.
    pub fn fields(&self) -> [(&'static str, f64); 23] {
        [
            ("wave_type", f64::from(self.wave_type)),
            ("p_env_attack", self.env_attack),
            ("p_env_sustain", self.env_sustain),
            ("p_env_punch", self.env_punch),
            ("p_env_decay", self.env_decay),
            ("p_base_freq", self.base_freq),
            ("p_freq_limit", self.freq_limit),
            ("p_freq_ramp", self.freq_ramp),
            ("p_freq_dramp", self.freq_dramp),
            ("p_vib_strength", self.vib_strength),
            ("p_vib_speed", self.vib_speed),
            ("p_arp_mod", self.arp_mod),
            ("p_arp_speed", self.arp_speed),
            ("p_duty", self.duty),
            ("p_duty_ramp", self.duty_ramp),
            ("p_repeat_speed", self.repeat_speed),
            ("p_pha_offset", self.pha_offset),
            ("p_pha_ramp", self.pha_ramp),
            ("p_lpf_freq", self.lpf_freq),
            ("p_lpf_ramp", self.lpf_ramp),
            ("p_lpf_resonance", self.lpf_resonance),
            ("p_hpf_freq", self.hpf_freq),
            ("p_hpf_ramp", self.hpf_ramp),
        ]
    }
}

/// The reference's `frnd` and `rnd` over its seeded generator.
struct Draw(Rc4);

impl Draw {
    /// `frnd(range)`: `uniform() * range`.
    fn f(&mut self, range: f64) -> f64 {
        self.0.uniform() * range
    }

    /// `rnd(max)`: `Math.floor(uniform() * (max + 1))`.
    fn r(&mut self, max: u32) -> u32 {
        (self.0.uniform() * f64::from(max + 1)).floor() as u32
    }

    /// `Math.floor(frnd(SHAPES.length))`.
    fn shape(&mut self) -> Wave {
        self.f(6.0).floor() as Wave
    }

    /// `base + frnd(0.2) - 0.1`, evaluated left to right as the reference writes it.
    fn near(&mut self, base: f64) -> f64 {
        base + self.f(0.2) - 0.1
    }
}

/// JavaScript's `x | 0` for the small non-negative values the generators use.
fn int32(x: f64) -> i32 {
    x as i32
}

fn pickup_coin(d: &mut Draw) -> Params {
    let mut p = Params { wave_type: d.shape(), ..Params::default() };
    if p.wave_type == NOISE {
        p.wave_type = SQUARE;
    }
    p.base_freq = 0.4 + d.f(0.5);
    p.env_attack = 0.0;
    p.env_sustain = d.f(0.1);
    p.env_decay = 0.1 + d.f(0.4);
    p.env_punch = 0.3 + d.f(0.3);
    if d.r(1) != 0 {
        p.arp_speed = 0.5 + d.f(0.2);
        let num = (int32(d.f(7.0)) | 1) + 1;
        let den = num + (int32(d.f(7.0)) | 1) + 2;
        p.arp_mod = f64::from(num) / f64::from(den);
    }
    p
}

fn laser_shoot(d: &mut Draw) -> Params {
    let mut p = Params { wave_type: d.r(2), ..Params::default() };
    if p.wave_type == SINE && d.r(1) != 0 {
        p.wave_type = d.r(1);
    }
    p.wave_type = d.shape();
    if p.wave_type == NOISE {
        p.wave_type = SQUARE;
    }
    p.base_freq = 0.5 + d.f(0.5);
    p.freq_limit = p.base_freq - 0.2 - d.f(0.6);
    if p.freq_limit < 0.2 {
        p.freq_limit = 0.2;
    }
    p.freq_ramp = -0.15 - d.f(0.2);
    if d.r(2) == 0 {
        p.base_freq = 0.3 + d.f(0.6);
        p.freq_limit = d.f(0.1);
        p.freq_ramp = -0.35 - d.f(0.3);
    }
    if d.r(1) != 0 {
        p.duty = d.f(0.5);
        p.duty_ramp = d.f(0.2);
    } else {
        p.duty = 0.4 + d.f(0.5);
        p.duty_ramp = -d.f(0.7);
    }
    p.env_attack = 0.0;
    p.env_sustain = 0.1 + d.f(0.2);
    p.env_decay = d.f(0.4);
    if d.r(1) != 0 {
        p.env_punch = d.f(0.3);
    }
    if d.r(2) == 0 {
        p.pha_offset = d.f(0.2);
        p.pha_ramp = -d.f(0.2);
    }
    if d.r(1) != 0 {
        p.hpf_freq = d.f(0.3);
    }
    p
}

fn explosion(d: &mut Draw) -> Params {
    let mut p = Params::default();
    if d.r(1) != 0 {
        p.base_freq = 0.1 + d.f(0.4);
        p.freq_ramp = -0.1 + d.f(0.4);
    } else {
        p.base_freq = 0.2 + d.f(0.7);
        p.freq_ramp = -0.2 - d.f(0.2);
    }
    p.base_freq *= p.base_freq;
    if d.r(4) == 0 {
        p.freq_ramp = 0.0;
    }
    if d.r(2) == 0 {
        p.repeat_speed = 0.3 + d.f(0.5);
    }
    p.env_attack = 0.0;
    p.env_sustain = 0.1 + d.f(0.3);
    p.env_decay = d.f(0.5);
    if d.r(1) == 0 {
        p.pha_offset = -0.3 + d.f(0.9);
        p.pha_ramp = -d.f(0.3);
    }
    p.env_punch = 0.2 + d.f(0.6);
    if d.r(1) != 0 {
        p.vib_strength = d.f(0.7);
        p.vib_speed = d.f(0.6);
    }
    if d.r(2) == 0 {
        p.arp_speed = 0.6 + d.f(0.3);
        p.arp_mod = 0.8 - d.f(1.6);
    }
    p
}

/// The first and third of `birdSound`'s presets, which differ in three draws.
fn bird_preset_a(d: &mut Draw, p: &mut Params, third: bool) {
    p.wave_type = d.shape();
    if p.wave_type == NOISE {
        p.wave_type = SQUARE;
    }
    p.env_attack = d.near(0.4304400932967592);
    p.env_sustain = d.near(0.15739346034252394);
    p.env_punch = d.near(0.004488201744871758);
    p.env_decay = d.near(0.07478075528212291);
    p.base_freq = d.near(0.9865265720147687);
    p.freq_limit = d.near(0.0);
    p.freq_ramp = d.near(-0.2995018224359539);
    if third {
        p.freq_dramp = d.near(0.004598608156964473);
    } else {
        if d.f(1.0) < 0.5 {
            p.freq_ramp = 0.1 + d.f(0.15);
        }
        p.freq_dramp = 0.004598608156964473 + d.f(0.1) - 0.05;
    }
    p.vib_strength = d.near(-0.2202799497929496);
    p.vib_speed = d.near(0.8084998703158364);
    if third {
        p.arp_mod = d.near(-0.46410459213693644);
        p.arp_speed = d.near(-0.10955361249587248);
    } else {
        p.arp_mod = 0.0;
        p.arp_speed = 0.0;
    }
    p.duty = d.near(-0.9031808754347107);
    p.duty_ramp = d.near(-0.8128699999808343);
    p.repeat_speed = d.near(if third { 0.7014860189319991 } else { 0.6014860189319991 });
    p.pha_offset = d.near(-0.9424902314367765);
    p.pha_ramp = d.near(-0.1055482222272056);
    p.lpf_freq = d.near(0.9989765717851521);
    p.lpf_ramp = d.near(-0.25051720626043017);
    p.lpf_resonance = d.near(0.32777871505494693);
    p.hpf_freq = d.near(0.0023548750981756753);
    p.hpf_ramp = d.near(-0.002375673204842568);
}

fn bird_sound(d: &mut Draw) -> Params {
    let mut p = Params::default();
    if d.f(10.0) < 1.0 {
        bird_preset_a(d, &mut p, false);
        return p;
    }
    if d.f(10.0) < 1.0 {
        p.wave_type = d.shape();
        if p.wave_type == NOISE {
            p.wave_type = SQUARE;
        }
        p.env_attack = d.near(0.5277795946672003);
        p.env_sustain = d.near(0.18243733568468432);
        p.env_punch = d.near(-0.020159754546840117);
        p.env_decay = d.near(0.1561353422051903);
        p.base_freq = d.near(0.9028855606533718);
        p.freq_limit = -0.008842787837148716;
        p.freq_ramp = -0.1;
        p.freq_dramp = -0.012891241489551925;
        p.vib_strength = d.near(-0.17923136138403065);
        p.vib_speed = d.near(0.908263385610142);
        p.arp_mod = d.near(0.41690153355414894);
        p.arp_speed = d.near(0.0010766233195860703);
        p.duty = d.near(-0.8735363011184684);
        p.duty_ramp = d.near(-0.7397985366747507);
        p.repeat_speed = d.near(0.0591789344172107);
        p.pha_offset = d.near(-0.9961184222777699);
        p.pha_ramp = d.near(-0.08234769395850523);
        p.lpf_freq = d.near(0.9412475115697335);
        p.lpf_ramp = d.near(-0.18261358925834958);
        p.lpf_resonance = d.near(0.24541438107389477);
        p.hpf_freq = d.near(-0.01831940280978611);
        p.hpf_ramp = d.near(-0.03857383633171346);
        return p;
    }
    if d.f(10.0) < 1.0 {
        bird_preset_a(d, &mut p, true);
        return p;
    }
    if d.f(5.0) > 1.0 {
        p.wave_type = d.shape();
        if p.wave_type == NOISE {
            p.wave_type = SQUARE;
        }
        if d.r(1) != 0 {
            p.arp_mod = d.near(0.2697849293151393);
            p.arp_speed = d.near(-0.3131172257760948);
            p.base_freq = d.near(0.8090588299313949);
            p.duty = d.near(-0.6210022920964955);
            p.duty_ramp = d.near(-0.00043441813553182567);
            p.env_attack = d.near(0.004321877246874195);
            p.env_decay = d.near(0.1);
            p.env_punch = d.near(0.061737781504416146);
            p.env_sustain = d.near(0.4987252564798832);
            p.freq_dramp = d.near(0.31700340314222614);
            p.freq_limit = d.near(0.0);
            p.freq_ramp = d.near(-0.163380391341416);
            p.hpf_freq = d.near(0.4709005021145149);
            p.hpf_ramp = d.near(0.6924667290539194);
            p.lpf_freq = d.near(0.8351398631384511);
            p.lpf_ramp = d.near(0.36616557192873134);
            p.lpf_resonance = d.near(-0.08685777111664439);
            p.pha_offset = d.near(-0.036084571580025544);
            p.pha_ramp = d.near(-0.014806445085568108);
            p.repeat_speed = d.near(-0.8094368475518489);
            p.vib_speed = d.near(0.4496665457171294);
            p.vib_strength = d.near(0.23413762515532424);
        } else {
            p.arp_mod = d.near(-0.35697118026766184);
            p.arp_speed = d.near(0.3581140690559588);
            p.base_freq = d.near(1.3260897696157528);
            p.duty = d.near(-0.30984900436710694);
            p.duty_ramp = d.near(-0.0014374759133411626);
            p.env_attack = d.near(0.3160357835682254);
            p.env_decay = d.near(0.1);
            p.env_punch = d.near(0.24323114016870148);
            p.env_sustain = d.near(0.4);
            p.freq_dramp = d.near(0.2866475886237244);
            p.freq_limit = d.near(0.0);
            p.freq_ramp = d.near(-0.10956352368742976);
            p.hpf_freq = d.near(0.20772718017889846);
            p.hpf_ramp = d.near(0.1564090637378835);
            p.lpf_freq = d.near(0.6021372770637031);
            p.lpf_ramp = d.near(0.24016227139979027);
            p.lpf_resonance = d.near(-0.08787383821160144);
            p.pha_offset = d.near(-0.381597686151701);
            p.pha_ramp = d.near(-0.0002481687661373495);
            p.repeat_speed = d.near(0.07812112809425686);
            p.vib_speed = d.near(-0.13648848579133943);
            p.vib_strength = d.near(0.0018874158972302657);
        }
        return p;
    }
    p.wave_type = d.shape();
    if p.wave_type == SAWTOOTH || p.wave_type == NOISE {
        p.wave_type = SINE;
    }
    p.base_freq = 0.85 + d.f(0.15);
    p.freq_ramp = 0.3 + d.f(0.15);
    p.env_attack = d.f(0.09);
    p.env_sustain = 0.2 + d.f(0.3);
    p.env_decay = d.f(0.1);
    p.duty = d.f(2.0) - 1.0;
    p.duty_ramp = pow(d.f(2.0) - 1.0, 3.0);
    p.repeat_speed = 0.5 + d.f(0.1);
    p.pha_offset = -0.3 + d.f(0.9);
    p.pha_ramp = -d.f(0.3);
    p.arp_speed = 0.4 + d.f(0.6);
    p.arp_mod = 0.8 + d.f(0.1);
    p.lpf_resonance = d.f(2.0) - 1.0;
    p.lpf_freq = 1.0 - pow(d.f(1.0), 3.0);
    p.lpf_ramp = pow(d.f(2.0) - 1.0, 3.0);
    if p.lpf_freq < 0.1 && p.lpf_ramp < -0.05 {
        p.lpf_ramp = -p.lpf_ramp;
    }
    p.hpf_freq = pow(d.f(1.0), 5.0);
    p.hpf_ramp = pow(d.f(2.0) - 1.0, 5.0);
    p
}

fn push_sound(d: &mut Draw) -> Params {
    let mut p = Params { wave_type: d.shape(), ..Params::default() };
    if p.wave_type == SINE {
        p.wave_type += 1;
    }
    if p.wave_type == SQUARE {
        p.wave_type = NOISE;
    }
    p.base_freq = 0.1 + d.f(0.4);
    p.freq_ramp = 0.05 + d.f(0.2);
    p.env_attack = 0.01 + d.f(0.09);
    p.env_sustain = 0.01 + d.f(0.09);
    p.env_decay = 0.01 + d.f(0.09);
    p.repeat_speed = 0.3 + d.f(0.5);
    p.pha_offset = -0.3 + d.f(0.9);
    p.pha_ramp = -d.f(0.3);
    p.arp_speed = 0.6 + d.f(0.3);
    p.arp_mod = 0.8 - d.f(1.6);
    p
}

fn power_up(d: &mut Draw) -> Params {
    let mut p = Params::default();
    if d.r(1) != 0 {
        p.wave_type = SAWTOOTH;
    } else {
        p.duty = d.f(0.6);
    }
    p.wave_type = d.shape();
    if p.wave_type == NOISE {
        p.wave_type = SQUARE;
    }
    if d.r(1) != 0 {
        p.base_freq = 0.2 + d.f(0.3);
        p.freq_ramp = 0.1 + d.f(0.4);
        p.repeat_speed = 0.4 + d.f(0.4);
    } else {
        p.base_freq = 0.2 + d.f(0.3);
        p.freq_ramp = 0.05 + d.f(0.2);
        if d.r(1) != 0 {
            p.vib_strength = d.f(0.7);
            p.vib_speed = d.f(0.6);
        }
    }
    p.env_attack = 0.0;
    p.env_sustain = d.f(0.4);
    p.env_decay = 0.1 + d.f(0.4);
    p
}

fn hit_hurt(d: &mut Draw) -> Params {
    let mut p = Params { wave_type: d.r(2), ..Params::default() };
    if p.wave_type == SINE {
        p.wave_type = NOISE;
    }
    if p.wave_type == SQUARE {
        p.duty = d.f(0.6);
    }
    p.wave_type = d.shape();
    p.base_freq = 0.2 + d.f(0.6);
    p.freq_ramp = -0.3 - d.f(0.4);
    p.env_attack = 0.0;
    p.env_sustain = d.f(0.1);
    p.env_decay = 0.1 + d.f(0.2);
    if d.r(1) != 0 {
        p.hpf_freq = d.f(0.3);
    }
    p
}

fn jump(d: &mut Draw) -> Params {
    let mut p = Params { wave_type: d.shape(), ..Params::default() };
    if p.wave_type == NOISE {
        p.wave_type = SQUARE;
    }
    p.duty = d.f(0.6);
    p.base_freq = 0.3 + d.f(0.3);
    p.freq_ramp = 0.1 + d.f(0.2);
    p.env_attack = 0.0;
    p.env_sustain = 0.1 + d.f(0.3);
    p.env_decay = 0.1 + d.f(0.2);
    if d.r(1) != 0 {
        p.hpf_freq = d.f(0.3);
    }
    if d.r(1) != 0 {
        p.lpf_freq = 1.0 - d.f(0.6);
    }
    p
}

fn blip_select(d: &mut Draw) -> Params {
    let mut p = Params { wave_type: d.r(1), ..Params::default() };
    p.wave_type = d.shape();
    if p.wave_type == NOISE {
        p.wave_type = d.r(1);
    }
    if p.wave_type == SQUARE {
        p.duty = d.f(0.6);
    }
    p.base_freq = 0.2 + d.f(0.4);
    p.env_attack = 0.0;
    p.env_sustain = 0.1 + d.f(0.1);
    p.env_decay = d.f(0.2);
    p.hpf_freq = 0.1;
    p
}

fn random(d: &mut Draw) -> Params {
    let mut p = Params { wave_type: d.shape(), ..Params::default() };
    p.base_freq = pow(d.f(2.0) - 1.0, 2.0);
    if d.r(1) != 0 {
        p.base_freq = pow(d.f(2.0) - 1.0, 3.0) + 0.5;
    }
    p.freq_limit = 0.0;
    p.freq_ramp = pow(d.f(2.0) - 1.0, 5.0);
    if p.base_freq > 0.7 && p.freq_ramp > 0.2 {
        p.freq_ramp = -p.freq_ramp;
    }
    if p.base_freq < 0.2 && p.freq_ramp < -0.05 {
        p.freq_ramp = -p.freq_ramp;
    }
    p.freq_dramp = pow(d.f(2.0) - 1.0, 3.0);
    p.duty = d.f(2.0) - 1.0;
    p.duty_ramp = pow(d.f(2.0) - 1.0, 3.0);
    p.vib_strength = pow(d.f(2.0) - 1.0, 3.0);
    p.vib_speed = d.f(2.0) - 1.0;
    p.env_attack = pow(d.f(2.0) - 1.0, 3.0);
    p.env_sustain = pow(d.f(2.0) - 1.0, 2.0);
    p.env_decay = d.f(2.0) - 1.0;
    p.env_punch = pow(d.f(0.8), 2.0);
    if p.env_attack + p.env_sustain + p.env_decay < 0.2 {
        p.env_sustain += 0.2 + d.f(0.3);
        p.env_decay += 0.2 + d.f(0.3);
    }
    p.lpf_resonance = d.f(2.0) - 1.0;
    p.lpf_freq = 1.0 - pow(d.f(1.0), 3.0);
    p.lpf_ramp = pow(d.f(2.0) - 1.0, 3.0);
    if p.lpf_freq < 0.1 && p.lpf_ramp < -0.05 {
        p.lpf_ramp = -p.lpf_ramp;
    }
    p.hpf_freq = pow(d.f(1.0), 5.0);
    p.hpf_ramp = pow(d.f(2.0) - 1.0, 5.0);
    p.pha_offset = pow(d.f(2.0) - 1.0, 3.0);
    p.pha_ramp = pow(d.f(2.0) - 1.0, 3.0);
    p.repeat_speed = d.f(2.0) - 1.0;
    p.arp_speed = d.f(2.0) - 1.0;
    p.arp_mod = d.f(2.0) - 1.0;
    p
}
