//! Applying the rules: each group in turn (random groups by a draw), each rule's matches
//! applied, the commands it queues.

use super::*;

impl<'a> Runtime<'a> {
    pub(super) fn apply_rules(
        &mut self,
        groups: &'a [Vec<Rule>],
        needs: &[GroupNeed],
        loop_point: &[Option<usize>],
        banned: Option<&[bool]>,
    ) {
        let mut loop_propagated = false;
        let mut loop_count = 0;
        let mut idx = 0;
        while idx < groups.len() && !self.over() {
            if banned.is_none_or(|b| !b[idx]) {
                let group = &groups[idx];
                if needs.get(idx).is_none_or(|need| self.group_may_match(need)) {
                    loop_propagated = self.apply_rule_group(group) || loop_propagated;
                } else {
                    // as trying each rule would have: one unit of work a rule, none matching
                    self.spend(group.len());
                }
            }
            if loop_propagated && let Some(Some(target)) = loop_point.get(idx) {
                idx = *target;
                loop_propagated = false;
                loop_count += 1;
                if loop_count > 200 {
                    self.loop_limit_hit = true;
                    break;
                }
                continue;
            }
            idx += 1;
        }
    }

    pub(super) fn apply_rule_group(&mut self, group: &'a [Rule]) -> bool {
        if group.first().is_some_and(|r| r.random) {
            return self.apply_random_rule_group(group);
        }
        let mut has_changes = false;
        let mut made = true;
        let mut loopcount = 0;
        // (a trace listing every rule tried is given each rule as it is tried)
        let ask_each = self.trace.as_ref().is_some_and(|t| t.tried.is_some());
        while made && loopcount < 200 && !self.over() {
            loopcount += 1;
            made = false;
            for rule in group {
                if !ask_each && !self.candidate(rule) {
                    // as trying it would: a unit of work, no match (see `candidate`)
                    self.spend(1);
                    continue;
                }
                if self.try_apply(rule, !ask_each) {
                    made = true;
                }
            }
            if made {
                has_changes = true;
            }
        }
        if loopcount >= 200 {
            self.loop_limit_hit = true;
        }
        has_changes
    }

    pub(super) fn apply_random_rule_group(&mut self, group: &'a [Rule]) -> bool {
        // every (rule, tuple) candidate, in order, without building the tuples
        let mut per_rule: Vec<(usize, Matches, usize)> = Vec::new();
        let mut total = 0usize;
        for (ri, rule) in group.iter().enumerate() {
            let found = self.find_matches_cached(rule, false);
            self.note_tried(rule, found.is_some());
            if let Some(m) = found {
                let n = m.rows().iter().fold(1usize, |a, r| a.saturating_mul(r.len()));
                total = total.saturating_add(n);
                per_rule.push((ri, m, n));
            }
        }
        if total == 0 {
            return false;
        }
        self.free_draw |= total > 1;
        self.draws += 1;
        let mut pick = self.st.rng.below(total);
        let mut modified = false;
        let mut done = false;
        for (ri, m, n) in per_rule {
            if done || pick >= n {
                pick = pick.saturating_sub(n);
                self.give_back(m);
                continue;
            }
            let mut tuple: smallvec::SmallVec<[Match; 4]> = smallvec::SmallVec::new();
            let mut rest = pick;
            for row in m.rows() {
                tuple.push(row[rest % row.len()]);
                rest /= row.len();
            }
            self.give_back(m);
            let rule = &group[ri];
            modified = self.apply_at(rule, &tuple, false);
            self.queue_commands(rule);
            done = true;
        }
        modified
    }

    /// Whether `rule` may match by the board's masks: [`Runtime::may_match`], read from the
    /// counts of [`Candidates`].
    ///
    /// A rule that may not match is passed over without the memo noting that it found none,
    /// which is the same: the masks are exact at the turn's start and only grow after, by an
    /// object or a movement a cell gained, which the memo was told of. So by the time the rule
    /// may match, something it needs has changed since any note of the memo, and the rule
    /// looks afresh either way.
    #[inline]
    pub(super) fn candidate(&mut self, rule: &Rule) -> bool {
        let c = &self.x.candidates;
        if c.synced != self.x.mask_version || c.owner != self.game.rule_needs.id {
            self.sync_candidates();
        }
        self.x.candidates.missing[rule.id] == 0
    }

