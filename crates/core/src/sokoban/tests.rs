//! Tests of the sokoban rule set: one small test per rule, then properties, the importer and
//! the solver.

use super::generate::{pulled_rows, random_rows};
use super::*;
use crate::geom::{Dir, Pos};
use crate::id::Id;
use crate::rules::{Rules, Status};
use crate::{AnyCommand, AnyState, Level};
use proptest::prelude::*;
use std::collections::{HashSet, VecDeque};

fn state(rows: &[&str]) -> SokobanState {
    let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
    match parse_board(&rows, 0) {
        Ok(s) => s,
        Err(e) => panic!("test board refused: {e}"),
    }
}

fn cmd(text: &str) -> SokobanCommand {
    text.parse().unwrap()
}

/// Applies `text`, checking the hash, and returns the events.
fn apply(s: &mut SokobanState, text: &str) -> Result<Vec<SokobanEvent>, crate::Rejected> {
    let mut events = Vec::new();
    let r = SokobanRules.apply(s, &cmd(text), &mut events);
    assert_eq!(s.hash(), s.recompute_hash(), "after {text}");
    r.map(|_| events)
}

const SMALL: [&str; 5] = ["#######", "#@ $ .#", "# #   #", "#     #", "#######"];

#[test]
fn a_step_onto_floor_moves_the_player() {
    let mut s = state(&SMALL);
    let e = apply(&mut s, "down").unwrap();
    assert_eq!(e, vec![SokobanEvent::Moved { from: Pos::new(1, 1), to: Pos::new(1, 2) }]);
    assert_eq!((s.player(), s.moves(), s.pushes()), (Pos::new(1, 2), 1, 0));
}

#[test]
fn a_step_into_a_box_pushes_it_when_the_cell_behind_is_free() {
    let mut s = state(&SMALL);
    apply(&mut s, "right").unwrap();
    let e = apply(&mut s, "right").unwrap();
    assert_eq!(
        e,
        vec![
            SokobanEvent::Pushed { id: Id(0), from: Pos::new(3, 1), to: Pos::new(4, 1) },
            SokobanEvent::Moved { from: Pos::new(2, 1), to: Pos::new(3, 1) },
        ]
    );
    assert_eq!(s.render(), "#######\n#  @$.#\n# #   #\n#     #\n#######\n");
    assert_eq!((s.moves(), s.pushes()), (2, 1));
    // The last push puts the box on the goal: solved, and nothing more is accepted.
    let e = apply(&mut s, "right").unwrap();
    assert_eq!(e.last(), Some(&SokobanEvent::Solved));
    assert_eq!(SokobanRules.status(&s), Status::Won);
    assert_eq!(apply(&mut s, "left").unwrap_err().code, "solved");
    assert!(SokobanRules.legal_commands(&s).is_empty());
}

#[test]
fn walls_and_blocked_boxes_refuse_and_change_nothing() {
    let mut s = state(&["######", "#@$$.#", "#  . #", "######"]);
    let before = s.clone();
    assert_eq!(apply(&mut s, "up").unwrap_err().code, "wall");
    assert_eq!(apply(&mut s, "right").unwrap_err().code, "box_blocked");
    assert_eq!(s, before);
    let mut s = state(&["#####", "#@$##", "#  .#", "#####"]);
    assert_eq!(apply(&mut s, "right").unwrap_err().code, "box_blocked");
    assert_eq!(SokobanRules.legal_commands(&s), vec![SokobanCommand::Step(Dir::Down)]);
}

#[test]
fn a_walk_takes_a_shortest_path_and_is_one_step() {
    let mut s = state(&SMALL);
    let e = apply(&mut s, "walk 5 3").unwrap();
    // Shortest paths are 6 steps; the search tries up, down, left, right, so it goes down first.
    let path: Vec<Pos> = [(1, 1), (1, 2), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3)]
        .iter()
        .map(|&(x, y)| Pos::new(x, y))
        .collect();
    assert_eq!(e, vec![SokobanEvent::Walked { path }]);
    assert_eq!((s.player(), s.moves(), s.pushes()), (Pos::new(5, 3), 6, 0));
}

