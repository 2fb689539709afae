//! Sounds in the editor (issue 35): the sounds a PuzzleScript step plays, heard at the moments
//! PuzzleScript plays them, with a mute toggle and a volume that persist.
//!
//! [`Audio`] is the part the app talks to and the tests check: it keeps a queue of sounds due at
//! given moments ([`Audio::schedule`]: a step's turns, each `again` turn's sounds when that turn
//! shows), plays what is due each frame ([`Audio::tick`]), and remembers what it played
//! ([`Audio::played`]). Synthesis is `tessera_sound`'s. The device is [`Output`]: ALSA's
//! `libasound.so.2`, opened at run time (`libloading`), so building needs no system package; a
//! thread mixes ([`tessera_sound::Mixer`]) and writes to it. With no library or no device the
//! editor is silent and says so once. Tests never open a device (the app opens one only when
//! `main` asks, [`Audio::enable_output`]).
//!
//! A step's worker asks the game for the step's report (`EditorGame::step_report`: its sounds turn
//! by turn and, with the console's Verbose, every rule tried, from PuzzleScript's
//! `PuzzleScriptRules::step_report` and the engine's `Trace::tried`) and queues them with the turn
//! boards' timing; `undo` and a new session queue `undo` and `startlevel`
//! (`EditorGame::event_sound`). In Debug, `Debugger::forward` (a step forward by one; a jump or a
//! step back is silent) asks the same of the state before the step and its recorded command, on a
//! thread (`sound_jobs`, waited for `STEP_WAIT` and then polled each frame). The app's `hear` hands
//! them to `Audio`, which plays what is due each frame and remembers what played (tests read it);
//! `Output` is a thread mixing (`tessera_sound::Mixer`) into ALSA's `libasound.so.2`, loaded with
//! `libloading` in the `alsa` module (the editor's one `unsafe` exception), opened only after
//! `main` calls `enable_audio` (never in tests). `sound_picker.rs` draws the kind buttons
//! (`picker_ui`, hosted by the workbench's source pane, `workbench.rs`; a sound's seed clicked in
//! the source plays through `EditorApp::token_clicked`) and leaves seeds to play in egui's memory
//! (`request_play`, `take_requests`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::mpsc;
use tessera_sound::{Mixer, SAMPLE_RATE, Seed, Sound};

/// What the editor remembers of sound between runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SoundSettings {
    /// No sound at all.
    pub muted: bool,
    /// 0 (silent) to 100.
    pub volume: u8,
}

impl Default for SoundSettings {
    fn default() -> SoundSettings {
        SoundSettings { muted: false, volume: 70 }
    }
}

/// The sounds of one step: each turn's (the command's, then each `again` turn's), turn `k`'s due
/// `k * secs` after `start` (egui seconds), as PuzzleScript plays each turn's as it runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepSounds {
    /// When the step was played.
    pub start: f64,
    /// Seconds between turns (the game's `again_interval`, scaled by the animation speed).
    pub secs: f64,
    /// Each turn's seeds, in the order PuzzleScript plays them.
    pub turns: Vec<Vec<String>>,
}

/// The most sounds kept synthesised (PuzzleScript keeps 50).
const CACHE: usize = 64;
/// The most played seeds remembered.
const HISTORY: usize = 64;

/// The editor's sounds: what is due, what played, and the device.
#[derive(Default)]
pub struct Audio {
    settings: SoundSettings,
    due: Vec<(f64, String)>,
    played: Vec<String>,
    last_step: Vec<String>,
    cache: BTreeMap<String, Arc<Sound>>,
    output: OutputState,
    notice: Option<String>,
}

#[derive(Default)]
enum OutputState {
    /// Tests: never open a device.
    #[default]
    Off,
    /// Open one at the first sound.
    Wanted,
    Open(Output),
    /// No library or device: silent.
    Failed,
}

impl Audio {
    /// Lets the editor open the audio device at the first sound (the app's `main` does).
    pub fn enable_output(&mut self) {
        if matches!(self.output, OutputState::Off) {
            self.output = OutputState::Wanted;
        }
    }

    /// The mute toggle and volume.
    pub fn settings(&self) -> SoundSettings {
        self.settings
    }

    /// Sets the mute toggle and volume (muting stops what plays).
    pub fn set_settings(&mut self, settings: SoundSettings) {
        if settings == self.settings {
            return;
        }
        self.settings = settings;
        if let OutputState::Open(o) = &self.output {
            o.send(Msg::Volume(if settings.muted { 0 } else { settings.volume }));
            if settings.muted {
                o.send(Msg::Stop);
            }
        }
    }

    /// Queues a step's sounds; they play as their turns come ([`Audio::tick`]).
    pub fn schedule(&mut self, step: StepSounds) {
        self.last_step = step.turns.iter().flatten().cloned().collect();
        for (k, turn) in step.turns.into_iter().enumerate() {
            let at = step.start + k as f64 * step.secs;
            self.due.extend(turn.into_iter().map(|s| (at, s)));
        }
    }

