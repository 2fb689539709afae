//! The `puzzlescript` rule set as a [`Plugin`]: what the registry and the rest of tessera ask of
//! it.

use super::{
    PuzzleScriptCommand, PuzzleScriptEvent, PuzzleScriptLevel, PuzzleScriptRules, PuzzleScriptState, engine,
};
use crate::{GameRng, KeyframeError, LevelError, Plugin, Rejected};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The `puzzlescript` rule set: a level of a game written in PuzzleScript.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PuzzleScript;

/// A keyframe: the engine's state and the won flag (the view data comes from the log's start).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleScriptKeyframe {
    inner: engine::State,
    won: bool,
}

impl Plugin for PuzzleScript {
    const NAME: &'static str = "puzzlescript";
    /// 3: a level that starts in a winning layout is not won until the end of a turn (the
    /// reference checks the win conditions only there). 2: a level's start runs the `again`
    /// turns its `run_rules_on_level_start` turn queues, and the `again` check's rules are not
    /// traced; 1 did neither (kept, for its logs, as 2 is).
    const VERSION: u32 = 4;
    const OLDEST_VERSION: u32 = 1;
    const COMMAND_HELP: &'static str = "up | down | left | right | action | tick | restart";
    const IMPORTERS: &'static [crate::Importer] = super::import::IMPORTERS;
    const MAX_SIDE: usize = super::MAX_SIDE;

    type Rules = PuzzleScriptRules;
    type State = PuzzleScriptState;
    type Command = PuzzleScriptCommand;
    type Event = PuzzleScriptEvent;
    type Level = PuzzleScriptLevel;
    type Keyframe = PuzzleScriptKeyframe;

    fn keyframe(state: &PuzzleScriptState) -> Cow<'_, PuzzleScriptKeyframe> {
        Cow::Owned(PuzzleScriptKeyframe { inner: state.engine().clone(), won: state.is_won() })
    }

    fn from_keyframe(
        keyframe: PuzzleScriptKeyframe,
        start: Option<&PuzzleScriptState>,
    ) -> Result<PuzzleScriptState, KeyframeError> {
        let Some(start) = start else {
            return Err(KeyframeError::Invalid("a puzzlescript keyframe needs the log's start state".into()));
        };
        super::bridge::check_shape(&keyframe.inner, start.meta()).map_err(KeyframeError::Invalid)?;
        Ok(PuzzleScriptState::new(start.meta_arc(), keyframe.inner, keyframe.won))
    }

    #[inline]
    fn apply_into<E: From<PuzzleScriptEvent>>(
        rules: &PuzzleScriptRules,
        state: &mut PuzzleScriptState,
        cmd: &PuzzleScriptCommand,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected> {
        rules.apply_into(state, cmd, events)
    }

    fn start(
        level: &PuzzleScriptLevel,
        seed: u64,
    ) -> Result<(PuzzleScriptRules, PuzzleScriptState), LevelError> {
        level.start(seed)
    }

    fn start_version(
        level: &PuzzleScriptLevel,
        seed: u64,
        version: u32,
    ) -> Result<(PuzzleScriptRules, PuzzleScriptState), LevelError> {
        level.start_version(seed, version)
    }

    fn set_version(rules: &mut PuzzleScriptRules, version: u32) -> bool {
        rules.set_version(version)
    }

    fn rules_version(rules: &PuzzleScriptRules) -> u32 {
        rules.version()
    }

    fn level_seed(level: &PuzzleScriptLevel) -> Option<u64> {
        level.seed
    }

    #[inline]
    fn hash(state: &PuzzleScriptState) -> u64 {
        state.hash()
    }

    fn recompute_hash(state: &PuzzleScriptState) -> u64 {
        state.recompute_hash()
    }

    /// Rows of cells, each cell the names of its objects separated by spaces.
    fn board_json(state: &PuzzleScriptState) -> serde_json::Value {
        serde_json::json!(state.names())
    }

    /// No score: PuzzleScript games are won or not.
    fn score(_state: &PuzzleScriptState) -> Option<u64> {
        None
    }

    /// Seeds PuzzleScript's generator with the digits of `rng`'s seed (bots' determinized
    /// look-ahead), keeping the hash.
    fn replace_rng(state: &mut PuzzleScriptState, rng: GameRng) {
        state.reseed(&rng.seed().to_string());
    }

    fn render(state: &PuzzleScriptState) -> String {
        state.render()
    }

    #[inline]
    fn decode_event(bytes: &[u8]) -> Option<(PuzzleScriptEvent, usize)> {
        super::decode::decode_event(bytes)
    }

    /// The first command of a solution when the solver ([`HINT_SEARCH`]) finds one within
    /// [`HINT_NODES`] expansions; else none: never a command from a search that found no
    /// solution (proved none from here, out of budget, none found in a random game, or won
    /// already). [`hint_verdict`](super::hint_verdict) says which.
    fn hint(rules: &PuzzleScriptRules, state: &PuzzleScriptState) -> Option<PuzzleScriptCommand> {
        let limits = super::SolveLimits { max_nodes: HINT_NODES, max_bytes: HINT_BYTES };
        match super::solve_with(rules, state, limits, HINT_SEARCH, &mut || false).outcome {
            super::SolveOutcome::Solved(commands) => commands.first().copied(),
            _ => None,
        }
    }

    #[cfg(feature = "strategy")]
    fn strategies() -> crate::strategy::Strategies {
        super::strategy::strategies()
    }
}

/// How many states the hint's solver may expand (a fraction of a second on small levels).
pub const HINT_NODES: u64 = 50_000;

/// The hint's search: the mixed one (A*, greedy and width in turns), which answered on the most of the suite's levels
/// (every level A* solved among them; its solutions a few steps longer than A*'s on some).
pub const HINT_SEARCH: super::Search = super::Search::Mixed;

/// How many bytes of stored states the hint's solver may keep.
pub const HINT_BYTES: u64 = 64 << 20;
