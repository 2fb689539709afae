//! The tactics subcommands: `tessera range`, `tessera path` and `tessera path-bench`.
//!
//! `LEVEL` is a tactics level (JSON) or a Moving AI `.map` file (8-connected, no units). Costs
//! print as steps (`4.414`) in text and as fixed-point thousandths of a step (`4414`) in JSON.

use crate::error::{CliError, Input, output_error, read_input};
use clap::{Args, Subcommand};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tessera_core::tactics::movingai::{parse_map, parse_scen};
use tessera_core::tactics::{
    Connectivity, Glyph, PathFinder, TacticsLevel, TacticsRules, TacticsState, Weight, fmt_cost, path_glyphs,
};
use tessera_core::{Id, Level, Pos};

/// The tactics subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Tactics: the cells a unit can reach this turn.
    Range(RangeArgs),
    /// Tactics: the cheapest path between two cells, drawn with the path's arrows: the path a
    /// move takes (jump point search on uniform terrain, A* otherwise or with --weight).
    Path(PathArgs),
    /// Run every problem of a Moving AI scenario (jump point search on these uniform maps) and
    /// compare with the optimal lengths.
    PathBench(BenchArgs),
}

impl Command {
    /// Runs the subcommand.
    pub fn run(&self) -> Result<(), CliError> {
        match self {
            Command::Range(args) => range(args),
            Command::Path(args) => path(args),
            Command::PathBench(args) => bench(args),
        }
    }
}

/// Tactics has no solver for `tessera solve`.
/// Events are shown as their JSON.
pub const DESCRIBE: Option<super::Describe> = None;

pub const SOLVERS: &[crate::solve_args::Solver] = &[];

/// `tessera range LEVEL UNIT [--json]`.
#[derive(Args, Debug)]
pub struct RangeArgs {
    /// A tactics level (JSON) or a Moving AI `.map` file.
    pub level: PathBuf,
    /// The unit's id (`3` or `#3`).
    pub unit: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `tessera path LEVEL X1 Y1 X2 Y2 [--weight W] [--json]`.
#[derive(Args, Debug)]
pub struct PathArgs {
    /// A tactics level (JSON) or a Moving AI `.map` file.
    pub level: PathBuf,
    /// Start column.
    pub x1: u16,
    /// Start row (0 at the top).
    pub y1: u16,
    /// Goal column.
    pub x2: u16,
    /// Goal row.
    pub y2: u16,
    /// A* heuristic weight: 1 optimal, 0 Dijkstra, above 1 faster and not always optimal.
    #[arg(long, default_value = "1")]
    pub weight: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `tessera path-bench MAP SCEN [--json]`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// A Moving AI `.map` file.
    pub map: PathBuf,
    /// Its `.scen` file.
    pub scen: PathBuf,
    /// Print one JSON object (`problems`, `mismatches`, `total_ms`, `mean_us`).
    #[arg(long)]
    pub json: bool,
}

/// Loads a tactics level from JSON or a Moving AI map.
fn load(path: &Path) -> Result<(TacticsRules, TacticsState), CliError> {
    let is_map = path.extension().is_some_and(|e| e == "map");
    let text = read_input(path, if is_map { Input::Map } else { Input::Level })?;
    let level = if is_map {
        TacticsLevel::from_movingai(&text).map_err(|e| CliError::file(path, e))?
    } else {
        match Level::from_json(&text).map_err(|e| CliError::file(path, e))? {
            Level::Tactics(l) => l,
            _ => return Err(CliError::file(path, "not a tactics level")),
        }
    };
    level.start().map_err(|e| CliError::file(path, e))
}

fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(output_error)
}

fn check_cell(path: &Path, state: &TacticsState, p: Pos, what: &str) -> Result<(), CliError> {
    if state.size().contains(p) {
        Ok(())
    } else {
        Err(CliError::file(path, format!("{what} {p} is off the {} map", state.size())))
    }
}

/// The map with `marks` drawn over the terrain (units drawn by [`TacticsState::render`]); a
/// later mark of a cell wins.
fn draw(state: &TacticsState, marks: &[(Pos, char)]) -> String {
    let size = state.size();
    let mut grid = vec![None; size.area()];
    for &(p, c) in marks {
        grid[size.index(p)] = Some(c);
    }
    let mut out = Vec::new();
    draw_into(state, |i| grid[i], &mut out).expect("writing to a Vec");
    String::from_utf8(out).expect("rendered text is UTF-8")
}

