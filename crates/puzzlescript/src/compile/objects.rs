//! Objects, the legend and collision layers: numbering, the legend's names expanded to masks,
//! the background, the player.

use super::*;

/// Object name to its index among the declarations (the first, if declared twice).
pub(super) fn definition_index(object_defs: &[parse::ObjectDef]) -> BTreeMap<&str, usize> {
    let mut def_index: BTreeMap<&str, usize> = BTreeMap::new();
    for (k, d) in object_defs.iter().enumerate() {
        def_index.entry(d.name.as_str()).or_insert(k);
    }
    def_index
}

impl Ctx {
    pub(super) fn new(
        diags: Vec<Diagnostic>,
        names: std::collections::BTreeSet<String>,
        sound_rows: &[parse::SoundRow],
        layer_count: usize,
    ) -> Ctx {
        Ctx {
            diags,
            objects: BTreeMap::new(),
            stride: 1,
            layer_count,
            layer_masks: Vec::new(),
            synonyms: BTreeMap::new(),
            aggregates: BTreeMap::new(),
            properties: BTreeMap::new(),
            properties_single_layer: BTreeMap::new(),
            properties_no_layer: std::collections::BTreeSet::new(),
            object_masks: BTreeMap::new(),
            aggregate_masks: BTreeMap::new(),
            names,
            sounds_declared: sound_rows
                .iter()
                .filter(|r| r.tokens.first().is_some_and(|t| t.1 == SoundTok::Event))
                .map(|r| r.tokens[0].0.clone())
                .collect(),
            invalid: false,
            past_limit: false,
            text: std::sync::Arc::from(""),
        }
    }
}

/// There must be a player and a background, as objects or legend entries.
pub(super) fn check_player_and_background_declared(
    ctx: &mut Ctx,
    def_index: &BTreeMap<&str, usize>,
    entries: &LegendEntries,
) {
    let is_defined = |n: &str| {
        def_index.contains_key(n)
            || entries.synonyms.iter().any(|s| s.0 == n)
            || entries.aggregates.iter().any(|s| s.0 == n)
            || entries.properties.iter().any(|s| s.0 == n)
    };
    if !is_defined("player") {
        ctx.error(0, "Error, didn't find any object called player, either in the objects section, or the legends section. There must be a player!");
    }
    if !is_defined("background") {
        ctx.error(0, "Error, didn't find any object called background, either in the objects section, or the legends section. There must be a background!");
    }
}

/// Numbers the objects: one id per occurrence in the layers, an object keeping its last; the
/// objects in no layer after them, standing on the first layer (as in the reference, so that
/// they draw no further errors of their own). Sets `ctx.objects`, `stride` and `layer_masks`.
pub(super) fn number_objects(
    ctx: &mut Ctx,
    collision_layers: &[Vec<String>],
    object_defs: &[parse::ObjectDef],
    def_index: &BTreeMap<&str, usize>,
) -> Numbering {
    let mut occurrences: Vec<(String, usize)> = Vec::new();
    let mut last_occurrence: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (li, layer) in collision_layers.iter().enumerate() {
        for n in layer {
            if def_index.contains_key(n.as_str()) {
                last_occurrence.insert(n.clone(), (occurrences.len(), li));
                occurrences.push((n.clone(), li));
            }
        }
    }
    let mut order: Vec<(usize, String, usize)> =
        last_occurrence.iter().map(|(n, (occ, l))| (*occ, n.clone(), *l)).collect();
    order.sort();
    let layered_count = order.len();
    let mut unlayered: Vec<String> = Vec::new();
    for d in object_defs {
        if !last_occurrence.contains_key(&d.name) && !unlayered.contains(&d.name) {
            unlayered.push(d.name.clone());
            order.push((usize::MAX, d.name.clone(), 0));
        }
    }
    let stride = order.len().div_ceil(64).max(1);
    ctx.stride = stride;
    let mut info = Vec::new();
    for (id, (_, name, layer)) in order.iter().enumerate() {
        ctx.objects.insert(name.clone(), (id, *layer));
        let def = def_index.get(name.as_str()).map(|&k| &object_defs[k]);
        let sprite = def.and_then(|d| {
            if d.sprite.is_empty() {
                None
            } else {
                Some(
                    d.sprite
                        .iter()
                        .map(|r| r.chars().map(|c| c.to_digit(10).map(|v| v as i8).unwrap_or(-1)).collect())
                        .collect(),
                )
            }
        });
        info.push(ObjectInfo {
            name: name.clone(),
            colors: def.map(|d| d.colors.clone()).unwrap_or_default(),
            sprite,
            layer: *layer,
            line: def.map(|d| d.line).unwrap_or(0),
        });
    }
    let mut layer_masks = vec![bits::empty(stride); collision_layers.len()];
    for (id, layer) in ctx.objects.values() {
        bits::set(&mut layer_masks[*layer], *id);
    }
    ctx.layer_masks = layer_masks;
    Numbering { info, unlayered, layered_count }
}

