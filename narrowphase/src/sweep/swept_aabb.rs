//! Bounding boxes of moving shapes, for the broad phase of continuous collision.

use crate::bounding::Aabb;
use crate::math::{Isometry, Point, Real, Vector};

/// The world AABB of the oriented box of half-sizes `half_extents` placed by `pose`:
/// centre ± `|R| h` (RTCD §4.2.6). Non-finite input yields a box that fails
/// [`Aabb::is_valid`].
pub fn cuboid_aabb(pose: &Isometry, half_extents: &Vector) -> Aabb {
    let r = pose.rotation.to_rotation_matrix().into_inner().abs();
    let ext = r * half_extents;
    let c = Point::from(pose.translation.vector);
    Aabb::new_unchecked(c - ext, c + ext)
}

/// The smallest box holding a box at its start and end of a motion: `start ∪ end`. It bounds a
/// shape that translates linearly between the two (not one that rotates: see
/// [`swept_cuboid_aabb`]).
pub fn swept_aabb(start: &Aabb, end: &Aabb) -> Aabb {
    start.merged(end)
}

/// A box holding the oriented box (`half_extents`, local frame) at every instant of a motion
/// from `pose0` to `pose1` with the centre moving linearly and any rotation in between. Pure
/// translation (equal rotations) gives the exact swept box `AABB(pose0) ∪ AABB(pose1)`; when
/// the box also rotates, that union is grown by the AABB of the centre's path padded by the
/// circumradius `|h|`, which holds every orientation.
pub fn swept_cuboid_aabb(pose0: &Isometry, pose1: &Isometry, half_extents: &Vector) -> Aabb {
    let ends = cuboid_aabb(pose0, half_extents).merged(&cuboid_aabb(pose1, half_extents));
    let same_rotation = pose0.rotation.angle_to(&pose1.rotation) <= 1.0e-6;
    if same_rotation {
        return ends;
    }
    let pad: Real = half_extents.norm();
    let path = Aabb::from_points(&[
        Point::from(pose0.translation.vector),
        Point::from(pose1.translation.vector),
    ]);
    match path {
        Some(p) => ends.merged(&p.loosened(pad)),
        None => ends,
    }
}

/// The AABB swept by a sphere of radius `radius` whose centre moves from `c0` to `c1`.
pub fn swept_sphere_aabb(c0: &Point, c1: &Point, radius: Real) -> Aabb {
    let r = Vector::repeat(radius);
    Aabb::new_unchecked(c0.inf(c1) - r, c0.sup(c1) + r)
}
