//! `puzzlescript` in the editor: a level of a game written in PuzzleScript.
//!
//! - Files: a PuzzleScript game (`.txt`) opens through core's `puzzlescript` importer; a game of
//!   more than one playable level asks which to open.
//! - Look: the board is the objects' 5×5 sprites in their colours, layered by collision layer,
//!   on the game's `background_color` (`art`); in Edit each legend glyph is drawn so too.
//! - Play: arrow keys and WASD move, X or Space is the action key, R restarts (to the last
//!   checkpoint); Tick runs a turn with no input (realtime games). A step runs its `again` turns.
//!   Hint searches for a solution off the UI thread (`hint`).
//! - Edit: the level's cells are [`Ink::Glyph`]s of the game's legend (its one-character keys:
//!   objects and `and` aggregates); the palette lists them, each button drawn as its sprite, the
//!   key and the objects it stands for on hover.
//!   Saving writes the level with the painted rows put back into the game's source in place of
//!   the level's own (every other line of the source kept as it was). The rules themselves are
//!   edited in the game's `.txt`.

mod art;
mod hint;

use super::{BoardArt, EditorGame, Import, InkArt, PlayAction};
use crate::model::{BoardInput, Brush, Ink, InkLook, PaletteInk, PlayInput, Problem, Sketch};
use crate::palette as colours;
use std::sync::{Arc, Mutex};
use tessera_core::puzzlescript::{Palette, PuzzleScriptCommand, PuzzleScriptLevel, palette};
use tessera_core::{AnyCommand, AnyRules, AnyState, Dir, Level, RuleSet, Size};

/// The editor entry of `puzzlescript`.
pub struct Game;

/// The file format: a game's source.
static IMPORTS: [Import; 1] = [Import { ext: "txt", what: "a PuzzleScript game", read: read_game }];

