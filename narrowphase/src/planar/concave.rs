//! Simple (possibly concave) polygons, split into convex pieces by ear clipping
//! (Meisters' two-ears theorem; Ericson RTCD §12.5.1; Eberly, "Triangulation by ear
//! clipping", 2002).
//!
//! ```text
//! while more than 3 corners remain:
//!     find a corner whose turn is convex and whose triangle (prev, corner, next) holds no
//!     other remaining corner                      // an "ear"
//!     emit that triangle, drop the corner
//! emit the last triangle
//! ```
//!
//! Each scan is O(n) per candidate and there are n ears to cut: O(n³) in the worst case,
//! O(n²) typically — meant for the tens of corners of a hand-made level shape, done once.

use super::convex::{check_corners, serde_as_corners, turn, twice_signed_area, ConvexPolygon};
use super::polygon_pairs::{polygon_circle, polygon_polygon};
use super::shapes::Circle;
use crate::error::ShapeError;
use crate::math::Point2;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A simple polygon (convex or not) and its triangles.
///
/// Invariant (checked by [`ConcavePolygon::new`]): the corner checks of
/// [`ConvexPolygon::new`] except convexity, and no two non-adjacent edges touch or cross.
///
/// Serialised as its corner list; deserialising validates and splits it again.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "Vec<Point2>", into = "Vec<Point2>")
)]
pub struct ConcavePolygon {
    corners: Vec<Point2>,
    pieces: Vec<ConvexPolygon>,
}

serde_as_corners!(ConcavePolygon);

impl ConcavePolygon {
    /// A validated simple polygon from corners in either winding, split into triangles.
    /// Errors: as [`ConvexPolygon::new`] (but concave input is accepted), plus
    /// [`ShapeError::SelfIntersecting`] when two non-adjacent edges touch or cross.
    pub fn new(corners: &[Point2]) -> Result<Self, ShapeError> {
        check_corners(corners)?;
        let n = corners.len();
        for i in 0..n {
            for j in i + 2..n {
                if i == 0 && j == n - 1 {
                    continue; // adjacent through the wrap-around
                }
                if segments_touch(
                    &corners[i],
                    &corners[(i + 1) % n],
                    &corners[j],
                    &corners[(j + 1) % n],
                ) {
                    return Err(ShapeError::SelfIntersecting);
                }
            }
        }
        let mut ccw = corners.to_vec();
        if twice_signed_area(&ccw) < 0.0 {
            ccw.reverse();
        }
        let pieces = ear_clip(&ccw)?;
        Ok(Self {
            corners: ccw,
            pieces,
        })
    }

    /// Corners, counter-clockwise.
    #[inline]
    pub fn corners(&self) -> &[Point2] {
        &self.corners
    }

    /// The convex pieces (triangles, counter-clockwise) whose union is the polygon.
    #[inline]
    pub fn pieces(&self) -> &[ConvexPolygon] {
        &self.pieces
    }

    /// True when `p` is inside or on the polygon (in or on some piece).
    pub fn contains_point(&self, p: &Point2) -> bool {
        self.pieces.iter().any(|t| t.contains_point(p))
    }

    /// True when the polygon overlaps or touches the convex polygon `other` (some piece does).
    pub fn intersects_polygon(&self, other: &ConvexPolygon) -> bool {
        self.pieces
            .iter()
            .any(|t| polygon_polygon(t, other).intersects())
    }

    /// True when the polygon overlaps or touches the circle (some piece does).
    pub fn intersects_circle(&self, circle: &Circle) -> bool {
        self.pieces
            .iter()
            .any(|t| polygon_circle(t, circle).intersects())
    }
}

/// True when closed segments `pq` and `rs` share a point (RTCD §5.1.9.1, with collinear
/// overlaps included).
///
/// "Collinear" is [`turn`]'s tolerant verdict, so "on the segment" must be tolerant the same
/// way: a corner that `turn` calls collinear with an edge and that lies between its ends (up to
/// a relative `1e-6` of its length) touches it. An exact bounding-box test here once let a corner
/// 1.8·10⁻¹⁵ left of an edge at x = 0 pass as "not on it", and ear clipping of that
/// self-touching polygon then covered 63.6 of an area of 18.2.
fn segments_touch(p: &Point2, q: &Point2, r: &Point2, s: &Point2) -> bool {
    let d1 = turn(p, q, r);
    let d2 = turn(p, q, s);
    let d3 = turn(r, s, p);
    let d4 = turn(r, s, q);
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && between(p, q, r))
        || (d2 == 0 && between(p, q, s))
        || (d3 == 0 && between(r, s, p))
        || (d4 == 0 && between(r, s, q))
}

