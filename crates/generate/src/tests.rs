//! The generator's invariants: every level kept wins by its solution and has no object that
//! could go; candidates depend on the seed and their index alone; the output keeps the source
//! and reads back as the levels written.

use crate::candidate::{make, wins};
use crate::game::prepare;
use crate::{Budget, Options, append_levels, generate};
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;
use tessera_core::puzzlescript::{engine, level_rows, playable_count};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../../fixtures/games/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn options(count: usize, states: u64) -> Options {
    Options { count, budget: Budget::States(states), level_states: 5_000, jobs: 2, ..Options::default() }
}

#[test]
fn every_object_of_a_kept_level_matters() {
    for name in ["fuse.txt", "warehouse.txt"] {
        let source = fixture(name);
        let opts = options(3, 200_000);
        let game = prepare(&source, &opts).unwrap();
        let outcome = generate(&game, &opts, &AtomicBool::new(false), &mut |_| {}).unwrap();
        assert_eq!(outcome.levels.len(), 3, "{name}");
        for level in &outcome.levels {
            let (rules, start) = game.start(&level.rows).unwrap();
            assert!(wins(&rules, &start, &level.solution), "{name}: the solution wins");
            assert!(level.steps() >= opts.min_steps);
            let grid: Vec<Vec<char>> = level.rows.iter().map(|r| r.chars().collect()).collect();
            let (h, w) = (grid.len(), grid[0].len());
            for y in 0..h {
                for x in 0..w {
                    let c = grid[y][x];
                    let border = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                    if c == game.floor || (border && Some(c) == game.wall) {
                        continue;
                    }
                    let objects = game.objects_of(c).unwrap().to_vec();
                    for k in 0..objects.len() {
                        let mut rest = objects.clone();
                        rest.remove(k);
                        let Some(g) = game.glyph_for(&rest) else { continue };
                        let mut less = grid.clone();
                        less[y][x] = g;
                        let rows: Vec<String> = less.iter().map(|r| r.iter().collect()).collect();
                        if let Ok((rules, start)) = game.start(&rows) {
                            assert!(
                                start.is_won() || !wins(&rules, &start, &level.solution),
                                "{name}: {} at ({x}, {y}) could go from {:?}",
                                objects[k],
                                level.rows
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_level_that_is_the_games_own_or_trivial_is_never_kept() {
    let source = fixture("warehouse.txt");
    let opts = Options { min_steps: 1, ..options(4, 300_000) };
    let game = prepare(&source, &opts).unwrap();
    let outcome = generate(&game, &opts, &AtomicBool::new(false), &mut |_| {}).unwrap();
    for level in &outcome.levels {
        assert!(!game.known.contains(&level.rows), "{:?} is one of the game's levels", level.rows);
    }
    let mut rows: Vec<_> = outcome.levels.iter().map(|l| l.rows.clone()).collect();
    rows.sort();
    rows.dedup();
    assert_eq!(rows.len(), outcome.levels.len(), "no level repeats another");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Candidate `i` is a function of the seed and `i` alone, and keeps the template's size.
    #[test]
    fn candidates_depend_on_seed_and_index_only(seed in any::<u64>(), index in 0u64..1_000_000) {
        let source = fixture("fuse.txt");
        let opts = Options { seed, ..Options::default() };
        let game = prepare(&source, &opts).unwrap();
        let a = make(&game, &opts, index);
        let b = make(&game, &opts, index);
        prop_assert_eq!(&a, &b);
        prop_assert!(game.templates.iter().any(|t| t.len() == a.len() && t[0].len() == a[0].len()));
    }

    /// The output is the source, byte for byte, then the levels, which read back as written.
    #[test]
    fn appended_levels_read_back(cells in proptest::collection::vec(proptest::collection::vec(0usize..4, 5), 1..4), crlf in any::<bool>()) {
        let mut source = fixture("fuse.txt");
        if crlf {
            source = source.replace('\n', "\r\n");
        }
        let glyphs = ['.', '#', '*', 'O'];
        let level: Vec<String> = std::iter::once("#####".to_string())
            .chain(cells.iter().map(|r| r.iter().map(|&i| glyphs[i]).collect::<String>()))
            .chain(std::iter::once("##P##".to_string()))
            .collect();
        let before = playable_count(&engine::compile(&source).unwrap());
        let out = append_levels(&source, &[level.clone(), level.clone()]);
        prop_assert!(out.starts_with(&source));
        let game = engine::compile(&out).unwrap();
        prop_assert_eq!(playable_count(&game), before + 2);
        prop_assert_eq!(level_rows(&out, before).unwrap(), level.clone());
        prop_assert_eq!(level_rows(&out, before + 1).unwrap(), level);
    }
}

#[test]
fn bands_cut_the_range_evenly() {
    use crate::band;
    assert_eq!(band((10.0, 20.0), 4, 10.0), Some(0));
    assert_eq!(band((10.0, 20.0), 4, 12.49), Some(0));
    assert_eq!(band((10.0, 20.0), 4, 12.5), Some(1));
    assert_eq!(band((10.0, 20.0), 4, 19.9), Some(3));
    assert_eq!(band((10.0, 20.0), 4, 20.0), Some(3), "the top end is in the last band");
    assert_eq!(band((10.0, 20.0), 4, 9.99), None);
    assert_eq!(band((10.0, 20.0), 4, 20.01), None);
    assert_eq!(band((10.0, 10.0), 4, 10.0), None, "a point has no bands");
}

/// Issue 64.6: the rising curve orders the levels by `estimate_level` (what `tessera
/// difficulty` gives the level in the output), easy to hard; the flat one keeps them as found.
#[test]
fn the_rising_curve_orders_by_the_difficulty_estimate() {
    let source = fixture("warehouse.txt");
    let opts = Options { count: 4, ..options(4, 600_000) };
    let game = prepare(&source, &opts).unwrap();
    let rising = generate(&game, &opts, &AtomicBool::new(false), &mut |_| {}).unwrap();
    assert_eq!(rising.levels.len(), 4);
    let limits = tessera_bots::estimate::Limits::default();
    for (k, level) in rising.levels.iter().enumerate() {
        let (found, _) =
            tessera_core::puzzlescript::import_level(&rising.source, None, game.playable + k + 1).unwrap();
        let est = tessera_bots::estimate::estimate_level(&found.unwrap().level, &limits).unwrap();
        assert_eq!(
            (est.difficulty, &est.why),
            (level.difficulty, &level.why),
            "level {}",
            game.playable + k + 1
        );
    }
    let d: Vec<f64> = rising.levels.iter().map(|l| l.difficulty).collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "rising: {d:?}");
    let flat_opts = Options { curve: crate::Curve::Flat, ..opts.clone() };
    let flat = generate(&game, &flat_opts, &AtomicBool::new(false), &mut |_| {}).unwrap();
    let c: Vec<u64> = flat.levels.iter().map(|l| l.candidate).collect();
    assert!(c.windows(2).all(|w| w[0] < w[1]), "flat: as found {c:?}");
    let mut a: Vec<_> = flat.levels.iter().map(|l| l.candidate).collect();
    let mut b: Vec<_> = rising.levels.iter().map(|l| l.candidate).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "the same levels, in another order");
}

/// Issue 64.6: with `--difficulty A..B` the rising curve keeps one level in each of `count`
/// equal bands of the range: spread from easy to hard, every one inside it.
#[test]
fn a_difficulty_range_is_spread_over() {
    let source = fixture("warehouse.txt");
    let free = Options { count: 8, min_steps: 2, ..options(8, 2_000_000) };
    let game = prepare(&source, &free).unwrap();
    let all = generate(&game, &free, &AtomicBool::new(false), &mut |_| {}).unwrap();
    let d: Vec<f64> = all.levels.iter().map(|l| l.difficulty).collect();
    let (lo, hi) = (d[0], d[d.len() - 1]);
    assert!(hi > lo, "{d:?}");
    let opts = Options { count: 3, difficulty: Some((lo, hi)), ..free.clone() };
    let spread = generate(&game, &opts, &AtomicBool::new(false), &mut |_| {}).unwrap();
    let bands: Vec<Option<usize>> =
        spread.levels.iter().map(|l| crate::band((lo, hi), 3, l.difficulty)).collect();
    let mut seen = bands.clone();
    seen.dedup();
    assert_eq!(seen.len(), bands.len(), "one level a band: {bands:?}");
    assert!(bands.iter().all(Option::is_some), "inside the range");
    assert!(bands.windows(2).all(|w| w[0] < w[1]), "easy to hard: {bands:?}");
}
