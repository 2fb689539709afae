//! The difficulty estimate in the editor ([`tessera_bots::estimate::estimate_level`], what
//! `tessera difficulty GAME.txt --number N` prints), always off the window's thread:
//!
//! - [`LevelEstimate`], the Difficulty panel's: the edited level's rating and its reasons in
//!   words. It rates the level shown when the panel is drawn, one level at a time (a level
//!   edited while another is rated waits for it, the latest edit only); results belong to the
//!   level they were computed for (kept for the last few levels, so going back shows them at
//!   once), and those of another level or of the level before its edits are shown as such.
//! - [`Curve`], the levels list's sparkline: every level of a game, in the game's order, rated
//!   on one background thread once per source (a rebuild, or a change of the game's levels),
//!   with the breather marks of `tessera difficulty --all` ([`disagreements`]); hovering a point
//!   names the level and its figure, a click opens it. The curve is kept per window thread
//!   ([`curve_for`]): the games' entries draw their levels list with no state of their own.
//!
//! A frame never waits: the threads hand results over a channel or a shared vector that the
//! frame reads without blocking (a try-lock), and ask for a repaint while they run.

use egui::{Pos2, Rect, Sense, Stroke, pos2, vec2};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use tessera_bots::estimate::{Estimate, Limits, disagreements, estimate_level};
use tessera_core::Level;

/// What the panel says while it rates a level.
pub const RATING: &str = "Rating this level…";

/// What the panel says over results that are not of the level shown.
pub const STALE: &str = "The estimate below was of another level, or of this one before its edits:";

/// The most levels whose estimates the panel keeps.
const KEPT: usize = 16;

/// Whether `level`'s rule set has a solver the estimate rates with (PuzzleScript, Sokoban).
pub fn rates(level: &Level) -> bool {
    tessera_bots::estimate::rates(level.rule_set())
}

/// Rates `level` at the default budget, as `tessera difficulty` does; the error in words.
fn rate(level: &Level) -> Result<Estimate, String> {
    estimate_level(level, &Limits::default()).map_err(|e| e.to_string())
}

/// The Difficulty panel's estimate of the edited level.
#[derive(Default)]
pub struct LevelEstimate {
    /// Finished estimates, oldest first, each with the level it is of.
    done: Vec<(Level, Result<Estimate, String>)>,
    /// The level being rated and where its estimate arrives.
    running: Option<(Level, Receiver<Result<Estimate, String>>)>,
    /// The level to rate once the running one is done (the latest asked).
    next: Option<Level>,
    /// The level shown, as of the revision it was read at.
    shown: Option<(u64, Level)>,
}

impl LevelEstimate {
    /// The estimate of the level shown (as last read), if it is done.
    pub fn current(&self) -> Option<&Result<Estimate, String>> {
        let (_, level) = self.shown.as_ref()?;
        self.of(level)
    }

    /// Whether a level is being rated.
    pub fn running(&self) -> bool {
        self.running.is_some()
    }

    /// The estimate of `level`, if done.
    fn of(&self, level: &Level) -> Option<&Result<Estimate, String>> {
        self.done.iter().rev().find(|(l, _)| l == level).map(|(_, r)| r)
    }

    /// Another level is shown (revisions start again): it is read anew at the next frame.
    pub fn level_changed(&mut self) {
        self.shown = None;
    }

    /// Takes a finished estimate, and starts the next level waiting.
    fn poll(&mut self) {
        if let Some((level, rx)) = &self.running {
            let got = match rx.try_recv() {
                Ok(r) => Some(r),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(Err("the estimate stopped without a result".into())),
            };
            if let Some(r) = got {
                let level = level.clone();
                self.keep(level, r);
                self.running = None;
            }
        }
        if self.running.is_none()
            && let Some(level) = self.next.take()
            && self.of(&level).is_none()
        {
            self.start(level);
        }
    }

    fn keep(&mut self, level: Level, r: Result<Estimate, String>) {
        self.done.retain(|(l, _)| *l != level);
        self.done.push((level, r));
        if self.done.len() > KEPT {
            let _ = self.done.remove(0);
        }
    }

