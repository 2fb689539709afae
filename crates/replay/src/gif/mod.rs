//! Animated GIFs of a line of play: one frame for the start and one for every turn after it,
//! the `again` turns of a PuzzleScript step included, as PuzzleScript's Ctrl+K records them
//! (`makegif.js`: a frame after the input's turn, then one after each `again` turn while the
//! game is "againing").
//!
//! - A PuzzleScript game is drawn with its sprites ([`art`]): the game's `background_color`,
//!   then each cell's objects from the lowest collision layer up, 5×5 pixels a cell, each pixel
//!   `scale`×`scale` (default [`DEFAULT_SCALE_SPRITES`]).
//! - The other rule sets are drawn plainly ([`text`]): the board's text, as `tessera replay
//!   show` prints it, in a 3×5 pixel font, each character on a cell of its own colour.
//!
//! **Timing** (GIF delays are in hundredths of a second). PuzzleScript's recorder shows the
//! level's start 200 ms and then each frame for `key_repeat_interval` (an input's turn),
//! `realtime_interval` (a tick) or `again_interval` (an `again` turn), but sets each delay one
//! frame late (`setDelay` after `addFrame`), so a frame is shown for the interval of the turn
//! *before* it. Here each frame is shown until the next turn would come in play: for the
//! game's `again_interval` when an `again` turn follows, `realtime_interval` when a tick follows
//! (a realtime game), else the delay between key presses, [`GifOptions::delay_ms`] (default: the
//! game's `key_repeat_interval`, 150 ms unless it says; [`DEFAULT_DELAY_MS`] for the other rule
//! sets). The last frame is held [`GifOptions::hold_ms`] (default [`DEFAULT_HOLD_MS`]) so the
//! end reads before the GIF loops. The GIF loops forever.
//!
//! **Size.** Frames after the first hold only the rectangle that changed (the rest is kept from
//! the frame before), and all share the global colour table of the game's colours; a game of
//! more than 256 colours gets a table a frame, each frame quantised to 256.
//!
//! [`log_gif`] makes the GIF of a log (its recorded events, checked: a log whose events do not
//! fit or whose hashes differ is an error naming the step); [`GifMaker`] makes one from any
//! start and steps (the editor's line of play, a solution played through the rules).

pub mod art;
pub mod text;

use crate::{Log, LogError, StepRecord};
use std::borrow::Cow;
use std::collections::HashMap;
use tessera_core::puzzlescript::{PuzzleScriptCommand, PuzzleScriptEvent};
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Inconsistent, Rules};

/// An RGB colour.
pub type Rgb = [u8; 3];

/// Pixels a sprite pixel, by default, for PuzzleScript games (a cell 30 pixels wide).
pub const DEFAULT_SCALE_SPRITES: u16 = 6;
/// Pixels a font pixel, by default, for the plain text pictures (a character 12×18 pixels).
pub const DEFAULT_SCALE_TEXT: u16 = 3;
/// The largest `scale`.
pub const MAX_SCALE: u16 = 32;
/// Milliseconds between key presses, by default, for the rule sets that have no
/// `key_repeat_interval` (all but PuzzleScript).
pub const DEFAULT_DELAY_MS: u32 = 300;
/// Milliseconds the last frame is held, by default.
pub const DEFAULT_HOLD_MS: u32 = 1000;
/// The longest delay a GIF frame can have (65535 hundredths of a second).
pub const MAX_DELAY_MS: u32 = 655_350;
/// The most frames a GIF made here holds (a longer line of play is refused, not cut).
pub const MAX_FRAMES: u64 = 100_000;
/// The most pixels a frame may have (4096×4096).
pub const MAX_PIXELS: u64 = 1 << 24;

/// How to draw and time a GIF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GifOptions {
    /// Pixels a sprite (or font) pixel, 1 to [`MAX_SCALE`]; `None`: [`DEFAULT_SCALE_SPRITES`]
    /// for PuzzleScript, [`DEFAULT_SCALE_TEXT`] for the others.
    pub scale: Option<u16>,
    /// Milliseconds between key presses (a frame shown before the next input's turn); `None`:
    /// the game's `key_repeat_interval`, or [`DEFAULT_DELAY_MS`].
    pub delay_ms: Option<u32>,
    /// Milliseconds the last frame is shown; `None`: [`DEFAULT_HOLD_MS`].
    pub hold_ms: Option<u32>,
}

