//! `collapse` (SameGame) in the editor. Edit: colours and empty cells; an empty board is written
//! without a `board` (each game draws a full one from the seed). Play: click a group; hovering
//! shows the group and what it would score.

use super::{EditorGame, PlayAction, ink_button, num_field, rows_of, rows_size};
use crate::board::{BoardInput, Overlay};
use crate::draft::{Draft, Ink, Options};
use crate::edit::Brush;
use crate::play::PlayInput;
use tessera_core::collapse::{
    CollapseCommand, CollapseLevel, CollapseState, Compaction, Scoring, colour_char, colour_from_char,
};
use tessera_core::{AnyCommand, AnyRules, AnyState, Level, Pos, RuleSet, Size};

/// The editor entry of `collapse`.
pub struct Game;

/// The colours a new level has.
const DEFAULT_COLOURS: u8 = 4;

/// The settings of `options` (the defaults when they are of another rule set, which a draft
/// never holds).
fn settings(options: &Options) -> CollapseLevel {
    match options.level() {
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

    fn default_options(&self) -> Options {
        Options::new(&Game, Level::Collapse(CollapseLevel { colours: Some(DEFAULT_COLOURS), ..CollapseLevel::default() }))
    }

    fn blank(&self) -> Ink {
        Ink::Empty
    }

    fn first_ink(&self) -> Ink {
        Ink::Colour(0)
    }

    fn accepts(&self, _options: &Options, ink: Ink) -> bool {
        match ink {
            Ink::Empty => true,
            Ink::Colour(c) => c < 16,
            _ => false,
        }
    }

    fn draft(&self, level: &Level) -> Result<Draft, String> {
        let Level::Collapse(l) = level else { return Err("not a collapse level".into()) };
        let sized = |w: usize, h: usize| Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"));
        let default = tessera_core::collapse::DEFAULT_SIDE;
        let mut d = match &l.board {
            Some(rows) => {
                let (w, h) = rows_size(rows)?;
                let mut cells = Vec::with_capacity(w * h);
                for (y, row) in rows.iter().enumerate() {
                    for (x, ch) in row.chars().enumerate() {
                        cells.push(match ch {
                            '.' => Ink::Empty,
                            _ => Ink::Colour(colour_from_char(ch).ok_or_else(|| {
                                format!("board cell ({x}, {y}): '{ch}' is not a colour (0-9, a-f) or '.'")
                            })?),
                        });
                    }
                }
                Draft::new(&Game, sized(w, h)?, l.seed).with_cells(cells)
            }
            None => Draft::new(&Game, sized(l.width.unwrap_or(default), l.height.unwrap_or(default))?, l.seed),
        };
        d.options = Options::new(
            &Game,
            Level::Collapse(CollapseLevel {
                colours: Some(l.colours.unwrap_or(DEFAULT_COLOURS)),
                config: l.config.clone(),
                ..CollapseLevel::default()
            }),
        );
        d.name = l.name.clone();
        Ok(d)
    }

    fn level(&self, draft: &Draft) -> Level {
        let s = settings(&draft.options);
        Level::Collapse(CollapseLevel {
            name: draft.name.clone(),
            width: Some(usize::from(draft.size().width)),
            height: Some(usize::from(draft.size().height)),
            colours: s.colours,
            config: s.config,
            seed: draft.seed,
            board: (!self.board_from_seed(draft)).then(|| {
                rows_of(draft, &|c| match c {
                    Ink::Colour(k) => colour_char(k),
                    _ => '.',
                })
            }),
        })
    }

    fn board_from_seed(&self, draft: &Draft) -> bool {
        draft.cells().iter().all(|&c| c == Ink::Empty)
    }

    fn randomized(&self, draft: &Draft, seed: u64) -> Result<Draft, String> {
        let colours = settings(&draft.options).colours.unwrap_or(DEFAULT_COLOURS);
        let s = CollapseState::new_game(draft.size(), colours.clamp(2, 16), seed);
        let cells = s.board().cells().iter().map(|t| t.map_or(Ink::Empty, |t| Ink::Colour(t.colour))).collect();
        Ok(draft.clone().with_cells(cells))
    }

    fn palette_ui(&self, ui: &mut egui::Ui, draft: &Draft, brush: &mut Brush) -> bool {
        let colours = settings(&draft.options).colours.unwrap_or(DEFAULT_COLOURS);
        let mut chose = false;
        ui.horizontal_wrapped(|ui| {
            chose |= ink_button(ui, brush, Ink::Empty, "Empty".into(), &[]);
            for c in 0..colours.min(16) {
                chose |= ink_button(ui, brush, Ink::Colour(c), format!("colour {}", colour_char(c)), &[]);
            }
        });
        chose
    }

    fn settings_ui(&self, ui: &mut egui::Ui, options: &mut Options) -> Option<super::InkMap> {
        let Level::Collapse(l) = options.level_mut() else { return None };
        let mut k = u32::from(l.colours.unwrap_or(DEFAULT_COLOURS));
        num_field(ui, "Colours", &mut k, 2..=16);
        l.colours = Some(k as u8);
        let c = &mut l.config;
        num_field(ui, "Minimum group", &mut c.min_group, 1..=1000);
        ui.horizontal(|ui| {
            ui.label("Compaction");
            for (v, l) in [(Compaction::Center, "center"), (Compaction::Left, "left"), (Compaction::None, "none")] {
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
