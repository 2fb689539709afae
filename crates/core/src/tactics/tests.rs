use super::*;
use crate::Level;
use crate::geom::Dir;
use std::collections::BTreeMap;

fn p(x: u16, y: u16) -> Pos {
    Pos::new(x, y)
}

/// A game on `rows` (default legend) with units `(team, x, y, movement)`.
fn game(
    rows: &[&str],
    units: &[(u8, u16, u16, u32)],
    connectivity: Connectivity,
) -> (TacticsRules, TacticsState) {
    let level = TacticsLevel {
        map: rows.iter().map(|r| r.to_string()).collect(),
        units: units.iter().map(|&(team, x, y, movement)| UnitSpec { team, x, y, movement }).collect(),
        config: TacticsConfig { connectivity },
        ..TacticsLevel::default()
    };
    level.start().unwrap()
}

// ---- path glyphs -------------------------------------------------------------------------

/// The seed's `showPathUI`, transcribed: for each cell after the start, the prefab and the
/// Y rotation it instantiates.
fn seed_show_path(list: &[Pos]) -> Vec<(SeedPiece, i32)> {
    let v = |a: Pos, b: Pos| {
        ((i32::from(b.x) - i32::from(a.x)).signum(), (i32::from(b.y) - i32::from(a.y)).signum())
    };
    let mut out = Vec::new();
    for i in 1..list.len() {
        if i < list.len() - 1 {
            let last = v(list[i - 1], list[i]);
            let next = v(list[i], list[i + 1]);
            if last == next {
                if last.0 == 1 || last.0 == -1 {
                    out.push((SeedPiece::Straight, 0));
                } else if last.1 == 1 || last.1 == -1 {
                    out.push((SeedPiece::Straight, 90));
                }
            } else {
                let horizontal = if last.0 == -1 || next.0 == 1 { 1 } else { 0 };
                let vertical = if last.1 == 1 || next.1 == -1 { 1 } else { 0 };
                let angle = match (horizontal, vertical) {
                    (0, 0) => 180,
                    (1, 0) => -90,
                    (0, 1) => 90,
                    _ => 0,
                };
                out.push((SeedPiece::Corner, angle));
            }
        } else {
            let o = v(list[i - 1], list[i]);
            let angle = match o {
                (1, _) => 180,
                (_, -1) => 270,
                (-1, _) => 0,
                _ => 90,
            };
            out.push((SeedPiece::Arrow, angle));
        }
    }
    out
}

fn walk(start: Pos, dirs: &[Dir]) -> Vec<Pos> {
    let size = Size::new(20, 20, 64).unwrap();
    let mut path = vec![start];
    for &d in dirs {
        let next = path[path.len() - 1].step(d, size).unwrap();
        path.push(next);
    }
    path
}

#[test]
fn glyphs_straight_corner_arrow_in_every_orientation() {
    use Heading::*;
    // Straight pieces and arrows, each direction.
    for (d, axis) in [
        (Dir::Right, Axis::Horizontal),
        (Dir::Left, Axis::Horizontal),
        (Dir::Up, Axis::Vertical),
        (Dir::Down, Axis::Vertical),
    ] {
        let g = path_glyphs(&walk(p(10, 10), &[d, d, d])).unwrap();
        assert_eq!(g, vec![Glyph::Straight(axis), Glyph::Straight(axis), Glyph::Arrow(d.into())], "{d}");
    }
    // All eight turns: in through the side opposite the first move, out the second way.
    let turns = [
        (Dir::Right, Dir::Down, Left, Down, '┐'),
        (Dir::Right, Dir::Up, Left, Up, '┘'),
        (Dir::Left, Dir::Down, Right, Down, '┌'),
        (Dir::Left, Dir::Up, Right, Up, '└'),
        (Dir::Down, Dir::Right, Up, Right, '└'),
        (Dir::Down, Dir::Left, Up, Left, '┘'),
        (Dir::Up, Dir::Right, Down, Right, '┌'),
        (Dir::Up, Dir::Left, Down, Left, '┐'),
    ];
    for (a, b, from, to, c) in turns {
        let g = path_glyphs(&walk(p(10, 10), &[a, b])).unwrap();
        assert_eq!(g, vec![Glyph::Corner(from, to), Glyph::Arrow(b.into())], "{a} then {b}");
        assert_eq!(g[0].to_char(), c, "{a} then {b}");
    }
    assert_eq!(path_glyphs(&[p(1, 1)]).unwrap(), vec![]);
    assert_eq!(path_glyphs(&[p(1, 1), p(2, 1)]).unwrap(), vec![Glyph::Arrow(Right)]);
    assert_eq!(path_glyphs(&[p(1, 1), p(1, 1)]), None);
}

