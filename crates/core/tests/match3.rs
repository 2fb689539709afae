//! Invariants of `match3`'s own rules over random levels (voids, locks, breeds) and random swap
//! sequences. Undo, redo of steps and determinism are the conformance kit's
//! (`crates/conformance`); the direct shuffle's undo and redo are checked here.

use proptest::prelude::*;
use tessera_core::match3::{
    Cell, GameOverReason, Match3Command, Match3Config, Match3Event, Match3Level, Match3Rules, Match3State,
};
use tessera_core::{Pos, Rules, Status};

/// A random layout: 1×1 to 7×7, cells mostly open, some Void, some locked; 3 to 6 breeds; no
/// objectives (so play goes on and shuffles happen).
fn level() -> impl Strategy<Value = Match3Level> {
    level_with(Just((None, None)))
}

fn level_with(
    objectives: impl Strategy<Value = (Option<u32>, Option<u64>)> + Clone + 'static,
) -> impl Strategy<Value = Match3Level> {
    (1usize..=7, 1usize..=7, 3u8..=6, any::<u64>(), objectives).prop_flat_map(
        |(w, h, breeds, seed, (move_limit, target_score))| {
            prop::collection::vec(prop::sample::select(vec!['.', '.', '.', '.', '.', '.', '#', '*']), w * h)
                .prop_map(move |cells| {
                    let rows: Vec<String> = cells.chunks(w).map(|r| r.iter().collect()).collect();
                    Match3Level {
                        board: Some(rows),
                        config: Match3Config { breeds, move_limit, target_score, ..Match3Config::default() },
                        seed: Some(seed),
                        ..Match3Level::default()
                    }
                })
        },
    )
}

/// A move: the hint (a valid swap), or a swap of a random cell with a random neighbour.
#[derive(Clone, Debug)]
enum Move {
    Hint,
    Random(u16, u16, bool),
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(
        prop_oneof![
            1 => Just(Move::Hint),
            1 => (0u16..8, 0u16..8, any::<bool>()).prop_map(|(x, y, d)| Move::Random(x, y, d)),
        ],
        1..25,
    )
}

fn command(rules: &Match3Rules, s: &Match3State, m: &Move) -> Option<Match3Command> {
    match *m {
        Move::Hint => rules.hint(s),
        Move::Random(x, y, right) => {
            let a = Pos::new(x % s.size().width, y % s.size().height);
            let b = if right { Pos::new(a.x + 1, a.y) } else { Pos::new(a.x, a.y + 1) };
            Some(Match3Command::Swap(a, b))
        }
    }
}

fn is_full(s: &Match3State) -> bool {
    s.cells().cells().iter().zip(s.blocks().cells()).all(|(c, b)| (*c == Cell::Playable) == b.is_some())
}

/// Every swap of neighbouring unlocked blocks, tried on a copy: does any make a run?
fn brute_force_has_swap(s: &Match3State) -> bool {
    let size = s.size();
    let blocks = s.blocks();
    for y in 0..size.height {
        for x in 0..size.width {
            let a = Pos::new(x, y);
            for b in [Pos::new(x + 1, y), Pos::new(x, y + 1)] {
                if !size.contains(b) {
                    continue;
                }
                let (Some(ba), Some(bb)) = (blocks[a], blocks[b]) else { continue };
                if ba.locked || bb.locked {
                    continue;
                }
                let mut rows: Vec<Vec<char>> = s.rows().iter().map(|r| r.chars().collect()).collect();
                let (ca, cb) = (rows[a.y as usize][a.x as usize], rows[b.y as usize][b.x as usize]);
                rows[a.y as usize][a.x as usize] = cb;
                rows[b.y as usize][b.x as usize] = ca;
                let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
                let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
                if Match3State::from_rows(&refs, 0).unwrap().find_run().is_some() {
                    return true;
                }
            }
        }
    }
    false
}

fn breed_counts(s: &Match3State) -> [i64; 16] {
    let mut c = [0; 16];
    for b in s.blocks().cells().iter().flatten() {
        c[usize::from(b.breed)] += 1;
    }
    c
}

