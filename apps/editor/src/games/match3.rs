//! `match3` in the editor. Edit: random (`.`), random locked (`*`), void (`#`) and fixed blocks
//! of a breed, locked or not; Randomize starts the layout (fixed blocks opened, voids and locks
//! kept) so the result has no run and a valid swap; "Fix by shuffling" when fixed blocks make a
//! run or leave no swap. Play: click a block, then a neighbour to swap (click it again to
//! deselect, click a non-neighbour to select that one instead, as seed 000), or drag a block onto
//! a neighbour; Hint highlights a swap that makes a run. Opens the seed's stage files (`.txt`).

use super::{EditorGame, Import, PlayAction, num_field, optional_field, rows_size};
use crate::model::{BoardInput, Brush, Ink, InkLook, PaletteInk, PlayInput, Problem, Sketch, swipe};
use crate::palette;
use egui::Color32;
use tessera_core::match3::{Match3Command, Match3Level, breed_char};
use tessera_core::{AnyCommand, AnyRules, AnyState, Dir, Level, RuleSet, Size};

/// The editor entry of `match3`.
pub struct Game;

/// The settings of a sketch (the defaults when they are of another rule set, which a draft
/// never holds).
fn settings(level: &Level) -> Match3Level {
    match level {
        Level::Match3(l) => l.clone(),
        _ => Match3Level::default(),
    }
}

/// The breed of a fixed block's character and whether it is locked (`a`-`p`, `A`-`P`).
fn block(c: char) -> Option<(u8, bool)> {
    match c {
        'a'..='p' => Some((c as u8 - b'a', false)),
        'A'..='P' => Some((c as u8 - b'A', true)),
        _ => None,
    }
}

/// The palette's cells besides the blocks: `.` random, `*` random locked, `#` void.
const OPEN: char = '.';
const OPEN_LOCKED: char = '*';
const VOID: char = '#';

fn read_stage(text: &str, name: Option<String>) -> Result<Vec<(u64, Level)>, String> {
    Match3Level::from_stage_json(text, name).map(|l| vec![(1, Level::Match3(l))]).map_err(|e| e.to_string())
}

impl EditorGame for Game {
    fn rule_set(&self) -> RuleSet {
        RuleSet::Match3
    }

    fn level_name(&self, level: &Level) -> Option<String> {
        if let Level::Match3(l) = level { l.name.clone() } else { None }
    }

