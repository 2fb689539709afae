//! tessera-core: the rules of tessera's grid puzzle games.
//!
//! This crate holds everything that decides what happens in a game, and nothing else: no I/O,
//! no files, no hecs, no egui.
//!
//! - [`Rules`]: the trait every rule set implements. `apply` runs a command and pushes events
//!   into a buffer the caller owns; `undo` and `redo` replay those events backward and forward,
//!   exactly, without the generator.
//! - The rule sets: [`slide`] (2048), [`collapse`] (SameGame), [`tactics`] (terrain, movement
//!   range, A*, path arrows), [`match3`] (swap, cascades, locked blocks, shuffle).
//! - [`AnyRules`], [`AnyState`], [`AnyCommand`], [`AnyEvent`]: one enum over the rule sets, for
//!   the apps and the log.
//! - [`Level`]: the JSON level format, checked on load; a [`LevelError`] carries where the
//!   problem is ([`Place`]: a cell, row, column or unit) as data besides its message.
//! - [`importers`]: other formats into levels ([`Importer`], each rule set's `import.rs`), by
//!   name, without I/O.
//! - [`project`]: the mirror projection, how a rule set shows itself to views (pieces with a
//!   generic look, events as generic mirror ops); [`project_state`], [`project_event`].
//! - [`GameRng`]: ChaCha8 from a `u64` seed, kept in the state; the only randomness.
//! - [`state_hash`]: xxh3-64 of the canonical bincode 2 encoding.
//! - Geometry: [`Pos`] (`y = 0` is the top row), [`Dir`], [`Size`], [`Grid`]; stable [`Id`]s.
//!
//! Determinism is the product's promise: the same level, seed and commands give the same events
//! and hashes on every machine. Rules use integers only, never iterate hash maps, and draw
//! randomness only from the state's generator.
//!
//! ```
//! use tessera_core::{Dir, Level, Rules, AnyCommand, slide::SlideCommand};
//!
//! let mut game = Level::classic().start(Some(42)).unwrap();
//! let mut events = Vec::new();
//! let before = game.state.clone();
//! let cmd = game.rules.legal_commands(&game.state)[0].clone();
//! game.rules.apply(&mut game.state, &cmd, &mut events).unwrap();
//! game.rules.undo(&mut game.state, &events);
//! assert_eq!(game.state, before);
//! # let _ = (Dir::Up, AnyCommand::Slide(SlideCommand::Slide(Dir::Up)));
//! ```

#[macro_use]
mod registry;

mod any;
mod generator;
mod geom;
pub mod glyph;
mod hash;
mod id;
mod import;
mod level;
mod plugin;
pub mod project;
mod rng;
mod rules;
#[cfg(feature = "strategy")]
pub mod strategy;

pub use any::Game;
pub use generator::{
    GenerateRequest, Generated, Generator, Measured, NoLevel, Playtest, Playtested, Takes, generator,
    generators,
};
pub use geom::{Dir, Grid, MAX_SIDE, Pos, Size, SizeError};
pub use hash::{canonical_bytes, canonical_config, keys, state_hash};
pub use id::{Id, IdGen};
pub use import::{
    ImportError, ImportOutput, Imported, Importer, Sink, importer, importer_for_extension, importers,
};
pub use level::{DEFAULT_SEED, LevelError, Place};
pub use plugin::{EventOf, KeyframeError, Plugin, read_varint};
pub use rng::{GameRng, RngSpan};
pub use rules::{Inconsistent, Rejected, Rules, Status};

// The registry: one line per rule set (its folder, its `Plugin` type, its variant, its name).
// A line's position is its variant index in every enum and so in every log: append, never
// reorder. See `registry.rs` and ARCHITECTURE.md ("Adding a rule set").
rule_sets! {
    slide::Slide as Slide = "slide",
    collapse::Collapse as Collapse = "collapse",
    tactics::Tactics as Tactics = "tactics",
    match3::Match3 as Match3 = "match3",
    sokoban::Sokoban as Sokoban = "sokoban",
    puzzlescript::PuzzleScript as PuzzleScript = "puzzlescript",
}

impl Level {
    /// The built-in default level: classic 4×4 2048 (what the editor opens with no file).
    pub fn classic() -> Level {
        Level::Slide(slide::SlideLevel::classic())
    }
}
