//! `puzzlescript`: games written in the PuzzleScript rules language, as a tessera rule set.
//!
//! A designer writes a game's objects, legend, collision layers, rules, win conditions and
//! levels in PuzzleScript; tessera compiles it ([`engine`], following the reference engine's
//! semantics exactly, proven on its 470-case regression suite) and plays one of its levels with
//! everything tessera adds: logs that replay forever, exact undo and redo, the debugger, bots.
//!
//! **Levels.** A [`PuzzleScriptLevel`] embeds the game's whole source and names one playable
//! level (from 0; messages between levels are not levels), so a log is self-contained.
//! `tessera convert puzzlescript GAME.txt OUTDIR` writes one level file per playable level.
//!
//! **Commands** ([`PuzzleScriptCommand`]): `up`, `down`, `left`, `right`, `action`, `tick` (a
//! turn with no input) and `restart` (back to the last `checkpoint`, or the level's start). One
//! command is one step: the turn it makes, then every `again` turn that turn queues, in order,
//! until none is queued (at most [`MAX_TURNS`] turns a step). `action` is refused when the game
//! says `noaction`, `restart` when it says `norestart`; a command whose step changes nothing and
//! says nothing (no sound, no message) is refused (`no_change`), as PuzzleScript keeps no undo
//! state for it. Once the level is won every command is refused (`won`).
//!
//! **Events** ([`PuzzleScriptEvent`]): each turn opens with `Turn`; then `Rule` (the source line
//! of each rule that changed cells, and which), `Moved` (each object's movement), `Cell` (a
//! cell's objects before and after the turn), `Aux` (the rest of the game's state before and
//! after: the generator, the checkpoint), `Sound`, `Message`, `Cancelled`; the step that wins
//! ends with `Won`. Undo and redo use `Cell` and `Aux` only, so they are exact by construction and
//! redo draws nothing from the generator; PuzzleScript's own undo (a stack of snapshots) gives
//! the same boards. One difference, on purpose: tessera's undo also takes back a `checkpoint`
//! the undone step set (PuzzleScript keeps it), because an undo here restores the whole state.
//!
//! **Randomness.** `random` and `randomdir` draw from PuzzleScript's own generator (RC4, seeded
//! with a string), reproduced exactly: the level's seed `N` seeds it as the string of N's decimal
//! digits.
//!
//! **Versions.** Rules version 4 (today's) refuses a step that leaves every object where it
//! was and says nothing (`no_change`), the action key's included: the reference keeps no undo
//! state for such a turn, and version 3 kept an action that changed nothing as a step (its only
//! event the player's "move" onto its own cell). Version 3 checks the win conditions at the end of a step only,
//! as the reference does: a level that starts in a winning layout is won by its first step (any
//! step, even one that moves nothing), where version 2 and older had it won from the start.
//! Version 2 opens a level as the reference does: when
//! `run_rules_on_level_start` queues `again`, those turns run before the first command (at most
//! [`MAX_TURNS`]); and the `again` check, a turn the reference tries and undoes to see whether
//! the queued turn would change anything, leaves no `Rule` events. Version 1 did neither; it is
//! kept (`set_version(1)`, [`PuzzleScriptLevel::start_version`]) so its logs replay.
//!
//! **Hash.** The XOR of one key per non-empty cell (its index and objects), one key of the rest
//! of the state (`Aux`) and the won flag: each `Cell` event changes one cell's key.
//!
//! The level embeds the source; `Rules` serialize as the source and the level's entry and compile
//! again when read.
//!
//! The reference suite is `tests/puzzlescript.rs` (470/470), its compiler cases
//! `tests/puzzlescript_compiler.rs` (300/300 on the accept/refuse split and the error count), the
//! differential test against the reference under Node `tests/puzzlescript_reference.rs` (random
//! inputs; the solver's solutions on the fixture games, which must win there at their last step:
//! `won_at`) (`tools/puzzlescript/reference.js`), the parser's robustness
//! `tests/puzzlescript_props.rs` and `fuzz/fuzz_targets/puzzlescript.rs`;
//! `fuzz/fuzz_targets/puzzlescript_bounds.rs` compiles and plays a few steps of any source under
//! memory and time limits, its body shared with the stable harness
//! `examples/puzzlescript_fuzz_bounds/`.

/// The PuzzleScript language itself (parser, compiler, turn engine, solver): its own crate.
pub use tessera_puzzlescript as engine;

mod apply;
mod bridge;
mod decode;
mod entries;
mod event;
mod import;
mod level;
mod meta;
mod mirror;
mod plugin;
pub mod solve;
mod source;
mod state;
#[cfg(feature = "strategy")]
pub mod strategy;
mod undo;

#[cfg(test)]
mod tests;

