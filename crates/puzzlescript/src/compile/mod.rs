//! The compiler: parsed sections into a [`Game`]: object ids and layers, legend dictionaries and
//! masks, levels as boards, and rules expanded the reference's way (`compiler.js`): directions,
//! relative directions, up/left rules turned down/right, aggregates, synonyms, ambiguous
//! movements and properties concretised, spawned objects made stationary, duplicates removed,
//! then each cell turned into a match pattern and a replacement; groups, loops, rigid groups,
//! win conditions and sounds.
//!
//! `compile_parsed` runs the reference's passes in its order, each a function:
//! `check_player_and_background_declared`, `number_objects` (ids from the layers),
//! `check_object_definitions`; the legend: `level_glyphs`, `expand_legend`, `check_legend`,
//! `find_background`, `check_background_in_layer`; masks: `name_masks`, `player_mask`;
//! `compile_levels`; rules: `read_rules`, `check_rule_contradictions`, `expand_rules` (directions,
//! `absolutify_rule`, `expand_aggregates_and_synonyms`, moving and property rules concretised —
//! each a queue of rules, in the order the reference's list leaves them, bounded by
//! `MAX_EXPANDED_RULES`, the names looked up in one `NameKinds` table — spawned objects made
//! stationary), `drop_duplicate_rules`, `rules_to_masks`, `group_rules`, `number_rules`,
//! `rigid_groups`; `compile_win_conditions`, `report_unlayered_objects`, `check_loops` and
//! `loop_points`, `compile_sounds`, `check_metadata`. Rules become cell patterns of object and
//! movement bit masks (`bits.rs`: a set is a SmallVec of 64-bit words, inline up to 128 objects),
//! each rule word looked up once in a table of names, with content masks that skip rules that
//! cannot match

use super::bits::{self, Bits};
use super::parse::{self, LevelDef, Parsed, SoundTok};
use super::{Diagnostic, Game, LevelEntry, ObjectInfo, Prelude};
use std::collections::BTreeMap;

mod expand;
mod finish;
mod levels;
mod masks;
mod objects;
mod rules;
#[cfg(test)]
mod tests;

use expand::*;
use finish::*;
use levels::*;
use masks::*;
use objects::*;
pub(crate) use rules::*;

/// The most terms one cell of a rule may hold once aggregates are expanded.
const MAX_CELL_TERMS: usize = 4096;

/// Movement bits of one layer.
pub(crate) const UP: u8 = 0b00001;
pub(crate) const DOWN: u8 = 0b00010;
pub(crate) const LEFT: u8 = 0b00100;
pub(crate) const RIGHT: u8 = 0b01000;
pub(crate) const ACTION: u8 = 0b10000;

fn dir_mask(dir: &str) -> Option<u8> {
    Some(match dir {
        "up" => UP,
        "down" => DOWN,
        "left" => LEFT,
        "right" => RIGHT,
        "moving" => 0b01111,
        "no" => 0b00011,
        "randomdir" => 0b00101,
        "random" => 0b10010,
        "action" => ACTION,
        "" => 0,
        _ => return None,
    })
}

/// One cell of a rule pattern: what must hold, and what the right-hand side writes.
#[derive(Clone, Debug)]
pub(crate) struct CellPattern {
    pub present: Bits,
    pub missing: Bits,
    /// `present`'s and `missing`'s first two words (0 past their ends): what a cell of one or
    /// two words is tested against, read with no small vector's check of where it is kept
    pub head: [u64; 4],
    /// no movement is asked (`mov_present` and `mov_missing` both empty)
    pub still: bool,
    pub any_present: Vec<Bits>,
    /// (layer, bits that must all be set)
    pub mov_present: Vec<(usize, u8)>,
    /// (layer, bits that must all be clear)
    pub mov_missing: Vec<(usize, u8)>,
    pub replacement: Option<Replacement>,
}

/// A quick necessary condition for a row to match at a cell, tested on one word of one of its
/// cells (at `offset` cells along the rule's direction, before any ellipsis) before the whole
/// row is: the word must hold all of `all`, none of `none` and (if `any` is not 0) one of `any`,
/// and the layer's movement (if `mov`) all of its bits.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct QuickKey {
    pub offset: usize,
    pub word: usize,
    pub all: u64,
    pub none: u64,
    pub any: u64,
    pub mov: Option<(usize, u8)>,
}

