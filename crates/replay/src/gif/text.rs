//! The plain picture of a board for the rule sets without sprites: the board's text (what
//! `tessera play` and `tessera replay show` print, [`AnyState::render`]) drawn in a 3×5 pixel
//! font, each character on a cell of its own colour, so the same things read the same colour
//! (`#` a wall, `$` a box, a colour's digit, a breed's letter) and the text stays readable.

use super::{Picture, Rgb};
use tessera_core::AnyState;

/// A character's cell: 4 pixels wide and 6 high (the 3×5 glyph and a pixel of space).
pub const CELL_W: usize = 4;
/// See [`CELL_W`].
pub const CELL_H: usize = 6;

/// Under a space.
const BLANK: Rgb = [0x10, 0x10, 0x18];
/// Under a `.` (floor, an empty cell).
const FLOOR: Rgb = [0x2a, 0x2a, 0x36];
/// The colours of other characters' cells, by character (see [`cell_colour`]).
const CELLS: [Rgb; 12] = [
    [0xbe, 0x26, 0x33],
    [0x1d, 0x57, 0xf7],
    [0x44, 0x89, 0x1a],
    [0xee, 0xb6, 0x2f],
    [0x8b, 0x3a, 0xb5],
    [0x20, 0x9a, 0x9a],
    [0xeb, 0x89, 0x31],
    [0x73, 0x29, 0x30],
    [0x69, 0x71, 0x75],
    [0xde, 0x65, 0xe2],
    [0x2f, 0x48, 0x4e],
    [0xa4, 0x64, 0x22],
];
/// The glyphs' colour on dark cells, and on light ones.
const INK_LIGHT: Rgb = [0xf4, 0xf4, 0xf4];
const INK_DARK: Rgb = [0x10, 0x10, 0x10];

/// Every colour a text picture uses.
pub fn colours() -> Vec<Rgb> {
    let mut all = vec![BLANK, FLOOR, INK_LIGHT, INK_DARK];
    all.extend(CELLS);
    all
}

/// The colour of the cell under `c`: a fixed one for a space and a `.`, else one of
/// [`CELLS`] by the character's code (the same character, the same colour, in every frame).
pub fn cell_colour(c: char) -> Rgb {
    match c {
        ' ' => BLANK,
        '.' => FLOOR,
        _ => CELLS[(c as usize).wrapping_mul(7) % CELLS.len()],
    }
}

/// The ink on a cell of colour `bg`: dark on light cells, light on dark ones.
fn ink(bg: Rgb) -> Rgb {
    let luma = 299 * u32::from(bg[0]) + 587 * u32::from(bg[1]) + 114 * u32::from(bg[2]);
    if luma > 150_000 { INK_DARK } else { INK_LIGHT }
}

/// The lines of `state`'s text, without a trailing empty line, tabs as spaces.
pub fn lines(state: &AnyState) -> Vec<Vec<char>> {
    let text = state.render();
    let mut lines: Vec<Vec<char>> =
        text.lines().map(|l| l.chars().map(|c| if c == '\t' { ' ' } else { c }).collect()).collect();
    while lines.last().is_some_and(|l| l.iter().all(|c| *c == ' ')) {
        lines.pop();
    }
    lines
}

