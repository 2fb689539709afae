//! The bytes of a log: constants, frame kinds, the header and the payload encodings.
//!
//! The layout itself is specified in the crate docs (`lib.rs`); this module is its one
//! implementation, shared by the writer and the reader.

pub(crate) use crate::encode::StepRef;
use crate::error::LogError;
use serde::{Deserialize, Serialize};
use tessera_core::{
    AnyCommand, AnyEvent, AnyKeyframe, AnyKeyframeRef, AnyState, Level, LevelError, RuleSet, canonical_config,
};

/// The eight bytes every log starts with.
pub const MAGIC: [u8; 8] = *b"TESSLOG\0";

/// The format version this crate writes (little-endian `u32` after the magic). It reads every
/// version from [`OLDEST_FORMAT_VERSION`] to this one.
///
/// - 1: step frames record [`AnyState::hash_v1`] (xxh3 of the canonical encoding).
/// - 2: step frames record [`AnyState::hash`] (the incremental hash); nothing else changed.
pub const FORMAT_VERSION: u32 = 2;

/// The oldest format version this crate still reads and verifies (with that version's hash).
pub const OLDEST_FORMAT_VERSION: u32 = 1;

/// The state hash a log of format `version` records after each step: [`AnyState::hash_v1`] for
/// version 1, [`AnyState::hash`] from version 2 on.
pub fn state_hash_for(version: u32, state: &AnyState) -> u64 {
    if version <= 1 { state.hash_v1() } else { state.hash() }
}

/// Bytes before the first frame: the magic and the format version.
pub const PREAMBLE_LEN: usize = 12;

/// Bytes of a frame before its payload: length `u32`, crc32 `u32`, kind `u8`.
pub const FRAME_HEADER_LEN: usize = 9;

/// The largest payload a frame may declare (64 MiB). A reader refuses a larger length before
/// allocating or reading anything; decoding is also capped at this many bytes.
pub const MAX_PAYLOAD: u32 = 64 << 20;

/// The largest log file [`crate::Log::open`] reads (1 GiB): it reads the whole file into
/// memory, so a larger one (or a file that never ends, like `/dev/zero`) is refused before or
/// while reading, never read until memory runs out.
pub const MAX_LOG_SIZE: u64 = 1 << 30;

/// How often a keyframe is written when nothing else is said: every 256 steps.
pub const DEFAULT_KEYFRAME_INTERVAL: u32 = 256;

/// What a frame holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameKind {
    /// The header: rule set, rules version, seed, keyframe interval, level. Always frame 0.
    Header,
    /// One accepted command: the command, its events and the state hash after it.
    Step,
    /// The whole state after some step, for fast seek.
    Keyframe,
    /// A QA annotation or bookmark at a step.
    Note,
}

impl FrameKind {
    /// The kind byte on disk.
    pub const fn byte(self) -> u8 {
        match self {
            FrameKind::Header => 0,
            FrameKind::Step => 1,
            FrameKind::Keyframe => 2,
            FrameKind::Note => 3,
        }
    }

    /// The kind for a byte on disk, if any.
    pub const fn from_byte(b: u8) -> Option<FrameKind> {
        match b {
            0 => Some(FrameKind::Header),
            1 => Some(FrameKind::Step),
            2 => Some(FrameKind::Keyframe),
            3 => Some(FrameKind::Note),
            _ => None,
        }
    }

    /// `header`, `step`, `keyframe` or `note` (as in `export --json`).
    pub const fn name(self) -> &'static str {
        match self {
            FrameKind::Header => "header",
            FrameKind::Step => "step",
            FrameKind::Keyframe => "keyframe",
            FrameKind::Note => "note",
        }
    }
}

/// What a log is a recording of: which game, started how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The log's format version (from the preamble): which state hash its steps record. New logs
    /// get [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The rule set.
    pub rule_set: RuleSet,
    /// [`RuleSet::version`] of the rules that recorded the log.
    pub rules_version: u32,
    /// The seed the game was started with (`Level::start(Some(seed))`).
    pub seed: u64,
    /// A keyframe follows every step whose number is a multiple of this (0: only step 0).
    pub keyframe_interval: u32,
    /// The level, as stored (its JSON text).
    pub level_json: String,
    /// The level, parsed.
    pub level: Level,
}

