//! Regression logs: a log kept in a folder with a small sidecar saying what it guards, and a
//! check that replays every log of a folder in parallel ([`pin`], [`check_dir`], [`junit_xml`]).
//!
//! A regression folder holds `NAME.tlog` (the log, byte for byte as recorded) and `NAME.json`
//! (the [`Sidecar`]). [`check_log`] passes when the log replays exactly with today's rules
//! ([`crate::verify`]) and agrees with its sidecar (rule set, steps, final hash); a log without
//! a sidecar (the golden logs) passes on the replay alone. The `tessera replay pin` and
//! `replay check` commands, the editor's "Pin as regression test…" and the workspace's own
//! tests all go through these functions.
//!
//! Regression folders (issue 21): `pin` (a log that replays today copied as `NAME.tlog` with a
//! `Sidecar` `NAME.json` — guards, rule set, rules and format version, steps, final hash —, both
//! through `atomic_write`, the log first and the sidecar last, never over a complete pair, over
//! half of one), `check_log`/`check_dir`/`check_dir_with` (verify plus the sidecar's steps and
//! final hash, the sidecar read up to `MAX_SIDECAR` bytes of a regular file; optionally a log
//! without its sidecar is an error; a folder on scoped threads, results in name order; a sidecar
//! without its log and an entry that is not a regular file are entries of their own), `junit_xml`
//! (hand-written escaping; the sidecar's note as a `guards` property). `replay check`, the editor's
//! Pin and the crate's own test of `fixtures/regressions` and the golden logs all call these.

use crate::check::verify;
use crate::error::LogError;
use crate::format::StepRecord;
use crate::reader::Log;
use crate::writer::atomic_write;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The extension of a log in a regression folder.
pub const LOG_EXTENSION: &str = "tlog";
/// The extension of its sidecar.
pub const SIDECAR_EXTENSION: &str = "json";
/// The default regression folder, relative to the workspace root.
pub const DEFAULT_REGRESSION_DIR: &str = "fixtures/regressions";

/// What a pinned log guards and what replaying it must give (`NAME.json` beside `NAME.tlog`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sidecar {
    /// What the log guards, in a person's words (may be empty).
    pub guards: String,
    /// The rule set's name.
    pub rule_set: String,
    /// The rules version that recorded the log.
    pub rules_version: u32,
    /// The log format version.
    pub format_version: u32,
    /// Steps in the log.
    pub steps: u64,
    /// The state hash after the last step (of the log's format version), 16 hex digits.
    pub final_hash: String,
    /// The file name the log was pinned from.
    #[serde(default)]
    pub pinned_from: String,
}

impl Sidecar {
    /// The sidecar describing `log`, as it is now.
    pub fn of(log: &Log, guards: &str, pinned_from: &str) -> Result<Sidecar, LogError> {
        let h = log.header();
        Ok(Sidecar {
            guards: guards.to_string(),
            rule_set: h.rule_set.name().to_string(),
            rules_version: h.rules_version,
            format_version: h.format_version,
            steps: log.steps(),
            final_hash: format!("{:016x}", final_hash(log)?),
            pinned_from: pinned_from.to_string(),
        })
    }
}

/// The state hash a log records after its last step (its start state's for a log of no steps).
pub fn final_hash(log: &Log) -> Result<u64, LogError> {
    match log.steps() {
        0 => Ok(log.header().state_hash(&log.start()?.state)),
        n => {
            let mut rec = StepRecord::default();
            log.read_step(n, &mut rec)?;
            Ok(rec.hash)
        }
    }
}

/// Why pinning or checking could not be done.
#[derive(Debug, thiserror::Error)]
pub enum RegressError {
    /// A file or folder could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// A regression name that is not a plain file name.
    #[error(
        "'{0}' is not a usable regression name (letters, digits, '-', '_' and '.', not starting with '.')"
    )]
    BadName(String),
    /// Pinning never overwrites: the file is already there.
    #[error("{0}: already exists (choose another --name)")]
    Exists(PathBuf),
    /// The log cannot be read.
    #[error("{path}: {error}")]
    Log {
        /// The log file.
        path: PathBuf,
        /// What is wrong with it.
        error: LogError,
    },
    /// A log that does not replay today cannot be pinned as a test that should pass.
    #[error("{path}: does not replay with today's rules, so it cannot guard anything: {message}")]
    Diverges {
        /// The log file.
        path: PathBuf,
        /// The first divergence.
        message: String,
    },
    /// A log cut short by a crash (repair it first).
    #[error("{path}: the last frame is cut short ({dropped} bytes); run tessera replay repair first")]
    CutShort {
        /// The log file.
        path: PathBuf,
        /// Bytes after the last whole frame.
        dropped: u64,
    },
}

