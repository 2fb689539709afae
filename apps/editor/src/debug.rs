//! Debug mode: the time-travel debugger over a log (placeholder: being built).

use crate::anim::Speed;
use crate::session::Session;
use std::path::PathBuf;
use tessera_replay::Log;

/// What the debugger asks the app to do.
pub enum DebugAction {
    /// Continue from the shown step as a new branch, in Play.
    PlayFromHere(Box<Session>),
}

/// The debugger: a log, the step shown, the board at that step.
#[derive(Default)]
pub struct DebugView {
    log: Option<(Log, Option<PathBuf>)>,
}

impl DebugView {
    /// Opens `log` (read from `path`, if from a file), paused at step 0.
    pub fn open_log(&mut self, log: Log, path: Option<PathBuf>) {
        self.log = Some((log, path));
    }

    /// Whether a log is open.
    pub fn is_open(&self) -> bool {
        self.log.is_some()
    }

    /// Draws the debugger in the space left by the app's bars.
    pub fn ui(&mut self, ui: &mut egui::Ui, _speed: Speed) -> Option<DebugAction> {
        egui::CentralPanel::default().show(ui, |ui| {
            match &self.log {
                Some((log, _)) => ui.label(format!("{} steps", log.steps())),
                None => ui.label("No log open"),
            };
        });
        None
    }
}
