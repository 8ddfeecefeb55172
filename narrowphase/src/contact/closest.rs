//! Closest points between segments and points, shared by the contact routines
//! (Ericson, RTCD §5.1.2 and §5.1.9).

use crate::math::{Point, Real};
use nalgebra::{RealField, Vector3};

/// The point of segment `[a, b]` closest to `p`, and its parameter `t ∈ [0, 1]`.
#[inline]
pub fn closest_point_on_segment(p: &Point, a: &Point, b: &Point) -> (Point, Real) {
    let ab = b - a;
    let l = ab.norm_squared();
    if l.is_nan() || l <= 0.0 {
        return (*a, 0.0);
    }
    let t = ((p - a).dot(&ab) / l).clamp(0.0, 1.0);
    (a + ab * t, t)
}

/// Closest points `c1 = p1 + s (q1 − p1)`, `c2 = p2 + t (q2 − p2)` of segments `[p1, q1]`
/// and `[p2, q2]` (Ericson's ClosestPtSegmentSegment, §5.1.9): returns `(c1, c2, s, t)`.
/// Handles degenerate (point) segments and parallel ones (then one of the many pairs).
///
/// Nearly parallel segments (sine of their angle below 10⁻², `NEAR_PARALLEL_SINE`) are solved in
/// f64: the denominator `|d1|²|d2|² − (d1 · d2)²` is `sin²` of the angle times `|d1|²|d2|²`,
/// so in f32 its rounding (about one ulp of `|d1|²|d2|²`) swamps it below a sine of ~10⁻³,
/// and the f32 routine then takes `s = 0`: a pair up to `|d1| · sin` farther apart than the
/// closest one (two nearly parallel capsules 1.4 mm into each other were reported apart).
pub fn closest_points_segments(
    p1: &Point,
    q1: &Point,
    p2: &Point,
    q2: &Point,
) -> (Point, Point, Real, Real) {
    let (d1, d2) = (q1 - p1, q2 - p2);
    let (a, e, b) = (d1.norm_squared(), d2.norm_squared(), d1.dot(&d2));
    let (s, t) = if a * e - b * b < NEAR_PARALLEL_SINE * NEAR_PARALLEL_SINE * a * e {
        let (s, t) = segment_parameters::<f64>(
            &d1.cast(),
            &d2.cast(),
            &(p1 - p2).cast(),
            f64::from(Real::EPSILON * Real::EPSILON),
        );
        (s as Real, t as Real)
    } else {
        segment_parameters(&d1, &d2, &(p1 - p2), Real::EPSILON * Real::EPSILON)
    };
    (p1 + d1 * s, p2 + d2 * t, s, t)
}

/// Below this sine of the angle between two segments, [`closest_points_segments`] works in f64.
const NEAR_PARALLEL_SINE: Real = 1e-2;