#[test]
fn glyphs_match_the_seeds_prefabs_and_rotations() {
    // Every 4-connected path of up to four steps that never turns back.
    let mut paths: Vec<Vec<Dir>> = vec![vec![]];
    for _ in 0..4 {
        let mut longer = Vec::new();
        for path in &paths {
            for d in Dir::ALL {
                if path.last().is_some_and(|l: &Dir| l.opposite() == d) {
                    continue;
                }
                let mut q = path.clone();
                q.push(d);
                longer.push(q);
            }
        }
        paths.extend(longer.iter().cloned());
        paths.dedup();
        paths = {
            let mut seen = BTreeMap::new();
            for q in paths {
                seen.insert(q.iter().map(|d| d.name()).collect::<Vec<_>>().join(","), q);
            }
            seen.into_values().collect()
        };
    }
    assert!(paths.len() > 100);
    for dirs in paths {
        let path = walk(p(10, 10), &dirs);
        let ours: Vec<(SeedPiece, i32)> =
            path_glyphs(&path).unwrap().into_iter().map(|g| g.seed_rotation().unwrap()).collect();
        assert_eq!(ours, seed_show_path(&path), "{dirs:?}");
    }
}

#[test]
fn diagonal_glyphs() {
    use Heading::*;
    let g = path_glyphs(&[p(0, 0), p(1, 1), p(2, 2), p(3, 2)]).unwrap();
    assert_eq!(g, vec![Glyph::Straight(Axis::Falling), Glyph::Corner(UpLeft, Right), Glyph::Arrow(Right)]);
    assert_eq!(g[0].seed_rotation(), None);
    let g = path_glyphs(&[p(0, 2), p(1, 1), p(2, 0)]).unwrap();
    assert_eq!(g, vec![Glyph::Straight(Axis::Rising), Glyph::Arrow(UpRight)]);
}

// ---- costs and range ---------------------------------------------------------------------

#[test]
fn entering_costs_one_plus_extra() {
    // Plain 1, forest 2, hills 3.
    let (rules, state) = game(&["..fh.", "....."], &[(0, 0, 0, 10)], Connectivity::Four);
    let range: BTreeMap<Pos, Cost> = rules.reachable(&state, Id(0)).into_iter().collect();
    assert_eq!(range[&p(1, 0)], 1000);
    assert_eq!(range[&p(2, 0)], 3000); // plain then forest
    assert_eq!(range[&p(3, 0)], 6000); // plain, forest, hills = 1 + 2 + 3 (round the bottom: 4 + 3)
    assert_eq!(range[&p(4, 0)], 6000); // round the bottom (5 + 1) beats straight through (7)
    let path = rules.path(&state, p(0, 0), p(4, 0), Weight::OPTIMAL).unwrap();
    assert_eq!(path.cost, 6000);
    assert_eq!(path.cells.len(), 7);
    assert_eq!(rules.path_cost(&state, Id(0), &path.cells).unwrap(), 6000);
    let straight = [p(0, 0), p(1, 0), p(2, 0), p(3, 0), p(4, 0)];
    assert_eq!(rules.path_cost(&state, Id(0), &straight).unwrap(), 7000);
}

#[test]
fn diagonals_cost_root_two_and_never_cut_corners() {
    let (rules, state) = game(&["...", ".#.", "..."], &[(0, 0, 0, 5)], Connectivity::Eight);
    let range: BTreeMap<Pos, Cost> = rules.reachable(&state, Id(0)).into_iter().collect();
    assert!(!range.contains_key(&p(1, 1)));
    // (0,0) to (2,2) around the wall: no diagonal past the wall's corners.
    assert_eq!(range[&p(2, 2)], 4000);
    let (rules, state) = game(&["...", "...", "..."], &[(0, 0, 0, 5)], Connectivity::Eight);
    let path = rules.path(&state, p(0, 0), p(2, 2), Weight::OPTIMAL).unwrap();
    assert_eq!(path.cost, 2 * DIAGONAL);
    assert_eq!(path.cells, vec![p(0, 0), p(1, 1), p(2, 2)]);
    let e = rules
        .apply(
            &mut game(&["#..", "...", "..."], &[(0, 1, 0, 5)], Connectivity::Eight).1,
            &TacticsCommand::MoveAlong { unit: Id(0), path: vec![p(1, 0), p(0, 1)] },
            &mut Vec::new(),
        )
        .unwrap_err();
    assert!(e.message.contains("cuts a blocked corner"), "{e}");
}

