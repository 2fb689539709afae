//! `tactics` in the editor. Edit: terrain of the level's legend (its types edited in Settings)
//! and units; Randomize scatters the legend's terrain from a [`GameRng`] (the rules draw nothing
//! random). Play: click a unit of the side to play to show its range; hover a cell in range for
//! the path, drawn with the seed's pieces; click to move there; End turn with the button. Opens
//! Moving AI maps (`.map`).

use super::{EditorGame, Import, InkMap, PlayAction};
use crate::model::{BoardInput, Brush, Ink, InkLook, Overlay, PaletteInk, PlayInput, Sketch};
use crate::palette;
use egui::{Color32, Sense, vec2};
use tessera_core::tactics::{
    Connectivity, MAX_TERRAIN_TYPES, TacticsCommand, TacticsLevel, TacticsState, TerrainType, Weight,
    fmt_cost,
};
use tessera_core::{AnyCommand, AnyRules, AnyState, GameRng, Level, Pos, RuleSet, Size};

/// The editor entry of `tactics`.
pub struct Game;

/// The terrain types of a sketch's settings (empty for another rule set's, which a draft never
/// holds).
fn legend(settings: &Level) -> &[TerrainType] {
    match settings {
        Level::Tactics(l) => l.legend.as_deref().unwrap_or(&[]),
        _ => &[],
    }
}

/// The index of the terrain type `ink` paints, if it is one of `legend`'s glyphs.
fn terrain_of(legend: &[TerrainType], ink: Ink) -> Option<usize> {
    let Ink::Glyph(c) = ink else { return None };
    legend.iter().position(|t| t.glyph == c)
}

fn read_map(text: &str, _name: Option<String>) -> Result<Vec<(u64, Level)>, String> {
    TacticsLevel::from_movingai(text).map(|l| vec![(1, Level::Tactics(l))]).map_err(|e| e.to_string())
}

impl EditorGame for Game {
    fn rule_set(&self) -> RuleSet {
        RuleSet::Tactics
    }

    fn level_name(&self, level: &Level) -> Option<String> {
        if let Level::Tactics(l) = level { l.name.clone() } else { None }
    }

