//! [`Cells`]: many small shapes (cell tints, tiles, blocks, units, outlines) built straight into
//! one [`Mesh`] of coloured triangles, instead of one egui shape each; [`Discs`]: circles as
//! textured quads of a prepared disc.
//!
//! Why: a 64×64 board is thousands of shapes a frame, and egui tessellates each one on its own
//! (a path, its feathering, its allocations); a 256×256 board is tens of thousands. Here a plain
//! rectangle is two triangles, and rounded rectangles are convex fans with a one-pixel
//! feathered rim (the anti-aliasing egui's tessellator gives its shapes), with the number of
//! points following the size on screen. Circles up to [`DISC_RADII`]'s largest radius are one
//! quad each, textured with the smallest prepared disc at least as big (egui draws its own small
//! circles the same way, from discs in its font atlas, which it does not share); larger ones
//! are fans. The tessellator then copies each mesh in one go.
//!
//! [`Cells`] vertices use the font atlas's white texel ([`WHITE_UV`]), so that mesh draws with
//! the default texture like any untextured egui shape.

use egui::epaint::{Vertex, WHITE_UV};
use egui::{Color32, ColorImage, Mesh, Pos2, Rect, Shape, TextureId, Vec2, pos2, vec2};

/// A mesh of coloured shapes being built.
pub(super) struct Cells {
    mesh: Mesh,
    /// One physical pixel, in points: the width of the feathered rim.
    px: f32,
    /// Unit directions around a circle, for the last few point counts asked for.
    dirs: Vec<(usize, Vec<Vec2>)>,
}

impl Cells {
    /// An empty mesh for a screen of `pixels_per_point`.
    pub(super) fn new(pixels_per_point: f32) -> Cells {
        Cells { mesh: Mesh::default(), px: 1.0 / pixels_per_point.max(0.1), dirs: Vec::new() }
    }

    /// Room for `vertices` and `indices` more, so a frame's mesh is not grown (and copied)
    /// step by step.
    pub(super) fn reserve(&mut self, (vertices, indices): (usize, usize)) {
        self.mesh.vertices.reserve(vertices);
        self.mesh.indices.reserve(indices);
    }

    /// How many vertices and indices the mesh holds.
    pub(super) fn len(&self) -> (usize, usize) {
        (self.mesh.vertices.len(), self.mesh.indices.len())
    }

    /// One physical pixel, in points.
    pub(super) fn px(&self) -> f32 {
        self.px
    }

    /// The shape to paint (nothing when empty).
    pub(super) fn into_shape(self) -> Shape {
        if self.mesh.is_empty() { Shape::Noop } else { Shape::mesh(self.mesh) }
    }

    fn vertex(&mut self, pos: Pos2, color: Color32) -> u32 {
        let i = self.mesh.vertices.len() as u32;
        self.mesh.vertices.push(Vertex { pos, uv: WHITE_UV, color });
        i
    }

    fn triangle(&mut self, a: u32, b: u32, c: u32) {
        self.mesh.indices.extend_from_slice(&[a, b, c]);
    }

    /// A filled axis-aligned rectangle, not feathered (cell tints, grid lines, tiny tiles).
    pub(super) fn rect(&mut self, r: Rect, color: Color32) {
        if color == Color32::TRANSPARENT || !r.is_positive() {
            return;
        }
        let a = self.vertex(r.left_top(), color);
        self.vertex(r.right_top(), color);
        self.vertex(r.right_bottom(), color);
        self.vertex(r.left_bottom(), color);
        self.triangle(a, a + 1, a + 2);
        self.triangle(a, a + 2, a + 3);
    }

    /// Unit directions of `n` points around a circle, clockwise on screen from +x.
    fn directions(&mut self, n: usize) -> usize {
        if let Some(i) = self.dirs.iter().position(|(k, _)| *k == n) {
            return i;
        }
        let step = std::f32::consts::TAU / n as f32;
        let d = (0..n).map(|i| Vec2::angled(i as f32 * step)).collect();
        self.dirs.push((n, d));
        self.dirs.len() - 1
    }

    /// Points on a circle of `radius` points: enough to look round at that size.
    fn circle_points(&self, radius: f32) -> usize {
        let r = radius / self.px;
        match r {
            r if r <= 3.0 => 8,
            r if r <= 8.0 => 12,
            r if r <= 20.0 => 20,
            r if r <= 50.0 => 32,
            _ => 48,
        }
    }