/// The files [`pin`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pinned {
    /// The copy of the log.
    pub log: PathBuf,
    /// Its sidecar.
    pub sidecar: PathBuf,
    /// What the sidecar says.
    pub sidecar_data: Sidecar,
    /// Half of an earlier pin under this name that was replaced (a log without its sidecar, or
    /// a sidecar without its log: a pin that was killed half-way).
    pub replaced: Option<PathBuf>,
}

/// The most bytes read of a sidecar (a few hundred in practice).
pub const MAX_SIDECAR: u64 = 1 << 20;

/// Whether `name` can name a regression (a plain file name, no path).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name.len() <= 200
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// The regression name a file gives by default: its stem, with characters a name may not hold
/// replaced by `_`.
pub fn default_name(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .collect();
    let name = name.trim_start_matches('.').to_string();
    if name.is_empty() { "regression".to_string() } else { name }
}

/// Copies `log` (read from `source`) into `dir` as `NAME.tlog` with its sidecar `NAME.json`,
/// each written atomically, after checking that it replays with today's rules. Creates `dir`.
///
/// The pair appears at once (issue 37.8): the sidecar is written first under a hidden staged
/// name (`.NAME.json.pinPID`, which [`check_dir_with`] skips), then the log (the commit: from here
/// the pin is complete, and [`check_log`] reads the staged sidecar when `NAME.json` is not yet
/// there), then the staged sidecar is renamed to `NAME.json`. A kill before the log's rename
/// leaves neither (the next pin into the folder removes the staged sidecar of a process no longer running); a kill after
/// it leaves the whole pair (the next pin finishes the rename). Never overwrites a complete pin
/// ([`RegressError::Exists`]); half of one left by an older version (a log without its sidecar,
/// or a sidecar without its log) is replaced, and [`Pinned::replaced`] says so.
pub fn pin(log: &Log, source: &Path, dir: &Path, name: &str, guards: &str) -> Result<Pinned, RegressError> {
    if !valid_name(name) {
        return Err(RegressError::BadName(name.to_string()));
    }
    if log.dropped_bytes() > 0 {
        return Err(RegressError::CutShort { path: source.to_path_buf(), dropped: log.dropped_bytes() });
    }
    let report = verify(log).map_err(|error| RegressError::Log { path: source.to_path_buf(), error })?;
    if let Some(d) = &report.divergence {
        return Err(RegressError::Diverges { path: source.to_path_buf(), message: d.to_string() });
    }
    let pinned_from = source.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let sidecar = Sidecar::of(log, guards, &pinned_from)
        .map_err(|error| RegressError::Log { path: source.to_path_buf(), error })?;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e: std::io::Error| RegressError::Io { path, message: e.to_string() }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    finish_staged(dir).map_err(io(dir))?;
    let log_path = dir.join(format!("{name}.{LOG_EXTENSION}"));
    let sidecar_path = dir.join(format!("{name}.{SIDECAR_EXTENSION}"));
    let staged = staged_sidecar(&log_path, std::process::id());
    let there = |p: &Path| p.symlink_metadata().is_ok();
    let replaced = match (there(&log_path), there(&sidecar_path) || staged_of(&log_path).is_some()) {
        (true, true) => return Err(RegressError::Exists(log_path)),
        (true, false) => Some(log_path.clone()),
        (false, true) => Some(sidecar_path.clone()),
        (false, false) => None,
    };
    let mut json = serde_json::to_string_pretty(&sidecar)
        .map_err(|e| RegressError::Io { path: sidecar_path.clone(), message: e.to_string() })?;
    json.push('\n');
    if replaced.as_ref() == Some(&sidecar_path) {
        // A sidecar without its log (left by an older version, which wrote the sidecar first):
        // removed first, so that a kill now leaves the new log alone, never a wrong pair.
        std::fs::remove_file(&sidecar_path).map_err(io(&sidecar_path))?;
    }
    atomic_write(&staged, json.as_bytes()).map_err(io(&staged))?;
    atomic_write(&log_path, log.whole_bytes()).map_err(io(&log_path))?;
    std::fs::rename(&staged, &sidecar_path).map_err(io(&sidecar_path))?;
    Ok(Pinned { log: log_path, sidecar: sidecar_path, sidecar_data: sidecar, replaced })
}