/// Checks a step's shuffle, if it had one: locks, voids and breeds kept (bar `Recoloured`), and
/// the board after it free of runs with a valid swap.
fn check_shuffle(
    rules: &Match3Rules,
    after: &Match3State,
    events: &[Match3Event],
) -> Result<(), TestCaseError> {
    let Some(k) = events.iter().position(|e| matches!(e, Match3Event::Shuffled { .. })) else {
        return Ok(());
    };
    let mut before = after.clone();
    rules.undo(&mut before, &events[k..]);
    let mut expected = breed_counts(&before);
    for e in &events[k..] {
        if let Match3Event::Recoloured { from, to, .. } = e {
            expected[usize::from(*from)] -= 1;
            expected[usize::from(*to)] += 1;
        }
    }
    prop_assert_eq!(breed_counts(after), expected);
    for (i, b) in before.blocks().cells().iter().enumerate() {
        if b.is_none_or(|b| b.locked) {
            prop_assert_eq!(after.blocks().cells()[i], *b);
        }
    }
    prop_assert!(after.find_run().is_none());
    prop_assert!(after.find_valid_swap().is_some());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn objectives_end_the_game_exactly_when_met(
        level in level_with((prop::option::of(1u32..6), prop::option::of(20u64..400))),
        moves in moves(),
    ) {
        let Ok((rules, mut s)) = level.start(level.seed.unwrap_or(0)) else { return Ok(()) };
        let mut events = Vec::new();
        for m in &moves {
            let Some(cmd) = command(&rules, &s, m) else { break };
            let before = s.clone();
            events.clear();
            if rules.apply(&mut s, &cmd, &mut events).is_err() {
                prop_assert_eq!(&s, &before);
                continue;
            }
            let won = events.iter().any(|e| matches!(e, Match3Event::Won { .. }));
            let out = events.contains(&Match3Event::GameOver { reason: GameOverReason::OutOfMoves });
            let resolved = !matches!(events.last(), Some(Match3Event::SwappedBack { .. }));
            let target_met = level.config.target_score.is_some_and(|t| s.score() >= t);
            let limit_met = level.config.move_limit.is_some_and(|l| s.moves() >= l);
            prop_assert_eq!(won, resolved && target_met);
            prop_assert_eq!(out, resolved && !target_met && limit_met);
            prop_assert_eq!(s.moves(), before.moves() + u32::from(resolved), "only resolved swaps count");
            if rules.status(&s) != Status::Playing {
                prop_assert!(rules.hint(&s).is_none());
                break;
            }
        }
    }

    #[test]
    fn boards_stay_full_and_free_of_runs(level in level(), moves in moves()) {
        let Ok((rules, mut s)) = level.start(level.seed.unwrap_or(0)) else { return Ok(()) };
        prop_assert!(s.find_run().is_none());
        prop_assert!(rules.hint(&s).is_some(), "a new board offers a valid swap");
        prop_assert!(is_full(&s));
        let mut events = Vec::new();
        for m in &moves {
            let Some(cmd) = command(&rules, &s, m) else { break };
            let before = s.clone();
            events.clear();
            if rules.apply(&mut s, &cmd, &mut events).is_err() {
                prop_assert!(events.is_empty());
                prop_assert_eq!(&s, &before);
                continue;
            }
            if matches!(events.last(), Some(Match3Event::SwappedBack { .. })) {
                prop_assert_eq!(events.len(), 2);
                prop_assert_eq!(&s, &before, "a swap-back leaves the state identical");
            }
            prop_assert!(is_full(&s));
            prop_assert!(s.find_run().is_none(), "no run after a resolved swap:\n{}", s.render());
            match rules.status(&s) {
                Status::Playing => prop_assert!(s.find_valid_swap().is_some()),
                Status::Over => {
                    let stuck = matches!(s.over(), Some(GameOverReason::NoMovesPossible | GameOverReason::ShuffleFailed));
                    prop_assert!(stuck);
                }
                Status::Won => prop_assert!(false, "no target was set"),
            }
            check_shuffle(&rules, &s, &events)?;
            if rules.status(&s) != Status::Playing {
                break;
            }
        }
    }

    #[test]
    fn hint_finds_a_swap_exactly_when_brute_force_does(rows in small_board()) {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let s = Match3State::from_rows(&refs, 0).unwrap();
        prop_assume!(s.find_run().is_none());
        let rules = Match3Rules::new(Match3Config { breeds: 3, ..Match3Config::default() });
        let hint = rules.hint(&s);
        prop_assert_eq!(hint.is_some(), brute_force_has_swap(&s));
        prop_assert_eq!(hint.is_some(), !rules.legal_commands(&s).is_empty());
        if let Some(cmd) = hint {
            let mut t = s.clone();
            let mut events = Vec::new();
            rules.apply(&mut t, &cmd, &mut events).unwrap();
            let swapped_back = matches!(events.get(1), Some(Match3Event::SwappedBack { .. }));
            prop_assert!(!swapped_back);
        }
    }

    #[test]
    fn shuffles_keep_locks_voids_and_breeds_unless_recoloured(rows in small_board()) {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut s = Match3State::from_rows(&refs, 0).unwrap();
        let rules = Match3Rules::new(Match3Config { breeds: 3, ..Match3Config::default() });
        let before = s.clone();
        let mut events = Vec::new();
        rules.shuffle_into(&mut s, &mut events);
        if let [Match3Event::GameOver { reason }] = events.as_slice() {
            prop_assert_eq!(*reason, GameOverReason::NoMovesPossible, "small boards are decided");
            prop_assert_eq!(brute_force_min_recolours(&before, 3), None);
        } else {
            check_shuffle(&rules, &s, &events)?;
            let recoloured = events.iter().filter(|e| matches!(e, Match3Event::Recoloured { .. })).count();
            prop_assert_eq!(Some(recoloured), brute_force_min_recolours(&before, 3), "as few recolours as possible");
        }
        let after = s.clone();
        rules.undo(&mut s, &events);
        prop_assert_eq!(&s, &before);
        rules.redo(&mut s, &events).expect("recorded events fit");
        prop_assert_eq!(&s, &after);
    }
}

