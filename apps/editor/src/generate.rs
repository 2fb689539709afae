//! The Generate pane (issue 64.7): `tessera generate` in the window, for a PuzzleScript game
//! (the workbench) and for the rule sets with a generator of their own (Sokoban rooms, match-3
//! stages). The options (levels, seed, states, grow from, size, steps, keep walls, difficulty;
//! Sokoban's boxes; match-3's win rate and games), Start and Cancel, a progress line, and the
//! candidates as a gallery of thumbnails drawn with the game's own look, each with its figures
//! and difficulty (`estimate_level`, as the command rates them; a tuned stage: the share of the
//! bot's games lost) and Accept, Reject, Show the solution and More like this. The template
//! (the level grown from) is drawn above the gallery, where the Keep brush locks cells: every
//! candidate keeps them as they are (a Sokoban room: their ground, no box or player on them).
//!
//! The round runs on a worker thread (`run.rs`) and the pane polls it each frame (asking for a
//! repaint while it runs); the UI thread never waits on it. Cancel sets the run's interrupt.
//! What Accept and Show the solution do to the game is the app's (`app/generate.rs`): a
//! PuzzleScript level is appended to the game's source, a Sokoban room joins the collection
//! that Save collection… writes as XSB, a tuned stage becomes Edit's.

mod run;
mod thumb;

pub use run::{Candidate, Found};
pub use thumb::level_with;

use run::{Message, Running, Work};
use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::sync::mpsc::TryRecvError;
use tessera_core::{AnyCommand, Generator, Level, Pos, Takes};
use tessera_generate::{Budget, Options, Progress};
use thumb::Thumb;

/// The side of a candidate's thumbnail, in points.
const THUMB: f32 = 120.0;
/// The template view's height, in points.
const TEMPLATE: f32 = 150.0;

/// What the pane generates levels of.
#[derive(Clone, Copy)]
pub enum Target<'a> {
    /// A PuzzleScript game: its source, and the rows of the level shown (None when they cannot
    /// be read).
    Game {
        /// The game's source as Edit holds it.
        source: &'a str,
        /// The level shown, as rows.
        shown: Option<&'a [String]>,
    },
    /// A rule set's generator (Sokoban fills rooms, match-3 tunes stages) and the level shown.
    Rules {
        /// The generator.
        generator: &'static Generator,
        /// Edit's level.
        shown: &'a Level,
    },
}

impl Target<'_> {
    /// The rows of the level shown.
    fn shown_rows(&self) -> Option<Vec<String>> {
        match self {
            Target::Game { shown, .. } => shown.map(<[String]>::to_vec),
            Target::Rules { shown: Level::Sokoban(s), .. } => Some(s.board.clone()),
            Target::Rules { .. } => None,
        }
    }

    /// A rule set's generator of rooms (Sokoban): the Keep brush and Size apply.
    fn rooms(&self) -> bool {
        match self {
            Target::Game { .. } => true,
            Target::Rules { generator, .. } => generator.takes == Takes::Room,
        }
    }
}

/// What the levels grow from.
#[derive(Clone, Debug, PartialEq)]
pub enum From {
    /// The level Edit shows (as painted).
    Shown,
    /// All the game's levels.
    All,
    /// A candidate (More like this): its rows, and its level when a rule set's generator made
    /// it.
    Candidate(Vec<String>, Option<Level>),
}

/// What the pane asks the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum GenerateAction {
    /// Append the level of these rows to the game's source.
    Accept(Vec<String>),
    /// Take a rule set's level: a Sokoban room into the collection, a tuned stage into Edit.
    AcceptLevel(Box<tessera_generate::RulesLevel>),
    /// Play this level in Play, these commands (its solution) shown step by step.
    Show(Box<Level>, Vec<AnyCommand>),
    /// Ask where to save the collection of accepted levels.
    SaveCollection,
}

