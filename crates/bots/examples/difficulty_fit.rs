//! Measures tessera's difficulty estimate ([`tessera_bots::estimate`]) against the designers' own
//! order, and against the two baselines (the solver's states expanded, the solution's steps):
//!
//! ```text
//! cargo run --release -p tessera-bots --example difficulty_fit -- [--states N] [--jobs N]
//!     [--suite TESTDATA.js] [--games DIR] [--boxoban DIR] [--boxoban-levels N] [--cache FILE] [--fit]
//! ```
//!
//! - **PuzzleScript.** Every distinct game of the suite (`testdata.js`, the cases grouped by
//!   source; one source per title, the first: the suite repeats games with small changes) and
//!   every game of `--games` (default `fixtures/games`): each level rated, then per
//!   game the Kendall τ-b between the level's number and the rating, over the levels the solver
//!   solved within the budget; the mean over games with at least 4 such levels. The games are
//!   split in two by their source's hash (`state_hash`, even: the fitting half, odd: held out);
//!   `--fit` fits the weights on the fitting half (coordinate ascent over a grid, the mean τ)
//!   and prints them; the table and the means are always for the library's weights, so they
//!   say what `tessera difficulty` gives.
//! - **Sokoban (Boxoban).** The first `--boxoban-levels` levels of each of the
//!   three files (default 200; `unfiltered_test_000.txt`, `medium_valid_000.txt`, `hard_000.txt`): the ROC
//!   AUC of medium over unfiltered and of hard over medium, on the levels of odd index (held
//!   out; `--fit` fits on the even ones).
//! - `--cache FILE` keeps the figures measured (JSON), so a second run only refits and prints.
//!
//! Every figure is bounded by states (default [`Limits::DEFAULT_STATES`]), never a clock: the
//! same numbers on every machine.

use rayon::prelude::*;
use std::collections::BTreeMap;
use tessera_bots::estimate::{self, Features, Limits, PUZZLESCRIPT_WEIGHTS, SOKOBAN_WEIGHTS, UNSOLVED};
use tessera_core::puzzlescript::engine::suite;
use tessera_core::{Level, state_hash};

#[derive(serde::Serialize, serde::Deserialize, Default)]
struct Cache {
    states: u64,
    /// Game name → its source hash and its levels' figures (None: did not start).
    games: BTreeMap<String, (u64, Vec<Option<Features>>)>,
    /// Boxoban set → figures of its levels.
    boxoban: BTreeMap<String, Vec<Option<Features>>>,
}

fn title(source: &str) -> String {
    source
        .lines()
        .find_map(|l| l.trim().strip_prefix("title ").map(|t| t.trim().to_string()))
        .unwrap_or_else(|| "untitled".into())
}

/// Kendall's τ-b between `xs` (the designer's order: distinct) and `ys`.
fn kendall(xs: &[f64], ys: &[f64]) -> f64 {
    let (mut c, mut d, mut ty) = (0i64, 0i64, 0i64);
    for i in 0..xs.len() {
        for j in i + 1..xs.len() {
            let a = (xs[i] - xs[j]).signum();
            let b = ys[i] - ys[j];
            if b == 0.0 {
                ty += 1;
            } else if a * b > 0.0 {
                c += 1;
            } else {
                d += 1;
            }
        }
    }
    let n0 = (xs.len() * (xs.len().saturating_sub(1)) / 2) as f64;
    let denom = (n0 * (n0 - ty as f64)).sqrt();
    if denom == 0.0 { 0.0 } else { (c - d) as f64 / denom }
}

/// ROC AUC: the chance a level of `hard` scores above one of `easy` (ties half).
fn auc(easy: &[f64], hard: &[f64]) -> f64 {
    let mut s = 0.0;
    for h in hard {
        for e in easy {
            s += if h > e {
                1.0
            } else if h == e {
                0.5
            } else {
                0.0
            };
        }
    }
    s / (easy.len() * hard.len()).max(1) as f64
}

