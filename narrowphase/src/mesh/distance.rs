//! Distance and closest points between a mesh (or heightfield) and another shape: the least
//! over the triangles, each triangle asked as a [`Triangle`] at the mesh's pose.
//!
//! Only triangles near the other shape are asked, in two rounds over the mesh's own hierarchy
//! (the triangles whose boxes overlap a box, in the mesh's frame):
//!
//! 1. **An upper bound.** The other shape's box is grown, from its gap to the mesh's box and
//!    doubling, until it meets some triangle's box; the least distance `d` over those
//!    triangles is at least the true one.
//! 2. **Every triangle that can beat it.** A triangle within `d` of the shape has a point
//!    within `d` of the shape's box on every axis, so its box overlaps that box grown by `d`
//!    (by 0 for a penetration): those triangles are asked, and the least answer is exact.
//!
//! Ties go to the lower triangle id, so the answer is the same whatever the hierarchy's order.
//! A mesh against a mesh has no algorithm ([`QueryError::Unsupported`]).

use super::query::{local_box, TriangleSource};
use super::{HeightField, TriMesh};
use crate::math::{Isometry, Real};
use crate::query::{better, ClosestPoints, QueryError, UnsupportedPair};
use crate::shape::{ShapeRef, Triangle};

/// The mesh of a pair, its pose, the other shape and its pose, and whether the mesh is B;
/// `None` when neither shape is a mesh, an error when both are.
#[allow(clippy::type_complexity)]
fn split<'s>(
    pose_a: &'s Isometry,
    a: ShapeRef<'s>,
    pose_b: &'s Isometry,
    b: ShapeRef<'s>,
) -> Option<
    Result<
        (
            &'s dyn TriangleSource,
            &'s Isometry,
            ShapeRef<'s>,
            &'s Isometry,
            bool,
        ),
        QueryError,
    >,
> {
    let mesh = |s: ShapeRef<'s>| -> Option<&'s dyn TriangleSource> {
        match s {
            ShapeRef::TriMesh(m) => Some(m as &TriMesh),
            ShapeRef::HeightField(h) => Some(h as &HeightField),
            _ => None,
        }
    };
    match (mesh(a), mesh(b)) {
        (Some(_), Some(_)) => Some(Err(QueryError::Unsupported(UnsupportedPair {
            a: a.kind_name(),
            b: b.kind_name(),
        }))),
        (Some(m), None) => Some(Ok((m, pose_a, b, pose_b, false))),
        (None, Some(m)) => Some(Ok((m, pose_b, a, pose_a, true))),
        (None, None) => None,
    }
}

/// The least over the triangles of `key(query(pair))` (see the [module docs](self)), each
/// pair asked triangle first, or `other` first when `is_b`; ties to the lower triangle.
fn least<T: Copy>(
    src: &dyn TriangleSource,
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
    is_b: bool,
    query: impl Fn(&Isometry, ShapeRef, &Isometry, ShapeRef) -> Result<T, QueryError>,
    key: impl Fn(&T) -> Real,
) -> Result<T, QueryError> {
    let far = QueryError::NonFinite("result (the poses are too far out)");
    let q = local_box(mesh_pose, other_pose, other).ok_or(far)?;
    let ask = |id: u32| -> Result<T, QueryError> {
        let tri: Triangle = src.tri(id);
        let t = ShapeRef::Triangle(&tri);
        if is_b {
            query(other_pose, other, mesh_pose, t)
        } else {
            query(mesh_pose, t, other_pose, other)
        }
    };
    // The triangles whose boxes overlap `q` grown by `r`, in id order.
    let near = |r: Real| -> Vec<u32> {
        let mut ids = Vec::new();
        src.visit(&q.loosened(r), &mut |id| {
            ids.push(id);
            true
        });
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    // The least over `ids` not in `skip` (both in id order), folded into `best`; ties to
    // the lower id.
    let least_of = |ids: &[u32], skip: &[u32], mut best: Option<(T, u32)>| {
        for &id in ids.iter().filter(|id| skip.binary_search(id).is_err()) {
            let c = ask(id)?;
            if better(key(&c), id, best.map(|(b, j)| (key(&b), j))) {
                best = Some((c, id));
            }
        }
        Ok::<_, QueryError>(best)
    };
    // Round 1: grow from the gap between the boxes until some triangle's box is met.
    let bounds = src.bounds();
    let gap = bounds.distance(&q);
    let reach = gap + (bounds.maxs - bounds.mins).norm();
    let mut r = gap
        .max(1e-3 * (q.maxs - q.mins).norm())
        .max(Real::MIN_POSITIVE);
    let first = loop {
        let ids = near(r);
        if !ids.is_empty() || r > reach || !r.is_finite() {
            break ids;
        }
        r *= 2.0;
    };
    let Some(bound) = least_of(&first, &[], None)? else {
        return Err(far);
    };
    // Round 2: every triangle that can be as near as the bound, those of round 1 not asked
    // again.
    let d = key(&bound.0).max(0.0);
    let (c, _) = least_of(&near(d), &first, Some(bound))?.unwrap_or(bound);
    if key(&c).is_finite() {
        Ok(c)
    } else {
        Err(far)
    }
}

/// [`crate::query::closest_points`] when `a` or `b` is a mesh or heightfield; `None`
/// otherwise.
pub(crate) fn closest_points_pair(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Option<Result<ClosestPoints, QueryError>> {
    let query = |pa: &Isometry, a: ShapeRef, pb: &Isometry, b: ShapeRef| {
        crate::query::closest_points(pa, a, pb, b)
    };
    least_pair(pose_a, a, pose_b, b, query, |c| c.distance)
}

/// [`crate::query::distance`] when `a` or `b` is a mesh or heightfield; `None` otherwise.
pub(crate) fn distance_pair(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Option<Result<Real, QueryError>> {
    let query = |pa: &Isometry, a: ShapeRef, pb: &Isometry, b: ShapeRef| {
        crate::query::distance(pa, a, pb, b)
    };
    least_pair(pose_a, a, pose_b, b, query, |d| *d)
}

/// [`least`] of `query` over the triangles when `a` or `b` is a mesh or heightfield; `None`
/// otherwise.
fn least_pair<T: Copy>(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
    query: impl Fn(&Isometry, ShapeRef, &Isometry, ShapeRef) -> Result<T, QueryError>,
    key: impl Fn(&T) -> Real,
) -> Option<Result<T, QueryError>> {
    Some(
        split(pose_a, a, pose_b, b)?.and_then(|(m, pose, other, other_pose, is_b)| {
            least(m, pose, other_pose, other, is_b, query, key)
        }),
    )
}
