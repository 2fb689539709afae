//! The inspector: the step's command, events, notes, the rules that fired and a divergence.

use super::*;
use egui::RichText;
use std::path::PathBuf;
use std::sync::Arc;
use tessera_core::{Pos, Rules};

impl DebugView {
    pub(super) fn inspector(&mut self, ui: &mut egui::Ui) {
        let why = self.why_matched();
        let Some(d) = &mut self.debugger else { return };
        let log = Arc::clone(&d.log);
        let h = log.header();
        ui.heading(format!("Step {}", d.step()));
        if let Some(why) = why {
            ui.strong(format!("Matches '{}':", self.filter.shown_query));
            for w in why {
                ui.label(format!("• {w}"));
            }
        }
        self.rules_fired_ui(ui);
        let Some(d) = &mut self.debugger else { return };
        egui::Grid::new("debug-fields").num_columns(2).striped(true).show(ui, |ui| {
            ui.label("Rule set");
            ui.label(h.rule_set.name());
            ui.end_row();
            ui.label("Rules version");
            ui.label(format!("{} (today {})", h.rules_version, h.rule_set.version()));
            ui.end_row();
            ui.label("Seed");
            ui.label(h.seed.to_string());
            ui.end_row();
            if let Ok(s) = d.state() {
                if let Some(score) = crate::shown_score(s) {
                    ui.label("Score");
                    ui.label(score.to_string());
                    ui.end_row();
                }
                ui.label("Status");
                ui.label(log.rules().status(s).to_string());
                ui.end_row();
                for o in crate::objectives(log.rules(), s) {
                    ui.label("Objective");
                    ui.label(o);
                    ui.end_row();
                }
                ui.label("State hash");
                ui.monospace(format!("{:016x}", s.hash()));
                ui.end_row();
            }
            if let Some(Ok(r)) = d.record() {
                ui.label("Recorded hash");
                let same = d.state().is_ok_and(|s| s.hash() == r.hash);
                let mark = if same { "(matches the state)" } else { "(differs from the state)" };
                ui.monospace(format!("{:016x} {mark}", r.hash));
                ui.end_row();
            }
            if let Some(s) = d.outlined_step() {
                ui.label("Outlined");
                ui.label(format!("cells step {s} touched"));
                ui.end_row();
            }
        });
        if let Err(e) = d.state() {
            ui.colored_label(ui.visuals().error_fg_color, format!("Error: state: {e}"));
        }
        if let Some(n) = d.mirror_note() {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("Warning: board rebuilt from the state: {n}"),
            );
        }
        if let Ok(s) = d.state()
            && let Some(g) = crate::games::of(s.rule_set())
        {
            g.inspector_ui(ui, s);
        }
        self.divergence_ui(ui);
        self.cell_history_ui(ui);
        ui.separator();
        let Some(d) = &mut self.debugger else { return };
        ui.label("Notes here");
        let mut any = false;
        for n in d.notes_here() {
            ui.label(format!("Note: {n}"));
            any = true;
        }
        if !any {
            ui.weak("none");
        }
        let label = ui.label("New note");
        ui.add(
            egui::TextEdit::multiline(&mut self.note)
                .hint_text("what happens at this step")
                .desired_rows(2)
                .desired_width((ui.clip_rect().right() - ui.cursor().min.x - 8.0).clamp(60.0, 280.0)),
        )
        .labelled_by(label.id);
        ui.horizontal(|ui| {
            if ui.add_enabled(!self.note.trim().is_empty(), egui::Button::new("Add note")).clicked() {
                match d.add_note(&self.note) {
                    Ok(()) => {
                        self.message =
                            Some((false, format!("note added at step {} (not saved yet)", d.step())));
                        self.note.clear();
                    }
                    Err(e) => self.message = Some((true, e)),
                }
            }
            let hint = "Write the log with its notes (atomically) to the path below";
            if ui.button("Save log").on_hover_text(hint).clicked() {
                let typed = self.save_path.trim();
                let path = (!typed.is_empty()).then(|| PathBuf::from(typed));
                match d.save(path.as_deref()) {
                    Ok(p) => self.message = Some((false, format!("saved {}", p.display()))),
                    Err(e) => self.message = Some((true, e)),
                }
            }
            let hint = "The log as an animated GIF, a frame a turn (docs/gif.md): to the path below when \
                        it ends in .gif, else beside the log's file";
            if ui.button("Save GIF").on_hover_text(hint).clicked() {
                let typed = self.save_path.trim();
                let path = typed.ends_with(".gif").then(|| PathBuf::from(typed));
                self.message = Some(match d.save_gif(path.as_deref()) {
                    Ok(said) => (false, said),
                    Err(e) => (true, e),
                });
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Save to");
            // As wide as the inspector leaves (beside the source pane it is narrow).
            let room = ui.clip_rect().right() - ui.cursor().min.x - 8.0;
            let field = egui::TextEdit::singleline(&mut self.save_path)
                .hint_text("path of a .tlog (or a .gif)")
                .desired_width(room.clamp(60.0, 280.0));
            ui.add(field).labelled_by(label.id);
        });
        ui.separator();
        match d.record() {
            None => {
                ui.label("The start of the game.");
            }
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, format!("Error: step {}: {e}", d.step()));
            }
            Some(Ok(r)) => {
                let cmd = r.command.as_ref().map_or_else(|| "?".into(), ToString::to_string);
                ui.label(format!("Command: {cmd}"));
                ui.label(format!("Events ({})", r.events.len()));
                // In words where the rule set names its things (PuzzleScript's objects by name).
                let game = crate::games::of(d.log().header().rule_set);
                let state = d.state().ok();
                for e in &r.events {
                    let words = game.zip(state).and_then(|(g, s)| g.describe_event(s, e));
                    ui.monospace(words.unwrap_or_else(|| e.to_json().to_string()));
                }
            }
        }
        ui.separator();
        egui::CollapsingHeader::new("Board as text").default_open(true).show(ui, |ui| {
            if let Ok(s) = d.state() {
                ui.label(RichText::new(s.render()).monospace().size(11.0));
            }
        });
    }

    /// The shown step's turns and the rules that fired in each (rule sets whose rules are
    /// text, PuzzleScript): the line links to the rules panel, the rule's text picks it (its
    /// cells outlined on the board).
    pub(super) fn rules_fired_ui(&mut self, ui: &mut egui::Ui) {
        let Some(d) = &self.debugger else { return };
        let rules = d.log().rules();
        let Some(game) = crate::games::of(d.log().header().rule_set) else { return };
        let Some(Ok(rec)) = d.record() else { return };
        let turns = game.rules_fired(rules, &rec.events);
        if turns.is_empty() {
            return;
        }
        let step = d.step();
        if self.fired.is_some_and(|(s, _, _)| s != step) {
            self.fired = None;
        }
        let count: usize = turns.iter().map(|t| t.rules.len()).sum();
        egui::CollapsingHeader::new(format!("Rules that fired ({count})"))
            .id_salt("debug-rules-fired")
            .default_open(true)
            .show(ui, |ui| {
                for (t, turn) in turns.iter().enumerate() {
                    let what =
                        if turn.index == 0 { "the input's turn".to_string() } else { "again".to_string() };
                    ui.strong(format!("Turn {} ({what})", turn.index));
                    if turn.rules.is_empty() {
                        ui.weak("no rule changed a cell");
                    }
                    for (r, rule) in turn.rules.iter().enumerate() {
                        ui.horizontal(|ui| {
                            let link = ui
                                .link(format!("line {}", rule.line))
                                .on_hover_text("Open the rules panel at this line");
                            if link.clicked() {
                                self.action = Some(DebugAction::ShowSourceLine(rule.line));
                            }
                            // The board as this rule left it (issue 63.16): the engine replays
                            // the step recording it.
                            let after = self.after_rule == Some((step, t, r));
                            let b = ui
                                .selectable_label(after, "board")
                                .on_hover_text("Show the board after this rule (again: the step's end)");
                            b.widget_info(|| {
                                egui::WidgetInfo::selected(
                                    egui::Role::Button,
                                    true,
                                    after,
                                    format!("board after rule {} of turn {}", r + 1, turn.index),
                                )
                            });
                            if b.clicked() {
                                self.after_rule = if after { None } else { Some((step, t, r)) };
                                if !after {
                                    self.fired = Some((step, t, r));
                                }
                            }
                            let picked = self.fired == Some((step, t, r));
                            let cells = rule.cells.len();
                            let text =
                                format!("{}  ({cells} cell{})", rule.text, if cells == 1 { "" } else { "s" });
                            // Wrapped at the panel's width, so a long rule does not widen the
                            // inspector over the board and can be read whole (it was cut with
                            // "…", issue 36.9).
                            let label = ui
                                .add(
                                    egui::Button::selectable(picked, RichText::new(&text).monospace()).wrap(),
                                )
                                .on_hover_text(format!("{text}\nClick: outline the cells this rule changed"));
                            if label.clicked() {
                                self.fired = if picked { None } else { Some((step, t, r)) };
                            }
                        });
                    }
                }
            });
    }

    /// The board after the rule picked by "board" in the inspector (at the shown step), worked
    /// out once a step by replaying the step with the engine recording the boards.
    pub fn rule_board(&mut self) -> Option<&AnyState> {
        let d = self.debugger.as_ref()?;
        let (step, t, r) = self.after_rule?;
        if step != d.step() || step == 0 {
            self.after_rule = None;
            return None;
        }
        if self.rule_boards.as_ref().is_none_or(|(s, _)| *s != step) {
            let game = crate::games::of(d.log().header().rule_set)?;
            let before = d.log().state_at(step - 1).ok()?;
            let rec = d.record()?.ok()?;
            let cmd = rec.command.as_ref()?;
            let boards = game.rule_boards(d.log().rules(), &before, cmd);
            self.rule_boards = Some((step, boards));
        }
        self.rule_boards.as_ref()?.1.get(t)?.get(r)
    }

    /// The cells the picked rule that fired changed, when one is picked at the shown step.
    pub fn fired_cells(&self) -> Option<Vec<Pos>> {
        let d = self.debugger.as_ref()?;
        let (step, t, r) = self.fired?;
        if step != d.step() {
            return None;
        }
        let game = crate::games::of(d.log().header().rule_set)?;
        let rec = d.record()?.ok()?;
        let turns = game.rules_fired(d.log().rules(), &rec.events);
        Some(turns.get(t)?.rules.get(r)?.cells.clone())
    }

    pub(super) fn divergence_ui(&mut self, ui: &mut egui::Ui) {
        let Some(d) = &mut self.debugger else { return };
        let VerifyStatus::Done(Ok(report)) = d.verify_status() else { return };
        let Some(div) = report.divergence.clone() else { return };
        ui.separator();
        ui.colored_label(ui.visuals().error_fg_color, format!("Diverges at step {}", div.step));
        let what = div.to_string();
        ui.label(what.lines().next().unwrap_or_default());
        if d.step() != div.step && ui.button(format!("Go to step {}", div.step)).clicked() {
            d.jump(div.step);
            self.scroll_to_cursor = true;
        }
        ui.columns(2, |cols| {
            let sides = [
                ("Recorded (the log)", &div.expected_events, div.expected_hash),
                ("Today's rules", &div.actual_events, div.actual_hash),
            ];
            for (ui, (title, events, hash)) in cols.iter_mut().zip(sides) {
                ui.strong(title);
                ui.monospace(format!("hash {hash:016x}"));
                if events.is_empty() {
                    ui.weak("no events");
                }
                for e in events {
                    ui.monospace(e.to_json().to_string());
                }
            }
        });
    }
}