/// Every playable level of a PuzzleScript game, by core's importer, numbered from 1 as
/// `tessera convert puzzlescript` numbers its files.
fn read_game(text: &str, name: Option<String>) -> Result<Vec<super::Numbered>, String> {
    let importer = tessera_core::importer("puzzlescript").ok_or("no puzzlescript importer is registered")?;
    let file = name.map(|n| format!("{n}.txt"));
    match importer.import_all(text, file.as_deref()) {
        Ok(levels) => Ok(levels.into_iter().enumerate().map(|(k, i)| (k as u64 + 1, i.level)).collect()),
        // A game that does not compile still opens (into Edit, its errors marked, for the
        // designer to fix): its first level, which does not start, so it opens as a draft.
        Err(_) if looks_like_a_game(text) && tessera_core::puzzlescript::engine::compile(text).is_err() => {
            Ok(vec![(1, source_game(text))])
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Whether `text` reads as a PuzzleScript game even when it does not compile: it has an
/// `OBJECTS` section (no stage or Boxoban file has that line).
pub fn looks_like_a_game(text: &str) -> bool {
    text.lines().any(|l| l.trim().eq_ignore_ascii_case("objects"))
}

/// The last palette asked for, by source: compiling a game for every frame of the panel would be
/// wasteful.
static PALETTE: Mutex<Option<(Arc<str>, SharedPalette)>> = Mutex::new(None);

/// A game's palette, or why it has none, shared.
type SharedPalette = Arc<Result<Palette, String>>;

/// The palette of the game whose source is `source` (its legend's glyphs), cached.
fn palette_of(source: &str) -> SharedPalette {
    let mut cached = PALETTE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((s, p)) = cached.as_ref()
        && &**s == source
    {
        return Arc::clone(p);
    }
    let p = Arc::new(palette(source));
    *cached = Some((Arc::from(source), Arc::clone(&p)));
    p
}

/// The number of playable levels of the game whose source is `source` (`None` when it does
/// not compile), cached for the last source asked.
fn level_count(source: &str) -> Option<usize> {
    static COUNT: Mutex<Option<(Arc<str>, Option<usize>)>> = Mutex::new(None);
    let mut cached = COUNT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((s, n)) = cached.as_ref()
        && &**s == source
    {
        return *n;
    }
    let n = tessera_core::puzzlescript::engine::compile(source)
        .ok()
        .map(|g| tessera_core::puzzlescript::playable_count(&g));
    *cached = Some((Arc::from(source), n));
    n
}

thread_local! {
    /// The inks' art of the game edited last, by its art's key.
    static INK_ART: std::cell::RefCell<Option<(u64, Arc<InkArt>)>> = const { std::cell::RefCell::new(None) };
}

/// The level a sketch's settings hold (the default when of another rule set, which a draft
/// never holds).
fn settings(level: &Level) -> PuzzleScriptLevel {
    match level {
        Level::PuzzleScript(l) => l.clone(),
        _ => PuzzleScriptLevel::default(),
    }
}

impl EditorGame for Game {
    fn rule_set(&self) -> RuleSet {
        RuleSet::PuzzleScript
    }

    fn level_name(&self, level: &Level) -> Option<String> {
        if let Level::PuzzleScript(l) = level { l.name.clone() } else { None }
    }

    fn imports(&self) -> &'static [Import] {
        &IMPORTS
    }

    /// The objects' sprites, layered (see `art`).
    fn board_art<'a>(&self, rules: &'a AnyRules, state: &'a AnyState) -> Option<BoardArt<'a>> {
        let (AnyRules::PuzzleScript(r), AnyState::PuzzleScript(s)) = (rules, state) else { return None };
        let art = art::of_rules(r);
        let key = art.key ^ s.hash().wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Some(BoardArt { key, background: art.background, image: Box::new(move || art.board(s)) })
    }

    /// Each legend glyph drawn as its objects' sprites over the background.
    fn ink_art(&self, settings: &Level) -> Option<Arc<InkArt>> {
        let art = art::of_source(&self::settings(settings).source)?;
        INK_ART.with(|cell| {
            let mut cell = cell.borrow_mut();
            if let Some((key, inks)) = cell.as_ref()
                && *key == art.key
            {
                return Some(Arc::clone(inks));
            }
            let inks = art.glyphs.iter().map(|(&g, px)| (Ink::Glyph(g), px.clone())).collect();
            let inks = Arc::new(InkArt { side: art::SIDE, inks });
            *cell = Some((art.key, Arc::clone(&inks)));
            Some(inks)
        })
    }

    fn default_settings(&self) -> Level {
        // A new level starts from a small game to change: pushing crates onto targets.
        Level::PuzzleScript(PuzzleScriptLevel {
            name: None,
            seed: None,
            source: tessera_core::puzzlescript::STARTER_GAME.into(),
            level: 0,
        })
    }

    fn blank(&self, _settings: &Level) -> Ink {
        Ink::Glyph('.')
    }

    fn first_ink(&self) -> Ink {
        Ink::Glyph('#')
    }

    fn accepts(&self, settings: &Level, ink: Ink) -> bool {
        let Ink::Glyph(c) = ink else { return false };
        match &*palette_of(&self::settings(settings).source) {
            Ok(p) => p.glyphs.iter().any(|g| g.glyph == c),
            Err(_) => false,
        }
    }

    /// A colour by the glyph (the canvas draws the sprites, [`EditorGame::ink_art`], when the
    /// game compiles), the glyph over it.
    fn look(&self, _settings: &Level, ink: Ink) -> InkLook {
        let fill = match ink {
            Ink::Glyph(c) => colours::hue(c as u8),
            Ink::Number(_) => egui::Color32::BLACK,
        };
        InkLook::new(fill, Some(ink.text()))
    }

    /// The legend's keys (single objects and aggregates), each with the objects it stands for.
    fn palette(&self, settings: &Level, _brush: &Brush) -> Vec<PaletteInk> {
        match &*palette_of(&self::settings(settings).source) {
            Ok(p) => p
                .glyphs
                .iter()
                .map(|g| PaletteInk {
                    ink: Ink::Glyph(g.glyph),
                    label: format!("{} {}", g.glyph, g.objects.join("+")),
                    colour: self.look(settings, Ink::Glyph(g.glyph)).fill,
                    hover: None,
                })
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    fn palette_fields_ui(&self, ui: &mut egui::Ui, sketch: &Sketch, _brush: &mut Brush) -> bool {
        match &*palette_of(&settings(&sketch.settings).source) {
            Ok(_) => ui
                .label("The legend's keys: each paints the objects it stands for (the background is added)."),
            Err(e) => ui.label(format!("The game does not compile: {e}")),
        };
        false
    }

    fn sketch(&self, level: &Level) -> Result<Sketch, String> {
        let Level::PuzzleScript(l) = level else { return Err("not a puzzlescript level".into()) };
        let rows = match tessera_core::puzzlescript::level_rows(&l.source, l.level) {
            Ok(rows) => rows,
            // A game that does not compile has no level to paint yet: a board of one cell
            // stands for it (painting it changes nothing; the source is the draft), so the game
            // opens in Edit with its errors for the designer to fix.
            Err(_) if tessera_core::puzzlescript::engine::compile(&l.source).is_err() => {
                vec![".".to_string()]
            }
            Err(e) => return Err(e),
        };
        let (w, h) = super::rows_size(&rows)?;
        let size = Size::new(w, h, self.max_side()).map_err(|e| format!("board: {e}"))?;
        let settings = Level::PuzzleScript(PuzzleScriptLevel { name: None, ..l.clone() });
        let mut d = Sketch::new(settings, size, Ink::Glyph('.'));
        d.cells = rows.iter().flat_map(|r| r.chars().map(Ink::Glyph)).collect();
        d.name = l.name.clone();
        d.seed = l.seed;
        Ok(d)
    }

    fn level(&self, sketch: &Sketch) -> Level {
        let l = settings(&sketch.settings);
        let rows = sketch.rows(&|c| match c {
            Ink::Glyph(g) => g,
            Ink::Number(_) => '.',
        });
        let source = tessera_core::puzzlescript::with_level_rows(&l.source, l.level, &rows)
            .unwrap_or_else(|_| l.source.to_string());
        Level::PuzzleScript(PuzzleScriptLevel {
            name: sketch.name.clone(),
            seed: sketch.seed,
            source: source.into(),
            level: l.level,
        })
    }

    /// Every check the painted level fails: each cell whose glyph is not a key of the game's
    /// legend (a key a rebuild removed), each with its cell, then the compiler's other errors,
    /// by line. Empty when the level compiles: the draft then asks the level.
    fn problems(&self, sketch: &Sketch) -> Vec<Problem> {
        let Level::PuzzleScript(l) = self.level(sketch) else { return Vec::new() };
        let Err(diags) = tessera_core::puzzlescript::engine::compile(&l.source) else { return Vec::new() };
        let mut out = Vec::new();
        if let Ok(p) = &*palette_of(&settings(&sketch.settings).source) {
            for (i, &ink) in sketch.cells.iter().enumerate() {
                if !matches!(ink, Ink::Glyph(c) if p.glyphs.iter().any(|g| g.glyph == c)) {
                    let at = sketch.size.pos(i);
                    out.push(Problem {
                        cell: Some(at),
                        message: format!(
                            "cell ({}, {}): '{}' is not a key of the legend",
                            at.x,
                            at.y,
                            ink.text()
                        ),
                    });
                }
            }
        }
        let cells_listed = !out.is_empty();
        for d in diags.iter().filter(|d| d.is_error) {
            // The compiler's errors for unknown keys in the level's rows ("used in map", or the
            // reader's "Key … not found" for each) are the cells listed above.
            let unknown_key = d.message.contains("used in map")
                || (d.message.starts_with("Key \"") && d.message.contains("not found"));
            if cells_listed && unknown_key {
                continue;
            }
            let message =
                if d.line > 0 { format!("line {}: {}", d.line, d.message) } else { d.message.clone() };
            out.push(Problem { cell: None, message });
        }
        out
    }

    /// A walled room with the player, and as many crates as targets scattered on the floor, in
    /// the starter game's glyphs (`#` `.` `P` `*` `O`); a game whose legend lacks them says so.
    fn randomized(&self, sketch: &Sketch, seed: u64) -> Result<Vec<Ink>, String> {
        let needed = ['#', '.', 'P', '*', 'O'];
        if !needed.iter().all(|&c| self.accepts(&sketch.settings, Ink::Glyph(c))) {
            return Err(
                "Randomize paints with the legend keys # . P * O (wall, floor, player, crate, target), \
                        which this game does not have all of"
                    .into(),
            );
        }
        let size = sketch.size;
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        if w < 3 || h < 3 {
            return Err("Randomize needs a board of at least 3×3".into());
        }
        let mut cells: Vec<Ink> = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                Ink::Glyph(if x == 0 || y == 0 || x + 1 == w || y + 1 == h { '#' } else { '.' })
            })
            .collect();
        let mut rng = tessera_core::GameRng::new(seed);
        let mut floor: Vec<usize> = (0..w * h).filter(|&i| cells[i] == Ink::Glyph('.')).collect();
        let mut place = |glyph: char, cells: &mut Vec<Ink>| {
            if floor.is_empty() {
                return;
            }
            let k = rng.below(floor.len() as u32) as usize;
            cells[floor.swap_remove(k)] = Ink::Glyph(glyph);
        };
        place('P', &mut cells);
        let pairs = ((w - 2) * (h - 2) / 12).clamp(1, 6);
        for _ in 0..pairs {
            place('*', &mut cells);
            place('O', &mut cells);
        }
        Ok(cells)
    }

    fn settings_ui(&self, ui: &mut egui::Ui, settings: &mut Level) -> Option<super::InkMap> {
        let l = self::settings(settings);
        ui.label(format!("Level {} of the game's source ({} lines).", l.level + 1, l.source.lines().count()));
        ui.weak(
            "The rules are written in the Source pane beside the board (the Source button of the menu bar).",
        );
        None
    }

    /// The game's playable levels, the edited one marked: a click edits another (the painted
    /// rows stay in the source); the edited one can be moved up or down, duplicated or deleted,
    /// and a new level added after the last (a walled room of the edited level's size).
    fn levels_ui(&self, ui: &mut egui::Ui, sketch: &Sketch) -> Option<Result<Sketch, String>> {
        use tessera_core::puzzlescript::{LevelEdit, edit_levels};
        let options = settings(&sketch.settings);
        let current = options.level;
        let count = level_count(&options.source)?;
        let mut edit = None;
        let mut open = None;
        egui::CollapsingHeader::new(format!("Levels of the game ({count})"))
            .id_salt("ps-levels")
            .default_open(true)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for k in 0..count {
                        let b = ui
                            .selectable_label(k == current, format!("Level {}", k + 1))
                            .on_hover_text("Edit this level (the painted rows stay in the game's source)");
                        if b.clicked() && k != current {
                            open = Some(k);
                        }
                    }
                });
                // The difficulty estimate of every level, in the game's order (rated in the
                // background once per source), its breathers marked; a click opens a level.
                if let Some(k) = crate::estimate::curve_ui(ui, &options.source, count, current) {
                    open = Some(k);
                }
                ui.horizontal_wrapped(|ui| {
                    if ui.add_enabled(current > 0, egui::Button::new("Move level up")).clicked() {
                        edit = Some(LevelEdit::MoveUp(current));
                    }
                    if ui.add_enabled(current + 1 < count, egui::Button::new("Move level down")).clicked() {
                        edit = Some(LevelEdit::MoveDown(current));
                    }
                    if ui.button("Duplicate level").clicked() {
                        edit = Some(LevelEdit::Duplicate(current));
                    }
                    if ui.add_enabled(count > 1, egui::Button::new("Delete level")).clicked() {
                        edit = Some(LevelEdit::Delete(current));
                    }
                    if ui.button("Add level").on_hover_text("A new level after the last one").clicked() {
                        edit = Some(LevelEdit::Add(self.new_rows(sketch)));
                    }
                });
                ui.weak("Messages between levels stay where they are; Save game source writes the file.");
            });
        if edit.is_none() && open.is_none() {
            return None;
        }
        // The painted rows go into the source first.
        let Level::PuzzleScript(level) = self.level(sketch) else { return None };
        let (source, k) = match (edit, open) {
            (Some(e), _) => match edit_levels(&level.source, &e) {
                Ok((s, k)) => (s.into(), k),
                Err(e) => return Some(Err(e)),
            },
            (None, Some(k)) => (level.source.clone(), k),
            (None, None) => return None,
        };
        // The level's own name, as the importer gives it ("Title 3"), not the one edited before.
        let name = read_game(&source, None)
            .ok()
            .and_then(|mut levels| (k < levels.len()).then(|| levels.swap_remove(k).1))
            .and_then(|l| self.level_name(&l));
        let next = PuzzleScriptLevel { source, level: k, name: None, ..level };
        Some(self.sketch(&Level::PuzzleScript(next)).map(|mut d| {
            d.name = name;
            d
        }))
    }

    fn game_source(&self, level: &Level) -> Option<String> {
        if let Level::PuzzleScript(l) = level { Some(l.source.to_string()) } else { None }
    }

    /// A rebuild (a new source) restarts Play with the new rules.
    fn restarts_play(&self, before: &Level, after: &Level) -> bool {
        settings(before).source != settings(after).source
    }

    fn key_command(&self, input: &egui::InputState) -> Option<AnyCommand> {
        use egui::Key;
        let cmd = if let Some(d) = super::pressed_dir(input) {
            match d {
                Dir::Up => PuzzleScriptCommand::Up,
                Dir::Down => PuzzleScriptCommand::Down,
                Dir::Left => PuzzleScriptCommand::Left,
                Dir::Right => PuzzleScriptCommand::Right,
            }
        } else if input.key_pressed(Key::X) || input.key_pressed(Key::Space) {
            PuzzleScriptCommand::Action
        } else if input.key_pressed(Key::R) {
            PuzzleScriptCommand::Restart
        } else {
            return None;
        };
        Some(AnyCommand::PuzzleScript(cmd))
    }

    fn board_command(
        &self,
        _play: &mut PlayInput,
        _rules: &AnyRules,
        _state: &AnyState,
        _input: &BoardInput,
    ) -> Option<AnyCommand> {
        None
    }

    fn play_panel(
        &self,
        ui: &mut egui::Ui,
        rules: &AnyRules,
        state: &AnyState,
        _play: &mut PlayInput,
    ) -> Option<PlayAction> {
        let (AnyRules::PuzzleScript(r), AnyState::PuzzleScript(s)) = (rules, state) else { return None };
        ui.label("Arrow keys or WASD move; X or Space: action; R: restart.");
        let mut action = None;
        // The same rows whatever happens, so nothing under them moves (issue 36.6).
        super::fixed_line(ui, |ui| {
            if s.is_won() {
                ui.label("Won: the win conditions hold.");
            } else if uses_randomness(r.source())
                && ui.button("Tick").on_hover_text("A turn with no input (realtime games, again)").clicked()
            {
                action = Some(PlayAction::Execute(AnyCommand::PuzzleScript(PuzzleScriptCommand::Tick)));
            }
        });
        if let Some(every) = r.game().prelude().realtime_interval.filter(|t| *t > 0.0)
            && realtime_ui(ui, every, !s.is_won())
            && action.is_none()
        {
            action = Some(PlayAction::Clock(AnyCommand::PuzzleScript(PuzzleScriptCommand::Tick)));
        }
        if let Some(a) = hint::panel(ui, r, s) {
            action = Some(a);
        }
        // Level select: the other levels of the same source.
        let game = r.game();
        let count = tessera_core::puzzlescript::playable_count(game);
        let k = game.levels()[..r.entry().min(game.levels().len())]
            .iter()
            .filter(|e| matches!(e, tessera_core::puzzlescript::engine::LevelEntry::Level { .. }))
            .count();
        let mut go = None;
        ui.horizontal(|ui| {
            ui.label(format!("Level {} of {count}", k + 1));
            if ui.add_enabled(k > 0, egui::Button::new("Previous level")).clicked() {
                go = Some(k - 1);
            }
            // After a win the way on is lit; on the last level there is none to light.
            let next = egui::Button::new("Next level").selected(s.is_won() && k + 1 < count);
            if ui.add_enabled(k + 1 < count, next).clicked() {
                go = Some(k + 1);
            }
        });
        super::fixed_line(ui, |ui| {
            if s.is_won() && k + 1 == count {
                ui.label(if count == 1 {
                    "The game's only level: won."
                } else {
                    "The game's last level: won."
                });
            }
        });
        if let Some(to) = go {
            // Going on after a win shows the messages between the two levels first, as
            // PuzzleScript does.
            let said: Vec<String> = if to == k + 1 && s.is_won() {
                let from = tessera_core::puzzlescript::entry_of(game, k).unwrap_or(0);
                let next = tessera_core::puzzlescript::entry_of(game, to).unwrap_or(from);
                game.levels()
                    .get(from + 1..next)
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(|e| match e {
                        tessera_core::puzzlescript::engine::LevelEntry::Message { text, .. } => {
                            Some(text.clone())
                        }
                        _ => None,
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let k = to;
            action = Some(match read_game(r.source(), None) {
                Ok(mut levels) if k < levels.len() => {
                    let (_, level) = levels.swap_remove(k);
                    let name = self.level_name(&level).unwrap_or_else(|| format!("level {}", k + 1));
                    let title = format!("{}. {name}", k + 1);
                    if said.is_empty() {
                        PlayAction::Open(level, title)
                    } else {
                        PlayAction::OpenAfterMessage(level, title, said)
                    }
                }
                Ok(_) => PlayAction::Notice(format!("the game has no level {}", k + 1)),
                Err(e) => PlayAction::Notice(e),
            });
        }
        action
    }

    fn message(&self, event: &tessera_core::AnyEvent) -> Option<String> {
        match event {
            tessera_core::AnyEvent::PuzzleScript(
                tessera_core::puzzlescript::PuzzleScriptEvent::Message { text },
            ) => Some(text.clone()),
            _ => None,
        }
    }

    /// No score: PuzzleScript levels are won or not.
    fn shows_score(&self) -> bool {
        false
    }

    fn objectives(&self, _rules: &AnyRules, state: &AnyState, out: &mut Vec<String>) {
        if let AnyState::PuzzleScript(s) = state {
            out.push(if s.is_won() { "Won".into() } else { "Win conditions not met".into() });
        }
    }

    fn inspector_ui(&self, ui: &mut egui::Ui, state: &AnyState) {
        let AnyState::PuzzleScript(s) = state else { return };
        ui.label(format!("{} objects in the game", s.meta().names.len()));
    }

    /// Each `Turn` event starts a board shown `again_interval` seconds (0.15 by default).
    fn turn_frames(&self, rules: &AnyRules, events: &[tessera_core::AnyEvent]) -> Option<(Vec<usize>, f64)> {
        use tessera_core::puzzlescript::PuzzleScriptEvent as E;
        let AnyRules::PuzzleScript(r) = rules else { return None };
        let starts: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, tessera_core::AnyEvent::PuzzleScript(E::Turn { .. })))
            .map(|(i, _)| i)
            .collect();
        let secs = r.game().prelude().again_interval;
        Some((starts, if secs.is_finite() { secs.clamp(0.0, 2.0) } else { 0.15 }))
    }

    /// [`PuzzleScriptRules::step_report`](tessera_core::puzzlescript::PuzzleScriptRules::step_report).
    fn step_report(
        &self,
        rules: &AnyRules,
        state: &AnyState,
        cmd: &AnyCommand,
        rules_tried: bool,
    ) -> super::StepReport {
        let (AnyRules::PuzzleScript(r), AnyState::PuzzleScript(s), AnyCommand::PuzzleScript(c)) =
            (rules, state, cmd)
        else {
            return super::StepReport::default();
        };
        r.step_report(s, c, rules_tried)
            .map(|r| super::StepReport { sounds: r.sounds, tried: r.tried })
            .unwrap_or_default()
    }

    /// [`PuzzleScriptRules::rule_boards`](tessera_core::puzzlescript::PuzzleScriptRules::rule_boards).
    fn rule_boards(&self, rules: &AnyRules, state: &AnyState, cmd: &AnyCommand) -> Vec<Vec<AnyState>> {
        let (AnyRules::PuzzleScript(r), AnyState::PuzzleScript(s), AnyCommand::PuzzleScript(c)) =
            (rules, state, cmd)
        else {
            return Vec::new();
        };
        r.rule_boards(s, c)
            .map(|turns| {
                turns
                    .into_iter()
                    .map(|t| t.into_iter().map(|(_, b)| AnyState::PuzzleScript(b)).collect())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn event_sound(&self, rules: &AnyRules, event: &str) -> Option<String> {
        let AnyRules::PuzzleScript(r) = rules else { return None };
        r.game().sound_event(event).map(str::to_string)
    }

    fn makes_sounds(&self) -> bool {
        true
    }

    fn seed_name(&self, rules: &AnyRules, seed: &str) -> Option<String> {
        let AnyRules::PuzzleScript(r) = rules else { return None };
        r.game().sound_declarations().iter().find(|d| d.seed == seed).map(|d| d.name.clone())
    }

    /// `background_color` and `text_color` in the game's palette.
    fn message_colours(&self, rules: &AnyRules) -> Option<(egui::Color32, egui::Color32)> {
        let AnyRules::PuzzleScript(r) = rules else { return None };
        let art = art::of_rules(r);
        Some((art.background, art.text))
    }

    /// The step's `Turn` events, each with the `Rule` events after it, the rules' text read from
    /// the source at their lines.
    fn rules_fired(&self, rules: &AnyRules, events: &[tessera_core::AnyEvent]) -> Vec<super::TurnTrace> {
        use tessera_core::puzzlescript::PuzzleScriptEvent as E;
        let AnyRules::PuzzleScript(r) = rules else { return Vec::new() };
        let lines: Vec<&str> = r.source().lines().collect();
        let mut turns: Vec<super::TurnTrace> = Vec::new();
        for e in events {
            let tessera_core::AnyEvent::PuzzleScript(e) = e else { continue };
            match e {
                E::Turn { index } => turns.push(super::TurnTrace { index: *index, rules: Vec::new() }),
                E::Rule { line, cells } => {
                    if turns.is_empty() {
                        turns.push(super::TurnTrace { index: 0, rules: Vec::new() });
                    }
                    let text =
                        lines.get((*line as usize).wrapping_sub(1)).map_or("", |l| l.trim()).to_string();
                    if let Some(t) = turns.last_mut() {
                        t.rules.push(super::FiredRule { line: *line, text, cells: cells.clone() });
                    }
                }
                _ => {}
            }
        }
        turns
    }

    /// An object's name (any case): the events that add, remove or move it.
    fn event_filter(&self, state: &AnyState, word: &str) -> Option<crate::find::EventTest> {
        use tessera_core::puzzlescript::PuzzleScriptEvent as E;
        let AnyState::PuzzleScript(s) = state else { return None };
        let k = s.meta().names.iter().position(|n| n.eq_ignore_ascii_case(word))?;
        let (word, bit) = (k / 64, 1u64 << (k % 64));
        let has = move |words: &[u64]| words.get(word).is_some_and(|w| w & bit != 0);
        Some(std::sync::Arc::new(move |e: &tessera_core::AnyEvent| match e {
            tessera_core::AnyEvent::PuzzleScript(E::Cell { before, after, .. }) => has(before) != has(after),
            tessera_core::AnyEvent::PuzzleScript(E::Moved { object, .. }) => *object as usize == k,
            _ => false,
        }))
    }

    fn messages_before(&self, level: &Level) -> Vec<String> {
        use tessera_core::puzzlescript::engine::{self, LevelEntry};
        let Level::PuzzleScript(l) = level else { return Vec::new() };
        let Ok(game) = engine::compile(&l.source) else { return Vec::new() };
        let Some(at) = tessera_core::puzzlescript::entry_of(&game, l.level) else { return Vec::new() };
        let entries = &game.levels()[..at.min(game.levels().len())];
        // Back to the level before (or the start of the game).
        let from = entries.iter().rposition(|e| matches!(e, LevelEntry::Level { .. })).map_or(0, |p| p + 1);
        entries[from..]
            .iter()
            .filter_map(|e| match e {
                LevelEntry::Message { text, .. } => Some(text.clone()),
                LevelEntry::Level { .. } => None,
            })
            .collect()
    }

    fn source_text<'a>(&self, level: &'a Level) -> Option<(&'a str, usize)> {
        let Level::PuzzleScript(l) = level else { return None };
        Some((&l.source, l.level))
    }

    fn with_source(&self, level: &Level, source: String) -> Option<Level> {
        let Level::PuzzleScript(l) = level else { return None };
        Some(Level::PuzzleScript(PuzzleScriptLevel { source: source.into(), ..l.clone() }))
    }

    /// The rules that fired, each with its line, turn by turn; again turns, sounds, messages,
    /// cancel, checkpoint and restart (a fired rule's command), the win; with the details, every
    /// move and cell change by the objects' names.
    fn console_lines(
        &self,
        rules: &AnyRules,
        state: &AnyState,
        events: &[tessera_core::AnyEvent],
        report: &super::StepReport,
        out: &mut Vec<crate::console::ConsoleLine>,
    ) {
        use crate::console::{ConsoleLine, Kind};
        use tessera_core::puzzlescript::PuzzleScriptEvent as E;
        let AnyRules::PuzzleScript(r) = rules else { return };
        let lines: Vec<&str> = r.source().lines().collect();
        let text_at = |line: u32| lines.get((line as usize).wrapping_sub(1)).map_or("", |l| l.trim());
        // A turn's sounds close it (the report's: the `sfx` ones the events leave out too).
        let sounds = |turn: Option<u32>, out: &mut Vec<ConsoleLine>| {
            for seed in turn.and_then(|t| report.sounds.get(t as usize)).into_iter().flatten() {
                let text = match self.seed_name(rules, seed) {
                    Some(name) => format!("sound: {name} {seed}"),
                    None => format!("sound {seed}"),
                };
                out.push(ConsoleLine::new(Kind::Note, text, None));
            }
        };
        let mut turn = None;
        for e in events {
            let tessera_core::AnyEvent::PuzzleScript(e) = e else { continue };
            match e {
                E::Turn { index } => {
                    sounds(turn.take(), out);
                    turn = Some(*index);
                    if *index > 0 {
                        out.push(ConsoleLine::new(Kind::Note, format!("again (turn {index})"), None));
                    }
                    tried_lines(report.tried.get(*index as usize).map_or(&[], Vec::as_slice), &text_at, out);
                }
                E::Rule { line, .. } => {
                    let text = text_at(*line);
                    out.push(ConsoleLine::new(Kind::Info, text, Some(*line)));
                    let lower = text.to_ascii_lowercase();
                    let commands = lower.rsplit("->").next().unwrap_or("");
                    for word in ["checkpoint", "restart"] {
                        if commands.split_whitespace().any(|w| w == word) {
                            out.push(ConsoleLine::new(Kind::Note, word, Some(*line)));
                        }
                    }
                }
                // Listed from the report, which also has what plays unrecorded.
                E::Sound { .. } => {}
                E::Message { text } => {
                    out.push(ConsoleLine::new(Kind::Note, format!("message: {text}"), None))
                }
                E::Cancelled => out.push(ConsoleLine::new(Kind::Cancel, "cancel: the turn was undone", None)),
                E::Won => {
                    sounds(turn.take(), out);
                    out.push(ConsoleLine::new(Kind::Win, "win", None));
                }
                E::Moved { .. } | E::Cell { .. } => {
                    if let Some(text) =
                        self.describe_event(state, &tessera_core::AnyEvent::PuzzleScript(e.clone()))
                    {
                        out.push(ConsoleLine::new(Kind::Detail, text, None));
                    }
                }
                E::Aux { .. } => {}
            }
        }
        sounds(turn, out);
    }

    fn describe_event(&self, state: &AnyState, event: &tessera_core::AnyEvent) -> Option<String> {
        let (AnyState::PuzzleScript(s), tessera_core::AnyEvent::PuzzleScript(e)) = (state, event) else {
            return None;
        };
        Some(e.describe(&s.meta().names))
    }

    /// Z undoes, as in PuzzleScript.
    fn z_undoes(&self) -> bool {
        true
    }

    /// Only games whose rules use `random` or `randomdir`, or that run in real time.
    fn level_uses_seed(&self, level: &Level) -> bool {
        let Level::PuzzleScript(l) = level else { return true };
        uses_randomness(&l.source)
    }
}

/// The most rules tried listed for a turn (a game of many rules tries hundreds a turn).
const MAX_TRIED_LINES: usize = 200;

/// Verbose console lines for a turn's rules `tried` (consecutive tries of one line, the
/// directions of one rule, as one), each linked to its line.
fn tried_lines<'a>(
    tried: &[(u32, bool)],
    text_at: &dyn Fn(u32) -> &'a str,
    out: &mut Vec<crate::console::ConsoleLine>,
) {
    use crate::console::{ConsoleLine, Kind};
    let mut merged: Vec<(u32, bool)> = Vec::new();
    for &(line, hit) in tried {
        match merged.last_mut() {
            Some(last) if last.0 == line => last.1 |= hit,
            _ => merged.push((line, hit)),
        }
    }
    for &(line, hit) in merged.iter().take(MAX_TRIED_LINES) {
        let outcome = if hit { "matched" } else { "no match" };
        out.push(ConsoleLine::new(Kind::Detail, format!("tried {} ({outcome})", text_at(line)), Some(line)));
    }
    if merged.len() > MAX_TRIED_LINES {
        let more = merged.len() - MAX_TRIED_LINES;
        out.push(ConsoleLine::new(Kind::Detail, format!("… {more} more rules tried in this turn"), None));
    }
}

/// Whether a game's source uses randomness (`random`, `randomdir` in its rules) or runs in
/// real time (`realtime_interval`): the games whose seed or clock matter.
pub fn uses_randomness(source: &str) -> bool {
    // Asked every frame of the Play panel: the answer for the last source is kept.
    static LAST: Mutex<Option<(Arc<str>, bool)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((s, answer)) = last.as_ref()
        && &**s == source
    {
        return *answer;
    }
    let answer = scan_randomness(source);
    *last = Some((Arc::from(source), answer));
    answer
}

fn scan_randomness(source: &str) -> bool {
    crate::syntax::tokens(source).iter().any(|t| {
        let w = &source[t.range.clone()];
        (t.class == crate::syntax::Class::Direction
            && (w.eq_ignore_ascii_case("random") || w.eq_ignore_ascii_case("randomdir")))
            || (t.class == crate::syntax::Class::Metadata && w.eq_ignore_ascii_case("realtime_interval"))
    })
}

/// The games File → New game offers: a blank game and small examples of common mechanics, each
/// with its name.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("Blank game", include_str!("puzzlescript/examples/blank.txt")),
    ("Push (crates onto targets)", include_str!("puzzlescript/examples/push.txt")),
    ("Pull (drag a crate)", include_str!("puzzlescript/examples/pull.txt")),
    ("Ice (slide until stopped)", include_str!("puzzlescript/examples/ice.txt")),
    ("Switch and door", include_str!("puzzlescript/examples/switch.txt")),
    ("Spawner (action makes crates)", include_str!("puzzlescript/examples/spawner.txt")),
    // What PuzzleScript's examples teach, one game each (issue 63.15).
    ("Chain push (movement and pushing)", include_str!("puzzlescript/examples/chain.txt")),
    ("Holes (late rules)", include_str!("puzzlescript/examples/holes.txt")),
    ("Gravity (again)", include_str!("puzzlescript/examples/gravity.txt")),
    ("Rafts (rigid)", include_str!("puzzlescript/examples/rafts.txt")),
    ("Beetles (random)", include_str!("puzzlescript/examples/beetles.txt")),
    ("Belts (realtime)", include_str!("puzzlescript/examples/belts.txt")),
    ("Signs (messages)", include_str!("puzzlescript/examples/signs.txt")),
    ("Flags (checkpoints)", include_str!("puzzlescript/examples/flags.txt")),
];

