//! Bots by name for a game of any rule set.
//!
//! [`make_bot`] builds the bot a [`BotSpec`] names for the rule set of [`AnyRules`], on that rule
//! set's own types (so a search pays no enum dispatch per step), wrapped in [`ForAny`] so that the
//! apps drive every bot as a `Bot<AnyRules>`.

use crate::Bot;
use crate::collapse::{NmcsBot, NmcsConfig};
use crate::generic::{Budget, GreedyBot, MctsBot, MctsConfig, RandomBot};
use crate::playable::{ObjectiveEval, Playable, ScoreEval};
use crate::slide::{ExpectimaxBot, ExpectimaxConfig};
use crate::tactics::ApproachBot;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::marker::PhantomData;
use tessera_core::collapse::CollapseRules;
use tessera_core::match3::Match3Rules;
use tessera_core::slide::SlideRules;
use tessera_core::tactics::TacticsRules;
use tessera_core::{AnyCommand, AnyRules, AnyState, RuleSet};

/// A rule set inside [`AnyRules`]: how to take it out and put its commands back.
pub trait Variant: Playable + Sized + 'static {
    /// This rule set's rules and state, when `rules` and `state` are of it.
    fn split<'a>(rules: &'a AnyRules, state: &'a AnyState) -> Option<(&'a Self, &'a Self::State)>;
    /// The command as an [`AnyCommand`].
    fn wrap(cmd: Self::Command) -> AnyCommand;
}

macro_rules! variant {
    ($rules:ty, $name:ident) => {
        impl Variant for $rules {
            fn split<'a>(rules: &'a AnyRules, state: &'a AnyState) -> Option<(&'a Self, &'a Self::State)> {
                match (rules, state) {
                    (AnyRules::$name(r), AnyState::$name(s)) => Some((r, s)),
                    _ => None,
                }
            }
            fn wrap(cmd: Self::Command) -> AnyCommand {
                AnyCommand::$name(cmd)
            }
        }
    };
}

variant!(SlideRules, Slide);
variant!(CollapseRules, Collapse);
variant!(TacticsRules, Tactics);
variant!(Match3Rules, Match3);

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

/// Which bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BotKind {
    /// Uniformly random legal commands (any rule set).
    Random,
    /// Best immediate value (any rule set).
    Greedy,
    /// UCT with determinized rollouts (any rule set).
    Mcts,
    /// Expectimax over spawns on a 4×4 bitboard (slide).
    Expectimax,
    /// Nested Monte Carlo search (collapse).
    Nmcs,
    /// Greedy toward the level's objectives (match3).
    Match3Greedy,
    /// MCTS toward the level's objectives (match3).
    Match3Mcts,
    /// Each unit toward the nearest enemy, then end the turn (tactics).
    Tactics,
}

impl BotKind {
    /// Every bot, in the order the help lists them.
    pub const ALL: &'static [BotKind] = &[
        BotKind::Random,
        BotKind::Greedy,
        BotKind::Mcts,
        BotKind::Expectimax,
        BotKind::Nmcs,
        BotKind::Match3Greedy,
        BotKind::Match3Mcts,
        BotKind::Tactics,
    ];

    /// The name used on command lines and in reports.
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Mcts => "mcts",
            BotKind::Expectimax => "expectimax",
            BotKind::Nmcs => "nmcs",
            BotKind::Match3Greedy => "match3-greedy",
            BotKind::Match3Mcts => "match3-mcts",
            BotKind::Tactics => "tactics",
        }
    }

    /// The bot called `name` (`slide` and `collapse` also name their rule set's bot).
    pub fn from_name(name: &str) -> Option<BotKind> {
        match name {
            "slide" => Some(BotKind::Expectimax),
            "collapse" => Some(BotKind::Nmcs),
            _ => BotKind::ALL.iter().copied().find(|k| k.name() == name),
        }
    }

    /// The one rule set the bot plays, or `None` for the generic bots.
    pub const fn only_for(self) -> Option<RuleSet> {
        match self {
            BotKind::Random | BotKind::Greedy | BotKind::Mcts => None,
            BotKind::Expectimax => Some(RuleSet::Slide),
            BotKind::Nmcs => Some(RuleSet::Collapse),
            BotKind::Match3Greedy | BotKind::Match3Mcts => Some(RuleSet::Match3),
            BotKind::Tactics => Some(RuleSet::Tactics),
        }
    }

    /// Every name, comma-separated (for messages).
    pub fn names() -> String {
        BotKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bot and its settings: what a report records, so that shards of one sweep can be checked to
/// use the same bot before they merge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSpec {
    /// Which bot.
    pub kind: BotKind,
    /// Search per decision for `mcts` and `match3-mcts` (default 200 playouts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// Search depth for `expectimax` (default: adaptive), nesting level for `nmcs` (default 1).
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

    fn mcts(&self) -> MctsConfig {
        let mut c = MctsConfig::default();
        if let Some(b) = self.budget {
            c.budget = b;
        }
        c
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

fn boxed<R: Variant, B: Bot<R> + 'static>(bot: B) -> Box<dyn Bot<AnyRules>> {
    Box::new(ForAny::<R, B>::new(bot))
}

fn generic<R: Variant>(spec: &BotSpec, seed: u64) -> Box<dyn Bot<AnyRules>>
where
    R::Event: Send,
    R::Command: Send,
{
    match spec.kind {
        BotKind::Greedy => boxed::<R, _>(GreedyBot::<R, _>::new(seed, ScoreEval)),
        BotKind::Mcts => boxed::<R, _>(MctsBot::<R, _>::new(seed, ScoreEval, spec.mcts())),
        _ => boxed::<R, _>(RandomBot::new(seed)),
    }
}

/// The bot `spec` names, for a game of `rule_set`, seeded with `seed`.
pub fn make_bot(spec: &BotSpec, rule_set: RuleSet, seed: u64) -> Result<Box<dyn Bot<AnyRules>>, BotError> {
    spec.check(rule_set)?;
    Ok(match spec.kind {
        BotKind::Random | BotKind::Greedy | BotKind::Mcts => match rule_set {
            RuleSet::Slide => generic::<SlideRules>(spec, seed),
            RuleSet::Collapse => generic::<CollapseRules>(spec, seed),
            RuleSet::Tactics => generic::<TacticsRules>(spec, seed),
            RuleSet::Match3 => generic::<Match3Rules>(spec, seed),
        },
        BotKind::Expectimax => {
            let config = ExpectimaxConfig { depth: spec.level };
            boxed::<SlideRules, _>(ExpectimaxBot::new(seed, config))
        }
        BotKind::Nmcs => {
            let config = NmcsConfig { level: spec.level.unwrap_or(1) };
            boxed::<CollapseRules, _>(NmcsBot::new(seed, config))
        }
        BotKind::Match3Greedy => {
            boxed::<Match3Rules, _>(GreedyBot::<Match3Rules, _>::new(seed, ObjectiveEval))
        }
        BotKind::Match3Mcts => {
            let mut config = spec.mcts();
            // Play on toward the end of the move limit, where the objective is decided (levels
            // without one stop at the cap).
            config.rollout_depth = 100;
            boxed::<Match3Rules, _>(MctsBot::<Match3Rules, _>::new(seed, ObjectiveEval, config))
        }
        BotKind::Tactics => boxed::<TacticsRules, _>(ApproachBot),
    })
}