/// The seed's `showMovementRange`, transcribed: BFS that marks cells on first sight.
fn seed_bfs(state: &TacticsState, from: Pos, movement: i64) -> BTreeMap<Pos, i64> {
    let size = state.size();
    let mut visited = BTreeMap::new();
    let mut remain = BTreeMap::new();
    let mut queue = std::collections::VecDeque::new();
    visited.insert(from, true);
    remain.insert(from, movement);
    queue.push_back(from);
    let mut range = BTreeMap::new();
    while let Some(v) = queue.pop_front() {
        for vn in size.neighbours4(v) {
            if visited.contains_key(&vn) || !state.terrain().passable(vn) {
                continue;
            }
            let step = i64::from(1 + state.terrain().at(vn).extra);
            if remain[&v] - step >= 0 {
                remain.insert(vn, remain[&v] - step);
                visited.insert(vn, true);
                range.insert(vn, remain[&vn]);
                queue.push_back(vn);
            }
        }
    }
    range
}

#[test]
fn the_seeds_bfs_misses_cells_our_dijkstra_finds() {
    // Forest ('F', extra 6) next to the unit; K is first seen through it (cost 8) although the
    // long way round costs 6, which leaves enough to go on to C and D.
    let legend = vec![
        TerrainType::new('.', "plain", 0),
        TerrainType::new('F', "deep forest", 6),
        TerrainType::blocked('#', "wall"),
    ];
    let level = TacticsLevel {
        legend: Some(legend),
        map: vec![".F...".into(), ".#.##".into(), ".....".into()], // S F K C D on the top row
        units: vec![UnitSpec { team: 0, x: 0, y: 0, movement: 8 }],
        ..TacticsLevel::default()
    };
    let (rules, state) = level.start().unwrap();
    let seed = seed_bfs(&state, p(0, 0), 8);
    let ours: BTreeMap<Pos, Cost> = rules.reachable(&state, Id(0)).into_iter().collect();
    assert_eq!(seed.get(&p(2, 0)), Some(&0)); // K: 7 + 1 through the forest, nothing left
    assert!(!seed.contains_key(&p(4, 0)), "the seed never reaches D");
    assert_eq!(ours[&p(2, 0)], 6000);
    assert_eq!(ours[&p(3, 0)], 7000);
    assert_eq!(ours[&p(4, 0)], 8000);
    // Everything the seed finds, we find at least as cheaply.
    for (cell, left) in &seed {
        assert!(ours[cell] <= ((8 - left) as Cost) * STEP, "{cell}");
    }
}

#[test]
fn units_block_the_way_and_cannot_be_landed_on() {
    let (rules, state) =
        game(&[".....", "##.##", "....."], &[(0, 2, 0, 5), (1, 2, 1, 5)], Connectivity::Four);
    let range: BTreeMap<Pos, Cost> = rules.reachable(&state, Id(0)).into_iter().collect();
    assert!(!range.contains_key(&p(2, 1)));
    assert!(!range.contains_key(&p(2, 2)));
    assert_eq!(range.len(), 4);
    assert!(rules.path(&state, p(2, 0), p(2, 2), Weight::OPTIMAL).is_none());
    assert!(rules.path(&state, p(2, 0), p(2, 1), Weight::OPTIMAL).is_none());
    // The unit on the start cell does not block its own search.
    assert!(rules.path(&state, p(2, 1), p(2, 2), Weight::OPTIMAL).is_some());
}

#[test]
fn weighted_astar_is_not_always_optimal_but_w1_and_w0_are() {
    // A wall with a gap far from the straight line.
    let rows = ["..........", ".########.", "..........", "..........", ".........."];
    let (rules, state) = game(&rows, &[], Connectivity::Four);
    let a = rules.path(&state, p(0, 0), p(9, 4), Weight::OPTIMAL).unwrap();
    let d = rules.path(&state, p(0, 0), p(9, 4), Weight::DIJKSTRA).unwrap();
    let w = rules.path(&state, p(0, 0), p(9, 4), Weight(5000)).unwrap();
    assert_eq!(a.cost, 13_000);
    assert_eq!(d.cost, 13_000);
    assert!(w.cost >= a.cost);
    assert_eq!(Weight::parse("1"), Some(Weight::OPTIMAL));
    assert_eq!(Weight::parse("1.5"), Some(Weight(1500)));
    assert_eq!(Weight::parse("0.25"), Some(Weight(250)));
    assert_eq!(Weight::parse("1.2345"), None);
    assert_eq!(Weight::parse("x"), None);
}

