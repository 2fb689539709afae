//! The compiler: parsed sections into a [`Game`]: object ids and layers, legend dictionaries and
//! masks, levels as boards, and rules expanded the reference's way (`compiler.js`): directions,
//! relative directions, up/left rules turned down/right, aggregates, synonyms, ambiguous
//! movements and properties concretised, spawned objects made stationary, duplicates removed,
//! then each cell turned into a match pattern and a replacement; groups, loops, rigid groups,
//! win conditions and sounds.

use super::bits::{self, Bits};
use super::parse::{self, LevelDef, Parsed, SoundTok};
use super::{Diagnostic, Game, LevelEntry, ObjectInfo, Prelude};
use std::collections::BTreeMap;

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
}

impl Ctx {
    fn error(&mut self, line: usize, message: impl Into<String>) {
        self.diags.push(Diagnostic { line, column: 1, message: message.into(), is_error: true });
    }
    fn warning(&mut self, line: usize, message: impl Into<String>) {
        self.diags.push(Diagnostic { line, column: 1, message: message.into(), is_error: false });
    }
}

const RELATIVE_DIRECTIONS: [&str; 6] = ["^", "v", "<", ">", "perpendicular", "parallel"];
const SIMPLE_ABSOLUTE: [&str; 4] = ["up", "down", "left", "right"];
pub(crate) const COMMAND_WORDS: [&str; 17] = [
    "sfx0",
    "sfx1",
    "sfx2",
    "sfx3",
    "sfx4",
    "sfx5",
    "sfx6",
    "sfx7",
    "sfx8",
    "sfx9",
    "sfx10",
    "cancel",
    "checkpoint",
    "restart",
    "win",
    "message",
    "again",
];

fn direction_aggregate(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "horizontal" | "horizontal_par" | "horizontal_perp" => &["left", "right"],
        "vertical" | "vertical_par" | "vertical_perp" => &["up", "down"],
        "moving" => &["up", "down", "left", "right", "action"],
        "orthogonal" => &["up", "down", "left", "right"],
        "perpendicular" => &["^", "v"],
        "parallel" => &["<", ">"],
        _ => return None,
    })
}

fn is_direction_token(t: &str) -> bool {
    matches!(
        t,
        ">" | "<"
            | "^"
            | "v"
            | "up"
            | "down"
            | "left"
            | "right"
            | "moving"
            | "stationary"
            | "no"
            | "randomdir"
            | "random"
            | "horizontal"
            | "vertical"
            | "orthogonal"
            | "perpendicular"
            | "parallel"
            | "action"
    )
}

fn tokenize_rule_line(line: &str) -> Vec<String> {
    let l = line.replace('[', " [ ").replace(']', " ] ").replace('|', " | ").replace("->", " -> ");
    let mut l = l.trim().to_string();
    if l.starts_with('+') {
        l = format!("+ {}", &l[1..]);
    }
    l.split_whitespace().map(String::from).collect()
}

/// `findIndexAfterToken` on the original line: where the message text starts (a byte index
/// into `orig`).
fn index_after_token(orig: &str, tokens: &[String], token_index: usize) -> usize {
    // positions are found in a per-char lower-cased copy, so char indices line up with `orig`
    let lower: Vec<char> = orig
        .chars()
        .map(|c| {
            let mut l = c.to_lowercase();
            match (l.next(), l.next()) {
                (Some(a), None) => a,
                _ => c,
            }
        })
        .collect();
    let mut cur = 0usize; // char index
    for t in tokens.iter().take(token_index + 1) {
        let tc: Vec<char> = t.chars().collect();
        let found = (cur..lower.len().saturating_sub(tc.len().saturating_sub(1)).max(cur))
            .find(|&p| lower.get(p..p + tc.len()) == Some(&tc[..]));
        match found {
            Some(p) => cur = p + tc.len(),
            None => return orig.len(),
        }
    }
    orig.char_indices().nth(cur).map(|(b, _)| b).unwrap_or(orig.len())
}

fn rule_is_directional(lhs: &[Vec<Cell>], rhs: &[Vec<Cell>]) -> bool {
    let has_rel = |row: &Vec<Cell>| {
        row.iter().any(|c| c.iter().any(|(d, _)| RELATIVE_DIRECTIONS.contains(&d.as_str())))
    };
    lhs.iter().any(|r| r.len() > 1 || has_rel(r)) || rhs.iter().any(has_rel)
}

