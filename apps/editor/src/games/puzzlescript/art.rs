//! PuzzleScript's look: each object's 5×5 sprite in its colours (PuzzleScript's default
//! palette's names, or `#rgb` / `#rrggbb`), a cell's objects drawn from the lowest collision
//! layer up, an object without a sprite a flat square of its first colour, and the game's
//! `background_color` under everything.
//!
//! A game's art is made once per source and kept ([`of_rules`], [`of_source`]); a board's
//! picture is a texture of [`SIDE`]×[`SIDE`] pixels a cell, made again only when the board
//! changes.

use egui::{Color32, ColorImage};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};
use tessera_core::puzzlescript::engine::{self, Game};
use tessera_core::puzzlescript::{PuzzleScriptRules, PuzzleScriptState, legend};

/// Pixels a side of a sprite (and of a cell's picture).
pub const SIDE: usize = 5;

/// PuzzleScript's default palette (the reference's `arnecolors`): colour names → RGB.
const NAMED: [(&str, u32); 25] = [
    ("black", 0x000000),
    ("white", 0xffffff),
    ("grey", 0x9d9d9d),
    ("darkgrey", 0x697175),
    ("lightgrey", 0xcccccc),
    ("gray", 0x9d9d9d),
    ("darkgray", 0x697175),
    ("lightgray", 0xcccccc),
    ("red", 0xbe2633),
    ("darkred", 0x732930),
    ("lightred", 0xe06f8b),
    ("brown", 0xa46422),
    ("darkbrown", 0x493c2b),
    ("lightbrown", 0xeeb62f),
    ("orange", 0xeb8931),
    ("yellow", 0xf7e26b),
    ("green", 0x44891a),
    ("darkgreen", 0x2f484e),
    ("lightgreen", 0xa3ce27),
    ("blue", 0x1d57f7),
    ("lightblue", 0xb2dcef),
    ("darkblue", 0x1b2632),
    ("purple", 0x342a97),
    ("pink", 0xde65e2),
    ("transparent", 0),
];

/// The colour PuzzleScript writes as `name` (a default palette name, `transparent`, `#rgb` or
/// `#rrggbb`, any case); `None` when it is none of them.
pub fn colour(name: &str) -> Option<Color32> {
    let name = name.trim().to_ascii_lowercase();
    if name == "transparent" {
        return Some(Color32::TRANSPARENT);
    }
    let rgb = |v: u32| Color32::from_rgb((v >> 16) as u8, (v >> 8) as u8, v as u8);
    if let Some(hex) = name.strip_prefix('#') {
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(hex, 16).ok()?;
        return match hex.len() {
            6 => Some(rgb(v)),
            // #rgb: each digit twice.
            3 => Some(rgb(((v & 0xf00) * 0x1100) | ((v & 0x0f0) * 0x110) | ((v & 0x00f) * 0x11))),
            _ => None,
        };
    }
    NAMED.iter().find(|(n, _)| *n == name).map(|&(_, v)| rgb(v))
}

/// A game's sprites, ready to paint.
pub struct Art {
    /// A fingerprint of the game's source (boards' picture keys start from it).
    pub key: u64,
    /// The board's colour (`background_color`, black by default).
    pub background: Color32,
    /// Each object's pixels, row by row (transparent where it shows what is under it).
    sprites: Vec<[Color32; SIDE * SIDE]>,
    /// Each object's drawing rank: lower layers first, then by index.
    rank: Vec<usize>,
    /// Each object's collision layer.
    layers: Vec<usize>,
    /// The objects a painted glyph adds under its own (the background).
    background_objects: Vec<usize>,
    /// Each legend glyph's pixels, for the Edit canvas.
    pub glyphs: HashMap<char, Vec<Color32>>,
}

