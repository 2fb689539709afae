//! Play mode: turns clicks, drags and keys into commands for each rule set, and says what the
//! pointer is about to do (the group a tap would clear, the path a move would take).
//!
//! - `slide`: arrow keys, WASD, or a swipe (a drag on the board).
//! - `collapse`: click a group; hovering shows the group and what it would score.
//! - `match3`: click a block, then a neighbour to swap (click it again to deselect, click a
//!   non-neighbour to select that one instead, as seed 000), or drag a block onto a neighbour.
//! - `tactics`: click a unit of the side to play to show its range; hover a cell in range for
//!   the path, drawn with the seed's pieces; click to move there. End turn with the button.

use crate::board::{BoardInput, Overlay};
use tessera_core::collapse::{CollapseCommand, CollapseState};
use tessera_core::match3::Match3Command;
use tessera_core::slide::SlideCommand;
use tessera_core::tactics::{TacticsCommand, Weight};
use tessera_core::{AnyCommand, AnyRules, AnyState, Dir, Pos};

/// What the player has picked but not yet played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayInput {
    /// match3: the block picked for a swap; tactics: the unit's cell.
    pub selected: Option<Pos>,
    /// match3: the swap the hint button found.
    pub hint: Option<(Pos, Pos)>,
}

/// Minimum drag, in cells, that counts as a swipe.
const SWIPE: f32 = 0.4;

impl PlayInput {
    /// Forgets selections (after a step, undo, or a new game).
    pub fn clear(&mut self) {
        *self = PlayInput::default();
    }

    /// The command a key press means now, if any (`slide` only).
    pub fn key_command(rules: &AnyRules, ctx: &egui::Context) -> Option<AnyCommand> {
        if !matches!(rules, AnyRules::Slide(_)) {
            return None;
        }
        use egui::Key;
        let keys = [
            (Key::ArrowUp, Dir::Up),
            (Key::W, Dir::Up),
            (Key::ArrowDown, Dir::Down),
            (Key::S, Dir::Down),
            (Key::ArrowLeft, Dir::Left),
            (Key::A, Dir::Left),
            (Key::ArrowRight, Dir::Right),
            (Key::D, Dir::Right),
        ];
        ctx.input(|i| {
            if i.modifiers.command || i.modifiers.alt {
                return None;
            }
            keys.iter()
                .find(|(k, _)| i.key_pressed(*k))
                .map(|&(_, d)| AnyCommand::Slide(SlideCommand::Slide(d)))
        })
    }

    /// The command the pointer input on the board means, if any; updates the selection.
    pub fn board_command(
        &mut self,
        rules: &AnyRules,
        state: &AnyState,
        input: &BoardInput,
    ) -> Option<AnyCommand> {
        match state {
            AnyState::Slide(_) => {
                let (_, d) = input.swipe?;
                if d.x.abs().max(d.y.abs()) < SWIPE {
                    return None;
                }
                let dir = if d.x.abs() > d.y.abs() {
                    if d.x > 0.0 { Dir::Right } else { Dir::Left }
                } else if d.y > 0.0 {
                    Dir::Down
                } else {
                    Dir::Up
                };
                Some(AnyCommand::Slide(SlideCommand::Slide(dir)))
            }
            AnyState::Collapse(_) => input.clicked.map(|p| AnyCommand::Collapse(CollapseCommand::Tap(p))),
            AnyState::Match3(s) => {
                if let Some((from, d)) = input.swipe
                    && d.x.abs().max(d.y.abs()) >= SWIPE
                {
                    let (dx, dy) = if d.x.abs() > d.y.abs() {
                        (d.x.signum() as i32, 0)
                    } else {
                        (0, d.y.signum() as i32)
                    };
                    let to = from.offset(dx, dy, s.size())?;
                    self.selected = None;
                    return Some(AnyCommand::Match3(Match3Command::Swap(from, to)));
                }
                let p = input.clicked?;
                match self.selected {
                    Some(sel) if sel == p => {
                        self.selected = None;
                        None
                    }
                    Some(sel) if sel.is_orthogonal_neighbour(p) => {
                        self.selected = None;
                        Some(AnyCommand::Match3(Match3Command::Swap(sel, p)))
                    }
                    _ => {
                        self.selected = s.blocks().get(p).copied().flatten().map(|_| p);
                        None
                    }
                }
            }
            AnyState::Tactics(s) => {
                let p = input.clicked?;
                if let Some(u) = s.unit_at(p) {
                    // Select a unit of the side to play (click it again to deselect).
                    self.selected = (u.team == s.team() && self.selected != Some(p)).then_some(p);
                    return None;
                }
                let unit = s.unit_at(self.selected?)?.id;
                let AnyRules::Tactics(r) = rules else { return None };
                if r.reachable(s, unit).iter().any(|&(c, _)| c == p) {
                    self.selected = Some(p);
                    Some(AnyCommand::Tactics(TacticsCommand::Move { unit, to: p }))
                } else {
                    None
                }
            }
        }
    }

