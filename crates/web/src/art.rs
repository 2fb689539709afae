//! PuzzleScript's look, for the web player: a cell's objects drawn from the lowest collision
//! layer up, each its 5×5 sprite in its colours, `background_color` under everything. The
//! sprites and palettes are `tessera_puzzlescript::art`'s, the one table the editor's board and
//! the GIFs draw with too.

use tessera_core::puzzlescript::engine::Game;
use tessera_core::puzzlescript::engine::art::Sprites;

pub use tessera_core::puzzlescript::engine::art::SIDE;

/// An RGBA colour.
pub type Rgba = [u8; 4];

const TRANSPARENT: Rgba = [0, 0, 0, 0];

/// `#rrggbb` of a colour.
pub fn css(c: Rgba) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// A game's sprites, ready to paint.
pub struct Art {
    /// The board's colour (`background_color`, black by default).
    pub background: Rgba,
    /// The text's colour (`text_color`, white by default).
    pub text: Rgba,
    /// Each object's pixels as RGBA (alpha 0 where it shows what is under it).
    sprites: Vec<[Rgba; SIDE * SIDE]>,
    /// The objects in drawing order (lower layers first, then by index).
    order: Vec<usize>,
}

impl Art {
    /// The art of `game`.
    pub fn new(game: &Game) -> Art {
        let s = Sprites::new(game);
        let rgba = |c: Option<[u8; 3]>| c.map_or(TRANSPARENT, |[r, g, b]| [r, g, b, 255]);
        let sprites = s.sprites.iter().map(|px| px.map(rgba)).collect();
        Art { background: rgba(Some(s.background)), text: rgba(Some(s.text)), sprites, order: s.order }
    }

    /// Paints the cells `words` (the board's bit words, `stride` a cell, `width` cells a row) of
    /// the window `(x0, y0, w, h)` into `out` as RGBA, `SIDE` pixels a cell.
    pub fn paint(
        &self,
        words: &[u64],
        stride: usize,
        width: usize,
        window: (usize, usize, usize, usize),
        out: &mut Vec<u8>,
    ) {
        let (x0, y0, w, h) = window;
        let row = w * SIDE;
        out.clear();
        out.resize(row * h * SIDE * 4, 0);
        for px in out.chunks_exact_mut(4) {
            px.copy_from_slice(&self.background);
        }
        for cy in 0..h {
            for cx in 0..w {
                let cell = (y0 + cy) * width + x0 + cx;
                let Some(bits) = words.get(cell * stride..cell * stride + stride) else { continue };
                for &o in &self.order {
                    if bits.get(o / 64).is_none_or(|w| w >> (o % 64) & 1 == 0) {
                        continue;
                    }
                    let sprite = &self.sprites[o];
                    for y in 0..SIDE {
                        for x in 0..SIDE {
                            let c = sprite[y * SIDE + x];
                            if c[3] > 0 {
                                let at = ((cy * SIDE + y) * row + cx * SIDE + x) * 4;
                                out[at..at + 4].copy_from_slice(&c);
                            }
                        }
                    }
                }
            }
        }
    }
}
