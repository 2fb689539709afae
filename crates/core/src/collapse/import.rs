//! The collapse importers: `samegame-testset`, the standard SameGame test set.

use crate::Level;
use crate::collapse::parse_testset;
use crate::import::{ImportError, ImportOutput, Imported, Importer, stem};

/// `samegame-testset`: one collapse level per board of the standard SameGame test set.
pub const SAMEGAME_TESTSET: Importer = Importer {
    name: "samegame-testset",
    about: "The standard SameGame test set (boards of space-separated colour numbers, top row \
            first, blank lines between) into one collapse level per board, with `left` \
            compaction and `standard` scoring: OUTDIR/samegame-01.json, samegame-02.json, ...",
    input: "a SameGame test set",
    max_bytes: 16 << 20,
    extensions: &[],
    output: ImportOutput::Many,
    import: |text, file_name, sink| crate::import::push_all(samegame_testset(text, file_name), sink),
};

/// This rule set's importers.
pub const IMPORTERS: &[Importer] = &[SAMEGAME_TESTSET];

/// Every board as a level (`samegame-NN.json`, named "STEM position N"), each checked to start;
/// the first bad board is an error naming its line.
fn samegame_testset(text: &str, file_name: Option<&str>) -> Result<Vec<Imported>, ImportError> {
    let boards = parse_testset(text).map_err(|e| ImportError::at(e.line, e.message))?;
    let stem = stem(file_name).unwrap_or_else(|| "test set".into());
    let digits = boards.len().to_string().len().max(2);
    let mut levels = Vec::with_capacity(boards.len());
    for (i, board) in boards.iter().enumerate() {
        let n = i + 1;
        let level = Level::Collapse(board.to_level(format!("{stem} position {n}")));
        // A board of this format is always a playable level; check anyway.
        level.start(None).map_err(|e| ImportError::at(board.line, format!("board {n}: {e}")))?;
        let (w, h) = (board.rows.first().map_or(0, String::len), board.rows.len());
        levels.push(Imported {
            file: Some(format!("samegame-{n:0digits$}.json")),
            level,
            summary: Some(format!("{w}x{h}, {} colours", board.colours_used)),
        });
    }
    Ok(levels)
}
