//! The `match3` rule set as a [`Plugin`]: what the registry and the rest of tessera ask of it.

use super::{Match3Command, Match3Event, Match3Level, Match3Rules, Match3State};
use crate::{GameRng, KeyframeError, LevelError, Plugin, Rejected};
use std::borrow::Cow;

/// The `match3` rule set: match-3: swap, cascades, locked blocks and voids, dead-board shuffle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Match3;

impl Plugin for Match3 {
    const NAME: &'static str = "match3";
    const VERSION: u32 = 1;
    const COMMAND_HELP: &'static str = "swap X1 Y1 X2 Y2";
    const IMPORTERS: &'static [crate::Importer] = super::import::IMPORTERS;
    const GENERATORS: &'static [crate::Generator] = &[super::tune::GENERATOR];
    const MAX_SIDE: usize = super::MAX_SIDE as usize;

    type Rules = Match3Rules;
    type State = Match3State;
    type Command = Match3Command;
    type Event = Match3Event;
    type Level = Match3Level;
    type Keyframe = Match3State;

    fn keyframe(state: &Match3State) -> Cow<'_, Match3State> {
        Cow::Borrowed(state)
    }

    fn from_keyframe(
        keyframe: Match3State,
        _start: Option<&Match3State>,
    ) -> Result<Match3State, KeyframeError> {
        Ok(keyframe)
    }

    #[inline]
    fn apply_into<E: From<Match3Event>>(
        rules: &Match3Rules,
        state: &mut Match3State,
        cmd: &Match3Command,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        rules.apply_into(state, cmd, events)
    }

    fn start(level: &Match3Level, seed: u64) -> Result<(Match3Rules, Match3State), LevelError> {
        level.start(seed)
    }

    fn level_seed(level: &Match3Level) -> Option<u64> {
        level.seed
    }

    #[inline]
    fn hash(state: &Match3State) -> u64 {
        state.hash()
    }

    fn recompute_hash(state: &Match3State) -> u64 {
        state.recompute_hash()
    }

    fn board_json(state: &Match3State) -> serde_json::Value {
        serde_json::json!(state.rows())
    }

    fn score(state: &Match3State) -> Option<u64> {
        Some(state.score())
    }

    fn replace_rng(state: &mut Match3State, rng: GameRng) {
        state.replace_rng(rng);
    }

    #[cfg(feature = "strategy")]
    fn strategies() -> crate::strategy::Strategies {
        super::strategy::strategies()
    }

    fn render(state: &Match3State) -> String {
        state.render()
    }

    fn hint(rules: &Match3Rules, state: &Match3State) -> Option<Match3Command> {
        rules.hint(state)
    }
}
