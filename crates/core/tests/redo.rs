//! Redo of untrusted events: a log that players send may hold well-framed events that do not
//! fit the board (forged, or damaged before its crcs were computed). Redo must check them: every
//! step either redoes (and the kept hash still equals the recomputed one) or is refused with
//! `Inconsistent`, leaving the state as it was, and nothing panics.
//!
//! The events are real games' events, mutated: a number changed anywhere in an event (a cell, an
//! id, a value, a generator position), an event dropped, repeated, moved to another step, or two
//! events swapped. Without mutations every step must redo.

use proptest::prelude::*;
use proptest::sample::Index;
use tessera_core::{AnyEvent, Level, Rules};

/// The levels the games are played on: one or two per rule set, with voids, locks and units.
fn levels() -> Vec<Level> {
    let json = |text: &str| Level::from_json(text).expect("fixture levels load");
    vec![
        Level::classic(),
        json(include_str!("../../../fixtures/levels/collapse_seed.json")),
        json(include_str!("../../../fixtures/levels/collapse_standard_15x15.json")),
        json(include_str!("../../../fixtures/levels/skirmish.json")),
        json(include_str!("../../../fixtures/levels/stage_0001.json")),
        json(include_str!("../../../fixtures/levels/match3_locks.json")),
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    /// Sets the `leaf`-th number of the event (in its JSON form) to `value`.
    Number {
        step: Index,
        event: Index,
        leaf: Index,
        value: u64,
    },
    Drop {
        step: Index,
        event: Index,
    },
    Repeat {
        step: Index,
        event: Index,
    },
    Move {
        step: Index,
        event: Index,
        to: Index,
    },
    Swap {
        step: Index,
        a: Index,
        b: Index,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let value = prop_oneof![0u64..16, any::<u64>(), Just(u64::from(u32::MAX)), 0u64..1000];
    prop_oneof![
        4 => (any::<Index>(), any::<Index>(), any::<Index>(), value)
            .prop_map(|(step, event, leaf, value)| Mutation::Number { step, event, leaf, value }),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(step, event)| Mutation::Drop { step, event }),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(step, event)| Mutation::Repeat { step, event }),
        1 => (any::<Index>(), any::<Index>(), any::<Index>())
            .prop_map(|(step, event, to)| Mutation::Move { step, event, to }),
        1 => (any::<Index>(), any::<Index>(), any::<Index>()).prop_map(|(step, a, b)| Mutation::Swap { step, a, b }),
    ]
}

/// The numbers in a JSON value, as pointers.
fn numbers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Number(_) => out.push(at),
        serde_json::Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                numbers(x, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(fields) => {
            for (k, x) in fields {
                numbers(x, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// Applies `m` to the steps; `false` when it could not apply (nothing changed).
fn mutate(steps: &mut [Vec<AnyEvent>], m: &Mutation) -> bool {
    if steps.is_empty() {
        return false;
    }
    let n = steps.len();
    match m {
        Mutation::Number { step, event, leaf, value } => {
            let s = &mut steps[step.index(n)];
            if s.is_empty() {
                return false;
            }
            let e = event.index(s.len());
            let mut v = serde_json::to_value(&s[e]).unwrap();
            let mut leaves = Vec::new();
            numbers(&v, String::new(), &mut leaves);
            if leaves.is_empty() {
                return false;
            }
            if let Some(x) = v.pointer_mut(&leaves[leaf.index(leaves.len())]) {
                *x = serde_json::json!(value);
            }
            match serde_json::from_value::<AnyEvent>(v) {
                Ok(changed) if changed != s[e] => {
                    s[e] = changed;
                    true
                }
                _ => false,
            }
        }
        Mutation::Drop { step, event } => {
            let s = &mut steps[step.index(n)];
            if s.is_empty() {
                return false;
            }
            s.remove(event.index(s.len()));
            true
        }
        Mutation::Repeat { step, event } => {
            let s = &mut steps[step.index(n)];
            if s.is_empty() {
                return false;
            }
            let e = event.index(s.len());
            let copy = s[e].clone();
            s.insert(e, copy);
            true
        }
        Mutation::Move { step, event, to } => {
            let (from, to) = (step.index(n), to.index(n));
            if steps[from].is_empty() || from == to {
                return false;
            }
            let e = event.index(steps[from].len());
            let moved = steps[from].remove(e);
            let at = e.min(steps[to].len());
            steps[to].insert(at, moved);
            true
        }
        Mutation::Swap { step, a, b } => {
            let s = &mut steps[step.index(n)];
            if s.len() < 2 {
                return false;
            }
            let (a, b) = (a.index(s.len()), b.index(s.len()));
            if s[a] == s[b] {
                return false;
            }
            s.swap(a, b);
            true
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn redo_of_any_well_framed_events_is_checked(
        level in any::<Index>(),
        seed in 0u64..1000,
        picks in prop::collection::vec(any::<Index>(), 1..30),
        mutations in prop::collection::vec(mutation(), 0..6),
    ) {
        let levels = levels();
        let level = &levels[level.index(levels.len())];
        let mut game = level.start(Some(seed)).unwrap();
        let start = game.state.clone();
        let mut steps: Vec<Vec<AnyEvent>> = Vec::new();
        for pick in &picks {
            let legal = game.rules.legal_commands(&game.state);
            if legal.is_empty() {
                break;
            }
            let mut events = Vec::new();
            game.rules.apply(&mut game.state, &legal[pick.index(legal.len())], &mut events).unwrap();
            steps.push(events);
        }
        let mut mutated = false;
        for m in &mutations {
            mutated |= mutate(&mut steps, m);
        }
        let mut state = start;
        for (n, events) in steps.iter().enumerate() {
            let before = state.clone();
            match game.rules.redo(&mut state, events) {
                Ok(()) => prop_assert_eq!(state.hash(), state.recompute_hash(), "step {}", n + 1),
                Err(e) => {
                    prop_assert!(mutated, "step {}: unmutated events refused: {}", n + 1, e);
                    prop_assert!(e.event < events.len());
                    prop_assert_eq!(&state, &before, "a refused step changes nothing");
                    return Ok(());
                }
            }
        }
        if !mutated {
            prop_assert_eq!(&state, &game.state, "redo of unmutated events reaches the played state");
        }
    }
}
