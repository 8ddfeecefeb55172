//! Triangle against cuboid: the 13-axis SAT of [`crate::sat::triangle_cuboid`] for the boolean test
//! (in the box's frame, three corner rotations on SIMD lanes, no branch, no allocation); contacts through the
//! generic polyhedron path ([`super::contact_convex_convex`]), the triangle being a flat
//! polyhedron.

use crate::math::{Isometry, Vector};
use crate::sat::triangle_cuboid::overlap_poses;
use crate::shape::Triangle;

/// True when the triangle at `pose_t` and the cuboid (half-extents `e`) at `pose_b` overlap or
/// touch.
#[inline]
pub fn intersection_triangle_cuboid(
    pose_t: &Isometry,
    tri: &Triangle,
    pose_b: &Isometry,
    e: &Vector,
) -> bool {
    overlap_poses(pose_t, tri.corners(), pose_b, e)
}
