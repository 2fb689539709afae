//! The pack file: a name and an ordered list of entries (a level by path or inline, with
//! designer fields), read with every error naming the entry, and saved atomically.
//!
//! `Pack` (name, `Entry`s: `LevelRef` path or inline, title, note, `Band`), parsed in two steps so
//! every error names its entry (`PackError::Entry`, `Duplicate`, `Syntax`); `resolve` reads the
//! level files (relative to the pack, size-capped; `resolve_entry` one) and refuses the same file
//! twice (equal content under two names is allowed and shares ratings: ratings are keyed by
//! `level_hash`); edits (`add`, `remove`, `move_entry`) and `save` (atomic).

use crate::error::PackError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};
use tessera_core::{Level, RuleSet, state_hash};

/// The most bytes read of a pack or of one of its level files.
pub const MAX_FILE: u64 = 64 << 20;

/// A target difficulty band: the win rate the designer plans for a level.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// `[low, high]`, fractions from 0 to 1 with `low <= high`.
    pub win_rate: [f64; 2],
}

impl Band {
    /// Whether `rate` lies inside the band (ends included).
    pub fn contains(&self, rate: f64) -> bool {
        rate >= self.win_rate[0] && rate <= self.win_rate[1]
    }

    fn check(&self) -> Result<(), String> {
        let [lo, hi] = self.win_rate;
        if !(0.0..=1.0).contains(&lo) || !(0.0..=1.0).contains(&hi) || lo > hi {
            return Err(format!(
                "target win_rate [{lo}, {hi}] must be two fractions from 0 to 1, the low one first"
            ));
        }
        Ok(())
    }
}

/// Where an entry's level is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum LevelRef {
    /// A level file, relative to the pack's folder (absolute paths are allowed too).
    Path(String),
    /// The level itself, in the pack file.
    Inline(Box<Level>),
}

impl LevelRef {
    /// For messages: the path, or `inline`.
    pub fn describe(&self) -> String {
        match self {
            LevelRef::Path(p) => p.clone(),
            LevelRef::Inline(_) => "inline level".into(),
        }
    }
}

/// One entry of a pack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// The level.
    pub level: LevelRef,
    /// A title for the designer (the level file's name when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A free note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The planned difficulty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Band>,
}

impl Entry {
    /// An entry for a level file, with no designer fields.
    pub fn path(path: impl Into<String>) -> Entry {
        Entry { level: LevelRef::Path(path.into()), title: None, note: None, target: None }
    }

    /// What to call the entry: its title, else its level's path, else `inline level`.
    pub fn label(&self) -> String {
        self.title.clone().unwrap_or_else(|| self.level.describe())
    }
}

/// The fields an entry may have (unknown ones are errors naming the entry).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    level: Value,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    target: Option<Band>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPack {
    name: String,
    levels: Vec<Value>,
}

/// A pack: a name and its entries in play order. What the pack file holds, nothing resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pack {
    /// The pack's name.
    pub name: String,
    /// The entries, in play order.
    #[serde(rename = "levels")]
    pub entries: Vec<Entry>,
}

/// An entry's level, read and checked.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The level.
    pub level: Level,
    /// Its rule set.
    pub rule_set: RuleSet,
    /// Its content hash (hex of the xxh3 state hash of the level): what ratings are keyed by.
    pub hash: String,
}

/// The content hash of a level (the key of its ratings; a difficulty report's `level_hash`).
pub fn level_hash(level: &Level) -> String {
    format!("{:016x}", state_hash(level))
}

/// Reads at most [`MAX_FILE`] bytes of `path` as UTF-8.
pub(crate) fn read_text(path: &Path) -> Result<String, PackError> {
    read_text_capped(path, MAX_FILE)
}