/// Each object's colours and sprite.
pub(super) fn check_object_definitions(ctx: &mut Ctx, object_defs: &[parse::ObjectDef]) {
    for d in object_defs {
        if d.colors.len() > 10 {
            ctx.error(
                d.line + 1,
                "a sprite cannot have more than 10 colors.  Why you would want more than 10 is beyond me.",
            );
        }
        if d.colors.is_empty() {
            ctx.error_word(d.line, &d.name, format!("color not specified for object \"{}\".", d.name));
        }
        if !d.sprite.is_empty() && (d.sprite.len() != 5 || d.sprite.iter().any(|r| r.len() != 5)) {
            ctx.warning(d.line, "Sprite graphics must be 5 wide and 5 high exactly.");
        }
    }
}

/// The glyphs a level may use: each object, synonym and aggregate as the object it puts on
/// each layer (`generateExtraMembers`), entries resolved until none is added.
pub(super) fn level_glyphs(
    ctx: &mut Ctx,
    entries: &LegendEntries,
    numbering: &Numbering,
) -> BTreeMap<String, Vec<Option<usize>>> {
    let mut glyphs: BTreeMap<String, Vec<Option<usize>>> = BTreeMap::new();
    for (name, (id, layer)) in &ctx.objects {
        let mut m = vec![None; ctx.layer_count];
        m[*layer] = Some(*id);
        glyphs.insert(name.clone(), m);
    }
    let mut added = true;
    while added {
        added = false;
        for (key, val, _) in entries.synonyms {
            if !glyphs.contains_key(key)
                && let Some(g) = glyphs.get(val).cloned()
            {
                glyphs.insert(key.clone(), g);
                added = true;
            }
        }
        for (key, vals, line) in entries.aggregates {
            if glyphs.contains_key(key) || !vals.iter().all(|v| glyphs.contains_key(v)) {
                continue;
            }
            let mut m = vec![None; ctx.layer_count];
            for n in vals {
                let Some(&(id, layer)) = ctx.objects.get(n) else {
                    ctx.error_word(*line, n, format!("Object not found with name {n}"));
                    continue;
                };
                if numbering.unlayered.contains(n) {
                    ctx.error(
                        *line,
                        format!(
                            "Object \"{}\" has been defined, but not assigned to a layer.",
                            n.to_uppercase()
                        ),
                    );
                    continue;
                }
                match m[layer] {
                    None => m[layer] = Some(id),
                    Some(other) => {
                        let n2 = numbering.info[other].name.to_uppercase();
                        ctx.error(*line, format!("Trying to create an aggregate object (something defined in the LEGEND section using AND) with both \"{}\" and \"{}\", which are on the same layer and therefore can't coexist.", n.to_uppercase(), n2));
                    }
                }
            }
            glyphs.insert(key.clone(), m);
            added = true;
        }
    }
    glyphs
}

