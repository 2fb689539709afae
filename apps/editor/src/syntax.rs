//! PuzzleScript's syntax colours: a tokenizer of a game's source into the token classes the
//! reference editor's mode gives (`parser.js`: `HEADER`, `comment`, `NAME`, `COLOR`, sprite
//! rows, `EQUALSBIT`, `LOGICWORD`, `BRACKET`, `DIRECTION`, `ARROW`, `COMMAND`, `MESSAGE`,
//! `LEVEL`, sound seeds, `METADATA`), and the colours the source editor paints them in.
//!
//! Pure code, line by line with what carries over between lines (the section, the depth of
//! nested comments, where an object's declaration is): no egui here but the colours, so the
//! benchmark (`benches/source.rs`) measures it alone.

use egui::Color32;
use std::ops::Range;

/// A token class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Text of no class (spaces, commas, unknown words outside any section).
    Plain,
    /// A section header (`OBJECTS`, `RULES`…) or a line of `=`.
    Header,
    /// A comment, `( … )`, nested.
    Comment,
    /// An object or legend name.
    Name,
    /// A colour in an object's declaration.
    Colour,
    /// A row of an object's sprite (`0`–`9` and `.`).
    Sprite,
    /// The legend's `=`.
    Equals,
    /// The legend's `and` / `or`, the win conditions' `some`, `all`, `no`, `on`.
    Logic,
    /// A rule's `[` `]`.
    Bracket,
    /// A rule's `|` between cells.
    Bar,
    /// A rule's `->`.
    Arrow,
    /// Directions and modifiers: `>`, `moving`, `no`, `random`, `late`, `rigid`, `+`, …
    Direction,
    /// Commands: `again`, `cancel`, `win`, `checkpoint`, `restart`, `message`, `sfx0`–`sfx10`.
    Command,
    /// The text after `message`.
    Message,
    /// A row of a level.
    Level,
    /// A sound's seed (a number), in the sounds section or a rule.
    Sound,
    /// A prelude key (`title`, `author`, …).
    Metadata,
    /// A prelude value.
    MetaText,
}

/// A token: its byte range in the source and its class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Bytes of the whole source.
    pub range: Range<usize>,
    /// Its class.
    pub class: Class,
}

/// The sections of a game, in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Section {
    #[default]
    Prelude,
    Objects,
    Legend,
    Sounds,
    CollisionLayers,
    Rules,
    WinConditions,
    Levels,
}

impl Section {
    fn of_header(word: &str) -> Option<Section> {
        Some(match word.to_ascii_lowercase().as_str() {
            "objects" => Section::Objects,
            "legend" => Section::Legend,
            "sounds" => Section::Sounds,
            "collisionlayers" => Section::CollisionLayers,
            "rules" => Section::Rules,
            "winconditions" => Section::WinConditions,
            "levels" => Section::Levels,
            _ => return None,
        })
    }
}

/// Where an object's declaration is in the objects section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum ObjectPart {
    /// The next line names an object.
    #[default]
    Name,
    /// The next line gives its colours.
    Colours,
    /// Sprite rows follow (or the next object's name).
    Sprite,
}

/// What carries over from one line to the next.
#[derive(Clone, Copy, Debug, Default)]
struct LineState {
    section: Section,
    comment: u32,
    /// The byte of the source where the outermost comment open now was opened.
    opened: usize,
    object: ObjectPart,
}

/// The words of rules that are directions or modifiers.
const DIRECTIONS: &[&str] = &[
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
    "action",
    "late",
    "rigid",
    "+",
    "startloop",
    "endloop",
    "...",
];

/// The commands of rules.
const COMMANDS: &[&str] = &["again", "cancel", "win", "checkpoint", "restart", "message"];

/// The verbs of the sounds section.
const SOUND_VERBS: &[&str] = &[
    "move",
    "action",
    "create",
    "destroy",
    "cantmove",
    "startgame",
    "endgame",
    "startlevel",
    "endlevel",
    "restart",
    "undo",
    "showmessage",
    "closemessage",
    "up",
    "down",
    "left",
    "right",
    "horizontal",
    "vertical",
];

fn is_sfx(word: &str) -> bool {
    word.len() >= 4 && word[..3].eq_ignore_ascii_case("sfx") && word[3..].parse::<u8>().is_ok_and(|n| n <= 10)
}

/// Every token of `source` with a class other than [`Class::Plain`], in order.
pub fn tokens(source: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(source.len() / 4);
    let mut st = LineState::default();
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        line_tokens(line, at, &mut st, &mut out);
        at += line.len();
    }
    out
}

