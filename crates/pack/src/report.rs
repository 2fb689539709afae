//! The difficulty curve of a pack and its flags, as JSON, CSV or one self-contained HTML file
//! with an SVG chart.
//!
//! Flags, per entry with a rating:
//! - `outside_band`: its win rate is outside its target band;
//! - `harder_than_neighbours`: its win-rate interval lies entirely below the interval of each
//!   rated neighbour (the entries just before and after it; one at either end of the pack);
//! - `not_rated`: no rating under the results file's last settings.

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
}

impl Flag {
    /// The flag's name in every output.
    pub fn name(self) -> &'static str {
        match self {
            Flag::OutsideBand => "outside_band",
            Flag::HarderThanNeighbours => "harder_than_neighbours",
            Flag::NotRated => "not_rated",
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
    /// Flags.
    pub flags: Vec<Flag>,
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

/// The flags of entry `i` given every entry's target and rating interval/rate.
pub fn flags(targets: &[Option<Band>], points: &[Option<(f64, [f64; 2])>], i: usize) -> Vec<Flag> {
    let Some((rate, interval)) = points[i] else { return vec![Flag::NotRated] };
    let mut out = Vec::new();
    if targets[i].is_some_and(|b| !b.contains(rate)) {
        out.push(Flag::OutsideBand);
    }
    let neighbours: Vec<[f64; 2]> = [i.checked_sub(1), Some(i + 1)]
        .into_iter()
        .flatten()
        .filter_map(|j| points.get(j).copied().flatten())
        .map(|(_, iv)| iv)
        .collect();
    if !neighbours.is_empty() && neighbours.iter().all(|&n| below(interval, n)) {
        out.push(Flag::HarderThanNeighbours);
    }
    out
}

impl Curve {
    /// The curve of `pack` (entries resolved) under `results`' last settings.
    pub fn of(pack: &Pack, entries: &[Resolved], results: &Results) -> Curve {
        let ratings: Vec<_> = entries.iter().map(|e| results.latest(&e.hash, e.rule_set)).collect();
        let targets: Vec<Option<Band>> = pack.entries.iter().map(|e| e.target).collect();
        let points: Vec<Option<(f64, [f64; 2])>> =
            ratings.iter().map(|r| r.map(|r| (r.win_rate(), r.interval()))).collect();
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
                }),
                flags: flags(&targets, &points, i),
            })
            .collect();
        Curve { pack: pack.name.clone(), entries }
    }

    /// Entries with a flag other than `not_rated`.
    pub fn flagged(&self) -> usize {
        self.entries.iter().filter(|e| e.flags.iter().any(|&f| f != Flag::NotRated)).count()
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// CSV, one row per entry, with a header.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "index,title,level,rule_set,level_hash,games,wins,win_rate,win_low,win_high,moves_median,target_low,target_high,flags\n",
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
                num(e.target.map(|t| t[0])),
                num(e.target.map(|t| t[1])),
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
.band{{fill:#cfe8cf}} .iv{{stroke:#246;stroke-width:2}} .pt{{fill:#246}} .bad{{fill:#c22}} .axis{{stroke:#888}} \
text{{font-size:11px;fill:#444}} .line{{fill:none;stroke:#246;stroke-width:1.5}}</style></head><body>\n"
        );
        let rated = self.entries.iter().filter(|e| e.rating.is_some()).count();
        let _ = writeln!(
            h,
            "<h1>{title}</h1>\n<p>{} levels, {rated} rated, {} flagged.</p>",
            self.entries.len(),
            self.flagged()
        );
        h += "<h2>Win rate (95 % interval) by level, target bands behind</h2>\n";
        h += &self.win_chart();
        h += "<h2>Moves used (median) by level</h2>\n";
        h += &self.moves_chart();
        h += "<h2>Levels</h2>\n<table><tr><th>#</th><th>title</th><th>rule set</th><th>bot</th><th>games</th>\
<th>win rate</th><th>interval</th><th>target</th><th>moves (median)</th><th>flags</th></tr>\n";
        for e in &self.entries {
            let flagged = e.flags.iter().any(|&f| f != Flag::NotRated);
            let r = e.rating.as_ref();
            let pct = |x: f64| format!("{:.1} %", 100.0 * x);
            let flags: Vec<&str> = e.flags.iter().map(|f| f.name()).collect();
            let _ = writeln!(
                h,
                "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                if flagged { " class=\"flag\"" } else { "" },
                e.index,
                esc(&e.title),
                esc(&e.rule_set),
                esc(&r.map(|r| r.bot.clone()).unwrap_or_default()),
                r.map(|r| r.games.to_string()).unwrap_or_default(),
                r.map(|r| pct(r.win_rate)).unwrap_or_default(),
                r.map(|r| format!("{} – {}", pct(r.interval[0]), pct(r.interval[1]))).unwrap_or_default(),
                e.target.map(|t| format!("{} – {}", pct(t[0]), pct(t[1]))).unwrap_or_default(),
                r.and_then(|r| r.moves_median).map(|m| m.to_string()).unwrap_or_default(),
                flags.join(", "),
            );
        }
        h += "</table>\n</body></html>\n";
        h
    }

    fn frame(&self, height: f64) -> (f64, f64, f64, impl Fn(usize) -> f64) {
        let n = self.entries.len().max(1);
        let (left, right) = (50.0, 20.0);
        let width = (n as f64 * 24.0).clamp(400.0, 1600.0) + left + right;
        let step = (width - left - right) / n as f64;
        (width, height, left, move |i: usize| left + step * (i as f64 + 0.5))
    }

    fn win_chart(&self) -> String {
        let (width, height, left, x) = self.frame(300.0);
        let (top, bottom) = (10.0, 30.0);
        let y = |v: f64| top + (1.0 - v.clamp(0.0, 1.0)) * (height - top - bottom);
        let step = (width - left - 20.0) / self.entries.len().max(1) as f64;
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\">\n"
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
            if let Some(r) = &e.rating {
                let bad = e.flags.iter().any(|&f| f != Flag::NotRated);
                let _ = writeln!(
                    s,
                    "<line class=\"iv\" x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/><circle class=\"{}\" cx=\"{cx:.1}\" cy=\"{:.1}\" r=\"4\"><title>{}: {:.1} %</title></circle>",
                    y(r.interval[0]),
                    y(r.interval[1]),
                    if bad { "bad" } else { "pt" },
                    y(r.win_rate),
                    esc(&e.title),
                    100.0 * r.win_rate
                );
            }
            if self.entries.len() <= 60 || e.index % 5 == 0 {
                let _ =
                    writeln!(s, "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>", cx - 4.0, height - 12.0, e.index);
            }
        }
        s + "</svg>\n"
    }

    fn moves_chart(&self) -> String {
        let (width, height, left, x) = self.frame(180.0);
        let (top, bottom) = (10.0, 30.0);
        let max =
            self.entries.iter().filter_map(|e| e.rating.as_ref()?.moves_median).max().unwrap_or(1).max(1)
                as f64;
        let y = |v: f64| top + (1.0 - v / max) * (height - top - bottom);
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" role=\"img\">\n"
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
        let points: Vec<String> = self
            .entries
            .iter()
            .filter_map(|e| {
                Some(format!("{:.1},{:.1}", x(e.index - 1), y(e.rating.as_ref()?.moves_median? as f64)))
            })
            .collect();
        let _ = writeln!(s, "<polyline class=\"line\" points=\"{}\"/>", points.join(" "));
        for e in &self.entries {
            if let Some(m) = e.rating.as_ref().and_then(|r| r.moves_median) {
                let _ = writeln!(
                    s,
                    "<circle class=\"pt\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\"><title>{}: {m} moves</title></circle>",
                    x(e.index - 1),
                    y(m as f64),
                    esc(&e.title)
                );
            }
        }
        s + "</svg>\n"
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