impl Header {
    /// The header for a game of `level` started with `seed`, recorded by today's rules.
    pub fn new(level: &Level, seed: u64, keyframe_interval: u32) -> Result<Header, LevelError> {
        let level_json = level.to_json();
        let rule_set = rule_set_of(&level_json)
            .ok_or_else(|| LevelError::invalid("the level names no known rule set"))?;
        Ok(Header {
            format_version: FORMAT_VERSION,
            rule_set,
            rules_version: rule_set.version(),
            seed,
            keyframe_interval,
            level_json,
            level: level.clone(),
        })
    }

    /// The state hash this log records after a step: [`state_hash_for`] its format version.
    pub fn state_hash(&self, state: &AnyState) -> u64 {
        state_hash_for(self.format_version, state)
    }

    pub(crate) fn to_payload(&self) -> HeaderPayload {
        HeaderPayload {
            rule_set: self.rule_set.name().to_string(),
            rules_version: self.rules_version,
            seed: self.seed,
            keyframe_interval: self.keyframe_interval,
            level: self.level_json.clone(),
        }
    }
}

/// The `rule_set` field of a level's JSON text.
fn rule_set_of(level_json: &str) -> Option<RuleSet> {
    let v: serde_json::Value = serde_json::from_str(level_json).ok()?;
    RuleSet::from_name(v.get("rule_set")?.as_str()?)
}

/// The header frame's payload, as encoded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct HeaderPayload {
    pub rule_set: String,
    pub rules_version: u32,
    pub seed: u64,
    pub keyframe_interval: u32,
    pub level: String,
}

/// A keyframe's payload, borrowed for encoding.
#[derive(Serialize)]
pub(crate) struct KeyframeRef<'a> {
    pub step: u64,
    pub state: &'a AnyState,
}

/// A keyframe's payload, decoded (format 1).
#[derive(Deserialize)]
pub(crate) struct KeyframePayload {
    pub step: u64,
    pub state: AnyState,
}

/// A keyframe's payload in format 2, borrowed for encoding.
#[derive(Serialize)]
pub(crate) struct KeyframeRefV2<'a> {
    pub step: u64,
    /// As `AnyState` (same variant order, same bytes) except where a rule set leaves out what
    /// never changes ([`tessera_core::Plugin::Keyframe`]: a tactics state its terrain, which
    /// is the level's); the reader takes that from the level's start state.
    pub state: AnyKeyframeRef<'a>,
}

/// A keyframe's payload in format 2, decoded.
#[derive(Deserialize)]
pub(crate) struct KeyframePayloadV2 {
    pub step: u64,
    pub state: AnyKeyframe,
}

/// A QA annotation or bookmark: `text` at `step` (the state after that many steps).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The step the note is about.
    pub step: u64,
    /// What QA wrote.
    pub text: String,
}

/// One decoded step: the command, its events and the state hash after it. Reused across calls
/// to [`crate::Log::read_step`] so that walking a log does not allocate per step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepRecord {
    /// The command (`None` only before the first decode).
    pub command: Option<AnyCommand>,
    /// The events it produced.
    pub events: Vec<AnyEvent>,
    /// The state hash after the step ([`Header::state_hash`]: by the log's format version).
    pub hash: u64,
}

type Limited = bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<{ MAX_PAYLOAD as usize }>,
>;

/// The canonical configuration, with decoding capped at [`MAX_PAYLOAD`] bytes.
fn decode_config() -> Limited {
    canonical_config().with_limit::<{ MAX_PAYLOAD as usize }>()
}

/// Appends the canonical encoding of `value` to `buf`: through the direct serializer of
/// [`crate::encode`] (bincode's bytes, cheaper), or bincode itself for a shape that one leaves
/// to it.
pub(crate) fn encode_into<T: Serialize + ?Sized>(value: &T, buf: &mut Vec<u8>) {
    let start = buf.len();
    if crate::encode::encode_fast(value, buf).is_err() {
        buf.truncate(start);
        // Writing into a Vec cannot fail, and tessera's types all have a bincode form.
        let _ = bincode::serde::encode_into_std_write(value, buf, canonical_config());
    }
}

/// Appends the payload of a step frame (the bytes of [`encode_into`] on a [`StepRef`]), by the
/// faster [`crate::encode::encode_step`].
pub(crate) fn encode_step_into(step: &StepRef, buf: &mut Vec<u8>) {
    let start = buf.len();
    if crate::encode::encode_step(step, buf).is_err() {
        buf.truncate(start);
        encode_into(step, buf);
    }
}

/// Where a payload came from, for errors.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At {
    pub offset: u64,
    pub frame: u64,
}

impl At {
    pub fn undecodable(self, kind: FrameKind, message: impl std::fmt::Display) -> LogError {
        LogError::Undecodable {
            offset: self.offset,
            frame: self.frame,
            kind: kind.name(),
            message: message.to_string(),
        }
    }
}