/// The tokens of one line starting at byte `base` of the source.
fn line_tokens(line: &str, base: usize, st: &mut LineState, out: &mut Vec<Token>) {
    let line_from = out.len();
    let body = line.trim_end_matches(['\n', '\r']);
    // Split the line into comment and code pieces (comments nest, across lines).
    let mut code: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    let mut comment_start = None;
    if st.comment > 0 {
        comment_start = Some(0);
    }
    // A level's `message` line is its text, parentheses and all (as the compiler reads it).
    let level_message = st.section == Section::Levels
        && st.comment == 0
        && body.trim_start().get(..7).is_some_and(|w| w.eq_ignore_ascii_case("message"));
    for (i, c) in body.char_indices() {
        if level_message {
            break;
        }
        // After a rule's `message` (outside comments) the rest is its text: a '(' there opens
        // no comment (the reference's tokenizer, and the compiler's).
        if st.comment == 0 && st.section == Section::Rules && rule_message_at(body, i) {
            break;
        }
        match c {
            '(' => {
                if st.comment == 0 {
                    if start < i {
                        code.push(start..i);
                    }
                    comment_start = Some(i);
                    st.opened = base + i;
                }
                st.comment += 1;
            }
            ')' if st.comment > 0 => {
                st.comment -= 1;
                if st.comment == 0 {
                    let from = comment_start.take().unwrap_or(0);
                    out.push(Token { range: base + from..base + i + 1, class: Class::Comment });
                    start = i + 1;
                }
            }
            _ => {}
        }
    }
    if st.comment > 0 {
        let from = comment_start.unwrap_or(0);
        if from < body.len() {
            out.push(Token { range: base + from..base + body.len(), class: Class::Comment });
        }
    } else if start < body.len() {
        code.push(start..body.len());
    }
    // The code's words.
    let mut words: Vec<Range<usize>> = Vec::new();
    for piece in &code {
        split_words(body, piece.clone(), st.section == Section::Rules, &mut words);
    }
    let text = |r: &Range<usize>| &body[r.clone()];
    let first = words.first().map(text);
    let push = |out: &mut Vec<Token>, r: &Range<usize>, class: Class| {
        if class != Class::Plain {
            out.push(Token { range: base + r.start..base + r.end, class });
        }
    };
    let Some(first) = first else {
        // A blank line (or only comments) ends an object's declaration.
        if st.section == Section::Objects && body.trim().is_empty() {
            st.object = ObjectPart::Name;
        }
        return;
    };
    if words.len() == 1 && first.chars().all(|c| c == '=') {
        push(out, &words[0], Class::Header);
        sort_tail(out, line_from);
        return;
    }
    if words.len() == 1
        && let Some(s) = Section::of_header(first)
    {
        st.section = s;
        st.object = ObjectPart::Name;
        push(out, &words[0], Class::Header);
        sort_tail(out, line_from);
        return;
    }
    match st.section {
        Section::Prelude => {
            push(out, &words[0], Class::Metadata);
            if let (Some(a), Some(b)) = (words.get(1), words.last()) {
                push(out, &(a.start..b.end), Class::MetaText);
            }
        }
        Section::Objects => {
            let sprite_row = words.len() == 1 && first.chars().all(|c| c.is_ascii_digit() || c == '.');
            if sprite_row && st.object != ObjectPart::Name {
                push(out, &words[0], Class::Sprite);
                st.object = ObjectPart::Sprite;
            } else if st.object == ObjectPart::Colours {
                for w in &words {
                    push(out, w, Class::Colour);
                }
                st.object = ObjectPart::Sprite;
            } else {
                // A name (and its glyph or other names).
                for w in &words {
                    push(out, w, Class::Name);
                }
                st.object = ObjectPart::Colours;
            }
        }
        Section::Legend => {
            for w in &words {
                let class = match text(w) {
                    "=" => Class::Equals,
                    s if s.eq_ignore_ascii_case("and") || s.eq_ignore_ascii_case("or") => Class::Logic,
                    _ => Class::Name,
                };
                push(out, w, class);
            }
        }
        Section::Sounds => {
            for w in &words {
                let s = text(w);
                let class = if s.chars().all(|c| c.is_ascii_digit()) {
                    Class::Sound
                } else if is_sfx(s) || SOUND_VERBS.iter().any(|v| v.eq_ignore_ascii_case(s)) {
                    Class::Command
                } else {
                    Class::Name
                };
                push(out, w, class);
            }
        }
        Section::CollisionLayers => {
            for w in &words {
                push(out, w, Class::Name);
            }
        }
        Section::Rules => {
            let mut message = None;
            for (k, w) in words.iter().enumerate() {
                let s = text(w);
                let class = match s {
                    "[" | "]" => Class::Bracket,
                    "|" => Class::Bar,
                    "->" => Class::Arrow,
                    _ if s.eq_ignore_ascii_case("message") => {
                        message = Some(k);
                        Class::Command
                    }
                    _ if is_sfx(s) || COMMANDS.iter().any(|c| c.eq_ignore_ascii_case(s)) => Class::Command,
                    _ if DIRECTIONS.iter().any(|d| d.eq_ignore_ascii_case(s)) => Class::Direction,
                    _ => Class::Name,
                };
                push(out, w, class);
                if message.is_some() {
                    break;
                }
            }
            if let Some(k) = message
                && let (Some(a), Some(b)) = (words.get(k + 1), words.last())
            {
                push(out, &(a.start..b.end), Class::Message);
            }
        }
        Section::WinConditions => {
            for w in &words {
                let s = text(w);
                let logic = ["some", "all", "no", "on", "any"].iter().any(|l| l.eq_ignore_ascii_case(s));
                push(out, w, if logic { Class::Logic } else { Class::Name });
            }
        }
        Section::Levels => {
            if first.eq_ignore_ascii_case("message") {
                push(out, &words[0], Class::Command);
                if let (Some(a), Some(b)) = (words.get(1), words.last()) {
                    push(out, &(a.start..b.end), Class::Message);
                }
            } else if let Some(b) = words.last() {
                push(out, &(words[0].start..b.end), Class::Level);
            }
        }
    }
    sort_tail(out, line_from);
}

