//! Hint's search off the UI thread, for any rule set whose Hint runs a solver: a [`Job`] about
//! one position (its hash) runs in a thread for at most a [`HintBudget`] of that thread's CPU
//! time (so a loaded machine does not cut it short) and of the clock, and can be stopped; the
//! window keeps drawing meanwhile. [`Searches`] keeps the job under way and the last solution
//! found, both dropped once the board leaves their position.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tessera_bots::games::collapse::thread_cpu_time;

/// How long Hint may search: the search thread's CPU seconds and the clock's seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HintBudget {
    /// The search thread's CPU time, in seconds.
    pub cpu_seconds: f64,
    /// Time by the clock, in seconds (a machine too busy to give the thread its CPU time).
    pub wall_seconds: f64,
}

fn budget_id() -> egui::Id {
    egui::Id::unique("hint-budget")
}

/// Sets how long every Hint searches in this window, in place of each rule set's own budget. A
/// test that wants the answer of a solver's node budget alone, whatever the machine's speed,
/// sets a long one.
pub fn set_hint_budget(ctx: &egui::Context, budget: HintBudget) {
    ctx.data_mut(|d| d.insert_temp(budget_id(), budget));
}

/// The budget [`set_hint_budget`] set for this window, else `default`.
pub fn hint_budget(ctx: &egui::Context, default: HintBudget) -> HintBudget {
    ctx.data(|d| d.get_temp(budget_id())).unwrap_or(default)
}

/// A search under way: the position it is about, its answer once there, and its stop flag.
pub struct Job<V> {
    hash: u64,
    answer: Arc<Mutex<Option<V>>>,
    stop: Arc<AtomicBool>,
}

impl<V: Send + 'static> Job<V> {
    /// Runs `search` in a thread about the position of hash `hash`, passing it the stop test
    /// (the budget spent, or [`Job::stop`]); the window is asked to draw when the answer is in.
    pub fn spawn(
        ctx: &egui::Context,
        hash: u64,
        budget: HintBudget,
        search: impl FnOnce(&mut dyn FnMut() -> bool) -> V + Send + 'static,
    ) -> Job<V> {
        let answer = Arc::new(Mutex::new(None));
        let stop = Arc::new(AtomicBool::new(false));
        let (a, flag, ctx) = (answer.clone(), stop.clone(), ctx.clone());
        std::thread::spawn(move || {
            let began = Instant::now();
            let cpu = thread_cpu_time();
            let spent = || match (cpu, thread_cpu_time()) {
                (Some(a), Some(b)) => b.saturating_sub(a).as_secs_f64(),
                _ => began.elapsed().as_secs_f64(),
            };
            let v = search(&mut || {
                flag.load(Ordering::Relaxed)
                    || spent() > budget.cpu_seconds
                    || began.elapsed().as_secs_f64() > budget.wall_seconds
            });
            *a.lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
            ctx.request_repaint();
        });
        Job { hash, answer, stop }
    }

    /// The answer, once (`None` while the search runs).
    pub fn take_answer(&self) -> Option<V> {
        self.answer.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Hint's search under way and the last solution it found, for one window (kept in egui's
/// memory under a rule set's id: the editor entries have no state).
pub struct Searches<V, S> {
    /// The search under way.
    pub job: Option<Job<V>>,
    /// The position's hash and the solution found from it.
    pub found: Option<(u64, S)>,
}

impl<V, S> Default for Searches<V, S> {
    fn default() -> Self {
        Searches { job: None, found: None }
    }
}

impl<V, S> Searches<V, S> {
    /// Stops the search and forgets the solution unless they are about the position `hash`.
    pub fn follow(&mut self, hash: u64) {
        if self.job.as_ref().is_some_and(|j| j.hash != hash)
            && let Some(j) = self.job.take()
        {
            j.stop.store(true, Ordering::Relaxed);
        }
        if self.found.as_ref().is_some_and(|(h, _)| *h != hash) {
            self.found = None;
        }
    }
}

/// The [`Searches`] of this window kept under `id`.
pub fn searches<V: Send + 'static, S: Send + 'static>(
    ctx: &egui::Context,
    id: &str,
) -> Arc<Mutex<Searches<V, S>>> {
    ctx.data_mut(|d| d.get_temp_mut_or_default::<Arc<Mutex<Searches<V, S>>>>(egui::Id::unique(id)).clone())
}

/// What the Hint row was asked to do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HintRow {
    /// Hint was clicked: start a search.
    pub hint: bool,
    /// "Show the solution" was clicked: play the solution found.
    pub show: bool,
    /// "Save solution GIF…" was clicked: save the solution found as an animated GIF.
    pub gif: bool,
}

/// `n` steps, in words: "1 step", "5 steps".
pub fn steps(n: usize) -> String {
    if n == 1 { "1 step".into() } else { format!("{n} steps") }
}

/// The Hint row of a Play panel, always there and always the same height, so nothing under it
/// moves (issue 36.6: the row came and went with a hint, a solution and a win): Hint (disabled
/// and saying "Searching for a hint…" from the frame it is clicked while its search runs, and
/// once the level is `won`), then "Show the solution (N steps)" once a solution of `found`
/// steps is known from here (else disabled, without a count), and "Save solution GIF…".
pub fn hint_row(ui: &mut egui::Ui, help: &str, searching: bool, won: bool, found: Option<usize>) -> HintRow {
    let mut out = HintRow::default();
    ui.horizontal(|ui| {
        ui.set_min_height(ui.spacing().interact_size.y);
        if searching {
            ui.add_enabled(false, egui::Button::new("Searching for a hint…"));
        } else {
            let hint = ui.add_enabled(!won, egui::Button::new("Hint"));
            let hint =
                if won { hint.on_disabled_hover_text("The level is won") } else { hint.on_hover_text(help) };
            if hint.clicked() {
                out.hint = true;
                // Draw "Searching…" at once, not when the search first reports.
                ui.ctx().request_repaint();
            }
        }
        let show = match found {
            Some(n) => ui.button(format!("Show the solution ({})", steps(n))).on_hover_text(
                "Plays the solution Hint found, one step after another (any key or Stop ends it)",
            ),
            None => ui
                .add_enabled(false, egui::Button::new("Show the solution"))
                .on_disabled_hover_text("Once Hint has found a solution from this position"),
        };
        out.show = show.clicked();
        let gif = ui
            .add_enabled(found.is_some(), egui::Button::new("Save solution GIF…"))
            .on_hover_text("The solution from here as an animated GIF, a frame a turn (docs/gif.md)")
            .on_disabled_hover_text("Once Hint has found a solution from this position");
        out.gif = gif.clicked();
    });
    out
}
