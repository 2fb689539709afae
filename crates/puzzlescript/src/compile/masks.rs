//! Concrete rules into bit masks the turn engine matches (cell patterns, replacements, quick
//! keys), their groups, loops, numbering and rigid groups.

use super::*;

pub(super) fn push_diag(
    diags: &mut Vec<Diagnostic>,
    line: usize,
    message: impl Into<String>,
    is_error: bool,
) {
    diags.push(Diagnostic { line, column: 1, width: 0, message: message.into(), is_error });
}

/// [`rule_to_mask`]'s per-layer working lists, kept from one rule to the next (one game's
/// rules: its layers): allocating ten of them for each of a game's thousands of expanded rules
/// was a tenth of the compiler's allocations. A cell writes them at its `touched` layers alone,
/// and the next cell clears those.
#[derive(Default)]
pub(super) struct MaskScratch<'r> {
    pub(super) layers_used_l: Vec<Option<&'r str>>,
    pub(super) mov_present: Vec<u8>,
    pub(super) mov_missing: Vec<u8>,
    pub(super) objectlayers_l: Vec<bool>,
    pub(super) layers_used_r: Vec<Option<&'r str>>,
    pub(super) movements_clear: Vec<u8>,
    pub(super) movements_set: Vec<u8>,
    pub(super) objectlayers_r: Vec<bool>,
    pub(super) post_layer: Vec<bool>,
    pub(super) random_dir: Vec<bool>,
    /// The layers a cell names (on either side), ascending once sorted: every per-layer entry
    /// above is zero except at these, so the checks and lists below look at these alone (a
    /// game of 190 layers compiled its thousands of cells a layer at a time, 0.13 s).
    pub(super) touched: Vec<usize>,
}

