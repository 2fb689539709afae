//! [`SessionLog`]: the log a command records as it plays (`tessera play --record`, `bot
//! --record`, `solve --record`), appended step by step, cut back on undo, written atomically
//! when pending.

use crate::error::CliError;
use std::path::{Path, PathBuf};
use tessera_core::{AnyCommand, AnyEvent, AnyState, Level};
use tessera_replay::{Header, Recorder, RecorderConfig};

/// The log of a `tessera play --record` session: accepted commands are appended as they happen;
/// an undo cuts the file back a step and a redo records the step again, so the file always
/// holds the line of play that leads to the current state.
///
/// A log made with [`SessionLog::create_pending`] (a script, a solver's line) is recorded beside
/// its path under a temporary name and only renamed into place by [`SessionLog::commit`]: a run
/// that fails leaves nothing at the path (a file already there stays as it was), and dropping
/// the log uncommitted removes the temporary file.
pub struct SessionLog {
    recorder: Recorder,
    /// Where the recorder writes (the temporary file while pending).
    path: PathBuf,
    /// The path the log is renamed to on commit, while it is pending.
    pending: Option<PathBuf>,
    done: Vec<AnyCommand>,
    undone: Vec<AnyCommand>,
}

impl SessionLog {
    /// Starts recording a game of `level` (started with `seed`, now at `start`) to `path`, which
    /// holds the log from the start (an interactive session: a crash keeps what was played).
    pub fn create(path: &Path, level: &Level, seed: u64, start: &AnyState) -> Result<SessionLog, CliError> {
        let recorder = Self::recorder(path, level, seed, start)?;
        Ok(SessionLog {
            recorder,
            path: path.to_path_buf(),
            pending: None,
            done: Vec::new(),
            undone: Vec::new(),
        })
    }

    /// Starts recording to a temporary file beside `path` (`.NAME.tmpPID-N`, which a later save
    /// removes if this process is killed), renamed to `path` by [`SessionLog::commit`]. A `path`
    /// that is not a regular file is refused here, before anything is played.
    pub fn create_pending(
        path: &Path,
        level: &Level,
        seed: u64,
        start: &AnyState,
    ) -> Result<SessionLog, CliError> {
        tessera_replay::check_target(path).map_err(|e| CliError::BadInput(e.to_string()))?;
        let name = path.file_name().ok_or_else(|| CliError::file(path, "not a file path"))?;
        // Temporary files of killed recordings of this log, as recording in place clears them.
        let stale = tessera_replay::remove_stale_temps(path).map_err(|e| CliError::file(path, e))?;
        for t in &stale.removed {
            eprintln!("tessera: {}: removed a stale temporary file left by a killed recording", t.display());
        }
        // Far above the counter `atomic_write` numbers its own temporary files with.
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1 << 40);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".tmp{}-{n}", std::process::id()));
        let temp = path.with_file_name(temp_name);
        let recorder = Self::recorder(&temp, level, seed, start)?;
        Ok(SessionLog {
            recorder,
            path: temp,
            pending: Some(path.to_path_buf()),
            done: Vec::new(),
            undone: Vec::new(),
        })
    }

    fn recorder(path: &Path, level: &Level, seed: u64, start: &AnyState) -> Result<Recorder, CliError> {
        let header = Header::new(level, seed, tessera_replay::DEFAULT_KEYFRAME_INTERVAL)
            .map_err(|e| CliError::BadInput(e.to_string()))?;
        let recorder = Recorder::create(path, &header, start, RecorderConfig::default())
            .map_err(|e| CliError::file(path, e))?;
        for t in &recorder.stale_temps().removed {
            eprintln!("tessera: {}: removed a stale temporary file left by a killed recording", t.display());
        }
        Ok(recorder)
    }

    /// Puts a pending log in place at its path (nothing for a log recorded in place).
    pub fn commit(mut self) -> Result<(), CliError> {
        let Some(target) = self.pending.take() else { return Ok(()) };
        let temp = std::mem::take(&mut self.path);
        let result = (|| {
            self.recorder.sync()?;
            tessera_replay::check_target(&target)?;
            std::fs::rename(&temp, &target)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        result.map_err(|e| CliError::file(&target, e))
    }

    fn fail(&self, e: std::io::Error) -> CliError {
        CliError::file(self.pending.as_ref().unwrap_or(&self.path), e)
    }

    /// A command was applied, leaving `state`.
    pub fn applied(
        &mut self,
        cmd: &AnyCommand,
        events: &[AnyEvent],
        state: &AnyState,
    ) -> Result<(), CliError> {
        self.undone.clear();
        self.done.push(cmd.clone());
        self.recorder.record(cmd, events, state).map_err(|e| self.fail(e))
    }

    /// The last step was undone.
    pub fn undone(&mut self) -> Result<(), CliError> {
        if let Some(c) = self.done.pop() {
            self.undone.push(c);
        }
        self.recorder.truncate_to(self.done.len() as u64).map_err(|e| self.fail(e))
    }

    /// The last undone step was redone with `events`, leaving `state`.
    pub fn redone(&mut self, events: &[AnyEvent], state: &AnyState) -> Result<(), CliError> {
        let Some(cmd) = self.undone.pop() else { return Ok(()) };
        self.recorder.record(&cmd, events, state).map_err(|e| self.fail(e))?;
        self.done.push(cmd);
        Ok(())
    }
}

impl Drop for SessionLog {
    /// A pending log never committed (the run failed) leaves nothing behind.
    fn drop(&mut self) {
        if self.pending.is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
