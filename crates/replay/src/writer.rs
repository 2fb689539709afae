//! Writing logs: [`LogWriter`] over any `Write`, [`Recorder`] over a file, [`atomic_write`], and
//! [`remove_stale_temps`] for the temporary files of saves that were killed.
//!
//! `LogWriter` (any `Write`), `Recorder` (a file, flushed frame by frame, cut back on undo) and
//! `atomic_write` (temp file + rename: every file the project saves goes through it; it refuses a
//! target that is not a regular file, symbolic links included (`check_target`), and first clears
//! the `.NAME.tmpPID-N` files of killed saves of any name in the folder (`remove_stale_temps_in`);
//! `remove_stale_temps` reports those of one file, for `Recorder::create` and `replay repair`).

#[cfg(doc)]
use crate::format::FORMAT_VERSION;
use crate::format::{
    FRAME_HEADER_LEN, FrameKind, Header, KeyframeRef, KeyframeRefV2, MAGIC, MAX_PAYLOAD, Note, StepRef,
    encode_into, encode_step_into, frame_crc_of_kind_and_payload,
};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use tessera_core::{AnyCommand, AnyEvent, AnyState};

/// Writes a log to any byte sink: the preamble and header on creation, then one frame per call.
///
/// [`LogWriter::record`] is the usual entry point: it writes the step and, when the step
/// number is a multiple of the keyframe interval, a keyframe after it. The writer does not
/// flush; [`Recorder`] does, frame by frame.
#[derive(Debug)]
pub struct LogWriter<W: Write> {
    out: W,
    /// The frame being written: its header (length and crc filled in last), then the payload.
    buf: Vec<u8>,
    /// A new crc hasher, copied for each frame.
    crc: crc32fast::Hasher,
    len: u64,
    frames: u64,
    steps: u64,
    /// `steps` modulo the keyframe interval (kept, not divided: a division per step costs more
    /// than the rest of the check); a keyframe is due when it is 0.
    steps_past_keyframe: u32,
    keyframe_interval: u32,
    format_version: u32,
}

impl<W: Write> LogWriter<W> {
    /// Writes the preamble and `header`, then a keyframe of `start` (the state at step 0).
    pub fn new(out: W, header: &Header, start: &AnyState) -> io::Result<Self> {
        let mut w = LogWriter::bare(out, header)?;
        w.keyframe(start)?;
        Ok(w)
    }

    /// Writes the preamble and `header` only (for copying a log frame by frame). The preamble
    /// carries `header.format_version` ([`FORMAT_VERSION`] for a new header; an older one to
    /// copy an old log as it was).
    pub fn bare(mut out: W, header: &Header) -> io::Result<Self> {
        out.write_all(&MAGIC)?;
        out.write_all(&header.format_version.to_le_bytes())?;
        let mut w = LogWriter {
            out,
            buf: Vec::with_capacity(256),
            crc: crc32fast::Hasher::new(),
            len: (MAGIC.len() + 4) as u64,
            frames: 0,
            steps: 0,
            steps_past_keyframe: 0,
            keyframe_interval: header.keyframe_interval,
            format_version: header.format_version,
        };
        w.begin(FrameKind::Header);
        encode_into(&header.to_payload(), &mut w.buf);
        w.emit(FrameKind::Header)?;
        Ok(w)
    }

    /// Records one accepted command: its events, the hash of `after` (the state it left; the
    /// hash of the header's format version) and, when due, a keyframe of `after`.
    pub fn record(&mut self, command: &AnyCommand, events: &[AnyEvent], after: &AnyState) -> io::Result<()> {
        self.step(command, events, crate::format::state_hash_for(self.format_version, after))?;
        if self.keyframe_interval > 0 && self.steps_past_keyframe == 0 {
            self.keyframe(after)?;
        }
        Ok(())
    }

    /// Writes a step frame with a hash the caller computed.
    pub fn step(&mut self, command: &AnyCommand, events: &[AnyEvent], hash: u64) -> io::Result<()> {
        self.begin(FrameKind::Step);
        encode_step_into(&StepRef { command, events, hash }, &mut self.buf);
        self.emit(FrameKind::Step)?;
        self.steps += 1;
        if self.keyframe_interval > 0 {
            self.steps_past_keyframe += 1;
            if self.steps_past_keyframe == self.keyframe_interval {
                self.steps_past_keyframe = 0;
            }
        }
        Ok(())
    }

