//! The compiler's tests.

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
        diags
            .iter()
            .any(|d| d.is_error
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
    // Issue 66.7: 200 such rules are refused at the first, its line named, the others not
    // expanded (each was expanded up to the bound before it was refused: 65 s for 200).
    let cells = ["moving Player"; 8].join(" | ");
    let rule = format!("[ {cells} ] -> [ {cells} ]\n");
    let source = with_rules(&rule.repeat(200));
    let diags = compile(&source).expect_err("refused");
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let first = source.lines().position(|l| l.starts_with("[ moving")).unwrap() + 1;
    assert_eq!(errors[0].line, first, "{errors:?}");
    // Issue 66.7, through properties: a rule past the limit is counted, not expanded up to it
    // (the queue made 100,000 copies of each before it refused it), and 1,000 of them stop at
    // the first.
    let cells = ["Thing"; 40].join(" | ");
    let rule = format!("[ {cells} ] -> [ {cells} ]\n");
    let source = with_rules(&rule.repeat(1_000))
        .replace("Obstacle = Wall or Crate", "Obstacle = Wall or Crate\nThing = Wall or Player or Gem")
        .replace("Crate\norange\n", "Crate\norange\nGem\nyellow\n")
        .replace("Player, Wall, Crate", "Player\nWall, Crate\nGem");
    super::expand::PROPERTY_RULES_MADE.with(|n| n.set(0));
    let diags = compile(&source).expect_err("refused");
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("expands to more than 100000 rules (properties)"), "{errors:?}");
    let first = source.lines().position(|l| l.starts_with("[ Thing")).unwrap() + 1;
    assert_eq!(errors[0].line, first, "{errors:?}");
    assert_eq!(super::expand::PROPERTY_RULES_MADE.with(|n| n.get()), 0, "no rule made before the refusal");
    // Below the limit the count and the queue agree: 3^4 = 81 rules a direction.
    let cells = ["Thing"; 4].join(" | ");
    let source = with_rules(&format!("[ {cells} ] -> [ {cells} ]"))
        .replace("Obstacle = Wall or Crate", "Obstacle = Wall or Crate\nThing = Wall or Player or Gem")
        .replace("Crate\norange\n", "Crate\norange\nGem\nyellow\n")
        .replace("Player, Wall, Crate", "Player\nWall, Crate\nGem");
    super::expand::PROPERTY_RULES_MADE.with(|n| n.set(0));
    let game = compile(&source).expect("compiles");
    assert!(super::expand::PROPERTY_RULES_MADE.with(|n| n.get()) > 0);
    assert!(game.rules.iter().flatten().count() > 1);
    // The count matches what the queue makes: 5^2 x 2! = 50 for two cells, 5 x 2 = 10 for one
    // cell of two ambiguous movements.
    let two = with_rules("[ moving Player | moving Crate ] -> [ moving Player | moving Crate ]");
    assert!(compile(&two).is_ok());
    // below the bound, the same shapes compile: 5^2 x 2! = 50 rules, 3^3 = 27
    let cells = ["moving Player"; 2].join(" | ");
    let game = compile(&with_rules(&format!("[ {cells} ] -> [ {cells} ]"))).expect("compiles");
    assert!(game.rules.iter().flatten().count() > 1);
}

/// Issue 63.10: a message about a word of its line says where the word is (its column and
/// width in characters), so an editor underlines the word rather than the line: a rule's
/// unknown name, exactly where it stands (not the same letters inside another name), a legend
/// entry's undeclared name, a win condition's, a map's unknown key, a cell naming an object
/// twice; a message about the whole line has no width.
#[test]
fn messages_about_a_word_carry_its_column_and_width() {
    let spans = |source: &str| -> Vec<(usize, String, String)> {
        let Err(diags) = compile(source) else { panic!("does not compile") };
        diags
            .iter()
            .filter(|d| d.width > 0)
            .map(|d| {
                let line = source.split('\n').nth(d.line - 1).expect("its line");
                let word: String = line.chars().skip(d.column - 1).take(d.width).collect();
                (d.line, word, d.message.clone())
            })
            .collect()
    };
    let line_of =
        |source: &str, text: &str| source.split('\n').position(|l| l.contains(text)).expect("the line") + 1;
    // A rule's unknown name: "Crates" is no object; "Crate" before it is.
    let rule = "[ > Player | Crate | Crates ] -> [ > Player | > Crate | Crate ]";
    let source = with_rules(rule);
    let found = spans(&source);
    let at = line_of(&source, rule);
    assert!(found.iter().any(|(l, w, m)| *l == at && w == "Crates" && m.contains("crates")), "{found:?}");
    // The legend: an undeclared name (said upper-cased, without quotes).
    let source = GAME.replacen("* = Crate\n", "* = Crate\nQ = Crate and Gem\n", 1);
    let found = spans(&source);
    let at = line_of(&source, "Q = Crate and Gem");
    assert!(found.iter().any(|(l, w, _)| *l == at && w == "Gem"), "{found:?}");
    // A win condition naming nothing.
    let source = GAME.replacen(
        "WINCONDITIONS\n==============\n",
        "WINCONDITIONS\n==============\nAll Crate on Targte\n",
        1,
    );
    assert_ne!(source, GAME);
    let found = spans(&source);
    let at = line_of(&source, "Targte");
    assert!(found.iter().any(|(l, w, _)| *l == at && w == "Targte"), "{found:?}");
    // A cell naming an object twice (said upper-cased, without quotes).
    let rule = "[ Crate Crate ] -> [ Crate ]";
    let source = with_rules(rule);
    let found = spans(&source);
    let at = line_of(&source, rule);
    assert!(found.iter().any(|(l, w, _)| *l == at && w.eq_ignore_ascii_case("crate")), "{found:?}");
    // A message about the line names no word.
    let Err(diags) = compile(&with_rules("[ Player ] [ Crate ]")) else { panic!("no arrow: an error") };
    assert!(diags.iter().any(|d| d.is_error && d.width == 0), "{diags:?}");
}