#[test]
fn repeated_searches_reuse_the_scratch() {
    let (_, state) = game(&["....", "....", "...."], &[], Connectivity::Eight);
    let mut finder = PathFinder::new();
    let mut cells = Vec::new();
    for k in 0..5u16 {
        let to = p(3, k % 3);
        let cost = finder.path(state.terrain(), Connectivity::Eight, p(0, 0), to, Weight::OPTIMAL).unwrap();
        finder.path_to(state.size(), to, &mut cells);
        assert_eq!(cells.first(), Some(&p(0, 0)));
        assert_eq!(cells.last(), Some(&to));
        assert!(cost >= 3 * STEP);
    }
}

// ---- commands, events, undo ---------------------------------------------------------------

#[test]
fn move_deducts_the_path_cost_and_undo_gives_it_back() {
    let (rules, mut state) = game(&["..f..", "....."], &[(0, 0, 0, 5), (1, 4, 1, 5)], Connectivity::Four);
    let before = state.clone();
    let mut events = Vec::new();
    rules.apply(&mut state, &TacticsCommand::Move { unit: Id(0), to: p(3, 0) }, &mut events).unwrap();
    let [TacticsEvent::UnitMoved { unit, path, cost }] = events.as_slice() else { panic!("{events:?}") };
    assert_eq!((*unit, *cost), (Id(0), 4000));
    assert_eq!(path.first(), Some(&p(0, 0)));
    assert_eq!(path.last(), Some(&p(3, 0)));
    assert_eq!(state.unit(Id(0)).unwrap().left, 1000);
    assert_eq!(state.unit_at(p(3, 0)).unwrap().id, Id(0));
    assert!(state.unit_at(p(0, 0)).is_none());
    let after = state.clone();
    rules.undo(&mut state, &events);
    assert_eq!(state, before);
    rules.redo(&mut state, &events).expect("recorded events fit");
    assert_eq!(state, after);
}

#[test]
fn refused_moves_say_why_and_change_nothing() {
    let (rules, mut state) = game(&["..#..", "....."], &[(0, 0, 0, 2), (1, 4, 1, 5)], Connectivity::Four);
    let before = state.clone();
    let mut events = Vec::new();
    let mut code = |cmd: TacticsCommand| rules.apply(&mut state, &cmd, &mut events).unwrap_err().code;
    assert_eq!(code(TacticsCommand::Move { unit: Id(0), to: p(4, 0) }), "out_of_range");
    assert_eq!(code(TacticsCommand::Move { unit: Id(0), to: p(2, 0) }), "impassable");
    assert_eq!(code(TacticsCommand::Move { unit: Id(0), to: p(4, 1) }), "occupied");
    assert_eq!(code(TacticsCommand::Move { unit: Id(0), to: p(9, 9) }), "off_map");
    assert_eq!(code(TacticsCommand::Move { unit: Id(0), to: p(0, 0) }), "no_change");
    assert_eq!(code(TacticsCommand::Move { unit: Id(1), to: p(3, 1) }), "not_your_turn");
    assert_eq!(code(TacticsCommand::Move { unit: Id(7), to: p(3, 1) }), "no_such_unit");
    let along = |path: &[(u16, u16)]| TacticsCommand::MoveAlong {
        unit: Id(0),
        path: path.iter().map(|&(x, y)| p(x, y)).collect(),
    };
    assert_eq!(code(along(&[(0, 0), (1, 1)])), "bad_path"); // diagonal on a 4-connected map
    assert_eq!(code(along(&[(1, 0), (1, 1)])), "bad_path"); // does not start at the unit
    assert_eq!(code(along(&[(0, 0), (1, 0), (0, 0)])), "bad_path"); // ends where it started
    assert_eq!(code(along(&[(0, 0), (1, 0), (1, 1), (2, 1)])), "out_of_range");
    assert!(events.is_empty());
    assert_eq!(state, before);
    // A walled-in goal is unreachable.
    let (rules, mut state) = game(&[".#.", "##."], &[(0, 0, 0, 9)], Connectivity::Four);
    let e = rules
        .apply(&mut state, &TacticsCommand::Move { unit: Id(0), to: p(2, 0) }, &mut Vec::new())
        .unwrap_err();
    assert_eq!(e.code, "unreachable");
}