impl Art {
    /// The art of `game`, compiled from `source`.
    pub fn new(game: &Game, source: &str) -> Art {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        source.hash(&mut h);
        let objects = game.objects();
        let sprites = objects
            .iter()
            .map(|o| {
                let colours: Vec<Color32> =
                    o.colors.iter().map(|c| colour(c).unwrap_or(Color32::TRANSPARENT)).collect();
                let mut px = [Color32::TRANSPARENT; SIDE * SIDE];
                match &o.sprite {
                    Some(rows) => {
                        for (y, row) in rows.iter().take(SIDE).enumerate() {
                            for (x, &i) in row.iter().take(SIDE).enumerate() {
                                if let Ok(i) = usize::try_from(i) {
                                    px[y * SIDE + x] = colours.get(i).copied().unwrap_or(Color32::TRANSPARENT);
                                }
                            }
                        }
                    }
                    None => px = [colours.first().copied().unwrap_or(Color32::TRANSPARENT); SIDE * SIDE],
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
        let layers: Vec<usize> = objects.iter().map(|o| o.layer).collect();
        let background_objects: Vec<usize> = match objects.iter().position(|o| o.name == "background") {
            Some(i) => vec![i],
            None => order.first().copied().into_iter().collect(),
        };
        let background = game.prelude().get("background_color").and_then(colour).unwrap_or(Color32::BLACK);
        let mut art = Art {
            key: h.finish(),
            background,
            sprites,
            rank,
            layers,
            background_objects,
            glyphs: HashMap::new(),
        };
        let index: HashMap<&str, usize> = objects.iter().enumerate().map(|(i, o)| (o.name.as_str(), i)).collect();
        for g in legend(source) {
            let mut objs: Vec<usize> =
                g.objects.iter().filter_map(|n| index.get(n.to_ascii_lowercase().as_str()).copied()).collect();
            for &b in &art.background_objects {
                if !objs.iter().any(|&o| art.layers[o] == art.layers[b]) {
                    objs.push(b);
                }
            }
            let mut px = vec![Color32::TRANSPARENT; SIDE * SIDE];
            art.paint(&mut objs, &mut px, SIDE);
            art.glyphs.insert(g.glyph, px);
        }
        art
    }

    /// Paints a cell holding `objects` into `out` (a `SIDE`×`SIDE` block of rows `stride` pixels
    /// long): the background colour, then each object's sprite from the lowest layer up.
    /// `objects` is sorted in place.
    fn paint(&self, objects: &mut [usize], out: &mut [Color32], stride: usize) {
        objects.sort_by_key(|&o| self.rank.get(o).copied().unwrap_or(usize::MAX));
        for y in 0..SIDE {
            out[y * stride..y * stride + SIDE].fill(self.background);
        }
        for &o in objects.iter() {
            let Some(sprite) = self.sprites.get(o) else { continue };
            for y in 0..SIDE {
                for x in 0..SIDE {
                    let c = sprite[y * SIDE + x];
                    if c.a() > 0 {
                        out[y * stride + x] = c;
                    }
                }
            }
        }
    }

    /// The picture of `state`'s board, `SIDE`×`SIDE` pixels a cell.
    pub fn board(&self, state: &PuzzleScriptState) -> ColorImage {
        let size = state.size();
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let stride = w * SIDE;
        let mut pixels = vec![self.background; stride * h * SIDE];
        let mut objects = Vec::new();
        for i in 0..w * h {
            objects.clear();
            objects.extend(state.objects_at(i));
            let (x, y) = (i % w, i / w);
            let at = y * SIDE * stride + x * SIDE;
            self.paint(&mut objects, &mut pixels[at..], stride);
        }
        ColorImage::new([stride, h * SIDE], pixels)
    }
}

/// The arts made last, by source: few games are open at once (the played one, the edited one).
static CACHE: Mutex<Vec<(Arc<str>, Arc<Art>)>> = Mutex::new(Vec::new());

/// How many games' art is kept.
const KEPT: usize = 4;

/// The cached art of `source`, else `make`'s (kept).
fn cached(source: &str, make: impl FnOnce() -> Option<Art>) -> Option<Arc<Art>> {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = cache.iter().position(|(s, _)| &**s == source) {
        let hit = cache.remove(i);
        let art = Arc::clone(&hit.1);
        cache.insert(0, hit);
        return Some(art);
    }
    let art = Arc::new(make()?);
    cache.insert(0, (Arc::from(source), Arc::clone(&art)));
    cache.truncate(KEPT);
    Some(art)
}

/// The art of the game `rules` play.
pub fn of_rules(rules: &PuzzleScriptRules) -> Arc<Art> {
    cached(rules.source(), || Some(Art::new(rules.game(), rules.source())))
        .unwrap_or_else(|| Arc::new(Art::new(rules.game(), rules.source())))
}

/// The art of the game whose source is `source`, `None` when it does not compile.
pub fn of_source(source: &str) -> Option<Arc<Art>> {
    cached(source, || engine::compile(source).ok().map(|g| Art::new(&g, source)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_by_name_and_hex() {
        assert_eq!(colour("Red"), Some(Color32::from_rgb(0xbe, 0x26, 0x33)));
        assert_eq!(colour("#1d57f7"), Some(Color32::from_rgb(0x1d, 0x57, 0xf7)));
        assert_eq!(colour("#f0a"), Some(Color32::from_rgb(0xff, 0x00, 0xaa)));
        assert_eq!(colour("transparent"), Some(Color32::TRANSPARENT));
        assert_eq!(colour("#12"), None);
        assert_eq!(colour("#gggggg"), None);
        assert_eq!(colour("mauve"), None);
    }
}
