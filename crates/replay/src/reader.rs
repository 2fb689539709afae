//! Reading logs: [`Log`] checks every frame on open and gives steps, keyframes, notes and the
//! state at any step.
//!
//! `Log` checks every length against `MAX_PAYLOAD` before reading and every crc on open, keeps a
//! cut tail's whole frames (`dropped_bytes`) but refuses as `CorruptTail` a tail that is not one
//! partial frame (a damaged length hiding whole frames: `check_cut_tail`, the rule in the format
//! docs), decodes steps on demand, and seeks from the nearest keyframe (`state_at`). Opening is one
//! pass, each frame checked before the next (one crc call over kind and payload, with a copy of one
//! hasher); a log file of 4 MiB or more is read into an anonymous mapping advised to use huge pages
//! (`memmap2`, safe API), because most of the time of opening a large log is the kernel handing out
//! and zeroing pages.

use crate::error::LogError;
use crate::format::{
    At, FORMAT_VERSION, FRAME_HEADER_LEN, FrameKind, Header, HeaderPayload, KeyframePayload,
    KeyframePayloadV2, MAGIC, MAX_LOG_SIZE, MAX_PAYLOAD, Note, OLDEST_FORMAT_VERSION, PREAMBLE_LEN,
    StepRecord, check_header, decode_all, decode_step, decode_step_number, frame_crc,
};
use std::path::Path;
use tessera_core::{AnyCommand, AnyRules, AnyState, Game, KeyframeError, Rules};

/// Where a frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameRef {
    /// Byte offset of the frame's first byte.
    pub offset: u64,
    /// Its kind.
    pub kind: FrameKind,
}

/// How a log that ends inside a frame was opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TailPolicy {
    /// Keep every whole frame and report the bytes dropped (the log of a crashed recording).
    Lenient,
    /// Refuse it with [`LogError::Truncated`].
    Strict,
}

/// An opened log: its header and an index of its frames, every length and crc checked.
///
/// Opening reads the whole file into memory, walks every frame checking its length against
/// [`crate::MAX_PAYLOAD`] (before reading it), decodes the header, checks the step numbers of
/// keyframes and notes, and checks every frame's crc. Step payloads are decoded when asked for
/// ([`Log::read_step`]), so a log of a million steps opens in the time it takes to read and crc
/// it. A log file of 4 MiB or more is read into memory advised to use huge pages (see
/// `read_large`): most of the time of opening a large log is the kernel handing out pages.
#[derive(Debug)]
pub struct Log {
    header: Header,
    rules: AnyRules,
    /// The level's start state (format 2 keyframes of tactics take their terrain from it).
    start_state: AnyState,
    bytes: Bytes,
    frames: Vec<FrameRef>,
    /// `steps[n - 1]`: index in `frames` of step `n`'s frame.
    steps: Vec<u32>,
    /// `(step, frame index)` of every keyframe, in order.
    keyframes: Vec<(u64, u32)>,
    notes: Vec<Note>,
    /// Bytes after the last whole frame (a cut tail), dropped.
    dropped: u64,
}

impl Log {
    /// Opens the log at `path`, keeping every whole frame of a log whose last frame is cut
    /// short (see [`Log::dropped_bytes`]). Reads at most [`MAX_LOG_SIZE`] bytes: a larger
    /// file is [`LogError::TooLarge`].
    pub fn open(path: impl AsRef<Path>) -> Result<Log, LogError> {
        Log::from_storage(read_capped(path.as_ref(), MAX_LOG_SIZE)?, TailPolicy::Lenient)
    }

    /// Reads a log from its bytes.
    pub fn from_bytes(bytes: Vec<u8>, tail: TailPolicy) -> Result<Log, LogError> {
        Log::from_storage(Bytes::Owned(bytes), tail)
    }

