//! A raw rule expanded into concrete rules: one per direction of a moving rule, one per object
//! of a property on the right-hand side, spawned objects made stationary; duplicates dropped.

use super::*;

/// How many rules [`concretize_moving_rule`]'s queue makes of `rule` (more than
/// [`MAX_EXPANDED_RULES`] is told as `MAX_EXPANDED_RULES + 1`), without making them: each rule
/// taken from the queue gives, for every cell with an ambiguous movement left, one rule per
/// direction of that cell's first one; the rules without any are the result. With `m` such
/// movements of `d` directions each that is `m! d^m`: past 7 of them (7! 2^7 > 100,000) the
/// answer is known at once, else it is counted over the at most 7! orders.
fn expansions(rule: &RawRule) -> usize {
    let cells: Vec<Vec<usize>> = rule
        .lhs
        .iter()
        .flatten()
        .map(|cell| {
            let mut seen: Vec<&(Name, Name)> = Vec::new();
            let mut dirs = Vec::new();
            for entry in cell {
                if let Some(d) = direction_aggregate(&entry.0)
                    && !seen.contains(&entry)
                {
                    seen.push(entry);
                    dirs.push(d.len());
                }
            }
            dirs
        })
        .filter(|d| !d.is_empty())
        .collect();
    let m: usize = cells.iter().map(Vec::len).sum();
    if m > 7 {
        return MAX_EXPANDED_RULES + 1;
    }
    fn count(cells: &[Vec<usize>], used: &mut Vec<usize>) -> usize {
        let mut total = 0usize;
        let mut any = false;
        for c in 0..cells.len() {
            if used[c] < cells[c].len() {
                any = true;
                let d = cells[c][used[c]];
                used[c] += 1;
                total = total.saturating_add(d.saturating_mul(count(cells, used)));
                used[c] -= 1;
                if total > MAX_EXPANDED_RULES {
                    return MAX_EXPANDED_RULES + 1;
                }
            }
        }
        if any { total } else { 1 }
    }
    count(&cells, &mut vec![0; cells.len()])
}

