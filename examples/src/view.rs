//! A small renderer for the examples' pictures: an orthographic [`Camera`] projects world
//! points (metres, +y up) onto the picture plane, a [`Viewport`] maps that plane onto pixels,
//! and [`draw_items`] paints balls, boxes and capsules back to front (the painter's algorithm), shading
//! each box face by its angle to a fixed light. Good enough for figures; not a 3D engine.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use tumble::math::{Isometry, Point, Vector};
use tumble::Shape;

/// An error of the drawing backend (the SVG writer).
pub type DrawError = DrawingAreaErrorKind<<SVGBackend<'static> as DrawingBackend>::ErrorType>;

/// A white SVG canvas of `width × height` pixels writing to `path` when presented.
pub fn svg_canvas(
    path: &Path,
    width: u32,
    height: u32,
) -> Result<DrawingArea<SVGBackend<'_>, Shift>, DrawError> {
    let area = SVGBackend::new(path, (width, height)).into_drawing_area();
    area.fill(&WHITE)?;
    Ok(area)
}

/// An orthographic camera looking at the origin from direction `(yaw, pitch)`.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    right: [f64; 3],
    up: [f64; 3],
    toward_viewer: [f64; 3],
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn vec3(v: &Vector) -> [f64; 3] {
    [f64::from(v.x), f64::from(v.y), f64::from(v.z)]
}

fn point3(p: &Point) -> [f64; 3] {
    vec3(&p.coords)
}

impl Camera {
    /// A camera on the unit sphere at azimuth `yaw_deg` about +y (0: on the +z axis, looking
    /// towards −z) and elevation `pitch_deg` above the horizon (degrees), +y up on the picture.
    pub fn new(yaw_deg: f64, pitch_deg: f64) -> Self {
        let (yaw, pitch) = (
            yaw_deg.to_radians(),
            pitch_deg.clamp(-89.0, 89.0).to_radians(),
        );
        let d = [
            yaw.sin() * pitch.cos(),
            pitch.sin(),
            yaw.cos() * pitch.cos(),
        ];
        // right = y × d (normalised), up = d × right.
        let n = (d[2] * d[2] + d[0] * d[0]).sqrt();
        let right = [d[2] / n, 0.0, -d[0] / n];
        let up = [
            d[1] * right[2] - d[2] * right[1],
            d[2] * right[0] - d[0] * right[2],
            d[0] * right[1] - d[1] * right[0],
        ];
        Self {
            right,
            up,
            toward_viewer: d,
        }
    }

    /// A camera looking straight along −z (front view: x right, y up).
    pub fn front() -> Self {
        Self::new(0.0, 0.0)
    }

    /// `(u, v, depth)`: picture-plane coordinates (metres, u right, v up) and the distance
    /// behind the picture plane (larger is farther from the viewer).
    pub fn project(&self, p: [f64; 3]) -> [f64; 3] {
        [
            dot(p, self.right),
            dot(p, self.up),
            -dot(p, self.toward_viewer),
        ]
    }

    /// The unit vector from the scene towards the viewer (world frame).
    pub fn toward_viewer(&self) -> [f64; 3] {
        self.toward_viewer
    }

    /// True when a surface with outward normal `n` (world frame) faces the viewer.
    pub fn faces_viewer(&self, n: [f64; 3]) -> bool {
        dot(n, self.toward_viewer) > 1e-9
    }
}

/// Maps the picture plane (metres) onto a pixel rectangle, same scale on both axes.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    centre: [f64; 2],
    pixel_centre: [f64; 2],
    /// Pixels per metre.
    pub scale: f64,
}

impl Viewport {
    /// The viewport showing every projected point of `points` inside a `width × height` pixel
    /// area with `margin` pixels to spare on each side.
    pub fn fit(camera: &Camera, points: &[[f64; 3]], width: u32, height: u32, margin: f64) -> Self {
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in points {
            let q = camera.project(*p);
            for k in 0..2 {
                if q[k].is_finite() {
                    lo[k] = lo[k].min(q[k]);
                    hi[k] = hi[k].max(q[k]);
                }
            }
        }
        if lo[0] > hi[0] {
            (lo, hi) = ([-1.0; 2], [1.0; 2]);
        }
        let span = [(hi[0] - lo[0]).max(1e-6), (hi[1] - lo[1]).max(1e-6)];
        let usable = [
            (f64::from(width) - 2.0 * margin).max(1.0),
            (f64::from(height) - 2.0 * margin).max(1.0),
        ];
        Self {
            centre: [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0],
            pixel_centre: [f64::from(width) / 2.0, f64::from(height) / 2.0],
            scale: (usable[0] / span[0]).min(usable[1] / span[1]),
        }
    }

