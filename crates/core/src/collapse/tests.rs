use super::*;
use crate::Place;

/// A board from rows of colour characters and `.`, settled (checked by `from_cells`).
fn game(rows: &[&str]) -> CollapseState {
    let size = Size::new(rows[0].len(), rows.len(), MAX_SIDE).unwrap();
    let cells: Vec<Option<u8>> = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| if c == '.' { None } else { colour_from_char(c) })
        .collect();
    CollapseState::from_cells(size, &cells, 1).unwrap()
}

fn rules(compaction: Compaction, scoring: Scoring) -> CollapseRules {
    CollapseRules::new(CollapseConfig { min_group: 2, compaction, scoring })
}

fn tap(r: &CollapseRules, s: &mut CollapseState, x: u16, y: u16) -> Result<Vec<CollapseEvent>, Rejected> {
    let mut events = Vec::new();
    r.apply(s, &CollapseCommand::Tap(Pos::new(x, y)), &mut events).map(|()| events)
}

fn shifts(events: &[CollapseEvent]) -> Vec<(u16, u16)> {
    events
        .iter()
        .filter_map(|e| match e {
            CollapseEvent::ColumnShifted { from, to } => Some((*from, *to)),
            _ => None,
        })
        .collect()
}

/// Width 9 (c = 4), empty edge columns 0 and 8; tapping (2, 1) clears six 0s and empties
/// columns 2 and 5.
fn both_sides() -> CollapseState {
    game(&[".1023045.", ".1000045."])
}

#[test]
fn tap_on_an_empty_cell_or_off_the_board_is_rejected() {
    let r = CollapseRules::default();
    let mut s = game(&["..", "00"]);
    let before = s.clone();
    let e = tap(&r, &mut s, 0, 0).unwrap_err();
    assert_eq!(e.code, "empty_cell");
    assert_eq!(e.message, "cell (0, 0) is empty");
    let e = tap(&r, &mut s, 2, 1).unwrap_err();
    assert_eq!(e.code, "off_board");
    assert_eq!(s, before);
}

#[test]
fn a_group_below_min_group_is_rejected_with_the_reason() {
    let r = CollapseRules::default();
    let mut s = game(&["01", "10"]);
    let before = s.clone();
    let e = tap(&r, &mut s, 0, 0).unwrap_err();
    assert_eq!(e.code, "group_too_small");
    assert_eq!(e.message, "the group at (0, 0) has 1 tile; at least 2 are needed");
    assert_eq!(s, before);

    // min_group 3: a pair is found by the flood fill, refused, and put back exactly.
    let r3 = CollapseRules::new(CollapseConfig { min_group: 3, ..CollapseConfig::default() });
    let mut s = game(&["001", "122"]);
    let before = s.clone();
    let e = tap(&r3, &mut s, 1, 0).unwrap_err();
    assert_eq!(e.message, "the group at (1, 0) has 2 tiles; at least 3 are needed");
    assert_eq!(s, before);
    let mut events = Vec::new();
    assert!(r3.apply(&mut s, &CollapseCommand::Tap(Pos::new(2, 1)), &mut events).is_err());
    assert!(events.is_empty());
}

#[test]
fn the_group_is_four_connected_and_of_one_colour() {
    let s = game(&["0010", "1000", "0110"]);
    // The 0s of the top row join through (1, 1), (2, 1) and (3, 1).
    assert_eq!(
        s.group_at(Pos::new(0, 0)),
        vec![
            Pos::new(0, 0),
            Pos::new(1, 0),
            Pos::new(3, 0),
            Pos::new(1, 1),
            Pos::new(2, 1),
            Pos::new(3, 1),
            Pos::new(3, 2)
        ]
    );
    // (0, 2) touches the big group only diagonally.
    assert_eq!(s.group_at(Pos::new(0, 2)), vec![Pos::new(0, 2)]);
    assert!(s.group_at(Pos::new(9, 9)).is_empty());
}