/// The measures compared: the estimate with `w`, and the two baselines.
fn measures(f: &Features, sokoban: bool, w: &[f64; estimate::INPUTS]) -> [f64; 3] {
    let steps = if f.search_steps == 0 { f64::INFINITY } else { f.search_steps as f64 };
    let steps = if sokoban && f.solved { f.pushes as f64 } else { steps };
    [estimate::score(f, sokoban, w), f.states as f64, steps]
}

/// Per game: (name, fit half, τ of [estimate, states, steps], levels rated), games with ≥ 4.
fn taus(cache: &Cache, w: &[f64; estimate::INPUTS]) -> Vec<(String, bool, [f64; 3], usize)> {
    let mut out = Vec::new();
    for (name, (hash, levels)) in &cache.games {
        let rated: Vec<(usize, &Features)> = levels
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.as_ref().filter(|f| f.solved).map(|f| (i, f)))
            .collect();
        if rated.len() < 4 {
            continue;
        }
        let xs: Vec<f64> = rated.iter().map(|(i, _)| *i as f64).collect();
        let mut t = [0.0; 3];
        for (k, tk) in t.iter_mut().enumerate() {
            let ys: Vec<f64> = rated.iter().map(|(_, f)| measures(f, false, w)[k]).collect();
            *tk = kendall(&xs, &ys);
        }
        out.push((name.clone(), hash % 2 == 0, t, rated.len()));
    }
    out
}

fn mean(v: impl Iterator<Item = f64>) -> (f64, usize) {
    let (mut s, mut n) = (0.0, 0);
    for x in v {
        s += x;
        n += 1;
    }
    (if n == 0 { 0.0 } else { s / n as f64 }, n)
}

/// Boxoban AUCs [medium>unfiltered, hard>medium] of measure `k` on levels of index parity `odd`.
fn boxoban_auc(cache: &Cache, w: &[f64; estimate::INPUTS], k: usize, odd: bool) -> [f64; 2] {
    let set = |name: &str| -> Vec<f64> {
        cache.boxoban.get(name).map_or(Vec::new(), |v| {
            v.iter()
                .enumerate()
                .filter(|(i, _)| (i % 2 == 1) == odd)
                .filter_map(|(_, f)| f.as_ref())
                .map(|f| {
                    let m = measures(f, true, w)[k];
                    if !f.solved && k > 0 { f64::INFINITY } else { m }
                })
                .collect()
        })
    };
    let (u, m, h) = (set("unfiltered"), set("medium"), set("hard"));
    [auc(&u, &m), auc(&m, &h)]
}

