//! tessera-conformance: the property tests every rule set gets for free.
//!
//! A rule set hands the kit its proptest strategies — random levels, and a random command for
//! a game (legal or illegal, mostly legal) — as a [`Strategies`] value (its `strategy.rs` in
//! `tessera-core`, behind core's `strategy` feature). The kit plays games drawn from them
//! through the type-erased API ([`Level`], [`AnyRules`], [`AnyState`], [`AnyCommand`]) and
//! checks, as proptest properties, the contract the rest of the workspace relies on:
//!
//! | property | what it checks |
//! |---|---|
//! | [`determinism`] | the same level, seed and commands give the same events and hashes, twice; and through a log written ([`tessera_replay::LogWriter`]) and read back ([`tessera_replay::Log`]): every step's command, events and hash, the log's start, [`tessera_replay::verify`] and [`tessera_replay::History::from_log`] |
//! | [`undo_and_redo`] | a refused command pushes nothing and changes nothing (state, hash); `undo` restores the exact state and hash; applying again after an undo gives the same events and state; `redo` of the events equals the apply; a whole game undoes to its start and redoes to its end |
//! | [`checked_redo`] | redo of forged events (a number changed, an event dropped, repeated, moved to another step, swapped, or taken from another game of the same rule set) redoes with the kept hash still right, or is refused as `Inconsistent` changing nothing; unforged events always redo to the played state |
//! | [`history`] | after every [`tessera_replay::History`] execute, undo, redo and seek: the incremental hash ([`AnyState::hash`]) equals [`AnyState::recompute_hash`], and a [`tessera_ecs::Mirror`] that followed the events (apply forward, unapply backward, a seek walked step by step) equals [`tessera_ecs::Mirror::from_state`], its indexes agree with its world and its animation trails are continuous; the state reads back from its canonical bytes with the same hash |
//! | [`log_state_at`] | [`tessera_replay::Log::state_at`] at random steps (any keyframe interval) equals the state reached by playing |
//! | [`level_json`] | [`Level::to_json`] then [`Level::from_json`] gives the same level, which starts the same game (with its own seed and with another) |
//! | [`generators`] | every level generator the rule set registers (`Plugin::GENERATORS`) makes, from small boards and any seed, levels of its rule set that start, whose listed solution the rules accept and win at its last command (its figure at least the asked `min_steps`), that read back from their JSON, and that the same seed makes again |
//! | [`versions`] | a game starts with today's rules version; every version the rule set keeps can be set, and a game played by it, recorded under that version, opens with that version's rules and verifies; versions outside the kept range are refused and change nothing |
//!
//! And [`coverage`] says what games played from the strategies reach (kinds of events,
//! statuses, accepted and refused commands): the kit's tests check that every rule set's games
//! reach what its [`Strategies::reaches`] lists.
//!
//! # Using it for a new rule set
//! 1. In the rule set's folder in core, add `strategy.rs` (compiled with core's `strategy`
//!    feature) with `pub fn strategies() -> Strategies`: a `level` strategy that makes varied
//!    levels that start (sizes, settings, boards, fixture levels) and a `command` strategy that
//!    reaches every kind of event ([`tessera_core::strategy::mostly_legal`] mixes the legal
//!    commands with refused ones). The strategies may match on the rule set's own variants.
//!    List in `reaches` the kinds of events and the statuses its games must reach.
//! 2. Add one line to the lookup by [`RuleSet`] in the kit's `tests/games.rs`, the one list of
//!    rule sets the kit checks (its `match` does not compile until the new rule set is there).
//! 3. `cargo test -p tessera-conformance` runs every property on every rule set
//!    ([`conformance_tests!`]: one test per property). To run one rule set from a test of its
//!    own: `tessera_conformance::check(&strategies(), cases)`.
//!
//! Failures panic naming the rule set, the property and proptest's smallest failing input (no
//! regression file is written). Commands are drawn from the `command` strategy for the state at
//! hand, one per step, by a generator seeded from the input (`choices`), so the printed input
//! replays the same game.
//! `PROPTEST_CASES` overrides the number of cases, for a deeper run.

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::fmt::Debug;
use tessera_core::{AnyCommand, AnyEvent, AnyRules, AnyState, Game, Level, RuleSet, Rules};
use tessera_core::{canonical_bytes, canonical_config};
use tessera_ecs::{Anim, Cell, Mirror, Trail};
use tessera_replay::{Header, History, Log, LogWriter, StepRecord, TailPolicy};

pub use tessera_core::strategy::{Strategies, mostly_legal};

/// The most commands a game of the kit plays.
pub const MAX_STEPS: usize = 30;

