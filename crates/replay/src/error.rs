//! What can be wrong with a log.

/// A log that cannot be read, or a step it cannot give.
///
/// Offsets are byte offsets from the start of the file; for frame errors they point at the
/// frame's first byte (its length field). Frames are numbered from 0 in file order (frame 0 is
/// the header). The apps add the file name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// The file could not be read or written.
    #[error("{0}")]
    Io(String),
    /// A file larger than [`crate::MAX_LOG_SIZE`]; it was not read past the limit.
    #[error("the file is larger than {limit} bytes, the limit for a log; not read further")]
    TooLarge {
        /// The limit.
        limit: u64,
    },
    /// Zero bytes.
    #[error("the file is empty (not a tessera log)")]
    Empty,
    /// The first eight bytes are not the magic `TESSLOG\0`.
    #[error("byte 0: not a tessera log (bad magic {found:02x?})")]
    BadMagic {
        /// The bytes found (fewer when the file is shorter).
        found: Vec<u8>,
    },
    /// A format version this build does not read.
    #[error("byte {offset}: unsupported log format version {version} (this build reads {supported})")]
    UnsupportedVersion {
        /// Where the version is (8).
        offset: u64,
        /// The version found.
        version: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The file ends inside the preamble or the header frame, or (when opened strictly) inside
    /// any frame.
    #[error("byte {offset}, frame {frame}: truncated: the frame needs {needed} bytes, {available} remain")]
    Truncated {
        /// Where the incomplete part starts.
        offset: u64,
        /// Index of the incomplete frame (0 for the preamble and the header).
        frame: u64,
        /// Bytes needed from `offset`.
        needed: u64,
        /// Bytes left from `offset`.
        available: u64,
    },
    /// The file ends inside a frame, but not the way a crash while recording ends a log: the
    /// frame's length runs past the end of the file while its bytes hold a whole frame (a
    /// damaged length field), or its kind byte is not one the recorder writes. (A crash leaves
    /// at most one partial frame at the end: see "Cut tails" in the crate docs.)
    #[error("byte {offset}, frame {frame}: the log is damaged, not cut short: {message}")]
    CorruptTail {
        /// The offset of the frame that runs past the end.
        offset: u64,
        /// Its index.
        frame: u64,
        /// What shows the damage.
        message: String,
    },
    /// A frame's stored crc32 does not match its kind and payload.
    #[error("byte {offset}, frame {frame}: crc mismatch (stored {stored:08x}, computed {computed:08x})")]
    CrcMismatch {
        /// The frame's offset.
        offset: u64,
        /// The frame's index.
        frame: u64,
        /// The crc in the file.
        stored: u32,
        /// The crc of the bytes.
        computed: u32,
    },
    /// A frame declares a payload longer than [`crate::MAX_PAYLOAD`]; nothing was allocated.
    #[error("byte {offset}, frame {frame}: frame length {length} exceeds the limit of {limit} bytes")]
    Oversized {
        /// The frame's offset.
        offset: u64,
        /// The frame's index.
        frame: u64,
        /// The declared payload length.
        length: u32,
        /// The limit.
        limit: u32,
    },
    /// A frame whose kind byte is not one of the known kinds.
    #[error("byte {offset}, frame {frame}: unknown frame kind {kind}")]
    UnknownKind {
        /// The frame's offset.
        offset: u64,
        /// The frame's index.
        frame: u64,
        /// The kind byte.
        kind: u8,
    },
    /// A payload that is not a valid encoding of what its kind says.
    #[error("byte {offset}, frame {frame}: undecodable {kind} payload: {message}")]
    Undecodable {
        /// The frame's offset.
        offset: u64,
        /// The frame's index.
        frame: u64,
        /// The frame kind's name.
        kind: &'static str,
        /// What the decoder said.
        message: String,
    },
    /// Frames in an order the format does not allow (no header first, a second header, a
    /// keyframe or note whose step is not the number of steps before it).
    #[error("byte {offset}, frame {frame}: {message}")]
    Malformed {
        /// The frame's offset.
        offset: u64,
        /// The frame's index.
        frame: u64,
        /// What is out of place.
        message: String,
    },
    /// The header names a rule set this build does not know.
    #[error("byte {offset}: unknown rule set '{name}'")]
    UnknownRuleSet {
        /// The header frame's offset.
        offset: u64,
        /// The name found.
        name: String,
    },
    /// The header's level does not load with today's code.
    #[error("byte {offset}: the header's level does not load: {message}")]
    BadLevel {
        /// The header frame's offset.
        offset: u64,
        /// Why.
        message: String,
    },
    /// A step beyond the end of the log was asked for.
    #[error("step {step} is beyond the end of the log ({steps} steps)")]
    NoSuchStep {
        /// The step asked for.
        step: u64,
        /// How many steps the log has.
        steps: u64,
    },
    /// Replaying the recorded events does not give the recorded state (a log whose frames are
    /// intact but whose content was not written by tessera).
    #[error("byte {offset}, step {step}: the recorded events do not replay: {message}")]
    Inconsistent {
        /// The step frame's offset.
        offset: u64,
        /// The step.
        step: u64,
        /// What went wrong.
        message: String,
    },
}

