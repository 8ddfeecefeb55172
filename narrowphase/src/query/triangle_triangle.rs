//! Triangle against triangle: the 17-axis SAT of [`crate::sat::triangle_triangle`] for the
//! boolean test; contacts through the generic polyhedron path
//! ([`super::contact_convex_convex`]).

use crate::math::Isometry;
use crate::shape::Triangle;

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
