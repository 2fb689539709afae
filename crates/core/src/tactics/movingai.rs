//! Moving AI benchmark files: `.map` grids and `.scen` problem lists, parsed from text.
//!
//! - `.map`: `type octile`, `height H`, `width W`, `map`, then H rows of W characters, (0, 0) at
//!   the top left. Passable: `.` `G` `S`; blocked: `@` `O` `T` `W`
//!   ([`TerrainType::movingai_legend`]).
//! - `.scen`: `version 1` (optional), then tab-separated lines
//!   `bucket map width height start_x start_y goal_x goal_y optimal_length`.
//!
//! The optimal lengths assume 8-connected moves, straight 1, diagonal √2, no corner cutting.
//! They are decimals; [`Problem::optimal_e8`] holds them exactly in units of 10⁻⁸ (no floats).
//! Our fixed-point costs round √2 to 1.414, so [`Problem::matches`] compares the true length of
//! the path found (straight steps + diagonal steps × √2, in 10⁻⁸) with the optimal length,
//! within the benchmark's tolerance of 10⁻⁴.
//!
//! Errors name the 1-based line and what is wrong there. Parsing never panics.

use super::terrain::{Terrain, TerrainType};
use crate::geom::{MAX_SIDE, Pos, Size};

/// A line of a Moving AI file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct MapError {
    /// 1-based line number (0 when the problem is the file as a whole, such as a missing line).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> MapError {
    MapError { line, message: message.into() }
}

/// Parses a `.map` file into terrain with the Moving AI legend.
pub fn parse_map(text: &str) -> Result<Terrain, MapError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let mut height = None;
    let mut width = None;
    let mut typed = false;
    let mut map_line = 0;
    for (n, line) in lines.by_ref() {
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (None, ..) => continue,
            (Some("map"), None, _) => {
                map_line = n;
                break;
            }
            (Some("type"), Some(t), None) => {
                if t != "octile" {
                    return Err(err(n, format!("map type '{t}' is not supported (expected octile)")));
                }
                typed = true;
            }
            (Some(key @ ("height" | "width")), Some(v), None) => {
                let v: usize = v.parse().map_err(|_| err(n, format!("{key} '{v}' is not a number")))?;
                if v == 0 || v > usize::from(MAX_SIDE) {
                    return Err(err(n, format!("{key} {v} is outside 1..={MAX_SIDE}")));
                }
                if key == "height" { height = Some(v) } else { width = Some(v) }
            }
            _ => return Err(err(n, format!("unexpected header line '{line}'"))),
        }
    }
    if map_line == 0 {
        return Err(err(0, "no 'map' line: the grid is missing"));
    }
    if !typed {
        return Err(err(map_line, "the header has no 'type' line"));
    }
    let height = height.ok_or_else(|| err(map_line, "the header has no 'height' line"))?;
    let width = width.ok_or_else(|| err(map_line, "the header has no 'width' line"))?;
    let size = Size::new(width, height, MAX_SIDE).map_err(|e| err(map_line, e.to_string()))?;
    let legend = TerrainType::movingai_legend();
    let mut cells = Vec::with_capacity(size.area());
    let mut rows = 0;
    for (n, line) in lines {
        if rows == height {
            if line.trim().is_empty() {
                continue;
            }
            return Err(err(n, format!("more than the {height} map rows the header declares")));
        }
        let count = line.chars().count();
        if count != width {
            return Err(err(n, format!("map row {rows} has {count} cells, expected {width}")));
        }
        for (x, c) in line.chars().enumerate() {
            let Some(k) = legend.iter().position(|t| t.glyph == c) else {
                return Err(err(n, format!("map row {rows}, column {x}: unknown terrain '{c}'")));
            };
            cells.push(k as u8);
        }
        rows += 1;
    }
    if rows != height {
        return Err(err(0, format!("the map has {rows} rows, the header declares {height}")));
    }
    let grid = crate::geom::Grid::from_cells(size, cells).ok_or_else(|| err(0, "cell count mismatch"))?;
    Terrain::new(legend, grid).map_err(|e| err(0, e))
}

/// One problem of a `.scen` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line of the scenario file it came from.
    pub line: usize,
    /// Bucket (difficulty group).
    pub bucket: u32,
    /// The map file named.
    pub map: String,
    /// Map size named.
    pub size: (usize, usize),
    /// Start cell.
    pub start: Pos,
    /// Goal cell.
    pub goal: Pos,
    /// Optimal length in units of 10⁻⁸ (exact for up to eight decimals; further digits are cut).
    pub optimal_e8: u64,
}

/// √2 × 10⁸, rounded down; the fraction left over is added in [`octile_length_e8`].
const SQRT2_E8: u64 = 141_421_356;

/// The benchmark's tolerance, 10⁻⁴, in units of 10⁻⁸.
pub const TOLERANCE_E8: u64 = 10_000;

/// The true length `straight + diagonal × √2` in units of 10⁻⁸ (error below 10⁻⁸ per 10⁴
/// diagonals).
pub fn octile_length_e8(straight: u64, diagonal: u64) -> u64 {
    // √2 × 10⁸ = 141421356.2373…
    straight * 100_000_000 + diagonal * SQRT2_E8 + diagonal * 2373 / 10_000
}