#[test]
fn walks_that_cannot_be_made_are_refused() {
    let mut s = state(&["#######", "#@$ ..#", "##$   #", "#######"]);
    let before = s.clone();
    assert_eq!(apply(&mut s, "walk 3 1").unwrap_err().code, "unreachable");
    assert_eq!(apply(&mut s, "walk 0 0").unwrap_err().code, "wall");
    assert_eq!(apply(&mut s, "walk 2 1").unwrap_err().code, "box");
    assert_eq!(apply(&mut s, "walk 1 1").unwrap_err().code, "no_change");
    assert_eq!(apply(&mut s, "walk 9 1").unwrap_err().code, "off_board");
    assert_eq!(s, before);
    assert_eq!(walk_path(&s, Pos::new(3, 1)), None);
}

#[test]
fn the_hint_is_the_first_command_of_a_solution() {
    let rules = crate::AnyRules::Sokoban(SokobanRules);
    let mut game = AnyState::Sokoban(state(&SMALL));
    let walk = SokobanCommand::Walk(Pos::new(2, 1));
    assert_eq!(rules.hint(&game), Some(AnyCommand::Sokoban(walk)));
    let mut events = Vec::new();
    for expected in [walk, SokobanCommand::Step(Dir::Right), SokobanCommand::Step(Dir::Right)] {
        let hint = rules.hint(&game);
        assert_eq!(hint, Some(AnyCommand::Sokoban(expected)));
        rules.apply(&mut game, &AnyCommand::Sokoban(expected), &mut events).unwrap();
    }
    assert_eq!(rules.status(&game), Status::Won);
    assert_eq!(rules.hint(&game), None);
    // A deadlocked game still hints a legal step.
    let dead = AnyState::Sokoban(state(&["######", "#$  .#", "#  @ #", "#.  $#", "######"]));
    assert_eq!(rules.hint(&dead), Some(AnyCommand::Sokoban(SokobanCommand::Step(Dir::Up))));
}

#[test]
fn commands_print_and_parse_as_one_line() {
    for text in ["up", "down", "left", "right", "walk 3 12"] {
        assert_eq!(cmd(text).to_string(), text);
    }
    assert_eq!(cmd("  walk  3 4 "), SokobanCommand::Walk(Pos::new(3, 4)));
    for bad in ["", "jump", "up 2", "walk 3", "walk 3 -1", "walk 1 2 3"] {
        assert!(bad.parse::<SokobanCommand>().is_err(), "{bad}");
    }
    let any = AnyCommand::parse(crate::RuleSet::Sokoban, "walk 1 2").unwrap();
    assert_eq!(any.to_string(), "walk 1 2");
}

#[test]
fn undo_restores_and_redo_repeats_exactly() {
    let mut s = state(&SMALL);
    let start = s.clone();
    let mut log = Vec::new();
    for c in ["walk 2 1", "right", "right"] {
        let before = s.clone();
        let e = apply(&mut s, c).unwrap();
        let after = s.clone();
        SokobanRules.undo(&mut s, &e);
        assert_eq!(s, before, "undo of {c}");
        assert_eq!(s.hash(), before.hash());
        SokobanRules.redo(&mut s, &e).unwrap();
        assert_eq!(s, after, "redo of {c}");
        log.push(e);
    }
    for e in log.iter().rev() {
        SokobanRules.undo(&mut s, e);
    }
    assert_eq!(s, start);
    assert_eq!(s.hash(), start.recompute_hash());
}

#[test]
fn checked_redo_refuses_events_that_do_not_fit() {
    let s = state(&SMALL);
    let forged = [
        vec![SokobanEvent::Moved { from: Pos::new(2, 1), to: Pos::new(3, 1) }],
        vec![SokobanEvent::Moved { from: Pos::new(1, 1), to: Pos::new(1, 0) }],
        vec![SokobanEvent::Moved { from: Pos::new(1, 1), to: Pos::new(3, 1) }],
        vec![SokobanEvent::Pushed { id: Id(0), from: Pos::new(2, 1), to: Pos::new(3, 1) }],
        vec![SokobanEvent::Pushed { id: Id(1), from: Pos::new(3, 1), to: Pos::new(4, 1) }],
        vec![SokobanEvent::Pushed { id: Id(0), from: Pos::new(3, 1), to: Pos::new(4, 1) }],
        vec![SokobanEvent::Pushed { id: Id(0), from: Pos::new(3, 1), to: Pos::new(300, 1) }],
        vec![SokobanEvent::Walked { path: vec![Pos::new(1, 1)] }],
        vec![SokobanEvent::Walked { path: vec![Pos::new(1, 1), Pos::new(1, 3)] }],
        vec![SokobanEvent::Walked { path: vec![Pos::new(1, 1), Pos::new(2, 1), Pos::new(3, 1)] }],
        vec![SokobanEvent::Walked { path: vec![Pos::new(1, 1), Pos::new(1, 2), Pos::new(2, 2)] }],
        vec![SokobanEvent::Solved],
        // A good first event, then a bad one: the first is undone.
        vec![
            SokobanEvent::Moved { from: Pos::new(1, 1), to: Pos::new(2, 1) },
            SokobanEvent::Moved { from: Pos::new(2, 1), to: Pos::new(2, 2) },
        ],
    ];
    for events in forged {
        let mut t = s.clone();
        let e = SokobanRules.redo(&mut t, &events);
        assert!(e.is_err(), "{events:?} was accepted");
        assert_eq!(t, s, "{events:?} changed the state");
        assert_eq!(t.hash(), s.hash());
    }
}

