//! `slide` (2048) in the editor. Edit: tiles of any value and empty cells; an empty board is
//! written without a `board` (the game spawns two tiles). Play: arrow keys, WASD, or a swipe (a
//! drag on the board).

use super::{EditorGame, PlayAction, ink_button, num_field};
use crate::board::BoardInput;
use crate::draft::{Draft, Ink, Options};
use crate::edit::Brush;
use crate::play::{PlayInput, swipe};
use tessera_core::slide::{SlideCommand, SlideLevel, SlideState};
use tessera_core::{AnyCommand, AnyRules, AnyState, Level, RuleSet, Size};

/// The editor entry of `slide`.
pub struct Game;

/// The settings of `options` (the defaults when they are of another rule set, which a draft
/// never holds).
fn settings(options: &Options) -> SlideLevel {
    match options.level() {
        Level::Slide(l) => l.clone(),
        _ => SlideLevel::default(),
    }
}

impl EditorGame for Game {
    fn rule_set(&self) -> RuleSet {
        RuleSet::Slide
    }

    fn level_name(&self, level: &Level) -> Option<String> {
        if let Level::Slide(l) = level { l.name.clone() } else { None }
    }

    fn default_options(&self) -> Options {
        Options::new(&Game, Level::Slide(SlideLevel::default()))
    }

    fn blank(&self) -> Ink {
        Ink::Empty
    }

    fn first_ink(&self) -> Ink {
        Ink::Tile(2)
    }

    fn accepts(&self, _options: &Options, ink: Ink) -> bool {
        match ink {
            Ink::Empty => true,
            Ink::Tile(v) => v > 0,
            _ => false,
        }
    }

    fn draft(&self, level: &Level) -> Result<Draft, String> {
        let Level::Slide(l) = level else { return Err("not a slide level".into()) };
        let sized = |w: usize, h: usize| Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"));
        let mut d = match &l.board {
            Some(rows) => {
                let w = rows.first().map_or(0, Vec::len);
                if let Some((y, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != w) {
                    return Err(format!("board row {y} has {} cells, expected {w}", r.len()));
                }
                let cells =
                    rows.iter().flatten().map(|&v| if v == 0 { Ink::Empty } else { Ink::Tile(v) }).collect();
                Draft::new(&Game, sized(w, rows.len())?, l.seed).with_cells(cells)
            }
            None => Draft::new(&Game, sized(l.width.unwrap_or(4), l.height.unwrap_or(4))?, l.seed),
        };
        d.options = Options::new(&Game, Level::Slide(SlideLevel { config: l.config.clone(), ..SlideLevel::default() }));
        d.name = l.name.clone();
        Ok(d)
    }

    fn level(&self, draft: &Draft) -> Level {
        let (w, h) = (usize::from(draft.size().width), usize::from(draft.size().height));
        Level::Slide(SlideLevel {
            name: draft.name.clone(),
            width: Some(w),
            height: Some(h),
            config: settings(&draft.options).config,
            seed: draft.seed,
            board: (!self.board_from_seed(draft)).then(|| {
                draft
                    .cells()
                    .chunks(w.max(1))
                    .map(|row| row.iter().map(|c| if let Ink::Tile(v) = c { *v } else { 0 }).collect())
                    .collect()
            }),
        })
    }

    fn board_from_seed(&self, draft: &Draft) -> bool {
        draft.cells().iter().all(|&c| c == Ink::Empty)
    }

    fn randomized(&self, draft: &Draft, seed: u64) -> Result<Draft, String> {
        let s = SlideState::new_game(draft.size(), &settings(&draft.options).config, seed);
        let cells =
            s.values().into_iter().flatten().map(|v| if v == 0 { Ink::Empty } else { Ink::Tile(v) }).collect();
        Ok(draft.clone().with_cells(cells))
    }

    fn palette_ui(&self, ui: &mut egui::Ui, _draft: &Draft, brush: &mut Brush) -> bool {
        let mut chose = false;
        ui.horizontal_wrapped(|ui| {
            chose |= ink_button(ui, brush, Ink::Empty, "Empty".into(), &[]);
            for k in 1..=11 {
                chose |= ink_button(ui, brush, Ink::Tile(1 << k), (1u32 << k).to_string(), &[]);
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Tile value");
            ui.add(egui::DragValue::new(&mut brush.tile_value).range(1..=1 << 30)).labelled_by(label.id);
            if ui.button("Use value").clicked() {
                brush.ink = Ink::Tile(brush.tile_value);
                brush.units = false;
            }
        });
        chose
    }

    fn settings_ui(&self, ui: &mut egui::Ui, options: &mut Options) -> Option<super::InkMap> {
        let Level::Slide(l) = options.level_mut() else { return None };
        let c = &mut l.config;
        num_field(ui, "Target tile", &mut c.target, 4..=1 << 30);
        ui.horizontal(|ui| {
            let l = ui.label("Chance of a 4");
            ui.add(egui::DragValue::new(&mut c.four_chance.num)).labelled_by(l.id);
            let l = ui.label("in");
            ui.add(egui::DragValue::new(&mut c.four_chance.den).range(1..=u32::MAX)).labelled_by(l.id);
        });
        None
    }

    fn key_command(&self, input: &egui::InputState) -> Option<AnyCommand> {
        super::pressed_dir(input).map(|d| AnyCommand::Slide(SlideCommand::Slide(d)))
    }

    fn board_command(
        &self,
        _play: &mut PlayInput,
        _rules: &AnyRules,
        _state: &AnyState,
        input: &BoardInput,
    ) -> Option<AnyCommand> {
        let (_, dir) = swipe(input)?;
        Some(AnyCommand::Slide(SlideCommand::Slide(dir)))
    }

    fn play_panel(
        &self,
        ui: &mut egui::Ui,
        _rules: &AnyRules,
        _state: &AnyState,
        _play: &mut PlayInput,
    ) -> Option<PlayAction> {
        ui.label("Arrow keys, WASD, or swipe on the board.");
        None
    }

    fn objectives(&self, rules: &AnyRules, _state: &AnyState, out: &mut Vec<String>) {
        if let AnyRules::Slide(r) = rules {
            out.push(format!("Target {}", r.config.target));
        }
    }
}
