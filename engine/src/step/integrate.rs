//! Integration: velocities from forces at the start of a step, positions from the solved
//! velocities after the solve; and what happens to a body a non-finite value reaches (frozen,
//! back to its pose at the start of the step, reported).

use crate::body::Body;
use crate::body::BodyKind;
use crate::events::StepReport;
use crate::handle::BodyHandle;
use crate::solver::SolverBody;
use crate::state::{Slot, State};
use crate::step::ccd::may_sweep;
use crate::step::pairs::{Activity, BodyInfo};
use tumble_broadphase::par::prelude::*;
use tumble_narrowphase::math::{is_finite_vector, Isometry, Real, Rotation, Vector};

/// What the first stage records per body slot for the stages after it (buffers kept between
/// steps; every element is rewritten each step).
#[derive(Default)]
pub(crate) struct PerBody {
    /// What the pair filter needs of each body.
    pub(crate) info: Vec<BodyInfo>,
    /// The shape's world pose at the start of the step.
    pub(crate) shape_poses: Vec<Isometry>,
    /// A flag of the current stage: the bodies it froze.
    pub(crate) flags: Vec<bool>,
}

/// Freezes a body whose state is no longer finite: back to its pose at the start of the step,
/// velocities and forces cleared.
pub(crate) fn freeze(b: &mut Body) {
    b.frozen = true;
    b.sleep_time = 0.0;
    if !(b.pose.translation.vector.iter().all(|x| x.is_finite())
        && b.pose
            .rotation
            .quaternion()
            .coords
            .iter()
            .all(|x| x.is_finite()))
    {
        b.pose = b.prev_pose;
    }
    b.linvel = Vector::zeros();
    b.angvel = Vector::zeros();
    b.force = Vector::zeros();
    b.torque = Vector::zeros();
}

/// `q + dt/2 · (0, ω) · q`, normalised (first-order quaternion integration).
#[inline]
pub(crate) fn integrate_rotation(q: &Rotation, w: &Vector, dt: Real) -> Rotation {
    let angle = w.norm() * dt;
    if angle < 0.1 {
        // Small rotations: first-order quaternion update, renormalised.
        let qw = nalgebra::Quaternion::from_parts(0.0, *w);
        let dq = qw * q.quaternion() * (0.5 * dt);
        Rotation::new_normalize(q.quaternion() + dq)
    } else {
        // Large ω·dt: the exact exponential map (the first-order update would shrink the
        // quaternion far from unit before renormalisation, and lose the angle).
        let r = Rotation::from_scaled_axis(w * dt) * q;
        Rotation::new_normalize(r.into_inner())
    }
}

/// Appends to `report.frozen`, in slot order, the handle of every slot whose flag is set.
pub(crate) fn report_frozen(slots: &[Slot], flags: &[bool], report: &mut StepReport) {
    for (i, (slot, &f)) in slots.iter().zip(flags).enumerate() {
        if f {
            report
                .frozen
                .push(BodyHandle::new(i as u32, slot.generation));
        }
    }
}

#[inline(never)]
/// The start of a step: each body's pose kept as its previous pose, and what the stages after
/// need of each body recorded in `per`. Gravity and user forces reach the velocities in the solver, a
/// substep at a time; a body whose velocity would not stay finite over the step
/// (`v + dt·(g + F/m)`, `ω + dt·I⁻¹τ`) is frozen and reported here. Sleeping bodies are left
/// as they are (their previous pose is their pose already). Returns whether continuous
/// collision is on and some body may be swept this step, and which bodies are active.
pub(crate) fn integrate_velocities(
    state: &mut State,
    per: &mut PerBody,
    report: &mut StepReport,
) -> (bool, Activity) {
    let cfg = &state.config;
    let dt = cfg.dt;
    let g = cfg.gravity;
    let sc = per;
    let n = state.slots.len();
    // Every element is written below: only a change of length costs a serial pass.
    sc.info.resize(n, BodyInfo::default());
    sc.shape_poses.resize(n, Isometry::identity());
    sc.flags.resize(n, false);
    // Per body, independent of the others: parallel; the bodies frozen here are reported
    // afterwards in slot order. Also whether any body may need continuous collision, and
    // whether some bodies are active and some inactive (see `crate::island`).
    let (any_frozen, any_ccd, activity) = state
        .slots
        .par_iter_mut()
        .zip(sc.info.par_iter_mut())
        .zip(sc.shape_poses.par_iter_mut().zip(sc.flags.par_iter_mut()))
        .with_min_len(256)
        .map(|((slot, info), (shape_pose, frozen))| {
            *frozen = false;
            let Some(b) = slot.body.as_mut() else {
                *info = BodyInfo::default();
                *shape_pose = Isometry::identity();
                return (false, false, Activity::default());
            };
            b.prev_pose = b.pose;
            *shape_pose = b.shape_pose();
            if b.is_dynamic() {
                let v = b.linvel + (g + b.force * b.inv_mass) * dt;
                let w = if b.torque == Vector::zeros() {
                    b.angvel
                } else {
                    b.angvel + b.inv_inertia_world() * b.torque * dt
                };
                if !(is_finite_vector(&v) && is_finite_vector(&w)) {
                    freeze(b);
                    *frozen = true;
                }
            }
            *info = BodyInfo::of(cfg, b);
            let activity = Activity {
                any_active: b.is_moving(),
                any_inactive: b.kind != BodyKind::Static && !b.is_moving(),
            };
            (*frozen, may_sweep(b), activity)
        })
        .par_reduce(
            || (false, false, Activity::default()),
            |x, y| {
                (
                    x.0 | y.0,
                    x.1 | y.1,
                    Activity {
                        any_active: x.2.any_active | y.2.any_active,
                        any_inactive: x.2.any_inactive | y.2.any_inactive,
                    },
                )
            },
        );
    if any_frozen {
        report_frozen(&state.slots, &sc.flags, report);
    }
    (cfg.ccd && any_ccd, activity)
}