    /// The outline of `r` with corners of `radius`: points with their outward normals (a
    /// corner too small to see is one point with a diagonal normal, which offsets both of its
    /// edges by the same distance).
    fn outline(&mut self, r: Rect, radius: f32, out: &mut Vec<(Pos2, Vec2)>) {
        out.clear();
        let radius = radius.min(r.width() / 2.0).min(r.height() / 2.0).max(0.0);
        let corners = [
            (pos2(r.max.x - radius, r.max.y - radius), vec2(1.0, 1.0)),
            (pos2(r.min.x + radius, r.max.y - radius), vec2(-1.0, 1.0)),
            (pos2(r.min.x + radius, r.min.y + radius), vec2(-1.0, -1.0)),
            (pos2(r.max.x - radius, r.min.y + radius), vec2(1.0, -1.0)),
        ];
        if radius < 2.0 * self.px {
            // Corners of a pixel or two do not show: a sharp corner, four points in all.
            out.extend(corners.iter().map(|&(c, d)| (c + d * radius, d)));
            return;
        }
        let per = (self.circle_points(radius) / 4).max(2);
        let dirs = self.directions(per * 4);
        let dirs = &self.dirs[dirs].1;
        for (k, &(c, _)) in corners.iter().enumerate() {
            for i in 0..=per {
                let d = dirs[(k * per + i) % dirs.len()];
                out.push((c + d * radius, d));
            }
        }
    }

    /// A filled convex path (points in order, with outward normals), its rim feathered.
    fn fill_path(&mut self, path: &[(Pos2, Vec2)], color: Color32) {
        let n = path.len() as u32;
        if n < 3 || color == Color32::TRANSPARENT {
            return;
        }
        let f = self.px * 0.5;
        let base = self.mesh.vertices.len() as u32;
        self.mesh.vertices.reserve(path.len() * 2);
        self.mesh.indices.reserve(path.len() * 9);
        for &(p, d) in path {
            self.vertex(p - d * f, color);
            self.vertex(p + d * f, Color32::TRANSPARENT);
        }
        for i in 1..n - 1 {
            self.triangle(base, base + 2 * i, base + 2 * (i + 1));
        }
        for i in 0..n {
            let j = (i + 1) % n;
            let (ai, ao, bi, bo) = (base + 2 * i, base + 2 * i + 1, base + 2 * j, base + 2 * j + 1);
            self.triangle(ai, ao, bi);
            self.triangle(ao, bo, bi);
        }
    }

    /// A band between two paths of as many points (`outer` and `inner`, each with outward
    /// normals), both rims feathered.
    fn band(&mut self, outer: &[(Pos2, Vec2)], inner: &[(Pos2, Vec2)], color: Color32) {
        let n = outer.len() as u32;
        if n < 3 || inner.len() != outer.len() || color == Color32::TRANSPARENT {
            return;
        }
        let f = self.px * 0.5;
        let base = self.mesh.vertices.len() as u32;
        for (&(o, od), &(i, id)) in outer.iter().zip(inner) {
            self.vertex(o + od * f, Color32::TRANSPARENT);
            self.vertex(o - od * f, color);
            self.vertex(i + id * f, color);
            self.vertex(i - id * f, Color32::TRANSPARENT);
        }
        for k in 0..n {
            let (a, b) = (base + 4 * k, base + 4 * ((k + 1) % n));
            for s in 0..3 {
                self.triangle(a + s, a + s + 1, b + s);
                self.triangle(a + s + 1, b + s + 1, b + s);
            }
        }
    }

    /// A filled rectangle with rounded corners; plain when the corners or the rectangle are
    /// too small to see the difference.
    pub(super) fn rounded(&mut self, r: Rect, radius: f32, color: Color32) {
        if r.width() < 4.0 * self.px || r.height() < 4.0 * self.px {
            return self.rect(r, color);
        }
        let mut path = Vec::new();
        self.outline(r, radius, &mut path);
        self.fill_path(&path, color);
    }