impl QuickKey {
    /// The key of one cell pattern.
    fn of_cell(offset: usize, p: &CellPattern) -> QuickKey {
        let single_word = |b: &Bits| {
            let mut words = b.iter().enumerate().filter(|(_, w)| **w != 0);
            match (words.next(), words.next()) {
                (Some((k, _)), None) => Some(k),
                _ => None,
            }
        };
        let word = p
            .present
            .iter()
            .position(|w| *w != 0)
            .or_else(|| p.any_present.iter().find_map(single_word))
            .or_else(|| p.missing.iter().position(|w| *w != 0))
            .unwrap_or(0);
        // one set of "one of" that lies in that word alone is a necessary condition
        let any = p.any_present.iter().find(|a| single_word(a) == Some(word)).map_or(0, |a| a[word]);
        QuickKey {
            offset,
            word,
            all: p.present[word],
            none: p.missing[word],
            any,
            mov: p.mov_present.first().copied(),
        }
    }

    /// The key of a row: the first cell that needs a movement (rare on a board), else the first
    /// that needs an object, else the first cell.
    fn of_row(row: &[PatternCell]) -> QuickKey {
        let fixed: Vec<QuickKey> = row
            .iter()
            .map_while(|c| match c {
                PatternCell::Cell(p) => Some(p),
                PatternCell::Ellipsis => None,
            })
            .enumerate()
            .map(|(k, p)| QuickKey::of_cell(k, p))
            .collect();
        fixed
            .iter()
            .find(|k| k.mov.is_some())
            .or_else(|| fixed.iter().find(|k| k.all != 0 || k.any != 0))
            .or(fixed.first())
            .copied()
            .unwrap_or_default()
    }
}

/// The right-hand side of one cell.
#[derive(Clone, Debug)]
pub(crate) struct Replacement {
    pub objects_clear: Bits,
    pub objects_set: Bits,
    /// (layer, movement bits cleared (including the whole layer when rewritten), bits set), for
    /// the layers touched
    pub movs: Vec<(usize, u8, u8)>,
    /// the layers whose movement is rewritten (for rigid bookkeeping)
    pub rigid_layers: Vec<usize>,
    pub random_entities: Vec<usize>,
    pub random_dir_layers: Vec<usize>,
}

/// A cell or an ellipsis.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub(crate) enum PatternCell {
    Cell(CellPattern),
    Ellipsis,
}

/// The bit of [`Rule::signature`] that stands for object `o` (bits 0 to 47).
pub(crate) fn object_signature_bit(o: usize) -> usize {
    o % 48
}

/// The bit of [`Rule::signature`] that stands for layer `l`'s movement (bits 48 to 63).
pub(crate) fn layer_signature_bit(l: usize) -> usize {
    48 + l % 16
}

/// What each rule needs somewhere on the board ([`Rule::rule_mask`] and [`Rule::mov_mask`]),
/// indexed the other way round: for each bit, an object `o` (bit `o`) or a layer's movement
/// (bit `objects + 5 * layer + b`, as in the movement masks), the ids of the rules that need
/// it; and per rule id, how many bits it needs. A turn keeps, per rule, how many of them the
/// board lacks, and passes over a rule lacking one without looking at it (`turn::Candidates`).
#[derive(Clone, Debug, Default)]
pub(crate) struct RuleNeeds {
    /// This index's own number (from 1), so that counts kept for it are not taken for another
    /// game's. A game's clone keeps it: its rules have the same ids and needs.
    pub id: u64,
    pub by_bit: Vec<Vec<u32>>,
    pub count: Vec<u32>,
}

impl RuleNeeds {
    pub(crate) fn of<'r>(
        rules: impl Iterator<Item = &'r Rule>,
        objects: usize,
        layers: usize,
        rule_count: usize,
    ) -> RuleNeeds {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let n = objects;
        let mut by_bit = vec![Vec::new(); n + 5 * layers];
        let mut count = vec![0u32; rule_count];
        for rule in rules {
            let bits = bits::ones(&rule.rule_mask).chain(bits::ones(&rule.mov_mask).map(|b| n + b));
            for b in bits {
                if let Some(list) = by_bit.get_mut(b) {
                    list.push(rule.id as u32);
                    count[rule.id] += 1;
                }
            }
        }
        RuleNeeds { id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed), by_bit, count }
    }
}

