//! Autocomplete for a PuzzleScript source, as PuzzleScript's editor offers it (its
//! `autocomplete.html`): the word being typed completed from what fits where the cursor is —
//! the game's object and legend names, colour names in an object's colours, directions and
//! commands in rules, sound events and verbs in sounds, `all`/`no`/`some`/`on` in win
//! conditions, prelude keys, section names at a line's start — and PuzzleScript's own
//! suggestions: an object named with a direction's suffix (`Enemy_up`) offers the other
//! directions' objects, their sprites turned to face their way, and in the legend the property
//! of them all (`Enemy = Enemy_up or Enemy_down or …`).
//!
//! Pure code: the source editor ([`crate::source_editor`]) shows the list and puts the chosen
//! one in.

use crate::syntax::{self, Place};
use tessera_core::puzzlescript::engine::art;

/// What a suggestion is, in the order the list shows kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Objects of the other directions, or the legend's property of them all.
    Variants,
    /// A name the game declares.
    Name,
    /// A word of the language where the cursor is.
    Keyword,
    /// A colour name.
    Colour,
    /// A section's header.
    Section,
}

/// One suggestion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// What the list shows.
    pub label: String,
    /// What replaces the word typed.
    pub insert: String,
    /// Its kind.
    pub kind: Kind,
}

/// The most suggestions shown.
pub const MAX: usize = 12;

const SECTIONS: &[&str] =
    &["OBJECTS", "LEGEND", "SOUNDS", "COLLISIONLAYERS", "RULES", "WINCONDITIONS", "LEVELS"];

const PRELUDE: &[&str] = &[
    "title",
    "author",
    "homepage",
    "again_interval",
    "background_color",
    "color_palette",
    "debug",
    "flickscreen",
    "key_repeat_interval",
    "noaction",
    "norepeat_action",
    "norestart",
    "noundo",
    "realtime_interval",
    "require_player_movement",
    "run_rules_on_level_start",
    "scanline",
    "text_color",
    "throttle_movement",
    "verbose_logging",
    "youtube",
    "zoomscreen",
];

const RULE_WORDS: &[&str] = &[
    "up",
    "down",
    "left",
    "right",
    "horizontal",
    "vertical",
    "orthogonal",
    "late",
    "rigid",
    "moving",
    "stationary",
    "parallel",
    "perpendicular",
    "no",
    "randomdir",
    "random",
    "action",
    "startloop",
    "endloop",
    "again",
    "cancel",
    "checkpoint",
    "restart",
    "win",
    "message",
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

const SOUND_WORDS: &[&str] = &[
    "move",
    "action",
    "create",
    "destroy",
    "cantmove",
    "up",
    "down",
    "left",
    "right",
    "horizontal",
    "vertical",
    "orthogonal",
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

const WIN_WORDS: &[&str] = &["all", "any", "no", "some", "on"];
const LEGEND_WORDS: &[&str] = &["and", "or"];

/// The suffixes of PuzzleScript's table, four directions (up, down, left, right) or two
/// (horizontal, vertical), and the quarter turns clockwise from the first each faces.
const FAMILIES: &[&[&str]] = &[
    &["_up", "_down", "_left", "_right"],
    &["_u", "_d", "_l", "_r"],
    &["_U", "_D", "_L", "_R"],
    &["Up", "Down", "Left", "Right"],
    &["UP", "DOWN", "LEFT", "RIGHT"],
    &["North", "South", "West", "East"],
    &["NORTH", "SOUTH", "WEST", "EAST"],
    &["_n", "_s", "_w", "_e"],
    &["_N", "_S", "_W", "_E"],
    &["Horizontal", "Vertical"],
    &["HORIZONTAL", "VERTICAL"],
    &["_horizontal", "_vertical"],
    &["_h", "_v"],
    &["_H", "_V"],
];

/// Quarter turns clockwise from up of member `k` of a family of `n`.
fn turns(k: usize, n: usize) -> usize {
    if n == 2 { k } else { [0, 2, 3, 1][k] }
}

/// Whether `c` is part of a name.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the word ending at byte `at` of `text` starts.
pub fn word_start(text: &str, at: usize) -> usize {
    text[..at].char_indices().rev().take_while(|&(_, c)| is_word_char(c)).last().map_or(at, |(i, _)| i)
}

/// An object's declaration in the objects section: its colours line and its sprite's rows.
struct Object {
    colours: String,
    sprite: Vec<String>,
}

/// The declaration of object `name` (any case) in `text`, found by its name line.
fn object(text: &str, name: &str) -> Option<Object> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let first = l.split_whitespace().next();
        if first.is_some_and(|w| w.eq_ignore_ascii_case(name))
            && syntax::place_at(text, lines[..i].iter().map(|l| l.len() + 1).sum()) == Place::ObjectName
        {
            let colours = lines.get(i + 1)?.trim().to_string();
            let sprite = lines[i + 2..]
                .iter()
                .map(|l| l.trim())
                .take_while(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_digit() || c == '.'))
                .map(str::to_string)
                .collect();
            return Some(Object { colours, sprite });
        }
    }
    None
}

