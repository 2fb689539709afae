//! Movements resolved: each moving object stepped on its layer where the cell it moves to is
//! free, repeated until nothing moves; what cannot move is cancelled.

use super::*;

impl<'a> Runtime<'a> {
    pub(super) fn reposition_on_layer(&mut self, i: usize, layer: usize, dir: u8) -> bool {
        let (dx, dy) = delta_xy(dir);
        let h = self.st.height;
        let tx = i / h;
        let ty = i % h;
        let maxx = self.st.width - 1;
        let maxy = h - 1;
        if (tx == 0 && dx < 0) || (tx == maxx && dx > 0) || (ty == 0 && dy < 0) || (ty == maxy && dy > 0) {
            return false;
        }
        let target = (i as isize + dy + dx * h as isize) as usize;
        let s = self.game.stride;
        let game = self.game;
        let lm = &game.layer_masks[layer];
        if bits::intersects(lm, &self.st.cells[target * s..(target + 1) * s]) && dir != ACTION {
            return false;
        }
        let lc = self.game.layer_count;
        if !self.quiet {
            for o in &game.sounds.movement[layer] {
                if bits::get(&self.st.cells[i * s..(i + 1) * s], o.object)
                    && self.st.movements[i * lc + o.layer] & o.directions != 0
                    && !self.seeds_can_move.contains(&o.seed.as_str())
                {
                    self.seeds_can_move.push(o.seed.as_str());
                }
            }
        }
        for w in 0..s {
            let m = self.st.cells[i * s + w] & lm[w];
            self.st.cells[i * s + w] &= !lm[w];
            self.st.cells[target * s + w] |= m;
            // an object leaves one cell for another: its presence changed at both
            self.touch_objs(w, m);
            if let Some(t) = self.trace.as_deref_mut() {
                for o in bits::ones(std::slice::from_ref(&m)) {
                    t.events.push(TraceEvent::Move { object: w * 64 + o, from: i, to: target });
                }
            }
        }
        self.note_objects(target);
        true
    }

    pub(super) fn reposition_at_cell(&mut self, i: usize) -> bool {
        let lc = self.game.layer_count;
        if self.st.movements[i * lc..(i + 1) * lc].iter().all(|m| *m == 0) {
            return false;
        }
        // the reference reads every layer's movement before moving any (sounds see them all)
        let mut moved = false;
        let mut cleared: smallvec::SmallVec<[usize; 8]> = smallvec::SmallVec::new();
        for l in 0..lc {
            let m = self.st.movements[i * lc + l];
            if m != 0 && self.reposition_on_layer(i, l, m) {
                cleared.push(l);
                moved = true;
            }
        }
        for l in cleared {
            self.st.movements[i * lc + l] = 0;
            self.touch_layer(l);
        }
        moved
    }

    pub(super) fn resolve_movements(&mut self, banned: &mut [bool]) -> bool {
        let n = self.n_cells();
        let lc = self.game.layer_count;
        let s = self.game.stride;
        // only cells with movement can move (nothing adds movement while resolving)
        let mut moving = std::mem::take(&mut self.x.moving);
        moving_cells_into(&self.st.movements[..n * lc], lc, &mut moving);
        let mut moved = true;
        let mut passes = 0;
        while moved && passes < 100_000 && !self.over() {
            passes += 1;
            self.spend(moving.len());
            moved = false;
            for &i in &moving {
                if self.reposition_at_cell(i) {
                    moved = true;
                }
            }
        }
        let mut do_undo = false;
        let has_rigid = !self.game.rigid_group_to_group.is_empty();
        let game = self.game;
        for &i in &moving {
            let movs = &self.st.movements[i * lc..(i + 1) * lc];
            if movs.iter().any(|m| *m != 0) {
                // a rigid body's cell keeps only the movements of the layers rigid rules applied
                // to
                let rigid_only = has_rigid && self.x.rigid_applied[i * lc..(i + 1) * lc].iter().any(|a| *a);
                let mov =
                    |l: usize| if rigid_only && !self.x.rigid_applied[i * lc + l] { 0 } else { movs[l] };
                if rigid_only && let Some(l) = (0..lc).find(|&l| mov(l) != 0) {
                    let gi = self.x.rigid_group[i * lc + l] as usize;
                    if gi > 0
                        && let Some(&group) = game.rigid_group_to_group.get(gi - 1)
                        && !banned[group]
                    {
                        banned[group] = true;
                        do_undo = true;
                    }
                }
                if !self.quiet {
                    for o in &game.sounds.movement_failure {
                        if bits::get(&self.st.cells[i * s..(i + 1) * s], o.object)
                            && mov(o.layer) & o.directions != 0
                            && !self.seeds_cant_move.contains(&o.seed.as_str())
                        {
                            self.seeds_cant_move.push(o.seed.as_str());
                        }
                    }
                }
            }
            for l in 0..lc {
                if self.st.movements[i * lc + l] != 0 {
                    self.st.movements[i * lc + l] = 0;
                    self.touch_layer(l);
                }
            }
        }
        self.x.moving = moving;
        if has_rigid {
            self.x.rigid_group.fill(0);
            self.x.rigid_applied.fill(false);
        }
        do_undo
    }
}
