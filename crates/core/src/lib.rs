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
//! - [`Level`]: the JSON level format, checked on load.
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

mod any;
pub mod collapse;
mod geom;
mod hash;
mod id;
mod level;
pub mod match3;
pub mod project;
mod project_any;
mod rng;
mod rules;
pub mod slide;
pub mod tactics;

pub use any::{AnyCommand, AnyEvent, AnyRules, AnyState, Game, RuleSet};
pub use geom::{Dir, Grid, MAX_SIDE, Pos, Size, SizeError};
pub use hash::{canonical_bytes, canonical_config, keys, state_hash};
pub use id::{Id, IdGen};
pub use level::{DEFAULT_SEED, Level, LevelError};
pub use project_any::{project_event, project_state};
pub use rng::{GameRng, RngSpan};
pub use rules::{Inconsistent, Rejected, Rules, Status};
