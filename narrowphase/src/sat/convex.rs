//! The generic separating axis test of two convex polyhedra in world space (Ericson, RTCD
//! §5.2.1; Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013).
//!
//! Candidates, in this order: every distinct face normal of A, every distinct face normal of
//! B, then every distinct edge direction of A crossed with every distinct edge direction of B.
//! Edge pairs whose directions are nearly parallel (sine of their angle below
//! [`PARALLEL_SINE`], 10⁻⁵) are skipped: their cross product is rounding noise. The threshold
//! is on unit directions, so it is independent of the shapes' size and position. Last come the
//! in-plane edge normals `n × e` of the flat shapes (a triangle's
//! side faces, seen as a thin prism), whatever the other shape: coplanar triangles need them,
//! so do skipped edge pairs, and slivers apart corner to corner (see `candidates`).
//!
//! Each axis is tried by projecting all corners of both shapes: O(V) per axis, so
//! O((F_A + F_B + E_A·E_B)·(V_A + V_B)) per test. That is fine for boxes and small hulls and is
//! the oracle the fast tests are checked against, and the axis-report API. The query functions
//! use GJK ([`crate::gjk`]) and the Gauss-map SAT ([`super::gauss_map`]) instead, at every
//! size: it tries only the edge pairs that form a face of the Minkowski difference.

use super::{AxisReport, SeparatingAxis};
use crate::math::{Isometry, Real, Vector};
use crate::shape::ConvexPolyhedron;
use std::cell::OnceCell;

/// Edge pairs whose unit directions have a cross product shorter than this are skipped.
///
/// Down to this sine the f32 cross product of unit directions (rounding about 10⁻⁷) is within
/// 1 % of its true direction, and any direction is a valid axis: the overlap along it is
/// measured from the corners, so it never understates the penetration. A larger threshold
/// loses the axis of least penetration when it is the cross product of nearly parallel edges,
/// and no face stands in for it:
/// - a flat shape has no side face: nearly coplanar triangles sharing an edge, the two copies
///   8.9·10⁻⁴ rad from parallel, overlapped by 3.3·10⁻⁵ m across that edge pair and by 1.3 mm
///   on every other candidate (fuzz input `triangle_triangle_shared_edge_depth_not_minimal`);
/// - a needle hull (corners within 10⁻³ rad of a line) has side faces that are far from the
///   edge pair's axis too: two such hulls sharing an edge, the long edges 9·10⁻⁴ rad from
///   parallel, overlapped by 3.6·10⁻⁴ m across them and by 1.08 mm on every face (the
///   threshold was 10⁻³ for solids; test `needles_sharing_an_edge_or_a_corner`).
///
/// Below it the cross product is noise; for a flat shape the in-plane normals of the edge
/// then overlap by at most about `sin θ ×` the edge length more than the skipped axis
/// (4·10⁻⁵ m for a 4 m edge). The Gauss-map SAT ([`super::gauss_map`]) uses the same
/// threshold.
pub const PARALLEL_SINE: Real = 1e-5;

/// Up to this many faces on both sides, the boolean query of two polyhedra is this full test
/// (beyond, GJK); their contacts use [`super::gauss_map`] at every size.
pub const SAT_MAX_FACES: usize = 32;

/// One polyhedron under a pose; its axes are turned into world space once, on first use by
/// the full test (the Gauss-map SAT and the manifolds never ask for them).
pub struct Posed<'a> {
    /// The shape.
    pub shape: &'a ConvexPolyhedron,
    /// Its pose.
    pub pose: &'a Isometry,
    axes: OnceCell<WorldAxes>,
}

/// The face normals and edge directions of a [`Posed`] shape, world frame.
struct WorldAxes {
    face_normals: Vec<Vector>,
    edge_dirs: Vec<Vector>,
}

impl<'a> Posed<'a> {
    /// `shape` at `pose` (nothing computed yet).
    pub fn new(shape: &'a ConvexPolyhedron, pose: &'a Isometry) -> Self {
        Self {
            shape,
            pose,
            axes: OnceCell::new(),
        }
    }

    fn axes(&self) -> &WorldAxes {
        self.axes.get_or_init(|| WorldAxes {
            face_normals: self
                .shape
                .face_normals()
                .iter()
                .map(|n| self.pose.rotation * n)
                .collect(),
            edge_dirs: self
                .shape
                .edge_directions()
                .iter()
                .map(|d| self.pose.rotation * d)
                .collect(),
        })
    }

