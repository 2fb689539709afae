//! `collapse` (SameGame) in the editor. Edit: colours and empty cells; an empty board is written
//! without a `board` (each game draws a full one from the seed). Play: click a group; hovering
//! shows the group and what it would score.

use super::{EditorGame, PlayAction, num_field, rows_size};
use crate::model::{BoardInput, Brush, Ink, InkLook, Overlay, PaletteInk, PlayInput, Sketch};
use crate::palette;
use tessera_core::collapse::{
    CollapseCommand, CollapseLevel, CollapseState, Compaction, Scoring, colour_char, colour_from_char,
};
use tessera_core::{AnyCommand, AnyRules, AnyState, Level, Pos, RuleSet, Size};

/// The editor entry of `collapse`.
pub struct Game;

/// The colours a new level has.
const DEFAULT_COLOURS: u8 = 4;

/// The settings of a sketch (the defaults when they are of another rule set, which a draft
/// never holds).
fn settings(level: &Level) -> CollapseLevel {
    match level {
        Level::Collapse(l) => l.clone(),
        _ => CollapseLevel { colours: Some(DEFAULT_COLOURS), ..CollapseLevel::default() },
    }
}

impl EditorGame for Game {
    fn rule_set(&self) -> RuleSet {
        RuleSet::Collapse
    }

    fn level_name(&self, level: &Level) -> Option<String> {
        if let Level::Collapse(l) = level { l.name.clone() } else { None }
    }

    fn default_settings(&self) -> Level {
        Level::Collapse(CollapseLevel { colours: Some(DEFAULT_COLOURS), ..CollapseLevel::default() })
    }

    fn blank(&self, _settings: &Level) -> Ink {
        Ink::Glyph('.')
    }

    fn first_ink(&self) -> Ink {
        Ink::Glyph(colour_char(0))
    }

    /// `.` and the sixteen colours' characters (`0`-`9`, `a`-`f`).
    fn accepts(&self, _settings: &Level, ink: Ink) -> bool {
        matches!(ink, Ink::Glyph(c) if c == '.' || colour_from_char(c).is_some_and(|k| k < 16))
    }

    fn look(&self, _settings: &Level, ink: Ink) -> InkLook {
        match ink {
            Ink::Glyph(c) if c != '.' && colour_from_char(c).is_some() => {
                InkLook::new(palette::hue(colour_from_char(c).unwrap_or(0)), Some(c.to_string()))
            }
            _ => InkLook::new(palette::EMPTY, None),
        }
    }

    fn palette(&self, settings: &Level, _brush: &Brush) -> Vec<PaletteInk> {
        let colours = self::settings(settings).colours.unwrap_or(DEFAULT_COLOURS);
        let entry = |ink: Ink, label: String| PaletteInk {
            ink,
            label,
            colour: self.look(settings, ink).fill,
            hover: None,
        };
        std::iter::once(entry(Ink::Glyph('.'), "Empty".into()))
            .chain(
                (0..colours.min(16))
                    .map(|c| entry(Ink::Glyph(colour_char(c)), format!("colour {}", colour_char(c)))),
            )
            .collect()
    }

    fn sketch(&self, level: &Level) -> Result<Sketch, String> {
        let Level::Collapse(l) = level else { return Err("not a collapse level".into()) };
        let sized = |w: usize, h: usize| Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"));
        let default = tessera_core::collapse::DEFAULT_SIDE;
        let settings = Level::Collapse(CollapseLevel {
            colours: Some(l.colours.unwrap_or(DEFAULT_COLOURS)),
            config: l.config.clone(),
            ..CollapseLevel::default()
        });
        let mut d = match &l.board {
            Some(rows) => {
                let (w, h) = rows_size(rows)?;
                let mut cells = Vec::with_capacity(w * h);
                for (y, row) in rows.iter().enumerate() {
                    for (x, ch) in row.chars().enumerate() {
                        if !self.accepts(&settings, Ink::Glyph(ch)) {
                            return Err(format!(
                                "board cell ({x}, {y}): '{ch}' is not a colour (0-9, a-f) or '.'"
                            ));
                        }
                        cells.push(Ink::Glyph(ch));
                    }
                }
                let mut d = Sketch::new(settings, sized(w, h)?, Ink::Glyph('.'));
                d.cells = cells;
                d
            }
            None => Sketch::new(
                settings,
                sized(l.width.unwrap_or(default), l.height.unwrap_or(default))?,
                Ink::Glyph('.'),
            ),
        };
        d.name = l.name.clone();
        d.seed = l.seed;
        Ok(d)
    }

