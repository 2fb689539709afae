//! Following events: one handler per rule set, each checking that the event fits before it
//! changes anything, then moving, spawning and removing entities with their animations.

use crate::components::{Anim, AnimKind, Kind};
use crate::error::MirrorError;
use crate::mirror::{Mirror, Stage};
use hecs::Entity;
use tessera_core::collapse::CollapseEvent;
use tessera_core::match3::Match3Event;
use tessera_core::slide::SlideEvent;
use tessera_core::tactics::TacticsEvent;
use tessera_core::{AnyEvent, Id, Pos, RuleSet};

fn event_rule_set(event: &AnyEvent) -> RuleSet {
    match event {
        AnyEvent::Slide(_) => RuleSet::Slide,
        AnyEvent::Collapse(_) => RuleSet::Collapse,
        AnyEvent::Tactics(_) => RuleSet::Tactics,
        AnyEvent::Match3(_) => RuleSet::Match3,
    }
}

/// Fails if two of `items` are equal.
fn distinct<T: Ord + Copy>(
    items: impl Iterator<Item = T>,
    err: impl Fn(T) -> MirrorError,
) -> Result<(), MirrorError> {
    let mut v: Vec<T> = items.collect();
    v.sort_unstable();
    match v.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(err(w[0])),
        None => Ok(()),
    }
}

impl Mirror {
    pub(crate) fn follow(&mut self, event: &AnyEvent, forward: bool) -> Result<(), MirrorError> {
        let rule_set = event_rule_set(event);
        if rule_set != self.rule_set {
            return Err(MirrorError::WrongRuleSet { mirror: self.rule_set, event: rule_set });
        }
        let result = match event {
            AnyEvent::Slide(e) => self.slide(e, forward),
            AnyEvent::Collapse(e) => self.collapse(e, forward),
            AnyEvent::Match3(e) => self.match3(e, forward),
            AnyEvent::Tactics(e) => self.tactics(e, forward),
        };
        if result.is_ok() {
            self.reversed = !forward;
        }
        result
    }

    /// Moves piece `id` from `from` to `to` (checked) with an animation of `kind`.
    fn move_one(
        &mut self,
        id: Id,
        from: Pos,
        to: Pos,
        stage: Stage,
        kind: AnimKind,
    ) -> Result<Entity, MirrorError> {
        let e = self.piece(id, from)?;
        self.free(to, &[e])?;
        let phase = self.phase(stage, None);
        self.move_piece(e, from, to, Anim::new(kind, from, to, phase));
        Ok(e)
    }

    /// Puts a new piece `id` of `what` on `at` (checked), animated as `kind`.
    fn spawn_one(
        &mut self,
        id: Id,
        at: Pos,
        what: Kind,
        stage: Stage,
        kind: AnimKind,
    ) -> Result<(), MirrorError> {
        self.free(at, &[])?;
        self.new_id(id)?;
        let phase = self.phase(stage, None);
        self.spawn_piece(id, at, what, Anim::new(kind, at, at, phase));
        Ok(())
    }

    /// Removes piece `id` from `at` (checked), leaving a ghost animated as `kind`.
    fn remove_one(&mut self, id: Id, at: Pos, stage: Stage, kind: AnimKind) -> Result<(), MirrorError> {
        let e = self.piece(id, at)?;
        let phase = self.phase(stage, None);
        self.remove_piece(e, id, at, Anim::new(kind, at, at, phase));
        Ok(())
    }

    /// Moves `a` from `pa` to `pb` and `b` from `pb` to `pa`.
    fn swap_two(
        &mut self,
        a: (Id, Pos),
        b: (Id, Pos),
        stage: Stage,
        kind: AnimKind,
    ) -> Result<(), MirrorError> {
        let ea = self.piece(a.0, a.1)?;
        let eb = self.piece(b.0, b.1)?;
        if ea == eb {
            return Err(MirrorError::DuplicateCell { pos: a.1 });
        }
        let phase = self.phase(stage, None);
        self.lift(ea, a.1);
        self.lift(eb, b.1);
        self.place(ea, b.1);
        self.place(eb, a.1);
        self.animate(ea, Anim::new(kind, a.1, b.1, phase));
        self.animate(eb, Anim::new(kind, b.1, a.1, phase));
        Ok(())
    }

