//! The filter box, bookmarks and cell history of the Debug view (the scans are `crate::find`'s).

use super::*;
use crate::find::{self, FilterJob, Query};
use egui::Key;
use tessera_core::Pos;
use tessera_ecs::Mirror;

impl DebugView {
    /// Starts the filter `text` (as typed in the box) on a thread.
    pub fn set_filter(&mut self, text: &str) {
        self.filter.text = text.to_string();
        self.start_filter();
    }

    pub(super) fn start_filter(&mut self) {
        let Some(d) = &self.debugger else { return };
        self.filter.shown_query = self.filter.text.trim().to_string();
        self.filter.query = None;
        let size = d.mirror().map(Mirror::size);
        let rule_set = d.log().header().rule_set;
        let game = crate::games::of(rule_set);
        let parsed = self.filter.text.parse::<Query>().map(|mut q| {
            // Words the game recognises (a PuzzleScript object's name) test the events.
            if let (Some(g), Ok(state)) = (game, d.state()) {
                q.resolve(|w| g.event_filter(state, w));
            }
            q
        });
        match parsed.and_then(|q| q.check(rule_set, size).map(|()| q)) {
            Ok(q) if q.is_empty() => {
                self.filter.job = None;
                self.filter.results = None;
            }
            Ok(q) => {
                self.filter.results = None;
                self.filter.query = Some(q.clone());
                self.filter.job = Some(FilterJob::start(d.shared_log(), q));
            }
            Err(e) => {
                self.filter.job = None;
                self.filter.results = Some(Err(format!("filter {e}")));
            }
        }
    }

    /// Shows the history of `cell`; with `jump`, goes to the last step at or before the cursor
    /// that touched it (again: the one before), once the scan is done.
    pub fn show_cell_history(&mut self, cell: Pos, jump: bool) {
        let Some(d) = &mut self.debugger else { return };
        if self.cell.cell == Some(cell)
            && let Some(Ok(steps)) = &self.cell.steps
        {
            if jump {
                let again = self.cell.landed == Some(d.step());
                if let Some(s) = find::last_touch(steps, d.step(), again) {
                    d.jump(s);
                    self.cell.landed = Some(s);
                    self.cell.scroll = true;
                    self.scroll_to_cursor = true;
                } else {
                    self.message = Some((
                        false,
                        format!("no step before {} changed cell ({}, {})", d.step(), cell.x, cell.y),
                    ));
                }
            }
            return;
        }
        self.cell = CellHistory {
            cell: Some(cell),
            job: Some(FilterJob::start(d.shared_log(), Query::cell(cell))),
            steps: None,
            jump_when_done: jump,
            landed: None,
            scroll: false,
        };
    }

    /// Next (`forward`) or previous filter result from the cursor, wrapping.
    pub fn next_result(&mut self, forward: bool) {
        let Some(Ok(results)) = &self.filter.results else { return };
        let Some(d) = &mut self.debugger else { return };
        let target = if forward {
            find::next_after(results, d.step())
        } else {
            find::previous_before(results, d.step())
        };
        if let Some(s) = target {
            d.jump(s);
            self.scroll_to_cursor = true;
        }
    }

    /// Receives finished scans; true while one runs.
    pub(super) fn poll_scans(&mut self) -> bool {
        if let Some(job) = &self.filter.job
            && let Some(r) = job.poll()
        {
            self.filter.job = None;
            if let Some(r) = r.transpose() {
                // Find goes to the first result.
                if let (Ok(results), Some(d)) = (&r, &mut self.debugger)
                    && let Some(&first) = results.first()
                {
                    d.jump(first);
                    self.scroll_to_cursor = true;
                }
                self.filter.results = Some(r);
            }
        }
        if let Some(job) = &self.cell.job
            && let Some(r) = job.poll()
        {
            self.cell.job = None;
            if let Some(r) = r.transpose() {
                self.cell.steps = Some(r);
                self.cell.scroll = true;
                if std::mem::take(&mut self.cell.jump_when_done)
                    && let Some(cell) = self.cell.cell
                {
                    self.show_cell_history(cell, true);
                }
            }
        }
        self.scanning()
    }