/// Boards of up to 8 cells (so brute force over every arrangement is cheap): 3 breeds, some
/// locked, some Void.
fn small_board() -> impl Strategy<Value = Vec<String>> {
    (1usize..=4, 1usize..=4).prop_flat_map(|(w, h)| {
        let h = h.min(8 / w).max(1);
        prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c', 'a', 'b', 'c', 'A', 'B', '#']), w * h)
            .prop_map(move |cells| cells.chunks(w).map(|r| r.iter().collect()).collect())
    })
}

/// The fewest recolours that give the movable blocks an arrangement with no run and a valid swap
/// (found by trying every breed for every movable cell), or `None` when there is none.
fn brute_force_min_recolours(s: &Match3State, breeds: u8) -> Option<usize> {
    let rows = s.rows();
    let cells: Vec<(usize, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(y, r)| {
            r.chars().enumerate().filter(|(_, c)| c.is_ascii_lowercase()).map(move |(x, _)| (x, y))
        })
        .collect();
    let pool = breed_counts(s);
    let mut locked = [0i64; 16];
    for b in s.blocks().cells().iter().flatten().filter(|b| b.locked) {
        locked[usize::from(b.breed)] += 1;
    }
    let n = cells.len();
    let mut best: Option<usize> = None;
    let total = (breeds as usize).pow(n as u32);
    for code in 0..total {
        let mut grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
        let mut used = [0i64; 16];
        let mut c = code;
        for &(x, y) in &cells {
            let b = (c % breeds as usize) as u8;
            c /= breeds as usize;
            grid[y][x] = char::from(b'a' + b);
            used[usize::from(b)] += 1;
        }
        let rows: Vec<String> = grid.into_iter().map(|r| r.into_iter().collect()).collect();
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let t = Match3State::from_rows(&refs, 0).unwrap();
        if t.find_run().is_some() || !brute_force_has_swap(&t) {
            continue;
        }
        // Blocks kept = overlap of the movable pool with the arrangement's breeds.
        let kept: i64 = (0..16).map(|b| used[b].min(pool[b] - locked[b])).sum();
        let recolours = n - kept as usize;
        best = Some(best.map_or(recolours, |r: usize| r.min(recolours)));
    }
    best
}