    fn level(&self, sketch: &Sketch) -> Level {
        let s = settings(&sketch.settings);
        Level::Collapse(CollapseLevel {
            name: sketch.name.clone(),
            width: Some(usize::from(sketch.size.width)),
            height: Some(usize::from(sketch.size.height)),
            colours: s.colours,
            config: s.config,
            seed: sketch.seed,
            board: (!self.board_from_seed(sketch)).then(|| {
                sketch.rows(&|c| match c {
                    Ink::Glyph(k) => k,
                    Ink::Number(_) => '.',
                })
            }),
        })
    }

    fn board_from_seed(&self, sketch: &Sketch) -> bool {
        sketch.cells.iter().all(|&c| c == Ink::Glyph('.'))
    }

    fn randomized(&self, sketch: &Sketch, seed: u64) -> Result<Vec<Ink>, String> {
        let colours = settings(&sketch.settings).colours.unwrap_or(DEFAULT_COLOURS);
        let s = CollapseState::new_game(sketch.size, colours.clamp(2, 16), seed);
        Ok(s.board()
            .cells()
            .iter()
            .map(|t| t.map_or(Ink::Glyph('.'), |t| Ink::Glyph(colour_char(t.colour))))
            .collect())
    }

    fn settings_ui(&self, ui: &mut egui::Ui, settings: &mut Level) -> Option<super::InkMap> {
        let Level::Collapse(l) = settings else { return None };
        let mut k = u32::from(l.colours.unwrap_or(DEFAULT_COLOURS));
        num_field(ui, "Colours", &mut k, 2..=16);
        l.colours = Some(k as u8);
        let c = &mut l.config;
        num_field(ui, "Minimum group", &mut c.min_group, 1..=1000);
        ui.horizontal(|ui| {
            ui.label("Compaction");
            for (v, l) in
                [(Compaction::Center, "center"), (Compaction::Left, "left"), (Compaction::None, "none")]
            {
                ui.selectable_value(&mut c.compaction, v, l);
            }
        });
        ui.horizontal(|ui| {
            ui.label("Scoring");
            for (v, l) in [(Scoring::Tiered, "tiered"), (Scoring::Standard, "standard")] {
                ui.selectable_value(&mut c.scoring, v, l);
            }
        });
        None
    }

    fn board_command(
        &self,
        _play: &mut PlayInput,
        _rules: &AnyRules,
        _state: &AnyState,
        input: &BoardInput,
    ) -> Option<AnyCommand> {
        input.clicked.map(|p| AnyCommand::Collapse(CollapseCommand::Tap(p)))
    }

    fn overlay(
        &self,
        _play: &PlayInput,
        rules: &AnyRules,
        state: &AnyState,
        hovered: Option<Pos>,
        out: &mut Overlay,
    ) {
        if let (AnyRules::Collapse(r), AnyState::Collapse(s), Some(p)) = (rules, state, hovered) {
            let (group, points) = group_preview(r.config.min_group, r.config.scoring, s, p);
            if !group.is_empty() {
                out.tooltip = Some(format!("{} tiles: +{points}", group.len()));
                out.highlights.extend(group);
            }
        }
    }

    fn play_panel(
        &self,
        ui: &mut egui::Ui,
        _rules: &AnyRules,
        _state: &AnyState,
        _play: &mut PlayInput,
    ) -> Option<PlayAction> {
        ui.label("Click a group to clear it; hover to see what it scores.");
        None
    }
}

/// The group a tap at `p` would clear (empty when too small) and what it would score.
pub fn group_preview(min_group: u32, scoring: Scoring, s: &CollapseState, p: Pos) -> (Vec<Pos>, u64) {
    let group = s.group_at(p);
    if (group.len() as u32) < min_group.max(1) {
        return (Vec::new(), 0);
    }
    let n = group.len() as u32;
    let bonus = if group.len() == s.tile_count() { scoring.clear_bonus() } else { 0 };
    (group, scoring.points(n) + bonus)
}