/// The legend's dictionaries (`ctx.synonyms`, `aggregates`, `properties`): a synonym of an
/// aggregate or a property becomes one, and entries are expanded until each names objects
/// (`expandLegendDictEntries`).
pub(super) fn expand_legend(ctx: &mut Ctx, entries: &LegendEntries) {
    let mut aggregates: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut agg_order: Vec<String> = Vec::new();
    for (k, v, _) in entries.aggregates {
        aggregates.insert(k.clone(), v.clone());
        agg_order.push(k.clone());
    }
    let mut properties: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut prop_order: Vec<String> = Vec::new();
    for (k, v, _) in entries.properties {
        properties.insert(k.clone(), v.clone());
        prop_order.push(k.clone());
    }
    let mut synonyms: BTreeMap<String, String> = BTreeMap::new();
    let mut syn_order: Vec<String> = Vec::new();
    for (k, v, _) in entries.synonyms {
        if let Some(a) = aggregates.get(v).cloned() {
            aggregates.insert(k.clone(), a);
            if !agg_order.contains(k) {
                agg_order.push(k.clone());
            }
        } else if let Some(p) = properties.get(v).cloned() {
            properties.insert(k.clone(), p);
            if !prop_order.contains(k) {
                prop_order.push(k.clone());
            }
        } else if k != v {
            synonyms.insert(k.clone(), v.clone());
            if !syn_order.contains(k) {
                syn_order.push(k.clone());
            }
        }
    }
    let mut modified = true;
    let mut guard = 0;
    while modified && guard < 1000 {
        guard += 1;
        modified = false;
        for n in syn_order.clone() {
            let Some(value) = synonyms.get(&n).cloned() else {
                continue;
            };
            if let Some(p) = properties.get(&value).cloned() {
                synonyms.remove(&n);
                properties.insert(n.clone(), p);
                if !prop_order.contains(&n) {
                    prop_order.push(n.clone());
                }
                modified = true;
            } else if let Some(a) = aggregates.get(&value).cloned() {
                aggregates.insert(n.clone(), a);
                if !agg_order.contains(&n) {
                    agg_order.push(n.clone());
                }
                modified = true;
            } else if let Some(s) = synonyms.get(&value).cloned() {
                synonyms.insert(n.clone(), s);
            }
        }
        modified = expand_dict(&mut properties, &prop_order, &synonyms) || modified;
        modified = expand_dict(&mut aggregates, &agg_order, &synonyms) || modified;
    }
    ctx.synonyms = synonyms;
    ctx.aggregates = aggregates;
    ctx.properties = properties;
}

/// An aggregate may not name a property; notes the properties whose objects share one layer
/// (`ctx.properties_single_layer`) and those whose objects are all in no layer.
pub(super) fn check_legend(ctx: &mut Ctx, unlayered: &[String]) {
    let mut errors = Vec::new();
    for (n, vals) in &ctx.aggregates {
        for v in vals {
            if ctx.properties.contains_key(v) {
                errors.push(format!(
                    "Trying to define aggregate \"{}\" in terms of property \"{}\".",
                    n.to_uppercase(),
                    v.to_uppercase()
                ));
            }
        }
    }
    for e in errors {
        ctx.error(0, e);
    }
    for (key, values) in &ctx.properties {
        let mut same = true;
        let mut layer = None;
        for v in values {
            match ctx.objects.get(v).filter(|_| !unlayered.contains(v)) {
                None => {
                    same = false;
                    break;
                }
                Some(&(_, l)) => {
                    if layer.is_some_and(|x| x != l) {
                        same = false;
                        break;
                    }
                    layer = Some(l);
                }
            }
        }
        if same && let Some(l) = layer {
            ctx.properties_single_layer.insert(key.clone(), l);
        }
        if !values.is_empty() && values.iter().all(|v| unlayered.contains(v)) {
            ctx.properties_no_layer.insert(key.clone());
        }
    }
}

/// The background object (id, layer) that fills a level's empty cells: the object, a synonym's
/// object, or a property's first object (its objects must share a layer).
pub(super) fn find_background(
    ctx: &mut Ctx,
    def_index: &BTreeMap<&str, usize>,
    original_line_numbers: &[(String, usize)],
    info: &[ObjectInfo],
) -> Option<(usize, usize)> {
    let declared_line =
        || original_line_numbers.iter().find(|x| x.0 == "background").map(|x| x.1).unwrap_or(0);
    if let Some(b) = ctx.objects.get("background") {
        Some(*b)
    } else if let Some(n) = ctx.synonyms.get("background") {
        ctx.objects.get(n).copied()
    } else if let Some(def) = ctx.properties.get("background") {
        let first = def.first().and_then(|n| ctx.objects.get(n)).copied();
        if let Some((_, layer)) = first
            && def.iter().filter_map(|n| ctx.objects.get(n)).any(|o| o.1 != layer)
        {
            ctx.error(declared_line(), "Background objects must be on the same layer");
        }
        first
    } else {
        if ctx.aggregates.contains_key("background") {
            ctx.error(declared_line(), "background cannot be an aggregate (declared with 'and'), it has to be a simple type, or property (declared in terms of others using 'or').");
        } else if def_index.contains_key("background") {
            // declared but in no layer: reported with the other objects in no layer
        } else {
            ctx.error(0, "Seriously, you have to define something to be the background.");
        }
        info.first().map(|o| (0, o.layer))
    }
}

