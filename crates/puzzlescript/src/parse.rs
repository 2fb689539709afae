//! The parser: source text into sections (prelude, objects, legend, sounds, collision layers,
//! rules, win conditions, levels), following the reference tokenizer (`parser.js`) line by line:
//! nested `( )` comments across lines, names lower-cased, legend entries flattened as they are
//! declared, levels split by blank lines, messages kept verbatim.
//!
//! Sections, objects, legend, sounds, layers, rules, win conditions, levels, with the reference's
//! diagnostics: word by word where its tokenizer checks words, stopping where it stops after more
//! than 5 errors), read by a `Reader` one line at a time, a method per kind of line:
//! `level_message`, `blank_line`, `equals_row`, `section_header`, then per section `prelude_line`,
//! `object_line` (`object_names`, `object_colors`, `sprite_row`), `legend_words`, `sound_line`,
//! `collision_layer_line`, the rule and win-condition lines (`rule_tokens`, `wincondition_tokens`),
//! `level_row`; a game past one of tessera's limits — `MAX_SOURCE_BYTES`, `MAX_OBJECTS`,
//! `MAX_LAYERS`, `MAX_LEGEND_NAMES`, `MAX_RULE_LINES`, `MAX_LEVELS`, a level side past `MAX_SIDE` —
//! stops the reading at once (`Parsed::limit`), so no pass sees more

use super::Diagnostic;
use std::collections::BTreeSet;

/// One object as declared in the OBJECTS section.
#[derive(Clone, Debug)]
pub(crate) struct ObjectDef {
    pub name: String,
    pub line: usize,
    pub colors: Vec<String>,
    pub sprite: Vec<String>,
}

/// A sound row: its tokens with their kind, and its line.
#[derive(Clone, Debug)]
pub(crate) struct SoundRow {
    pub tokens: Vec<(String, SoundTok)>,
    pub line: usize,
}

/// The kind of a sound-row token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SoundTok {
    Event,
    Name,
    Verb,
    Direction,
    Seed,
}

/// A level or message as written.
#[derive(Clone, Debug)]
pub(crate) enum LevelDef {
    Rows { line: usize, rows: Vec<Vec<char>> },
    Message { text: String, line: usize },
}

/// Everything the parser collects, before compilation.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parsed {
    pub metadata: Vec<(String, String, usize)>,
    pub objects: Vec<ObjectDef>,
    pub synonyms: Vec<(String, String, usize)>,
    pub aggregates: Vec<(String, Vec<String>, usize)>,
    pub properties: Vec<(String, Vec<String>, usize)>,
    pub sounds: Vec<SoundRow>,
    pub collision_layers: Vec<Vec<String>>,
    pub collision_layer_lines: Vec<usize>,
    pub rules: Vec<(String, usize, String)>,
    pub winconditions: Vec<(Vec<String>, usize)>,
    pub levels: Vec<LevelDef>,
    pub names: BTreeSet<String>,
    pub diagnostics: Vec<Diagnostic>,
    pub original_line_numbers: Vec<(String, usize)>,
    /// object name -> index in `objects`
    pub object_lookup: std::collections::BTreeMap<String, usize>,
    /// The names the reference's tokenizer knows in RULES and WINCONDITIONS: objects and legend
    /// entries as of the SOUNDS header (empty when there is none).
    pub token_names: BTreeSet<String>,
    /// One-character names usable in maps, as of the LEVELS header.
    pub abbrev_names: BTreeSet<char>,
    /// The distinct errors so far (the reference counts a repeated message once).
    seen: BTreeSet<(usize, bool, String)>,
    /// How many distinct errors so far.
    error_count: usize,
    /// Parsing stopped early: more than [`MAX_PARSE_ERRORS`] errors (the reference gives up
    /// there and compiles nothing further).
    pub aborted: bool,
    /// The source (for the columns of the words messages are about).
    pub text: std::sync::Arc<str>,
}

/// More errors than this while reading the text, and the reference stops (`MAX_ERRORS`).
const MAX_PARSE_ERRORS: usize = 5;

const SECTION_NAMES: [&str; 7] =
    ["objects", "legend", "sounds", "collisionlayers", "rules", "winconditions", "levels"];
const METADATA_WITH_VALUE: [&str; 12] = [
    "title",
    "author",
    "homepage",
    "background_color",
    "text_color",
    "key_repeat_interval",
    "realtime_interval",
    "again_interval",
    "flickscreen",
    "zoomscreen",
    "color_palette",
    "youtube",
];
const METADATA_NO_VALUE: [&str; 10] = [
    "run_rules_on_level_start",
    "norepeat_action",
    "require_player_movement",
    "debug",
    "verbose_logging",
    "throttle_movement",
    "noundo",
    "noaction",
    "norestart",
    "scanline",
];
pub(crate) const SOUND_EVENTS: [&str; 21] = [
    "undo",
    "restart",
    "titlescreen",
    "startgame",
    "cancel",
    "endgame",
    "startlevel",
    "endlevel",
    "showmessage",
    "closemessage",
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
];
const SOUND_VERBS: [&str; 5] = ["move", "action", "create", "destroy", "cantmove"];
const SOUND_DIRECTIONS: [&str; 7] = ["up", "down", "left", "right", "horizontal", "vertical", "orthogonal"];

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The length of the colour at the start of `s` (a name, or `#` and 3 or 6 hex digits).
fn color_prefix(s: &str) -> Option<usize> {
    if let Some(hex) = s.strip_prefix('#') {
        let n = hex.chars().take_while(|c| c.is_ascii_hexdigit()).count();
        return match n {
            0..=2 => None,
            3..=5 => Some(4),
            _ => Some(7),
        };
    }
    // No colour name is the start of another, so the first that matches is the only one.
    crate::art::colour_names().find(|c| s.starts_with(*c)).map(str::len)
}