/// True when `c` (already known to be collinear with `ab`) is not beyond either end of `ab` by
/// more than `1e-6 · |ab|` (the tolerance of [`turn`], as a distance): a corner 10⁻³⁰ past the
/// end of a 9 m edge, nearly on another corner, touches that edge.
fn between(a: &Point2, b: &Point2, c: &Point2) -> bool {
    let ab = b - a;
    let len2 = ab.norm_squared();
    let tol = 1.0e-6 * len2;
    ab.dot(&(c - a)) >= -tol && ab.dot(&(c - b)) <= tol
}

/// Twice the signed area of triangle `abc` (positive when counter-clockwise), in f64 about
/// `a`: the differences and products of f32 coordinates of moderate range are exact or nearly
/// so, so the sign is trustworthy down to slivers that [`turn`]'s tolerance calls straight.
fn orientation(a: &Point2, b: &Point2, c: &Point2) -> f64 {
    let (ax, ay) = (a.x as f64, a.y as f64);
    let (ux, uy) = (b.x as f64 - ax, b.y as f64 - ay);
    let (vx, vy) = (c.x as f64 - ax, c.y as f64 - ay);
    ux * vy - uy * vx
}

/// True when `p` is inside or on triangle `abc` (counter-clockwise).
fn in_triangle(p: &Point2, a: &Point2, b: &Point2, c: &Point2) -> bool {
    orientation(a, b, p) >= 0.0 && orientation(b, c, p) >= 0.0 && orientation(c, a, p) >= 0.0
}

/// The turn of triangle `a → b → c` ([`turn`]'s tolerant verdict) judged at its widest corner
/// (the one facing the longest edge; a cyclic rotation keeps the orientation), so that it does
/// not depend on which corner comes first: [`turn`] measures the sine of the angle at its
/// first corner, and a sliver whose first corner is its needle tip reads "straight" although
/// its widest angle is far from π.
fn triangle_turn(a: &Point2, b: &Point2, c: &Point2) -> i8 {
    let (ab, bc, ca) = (
        (b - a).norm_squared(),
        (c - b).norm_squared(),
        (a - c).norm_squared(),
    );
    if ab >= bc && ab >= ca {
        turn(c, a, b)
    } else if bc >= ca {
        turn(a, b, c)
    } else {
        turn(b, c, a)
    }
}

