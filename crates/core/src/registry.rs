//! The registry: [`rule_sets!`] turns the list of rule sets in `lib.rs` (one line each) into
//! the type-erased enums and every dispatch over them, from each rule set's [`Plugin`] impl.
//!
//! The list in `lib.rs` is the one place in core that names every rule set; nothing here is
//! written per rule set. A line such as `mygame::MyGame as MyGame = "mygame"` declares the module
//! `mygame`, makes `MyGame` a variant of [`RuleSet`](crate::RuleSet), [`AnyRules`](crate::AnyRules),
//! [`AnyState`](crate::AnyState), [`AnyCommand`](crate::AnyCommand),
//! [`AnyEvent`](crate::AnyEvent), [`AnyKeyframe`](crate::AnyKeyframe) and
//! [`Level`](crate::Level) holding the plugin's associated types, and names it `"mygame"` in
//! levels, logs and command lines (checked at compile time against [`Plugin::NAME`]). The
//! order of the lines is the variant order: bincode writes a variant as its index, so logs
//! depend on it. Append; never reorder.
//!
//! [`Plugin`]: crate::Plugin
//! [`Plugin::NAME`]: crate::Plugin::NAME
//!
//! The registry. One line per rule set (`slide::Slide as Slide = "slide"`) declares the module and
//! generates `RuleSet`, `AnyRules`/`AnyState`/`AnyCommand`/`AnyEvent`, `Level`,
//! `AnyKeyframe`/`AnyKeyframeRef` and every `match` over them from the plugins. A line's position
//! is its variant index in every enum, so in every log: append, never reorder. `Plugin::VERSION` is
//! bumped whenever a rule change alters events; a bump that keeps the old behaviour sets
//! `Plugin::OLDEST_VERSION` and implements `Plugin::set_version`/`rules_version`, and
//! `tessera_replay::Log` opens a log with the rules of its recorded version
//! (`AnyRules::set_version`) when the build keeps it, so old logs re-execute exactly (tactics 3
//! moved paths on uniform terrain to jump point search and keeps 2, A* everywhere). Logs written
//! from a history or a reduction carry the version of the rules that made them. `any.rs` keeps
//! `Game` (rules and state together).

