//! The `collapse` rule set as a [`Plugin`]: what the registry and the rest of tessera ask of it.

use super::{CollapseCommand, CollapseEvent, CollapseLevel, CollapseRules, CollapseState};
use crate::{GameRng, KeyframeError, LevelError, Plugin, Rejected};
use std::borrow::Cow;

/// The `collapse` rule set: SameGame: tap a group, gravity, column compaction, scoring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Collapse;

impl Plugin for Collapse {
    const NAME: &'static str = "collapse";
    const VERSION: u32 = 1;
    const COMMAND_HELP: &'static str = "tap X Y";
    const IMPORTERS: &'static [crate::Importer] = super::import::IMPORTERS;
    const MAX_SIDE: usize = super::MAX_SIDE as usize;

    type Rules = CollapseRules;
    type State = CollapseState;
    type Command = CollapseCommand;
    type Event = CollapseEvent;
    type Level = CollapseLevel;
    type Keyframe = CollapseState;

    fn keyframe(state: &CollapseState) -> Cow<'_, CollapseState> {
        Cow::Borrowed(state)
    }

    fn from_keyframe(
        keyframe: CollapseState,
        _start: Option<&CollapseState>,
    ) -> Result<CollapseState, KeyframeError> {
        Ok(keyframe)
    }

    #[inline]
    fn apply_into<E: From<CollapseEvent>>(
        rules: &CollapseRules,
        state: &mut CollapseState,
        cmd: &CollapseCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        rules.apply_into(state, cmd, events)
    }

    fn start(level: &CollapseLevel, seed: u64) -> Result<(CollapseRules, CollapseState), LevelError> {
        level.start(seed)
    }

    fn level_seed(level: &CollapseLevel) -> Option<u64> {
        level.seed
    }

    #[inline]
    fn hash(state: &CollapseState) -> u64 {
        state.hash()
    }

    fn recompute_hash(state: &CollapseState) -> u64 {
        state.recompute_hash()
    }

    fn board_json(state: &CollapseState) -> serde_json::Value {
        serde_json::json!(state.rows())
    }

    fn score(state: &CollapseState) -> Option<u64> {
        Some(state.score())
    }

    fn replace_rng(state: &mut CollapseState, rng: GameRng) {
        state.replace_rng(rng);
    }

    #[cfg(feature = "strategy")]
    fn strategies() -> crate::strategy::Strategies {
        super::strategy::strategies()
    }

    fn render(state: &CollapseState) -> String {
        state.render()
    }
}