    /// Plays `seed` at once (the sound picker, a seed clicked).
    pub fn play_now(&mut self, seed: &str) {
        self.play(seed.to_string());
    }

    /// Plays every sound due by `now`, in order; whether more are still to come.
    pub fn tick(&mut self, now: f64) -> bool {
        let mut k = 0;
        while k < self.due.len() {
            if self.due[k].0 <= now {
                let (_, seed) = self.due.remove(k);
                self.play(seed);
            } else {
                k += 1;
            }
        }
        !self.due.is_empty()
    }

    /// The seeds played so far (the latest last; at most 64), muted or not.
    pub fn played(&self) -> &[String] {
        &self.played
    }

    /// Forgets the last step's sounds (another level or game started: they were its).
    pub fn forget_last_step(&mut self) {
        self.last_step.clear();
    }

    /// The seeds of the last step scheduled, in order.
    pub fn last_step(&self) -> &[String] {
        &self.last_step
    }

    /// Sounds waiting for their turn.
    pub fn pending(&self) -> usize {
        self.due.len()
    }

    /// A word for the status bar, once (there is no audio device).
    pub fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// The sound of `seed`, synthesised once.
    pub fn sound(&mut self, seed: &str) -> Result<Arc<Sound>, String> {
        if let Some(s) = self.cache.get(seed) {
            return Ok(s.clone());
        }
        let parsed = Seed::parse(seed).map_err(|e| e.to_string())?;
        let sound = Arc::new(Sound::new(&parsed).map_err(|e| e.to_string())?);
        if self.cache.len() >= CACHE {
            self.cache.clear();
        }
        self.cache.insert(seed.to_string(), sound.clone());
        Ok(sound)
    }

    fn play(&mut self, seed: String) {
        if self.played.len() >= HISTORY {
            self.played.remove(0);
        }
        self.played.push(seed.clone());
        if self.settings.muted || matches!(self.output, OutputState::Off | OutputState::Failed) {
            return;
        }
        let Ok(sound) = self.sound(&seed) else { return };
        if matches!(self.output, OutputState::Wanted) {
            self.output = match Output::open(self.settings.volume) {
                Ok(o) => OutputState::Open(o),
                Err(e) => {
                    self.notice = Some(format!("no sound: {e}; the editor is silent"));
                    OutputState::Failed
                }
            };
        }
        if let OutputState::Open(o) = &self.output {
            o.send(Msg::Play(sound));
        }
    }
}

/// The mute toggle, the volume and the last step's sounds, in one line (Play's status bar);
/// `names` gives what plays a seed (`crate move`), when the game says.
pub fn controls_ui(ui: &mut egui::Ui, audio: &mut Audio, names: &dyn Fn(&str) -> Option<String>) {
    let mut s = audio.settings();
    ui.checkbox(&mut s.muted, "Mute").on_hover_text("No sound (kept between runs)");
    ui.add_enabled(!s.muted, egui::Slider::new(&mut s.volume, 0..=100).text("Volume"));
    audio.set_settings(s);
    let said: Vec<String> = audio
        .last_step()
        .iter()
        .map(|seed| match names(seed) {
            Some(n) => format!("{n} {seed}"),
            None => seed.clone(),
        })
        .collect();
    if !said.is_empty() {
        ui.add(egui::Label::new(format!("Sounds: {}", said.join(", "))).truncate());
    }
}

enum Msg {
    Play(Arc<Sound>),
    Volume(u8),
    Stop,
}

/// The audio device: a thread that mixes the sounds it is sent and writes them to ALSA.
pub struct Output {
    tx: mpsc::Sender<Msg>,
}