/// The staged name of the sidecar of the log at `log_path` while process `pid`'s [`pin`] writes
/// the pair: `.NAME.json.pinPID` beside `NAME.tlog`.
fn staged_sidecar(log_path: &Path, pid: u32) -> PathBuf {
    let stem = log_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    log_path.with_file_name(format!(".{stem}.{SIDECAR_EXTENSION}.pin{pid}"))
}

/// The staged sidecars in `dir`: (the log's stem, the process that wrote it, the path).
fn staged_sidecars(dir: &Path) -> std::io::Result<Vec<(String, u32, PathBuf)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        let Some((stem, pid)) = name.to_str().and_then(|n| {
            let (stem, pid) = n.strip_prefix('.')?.rsplit_once(".json.pin")?;
            Some((stem.to_string(), pid.parse::<u32>().ok()?))
        }) else {
            continue;
        };
        found.push((stem, pid, dir.join(&name)));
    }
    Ok(found)
}

/// The staged sidecar of the log at `log_path` a killed pin left after writing the log, if any.
fn staged_of(log_path: &Path) -> Option<PathBuf> {
    let dir = log_path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let stem = log_path.file_stem()?.to_string_lossy().into_owned();
    staged_sidecars(dir).ok()?.into_iter().find(|(s, _, _)| *s == stem).map(|(_, _, p)| p)
}

/// Finishes the pins a kill interrupted in `dir` (of processes no longer running): a staged
/// sidecar whose log is there belongs to a complete pin and is renamed to its place; one whose
/// log is not is removed (the pin never happened).
fn finish_staged(dir: &Path) -> std::io::Result<()> {
    for (stem, pid, staged) in staged_sidecars(dir)? {
        if crate::writer::process_may_run(pid) != Some(false) {
            continue;
        }
        let log_path = dir.join(format!("{stem}.{LOG_EXTENSION}"));
        let sidecar_path = dir.join(format!("{stem}.{SIDECAR_EXTENSION}"));
        if log_path.symlink_metadata().is_ok() && sidecar_path.symlink_metadata().is_err() {
            std::fs::rename(&staged, &sidecar_path)?;
        } else {
            std::fs::remove_file(&staged)?;
        }
    }
    Ok(())
}

/// How one regression log fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckOutcome {
    /// It replays exactly and agrees with its sidecar.
    Passed {
        /// Steps replayed.
        steps: u64,
    },
    /// It diverges, or disagrees with its sidecar: the first problem.
    Failed(String),
    /// The log or its sidecar cannot be read.
    Unreadable(String),
}

/// One log's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The regression's name (the file stem).
    pub name: String,
    /// What it guards, from its sidecar (when it has one that reads).
    pub guards: Option<String>,
    /// The log file (or the sidecar, for a sidecar without its log).
    pub path: PathBuf,
    /// What happened.
    pub outcome: CheckOutcome,
    /// How long it took.
    pub time: Duration,
}

impl CheckResult {
    /// Whether it passed.
    pub fn passed(&self) -> bool {
        matches!(self.outcome, CheckOutcome::Passed { .. })
    }
}

/// Checks one log and its sidecar (`PATH` with the extension `json`, if there is one).
pub fn check_log(path: &Path) -> CheckResult {
    check_log_with(path, false)
}

/// [`check_log`]; with `require_sidecar`, a log without its sidecar is an error (a pin that
/// was killed half-way, or a log copied in by hand).
pub fn check_log_with(path: &Path, require_sidecar: bool) -> CheckResult {
    let started = Instant::now();
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let (outcome, guards) = check_outcome(path, require_sidecar);
    CheckResult { name, guards, path: path.to_path_buf(), outcome, time: started.elapsed() }
}

/// Reads a sidecar: at most [`MAX_SIDECAR`] bytes of a regular file (a link to `/dev/zero`
/// is refused, not read for ever). `Ok(None)` when there is none.
fn read_sidecar(path: &Path) -> Result<Option<Sidecar>, String> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && path.symlink_metadata().is_err() => {
            return Ok(None);
        }
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(format!("{}: the sidecar is not a regular file", path.display()));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SIDECAR + 1).read_to_end(&mut bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_SIDECAR {
        return Err(format!(
            "{}: more than {} KiB: not a regression sidecar",
            path.display(),
            MAX_SIDECAR >> 10
        ));
    }
    serde_json::from_slice::<Sidecar>(&bytes)
        .map(Some)
        .map_err(|e| format!("{}: not a regression sidecar: {e}", path.display()))
}

