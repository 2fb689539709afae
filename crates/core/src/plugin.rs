//! What a rule set provides to the rest of tessera: the [`Plugin`] trait.
//!
//! A rule set is one folder under `src/` (its rules, state, commands and events, level format)
//! with a `plugin.rs` that implements [`Plugin`] for a unit type, plus one line in the registry
//! ([`crate::rule_sets!`] in `lib.rs`). The registry generates the type-erased enums
//! ([`AnyRules`](crate::AnyRules), [`AnyState`](crate::AnyState), [`AnyCommand`](crate::AnyCommand),
//! [`AnyEvent`](crate::AnyEvent), [`Level`](crate::Level), [`RuleSet`](crate::RuleSet),
//! [`AnyKeyframe`](crate::AnyKeyframe)) and every dispatch over them from this trait, so the log,
//! the mirror, the bots and the apps open any game without naming one.
//!
//! The registry line's position is the rule set's variant index in every enum, and so in every
//! log: new rule sets go at the end, and a line never moves.
//!
//! `Plugin`, implemented by a unit type in each rule set's `plugin.rs` (`slide::Slide`, …): name,
//! rules version, command help, largest side, the associated types (rules, state, command, event,
//! level, keyframe), `apply_into`, `start`, hashes, board JSON, score, text rendering, hint,
//! keyframes, and an optional hand-written step encoder and event decoder (`encode_step`,
//! `decode_event`, with `read_varint`; 2048's are in `slide/encode.rs`, proptested against bincode
//! on encodings, cut, changed and random bytes). Every method is an associated function, so
//! dispatch is static: a step costs what it did before.