    /// Walks every frame in order, each checked (length, crc, kind, step numbers) before the
    /// next is read: the first error in file order is the one reported.
    ///
    /// One pass on one thread: crc-checking on other threads after the walk was measured slower
    /// on a busy two-core machine (the frames are read from memory twice, and the walk itself
    /// waits on memory), and no faster than this on an idle one.
    fn from_storage(bytes: Bytes, tail: TailPolicy) -> Result<Log, LogError> {
        let (header, at) = read_header(&bytes)?;
        // The rules of the version that recorded the log, and the start it began with, when this
        // build keeps it; otherwise today's (verify then reports the versions differ, and most
        // likely a divergence).
        let game = header
            .level
            .start_version(Some(header.seed), header.rules_version)
            .map_err(|e| LogError::BadLevel { offset: at.offset, message: e.to_string() })?;
        let mut log = Log {
            header,
            rules: game.rules,
            start_state: game.state,
            bytes: Bytes::Owned(Vec::new()),
            frames: vec![FrameRef { offset: PREAMBLE_LEN as u64, kind: FrameKind::Header }],
            steps: Vec::new(),
            keyframes: Vec::new(),
            notes: Vec::new(),
            dropped: 0,
        };
        // `Hasher::new` detects the CPU's features each time, which costs as much as hashing a
        // short frame: every frame is hashed with a copy of this one.
        let fresh = crc32fast::Hasher::new();
        let mut pos = at.end;
        while pos < bytes.len() {
            let frame = log.frames.len() as u64;
            let at = At { offset: pos as u64, frame };
            let (kind, payload, end) = match read_frame(&bytes, pos, frame, &fresh) {
                Ok(f) => f,
                Err(e @ LogError::Truncated { .. }) => {
                    // Only a cut last frame is excused; a damaged length that reaches past the
                    // end is corruption (see "Cut tails" in the crate docs).
                    check_cut_tail(&bytes, pos, frame)?;
                    match tail {
                        TailPolicy::Strict => return Err(e),
                        TailPolicy::Lenient => {
                            log.dropped = (bytes.len() - pos) as u64;
                            break;
                        }
                    }
                }
                Err(e) => return Err(e),
            };
            let steps = log.steps.len() as u64;
            let index = u32::try_from(log.frames.len()).map_err(|_| LogError::Malformed {
                offset: at.offset,
                frame,
                message: "more than 2^32 frames".into(),
            })?;
            match kind {
                FrameKind::Header => {
                    return Err(LogError::Malformed {
                        offset: at.offset,
                        frame,
                        message: "a second header frame".into(),
                    });
                }
                FrameKind::Step => log.steps.push(index),
                FrameKind::Keyframe => {
                    let n = decode_step_number(payload, at, kind)?;
                    check_step_number(n, steps, at, kind)?;
                    log.keyframes.push((n, index));
                }
                FrameKind::Note => {
                    let note: Note = decode_all(payload, at, kind)?;
                    check_step_number(note.step, steps, at, kind)?;
                    log.notes.push(note);
                }
            }
            log.frames.push(FrameRef { offset: at.offset, kind });
            pos = end;
        }
        let mut bytes = bytes;
        bytes.truncate(bytes.len() - log.dropped as usize);
        log.bytes = bytes;
        Ok(log)
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The log's format version (1 or 2; see [`crate::FORMAT_VERSION`]).
    pub fn format_version(&self) -> u32 {
        self.header.format_version
    }

    /// The rules the log is replayed with: the header's level's, behaving as the recorded
    /// rules version when this build keeps it ([`Log::rules_version`]).
    pub fn rules(&self) -> &AnyRules {
        &self.rules
    }

    /// The version of the rules the log's games are replayed with: the recorded one when this
    /// build keeps it ([`tessera_core::RuleSet::keeps_version`]), else today's.
    pub fn rules_version(&self) -> u32 {
        self.rules.version()
    }

    /// The game the log starts from: the header's level started with the header's seed, by
    /// today's code.
    pub fn start(&self) -> Result<Game, LogError> {
        // Started once, on open (a large map's level is slow to parse); a copy is the same game.
        Ok(Game { rules: self.rules.clone(), state: self.start_state.clone() })
    }

    /// Whether the keyframe of step `step` (if the log has one) differs from `state`: `None`
    /// when there is no keyframe there or it is equal, else the keyframe's state hash (of the
    /// log's format version). A format-2 keyframe is compared as stored, without building a
    /// state (a tactics keyframe leaves out the terrain, which is the level's, as `state`'s is).
    pub(crate) fn keyframe_differs(&self, step: u64, state: &AnyState) -> Result<Option<u64>, LogError> {
        let Ok(k) = self.keyframes.binary_search_by_key(&step, |&(s, _)| s) else { return Ok(None) };
        if self.header.format_version >= 2 {
            let (at, payload) = self.payload(self.keyframes[k].1 as usize);
            let p: KeyframePayloadV2 = decode_all(payload, at, FrameKind::Keyframe)?;
            if p.state.matches(state) {
                return Ok(None);
            }
        }
        let kept = self.decode_keyframe(k)?;
        Ok((kept != *state).then(|| self.header.state_hash(&kept)))
    }

    /// How many steps the log holds.
    pub fn steps(&self) -> u64 {
        self.steps.len() as u64
    }

    /// Every frame, in file order (frame 0 is the header).
    pub fn frames(&self) -> &[FrameRef] {
        &self.frames
    }

    /// The steps that have a keyframe, in order.
    pub fn keyframe_steps(&self) -> impl Iterator<Item = u64> + '_ {
        self.keyframes.iter().map(|&(s, _)| s)
    }

