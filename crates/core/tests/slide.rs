//! Invariants of `slide` (2048)'s own rules over random boards. Determinism, undo and redo are
//! the conformance kit's (`crates/conformance`).

use proptest::prelude::*;
use tessera_core::slide::{SlideCommand, SlideEvent, SlideRules, SlideState};
use tessera_core::{Dir, Pos, Rules, Size};

fn dir() -> impl Strategy<Value = Dir> {
    prop::sample::select(Dir::ALL.to_vec())
}

/// A random board: 1×1 to 6×6, each cell empty or 2^1..2^6.
fn board() -> impl Strategy<Value = SlideState> {
    sized_board(6, 6)
}

/// A random board up to `max × max`, tiles up to 2^`max_exp`.
fn sized_board(max: usize, max_exp: u32) -> impl Strategy<Value = SlideState> {
    (1usize..=max, 1usize..=max, any::<u64>()).prop_flat_map(move |(w, h, seed)| {
        prop::collection::vec(prop::option::weighted(0.6, 1u32..=max_exp), w * h).prop_map(move |cells| {
            let values: Vec<u32> = cells.iter().map(|c| c.map_or(0, |k| 1 << k)).collect();
            SlideState::from_values(Size::new(w, h, 256).unwrap(), &values, seed).unwrap()
        })
    })
}

fn sum(s: &SlideState) -> u64 {
    s.tiles().map(|(_, t)| u64::from(t.value)).sum()
}

/// RULES.md's line rule, written plainly: condense toward the edge (index 0), then merge equal
/// neighbours walking from the edge, each tile at most once.
fn reference_line(line: &[u32]) -> Vec<u32> {
    let tiles: Vec<u32> = line.iter().copied().filter(|&v| v != 0).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tiles.len() {
        if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] {
            out.push(tiles[i] * 2);
            i += 2;
        } else {
            out.push(tiles[i]);
            i += 1;
        }
    }
    out.resize(line.len(), 0);
    out
}

/// The board after sliding `values` toward `d`, by the reference rule.
fn reference_slide(values: &[Vec<u32>], d: Dir) -> Vec<Vec<u32>> {
    let (h, w) = (values.len(), values[0].len());
    let mut out = values.to_vec();
    match d {
        Dir::Left | Dir::Right => {
            for (y, row) in values.iter().enumerate() {
                let mut line = row.clone();
                if d == Dir::Right {
                    line.reverse();
                }
                let mut done = reference_line(&line);
                if d == Dir::Right {
                    done.reverse();
                }
                out[y] = done;
            }
        }
        Dir::Up | Dir::Down => {
            for x in 0..w {
                let mut line: Vec<u32> = (0..h).map(|y| values[y][x]).collect();
                if d == Dir::Down {
                    line.reverse();
                }
                let mut done = reference_line(&line);
                if d == Dir::Down {
                    done.reverse();
                }
                for y in 0..h {
                    out[y][x] = done[y];
                }
            }
        }
    }
    out
}

proptest! {
    #[test]
    /// Boards up to 20×20, and tiles up to 2^17 so that four-cell lines take both the planned
    /// path (tiles up to 2^15) and the general one.
    fn slides_match_the_reference_rule(mut s in prop_oneof![sized_board(20, 6), sized_board(5, 17)], d in dir()) {
        let rules = SlideRules::default();
        let before = s.values();
        let mut events = Vec::new();
        if rules.apply(&mut s, &SlideCommand::Slide(d), &mut events).is_ok() {
            // Take the spawn back out and compare with the reference.
            let mut after = s.values();
            for e in &events {
                if let SlideEvent::Spawned { at, .. } = e {
                    after[usize::from(at.y)][usize::from(at.x)] = 0;
                }
            }
            prop_assert_eq!(after, reference_slide(&before, d));
        } else {
            prop_assert_eq!(reference_slide(&before, d), before);
        }
    }

    #[test]
    fn tile_sum_is_conserved_plus_the_spawn(mut s in board(), d in dir()) {
        let rules = SlideRules::default();
        let before = sum(&s);
        let mut events = Vec::new();
        if rules.apply(&mut s, &SlideCommand::Slide(d), &mut events).is_ok() {
            let spawned: Vec<u32> = events.iter().filter_map(|e| match e {
                SlideEvent::Spawned { value, .. } => Some(*value),
                _ => None,
            }).collect();
            prop_assert_eq!(spawned.len(), 1);
            prop_assert_eq!(sum(&s), before + u64::from(spawned[0]));
        }
    }

    #[test]
    fn no_tile_merges_twice_in_one_move(mut s in board(), d in dir()) {
        let rules = SlideRules::default();
        let mut events = Vec::new();
        if rules.apply(&mut s, &SlideCommand::Slide(d), &mut events).is_ok() {
            let mut ids = Vec::new();
            let mut cells: Vec<Pos> = Vec::new();
            for e in &events {
                if let SlideEvent::Merged { tile, absorbed, to, .. } = e {
                    ids.push(*tile);
                    ids.push(*absorbed);
                    cells.push(*to);
                }
            }
            let n = ids.len();
            ids.sort();
            ids.dedup();
            prop_assert_eq!(ids.len(), n, "a tile took part in two merges");
            let m = cells.len();
            cells.sort();
            cells.dedup();
            prop_assert_eq!(cells.len(), m, "two merges landed on one cell");
        }
    }

    #[test]
    fn rejected_exactly_when_no_tile_can_move(s in board(), d in dir()) {
        let rules = SlideRules::default();
        let mut t = s.clone();
        let ok = rules.apply(&mut t, &SlideCommand::Slide(d), &mut Vec::new()).is_ok();
        prop_assert_eq!(ok, s.can_slide(d));
        prop_assert_eq!(rules.legal_commands(&s).contains(&SlideCommand::Slide(d)), ok);
    }
}
