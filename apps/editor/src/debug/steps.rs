//! The step list (one row per step, only the visible rows read) and the timeline under it.

use super::model::notes_at;
use super::*;
use crate::anim::Speed;
use egui::{Color32, Sense, pos2, vec2};
use tessera_core::AnyEvent;
use tessera_replay::StepRecord;

/// One row of the step list: the step number, note mark and command; its events in a few
/// words on a second line; its recorded hash at the right. Lines too long for the column end
/// with "…", and hovering the row shows all of it.
pub(super) struct StepRow {
    head: String,
    events: String,
    hash: String,
    /// The step does not decode (`events` says why).
    bad: bool,
}

impl StepRow {
    /// Draws the row, `height` points high; selected when it is the step shown.
    fn show(self, ui: &mut egui::Ui, height: f32, selected: bool) -> egui::Response {
        let (rect, response) = ui.allocate_exact_size(vec2(ui.available_width(), height), Sense::click());
        let full = if self.hash.is_empty() {
            format!("{}\n{}", self.head, self.events.trim_start())
        } else {
            format!("{}\n{}\nhash {}", self.head, self.events.trim_start(), self.hash)
        };
        response.widget_info(|| {
            egui::WidgetInfo::selected(
                egui::Role::Button,
                ui.is_enabled(),
                selected,
                full.replace('\n', "  "),
            )
        });
        if ui.is_rect_visible(rect) {
            let visuals = ui.visuals();
            let painter = ui.painter_at(rect);
            if selected {
                painter.rect_filled(rect, 2.0, visuals.selection.bg_fill);
            } else if response.hovered() {
                painter.rect_filled(rect, 2.0, visuals.widgets.hovered.weak_bg_fill);
            }
            let text = if self.bad {
                visuals.error_fg_color
            } else if selected {
                visuals.selection.stroke.color
            } else {
                visuals.text_color()
            };
            let font = egui::TextStyle::Monospace.resolve(ui.style());
            let pad = 4.0;
            let layout = |s: String, colour: Color32, width: f32| {
                let mut job = egui::text::LayoutJob::simple_singleline(s, font.clone(), colour);
                job.wrap = egui::text::TextWrapping::truncate_at_width(width.max(0.0));
                ui.fonts_mut(|f| f.layout_job(job))
            };
            let width = rect.width() - 2.0 * pad;
            let hash = layout(self.hash, Color32::GRAY, width);
            let head = layout(self.head, text, width - hash.size().x - 8.0);
            let events = layout(self.events, text.gamma_multiply(0.75), width);
            let top = rect.min + vec2(pad, 2.0);
            painter.galley(pos2(rect.max.x - pad - hash.size().x, top.y), hash, Color32::GRAY);
            painter.galley(top, head, text);
            painter.galley(top + vec2(0.0, rect.height() / 2.0 - 2.0), events, text);
        }
        response.on_hover_text(egui::RichText::new(full).monospace())
    }
}

/// The timeline under the controls: the log's notes as marks (bookmarks) and the cursor; a
/// click near a mark returns its step.
pub(super) fn timeline(ui: &mut egui::Ui, d: &Debugger) -> Option<u64> {
    let width = ui.available_width().max(50.0);
    let (rect, response) = ui.allocate_exact_size(vec2(width, 12.0), Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, "Timeline"));
    let response = response.on_hover_text("Click to go to that step (a bookmark, within a few pixels)");
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let steps = d.steps().max(1) as f32;
    let x_of = |s: u64| rect.left() + 4.0 + (rect.width() - 8.0) * (s as f32 / steps);
    let mark = Color32::from_rgb(240, 190, 40);
    for n in d.log().notes() {
        let x = x_of(n.step);
        painter.line_segment([pos2(x, rect.top()), pos2(x, rect.bottom())], (2.0, mark));
    }
    let x = x_of(d.step());
    painter.line_segment(
        [pos2(x, rect.top() + 3.0), pos2(x, rect.bottom() - 3.0)],
        (2.0, ui.visuals().text_color()),
    );
    if !response.clicked() {
        return None;
    }
    let px = response.interact_pointer_pos()?.x;
    // A click on (or within 6 px of) a bookmark goes to it; anywhere else, to the step there.
    let near = d
        .log()
        .notes()
        .iter()
        .map(|n| (n.step, (x_of(n.step) - px).abs()))
        .filter(|&(_, dx)| dx <= 6.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(s, _)| s);
    near.or_else(|| {
        let fraction = ((px - rect.left() - 4.0) / (rect.width() - 8.0)).clamp(0.0, 1.0);
        Some(((f64::from(fraction) * d.steps() as f64).round() as u64).min(d.steps()))
    })
}