/// The rule once for each concrete direction of each ambiguous movement on its left
/// (`moving`, `horizontal`, ...), as the reference expands it.
///
/// The reference keeps one list: it walks it, and a rule with an ambiguous movement is taken
/// out and its expansions appended at the end (one for each concrete direction, for every
/// ambiguous cell), then walked in their turn. That is a queue: the rules left are the concrete
/// ones, in the order the queue reaches them, which is the order kept here, without the
/// reference's second walk and its removals from the middle of the list.
pub(super) fn concretize_moving_rule(ctx: &mut Ctx, rule: RawRule) -> Vec<RawRule> {
    // The rules it expands to, counted before any is made (issue 66.7: 200 rules past the limit
    // were each expanded up to it, 65 s; now the first is refused at once).
    if expansions(&rule) > MAX_EXPANDED_RULES {
        ctx.error(rule.line, format!("This rule expands to more than {MAX_EXPANDED_RULES} rules (ambiguous movements); tessera stops here."));
        ctx.invalid = true;
        ctx.past_limit = true;
        return Vec::new();
    }
    type MovRep = Vec<(Name, (Name, usize, Name, Name, usize, usize))>;
    type AggRep = Vec<(Name, (Name, usize))>;
    let mut queue: std::collections::VecDeque<(RawRule, Option<(MovRep, AggRep)>)> =
        std::collections::VecDeque::from([(rule, None)]);
    let mut result: Vec<(RawRule, Option<(MovRep, AggRep)>)> = Vec::new();
    while let Some((cur, reps)) = queue.pop_front() {
        let mut expanded = false;
        for j in 0..cur.lhs.len() {
            for k in 0..cur.lhs[j].len() {
                // the cell's first ambiguous movement
                let Some((ambiguous, cand_name)) =
                    cur.lhs[j][k].iter().find(|(d, _)| direction_aggregate(d).is_some())
                else {
                    continue;
                };
                expanded = true;
                // each expansion adds at least one rule: the count only grows
                if result.len() + queue.len() > MAX_EXPANDED_RULES {
                    ctx.error(cur.line, format!("This rule expands to more than {MAX_EXPANDED_RULES} rules (ambiguous movements); tessera stops here."));
                    ctx.invalid = true;
                    return Vec::new();
                }
                let concrete_dirs = direction_aggregate(ambiguous).unwrap_or(&[]);
                for concrete in concrete_dirs {
                    let mut nr = cur.clone();
                    let (mut mr, mut ar) = reps.clone().unwrap_or_default();
                    for p in nr.lhs[j][k].iter_mut() {
                        if p.0 == *ambiguous && p.1 == *cand_name {
                            p.0 = Name::from(*concrete);
                        }
                    }
                    if !nr.rhs.is_empty()
                        && let Some(c) = nr.rhs.get_mut(j).and_then(|r| r.get_mut(k))
                    {
                        for p in c.iter_mut() {
                            if p.0 == *ambiguous && p.1 == *cand_name {
                                p.0 = Name::from(*concrete);
                            }
                        }
                    }
                    let key = Name::from(format!("{cand_name}{ambiguous}"));
                    if let Some(e) = mr.iter_mut().find(|e| e.0 == key) {
                        if j != e.1.4 || k != e.1.5 {
                            e.1.1 += 1;
                        }
                    } else {
                        mr.push((
                            key,
                            (Name::from(*concrete), 1, ambiguous.clone(), cand_name.clone(), j, k),
                        ));
                    }
                    if let Some(e) = ar.iter_mut().find(|e| e.0 == *ambiguous) {
                        e.1.1 += 1;
                    } else {
                        ar.push((ambiguous.clone(), (Name::from(*concrete), 1)));
                    }
                    queue.push_back((nr, Some((mr, ar))));
                }
            }
        }
        if !expanded {
            result.push((cur, reps));
        }
    }
    if result.len() > MAX_EXPANDED_RULES {
        let line = result.first().map_or(0, |r| r.0.line);
        ctx.error(line, format!("This rule expands to more than {MAX_EXPANDED_RULES} rules (ambiguous movements); tessera stops here."));
        ctx.invalid = true;
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut remaining = String::new();
    for (mut rule, reps) in result {
        if let Some((mr, ar)) = reps {
            for (_, (concrete, count, ambiguous, object, _, _)) in &mr {
                if *count == 1 {
                    for row in rule.rhs.iter_mut() {
                        for cell in row.iter_mut() {
                            for p in cell.iter_mut() {
                                if p.0 == *ambiguous && p.1 == *object {
                                    p.0 = concrete.clone();
                                }
                            }
                        }
                    }
                }
            }
            for (ambiguous, (concrete, count)) in &ar {
                if *count != 1 {
                    continue;
                }
                for row in rule.rhs.iter_mut() {
                    for cell in row.iter_mut() {
                        for p in cell.iter_mut() {
                            if p.0 == *ambiguous {
                                p.0 = concrete.clone();
                            }
                        }
                    }
                }
            }
        }
        if remaining.is_empty() {
            for row in &rule.rhs {
                for cell in row {
                    if let Some((d, _)) = cell.iter().find(|(d, _)| direction_aggregate(d).is_some()) {
                        remaining = d.to_string();
                    }
                }
            }
        }
        out.push(rule);
    }
    if !remaining.is_empty() {
        let line = out.first().map(|r| r.line).unwrap_or(0);
        ctx.error_word(line, &remaining.to_string(), format!("This rule has an ambiguous movement on the right-hand side, \"{remaining}\", that can't be inferred from the left-hand side."));
        ctx.invalid = true;
    }
    out
}

/// What the expansion of rules asks of a name, in one lookup.
#[derive(Default)]
pub(super) struct NameKind {
    /// an object's layer
    pub(super) object: Option<usize>,
    /// a property's objects, each with its layer
    pub(super) aliases: Option<Vec<(Name, Option<usize>)>>,
    /// a property kept whole unless the right-hand side needs it expanded: its objects share
    /// one layer, or none has a layer
    pub(super) whole: bool,
}

pub(super) type NameKinds = std::collections::HashMap<Name, NameKind, rustc_hash::FxBuildHasher>;

pub(super) fn name_kinds(ctx: &Ctx) -> NameKinds {
    let mut kinds = NameKinds::default();
    for (name, &(_, layer)) in &ctx.objects {
        kinds.entry(Name::from(name.as_str())).or_default().object = Some(layer);
    }
    for (name, aliases) in &ctx.properties {
        let kind = kinds.entry(Name::from(name.as_str())).or_default();
        kind.aliases =
            Some(aliases.iter().map(|a| (Name::from(a.as_str()), ctx.objects.get(a).map(|o| o.1))).collect());
        kind.whole = ctx.properties_single_layer.contains_key(name) || ctx.properties_no_layer.contains(name);
    }
    kinds
}

/// The objects of property `name` (`None`: not a property).
pub(super) fn aliases_of<'k>(kinds: &'k NameKinds, name: &str) -> Option<&'k [(Name, Option<usize>)]> {
    kinds.get(name).and_then(|k| k.aliases.as_deref())
}

