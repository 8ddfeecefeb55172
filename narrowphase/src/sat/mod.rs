//! Separating axis tests (SAT).
//!
//! Two convex shapes are disjoint if and only if some axis exists on which their projections
//! (intervals) do not overlap. For polyhedra it suffices to try the face normals of both shapes
//! and the cross products of every edge direction of A with every edge direction of B
//! (Ericson, *Real-Time Collision Detection*, §4.4 and §5.2.1). Each test here stops at the
//! first axis that separates and can report it as a [`AxisReport`]: which kind of axis
//! ([`SeparatingAxis`]), its position among the candidates tried, and how many candidates the
//! test has.
//!
//! Which test is used for which pair:
//! - [`cuboid_cuboid`]: two boxes, 15 axes on the relative rotation matrix, `|R| + ε` so that
//!   near-parallel edge pairs cannot fake a gap (Ericson §4.4.1). Never projects corners.
//!   Its plain boolean (`cuboid_cuboid::overlap_poses`, what `query::intersection_test` runs) takes
//!   the 15 axes three at a time without early exit, on three lanes of [`crate::simd`] (SSE on
//!   x86_64, the project's one SIMD module, with a scalar twin).
//! - [`triangle_cuboid`]: 13 axes (3 box faces, the triangle normal, 9 edge × edge), in the box's
//!   frame (Akenine-Möller's test, Ericson §5.2.9).
//! - [`triangle_triangle`]: 11 axes (2 normals, 9 edge × edge), plus the 6 in-plane edge normals
//!   when the triangles are coplanar, so degenerate cross products never decide alone.
//! - [`convex`]: the generic test on two [`crate::shape::ConvexPolyhedron`]s in world space
//!   (face normals of both, then every edge × edge, near-parallel pairs skipped with a
//!   scale-aware threshold). It is the oracle of the fast tests above and gives the axis
//!   reports, and the boolean test of polyhedron pairs up to [`convex::SAT_MAX_FACES`] faces;
//!   beyond, GJK ([`crate::gjk`]), whose cost grows with the number of vertices, not with the
//!   product of the edge counts.
//! - [`gauss_map`]: the deepest axis of two polyhedra of any size, exact for penetrating
//!   pairs, with the edge pairs pruned on the Gauss map (only the pairs whose arcs cross form
//!   a face of the Minkowski difference). The contacts of polyhedra of every size use it.
//!
//! Every test has a `_cached` variant that takes the axis that separated the pair last frame
//! and tries it first (temporal coherence: a separated pair usually stays separated by the
//! same axis).

pub mod convex;
pub mod cuboid_cuboid;
pub mod gauss_map;
mod pose;
pub mod triangle_cuboid;
pub mod triangle_triangle;

use std::fmt;

/// The kind of a separating axis. Indices are 0-based in the value and shown 1-based by
/// [`fmt::Display`] (so `EdgeEdge(0, 1)` reads "edge 1 of A × edge 2 of B").
///
/// For a box, face `i` and edge `i` are both "the local axis `i`" (x, y, z): face `i` is the
/// pair of faces whose normal is ±axis `i`, edge `i` the four edges parallel to axis `i`.
/// For a triangle, face 0 is its plane, edge `i` runs from corner `i` to corner `i + 1`; the
/// in-plane normals used by coplanar triangles are [`SeparatingAxis::InPlaneA`] /
/// [`SeparatingAxis::InPlaneB`]. For a polyhedron, the indices are those of
/// [`crate::shape::ConvexPolyhedron::face_normals`] and
/// [`crate::shape::ConvexPolyhedron::edge_directions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeparatingAxis {
    /// Face normal number `i` of shape A.
    FaceA(u16),
    /// Face normal number `j` of shape B.
    FaceB(u16),
    /// Edge direction `i` of A crossed with edge direction `j` of B.
    EdgeEdge(u16, u16),
    /// Triangle A's normal crossed with its edge `i` (coplanar triangles only).
    InPlaneA(u16),
    /// Triangle B's normal crossed with its edge `j` (coplanar triangles only).
    InPlaneB(u16),
}

impl fmt::Display for SeparatingAxis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SeparatingAxis::FaceA(i) => write!(f, "face {} of A", i + 1),
            SeparatingAxis::FaceB(j) => write!(f, "face {} of B", j + 1),
            SeparatingAxis::EdgeEdge(i, j) => {
                write!(f, "edge {} of A × edge {} of B", i + 1, j + 1)
            }
            SeparatingAxis::InPlaneA(i) => write!(f, "in-plane normal of edge {} of A", i + 1),
            SeparatingAxis::InPlaneB(j) => write!(f, "in-plane normal of edge {} of B", j + 1),
        }
    }
}

/// Which axis separated a pair, and where it stands among the candidates of the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AxisReport {
    /// The axis that separated the pair.
    pub axis: SeparatingAxis,
    /// Its 0-based position in the test's fixed order of candidates.
    pub index: u16,
    /// How many candidates the test has in all.
    pub count: u16,
}

impl AxisReport {
    /// The report of candidate `index` of a test with `count` candidates, whose kinds
    /// `axis_of` gives.
    pub(crate) fn of_index(index: u16, count: u16, axis_of: fn(u16) -> SeparatingAxis) -> Self {
        AxisReport {
            axis: axis_of(index),
            index,
            count,
        }
    }
}

impl fmt::Display for AxisReport {
    /// E.g. "edge 1 of A × edge 2 of B (8th of 15)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.index as u32 + 1;
        let suffix = match (n % 10, n % 100) {
            (1, r) if r != 11 => "st",
            (2, r) if r != 12 => "nd",
            (3, r) if r != 13 => "rd",
            _ => "th",
        };
        write!(f, "{} ({}{} of {})", self.axis, n, suffix, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_reads_like_the_issue() {
        let r = AxisReport {
            axis: SeparatingAxis::EdgeEdge(0, 1),
            index: 7,
            count: 15,
        };
        assert_eq!(r.to_string(), "edge 1 of A × edge 2 of B (8th of 15)");
        let r = AxisReport {
            axis: SeparatingAxis::FaceB(2),
            index: 5,
            count: 15,
        };
        assert_eq!(r.to_string(), "face 3 of B (6th of 15)");
        for (i, s) in [
            (0, "1st"),
            (1, "2nd"),
            (2, "3rd"),
            (10, "11th"),
            (11, "12th"),
            (20, "21st"),
        ] {
            let r = AxisReport {
                axis: SeparatingAxis::FaceA(0),
                index: i,
                count: 99,
            };
            assert!(r.to_string().contains(s), "{r}");
        }
    }
}
