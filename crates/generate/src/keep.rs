//! What the editor's Generate pane asks of a run beyond the command's options: a template given
//! as rows ([`Options::template`], "More like this" grows from a candidate), cells kept as the
//! template has them ([`Options::locked`], the Keep brush), and each level as soon as it is
//! kept ([`generate_each`], and [`generate_rules_each`] for a rule set's generator: Sokoban,
//! match-3), so a gallery fills while the run goes on.

use crate::game::Prepared;
use crate::run::{Ended, Keeper, Progress, schedule};
use crate::{GenerateError, Level, Options};
use std::sync::atomic::AtomicBool;

/// What [`generate_each`] made: the levels in the order they were kept (not by the curve), and
/// the run's figures.
#[derive(Clone, Debug)]
pub struct Each {
    /// The kept levels, as found.
    pub levels: Vec<Level>,
    /// Candidates taken.
    pub candidates: u64,
    /// Budget states spent.
    pub states: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// How it ended.
    pub ended: Ended,
}

/// [`crate::generate`]'s run (the same candidates, proofs and choices), handing each level to
/// `found` the moment it is kept, and not appending them to a source: the editor's gallery.
pub fn generate_each(
    game: &Prepared,
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
    found: &mut dyn FnMut(&Level),
) -> Result<Each, GenerateError> {
    // The one keep rule `generate` and the join use (repeats, difficulty bands, --count).
    let mut keeper = Keeper::new(options, game.known.clone());
    let eval = |index: u64, stop: &dyn Fn() -> bool| {
        let e = crate::candidate::evaluate(game, options, index, stop);
        (e.level, e.charge)
    };
    let run = schedule(options, interrupt, progress, &eval, &mut |level: Level| {
        let (rows, d) = (level.rows.clone(), level.difficulty);
        let kept = keeper.offer(level, &rows, d);
        if let Some(level) = keeper.kept.last().filter(|_| kept) {
            found(level);
        }
        kept
    });
    Ok(Each {
        levels: keeper.kept,
        candidates: run.taken,
        states: run.spent,
        seconds: run.seconds,
        ended: run.ended,
    })
}

/// [`crate::generate_rules`]'s run (the same candidates and choices), handing each level to
/// `found` the moment it is kept: the editor's gallery for Sokoban and match-3. The outcome's
/// levels are in the curve's order, as the command writes them.
pub fn generate_rules_each(
    g: &'static tessera_core::Generator,
    options: &Options,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
    found: &mut dyn FnMut(&crate::RulesLevel),
) -> Result<crate::RulesOutcome, GenerateError> {
    let mut keeper = Keeper::new(options, crate::rules::known(options));
    let eval = |index: u64, _stop: &dyn Fn() -> bool| crate::rules::evaluate(g, options, index);
    let run = schedule(options, interrupt, progress, &eval, &mut |level: crate::RulesLevel| {
        let (rows, d) = (level.rows.clone(), level.difficulty);
        let kept = keeper.offer(level, &rows, d);
        if let Some(level) = keeper.kept.last().filter(|_| kept) {
            found(level);
        }
        kept
    });
    crate::rules::finish_rules(options, keeper.kept, run)
}

