//! The exact distance between any two planar shapes, with their closest points.
//!
//! Every shape but the line is a convex *core* — a point, a segment or a convex polygon (a
//! rectangle is its four corners) — grown by a radius (a circle is a point grown by its
//! radius, the others have radius 0). Two cores overlap when an edge of one meets an edge of
//! the other or a corner of one is inside the other polygon; otherwise their closest points
//! are a corner of one and a point of an edge of the other (Ericson, RTCD §5.1.2 and §9.1:
//! the closest pair of two disjoint convex polygons has a vertex on one side), found by trying
//! every corner against every edge: `O(n m)` for `n` and `m` corners, meant for the few
//! corners of game polygons. The shapes' distance is then the cores' minus both radii. A line
//! is the set `normal · x = offset`: its distance to a core is the gap between that offset and
//! the core's projection on the normal. Two lines cross unless the sine of their angle is at
//! most 10⁻⁶; such lines count as parallel, at the distance between their offsets.
//!
//! This is the exact distance of apart shapes. The [`SatResult`](super::SatResult) of the
//! separating-axis tests is not: its `separation` of an apart pair is only the gap along the
//! best candidate axis, a lower bound of the distance (equal to it when the closest features
//! are parallel edges, or for a circle against a polygon edge); its `separation` of an
//! overlapping pair is exact, minus the penetration depth.

use super::convex::ConvexPolygon;
use super::segments::{closest_points_raw, intersection_points};
use super::shapes::{Circle, Line, Rect, Segment};
use crate::math::{Point2, Real, Vector2};

/// A borrowed planar shape of any kind, the argument of [`distance`] and [`closest_points`]
/// (each takes `impl Into<PlanarShape>`: a `Point2`, or a reference to a [`Segment`],
/// [`Line`], [`Circle`], [`ConvexPolygon`] or [`Rect`]). Coordinates in metres, in the plane's
/// one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlanarShape<'a> {
    /// A single point.
    Point(Point2),
    /// A segment.
    Segment(&'a Segment),
    /// An infinite line.
    Line(&'a Line),
    /// A solid disc.
    Circle(&'a Circle),
    /// A solid convex polygon.
    Polygon(&'a ConvexPolygon),
    /// A solid rectangle.
    Rect(&'a Rect),
}

impl From<Point2> for PlanarShape<'_> {
    fn from(p: Point2) -> Self {
        PlanarShape::Point(p)
    }
}

impl From<&Point2> for PlanarShape<'_> {
    fn from(p: &Point2) -> Self {
        PlanarShape::Point(*p)
    }
}

/// `From<&Concrete>` for [`PlanarShape`], one impl per `Concrete => Variant`.
macro_rules! planar_view {
    ($($concrete:ty => $variant:ident),+ $(,)?) => {$(
        impl<'a> From<&'a $concrete> for PlanarShape<'a> {
            #[inline]
            fn from(s: &'a $concrete) -> Self {
                PlanarShape::$variant(s)
            }
        }
    )+};
}

planar_view! {
    Segment => Segment,
    Line => Line,
    Circle => Circle,
    ConvexPolygon => Polygon,
    Rect => Rect,
}

/// How two planar shapes lie, with their closest points (metres, the plane's frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlanarProximity {
    /// The shapes are apart.
    Apart {
        /// Their distance, metres (> 0): `|point_b − point_a|`.
        distance: Real,
        /// The point of A nearest B.
        point_a: Point2,
        /// The point of B nearest A.
        point_b: Point2,
        /// Unit direction from `point_a` toward `point_b` (from A toward B).
        normal: Vector2,
    },
    /// The shapes touch or overlap (distance 0); `point` belongs to both (to rounding). For
    /// their penetration depth use the separating-axis tests ([`super::polygon_polygon`]
    /// and the others), whose separation of an overlapping pair is exact.
    Overlapping {
        /// A point common to both shapes.
        point: Point2,
    },
}

impl PlanarProximity {
    /// The distance, metres: `> 0` apart, `0` touching or overlapping.
    pub fn distance(&self) -> Real {
        match self {
            PlanarProximity::Apart { distance, .. } => *distance,
            PlanarProximity::Overlapping { .. } => 0.0,
        }
    }
}

/// A shape as a core (corners: 1 point, 2 for a segment, a counter-clockwise polygon) and a
/// radius, or a line.
enum Core {
    Points(Vec<Point2>, Real),
    Line(Vector2, Real),
}