/// [`draw`] into `out`, one row at a time: `mark(i)` is the character to draw over cell `i`
/// (row-major), if any.
fn draw_into(
    state: &TacticsState,
    mark: impl Fn(usize) -> Option<char>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let rendered = state.render();
    let width = usize::from(state.size().width);
    let mut row = String::new();
    for (y, line) in rendered.lines().take(usize::from(state.size().height)).enumerate() {
        row.clear();
        row.extend(line.chars().enumerate().map(|(x, c)| mark(y * width + x).unwrap_or(c)));
        writeln!(out, "{row}")?;
    }
    Ok(())
}

/// Runs `tessera range`.
///
/// The output is written as it is made, cell by cell: on an open 1024×1024 map a unit can reach
/// a million cells, and a `serde_json::Value` per cell (or the whole text in one `String`) took
/// 1.6 GB (issue 12). The JSON is the object `json!` would give (keys in order), one line.
pub fn range(args: &RangeArgs) -> Result<(), CliError> {
    let (rules, state) = load(&args.level)?;
    let id = args
        .unit
        .trim_start_matches('#')
        .parse()
        .map(Id)
        .map_err(|_| CliError::BadInput(format!("'{}' is not a unit id", args.unit)))?;
    let Some(unit) = state.unit(id).copied() else {
        return Err(CliError::file(&args.level, format!("there is no unit {}", id.0)));
    };
    let cells = rules.reachable(&state, id);
    let mut out = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let r = if args.json {
        (|| {
            out.write_all(b"{\"cells\":[")?;
            for (i, &(p, c)) in cells.iter().enumerate() {
                let sep = if i == 0 { "" } else { "," };
                write!(out, "{sep}{{\"cost\":{c},\"x\":{},\"y\":{}}}", p.x, p.y)?;
            }
            writeln!(
                out,
                "],\"left\":{},\"movement\":{},\"team\":{},\"unit\":{},\"x\":{},\"y\":{}}}",
                unit.left, unit.movement, unit.team, id.0, unit.pos.x, unit.pos.y
            )
        })()
    } else {
        (|| {
            writeln!(
                out,
                "unit {} (team {}) at {} with {} of {} movement left: {} cells in range",
                id.0,
                unit.team,
                unit.pos,
                fmt_cost(unit.left),
                fmt_cost(unit.movement),
                cells.len()
            )?;
            let size = state.size();
            let mut in_range = vec![false; size.area()];
            for &(p, _) in &cells {
                in_range[size.index(p)] = true;
            }
            draw_into(&state, |i| in_range[i].then_some('*'), &mut out)?;
            for (p, c) in &cells {
                writeln!(out, "{} {} {}", p.x, p.y, fmt_cost(*c))?;
            }
            Ok(())
        })()
    };
    r.and_then(|()| out.flush()).map_err(output_error)
}

/// Runs `tessera path`.
pub fn path(args: &PathArgs) -> Result<(), CliError> {
    let (rules, state) = load(&args.level)?;
    let weight = Weight::parse(&args.weight).ok_or_else(|| {
        CliError::BadInput(format!(
            "--weight '{}' is not a decimal number with at most 3 decimals",
            args.weight
        ))
    })?;
    let (from, to) = (Pos::new(args.x1, args.y1), Pos::new(args.x2, args.y2));
    check_cell(&args.level, &state, from, "start")?;
    check_cell(&args.level, &state, to, "goal")?;
    let found = rules.path(&state, from, to, weight);
    let glyphs: Vec<Glyph> = found.as_ref().and_then(|p| path_glyphs(&p.cells)).unwrap_or_default();
    if args.json {
        let doc = match &found {
            Some(p) => json!({
                "from": [from.x, from.y], "to": [to.x, to.y], "weight": args.weight,
                "cost": p.cost, "cells": p.cells.iter().map(|c| [c.x, c.y]).collect::<Vec<_>>(),
                "glyphs": glyphs,
            }),
            None => {
                json!({"from": [from.x, from.y], "to": [to.x, to.y], "weight": args.weight, "cost": null})
            }
        };
        return print(&format!("{doc}\n"));
    }
    let Some(p) = found else {
        let why = match state.unit_at(to) {
            _ if !state.terrain().passable(from) => ": the start is impassable".to_string(),
            Some(u) if from != to => format!(": unit {} stands on the goal", u.id.0),
            _ if !state.terrain().passable(to) => ": the goal is impassable".to_string(),
            _ => String::new(),
        };
        return print(&format!("no path from {from} to {to}{why}\n"));
    };
    let mut text =
        format!("path from {from} to {to}: cost {}, {} steps\n", fmt_cost(p.cost), p.cells.len() - 1);
    let marks: Vec<(Pos, char)> =
        p.cells.iter().skip(1).zip(&glyphs).map(|(&c, g)| (c, g.to_char())).collect();
    text.push_str(&draw(&state, &marks));
    let cells: Vec<String> = p.cells.iter().map(|c| format!("{} {}", c.x, c.y)).collect();
    text.push_str(&cells.join(", "));
    text.push('\n');
    print(&text)
}

