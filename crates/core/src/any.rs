//! One enum over the rule sets, for the apps and the log, which open any game without generics.
//!
//! [`AnyRules`] implements [`Rules`] over [`AnyState`], [`AnyCommand`] and [`AnyEvent`] by
//! dispatching to the rule set inside; a command or event of another rule set than the state's is
//! rejected (apply), ignored (undo) or [`Inconsistent`] (redo). Adding a rule set means one variant in each enum and
//! one arm in each `match` below.

use crate::collapse::{CollapseCommand, CollapseEvent, CollapseRules, CollapseState};
use crate::hash::state_hash;
use crate::match3::{Match3Command, Match3Event, Match3Rules, Match3State};
use crate::rng::GameRng;
use crate::rules::{Inconsistent, Rejected, Rules, Status};
use crate::slide::{SlideCommand, SlideEvent, SlideRules, SlideState};
use crate::tactics::{TacticsCommand, TacticsEvent, TacticsRules, TacticsState};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which rule set a game follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleSet {
    /// 2048.
    Slide,
    /// SameGame.
    Collapse,
    /// Turn-based tactics grid.
    Tactics,
    /// Match-3: swap, cascades, shuffle.
    Match3,
}

impl RuleSet {
    /// Every rule set, in a fixed order.
    pub const ALL: &'static [RuleSet] =
        &[RuleSet::Slide, RuleSet::Collapse, RuleSet::Tactics, RuleSet::Match3];

    /// The name used in levels, logs and command lines.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Slide => "slide",
            RuleSet::Collapse => "collapse",
            RuleSet::Tactics => "tactics",
            RuleSet::Match3 => "match3",
        }
    }

    /// The rule set called `name`.
    pub fn from_name(name: &str) -> Option<RuleSet> {
        RuleSet::ALL.iter().copied().find(|r| r.name() == name)
    }

    /// The version of this rule set's behaviour. Bump it whenever a change alters the events
    /// some command sequence produces; logs record it.
    pub const fn version(self) -> u32 {
        match self {
            RuleSet::Slide => 1,
            RuleSet::Collapse => 1,
            RuleSet::Tactics => 2,
            RuleSet::Match3 => 1,
        }
    }

    /// The command words `tessera play` accepts for this rule set (besides `undo` and `redo`).
    pub const fn command_help(self) -> &'static str {
        match self {
            RuleSet::Slide => "up | down | left | right",
            RuleSet::Collapse => "tap X Y",
            RuleSet::Tactics => "move UNIT X Y | move-along UNIT X Y X Y ... | end-turn",
            RuleSet::Match3 => "swap X1 Y1 X2 Y2",
        }
    }

    /// The largest board width or height this rule set's levels accept (its `MAX_SIDE`).
    pub const fn max_side(self) -> usize {
        let side = match self {
            RuleSet::Slide => crate::slide::MAX_SIDE,
            RuleSet::Collapse => crate::collapse::MAX_SIDE,
            RuleSet::Tactics => crate::tactics::MAX_SIDE,
            RuleSet::Match3 => crate::match3::MAX_SIDE,
        };
        side as usize
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules (settings) of any rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnyRules {
    /// 2048.
    Slide(SlideRules),
    /// SameGame.
    Collapse(CollapseRules),
    /// Turn-based tactics grid.
    Tactics(TacticsRules),
    /// Match-3.
    Match3(Match3Rules),
}

/// The state of a game of any rule set.
// A game holds one state at a time; boxing the larger variants would only add indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnyState {
    /// 2048.
    Slide(SlideState),
    /// SameGame.
    Collapse(CollapseState),
    /// Turn-based tactics grid.
    Tactics(TacticsState),
    /// Match-3.
    Match3(Match3State),
}

