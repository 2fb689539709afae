//! Dispatch of the mirror projection over [`AnyState`] and [`AnyEvent`]: one arm per rule set
//! (the registry's job; each rule set's projection is in its own `mirror.rs`).

use crate::collapse::CollapseRules;
use crate::match3::Match3Rules;
use crate::project::{Ops, Piece, Project};
use crate::slide::SlideRules;
use crate::tactics::TacticsRules;
use crate::{AnyEvent, AnyState, RuleSet, Size};

/// Pushes every ground cell and piece of `state` onto `out` ([`Project::pieces`]); returns the
/// board's size.
pub fn project_state(state: &AnyState, out: &mut Vec<Piece>) -> Size {
    match state {
        AnyState::Slide(s) => project::<SlideRules>(s, out),
        AnyState::Collapse(s) => project::<CollapseRules>(s, out),
        AnyState::Tactics(s) => project::<TacticsRules>(s, out),
        AnyState::Match3(s) => project::<Match3Rules>(s, out),
    }
}

/// Pushes the ops of `event` onto `out` ([`Project::ops`]); returns the event's rule set.
pub fn project_event(event: &AnyEvent, out: &mut Ops) -> RuleSet {
    match event {
        AnyEvent::Slide(e) => {
            SlideRules::ops(e, out);
            RuleSet::Slide
        }
        AnyEvent::Collapse(e) => {
            CollapseRules::ops(e, out);
            RuleSet::Collapse
        }
        AnyEvent::Tactics(e) => {
            TacticsRules::ops(e, out);
            RuleSet::Tactics
        }
        AnyEvent::Match3(e) => {
            Match3Rules::ops(e, out);
            RuleSet::Match3
        }
    }
}

fn project<P: Project>(state: &P::State, out: &mut Vec<Piece>) -> Size {
    P::pieces(state, out);
    P::size(state)
}
