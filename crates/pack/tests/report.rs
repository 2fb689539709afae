//! The curve's flags, and its outputs.

use tessera_pack::Band;
use tessera_pack::report::{Flag, flags};

#[test]
fn a_level_much_harder_than_both_neighbours_is_flagged() {
    let targets = vec![None, Some(Band { win_rate: [0.5, 1.0] }), None, None];
    let points = vec![Some((0.8, [0.7, 0.9])), Some((0.2, [0.1, 0.3])), Some((0.75, [0.6, 0.85])), None];
    assert_eq!(flags(&targets, &points, 0), vec![]);
    assert_eq!(flags(&targets, &points, 1), vec![Flag::OutsideBand, Flag::HarderThanNeighbours]);
    assert_eq!(flags(&targets, &points, 3), vec![Flag::NotRated]);
    // Overlapping intervals: not flagged.
    let points = vec![Some((0.8, [0.25, 0.9])), Some((0.2, [0.1, 0.3])), Some((0.75, [0.6, 0.85]))];
    assert_eq!(flags(&targets[..3], &points, 1), vec![Flag::OutsideBand]);
    // At the end of the pack, one neighbour is enough.
    let points = vec![Some((0.8, [0.7, 0.9])), Some((0.1, [0.0, 0.3]))];
    assert_eq!(flags(&[None, None], &points, 1), vec![Flag::HarderThanNeighbours]);
}
