//! Levels of a rule set that registers a generator (`tessera_core::generators`; Sokoban's is
//! reverse play, `tessera_core::sokoban::reverse`): `tessera generate --rules NAME --size WxH
//! --boxes N`. The same run as a PuzzleScript game's ([`crate::generate`]): candidate `i` drawn
//! from the run's seed and `i` alone, evaluated `jobs` at a time and taken in candidate order
//! against the budget, so with a budget of states the levels are the same on any machine and
//! any `jobs`; each level the generator proved is replayed by the rules to a win (every command
//! accepted), repeats dropped, rated by `estimate_level` and ordered by the curve. The output
//! is a collection in the rule set's text format (Sokoban: XSB, each level after a `; N` line,
//! numbered from 1), which `tessera difficulty OUT --all`, `tessera convert sokoban` and other
//! Sokoban programs read.

use crate::candidate::rng_of;
use crate::run::{Ended, Progress, Scheduled, order};
use crate::{GenerateError, Options};
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tessera_core::{AnyCommand, GenerateRequest, Generator, Level, RuleSet, Rules, Status, Takes};

/// A level a rule set's generator made, proved and replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesLevel {
    /// Its rows (Sokoban: XSB).
    pub rows: Vec<String>,
    /// The level.
    pub level: Level,
    /// Its solution, as command words `tessera play` reads.
    pub solution: Vec<String>,
    /// What the solution is optimal in (`pushes`).
    pub figure: &'static str,
    /// Its value, the fewest possible (proved by the rule set's solver).
    pub optimal: u64,
    /// The solution's steps as players count them (Sokoban: moves).
    pub steps: u64,
    /// States the generator expanded making and proving it.
    pub states: u64,
    /// Its difficulty estimate (`estimate_level`).
    pub difficulty: f64,
    /// The estimate's reasons.
    pub why: Vec<String>,
    /// The bot's games won and played, for a level tuned to a win rate (match-3's stages).
    pub measured: Option<tessera_core::Measured>,
    /// The candidate it came from.
    pub candidate: u64,
    /// Milliseconds its candidate took (not deterministic).
    pub millis: u64,
}

/// What a run of a rule set's generator made.
#[derive(Clone, Debug)]
pub struct RulesOutcome {
    /// The kept levels, in the curve's order.
    pub levels: Vec<RulesLevel>,
    /// Candidates taken.
    pub candidates: u64,
    /// Budget states spent.
    pub states: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// How it ended.
    pub ended: Ended,
    /// The collection file's text.
    pub text: String,
}

/// The registered generator called `name`, with the options checked against it.
pub fn rules_generator(name: &str, options: &Options) -> Result<&'static Generator, GenerateError> {
    let Some(g) = tessera_core::generator(name) else {
        let names: Vec<&str> = tessera_core::generators().map(|g| g.name).collect();
        return Err(GenerateError::Option(format!(
            "--rules {name}: no rule set of that name has a generator (those with one: {})",
            names.join(", ")
        )));
    };
    crate::game::check_options(options)?;
    match g.takes {
        Takes::Room => check_room(name, options)?,
        Takes::Stage => check_stage(name, options)?,
    }
    Ok(g)
}

/// The options of a generator of rooms: `--size` and `--boxes`, or a room given (`--stage`,
/// the editor's level shown) whose size it is, its boxes counted when `--boxes` is not given;
/// locked cells inside the room.
fn check_room(name: &str, options: &Options) -> Result<(), GenerateError> {
    if let Some(room) = &options.stage {
        if room.rule_set().name() != name {
            return Err(GenerateError::Option(format!(
                "--stage: a {} level; --rules {name} fills {name} rooms",
                room.rule_set().name()
            )));
        }
        if let Err(e) = room.start(None) {
            return Err(GenerateError::Option(format!("--stage: the room does not start: {e}")));
        }
        if options.size.is_some() {
            return Err(GenerateError::Option("--size with --stage: the room given is its size".into()));
        }
        if options.objects == Some(0) {
            return Err(GenerateError::Option("--boxes 0: give at least one box".into()));
        }
        if let Level::Sokoban(s) = room {
            let width = s.board.iter().map(|r| r.chars().count()).max().unwrap_or(0);
            check_locked(&options.locked, (width, s.board.len()))?;
        }
        return Ok(());
    }
    let Some((w, h)) = options.size else {
        return Err(GenerateError::Option(format!(
            "--rules {name}: give the board's size, as --size 10x10 (or a room to fill, as --stage ROOM.xsb)"
        )));
    };
    let size_error = |why: String| GenerateError::Size { width: w, height: h, why };
    if !(5..=64).contains(&w) || !(5..=64).contains(&h) {
        return Err(size_error("give 5 to 64 cells a side (walls included)".into()));
    }
    let Some(n) = options.objects else {
        return Err(GenerateError::Option(format!("--rules {name}: give how many boxes, as --boxes 4")));
    };
    let inner = (w - 2) * (h - 2);
    if n == 0 || n + 2 > inner {
        return Err(size_error(format!(
            "--boxes {n}: give 1 to {} boxes (the room has {inner} cells inside its walls, one for the player and one free)",
            inner.saturating_sub(2)
        )));
    }
    check_locked(&options.locked, (w, h))
}