pub use apply::{
    RUN_BUDGET_SPENT, RUN_TURN_WORK, StepReport, run_work_left, spend_run_work, with_run_budget,
};
pub use event::{PuzzleScriptCommand, PuzzleScriptEvent};
pub use import::{IMPORTERS, import_level};
pub use level::{GameLevels, PuzzleScriptLevel, describe_errors, entry_of, playable_count};
pub use plugin::{HINT_BYTES, HINT_NODES, HINT_SEARCH, PuzzleScript, PuzzleScriptKeyframe};
pub use solve::{
    Aids, HintVerdict, Search, SolutionMemo, SolveLimits, SolveOutcome, SolveReport, hint_verdict, solve,
    solve_aided, solve_parallel, solve_with,
};
pub use source::{Glyph, LevelEdit, Palette, edit_levels, legend, level_rows, palette, with_level_rows};
pub use state::{Meta, PuzzleScriptState};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// A small game to start from (crates onto targets; legend `.` floor, `#` wall, `P` player, `*`
/// crate, `O` target, `@` crate on target, `Q` player on target): what the editor's New level
/// begins with.
pub const STARTER_GAME: &str = include_str!("starter.txt");

pub use tessera_puzzlescript::{MAX_SIDE, MAX_STEP_WORK, MAX_TURNS, set_step_work, step_work};

/// The rules of one PuzzleScript level: the compiled game and which entry of its level list is
/// played, and the version of the rules they behave as (see [`PuzzleScriptRules::set_version`]).
/// Serialized as the source and the entry (and compiled again when read, as today's version),
/// compared by all three.
#[derive(Clone)]
pub struct PuzzleScriptRules {
    game: Arc<engine::Game>,
    source: Arc<str>,
    entry: usize,
    version: u32,
    /// The most work one step may do ([`PuzzleScriptRules::set_step_work_limit`]; the process's
    /// step bound, [`step_work`], when made; a setting of this process, not of the level:
    /// neither compared nor serialized).
    step_work: u64,
}

impl PuzzleScriptRules {
    /// The rules of entry `entry` (messages included) of the compiled `game` whose source is
    /// `source`, as today's version.
    pub fn new(game: Arc<engine::Game>, source: Arc<str>, entry: usize) -> Self {
        PuzzleScriptRules {
            game,
            source,
            entry,
            version: <PuzzleScript as crate::Plugin>::VERSION,
            step_work: engine::step_work(),
        }
    }

    /// The version of the rules these behave as.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Makes these rules behave as `version` did; false (unchanged) for a version this build
    /// does not keep. Version 4 (today's) refuses a step that leaves every object where it was
    /// (`no_change`), an action key's "move" of the player onto its own cell included, as the
    /// reference keeps no undo state for it; version 3 kept such an action as a step. Version 3
    /// has a level that starts in a winning layout won by
    /// its first step, not from the start; version 2 runs the `again` turns a `run_rules_on_level_start`
    /// turn queues as the level starts, and leaves the rules of the `again` check (a turn tried
    /// and undone) out of the `Rule` events; version 1 did neither.
    pub fn set_version(&mut self, version: u32) -> bool {
        let keeps = (<PuzzleScript as crate::Plugin>::OLDEST_VERSION
            ..=<PuzzleScript as crate::Plugin>::VERSION)
            .contains(&version);
        if keeps {
            self.version = version;
        }
        keeps
    }

    /// The compiled game.
    pub fn game(&self) -> &engine::Game {
        &self.game
    }

    /// The compiled game, shared.
    pub fn game_arc(&self) -> Arc<engine::Game> {
        Arc::clone(&self.game)
    }

    /// The game's source.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The played entry of the game's level list (messages included).
    pub fn entry(&self) -> usize {
        self.entry
    }
}

impl PartialEq for PuzzleScriptRules {
    fn eq(&self, other: &Self) -> bool {
        self.entry == other.entry && self.version == other.version && self.source == other.source
    }
}

impl Eq for PuzzleScriptRules {}

impl fmt::Debug for PuzzleScriptRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PuzzleScriptRules")
            .field("entry", &self.entry)
            .field("version", &self.version)
            .field("source_bytes", &self.source.len())
            .finish()
    }
}

/// The serialized form of [`PuzzleScriptRules`].
#[derive(Serialize, Deserialize)]
struct RulesForm {
    source: String,
    entry: usize,
}

impl Serialize for PuzzleScriptRules {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RulesForm { source: self.source.to_string(), entry: self.entry }.serialize(s)
    }
}

impl<'de> Deserialize<'de> for PuzzleScriptRules {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let form = RulesForm::deserialize(d)?;
        let game =
            engine::compile(&form.source).map_err(|e| serde::de::Error::custom(describe_errors(&e)))?;
        if !matches!(game.levels().get(form.entry), Some(engine::LevelEntry::Level { .. })) {
            return Err(serde::de::Error::custom(format!("entry {} is not a level of the game", form.entry)));
        }
        Ok(PuzzleScriptRules::new(Arc::new(game), Arc::from(form.source), form.entry))
    }
}