/// The picture of `lines` in a picture of `columns`×`rows` characters (the largest any frame
/// of the line of play needs, so every frame has the same size), one pixel a font pixel.
pub fn picture(lines: &[Vec<char>], columns: usize, rows: usize) -> Picture {
    let (w, h) = (columns * CELL_W, rows * CELL_H);
    let mut pic = Picture::filled(w, h, BLANK);
    for (y, line) in lines.iter().enumerate().take(rows) {
        let words = is_words(line);
        for (x, &c) in line.iter().enumerate().take(columns) {
            let bg = if words { BLANK } else { cell_colour(c) };
            let fg = ink(bg);
            let (x0, y0) = (x * CELL_W, y * CELL_H);
            for dy in 0..CELL_H {
                for dx in 0..CELL_W {
                    pic.set(x0 + dx, y0 + dy, bg);
                }
            }
            if c == ' ' || (c == '.' && !words) {
                // A floor's dot, centred.
                if c == '.' {
                    pic.set(x0 + 1, y0 + 3, [0x55, 0x55, 0x66]);
                }
                continue;
            }
            let rows = glyph(c);
            for (dy, row) in rows.iter().enumerate() {
                for dx in 0..3 {
                    if row & (0b100 >> dx) != 0 {
                        pic.set(x0 + dx, y0 + dy, fg);
                    }
                }
            }
        }
    }
    pic
}

/// Whether `line` is words (a status line, "16x12 map, turn 0"), drawn as plain text, rather
/// than a row of the board: it holds a run of three letters or more.
fn is_words(line: &[char]) -> bool {
    let mut run = 0;
    for c in line {
        run = if c.is_alphabetic() { run + 1 } else { 0 };
        if run >= 3 {
            return true;
        }
    }
    false
}

