//! [`BoardView`]: draws a [`Mirror`] with the painter — only the cells in view — with pan, zoom,
//! animations and overlays, and turns pointer input into cells.
//!
//! Drawing is built for boards of tens of thousands of cells (issue 9: a 64×64 match3 frame in
//! under 4 ms, 256×256 and 1024×1024 boards smooth):
//! - Ground (tactics terrain, Sokoban walls, floor and goals: the rule set's
//!   [`crate::games::EditorGame::ground`]) is one texture, a texel per cell, built once per map:
//!   a 1024×1024 Moving AI map costs one quad to draw at any zoom. A piece at rest on a ground
//!   index the rule set lists in `framed_ground` is framed in that ground's colour (a box on
//!   its goal).
//! - Pieces at rest are found by one query over the pieces (entities with a game id and no
//!   animation), not a lookup per visible cell, and drawn into a few meshes (see `mesh`): tiles
//!   and cell tints as quads and feathered fans, blocks and units as quads of prepared discs,
//!   locks and bars over them. A frame is a handful of shapes, whatever the board's size.
//! - Zoomed out until a piece is under four pixels, the pieces at rest are a texture, a texel per
//!   cell, uploaded again only when a texel changed (tactics units excepted: they stay discs of
//!   at least 8 points, so a unit can be found on a whole 1024×1024 map).
//! - Pieces that are animating this step are drawn from their animation instead, wherever they
//!   are.
//! - Detail follows the zoom: letters and numbers only when a cell is big enough to read them,
//!   each distinct label laid out once per frame and its galley reused.
//!
//! `BoardView` draws a `Mirror` by each entity's generic `Look` (its `Shape` in the palette's
//! colours, its `Label`): only the cells in view, ground of tactics maps as one nearest-filtered
//! texture (a texel per cell, rebuilt only when the map changes), pieces at rest from one query
//! over the pieces (game id, no animation), animated pieces and ghosts from their `Trail` wherever
//! they are, overlays (highlights, selection, range, path glyphs). Shapes go into a few meshes a
//! frame (`board/mesh.rs`: quads and feathered fans for tiles, tints and outlines; blocks and units
//! as quads of prepared discs from a small texture; each mesh reserves last frame's size, so it is
//! not grown by doubling every frame), labels are laid out once per distinct text and reused;
//! zoomed out below four pixels a cell, the pieces at rest are a texture, a texel per cell,
//! uploaded only when a texel changes (tactics units stay discs of at least 8 points). Cells sit on
//! whole pixels (`Snapped`: each edge is the origin plus `i` cells rounded to the pixel, so
//! neighbours share edges and no seam crosses the board); a label smaller than `MIN_LABEL` (10
//! points) is drawn at that size when it fits its piece, else left out and shown at the pointer on
//! hover. It turns pointer input into cells (click, swipe).

mod mesh;

use crate::anim::{self, Pose};
use crate::palette;
use egui::epaint::TextShape;
use egui::{
    Align2, Color32, ColorImage, FontId, Galley, PointerButton, Pos2, Rect, Sense, Shape, Stroke,
    TextureHandle, TextureOptions, Vec2, pos2, vec2,
};
use mesh::{Cells, DiscAtlas, Discs};
use std::collections::HashMap;
use std::sync::Arc;
use tessera_core::glyph::{Axis, Glyph, Heading, path_glyphs};
use tessera_core::{AnyRules, AnyState, Pos, Size};
use tessera_ecs::{Anim, AnimKind, Cell, GameId, Label, Look, Mirror, Shape as PieceShape, Trail};

/// Smallest and largest cell, in points.
const MIN_CELL: f32 = 0.25;
const MAX_CELL: f32 = 160.0;

pub use crate::model::{BoardInput, Overlay};

/// Pan and zoom of a grid of cells drawn in a widget: the Play and Debug board and the Edit
/// canvas. Scroll (or pinch) zooms around the pointer, a secondary or middle drag pans, a double
/// secondary click fits the whole grid again.
#[derive(Default)]
pub struct Viewport {
    /// Points per cell (0 = fit on the next frame).
    cell: f32,
    /// Grid origin relative to the widget's top-left corner.
    offset: Vec2,
    /// The grid size the view was fitted to.
    fitted: Option<Size>,
    /// The widget size of the last fit, while the user has not panned or zoomed since: the
    /// view fits again when the widget changes size (the first frames, while side panels
    /// settle, or a resized window). `None` once the user took over.
    fitted_rect: Option<Vec2>,
    /// Where the grid was drawn in the last frame (screen position of cell (0, 0)'s corner).
    last_origin: Option<Pos2>,
}

impl Viewport {
    /// Fits the whole grid into view on the next frame.
    pub fn fit(&mut self) {
        self.cell = 0.0;
    }

    /// Points per cell now.
    pub fn cell_size(&self) -> f32 {
        self.cell
    }

    /// The screen position of the centre of cell `p` as last drawn (`None` before the first
    /// frame): what a test clicks.
    pub fn cell_centre(&self, p: Pos) -> Option<Pos2> {
        let o = self.last_origin?;
        Some(o + vec2((f32::from(p.x) + 0.5) * self.cell, (f32::from(p.y) + 0.5) * self.cell))
    }

