//! Invariants of `tactics` over random small maps: exact range, optimal A*, valid paths, the
//! movement left; and the Moving AI arena benchmark when `../shared/benchmarks` is present. Undo,
//! redo and determinism are the conformance kit's (`crates/conformance`).

use proptest::prelude::*;
use std::collections::BTreeMap;
use tessera_core::tactics::movingai::{parse_map, parse_scen};
use tessera_core::tactics::{
    Connectivity, Cost, DIAGONAL, Graph, PathFinder, STEP, TacticsCommand, TacticsConfig, TacticsLevel,
    TacticsRules, TacticsState, Terrain, TerrainType, UnitSpec, Weight,
};
use tessera_core::{Id, Pos, Rules};

/// A random map of up to 6×6 (plain, forest, hills, wall), 4- or 8-connected, with up to three
/// units on distinct passable cells.
fn world() -> impl Strategy<Value = (TacticsRules, TacticsState)> {
    (1usize..=6, 1usize..=6, any::<bool>()).prop_flat_map(|(w, h, eight)| {
        let cells = prop::collection::vec(prop::sample::select(vec!['.', '.', '.', 'f', 'h', '#']), w * h);
        let units = prop::collection::vec(
            (0u8..3, 0..w as u16, 0..h as u16, 0u32..=if eight { 4 } else { 6 }),
            0..=3,
        );
        (cells, units).prop_map(move |(cells, units)| {
            let map: Vec<String> = cells.chunks(w).map(|r| r.iter().collect()).collect();
            let mut taken = Vec::new();
            let units = units
                .into_iter()
                .filter(|&(_, x, y, _)| {
                    let free = map[y as usize].as_bytes()[x as usize] != b'#' && !taken.contains(&(x, y));
                    taken.push((x, y));
                    free
                })
                .map(|(team, x, y, movement)| UnitSpec { team, x, y, movement })
                .collect();
            let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
            let level = TacticsLevel {
                map,
                units,
                config: TacticsConfig { connectivity },
                ..TacticsLevel::default()
            };
            level.start().expect("generated levels are valid")
        })
    })
}

/// Whether `unit` may enter `p` (on the map, passable, no other unit there).
fn enterable(state: &TacticsState, unit: Option<Id>, p: Pos) -> bool {
    state.size().contains(p)
        && state.terrain().passable(p)
        && state.unit_at(p).is_none_or(|u| Some(u.id) == unit)
}

/// The cost of the step `a → b` for `unit`, or `None` when the step is not allowed.
fn step_cost(rules: &TacticsRules, state: &TacticsState, unit: Option<Id>, a: Pos, b: Pos) -> Option<Cost> {
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    let diagonal = match (dx, dy) {
        (0, 1) | (1, 0) => false,
        (1, 1) if rules.config.connectivity == Connectivity::Eight => true,
        _ => return None,
    };
    if !enterable(state, unit, b) {
        return None;
    }
    if diagonal && !(enterable(state, unit, Pos::new(b.x, a.y)) && enterable(state, unit, Pos::new(a.x, b.y)))
    {
        return None;
    }
    let base = if diagonal { DIAGONAL } else { STEP };
    Some(base * Cost::from(1 + state.terrain().at(b).extra))
}

fn neighbours(state: &TacticsState, p: Pos) -> Vec<Pos> {
    let mut out = Vec::new();
    for dy in -1..=1 {
        for dx in -1..=1 {
            if let Some(q) = p.offset(dx, dy, state.size())
                && q != p
            {
                out.push(q);
            }
        }
    }
    out
}

/// Brute force: the cheapest cost to every cell over every simple path within `budget`.
fn brute_range(rules: &TacticsRules, state: &TacticsState, unit: Id) -> BTreeMap<Pos, Cost> {
    #[allow(clippy::too_many_arguments)] // a recursive helper: the state of the walk
    fn dfs(
        rules: &TacticsRules,
        state: &TacticsState,
        unit: Id,
        at: Pos,
        cost: Cost,
        budget: Cost,
        on_path: &mut Vec<Pos>,
        best: &mut BTreeMap<Pos, Cost>,
    ) {
        for q in neighbours(state, at) {
            if on_path.contains(&q) {
                continue;
            }
            let Some(c) = step_cost(rules, state, Some(unit), at, q) else { continue };
            if cost + c > budget {
                continue;
            }
            let e = best.entry(q).or_insert(Cost::MAX);
            *e = (*e).min(cost + c);
            on_path.push(q);
            dfs(rules, state, unit, q, cost + c, budget, on_path, best);
            on_path.pop();
        }
    }
    let u = state.unit(unit).unwrap();
    let mut best = BTreeMap::new();
    dfs(rules, state, unit, u.pos, 0, u.left, &mut vec![u.pos], &mut best);
    best
}

