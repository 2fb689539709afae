//! Opening files (levels, the formats the rule sets import — single levels or collections —,
//! logs) and a small built-in file picker, so the editor needs no native dialog library.
//!
//! Opening any file kind (size capped before reading; other formats by the rule sets' importers,
//! tried in registry order when several claim an extension — a match-3 stage or a Boxoban `.txt` —,
//! the first that reads it wins, else every one's error; a file of more than one level is
//! `Opened::Levels`, and `app/open.rs` asks which to open in a list dialog, which counts as a
//! dialog for the keys), the built-in file picker (listing the extensions the importers claim).
//!
//! Files: `files::open_path` returns `Opened::Draft` for JSON that parses but does not start
//! (`Level::parse_draft`).

use std::io::Read;
use std::path::{Path, PathBuf};
use tessera_core::Level;
use tessera_replay::Log;

/// The largest level, map or stage file the editor reads (logs have their own frame limits).
pub const MAX_LEVEL_BYTES: u64 = 64 << 20;

/// What a file turned out to be.
pub enum Opened {
    /// A level to play (JSON, or a file one of the rule sets imports).
    Level(Level),
    /// A collection of more than one level (a Sokoban `.xsb`), every one of which starts: the
    /// user picks one.
    Levels(Vec<(u64, Level)>),
    /// A recorded log, for the debugger.
    Log(Box<Log>),
    /// A JSON level that parses but does not play (a draft saved from Edit mode), and why.
    Draft(Level, String),
}

/// Reads `path` as a log (by its magic bytes or `.tlog`), a file a rule set imports (by its
/// extension: `.map`, `.txt`, `.xsb` …; when several importers claim it, the first that reads
/// it) or a JSON level. The error names the file and what is wrong.
pub fn open_path(path: &Path) -> Result<Opened, String> {
    let named = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let meta = std::fs::metadata(path).map_err(|e| named(&e))?;
    if meta.is_dir() {
        return Err(named(&"is a folder, not a file"));
    }
    let is_log = path.extension().is_some_and(|e| e == "tlog") || starts_with_magic(path);
    if is_log {
        return Log::open(path).map(|l| Opened::Log(Box::new(l))).map_err(|e| named(&e));
    }
    // Read at most one byte past the limit: a file's size may lie (`/dev/zero`, a pipe).
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| std::io::Read::take(f, MAX_LEVEL_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| named(&e))?;
    if bytes.len() as u64 > MAX_LEVEL_BYTES {
        return Err(named(&format!("more than {} MiB, the limit for a level", MAX_LEVEL_BYTES >> 20)));
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| named(&format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to())))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    // The rule sets' importers, by extension (a Moving AI `.map`, a stage or Boxoban `.txt`).
    let imports: Vec<_> =
        crate::games::ALL.iter().flat_map(|g| g.imports()).filter(|i| i.ext == ext).collect();
    let mut levels = match imports.is_empty() {
        false => {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
            let mut errors = Vec::new();
            let mut read = None;
            for import in &imports {
                match (import.read)(&text, name.clone()) {
                    Ok(levels) if !levels.is_empty() => {
                        read = Some(levels);
                        break;
                    }
                    Ok(_) => errors.push((import.what, "no level in it".to_string())),
                    Err(e) => errors.push((import.what, e)),
                }
            }
            match read {
                Some(levels) => levels,
                // One format claims the extension: its message alone.
                None if errors.len() == 1 => return Err(named(&errors.remove(0).1)),
                None => {
                    let each: Vec<String> =
                        errors.iter().map(|(what, e)| format!("as {what}: {e}")).collect();
                    return Err(named(&format!("not read: {}", each.join("; "))));
                }
            }
        }
        true => {
            let level = Level::parse_draft(&text).map_err(|e| {
                if ext == "json" {
                    named(&e)
                } else {
                    // Not named as a level: say what the editor opens, not only what JSON wanted.
                    let imports: String = crate::games::ALL
                        .iter()
                        .flat_map(|g| g.imports())
                        .map(|i| format!(", {} (.{})", i.what, i.ext))
                        .collect();
                    named(&format!("not a level (.json){imports} or a log (.tlog); read as a level: {e}"))
                }
            })?;
            if let Err(e) = level.start(None) {
                return Ok(Opened::Draft(level, named(&e)));
            }
            return Ok(Opened::Level(level));
        }
    };
    // A game written as text that does not start (its source does not compile) opens as a
    // draft, in Edit with its errors, for the designer to fix.
    if let [(_, level)] = levels.as_slice()
        && let Err(e) = level.start(None)
        && crate::games::of_level(level).is_some_and(|g| g.source_text(level).is_some())
    {
        return Ok(Opened::Draft(levels.remove(0).1, named(&e)));
    }
    // Check that they start, so that errors show now rather than at play.
    for (n, level) in &levels {
        level.start(None).map_err(|e| match levels.len() {
            1 => named(&e),
            _ => named(&format!("level {n}: {e}")),
        })?;
    }
    if levels.len() == 1 {
        return Ok(Opened::Level(levels.remove(0).1));
    }
    Ok(Opened::Levels(levels))
}