    /// `[min, max]` of the shape projected on the world direction `l`.
    #[inline]
    pub fn project(&self, l: &Vector) -> (Real, Real) {
        let local = self.pose.rotation.inverse_transform_vector(l);
        let (lo, hi) = self.shape.project(&local);
        let o = self.pose.translation.vector.dot(l);
        (lo + o, hi + o)
    }
}

/// Separation of A and B on unit axis `l` (positive: gap), and whether B lies on the `+l`
/// side of A (so that `l`, or `−l` when false, points from A to B).
#[inline]
fn separation_on(a: &Posed, b: &Posed, l: &Vector) -> (Real, bool) {
    let (amin, amax) = a.project(l);
    let (bmin, bmax) = b.project(l);
    let forward = bmin - amax;
    let backward = amin - bmax;
    if forward >= backward {
        (forward, true)
    } else {
        (backward, false)
    }
}

/// Every candidate axis in order: (kind, unit world direction or None when skipped).
///
/// The in-plane side normals `n × e` of a flat shape are candidates whatever the other shape:
/// the side faces of a triangle seen as the limit of a thin prism. Like every direction they
/// can never understate the overlap, and they are needed:
/// - when both shapes are flat and parallel, the edge crosses all collapse onto the common
///   normal, so only the in-plane normals separate triangles lying in one plane;
/// - when an edge pair is within [`PARALLEL_SINE`] of parallel, its cross product is skipped
///   and a flat shape has no side face that would separate in its place (nearly coplanar
///   triangles sharing an edge direction, 1.9·10⁻³ rad apart, were reported touching while
///   1.2 mm apart in their common plane);
/// - when nearly coplanar slivers are apart corner to corner, every face and edge × edge axis
///   can separate them by almost nothing (5·10⁻⁶ m for a gap of 0.73 mm, normals 0.4 rad
///   apart; fuzz inputs `triangle_triangle_depth_not_minimal` and
///   `triangle_triangle_point_outside_the_aabbs`), so the contact took a face axis that
///   reported a touch or penetration, its point midway across the gap; the in-plane normal
///   along which the corners face each other measures the gap.
fn candidates<'s>(
    a: &'s Posed,
    b: &'s Posed,
) -> impl Iterator<Item = (SeparatingAxis, Option<Vector>)> + 's {
    let fa = a
        .axes()
        .face_normals
        .iter()
        .enumerate()
        .map(|(i, n)| (SeparatingAxis::FaceA(i as u16), Some(*n)));
    let fb = b
        .axes()
        .face_normals
        .iter()
        .enumerate()
        .map(|(j, n)| (SeparatingAxis::FaceB(j as u16), Some(*n)));
    let ee = a
        .axes()
        .edge_dirs
        .iter()
        .enumerate()
        .flat_map(move |(i, ea)| {
            b.axes().edge_dirs.iter().enumerate().map(move |(j, eb)| {
                let c = ea.cross(eb);
                let len = c.norm();
                let axis = (len >= PARALLEL_SINE).then(|| c / len);
                (SeparatingAxis::EdgeEdge(i as u16, j as u16), axis)
            })
        });
    let ipa = a
        .axes()
        .edge_dirs
        .iter()
        .enumerate()
        .filter(move |_| a.shape.is_flat())
        .map(move |(i, e)| {
            (
                SeparatingAxis::InPlaneA(i as u16),
                a.axes().face_normals[0].cross(e).try_normalize(0.0),
            )
        });
    let ipb = b
        .axes()
        .edge_dirs
        .iter()
        .enumerate()
        .filter(move |_| b.shape.is_flat())
        .map(move |(j, e)| {
            (
                SeparatingAxis::InPlaneB(j as u16),
                b.axes().face_normals[0].cross(e).try_normalize(0.0),
            )
        });
    fa.chain(fb).chain(ee).chain(ipa).chain(ipb)
}

fn count(a: &Posed, b: &Posed) -> u16 {
    let mut n = a.axes().face_normals.len()
        + b.axes().face_normals.len()
        + a.axes().edge_dirs.len() * b.axes().edge_dirs.len();
    n += [a, b]
        .iter()
        .filter(|p| p.shape.is_flat())
        .map(|p| p.axes().edge_dirs.len())
        .sum::<usize>();
    n.min(u16::MAX as usize) as u16
}

/// The first candidate axis that separates A and B, or None when they overlap or touch.
pub fn convex_convex(a: &Posed, b: &Posed) -> Option<AxisReport> {
    convex_convex_cached(a, b, None)
}

