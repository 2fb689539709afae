//! `tessera convert`: other formats into our level format.
//!
//! Each source format is a subcommand of `convert` (add a variant to [`ConvertWhat`] and an arm to
//! [`run`]): `stage` (match3), `samegame-testset` (collapse) and `movingai` (tactics). Output files are written
//! atomically: a temporary file beside the target, then a rename, so a crash never leaves a
//! half-written level; a test set's levels are written all or none (`write_all_or_nothing`).

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
    let created = !outdir.exists();
    std::fs::create_dir_all(outdir).map_err(|e| CliError::file(outdir, e))?;
    let files: Vec<(PathBuf, Vec<u8>)> =
        levels.iter().map(|(path, level, _)| (path.clone(), text_bytes(&level.to_json()))).collect();
    if let Err(e) = write_all_or_nothing(&files) {
        if created {
            let _ = std::fs::remove_dir(outdir);
        }
        return Err(e);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (path, _, board) in &levels {
        let (w, h) = (board.rows.first().map_or(0, String::len), board.rows.len());
        writeln!(out, "{}: {w}x{h}, {} colours", path.display(), board.colours_used)
            .map_err(crate::error::output_error)?;
    }
    Ok(())
}

/// A temporary name beside `path`, unique per process and call: `.NAME.tmpPID-N`, the pattern
/// of [`tessera_replay::atomic_write`] (so that its stale-file cleanup knows it).
fn temp_beside(path: &Path) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".tmp{}-{n}", std::process::id()));
    path.with_file_name(name)
}

/// Writes every file or none (issue 12: a test set that failed at board 3 left boards 1 and 2).
///
/// First every file goes to a temporary file beside its target, synced; if any write fails (an
/// I/O error, a full disk), the temporary files are removed and no target is touched. Then the
/// temporary files are renamed into place; if a rename fails (a target that is a directory),
/// the targets created so far are removed again, so the folder holds none of the new files
/// (a file that existed before and was already replaced keeps the new content).
fn write_all_or_nothing(files: &[(PathBuf, Vec<u8>)]) -> Result<(), CliError> {
    let mut temps: Vec<PathBuf> = Vec::with_capacity(files.len());
    let cleanup = |temps: &[PathBuf]| {
        for t in temps {
            let _ = std::fs::remove_file(t);
        }
    };
    for (path, bytes) in files {
        let tmp = temp_beside(path);
        let written = std::fs::File::create(&tmp).and_then(|mut f| {
            temps.push(tmp.clone());
            f.write_all(bytes)?;
            f.sync_all()
        });
        if let Err(e) = written {
            cleanup(&temps);
            return Err(CliError::file(path, format!("{e}; nothing was written")));
        }
    }
    let mut placed: Vec<&Path> = Vec::with_capacity(files.len());
    for ((path, _), tmp) in files.iter().zip(&temps) {
        let existed = path.symlink_metadata().is_ok();
        if let Err(e) = std::fs::rename(tmp, path) {
            for p in &placed {
                let _ = std::fs::remove_file(p);
            }
            cleanup(&temps);
            return Err(CliError::file(path, format!("{e}; the files written before it were removed")));
        }
        if !existed {
            placed.push(path);
        }
    }
    if let Some(dir) = files.first().and_then(|(p, _)| p.parent()).filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// `text` and a final newline, as level files end.
fn text_bytes(text: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(b'\n');
    bytes
}

/// Writes `text` (plus a final newline) to `path` through a temporary file and a rename
/// ([`tessera_replay::atomic_write`], which every file the project saves goes through).
pub fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    tessera_replay::atomic_write(path, &text_bytes(text)).map_err(|e| CliError::file(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 12: a write that fails at the third file (here: its folder does not exist) leaves
    /// neither the first two nor any temporary file.
    #[test]
    fn a_failed_write_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("tessera-convert-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let files = vec![
            (dir.join("a.json"), b"1\n".to_vec()),
            (dir.join("b.json"), b"2\n".to_vec()),
            (dir.join("missing/c.json"), b"3\n".to_vec()),
        ];
        let e = write_all_or_nothing(&files).unwrap_err();
        assert!(e.to_string().contains("c.json") && e.to_string().contains("nothing was written"), "{e}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        write_all_or_nothing(&files[..2]).unwrap();
        assert_eq!(std::fs::read(dir.join("b.json")).unwrap(), b"2\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
