//! Recovery of unsaved edits, so that a crash, a killed process or a power cut loses nothing.
//!
//! While the level in Edit mode has changes that are not saved, [`Recovery`] keeps a copy of it
//! in one file of a recovery folder (by default `$XDG_STATE_HOME/tessera`, else
//! `~/.local/state/tessera`; `TESSERA_RECOVERY_DIR` overrides): written atomically, at most once
//! a second ([`DEFAULT_EVERY`]) while changes go on, and removed as soon as nothing is unsaved
//! (saved, undone back to the save, discarded, or another level opened). A file still there when
//! the editor starts means the last run ended with unsaved edits: the editor offers them back.
//!
//! The copy is written on a thread of its own: encoding a 1024×1024 map and syncing it to disk
//! takes longer than a frame, and painting must not stutter once a second. The window only
//! clones the draft.
//!
//! One file for all windows: two editors with unsaved edits at once share it, and the last to
//! write wins.
//!
//! `recovery.rs` keeps unsaved edits out of a crash's reach: while the draft is dirty, a copy
//! (level JSON, its path, the time) is written atomically to one recovery file on a thread of its
//! own (the window only clones the draft: encoding and syncing a 1024² map takes longer than a
//! frame), throttled to once a second (a repaint is asked for when a write is due), and removed
//! once nothing is unsaved (after any write under way); `main` turns it on
//! (`EditorApp::enable_recovery`; off in tests unless asked, and in the screenshot hook), and a
//! file left by an earlier run is offered back in a modal (unreadable ones are moved aside). Tests:
//! `apps/editor/tests/edit.rs`, unit tests in `draft.rs` and `recovery.rs`.

use crate::draft::Draft;
use crate::edit::EditView;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The file's name in the recovery folder.
pub const RECOVERY_FILE: &str = "unsaved-level.json";

/// The most the recovery file lags behind the draft while it changes, in seconds.
pub const DEFAULT_EVERY: f64 = 1.0;

/// What the recovery file holds: the level as edited, where it came from, and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recovered {
    /// The level file being edited, if it had one.
    pub path: Option<PathBuf>,
    /// The game's file the level came from (a PuzzleScript `.txt`), which Save game source
    /// writes; absent in copies written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_source: Option<PathBuf>,
    /// When the copy was written, in seconds since 1970.
    pub written_at: u64,
    /// The level as edited: the JSON text of a level file (which may not play yet).
    pub level: String,
}

impl Recovered {
    /// "2048.json, 5 minutes ago": what the question shows.
    pub fn describe(&self) -> String {
        let file = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = match (self.path.as_deref().and_then(file), self.game_source.as_deref().and_then(file)) {
            (Some(n), _) => n,
            (None, Some(g)) => format!("a level of {g}"),
            (None, None) => "a new level (never saved)".to_string(),
        };
        format!("{name}, {}", ago(now_secs().saturating_sub(self.written_at)))
    }
}

/// Keeps the recovery file in step with the draft.
#[derive(Debug)]
pub struct Recovery {
    file: PathBuf,
    every: f64,
    /// The draft revision the file holds, when this run wrote it.
    written: Option<u64>,
    /// When the file was last written (or a write failed), in egui seconds.
    last_try: Option<f64>,
    /// The write under way, if any.
    writing: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Recovery {
    /// Recovery into `dir` (made when first needed), writing at most once per `every` seconds
    /// on a thread of its own; with `every` 0, at once and on the caller's thread (so that a
    /// test sees the file as soon as the frame that changed the draft is over).
    pub fn new(dir: &Path, every: f64) -> Recovery {
        Recovery { file: dir.join(RECOVERY_FILE), every, written: None, last_try: None, writing: None }
    }

    /// The recovery file.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// What an earlier run left: `Ok(None)` when nothing. A file that cannot be read as a
    /// recovery is moved aside (`….unreadable`) so that it is not offered again, and the error
    /// says where it went.
    pub fn left_over(&self) -> Result<Option<Recovered>, String> {
        let text = match std::fs::read_to_string(&self.file) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("unsaved edits in {}: {e}", self.file.display())),
        };
        serde_json::from_str(&text).map(Some).map_err(|e| {
            let aside = self.file.with_extension("json.unreadable");
            let moved = match std::fs::rename(&self.file, &aside) {
                Ok(()) => format!("moved to {}", aside.display()),
                Err(m) => format!("and could not be moved aside: {m}"),
            };
            format!("unsaved edits in {} are unreadable ({e}); {moved}", self.file.display())
        })
    }

    /// Waits for the write under way, if any; its error, if it failed.
    pub fn wait(&mut self) -> Result<(), String> {
        match self.writing.take().map(std::thread::JoinHandle::join) {
            None | Some(Ok(Ok(()))) => Ok(()),
            Some(Ok(Err(e))) => {
                self.written = None;
                Err(e)
            }
            Some(Err(_)) => {
                self.written = None;
                Err(format!("the copy of the unsaved edits to {} failed", self.file.display()))
            }
        }
    }

    /// Removes the recovery file (the edits were saved or given up), after any write under way.
    pub fn forget(&mut self) -> Result<(), String> {
        let _ = self.wait();
        self.written = None;
        match std::fs::remove_file(&self.file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(format!("could not remove {}: {e}", self.file.display()))
            }
            _ => Ok(()),
        }
    }

    /// Brings the file in step with `edit` at egui time `now`: written when the draft has
    /// unsaved changes the file does not hold yet (at most once per `every` seconds, one write
    /// at a time), removed when nothing is unsaved. `Ok(Some(wait))`: a
    /// write is due in `wait` seconds (repaint then). A failed write is reported once, and tried
    /// again an interval later.
    pub fn tick(&mut self, edit: &EditView, now: f64) -> Result<Option<f64>, String> {
        if self.writing.as_ref().is_some_and(std::thread::JoinHandle::is_finished) {
            self.wait()?;
        }
        if !edit.dirty() {
            return if self.written.is_some() || self.writing.is_some() {
                self.forget().map(|()| None)
            } else {
                Ok(None)
            };
        }
        if self.written == Some(edit.revision()) {
            return Ok(None);
        }
        if self.writing.is_some() {
            return Ok(Some(POLL));
        }
        if let Some(last) = self.last_try {
            let wait = last + self.every - now;
            if wait > 0.0 {
                return Ok(Some(wait));
            }
        }
        self.last_try = Some(now);
        self.written = Some(edit.revision());
        let paths = (edit.path().map(Path::to_path_buf), edit.imported_from().map(Path::to_path_buf));
        if self.every <= 0.0 {
            return write_copy(&self.file, edit.draft(), paths)
                .map(|()| None)
                .inspect_err(|_| self.written = None);
        }
        let (file, draft) = (self.file.clone(), edit.draft().clone());
        let spawned = std::thread::Builder::new()
            .name("tessera-recovery".into())
            .spawn(move || write_copy(&file, &draft, paths));
        match spawned {
            Ok(handle) => {
                self.writing = Some(handle);
                Ok(None)
            }
            Err(e) => {
                self.written = None;
                Err(format!("could not keep a copy of the unsaved edits: {e}"))
            }
        }
    }
}

