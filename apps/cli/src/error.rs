//! How the `tessera` command fails, and with which exit code.

use std::path::Path;

/// A failure that ends the command. Each kind has its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A file, argument or command line that cannot be used (exit 2).
    #[error("{0}")]
    BadInput(String),
    /// A check found a problem: a divergence, a mismatch, a command the script demanded be
    /// accepted and the game refused (exit 1).
    #[error("{0}")]
    Failed(String),
    /// The user stopped a long run with Ctrl-C, after what it had was printed (exit 130).
    #[error("{0}")]
    Interrupted(String),
    /// Whoever reads our output stopped reading (`tessera play | head`): end quietly.
    #[error("output closed")]
    OutputClosed,
}

impl CliError {
    /// Bad input about `path`: "`path`: `what`".
    pub fn file(path: &Path, what: impl std::fmt::Display) -> CliError {
        CliError::BadInput(format!("{}: {what}", path.display()))
    }

    /// The process exit code for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::BadInput(_) => 2,
            CliError::Failed(_) => 1,
            CliError::Interrupted(_) => 130,
            CliError::OutputClosed => 0,
        }
    }
}

/// A failure to write to stdout: a closed pipe ends quietly, anything else is reported.
pub fn output_error(e: std::io::Error) -> CliError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        CliError::OutputClosed
    } else {
        CliError::BadInput(format!("stdout: {e}"))
    }
}

/// What an input file is, which sets the most bytes `tessera` reads of it.
///
/// Every input is read through [`read_input`] or [`read_stdin`], which stop at the limit rather
/// than read until memory runs out (`tessera play /dev/zero`). The limits are far above what a
/// valid file of the largest board (1024×1024) needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A level (JSON): 64 MiB.
    Level,
    /// A Moving AI `.map` file: 64 MiB.
    Map,
    /// A Moving AI `.scen` file: 64 MiB.
    Scenario,
    /// A file of an importer's format (`tessera convert`): the importer's own limit.
    Import {
        /// What it is, for messages (`a stage file`).
        name: &'static str,
        /// The most bytes read.
        limit: u64,
    },
    /// A command script for `tessera play --commands`: 64 MiB.
    Script,
    /// A `tessera difficulty` report (JSON) to merge: 64 MiB.
    Report,
}

impl Input {
    /// The most bytes read of such a file.
    pub const fn limit(self) -> u64 {
        match self {
            Input::Import { limit, .. } => limit,
            Input::Level | Input::Map | Input::Scenario | Input::Script | Input::Report => 64 << 20,
        }
    }

    /// What the file is, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Input::Level => "a level",
            Input::Map => "a Moving AI map",
            Input::Scenario => "a Moving AI scenario",
            Input::Import { name, .. } => name,
            Input::Script => "a command script",
            Input::Report => "a difficulty report",
        }
    }
}

/// Reads at most `what`'s limit from `reader` as UTF-8 text; `name` names it in errors (which
/// give the limit, or the line and byte of invalid UTF-8).
fn read_capped(reader: impl std::io::Read, name: &str, what: Input) -> Result<String, CliError> {
    let limit = what.limit();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(reader, limit + 1), &mut bytes)
        .map_err(|e| CliError::BadInput(format!("{name}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::BadInput(format!(
            "{name}: more than {} MiB, the limit for {}; not read further",
            limit >> 20,
            what.name()
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let column = at - bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
        CliError::BadInput(format!(
            "{name}:{line}: invalid UTF-8 at byte {at} of the file (line {line}, column {column}: byte {:#04x})",
            bytes[at]
        ))
    })
}

/// Reads the text file `path` as `what`: at most its limit, as UTF-8, naming the file, the line
/// and the byte in errors.
pub fn read_input(path: &Path, what: Input) -> Result<String, CliError> {
    let file = std::fs::File::open(path).map_err(|e| CliError::file(path, e))?;
    // A regular file's size is known: refuse it before reading anything.
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() > what.limit()
    {
        return Err(CliError::file(
            path,
            format!(
                "{} bytes, more than {} MiB, the limit for {}",
                meta.len(),
                what.limit() >> 20,
                what.name()
            ),
        ));
    }
    read_capped(file, &path.display().to_string(), what)
}

/// Reads standard input as `what` (see [`read_input`]).
pub fn read_stdin(what: Input) -> Result<String, CliError> {
    read_capped(std::io::stdin().lock(), "stdin", what)
}