/// Whether `s` is a colour the reference accepts (a palette name or `#` and 3 or 6 hex digits).
pub(crate) fn is_color(s: &str) -> bool {
    let s = s.trim();
    if crate::art::colour_names().any(|c| c == s) {
        return true;
    }
    s.strip_prefix('#')
        .is_some_and(|h| (h.len() == 3 || h.len() == 6) && h.chars().all(|c| c.is_ascii_hexdigit()))
}

/// Lower-cases char by char (keeping one char per char, so positions line up).
fn lower_chars(line: &str) -> Vec<char> {
    if line.is_ascii() {
        return line.bytes().map(|b| b.to_ascii_lowercase() as char).collect();
    }
    line.chars()
        .map(|c| {
            let mut l = c.to_lowercase();
            match (l.next(), l.next()) {
                (Some(a), None) => a,
                _ => c,
            }
        })
        .collect()
}

struct LegendLookup {
    kind: LegendKind,
    name: String,
}

#[derive(PartialEq, Eq)]
enum LegendKind {
    Object,
    Aggregate(Vec<String>),
    Property(Vec<String>),
    Undeclared,
}

impl Parsed {
    fn error(&mut self, line: usize, message: impl Into<String>) {
        let message = message.into();
        if self.seen.insert((line, true, message.clone())) {
            self.error_count += 1;
        }
        self.diagnostics.push(Diagnostic { line, column: 1, width: 0, message, is_error: true });
    }

    /// An error about `word` of the line: its column and width are the word's there.
    fn error_word(&mut self, line: usize, word: &str, message: impl Into<String>) {
        self.error(line, message);
        self.locate_last(word);
    }

    /// An error about the characters `column..column + width` (from 1) of the line.
    fn error_span(&mut self, line: usize, column: usize, width: usize, message: impl Into<String>) {
        self.error(line, message);
        if let Some(d) = self.diagnostics.last_mut() {
            (d.column, d.width) = (column, width);
        }
    }

    /// The last message is about `word` of its line: its column and width.
    fn locate_last(&mut self, word: &str) {
        let text = std::sync::Arc::clone(&self.text);
        if let Some(d) = self.diagnostics.last_mut()
            && let Some((c, w)) = super::source_line(&text, d.line).and_then(|l| super::word_span(l, word))
        {
            (d.column, d.width) = (c, w);
        }
    }

    /// A game past one of tessera's limits ([`super::MAX_SOURCE_BYTES`], [`super::MAX_OBJECTS`],
    /// ...; issue 37): an error naming the limit, and reading stops at once (nothing is
    /// compiled), so that no pass ever sees more than the limits allow.
    fn limit(&mut self, line: usize, message: String) {
        self.error(line, message);
        self.aborted = true;
    }

    /// The reference checks its error count after every token: past the limit, it stops.
    fn too_many(&mut self) -> bool {
        if self.error_count > MAX_PARSE_ERRORS {
            self.aborted = true;
        }
        self.aborted
    }