    /// This frame's view of a `size` grid drawn in `rect` (whose widget answered `response`):
    /// fits it when asked or when the size changed, applies pan and zoom, and returns the
    /// screen position of cell (0, 0)'s corner.
    pub fn update(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect, size: Size) -> Pos2 {
        let resized = self.fitted_rect.is_some_and(|r| (r - rect.size()).length() > 0.5);
        if self.cell <= 0.0 || self.fitted != Some(size) || resized {
            let (w, h) = (f32::from(size.width), f32::from(size.height));
            let margin = 12.0;
            let cell = ((rect.width() - 2.0 * margin) / w).min((rect.height() - 2.0 * margin) / h);
            self.cell = cell.clamp(MIN_CELL, 96.0);
            self.offset = (rect.size() - vec2(w, h) * self.cell) / 2.0;
            self.fitted = Some(size);
            self.fitted_rect = Some(rect.size());
        }
        if response.dragged_by(PointerButton::Secondary) || response.dragged_by(PointerButton::Middle) {
            self.offset += response.drag_delta();
            self.fitted_rect = None;
        }
        if let Some(hover) = response.hover_pos() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = zoom * (scroll / 400.0).exp();
            if (factor - 1.0).abs() > 1e-4 {
                let new = (self.cell * factor).clamp(MIN_CELL, MAX_CELL);
                // Keep the point under the pointer where it is.
                let anchor = hover - rect.min;
                self.offset = anchor - (anchor - self.offset) * (new / self.cell);
                self.cell = new;
                self.fitted_rect = None;
            }
        }
        if response.double_clicked_by(PointerButton::Secondary) {
            self.cell = 0.0;
        }
        let origin = rect.min + self.offset;
        self.last_origin = Some(origin);
        origin
    }

    /// The columns `x0..x1` and rows `y0..y1` of a `size` grid at `origin` that `rect` shows.
    pub fn visible(&self, rect: Rect, origin: Pos2, size: Size) -> (u16, u16, u16, u16) {
        let (w, h, cell) = (f32::from(size.width), f32::from(size.height), self.cell);
        (
            ((rect.min.x - origin.x) / cell).floor().clamp(0.0, w) as u16,
            ((rect.max.x - origin.x) / cell).ceil().clamp(0.0, w) as u16,
            ((rect.min.y - origin.y) / cell).floor().clamp(0.0, h) as u16,
            ((rect.max.y - origin.y) / cell).ceil().clamp(0.0, h) as u16,
        )
    }
}

/// The view of one board (pan and zoom) and its cached textures.
#[derive(Default)]
pub struct BoardView {
    view: Viewport,
    ground: Option<(u64, TextureHandle)>,
    /// The prepared discs circles are drawn with (see `mesh`), made on the first frame.
    discs: Option<(TextureHandle, DiscAtlas)>,
    /// Pieces at rest as a texel per cell, when zoomed out so far that a piece is a few
    /// pixels: the texture, its size in cells, and its texels (to upload only on change).
    flat: Option<(TextureHandle, [usize; 2], Vec<Color32>)>,
    /// The cell a primary drag started on, and where the press was.
    drag_from: Option<(Pos, Pos2)>,
    /// The sizes of last frame's meshes (pieces at rest, moving pieces): what this frame's
    /// reserve, since a board changes little between frames and a 64×64 board's meshes grown
    /// by doubling cost a tenth of the frame in copies.
    sizes: [LayerSizes; 2],
    /// The cells whose piece was framed by its ground last frame (a Sokoban box on its goal).
    framed: Vec<Pos>,
    /// The rule set's own picture of the board ([`crate::games::EditorGame::board_art`]) and
    /// its key.
    art: Option<(u64, TextureHandle)>,
    /// The key of the picture the last frame drew, if it drew one.
    drew_art: Option<u64>,
    /// Last frame's labels: the smallest size drawn (points; `f32::MAX` for none) and how
    /// many were left out as too small to read.
    labels: (f32, usize),
}

impl BoardView {
    /// The cells whose piece was framed by its ground in the last frame (for tests).
    pub fn framed(&self) -> &[Pos] {
        &self.framed
    }

    /// Fits the whole board into view on the next frame.
    pub fn fit(&mut self) {
        self.view.fit();
    }

    /// The last frame's labels: the smallest text size drawn, in points (`None` when none was
    /// drawn), and how many were left out as too small to read (hovering shows them).
    pub fn label_sizes(&self) -> (Option<f32>, usize) {
        let (smallest, dropped) = self.labels;
        ((smallest < f32::MAX).then_some(smallest), dropped)
    }

    /// Points per cell now.
    pub fn cell_size(&self) -> f32 {
        self.view.cell_size()
    }

    /// The screen position of the centre of cell `p` as last drawn (`None` before the first
    /// frame): what a test clicks.
    pub fn cell_centre(&self, p: Pos) -> Option<Pos2> {
        self.view.cell_centre(p)
    }