    /// The same viewport moved by `(dx, dy)` pixels (right, down).
    pub fn shifted(mut self, dx: f64, dy: f64) -> Self {
        self.pixel_centre[0] += dx;
        self.pixel_centre[1] += dy;
        self
    }

    /// The pixel of a projected point `(u, v, _)`.
    pub fn pixel(&self, q: [f64; 3]) -> (i32, i32) {
        let x = self.pixel_centre[0] + (q[0] - self.centre[0]) * self.scale;
        let y = self.pixel_centre[1] - (q[1] - self.centre[1]) * self.scale;
        (
            x.round().clamp(-1e6, 1e6) as i32,
            y.round().clamp(-1e6, 1e6) as i32,
        )
    }
}

/// How an item is painted.
#[derive(Clone, Copy, Debug)]
pub enum Look {
    /// Filled, shaded by the light, with dark outlines.
    Solid(RGBColor),
    /// Edges only (e.g. container walls, so that the inside stays visible).
    Wire(RGBColor),
}

/// One shape to paint, at its world pose.
#[derive(Clone, Debug)]
pub struct Item {
    /// The shape, in its local frame.
    pub shape: Shape,
    /// Its pose (local → world).
    pub pose: Isometry,
    /// How to paint it.
    pub look: Look,
}

/// The direction towards the light, world frame (from above, front-right).
const LIGHT: [f64; 3] = [0.348, 0.870, 0.348];

fn shade(c: RGBColor, n: [f64; 3]) -> RGBColor {
    let k = 0.5 + 0.5 * dot(n, LIGHT).max(0.0);
    let f = |x: u8| (f64::from(x) * k).round().clamp(0.0, 255.0) as u8;
    RGBColor(f(c.0), f(c.1), f(c.2))
}

/// The eight corners of a box (world frame), index bits (x, y, z) = (bit 0, bit 1, bit 2).
fn box_corners(half: &Vector, pose: &Isometry) -> [[f64; 3]; 8] {
    let mut out = [[0.0; 3]; 8];
    for (i, c) in out.iter_mut().enumerate() {
        let s = |bit: usize| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
        let local = Point::new(s(0) * half.x, s(1) * half.y, s(2) * half.z);
        *c = point3(&(pose * local));
    }
    out
}

/// The six faces of a box as corner indices (counter-clockwise seen from outside) and the
/// local axis and sign of their outward normal.
const BOX_FACES: [([usize; 4], usize, f64); 6] = [
    ([0, 4, 6, 2], 0, -1.0),
    ([1, 3, 7, 5], 0, 1.0),
    ([0, 1, 5, 4], 1, -1.0),
    ([2, 6, 7, 3], 1, 1.0),
    ([0, 2, 3, 1], 2, -1.0),
    ([4, 5, 7, 6], 2, 1.0),
];

/// The twelve edges of a box as corner index pairs.
const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// Points that bound an item (box corners, or the ball's centre ± radius along each axis),
/// for [`Viewport::fit`].
pub fn item_points(item: &Item) -> Vec<[f64; 3]> {
    match &item.shape {
        Shape::Cuboid(c) => box_corners(&c.half_extents(), &item.pose).to_vec(),
        Shape::Ball(b) => {
            let c = vec3(&item.pose.translation.vector);
            let r = f64::from(b.radius());
            (0..6)
                .map(|k| {
                    let mut p = c;
                    p[k / 2] += if k % 2 == 0 { r } else { -r };
                    p
                })
                .collect()
        }
        Shape::Capsule(c) => {
            let (a, b) = c.segment(&item.pose);
            let r = f64::from(c.radius());
            [point3(&a), point3(&b)]
                .iter()
                .flat_map(|p| {
                    (0..6).map(move |k| {
                        let mut q = *p;
                        q[k / 2] += if k % 2 == 0 { r } else { -r };
                        q
                    })
                })
                .collect()
        }
        #[allow(unreachable_patterns)]
        other => {
            let a = other.aabb(&item.pose);
            vec![point3(&a.mins), point3(&a.maxs)]
        }
    }
}

/// Something to paint at a depth.
enum Primitive {
    Polygon(Vec<(i32, i32)>, RGBColor),
    Disc((i32, i32), i32, RGBColor),
    Lines(Vec<((i32, i32), (i32, i32))>, RGBColor),
    /// A capsule's outline: the discs at both ends of its projected segment and the band
    /// between them, filled or not.
    Stadium((i32, i32), (i32, i32), i32, RGBColor, bool),
}

