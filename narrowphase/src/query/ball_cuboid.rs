//! Box against sphere: everything in the box's frame, via the closest point of the box to the
//! sphere's centre (Ericson RTCD §5.1.3 and §5.2.5), on squared distances for the boolean test.

use crate::contact::{ContactPoint, Manifold};
use crate::math::{Isometry, Point, Real, Vector};

/// Squared distance from `p` to the box of half-extents `e` centred at the origin (0 inside).
#[inline(always)]
fn distance_squared_local(p: &Vector, e: &Vector) -> Real {
    let mut d2 = 0.0;
    for i in 0..3 {
        let d = p[i].abs() - e[i];
        if d > 0.0 {
            d2 += d * d;
        }
    }
    d2
}

/// True when the box (half-extents `e`, pose `pose_box`) and the sphere (world centre
/// `center`, `radius`) overlap or touch. No square root.
#[inline]
pub fn intersection_cuboid_ball(
    pose_box: &Isometry,
    e: &Vector,
    center: &Point,
    radius: Real,
) -> bool {
    let p = pose_box.inverse_transform_point(center).coords;
    distance_squared_local(&p, e) <= radius * radius
}

/// Contact of a box (A) against a sphere (B), if their gap is at most `prediction` metres.
/// Normal from the box to the sphere. One point, midway between the surfaces.
///
/// Centre outside the box: the normal runs from the closest point of the box to the centre.
/// Centre inside: the normal is that of the nearest face, and the depth adds the centre's
/// distance to that face to the radius.
pub fn contact_cuboid_ball(
    pose_box: &Isometry,
    e: &Vector,
    center: &Point,
    radius: Real,
    prediction: Real,
) -> Option<Manifold> {
    let p = pose_box.inverse_transform_point(center).coords;
    let reach = radius + prediction;
    let d2 = distance_squared_local(&p, e);
    if d2 > reach * reach {
        return None;
    }
    let (normal, surface, depth) = if d2 > 0.0 {
        let q = Vector::new(
            p.x.clamp(-e.x, e.x),
            p.y.clamp(-e.y, e.y),
            p.z.clamp(-e.z, e.z),
        );
        let dist = d2.sqrt();
        ((p - q) / dist, q, radius - dist)
    } else {
        // Inside (or on the surface): push out through the nearest face.
        let mut k = 0;
        let mut gap = Real::INFINITY;
        for i in 0..3 {
            let g = e[i] - p[i].abs();
            if g < gap {
                gap = g;
                k = i;
            }
        }
        let s = if p[k] < 0.0 { -1.0 } else { 1.0 };
        let mut q = p;
        q[k] = s * e[k];
        (Vector::ith(k, s), q, radius + gap)
    };
    // Box surface point q, sphere surface point p − r·n: midway.
    let mid = (surface + p - normal * radius) * 0.5;
    let mut m = Manifold::new(pose_box.rotation * normal);
    m.push(ContactPoint {
        point: pose_box * Point::from(mid),
        depth,
        id: 0,
    });
    Some(m)
}

/// True when the sphere (`center`, `radius`) and the axis-aligned box overlap or touch: the
/// squared distance from the centre to the box against `radius²` (Ericson §5.2.5), no square
/// root.
#[inline]
pub fn intersection_ball_aabb(center: &Point, radius: Real, aabb: &crate::bounding::Aabb) -> bool {
    aabb.distance_squared_to_point(center) <= radius * radius
}

/// True when the sphere (`center`, `radius`) and the oriented box overlap or touch: the
/// squared distance from the centre to the box's closest point against `radius²`.
#[inline]
pub fn intersection_ball_obb(center: &Point, radius: Real, obb: &crate::shape::Obb) -> bool {
    let d = center - obb.center();
    let (axes, e) = (obb.axes(), obb.half_extents());
    let mut d2 = 0.0;
    for i in 0..3 {
        let x = (axes.column(i).dot(&d)).abs() - e[i];
        if x > 0.0 {
            d2 += x * x;
        }
    }
    d2 <= radius * radius
}
