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
use tessera_core::puzzlescript::engine::art::{self as ps_art, Sprites};
use tessera_core::puzzlescript::engine::{self, Game};
use tessera_core::puzzlescript::{PuzzleScriptRules, PuzzleScriptState, legend};

/// Pixels a side of a sprite (and of a cell's picture).
pub const SIDE: usize = ps_art::SIDE;

/// An egui colour of an RGB one.
fn rgb([r, g, b]: ps_art::Rgb) -> Color32 {
    Color32::from_rgb(r, g, b)
}

/// A game's sprites, ready to paint.
pub struct Art {
    /// A fingerprint of the game's source (boards' picture keys start from it).
    pub key: u64,
    /// The board's colour (`background_color`, black by default).
    pub background: Color32,
    /// The messages' colour (`text_color`, white by default).
    pub text: Color32,
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
        let look = Sprites::new(game);
        let sprites = look.sprites.iter().map(|px| px.map(|c| c.map_or(Color32::TRANSPARENT, rgb))).collect();
        let order = &look.order;
        let layers: Vec<usize> = objects.iter().map(|o| o.layer).collect();
        let background_objects: Vec<usize> = match objects.iter().position(|o| o.name == "background") {
            Some(i) => vec![i],
            None => order.first().copied().into_iter().collect(),
        };
        let (background, text) = (rgb(look.background), rgb(look.text));
        let mut art = Art {
            key: h.finish(),
            background,
            text,
            sprites,
            rank: look.rank.clone(),
            layers,
            background_objects,
            glyphs: HashMap::new(),
        };
        let index: HashMap<&str, usize> =
            objects.iter().enumerate().map(|(i, o)| (o.name.as_str(), i)).collect();
        for g in legend(source) {
            let mut objs: Vec<usize> = g
                .objects
                .iter()
                .filter_map(|n| index.get(n.to_ascii_lowercase().as_str()).copied())
                .collect();
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

    /// The board the editor draws is the picture the GIFs draw (`tessera_replay::gif::art`, both over `tessera_puzzlescript::art`),
    /// pixel for pixel, on every fixture game's levels.
    #[test]
    fn the_board_is_the_gifs_picture() {
        use tessera_core::puzzlescript::{PuzzleScriptLevel, playable_count};
        let games = [
            include_str!("../../../../../fixtures/games/warehouse.txt"),
            include_str!("../../../../../fixtures/games/fuse.txt"),
            include_str!("../../../../../fixtures/games/chorus.txt"),
            include_str!("../../../../../fixtures/games/conveyor.txt"),
        ];
        for source in games {
            let game = engine::compile(source).expect("compiles");
            for level in 0..playable_count(&game) {
                let l = PuzzleScriptLevel { name: None, seed: None, source: source.into(), level };
                let (_, state) = l.start(0).expect("starts");
                let board = Art::new(&game, source).board(&state);
                let picture = tessera_replay::gif::art::Art::new(&game).picture(&state);
                assert_eq!(board.size, [picture.width, picture.height]);
                let gif: Vec<Color32> =
                    picture.pixels.iter().map(|&[r, g, b]| Color32::from_rgb(r, g, b)).collect();
                assert_eq!(board.pixels, gif, "level {level}");
            }
        }
    }
}