#[test]
fn clearing_removes_exactly_the_group_in_row_major_order() {
    let r = rules(Compaction::None, Scoring::Tiered);
    let mut s = game(&["12", "11", "21"]);
    let ids: Vec<Id> = [(0, 0), (0, 1), (1, 1), (1, 2)]
        .iter()
        .map(|&(x, y)| s.board()[Pos::new(x, y)].unwrap().id)
        .collect();
    let events = tap(&r, &mut s, 1, 2).unwrap();
    let CollapseEvent::Cleared { tiles, colour } = &events[0] else { panic!("{events:?}") };
    assert_eq!(*colour, 1);
    let cleared: Vec<(Id, Pos)> = tiles.iter().map(|t| (t.id, t.at)).collect();
    assert_eq!(
        cleared,
        vec![
            (ids[0], Pos::new(0, 0)),
            (ids[1], Pos::new(0, 1)),
            (ids[2], Pos::new(1, 1)),
            (ids[3], Pos::new(1, 2))
        ]
    );
}

#[test]
fn tiles_above_fall_down_their_column() {
    let r = rules(Compaction::None, Scoring::Tiered);
    let mut s = game(&["2.", "3.", "00", "10"]);
    let top = s.board()[Pos::new(0, 0)].unwrap().id;
    let mid = s.board()[Pos::new(0, 1)].unwrap().id;
    let events = tap(&r, &mut s, 0, 2).unwrap();
    assert_eq!(s.rows(), vec!["..", "2.", "3.", "1."]);
    let falls: Vec<&CollapseEvent> =
        events.iter().filter(|e| matches!(e, CollapseEvent::Fell { .. })).collect();
    // Column 0 from the bottom up: the 3 first, then the 2.
    assert_eq!(
        falls,
        vec![
            &CollapseEvent::Fell { tile: mid, from: Pos::new(0, 1), to: Pos::new(0, 2) },
            &CollapseEvent::Fell { tile: top, from: Pos::new(0, 0), to: Pos::new(0, 1) },
        ]
    );
}

#[test]
fn center_compaction_closes_both_sides_toward_the_middle() {
    // Width 9, c = 4: columns 0..=4 pack toward 4, columns 5..=8 toward 5. Columns 0 and 8 start
    // empty; the tap empties columns 2 and 5.
    let r = rules(Compaction::Center, Scoring::Tiered);
    let mut s = both_sides();
    let events = tap(&r, &mut s, 2, 1).unwrap();
    assert_eq!(s.rows(), vec!["..1..45..", "..12345.."]);
    assert_eq!(shifts(&events), vec![(1, 2), (6, 5), (7, 6)]);
    assert!(events.contains(&CollapseEvent::Scored { points: 8 * 6, bonus: 0 }));
    assert!(!events.iter().any(|e| matches!(e, CollapseEvent::GameOver { .. })));
}

#[test]
fn center_compaction_on_narrow_boards() {
    // Width 1: c = 0; width 2: c = 1, both columns are the left part and pack toward column 1.
    let r = rules(Compaction::Center, Scoring::Tiered);
    let mut s = game(&["1.", "00", "10"]);
    // Settledness: (0, 0) rests on (0, 1). Tap the 0s: column 1 empties, column 0 moves to 1.
    let events = tap(&r, &mut s, 1, 2).unwrap();
    assert_eq!(s.rows(), vec!["..", ".1", ".1"]);
    assert_eq!(shifts(&events), vec![(0, 1)]);
    // Width 3: c = 1; column 2 alone is the right part and packs toward column 2.
    let mut s = game(&["0..", "011"]);
    let events = tap(&r, &mut s, 0, 0).unwrap();
    assert_eq!(s.rows(), vec!["...", ".11"]);
    assert_eq!(shifts(&events), vec![]);
    let mut s = game(&["..0", "110"]);
    let events = tap(&r, &mut s, 2, 0).unwrap();
    assert_eq!(s.rows(), vec!["...", "11."]);
    assert!(shifts(&events).is_empty());
}

#[test]
fn left_compaction_packs_every_column_left_in_order() {
    let r = rules(Compaction::Left, Scoring::Tiered);
    let mut s = both_sides();
    let events = tap(&r, &mut s, 2, 1).unwrap();
    assert_eq!(s.rows(), vec!["1..45....", "12345...."]);
    assert_eq!(shifts(&events), vec![(1, 0), (3, 1), (4, 2), (6, 3), (7, 4)]);
}

#[test]
fn no_compaction_leaves_empty_columns() {
    let r = rules(Compaction::None, Scoring::Tiered);
    let mut s = both_sides();
    let events = tap(&r, &mut s, 2, 1).unwrap();
    assert_eq!(s.rows(), vec![".1....45.", ".1.23.45."]);
    assert!(shifts(&events).is_empty());
}

