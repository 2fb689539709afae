//! The `slide` rule set as a [`Plugin`]: what the registry and the rest of tessera ask of it.

use super::{SlideCommand, SlideEvent, SlideLevel, SlideRules, SlideState};
use crate::{GameRng, KeyframeError, LevelError, Plugin, Rejected};
use std::borrow::Cow;

/// The `slide` rule set: 2048: slide every tile toward an edge, equal neighbours merge once, a tile spawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slide;

impl Plugin for Slide {
    const NAME: &'static str = "slide";
    const VERSION: u32 = 1;
    const COMMAND_HELP: &'static str = "up | down | left | right";
    const MAX_SIDE: usize = super::MAX_SIDE as usize;

    type Rules = SlideRules;
    type State = SlideState;
    type Command = SlideCommand;
    type Event = SlideEvent;
    type Level = SlideLevel;
    type Keyframe = SlideState;

    fn keyframe(state: &SlideState) -> Cow<'_, SlideState> {
        Cow::Borrowed(state)
    }

    fn from_keyframe(keyframe: SlideState, _start: Option<&SlideState>) -> Result<SlideState, KeyframeError> {
        Ok(keyframe)
    }

    #[inline]
    fn apply_into<E: From<SlideEvent>>(
        rules: &SlideRules,
        state: &mut SlideState,
        cmd: &SlideCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        rules.apply_into(state, cmd, events)
    }

    fn start(level: &SlideLevel, seed: u64) -> Result<(SlideRules, SlideState), LevelError> {
        level.start(seed)
    }

    fn level_seed(level: &SlideLevel) -> Option<u64> {
        level.seed
    }

    #[inline]
    fn hash(state: &SlideState) -> u64 {
        state.hash()
    }

    fn recompute_hash(state: &SlideState) -> u64 {
        state.recompute_hash()
    }

    fn board_json(state: &SlideState) -> serde_json::Value {
        serde_json::json!(state.values())
    }

    fn score(state: &SlideState) -> Option<u64> {
        Some(state.score())
    }

    fn replace_rng(state: &mut SlideState, rng: GameRng) {
        state.replace_rng(rng);
    }

    #[cfg(feature = "strategy")]
    fn strategies() -> crate::strategy::Strategies {
        super::strategy::strategies()
    }

    fn render(state: &SlideState) -> String {
        state.render()
    }

    #[inline]
    fn decode_event(bytes: &[u8]) -> Option<(SlideEvent, usize)> {
        super::encode::decode_event(bytes)
    }

    #[inline]
    fn encode_step<E: crate::EventOf<SlideEvent>>(
        tag: u32,
        command: &SlideCommand,
        events: &[E],
        hash: u64,
        buf: &mut Vec<u8>,
    ) -> bool {
        super::encode::encode_step(tag, command, events, hash, buf)
    }
}
