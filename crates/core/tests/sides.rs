//! Each rule set states its largest side, and its levels are held to it.

use tessera_core::{Level, RuleSet};

/// A level of `r` whose board is `w` cells wide and 3 high.
fn level_of_width(r: RuleSet, w: usize) -> String {
    match r {
        RuleSet::Tactics => format!(r#"{{"rule_set": "tactics", "map": ["{}"]}}"#, ".".repeat(w)),
        RuleSet::Sokoban => {
            let wall = format!("\"{}\"", "#".repeat(w));
            let middle = format!("\"#@$.{}\"", "#".repeat(w - 4));
            format!(r#"{{"rule_set": "sokoban", "board": [{wall}, {middle}, {wall}]}}"#)
        }
        RuleSet::PuzzleScript => {
            // The starter game with its level replaced by a w×3 room.
            let source = tessera_core::puzzlescript::STARTER_GAME;
            let cut = source.find("#######\n#.....#").expect("the starter's level");
            let room = format!("{}\n#P*O{}\n{}\n", "#".repeat(w), "#".repeat(w - 4), "#".repeat(w));
            let source = format!("{}{room}", &source[..cut]);
            serde_json::json!({ "rule_set": "puzzlescript", "source": source }).to_string()
        }
        _ => format!(r#"{{"rule_set": "{}", "width": {w}, "height": 3}}"#, r.name()),
    }
}

#[test]
fn each_rule_set_states_its_largest_side() {
    assert_eq!(RuleSet::Slide.max_side(), 256);
    assert_eq!(RuleSet::Collapse.max_side(), 256);
    assert_eq!(RuleSet::Match3.max_side(), 256);
    assert_eq!(RuleSet::Tactics.max_side(), 1024);
    assert_eq!(RuleSet::Sokoban.max_side(), 256);
    assert_eq!(RuleSet::PuzzleScript.max_side(), 256);
    for &r in RuleSet::ALL {
        let side = r.max_side();
        assert!(Level::from_json(&level_of_width(r, side)).is_ok(), "{r:?} at {side}");
        if r == RuleSet::PuzzleScript {
            // A PuzzleScript level is bounded by its area, not its side (issue 66.1: real games
            // have rows of 340 cells): a row one past the side still plays. The area's bound
            // is checked in the CLI's `limits` tests.
            assert!(Level::from_json(&level_of_width(r, side + 1)).is_ok(), "{r:?} at {}", side + 1);
            continue;
        }
        let e = Level::from_json(&level_of_width(r, side + 1)).unwrap_err();
        assert!(e.to_string().contains(&format!("{}", side + 1)), "{r:?}: {e}");
    }
}