/// Like [`convex_convex`], trying `last` (the axis that separated the pair last frame) first.
pub fn convex_convex_cached(
    a: &Posed,
    b: &Posed,
    last: Option<SeparatingAxis>,
) -> Option<AxisReport> {
    let total = count(a, b);
    if let Some(last) = last {
        if let Some((index, (axis, Some(l)))) =
            candidates(a, b).enumerate().find(|(_, (k, _))| *k == last)
        {
            if separation_on(a, b, &l).0 > 0.0 {
                return Some(AxisReport {
                    axis,
                    index: index.min(u16::MAX as usize) as u16,
                    count: total,
                });
            }
        }
    }
    candidates(a, b).enumerate().find_map(|(index, (axis, l))| {
        let l = l?;
        (separation_on(a, b, &l).0 > 0.0).then_some(AxisReport {
            axis,
            index: index.min(u16::MAX as usize) as u16,
            count: total,
        })
    })
}

/// The axis of largest separation (least penetration) between A and B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepestAxis {
    /// Separation on the axis, metres: positive = gap, negative = penetration depth.
    pub separation: Real,
    /// Unit world direction, pointing from A to B.
    pub normal: Vector,
    /// Which candidate it is.
    pub axis: SeparatingAxis,
}

/// The candidate of largest separation. Face axes win over edge axes unless an edge axis is
/// better by more than `tolerance` metres (faces give stabler manifolds); A's faces win
/// ties with B's. Neither preference lets an axis that does not separate win over one that
/// does: two triangles apart by 3.9·10⁻⁶ m on B's normal got A's normal (−3.5·10⁻⁶), a
/// penetrating manifold, and a point from features that do not meet, 0.5 mm outside A's AABB
/// (sliver-pair property test of `tumble-tests`). Returns None only if no candidate is usable (cannot happen for valid
/// polyhedra, which have at least one face normal).
pub fn deepest_axis(a: &Posed, b: &Posed, tolerance: Real) -> Option<DeepestAxis> {
    let mut best_face: Option<DeepestAxis> = None;
    let mut best_other: Option<DeepestAxis> = None;
    for (axis, l) in candidates(a, b) {
        let Some(l) = l else { continue };
        let (sep, forward) = separation_on(a, b, &l);
        let cand = DeepestAxis {
            separation: sep,
            normal: if forward { l } else { -l },
            axis,
        };
        let is_face = matches!(axis, SeparatingAxis::FaceA(_) | SeparatingAxis::FaceB(_));
        let slot = if is_face {
            &mut best_face
        } else {
            &mut best_other
        };
        let margin = if matches!(axis, SeparatingAxis::FaceB(_)) {
            tolerance
        } else {
            0.0
        };
        // The preferences never turn "apart" into "touching": an axis that separates beats
        // one that does not whatever the margin.
        let wins =
            |s: &DeepestAxis| sep > s.separation + margin || (sep > 0.0 && s.separation <= 0.0);
        if slot.as_ref().is_none_or(wins) {
            *slot = Some(cand);
        }
    }
    match (best_face, best_other) {
        (Some(f), Some(o))
            if o.separation > f.separation + tolerance
                || (o.separation > 0.0 && f.separation <= 0.0) =>
        {
            Some(o)
        }
        (Some(f), _) => Some(f),
        (None, o) => o,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vector;
    use crate::shape::Cuboid;

    #[test]
    fn cube_pair_has_15_candidates_and_finds_the_face() {
        let c = ConvexPolyhedron::from_cuboid(&Cuboid::new(Vector::repeat(1.0)).unwrap());
        let pa = Isometry::identity();
        let pb = Isometry::translation(0.0, 2.5, 0.0);
        let (a, b) = (Posed::new(&c, &pa), Posed::new(&c, &pb));
        let r = convex_convex(&a, &b).unwrap();
        assert_eq!(r.count, 15);
        assert_eq!(r.axis, SeparatingAxis::FaceA(1));
        let d = deepest_axis(&a, &b, 0.0).unwrap();
        assert!((d.separation - 0.5).abs() < 1e-6);
        assert!((d.normal - Vector::y()).norm() < 1e-6);
    }

    #[test]
    fn coplanar_triangles_use_in_plane_normals() {
        let p = crate::test_util::right_triangle_hull();
        let pa = Isometry::identity();
        let pb = Isometry::translation(0.8, 0.8, 0.0);
        let (a, b) = (Posed::new(&p, &pa), Posed::new(&p, &pb));
        let r = convex_convex(&a, &b).expect("apart in their common plane");
        assert!(matches!(
            r.axis,
            SeparatingAxis::InPlaneA(_) | SeparatingAxis::InPlaneB(_)
        ));
        let pb = Isometry::translation(0.3, 0.3, 0.0);
        assert!(convex_convex(&a, &Posed::new(&p, &pb)).is_none());
    }
}
