//! `tessera convert FORMAT FILE OUT`: other formats into our level format.
//!
//! The formats are the importers the rule sets register in core ([`tessera_core::importers`]),
//! found by name; `tessera convert` alone, `--help` and an unknown format list them. An importer
//! gives one level (`OUT` is the level file) or many (`OUT` is a folder, created if missing,
//! and each level names its file in it). Output files are written atomically: a temporary file
//! beside the target, then a rename, so a crash never leaves a half-written level; many levels
//! are written all or none, each as the importer makes it ([`Staging`]), then one line per
//! level that has a summary is printed.
//!
//! (`play.rs`; `convert.rs`: `convert FORMAT FILE OUT` with the format looked up by name in
//! `tessera_core::importers()`, listed by `tessera convert` alone, `--help` and an unknown format;
//! one level written through a temporary file and a rename, many into a folder all or none, each
//! written as the importer pushes it (`Staging`: a temporary folder in OUTDIR, then renames), so
//! memory does not grow with the count of levels; a file whose extension an importer of one level
//! claims, such as `.map`, opens as a level wherever a level is read). `play` also takes `hint`
//! (prints `AnyRules::hint`, changes nothing).

use crate::error::{CliError, Input, read_input};
use clap::Args;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use tessera_core::{ImportError, ImportOutput, Imported, Importer, Level, importer, importers};

/// Arguments of `tessera convert`.
#[derive(Args, Debug)]
#[command(after_help = formats_help())]
pub struct ConvertArgs {
    /// The source format (listed below).
    #[arg(value_name = "FORMAT")]
    pub format: Option<String>,
    /// The file to convert.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The level file to write, or the folder to write the levels into for formats that give
    /// many levels.
    #[arg(value_name = "OUT")]
    pub out: Option<PathBuf>,
}

/// `OUT` or `OUTDIR`, as the importer's output is.
fn out_name(i: &Importer) -> &'static str {
    match i.output {
        ImportOutput::One => "OUT",
        ImportOutput::Many => "OUTDIR",
    }
}

/// The formats and what each does, for `--help` and messages.
pub fn formats_help() -> String {
    let mut text = String::from("Formats:");
    for i in importers() {
        text += &format!("\n  {} FILE {}\n      {}", i.name, out_name(i), i.about);
    }
    text
}

/// The formats' names, comma-separated.
fn format_names() -> String {
    importers().map(|i| i.name).collect::<Vec<_>>().join(", ")
}

/// Runs `tessera convert`.
pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    let Some(format) = &args.format else {
        return Err(CliError::BadInput(format!(
            "convert: give a format, a file and where to write\n{}",
            formats_help()
        )));
    };
    let Some(imp) = importer(format) else {
        return Err(CliError::BadInput(format!(
            "convert: unknown format '{format}' (formats: {})",
            format_names()
        )));
    };
    let (Some(file), Some(out)) = (&args.file, &args.out) else {
        return Err(CliError::BadInput(format!(
            "usage: tessera convert {} FILE {}",
            imp.name,
            out_name(imp)
        )));
    };
    match imp.output {
        ImportOutput::One => {
            let level = one(import(imp, file)?, file)?;
            write_atomically(out, &level.to_json())?;
            writeln!(std::io::stdout().lock(), "wrote {}", out.display()).map_err(crate::error::output_error)
        }
        ImportOutput::Many => write_many(imp, file, out),
    }
}

/// What an importer's input is, for reading it.
pub(crate) fn input_of(imp: &Importer) -> Input {
    Input::Import { name: imp.input, limit: imp.max_bytes }
}

/// Reads `file` (at most the importer's limit) and imports it. Errors name the file (and the
/// line when the importer gives one): exit 2.
pub fn import(imp: &Importer, file: &Path) -> Result<Vec<Imported>, CliError> {
    let text = read_input(file, input_of(imp))?;
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    imp.import_all(&text, name.as_deref()).map_err(|e| import_error(file, e))
}

