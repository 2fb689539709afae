//! `tessera difficulty LEVEL` without `--bot`: the difficulty estimate of a puzzle level
//! ([`tessera_bots::estimate`]), for one level (`--number N`) or every level of a game or
//! collection (`--all`), as a report a designer reads (the levels in the game's order, the
//! rating, its reasons, and a mark where the order disagrees) or as one JSON object, the last
//! line of stdout: `{"levels": [{"number": N, "difficulty": D, "why": [...], ...}], ...}`.
//!
//! Files: a PuzzleScript game (`.txt`; numbers from 1, as `tessera solve` counts them), a
//! Sokoban collection (`.xsb`, `.sok`, or a Boxoban `.txt` that is not a PuzzleScript game;
//! numbers as `tessera convert` names its files: a Boxoban file's own `; N`), or a level file
//! (`.json`, number 1). Levels are rated `--jobs` at once, each on one thread, so the figures
//! are the same for any number of jobs.

use crate::error::{CliError, output_error, read_input};
use std::io::Write;
use std::path::Path;
use tessera_bots::estimate::{self, Estimate, Limits};
use tessera_core::Level;

/// What to rate and how (the estimate's flags of `tessera difficulty`).
pub struct EstimateRequest<'a> {
    /// The file.
    pub path: &'a Path,
    /// `--number N`.
    pub number: Option<u64>,
    /// `--all`.
    pub all: bool,
    /// `--states N`: each search's budget.
    pub states: Option<u64>,
    /// `--jobs N`: levels rated at once.
    pub jobs: Option<usize>,
    /// `--json`.
    pub json: bool,
}

/// A level to rate: its number and the level (or why it cannot be read).
type Numbered = (u64, Result<Level, String>);

/// The levels of `path`: every one, or the one numbered `number`, or the only one.
fn levels_of(path: &Path, number: Option<u64>, all: bool) -> Result<Vec<Numbered>, CliError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
    let sokoban = tessera_core::importer("sokoban")
        .ok_or_else(|| CliError::BadInput("no sokoban importer is registered".into()))?;
    let from_collection = |text: &str| -> Result<Vec<Numbered>, CliError> {
        let levels = tessera_core::sokoban::parse_levels(text)
            .map_err(|e| CliError::BadInput(format!("{}:{}:{}: {e}", path.display(), e.line, e.column)))?;
        let titles: Vec<&str> = levels.iter().map(|(t, _)| t.as_str()).collect();
        let numbers = tessera_core::sokoban::collection_numbers(&titles);
        Ok(numbers.into_iter().zip(levels).map(|(n, (_, l))| (n, Ok(l))).collect())
    };
    let mut levels: Vec<Numbered> = match ext.as_str() {
        "xsb" | "sok" => from_collection(&read_input(path, crate::convert::input_of(sokoban))?)?,
        "txt" => {
            let importer = tessera_core::importer("puzzlescript")
                .ok_or_else(|| CliError::BadInput("no puzzlescript importer is registered".into()))?;
            let text = read_input(path, crate::convert::input_of(importer))?;
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            match tessera_core::puzzlescript::import_level(&text, name.as_deref(), 1) {
                Ok((_, count)) => {
                    let wanted: Vec<u64> = match number {
                        Some(k) if k == 0 || k > count as u64 => {
                            return Err(CliError::file(
                                path,
                                format!(
                                    "--number {k}: the game has {count} level{}",
                                    if count == 1 { "" } else { "s" }
                                ),
                            ));
                        }
                        Some(k) => vec![k],
                        None => (1..=count as u64).collect(),
                    };
                    return check_count(
                        path,
                        number,
                        all,
                        wanted
                            .into_iter()
                            .map(|k| {
                                let l = tessera_core::puzzlescript::import_level(
                                    &text,
                                    name.as_deref(),
                                    k as usize,
                                )
                                .map_err(|e| e.message)
                                .and_then(|(l, _)| {
                                    l.map(|l| l.level).ok_or_else(|| format!("level {k} is missing"))
                                });
                                (k, l)
                            })
                            .collect(),
                    );
                }
                // Not PuzzleScript: a Boxoban file is a `.txt` too.
                Err(ps_error) => match from_collection(&text) {
                    Ok(l) if !l.is_empty() => l,
                    _ => return Err(crate::convert::import_error(path, ps_error)),
                },
            }
        }
        _ => vec![(1, Ok(crate::level_file::load_level(Some(path), None)?))],
    };
    if let Some(k) = number {
        let n = levels.len();
        levels.retain(|(m, _)| *m == k);
        if levels.is_empty() {
            return Err(CliError::file(path, format!("--number {k}: no level has that number (of {n})")));
        }
    }
    check_count(path, number, all, levels)
}

/// Refuses several levels without `--all` or `--number`.
fn check_count(
    path: &Path,
    number: Option<u64>,
    all: bool,
    levels: Vec<Numbered>,
) -> Result<Vec<Numbered>, CliError> {
    if levels.len() > 1 && !all && number.is_none() {
        let (first, last) = (levels[0].0, levels[levels.len() - 1].0);
        return Err(CliError::file(
            path,
            format!(
                "{} levels: rate one with --number {first}..{last}, or every one with --all",
                levels.len()
            ),
        ));
    }
    Ok(levels)
}

