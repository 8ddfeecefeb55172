//! Closed-form closest points for the pairs whose cores are simple: ball–ball (the centres),
//! ball–cuboid (the centre clamped to the box in its frame, Ericson RTCD §5.1.3), capsule–ball
//! (the centre projected on the core segment, RTCD §5.1.2) and capsule–capsule (the closest
//! points of the core segments, RTCD §5.1.9).
//!
//! With the cores' closest points `p` (on A's core) and `q` (on B's), `d = |q − p| > 0`, the
//! signed distance is `d − r_a − r_b`, the normal `(q − p)/d`, and the surface points
//! `p + n r_a` and `q − n r_b`; this is exact also when the shapes overlap, since moving B by
//! `n (r_a + r_b − d)` is the shortest way to bring the cores `r_a + r_b` apart. When the cores
//! touch (`d = 0`: coincident centres, a centre inside the box or on a core, crossing cores)
//! the pair's contact routine gives the minimal translation.

use super::ball_ball::contact_ball_ball;
use super::ball_cuboid::contact_cuboid_ball;
use super::capsule_round::{
    contact_capsule_ball, contact_capsule_capsule, without_component, CapsuleCore,
};
use super::closest::ClosestPoints;
use crate::contact::closest::{closest_point_on_segment, closest_points_segments};
use crate::contact::Manifold;
use crate::math::{Isometry, Point, Real, Vector};
use crate::shape::ShapeRef;

/// The result from the cores' closest points `p` (A) and `p + d` (B), or `None` when `d = 0`.
fn from_cores(p: &Point, ra: Real, d: &Vector, q: &Point, rb: Real) -> Option<ClosestPoints> {
    // Scaled by the largest component first: a difference of a few 10⁻²⁰ m has a squared
    // norm in f32's subnormal range, where normalising directly loses the unit length.
    let m = d.amax();
    if !(m > 0.0 && m.is_finite()) {
        return None;
    }
    let n = (d / m).try_normalize(0.0)?;
    let len = n.dot(d);
    Some(ClosestPoints {
        distance: len - ra - rb,
        point_a: p + n * ra,
        point_b: q - n * rb,
        normal: n,
    })
}

/// The result of a pair whose cores touch, from its contact manifold (always present: the
/// shapes overlap).
fn from_contact(m: Option<Manifold>) -> ClosestPoints {
    m.as_ref()
        .and_then(ClosestPoints::from_manifold)
        .unwrap_or(ClosestPoints {
            distance: 0.0,
            point_a: Point::origin(),
            point_b: Point::origin(),
            normal: Vector::y(),
        })
}

/// Closest points of the spheres (`ca`, `ra`) (A) and (`cb`, `rb`) (B), world space. Coincident
/// centres: depth `ra + rb` along +y (the convention of [`super::contact_ball_ball`]).
pub fn closest_points_ball_ball(ca: &Point, ra: Real, cb: &Point, rb: Real) -> ClosestPoints {
    from_cores(ca, ra, &(cb - ca), cb, rb)
        .unwrap_or_else(|| from_contact(contact_ball_ball(ca, ra, cb, rb, 0.0)))
}

/// Closest points of the box of half-extents `e` at `pose_box` (A) and the sphere (`center`,
/// `radius`) (B), world space. A centre inside the box: depth `radius` plus its distance to
/// the nearest face, along that face's normal.
pub fn closest_points_cuboid_ball(
    pose_box: &Isometry,
    e: &Vector,
    center: &Point,
    radius: Real,
) -> ClosestPoints {
    let p = pose_box.inverse_transform_point(center);
    let q = Point::new(
        p.x.clamp(-e.x, e.x),
        p.y.clamp(-e.y, e.y),
        p.z.clamp(-e.z, e.z),
    );
    match from_cores(&q, 0.0, &(p - q), &p, radius) {
        Some(c) => ClosestPoints {
            distance: c.distance,
            point_a: pose_box * c.point_a,
            point_b: pose_box * c.point_b,
            normal: pose_box.rotation * c.normal,
        },
        None => from_contact(contact_cuboid_ball(pose_box, e, center, radius, 0.0)),
    }
}

/// Closest points of the capsule `cap` (A) and the sphere (`center`, `radius`) (B), world
/// space. A centre on the core: depth `cap.radius + radius` across the core.
pub fn closest_points_capsule_ball(
    cap: &CapsuleCore,
    center: &Point,
    radius: Real,
) -> ClosestPoints {
    let (q, t) = closest_point_on_segment(center, &cap.a, &cap.b);
    // Inside the core the difference is exactly across the axis: drop the rounding along it.
    let d = if t > 0.0 && t < 1.0 {
        without_component(&(center - q), &(cap.b - cap.a))
    } else {
        center - q
    };
    from_cores(&q, cap.radius, &d, center, radius)
        .unwrap_or_else(|| from_contact(contact_capsule_ball(cap, center, radius, 0.0)))
}

/// Closest points of the capsules `a` (A) and `b` (B), world space. Crossing cores: depth
/// `a.radius + b.radius` along their common perpendicular.
pub fn closest_points_capsule_capsule(a: &CapsuleCore, b: &CapsuleCore) -> ClosestPoints {
    let (p, q, _, _) = closest_points_segments(&a.a, &a.b, &b.a, &b.b);
    from_cores(&p, a.radius, &(q - p), &q, b.radius)
        .unwrap_or_else(|| from_contact(contact_capsule_capsule(a, b, 0.0)))
}

fn core(pose: &Isometry, c: &crate::shape::Capsule) -> CapsuleCore {
    let (a, b) = c.segment(pose);
    CapsuleCore {
        a,
        b,
        radius: c.radius(),
    }
}

/// The closed form of the pair, if it has one (`None`: not one of the four pairs).
pub(crate) fn closest_points_round(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Option<ClosestPoints> {
    let centre = |p: &Isometry| Point::from(p.translation.vector);
    Some(match (a, b) {
        (ShapeRef::Ball(x), ShapeRef::Ball(y)) => {
            closest_points_ball_ball(&centre(pose_a), x.radius(), &centre(pose_b), y.radius())
        }
        (ShapeRef::Cuboid(c), ShapeRef::Ball(s)) => {
            closest_points_cuboid_ball(pose_a, &c.half_extents(), &centre(pose_b), s.radius())
        }
        (ShapeRef::Ball(s), ShapeRef::Cuboid(c)) => {
            closest_points_cuboid_ball(pose_b, &c.half_extents(), &centre(pose_a), s.radius())
                .flipped()
        }
        (ShapeRef::Capsule(c), ShapeRef::Ball(s)) => {
            closest_points_capsule_ball(&core(pose_a, c), &centre(pose_b), s.radius())
        }
        (ShapeRef::Ball(s), ShapeRef::Capsule(c)) => {
            closest_points_capsule_ball(&core(pose_b, c), &centre(pose_a), s.radius()).flipped()
        }
        (ShapeRef::Capsule(x), ShapeRef::Capsule(y)) => {
            closest_points_capsule_capsule(&core(pose_a, x), &core(pose_b, y))
        }
        _ => return None,
    })
}