    fn warning(&mut self, line: usize, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic {
            line,
            column: 1,
            width: 0,
            message: message.into(),
            is_error: false,
        });
    }

    fn object_index(&self, name: &str) -> Option<usize> {
        self.object_lookup.get(name).copied()
    }

    /// `wordAlreadyDeclared`: the line of the declaration, if any.
    fn declared(&self, n: &str) -> Option<usize> {
        if let Some(&k) = self.object_lookup.get(n) {
            return Some(self.objects[k].line);
        }
        if let Some(a) = self.aggregates.iter().find(|a| a.0 == n) {
            return Some(a.2);
        }
        if let Some(a) = self.properties.iter().find(|a| a.0 == n) {
            return Some(a.2);
        }
        if let Some(a) = self.synonyms.iter().find(|a| a.0 == n) {
            return Some(a.2);
        }
        None
    }

    fn lookup(&self, n: &str, depth: usize) -> LegendLookup {
        if self.object_index(n).is_some() {
            return LegendLookup { kind: LegendKind::Object, name: n.to_string() };
        }
        if depth < 64
            && let Some(s) = self.synonyms.iter().find(|s| s.0 == n)
        {
            let target = s.1.clone();
            return self.lookup(&target, depth + 1);
        }
        if let Some(a) = self.aggregates.iter().find(|a| a.0 == n) {
            return LegendLookup { kind: LegendKind::Aggregate(a.1.clone()), name: n.to_string() };
        }
        if let Some(a) = self.properties.iter().find(|a| a.0 == n) {
            return LegendLookup { kind: LegendKind::Property(a.1.clone()), name: n.to_string() };
        }
        LegendLookup { kind: LegendKind::Undeclared, name: n.to_string() }
    }

    fn flatten_property(&mut self, n: &str, line: usize, depth: usize) -> Vec<String> {
        let found = self.lookup(n, 0);
        match found.kind {
            LegendKind::Object | LegendKind::Undeclared => vec![found.name],
            LegendKind::Aggregate(_) => {
                self.error(line, format!("Cannot define a property (something defined in terms of 'or') in terms of an aggregate (something that uses 'and').  In this case, you can't define \"{}\".", found.name.to_uppercase()));
                vec![]
            }
            LegendKind::Property(members) => {
                let mut out = Vec::new();
                if depth > 64 {
                    return out;
                }
                for m in members {
                    if m != found.name {
                        out.extend(self.flatten_property(&m, line, depth + 1));
                    }
                }
                out
            }
        }
    }

    fn flatten_aggregate(&mut self, n: &str, line: usize, depth: usize) -> Vec<String> {
        let found = self.lookup(n, 0);
        match found.kind {
            LegendKind::Object | LegendKind::Undeclared => vec![found.name],
            LegendKind::Property(_) => {
                self.error(line, "Cannot define an aggregate (using 'and') in terms of properties (something that uses 'or').");
                vec![found.name]
            }
            LegendKind::Aggregate(members) => {
                let mut out = Vec::new();
                if depth > 64 {
                    return out;
                }
                for m in members {
                    out.extend(self.flatten_aggregate(&m, line, depth + 1));
                }
                out
            }
        }
    }

    fn legend_line(&mut self, mut splits: Vec<String>, line: usize) {
        if splits.is_empty() {
            return;
        }
        if splits.len() == 1 {
            self.error(line, "Incorrect format of legend - should be one of \"A = B\", \"A = B or C [ or D ...]\", \"A = B and C [ and D ...]\".");
            return;
        }
        if splits.len().is_multiple_of(2) {
            self.error(line, "Incorrect format of legend - it looks like you have a dangling word.");
            return;
        }
        let candname = splits[0].clone();
        let mut ok = true;
        if let Some(l) = self.declared(&candname) {
            ok = false;
            let word = candname.clone();
            self.error_word(
                line,
                &word,
                format!("Name \"{}\" already in use (on line line {}).", candname.to_uppercase(), l),
            );
        }
        // self references
        let mut i = 2;
        while i < splits.len() {
            if splits[i] == candname {
                ok = false;
                let word = candname.clone();
                self.error_word(
                    line,
                    &word,
                    format!("You can't define object {} in terms of itself!", candname.to_uppercase()),
                );
                let mut idx = splits.iter().skip(2).position(|s| *s == candname);
                while let Some(p) = idx {
                    let p = p + 2;
                    if p >= 4 {
                        splits.drain(p - 1..p + 1);
                    } else {
                        let end = (p + 2).min(splits.len());
                        splits.drain(p..end);
                    }
                    idx = splits.iter().skip(2).position(|s| *s == candname);
                }
            }
            i += 2;
        }
        let mut i = 2;
        while i < splits.len() {
            let d = splits[i].clone();
            if d != candname && self.declared(&d).is_none() {
                self.error_word(
                    line,
                    &d,
                    format!("You're talking about {} but it's not defined anywhere.", d.to_uppercase()),
                );
            }
            i += 2;
        }
        if splits.len() == 3 {
            self.synonyms.push((splits[0].clone(), splits[2].clone(), line));
            self.original_line_numbers.push((splits[0].clone(), line));
        } else if splits.len() >= 5 && splits[3] == "and" {
            let mut members = Vec::new();
            let mut i = 2;
            while i < splits.len() {
                let s = splits[i].clone();
                members.extend(self.flatten_aggregate(&s, line, 0));
                i += 2;
            }
            self.aggregates.push((splits[0].clone(), members, line));
            self.original_line_numbers.push((splits[0].clone(), line));
        } else if splits.len() >= 5 && splits[3] == "or" {
            let mut i = 5;
            while i < splits.len() {
                if splits[i] != "or" {
                    return;
                }
                i += 2;
            }
            let mut members = Vec::new();
            let mut i = 2;
            while i < splits.len() {
                let s = splits[i].clone();
                members.extend(self.flatten_property(&s, line, 0));
                i += 2;
            }
            if !members.is_empty() {
                self.properties.push((splits[0].clone(), members, line));
                self.original_line_numbers.push((splits[0].clone(), line));
            }
        } else if ok {
            self.error(line, "This legend-entry is incorrectly-formatted - it should be one of A = B, A = B or C ( or D ...), A = B and C (and D ...)");
        }
    }

    fn collision_substitute(&mut self, n: &str, line: usize, depth: usize) -> Vec<String> {
        let found = self.lookup(n, 0);
        match found.kind {
            LegendKind::Object => vec![found.name],
            LegendKind::Aggregate(_) => {
                self.error_word(line, n, format!("\"{}\" is an aggregate (defined using \"and\"), and cannot be added to a single layer because its constituent objects must be able to coexist.", found.name));
                vec![]
            }
            LegendKind::Property(members) => {
                let mut out = Vec::new();
                if depth > 64 {
                    return out;
                }
                for m in members {
                    if m != found.name {
                        out.extend(self.collision_substitute(&m, line, depth + 1));
                    }
                }
                out
            }
            LegendKind::Undeclared => {
                self.error_word(
                    line,
                    n,
                    format!(
                        "Cannot add \"{}\" to a collision layer; it has not been declared.",
                        n.to_uppercase()
                    ),
                );
                vec![]
            }
        }
    }

    fn fill_names(&mut self) {
        let mut names = BTreeSet::new();
        for o in &self.objects {
            names.insert(o.name.clone());
        }
        for s in &self.synonyms {
            names.insert(s.0.clone());
        }
        for s in &self.aggregates {
            names.insert(s.0.clone());
        }
        for s in &self.properties {
            names.insert(s.0.clone());
        }
        self.names = names;
    }
}