use crate::level::LevelError;
use crate::rng::GameRng;
use crate::rules::{Rejected, Rules};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// A rule set as the rest of tessera sees it. Implemented by a unit type in the rule set's
/// `plugin.rs`; every method is an associated function (no `self`), so the registry dispatches
/// statically and a step costs what it cost before the registry existed.
pub trait Plugin: 'static {
    /// The name used in levels, logs and command lines (`"slide"`); the level JSON's
    /// `rule_set` field.
    const NAME: &'static str;
    /// The version of this rule set's behaviour. Bump it whenever a change alters the events
    /// some command sequence produces; logs record it.
    const VERSION: u32;
    /// The oldest version of this rule set's behaviour this build still replays: logs recorded
    /// by versions `OLDEST_VERSION..=VERSION` re-execute exactly. When a bump keeps the old
    /// behaviour (behind [`Plugin::set_version`]), this stays; the default keeps only today's.
    const OLDEST_VERSION: u32 = Self::VERSION;
    /// The command words `tessera play` accepts (besides `undo` and `redo`), for help texts.
    const COMMAND_HELP: &'static str;
    /// The largest board side a level of this rule set may have.
    const MAX_SIDE: usize;
    /// Its importers from other file formats (`tessera convert FORMAT`, the editor's File →
    /// Open), listed by [`crate::importers`]. None by default.
    const IMPORTERS: &'static [crate::Importer] = &[];
    /// Its level generators (`tessera generate --rules NAME`), listed by
    /// [`crate::generators`]: each makes a level and proves it by the rule set's solver. None by
    /// default.
    const GENERATORS: &'static [crate::Generator] = &[];

    /// The rules (settings of one game), which also project the game for views (its mirror
    /// projection, in the rule set's `mirror.rs`: state → pieces, event → mirror ops).
    type Rules: Rules<State = Self::State, Command = Self::Command, Event = Self::Event>
        + crate::project::Project<State = Self::State, Event = Self::Event>
        + Clone
        + Eq
        + fmt::Debug
        + Serialize
        + DeserializeOwned;
    /// The whole game state, generator included.
    type State: Clone + Eq + fmt::Debug + Serialize + DeserializeOwned;
    /// What a player does; its text form is a line of a `tessera play` script.
    type Command: Clone
        + Eq
        + fmt::Debug
        + Serialize
        + DeserializeOwned
        + fmt::Display
        + FromStr<Err = String>;
    /// What happened: enough to animate, undo and redo.
    type Event: Clone + Eq + fmt::Debug + Serialize + DeserializeOwned;
    /// The level file's body (everything but the `rule_set` tag).
    type Level: Clone + Eq + fmt::Debug + Serialize + DeserializeOwned;
    /// The state as a format-2 log keyframe stores it: usually the state itself; a rule set
    /// whose state holds a large part that never changes (a tactics terrain) leaves it out and
    /// takes it back from the start state in [`Plugin::from_keyframe`].
    type Keyframe: Clone + PartialEq + Serialize + DeserializeOwned;

    /// Applies `cmd`, pushing the step's events into a buffer of any event type that converts
    /// from this rule set's (so [`AnyRules`](crate::AnyRules) fills a `Vec<AnyEvent>` directly).
    /// Either pushes one step's events and returns `Ok`, or returns `Rejected` having changed
    /// nothing.
    fn apply_into<E: From<Self::Event>>(
        rules: &Self::Rules,
        state: &mut Self::State,
        cmd: &Self::Command,
        events: &mut Vec<E>,
    ) -> Result<(), Rejected>;

    /// Starts a game of `level` with `seed` (a level's own seed, if any, has already been
    /// chosen by the caller). Checks everything the rules rely on.
    fn start(level: &Self::Level, seed: u64) -> Result<(Self::Rules, Self::State), LevelError>;
    /// Starts a game of `level` with `seed` by the rules of `version` (to replay a log recorded
    /// then): its rules behave as [`Plugin::set_version`] makes them, and its start state is the
    /// one that version began with. Today's rules for a version this build does not keep. The
    /// default starts by today's rules and sets the version: right for a rule set whose
    /// versions start alike.
    fn start_version(
        level: &Self::Level,
        seed: u64,
        version: u32,
    ) -> Result<(Self::Rules, Self::State), LevelError> {
        let (mut rules, state) = Self::start(level, seed)?;
        Self::set_version(&mut rules, version);
        Ok((rules, state))
    }
    /// Makes `rules` (as [`Plugin::start`] made them: today's version) behave as version
    /// `version` did, to replay a log recorded then. False, with `rules` unchanged, for a
    /// version this build does not keep. The default keeps only [`Plugin::VERSION`].
    fn set_version(rules: &mut Self::Rules, version: u32) -> bool {
        let _ = rules;
        version == Self::VERSION
    }
    /// The version `rules` behave as (what a log recorded with them must say).
    fn rules_version(rules: &Self::Rules) -> u32 {
        let _ = rules;
        Self::VERSION
    }
    /// The seed the level file names, if any.
    fn level_seed(level: &Self::Level) -> Option<u64>;

    /// The incremental state hash ([`crate::keys`]), kept up to date by the rules: O(1).
    fn hash(state: &Self::State) -> u64;
    /// The same hash recomputed from the whole state: the reference for tests.
    fn recompute_hash(state: &Self::State) -> u64;
    /// The board as the level format writes it (JSON).
    fn board_json(state: &Self::State) -> serde_json::Value;
    /// The score, for rule sets that keep one.
    fn score(state: &Self::State) -> Option<u64>;
    /// Replaces the state's generator (bots' determinized look-ahead only; a no-op for a rule
    /// set that draws nothing).
    fn replace_rng(state: &mut Self::State, rng: GameRng);
    /// The board as text for a terminal.
    fn render(state: &Self::State) -> String;
    /// A command worth trying now, changing nothing. By default the first legal command.
    fn hint(rules: &Self::Rules, state: &Self::State) -> Option<Self::Command> {
        rules.legal_commands(state).into_iter().next()
    }

    /// The state as a format-2 keyframe stores it.
    fn keyframe(state: &Self::State) -> Cow<'_, Self::Keyframe>;
    /// The state a keyframe stores, given the log's start state when it is of this rule set
    /// (`None` for a log of another rule set).
    fn from_keyframe(
        keyframe: Self::Keyframe,
        start: Option<&Self::State>,
    ) -> Result<Self::State, KeyframeError>;

    /// Its proptest strategies (random levels, random commands for a state) for the
    /// conformance kit (`tessera-conformance`); only with core's `strategy` feature.
    #[cfg(feature = "strategy")]
    fn strategies() -> crate::strategy::Strategies;

    /// Reads one event by hand from the front of `bytes` (after its `AnyEvent` variant index):
    /// the event and the bytes it took, exactly as bincode would decode them, or `None` to
    /// leave it to bincode (which also reports every error). The default declines; 2048, whose
    /// logs hold millions of small steps, reads its events by hand.
    #[inline]
    fn decode_event(bytes: &[u8]) -> Option<(Self::Event, usize)> {
        let _ = bytes;
        None
    }

    /// Writes a step's payload by hand — exactly the canonical bytes (bincode 2 `standard()`)
    /// of `(AnyCommand, Vec<AnyEvent>, u64)` for `command` wrapped in variant `tag` — and
    /// returns `true`, or returns `false` (writing nothing) to leave it to the serde encoder.
    /// Only worth it for the smallest, most numerous steps (2048's); the default declines.
    fn encode_step<E: EventOf<Self::Event>>(
        tag: u32,
        command: &Self::Command,
        events: &[E],
        hash: u64,
        buf: &mut Vec<u8>,
    ) -> bool {
        let _ = (tag, command, events, hash, buf);
        false
    }
}

