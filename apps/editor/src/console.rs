//! [`Console`]: what the game said, as PuzzleScript's console says it — per step, the rules
//! that fired (each with a link to its line), `again` turns, `cancel`, the sounds that play
//! (`sfx` included), messages, checkpoints, the win; a rebuild's errors and warnings (a click
//! goes to the line); with "Verbose", also every rule tried (matched or not), what moved and
//! which cells changed, by the objects' names. Cleared when a level loads; its text can be
//! copied.
//!
//! The lines come from the rule set's editor entry
//! ([`crate::games::EditorGame::console_lines`]), so the console itself knows no game.

use crate::source_editor::Mark;

/// The most lines kept (older ones go).
const MAX_LINES: usize = 2000;

/// What a console line is about (its colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A step's header.
    Step,
    /// A rule fired, or another plain line.
    Info,
    /// A sound, a message, a checkpoint, an again turn.
    Note,
    /// A cancel or a refusal.
    Cancel,
    /// The level was won.
    Win,
    /// A compile error.
    Error,
    /// A compile warning.
    Warning,
    /// A detail shown only with Verbose (a rule tried, a move, a cell's change).
    Detail,
}

/// A line of the console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleLine {
    /// Its text.
    pub text: String,
    /// The source line it links to (a rule's, an error's).
    pub line: Option<u32>,
    /// What it is about.
    pub kind: Kind,
}

impl ConsoleLine {
    /// A line of `kind` saying `text`, linked to source line `line`.
    pub fn new(kind: Kind, text: impl Into<String>, line: Option<u32>) -> ConsoleLine {
        ConsoleLine { text: text.into(), line, kind }
    }
}

/// The console pane.
#[derive(Default)]
pub struct Console {
    lines: Vec<ConsoleLine>,
    /// Show every detail (moves, cells) with the rules.
    pub verbose: bool,
    /// Shown below the board.
    pub open: bool,
}

impl Console {
    /// The lines, oldest first.
    pub fn lines(&self) -> &[ConsoleLine] {
        &self.lines
    }

    /// Forgets every line (a level loaded).
    pub fn clear(&mut self) {
        self.lines.clear();
    }

    /// Adds lines (details only with Verbose), keeping the last [`MAX_LINES`].
    pub fn extend(&mut self, lines: impl IntoIterator<Item = ConsoleLine>) {
        let verbose = self.verbose;
        self.lines.extend(lines.into_iter().filter(|l| verbose || l.kind != Kind::Detail));
        if self.lines.len() > MAX_LINES {
            let extra = self.lines.len() - MAX_LINES;
            self.lines.drain(..extra);
        }
    }

    /// Adds a rebuild's errors and warnings (each linked to its line), or that it built.
    pub fn compiled(&mut self, marks: &[Mark], built: bool) {
        let errors = marks.iter().filter(|m| m.error).count();
        let header = if built {
            format!("Rebuilt ({} warning(s))", marks.len() - errors)
        } else {
            format!("Rebuild failed: {errors} error(s)")
        };
        let mut lines = vec![ConsoleLine::new(Kind::Step, header, None)];
        for m in marks {
            let kind = if m.error { Kind::Error } else { Kind::Warning };
            let line = (m.line > 0).then_some(m.line as u32);
            lines.push(ConsoleLine::new(kind, m.message.clone(), line));
        }
        self.extend(lines);
    }

    /// The whole text, a line each (what Copy puts on the clipboard).
    pub fn text(&self) -> String {
        self.lines.iter().map(line_text).collect::<Vec<_>>().join("\n")
    }

    /// The pane: Verbose, Copy, Clear, then the lines (the newest in view); the source line
    /// whose link was clicked.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<u32> {
        let mut clicked = None;
        ui.horizontal(|ui| {
            ui.strong("Console");
            ui.checkbox(&mut self.verbose, "Verbose")
                .on_hover_text("Also every rule tried (matched or not), every move and every cell changed, by the objects' names");
            if ui.button("Copy").on_hover_text("Copy the console's text").clicked() {
                ui.ctx().copy_text(self.text());
            }
            if ui.button("Clear").clicked() {
                self.clear();
            }
        });
        // Long lines wrap at the pane's edge (never cut).
        egui::ScrollArea::vertical()
            .id_salt("console-scroll")
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for l in &self.lines {
                    ui.horizontal_wrapped(|ui| {
                        ui.spacing_mut().item_spacing.x = 6.0;
                        if let Some(n) = l.line
                            && ui.link(egui::RichText::new(format!("line {n}")).monospace()).clicked()
                        {
                            clicked = Some(n);
                        }
                        let colour = match l.kind {
                            Kind::Step => ui.visuals().strong_text_color(),
                            Kind::Info => ui.visuals().text_color(),
                            Kind::Note => egui::Color32::from_rgb(0x5c, 0xd0, 0xd0),
                            Kind::Cancel | Kind::Error => ui.visuals().error_fg_color,
                            Kind::Win => egui::Color32::from_rgb(0x6a, 0xd0, 0x6a),
                            Kind::Warning => ui.visuals().warn_fg_color,
                            Kind::Detail => ui.visuals().weak_text_color(),
                        };
                        ui.add(
                            egui::Label::new(egui::RichText::new(&l.text).monospace().color(colour)).wrap(),
                        );
                    });
                }
            });
        clicked
    }
}

/// A line as copied: its link, then its text.
fn line_text(l: &ConsoleLine) -> String {
    match l.line {
        Some(n) => format!("line {n}: {}", l.text),
        None => l.text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_need_verbose_and_the_text_copies_links() {
        let mut c = Console::default();
        c.extend([
            ConsoleLine::new(Kind::Info, "[ > P | C ] -> [ > P | > C ]", Some(7)),
            ConsoleLine::new(Kind::Detail, "moved", None),
        ]);
        assert_eq!(c.lines().len(), 1, "no detail without Verbose");
        c.verbose = true;
        c.extend([ConsoleLine::new(Kind::Detail, "moved", None)]);
        assert_eq!(c.text(), "line 7: [ > P | C ] -> [ > P | > C ]\nmoved");
        c.clear();
        assert!(c.lines().is_empty());
    }
}