    /// Draws `mirror` (whose game state is `state`) at clock position `at` with `overlay`, and
    /// reports pointer input.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        mirror: &Mirror,
        state: &AnyState,
        at: f32,
        overlay: &Overlay,
    ) -> BoardInput {
        self.show_game(ui, mirror, None, state, at, overlay)
    }

    /// [`BoardView::show`], with the state's `rules` when known: a rule set that draws its
    /// board itself ([`crate::games::EditorGame::board_art`]) is drawn so.
    pub fn show_game(
        &mut self,
        ui: &mut egui::Ui,
        mirror: &Mirror,
        rules: Option<&AnyRules>,
        state: &AnyState,
        at: f32,
        overlay: &Overlay,
    ) -> BoardInput {
        let size = mirror.size();
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, palette::BACKGROUND);

        let origin = self.view.update(ui, &response, rect, size);
        let cell = self.view.cell_size();
        let ppp = ui.ctx().pixels_per_point();
        // Cells on whole pixels: neighbours share their edge exactly, so no seam of half
        // pixels runs across the board at fractional cell sizes.
        let grid_px = Snapped::new(origin, cell, ppp);
        let cell_rect = |x: f32, y: f32| grid_px.cell(x as u16, y as u16);

        // The cells in view.
        let (w, h) = (f32::from(size.width), f32::from(size.height));
        let (x0, x1, y0, y1) = self.view.visible(rect, origin, size);
        let board_rect = Rect::from_min_max(grid_px.corner(0, 0), grid_px.corner(size.width, size.height));

        // Ground: terrain (every cell has `PieceShape::Ground`) is one texture.
        let terrain = mirror
            .ground_at(Pos::new(0, 0))
            .and_then(|e| {
                mirror.world().get::<&Look>(e).ok().map(|l| matches!(l.shape, PieceShape::Ground { .. }))
            })
            .unwrap_or(false);
        let game = crate::games::of(state.rule_set());
        let ground = game.and_then(|g| g.ground(state));
        // The rule set's own picture of the board: the pieces and the ground are in it.
        let art = game.zip(rules).and_then(|(g, r)| g.board_art(r, state));
        let own = art.is_some();
        self.drew_art = art.as_ref().map(|a| a.key);
        if let Some(art) = art {
            painter.rect_filled(rect, 0.0, art.background);
            let tex = self.art_texture(ui.ctx(), art);
            let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
            painter.image(tex, board_rect, uv, Color32::WHITE);
        } else if let Some(ground) = &ground {
            let tex = self.ground_texture(ui.ctx(), ground);
            let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
            painter.image(tex, board_rect, uv, Color32::WHITE);
        } else {
            painter.rect_filled(board_rect, 0.0, palette::EMPTY);
        }
        // The gap between pieces in whole pixels too.
        let gap = if cell >= 8.0 { ((cell * 0.06).max(1.0) * ppp).round() / ppp } else { 0.0 };
        let detail = cell >= 14.0;
        let in_view = |p: Pos| (x0..x1).contains(&p.x) && (y0..y1).contains(&p.y);
        let (disc_texture, atlas) = self.disc_texture(ui.ctx());
        let mut rest = Layers::new(ppp, disc_texture, &atlas, self.sizes[0]);
        // Zoomed out so far that pieces would be squares of a few pixels: a texel per cell, one
        // quad for the whole view (on terrain, units stay shapes: there are few, and they are
        // drawn at a size to find).
        let flat = (cell * ppp < 4.0 && !terrain && !own)
            .then(|| self.flat_texture(ui.ctx(), mirror, (x0, x1), (y0, y1)))
            .flatten();
        if let Some(tex) = flat {
            let r = Rect::from_min_max(
                origin + vec2(f32::from(x0), f32::from(y0)) * cell,
                origin + vec2(f32::from(x1), f32::from(y1)) * cell,
            );
            painter.image(tex, r, Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)), Color32::WHITE);
        }
        if flat.is_none() && !terrain && !own {
            // Void cells: ground entities without a game id (terrain is the texture above).
            for (c, look) in mirror.world().query::<(&Cell, &Look)>().without::<&GameId>().iter() {
                if matches!(look.shape, PieceShape::Void) && in_view(c.0) {
                    rest.base.rect(cell_rect(c.0.x.into(), c.0.y.into()), palette::VOID);
                }
            }
        }
        if cell >= 10.0 && !own {
            grid(&mut rest.base, &GridView { px: grid_px, x: (x0, x1), y: (y0, y1), gap }, terrain);
        }

        // Overlays under the pieces.
        for &p in &overlay.range {
            rest.base.rect(cell_rect(p.x.into(), p.y.into()), palette::RANGE);
        }

        // Ground whose colour frames the piece at rest on it (a Sokoban box on its goal).
        let framed = game.map_or(&[][..], |g| g.framed_ground());
        let frame_of = |p: Pos| -> Option<Color32> {
            let g = ground.as_ref().filter(|g| !framed.is_empty() && g.size.contains(p))?;
            let i = *g.cells.get(g.size.index(p))?;
            if framed.contains(&i) { g.legend.get(usize::from(i)).copied() } else { None }
        };

        // Pieces at rest, in view. (Pieces at rest never overlap: their order does not matter.)
        let mut labels = Labels::new(ui.ctx());
        self.framed.clear();
        let hovered_cell = response.hover_pos().and_then(|p| {
            let c = (p - origin) / cell;
            (c.x >= 0.0 && c.y >= 0.0 && c.x < w && c.y < h).then(|| Pos::new(c.x as u16, c.y as u16))
        });
        let mut query = mirror.world().query::<(&Cell, &Look, &GameId)>().without::<&Anim>();
        for (c, look, _) in query.iter().filter(|_| flat.is_none() && !own) {
            if in_view(c.0) {
                let r = cell_rect(c.0.x.into(), c.0.y.into()).shrink(gap);
                piece(&mut rest, &mut labels, r, look, detail, 1.0);
                if let Some(colour) = frame_of(c.0) {
                    let width = (r.width() * 0.12).max(1.0);
                    rest.marks.frame(r, (r.width() * 0.12).min(8.0), width, colour);
                    self.framed.push(c.0);
                }
            }
        }
        self.sizes[0] = rest.paint(&painter);
        painter.extend(labels.take());

        // Animated pieces and ghosts, wherever they are.
        let mut moving = Layers::new(ppp, disc_texture, &atlas, self.sizes[1]);
        let view = rect.expand(cell);
        for (look, trail, c) in
            mirror.world().query::<(&Look, &Trail, Option<&Cell>)>().iter().filter(|_| !own)
        {
            let Some(a) = anim::current(&trail.0, at) else { continue };
            let Some(p) = anim::pose(a, at) else { continue };
            let r = posed_rect(origin, cell, p).shrink(gap * p.scale);
            // Its last animation over, it stands at rest on its cell: framed as a piece at rest
            // is (the animation stays on the entity until the next step).
            let ended = trail.0.last().is_some_and(|l| std::ptr::eq(l, a) && at >= a.phase as f32 + 1.0);
            if ended
                && let Some(c) = c
                && let Some(colour) = frame_of(c.0)
                && view.intersects(r)
            {
                let width = (r.width() * 0.12).max(1.0);
                moving.marks.frame(r, (r.width() * 0.12).min(8.0), width, colour);
                self.framed.push(c.0);
            }
            if view.intersects(r) {
                let mut look = *look;
                if a.kind == AnimKind::Unlock
                    && let PieceShape::Disc { locked, .. } | PieceShape::Square { locked, .. } =
                        &mut look.shape
                {
                    // Draw the lock fading out.
                    *locked = anim::lock_shown(a, at, mirror.reversed());
                }
                piece(&mut moving, &mut labels, r, &look, detail, p.alpha);
            }
        }
        for g in mirror.ghosts().iter().filter(|_| !own) {
            // Moves before it left (a fall in an earlier cascade level), then its exit.
            let p = match anim::current(&g.trail, at) {
                Some(a) if a != &g.anim => anim::pose(a, at),
                _ => anim::ghost_pose(&g.anim, at),
            };
            let Some(p) = p else { continue };
            let r = posed_rect(origin, cell, p).shrink(gap * p.scale);
            if view.intersects(r) {
                piece(&mut moving, &mut labels, r, &g.look, detail, p.alpha);
            }
        }
        self.sizes[1] = moving.paint(&painter);
        painter.extend(labels.take());
        self.labels = labels.shown();
        // Labels too small to read were left out: the hovered piece's shows at the pointer.
        let hover_label = (self.labels.1 > 0)
            .then_some(hovered_cell)
            .flatten()
            .and_then(|c| mirror.piece_at(c))
            .and_then(|e| mirror.world().get::<&Look>(e).ok().and_then(|l| l.label))
            .filter(|&label| {
                // Only a label that was left out: one too wide for its piece at MIN_LABEL.
                let text = label_text(label);
                let size = ui.fonts_mut(|f| {
                    f.layout_no_wrap(text, FontId::proportional(MIN_LABEL), Color32::WHITE).size()
                });
                let width = cell - 2.0 * gap;
                size.x > width * 0.95 || size.y > width * 1.1
            });

        // Overlays over the pieces.
        let mut over = Cells::new(ppp);
        let hl = (cell * 0.08).clamp(1.0, 4.0);
        let hl_colour = overlay.highlight_colour.unwrap_or(palette::HIGHLIGHT);
        for &p in &overlay.highlights {
            over.frame(cell_rect(p.x.into(), p.y.into()), 2.0, hl, hl_colour);
        }
        if let Some(p) = overlay.selected {
            let width = (cell * 0.1).clamp(1.5, 5.0);
            over.frame(cell_rect(p.x.into(), p.y.into()), 3.0, width, palette::SELECTED);
        }
        painter.add(over.into_shape());
        if overlay.path.len() >= 2 {
            draw_path(&painter, &overlay.path, origin, cell);
        }

        // Input.
        let to_cell = |p: Pos2| -> Option<Pos> {
            let c = (p - origin) / cell;
            (c.x >= 0.0 && c.y >= 0.0 && c.x < w && c.y < h).then(|| Pos::new(c.x as u16, c.y as u16))
        };
        let mut input =
            BoardInput { hovered: response.hover_pos().and_then(to_cell), ..BoardInput::default() };
        if response.clicked_by(PointerButton::Primary) {
            input.clicked = response.interact_pointer_pos().and_then(to_cell);
        }
        if response.drag_started_by(PointerButton::Primary) {
            let press = ui.input(|i| i.pointer.press_origin());
            self.drag_from = press.and_then(|p| Some((to_cell(p)?, p)));
        }
        if response.drag_stopped_by(PointerButton::Primary) {
            // The press origin is gone once the button is up: use the one kept at the start.
            let now = ui.input(|i| i.pointer.latest_pos());
            if let (Some((from, a)), Some(b)) = (self.drag_from.take(), now) {
                input.swipe = Some((from, (b - a) / cell));
            }
        }
        let tooltip = overlay.tooltip.clone().or_else(|| hover_label.map(label_text));
        if let (Some(text), Some(p)) = (&tooltip, response.hover_pos()) {
            let galley = painter.layout_no_wrap(text.clone(), FontId::proportional(14.0), Color32::WHITE);
            let r = Rect::from_min_size(p + vec2(14.0, 10.0), galley.size()).expand(4.0);
            painter.rect_filled(r, 4.0, Color32::from_black_alpha(200));
            painter.galley(r.min + vec2(4.0, 4.0), galley, Color32::WHITE);
        }
        input
    }

    /// The pieces at rest (and voids) of columns `x.0..x.1` and rows `y.0..y.1` as a
    /// texture, a texel per cell; uploaded again only when a texel changed. `None` when the view
    /// is larger than the largest texture.
    fn flat_texture(
        &mut self,
        ctx: &egui::Context,
        mirror: &Mirror,
        x: (u16, u16),
        y: (u16, u16),
    ) -> Option<egui::TextureId> {
        let size = [usize::from(x.1 - x.0), usize::from(y.1 - y.0)];
        if size[0] == 0 || size[1] == 0 || size[0].max(size[1]) > ctx.input(|i| i.max_texture_side) {
            return None;
        }
        let mut texels = vec![Color32::TRANSPARENT; size[0] * size[1]];
        for (c, look) in mirror.world().query::<(&Cell, &Look)>().without::<&Anim>().iter() {
            let Pos { x: cx, y: cy } = c.0;
            if (x.0..x.1).contains(&cx) && (y.0..y.1).contains(&cy) {
                texels[usize::from(cy - y.0) * size[0] + usize::from(cx - x.0)] = flat_colour(look);
            }
        }
        match &mut self.flat {
            Some((tex, old_size, old)) if *old_size == size && *old == texels => Some(tex.id()),
            Some((tex, old_size, old)) => {
                tex.set(ColorImage::new(size, texels.clone()), TextureOptions::NEAREST);
                *old_size = size;
                *old = texels;
                Some(tex.id())
            }
            None => {
                let image = ColorImage::new(size, texels.clone());
                let tex = ctx.load_texture("tessera-pieces", image, TextureOptions::NEAREST);
                let id = tex.id();
                self.flat = Some((tex, size, texels));
                Some(id)
            }
        }
    }

    /// The rule set's picture of the board as a texture, uploaded again only when its key
    /// changed.
    fn art_texture(&mut self, ctx: &egui::Context, art: crate::games::BoardArt<'_>) -> egui::TextureId {
        if let Some((k, tex)) = &self.art
            && *k == art.key
        {
            return tex.id();
        }
        let image = (art.image)();
        let tex = match self.art.take() {
            Some((_, mut tex)) if tex.size() == image.size => {
                tex.set(image, TextureOptions::NEAREST);
                tex
            }
            _ => ctx.load_texture("tessera-art", image, TextureOptions::NEAREST),
        };
        let id = tex.id();
        self.art = Some((art.key, tex));
        id
    }

    /// The key of the rule set's own picture of the board the last frame drew, if it drew one
    /// (for tests).
    pub fn art_key(&self) -> Option<u64> {
        self.drew_art
    }

    /// The disc texture and its layout, made on the first call.
    fn disc_texture(&mut self, ctx: &egui::Context) -> (egui::TextureId, DiscAtlas) {
        let (tex, atlas) = self.discs.get_or_insert_with(|| {
            let (image, atlas) = DiscAtlas::build();
            (ctx.load_texture("tessera-discs", image, TextureOptions::LINEAR), atlas)
        });
        (tex.id(), atlas.clone())
    }

    fn ground_texture(
        &mut self,
        ctx: &egui::Context,
        ground: &crate::games::GroundMap<'_>,
    ) -> egui::TextureId {
        let cells = &ground.cells[..];
        // A cheap fingerprint of the map: its size, its colours and a sample of its cells.
        let mut key = (u64::from(ground.size.width) << 16) ^ u64::from(ground.size.height);
        for c in &ground.legend {
            key = key.rotate_left(7) ^ u64::from(u32::from_le_bytes(c.to_array()));
        }
        let stride = (cells.len() / 4096).max(1);
        for (i, &c) in cells.iter().enumerate().step_by(stride) {
            key = key.rotate_left(5) ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(c);
        }
        if let Some((k, tex)) = &self.ground
            && *k == key
        {
            return tex.id();
        }
        let legend = &ground.legend;
        let size = [usize::from(ground.size.width), usize::from(ground.size.height)];
        let pixels =
            cells.iter().map(|&c| legend.get(usize::from(c)).copied().unwrap_or(Color32::BLACK)).collect();
        let image = ColorImage { size, pixels, source_size: vec2(size[0] as f32, size[1] as f32) };
        let tex = ctx.load_texture("tessera-ground", image, TextureOptions::NEAREST);
        let id = tex.id();
        self.ground = Some((key, tex));
        id
    }
}