/// Decodes one `T` from the front of `bytes`, returning it and the bytes it used.
fn decode_one<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    at: At,
    kind: FrameKind,
) -> Result<(T, usize), LogError> {
    bincode::serde::decode_from_slice(bytes, decode_config()).map_err(|e| at.undecodable(kind, e))
}

/// Decodes a whole payload as one `T`; trailing bytes are an error.
pub(crate) fn decode_all<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    at: At,
    kind: FrameKind,
) -> Result<T, LogError> {
    let (v, used) = decode_one(bytes, at, kind)?;
    if used != bytes.len() {
        return Err(
            at.undecodable(kind, format!("{} bytes after the end of the payload", bytes.len() - used))
        );
    }
    Ok(v)
}

/// Decodes a step payload into `out`, reusing its event buffer.
pub(crate) fn decode_step(bytes: &[u8], at: At, out: &mut StepRecord) -> Result<(), LogError> {
    let kind = FrameKind::Step;
    let (command, mut pos) = decode_one::<AnyCommand>(bytes, at, kind)?;
    let (count, used) = decode_one::<u64>(&bytes[pos..], at, kind)?;
    pos += used;
    // Every event takes at least one byte: a count beyond the bytes left is a lie, refused
    // before anything is reserved.
    if count > (bytes.len() - pos) as u64 {
        return Err(at.undecodable(kind, format!("{count} events claimed in {} bytes", bytes.len() - pos)));
    }
    out.events.clear();
    for _ in 0..count {
        // A rule set may read its events by hand (2048 does: exactly bincode's reading, tested
        // against it); anything else, errors included, is bincode's.
        let (e, used) = match AnyEvent::decode_by_hand(&bytes[pos..]) {
            Some(read) => read,
            None => decode_one::<AnyEvent>(&bytes[pos..], at, kind)?,
        };
        pos += used;
        out.events.push(e);
    }
    let (hash, used) = decode_one::<u64>(&bytes[pos..], at, kind)?;
    pos += used;
    if pos != bytes.len() {
        return Err(at.undecodable(kind, format!("{} bytes after the end of the payload", bytes.len() - pos)));
    }
    out.command = Some(command);
    out.hash = hash;
    Ok(())
}

/// The command at the front of a step payload, the events left unread (a search by the
/// command's text needs no more).
pub(crate) fn decode_step_command(bytes: &[u8], at: At) -> Result<AnyCommand, LogError> {
    decode_one::<AnyCommand>(bytes, at, FrameKind::Step).map(|(c, _)| c)
}

/// The step number at the front of a keyframe or note payload.
pub(crate) fn decode_step_number(bytes: &[u8], at: At, kind: FrameKind) -> Result<u64, LogError> {
    decode_one::<u64>(bytes, at, kind).map(|(n, _)| n)
}

/// The crc32 of a frame: over the kind byte, then the payload.
pub(crate) fn frame_crc(kind: u8, payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(&[kind]);
    h.update(payload);
    h.finalize()
}

/// [`frame_crc`] of a kind byte and the payload after it, in one slice (as the writer lays a
/// frame out), computed with a copy of `fresh`, a new hasher (`Hasher::new` detects the CPU's
/// features each time, which costs as much as hashing a small frame).
pub(crate) fn frame_crc_of_kind_and_payload(fresh: &crc32fast::Hasher, bytes: &[u8]) -> u32 {
    let mut h = fresh.clone();
    h.update(bytes);
    h.finalize()
}

/// The header payload parsed and checked: a known rule set, a level that loads and is of it.
pub(crate) fn check_header(p: HeaderPayload, format_version: u32, at: At) -> Result<Header, LogError> {
    let rule_set = RuleSet::from_name(&p.rule_set)
        .ok_or_else(|| LogError::UnknownRuleSet { offset: at.offset, name: p.rule_set.clone() })?;
    let level = Level::from_json(&p.level)
        .map_err(|e| LogError::BadLevel { offset: at.offset, message: e.to_string() })?;
    if rule_set_of(&p.level) != Some(rule_set) {
        return Err(LogError::BadLevel {
            offset: at.offset,
            message: format!("the level is not a {} level", rule_set.name()),
        });
    }
    Ok(Header {
        format_version,
        rule_set,
        rules_version: p.rules_version,
        seed: p.seed,
        keyframe_interval: p.keyframe_interval,
        level_json: p.level,
        level,
    })
}