/// Ear clipping of a simple counter-clockwise polygon into triangles.
///
/// An ear, and the last triangle, must have a positive [`orientation`] (not a tolerant turn):
/// a tolerance drops real area. Fuzz input
/// `concave_polygon_misses_a_corner_after_the_self_touch_fix`, corners (−10, −707761.6),
/// (5.76, 1.78), (0, −9.94), (0, 0): the last triangle (−10, −707761.6), (0, −9.94), (0, 0), of
/// area 49.7 m², has a sine of 2·10⁻¹⁰ at its first corner and was dropped by [`turn`] as
/// straight, leaving corner (0, 0) in no piece. Judging the turn at the widest corner
/// ([`triangle_turn`], sine 1.4·10⁻⁵ there) is not enough either: a star stretched 9·10⁴ times
/// (the property test below) has a sliver 1.3·10⁵ m long of area 1425 m² whose widest sine
/// is 7·10⁻⁷. Only when no ear is found is a corner that is straight within the tolerance
/// dropped ([`triangle_turn`]; it adds no area worth a piece).
fn ear_clip(corners: &[Point2]) -> Result<Vec<ConvexPolygon>, ShapeError> {
    let mut idx: Vec<usize> = (0..corners.len()).collect();
    let mut out = Vec::with_capacity(corners.len() - 2);
    while idx.len() > 3 {
        let m = idx.len();
        let ear = (0..m).find(|&k| {
            let (a, b, c) = (
                &corners[idx[(k + m - 1) % m]],
                &corners[idx[k]],
                &corners[idx[(k + 1) % m]],
            );
            orientation(a, b, c) > 0.0
                && idx.iter().all(|&j| {
                    let p = &corners[j];
                    p == a || p == b || p == c || !in_triangle(p, a, b, c)
                })
        });
        match ear {
            Some(k) => {
                let tri = [
                    corners[idx[(k + m - 1) % m]],
                    corners[idx[k]],
                    corners[idx[(k + 1) % m]],
                ];
                out.push(ConvexPolygon::from_ccw(tri.to_vec()));
                idx.remove(k);
            }
            None => {
                // Only a straight corner left by earlier cuts can block every ear: drop it
                // (it adds no area).
                let straight = (0..m).find(|&k| {
                    triangle_turn(
                        &corners[idx[(k + m - 1) % m]],
                        &corners[idx[k]],
                        &corners[idx[(k + 1) % m]],
                    ) == 0
                });
                match straight {
                    Some(k) => {
                        idx.remove(k);
                    }
                    None => return Err(ShapeError::Degenerate("ear clipping found no ear")),
                }
            }
        }
    }
    let tri = [corners[idx[0]], corners[idx[1]], corners[idx[2]]];
    if orientation(&tri[0], &tri[1], &tri[2]) > 0.0 {
        out.push(ConvexPolygon::from_ccw(tri.to_vec()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Real;

    /// The verdict is the same whichever corner comes first.
    #[test]
    fn triangle_turn_is_invariant_under_rotation() {
        let (a, b, c) = (
            Point2::new(-10.0, -707_761.6),
            Point2::new(0.0, -9.938_659),
            Point2::new(0.0, 0.0),
        );
        assert_eq!(turn(&a, &b, &c), 0, "the needle tip first reads straight");
        assert_eq!(triangle_turn(&a, &b, &c), 1);
        assert_eq!(triangle_turn(&b, &c, &a), 1);
        assert_eq!(triangle_turn(&c, &a, &b), 1);
        assert_eq!(triangle_turn(&c, &b, &a), -1);
    }

    /// Star-shaped (hence simple) polygons stretched up to 3·10⁵ times along a random
    /// direction — needles with notches, as in the fuzz input — are covered exactly: every
    /// corner lies in a piece and the pieces add up to the area (shoelace in f64).
    #[test]
    fn stretched_stars_are_covered_exactly() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut built = 0;
        for _ in 0..4000 {
            let n = rng.gen_range(4..10);
            let mut angles: Vec<Real> = (0..n)
                .map(|_| rng.gen_range(0.0..std::f32::consts::TAU))
                .collect();
            angles.sort_by(|a, b| a.total_cmp(b));
            let stretch = (10.0 as Real).powf(rng.gen_range(0.0..5.5));
            let (s, c) = rng.gen_range(0.0..std::f32::consts::PI).sin_cos();
            let corners: Vec<Point2> = angles
                .iter()
                .map(|a| {
                    let r = rng.gen_range(0.05..1.0);
                    let (x, y) = (r * a.cos() * stretch, r * a.sin());
                    Point2::new(c * x - s * y, s * x + c * y)
                })
                .collect();
            let Ok(p) = ConcavePolygon::new(&corners) else {
                continue;
            };
            built += 1;
            for q in &corners {
                assert!(p.contains_point(q), "{q:?} in no piece of {corners:?}");
            }
            let area = (0..n)
                .map(|i| {
                    let (a, b) = (corners[i], corners[(i + 1) % n]);
                    a.x as f64 * b.y as f64 - b.x as f64 * a.y as f64
                })
                .sum::<f64>()
                .abs()
                * 0.5;
            let pieces: f64 = p.pieces().iter().map(|t| t.area() as f64).sum();
            assert!(
                (pieces - area).abs() <= 1e-3 * area,
                "pieces {pieces} of area {area}: {corners:?}"
            );
        }
        assert!(built > 2000, "only {built} polygons accepted");
    }
}