/// Checks that `cells` is a valid walk for whoever stands on its first cell, returning its cost.
fn check_path(rules: &TacticsRules, state: &TacticsState, cells: &[Pos]) -> Result<Cost, String> {
    let mover = state.unit_at(cells[0]).map(|u| u.id);
    let mut cost = 0;
    for w in cells.windows(2) {
        cost += step_cost(rules, state, mover, w[0], w[1])
            .ok_or_else(|| format!("step {} -> {} is not allowed", w[0], w[1]))?;
    }
    Ok(cost)
}

fn cells_of(state: &TacticsState) -> Vec<Pos> {
    state.size().cells().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn reachable_equals_brute_force((rules, state) in world()) {
        for u in state.units() {
            let ours: BTreeMap<Pos, Cost> = rules.reachable(&state, u.id).into_iter().collect();
            let brute = brute_range(&rules, &state, u.id);
            prop_assert_eq!(&ours, &brute, "unit {} at {}\n{}", u.id, u.pos, state.render());
            // Each reachable cell's path exists and costs exactly that.
            for (&to, &cost) in &ours {
                let path = rules.path_for(&state, u.id, to, Weight::OPTIMAL).unwrap();
                prop_assert_eq!(path.cost, cost);
            }
        }
    }

    #[test]
    fn astar_w1_costs_what_dijkstra_costs_and_paths_are_valid(
        (rules, state) in world(), picks in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..8),
        weight in prop::sample::select(vec![0u32, 500, 1000, 1500, 3000]),
    ) {
        let cells = cells_of(&state);
        let mut finder = PathFinder::new();
        for (a, b) in picks {
            let (from, to) = (cells[a.index(cells.len())], cells[b.index(cells.len())]);
            let exact = rules.path(&state, from, to, Weight::OPTIMAL);
            let dijkstra = rules.path(&state, from, to, Weight::DIJKSTRA);
            prop_assert_eq!(exact.as_ref().map(|p| p.cost), dijkstra.as_ref().map(|p| p.cost));
            // A budget-free Dijkstra range agrees too (when `to` is not the start).
            let mover = state.unit_at(from).map(|u| u.id);
            let mut range = Vec::new();
            finder.reachable(&state.graph_for(mover), rules.config.connectivity, from, Cost::MAX / 2, &mut range);
            // No path starts on impassable ground (issue 12: `path` used to leave a wall).
            let ranged = if !state.terrain().passable(from) {
                None
            } else if from == to {
                Some(0)
            } else {
                range.iter().find(|(p, _)| *p == to).map(|&(_, c)| c)
            };
            prop_assert_eq!(exact.as_ref().map(|p| p.cost), ranged);
            let weighted = rules.path(&state, from, to, Weight(weight));
            prop_assert_eq!(weighted.is_some(), exact.is_some());
            for path in [exact, dijkstra, weighted].into_iter().flatten() {
                prop_assert_eq!(path.cells.first(), Some(&from));
                prop_assert_eq!(path.cells.last(), Some(&to));
                let walked = check_path(&rules, &state, &path.cells);
                prop_assert_eq!(walked, Ok(path.cost), "{:?}\n{}", path.cells, state.render());
            }
        }
    }

    #[test]
    fn movement_left_never_exceeds_a_turns_movement(
        (rules, mut state) in world(),
        script in prop::collection::vec((0u8..10, any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..25),
    ) {
        let cells = cells_of(&state);
        let mut events = Vec::new();
        for (kind, a, b) in script {
            let cmd = if state.units().is_empty() || kind == 0 {
                TacticsCommand::EndTurn
            } else {
                let unit = state.units()[a.index(state.units().len())];
                let to = cells[b.index(cells.len())];
                if kind == 1 {
                    // An explicit path: the cheapest one, or a straight guess that may be invalid.
                    let path = rules.path_for(&state, unit.id, to, Weight::OPTIMAL)
                        .map_or_else(|| vec![unit.pos, to], |p| p.cells);
                    TacticsCommand::MoveAlong { unit: unit.id, path }
                } else {
                    TacticsCommand::Move { unit: unit.id, to }
                }
            };
            events.clear();
            if rules.apply(&mut state, &cmd, &mut events).is_ok() {
                for u in state.units() {
                    prop_assert!(u.left <= u.movement, "unit {} has {} left of {}", u.id, u.left, u.movement);
                }
            }
        }
    }
}