#[test]
fn level_checks_name_what_and_where() {
    let err = |rows: &[&str]| {
        let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        parse_board(&rows, 0).unwrap_err()
    };
    assert_eq!(err(&["####", "#$.#", "####"]).message, "the board has no player (@ or +)");
    let e = err(&["#####", "#@$@#", "#..$#", "#####"]);
    assert_eq!(e.cell, Some(Pos::new(3, 1)));
    assert_eq!(e.message, "board cell (3, 1): a second player (the first is at (1, 1))");
    assert_eq!(err(&["####", "#@.#", "####"]).message, "the board has no box ($ or *)");
    assert_eq!(err(&["#####", "#@$$#", "#...#", "#####"]).message, "the board has 2 boxes but 3 goals");
    let e = err(&["#####", "#@$.#", "#    ", "#####"]);
    assert_eq!(e.cell, Some(Pos::new(4, 2)));
    assert_eq!(e.message, "board cell (4, 2): the player can walk off the map here: no wall encloses it");
    let e = err(&["#####", "#@$x#", "#####"]);
    assert_eq!(e.cell, Some(Pos::new(3, 1)));
    assert!(e.message.starts_with("board cell (3, 1): 'x' is not a Sokoban character"), "{e}");
    assert_eq!(err(&["####", "#@$.#", "####"]).message, "board row 1 has 5 cells, expected 4");
    assert!(err(&[]).message.starts_with("board: "));
}

#[test]
fn level_json_round_trips_and_refuses_unknown_fields() {
    let text = serde_json::json!({"rule_set": "sokoban", "name": "tiny", "seed": 3, "board": ["#####", "#@$.#", "#####"]})
        .to_string();
    let level = Level::from_json(&text).unwrap();
    assert_eq!(Level::from_json(&level.to_json()).unwrap(), level);
    let game = level.start(None).unwrap();
    assert_eq!(game.state.render(), "#####\n#@$.#\n#####\n");
    assert_eq!(game.state.board_json(), serde_json::json!(["#####", "#@$.#", "#####"]));
    let AnyState::Sokoban(s) = &game.state else { panic!("not a sokoban state") };
    assert_eq!(s.seed(), 3);
    let text = serde_json::json!({"rule_set": "sokoban", "board": ["#@$.#"], "walls": 1}).to_string();
    let e = Level::from_json(&text).unwrap_err();
    assert!(e.to_string().contains("walls"), "{e}");
    let e = Level::from_json(r#"{"rule_set": "sokoban", "board": ["@$."]}"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "board cell (0, 0): the player can walk off the map here: no wall encloses it (3 edge cells in a row)"
    );
    assert_eq!(e.place(), Some(crate::Place::Cell(Pos::new(0, 0))));
}

#[test]
fn the_fixture_level_loads_and_solves() {
    let text = include_str!("../../../../fixtures/levels/sokoban.json");
    let level = Level::from_json(text).unwrap();
    let game = level.start(None).unwrap();
    let AnyState::Sokoban(s) = game.state else { panic!("not a sokoban state") };
    let report = solve(&s, SolveLimits::default(), &mut || false);
    let SolveOutcome::Solved(sol) = report.outcome else { panic!("not solved: {report:?}") };
    assert_eq!(replay_to_won(&s, &sol.commands), (sol.pushes, sol.moves));
}