fn starts_with_magic(path: &Path) -> bool {
    let mut head = [0u8; 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && head == tessera_replay::MAGIC
}

/// What the picker is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Open a level or a log.
    Open,
    /// Save the line of play as a log.
    SaveLog,
    /// Save the line of play as an animated GIF.
    SaveGif,
    /// Save the solution shown as an animated GIF.
    SaveSolutionGif,
    /// Save the level being edited.
    SaveLevel,
    /// Save the game's source (a PuzzleScript `.txt`) being edited.
    SaveGameSource,
    /// Export the game as a web page that plays it (`.html`).
    ExportGame,
    /// Save the Generate pane's accepted Sokoban levels as one collection (`.xsb`).
    SaveCollection,
}

/// A file picker in an egui window: a path field and the folder's entries.
pub struct FilePicker {
    /// Open or save.
    pub purpose: Purpose,
    /// The folder listed.
    pub dir: PathBuf,
    /// The path typed or picked.
    pub path: String,
    entries: Vec<(String, bool)>,
    error: Option<String>,
}

impl FilePicker {
    /// A picker listing `dir`.
    pub fn new(purpose: Purpose, dir: PathBuf, name: &str) -> FilePicker {
        let path = if name.is_empty() { String::new() } else { dir.join(name).display().to_string() };
        let mut p = FilePicker { purpose, dir, path, entries: Vec::new(), error: None };
        p.list();
        p
    }

