//! The solve stages around position integration: solver bodies and constraints built and
//! coloured, the velocity solve, the relaxation and restitution after positions are integrated,
//! and the results stored back into the bodies and the contact cache (see [`crate::solver`]).

use crate::body::BodyKind;
use crate::contact::{ContactPair, PointImpulse};
use crate::solver::{rotate_tensor, BodyMass, Softness, Solver, SolverBody, SolverParams};
use crate::state::{Slot, State};
use crate::step::pairs::BodyInfo;
use rayon::prelude::*;
use tumble_narrowphase::math::{is_finite_vector, Matrix};

/// The solve stages' buffers (kept between steps).
#[derive(Default)]
pub(crate) struct SolveScratch {
    /// Per slot, the body's velocity as the solver sees it, and one zero body at the end.
    pub(crate) bodies: Vec<SolverBody>,
    solver: Solver,
}

/// Builds the solver bodies and the constraints of `contacts`, coloured; returns the step's
/// parameters. `info` is what the first stage recorded of each body.
#[inline(never)]
pub(crate) fn prepare(
    state: &State,
    info: &[BodyInfo],
    contacts: &[ContactPair],
    sc: &mut SolveScratch,
) -> SolverParams {
    let cfg = &state.config;
    let slots = &state.slots;
    // The colouring needs only which bodies are dynamic (`info`, made by
    // `integrate_velocities`: no body is frozen between it and here), so it runs beside the
    // making of the solver bodies (taken out of the solver meanwhile, put back below).
    let mut masses = std::mem::take(&mut sc.solver.masses);
    let dynamic = |slot: u32| info.get(slot as usize).is_some_and(|i| i.dynamic);
    let solver = &mut sc.solver;
    // The colouring (serial in its greedy part) runs on this thread, the bodies are offered
    // to the others: this thread then never sleeps waiting for a stolen colouring.
    rayon::join(
        || solver.colour(contacts, slots.len(), dynamic),
        || {
            slots
                .par_iter()
                .with_min_len(256)
                .map(solver_body_of)
                .unzip_into_vecs(&mut sc.bodies, &mut masses)
        },
    );
    sc.solver.masses = masses;
    // The zero body, read by the empty lanes of the solver's bundles.
    let zero = sc.bodies.len() as u32;
    sc.bodies.push(SolverBody::ZERO);
    sc.solver
        .build(contacts, &sc.bodies, cfg.restitution_threshold, zero);
    let h = cfg.dt;
    // Box2D v3 caps the contact stiffness at a quarter of the step rate for stability.
    let hertz = cfg.contact_hertz.min(0.25 / h);
    SolverParams {
        inv_h: 1.0 / h,
        soft: Softness::new(hertz, cfg.contact_damping_ratio, h),
        allowed_penetration: cfg.allowed_penetration,
        max_push: cfg.max_push_velocity,
        restitution_threshold: cfg.restitution_threshold,
    }
}

/// The velocity solve that precedes position integration: warm start, then `iterations` passes
/// with the push-out bias (see [`crate::solver`]).
pub(crate) fn solve(sc: &mut SolveScratch, params: &SolverParams, iterations: u32) {
    sc.solver
        .solve_velocities(&mut sc.bodies, params, iterations);
}

/// The passes after position integration: `iterations` passes without the bias, then
/// restitution.
pub(crate) fn relax(sc: &mut SolveScratch, params: &SolverParams, iterations: u32) {
    sc.solver
        .relax_and_restitute(&mut sc.bodies, params, iterations);
}

/// Velocities back into the bodies, impulses back into the contact cache (both in
/// parallel: each body and each contact pair is written by one task).
#[inline(never)]
pub(crate) fn store(state: &mut State, contacts: &mut [ContactPair], sc: &mut SolveScratch) {
    state
        .slots
        .par_iter_mut()
        .zip(sc.bodies.par_iter())
        .with_min_len(256)
        .for_each(|(slot, sb)| {
            if let Some(b) = slot.body.as_mut() {
                if b.is_dynamic() {
                    b.linvel = sb.v();
                    b.angvel = sb.w();
                }
            }
        });
    sc.solver.store_results(contacts, |cp, k, r| {
        // An impulse that overflowed (enormous masses or velocities: the bodies it reached
        // are frozen in `finalize`) must not be kept for warm starting.
        let finite = r.normal.is_finite() && is_finite_vector(&r.tangent);
        if let Some(imp) = cp.impulses.get_mut(k) {
            *imp = if finite {
                PointImpulse {
                    normal: r.normal,
                    tangent: r.tangent,
                }
            } else {
                PointImpulse::default()
            };
        }
        // A speculative contact that stopped the bodies counts as touching.
        cp.touching |= r.max_normal > 0.0;
    });
}

/// The solver's velocity and mass properties of the body in slot `s` (zero and
/// [`BodyMass::DEAD`] for an empty slot; zero mass, and zero velocity unless kinematic, for the
/// bodies the solver does not move).
fn solver_body_of(s: &Slot) -> (SolverBody, BodyMass) {
    let Some(b) = &s.body else {
        return (SolverBody::ZERO, BodyMass::DEAD);
    };
    let com = b.com();
    let (friction, restitution) = (b.material.friction, b.material.restitution);
    if b.is_dynamic() {
        // `b.inv_inertia_world()`, written out.
        let inv_inertia = rotate_tensor(
            b.pose.rotation.to_rotation_matrix().matrix(),
            &b.inv_inertia_local,
        );
        let mass = BodyMass::new(b.inv_mass, &inv_inertia, &com, friction, restitution, true);
        return (SolverBody::new(b.linvel, b.angvel), mass);
    }
    let mass = BodyMass::new(0.0, &Matrix::zeros(), &com, friction, restitution, false);
    let body = if b.kind == BodyKind::Kinematic && !b.frozen {
        SolverBody::new(b.linvel, b.angvel)
    } else {
        SolverBody::ZERO
    };
    (body, mass)
}