pub(crate) fn import_error(file: &Path, e: ImportError) -> CliError {
    match e.line {
        Some(line) => CliError::BadInput(format!("{}:{line}: {}", file.display(), e.message)),
        None => CliError::file(file, e.message),
    }
}

/// The one level of an importer of one level.
fn one(levels: Vec<Imported>, file: &Path) -> Result<Level, CliError> {
    let n = levels.len();
    match <[Imported; 1]>::try_from(levels) {
        Ok([imported]) => Ok(imported.level),
        Err(_) => Err(CliError::file(file, format!("expected one level, the format gave {n}"))),
    }
}

/// The level of `file` if an importer of one level reads files of its extension (`.map`).
pub fn level_by_extension(file: &Path) -> Option<Result<Level, CliError>> {
    let ext = file.extension()?.to_str()?;
    let imp = tessera_core::importer_for_extension(ext)?;
    Some(import(imp, file).and_then(|levels| one(levels, file)))
}

/// Writes every level of `file` into `outdir` (created if missing) or none, then prints one
/// line per level that has a summary and what was written. Each level is written as the
/// importer makes it and dropped (issue 37.2: the 10,000 levels of a game, each embedding its
/// source, were all held at once): memory does not grow with the count of levels, but for a
/// file name and summary per level.
fn write_many(imp: &Importer, file: &Path, outdir: &Path) -> Result<(), CliError> {
    let text = read_input(file, input_of(imp))?;
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    let created = !outdir.exists();
    std::fs::create_dir_all(outdir).map_err(|e| CliError::file(outdir, e))?;
    let written = stage_levels(imp, &text, name.as_deref(), file, outdir);
    if written.is_err() && created {
        let _ = std::fs::remove_dir(outdir);
    }
    let written = written?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (path, summary) in &written {
        if let Some(summary) = summary {
            writeln!(out, "{}: {summary}", path.display()).map_err(crate::error::output_error)?;
        }
    }
    writeln!(out, "wrote {} levels into {}", written.len(), outdir.display())
        .map_err(crate::error::output_error)
}

/// Imports `text` (the file `file`) level by level into a [`Staging`] of `outdir` and commits
/// it: every level's file and summary, or nothing written.
fn stage_levels(
    imp: &Importer,
    text: &str,
    name: Option<&str>,
    file: &Path,
    outdir: &Path,
) -> Result<Vec<(PathBuf, Option<String>)>, CliError> {
    let mut staging = Staging::begin(outdir)?;
    let mut written = Vec::new();
    let mut failed = None;
    // One level's file at a time, the buffer reused.
    let mut bytes = Vec::new();
    (imp.import)(text, name, &mut |imported| {
        let name = imported.file.clone().unwrap_or_else(|| format!("level-{}.json", written.len() + 1));
        bytes.clear();
        let made = imported.level.write_json(&mut bytes).map(|()| bytes.push(b'\n'));
        match made
            .map_err(|e| CliError::file(&outdir.join(&name), e))
            .and_then(|()| staging.add(&name, &bytes))
        {
            Ok(path) => {
                written.push((path, imported.summary));
                ControlFlow::Continue(())
            }
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        }
    })
    .map_err(|e| import_error(file, e))?;
    if let Some(e) = failed {
        return Err(e);
    }
    staging.commit()?;
    Ok(written)
}

/// The prefix of the temporary folder a [`Staging`] makes in the output folder:
/// `.tessera-convert.tmpPID-N`.
const TEMP_DIR: &str = ".tessera-convert.tmp";