    /// The notes, in order.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The step the player was on when the log was saved, if a note says so (the last note
    /// starting with [`crate::PLAYER_NOTE`]: the web player's "Report a problem" log).
    pub fn player_step(&self) -> Option<u64> {
        self.notes.iter().rev().find(|n| n.text.starts_with(crate::PLAYER_NOTE)).map(|n| n.step)
    }

    /// Bytes after the last whole frame that were dropped on open (0 for a clean log).
    pub fn dropped_bytes(&self) -> u64 {
        self.dropped
    }

    /// The bytes of every whole frame: what `tessera replay repair` writes back.
    pub fn whole_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Offset of the frame `index` and its payload.
    fn payload(&self, index: usize) -> (At, &[u8]) {
        let offset = self.frames[index].offset as usize;
        let len = u32_at(&self.bytes, offset) as usize;
        let start = offset + FRAME_HEADER_LEN;
        (At { offset: offset as u64, frame: index as u64 }, &self.bytes[start..start + len])
    }

    /// The frame index and offset of step `step` (1-based).
    pub fn step_frame(&self, step: u64) -> Option<FrameRef> {
        let i = *self.steps.get(usize::try_from(step.checked_sub(1)?).ok()?)?;
        Some(self.frames[i as usize])
    }

    /// Decodes step `step` (1 for the first command) into `out`, reusing its buffers.
    pub fn read_step(&self, step: u64, out: &mut StepRecord) -> Result<(), LogError> {
        let i = step
            .checked_sub(1)
            .and_then(|i| self.steps.get(i as usize))
            .ok_or(LogError::NoSuchStep { step, steps: self.steps() })?;
        let (at, payload) = self.payload(*i as usize);
        decode_step(payload, at, out)
    }

    /// The command of step `step` (1-based) alone, its events left unread: what a search of
    /// the commands' text reads (a step's events can be most of its bytes). The rest of the
    /// step is not checked; [`Log::read_step`] checks it.
    pub fn read_command(&self, step: u64) -> Result<AnyCommand, LogError> {
        let i = step
            .checked_sub(1)
            .and_then(|i| self.steps.get(i as usize))
            .ok_or(LogError::NoSuchStep { step, steps: self.steps() })?;
        let (at, payload) = self.payload(*i as usize);
        crate::format::decode_step_command(payload, at)
    }

    /// Decodes the payload of frame `index` as the kind it is, for export.
    pub(crate) fn decode_frame(&self, index: usize) -> Result<Decoded, LogError> {
        let (at, payload) = self.payload(index);
        let kind = self.frames[index].kind;
        Ok(match kind {
            FrameKind::Header => Decoded::Header,
            FrameKind::Step => {
                let mut rec = StepRecord::default();
                decode_step(payload, at, &mut rec)?;
                Decoded::Step(rec)
            }
            FrameKind::Keyframe => {
                let (step, state) = self.decode_keyframe_frame(index)?;
                Decoded::Keyframe(step, Box::new(state))
            }
            FrameKind::Note => Decoded::Note(decode_all(payload, at, kind)?),
        })
    }

    /// The keyframe of step `step`, if the log has one.
    pub fn keyframe(&self, step: u64) -> Result<Option<AnyState>, LogError> {
        let Ok(k) = self.keyframes.binary_search_by_key(&step, |&(s, _)| s) else { return Ok(None) };
        self.decode_keyframe(k).map(Some)
    }