/// Why no GIF was made.
#[derive(Debug, thiserror::Error)]
pub enum GifError {
    /// The log could not be read, or its events do not fit (names the step).
    #[error(transparent)]
    Log(#[from] LogError),
    /// A step of a line of play given to [`GifMaker`] does not fit its state.
    #[error("step {step}: event {event} does not fit the state: {reason}")]
    Unfit {
        /// The step, from 1.
        step: u64,
        /// The event's index in the step.
        event: usize,
        /// Why.
        reason: String,
    },
    /// A command the rules refused ([`GifMaker::play`]).
    #[error("step {step} ({command}) was refused: {reason}")]
    Refused {
        /// The step, from 1.
        step: u64,
        /// The command.
        command: String,
        /// The rules' reason.
        reason: String,
    },
    /// A bad option.
    #[error("{0}")]
    Option(String),
    /// The frames would be larger than a GIF (or this tool) allows.
    #[error(
        "the frames would be {width}×{height} pixels: at most 65535 a side and {MAX_PIXELS} in all; give a smaller --scale"
    )]
    TooLarge {
        /// Width in pixels.
        width: u64,
        /// Height in pixels.
        height: u64,
    },
    /// More frames than [`MAX_FRAMES`].
    #[error("the line of play has more than {MAX_FRAMES} turns, more than one GIF holds here")]
    TooManyFrames,
    /// The encoder failed.
    #[error("writing the GIF: {0}")]
    Encode(String),
}

impl From<gif::EncodingError> for GifError {
    fn from(e: gif::EncodingError) -> Self {
        GifError::Encode(e.to_string())
    }
}

/// A picture, one RGB value a pixel, rows from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// The pixels, row by row.
    pub pixels: Vec<Rgb>,
}

impl Picture {
    /// A picture of one colour.
    pub fn filled(width: usize, height: usize, colour: Rgb) -> Picture {
        Picture { width, height, pixels: vec![colour; width * height] }
    }

    /// Sets a pixel (nothing outside the picture).
    pub fn set(&mut self, x: usize, y: usize, colour: Rgb) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = colour;
        }
    }

    /// A pixel.
    pub fn get(&self, x: usize, y: usize) -> Rgb {
        self.pixels[y * self.width + x]
    }
}

/// What a frame shows the board after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The level's start.
    Start,
    /// A step's own turn (an input, a restart, a command of another rule set).
    Input,
    /// A turn with no input (PuzzleScript's `tick`: a realtime game's clock).
    Tick,
    /// An `again` turn a step queued.
    Again,
}

/// A GIF made: its bytes, frames and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gif {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Its frames: the start, then one a turn.
    pub frames: u64,
    /// Width in pixels.
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
}

/// How the frames are drawn.
enum Look {
    /// PuzzleScript's sprites, frames encoded as they come.
    Sprites { art: art::Art, encoder: Box<Encoder> },
    /// The board's text; frames kept (as text) until the end, which knows the largest.
    Text { frames: Vec<(Vec<Vec<char>>, u16)> },
}

/// The intervals of a game, in milliseconds.
#[derive(Clone, Copy, Debug)]
struct Timing {
    delay: u32,
    again: u32,
    tick: u32,
    hold: u32,
}

/// Makes the GIF of a line of play: [`GifMaker::new`] with the start, then each step
/// ([`GifMaker::step`] with its recorded events, or [`GifMaker::play`] with its command), then
/// [`GifMaker::finish`].
pub struct GifMaker {
    rules: AnyRules,
    state: AnyState,
    look: Look,
    scale: usize,
    timing: Timing,
    /// The frame drawn last, not yet written (its delay depends on the turn after it).
    pending: Option<Pending>,
    frames: u64,
    steps: u64,
    events: Vec<AnyEvent>,
}

/// A frame waiting for its delay.
enum Pending {
    Picture(Picture),
    Text(Vec<Vec<char>>),
}

/// Milliseconds of `seconds` (a prelude interval), `None` for one that is not a number of
/// seconds a GIF can show.
fn millis(seconds: f64) -> Option<u32> {
    // IEEE arithmetic on a view's timing, not on rules.
    let ms = (seconds * 1000.0).round();
    (ms.is_finite() && ms >= 0.0 && ms <= f64::from(MAX_DELAY_MS)).then_some(ms as u32)
}