/// One of the kit's properties: its name and the function that checks it.
pub type Property = (&'static str, fn(&Strategies, u32));

/// Every property, in the order [`check`] runs them ([`conformance_tests!`] has one test for
/// each: keep the two in step).
pub const PROPERTIES: &[Property] = &[
    ("determinism", determinism),
    ("undo_and_redo", undo_and_redo),
    ("checked_redo", checked_redo),
    ("history", history),
    ("log_state_at", log_state_at),
    ("level_json", level_json),
    ("versions", versions),
    ("generators", generators),
];

/// The rule set's level generators (see the table in the crate docs): over `cases` seeds (at
/// most 64: each is a whole search), boards of 6 to 9 cells a side and 1 to 3 objects, every
/// level made starts, is of the rule set, wins by its listed solution exactly at its last
/// command, has its figure at least `min_steps`, reads back from its JSON, and is made again
/// by the same seed; and some seed makes one.
pub fn generators(s: &Strategies, cases: u32) {
    let name = s.rule_set.name();
    for g in tessera_core::generators().filter(|g| g.name == name) {
        let mut made = 0;
        for seed in 0..u64::from(cases.min(64)) {
            let side = 6 + (seed % 4) as usize;
            // A generator that tunes a given level gets one of the strategies' levels, a wide
            // win rate and the kit's own playtest bot (random legal commands).
            let stage = (g.takes == tessera_core::Takes::Stage).then(|| {
                let mut bytes = [0u8; 32];
                bytes[..8].copy_from_slice(&seed.to_le_bytes());
                let mut runner = TestRunner::new_with_rng(
                    Config::default(),
                    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
                );
                (s.level)().new_tree(&mut runner).map(|t| t.current()).unwrap_or_else(|e| panic!("{e}"))
            });
            let playtest: &tessera_core::Playtest = &random_playtest;
            let req = tessera_core::GenerateRequest {
                width: side,
                height: side + (seed % 2) as usize,
                objects: 1 + (seed % 3) as usize,
                max_states: 20_000,
                min_steps: 2,
                max_steps: Some(12),
                stage: stage.as_ref(),
                locked: &[],
                win_rate: Some((200, 800)),
                games: 16,
                playtest: Some(playtest),
            };
            let first = (g.generate)(&req, &mut tessera_core::GameRng::new(seed));
            let again = (g.generate)(&req, &mut tessera_core::GameRng::new(seed));
            assert_eq!(first, again, "{name} generator, seed {seed}: the same seed makes the same level");
            let Ok(level) = first else { continue };
            made += 1;
            let what = format!("{name} generator, seed {seed}, {:?}", level.rows);
            assert_eq!(level.level.rule_set(), s.rule_set, "{what}: its rule set");
            assert!(
                level.optimal >= req.min_steps as u64,
                "{what}: {} {} below min_steps",
                level.optimal,
                level.figure
            );
            let json = level.level.to_json();
            assert!(
                Level::from_json(&json).ok().as_ref() == Some(&level.level),
                "{what}: reads back from its JSON"
            );
            let game = level.level.start(None).unwrap_or_else(|e| panic!("{what}: does not start: {e}"));
            let (rules, mut state) = (game.rules, game.state);
            let mut events = Vec::new();
            for (i, w) in level.solution.iter().enumerate() {
                let c =
                    AnyCommand::parse(s.rule_set, w).unwrap_or_else(|e| panic!("{what}: command {w}: {e}"));
                assert!(rules.status(&state) != tessera_core::Status::Won, "{what}: won before command {i}");
                events.clear();
                rules
                    .apply(&mut state, &c, &mut events)
                    .unwrap_or_else(|e| panic!("{what}: {w} refused: {e:?}"));
            }
            assert_eq!(rules.status(&state), tessera_core::Status::Won, "{what}: its solution wins");
        }
        assert!(made > 0, "{name} generator: no level from {} seeds", cases.min(64));
    }
}

/// The kit's playtest bot for tuning generators: random legal commands, drawn from a generator
/// seeded by the game's seed, until the game ends or `max_moves`.
fn random_playtest(level: &Level, seed: u64, max_moves: u32) -> Option<tessera_core::Playtested> {
    let game = level.start(Some(seed)).ok()?;
    let (rules, mut state) = (game.rules, game.state);
    let mut rng = tessera_core::GameRng::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut played = tessera_core::Playtested::default();
    let mut events = Vec::new();
    while (played.commands.len() as u32) < max_moves && rules.status(&state) == tessera_core::Status::Playing
    {
        let legal = rules.legal_commands(&state);
        if legal.is_empty() {
            break;
        }
        let c = &legal[rng.below(legal.len() as u32) as usize];
        events.clear();
        rules.apply(&mut state, c, &mut events).ok()?;
        played.commands.push(c.to_string());
        played.scores.push(state.score().unwrap_or(0));
    }
    played.won = rules.status(&state) == tessera_core::Status::Won;
    Some(played)
}

/// Runs every property on `strategies`' rule set, `cases` cases each; panics at the first
/// failure, naming the rule set, the property and the smallest failing input.
pub fn check(strategies: &Strategies, cases: u32) {
    for (_, property) in PROPERTIES {
        property(strategies, cases);
    }
}

/// Runs `property` on every rule set of [`RuleSet::ALL`], with `strategies(rule_set)`'s
/// strategies; panics if the lookup hands back another rule set's.
pub fn on_every_rule_set(strategies: fn(RuleSet) -> Strategies, cases: u32, property: fn(&Strategies, u32)) {
    for &rule_set in RuleSet::ALL {
        let s = strategies(rule_set);
        assert_eq!(s.rule_set, rule_set, "the lookup gives {}'s strategies for {rule_set}", s.rule_set);
        property(&s, cases);
    }
}

/// Checks that games played from `s` reach everything [`Strategies::reaches`] lists, and that
/// some commands are accepted and some refused; panics naming what was not reached.
pub fn check_coverage(s: &Strategies, games: u32) {
    let c = coverage(s, games);
    for what in s.reaches {
        let seen = c.events.contains_key(*what) || c.statuses.contains_key(what);
        assert!(seen, "{}: no game reached {what}: {c:?}", s.rule_set);
    }
    assert!(c.accepted > 0 && c.refused > 0, "{}: only accepted or only refused commands: {c:?}", s.rule_set);
}

/// One `#[test]` per property of the kit, each over every rule set: `conformance_tests!(lookup,
/// cases)` with `lookup: fn(RuleSet) -> Strategies` (the one list of rule sets), plus a test
/// that the games reach what each rule set's strategies promise ([`check_coverage`], 256 games).
#[macro_export]
macro_rules! conformance_tests {
    ($lookup:path, $cases:expr) => {
        #[test]
        fn determinism() {
            $crate::on_every_rule_set($lookup, $cases, $crate::determinism);
        }
        #[test]
        fn undo_and_redo() {
            $crate::on_every_rule_set($lookup, $cases, $crate::undo_and_redo);
        }
        #[test]
        fn checked_redo() {
            $crate::on_every_rule_set($lookup, $cases, $crate::checked_redo);
        }
        #[test]
        fn history() {
            $crate::on_every_rule_set($lookup, $cases, $crate::history);
        }
        #[test]
        fn log_state_at() {
            $crate::on_every_rule_set($lookup, $cases, $crate::log_state_at);
        }
        #[test]
        fn level_json() {
            $crate::on_every_rule_set($lookup, $cases, $crate::level_json);
        }
        #[test]
        fn versions() {
            $crate::on_every_rule_set($lookup, $cases, $crate::versions);
        }
        #[test]
        fn generators() {
            $crate::on_every_rule_set($lookup, $cases, $crate::generators);
        }
        #[test]
        fn strategies_reach_what_they_promise() {
            $crate::on_every_rule_set($lookup, 256, $crate::check_coverage);
        }
    };
}

/// Runs one property: `cases` cases of `input` through `test` (`PROPTEST_CASES` overrides).
fn run<S: Strategy>(
    strategies: &Strategies,
    property: &str,
    cases: u32,
    input: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: Debug,
{
    let default = Config::default();
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() { default.cases } else { cases };
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..default });
    if let Err(e) = runner.run(&input, test) {
        panic!("{} fails {property}: {e}", strategies.rule_set);
    }
}

