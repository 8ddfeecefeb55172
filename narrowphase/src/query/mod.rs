//! The general entry points: any [`Shape`] against any other, each under a pose. These are
//! what the engine and the `micro` benchmark call; they dispatch to one file per shape pair.
//!
//! | pair | boolean test | contact |
//! |---|---|---|
//! | ball–ball | squared distance | one point |
//! | ball–box | closest point in the box frame, squared distance | one point (nearest face when inside) |
//! | box–box | 15-axis SAT on the relative rotation (`sat::box_box`) | SAT + reference/incident face clipping, ≤ 4 points; edge–edge one point |
//! | triangle–box | 13-axis SAT in the box frame (`sat::triangle_box`) | generic polyhedron SAT + clipping |
//! | triangle–triangle | 11-axis SAT, 17 when parallel (`sat::triangle_triangle`) | generic SAT + clipping (polyhedron path) |
//! | capsule–ball, capsule–capsule | closest points of the cores | one point (two for parallel capsules) |
//! | capsule–polyhedron (box, triangle, hull) | GJK distance of the core | GJK while apart, segment SAT once the core penetrates; two points on a face |
//! | ball–polyhedron (triangle, hull) | GJK distance of the centre | one point |
//! | polyhedron–polyhedron | generic SAT (`sat::convex`) up to `SAT_MAX_FACES` faces, GJK beyond | generic SAT for the axis up to `SAT_MAX_FACES` faces; beyond, Gauss-map SAT (`sat::gauss_map`) for the axis, GJK distance for apart pairs; clipping |

mod ball_ball;
mod ball_convex;
mod ball_cuboid;
mod capsule_convex;
mod capsule_round;
mod convex_convex;
mod cuboid_cuboid;
mod triangle_cuboid;

pub use ball_ball::{contact_ball_ball, intersection_ball_ball};
pub use ball_convex::{contact_convex_ball, intersection_convex_ball};
pub use ball_cuboid::{
    contact_cuboid_ball, intersection_ball_aabb, intersection_ball_obb, intersection_cuboid_ball,
};
pub use capsule_convex::{contact_convex_capsule, intersection_convex_capsule};
pub use capsule_round::{
    contact_capsule_ball, contact_capsule_capsule, intersection_capsule_ball,
    intersection_capsule_capsule, CapsuleCore,
};
pub use convex_convex::{contact_convex_convex, intersection_convex_convex};
pub use cuboid_cuboid::{
    contact_cuboid_cuboid, contact_cuboid_cuboid_frames, intersection_cuboid_cuboid, BoxFrame,
};
pub use triangle_cuboid::{intersection_triangle_cuboid, intersection_triangle_triangle};

use crate::contact::Manifold;
use crate::math::{Isometry, Point, Real};
use crate::shape::{ConvexPolyhedron, Shape};
use std::borrow::Cow;
use std::fmt;

/// A pair of shapes for which the crate has no algorithm (a typed error, never a panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedPair {
    /// Name of shape A's kind.
    pub a: &'static str,
    /// Name of shape B's kind.
    pub b: &'static str,
}

impl fmt::Display for UnsupportedPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no collision algorithm for {} against {}",
            self.a, self.b
        )
    }
}

impl std::error::Error for UnsupportedPair {}

fn kind(s: &Shape) -> &'static str {
    match s {
        Shape::Ball(_) => "ball",
        Shape::Cuboid(_) => "cuboid",
        Shape::Capsule(_) => "capsule",
        Shape::Triangle(_) => "triangle",
        Shape::Convex(_) => "convex polyhedron",
    }
}

/// A round shape: a core (point or segment) plus a radius.
enum Round {
    Ball(Point, Real),
    Capsule(CapsuleCore),
}