impl Problem {
    /// Whether a path with `straight` orthogonal and `diagonal` diagonal steps (all on cost-1
    /// ground) has the optimal length, within [`TOLERANCE_E8`].
    pub fn matches(&self, straight: u64, diagonal: u64) -> bool {
        octile_length_e8(straight, diagonal).abs_diff(self.optimal_e8) <= TOLERANCE_E8
    }
}

/// Parses a non-negative decimal (`12`, `12.5`, `1.41421356`) into units of 10⁻⁸.
fn parse_e8(text: &str) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let int: u64 = int.parse().ok()?;
    let mut f: u64 = 0;
    for (k, b) in frac.bytes().enumerate() {
        if k < 8 {
            f = f * 10 + u64::from(b - b'0');
        }
    }
    for _ in frac.len().min(8)..8 {
        f *= 10;
    }
    int.checked_mul(100_000_000)?.checked_add(f)
}

/// Parses a `.scen` file. Empty lines and the `version` line are skipped.
pub fn parse_scen(text: &str) -> Result<Vec<Problem>, MapError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with("version") {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 9 {
            return Err(err(n, format!("expected 9 tab-separated fields, found {}", f.len())));
        }
        let num = |k: usize, what: &str| -> Result<usize, MapError> {
            f[k].trim().parse::<usize>().map_err(|_| err(n, format!("{what} '{}' is not a number", f[k])))
        };
        let bucket = num(0, "bucket")? as u32;
        let (w, h) = (num(2, "map width")?, num(3, "map height")?);
        let coord = |k: usize, what: &str, max: usize| -> Result<u16, MapError> {
            let v = num(k, what)?;
            if v >= max {
                return Err(err(n, format!("{what} {v} is outside the {w}x{h} map")));
            }
            Ok(v as u16)
        };
        let start = Pos::new(coord(4, "start x", w)?, coord(5, "start y", h)?);
        let goal = Pos::new(coord(6, "goal x", w)?, coord(7, "goal y", h)?);
        let optimal_e8 = parse_e8(f[8].trim())
            .ok_or_else(|| err(n, format!("optimal length '{}' is not a decimal number", f[8])))?;
        out.push(Problem { line: n, bucket, map: f[1].to_string(), size: (w, h), start, goal, optimal_e8 });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "type octile\nheight 3\nwidth 4\nmap\n....\n.@T.\n..G.\n";

    #[test]
    fn parses_a_map() {
        let t = parse_map(MAP).unwrap();
        assert_eq!(t.size(), Size::new(4, 3, 8).unwrap());
        assert!(t.passable(Pos::new(0, 0)));
        assert!(!t.passable(Pos::new(1, 1)));
        assert!(!t.passable(Pos::new(2, 1)));
        assert!(t.passable(Pos::new(2, 2)));
        assert_eq!(t.rows(), vec!["....", ".@T.", "..G."]);
    }

    #[test]
    fn map_errors_name_the_line() {
        let e = parse_map("type octile\nheight 2\nwidth 3\nmap\n...\n..\n").unwrap_err();
        assert_eq!(e.to_string(), "line 6: map row 1 has 2 cells, expected 3");
        let e = parse_map("type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n").unwrap_err();
        assert_eq!(e.to_string(), "line 6: map row 1, column 1: unknown terrain 'x'");
        let e = parse_map("type octile\nheight two\nwidth 3\nmap\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse_map("type octile\nheight 1\nwidth 3\n").unwrap_err();
        assert!(e.to_string().contains("no 'map' line"), "{e}");
        let e = parse_map("type octile\nheight 3\nwidth 3\nmap\n...\n").unwrap_err();
        assert!(e.to_string().contains("1 rows"), "{e}");
        let e = parse_map("type octile\nheight 1\nwidth 3\nmap\n...\n...\n").unwrap_err();
        assert_eq!(e.line, 6);
        let e = parse_map("type hex\nheight 1\nwidth 1\nmap\n.\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(parse_map("type octile\nheight 1\nwidth 2000\nmap\n").is_err());
    }

    #[test]
    fn parses_scenarios_exactly() {
        let text = "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n3\tarena.map\t49\t49\t2\t3\t10\t5\t8.82842712\n";
        let p = parse_scen(text).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].optimal_e8, 100_000_000);
        assert_eq!((p[1].start, p[1].goal, p[1].line, p[1].bucket), (Pos::new(2, 3), Pos::new(10, 5), 3, 3));
        assert_eq!(p[1].optimal_e8, 882_842_712);
        // 6 straight + 2 diagonal = 8.828427…
        assert!(p[1].matches(6, 2));
        assert!(!p[1].matches(7, 1));
    }

    #[test]
    fn scenario_errors_name_the_line() {
        let e = parse_scen("version 1\n0\ta.map\t4\t4\t1\t1\t2\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: expected 9 tab-separated fields, found 7");
        let e = parse_scen("0\ta.map\t4\t4\t1\t9\t2\t2\t1\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1: start y 9 is outside the 4x4 map");
        let e = parse_scen("0\ta.map\t4\t4\t1\t1\t2\t2\tx\n").unwrap_err();
        assert!(e.to_string().contains("optimal length 'x'"), "{e}");
    }
}