/// How often a finished write is looked for while changes wait behind it, in seconds.
const POLL: f64 = 0.1;

/// Writes the copy of `draft` (opened from `path`, its game's file `game_source`) to `file`,
/// atomically.
fn write_copy(
    file: &Path,
    draft: &Draft,
    (path, game_source): (Option<PathBuf>, Option<PathBuf>),
) -> Result<(), String> {
    let copy = Recovered { path, game_source, written_at: now_secs(), level: draft.to_level().to_json() };
    let json = serde_json::to_string(&copy).map_err(|e| e.to_string())?;
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .and_then(|()| tessera_replay::atomic_write(file, json.as_bytes()))
        .map_err(|e| format!("could not keep a copy of the unsaved edits in {}: {e}", file.display()))
}

/// The recovery folder: `TESSERA_RECOVERY_DIR`, else `$XDG_STATE_HOME/tessera`, else
/// `%LOCALAPPDATA%\tessera` (Windows), else `~/.local/state/tessera`; `None` without any.
pub fn default_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("TESSERA_RECOVERY_DIR")
        .or_else(|| var("XDG_STATE_HOME").map(|d| d.join("tessera")))
        .or_else(|| var("LOCALAPPDATA").map(|d| d.join("tessera")))
        .or_else(|| var("HOME").map(|d| d.join(".local/state/tessera")))
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// "just now", "5 minutes ago", "3 hours ago", "2 days ago".
fn ago(secs: u64) -> String {
    let (n, unit) = match secs {
        0..60 => return "just now".into(),
        60..3600 => (secs / 60, "minute"),
        3600..86_400 => (secs / 3600, "hour"),
        _ => (secs / 86_400, "day"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_copied_at_most_once_per_interval_and_the_last_one_always() {
        let dir = std::env::temp_dir().join(format!("tessera-recovery-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut edit = EditView::default();
        let mut r = Recovery::new(&dir, 1.0);
        assert_eq!(r.tick(&edit, 0.0), Ok(None));
        assert!(!r.file().exists(), "nothing unsaved");
        edit.new_level(tessera_core::RuleSet::Collapse, 5, 4, 1).unwrap();
        let read = |r: &Recovery| {
            let text = std::fs::read_to_string(r.file()).unwrap();
            serde_json::from_str::<Recovered>(&text).unwrap().level
        };
        assert_eq!(r.tick(&edit, 10.0), Ok(None), "the first change is copied at once");
        r.wait().unwrap();
        assert_eq!(read(&r), edit.draft().to_level().to_json());
        edit.randomize(7).unwrap();
        let wait = r.tick(&edit, 10.25).unwrap().expect("the next copy waits");
        assert!((wait - 0.75).abs() < 1e-9, "{wait}");
        assert_ne!(read(&r), edit.draft().to_level().to_json(), "not yet");
        assert_eq!(r.tick(&edit, 11.0), Ok(None));
        r.wait().unwrap();
        assert_eq!(read(&r), edit.draft().to_level().to_json(), "the last change is copied");
        assert_eq!(r.tick(&edit, 11.5), Ok(None), "nothing new: nothing to wait for");
        r.forget().unwrap();
        assert!(!r.file().exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn ages_read_as_people_say_them() {
        assert_eq!(ago(0), "just now");
        assert_eq!(ago(59), "just now");
        assert_eq!(ago(60), "1 minute ago");
        assert_eq!(ago(3599), "59 minutes ago");
        assert_eq!(ago(7200), "2 hours ago");
        assert_eq!(ago(86_400 * 3 + 5), "3 days ago");
    }
}
