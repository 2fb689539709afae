//! Tactics search speed. Run: `cargo bench -p tessera-core --bench tactics`.
//!
//! - `astar_512`: our A* (`PathFinder::astar`, w = 1, 8-connected, no corner cutting) against the
//!   `pathfinding` crate's `astar` with the same costs (1000 straight, 1414 diagonal), the same
//!   octile heuristic and the same start/goal pairs on generated 512×512 maps; the costs are
//!   asserted equal before timing. Each iteration solves every pair once.
//! - `jps`: one group, four searches on three sets of problems: our jump point search
//!   (`PathFinder::path`, which picks it on uniform terrain), our A* (`PathFinder::astar`), the
//!   `pathfinding` crate's `astar` and the `grid_pathfinding` crate's JPS, on the generated
//!   512×512 maps (the 40 problems of `astar_512`), on the Moving AI `maze512-32-9` scenario
//!   (every 100th of its 8,010 problems: 80, all bucket lengths) and on `arena` (all 160), read
//!   from `../shared/benchmarks/movingai` (skipped when absent). Our JPS's costs are asserted
//!   equal to our A*'s and to `pathfinding`'s before timing. `grid_pathfinding` allows corner
//!   cutting and costs steps 70/99, so its paths can be shorter than the others' on maps with
//!   diagonal gaps: it is timed on the same start/goal pairs, not checked.
//! - `rules_path`: what a move, the editor's path preview and `tessera path` pay, through
//!   `TacticsRules::path`: today's rules (version 3: jump point search on uniform terrain, on
//!   a copy of the map's bit planes with the units blocked) against version 2's (A*), on the
//!   first generated 512×512 map and on maze512 (when present) with 64 units standing on it,
//!   20 problems each; the costs are asserted equal before timing.
//! - `range_64`: `reachable` for a unit with 20 movement points on a 64×64 map of mixed terrain
//!   (plain, forest, hills, walls), 4-connected; one query per iteration.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tessera_core::Pos;
use tessera_core::tactics::movingai::{parse_map, parse_scen};
use tessera_core::tactics::{
    Connectivity, Cost, DIAGONAL, PathFinder, STEP, TacticsLevel, Terrain, TerrainType, UnitSpec, Weight,
};

/// A small deterministic generator for the maps (not the game's).
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A 512×512 map: scattered walls (`density` percent) plus long wall segments with gaps, so
/// paths have to detour.
fn map512(seed: u64, density: u64) -> Terrain {
    let mut rng = XorShift(seed);
    let n = 512usize;
    let mut rows = vec![vec![b'.'; n]; n];
    for row in rows.iter_mut() {
        for c in row.iter_mut() {
            if rng.below(100) < density {
                *c = b'@';
            }
        }
    }
    for _ in 0..60 {
        let (x, y, len) =
            (rng.below(n as u64) as usize, rng.below(n as u64) as usize, 20 + rng.below(200) as usize);
        let vertical = rng.below(2) == 0;
        for k in 0..len {
            let (cx, cy) = if vertical { (x, y + k) } else { (x + k, y) };
            if cx < n && cy < n && k % 37 != 0 {
                rows[cy][cx] = b'@';
            }
        }
    }
    let rows: Vec<String> = rows.into_iter().map(|r| String::from_utf8(r).unwrap()).collect();
    Terrain::from_rows(TerrainType::movingai_legend(), &rows, 1024).unwrap()
}

/// `count` start/goal pairs of passable cells at least 200 apart that are connected.
fn pairs(terrain: &Terrain, seed: u64, count: usize) -> Vec<(Pos, Pos, Cost)> {
    let mut rng = XorShift(seed);
    let mut finder = PathFinder::new();
    let mut out = Vec::new();
    let size = terrain.size();
    while out.len() < count {
        let a = Pos::new(rng.below(512) as u16, rng.below(512) as u16);
        let b = Pos::new(rng.below(512) as u16, rng.below(512) as u16);
        if !terrain.passable(a) || !terrain.passable(b) || a.manhattan(b) < 200 {
            continue;
        }
        if let Some(c) = finder.path(terrain, Connectivity::Eight, a, b, Weight::OPTIMAL) {
            out.push((a, b, c));
        }
    }
    assert!(size.area() == 512 * 512);
    out
}

