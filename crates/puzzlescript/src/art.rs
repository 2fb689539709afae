//! PuzzleScript's look, as its reference engine draws a level: the palettes (`color_palette`),
//! the colour names and `#rgb` / `#rrggbb`, and a game's sprites ([`Sprites`]): each object's 5×5
//! pixels in its colours (`.` and `transparent` show what is under, an object without a sprite a
//! flat square of its first colour), the objects' drawing order (the lowest collision layer
//! first), `background_color` and `text_color`.
//!
//! The one copy of PuzzleScript's colour table: the editor's board, the GIF renderer
//! (`tessera-replay`) and the web player (`tessera-web`) all draw with it, so a game has the
//! same colours everywhere.

use crate::Game;

/// A colour: red, green, blue.
pub type Rgb = [u8; 3];

/// Pixels a side of a sprite (and of a cell).
pub const SIDE: usize = 5;

/// PuzzleScript's colour palettes (`color_palette`, by name or number 1–14, in this order):
/// each names the same 24 colours, in [`COLOUR_NAMES`]' order, as `0xRRGGBB`.
pub const PALETTES: [(&str, [u32; 24]); 14] = [
    (
        "mastersystem",
        [
            0x000000, 0xffffff, 0x555555, 0x555500, 0xaaaaaa, 0x555555, 0x555500, 0xaaaaaa, 0xff0000,
            0xaa0000, 0xff5555, 0xaa5500, 0x550000, 0xffaa00, 0xff5500, 0xffff55, 0x55aa00, 0x005500,
            0xaaff00, 0x5555aa, 0xaaffff, 0x000055, 0x550055, 0xffaaff,
        ],
    ),
    (
        "gameboycolour",
        [
            0x000000, 0xffffff, 0x7f7f7c, 0x3e3e44, 0xbaa7a7, 0x7f7f7c, 0x3e3e44, 0xbaa7a7, 0xa7120c,
            0x880606, 0xba381f, 0x57381f, 0x3e2519, 0x8e634b, 0xba4b32, 0xc0ba6f, 0x517525, 0x385d12,
            0x6f8e44, 0x5d6fa7, 0x8ea7a7, 0x4b575d, 0x3e3e44, 0xba381f,
        ],
    ),
    (
        "amiga",
        [
            0x000000, 0xffffff, 0xbbbbbb, 0x333333, 0xffeedd, 0xbbbbbb, 0x333333, 0xffeedd, 0xdd1111,
            0x990000, 0xff4422, 0x663311, 0x331100, 0xaa6644, 0xff6644, 0xffdd66, 0x448811, 0x335500,
            0x88bb77, 0x8899dd, 0xbbddee, 0x666688, 0x665555, 0x997788,
        ],
    ),
    (
        "arnecolors",
        [
            0x000000, 0xffffff, 0x9d9d9d, 0x697175, 0xcccccc, 0x9d9d9d, 0x697175, 0xcccccc, 0xbe2633,
            0x732930, 0xe06f8b, 0xa46422, 0x493c2b, 0xeeb62f, 0xeb8931, 0xf7e26b, 0x44891a, 0x2f484e,
            0xa3ce27, 0x1d57f7, 0xb2dcef, 0x1b2632, 0x342a97, 0xde65e2,
        ],
    ),
    (
        "famicom",
        [
            0x000000, 0xffffff, 0x7c7c7c, 0x080808, 0xbcbcbc, 0x7c7c7c, 0x080808, 0xbcbcbc, 0xf83800,
            0x881400, 0xf87858, 0xac7c00, 0x503000, 0xfce0a8, 0xfca044, 0xf8b800, 0x00b800, 0x005800,
            0xb8f8b8, 0x0058f8, 0x3cbcfc, 0x0000bc, 0x6644fc, 0xf878f8,
        ],
    ),
    (
        "atari",
        [
            0x000000, 0xffffff, 0x909090, 0x404040, 0xb0b0b0, 0x909090, 0x404040, 0xb0b0b0, 0xa03c50,
            0x700014, 0xdc849c, 0x805020, 0x703400, 0xcb9870, 0xccac70, 0xecd09c, 0x58b06c, 0x006414,
            0x70c484, 0x1c3c88, 0x6888c8, 0x000088, 0x3c0080, 0xb484dc,
        ],
    ),
    (
        "pastel",
        [
            0x000000, 0xffffff, 0x3e3e3e, 0x313131, 0x9cbcbc, 0x3e3e3e, 0x313131, 0x9cbcbc, 0xf56ca2,
            0xa63577, 0xffa9cf, 0xb58c53, 0x787562, 0xb58c53, 0xeb792d, 0xffe15f, 0x00ff4f, 0x2b732c,
            0x97c04f, 0x0f88d3, 0x00fffe, 0x293a7b, 0xff6554, 0xeb792d,
        ],
    ),
    (
        "ega",
        [
            0x000000, 0xffffff, 0x555555, 0x555555, 0xaaaaaa, 0x555555, 0x555555, 0xaaaaaa, 0xff5555,
            0xaa0000, 0xff55ff, 0xaa5500, 0xaa5500, 0xffff55, 0xff5555, 0xffff55, 0x00aa00, 0x00aaaa,
            0x55ff55, 0x5555ff, 0x55ffff, 0x0000aa, 0xaa00aa, 0xff55ff,
        ],
    ),
    (
        "amstrad",
        [
            0x000000, 0xffffff, 0x7f7f7f, 0x636363, 0xafafaf, 0x7f7f7f, 0x636363, 0xafafaf, 0xff0000,
            0x7f0000, 0xff7f7f, 0xff7f00, 0x7f7f00, 0xffff00, 0xff007f, 0xffff7f, 0x01ff00, 0x007f00,
            0x7fff7f, 0x0000ff, 0x7f7fff, 0x00007f, 0x7f007f, 0xff7fff,
        ],
    ),
    (
        "proteus_mellow",
        [
            0x3d2d2e, 0xddf1fc, 0x9fb2d4, 0x7b8272, 0xa4bfda, 0x9fb2d4, 0x7b8272, 0xa4bfda, 0x9d5443,
            0x8c5b4a, 0x94614c, 0x89a78d, 0x829e88, 0xaaae97, 0xd1ba86, 0xd6cda2, 0x75ac8d, 0x8fa67f,
            0x8eb682, 0x88a3ce, 0xa5adb0, 0x5c6b8c, 0xd39fac, 0xc8ac9e,
        ],
    ),
    (
        "proteus_rich",
        [
            0x6f686f, 0xd1b1e2, 0xb9aac1, 0x8e8b84, 0xc7b5cd, 0xb9aac1, 0x8e8b84, 0xc7b5cd, 0xa11f4f,
            0x934765, 0xc998ad, 0x89867d, 0x797f75, 0xab9997, 0xce8c5c, 0xf0d959, 0x75bc54, 0x599d79,
            0x90cf5c, 0x8fd0ec, 0xbcdce7, 0x0b2c70, 0x9b377f, 0xcd88e5,
        ],
    ),
    (
        "proteus_night",
        [
            0x010912, 0xfdeeec, 0x051d40, 0x091842, 0x062151, 0x051d40, 0x091842, 0x062151, 0xad4576,
            0x934765, 0xab6290, 0x61646b, 0x3d2d2d, 0x8393a0, 0x0a2227, 0x0a2541, 0x75ac8d, 0x0a2434,
            0x061f2e, 0x0b2c79, 0x809ccb, 0x08153b, 0x666a87, 0x754b4d,
        ],
    ),
    (
        "c64",
        [
            0x000000, 0xffffff, 0x6c6c6c, 0x444444, 0x959595, 0x6c6c6c, 0x444444, 0x959595, 0x68372b,
            0x3f1e17, 0x9a6759, 0x433900, 0x221c02, 0x6d5c0d, 0x6f4f25, 0xb8c76f, 0x588d43, 0x345129,
            0x9ad284, 0x6c5eb5, 0x70a4b2, 0x352879, 0x6f3d86, 0xb044ac,
        ],
    ),
    (
        "whitingjp",
        [
            0x202527, 0xeff8fd, 0x7b7680, 0x3c3b44, 0xbed0d7, 0x7b7680, 0x3c3b44, 0xbed0d7, 0xbd194b,
            0x6b1334, 0xef2358, 0xb52e1c, 0x681c12, 0xe87b45, 0xff8c10, 0xfbd524, 0x36bc3c, 0x317610,
            0x8ce062, 0x3f62c6, 0x57bbe0, 0x2c2fa0, 0x7037d9, 0xec2b8f,
        ],
    ),
];
/// The colour names every palette gives, in its colours' order (PuzzleScript's `colorPalettes`).
pub const COLOUR_NAMES: [&str; 24] = [
    "black",
    "white",
    "grey",
    "darkgrey",
    "lightgrey",
    "gray",
    "darkgray",
    "lightgray",
    "red",
    "darkred",
    "lightred",
    "brown",
    "darkbrown",
    "lightbrown",
    "orange",
    "yellow",
    "green",
    "darkgreen",
    "lightgreen",
    "blue",
    "lightblue",
    "darkblue",
    "purple",
    "pink",
];

