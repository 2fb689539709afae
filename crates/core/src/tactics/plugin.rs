//! The `tactics` rule set as a [`Plugin`]: what the registry and the rest of tessera ask of it.

use super::{TacticsCommand, TacticsEvent, TacticsLevel, TacticsRules, TacticsState};
use crate::{GameRng, KeyframeError, LevelError, Plugin, Rejected};
use std::borrow::Cow;

/// The `tactics` rule set: turn-based tactics: terrain costs, movement range, A*, moves and turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tactics;

impl Plugin for Tactics {
    const NAME: &'static str = "tactics";
    /// 3: cheapest paths on uniform terrain come from jump point search (see
    /// [`RulesVersion`](super::RulesVersion)); 2 (A* everywhere) is kept for its logs.
    const VERSION: u32 = 3;
    const OLDEST_VERSION: u32 = 2;
    const COMMAND_HELP: &'static str = "move UNIT X Y | move-along UNIT X Y X Y ... | end-turn";
    const IMPORTERS: &'static [crate::Importer] = super::import::IMPORTERS;
    const MAX_SIDE: usize = super::MAX_SIDE as usize;

    type Rules = TacticsRules;
    type State = TacticsState;
    type Command = TacticsCommand;
    type Event = TacticsEvent;
    type Level = TacticsLevel;
    /// A keyframe leaves out the terrain, which is the level's and never changes.
    type Keyframe = super::TacticsPlay;

    fn keyframe(state: &TacticsState) -> Cow<'_, super::TacticsPlay> {
        Cow::Owned(state.play())
    }

    fn from_keyframe(
        keyframe: super::TacticsPlay,
        start: Option<&TacticsState>,
    ) -> Result<TacticsState, KeyframeError> {
        // The registry fills in the log's rule set.
        let start = start.ok_or(KeyframeError::OtherRuleSet { keyframe: Self::NAME, log: "" })?;
        start.with_play(keyframe).map_err(KeyframeError::Invalid)
    }

    #[inline]
    fn apply_into<E: From<TacticsEvent>>(
        rules: &TacticsRules,
        state: &mut TacticsState,
        cmd: &TacticsCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        rules.apply_into(state, cmd, events)
    }

    fn start(level: &TacticsLevel, _seed: u64) -> Result<(TacticsRules, TacticsState), LevelError> {
        level.start()
    }

    fn set_version(rules: &mut TacticsRules, version: u32) -> bool {
        rules.set_version(version)
    }

    fn rules_version(rules: &TacticsRules) -> u32 {
        rules.version()
    }

    fn level_seed(level: &TacticsLevel) -> Option<u64> {
        level.seed
    }

    #[inline]
    fn hash(state: &TacticsState) -> u64 {
        state.hash()
    }

    fn recompute_hash(state: &TacticsState) -> u64 {
        state.recompute_hash()
    }

    fn board_json(state: &TacticsState) -> serde_json::Value {
        serde_json::json!({ "map": state.terrain().rows(), "units": state.units() })
    }

    fn score(state: &TacticsState) -> Option<u64> {
        let _ = state;
        None
    }

    fn replace_rng(state: &mut TacticsState, rng: GameRng) {
        let _ = (state, rng); // tactics draws nothing
    }

    #[cfg(feature = "strategy")]
    fn strategies() -> crate::strategy::Strategies {
        super::strategy::strategies()
    }

    fn render(state: &TacticsState) -> String {
        state.render()
    }
}