/// The Generate pane: its options, the run, the gallery.
pub struct GeneratePanel {
    /// The pane is shown.
    pub open: bool,
    /// Levels a round.
    pub count: usize,
    /// The run's seed (each round after the first adds its round).
    pub seed: u64,
    /// The budget of solver states for the round (deterministic).
    pub states: u64,
    /// The most states one candidate's proof expands.
    pub level_states: u64,
    /// What the levels grow from.
    pub from: From,
    /// Rooms of this size instead of the template's.
    pub size: Option<(usize, usize)>,
    /// The fewest steps.
    pub min_steps: usize,
    /// The most steps.
    pub max_steps: Option<usize>,
    /// Change only movable objects.
    pub keep_walls: bool,
    /// Keep only levels of this difficulty.
    pub difficulty: Option<(f64, f64)>,
    /// Sokoban: boxes in each level (None: as many as the room grown from has; 3 in rooms of
    /// Size).
    pub boxes: Option<usize>,
    /// Match-3: the share of the bot's games a stage must be won in.
    pub win_rate: (f64, f64),
    /// Match-3: the bot's games each measure plays.
    pub games: u32,
    /// Sokoban: the levels accepted, which Save collection writes as one XSB file.
    collection: Vec<tessera_generate::RulesLevel>,
    /// The cells the Keep brush locked, (x, y) of the template.
    kept: BTreeSet<(usize, usize)>,
    /// The template's size the kept cells are of.
    kept_size: Option<(usize, usize)>,
    /// A stroke of the Keep brush: locking (true) or unlocking cells.
    stroke: Option<bool>,
    /// The template shown, the rows it was made of and what they were of (a game's source, a
    /// level's JSON).
    template: Option<(Vec<String>, String, Option<Thumb>)>,
    running: Option<Running>,
    progress: Option<Progress>,
    /// What the last round came to, in words.
    said: Option<String>,
    candidates: Vec<Candidate>,
    round: u32,
}

impl Default for GeneratePanel {
    fn default() -> Self {
        GeneratePanel {
            open: false,
            count: 6,
            seed: 1,
            states: 2_000_000,
            level_states: 50_000,
            from: From::Shown,
            size: None,
            min_steps: 6,
            max_steps: None,
            keep_walls: false,
            difficulty: None,
            boxes: None,
            win_rate: (0.4, 0.6),
            games: 100,
            collection: Vec::new(),
            kept: BTreeSet::new(),
            kept_size: None,
            stroke: None,
            template: None,
            running: None,
            progress: None,
            said: None,
            candidates: Vec::new(),
            round: 0,
        }
    }
}

/// The size of a level of `rows` (its longest row: an XSB level's rows may be ragged).
fn size_of(rows: &[String]) -> (usize, usize) {
    (rows.iter().map(|r| r.chars().count()).max().unwrap_or(0), rows.len())
}

impl GeneratePanel {
    /// Whether a round is running.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// The candidates in the gallery, in the order they came.
    pub fn candidates(&self) -> &[Candidate] {
        &self.candidates
    }

    /// The last progress of the round running (or ended).
    pub fn progress(&self) -> Option<Progress> {
        self.progress
    }

    /// The progress line: "proved 3 of 10 · 41,000 states", or how the round ended.
    pub fn progress_line(&self) -> String {
        let p = self.progress.unwrap_or(Progress { proved: 0, wanted: self.count, candidates: 0, states: 0 });
        let line = format!(
            "proved {} of {} · {} states · {} candidates",
            p.proved,
            p.wanted,
            thousands(p.states),
            thousands(p.candidates)
        );
        match (&self.running, &self.said) {
            (None, Some(s)) => format!("{line} · {s}"),
            _ => line,
        }
    }

    /// The cells the Keep brush locked.
    pub fn kept(&self) -> &BTreeSet<(usize, usize)> {
        &self.kept
    }

    /// Locks (or unlocks) cell (x, y) of the template.
    pub fn set_kept(&mut self, x: usize, y: usize, keep: bool) {
        if keep {
            self.kept.insert((x, y));
        } else {
            self.kept.remove(&(x, y));
        }
    }

    /// Where the template view drew cell `p` last frame (for tests driving the Keep brush).
    pub fn template_cell_centre(&self, p: Pos) -> Option<egui::Pos2> {
        self.template.as_ref()?.2.as_ref()?.view.cell_centre(p)
    }

    /// Whether the Keep brush can be used: the levels grow from one level, in its own size,
    /// of a game or a generator of rooms.
    fn keeps(&self, target: &Target<'_>) -> bool {
        self.from != From::All && self.size.is_none() && target.rooms()
    }

    /// The template's rows: the level shown, or the candidate chosen.
    fn template_rows(&self, target: &Target<'_>) -> Option<Vec<String>> {
        match &self.from {
            From::Shown => target.shown_rows(),
            From::All => None,
            From::Candidate(rows, _) => Some(rows.clone()),
        }
    }