    fn start(&mut self, level: Level) {
        // The levels list's curve may have rated this very level already (unedited).
        if let Some(r) = curve_estimate(&level) {
            self.keep(level, r);
            return;
        }
        let (tx, rx) = channel();
        let of = level.clone();
        std::thread::spawn(move || {
            // The panel may be gone (the editor closed): nothing to tell then.
            let _ = tx.send(rate(&of));
        });
        self.running = Some((level, rx));
    }

    /// Asks for `level`'s estimate: at once when nothing runs, else after the level running.
    fn ask(&mut self, level: Level) {
        if self.of(&level).is_some() || self.running.as_ref().is_some_and(|(l, _)| *l == level) {
            self.next = None;
            return;
        }
        if self.running.is_none() {
            self.start(level);
        } else {
            self.next = Some(level);
        }
    }

    /// Draws the estimate of the level `level()` gives (read only when `revision` changed);
    /// `playable`: whether it starts (else nothing is rated).
    pub fn ui(&mut self, ui: &mut egui::Ui, level: &dyn Fn() -> Level, revision: u64, playable: bool) {
        self.poll();
        if self.shown.as_ref().is_none_or(|(r, _)| *r != revision) {
            self.shown = Some((revision, level()));
        }
        let Some((_, shown)) = self.shown.clone() else { return };
        ui.strong("Difficulty estimate");
        if !playable {
            ui.label("The level does not play yet: no estimate.");
            return;
        }
        self.ask(shown.clone());
        if let Some(r) = self.of(&shown) {
            estimate_ui(ui, r);
            return;
        }
        // A label, not a spinner: a spinner repaints every frame; this repaints 10 times a
        // second until the estimate comes.
        ui.label(RATING);
        ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        if let Some((_, last)) = self.done.last() {
            ui.weak(STALE);
            ui.add_enabled_ui(false, |ui| estimate_ui(ui, last));
        }
    }

    /// Forgets every estimate (the rules changed: a rebuild).
    pub fn forget(&mut self) {
        self.done.clear();
        self.next = None;
        self.shown = None;
    }
}

/// The label of the estimate's figure in the panel.
pub fn figure_label(e: &Estimate) -> String {
    format!("Estimate: {} (higher is harder)", e.shown())
}

/// An estimate: its figure, then its reasons, one a line.
fn estimate_ui(ui: &mut egui::Ui, r: &Result<Estimate, String>) {
    match r {
        Ok(e) => {
            ui.label(egui::RichText::new(figure_label(e)).heading());
            if !e.features.solved {
                ui.label("Not solved within the budget (2,000 states a search): it rates above every solved level.");
            }
            for why in &e.why {
                ui.label(format!("• {why}"));
            }
        }
        Err(e) => {
            ui.colored_label(ui.visuals().error_fg_color, format!("No estimate: {e}"));
        }
    }
}

/// A level's estimate as the curve holds it: `None` until rated, then the estimate or why not.
type Rated = Option<Result<Estimate, String>>;

/// The levels list's curve of one game: every level rated in the game's order.
pub struct Curve {
    /// The game's source the levels are of.
    source: Arc<str>,
    /// Each level's estimate, as it comes (`None`: not yet).
    points: Arc<Mutex<Vec<Rated>>>,
    /// Set when the curve is dropped: the thread stops after the level it is on.
    stop: Arc<AtomicBool>,
}

impl Drop for Curve {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The PuzzleScript level `k` (from 0) of the game written `source`.
fn level_of(source: &Arc<str>, k: usize) -> Level {
    Level::PuzzleScript(tessera_core::puzzlescript::PuzzleScriptLevel {
        name: None,
        seed: None,
        source: Arc::clone(source),
        level: k,
    })
}

impl Curve {
    /// Starts rating the `count` levels of the game written `source`, on one thread.
    fn start(source: Arc<str>, count: usize) -> Curve {
        let points = Arc::new(Mutex::new(vec![None; count]));
        let stop = Arc::new(AtomicBool::new(false));
        let (p, s, src) = (Arc::clone(&points), Arc::clone(&stop), Arc::clone(&source));
        std::thread::spawn(move || {
            for k in 0..count {
                if s.load(Ordering::Relaxed) {
                    return;
                }
                let r = rate(&level_of(&src, k));
                let mut points = p.lock().unwrap_or_else(|e| e.into_inner());
                points[k] = Some(r);
            }
        });
        CURVES_STARTED.with(|n| n.set(n.get() + 1));
        Curve { source, points, stop }
    }