/// The rule once for each object of each property on its left that must be made concrete (a
/// property whose objects lie on several layers, or one the right-hand side names without
/// the left naming it in the same cell), as the reference expands it; `no P` becomes `no A`,
/// `no B`, ... for each object of `P` first.
pub(super) fn concretize_property_rule(ctx: &mut Ctx, kinds: &NameKinds, mut rule: RawRule) -> Vec<RawRule> {
    let is_property = |d: &Name, n: &Name| d != "random" && aliases_of(kinds, n).is_some();
    let expand_no = |cell: &mut Cell| {
        if !cell.iter().any(|(d, n)| d == "no" && aliases_of(kinds, n).is_some()) {
            return;
        }
        let mut out = Vec::with_capacity(cell.len());
        for (d, n) in cell.drain(..) {
            match aliases_of(kinds, &n) {
                Some(aliases) if d == "no" => out.extend(aliases.iter().map(|(a, _)| (d.clone(), a.clone()))),
                _ => out.push((d, n)),
            }
        }
        *cell = out;
    };
    for i in 0..rule.lhs.len() {
        for j in 0..rule.lhs[i].len() {
            expand_no(&mut rule.lhs[i][j]);
            if let Some(c) = rule.rhs.get_mut(i).and_then(|r| r.get_mut(j)) {
                expand_no(c);
            }
        }
    }
    // properties on the right that the left does not name in the same cell
    let mut ambiguous: Vec<Name> = Vec::new();
    for (j, row) in rule.rhs.iter().enumerate() {
        for (k, cell) in row.iter().enumerate() {
            let left = rule.lhs.get(j).and_then(|r| r.get(k));
            for (d, p) in cell {
                if is_property(d, p)
                    && !left.is_some_and(|c| c.iter().any(|(dl, nl)| nl == p && is_property(dl, nl)))
                    && !ambiguous.contains(p)
                {
                    ambiguous.push(p.clone());
                }
            }
        }
    }
    // The rules it expands to, counted before any is made (issue 66.7: a rule past the limit
    // was expanded up to it before it was refused).
    if property_expansions(kinds, &ambiguous, &rule).is_some_and(|n| n > MAX_EXPANDED_RULES) {
        ctx.error(
            rule.line,
            format!(
                "This rule expands to more than {MAX_EXPANDED_RULES} rules (properties); tessera stops here."
            ),
        );
        ctx.invalid = true;
        ctx.past_limit = true;
        return Vec::new();
    }
    type PropRep = Vec<(Name, (Name, usize))>;
    // A queue, as in [`concretize_moving_rule`]; one property is expanded at a time.
    let mut queue: std::collections::VecDeque<(RawRule, Option<PropRep>)> =
        std::collections::VecDeque::from([(rule, None)]);
    let mut result: Vec<(RawRule, Option<PropRep>)> = Vec::new();
    while let Some((cur, reps)) = queue.pop_front() {
        // the first property to expand
        let found = cur.lhs.iter().enumerate().find_map(|(j, row)| {
            row.iter().enumerate().find_map(|(k, cell)| {
                cell.iter()
                    .filter(|(d, n)| is_property(d, n))
                    .find(|(_, property)| {
                        !kinds.get(property).is_some_and(|k| k.whole) || ambiguous.contains(property)
                    })
                    .map(|(_, property)| (j, k, property.clone()))
            })
        });
        let Some((j, k, property)) = found else {
            result.push((cur, reps));
            continue;
        };
        if result.len() + queue.len() > MAX_EXPANDED_RULES {
            ctx.error(cur.line, format!("This rule expands to more than {MAX_EXPANDED_RULES} rules (properties); tessera stops here."));
            ctx.invalid = true;
            ctx.past_limit = true;
            return Vec::new();
        }
        for (concrete, _) in aliases_of(kinds, &property).unwrap_or(&[]) {
            let mut nr = cur.clone();
            let mut pr = reps.clone().unwrap_or_default();
            let cells =
                std::iter::once(&mut nr.lhs[j][k]).chain(nr.rhs.get_mut(j).and_then(|r| r.get_mut(k)));
            for p in cells.flatten() {
                if p.1 == property && p.0 != "random" {
                    p.1 = concrete.clone();
                }
            }
            #[cfg(test)]
            PROPERTY_RULES_MADE.with(|n| n.set(n.get() + 1));
            if let Some(e) = pr.iter_mut().find(|e| e.0 == property) {
                e.1.1 += 1;
            } else {
                pr.push((property.clone(), (concrete.clone(), 1)));
            }
            queue.push_back((nr, Some(pr)));
        }
    }
    if result.len() > MAX_EXPANDED_RULES {
        let line = result.first().map_or(0, |r| r.0.line);
        ctx.error(
            line,
            format!(
                "This rule expands to more than {MAX_EXPANDED_RULES} rules (properties); tessera stops here."
            ),
        );
        ctx.invalid = true;
        ctx.past_limit = true;
        return Vec::new();
    }
    let mut out = Vec::with_capacity(result.len());
    let mut remains = String::new();
    for (mut rule, reps) in result {
        // a property the left names once in a cell stands for the same object on the right
        for (property, (concrete, count)) in reps.iter().flatten() {
            if *count == 1 {
                for p in rule.rhs.iter_mut().flatten().flatten() {
                    if p.1 == *property && p.0 != "random" {
                        p.1 = concrete.clone();
                    }
                }
            }
        }
        if !ambiguous.is_empty() {
            for (d, p) in rule.rhs.iter().flatten().flatten() {
                if is_property(d, p) && ambiguous.contains(p) {
                    remains = p.to_string();
                }
            }
        }
        out.push(rule);
    }
    if !remains.is_empty() {
        let line = out.first().map(|r| r.line).unwrap_or(0);
        ctx.error(line, format!("This rule has a property on the right-hand side, \"{}\", that can't be inferred from the left-hand side.  (either for every property on the right there has to be a corresponding one on the left in the same cell, OR, if there's a single occurrence of a particular property name on the left, all properties of the same name on the right are assumed to be the same).", remains.to_uppercase()));
        return Vec::new();
    }
    out
}