fn octile(a: (u32, u32), b: (u32, u32)) -> Cost {
    let dx = Cost::from(a.0.abs_diff(b.0));
    let dy = Cost::from(a.1.abs_diff(b.1));
    STEP * dx.max(dy) + (DIAGONAL - STEP) * dx.min(dy)
}

/// The `pathfinding` crate's A* on the same graph: nodes are flat indices, successors the
/// enterable neighbours with the same costs and corner rule.
fn reference(terrain: &Terrain, from: Pos, to: Pos) -> Option<Cost> {
    let (w, h) = (u32::from(terrain.size().width), i64::from(terrain.size().height));
    let wi = i64::from(w);
    let m = terrain.multipliers();
    let open = |x: i64, y: i64| x >= 0 && y >= 0 && x < wi && y < h && m[(y * wi + x) as usize] != 0;
    let goal = u32::from(to.y) * w + u32::from(to.x);
    let goal_xy = (u32::from(to.x), u32::from(to.y));
    pathfinding::directed::astar::astar(
        &(u32::from(from.y) * w + u32::from(from.x)),
        |&i| {
            let (x, y) = (i64::from(i % w), i64::from(i / w));
            let mut next = Vec::with_capacity(8);
            for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)] {
                let (nx, ny) = (x + dx, y + dy);
                if !open(nx, ny) {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal && !(open(nx, y) && open(x, ny)) {
                    continue;
                }
                let base = if diagonal { DIAGONAL } else { STEP };
                next.push(((ny * wi + nx) as u32, base * Cost::from(m[(ny * wi + nx) as usize])));
            }
            next
        },
        |&i| octile((i % w, i / w), goal_xy),
        |&i| i == goal,
    )
    .map(|(_, c)| c)
}

fn astar(c: &mut Criterion) {
    let maps = [map512(0x9e37_79b9_7f4a_7c15, 20), map512(0x2545_f491_4f6c_dd1d, 30)];
    let problems: Vec<(usize, Pos, Pos, Cost)> = maps
        .iter()
        .enumerate()
        .flat_map(|(k, t)| pairs(t, 17 + k as u64, 20).into_iter().map(move |(a, b, c)| (k, a, b, c)))
        .collect();
    for &(k, a, b, cost) in &problems {
        assert_eq!(reference(&maps[k], a, b), Some(cost), "map {k}: {a} to {b}");
    }
    let mut group = c.benchmark_group("astar_512");
    group.throughput(Throughput::Elements(problems.len() as u64));
    group.sample_size(20);
    let mut finder = PathFinder::new();
    group.bench_function("tessera", |bench| {
        bench.iter(|| {
            let mut total = 0;
            for &(k, a, b, _) in &problems {
                total += finder.astar(&maps[k], Connectivity::Eight, a, b, Weight::OPTIMAL).unwrap_or(0);
            }
            black_box(total)
        })
    });
    group.bench_function("pathfinding", |bench| {
        bench.iter(|| {
            let mut total = 0;
            for &(k, a, b, _) in &problems {
                total += reference(&maps[k], a, b).unwrap_or(0);
            }
            black_box(total)
        })
    });
    group.finish();
}

/// The `grid_pathfinding` crate's grid of `terrain` (blocked = impassable), components made.
fn grid_of(terrain: &Terrain) -> grid_pathfinding::PathingGrid {
    use grid_util::grid::ValueGrid;
    let size = terrain.size();
    let mut grid =
        grid_pathfinding::PathingGrid::new(usize::from(size.width), usize::from(size.height), false);
    for p in size.cells() {
        if !terrain.passable(p) {
            grid.set(i32::from(p.x), i32::from(p.y), true);
        }
    }
    grid.generate_components();
    grid
}

