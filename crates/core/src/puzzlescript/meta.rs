//! [`Meta`]: what views need of a compiled game (its size, object names and layers, the legend's
//! glyphs), kept with each state and shared, never changed by play.

use crate::Size;
use serde::{Deserialize, Serialize};

/// What views need of the compiled game, kept with the state (shared, never changed by play).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The board's size.
    pub size: Size,
    /// Bit words per cell.
    pub stride: usize,
    /// Object names, by index.
    pub names: Vec<String>,
    /// Each object's collision layer, by index (views draw lower layers first).
    pub layers: Vec<u32>,
    /// The legend's one-character glyphs with the objects each stands for (bit words), for the
    /// text rendering: a cell shows the first glyph whose objects are exactly its own.
    pub glyphs: Vec<(char, Vec<u64>)>,
}
