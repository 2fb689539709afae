//! The [`Rules`] trait every rule set implements, and what it answers with.
//!
//! `Rules { apply, undo_event, redo_event, undo, redo, legal_commands, status }`, `Rejected { code,
//! message }`, `Status`.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// Whether a game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    /// Moves remain and no goal has been reached.
    Playing,
    /// The goal was reached. Some rule sets let play go on (2048's "keep going").
    Won,
    /// No move remains, or an objective failed.
    Over,
}

impl Status {
    /// `playing`, `won` or `over`.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Over => "over",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A command the rules refused. The state is unchanged and no event was pushed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Rejected {
    /// A short, stable, machine-readable code, such as `no_change` or `group_too_small`.
    pub code: &'static str,
    /// What a person reads: why the command was refused.
    pub message: Cow<'static, str>,
}

impl Rejected {
    /// A rejection with a fixed message (allocates nothing).
    pub const fn new(code: &'static str, message: &'static str) -> Self {
        Rejected { code, message: Cow::Borrowed(message) }
    }

    /// A rejection whose message names the particulars (a cell, a unit).
    pub fn detailed(code: &'static str, message: String) -> Self {
        Rejected { code, message: Cow::Owned(message) }
    }
}

/// A recorded event that does not fit the state it is redone on: a tile that is not there, a
/// cell off the board, an id out of order. What redo of untrusted events (a log a player sent)
/// answers instead of panicking; the state is left as it was before the step.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event {event}: {reason}")]
pub struct Inconsistent {
    /// The event's index in the step (0 for the first).
    pub event: usize,
    /// What does not fit, naming the cell, tile or id.
    pub reason: Cow<'static, str>,
}

impl Inconsistent {
    /// A misfit with a fixed reason (allocates nothing); [`Rules::redo`] fills in the index.
    pub const fn new(reason: &'static str) -> Self {
        Inconsistent { event: 0, reason: Cow::Borrowed(reason) }
    }

    /// A misfit whose reason names the particulars.
    pub fn detailed(reason: String) -> Self {
        Inconsistent { event: 0, reason: Cow::Owned(reason) }
    }
}

/// A rule set: how commands change a state, and how recorded events undo and redo that change.
///
/// The rules value itself is the configuration (board-independent settings such as 2048's target);
/// the state is the whole game, generator included.
///
/// Contract, checked for every rule set by the conformance kit (`crates/conformance`):
/// - `apply` either pushes the events of one step and returns `Ok`, or returns `Err(Rejected)`
///   having changed nothing and pushed nothing.
/// - `undo(events)` after `apply` restores the state exactly, generator position included.
/// - `redo(events)` after that undo gives the same state as the `apply` did, without drawing
///   from the generator.
/// - `redo` of events that do not fit the state (a forged or damaged log) returns
///   [`Inconsistent`] and leaves the state as it was, without panicking: every `redo_event`
///   checks the event against the state before changing anything.
/// - Every state keeps an incremental hash ([`crate::AnyState::hash`]) that `apply`,
///   `undo_event` and `redo_event` update at a cost that follows the event, and that always
///   equals the full recomputation.
/// - `apply`, `undo` and `redo` allocate nothing once `events` has capacity (hot paths).
pub trait Rules {
    /// The whole game: board, score, ids, generator. `Clone + Eq + serde`.
    type State: Clone + Eq + fmt::Debug + Serialize + for<'de> Deserialize<'de>;
    /// What a player does.
    type Command: Clone + Eq + fmt::Debug + Serialize + for<'de> Deserialize<'de>;
    /// What happened: enough to animate, undo and redo.
    type Event: Clone + Eq + fmt::Debug + Serialize + for<'de> Deserialize<'de>;

    /// Runs `cmd`, pushing its events into `events` (which is not cleared).
    fn apply(
        &self,
        state: &mut Self::State,
        cmd: &Self::Command,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Rejected>;

    /// Reverses one event. [`Rules::undo`] calls this for a step's events in reverse order.
    /// The event must be the last one applied or redone on `state` (undo is not checked: it
    /// only ever reverses what `apply` or a successful `redo` did).
    fn undo_event(&self, state: &mut Self::State, event: &Self::Event);

    /// Replays one recorded event, checked: an event that does not fit `state` changes nothing
    /// and is an [`Inconsistent`] error (with `event` 0; [`Rules::redo`] sets the index).
    fn redo_event(&self, state: &mut Self::State, event: &Self::Event) -> Result<(), Inconsistent>;

    /// The exact inverse of the `apply` that produced `events`.
    fn undo(&self, state: &mut Self::State, events: &[Self::Event]) {
        for e in events.iter().rev() {
            self.undo_event(state, e);
        }
    }

    /// Re-applies a step from its recorded events, drawing nothing from the generator. When an
    /// event does not fit, the events before it are undone, so the state is as it was, and the
    /// error names the event's index in `events`.
    fn redo(&self, state: &mut Self::State, events: &[Self::Event]) -> Result<(), Inconsistent> {
        for (i, e) in events.iter().enumerate() {
            if let Err(mut err) = self.redo_event(state, e) {
                for done in events[..i].iter().rev() {
                    self.undo_event(state, done);
                }
                err.event = i;
                return Err(err);
            }
        }
        Ok(())
    }

    /// Every command `apply` would accept now (for bots, hints and tests). Rule sets may list
    /// one representative per distinct outcome (one tap per group, say) and say so.
    fn legal_commands(&self, state: &Self::State) -> Vec<Self::Command>;

    /// Whether the game goes on.
    fn status(&self, state: &Self::State) -> Status;
}