#[test]
fn states_round_trip_through_serde_and_bad_ones_are_refused() {
    let mut s = state(&SMALL);
    apply(&mut s, "walk 2 1").unwrap();
    apply(&mut s, "right").unwrap();
    let json = serde_json::to_string(&s).unwrap();
    let back: SokobanState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.hash(), s.hash());
    let bytes = crate::canonical_bytes(&s);
    let (back, _): (SokobanState, usize) =
        bincode::serde::decode_from_slice(&bytes, crate::canonical_config()).unwrap();
    assert_eq!(back, s);
    // The player moved onto a wall.
    let bad = json.replace(r#""player":{"x":3,"y":1}"#, r#""player":{"x":0,"y":0}"#);
    assert_ne!(bad, json);
    assert!(serde_json::from_str::<SokobanState>(&bad).is_err());
}

// ---- properties ----

/// The fewest pushes by a plain breadth-first search over push states (sorted boxes and the
/// player's normalised region), with no pruning: the reference for the solver. `None` when
/// unsolvable.
fn bfs_pushes(s: &SokobanState) -> Option<u32> {
    let size = s.size();
    let open = |p: Pos| s.cell(p).is_some_and(|c| c.is_open());
    let region = |boxes: &[Pos], from: Pos| -> Vec<bool> {
        let mut seen = vec![false; size.area()];
        seen[size.index(from)] = true;
        let mut q = VecDeque::from([from]);
        while let Some(p) = q.pop_front() {
            for d in Dir::ALL {
                if let Some(r) = p.step(d, size)
                    && open(r)
                    && !boxes.contains(&r)
                    && !seen[size.index(r)]
                {
                    seen[size.index(r)] = true;
                    q.push_back(r);
                }
            }
        }
        seen
    };
    let norm = |seen: &[bool]| seen.iter().position(|&b| b).unwrap_or(0);
    let mut boxes: Vec<Pos> = size.cells().filter(|&p| s.box_at(p).is_some()).collect();
    boxes.sort();
    let solved = |b: &[Pos]| b.iter().all(|&p| s.cell(p) == Some(Cell::Goal));
    if solved(&boxes) {
        return Some(0);
    }
    let start = (boxes.clone(), norm(&region(&boxes, s.player())));
    let mut seen = HashSet::from([start.clone()]);
    let mut q = VecDeque::from([(start.0, s.player(), 0u32)]);
    while let Some((boxes, player, g)) = q.pop_front() {
        let reach = region(&boxes, player);
        for (i, &b) in boxes.iter().enumerate() {
            for d in Dir::ALL {
                let (Some(behind), Some(ahead)) = (b.step(d.opposite(), size), b.step(d, size)) else {
                    continue;
                };
                if !reach[size.index(behind)] || !open(ahead) || boxes.contains(&ahead) {
                    continue;
                }
                let mut nb = boxes.clone();
                nb[i] = ahead;
                nb.sort();
                if solved(&nb) {
                    return Some(g + 1);
                }
                let key = (nb.clone(), norm(&region(&nb, b)));
                if seen.insert(key) {
                    q.push_back((nb, b, g + 1));
                }
            }
        }
    }
    None
}

/// Applies `commands` and checks that they end in a won state; returns (pushes, moves).
fn replay_to_won(start: &SokobanState, commands: &[SokobanCommand]) -> (u32, u32) {
    let mut s = start.clone();
    let mut events = Vec::new();
    for c in commands {
        events.clear();
        SokobanRules.apply(&mut s, c, &mut events).unwrap_or_else(|e| panic!("{c} refused: {e}"));
    }
    assert_eq!(SokobanRules.status(&s), Status::Won);
    assert_eq!(s.hash(), s.recompute_hash());
    (s.pushes() - start.pushes(), s.moves() - start.moves())
}