fn posed_rect(origin: Pos2, cell: f32, p: Pose) -> Rect {
    let centre = origin + vec2((p.x + 0.5) * cell, (p.y + 0.5) * cell);
    Rect::from_center_size(centre, Vec2::splat(cell * p.scale))
}

/// Where the grid is drawn: the board's origin, the cell size, the columns and rows in view
/// (`x.0..x.1`, `y.0..y.1`) and the gap between pieces.
struct GridView {
    px: Snapped,
    x: (u16, u16),
    y: (u16, u16),
    gap: f32,
}

/// A grid's cells on whole pixels: the edge between cells `i - 1` and `i` is the board's
/// origin plus `i` cells, rounded to the pixel, so neighbouring cells share their edge exactly
/// and every cell is within a pixel of the same size, whatever the fractional cell size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapped {
    origin: Pos2,
    cell: f32,
    ppp: f32,
}

impl Snapped {
    /// The grid whose cell (0, 0)'s corner is at `origin`, `cell` points a side, on a screen of
    /// `ppp` pixels a point.
    pub fn new(origin: Pos2, cell: f32, ppp: f32) -> Snapped {
        let ppp = if ppp > 0.0 { ppp } else { 1.0 };
        let origin = pos2((origin.x * ppp).round() / ppp, (origin.y * ppp).round() / ppp);
        Snapped { origin, cell, ppp }
    }

