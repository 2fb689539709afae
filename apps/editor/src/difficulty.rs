//! The Difficulty panel of Edit mode: for a puzzle level (PuzzleScript, Sokoban) first the
//! difficulty estimate with its reasons (`crate::estimate`, what `tessera difficulty` prints);
//! then, for every rule set, it plays the level N times with a chosen bot on a background
//! thread (`tessera_bots::difficulty::run`, the engine of `tessera difficulty`), with a progress
//! bar and Cancel, then shows the win rate, the puzzle figures of a rule set that measures its
//! levels as puzzles (sokoban: the solver's pushes, moves and nodes) and histograms of moves
//! used and of final score.
//!
//! The UI never waits on the sweep: the thread counts finished games in an atomic and hands its
//! report back over a channel; the panel polls both each frame.
//!
//! `difficulty.rs` runs `tessera_bots::difficulty::run` on a thread (progress in an atomic, cancel
//! through the sweep's stop flag, the report over a channel) and plots histograms with egui_plot.

use egui_plot::{Bar, BarChart, Plot};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use tessera_bots::difficulty::{Report, Sweep, run};
use tessera_bots::{BotKind, BotSpec, GameConfig};
use tessera_core::{Level, RuleSet};

/// A sweep running in the background.
struct Running {
    done: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    total: u64,
    result: Receiver<Result<Report, String>>,
}

/// The panel's settings, the sweep in progress and the last report.
pub struct DifficultyPanel {
    bot: Option<BotKind>,
    games: u64,
    seed: u64,
    jobs: usize,
    running: Option<Running>,
    report: Option<Report>,
    /// The level the report (or the sweep running) is of: results belong to a level and are
    /// not shown beside another (issue 63.6).
    of: Option<Level>,
    /// The revision of the level shown when last compared with `of`, and whether it was it.
    seen: Option<(u64, bool)>,
    /// A sweep just started or its report just came, not yet scrolled into view.
    fresh: bool,
    error: Option<String>,
    /// The estimate of a puzzle level (PuzzleScript, Sokoban), shown above the bots.
    estimate: crate::estimate::LevelEstimate,
}

impl Default for DifficultyPanel {
    fn default() -> Self {
        DifficultyPanel {
            bot: None,
            games: 100,
            seed: 0,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            running: None,
            report: None,
            of: None,
            seen: None,
            fresh: false,
            error: None,
            estimate: crate::estimate::LevelEstimate::default(),
        }
    }
}

/// The bots that play `rule_set`, its own first.
fn bots_for(rule_set: RuleSet) -> Vec<BotKind> {
    let mut own: Vec<BotKind> =
        BotKind::ALL.iter().copied().filter(|k| k.only_for() == Some(rule_set)).collect();
    own.extend(BotKind::ALL.iter().copied().filter(|k| k.only_for().is_none()));
    own
}

impl DifficultyPanel {
    /// Whether a sweep is running.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// The last finished (or cancelled) sweep's report.
    pub fn report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    /// The report when it is of the level shown (as last compared, each frame the panel is
    /// drawn): results of another level, or of the level before its edits, are not its.
    pub fn current_report(&self) -> Option<&Report> {
        self.report.as_ref().filter(|_| self.seen.is_some_and(|(_, same)| same))
    }

    /// Another level is shown (revisions start again): its results are not shown until it is
    /// compared with the report's level (when the panel is next drawn).
    pub fn level_changed(&mut self) {
        self.seen = None;
        self.estimate.level_changed();
    }

    /// The estimate of a puzzle level.
    pub fn estimate(&self) -> &crate::estimate::LevelEstimate {
        &self.estimate
    }

    /// Starts `games` games of `level` with `bot` in the background.
    pub fn start(&mut self, level: &Level, bot: BotKind, games: u64, seed: u64, jobs: usize) {
        self.cancel();
        let sweep = Sweep {
            level: level.clone(),
            level_name: level_name(level),
            bot: BotSpec::new(bot),
            seed,
            first_game: 0,
            games,
            game: GameConfig::default(),
        };
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let (d, s) = (done.clone(), stop.clone());
        std::thread::spawn(move || {
            let on_game = |_: &tessera_bots::GameResult| {
                d.fetch_add(1, Ordering::Relaxed);
            };
            let r = run(&sweep, jobs.max(1), &s, &on_game).map_err(|e| e.to_string());
            // The panel may be gone (the editor closed): nothing to tell then.
            let _ = tx.send(r);
        });
        self.report = None;
        self.error = None;
        self.of = Some(level.clone());
        self.running = Some(Running { done, stop, total: games, result: rx });
    }