    /// Moves many pieces at once (`(id, from, to)`): every destination must be free or left by
    /// one of the moving pieces, and destinations must differ.
    fn move_many(
        &mut self,
        moves: &[(Id, Pos, Pos)],
        stage: Stage,
        kind: AnimKind,
    ) -> Result<(), MirrorError> {
        let entities =
            moves.iter().map(|&(id, from, _)| self.piece(id, from)).collect::<Result<Vec<_>, _>>()?;
        for &(_, _, to) in moves {
            self.free(to, &entities)?;
        }
        distinct(moves.iter().map(|m| (m.2.y, m.2.x)), |(y, x)| MirrorError::DuplicateCell {
            pos: Pos::new(x, y),
        })?;
        distinct(moves.iter().map(|m| m.0), |id| MirrorError::DuplicateId { id })?;
        if moves.is_empty() {
            return Ok(());
        }
        let phase = self.phase(stage, None);
        for (&e, &(_, from, _)) in entities.iter().zip(moves) {
            self.lift(e, from);
        }
        for (&e, &(_, from, to)) in entities.iter().zip(moves) {
            self.place(e, to);
            self.animate(e, Anim::new(kind, from, to, phase));
        }
        Ok(())
    }

    fn slide(&mut self, event: &SlideEvent, forward: bool) -> Result<(), MirrorError> {
        match *event {
            SlideEvent::Moved { tile, from, to } => {
                let (from, to) = if forward { (from, to) } else { (to, from) };
                self.move_one(tile, from, to, Stage::Move, AnimKind::Slide).map(drop)
            }
            SlideEvent::Merged { tile, from, absorbed, absorbed_from, to, value, .. } => {
                if forward {
                    let s = self.piece(tile, from)?;
                    let a = self.piece(absorbed, absorbed_from)?;
                    if s == a {
                        return Err(MirrorError::DuplicateCell { pos: from });
                    }
                    self.free(to, &[s, a])?;
                    let phase = self.phase(Stage::Move, None);
                    self.remove_piece(
                        a,
                        absorbed,
                        absorbed_from,
                        Anim::new(AnimKind::Merge, absorbed_from, to, phase),
                    );
                    self.set_kind(s, |k| *k = Kind::SlideTile { value });
                    // The survivor moves from → to (equal for a single combine).
                    self.move_piece(s, from, to, Anim::new(AnimKind::Merge, from, to, phase));
                } else {
                    let s = self.piece(tile, to)?;
                    if from == absorbed_from {
                        return Err(MirrorError::DuplicateCell { pos: from });
                    }
                    self.free(from, &[s])?;
                    self.free(absorbed_from, &[s])?;
                    self.new_id(absorbed)?;
                    let phase = self.phase(Stage::Move, None);
                    let half = Kind::SlideTile { value: value / 2 };
                    self.set_kind(s, |k| *k = half);
                    self.move_piece(s, to, from, Anim::new(AnimKind::Merge, to, from, phase));
                    self.spawn_piece(
                        absorbed,
                        absorbed_from,
                        half,
                        Anim::new(AnimKind::Merge, to, absorbed_from, phase),
                    );
                }
                Ok(())
            }
            SlideEvent::Spawned { tile, at, value, .. } => {
                if forward {
                    self.spawn_one(tile, at, Kind::SlideTile { value }, Stage::Spawn, AnimKind::Spawn)
                } else {
                    self.remove_one(tile, at, Stage::Spawn, AnimKind::Spawn)
                }
            }
            SlideEvent::Scored { .. } | SlideEvent::Won { .. } | SlideEvent::GameOver => Ok(()),
        }
    }