/// A compiled rule.
#[derive(Clone, Debug)]
pub(crate) struct Rule {
    pub direction: u8,
    pub rows: Vec<Vec<PatternCell>>,
    pub ellipses: Vec<usize>,
    pub has_replacements: bool,
    pub line: usize,
    pub group_number: usize,
    pub rigid: bool,
    pub commands: Vec<(String, Option<String>)>,
    pub random: bool,
    /// objects each row needs in its line of the level (a quick filter)
    pub row_masks: Vec<Bits>,
    /// movements (bit `5 * layer + b`) each row needs in its line of the level
    pub row_mov_masks: Vec<Vec<u64>>,
    /// each row's quick test
    pub quick: Vec<QuickKey>,
    /// objects the rule needs somewhere in the level
    pub rule_mask: Bits,
    /// movements the rule needs somewhere in the level (the rows' [`Rule::row_mov_masks`]
    /// together)
    pub mov_mask: Bits,
    /// some cell has a replacement (otherwise applying it changes nothing)
    pub any_replacement: bool,
    /// the rule's rigid group index plus one (0: not rigid)
    pub rigid_index: u8,
    /// index among all compiled rules (for per-turn caches)
    pub id: usize,
    /// a bit per object any cell of the rule tests (present, missing or one of) and per layer
    /// whose movement it tests ([`object_signature_bit`], [`layer_signature_bit`]; bits may be
    /// shared): a change to objects and layers outside it cannot change whether the rule matches
    pub signature: u64,
    /// the objects and the layers of the signature, one by one
    pub mention_objs: Vec<usize>,
    pub mention_layers: Vec<usize>,
}

/// What every rule of a group needs somewhere on the board: when it is missing, no rule of the
/// group can match, and the group is passed over without trying each (a game's source rule
/// often expands into dozens of rules in one group, most of them tried where nothing moves).
#[derive(Clone, Debug, Default)]
pub(crate) struct GroupNeed {
    /// the group has several rules (one rule is asked directly)
    pub several: bool,
    /// objects every rule needs
    pub objects: Bits,
    /// layers on which every rule needs some movement
    pub moving_layers: Vec<usize>,
}

impl GroupNeed {
    fn of(group: &[Rule], layer_count: usize) -> GroupNeed {
        let Some(first) = group.first() else {
            return GroupNeed::default();
        };
        let moves_on = |rule: &Rule, l: usize| (0..5).any(|b| bits::get(&rule.mov_mask, 5 * l + b));
        let mut objects = first.rule_mask.clone();
        // (the first rule's moving layers, from its movement bits set: then only they are
        // asked of the others, not every layer of every rule)
        let mut moving_layers: Vec<usize> = Vec::new();
        for l in bits::ones(&first.mov_mask).map(|b| b / 5).filter(|&l| l < layer_count) {
            if moving_layers.last() != Some(&l) {
                moving_layers.push(l);
            }
        }
        for rule in &group[1..] {
            for (o, r) in objects.iter_mut().zip(&rule.rule_mask) {
                *o &= r;
            }
            moving_layers.retain(|&l| moves_on(rule, l));
        }
        GroupNeed { several: group.len() > 1, objects, moving_layers }
    }
}

/// A win condition: -1 no, 0 some, 1 all.
#[derive(Clone, Debug)]
pub(crate) struct WinCondition {
    pub quantifier: i8,
    pub mask1: Bits,
    pub mask2: Bits,
    pub aggregate1: bool,
    pub aggregate2: bool,
    #[allow(dead_code)]
    pub line: usize,
}

/// A movement sound.
#[derive(Clone, Debug)]
pub(crate) struct MoveSound {
    pub object: usize,
    pub layer: usize,
    pub directions: u8,
    pub seed: String,
}

/// Sounds the engine records.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sounds {
    pub events: BTreeMap<String, String>,
    pub creation: Vec<(Bits, String)>,
    pub destruction: Vec<(Bits, String)>,
    pub movement: Vec<Vec<MoveSound>>,
    pub movement_failure: Vec<MoveSound>,
    /// every row kept, for listing
    pub declared: Vec<super::SoundDeclaration>,
}

type Name = smol_str::SmolStr;
type Cell = Vec<(Name, Name)>;

/// The most rules one source rule may expand into (the reference has no limit; it would hang).
pub const MAX_EXPANDED_RULES: usize = 100_000;
/// A compiled rule, with the pair of same-layer names that makes it impossible (if any).
type Discardable = (Rule, Option<(String, String)>);

#[derive(Clone, Debug)]
struct RawRule {
    direction: String,
    lhs: Vec<Vec<Cell>>,
    rhs: Vec<Vec<Cell>>,
    line: usize,
    late: bool,
    rigid: bool,
    group_number: usize,
    commands: Vec<(String, Option<String>)>,
    random: bool,
}