/// The name of an event (its variant).
pub(super) fn event_name(e: &AnyEvent) -> String {
    match e.to_json() {
        serde_json::Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
        serde_json::Value::String(s) => s,
        v => v.to_string(),
    }
}

/// The events in a few words: each kind with its count, in order of first appearance.
pub fn events_summary(events: &[AnyEvent]) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for e in events {
        let name = event_name(e);
        match kinds.iter_mut().find(|(k, _)| *k == name) {
            Some((_, n)) => *n += 1,
            None => kinds.push((name, 1)),
        }
    }
    let parts: Vec<String> =
        kinds.into_iter().map(|(k, n)| if n > 1 { format!("{k}×{n}") } else { k }).collect();
    if parts.is_empty() { "no events".into() } else { parts.join(" ") }
}

impl DebugView {
    pub(super) fn step_list(&mut self, ui: &mut egui::Ui, now: f64, speed: Speed) {
        if self.debugger.is_none() {
            return;
        }
        ui.heading("Steps");
        if let Some(s) = self.filter_ui(ui) {
            self.go(s, now, speed, true);
        }
        if let Some(s) = self.bookmarks_ui(ui) {
            self.go(s, now, speed, true);
        }
        let Some(d) = &self.debugger else { return };
        let log = d.log();
        // With "Only matches", the rows are the filter's results.
        let only: Option<&[u64]> = match &self.filter.results {
            Some(Ok(r)) if self.filter.only_matches => Some(r),
            _ => None,
        };
        let rows = match only {
            Some(r) => r.len(),
            None => usize::try_from(d.steps()).unwrap_or(usize::MAX - 1).saturating_add(1),
        };
        let step_of = |row: usize| only.map_or(row as u64, |r| r[row]);
        // Two lines a row: the step, its command and hash; under them its events.
        let line_h = ui.text_style_height(&egui::TextStyle::Monospace);
        let row_h = 2.0 * line_h + 4.0;
        let row_step = row_h + ui.spacing().item_spacing.y;
        let cursor = match only {
            Some(r) => r.partition_point(|&s| s < d.step()),
            None => usize::try_from(d.step()).unwrap_or(usize::MAX),
        };
        let mut area = egui::ScrollArea::vertical().id_salt("debug-step-list").auto_shrink([false, false]);
        if std::mem::take(&mut self.scroll_to_cursor) {
            let visible = &self.visible_rows;
            // Leave a row of margin: the first and last rows shown may be cut.
            let inside = visible.start < cursor && cursor + 2 < visible.end;
            if !inside {
                let in_view = visible.len().saturating_sub(2).max(1) as f32;
                let offset = (cursor as f32 - in_view / 2.0).max(0.0) * row_step;
                area = area.vertical_scroll_offset(offset);
            }
        }
        let start_hash = d.start_hash.map_or_else(|| "—".into(), |h| format!("{h:016x}"));
        let mut clicked = None;
        let out = area.show_rows(ui, row_h, rows, |ui, range| {
            let mut rec = StepRecord::default();
            for row in range.clone() {
                let s = step_of(row);
                let noted = notes_at(log, s).next().is_some();
                let mark = if noted { "*" } else { " " };
                let step_row = if s == 0 {
                    StepRow {
                        head: format!("{s:>7} {mark} start"),
                        events: String::new(),
                        hash: start_hash.clone(),
                        bad: false,
                    }
                } else {
                    match log.read_step(s, &mut rec) {
                        Ok(()) => {
                            let cmd = rec.command.as_ref().map_or_else(|| "?".into(), ToString::to_string);
                            StepRow {
                                head: format!("{s:>7} {mark} {cmd}"),
                                events: format!("{:>9} {}", "", events_summary(&rec.events)),
                                hash: format!("{:016x}", rec.hash),
                                bad: false,
                            }
                        }
                        Err(e) => StepRow {
                            head: format!("{s:>7} {mark} error"),
                            events: format!("{:>9} {e}", ""),
                            hash: String::new(),
                            bad: true,
                        },
                    }
                };
                if step_row.show(ui, row_h, s == d.step()).clicked() {
                    clicked = Some(s);
                }
            }
            range
        });
        self.visible_rows = out.inner;
        if let Some(s) = clicked {
            self.go(s, now, speed, false);
        }
    }
}