/// Compiles one expanded rule's cells into patterns. `None`: the rule is dropped.
pub(super) fn rule_to_mask<'r>(
    ctx: &Ctx,
    names: &NameTable,
    rule: &'r RawRule,
    scratch: &mut MaskScratch<'r>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Rule, Option<(String, String)>)> {
    let empty_mask = bits::empty(ctx.stride);
    let MaskScratch {
        layers_used_l,
        mov_present,
        mov_missing,
        objectlayers_l,
        layers_used_r,
        movements_clear,
        movements_set,
        objectlayers_r,
        post_layer,
        random_dir,
        touched,
    } = scratch;

    let lc = ctx.layer_count;
    if layers_used_l.len() != lc {
        // (the first rule of a game: every entry clear)
        layers_used_l.resize(lc, None);
        mov_present.resize(lc, 0);
        mov_missing.resize(lc, 0);
        objectlayers_l.resize(lc, false);
        layers_used_r.resize(lc, None);
        movements_clear.resize(lc, 0);
        movements_set.resize(lc, 0);
        objectlayers_r.resize(lc, false);
        post_layer.resize(lc, false);
        random_dir.resize(lc, false);
    }
    let stride = ctx.stride;
    let mut discard: Option<(String, String)> = None;
    let mut rows = Vec::with_capacity(rule.lhs.len());
    let mut ellipsis_at_edge = false;
    for (ri, row_l) in rule.lhs.iter().enumerate() {
        let mut out_row = Vec::with_capacity(row_l.len());
        for (ci, cell_l) in row_l.iter().enumerate() {
            // the last cell (of this rule or an earlier one) wrote at its touched layers alone
            for &l in touched.iter() {
                layers_used_l[l] = None;
                mov_present[l] = 0;
                mov_missing[l] = 0;
                objectlayers_l[l] = false;
                layers_used_r[l] = None;
                movements_clear[l] = 0;
                movements_set[l] = 0;
                objectlayers_r[l] = false;
                post_layer[l] = false;
                random_dir[l] = false;
            }
            touched.clear();
            let mut present = bits::empty(stride);
            let mut missing = bits::empty(stride);
            let mut any_present = Vec::new();
            let mut is_ellipsis = false;
            for (dir, name) in cell_l {
                if dir == "..." {
                    if cell_l.len() != 1 {
                        push_diag(
                            diags,
                            rule.line,
                            "You can't have anything in with an ellipsis. Sorry.",
                            true,
                        );
                        return None;
                    }
                    if ci == 0 || ci == row_l.len() - 1 {
                        push_diag(
                            diags,
                            rule.line,
                            "There's no point in putting an ellipsis at the very start or the end of a rule",
                            true,
                        );
                        ellipsis_at_edge = true;
                    }
                    if !rule.rhs.is_empty() {
                        let ok = rule
                            .rhs
                            .get(ri)
                            .and_then(|r| r.get(ci))
                            .is_some_and(|c| c.len() == 1 && c[0].0 == "...");
                        if !ok {
                            push_diag(
                                diags,
                                rule.line,
                                "An ellipsis on the left must be matched by one in the corresponding place on the right.",
                                true,
                            );
                        }
                    }
                    is_ellipsis = true;
                    break;
                }
                if dir == "random" {
                    push_diag(
                        diags,
                        rule.line,
                        "RANDOM cannot be matched on the left-hand side, it can only appear on the right",
                        true,
                    );
                    continue;
                }
                let info = names.get(name.as_str());
                let object = info.and_then(|i| i.object);
                let mask: &[u64] = info.and_then(|i| i.mask).map_or(&empty_mask, |v| v.as_slice());
                let layer = match object {
                    Some((_, l)) => Some(l),
                    None => info.and_then(|i| i.single_layer),
                };
                let Some(layer) = layer else {
                    push_diag(
                        diags,
                        rule.line,
                        format!("Oops! {} not assigned to a layer.", name.to_uppercase()),
                        true,
                    );
                    continue;
                };
                if dir == "no" {
                    bits::or_into(&mut missing, mask);
                } else {
                    touched.push(layer);
                    if let Some(existing) = &layers_used_l[layer] {
                        discard = Some((name.to_uppercase(), existing.to_uppercase()));
                    }
                    layers_used_l[layer] = Some(name.as_str());
                    if object.is_some() {
                        bits::or_into(&mut present, mask);
                        objectlayers_l[layer] = true;
                    } else {
                        any_present.push(Bits::from_slice(mask));
                    }
                    if dir == "stationary" {
                        mov_missing[layer] |= 0x1f;
                    } else {
                        mov_present[layer] |= dir_mask(dir).unwrap_or(0);
                    }
                }
            }
            if is_ellipsis {
                out_row.push(PatternCell::Ellipsis);
                continue;
            }
            if !bits::is_zero(&present) && bits::intersects(&present, &missing) {
                push_diag(
                    diags,
                    rule.line,
                    "This rule has something amounting to \"X NO X\" on the left-hand-side,which can never match, so the rule is getting removed during compilation.",
                    false,
                );
                return None;
            }
            let mut replacement = None;
            if !rule.rhs.is_empty() {
                let cell_r: &[(Name, Name)] =
                    rule.rhs.get(ri).and_then(|r| r.get(ci)).map(|c| c.as_slice()).unwrap_or(&[]);
                if cell_r.iter().any(|p| p.0 == "...") && cell_r.len() != 1 {
                    push_diag(diags, rule.line, "You can't have anything in with an ellipsis. Sorry.", true);
                }
                if cell_r.first().is_some_and(|p| p.0 == "...") {
                    push_diag(
                        diags,
                        rule.line,
                        "An ellipsis on the right must be matched by one in the corresponding place on the left.",
                        true,
                    );
                }
                let mut objects_clear = bits::empty(stride);
                let mut objects_set = bits::empty(stride);
                let mut random_mask = bits::empty(stride);
                for (dir, name) in cell_r {
                    if dir == "..." {
                        break;
                    }
                    if dir == "random" {
                        if let Some(m) = ctx.object_masks.get(name.as_str()) {
                            let m = m.clone();
                            bits::or_into(&mut random_mask, &m);
                        } else {
                            push_diag(
                                diags,
                                rule.line,
                                format!(
                                    "You want to spawn a random \"{}\", but I don't know how to do that",
                                    name.to_uppercase()
                                ),
                                true,
                            );
                        }
                        continue;
                    }
                    let info = names.get(name.as_str());
                    let object = info.and_then(|i| i.object);
                    let mask: &[u64] = info.and_then(|i| i.mask).map_or(&empty_mask, |v| v.as_slice());
                    let layer = match object {
                        Some((_, l)) => Some(l),
                        None => info.and_then(|i| i.single_layer),
                    };
                    let Some(layer) = layer else {
                        push_diag(
                            diags,
                            rule.line,
                            format!("Oops! {} not assigned to a layer.", name.to_uppercase()),
                            true,
                        );
                        continue;
                    };
                    if dir == "no" {
                        bits::or_into(&mut objects_clear, mask);
                    } else {
                        touched.push(layer);
                        if let Some(existing) = &layers_used_r[layer]
                            && discard.is_none()
                        {
                            let msg = format!(
                                "Rule matches object types that can't overlap: \"{}\" and \"{}\".",
                                name.to_uppercase(),
                                existing.to_uppercase()
                            );
                            push_diag(diags, rule.line, msg, true);
                        }
                        layers_used_r[layer] = Some(name.as_str());
                        if !dir.is_empty() {
                            post_layer[layer] = true;
                        }
                        if let Some((id, _)) = object {
                            bits::set(&mut objects_set, id);
                            let lm = &ctx.layer_masks[layer];
                            bits::or_into(&mut objects_clear, lm);
                            objectlayers_r[layer] = true;
                        }
                        if dir == "stationary" {
                            movements_clear[layer] |= 0x1f;
                        } else if dir == "randomdir" {
                            random_dir[layer] = true;
                        } else {
                            movements_set[layer] |= dir_mask(dir).unwrap_or(0);
                        }
                    }
                }
                if !bits::subset(&present, &objects_set) {
                    bits::or_into(&mut objects_clear, &present);
                }
                touched.sort_unstable();
                touched.dedup();
                if touched.iter().any(|&l| mov_present[l] & !movements_set[l] != 0) {
                    for &l in touched.iter() {
                        movements_clear[l] |= mov_present[l];
                    }
                }
                for &l in touched.iter() {
                    if layers_used_l[l].is_some() && layers_used_r[l].is_none() {
                        let lm = &ctx.layer_masks[l];
                        bits::or_into(&mut objects_clear, lm);
                        post_layer[l] = true;
                    }
                    if objectlayers_l[l] && !objectlayers_r[l] {
                        post_layer[l] = true;
                    }
                }
                let has_changes = !bits::is_zero(&objects_clear)
                    || !bits::is_zero(&objects_set)
                    || touched.iter().any(|&l| movements_clear[l] != 0)
                    || touched.iter().any(|&l| movements_set[l] != 0)
                    || touched.iter().any(|&l| post_layer[l])
                    || !bits::is_zero(&random_mask)
                    || touched.iter().any(|&l| random_dir[l]);
                if has_changes {
                    let mc = |l: usize| movements_clear[l] | if post_layer[l] { 0x1f } else { 0 };
                    let movs = touched
                        .iter()
                        .filter(|&&l| mc(l) != 0 || movements_set[l] != 0)
                        .map(|&l| (l, mc(l), movements_set[l]))
                        .collect();
                    let rigid_layers = touched.iter().copied().filter(|&l| post_layer[l]).collect();
                    replacement = Some(Replacement {
                        movs,
                        rigid_layers,
                        objects_clear,
                        objects_set,
                        random_entities: bits::ones(&random_mask).collect(),
                        random_dir_layers: touched.iter().copied().filter(|&l| random_dir[l]).collect(),
                    });
                }
            }
            touched.sort_unstable();
            touched.dedup();
            let word = |b: &Bits, w: usize| b.get(w).copied().unwrap_or(0);
            let mov_present: Vec<(usize, u8)> =
                touched.iter().map(|&l| (l, mov_present[l])).filter(|&(_, m)| m != 0).collect();
            let mov_missing: Vec<(usize, u8)> =
                touched.iter().map(|&l| (l, mov_missing[l])).filter(|&(_, m)| m != 0).collect();
            out_row.push(PatternCell::Cell(CellPattern {
                head: [word(&present, 0), word(&present, 1), word(&missing, 0), word(&missing, 1)],
                still: mov_present.is_empty() && mov_missing.is_empty(),
                present,
                missing,
                any_present,
                mov_present,
                mov_missing,
                replacement,
            }));
        }
        rows.push(out_row);
    }
    if ellipsis_at_edge {
        return None;
    }
    let direction = dir_mask(&rule.direction).unwrap_or(DOWN);
    let mut ellipses = Vec::new();
    for row in &rows {
        let n = row.iter().filter(|c| matches!(c, PatternCell::Ellipsis)).count();
        if n > 2 {
            push_diag(
                diags,
                rule.line,
                "You can't use more than two ellipses in a single cell match pattern.",
                true,
            );
        }
        ellipses.push(n);
    }
    let row_masks: Vec<Bits> = rows
        .iter()
        .map(|row| {
            let mut m = bits::empty(stride);
            for c in row {
                if let PatternCell::Cell(c) = c {
                    bits::or_into(&mut m, &c.present);
                }
            }
            m
        })
        .collect();
    let mstride = (5 * lc).div_ceil(64).max(1);
    let row_mov_masks: Vec<Vec<u64>> = rows
        .iter()
        .map(|row| {
            let mut m = vec![0u64; mstride];
            for c in row {
                if let PatternCell::Cell(c) = c {
                    for &(l, b) in &c.mov_present {
                        for bit in 0..5 {
                            if b & (1 << bit) != 0 {
                                bits::set(&mut m, l * 5 + bit);
                            }
                        }
                    }
                }
            }
            m
        })
        .collect();
    let any_replacement = rows.iter().flatten().any(|c| match c {
        PatternCell::Cell(c) => c.replacement.is_some(),
        PatternCell::Ellipsis => false,
    });
    let mut rule_mask = bits::empty(stride);
    for m in &row_masks {
        bits::or_into(&mut rule_mask, m);
    }
    let mut mov_mask = bits::empty(mstride);
    for m in &row_mov_masks {
        bits::or_into(&mut mov_mask, m);
    }
    let mut mention_obj = bits::empty(stride);
    let mut signature = 0u64;
    let mut mention_layers: Vec<usize> = Vec::new();
    for c in rows.iter().flatten() {
        if let PatternCell::Cell(c) = c {
            bits::or_into(&mut mention_obj, &c.present);
            bits::or_into(&mut mention_obj, &c.missing);
            for any in &c.any_present {
                bits::or_into(&mut mention_obj, any);
            }
            for &(l, _) in c.mov_present.iter().chain(&c.mov_missing) {
                signature |= 1 << layer_signature_bit(l);
                if !mention_layers.contains(&l) {
                    mention_layers.push(l);
                }
            }
        }
    }
    let mention_objs: Vec<usize> = bits::ones(&mention_obj).collect();
    let quick = rows.iter().map(|row| QuickKey::of_row(row)).collect();
    for &o in &mention_objs {
        signature |= 1 << object_signature_bit(o);
    }
    Some((
        Rule {
            direction,
            rows,
            ellipses,
            has_replacements: !rule.rhs.is_empty(),
            line: rule.line,
            group_number: rule.group_number,
            rigid: rule.rigid,
            commands: rule.commands.clone(),
            random: rule.random,
            quick,
            row_masks,
            row_mov_masks,
            rule_mask,
            mov_mask,
            any_replacement,
            rigid_index: 0,
            id: 0,
            signature,
            mention_objs,
            mention_layers,
        },
        discard,
    ))
}