struct Ctx {
    diags: Vec<Diagnostic>,
    /// object name -> (compact id, layer)
    objects: BTreeMap<String, (usize, usize)>,
    stride: usize,
    layer_count: usize,
    layer_masks: Vec<Bits>,
    synonyms: BTreeMap<String, String>,
    aggregates: BTreeMap<String, Vec<String>>,
    properties: BTreeMap<String, Vec<String>>,
    properties_single_layer: BTreeMap<String, usize>,
    /// Properties whose objects are all in no layer (a game in error): like the reference, they
    /// are kept whole in rules (not expanded), and a rule naming one is refused for it.
    properties_no_layer: std::collections::BTreeSet<String>,
    object_masks: BTreeMap<String, Bits>,
    aggregate_masks: BTreeMap<String, Bits>,
    names: std::collections::BTreeSet<String>,
    sounds_declared: Vec<String>,
    invalid: bool,
    /// A rule expanded past [`MAX_EXPANDED_RULES`]: the compilation stops there (issue 66.7).
    past_limit: bool,
    /// The source (for the columns of the words messages are about).
    text: std::sync::Arc<str>,
}

impl Ctx {
    fn error(&mut self, line: usize, message: impl Into<String>) {
        self.diags.push(Diagnostic { line, column: 1, width: 0, message: message.into(), is_error: true });
    }
    fn warning(&mut self, line: usize, message: impl Into<String>) {
        self.diags.push(Diagnostic { line, column: 1, width: 0, message: message.into(), is_error: false });
    }
    /// An error about `word` of the line: its column and width are the word's there.
    fn error_word(&mut self, line: usize, word: &str, message: impl Into<String>) {
        self.error(line, message);
        self.locate_last(word);
    }
    /// A warning about `word` of the line.
    fn warning_word(&mut self, line: usize, word: &str, message: impl Into<String>) {
        self.warning(line, message);
        self.locate_last(word);
    }
    /// The last message is about `word` of its line: its column and width.
    fn locate_last(&mut self, word: &str) {
        if let Some(d) = self.diags.last_mut()
            && let Some((c, w)) =
                crate::source_line(&self.text, d.line).and_then(|l| crate::word_span(l, word))
        {
            (d.column, d.width) = (c, w);
        }
    }
}

/// Compiles source text: the game (when the reference would produce one) and every diagnostic.
pub(crate) fn compile_lenient(source: &str) -> (Option<Game>, Vec<Diagnostic>) {
    let parsed = parse::parse(source);
    compile_parsed(parsed)
}

/// The legend entries as the parser read them, in order: what the passes below expand.
struct LegendEntries<'p> {
    synonyms: &'p [(String, String, usize)],
    aggregates: &'p [(String, Vec<String>, usize)],
    properties: &'p [(String, Vec<String>, usize)],
}

/// The objects once numbered ([`number_objects`]).
struct Numbering {
    /// By id: the objects in layers (in the order of their last occurrence there), then those
    /// in no layer.
    info: Vec<ObjectInfo>,
    /// The objects declared but in no layer (an error, reported by [`report_unlayered_objects`]).
    unlayered: Vec<String>,
    /// How many objects are in a layer (ids below this).
    layered_count: usize,
}

