//! The solve stages around position integration: solver bodies and constraints built and
//! coloured, the velocity solve, the relaxation and restitution after positions are integrated,
//! and the results stored back into the bodies and the contact cache (see [`crate::solver`]).

use crate::body::BodyKind;
use crate::config::WorldConfig;
use crate::contact::{ContactPair, PointImpulse};
use crate::solver::{rotate_tensor, BodyMass, Softness, Solver, SolverBody, SolverParams};
use crate::state::{Slot, State};
use crate::step::pairs::BodyInfo;
use tumble_broadphase::par::prelude::*;
use tumble_narrowphase::math::{is_finite_vector, Matrix, Real, Vector};

/// The solve stages' buffers (kept between steps).
#[derive(Default)]
pub(crate) struct SolveScratch {
    /// Per slot, the body's velocity as the solver sees it, and one zero body at the end.
    pub(crate) bodies: Vec<SolverBody>,
    /// Per slot, the acceleration of a dynamic body from gravity and user forces (zero for
    /// the others), and one zero body at the end.
    accel: Vec<SolverBody>,
    /// Per slot, how far the body moved during the step (`lin`: its centre of mass, metres;
    /// `ang`: its rotation vector, radians, world frame), and one zero body at the end.
    pub(crate) deltas: Vec<SolverBody>,
    /// Per slot, whether the body has no contact and no joint this step.
    free: Vec<bool>,
    /// Per slot, whether a joint reaches the body this step.
    pub(crate) linked: Vec<bool>,
    /// Joint slots whose force or torque passed its breaking limit this step, in slot order.
    pub(crate) broken: Vec<u32>,
    solver: Solver,
    /// The contact pairs the solver takes when some pairs of the cache have no awake body
    /// (see [`select`]), and their positions in the cache.
    pub(crate) subset: Vec<ContactPair>,
    subset_at: Vec<u32>,
}

/// Whether every pair of `contacts` has an awake dynamic body (`info[slot].awake`), so that
/// the solver takes the cache as it is. Otherwise the pairs that have one (the others are
/// between inactive bodies, or between an inactive body and a kinematic one: nothing for the
/// solver to move) are copied into `sc.subset`, in order, for [`prepare`], [`store`] and
/// [`write_back`].
pub(crate) fn select(info: &[BodyInfo], contacts: &[ContactPair], sc: &mut SolveScratch) -> bool {
    let awake =
        |h: crate::handle::BodyHandle| info.get(h.index() as usize).is_some_and(|i| i.awake);
    let solved = |c: &ContactPair| awake(c.a) || awake(c.b);
    if contacts.par_iter().with_min_len(1024).all(solved) {
        return true;
    }
    sc.subset_at.clear();
    sc.subset_at.par_extend(
        contacts
            .par_iter()
            .enumerate()
            .with_min_len(1024)
            .filter(|(_, c)| solved(c))
            .map(|(j, _)| j as u32),
    );
    sc.subset.clear();
    sc.subset
        .par_extend(sc.subset_at.par_iter().map(|&j| contacts[j as usize]));
    false
}

/// The solved impulses and touching flags of `subset` (see [`select`]) back into the cache.
pub(crate) fn write_back(contacts: &mut [ContactPair], subset: &[ContactPair], sc: &SolveScratch) {
    for (c, &j) in subset.iter().zip(&sc.subset_at) {
        let to = &mut contacts[j as usize];
        to.impulses = c.impulses;
        to.touching = c.touching;
    }
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
    let dynamic = |slot: u32| info.get(slot as usize).is_some_and(|i| i.awake);
    let solver = &mut sc.solver;
    // The colouring (serial in its greedy part) runs on this thread, the bodies are offered
    // to the others: this thread then never sleeps waiting for a stolen colouring.
    tumble_broadphase::par::join(
        || solver.colour(contacts, slots.len(), dynamic),
        || {
            slots
                .par_iter()
                .with_min_len(256)
                .map(solver_body_of)
                .unzip_into_vecs(&mut sc.bodies, &mut masses);
            slots
                .par_iter()
                .with_min_len(256)
                .map(|s| acceleration_of(cfg.gravity, s))
                .collect_into_vec(&mut sc.accel);
        },
    );
    sc.solver.masses = masses;
    // Bodies without a contact or a joint this step fly freely (see
    // `SolverBody::set_free_flight`).
    sc.free.clear();
    sc.free.resize(slots.len(), true);
    let params = params(cfg);
    sc.linked.clear();
    sc.linked.resize(slots.len(), false);
    let awake = |slot: u32| info.get(slot as usize).is_some_and(|i| i.awake);
    sc.solver.joints.prepare(
        &state.joints,
        slots,
        &sc.solver.masses,
        awake,
        params.h,
        &mut sc.linked,
    );
    for (f, &l) in sc.free.iter_mut().zip(&sc.linked) {
        *f &= !l;
    }
    for c in contacts {
        for i in [c.a.index() as usize, c.b.index() as usize] {
            if let Some(f) = sc.free.get_mut(i) {
                *f = false;
            }
        }
    }
    for (a, &free) in sc.accel.iter_mut().zip(&sc.free) {
        a.set_free_flight(free);
    }
    // The zero body, read by the empty lanes of the solver's bundles.
    let zero = sc.bodies.len() as u32;
    sc.bodies.push(SolverBody::ZERO);
    sc.accel.push(SolverBody::ZERO);
    sc.deltas.resize(sc.bodies.len(), SolverBody::ZERO);
    sc.solver.build(
        contacts,
        &sc.bodies,
        &sc.accel,
        cfg.restitution_threshold,
        zero,
    );
    params
}