/// The 3×5 glyph of `c`: five rows, bit 2 the left pixel. Lower-case letters are drawn as
/// capitals; a character without a glyph is a filled block.
fn glyph(c: char) -> [u8; 5] {
    let c = c.to_ascii_uppercase();
    match c {
        '0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        '1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        '2' => [0b111, 0b001, 0b111, 0b100, 0b111],
        '3' => [0b111, 0b001, 0b011, 0b001, 0b111],
        '4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        '5' => [0b111, 0b100, 0b111, 0b001, 0b111],
        '6' => [0b111, 0b100, 0b111, 0b101, 0b111],
        '7' => [0b111, 0b001, 0b010, 0b010, 0b010],
        '8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        '9' => [0b111, 0b101, 0b111, 0b001, 0b111],
        'A' => [0b010, 0b101, 0b111, 0b101, 0b101],
        'B' => [0b110, 0b101, 0b110, 0b101, 0b110],
        'C' => [0b011, 0b100, 0b100, 0b100, 0b011],
        'D' => [0b110, 0b101, 0b101, 0b101, 0b110],
        'E' => [0b111, 0b100, 0b110, 0b100, 0b111],
        'F' => [0b111, 0b100, 0b110, 0b100, 0b100],
        'G' => [0b011, 0b100, 0b101, 0b101, 0b011],
        'H' => [0b101, 0b101, 0b111, 0b101, 0b101],
        'I' => [0b111, 0b010, 0b010, 0b010, 0b111],
        'J' => [0b001, 0b001, 0b001, 0b101, 0b010],
        'K' => [0b101, 0b101, 0b110, 0b101, 0b101],
        'L' => [0b100, 0b100, 0b100, 0b100, 0b111],
        'M' => [0b101, 0b111, 0b111, 0b101, 0b101],
        'N' => [0b110, 0b101, 0b101, 0b101, 0b101],
        'O' => [0b010, 0b101, 0b101, 0b101, 0b010],
        'P' => [0b110, 0b101, 0b110, 0b100, 0b100],
        'Q' => [0b010, 0b101, 0b101, 0b110, 0b011],
        'R' => [0b110, 0b101, 0b110, 0b101, 0b101],
        'S' => [0b011, 0b100, 0b010, 0b001, 0b110],
        'T' => [0b111, 0b010, 0b010, 0b010, 0b010],
        'U' => [0b101, 0b101, 0b101, 0b101, 0b111],
        'V' => [0b101, 0b101, 0b101, 0b101, 0b010],
        'W' => [0b101, 0b101, 0b111, 0b111, 0b101],
        'X' => [0b101, 0b101, 0b010, 0b101, 0b101],
        'Y' => [0b101, 0b101, 0b010, 0b010, 0b010],
        'Z' => [0b111, 0b001, 0b010, 0b100, 0b111],
        '#' => [0b101, 0b111, 0b101, 0b111, 0b101],
        '$' => [0b011, 0b110, 0b010, 0b011, 0b110],
        '@' => [0b010, 0b101, 0b111, 0b100, 0b011],
        '*' => [0b000, 0b101, 0b010, 0b101, 0b000],
        '+' => [0b000, 0b010, 0b111, 0b010, 0b000],
        '-' => [0b000, 0b000, 0b111, 0b000, 0b000],
        '=' => [0b000, 0b111, 0b000, 0b111, 0b000],
        '~' => [0b000, 0b011, 0b110, 0b000, 0b000],
        '_' => [0b000, 0b000, 0b000, 0b000, 0b111],
        ':' => [0b000, 0b010, 0b000, 0b010, 0b000],
        ';' => [0b000, 0b010, 0b000, 0b010, 0b100],
        ',' => [0b000, 0b000, 0b000, 0b010, 0b100],
        '.' => [0b000, 0b000, 0b000, 0b000, 0b010],
        '!' => [0b010, 0b010, 0b010, 0b000, 0b010],
        '?' => [0b111, 0b001, 0b011, 0b000, 0b010],
        '/' => [0b001, 0b001, 0b010, 0b100, 0b100],
        '\\' => [0b100, 0b100, 0b010, 0b001, 0b001],
        '|' => [0b010, 0b010, 0b010, 0b010, 0b010],
        '(' => [0b001, 0b010, 0b010, 0b010, 0b001],
        ')' => [0b100, 0b010, 0b010, 0b010, 0b100],
        '[' => [0b011, 0b010, 0b010, 0b010, 0b011],
        ']' => [0b110, 0b010, 0b010, 0b010, 0b110],
        '<' => [0b001, 0b010, 0b100, 0b010, 0b001],
        '>' => [0b100, 0b010, 0b001, 0b010, 0b100],
        '^' => [0b010, 0b101, 0b000, 0b000, 0b000],
        '%' => [0b101, 0b001, 0b010, 0b100, 0b101],
        '&' => [0b010, 0b101, 0b010, 0b101, 0b011],
        '\'' => [0b010, 0b010, 0b000, 0b000, 0b000],
        '"' => [0b101, 0b101, 0b000, 0b000, 0b000],
        '·' => [0b000, 0b000, 0b010, 0b000, 0b000],
        _ => [0b111; 5],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_differ_and_cells_keep_their_colour() {
        let chars: Vec<char> = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ#$@*+-=~".chars().collect();
        for (i, a) in chars.iter().enumerate() {
            for b in &chars[i + 1..] {
                assert_ne!(glyph(*a), glyph(*b), "{a} and {b} look the same");
            }
        }
        assert_eq!(cell_colour('#'), cell_colour('#'));
        assert_ne!(cell_colour('#'), cell_colour('$'));
        assert_eq!(cell_colour('.'), FLOOR);
        let pic = picture(&[vec!['#', '.']], 3, 2);
        assert_eq!((pic.width, pic.height), (3 * CELL_W, 2 * CELL_H));
        // The wall's glyph is ink on its cell's colour; the empty column and row are blank.
        assert_eq!(pic.get(0, 0), ink(cell_colour('#')));
        assert_eq!(pic.get(3, 0), cell_colour('#'));
        assert_eq!(pic.get(CELL_W, 0), FLOOR);
        assert_eq!(pic.get(2 * CELL_W, 0), BLANK);
        assert_eq!(pic.get(0, CELL_H), BLANK);
        // A line of words is plain ink on the blank colour.
        let pic = picture(&[vec!['t', 'u', 'r', 'n']], 4, 1);
        assert_eq!(pic.get(0, 0), INK_LIGHT);
        assert_eq!(pic.get(3, 0), BLANK);
        assert!(!is_words(&['d', ' ', 'e', ' ', 'f']));
    }
}
