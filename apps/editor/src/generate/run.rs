//! A round on its worker thread and what it finds: `tessera_generate::generate_each` for a
//! game written as text, `generate_rules_each` for a rule set's generator (Sokoban, match-3).
//! The worker sends its progress and each level the moment it is kept over a channel, which
//! the pane polls each frame; the UI thread never waits on it.

use super::thumb::Thumb;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, channel};
use tessera_core::{AnyCommand, Generator, Level};
use tessera_generate::{Ended, Options, Progress, RulesLevel};

/// A level a round proved.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// Of a PuzzleScript game: rows in its legend's characters, appended to its source.
    Game(tessera_generate::Level),
    /// Of a rule set's generator: a level of its own (a Sokoban room, a tuned match-3 stage).
    Rules(RulesLevel),
}

/// A level the run proved, in the gallery.
pub struct Candidate {
    /// The level and its proof.
    pub found: Found,
    /// The round (Start or More like this) that made it, from 1.
    pub round: u32,
    pub(super) thumb: Option<Thumb>,
}

impl Candidate {
    pub(super) fn new(found: Found, round: u32, source: Option<&str>) -> Candidate {
        let thumb = match (&found, source) {
            (Found::Game(l), Some(source)) => Thumb::of(source, &l.rows),
            (Found::Rules(l), _) => Thumb::of_level(&l.level),
            (Found::Game(_), None) => None,
        };
        Candidate { found, round, thumb }
    }

    /// Its rows: the game's legend characters, or the rule set's text (Sokoban: XSB).
    pub fn rows(&self) -> &[String] {
        match &self.found {
            Found::Game(l) => &l.rows,
            Found::Rules(l) => &l.rows,
        }
    }

    /// The PuzzleScript level, when it is one.
    pub fn game_level(&self) -> Option<&tessera_generate::Level> {
        match &self.found {
            Found::Game(l) => Some(l),
            Found::Rules(_) => None,
        }
    }

    /// The rule set's level, when it is one.
    pub fn rules_level(&self) -> Option<&RulesLevel> {
        match &self.found {
            Found::Rules(l) => Some(l),
            Found::Game(_) => None,
        }
    }

    /// Its difficulty estimate (a tuned stage: the share of the bot's games lost, in %).
    pub fn difficulty(&self) -> f64 {
        match &self.found {
            Found::Game(l) => l.difficulty,
            Found::Rules(l) => l.difficulty,
        }
    }

    /// The estimate's reasons, in words.
    pub fn why(&self) -> &[String] {
        match &self.found {
            Found::Game(l) => &l.why,
            Found::Rules(l) => &l.why,
        }
    }

    /// Its figures in a few words: "14 steps", "6 pushes · 31 moves", "move limit 18 · target
    /// 900 · the bot won 52 of 100".
    pub fn headline(&self) -> String {
        match &self.found {
            Found::Game(l) => format!("{} steps", l.steps()),
            Found::Rules(l) => match (&l.measured, &l.level) {
                (Some(m), Level::Match3(stage)) => format!(
                    "move limit {} · target {} · the bot won {} of {}",
                    l.optimal,
                    stage.config.target_score.unwrap_or(0),
                    m.wins,
                    m.games
                ),
                _ => format!("{} {} · {} moves", l.optimal, l.figure, l.steps),
            },
        }
    }

    /// Its solution as the rules' commands (a tuned stage: a game the bot won).
    pub fn commands(&self) -> Vec<AnyCommand> {
        match &self.found {
            Found::Game(l) => l.solution.iter().cloned().map(AnyCommand::PuzzleScript).collect(),
            Found::Rules(l) => {
                let rule_set = l.level.rule_set();
                l.solution.iter().filter_map(|w| AnyCommand::parse(rule_set, w).ok()).collect()
            }
        }
    }
}

/// How a round ended, in figures.
#[derive(Clone, Copy, Debug)]
pub(super) struct Summary {
    pub ended: Ended,
    pub levels: usize,
    pub states: u64,
    pub seconds: f64,
}

/// What a run sends the pane.
pub(super) enum Message {
    Progress(Progress),
    Found(Box<Found>),
    Done(Result<Summary, String>),
}

/// A round on its worker thread.
pub(super) struct Running {
    pub stop: Arc<AtomicBool>,
    pub messages: Receiver<Message>,
    /// The game's source the round grows from (a PuzzleScript candidate is a level of it).
    pub source: Option<String>,
}

/// What a round runs on.
pub(super) enum Work {
    /// A PuzzleScript game's source.
    Game(String),
    /// A rule set's generator.
    Rules(&'static Generator),
}

/// Starts a round of `options` on `work` on a worker thread.
pub(super) fn spawn(work: Work, options: Options) -> Running {
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel();
    let s = stop.clone();
    let source = match &work {
        Work::Game(text) => Some(text.clone()),
        Work::Rules(_) => None,
    };
    std::thread::spawn(move || {
        let progress_tx = tx.clone();
        let found_tx = tx.clone();
        let mut progress = |p| {
            let _ = progress_tx.send(Message::Progress(p));
        };
        let result = match work {
            Work::Game(text) => tessera_generate::prepare(&text, &options).and_then(|game| {
                let mut found = |l: &tessera_generate::Level| {
                    let _ = found_tx.send(Message::Found(Box::new(Found::Game(l.clone()))));
                };
                tessera_generate::generate_each(&game, &options, &s, &mut progress, &mut found).map(|e| {
                    Summary { ended: e.ended, levels: e.levels.len(), states: e.states, seconds: e.seconds }
                })
            }),
            Work::Rules(g) => tessera_generate::rules_generator(g.name, &options).and_then(|g| {
                let mut found = |l: &RulesLevel| {
                    let _ = found_tx.send(Message::Found(Box::new(Found::Rules(l.clone()))));
                };
                tessera_generate::generate_rules_each(g, &options, &s, &mut progress, &mut found).map(|o| {
                    Summary { ended: o.ended, levels: o.levels.len(), states: o.states, seconds: o.seconds }
                })
            }),
        };
        // The pane may be gone (the editor closed): nothing to tell then.
        let _ = tx.send(Message::Done(result.map_err(|e| e.to_string())));
    });
    Running { stop, messages: rx, source }
}