    /// What to draw over the board: the selection, the hint, the hovered group and its score,
    /// the selected unit's range and the path to the hovered cell.
    pub fn overlay(&self, rules: &AnyRules, state: &AnyState, hovered: Option<Pos>) -> Overlay {
        let mut o = Overlay { selected: self.selected, ..Overlay::default() };
        if let Some((a, b)) = self.hint {
            o.highlights.extend([a, b]);
        }
        match (rules, state) {
            (AnyRules::Collapse(r), AnyState::Collapse(s)) => {
                if let Some(p) = hovered {
                    let (group, points) = group_preview(r.config.min_group, r.config.scoring, s, p);
                    if !group.is_empty() {
                        o.tooltip = Some(format!("{} tiles: +{points}", group.len()));
                        o.highlights.extend(group);
                    }
                }
            }
            (AnyRules::Tactics(r), AnyState::Tactics(s)) => {
                if let Some(u) = self.selected.and_then(|p| s.unit_at(p)) {
                    let range = r.reachable(s, u.id);
                    o.range = range.iter().map(|&(p, _)| p).collect();
                    if let Some(h) = hovered
                        && let Some(&(_, cost)) = range.iter().find(|&&(c, _)| c == h)
                        && let Some(path) = r.path_for(s, u.id, h, Weight::OPTIMAL)
                    {
                        o.path = path.cells;
                        o.tooltip = Some(format!("cost {}", tessera_core::tactics::fmt_cost(cost)));
                    }
                }
            }
            _ => {}
        }
        o
    }
}

/// The group a tap at `p` would clear (empty when too small) and what it would score.
pub fn group_preview(
    min_group: u32,
    scoring: tessera_core::collapse::Scoring,
    s: &CollapseState,
    p: Pos,
) -> (Vec<Pos>, u64) {
    let group = s.group_at(p);
    if (group.len() as u32) < min_group.max(1) {
        return (Vec::new(), 0);
    }
    let n = group.len() as u32;
    let bonus = if group.len() == s.tile_count() { scoring.clear_bonus() } else { 0 };
    (group, scoring.points(n) + bonus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selected_unit_shows_its_range_and_the_path_to_the_hovered_cell() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/levels/skirmish.json"
        ))
        .expect("fixture");
        let game = tessera_core::Level::from_json(&text).expect("level").start(None).expect("starts");
        let mut input = PlayInput::default();
        let click = BoardInput { clicked: Some(Pos::new(4, 2)), ..BoardInput::default() };
        assert_eq!(input.board_command(&game.rules, &game.state, &click), None);
        assert_eq!(input.selected, Some(Pos::new(4, 2)));
        let o = input.overlay(&game.rules, &game.state, Some(Pos::new(4, 7)));
        assert!(o.range.contains(&Pos::new(4, 7)), "the bridge's far side is in range");
        assert_eq!(o.path.first(), Some(&Pos::new(4, 2)));
        assert_eq!(o.path.last(), Some(&Pos::new(4, 7)));
        assert!(o.tooltip.is_some_and(|t| t.starts_with("cost")));
    }
}