/// A command of any rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnyCommand {
    /// 2048.
    Slide(SlideCommand),
    /// SameGame.
    Collapse(CollapseCommand),
    /// Turn-based tactics grid.
    Tactics(TacticsCommand),
    /// Match-3.
    Match3(Match3Command),
}

/// An event of any rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnyEvent {
    /// 2048.
    Slide(SlideEvent),
    /// SameGame.
    Collapse(CollapseEvent),
    /// Turn-based tactics grid.
    Tactics(TacticsEvent),
    /// Match-3.
    Match3(Match3Event),
}

impl From<SlideEvent> for AnyEvent {
    fn from(e: SlideEvent) -> Self {
        AnyEvent::Slide(e)
    }
}

impl From<CollapseEvent> for AnyEvent {
    fn from(e: CollapseEvent) -> Self {
        AnyEvent::Collapse(e)
    }
}

impl From<TacticsEvent> for AnyEvent {
    fn from(e: TacticsEvent) -> Self {
        AnyEvent::Tactics(e)
    }
}

impl From<Match3Event> for AnyEvent {
    fn from(e: Match3Event) -> Self {
        AnyEvent::Match3(e)
    }
}

/// Rules and state together: a game of any rule set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The rules.
    pub rules: AnyRules,
    /// The state.
    pub state: AnyState,
}

impl AnyRules {
    /// The rule set.
    pub fn rule_set(&self) -> RuleSet {
        match self {
            AnyRules::Slide(_) => RuleSet::Slide,
            AnyRules::Collapse(_) => RuleSet::Collapse,
            AnyRules::Tactics(_) => RuleSet::Tactics,
            AnyRules::Match3(_) => RuleSet::Match3,
        }
    }

    /// A command worth trying now, changing nothing: for match3 a swap that makes a run (found by
    /// trying every swap), for other rule sets the first legal command. `None` when there is none.
    pub fn hint(&self, state: &AnyState) -> Option<AnyCommand> {
        match (self, state) {
            (AnyRules::Match3(r), AnyState::Match3(s)) => r.hint(s).map(AnyCommand::Match3),
            _ => self.legal_commands(state).into_iter().next(),
        }
    }
}

impl AnyState {
    /// The rule set.
    pub fn rule_set(&self) -> RuleSet {
        match self {
            AnyState::Slide(_) => RuleSet::Slide,
            AnyState::Collapse(_) => RuleSet::Collapse,
            AnyState::Tactics(_) => RuleSet::Tactics,
            AnyState::Match3(_) => RuleSet::Match3,
        }
    }

    /// The stable 64-bit hash of the state: the incremental hash the rules keep up to date
    /// ([`crate::keys`]), read in O(1). Log format version 2 records it.
    #[inline]
    pub fn hash(&self) -> u64 {
        match self {
            AnyState::Slide(s) => s.hash(),
            AnyState::Collapse(s) => s.hash(),
            AnyState::Tactics(s) => s.hash(),
            AnyState::Match3(s) => s.hash(),
        }
    }

    /// [`AnyState::hash`] computed from scratch over the whole state: the reference the kept
    /// hash is tested against (property tests; debug builds of `tessera_replay::History`).
    pub fn recompute_hash(&self) -> u64 {
        match self {
            AnyState::Slide(s) => s.recompute_hash(),
            AnyState::Collapse(s) => s.recompute_hash(),
            AnyState::Tactics(s) => s.recompute_hash(),
            AnyState::Match3(s) => s.recompute_hash(),
        }
    }

    /// The version 1 state hash: [`crate::state_hash`] (xxh3-64 of the canonical bincode
    /// encoding), O(size of the state). Log format version 1 recorded it; such logs are still
    /// verified with it.
    pub fn hash_v1(&self) -> u64 {
        match self {
            AnyState::Slide(s) => state_hash(s),
            AnyState::Collapse(s) => state_hash(s),
            AnyState::Tactics(s) => state_hash(s),
            AnyState::Match3(s) => state_hash(s),
        }
    }