/// A game to play: a level, the seed it starts with, and the seed of the player's choices.
#[derive(Clone, Debug)]
struct Setup {
    /// The level.
    level: Level,
    /// The seed the game starts with.
    seed: u64,
    /// The seed of the generator that draws the commands.
    choices: u64,
}

fn setup(s: &Strategies) -> impl Strategy<Value = Setup> + use<> {
    ((s.level)(), any::<u64>(), any::<u64>())
        .prop_map(|(level, seed, choices)| Setup { level, seed, choices })
        // A level that starts may still not start with every seed (a match-3 layout whose
        // board search gives up within its budget): such rare pairs are left out.
        .prop_filter("the level starts with the seed", |s| s.level.start(Some(s.seed)).is_ok())
}

impl Setup {
    /// The game the level starts with the seed.
    fn start(&self) -> Result<Game, TestCaseError> {
        self.level.start(Some(self.seed)).map_err(|e| {
            TestCaseError::fail(format!("the level strategy made a level that does not start: {e}"))
        })
    }
}

/// Draws commands from a rule set's `command` strategy with a generator of its own.
struct Player {
    runner: TestRunner,
    command: fn(&AnyRules, &AnyState) -> BoxedStrategy<AnyCommand>,
}

impl Player {
    fn new(s: &Strategies, seed: u64) -> Player {
        let mut bytes = [0u8; 32];
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            chunk.copy_from_slice(&(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_le_bytes());
        }
        let config = Config { failure_persistence: None, ..Config::default() };
        let runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
        Player { runner, command: s.command }
    }

