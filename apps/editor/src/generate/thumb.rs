//! A level drawn small (a candidate's thumbnail, the Keep brush's template), and the level of
//! rows appended to a game's source (what a PuzzleScript candidate is).

use crate::board::BoardView;
use crate::model::{BoardInput, Overlay};
use std::collections::BTreeSet;
use tessera_core::puzzlescript::PuzzleScriptLevel;
use tessera_core::{AnyRules, AnyState, Level, Pos};
use tessera_ecs::Mirror;

/// The Keep brush's colour.
pub const KEEP_COLOUR: egui::Color32 = egui::Color32::from_rgb(0xff, 0xc8, 0x30);

/// A level drawn small: its mirror, rules, start and view.
pub struct Thumb {
    mirror: Mirror,
    rules: AnyRules,
    state: AnyState,
    pub(super) view: BoardView,
}

impl Thumb {
    /// The level of `rows` appended to `source`, started (None when it does not start).
    pub fn of(source: &str, rows: &[String]) -> Option<Thumb> {
        Thumb::of_level(&level_with(source, rows).ok()?)
    }

    /// `level` started with its own seed (None when it does not start).
    pub fn of_level(level: &Level) -> Option<Thumb> {
        let game = level.start(None).ok()?;
        Some(Thumb {
            mirror: Mirror::from_state(&game.state),
            rules: game.rules,
            state: game.state,
            view: BoardView::default(),
        })
    }

    /// Draws it in `rect`, the cells of `kept` marked; the board's input.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        rect: egui::Rect,
        kept: &BTreeSet<(usize, usize)>,
    ) -> BoardInput {
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        self.view.fit();
        let input = self.view.show_game(
            &mut child,
            &self.mirror,
            Some(&self.rules),
            &self.state,
            1.0,
            &Overlay::default(),
        );
        let cell = self.view.cell_size();
        let painter = ui.painter_at(rect);
        for &(x, y) in kept {
            if let Some(c) = self.view.cell_centre(Pos::new(x as u16, y as u16)) {
                let r = egui::Rect::from_center_size(c, egui::vec2(cell, cell)).shrink(1.0);
                painter.rect_filled(r, 0.0, egui::Color32::from_rgba_unmultiplied(0xff, 0xc8, 0x30, 70));
                painter.rect_stroke(r, 0.0, egui::Stroke::new(2.0, KEEP_COLOUR), egui::StrokeKind::Inside);
            }
        }
        input
    }
}

/// `source` with the level of `rows` appended after its last (as `tessera generate` writes),
/// as a level of the game: the appended one.
pub fn level_with(source: &str, rows: &[String]) -> Result<Level, String> {
    let text = tessera_generate::append_levels(source, &[rows.to_vec()]);
    let game = tessera_core::puzzlescript::engine::compile(&text)
        .map_err(|e| tessera_core::puzzlescript::describe_errors(&e))?;
    let playable = tessera_core::puzzlescript::playable_count(&game);
    Ok(Level::PuzzleScript(PuzzleScriptLevel {
        name: None,
        seed: None,
        source: text.into(),
        level: playable - 1,
    }))
}
