//! Segments in the plane: the intersection test and the closest points of two segments, and
//! the closest point of a segment to a point (Ericson, RTCD §5.1.2 and §5.1.9.1).
//!
//! Two segments `ab` and `cd` cross when `c` and `d` lie on opposite sides of the line `ab`
//! and `a` and `b` on opposite sides of `cd`; the side of a point is the sign of a 2×2
//! determinant (the orientation test). In `f64` the determinant of `f32` coordinates is exact
//! up to one final rounding, which keeps its sign, so the test has no tolerance: touching
//! (a zero determinant, an end on the other segment) counts as intersecting. Apart segments
//! have their closest pair at an end of one of them, so the distance is the least of the four
//! end-to-segment distances.

use super::shapes::Segment;
use crate::math::{Point2, Real};

/// A 2D point in `f64` (exact for `f32` input).
type P64 = nalgebra::Point2<f64>;

#[inline]
fn wide(p: &Point2) -> P64 {
    P64::new(p.x as f64, p.y as f64)
}

#[inline]
fn narrow(p: &P64) -> Point2 {
    Point2::new(p.x as Real, p.y as Real)
}

/// Twice the signed area of `a, b, c` (positive counter-clockwise), correctly signed for
/// `f32` input.
#[inline]
pub(crate) fn orient(a: &Point2, b: &Point2, c: &Point2) -> f64 {
    let (a, b, c) = (wide(a), wide(b), wide(c));
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// True when `p`, known to be on the line `ab`, is within the segment's bounding box.
#[inline]
fn within(a: &Point2, b: &Point2, p: &Point2) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// A point common to the segments `ab` and `cd` (world frame of the plane), `None` when they
/// do not touch. A proper crossing gives the crossing point (to rounding); a touch gives the
/// touching end; collinear overlapping segments give an end of one inside the other.
pub(crate) fn intersection_points(
    a: &Point2,
    b: &Point2,
    c: &Point2,
    d: &Point2,
) -> Option<Point2> {
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        // t along ab where the signed areas of a and b against cd interpolate to zero.
        let t = o3 / (o3 - o4);
        let (a, b) = (wide(a), wide(b));
        return Some(narrow(&(a + (b - a) * t)));
    }
    [(o1, a, b, c), (o2, a, b, d), (o3, c, d, a), (o4, c, d, b)]
        .into_iter()
        .find(|(o, s, e, p)| *o == 0.0 && within(s, e, p))
        .map(|(_, _, _, p)| *p)
}

/// The point of segment `ab` nearest `p` (the clamped projection), in `f64`; `a` when the
/// segment is a point.
fn closest_on_segment(p: &P64, a: &P64, b: &P64) -> P64 {
    let ab = b - a;
    let l = ab.norm_squared();
    if l <= 0.0 {
        return *a;
    }
    let t = ((p - a).dot(&ab) / l).clamp(0.0, 1.0);
    a + ab * t
}

/// The closest points of segments `ab` (first) and `cd` (second), and the difference
/// `second − first` in `f64` (its direction stays accurate when the gap is many orders of
/// magnitude below the coordinates, where the difference of the rounded points does not):
/// the common point twice and a zero difference when they touch, else the nearest of the four
/// end-to-segment pairs (ties to the first end of `ab`).
pub(crate) fn closest_points_raw(
    a: &Point2,
    b: &Point2,
    c: &Point2,
    d: &Point2,
) -> (Point2, Point2, nalgebra::Vector2<f64>) {
    if let Some(p) = intersection_points(a, b, c, d) {
        return (p, p, nalgebra::Vector2::zeros());
    }
    let (wa, wb, wc, wd) = (wide(a), wide(b), wide(c), wide(d));
    let candidates = [
        (wa, closest_on_segment(&wa, &wc, &wd)),
        (wb, closest_on_segment(&wb, &wc, &wd)),
        (closest_on_segment(&wc, &wa, &wb), wc),
        (closest_on_segment(&wd, &wa, &wb), wd),
    ];
    let dist = |(p, q): &(P64, P64)| (q - p).norm_squared();
    let (p, q) = candidates
        .into_iter()
        .min_by(|x, y| dist(x).total_cmp(&dist(y)))
        .unwrap_or((wa, wc));
    (narrow(&p), narrow(&q), q - p)
}

/// True when the segments `a` and `b` intersect or touch (closed segments; exact orientation
/// tests, see the module docs).
///
/// ```
/// use tumble_narrowphase::math::Point2;
/// use tumble_narrowphase::planar::{segments_intersect, Segment};
///
/// let s = |x0, y0, x1, y1| Segment::new(Point2::new(x0, y0), Point2::new(x1, y1)).unwrap();
/// assert!(segments_intersect(&s(0.0, 0.0, 2.0, 2.0), &s(0.0, 2.0, 2.0, 0.0))); // an X
/// assert!(segments_intersect(&s(0.0, 0.0, 2.0, 0.0), &s(1.0, 0.0, 1.0, 5.0))); // a T
/// assert!(!segments_intersect(&s(0.0, 0.0, 2.0, 0.0), &s(3.0, -1.0, 3.0, 1.0)));
/// ```
pub fn segments_intersect(a: &Segment, b: &Segment) -> bool {
    let ([p, q], [r, s]) = (a.ends(), b.ends());
    intersection_points(&p, &q, &r, &s).is_some()
}

/// The closest points of segments `a` and `b`: `(on a, on b)`, metres. Touching or crossing
/// segments give a common point twice (the crossing point, to rounding); apart ones the pair
/// whose distance `|on_b − on_a|` is the segments' distance.
///
/// ```
/// use tumble_narrowphase::math::Point2;
/// use tumble_narrowphase::planar::{closest_points_segments, Segment};
///
/// let a = Segment::new(Point2::new(0.0, 0.0), Point2::new(4.0, 0.0)).unwrap();
/// let b = Segment::new(Point2::new(1.0, 3.0), Point2::new(2.0, 1.0)).unwrap();
/// let (p, q) = closest_points_segments(&a, &b);
/// assert_eq!((p, q), (Point2::new(2.0, 0.0), Point2::new(2.0, 1.0)));
/// ```
pub fn closest_points_segments(a: &Segment, b: &Segment) -> (Point2, Point2) {
    let ([p, q], [r, s]) = (a.ends(), b.ends());
    let (x, y, _) = closest_points_raw(&p, &q, &r, &s);
    (x, y)
}