    /// The edge before column (or row) `i`, from the origin, on a whole pixel.
    fn edge(&self, i: u16) -> f32 {
        (f32::from(i) * self.cell * self.ppp).round() / self.ppp
    }

    /// The corner before cell (`x`, `y`).
    pub fn corner(&self, x: u16, y: u16) -> Pos2 {
        self.origin + vec2(self.edge(x), self.edge(y))
    }

    /// Cell (`x`, `y`)'s rectangle.
    pub fn cell(&self, x: u16, y: u16) -> Rect {
        Rect::from_min_max(self.corner(x, y), self.corner(x.saturating_add(1), y.saturating_add(1)))
    }
}

/// The lines between cells in view: a gutter in the background colour along every boundary, so
/// that empty cells read as cells; thin dark lines over `terrain`.
fn grid(out: &mut Cells, g: &GridView, terrain: bool) {
    let GridView { px: snapped, gap, .. } = *g;
    let (top, bottom) = (snapped.corner(0, g.y.0).y, snapped.corner(0, g.y.1).y);
    let (left, right) = (snapped.corner(g.x.0, 0).x, snapped.corner(g.x.1, 0).x);
    let px = out.px();
    if terrain {
        let c = Color32::from_black_alpha(40);
        for x in g.x.0..=g.x.1 {
            let px_x = snapped.corner(x, 0).x;
            out.rect(Rect::from_min_max(pos2(px_x - px / 2.0, top), pos2(px_x + px / 2.0, bottom)), c);
        }
        for y in g.y.0..=g.y.1 {
            let py = snapped.corner(0, y).y;
            out.rect(Rect::from_min_max(pos2(left, py - px / 2.0), pos2(right, py + px / 2.0)), c);
        }
        return;
    }
    // One gutter along every boundary, `gap` wide (at least a pixel), in the background colour.
    let (c, w) = (palette::BACKGROUND, gap.max(px));
    for x in g.x.0..=g.x.1 {
        let b = snapped.corner(x, 0).x;
        let (l, r) = ((b - w / 2.0).max(left), (b + w / 2.0).min(right));
        out.rect(Rect::from_min_max(pos2(l, top), pos2(r, bottom)), c);
    }
    for y in g.y.0..=g.y.1 {
        let b = snapped.corner(0, y).y;
        let (t, u) = ((b - w / 2.0).max(top), (b + w / 2.0).min(bottom));
        out.rect(Rect::from_min_max(pos2(left, t), pos2(right, u)), c);
    }
}

/// The meshes a set of pieces is drawn into, painted in this order: `base` (cell tints,
/// tiles), `discs` (blocks and units), `marks` (locks, movement bars, and circles too big for a
/// prepared disc).
struct Layers<'a> {
    base: Cells,
    discs: Discs<'a>,
    marks: Cells,
}

