//! The `puzzlescript` importer: a game's `.txt` source into one level file per playable level.

use super::{PuzzleScriptLevel, describe_errors, engine};
use crate::Level;
use crate::import::{ImportError, ImportOutput, Imported, Importer, Sink, stem};
use std::ops::ControlFlow;
use std::sync::Arc;

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

/// Pushes the levels of the game whose source is `text` into `sink`, one at a time. They share
/// one copy of the source ([`PuzzleScriptLevel::source`] is an `Arc<str>`): importing the
/// 10,000 levels of a 250 KB game copied it 10,000 times (issue 37.2).
pub fn import(text: &str, file_name: Option<&str>, sink: &mut Sink<'_>) -> Result<(), ImportError> {
    levels(text, file_name, None, sink).map(|_| ())
}

/// Level `number` (from 1) of the game whose source is `text`, as [`import`] names it, and how
/// many playable levels the game has; `None` when it has fewer.
pub fn import_level(
    text: &str,
    file_name: Option<&str>,
    number: usize,
) -> Result<(Option<Imported>, usize), ImportError> {
    let mut level = None;
    let n = levels(text, file_name, Some(number), &mut |l| {
        level = Some(l);
        ControlFlow::Continue(())
    })?;
    Ok((level, n))
}

/// Pushes the levels of the game (only level `only`, from 1, when given) into `sink` and says
/// how many it has (as far as `sink` let it count).
fn levels(
    text: &str,
    file_name: Option<&str>,
    only: Option<usize>,
    sink: &mut Sink<'_>,
) -> Result<usize, ImportError> {
    let game = engine::compile(text).map_err(|e| {
        let first = e.iter().find(|d| d.is_error && d.line > 0).map(|d| d.line);
        match first {
            Some(line) => ImportError::at(line, describe_errors(&e)),
            None => ImportError::whole(describe_errors(&e)),
        }
    })?;
    let base = stem(file_name).unwrap_or_else(|| "game".into());
    let title = game.prelude().get("title").map(str::to_string);
    let source: Arc<str> = Arc::from(text);
    let mut playable = 0usize;
    for entry in game.levels() {
        let engine::LevelEntry::Level { width, height, .. } = entry else { continue };
        playable += 1;
        if only.is_some_and(|k| k != playable) {
            continue;
        }
        let name = format!("{} {playable}", title.as_deref().unwrap_or(&base));
        let level =
            PuzzleScriptLevel { name: Some(name), seed: None, source: source.clone(), level: playable - 1 };
        let imported = Imported {
            file: Some(format!("{base}-{playable:03}.json")),
            level: Level::PuzzleScript(level),
            summary: Some(format!("{width}x{height}")),
        };
        if sink(imported).is_break() {
            return Ok(playable);
        }
    }
    if playable == 0 {
        return Err(ImportError::whole(
            "the game has no playable level (only messages, or no LEVELS section)",
        ));
    }
    Ok(playable)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of `n` one-row levels.
    fn game(n: usize) -> String {
        let levels: String = (0..n).map(|_| "P.\n\n").collect();
        format!(
            "title shared\n\nOBJECTS\n\nBackground\nblack\n\nPlayer\nwhite\n\nLEGEND\n\n. = Background\nP = Player\n\n\
             SOUNDS\n\nCOLLISIONLAYERS\n\nBackground\nPlayer\n\nRULES\n\nWINCONDITIONS\n\nLEVELS\n\n{levels}"
        )
    }

    fn source_of(imported: &Imported) -> &Arc<str> {
        match &imported.level {
            Level::PuzzleScript(l) => &l.source,
            other => panic!("not a PuzzleScript level: {other:?}"),
        }
    }

    /// Issue 37.2: the levels of one game share one copy of its source (it was copied into each),
    /// and are pushed one at a time: a sink that stops after the second gets two, the second
    /// before the third is made.
    #[test]
    fn levels_share_the_source_and_come_one_at_a_time() {
        let text = game(5);
        let all = IMPORTERS[0].import_all(&text, Some("g.txt")).unwrap();
        assert_eq!(all.len(), 5);
        assert_eq!(&**source_of(&all[0]), text);
        assert!(all.iter().all(|l| Arc::ptr_eq(source_of(l), source_of(&all[0]))), "one copy of the source");
        assert_eq!(Arc::strong_count(source_of(&all[0])), 5, "held by the levels alone");
        let names: Vec<_> = all.iter().map(|l| l.file.clone().unwrap()).collect();
        assert_eq!(names, ["g-001.json", "g-002.json", "g-003.json", "g-004.json", "g-005.json"]);

        let mut seen = Vec::new();
        import(&text, Some("g.txt"), &mut |l| {
            // What the sink was given before is all there is: no level is made ahead of it.
            seen.push((l.file.clone().unwrap(), Arc::strong_count(source_of(&l))));
            if seen.len() == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })
        .unwrap();
        // Each level, dropped by the sink, leaves the import's own copy and its own.
        assert_eq!(seen, [("g-001.json".to_string(), 2), ("g-002.json".to_string(), 2)]);
    }

    /// One level of many: the importer's own name, and the count.
    #[test]
    fn import_level_gives_one_level_and_the_count() {
        let text = game(4);
        let (level, n) = import_level(&text, Some("g.txt"), 3).unwrap();
        assert_eq!(n, 4);
        assert_eq!(level.and_then(|l| l.file), Some("g-003.json".into()));
        assert_eq!(import_level(&text, None, 9).unwrap(), (None, 4));
    }
}
