//! Bots by name for a game of any rule set.
//!
//! A bot is a [`BotKind`]: a `Copy` handle to a registered [`BotInfo`] (its name, help, the rule
//! set it is for, its settings and how it is made). The generic bots (`random`, `greedy`,
//! `mcts`) are declared in [`crate::generic`]; each rule set declares its own in its folder of
//! [`crate::games`], and [`BotKind::ALL`] lists them in registry order. [`make_bot`] builds the
//! bot a [`BotSpec`] names on the rule set's own types (so a search pays no enum dispatch per
//! step), wrapped in [`ForAny`] so that the apps drive every bot as a `Bot<AnyRules>`.

use crate::Bot;
use crate::playable::Playable;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;
use tessera_core::{AnyCommand, AnyRules, AnyState, RuleSet};

/// How much an MCTS bot ([`crate::MctsBot`]) searches per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Budget {
    /// A fixed number of playouts: deterministic for a given seed.
    Playouts(u32),
    /// Playouts until this many milliseconds have passed: depends on the machine's speed.
    Millis(u64),
}

/// A rule set inside [`AnyRules`]: how to take it out and put its commands back (implemented in
/// each rule set's folder of [`crate::games`]).
pub trait Variant: Playable + Sized + 'static {
    /// This rule set's rules and state, when `rules` and `state` are of it.
    fn split<'a>(rules: &'a AnyRules, state: &'a AnyState) -> Option<(&'a Self, &'a Self::State)>;
    /// The command as an [`AnyCommand`].
    fn wrap(cmd: Self::Command) -> AnyCommand;
}

/// A bot for one rule set, played through [`AnyRules`]. On a game of another rule set it
/// chooses nothing.
pub struct ForAny<R, B> {
    bot: B,
    _rules: PhantomData<fn() -> R>,
}

impl<R, B> ForAny<R, B> {
    /// Wraps `bot`.
    pub fn new(bot: B) -> Self {
        ForAny { bot, _rules: PhantomData }
    }
}

impl<R: Variant, B: Bot<R>> Bot<AnyRules> for ForAny<R, B> {
    fn choose(&mut self, rules: &AnyRules, state: &AnyState) -> Option<AnyCommand> {
        let (r, s) = R::split(rules, state)?;
        self.bot.choose(r, s).map(R::wrap)
    }
}

/// `bot` on rule set `R`, boxed as a bot of [`AnyRules`].
pub fn boxed<R: Variant, B: Bot<R> + 'static>(bot: B) -> Box<dyn Bot<AnyRules>> {
    Box::new(ForAny::<R, B>::new(bot))
}

/// One of the generic bots, which every rule set's registry entry builds on its own types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generic {
    /// [`crate::RandomBot`].
    Random,
    /// [`crate::GreedyBot`] with [`crate::ScoreEval`].
    Greedy,
    /// [`crate::MctsBot`] with [`crate::ScoreEval`].
    Mcts,
}

/// How a registered bot is made.
#[derive(Clone, Copy)]
pub enum Make {
    /// A generic bot: the game's registry entry builds it for the game's rule set.
    Generic(Generic),
    /// A bot of one rule set: `make(spec, seed)`.
    Own(fn(&BotSpec, u64) -> Box<dyn Bot<AnyRules>>),
}

/// A bot's numeric setting ([`BotSpec::level`]): the command-line flag that sets it, and its
/// range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSetting {
    /// The flag (`--depth`, `--level`).
    pub flag: &'static str,
    /// The smallest value.
    pub min: u32,
    /// The largest value.
    pub max: u32,
    /// The range, said for messages (`expectimax depth is 1 to 6`).
    pub range: &'static str,
}

/// A registered bot: what the help, the command line and [`make_bot`] need to know of it.
pub struct BotInfo {
    /// The name on command lines and in reports.
    pub name: &'static str,
    /// Other names `--bot` accepts (a rule set's name for its own bot: `slide`).
    pub aliases: &'static [&'static str],
    /// What it does, in one sentence.
    pub about: &'static str,
    /// The one rule set it plays, or `None` for the generic bots.
    pub only_for: Option<RuleSet>,
    /// Whether it searches within a [`Budget`] (`--playouts`, `--millis`).
    pub budget: bool,
    /// Its numeric setting, if it has one.
    pub level: Option<LevelSetting>,
    /// Whether it always plays the same command from the same state (it draws nothing from its
    /// seed): on a level without chance every game it plays is then the same game.
    pub deterministic: bool,
    /// How it is made.
    pub make: Make,
}

