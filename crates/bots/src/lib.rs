//! tessera-bots: bots that play tessera's rule sets, and difficulty sweeps.
//!
//! A designer's first question about a level is "how hard is it?". This crate answers it by
//! letting bots play the level many times ([`difficulty`]), on top of nothing but
//! [`tessera_core::Rules`]: `legal_commands`, `apply` and `undo`.
//!
//! - [`Bot`]: given the rules and the state, choose a command.
//! - Generic bots for any rule set ([`generic`]): [`RandomBot`], [`GreedyBot`] (best immediate
//!   value, ties to the first command in `legal_commands` order) and [`MctsBot`] (UCT with
//!   determinized rollouts, budget in playouts or milliseconds).
//! - Bots for one rule set, in its module of [`games`] (the registry: one module and one line
//!   per rule set): the 2048 expectimax on a 4×4 bitboard (`games::slide`), nested Monte Carlo
//!   search for SameGame (`games::collapse`), the match-3 objective bots and the tactics
//!   approach bot. Each rule set registers its bots by name with their help ([`BotInfo`]).
//! - [`BotKind`] (a handle to a registered bot: [`BotKind::ALL`], by name), [`BotSpec`] and
//!   [`make_bot`]: a bot by name for any game ([`tessera_core::AnyRules`]).
//! - [`game::play_game`]: one game; [`difficulty`]: many, in parallel, with a report whose
//!   figures do not depend on the number of threads, and shards that merge into the report one
//!   run would give.
//!
//! **Bots see only what a player sees.** A bot never reads the game's generator: where it looks
//! ahead through chance (spawns, refills, shuffles), it plays on a copy of the state whose
//! generator it has replaced with one of its own ([`Playable::determinize`], built on
//! `replace_rng` in core), seeded from the bot's own [`BotRng`]. So two states that differ only
//! in their generators get the same choice, and the same bot seed gives the same moves.
//!
//! **Search on one state.** Look-ahead clones the state once per decision, then walks the tree
//! with `apply` and `undo`, reusing event buffers per depth: no board is cloned per node.
//!
//! Bots are not rules: they may use floating point for values and statistics. Every choice is
//! still deterministic for a given bot seed, except under a time budget (`--millis`), where the
//! number of playouts depends on the machine.

pub mod any;
pub mod difficulty;
pub mod estimate;
pub mod game;
pub mod games;
pub mod generic;
pub mod playable;
mod summary;

pub use any::{BotError, BotInfo, BotKind, BotSpec, Budget, ForAny, LevelSetting, Variant};
pub use estimate::{Estimate, EstimateError, Features, Limits, estimate_level};
pub use game::{
    DEFAULT_RUN_WORK, GameConfig, GameResult, Played, play_game, play_game_within, run_work, set_run_work,
};
pub use games::GameBots;
pub use games::make_bot;
pub use generic::{GreedyBot, MctsBot, MctsConfig, RandomBot};
pub use playable::{Evaluator, Outcome, Playable, ScoreEval};

use tessera_core::Rules;

/// A player: given the rules and the state, choose a command.
///
/// `choose` returns a command `apply` accepts, or `None` when there is none (no legal command).
/// Implementations must not read the state's generator (see the crate docs); they keep their
/// own [`BotRng`] and are deterministic for a given seed.
pub trait Bot<R: Rules>: Send {
    /// The command to play now, or `None` when no command is legal.
    fn choose(&mut self, rules: &R, state: &R::State) -> Option<R::Command>;
}

impl<R: Rules, B: Bot<R> + ?Sized> Bot<R> for Box<B> {
    fn choose(&mut self, rules: &R, state: &R::State) -> Option<R::Command> {
        (**self).choose(rules, state)
    }
}

/// The bots' own generator: SplitMix64, small and fast (random playouts draw millions of numbers
/// a second). Bots never draw from the game's [`tessera_core::GameRng`]; they seed fresh ones
/// from this when they determinize a look-ahead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotRng(u64);

impl BotRng {
    /// A generator for `seed`. The seed is mixed with a constant so that a bot seeded with a
    /// game's seed does not follow the game's stream in any way.
    pub fn new(seed: u64) -> Self {
        BotRng(seed ^ 0x6a09_e667_f3bc_c908)
    }

    /// The next 64-bit word (SplitMix64).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// An integer in `0..n` (`n` at least 1): the high word of a 64×32-bit product, biased by at
    /// most 2⁻³² (irrelevant for a bot's choices).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(n.max(1))) >> 64) as u32
    }

    /// A float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
