//! The incremental state hash against its reference, the full recomputation: after any sequence
//! of apply, undo and redo, in every rule set, the hash the rules kept equals the one computed
//! from scratch, and a state read back from its canonical bytes gets the same hash.

use proptest::prelude::*;
use proptest::sample::Index;
use tessera_core::{AnyRules, AnyState, Level, Rules, canonical_bytes, canonical_config};

/// One thing done to a game.
#[derive(Clone, Debug)]
enum Op {
    /// Apply the legal command picked by the index (nothing when there is none).
    Apply(Index),
    /// Undo the last step still done.
    Undo,
    /// Redo the last step undone.
    Redo,
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![4 => any::<Index>().prop_map(Op::Apply), 2 => Just(Op::Undo), 1 => Just(Op::Redo)],
        1..40,
    )
}

/// Plays `ops`, checking the kept hash against the recomputed one after every operation.
fn check(rules: &AnyRules, mut state: AnyState, ops: &[Op]) -> Result<(), TestCaseError> {
    prop_assert_eq!(state.hash(), state.recompute_hash(), "at the start");
    let (mut done, mut undone): (Vec<Vec<_>>, Vec<Vec<_>>) = (Vec::new(), Vec::new());
    for (k, op) in ops.iter().enumerate() {
        match op {
            Op::Apply(i) => {
                let legal = rules.legal_commands(&state);
                if legal.is_empty() {
                    continue;
                }
                let mut events = Vec::new();
                rules.apply(&mut state, &legal[i.index(legal.len())], &mut events).expect("legal");
                done.push(events);
                undone.clear();
            }
            Op::Undo => {
                let Some(events) = done.pop() else { continue };
                rules.undo(&mut state, &events);
                undone.push(events);
            }
            Op::Redo => {
                let Some(events) = undone.pop() else { continue };
                rules.redo(&mut state, &events).expect("recorded events fit");
                done.push(events);
            }
        }
        prop_assert_eq!(state.hash(), state.recompute_hash(), "after op {} ({:?})", k, op);
    }
    let bytes = canonical_bytes(&state);
    let (back, _): (AnyState, usize) = bincode::serde::decode_from_slice(&bytes, canonical_config()).unwrap();
    prop_assert_eq!(back.hash(), state.hash(), "deserialized");
    prop_assert_eq!(&back, &state);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn slide_keeps_its_hash(state in crate::slide::board(), ops in ops()) {
        let rules = AnyRules::Slide(Default::default());
        check(&rules, AnyState::Slide(state), &ops)?;
    }

    #[test]
    fn classic_slide_keeps_its_hash(seed in any::<u64>(), ops in ops()) {
        let game = Level::classic().start(Some(seed)).unwrap();
        check(&game.rules, game.state, &ops)?;
    }

    #[test]
    fn collapse_keeps_its_hash(state in crate::collapse::board(), config in crate::collapse::config(), ops in ops()) {
        let rules = AnyRules::Collapse(tessera_core::collapse::CollapseRules::new(config));
        check(&rules, AnyState::Collapse(state), &ops)?;
    }

    #[test]
    fn match3_keeps_its_hash(level in crate::match3::level(), ops in ops()) {
        // Some random layouts cannot start (no board without runs within budget): skip them.
        let game = Level::Match3(level).start(None);
        prop_assume!(game.is_ok());
        let game = game.unwrap();
        check(&game.rules, game.state, &ops)?;
    }

    #[test]
    fn tactics_keeps_its_hash((rules, state) in crate::tactics::world(), ops in ops()) {
        check(&AnyRules::Tactics(rules), AnyState::Tactics(state), &ops)?;
    }
}

/// Distinct states hash apart, and the keys are the documented splitmix64 finalizer.
#[test]
fn keys_are_splitmix64() {
    use tessera_core::keys::{cell_key, mix64};
    // The first output of splitmix64 seeded with 0 (the reference implementation's value).
    assert_eq!(mix64(0), 0xE220_A839_7B1D_CDAF);
    assert_ne!(cell_key(1, 2, 3), cell_key(1, 3, 2));
    assert_ne!(cell_key(1, 2, 3), cell_key(2, 2, 3));
    let a = Level::classic().start(Some(1)).unwrap().state;
    let b = Level::classic().start(Some(2)).unwrap().state;
    assert_ne!(a.hash(), b.hash());
}