/// `rows` turned `quarters` quarter turns clockwise (a square sprite; others as they are).
fn turned(rows: &[String], quarters: usize) -> Vec<String> {
    let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let n = grid.len();
    if n == 0 || grid.iter().any(|r| r.len() != n) {
        return rows.to_vec();
    }
    let mut g = grid;
    for _ in 0..quarters % 4 {
        g = (0..n).map(|r| (0..n).map(|c| g[n - 1 - c][r]).collect()).collect();
    }
    g.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// The declared names that end in a suffix of a family: (base, family, member, name).
fn with_suffixes(names: &[String]) -> Vec<(String, usize, usize, String)> {
    let mut out = Vec::new();
    for n in names {
        for (f, fam) in FAMILIES.iter().enumerate() {
            for (k, s) in fam.iter().enumerate() {
                if let Some(base) = n.strip_suffix(s)
                    && !base.is_empty()
                {
                    out.push((base.to_string(), f, k, n.clone()));
                }
            }
        }
    }
    out
}

/// PuzzleScript's suggestions from suffixes, for the word `typed` at `place`.
fn variants(text: &str, names: &[String], typed: &str, place: Place) -> Vec<Suggestion> {
    let declared = |n: &str| names.iter().any(|m| m.eq_ignore_ascii_case(n));
    let starts = |base: &str| base.to_lowercase().starts_with(&typed.to_lowercase());
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for (base, f, k, name) in with_suffixes(names) {
        if !starts(&base) || seen.contains(&(base.clone(), f)) {
            continue;
        }
        seen.push((base.clone(), f));
        let fam = FAMILIES[f];
        let all: Vec<String> = fam.iter().map(|s| format!("{base}{s}")).collect();
        match place {
            Place::ObjectName => {
                let missing: Vec<(usize, &String)> =
                    all.iter().enumerate().filter(|(_, n)| !declared(n)).collect();
                let Some(obj) = object(text, &name) else { continue };
                if missing.is_empty() {
                    continue;
                }
                let blocks: Vec<String> = missing
                    .iter()
                    .map(|&(m, n)| {
                        let q = (4 + turns(m, fam.len()) - turns(k, fam.len())) % 4;
                        let rows = turned(&obj.sprite, q);
                        let mut b = format!("{n}\n{}", obj.colours);
                        for r in rows {
                            b.push('\n');
                            b.push_str(&r);
                        }
                        b
                    })
                    .collect();
                let names: Vec<&str> = missing.iter().map(|(_, n)| n.as_str()).collect();
                out.push(Suggestion {
                    label: format!("{} (from {name}, turned)", names.join(", ")),
                    insert: blocks.join("\n\n"),
                    kind: Kind::Variants,
                });
            }
            Place::Legend if all.iter().filter(|n| declared(n)).count() >= 2 && !declared(&base) => {
                let members: Vec<&String> = all.iter().filter(|n| declared(n)).collect();
                let joined = members.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" or ");
                out.push(Suggestion {
                    label: format!("{base} = {joined}"),
                    insert: format!("{base} = {joined}"),
                    kind: Kind::Variants,
                });
            }
            _ => {}
        }
    }
    out
}