/// Whether a rule's `message` command starts at byte `i` of `body`: the word `message` (any
/// case) with nothing of a word before or after it.
fn rule_message_at(body: &str, i: usize) -> bool {
    let sep = |c: u8| c.is_ascii_whitespace() || matches!(c, b'[' | b']' | b'|');
    let bytes = body.as_bytes();
    (i == 0 || sep(bytes[i - 1]))
        && body.get(i..i + 7).is_some_and(|w| w.eq_ignore_ascii_case("message"))
        && bytes.get(i + 7).is_none_or(|&c| sep(c))
}

/// Puts the tokens pushed for one line (from `from` on) in byte order, comments among code.
fn sort_tail(out: &mut [Token], from: usize) {
    out[from..].sort_unstable_by_key(|t| t.range.start);
}

/// The words of `body[range]`: runs of non-space characters; in rules `[`, `]` and `|` are
/// words of their own, and so is `->`.
fn split_words(body: &str, range: Range<usize>, rules: bool, out: &mut Vec<Range<usize>>) {
    let bytes = body.as_bytes();
    let mut i = range.start;
    while i < range.end {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if rules && matches!(c, b'[' | b']' | b'|') {
            out.push(i..i + 1);
            i += 1;
            continue;
        }
        if rules && c == b'-' && bytes.get(i + 1) == Some(&b'>') {
            out.push(i..i + 2);
            i += 2;
            continue;
        }
        let start = i;
        while i < range.end {
            let c = bytes[i];
            if c.is_ascii_whitespace()
                || (rules && matches!(c, b'[' | b']' | b'|'))
                || (rules && c == b'-' && bytes.get(i + 1) == Some(&b'>'))
            {
                break;
            }
            // Step over a whole character (names may hold any letter).
            i += body[i..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(start..i);
    }
}

/// Where a place in the source is: what may be typed there (for autocomplete).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Inside a comment.
    Comment,
    /// The prelude (`title`, `author`…).
    Prelude,
    /// An object's name line.
    ObjectName,
    /// An object's colours line.
    ObjectColours,
    /// A row of an object's sprite.
    Sprite,
    /// The legend.
    Legend,
    /// The sounds section.
    Sounds,
    /// The collision layers.
    CollisionLayers,
    /// The rules.
    Rules,
    /// The win conditions.
    WinConditions,
    /// The levels.
    Levels,
}

/// Where byte `at` of `source` is (a section, a part of an object's declaration, a comment).
pub fn place_at(source: &str, at: usize) -> Place {
    let mut st = LineState::default();
    let mut scratch = Vec::new();
    let mut base = 0;
    for line in source.split_inclusive('\n') {
        let end = base + line.len();
        if at < end || (at == end && !line.ends_with('\n')) {
            break;
        }
        scratch.clear();
        line_tokens(line, base, &mut st, &mut scratch);
        base += line.len();
    }
    // Comments opened before `at` on its line.
    let mut depth = st.comment;
    for c in source[base..at.max(base)].chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if depth > 0 {
        return Place::Comment;
    }
    let line = source[base..].split('\n').next().unwrap_or("");
    match st.section {
        Section::Prelude => Place::Prelude,
        Section::Objects => {
            let sprite_row =
                !line.trim().is_empty() && line.trim().chars().all(|c| c.is_ascii_digit() || c == '.');
            match st.object {
                ObjectPart::Colours => Place::ObjectColours,
                ObjectPart::Sprite if sprite_row => Place::Sprite,
                _ => Place::ObjectName,
            }
        }
        Section::Legend => Place::Legend,
        Section::Sounds => Place::Sounds,
        Section::CollisionLayers => Place::CollisionLayers,
        Section::Rules => Place::Rules,
        Section::WinConditions => Place::WinConditions,
        Section::Levels => Place::Levels,
    }
}

/// The names the game declares: its objects' (and their glyphs) and its legend's, in order,
/// each once (any case).
pub fn declared_names(source: &str) -> Vec<String> {
    let mut st = LineState::default();
    let mut tokens = Vec::new();
    let mut out: Vec<String> = Vec::new();
    let mut base = 0;
    for line in source.split_inclusive('\n') {
        let section = st.section;
        tokens.clear();
        line_tokens(line, base, &mut st, &mut tokens);
        if matches!(section, Section::Objects | Section::Legend) && st.section == section {
            for t in tokens.iter().filter(|t| t.class == Class::Name) {
                let name = &source[t.range.clone()];
                if !out.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                    out.push(name.to_string());
                }
            }
        }
        base += line.len();
    }
    out
}