/// The vertex and index counts of a [`Layers`]' meshes: base, discs, marks.
type LayerSizes = [(usize, usize); 3];

impl<'a> Layers<'a> {
    /// Empty layers with room for `sizes` (last frame's).
    fn new(
        pixels_per_point: f32,
        texture: egui::TextureId,
        atlas: &'a DiscAtlas,
        sizes: LayerSizes,
    ) -> Layers<'a> {
        let mut layers = Layers {
            base: Cells::new(pixels_per_point),
            discs: Discs::new(texture, atlas, pixels_per_point),
            marks: Cells::new(pixels_per_point),
        };
        layers.base.reserve(sizes[0]);
        layers.discs.reserve(sizes[1]);
        layers.marks.reserve(sizes[2]);
        layers
    }

    /// Concentric filled circles, largest first, all in the same layer (so they stack in
    /// order).
    fn circles(&mut self, centre: Pos2, circles: &[(f32, Color32)]) {
        let largest = circles.iter().map(|c| c.0).fold(0.0, f32::max);
        let as_discs = self.discs.fits(largest);
        for &(radius, colour) in circles {
            if as_discs {
                self.discs.disc(centre, radius, colour);
            } else {
                self.marks.circle(centre, radius, colour);
            }
        }
    }

    /// Paints the layers, and says how big they were.
    fn paint(self, painter: &egui::Painter) -> LayerSizes {
        let sizes = [self.base.len(), self.discs.len(), self.marks.len()];
        painter.add(self.base.into_shape());
        painter.add(self.discs.into_shape());
        painter.add(self.marks.into_shape());
        sizes
    }
}

/// The colour of a piece (or a void) drawn as a single texel: its tile's, hue's or team's
/// colour; a locked one paler.
fn flat_colour(look: &Look) -> Color32 {
    match look.shape {
        PieceShape::Tile { value } => palette::tile(value).0,
        PieceShape::Square { colour, locked: false } | PieceShape::Disc { colour, locked: false } => {
            palette::hue(colour)
        }
        PieceShape::Square { colour, locked: true } | PieceShape::Disc { colour, locked: true } => {
            palette::hue(colour).lerp_to_gamma(Color32::from_gray(230), 0.5)
        }
        PieceShape::Unit { team, .. } => palette::hue(team),
        PieceShape::Void => palette::VOID,
        PieceShape::Ground { .. } => Color32::TRANSPARENT,
    }
}

/// How many characters `label` is wide.
fn label_width(label: Label) -> f32 {
    match label {
        Label::Number(n) => n.checked_ilog10().unwrap_or(0) as f32 + 1.0,
        Label::Char(_) => 1.0,
    }
}

/// The smallest label drawn, in points: a smaller one is not readable. A label that would be
/// smaller is drawn at this size when it fits its piece, else left out (hovering the piece
/// shows it).
pub const MIN_LABEL: f32 = 10.0;

/// A label's text.
fn label_text(label: Label) -> String {
    match label {
        Label::Number(n) => n.to_string(),
        Label::Char(c) => c.to_string(),
    }
}

/// A label's shortest text: a number of four digits or more in thousands ("k", of 1024 for a
/// multiple of 1024 as 2048's tiles are: 16384 is "16k") or millions ("M"); else its text.
pub fn short_text(label: Label) -> String {
    let Label::Number(n) = label else { return label_text(label) };
    let (k, m) = if n % 1024 == 0 { (1024, 1024 * 1024) } else { (1000, 1_000_000) };
    if n >= m && n % m == 0 {
        format!("{}M", n / m)
    } else if n >= k && n % k == 0 {
        format!("{}k", n / k)
    } else if n >= 10_000 {
        // Not a round number: its thousands, rounded down, said as such.
        format!("{}k+", n / 1000)
    } else {
        n.to_string()
    }
}

/// The labels of a frame's pieces: each distinct text, size and colour is laid out once and the
/// galley reused for every piece that shows it (laying out text per piece per frame is what
/// made large boards slow).
struct Labels<'a> {
    ctx: &'a egui::Context,
    /// By label, short form or not, size and colour.
    galleys: HashMap<(Label, bool, u32, Color32), Arc<Galley>>,
    shapes: Vec<Shape>,
    /// The smallest size drawn, and how many labels were left out as unreadable.
    smallest: f32,
    dropped: usize,
}