    fn collapse(&mut self, event: &CollapseEvent, forward: bool) -> Result<(), MirrorError> {
        match event {
            CollapseEvent::Cleared { tiles, colour } => {
                if forward {
                    let entities =
                        tiles.iter().map(|t| self.piece(t.id, t.at)).collect::<Result<Vec<_>, _>>()?;
                    distinct(tiles.iter().map(|t| t.id), |id| MirrorError::DuplicateId { id })?;
                    let phase = self.phase(Stage::Clear, None);
                    for (e, t) in entities.into_iter().zip(tiles) {
                        self.remove_piece(e, t.id, t.at, Anim::new(AnimKind::Clear, t.at, t.at, phase));
                    }
                } else {
                    for t in tiles {
                        self.free(t.at, &[])?;
                        self.new_id(t.id)?;
                    }
                    distinct(tiles.iter().map(|t| t.id), |id| MirrorError::DuplicateId { id })?;
                    distinct(tiles.iter().map(|t| (t.at.y, t.at.x)), |(y, x)| MirrorError::DuplicateCell {
                        pos: Pos::new(x, y),
                    })?;
                    let phase = self.phase(Stage::Clear, None);
                    for t in tiles {
                        let kind = Kind::CollapseTile { colour: *colour };
                        self.spawn_piece(t.id, t.at, kind, Anim::new(AnimKind::Clear, t.at, t.at, phase));
                    }
                }
                Ok(())
            }
            &CollapseEvent::Fell { tile, from, to } => {
                let (from, to) = if forward { (from, to) } else { (to, from) };
                self.move_one(tile, from, to, Stage::Fall, AnimKind::Fall).map(drop)
            }
            &CollapseEvent::ColumnShifted { from, to } => {
                let (from, to) = if forward { (from, to) } else { (to, from) };
                self.shift_column(from, to)
            }
            CollapseEvent::Scored { .. } | CollapseEvent::GameOver { .. } => Ok(()),
        }
    }

    /// Moves the tiles of column `from` (from the bottom up to the first empty cell, as the
    /// rules do) into column `to`.
    fn shift_column(&mut self, from: u16, to: u16) -> Result<(), MirrorError> {
        let h = self.size.height;
        self.on_board(Pos::new(from, h - 1))?;
        self.on_board(Pos::new(to, h - 1))?;
        let mut moves = Vec::new();
        for y in (0..h).rev() {
            let p = Pos::new(from, y);
            let Some(e) = self.piece_at(p) else { break };
            moves.push((e, y));
        }
        if from == to || moves.is_empty() {
            return Ok(());
        }
        for &(_, y) in &moves {
            self.free(Pos::new(to, y), &[])?;
        }
        let phase = self.phase(Stage::Shift, None);
        for (e, y) in moves {
            let (a, b) = (Pos::new(from, y), Pos::new(to, y));
            self.move_piece(e, a, b, Anim::new(AnimKind::ColumnShift, a, b, phase));
        }
        Ok(())
    }