    /// Writes a keyframe of `state` as the state after the steps written so far.
    pub fn keyframe(&mut self, state: &AnyState) -> io::Result<()> {
        self.begin(FrameKind::Keyframe);
        if self.format_version >= 2 {
            let state = state.keyframe();
            encode_into(&KeyframeRefV2 { step: self.steps, state }, &mut self.buf);
        } else {
            encode_into(&KeyframeRef { step: self.steps, state }, &mut self.buf);
        }
        self.emit(FrameKind::Keyframe)
    }

    /// Writes a note at the current step.
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        self.begin(FrameKind::Note);
        encode_into(&Note { step: self.steps, text: text.to_string() }, &mut self.buf);
        self.emit(FrameKind::Note)
    }

    /// Starts a frame of `kind` in `self.buf`: room for its length and crc, then the kind byte;
    /// the payload is encoded after it.
    fn begin(&mut self, kind: FrameKind) {
        self.buf.clear();
        self.buf.extend_from_slice(&[0; FRAME_HEADER_LEN - 1]);
        self.buf.push(kind.byte());
    }

    /// Fills in the length and crc of the frame in `self.buf` and writes it, in one write.
    fn emit(&mut self, kind: FrameKind) -> io::Result<()> {
        let n = self.buf.len() - FRAME_HEADER_LEN;
        if n > MAX_PAYLOAD as usize {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a {} frame of {n} bytes exceeds the limit of {MAX_PAYLOAD}", kind.name()),
            ));
        }
        let crc = frame_crc_of_kind_and_payload(&self.crc, &self.buf[FRAME_HEADER_LEN - 1..]);
        self.buf[0..4].copy_from_slice(&(n as u32).to_le_bytes());
        self.buf[4..8].copy_from_slice(&crc.to_le_bytes());
        self.out.write_all(&self.buf)?;
        self.len += self.buf.len() as u64;
        self.frames += 1;
        Ok(())
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing has been written (never true: the preamble is written on creation).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Step frames written so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Frames written so far (the header included).
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The sink.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Gives the sink back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// When a [`Recorder`] hands its bytes to the operating system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Flush {
    /// After every frame: a crash of the process loses nothing already recorded. (Default.)
    #[default]
    EveryFrame,
    /// When the 64 KiB buffer fills and on [`Recorder::finish`]: for bulk recording, where a crash
    /// may cut the log back to the last full buffer (the reader still opens what is whole).
    Buffered,
}

/// Settings of a [`Recorder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecorderConfig {
    /// A keyframe after every step whose number is a multiple of this; 0 for only step 0.
    pub keyframe_interval: u32,
    /// When bytes go to the operating system.
    pub flush: Flush,
}

impl Default for RecorderConfig {
    fn default() -> Self {
        RecorderConfig { keyframe_interval: crate::DEFAULT_KEYFRAME_INTERVAL, flush: Flush::EveryFrame }
    }
}

/// Records a game to a log file as it is played.
///
/// The file appears whole: the header and the step-0 keyframe are written to a temporary file
/// that is synced and renamed into place. From then on frames are appended and (by default)
/// flushed one by one, so a crash leaves a log whose last frame at worst is cut short, which
/// [`crate::Log::open`] opens anyway and `tessera replay repair` cleans.
///
/// The file holds the line of play that leads to the current state: [`Recorder::truncate_to`]
/// (for undo) cuts the file back to the end of an earlier step, and a redone step is simply
/// recorded again. Notes on the undone steps go with them.
#[derive(Debug)]
pub struct Recorder {
    path: PathBuf,
    writer: LogWriter<BufWriter<File>>,
    flush: Flush,
    /// `ends[n]`: file length once step `n` and what follows it (keyframe, notes) was written.
    ends: Vec<u64>,
    /// Stale temporary files found on creation.
    stale: StaleTemps,
}

impl Recorder {
    /// Creates (or replaces) the log at `path` for a game of `header` starting at `start`.
    pub fn create(
        path: impl AsRef<Path>,
        header: &Header,
        start: &AnyState,
        config: RecorderConfig,
    ) -> io::Result<Recorder> {
        let path = path.as_ref().to_path_buf();
        // A recording killed while its log was created leaves its temporary file: clear it.
        let stale = remove_stale_temps(&path).unwrap_or_default();
        let mut header = header.clone();
        header.keyframe_interval = config.keyframe_interval;
        let mut first = Vec::new();
        LogWriter::new(&mut first, &header, start)?;
        atomic_write(&path, &first)?;
        let mut file = OpenOptions::new().write(true).open(&path)?;
        file.seek(SeekFrom::End(0))?;
        let out = BufWriter::with_capacity(64 << 10, file);
        let writer = LogWriter {
            out,
            buf: Vec::with_capacity(256),
            crc: crc32fast::Hasher::new(),
            len: first.len() as u64,
            frames: 2,
            steps: 0,
            steps_past_keyframe: 0,
            keyframe_interval: config.keyframe_interval,
            format_version: header.format_version,
        };
        Ok(Recorder { path, writer, flush: config.flush, ends: vec![first.len() as u64], stale })
    }