#[cfg(test)]
thread_local! {
    /// The rules [`concretize_property_rule`]'s queue made on this thread (the tests' count).
    pub(super) static PROPERTY_RULES_MADE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many rules [`concretize_property_rule`]'s queue makes of `rule` (more than
/// [`MAX_EXPANDED_RULES`] is told as `MAX_EXPANDED_RULES + 1`), without making them: the queue
/// replaces, cell by cell, each property it must make concrete (all of its non-`random`
/// mentions in that cell at once) by each of its objects in turn, so the count is the product,
/// over the cells, of the number of objects of each such property the cell names. `None` when a
/// property's object is itself a property (the queue would meet it again: it counts as it goes).
fn property_expansions(kinds: &NameKinds, ambiguous: &[Name], rule: &RawRule) -> Option<usize> {
    let mut total = 1usize;
    for cell in rule.lhs.iter().flatten() {
        let mut seen: Vec<&Name> = Vec::new();
        for (d, n) in cell {
            if d == "random" || seen.contains(&n) {
                continue;
            }
            let Some(aliases) = aliases_of(kinds, n) else { continue };
            if kinds.get(n).is_some_and(|k| k.whole) && !ambiguous.contains(n) {
                continue;
            }
            seen.push(n);
            if aliases.iter().any(|(a, _)| aliases_of(kinds, a).is_some()) {
                return None;
            }
            if aliases.is_empty() {
                return None;
            }
            total = total.saturating_mul(aliases.len()).min(MAX_EXPANDED_RULES + 1);
        }
    }
    Some(total)
}

/// Outside late rules, an object the right-hand side creates in a cell whose left names
/// nothing on its layer is made `stationary` (a new object does not move).
pub(super) fn make_spawned_stationary(kinds: &NameKinds, rule: &mut RawRule) {
    if rule.late {
        return;
    }
    for (j, row) in rule.rhs.iter_mut().enumerate() {
        for (k, cell) in row.iter_mut().enumerate() {
            if !cell.iter().any(|p| p.0.is_empty()) {
                continue;
            }
            let left: &[(Name, Name)] = rule.lhs.get(j).and_then(|r| r.get(k)).map_or(&[], |c| c.as_slice());
            // the objects the left names (a property: its objects), each with its layer
            let objects_l = || {
                left.iter().flat_map(|(_, n)| {
                    let kind = kinds.get(n);
                    let (object, aliases) = match kind.and_then(|k| k.object) {
                        Some(layer) => (Some((n, Some(layer))), None),
                        None => (None, kind.and_then(|k| k.aliases.as_deref())),
                    };
                    object.into_iter().chain(aliases.into_iter().flatten().map(|(a, l)| (a, *l)))
                })
            };
            for p in cell.iter_mut() {
                if !p.0.is_empty() {
                    continue;
                }
                let Some(kind) = kinds.get(&p.1) else { continue };
                if kind.aliases.is_some() || objects_l().any(|(o, _)| *o == p.1) {
                    continue;
                }
                let Some(layer) = kind.object else {
                    continue;
                };
                if !objects_l().any(|(_, l)| l == Some(layer)) {
                    p.0 = Name::new_inline("stationary");
                }
            }
        }
    }
}

/// What [`rule_to_mask`] asks of a name, in one lookup: the object (id, layer), its mask, and
/// the layer of a property whose objects share one.
pub(super) struct NameInfo<'c> {
    pub(super) object: Option<(usize, usize)>,
    pub(super) mask: Option<&'c Bits>,
    pub(super) single_layer: Option<usize>,
}

