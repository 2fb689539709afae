//! The difficulty estimate: its order on hand-made pairs of levels, its determinism, its reasons.

use proptest::prelude::*;
use tessera_bots::estimate::{self, Limits, UNSOLVED};
use tessera_core::Level;

/// A Sokoban level from its rows (`.xsb` text).
fn sokoban(rows: &str) -> Level {
    let mut levels = tessera_core::sokoban::parse_levels(rows).expect("a Sokoban board");
    levels.remove(0).1
}

/// A corridor where the box is `d` pushes from its goal.
fn corridor(d: usize) -> Level {
    let inner = format!("@${}.", " ".repeat(d - 1));
    let wall = "#".repeat(inner.len() + 2);
    sokoban(&format!("{wall}\n#{inner}#\n{wall}\n"))
}

/// A small PuzzleScript game: push the crates onto the targets.
const GAME: &str = "title Pairs\n\n========\nOBJECTS\n========\n\nBackground\nblack\n\nTarget\nyellow\n\nWall\nbrown\n\nPlayer\nwhite\n\nCrate\norange\n\n=======\nLEGEND\n=======\n\n. = Background\n# = Wall\nP = Player\n* = Crate\nO = Target\n\n=======\nSOUNDS\n=======\n\n================\nCOLLISIONLAYERS\n================\n\nBackground\nTarget\nPlayer, Wall, Crate\n\n======\nRULES\n======\n\n[ > Player | Crate ] -> [ > Player | > Crate ]\n\n==============\nWINCONDITIONS\n==============\n\nAll Target on Crate\n\n=======\nLEVELS\n=======\n\n#######\n#P*.O.#\n#######\n\n#######\n#P*..O#\n#######\n\n#######\n#.....#\n#P*.O.#\n#.....#\n#######\n\n#######\n#.....#\n#P*.OO#\n#.*...#\n#.....#\n#######\n";

fn game_level(k: usize) -> Level {
    tessera_core::puzzlescript::import_level(GAME, None, k)
        .expect("the game imports")
        .0
        .expect("a level")
        .level
}

fn rate(level: &Level) -> estimate::Estimate {
    estimate::estimate_level(level, &Limits::default()).expect("a puzzle level")
}

/// A Sokoban level with one more push to make rates harder.
#[test]
fn sokoban_one_more_push_rates_harder() {
    let (a, b) = (rate(&corridor(2)), rate(&corridor(3)));
    assert!(a.features.solved && b.features.solved);
    assert_eq!((a.features.pushes, b.features.pushes), (2, 3));
    assert!(b.difficulty > a.difficulty, "{} vs {}", a.difficulty, b.difficulty);
}

/// A box that must first be pushed away from its goal: the pushes that take it farther and the
/// detour beyond its distance count, and say so; a straight corridor has neither.
#[test]
fn a_push_away_from_the_goal_is_a_detour() {
    // The box cannot be pushed left (a wall where the player would stand): up, left, down.
    let e = rate(&sokoban("######\n#    #\n#    #\n#.$###\n# @  #\n#    #\n######\n"));
    assert!(e.features.solved);
    assert_eq!(e.features.pushes, 3);
    assert_eq!(e.features.detour, 2, "3 pushes, 1 the least");
    assert_eq!(e.features.away, 1, "the first push takes the box from 1 to 2 from the goal");
    assert!(e.why.iter().any(|w| w == "1 push takes a box farther from the goals"), "{:?}", e.why);
    let c = rate(&corridor(3));
    assert_eq!((c.features.away, c.features.detour), (0, 0));
    assert!(e.difficulty > c.difficulty, "{} vs {}", e.difficulty, c.difficulty);
}

/// A PuzzleScript level with one more push rates harder; one more crate to bring, harder still.
#[test]
fn puzzlescript_one_more_push_rates_harder() {
    let [a, b, c, d] = [1, 2, 3, 4].map(|k| rate(&game_level(k)));
    assert!(a.features.solved && b.features.solved && c.features.solved && d.features.solved);
    assert_eq!(a.features.steps + 1, b.features.steps);
    assert!(b.difficulty > a.difficulty, "{} vs {}", a.difficulty, b.difficulty);
    assert!(d.difficulty > c.difficulty, "{} vs {}", c.difficulty, d.difficulty);
    // The reasons name the steps first when they weigh most, and the rule the solution uses.
    assert_eq!(b.features.steps, 3);
    assert!(b.why.iter().any(|w| w == "3 steps"), "{:?}", b.why);
    assert!(b.why.iter().any(|w| w.contains("1 mechanic")), "{:?}", b.why);
}

/// A level that loses when the box goes the wrong way counts that move as losing.
#[test]
fn a_move_into_a_corner_counts_as_losing() {
    // The box can go up into the corner (lost) or right onto the goal.
    let e = rate(&sokoban("#####\n#   #\n#@$.#\n#####\n"));
    assert!(e.features.solved);
    assert!(e.features.losing >= 1, "{:?}", e.features);
    assert!(e.why.iter().any(|w| w.contains("lose the level")), "{:?}", e.why);
}

/// An unsolvable level (or one past the budget) rates above every solved one, and says why.
#[test]
fn unsolved_rates_highest() {
    let e = rate(&sokoban("#####\n#@$ #\n#  .#\n#####\n"));
    assert!(!e.features.solved);
    assert_eq!(e.difficulty, UNSOLVED);
    assert!(e.why[0].starts_with("not solved within"), "{:?}", e.why);
}

/// The same level and limits give the same estimate, every time.
#[test]
fn the_estimate_is_deterministic() {
    let level = game_level(4);
    let limits = Limits { states: 500, ..Limits::default() };
    let a = estimate::estimate_level(&level, &limits).expect("rated");
    for _ in 0..3 {
        assert_eq!(estimate::estimate_level(&level, &limits).expect("rated"), a);
    }
}

/// A level of a rule set with no solver is refused, not rated.
#[test]
fn a_level_without_a_solver_is_refused() {
    let e = estimate::estimate_level(&Level::classic(), &Limits::default());
    assert!(matches!(e, Err(estimate::EstimateError::NoSolver(_))), "{e:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// In a corridor, each push more rates harder.
    #[test]
    fn a_longer_corridor_rates_harder(d in 1usize..12) {
        let (a, b) = (rate(&corridor(d)), rate(&corridor(d + 1)));
        prop_assert!(b.difficulty > a.difficulty, "{} vs {}", a.difficulty, b.difficulty);
    }

    /// The deterministic logarithm grows with its argument and is exact at powers of two.
    #[test]
    fn lg1_is_monotone(x in 0u64..1 << 40) {
        prop_assert!(estimate::lg1(x + 1) > estimate::lg1(x));
        prop_assert_eq!(estimate::lg1((1u64 << (x % 40)) - 1), (x % 40) as f64);
    }
}