    fn match3(&mut self, event: &Match3Event, forward: bool) -> Result<(), MirrorError> {
        match event {
            &Match3Event::Swapped { a, b, a_block, b_block } => {
                if forward {
                    self.swap_two((a_block, a), (b_block, b), Stage::Swap, AnimKind::Swap)
                } else {
                    self.swap_two((a_block, b), (b_block, a), Stage::Swap, AnimKind::Swap)
                }
            }
            &Match3Event::SwappedBack { a, b, a_block, b_block } => {
                if forward {
                    self.swap_two((a_block, b), (b_block, a), Stage::SwapBack, AnimKind::SwapBack)
                } else {
                    self.swap_two((a_block, a), (b_block, b), Stage::SwapBack, AnimKind::SwapBack)
                }
            }
            Match3Event::Matched { blocks, breed, cascade } => {
                let going: Vec<_> = blocks.iter().filter(|mb| !mb.locked).collect();
                distinct(going.iter().map(|mb| mb.block), |id| MirrorError::DuplicateId { id })?;
                if forward {
                    let entities =
                        going.iter().map(|mb| self.piece(mb.block, mb.at)).collect::<Result<Vec<_>, _>>()?;
                    let phase = self.phase(Stage::Match, Some(*cascade));
                    for (e, mb) in entities.into_iter().zip(going) {
                        self.remove_piece(
                            e,
                            mb.block,
                            mb.at,
                            Anim::new(AnimKind::Clear, mb.at, mb.at, phase),
                        );
                    }
                } else {
                    for mb in &going {
                        self.free(mb.at, &[])?;
                        self.new_id(mb.block)?;
                    }
                    distinct(going.iter().map(|mb| (mb.at.y, mb.at.x)), |(y, x)| {
                        MirrorError::DuplicateCell { pos: Pos::new(x, y) }
                    })?;
                    let phase = self.phase(Stage::Match, Some(*cascade));
                    for mb in going {
                        let kind = Kind::Block { breed: *breed, locked: false };
                        self.spawn_piece(
                            mb.block,
                            mb.at,
                            kind,
                            Anim::new(AnimKind::Clear, mb.at, mb.at, phase),
                        );
                    }
                }
                Ok(())
            }
            &Match3Event::Unlocked { block, at } => {
                let e = self.piece(block, at)?;
                let Some(Kind::Block { .. }) = self.kind(e) else {
                    return Err(MirrorError::WrongKind { id: block });
                };
                let phase = self.phase(Stage::Match, None);
                self.set_kind(e, |k| {
                    if let Kind::Block { locked, .. } = k {
                        *locked = !forward;
                    }
                });
                self.animate(e, Anim::new(AnimKind::Unlock, at, at, phase));
                Ok(())
            }
            &Match3Event::Fell { block, from, to } => {
                let (from, to) = if forward { (from, to) } else { (to, from) };
                self.move_one(block, from, to, Stage::Fall, AnimKind::Fall).map(drop)
            }
            &Match3Event::Spawned { block, at, breed, .. } => {
                if forward {
                    self.spawn_one(
                        block,
                        at,
                        Kind::Block { breed, locked: false },
                        Stage::Spawn,
                        AnimKind::Spawn,
                    )
                } else {
                    self.remove_one(block, at, Stage::Spawn, AnimKind::Spawn)
                }
            }
            Match3Event::Shuffled { blocks, .. } => {
                let moves: Vec<(Id, Pos, Pos)> = blocks
                    .iter()
                    .map(|sb| if forward { (sb.block, sb.from, sb.to) } else { (sb.block, sb.to, sb.from) })
                    .collect();
                self.move_many(&moves, Stage::Shuffle, AnimKind::Shuffle)
            }
            &Match3Event::Recoloured { block, at, from, to } => {
                let e = self.piece(block, at)?;
                let Some(Kind::Block { .. }) = self.kind(e) else {
                    return Err(MirrorError::WrongKind { id: block });
                };
                let new = if forward { to } else { from };
                self.set_kind(e, |k| {
                    if let Kind::Block { breed, .. } = k {
                        *breed = new;
                    }
                });
                self.touch_cell(at);
                Ok(())
            }
            Match3Event::Scored { .. } | Match3Event::Won { .. } | Match3Event::GameOver { .. } => Ok(()),
        }
    }

    fn tactics(&mut self, event: &TacticsEvent, forward: bool) -> Result<(), MirrorError> {
        match event {
            TacticsEvent::UnitMoved { unit, path, cost } => {
                let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
                    return Err(MirrorError::EmptyPath { id: *unit });
                };
                for &p in path {
                    self.on_board(p)?;
                }
                let (from, to) = if forward { (first, last) } else { (last, first) };
                let e = self.piece(*unit, from)?;
                let Some(Kind::Unit { .. }) = self.kind(e) else {
                    return Err(MirrorError::WrongKind { id: *unit });
                };
                self.free(to, &[e])?;
                let phase = self.phase(Stage::Walk, None);
                self.set_kind(e, |k| {
                    if let Kind::Unit { left, .. } = k {
                        *left = if forward { left.saturating_sub(*cost) } else { left.saturating_add(*cost) };
                    }
                });
                let mut walked = path.clone();
                if !forward {
                    walked.reverse();
                }
                self.move_piece(
                    e,
                    from,
                    to,
                    Anim { kind: AnimKind::Walk, from, to, phase, path: Some(walked) },
                );
                Ok(())
            }
            &TacticsEvent::MovementRestored { unit, from, to } => {
                let e = self.entity_of(unit).ok_or(MirrorError::UnknownId { id: unit })?;
                let Some((at, Kind::Unit { .. })) = self.cell_kind(e) else {
                    return Err(MirrorError::WrongKind { id: unit });
                };
                self.set_kind(e, |k| {
                    if let Kind::Unit { left, .. } = k {
                        *left = if forward { to } else { from };
                    }
                });
                self.touch_cell(at);
                Ok(())
            }
            TacticsEvent::TurnEnded { .. } => Ok(()),
        }
    }
}
