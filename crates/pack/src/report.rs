//! The difficulty curve of a pack and its flags, as JSON, CSV or one self-contained HTML file
//! with an SVG chart.
//!
//! Flags, per entry with a rating:
//! - `outside_band`: its win rate is outside its target band;
//! - `harder_than_neighbours`: its win-rate interval lies entirely below the interval of each
//!   neighbour (the entries just before and after it; one at either end of the pack). Not said
//!   beside a neighbour with no rating (nothing to compare with), nor of a level whose games hit
//!   the move cap (those games count as lost: its win rate is the cap's, not the level's);
//! - `no_objective`: the level cannot be won (it has no objective, such as a match-3 level with
//!   no target score): its win rate says nothing, so it gets no other flag and is no neighbour;
//! - `move_cap`: some games were stopped by the move cap (`--max-moves`) without being won; a
//!   moves median at the cap is left out of the moves chart's scale;
//! - `not_rated`: no rating under the results file's last settings.
//!
//! [`CurveEntry::flag_words`] says each flag in words, as every output for a person shows it.
//!
//! `Curve` (per entry: rating point, target, `Flag`s — `outside_band`, `harder_than_neighbours`:
//! interval entirely below each rated neighbour's; `no_objective` (0 objectives: no win rate, no
//! other flag, no neighbour); `move_cap` (games stopped by `max_moves` unwon) —, each said in words
//! by `flag_words`), as JSON, CSV and one HTML page with inline SVG.

use crate::pack::{Band, Pack, Resolved};
use crate::results::Results;
use serde::Serialize;
use std::fmt::Write as _;

/// A flag on an entry of the curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// The win rate is outside the target band.
    OutsideBand,
    /// The win-rate interval lies entirely below its rated neighbours'.
    HarderThanNeighbours,
    /// No rating.
    NotRated,
    /// The level has no objective: it cannot be won.
    NoObjective,
    /// Games were stopped by the move cap without being won.
    MoveCap,
}

impl Flag {
    /// The flag's name in every output.
    pub fn name(self) -> &'static str {
        match self {
            Flag::OutsideBand => "outside_band",
            Flag::HarderThanNeighbours => "harder_than_neighbours",
            Flag::NotRated => "not_rated",
            Flag::NoObjective => "no_objective",
            Flag::MoveCap => "move_cap",
        }
    }
}

/// The rating figures of one point of the curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    /// The bot and its settings, for a person (`mcts (200 playouts)`).
    pub bot: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// `wins / games`.
    pub win_rate: f64,
    /// The 95 % Wilson interval.
    pub interval: [f64; 2],
    /// The median of moves used per game.
    pub moves_median: Option<u64>,
    /// How many objectives the level has (0: it cannot be won).
    pub objectives: u32,
    /// The move cap a game was stopped at.
    pub max_moves: u32,
    /// Games stopped by the move cap without being won.
    pub capped: u64,
}

impl Point {
    /// The moves median, unless it is the move cap (a game stopped, not a figure of the level).
    pub fn moves_figure(&self) -> Option<u64> {
        self.moves_median.filter(|&m| m < u64::from(self.max_moves))
    }

    /// The moves median for a person: a number, or why there is none.
    pub fn moves_text(&self) -> String {
        match (self.moves_median, self.moves_figure()) {
            (_, Some(m)) => m.to_string(),
            (Some(_), None) => format!("at the move cap ({})", self.max_moves),
            (None, _) => "-".into(),
        }
    }
}

/// One entry of the curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurveEntry {
    /// Position in the pack, from 1.
    pub index: usize,
    /// Title (or level path).
    pub title: String,
    /// The level's path, or `inline level`.
    pub level: String,
    /// Rule set name.
    pub rule_set: String,
    /// Content hash.
    pub level_hash: String,
    /// Target band.
    pub target: Option<[f64; 2]>,
    /// The rating, if any.
    pub rating: Option<Point>,
    /// The difficulty estimate of a puzzle level (what `tessera difficulty` gives), if kept.
    pub estimate: Option<EstimatePoint>,
    /// Flags.
    pub flags: Vec<Flag>,
}

