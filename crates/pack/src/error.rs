//! What can go wrong with a pack, its results and its shards.

use std::path::PathBuf;

/// A pack, results or shard file that cannot be used, or a rating that cannot be done. Each
/// variant names the file and, where there is one, the entry (1-based, in pack order).
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// A file that cannot be read or written.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// Not JSON, or not a pack's (results', shard's) fields.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line (0 when serde could not place it).
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// One entry is wrong: unknown fields, a missing or bad level, a bad band, no bot for it.
    #[error("{}: entry {entry}{}: {message}", path.display(), if label.is_empty() { String::new() } else { format!(" ({label})") })]
    Entry {
        /// The pack file.
        path: PathBuf,
        /// The entry, from 1.
        entry: usize,
        /// Its title or level path (empty when not yet known).
        label: String,
        /// What is wrong.
        message: String,
    },
    /// Two entries name the same level file.
    #[error("{}: entries {first} and {second} are {what}", path.display())]
    Duplicate {
        /// The pack file.
        path: PathBuf,
        /// The earlier entry, from 1.
        first: usize,
        /// The later entry, from 1.
        second: usize,
        /// How they are the same (`both levels/a.json`).
        what: String,
    },
    /// An edit that cannot be made (a position past the end).
    #[error("{0}")]
    Edit(String),
    /// Bad rating settings (no games, a shard `K/N` out of range, a bot for no entry).
    #[error("{0}")]
    Settings(String),
    /// Shards that do not merge (another pack, settings or plan; a shard missing or twice).
    #[error("{0}")]
    Merge(String),
    /// A bot failed while rating (a bug in the bot: it played a refused command).
    #[error("entry {entry}: {message}")]
    Bot {
        /// The entry, from 1.
        entry: usize,
        /// The bot's error.
        message: String,
    },
}