#[test]
fn tiered_table_at_every_threshold() {
    // (group size, value per tile): each tier's threshold and the size just below it.
    let expected = [
        (1, 5),
        (4, 5),
        (5, 8),
        (9, 8),
        (10, 10),
        (12, 10),
        (13, 12),
        (14, 12),
        (15, 13),
        (99, 13),
        (100, 15),
        (1000, 15),
    ];
    for (n, v) in expected {
        assert_eq!(tier_value(n), v, "group of {n}");
        assert_eq!(Scoring::Tiered.points(n), u64::from(v * n), "group of {n}");
    }
    for (threshold, value) in TIERS {
        assert_eq!(tier_value(threshold), value);
    }
    // The seed would pay 5 per tile for every group (its loop stops at tier 0): not us.
    assert_eq!(Scoring::Tiered.points(12), 120);
    assert_eq!(Scoring::Tiered.clear_bonus(), 0);
}

#[test]
fn tiered_score_of_a_real_tap() {
    let r = rules(Compaction::Left, Scoring::Tiered);
    // A row of 5: tier 5 → 8 per tile.
    let mut s = game(&["00000", "12121"]);
    let events = tap(&r, &mut s, 0, 0).unwrap();
    assert!(events.contains(&CollapseEvent::Scored { points: 40, bonus: 0 }));
    assert_eq!(s.score(), 40);
}

#[test]
fn standard_score_is_n_minus_two_squared_plus_the_clear_bonus() {
    assert_eq!(Scoring::Standard.points(2), 0);
    assert_eq!(Scoring::Standard.points(3), 1);
    assert_eq!(Scoring::Standard.points(7), 25);
    assert_eq!(Scoring::Standard.points(1), 0);
    let r = rules(Compaction::Left, Scoring::Standard);
    let mut s = game(&["001", "112"]);
    // A pair scores 0: no Scored event.
    let events = tap(&r, &mut s, 0, 0).unwrap();
    assert!(!events.iter().any(|e| matches!(e, CollapseEvent::Scored { .. })));
    assert_eq!(s.rows(), vec!["..1", "112"]);
    // Game over with a tile left: no bonus.
    let mut s2 = s.clone();
    let events = tap(&r, &mut s2, 0, 1).unwrap();
    assert_eq!(events.last(), Some(&CollapseEvent::GameOver { cleared_all: false }));
    assert_eq!(s2.rows(), vec!["1..", "2.."]);
    // Clearing everything: (5 − 2)² + 1000.
    let mut s = game(&["0.", "00", "00"]);
    let events = tap(&r, &mut s, 0, 0).unwrap();
    assert!(events.contains(&CollapseEvent::Scored { points: 9, bonus: 1000 }));
    assert_eq!(events.last(), Some(&CollapseEvent::GameOver { cleared_all: true }));
    assert_eq!(s.score(), 1009);
    assert!(s.is_cleared());
}

#[test]
fn game_over_exactly_when_no_group_is_left() {
    let r = CollapseRules::default();
    let over = game(&["01", "10"]);
    assert_eq!(r.status(&over), Status::Over);
    assert!(r.legal_commands(&over).is_empty());
    let mut s = game(&["01", "00"]);
    assert_eq!(r.status(&s), Status::Playing);
    let events = tap(&r, &mut s, 0, 1).unwrap();
    assert_eq!(events.last(), Some(&CollapseEvent::GameOver { cleared_all: false }));
    assert_eq!(r.status(&s), Status::Over);
    // min_group 3: pairs do not count.
    let r3 = CollapseRules::new(CollapseConfig { min_group: 3, ..CollapseConfig::default() });
    assert_eq!(r3.status(&game(&["001", "112"])), Status::Over);
    assert_eq!(r3.status(&game(&["001", "102"])), Status::Playing);
    // min_group 1: any tile is a group.
    let r1 = CollapseRules::new(CollapseConfig { min_group: 1, ..CollapseConfig::default() });
    let mut s = game(&["01", "23"]);
    assert_eq!(r1.legal_commands(&s).len(), 4);
    tap(&r1, &mut s, 1, 1).unwrap();
}

