//! `match3` in the editor. Edit: random (`.`), random locked (`*`), void (`#`) and fixed blocks
//! of a breed, locked or not; Randomize starts the layout (fixed blocks opened, voids and locks
//! kept) so the result has no run and a valid swap; "Fix by shuffling" when fixed blocks make a
//! run or leave no swap. Play: click a block, then a neighbour to swap (click it again to
//! deselect, click a non-neighbour to select that one instead, as seed 000), or drag a block onto
//! a neighbour; Hint highlights a swap that makes a run. Opens the seed's stage files (`.txt`).

use super::{EditorGame, Import, PlayAction, ink_button, num_field, optional_field, rows_of, rows_size};
use crate::board::BoardInput;
use crate::draft::{Draft, Ink, Options, Problem};
use crate::edit::Brush;
use crate::play::{PlayInput, swipe};
use tessera_core::match3::{Match3Command, Match3Level, breed_char};
use tessera_core::{AnyCommand, AnyRules, AnyState, Dir, Level, RuleSet, Size};

/// The editor entry of `match3`.
pub struct Game;

/// The settings of `options` (the defaults when they are of another rule set, which a draft
/// never holds).
fn settings(options: &Options) -> Match3Level {
    match options.level() {
        Level::Match3(l) => l.clone(),
        _ => Match3Level::default(),
    }
}

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

    fn default_options(&self) -> Options {
        Options::new(&Game, Level::Match3(Match3Level::default()))
    }

    fn blank(&self) -> Ink {
        Ink::Open
    }

    fn first_ink(&self) -> Ink {
        Ink::Block(0, false)
    }

    fn accepts(&self, _options: &Options, ink: Ink) -> bool {
        match ink {
            Ink::Open | Ink::OpenLocked | Ink::Void => true,
            Ink::Block(b, _) => b < 16,
            _ => false,
        }
    }

    fn draft(&self, level: &Level) -> Result<Draft, String> {
        let Level::Match3(l) = level else { return Err("not a match3 level".into()) };
        let sized = |w: usize, h: usize| Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"));
        let mut d = match &l.board {
            Some(rows) => {
                let (w, h) = rows_size(rows)?;
                let mut cells = Vec::with_capacity(w * h);
                for (y, row) in rows.iter().enumerate() {
                    for (x, ch) in row.chars().enumerate() {
                        cells.push(match ch {
                            '.' => Ink::Open,
                            '*' => Ink::OpenLocked,
                            '#' => Ink::Void,
                            'a'..='p' => Ink::Block(ch as u8 - b'a', false),
                            'A'..='P' => Ink::Block(ch as u8 - b'A', true),
                            _ => {
                                return Err(format!(
                                    "board cell ({x}, {y}): '{ch}' is not a cell ('.', '#', '*', a-p or A-P)"
                                ));
                            }
                        });
                    }
                }
                Draft::new(&Game, sized(w, h)?, l.seed).with_cells(cells)
            }
            None => Draft::new(&Game, sized(l.width.unwrap_or(9), l.height.unwrap_or(9))?, l.seed),
        };
        d.options = Options::new(&Game, Level::Match3(Match3Level { config: l.config.clone(), ..Match3Level::default() }));
        d.name = l.name.clone();
        Ok(d)
    }

    fn level(&self, draft: &Draft) -> Level {
        Level::Match3(Match3Level {
            name: draft.name.clone(),
            width: None,
            height: None,
            config: settings(&draft.options).config,
            seed: draft.seed,
            board: Some(rows_of(draft, &|c| match c {
                Ink::OpenLocked => '*',
                Ink::Void => '#',
                Ink::Block(b, locked) => breed_char(b, locked),
                _ => '.',
            })),
        })
    }

    fn randomized(&self, draft: &Draft, seed: u64) -> Result<Draft, String> {
        let opened = draft
            .cells()
            .iter()
            .map(|&c| match c {
                Ink::Block(_, true) => Ink::OpenLocked,
                Ink::Block(_, false) => Ink::Open,
                other => other,
            })
            .collect();
        let mut out = draft.clone().with_cells(opened);
        let game = out.to_level().start(Some(seed)).map_err(|e| e.to_string())?;
        let AnyState::Match3(s) = game.state else { return Err("not a match3 game".into()) };
        let cells = out
            .cells()
            .iter()
            .zip(s.blocks().cells())
            .map(|(&c, b)| b.map_or(c, |b| Ink::Block(b.breed, b.locked)))
            .collect();
        out = out.with_cells(cells);
        Ok(out)
    }

    fn shuffle_helps(&self, draft: &Draft, problem: &Problem) -> bool {
        (problem.message.contains("run") || problem.message.contains("swap"))
            && draft.cells().iter().any(|c| matches!(c, Ink::Block(_, false)))
    }

    fn palette_ui(&self, ui: &mut egui::Ui, draft: &Draft, brush: &mut Brush) -> bool {
        let breeds = settings(&draft.options).config.breeds;
        let mut chose = false;
        ui.horizontal_wrapped(|ui| {
            chose |= ink_button(ui, brush, Ink::Open, "Random".into(), &[]);
            chose |= ink_button(ui, brush, Ink::OpenLocked, "Random locked".into(), &[]);
            chose |= ink_button(ui, brush, Ink::Void, "Void".into(), &[]);
        });
        if ui.checkbox(&mut brush.locked, "Locked blocks").changed()
            && let Ink::Block(b, _) = brush.ink
        {
            brush.ink = Ink::Block(b, brush.locked);
        }
        ui.horizontal_wrapped(|ui| {
            for b in 0..breeds.min(16) {
                let ink = Ink::Block(b, brush.locked);
                chose |= ink_button(ui, brush, ink, format!("breed {}", breed_char(b, brush.locked)), &[]);
            }
        });
        chose
    }

    fn settings_ui(&self, ui: &mut egui::Ui, options: &mut Options) -> Option<super::InkMap> {
        let Level::Match3(l) = options.level_mut() else { return None };
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