/// A puzzle level's difficulty estimate on the curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EstimatePoint {
    /// Higher is harder (100: not solved within the budget).
    pub difficulty: f64,
    /// Its reasons, in words.
    pub why: Vec<String>,
    /// The budget of each search, in states.
    pub states: u64,
}

impl EstimatePoint {
    /// `34.50 (26 steps; 3 moves that look wrong)`: the number and its first three reasons.
    pub fn text(&self) -> String {
        let why: Vec<&str> = self.why.iter().take(3).map(String::as_str).collect();
        format!("difficulty {:.2} ({})", self.difficulty, why.join("; "))
    }
}

/// A pack's difficulty curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Curve {
    /// The pack's name.
    pub pack: String,
    /// The entries in pack order.
    pub entries: Vec<CurveEntry>,
}

/// Whether interval `a` lies entirely below interval `b`.
fn below(a: [f64; 2], b: [f64; 2]) -> bool {
    a[1] < b[0]
}

/// What the curve knows of an entry to compare it with its neighbours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Standing {
    /// No rating: nothing to compare with.
    NotRated,
    /// It cannot be won (no objective): it is no neighbour.
    NoObjective,
    /// Rated: its win rate and 95 % interval, and whether some games hit the move cap.
    Rated {
        /// Wins over games.
        rate: f64,
        /// The 95 % interval.
        interval: [f64; 2],
        /// Some games were stopped by the move cap (counted as lost).
        capped: bool,
    },
}

/// The flags of entry `i` given every entry's target and standing (`move_cap` and
/// `no_objective` are added by [`Curve::of`]).
pub fn flags(targets: &[Option<Band>], standings: &[Standing], i: usize) -> Vec<Flag> {
    let Standing::Rated { rate, interval, capped } = standings[i] else { return vec![Flag::NotRated] };
    let mut out = Vec::new();
    if targets[i].is_some_and(|b| !b.contains(rate)) {
        out.push(Flag::OutsideBand);
    }
    // Each neighbour there is, a level that cannot be won left out; one not rated leaves
    // nothing to compare with (issue 36.8: flagged beside a level with no rating).
    let mut neighbours = Vec::new();
    let mut unknown = false;
    for j in [i.checked_sub(1), Some(i + 1)].into_iter().flatten() {
        match standings.get(j) {
            Some(Standing::Rated { interval, .. }) => neighbours.push(*interval),
            Some(Standing::NotRated) => unknown = true,
            Some(Standing::NoObjective) | None => {}
        }
    }
    if !capped && !unknown && !neighbours.is_empty() && neighbours.iter().all(|&n| below(interval, n)) {
        out.push(Flag::HarderThanNeighbours);
    }
    out
}

impl CurveEntry {
    /// Whether the entry has a flag a designer acts on (any but `not_rated`).
    pub fn flagged(&self) -> bool {
        self.flags.iter().any(|&f| f != Flag::NotRated)
    }

    /// The entry's flags in words: "outside the target band", "harder than the rated levels
    /// beside it" (one at an end of the pack; a level that cannot be won is left out, so "both
    /// neighbours" would be wrong beside one: issue 63.12),
    /// "cannot be won: no objective", "4 of 10 games hit the move cap (300)", "not rated".
    pub fn flag_words(&self) -> Vec<String> {
        self.flags
            .iter()
            .map(|f| match f {
                Flag::OutsideBand => "outside the target band".into(),
                Flag::HarderThanNeighbours => "harder than the rated levels beside it".into(),
                Flag::NotRated => "not rated".into(),
                Flag::NoObjective => "cannot be won: no objective".into(),
                Flag::MoveCap => match &self.rating {
                    Some(r) => {
                        format!("{} of {} games hit the move cap ({})", r.capped, r.games, r.max_moves)
                    }
                    None => "games hit the move cap".into(),
                },
            })
            .collect()
    }
}