#[test]
fn legal_commands_list_one_tap_per_group_at_its_first_cell() {
    let r = CollapseRules::default();
    let s = game(&["0112", "0312", "3332"]);
    let taps: Vec<String> = r.legal_commands(&s).iter().map(|c| c.to_string()).collect();
    // Groups: 0 at (0,0)-(0,1); 1 at (1,0),(2,0),(2,1); 2 at (3,0)..(3,2); 3 at (1,1),(0,2)..(2,2).
    assert_eq!(taps, vec!["tap 0 0", "tap 1 0", "tap 3 0", "tap 1 1"]);
    let mut groups = Vec::new();
    r.groups_into(&s, &mut GroupScratch::default(), &mut groups);
    let sizes: Vec<(u32, u8)> = groups.iter().map(|g| (g.size, g.colour)).collect();
    assert_eq!(sizes, vec![(2, 0), (3, 1), (3, 2), (4, 3)]);
}

#[test]
fn undo_and_redo_restore_a_tap_exactly() {
    for compaction in [Compaction::Center, Compaction::Left, Compaction::None] {
        let r = rules(compaction, Scoring::Standard);
        let mut s = both_sides();
        let before = s.clone();
        let events = tap(&r, &mut s, 2, 1).unwrap();
        let after = s.clone();
        r.undo(&mut s, &events);
        assert_eq!(s, before, "{compaction:?}");
        r.redo(&mut s, &events).expect("recorded events fit");
        assert_eq!(s, after, "{compaction:?}");
    }
}

#[test]
fn new_boards_are_full_deterministic_and_use_the_asked_colours() {
    let size = Size::new(15, 15, MAX_SIDE).unwrap();
    for k in [2u8, 4, 5, 16] {
        let s = CollapseState::new_game(size, k, 11);
        assert_eq!(s.tile_count(), 225);
        let mut seen = [false; 16];
        for t in s.board().cells().iter().flatten() {
            assert!(t.colour < k);
            seen[usize::from(t.colour)] = true;
        }
        assert_eq!(seen.iter().filter(|&&b| b).count(), usize::from(k));
        assert_eq!(s, CollapseState::new_game(size, k, 11));
        assert_ne!(s, CollapseState::new_game(size, k, 12));
    }
    let ids: Vec<u32> = CollapseState::new_game(Size::new(3, 2, MAX_SIDE).unwrap(), 4, 0)
        .board()
        .cells()
        .iter()
        .map(|t| t.unwrap().id.0)
        .collect();
    assert_eq!(ids, vec![0, 1, 2, 3, 4, 5]);
    // 1×1 and 256×256 both work.
    let one = CollapseState::new_game(Size::new(1, 1, MAX_SIDE).unwrap(), 4, 0);
    assert_eq!(CollapseRules::default().status(&one), Status::Over);
    let big = CollapseState::new_game(Size::new(256, 256, MAX_SIDE).unwrap(), 4, 0);
    assert_eq!(big.tile_count(), 65536);
    assert!(Size::new(257, 4, MAX_SIDE).is_err());
}

#[test]
fn boards_with_floating_tiles_or_bad_colours_are_refused() {
    let size = Size::new(2, 2, MAX_SIDE).unwrap();
    let e = CollapseState::from_cells(size, &[Some(1), None, Some(1), None], 0);
    assert!(e.is_ok());
    let e = CollapseState::from_cells(size, &[None, Some(1), Some(1), None], 0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "board cell (1, 0) holds a tile above the empty cell (1, 1): tiles must rest on the bottom \
         row or on another tile"
    );
    assert_eq!(e.place(), Some(Place::Cell(Pos::new(1, 0))));
    let e = CollapseState::from_cells(size, &[None, None, Some(16), None], 0).unwrap_err();
    assert_eq!(e.to_string(), "board cell (0, 1): colour 16 is not below 16");
    assert_eq!(e.place(), Some(Place::Cell(Pos::new(0, 1))));
    assert!(CollapseState::from_cells(size, &[None], 0).is_err());
}

#[test]
fn command_text_round_trips() {
    let c = CollapseCommand::Tap(Pos::new(3, 14));
    assert_eq!(c.to_string(), "tap 3 14");
    assert_eq!("  tap 3   14 ".parse::<CollapseCommand>().unwrap(), c);
    assert!("tap 3".parse::<CollapseCommand>().is_err());
    assert!("tap 3 4 5".parse::<CollapseCommand>().is_err());
    assert!("up".parse::<CollapseCommand>().is_err());
    let e = "tap -1 2".parse::<CollapseCommand>().unwrap_err();
    assert_eq!(e, "tap: X '-1' is not a number from 0 to 65535");
}