#[inline(never)]
/// The new poses of the moving bodies: a dynamic body moved by the solver's `deltas` (indexed by
/// slot: its centre of mass by `lin`, its rotation by the rotation vector `ang`, both summed
/// over the substeps), a kinematic one by its own velocities (`x += dt·v`,
/// `q += dt/2·(0, ω)·q` normalised).
pub(crate) fn integrate_positions(state: &mut State, deltas: &[SolverBody], linked: &[bool]) {
    let dt = state.config.dt;
    state
        .slots
        .par_iter_mut()
        .enumerate()
        .with_min_len(256)
        .for_each(|(i, slot)| {
            let Some(b) = slot.body.as_mut() else { return };
            if !b.is_moving() {
                return;
            }
            // A displacement over the whole step, and a rotation vector applied over one unit of
            // time, for dynamic bodies; velocities over `dt` for kinematic ones.
            let (v, w, dt) = match (b.is_dynamic(), deltas.get(i)) {
                (true, Some(d)) => (d.v(), d.w(), 1.0),
                _ => (b.linvel, b.angvel, dt),
            };
            let com = b.com() + v * dt;
            let q0 = b.pose.rotation;
            let q = if w == Vector::zeros() {
                q0
            } else {
                integrate_rotation(&q0, &w, dt)
            };
            b.pose.rotation = q;
            b.pose.translation.vector = com - q * b.com_local;
            if b.is_dynamic() {
                if linked.get(i).copied().unwrap_or(false) {
                    implicit_gyroscopic(b, dt);
                } else {
                    keep_angular_momentum(b, &q0);
                }
            }
        });
}

/// The gyroscopic term of a body held by a joint: one Newton iteration of the implicit step
/// `I·(ω₁ − ω₀) + h·ω₁ × I·ω₁ = 0` in the body frame (Catto, "Physics for Game Programmers:
/// Numerical Methods", GDC 2015). Unlike [`keep_angular_momentum`], which is exact for a free
/// body, it never adds energy: a thin body whose joints keep turning it (a capsule in a chain)
/// gains energy from the explicit rule and flies apart, and is damped slightly by this one.
fn implicit_gyroscopic(b: &mut Body, h: Real) {
    let inv = &b.inv_inertia_local;
    if b.angvel == Vector::zeros() {
        return;
    }
    let Some(inertia) = inv.try_inverse() else {
        return;
    };
    let q = b.pose.rotation;
    let w0 = q.inverse_transform_vector(&b.angvel);
    let iw = inertia * w0;
    let f = w0.cross(&iw) * h;
    let jac = inertia + (w0.cross_matrix() * inertia - iw.cross_matrix()) * h;
    let Some(jinv) = jac.try_inverse() else {
        return;
    };
    let w = q * (w0 - jinv * f);
    if is_finite_vector(&w) {
        b.angvel = w;
    }
}

/// Turns the angular velocity `b.angvel` (rad/s, world frame), which the solver found for the
/// body's rotation `q0` at the start of the step, into the one of its new rotation with the same
/// angular momentum: `ω₁ = I₁⁻¹·I₀·ω` with `Iₖ = Rₖ·I_body·Rₖᵀ`. A free body keeps its angular
/// momentum `I·ω` while it turns, not its angular velocity; this is the gyroscopic term of
/// Euler's equations, exact across the step's rotation, so a free body keeps its angular
/// momentum and one spun about its intermediate axis flips (the tennis-racket effect). A body
/// whose inertia is the same about every axis (a ball, a cube) is unchanged, as is one whose
/// inertia cannot be inverted.
fn keep_angular_momentum(b: &mut Body, q0: &Rotation) {
    let inv = &b.inv_inertia_local;
    let isotropic = inv.m12 == 0.0
        && inv.m13 == 0.0
        && inv.m23 == 0.0
        && inv.m21 == 0.0
        && inv.m31 == 0.0
        && inv.m32 == 0.0
        && inv.m11 == inv.m22
        && inv.m22 == inv.m33;
    if isotropic || b.angvel == Vector::zeros() {
        return;
    }
    let Some(inertia) = inv.try_inverse() else {
        return;
    };
    // The world momentum `L = R₀·I·R₀ᵀ·ω`, then `ω₁ = R₁·I⁻¹·R₁ᵀ·L`.
    let momentum = *q0 * (inertia * q0.inverse_transform_vector(&b.angvel));
    let q1 = b.pose.rotation;
    let w = q1 * (inv * q1.inverse_transform_vector(&momentum));
    if is_finite_vector(&w) {
        b.angvel = w;
    }
}
