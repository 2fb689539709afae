//! Importers: other formats turned into levels, registered by name (`tessera convert FORMAT`).
//!
//! An [`Importer`] is data: its name, what it reads, whether it gives one level or a folder of
//! them, and a function from the file's text to levels. It does no I/O: the caller reads the file
//! (at most [`Importer::max_bytes`]), passes its text and name, and writes what comes back. Each
//! rule set declares its own importers in its folder (`import.rs`); [`importers`] lists them all.
//!
//! The levels are pushed into a [`Sink`] the caller owns, one at a time as they are made, so a
//! caller that writes each one at once (`tessera convert`) holds one level at a time however
//! many the file gives (issue 37.2); [`Importer::import_all`] collects them.
//!
//! Importers as data (`Importer`: name, help, what it reads and its size limit, one level or many,
//! file extensions it claims, and `fn(text, file name, sink)` pushing each `Imported` into the
//! caller's `Sink` as it is made, `Importer::import_all` collecting them; no I/O); `importers()`
//! lists them all (`samegame-testset`, `movingai`, `stage`, `sokoban`, `puzzlescript`) from the
//! registry (`Plugin::IMPORTERS`).

use crate::Level;
use std::fmt;
use std::ops::ControlFlow;

/// What an importer's output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportOutput {
    /// Exactly one level: `OUT` is the level file.
    One,
    /// Any number of levels: `OUT` is a folder, and each level names its file in it. They are
    /// written all or none.
    Many,
}

/// One level an importer made.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The level's file name in the output folder ([`ImportOutput::Many`]; `None` for
    /// [`ImportOutput::One`]).
    pub file: Option<String>,
    /// The level.
    pub level: Level,
    /// A line about it to print after writing (`15x15, 5 colours`), if the format has one.
    pub summary: Option<String>,
}

/// Why a file cannot be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// The 1-based line of the input the problem is on, when the message does not say it.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl ImportError {
    /// An error about the file as a whole (or whose message names the line itself).
    pub fn whole(message: impl fmt::Display) -> ImportError {
        ImportError { line: None, message: message.to_string() }
    }

    /// An error on line `line`.
    pub fn at(line: usize, message: impl fmt::Display) -> ImportError {
        ImportError { line: Some(line), message: message.to_string() }
    }
}

impl fmt::Display for ImportError {
    /// `line N: message`, or the message alone.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ImportError {}

/// Where an importer puts each level as it makes it: `Break` stops the import there (the
/// caller keeps why).
pub type Sink<'a> = dyn FnMut(Imported) -> ControlFlow<()> + 'a;

/// Pushes every level of `levels` into `sink`, for an importer that makes its levels together.
pub(crate) fn push_all(
    levels: Result<Vec<Imported>, ImportError>,
    sink: &mut Sink<'_>,
) -> Result<(), ImportError> {
    for level in levels? {
        if sink(level).is_break() {
            break;
        }
    }
    Ok(())
}

/// A source format and how to turn it into levels.
#[derive(Clone, Copy)]
pub struct Importer {
    /// The format's name on the command line (`stage`, `samegame-testset`).
    pub name: &'static str,
    /// What it reads and writes, for help texts (one paragraph).
    pub about: &'static str,
    /// What the input is, for messages (`a stage file`).
    pub input: &'static str,
    /// The most bytes of input the caller reads (far above what a valid file needs).
    pub max_bytes: u64,
    /// File extensions (without the dot) that mark a file of this format, which then opens as
    /// a level wherever a level file is read (`map`); none for formats only `convert` reads.
    pub extensions: &'static [&'static str],
    /// One level or a folder of them.
    pub output: ImportOutput,
    /// Pushes the levels of the file whose text is `text` and whose name (without folders) is
    /// `file_name` (which names the levels) into `sink`, in order, until it says `Break`. On an
    /// error, the levels pushed before it are not the file's: the caller drops them. Never panics
    /// on bad input.
    pub import: fn(text: &str, file_name: Option<&str>, sink: &mut Sink<'_>) -> Result<(), ImportError>,
}

impl Importer {
    /// Every level of the file whose text is `text` and whose name is `file_name`, in order.
    pub fn import_all(&self, text: &str, file_name: Option<&str>) -> Result<Vec<Imported>, ImportError> {
        let mut levels = Vec::new();
        (self.import)(text, file_name, &mut |level| {
            levels.push(level);
            ControlFlow::Continue(())
        })?;
        Ok(levels)
    }
}

impl fmt::Debug for Importer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Importer").field("name", &self.name).field("output", &self.output).finish()
    }
}

/// Every importer of every rule set, in registry order.
pub fn importers() -> impl Iterator<Item = &'static Importer> {
    // One line per rule set that has importers (the lead folds this into core's registry).
    crate::IMPORTERS.iter().copied().flatten()
}

/// The importer of one level that files ending in `.EXTENSION` are read with, if any.
pub fn importer_for_extension(extension: &str) -> Option<&'static Importer> {
    importers().find(|i| i.output == ImportOutput::One && i.extensions.contains(&extension))
}

/// The importer called `name`.
pub fn importer(name: &str) -> Option<&'static Importer> {
    importers().find(|i| i.name == name)
}

/// The stem of `file_name` (`stage_voids` of `stage_voids.txt`), as a level name.
pub(crate) fn stem(file_name: Option<&str>) -> Option<String> {
    let stem = std::path::Path::new(file_name?).file_stem()?;
    Some(stem.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn importer_names_are_unique_and_found() {
        let names: Vec<&str> = importers().map(|i| i.name).collect();
        assert_eq!(names, ["samegame-testset", "movingai", "stage", "sokoban", "puzzlescript"]);
        for n in &names {
            assert_eq!(importer(n).map(|i| i.name), Some(*n));
        }
        assert!(importer("nope").is_none());
        assert_eq!(importer_for_extension("map").map(|i| i.name), Some("movingai"));
        assert!(importer_for_extension("json").is_none());
    }

    #[test]
    fn bad_input_is_an_error_for_every_importer() {
        for i in importers() {
            assert!(i.import_all("\u{0}not a file of any format", Some("x.txt")).is_err(), "{}", i.name);
        }
    }

    #[test]
    fn stem_drops_the_extension() {
        assert_eq!(stem(Some("stage_voids.txt")).as_deref(), Some("stage_voids"));
        assert_eq!(stem(None), None);
    }
}