    /// Brings [`Candidates`] up to the board's masks, by the bits that changed since.
    pub(super) fn sync_candidates(&mut self) {
        let needs = &self.game.rule_needs;
        let x = &mut *self.x;
        let c = &mut x.candidates;
        if c.owner != needs.id || c.obj.len() != x.map_obj.len() || c.mov.len() != x.map_mov.len() {
            c.owner = needs.id;
            c.obj.clear();
            c.obj.resize(x.map_obj.len(), 0);
            c.mov.clear();
            c.mov.resize(x.map_mov.len(), 0);
            c.missing.clone_from(&needs.count);
        }
        let n = self.game.objects.len();
        let missing = &mut c.missing;
        let mut follow = |had: &mut [u64], now: &[u64], base: usize| {
            for (w, (h, v)) in had.iter_mut().zip(now).enumerate() {
                let mut changed = *h ^ v;
                while changed != 0 {
                    let b = changed.trailing_zeros() as usize;
                    changed &= changed - 1;
                    let gained = v & (1 << b) != 0;
                    for &r in needs.by_bit.get(base + w * 64 + b).map_or(&[][..], |l| l) {
                        let m = &mut missing[r as usize];
                        *m = if gained { *m - 1 } else { *m + 1 };
                    }
                }
                *h = *v;
            }
        };
        follow(&mut c.obj, &x.map_obj, 0);
        follow(&mut c.mov, &x.map_mov, n);
        c.synced = x.mask_version;
    }

    /// Notes that `rule` was tried, for a trace that asks ([`Trace::tried`]).
    pub(super) fn note_tried(&mut self, rule: &Rule, matched: bool) {
        if let Some(tried) = self.trace.as_deref_mut().and_then(|t| t.tried.as_mut()) {
            tried.push((rule.line, matched));
        }
    }

    /// Applies `rule` at its matches; `candidate`: [`Runtime::candidate`] said the board has
    /// everything it needs (so [`Runtime::may_match`] is not asked again).
    pub(super) fn try_apply(&mut self, rule: &'a Rule, candidate: bool) -> bool {
        let found = self.find_matches_cached(rule, candidate);
        self.note_tried(rule, found.is_some());
        let Some(found) = found else {
            return false;
        };
        let matches = found.rows();
        let mut result = false;
        if rule.has_replacements && rule.any_replacement {
            if matches.len() == 1 {
                for (ti, m) in matches[0].iter().enumerate() {
                    if self.over() {
                        break;
                    }
                    if self.apply_at(rule, std::slice::from_ref(m), ti > 0) {
                        result = true;
                    }
                }
            } else {
                // the cartesian product of the rows' matches, the first row varying fastest
                let total = matches.iter().fold(1usize, |a, m| a.saturating_mul(m.len())).min(MAX_TUPLES);
                let mut idx: smallvec::SmallVec<[usize; 4]> = smallvec::smallvec![0; matches.len()];
                let mut buf: smallvec::SmallVec<[Match; 4]> = matches.iter().map(|m| m[0]).collect();
                for ti in 0..total {
                    self.spend(APPLY_WORK);
                    if self.over() {
                        break;
                    }
                    if self.apply_at(rule, &buf, ti > 0) {
                        result = true;
                    }
                    for r in 0..idx.len() {
                        idx[r] += 1;
                        if idx[r] < matches[r].len() {
                            buf[r] = matches[r][idx[r]];
                            break;
                        }
                        idx[r] = 0;
                        buf[r] = matches[r][0];
                    }
                }
            }
        }
        self.give_back(found);
        self.queue_commands(rule);
        result
    }

    /// Keeps a match list for reuse.
    pub(super) fn give_back(&mut self, m: Matches) {
        if !m.rows.is_empty() && self.x.matches.len() < 16 {
            self.x.matches.push(m);
        }
    }

    pub(super) fn queue_commands(&mut self, rule: &'a Rule) {
        if rule.commands.is_empty() {
            return;
        }
        let pre_cancel = self.queue.contains(&"cancel");
        let pre_restart = self.queue.contains(&"restart");
        let cur_cancel = rule.commands.iter().any(|c| c.0 == "cancel");
        let cur_restart = rule.commands.iter().any(|c| c.0 == "restart");
        if pre_cancel {
            return;
        }
        if pre_restart && !cur_cancel {
            return;
        }
        if cur_cancel || cur_restart {
            self.queue.clear();
        }
        for (c, m) in &rule.commands {
            if self.queue.contains(&c.as_str()) {
                continue;
            }
            self.queue.push(c.as_str());
            if let Some(m) = m
                && !self.quiet
            {
                self.messages.push(m.clone());
            }
        }
    }
}