/// Splits a line into its code part, dropping comments (nested, possibly spanning lines).
/// `raw_after_message`: after a `message` word outside comments, the rest is copied verbatim.
fn strip_comments(chars: &[char], level: &mut usize, raw_after_message: bool) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if *level > 0 {
            if c == '(' {
                *level += 1;
            } else if c == ')' {
                *level -= 1;
            }
            out.push(' ');
            i += 1;
            continue;
        }
        if raw_after_message {
            let at_token_start = i == 0 || {
                let p = chars[i - 1];
                p.is_whitespace() || p == '[' || p == ']' || p == '|'
            };
            if at_token_start && chars.len() >= i + 7 {
                // no character outside ASCII lower-cases into one of "message"'s letters
                let is_message = chars[i..i + 7].iter().map(|c| c.to_ascii_lowercase()).eq("message".chars());
                let next_ok = chars.len() == i + 7 || {
                    let n = chars[i + 7];
                    n.is_whitespace() || n == '[' || n == ']' || n == '|'
                };
                if is_message && next_ok {
                    out.extend_from_slice(&chars[i..]);
                    return out;
                }
            }
        }
        if c == '(' {
            *level = 1;
            out.push(' ');
        } else if c == ')' {
            out.push(' ');
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// The reference tokenizer's word-by-word check of a rule line (`code`: lower-cased, comments
/// blanked): a word that is no direction, keyword, command or known name is an error, and so is
/// a name as the line's first word (names belong inside brackets).
fn rule_tokens(p: &mut Parsed, code: &str, line: usize) {
    const LOOP_MARKERS: [&str; 2] = ["startloop", "endloop"];
    const RULE_DIRECTIONS: [&str; 9] =
        ["up", "down", "left", "right", "horizontal", "vertical", "orthogonal", "late", "rigid"];
    const CELL_DIRECTIONS: [&str; 19] = [
        "action",
        "up",
        "down",
        "left",
        "right",
        "^",
        "v",
        "<",
        ">",
        "moving",
        "stationary",
        "parallel",
        "perpendicular",
        "horizontal",
        "orthogonal",
        "vertical",
        "no",
        "randomdir",
        "random",
    ];
    const COMMANDS: [&str; 17] = [
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
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    let mut in_pattern = false;
    let mut first = true;
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() || p.too_many() {
            return;
        }
        let sol = std::mem::replace(&mut first, false);
        if chars[i] == '-' && chars.get(i + 1) == Some(&'>') {
            i += 2;
            continue;
        }
        if matches!(chars[i], '[' | '|' | ']' | '+') {
            if chars[i] != '+' {
                in_pattern = true;
            }
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !matches!(chars[i], '[' | '|' | ']') && !chars[i].is_whitespace() {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        let w = word.as_str();
        if (!in_pattern && (LOOP_MARKERS.contains(&w) || RULE_DIRECTIONS.contains(&w)))
            || (in_pattern && CELL_DIRECTIONS.contains(&w))
        {
            continue;
        }
        // The word's place in the line (`code` has the line's characters, comments blanked).
        let (column, width) = (start + 1, i - start);
        if p.token_names.contains(w) {
            if sol {
                p.error_span(
                    line,
                    column,
                    width,
                    "Objects cannot appear outside of square brackets in rules, only directions can.",
                );
            }
        } else if w == "message" {
            return;
        } else if !(w == "..." || w == "rigid" || w == "random" || COMMANDS.contains(&w)) {
            p.error_span(
                line,
                column,
                width,
                format!("Name \"{w}\", referred to in a rule, does not exist."),
            );
        }
    }
}

/// The reference tokenizer's word-by-word check of a win condition: a quantifier, a known name,
/// `on`, a known name, nothing more.
fn wincondition_tokens(p: &mut Parsed, code: &str, line: usize) {
    let mut rest = code.trim_start();
    let mut index = 0;
    while !rest.is_empty() && !p.too_many() {
        let len: usize = rest.chars().take_while(|c| is_word_char(*c)).map(char::len_utf8).sum();
        if len == 0 {
            p.error(line, "incorrect format of win condition.");
            return;
        }
        let w = &rest[..len];
        rest = rest[len..].trim_start();
        let up = w.to_uppercase();
        match index {
            0 if !["all", "any", "no", "some"].contains(&w) => p.error_word(
                line,
                w,
                format!("Expecting the start of a win condition (\"ALL\",\"SOME\",\"NO\") but got \"{up}'."),
            ),
            2 if w != "on" => p.error_word(line, w, format!("Expecting the word \"ON\" but got \"{up}\".")),
            1 | 3 if !p.token_names.contains(w) => {
                p.error_word(line, w, format!("Error in win condition: \"{up}\" is not a valid object name."))
            }
            4.. => {
                p.error_word(line, w, format!("Error in win condition: I don't know what to do with {up}."))
            }
            _ => {}
        }
        index += 1;
    }
}

/// Parses a whole source text, line by line as the reference's tokenizer reads it.
pub(crate) fn parse(source: &str) -> Parsed {
    let mut reader = Reader::default();
    if source.len() > super::MAX_SOURCE_BYTES {
        reader.p.limit(
            0,
            format!(
                "the game is {} bytes, more than {} MiB, the most a PuzzleScript game may have",
                source.len(),
                super::MAX_SOURCE_BYTES >> 20
            ),
        );
        return reader.p;
    }
    reader.p.text = std::sync::Arc::from(source);
    for (index, raw_line) in source.split('\n').enumerate() {
        if reader.p.too_many() {
            break;
        }
        reader.line(index + 1, raw_line);
    }
    let mut p = reader.p;
    p.too_many();
    if p.names.is_empty() {
        p.fill_names();
    }
    p
}

/// Where the reading stands between lines: what is read so far, the section, the comment
/// depth, and the object or level in construction.
struct Reader {
    p: Parsed,
    /// The current section ("" for the prelude) and the sections seen so far.
    section: &'static str,
    visited: Vec<&'static str>,
    /// How deep in `( )` comments the next line starts.
    comment_level: usize,
    /// What an object's next line is: 0 its names (or a new object), 1 names read, 2 its
    /// colours, 3 its sprite rows.
    objects_section: u8,
    current_object: Option<usize>,
    sprite: Vec<String>,
    /// The reference's `levels` list ends with an empty level in construction: the next row
    /// starts a new level.
    last_level_open: bool,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            p: Parsed::default(),
            section: "",
            visited: Vec::new(),
            comment_level: 0,
            objects_section: 0,
            current_object: None,
            sprite: Vec::new(),
            last_level_open: true,
        }
    }
}

impl Reader {
    /// One line of the source: a level's message, a blank line, a row of `=`, a section header,
    /// or a line of the current section.
    fn line(&mut self, line_number: usize, raw_line: &str) {
        let mixed: Vec<char> = raw_line.chars().collect();
        let lower = lower_chars(raw_line);
        let started_in_comment = self.comment_level > 0;
        let blank = !started_in_comment && lower.iter().all(|c| c.is_whitespace());

        if self.section == "levels" && !started_in_comment && self.level_message(line_number, &mixed, &lower)
        {
            return;
        }
        if blank {
            self.blank_line();
            return;
        }
        let (code, code_mixed) = self.strip_line(raw_line, &mixed, &lower);
        let trimmed = code.trim();
        if trimmed.is_empty() || self.equals_row(line_number, trimmed) {
            return;
        }
        if self.section != "levels" && self.section_header(line_number, trimmed) {
            return;
        }
        match self.section {
            "" => self.prelude_line(line_number, trimmed, &code_mixed),
            "objects" => self.object_line(line_number, trimmed),
            "legend" => self.legend_words(line_number, trimmed),
            "sounds" => self.sound_line(line_number, trimmed),
            "collisionlayers" => self.collision_layer_line(line_number, trimmed),
            "rules" if self.p.rules.len() == super::MAX_RULE_LINES => {
                let message = format!("more than {} rules, the most a game may have", super::MAX_RULE_LINES);
                self.p.limit(line_number, message);
            }
            "rules" => {
                // the rule text is the lower-cased line up to its first '('
                let rule_text: String = if started_in_comment {
                    code.clone()
                } else {
                    let upto: String = lower.iter().take_while(|c| **c != '(').collect();
                    if upto.is_empty() {
                        // A line opening with a comment: the reference takes the first run of
                        // characters that are not '(' (its `reg_notcommentstart` on the whole
                        // line), the comment's end and what follows, which is no rule (issue
                        // 36.14: `(decorate)  [ > Player | Crate ] -> ...` is refused there).
                        let line: String = lower.iter().collect();
                        line.split('(')
                            .find(|run| !run.is_empty())
                            .map_or_else(|| code.clone(), str::to_string)
                    } else if upto.trim().is_empty() {
                        code.clone()
                    } else {
                        upto
                    }
                };
                let mixed_line: String = mixed.iter().collect();
                self.p.rules.push((rule_text, line_number, mixed_line));
                rule_tokens(&mut self.p, &code, line_number);
            }
            "winconditions" => {
                let words: Vec<String> = trimmed.split_whitespace().map(String::from).collect();
                self.p.winconditions.push((words, line_number));
                wincondition_tokens(&mut self.p, trimmed, line_number);
            }
            "levels" => self.level_row(line_number, trimmed),
            _ => {}
        }
    }

    /// A `message` line in LEVELS, kept verbatim (mixed case). False: not a message.
    fn level_message(&mut self, line_number: usize, mixed: &[char], lower: &[char]) -> bool {
        let trimmed: String = lower.iter().collect::<String>();
        let t = trimmed.trim_start();
        let Some(rest) = t.strip_prefix("message") else {
            return false;
        };
        let offset = lower.len() - t.chars().count() + 7;
        let text: String = mixed[offset.min(mixed.len())..].iter().collect();
        if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
            self.p.warning(line_number, "You probably meant to put a space after 'message' innit.  That's ok, I'll still interpret it as a message, but you probably want to put a space there.");
        }
        let m = LevelDef::Message { text: text.trim().to_string(), line: line_number };
        self.p.levels.push(m);
        self.last_level_open = true;
        true
    }

    /// A blank line ends an object's declaration, and a level.
    fn blank_line(&mut self) {
        if self.section == "objects" {
            self.objects_section = 0;
        }
        if self.section == "levels" {
            // close a level: the next rows start a new one
            if let Some(LevelDef::Rows { .. }) = self.p.levels.last() {
                self.last_level_open = true;
            }
        }
    }

    /// The line without its comments, lower-cased and as written.
    fn strip_line(&mut self, raw_line: &str, mixed: &[char], lower: &[char]) -> (String, String) {
        let raw_msg = self.section == "rules";
        // Most lines are outside comments and hold no parenthesis: nothing to strip.
        if self.comment_level == 0 && !raw_line.contains(['(', ')']) {
            (lower.iter().collect(), raw_line.to_string())
        } else {
            let code_l = strip_comments(lower, &mut self.comment_level.clone(), raw_msg);
            let code_m = strip_comments(mixed, &mut self.comment_level, raw_msg);
            (code_l.iter().collect(), code_m.iter().collect())
        }
    }

    /// A row of `=` (a section's underline), with only comments after it. False: another line.
    fn equals_row(&mut self, line_number: usize, trimmed: &str) -> bool {
        if trimmed.chars().all(|c| c == '=' || c.is_whitespace()) {
            return true;
        }
        if trimmed.starts_with('=') && self.section != "levels" {
            let rest = trimmed.trim_start_matches('=').trim();
            if !rest.is_empty() {
                self.p.error(
                    line_number,
                    "Only comments should go after a bunch of equals signs ('===') on a line.",
                );
            }
            return true;
        }
        false
    }

    /// A section's name: sections come once each, in order. Entering SOUNDS, RULES or LEVELS
    /// fixes the names the tokenizer knows there. False: not a header.
    fn section_header(&mut self, line_number: usize, trimmed: &str) -> bool {
        let first: String = trimmed.chars().take_while(|c| is_word_char(*c)).collect();
        let Some(&name) = SECTION_NAMES.iter().find(|s| **s == first) else {
            return false;
        };
        let p = &mut self.p;
        let rest = trimmed[first.len()..].trim();
        if !rest.is_empty() {
            p.error(
                line_number,
                format!(
                    "Only comments should go after a section name (\"{}\") on a line.",
                    name.to_uppercase()
                ),
            );
        }
        if self.visited.contains(&name) {
            p.error(
                line_number,
                format!("cannot duplicate sections (you tried to duplicate \"{}\").", name.to_uppercase()),
            );
        }
        let idx = SECTION_NAMES.iter().position(|s| *s == name).unwrap_or(0);
        self.visited.push(name);
        if idx == 0 {
            self.objects_section = 0;
            if self.visited.len() > 1 {
                p.error(line_number, "section \"OBJECTS\" must be the first section".to_string());
            }
        } else if !self.visited.contains(&SECTION_NAMES[idx - 1]) {
            p.error(
                line_number,
                format!(
                    "section \"{}\" is out of order, must follow  \"{}\".",
                    name.to_uppercase(),
                    SECTION_NAMES[idx - 1].to_uppercase()
                ),
            );
        }
        self.section = name;
        if name == "sounds" || name == "levels" || name == "rules" {
            p.fill_names();
        }
        if name == "sounds" {
            p.token_names.extend(p.names.iter().cloned());
        }
        if name == "levels" {
            let one_char = |n: &String| {
                let mut cs = n.chars();
                cs.next().filter(|_| cs.next().is_none())
            };
            let objects = p.objects.iter().map(|o| &o.name);
            let legend = p.synonyms.iter().map(|s| &s.0).chain(p.aggregates.iter().map(|a| &a.0));
            let abbrev: Vec<char> = objects.chain(legend).filter_map(one_char).collect();
            p.abbrev_names.extend(abbrev);
        }
        true
    }

    /// A prelude line: a metadata key, with a value where it takes one.
    fn prelude_line(&mut self, line_number: usize, trimmed: &str, code_mixed: &str) {
        let p = &mut self.p;
        let mut words = trimmed.split_whitespace();
        let key = words.next().unwrap_or("").to_string();
        if METADATA_WITH_VALUE.contains(&key.as_str()) {
            let source_text = if key == "author" || key == "homepage" || key == "title" {
                code_mixed.trim().to_string()
            } else {
                trimmed.to_string()
            };
            let value = source_text.chars().skip(key.chars().count()).collect::<String>().trim().to_string();
            if value.is_empty() {
                p.error_word(line_number, &key, format!("MetaData \"{key}\" needs a value."));
            } else {
                p.metadata.push((key, value, line_number));
            }
        } else if METADATA_NO_VALUE.contains(&key.as_str()) {
            p.metadata.push((key, "true".to_string(), line_number));
        } else {
            p.error(line_number, "Unrecognised stuff in the prelude.");
        }
    }

    /// An OBJECTS line: an object's names, its colours, or a row of its sprite.
    fn object_line(&mut self, line_number: usize, trimmed: &str) {
        if self.objects_section == 2 {
            self.objects_section = 3;
        }
        if self.objects_section == 1 {
            self.objects_section = 2;
        }
        match self.objects_section {
            0 | 1 => {
                self.sprite.clear();
                // As the reference's tryParseName: only a name read opens an object (issue 36.13:
                // sprite rows after a blank line are junk, each a warning, not colours).
                if self.object_names(line_number, trimmed) {
                    self.objects_section = 1;
                }
            }
            2 => self.object_colors(line_number, trimmed),
            _ => {
                let first = trimmed.chars().next().unwrap_or(' ');
                if first == '.' || first.is_ascii_digit() {
                    self.sprite_row(line_number, trimmed);
                } else if self.sprite.is_empty() {
                    if self.object_names(line_number, trimmed) {
                        self.objects_section = 1;
                    }
                } else {
                    self.p.error(line_number, "Unknown junk in spritematrix for object.");
                }
            }
        }
    }

    /// An object's name (word characters) and its aliases (anything but spaces and
    /// parentheses), which become synonyms. False when the line starts with no name (junk,
    /// warned of).
    fn object_names(&mut self, line_number: usize, trimmed: &str) -> bool {
        let p = &mut self.p;
        let lead: String = trimmed.chars().take_while(|c| is_word_char(*c)).collect();
        if lead.is_empty() {
            p.warning(line_number, "Unknown junk in object section (possibly: sprites have to be 5 pixels wide and 5 pixels high exactly. Or maybe: the main names for objects have to be words containing only the letters a-z0.9 - if you want to call them something like \",\", do it in the legend section).");
            return false;
        }
        let rest = trimmed[lead.len()..].to_string();
        let mut first = true;
        for word in std::iter::once(lead.as_str()).chain(rest.split_whitespace()) {
            let name = word.to_string();
            if p.object_index(&name).is_some() {
                p.error_word(
                    line_number,
                    &name,
                    format!("Object \"{}\" defined multiple times.", name.to_uppercase()),
                );
                first = false;
                continue;
            }
            if p.synonyms.iter().any(|s| s.0 == name) {
                p.error_word(line_number, &name, format!("Name \"{}\" already in use.", name.to_uppercase()));
            }
            if first && p.objects.len() == super::MAX_OBJECTS {
                p.limit(
                    line_number,
                    format!("more than {} objects, the most a game may have", super::MAX_OBJECTS),
                );
                return true;
            }
            if first {
                p.object_lookup.insert(name.clone(), p.objects.len());
                p.objects.push(ObjectDef {
                    name: name.clone(),
                    line: line_number,
                    colors: Vec::new(),
                    sprite: Vec::new(),
                });
                self.current_object = Some(p.objects.len() - 1);
                self.sprite.clear();
            } else if let Some(o) = self.current_object {
                let target = p.objects[o].name.clone();
                p.synonyms.push((name.clone(), target, line_number));
            }
            first = false;
        }
        true
    }

    /// An object's colours: names or hex codes; each word that is neither is an error of its
    /// own and reading goes on.
    fn object_colors(&mut self, line_number: usize, trimmed: &str) {
        let p = &mut self.p;
        let mut rest = trimmed;
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            match color_prefix(rest) {
                Some(len) => {
                    if let Some(o) = self.current_object {
                        p.objects[o].colors.push(rest[..len].to_string());
                    }
                    rest = &rest[len..];
                }
                None => {
                    let n = self.current_object.map(|o| p.objects[o].name.to_uppercase()).unwrap_or_default();
                    // the word (or, if none, the rest of the line) is skipped
                    let len: usize = rest.chars().take_while(|c| is_word_char(*c)).map(char::len_utf8).sum();
                    let len = if len == 0 { rest.len() } else { len };
                    let word = rest[..len].trim();
                    p.error_word(
                        line_number,
                        word,
                        format!("Was looking for color for object {n}, got \"{word}\" instead."),
                    );
                    rest = &rest[len..];
                    if p.too_many() {
                        break;
                    }
                }
            }
        }
    }

    /// A row of an object's sprite (`.` and colour digits); five rows of five end the object.
    fn sprite_row(&mut self, line_number: usize, trimmed: &str) {
        let p = &mut self.p;
        let mut row = String::new();
        for c in trimmed.chars() {
            if c.is_whitespace() {
                continue;
            }
            if c == '.' || c.is_ascii_digit() {
                row.push(c);
                if row.len() > 5 {
                    p.warning(line_number, "Sprites must be 5 wide and 5 high.");
                    break;
                }
            } else {
                p.error(line_number, "Unknown junk in spritematrix for object.");
                break;
            }
        }
        if let Some(o) = self.current_object {
            let ncolors = p.objects[o].colors.len();
            for c in row.chars().take(5) {
                if let Some(d) = c.to_digit(10)
                    && d as usize >= ncolors
                {
                    p.error(line_number, format!("Trying to access color number {d} from the color palette of sprite {}, but there are only {ncolors} defined in it.", p.objects[o].name.to_uppercase()));
                }
            }
            self.sprite.push(row);
            p.objects[o].sprite = self.sprite.clone();
        }
        if self.sprite.len() == 5 && self.sprite.last().map(|r| r.len()) == Some(5) {
            self.objects_section = 0;
        }
    }

    /// A LEGEND line, word by word as the reference reads it: a name, '=', then names separated
    /// by 'and' or 'or'; a word that is not one ends the line's reading. Then the entry itself
    /// ([`Parsed::legend_line`]).
    fn legend_words(&mut self, line_number: usize, trimmed: &str) {
        let p = &mut self.p;
        let mut splits: Vec<String> = Vec::new();
        let mut rest = trimmed;
        let mut index = 0;
        loop {
            rest = rest.trim_start();
            if rest.is_empty() || p.too_many() {
                break;
            }
            let word_len: usize = rest.chars().take_while(|c| is_word_char(*c)).map(char::len_utf8).sum();
            match index {
                0 => {
                    let len: usize = rest
                        .chars()
                        .take_while(|c| *c != '=' && *c != '(' && !c.is_whitespace())
                        .map(char::len_utf8)
                        .sum();
                    splits.push(rest[..len].to_string());
                    rest = &rest[len..];
                    index = 1;
                }
                1 => {
                    if let Some(r) = rest.strip_prefix('=') {
                        splits.push("=".to_string());
                        rest = r;
                    } else {
                        p.error(line_number, "In the legend, define new items using the equals symbol - declarations must look like \"A = B\", \"A = B or C [ or D ...]\", \"A = B and C [ and D ...]\".");
                        splits.push("=".to_string());
                        rest = "";
                    }
                    index = 2;
                }
                _ if word_len == 0 => {
                    p.error(line_number, "Something bad's happening in the LEGEND");
                    rest = "";
                    if index % 2 == 1 {
                        index += 1;
                    }
                }
                _ => {
                    let w = rest[..word_len].to_string();
                    rest = &rest[word_len..];
                    if index % 2 == 1 {
                        if w != "and" && w != "or" {
                            p.error_word(
                                line_number,
                                &w,
                                format!(
                                    "Expected and 'AND' or an 'OR' here, but got {} instead.",
                                    w.to_uppercase()
                                ),
                            );
                        } else if index >= 5 && Some(&w) != splits.get(3) {
                            p.error(
                                line_number,
                                "Hey! You can't go mixing ANDs and ORs in a single legend entry.",
                            );
                        }
                    }
                    splits.push(w);
                    index += 1;
                }
            }
        }
        // key, `=`, then names with `and` / `or` between them
        let names = splits.len().saturating_sub(1) / 2;
        if names > super::MAX_LEGEND_NAMES {
            p.limit(
                line_number,
                format!(
                    "a legend key of {names} names, more than {}, the most one key may name",
                    super::MAX_LEGEND_NAMES
                ),
            );
            return;
        }
        if !p.too_many() {
            p.legend_line(splits, line_number);
        }
    }

    /// A SOUNDS line: an event and its seed, or a declared name, a verb, directions (for
    /// movement) and a seed.
    fn sound_line(&mut self, line_number: usize, trimmed: &str) {
        let p = &mut self.p;
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let mut tokens = Vec::new();
        let mut bad = false;
        if let Some(first) = words.first() {
            if SOUND_EVENTS.contains(first) {
                tokens.push((first.to_string(), SoundTok::Event));
                match words.get(1) {
                    Some(s) if s.chars().all(|c| c.is_ascii_digit()) => {
                        tokens.push((s.to_string(), SoundTok::Seed))
                    }
                    _ => {
                        p.error(line_number, "Was expecting a sound seed here (a number like 123123, like you generate by pressing the buttons above the console panel), but found something else.");
                        bad = true;
                    }
                }
                if words.len() > 2 && !bad {
                    p.error(
                        line_number,
                        "I wasn't expecting anything after the sound declaration on this line.",
                    );
                    bad = true;
                }
            } else if first.starts_with(is_word_char) && p.declared(first).is_some() {
                // A name of word characters, as the reference's `reg_name` reads it: a legend
                // name such as `*box` is no sound's object there (issue 36.15).
                tokens.push((first.to_string(), SoundTok::Name));
                match words.get(1) {
                    Some(v) if SOUND_VERBS.contains(v) => {
                        tokens.push((v.to_string(), SoundTok::Verb));
                        let directional = *v == "move" || *v == "cantmove";
                        for w in &words[2..] {
                            if matches!(tokens.last(), Some((_, SoundTok::Seed))) {
                                p.error(
                                    line_number,
                                    "I wasn't expecting anything after the sound declaration on this line.",
                                );
                                bad = true;
                                break;
                            }
                            if directional && SOUND_DIRECTIONS.contains(w) {
                                tokens.push((w.to_string(), SoundTok::Direction));
                            } else if w.chars().all(|c| c.is_ascii_digit()) {
                                tokens.push((w.to_string(), SoundTok::Seed));
                            } else {
                                p.error(line_number, "Ah I was expecting direction or a sound seed here.");
                                bad = true;
                                break;
                            }
                        }
                    }
                    _ => {
                        p.error(line_number, "Was expecting a soundverb here (MOVE, DESTROY, CANTMOVE, or the like), but found something else.");
                        bad = true;
                    }
                }
            } else if first.chars().all(is_word_char) {
                p.error_word(line_number, first, format!("unexpected sound token \"{first}\"."));
                bad = true;
            } else {
                p.warning(line_number, "Was expecting a sound event (like SFX3, or ENDLEVEL) or an object name, but didn't find either.");
                bad = true;
            }
        }
        if !bad && !tokens.is_empty() {
            p.sounds.push(SoundRow { tokens, line: line_number });
        }
    }

    /// A COLLISIONLAYERS line: a new layer of the names on it (a property's objects), commas
    /// and spaces between them; background alone in its layer.
    fn collision_layer_line(&mut self, line_number: usize, trimmed: &str) {
        let p = &mut self.p;
        if p.collision_layers.len() == super::MAX_LAYERS {
            p.limit(
                line_number,
                format!("more than {} collision layers, the most a game may have", super::MAX_LAYERS),
            );
            return;
        }
        p.collision_layers.push(Vec::new());
        p.collision_layer_lines.push(line_number);
        let mut explicit: Vec<String> = Vec::new();
        let mut first_token = true;
        // names are runs of word characters; any other character than a comma or a space is an
        // error of its own
        let mut words: Vec<String> = Vec::new();
        let mut rest = trimmed;
        while let Some(c) = rest.chars().next() {
            let len: usize = rest.chars().take_while(|c| is_word_char(*c)).map(char::len_utf8).sum();
            if len > 0 {
                words.push(rest[..len].to_string());
                rest = &rest[len..];
                continue;
            }
            if c != ',' && !c.is_whitespace() {
                p.error_word(
                    line_number,
                    &c.to_string(),
                    format!("error detected - unexpected character {c}"),
                );
            }
            rest = &rest[c.len_utf8()..];
        }
        for name in words {
            if name == "background" {
                let last_nonempty = p.collision_layers.last().is_some_and(|l| !l.is_empty());
                if last_nonempty {
                    p.error(line_number, "Background must be in a layer by itself.");
                }
            } else if !first_token && explicit.iter().any(|e| e == "background") {
                p.error(line_number, "Background must be in a layer by itself.");
            }
            first_token = false;
            let ar = p.collision_substitute(&name, line_number, 0);
            let n_layers = p.collision_layers.len();
            let mut others = Vec::new();
            for t in &ar {
                for (j, l) in p.collision_layers.iter().enumerate() {
                    if j != n_layers - 1 && l.contains(t) {
                        others.push(j);
                    }
                }
            }
            if !others.is_empty() {
                let mut s = format!(
                    "Object \"{}\" included in multiple collision layers ( layers ",
                    name.to_uppercase()
                );
                for o in &others {
                    s.push_str(&format!("#{}, ", o + 1));
                }
                s.push_str(&format!("#{} ). You should fix this!", n_layers));
                p.warning(line_number, s);
            }
            explicit.push(name);
            if let Some(l) = p.collision_layers.last_mut() {
                l.extend(ar);
            }
        }
    }

    /// A row of a level: every glyph is a token of its own (an unknown one is an error each);
    /// the row starts a new level or extends the open one.
    fn level_row(&mut self, line_number: usize, trimmed: &str) {
        let p = &mut self.p;
        // A level past the board's bounds is not refused here: the game compiles, and that
        // level alone cannot be played ([`crate::StartError::TooLarge`], past [`crate::MAX_LEVEL_AREA`];
        // issue 66.1: a row of 340 cells in *An Auspicious Day*, 10,230 rows in *The Overtaking*,
        // refused whole games). The rows are bounded by the source (4 MiB).
        let opens = self.last_level_open || !matches!(p.levels.last(), Some(LevelDef::Rows { .. }));
        if opens && p.levels.len() >= super::MAX_LEVELS {
            p.limit(
                line_number,
                format!("more than {} levels and messages, the most a game may have", super::MAX_LEVELS),
            );
            return;
        }
        for ch in trimmed.chars().filter(|c| !c.is_whitespace()) {
            if p.too_many() {
                break;
            }
            if !p.abbrev_names.contains(&ch) {
                let key = ch.to_uppercase();
                p.error_word(
                    line_number,
                    &ch.to_string(),
                    format!("Key \"{key}\" not found. Do you need to add it to the legend, or define a new object?"),
                );
            }
        }
        let row: Vec<char> = trimmed.chars().collect();
        if self.last_level_open || !matches!(p.levels.last(), Some(LevelDef::Rows { .. })) {
            p.levels.push(LevelDef::Rows { line: line_number, rows: vec![row] });
            self.last_level_open = false;
        } else if let Some(LevelDef::Rows { rows, .. }) = p.levels.last_mut() {
            let ragged = rows[0].len() != row.len();
            rows.push(row);
            if ragged {
                p.warning(
                    line_number,
                    "Maps must be rectangular, yo (In a level, the length of each row must be the same).",
                );
            }
        }
    }
}