    fn decode_keyframe(&self, k: usize) -> Result<AnyState, LogError> {
        self.decode_keyframe_frame(self.keyframes[k].1 as usize).map(|(_, state)| state)
    }

    /// The step and state of the keyframe in frame `index`, in the log's format version.
    fn decode_keyframe_frame(&self, index: usize) -> Result<(u64, AnyState), LogError> {
        let (at, payload) = self.payload(index);
        let kind = FrameKind::Keyframe;
        let (step, state) = if self.header.format_version <= 1 {
            let p: KeyframePayload = decode_all(payload, at, kind)?;
            (p.step, p.state)
        } else {
            let p: KeyframePayloadV2 = decode_all(payload, at, kind)?;
            let state = p.state.into_state(&self.start_state).map_err(|e| match e {
                KeyframeError::OtherRuleSet { .. } => {
                    LogError::Malformed { offset: at.offset, frame: at.frame, message: e.to_string() }
                }
                KeyframeError::Invalid(e) => at.undecodable(kind, e),
            })?;
            (p.step, state)
        };
        if state.rule_set() != self.header.rule_set {
            return Err(LogError::Malformed {
                offset: at.offset,
                frame: at.frame,
                message: format!("a {} keyframe in a {} log", state.rule_set(), self.header.rule_set),
            });
        }
        Ok((step, state))
    }

    /// The state after `step` steps, as the log recorded it: from the nearest keyframe at or
    /// before `step` (or the level's start), redoing the recorded events of the steps between.
    /// The result's hash is checked against the hash recorded for `step`.
    pub fn state_at(&self, step: u64) -> Result<AnyState, LogError> {
        if step > self.steps() {
            return Err(LogError::NoSuchStep { step, steps: self.steps() });
        }
        let k = self.keyframes.partition_point(|&(s, _)| s <= step);
        let (mut state, from) = match k.checked_sub(1) {
            Some(k) => (self.decode_keyframe(k)?, self.keyframes[k].0),
            None => (self.start()?.state, 0),
        };
        let mut rec = StepRecord::default();
        for n in from + 1..=step {
            self.read_step(n, &mut rec)?;
            // Events of a log that was not written by tessera may not fit the board: redo is
            // checked, and says which event does not fit and why.
            self.rules.redo(&mut state, &rec.events).map_err(|e| self.unfit(n, &rec, &e))?;
        }
        if step > from {
            let hash = self.header.state_hash(&state);
            if hash != rec.hash {
                return Err(self.inconsistent(
                    step,
                    format!("the state hash is {hash:016x}, the log recorded {:016x}", rec.hash),
                ));
            }
        }
        Ok(state)
    }

    /// The log's bytes with a note about step `step` inserted where the format puts it: after
    /// that step's frame and the keyframe and notes that follow it. (Write them back with
    /// [`crate::atomic_write`].)
    pub fn with_note(&self, step: u64, text: &str) -> Result<Vec<u8>, LogError> {
        if step > self.steps() {
            return Err(LogError::NoSuchStep { step, steps: self.steps() });
        }
        let at = self.step_frame(step + 1).map_or(self.bytes.len(), |f| f.offset as usize);
        let mut payload = Vec::new();
        crate::format::encode_into(&Note { step, text: text.to_string() }, &mut payload);
        let mut out = Vec::with_capacity(self.bytes.len() + payload.len() + FRAME_HEADER_LEN);
        out.extend_from_slice(&self.bytes[..at]);
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&frame_crc(FrameKind::Note.byte(), &payload).to_le_bytes());
        out.push(FrameKind::Note.byte());
        out.extend_from_slice(&payload);
        out.extend_from_slice(&self.bytes[at..]);
        Ok(out)
    }

    /// The error for step `step`'s events not fitting the state they are redone on.
    pub(crate) fn unfit(&self, step: u64, rec: &StepRecord, e: &tessera_core::Inconsistent) -> LogError {
        let event = rec.events.get(e.event).map_or_else(String::new, |ev| format!(" {}", ev.to_json()));
        self.inconsistent(step, format!("event {}{event} does not fit the state: {}", e.event, e.reason))
    }

    pub(crate) fn inconsistent(&self, step: u64, message: String) -> LogError {
        let offset = self.step_frame(step).map_or(0, |f| f.offset);
        LogError::Inconsistent { offset, step, message }
    }
}