/// Checks a delay option.
fn check_delay(name: &str, ms: Option<u32>) -> Result<(), GifError> {
    match ms {
        Some(ms) if ms > MAX_DELAY_MS => {
            Err(GifError::Option(format!("{name} {ms}: give 0 to {MAX_DELAY_MS} milliseconds")))
        }
        _ => Ok(()),
    }
}

impl GifMaker {
    /// A GIF of a game of `rules` from `start` (its first frame).
    pub fn new(rules: &AnyRules, start: &AnyState, options: &GifOptions) -> Result<GifMaker, GifError> {
        check_delay("--delay", options.delay_ms)?;
        check_delay("--hold", options.hold_ms)?;
        let hold = options.hold_ms.unwrap_or(DEFAULT_HOLD_MS);
        let (look, default_scale, timing) = match (rules, start) {
            (AnyRules::PuzzleScript(r), AnyState::PuzzleScript(_)) => {
                let p = r.game().prelude();
                let delay = options.delay_ms.or_else(|| millis(p.key_repeat_interval)).unwrap_or(150);
                let again = millis(p.again_interval).unwrap_or(150);
                let tick = p.realtime_interval.and_then(millis).unwrap_or(delay);
                let art = art::Art::new(r.game());
                // The encoder is made with the first picture, which gives the size.
                let encoder = Box::new(Encoder::Unstarted(art.colours()));
                (Look::Sprites { art, encoder }, DEFAULT_SCALE_SPRITES, Timing { delay, again, tick, hold })
            }
            _ => {
                let delay = options.delay_ms.unwrap_or(DEFAULT_DELAY_MS);
                let timing = Timing { delay, again: delay, tick: delay, hold };
                (Look::Text { frames: Vec::new() }, DEFAULT_SCALE_TEXT, timing)
            }
        };
        let scale = options.scale.unwrap_or(default_scale);
        if !(1..=MAX_SCALE).contains(&scale) {
            return Err(GifError::Option(format!("--scale {scale}: give 1 to {MAX_SCALE}")));
        }
        let mut maker = GifMaker {
            rules: rules.clone(),
            state: start.clone(),
            look,
            scale: usize::from(scale),
            timing,
            pending: None,
            frames: 0,
            steps: 0,
            events: Vec::new(),
        };
        maker.shot(Turn::Start)?;
        Ok(maker)
    }

    /// The state after the steps so far.
    pub fn state(&self) -> &AnyState {
        &self.state
    }