    /// The estimates so far, in the game's order (`None`: not yet; a frame never waits on the
    /// thread: a locked vector reads as nothing done yet).
    pub fn points(&self) -> Vec<Rated> {
        match self.points.try_lock() {
            Ok(p) => p.clone(),
            Err(_) => Vec::new(),
        }
    }

    /// Whether every level is rated.
    pub fn finished(&self) -> bool {
        let p = self.points();
        !p.is_empty() && p.iter().all(Option::is_some)
    }

    /// The ratings so far (`None`: not rated, or no estimate).
    pub fn ratings(&self) -> Vec<Option<f64>> {
        self.points().iter().map(|p| p.as_ref().and_then(|r| r.as_ref().ok()).map(|e| e.difficulty)).collect()
    }

    /// The breather marks so far: `(level, the harder level before it)`, from 0, as
    /// `tessera difficulty --all` marks them.
    pub fn marks(&self) -> Vec<(usize, usize)> {
        disagreements(&self.ratings())
    }

    /// What hovering level `k` (from 0) says.
    pub fn hover_text(&self, k: usize) -> String {
        let points = self.points();
        let marks = disagreements(&self.ratings());
        let mut text = match points.get(k) {
            Some(Some(Ok(e))) => {
                let why: Vec<&str> = e.why.iter().take(3).map(String::as_str).collect();
                format!("Level {}: {} ({})", k + 1, e.shown(), why.join("; "))
            }
            Some(Some(Err(e))) => format!("Level {}: no estimate ({e})", k + 1),
            _ => format!("Level {}: being rated…", k + 1),
        };
        for (_, j) in marks.iter().filter(|(i, _)| *i == k) {
            text += &format!("\nlevel {} rates easier than level {}: a breather?", k + 1, j + 1);
        }
        text
    }
}

thread_local! {
    /// The curve of the game whose levels list was drawn last on this thread.
    static CURVE: RefCell<Option<Curve>> = const { RefCell::new(None) };
    /// How many curves were started on this thread (a rebuild starts one; the tests read it).
    static CURVES_STARTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many curves this thread has started (each rates every level of a game once).
pub fn curves_started() -> u64 {
    CURVES_STARTED.with(std::cell::Cell::get)
}

/// Runs `f` on the curve of the game written `source` with `count` levels, started if it is not
/// the one kept (the one before stops).
pub fn curve_for<R>(source: &Arc<str>, count: usize, f: impl FnOnce(&Curve) -> R) -> R {
    CURVE.with(|c| {
        let mut c = c.borrow_mut();
        if c.as_ref().is_some_and(|k| k.source != *source) {
            // Another game's curve: dropped (its thread stops) before this one starts.
            *c = None;
        }
        f(c.get_or_insert_with(|| Curve::start(Arc::clone(source), count)))
    })
}

/// The curve's estimate of `level`, when the curve kept on this thread is of its game and has
/// rated it.
fn curve_estimate(level: &Level) -> Option<Result<Estimate, String>> {
    let Level::PuzzleScript(l) = level else { return None };
    CURVE.with(|c| {
        let c = c.borrow();
        let c = c.as_ref().filter(|c| c.source == l.source)?;
        c.points().get(l.level).cloned().flatten()
    })
}

/// The height of the curve.
const HEIGHT: f32 = 56.0;

/// Draws the curve of the game written `source` (`count` levels, `current` the edited one, from
/// 0); the level clicked, if any.
pub fn curve_ui(ui: &mut egui::Ui, source: &Arc<str>, count: usize, current: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    curve_for(source, count, |curve| {
        let points = curve.points();
        let ratings = curve.ratings();
        let marks = disagreements(&ratings);
        let rated = points.iter().filter(|p| p.is_some()).count();
        let width = ui.available_width().max(120.0);
        let (rect, response) = ui.allocate_exact_size(vec2(width, HEIGHT), Sense::click());
        ui.ctx().accesskit_node_builder(response.id, |node| {
            node.set_label("Difficulty curve");
        });
        let plot = plot_rect(rect);
        let painter = ui.painter_at(rect);
        let visuals = ui.visuals();
        painter.rect_filled(rect, 3.0, visuals.extreme_bg_color);
        // Solved levels on a scale from 0 to the hardest solved; an unsolved one at the top.
        let top = points
            .iter()
            .filter_map(|p| p.as_ref()?.as_ref().ok().filter(|e| e.features.solved).map(|e| e.difficulty))
            .fold(1.0_f64, f64::max);
        let at = |k: usize, d: f64| -> Pos2 {
            let x = if count == 1 {
                plot.center().x
            } else {
                plot.left() + plot.width() * k as f32 / (count - 1) as f32
            };
            let y = plot.bottom() - plot.height() * (d.min(top) / top) as f32;
            pos2(x, y)
        };
        let line_colour = visuals.text_color();
        let mut line: Vec<Pos2> = Vec::new();
        for (k, p) in points.iter().enumerate() {
            if let Some(Ok(e)) = p {
                line.push(at(k, e.difficulty));
            } else if line.len() > 1 {
                painter.add(egui::Shape::line(std::mem::take(&mut line), Stroke::new(1.5, line_colour)));
            } else {
                line.clear();
            }
        }
        if line.len() > 1 {
            painter.add(egui::Shape::line(line, Stroke::new(1.5, line_colour)));
        }
        let breather = visuals.warn_fg_color;
        for (k, p) in points.iter().enumerate() {
            let Some(Ok(e)) = p else { continue };
            let c = at(k, e.difficulty);
            let fill = if e.features.solved { line_colour } else { visuals.error_fg_color };
            painter.circle_filled(c, if k == current { 4.5 } else { 2.5 }, fill);
            if k == current {
                painter.circle_stroke(c, 6.5, Stroke::new(1.5, visuals.selection.stroke.color));
            }
            if marks.iter().any(|(i, _)| *i == k) {
                // A breather: a ring in the warning colour and a tick under it.
                painter.circle_stroke(c, 5.0, Stroke::new(1.5, breather));
                painter.line_segment([c + vec2(0.0, 7.0), c + vec2(0.0, 12.0)], Stroke::new(1.5, breather));
            }
        }
        if rated < count {
            painter.text(
                rect.right_top() + vec2(-4.0, 3.0),
                egui::Align2::RIGHT_TOP,
                format!("rating {} of {count}…", rated + 1),
                egui::FontId::proportional(11.0),
                visuals.weak_text_color(),
            );
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(200));
        }
        let nearest = |p: Pos2| -> usize {
            if count == 1 {
                return 0;
            }
            let f = ((p.x - plot.left()) / plot.width() * (count - 1) as f32).round();
            (f.max(0.0) as usize).min(count - 1)
        };
        let mut clicked = None;
        if let Some(p) = response.hover_pos() {
            let k = nearest(p);
            let x = at(k, 0.0).x;
            painter.line_segment(
                [pos2(x, rect.top()), pos2(x, rect.bottom())],
                Stroke::new(1.0, visuals.weak_text_color()),
            );
            if response.clicked() && k != current {
                clicked = Some(k);
            }
            response.on_hover_text(curve.hover_text(k));
        }
        clicked
    })
}

/// Where level `k` (from 0) of `count` sits across a curve drawn in `rect` (for the tests'
/// hovering).
pub fn curve_x(rect: Rect, count: usize, k: usize) -> f32 {
    let plot = plot_rect(rect);
    if count <= 1 { plot.center().x } else { plot.left() + plot.width() * k as f32 / (count - 1) as f32 }
}

/// Where the points go in a curve drawn in `rect`: away from its edges (the side panel's
/// resize handle takes the pointer a few points either side of its right edge).
fn plot_rect(rect: Rect) -> Rect {
    rect.shrink2(vec2(14.0, 7.0))
}