/// All 160 problems of the Moving AI arena map match their optimal lengths.
#[test]
fn movingai_arena_problems_match_their_optimal_lengths() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/movingai");
    let (Ok(map), Ok(scen)) =
        (std::fs::read_to_string(dir.join("arena.map")), std::fs::read_to_string(dir.join("arena.map.scen")))
    else {
        println!("note: {} not found; skipping the Moving AI arena check", dir.display());
        return;
    };
    let terrain = parse_map(&map).unwrap();
    let problems = parse_scen(&scen).unwrap();
    assert_eq!(problems.len(), 160);
    let mut finder = PathFinder::new();
    let mut cells = Vec::new();
    for p in &problems {
        let cost = finder.path(&terrain, Connectivity::Eight, p.start, p.goal, Weight::OPTIMAL);
        let cost = cost.unwrap_or_else(|| panic!("line {}: no path", p.line));
        finder.path_to(terrain.size(), p.goal, &mut cells);
        let diagonal = cells.windows(2).filter(|w| w[0].x != w[1].x && w[0].y != w[1].y).count() as u64;
        let straight = cells.len() as u64 - 1 - diagonal;
        assert_eq!(cost, straight * STEP + diagonal * DIAGONAL, "line {}", p.line);
        assert!(
            p.matches(straight, diagonal),
            "line {}: {straight} + {diagonal}√2 vs {}e-8",
            p.line,
            p.optimal_e8
        );
        // And the fixed-point cost is optimal × 1000 less the rounding of √2 to 1.414.
        let scaled = p.optimal_e8 / 100_000; // optimal × 1000
        assert!(cost <= scaled + 1 && scaled - cost <= diagonal / 4 + 1, "line {}", p.line);
    }
}

/// Every 4th of the 8,010 problems of the Moving AI `maze512-32-9` scenario matches its optimal
/// length with `PathFinder::path`, which is jump point search on this map (`tessera path-bench`
/// runs all of them).
#[test]
fn movingai_maze_problems_match_their_optimal_lengths_by_jump_point_search() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/movingai");
    let (Ok(map), Ok(scen)) = (
        std::fs::read_to_string(dir.join("maze512-32-9.map")),
        std::fs::read_to_string(dir.join("maze512-32-9.map.scen")),
    ) else {
        println!("note: {} not found; skipping the Moving AI maze check", dir.display());
        return;
    };
    let terrain = parse_map(&map).unwrap();
    assert!(terrain.uniform().is_some(), "Moving AI maps are uniform-cost");
    let problems = parse_scen(&scen).unwrap();
    assert_eq!(problems.len(), 8010);
    let mut finder = PathFinder::new();
    let mut cells = Vec::new();
    for p in problems.iter().step_by(4) {
        let cost = finder.path(&terrain, Connectivity::Eight, p.start, p.goal, Weight::OPTIMAL);
        assert!(cost.is_some(), "line {}: no path", p.line);
        finder.path_to(terrain.size(), p.goal, &mut cells);
        assert_eq!(
            walk_cost(&terrain, Connectivity::Eight, &cells),
            Ok(cost.unwrap_or(0)),
            "line {}",
            p.line
        );
        let diagonal = cells.windows(2).filter(|w| w[0].x != w[1].x && w[0].y != w[1].y).count() as u64;
        let straight = cells.len() as u64 - 1 - diagonal;
        assert!(
            p.matches(straight, diagonal),
            "line {}: {straight} + {diagonal}√2 vs {}e-8",
            p.line,
            p.optimal_e8
        );
    }
}

