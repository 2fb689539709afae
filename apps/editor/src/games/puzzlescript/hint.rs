//! Hint in Play for PuzzleScript: core's solver ([`hint_verdict`], the mixed search) searches in a thread,
//! helped by one more on each other core (the same answer on any number), for at most
//! [`HINT_SECONDS`] of that thread's CPU time (so a loaded machine does not cut it short; at
//! most [`HINT_WALL_SECONDS`] by the clock) and [`HINT_NODES`] states, so the window keeps
//! drawing; the panel
//! says "Searching for a hint…" meanwhile and then what the search found: the first step of a
//! solution, "no solution from here" (a proof; Undo is offered), or "no hint within the time".
//! It never proposes a step from a search that found no solution. A search about a state the
//! board has left (a step, undo, another level) is stopped and its answer dropped. The solution
//! found is kept ([`SolutionMemo`]) while the player follows it: from each state it passes
//! through, "Show the solution" plays the rest and Hint answers at once, with no new search.

use crate::games::PlayAction;
use crate::games::search::{HintBudget, Job, hint_budget, hint_row, searches, steps};
use std::time::Duration;
use tessera_core::AnyCommand;
use tessera_core::puzzlescript::{
    HINT_BYTES, HintVerdict, PuzzleScriptCommand, PuzzleScriptRules, PuzzleScriptState, SolutionMemo,
    SolveLimits, hint_verdict,
};

/// How long Hint searches (the search thread's CPU time) before it says it found nothing in
/// time. Warehouse-002 takes the search well under 0.1 s.
pub const HINT_SECONDS: f64 = 0.5;
/// How long Hint searches by the clock at most (a machine too busy to give it its CPU time).
pub const HINT_WALL_SECONDS: f64 = 10.0;
/// The most states Hint expands, whatever the clock says.
pub const HINT_NODES: u64 = 50_000;

/// Hint's budget unless the window sets another ([`crate::games::set_hint_budget`]).
const BUDGET: HintBudget = HintBudget { cpu_seconds: HINT_SECONDS, wall_seconds: HINT_WALL_SECONDS };

/// What the status bar says for a verdict, and whether the position is lost (Undo offered).
pub fn message(v: &HintVerdict) -> (String, bool) {
    match v {
        HintVerdict::Move { first, solution, seeded } => {
            // (a solution through steps that draw wins as this play's seed draws them)
            let seed = if *seeded { ", with this seed: some of its steps draw at random" } else { "" };
            // (a realtime game's solution may wait for its clock: a tick is no key to press)
            let first = match first {
                PuzzleScriptCommand::Tick => "wait for the clock's tick".to_string(),
                other => other.to_string(),
            };
            (format!("Hint: {first} (a solution in {} from here{seed})", steps(solution.len())), false)
        }
        HintVerdict::NoSolution => ("Hint: no solution from here; Undo goes back".into(), true),
        HintVerdict::OutOfTime(nodes) => (
            format!("Hint: no hint within the time ({nodes} states searched); the command tessera solve can search longer"),
            false,
        ),
        HintVerdict::Random => (
            "Hint: no hint: the game draws at random, and no solution was found, without those steps or with \
             them as this seed draws them"
                .into(),
            false,
        ),
        HintVerdict::Won => ("Hint: the level is won".into(), false),
    }
}

/// The key of a position for Hint: the state's hash and the rules' source, so that a solution
/// found is only offered under the rules it was found with.
fn position(rules: &PuzzleScriptRules, state: &PuzzleScriptState) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    rules.source().hash(&mut h);
    state.hash() ^ h.finish().rotate_left(17)
}