pub(super) type NameTable<'c> = std::collections::HashMap<&'c str, NameInfo<'c>, rustc_hash::FxBuildHasher>;

pub(super) fn name_table(ctx: &Ctx) -> NameTable<'_> {
    let mut table = NameTable::default();
    let keys = ctx.objects.keys().chain(ctx.object_masks.keys()).chain(ctx.properties_single_layer.keys());
    for k in keys {
        table.entry(k.as_str()).or_insert_with(|| NameInfo {
            object: ctx.objects.get(k).copied(),
            mask: ctx.object_masks.get(k),
            single_layer: ctx.properties_single_layer.get(k).copied(),
        });
    }
    table
}

/// Reads each rule line (`processRuleString`): the rules, and the loop marks (line, +1 for
/// `startloop`, -1 for `endloop`).
pub(super) fn read_rules(
    ctx: &mut Ctx,
    rule_lines: &[(String, usize, String)],
) -> (Vec<RawRule>, Vec<(usize, i8)>) {
    let mut raw_rules: Vec<RawRule> = Vec::new();
    let mut loops: Vec<(usize, i8)> = Vec::new();
    for r in rule_lines {
        match process_rule_string(ctx, r, &raw_rules) {
            None => {}
            Some(Err(b)) => loops.push((r.1, b)),
            Some(Ok(rule)) => raw_rules.push(rule),
        }
    }
    (raw_rules, loops)
}

