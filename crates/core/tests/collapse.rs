//! Invariants of `collapse` (SameGame)'s own rules over random boards, settings and tap
//! sequences, and the standard test set when `../shared/benchmarks` exists. Undo, redo and
//! determinism are the conformance kit's (`crates/conformance`).

use proptest::prelude::*;
use proptest::sample::Index;
use std::collections::BTreeMap;
use tessera_core::collapse::{
    ClearedTile, CollapseCommand, CollapseConfig, CollapseEvent, CollapseRules, CollapseState, Compaction,
    GroupScratch, Scoring, parse_testset,
};
use tessera_core::{Id, Level, Pos, Rejected, Rules, Size, Status};

/// A random settled board: 1×1 to 7×7, 1 to 4 colours, every column holding 1..=height tiles
/// (no empty column, so any compaction policy's layout holds at the start).
fn board() -> impl Strategy<Value = CollapseState> {
    (1usize..=7, 1usize..=7, 1u8..=4, any::<u64>()).prop_flat_map(|(w, h, k, seed)| {
        (prop::collection::vec(1..=h, w), prop::collection::vec(0..k, w * h)).prop_map(
            move |(heights, colours)| {
                let mut cells = vec![None; w * h];
                for (x, &n) in heights.iter().enumerate() {
                    for y in h - n..h {
                        cells[y * w + x] = Some(colours[y * w + x]);
                    }
                }
                CollapseState::from_cells(Size::new(w, h, 256).unwrap(), &cells, seed).unwrap()
            },
        )
    })
}

fn config() -> impl Strategy<Value = CollapseConfig> {
    (
        1u32..=3,
        prop::sample::select(vec![Compaction::Center, Compaction::Left, Compaction::None]),
        prop::sample::select(vec![Scoring::Tiered, Scoring::Standard]),
    )
        .prop_map(|(min_group, compaction, scoring)| CollapseConfig { min_group, compaction, scoring })
}

/// A tap: most often one of the legal taps (picked by index), sometimes any cell near the board.
#[derive(Clone, Debug)]
enum Pick {
    Legal(Index),
    Raw(u16, u16),
}

fn picks() -> impl Strategy<Value = Vec<Pick>> {
    prop::collection::vec(
        prop_oneof![3 => any::<Index>().prop_map(Pick::Legal), 1 => (0u16..9, 0u16..9).prop_map(|(x, y)| Pick::Raw(x, y))],
        1..25,
    )
}

fn choose(rules: &CollapseRules, s: &CollapseState, pick: &Pick) -> CollapseCommand {
    match pick {
        Pick::Legal(i) => {
            let legal = rules.legal_commands(s);
            if legal.is_empty() { CollapseCommand::Tap(Pos::new(0, 0)) } else { legal[i.index(legal.len())] }
        }
        Pick::Raw(x, y) => CollapseCommand::Tap(Pos::new(*x, *y)),
    }
}

/// Colour and id of the tile at `(x, y)`, computed without the crate's helpers.
fn cell(s: &CollapseState, x: usize, y: usize) -> Option<(u8, Id)> {
    let w = usize::from(s.board().width());
    s.board().cells()[y * w + x].map(|t| (t.colour, t.id))
}

/// Independent flood fill: the group at `at`, sorted row-major.
fn group(s: &CollapseState, at: Pos) -> Vec<Pos> {
    let (w, h) = (usize::from(s.board().width()), usize::from(s.board().height()));
    let Some((colour, _)) = cell(s, usize::from(at.x), usize::from(at.y)) else { return Vec::new() };
    let mut seen = vec![vec![false; w]; h];
    let mut todo = vec![(usize::from(at.x), usize::from(at.y))];
    seen[usize::from(at.y)][usize::from(at.x)] = true;
    let mut out = Vec::new();
    while let Some((x, y)) = todo.pop() {
        out.push(Pos::new(x as u16, y as u16));
        let mut next = Vec::new();
        if x > 0 {
            next.push((x - 1, y));
        }
        if y > 0 {
            next.push((x, y - 1));
        }
        if x + 1 < w {
            next.push((x + 1, y));
        }
        if y + 1 < h {
            next.push((x, y + 1));
        }
        for (a, b) in next {
            if !seen[b][a] && cell(s, a, b).is_some_and(|(c, _)| c == colour) {
                seen[b][a] = true;
                todo.push((a, b));
            }
        }
    }
    out.sort_by_key(|p| (p.y, p.x));
    out
}

/// Every group (as its sorted cells), in row-major order of first cells.
fn all_groups(s: &CollapseState) -> Vec<Vec<Pos>> {
    let (w, h) = (s.board().width(), s.board().height());
    let mut groups: Vec<Vec<Pos>> = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let p = Pos::new(x, y);
            if cell(s, usize::from(x), usize::from(y)).is_some() && !groups.iter().any(|g| g.contains(&p)) {
                groups.push(group(s, p));
            }
        }
    }
    groups
}