fn process_rule_string(
    ctx: &mut Ctx,
    rule: &(String, usize, String),
    cur_rules: &[RawRule],
) -> Option<Result<RawRule, i8>> {
    let (line_text, line, orig) = (&rule.0, rule.1, &rule.2);
    if orig.contains('(') && !line_text.contains("->") {
        ctx.error(line, "You can't have comments inside rules, sorry. In PuzzleScript, '(' starts a comment, so everything after the first '(' on this line was ignored before your rule was parsed.");
        return None;
    }
    let tokens = tokenize_rule_line(line_text);
    if tokens.is_empty() {
        ctx.error(line, "Spooky error!  Empty line passed to rule function.");
    }
    if tokens.len() == 1 {
        if tokens[0] == "startloop" {
            return Some(Err(1));
        } else if tokens[0] == "endloop" {
            return Some(Err(-1));
        }
    }
    if !tokens.iter().any(|t| t == "->") {
        ctx.error(line, "A rule has to have an arrow in it.  There's no arrow here! Consider reading up about rules - you're clearly doing something weird");
    }
    let mut parsestate = 0;
    let mut directions: Vec<String> = Vec::new();
    let mut curcell: Vec<String> = Vec::new();
    let mut curcellrow: Vec<Cell> = Vec::new();
    let mut incellrow = false;
    let mut rhs = false;
    let mut lhs_cells: Vec<Vec<Cell>> = Vec::new();
    let mut rhs_cells: Vec<Vec<Cell>> = Vec::new();
    let mut late = false;
    let mut rigid = false;
    let mut group_number = line;
    let mut commands: Vec<(String, Option<String>)> = Vec::new();
    let mut random_rule = false;
    let mut has_plus = false;
    let mut bracketbalance: i32 = 0;
    let to_cell = |v: &[String]| -> Cell {
        v.chunks(2)
            .map(|c| {
                (Name::from(c[0].as_str()), c.get(1).map_or_else(Name::default, |s| Name::from(s.as_str())))
            })
            .collect()
    };
    let mut i = 0;
    while i < tokens.len() {
        let token = tokens[i].as_str();
        if parsestate == 0 {
            if token == "+" {
                has_plus = true;
                if group_number == line {
                    if cur_rules.is_empty() {
                        ctx.error(line, "The \"+\" symbol, for joining a rule with the group of the previous rule, needs a previous rule to be applied to.");
                        has_plus = false;
                    }
                    if i != 0 {
                        ctx.error(line, "The \"+\" symbol, for joining a rule with the group of the previous rule, must be the first symbol on the line ");
                    }
                    if has_plus && let Some(last) = cur_rules.last() {
                        group_number = last.group_number;
                    }
                } else {
                    ctx.error(
                        line,
                        "Two \"+\"s (the \"append to previous rule group\" symbol) applied to the same rule.",
                    );
                }
            } else if RELATIVE_DIRECTIONS.contains(&token) {
                ctx.error(line, "You cannot use relative directions (\"^v<>\") to indicate in which direction(s) a rule applies.  Use absolute directions indicators (Up, Down, Left, Right, Horizontal, or Vertical, for instance), or, if you want the rule to apply in all four directions, do not specify directions");
            } else if let Some(agg) = direction_aggregate(token) {
                directions.extend(agg.iter().map(|s| s.to_string()));
            } else if token == "late" {
                late = true;
            } else if token == "rigid" {
                rigid = true;
            } else if token == "random" {
                random_rule = true;
                if has_plus {
                    ctx.error(line, "A rule-group can only be marked random by the opening rule in the group (aka, a '+' and 'random' can't appear as rule modifiers on the same line).");
                }
            } else if SIMPLE_ABSOLUTE.contains(&token) {
                directions.push(token.to_string());
            } else if token == "[" {
                if directions.is_empty() {
                    directions = SIMPLE_ABSOLUTE.iter().map(|s| s.to_string()).collect();
                }
                parsestate = 1;
                continue;
            } else {
                ctx.error(line, format!("The start of a rule must consist of some number of directions (possibly 0), before the first bracket, specifying in what directions to look (with no direction specified, it applies in all four directions).  It seems you've just entered \"{}\".", token.to_uppercase()));
            }
            i += 1;
            continue;
        }
        // parsestate 1
        if token == "[" {
            bracketbalance += 1;
            if bracketbalance > 1 {
                ctx.warning(line, "Multiple opening brackets without closing brackets.  Something fishy here.  Every '[' has to be closed by a ']', and you can't nest them.");
            }
            if !curcell.is_empty() {
                ctx.error(
                    line,
                    "Error, malformed cell rule - encountered a \"[\"\" before previous bracket was closed",
                );
            }
            incellrow = true;
            curcell = Vec::new();
        } else if is_direction_token(token) {
            if curcell.len() % 2 == 1 {
                ctx.error(line, "Error, an item can only have one direction/action at a time, but you're looking for several at once!");
            } else if !incellrow {
                ctx.warning(line, "Invalid syntax. Directions should be placed at the start of a rule.");
            } else if late && token != "no" && token != "random" && token != "randomdir" {
                ctx.error(line, "Movements cannot appear in late rules.");
            } else {
                curcell.push(token.to_string());
            }
        } else if token == "|" {
            if !incellrow {
                ctx.warning(
                    line,
                    "Janky syntax.  \"|\" should only be used inside cell rows (the square brackety bits).",
                );
            } else if curcell.len() % 2 == 1 {
                ctx.error(line, "In a rule, if you specify a movement, it has to act on an object.");
            } else {
                curcellrow.push(to_cell(&curcell));
                curcell = Vec::new();
            }
        } else if token == "]" {
            bracketbalance -= 1;
            if bracketbalance < 0 {
                ctx.warning(line, "Multiple closing brackets without corresponding opening brackets.  Something fishy here.  Every '[' has to be closed by a ']', and you can't nest them.");
                return None;
            }
            if curcell.len() % 2 == 1 {
                if curcell[0] == "..." {
                    ctx.error(line, "Cannot end a rule with ellipses.");
                } else {
                    ctx.error(line, "In a rule, if you specify a movement, it has to act on an object.");
                }
            } else {
                curcellrow.push(to_cell(&curcell));
                curcell = Vec::new();
            }
            if rhs {
                rhs_cells.push(std::mem::take(&mut curcellrow));
            } else {
                lhs_cells.push(std::mem::take(&mut curcellrow));
            }
            incellrow = false;
        } else if token == "->" {
            if group_number != line
                && let Some(parent) = cur_rules.last()
                && parent.late != late
            {
                ctx.warning(line, "Oh gosh you can mix late and non-late rules in a rule-group if you really want to, but gosh why would you want to do that?  What do you expect to accomplish?");
            }
            if incellrow {
                ctx.warning(line, "Encountered an unexpected \"->\" inside square brackets.  It's used to separate states, it has no place inside them >:| .");
            } else if rhs {
                ctx.error(line, "Error, you can only use \"->\" once in a rule; it's used to separate before and after states.");
                return None;
            } else {
                rhs = true;
            }
        } else if ctx.names.contains(token) {
            if !incellrow {
                ctx.warning(
                    line,
                    format!(
                        "Invalid token {}. Object names should only be used within cells (square brackets).",
                        token.to_uppercase()
                    ),
                );
            } else {
                let mut j = 0;
                while j + 1 < curcell.len() {
                    if curcell[j + 1] == token {
                        let existing = curcell[j].clone();
                        let new_dir = if curcell.len() % 2 == 1 {
                            curcell[curcell.len() - 1].clone()
                        } else {
                            String::new()
                        };
                        if existing == "no" && new_dir == "no" {
                            ctx.warning(line, format!("I notice that you have NO {} more than once in a single cell. That's redundant innit.", token.to_uppercase()));
                        } else {
                            ctx.error(line, format!("You cannot specify the same object more than once in a single cell (in this case {} occurs multiple times).", token.to_uppercase()));
                            if ctx.properties.contains_key(token) {
                                // the reference adds a hint, counted as an error, once per game
                                let hint = "(A property repeated in one cell: if you mean two independent choices from it, define a second property with the same members under another name.)";
                                if !ctx.diags.iter().any(|d| d.message == hint) {
                                    ctx.error(line, hint);
                                }
                            }
                        }
                    }
                    j += 2;
                }
                if curcell.len().is_multiple_of(2) {
                    curcell.push(String::new());
                }
                curcell.push(token.to_string());
            }
        } else if token == "..." {
            if !incellrow {
                ctx.warning(
                    line,
                    "Invalid syntax, ellipses should only be used within cells (square brackets).",
                );
            } else {
                curcell.push(token.to_string());
                curcell.push(token.to_string());
            }
        } else if COMMAND_WORDS.contains(&token) {
            if !rhs {
                ctx.error(line, "Commands should only appear at the end of rules, not in or before the pattern-detection/-replacement sections.");
            } else if incellrow || tokens[i..].iter().any(|t| t == "]") {
                ctx.warning(line, "Commands should only appear at the end of rules, not in or before the pattern-detection/-replacement sections.");
            }
            if token == "message" {
                let idx = index_after_token(orig, &tokens, i);
                let mut text = orig[idx.min(orig.len())..].trim().to_string();
                if text.is_empty() {
                    text = " ".to_string();
                }
                commands.push((token.to_string(), Some(text)));
                i = tokens.len();
                continue;
            } else {
                if token.starts_with("sfx") && !ctx.sounds_declared.iter().any(|s| s == token) {
                    ctx.warning(line, format!("Sound effect \"{token}\" not defined."));
                }
                commands.push((token.to_string(), None));
            }
        } else {
            ctx.error(line, format!("Error, malformed cell rule - was looking for cell contents, but found \"{token}\".  What am I supposed to do with this, eh, please tell me that."));
        }
        i += 1;
    }
    if late && rigid {
        ctx.error(line, "Late rules cannot be marked as rigid (rigid rules are all about dealing with the consequences of unresolvable movements, and late rules can't even have movements).");
    }
    if lhs_cells.len() != rhs_cells.len() {
        if commands.is_empty() || !rhs_cells.is_empty() {
            ctx.warning(line, "Error, when specifying a rule, the number of matches (square bracketed bits) on the left hand side of the arrow must equal the number on the right");
            return None;
        }
    } else {
        for k in 0..lhs_cells.len() {
            if lhs_cells[k].len() != rhs_cells[k].len() {
                ctx.error(line, "In a rule, each pattern to match on the left must have a corresponding pattern on the right of equal length (number of cells).");
                ctx.invalid = true;
            }
            if lhs_cells[k].is_empty() {
                ctx.error(line, "You have an totally empty pattern on the left-hand side.  This will match *everything*.  You certainly don't want this.");
            }
        }
    }
    if lhs_cells.is_empty() {
        ctx.error(line, "This rule refers to nothing.  What the heck? :O");
    }
    if !rule_is_directional(&lhs_cells, &rhs_cells) && directions.len() > 1 {
        directions.truncate(1);
    }
    let _ = parsestate;
    Some(Ok(RawRule {
        direction: directions.join(","),
        lhs: lhs_cells,
        rhs: rhs_cells,
        line,
        late,
        rigid,
        group_number,
        commands,
        random: random_rule,
    }))
}

