//! History: undo, redo, seek and branches against re-execution from the start.

use crate::common::{level, slide};
use proptest::prelude::*;
use tessera_core::{AnyCommand, AnyState, Level, Rules};
use tessera_replay::{History, NodeId, SeekError};

#[derive(Clone, Debug)]
enum Op {
    Execute(usize),
    /// A step computed on a copy (as the editor's worker does) and taken back; with `true`, the
    /// history moves (an undo) before it comes back, so it is stale.
    Accept(usize, bool),
    Undo,
    Redo,
    Seek(prop::sample::Index),
    Switch(prop::sample::Index),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0usize..4).prop_map(Op::Execute),
        2 => (0usize..4, any::<bool>()).prop_map(|(d, stale)| Op::Accept(d, stale)),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
        1 => any::<prop::sample::Index>().prop_map(Op::Seek),
        1 => any::<prop::sample::Index>().prop_map(Op::Switch),
    ]
}

/// The state reached by executing `commands` from the start.
fn replay(level: &Level, seed: u64, commands: &[AnyCommand]) -> AnyState {
    let mut g = level.start(Some(seed)).unwrap();
    let mut events = Vec::new();
    for c in commands {
        g.rules.apply(&mut g.state, c, &mut events).unwrap();
    }
    g.state
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn history_equals_re_execution_after_every_operation(
        seed in any::<u64>(), k in 0u32..5, ops in prop::collection::vec(op(), 1..80),
    ) {
        let lv = level(3);
        let mut h = History::with_keyframe_interval(lv.start(Some(seed)).unwrap(), k);
        for op in &ops {
            match op {
                Op::Execute(d) => {
                    let before = h.state().clone();
                    let (step, len) = (h.step(), h.len());
                    if h.execute(&slide(*d)).is_err() {
                        prop_assert_eq!(h.state(), &before);
                        prop_assert_eq!((h.step(), h.len()), (step, len));
                    } else {
                        prop_assert_eq!(h.step(), step + 1);
                    }
                }
                Op::Accept(d, stale) => {
                    let (from, step) = (h.current(), h.step());
                    let mut after = h.state().clone();
                    let mut events = Vec::new();
                    let took = h.rules().apply(&mut after, &slide(*d), &mut events).is_ok();
                    if *stale && h.undo().is_some() {
                        let (here, before) = (h.current(), h.state().clone());
                        prop_assert!(h.accept(&slide(*d), from, after, events).is_none(), "a stale step is dropped");
                        prop_assert_eq!((h.current(), h.state()), (here, &before));
                    } else if took {
                        prop_assert!(h.accept(&slide(*d), from, after, events).is_some(), "a fresh step is taken");
                        prop_assert_eq!(h.step(), step + 1);
                    }
                }
                Op::Undo => {
                    let could = h.can_undo();
                    prop_assert_eq!(h.undo().is_some(), could);
                }
                Op::Redo => {
                    let could = h.can_redo();
                    prop_assert_eq!(h.redo().is_some(), could);
                }
                Op::Seek(i) => {
                    let n = i.index(h.len() as usize + 1) as u64;
                    let len = h.len();
                    h.seek(n).unwrap();
                    prop_assert_eq!(h.step(), n);
                    prop_assert_eq!(h.len(), len, "seek keeps the line");
                    prop_assert_eq!(h.seek(len + 1), Err(SeekError::BeyondEnd { step: len + 1, len }));
                }
                Op::Switch(i) => {
                    let branches = h.branches();
                    let b = &branches[i.index(branches.len())];
                    h.switch_to(b.tip).unwrap();
                    prop_assert_eq!(h.current(), b.tip);
                    prop_assert_eq!(h.step(), b.steps);
                    prop_assert!(h.branches().iter().any(|x| x.tip == b.tip && x.current));
                }
            }
            let expected = replay(&lv, seed, &h.commands());
            prop_assert_eq!(h.state(), &expected);
            prop_assert_eq!(h.hash(), expected.hash());
            prop_assert_eq!(h.can_undo(), h.step() > 0);
            prop_assert_eq!(h.can_redo(), h.step() < h.len());
        }
        // Every branch survives: each tip is reachable and holds the state its commands give.
        let branches = h.branches();
        prop_assert_eq!(branches.iter().filter(|b| b.current).count(), 1);
        for b in &branches {
            h.switch_to(b.tip).unwrap();
            let expected = replay(&lv, seed, &h.commands());
            prop_assert_eq!(h.state(), &expected);
            prop_assert_eq!(h.step(), b.steps);
        }
    }
}