/// "X" and "no X" required together on a right-hand side: an error.
pub(super) fn check_rule_contradictions(ctx: &mut Ctx, raw_rules: &[RawRule]) {
    for rule in raw_rules {
        for cell in rule.rhs.iter().flatten() {
            let mut present = bits::empty(ctx.stride);
            let mut present_names: Vec<&str> = Vec::new();
            for (d, n) in cell {
                if !d.starts_with("no")
                    && let Some(&(id, _)) = ctx.objects.get(n.as_str())
                {
                    bits::set(&mut present, id);
                    present_names.push(n);
                }
            }
            for (d, n) in cell {
                if d.starts_with("no")
                    && let Some(m) = ctx.object_masks.get(n.as_str())
                    && bits::intersects(m, &present)
                {
                    let msg = format!(
                        "You have specified that there should be NO {} but there is also a requirement that {} be here.  This is a mistake right?",
                        n.to_uppercase(),
                        present_names.join(", ").to_uppercase()
                    );
                    ctx.diags.push(Diagnostic {
                        line: rule.line,
                        column: 1,
                        width: 0,
                        message: msg,
                        is_error: true,
                    });
                }
            }
        }
    }
}

/// Rule expansion (`rulesToArray`): one rule per direction, relative directions made absolute,
/// up and left rules turned into down and right, aggregates and synonyms replaced by objects,
/// ambiguous movements and properties concretised, spawned objects made stationary. `None`: a
/// rule made the game invalid.
pub(super) fn expand_rules(ctx: &mut Ctx, raw_rules: &[RawRule]) -> Option<Vec<RawRule>> {
    let mut rules = Vec::new();
    for rule in raw_rules {
        for dir in rule.direction.split(',').filter(|d| !d.is_empty()) {
            let mut r = rule.clone();
            r.direction = dir.to_string();
            rules.push(r);
        }
    }
    for rule in rules.iter_mut() {
        absolutify_rule(rule);
        expand_aggregates_and_synonyms(ctx, rule);
        if ctx.invalid {
            return None;
        }
    }
    // The first rule past the expansion limit ends the compilation (issue 66.7).
    let mut moving = Vec::new();
    for r in rules {
        moving.extend(concretize_moving_rule(ctx, r));
        if ctx.past_limit {
            return None;
        }
    }
    let kinds = name_kinds(ctx);
    let mut concrete = Vec::new();
    for r in moving {
        concrete.extend(concretize_property_rule(ctx, &kinds, r));
        if ctx.past_limit {
            return None;
        }
    }
    for r in concrete.iter_mut() {
        make_spawned_stationary(&kinds, r);
    }
    if ctx.invalid {
        return None;
    }
    Some(concrete)
}