/// The Hint row ([`hint_row`]: Hint, or the search under way; "Show the solution" once Hint has
/// found a solution from this very state, which it plays step by step), and Hint's answer as an
/// action when it comes.
pub fn panel(ui: &mut egui::Ui, rules: &PuzzleScriptRules, state: &PuzzleScriptState) -> Option<PlayAction> {
    let slot = searches::<HintVerdict, SolutionMemo>(ui.ctx(), "puzzlescript-hint");
    let mut searches = slot.lock().unwrap_or_else(|e| e.into_inner());
    // The position is the board under these rules: a rebuild's new rules forget the search and
    // the solution found under the old ones, even on the same board.
    let position = position(rules, state);
    // The player followed the solution found: it stays found, from here.
    if let Some((at, memo)) = searches.found.as_mut()
        && *at != position
        && memo.rest(rules, state).is_some()
    {
        *at = position;
    }
    searches.follow(position);
    let mut action = None;
    if let Some(j) = searches.job.as_ref() {
        match j.take_answer() {
            Some(v) => {
                searches.job = None;
                let (text, lost) = message(&v);
                if let HintVerdict::Move { solution, .. } = &v {
                    searches.found = SolutionMemo::new(rules, state, solution).map(|m| (position, m));
                }
                action = Some(if lost { PlayAction::Lost(text) } else { PlayAction::Notice(text) });
            }
            None => ui.ctx().request_repaint_after(Duration::from_millis(50)),
        }
    }
    let help = "The first step of a solution, searched for up to half a second on every core";
    let rest = searches.found.as_ref().and_then(|(_, memo)| memo.rest(rules, state)).map(<[_]>::to_vec);
    let row = hint_row(ui, help, searches.job.is_some(), state.is_won(), rest.as_ref().map(Vec::len));
    if row.hint {
        // On the solution found: its next step, at once.
        match searches.found.as_ref().and_then(|(_, memo)| memo.verdict(rules, state)) {
            Some(v) => action = Some(PlayAction::Notice(message(&v).0)),
            None => {
                let (rules, st) = (rules.clone(), state.clone());
                let limits = SolveLimits { max_nodes: HINT_NODES, max_bytes: HINT_BYTES };
                let budget = hint_budget(ui.ctx(), BUDGET);
                // (every core: the search's thread is timed, its helpers play steps beside it)
                let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
                searches.job = Some(Job::spawn(ui.ctx(), position, budget, move |stop| {
                    hint_verdict(&rules, &st, limits, jobs, stop)
                }));
                ui.ctx().request_repaint_after(Duration::from_millis(50));
            }
        }
    }
    if let Some(rest) = rest {
        let steps = || rest.iter().copied().map(AnyCommand::PuzzleScript).collect();
        if row.show {
            return Some(PlayAction::Walk(steps()));
        }
        if row.gif {
            return Some(PlayAction::SaveGif(steps()));
        }
    }
    action
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
        // Hint's node budget alone (no clock): a solution's first step (not a guess such as the
        // first legal command): after it, the rest of that solution wins, and the fewest steps
        // left are no more than that rest.
        let limits = SolveLimits { max_nodes: HINT_NODES, max_bytes: HINT_BYTES };
        let v = hint_verdict(&rules, &s, limits, 1, &mut || false);
        let HintVerdict::Move { first, solution, .. } = &v else { panic!("{v:?}") };
        // The panel searches on every core: the same verdict on two.
        assert_eq!(hint_verdict(&rules, &s, limits, 2, &mut || false), v);
        let fewest = |s: &PuzzleScriptState| match solve(&rules, s, SolveLimits::default(), &mut || false) {
            SolveReport { outcome: SolveOutcome::Solved(c), .. } => c.len(),
            other => panic!("{other:?}"),
        };
        let mut after = s.clone();
        rules.apply(&mut after, first, &mut Vec::new()).expect("the hint is legal");
        let mut end = after.clone();
        for c in &solution[1..] {
            rules.apply(&mut end, c, &mut Vec::new()).expect("the solution is legal");
        }
        assert_eq!(rules.status(&end), tessera_core::Status::Won, "{solution:?}");
        assert!(fewest(&after) < solution.len(), "{first}");
        assert!(message(&v).0.starts_with(&format!("Hint: {first} (a solution in")));
        let out = hint_verdict(&rules, &s, limits, 2, &mut || true);
        assert_eq!(out, HintVerdict::OutOfTime(0));
        let (text, lost) = message(&out);
        assert!(text.contains("no hint within the time") && !lost, "{text}");
        assert!(!text.contains('`'), "issue 36.9: no backticks on the screen: {text}");
        let (text, lost) = message(&HintVerdict::NoSolution);
        assert!(text.contains("no solution from here") && lost, "{text}");
        // A realtime game's solution may wait for the clock: no key to press, said so.
        let tick = PuzzleScriptCommand::Tick;
        let wait = HintVerdict::Move { first: tick, solution: vec![tick; 2], seeded: false };
        assert_eq!(message(&wait).0, "Hint: wait for the clock's tick (a solution in 2 steps from here)");
        let last = HintVerdict::Move { first: tick, solution: vec![tick], seeded: false };
        assert_eq!(message(&last).0, "Hint: wait for the clock's tick (a solution in 1 step from here)");
    }
}
