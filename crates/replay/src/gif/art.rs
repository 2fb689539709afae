//! PuzzleScript's look, as its reference engine draws a level: the game's `background_color`
//! under everything, then in each cell its objects from the lowest collision layer up, each
//! its 5×5 sprite in its colours (the game's palette: `tessera_puzzlescript::art`, the one
//! table the editor and the web player draw with too).

use super::Picture;
use tessera_core::puzzlescript::PuzzleScriptState;
use tessera_core::puzzlescript::engine::Game;
pub use tessera_core::puzzlescript::engine::art::{DEFAULT_PALETTE, SIDE, Sprites, colour_in, palette_index};

/// A game's sprites, ready to draw.
#[derive(Clone, Debug)]
pub struct Art {
    sprites: Sprites,
    /// The colour under everything (`background_color`, black by default).
    pub background: super::Rgb,
}

impl Art {
    /// The art of `game`.
    pub fn new(game: &Game) -> Art {
        let sprites = Sprites::new(game);
        Art { background: sprites.background, sprites }
    }

    /// Every colour the art draws (the background first), each once.
    pub fn colours(&self) -> Vec<super::Rgb> {
        self.sprites.colours()
    }

    /// The picture of `state`'s board, [`SIDE`]×[`SIDE`] pixels a cell.
    pub fn picture(&self, state: &PuzzleScriptState) -> Picture {
        let size = state.size();
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let mut pic = Picture::filled(w * SIDE, h * SIDE, self.background);
        let rank = &self.sprites.rank;
        let mut objects = Vec::new();
        for i in 0..w * h {
            objects.clear();
            objects.extend(state.objects_at(i));
            objects.sort_by_key(|&o| rank.get(o).copied().unwrap_or(usize::MAX));
            let (x0, y0) = ((i % w) * SIDE, (i / w) * SIDE);
            for &o in &objects {
                let Some(sprite) = self.sprites.sprites.get(o) else { continue };
                for y in 0..SIDE {
                    for x in 0..SIDE {
                        if let Some(c) = sprite[y * SIDE + x] {
                            pic.set(x0 + x, y0 + y, c);
                        }
                    }
                }
            }
        }
        pic
    }
}