    /// The cells locked, when the Keep brush applies to this round's template.
    fn locked(&self, target: &Target<'_>) -> Vec<(usize, usize)> {
        let template = self.template_rows(target);
        if self.keeps(target) && template.as_ref().map(|t| size_of(t)) == self.kept_size {
            self.kept.iter().copied().collect()
        } else {
            Vec::new()
        }
    }

    /// The options of a round, from the pane's fields.
    pub fn options(&self, target: &Target<'_>) -> Options {
        let base = Options {
            count: self.count.max(1),
            seed: self.seed.wrapping_add(u64::from(self.round.saturating_sub(1))),
            budget: Budget::States(self.states),
            min_steps: self.min_steps,
            max_steps: self.max_steps,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            level_states: self.level_states,
            difficulty: self.difficulty,
            locked: self.locked(target),
            ..Options::default()
        };
        match target {
            Target::Game { .. } => Options {
                size: self.size,
                keep_walls: self.keep_walls,
                template: self.template_rows(target),
                ..base
            },
            Target::Rules { shown, .. } => {
                let grown = match &self.from {
                    From::Candidate(_, Some(level)) => level.clone(),
                    _ => (*shown).clone(),
                };
                if target.rooms() {
                    // Rooms of Size, or the room grown from (its walls kept).
                    let sized = self.size.is_some();
                    Options {
                        size: self.size,
                        objects: if sized { Some(self.boxes.unwrap_or(3)) } else { self.boxes },
                        stage: (!sized).then_some(grown),
                        ..base
                    }
                } else {
                    Options {
                        stage: Some(grown),
                        win_rate: Some(self.win_rate),
                        games: self.games.max(1),
                        ..base
                    }
                }
            }
        }
    }

    /// Starts a round on `target`, growing from the level shown or as the pane says; the
    /// gallery keeps earlier rounds' candidates.
    pub fn start(&mut self, target: &Target<'_>) {
        self.cancel();
        self.round += 1;
        let options = self.options(target);
        let work = match target {
            Target::Game { source, .. } => Work::Game(source.to_string()),
            Target::Rules { generator, .. } => Work::Rules(generator),
        };
        self.progress = None;
        self.said = None;
        self.running = Some(run::spawn(work, options));
    }