    fn imports(&self) -> &'static [Import] {
        &[Import { ext: "txt", what: "a stage", read: read_stage }]
    }

    fn default_settings(&self) -> Level {
        Level::Match3(Match3Level::default())
    }

    fn blank(&self, _settings: &Level) -> Ink {
        Ink::Glyph(OPEN)
    }

    fn first_ink(&self) -> Ink {
        Ink::Glyph('a')
    }

    fn accepts(&self, _settings: &Level, ink: Ink) -> bool {
        matches!(ink, Ink::Glyph(c) if c == OPEN || c == OPEN_LOCKED || c == VOID || block(c).is_some())
    }

    fn look(&self, _settings: &Level, ink: Ink) -> InkLook {
        let Ink::Glyph(c) = ink else { return InkLook::new(Color32::BLACK, None) };
        match (c, block(c)) {
            (_, Some((breed, locked))) => {
                InkLook { framed: locked, ..InkLook::new(palette::hue(breed), Some(c.to_string())) }
            }
            (OPEN, _) => InkLook {
                mark_colour: Some(Color32::from_gray(0x90)),
                ..InkLook::new(Color32::from_rgb(0x4c, 0x53, 0x5e), Some("?".into()))
            },
            (OPEN_LOCKED, _) => InkLook {
                framed: true,
                ..InkLook::new(Color32::from_rgb(0x5c, 0x63, 0x70), Some("*".into()))
            },
            (VOID, _) => InkLook::new(palette::VOID, None),
            _ => InkLook::new(Color32::BLACK, Some(c.to_string())),
        }
    }

    /// Random, Random locked, Void, then a block of each breed, locked when "Locked blocks" is.
    fn palette(&self, settings: &Level, brush: &Brush) -> Vec<PaletteInk> {
        let breeds = self::settings(settings).config.breeds;
        let entry = |c: char, label: String| PaletteInk {
            ink: Ink::Glyph(c),
            label,
            colour: self.look(settings, Ink::Glyph(c)).fill,
            hover: None,
        };
        let mut out = vec![
            entry(OPEN, "Random".into()),
            entry(OPEN_LOCKED, "Random locked".into()),
            entry(VOID, "Void".into()),
        ];
        for b in 0..breeds.min(16) {
            let c = breed_char(b, brush.locked);
            out.push(entry(c, format!("breed {c}")));
        }
        out
    }

    fn palette_fields_ui(&self, ui: &mut egui::Ui, _sketch: &Sketch, brush: &mut Brush) -> bool {
        if ui.checkbox(&mut brush.locked, "Locked blocks").changed()
            && let Ink::Glyph(c) = brush.ink
            && let Some((b, _)) = block(c)
        {
            brush.ink = Ink::Glyph(breed_char(b, brush.locked));
        }
        false
    }

    /// A picked block's lock goes into "Locked blocks".
    fn picked(&self, brush: &mut Brush) {
        if let Ink::Glyph(c) = brush.ink
            && let Some((_, locked)) = block(c)
        {
            brush.locked = locked;
        }
    }

    fn sketch(&self, level: &Level) -> Result<Sketch, String> {
        let Level::Match3(l) = level else { return Err("not a match3 level".into()) };
        let sized = |w: usize, h: usize| Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"));
        let settings = Level::Match3(Match3Level { config: l.config.clone(), ..Match3Level::default() });
        let mut d = match &l.board {
            Some(rows) => {
                let (w, h) = rows_size(rows)?;
                let mut cells = Vec::with_capacity(w * h);
                for (y, row) in rows.iter().enumerate() {
                    for (x, ch) in row.chars().enumerate() {
                        if !self.accepts(&settings, Ink::Glyph(ch)) {
                            return Err(format!(
                                "board cell ({x}, {y}): '{ch}' is not a cell ('.', '#', '*', a-p or A-P)"
                            ));
                        }
                        cells.push(Ink::Glyph(ch));
                    }
                }
                let mut d = Sketch::new(settings, sized(w, h)?, Ink::Glyph(OPEN));
                d.cells = cells;
                d
            }
            None => {
                Sketch::new(settings, sized(l.width.unwrap_or(9), l.height.unwrap_or(9))?, Ink::Glyph(OPEN))
            }
        };
        d.name = l.name.clone();
        d.seed = l.seed;
        Ok(d)
    }

    fn level(&self, sketch: &Sketch) -> Level {
        Level::Match3(Match3Level {
            name: sketch.name.clone(),
            width: None,
            height: None,
            config: settings(&sketch.settings).config,
            seed: sketch.seed,
            board: Some(sketch.rows(&|c| match c {
                Ink::Glyph(g) => g,
                Ink::Number(_) => OPEN,
            })),
        })
    }

    fn randomized(&self, sketch: &Sketch, seed: u64) -> Result<Vec<Ink>, String> {
        let opened: Vec<Ink> = sketch
            .cells
            .iter()
            .map(|&c| match c {
                Ink::Glyph(g) => match block(g) {
                    Some((_, true)) => Ink::Glyph(OPEN_LOCKED),
                    Some((_, false)) => Ink::Glyph(OPEN),
                    None => c,
                },
                other => other,
            })
            .collect();
        let out = Sketch { cells: opened, ..sketch.clone() };
        let game = self.level(&out).start(Some(seed)).map_err(|e| e.to_string())?;
        let AnyState::Match3(s) = game.state else { return Err("not a match3 game".into()) };
        Ok(out
            .cells
            .iter()
            .zip(s.blocks().cells())
            .map(|(&c, b)| b.map_or(c, |b| Ink::Glyph(breed_char(b.breed, b.locked))))
            .collect())
    }

    /// The fixed unlocked blocks.
    fn shuffles(&self, ink: Ink) -> bool {
        matches!(ink, Ink::Glyph(c) if block(c).is_some_and(|(_, locked)| !locked))
    }

    fn shuffle_helps(&self, sketch: &Sketch, problem: &Problem) -> bool {
        (problem.message.contains("run") || problem.message.contains("swap"))
            && sketch.cells.iter().any(|&c| self.shuffles(c))
    }

    fn settings_ui(&self, ui: &mut egui::Ui, settings: &mut Level) -> Option<super::InkMap> {
        let Level::Match3(l) = settings else { return None };
        let c = &mut l.config;
        let mut k = u32::from(c.breeds);
        num_field(ui, "Breeds", &mut k, 3..=16);
        c.breeds = k as u8;
        num_field(ui, "Points per block", &mut c.points_per_block, 0..=1_000_000);
        let mut limit = c.move_limit.map(u64::from);
        optional_field(ui, "Move limit", &mut limit, 20);
        c.move_limit = limit.map(|l| l.min(u64::from(u32::MAX)) as u32);
        optional_field(ui, "Target score", &mut c.target_score, 1000);
        None
    }

    fn board_command(
        &self,
        play: &mut PlayInput,
        _rules: &AnyRules,
        state: &AnyState,
        input: &BoardInput,
    ) -> Option<AnyCommand> {
        let AnyState::Match3(s) = state else { return None };
        if let Some((from, dir)) = swipe(input) {
            let (dx, dy) = match dir {
                Dir::Up => (0, -1),
                Dir::Down => (0, 1),
                Dir::Left => (-1, 0),
                Dir::Right => (1, 0),
            };
            let to = from.offset(dx, dy, s.size())?;
            play.selected = None;
            return Some(AnyCommand::Match3(Match3Command::Swap(from, to)));
        }
        let p = input.clicked?;
        match play.selected {
            Some(sel) if sel == p => {
                play.selected = None;
                None
            }
            Some(sel) if sel.is_orthogonal_neighbour(p) => {
                play.selected = None;
                Some(AnyCommand::Match3(Match3Command::Swap(sel, p)))
            }
            _ => {
                play.selected = s.blocks().get(p).copied().flatten().map(|_| p);
                None
            }
        }
    }

    fn play_panel(
        &self,
        ui: &mut egui::Ui,
        rules: &AnyRules,
        state: &AnyState,
        play: &mut PlayInput,
    ) -> Option<PlayAction> {
        ui.label("Click a block, then a neighbour to swap; or drag it.");
        if ui.button("Hint").on_hover_text("Highlight a swap that makes a run").clicked()
            && let (AnyRules::Match3(r), AnyState::Match3(s)) = (rules, state)
        {
            match r.hint(s) {
                Some(Match3Command::Swap(a, b)) => play.hint = Some((a, b)),
                None => return Some(PlayAction::Notice("no swap makes a run".into())),
            }
        }
        None
    }

    fn objectives(&self, rules: &AnyRules, state: &AnyState, out: &mut Vec<String>) {
        if let (AnyRules::Match3(r), AnyState::Match3(s)) = (rules, state) {
            if let Some(limit) = r.config.move_limit {
                out.push(format!("Moves left {}", limit.saturating_sub(s.moves())));
            } else {
                out.push(format!("Moves {}", s.moves()));
            }
            if let Some(t) = r.config.target_score {
                out.push(format!("Target {t}"));
            }
        }
    }
}