fn core(s: PlanarShape) -> Option<Core> {
    Some(match s {
        PlanarShape::Point(p) => {
            if !(p.x.is_finite() && p.y.is_finite()) {
                return None;
            }
            Core::Points(vec![p], 0.0)
        }
        PlanarShape::Segment(s) => Core::Points(s.ends().to_vec(), 0.0),
        PlanarShape::Circle(c) => Core::Points(vec![c.center()], c.radius()),
        PlanarShape::Polygon(p) => Core::Points(p.corners().to_vec(), 0.0),
        PlanarShape::Rect(r) => Core::Points(r.corners().to_vec(), 0.0),
        PlanarShape::Line(l) => Core::Line(l.normal(), l.offset()),
    })
}

/// The edges of a core: the point itself (a zero-length edge), the segment, or the polygon's
/// edges.
fn edges(c: &[Point2]) -> Vec<(Point2, Point2)> {
    match c.len() {
        1 => vec![(c[0], c[0])],
        2 => vec![(c[0], c[1])],
        n => (0..n).map(|i| (c[i], c[(i + 1) % n])).collect(),
    }
}

/// True when `p` is inside or on the counter-clockwise polygon `c` (3 corners or more; exact
/// orientation tests).
fn inside(c: &[Point2], p: &Point2) -> bool {
    let n = c.len();
    n >= 3 && (0..n).all(|i| super::segments::orient(&c[i], &c[(i + 1) % n], p) >= 0.0)
}

/// The cores' closest points (`a`'s, `b`'s) and their difference in `f64` (see
/// [`closest_points_raw`]), or `Err(common point)` when they touch.
#[allow(clippy::type_complexity)]
fn core_closest(
    a: &[Point2],
    b: &[Point2],
) -> Result<(Point2, Point2, nalgebra::Vector2<f64>), Point2> {
    let (ea, eb) = (edges(a), edges(b));
    for (p, q) in &ea {
        for (r, s) in &eb {
            if let Some(x) = intersection_points(p, q, r, s) {
                return Err(x);
            }
        }
    }
    if let Some(p) = b.iter().find(|p| inside(a, p)) {
        return Err(*p);
    }
    if let Some(p) = a.iter().find(|p| inside(b, p)) {
        return Err(*p);
    }
    let mut best: Option<(f64, (Point2, Point2, nalgebra::Vector2<f64>))> = None;
    for (p, q) in &ea {
        for (r, s) in &eb {
            let pair = closest_points_raw(p, q, r, s);
            let d = pair.2.norm_squared();
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, pair));
            }
        }
    }
    best.map(|b| b.1).ok_or(a[0])
}

/// The line `n · x = o` (A) against the core `c` grown by `r` (B).
fn line_against(n: &Vector2, o: Real, c: &[Point2], r: Real) -> PlanarProximity {
    let h = |p: &Point2| n.dot(&p.coords) - o;
    let (lo, hi) = c.iter().fold((c[0], c[0]), |(lo, hi), p| {
        (
            if h(p) < h(&lo) { *p } else { lo },
            if h(p) > h(&hi) { *p } else { hi },
        )
    });
    let (dlo, dhi) = (h(&lo), h(&hi));
    // The core's point nearest the line, on the side it is on, and the sign of that side.
    let (near, gap, side) = if dlo > 0.0 {
        (lo, dlo, 1.0)
    } else if dhi < 0.0 {
        (hi, -dhi, -1.0)
    } else {
        // The core straddles (or touches) the line: a crossing point of an edge.
        let point = edges(c)
            .into_iter()
            .find(|(p, q)| h(p) * h(q) <= 0.0)
            .map(|(p, q)| {
                let (hp, hq) = (h(&p), h(&q));
                if hp == hq {
                    p
                } else {
                    p + (q - p) * (hp / (hp - hq))
                }
            })
            .unwrap_or(lo);
        return PlanarProximity::Overlapping { point };
    };
    let normal = *n * side;
    let on_line = near - normal * gap;
    if gap > r {
        PlanarProximity::Apart {
            distance: gap - r,
            point_a: on_line,
            point_b: near - normal * r,
            normal,
        }
    } else {
        PlanarProximity::Overlapping { point: on_line }
    }
}

