//! The match3 importers: `stage`, the seed's stage files.

use crate::Level;
use crate::import::{ImportError, ImportOutput, Imported, Importer, stem};
use crate::match3::Match3Level;

/// `stage`: a match-3 stage file of seed 004 into a match3 level.
pub const STAGE: Importer = Importer {
    name: "stage",
    about: "A match-3 stage file of seed 004 ({\"row\": R, \"col\": C, \"cells\": [...]}, 0 = Void, \
            1 = Playable, top row first) into a match3 level whose blocks are chosen at the start.",
    input: "a stage file",
    max_bytes: 16 << 20,
    extensions: &[],
    output: ImportOutput::One,
    import: |text, file_name, sink| crate::import::push_all(stage(text, file_name), sink),
};

/// This rule set's importers.
pub const IMPORTERS: &[Importer] = &[STAGE];

/// The level of a stage file, named after the file (without its extension).
fn stage(text: &str, file_name: Option<&str>) -> Result<Vec<Imported>, ImportError> {
    let level = Match3Level::from_stage_json(text, stem(file_name)).map_err(ImportError::whole)?;
    Ok(vec![Imported { file: None, level: Level::Match3(level), summary: None }])
}
