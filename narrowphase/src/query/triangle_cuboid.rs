//! Triangle against box: the 13-axis SAT of [`crate::sat::triangle_box`] for the boolean test
//! (in the box's frame, three corner rotations on SIMD lanes, no branch, no allocation); contacts through the
//! generic polyhedron path ([`super::contact_convex_convex`]), the triangle being a flat
//! polyhedron.

use crate::math::{Isometry, Vector};
use crate::sat::triangle_box::overlap_poses;
use crate::shape::Triangle;

/// True when the triangle at `pose_t` and the box (half-extents `e`) at `pose_b` overlap or
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

/// True when the two triangles overlap or touch (17 axes; see
/// [`crate::sat::triangle_triangle`]).
#[inline]
pub fn intersection_triangle_triangle(
    pose_a: &Isometry,
    a: &Triangle,
    pose_b: &Isometry,
    b: &Triangle,
) -> bool {
    let rel = pose_a.inv_mul(pose_b);
    let cb = b.corners();
    crate::sat::triangle_triangle::intersects(a.corners(), &[rel * cb[0], rel * cb[1], rel * cb[2]])
}