fn absolutify(forward: &str, dir: &str) -> Option<&'static str> {
    let idx = ["^", "v", "<", ">", "parallel", "perpendicular"].iter().position(|d| *d == dir)?;
    let table: [&str; 6] = match forward {
        "right" => ["up", "down", "left", "right", "horizontal_par", "vertical_perp"],
        "up" => ["left", "right", "down", "up", "vertical_par", "horizontal_perp"],
        "down" => ["right", "left", "up", "down", "vertical_par", "horizontal_perp"],
        _ => ["down", "up", "right", "left", "horizontal_par", "vertical_perp"],
    };
    Some(table[idx])
}

fn contains_ellipsis(rule: &RawRule) -> bool {
    rule.lhs.iter().any(|row| row.iter().any(|c| c.first().is_some_and(|p| p.1 == "...")))
}

fn cells_mut(rule: &mut RawRule) -> impl Iterator<Item = &mut Cell> {
    rule.lhs.iter_mut().chain(rule.rhs.iter_mut()).flat_map(|r| r.iter_mut())
}

/// The rule once for each concrete direction of each ambiguous movement on its left
/// (`moving`, `horizontal`, ...), as the reference expands it.
///
/// The reference keeps one list: it walks it, and a rule with an ambiguous movement is taken
/// out and its expansions appended at the end (one for each concrete direction, for every
/// ambiguous cell), then walked in their turn. That is a queue: the rules left are the concrete
/// ones, in the order the queue reaches them, which is the order kept here, without the
/// reference's second walk and its removals from the middle of the list.
fn concretize_moving_rule(ctx: &mut Ctx, rule: RawRule) -> Vec<RawRule> {
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
        ctx.error(line, format!("This rule has an ambiguous movement on the right-hand side, \"{remaining}\", that can't be inferred from the left-hand side."));
        ctx.invalid = true;
    }
    out
}