/// Reads at most `max` bytes of `path` as the UTF-8 text of a JSON file. A regular file larger
/// than `max` is refused before anything is read; another (a pipe, a device) is read up to
/// `max` with memory of at most `max` and a chunk. A byte JSON text cannot hold (a control
/// character other than tab, line feed and carriage return, such as `/dev/zero`'s NUL) stops
/// the read at once (issue 37.6: `/dev/zero` as a shard read 1.56 GB before failing).
pub(crate) fn read_text_capped(path: &Path, max: u64) -> Result<String, PackError> {
    use std::io::Read;
    let io = |e: std::io::Error| PackError::Io { path: path.to_path_buf(), message: e.to_string() };
    let too_big = || PackError::Io {
        path: path.to_path_buf(),
        message: format!("more than {} MiB; not read further", max >> 20),
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() > max
    {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        if let Some(at) = chunk[..n].iter().position(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) {
            return Err(PackError::Io {
                path: path.to_path_buf(),
                message: format!(
                    "byte {} is 0x{:02x}, a control character JSON text cannot hold: not a JSON file; not read further",
                    bytes.len() + at,
                    chunk[at]
                ),
            });
        }
        if (bytes.len() + n) as u64 > max {
            return Err(too_big());
        }
        if bytes.capacity() < bytes.len() + n {
            // Doubling, but never past `max`: the memory stays within the limit.
            let want = (bytes.capacity() * 2).max(bytes.len() + n).min(max as usize);
            bytes.try_reserve_exact(want - bytes.len()).map_err(|_| PackError::Io {
                path: path.to_path_buf(),
                message: format!("out of memory reading it ({want} bytes); not read further"),
            })?;
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
    String::from_utf8(bytes).map_err(|e| PackError::Io {
        path: path.to_path_buf(),
        message: format!("invalid UTF-8 at byte {}", e.utf8_error().valid_up_to()),
    })
}

/// The results file of a pack: `NAME.json` → `NAME.results.json` beside it.
pub fn results_path(pack: &Path) -> PathBuf {
    let name = pack.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".json").unwrap_or(&name);
    pack.with_file_name(format!("{stem}.results.json"))
}

impl Pack {
    /// An empty pack.
    pub fn new(name: impl Into<String>) -> Pack {
        Pack { name: name.into(), entries: Vec::new() }
    }

    /// Parses a pack file's text; `path` names it in errors. Checks the fields of every entry
    /// (unknown fields, bad bands, inline levels that do not parse), not the level files.
    pub fn parse(text: &str, path: &Path) -> Result<Pack, PackError> {
        let raw: RawPack = serde_json::from_str(text).map_err(|e| PackError::Syntax {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string().split(" at line ").next().unwrap_or_default().to_string(),
        })?;
        let mut entries = Vec::with_capacity(raw.levels.len());
        for (i, value) in raw.levels.into_iter().enumerate() {
            let entry_error = |message: String| PackError::Entry {
                path: path.to_path_buf(),
                entry: i + 1,
                label: String::new(),
                message,
            };
            let raw: RawEntry = serde_json::from_value(value).map_err(|e| entry_error(e.to_string()))?;
            let level = match raw.level {
                Value::String(p) if !p.is_empty() => LevelRef::Path(p),
                Value::Object(_) => {
                    let level: Level = serde_json::from_value(raw.level)
                        .map_err(|e| entry_error(format!("inline level: {e}")))?;
                    LevelRef::Inline(Box::new(level))
                }
                _ => {
                    return Err(entry_error(
                        "\"level\" must be a file path (a non-empty string) or a level object".into(),
                    ));
                }
            };
            let entry = Entry { level, title: raw.title, note: raw.note, target: raw.target };
            if let Some(band) = &entry.target {
                band.check().map_err(|m| PackError::Entry {
                    path: path.to_path_buf(),
                    entry: i + 1,
                    label: entry.label(),
                    message: m,
                })?;
            }
            entries.push(entry);
        }
        Ok(Pack { name: raw.name, entries })
    }

    /// Reads the pack file `path` (see [`Pack::parse`]).
    pub fn read(path: &Path) -> Result<Pack, PackError> {
        Pack::parse(&read_text(path)?, path)
    }

    /// The pack as the file holds it: pretty JSON, fields in a fixed order, a final newline.
    pub fn to_json(&self) -> String {
        // Strings, numbers and levels only: serialization cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Writes the pack to `path` atomically (temporary file + rename).
    pub fn save(&self, path: &Path) -> Result<(), PackError> {
        tessera_replay::atomic_write(path, self.to_json().as_bytes())
            .map_err(|e| PackError::Io { path: path.to_path_buf(), message: e.to_string() })
    }

    /// Reads and checks every entry's level (relative paths start at the pack's folder):
    /// missing or bad level files and duplicate entries (the same level file twice, however
    /// spelled: `./x`, `dir/../x`, an absolute path, a symbolic link — their canonical paths are
    /// compared, in one pass) are errors naming the entry. Two entries may hold the same level
    /// content (a copy about to be edited): they share their ratings.
    pub fn resolve(&self, pack_path: &Path) -> Result<Vec<Resolved>, PackError> {
        let dir = pack_path.parent().unwrap_or(Path::new("."));
        let mut out: Vec<Resolved> = Vec::with_capacity(self.entries.len());
        // Looked up only, never iterated.
        let mut seen: std::collections::HashMap<PathBuf, usize> = std::collections::HashMap::new();
        for (i, entry) in self.entries.iter().enumerate() {
            if let LevelRef::Path(p) = &entry.level
                && let Ok(canonical) = std::fs::canonicalize(dir.join(p))
            {
                if let Some(&j) = seen.get(&canonical) {
                    let first = self.entries[j].level.describe();
                    let what = if first == *p {
                        format!("both {p}")
                    } else {
                        format!("both {} ({first} and {p})", canonical.display())
                    };
                    return Err(PackError::Duplicate {
                        path: pack_path.to_path_buf(),
                        first: j + 1,
                        second: i + 1,
                        what,
                    });
                }
                seen.insert(canonical, i);
            }
            out.push(self.resolve_entry(pack_path, i)?);
        }
        Ok(out)
    }

    /// Reads and checks entry `i`'s level (see [`Pack::resolve`]; no duplicate check).
    pub fn resolve_entry(&self, pack_path: &Path, i: usize) -> Result<Resolved, PackError> {
        let dir = pack_path.parent().unwrap_or(Path::new("."));
        let entry = self.entries.get(i).ok_or_else(|| {
            PackError::Edit(format!(
                "{}: no entry {} ({} entries)",
                pack_path.display(),
                i + 1,
                self.entries.len()
            ))
        })?;
        let error = |message: String| PackError::Entry {
            path: pack_path.to_path_buf(),
            entry: i + 1,
            label: entry.label(),
            message,
        };
        let level = match &entry.level {
            LevelRef::Path(p) => {
                let file = dir.join(p);
                if !file.is_file() {
                    return Err(error(format!("level file {} does not exist", file.display())));
                }
                let text = read_text(&file).map_err(|e| error(e.to_string()))?;
                Level::from_json(&text).map_err(|e| error(format!("{}: {e}", file.display())))?
            }
            LevelRef::Inline(level) => {
                level.start(None).map_err(|e| error(format!("inline level: {e}")))?;
                (**level).clone()
            }
        };
        Ok(Resolved { rule_set: level.rule_set(), hash: level_hash(&level), level })
    }

    /// Inserts `entry` at `at` (0-based; the end when `None`).
    pub fn add(&mut self, entry: Entry, at: Option<usize>) -> Result<(), PackError> {
        let n = self.entries.len();
        let at = at.unwrap_or(n);
        if at > n {
            return Err(PackError::Edit(format!("position {} is past the end ({} entries)", at + 1, n)));
        }
        self.entries.insert(at, entry);
        Ok(())
    }

    /// Removes the entry at `index` (0-based) and returns it.
    pub fn remove(&mut self, index: usize) -> Result<Entry, PackError> {
        self.check_index(index)?;
        Ok(self.entries.remove(index))
    }

    /// Moves the entry at `from` to position `to` (0-based, both within the pack).
    pub fn move_entry(&mut self, from: usize, to: usize) -> Result<(), PackError> {
        self.check_index(from)?;
        self.check_index(to)?;
        let e = self.entries.remove(from);
        self.entries.insert(to, e);
        Ok(())
    }

    fn check_index(&self, index: usize) -> Result<(), PackError> {
        if index >= self.entries.len() {
            return Err(PackError::Edit(format!(
                "no entry {} (the pack has {} entries)",
                index + 1,
                self.entries.len()
            )));
        }
        Ok(())
    }
}