/// The `(` of a comment never closed (comments nest): its line and column (characters), from 1 (the
/// outermost one still open at the end of the source).
pub fn unclosed_comment(source: &str) -> Option<(usize, usize)> {
    // Read as the tokens are (a message's text opens no comment).
    let mut st = LineState::default();
    let mut scratch = Vec::new();
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        scratch.clear();
        line_tokens(line, at, &mut st, &mut scratch);
        at += line.len();
    }
    if st.comment == 0 {
        return None;
    }
    let b = st.opened.min(source.len());
    let line_start = source[..b].rfind('\n').map_or(0, |i| i + 1);
    Some((source[..b].matches('\n').count() + 1, source[line_start..b].chars().count() + 1))
}

/// The colour a class is painted in (dark theme), or `None` for the text colour.
pub fn colour(class: Class) -> Option<Color32> {
    Some(match class {
        Class::Plain => return None,
        Class::Header => Color32::from_rgb(0xff, 0x7a, 0x59),
        Class::Comment => Color32::from_rgb(0x6b, 0x8c, 0xb0),
        Class::Name => Color32::from_rgb(0xe8, 0xe8, 0xe8),
        Class::Colour => Color32::from_rgb(0xc8, 0xa0, 0xf0),
        Class::Sprite => Color32::from_rgb(0xa8, 0xd0, 0x8c),
        Class::Equals | Class::Logic => Color32::from_rgb(0xf0, 0xc8, 0x50),
        Class::Bracket | Class::Bar => Color32::from_rgb(0xa0, 0xa0, 0xa0),
        Class::Arrow => Color32::from_rgb(0xff, 0xd7, 0x40),
        Class::Direction => Color32::from_rgb(0xff, 0x9e, 0x3d),
        Class::Command => Color32::from_rgb(0x5c, 0xd0, 0xd0),
        Class::Message => Color32::from_rgb(0x9a, 0xe0, 0x9a),
        Class::Level => Color32::from_rgb(0xd0, 0xd0, 0x90),
        Class::Sound => Color32::from_rgb(0xff, 0x80, 0xc0),
        Class::Metadata => Color32::from_rgb(0x7e, 0xc8, 0xff),
        Class::MetaText => Color32::from_rgb(0xc0, 0xc0, 0xc0),
    })
}