    /// Frames so far (the last one drawn included).
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The next step, from its recorded command and events (checked, as a log's replay checks
    /// them): a frame after each of its turns.
    pub fn step(&mut self, command: &AnyCommand, events: &[AnyEvent]) -> Result<(), GifError> {
        self.steps += 1;
        let first = first_turn(command);
        let kind = |turn: u32| if turn == 0 { first } else { Turn::Again };
        // A step's events open each turn with `Turn`: the board when the next turn opens is the
        // board after the one before.
        let mut turn = 0;
        for (i, e) in events.iter().enumerate() {
            if let AnyEvent::PuzzleScript(PuzzleScriptEvent::Turn { index }) = e
                && *index > 0
            {
                self.shot(kind(turn))?;
                turn = *index;
            }
            self.redo(i, e)?;
        }
        self.shot(kind(turn))
    }

    /// The next step, played through the rules (a solution, a line of commands).
    pub fn play(&mut self, command: &AnyCommand) -> Result<(), GifError> {
        let mut events = std::mem::take(&mut self.events);
        events.clear();
        let mut state = self.state.clone();
        let applied = self.rules.apply(&mut state, command, &mut events);
        let result = match applied {
            Ok(()) => self.step(command, &events),
            Err(e) => Err(GifError::Refused {
                step: self.steps + 1,
                command: command.to_string(),
                reason: e.to_string(),
            }),
        };
        self.events = events;
        result
    }

    fn redo(&mut self, i: usize, e: &AnyEvent) -> Result<(), GifError> {
        self.rules.redo_event(&mut self.state, e).map_err(|err: Inconsistent| GifError::Unfit {
            step: self.steps,
            event: i,
            reason: err.reason.into_owned(),
        })
    }

    /// A frame of the board as it is now, after a turn of kind `turn`.
    fn shot(&mut self, turn: Turn) -> Result<(), GifError> {
        if self.frames >= MAX_FRAMES {
            return Err(GifError::TooManyFrames);
        }
        // The frame before is shown until this turn comes.
        let delay = match turn {
            Turn::Start => 0,
            Turn::Input => self.timing.delay,
            Turn::Tick => self.timing.tick,
            Turn::Again => self.timing.again,
        };
        self.flush(delay)?;
        self.pending = Some(match &self.look {
            Look::Sprites { art, .. } => {
                let AnyState::PuzzleScript(s) = &self.state else {
                    return Err(GifError::Encode("a PuzzleScript GIF of another game's state".into()));
                };
                Pending::Picture(art.picture(s))
            }
            Look::Text { .. } => Pending::Text(text::lines(&self.state)),
        });
        self.frames += 1;
        Ok(())
    }

    /// Writes the pending frame, shown `delay_ms`.
    fn flush(&mut self, delay_ms: u32) -> Result<(), GifError> {
        let Some(pending) = self.pending.take() else { return Ok(()) };
        let delay = centiseconds(delay_ms);
        match (&mut self.look, pending) {
            (Look::Sprites { encoder, .. }, Pending::Picture(p)) => encoder.frame(&p, self.scale, delay),
            (Look::Text { frames }, Pending::Text(lines)) => {
                frames.push((lines, delay));
                Ok(())
            }
            _ => Err(GifError::Encode("a frame of the wrong kind".into())),
        }
    }

    /// The GIF: the last frame held [`GifOptions::hold_ms`].
    pub fn finish(mut self) -> Result<Gif, GifError> {
        self.flush(self.timing.hold)?;
        let frames = self.frames;
        let (bytes, width, height) = match self.look {
            Look::Sprites { encoder, .. } => encoder.finish()?,
            Look::Text { frames } => {
                let columns =
                    frames.iter().flat_map(|(l, _)| l.iter().map(Vec::len)).max().unwrap_or(0).max(1);
                let rows = frames.iter().map(|(l, _)| l.len()).max().unwrap_or(0).max(1);
                let mut encoder = Encoder::Unstarted(text::colours());
                for (lines, delay) in &frames {
                    encoder.frame(&text::picture(lines, columns, rows), self.scale, *delay)?;
                }
                encoder.finish()?
            }
        };
        Ok(Gif { bytes, frames, width, height })
    }
}

/// The kind of a step's own turn.
fn first_turn(command: &AnyCommand) -> Turn {
    match command {
        AnyCommand::PuzzleScript(PuzzleScriptCommand::Tick) => Turn::Tick,
        _ => Turn::Input,
    }
}

/// Hundredths of a second, rounded to the nearest.
fn centiseconds(ms: u32) -> u16 {
    u16::try_from(ms.div_ceil(5) / 2).unwrap_or(u16::MAX)
}

/// The GIF of a log: its start and every turn of its steps, from the recorded events (each
/// step's hash checked against the log's).
pub fn log_gif(log: &Log, options: &GifOptions) -> Result<Gif, GifError> {
    let game = log.start()?;
    let mut maker = GifMaker::new(&game.rules, &game.state, options)?;
    let mut rec = StepRecord::default();
    for n in 1..=log.steps() {
        log.read_step(n, &mut rec)?;
        let Some(command) = rec.command.clone() else { continue };
        maker.step(&command, &rec.events).map_err(|e| match e {
            GifError::Unfit { event, reason, .. } => {
                GifError::Log(log.unfit(n, &rec, &Inconsistent { event, reason: Cow::Owned(reason) }))
            }
            e => e,
        })?;
        let hash = log.header().state_hash(maker.state());
        if hash != rec.hash {
            return Err(GifError::Log(log.inconsistent(
                n,
                format!("the state hash is {hash:016x}, the log recorded {:016x}", rec.hash),
            )));
        }
    }
    maker.finish()
}

/// The GIF encoder, made with the first frame (which gives the size).
enum Encoder {
    /// No frame yet: the colours the frames use.
    Unstarted(Vec<Rgb>),
    /// Writing.
    Started(Box<Started>),
}

struct Started {
    gif: gif::Encoder<Vec<u8>>,
    /// Each colour's index in the global table (`None`: more than 256 colours, a table a
    /// frame).
    index: Option<HashMap<Rgb, u8>>,
    /// The frame before, unscaled, to write only what changed.
    previous: Picture,
    scale: usize,
}

impl Encoder {
    fn frame(&mut self, picture: &Picture, scale: usize, delay: u16) -> Result<(), GifError> {
        if let Encoder::Unstarted(colours) = self {
            let (w, h) = ((picture.width * scale) as u64, (picture.height * scale) as u64);
            if w == 0 || h == 0 || w > 65_535 || h > 65_535 || w * h > MAX_PIXELS {
                return Err(GifError::TooLarge { width: w, height: h });
            }
            let index = (colours.len() <= 256).then(|| {
                colours.iter().enumerate().map(|(i, c)| (*c, i as u8)).collect::<HashMap<Rgb, u8>>()
            });
            let table: Vec<u8> =
                if index.is_some() { colours.iter().flatten().copied().collect() } else { Vec::new() };
            let mut gif = gif::Encoder::new(Vec::new(), w as u16, h as u16, &table)?;
            gif.set_repeat(gif::Repeat::Infinite)?;
            let started = Started { gif, index, previous: picture.clone(), scale };
            *self = Encoder::Started(Box::new(started));
            let Encoder::Started(s) = self else { unreachable!("just started") };
            return s.write(picture, None, delay);
        }
        let Encoder::Started(s) = self else { unreachable!("started above") };
        if (picture.width, picture.height) != (s.previous.width, s.previous.height) {
            return Err(GifError::Encode("frames of different sizes".into()));
        }
        let changed = changed_rect(&s.previous, picture);
        s.write(picture, Some(changed), delay)?;
        s.previous = picture.clone();
        Ok(())
    }