/// The colour that shows what is under it (a colour name beside [`COLOUR_NAMES`]).
pub const TRANSPARENT: &str = "transparent";

/// Every colour name a game may write: the palettes' 24, then [`TRANSPARENT`] (the source
/// pane's highlighting, the parser's checks and the editor's completions all read this list).
pub fn colour_names() -> impl Iterator<Item = &'static str> {
    COLOUR_NAMES.iter().copied().chain([TRANSPARENT])
}

/// `arnecolors`, PuzzleScript's default palette.
pub const DEFAULT_PALETTE: usize = 3;

/// The palette `color_palette` names (a name or its number, 1–14, any case); `None` for none of
/// them (PuzzleScript then warns and keeps `arnecolors`).
pub fn palette_index(name: &str) -> Option<usize> {
    let name = name.trim().to_ascii_lowercase();
    if let Ok(n) = name.parse::<usize>() {
        return (1..=PALETTES.len()).contains(&n).then(|| n - 1);
    }
    PALETTES.iter().position(|(p, _)| *p == name)
}

/// A colour as PuzzleScript writes it: `Some(None)` for `transparent`, `Some(Some(rgb))` for a
/// name of palette `palette` (any case), `#rgb` or `#rrggbb`; `None` when it is none of them.
pub fn colour_in(palette: usize, name: &str) -> Option<Option<Rgb>> {
    let name = name.trim().to_ascii_lowercase();
    if name == TRANSPARENT {
        return Some(None);
    }
    let rgb = |v: u32| Some(Some([(v >> 16) as u8, (v >> 8) as u8, v as u8]));
    if let Some(hex) = name.strip_prefix('#') {
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(hex, 16).ok()?;
        return match hex.len() {
            6 => rgb(v),
            // #rgb: each digit twice.
            3 => rgb(((v & 0xf00) * 0x1100) | ((v & 0x0f0) * 0x110) | ((v & 0x00f) * 0x11)),
            _ => None,
        };
    }
    let (_, colours) = PALETTES.get(palette).unwrap_or(&PALETTES[DEFAULT_PALETTE]);
    COLOUR_NAMES.iter().position(|n| *n == name).and_then(|i| rgb(colours[i]))
}

