//! Where a rule matches: a cell against its pattern, rows with and without ellipses, the
//! cached matches and the masks that say a rule or group cannot match.

use super::*;

impl<'a> Runtime<'a> {
    #[inline(always)]
    pub(super) fn cell_matches(&self, pat: &PatternCell, i: usize) -> bool {
        let PatternCell::Cell(p) = pat else {
            return true;
        };
        let s = self.game.stride;
        let [p0, p1, m0, m1] = p.head;
        if s == 1 {
            let c = self.st.cells[i];
            if c & p0 != p0 || c & m0 != 0 {
                return false;
            }
            for any in &p.any_present {
                if c & any[0] == 0 {
                    return false;
                }
            }
        } else if s == 2 {
            // (two words a cell: the common size past 64 objects, without the loops)
            let (c0, c1) = (self.st.cells[2 * i], self.st.cells[2 * i + 1]);
            if c0 & p0 != p0 || c1 & p1 != p1 || c0 & m0 != 0 || c1 & m1 != 0 {
                return false;
            }
            for any in &p.any_present {
                if c0 & any[0] == 0 && c1 & any[1] == 0 {
                    return false;
                }
            }
        } else {
            let cell = &self.st.cells[i * s..(i + 1) * s];
            for ((c, pr), mi) in cell.iter().zip(&p.present).zip(&p.missing) {
                if c & pr != *pr || c & mi != 0 {
                    return false;
                }
            }
            for any in &p.any_present {
                if !bits::intersects(any, cell) {
                    return false;
                }
            }
        }
        if p.still {
            return true;
        }
        let lc = self.game.layer_count;
        let base = i * lc;
        for &(l, b) in &p.mov_present {
            if self.st.movements[base + l] & b != b {
                return false;
            }
        }
        for &(l, b) in &p.mov_missing {
            if self.st.movements[base + l] & b != 0 {
                return false;
            }
        }
        true
    }

    /// Whether `row` (no ellipsis) matches starting at `i`.
    pub(super) fn row_matches_plain(&self, row: &[PatternCell], i: usize, d: isize) -> bool {
        self.row_matches_from(row, i, d, 0)
    }

    /// Whether cells `from..` of `row` (no ellipsis) match, the row starting at `i`.
    #[inline]
    pub(super) fn row_matches_from(&self, row: &[PatternCell], i: usize, d: isize, from: usize) -> bool {
        let mut at = i as isize + from as isize * d;
        for c in &row[from..] {
            if !self.cell_matches(c, at as usize) {
                return false;
            }
            at += d;
        }
        true
    }

