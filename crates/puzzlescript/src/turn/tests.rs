//! The turn engine's tests.

use super::moving_cells;

#[test]
fn moving_cells_finds_each_moving_cell_once_across_still_runs() {
    let lc = 3;
    let mut movements = vec![0u8; 100 * lc];
    for (cell, layer) in [(0, 2), (21, 0), (21, 1), (22, 2), (99, 0)] {
        movements[cell * lc + layer] = 1;
    }
    assert_eq!(moving_cells(&movements, lc), vec![0, 21, 22, 99]);
    assert!(moving_cells(&vec![0u8; 7 * lc], lc).is_empty());
    assert!(moving_cells(&[], 0).is_empty());
}

proptest::proptest! {
    /// The moving cells are exactly the cells with a movement byte set, ascending, once each,
    /// whatever the layers a cell has and wherever the movements fall in the 64-byte runs.
    #[test]
    fn moving_cells_are_the_cells_with_some_movement(
        lc in 1usize..12,
        cells in 0usize..200,
        set in proptest::collection::vec((0usize..2400, 1u8..32), 0..12),
    ) {
        let mut movements = vec![0u8; cells * lc];
        for (at, m) in set {
            if let Some(b) = movements.get_mut(at) {
                *b = m;
            }
        }
        let naive: Vec<usize> =
            (0..cells).filter(|&c| movements[c * lc..(c + 1) * lc].iter().any(|m| *m != 0)).collect();
        proptest::prop_assert_eq!(moving_cells(&movements, lc), naive);
    }
}