/// The four corners of the band of half-width `r` pixels around the segment `a`–`b`, or None
/// when the segment is shorter than a pixel (a capsule seen end on is a disc).
fn band(a: (i32, i32), b: (i32, i32), r: i32) -> Option<[(i32, i32); 4]> {
    let (dx, dy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
    let len = dx.hypot(dy);
    if len < 1.0 {
        return None;
    }
    let (nx, ny) = (
        (-dy / len * f64::from(r)).round() as i32,
        (dx / len * f64::from(r)).round() as i32,
    );
    Some([
        (a.0 + nx, a.1 + ny),
        (b.0 + nx, b.1 + ny),
        (b.0 - nx, b.1 - ny),
        (a.0 - nx, a.1 - ny),
    ])
}

/// The item itself, or for a compound, each part at its world pose with the item's look.
fn compound_parts(item: &Item) -> Vec<Item> {
    match &item.shape {
        Shape::Compound(c) => c
            .children()
            .iter()
            .map(|(p, s)| Item {
                shape: s.clone(),
                pose: item.pose * p,
                look: item.look,
            })
            .collect(),
        _ => vec![item.clone()],
    }
}

/// Paints `items` into `area` through `camera` and `viewport`, far to near.
pub fn draw_items<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    camera: &Camera,
    viewport: &Viewport,
    items: &[Item],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    // A compound is painted as its parts.
    let parts: Vec<Item>;
    let items = if items.iter().any(|i| matches!(i.shape, Shape::Compound(_))) {
        parts = items.iter().flat_map(compound_parts).collect();
        &parts[..]
    } else {
        items
    };
    let mut prims: Vec<(f64, Primitive)> = Vec::new();
    for item in items {
        match (&item.shape, item.look) {
            (Shape::Ball(b), look) => {
                let c = camera.project(vec3(&item.pose.translation.vector));
                let r = (f64::from(b.radius()) * viewport.scale).round().max(1.0) as i32;
                let colour = match look {
                    Look::Solid(c) | Look::Wire(c) => c,
                };
                prims.push((
                    c[2] - f64::from(b.radius()),
                    Primitive::Disc(viewport.pixel(c), r, colour),
                ));
            }
            (Shape::Capsule(c), look) => {
                let (a, b) = c.segment(&item.pose);
                let (pa, pb) = (camera.project(point3(&a)), camera.project(point3(&b)));
                let r = (f64::from(c.radius()) * viewport.scale).round().max(1.0) as i32;
                let (colour, filled) = match look {
                    Look::Solid(c) => (c, true),
                    Look::Wire(c) => (c, false),
                };
                prims.push((
                    (pa[2] + pb[2]) / 2.0 - f64::from(c.radius()),
                    Primitive::Stadium(viewport.pixel(pa), viewport.pixel(pb), r, colour, filled),
                ));
            }
            (Shape::Cuboid(c), Look::Solid(colour)) => {
                let corners = box_corners(&c.half_extents(), &item.pose);
                let rot = item.pose.rotation.to_rotation_matrix();
                for (idx, axis, sign) in BOX_FACES {
                    let n = vec3(&(rot.matrix().column(axis) * sign as f32).into_owned());
                    if !camera.faces_viewer(n) {
                        continue;
                    }
                    let proj: Vec<[f64; 3]> =
                        idx.iter().map(|&i| camera.project(corners[i])).collect();
                    let depth = proj.iter().map(|q| q[2]).sum::<f64>() / 4.0;
                    let pts = proj.iter().map(|q| viewport.pixel(*q)).collect();
                    prims.push((depth, Primitive::Polygon(pts, shade(colour, n))));
                }
            }
            (shape, look) => {
                let colour = match look {
                    Look::Solid(c) | Look::Wire(c) => c,
                };
                let corners = match shape {
                    Shape::Cuboid(c) => box_corners(&c.half_extents(), &item.pose),
                    _ => {
                        let a = shape.aabb(&item.pose);
                        let half = a.half_extents();
                        box_corners(
                            &half,
                            &Isometry::translation(a.center().x, a.center().y, a.center().z),
                        )
                    }
                };
                let proj: Vec<[f64; 3]> = corners.iter().map(|p| camera.project(*p)).collect();
                let depth = proj.iter().map(|q| q[2]).fold(f64::NEG_INFINITY, f64::max);
                let lines = BOX_EDGES
                    .iter()
                    .map(|&(a, b)| (viewport.pixel(proj[a]), viewport.pixel(proj[b])))
                    .collect();
                prims.push((depth, Primitive::Lines(lines, colour)));
            }
        }
    }
    prims.sort_by(|a, b| b.0.total_cmp(&a.0));
    let outline = BLACK.mix(0.55).stroke_width(1);
    for (_, p) in prims {
        match p {
            Primitive::Polygon(pts, colour) => {
                area.draw(&Polygon::new(pts.clone(), colour.filled()))?;
                let mut closed = pts;
                closed.push(closed[0]);
                area.draw(&PathElement::new(closed, outline))?;
            }
            Primitive::Disc(c, r, colour) => {
                area.draw(&Circle::new(c, r, colour.filled()))?;
                area.draw(&Circle::new(c, r, outline))?;
            }
            Primitive::Lines(lines, colour) => {
                for (a, b) in lines {
                    area.draw(&PathElement::new(vec![a, b], colour.stroke_width(1)))?;
                }
            }
            Primitive::Stadium(a, b, r, colour, filled) => {
                let edge = if filled {
                    outline
                } else {
                    colour.stroke_width(1)
                };
                for c in [a, b] {
                    if filled {
                        area.draw(&Circle::new(c, r, colour.filled()))?;
                    }
                    area.draw(&Circle::new(c, r, edge))?;
                }
                if let Some(q) = band(a, b, r) {
                    if filled {
                        area.draw(&Polygon::new(q.to_vec(), colour.filled()))?;
                    }
                    area.draw(&PathElement::new(vec![q[0], q[1]], edge))?;
                    area.draw(&PathElement::new(vec![q[2], q[3]], edge))?;
                }
            }
        }
    }
    Ok(())
}

