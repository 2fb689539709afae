//! One game played by a bot.

use crate::Bot;
use crate::any::BotError;
use crate::playable::Playable;
use serde::{Deserialize, Serialize};
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Rules};

/// When a bot's game stops, besides the rules' own end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// The most commands a bot plays (tactics and match3 levels without a move limit have no
    /// end of their own).
    pub max_moves: u32,
    /// Play on after a win (2048's "keep going"), until the game is over or the cap.
    pub keep_going: bool,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig { max_moves: 10_000, keep_going: false }
    }
}

impl GameConfig {
    /// Whether play stops after `moves` commands in `state`.
    pub fn finished<R: Playable>(&self, rules: &R, state: &R::State, moves: u32) -> bool {
        moves >= self.max_moves || rules.finished(state, self.keep_going)
    }
}

/// One game of a difficulty sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The game's number in the sweep (game `i` uses seed `seed + i`).
    pub game: u64,
    /// The seed of the game and of its bot.
    pub seed: u64,
    /// Whether the level's goal was reached.
    pub won: bool,
    /// Commands played.
    pub moves: u32,
    /// Final score.
    pub score: u64,
    /// Objectives met.
    pub objectives_met: u32,
    /// The largest tile (slide; 0 otherwise).
    pub top_tile: u32,
    /// The game was cut short by the run's work budget ([`run_work`]; issue 66.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut_short: bool,
}

/// The work one bot's game may do by default: its moves' steps and its bot's look-aheads (the
/// solver bot's searches too), in PuzzleScript's units of work (`tessera_core::puzzlescript::MAX_STEP_WORK`
/// counts them: cells tested by rules and the like, and for a run each turn's own cost,
/// `RUN_TURN_WORK`; steps of the other rule sets are cheap by construction and count nothing).
/// A difficulty report's solver measure is held to the same budget. 400,000,000 units take 2
/// to 4 s of one core in a release build (docs/limits.md gives the figures), where a game of
/// an `again` chain ran 445 s, and 94 s at the budget of 1,000,000,000 before a turn's own
/// cost was counted.
pub const DEFAULT_RUN_WORK: u64 = 400_000_000;

static RUN_WORK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(DEFAULT_RUN_WORK);

/// Sets the work budget of every bot's game played from now on in this process (`--work`).
pub fn set_run_work(work: u64) {
    RUN_WORK.store(work, std::sync::atomic::Ordering::Relaxed);
}

/// The work budget of a bot's game ([`DEFAULT_RUN_WORK`] unless [`set_run_work`] changed it).
pub fn run_work() -> u64 {
    RUN_WORK.load(std::sync::atomic::Ordering::Relaxed)
}

/// How a game played by [`play_game_within`] ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Commands played.
    pub moves: u32,
    /// The work budget ([`run_work`]) was spent before the game's end.
    pub cut_short: bool,
    /// `stop` said to stop before the game's end.
    pub stopped: bool,
}

/// Plays `bot` on `state` until the game stops, calling `on_step` after each command with the
/// move number (from 1), the command, its events and the state after it. Returns the number of
/// commands played. A command the rules refuse is a bot bug: [`BotError::Illegal`]. The game is
/// held to the work budget ([`run_work`]): see [`play_game_within`].
pub fn play_game(
    rules: &AnyRules,
    state: &mut AnyState,
    bot: &mut dyn Bot<AnyRules>,
    config: &GameConfig,
    on_step: impl FnMut(u32, &AnyCommand, &[AnyEvent], &AnyState),
) -> Result<u32, BotError> {
    play_game_within(rules, state, bot, config, &|| false, on_step).map(|p| p.moves)
}

/// [`play_game`], which also ends when `stop` (read before each move) says so, and says how the
/// game ended. Every step the game plays through the rules, its bot's look-aheads included,
/// takes its work from one budget of [`run_work`] units
/// (`tessera_core::puzzlescript::with_run_budget`): once it is spent the game ends there,
/// [`Played::cut_short`]. Deterministic: the same on every machine.
pub fn play_game_within(
    rules: &AnyRules,
    state: &mut AnyState,
    bot: &mut dyn Bot<AnyRules>,
    config: &GameConfig,
    stop: &dyn Fn() -> bool,
    mut on_step: impl FnMut(u32, &AnyCommand, &[AnyEvent], &AnyState),
) -> Result<Played, BotError> {
    let (played, left) = tessera_core::puzzlescript::with_run_budget(run_work(), || {
        let mut played = Played::default();
        let mut events = Vec::new();
        while !config.finished(rules, state, played.moves) {
            if stop() {
                played.stopped = true;
                break;
            }
            let Some(cmd) = bot.choose(rules, state) else { break };
            events.clear();
            if let Err(e) = rules.apply(state, &cmd, &mut events) {
                if e.code == tessera_core::puzzlescript::RUN_BUDGET_SPENT.code {
                    played.cut_short = true;
                    break;
                }
                return Err(BotError::Illegal {
                    step: played.moves + 1,
                    command: cmd.to_string(),
                    reason: e.message.into_owned(),
                });
            }
            played.moves += 1;
            on_step(played.moves, &cmd, &events, state);
        }
        Ok(played)
    });
    let mut played = played?;
    // A bot that found no command because its look-aheads were refused was cut short too.
    played.cut_short |= left == 0 && !config.finished(rules, state, played.moves);
    Ok(played)
}