fn check_outcome(path: &Path, require_sidecar: bool) -> (CheckOutcome, Option<String>) {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        let what = "not a regular file (a dangling link, a folder or a device)";
        return (CheckOutcome::Unreadable(format!("{}: {what}", path.display())), None);
    }
    let mut sidecar_path = path.with_extension(SIDECAR_EXTENSION);
    if sidecar_path.symlink_metadata().is_err()
        && let Some(staged) = staged_of(path)
    {
        // A pin killed after its log was written: the staged sidecar is complete.
        sidecar_path = staged;
    }
    let sidecar = match read_sidecar(&sidecar_path) {
        Ok(s) => s,
        Err(m) => return (CheckOutcome::Unreadable(m), None),
    };
    if sidecar.is_none() && require_sidecar {
        return (
            CheckOutcome::Unreadable(format!(
                "{}: a log without its sidecar {} (pin it with tessera replay pin, or give --allow-unpinned)",
                path.display(),
                sidecar_path.display()
            )),
            None,
        );
    }
    let guards = sidecar.as_ref().map(|s| s.guards.clone()).filter(|g| !g.is_empty());
    (check_against(path, sidecar), guards)
}

fn check_against(path: &Path, sidecar: Option<Sidecar>) -> CheckOutcome {
    let log = match Log::open(path) {
        Ok(log) => log,
        Err(e) => return CheckOutcome::Unreadable(format!("{}: {e}", path.display())),
    };
    let report = match verify(&log) {
        Ok(r) => r,
        Err(e) => return CheckOutcome::Unreadable(format!("{}: {e}", path.display())),
    };
    if let Some(d) = &report.divergence {
        return CheckOutcome::Failed(format!(
            "diverges after {} matching steps of {}: {d}",
            report.steps_ok, report.steps
        ));
    }
    if !report.complete() {
        return CheckOutcome::Failed(format!(
            "the last frame is cut short: {} bytes not checked",
            report.dropped_bytes
        ));
    }
    if let Some(s) = sidecar {
        let h = log.header();
        if s.rule_set != h.rule_set.name() {
            return CheckOutcome::Failed(format!(
                "the sidecar says rule set {}, the log is {}",
                s.rule_set,
                h.rule_set.name()
            ));
        }
        if s.steps != log.steps() {
            return CheckOutcome::Failed(format!(
                "the sidecar expects {} steps, the log has {}",
                s.steps,
                log.steps()
            ));
        }
        let hash = match final_hash(&log) {
            Ok(h) => format!("{h:016x}"),
            Err(e) => return CheckOutcome::Unreadable(format!("{}: {e}", path.display())),
        };
        if !s.final_hash.eq_ignore_ascii_case(&hash) {
            return CheckOutcome::Failed(format!(
                "the final state hash is {hash}, the sidecar expects {}",
                s.final_hash
            ));
        }
    }
    CheckOutcome::Passed { steps: log.steps() }
}

/// Checks every `*.tlog` of `dir` (not its subfolders) on `jobs` threads (at least one), in
/// name order; a sidecar `*.json` without its log is an unreadable entry. An error only when the
/// folder itself cannot be listed. Logs without a sidecar pass on their replay alone (the golden
/// logs); [`check_dir_with`] can require one.
pub fn check_dir(dir: &Path, jobs: usize) -> Result<Vec<CheckResult>, RegressError> {
    check_dir_with(dir, jobs, false)
}

/// [`check_dir`]; with `require_sidecar`, a log without its sidecar is an unreadable entry.
/// Every `*.tlog` and `*.json` entry that is not a regular file (a dangling link, a folder, a
/// device) is an unreadable entry too, never skipped.
pub fn check_dir_with(
    dir: &Path,
    jobs: usize,
    require_sidecar: bool,
) -> Result<Vec<CheckResult>, RegressError> {
    let io = |e: std::io::Error| RegressError::Io { path: dir.to_path_buf(), message: e.to_string() };
    let mut logs = Vec::new();
    let mut orphans = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let hidden = path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
        let ext = path.extension().and_then(|e| e.to_str());
        if hidden || !matches!(ext, Some(LOG_EXTENSION | SIDECAR_EXTENSION)) {
            continue;
        }
        // Every log entry is checked (a link to a regular file is read; anything else is
        // reported); a sidecar whose log is there is read, and reported, with its log.
        if ext == Some(LOG_EXTENSION) {
            logs.push(path);
        } else if path.with_extension(LOG_EXTENSION).symlink_metadata().is_err() {
            orphans.push(path);
        }
    }
    logs.sort();
    orphans.sort();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, CheckResult)>> = Mutex::new(Vec::with_capacity(logs.len()));
    let jobs = jobs.clamp(1, logs.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = logs.get(i) else { break };
                    let r = check_log_with(path, require_sidecar);
                    results.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    results.sort_by_key(|(i, _)| *i);
    let mut out: Vec<CheckResult> = results.into_iter().map(|(_, r)| r).collect();
    for path in orphans {
        let message = if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            format!(
                "{}: a sidecar without its log ({} is missing)",
                path.display(),
                path.with_extension(LOG_EXTENSION).display()
            )
        } else {
            format!("{}: not a regular file (a dangling link, a folder or a device)", path.display())
        };
        out.push(CheckResult {
            name: path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
            guards: None,
            outcome: CheckOutcome::Unreadable(message),
            path,
            time: Duration::ZERO,
        });
    }
    Ok(out)
}