impl Output {
    /// Opens ALSA's default device (16-bit mono at PuzzleScript's 5,512 Hz; ALSA resamples) on
    /// a thread of its own; an error says why there is none (no library, no device).
    fn open(volume: u8) -> Result<Output, String> {
        let (tx, rx) = mpsc::channel::<Msg>();
        let (ready_tx, ready_rx) = mpsc::sync_channel::<Result<(), String>>(1);
        std::thread::Builder::new()
            .name("tessera-audio".into())
            .spawn(move || {
                let pcm = match alsa::Pcm::open() {
                    Ok(p) => {
                        let _ = ready_tx.send(Ok(()));
                        p
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                run(&pcm, &rx, volume);
            })
            .map_err(|e| e.to_string())?;
        // Opening a device answers at once; never hang the window on one that does not.
        match ready_rx.recv_timeout(std::time::Duration::from_secs(2)) {
            Ok(Ok(())) => Ok(Output { tx }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the audio device did not answer".into()),
        }
    }

    fn send(&self, msg: Msg) {
        let _ = self.tx.send(msg);
    }
}

/// The mixing loop: waits while nothing plays, else writes 1/20 s at a time.
fn run(pcm: &alsa::Pcm, rx: &mpsc::Receiver<Msg>, volume: u8) {
    let mut mixer = Mixer::new(volume);
    let mut frames = vec![0i16; (SAMPLE_RATE / 20) as usize];
    loop {
        if !mixer.is_playing() {
            match rx.recv() {
                Ok(m) => handle(&mut mixer, m),
                Err(_) => return,
            }
        }
        while let Ok(m) = rx.try_recv() {
            handle(&mut mixer, m);
        }
        mixer.mix(&mut frames);
        if pcm.write(&frames).is_err() {
            return;
        }
    }
}

fn handle(mixer: &mut Mixer, msg: Msg) {
    match msg {
        Msg::Play(s) => mixer.play(s),
        Msg::Volume(v) => mixer.set_volume(v),
        Msg::Stop => mixer.stop(),
    }
}

/// A handful of ALSA's PCM functions, loaded from `libasound.so.2` at run time.
///
/// FFI is unsafe by nature: the workspace denies `unsafe_code`, and this module is its one
/// exception in the editor. Each call passes a handle ALSA gave us and buffers we own for the
/// length we say; the library stays loaded as long as the handle lives (both in `Pcm`, which
/// stays on the audio thread that made it).
#[allow(unsafe_code)]
mod alsa {
    use libloading::{Library, Symbol};
    use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void};

    type Open = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
    type SetParams = unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
    type WriteI = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
    type Recover = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
    type Close = unsafe extern "C" fn(*mut c_void) -> c_int;

    const STREAM_PLAYBACK: c_int = 0;
    const FORMAT_S16_LE: c_int = 2;
    const ACCESS_RW_INTERLEAVED: c_int = 3;

    /// An open playback device.
    pub struct Pcm {
        lib: Library,
        handle: *mut c_void,
    }

    impl Pcm {
        /// Opens the default device for 16-bit mono at 5,512 Hz, 0.1 s of latency.
        pub fn open() -> Result<Pcm, String> {
            // SAFETY: loading libasound runs its initialisers, which only set up the library.
            let lib =
                unsafe { Library::new("libasound.so.2") }.map_err(|e| format!("no ALSA library ({e})"))?;
            let mut handle: *mut c_void = std::ptr::null_mut();
            // SAFETY: the signatures are ALSA's (alsa/pcm.h); the name is a NUL-terminated
            // string, the handle a place for ALSA to write one pointer.
            let opened = unsafe {
                let open: Symbol<Open> = lib.get(b"snd_pcm_open\0").map_err(|e| e.to_string())?;
                open(&mut handle, c"default".as_ptr(), STREAM_PLAYBACK, 0)
            };
            if opened < 0 || handle.is_null() {
                return Err(format!("no audio device (ALSA error {opened})"));
            }
            let pcm = Pcm { lib, handle };
            // SAFETY: as above; the handle is the one snd_pcm_open gave.
            let set = unsafe {
                let set: Symbol<SetParams> =
                    pcm.lib.get(b"snd_pcm_set_params\0").map_err(|e| e.to_string())?;
                set(
                    pcm.handle,
                    FORMAT_S16_LE,
                    ACCESS_RW_INTERLEAVED,
                    1,
                    tessera_sound::SAMPLE_RATE,
                    1,
                    100_000,
                )
            };
            if set < 0 {
                return Err(format!("the audio device refused 16-bit mono (ALSA error {set})"));
            }
            Ok(pcm)
        }

        /// Writes `frames`, recovering from an underrun; an error ends playback.
        pub fn write(&self, frames: &[i16]) -> Result<(), ()> {
            // SAFETY: the buffer holds `frames.len()` mono frames for the call's length.
            unsafe {
                let write: Symbol<WriteI> = self.lib.get(b"snd_pcm_writei\0").map_err(|_| ())?;
                let recover: Symbol<Recover> = self.lib.get(b"snd_pcm_recover\0").map_err(|_| ())?;
                let mut at = 0usize;
                while at < frames.len() {
                    let n = write(self.handle, frames[at..].as_ptr().cast(), (frames.len() - at) as c_ulong);
                    if n < 0 {
                        if recover(self.handle, n as c_int, 1) < 0 {
                            return Err(());
                        }
                    } else {
                        at += n as usize;
                    }
                }
            }
            Ok(())
        }
    }

    impl Drop for Pcm {
        fn drop(&mut self) {
            // SAFETY: the handle is open and closed once, here.
            unsafe {
                if let Ok(close) = self.lib.get::<Close>(b"snd_pcm_close\0") {
                    close(self.handle);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_s_turns_play_again_interval_apart_and_mute_still_records() {
        let mut a = Audio::default();
        a.schedule(StepSounds {
            start: 1.0,
            secs: 0.15,
            turns: vec![vec!["1".into(), "2".into()], vec![], vec!["3".into()]],
        });
        assert_eq!(a.last_step(), ["1", "2", "3"]);
        assert!(a.tick(1.0), "the third turn's sound waits");
        assert_eq!(a.played(), ["1", "2"]);
        assert!(a.tick(1.29));
        assert!(!a.tick(1.3));
        assert_eq!(a.played(), ["1", "2", "3"]);
        a.set_settings(SoundSettings { muted: true, volume: 10 });
        a.play_now("142315");
        assert_eq!(a.played().last().map(String::as_str), Some("142315"));
        assert!(a.take_notice().is_none(), "no device is ever opened in tests");
    }
}