    fn list(&mut self) {
        self.entries.clear();
        match std::fs::read_dir(&self.dir) {
            Ok(rd) => {
                for e in rd.flatten() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
                    let wanted = ["json", "tlog"].contains(&ext)
                        || crate::games::ALL.iter().flat_map(|g| g.imports()).any(|i| i.ext == ext);
                    if !name.starts_with('.') && (is_dir || wanted) {
                        self.entries.push((name, is_dir));
                    }
                }
                self.entries.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                self.error = None;
            }
            Err(e) => self.error = Some(format!("{}: {e}", self.dir.display())),
        }
    }

    /// Shows the picker; returns the chosen path when the user confirms, and sets `open` to
    /// false when they cancel.
    pub fn ui(&mut self, ctx: &egui::Context, open: &mut bool) -> Option<PathBuf> {
        let mut chosen = None;
        let title = match self.purpose {
            Purpose::Open => "Open a level or log",
            Purpose::SaveLog => "Save log as",
            Purpose::SaveGif => "Save GIF of the line of play as",
            Purpose::SaveSolutionGif => "Save GIF of the solution as",
            Purpose::SaveLevel => "Save level as",
            Purpose::SaveGameSource => "Save game source as",
            Purpose::ExportGame => "Export playable game",
            Purpose::SaveCollection => "Save the accepted levels as",
        };
        // A modal dialog: nothing behind it takes a click or a key while it shows (issue
        // 63.8: a click beside the Path field went into the source, and typing replaced it).
        let shown = egui::Modal::new(egui::Id::unique("file-picker")).show(ctx, |ui| {
            ui.set_width(460.0);
            ui.heading(title);
            ui.horizontal(|ui| {
                ui.label("Folder:");
                ui.monospace(self.dir.display().to_string());
                if ui.button("Up").clicked()
                    && let Some(parent) = self.dir.parent()
                {
                    self.dir = parent.to_path_buf();
                    self.list();
                }
            });
            egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
                let mut enter = None;
                for (name, is_dir) in &self.entries {
                    let label = if *is_dir { format!("{name}/") } else { name.clone() };
                    let r = ui.selectable_label(self.path.ends_with(name.as_str()), label);
                    if r.clicked() {
                        if *is_dir {
                            enter = Some(self.dir.join(name));
                        } else {
                            self.path = self.dir.join(name).display().to_string();
                        }
                    }
                    if r.double_clicked() && !is_dir {
                        chosen = Some(self.dir.join(name));
                    }
                }
                if let Some(d) = enter {
                    self.dir = d;
                    self.list();
                }
            });
            if let Some(e) = &self.error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            ui.horizontal(|ui| {
                let label = ui.label("Path");
                let r = ui
                    .add(egui::TextEdit::singleline(&mut self.path).desired_width(300.0))
                    .labelled_by(label.id);
                let go = match self.purpose {
                    Purpose::Open => "Open file",
                    Purpose::SaveLog
                    | Purpose::SaveGif
                    | Purpose::SaveSolutionGif
                    | Purpose::SaveLevel
                    | Purpose::SaveGameSource
                    | Purpose::ExportGame
                    | Purpose::SaveCollection => "Save file",
                };
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if (ui.button(go).clicked() || enter) && !self.path.trim().is_empty() {
                    chosen = Some(PathBuf::from(self.path.trim()));
                }
                if ui.button("Cancel").clicked() {
                    *open = false;
                }
            });
        });
        // Escape cancels (a click beside the dialog does nothing: it is no answer).
        if shown.is_top_modal && ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
            *open = false;
        }
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_is_refused_at_the_limit() {
        let Err(e) = open_path(Path::new("/dev/zero")) else { panic!("/dev/zero is not a level") };
        assert!(e.contains("limit for a level"), "{e}");
    }

    #[test]
    fn a_bad_level_names_the_file_and_the_problem() {
        let dir = std::env::temp_dir().join(format!("tessera-editor-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let p = dir.join("bad.json");
        std::fs::write(&p, r#"{"rule_set":"slide","board":[[2,3]]}"#).expect("write");
        let Ok(Opened::Draft(_, e)) = open_path(&p) else { panic!("a 3 is not a 2048 tile: a draft") };
        assert!(e.starts_with(&p.display().to_string()) && e.contains("power of two"), "{e}");
        std::fs::write(&p, r#"{"rule_set":"slide","board":[[2,3]]"#).expect("write");
        let Err(e) = open_path(&p) else { panic!("not JSON") };
        assert!(e.starts_with(&p.display().to_string()) && e.contains("line 1"), "{e}");
        // A file of another kind says what the editor opens.
        let commands = dir.join("game.commands");
        std::fs::write(&commands, "up\nleft\n").expect("write");
        let Err(e) = open_path(&commands) else { panic!("a command script is not a level") };
        assert!(e.contains("not a level (.json), a Moving AI map (.map)") && e.contains(".tlog"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_txt_that_no_importer_reads_names_each_format_tried() {
        let dir = std::env::temp_dir().join(format!("tessera-editor-files-txt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let p = dir.join("notes.txt");
        std::fs::write(&p, "shopping list\nmilk\n").expect("write");
        let Err(e) = open_path(&p) else { panic!("neither a stage nor a Boxoban file") };
        // Every importer that claims `.txt`, in registry order, says why not.
        let whats: Vec<&str> = crate::games::ALL
            .iter()
            .flat_map(|g| g.imports())
            .filter(|i| i.ext == "txt")
            .map(|i| i.what)
            .collect();
        assert!(whats.len() >= 2, "{whats:?}");
        assert!(e.starts_with(&p.display().to_string()) && e.contains("not read: "), "{e}");
        for what in whats {
            assert!(e.contains(&format!("as {what}: ")), "{e}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