/// Removes the temporary folders of killed conversions in `dir` (their process no longer runs).
fn remove_stale_temp_dirs(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(TEMP_DIR)).and_then(|r| r.split_once('-'))
        else {
            continue;
        };
        let Ok(pid) = pid.0.parse::<u32>() else { continue };
        let gone = pid != std::process::id()
            && Path::new("/proc/self").exists()
            && !Path::new("/proc").join(pid.to_string()).exists();
        if gone && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Files written into `outdir` all or none (issue 12: a test set that failed at board 3 left
/// boards 1 and 2; issue 29.4: a target that was a folder left an earlier file replaced), one at
/// a time as they are made (issue 37.2).
///
/// 1. [`Staging::begin`] makes a temporary folder inside `outdir`.
/// 2. [`Staging::add`] checks each target (missing or a regular file,
///    [`tessera_replay::check_target`], directly in `outdir`) and writes its file into the
///    temporary folder. A bad target fails before anything is moved.
/// 3. [`Staging::commit`] syncs the file system once (issue 29.12: a sync per file took 68 s for
///    20,000 levels), then moves each file into place; a target that existed is first moved into
///    the temporary folder, so that if a move fails every target moved so far is put back as it
///    was.
/// 4. Dropping the staging removes the temporary folder (with the replaced files) and syncs
///    `outdir`.
///
/// A kill leaves at most the temporary folder, removed by the next conversion into `outdir`.
pub(crate) struct Staging<'a> {
    outdir: &'a Path,
    temp: PathBuf,
    /// `temp/new`: the files to move into place.
    new: PathBuf,
    /// `temp/old`: the targets they replace, while moving.
    old: PathBuf,
    /// Every target added, in order.
    targets: Vec<PathBuf>,
}

impl<'a> Staging<'a> {
    /// A staging of files into `outdir` (which exists), after removing dead runs' folders.
    pub(crate) fn begin(outdir: &'a Path) -> Result<Staging<'a>, CliError> {
        remove_stale_temp_dirs(outdir);
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let temp = outdir.join(format!("{TEMP_DIR}{}-{n}", std::process::id()));
        let (new, old) = (temp.join("new"), temp.join("old"));
        let staging = Staging { outdir, temp, new, old, targets: Vec::new() };
        for dir in [&staging.new, &staging.old] {
            std::fs::create_dir_all(dir)
                .map_err(|e| CliError::file(dir, format!("{e}; nothing was written")))?;
        }
        Ok(staging)
    }

    /// Checks the target `outdir/name` and writes its file (`bytes`) into the temporary folder;
    /// the target's path.
    pub(crate) fn add(&mut self, name: &str, bytes: &[u8]) -> Result<PathBuf, CliError> {
        let path = self.outdir.join(name);
        if path.parent() != Some(self.outdir) || path.file_name().is_none() {
            return Err(CliError::file(
                &path,
                format!("not a file directly in {}; nothing was written", self.outdir.display()),
            ));
        }
        tessera_replay::check_target(&path)
            .map_err(|e| CliError::BadInput(format!("{e}; nothing was written")))?;
        std::fs::write(self.new.join(name), bytes)
            .map_err(|e| CliError::file(&path, format!("{e}; nothing was written")))?;
        self.targets.push(path.clone());
        Ok(path)
    }

    /// Syncs the files added and moves them into place, all or none.
    pub(crate) fn commit(self) -> Result<(), CliError> {
        sync_all(&self.new).map_err(|e| CliError::file(&self.new, format!("{e}; nothing was written")))?;
        move_into_place(&self.targets, &self.new, &self.old)
    }
}

impl Drop for Staging<'_> {
    /// Removes the temporary folder: what was not moved into place is not written.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.temp);
        sync_dir(self.outdir);
    }
}

