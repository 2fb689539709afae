//! `tessera convert`: other formats into our level format.
//!
//! Each source format is a subcommand of `convert` (add a variant to [`ConvertWhat`] and an arm to
//! [`run`]): `stage` (match3), `samegame-testset` (collapse) and `movingai` (tactics). Output files are written
//! atomically: a temporary file beside the target, then a rename, so a crash never leaves a
//! half-written level.

use crate::error::{CliError, Input, read_input};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use tessera_core::Level;
use tessera_core::collapse::parse_testset;
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
    /// The standard SameGame test set (boards of space-separated colour numbers, top row first,
    /// blank lines between) into one collapse level per board, with `left` compaction and
    /// `standard` scoring: OUTDIR/samegame-01.json, samegame-02.json, ...
    SamegameTestset {
        /// The test-set text file.
        file: PathBuf,
        /// The directory to write the levels into (created if missing).
        outdir: PathBuf,
    },
    /// A Moving AI `.map` file into a tactics level: its terrain, 8-connected, no units.
    Movingai {
        /// The `.map` file.
        file: PathBuf,
        /// The level file to write.
        out: PathBuf,
    },
}

/// Runs `tessera convert`.
pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    match &args.what {
        ConvertWhat::Stage { file, out } => {
            let text = read_input(file, Input::Stage)?;
            let name = file.file_stem().map(|s| s.to_string_lossy().into_owned());
            let level = Match3Level::from_stage_json(&text, name).map_err(|e| CliError::file(file, e))?;
            write_atomically(out, &Level::Match3(level).to_json())
        }
        ConvertWhat::SamegameTestset { file, outdir } => samegame_testset(file, outdir),
        ConvertWhat::Movingai { file, out } => {
            write_atomically(out, &crate::tactics::movingai_level(file)?.to_json())
        }
    }
}

/// Reads and checks every board before writing anything, so bad input (exit 2, `file:line`)
/// leaves no partial output. Prints one line per level written.
fn samegame_testset(file: &Path, outdir: &Path) -> Result<(), CliError> {
    let text = read_input(file, Input::TestSet)?;
    let boards = parse_testset(&text)
        .map_err(|e| CliError::BadInput(format!("{}:{}: {}", file.display(), e.line, e.message)))?;
    let stem = file.file_stem().map_or_else(|| "test set".into(), |s| s.to_string_lossy().into_owned());
    let digits = boards.len().to_string().len().max(2);
    let mut levels = Vec::with_capacity(boards.len());
    for (i, board) in boards.iter().enumerate() {
        let n = i + 1;
        let level = Level::Collapse(board.to_level(format!("{stem} position {n}")));
        // A board of this format is always a playable level; check anyway, before writing.
        level
            .start(None)
            .map_err(|e| CliError::BadInput(format!("{}:{}: board {n}: {e}", file.display(), board.line)))?;
        levels.push((outdir.join(format!("samegame-{n:0digits$}.json")), level, board));
    }
    std::fs::create_dir_all(outdir).map_err(|e| CliError::file(outdir, e))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (path, level, board) in &levels {
        write_atomically(path, &level.to_json())?;
        let (w, h) = (board.rows.first().map_or(0, String::len), board.rows.len());
        writeln!(out, "{}: {w}x{h}, {} colours", path.display(), board.colours_used)
            .map_err(crate::error::output_error)?;
    }
    Ok(())
}

/// Writes `text` (plus a final newline) to `path` through a temporary file and a rename
/// ([`tessera_replay::atomic_write`], which every file the project saves goes through).
pub fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(b'\n');
    tessera_replay::atomic_write(path, &bytes).map_err(|e| CliError::file(path, e))
}
