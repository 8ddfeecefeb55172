//! Helpers of the joint examples: a joint placed by a point and an axis in the world frame
//! (the builder wants them in each body's own frame), and the joints' errors — how far apart
//! the two anchors of a joint have drifted.

use tumble::math::{Point, Real, Vector};
use tumble::{BodyHandle, JointBuilder, JointHandle, JointView, World, WorldError};

/// A joint of the kind `make` (e.g. `JointBuilder::revolute`) between `a` and `b` whose anchor
/// is the world point `point` on both bodies and whose axis is the world direction `axis`,
/// converted into the bodies' frames at their current poses.
pub fn placed(
    world: &World,
    make: fn(BodyHandle, BodyHandle) -> JointBuilder,
    a: BodyHandle,
    b: BodyHandle,
    point: Vector,
    axis: Vector,
) -> Result<JointBuilder, WorldError> {
    let pa = world.body(a).ok_or(WorldError::StaleHandle(a))?.pose();
    let pb = world.body(b).ok_or(WorldError::StaleHandle(b))?.pose();
    let p = Point::from(point);
    Ok(make(a, b)
        .local_anchor_a(pa.inverse_transform_point(&p).coords)
        .local_anchor_b(pb.inverse_transform_point(&p).coords)
        .axis(pa.rotation.inverse_transform_vector(&axis)))
}

/// The two anchors of a joint in the world frame (A's, B's), or None when a body is gone.
pub fn world_anchors(world: &World, joint: &JointView<'_>) -> Option<(Point, Point)> {
    let a = world.body(joint.body_a())?.pose() * Point::from(joint.local_anchor_a());
    let b = world.body(joint.body_b())?.pose() * Point::from(joint.local_anchor_b());
    Some((a, b))
}

/// The distance between a joint's two world anchors, metres (0 for a perfect joint).
pub fn anchor_gap(world: &World, h: JointHandle) -> Real {
    world
        .joint(h)
        .and_then(|j| world_anchors(world, &j))
        .map_or(Real::NAN, |(a, b)| (b - a).norm())
}

/// The largest anchor gap over every joint of the world, metres, and its joint (None when
/// there are no joints). A NaN gap counts as the largest.
pub fn largest_gap(world: &World) -> (Real, Option<JointHandle>) {
    let mut worst = (0.0, None);
    for (h, j) in world.joints() {
        let gap = world_anchors(world, &j).map_or(Real::NAN, |(a, b)| (b - a).norm());
        if gap.is_nan() || gap > worst.0 {
            worst = (gap, Some(h));
            if gap.is_nan() {
                break;
            }
        }
    }
    worst
}

/// True when every body's pose and velocities are finite numbers.
pub fn all_finite(world: &World) -> bool {
    world.bodies().all(|(_, b)| {
        let p = b.pose();
        p.translation.vector.iter().all(|x| x.is_finite())
            && p.rotation.coords.iter().all(|x| x.is_finite())
            && b.linvel().iter().all(|x| x.is_finite())
            && b.angvel().iter().all(|x| x.is_finite())
    })
}
