//! Play mode: turns clicks, drags and keys into commands, and says what the pointer is about to
//! do, by asking the rule set's editor entry ([`crate::games`]): each game maps its input and
//! draws its hover overlay (the group a tap would clear and its score, the path a move would
//! take). [`PlayInput`] is the selection state the games share: a selected cell (match3's block,
//! tactics' unit) and a highlighted hint.
//!
//! `PlayInput` (the selection the games share: a selected cell, a hint pair), swipe detection, and
//! the routing of keys, board input and the hover overlay to the rule set.

use crate::board::{BoardInput, Overlay};
use crate::games;
use tessera_core::{AnyCommand, AnyRules, AnyState, Pos};

pub use crate::model::{PlayInput, swipe};

impl PlayInput {
    /// The command a key press means now, if any (none while Ctrl or Alt is held).
    pub fn key_command(rules: &AnyRules, ctx: &egui::Context) -> Option<AnyCommand> {
        let game = games::of(rules.rule_set())?;
        ctx.input(|i| {
            if i.modifiers.command || i.modifiers.alt {
                return None;
            }
            game.key_command(i)
        })
    }

    /// The command the pointer input on the board means, if any; updates the selection.
    pub fn board_command(
        &mut self,
        rules: &AnyRules,
        state: &AnyState,
        input: &BoardInput,
    ) -> Option<AnyCommand> {
        games::of(state.rule_set())?.board_command(self, rules, state, input)
    }

    /// What to draw over the board: the selection, the hint, and what the rule set shows for
    /// the hovered cell.
    pub fn overlay(&self, rules: &AnyRules, state: &AnyState, hovered: Option<Pos>) -> Overlay {
        let mut o = Overlay { selected: self.selected, ..Overlay::default() };
        if let Some((a, b)) = self.hint {
            o.highlights.extend([a, b]);
        }
        if let Some(g) = games::of(state.rule_set()) {
            g.overlay(self, rules, state, hovered, &mut o);
        }
        o
    }
}
