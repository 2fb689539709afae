//! Following events: the rule set projects an event into generic ops
//! ([`tessera_core::project_event`]); the mirror checks that every op fits before it changes
//! anything, then moves, spawns, removes and restyles entities with their animations.
//!
//! An event of one op (nearly all of them) is checked against the mirror itself and carried out.
//! An event of several ops (a merge: one piece goes, the other changes look and moves) is first checked whole in a dry run, where each op sees the earlier ones' effects
//! through a small overlay of cells, ids and shapes ([`Check`]); only then is it carried out. So
//! an event that does not fit changes nothing, whatever op of it fails. Unapplying takes the ops
//! in reverse order, each inverted (see `tessera_core::project`).

use crate::check::{Check, Token};
use crate::components::Anim;
use crate::error::MirrorError;
use crate::mirror::Mirror;
use tessera_core::project::{AnimKind, Change, Item, Look, Op, Ops, Shape, Stage};
use tessera_core::{AnyEvent, Id, Pos, project_event};

/// The first key of `items` that occurs twice, if any.
fn duplicate(keys: &mut Vec<u64>, items: impl Iterator<Item = u64>) -> Option<u64> {
    keys.clear();
    keys.extend(items);
    keys.sort_unstable();
    keys.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

fn cell_key(p: Pos) -> u64 {
    (u64::from(p.y) << 16) | u64::from(p.x)
}

fn key_cell(k: u64) -> Pos {
    Pos::new((k & 0xffff) as u16, (k >> 16) as u16)
}

/// Fails if two items name the same id, or (with `cells`) the same cell as `cell` picks.
fn distinct(keys: &mut Vec<u64>, items: &[Item], cell: Option<fn(&Item) -> Pos>) -> Result<(), MirrorError> {
    if items.len() < 2 {
        return Ok(());
    }
    if let Some(cell) = cell
        && let Some(k) = duplicate(keys, items.iter().map(|it| cell_key(cell(it))))
    {
        return Err(MirrorError::DuplicateCell { pos: key_cell(k) });
    }
    match duplicate(keys, items.iter().map(|it| u64::from(it.id.0))) {
        Some(k) => Err(MirrorError::DuplicateId { id: Id(k as u32) }),
        None => Ok(()),
    }
}

impl Mirror {
    pub(crate) fn follow(&mut self, event: &AnyEvent, forward: bool) -> Result<(), MirrorError> {
        // Boxed, so taking it out for the call is a pointer move.
        let mut scratch = self.scratch.take().unwrap_or_default();
        scratch.ops.clear();
        let rule_set = project_event(event, &mut scratch.ops);
        let result = if rule_set == self.rule_set {
            self.follow_ops(&scratch.ops, &mut scratch.check, forward)
        } else {
            Err(MirrorError::WrongRuleSet { mirror: self.rule_set, event: rule_set })
        };
        self.scratch = Some(scratch);
        if result.is_ok() {
            self.reversed = !forward;
        }
        result
    }

    fn follow_ops(&mut self, ops: &Ops, check: &mut Check, forward: bool) -> Result<(), MirrorError> {
        let all = ops.ops();
        if all.len() > 1 {
            // The dry run: every op checked against the effects of the ones before it. The
            // overlay is emptied whether it fits or not.
            let dry = if forward {
                all.iter().try_for_each(|op| self.op(ops, op, true, check, false))
            } else {
                all.iter().rev().try_for_each(|op| self.op(ops, op, false, check, false))
            };
            check.clear();
            dry?;
        }
        // The overlay is empty here: the ops see (and change) the mirror itself.
        if forward {
            all.iter().try_for_each(|op| self.op(ops, op, true, check, true))
        } else {
            all.iter().rev().try_for_each(|op| self.op(ops, op, false, check, true))
        }
    }

    /// Checks `op` (going forward or backward); with `commit`, carries it out, else records its
    /// effects in `c` for the ops after it.
    fn op(&mut self, ops: &Ops, op: &Op, fwd: bool, c: &mut Check, commit: bool) -> Result<(), MirrorError> {
        match *op {
            Op::Move { items, anim, stage } => self.moves(ops.items(items), fwd, anim, stage, c, commit),
            Op::Walk { id, path, spend, stage } => {
                self.walk(id, ops.cells(path), spend, fwd, stage, c, commit)
            }
            Op::Spawn { items, look, anim, stage } if fwd => {
                self.spawns(ops.items(items), fwd, look, anim, stage, c, commit)
            }
            Op::Despawn { items, look, anim, stage } if !fwd => {
                self.spawns(ops.items(items), fwd, look, anim, stage, c, commit)
            }
            Op::Spawn { items, anim, stage, .. } | Op::Despawn { items, anim, stage, .. } => {
                self.despawns(ops.items(items), fwd, anim, stage, c, commit)
            }
            Op::Change { id, at, change, anim } => self.change(id, at, change.oriented(fwd), anim, c, commit),
            Op::ShiftColumn { from, to, anim, stage } => {
                let (from, to) = if fwd { (from, to) } else { (to, from) };
                self.shift_column(from, to, anim, stage, c, commit)
            }
        }
    }

    // --- lookups through the dry run's overlay ---

    fn at_cell(&self, c: &Check, i: usize) -> Option<Token> {
        match c.cells.iter().rev().find(|(j, _)| *j == i) {
            Some(&(_, t)) => t,
            None => self.pieces[i].map(Token::Real),
        }
    }

    fn by_id(&self, c: &Check, id: Id) -> Option<Token> {
        match c.ids.iter().rev().find(|(j, _)| *j == id) {
            Some(&(_, t)) => t,
            None => self.ids.get(&id).copied().map(Token::Real),
        }
    }

    fn shape_of(&self, c: &Check, t: Token) -> Option<Shape> {
        if let Some(&(_, s)) = c.shapes.iter().rev().find(|(u, _)| *u == t) {
            return Some(s);
        }
        match t {
            Token::Real(e) => self.look(e).map(|l| l.shape),
            Token::New(_) => None,
        }
    }

    /// The piece `id`, which must stand on `at`.
    fn piece(&self, c: &Check, id: Id, at: Pos) -> Result<Token, MirrorError> {
        let i = self.on_board(at)?;
        let t = self.by_id(c, id).ok_or(MirrorError::UnknownId { id })?;
        if self.at_cell(c, i) == Some(t) { Ok(t) } else { Err(MirrorError::NotAt { id, pos: at }) }
    }

    /// Fails unless `pos` is on the board and free, or holds one of `leaving`.
    fn free(&self, c: &Check, pos: Pos, leaving: &[Token]) -> Result<(), MirrorError> {
        let i = self.on_board(pos)?;
        match self.at_cell(c, i) {
            Some(t) if !leaving.contains(&t) => Err(MirrorError::Occupied { pos }),
            _ => Ok(()),
        }
    }

    /// Records, for the dry run, that `t` left cell `from` (if it is there) .
    fn lift_in(&self, c: &mut Check, t: Token, from: Pos) {
        let i = self.size.index(from);
        if self.at_cell(c, i) == Some(t) {
            c.cells.push((i, None));
        }
    }

    // --- the ops ---

    /// Pieces move at once: every destination free or left by one of them, all different.
    fn moves(
        &mut self,
        items: &[Item],
        fwd: bool,
        anim: AnimKind,
        stage: Stage,
        c: &mut Check,
        commit: bool,
    ) -> Result<(), MirrorError> {
        if let [it] = items {
            // One piece (a fall, a slide): the same checks without the buffers.
            let (id, from, to) = it.oriented(fwd);
            let t = self.piece(c, id, from)?;
            self.free(c, to, &[t])?;
            match t {
                Token::Real(e) if commit => {
                    let phase = self.phase(stage);
                    self.move_piece(e, from, to, Anim::new(anim, from, to, phase));
                }
                _ if commit => {}
                _ => {
                    self.lift_in(c, t, from);
                    c.cells.push((self.size.index(to), Some(t)));
                }
            }
            return Ok(());
        }
        c.toks.clear();
        for it in items {
            let (id, from, _) = it.oriented(fwd);
            let t = self.piece(c, id, from)?;
            c.toks.push(t);
        }
        for it in items {
            self.free(c, it.oriented(fwd).2, &c.toks)?;
        }
        let to: fn(&Item) -> Pos = if fwd { |it| it.to } else { |it| it.from };
        distinct(&mut c.keys, items, Some(to))?;
        if items.is_empty() {
            return Ok(());
        }
        if commit {
            let phase = self.phase(stage);
            for (&t, it) in c.toks.iter().zip(items) {
                if let Token::Real(e) = t {
                    self.lift(e, it.oriented(fwd).1);
                }
            }
            for (&t, it) in c.toks.iter().zip(items) {
                let (_, from, to) = it.oriented(fwd);
                if let Token::Real(e) = t {
                    self.place(e, to);
                    self.animate(e, Anim::new(anim, from, to, phase));
                }
            }
        } else {
            let toks = std::mem::take(&mut c.toks);
            for (&t, it) in toks.iter().zip(items) {
                self.lift_in(c, t, it.oriented(fwd).1);
            }
            for (&t, it) in toks.iter().zip(items) {
                c.cells.push((self.size.index(it.oriented(fwd).2), Some(t)));
            }
            c.toks = toks;
        }
        Ok(())
    }

    /// A unit walks its path and spends movement (gets it back going backward).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        id: Id,
        path: &[Pos],
        spend: u64,
        fwd: bool,
        stage: Stage,
        c: &mut Check,
        commit: bool,
    ) -> Result<(), MirrorError> {
        let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
            return Err(MirrorError::EmptyPath { id });
        };
        for &p in path {
            self.on_board(p)?;
        }
        let (from, to) = if fwd { (first, last) } else { (last, first) };
        let t = self.piece(c, id, from)?;
        let Some(Shape::Unit { .. }) = self.shape_of(c, t) else {
            return Err(MirrorError::WrongKind { id });
        };
        self.free(c, to, &[t])?;
        match t {
            Token::Real(e) if commit => {
                let phase = self.phase(stage);
                self.set_look(e, |l| {
                    if let Shape::Unit { left, .. } = &mut l.shape {
                        *left = if fwd { left.saturating_sub(spend) } else { left.saturating_add(spend) };
                    }
                });
                let mut walked = path.to_vec();
                if !fwd {
                    walked.reverse();
                }
                self.move_piece(
                    e,
                    from,
                    to,
                    Anim { kind: AnimKind::Walk, from, to, phase, path: Some(walked) },
                );
            }
            _ if commit => {}
            _ => {
                self.lift_in(c, t, from);
                c.cells.push((self.size.index(to), Some(t)));
            }
        }
        Ok(())
    }

    /// New pieces appear: each item `(id, a, b)` (oriented) appears on `b`, animated `a → b`.
    #[allow(clippy::too_many_arguments)]
    fn spawns(
        &mut self,
        items: &[Item],
        fwd: bool,
        look: Look,
        anim: AnimKind,
        stage: Stage,
        c: &mut Check,
        commit: bool,
    ) -> Result<(), MirrorError> {
        for it in items {
            let (id, _, at) = it.oriented(fwd);
            self.free(c, at, &[])?;
            if self.by_id(c, id).is_some() {
                return Err(MirrorError::DuplicateId { id });
            }
        }
        let at: fn(&Item) -> Pos = if fwd { |it| it.to } else { |it| it.from };
        distinct(&mut c.keys, items, Some(at))?;
        if commit {
            let phase = self.phase(stage);
            for it in items {
                let (id, from, at) = it.oriented(fwd);
                self.spawn_piece(id, at, look, Anim::new(anim, from, at, phase));
            }
        } else {
            for it in items {
                let (id, _, at) = it.oriented(fwd);
                let t = Token::New(c.fresh);
                c.fresh += 1;
                c.cells.push((self.size.index(at), Some(t)));
                c.ids.push((id, Some(t)));
                c.shapes.push((t, look.shape));
            }
        }
        Ok(())
    }

    /// Pieces leave: each item `(id, a, b)` (oriented) leaves `a`, its ghost animated `a → b`.
    fn despawns(
        &mut self,
        items: &[Item],
        fwd: bool,
        anim: AnimKind,
        stage: Stage,
        c: &mut Check,
        commit: bool,
    ) -> Result<(), MirrorError> {
        c.toks.clear();
        for it in items {
            let (id, at, _) = it.oriented(fwd);
            let t = self.piece(c, id, at)?;
            c.toks.push(t);
        }
        distinct(&mut c.keys, items, None)?;
        if commit {
            let phase = self.phase(stage);
            for (&t, it) in c.toks.iter().zip(items) {
                let (id, at, to) = it.oriented(fwd);
                if let Token::Real(e) = t {
                    self.remove_piece(e, id, at, Anim::new(anim, at, to, phase));
                }
            }
        } else {
            for it in items {
                let (id, at, _) = it.oriented(fwd);
                c.cells.push((self.size.index(at), None));
                c.ids.push((id, None));
            }
        }
        Ok(())
    }

    /// A piece's look changes, in place.
    fn change(
        &mut self,
        id: Id,
        at: Option<Pos>,
        change: Change,
        anim: Option<(AnimKind, Stage)>,
        c: &mut Check,
        commit: bool,
    ) -> Result<(), MirrorError> {
        let t = match at {
            Some(p) => self.piece(c, id, p)?,
            None => self.by_id(c, id).ok_or(MirrorError::UnknownId { id })?,
        };
        if !self.shape_of(c, t).is_some_and(|s| change.fits(&s)) {
            return Err(MirrorError::WrongKind { id });
        }
        match t {
            Token::Real(e) if commit => {
                let Some((cell, _)) = self.cell_look(e) else { return Ok(()) };
                match anim {
                    Some((kind, stage)) => {
                        let phase = self.phase(stage);
                        self.set_look(e, |l| change.apply_to(l));
                        self.animate(e, Anim::new(kind, cell, cell, phase));
                    }
                    None => {
                        self.set_look(e, |l| change.apply_to(l));
                        self.touch_cell(cell);
                    }
                }
            }
            _ if commit => {}
            _ => {
                if let Change::Look { after, .. } = change {
                    c.shapes.push((t, after.shape));
                }
            }
        }
        Ok(())
    }

    /// Moves the pieces of column `from` (from the bottom row up to the first empty cell) into
    /// column `to`.
    fn shift_column(
        &mut self,
        from: u16,
        to: u16,
        anim: AnimKind,
        stage: Stage,
        c: &mut Check,
        commit: bool,
    ) -> Result<(), MirrorError> {
        let h = self.size.height;
        self.on_board(Pos::new(from, h - 1))?;
        self.on_board(Pos::new(to, h - 1))?;
        c.stack.clear();
        for y in (0..h).rev() {
            let Some(t) = self.at_cell(c, self.size.index(Pos::new(from, y))) else { break };
            c.stack.push((t, y));
        }
        if from == to || c.stack.is_empty() {
            return Ok(());
        }
        for &(_, y) in &c.stack {
            self.free(c, Pos::new(to, y), &[])?;
        }
        let stack = std::mem::take(&mut c.stack);
        if commit {
            let phase = self.phase(stage);
            for &(t, y) in &stack {
                let (a, b) = (Pos::new(from, y), Pos::new(to, y));
                if let Token::Real(e) = t {
                    self.move_piece(e, a, b, Anim::new(anim, a, b, phase));
                }
            }
        } else {
            for &(t, y) in &stack {
                c.cells.push((self.size.index(Pos::new(from, y)), None));
                c.cells.push((self.size.index(Pos::new(to, y)), Some(t)));
            }
        }
        c.stack = stack;
        Ok(())
    }
}