    /// Asks a running sweep to stop; games under way finish, the rest are skipped, and the
    /// report of what was played arrives as usual.
    pub fn cancel(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Takes the sweep's result if it has arrived.
    pub fn poll(&mut self) {
        let Some(r) = &self.running else { return };
        match r.result.try_recv() {
            Ok(Ok(report)) => {
                self.report = Some(report);
                self.fresh = true;
                self.running = None;
            }
            Ok(Err(e)) => {
                self.error = Some(e);
                self.running = None;
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.error = Some("the sweep stopped without a report".into());
                self.running = None;
            }
        }
    }

    /// Draws the panel for the level `level()` gives (made only when a sweep starts or the
    /// level's `revision` changed), of `rule_set` (`playable`: whether it starts; `uses_seed`:
    /// whether its games differ by seed — a PuzzleScript level only with randomness).
    #[allow(clippy::too_many_arguments)]
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        rule_set: RuleSet,
        level: &dyn Fn() -> Level,
        revision: u64,
        playable: bool,
        uses_seed: bool,
    ) {
        self.poll();
        if tessera_bots::estimate::rates(rule_set) {
            // A puzzle level: the estimate first (what `tessera difficulty` prints), the bots'
            // games under it.
            self.estimate.ui(ui, level, revision, playable);
            ui.separator();
            ui.strong("Bot games");
        }
        if self.of.is_some() && self.seen.is_none_or(|(r, _)| r != revision) {
            let same = self.of.as_ref() == Some(&level());
            self.seen = Some((revision, same));
        }
        let current = self.seen.is_some_and(|(_, same)| same);
        let bots = bots_for(rule_set);
        if self.bot.is_none_or(|b| !bots.contains(&b)) {
            self.bot = bots.first().copied();
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("Bot");
            for b in &bots {
                ui.selectable_value(&mut self.bot, Some(*b), b.name());
            }
        });
        let scored = crate::games::of(rule_set).is_none_or(|g| g.shows_score());
        // A bot that draws nothing on a level without chance plays one game N times over: it
        // plays it once, and the panel says so (issue 36.7).
        let one_game = !uses_seed && self.bot.is_some_and(|b| b.deterministic());
        if one_game {
            ui.label(ONE_GAME);
        } else {
            ui.horizontal(|ui| {
                let l = ui.label("Games");
                ui.add(egui::DragValue::new(&mut self.games).range(1..=1_000_000)).labelled_by(l.id);
                let l = ui.label("Threads");
                ui.add(egui::DragValue::new(&mut self.jobs).range(1..=64)).labelled_by(l.id);
            });
        }
        if uses_seed {
            ui.horizontal(|ui| {
                let l = ui.label("First seed");
                ui.add(egui::DragValue::new(&mut self.seed)).labelled_by(l.id);
            });
        }
        if let Some(r) = &self.running {
            let done = r.done.load(Ordering::Relaxed);
            ui.add(
                egui::ProgressBar::new(done as f32 / r.total.max(1) as f32)
                    .text(format!("{done} of {} games", r.total)),
            );
            let cancel = ui.button("Cancel");
            if std::mem::take(&mut self.fresh) {
                // The sweep just started: its progress and Cancel into view.
                cancel.scroll_to_me(Some(egui::Align::Max));
            }
            if cancel.clicked() {
                self.cancel();
            }
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        } else {
            let run_button = ui.add_enabled(playable, egui::Button::new("Run bots"));
            let run_button = if playable {
                run_button
            } else {
                run_button.on_disabled_hover_text("The level does not play yet")
            };
            if run_button.clicked()
                && let Some(bot) = self.bot
            {
                let games = if one_game { 1 } else { self.games };
                self.start(&level(), bot, games, self.seed, self.jobs);
                self.seen = Some((revision, true));
                self.fresh = true;
            }
        }
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e.as_str());
        }
        if self.report.is_some() && !current {
            ui.label("The last results were of another level, or of this one before its edits: run the bots again.");
        } else if let Some(report) = &self.report {
            let shown = ui.scope(|ui| report_ui(ui, report, uses_seed, scored)).response;
            if std::mem::take(&mut self.fresh) {
                // The results just came: bring them into view (the panel is a long scroll).
                shown.scroll_to_me(Some(egui::Align::Min));
            }
        }
    }
}

/// What the panel says of a bot that plays the same game every time on a level without chance.
pub const ONE_GAME: &str =
    "One game: this bot plays the same game every time on a level without chance, so it plays it once.";

fn level_name(level: &Level) -> String {
    let name = crate::games::of_level(level).and_then(|g| g.level_name(level));
    name.unwrap_or_else(|| "edited level".into())
}

