//! tessera-editor: the eframe/egui editor for tessera's grid puzzle games — Play and Debug over
//! one board view. The only crate that knows egui.
//!
//! - [`EditorApp`] is the window: a menu bar (open, save log, recent files), the mode's panels,
//!   the board and a status bar. Its `ui` takes an `egui::Ui`, so tests drive it headless with
//!   egui_kittest and `main.rs` runs it with eframe.
//! - [`Session`] is the game being played: a level, a seed, a `tessera_replay::History` (undo,
//!   redo, seek, branches that are never lost) and the `tessera_ecs::Mirror` the board is drawn
//!   from, kept in step with every event.
//! - `board` draws a mirror with the painter (only visible cells; tactics ground as one texture),
//!   with pan, zoom, animations ([`anim`]) and overlays; `play` turns input into commands by
//!   asking the rule set; `debug` is the time-travel debugger over a log.
//! - [`games`] holds what Edit and Play need from each rule set, one file per rule set behind
//!   the [`games::EditorGame`] trait and one registry line; nothing else matches a rule set.
//!   The games speak [`model`]'s data (a draft's sketch of glyphs, palette entries, Play's
//!   input) and import nothing of the modes, which import them.

pub mod anim;
mod app;
pub mod audio;
pub mod board;
pub mod complete;
pub mod console;
pub mod debug;
pub mod difficulty;
pub mod draft;
pub mod edit;
pub mod estimate;
pub mod files;
pub mod find;
pub mod games;
pub mod generate;
pub mod model;
pub mod pack;
pub mod palette;
pub mod play;
pub mod recovery;
mod session;
pub mod sound_picker;
pub mod source_editor;
pub mod syntax;
pub mod text_ops;
pub mod workbench;

pub use app::{
    Changed, EditorApp, Mode, Pending, SETTINGS_KEY, Settings, file_name_for, objectives, shown_score,
};
pub use session::{MAX_TURN_BOARDS, Session};