/// The proximity of two lines (A, B).
fn line_line(na: &Vector2, oa: Real, nb: &Vector2, ob: Real) -> PlanarProximity {
    let det = na.x * nb.y - na.y * nb.x;
    if det.abs() > 1e-6 {
        // Crossing: solve na · x = oa, nb · x = ob.
        let point = Point2::new((oa * nb.y - ob * na.y) / det, (na.x * ob - nb.x * oa) / det);
        return PlanarProximity::Overlapping { point };
    }
    // Parallel: B's offset along A's normal.
    let ob = ob * na.dot(nb).signum();
    let gap = ob - oa;
    let point_a = Point2::from(na * oa);
    if gap.abs() <= Real::EPSILON * (oa.abs() + ob.abs()) {
        return PlanarProximity::Overlapping { point: point_a };
    }
    let normal = na * gap.signum();
    PlanarProximity::Apart {
        distance: gap.abs(),
        point_a,
        point_b: point_a + na * gap,
        normal,
    }
}

/// The closest points of planar shapes `a` and `b` and their exact distance (see the module
/// docs for the method and [`PlanarProximity`] for the result). `None` only for a non-finite
/// [`PlanarShape::Point`] (every other shape is validated when built) or a result that would
/// overflow.
///
/// ```
/// use tumble_narrowphase::math::{Point2, Vector2};
/// use tumble_narrowphase::planar::{closest_points, Circle, PlanarProximity, Rect};
///
/// let rect = Rect::new(Point2::origin(), Vector2::new(1.0, 0.5), 0.0).unwrap();
/// let circle = Circle::new(Point2::new(4.0, 4.5), 1.0).unwrap();
/// // From the corner (1, 0.5) to the centre: 5 m, minus the radius.
/// match closest_points(&rect, &circle).unwrap() {
///     PlanarProximity::Apart { distance, point_a, .. } => {
///         assert!((distance - 4.0).abs() < 1e-6);
///         assert_eq!(point_a, Point2::new(1.0, 0.5));
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn closest_points<'a, 'b>(
    a: impl Into<PlanarShape<'a>>,
    b: impl Into<PlanarShape<'b>>,
) -> Option<PlanarProximity> {
    let (a, b) = (core(a.into())?, core(b.into())?);
    let r = match (&a, &b) {
        (Core::Line(na, oa), Core::Line(nb, ob)) => line_line(na, *oa, nb, *ob),
        (Core::Line(n, o), Core::Points(c, r)) => line_against(n, *o, c, *r),
        (Core::Points(c, r), Core::Line(n, o)) => match line_against(n, *o, c, *r) {
            PlanarProximity::Apart {
                distance,
                point_a,
                point_b,
                normal,
            } => PlanarProximity::Apart {
                distance,
                point_a: point_b,
                point_b: point_a,
                normal: -normal,
            },
            o => o,
        },
        (Core::Points(ca, ra), Core::Points(cb, rb)) => match core_closest(ca, cb) {
            Err(point) => PlanarProximity::Overlapping { point },
            Ok((pa, pb, d)) => {
                // The direction and length from the f64 difference.
                let len64 = d.norm();
                let unit = (len64 > 0.0 && len64.is_finite())
                    .then(|| d / len64)
                    .map(|n| Vector2::new(n.x as Real, n.y as Real));
                let len = len64 as Real;
                match unit {
                    Some(n) if len > ra + rb => PlanarProximity::Apart {
                        distance: len - ra - rb,
                        point_a: pa + n * *ra,
                        point_b: pb - n * *rb,
                        normal: n,
                    },
                    // Within both radii: a point at the split of the gap in their ratio.
                    Some(n) => PlanarProximity::Overlapping {
                        point: pa + n * (len * ra / (ra + rb)),
                    },
                    None => PlanarProximity::Overlapping { point: pa },
                }
            }
        },
    };
    let finite = |p: &Point2| p.x.is_finite() && p.y.is_finite();
    match &r {
        PlanarProximity::Apart {
            distance,
            point_a,
            point_b,
            normal,
        } => (distance.is_finite()
            && finite(point_a)
            && finite(point_b)
            && normal.x.is_finite()
            && normal.y.is_finite())
        .then_some(r),
        PlanarProximity::Overlapping { point } => finite(point).then_some(r),
    }
}

/// The exact distance between planar shapes `a` and `b`, metres: `> 0` apart, `0` touching or
/// overlapping ([`closest_points`]'s distance). `None` as for [`closest_points`].
pub fn distance<'a, 'b>(
    a: impl Into<PlanarShape<'a>>,
    b: impl Into<PlanarShape<'b>>,
) -> Option<Real> {
    closest_points(a, b).map(|p| p.distance())
}