    /// A command for the game `(rules, state)`.
    fn next(&mut self, rules: &AnyRules, state: &AnyState) -> Result<AnyCommand, TestCaseError> {
        let tree = (self.command)(rules, state)
            .new_tree(&mut self.runner)
            .map_err(|e| TestCaseError::fail(format!("the command strategy made no command: {e}")))?;
        Ok(tree.current())
    }
}

/// What one command did: accepted (its events) or refused, and the hash after it.
type Trace = Vec<(AnyCommand, Option<Vec<AnyEvent>>, u64)>;

/// A game played from a [`Setup`] for `tries` commands.
struct Played {
    start: AnyState,
    end: AnyState,
    rules: AnyRules,
    trace: Trace,
    /// The accepted steps: command and events.
    steps: Vec<(AnyCommand, Vec<AnyEvent>)>,
    /// The state before the first step and after each accepted step.
    states: Vec<AnyState>,
}

fn play(s: &Strategies, setup: &Setup, tries: usize) -> Result<Played, TestCaseError> {
    let Game { rules, mut state } = setup.start()?;
    let start = state.clone();
    let mut player = Player::new(s, setup.choices);
    let (mut trace, mut steps, mut states) = (Vec::new(), Vec::new(), vec![state.clone()]);
    for _ in 0..tries {
        let cmd = player.next(&rules, &state)?;
        let mut events = Vec::new();
        let accepted = rules.apply(&mut state, &cmd, &mut events).is_ok();
        trace.push((cmd.clone(), accepted.then(|| events.clone()), state.hash()));
        if accepted {
            steps.push((cmd, events));
            states.push(state.clone());
        }
    }
    Ok(Played { start, end: state, rules, trace, steps, states })
}

/// Writes the accepted steps of `p` as a log (keyframes every `k` steps) and reads it back.
fn record(setup: &Setup, p: &Played, k: u32) -> Result<Log, TestCaseError> {
    let fail = |what: &str, e: &dyn std::fmt::Display| TestCaseError::fail(format!("{what}: {e}"));
    let header = Header::new(&setup.level, setup.seed, k).map_err(|e| fail("header", &e))?;
    let mut w = LogWriter::new(Vec::new(), &header, &p.start).map_err(|e| fail("log start", &e))?;
    for ((cmd, events), after) in p.steps.iter().zip(&p.states[1..]) {
        w.record(cmd, events, after).map_err(|e| fail("log step", &e))?;
    }
    Log::from_bytes(w.into_inner(), TailPolicy::Strict).map_err(|e| fail("the log does not open", &e))
}

/// Rules versions: a game starts with today's version of its rules; every version the rule set
/// keeps ([`RuleSet::keeps_version`]) can be set and started by ([`Level::start_version`]), and
/// a game played by it, recorded with a header naming that version, opens with that version's
/// rules and verifies; a version outside the kept range is refused and changes nothing.
pub fn versions(s: &Strategies, cases: u32) {
    let input = (setup(s), 1..=MAX_STEPS);
    run(s, "versions", cases, input, |(setup, tries)| {
        let fail = |what: &str, e: &dyn std::fmt::Display| TestCaseError::fail(format!("{what}: {e}"));
        let rs = s.rule_set;
        let today = setup.start()?;
        prop_assert_eq!(today.rules.version(), rs.version(), "a game starts with today's rules");
        let mut rules = today.rules.clone();
        prop_assert!(!rules.set_version(rs.version() + 1), "a version after today's is refused");
        prop_assert_eq!(&rules, &today.rules, "a refused version changes nothing");
        if let Some(before) = rs.oldest_version().checked_sub(1) {
            prop_assert!(!rules.set_version(before), "a version older than the oldest kept is refused");
            prop_assert_eq!(&rules, &today.rules, "a refused version changes nothing");
        }
        let again =
            setup.level.start_version(Some(setup.seed), rs.version()).map_err(|e| fail("start", &e))?;
        prop_assert_eq!(&again, &today, "starting by today's version is starting");
        for v in rs.oldest_version()..=rs.version() {
            // A version's game begins as that version began it (what a log of it replays from).
            let Game { rules, mut state } =
                setup.level.start_version(Some(setup.seed), v).map_err(|e| fail("start", &e))?;
            prop_assert_eq!(rules.version(), v, "start_version({}) starts by other rules", v);
            let mut set = today.rules.clone();
            prop_assert!(set.set_version(v), "kept version {} is refused", v);
            prop_assert_eq!(&set, &rules, "set_version({}) and start_version({}) differ", v, v);
            let mut header = Header::new(&setup.level, setup.seed, 4).map_err(|e| fail("header", &e))?;
            header.rules_version = v;
            let mut w = LogWriter::new(Vec::new(), &header, &state).map_err(|e| fail("log start", &e))?;
            let mut player = Player::new(s, setup.choices);
            let mut events = Vec::new();
            for _ in 0..tries {
                let cmd = player.next(&rules, &state)?;
                events.clear();
                if rules.apply(&mut state, &cmd, &mut events).is_ok() {
                    w.record(&cmd, &events, &state).map_err(|e| fail("log step", &e))?;
                }
            }
            let log = Log::from_bytes(w.into_inner(), TailPolicy::Strict).map_err(|e| fail("log", &e))?;
            prop_assert_eq!(log.rules_version(), v, "the log opens with its version's rules");
            prop_assert_eq!(log.rules(), &rules);
            let report = tessera_replay::verify(&log).map_err(|e| fail("verify", &e))?;
            prop_assert!(report.ok() && !report.version_dropped(), "version {}: {:?}", v, report);
        }
        Ok(())
    });
}