impl Prepared {
    /// The one template's size (width, height), when the run grows from one level.
    pub fn template_size(&self) -> Option<(usize, usize)> {
        match self.templates.as_slice() {
            [t] => Some((t.first().map_or(0, Vec::len), t.len())),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidate::{make, wins};
    use crate::{Budget, generate, prepare};
    use proptest::prelude::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/../../fixtures/games/{name}", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
    }

    /// Warehouse's first level as rows.
    fn warehouse_rows() -> Vec<String> {
        tessera_core::puzzlescript::level_rows(&fixture("warehouse.txt"), 0).unwrap()
    }

    fn cell(rows: &[String], x: usize, y: usize) -> char {
        rows[y].chars().nth(x).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Every candidate keeps every locked cell as the template has it, whatever the seed,
        /// the index and the cells locked.
        #[test]
        fn candidates_keep_locked_cells(seed in 0u64..1000, index in 0u64..1000, picks in proptest::collection::vec((0usize..64, 0usize..64), 1..12), keep_walls: bool) {
            let source = fixture("warehouse.txt");
            let rows = warehouse_rows();
            let (w, h) = (rows[0].chars().count(), rows.len());
            let locked: Vec<(usize, usize)> = picks.into_iter().map(|(x, y)| (x % w, y % h)).collect();
            let opts = Options { seed, template: Some(rows.clone()), locked: locked.clone(), keep_walls, ..Options::default() };
            let game = prepare(&source, &opts).unwrap();
            let grid = make(&game, &opts, index);
            for &(x, y) in &locked {
                prop_assert_eq!(grid[y][x], cell(&rows, x, y));
            }
        }
    }

    #[test]
    fn kept_levels_keep_locked_cells_and_win() {
        let source = fixture("warehouse.txt");
        let rows = warehouse_rows();
        // The player's cell and a crate's: lock them, and a floor cell beside.
        let mut locked = Vec::new();
        for (y, r) in rows.iter().enumerate() {
            for (x, c) in r.chars().enumerate() {
                if c == 'P' || (c == '.' && locked.len() < 2) {
                    locked.push((x, y));
                }
            }
        }
        let opts = Options {
            count: 3,
            budget: Budget::States(400_000),
            level_states: 5_000,
            jobs: 2,
            min_steps: 2,
            template: Some(rows.clone()),
            locked: locked.clone(),
            ..Options::default()
        };
        let game = prepare(&source, &opts).unwrap();
        let mut seen = Vec::new();
        let each = generate_each(&game, &opts, &AtomicBool::new(false), &mut |_| {}, &mut |l| {
            seen.push(l.rows.clone())
        })
        .unwrap();
        assert!(!each.levels.is_empty(), "some level is kept");
        assert_eq!(seen, each.levels.iter().map(|l| l.rows.clone()).collect::<Vec<_>>());
        for level in &each.levels {
            assert_ne!(level.rows, rows, "not the template itself");
            for &(x, y) in &locked {
                assert_eq!(cell(&level.rows, x, y), cell(&rows, x, y), "{:?} at ({x}, {y})", level.rows);
            }
            let (rules, start) = game.start(&level.rows).unwrap();
            assert!(wins(&rules, &start, &level.solution));
        }
    }

    #[test]
    fn generate_each_keeps_what_generate_keeps() {
        let source = fixture("fuse.txt");
        let opts = Options {
            count: 3,
            budget: Budget::States(200_000),
            level_states: 5_000,
            jobs: 2,
            ..Options::default()
        };
        let game = prepare(&source, &opts).unwrap();
        let mut found = 0;
        let each =
            generate_each(&game, &opts, &AtomicBool::new(false), &mut |_| {}, &mut |_| found += 1).unwrap();
        let all = generate(&game, &opts, &AtomicBool::new(false), &mut |_| {}).unwrap();
        assert_eq!(found, each.levels.len());
        let mut a: Vec<_> = each.levels.iter().map(|l| l.rows.clone()).collect();
        let mut b: Vec<_> = all.levels.iter().map(|l| l.rows.clone()).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_eq!((each.candidates, each.states), (all.candidates, all.states));
    }

    #[test]
    fn a_template_grows_levels_of_its_size() {
        let source = fixture("fuse.txt");
        let rows: Vec<String> =
            ["#########", "#.......#", "#P.*..O.#", "#.......#", "#########"].map(String::from).to_vec();
        let opts = Options {
            count: 2,
            budget: Budget::States(300_000),
            level_states: 5_000,
            min_steps: 2,
            template: Some(rows.clone()),
            ..Options::default()
        };
        let game = prepare(&source, &opts).unwrap();
        assert_eq!(game.template_size(), Some((9, 5)));
        let each = generate_each(&game, &opts, &AtomicBool::new(false), &mut |_| {}, &mut |_| {}).unwrap();
        assert!(!each.levels.is_empty());
        for l in &each.levels {
            assert_eq!((l.rows.len(), l.rows[0].len()), (5, 9));
            assert_ne!(l.rows, rows);
        }
    }

    #[test]
    fn bad_templates_and_locks_are_named() {
        let source = fixture("fuse.txt");
        let with = |template: Vec<&str>, locked: Vec<(usize, usize)>, size| {
            let opts = Options {
                template: Some(template.into_iter().map(String::from).collect()),
                locked,
                size,
                ..Options::default()
            };
            prepare(&source, &opts).unwrap_err().to_string()
        };
        assert_eq!(
            with(vec!["###", "#Z#", "###"], vec![], None),
            "the template level: row 2 column 2: 'Z' is not a glyph of the game's legend"
        );
        assert_eq!(
            with(vec!["###", "#P", "###"], vec![], None),
            "the template level: row 2 has 2 cells, row 1 has 3"
        );
        assert_eq!(with(vec![], vec![], None), "the template level: it has no cells");
        assert_eq!(
            with(vec!["####", "#PO#", "####"], vec![(4, 0)], None),
            "locked cells: (4, 0) is outside the template, which is 4x3"
        );
        assert_eq!(
            with(vec!["####", "#PO#", "####"], vec![(1, 1)], Some((6, 6))),
            "locked cells: they keep the template's cells, so not with --size"
        );
        let all = Options { locked: vec![(0, 0)], ..Options::default() };
        let two = fixture("warehouse.txt");
        assert!(prepare(&two, &all).unwrap_err().to_string().contains("grow from one"));
    }
}