/// A decoded frame.
pub(crate) enum Decoded {
    Header,
    Step(StepRecord),
    Keyframe(u64, Box<AnyState>),
    Note(Note),
}

/// A log's bytes in memory.
enum Bytes {
    /// Read into a vector, or given as one.
    Owned(Vec<u8>),
    /// A large log read from a file into an anonymous mapping advised to use huge pages (see
    /// [`read_large`]); its first `len` bytes.
    #[cfg(unix)]
    Mapped { map: memmap2::MmapMut, len: usize },
}

impl Bytes {
    /// Keeps the first `len` bytes.
    fn truncate(&mut self, new_len: usize) {
        match self {
            Bytes::Owned(v) => v.truncate(new_len),
            #[cfg(unix)]
            Bytes::Mapped { len, .. } => *len = new_len.min(*len),
        }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            #[cfg(unix)]
            Bytes::Mapped { map, len } => &map[..*len],
        }
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} bytes", self.len())
    }
}

/// The bytes of `path`, refusing a file of more than `limit` bytes before reading it (when its
/// size is known) or once `limit` bytes were read (a pipe, a device).
fn read_capped(path: &Path, limit: u64) -> Result<Bytes, LogError> {
    let file = std::fs::File::open(path)?;
    let known = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    #[cfg(unix)]
    if let Some(n) = known
        && n >= LARGE as u64
        && n <= limit
        && let Ok(n) = usize::try_from(n)
    {
        return read_large(&file, n);
    }
    read_log_bytes(file, known, limit).map(Bytes::Owned)
}

/// Log files of at least this many bytes are read by [`read_large`].
const LARGE: usize = 4 << 20;

/// Reads the `n` bytes of a regular file, the magic first (so that a large file that is no log
/// is refused after eight bytes).
///
/// Most of the time of reading a large log goes to the kernel handing out fresh pages (each
/// zeroed) and copying into them: the bytes go into an anonymous mapping advised to use
/// transparent huge pages (2 MiB each, where the system has them: an 80 MB log then costs about
/// 40 page faults instead of 20,000, and reads in less than half the time). Where the mapping
/// cannot be made, a vector is used. (Reading parts on several threads was measured no faster
/// on a busy two-core machine.) A file that shrank while read is an error; one that grew is read
/// up to `n` bytes (the bytes appended are not part of what was opened).
#[cfg(unix)]
fn read_large(file: &std::fs::File, n: usize) -> Result<Bytes, LogError> {
    use std::os::unix::fs::FileExt;
    let mut magic = [0u8; MAGIC.len()];
    file.read_exact_at(&mut magic, 0)?;
    if magic != MAGIC {
        return Err(LogError::BadMagic { found: magic.to_vec() });
    }
    let mut bytes = match memmap2::MmapMut::map_anon(n) {
        Ok(map) => {
            // Only advice: without huge pages the mapping works the same, a page at a time.
            let _ = map.advise(memmap2::Advice::HugePage);
            Bytes::Mapped { map, len: n }
        }
        // Zeroed memory comes from the allocator as untouched pages too.
        Err(_) => Bytes::Owned(vec![0u8; n]),
    };
    let buf: &mut [u8] = match &mut bytes {
        Bytes::Owned(v) => v,
        Bytes::Mapped { map, .. } => &mut map[..],
    };
    file.read_exact_at(buf, 0)?;
    Ok(bytes)
}

/// Reads a log from `reader` (`known`: its size, when known): the magic first, so that a
/// stream of something else (`/dev/zero`) stops after eight bytes, then at most `limit` bytes.
fn read_log_bytes(reader: impl std::io::Read, known: Option<u64>, limit: u64) -> Result<Vec<u8>, LogError> {
    use std::io::Read;
    if known.is_some_and(|n| n > limit) {
        return Err(LogError::TooLarge { limit });
    }
    let mut reader = reader.take(limit + 1);
    let mut bytes = Vec::with_capacity(known.map_or(MAGIC.len(), |n| n as usize));
    (&mut reader).take(MAGIC.len() as u64).read_to_end(&mut bytes)?;
    if bytes[..] != MAGIC[..bytes.len()] {
        return Err(LogError::BadMagic { found: bytes });
    }
    reader.read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(LogError::TooLarge { limit });
    }
    Ok(bytes)
}