#[test]
fn a_command_after_undo_starts_a_branch_and_keeps_the_old_one() {
    let lv = level(4);
    let mut h = History::new(lv.start(Some(9)).unwrap());
    let cmds: Vec<AnyCommand> = (0..4).map(slide).collect();
    let first: Vec<&AnyCommand> =
        cmds.iter().filter(|c| h.rules().legal_commands(h.state()).contains(c)).take(2).collect();
    h.execute(first[0]).unwrap();
    let old_tip = h.current();
    let old_state = h.state().clone();
    h.undo().unwrap();
    h.execute(first[1]).unwrap();
    let new_tip = h.current();
    assert!(!h.can_redo());
    let branches = h.branches();
    assert_eq!(branches.len(), 2);
    assert!(branches.iter().any(|b| b.tip == old_tip && !b.current && b.fork == 0 && b.steps == 1));
    assert!(branches.iter().any(|b| b.tip == new_tip && b.current));
    h.switch_to(old_tip).unwrap();
    assert_eq!(h.state(), &old_state);
    // Executing the command an existing branch continues with follows it.
    h.undo().unwrap();
    h.execute(first[1]).unwrap();
    assert_eq!(h.current(), new_tip);
    assert_eq!(h.branches().len(), 2);
    assert_eq!(h.switch_to(NodeId::START), Ok(()));
    assert_eq!(h.step(), 0);
}

#[test]
fn seek_uses_keyframes_on_a_long_line() {
    let lv = level(6);
    let mut h = History::with_keyframe_interval(lv.start(Some(2)).unwrap(), 16);
    let mut i = 0;
    while h.len() < 300 {
        let legal = h.rules().legal_commands(h.state());
        let Some(c) = legal.get(i % legal.len().max(1)) else { break };
        h.execute(&c.clone()).unwrap();
        i += 1;
    }
    let commands = h.commands();
    for n in [0u64, 1, 17, 150, 299, 33, 255, 256, 5] {
        let n = n.min(h.len());
        h.seek(n).unwrap();
        assert_eq!(h.state(), &replay(&lv, 2, &commands[..n as usize]), "step {n}");
    }
}

#[test]
fn a_history_saves_its_line_of_play_as_a_log_that_verifies() {
    let lv = level(4);
    let mut h = History::with_keyframe_interval(lv.start(Some(4)).unwrap(), 3);
    for i in 0..40 {
        let _ = h.execute(&slide(i * 7 % 4));
        if i % 9 == 8 {
            h.undo();
            h.undo();
        }
    }
    h.undo();
    let bytes = h.write_log(Vec::new(), &lv, 4).unwrap();
    let log = tessera_replay::Log::from_bytes(bytes, tessera_replay::TailPolicy::Strict).unwrap();
    assert_eq!(log.steps(), h.step());
    assert_eq!(&log.state_at(log.steps()).unwrap(), h.state());
    assert!(tessera_replay::verify(&log).unwrap().ok());
    assert!(log.keyframe_steps().all(|s| s % 3 == 0));
    assert_eq!(log.keyframe_steps().count() as u64, h.step() / 3 + 1);
    let replayed = History::from_log(&log).unwrap();
    assert_eq!(replayed.commands(), h.commands());
}

/// `write_log_noted` writes `write_log`'s log and a note at the current step saying the player
/// was there, which `Log::player_step` finds (the last such note); a log without one has none,
/// and QA's other notes are not taken for it.
#[test]
fn a_noted_log_says_where_the_player_was() {
    use tessera_replay::{Log, TailPolicy, player_note};
    let level = level(4);
    let mut h = History::new(level.start(Some(5)).unwrap());
    for i in 0..12 {
        let _ = h.execute(&slide(i));
    }
    assert!(h.step() >= 2, "some slides were accepted");
    let played = h.step();
    let _ = h.undo();
    let at = h.step();
    assert_eq!(at + 1, played);
    let plain = Log::from_bytes(h.write_log(Vec::new(), &level, 5).unwrap(), TailPolicy::Strict).unwrap();
    assert_eq!(plain.player_step(), None);
    let bytes = h.write_log_noted(Vec::new(), &level, 5, Some("level 1")).unwrap();
    let noted = Log::from_bytes(bytes, TailPolicy::Strict).unwrap();
    assert_eq!(noted.steps(), at);
    assert_eq!(noted.player_step(), Some(at));
    assert_eq!(noted.notes().last().map(|n| n.text.clone()), Some(player_note("level 1")));
    // The same steps as the plain log: a note changes no step, no hash.
    for n in 1..=at {
        let (mut a, mut b): (tessera_replay::StepRecord, tessera_replay::StepRecord) = Default::default();
        plain.read_step(n, &mut a).unwrap();
        noted.read_step(n, &mut b).unwrap();
        assert_eq!(a, b, "step {n}");
    }
    assert!(tessera_replay::verify(&noted).unwrap().complete());
}