/// The parameters `(s, t)` of Ericson's ClosestPtSegmentSegment for directions `d1`, `d2` and
/// `r = p1 − p2`, in f32 or f64; a segment whose squared length is at most `tiny` is a point.
fn segment_parameters<T: RealField + Copy>(
    d1: &Vector3<T>,
    d2: &Vector3<T>,
    r: &Vector3<T>,
    tiny: T,
) -> (T, T) {
    let (zero, one) = (T::zero(), T::one());
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(r);
    if a <= tiny && e <= tiny {
        return (zero, zero);
    }
    if a <= tiny {
        return (zero, (f / e).clamp(zero, one));
    }
    let c = d1.dot(r);
    if e <= tiny {
        return ((-c / a).clamp(zero, one), zero);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > T::default_epsilon() * a * e {
        ((b * f - c * e) / denom).clamp(zero, one)
    } else {
        zero
    };
    let mut t = (b * s + f) / e;
    if t < zero {
        t = zero;
        s = (-c / a).clamp(zero, one);
    } else if t > one {
        t = one;
        s = ((b - c) / a).clamp(zero, one);
    }
    (s, t)
}

/// The point of triangle `a, b, c` nearest to `q`, by Voronoi regions (Ericson RTCD §5.1.5),
/// in f32 or f64 (the hull builder works in f64). For a degenerate triangle the interior
/// region's weights divide by zero: callers that may meet one handle it first; a zero
/// denominator returns `a`.
pub(crate) fn closest_on_triangle_regions<T: RealField + Copy>(
    q: &Vector3<T>,
    a: &Vector3<T>,
    b: &Vector3<T>,
    c: &Vector3<T>,
) -> Vector3<T> {
    let zero = T::zero();
    let (ab, ac, aq) = (b - a, c - a, q - a);
    let (d1, d2) = (ab.dot(&aq), ac.dot(&aq));
    if d1 <= zero && d2 <= zero {
        return *a;
    }
    let bq = q - b;
    let (d3, d4) = (ab.dot(&bq), ac.dot(&bq));
    if d3 >= zero && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= zero && d1 >= zero && d3 <= zero {
        return a + ab * (d1 / (d1 - d3));
    }
    let cq = q - c;
    let (d5, d6) = (ab.dot(&cq), ac.dot(&cq));
    if d6 >= zero && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= zero && d2 >= zero && d6 <= zero {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= zero && d4 - d3 >= zero && d5 - d6 >= zero {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    if denom == zero {
        return *a;
    }
    a + ab * (vb / denom) + ac * (vc / denom)
}

/// The point of triangle `a, b, c` nearest to `p` (world or any common frame), by Voronoi
/// regions (RTCD §5.1.5); for a degenerate (collinear) triangle, the nearest point of its edges.
pub fn closest_point_on_triangle(p: &Point, a: &Point, b: &Point, c: &Point) -> Point {
    let ab = b - a;
    let ac = c - a;
    let n2 = ab.cross(&ac).norm_squared();
    if n2 <= Real::EPSILON * Real::EPSILON * ab.norm_squared() * ac.norm_squared() {
        // Degenerate (collinear) triangle: the nearest of its three edges.
        return [(a, b), (b, c), (c, a)]
            .iter()
            .map(|(s, e)| closest_point_on_segment(p, s, e).0)
            .min_by(|x, y| (x - p).norm_squared().total_cmp(&(y - p).norm_squared()))
            .unwrap_or(*a);
    }
    Point::from(closest_on_triangle_regions(
        &p.coords, &a.coords, &b.coords, &c.coords,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_segments() {
        let (c1, c2, s, t) = closest_points_segments(
            &Point::new(-1.0, 0.0, 0.0),
            &Point::new(1.0, 0.0, 0.0),
            &Point::new(0.5, -1.0, 1.0),
            &Point::new(0.5, 1.0, 1.0),
        );
        assert!((c1 - Point::new(0.5, 0.0, 0.0)).norm() < 1e-6);
        assert!((c2 - Point::new(0.5, 0.0, 1.0)).norm() < 1e-6);
        assert!((s - 0.75).abs() < 1e-6 && (t - 0.5).abs() < 1e-6);
    }

    #[test]
    fn brute_force_agrees() {
        // Sampled brute force on a few fixed configurations, including parallel ones.
        let cases = [
            [
                (0.0, 0.0, 0.0),
                (1.0, 0.0, 0.0),
                (0.0, 1.0, 0.0),
                (1.0, 1.0, 0.0),
            ],
            [
                (0.0, 0.0, 0.0),
                (1.0, 0.0, 0.0),
                (2.0, 1.0, 0.0),
                (3.0, 1.0, 0.5),
            ],
            [
                (0.0, 0.0, 0.0),
                (0.0, 0.0, 0.0),
                (2.0, 1.0, 0.0),
                (3.0, -1.0, 0.5),
            ],
            [
                (0.0, 0.0, 0.0),
                (1.0, 2.0, 3.0),
                (1.0, 0.0, 0.0),
                (-1.0, 1.0, 2.0),
            ],
        ];
        for c in cases {
            let p: Vec<Point> = c.iter().map(|&(x, y, z)| Point::new(x, y, z)).collect();
            let (c1, c2, _, _) = closest_points_segments(&p[0], &p[1], &p[2], &p[3]);
            let got = (c1 - c2).norm();
            let mut best = Real::INFINITY;
            for i in 0..=200 {
                for j in 0..=200 {
                    let a = p[0] + (p[1] - p[0]) * (i as Real / 200.0);
                    let b = p[2] + (p[3] - p[2]) * (j as Real / 200.0);
                    best = best.min((a - b).norm());
                }
            }
            assert!(got <= best + 1e-5 && got >= best - 0.02, "{got} vs {best}");
        }
    }
}