/// Where each tile is: id → (x, y, colour).
fn tiles(s: &CollapseState) -> BTreeMap<Id, (u16, u16, u8)> {
    s.board().iter().filter_map(|(p, t)| t.map(|t| (t.id, (p.x, p.y, t.colour)))).collect()
}

fn column_empty(s: &CollapseState, x: u16) -> bool {
    (0..s.board().height()).all(|y| s.board()[Pos::new(x, y)].is_none())
}

fn check_settled(s: &CollapseState) -> Result<(), TestCaseError> {
    let (w, h) = (s.board().width(), s.board().height());
    for x in 0..w {
        for y in 0..h - 1 {
            prop_assert!(
                s.board()[Pos::new(x, y)].is_none() || s.board()[Pos::new(x, y + 1)].is_some(),
                "tile at ({x}, {y}) floats above an empty cell\n{}",
                s.render()
            );
        }
    }
    Ok(())
}

/// Non-empty columns sit where the policy puts them.
fn check_layout(s: &CollapseState, compaction: Compaction) -> Result<(), TestCaseError> {
    let w = s.board().width();
    let empty: Vec<bool> = (0..w).map(|x| column_empty(s, x)).collect();
    let bad = |a: u16, b: u16| !empty[usize::from(a)] && empty[usize::from(b)];
    match compaction {
        Compaction::None => {}
        Compaction::Left => {
            // No non-empty column right of an empty one.
            for x in 1..w {
                prop_assert!(!bad(x, x - 1), "left: column {} empty, {x} not\n{}", x - 1, s.render());
            }
        }
        Compaction::Center => {
            let c = w / 2;
            for x in 0..c {
                prop_assert!(!bad(x, x + 1), "center: column {} empty, {x} not\n{}", x + 1, s.render());
            }
            for x in c + 2..w {
                prop_assert!(!bad(x, x - 1), "center: column {} empty, {x} not\n{}", x - 1, s.render());
            }
        }
    }
    if compaction != Compaction::None {
        // Hence no empty column between two non-empty ones.
        let first = empty.iter().position(|e| !e);
        let last = empty.iter().rposition(|e| !e);
        if let (Some(a), Some(b)) = (first, last) {
            prop_assert!(empty[a..=b].iter().all(|e| !e), "gap between non-empty columns\n{}", s.render());
        }
    }
    Ok(())
}

/// Applies one command and checks every invariant of a tap against the state before it.
fn step(rules: &CollapseRules, s: &mut CollapseState, cmd: CollapseCommand) -> Result<bool, TestCaseError> {
    let before = s.clone();
    let CollapseCommand::Tap(at) = cmd;
    let size = before.board().size();
    let expected = if size.contains(at) { group(&before, at) } else { Vec::new() };
    let min = rules.config.min_group as usize;
    let mut events = Vec::new();
    match rules.apply(s, &cmd, &mut events) {
        Err(Rejected { code, .. }) => {
            prop_assert!(events.is_empty());
            prop_assert_eq!(&*s, &before);
            let why = if !size.contains(at) {
                "off_board"
            } else if expected.is_empty() {
                "empty_cell"
            } else {
                "group_too_small"
            };
            prop_assert_eq!(code, why);
            prop_assert!(expected.len() < min);
            return Ok(false);
        }
        Ok(()) => prop_assert!(expected.len() >= min),
    }

    // A tap clears exactly the tapped group.
    let old = tiles(&before);
    let CollapseEvent::Cleared { tiles: cleared, colour } = &events[0] else {
        return Err(TestCaseError::fail(format!("first event {:?}", events[0])));
    };
    let want: Vec<ClearedTile> =
        expected.iter().map(|&p| ClearedTile { id: before.board()[p].unwrap().id, at: p }).collect();
    prop_assert_eq!(cleared, &want);
    prop_assert_eq!(*colour, before.board()[at].unwrap().colour);
    let new = tiles(s);
    let mut survivors = old.clone();
    for t in &want {
        survivors.remove(&t.id);
    }
    prop_assert_eq!(
        new.keys().collect::<Vec<_>>(),
        survivors.keys().collect::<Vec<_>>(),
        "the tiles left are not the old ones minus the group"
    );
    for (id, &(_, _, c)) in &new {
        prop_assert_eq!(c, old[id].2, "a tile changed colour");
    }

    // Gravity and compaction.
    check_settled(s)?;
    check_layout(s, rules.config.compaction)?;
    // Order is kept: within a column tiles keep their vertical order; columns keep theirs.
    let ids: Vec<&Id> = new.keys().collect();
    for (i, a) in ids.iter().enumerate() {
        for b in &ids[i + 1..] {
            let (ax0, ay0, _) = old[a];
            let (bx0, by0, _) = old[b];
            let (ax1, ay1, _) = new[a];
            let (bx1, by1, _) = new[b];
            prop_assert_eq!(ax0.cmp(&bx0), ax1.cmp(&bx1), "column order changed for {:?} and {:?}", a, b);
            if ax0 == bx0 {
                prop_assert_eq!(ay0.cmp(&by0), ay1.cmp(&by1), "vertical order changed");
            }
        }
    }
    if rules.config.compaction == Compaction::None {
        for (id, &(x, ..)) in &new {
            prop_assert_eq!(x, old[id].0, "a column moved without compaction");
        }
    }
    for (id, &(x, y, _)) in &new {
        prop_assert!(y >= old[id].1, "a tile rose");
        let _ = x;
    }

    // Scores follow the formulas.
    let n = want.len() as u64;
    let cleared_all = new.is_empty();
    let points = match rules.config.scoring {
        Scoring::Tiered => {
            let v = [(100, 15), (15, 13), (13, 12), (10, 10), (5, 8), (0, 5)]
                .into_iter()
                .find(|&(t, _)| n >= t)
                .map_or(0, |(_, v)| v);
            v * n
        }
        Scoring::Standard => n.saturating_sub(2).pow(2) + if cleared_all { 1000 } else { 0 },
    };
    prop_assert_eq!(s.score(), before.score() + points);

    // Game over exactly when no group of at least min_group is left.
    let any_group = all_groups(s).iter().any(|g| g.len() >= min);
    let over_event = events.iter().find_map(|e| match e {
        CollapseEvent::GameOver { cleared_all } => Some(*cleared_all),
        _ => None,
    });
    prop_assert_eq!(over_event, (!any_group).then_some(cleared_all));
    prop_assert_eq!(rules.status(s), if any_group { Status::Playing } else { Status::Over });
    Ok(true)
}