fn round(pose: &Isometry, s: &Shape) -> Option<Round> {
    match s {
        Shape::Ball(b) => Some(Round::Ball(pose.translation.vector.into(), b.radius())),
        Shape::Capsule(c) => {
            let (a, b) = c.segment(pose);
            Some(Round::Capsule(CapsuleCore {
                a,
                b,
                radius: c.radius(),
            }))
        }
        _ => None,
    }
}

/// The shape as a polyhedron (boxes and triangles are converted, hulls borrowed).
fn polyhedral(s: &Shape) -> Option<Cow<'_, ConvexPolyhedron>> {
    match s {
        Shape::Cuboid(c) => Some(Cow::Owned(ConvexPolyhedron::from_cuboid(c))),
        Shape::Triangle(t) => Some(Cow::Owned(ConvexPolyhedron::from_triangle(t))),
        Shape::Convex(p) => Some(Cow::Borrowed(p.as_ref())),
        _ => None,
    }
}

/// True when shape `a` at `pose_a` and shape `b` at `pose_b` overlap or touch. See the module
/// docs for the algorithm of each pair.
#[inline]
pub fn intersection_test(
    pose_a: &Isometry,
    a: &Shape,
    pose_b: &Isometry,
    b: &Shape,
) -> Result<bool, UnsupportedPair> {
    Ok(match (a, b) {
        (Shape::Ball(ba), Shape::Ball(bb)) => intersection_ball_ball(
            &pose_a.translation.vector.into(),
            ba.radius(),
            &pose_b.translation.vector.into(),
            bb.radius(),
        ),
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => {
            intersection_cuboid_cuboid(pose_a, &ca.half_extents(), pose_b, &cb.half_extents())
        }
        (Shape::Cuboid(c), Shape::Ball(b)) => intersection_cuboid_ball(
            pose_a,
            &c.half_extents(),
            &pose_b.translation.vector.into(),
            b.radius(),
        ),
        (Shape::Ball(b), Shape::Cuboid(c)) => intersection_cuboid_ball(
            pose_b,
            &c.half_extents(),
            &pose_a.translation.vector.into(),
            b.radius(),
        ),
        (Shape::Triangle(t), Shape::Cuboid(c)) => {
            intersection_triangle_cuboid(pose_a, t, pose_b, &c.half_extents())
        }
        (Shape::Cuboid(c), Shape::Triangle(t)) => {
            intersection_triangle_cuboid(pose_b, t, pose_a, &c.half_extents())
        }
        (Shape::Triangle(ta), Shape::Triangle(tb)) => {
            intersection_triangle_triangle(pose_a, ta, pose_b, tb)
        }
        _ => return generic_intersection(pose_a, a, pose_b, b),
    })
}

fn generic_intersection(
    pose_a: &Isometry,
    a: &Shape,
    pose_b: &Isometry,
    b: &Shape,
) -> Result<bool, UnsupportedPair> {
    let unsupported = || UnsupportedPair {
        a: kind(a),
        b: kind(b),
    };
    Ok(match (round(pose_a, a), round(pose_b, b)) {
        (Some(Round::Ball(ca, ra)), Some(Round::Ball(cb, rb))) => {
            intersection_ball_ball(&ca, ra, &cb, rb)
        }
        (Some(Round::Capsule(c)), Some(Round::Ball(p, r)))
        | (Some(Round::Ball(p, r)), Some(Round::Capsule(c))) => {
            intersection_capsule_ball(&c, &p, r)
        }
        (Some(Round::Capsule(ca)), Some(Round::Capsule(cb))) => {
            intersection_capsule_capsule(&ca, &cb)
        }
        (None, Some(rb)) => {
            let pa = polyhedral(a).ok_or_else(unsupported)?;
            intersection_poly_round(pose_a, &pa, &rb)
        }
        (Some(ra), None) => {
            let pb = polyhedral(b).ok_or_else(unsupported)?;
            intersection_poly_round(pose_b, &pb, &ra)
        }
        (None, None) => {
            let pa = polyhedral(a).ok_or_else(unsupported)?;
            let pb = polyhedral(b).ok_or_else(unsupported)?;
            intersection_convex_convex(pose_a, &pa, pose_b, &pb)
        }
    })
}