fn check_step_number(n: u64, steps: u64, at: At, kind: FrameKind) -> Result<(), LogError> {
    if n != steps {
        return Err(LogError::Malformed {
            offset: at.offset,
            frame: at.frame,
            message: format!("a {} for step {n} after {steps} steps", kind.name()),
        });
    }
    Ok(())
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// Where the header frame ends.
struct HeaderAt {
    offset: u64,
    end: usize,
}

/// Checks the preamble and reads the header frame (which a cut tail never excuses).
fn read_header(bytes: &[u8]) -> Result<(Header, HeaderAt), LogError> {
    if bytes.is_empty() {
        return Err(LogError::Empty);
    }
    let n = bytes.len().min(MAGIC.len());
    if bytes[..n] != MAGIC[..n] {
        return Err(LogError::BadMagic { found: bytes[..n].to_vec() });
    }
    if bytes.len() < PREAMBLE_LEN {
        return Err(LogError::Truncated {
            offset: 0,
            frame: 0,
            needed: PREAMBLE_LEN as u64,
            available: bytes.len() as u64,
        });
    }
    let version = u32_at(bytes, MAGIC.len());
    if !(OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(LogError::UnsupportedVersion {
            offset: MAGIC.len() as u64,
            version,
            supported: FORMAT_VERSION,
        });
    }
    let pos = PREAMBLE_LEN;
    let (kind, payload, end) = read_frame(bytes, pos, 0, &crc32fast::Hasher::new())?;
    let at = At { offset: pos as u64, frame: 0 };
    if kind != FrameKind::Header {
        return Err(LogError::Malformed {
            offset: at.offset,
            frame: 0,
            message: format!("the first frame is a {}, not the header", kind.name()),
        });
    }
    let p: HeaderPayload = decode_all(payload, at, kind)?;
    Ok((check_header(p, version, at)?, HeaderAt { offset: at.offset, end }))
}

/// The most payload bytes [`check_cut_tail`] crcs while looking for whole frames in a tail
/// (256 MiB: well under a second). Past it the search stops and the tail is taken as cut.
pub(crate) const TAIL_SCAN_LIMIT: u64 = 256 << 20;

/// Whether a frame header could start at `q`: nine bytes, a step, keyframe or note kind, and a
/// length within [`MAX_PAYLOAD`]. Returns the declared length.
fn plausible_header(bytes: &[u8], q: usize) -> Option<usize> {
    if bytes.len() - q < FRAME_HEADER_LEN {
        return None;
    }
    let length = u32_at(bytes, q);
    let kind = FrameKind::from_byte(bytes[q + 8])?;
    (kind != FrameKind::Header && length <= MAX_PAYLOAD).then_some(length as usize)
}

/// Checks that the bytes from `pos` (after the last whole frame, where the frame at `pos` runs
/// past the end of the file) are what a crash while appending leaves: a strict prefix of one
/// frame. The rule, from the crate docs ("Cut tails"), is refused with [`LogError::CorruptTail`]:
///
/// 1. a tail of nine bytes or more has a step, keyframe or note kind byte;
/// 2. its stored crc does not match the kind and all the bytes after its header (if it does,
///    the frame is whole and its length field was damaged);
/// 3. no whole frame starts at a later byte of the tail: a plausible header (kind step,
///    keyframe or note, length within the file), followed by the end of the file, by fewer than
///    nine bytes, or by another plausible header, and whose crc matches.
///
/// The crcs of rule 3 cover at most [`TAIL_SCAN_LIMIT`] bytes, so a hostile tail cannot make
/// opening quadratic; past the limit the tail is taken as cut (and still dropped and reported).
fn check_cut_tail(bytes: &[u8], pos: usize, frame: u64) -> Result<(), LogError> {
    let corrupt = |message: String| LogError::CorruptTail { offset: pos as u64, frame, message };
    let n = bytes.len();
    if n - pos >= FRAME_HEADER_LEN {
        let kind_byte = bytes[pos + 8];
        let Some(kind) = FrameKind::from_byte(kind_byte).filter(|&k| k != FrameKind::Header) else {
            return Err(corrupt(format!(
                "its kind byte {kind_byte} is not a step, keyframe or note, so it is no cut frame"
            )));
        };
        let stored = u32_at(bytes, pos + 4);
        if frame_crc(kind_byte, &bytes[pos + FRAME_HEADER_LEN..]) == stored {
            return Err(corrupt(format!(
                "a whole {} frame of {} bytes whose length field says {}: the length is damaged",
                kind.name(),
                n - pos - FRAME_HEADER_LEN,
                u32_at(bytes, pos)
            )));
        }
    }
    let mut budget = TAIL_SCAN_LIMIT;
    for q in pos + 1..n {
        let Some(length) = plausible_header(bytes, q) else { continue };
        let end = q + FRAME_HEADER_LEN + length;
        if end > n || !(end == n || n - end < FRAME_HEADER_LEN || plausible_header(bytes, end).is_some()) {
            continue;
        }
        let Some(left) = budget.checked_sub(length as u64 + 1) else { break };
        budget = left;
        let kind_byte = bytes[q + 8];
        if frame_crc(kind_byte, &bytes[q + FRAME_HEADER_LEN..end]) == u32_at(bytes, q + 4) {
            let kind = FrameKind::from_byte(kind_byte).map_or("?", FrameKind::name);
            return Err(corrupt(format!(
                "its length field ({} bytes) runs past the end of the file, but a whole {kind} frame \
                 starts at byte {q}: the length is damaged",
                u32_at(bytes, pos)
            )));
        }
    }
    Ok(())
}

/// Reads the frame at `pos`: its kind, payload and end, with the length checked against the
/// limit before anything else and the crc checked (computed with a copy of `fresh`, a new
/// hasher).
fn read_frame<'a>(
    bytes: &'a [u8],
    pos: usize,
    frame: u64,
    fresh: &crc32fast::Hasher,
) -> Result<(FrameKind, &'a [u8], usize), LogError> {
    let offset = pos as u64;
    let available = (bytes.len() - pos) as u64;
    if available < FRAME_HEADER_LEN as u64 {
        return Err(LogError::Truncated { offset, frame, needed: FRAME_HEADER_LEN as u64, available });
    }
    let length = u32_at(bytes, pos);
    if length > MAX_PAYLOAD {
        return Err(LogError::Oversized { offset, frame, length, limit: MAX_PAYLOAD });
    }
    let needed = FRAME_HEADER_LEN as u64 + u64::from(length);
    if available < needed {
        return Err(LogError::Truncated { offset, frame, needed, available });
    }
    let stored = u32_at(bytes, pos + 4);
    let kind_byte = bytes[pos + 8];
    let start = pos + FRAME_HEADER_LEN;
    let end = start + length as usize;
    // The kind byte sits just before the payload: one crc call over both.
    let mut h = fresh.clone();
    h.update(&bytes[pos + 8..end]);
    let computed = h.finalize();
    if stored != computed {
        return Err(LogError::CrcMismatch { offset, frame, stored, computed });
    }
    // The error is built only when it happens (built and dropped for every frame, it cost a
    // twentieth of the instructions of opening a million-step log).
    let Some(kind) = FrameKind::from_byte(kind_byte) else {
        return Err(LogError::UnknownKind { offset, frame, kind: kind_byte });
    };
    Ok((kind, &bytes[start..end], end))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 12: a log that never ends is refused at the limit, not read until memory runs out;
    /// one that is not a log stops at its magic.
    #[test]
    fn reading_a_log_stops_at_the_size_limit() {
        use std::io::Read;
        let endless = MAGIC.chain(std::io::repeat(7));
        assert_eq!(read_log_bytes(endless, None, 4096), Err(LogError::TooLarge { limit: 4096 }));
        assert_eq!(
            read_log_bytes(std::io::empty(), Some(5000), 4096),
            Err(LogError::TooLarge { limit: 4096 })
        );
        let zeros = std::io::repeat(0);
        assert_eq!(read_log_bytes(zeros, None, 1 << 40), Err(LogError::BadMagic { found: vec![0; 8] }));
        let whole = MAGIC.chain(&[1u8, 2, 3][..]);
        assert_eq!(read_log_bytes(whole, None, 11).unwrap().len(), 11);
        assert_eq!(read_log_bytes(std::io::empty(), None, 11).unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn header_at_offset_is_after_the_preamble() {
        let bytes = crate::format::MAGIC.to_vec();
        assert!(matches!(read_header(&bytes), Err(LogError::Truncated { offset: 0, needed: 12, .. })));
    }
}
