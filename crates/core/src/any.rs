//! One enum over the rule sets, for the apps and the log, which open any game without generics.
//!
//! [`AnyRules`] implements [`Rules`] over [`AnyState`], [`AnyCommand`] and [`AnyEvent`] by
//! dispatching to the rule set inside; a command or event of another rule set than the state's is
//! rejected (apply) or ignored (undo, redo). Adding a rule set means one variant in each enum and
//! one arm in each `match` below.

use crate::collapse::{CollapseCommand, CollapseEvent, CollapseRules, CollapseState};
use crate::hash::state_hash;
use crate::rules::{Rejected, Rules, Status};
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
}

impl RuleSet {
    /// Every rule set, in a fixed order.
    pub const ALL: &'static [RuleSet] = &[RuleSet::Slide, RuleSet::Collapse, RuleSet::Tactics];

    /// The name used in levels, logs and command lines.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Slide => "slide",
            RuleSet::Collapse => "collapse",
            RuleSet::Tactics => "tactics",
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
            RuleSet::Tactics => 1,
        }
    }

    /// The command words `tessera play` accepts for this rule set (besides `undo` and `redo`).
    pub const fn command_help(self) -> &'static str {
        match self {
            RuleSet::Slide => "up | down | left | right",
            RuleSet::Collapse => "tap X Y",
            RuleSet::Tactics => "move UNIT X Y | move-along UNIT X Y X Y ... | end-turn",
        }
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
        }
    }

    /// The stable 64-bit hash of the state (see [`crate::hash`]).
    pub fn hash(&self) -> u64 {
        match self {
            AnyState::Slide(s) => state_hash(s),
            AnyState::Collapse(s) => state_hash(s),
            AnyState::Tactics(s) => state_hash(s),
        }
    }

    /// The board as the level format writes it (JSON).
    pub fn board_json(&self) -> serde_json::Value {
        match self {
            AnyState::Slide(s) => serde_json::json!(s.values()),
            AnyState::Collapse(s) => serde_json::json!(s.rows()),
            AnyState::Tactics(s) => serde_json::json!({ "map": s.terrain().rows(), "units": s.units() }),
        }
    }

    /// The score, for rule sets that keep one.
    pub fn score(&self) -> Option<u64> {
        match self {
            AnyState::Slide(s) => Some(s.score()),
            AnyState::Collapse(s) => Some(s.score()),
            AnyState::Tactics(_) => None,
        }
    }

    /// The board as text for a terminal.
    pub fn render(&self) -> String {
        match self {
            AnyState::Slide(s) => s.render(),
            AnyState::Collapse(s) => s.render(),
            AnyState::Tactics(s) => s.render(),
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
        }
    }

    /// The rule set.
    pub fn rule_set(&self) -> RuleSet {
        match self {
            AnyCommand::Slide(_) => RuleSet::Slide,
            AnyCommand::Collapse(_) => RuleSet::Collapse,
            AnyCommand::Tactics(_) => RuleSet::Tactics,
        }
    }
}

impl fmt::Display for AnyCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyCommand::Slide(c) => c.fmt(f),
            AnyCommand::Collapse(c) => c.fmt(f),
            AnyCommand::Tactics(c) => c.fmt(f),
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
            #[allow(unreachable_patterns)]
            _ => {}
        }
    }

    #[allow(clippy::single_match)] // one arm per rule set; more join as they land
    fn redo_event(&self, state: &mut AnyState, event: &AnyEvent) {
        match (self, state, event) {
            (AnyRules::Slide(r), AnyState::Slide(s), AnyEvent::Slide(e)) => r.redo_event(s, e),
            (AnyRules::Collapse(r), AnyState::Collapse(s), AnyEvent::Collapse(e)) => r.redo_event(s, e),
            (AnyRules::Tactics(r), AnyState::Tactics(s), AnyEvent::Tactics(e)) => r.redo_event(s, e),
            #[allow(unreachable_patterns)]
            _ => {}
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
            #[allow(unreachable_patterns)]
            _ => Vec::new(),
        }
    }

    fn status(&self, state: &AnyState) -> Status {
        match (self, state) {
            (AnyRules::Slide(r), AnyState::Slide(s)) => r.status(s),
            (AnyRules::Collapse(r), AnyState::Collapse(s)) => r.status(s),
            (AnyRules::Tactics(r), AnyState::Tactics(s)) => r.status(s),
            #[allow(unreachable_patterns)]
            _ => Status::Over,
        }
    }
}