fn intersection_poly_round(pose: &Isometry, p: &ConvexPolyhedron, r: &Round) -> bool {
    match r {
        Round::Ball(c, rad) => intersection_convex_ball(pose, p, c, *rad),
        Round::Capsule(c) => intersection_convex_capsule(pose, p, c),
    }
}

/// The contact manifold of `a` at `pose_a` against `b` at `pose_b`, if the shapes penetrate or
/// are closer than `prediction` metres (≥ 0). Normal from A to B, world space; depth positive
/// when penetrating. See [`crate::contact`] for the conventions and the module docs for the
/// algorithm of each pair.
pub fn contact(
    pose_a: &Isometry,
    a: &Shape,
    pose_b: &Isometry,
    b: &Shape,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    Ok(match (a, b) {
        (Shape::Ball(ba), Shape::Ball(bb)) => contact_ball_ball(
            &pose_a.translation.vector.into(),
            ba.radius(),
            &pose_b.translation.vector.into(),
            bb.radius(),
            prediction,
        ),
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => contact_cuboid_cuboid(
            pose_a,
            &ca.half_extents(),
            pose_b,
            &cb.half_extents(),
            prediction,
        ),
        (Shape::Cuboid(c), Shape::Ball(b)) => contact_cuboid_ball(
            pose_a,
            &c.half_extents(),
            &pose_b.translation.vector.into(),
            b.radius(),
            prediction,
        ),
        (Shape::Ball(b), Shape::Cuboid(c)) => contact_cuboid_ball(
            pose_b,
            &c.half_extents(),
            &pose_a.translation.vector.into(),
            b.radius(),
            prediction,
        )
        .map(|m| m.flipped()),
        _ => return generic_contact(pose_a, a, pose_b, b, prediction),
    })
}

fn generic_contact(
    pose_a: &Isometry,
    a: &Shape,
    pose_b: &Isometry,
    b: &Shape,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    let unsupported = || UnsupportedPair {
        a: kind(a),
        b: kind(b),
    };
    Ok(match (round(pose_a, a), round(pose_b, b)) {
        (Some(Round::Ball(ca, ra)), Some(Round::Ball(cb, rb))) => {
            contact_ball_ball(&ca, ra, &cb, rb, prediction)
        }
        (Some(Round::Capsule(c)), Some(Round::Ball(p, r))) => {
            contact_capsule_ball(&c, &p, r, prediction)
        }
        (Some(Round::Ball(p, r)), Some(Round::Capsule(c))) => {
            contact_capsule_ball(&c, &p, r, prediction).map(|m| m.flipped())
        }
        (Some(Round::Capsule(ca)), Some(Round::Capsule(cb))) => {
            contact_capsule_capsule(&ca, &cb, prediction)
        }
        (None, Some(rb)) => {
            let pa = polyhedral(a).ok_or_else(unsupported)?;
            contact_poly_round(pose_a, &pa, &rb, prediction)
        }
        (Some(ra), None) => {
            let pb = polyhedral(b).ok_or_else(unsupported)?;
            contact_poly_round(pose_b, &pb, &ra, prediction).map(|m| m.flipped())
        }
        (None, None) => {
            let pa = polyhedral(a).ok_or_else(unsupported)?;
            let pb = polyhedral(b).ok_or_else(unsupported)?;
            contact_convex_convex(pose_a, &pa, pose_b, &pb, prediction)
        }
    })
}

fn contact_poly_round(
    pose: &Isometry,
    p: &ConvexPolyhedron,
    r: &Round,
    prediction: Real,
) -> Option<Manifold> {
    match r {
        Round::Ball(c, rad) => contact_convex_ball(pose, p, c, *rad, prediction),
        Round::Capsule(c) => contact_convex_capsule(pose, p, c, prediction),
    }
}
