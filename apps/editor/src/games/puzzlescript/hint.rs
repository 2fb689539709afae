//! Hint in Play for PuzzleScript: core's solver ([`hint_verdict`], A*) searches in a thread for
//! at most [`HINT_SECONDS`] of that thread's CPU time (so a loaded machine does not cut it
//! short; at most [`HINT_WALL_SECONDS`] by the clock) and [`HINT_NODES`] states, so the window
//! keeps drawing; the panel
//! says "Searching for a hint…" meanwhile and then what the search found: the first step of a
//! solution, "no solution from here" (a proof; Undo is offered), or "no hint within the time".
//! It never proposes a step from a search that found no solution. A search about a state the
//! board has left (a step, undo, another level) is stopped and its answer dropped.

use crate::games::PlayAction;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tessera_bots::games::collapse::thread_cpu_time;
use tessera_core::AnyCommand;
use tessera_core::puzzlescript::{
    HINT_BYTES, HintVerdict, PuzzleScriptCommand, PuzzleScriptRules, PuzzleScriptState, SolveLimits, hint_verdict,
};

/// How long Hint searches (the search thread's CPU time) before it says it found nothing in
/// time. Warehouse-002 takes A* about 0.3 s.
pub const HINT_SECONDS: f64 = 0.5;
/// How long Hint searches by the clock at most (a machine too busy to give it its CPU time).
pub const HINT_WALL_SECONDS: f64 = 10.0;
/// The most states Hint expands, whatever the clock says.
pub const HINT_NODES: u64 = 50_000;

/// A search under way: the state it is about, its answer once there, and its stop flag.
struct Job {
    hash: u64,
    answer: Arc<Mutex<Option<HintVerdict>>>,
    stop: Arc<AtomicBool>,
}

/// A solution Hint found, and the state it starts from.
struct Found {
    hash: u64,
    solution: Vec<PuzzleScriptCommand>,
}

/// The search under way and the last solution found, kept in the context's memory (the editor
/// entry has no state).
#[derive(Default)]
struct Searches {
    job: Option<Job>,
    found: Option<Found>,
}

type Slot = Arc<Mutex<Searches>>;

fn slot(ctx: &egui::Context) -> Slot {
    ctx.data_mut(|d| d.get_temp_mut_or_default::<Slot>(egui::Id::unique("puzzlescript-hint")).clone())
}

/// How long Hint may search: the search thread's CPU seconds and the clock's seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HintBudget {
    /// The search thread's CPU time, in seconds.
    pub cpu_seconds: f64,
    /// Time by the clock, in seconds (a machine too busy to give the thread its CPU time).
    pub wall_seconds: f64,
}

impl Default for HintBudget {
    fn default() -> Self {
        HintBudget { cpu_seconds: HINT_SECONDS, wall_seconds: HINT_WALL_SECONDS }
    }
}

fn budget_id() -> egui::Id {
    egui::Id::unique("puzzlescript-hint-budget")
}

/// Sets how long Hint searches in this window (the default is [`HintBudget::default`]). A
/// test that wants the answer of the node budget [`HINT_NODES`] alone, whatever the machine's
/// speed, sets a long one.
pub fn set_hint_budget(ctx: &egui::Context, budget: HintBudget) {
    ctx.data_mut(|d| d.insert_temp(budget_id(), budget));
}

fn hint_budget(ctx: &egui::Context) -> HintBudget {
    ctx.data(|d| d.get_temp(budget_id())).unwrap_or_default()
}

/// What the status bar says for a verdict, and whether the position is lost (Undo offered).
pub fn message(v: &HintVerdict) -> (String, bool) {
    match v {
        HintVerdict::Move { first, solution } => {
            (format!("Hint: {first} (a solution in {} steps from here)", solution.len()), false)
        }
        HintVerdict::NoSolution => ("Hint: no solution from here; Undo goes back".into(), true),
        HintVerdict::OutOfTime(nodes) => (
            format!("Hint: no hint within the time ({nodes} states searched); `tessera solve` can search longer"),
            false,
        ),
        HintVerdict::Random => (
            "Hint: no hint: no solution was found without the game's random steps, which the solver leaves out"
                .into(),
            false,
        ),
        HintVerdict::Won => ("Hint: the level is won".into(), false),
        HintVerdict::Refused(e) => (format!("Hint: no hint: {e}"), false),
    }
}