/// Locked cells inside a board of `size`.
fn check_locked(locked: &[(usize, usize)], (w, h): (usize, usize)) -> Result<(), GenerateError> {
    match locked.iter().find(|&&(x, y)| x >= w || y >= h) {
        Some((x, y)) => Err(GenerateError::Option(format!(
            "locked cells: ({x}, {y}) is outside the room, which is {w}x{h}"
        ))),
        None => Ok(()),
    }
}

/// The options of a generator that tunes a stage (`--stage`, `--win-rate`, `--games`).
fn check_stage(name: &str, options: &Options) -> Result<(), GenerateError> {
    let Some(stage) = &options.stage else {
        return Err(GenerateError::Option(format!(
            "--rules {name}: give the stage to tune, as --stage STAGE.json"
        )));
    };
    if stage.rule_set().name() != name {
        return Err(GenerateError::Option(format!(
            "--stage: a {} level; --rules {name} tunes {name} stages",
            stage.rule_set().name()
        )));
    }
    if let Err(e) = stage.start(None) {
        return Err(GenerateError::Option(format!("--stage: the stage does not start: {e}")));
    }
    let Some((a, b)) = options.win_rate else {
        return Err(GenerateError::Option(format!(
            "--rules {name}: give the share of games the bot should win, as --win-rate 0.4..0.6"
        )));
    };
    if !(0.0..=1.0).contains(&a) || !(0.0..=1.0).contains(&b) || a > b {
        return Err(GenerateError::Option(format!(
            "--win-rate {a}..{b}: give A..B with 0 <= A <= B <= 1, as 0.4..0.6"
        )));
    }
    if options.games == 0 {
        return Err(GenerateError::Option("--games 0: the bot needs at least one game".into()));
    }
    Ok(())
}

/// Whether `solution` played by the rules from the start of `level` wins, every command
/// accepted.
fn replays(level: &Level, rule_set: RuleSet, solution: &[String]) -> bool {
    let Ok(game) = level.start(None) else { return false };
    let (rules, mut state) = (game.rules, game.state);
    let mut events = Vec::new();
    for w in solution {
        let Ok(c) = AnyCommand::parse(rule_set, w) else { return false };
        events.clear();
        if rules.status(&state) == Status::Won || rules.apply(&mut state, &c, &mut events).is_err() {
            return false;
        }
    }
    rules.status(&state) == Status::Won
}