proptest! {
    #[test]
    fn every_tap_keeps_the_invariants(mut s in board(), config in config(), picks in picks()) {
        let rules = CollapseRules::new(config);
        for pick in &picks {
            let cmd = choose(&rules, &s, pick);
            step(&rules, &mut s, cmd)?;
        }
    }

    #[test]
    fn legal_commands_are_one_tap_per_group_at_its_first_cell(mut s in board(), config in config(), picks in picks()) {
        let rules = CollapseRules::new(config);
        for pick in &picks {
            let min = rules.config.min_group as usize;
            let expected: Vec<CollapseCommand> = all_groups(&s)
                .into_iter()
                .filter(|g| g.len() >= min)
                .map(|g| CollapseCommand::Tap(g[0]))
                .collect();
            prop_assert_eq!(rules.legal_commands(&s), expected);
            let cmd = choose(&rules, &s, pick);
            let _ = rules.apply(&mut s, &cmd, &mut Vec::new());
        }
    }

    #[test]
    fn random_group_is_always_one_of_the_listed_groups(mut s in board(), config in config(), seed in any::<u64>(), taps in 1usize..20) {
        let rules = CollapseRules::new(config);
        let mut scratch = GroupScratch::default();
        let mut x = seed | 1;
        let mut below = move |n: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (((x >> 32) * u64::from(n)) >> 32) as u32
        };
        for _ in 0..taps {
            let mut listed = Vec::new();
            rules.groups_into(&s, &mut GroupScratch::default(), &mut listed);
            let Some(g) = rules.random_group(&s, &mut scratch, &mut below) else {
                prop_assert!(listed.is_empty());
                break;
            };
            prop_assert!(listed.contains(&g), "{:?} not in {:?}", g, listed);
            rules.apply(&mut s, &CollapseCommand::Tap(g.at), &mut Vec::new()).unwrap();
        }
    }

    #[test]
    fn new_boards_are_full_and_use_only_their_colours(w in 1usize..=20, h in 1usize..=20, k in 2u8..=16, seed in any::<u64>()) {
        let s = CollapseState::new_game(Size::new(w, h, 256).unwrap(), k, seed);
        prop_assert_eq!(s.tile_count(), w * h);
        prop_assert!(s.board().cells().iter().flatten().all(|t| t.colour < k));
        prop_assert_eq!(&s, &CollapseState::new_game(Size::new(w, h, 256).unwrap(), k, seed));
    }
}

/// The standard test set: 20 boards of 15×15 in 5 colours, each loading as a `Left` + `Standard`
/// level. Skips with a note when `../shared/benchmarks` is absent.
#[test]
fn standard_test_set_boards_load() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks");
    if !root.is_dir() {
        println!("note: {} not found; skipping the standard SameGame test set", root.display());
        return;
    }
    let path = root.join("samegame/standard_testset.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let boards = parse_testset(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(boards.len(), 20);
    for (i, b) in boards.iter().enumerate() {
        assert_eq!(b.rows.len(), 15, "board {}", i + 1);
        assert!(b.rows.iter().all(|r| r.len() == 15), "board {}", i + 1);
        assert_eq!((b.colours_used, b.colour_bound), (5, 5), "board {}", i + 1);
        let level = Level::Collapse(b.to_level(format!("standard {}", i + 1)));
        let again = Level::from_json(&level.to_json()).unwrap();
        assert_eq!(again, level);
        let game = level.start(None).unwrap();
        assert_eq!(game.state.render().lines().collect::<Vec<_>>(), b.rows);
        assert_eq!(game.rules.status(&game.state), Status::Playing);
    }
}