/// No background object in a layer: every level is refused for it (said once, on the first).
pub(super) fn check_background_in_layer(
    ctx: &mut Ctx,
    level_defs: &[LevelDef],
    background: Option<(usize, usize)>,
    layered_count: usize,
) {
    let first_level = level_defs.iter().find_map(|d| match d {
        LevelDef::Rows { line, .. } => Some(*line),
        LevelDef::Message { .. } => None,
    });
    if let Some(line) = first_level
        && background.is_none_or(|(id, _)| id >= layered_count)
    {
        ctx.error(line, "you have to have a background layer");
    }
}

/// Each name's object mask (`ctx.object_masks`: objects, synonyms and properties in the order
/// declared) and each aggregate's (`ctx.aggregate_masks`). Returns the mask of every object.
pub(super) fn name_masks(ctx: &mut Ctx, entries: &LegendEntries, object_count: usize) -> Bits {
    let stride = ctx.stride;
    let mut object_masks: BTreeMap<String, Bits> = BTreeMap::new();
    for (n, (id, _)) in &ctx.objects {
        let mut m = bits::empty(stride);
        bits::set(&mut m, *id);
        object_masks.insert(n.clone(), m);
    }
    let mut synprops: Vec<(usize, String, Vec<String>, bool)> = Vec::new();
    for (k, v, l) in entries.synonyms {
        synprops.push((*l, k.clone(), vec![v.clone()], true));
    }
    for (k, v, l) in entries.properties {
        synprops.push((*l, k.clone(), v.clone(), false));
    }
    synprops.sort_by_key(|x| x.0);
    for (_, k, v, is_syn) in synprops {
        if is_syn {
            if let Some(m) = object_masks.get(&v[0]).cloned() {
                object_masks.insert(k, m);
            }
        } else {
            let mut val = bits::empty(stride);
            for n in &v {
                if let Some(m) = object_masks.get(n) {
                    bits::or_into(&mut val, m);
                }
            }
            object_masks.insert(k, val);
        }
    }
    let mut all = bits::empty(stride);
    for id in 0..object_count {
        bits::set(&mut all, id);
    }
    for (n, names) in &ctx.aggregates {
        let mut m = bits::empty(stride);
        for x in names {
            if let Some(om) = object_masks.get(x) {
                bits::or_into(&mut m, om);
            }
        }
        ctx.aggregate_masks.insert(n.clone(), m);
    }
    ctx.object_masks = object_masks;
    all
}

/// The player's objects, and whether the player is an aggregate (all of them at once).
pub(super) fn player_mask(ctx: &mut Ctx, def_index: &BTreeMap<&str, usize>) -> (bool, Bits) {
    let mut m = bits::empty(ctx.stride);
    let mut aggregate = false;
    if let Some(&(id, _)) = ctx.objects.get("player") {
        bits::set(&mut m, id);
    }
    if let Some(names) = ctx.aggregates.get("player") {
        aggregate = true;
        for n in names {
            if let Some(&(id, _)) = ctx.objects.get(n) {
                bits::set(&mut m, id);
            }
        }
    }
    if let Some(names) = ctx.properties.get("player") {
        for n in names {
            if let Some(&(id, _)) = ctx.objects.get(n) {
                bits::set(&mut m, id);
            }
        }
    }
    if let Some(n) = ctx.synonyms.get("player")
        && let Some(&(id, _)) = ctx.objects.get(n)
    {
        bits::set(&mut m, id);
    }
    // Nothing found: the reference says so (an object declared but in no layer still counts as
    // found there).
    let members = ctx.aggregates.get("player").into_iter().flatten();
    let members = members.chain(ctx.properties.get("player").into_iter().flatten());
    let mut members = members.chain(ctx.synonyms.get("player"));
    let declared = def_index.contains_key("player") || members.any(|n| def_index.contains_key(n.as_str()));
    if m.iter().all(|w| *w == 0) && !declared {
        ctx.error(0, "Error, didn't find any object called player, either in the objects section, or the legends section.");
    }
    (aggregate, m)
}