    /// A rectangle's outline of `width`, inside `r`, with corners of `radius`.
    pub(super) fn frame(&mut self, r: Rect, radius: f32, width: f32, color: Color32) {
        let width = width.min(r.width() / 2.0).min(r.height() / 2.0);
        if width <= 0.0 {
            return;
        }
        if r.width() < 4.0 * self.px || width < 1.5 * self.px {
            // Thin or tiny: four plain strips.
            let (x0, x1, y0, y1) = (r.min.x, r.max.x, r.min.y, r.max.y);
            self.rect(Rect::from_min_max(pos2(x0, y0), pos2(x1, y0 + width)), color);
            self.rect(Rect::from_min_max(pos2(x0, y1 - width), pos2(x1, y1)), color);
            self.rect(Rect::from_min_max(pos2(x0, y0 + width), pos2(x0 + width, y1 - width)), color);
            self.rect(Rect::from_min_max(pos2(x1 - width, y0 + width), pos2(x1, y1 - width)), color);
            return;
        }
        let mut outer = Vec::new();
        self.outline(r, radius, &mut outer);
        // The inner edge: the same corner centres, `width` further in (a sharp corner when the
        // radius is smaller than the width).
        let inner_radius = radius.min(r.width() / 2.0).min(r.height() / 2.0) - width;
        let inner: Vec<(Pos2, Vec2)> = if inner_radius >= 0.0 {
            outer.iter().map(|&(p, d)| (p - d * width, d)).collect()
        } else {
            let shrunk = r.shrink(width);
            outer
                .iter()
                .map(|&(p, d)| {
                    let corner = pos2(
                        if p.x > r.center().x { shrunk.max.x } else { shrunk.min.x },
                        if p.y > r.center().y { shrunk.max.y } else { shrunk.min.y },
                    );
                    let diagonal = vec2(d.x.signum(), d.y.signum());
                    (corner, diagonal)
                })
                .collect()
        };
        self.band(&outer, &inner, color);
    }

    /// A filled circle; a plain square when smaller than a few pixels.
    pub(super) fn circle(&mut self, centre: Pos2, radius: f32, color: Color32) {
        if radius < 1.5 * self.px {
            return self.rect(Rect::from_center_size(centre, Vec2::splat(radius * 2.0)), color);
        }
        let n = self.circle_points(radius);
        let dirs = self.directions(n);
        let path: Vec<(Pos2, Vec2)> = self.dirs[dirs].1.iter().map(|&d| (centre + d * radius, d)).collect();
        self.fill_path(&path, color);
    }
}

/// Radii, in texels, of the prepared discs (each in a square of `2 r + 2` texels).
pub(super) const DISC_RADII: [f32; 6] = [2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// Where each prepared disc is in the disc texture: radius, square side (texels) and uv rect.
#[derive(Clone, Debug)]
pub(super) struct DiscAtlas {
    discs: Vec<(f32, f32, Rect)>,
}

impl DiscAtlas {
    /// The texture (white, its alpha the disc's coverage of each texel, so edges are smooth)
    /// and where the discs are in it.
    pub(super) fn build() -> (ColorImage, DiscAtlas) {
        let sides: Vec<usize> = DISC_RADII.iter().map(|&r| 2 * r as usize + 2).collect();
        let (w, h) = (sides.iter().sum::<usize>(), sides.iter().copied().max().unwrap_or(1));
        let mut pixels = vec![Color32::TRANSPARENT; w * h];
        let mut discs = Vec::new();
        let mut x0 = 0;
        for (&r, &side) in DISC_RADII.iter().zip(&sides) {
            let c = side as f32 / 2.0;
            for y in 0..side {
                for x in 0..side {
                    let d = vec2(x as f32 + 0.5 - c, y as f32 + 0.5 - c).length();
                    let coverage = (r + 0.5 - d).clamp(0.0, 1.0);
                    pixels[y * w + x0 + x] = Color32::from_white_alpha((coverage * 255.0).round() as u8);
                }
            }
            let uv = Rect::from_min_size(
                pos2(x0 as f32 / w as f32, 0.0),
                vec2(side as f32 / w as f32, side as f32 / h as f32),
            );
            discs.push((r, side as f32, uv));
            x0 += side;
        }
        (ColorImage::new([w, h], pixels), DiscAtlas { discs })
    }
}

/// Circles as textured quads of prepared discs.
pub(super) struct Discs<'a> {
    mesh: Mesh,
    atlas: &'a DiscAtlas,
    pixels_per_point: f32,
}

