//! Time of impact of any two shapes moving linearly, by conservative advancement (Mirtich 1996;
//! Ericson, RTCD §5.5.6), for the pairs without a closed-form sweep.
//!
//! With `d(t)` the separation at fraction `t` of the motion along the contact normal `n` (from A
//! to B) and `c = −(Δb − Δa)·n` its closing rate over the motion, `t += (d − slop/2)/c` until
//! `d ≤ slop`; a normal that is not closing ends the search (no impact). Because the separation
//! along a fixed axis is linear in `t` and bounds the distance from below, the step cannot pass
//! the contact, and unlike a step of `d/|Δb − Δa|` it does not crawl when the motion is nearly
//! parallel to the surface.
//!
//! The search runs with both starting poses moved to the midpoint of their translations
//! ([`crate::query`], "The frame of computation"), so that advancing them by `t` and measuring
//! their contact round at the pair's own size: a time of impact is as exact far from the
//! origin as next to it. A pair with a mesh is cast in the mesh's own frame.

use crate::math::{Isometry, Real, Vector};
use crate::query::{contact_in_frame, Frame};
use crate::shape::ShapeRef;

/// A mesh is not convex, so the advancement's bound does not hold for it: a pair with a mesh
/// is cast triangle by triangle ([`crate::mesh::TriMesh::cast_shape`]), the other shape moving
/// by the relative motion. `None` when neither shape is a mesh; `Some(None)` for two meshes,
/// no impact, or shapes within `slop` at the start (as [`time_of_impact`]).
fn mesh_time_of_impact(
    sa: ShapeRef,
    pa0: &Isometry,
    da: &Vector,
    sb: ShapeRef,
    pb0: &Isometry,
    db: &Vector,
    slop: Real,
) -> Option<Option<Real>> {
    let cast =
        |mesh: ShapeRef, mesh_pose: &Isometry, other: ShapeRef, pose: &Isometry, d: &Vector| {
            let toi = match mesh {
                ShapeRef::TriMesh(m) => m.cast_shape(mesh_pose, pose, other, d, slop),
                ShapeRef::HeightField(h) => h.cast_shape(mesh_pose, pose, other, d, slop),
                _ => None,
            };
            toi.map(|h| h.toi.t).filter(|&t| t > 0.0)
        };
    let is_mesh = |s: ShapeRef| matches!(s, ShapeRef::TriMesh(_) | ShapeRef::HeightField(_));
    match (is_mesh(sa), is_mesh(sb)) {
        (false, false) => None,
        (true, true) => Some(None),
        (true, false) => Some(cast(sa, pa0, sb, pb0, &(db - da))),
        (false, true) => Some(cast(sb, pb0, sa, pa0, &(da - db))),
    }
}

/// Iterations of conservative advancement before giving up (a grazing miss).
const MAX_ITERATIONS: usize = 24;

/// Earliest fraction `t ∈ [0, 1]` of the step at which shape A (at `pa0`, moving by `da`) comes
/// within `slop` of shape B (at `pb0`, moving by `db`), translation only; None if it does not,
/// or if the shapes start within `slop` (or the pair is unsupported).
pub fn time_of_impact<'a, 'b>(
    sa: impl Into<ShapeRef<'a>>,
    pa0: &Isometry,
    da: &Vector,
    sb: impl Into<ShapeRef<'b>>,
    pb0: &Isometry,
    db: &Vector,
    slop: Real,
) -> Option<Real> {
    let (sa, sb) = (sa.into(), sb.into());
    if let Some(t) = crate::query::compound::time_of_impact_pair(sa, pa0, da, sb, pb0, db, slop) {
        return t;
    }
    if let Some(t) = mesh_time_of_impact(sa, pa0, da, sb, pb0, db, slop) {
        return t;
    }
    let f = Frame::between(pa0, pb0);
    convex_time_of_impact(sa, &f.pose(pa0), da, sb, &f.pose(pb0), db, slop)
}

/// Conservative advancement of two convex shapes in the frame of their poses.
fn convex_time_of_impact(
    sa: ShapeRef,
    pa0: &Isometry,
    da: &Vector,
    sb: ShapeRef,
    pb0: &Isometry,
    db: &Vector,
    slop: Real,
) -> Option<Real> {
    let rel = db - da;
    let len = rel.norm();
    if len.is_nan() || len <= 1e-9 || !len.is_finite() {
        return None;
    }
    let mut t: Real = 0.0;
    for it in 0..MAX_ITERATIONS {
        let mut pa = *pa0;
        pa.translation.vector += da * t;
        let mut pb = *pb0;
        pb.translation.vector += db * t;
        let reach = len * (1.0 - t) + slop;
        let m = contact_in_frame(&pa, sa, &pb, sb, reach).ok()??;
        let dist = -m.max_depth();
        if !dist.is_finite() {
            return None;
        }
        if dist <= slop {
            // Touching at the start: the discrete solver handles it.
            return if it == 0 { None } else { Some(t) };
        }
        // The separation along the fixed axis `n` changes linearly with t at the rate
        // `(db − da)·n`, and it is a lower bound of the distance, so stepping until it reaches
        // slop/2 cannot overshoot the contact (Newton's step on the convex distance function of
        // a translation; it converges in one step for face contacts, where `dist/len` crawls
        // at the cosine of the angle of approach). An axis that is not closing separates the
        // shapes for the rest of the motion.
        let closing = -rel.dot(&m.normal);
        if closing <= 1e-9 * len || !closing.is_finite() {
            return None;
        }
        t += (dist - 0.5 * slop) / closing;
        if t >= 1.0 {
            return None;
        }
    }
    None
}