    /// The temporary files of earlier, killed saves of this log that [`Recorder::create`] found
    /// (see [`remove_stale_temps`]).
    pub fn stale_temps(&self) -> &StaleTemps {
        &self.stale
    }

    /// Records one accepted command (see [`LogWriter::record`]).
    pub fn record(&mut self, command: &AnyCommand, events: &[AnyEvent], after: &AnyState) -> io::Result<()> {
        self.writer.record(command, events, after)?;
        self.ends.push(self.writer.len());
        self.flush_if_due()
    }

    /// Records a note at the current step.
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        self.writer.note(text)?;
        if let Some(end) = self.ends.last_mut() {
            *end = self.writer.len();
        }
        self.flush_if_due()
    }

    /// Cuts the log back to the end of step `step` (undo). Steps after it, and their keyframes
    /// and notes, are removed from the file.
    pub fn truncate_to(&mut self, step: u64) -> io::Result<()> {
        let Some(&end) = self.ends.get(step as usize) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("cannot cut the log to step {step}: it has {} steps", self.writer.steps()),
            ));
        };
        self.writer.out.flush()?;
        let file = self.writer.out.get_mut();
        file.set_len(end)?;
        file.seek(SeekFrom::Start(end))?;
        self.ends.truncate(step as usize + 1);
        self.writer.steps = step;
        let k = u64::from(self.writer.keyframe_interval);
        self.writer.steps_past_keyframe = if k == 0 { 0 } else { (step % k) as u32 };
        self.writer.len = end;
        Ok(())
    }

    fn flush_if_due(&mut self) -> io::Result<()> {
        match self.flush {
            Flush::EveryFrame => self.writer.out.flush(),
            Flush::Buffered => Ok(()),
        }
    }

    /// Steps recorded.
    pub fn steps(&self) -> u64 {
        self.writer.steps()
    }

    /// Bytes in the log.
    pub fn len(&self) -> u64 {
        self.writer.len()
    }

    /// Whether the log is empty (never: it has at least its header).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes and syncs the file to disk.
    pub fn finish(mut self) -> io::Result<()> {
        self.sync()
    }

    /// Flushes and syncs the file to disk, recording on (before renaming a finished log, say).
    pub fn sync(&mut self) -> io::Result<()> {
        self.writer.out.flush()?;
        self.writer.out.get_ref().sync_all()
    }
}

/// Temporary files of [`atomic_write`] found beside a file by [`remove_stale_temps`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StaleTemps {
    /// Removed: their process no longer runs, so no rename will ever come.
    pub removed: Vec<PathBuf>,
    /// Left alone: their process may still be running (or this platform cannot tell).
    pub kept: Vec<PathBuf>,
}

/// The most bytes of one file name (`NAME_MAX` on Linux and the BSDs, and the limit of most
/// file systems): a temporary name is kept within it (issue 66.10: a valid name of 245–255
/// bytes was refused, "File name too long", as its temporary name was longer).
pub const MAX_FILE_NAME_BYTES: usize = 255;

/// The temporary name beside the file `name` for save `n` of this process: `.NAME.tmpPID-N`,
/// with NAME cut short (at a character) so that the whole stays within
/// [`MAX_FILE_NAME_BYTES`]. [`atomic_write`] and recordings in progress use it.
pub fn temp_name(name: &std::ffi::OsStr, n: u64) -> std::ffi::OsString {
    let suffix = format!(".tmp{}-{n}", std::process::id());
    let room = MAX_FILE_NAME_BYTES.saturating_sub(1 + suffix.len());
    let mut out = std::ffi::OsString::from(".");
    match name.to_str() {
        Some(text) => {
            let mut end = text.len().min(room);
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            out.push(&text[..end]);
        }
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt;
                let bytes = name.as_bytes();
                out.push(std::ffi::OsStr::from_bytes(&bytes[..bytes.len().min(room)]));
            }
            #[cfg(not(unix))]
            out.push(name);
        }
    }
    out.push(suffix);
    out
}