    /// The board as the level format writes it (JSON).
    pub fn board_json(&self) -> serde_json::Value {
        match self {
            AnyState::Slide(s) => serde_json::json!(s.values()),
            AnyState::Collapse(s) => serde_json::json!(s.rows()),
            AnyState::Tactics(s) => serde_json::json!({ "map": s.terrain().rows(), "units": s.units() }),
            AnyState::Match3(s) => serde_json::json!(s.rows()),
        }
    }

    /// The score, for rule sets that keep one.
    pub fn score(&self) -> Option<u64> {
        match self {
            AnyState::Slide(s) => Some(s.score()),
            AnyState::Collapse(s) => Some(s.score()),
            AnyState::Tactics(_) => None,
            AnyState::Match3(s) => Some(s.score()),
        }
    }

    /// Replaces the state's generator with `rng` (a no-op for tactics, which draws nothing).
    /// For bots only: a determinized look-ahead plays on a copy of the state whose future
    /// spawns, refills and shuffles come from the bot's own generator, never the game's. Normal
    /// play never calls it, so no event or hash of a game changes.
    pub fn replace_rng(&mut self, rng: GameRng) {
        match self {
            AnyState::Slide(s) => {
                s.replace_rng(rng);
            }
            AnyState::Collapse(s) => {
                s.replace_rng(rng);
            }
            AnyState::Tactics(_) => {}
            AnyState::Match3(s) => {
                s.replace_rng(rng);
            }
        }
    }

    /// The board as text for a terminal.
    pub fn render(&self) -> String {
        match self {
            AnyState::Slide(s) => s.render(),
            AnyState::Collapse(s) => s.render(),
            AnyState::Tactics(s) => s.render(),
            AnyState::Match3(s) => s.render(),
        }
    }
}

impl AnyCommand {
    /// Parses one line of command text for `rule_set` (see [`RuleSet::command_help`]).
    pub fn parse(rule_set: RuleSet, text: &str) -> Result<AnyCommand, String> {
        match rule_set {
            RuleSet::Slide => text.parse().map(AnyCommand::Slide),
            RuleSet::Collapse => text.parse().map(AnyCommand::Collapse),
            RuleSet::Tactics => text.parse().map(AnyCommand::Tactics),
            RuleSet::Match3 => text.parse().map(AnyCommand::Match3),
        }
    }

    /// The rule set.
    pub fn rule_set(&self) -> RuleSet {
        match self {
            AnyCommand::Slide(_) => RuleSet::Slide,
            AnyCommand::Collapse(_) => RuleSet::Collapse,
            AnyCommand::Tactics(_) => RuleSet::Tactics,
            AnyCommand::Match3(_) => RuleSet::Match3,
        }
    }
}

impl fmt::Display for AnyCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyCommand::Slide(c) => c.fmt(f),
            AnyCommand::Collapse(c) => c.fmt(f),
            AnyCommand::Tactics(c) => c.fmt(f),
            AnyCommand::Match3(c) => c.fmt(f),
        }
    }
}

impl AnyEvent {
    /// The event as JSON, without the rule-set wrapper: `{"Moved": {...}}`.
    pub fn to_json(&self) -> serde_json::Value {
        let v = match self {
            AnyEvent::Slide(e) => serde_json::to_value(e),
            AnyEvent::Collapse(e) => serde_json::to_value(e),
            AnyEvent::Tactics(e) => serde_json::to_value(e),
            AnyEvent::Match3(e) => serde_json::to_value(e),
        };
        // Events are plain data: serialization to a JSON value cannot fail.
        v.unwrap_or(serde_json::Value::Null)
    }
}

const WRONG_RULE_SET: Rejected =
    Rejected::new("wrong_rule_set", "the command is for another rule set than the game");

impl Rules for AnyRules {
    type State = AnyState;
    type Command = AnyCommand;
    type Event = AnyEvent;

