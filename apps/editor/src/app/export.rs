//! File → Export playable game… and Play in browser: the game being edited as one web page that
//! plays it on tessera's engine in WebAssembly (`tessera_web`, `docs/export.md`).

use super::*;
use std::path::Path;

impl EditorApp {
    /// The game's source as Edit has it, when it is a game written as text.
    fn game_source(&self) -> Option<String> {
        self.edit.draft().game().source_text(&self.edit.draft().settings).map(|(s, _)| s.to_string())
    }

    /// Writes the game as a web page at `path`.
    pub(super) fn export_game(&mut self, path: &Path) {
        let Some(source) = self.game_source() else {
            self.error = Some("only a PuzzleScript game exports as a web page".into());
            return;
        };
        match tessera_web::write_source_page(&source, path) {
            Ok(bytes) => self.say(format!("exported {} ({} KB)", path.display(), bytes / 1024), false),
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Exports the game to a temporary page and opens it with the system's browser.
    pub(super) fn play_in_browser(&mut self) {
        let Some(source) = self.game_source() else {
            self.error = Some("only a PuzzleScript game plays in a browser".into());
            return;
        };
        let path = std::env::temp_dir().join(format!("tessera-play-{}.html", std::process::id()));
        if let Err(e) = tessera_web::write_source_page(&source, &path) {
            self.error = Some(e.to_string());
            return;
        }
        let opener = if cfg!(target_os = "macos") {
            std::process::Command::new("open").arg(&path).spawn()
        } else if cfg!(windows) {
            std::process::Command::new("cmd").args(["/C", "start", ""]).arg(&path).spawn()
        } else {
            std::process::Command::new("xdg-open").arg(&path).spawn()
        };
        match opener {
            Ok(_) => self.say(format!("opened {} in the browser", path.display()), false),
            Err(e) => {
                self.error = Some(format!("{}: written, but no browser opened it: {e}", path.display()))
            }
        }
    }
}
