//! A match replaced: the objects and movements a rule writes into each matched cell.

use super::*;

impl<'a> Runtime<'a> {
    pub(super) fn apply_at(&mut self, rule: &Rule, tuple: &[Match], check: bool) -> bool {
        let d = self.delta(rule.direction);
        if check {
            for (ri, row) in rule.rows.iter().enumerate() {
                let t = &tuple[ri];
                match rule.ellipses[ri] {
                    0 => {
                        if !self.row_matches_plain(row, t[0], d) {
                            return false;
                        }
                    }
                    1 => {
                        let mut out = std::mem::take(&mut self.x.wild);
                        out.clear();
                        let k = t[1];
                        self.row_matches_wild(row, t[0], d, k + 1, (k, k + 1), (0, 0), &mut out, false);
                        let none = out.is_empty();
                        self.x.wild = out;
                        if none {
                            return false;
                        }
                    }
                    _ => {
                        let mut out = std::mem::take(&mut self.x.wild);
                        out.clear();
                        let (k1, k2) = (t[1], t[2]);
                        self.row_matches_wild(
                            row,
                            t[0],
                            d,
                            k1 + k2 + 1,
                            (k1, k1 + 1),
                            (k2, k2 + 1),
                            &mut out,
                            true,
                        );
                        let none = out.is_empty();
                        self.x.wild = out;
                        if none {
                            return false;
                        }
                    }
                }
            }
        }
        let mut result = false;
        for (ri, row) in rule.rows.iter().enumerate() {
            let t = &tuple[ri];
            let mut cur = t[0] as isize;
            let mut e = 0;
            for c in row {
                match c {
                    PatternCell::Ellipsis => {
                        let k = t[(1 + e).min(2)] as isize;
                        e += 1;
                        cur += d * k;
                    }
                    PatternCell::Cell(_) => {
                        if self.replace(rule, c, cur as usize) {
                            result = true;
                        }
                        cur += d;
                    }
                }
            }
        }
        result
    }

    pub(super) fn replace(&mut self, rule: &Rule, pat: &PatternCell, i: usize) -> bool {
        let PatternCell::Cell(p) = pat else {
            return false;
        };
        let Some(rep) = &p.replacement else {
            return false;
        };
        let game = self.game;
        let s = game.stride;
        let lc = game.layer_count;
        // random choices first: they draw from the generator whether or not the cell changes
        let rand_obj: Option<(usize, usize)> = if rep.random_entities.is_empty() {
            None
        } else {
            self.free_draw |= rep.random_entities.len() > 1;
            self.draws += 1;
            let pick = self.st.rng.below(rep.random_entities.len());
            let o = rep.random_entities[pick];
            Some((o, game.objects[o].layer))
        };
        let clear_w = |w: usize| rep.objects_clear[w] | rand_obj.map_or(0, |(_, l)| game.layer_masks[l][w]);
        let set_w = |w: usize| {
            rep.objects_set[w] | rand_obj.map_or(0, |(o, _)| if o / 64 == w { 1u64 << (o % 64) } else { 0 })
        };
        // (layer, cleared bits, set bits): the only layers whose movement can change; with
        // random picks, the rule's merged with theirs in a buffer kept for the next cell
        let random_movs = rand_obj.is_some() || !rep.random_dir_layers.is_empty();
        let mut merged = std::mem::take(&mut self.x.random_movs);
        if random_movs {
            merged.clear();
            merged.extend_from_slice(&rep.movs);
            let mut add = |(l, c, st): (usize, u8, u8)| match merged.iter_mut().find(|e| e.0 == l) {
                Some(e) => {
                    e.1 |= c;
                    e.2 |= st;
                }
                None => merged.push((l, c, st)),
            };
            if let Some((_, l)) = rand_obj {
                add((l, 0x1f, 0));
            }
            for &l in &rep.random_dir_layers {
                // (`Math.floor`: the product is not negative)
                self.free_draw = true;
                self.draws += 1;
                let r = (self.st.rng.uniform() * 4.0) as u32;
                add((l, 0, 1u8 << r.min(4)));
            }
        }
        let movs: &[(usize, u8, u8)] = if random_movs { &merged } else { &rep.movs };
        let mut changed = false;
        for w in 0..s {
            let o = self.st.cells[i * s + w];
            if (o & !clear_w(w)) | set_w(w) != o {
                changed = true;
                break;
            }
        }
        if !changed {
            for &(l, c, st) in movs {
                let o = self.st.movements[i * lc + l];
                if (o & !c) | st != o {
                    changed = true;
                    break;
                }
            }
        }
        let mut rigidchange = false;
        if rule.rigid {
            let gi = rule.rigid_index;
            let mut group_subset = true;
            let mut applied_subset = true;
            for &l in &rep.rigid_layers {
                if gi & !self.x.rigid_group[i * lc + l] != 0 {
                    group_subset = false;
                }
                if !self.x.rigid_applied[i * lc + l] {
                    applied_subset = false;
                }
            }
            if !group_subset && !applied_subset {
                for &l in &rep.rigid_layers {
                    self.x.rigid_group[i * lc + l] |= gi;
                    self.x.rigid_applied[i * lc + l] = true;
                }
                rigidchange = true;
            }
        }
        if !changed && !rigidchange {
            self.x.random_movs = merged;
            return false;
        }
        for w in 0..s {
            let o = self.st.cells[i * s + w];
            let n = (o & !clear_w(w)) | set_w(w);
            self.x.create_mask[w] |= n & !o;
            self.x.destroy_mask[w] |= o & !n;
            self.st.cells[i * s + w] = n;
            self.touch_objs(w, o ^ n);
        }
        for &(l, c, st) in movs {
            let o = self.st.movements[i * lc + l];
            let n = (o & !c) | st;
            self.st.movements[i * lc + l] = n;
            if n != o {
                self.touch_layer(l);
            }
            self.note_movement(i, l, n);
        }
        self.x.random_movs = merged;
        self.note_objects(i);
        if let Some(t) = self.trace.as_deref_mut() {
            // The same rule's run of changes goes on: its board is the one after the last.
            let same_run =
                matches!(t.events.last(), Some(TraceEvent::Rule { line, .. }) if *line == rule.line);
            t.events.push(TraceEvent::Rule { line: rule.line, cell: i });
            if let Some(boards) = t.boards.as_mut() {
                match boards.last_mut() {
                    Some((_, b)) if same_run => b.clone_from(&self.st.cells),
                    _ => boards.push((rule.line, self.st.cells.clone())),
                }
            }
        }
        true
    }
}