/// Compiles the parsed sections, pass by pass in the reference's order (`compiler.js`
/// `loadFile`): objects and layers, the legend, masks, levels, rules, win conditions, loops,
/// sounds, the prelude. Each pass adds its diagnostics in the order the reference reports them.
fn compile_parsed(parsed: Parsed) -> (Option<Game>, Vec<Diagnostic>) {
    let Parsed {
        metadata,
        objects: object_defs,
        synonyms: legend_synonyms,
        aggregates: legend_aggregates,
        properties: legend_properties,
        sounds: sound_rows,
        collision_layers,
        collision_layer_lines,
        rules: rule_lines,
        winconditions,
        levels: level_defs,
        names,
        diagnostics,
        original_line_numbers,
        object_lookup: _,
        aborted,
        text,
        ..
    } = parsed;
    if aborted {
        // the reference stops reading after too many errors and compiles nothing
        return (None, diagnostics);
    }
    let entries = LegendEntries {
        synonyms: &legend_synonyms,
        aggregates: &legend_aggregates,
        properties: &legend_properties,
    };
    let def_index = definition_index(&object_defs);
    let mut ctx = Ctx::new(diagnostics, names, &sound_rows, collision_layers.len());
    ctx.text = text;
    check_player_and_background_declared(&mut ctx, &def_index, &entries);
    if collision_layers.is_empty() {
        ctx.error(0, "No collision layers defined.  All objects need to be in collision layers.");
        return (None, ctx.diags);
    }

    // objects and layers
    let numbering = number_objects(&mut ctx, &collision_layers, &object_defs, &def_index);
    check_object_definitions(&mut ctx, &object_defs);

    // the legend
    let glyphs = level_glyphs(&mut ctx, &entries, &numbering);
    expand_legend(&mut ctx, &entries);
    check_legend(&mut ctx, &numbering.unlayered);
    if numbering.layered_count == 0 {
        // (the layers name no object: said on the first layer's line)
        let line = collision_layer_lines.first().copied().unwrap_or(0);
        ctx.error(line, "You need to have some objects defined");
    }
    let background = find_background(&mut ctx, &def_index, &original_line_numbers, &numbering.info);
    check_background_in_layer(&mut ctx, &level_defs, background, numbering.layered_count);

    // masks
    let all = name_masks(&mut ctx, &entries, numbering.info.len());
    let (player_aggregate, player_mask) = player_mask(&mut ctx, &def_index);

    // levels
    let (levels, boards) = compile_levels(&mut ctx, &level_defs, &glyphs, background);

    // rules
    let (raw_rules, mut loops) = read_rules(&mut ctx, &rule_lines);
    check_rule_contradictions(&mut ctx, &raw_rules);
    let Some(rules) = expand_rules(&mut ctx, &raw_rules) else {
        return (None, ctx.diags);
    };
    let rules = drop_duplicate_rules(rules);
    let compiled = rules_to_masks(&mut ctx, &rules);
    // (sized first: rules are large, and a growing list of thousands of them was a fresh
    // allocation, its pages zeroed by the system, at each doubling)
    let late_count = compiled.iter().filter(|(_, late)| *late).count();
    let (mut late, mut early) =
        (Vec::with_capacity(late_count), Vec::with_capacity(compiled.len() - late_count));
    for rule in compiled {
        if rule.1 {
            late.push(rule);
        } else {
            early.push(rule);
        }
    }
    let mut rule_groups = group_rules(&mut ctx, early);
    let mut late_groups = group_rules(&mut ctx, late);
    let rule_count = number_rules(&mut rule_groups, &mut late_groups);
    let (rigid_group_to_group, group_rigid_index) = rigid_groups(&mut ctx, &mut rule_groups);
    let group_needs = rule_groups.iter().map(|g| GroupNeed::of(g, ctx.layer_count)).collect();
    let rule_needs = RuleNeeds::of(
        rule_groups.iter().chain(&late_groups).flatten(),
        numbering.info.len(),
        ctx.layer_count,
        rule_count,
    );
    let late_group_needs = late_groups.iter().map(|g| GroupNeed::of(g, ctx.layer_count)).collect();

    // win conditions
    let win_conditions = compile_win_conditions(&mut ctx, &winconditions, &all);
    report_unlayered_objects(&mut ctx, &object_defs, &numbering.unlayered);

    // loops
    check_loops(&mut ctx, &mut loops);
    let loop_point = loop_points(&loops, &rule_groups, &mut ctx);
    let late_loop_point = loop_points(&loops, &late_groups, &mut ctx);

    // sounds and the prelude
    let sounds = compile_sounds(&mut ctx, &sound_rows);
    check_metadata(&mut ctx, &metadata);
    let prelude = Prelude::from_pairs(&metadata, &mut ctx.diags);
    if levels.is_empty() {
        ctx.error(0, "No levels found.  Add some levels!");
    }
    let diags = ctx.diags.clone();
    let warnings: Vec<Diagnostic> = diags.iter().filter(|d| !d.is_error).cloned().collect();
    let game = Game {
        rule_count,
        objects: numbering.info,
        stride: ctx.stride,
        layer_count: ctx.layer_count,
        layer_masks: ctx.layer_masks,
        player_mask,
        player_aggregate,
        rules: rule_groups,
        late_rules: late_groups,
        group_needs,
        late_group_needs,
        rule_needs,
        loop_point,
        late_loop_point,
        rigid_group_to_group,
        group_rigid_index,
        win_conditions,
        levels,
        boards,
        sounds,
        prelude,
        warnings,
    };
    (Some(game), diags)
}
