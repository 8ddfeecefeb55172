//! Continuous collision: fast bodies must not pass through thin walls.
//!
//! Two mechanisms, both active only for bodies built with `.ccd(true)` while
//! [`WorldConfig::ccd`](crate::WorldConfig::ccd) is on:
//!
//! 1. **Speculative contacts** (Catto, "Continuous Collision", GDC 2013; Box2D v3): the body's
//!    broad-phase box and its contact prediction distance grow by `|v|·dt`, so the narrow phase
//!    reports the surface it is heading for before it gets there, and the solver lets it close
//!    at most the gap this step.
//! 2. **Time of impact** (this stage, after positions are integrated): a body that moved more
//!    than a quarter of its smallest half-size is swept from its start to its end position
//!    (translation only, end rotation) against every body its swept box meets; the earliest
//!    time of impact is found by conservative advancement (Mirtich 1996; RTCD §5.5.6): with
//!    `d(t)` the separation at fraction `t` along the contact normal `n` (from A to B) and
//!    `c = −(Δb − Δa)·n` its closing rate over the step, `t += (d − slop/2)/c` until
//!    `d ≤ slop`; a normal that is not closing ends the search (no impact). Because the
//!    separation along a fixed axis is linear in `t` and bounds the distance from below, the
//!    step cannot pass the contact, and unlike a step of `d/|Δb − Δa|` it does not crawl
//!    when the motion is nearly parallel to the surface. The body is moved back to that time; its
//!    velocity is kept, and next step's speculative contact stops (or bounces) it.
//!    Bodies already touching at the start of the step are left to the discrete solver.
//!
//! The TOIs are computed in parallel against the state after integration, then applied in
//! body order, so the result does not depend on the thread count.

use crate::body::Body;
use crate::broadphase::BroadPhase;
use crate::math::{Isometry, Real, Vector};
use crate::narrowphase::Aabb;
use crate::step::contact_any;
use crate::world::World;
use rayon::prelude::*;

/// Iterations of conservative advancement before giving up (a grazing miss).
const MAX_ITERATIONS: usize = 24;

/// Whether `b` may be swept by the time-of-impact stage (when it moved far enough): a
/// dynamic, non-sensor body built with `.ccd(true)`.
#[inline]
pub(crate) fn may_sweep(b: &Body) -> bool {
    b.ccd && b.is_dynamic() && !b.sensor
}

/// Earliest fraction `t ∈ [0, 1]` of the step at which shape A (at `pa0`, moving by `da`) comes
/// within `slop` of shape B (at `pb0`, moving by `db`), translation only; None if it does not,
/// or if the shapes start within `slop` (or the pair is unsupported).
pub(crate) fn time_of_impact(
    sa: &crate::narrowphase::Shape,
    pa0: &Isometry,
    da: &Vector,
    sb: &crate::narrowphase::Shape,
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
        let m = contact_any(&pa, sa, &pb, sb, reach).ok()??;
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

/// Smallest half-size of a body's shape (metres).
fn min_half_size(b: &Body) -> Real {
    let he = b.shape.aabb(&Isometry::identity()).half_extents();
    he.x.min(he.y).min(he.z)
}

/// The shape's pose at the start of the step with the end rotation, and its displacement.
fn sweep_of(b: &Body) -> (Isometry, Vector) {
    let end = b.shape_pose();
    let start = b.prev_pose * b.local_offset;
    let mut p0 = end;
    p0.translation = start.translation;
    (p0, end.translation.vector - start.translation.vector)
}

impl World {
    /// The time-of-impact stage; returns how many bodies were moved back.
    #[inline(never)]
    pub(crate) fn continuous_collision(&mut self) -> usize {
        let cfg = &self.state.config;
        if !cfg.ccd {
            return 0;
        }
        let slop = cfg.linear_slop;
        let slots = &self.state.slots;
        let sc = &mut self.scratch;
        sc.ccd_bodies.clear();
        for (i, s) in slots.iter().enumerate() {
            if let Some(b) = &s.body {
                if may_sweep(b) {
                    let (_, d) = sweep_of(b);
                    if d.norm() > 0.25 * min_half_size(b) {
                        sc.ccd_bodies.push(i as u32);
                    }
                }
            }
        }
        if sc.ccd_bodies.is_empty() {
            return 0;
        }
        let broad = &self.broad;
        let body_of_proxy = &self.body_of_proxy;
        sc.ccd_bodies
            .par_iter()
            .map(|&i| {
                let b = slots[i as usize].body.as_ref()?;
                let (p0, d) = sweep_of(b);
                let swept: Aabb = b
                    .shape
                    .aabb(&p0)
                    .merged(&b.shape.aabb(&b.shape_pose()))
                    .loosened(slop);
                let mut found = Vec::new();
                broad.query_aabb(&swept, &mut found);
                let mut best: Option<Real> = None;
                for proxy in found {
                    let Some(&j) = body_of_proxy.get(proxy.index() as usize) else {
                        continue;
                    };
                    if j == i {
                        continue;
                    }
                    let Some(o) = slots.get(j as usize).and_then(|s| s.body.as_ref()) else {
                        continue;
                    };
                    if o.sensor || !b.groups_match(o) {
                        continue;
                    }
                    let (q0, e) = if o.is_moving() {
                        sweep_of(o)
                    } else {
                        (o.shape_pose(), Vector::zeros())
                    };
                    if let Some(t) = time_of_impact(&b.shape, &p0, &d, &o.shape, &q0, &e, slop) {
                        match best {
                            Some(bt) if bt <= t => {}
                            _ => best = Some(t),
                        }
                    }
                }
                best
            })
            .collect_into_vec(&mut sc.ccd_hits);
        let mut hits = 0;
        for (&i, t) in sc.ccd_bodies.iter().zip(&sc.ccd_hits) {
            let Some(t) = *t else { continue };
            let Some(b) = self.state.slots[i as usize].body.as_mut() else {
                continue;
            };
            let (p0, d) = sweep_of(b);
            let com = p0.translation.vector + d * t;
            // Shape pose → body pose: body = shape · offset⁻¹.
            let mut shape_pose = b.shape_pose();
            shape_pose.translation.vector = com;
            b.pose = shape_pose * b.local_offset.inverse();
            hits += 1;
        }
        hits
    }
}