impl<'a> Labels<'a> {
    fn new(ctx: &'a egui::Context) -> Labels<'a> {
        Labels { ctx, galleys: HashMap::new(), shapes: Vec::new(), smallest: f32::MAX, dropped: 0 }
    }

    /// The smallest size drawn (`f32::MAX` for none) and how many labels were left out.
    fn shown(&self) -> (f32, usize) {
        (self.smallest, self.dropped)
    }

    /// `text` centred on `centre`, `size` points high (rounded to half a point; at least
    /// [`MIN_LABEL`], else left out when that does not fit `width`), at `opacity`.
    ///
    /// A number too wide for its piece in full is written short ("16k" for 16384, issue 36.5:
    /// the big tiles of a 24×24 board had no number at the default zoom), as big as that fits.
    fn put(&mut self, text: Label, centre: Pos2, size: f32, width: f32, colour: Color32, opacity: f32) {
        let size = (size * 2.0).round() / 2.0;
        if size < 1.0 {
            return;
        }
        let ctx = self.ctx;
        let mut galley = |short: bool, size: f32| {
            self.galleys
                .entry((text, short, size.to_bits(), colour))
                .or_insert_with(|| {
                    let words = if short { short_text(text) } else { label_text(text) };
                    ctx.fonts_mut(|f| f.layout_no_wrap(words, FontId::proportional(size), colour))
                })
                .clone()
        };
        let fits = |g: &Arc<Galley>| g.size().x <= width * 0.95 && g.size().y <= width * 1.1;
        let full = galley(false, size.max(MIN_LABEL));
        let shown = if fits(&full) {
            Some((full, size.max(MIN_LABEL)))
        } else if short_text(text) != label_text(text) {
            // As big as the short form fits (the size given was for every digit).
            let digits = short_text(text).chars().count() as f32;
            let size = ((width * 1.2 / digits).min(width * 0.45) * 2.0).round() / 2.0;
            let short = galley(true, size.max(MIN_LABEL));
            fits(&short).then_some((short, size.max(MIN_LABEL)))
        } else {
            None
        };
        let Some((galley, size)) = shown else {
            self.dropped += 1;
            return;
        };
        self.smallest = self.smallest.min(size);
        let pos = Align2::CENTER_CENTER.anchor_size(centre, galley.size()).min;
        let shape = TextShape::new(pos, galley, colour).with_opacity_factor(opacity.clamp(0.0, 1.0));
        self.shapes.push(Shape::Text(shape));
    }

    /// The label shapes so far, to paint over the pieces they belong to.
    fn take(&mut self) -> Vec<Shape> {
        std::mem::take(&mut self.shapes)
    }
}

/// One piece in `r` drawn as its look says, at opacity `alpha`; its label only with `detail`.
fn piece(out: &mut Layers<'_>, labels: &mut Labels<'_>, r: Rect, look: &Look, detail: bool, alpha: f32) {
    let fade = |c: Color32| c.gamma_multiply(alpha.clamp(0.0, 1.0));
    let round = (r.width() * 0.12).min(8.0);
    let mut text = |colour: Color32, size: f32| {
        if detail && let Some(label) = look.label {
            labels.put(label, r.center(), size, r.width(), colour, alpha);
        }
    };
    let lock = |out: &mut Layers<'_>| {
        let lock = fade(Color32::from_gray(230));
        out.marks.frame(r.shrink(r.width() * 0.04), round, (r.width() * 0.08).max(1.0), lock);
        let l = Rect::from_center_size(
            r.right_top() + vec2(-r.width() * 0.2, r.width() * 0.2),
            Vec2::splat(r.width() * 0.22),
        );
        out.marks.rounded(l, 2.0, lock);
    };
    match look.shape {
        PieceShape::Tile { value } => {
            let (bg, fg) = palette::tile(value);
            out.base.rounded(r, round, fade(bg));
            let digits = look.label.map_or(1.0, label_width);
            let size = (r.width() * 0.45).min(r.width() * 1.2 / digits);
            text(fg, size);
        }
        PieceShape::Square { colour, locked } => {
            out.base.rounded(r, round, fade(palette::hue(colour)));
            text(Color32::from_black_alpha(150), r.width() * 0.4);
            if locked {
                lock(out);
            }
        }
        PieceShape::Disc { colour, locked } => {
            out.circles(r.center(), &[(r.width() * 0.42, fade(palette::hue(colour)))]);
            text(Color32::from_black_alpha(170), r.width() * 0.4);
            if locked {
                lock(out);
            }
        }
        PieceShape::Unit { team, movement, left } => {
            // Units fill their cell, and stay big enough to find on a zoomed-out map.
            let r = if r.width() < 8.0 { Rect::from_center_size(r.center(), Vec2::splat(8.0)) } else { r };
            let radius = r.width() * 0.46;
            let ring = (r.width() * 0.06).max(1.0);
            // A white rim: a white circle under the team's.
            out.circles(
                r.center(),
                &[(radius, fade(Color32::WHITE)), (radius - ring, fade(palette::hue(team)))],
            );
            let bar = detail && movement > 0;
            if bar {
                // Movement left, as a bar across the lower part of the unit, under its label.
                let frac = (left as f32 / movement as f32).clamp(0.0, 1.0);
                let bar = Rect::from_center_size(
                    r.center() + vec2(0.0, r.height() * 0.25),
                    vec2(r.width() * 0.5, r.height() * 0.09),
                );
                out.marks.rect(bar, fade(Color32::from_black_alpha(190)));
                let filled = Rect::from_min_size(bar.min, vec2(bar.width() * frac, bar.height()));
                out.marks.rect(filled, fade(Color32::from_rgb(0x7c, 0xf0, 0x7c)));
            }
            // The unit's label (its id; its team is its colour), above the bar when there is one.
            if let Some(label) = look.label
                && detail
            {
                let digits = label_width(label);
                let size = (r.width() * if bar { 0.42 } else { 0.5 }).min(r.width() * 1.0 / digits);
                let centre = r.center() - vec2(0.0, if bar { r.height() * 0.07 } else { 0.0 });
                labels.put(label, centre, size, r.width(), Color32::WHITE, alpha);
            }
        }
        PieceShape::Void | PieceShape::Ground { .. } => {}
    }
}

fn half(h: Heading) -> Vec2 {
    let (dx, dy) = h.delta();
    vec2(dx as f32, dy as f32) * 0.5
}

