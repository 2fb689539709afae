//! The tactics importers: `movingai`, the Moving AI benchmark maps.

use crate::Level;
use crate::import::{ImportError, ImportOutput, Imported, Importer};
use crate::tactics::TacticsLevel;

/// `movingai`: a Moving AI `.map` file into a tactics level.
pub const MOVINGAI: Importer = Importer {
    name: "movingai",
    about: "A Moving AI `.map` file into a tactics level: its terrain, 8-connected, no units.",
    input: "a Moving AI map",
    max_bytes: 64 << 20,
    extensions: &["map"],
    output: ImportOutput::One,
    import: |text, file_name, sink| crate::import::push_all(movingai(text, file_name), sink),
};

/// This rule set's importers.
pub const IMPORTERS: &[Importer] = &[MOVINGAI];

/// The map as a level (8-connected, no units), named after the file (with its extension).
fn movingai(text: &str, file_name: Option<&str>) -> Result<Vec<Imported>, ImportError> {
    let mut level = TacticsLevel::from_movingai(text).map_err(ImportError::whole)?;
    level.name = file_name.map(str::to_owned);
    Ok(vec![Imported { file: None, level: Level::Tactics(level), summary: None }])
}