pub(super) fn loop_points(loops: &[(usize, i8)], groups: &[Vec<Rule>], ctx: &mut Ctx) -> Vec<Option<usize>> {
    let mut lp: Vec<Option<usize>> = vec![None; groups.len() + 1];
    let mut j = 0;
    while j + 1 < loops.len() {
        let start = loops[j].0;
        let end = loops[j + 1].0;
        let mut init: Option<usize> = None;
        for (gi, g) in groups.iter().enumerate() {
            let (Some(first), Some(last)) = (g.first(), g.last()) else {
                continue;
            };
            if (first.line <= start && start <= last.line) || (first.line <= end && end <= last.line) {
                ctx.error(
                    start,
                    "Found a loop point in the middle of a rule. You probably don't want to do this, right?",
                );
            }
            let in_loop = start <= first.line && first.line <= end;
            let after = end < first.line;
            if after {
                break;
            }
            if in_loop {
                if init.is_none() {
                    init = Some(gi);
                }
                if gi > 0 && lp[gi - 1].is_some() && lp[gi - 1] == init {
                    lp[gi - 1] = None;
                }
                lp[gi] = init;
            }
        }
        j += 2;
    }
    lp
}

/// `expandLegendDictEntries`: synonyms substituted, same-kind entries spliced in.
pub(super) fn expand_dict(
    dict: &mut BTreeMap<String, Vec<String>>,
    order: &[String],
    synonyms: &BTreeMap<String, String>,
) -> bool {
    let mut modified = false;
    for n in order {
        let Some(mut values) = dict.get(n).cloned() else {
            continue;
        };
        let mut changed = false;
        let mut i = 0;
        while i < values.len() {
            let value = values[i].clone();
            if let Some(s) = synonyms.get(&value) {
                values[i] = s.clone();
                changed = true;
            } else if value == *n {
                // an entry naming itself (only in a game already in error): the name goes, and
                // brings nothing new (the reference edits the very list it reads)
                values.remove(i);
                changed = true;
            } else if let Some(newvalues) = dict.get(&value).cloned() {
                values.remove(i);
                for nv in newvalues {
                    if !values.contains(&nv) {
                        values.push(nv);
                    }
                }
                changed = true;
            }
            i += 1;
        }
        if changed {
            dict.insert(n.clone(), values);
            modified = true;
        }
    }
    modified
}