    /// Ellipsis matches at start `i`: `[i, k]` or `[i, k1, k2]`, with the reference's bounds
    /// (`k` / `k1` in `k1min..k1max`; `k2` from `k2min` while `k1 + k2 < kmax && k2 < k2max`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn row_matches_wild(
        &self,
        row: &[PatternCell],
        i: usize,
        d: isize,
        kmax: usize,
        (k1min, k1max): (usize, usize),
        (k2min, k2max): (usize, usize),
        out: &mut Vec<Match>,
        two: bool,
    ) {
        let at = |k: usize| (i as isize + k as isize * d) as usize;
        let e1 = row.iter().position(|c| matches!(c, PatternCell::Ellipsis)).unwrap_or(row.len());
        for (idx, c) in row.iter().enumerate().take(e1) {
            if !self.cell_matches(c, at(idx)) {
                return;
            }
        }
        if !two {
            self.spend(k1max.saturating_sub(k1min));
            for k in k1min..k1max {
                let ok = (e1 + 1..row.len()).all(|ci| self.cell_matches(&row[ci], at(k + ci - 1)));
                if ok {
                    out.push([i, k, 0]);
                }
            }
        } else {
            let e2 =
                (e1 + 1..row.len()).find(|&c| matches!(row[c], PatternCell::Ellipsis)).unwrap_or(row.len());
            for k1 in k1min..k1max {
                let ok = (e1 + 1..e2).all(|ci| self.cell_matches(&row[ci], at(k1 + ci - 1)));
                if !ok {
                    continue;
                }
                let mut k2 = k2min;
                self.spend(k2max.min(kmax.saturating_sub(k1)).saturating_sub(k2min) + 1);
                while k1 + k2 < kmax && k2 < k2max {
                    let ok2 = (e2 + 1..row.len()).all(|ci| self.cell_matches(&row[ci], at(k1 + k2 + ci - 2)));
                    if ok2 {
                        out.push([i, k1, k2]);
                    }
                    k2 += 1;
                }
            }
        }
    }

    /// `find_matches`, skipped when the rule found nothing and the board has not changed since:
    /// `None` when a row has no match.
    pub(super) fn find_matches_cached(&mut self, rule: &Rule, candidate: bool) -> Option<Matches> {
        self.spend(1);
        // Most rules tried lack an object or a movement on the whole board (in the suite, half
        // of them, and ten times as many as get to look for matches): answered first, before
        // the memo's checks, which cost more (a candidate has them all: its count of what the
        // board lacks is 0, by the same masks).
        debug_assert!(!candidate || self.may_match(rule), "a candidate lacks nothing");
        if !candidate && !self.may_match(rule) {
            self.note_no_match(rule);
            return None;
        }
        let memo = &self.x.memo;
        if let Some(&(at, seen)) = memo.no_match_at.get(rule.id)
            && at == memo.version + 1
        {
            let mut sig = rule.signature;
            let mut touched = false;
            if memo.clock != seen {
                while sig != 0 {
                    if memo.stamp[sig.trailing_zeros() as usize] > seen {
                        touched = true;
                        break;
                    }
                    sig &= sig - 1;
                }
                // bits are shared by several objects: ask the objects themselves
                if touched {
                    touched =
                        rule.mention_objs.iter().any(|&o| memo.obj_stamp.get(o).is_none_or(|&t| t > seen))
                            || rule
                                .mention_layers
                                .iter()
                                .any(|&l| memo.layer_stamp.get(l).is_none_or(|&t| t > seen));
                }
            }
            if !touched {
                return None;
            }
        }
        let mut m = self.x.matches.pop().unwrap_or_default();
        self.find_matches(rule, &mut m);
        if !m.is_empty() {
            return Some(m);
        }
        self.give_back(m);
        self.note_no_match(rule);
        None
    }

    /// Notes in the memo that `rule` has no match on the board as it is now.
    pub(super) fn note_no_match(&mut self, rule: &Rule) {
        let memo = &mut self.x.memo;
        if let Some(slot) = memo.no_match_at.get_mut(rule.id) {
            *slot = (memo.version + 1, memo.clock);
        }
    }

    /// Whether some rule of a group may match, by what all of them need ([`GroupNeed`]): a
    /// group of one rule is asked of that rule, and so is a group when the rules it tried are
    /// traced (the trace lists every rule tried).
    pub(super) fn group_may_match(&self, need: &GroupNeed) -> bool {
        if !need.several || self.trace.as_ref().is_some_and(|t| t.tried.is_some()) {
            return true;
        }
        let layer_moves = |l: usize| (0..5).any(|b| bits::get(&self.x.map_mov, 5 * l + b));
        bits::subset(&need.objects, &self.x.map_obj) && need.moving_layers.iter().all(|&l| layer_moves(l))
    }

    /// Whether `rule` may match on the board, by the whole board's objects and movements
    /// alone: most rules tried fail here, before a match list is fetched.
    pub(super) fn may_match(&self, rule: &Rule) -> bool {
        bits::subset(&rule.rule_mask, &self.x.map_obj) && bits::subset(&rule.mov_mask, &self.x.map_mov)
    }

    /// The matches of each row of `rule` into `all` (none when a row has none), asked once
    /// [`Runtime::may_match`] has said yes: the board has every object and movement the rule
    /// needs.
    pub(super) fn find_matches(&self, rule: &Rule, all: &mut Matches) {
        all.used = 0;
        let (w, h) = (self.st.width, self.st.height);
        let s = self.game.stride;
        let lc = self.game.layer_count;
        let ms = self.mstride;
        let d = self.delta(rule.direction);
        for (ri, row) in rule.rows.iter().enumerate() {
            let row_mask: &[u64] = &rule.row_masks[ri];
            let row_mov: &[u64] = &rule.row_mov_masks[ri];
            // (most rows need no movement: their rows' and columns' movements are not asked)
            let needs_mov = !bits::is_zero(row_mov);
            let wild = rule.ellipses[ri];
            let len = row.len() - wild;
            if len == 0 || len > w.max(h) + 1 {
                all.used = 0;
                return;
            }
            let (mut xmin, mut xmax, mut ymin, mut ymax) = (0usize, w, 0usize, h);
            match rule.direction {
                UP => ymin += len - 1,
                DOWN => ymax = ymax.saturating_sub(len - 1),
                LEFT => xmin += len - 1,
                _ => xmax = xmax.saturating_sub(len - 1),
            }
            if all.rows.len() <= ri {
                all.rows.push(Vec::new());
            }
            let found = &mut all.rows[ri];
            found.clear();
            let horizontal = rule.direction > 2;
            let first = &row[0];
            let visit = |x: usize, y: usize, found: &mut Vec<Match>| {
                let i = x * h + y;
                if !self.cell_matches(first, i) {
                    return;
                }
                if wild == 0 {
                    if self.row_matches_from(row, i, d, 1) {
                        found.push([i, 0, 0]);
                    }
                } else {
                    let kmax = match rule.direction {
                        LEFT => (x + 2).saturating_sub(len),
                        RIGHT => (w + 1).saturating_sub(x + len),
                        DOWN => (h + 1).saturating_sub(y + len),
                        _ => (y + 2).saturating_sub(len),
                    };
                    self.row_matches_wild(row, i, d, kmax, (0, kmax), (0, kmax), found, wild == 2);
                }
            };
            // A quick test of one word of one cell before the whole match: most cells fail it.
            let key = rule.quick[ri];
            let at = key.offset as isize * d;
            let kw = at * s as isize + key.word as isize;
            let (kp, km, ka, any_ok) = (key.all, key.none, key.any, key.any == 0);
            let (ml, mb) = key.mov.map_or((0, 0), |(l, b)| (at * lc as isize + l as isize, b));
            let (cells, movements) = (&self.st.cells, &self.st.movements);
            // The quick test at `count` cells, `first` and every `step`-th after it, calling
            // `hit` with the number of each cell that passes.
            let scan = |first: usize,
                        step: usize,
                        count: usize,
                        found: &mut Vec<Match>,
                        hit: &dyn Fn(usize, &mut Vec<Match>)| {
                if count == 0 {
                    return;
                }
                // (each slice ends at its last cell, and an index steps through it: the
                // compiler sees every read in bounds, with no iterator adapters to step)
                let (word_step, start) = (step * s, ((first * s) as isize + kw) as usize);
                let words = &cells[start..=start + (count - 1) * word_step];
                let pass = |c: u64| c & kp == kp && c & km == 0 && (any_ok || c & ka != 0);
                if mb == 0 {
                    let (mut at, mut k) = (0, 0);
                    while at < words.len() {
                        if pass(words[at]) {
                            hit(k, found);
                        }
                        at += word_step;
                        k += 1;
                    }
                } else {
                    let (mov_step, start) = (step * lc, ((first * lc) as isize + ml) as usize);
                    let movs = &movements[start..=start + (count - 1) * mov_step];
                    for k in 0..count {
                        if pass(words[k * word_step]) && movs[k * mov_step] & mb == mb {
                            hit(k, found);
                        }
                    }
                }
            };
            if horizontal {
                for y in ymin..ymax {
                    if !bits::subset(row_mask, &self.x.row_obj[y * s..(y + 1) * s])
                        || (needs_mov && !bits::subset(row_mov, &self.x.row_mov[y * ms..(y + 1) * ms]))
                    {
                        continue;
                    }
                    if self.over() {
                        all.used = 0;
                        return;
                    }
                    self.spend(xmax - xmin);
                    let before = found.len();
                    scan(xmin * h + y, h, xmax.saturating_sub(xmin), found, &|k, found| {
                        visit(xmin + k, y, found)
                    });
                    // A match found is a rule application to try: counted now, so that the
                    // matches held stay within the bound too.
                    self.spend(APPLY_WORK * (found.len() - before));
                }
            } else {
                for x in xmin..xmax {
                    if !bits::subset(row_mask, &self.x.col_obj[x * s..(x + 1) * s])
                        || (needs_mov && !bits::subset(row_mov, &self.x.col_mov[x * ms..(x + 1) * ms]))
                    {
                        continue;
                    }
                    if self.over() {
                        all.used = 0;
                        return;
                    }
                    self.spend(ymax - ymin);
                    let before = found.len();
                    scan(x * h + ymin, 1, ymax.saturating_sub(ymin), found, &|k, found| {
                        visit(x, ymin + k, found)
                    });
                    // A match found is a rule application to try: counted now, so that the
                    // matches held stay within the bound too.
                    self.spend(APPLY_WORK * (found.len() - before));
                }
            }
            if found.is_empty() {
                all.used = 0;
                return;
            }
            all.used = ri + 1;
        }
    }
}