/// A random uniform-cost map for jump point search: up to 48×48, walls at a random density
/// (open fields to mazes of short walls), every passable cell plain or every one forest (so the
/// shared multiplier is 1 or 2), 4- or 8-connected.
fn uniform_map() -> impl Strategy<Value = (Terrain, Connectivity)> {
    (1u16..=48, 1u16..=48, 0u32..=60, any::<bool>(), any::<bool>(), any::<u64>()).prop_map(
        |(w, h, density, forest, eight, seed)| {
            let mut rng = seed | 1;
            let mut next = move || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            };
            let ground = if forest { 'f' } else { '.' };
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w).map(|_| if (next() % 100) < u64::from(density) { '#' } else { ground }).collect()
                })
                .collect();
            let terrain = Terrain::from_rows(TerrainType::default_legend(), &rows, 1024).unwrap();
            (terrain, if eight { Connectivity::Eight } else { Connectivity::Four })
        },
    )
}

/// The cost of walking `cells` on `terrain` step by step (each step to a neighbour, diagonal
/// only 8-connected and never past a blocked corner, every cell after the first passable).
fn walk_cost(terrain: &Terrain, connectivity: Connectivity, cells: &[Pos]) -> Result<Cost, String> {
    let mut cost = 0;
    for s in cells.windows(2) {
        let (a, b) = (s[0], s[1]);
        let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
        let diagonal = match (dx, dy) {
            (0, 1) | (1, 0) => false,
            (1, 1) if connectivity == Connectivity::Eight => true,
            _ => return Err(format!("{a} to {b} is not a step")),
        };
        if !terrain.passable(b) {
            return Err(format!("{b} is blocked"));
        }
        if diagonal && !(terrain.passable(Pos::new(a.x, b.y)) && terrain.passable(Pos::new(b.x, a.y))) {
            return Err(format!("{a} to {b} cuts a corner"));
        }
        let m = Cost::from(terrain.multipliers()[terrain.size().index(b)]);
        cost += m * if diagonal { DIAGONAL } else { STEP };
    }
    Ok(cost)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Jump point search (what `PathFinder::path` picks on uniform terrain) finds exactly A*'s
    /// cost, or no path exactly when A* finds none, and its path is valid step by step from the
    /// start to the goal with that cost.
    #[test]
    fn jump_point_search_costs_what_astar_costs(
        (terrain, connectivity) in uniform_map(),
        queries in prop::collection::vec((any::<u16>(), any::<u16>(), any::<u16>(), any::<u16>()), 1..12),
    ) {
        prop_assert!(terrain.uniform().is_some(), "uniform terrain offers jump point search");
        let size = terrain.size();
        let mut jps = PathFinder::new();
        let mut astar = PathFinder::new();
        let mut cells = Vec::new();
        for (a, b, c, d) in queries {
            let from = Pos::new(a % size.width, b % size.height);
            let to = Pos::new(c % size.width, d % size.height);
            let want = astar.astar(&terrain, connectivity, from, to, Weight::OPTIMAL);
            let got = jps.path(&terrain, connectivity, from, to, Weight::OPTIMAL);
            prop_assert_eq!(got, want, "{} to {}", from, to);
            let Some(cost) = got else { continue };
            jps.path_to(size, to, &mut cells);
            prop_assert_eq!(cells.first(), Some(&from));
            prop_assert_eq!(cells.last(), Some(&to));
            prop_assert_eq!(walk_cost(&terrain, connectivity, &cells), Ok(cost), "{} to {}: {:?}", from, to, cells);
        }
    }
}

/// Terrain with two passable costs has no uniform view, so `PathFinder::path` stays A* there;
/// on uniform terrain it expands far fewer cells than A* does (jump points only).
#[test]
fn path_picks_jump_point_search_only_on_uniform_terrain() {
    let mixed = Terrain::from_rows(TerrainType::default_legend(), &["..f", "...", "..."], 1024).unwrap();
    assert!(mixed.uniform().is_none());
    let rows: Vec<String> =
        (0..64).map(|y| if y == 32 { format!("{}.", "#".repeat(63)) } else { ".".repeat(64) }).collect();
    let open = Terrain::from_rows(TerrainType::default_legend(), &rows, 1024).unwrap();
    let mut finder = PathFinder::new();
    let (from, to) = (Pos::new(0, 0), Pos::new(0, 63));
    let astar = finder.astar(&open, Connectivity::Eight, from, to, Weight::OPTIMAL);
    let astar_expanded = finder.expanded();
    let jps = finder.path(&open, Connectivity::Eight, from, to, Weight::OPTIMAL);
    assert_eq!(jps, astar);
    assert!(finder.expanded() * 10 < astar_expanded, "{} vs {astar_expanded}", finder.expanded());
    // Weighted queries are A*'s.
    let weighted = finder.path(&open, Connectivity::Eight, from, to, Weight(2000));
    assert_eq!(weighted, finder.astar(&open, Connectivity::Eight, from, to, Weight(2000)));
}

