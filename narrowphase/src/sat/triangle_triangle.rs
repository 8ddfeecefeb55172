//! Triangle against triangle: 17 axes (Ericson, RTCD §5.2.1 applied to two triangles; the
//! interval method of Möller's "A Fast Triangle-Triangle Intersection Test" is an
//! optimisation of the same test).
//!
//! Candidates, in this order (0-based index): A's normal (`FaceA(0)`, 0), B's normal
//! (`FaceB(0)`, 1), edge `i` of A × edge `j` of B (`EdgeEdge(i, j)`, `2 + 3i + j`). Edge pairs
//! whose directions are nearly parallel (sine below [`crate::sat::convex::PARALLEL_SINE`])
//! are skipped, their cross product being rounding noise.
//!
//! Then the 6 in-plane edge normals `nA × eᵢ` (`InPlaneA(i)`, `11 + i`) and `nB × eⱼ`
//! (`InPlaneB(j)`, `14 + j`), always: 17 candidates. The first 11 are complete in exact
//! arithmetic for triangles that are not parallel, but not in f32:
//! - when the two normals are parallel (within the same sine), every edge cross product is
//!   parallel to them and the 9 edge axes can no longer separate triangles lying in one plane;
//! - when an edge pair is skipped, nothing replaces its axis (a triangle has no side faces);
//! - when the normals are θ apart, triangles a distance `d` apart in their (near) common plane
//!   are separated on the first 11 axes by only about `θ·d`: 9·10⁻⁷ m for θ = 1.4·10⁻³ and
//!   `d` = 0.88 mm (found by the sliver-pair property test of `tumble-tests`), below the
//!   rounding of the projections, so the pair read as touching. The in-plane normals measure
//!   `d` itself.
//!
//! They come last, so apart pairs that the first 11 separate clearly cost no more.
//! Triangles with collinear corners are refused by [`crate::shape::Triangle::new`].

use super::convex::PARALLEL_SINE;
use super::{AxisReport, SeparatingAxis};
use crate::math::{Point, Vector};

/// Candidates: 2 normals, 9 edge × edge, 6 in-plane normals.
pub const AXIS_COUNT: u16 = 17;

#[inline(always)]
fn gap(l: &Vector, a: &[Point; 3], b: &[Point; 3]) -> bool {
    let pa = [
        l.dot(&a[0].coords),
        l.dot(&a[1].coords),
        l.dot(&a[2].coords),
    ];
    let pb = [
        l.dot(&b[0].coords),
        l.dot(&b[1].coords),
        l.dot(&b[2].coords),
    ];
    let (amin, amax) = (pa[0].min(pa[1]).min(pa[2]), pa[0].max(pa[1]).max(pa[2]));
    let (bmin, bmax) = (pb[0].min(pb[1]).min(pb[2]), pb[0].max(pb[1]).max(pb[2]));
    amax < bmin || bmax < amin
}

/// The first axis separating triangles `a` and `b` (corners in one common frame), or None
/// when they overlap or touch.
pub fn triangle_triangle(a: &[Point; 3], b: &[Point; 3]) -> Option<AxisReport> {
    triangle_triangle_cached(a, b, None)
}

/// Like [`triangle_triangle`], trying `last` (the axis that separated the pair last frame)
/// first.
pub fn triangle_triangle_cached(
    a: &[Point; 3],
    b: &[Point; 3],
    last: Option<SeparatingAxis>,
) -> Option<AxisReport> {
    let ea = [a[1] - a[0], a[2] - a[1], a[0] - a[2]];
    let eb = [b[1] - b[0], b[2] - b[1], b[0] - b[2]];
    let na = ea[0].cross(&ea[1]);
    let nb = eb[0].cross(&eb[1]);
    let skipped = |x: &Vector, y: &Vector| {
        x.cross(y).norm_squared()
            <= PARALLEL_SINE * PARALLEL_SINE * x.norm_squared() * y.norm_squared()
    };
    let count = AXIS_COUNT;
    let axis = |k: u16| -> Option<Vector> {
        match k {
            0 => Some(na),
            1 => Some(nb),
            2..=10 => {
                let (i, j) = (((k - 2) / 3) as usize, ((k - 2) % 3) as usize);
                (!skipped(&ea[i], &eb[j])).then(|| ea[i].cross(&eb[j]))
            }
            11..=13 => Some(na.cross(&ea[(k - 11) as usize])),
            _ => Some(nb.cross(&eb[(k - 14) as usize])),
        }
    };
    let kind = |k: u16| match k {
        0 => SeparatingAxis::FaceA(0),
        1 => SeparatingAxis::FaceB(0),
        2..=10 => SeparatingAxis::EdgeEdge((k - 2) / 3, (k - 2) % 3),
        11..=13 => SeparatingAxis::InPlaneA(k - 11),
        _ => SeparatingAxis::InPlaneB(k - 14),
    };
    let report = |k: u16| AxisReport {
        axis: kind(k),
        index: k,
        count,
    };
    if let Some(last) = last {
        if let Some(k) = (0..count).find(|&k| kind(k) == last) {
            if axis(k).is_some_and(|l| gap(&l, a, b)) {
                return Some(report(k));
            }
        }
    }
    (0..count)
        .find(|&k| axis(k).is_some_and(|l| gap(&l, a, b)))
        .map(report)
}

/// True when the two triangles overlap or touch.
#[inline]
pub fn intersects(a: &[Point; 3], b: &[Point; 3]) -> bool {
    triangle_triangle(a, b).is_none()
}