impl LogError {
    /// A short name for the kind of error (`crc_mismatch`, `truncated`, …), for tests and JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            LogError::Io(_) => "io",
            LogError::TooLarge { .. } => "too_large",
            LogError::Empty => "empty",
            LogError::BadMagic { .. } => "bad_magic",
            LogError::UnsupportedVersion { .. } => "unsupported_version",
            LogError::Truncated { .. } => "truncated",
            LogError::CorruptTail { .. } => "corrupt_tail",
            LogError::CrcMismatch { .. } => "crc_mismatch",
            LogError::Oversized { .. } => "oversized",
            LogError::UnknownKind { .. } => "unknown_kind",
            LogError::Undecodable { .. } => "undecodable",
            LogError::Malformed { .. } => "malformed",
            LogError::UnknownRuleSet { .. } => "unknown_rule_set",
            LogError::BadLevel { .. } => "bad_level",
            LogError::NoSuchStep { .. } => "no_such_step",
            LogError::Inconsistent { .. } => "inconsistent",
        }
    }

    /// The byte offset the error is about, when it is about one.
    pub fn offset(&self) -> Option<u64> {
        match *self {
            LogError::Io(_) | LogError::TooLarge { .. } | LogError::NoSuchStep { .. } => None,
            LogError::Empty | LogError::BadMagic { .. } => Some(0),
            LogError::UnsupportedVersion { offset, .. }
            | LogError::Truncated { offset, .. }
            | LogError::CorruptTail { offset, .. }
            | LogError::CrcMismatch { offset, .. }
            | LogError::Oversized { offset, .. }
            | LogError::UnknownKind { offset, .. }
            | LogError::Undecodable { offset, .. }
            | LogError::Malformed { offset, .. }
            | LogError::UnknownRuleSet { offset, .. }
            | LogError::BadLevel { offset, .. }
            | LogError::Inconsistent { offset, .. } => Some(offset),
        }
    }

    /// The frame index the error is about, when it is about one.
    pub fn frame(&self) -> Option<u64> {
        match *self {
            LogError::Truncated { frame, .. }
            | LogError::CorruptTail { frame, .. }
            | LogError::CrcMismatch { frame, .. }
            | LogError::Oversized { frame, .. }
            | LogError::UnknownKind { frame, .. }
            | LogError::Undecodable { frame, .. }
            | LogError::Malformed { frame, .. } => Some(frame),
            LogError::UnknownRuleSet { .. } | LogError::BadLevel { .. } => Some(0),
            _ => None,
        }
    }
}

impl From<std::io::Error> for LogError {
    fn from(e: std::io::Error) -> Self {
        LogError::Io(e.to_string())
    }
}
