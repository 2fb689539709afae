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

/// Issue 66.1: a PuzzleScript game is bounded level by level, by the area (65,536 cells), not
/// its sides: a row of 340 cells, 300 rows, and 10,230 rows of one cell (past the 1,024 a side
/// of every other board) start and play; a level of 300×300 alone is refused when started,
/// naming its line, and the game's other levels still play.
#[test]
fn a_puzzlescript_level_is_bounded_by_its_area_alone() {
    use tessera_core::puzzlescript::{PuzzleScriptCommand, PuzzleScriptLevel};
    use tessera_core::{AnyCommand, Rules};
    let source = tessera_core::puzzlescript::STARTER_GAME;
    let cut = source.find("#######\n#.....#").expect("the starter's level");
    let row = |w: usize| format!("P{}\n", ".".repeat(w - 1));
    let wide = format!("#P*O{}\n", ".".repeat(336)); // 340 cells
    let tall = row(3).repeat(300); // 3×300
    let thin = format!("P\n{}", ".\n".repeat(10_229)); // 1×10,230
    let square = row(300).repeat(300); // 90,000 cells
    let text = format!("{}{wide}\n{tall}\n{thin}\n{square}\nP.\n", &source[..cut]);
    let square_line = text.lines().position(|l| l.len() == 300).unwrap() + 1;
    let source: std::sync::Arc<str> = text.into();
    let start = |level: usize| {
        Level::PuzzleScript(PuzzleScriptLevel { name: None, seed: None, source: source.clone(), level })
            .start(Some(1))
    };
    use PuzzleScriptCommand::{Down, Right};
    for (level, size, cmd) in
        [(0, "340x1", Right), (1, "3x300", Right), (2, "1x10230", Down), (4, "2x1", Right)]
    {
        let mut game = start(level).unwrap_or_else(|e| panic!("level {level}: {e}"));
        let tessera_core::AnyState::PuzzleScript(state) = &game.state else { panic!("level {level}") };
        assert_eq!(format!("{}x{}", state.engine().width, state.engine().height), size, "level {level}");
        let mut events = Vec::new();
        let cmd = AnyCommand::PuzzleScript(cmd);
        game.rules
            .apply(&mut game.state, &cmd, &mut events)
            .unwrap_or_else(|e| panic!("level {level}: {e:?}"));
    }
    let e = start(3).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains(&format!("line {square_line}")) && e.contains("300x300"), "{e}");
}