/// Writes `text` at pixel `(x, y)` (top-left of the text) in a 14-pixel sans-serif font.
pub fn label<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    (x, y): (i32, i32),
    size: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.draw(&Text::new(
        text.to_string(),
        (x, y),
        ("sans-serif", size).into_font(),
    ))
}

/// Draws the legend of `chart`'s labelled series at `position`, in the examples' style: a
/// white, slightly see-through box with a black border.
pub fn draw_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
}

/// The legend mark of a line series (for `.legend(..)`): a 16-pixel stroke in `style`.
pub fn legend_line(style: impl Into<ShapeStyle>) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    let style = style.into();
    move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], style)
}

/// A palette of clear colours for bodies, picked by index.
pub fn body_colour(i: usize) -> RGBColor {
    const COLOURS: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(188, 189, 34),
    ];
    COLOURS[i % COLOURS.len()]
}

/// A picture of the bodies of `world` named by `handles`, at their render poses: `look(i, body)`
/// chooses how body `handles[i]` is painted.
pub fn snapshot(
    world: &tumble::World,
    handles: &[tumble::BodyHandle],
    look: impl Fn(usize, &tumble::BodyView<'_>) -> Look,
) -> Vec<Item> {
    handles
        .iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let body = world.body(*h)?;
            let pose = world.render_pose(*h)?;
            Some(Item {
                shape: body.shape().clone(),
                pose,
                look: look(i, &body),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_camera_keeps_x_right_y_up_and_z_towards_the_viewer() {
        let c = Camera::front();
        assert_eq!(c.project([1.0, 2.0, 3.0]), [1.0, 2.0, -3.0]);
        assert!(c.faces_viewer([0.0, 0.0, 1.0]) && !c.faces_viewer([0.0, 0.0, -1.0]));
    }

    #[test]
    fn camera_basis_is_orthonormal_for_any_angle() {
        for yaw in [-170.0, -30.0, 0.0, 45.0, 120.0] {
            for pitch in [-60.0, 0.0, 25.0, 80.0] {
                let c = Camera::new(yaw, pitch);
                let b = [c.right, c.up, c.toward_viewer];
                for i in 0..3 {
                    for j in 0..3 {
                        let want = if i == j { 1.0 } else { 0.0 };
                        assert!((dot(b[i], b[j]) - want).abs() < 1e-12);
                    }
                }
                assert!(c.up[1] >= 0.0, "picture up is world up-ish");
            }
        }
    }

    #[test]
    fn viewport_fits_the_points_inside_the_margin() {
        let c = Camera::front();
        let pts = [[-2.0, -1.0, 0.0], [4.0, 3.0, 0.0]];
        let v = Viewport::fit(&c, &pts, 400, 300, 10.0);
        for p in pts {
            let (x, y) = v.pixel(c.project(p));
            assert!((9..=391).contains(&x) && (9..=291).contains(&y), "{x},{y}");
        }
        let (x0, y0) = v.pixel(c.project(pts[0]));
        let (x1, y1) = v.pixel(c.project(pts[1]));
        assert!(
            x1 > x0 && y1 < y0,
            "x grows right, y grows up on the picture"
        );
    }
}