/// What the expansion of rules asks of a name, in one lookup.
#[derive(Default)]
struct NameKind {
    /// an object's layer
    object: Option<usize>,
    /// a property's objects, each with its layer
    aliases: Option<Vec<(Name, Option<usize>)>>,
    /// a property kept whole unless the right-hand side needs it expanded: its objects share
    /// one layer, or none has a layer
    whole: bool,
}

type NameKinds = std::collections::HashMap<Name, NameKind, rustc_hash::FxBuildHasher>;

fn name_kinds(ctx: &Ctx) -> NameKinds {
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
fn aliases_of<'k>(kinds: &'k NameKinds, name: &str) -> Option<&'k [(Name, Option<usize>)]> {
    kinds.get(name).and_then(|k| k.aliases.as_deref())
}

/// The rule once for each object of each property on its left that must be made concrete (a
/// property whose objects lie on several layers, or one the right-hand side names without
/// the left naming it in the same cell), as the reference expands it; `no P` becomes `no A`,
/// `no B`, ... for each object of `P` first.
fn concretize_property_rule(ctx: &mut Ctx, kinds: &NameKinds, mut rule: RawRule) -> Vec<RawRule> {
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

/// Outside late rules, an object the right-hand side creates in a cell whose left names
/// nothing on its layer is made `stationary` (a new object does not move).
fn make_spawned_stationary(kinds: &NameKinds, rule: &mut RawRule) {
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
struct NameInfo<'c> {
    object: Option<(usize, usize)>,
    mask: Option<&'c Bits>,
    single_layer: Option<usize>,
}

type NameTable<'c> = std::collections::HashMap<&'c str, NameInfo<'c>, rustc_hash::FxBuildHasher>;

fn name_table(ctx: &Ctx) -> NameTable<'_> {
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

fn push_diag(diags: &mut Vec<Diagnostic>, line: usize, message: impl Into<String>, is_error: bool) {
    diags.push(Diagnostic { line, column: 1, message: message.into(), is_error });
}

/// [`rule_to_mask`]'s per-layer working lists, kept from one rule to the next (one game's
/// rules: its layers): allocating ten of them for each of a game's thousands of expanded rules
/// was a tenth of the compiler's allocations. A cell writes them at its `touched` layers alone,
/// and the next cell clears those.
#[derive(Default)]
struct MaskScratch<'r> {
    layers_used_l: Vec<Option<&'r str>>,
    mov_present: Vec<u8>,
    mov_missing: Vec<u8>,
    objectlayers_l: Vec<bool>,
    layers_used_r: Vec<Option<&'r str>>,
    movements_clear: Vec<u8>,
    movements_set: Vec<u8>,
    objectlayers_r: Vec<bool>,
    post_layer: Vec<bool>,
    random_dir: Vec<bool>,
    /// The layers a cell names (on either side), ascending once sorted: every per-layer entry
    /// above is zero except at these, so the checks and lists below look at these alone (a
    /// game of 190 layers compiled its thousands of cells a layer at a time, 0.13 s).
    touched: Vec<usize>,
}

