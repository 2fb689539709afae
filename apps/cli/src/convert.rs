//! `tessera convert FORMAT FILE OUT`: other formats into our level format.
//!
//! The formats are the importers the rule sets register in core ([`tessera_core::importers`]),
//! found by name; `tessera convert` alone, `--help` and an unknown format list them. An importer
//! gives one level (`OUT` is the level file) or many (`OUT` is a folder, created if missing,
//! and each level names its file in it). Output files are written atomically: a temporary file
//! beside the target, then a rename, so a crash never leaves a half-written level; many levels
//! are written all or none (`write_all_or_nothing`), then one line per level that has a summary
//! is printed.

use crate::error::{CliError, Input, read_input};
use clap::Args;
use std::io::Write;
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
    let levels = import(imp, file)?;
    match imp.output {
        ImportOutput::One => {
            let level = one(levels, file)?;
            write_atomically(out, &level.to_json())
        }
        ImportOutput::Many => write_many(&levels, out),
    }
}

/// What an importer's input is, for reading it.
fn input_of(imp: &Importer) -> Input {
    Input::Import { name: imp.input, limit: imp.max_bytes }
}

/// Reads `file` (at most the importer's limit) and imports it. Errors name the file (and the
/// line when the importer gives one): exit 2.
pub fn import(imp: &Importer, file: &Path) -> Result<Vec<Imported>, CliError> {
    let text = read_input(file, input_of(imp))?;
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    (imp.import)(&text, name.as_deref()).map_err(|e| import_error(file, e))
}

fn import_error(file: &Path, e: ImportError) -> CliError {
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

/// Writes every level into `outdir` (created if missing) or none, then prints one line per
/// level that has a summary.
fn write_many(levels: &[Imported], outdir: &Path) -> Result<(), CliError> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::with_capacity(levels.len());
    for (i, imported) in levels.iter().enumerate() {
        let name = imported.file.clone().unwrap_or_else(|| format!("level-{}.json", i + 1));
        files.push((outdir.join(name), text_bytes(&imported.level.to_json())));
    }
    let created = !outdir.exists();
    std::fs::create_dir_all(outdir).map_err(|e| CliError::file(outdir, e))?;
    if let Err(e) = write_all_or_nothing(&files) {
        if created {
            let _ = std::fs::remove_dir(outdir);
        }
        return Err(e);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for ((path, _), imported) in files.iter().zip(levels) {
        if let Some(summary) = &imported.summary {
            writeln!(out, "{}: {summary}", path.display()).map_err(crate::error::output_error)?;
        }
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
