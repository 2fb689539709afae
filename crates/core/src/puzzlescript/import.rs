//! The `puzzlescript` importer: a game's `.txt` source into one level file per playable level.

use super::{PuzzleScriptLevel, describe_errors, engine};
use crate::import::{ImportError, ImportOutput, Imported, Importer, stem};
use crate::Level;

/// PuzzleScript's importer.
pub const IMPORTERS: &[Importer] = &[Importer {
    name: "puzzlescript",
    about: "A PuzzleScript game (.txt): one level file per playable level (messages are not \
            levels), each embedding the game's source, named GAME-001.json, GAME-002.json, … \
            in the order of the LEVELS section.",
    input: "a PuzzleScript game",
    max_bytes: 4 << 20,
    extensions: &[],
    output: ImportOutput::Many,
    import,
}];

/// The levels of the game whose source is `text`.
pub fn import(text: &str, file_name: Option<&str>) -> Result<Vec<Imported>, ImportError> {
    levels(text, file_name, None).map(|(levels, _)| levels)
}

/// Level `number` (from 1) of the game whose source is `text`, as [`import`] names it, and how
/// many playable levels the game has; `None` when it has fewer. The source is copied once, for
/// that level only (issue 37.2: importing all 10,000 levels of a 250 KB game to play one took
/// 2.5 GB, a copy of the source per level).
pub fn import_level(
    text: &str,
    file_name: Option<&str>,
    number: usize,
) -> Result<(Option<Imported>, usize), ImportError> {
    levels(text, file_name, Some(number)).map(|(mut levels, n)| (levels.pop(), n))
}

/// The levels of the game (only level `only`, from 1, when given) and how many it has.
fn levels(text: &str, file_name: Option<&str>, only: Option<usize>) -> Result<(Vec<Imported>, usize), ImportError> {
    let game = engine::compile(text).map_err(|e| {
        let first = e.iter().find(|d| d.is_error && d.line > 0).map(|d| d.line);
        match first {
            Some(line) => ImportError::at(line, describe_errors(&e)),
            None => ImportError::whole(describe_errors(&e)),
        }
    })?;
    let base = stem(file_name).unwrap_or_else(|| "game".into());
    let title = game.prelude().get("title").map(str::to_string);
    let mut out = Vec::new();
    let mut playable = 0usize;
    for entry in game.levels() {
        let engine::LevelEntry::Level { width, height, .. } = entry else { continue };
        let name = match &title {
            Some(t) => format!("{t} {}", playable + 1),
            None => format!("{base} {}", playable + 1),
        };
        playable += 1;
        if only.is_some_and(|k| k != playable) {
            continue;
        }
        let level = PuzzleScriptLevel { name: Some(name), seed: None, source: text.to_string(), level: playable - 1 };
        out.push(Imported {
            file: Some(format!("{base}-{playable:03}.json")),
            level: Level::PuzzleScript(level),
            summary: Some(format!("{width}x{height}")),
        });
    }
    if playable == 0 {
        return Err(ImportError::whole("the game has no playable level (only messages, or no LEVELS section)"));
    }
    Ok((out, playable))
}
