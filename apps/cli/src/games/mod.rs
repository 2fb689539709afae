//! The CLI's registry of rule sets: the subcommands that belong to one rule set, one module per
//! rule set that has any, one name each in [`games!`].
//!
//! A module gives `pub enum Command` (a clap `Subcommand` enum: its subcommands, possibly none)
//! and `Command::run`; [`GameCommand`] flattens them into `tessera`'s subcommands. It also gives
//! `pub const SOLVERS: &[Solver]`, its solver for `tessera solve` (empty when it has none):
//! [`solver`] finds the one for a level's rule set; and `pub const DESCRIBE: Option<Describe>`,
//! its events in words for `tessera play` and `replay show` (`None`: their JSON). Everything else
//! the CLI does per rule set it asks the rule set: levels and commands through `tessera_core`'s
//! `Any*` types, importers through `tessera_core::importers`, bots through
//! `tessera_bots::BotKind::ALL`.

use crate::error::CliError;
use crate::solve_args::Solver;
use tessera_core::RuleSet;

/// An event in words, naming the game's things (see [`describe_event`]): a module's `DESCRIBE`.
pub type Describe = fn(&tessera_core::AnyState, &tessera_core::AnyEvent) -> Option<String>;

/// Declares the rule sets' modules and flattens their subcommands into [`GameCommand`].
macro_rules! games {
    ($($game:ident),* $(,)?) => {
        $(pub mod $game;)*

        /// A subcommand of one rule set.
        #[derive(clap::Subcommand, Debug)]
        #[allow(non_camel_case_types)]
        pub enum GameCommand {
            $(
                #[command(flatten)]
                $game($game::Command),
            )*
        }

        impl GameCommand {
            /// Runs the subcommand.
            pub fn run(&self) -> Result<(), CliError> {
                match self {
                    $(GameCommand::$game(c) => c.run(),)*
                }
            }
        }

        /// An event in words by its rule set, naming the game's things (PuzzleScript's objects
        /// by name), when the rule set has words for it; `state` is a state of the game.
        pub fn describe_event(state: &tessera_core::AnyState, e: &tessera_core::AnyEvent) -> Option<String> {
            [$($game::DESCRIBE),*].into_iter().flatten().find_map(|f| f(state, e))
        }

        /// Every registered solver, in registry order.
        pub fn solvers() -> impl Iterator<Item = &'static Solver> {
            [$($game::SOLVERS),*].into_iter().flatten()
        }
    };
}

// The registry: one name per rule set with subcommands or a solver of its own.
games!(collapse, tactics, sokoban, puzzlescript);

// `tessera sound`, one of puzzlescript's subcommands.
mod sound;

/// The solver of `rule_set`'s levels, if it has one.
pub fn solver(rule_set: RuleSet) -> Option<&'static Solver> {
    solvers().find(|s| s.rule_set == rule_set)
}
