//! tessera-ecs: a hecs [`World`](hecs::World) that mirrors a game as entities and follows its
//! events, for views (the editor draws from it), whatever the rule set. The only crate of the
//! workspace that knows hecs (re-exported as [`hecs`], so views use the same version).
//!
//! # Entities and components
//! The mirror knows no rule set. Each rule set projects itself in the generic vocabulary of
//! [`tessera_core::project`] (in its own `mirror.rs`): its state as
//! [`Piece`](tessera_core::project::Piece)s, its events as [`Op`](tessera_core::project::Op)s;
//! the mirror applies those and nothing else.
//!
//! [`Mirror::from_state`] spawns one entity per piece with [`Cell`] (its grid position),
//! [`Look`] (a generic [`Shape`] — numbered tile, square or disc of a hue with a lock flag, unit
//! with team and movement bar, void, ground of a legend index — and an optional [`Label`]) and
//! [`GameId`] (the game's stable id), and one entity per ground cell (voids, terrain) with
//! [`Cell`] and [`Look`] only: an entity is on [`Layer::Piece`] exactly when it has a
//! [`GameId`]. The mirror keeps a per-cell index for each [`Layer`] (`Vec<Option<Entity>>` over
//! the grid, what [`Mirror::piece_at`] and [`Mirror::ground_at`] read, so a view looks up only
//! its visible cells) and an id → entity map (a hash map whose hash is one multiplication,
//! [`Mirror::entity_of`]). hecs
//! iterates in no useful order: [`Mirror::pieces_by_id`], [`Mirror::cells_by_position`] and
//! [`Mirror::snapshot`] are sorted, for anything that must be deterministic.
//!
//! # Following a game
//! One step at a time: [`Mirror::begin_step`], then [`Mirror::apply`] for each of the step's
//! events in order (execute, redo) or [`Mirror::unapply`] for each in reverse order (undo). The
//! event is projected into ops ([`tessera_core::project_event`]); unapplying takes its ops in
//! reverse order, each inverted (a move runs back, a spawn becomes a despawn and a despawn a
//! spawn of the look the op carries, a look change swaps its before and after). After any such
//! sequence the mirror equals [`Mirror::from_state`] of the game's state ([`PartialEq`]
//! compares [`Snapshot`]s); the conformance kit (`crates/conformance`, its `history`
//! property) checks this for every rule set against `tessera_replay::History`. A seek (or a branch switch) has no events of its own. Two ways to
//! follow it: rebuild with `from_state` (what the editor does, without animation), or walk the
//! line one step at a time with the recorded events (`History::events_at`), unapplying back or
//! applying forward. The kit walks, the stronger check (a rebuilt mirror equals a
//! fresh one by definition). `from_state` costs about a millisecond on a 64×64 board but a
//! good part of a second on a 1024×1024 terrain map (a million ground entities;
//! `benches/mirror.rs`), where walking a few steps is much cheaper.
//!
//! Events of another rule set than the mirror's, and events that do not fit the board (an id the
//! mirror does not hold, a piece not on the cell the event names, a cell off the board, a
//! destination already taken, a spawn of an id already present, a change of a piece of another
//! shape), are **ignored**: the mirror never panics on them and changes nothing.
//! [`Mirror::try_apply`] and [`Mirror::try_unapply`] do the same but say why, as a
//! [`MirrorError`]. Every event is checked whole before anything changes: an op of many pieces
//! (a match, a shuffle) never applies in part, and an event of several ops (a merge) is checked
//! op by op in a dry run, each op seeing the earlier ones' effects, before any is carried out.
//!
//! # Animations
//! Each entity an applied op moves or changes with an animation gets an [`Anim`] component
//! ([`AnimKind`]: what happened, `from` and `to` cells, the phase) and a [`Trail`] (all its
//! animations in the step, in phase order, for pieces that move in several phases of a step). A
//! piece that leaves the board becomes a [`Ghost`] (its look, id, last cell and exit
//! animation), kept only until the next [`Mirror::begin_step`]; a view draws ghosts for their
//! exit and nothing else. [`Mirror::touched`] lists the cells the step touched (what the
//! debugger highlights).
//!
//! Phases order the animations of one step so a view can play them in sequence: every
//! animating op names a [`Stage`](tessera_core::project::Stage), and a new phase starts
//! whenever the stage differs from the previous animating op's. Each rule set's `mirror.rs`
//! says its stages (for instance a swap, then per cascade level the matches, falls and spawns).
//!
//! A phase is only counted when something happens in it (a tap whose columns do not fall has
//! no fall phase), so phases are numbered `0..phases()` without gaps. Scores, wins, game overs,
//! turn ends push no ops; movement restored and recolours change looks but do not animate.
//!
//! Unapplying a step gives the reversed animations: `from` and `to` swapped, and the phases
//! numbered from the step's last event back to its first (the last phase of a step is phase 0
//! of its undo). [`Mirror::reversed`] tells a view that the step runs backward, so it plays
//! [`AnimKind::Spawn`] as a disappearance (the piece is then a ghost) and [`AnimKind::Clear`]
//! and a merge's ghost ([`AnimKind::Merge`]) as appearances (the piece is live again).
//!
//! # Example
//! ```
//! use tessera_core::{Level, Rules};
//! use tessera_ecs::{AnimKind, Anim, Cell, Mirror};
//!
//! let mut game = Level::classic().start(Some(42)).unwrap();
//! let mut mirror = Mirror::from_state(&game.state);
//! let mut events = Vec::new();
//! let cmd = game.rules.legal_commands(&game.state)[0].clone();
//! game.rules.apply(&mut game.state, &cmd, &mut events).unwrap();
//!
//! mirror.begin_step();
//! for e in &events {
//!     mirror.apply(e);
//! }
//! assert_eq!(mirror, Mirror::from_state(&game.state));
//! // This game (`Level::classic`) spawns a tile every step, in the step's last phase.
//! let spawned = mirror
//!     .world()
//!     .query::<(&Cell, &Anim)>()
//!     .iter()
//!     .filter(|(_, a)| a.kind == AnimKind::Spawn)
//!     .count();
//! assert_eq!(spawned, 1);
//!
//! // Undo: the same events backward, in reverse order.
//! game.rules.undo(&mut game.state, &events);
//! mirror.begin_step();
//! for e in events.iter().rev() {
//!     mirror.unapply(e);
//! }
//! assert_eq!(mirror, Mirror::from_state(&game.state));
//! assert!(mirror.reversed());
//! ```

mod check;
mod components;
mod error;
mod follow;
mod mirror;

pub use components::{Anim, Cell, GameId, Ghost, Trail};
pub use error::{Inconsistent, MirrorError};
pub use hecs;
pub use mirror::{Mirror, Snapshot};
pub use tessera_core::project::{AnimKind, Label, Layer, Look, Shape};