impl Curve {
    /// The curve of `pack` (entries resolved) under `results`' last settings.
    pub fn of(pack: &Pack, entries: &[Resolved], results: &Results) -> Curve {
        let ratings: Vec<_> = entries.iter().map(|e| results.latest(&e.hash, e.rule_set)).collect();
        let targets: Vec<Option<Band>> = pack.entries.iter().map(|e| e.target).collect();
        // A level that cannot be won has no win rate worth comparing.
        let standings: Vec<Standing> = ratings
            .iter()
            .map(|r| match r {
                None => Standing::NotRated,
                Some(r) if r.objectives == 0 => Standing::NoObjective,
                Some(r) => {
                    Standing::Rated { rate: r.win_rate(), interval: r.interval(), capped: r.capped > 0 }
                }
            })
            .collect();
        let entries = pack
            .entries
            .iter()
            .zip(entries)
            .zip(&ratings)
            .enumerate()
            .map(|(i, ((entry, resolved), rating))| CurveEntry {
                index: i + 1,
                title: entry.label(),
                level: entry.level.describe(),
                rule_set: resolved.rule_set.name().to_string(),
                level_hash: resolved.hash.clone(),
                target: entry.target.map(|b| b.win_rate),
                rating: rating.map(|r| Point {
                    bot: serde_json::from_str::<tessera_bots::BotSpec>(&r.key.bot)
                        .map_or_else(|_| r.key.bot.clone(), |b| b.to_string()),
                    games: r.games(),
                    wins: r.wins,
                    win_rate: r.win_rate(),
                    interval: r.interval(),
                    moves_median: r.moves.map(|m| m.median),
                    objectives: r.objectives,
                    max_moves: r.key.max_moves,
                    capped: r.capped,
                }),
                estimate: results.estimate(&resolved.hash).map(|e| EstimatePoint {
                    difficulty: e.difficulty,
                    why: e.why.clone(),
                    states: e.states,
                }),
                flags: match rating {
                    Some(r) if r.objectives == 0 => vec![Flag::NoObjective],
                    Some(r) if r.capped > 0 => {
                        let mut f = flags(&targets, &standings, i);
                        f.push(Flag::MoveCap);
                        f
                    }
                    _ => flags(&targets, &standings, i),
                },
            })
            .collect();
        Curve { pack: pack.name.clone(), entries }
    }