#[test]
fn colour_characters_round_trip() {
    for c in 0..MAX_COLOURS {
        assert_eq!(colour_from_char(colour_char(c)), Some(c));
    }
    assert_eq!(colour_char(10), 'a');
    assert_eq!(colour_from_char('A'), None);
    assert_eq!(colour_from_char('g'), None);
    assert_eq!(colour_from_char('.'), None);
}

mod levels {
    use super::super::CollapseLevel;
    use super::*;

    fn level(rows: &[&str], compaction: Compaction) -> CollapseLevel {
        CollapseLevel::from_rows(
            rows.iter().map(|r| r.to_string()).collect(),
            CollapseConfig { compaction, ..CollapseConfig::default() },
        )
    }

    #[test]
    fn a_board_starts_exactly_as_given() {
        let (_, s) = level(&["..1..", ".021.", "2a112"], Compaction::Center).start(3).unwrap();
        assert_eq!(s.rows(), vec!["..1..", ".021.", "2a112"]);
        assert_eq!(s.tile_count(), 9);
    }

    #[test]
    fn bad_boards_say_what_and_where() {
        let e = level(&["01", "0x"], Compaction::Left).start(0).unwrap_err().to_string();
        assert_eq!(e, "board cell (1, 1): 'x' is not a colour (0-9, a-f) or '.' (empty)");
        let e = level(&["01", "011"], Compaction::Left).start(0).unwrap_err().to_string();
        assert_eq!(e, "board row 1 has 3 cells, expected 2");
        let e = level(&["0.", "0."], Compaction::None).start(0);
        assert!(e.is_ok());
        let e = level(&[".0", ".0"], Compaction::Left).start(0).unwrap_err().to_string();
        assert!(e.starts_with("board column 0 is empty but column 1 is not"), "{e}");
        let e = level(&["1.", "10"], Compaction::Left).start(0);
        assert!(e.is_ok());
        let e = level(&["00", ".."], Compaction::None).start(0).unwrap_err().to_string();
        assert!(e.starts_with("board cell (0, 0) holds a tile above the empty cell (0, 1)"), "{e}");
        let e = level(&[], Compaction::None).start(0).unwrap_err().to_string();
        assert!(e.starts_with("board: board size 0x0"), "{e}");
        let mut l = level(&["3"], Compaction::None);
        l.colours = Some(3);
        assert_eq!(l.start(0).unwrap_err().to_string(), "board cell (0, 0): colour 3 is not below colours 3");
        l.colours = Some(17);
        assert_eq!(l.start(0).unwrap_err().to_string(), "colours 17 is outside 2..=16");
        let mut l = level(&["0"], Compaction::None);
        l.config.min_group = 0;
        assert_eq!(l.start(0).unwrap_err().to_string(), "config: min_group 0 is not at least 1");
    }

    #[test]
    fn center_boards_keep_empty_columns_at_the_edges() {
        // Width 5, c = 2: columns 0..=2 pack toward 2, columns 3..=4 toward 3.
        assert!(level(&[".000."], Compaction::Center).start(0).is_ok());
        assert!(level(&["...0."], Compaction::Center).start(0).is_ok());
        assert!(level(&["..0.."], Compaction::Center).start(0).is_ok());
        let e = level(&["0.00."], Compaction::Center).start(0).unwrap_err().to_string();
        assert!(e.starts_with("board column 1 is empty but column 0 left of it is not"), "{e}");
        let e = level(&["..0.0"], Compaction::Center).start(0).unwrap_err().to_string();
        assert!(e.starts_with("board column 3 is empty but column 4 right of it is not"), "{e}");
    }

    #[test]
    fn random_boards_follow_width_height_and_colours() {
        let l =
            CollapseLevel { width: Some(7), height: Some(3), colours: Some(2), ..CollapseLevel::default() };
        let (_, s) = l.start(9).unwrap();
        assert_eq!(s.board().size(), Size::new(7, 3, MAX_SIDE).unwrap());
        assert!(s.board().cells().iter().flatten().all(|t| t.colour < 2));
        let (_, s) = CollapseLevel::seed_game().start(0).unwrap();
        assert_eq!((s.board().width(), s.board().height()), (10, 10));
        assert!(s.board().cells().iter().flatten().all(|t| t.colour < 4));
    }
}

