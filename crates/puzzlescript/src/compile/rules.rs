//! Rule lines into raw rules: tokens, directions (relative, absolute, aggregates), the
//! rule's cells on each side, its commands.

use super::*;

pub(super) const RELATIVE_DIRECTIONS: [&str; 6] = ["^", "v", "<", ">", "perpendicular", "parallel"];
pub(super) const SIMPLE_ABSOLUTE: [&str; 4] = ["up", "down", "left", "right"];
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

pub(super) fn direction_aggregate(name: &str) -> Option<&'static [&'static str]> {
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

pub(super) fn is_direction_token(t: &str) -> bool {
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

pub(super) fn tokenize_rule_line(line: &str) -> Vec<String> {
    let l = line.replace('[', " [ ").replace(']', " ] ").replace('|', " | ").replace("->", " -> ");
    let mut l = l.trim().to_string();
    if l.starts_with('+') {
        l = format!("+ {}", &l[1..]);
    }
    l.split_whitespace().map(String::from).collect()
}

/// `findIndexAfterToken` on the original line: where the message text starts (a byte index
/// into `orig`).
pub(super) fn index_after_token(orig: &str, tokens: &[String], token_index: usize) -> usize {
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

pub(super) fn rule_is_directional(lhs: &[Vec<Cell>], rhs: &[Vec<Cell>]) -> bool {
    let has_rel = |row: &Vec<Cell>| {
        row.iter().any(|c| c.iter().any(|(d, _)| RELATIVE_DIRECTIONS.contains(&d.as_str())))
    };
    lhs.iter().any(|r| r.len() > 1 || has_rel(r)) || rhs.iter().any(has_rel)
}

pub(super) fn process_rule_string(
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
                            ctx.warning_word(line, token, format!("I notice that you have NO {} more than once in a single cell. That's redundant innit.", token.to_uppercase()));
                        } else {
                            ctx.error_word(line, token, format!("You cannot specify the same object more than once in a single cell (in this case {} occurs multiple times).", token.to_uppercase()));
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
                    ctx.warning_word(line, token, format!("Sound effect \"{token}\" not defined."));
                }
                commands.push((token.to_string(), None));
            }
        } else {
            ctx.error_word(line, token, format!("Error, malformed cell rule - was looking for cell contents, but found \"{token}\".  What am I supposed to do with this, eh, please tell me that."));
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

pub(super) fn absolutify(forward: &str, dir: &str) -> Option<&'static str> {
    let idx = ["^", "v", "<", ">", "parallel", "perpendicular"].iter().position(|d| *d == dir)?;
    let table: [&str; 6] = match forward {
        "right" => ["up", "down", "left", "right", "horizontal_par", "vertical_perp"],
        "up" => ["left", "right", "down", "up", "vertical_par", "horizontal_perp"],
        "down" => ["right", "left", "up", "down", "vertical_par", "horizontal_perp"],
        _ => ["down", "up", "right", "left", "horizontal_par", "vertical_perp"],
    };
    Some(table[idx])
}

pub(super) fn contains_ellipsis(rule: &RawRule) -> bool {
    rule.lhs.iter().any(|row| row.iter().any(|c| c.first().is_some_and(|p| p.1 == "...")))
}

pub(super) fn cells_mut(rule: &mut RawRule) -> impl Iterator<Item = &mut Cell> {
    rule.lhs.iter_mut().chain(rule.rhs.iter_mut()).flat_map(|r| r.iter_mut())
}
