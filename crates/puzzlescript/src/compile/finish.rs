//! The last passes: win conditions, sounds, loops' checks, the prelude's metadata.

use super::*;

/// The win conditions as masks (`no`: -1, `some`: 0, `all`: 1; the second mask every object
/// when there is no `on`).
pub(super) fn compile_win_conditions(
    ctx: &mut Ctx,
    winconditions: &[(Vec<String>, usize)],
    all: &Bits,
) -> Vec<WinCondition> {
    let mut wins = Vec::new();
    for (words, line) in winconditions {
        if words.is_empty() {
            break;
        }
        let q = match words[0].as_str() {
            "no" => -1,
            "all" => 1,
            _ => 0,
        };
        if words.len() <= 1 {
            ctx.error(*line, "Win conditions is badly formatted - needs to look something like \"No Fruit\", \"All Target On Crate\", \"Some Fruit\", \"Some Gold on Chest\", \"No Gold on Chest\", or the like.");
            continue;
        }
        // (the words themselves are checked as the text is read: parse.rs)
        let lookup = |ctx: &mut Ctx, n: &str| -> Option<(bool, Bits)> {
            if n == "\nall\n" {
                return Some((false, all.clone()));
            }
            if let Some(m) = ctx.object_masks.get(n) {
                Some((false, m.clone()))
            } else if let Some(m) = ctx.aggregate_masks.get(n) {
                Some((true, m.clone()))
            } else {
                ctx.error_word(*line, n, format!("Unwelcome term \"{n}\" found in win condition. I don't know what I'm supposed to do with this. "));
                None
            }
        };
        let n2 = if words.len() == 4 { words[3].clone() } else { "\nall\n".to_string() };
        let r1 = lookup(ctx, &words[1]);
        let r2 = lookup(ctx, &n2);
        if let (Some((a1, m1)), Some((a2, m2))) = (r1, r2) {
            wins.push(WinCondition {
                quantifier: q,
                mask1: m1,
                mask2: m2,
                aggregate1: a1,
                aggregate2: a2,
                line: *line,
            });
        }
    }
    wins
}

/// An object declared but in no layer: an error on its declaration.
pub(super) fn report_unlayered_objects(
    ctx: &mut Ctx,
    object_defs: &[parse::ObjectDef],
    unlayered: &[String],
) {
    for d in object_defs {
        if unlayered.contains(&d.name) {
            ctx.error(
                d.line,
                format!(
                    "Object \"{}\" has been defined, but not assigned to a layer.",
                    d.name.to_uppercase()
                ),
            );
        }
    }
}

/// Loops must alternate `startloop` and `endloop`, without nesting; an open loop is closed on
/// its last mark.
pub(super) fn check_loops(ctx: &mut Ctx, loops: &mut Vec<(usize, i8)>) {
    for (i, l) in loops.iter().enumerate() {
        if i % 2 == 0 {
            if l.1 == -1 {
                ctx.error(l.0, "Found an ENDLOOP, but I'm not in a loop?");
            }
        } else if l.1 == 1 {
            ctx.error(
                l.0,
                "Found a STARTLOOP, but I'm already inside a loop? (Puzzlescript can't nest loops, FWIW).",
            );
        }
    }
    if !loops.len().is_multiple_of(2) {
        let last = loops[loops.len() - 1].0;
        ctx.error(last, "Yo I found a STARTLOOP without a corresponding ENDLOOP.");
        loops.push((last, -1));
    }
}