/// Runs `tessera path-bench`: every problem of the scenario, `PathFinder::path` w = 1 (jump
/// point search on these uniform maps), 8-connected, no corner
/// cutting; a problem mismatches when no path is found or the path's true length (straight steps
/// + diagonals × √2) differs from the scenario's optimal length by more than 10⁻⁴.
pub fn bench(args: &BenchArgs) -> Result<(), CliError> {
    let terrain = parse_map(&read_input(&args.map, Input::Map)?).map_err(|e| CliError::file(&args.map, e))?;
    let problems =
        parse_scen(&read_input(&args.scen, Input::Scenario)?).map_err(|e| CliError::file(&args.scen, e))?;
    let size = terrain.size();
    for p in &problems {
        let bad =
            |what: String| CliError::BadInput(format!("{}: line {}: {what}", args.scen.display(), p.line));
        if p.size != (usize::from(size.width), usize::from(size.height)) {
            return Err(bad(format!("map size {}x{} differs from the map's {size}", p.size.0, p.size.1)));
        }
        for (what, c) in [("start", p.start), ("goal", p.goal)] {
            if !terrain.passable(c) {
                return Err(bad(format!("{what} {c} is blocked on the map")));
            }
        }
    }
    let progress = std::io::stderr().is_terminal() && problems.len() >= 1000;
    let mut finder = PathFinder::new();
    let mut cells = Vec::new();
    let mut total = std::time::Duration::ZERO;
    let mut mismatches = 0usize;
    for (k, p) in problems.iter().enumerate() {
        let t = Instant::now();
        let cost = finder.path(&terrain, Connectivity::Eight, p.start, p.goal, Weight::OPTIMAL);
        total += t.elapsed();
        let ok = cost.is_some() && {
            finder.path_to(size, p.goal, &mut cells);
            let diagonal = cells.windows(2).filter(|w| w[0].x != w[1].x && w[0].y != w[1].y).count() as u64;
            let straight = (cells.len() as u64).saturating_sub(1 + diagonal);
            p.matches(straight, diagonal)
        };
        if !ok {
            mismatches += 1;
            if mismatches <= 20 {
                let got = cost.map_or_else(|| "no path".to_string(), fmt_cost);
                let want = format!("{}.{:08}", p.optimal_e8 / 100_000_000, p.optimal_e8 % 100_000_000);
                eprintln!(
                    "mismatch: {} line {}: {} to {}: found {got}, optimal {want}",
                    args.scen.display(),
                    p.line,
                    p.start,
                    p.goal
                );
            }
        }
        if progress && k % 500 == 0 {
            eprint!("\r{k}/{} problems", problems.len());
        }
    }
    if progress {
        eprintln!("\r{0}/{0} problems", problems.len());
    }
    let total_ms = total.as_secs_f64() * 1000.0;
    let mean_us = if problems.is_empty() { 0.0 } else { total.as_secs_f64() * 1e6 / problems.len() as f64 };
    let text = if args.json {
        format!(
            "{}\n",
            json!({"problems": problems.len(), "mismatches": mismatches, "total_ms": total_ms, "mean_us": mean_us})
        )
    } else {
        format!(
            "problems: {}\nmismatches: {mismatches}\ntotal: {total_ms:.3} ms\nmean: {mean_us:.3} us\n",
            problems.len()
        )
    };
    print(&text)?;
    if mismatches > 0 {
        return Err(CliError::Failed(format!(
            "{mismatches} of {} problems do not match their optimal length",
            problems.len()
        )));
    }
    Ok(())
}
