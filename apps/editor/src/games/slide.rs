//! `slide` (2048) in the editor. Edit: tiles of any value and empty cells; an empty board is
//! written without a `board` (the game spawns two tiles). Play: arrow keys, WASD, or a swipe (a
//! drag on the board).

use super::{EditorGame, PlayAction, num_field};
use crate::model::{BoardInput, Brush, Ink, InkLook, PaletteInk, PlayInput, Sketch, swipe};
use crate::palette;
use tessera_core::slide::{SlideCommand, SlideLevel, SlideState};
use tessera_core::{AnyCommand, AnyRules, AnyState, Level, RuleSet, Size};

/// The editor entry of `slide`.
pub struct Game;

/// The settings of a sketch (the defaults when they are of another rule set, which a draft
/// never holds).
fn settings(level: &Level) -> SlideLevel {
    match level {
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

    fn default_settings(&self) -> Level {
        Level::Slide(SlideLevel::default())
    }

    /// An empty cell is the number 0, as the level format writes it.
    fn blank(&self, _settings: &Level) -> Ink {
        Ink::Number(0)
    }

    fn first_ink(&self) -> Ink {
        Ink::Number(2)
    }

    /// Any number: a draft may hold a value no game accepts (the check says so).
    fn accepts(&self, _settings: &Level, ink: Ink) -> bool {
        matches!(ink, Ink::Number(_))
    }

    fn look(&self, _settings: &Level, ink: Ink) -> InkLook {
        match ink {
            Ink::Number(v) if v > 0 => InkLook::new(palette::tile(v).0, Some(v.to_string())),
            _ => InkLook::new(palette::EMPTY, None),
        }
    }

    fn palette(&self, settings: &Level, _brush: &Brush) -> Vec<PaletteInk> {
        let entry = |v: u32, label: String| PaletteInk {
            ink: Ink::Number(v),
            label,
            colour: self.look(settings, Ink::Number(v)).fill,
            hover: None,
        };
        std::iter::once(entry(0, "Empty".into()))
            .chain((1..=11).map(|k| entry(1 << k, (1u32 << k).to_string())))
            .collect()
    }

    fn palette_fields_ui(&self, ui: &mut egui::Ui, _sketch: &Sketch, brush: &mut Brush) -> bool {
        let mut chose = false;
        ui.horizontal(|ui| {
            let label = ui.label("Tile value");
            ui.add(egui::DragValue::new(&mut brush.tile_value).range(1..=1 << 30)).labelled_by(label.id);
            if ui.button("Use value").clicked() {
                brush.ink = Ink::Number(brush.tile_value);
                brush.units = false;
                chose = true;
            }
        });
        chose
    }

    /// A picked tile's value goes into "Tile value".
    fn picked(&self, brush: &mut Brush) {
        if let Ink::Number(v) = brush.ink
            && v > 0
        {
            brush.tile_value = v;
        }
    }

    fn sketch(&self, level: &Level) -> Result<Sketch, String> {
        let Level::Slide(l) = level else { return Err("not a slide level".into()) };
        let sized = |w: usize, h: usize| Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"));
        let settings = Level::Slide(SlideLevel { config: l.config.clone(), ..SlideLevel::default() });
        let mut d = match &l.board {
            Some(rows) => {
                let w = rows.first().map_or(0, Vec::len);
                if let Some((y, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != w) {
                    return Err(format!("board row {y} has {} cells, expected {w}", r.len()));
                }
                let mut d = Sketch::new(settings, sized(w, rows.len())?, Ink::Number(0));
                d.cells = rows.iter().flatten().map(|&v| Ink::Number(v)).collect();
                d
            }
            None => {
                Sketch::new(settings, sized(l.width.unwrap_or(4), l.height.unwrap_or(4))?, Ink::Number(0))
            }
        };
        d.name = l.name.clone();
        d.seed = l.seed;
        Ok(d)
    }

    fn level(&self, sketch: &Sketch) -> Level {
        let (w, h) = (usize::from(sketch.size.width), usize::from(sketch.size.height));
        Level::Slide(SlideLevel {
            name: sketch.name.clone(),
            width: Some(w),
            height: Some(h),
            config: settings(&sketch.settings).config,
            seed: sketch.seed,
            board: (!self.board_from_seed(sketch)).then(|| {
                sketch
                    .cells
                    .chunks(w.max(1))
                    .map(|row| row.iter().map(|c| if let Ink::Number(v) = c { *v } else { 0 }).collect())
                    .collect()
            }),
        })
    }

    fn board_from_seed(&self, sketch: &Sketch) -> bool {
        sketch.cells.iter().all(|&c| c == Ink::Number(0))
    }

    fn randomized(&self, sketch: &Sketch, seed: u64) -> Result<Vec<Ink>, String> {
        let s = SlideState::new_game(sketch.size, &settings(&sketch.settings).config, seed);
        Ok(s.values().into_iter().flatten().map(Ink::Number).collect())
    }

    fn settings_ui(&self, ui: &mut egui::Ui, settings: &mut Level) -> Option<super::InkMap> {
        let Level::Slide(l) = settings else { return None };
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
