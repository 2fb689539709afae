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
    // The count matches what the queue makes: 5^2 x 2! = 50 for two cells, 5 x 2 = 10 for one
    // cell of two ambiguous movements.
    let two = with_rules("[ moving Player | moving Crate ] -> [ moving Player | moving Crate ]");
    assert!(compile(&two).is_ok());
    // below the bound, the same shapes compile: 5^2 x 2! = 50 rules, 3^3 = 27
    let cells = ["moving Player"; 2].join(" | ");
    let game = compile(&with_rules(&format!("[ {cells} ] -> [ {cells} ]"))).expect("compiles");
    assert!(game.rules.iter().flatten().count() > 1);
}