impl Game {
    /// A new level's rows: the edited level's size, walls round the edge and the player in the
    /// corner where the legend has `#` and `P`, the blank glyph elsewhere.
    fn new_rows(&self, sketch: &Sketch) -> Vec<String> {
        let size = sketch.size;
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let has = |c: char| self.accepts(&sketch.settings, Ink::Glyph(c));
        let blank = match self.blank(&sketch.settings) {
            Ink::Glyph(c) => c,
            _ => '.',
        };
        let wall = if has('#') && w >= 3 && h >= 3 { Some('#') } else { None };
        (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| match wall {
                        Some(c) if x == 0 || y == 0 || x + 1 == w || y + 1 == h => c,
                        Some(_) if (x, y) == (1, 1) && has('P') => 'P',
                        _ => blank,
                    })
                    .collect()
            })
            .collect()
    }
}

/// A realtime game's clock: a checkbox (on at first) and, while it is on and the level goes on,
/// whether a tick is due now (`every` seconds after the last). Each tick is a step (`tick`), so
/// a log records them like any command.
fn realtime_ui(ui: &mut egui::Ui, every: f64, going: bool) -> bool {
    let id = egui::Id::unique("puzzlescript-realtime");
    // (on, the time of the last tick)
    let (mut on, last): (bool, Option<f64>) = ui.ctx().data(|d| d.get_temp(id)).unwrap_or((true, None));
    ui.checkbox(&mut on, format!("Realtime: a tick every {every} s"))
        .on_hover_text("The game's realtime_interval: a turn with no input runs on that clock");
    let now = ui.input(|i| i.time);
    let due = on && going && last.is_some_and(|t| now - t >= every);
    let last = if !on || !going || due { Some(now) } else { last.or(Some(now)) };
    ui.ctx().data_mut(|d| d.insert_temp(id, (on, last)));
    if on && going {
        ui.ctx().request_repaint_after(std::time::Duration::from_secs_f64(every));
    }
    due
}

/// The level of a new game written as text (File → New game): its first level.
pub fn source_game(source: &str) -> tessera_core::Level {
    tessera_core::Level::PuzzleScript(PuzzleScriptLevel {
        name: None,
        seed: None,
        source: source.into(),
        level: 0,
    })
}
