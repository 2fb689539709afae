//! "Pin as regression test…": the form's work, now or on a thread.

use super::*;
use std::path::{Path, PathBuf};
use std::sync::mpsc::TryRecvError;

impl DebugView {
    /// Copies the open log into `folder` as a regression test named `name` (see
    /// [`tessera_replay::pin`], which verifies it first), now; the message says what was
    /// written.
    pub fn pin(&mut self, folder: &Path, name: &str, note: &str) -> Result<PathBuf, String> {
        let Some(d) = &self.debugger else { return Err("no log open".into()) };
        let source = d.path().map_or_else(|| PathBuf::from("unsaved.tlog"), Path::to_path_buf);
        let r = tessera_replay::pin(d.log(), &source, folder, name, note).map_err(|e| e.to_string());
        self.finish_pin(r)
    }

    /// [`DebugView::pin`] for the form: now for a log of fewer than
    /// [`DebugConfig::background_verify_from`] steps, else on a thread (verifying a million
    /// steps takes about a second), the window staying live; [`DebugView::poll_pin`] takes the
    /// result. The form closes when the pin succeeds.
    pub fn start_pin(&mut self, folder: PathBuf, name: String, note: String) {
        let Some(d) = &self.debugger else { return };
        if self.pin_rx.is_some() {
            return;
        }
        if d.steps() < self.config.background_verify_from {
            if self.pin(&folder, &name, &note).is_ok() {
                self.pin = None;
            }
            return;
        }
        let source = d.path().map_or_else(|| PathBuf::from("unsaved.tlog"), Path::to_path_buf);
        let log = d.shared_log();
        let steps = d.steps();
        let (tx, rx) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new().name("tessera-pin".into()).spawn(move || {
            // The receiver may be gone (another log opened): the copy is written all the same.
            let _ =
                tx.send(tessera_replay::pin(&log, &source, &folder, &name, &note).map_err(|e| e.to_string()));
        });
        match spawned {
            Ok(_) => {
                self.pin_rx = Some(rx);
                self.message = Some((false, format!("pinning: verifying {steps} steps…")));
            }
            Err(e) => self.message = Some((true, format!("not pinned: cannot start the pin thread: {e}"))),
        }
    }

    /// Takes a background pin's result if it has come; `true` while one is still running.
    pub fn poll_pin(&mut self) -> bool {
        let Some(rx) = &self.pin_rx else { return false };
        let result = match rx.try_recv() {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return true,
            Err(TryRecvError::Disconnected) => Err("the pin thread stopped without a result".into()),
        };
        self.pin_rx = None;
        if self.finish_pin(result).is_ok() {
            self.pin = None;
        }
        false
    }

    /// Whether a pin is verifying on a thread.
    pub fn pinning(&self) -> bool {
        self.pin_rx.is_some()
    }

    pub(super) fn finish_pin(
        &mut self,
        r: Result<tessera_replay::Pinned, String>,
    ) -> Result<PathBuf, String> {
        self.message = Some(match &r {
            Ok(p) => (false, format!("pinned as {} (with {})", p.log.display(), p.sidecar.display())),
            Err(e) => (true, format!("not pinned: {e}")),
        });
        r.map(|p| p.log)
    }
}