#[test]
fn move_along_an_explicit_path_costs_that_path() {
    let (rules, mut state) = game(&["...", "..."], &[(0, 0, 0, 5)], Connectivity::Four);
    let path = vec![p(0, 0), p(0, 1), p(1, 1), p(1, 0)];
    let mut events = Vec::new();
    rules
        .apply(&mut state, &TacticsCommand::MoveAlong { unit: Id(0), path: path.clone() }, &mut events)
        .unwrap();
    assert_eq!(events, vec![TacticsEvent::UnitMoved { unit: Id(0), path, cost: 3000 }]);
    assert_eq!(state.unit(Id(0)).unwrap().left, 2000);
}

#[test]
fn end_turn_passes_to_the_next_team_and_restores_its_movement() {
    let (rules, mut state) =
        game(&["......"], &[(0, 0, 0, 3), (2, 5, 0, 4), (2, 3, 0, 4)], Connectivity::Four);
    let mut events = Vec::new();
    rules.apply(&mut state, &TacticsCommand::Move { unit: Id(0), to: p(2, 0) }, &mut events).unwrap();
    events.clear();
    // Team 2 moves next: spend some of unit 1's movement, then end turns around.
    rules.apply(&mut state, &TacticsCommand::EndTurn, &mut events).unwrap();
    assert_eq!(state.team(), 2);
    assert_eq!(events[0], TacticsEvent::TurnEnded { team: 0, next: 2 });
    assert_eq!(events.len(), 3);
    rules.apply(&mut state, &TacticsCommand::Move { unit: Id(1), to: p(4, 0) }, &mut events).unwrap();
    events.clear();
    rules.apply(&mut state, &TacticsCommand::EndTurn, &mut events).unwrap();
    assert_eq!(state.team(), 0);
    assert_eq!(state.unit(Id(0)).unwrap().left, 3000);
    assert_eq!(events[1], TacticsEvent::MovementRestored { unit: Id(0), from: 1000, to: 3000 });
    let before_next = state.clone();
    events.clear();
    rules.apply(&mut state, &TacticsCommand::EndTurn, &mut events).unwrap();
    assert_eq!(events[1], TacticsEvent::MovementRestored { unit: Id(1), from: 3000, to: 4000 });
    rules.undo(&mut state, &events);
    assert_eq!(state, before_next);
    assert_eq!(state.turn(), 2);
}

#[test]
fn command_text_round_trips() {
    for text in ["move 3 4 5", "move-along 0 1 1 1 2 2 2", "end-turn"] {
        let cmd: TacticsCommand = text.parse().unwrap();
        assert_eq!(cmd.to_string(), text);
    }
    assert_eq!("move #3 4 5".parse::<TacticsCommand>().unwrap().to_string(), "move 3 4 5");
    assert!("move 3 4".parse::<TacticsCommand>().is_err());
    assert!("move x 4 5".parse::<TacticsCommand>().unwrap_err().contains("'x' is not a unit id"));
    assert!("move-along 0 1".parse::<TacticsCommand>().is_err());
    assert!("jump".parse::<TacticsCommand>().is_err());
}

#[test]
fn legal_commands_list_every_reachable_cell() {
    let (rules, state) = game(&["...", "..."], &[(0, 0, 0, 2), (1, 2, 1, 2)], Connectivity::Four);
    let cmds = rules.legal_commands(&state);
    assert_eq!(cmds[0], TacticsCommand::EndTurn);
    // (1,0), (2,0), (0,1), (1,1): unit 1 on (2,1) is not a destination.
    assert_eq!(cmds.len(), 5);
    assert_eq!(rules.status(&state), Status::Playing);
}

// ---- levels ----------------------------------------------------------------------------