    /// Entries with a flag other than `not_rated`.
    pub fn flagged(&self) -> usize {
        self.entries.iter().filter(|e| e.flagged()).count()
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// CSV, one row per entry, with a header.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "index,title,level,rule_set,level_hash,games,wins,win_rate,win_low,win_high,moves_median,capped,target_low,target_high,difficulty,why,flags\n",
        );
        for e in &self.entries {
            let r = e.rating.as_ref();
            let num = |x: Option<f64>| x.map(|x| format!("{x:.4}")).unwrap_or_default();
            let int = |x: Option<u64>| x.map(|x| x.to_string()).unwrap_or_default();
            let flags: Vec<&str> = e.flags.iter().map(|f| f.name()).collect();
            let row = [
                e.index.to_string(),
                csv_field(&e.title),
                csv_field(&e.level),
                e.rule_set.clone(),
                e.level_hash.clone(),
                int(r.map(|r| r.games)),
                int(r.map(|r| r.wins)),
                num(r.map(|r| r.win_rate)),
                num(r.map(|r| r.interval[0])),
                num(r.map(|r| r.interval[1])),
                int(r.and_then(|r| r.moves_median)),
                int(r.map(|r| r.capped)),
                num(e.target.map(|t| t[0])),
                num(e.target.map(|t| t[1])),
                e.estimate.as_ref().map(|d| format!("{:.2}", d.difficulty)).unwrap_or_default(),
                csv_field(&e.estimate.as_ref().map(|d| d.why.join("; ")).unwrap_or_default()),
                flags.join(" "),
            ];
            out += &row.join(",");
            out.push('\n');
        }
        out
    }

    /// One self-contained HTML page: a table and SVG charts (win rate with intervals over
    /// target bands; moves median), no script, no external resource.
    pub fn to_html(&self) -> String {
        let mut h = String::new();
        let title = esc(&self.pack);
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}: difficulty curve</title>\n<style>\
body{{font-family:sans-serif;margin:24px;color:#222}} table{{border-collapse:collapse;font-size:13px}} \
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:left}} tr.flag td{{background:#fde8e8}} \
svg.chart{{width:100%;height:auto;display:block}} .legend{{font-size:13px;margin:4px 0 8px}} \
.legend span{{margin-right:18px;white-space:nowrap}} .legend svg{{vertical-align:middle;margin-right:4px}} \
.band{{fill:#cfe8cf;stroke:#7b7}} .iv{{stroke:#246;stroke-width:2}} .pt{{fill:#246}} .bad{{fill:#c22}} .axis{{stroke:#888}} \
text{{font-size:12px;fill:#444}} .none{{font-size:16px;fill:#777}} .line{{fill:none;stroke:#246;stroke-width:1.5}} \
.cap{{fill:#b60}} .swatch{{display:inline-block;width:14px;height:12px;vertical-align:middle;margin-right:4px}}</style></head><body>\n"
        );
        let rated = self.entries.iter().filter(|e| e.rating.is_some()).count();
        let _ = writeln!(
            h,
            "<h1>{title}</h1>\n<p>{} levels, {rated} rated, {} flagged.</p>",
            self.entries.len(),
            self.flagged()
        );
        h += "<h2>Win rate by level (%)</h2>\n";
        h += LEGEND_WIN;
        h += &self.win_chart();
        h += "<h2>Moves used by level (median)</h2>\n";
        h += LEGEND_MOVES;
        h += &self.moves_chart();
        if self.entries.iter().any(|e| e.estimate.is_some()) {
            h += "<h2>Difficulty estimate by level (puzzle levels; higher is harder)</h2>\n";
            h += &self.difficulty_chart();
        }
        h += "<h2>Levels</h2>\n<table><tr><th>#</th><th>title</th><th>rule set</th><th>bot</th><th>games</th>\
<th>win rate</th><th>interval</th><th>target</th><th>moves (median)</th><th>difficulty</th><th>why</th><th>flags</th></tr>\n";
        for e in &self.entries {
            let flagged = e.flagged();
            let r = e.rating.as_ref();
            let pct = |x: f64| format!("{:.1} %", 100.0 * x);
            let flags = e.flag_words();
            let _ = writeln!(
                h,
                "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                if flagged { " class=\"flag\"" } else { "" },
                e.index,
                esc(&e.title),
                esc(&e.rule_set),
                esc(&r.map(|r| r.bot.clone()).unwrap_or_default()),
                r.map(|r| r.games.to_string()).unwrap_or_default(),
                r.map(|r| if r.objectives == 0 { "-".into() } else { pct(r.win_rate) }).unwrap_or_default(),
                r.filter(|r| r.objectives > 0)
                    .map(|r| format!("{} – {}", pct(r.interval[0]), pct(r.interval[1])))
                    .unwrap_or_default(),
                e.target.map(|t| format!("{} – {}", pct(t[0]), pct(t[1]))).unwrap_or_default(),
                r.map(|r| r.moves_text()).unwrap_or_default(),
                e.estimate.as_ref().map(|d| format!("{:.2}", d.difficulty)).unwrap_or_default(),
                esc(&e.estimate.as_ref().map(|d| d.why.join("; ")).unwrap_or_default()),
                esc(&flags.join("; ")),
            );
        }
        h += "</table>\n<p class=\"legend\"><span><span class=\"swatch\" style=\"background:#fde8e8\"></span>a flagged level (its flags in words)</span></p>\n</body></html>\n";
        h
    }

    /// A chart's frame: the page's width (the SVG scales to it; wider for long packs), the
    /// height, the left margin and each entry's x.
    fn frame(&self, height: f64) -> (f64, f64, f64, impl Fn(usize) -> f64) {
        let n = self.entries.len().max(1);
        let (left, right) = (50.0, 20.0);
        let width = (n as f64 * 28.0).max(1100.0) + left + right;
        let step = (width - left - right) / n as f64;
        (width, height, left, move |i: usize| left + step * (i as f64 + 0.5))
    }

    /// The x axis: each level's number and title (cut short; the whole title on hover),
    /// slanted; with many levels, every fifth.
    fn x_labels(&self, s: &mut String, x: &dyn Fn(usize) -> f64, base: f64) {
        for e in &self.entries {
            if self.entries.len() > 60 && e.index % 5 != 0 {
                continue;
            }
            let cx = x(e.index - 1);
            let short: String = e.title.chars().take(22).collect();
            let short = if short.len() < e.title.len() { format!("{short}…") } else { short };
            let _ = writeln!(
                s,
                "<text x=\"{cx:.1}\" y=\"{base:.1}\" text-anchor=\"end\" transform=\"rotate(-35 {cx:.1} {base:.1})\">{}. {}<title>{}. {}</title></text>",
                e.index,
                esc(&short),
                e.index,
                esc(&e.title)
            );
        }
    }

    fn win_chart(&self) -> String {
        let (width, height, left, x) = self.frame(420.0);
        let (top, bottom) = (10.0, 130.0);
        let y = |v: f64| top + (1.0 - v.clamp(0.0, 1.0)) * (height - top - bottom);
        let step = (width - left - 20.0) / self.entries.len().max(1) as f64;
        let mut s = format!(
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" aria-label=\"win rate by level\">\n"
        );
        for e in &self.entries {
            if let Some([lo, hi]) = e.target {
                let _ = writeln!(
                    s,
                    "<rect class=\"band\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"/>",
                    x(e.index - 1) - step * 0.45,
                    y(hi),
                    step * 0.9,
                    (y(lo) - y(hi)).max(1.0)
                );
            }
        }
        for v in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let _ = writeln!(
                s,
                "<line class=\"axis\" x1=\"{left}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke-dasharray=\"2 3\"/><text x=\"4\" y=\"{:.1}\">{:.0} %</text>",
                width - 20.0,
                y(v),
                y(v),
                y(v) + 4.0,
                v * 100.0
            );
        }
        for e in &self.entries {
            let cx = x(e.index - 1);
            if e.flags.contains(&Flag::NoObjective) {
                let _ = writeln!(
                    s,
                    "<text class=\"none\" x=\"{:.1}\" y=\"{:.1}\">×<title>{}: cannot be won: no objective</title></text>",
                    cx - 4.0,
                    y(0.0) - 4.0,
                    esc(&e.title)
                );
            } else if let Some(r) = &e.rating {
                let bad = e.flagged();
                let _ = writeln!(
                    s,
                    "<line class=\"iv\" x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/><circle class=\"{}\" cx=\"{cx:.1}\" cy=\"{:.1}\" r=\"5\"><title>{}. {}: {:.1} % ({:.1}–{:.1} %){}</title></circle>",
                    y(r.interval[0]),
                    y(r.interval[1]),
                    if bad { "bad" } else { "pt" },
                    y(r.win_rate),
                    e.index,
                    esc(&e.title),
                    100.0 * r.win_rate,
                    100.0 * r.interval[0],
                    100.0 * r.interval[1],
                    if bad { format!(": {}", esc(&e.flag_words().join("; "))) } else { String::new() }
                );
            }
        }
        self.x_labels(&mut s, &x, height - bottom + 14.0);
        s + "</svg>\n"
    }

    fn moves_chart(&self) -> String {
        let (width, height, left, x) = self.frame(330.0);
        let (top, bottom) = (16.0, 130.0);
        // A median at the move cap is where games were stopped, not a figure of the level: it
        // is marked on the top edge, out of the scale.
        let max =
            self.entries.iter().filter_map(|e| e.rating.as_ref()?.moves_figure()).max().unwrap_or(1).max(1)
                as f64;
        let y = |v: f64| top + (1.0 - v / max) * (height - top - bottom);
        let mut s = chart_head(width, height, left, max, "moves by level", &y);
        let points: Vec<String> = self
            .entries
            .iter()
            .filter_map(|e| {
                Some(format!("{:.1},{:.1}", x(e.index - 1), y(e.rating.as_ref()?.moves_figure()? as f64)))
            })
            .collect();
        let _ = writeln!(s, "<polyline class=\"line\" points=\"{}\"/>", points.join(" "));
        for e in &self.entries {
            let Some(r) = &e.rating else { continue };
            if let Some(m) = r.moves_figure() {
                let _ = writeln!(
                    s,
                    "<circle class=\"pt\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\"><title>{}: {m} moves</title></circle>",
                    x(e.index - 1),
                    y(m as f64),
                    esc(&e.title)
                );
            } else if r.moves_median.is_some() {
                let cx = x(e.index - 1);
                let _ = writeln!(
                    s,
                    "<path class=\"cap\" d=\"M{:.1},{:.1} l6,10 h-12 z\"><title>{}: median at the move cap ({})</title></path>",
                    cx,
                    top - 12.0,
                    esc(&e.title),
                    r.max_moves
                );
            }
        }
        self.x_labels(&mut s, &x, height - bottom + 14.0);
        s + "</svg>\n"
    }
}

/// A chart's opening: the SVG element named `label`, and the scale's three dashed lines (0, half
/// and `max`) at the heights `y` gives.
fn chart_head(width: f64, height: f64, left: f64, max: f64, label: &str, y: &dyn Fn(f64) -> f64) -> String {
    let mut s = format!(
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\" aria-label=\"{label}\">\n"
    );
    for v in [0.0, max / 2.0, max] {
        let _ = writeln!(
            s,
            "<line class=\"axis\" x1=\"{left}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke-dasharray=\"2 3\"/><text x=\"4\" y=\"{:.1}\">{v:.0}</text>",
            width - 20.0,
            y(v),
            y(v),
            y(v) + 4.0
        );
    }
    s
}

impl Curve {
    /// The puzzle levels' difficulty estimates, a point each (the reasons on hover).
    fn difficulty_chart(&self) -> String {
        let (width, height, left, x) = self.frame(330.0);
        let (top, bottom) = (16.0, 130.0);
        let max = self
            .entries
            .iter()
            .filter_map(|e| e.estimate.as_ref().map(|d| d.difficulty))
            .fold(1.0f64, f64::max);
        let y = |v: f64| top + (1.0 - v / max) * (height - top - bottom);
        let mut s = chart_head(width, height, left, max, "difficulty by level", &y);
        let points: Vec<String> = self
            .entries
            .iter()
            .filter_map(|e| Some(format!("{:.1},{:.1}", x(e.index - 1), y(e.estimate.as_ref()?.difficulty))))
            .collect();
        let _ = writeln!(s, "<polyline class=\"line\" points=\"{}\"/>", points.join(" "));
        for e in &self.entries {
            let Some(d) = &e.estimate else { continue };
            let _ = writeln!(
                s,
                "<circle class=\"pt\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\"><title>{}: {:.2}: {}</title></circle>",
                x(e.index - 1),
                y(d.difficulty),
                esc(&e.title),
                d.difficulty,
                esc(&d.why.join("; "))
            );
        }
        self.x_labels(&mut s, &x, height - bottom + 14.0);
        s + "</svg>\n"
    }
}

/// The win-rate chart's legend.
const LEGEND_WIN: &str = "<p class=\"legend\">\
<span><span class=\"swatch\" style=\"background:#cfe8cf;border:1px solid #7b7\"></span>target band</span>\
<span><svg width=\"12\" height=\"16\"><line x1=\"6\" x2=\"6\" y1=\"0\" y2=\"16\" stroke=\"#246\" stroke-width=\"2\"/><circle cx=\"6\" cy=\"8\" r=\"4\" fill=\"#246\"/></svg>win rate, line: its 95 % interval</span>\
<span><svg width=\"12\" height=\"12\"><circle cx=\"6\" cy=\"6\" r=\"5\" fill=\"#c22\"/></svg>flagged level (see the table)</span>\
<span><b style=\"color:#777\">×</b> cannot be won: no objective</span></p>\n";

/// The moves chart's legend.
const LEGEND_MOVES: &str = "<p class=\"legend\">\
<span><svg width=\"12\" height=\"12\"><circle cx=\"6\" cy=\"6\" r=\"3\" fill=\"#246\"/></svg>median of the moves a game used</span>\
<span><svg width=\"14\" height=\"12\"><path d=\"M7,1 l6,10 h-12 z\" fill=\"#b60\"/></svg>median at the move cap: games were stopped, left out of the scale</span></p>\n";

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