/// Which bot: a handle to a registered [`BotInfo`]. Two handles are equal when they name the
/// same bot; serialized as the bot's name.
#[derive(Clone, Copy)]
pub struct BotKind(&'static BotInfo);

impl BotKind {
    /// The handle of `info` (what a rule set's folder registers).
    pub const fn new(info: &'static BotInfo) -> BotKind {
        BotKind(info)
    }

    /// Everything registered about the bot.
    pub const fn info(self) -> &'static BotInfo {
        self.0
    }

    /// The name used on command lines and in reports.
    pub const fn name(self) -> &'static str {
        self.0.name
    }

    /// What the bot does, in one sentence.
    pub const fn about(self) -> &'static str {
        self.0.about
    }

    /// The bot called `name` (or one of its aliases: `slide` and `collapse` name their rule
    /// set's bot).
    pub fn from_name(name: &str) -> Option<BotKind> {
        let all = BotKind::ALL.iter().copied();
        all.clone().find(|k| k.name() == name).or_else(|| all.clone().find(|k| k.0.aliases.contains(&name)))
    }

    /// The one rule set the bot plays, or `None` for the generic bots.
    pub const fn only_for(self) -> Option<RuleSet> {
        self.0.only_for
    }

    /// Whether the bot takes a search budget (`--playouts`, `--millis`).
    pub const fn takes_budget(self) -> bool {
        self.0.budget
    }

    /// The bot's numeric setting, if it has one.
    pub const fn level_setting(self) -> Option<LevelSetting> {
        self.0.level
    }

    /// Whether the bot always plays the same command from the same state (see
    /// [`BotInfo::deterministic`]).
    pub const fn deterministic(self) -> bool {
        self.0.deterministic
    }

    /// Every name, comma-separated (for messages).
    pub fn names() -> String {
        BotKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
    }
}

impl PartialEq for BotKind {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for BotKind {}

impl fmt::Debug for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BotKind({})", self.name())
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for BotKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for BotKind {
    /// A registered bot's name (not an alias: reports record names).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        BotKind::ALL.iter().copied().find(|k| k.name() == name).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown bot '{name}' (bots: {})", BotKind::names()))
        })
    }
}

/// A bot and its settings: what a report records, so that shards of one sweep can be checked to
/// use the same bot before they merge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSpec {
    /// Which bot.
    pub kind: BotKind,
    /// Search per decision for the bots that take a budget (default 200 playouts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// The bot's numeric setting ([`BotKind::level_setting`]: the search depth of
    /// `expectimax`, default adaptive; the nesting level of `nmcs`, default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
}

impl BotSpec {
    /// The bot `kind` with its default settings.
    pub fn new(kind: BotKind) -> Self {
        BotSpec { kind, budget: None, level: None }
    }

    /// Checks that the bot plays `rule_set`.
    pub fn check(&self, rule_set: RuleSet) -> Result<(), BotError> {
        match self.kind.only_for() {
            Some(only) if only != rule_set => Err(BotError::WrongRuleSet { bot: self.kind, rule_set, only }),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        match self.budget {
            Some(Budget::Playouts(n)) => write!(f, " ({n} playouts)")?,
            Some(Budget::Millis(ms)) => write!(f, " ({ms} ms)")?,
            None => {}
        }
        if let Some(l) = self.level {
            write!(f, " (level {l})")?;
        }
        Ok(())
    }
}

/// Why a bot cannot be made or played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// No bot has this name.
    #[error("unknown bot '{0}' (bots: {names})", names = BotKind::names())]
    UnknownBot(String),
    /// The bot plays another rule set.
    #[error("the {bot} bot plays {only} levels, and this level is {rule_set}")]
    WrongRuleSet {
        /// The bot.
        bot: BotKind,
        /// The level's rule set.
        rule_set: RuleSet,
        /// The rule set the bot plays.
        only: RuleSet,
    },
    /// The rule set has no entry in the bots' registry ([`crate::games`]).
    #[error("no bot plays {0} levels yet")]
    Unregistered(RuleSet),
    /// The bot chose a command the rules refused: a bug in the bot.
    #[error("move {step}: the bot chose '{command}', which the rules refused: {reason}")]
    Illegal {
        /// The move number (from 1).
        step: u32,
        /// The command.
        command: String,
        /// The rules' message.
        reason: String,
    },
    /// The level cannot be started.
    #[error("{0}")]
    Level(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::make_bot;

    #[test]
    fn a_bot_kind_is_serialized_as_its_name_and_unknown_names_are_refused() {
        for &k in BotKind::ALL {
            let json = serde_json::to_string(&k).expect("serializes");
            assert_eq!(json, format!("\"{}\"", k.name()));
            assert_eq!(serde_json::from_str::<BotKind>(&json).expect("deserializes"), k);
        }
        let e = serde_json::from_str::<BotKind>("\"nope\"").expect_err("no such bot");
        assert!(e.to_string().contains("unknown bot 'nope'"), "{e}");
        assert_eq!(BotKind::from_name("nope"), None);
    }

    #[test]
    fn a_generic_bot_plays_every_rule_set_and_a_rule_sets_bot_only_its_own() {
        for &k in BotKind::ALL {
            for &rs in RuleSet::ALL {
                let plays = k.only_for().is_none_or(|only| only == rs);
                assert_eq!(make_bot(&BotSpec::new(k), rs, 1).is_ok(), plays, "{k} on {rs}");
            }
        }
    }
}
