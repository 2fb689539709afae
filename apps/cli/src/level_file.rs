//! Reading a level for a command: a level file (`.json`), a file of an importer's extension (a
//! Moving AI `.map`), or one playable level of a PuzzleScript game (`.txt`, by `--number`); and
//! starting it with a seed. Every command that takes a LEVEL argument reads it here.

use crate::error::{CliError, Input, read_input};
use std::path::Path;
use tessera_core::Level;

/// Loads `path` as a level, or the classic game when there is none. A PuzzleScript game
/// (`.txt`) gives its playable level `number` (from 1); without one, a game of one level gives
/// it and a game of more is an error that says how to choose.
pub fn load_level(path: Option<&Path>, number: Option<u64>) -> Result<Level, CliError> {
    let p = match path {
        Some(p) if is_game(p) => return game_level(p, number, false),
        _ if number.is_some() => {
            return Err(CliError::BadInput("--number picks a level of a PuzzleScript game (.txt)".into()));
        }
        None => return Ok(Level::classic()),
        Some(p) => p,
    };
    // Files of an importer's extension (Moving AI `.map` files) open through it.
    if let Some(level) = crate::convert::level_by_extension(p) {
        return level;
    }
    Level::from_json(&read_input(p, Input::Level)?).map_err(|e| CliError::file(p, e))
}

/// Whether `path` is a PuzzleScript game's source (`.txt`).
pub(crate) fn is_game(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "txt")
}

/// The compiler's warnings (an unused object, a rule that can never fire) on stderr, as the
/// reference's console shows them: the game still plays. Nothing when `text` does not compile
/// (the import says why).
fn print_warnings(path: &Path, text: &str) {
    if let Ok(game) = tessera_core::puzzlescript::engine::compile(text) {
        for w in game.warnings() {
            eprintln!("{}:{}: warning: {}", path.display(), w.line, w.message);
        }
    }
}

/// Level `number` (from 1) of the PuzzleScript game `path`; without one, its only level, or
/// (when `ask`) the one chosen on the terminal.
pub(crate) fn game_level(path: &Path, number: Option<u64>, ask: bool) -> Result<Level, CliError> {
    let importer = tessera_core::importer("puzzlescript")
        .ok_or_else(|| CliError::BadInput("no puzzlescript importer is registered".into()))?;
    if let Some(k) = number {
        // One level: its source copied once, not once per level of the game (issue 37.2).
        let text = crate::error::read_input(path, crate::convert::input_of(importer))?;
        print_warnings(path, &text);
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let pick = usize::try_from(k).unwrap_or(usize::MAX);
        let (level, n) = tessera_core::puzzlescript::import_level(&text, name.as_deref(), pick)
            .map_err(|e| crate::convert::import_error(path, e))?;
        return level.map(|l| l.level).ok_or_else(|| {
            CliError::file(
                path,
                format!("--number {pick}: the game has {n} level{}", if n == 1 { "" } else { "s" }),
            )
        });
    }
    let mut levels = crate::convert::import(importer, path)?;
    if let Ok(text) = std::fs::read_to_string(path) {
        print_warnings(path, &text);
    }
    let n = levels.len();
    let pick = match number {
        Some(k) => usize::try_from(k).unwrap_or(usize::MAX),
        None if n == 1 => 1,
        None if ask => ask_number(path, &levels)?,
        None => {
            return Err(CliError::file(
                path,
                format!("the game has {n} levels: choose one with --number 1..{n}"),
            ));
        }
    };
    if pick == 0 || pick > n {
        return Err(CliError::file(
            path,
            format!("--number {pick}: the game has {n} level{}", if n == 1 { "" } else { "s" }),
        ));
    }
    Ok(levels.swap_remove(pick - 1).level)
}

/// Asks on the terminal which of `levels` to play (from 1).
fn ask_number(path: &Path, levels: &[tessera_core::Imported]) -> Result<usize, CliError> {
    let n = levels.len();
    eprintln!("{} has {n} levels:", path.display());
    for (i, l) in levels.iter().enumerate() {
        let name = l.file.as_deref().unwrap_or_default();
        eprintln!("  {:>3}  {name}  {}", i + 1, l.summary.as_deref().unwrap_or(""));
    }
    loop {
        eprint!("Level (1-{n}): ");
        let mut line = String::new();
        let read =
            std::io::stdin().read_line(&mut line).map_err(|e| CliError::BadInput(format!("stdin: {e}")))?;
        if read == 0 {
            return Err(CliError::BadInput(format!("{}: no level chosen", path.display())));
        }
        match line.trim().parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => return Ok(k),
            _ => eprintln!("a number from 1 to {n}, please"),
        }
    }
}

/// The game `level` (read from `path`) starts with `seed`, errors naming the file.
pub(crate) fn start(
    level: &Level,
    path: &std::path::Path,
    seed: u64,
) -> Result<tessera_core::Game, CliError> {
    level.start(Some(seed)).map_err(|e| CliError::file(path, e))
}