/// Draws `path` with the seed's pieces: straight, corner, and the arrow at the end.
fn draw_path(painter: &egui::Painter, path: &[Pos], origin: Pos2, cell: f32) {
    let Some(glyphs) = path_glyphs(path) else { return };
    let stroke = Stroke::new((cell * 0.14).clamp(1.5, 8.0), palette::PATH);
    let centre = |p: Pos| origin + vec2((f32::from(p.x) + 0.5) * cell, (f32::from(p.y) + 0.5) * cell);
    // From the unit to the edge of its cell.
    if let Some(h) = Heading::between(path[0], path[1]) {
        let c = centre(path[0]);
        painter.line_segment([c, c + half(h) * cell], stroke);
    }
    for (p, g) in path[1..].iter().zip(glyphs) {
        let c = centre(*p);
        match g {
            Glyph::Straight(axis) => {
                let d = match axis {
                    Axis::Horizontal => vec2(0.5, 0.0),
                    Axis::Vertical => vec2(0.0, 0.5),
                    Axis::Falling => vec2(0.5, 0.5),
                    Axis::Rising => vec2(0.5, -0.5),
                } * cell;
                painter.line_segment([c - d, c + d], stroke);
            }
            Glyph::Corner(from, to) => {
                painter.add(Shape::line(vec![c + half(from) * cell, c, c + half(to) * cell], stroke));
            }
            Glyph::Arrow(h) => {
                let d = half(h) * cell;
                painter.line_segment([c - d, c], stroke);
                let tip = c + d * 0.7;
                let side = vec2(-d.y, d.x) * 0.6;
                painter.add(Shape::convex_polygon(
                    vec![tip, c - d * 0.1 + side, c - d * 0.1 - side],
                    palette::PATH,
                    Stroke::NONE,
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::{Level, Rules};

    /// What a frame drew: its shapes, the vertices of its meshes, the textures it uploaded.
    struct Drawn {
        shapes: usize,
        vertices: usize,
        uploaded: Vec<egui::TextureId>,
        pixels_per_point: f32,
    }

    fn frame(ctx: &egui::Context, view: &mut BoardView, mirror: &Mirror, state: &AnyState) -> Drawn {
        let input = egui::RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(1000.0, 760.0))),
            ..Default::default()
        };
        let mut out = ctx.run_ui(input, |ui| {
            view.show(ui, mirror, state, f32::MAX, &Overlay::default());
        });
        let vertices = out
            .shapes
            .iter()
            .map(|s| match &s.shape {
                Shape::Mesh(m) => m.vertices.len(),
                _ => 0,
            })
            .sum();
        let uploaded = out.textures_delta.set.keys().copied().collect();
        out.textures_delta.clear();
        Drawn { shapes: out.shapes.len(), vertices, uploaded, pixels_per_point: out.pixels_per_point }
    }

    fn level(json: &str) -> tessera_core::Game {
        Level::from_json(json).expect("a level").start(Some(1)).expect("it starts")
    }

    /// A whole 64×64 match3 board is a handful of shapes (meshes), not a shape or more per
    /// block; every block is in them (a disc is one quad: four vertices).
    #[test]
    fn a_big_board_is_a_few_meshes() {
        let state = level(r#"{"rule_set":"match3","width":64,"height":64}"#).state;
        let mirror = Mirror::from_state(&state);
        let ctx = egui::Context::default();
        let mut view = BoardView::default();
        frame(&ctx, &mut view, &mirror, &state);
        let drawn = frame(&ctx, &mut view, &mirror, &state);
        assert!(view.cell_size() * drawn.pixels_per_point >= 4.0, "shapes, not a texel per cell");
        assert!(drawn.shapes < 20, "{} shapes", drawn.shapes);
        assert!(drawn.vertices >= 64 * 64 * 4, "{} vertices", drawn.vertices);
    }

    /// Zoomed out until a cell is a few pixels, the pieces are a texture, a texel per cell,
    /// uploaded once and again only when a piece changes.
    #[test]
    fn tiny_cells_are_a_texture_uploaded_on_change() {
        let game = level(r#"{"rule_set":"collapse","width":256,"height":256,"colours":5}"#);
        let mut mirror = Mirror::from_state(&game.state);
        let ctx = egui::Context::default();
        let mut view = BoardView::default();
        let first = frame(&ctx, &mut view, &mirror, &game.state);
        assert!(view.cell_size() * first.pixels_per_point < 4.0);
        let (texture, size) = view.flat.as_ref().map(|(t, s, _)| (t.id(), *s)).expect("a pieces texture");
        assert_eq!(size, [256, 256]);
        assert!(first.uploaded.contains(&texture));
        assert!(first.vertices < 1000, "no mesh per piece: {} vertices", first.vertices);
        let same = frame(&ctx, &mut view, &mirror, &game.state);
        assert!(!same.uploaded.contains(&texture), "nothing changed, nothing uploaded");
        // A tap clears a group: the texels change and are uploaded again.
        let mut after = game.state.clone();
        let mut events = Vec::new();
        let tapped = (0..256u16).flat_map(|y| (0..256u16).map(move |x| Pos::new(x, y))).any(|p| {
            let tap = tessera_core::AnyCommand::Collapse(tessera_core::collapse::CollapseCommand::Tap(p));
            game.rules.apply(&mut after, &tap, &mut events).is_ok()
        });
        assert!(tapped, "a legal tap");
        mirror.begin_step();
        for e in &events {
            mirror.apply(e);
        }
        mirror.begin_step();
        let changed = frame(&ctx, &mut view, &mirror, &after);
        assert!(changed.uploaded.contains(&texture), "the cleared group is uploaded");
    }

    /// Issue 28.13: at fractional cell sizes and any pixel density, neighbouring cells of a
    /// 24×24 board share their edges exactly, every edge is on a whole pixel, and no cell is
    /// more than a pixel off the cell size: no seam of half pixels across the board.
    #[test]
    fn snapped_cells_share_their_edges_on_whole_pixels() {
        for ppp in [1.0f32, 1.25, 1.5, 2.0] {
            for (origin, cell) in
                [(pos2(100.3, 40.7), 18.37f32), (pos2(0.5, 0.25), 27.91), (pos2(13.0, 9.0), 29.166_666)]
            {
                let g = Snapped::new(origin, cell, ppp);
                for y in 0..24u16 {
                    for x in 0..24u16 {
                        let r = g.cell(x, y);
                        assert_eq!(r.max.x, g.cell(x + 1, y).min.x, "shared edge right of ({x}, {y})");
                        assert_eq!(r.max.y, g.cell(x, y + 1).min.y, "shared edge under ({x}, {y})");
                        for v in [r.min.x, r.min.y, r.max.x, r.max.y] {
                            assert!(
                                (v * ppp - (v * ppp).round()).abs() < 1e-3,
                                "{v} on a whole pixel at {ppp}"
                            );
                        }
                        assert!((r.width() - cell).abs() <= 1.0 / ppp + 1e-3, "{} vs {cell}", r.width());
                    }
                }
                // The board spans 24 cells, to the pixel.
                let side = g.corner(24, 24) - g.corner(0, 0);
                assert!((side.x - 24.0 * cell).abs() <= 1.0 / ppp);
            }
        }
    }
}