/// Each rule's cells turned into match patterns and replacements ([`rule_to_mask`]), with
/// whether it is late.
pub(super) fn rules_to_masks(ctx: &mut Ctx, rules: &[RawRule]) -> Vec<(Discardable, bool)> {
    let mut compiled: Vec<(Discardable, bool)> = Vec::with_capacity(rules.len());
    let mut diags = std::mem::take(&mut ctx.diags);
    let names = name_table(ctx);
    let mut scratch = MaskScratch::default();
    for r in rules {
        if let Some((rule, discard)) = rule_to_mask(ctx, &names, r, &mut scratch, &mut diags) {
            compiled.push(((rule, discard), r.late));
        }
    }
    drop(names);
    ctx.diags = diags;
    compiled
}

/// The rules (early or late ones) in groups by group number ascending. A rule that can never
/// match (two objects of one layer in a cell) is dropped, and is an error when no other
/// expansion of its line is kept beside it.
pub(super) fn group_rules(ctx: &mut Ctx, compiled: Vec<(Discardable, bool)>) -> Vec<Vec<Rule>> {
    let mut map: BTreeMap<usize, Vec<Discardable>> = BTreeMap::new();
    for ((rule, discard), _) in compiled {
        map.entry(rule.group_number).or_default().push((rule, discard));
    }
    let mut out = Vec::new();
    for (_, mut group) in map {
        let mut i = 0;
        let mut discards: Vec<(String, String)> = Vec::new();
        while i < group.len() {
            if let Some(d) = group[i].1.clone() {
                let line = group[i].0.line;
                let before = i > 0 && group[i - 1].0.line == line;
                let after = i + 1 < group.len() && group[i + 1].0.line == line;
                group.remove(i);
                if !discards.contains(&d) {
                    discards.push(d);
                }
                if !(before || after) || group.is_empty() {
                    let ex = &discards[0];
                    ctx.error(line, format!("{} and {} can never overlap. This rule requires that to happen, so it impossible it will ever trigger.", ex.0, ex.1));
                }
            } else {
                i += 1;
            }
        }
        if !group.is_empty() {
            out.push(group.into_iter().map(|(r, _)| r).collect::<Vec<Rule>>());
        }
    }
    out
}