/// Step 3 of [`Staging`]: moves each file of `new` to its target, the target that was there
/// into `old`; on a failure, puts every target back as it was.
fn move_into_place(files: &[PathBuf], new: &Path, old: &Path) -> Result<(), CliError> {
    // (target, whether a file was there before and now waits in `old`)
    let mut placed: Vec<(&Path, bool)> = Vec::with_capacity(files.len());
    let undo = |placed: &[(&Path, bool)]| {
        for (path, had) in placed.iter().rev() {
            let name = path.file_name().unwrap_or_default();
            let _ = std::fs::remove_file(path);
            if *had {
                let _ = std::fs::rename(old.join(name), path);
            }
        }
    };
    for path in files {
        let name = path.file_name().unwrap_or_default();
        let had = match path.symlink_metadata() {
            Ok(_) => {
                // Checked before writing; checked again, as it may have changed since.
                if let Err(e) =
                    tessera_replay::check_target(path).and_then(|()| std::fs::rename(path, old.join(name)))
                {
                    undo(&placed);
                    return Err(CliError::file(path, format!("{e}; nothing was written")));
                }
                true
            }
            Err(_) => false,
        };
        if let Err(e) = std::fs::rename(new.join(name), path) {
            if had {
                let _ = std::fs::rename(old.join(name), path);
            }
            undo(&placed);
            return Err(CliError::file(path, format!("{e}; nothing was written")));
        }
        placed.push((path, had));
    }
    Ok(())
}

/// Syncs the file system holding `dir` once: every file written into it is then on disk
/// (`syncfs` on Linux; each file's own sync elsewhere).
fn sync_all(dir: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let d = std::fs::File::open(dir)?;
        nix::unistd::syncfs(&d).map_err(std::io::Error::from)
    }
    #[cfg(not(target_os = "linux"))]
    {
        for entry in std::fs::read_dir(dir)? {
            std::fs::File::open(entry?.path())?.sync_all()?;
        }
        Ok(())
    }
}

/// Makes the renames in `dir` durable where the platform allows opening a directory.
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
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

    /// Stages `files` (each `outdir/NAME` and its bytes) and commits them: all or none.
    fn write_all_or_nothing(outdir: &Path, files: &[(PathBuf, Vec<u8>)]) -> Result<(), CliError> {
        let mut staging = Staging::begin(outdir)?;
        for (path, bytes) in files {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap();
            staging.add(name, bytes)?;
        }
        staging.commit()
    }

    /// Issue 12 and 29.4: a write whose third target is a folder leaves neither the first two
    /// (one of which existed and keeps its content) nor any temporary file or folder.
    #[test]
    fn a_failed_write_leaves_nothing() {
        let dir = std::env::temp_dir().join(format!("tessera-convert-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("c.json")).unwrap();
        std::fs::write(dir.join("a.json"), b"old\n").unwrap();
        let files = vec![
            (dir.join("a.json"), b"1\n".to_vec()),
            (dir.join("b.json"), b"2\n".to_vec()),
            (dir.join("c.json"), b"3\n".to_vec()),
        ];
        let e = write_all_or_nothing(&dir, &files).unwrap_err();
        assert!(e.to_string().contains("c.json") && e.to_string().contains("nothing was written"), "{e}");
        assert_eq!(std::fs::read(dir.join("a.json")).unwrap(), b"old\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "a.json and the folder c.json");
        write_all_or_nothing(&dir, &files[..2]).unwrap();
        assert_eq!(std::fs::read(dir.join("a.json")).unwrap(), b"1\n");
        assert_eq!(std::fs::read(dir.join("b.json")).unwrap(), b"2\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The moves are undone when one fails half-way: every target is as it was.
    #[test]
    fn a_failed_move_puts_every_target_back() {
        let dir = std::env::temp_dir().join(format!("tessera-convert-undo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.json"), b"old\n").unwrap();
        let files = vec![dir.join("a.json"), dir.join("b.json")];
        let (new, old) = (dir.join("t/new"), dir.join("t/old"));
        // b.json's new file is missing when it is moved (the second move fails).
        std::fs::create_dir_all(&new).unwrap();
        std::fs::create_dir_all(&old).unwrap();
        std::fs::write(new.join("a.json"), b"1\n").unwrap();
        let e = move_into_place(&files, &new, &old).unwrap_err();
        assert!(e.to_string().contains("b.json"), "{e}");
        assert_eq!(std::fs::read(dir.join("a.json")).unwrap(), b"old\n");
        assert!(!dir.join("b.json").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