/// Reads one bincode 2 `standard()` varint of an unsigned integer `bytes` wide (2, 4 or 8) from
/// the front of `input`: its value and length, exactly where bincode would accept it (a single
/// byte below 251, or the marker 251, 252 or 253 of a width up to the type's, then that many
/// little-endian bytes), and `None` anywhere else (the caller then leaves the decoding to
/// bincode, which says what is wrong). For hand-written decoders ([`Plugin::decode_event`]).
#[inline(always)]
pub fn read_varint(input: &[u8], bytes: usize) -> Option<(u64, usize)> {
    let (&first, rest) = input.split_first()?;
    let (len, at) = match first {
        0..=250 => return Some((u64::from(first), 1)),
        251 => (2, 1),
        252 if bytes >= 4 => (4, 1),
        253 if bytes >= 8 => (8, 1),
        _ => return None,
    };
    let raw = rest.get(..len)?;
    let mut word = [0u8; 8];
    word[..len].copy_from_slice(raw);
    Some((u64::from_le_bytes(word), at + len))
}

/// What bincode 2 `standard()` writes, read by hand from the front of a slice for
/// [`Plugin::decode_event`] (2048's events, PuzzleScript's): each read answers `None` wherever
/// bincode would refuse the bytes, and the decoder then leaves the event to bincode.
pub(crate) struct Reader<'a> {
    b: &'a [u8],
    n: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the front of `b`.
    #[inline(always)]
    pub(crate) fn new(b: &'a [u8]) -> Self {
        Reader { b, n: 0 }
    }

    /// How many bytes were read.
    #[inline(always)]
    pub(crate) fn read(&self) -> usize {
        self.n
    }

    #[inline(always)]
    pub(crate) fn id(&mut self) -> Option<crate::Id> {
        self.u32().map(crate::Id)
    }

    /// A `Vec` of items read by `item` (each at least a byte).
    #[inline(always)]
    pub(crate) fn vec<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let n = self.len(1)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(item(self)?);
        }
        Some(out)
    }
    /// An unsigned integer `bytes` wide ([`read_varint`]).
    #[inline(always)]
    pub(crate) fn int(&mut self, bytes: usize) -> Option<u64> {
        let (v, used) = read_varint(self.b.get(self.n..)?, bytes)?;
        self.n += used;
        Some(v)
    }

    #[inline(always)]
    pub(crate) fn u32(&mut self) -> Option<u32> {
        self.int(4).and_then(|v| u32::try_from(v).ok())
    }

    #[inline(always)]
    pub(crate) fn pos(&mut self) -> Option<crate::Pos> {
        let x = u16::try_from(self.int(2)?).ok()?;
        let y = u16::try_from(self.int(2)?).ok()?;
        Some(crate::Pos::new(x, y))
    }

    /// A sequence's length, when the bytes left can hold that many items of at least
    /// `least` bytes each (a longer claim is cut short, and bincode says so).
    #[inline(always)]
    pub(crate) fn len(&mut self, least: usize) -> Option<usize> {
        let n = usize::try_from(self.int(8)?).ok()?;
        (n <= self.b.len().saturating_sub(self.n) / least).then_some(n)
    }

    /// A `Vec<u64>`.
    pub(crate) fn words(&mut self) -> Option<Vec<u64>> {
        let n = self.len(1)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(self.int(8)?);
        }
        Some(out)
    }

    /// A `Vec<u8>` or a string's bytes: its length, then the bytes themselves.
    pub(crate) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.len(1)?;
        let out = self.b.get(self.n..self.n + n)?;
        self.n += n;
        Some(out)
    }

    /// A `String` (UTF-8, as bincode checks).
    pub(crate) fn string(&mut self) -> Option<String> {
        let b = self.bytes()?;
        std::str::from_utf8(b).ok().map(str::to_owned)
    }
}