/// The report: win rate; the puzzle's figures by the rule set's solver (first: for a puzzle
/// they are what matters); the best and worst seeds and the histograms when games differ by seed
/// (`uses_seed`) and their scores do, a histogram only when its values differ, and the scores
/// only for a rule set that keeps one (`scored`: not PuzzleScript's or Sokoban's).
fn report_ui(ui: &mut egui::Ui, report: &Report, uses_seed: bool, scored: bool) {
    let s = &report.summary;
    // The level measured as a puzzle by its rule set's solver, when it has one, each figure
    // with its unit.
    if let Some(p) = &s.puzzle {
        let figures: Vec<String> = p.figures.iter().map(|f| figure_text(&f.name, f.value)).collect();
        ui.strong(format!("Solver ({}): {}: {}", p.solver, p.outcome, figures.join(", ")));
    }
    let moves: Vec<u64> = report.games.iter().map(|g| u64::from(g.moves)).collect();
    if s.games == 1 {
        // One game: what it did, in words (no rate, no interval, no histogram of one value).
        let won = if s.wins == 1 { "won" } else { "not won" };
        let n = moves.first().copied().unwrap_or(0);
        ui.label(format!(
            "The bot's game: {won}, {n} {} ({COMMANDS}).",
            if n == 1 { "command" } else { "commands" }
        ));
        return;
    }
    ui.label(format!(
        "{} games{}: won {} ({:.1} %, 95 % interval {:.1}-{:.1} %)",
        s.games,
        if report.interrupted { " (cancelled)" } else { "" },
        s.wins,
        s.win_rate * 100.0,
        s.win_interval[0] * 100.0,
        s.win_interval[1] * 100.0
    ));
    if uses_seed
        && scored
        && let (Some(best), Some(worst)) = (&s.best, &s.worst)
        && best.score != worst.score
    {
        ui.label(format!(
            "best game: seed {} (score {}); worst: seed {} (score {})",
            best.seed, best.score, worst.seed, worst.score
        ));
    }
    let scores: Vec<u64> = report.games.iter().map(|g| g.score).collect();
    histogram(ui, "Commands per game", "commands", &moves);
    if scored {
        histogram(ui, "Final score", "score", &scores);
    }
}

/// What a game's moves count: the bot's commands.
const COMMANDS: &str = "each step, push, tap, swap or walk to a cell counts as one";

/// A solver's figure with its unit: Sokoban's moves are steps of one cell, which a bot's walk
/// makes many of in one command.
fn figure_text(name: &str, value: u64) -> String {
    match name {
        "moves" => format!("{value} moves (steps of one cell)"),
        "nodes" => format!("{value} nodes searched"),
        other => format!("{value} {other}"),
    }
}

/// A histogram of `values` in at most 20 bins.
fn histogram(ui: &mut egui::Ui, title: &str, id: &str, values: &[u64]) {
    let (Some(&min), Some(&max)) = (values.iter().min(), values.iter().max()) else { return };
    if min == max {
        // Every game alike: one number, not a bar of one value.
        ui.label(format!("{title}: {min} in every game ({})", if id == "commands" { COMMANDS } else { id }));
        return;
    }
    let bins = 20u64.min(max - min + 1);
    let width = (max - min) / bins + 1;
    let mut counts = vec![0u64; bins as usize];
    let last = counts.len() - 1;
    for v in values {
        counts[(((v - min) / width) as usize).min(last)] += 1;
    }
    ui.label(format!("{title} ({min} to {max})"));
    let bars: Vec<Bar> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            Bar::new((min + i as u64 * width) as f64 + width as f64 / 2.0, c as f64).width(width as f64 * 0.9)
        })
        .collect();
    // Both axes named, the x axis over the values' range (it showed only "0", issue 36.7).
    let (lo, hi) = (min as f64, (min + bins * width) as f64);
    Plot::new(format!("difficulty-{id}"))
        .height(130.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_x(lo)
        .include_x(hi)
        .include_y(0.0)
        .x_axis_label(id)
        .y_axis_label("games")
        .x_axis_formatter(|m, _| format!("{:.0}", m.value))
        .y_axis_formatter(
            |m, _| if m.value.fract() == 0.0 { format!("{:.0}", m.value) } else { String::new() },
        )
        .show(ui, |plot| plot.bar_chart(BarChart::new(title, bars)));
}

impl DifficultyPanel {
    /// Forgets the last report and stops a sweep under way: they were of rules that changed (a
    /// rebuild).
    pub fn forget(&mut self) {
        self.cancel();
        self.report = None;
        self.of = None;
        self.seen = None;
        self.error = None;
        self.estimate.forget();
    }
}