/// Candidate `index`: made and proved by the generator, replayed, rated.
pub(crate) fn evaluate(g: &Generator, options: &Options, index: u64) -> (Option<RulesLevel>, u64) {
    let began = Instant::now();
    let (w, h) = options.size.unwrap_or((10, 10));
    let per_mille = |x: f64| (x * 1000.0).round() as u32;
    let playtest: &tessera_core::Playtest = &crate::playtest::playtest;
    let req = GenerateRequest {
        width: w,
        height: h,
        // None with a room given: its own count (the generator reads 0 so).
        objects: options.objects.unwrap_or(0),
        max_states: options.level_states,
        min_steps: options.min_steps,
        max_steps: options.max_steps,
        stage: options.stage.as_ref(),
        locked: &options.locked,
        win_rate: options.win_rate.map(|(a, b)| (per_mille(a), per_mille(b))),
        games: options.games,
        playtest: Some(playtest),
    };
    let mut rng = rng_of(options.seed, index);
    let made = match (g.generate)(&req, &mut rng) {
        Ok(m) => m,
        Err(no) => return (None, crate::candidate::START_COST + no.states),
    };
    let mut charge = crate::candidate::START_COST + made.states + made.solution.len() as u64;
    let rule_set = made.level.rule_set();
    let optimal = made.optimal as usize;
    if optimal < options.min_steps
        || options.max_steps.is_some_and(|m| optimal > m)
        || !replays(&made.level, rule_set, &made.solution)
    {
        return (None, charge);
    }
    let (difficulty, why) = match made.measured {
        // A tuned level: its difficulty is the share of the bot's games lost.
        Some(tessera_core::Measured { wins, games, .. }) => {
            let lost = games.saturating_sub(wins);
            (
                f64::from(lost) * 100.0 / f64::from(games.max(1)),
                vec![format!("the bot ({}) lost {lost} of {games} games", crate::playtest::PLAYTEST_BOT)],
            )
        }
        None => {
            let Ok(estimate) = tessera_bots::estimate::estimate_level(&made.level, &options.estimate) else {
                return (None, charge);
            };
            let f = &estimate.features;
            charge += f.states + f.bfs_states + f.choices * options.estimate.probe_states;
            (estimate.difficulty, estimate.why)
        }
    };
    let level = RulesLevel {
        rows: made.rows,
        level: made.level,
        solution: made.solution,
        figure: made.figure,
        optimal: made.optimal,
        steps: made.steps,
        states: made.states,
        difficulty,
        why,
        measured: made.measured,
        candidate: index,
        millis: began.elapsed().as_millis() as u64,
    };
    (Some(level), charge)
}

/// The levels a run must not repeat: the room given, as it is.
pub(crate) fn known(options: &Options) -> BTreeSet<Vec<String>> {
    match &options.stage {
        Some(Level::Sokoban(s)) => BTreeSet::from([s.board.clone()]),
        _ => BTreeSet::new(),
    }
}

/// Generates levels with the rule set's generator `g` (see the module docs).
pub fn generate_rules(
    g: &'static Generator,
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<RulesOutcome, GenerateError> {
    crate::generate_rules_each(g, options, interrupt, progress, &mut |_| {})
}

/// The kept levels ordered by the curve and written as a collection, read back.
pub(crate) fn finish_rules(
    options: &Options,
    mut kept: Vec<RulesLevel>,
    run: Scheduled,
) -> Result<RulesOutcome, GenerateError> {
    order(options, &mut kept, |l| (l.difficulty, l.optimal));
    let text = match kept.first().map(|l| &l.level) {
        Some(Level::Sokoban(_)) | None => {
            let text = collection(&kept);
            check_collection(&text, &kept)?;
            text
        }
        Some(_) => String::new(),
    };
    Ok(RulesOutcome {
        levels: kept,
        candidates: run.taken,
        states: run.spent,
        seconds: run.seconds,
        ended: run.ended,
        text,
    })
}

/// Each level's file (a tuned stage: its JSON level file, with a line break), in order.
pub fn level_files(levels: &[RulesLevel]) -> Result<Vec<String>, GenerateError> {
    levels
        .iter()
        .map(|l| {
            let text = format!("{}\n", l.level.to_json());
            match Level::from_json(&text) {
                Ok(read) if read == l.level => Ok(text),
                _ => Err(GenerateError::Compile("a level's file reads back differently".into())),
            }
        })
        .collect()
}

/// The levels as an XSB collection: `; N` (from 1), the rows, a blank line.
pub fn collection(levels: &[RulesLevel]) -> String {
    let mut out = String::new();
    for (k, l) in levels.iter().enumerate() {
        out.push_str(&format!("; {}\n", k + 1));
        for r in &l.rows {
            out.push_str(r);
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// The collection read back: its levels are the generated ones, in order.
fn check_collection(text: &str, levels: &[RulesLevel]) -> Result<(), GenerateError> {
    let read = tessera_core::sokoban::parse_levels(text)
        .map_err(|e| GenerateError::Compile(format!("the output does not read back: {e}")))?;
    let board = |l: &Level| match l {
        Level::Sokoban(s) => Some(s.board.clone()),
        _ => None,
    };
    if read.len() != levels.len()
        || read.iter().zip(levels).any(|((_, a), b)| board(a) != Some(b.rows.clone()))
    {
        return Err(GenerateError::Compile("the output's levels read back differently".into()));
    }
    Ok(())
}