fn dir_cmd() -> impl Strategy<Value = SokobanCommand> {
    prop_oneof![
        4 => (0usize..4).prop_map(|i| SokobanCommand::Step(Dir::ALL[i])),
        1 => (0u16..8, 0u16..7).prop_map(|(x, y)| SokobanCommand::Walk(Pos::new(x, y))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any mix of commands, undo and redo keeps the incremental hash equal to the recomputed
    /// one; refused commands change nothing; undoing everything gives the start back.
    #[test]
    fn hash_undo_and_redo_hold_under_random_play(
        seed in any::<u64>(), n in 1usize..4, cmds in prop::collection::vec(dir_cmd(), 1..60)
    ) {
        let Some(rows) = random_rows(seed, 8, 7, n) else { return Ok(()) };
        let Ok(start) = parse_board(&rows, seed) else { return Ok(()) };
        let mut s = start.clone();
        let mut steps = Vec::new();
        for (i, c) in cmds.iter().enumerate() {
            let before = s.clone();
            let mut events = Vec::new();
            match SokobanRules.apply(&mut s, c, &mut events) {
                Ok(()) => steps.push(events),
                Err(_) => prop_assert_eq!(&s, &before),
            }
            prop_assert_eq!(s.hash(), s.recompute_hash());
            if i % 7 == 3 && let Some(last) = steps.last() {
                let after = s.clone();
                SokobanRules.undo(&mut s, last);
                prop_assert_eq!(s.hash(), s.recompute_hash());
                SokobanRules.redo(&mut s, last).unwrap();
                prop_assert_eq!(&s, &after);
            }
        }
        for e in steps.iter().rev() {
            SokobanRules.undo(&mut s, e);
        }
        prop_assert_eq!(&s, &start);
        prop_assert_eq!(s.hash(), start.hash());
    }

    /// The solver finds a solution exactly when a plain BFS does, with as few pushes, and its
    /// commands replay through the rules to a won state.
    #[test]
    fn the_solver_is_optimal_in_pushes(
        seed in any::<u64>(), n in 1usize..4, w in 5u16..9, h in 5u16..8, pulls in 0usize..120
    ) {
        // Half the levels random (mostly unsolvable), half solvable by construction.
        let rows = if seed % 2 == 0 { random_rows(seed, w, h, n) } else { pulled_rows(seed, w, h, n, pulls) };
        let Some(rows) = rows else { return Ok(()) };
        let Ok(s) = parse_board(&rows, 0) else { return Ok(()) };
        let report = solve(&s, SolveLimits::default(), &mut || false);
        match (bfs_pushes(&s), report.outcome) {
            (Some(p), SolveOutcome::Solved(sol)) => {
                prop_assert_eq!(sol.pushes, p, "{}", s.render());
                prop_assert_eq!(replay_to_won(&s, &sol.commands), (sol.pushes, sol.moves));
            }
            (None, SolveOutcome::Unsolvable) => {}
            (bfs, outcome) => prop_assert!(false, "bfs {:?}, solver {:?}\n{}", bfs, outcome, s.render()),
        }
    }
}

// ---- the importer ----

#[test]
fn a_collection_imports_with_titles_and_floor_characters() {
    let text = "; My collection\n\nLevel one\n#####\n#@$.#\n#####\n\n  ####\n###-.#\n#@-$_#\n#####\nTitle: Second\nAuthor: me\n\n#####\n#@*$.#\n######\n";
    let levels = parse_levels(text).unwrap();
    let names: Vec<&str> = levels.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Level one", "Second", "level 3"]);
    let Level::Sokoban(second) = &levels[1].1 else { panic!("not sokoban") };
    assert_eq!(second.board, ["  ####", "### .#", "#@ $ #", "##### "]);
    for (_, level) in &levels {
        assert_eq!(Level::from_json(&level.to_json()).unwrap(), *level);
    }
}

#[test]
fn a_bad_level_imports_none_and_names_level_line_and_column() {
    let text = "; 0\n#####\n#@$.#\n#####\n\n; 1\n#####\n#@$ #\n#####\n";
    let e = parse_levels(text).unwrap_err();
    assert_eq!((e.level, e.name.as_deref(), e.line, e.column), (2, Some("1"), 7, 1));
    assert_eq!(e.to_string(), "level 2 (1), line 7, column 1: the board has 1 box but 0 goals");
    let text = "; 0\n#####\n#@$.#\n#####\n\n; 1\n######\n#@$.##\n#    \n#####\n";
    let e = parse_levels(text).unwrap_err();
    assert_eq!((e.level, e.line, e.column), (2, 9, 6));
    assert!(e.message.contains("walk off the map"), "{e}");
    let e = parse_levels("; 0\n#####\n#@$x.#\n").unwrap_err();
    assert_eq!((e.level, e.line, e.column), (1, 3, 4));
    assert!(parse_levels("no boards here\n").is_err());
}

/// The shared Boxoban files, if this checkout has `shared/` beside it (a worktree keeps it one
/// level further up).
fn boxoban(file: &str) -> Option<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    ["../../../shared/benchmarks/boxoban", "../../../../shared/benchmarks/boxoban"]
        .iter()
        .find_map(|dir| std::fs::read_to_string(root.join(dir).join(file)).ok())
}

/// The first Boxoban levels of the three difficulty sets: they import, the solver solves them with
/// as few pushes as a plain BFS needs, and its solutions replay to a won state.
#[test]
fn the_first_boxoban_levels_import_and_solve_optimally() {
    for file in ["unfiltered_test_000.txt", "medium_valid_000.txt", "hard_000.txt"] {
        let Some(text) = boxoban(file) else {
            println!("shared/benchmarks/boxoban is absent: skipping the Boxoban solver test");
            return;
        };
        let levels = parse_levels(&text).unwrap();
        assert_eq!(levels.len(), 1000, "{file}");
        assert_eq!(levels[0].0, "0");
        for (name, level) in levels.iter().take(5) {
            let game = level.start(None).unwrap();
            let AnyState::Sokoban(s) = game.state else { panic!("not sokoban") };
            assert_eq!((s.size().width, s.size().height, s.box_count()), (10, 10, 4));
            let report = solve(&s, SolveLimits::nodes(2_000_000), &mut || false);
            let SolveOutcome::Solved(sol) = report.outcome else { panic!("{file} level {name}: {report:?}") };
            assert_eq!(Some(sol.pushes), bfs_pushes(&s), "{file} level {name}");
            assert_eq!(replay_to_won(&s, &sol.commands), (sol.pushes, sol.moves), "{file} level {name}");
        }
    }
}

#[test]
fn the_solver_stops_when_told_and_knows_unsolvable_levels() {
    // Two boxes in corners far from their goals: dead at once.
    let s = state(&["######", "#$  .#", "#  @ #", "#.  $#", "######"]);
    assert_eq!(solve(&s, SolveLimits::default(), &mut || false).outcome, SolveOutcome::Unsolvable);
    let text = include_str!("../../../../fixtures/levels/sokoban.json");
    let game = Level::from_json(text).unwrap().start(None).unwrap();
    let AnyState::Sokoban(s) = game.state else { panic!("not sokoban") };
    let mut calls = 0;
    let report = solve(&s, SolveLimits::default(), &mut || {
        calls += 1;
        true
    });
    // Called from the first phase on (issue 29.8): stopped before any expansion.
    assert_eq!((report.outcome, report.nodes, calls), (SolveOutcome::Stopped, 0, 1));
    let report = solve(&s, SolveLimits::nodes(10), &mut || false);
    assert_eq!((report.outcome, report.nodes), (SolveOutcome::Stopped, 11));
    // The same search twice gives the same report.
    let a = solve(&s, SolveLimits::nodes(3000), &mut || false);
    assert_eq!(a, solve(&s, SolveLimits::nodes(3000), &mut || false));
}

/// Issue 36.4: with the walls open at (6, 2) and (0, 3), both openings are listed, each at its
/// cell; a run of open edge cells is one opening, at its first cell, with its length; an open
/// edge all around is one.
#[test]
fn every_opening_in_the_walls_is_listed_at_its_first_cell() {
    let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cells = |b: &[&str]| -> Vec<(Option<Pos>, String)> {
        board_problems(&rows(b)).into_iter().map(|e| (e.cell, e.message)).collect()
    };
    let walk = "the player can walk off the map here: no wall encloses it";
    let two = cells(&["#######", "#@$. ##", "#      ", "   ####", "#######"]);
    assert_eq!(
        two,
        [
            (Some(Pos::new(6, 2)), format!("board cell (6, 2): {walk}")),
            (Some(Pos::new(0, 3)), format!("board cell (0, 3): {walk}")),
        ]
    );
    // An opening that runs round a corner is one; so is an edge with no wall.
    let corner = cells(&["#### ", "#@$. ", "#### "]);
    assert_eq!(
        corner,
        [(Some(Pos::new(4, 0)), format!("board cell (4, 0): {walk} (3 edge cells in a row)"))]
    );
    let open = cells(&["@$.", "   "]);
    assert_eq!(open, [(Some(Pos::new(0, 0)), format!("board cell (0, 0): {walk} (6 edge cells in a row)"))]);
    // A map one row high is a line, all edge: its open cells beside the player are one opening.
    let line = cells(&["# @$.#"]);
    assert_eq!(line, [(Some(Pos::new(1, 0)), format!("board cell (1, 0): {walk} (4 edge cells in a row)"))]);
}

#[test]
fn board_problems_lists_every_check_that_fails_the_first_being_parse_boards() {
    let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let bad = rows(&["#####", "#@.@ ", "#+..#", "#####"]);
    let all = board_problems(&bad);
    let messages: Vec<&str> = all.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "board cell (3, 1): a second player (the first is at (1, 1))",
            "board cell (1, 2): a second player (the first is at (1, 1))",
            "the board has no box ($ or *)",
            "board cell (4, 1): the player can walk off the map here: no wall encloses it",
        ]
    );
    assert_eq!(all[0].cell, Some(Pos::new(3, 1)));
    assert_eq!(parse_board(&bad, 0).err(), Some(all[0].clone()), "parse_board reports the first");
    assert!(board_problems(&rows(&["#####", "#@$.#", "#####"])).is_empty());
    let empty = board_problems(&rows(&["###", "# #", "###"]));
    assert_eq!(empty.len(), 2, "no player, no box: {empty:?}");
    assert_eq!(board_problems(&rows(&["#x#"])).len(), 1, "unreadable: that one error");
}

