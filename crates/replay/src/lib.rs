//! tessera-replay: the event store. Log files, the recorder, the reader, the history (undo,
//! redo, seek, branches), and the QA checks `verify` and `diff`.
//!
//! - [`Recorder`] writes a log as a game is played, frame by frame; [`LogWriter`] writes one to
//!   any `Write`. [`atomic_write`] saves any file through a temporary file and a rename;
//!   [`remove_stale_temps`] clears the temporary files of saves that were killed.
//! - [`Log`] opens a log, checking every length and crc, and gives its steps
//!   ([`Log::read_step`]), notes and the state at any step ([`Log::state_at`], from the nearest
//!   keyframe). A log whose last frame was cut short by a crash opens with every whole frame and
//!   says how many bytes it dropped ([`Log::dropped_bytes`]).
//! - [`History`] is the command pattern over a game: `execute`, `undo`, `redo`, `seek`, and
//!   branches that survive a new command after an undo. It opens a log
//!   ([`History::from_log`]) and saves its line of play as one ([`History::write_log`]).
//! - [`verify`] re-executes a log with today's rules and reports the first divergence;
//!   [`diff`] finds the first step where two logs part; [`export_json`] writes JSON lines.
//! - Regression logs: [`pin`] copies a log into a regression folder with a [`Sidecar`] (what
//!   it guards, its final hash); [`check_dir`] replays every log of a folder in parallel and
//!   [`junit_xml`] reports the results for CI.
//! - [`gif`] draws a log's (or any line of play's) turns as an animated GIF: PuzzleScript games
//!   with their sprites, the other rule sets as their board's text ([`gif::log_gif`]).
//! - [`event_kind`] and [`EventCondition`] (`Shuffled`, `Matched.cascade>=3`) ask any rule
//!   set's events for their kind and fields, for `replay reduce --until-event` and the
//!   debugger's filter.
//!
//! Everything is written against the `Any*` types of `tessera-core`, so a log opens any game
//! without generics; this crate knows nothing of hecs, egui or the terminal.
//!
//! # The log format (version 2)
//!
//! All integers outside payloads are little-endian. A log is a 12-byte preamble followed by
//! frames, back to back, to the end of the file:
//!
//! ```text
//! preamble: magic "TESSLOG\0" (8 bytes: 54 45 53 53 4c 4f 47 00), format version u32 (= 2)
//! frame:    length u32 | crc32 u32 | kind u8 | payload (length bytes)
//! ```
//!
//! - A log file is at most [`MAX_LOG_SIZE`] (1 GiB); [`Log::open`] refuses a larger one.
//! - `length` counts the payload only (not the 9 bytes before it) and is at most
//!   [`MAX_PAYLOAD`] (64 MiB); a reader refuses a larger value before reading or allocating.
//! - `crc32` is CRC-32/ISO-HDLC (the zlib/PNG crc, as `crc32fast` computes it) over the kind
//!   byte followed by the payload.
//! - `kind`: 0 header, 1 step, 2 keyframe, 3 note. Frame 0 is the header, and there is no
//!   other header.
//!
//! Payloads are bincode 2.0.1 with `bincode::config::standard()` (little-endian, variable-length
//! integers: values below 251 take one byte, else a marker byte 251/252/253 followed by a
//! u16/u32/u64), over the serde form of the types named below, exactly as
//! [`tessera_core::canonical_config`] encodes them. Strings and sequences are a varint length
//! then the items; enums are a varint variant index then the fields; structs are their fields in
//! order.
//!
//! | kind | payload (fields in order) |
//! |---|---|
//! | 0 header | `rule_set: String` (`"slide"`, …), `rules_version: u32`, `seed: u64`, `keyframe_interval: u32`, `level: String` (the level's JSON text, as `tessera_core::Level::to_json` writes it) |
//! | 1 step | `command: AnyCommand`, `events: Vec<AnyEvent>`, `hash: u64` (the state hash after the step: `AnyState::hash` in version 2, `AnyState::hash_v1` in version 1) |
//! | 2 keyframe | `step: u64`, `state: AnyState` (the whole state after `step` steps), except that in version 2 a tactics state is stored without its terrain (the level's, which never changes): variant 2 holds `TacticsPlay { units, team, turn, ids }` and the reader puts it on the level's start terrain |
//! | 3 note | `step: u64`, `text: String` |
//!
//! Steps are numbered from 1 in file order; step `n` is the `n`-th step frame. A keyframe or
//! note frame carries the number of step frames before it (a keyframe is the state after that
//! many steps; a note is about that state). The recorder writes a keyframe of the start state
//! right after the header, and one after every step whose number is a multiple of
//! `keyframe_interval` (0: only the start). The game is `Level::start(Some(seed))` of the
//! header's level; replaying the steps' commands with the rules of `rules_version` reproduces
//! every event and hash.
//!
//! **Versions.** Version 1 differs from version 2 in the step hash and in tactics keyframes
//! (which carry the whole state, terrain included). Its step hash is
//! `AnyState::hash_v1` (xxh3-64 of the state's canonical encoding, which costs the size of the
//! board per step), where version 2 records `AnyState::hash` (the incremental hash the rules keep,
//! which costs the size of the step; see `tessera_core::keys`). Readers open both and verify each
//! with its own hash ([`Header::state_hash`]); writers write version 2 ([`FORMAT_VERSION`]), or the
//! version of the header they are given (to copy an old log as it was). Golden logs of every
//! version are kept in `fixtures/logs/v<N>/` and tested.
//!
//! Redo of a log's recorded events is checked: events that do not fit the state (a forged log
//! with valid crcs) are a [`LogError::Inconsistent`] naming the step and the event, never a panic.
//!
//! A file that ends inside the preamble or the header frame is not a log.
//!
//! ## Cut tails
//!
//! The recorder appends one frame at a time and flushes it, so a crash while recording leaves
//! every frame written before it whole, followed by at most one partial frame: a strict prefix
//! of the frame being written. Readers may keep the whole frames of such a log and drop the
//! rest; anything else after the last whole frame is damage. Precisely, when the frame at
//! offset `p` runs past the end of the file (fewer than 9 bytes remain, or `9 + length` is more
//! than remain), the bytes from `p` are a *cut tail* only if all of these hold, and the log is
//! corrupt ([`LogError::CorruptTail`]) otherwise:
//!
//! 1. when 9 or more bytes remain, the kind byte is 1, 2 or 3 (the recorder writes no other
//!    after the header);
//! 2. the stored crc does not match the kind byte and every byte after the frame header (if it
//!    does, the frame is whole and its length field was damaged);
//! 3. no whole frame starts at any later offset `q > p`: a kind byte 1, 2 or 3, a length `l`
//!    with `q + 9 + l` at most the file's size, a matching crc, and after it the end of the
//!    file, fewer than 9 bytes, or another header with kind 1, 2 or 3 and a length within
//!    [`MAX_PAYLOAD`]. (A damaged length hides the frames after it; this finds them. The crcs of
//!    this search cover at most 256 MiB, so that hostile bytes cannot make opening slow; a tail
//!    that exhausts it is taken as cut.)
//!
//! A cut tail is at most one frame, so its length is below `9 + MAX_PAYLOAD`. Opening a log
//! with [`TailPolicy::Lenient`] keeps the whole frames and reports the dropped bytes
//! ([`Log::dropped_bytes`]); [`verify`] does not call a log with dropped bytes ok
//! ([`VerifyReport::complete`]).
//!
//! # Example
//!
//! ```
//! use tessera_core::{Level, Rules};
//! use tessera_replay::{Header, Log, LogWriter, TailPolicy, verify};
//!
//! let level = Level::classic();
//! let mut game = level.start(Some(7)).unwrap();
//! let header = Header::new(&level, 7, 4).unwrap();
//! let mut log = LogWriter::new(Vec::new(), &header, &game.state).unwrap();
//! let mut events = Vec::new();
//! for _ in 0..10 {
//!     let Some(cmd) = game.rules.legal_commands(&game.state).first().cloned() else { break };
//!     events.clear();
//!     game.rules.apply(&mut game.state, &cmd, &mut events).unwrap();
//!     log.record(&cmd, &events, &game.state).unwrap();
//! }
//! let log = Log::from_bytes(log.into_inner(), TailPolicy::Strict).unwrap();
//! assert_eq!(log.state_at(log.steps()).unwrap(), game.state);
//! assert!(verify(&log).unwrap().ok());
//! ```