/// The solver's parameters for one step of `cfg`: substeps of `dt / substeps`, contact
/// stiffness capped at a quarter of the substep rate (Box2D v3's cap, for stability), twice as
/// stiff against static and kinematic bodies.
fn params(cfg: &WorldConfig) -> SolverParams {
    let substeps = cfg.substeps.max(1);
    let h = cfg.dt / substeps as Real;
    let hertz = cfg.contact_hertz.min(0.25 / h);
    SolverParams {
        h,
        inv_h: 1.0 / h,
        substeps,
        iterations: cfg.solver_iterations.max(1),
        relax_iterations: cfg.relax_iterations,
        restitution_iterations: cfg.restitution_iterations,
        soft: Softness::new(hertz, cfg.contact_damping_ratio, h),
        static_soft: Softness::new((2.0 * hertz).min(0.25 / h), cfg.contact_damping_ratio, h),
        joint_soft: Softness::new(cfg.joint_hertz.min(0.25 / h), cfg.joint_damping_ratio, h),
        allowed_penetration: cfg.allowed_penetration,
        max_push: cfg.max_push_velocity,
        restitution_threshold: cfg.restitution_threshold,
    }
}

/// The sub-stepped solve (see [`crate::solver`]): afterwards `sc.bodies` holds the velocities
/// at the end of the step and `sc.deltas` how far each body moved.
pub(crate) fn solve(sc: &mut SolveScratch, params: &SolverParams) {
    sc.solver
        .solve(&mut sc.bodies, &mut sc.accel, &mut sc.deltas, params);
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
    store_joints(state, sc);
}

/// The joints' accumulated impulses back into the world for warm starting, their mean force
/// and torque over the step, and which of them broke (into `sc.broken`, slot order).
fn store_joints(state: &mut State, sc: &mut SolveScratch) {
    sc.broken.clear();
    let dt = state.config.dt;
    for r in sc.solver.joints.results() {
        let Some(j) = state
            .joints
            .get_mut(r.joint as usize)
            .and_then(|s| s.joint.as_mut())
        else {
            continue;
        };
        let (force, torque) = (r.impulse / dt, r.angular_impulse / dt);
        if r.imp.is_finite() && is_finite_vector(&force) && is_finite_vector(&torque) {
            j.impulses = r.imp;
            j.force = force;
            j.torque = torque;
        } else {
            j.impulses = Default::default();
            j.force = Vector::zeros();
            j.torque = Vector::zeros();
        }
        if j.force.norm() > j.break_force || j.torque.norm() > j.break_torque {
            sc.broken.push(r.joint);
        }
    }
    sc.broken.sort_unstable();
}

/// The acceleration of the body in slot `s` from gravity `g` and its user force and torque
/// (`lin`: m/s², `ang`: rad/s², world frame); zero unless it is dynamic.
fn acceleration_of(g: Vector, s: &Slot) -> SolverBody {
    match &s.body {
        Some(b) if b.is_dynamic() => {
            let alpha = if b.torque == Vector::zeros() {
                Vector::zeros()
            } else {
                b.inv_inertia_world() * b.torque
            };
            SolverBody::new(g + b.force * b.inv_mass, alpha)
        }
        _ => SolverBody::ZERO,
    }
}

/// The solver's velocity and mass properties of the body in slot `s` (zero and
/// [`BodyMass::DEAD`] for an empty slot; zero mass, and zero velocity unless kinematic, for the
/// bodies the solver does not move).
fn solver_body_of(s: &Slot) -> (SolverBody, BodyMass) {
    let Some(b) = &s.body else {
        return (SolverBody::ZERO, BodyMass::DEAD);
    };
    let com = b.com();
    if b.is_dynamic() {
        // `b.inv_inertia_world()`, written out.
        let inv_inertia = rotate_tensor(
            b.pose.rotation.to_rotation_matrix().matrix(),
            &b.inv_inertia_local,
        );
        let mass = BodyMass::new(b.inv_mass, &inv_inertia, &com, &b.material, true);
        return (SolverBody::new(b.linvel, b.angvel), mass);
    }
    let mass = BodyMass::new(0.0, &Matrix::zeros(), &com, &b.material, false);
    let body = if b.kind == BodyKind::Kinematic && !b.frozen {
        SolverBody::new(b.linvel, b.angvel)
    } else {
        SolverBody::ZERO
    };
    (body, mass)
}