/// The suggestions for the word ending at byte `at` of `text`, and where that word starts
/// (a byte). `forced`: asked for (Ctrl+Space), so an empty word lists everything that fits.
pub fn suggest(text: &str, at: usize, forced: bool) -> (usize, Vec<Suggestion>) {
    let start = word_start(text, at);
    let typed = &text[start..at];
    if typed.is_empty() && !forced {
        return (start, Vec::new());
    }
    let place = syntax::place_at(text, start);
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let first_word = text[line_start..start].trim().is_empty();
    // The game's names, the word being typed left out (it is not declared yet).
    let names = syntax::declared_names(&format!("{}{}", &text[..start], &text[at..]));
    let mut out = Vec::new();
    let add = |words: &mut dyn Iterator<Item = String>, kind: Kind, out: &mut Vec<Suggestion>| {
        for w in words {
            out.push(Suggestion { label: w.clone(), insert: w, kind });
        }
    };
    let owned = |ws: &'static [&'static str]| ws.iter().map(|w| w.to_string());
    let game_names = || names.iter().filter(|n| n.chars().count() > 1).cloned();
    match place {
        Place::Comment | Place::Levels | Place::Sprite => {}
        Place::Prelude => add(&mut owned(PRELUDE), Kind::Keyword, &mut out),
        Place::ObjectName => out.extend(variants(text, &names, typed, place)),
        Place::ObjectColours => add(&mut art::colour_names().map(str::to_string), Kind::Colour, &mut out),
        Place::Legend => {
            out.extend(variants(text, &names, typed, place));
            if !first_word {
                add(&mut game_names(), Kind::Name, &mut out);
                add(&mut owned(LEGEND_WORDS), Kind::Keyword, &mut out);
            }
        }
        Place::Sounds => {
            add(&mut game_names(), Kind::Name, &mut out);
            add(&mut owned(SOUND_WORDS), Kind::Keyword, &mut out);
        }
        Place::CollisionLayers => add(&mut game_names(), Kind::Name, &mut out),
        Place::Rules => {
            add(&mut game_names(), Kind::Name, &mut out);
            add(&mut owned(RULE_WORDS), Kind::Keyword, &mut out);
        }
        Place::WinConditions => {
            add(&mut game_names(), Kind::Name, &mut out);
            add(&mut owned(WIN_WORDS), Kind::Keyword, &mut out);
        }
    }
    if first_word && !matches!(place, Place::Comment | Place::Levels | Place::Sprite) {
        add(&mut owned(SECTIONS), Kind::Section, &mut out);
    }
    let low = typed.to_lowercase();
    out.retain(|s| {
        s.kind == Kind::Variants
            || (s.insert.to_lowercase().starts_with(&low) && s.insert.to_lowercase() != low)
    });
    // Kinds in order, then shorter first, then as written; no word twice.
    out.sort_by(|a, b| (a.kind, a.insert.len(), &a.insert).cmp(&(b.kind, b.insert.len(), &b.insert)));
    out.dedup_by(|a, b| a.insert.eq_ignore_ascii_case(&b.insert));
    out.truncate(MAX);
    (start, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "title T\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nPlayer\nwhite\n\nCrate\nbrown\n\nEnemy_up\nred\n.0...\n.0...\n.0...\n.0...\n.0...\n\n\n=======\nLEGEND\n=======\n\n. = Background\nP = Player\n\nRULES\n\n[ > Player | \n";

    fn inserts(text: &str, at: usize, forced: bool) -> Vec<String> {
        suggest(text, at, forced).1.into_iter().map(|s| s.insert).collect()
    }

    #[test]
    fn names_and_rule_words_in_rules() {
        let t = format!("{GAME}Cr");
        assert_eq!(inserts(&t, t.len(), false), vec!["Crate"]);
        let t = format!("{GAME}ri");
        assert_eq!(inserts(&t, t.len(), false), vec!["right", "rigid"]);
        let t = format!("{}RU", GAME.trim_end_matches('\n'));
        assert!(inserts(&t, t.len(), false).is_empty(), "not at a line's start: no section");
        let t = format!("{GAME}\nWIN");
        assert_eq!(inserts(&t, t.len(), false), vec!["WINCONDITIONS"]);
        // Nothing typed: nothing unless asked for.
        assert!(inserts(GAME, GAME.len(), false).is_empty());
        assert!(inserts(GAME, GAME.len(), true).contains(&"Player".to_string()));
    }

    #[test]
    fn colours_in_an_objects_colours_line() {
        let t = GAME.replace("Crate\nbrown", "Crate\ndarkb");
        let at = t.find("darkb").unwrap() + 5;
        assert_eq!(inserts(&t, at, false), vec!["darkblue", "darkbrown"]);
        // Every name the engine reads, transparent too (the list is the engine's own).
        let t = GAME.replace("Crate\nbrown", "Crate\ntransp");
        let at = t.find("transp").unwrap() + 6;
        assert_eq!(inserts(&t, at, false), vec!["transparent"]);
    }

    #[test]
    fn an_object_with_a_direction_offers_the_others_turned() {
        let t = GAME.replace("\n\n\n=======\nLEGEND", "\n\nEn\n\n=======\nLEGEND");
        let at = t.find("\nEn\n").unwrap() + 3;
        let (start, s) = suggest(&t, at, false);
        assert_eq!(&t[start..at], "En");
        let v = s.iter().find(|s| s.kind == Kind::Variants).expect("the variants");
        assert_eq!(v.label, "Enemy_down, Enemy_left, Enemy_right (from Enemy_up, turned)");
        // Down: a half turn; left: three quarters clockwise; right: one.
        let expected = "Enemy_down\nred\n...0.\n...0.\n...0.\n...0.\n...0.\n\n\
                        Enemy_left\nred\n.....\n.....\n.....\n00000\n.....\n\n\
                        Enemy_right\nred\n.....\n00000\n.....\n.....\n.....";
        assert_eq!(v.insert, expected);
        // And in the legend, once two exist: the property of them all.
        let t = GAME
            .replace("P = Player\n", "P = Player\nEn\n")
            .replace("Enemy_up\nred", "Enemy_down\nred\n.0...\n\nEnemy_up\nred");
        let at = t.find("\nEn\n").unwrap() + 3;
        let legend = suggest(&t, at, false).1;
        assert_eq!(legend[0].insert, "Enemy = Enemy_up or Enemy_down", "{legend:?}");
    }

    #[test]
    fn nothing_in_comments_and_levels() {
        let t = format!("{GAME}( Cr");
        assert!(inserts(&t, t.len(), true).is_empty());
    }
}