    /// The bytes, width and height.
    fn finish(self) -> Result<(Vec<u8>, u16, u16), GifError> {
        match self {
            Encoder::Unstarted(_) => Err(GifError::Encode("no frame".into())),
            Encoder::Started(s) => {
                let (w, h) = ((s.previous.width * s.scale) as u16, (s.previous.height * s.scale) as u16);
                Ok((s.gif.into_inner()?, w, h))
            }
        }
    }
}

/// The rectangle (x, y, width, height) of `b` that differs from `a`, at least one pixel.
fn changed_rect(a: &Picture, b: &Picture) -> (usize, usize, usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..b.height {
        for x in 0..b.width {
            if a.pixels[y * b.width + x] != b.pixels[y * b.width + x] {
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
            }
        }
    }
    if x0 == usize::MAX { (0, 0, 1, 1) } else { (x0, y0, x1 - x0 + 1, y1 - y0 + 1) }
}

impl Started {
    /// Writes the part `rect` (unscaled; `None`: all) of `picture`, scaled.
    fn write(
        &mut self,
        picture: &Picture,
        rect: Option<(usize, usize, usize, usize)>,
        delay: u16,
    ) -> Result<(), GifError> {
        let (rx, ry, rw, rh) = rect.unwrap_or((0, 0, picture.width, picture.height));
        let s = self.scale;
        let (w, h) = (rw * s, rh * s);
        let mut frame = match &self.index {
            Some(index) => {
                let mut buffer = Vec::with_capacity(w * h);
                for y in 0..h {
                    for x in 0..w {
                        let c = picture.get(rx + x / s, ry + y / s);
                        // Every colour drawn is in the table (the art's or the text's own).
                        buffer.push(index.get(&c).copied().unwrap_or(0));
                    }
                }
                gif::Frame {
                    width: w as u16,
                    height: h as u16,
                    buffer: Cow::Owned(buffer),
                    ..gif::Frame::default()
                }
            }
            None => {
                let mut rgb = Vec::with_capacity(w * h * 3);
                for y in 0..h {
                    for x in 0..w {
                        rgb.extend_from_slice(&picture.get(rx + x / s, ry + y / s));
                    }
                }
                gif::Frame::from_rgb_speed(w as u16, h as u16, &rgb, 10)
            }
        };
        frame.left = (rx * s) as u16;
        frame.top = (ry * s) as u16;
        frame.delay = delay;
        frame.dispose = gif::DisposalMethod::Keep;
        self.gif.write_frame(&frame)?;
        Ok(())
    }
}
