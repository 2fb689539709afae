//! Colours for tiles, blocks, terrain and teams. Every piece also carries a letter or number, so
//! the board reads without relying on colour alone.

use egui::Color32;
use tessera_core::tactics::TerrainType;

/// The board's background (gaps, empty cells).
pub const BACKGROUND: Color32 = Color32::from_rgb(0x2b, 0x2f, 0x36);
/// An empty cell.
pub const EMPTY: Color32 = Color32::from_rgb(0x3a, 0x40, 0x4a);
/// A void (match3: no cell at all).
pub const VOID: Color32 = Color32::from_rgb(0x18, 0x1a, 0x1e);
/// Highlight of cells a step touched, a hovered group, a hint.
pub const HIGHLIGHT: Color32 = Color32::from_rgb(0xff, 0xd5, 0x4a);
/// The selected piece.
pub const SELECTED: Color32 = Color32::WHITE;
/// Movement range overlay.
pub const RANGE: Color32 = Color32::from_rgba_unmultiplied_const(0x40, 0x90, 0xff, 0x60);
/// Path arrows.
pub const PATH: Color32 = Color32::from_rgb(0xff, 0xf0, 0x9a);

/// Distinct hues for colours, breeds and teams (index modulo the length).
const HUES: [Color32; 16] = [
    Color32::from_rgb(0xe6, 0x39, 0x46), // red
    Color32::from_rgb(0x2a, 0x9d, 0x8f), // teal
    Color32::from_rgb(0xf4, 0xa2, 0x61), // orange
    Color32::from_rgb(0x45, 0x7b, 0x9d), // blue
    Color32::from_rgb(0x9b, 0x5d, 0xe5), // purple
    Color32::from_rgb(0xe9, 0xc4, 0x6a), // yellow
    Color32::from_rgb(0x8a, 0xc9, 0x26), // green
    Color32::from_rgb(0xf1, 0x5b, 0xb5), // pink
    Color32::from_rgb(0x00, 0xbb, 0xf9), // sky
    Color32::from_rgb(0xa0, 0x6c, 0x4a), // brown
    Color32::from_rgb(0xb0, 0xb0, 0xb0), // grey
    Color32::from_rgb(0x6a, 0x4c, 0x93), // indigo
    Color32::from_rgb(0xff, 0x92, 0x8b), // salmon
    Color32::from_rgb(0x3d, 0x5a, 0x80), // navy
    Color32::from_rgb(0xca, 0xff, 0xbf), // mint
    Color32::from_rgb(0xff, 0xd6, 0xa5), // peach
];

/// The colour of SameGame colour, match-3 breed or team `i`.
pub fn hue(i: u8) -> Color32 {
    HUES[usize::from(i) % HUES.len()]
}

/// A 2048 tile of `value`: the classic palette, darker as it grows.
pub fn tile(value: u32) -> (Color32, Color32) {
    let dark = Color32::from_rgb(0x77, 0x6e, 0x65);
    let light = Color32::from_rgb(0xf9, 0xf6, 0xf2);
    match value {
        2 => (Color32::from_rgb(0xee, 0xe4, 0xda), dark),
        4 => (Color32::from_rgb(0xed, 0xe0, 0xc8), dark),
        8 => (Color32::from_rgb(0xf2, 0xb1, 0x79), light),
        16 => (Color32::from_rgb(0xf5, 0x95, 0x63), light),
        32 => (Color32::from_rgb(0xf6, 0x7c, 0x5f), light),
        64 => (Color32::from_rgb(0xf6, 0x5e, 0x3b), light),
        128 => (Color32::from_rgb(0xed, 0xcf, 0x72), light),
        256 => (Color32::from_rgb(0xed, 0xcc, 0x61), light),
        512 => (Color32::from_rgb(0xed, 0xc8, 0x50), light),
        1024 => (Color32::from_rgb(0xed, 0xc5, 0x3f), light),
        2048 => (Color32::from_rgb(0xed, 0xc2, 0x2e), light),
        _ => (Color32::from_rgb(0x3c, 0x3a, 0x32), light),
    }
}

/// A terrain type's colour, by its name or glyph (plain, forest, hills, water, wall; Moving AI's
/// `.`/`G`, `T`, `S`, `W`, `@`/`O`), else from the type's index.
pub fn terrain(t: &TerrainType, index: u8) -> Color32 {
    let name = t.name.to_ascii_lowercase();
    let by_name = [
        ("plain", Color32::from_rgb(0x9c, 0xc4, 0x6b)),
        ("grass", Color32::from_rgb(0x9c, 0xc4, 0x6b)),
        ("ground", Color32::from_rgb(0xc8, 0xc0, 0xa8)),
        ("forest", Color32::from_rgb(0x3e, 0x7d, 0x3c)),
        ("tree", Color32::from_rgb(0x3e, 0x7d, 0x3c)),
        ("hill", Color32::from_rgb(0xa8, 0x84, 0x5a)),
        ("swamp", Color32::from_rgb(0x6b, 0x7a, 0x4f)),
        ("water", Color32::from_rgb(0x3b, 0x6e, 0xb5)),
        ("river", Color32::from_rgb(0x3b, 0x6e, 0xb5)),
        ("sea", Color32::from_rgb(0x2c, 0x58, 0x98)),
        ("lake", Color32::from_rgb(0x3b, 0x6e, 0xb5)),
        ("bridge", Color32::from_rgb(0xb8, 0x8a, 0x52)),
        ("road", Color32::from_rgb(0xd8, 0xcc, 0xa8)),
        ("sand", Color32::from_rgb(0xe3, 0xd0, 0x8c)),
        ("wall", Color32::from_rgb(0x40, 0x40, 0x44)),
        ("out", Color32::from_rgb(0x20, 0x20, 0x24)),
    ];
    if let Some((_, c)) = by_name.iter().find(|(n, _)| name.contains(n)) {
        return *c;
    }
    if t.impassable {
        return Color32::from_rgb(0x40, 0x40, 0x44);
    }
    hue(index)
}