/// A random uniform map of up to 24×24 (plain and wall), 4- or 8-connected, with up to eight
/// team-0 units with movement enough to cross it, on distinct passable cells.
fn uniform_world() -> impl Strategy<Value = (TacticsRules, TacticsState)> {
    (2usize..=24, 2usize..=24, any::<bool>(), 0u32..40).prop_flat_map(|(w, h, eight, density)| {
        let cells = prop::collection::vec(0u32..100, w * h);
        let units = prop::collection::vec((0..w as u16, 0..h as u16), 0..=8);
        (cells, units).prop_map(move |(cells, units)| {
            let map: Vec<String> = cells
                .chunks(w)
                .map(|r| r.iter().map(|&k| if k < density { '#' } else { '.' }).collect())
                .collect();
            let mut taken = Vec::new();
            let units = units
                .into_iter()
                .filter(|&(x, y)| {
                    let free = map[y as usize].as_bytes()[x as usize] != b'#' && !taken.contains(&(x, y));
                    taken.push((x, y));
                    free
                })
                .map(|(x, y)| UnitSpec { team: 0, x, y, movement: 1000 })
                .collect();
            let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
            let level = TacticsLevel {
                map,
                units,
                config: TacticsConfig { connectivity },
                ..TacticsLevel::default()
            };
            level.start().expect("generated levels are valid")
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Today's rules (version 3) find paths on uniform terrain by jump point search, around
    /// the units; version 2, kept for its logs, by A*. For every unit and target: the two cost
    /// the same (or both find none), today's path is a valid walk of that cost for the unit,
    /// and it is exactly the path a `Move` then records (what the editor's preview shows).
    #[test]
    fn todays_paths_cost_what_version_2_paths_cost_and_are_what_moves_take(
        (rules, state) in uniform_world(),
        targets in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..10),
    ) {
        prop_assert_eq!(rules.version(), 3);
        let v2 = TacticsRules::with_version(rules.config.clone(), 2).expect("version 2 is kept");
        prop_assert_eq!(v2.version(), 2);
        let cells = cells_of(&state);
        for (u, t) in targets {
            let units = state.units();
            let from = if units.is_empty() { cells[u.index(cells.len())] } else { units[u.index(units.len())].pos };
            let to = cells[t.index(cells.len())];
            let today = rules.path(&state, from, to, Weight::OPTIMAL);
            let before = v2.path(&state, from, to, Weight::OPTIMAL);
            prop_assert_eq!(today.as_ref().map(|p| p.cost), before.as_ref().map(|p| p.cost), "{} to {}\n{}", from, to, state.render());
            let Some(path) = today else { continue };
            prop_assert_eq!(path.cells.first(), Some(&from));
            prop_assert_eq!(path.cells.last(), Some(&to));
            prop_assert_eq!(check_path(&rules, &state, &path.cells), Ok(path.cost), "{:?}\n{}", path.cells, state.render());
            if let Some(unit) = state.unit_at(from).filter(|_| from != to) {
                let mut after = state.clone();
                let mut events = Vec::new();
                rules.apply(&mut after, &TacticsCommand::Move { unit: unit.id, to }, &mut events).expect("a reachable move");
                let moved = events.iter().find_map(|e| match e {
                    tessera_core::tactics::TacticsEvent::UnitMoved { path, cost, .. } => Some((path.clone(), *cost)),
                    _ => None,
                });
                prop_assert_eq!(moved, Some((path.cells.clone(), path.cost)));
            }
        }
    }
}

/// Only the versions this build keeps can be asked for.
#[test]
fn tactics_rules_keep_versions_2_and_3_only() {
    let config = TacticsConfig::default();
    assert_eq!(TacticsRules::with_version(config.clone(), 2).map(|r| r.version()), Some(2));
    assert_eq!(TacticsRules::with_version(config.clone(), 3).map(|r| r.version()), Some(3));
    assert!(TacticsRules::with_version(config.clone(), 1).is_none());
    assert!(TacticsRules::with_version(config.clone(), 4).is_none());
    let mut rules = TacticsRules::new(config);
    assert!(!rules.set_version(9));
    assert_eq!(rules.version(), 3, "a refused version leaves the rules as they were");
}