/// The Hint button, or the search under way, or its answer as an action; once Hint has found a
/// solution from this very state, "Show the solution" plays it, step by step.
pub fn panel(ui: &mut egui::Ui, rules: &PuzzleScriptRules, state: &PuzzleScriptState) -> Option<PlayAction> {
    let slot = slot(ui.ctx());
    let mut searches = slot.lock().unwrap_or_else(|e| e.into_inner());
    let Searches { job, found } = &mut *searches;
    if job.as_ref().is_some_and(|j| j.hash != state.hash())
        && let Some(j) = job.take()
    {
        j.stop.store(true, Ordering::Relaxed);
    }
    if found.as_ref().is_some_and(|f| f.hash != state.hash()) {
        *found = None;
    }
    if let Some(j) = job.as_ref() {
        let answer = j.answer.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(v) = answer {
            *job = None;
            let (text, lost) = message(&v);
            if let HintVerdict::Move { solution, .. } = v {
                *found = Some(Found { hash: state.hash(), solution });
            }
            return Some(if lost { PlayAction::Lost(text) } else { PlayAction::Notice(text) });
        }
        ui.label("Searching for a hint…");
        ui.ctx().request_repaint_after(Duration::from_millis(50));
        return None;
    }
    if state.is_won() {
        return None;
    }
    let help = "The first step of a solution, searched for up to half a second of CPU time";
    if ui.button("Hint").on_hover_text(help).clicked() {
        let answer = Arc::new(Mutex::new(None));
        let stop = Arc::new(AtomicBool::new(false));
        let (a, s, ctx) = (answer.clone(), stop.clone(), ui.ctx().clone());
        let hash = state.hash();
        let (rules, state) = (rules.clone(), state.clone());
        let budget = hint_budget(ui.ctx());
        std::thread::spawn(move || {
            let began = Instant::now();
            let cpu = thread_cpu_time();
            let limits = SolveLimits { max_nodes: HINT_NODES, max_bytes: HINT_BYTES };
            let spent = || match (cpu, thread_cpu_time()) {
                (Some(a), Some(b)) => b.saturating_sub(a).as_secs_f64(),
                _ => began.elapsed().as_secs_f64(),
            };
            let mut over = || {
                s.load(Ordering::Relaxed)
                    || spent() > budget.cpu_seconds
                    || began.elapsed().as_secs_f64() > budget.wall_seconds
            };
            let v = hint_verdict(&rules, &state, limits, &mut over);
            *a.lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
            ctx.request_repaint();
        });
        *job = Some(Job { hash, answer, stop });
        ui.ctx().request_repaint_after(Duration::from_millis(50));
    }
    if let Some(f) = found.as_ref() {
        let label = format!("Show the solution ({} steps)", f.solution.len());
        let help = "Plays the solution Hint found, one step after another (any key or Stop ends it)";
        if ui.button(label).on_hover_text(help).clicked() {
            let steps = f.solution.iter().map(|&c| AnyCommand::PuzzleScript(c)).collect();
            return Some(PlayAction::Walk(steps));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::Rules;
    use tessera_core::puzzlescript::{PuzzleScriptLevel, SolveOutcome, SolveReport, solve};

    const GAME: &str = include_str!("../../../../../fixtures/games/warehouse.txt");

    #[test]
    fn the_hint_on_warehouse_2_is_a_solution_s_step_and_a_search_out_of_budget_proposes_none() {
        let level = PuzzleScriptLevel { name: None, seed: None, source: GAME.into(), level: 1 };
        let (rules, s) = level.start(0).expect("starts");
        // Hint's node budget alone (no clock): a solution's first step, after which the fewest
        // steps left are one fewer (not a guess such as the first legal command).
        let limits = SolveLimits { max_nodes: HINT_NODES, max_bytes: HINT_BYTES };
        let v = hint_verdict(&rules, &s, limits, &mut || false);
        let HintVerdict::Move { first, .. } = v else { panic!("{v:?}") };
        let fewest = |s: &PuzzleScriptState| match solve(&rules, s, SolveLimits::default(), &mut || false) {
            Ok(SolveReport { outcome: SolveOutcome::Solved(c), .. }) => c.len(),
            other => panic!("{other:?}"),
        };
        let mut after = s.clone();
        rules.apply(&mut after, &first, &mut Vec::new()).expect("the hint is legal");
        assert_eq!(fewest(&after) + 1, fewest(&s), "{first}");
        assert!(message(&v).0.starts_with(&format!("Hint: {first} (a solution in")));
        let out = hint_verdict(&rules, &s, limits, &mut || true);
        assert_eq!(out, HintVerdict::OutOfTime(0));
        let (text, lost) = message(&out);
        assert!(text.contains("no hint within the time") && !lost, "{text}");
        let (text, lost) = message(&HintVerdict::NoSolution);
        assert!(text.contains("no solution from here") && lost, "{text}");
    }
}