/// Relative directions made absolute for the rule's direction; an up or left rule without an
/// ellipsis turned into a down or right one, its rows reversed.
pub(super) fn absolutify_rule(rule: &mut RawRule) {
    let forward = rule.direction.clone();
    for cell in cells_mut(rule) {
        for p in cell.iter_mut() {
            if let Some(a) = absolutify(&forward, &p.0) {
                p.0 = Name::from(a);
            }
        }
    }
    if !contains_ellipsis(rule) {
        let flip = match rule.direction.as_str() {
            "up" => Some("down"),
            "left" => Some("right"),
            _ => None,
        };
        if let Some(f) = flip {
            rule.direction = f.to_string();
            for row in rule.lhs.iter_mut() {
                row.reverse();
            }
            for row in rule.rhs.iter_mut() {
                row.reverse();
            }
        }
    }
}

/// Each aggregate in a cell replaced by its objects (with the same direction), then each
/// synonym by its object. Errors: `no` before an aggregate; a cell that grows past
/// [`MAX_CELL_TERMS`].
pub(super) fn expand_aggregates_and_synonyms(ctx: &mut Ctx, rule: &mut RawRule) {
    let line = rule.line;
    let mut errs = Vec::new();
    for cell in cells_mut(rule) {
        let mut i = 0;
        while i < cell.len() {
            // An aggregate defined through itself would expand without end: bound the cell.
            if cell.len() > MAX_CELL_TERMS {
                errs.push(format!(
                    "A cell of this rule expands into more than {MAX_CELL_TERMS} objects (an aggregate defined through itself?)"
                ));
                cell.truncate(MAX_CELL_TERMS);
                break;
            }
            let (dir, name) = cell[i].clone();
            if let Some(equivs) = ctx.aggregates.get(name.as_str()) {
                if dir == "no" {
                    errs.push(format!("You cannot use 'no' to exclude the aggregate object {} (defined using 'AND'), only regular objects, or properties (objects defined using 'OR').  If you want to do this, you'll have to write it out yourself the long way.", name.to_uppercase()));
                }
                if let Some(first) = equivs.first() {
                    cell[i].1 = first.as_str().into();
                }
                for e in equivs.iter().skip(1) {
                    cell.push((dir.clone(), e.as_str().into()));
                }
            }
            i += 1;
        }
    }
    for e in errs {
        ctx.error(line, e);
    }
    if ctx.invalid {
        return;
    }
    for cell in cells_mut(rule) {
        for p in cell.iter_mut() {
            if let Some(s) = ctx.synonyms.get(p.1.as_str()) {
                p.1 = s.as_str().into();
            }
        }
    }
}

/// Duplicates removed: within a run of one group number, the last occurrence is kept.
pub(super) fn drop_duplicate_rules(rules: Vec<RawRule>) -> Vec<RawRule> {
    type RuleKey<'r> = (
        usize,
        &'r str,
        (bool, bool, bool),
        &'r Vec<Vec<Cell>>,
        &'r Vec<Vec<Cell>>,
        &'r Vec<(String, Option<String>)>,
    );
    let key = |r: &'_ RawRule| -> (usize, bool) { (r.line, r.lhs.iter().any(|row| row.len() > 1)) };
    let reps: Vec<RuleKey> = rules
        .iter()
        .map(|r| {
            let (line, directed) = key(r);
            (
                line,
                if directed { r.direction.as_str() } else { "" },
                (r.rigid, r.random, r.late),
                &r.lhs,
                &r.rhs,
                &r.commands,
            )
        })
        .collect();
    let mut keep = vec![false; rules.len()];
    let mut seen: std::collections::HashSet<&RuleKey, rustc_hash::FxBuildHasher> =
        std::collections::HashSet::default();
    let mut last_group = usize::MAX;
    for i in (0..rules.len()).rev() {
        if rules[i].group_number != last_group {
            seen.clear();
        }
        if seen.insert(&reps[i]) {
            keep[i] = true;
        }
        last_group = rules[i].group_number;
    }
    drop(seen);
    drop(reps);
    rules.into_iter().zip(keep).filter(|(_, k)| *k).map(|(r, _)| r).collect()
}
