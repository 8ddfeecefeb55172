//! Closest points on obstacles, for initial overlaps (Ericson RTCD §5.1.2, §5.1.5).

use crate::contact::closest::{closest_on_triangle_regions, closest_point_on_segment};
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
    Point::from(closest_on_triangle_regions(
        &p.coords, &a.coords, &b.coords, &c.coords,
    ))
}