/// The process id in a temporary name of [`atomic_write`] for the file `name`
/// (`.NAME.tmpPID-N`, NAME cut short when the whole would pass [`MAX_FILE_NAME_BYTES`]), if
/// `candidate` is one.
fn temp_pid(name: &std::ffi::OsStr, candidate: &std::ffi::OsStr) -> Option<u32> {
    let name = name.to_str()?;
    let candidate = candidate.to_str()?;
    let (head, rest) = candidate.strip_prefix('.')?.rsplit_once(".tmp")?;
    // The whole name, or a prefix of it cut to fit (within a character of the limit).
    let whole = head == name;
    let cut = name.starts_with(head) && candidate.len() + 4 > MAX_FILE_NAME_BYTES;
    if !(whole || cut) {
        return None;
    }
    let (pid, n) = rest.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok()).flatten()
}

/// The process id in any temporary name of [`atomic_write`] (`.NAME.tmpPID-N`, whatever the
/// NAME), if `candidate` is one.
fn any_temp_pid(candidate: &std::ffi::OsStr) -> Option<u32> {
    let text = candidate.to_str()?.strip_prefix('.')?;
    let (_, rest) = text.rsplit_once(".tmp")?;
    let (pid, n) = rest.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok()).flatten()
}

/// Removes every temporary file of [`atomic_write`] in `dir` (of any file) whose process no
/// longer runs (issue 29.10: 28 were left after 80 kills of `pack rate`, 19 after 40 of `pin`,
/// each pin under another name). Returns the files removed; errors are left to the next write.
pub fn remove_stale_temps_in(dir: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return removed };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = any_temp_pid(&name) else { continue };
        if process_may_run(pid) == Some(false)
            && entry.file_type().is_ok_and(|t| t.is_file())
            && std::fs::remove_file(entry.path()).is_ok()
        {
            removed.push(entry.path());
        }
    }
    removed.sort();
    removed
}

/// Refuses to replace `path` unless it is missing or a regular file (issue 29.5: a save pointed
/// at `/dev/full`, a FIFO or a symlink replaced it with a regular file). Symbolic links are
/// refused, not followed: saving replaces the file at that name, and a link there is someone
/// else's (write to the file it points to instead).
pub fn check_target(path: &Path) -> io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let t = meta.file_type();
    if t.is_file() {
        return Ok(());
    }
    let what = if t.is_symlink() {
        "a symbolic link (not followed: write to the file it points to)"
    } else if t.is_dir() {
        "a folder"
    } else {
        "not a regular file (a device, FIFO or socket)"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: is {what}; tessera only replaces regular files", path.display()),
    ))
}

/// Whether process `pid` may be running: `/proc/PID` exists; `None` where there is no `/proc`.
pub(crate) fn process_may_run(pid: u32) -> Option<bool> {
    if pid == std::process::id() {
        return Some(true);
    }
    Path::new("/proc/self").exists().then(|| Path::new("/proc").join(pid.to_string()).exists())
}

/// Finds the temporary files [`atomic_write`] leaves beside `path` when its process is killed
/// before the rename (`.NAME.tmpPID-N`, issue 12: 1 recording in 340 killed while its log was
/// created), and removes those whose process no longer runs. Files of a process that may still
/// run (another save in progress) are left and listed in [`StaleTemps::kept`]; so is every one
/// on a platform without `/proc`, where this cannot be told.
pub fn remove_stale_temps(path: impl AsRef<Path>) -> io::Result<StaleTemps> {
    let path = path.as_ref();
    let Some(name) = path.file_name() else { return Ok(StaleTemps::default()) };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut found = StaleTemps::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let Some(pid) = temp_pid(name, &entry.file_name()) else { continue };
        let temp = path.with_file_name(entry.file_name());
        if process_may_run(pid) == Some(false) && entry.file_type().is_ok_and(|t| t.is_file()) {
            std::fs::remove_file(&temp)?;
            found.removed.push(temp);
        } else {
            found.kept.push(temp);
        }
    }
    found.removed.sort();
    found.kept.sort();
    Ok(found)
}

/// Writes `bytes` to `path` so that a crash never leaves a half-written file there: into a
/// temporary file next to it, synced, then renamed over `path` (atomic on POSIX file systems).
/// Every file tessera saves (levels, logs, settings) goes through this.
///
/// A `path` that exists and is not a regular file (a folder, a device, a FIFO, a symbolic link)
/// is refused ([`check_target`]). Temporary files that killed saves left in the folder are
/// removed first ([`remove_stale_temps_in`]).
pub fn atomic_write(path: impl AsRef<Path>, bytes: &[u8]) -> io::Result<()> {
    let path = path.as_ref();
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, format!("{}: not a file path", path.display()))
    })?;
    check_target(path)?;
    remove_stale_temps_in(path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")));
    // Unique per process and per call, so that concurrent saves of one file never share it.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_file_name(temp_name(name, n));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result?;
    // Make the rename itself durable where the platform allows opening a directory.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}