/// The colour named by a colour token of an object (`red`, `#f80`, `#ff8800`), for painting
/// the token in its own colour as the reference does; `None` for a name it does not know.
pub fn named_colour(word: &str) -> Option<Color32> {
    if let Some(hex) = word.strip_prefix('#') {
        let v = u32::from_str_radix(hex, 16).ok()?;
        return match hex.len() {
            3 => {
                let (r, g, b) = ((v >> 8) & 0xf, (v >> 4) & 0xf, v & 0xf);
                Some(Color32::from_rgb((r * 17) as u8, (g * 17) as u8, (b * 17) as u8))
            }
            6 => Some(Color32::from_rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)),
            _ => None,
        };
    }
    // The arne palette, PuzzleScript's default.
    let rgb = match word.to_ascii_lowercase().as_str() {
        "black" => 0x000000,
        "white" => 0xffffff,
        "grey" | "gray" => 0x9d9d9d,
        "darkgrey" | "darkgray" => 0x697175,
        "lightgrey" | "lightgray" => 0xcccccc,
        "red" => 0xbe2633,
        "darkred" => 0x732930,
        "lightred" => 0xe06f8b,
        "brown" => 0xa46422,
        "darkbrown" => 0x493c2b,
        "lightbrown" => 0xeeb62f,
        "orange" => 0xeb8931,
        "yellow" => 0xf7e26b,
        "green" => 0x44891a,
        "darkgreen" => 0x2f484e,
        "lightgreen" => 0xa3ce27,
        "blue" => 0x1d57f7,
        "lightblue" => 0xb2dcef,
        "darkblue" => 0x1b2632,
        "purple" => 0x342a97,
        "pink" => 0xde65e2,
        _ => return None,
    };
    Some(Color32::from_rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(source: &str) -> Vec<(&str, Class)> {
        tokens(source).into_iter().map(|t| (&source[t.range], t.class)).collect()
    }

    #[test]
    fn each_section_gives_its_classes() {
        let source = "title Pull\n(a (nested) comment)\nOBJECTS\n=======\nPlayer\nred #f80\n.0.\n00.\n\nLEGEND\nP = Player and Crate\n\
                      SOUNDS\nsfx0 1234\nRULES\nlate [ > Player | Crate ] -> [ > Player | > Crate ] again message hi there\n\
                      WINCONDITIONS\nall Crate on Target\nLEVELS\nmessage go\n#P.#\n";
        let c = classes(source);
        let has = |w: &str, k: Class| c.iter().any(|&(s, cl)| s == w && cl == k);
        assert!(has("title", Class::Metadata) && has("Pull", Class::MetaText));
        assert!(has("(a (nested) comment)", Class::Comment), "{c:?}");
        assert!(
            has("OBJECTS", Class::Header) && has("=======", Class::Header) && has("RULES", Class::Header)
        );
        assert!(has("Player", Class::Name) && has("red", Class::Colour) && has("#f80", Class::Colour));
        assert!(has(".0.", Class::Sprite) && has("00.", Class::Sprite));
        assert!(has("=", Class::Equals) && has("and", Class::Logic));
        assert!(has("sfx0", Class::Command) && has("1234", Class::Sound));
        assert!(has("late", Class::Direction) && has(">", Class::Direction) && has("[", Class::Bracket));
        assert!(has("|", Class::Bar) && has("->", Class::Arrow) && has("again", Class::Command));
        assert!(has("message", Class::Command) && has("hi there", Class::Message));
        assert!(has("all", Class::Logic) && has("on", Class::Logic));
        assert!(has("go", Class::Message) && has("#P.#", Class::Level));
    }

    #[test]
    fn comments_nest_across_lines_and_tokens_stay_in_order() {
        let source = "RULES\n[ a ] (one (two\nstill) still\nout) -> [ b ]\n";
        let t = tokens(source);
        for w in t.windows(2) {
            assert!(w[0].range.end <= w[1].range.start, "{t:?}");
        }
        let c = classes(source);
        assert!(c.contains(&("still) still", Class::Comment)), "{c:?}");
        assert!(c.contains(&("->", Class::Arrow)), "{c:?}");
        assert!(c.contains(&("a", Class::Name)) && c.contains(&("b", Class::Name)));
    }

    #[test]
    fn named_colours_read_hex_and_the_palette() {
        assert_eq!(named_colour("#ff8000"), Some(Color32::from_rgb(255, 128, 0)));
        assert_eq!(named_colour("#f80"), Some(Color32::from_rgb(255, 136, 0)));
        assert_eq!(named_colour("red"), Some(Color32::from_rgb(0xbe, 0x26, 0x33)));
        assert_eq!(named_colour("nocolour"), None);
    }
}