mod check;
mod encode;
mod error;
mod format;
pub mod gif;
mod history;
mod kind;
mod reader;
mod regress;
mod writer;

pub use check::{DiffReport, Divergence, Mismatch, StepSide, VerifyReport, diff, export_json, verify};
pub use error::LogError;
pub use format::{
    DEFAULT_KEYFRAME_INTERVAL, FORMAT_VERSION, FRAME_HEADER_LEN, FrameKind, Header, MAGIC, MAX_LOG_SIZE,
    MAX_PAYLOAD, Note, OLDEST_FORMAT_VERSION, PREAMBLE_LEN, StepRecord, state_hash_for,
};
pub use history::{Branch, History, NodeId, SeekError};
pub use kind::{Compare, ConditionError, EventCondition, event_field, event_kind, event_kinds};
pub use reader::{FrameRef, Log, TailPolicy};
pub use regress::{
    CheckOutcome, CheckResult, DEFAULT_REGRESSION_DIR, LOG_EXTENSION, MAX_SIDECAR, Pinned, RegressError,
    SIDECAR_EXTENSION, Sidecar, check_dir, check_dir_with, check_log, check_log_with, default_name,
    final_hash, junit_xml, pin, valid_name, xml_escape,
};
pub use writer::{
    Flush, LogWriter, MAX_FILE_NAME_BYTES, Recorder, RecorderConfig, StaleTemps, atomic_write, check_target,
    remove_stale_temps, remove_stale_temps_in, temp_name,
};

/// How a note saying where the player was starts ([`History::write_log_noted`],
/// [`Log::player_step`]). The web player's "Report a problem" log ends with one, at the step the
/// player was on; the editor's Debug opens such a log at that step.
pub const PLAYER_NOTE: &str = "the player was here";

/// The note saying the player was at the step it is written at: [`PLAYER_NOTE`], then `said`
/// (what else the player's side knows, e.g. the level) after a colon when not empty.
pub fn player_note(said: &str) -> String {
    if said.is_empty() { PLAYER_NOTE.to_string() } else { format!("{PLAYER_NOTE}: {said}") }
}