    fn apply(
        &self,
        state: &mut AnyState,
        cmd: &AnyCommand,
        events: &mut Vec<AnyEvent>,
    ) -> Result<(), Rejected> {
        match (self, state, cmd) {
            (AnyRules::Slide(r), AnyState::Slide(s), AnyCommand::Slide(c)) => r.apply_into(s, c, events),
            (AnyRules::Collapse(r), AnyState::Collapse(s), AnyCommand::Collapse(c)) => {
                r.apply_into(s, c, events)
            }
            (AnyRules::Tactics(r), AnyState::Tactics(s), AnyCommand::Tactics(c)) => {
                r.apply_into(s, c, events)
            }
            (AnyRules::Match3(r), AnyState::Match3(s), AnyCommand::Match3(c)) => r.apply_into(s, c, events),
            #[allow(unreachable_patterns)]
            _ => Err(WRONG_RULE_SET),
        }
    }

    #[allow(clippy::single_match)] // one arm per rule set; more join as they land
    fn undo_event(&self, state: &mut AnyState, event: &AnyEvent) {
        match (self, state, event) {
            (AnyRules::Slide(r), AnyState::Slide(s), AnyEvent::Slide(e)) => r.undo_event(s, e),
            (AnyRules::Collapse(r), AnyState::Collapse(s), AnyEvent::Collapse(e)) => r.undo_event(s, e),
            (AnyRules::Tactics(r), AnyState::Tactics(s), AnyEvent::Tactics(e)) => r.undo_event(s, e),
            (AnyRules::Match3(r), AnyState::Match3(s), AnyEvent::Match3(e)) => r.undo_event(s, e),
            #[allow(unreachable_patterns)]
            _ => {}
        }
    }

    fn redo_event(&self, state: &mut AnyState, event: &AnyEvent) -> Result<(), Inconsistent> {
        match (self, state, event) {
            (AnyRules::Slide(r), AnyState::Slide(s), AnyEvent::Slide(e)) => r.redo_event(s, e),
            (AnyRules::Collapse(r), AnyState::Collapse(s), AnyEvent::Collapse(e)) => r.redo_event(s, e),
            (AnyRules::Tactics(r), AnyState::Tactics(s), AnyEvent::Tactics(e)) => r.redo_event(s, e),
            (AnyRules::Match3(r), AnyState::Match3(s), AnyEvent::Match3(e)) => r.redo_event(s, e),
            _ => Err(Inconsistent::new("the event is of another rule set than the game")),
        }
    }

    fn legal_commands(&self, state: &AnyState) -> Vec<AnyCommand> {
        match (self, state) {
            (AnyRules::Slide(r), AnyState::Slide(s)) => {
                r.legal_commands(s).into_iter().map(AnyCommand::Slide).collect()
            }
            (AnyRules::Collapse(r), AnyState::Collapse(s)) => {
                r.legal_commands(s).into_iter().map(AnyCommand::Collapse).collect()
            }
            (AnyRules::Tactics(r), AnyState::Tactics(s)) => {
                r.legal_commands(s).into_iter().map(AnyCommand::Tactics).collect()
            }
            (AnyRules::Match3(r), AnyState::Match3(s)) => {
                r.legal_commands(s).into_iter().map(AnyCommand::Match3).collect()
            }
            #[allow(unreachable_patterns)]
            _ => Vec::new(),
        }
    }

    fn status(&self, state: &AnyState) -> Status {
        match (self, state) {
            (AnyRules::Slide(r), AnyState::Slide(s)) => r.status(s),
            (AnyRules::Collapse(r), AnyState::Collapse(s)) => r.status(s),
            (AnyRules::Tactics(r), AnyState::Tactics(s)) => r.status(s),
            (AnyRules::Match3(r), AnyState::Match3(s)) => r.status(s),
            #[allow(unreachable_patterns)]
            _ => Status::Over,
        }
    }
}
