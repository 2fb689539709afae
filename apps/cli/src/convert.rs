//! `tessera convert`: other formats into our level format.
//!
//! Each source format is a subcommand of `convert` (add a variant to [`ConvertWhat`] and an arm to
//! [`run`]). Output files are written atomically: a temporary file beside the target, then a
//! rename, so a crash never leaves a half-written level.

use crate::error::{CliError, read_text};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use tessera_core::Level;
use tessera_core::match3::Match3Level;

/// Arguments of `tessera convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// What to convert.
    #[command(subcommand)]
    pub what: ConvertWhat,
}

/// The formats `convert` reads.
#[derive(Subcommand, Debug)]
pub enum ConvertWhat {
    /// A match-3 stage file of seed 004 (`{"row": R, "col": C, "cells": [...]}`, 0 = Void,
    /// 1 = Playable, top row first) into a match3 level whose blocks are chosen at the start.
    Stage {
        /// The stage file.
        file: PathBuf,
        /// The level file to write.
        out: PathBuf,
    },
}

/// Runs `tessera convert`.
pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    match &args.what {
        ConvertWhat::Stage { file, out } => {
            let text = read_text(file)?;
            let name = file.file_stem().map(|s| s.to_string_lossy().into_owned());
            let level = Match3Level::from_stage_json(&text, name).map_err(|e| CliError::file(file, e))?;
            write_atomically(out, &Level::Match3(level).to_json())
        }
    }
}

/// Writes `text` (plus a final newline) to `path` through a temporary file and a rename.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let file_name = path.file_name().ok_or_else(|| CliError::file(path, "not a file name"))?;
    let tmp = dir.join(format!(".{}.tmp-{}", file_name.to_string_lossy(), std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        CliError::file(path, e)
    })
}