/// Escapes text for XML 1.0 content and attribute values; characters XML 1.0 cannot hold (most
/// control characters) become `\u{..}` written out.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The results as a JUnit XML report: one `testsuite` named `suite`, one `testcase` per log
/// (`failure` with the first divergence, `error` for an unreadable log), with what the log
/// guards (its sidecar's note) as the test case's `guards` property.
pub fn junit_xml(suite: &str, results: &[CheckResult]) -> String {
    let failures = results.iter().filter(|r| matches!(r.outcome, CheckOutcome::Failed(_))).count();
    let errors = results.iter().filter(|r| matches!(r.outcome, CheckOutcome::Unreadable(_))).count();
    let total: f64 = results.iter().map(|r| r.time.as_secs_f64()).sum();
    let suite = xml_escape(suite);
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"{suite}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{total:.3}\">",
        results.len()
    );
    let _ = writeln!(
        x,
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{total:.3}\">",
        results.len()
    );
    for r in results {
        let name = xml_escape(&r.name);
        let file = xml_escape(&r.path.display().to_string());
        let time = r.time.as_secs_f64();
        let open =
            format!("    <testcase name=\"{name}\" classname=\"{suite}\" file=\"{file}\" time=\"{time:.3}\"");
        let properties = r.guards.as_ref().map(|g| {
            format!(
                "      <properties>\n        <property name=\"guards\" value=\"{}\"/>\n      </properties>\n",
                xml_escape(g)
            )
        });
        match (&r.outcome, properties) {
            (CheckOutcome::Passed { .. }, None) => {
                let _ = writeln!(x, "{open}/>");
            }
            (CheckOutcome::Passed { .. }, Some(p)) => {
                let _ = write!(x, "{open}>\n{p}    </testcase>\n");
            }
            (CheckOutcome::Failed(m) | CheckOutcome::Unreadable(m), p) => {
                let tag = if matches!(r.outcome, CheckOutcome::Failed(_)) { "failure" } else { "error" };
                let first = xml_escape(m.lines().next().unwrap_or_default());
                let _ = writeln!(x, "{open}>");
                x.push_str(&p.unwrap_or_default());
                let _ = writeln!(x, "      <{tag} message=\"{first}\">{}</{tag}>", xml_escape(m));
                let _ = writeln!(x, "    </testcase>");
            }
        }
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_file_names() {
        assert!(valid_name("match3_shuffle-1.v2"));
        for bad in ["", ".hidden", "a/b", "..", "a b", "é"] {
            assert!(!valid_name(bad), "{bad}");
        }
        assert_eq!(default_name(Path::new("dir/my bug.tlog")), "my_bug");
        assert_eq!(default_name(Path::new(".hidden.tlog")), "hidden");
        assert_eq!(default_name(Path::new("")), "regression");
    }

    proptest::proptest! {
        /// Whatever the text, the escaped form holds no markup character and no character XML
        /// 1.0 forbids, and every `&` starts one of the five entities.
        #[test]
        fn escaped_text_is_always_well_formed(text in ".*") {
            let e = xml_escape(&text);
            proptest::prop_assert!(!e.contains(['<', '>', '"', '\'']));
            proptest::prop_assert!(!e.chars().any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r')));
            for (i, _) in e.match_indices('&') {
                let rest = &e[i..];
                proptest::prop_assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].iter().any(|x| rest.starts_with(x)));
            }
            // Text without special characters is unchanged.
            if !text.chars().any(|c| "&<>\"'".contains(c) || ((c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{fffe}' || c == '\u{ffff}') {
                proptest::prop_assert_eq!(e, text);
            }
        }
    }

    #[test]
    fn xml_escaping_keeps_text_readable_and_well_formed() {
        assert_eq!(xml_escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
        assert_eq!(xml_escape("x\u{1}y\nz"), "x\\u{1}y\nz");
    }
}