/// Coordinate ascent over a coarse grid of weights, maximising `objective`; a change is kept
/// only when it gains at least 0.01 (a finer grid and every gain overfit: on the PuzzleScript
/// games they gained on the fitting half and lost on the held-out one).
fn fit(
    start: [f64; estimate::INPUTS],
    objective: &dyn Fn(&[f64; estimate::INPUTS]) -> f64,
) -> [f64; estimate::INPUTS] {
    const GRID: [f64; 4] = [0.0, 1.0, 2.0, 4.0];
    let mut w = start;
    let mut best = objective(&w);
    for _ in 0..3 {
        let mut changed = false;
        for i in 0..w.len() {
            for g in GRID {
                let mut c = w;
                c[i] = g;
                let v = objective(&c);
                if v > best + 0.01 {
                    best = v;
                    w = c;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    w
}

fn main() {
    let mut args = std::env::args().skip(1);
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut suite_path =
        "/work/shared/benchmarks/puzzlescript/reference/tests/resources/testdata.js".to_string();
    let mut games_dir = format!("{root}/fixtures/games");
    let mut boxoban_dir = "/work/shared/benchmarks/boxoban".to_string();
    let (mut states, mut jobs, mut boxoban_levels) = (Limits::DEFAULT_STATES, 1usize, 200usize);
    let (mut cache_path, mut refit) = (None::<String>, false);
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--states" => states = val().parse().expect("--states N"),
            "--jobs" => jobs = val().parse().expect("--jobs N"),
            "--suite" => suite_path = val(),
            "--games" => games_dir = val(),
            "--boxoban" => boxoban_dir = val(),
            "--boxoban-levels" => boxoban_levels = val().parse().expect("--boxoban-levels N"),
            "--cache" => cache_path = Some(val()),
            "--fit" => refit = true,
            other => {
                eprintln!("unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let limits = Limits { states, ..Limits::default() };
    let mut cache: Cache = cache_path
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
        .filter(|c: &Cache| c.states == states)
        .unwrap_or_default();
    cache.states = states;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().expect("threads");

    // The PuzzleScript games: the suite's distinct sources, then the fixtures'.
    let mut sources: Vec<(String, String)> = Vec::new();
    if let Ok(text) = std::fs::read_to_string(&suite_path) {
        let cases = suite::parse_testdata(&text).expect("the suite parses");
        let mut seen = std::collections::BTreeSet::new();
        for c in cases {
            if seen.insert(c.source.clone()) {
                sources.push((format!("suite: {}", title(&c.source)), c.source));
            }
        }
    } else {
        eprintln!("{suite_path}: not found, the suite is left out");
    }
    let mut fixture_files: Vec<_> = std::fs::read_dir(&games_dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect()
        })
        .unwrap_or_default();
    fixture_files.sort();
    for p in fixture_files {
        if let Ok(t) = std::fs::read_to_string(&p) {
            sources.push((format!("fixture: {}", p.file_name().unwrap_or_default().to_string_lossy()), t));
        }
    }
    // Names made distinct (two suite games may share a title).
    // One source per title: the suite repeats games with small changes (66 cases of "Simple
    // Block Pushing Game"); the first is kept.
    let mut named: BTreeMap<String, String> = BTreeMap::new();
    for (name, src) in sources {
        named.entry(name).or_insert(src);
    }
    // Games smallest first (the cells of all their levels: a run cut short, on a loaded machine,
    // has rated the most games it could), each game's levels rated as one chunk, the cache
    // written after each.
    let cells_of = |src: &str| -> u64 {
        let count = tessera_core::puzzlescript::import_level(src, None, 1).map_or(0, |(_, c)| c);
        (1..=count)
            .filter_map(|k| tessera_core::puzzlescript::import_level(src, None, k).ok()?.0)
            .filter_map(|l| l.level.start(None).ok())
            .map(|g| match g.state {
                tessera_core::AnyState::PuzzleScript(s) => {
                    u64::from(s.size().width) * u64::from(s.size().height)
                }
                _ => 0,
            })
            .sum()
    };
    let mut todo: Vec<(u64, &String, &String)> = named
        .iter()
        .filter(|(n, _)| !cache.games.contains_key(*n))
        .map(|(n, src)| (cells_of(src), n, src))
        .collect();
    todo.sort();
    let todo: Vec<(&String, &String)> = todo.into_iter().map(|(_, n, s)| (n, s)).collect();
    let total: usize = todo.len();
    for (g, (name, src)) in todo.into_iter().enumerate() {
        let count = tessera_core::puzzlescript::import_level(src, None, 1).map_or(0, |(_, c)| c);
        let fs: Vec<Option<Features>> = if count < 4 {
            Vec::new()
        } else {
            pool.install(|| {
                (1..=count)
                    .into_par_iter()
                    .map(|k| {
                        if std::env::var_os("DIFFICULTY_TRACE").is_some() {
                            eprintln!("    {name} level {k}");
                        }
                        tessera_core::puzzlescript::import_level(src, None, k)
                            .ok()
                            .and_then(|(l, _)| l)
                            .and_then(|l| estimate::features(&l.level, &limits).ok())
                    })
                    .collect()
            })
        };
        eprintln!("  game {}/{total}: {name}, {count} levels", g + 1);
        cache.games.insert(name.clone(), (state_hash(src.as_str()), fs));
        if let Some(p) = &cache_path {
            let _ = std::fs::write(p, serde_json::to_string(&cache).expect("json"));
        }
    }

    // Boxoban.
    for (set, file) in [
        ("unfiltered", "unfiltered_test_000.txt"),
        ("medium", "medium_valid_000.txt"),
        ("hard", "hard_000.txt"),
    ] {
        if cache.boxoban.get(set).is_some_and(|v| v.len() >= boxoban_levels) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(format!("{boxoban_dir}/{file}")) else {
            eprintln!("{boxoban_dir}/{file}: not found, left out");
            continue;
        };
        let levels: Vec<Level> = tessera_core::sokoban::parse_levels(&text)
            .expect("a Boxoban file")
            .into_iter()
            .map(|(_, l)| l)
            .take(boxoban_levels)
            .collect();
        eprintln!("rating {} Boxoban {set} levels", levels.len());
        let fs: Vec<Option<Features>> =
            pool.install(|| levels.par_iter().map(|l| estimate::features(l, &limits).ok()).collect());
        cache.boxoban.insert(set.into(), fs);
    }
    if let Some(p) = &cache_path {
        let _ = std::fs::write(p, serde_json::to_string(&cache).expect("json"));
    }

    // The weights.
    if refit {
        let fit_mean =
            |w: &[f64; estimate::INPUTS]| mean(taus(&cache, w).into_iter().filter(|g| g.1).map(|g| g.2[0])).0;
        let w = fit(PUZZLESCRIPT_WEIGHTS, &fit_mean);
        println!(
            "PuzzleScript weights fitted on the fitting half ({:?}): {w:?}",
            estimate::PUZZLESCRIPT_INPUTS
        );
        let held = mean(taus(&cache, &w).into_iter().filter(|g| !g.1).map(|g| g.2[0]));
        println!(
            "  fitting half mean τ {:.3}; held-out mean τ {:.3} over {} games",
            fit_mean(&w),
            held.0,
            held.1
        );
        let box_fit = |w: &[f64; estimate::INPUTS]| {
            let a = boxoban_auc(&cache, w, 0, false);
            a[0] + a[1]
        };
        let wb = fit(SOKOBAN_WEIGHTS, &box_fit);
        println!("Sokoban weights fitted on even Boxoban levels ({:?}): {wb:?}", estimate::SOKOBAN_INPUTS);
        let a = boxoban_auc(&cache, &wb, 0, true);
        println!("  held-out AUC medium>unfiltered {:.3}, hard>medium {:.3}", a[0], a[1]);
        println!();
    }

    // The table, with the library's weights.
    let rows = taus(&cache, &PUZZLESCRIPT_WEIGHTS);
    println!("Designers' order: Kendall τ per game (levels solved within {states} states; ≥ 4 of them)");
    println!("| game | half | levels | estimate | states | steps |");
    println!("|---|---|---:|---:|---:|---:|");
    for (name, fit_half, t, n) in &rows {
        println!(
            "| {name} | {} | {n} | {:.2} | {:.2} | {:.2} |",
            if *fit_half { "fit" } else { "held out" },
            t[0],
            t[1],
            t[2]
        );
    }
    println!();
    for (label, pick) in [("held out", Some(false)), ("fitting half", Some(true)), ("all", None)] {
        let sel: Vec<_> = rows.iter().filter(|g| pick.is_none_or(|p| g.1 == p)).collect();
        let m = |k: usize| mean(sel.iter().map(|g| g.2[k])).0;
        println!(
            "mean τ, {label} ({} games): estimate {:.3}, states {:.3}, steps {:.3}",
            sel.len(),
            m(0),
            m(1),
            m(2)
        );
    }
    println!();
    for (k, name) in ["estimate", "states", "pushes"].iter().enumerate() {
        let a = boxoban_auc(&cache, &SOKOBAN_WEIGHTS, k, true);
        println!(
            "Boxoban held-out (odd levels) {name}: AUC medium>unfiltered {:.3}, hard>medium {:.3}",
            a[0], a[1]
        );
    }
    let unsolved =
        |set: &str| cache.boxoban.get(set).map_or(0, |v| v.iter().flatten().filter(|f| !f.solved).count());
    println!(
        "Boxoban levels unsolved within {states} states (rated {UNSOLVED}): unfiltered {}, medium {}, hard {}",
        unsolved("unfiltered"),
        unsolved("medium"),
        unsolved("hard")
    );
}