/// Numbers every rule, early then late (`Rule::id`, for per-turn caches); returns how many.
pub(super) fn number_rules(rule_groups: &mut [Vec<Rule>], late_groups: &mut [Vec<Rule>]) -> usize {
    let mut next_id = 0;
    for r in rule_groups.iter_mut().chain(late_groups.iter_mut()).flatten() {
        r.id = next_id;
        next_id += 1;
    }
    next_id
}

/// The rigid groups (groups with a rigid rule): for each, its group; for each group, its rigid
/// index; each rigid rule's `rigid_index`. More than 30 is an error.
pub(super) fn rigid_groups(ctx: &mut Ctx, rule_groups: &mut [Vec<Rule>]) -> (Vec<usize>, Vec<Option<usize>>) {
    let mut rigid_group_to_group = Vec::new();
    let mut group_rigid_index = vec![None; rule_groups.len()];
    let mut group_number_rigid: BTreeMap<usize, usize> = BTreeMap::new();
    for (gi, g) in rule_groups.iter().enumerate() {
        if g.iter().any(|r| r.rigid) {
            let idx = rigid_group_to_group.len();
            group_rigid_index[gi] = Some(idx);
            group_number_rigid.insert(g[0].group_number, idx);
            rigid_group_to_group.push(gi);
        }
    }
    for g in rule_groups.iter_mut() {
        for r in g.iter_mut() {
            if r.rigid
                && let Some(&idx) = group_number_rigid.get(&r.group_number)
            {
                r.rigid_index = (idx + 1).min(31) as u8;
            }
        }
    }
    if rigid_group_to_group.len() > 30 {
        let line = rule_groups[rigid_group_to_group[30]][0].line;
        ctx.error(line, "There can't be more than 30 rigid groups (rule groups containing rigid members).");
    }
    (rigid_group_to_group, group_rigid_index)
}