/// Determinism: the same level, seed and commands give the same events and hashes twice, and
/// through a log written and read back.
pub fn determinism(s: &Strategies, cases: u32) {
    let input = (setup(s), 1..=MAX_STEPS, 0u32..6);
    run(s, "determinism", cases, input, |(setup, tries, k)| {
        let a = play(s, &setup, tries)?;
        let b = play(s, &setup, tries)?;
        prop_assert_eq!(&a.trace, &b.trace, "two plays of the same game differ");
        prop_assert_eq!(&a.end, &b.end);
        let log = record(&setup, &a, k)?;
        prop_assert_eq!(log.steps(), a.steps.len() as u64);
        let start = log.start().map_err(|e| TestCaseError::fail(format!("the log's start: {e}")))?;
        prop_assert_eq!(&start.state, &a.start, "the log starts another game");
        prop_assert_eq!(&start.rules, &a.rules);
        let mut rec = StepRecord::default();
        for (n, ((cmd, events), after)) in a.steps.iter().zip(&a.states[1..]).enumerate() {
            let step = n as u64 + 1;
            log.read_step(step, &mut rec).map_err(|e| TestCaseError::fail(format!("step {step}: {e}")))?;
            prop_assert_eq!(rec.command.as_ref(), Some(cmd), "step {}: command", step);
            prop_assert_eq!(&rec.events, events, "step {}: events", step);
            prop_assert_eq!(rec.hash, after.hash(), "step {}: hash", step);
        }
        let report = tessera_replay::verify(&log).map_err(|e| TestCaseError::fail(format!("verify: {e}")))?;
        prop_assert!(report.ok(), "verify: {:?}", report);
        let h =
            History::from_log(&log).map_err(|e| TestCaseError::fail(format!("History::from_log: {e}")))?;
        prop_assert_eq!(h.state(), &a.end, "the history of the log ends elsewhere");
        Ok(())
    });
}

/// Undo and redo: refused commands change nothing; undo is exact (state and hash); applying
/// again after undo equals the first apply; redo of the events equals the apply; a whole game
/// undoes to its start and redoes to its end.
pub fn undo_and_redo(s: &Strategies, cases: u32) {
    run(s, "undo_and_redo", cases, (setup(s), 1..=MAX_STEPS), |(setup, tries)| {
        let Game { rules, mut state } = setup.start()?;
        let start = state.clone();
        let mut player = Player::new(s, setup.choices);
        let mut steps = Vec::new();
        for _ in 0..tries {
            let cmd = player.next(&rules, &state)?;
            let before = state.clone();
            let mut events = Vec::new();
            if let Err(e) = rules.apply(&mut state, &cmd, &mut events) {
                prop_assert!(events.is_empty(), "{} refused ({}) but pushed events", cmd, e.code);
                prop_assert_eq!(&state, &before, "{} refused ({}) but changed the state", cmd, e.code);
                prop_assert_eq!(state.hash(), before.hash(), "{} refused but changed the hash", cmd);
                continue;
            }
            let after = state.clone();
            rules.undo(&mut state, &events);
            prop_assert_eq!(&state, &before, "undo of {} is not exact", cmd);
            prop_assert_eq!(state.hash(), before.hash(), "undo of {} leaves another hash", cmd);
            let mut again = Vec::new();
            prop_assert!(rules.apply(&mut state, &cmd, &mut again).is_ok(), "{} refused after undo", cmd);
            prop_assert_eq!(&again, &events, "{} applied again after undo gives other events", cmd);
            prop_assert_eq!(&state, &after);
            rules.undo(&mut state, &again);
            let redone = rules.redo(&mut state, &events);
            prop_assert!(redone.is_ok(), "redo of {}'s own events refused: {:?}", cmd, redone);
            prop_assert_eq!(&state, &after, "redo of {} differs from its apply", cmd);
            prop_assert_eq!(state.hash(), after.hash());
            steps.push(events);
        }
        let end = state.clone();
        for events in steps.iter().rev() {
            rules.undo(&mut state, events);
        }
        prop_assert_eq!(&state, &start, "undo of the whole game does not reach the start");
        for events in &steps {
            prop_assert!(rules.redo(&mut state, events).is_ok());
        }
        prop_assert_eq!(&state, &end, "redo of the whole game does not reach the end");
        Ok(())
    });
}