mod testsets {
    use super::super::{TestsetError, parse_testset};
    use super::*;

    #[test]
    fn boards_are_read_top_row_first_with_blank_lines_between() {
        let text = "0 1 2 \n3 4 0 \n\n\n1 1\t1\n2 2 2\n\n";
        let boards = parse_testset(text).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[0].rows, vec!["012", "340"]);
        assert_eq!((boards[0].line, boards[0].colours_used, boards[0].colour_bound), (1, 5, 5));
        assert_eq!(boards[1].rows, vec!["111", "222"]);
        assert_eq!((boards[1].line, boards[1].colours_used, boards[1].colour_bound), (5, 2, 3));
        let level = boards[1].to_level("two".into());
        assert_eq!(level.config, CollapseConfig::standard());
        let (_, s) = level.start(0).unwrap();
        assert_eq!(s.rows(), vec!["111", "222"]);
    }

    #[test]
    fn bad_test_sets_name_the_line() {
        let e = parse_testset("0 1\n1 x\n").unwrap_err();
        assert_eq!(e, TestsetError { line: 2, message: "cell 2: 'x' is not a colour from 0 to 15".into() });
        let e = parse_testset("0 1\n1 16\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: cell 2: '16' is not a colour from 0 to 15");
        let e = parse_testset("0 1\n\n0 1\n1 1 1\n").unwrap_err();
        assert_eq!(e.to_string(), "line 4: row has 3 cells but the board starting on line 3 has 2");
        assert_eq!(parse_testset("\n \n").unwrap_err().message, "no boards found");
        assert_eq!(parse_testset("").unwrap_err().line, 1);
    }
}

mod random_groups {
    use super::*;

    /// A small xorshift for tests: `below(n)` by multiply-shift.
    fn draws(seed: u64) -> impl FnMut(u32) -> u32 {
        let mut x = seed | 1;
        move |n| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (((x >> 32) * u64::from(n)) >> 32) as u32
        }
    }

    #[test]
    fn every_group_is_equally_likely() {
        let r = CollapseRules::default();
        // Groups of sizes 2, 3, 3 and 4 (see legal_commands_list_one_tap_per_group_at_its_first_cell).
        let s = game(&["0112", "0312", "3332"]);
        let mut groups = Vec::new();
        r.groups_into(&s, &mut GroupScratch::default(), &mut groups);
        let mut scratch = GroupScratch::default();
        let mut below = draws(7);
        let mut counts = [0u32; 4];
        for _ in 0..8000 {
            let g = r.random_group(&s, &mut scratch, &mut below).unwrap();
            let k = groups.iter().position(|h| *h == g).expect("a listed group");
            counts[k] += 1;
        }
        // 2000 expected each; a uniform sampler stays well within ±200.
        assert!(counts.iter().all(|&c| (1800..=2200).contains(&c)), "{counts:?}");
    }

    #[test]
    fn none_without_a_group_and_min_group_is_respected() {
        let r = CollapseRules::default();
        let mut scratch = GroupScratch::default();
        assert_eq!(r.random_group(&game(&["01", "10"]), &mut scratch, draws(1)), None);
        assert_eq!(r.random_group(&game(&["..", ".."]), &mut scratch, draws(1)), None);
        let r3 = CollapseRules::new(CollapseConfig { min_group: 3, ..CollapseConfig::default() });
        let s = game(&["001", "112"]);
        assert_eq!(r3.random_group(&s, &mut scratch, draws(1)), None);
        let s = game(&["001", "102"]);
        for seed in 0..50 {
            let g = r3.random_group(&s, &mut scratch, draws(seed)).unwrap();
            assert_eq!((g.at, g.size, g.colour), (Pos::new(0, 0), 3, 0));
        }
        let r1 = CollapseRules::new(CollapseConfig { min_group: 1, ..CollapseConfig::default() });
        let g = r1.random_group(&game(&["1."]), &mut scratch, draws(3)).unwrap();
        assert_eq!((g.at, g.size), (Pos::new(0, 0), 1));
    }
}