    fn ground<'a>(&self, state: &'a AnyState) -> Option<super::GroundMap<'a>> {
        let AnyState::Tactics(t) = state else { return None };
        let terrain = t.terrain();
        Some(super::GroundMap {
            size: terrain.size(),
            legend: terrain
                .legend()
                .iter()
                .enumerate()
                .map(|(i, tt)| palette::terrain(tt, i as u8))
                .collect(),
            cells: std::borrow::Cow::Borrowed(terrain.cells().cells()),
        })
    }

    fn imports(&self) -> &'static [Import] {
        &[Import { ext: "map", what: "a Moving AI map", read: read_map }]
    }

    fn default_settings(&self) -> Level {
        Level::Tactics(TacticsLevel {
            legend: Some(TerrainType::default_legend()),
            ..TacticsLevel::default()
        })
    }

    /// The legend's first terrain type.
    fn blank(&self, settings: &Level) -> Ink {
        Ink::Glyph(legend(settings).first().map_or('.', |t| t.glyph))
    }

    fn first_ink(&self) -> Ink {
        Ink::Glyph('.')
    }

    fn accepts(&self, settings: &Level, ink: Ink) -> bool {
        terrain_of(legend(settings), ink).is_some()
    }

    fn look(&self, settings: &Level, ink: Ink) -> InkLook {
        let legend = legend(settings);
        match terrain_of(legend, ink) {
            Some(i) => InkLook::new(palette::terrain(&legend[i], i as u8), None),
            None => InkLook::new(Color32::BLACK, Some(ink.text())),
        }
    }

    /// Each terrain type of the legend, with what entering it costs.
    fn palette(&self, settings: &Level, _brush: &Brush) -> Vec<PaletteInk> {
        legend(settings)
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let cost = if t.impassable { "blocked".into() } else { format!("cost {}", 1 + t.extra) };
                PaletteInk {
                    ink: Ink::Glyph(t.glyph),
                    label: format!("{} ({cost})", t.name),
                    colour: palette::terrain(t, i as u8),
                    hover: Some(format!("'{}' in the map", t.glyph)),
                }
            })
            .collect()
    }

    fn palette_fields_ui(&self, ui: &mut egui::Ui, sketch: &Sketch, brush: &mut Brush) -> bool {
        let mut chose = false;
        ui.horizontal(|ui| {
            if ui.selectable_label(brush.units, "Unit").on_hover_text("Place units").clicked() {
                brush.units = true;
                chose = true;
            }
            let label = ui.label("team");
            ui.add(egui::DragValue::new(&mut brush.unit.team)).labelled_by(label.id);
            let label = ui.label("movement");
            ui.add(egui::DragValue::new(&mut brush.unit.movement).range(0..=1_000_000)).labelled_by(label.id);
        });
        ui.label(format!("{} units", sketch.units.len()));
        chose
    }

    fn has_units(&self) -> bool {
        true
    }

    fn sketch(&self, level: &Level) -> Result<Sketch, String> {
        let Level::Tactics(l) = level else { return Err("not a tactics level".into()) };
        let legend = l.legend.clone().unwrap_or_else(TerrainType::default_legend);
        if legend.len() > MAX_TERRAIN_TYPES {
            return Err(format!("legend: {} terrain types, more than {}", legend.len(), MAX_TERRAIN_TYPES));
        }
        let (w, h) = super::rows_size(&l.map)?;
        let size = Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"))?;
        let mut cells = Vec::with_capacity(w * h);
        for (y, row) in l.map.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if !legend.iter().any(|t| t.glyph == ch) {
                    return Err(format!("map row {y}, column {x}: '{ch}' is not in the legend"));
                }
                cells.push(Ink::Glyph(ch));
            }
        }
        let settings = Level::Tactics(TacticsLevel {
            config: l.config.clone(),
            legend: Some(legend),
            ..TacticsLevel::default()
        });
        let blank = self.blank(&settings);
        let mut d = Sketch::new(settings, size, blank);
        d.cells = cells;
        d.units = l.units.clone();
        d.name = l.name.clone();
        d.seed = l.seed;
        Ok(d)
    }

    fn level(&self, sketch: &Sketch) -> Level {
        let legend = legend(&sketch.settings);
        let config = match &sketch.settings {
            Level::Tactics(l) => l.config.clone(),
            _ => Default::default(),
        };
        Level::Tactics(TacticsLevel {
            name: sketch.name.clone(),
            config,
            legend: Some(legend.to_vec()),
            map: sketch.rows(&|c| match c {
                Ink::Glyph(g) => g,
                Ink::Number(_) => '?',
            }),
            units: sketch.units.clone(),
            seed: sketch.seed,
        })
    }

    fn randomized(&self, sketch: &Sketch, seed: u64) -> Result<Vec<Ink>, String> {
        let legend = legend(&sketch.settings);
        let passable: Vec<usize> = (0..legend.len()).filter(|&i| !legend[i].impassable).collect();
        let first = passable.first().copied().unwrap_or(0);
        let glyph = |i: usize| legend.get(i).map_or(self.blank(&sketch.settings), |t| Ink::Glyph(t.glyph));
        let mut rng = GameRng::new(seed);
        let size = sketch.size;
        let mut cells: Vec<Ink> = (0..sketch.cells.len())
            .map(|_| {
                // Mostly the first passable type (plain), the rest spread evenly.
                let roll = rng.below(100);
                if roll < 60 || legend.len() < 2 {
                    glyph(first)
                } else {
                    glyph(rng.below(legend.len() as u32) as usize)
                }
            })
            .collect();
        for u in &sketch.units {
            // A draft's units may stand off the board (a level that does not play yet).
            let p = Pos::new(u.x, u.y);
            if size.contains(p) {
                cells[size.index(p)] = glyph(first);
            }
        }
        Ok(cells)
    }

    fn settings_ui(&self, ui: &mut egui::Ui, settings: &mut Level) -> Option<InkMap> {
        let Level::Tactics(l) = settings else { return None };
        let c = &mut l.config;
        ui.horizontal(|ui| {
            ui.label("Connectivity");
            ui.selectable_value(&mut c.connectivity, Connectivity::Four, "four");
            ui.selectable_value(&mut c.connectivity, Connectivity::Eight, "eight");
        });
        ui.label("Terrain types");
        let legend = l.legend.get_or_insert_with(TerrainType::default_legend);
        let mut remove = None;
        // A glyph changed: its cells follow it (a glyph another type has is refused).
        let mut renamed: Option<(char, char)> = None;
        let removable = legend.len() > 1;
        let glyphs: Vec<char> = legend.iter().map(|t| t.glyph).collect();
        egui::Grid::new("terrain-types").num_columns(6).show(ui, |ui| {
            ui.label("");
            let glyph_l = ui.label("glyph");
            let name_l = ui.label("name");
            let extra_l = ui.label("extra cost");
            ui.end_row();
            for (i, t) in legend.iter_mut().enumerate() {
                let (r, _) = ui.allocate_exact_size(vec2(12.0, 12.0), Sense::hover());
                ui.painter().rect_filled(r, 2.0, palette::terrain(t, i as u8));
                let mut glyph = t.glyph.to_string();
                if ui
                    .add_sized([22.0, 18.0], egui::TextEdit::singleline(&mut glyph))
                    .labelled_by(glyph_l.id)
                    .on_hover_text("The map's character for this type (one no other type has)")
                    .changed()
                    && let Some(g) = glyph.chars().last()
                    && !glyphs.contains(&g)
                {
                    renamed = Some((t.glyph, g));
                    t.glyph = g;
                }
                ui.add_sized([96.0, 18.0], egui::TextEdit::singleline(&mut t.name)).labelled_by(name_l.id);
                ui.add_enabled(!t.impassable, egui::DragValue::new(&mut t.extra).range(0..=1000).prefix("+"))
                    .labelled_by(extra_l.id);
                ui.horizontal(|ui| {
                    ui.checkbox(&mut t.impassable, "blocked");
                    if removable
                        && ui
                            .small_button("Remove")
                            .on_hover_text("Its cells become the first type")
                            .clicked()
                    {
                        remove = Some(i);
                    }
                });
                ui.end_row();
            }
        });
        if ui.button("Add terrain type").clicked() {
            let glyph = ('a'..='z').chain('A'..='Z').find(|g| !legend.iter().any(|t| t.glyph == *g));
            if let Some(glyph) = glyph
                && legend.len() < MAX_TERRAIN_TYPES
            {
                legend.push(TerrainType::new(glyph, "new", 0));
            }
        }
        if let Some((old, new)) = renamed {
            return Some(Box::new(move |ink| if ink == Ink::Glyph(old) { Ink::Glyph(new) } else { ink }));
        }
        let i = remove?;
        if legend.len() <= 1 || i >= legend.len() {
            return None;
        }
        let gone = legend.remove(i).glyph;
        // Its cells become the first type.
        let first = Ink::Glyph(legend[0].glyph);
        Some(Box::new(move |ink| if ink == Ink::Glyph(gone) { first } else { ink }))
    }

    fn board_command(
        &self,
        play: &mut PlayInput,
        rules: &AnyRules,
        state: &AnyState,
        input: &BoardInput,
    ) -> Option<AnyCommand> {
        let (AnyRules::Tactics(r), AnyState::Tactics(s)) = (rules, state) else { return None };
        let p = input.clicked?;
        if let Some(u) = s.unit_at(p) {
            // Select a unit of the side to play (click it again to deselect).
            play.selected = (u.team == s.team() && play.selected != Some(p)).then_some(p);
            return None;
        }
        let unit = s.unit_at(play.selected?)?.id;
        if r.reachable(s, unit).iter().any(|&(c, _)| c == p) {
            play.selected = Some(p);
            Some(AnyCommand::Tactics(TacticsCommand::Move { unit, to: p }))
        } else {
            None
        }
    }

    fn overlay(
        &self,
        play: &PlayInput,
        rules: &AnyRules,
        state: &AnyState,
        hovered: Option<Pos>,
        out: &mut Overlay,
    ) {
        let (AnyRules::Tactics(r), AnyState::Tactics(s)) = (rules, state) else { return };
        if let Some(u) = play.selected.and_then(|p| s.unit_at(p)) {
            let range = r.reachable(s, u.id);
            out.range = range.iter().map(|&(p, _)| p).collect();
            if let Some(h) = hovered
                && let Some(&(_, cost)) = range.iter().find(|&&(c, _)| c == h)
                && let Some(path) = r.path_for(s, u.id, h, Weight::OPTIMAL)
            {
                out.path = path.cells;
                out.tooltip = Some(format!("cost {}", fmt_cost(cost)));
            }
        }
    }

    fn play_panel(
        &self,
        ui: &mut egui::Ui,
        _rules: &AnyRules,
        state: &AnyState,
        play: &mut PlayInput,
    ) -> Option<PlayAction> {
        let AnyState::Tactics(s) = state else { return None };
        ui.label(format!("Turn {} · team {} to play", s.turn(), s.team()));
        ui.label("Click a unit, hover for its path, click to move.");
        terrain_legend(ui, s);
        if ui.button("End turn").clicked() {
            play.clear();
            return Some(PlayAction::Execute(AnyCommand::Tactics(TacticsCommand::EndTurn)));
        }
        None
    }

    fn keeps_selection(&self) -> bool {
        true
    }

    fn objectives(&self, _rules: &AnyRules, state: &AnyState, out: &mut Vec<String>) {
        if let AnyState::Tactics(s) = state {
            out.push(format!("Turn {} · team {}", s.turn(), s.team()));
        }
    }

    fn inspector_ui(&self, ui: &mut egui::Ui, state: &AnyState) {
        let AnyState::Tactics(t) = state else { return };
        ui.label(format!("Turn {} · team {} to play", t.turn(), t.team()));
        for u in t.units() {
            ui.monospace(format!(
                "unit {} · team {} · at {} · movement {} of {}",
                u.id,
                u.team,
                u.pos,
                fmt_cost(u.left),
                fmt_cost(u.movement)
            ));
        }
    }
}

