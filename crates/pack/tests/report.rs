//! The curve's flags, and its outputs.

use tessera_pack::Band;
use tessera_pack::report::{Flag, Standing, flags};

fn rated(rate: f64, interval: [f64; 2]) -> Standing {
    Standing::Rated { rate, interval, capped: false }
}

#[test]
fn a_level_much_harder_than_both_neighbours_is_flagged() {
    let targets = vec![None, Some(Band { win_rate: [0.5, 1.0] }), None, None];
    let points =
        vec![rated(0.8, [0.7, 0.9]), rated(0.2, [0.1, 0.3]), rated(0.75, [0.6, 0.85]), Standing::NotRated];
    assert_eq!(flags(&targets, &points, 0), vec![]);
    assert_eq!(flags(&targets, &points, 1), vec![Flag::OutsideBand, Flag::HarderThanNeighbours]);
    assert_eq!(flags(&targets, &points, 3), vec![Flag::NotRated]);
    // Overlapping intervals: not flagged.
    let points = vec![rated(0.8, [0.25, 0.9]), rated(0.2, [0.1, 0.3]), rated(0.75, [0.6, 0.85])];
    assert_eq!(flags(&targets[..3], &points, 1), vec![Flag::OutsideBand]);
    // At the end of the pack, one neighbour is enough.
    let points = vec![rated(0.8, [0.7, 0.9]), rated(0.1, [0.0, 0.3])];
    assert_eq!(flags(&[None, None], &points, 1), vec![Flag::HarderThanNeighbours]);
    // A level that cannot be won is no neighbour.
    let points = vec![rated(0.8, [0.7, 0.9]), rated(0.1, [0.0, 0.3]), Standing::NoObjective];
    assert_eq!(flags(&[None, None, None], &points, 1), vec![Flag::HarderThanNeighbours]);
}

/// Issue 36.8: beside a level with no rating there is nothing to compare with, and a level whose
/// games hit the move cap (counted as lost) is not called harder for it.
#[test]
fn no_harder_flag_beside_an_unrated_level_or_on_a_capped_one() {
    let easy = rated(0.8, [0.7, 0.9]);
    let points = vec![easy, rated(0.1, [0.0, 0.3]), Standing::NotRated];
    assert_eq!(flags(&[None, None, None], &points, 1), vec![]);
    let capped = Standing::Rated { rate: 0.0, interval: [0.0, 0.1], capped: true };
    assert_eq!(flags(&[None, None, None], &[easy, capped, easy], 1), vec![]);
    // A capped neighbour still counts: its true rate is at least what it shows.
    let capped_easy = Standing::Rated { rate: 0.8, interval: [0.7, 0.9], capped: true };
    assert_eq!(
        flags(&[None, None], &[capped_easy, rated(0.1, [0.0, 0.3])], 1),
        vec![Flag::HarderThanNeighbours]
    );
}

/// Issue 63.12: the flag's words do not say "both neighbours" of a level compared with one (a
/// neighbour that cannot be won is left out, as is the missing one at an end of the pack).
#[test]
fn the_harder_flag_says_what_it_was_compared_with() {
    let entry = tessera_pack::report::CurveEntry {
        index: 2,
        title: "Locks".into(),
        level: "locks.json".into(),
        rule_set: "sokoban".into(),
        level_hash: "0".into(),
        target: None,
        rating: None,
        estimate: None,
        flags: vec![Flag::HarderThanNeighbours],
    };
    assert_eq!(entry.flag_words(), vec!["harder than the rated levels beside it".to_string()]);
}