/// Whether two strings are equal, at compile time (the registry checks each line's name
/// against its plugin's `NAME`).
pub(crate) const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Generates the registry from one line per rule set: `module::PluginType as Variant = "name"`.
macro_rules! rule_sets {
    ($($module:ident :: $plugin:ident as $V:ident = $name:literal),+ $(,)?) => {
        $(
            pub mod $module;
            const _: () = assert!(
                $crate::registry::same_str(<$module::$plugin as $crate::Plugin>::NAME, $name),
                concat!("the registry line names ", $name, " but its plugin's NAME differs"),
            );
        )+

        /// Which rule set a game follows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        pub enum RuleSet {
            $(
                #[doc = concat!("`", $name, "`.")]
                #[serde(rename = $name)]
                $V,
            )+
        }

        impl RuleSet {
            /// Every rule set, in registry order.
            pub const ALL: &'static [RuleSet] = &[$(RuleSet::$V),+];

            /// The name used in levels, logs and command lines.
            pub const fn name(self) -> &'static str {
                match self {
                    $(RuleSet::$V => <$module::$plugin as $crate::Plugin>::NAME,)+
                }
            }

            /// The version of this rule set's behaviour ([`Plugin::VERSION`](crate::Plugin::VERSION)); logs record it.
            pub const fn version(self) -> u32 {
                match self {
                    $(RuleSet::$V => <$module::$plugin as $crate::Plugin>::VERSION,)+
                }
            }

            /// The oldest version of this rule set's behaviour this build still replays
            /// ([`Plugin::OLDEST_VERSION`](crate::Plugin::OLDEST_VERSION)).
            pub const fn oldest_version(self) -> u32 {
                match self {
                    $(RuleSet::$V => <$module::$plugin as $crate::Plugin>::OLDEST_VERSION,)+
                }
            }

            /// Whether this build replays logs recorded by `version` of this rule set.
            pub const fn keeps_version(self, version: u32) -> bool {
                self.oldest_version() <= version && version <= self.version()
            }

            /// The command words `tessera play` accepts for this rule set (besides `undo` and
            /// `redo`).
            pub const fn command_help(self) -> &'static str {
                match self {
                    $(RuleSet::$V => <$module::$plugin as $crate::Plugin>::COMMAND_HELP,)+
                }
            }

            /// The largest board side a level of this rule set may have.
            pub const fn max_side(self) -> usize {
                match self {
                    $(RuleSet::$V => <$module::$plugin as $crate::Plugin>::MAX_SIDE,)+
                }
            }
        }

        /// Every rule set's importers ([`Plugin::IMPORTERS`](crate::Plugin::IMPORTERS)), in registry order.
        pub(crate) const IMPORTERS: &[&[$crate::Importer]] = &[$(<$module::$plugin as $crate::Plugin>::IMPORTERS),+];

        /// Every rule set's generators ([`Plugin::GENERATORS`](crate::Plugin::GENERATORS)), in registry order.
        pub(crate) const GENERATORS: &[&[$crate::Generator]] = &[$(<$module::$plugin as $crate::Plugin>::GENERATORS),+];

        #[cfg(feature = "strategy")]
        impl RuleSet {
            /// The rule set's proptest strategies for the conformance kit
            /// ([`Plugin::strategies`](crate::Plugin::strategies)).
            pub fn strategies(self) -> $crate::strategy::Strategies {
                match self {
                    $(RuleSet::$V => <$module::$plugin as $crate::Plugin>::strategies(),)+
                }
            }
        }

        /// The rules (settings) of any rule set.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum AnyRules {
            $(
                #[doc = concat!("`", $name, "`.")]
                $V(<$module::$plugin as $crate::Plugin>::Rules),
            )+
        }

        /// The state of a game of any rule set.
        // A game holds one state at a time; boxing the larger variants would only add indirection.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum AnyState {
            $(
                #[doc = concat!("`", $name, "`.")]
                $V(<$module::$plugin as $crate::Plugin>::State),
            )+
        }

        /// A command of any rule set.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum AnyCommand {
            $(
                #[doc = concat!("`", $name, "`.")]
                $V(<$module::$plugin as $crate::Plugin>::Command),
            )+
        }

        /// An event of any rule set.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub enum AnyEvent {
            $(
                #[doc = concat!("`", $name, "`.")]
                $V(<$module::$plugin as $crate::Plugin>::Event),
            )+
        }

        /// A level of any rule set: the level file's JSON, tagged by its `rule_set` field.
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "rule_set")]
        pub enum Level {
            $(
                #[doc = concat!("`", $name, "`.")]
                #[serde(rename = $name)]
                $V(<$module::$plugin as $crate::Plugin>::Level),
            )+
        }

        /// A state as a format-2 log keyframe stores it ([`Plugin::Keyframe`](crate::Plugin::Keyframe)), decoded.
        #[derive(Clone, Debug, PartialEq, serde::Deserialize)]
        pub enum AnyKeyframe {
            $(
                #[doc = concat!("`", $name, "`.")]
                $V(<$module::$plugin as $crate::Plugin>::Keyframe),
            )+
        }

        /// A state as a format-2 log keyframe stores it, borrowed for encoding
        /// ([`AnyState::keyframe`]).
        #[derive(Debug, serde::Serialize)]
        pub enum AnyKeyframeRef<'a> {
            $(
                #[doc = concat!("`", $name, "`.")]
                $V(std::borrow::Cow<'a, <$module::$plugin as $crate::Plugin>::Keyframe>),
            )+
        }

        $(
            impl From<<$module::$plugin as $crate::Plugin>::Event> for AnyEvent {
                #[inline]
                fn from(e: <$module::$plugin as $crate::Plugin>::Event) -> Self {
                    AnyEvent::$V(e)
                }
            }

            impl $crate::EventOf<<$module::$plugin as $crate::Plugin>::Event> for AnyEvent {
                #[inline]
                fn event_of(&self) -> Option<&<$module::$plugin as $crate::Plugin>::Event> {
                    match self {
                        AnyEvent::$V(e) => Some(e),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )+

        impl AnyRules {
            /// The rule set.
            pub fn rule_set(&self) -> RuleSet {
                match self {
                    $(AnyRules::$V(_) => RuleSet::$V,)+
                }
            }

            /// The version of the rule set's behaviour these rules have: today's
            /// ([`RuleSet::version`]) unless [`AnyRules::set_version`] chose an older one.
            pub fn version(&self) -> u32 {
                match self {
                    $(AnyRules::$V(r) => <$module::$plugin as $crate::Plugin>::rules_version(r),)+
                }
            }

            /// Makes the rules behave as `version` of their rule set did (to replay a log
            /// recorded then). False, with the rules unchanged, for a version this build does
            /// not keep ([`RuleSet::keeps_version`]).
            pub fn set_version(&mut self, version: u32) -> bool {
                match self {
                    $(AnyRules::$V(r) => <$module::$plugin as $crate::Plugin>::set_version(r, version),)+
                }
            }

            /// A command worth trying now, changing nothing ([`Plugin::hint`](crate::Plugin::hint):
            /// for match3 a swap that makes a run, by default the first legal command). `None`
            /// when there is none.
            pub fn hint(&self, state: &AnyState) -> Option<AnyCommand> {
                match (self, state) {
                    $(
                        (AnyRules::$V(r), AnyState::$V(s)) => {
                            <$module::$plugin as $crate::Plugin>::hint(r, s).map(AnyCommand::$V)
                        }
                    )+
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }

        impl AnyState {
            /// The rule set.
            pub fn rule_set(&self) -> RuleSet {
                match self {
                    $(AnyState::$V(_) => RuleSet::$V,)+
                }
            }

            /// The stable 64-bit hash of the state: the incremental hash the rules keep up to
            /// date ([`crate::keys`]), read in O(1). Log format version 2 records it.
            #[inline]
            pub fn hash(&self) -> u64 {
                match self {
                    $(AnyState::$V(s) => <$module::$plugin as $crate::Plugin>::hash(s),)+
                }
            }

            /// [`AnyState::hash`] computed from scratch over the whole state: the reference the
            /// kept hash is tested against (property tests; debug builds of
            /// `tessera_replay::History`).
            pub fn recompute_hash(&self) -> u64 {
                match self {
                    $(AnyState::$V(s) => <$module::$plugin as $crate::Plugin>::recompute_hash(s),)+
                }
            }

            /// The version 1 state hash: [`crate::state_hash`] (xxh3-64 of the canonical bincode
            /// encoding), O(size of the state). Log format version 1 recorded it; such logs are
            /// still verified with it.
            pub fn hash_v1(&self) -> u64 {
                match self {
                    $(AnyState::$V(s) => $crate::state_hash(s),)+
                }
            }

            /// The board as the level format writes it (JSON).
            pub fn board_json(&self) -> serde_json::Value {
                match self {
                    $(AnyState::$V(s) => <$module::$plugin as $crate::Plugin>::board_json(s),)+
                }
            }

            /// The score, for rule sets that keep one.
            pub fn score(&self) -> Option<u64> {
                match self {
                    $(AnyState::$V(s) => <$module::$plugin as $crate::Plugin>::score(s),)+
                }
            }

            /// Replaces the state's generator with `rng` (a no-op for a rule set that draws
            /// nothing). For bots only: a determinized look-ahead plays on a copy of the state
            /// whose future draws come from the bot's own generator, never the game's. Normal
            /// play never calls it, so no event or hash of a game changes.
            pub fn replace_rng(&mut self, rng: $crate::GameRng) {
                match self {
                    $(AnyState::$V(s) => <$module::$plugin as $crate::Plugin>::replace_rng(s, rng),)+
                }
            }

            /// The board as text for a terminal.
            pub fn render(&self) -> String {
                match self {
                    $(AnyState::$V(s) => <$module::$plugin as $crate::Plugin>::render(s),)+
                }
            }

            /// The state as a format-2 keyframe stores it.
            pub fn keyframe(&self) -> AnyKeyframeRef<'_> {
                match self {
                    $(AnyState::$V(s) => AnyKeyframeRef::$V(<$module::$plugin as $crate::Plugin>::keyframe(s)),)+
                }
            }
        }

        impl AnyKeyframe {
            /// Whether the keyframe stores exactly `state` (without building a state).
            pub fn matches(&self, state: &AnyState) -> bool {
                match (self, state) {
                    $(
                        (AnyKeyframe::$V(k), AnyState::$V(s)) => {
                            *<$module::$plugin as $crate::Plugin>::keyframe(s) == *k
                        }
                    )+
                    #[allow(unreachable_patterns)]
                    _ => false,
                }
            }

            /// The state the keyframe stores, in a log that starts from `start`.
            pub fn into_state(self, start: &AnyState) -> Result<AnyState, $crate::KeyframeError> {
                match self {
                    $(
                        AnyKeyframe::$V(k) => {
                            let own = match start {
                                AnyState::$V(s) => Some(s),
                                #[allow(unreachable_patterns)]
                                _ => None,
                            };
                            <$module::$plugin as $crate::Plugin>::from_keyframe(k, own)
                                .map(AnyState::$V)
                                .map_err(|e| match e {
                                    $crate::KeyframeError::OtherRuleSet { keyframe, .. } => {
                                        $crate::KeyframeError::OtherRuleSet { keyframe, log: start.rule_set().name() }
                                    }
                                    e => e,
                                })
                        }
                    )+
                }
            }
        }

        /// Hands the board's size and every ground cell and piece of `state`
        /// ([`Project::pieces`](crate::project::Project::pieces)) to `visitor`.
        pub fn project_state<V: $crate::project::PieceVisitor>(state: &AnyState, visitor: V) -> V::Output {
            use $crate::project::Project;
            match state {
                $(
                    AnyState::$V(s) => visitor.visit(
                        <<$module::$plugin as $crate::Plugin>::Rules as Project>::size(s),
                        || <<$module::$plugin as $crate::Plugin>::Rules as Project>::pieces(s),
                    ),
                )+
            }
        }

        /// Pushes the ops of `event` onto `out` ([`Project::ops`](crate::project::Project::ops));
        /// returns the event's rule set.
        #[inline]
        pub fn project_event(event: &AnyEvent, out: &mut $crate::project::Ops) -> RuleSet {
            use $crate::project::Project;
            match event {
                $(
                    AnyEvent::$V(e) => {
                        <<$module::$plugin as $crate::Plugin>::Rules as Project>::ops(e, out);
                        RuleSet::$V
                    }
                )+
            }
        }

        impl AnyCommand {
            /// Parses one line of command text for `rule_set` (see [`RuleSet::command_help`]).
            pub fn parse(rule_set: RuleSet, text: &str) -> Result<AnyCommand, String> {
                match rule_set {
                    $(RuleSet::$V => text.parse().map(AnyCommand::$V),)+
                }
            }

            /// The rule set.
            pub fn rule_set(&self) -> RuleSet {
                match self {
                    $(AnyCommand::$V(_) => RuleSet::$V,)+
                }
            }

            /// Writes the canonical bytes of the step `(self, events, hash)` by hand when the
            /// rule set provides such an encoder ([`Plugin::encode_step`](crate::Plugin::encode_step)),
            /// returning `false` (nothing written) otherwise.
            #[inline]
            pub fn encode_step(&self, events: &[AnyEvent], hash: u64, buf: &mut Vec<u8>) -> bool {
                match self {
                    $(
                        AnyCommand::$V(c) => <$module::$plugin as $crate::Plugin>::encode_step(
                            RuleSet::$V as u32, c, events, hash, buf,
                        ),
                    )+
                }
            }
        }

        impl std::fmt::Display for AnyCommand {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    $(AnyCommand::$V(c) => c.fmt(f),)+
                }
            }
        }

        impl AnyEvent {
            /// Reads one event from the front of `bytes` by its rule set's hand-written decoder
            /// ([`Plugin::decode_event`](crate::Plugin::decode_event)): the event and the bytes
            /// it took, exactly as bincode would decode them, or `None` to leave it to bincode.
            #[inline]
            pub fn decode_by_hand(bytes: &[u8]) -> Option<(AnyEvent, usize)> {
                let (tag, n) = $crate::read_varint(bytes, 4)?;
                $(
                    if tag == RuleSet::$V as u64 {
                        let (e, m) = <$module::$plugin as $crate::Plugin>::decode_event(&bytes[n..])?;
                        return Some((AnyEvent::$V(e), n + m));
                    }
                )+
                None
            }

            /// The rule set.
            pub fn rule_set(&self) -> RuleSet {
                match self {
                    $(AnyEvent::$V(_) => RuleSet::$V,)+
                }
            }

            /// The event as JSON, without the rule-set wrapper: `{"Moved": {...}}`.
            pub fn to_json(&self) -> serde_json::Value {
                let v = match self {
                    $(AnyEvent::$V(e) => serde_json::to_value(e),)+
                };
                // Events are plain data: serialization to a JSON value cannot fail.
                v.unwrap_or(serde_json::Value::Null)
            }
        }

        impl $crate::Rules for AnyRules {
            type State = AnyState;
            type Command = AnyCommand;
            type Event = AnyEvent;

            #[inline]
            fn apply(
                &self,
                state: &mut AnyState,
                cmd: &AnyCommand,
                events: &mut Vec<AnyEvent>,
            ) -> Result<(), $crate::Rejected> {
                match (self, state, cmd) {
                    $(
                        (AnyRules::$V(r), AnyState::$V(s), AnyCommand::$V(c)) => {
                            <$module::$plugin as $crate::Plugin>::apply_into(r, s, c, events)
                        }
                    )+
                    #[allow(unreachable_patterns)]
                    _ => Err($crate::any::WRONG_RULE_SET),
                }
            }

            fn undo_event(&self, state: &mut AnyState, event: &AnyEvent) {
                match (self, state, event) {
                    $((AnyRules::$V(r), AnyState::$V(s), AnyEvent::$V(e)) => r.undo_event(s, e),)+
                    #[allow(unreachable_patterns)]
                    _ => {}
                }
            }

            fn redo_event(&self, state: &mut AnyState, event: &AnyEvent) -> Result<(), $crate::Inconsistent> {
                match (self, state, event) {
                    $((AnyRules::$V(r), AnyState::$V(s), AnyEvent::$V(e)) => r.redo_event(s, e),)+
                    #[allow(unreachable_patterns)]
                    _ => Err($crate::Inconsistent::new("the event is of another rule set than the game")),
                }
            }

            fn legal_commands(&self, state: &AnyState) -> Vec<AnyCommand> {
                match (self, state) {
                    $(
                        (AnyRules::$V(r), AnyState::$V(s)) => {
                            r.legal_commands(s).into_iter().map(AnyCommand::$V).collect()
                        }
                    )+
                    #[allow(unreachable_patterns)]
                    _ => Vec::new(),
                }
            }

            fn status(&self, state: &AnyState) -> $crate::Status {
                match (self, state) {
                    $((AnyRules::$V(r), AnyState::$V(s)) => r.status(s),)+
                    #[allow(unreachable_patterns)]
                    _ => $crate::Status::Over,
                }
            }
        }

        impl Level {
            /// The level's rule set.
            pub fn rule_set(&self) -> RuleSet {
                match self {
                    $(Level::$V(_) => RuleSet::$V,)+
                }
            }

            /// The seed the level names, if any.
            pub fn seed(&self) -> Option<u64> {
                match self {
                    $(Level::$V(l) => <$module::$plugin as $crate::Plugin>::level_seed(l),)+
                }
            }

            /// Starts a game: `seed`, else the level's own seed, else [`DEFAULT_SEED`](crate::DEFAULT_SEED).
            /// Checks everything the rules rely on.
            pub fn start(&self, seed: Option<u64>) -> Result<Game, LevelError> {
                let seed = seed.or(self.seed()).unwrap_or($crate::DEFAULT_SEED);
                match self {
                    $(
                        Level::$V(l) => {
                            let (r, s) = <$module::$plugin as $crate::Plugin>::start(l, seed)?;
                            Ok(Game { rules: AnyRules::$V(r), state: AnyState::$V(s) })
                        }
                    )+
                }
            }

            /// [`Level::start`] by the rules of `version` of the rule set
            /// ([`Plugin::start_version`](crate::Plugin::start_version)): what replaying a log
            /// recorded then needs, since a version may also begin a game differently. Today's
            /// rules for a version this build does not keep ([`RuleSet::keeps_version`]).
            pub fn start_version(&self, seed: Option<u64>, version: u32) -> Result<Game, LevelError> {
                let seed = seed.or(self.seed()).unwrap_or($crate::DEFAULT_SEED);
                match self {
                    $(
                        Level::$V(l) => {
                            let (r, s) = <$module::$plugin as $crate::Plugin>::start_version(l, seed, version)?;
                            Ok(Game { rules: AnyRules::$V(r), state: AnyState::$V(s) })
                        }
                    )+
                }
            }
        }
    };
}