/// The `grid_pathfinding` crate's JPS: the number of cells on its path (to keep the result used).
fn grid_path(grid: &grid_pathfinding::PathingGrid, from: Pos, to: Pos) -> usize {
    let point = |p: Pos| grid_util::point::Point::new(i32::from(p.x), i32::from(p.y));
    grid.get_path_single_goal(point(from), point(to), false).map_or(0, |p| p.len())
}

/// The problems of a Moving AI map and scenario in `../shared/benchmarks/movingai` (or
/// `$TESSERA_BENCHMARKS/movingai`, for a checkout elsewhere), every `stride`-th; `None` when the
/// files are not there.
fn movingai(name: &str, stride: usize) -> Option<(Terrain, Vec<(Pos, Pos)>)> {
    let root = std::env::var_os("TESSERA_BENCHMARKS").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks"),
        std::path::PathBuf::from,
    );
    let dir = root.join("movingai");
    let map = std::fs::read_to_string(dir.join(format!("{name}.map"))).ok()?;
    let scen = std::fs::read_to_string(dir.join(format!("{name}.map.scen"))).ok()?;
    let terrain = parse_map(&map).expect("a Moving AI map");
    let problems = parse_scen(&scen).expect("a Moving AI scenario");
    Some((terrain, problems.iter().step_by(stride).map(|p| (p.start, p.goal)).collect()))
}