/// Rates the levels, `jobs` at once; results in the levels' order.
fn rate(levels: &[Numbered], limits: &Limits, jobs: usize) -> Vec<Result<Estimate, String>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, Result<Estimate, String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.clamp(1, levels.len().max(1)))
            .map(|_| {
                let next = &next;
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((_, level)) = levels.get(i) else { break };
                        let r = level
                            .as_ref()
                            .map_err(Clone::clone)
                            .and_then(|l| estimate::estimate_level(l, limits).map_err(|e| e.to_string()));
                        mine.push((i, r));
                    }
                    mine
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_default()).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// Kendall's τ-b between the levels' order and their ratings (`None` under 2 levels).
pub fn order_agreement(ratings: &[f64]) -> Option<f64> {
    if ratings.len() < 2 {
        return None;
    }
    let (mut c, mut d, mut ties) = (0i64, 0i64, 0i64);
    for i in 0..ratings.len() {
        for j in i + 1..ratings.len() {
            match ratings[j].total_cmp(&ratings[i]) {
                std::cmp::Ordering::Greater => c += 1,
                std::cmp::Ordering::Less => d += 1,
                std::cmp::Ordering::Equal => ties += 1,
            }
        }
    }
    let n0 = (ratings.len() * (ratings.len() - 1) / 2) as f64;
    let denom = (n0 * (n0 - ties as f64)).sqrt();
    Some(if denom == 0.0 { 0.0 } else { (c - d) as f64 / denom })
}

use tessera_bots::estimate::disagreements;

/// Runs the estimate (see the module docs).
pub fn run(req: &EstimateRequest<'_>) -> Result<(), CliError> {
    let states = req.states.unwrap_or(Limits::DEFAULT_STATES);
    if states == 0 {
        return Err(CliError::BadInput("--states must be at least 1".into()));
    }
    let jobs = req.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(CliError::BadInput("--jobs must be at least 1".into()));
    }
    let levels = levels_of(req.path, req.number, req.all)?;
    // A single level of a rule set without a solver: say so (exit 2), pointing at --bot.
    if let [(_, Ok(level))] = levels.as_slice()
        && !estimate::rates(level.rule_set())
    {
        return Err(CliError::file(
            req.path,
            estimate::EstimateError::NoSolver(level.rule_set()).to_string(),
        ));
    }
    let limits = Limits { states, ..Limits::default() };
    let rated = rate(&levels, &limits, jobs);
    let ratings: Vec<Option<f64>> = rated.iter().map(|r| r.as_ref().ok().map(|e| e.difficulty)).collect();
    let marks = disagreements(&ratings);
    let solved: Vec<f64> = rated
        .iter()
        .filter_map(|r| r.as_ref().ok().filter(|e| e.features.solved).map(|e| e.difficulty))
        .collect();
    let tau = order_agreement(&solved);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if req.json {
        let rows: Vec<serde_json::Value> = levels
            .iter()
            .zip(&rated)
            .map(|((n, _), r)| match r {
                Ok(e) => serde_json::json!({
                    "number": n,
                    "difficulty": e.difficulty,
                    "why": e.why,
                    "solved": e.features.solved,
                    "features": e.features,
                }),
                Err(why) => serde_json::json!({"number": n, "error": why}),
            })
            .collect();
        let marks: Vec<serde_json::Value> = marks
            .iter()
            .map(|(i, j)| serde_json::json!({"number": levels[*i].0, "easier_than": levels[*j].0}))
            .collect();
        let doc = serde_json::json!({
            "file": req.path.display().to_string(),
            "states": states,
            "levels": rows,
            "order_agreement": tau,
            "disagreements": marks,
        });
        return writeln!(out, "{doc}").map_err(output_error);
    }
    let mut text =
        format!("{}: difficulty estimate ({states} states a search; higher is harder)\n", req.path.display());
    for (i, ((n, _), r)) in levels.iter().zip(&rated).enumerate() {
        match r {
            Ok(e) => {
                let shown = format!("{:>6}", e.shown());
                text += &format!("level {n:>4}  {shown}  {}\n", e.why.join("; "));
            }
            Err(why) => text += &format!("level {n:>4}   error  {why}\n"),
        }
        for (_, j) in marks.iter().filter(|(k, _)| *k == i) {
            text +=
                &format!("            ^ level {n} rates easier than level {}: a breather?\n", levels[*j].0);
        }
    }
    if levels.len() > 1 {
        match tau {
            Some(t) => {
                text += &format!(
                    "order agreement (Kendall τ, levels solved: {}): {t:.2} (1: the game's order is the estimate's)\n",
                    solved.len()
                )
            }
            None => text += "order agreement: fewer than 2 levels solved\n",
        }
    }
    write!(out, "{text}").map_err(output_error)
}
