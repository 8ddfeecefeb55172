//! Closest points on obstacles, for initial overlaps (Ericson RTCD §5.1.2, §5.1.5).

use crate::contact::closest::closest_point_on_segment;
use crate::math::{Point, Real, Vector};

/// The point of the box surface `[−h, h]` (local frame) nearest to `p`, a unit outward
/// normal, and whether `p` is inside the solid box. Outside: the clamped point (RTCD §5.1.2)
/// and the direction from it to `p`; inside: the nearest face (least penetration), its axis
/// and `p` projected onto it.
pub(crate) fn closest_on_box_local(p: &Point, h: &Vector) -> (Point, Vector, bool) {
    let q = Point::new(
        p.x.clamp(-h.x, h.x),
        p.y.clamp(-h.y, h.y),
        p.z.clamp(-h.z, h.z),
    );
    if let Some(n) = (p - q).try_normalize(Real::MIN_POSITIVE) {
        return (q, n, false);
    }
    // Inside (or on the surface): the face with the least depth h_i − |p_i|.
    let mut best = 0;
    let mut best_depth = Real::INFINITY;
    for i in 0..3 {
        let depth = h[i] - p[i].abs();
        if depth < best_depth {
            best_depth = depth;
            best = i;
        }
    }
    let mut n = Vector::zeros();
    n[best] = if p[best] < 0.0 { -1.0 } else { 1.0 };
    let mut on_face = *p;
    on_face[best] = n[best] * h[best];
    (on_face, n, true)
}

/// The point of triangle `a, b, c` nearest to `p`, by Voronoi regions (RTCD §5.1.5).
pub(crate) fn closest_on_triangle(p: &Point, a: &Point, b: &Point, c: &Point) -> Point {
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
    let ap = p - a;
    let d1 = ab.dot(&ap);
    let d2 = ac.dot(&ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let d3 = ab.dot(&bp);
    let d4 = ac.dot(&bp);
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return a + ab * v;
    }
    let cp = p - c;
    let d5 = ab.dot(&cp);
    let d6 = ac.dot(&cp);
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return a + ac * w;
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return b + (c - b) * w;
    }
    let denom = va + vb + vc;
    let v = vb / denom;
    let w = vc / denom;
    a + ab * v + ac * w
}
