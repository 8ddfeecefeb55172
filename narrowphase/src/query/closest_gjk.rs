//! Closest points by GJK for the pairs without a closed form: each shape becomes its core (a
//! point for a ball, a segment for a capsule, the polyhedron itself otherwise) and a radius;
//! GJK ([`crate::gjk::distance`], van den Bergen 2004 ch. 4; Ericson, RTCD §9.5) gives the
//! cores' distance `d`, closest points and normal, and the radii are taken off as in
//! [`super::closest_round`].

use super::closest::{ClosestPoints, QueryError};
use super::UnsupportedPair;
use crate::gjk::{self, GjkResult, Segment, SinglePoint, SupportMap};
use crate::math::{Isometry, Point, Real, Vector};
use crate::shape::{ConvexPolyhedron, Cuboid, ShapeRef, Triangle};

/// A shape's core in its local frame, as a support map.
#[derive(Clone, Copy)]
pub(crate) enum Core<'a> {
    /// A ball's centre.
    Point(SinglePoint),
    /// A capsule's axis.
    Segment(Segment),
    /// A box.
    Cuboid(&'a Cuboid),
    /// A triangle.
    Triangle(&'a Triangle),
    /// A convex polyhedron.
    Convex(&'a ConvexPolyhedron),
}

impl SupportMap for Core<'_> {
    #[inline]
    fn local_support(&self, dir: &Vector) -> Point {
        match self {
            Core::Point(p) => p.local_support(dir),
            Core::Segment(s) => s.local_support(dir),
            Core::Cuboid(c) => c.local_support(dir),
            Core::Triangle(t) => t.local_support(dir),
            Core::Convex(p) => p.local_support(dir),
        }
    }
}

/// The core and radius of a shape (`None` for a kind without a support map).
#[allow(unreachable_patterns)]
pub(crate) fn core_of(s: ShapeRef<'_>) -> Option<(Core<'_>, Real)> {
    Some(match s {
        ShapeRef::Ball(b) => (Core::Point(SinglePoint(Point::origin())), b.radius()),
        ShapeRef::Capsule(c) => {
            let h = c.half_height();
            let seg = Segment {
                a: Point::new(0.0, -h, 0.0),
                b: Point::new(0.0, h, 0.0),
            };
            (Core::Segment(seg), c.radius())
        }
        ShapeRef::Cuboid(c) => (Core::Cuboid(c), 0.0),
        ShapeRef::Triangle(t) => (Core::Triangle(t), 0.0),
        ShapeRef::Convex(p) => (Core::Convex(p), 0.0),
        _ => return None,
    })
}

/// GJK closest points of the pair: `Some` when the cores are apart, `None` when they touch.
pub(crate) fn closest_points_gjk(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Result<Option<ClosestPoints>, QueryError> {
    let unsupported = || {
        QueryError::Unsupported(UnsupportedPair {
            a: a.kind_name(),
            b: b.kind_name(),
        })
    };
    let (ca, ra) = core_of(a).ok_or_else(unsupported)?;
    let (cb, rb) = core_of(b).ok_or_else(unsupported)?;
    Ok(match gjk::distance(pose_a, &ca, pose_b, &cb) {
        GjkResult::Intersecting => None,
        GjkResult::Separated {
            distance,
            point_a,
            point_b,
            normal,
        } => Some(ClosestPoints {
            distance: distance - ra - rb,
            point_a: point_a + normal * ra,
            point_b: point_b - normal * rb,
            normal,
        }),
    })
}
