//! Closest points on obstacles, for initial overlaps (Ericson RTCD §5.1.2, §5.1.5).

pub(crate) use crate::contact::closest::closest_point_on_triangle as closest_on_triangle;
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