#[test]
fn tactics_levels_load_and_explain_mistakes() {
    let ok = r##"{"rule_set": "tactics", "map": ["..f", "#.."], "units": [{"team": 0, "x": 0, "y": 0}]}"##;
    let level = Level::from_json(ok).unwrap();
    let game = level.start(None).unwrap();
    assert!(game.state.render().starts_with("0.f\n#..\n"), "{}", game.state.render());
    assert_eq!(Level::from_json(&level.to_json()).unwrap(), level);
    let e = |json: &str| Level::from_json(json).unwrap_err().to_string();
    assert_eq!(
        e(r#"{"rule_set": "tactics", "map": ["..x"]}"#),
        "map row 0, column 2: 'x' is not in the legend"
    );
    assert_eq!(e(r#"{"rule_set": "tactics", "map": ["...", ".."]}"#), "map row 1 has 2 cells, expected 3");
    assert_eq!(
        e(r##"{"rule_set": "tactics", "map": ["#."], "units": [{"team": 0, "x": 0, "y": 0}]}"##),
        "unit 0: cell (0, 0) is impassable terrain"
    );
    assert_eq!(
        e(r#"{"rule_set": "tactics", "map": [".."], "units": [{"team": 0, "x": 5, "y": 0}]}"#),
        "unit 0: cell (5, 0) is off the 2x1 map"
    );
    assert_eq!(
        e(
            r#"{"rule_set": "tactics", "map": [".."], "units": [{"team": 0, "x": 1, "y": 0}, {"team": 1, "x": 1, "y": 0}]}"#
        ),
        "units 0 and 1 both stand on (1, 0)"
    );
    assert!(e(r#"{"rule_set": "tactics", "map": []}"#).contains("0x0"));
    assert!(e(r#"{"rule_set": "tactics", "map": ["."], "legend": [{"glyph": ".", "name": "a"}, {"glyph": ".", "name": "b"}]}"#).contains("used twice"));
    assert!(
        e(r#"{"rule_set": "tactics", "map": ["."], "units": [{"team": 0, "x": 0, "y": 0, "speed": 3}]}"#)
            .contains("speed")
    );
}

#[test]
fn states_round_trip_through_serde_with_their_index() {
    let (rules, mut state) = game(&["...", "..."], &[(0, 0, 0, 2), (1, 2, 1, 2)], Connectivity::Eight);
    rules.apply(&mut state, &TacticsCommand::Move { unit: Id(0), to: p(1, 1) }, &mut Vec::new()).unwrap();
    let json = serde_json::to_string(&state).unwrap();
    let back: TacticsState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    assert_eq!(back.unit_at(p(1, 1)).unwrap().id, Id(0));
    let rules_json = serde_json::to_string(&rules).unwrap();
    assert_eq!(serde_json::from_str::<TacticsRules>(&rules_json).unwrap(), rules);
}

#[test]
fn movingai_maps_open_as_levels() {
    let level = TacticsLevel::from_movingai("type octile\nheight 2\nwidth 3\nmap\n..@\nT..\n").unwrap();
    let (rules, state) = level.start().unwrap();
    assert_eq!(rules.config.connectivity, Connectivity::Eight);
    let path = rules.path(&state, p(0, 0), p(2, 1), Weight::OPTIMAL).unwrap();
    assert_eq!(path.cost, 3 * STEP); // no corner cutting past '@' or 'T'
    assert_eq!(path.cells, vec![p(0, 0), p(1, 0), p(1, 1), p(2, 1)]);
}

#[test]
fn costs_print_as_decimals() {
    assert_eq!(fmt_cost(3000), "3");
    assert_eq!(fmt_cost(2414), "2.414");
    assert_eq!(fmt_cost(1410), "1.41");
}

#[test]
fn maps_go_up_to_1024_square_and_no_further() {
    let wide = vec![".".repeat(1024)];
    let t = Terrain::from_rows(TerrainType::default_legend(), &wide, MAX_SIDE).unwrap();
    assert_eq!(t.size(), Size::new(1024, 1, MAX_SIDE).unwrap());
    let too_wide = vec![".".repeat(1025)];
    let e = Terrain::from_rows(TerrainType::default_legend(), &too_wide, MAX_SIDE).unwrap_err().to_string();
    assert!(e.contains("1025x1"), "{e}");
    // A full 1024×1024 map searches corner to corner.
    let rows = vec![".".repeat(1024); 1024];
    let t = Terrain::from_rows(TerrainType::default_legend(), &rows, MAX_SIDE).unwrap();
    let mut finder = PathFinder::new();
    let cost = finder.path(&t, Connectivity::Eight, p(0, 0), p(1023, 1023), Weight::OPTIMAL);
    assert_eq!(cost, Some(1023 * DIAGONAL));
    let cost = finder.path(&t, Connectivity::Four, p(0, 0), p(1023, 1023), Weight::OPTIMAL);
    assert_eq!(cost, Some(2046 * STEP));
}
