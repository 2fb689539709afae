//! [`BoardView`]: draws a [`Mirror`] with the painter — only the cells in view — with pan, zoom,
//! animations and overlays, and turns pointer input into cells.
//!
//! Ground (terrain) of tactics maps is one texture, a texel per cell, built once per map: a
//! 1024×1024 Moving AI map costs one quad to draw at any zoom. Pieces are drawn per visible
//! cell; pieces that are animating this step are drawn from their animation instead, wherever
//! they are. Detail follows the zoom: letters only when a cell is big enough to read them.

use crate::anim::{self, Pose};
use crate::palette;
use egui::{
    Align2, Color32, ColorImage, CornerRadius, FontId, PointerButton, Pos2, Rect, Sense, Shape, Stroke,
    StrokeKind, TextureHandle, TextureOptions, Vec2, pos2, vec2,
};
use tessera_core::tactics::{Axis, Glyph, Heading, path_glyphs};
use tessera_core::{AnyState, Pos, Size};
use tessera_ecs::{Anim, AnimKind, Kind, Mirror, Trail};

/// Smallest and largest cell, in points.
const MIN_CELL: f32 = 0.25;
const MAX_CELL: f32 = 160.0;

/// What to draw over the board besides the pieces.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    /// Cells to outline (the step's touched cells, a hovered group, a hint).
    pub highlights: Vec<Pos>,
    /// The selected cell.
    pub selected: Option<Pos>,
    /// A movement range to tint.
    pub range: Vec<Pos>,
    /// A path to draw with the seed's straight, corner and arrow pieces.
    pub path: Vec<Pos>,
    /// A small label at the pointer (what a tap would score).
    pub tooltip: Option<String>,
}

/// What the pointer did on the board this frame.
#[derive(Clone, Debug, Default)]
pub struct BoardInput {
    /// The cell under the pointer.
    pub hovered: Option<Pos>,
    /// A cell clicked with the primary button.
    pub clicked: Option<Pos>,
    /// A primary-button drag that ended: the cell it started on and its movement in cells.
    pub swipe: Option<(Pos, Vec2)>,
}

/// Pan and zoom of one board, and its cached ground texture.
#[derive(Default)]
pub struct BoardView {
    /// Points per cell (0 = fit on the next frame).
    cell: f32,
    /// Board origin relative to the widget's top-left corner.
    offset: Vec2,
    /// The board size the view was fitted to.
    fitted: Option<Size>,
    ground: Option<(u64, TextureHandle)>,
    /// The cell a primary drag started on, and where the press was.
    drag_from: Option<(Pos, Pos2)>,
    /// Where the board was drawn in the last frame (screen position of cell (0, 0)'s corner).
    last_origin: Option<Pos2>,
}

