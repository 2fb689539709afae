//! The `sokoban` rule set as a [`Plugin`]: what the registry and the rest of tessera ask of it.

use super::{
    SokobanCommand, SokobanEvent, SokobanLevel, SokobanRules, SokobanState, SolveLimits, SolveOutcome, solve,
};
use crate::{GameRng, KeyframeError, LevelError, Plugin, Rejected};
use std::borrow::Cow;

/// The `sokoban` rule set: push every box onto a goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sokoban;

impl Plugin for Sokoban {
    const NAME: &'static str = "sokoban";
    const VERSION: u32 = 1;
    const COMMAND_HELP: &'static str = "up | down | left | right | walk X Y";
    const IMPORTERS: &'static [crate::Importer] = super::import::IMPORTERS;
    const GENERATORS: &'static [crate::Generator] = &[super::reverse::GENERATOR];
    const MAX_SIDE: usize = super::MAX_SIDE as usize;

    type Rules = SokobanRules;
    type State = SokobanState;
    type Command = SokobanCommand;
    type Event = SokobanEvent;
    type Level = SokobanLevel;
    type Keyframe = SokobanState;

    fn keyframe(state: &SokobanState) -> Cow<'_, SokobanState> {
        Cow::Borrowed(state)
    }

    fn from_keyframe(
        keyframe: SokobanState,
        _start: Option<&SokobanState>,
    ) -> Result<SokobanState, KeyframeError> {
        // Deserialization already checked the state's invariants.
        Ok(keyframe)
    }

    #[inline]
    fn apply_into<E: From<SokobanEvent>>(
        rules: &SokobanRules,
        state: &mut SokobanState,
        cmd: &SokobanCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        rules.apply_into(state, cmd, events)
    }

    fn start(level: &SokobanLevel, seed: u64) -> Result<(SokobanRules, SokobanState), LevelError> {
        level.start(seed)
    }

    fn level_seed(level: &SokobanLevel) -> Option<u64> {
        level.seed
    }

    #[inline]
    fn hash(state: &SokobanState) -> u64 {
        state.hash()
    }

    fn recompute_hash(state: &SokobanState) -> u64 {
        state.recompute_hash()
    }

    fn board_json(state: &SokobanState) -> serde_json::Value {
        serde_json::json!(state.rows())
    }

    /// The moves made, as Sokoban players count them (the pushes are in the state).
    fn score(state: &SokobanState) -> Option<u64> {
        Some(u64::from(state.moves()))
    }

    /// Nothing: Sokoban draws nothing.
    fn replace_rng(_state: &mut SokobanState, _rng: GameRng) {}

    #[cfg(feature = "strategy")]
    fn strategies() -> crate::strategy::Strategies {
        super::strategy::strategies()
    }

    fn render(state: &SokobanState) -> String {
        state.render()
    }

    /// The first command of a solution with the fewest pushes, when the solver finds one
    /// within [`HINT_NODES`] expansions; else the first legal step (none once solved).
    fn hint(rules: &SokobanRules, state: &SokobanState) -> Option<SokobanCommand> {
        let limits = SolveLimits::nodes(HINT_NODES);
        match solve(state, limits, &mut || false).outcome {
            SolveOutcome::Solved(s) if !s.commands.is_empty() => s.commands.first().copied(),
            _ => rules.steps(state).into_iter().next(),
        }
    }
}

/// How many states the hint's solver may expand (a few milliseconds).
pub const HINT_NODES: u64 = 20_000;