impl<'a> Discs<'a> {
    /// An empty mesh of discs from the texture `texture` laid out as `atlas`.
    pub(super) fn new(texture: TextureId, atlas: &'a DiscAtlas, pixels_per_point: f32) -> Discs<'a> {
        Discs { mesh: Mesh::with_texture(texture), atlas, pixels_per_point }
    }

    /// Room for `vertices` and `indices` more (see [`Cells::reserve`]).
    pub(super) fn reserve(&mut self, (vertices, indices): (usize, usize)) {
        self.mesh.vertices.reserve(vertices);
        self.mesh.indices.reserve(indices);
    }

    /// How many vertices and indices the mesh holds.
    pub(super) fn len(&self) -> (usize, usize) {
        (self.mesh.vertices.len(), self.mesh.indices.len())
    }

    /// The prepared disc for a circle of `radius` points, if one is big enough: as egui picks
    /// its discs, a little larger than needed, so edges stay crisp.
    fn pick(&self, radius: f32) -> Option<(f32, f32, Rect)> {
        let wanted = radius * self.pixels_per_point * 2f32.powf(0.25);
        self.atlas.discs.iter().find(|(r, _, _)| *r >= wanted).copied()
    }

    /// Whether a circle of `radius` points is drawn as a disc.
    pub(super) fn fits(&self, radius: f32) -> bool {
        self.pick(radius).is_some()
    }

    /// A filled circle, if a prepared disc is big enough for it (`false`: draw it some other
    /// way).
    pub(super) fn disc(&mut self, centre: Pos2, radius: f32, color: Color32) -> bool {
        let Some((r, side, uv)) = self.pick(radius) else { return false };
        if color != Color32::TRANSPARENT && radius > 0.0 {
            let quad = Rect::from_center_size(centre, Vec2::splat(radius * side / r));
            self.mesh.add_rect_with_uv(quad, uv, color);
        }
        true
    }

    /// The shape to paint (nothing when empty).
    pub(super) fn into_shape(self) -> Shape {
        if self.mesh.is_empty() { Shape::Noop } else { Shape::mesh(self.mesh) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(c: &Cells) -> Rect {
        c.mesh.calc_bounds()
    }

    #[test]
    fn shapes_cover_their_rectangle_and_index_their_own_vertices() {
        let mut c = Cells::new(1.0);
        let r = Rect::from_min_size(pos2(10.0, 20.0), vec2(30.0, 30.0));
        c.rounded(r, 4.0, Color32::RED);
        // The feathered rim reaches half a pixel past the shape.
        assert_eq!(bounds(&c), r.expand(0.5));
        c.frame(r, 4.0, 3.0, Color32::WHITE);
        c.circle(r.center(), 12.0, Color32::BLUE);
        c.rect(Rect::from_min_size(pos2(0.0, 0.0), vec2(2.0, 2.0)), Color32::GREEN);
        assert!(c.mesh.is_valid());
        assert_eq!(c.mesh.indices.len() % 3, 0);
        assert_eq!(bounds(&c).min, pos2(0.0, 0.0));
    }

    #[test]
    fn discs_are_quads_of_the_smallest_disc_that_is_big_enough() {
        let (image, atlas) = DiscAtlas::build();
        assert_eq!(image.size[1], 130);
        // The centre of a disc is opaque, its square's corner empty.
        assert_eq!(image.pixels[65 * image.size[0] + image.size[0] - 65].a(), 255);
        assert_eq!(image.pixels[0].a(), 0);
        let mut d = Discs::new(TextureId::default(), &atlas, 1.0);
        assert!(d.disc(pos2(10.0, 10.0), 5.0, Color32::RED));
        // 5 px wants a disc of 8 texels (18 wide): the quad is scaled to match.
        assert_eq!(d.mesh.calc_bounds(), Rect::from_center_size(pos2(10.0, 10.0), Vec2::splat(11.25)));
        assert!(!d.disc(pos2(0.0, 0.0), 60.0, Color32::RED), "too big for the largest disc");
    }

    #[test]
    fn tiny_shapes_are_plain_quads() {
        let mut c = Cells::new(1.0);
        c.circle(pos2(5.0, 5.0), 1.0, Color32::RED);
        c.rounded(Rect::from_min_size(pos2(0.0, 0.0), vec2(3.0, 3.0)), 0.4, Color32::RED);
        assert_eq!(c.mesh.vertices.len(), 8);
        assert_eq!(c.mesh.indices.len(), 12);
    }

    #[test]
    fn transparent_and_empty_shapes_add_nothing() {
        let mut c = Cells::new(2.0);
        c.rect(Rect::from_min_size(pos2(0.0, 0.0), vec2(5.0, 5.0)), Color32::TRANSPARENT);
        c.rect(Rect::NOTHING, Color32::RED);
        c.frame(Rect::from_min_size(pos2(0.0, 0.0), vec2(5.0, 5.0)), 1.0, 0.0, Color32::RED);
        assert!(matches!(c.into_shape(), Shape::Noop));
    }
}
