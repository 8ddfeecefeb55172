//! Sphere against sphere: on squared distances, no square root unless a contact is built.

use crate::contact::{ContactPoint, Manifold};
use crate::math::{Point, Real, Vector};

/// True when spheres (`ca`, `ra`) and (`cb`, `rb`) overlap or touch: `|cb − ca|² ≤ (ra + rb)²`.
#[inline]
pub fn intersection_ball_ball(ca: &Point, ra: Real, cb: &Point, rb: Real) -> bool {
    let r = ra + rb;
    (cb - ca).norm_squared() <= r * r
}

/// Contact of two spheres if their gap is at most `prediction` metres. The normal points from
/// A's centre to B's; for coincident centres it is +y by convention. One point, midway between
/// the surfaces.
#[inline]
pub fn contact_ball_ball(
    ca: &Point,
    ra: Real,
    cb: &Point,
    rb: Real,
    prediction: Real,
) -> Option<Manifold> {
    contact_spheres_or(ca, ra, cb, rb, prediction, &Vector::y())
}

/// As [`contact_ball_ball`], with the normal to use when the centres coincide (unit; the
/// capsule pairs pass a direction across their cores, along which the depth is minimal).
pub(crate) fn contact_spheres_or(
    ca: &Point,
    ra: Real,
    cb: &Point,
    rb: Real,
    prediction: Real,
    coincident_normal: &Vector,
) -> Option<Manifold> {
    let d = cb - ca;
    let reach = ra + rb + prediction;
    let d2 = d.norm_squared();
    if d2 > reach * reach {
        return None;
    }
    let dist = d2.sqrt();
    let normal = if dist > Real::EPSILON * reach {
        d / dist
    } else {
        *coincident_normal
    };
    let depth = ra + rb - dist;
    // Midway between A's surface point (ca + ra n) and B's (cb − rb n).
    let point = ca + normal * (ra - 0.5 * depth);
    let mut m = Manifold::new(normal);
    m.push(ContactPoint {
        point,
        depth,
        id: 0,
    });
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ericson's worked case: spheres (0,0,0) r 2 and (3,3,0) r 2 do not touch (18 > 16).
    #[test]
    fn ericson_spheres_apart() {
        let a = Point::new(0.0, 0.0, 0.0);
        let b = Point::new(3.0, 3.0, 0.0);
        assert!(!intersection_ball_ball(&a, 2.0, &b, 2.0));
        assert!(contact_ball_ball(&a, 2.0, &b, 2.0, 0.0).is_none());
    }

    #[test]
    fn depth_is_minimal_translation() {
        let a = Point::new(0.0, 0.0, 0.0);
        let b = Point::new(1.5, 0.0, 0.0);
        let m = contact_ball_ball(&a, 1.0, &b, 1.0, 0.0).unwrap();
        let p = m.points()[0];
        assert!((p.depth - 0.5).abs() < 1e-6);
        assert!((m.normal - Vector::x()).norm() < 1e-6);
        let eps = 1e-4;
        let moved = b + m.normal * (p.depth + eps);
        assert!(!intersection_ball_ball(&a, 1.0, &moved, 1.0));
        let moved = b + m.normal * (p.depth - eps);
        assert!(intersection_ball_ball(&a, 1.0, &moved, 1.0));
    }
}