/// Issue 29.3: a collection with a row or a board larger than the largest side is refused at
/// that line while reading, before any row is padded (1,000,000 `#` then 5,000 rows grew past
/// 4 GB).
#[test]
fn an_oversized_board_is_refused_while_reading() {
    let mut text = "#".repeat(1_000_000);
    text.push('\n');
    for _ in 0..5_000 {
        text.push_str("#\n");
    }
    let e = parse_levels(&text).unwrap_err();
    assert_eq!((e.level, e.line, e.column), (1, 1, 257), "{e}");
    assert!(e.message.contains("at most 256"), "{e}");
    let tall = "#\n".repeat(5_000);
    let e = parse_levels(&tall).unwrap_err();
    assert_eq!((e.line, e.column), (257, 1), "{e}");
    // The largest side itself is fine as far as size goes.
    let mut edge = "#".repeat(256);
    edge.push('\n');
    assert!(!parse_levels(&edge).unwrap_err().message.contains("at most"));
}

/// Issue 29.8: the solver's memory budget ends the search ("gave up: memory") instead of
/// growing, in the distance tables and in the search; its stop callback is called inside the
/// set-up of a huge level, not only between expansions.
#[test]
fn the_solver_keeps_to_its_memory_budget_and_stops_inside_every_phase() {
    // A 64×64 room with 30 boxes: too much for a few kilobytes of tables.
    let room = big_room(64, 30);
    let r = solve(&room, SolveLimits { max_nodes: u64::MAX, max_bytes: 4 << 10 }, &mut || false);
    assert_eq!(r.outcome, SolveOutcome::OutOfMemory);
    let r = solve(&room, SolveLimits { max_nodes: u64::MAX, max_bytes: 4 << 20 }, &mut || false);
    assert_eq!(r.outcome, SolveOutcome::OutOfMemory, "{r:?}");
    assert!(r.nodes > 0);
    // 256×256 with 1,000 boxes: the stop callback is reached inside the set-up (before any
    // expansion), and called again every CHECK_WORK units, so a clock can end it.
    let huge = big_room(256, 1000);
    let mut calls = 0;
    let r = solve(&huge, SolveLimits::default(), &mut || {
        calls += 1;
        calls > 3
    });
    assert_eq!((r.outcome, r.nodes, calls), (SolveOutcome::Stopped, 0, 4));
}

/// A `side`×`side` walled room with `boxes` boxes and goals scattered by a fixed generator.
fn big_room(side: usize, boxes: usize) -> SokobanState {
    let mut rows: Vec<Vec<char>> = (0..side)
        .map(|y| {
            (0..side)
                .map(|x| if x == 0 || y == 0 || x == side - 1 || y == side - 1 { '#' } else { ' ' })
                .collect()
        })
        .collect();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    rows[1][1] = '@';
    for c in ['$', '.'] {
        let mut placed = 0;
        while placed < boxes {
            let (cx, cy) = (2 + next(side - 4), 2 + next(side - 4));
            if rows[cy][cx] == ' ' {
                rows[cy][cx] = c;
                placed += 1;
            }
        }
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    parse_board(&rows, 0).expect("a room")
}