/// A change to a game's recorded steps.
#[derive(Clone, Debug)]
enum Mutation {
    /// Sets the `leaf`-th number of an event (in its JSON form) to `value`.
    Number {
        /// The step.
        step: Index,
        /// The event in the step.
        event: Index,
        /// Which number of the event.
        leaf: Index,
        /// Its new value.
        value: u64,
    },
    /// Drops an event.
    Drop {
        /// The step.
        step: Index,
        /// The event in the step.
        event: Index,
    },
    /// Repeats an event.
    Repeat {
        /// The step.
        step: Index,
        /// The event in the step.
        event: Index,
    },
    /// Moves an event to another step.
    Move {
        /// The step.
        step: Index,
        /// The event in the step.
        event: Index,
        /// The step it moves to.
        to: Index,
    },
    /// Swaps two events of a step.
    Swap {
        /// The step.
        step: Index,
        /// One event.
        a: Index,
        /// The other.
        b: Index,
    },
    /// Replaces an event with one recorded in another game of the same rule set.
    Foreign {
        /// The step.
        step: Index,
        /// The event in the step.
        event: Index,
        /// The other game's event (over all its steps' events).
        from: Index,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let value = prop_oneof![0u64..16, any::<u64>(), Just(u64::from(u32::MAX)), 0u64..1000];
    let i = any::<Index>;
    prop_oneof![
        4 => (i(), i(), i(), value).prop_map(|(step, event, leaf, value)| Mutation::Number { step, event, leaf, value }),
        1 => (i(), i()).prop_map(|(step, event)| Mutation::Drop { step, event }),
        1 => (i(), i()).prop_map(|(step, event)| Mutation::Repeat { step, event }),
        1 => (i(), i(), i()).prop_map(|(step, event, to)| Mutation::Move { step, event, to }),
        1 => (i(), i(), i()).prop_map(|(step, a, b)| Mutation::Swap { step, a, b }),
        2 => (i(), i(), i()).prop_map(|(step, event, from)| Mutation::Foreign { step, event, from }),
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

/// Applies `m` to `steps` (`foreign`: another game's events); `false` when it changed nothing.
fn mutate(steps: &mut [Vec<AnyEvent>], foreign: &[AnyEvent], m: &Mutation) -> bool {
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
            let Ok(mut v) = serde_json::to_value(&s[e]) else { return false };
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
        Mutation::Foreign { step, event, from } => {
            let s = &mut steps[step.index(n)];
            if s.is_empty() || foreign.is_empty() {
                return false;
            }
            let (e, other) = (event.index(s.len()), &foreign[from.index(foreign.len())]);
            if s[e] == *other {
                return false;
            }
            s[e] = other.clone();
            true
        }
    }
}

/// Checked redo: forged events (a number changed, an event dropped, repeated, moved, swapped, or
/// taken from another game) redo with the kept hash right or are refused as `Inconsistent`
/// changing nothing; unforged events always redo to the played state.
pub fn checked_redo(s: &Strategies, cases: u32) {
    let input = (setup(s), setup(s), 1..=MAX_STEPS, prop::collection::vec(mutation(), 0..6));
    run(s, "checked_redo", cases, input, |(setup, other, tries, mutations)| {
        let played = play(s, &setup, tries)?;
        let foreign: Vec<AnyEvent> = play(s, &other, tries)?.steps.into_iter().flat_map(|(_, e)| e).collect();
        let mut steps: Vec<Vec<AnyEvent>> = played.steps.iter().map(|(_, e)| e.clone()).collect();
        let mut mutated = false;
        for m in &mutations {
            mutated |= mutate(&mut steps, &foreign, m);
        }
        let mut state = played.start.clone();
        for (n, events) in steps.iter().enumerate() {
            let before = state.clone();
            match played.rules.redo(&mut state, events) {
                Ok(()) => {
                    prop_assert_eq!(state.hash(), state.recompute_hash(), "step {}: hash after redo", n + 1)
                }
                Err(e) => {
                    prop_assert!(mutated, "step {}: unforged events refused: {}", n + 1, e);
                    prop_assert!(
                        e.event < events.len(),
                        "step {}: the refusal names event {}",
                        n + 1,
                        e.event
                    );
                    prop_assert_eq!(&state, &before, "step {}: a refused step changed the state", n + 1);
                    prop_assert_eq!(state.hash(), before.hash());
                    return Ok(());
                }
            }
        }
        if !mutated {
            prop_assert_eq!(&state, &played.end, "redo of unforged events reaches another state");
        }
        Ok(())
    });
}

/// One thing done to a [`History`].
#[derive(Clone, Debug)]
enum Op {
    /// Execute the next command of the player.
    Execute,
    /// Undo a step.
    Undo,
    /// Redo a step.
    Redo,
    /// Seek to a step of the line.
    Seek(Index),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![5 => Just(Op::Execute), 2 => Just(Op::Undo), 1 => Just(Op::Redo), 1 => any::<Index>().prop_map(Op::Seek)];
    prop::collection::vec(op, 1..40)
}

/// Starts a step and follows `events` forward (in order) or backward (in reverse order).
fn follow(m: &mut Mirror, events: &[AnyEvent], forward: bool) -> Result<(), TestCaseError> {
    m.begin_step();
    if forward {
        for e in events {
            m.try_apply(e)
                .map_err(|err| TestCaseError::fail(format!("{e:?} does not fit the mirror: {err}")))?;
        }
    } else {
        for e in events.iter().rev() {
            m.try_unapply(e).map_err(|err| {
                TestCaseError::fail(format!("{e:?} does not fit the mirror backward: {err}"))
            })?;
        }
    }
    trails_are_continuous(m)
}

/// Every animated entity's and ghost's trail is continuous, in phase order, below `phases()`,
/// and ends with its `Anim` (on the entity's cell; where the ghost left).
fn trails_are_continuous(m: &Mirror) -> Result<(), TestCaseError> {
    let check = |trail: &[Anim], what: &str| -> Result<(), TestCaseError> {
        prop_assert!(!trail.is_empty(), "{}: empty trail", what);
        for w in trail.windows(2) {
            prop_assert_eq!(w[0].to, w[1].from, "{}: the trail jumps: {:?}", what, trail);
            prop_assert!(w[0].phase <= w[1].phase, "{}: phases out of order: {:?}", what, trail);
        }
        prop_assert!(
            trail.iter().all(|a| a.phase < m.phases()),
            "{}: phase past {}: {:?}",
            what,
            m.phases(),
            trail
        );
        Ok(())
    };
    for (cell, anim, trail) in m.world().query::<(&Cell, &Anim, &Trail)>().iter() {
        check(&trail.0, "entity")?;
        prop_assert_eq!(trail.0.last(), Some(anim));
        prop_assert_eq!(anim.to, cell.0, "an entity's animation ends off its cell");
    }
    for g in m.ghosts() {
        check(&g.trail, "ghost")?;
        prop_assert_eq!(g.trail.last(), Some(&g.anim));
        prop_assert_eq!(g.anim.from, g.at, "a ghost leaves from another cell than its last");
    }
    prop_assert!(m.touched().iter().all(|&p| m.size().contains(p)), "a touched cell is off the board");
    Ok(())
}

/// The history: after every execute, undo, redo and seek the kept hash equals the recomputed
/// one, and the mirror that followed the events equals a fresh mirror of the state.
pub fn history(s: &Strategies, cases: u32) {
    run(s, "history", cases, (setup(s), 0u32..4, ops()), |(setup, k, ops)| {
        let mut h = History::with_keyframe_interval(setup.start()?, k);
        let mut player = Player::new(s, setup.choices);
        let mut m = Mirror::from_state(h.state());
        prop_assert_eq!(h.state().hash(), h.state().recompute_hash(), "at the start");
        for (n, op) in ops.iter().enumerate() {
            match op {
                Op::Execute => {
                    let cmd = player.next(h.rules(), h.state())?;
                    let (before, step, len) = (h.state().clone(), h.step(), h.len());
                    match h.execute(&cmd) {
                        Ok(events) => follow(&mut m, events, true)?,
                        Err(_) => {
                            prop_assert_eq!(
                                h.state(),
                                &before,
                                "op {}: refused {} changed the state",
                                n,
                                cmd
                            );
                            prop_assert_eq!((h.step(), h.len()), (step, len));
                        }
                    }
                }
                Op::Undo => {
                    if let Some(events) = h.undo() {
                        follow(&mut m, events, false)?;
                    }
                }
                Op::Redo => {
                    if let Some(events) = h.redo() {
                        follow(&mut m, events, true)?;
                    }
                }
                Op::Seek(i) => {
                    let (from, to) = (h.step(), i.index(h.len() as usize + 1) as u64);
                    h.seek(to).map_err(|e| TestCaseError::fail(format!("seek to {to}: {e}")))?;
                    let missing = || TestCaseError::fail("a step of the line has no events");
                    if to < from {
                        for k in (to + 1..=from).rev() {
                            follow(&mut m, h.events_at(k).ok_or_else(missing)?, false)?;
                        }
                    } else {
                        for k in from + 1..=to {
                            follow(&mut m, h.events_at(k).ok_or_else(missing)?, true)?;
                        }
                    }
                }
            }
            let state = h.state();
            prop_assert_eq!(
                state.hash(),
                state.recompute_hash(),
                "op {} ({:?}): kept hash != recomputed",
                n,
                op
            );
            prop_assert!(m.check().is_ok(), "op {} ({:?}): mirror indexes: {:?}", n, op, m.check());
            let fresh = Mirror::from_state(state);
            prop_assert_eq!(
                m.snapshot(),
                fresh.snapshot(),
                "op {} ({:?}): the mirror differs from a fresh one",
                n,
                op
            );
            prop_assert!(m == fresh);
        }
        let state = h.state();
        let bytes = canonical_bytes(state);
        let back: Result<(AnyState, usize), _> =
            bincode::serde::decode_from_slice(&bytes, canonical_config());
        let back = back.map_err(|e| TestCaseError::fail(format!("canonical bytes do not decode: {e}")))?.0;
        prop_assert_eq!(&back, state, "a state read back from its canonical bytes differs");
        prop_assert_eq!(back.hash(), state.hash(), "a state read back has another hash");
        Ok(())
    });
}

/// `Log::state_at` at random steps (any keyframe interval) equals the state reached by playing.
pub fn log_state_at(s: &Strategies, cases: u32) {
    let input = (setup(s), 1..=MAX_STEPS, 0u32..6, prop::collection::vec(any::<Index>(), 1..8));
    run(s, "log_state_at", cases, input, |(setup, tries, k, picks)| {
        let played = play(s, &setup, tries)?;
        let log = record(&setup, &played, k)?;
        for pick in &picks {
            let n = pick.index(played.states.len());
            let at =
                log.state_at(n as u64).map_err(|e| TestCaseError::fail(format!("state_at({n}): {e}")))?;
            prop_assert_eq!(&at, &played.states[n], "state_at({}) differs from play", n);
            prop_assert_eq!(at.hash(), played.states[n].hash());
        }
        prop_assert!(log.state_at(log.steps() + 1).is_err(), "state_at past the end");
        Ok(())
    });
}

/// The level format: `to_json` then `from_json` gives the same level, starting the same game.
pub fn level_json(s: &Strategies, cases: u32) {
    run(s, "level_json", cases, ((s.level)(), any::<u64>()), |(level, seed)| {
        let json = level.to_json();
        let back = Level::from_json(&json).map_err(|e| TestCaseError::fail(format!("{e}\n{json}")))?;
        prop_assert_eq!(&back, &level, "the level reads back as another");
        let (a, b) = (level.start(None), back.start(None));
        prop_assert_eq!(a.as_ref().ok(), b.as_ref().ok(), "the level read back starts another game");
        prop_assert!(a.is_ok(), "the level does not start: {:?}", a.err());
        prop_assert_eq!(level.start(Some(seed)).ok(), back.start(Some(seed)).ok());
        let game = level.start(Some(seed)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(game.state.rule_set(), s.rule_set, "a level of another rule set");
        prop_assert_eq!(game.state.hash(), game.state.recompute_hash(), "a new game's kept hash");
        Ok(())
    });
}

/// What games played from a rule set's strategies reached: how often each kind of event
/// happened (by its name in the event's JSON, `Merged`, `Shuffled`, ...) and each status was
/// reached (`won`, `over`), and how many commands were accepted and refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Events by kind.
    pub events: std::collections::BTreeMap<String, u64>,
    /// Statuses other than `playing` by name, counted once per game that reached them.
    pub statuses: std::collections::BTreeMap<&'static str, u64>,
    /// Commands accepted.
    pub accepted: u64,
    /// Commands refused.
    pub refused: u64,
}

/// Plays `games` games of up to [`MAX_STEPS`] commands from `s` (a fixed generator, so the
/// answer is the same on every run) and says what they reached.
pub fn coverage(s: &Strategies, games: u32) -> Coverage {
    let mut runner = TestRunner::deterministic();
    let mut out = Coverage::default();
    let input = setup(s);
    for _ in 0..games {
        let Ok(tree) = input.new_tree(&mut runner) else { continue };
        let Ok(p) = play(s, &tree.current(), MAX_STEPS) else { continue };
        for (_, events, _) in &p.trace {
            let Some(events) = events else {
                out.refused += 1;
                continue;
            };
            out.accepted += 1;
            for e in events {
                // A variant with fields is `{"Name": {...}}`; a unit variant is `"Name"`.
                let json = e.to_json();
                let name = match &json {
                    serde_json::Value::Object(o) => o.keys().next().cloned(),
                    serde_json::Value::String(name) => Some(name.clone()),
                    _ => None,
                };
                if let Some(name) = name {
                    *out.events.entry(name).or_default() += 1;
                }
            }
        }
        let mut seen = Vec::new();
        for st in &p.states {
            let status = p.rules.status(st);
            if status != tessera_core::Status::Playing && !seen.contains(&status) {
                seen.push(status);
                *out.statuses.entry(status.name()).or_default() += 1;
            }
        }
    }
    out
}