/// One object's pixels, row by row (`None` where it shows what is under it).
pub type Sprite = [Option<Rgb>; SIDE * SIDE];

/// A game's sprites, ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sprites {
    /// The palette the game names (`color_palette`; `arnecolors` when none or an unknown one).
    pub palette: usize,
    /// The colour under everything (`background_color`, black by default or when transparent).
    pub background: Rgb,
    /// The messages' colour (`text_color`, white by default or when transparent).
    pub text: Rgb,
    /// Each object's pixels (object ids as in [`Game::objects`]).
    pub sprites: Vec<Sprite>,
    /// The objects in drawing order: lower collision layers first, then by id.
    pub order: Vec<usize>,
    /// Each object's place in [`Sprites::order`].
    pub rank: Vec<usize>,
}

impl Sprites {
    /// The sprites of `game`.
    pub fn new(game: &Game) -> Sprites {
        let objects = game.objects();
        let palette = game.prelude().get("color_palette").and_then(palette_index).unwrap_or(DEFAULT_PALETTE);
        let colour = |name: &str| colour_in(palette, name).flatten();
        let sprites = objects
            .iter()
            .map(|o| {
                let colours: Vec<Option<Rgb>> = o.colors.iter().map(|c| colour(c)).collect();
                let mut px = [None; SIDE * SIDE];
                match &o.sprite {
                    Some(rows) => {
                        for (y, row) in rows.iter().take(SIDE).enumerate() {
                            for (x, &i) in row.iter().take(SIDE).enumerate() {
                                if let Ok(i) = usize::try_from(i) {
                                    px[y * SIDE + x] = colours.get(i).copied().flatten();
                                }
                            }
                        }
                    }
                    None => px = [colours.first().copied().flatten(); SIDE * SIDE],
                }
                px
            })
            .collect();
        let mut order: Vec<usize> = (0..objects.len()).collect();
        order.sort_by_key(|&i| (objects[i].layer, i));
        let mut rank = vec![0; objects.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let background = game.prelude().get("background_color").and_then(colour).unwrap_or([0, 0, 0]);
        let text = game.prelude().get("text_color").and_then(colour).unwrap_or([255, 255, 255]);
        Sprites { palette, background, text, sprites, order, rank }
    }

    /// Every colour the sprites draw (the background first), each once.
    pub fn colours(&self) -> Vec<Rgb> {
        let mut all = vec![self.background];
        for c in self.sprites.iter().flatten().flatten() {
            if !all.contains(c) {
                all.push(*c);
            }
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_by_name_and_hex() {
        let d = DEFAULT_PALETTE;
        assert_eq!(colour_in(d, "Red"), Some(Some([0xbe, 0x26, 0x33])));
        assert_eq!(colour_in(d, "#1d57f7"), Some(Some([0x1d, 0x57, 0xf7])));
        assert_eq!(colour_in(d, "#f0a"), Some(Some([0xff, 0x00, 0xaa])));
        assert_eq!(colour_in(d, "transparent"), Some(None));
        assert_eq!(colour_in(d, "#12"), None);
        assert_eq!(colour_in(d, "#gggggg"), None);
        assert_eq!(colour_in(d, "mauve"), None);
        assert_eq!(palette_index("mastersystem"), Some(0));
        assert_eq!(palette_index(" 14 "), Some(13));
        assert_eq!(palette_index("15"), None);
        assert_eq!(colour_in(0, "red"), Some(Some([0xff, 0, 0])));
        assert_eq!(colour_in(1, "Red"), Some(Some([0xa7, 0x12, 0x0c])));
        for (p, _) in PALETTES.iter().enumerate() {
            for n in COLOUR_NAMES {
                assert!(matches!(colour_in(p, n), Some(Some(_))), "{n} in palette {p}");
            }
        }
    }

    #[test]
    fn a_games_sprites_in_its_palette_and_layers() {
        let source = "title t\ncolor_palette mastersystem\nbackground_color blue\ntext_color #ff0\n\
            ========\nOBJECTS\n========\nBackground\nblack\nPlayer\nred transparent\n00000\n01110\n00000\n00000\n00000\n\
            Wall\ngreen\n=======\nLEGEND\n=======\n. = Background\nP = Player\n# = Wall\n\
            =======\nSOUNDS\n=======\n================\nCOLLISIONLAYERS\n================\nBackground\nPlayer, Wall\n\
            ======\nRULES\n======\n==============\nWINCONDITIONS\n==============\n=======\nLEVELS\n=======\nP.#\n";
        let game = crate::compile(source).expect("compiles");
        let s = Sprites::new(&game);
        assert_eq!(s.palette, 0);
        assert_eq!(s.background, [0x55, 0x55, 0xaa]);
        assert_eq!(s.text, [0xff, 0xff, 0x00]);
        let id = |n: &str| game.objects().iter().position(|o| o.name == n).expect(n);
        let (bg, player, wall) = (id("background"), id("player"), id("wall"));
        assert_eq!(s.sprites[wall], [Some([0x55, 0xaa, 0x00]); SIDE * SIDE], "no sprite: a flat square");
        assert_eq!(s.sprites[player][0], Some([0xff, 0, 0]));
        assert_eq!(s.sprites[player][6], None, "transparent");
        assert!(s.rank[bg] < s.rank[player] && s.rank[bg] < s.rank[wall]);
        assert_eq!(s.order[s.rank[player]], player);
        assert_eq!(s.colours()[0], s.background);
    }
}