/// Borrows a rule set's own event out of a type-erased one (implemented by the registry for
/// [`AnyEvent`](crate::AnyEvent)).
pub trait EventOf<E> {
    /// The event, if it is of that rule set.
    fn event_of(&self) -> Option<&E>;
}

/// Why a keyframe does not give a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyframeError {
    /// The keyframe needs the log's start state of its own rule set, and the log is of another.
    #[error("a {keyframe} keyframe in a {log} log")]
    OtherRuleSet {
        /// The keyframe's rule set.
        keyframe: &'static str,
        /// The log's rule set.
        log: &'static str,
    },
    /// The keyframe does not fit the start state.
    #[error("{0}")]
    Invalid(String),
}

/// What the hand-written event readers' tests share ([`Reader`], [`Plugin::decode_event`]).
#[cfg(test)]
pub(crate) mod by_hand {
    use crate::AnyEvent;
    use proptest::prelude::*;

    /// Integers at and around every varint boundary, and anywhere.
    pub(crate) fn int() -> impl Strategy<Value = u64> {
        prop_oneof![
            0u64..300,
            prop::sample::select(vec![
                250u64,
                251,
                252,
                65_535,
                65_536,
                4_294_967_295,
                4_294_967_296,
                u64::MAX
            ]),
            any::<u64>(),
        ]
    }

    /// Positions with each coordinate at every varint boundary.
    pub(crate) fn pos() -> impl Strategy<Value = crate::Pos> {
        (int(), int()).prop_map(|(x, y)| crate::Pos::new(x as u16, y as u16))
    }

    /// bincode's reading of one `AnyEvent` from the front of `bytes`: the event and its length.
    fn bincode_event(bytes: &[u8]) -> Option<(AnyEvent, usize)> {
        bincode::serde::decode_from_slice::<AnyEvent, _>(bytes, crate::canonical_config()).ok()
    }

    /// How an encoding is damaged: cut at `cut`, a byte at `flip` changed to `byte`, or
    /// replaced by `noise`.
    #[derive(Clone, Debug)]
    pub(crate) struct Damage {
        cut: prop::sample::Index,
        flip: prop::sample::Index,
        byte: u8,
        noise: Vec<u8>,
    }

    /// Any [`Damage`].
    pub(crate) fn damage() -> impl Strategy<Value = Damage> {
        (
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
            any::<u8>(),
            prop::collection::vec(any::<u8>(), 0..24),
        )
            .prop_map(|(cut, flip, byte, noise)| Damage { cut, flip, byte, noise })
    }

    /// Events read by hand are bincode's: `e`, when `own` (of the rule set read by hand),
    /// reads back whole; and on any bytes (its encoding damaged by `d`) a read by hand, when
    /// it answers, equals bincode's, value and length.
    pub(crate) fn reads_as_bincode(e: &AnyEvent, own: bool, d: &Damage) -> Result<(), TestCaseError> {
        let bytes = crate::canonical_bytes(e);
        if own {
            prop_assert_eq!(AnyEvent::decode_by_hand(&bytes), Some((e.clone(), bytes.len())));
        }
        let mut changed = bytes.clone();
        let at = d.flip.index(changed.len());
        changed[at] = d.byte;
        let cut_at = d.cut.index(bytes.len() + 1);
        for input in [&bytes[..cut_at], &changed[..], &d.noise[..]] {
            if let Some(read) = AnyEvent::decode_by_hand(input) {
                prop_assert_eq!(Some(read), bincode_event(input));
            }
        }
        Ok(())
    }
}