    /// Stops the round running: the candidates it proved stay.
    pub fn cancel(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            self.said = Some("cancelled".into());
        }
    }

    /// Drops candidate `i` from the gallery (Reject, and after Accept).
    pub fn remove(&mut self, i: usize) -> Option<Candidate> {
        (i < self.candidates.len()).then(|| self.candidates.remove(i))
    }

    /// More like this: the next round grows from candidate `i` (its cells, the Keep brush's
    /// marks kept where the size is the same).
    pub fn more_like(&mut self, i: usize, target: &Target<'_>) {
        let Some(c) = self.candidates.get(i) else { return };
        self.from = From::Candidate(c.rows().to_vec(), c.rules_level().map(|l| l.level.clone()));
        self.size = None;
        self.start(target);
    }

    /// Takes what the worker sent; true while the round runs.
    pub fn poll(&mut self) -> bool {
        let Some(run) = &self.running else { return false };
        loop {
            match run.messages.try_recv() {
                Ok(Message::Progress(p)) => self.progress = Some(p),
                Ok(Message::Found(found)) => {
                    let c = Candidate::new(*found, self.round, run.source.as_deref());
                    if self.candidates.iter().all(|d| d.rows() != c.rows()) {
                        self.candidates.push(c);
                    }
                }
                Ok(Message::Done(result)) => {
                    self.said = Some(match result {
                        Ok(each) => match each.ended {
                            tessera_generate::Ended::Count => format!("done in {:.1} s", each.seconds),
                            tessera_generate::Ended::Budget if each.levels == 0 => format!(
                                "proved no level in {} states: raise States, or ask less (Min steps, Size)",
                                thousands(each.states)
                            ),
                            tessera_generate::Ended::Budget => "the states budget ran out".into(),
                            tessera_generate::Ended::Interrupted => "cancelled".into(),
                        },
                        Err(e) => format!("not started: {e}"),
                    });
                    self.running = None;
                    return false;
                }
                Err(TryRecvError::Empty) => return true,
                Err(TryRecvError::Disconnected) => {
                    self.running = None;
                    return false;
                }
            }
        }
    }

    /// Draws the pane for `target`; what the designer asked of the game.
    pub fn ui(&mut self, ui: &mut egui::Ui, target: &Target<'_>) -> Option<GenerateAction> {
        if self.poll() {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(60));
        }
        let mut action = None;
        ui.heading("Generate levels");
        if let Target::Rules { generator, .. } = target {
            ui.weak(match generator.takes {
                Takes::Room => "Sokoban rooms by reverse play, each proved push-optimal by the solver",
                Takes::Stage => "The stage's move limit and target score, tuned by the match-3 bot's games",
            });
        }
        egui::ScrollArea::vertical().id_salt("generate-scroll").show(ui, |ui| {
            // Each part folds, so the gallery can have the pane's height.
            egui::CollapsingHeader::new("Options")
                .default_open(true)
                .show(ui, |ui| self.options_ui(ui, target));
            if target.rooms() {
                egui::CollapsingHeader::new("Keep brush")
                    .default_open(true)
                    .show(ui, |ui| self.template_ui(ui, target));
            }
            ui.horizontal(|ui| {
                let running = self.running.is_some();
                let start = ui
                    .add_enabled(!running, egui::Button::new("Start"))
                    .on_hover_text("Generate levels, each proved by the solver (tessera generate)");
                if start.clicked() {
                    self.start(target);
                }
                if ui.add_enabled(running, egui::Button::new("Cancel")).clicked() {
                    self.cancel();
                }
                if running {
                    ui.spinner();
                }
            });
            ui.label(self.progress_line());
            if !self.collection.is_empty() {
                ui.horizontal(|ui| {
                    ui.label(match self.collection.len() {
                        1 => "1 level accepted".to_string(),
                        n => format!("{n} levels accepted"),
                    });
                    if ui
                        .button("Save collection…")
                        .on_hover_text("The accepted levels as one XSB file (File > Open reads it)")
                        .clicked()
                    {
                        action = Some(GenerateAction::SaveCollection);
                    }
                });
            }
            ui.separator();
            if let Some(a) = self.gallery_ui(ui, target) {
                action = Some(a);
            }
        });
        action
    }

    fn options_ui(&mut self, ui: &mut egui::Ui, target: &Target<'_>) {
        let game = matches!(target, Target::Game { .. });
        let rooms = target.rooms();
        egui::Grid::new("generate-options").num_columns(2).show(ui, |ui| {
            let l = ui.label("Levels");
            ui.add(egui::DragValue::new(&mut self.count).range(1..=100)).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed)).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("States");
            ui.add(egui::DragValue::new(&mut self.states).range(1_000..=1_000_000_000).speed(10_000))
                .labelled_by(l.id)
                .on_hover_text(
                    "The round's budget of solver states (--states): the same levels on any machine",
                );
            ui.end_row();
            let l = ui.label("Grow from");
            let text = match (&self.from, game) {
                (From::Shown, true) => "the level shown",
                (From::Shown, false) if rooms => "the level shown's room",
                (From::Shown, false) => "the stage shown",
                (From::All, _) => "all the game's levels",
                (From::Candidate(..), _) => "a candidate",
            };
            egui::ComboBox::from_id_salt("generate-from")
                .selected_text(text)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.from, From::Shown, "the level shown");
                    if game {
                        ui.selectable_value(&mut self.from, From::All, "all the game's levels");
                    }
                })
                .response
                .labelled_by(l.id);
            if !game && self.from == From::All {
                self.from = From::Shown;
            }
            ui.end_row();
            if rooms {
                let mut sized = self.size.is_some();
                let hover = if game {
                    "Rooms of this size (--size), walls included"
                } else {
                    "Random rooms of this size (--size), walls included, instead of the room shown"
                };
                ui.checkbox(&mut sized, "Size").on_hover_text(hover);
                let (mut w, mut h) = self.size.unwrap_or((8, 8));
                ui.horizontal(|ui| {
                    let l = ui.label("W");
                    ui.add_enabled(sized, egui::DragValue::new(&mut w).range(3..=64)).labelled_by(l.id);
                    let l = ui.label("H");
                    ui.add_enabled(sized, egui::DragValue::new(&mut h).range(3..=64)).labelled_by(l.id);
                });
                self.size = sized.then_some((w, h));
                ui.end_row();
            }
            if rooms && !game {
                let mut counted = self.boxes.is_some();
                let c = ui
                    .checkbox(&mut counted, "Boxes")
                    .on_hover_text("Boxes in each level (--boxes); unticked: as many as the room shown has");
                let mut n = self.boxes.unwrap_or(3);
                ui.add_enabled(counted, egui::DragValue::new(&mut n).range(1..=20)).labelled_by(c.id);
                self.boxes = counted.then_some(n);
                ui.end_row();
            }
            if !rooms {
                let (mut a, mut b) = (self.win_rate.0 * 100.0, self.win_rate.1 * 100.0);
                let l = ui.label("Bot wins %").on_hover_text(
                    "The share of the match-3 bot's games a stage must be won in (--win-rate)",
                );
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(&mut a).range(0.0..=100.0)).labelled_by(l.id);
                    let t = ui.label("to");
                    ui.add(egui::DragValue::new(&mut b).range(0.0..=100.0)).labelled_by(t.id);
                });
                self.win_rate = (a.min(b) / 100.0, a.max(b) / 100.0);
                ui.end_row();
                let l = ui.label("Games");
                ui.add(egui::DragValue::new(&mut self.games).range(1..=10_000))
                    .labelled_by(l.id)
                    .on_hover_text("The bot's games each measure plays (--games)");
                ui.end_row();
            }
            let (min_label, max_label) =
                if rooms { ("Min steps", "Max steps") } else { ("Min moves", "Max moves") };
            let l = ui.label(min_label);
            ui.add(egui::DragValue::new(&mut self.min_steps).range(1..=500)).labelled_by(l.id);
            ui.end_row();
            let mut capped = self.max_steps.is_some();
            let c = ui.checkbox(&mut capped, max_label);
            let mut max = self.max_steps.unwrap_or(self.min_steps + 20).max(self.min_steps);
            ui.add_enabled(capped, egui::DragValue::new(&mut max).range(self.min_steps..=1000))
                .labelled_by(c.id);
            self.max_steps = capped.then_some(max);
            ui.end_row();
            let mut ranged = self.difficulty.is_some();
            let c = ui
                .checkbox(&mut ranged, "Difficulty")
                .on_hover_text("Keep only levels whose estimate is in the range (--difficulty A..B)");
            let (mut a, mut b) = self.difficulty.unwrap_or((0.0, 100.0));
            ui.horizontal(|ui| {
                ui.add_enabled(ranged, egui::DragValue::new(&mut a).range(0.0..=100.0)).labelled_by(c.id);
                let l = ui.label("to");
                ui.add_enabled(ranged, egui::DragValue::new(&mut b).range(0.0..=100.0)).labelled_by(l.id);
            });
            self.difficulty = ranged.then_some((a.min(b), a.max(b)));
            ui.end_row();
        });
        if game {
            ui.checkbox(&mut self.keep_walls, "Keep walls").on_hover_text("Change only movable objects");
        }
    }

    /// The template drawn with the Keep brush: a click or a drag over cells locks them (a
    /// stroke that starts on a locked cell unlocks).
    fn template_ui(&mut self, ui: &mut egui::Ui, target: &Target<'_>) {
        let Some(rows) = self.template_rows(target).filter(|_| self.keeps(target)) else {
            ui.weak("The Keep brush locks cells of one level: grow from the level shown or a candidate, without Size.");
            return;
        };
        let size = size_of(&rows);
        if self.kept_size != Some(size) {
            self.kept.clear();
            self.kept_size = Some(size);
        }
        let of = match target {
            Target::Game { source, .. } => source.to_string(),
            Target::Rules { .. } => String::new(),
        };
        let stale = self.template.as_ref().is_none_or(|(r, s, _)| *r != rows || *s != of);
        if stale {
            let thumb = match target {
                Target::Game { source, .. } => Thumb::of(source, &rows),
                Target::Rules { shown, .. } => match &self.from {
                    From::Candidate(_, Some(level)) => Thumb::of_level(level),
                    _ => Thumb::of_level(shown),
                },
            };
            self.template = Some((rows.clone(), of, thumb));
        }
        ui.horizontal(|ui| {
            ui.weak(match self.kept.len() {
                1 => "1 cell kept".to_string(),
                n => format!("{n} cells kept"),
            });
            if ui.add_enabled(!self.kept.is_empty(), egui::Button::new("Clear")).clicked() {
                self.kept.clear();
            }
        });
        ui.weak(match target {
            Target::Game { .. } => "Click or drag over the template's cells: candidates change only the rest.",
            Target::Rules { .. } => {
                "Click or drag over the room's cells: they keep their ground (a goal stays a goal) and no box or player starts on them."
            }
        });
        let (rect, _) =
            ui.allocate_exact_size(egui::vec2(ui.available_width(), TEMPLATE), egui::Sense::hover());
        let Some((_, _, Some(thumb))) = &mut self.template else { return };
        let input = thumb.show(ui, rect, &self.kept);
        let (pressed, down) = ui.input(|i| (i.pointer.primary_pressed(), i.pointer.primary_down()));
        if !down {
            self.stroke = None;
        }
        if let Some(p) = input.hovered {
            let cell = (usize::from(p.x), usize::from(p.y));
            if pressed && ui.rect_contains_pointer(rect) {
                self.stroke = Some(!self.kept.contains(&cell));
            }
            if let Some(keep) = self.stroke {
                self.set_kept(cell.0, cell.1, keep);
            }
        }
    }

    fn gallery_ui(&mut self, ui: &mut egui::Ui, target: &Target<'_>) -> Option<GenerateAction> {
        if self.candidates.is_empty() {
            ui.weak("Candidates appear here as they are proved.");
            return None;
        }
        ui.label(format!("{} candidates", self.candidates.len()));
        let accept_hover = match target {
            Target::Game { .. } => "Append it to the game's levels",
            Target::Rules { generator, .. } if generator.takes == Takes::Room => {
                "Add it to the collection of accepted levels (Save collection… writes them)"
            }
            Target::Rules { .. } => {
                "Edit's stage takes its move limit and target score (Save level writes it)"
            }
        };
        let mut action = None;
        let mut reject = None;
        let mut more = None;
        let mut accepted = None;
        let none = BTreeSet::new();
        for (i, c) in self.candidates.iter_mut().enumerate() {
            ui.push_id(("candidate", i), |ui| {
                ui.horizontal(|ui| {
                    let (rect, _) = ui.allocate_exact_size(egui::vec2(THUMB, THUMB), egui::Sense::hover());
                    if let Some(t) = &mut c.thumb {
                        t.show(ui, rect, &none);
                    }
                    ui.vertical(|ui| {
                        ui.strong(format!("#{} · {}", i + 1, c.headline()));
                        ui.label(format!("difficulty {:.2}", c.difficulty()))
                            .on_hover_text(c.why().join("\n"));
                        if ui.button("Accept").on_hover_text(accept_hover).clicked() {
                            accepted = Some(i);
                        }
                        if ui.button("Reject").clicked() {
                            reject = Some(i);
                        }
                        if ui
                            .button("Show the solution")
                            .on_hover_text("Play it on the board, step by step")
                            .clicked()
                        {
                            action = c
                                .shown_level(target)
                                .map(|l| GenerateAction::Show(Box::new(l), c.commands()));
                        }
                        if ui
                            .button("More like this")
                            .on_hover_text("The next round grows from this one")
                            .clicked()
                        {
                            more = Some(i);
                        }
                    });
                });
            });
        }
        if let Some(i) = accepted {
            action = Some(match &self.candidates[i].found {
                Found::Game(l) => GenerateAction::Accept(l.rows.clone()),
                Found::Rules(l) => GenerateAction::AcceptLevel(Box::new(l.clone())),
            });
        }
        if let Some(i) = reject {
            self.remove(i);
        }
        if let Some(i) = more {
            self.more_like(i, target);
        }
        action
    }

    /// Removes the candidate of `rows` (accepted into the game).
    pub fn accepted(&mut self, rows: &[String]) {
        self.candidates.retain(|c| c.rows() != rows);
    }

    /// Adds a rule set's level to the collection (Accept of a Sokoban room); its number in it,
    /// from 1.
    pub fn collect(&mut self, level: tessera_generate::RulesLevel) -> usize {
        self.accepted(&level.rows);
        self.collection.push(level);
        self.collection.len()
    }

    /// The levels accepted into the collection, in order.
    pub fn collection(&self) -> &[tessera_generate::RulesLevel] {
        &self.collection
    }

    /// The collection as an XSB file's text (`; N` before each level, from 1).
    pub fn collection_text(&self) -> String {
        tessera_generate::collection(&self.collection)
    }
}

impl Candidate {
    /// The level to play it as: appended to the game's source, or its own.
    fn shown_level(&self, target: &Target<'_>) -> Option<Level> {
        match (&self.found, target) {
            (Found::Game(l), Target::Game { source, .. }) => level_with(source, &l.rows).ok(),
            (Found::Rules(l), _) => Some(l.level.clone()),
            (Found::Game(_), Target::Rules { .. }) => None,
        }
    }
}

/// `n` with commas between thousands.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