impl BoardView {
    /// Fits the whole board into view on the next frame.
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
        let size = mirror.size();
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, palette::BACKGROUND);

        if self.cell <= 0.0 || self.fitted != Some(size) {
            self.fit_to(rect, size);
        }
        self.pan_and_zoom(ui, &response, rect);
        let origin = rect.min + self.offset;
        self.last_origin = Some(origin);
        let cell = self.cell;
        let cell_rect =
            |x: f32, y: f32| Rect::from_min_size(origin + vec2(x * cell, y * cell), Vec2::splat(cell));

        // The cells in view.
        let (w, h) = (f32::from(size.width), f32::from(size.height));
        let x0 = ((rect.min.x - origin.x) / cell).floor().clamp(0.0, w) as u16;
        let x1 = ((rect.max.x - origin.x) / cell).ceil().clamp(0.0, w) as u16;
        let y0 = ((rect.min.y - origin.y) / cell).floor().clamp(0.0, h) as u16;
        let y1 = ((rect.max.y - origin.y) / cell).ceil().clamp(0.0, h) as u16;
        let board_rect = Rect::from_min_size(origin, vec2(w * cell, h * cell));

        // Ground.
        if let AnyState::Tactics(t) = state {
            let tex = self.ground_texture(ui.ctx(), t);
            let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
            painter.image(tex, board_rect, uv, Color32::WHITE);
        } else {
            painter.rect_filled(board_rect, 0.0, palette::EMPTY);
        }
        let gap = if cell >= 8.0 { (cell * 0.06).max(1.0) } else { 0.0 };
        let detail = cell >= 14.0;
        // Only match3 has void cells; tactics ground is the texture above.
        let voids = if matches!(state, AnyState::Match3(_)) { y0..y1 } else { 0..0 };
        for y in voids {
            for x in x0..x1 {
                let pos = Pos::new(x, y);
                if let Some(e) = mirror.ground_at(pos)
                    && let Ok(kind) = mirror.world().get::<&Kind>(e)
                    && matches!(*kind, Kind::Void)
                {
                    painter.rect_filled(cell_rect(x.into(), y.into()), 0.0, palette::VOID);
                }
            }
        }
        if cell >= 10.0 && !matches!(state, AnyState::Tactics(_)) {
            // Cell backgrounds, so empty cells read as cells.
            for y in y0..y1 {
                for x in x0..x1 {
                    let r = cell_rect(x.into(), y.into()).shrink(gap / 2.0);
                    painter.rect_stroke(r, 2.0, Stroke::new(1.0, palette::BACKGROUND), StrokeKind::Inside);
                }
            }
        } else if cell >= 10.0 {
            let stroke = Stroke::new(1.0, Color32::from_black_alpha(40));
            for x in x0..=x1 {
                let px = origin.x + f32::from(x) * cell;
                painter.line_segment(
                    [pos2(px, origin.y + f32::from(y0) * cell), pos2(px, origin.y + f32::from(y1) * cell)],
                    stroke,
                );
            }
            for y in y0..=y1 {
                let py = origin.y + f32::from(y) * cell;
                painter.line_segment(
                    [pos2(origin.x + f32::from(x0) * cell, py), pos2(origin.x + f32::from(x1) * cell, py)],
                    stroke,
                );
            }
        }

        // Overlays under the pieces.
        for &p in &overlay.range {
            painter.rect_filled(cell_rect(p.x.into(), p.y.into()), 0.0, palette::RANGE);
        }

        // Pieces at rest.
        let mut shapes = Vec::new();
        for y in y0..y1 {
            for x in x0..x1 {
                let pos = Pos::new(x, y);
                let Some(e) = mirror.piece_at(pos) else { continue };
                let Ok(er) = mirror.world().entity(e) else { continue };
                if er.get::<&Anim>().is_some() {
                    continue;
                }
                let Some(kind) = er.get::<&Kind>() else { continue };
                let r = cell_rect(x.into(), y.into()).shrink(gap);
                piece(&mut shapes, ui, r, &kind, detail, 1.0, 1.0);
            }
        }
        painter.extend(shapes);

        // Animated pieces and ghosts, wherever they are.
        let mut shapes = Vec::new();
        let view = rect.expand(cell);
        for (kind, trail) in mirror.world().query::<(&Kind, &Trail)>().iter() {
            let Some(a) = anim::current(&trail.0, at) else { continue };
            let Some(p) = anim::pose(a, at) else { continue };
            let r = posed_rect(origin, cell, p).shrink(gap * p.scale);
            if view.intersects(r) {
                let mut kind = *kind;
                if a.kind == AnimKind::Unlock
                    && let Kind::Block { locked, .. } = &mut kind
                {
                    // Draw the lock fading out.
                    *locked = anim::lock_shown(a, at, mirror.reversed());
                }
                piece(&mut shapes, ui, r, &kind, detail, p.alpha, p.scale);
            }
        }
        for g in mirror.ghosts() {
            // Moves before it left (a fall in an earlier cascade level), then its exit.
            let p = match anim::current(&g.trail, at) {
                Some(a) if a != &g.anim => anim::pose(a, at),
                _ => anim::ghost_pose(&g.anim, at),
            };
            let Some(p) = p else { continue };
            let r = posed_rect(origin, cell, p).shrink(gap * p.scale);
            if view.intersects(r) {
                piece(&mut shapes, ui, r, &g.kind, detail, p.alpha, p.scale);
            }
        }
        painter.extend(shapes);

        // Overlays over the pieces.
        let hl = Stroke::new((cell * 0.08).clamp(1.0, 4.0), palette::HIGHLIGHT);
        for &p in &overlay.highlights {
            painter.rect_stroke(cell_rect(p.x.into(), p.y.into()), 2.0, hl, StrokeKind::Inside);
        }
        if let Some(p) = overlay.selected {
            let s = Stroke::new((cell * 0.1).clamp(1.5, 5.0), palette::SELECTED);
            painter.rect_stroke(cell_rect(p.x.into(), p.y.into()), 3.0, s, StrokeKind::Inside);
        }
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
        if let (Some(text), Some(p)) = (&overlay.tooltip, response.hover_pos()) {
            let galley = painter.layout_no_wrap(text.clone(), FontId::proportional(14.0), Color32::WHITE);
            let r = Rect::from_min_size(p + vec2(14.0, 10.0), galley.size()).expand(4.0);
            painter.rect_filled(r, 4.0, Color32::from_black_alpha(200));
            painter.galley(r.min + vec2(4.0, 4.0), galley, Color32::WHITE);
        }
        input
    }

    fn fit_to(&mut self, rect: Rect, size: Size) {
        let (w, h) = (f32::from(size.width), f32::from(size.height));
        let margin = 12.0;
        let cell = ((rect.width() - 2.0 * margin) / w).min((rect.height() - 2.0 * margin) / h);
        self.cell = cell.clamp(MIN_CELL, 96.0);
        self.offset = (rect.size() - vec2(w, h) * self.cell) / 2.0;
        self.fitted = Some(size);
    }

    fn pan_and_zoom(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect) {
        if response.dragged_by(PointerButton::Secondary) || response.dragged_by(PointerButton::Middle) {
            self.offset += response.drag_delta();
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
            }
        }
        if response.double_clicked_by(PointerButton::Secondary) {
            self.cell = 0.0;
        }
    }

    fn ground_texture(
        &mut self,
        ctx: &egui::Context,
        t: &tessera_core::tactics::TacticsState,
    ) -> egui::TextureId {
        let terrain = t.terrain();
        let cells = terrain.cells().cells();
        // A cheap fingerprint of the map: its size and a sample of its cells.
        let mut key = (u64::from(terrain.size().width) << 16) ^ u64::from(terrain.size().height);
        let stride = (cells.len() / 4096).max(1);
        for (i, &c) in cells.iter().enumerate().step_by(stride) {
            key = key.rotate_left(5) ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(c);
        }
        if let Some((k, tex)) = &self.ground
            && *k == key
        {
            return tex.id();
        }
        let legend: Vec<Color32> =
            terrain.legend().iter().enumerate().map(|(i, tt)| palette::terrain(tt, i as u8)).collect();
        let size = [usize::from(terrain.size().width), usize::from(terrain.size().height)];
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

/// One piece in `r`.
fn piece(out: &mut Vec<Shape>, ui: &egui::Ui, r: Rect, kind: &Kind, detail: bool, alpha: f32, _scale: f32) {
    let fade = |c: Color32| c.gamma_multiply(alpha.clamp(0.0, 1.0));
    let round = CornerRadius::from((r.width() * 0.12).min(8.0));
    let text = |out: &mut Vec<Shape>, s: String, colour: Color32, size: f32| {
        if detail {
            let font = FontId::proportional(size);
            out.push(
                ui.ctx()
                    .fonts_mut(|f| Shape::text(f, r.center(), Align2::CENTER_CENTER, s, font, fade(colour))),
            );
        }
    };
    match *kind {
        Kind::SlideTile { value } => {
            let (bg, fg) = palette::tile(value);
            out.push(Shape::rect_filled(r, round, fade(bg)));
            let digits = value.to_string().len() as f32;
            let size = (r.width() * 0.45).min(r.width() * 1.2 / digits.max(1.0));
            text(out, value.to_string(), fg, size);
        }
        Kind::CollapseTile { colour } => {
            out.push(Shape::rect_filled(r, round, fade(palette::hue(colour))));
            text(
                out,
                tessera_core::collapse::colour_char(colour).to_string(),
                Color32::from_black_alpha(150),
                r.width() * 0.4,
            );
        }
        Kind::Block { breed, locked } => {
            let c = palette::hue(breed);
            out.push(Shape::circle_filled(r.center(), r.width() * 0.42, fade(c)));
            text(
                out,
                char::from(b'A' + breed % 26).to_string(),
                Color32::from_black_alpha(170),
                r.width() * 0.4,
            );
            if locked {
                let s = Stroke::new((r.width() * 0.08).max(1.0), fade(Color32::from_gray(230)));
                out.push(Shape::rect_stroke(r.shrink(r.width() * 0.04), round, s, StrokeKind::Inside));
                let l = Rect::from_center_size(
                    r.right_top() + vec2(-r.width() * 0.2, r.width() * 0.2),
                    Vec2::splat(r.width() * 0.22),
                );
                out.push(Shape::rect_filled(l, 2.0, fade(Color32::from_gray(230))));
            }
        }
        Kind::Unit { team, movement, left } => {
            let c = palette::hue(team);
            out.push(Shape::circle_filled(r.center(), r.width() * 0.38, fade(c)));
            out.push(Shape::circle_stroke(
                r.center(),
                r.width() * 0.38,
                Stroke::new((r.width() * 0.05).max(1.0), fade(Color32::WHITE)),
            ));
            if detail && movement > 0 {
                // Movement left, as a bar under the unit.
                let frac = (left as f32 / movement as f32).clamp(0.0, 1.0);
                let bar = Rect::from_min_size(
                    r.left_bottom() + vec2(r.width() * 0.15, -r.height() * 0.12),
                    vec2(r.width() * 0.7, r.height() * 0.07),
                );
                out.push(Shape::rect_filled(bar, 1.0, fade(Color32::from_black_alpha(160))));
                out.push(Shape::rect_filled(
                    Rect::from_min_size(bar.min, vec2(bar.width() * frac, bar.height())),
                    1.0,
                    fade(Color32::from_rgb(0x7c, 0xf0, 0x7c)),
                ));
            }
            text(out, format!("{}", team), Color32::WHITE, r.width() * 0.38);
        }
        Kind::Void | Kind::Terrain { .. } => {}
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