/// The sounds the engine records: events by name, and per object its movement, failed
/// movement, creation and destruction sounds (a property's per object).
pub(super) fn compile_sounds(ctx: &mut Ctx, sound_rows: &[parse::SoundRow]) -> Sounds {
    let mut sounds = Sounds { movement: vec![Vec::new(); ctx.layer_count], ..Sounds::default() };
    for row in sound_rows {
        let t = &row.tokens;
        if t.len() < 2 {
            ctx.warning(row.line, "incorrect sound declaration.");
            continue;
        }
        let seed = t[t.len() - 1].0.clone();
        // without a seed the row is still checked on (as the reference does), but not kept
        let no_seed = t[t.len() - 1].1 != SoundTok::Seed;
        if no_seed {
            ctx.error_word(row.line, &seed, format!("Expecting sfx data, instead found \"{seed}\"."));
        }
        if no_seed && t[0].1 == SoundTok::Event {
            continue;
        }
        if t[0].1 == SoundTok::Event {
            if sounds.events.contains_key(&t[0].0) {
                ctx.warning_word(
                    row.line,
                    &t[0].0.clone(),
                    format!("{} already declared.", t[0].0.to_uppercase()),
                );
            }
            sounds.declared.push(declaration(row.line, t));
            sounds.events.insert(t[0].0.clone(), seed);
            continue;
        }
        let target = t[0].0.clone();
        if no_seed {
            if ctx.aggregates.contains_key(&target) {
                ctx.error(row.line, format!("cannot assign sound events to aggregate objects (declared with \"and\"), only to regular objects, or properties, things defined in terms of \"or\" (\"{target}\")."));
            }
            continue;
        }
        let mut verb = t[1].0.clone();
        let mut dirs: Vec<String> =
            t[2..t.len() - 1].iter().filter(|x| x.1 == SoundTok::Direction).map(|x| x.0.clone()).collect();
        if verb == "action" {
            verb = "move".to_string();
            dirs = vec!["___action____".to_string()];
        }
        if dirs.is_empty() {
            dirs = vec!["orthogonal".to_string()];
        }
        if ctx.aggregates.contains_key(&target) {
            ctx.error(row.line, format!("cannot assign sound events to aggregate objects (declared with \"and\"), only to regular objects, or properties, things defined in terms of \"or\" (\"{target}\")."));
            continue;
        }
        let Some(object_mask) = ctx.object_masks.get(&target).cloned() else {
            ctx.error_word(row.line, &target, format!("Object \"{target}\" not found."));
            continue;
        };
        let mut dmask = 0u8;
        for d in &dirs {
            dmask |= match d.as_str() {
                "up" => UP,
                "down" => DOWN,
                "left" => LEFT,
                "right" => RIGHT,
                "horizontal" => LEFT | RIGHT,
                "vertical" => UP | DOWN,
                "orthogonal" => 0b01111,
                "___action____" => ACTION,
                _ => 0,
            };
        }
        sounds.declared.push(declaration(row.line, t));
        if verb == "move" || verb == "cantmove" {
            for tn in &sound_targets(ctx, &target) {
                let Some(&(id, layer)) = ctx.objects.get(tn) else {
                    continue;
                };
                let ms = MoveSound { object: id, layer, directions: dmask, seed: seed.clone() };
                if verb == "move" {
                    sounds.movement[layer].push(ms);
                } else {
                    sounds.movement_failure.push(ms);
                }
            }
        }
        if verb == "create" {
            sounds.creation.push((object_mask, seed));
        } else if verb == "destroy" {
            sounds.destruction.push((object_mask, seed));
        }
    }
    sounds
}

/// A sound's target expanded to objects: synonyms followed, properties spliced in.
pub(super) fn sound_targets(ctx: &Ctx, target: &str) -> Vec<String> {
    let mut targets = vec![target.to_string()];
    let mut changed = true;
    let mut guard = 0;
    while changed && guard < 1000 {
        guard += 1;
        changed = false;
        let mut k = 0;
        while k < targets.len() {
            if let Some(s) = ctx.synonyms.get(&targets[k]) {
                targets[k] = s.clone();
                changed = true;
                k += 1;
            } else if let Some(p) = ctx.properties.get(&targets[k]).cloned() {
                targets.remove(k);
                targets.extend(p);
                changed = true;
            } else {
                k += 1;
            }
        }
    }
    targets
}

/// The prelude's palette and colours.
pub(super) fn check_metadata(ctx: &mut Ctx, metadata: &[(String, String, usize)]) {
    for (k, v, line) in metadata {
        match k.as_str() {
            "color_palette" => {
                const PALETTES: [&str; 14] = [
                    "mastersystem",
                    "gameboycolour",
                    "amiga",
                    "arnecolors",
                    "famicom",
                    "atari",
                    "pastel",
                    "ega",
                    "amstrad",
                    "proteus_mellow",
                    "proteus_rich",
                    "proteus_night",
                    "c64",
                    "whitingjp",
                ];
                let known =
                    PALETTES.contains(&v.as_str()) || v.parse::<usize>().is_ok_and(|n| (1..=14).contains(&n));
                if !known {
                    ctx.error(0, format!("Palette \"{v}\" not found, defaulting to arnecolors."));
                }
            }
            "text_color" | "background_color" if !parse::is_color(v) => {
                ctx.error(*line, format!("{k} in incorrect format - found {v}, but I expect a color name (like 'pink') or hex-formatted color (like '#1412FA')."));
            }
            _ => {}
        }
    }
}

/// A kept sound row as a listing entry: its words before the seed, and the seed.
pub(super) fn declaration(
    line: usize,
    tokens: &[(String, super::parse::SoundTok)],
) -> crate::SoundDeclaration {
    let (seed, words) = tokens.split_last().map_or((String::new(), &[][..]), |(s, w)| (s.0.clone(), w));
    crate::SoundDeclaration {
        name: words.iter().map(|w| w.0.as_str()).collect::<Vec<_>>().join(" "),
        seed,
        line,
    }
}