/// The map's terrain types: colour, name and what entering costs; then the units.
fn terrain_legend(ui: &mut egui::Ui, s: &TacticsState) {
    egui::CollapsingHeader::new("Terrain").default_open(true).show(ui, |ui| {
        for (i, t) in s.terrain().legend().iter().enumerate() {
            ui.horizontal(|ui| {
                let (r, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
                ui.painter().rect_filled(r, 2.0, palette::terrain(t, i as u8));
                let cost =
                    if t.impassable { "impassable".to_string() } else { format!("cost {}", 1 + t.extra) };
                ui.label(format!("{} '{}' · {cost}", t.name, t.glyph));
            });
        }
    });
    egui::CollapsingHeader::new("Units").default_open(false).show(ui, |ui| {
        for u in s.units() {
            ui.label(format!(
                "#{} team {} at ({}, {}) · {} of {}",
                u.id.0,
                u.team,
                u.pos.x,
                u.pos.y,
                fmt_cost(u.left),
                fmt_cost(u.movement)
            ));
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::model::{BoardInput, PlayInput};
    use tessera_core::Pos;

    #[test]
    fn a_selected_unit_shows_its_range_and_the_path_to_the_hovered_cell() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/levels/skirmish.json"
        ))
        .expect("fixture");
        let game = tessera_core::Level::from_json(&text).expect("level").start(None).expect("starts");
        let mut input = PlayInput::default();
        let click = BoardInput { clicked: Some(Pos::new(4, 2)), ..BoardInput::default() };
        assert_eq!(input.board_command(&game.rules, &game.state, &click), None);
        assert_eq!(input.selected, Some(Pos::new(4, 2)));
        let o = input.overlay(&game.rules, &game.state, Some(Pos::new(4, 7)));
        assert!(o.range.contains(&Pos::new(4, 7)), "the bridge's far side is in range");
        assert_eq!(o.path.first(), Some(&Pos::new(4, 2)));
        assert_eq!(o.path.last(), Some(&Pos::new(4, 7)));
        assert!(o.tooltip.is_some_and(|t| t.starts_with("cost")));
    }
}