/// A named set of problems: its maps, and (map index, start, goal) per problem.
type ProblemSet = (&'static str, Vec<Terrain>, Vec<(usize, Pos, Pos)>);

fn jps(c: &mut Criterion) {
    let mut sets: Vec<ProblemSet> = Vec::new();
    let maps = vec![map512(0x9e37_79b9_7f4a_7c15, 20), map512(0x2545_f491_4f6c_dd1d, 30)];
    let problems = (0..maps.len())
        .flat_map(|k| pairs(&maps[k], 17 + k as u64, 20).into_iter().map(move |(a, b, _)| (k, a, b)))
        .collect();
    sets.push(("generated512", maps, problems));
    for (name, stride) in [("maze512-32-9", 100), ("arena", 1)] {
        match movingai(name, stride) {
            Some((terrain, problems)) => {
                sets.push((name, vec![terrain], problems.into_iter().map(|(a, b)| (0, a, b)).collect()))
            }
            None => println!("note: ../shared/benchmarks/movingai/{name}.map not found; skipping it"),
        }
    }
    let mut group = c.benchmark_group("jps");
    group.sample_size(10);
    let mut finder = PathFinder::new();
    for (name, maps, problems) in &sets {
        let grids: Vec<_> = maps.iter().map(grid_of).collect();
        for &(k, a, b) in problems {
            let t = &maps[k];
            let astar = finder.astar(t, Connectivity::Eight, a, b, Weight::OPTIMAL);
            assert!(astar.is_some(), "{name}: {a} to {b} has a path");
            assert_eq!(
                finder.path(t, Connectivity::Eight, a, b, Weight::OPTIMAL),
                astar,
                "{name}: {a} to {b}"
            );
            assert_eq!(reference(t, a, b), astar, "{name}: {a} to {b}");
            assert!(grid_path(&grids[k], a, b) > 0, "{name}: grid_pathfinding finds {a} to {b}");
        }
        group.throughput(Throughput::Elements(problems.len() as u64));
        group.bench_function(BenchmarkId::new("tessera_jps", name), |bench| {
            bench.iter(|| {
                let mut total = 0;
                for &(k, a, b) in problems {
                    total += finder.path(&maps[k], Connectivity::Eight, a, b, Weight::OPTIMAL).unwrap_or(0);
                }
                black_box(total)
            })
        });
        group.bench_function(BenchmarkId::new("tessera_astar", name), |bench| {
            bench.iter(|| {
                let mut total = 0;
                for &(k, a, b) in problems {
                    total += finder.astar(&maps[k], Connectivity::Eight, a, b, Weight::OPTIMAL).unwrap_or(0);
                }
                black_box(total)
            })
        });
        group.bench_function(BenchmarkId::new("pathfinding_astar", name), |bench| {
            bench.iter(|| {
                let mut total = 0;
                for &(k, a, b) in problems {
                    total += reference(&maps[k], a, b).unwrap_or(0);
                }
                black_box(total)
            })
        });
        group.bench_function(BenchmarkId::new("grid_pathfinding_jps", name), |bench| {
            bench.iter(|| {
                let mut total = 0;
                for &(k, a, b) in problems {
                    total += grid_path(&grids[k], a, b);
                }
                black_box(total)
            })
        });
    }
    group.finish();
}

fn rules_path(c: &mut Criterion) {
    use tessera_core::tactics::TacticsRules;
    let mut maps = vec![("generated512", map512(0x9e37_79b9_7f4a_7c15, 20))];
    match movingai("maze512-32-9", 1) {
        Some((terrain, _)) => maps.push(("maze512-32-9", terrain)),
        None => println!("note: ../shared/benchmarks/movingai/maze512-32-9.map not found; skipping it"),
    }
    let mut group = c.benchmark_group("rules_path");
    group.sample_size(10);
    for (name, terrain) in maps {
        let problems = pairs(&terrain, 5, 20);
        let mut rng = XorShift(0xfeed_beef);
        let size = terrain.size();
        let mut units = Vec::new();
        while units.len() < 64 {
            let p =
                Pos::new(rng.below(u64::from(size.width)) as u16, rng.below(u64::from(size.height)) as u16);
            let taken = units.iter().any(|u: &UnitSpec| (u.x, u.y) == (p.x, p.y));
            let endpoint = problems.iter().any(|&(a, b, _)| a == p || b == p);
            if terrain.passable(p) && !taken && !endpoint {
                units.push(UnitSpec { team: 0, x: p.x, y: p.y, movement: 5 });
            }
        }
        let level = TacticsLevel {
            map: terrain.rows(),
            legend: Some(TerrainType::movingai_legend()),
            units,
            config: tessera_core::tactics::TacticsConfig { connectivity: Connectivity::Eight },
            ..TacticsLevel::default()
        };
        let (today, state) = level.start().expect("a valid level");
        let v2 = TacticsRules::with_version(today.config.clone(), 2).expect("version 2 is kept");
        for &(a, b, _) in &problems {
            let want = v2.path(&state, a, b, Weight::OPTIMAL).map(|p| p.cost);
            assert_eq!(today.path(&state, a, b, Weight::OPTIMAL).map(|p| p.cost), want, "{name}: {a} to {b}");
        }
        group.throughput(Throughput::Elements(problems.len() as u64));
        for (label, rules) in [("v3_jps", &today), ("v2_astar", &v2)] {
            group.bench_function(BenchmarkId::new(label, name), |bench| {
                bench.iter(|| {
                    let mut total = 0;
                    for &(a, b, _) in &problems {
                        total += rules.path(&state, a, b, Weight::OPTIMAL).map_or(0, |p| p.cost);
                    }
                    black_box(total)
                })
            });
        }
    }
    group.finish();
}

fn range(c: &mut Criterion) {
    let mut rng = XorShift(0x1234_5678_9abc_def1);
    let map: Vec<String> = (0..64)
        .map(|_| {
            (0..64)
                .map(|_| match rng.below(10) {
                    0 | 1 => 'f',
                    2 => 'h',
                    3 => '#',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    let mut map = map;
    map[32].replace_range(32..33, ".");
    let level = TacticsLevel {
        map,
        units: vec![UnitSpec { team: 0, x: 32, y: 32, movement: 20 }],
        ..TacticsLevel::default()
    };
    let (rules, state) = level.start().unwrap();
    let unit = state.units()[0].id;
    let mut finder = PathFinder::new();
    let mut out = Vec::new();
    rules.reachable_into(&state, unit, &mut finder, &mut out);
    assert!(out.len() > 300, "{} cells in range", out.len());
    let mut group = c.benchmark_group("range_64");
    group.throughput(Throughput::Elements(1));
    group.bench_function("reachable_20_points", |bench| {
        bench.iter(|| {
            rules.reachable_into(&state, unit, &mut finder, &mut out);
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, astar, jps, rules_path, range);
criterion_main!(benches);
