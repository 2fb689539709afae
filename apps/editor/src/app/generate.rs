//! The Generate pane placed (right of the board, in Edit and Play, for a game written as text or
//! a rule set with a generator: Sokoban, match-3) and what it asks of the game. Accept appends
//! a PuzzleScript level to the game's source (one undoable edit of Edit's draft, as a rebuild;
//! Ctrl+S saves it), adds a Sokoban room to the pane's collection (Save collection… writes it
//! as XSB, atomically), or gives Edit's match-3 stage the candidate's move limit and target
//! (one undoable edit; Save level writes it). Show the solution plays a candidate in Play a
//! step at a time, as the workbench's Show the solution does.

use super::*;
use crate::generate::{GenerateAction, Target};
use tessera_core::Takes;

/// The Generate pane's width, in points.
pub(super) const GENERATE_WIDTH: f32 = 300.0;

impl EditorApp {
    /// The Generate pane.
    pub fn generate(&self) -> &crate::generate::GeneratePanel {
        &self.generate
    }

    /// The Generate pane, to change (its options, the Keep brush).
    pub fn generate_mut(&mut self) -> &mut crate::generate::GeneratePanel {
        &mut self.generate
    }

    /// Whether the Generate pane is shown: opened, in Edit or Play, for a game written as text
    /// or a rule set with a generator.
    pub fn generate_shown(&self) -> bool {
        self.generate.open && self.can_generate() && matches!(self.mode, Mode::Edit | Mode::Play)
    }

    /// Whether Edit's level can grow new ones: a game written as text, or a rule set that
    /// registers a generator (Sokoban, match-3).
    pub fn can_generate(&self) -> bool {
        self.has_source() || self.rules_generator().is_some()
    }

    /// The generator of Edit's rule set, when it has one and its game is not written as text.
    fn rules_generator(&self) -> Option<&'static tessera_core::Generator> {
        if self.has_source() {
            return None;
        }
        tessera_core::generator(self.edit.draft().rule_set().name())
    }

    /// The game's source as Edit holds it (its painted level in it) and the rows of the level
    /// shown (None when they cannot be read).
    fn generate_game(&self) -> Option<(String, Option<Vec<String>>)> {
        let level = self.edit.draft().to_level();
        let (source, k) = source_of(&level)?;
        let rows = tessera_core::puzzlescript::level_rows(source, k).ok();
        Some((source.to_string(), rows))
    }

    /// The Generate pane, right of the board; what it asks is done here.
    pub(super) fn generate_ui(&mut self, ui: &mut egui::Ui) {
        if !self.generate_shown() {
            // A round keeps running while the pane is hidden: its candidates wait for it.
            if self.generate.poll() {
                ui.ctx().request_repaint_after(std::time::Duration::from_millis(200));
            }
            return;
        }
        let game = self.generate_game();
        let shown = self.edit.draft().to_level();
        let generator = self.rules_generator();
        let target = match (&game, generator) {
            (Some((source, rows)), _) => Target::Game { source, shown: rows.as_deref() },
            (None, Some(generator)) => Target::Rules { generator, shown: &shown },
            (None, None) => return,
        };
        let mut action = None;
        egui::Panel::right("generate").resizable(true).default_size(GENERATE_WIDTH).show(ui, |ui| {
            action = self.generate.ui(ui, &target);
        });
        let takes = generator.map(|g| g.takes);
        match action {
            Some(GenerateAction::Accept(rows)) => {
                let said = match self.accept_generated(&rows) {
                    Ok(n) => format!("Level {n} added to the game's source: Ctrl+S saves it"),
                    Err(e) => format!("not added: {e}"),
                };
                self.tell(said);
            }
            Some(GenerateAction::AcceptLevel(level)) => {
                let said = if takes == Some(Takes::Stage) {
                    match self.accept_stage(&level) {
                        Ok(()) => format!(
                            "Edit's stage takes the candidate's settings ({}): Save level writes it, Undo edit takes it back",
                            level.rows.last().map_or("", String::as_str)
                        ),
                        Err(e) => format!("not taken: {e}"),
                    }
                } else {
                    let n = self.generate.collect(*level);
                    format!("Level {n} of the collection: Save collection… writes them")
                };
                self.tell(said);
            }
            Some(GenerateAction::Show(level, solution)) => self.show_generated(*level, solution),
            Some(GenerateAction::SaveCollection) => {
                let dir = self.start_dir();
                self.picker = Some(crate::files::FilePicker::new(
                    crate::files::Purpose::SaveCollection,
                    dir,
                    "generated.xsb",
                ));
            }
            None => {}
        }
    }

    /// Gives Edit's stage the settings of a tuned one (its move limit, target score and seed),
    /// as one undoable edit.
    pub fn accept_stage(&mut self, level: &tessera_generate::RulesLevel) -> Result<(), String> {
        self.edit.replace_level(&level.level)
    }

    /// Writes the pane's collection of accepted levels to `path` as an XSB collection,
    /// atomically; what to say.
    pub fn save_collection(&mut self, path: &Path) -> Result<String, String> {
        let levels = self.generate.collection().len();
        if levels == 0 {
            return Err("no level accepted yet".into());
        }
        tessera_replay::atomic_write(path, self.generate.collection_text().as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(format!("saved {levels} levels to {}: open them with File > Open", path.display()))
    }

    /// Appends the level of `rows` to the game's source after its last level, in its own
    /// legend's characters (as `tessera generate` writes), as an edit of Edit's draft (Undo
    /// edit takes it back); the level's playable number, from 1. Refused while the source pane
    /// holds typing not rebuilt.
    pub fn accept_generated(&mut self, rows: &[String]) -> Result<usize, String> {
        if self.workbench.unbuilt() {
            return Err("the source pane has typing not rebuilt: Rebuild (Ctrl+Enter) or Revert first".into());
        }
        let (source, _) = self.generate_game().ok_or("Edit holds no game written as text")?;
        let level = crate::generate::level_with(&source, rows)?;
        let (text, number) = match &level {
            Level::PuzzleScript(l) => (l.source.to_string(), l.level + 1),
            _ => return Err("not a PuzzleScript level".into()),
        };
        self.rebuilt(text);
        self.generate.accepted(rows);
        Ok(number)
    }

    /// Plays `level` (a candidate) in Play with its own seed and shows `solution` on it a step
    /// at a time.
    fn show_generated(&mut self, level: Level, solution: Vec<tessera_core::AnyCommand>) {
        let title = format!("generated candidate ({} steps)", solution.len());
        let seed = level.seed().unwrap_or(tessera_core::DEFAULT_SEED);
        if self.open_level(level, seed, &title) {
            // Not Edit's level: a rebuild (Accept) plays Edit's again.
            self.play_foreign = true;
            self.notice = None;
            self.walk_from = Some((self.session.state().clone(), solution.clone()));
            self.walk_len = solution.len();
            self.walk = solution.into();
        }
    }
}