/// Compiles one expanded rule's cells into patterns. `None`: the rule is dropped.
fn rule_to_mask<'r>(
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

fn loop_points(loops: &[(usize, i8)], groups: &[Vec<Rule>], ctx: &mut Ctx) -> Vec<Option<usize>> {
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
fn expand_dict(
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

/// Object name to its index among the declarations (the first, if declared twice).
fn definition_index(object_defs: &[parse::ObjectDef]) -> BTreeMap<&str, usize> {
    let mut def_index: BTreeMap<&str, usize> = BTreeMap::new();
    for (k, d) in object_defs.iter().enumerate() {
        def_index.entry(d.name.as_str()).or_insert(k);
    }
    def_index
}

impl Ctx {
    fn new(
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
        }
    }
}

/// There must be a player and a background, as objects or legend entries.
fn check_player_and_background_declared(
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
fn number_objects(
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
fn check_object_definitions(ctx: &mut Ctx, object_defs: &[parse::ObjectDef]) {
    for d in object_defs {
        if d.colors.len() > 10 {
            ctx.error(
                d.line + 1,
                "a sprite cannot have more than 10 colors.  Why you would want more than 10 is beyond me.",
            );
        }
        if d.colors.is_empty() {
            ctx.error(d.line, format!("color not specified for object \"{}\".", d.name));
        }
        if !d.sprite.is_empty() && (d.sprite.len() != 5 || d.sprite.iter().any(|r| r.len() != 5)) {
            ctx.warning(d.line, "Sprite graphics must be 5 wide and 5 high exactly.");
        }
    }
}

/// The glyphs a level may use: each object, synonym and aggregate as the object it puts on
/// each layer (`generateExtraMembers`), entries resolved until none is added.
fn level_glyphs(
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
                    ctx.error(*line, format!("Object not found with name {n}"));
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
fn expand_legend(ctx: &mut Ctx, entries: &LegendEntries) {
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
fn check_legend(ctx: &mut Ctx, unlayered: &[String]) {
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
fn find_background(
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
fn check_background_in_layer(
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
fn name_masks(ctx: &mut Ctx, entries: &LegendEntries, object_count: usize) -> Bits {
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
fn player_mask(ctx: &mut Ctx, def_index: &BTreeMap<&str, usize>) -> (bool, Bits) {
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

/// The levels as boards (column-major, `stride` words a cell; `None` for a message), each cell
/// without a background object given the level's first one (or the background object).
fn compile_levels(
    ctx: &mut Ctx,
    level_defs: &[LevelDef],
    glyphs: &BTreeMap<String, Vec<Option<usize>>>,
    background: Option<(usize, usize)>,
) -> (Vec<LevelEntry>, Vec<Option<Vec<u64>>>) {
    let mut levels = Vec::new();
    let mut boards = Vec::new();
    for def in level_defs {
        match def {
            LevelDef::Message { text, line } => {
                levels.push(LevelEntry::Message { text: text.clone(), line: *line });
                boards.push(None);
            }
            LevelDef::Rows { line, rows } => {
                let (width, height) = (rows[0].len(), rows.len());
                let mut cells = level_cells(ctx, *line, rows, glyphs);
                if let Some(background) = background {
                    fill_background(ctx, &mut cells, background);
                }
                levels.push(LevelEntry::Level { width, height, line: *line });
                boards.push(Some(cells));
            }
        }
    }
    (levels, boards)
}

/// One level's cells from its glyphs (column by column, a short row read as its last glyph);
/// an unknown glyph is an error and leaves the rest of the level empty.
fn level_cells(
    ctx: &mut Ctx,
    line: usize,
    rows: &[Vec<char>],
    glyphs: &BTreeMap<String, Vec<Option<usize>>>,
) -> Vec<u64> {
    let stride = ctx.stride;
    let (width, height) = (rows[0].len(), rows.len());
    let mut cells = vec![0u64; width * height * stride];
    let mut cache: BTreeMap<char, Bits> = BTreeMap::new();
    for x in 0..width {
        for (y, row) in rows.iter().enumerate() {
            let ch = row.get(x).or(row.last()).copied().unwrap_or(' ');
            let mask = if let Some(m) = cache.get(&ch) {
                m.clone()
            } else {
                let key = ch.to_string();
                let Some(g) = glyphs.get(&key) else {
                    if ctx.properties.contains_key(&key) {
                        ctx.error(line + y, format!("Error, symbol \"{ch}\" is defined using OR, and therefore ambiguous - it cannot be used in a map. Did you mean to define it in terms of AND?"));
                    } else {
                        ctx.error(line + y, format!("Error, symbol \"{ch}\", used in map, not found."));
                    }
                    return cells;
                };
                let mut m = bits::empty(stride);
                for id in g.iter().flatten() {
                    bits::set(&mut m, *id);
                }
                cache.insert(ch, m.clone());
                m
            };
            let idx = (x * height + y) * stride;
            cells[idx..idx + stride].copy_from_slice(&mask);
        }
    }
    cells
}

/// Gives every cell with nothing on the background's layer the level's first background
/// object (or the background object itself).
fn fill_background(ctx: &Ctx, cells: &mut [u64], (bid, blayer): (usize, usize)) {
    let stride = ctx.stride;
    let bmask = &ctx.layer_masks[blayer];
    let mut level_bg = None;
    for cell in cells.chunks(stride) {
        let common: Bits = cell.iter().zip(bmask).map(|(a, b)| a & b).collect();
        if !bits::is_zero(&common) {
            level_bg = Some(common);
            break;
        }
    }
    let level_bg = level_bg.unwrap_or_else(|| {
        let mut m = bits::empty(stride);
        bits::set(&mut m, bid);
        m
    });
    for cell in cells.chunks_mut(stride) {
        if !bits::intersects(bmask, cell) {
            bits::or_into(cell, &level_bg);
        }
    }
}

/// Reads each rule line (`processRuleString`): the rules, and the loop marks (line, +1 for
/// `startloop`, -1 for `endloop`).
fn read_rules(ctx: &mut Ctx, rule_lines: &[(String, usize, String)]) -> (Vec<RawRule>, Vec<(usize, i8)>) {
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
fn check_rule_contradictions(ctx: &mut Ctx, raw_rules: &[RawRule]) {
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
                    ctx.diags.push(Diagnostic { line: rule.line, column: 1, message: msg, is_error: true });
                }
            }
        }
    }
}

/// Rule expansion (`rulesToArray`): one rule per direction, relative directions made absolute,
/// up and left rules turned into down and right, aggregates and synonyms replaced by objects,
/// ambiguous movements and properties concretised, spawned objects made stationary. `None`: a
/// rule made the game invalid.
fn expand_rules(ctx: &mut Ctx, raw_rules: &[RawRule]) -> Option<Vec<RawRule>> {
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
    let mut moving = Vec::new();
    for r in rules {
        moving.extend(concretize_moving_rule(ctx, r));
    }
    let kinds = name_kinds(ctx);
    let mut concrete = Vec::new();
    for r in moving {
        concrete.extend(concretize_property_rule(ctx, &kinds, r));
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
fn absolutify_rule(rule: &mut RawRule) {
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
fn expand_aggregates_and_synonyms(ctx: &mut Ctx, rule: &mut RawRule) {
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
fn drop_duplicate_rules(rules: Vec<RawRule>) -> Vec<RawRule> {
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

/// Each rule's cells turned into match patterns and replacements ([`rule_to_mask`]), with
/// whether it is late.
fn rules_to_masks(ctx: &mut Ctx, rules: &[RawRule]) -> Vec<(Discardable, bool)> {
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
fn group_rules(ctx: &mut Ctx, compiled: Vec<(Discardable, bool)>) -> Vec<Vec<Rule>> {
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
fn number_rules(rule_groups: &mut [Vec<Rule>], late_groups: &mut [Vec<Rule>]) -> usize {
    let mut next_id = 0;
    for r in rule_groups.iter_mut().chain(late_groups.iter_mut()).flatten() {
        r.id = next_id;
        next_id += 1;
    }
    next_id
}

/// The rigid groups (groups with a rigid rule): for each, its group; for each group, its rigid
/// index; each rigid rule's `rigid_index`. More than 30 is an error.
fn rigid_groups(ctx: &mut Ctx, rule_groups: &mut [Vec<Rule>]) -> (Vec<usize>, Vec<Option<usize>>) {
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

/// The win conditions as masks (`no`: -1, `some`: 0, `all`: 1; the second mask every object
/// when there is no `on`).
fn compile_win_conditions(
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
                ctx.error(*line, format!("Unwelcome term \"{n}\" found in win condition. I don't know what I'm supposed to do with this. "));
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
fn report_unlayered_objects(ctx: &mut Ctx, object_defs: &[parse::ObjectDef], unlayered: &[String]) {
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
fn check_loops(ctx: &mut Ctx, loops: &mut Vec<(usize, i8)>) {
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
fn compile_sounds(ctx: &mut Ctx, sound_rows: &[parse::SoundRow]) -> Sounds {
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
            ctx.error(row.line, format!("Expecting sfx data, instead found \"{seed}\"."));
        }
        if no_seed && t[0].1 == SoundTok::Event {
            continue;
        }
        if t[0].1 == SoundTok::Event {
            if sounds.events.contains_key(&t[0].0) {
                ctx.warning(row.line, format!("{} already declared.", t[0].0.to_uppercase()));
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
            ctx.error(row.line, format!("Object \"{target}\" not found."));
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
fn sound_targets(ctx: &Ctx, target: &str) -> Vec<String> {
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
fn check_metadata(ctx: &mut Ctx, metadata: &[(String, String, usize)]) {
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
fn declaration(line: usize, tokens: &[(String, super::parse::SoundTok)]) -> super::SoundDeclaration {
    let (seed, words) = tokens.split_last().map_or((String::new(), &[][..]), |(s, w)| (s.0.clone(), w));
    super::SoundDeclaration {
        name: words.iter().map(|w| w.0.as_str()).collect::<Vec<_>>().join(" "),
        seed,
        line,
    }
}

#[cfg(test)]
mod tests {
    use crate::compile;

    const GAME: &str = "title quick keys

========
OBJECTS
========
Background
black
Wall
grey
Player
blue
Crate
orange

=======
LEGEND
=======
. = Background
# = Wall
P = Player
* = Crate
Obstacle = Wall or Crate

======
SOUNDS
======

================
COLLISIONLAYERS
================
Background
Player, Wall, Crate

======
RULES
======
right [ Crate | > Player ] -> [ Crate | Player ]
right [ Obstacle | Player ] -> [ Obstacle | Player ] again
right [ no Wall | Crate ] -> [ no Wall | Crate ] again

==============
WINCONDITIONS
==============

=======
LEVELS
=======
#####
#P*.#
#####
";

    fn bit(game: &crate::Game, name: &str) -> u64 {
        let o = game.objects.iter().position(|o| o.name == name).expect("object");
        1 << o
    }

    #[test]
    fn the_quick_test_reads_the_rows_most_telling_cell() {
        let game = compile(GAME).expect("compiles");
        let rules: Vec<&super::Rule> = game.rules.iter().flatten().collect();
        assert_eq!(rules.len(), 3);
        // a movement is rarer than any object: the second cell, with the moving player
        let k = rules[0].quick[0];
        assert_eq!((k.offset, k.all), (1, bit(&game, "player")));
        assert_eq!(k.mov.map(|(l, _)| l), Some(game.objects[0].layer + 1));
        // a property kept whole (one layer) is a "one of" test on its word
        let k = rules[1].quick[0];
        assert_eq!((k.offset, k.all, k.any), (0, 0, bit(&game, "wall") | bit(&game, "crate")));
        // a cell that only excludes tells little: the crate after it is the anchor
        let k = rules[2].quick[0];
        assert_eq!((k.offset, k.all, k.none, k.mov), (1, bit(&game, "crate"), 0, None));
    }

    /// [`GAME`] with its rules replaced by `rules`.
    fn with_rules(rules: &str) -> String {
        let start = GAME.find("right [ Crate").expect("the rules");
        let end = GAME.find("\n\n==============\nWINCONDITIONS").expect("the win conditions");
        format!("{}{rules}{}", &GAME[..start], &GAME[end..])
    }

    #[test]
    fn a_group_needs_what_all_its_rules_need() {
        let rules =
            "[ > Player | Crate ] -> [ > Player | > Crate ]\n[ Wall ] -> [ Wall ]\n+ [ Crate ] -> [ Crate ]";
        let game = compile(&with_rules(rules)).expect("compiles");
        let player_layer = game.objects.iter().find(|o| o.name == "player").expect("player").layer;
        // four directions of one rule: the player moving and the crate beside it, in each
        let need = &game.group_needs[0];
        assert!(game.rules[0].len() == 4 && need.several);
        assert_eq!(need.objects[0], bit(&game, "player") | bit(&game, "crate"));
        assert_eq!(need.moving_layers, vec![player_layer]);
        // a wall in one rule, a crate in the other: nothing in common, so never passed over
        let need = &game.group_needs[1];
        assert!(game.rules[1].len() == 2 && need.several);
        assert_eq!((need.objects[0], need.moving_layers.len()), (0, 0));
    }

    #[test]
    fn a_rule_that_expands_past_the_bound_is_refused_before_it_is_built() {
        // Each cell's `moving` expands into 5 directions, and the reference expands every
        // ambiguous cell of a rule, not only the first: 7 such cells make 5^7 x 7! (about 4 x 10^8)
        // rules, which the bound stops after 100,000, with no more than that held.
        let cells = ["moving Player"; 7].join(" | ");
        let source = with_rules(&format!("[ {cells} ] -> [ {cells} ]"));
        let diags = compile(&source).expect_err("refused");
        assert!(
            diags.iter().any(|d| d.is_error
                && d.message.contains("expands to more than 100000 rules (ambiguous movements)")),
            "{diags:?}"
        );
        // the same through properties: 3 objects on 3 layers in 11 cells, 3^11 = 177,147 rules
        let cells = ["Thing"; 11].join(" | ");
        let source = with_rules(&format!("[ {cells} ] -> [ {cells} ]"))
            .replace("Obstacle = Wall or Crate", "Obstacle = Wall or Crate\nThing = Wall or Player or Gem")
            .replace("Crate\norange\n", "Crate\norange\nGem\nyellow\n")
            .replace("Player, Wall, Crate", "Player\nWall, Crate\nGem");
        let diags = compile(&source).expect_err("refused");
        assert!(
            diags
                .iter()
                .any(|d| d.is_error && d.message.contains("expands to more than 100000 rules (properties)")),
            "{diags:?}"
        );
        // below the bound, the same shapes compile: 5^2 x 2! = 50 rules, 3^3 = 27
        let cells = ["moving Player"; 2].join(" | ");
        let game = compile(&with_rules(&format!("[ {cells} ] -> [ {cells} ]"))).expect("compiles");
        assert!(game.rules.iter().flatten().count() > 1);
    }
}