    /// The filter box, its progress, its results with counts and Next / Previous. Returns a
    /// step to go to.
    pub(super) fn filter_ui(&mut self, ui: &mut egui::Ui) -> Option<u64> {
        let mut go = None;
        let hint = "text of the command, event:KIND (event:Matched.cascade>=3), score>=N, cell:X,Y, \
                    rule:LINE (a rule at that source line fired), an object's name (its cells changed)";
        // Wrapped, the field as wide as the panel leaves: beside the source pane at 1280 the
        // step list is narrow, and a row wider than it pushed the board over the inspector.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Filter");
            let width = (ui.available_width() - 8.0).clamp(80.0, 220.0);
            let edit = ui
                .add(egui::TextEdit::singleline(&mut self.filter.text).hint_text(hint).desired_width(width))
                .labelled_by(label.id)
                .on_hover_text(hint);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if ui.button("Find").clicked() || enter {
                self.start_filter();
            }
            let any = matches!(&self.filter.results, Some(Ok(r)) if !r.is_empty());
            if ui.add_enabled(any, egui::Button::new("Previous")).on_hover_text("Shift+F3").clicked() {
                self.next_result(false);
            }
            if ui.add_enabled(any, egui::Button::new("Next")).on_hover_text("F3").clicked() {
                self.next_result(true);
            }
        });
        if let Some(fraction) = self.filter.job.as_ref().map(FilterJob::fraction) {
            ui.horizontal(|ui| {
                ui.add(egui::ProgressBar::new(fraction).desired_width(200.0).show_percentage());
                if ui.button("Stop").clicked() {
                    self.filter.job = None;
                }
            });
        }
        let steps = self.debugger.as_ref().map_or(0, Debugger::steps);
        match &self.filter.results {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            Some(Ok(results)) => {
                ui.horizontal(|ui| {
                    ui.label(format!(
                        "{} of {steps} steps match '{}'",
                        results.len(),
                        self.filter.shown_query
                    ));
                    if ui
                        .checkbox(&mut self.filter.only_matches, "Only matches")
                        .on_hover_text("The step list shows only the matching steps")
                        .changed()
                    {
                        self.scroll_to_cursor = true;
                    }
                });
                if !results.is_empty() {
                    let row_h = ui.text_style_height(&egui::TextStyle::Button) + 2.0;
                    egui::ScrollArea::vertical().id_salt("debug-filter-results").max_height(120.0).show_rows(
                        ui,
                        row_h,
                        results.len(),
                        |ui, range| {
                            for &s in &results[range] {
                                if ui.small_button(format!("result: step {s}")).clicked() {
                                    go = Some(s);
                                }
                            }
                        },
                    );
                }
            }
        }
        ui.separator();
        go
    }

    /// The log's notes as bookmarks: one button per note. Returns a step to go to.
    pub(super) fn bookmarks_ui(&mut self, ui: &mut egui::Ui) -> Option<u64> {
        let d = self.debugger.as_ref()?;
        let notes = d.log().notes();
        let mut go = None;
        egui::CollapsingHeader::new(format!("Bookmarks ({})", notes.len()))
            .id_salt("debug-bookmarks")
            .default_open(true)
            .show(ui, |ui| {
                if notes.is_empty() {
                    ui.weak("no notes in this log");
                }
                egui::ScrollArea::vertical().id_salt("debug-bookmark-list").max_height(100.0).show(
                    ui,
                    |ui| {
                        for n in notes {
                            let first = n.text.lines().next().unwrap_or_default();
                            if ui
                                .small_button(format!("bookmark: step {}: {first}", n.step))
                                .on_hover_text(&n.text)
                                .clicked()
                            {
                                go = Some(n.step);
                            }
                        }
                    },
                );
            });
        ui.separator();
        go
    }

    /// The cell history section of the inspector.
    pub(super) fn cell_history_ui(&mut self, ui: &mut egui::Ui) {
        let Some(cell) = self.cell.cell else { return };
        ui.separator();
        let mut go = None;
        let mut close = false;
        ui.horizontal(|ui| {
            ui.strong(format!("Cell ({}, {}) history", cell.x, cell.y));
            close = ui.small_button("Close").clicked();
        });
        if let Some(job) = &self.cell.job {
            ui.add(egui::ProgressBar::new(job.fraction()).desired_width(200.0));
        }
        match &self.cell.steps {
            None => {}
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            Some(Ok(steps)) => {
                let now = self.debugger.as_ref().map_or(0, Debugger::step);
                ui.label(format!("{} steps changed this cell", steps.len()));
                let row_h = ui.text_style_height(&egui::TextStyle::Button) + 2.0;
                let row_step = row_h + ui.spacing().item_spacing.y;
                // The list opens at the current step: the last change at or before it (marked).
                let here = steps.partition_point(|&s| s <= now).checked_sub(1);
                let mut area = egui::ScrollArea::vertical().id_salt("debug-cell-history").max_height(140.0);
                if std::mem::take(&mut self.cell.scroll) {
                    let row = here.unwrap_or(0) as f32;
                    area = area.vertical_scroll_offset((row - 2.0).max(0.0) * row_step);
                }
                area.show_rows(ui, row_h, steps.len(), |ui, range| {
                    for i in range {
                        let s = steps[i];
                        let text = format!("touched: step {s}");
                        let b =
                            egui::Button::new(egui::RichText::new(text).small()).selected(Some(i) == here);
                        if ui.add(b).clicked() {
                            go = Some(s);
                        }
                    }
                });
            }
        }
        if close {
            self.cell = CellHistory::default();
        }
        if let (Some(s), Some(d)) = (go, &mut self.debugger) {
            d.jump(s);
            self.scroll_to_cursor = true;
        }
    }

    /// Why the shown step is a filter result (a reason per term), if it is one.
    pub fn why_matched(&self) -> Option<Vec<String>> {
        let d = self.debugger.as_ref()?;
        let Some(Ok(results)) = &self.filter.results else { return None };
        let query = self.filter.query.as_ref()?;
        results.binary_search(&d.step()).ok()?;
        let rec = d.record()?.ok()?;
        Some(query.why(rec))
    }
}
