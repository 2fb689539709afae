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

/// Reads a whole text file, naming it in the error.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::file(path, e))
}
