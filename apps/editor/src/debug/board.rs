//! The board in Debug: the mirror drawn at the shown step, the outline, the cell menu.

use super::*;
use crate::board::Overlay;

impl DebugView {
    pub(super) fn board_ui(&mut self, ui: &mut egui::Ui, now: f64) {
        let Some(d) = &self.debugger else { return };
        let Some(m) = d.mirror() else {
            ui.vertical_centered(|ui| {
                ui.add_space(40.0);
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("Error: no board at step {}", d.step()),
                );
                if let Err(e) = d.state() {
                    ui.label(e);
                }
                if let Some(Err(e)) = d.record() {
                    ui.label(e);
                }
            });
            return;
        };
        let highlights = self.fired_cells().unwrap_or_else(|| m.touched());
        // "Board after this rule" picked: that board, said above it.
        let after = self.rule_board().cloned();
        let Some(d) = &self.debugger else { return };
        let Some(m) = d.mirror() else { return };
        if let (Some(_), Some((_, t, r))) = (&after, self.after_rule) {
            ui.strong(format!(
                "The board after rule {} of turn {t} (before the step's later rules and moves): click \"board\" again for the step's end",
                r + 1
            ));
        }
        let overlay = Overlay { highlights, ..Overlay::default() };
        let at = d.clock().at(now);
        // A state for the board's ground texture: the shown one, else the mirror draws alone.
        let input = match (&after, d.state()) {
            (Some(b), _) => self.board.show_game(ui, m, Some(d.log().rules()), b, at, &overlay),
            (None, Ok(s)) => self.board.show_game(ui, m, Some(d.log().rules()), s, at, &overlay),
            (None, Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, format!("Error: {e}"));
                match d.log().state_at(d.step().saturating_sub(1)) {
                    Ok(prev) => self.board.show_game(ui, m, Some(d.log().rules()), &prev, at, &overlay),
                    Err(_) => crate::board::BoardInput::default(),
                }
            }
        };
        if d.clock().running(now) {
            ui.ctx().request_repaint();
        }
        // Alt+click: the last step at or before this one that changed the cell (again: the one
        // before); a secondary click opens the cell's menu.
        let released = |button: egui::PointerButton| {
            ui.input(|i| {
                i.events.iter().find_map(|e| match e {
                    egui::Event::PointerButton { button: b, pressed: false, modifiers, pos }
                        if *b == button =>
                    {
                        Some((*modifiers, *pos))
                    }
                    _ => None,
                })
            })
        };
        if let Some(cell) = input.clicked
            && released(egui::PointerButton::Primary).is_some_and(|(m, _)| m.alt)
        {
            self.show_cell_history(cell, true);
        }
        if let Some(cell) = input.hovered
            && let Some((_, pos)) = released(egui::PointerButton::Secondary)
            && !ui.input(|i| i.pointer.is_decidedly_dragging())
        {
            self.menu = Some((cell, pos));
        }
        self.cell_menu(ui);
    }

    /// The context menu of a board cell.
    pub(super) fn cell_menu(&mut self, ui: &mut egui::Ui) {
        let Some((cell, pos)) = self.menu else { return };
        let mut choice = None;
        let area = egui::Area::new(egui::Id::unique("debug-cell-menu"))
            .order(egui::Order::Foreground)
            .fixed_pos(pos)
            .show(ui.ctx(), |ui| {
                egui::Frame::menu(ui.style()).show(ui, |ui| {
                    ui.label(format!("Cell ({}, {})", cell.x, cell.y));
                    if ui.button("Last change of this cell").on_hover_text("Alt+click").clicked() {
                        choice = Some(true);
                    }
                    if ui.button("Cell history").clicked() {
                        choice = Some(false);
                    }
                });
            });
        let clicked_elsewhere = area.response.clicked_elsewhere();
        if let Some(jump) = choice {
            self.menu = None;
            self.show_cell_history(cell, jump);
        } else if clicked_elsewhere && ui.input(|i| !i.pointer.secondary_released()) {
            self.menu = None;
        }
    }
}
