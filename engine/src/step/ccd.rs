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
//!    time of impact is found by conservative advancement
//!    ([`tumble_narrowphase::sweep::time_of_impact`]). The body is moved back to that time; its
//!    velocity is kept, and next step's speculative contact stops (or bounces) it.
//!    Bodies already touching at the start of the step are left to the discrete solver.
//!
//! The TOIs are computed in parallel against the state after integration, then applied in
//! body order, so the result does not depend on the thread count.

use crate::body::Body;
use crate::proxies::BodyProxies;
use crate::state::State;
use tumble_broadphase::par::prelude::*;
use tumble_broadphase::BroadPhase;
use tumble_narrowphase::math::{Isometry, Real, Vector};
use tumble_narrowphase::shape::Shape;
use tumble_narrowphase::sweep::time_of_impact;
use tumble_narrowphase::Aabb;

/// The time-of-impact stage's buffers (kept between steps).
#[derive(Default)]
pub(crate) struct CcdScratch {
    /// Slots of the bodies swept this step.
    bodies: Vec<u32>,
    /// Per swept body, its earliest time of impact (fraction of the step), if any.
    hits: Vec<Option<Real>>,
}

/// Whether `b` may be swept by the time-of-impact stage (when it moved far enough): a
/// dynamic, non-sensor body built with `.ccd(true)`.
#[inline]
pub(crate) fn may_sweep(b: &Body) -> bool {
    b.ccd && b.is_dynamic() && !b.sensor
}

/// Smallest half-size of a body's shape (metres): of its box, or for a compound, of its
/// thinnest part's box (a table's top is thinner than the table).
fn min_half_size(b: &Body) -> Real {
    let of = |s: &Shape, p: &Isometry| {
        let he = s.aabb(p).half_extents();
        he.x.min(he.y).min(he.z)
    };
    match &b.shape {
        Shape::Compound(c) => c
            .children()
            .iter()
            .map(|(p, s)| of(s, p))
            .fold(Real::INFINITY, Real::min),
        s => of(s, &Isometry::identity()),
    }
}

/// The shape's pose at the start of the step with the end rotation, and its displacement.
fn sweep_of(b: &Body) -> (Isometry, Vector) {
    let end = b.shape_pose();
    let start = b.prev_pose * b.local_offset;
    let mut p0 = end;
    p0.translation = start.translation;
    (p0, end.translation.vector - start.translation.vector)
}

/// The time-of-impact stage; returns how many bodies were moved back.
#[inline(never)]
pub(crate) fn continuous_collision(
    state: &mut State,
    proxies: &BodyProxies,
    sc: &mut CcdScratch,
) -> usize {
    let cfg = &state.config;
    if !cfg.ccd {
        return 0;
    }
    let slop = cfg.linear_slop;
    let slots = &state.slots;
    sc.bodies.clear();
    for (i, s) in slots.iter().enumerate() {
        if let Some(b) = &s.body {
            if may_sweep(b) {
                let (_, d) = sweep_of(b);
                if d.norm() > 0.25 * min_half_size(b) {
                    sc.bodies.push(i as u32);
                }
            }
        }
    }
    if sc.bodies.is_empty() {
        return 0;
    }
    let broad = &proxies.broad;
    let body_of_proxy = &proxies.body_of_proxy;
    sc.bodies
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
        .collect_into_vec(&mut sc.hits);
    let mut hits = 0;
    for (&i, t) in sc.bodies.iter().zip(&sc.hits) {
        let Some(t) = *t else { continue };
        let Some(b) = state.slots[i as usize].body.as_mut() else {
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
