//! The contact solver: Box2D v3's sub-stepped soft step (Catto, "Solver2D", 2024) with
//! accumulated, warm-started sequential impulses (Catto, "Iterative Dynamics with Temporal
//! Coherence", GDC 2005; "Fast and Simple Physics using Sequential Impulses", GDC 2006).
//! Collision detection runs once per step; the solver splits the step into `substeps` of
//! `h = dt/substeps` and keeps the contacts' Jacobians for all of them, recomputing only each
//! point's separation from how far its bodies moved.
//!
//! Per step:
//! 1. **colour** (`colour`): greedy graph colouring so that no two constraints of one colour
//!    share a dynamic body. Within a colour, constraints are sorted by decreasing point count
//!    and grouped four by four into `Bundle`s, solved together lane by lane with four-wide
//!    arithmetic (`lanes`: SSE2 on x86-64, a scalar twin elsewhere; the layout follows Box2D
//!    v3's `contact_solver.c` and rapier's wide constraints). Every pass below walks the
//!    colours in order, and a colour's bundles may run in parallel: they touch disjoint dynamic
//!    bodies, so the result is the same for any thread count, and the same as solving the
//!    constraints one by one (the order within a colour does not matter, and each lane does
//!    the scalar arithmetic in the scalar order). Constraints the 64 colours cannot place go to
//!    an overflow colour, one per bundle, solved serially;
//! 2. **build** (`build`): one constraint per touching pair (up to 4 points), built four at a
//!    time, one constraint per lane; per point the normal row and the two friction rows, with
//!    the angular Jacobians `r × d` of the anchors relative to the centres of mass in scaled
//!    form `Lᵀ(r × d)`, where `I⁻¹ = L·Lᵀ` (Cholesky) and the passes work on scaled angular
//!    velocities `L⁻¹·w` (see `BodyMass`: one vector per body and row serves both reading
//!    velocities and applying impulses, where Box2D v3 and rapier store `r × d` and
//!    `I⁻¹(r × d)`), the normal's effective mass (capped at `MAX_EFFECTIVE_MASS` so impulses
//!    stay finite) and the friction block `K` of the two tangent rows, so that the passes need
//!    no cross or matrix products; the separation, the approach speed at impact `vn0` (for
//!    restitution), and last step's impulses matched by feature id (or, when the narrow phase
//!    changed reference face, by the nearest old point within 2 cm). A bundle's points live in
//!    two buffers as structures of arrays (point `k` of the four lanes), each bundle owning a
//!    disjoint range of both: the rows the passes only read (`PointW`) and, on a cache line of
//!    their own, the impulses they write (`PointState`). The passes read body velocities only
//!    (`SolverBody`, 32 bytes, loaded into lanes by one transpose), and, in the passes that need
//!    the separation, how far the bodies moved (`deltas`, the same layout). The passes are bound
//!    by memory traffic, so a `Bundle` holds only what they read (the tangents are recomputed
//!    from the normal), and each pass solves two bundles of a colour in lockstep, point by
//!    point: each bundle's points are one chain of dependent operations, and two interleaved
//!    chains hide each other's latencies (each does exactly what it would alone);
//! 3. angular velocities and accelerations to scaled form; then per substep:
//!    - **velocities**: `v += a·h` from gravity and user forces (dynamic bodies);
//!    - **warm start**: apply the accumulated impulses (last substep's, or last step's);
//!    - **solve** (`solver_iterations` times): friction, then the normal impulse, accumulated
//!      and clamped `jn ≥ 0`. Friction opposes the tangent velocity `u` itself: the impulse
//!      `−α·u` with `α = |u|²/(uᵀKu)` stops the bodies along `u` (rapier's 3D friction), then
//!      the accumulated friction is clamped to the Coulomb disc `|jt| ≤ μ·jn`. The separation
//!      now is `s = s₀ + (Δxb − Δxa)·n + (rb × n)·Δθb − (ra × n)·Δθa` (anchors moved with their
//!      bodies, to first order in the rotation). A point with `s > 0` is speculative: the
//!      bodies may close at most `s` this substep (`vn ≥ −s/h`). A penetrating point is pushed
//!      out by a soft constraint (spring of `contact_hertz`, twice as stiff against static and
//!      kinematic bodies, both capped at a quarter of the substep rate; damping ratio
//!      `contact_damping_ratio`; push speed capped at `max_push_velocity`);
//!    - **positions**: `Δx += v·h`, `Δθ̃ += w̃·h` (for a body without a contact this step, the
//!      exact free-flight step `(v − ½·a·h)·h`);
//!    - **relax** (`relax_iterations` times): the solve without the push-out bias, so the
//!      push-out velocity does not survive the substep (no energy gain from overlap);
//! 4. **restitution** (`restitution_iterations` times): for points that approached faster than
//!    `restitution_threshold` and took an impulse, `vn ← −e·vn0`; more than one pass lets
//!    simultaneous impacts share the bounce; angular velocities and rotation deltas back to
//!    the world frame. The world then moves each body by its deltas;
//! 5. **store**: accumulated impulses go back into the contact cache for the next step,
//!    walking the bundles in order (each contact pair is one lane of one bundle).
//!
//! **Threads.** On a pool of one thread the passes run as plain loops. On more,
//! `Solver::solve` is one parallel region (`stages`, after Box2D v3's solver stages): its
//! per-body stages and every colour of every pass of every substep are stages, run in order,
//! each split into blocks (whole bundles, about `CHUNK_POINTS` points; bodies, for a per-body
//! stage; the overflow colour is one block, so it runs on one thread) that the pool's threads claim through atomic flags. A
//! thread finishing a stage waits until every block of it is done before starting the next:
//! the count of finished blocks is raised with Release and read with Acquire, so a colour's
//! writes to the bodies and points are visible to every thread that runs the next colour (see
//! `stages` for the argument, and why no thread can wait forever). One region costs a few
//! wake-ups per step where a fork-join per colour and pass cost one each, often more than a
//! small colour's work. Each thread starts every stage at its own place, so it runs the same
//! stretch of each colour in every pass (`stages`), and `colour` sorts each colour by body-slot
//! region (one region per thread) so that this stretch touches the same bodies from colour to
//! colour: a body then mostly stays in one core's cache instead of moving to the other core
//! at every colour. `build` builds
//! region by region too, region 0 on the calling thread. Which thread runs a block changes
//! nothing: within a colour every bundle touches its own bodies and points, and the order
//! within a colour does not matter, so results are bit-identical for any thread count.

mod body;
mod build;
mod bundle;
mod colour;
pub(crate) mod joints;
mod lanes;
mod params;
mod passes;
mod shared;
mod stages;

use crate::contact::ContactPair;
pub(crate) use body::{rotate_tensor, BodyMass, SolverBody};
use build::BuildContext;
use bundle::{tangent_lanes, Constraints};
use colour::Colouring;
use lanes::LANES;
use params::{Pass, COLOURS};
pub(crate) use params::{Softness, SolverParams};
use passes::solve_bundles;
use shared::{BodiesPtr, PointsPtr, SlicePtr};
use stages::Stages;
use tumble_broadphase::par::prelude::*;
use tumble_narrowphase::math::{Real, Vector};

/// When no colour has this many points (counting a bundle's point `k` of its four lanes as
/// one), the passes run on the calling thread: below it sharing a colour costs more than it
/// saves. Counted in points rather than bundles because a bundle of balls (one point per lane)
/// is a quarter of the work of a bundle of boxes (four).
const PARALLEL_MIN_POINTS: usize = 256;
/// With at least this many joints the passes may run in parallel (see `PARALLEL_MIN_POINTS`).
const PARALLEL_MIN_JOINTS: usize = 128;
/// Points per block of a colour's stage (rounded to whole bundles).
const CHUNK_POINTS: usize = 128;
/// Bodies per block of a conversion stage.
const CONVERT_BLOCK: usize = 1024;
/// Bundles per rayon task when storing the results.
const STORE_CHUNK: usize = 256;

/// What a solved contact point hands back to the contact cache.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointResult {
    /// Accumulated normal impulse, N·s (≥ 0).
    pub normal: Real,
    /// Accumulated friction impulse, N·s, world frame (orthogonal to the normal).
    pub tangent: Vector,
    /// Largest normal impulse applied during the step, N·s.
    pub max_normal: Real,
}

/// The solver's scratch: the colouring, the bundles it groups the constraints into, and the
/// stages of the parallel passes.
#[derive(Default)]
pub(crate) struct Solver {
    /// Mass properties per body slot, for building constraints.
    pub masses: Vec<BodyMass>,
    /// Colours, regions and bundle heads of the last `colour`.
    colouring: Colouring,
    /// Made by `build` from the colouring's heads (stale between `colour` and `build`: see
    /// `built`).
    constraints: Constraints,
    /// Whether `constraints` holds the constraints of the last colouring.
    built: bool,
    /// Every body slot named by a bundle is below this (checked once per pass against the
    /// velocity array instead of per bundle).
    body_bound: usize,
    /// The stages of the parallel passes (see the module docs), planned per call.
    stages: Stages<Job>,
    /// The joints of the step, solved before the contacts in every pass but restitution.
    pub joints: joints::JointSolver,
}

/// One stage of the parallel passes.
#[derive(Clone, Copy, Debug)]
enum Job {
    /// `op` on bodies `block·CONVERT_BLOCK..` (up to `bodies`).
    Bodies { op: BodyOp, bodies: usize },
    /// `pass` over the joints `start..end` of one joint colour (the socket bundles when
    /// `sockets`, else the other joints), `per_block` per block.
    Joints {
        pass: Pass,
        sockets: bool,
        start: usize,
        end: usize,
        per_block: usize,
    },
    /// `pass` over the bundles `start..end` (one colour), `per_block` bundles per block.
    Pass {
        pass: Pass,
        start: usize,
        end: usize,
        per_block: usize,
    },
}

/// What a per-body stage of [`Solver::solve`] does to each body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BodyOp {
    /// Angular velocities and accelerations to scaled form.
    Scale,
    /// `v += a·h` (dynamic bodies).
    Velocities,
    /// `Δx += v·h`, `Δθ̃ += w̃·h` (see [`integrate_position`]).
    Positions,
    /// Angular velocities and rotation deltas back to the world frame.
    Unscale,
}

/// One step of [`Solver::solve`]'s sequence: a per-body stage or a pass over the bundles.
#[derive(Clone, Copy, Debug)]
enum Step {
    Bodies(BodyOp),
    Pass(Pass),
}

/// `op` on one body (mass properties `m`, velocity `v`, acceleration `a`, delta `d`) for a
/// substep of `h` seconds.
#[inline(always)]
fn body_op(
    op: BodyOp,
    m: &BodyMass,
    v: &mut SolverBody,
    a: &mut SolverBody,
    d: &mut SolverBody,
    h: Real,
) {
    match op {
        BodyOp::Scale => {
            v.ang = m.scale_angular(v.ang);
            a.ang = m.scale_angular(a.ang);
        }
        BodyOp::Velocities => {
            if m.dynamic {
                integrate_velocity(v, a, h);
            }
        }
        BodyOp::Positions => integrate_position(d, v, a, h),
        BodyOp::Unscale => {
            v.ang = m.unscale_angular(v.ang);
            d.ang = m.unscale_angular(d.ang);
        }
    }
}

/// `v += a·h`, linear and (scaled) angular.
#[inline(always)]
fn integrate_velocity(v: &mut SolverBody, a: &SolverBody, h: Real) {
    for k in 0..3 {
        v.lin[k] += a.lin[k] * h;
        v.ang[k] += a.ang[k] * h;
    }
}

/// `Δx += v·h`, `Δθ̃ += w̃·h`; for a body in free flight (see
/// [`SolverBody::set_free_flight`]) `Δx += (v − ½·a·h)·h`, the exact step under a constant
/// acceleration.
#[inline(always)]
fn integrate_position(d: &mut SolverBody, v: &SolverBody, a: &SolverBody, h: Real) {
    let half_free = 0.5 * a.lin[3] * h;
    for k in 0..3 {
        d.lin[k] += (v.lin[k] - a.lin[k] * half_free) * h;
        d.ang[k] += v.ang[k] * h;
    }
}

impl Solver {
    /// Colours the constraints of `contacts` (see [`Colouring::colour`]) and sizes the bundles
    /// and their points for [`Solver::build`].
    #[inline(never)]
    pub fn colour(
        &mut self,
        contacts: &[ContactPair],
        n_bodies: usize,
        dynamic: impl Fn(u32) -> bool + Sync,
    ) {
        self.built = false;
        let points = self.colouring.colour(contacts, n_bodies, dynamic);
        self.constraints.resize(self.colouring.heads.len(), points);
    }

    /// Fills the bundles made by [`Solver::colour`], in parallel, with the constraints of the
    /// contact pairs `contacts` (the pairs given to `colour`, in the same order), four at a
    /// time (see [`build::build`]). `bodies` are the velocities before the solve and `accel`
    /// the accelerations over the step (indexed by slot, as [`Solver::masses`]); `zero` is the index of the zero body that empty lanes
    /// point at; points approaching faster than `restitution_threshold` (m/s) may bounce.
    #[inline(never)]
    pub fn build(
        &mut self,
        contacts: &[ContactPair],
        bodies: &[SolverBody],
        accel: &[SolverBody],
        restitution_threshold: Real,
        zero: u32,
    ) {
        // `build_bundle` names slots found in `masses`, `zero`, or slot 0 (an emptied bundle).
        self.body_bound = self.masses.len().max(zero as usize + 1);
        self.built = self.constraints.bundles.len() == self.colouring.heads.len();
        if !self.built {
            debug_assert!(false, "building without colouring");
            return;
        }
        let ctx = BuildContext {
            contacts,
            bodies,
            accel,
            masses: &self.masses,
            restitution_threshold,
            zero,
        };
        build::build(&self.colouring, &mut self.constraints, &ctx);
    }

    /// The sub-stepped soft step (Box2D v3's solver; Catto, "Solver2D", 2024) over every
    /// constraint: per substep of `h = dt/substeps`, velocities from the accelerations
    /// (`v += a·h`), warm start, the biased passes, positions (`Δx += v·h`, `Δθ̃ += w̃·h`), the
    /// relaxation passes; after the last substep, the restitution passes.
    ///
    /// `bodies` are the velocities (world frame in and out), `accel` the accelerations of the
    /// dynamic bodies (world frame in; scaled in place), `deltas` receive how far each body
    /// moved during the step (`lin`: its centre of mass, metres; `ang`: its rotation vector,
    /// radians, world frame, the sum of `w·h`); all indexed by slot, with the zero body last.
    /// Serially on a pool of one thread or when no colour is worth sharing, else in one
    /// parallel region (see the module docs).
    #[inline(never)]
    pub fn solve(
        &mut self,
        bodies: &mut [SolverBody],
        accel: &mut [SolverBody],
        deltas: &mut [SolverBody],
        p: &SolverParams,
    ) {
        if !self.built {
            debug_assert!(false, "solving before building");
            return;
        }
        let n = bodies.len();
        if n < self.body_bound || accel.len() < n || deltas.len() < n {
            debug_assert!(false, "fewer bodies than the bundles name");
            return;
        }
        deltas.fill(SolverBody::ZERO);
        let threads = tumble_broadphase::par::current_num_threads();
        if threads > 1 && self.plan(p, n) {
            self.run_stages(bodies, accel, deltas, p, threads);
            return;
        }
        for step in Self::passes(p) {
            match step {
                Step::Bodies(op) => self.for_each_body(bodies, accel, deltas, op, p.h),
                Step::Pass(pass) => self.run(bodies, deltas, p, pass),
            }
        }
    }

    /// The passes of one step, in order (see [`Solver::solve`]).
    fn passes(p: &SolverParams) -> impl Iterator<Item = Step> {
        let substep = std::iter::once(Step::Bodies(BodyOp::Velocities))
            .chain(std::iter::once(Step::Pass(Pass::WarmStart)))
            .chain((0..p.iterations).map(|_| Step::Pass(Pass::Solve)))
            .chain(std::iter::once(Step::Bodies(BodyOp::Positions)))
            .chain((0..p.relax_iterations).map(|_| Step::Pass(Pass::Relax)));
        std::iter::once(Step::Bodies(BodyOp::Scale))
            .chain((0..p.substeps).flat_map(move |_| substep.clone()))
            .chain((0..p.restitution_iterations).map(|_| Step::Pass(Pass::Restitution)))
            .chain(std::iter::once(Step::Bodies(BodyOp::Unscale)))
    }

    /// Plans the stages of [`Solver::solve`] over `n_bodies` bodies; whether some colour is
    /// large enough to share between threads.
    fn plan(&mut self, p: &SolverParams, n_bodies: usize) -> bool {
        let bodies = self.masses.len().min(n_bodies);
        let body_blocks = bodies.div_ceil(CONVERT_BLOCK);
        self.stages.clear();
        let mut worth = false;
        for step in Self::passes(p) {
            let pass = match step {
                Step::Bodies(op) => {
                    self.stages.push(Job::Bodies { op, bodies }, body_blocks);
                    continue;
                }
                Step::Pass(pass) => pass,
            };
            if pass != Pass::Restitution {
                worth |= self.joints.len() >= PARALLEL_MIN_JOINTS;
                for colour in 0..self.joints.colour_count() {
                    let ranges = [
                        (true, self.joints.socket_range(colour), joints::SOCKET_BLOCK),
                        (false, self.joints.colour_range(colour), joints::JOINT_BLOCK),
                    ];
                    for (sockets, range, n) in ranges {
                        if range.is_empty() {
                            continue;
                        }
                        // The overflow colour may share bodies: one block.
                        let per_block = if colour < COLOURS { n } else { range.len() };
                        let job = Job::Joints {
                            pass,
                            sockets,
                            start: range.start,
                            end: range.end,
                            per_block,
                        };
                        self.stages.push(job, range.len().div_ceil(per_block));
                    }
                }
            }
            for colour in 0..self.colouring.bundle_starts.len().saturating_sub(1) {
                let (start, end) = (
                    self.colouring.bundle_starts[colour],
                    self.colouring.bundle_starts[colour + 1],
                );
                let points = self.colour_points(colour);
                if end <= start || points == 0 {
                    continue;
                }
                // The overflow colour (index COLOURS) may share bodies: one block.
                let per_block = if colour < COLOURS {
                    worth |= points >= PARALLEL_MIN_POINTS;
                    (CHUNK_POINTS * (end - start) / points).max(1)
                } else {
                    end - start
                };
                let job = Job::Pass {
                    pass,
                    start,
                    end,
                    per_block,
                };
                self.stages.push(job, (end - start).div_ceil(per_block));
            }
        }
        worth
    }

    /// Runs the planned stages on up to `threads` threads of the current pool (the caller
    /// has checked that the three arrays hold every slot the bundles name).
    fn run_stages(
        &mut self,
        bodies: &mut [SolverBody],
        accel: &mut [SolverBody],
        deltas: &mut [SolverBody],
        p: &SolverParams,
        threads: usize,
    ) {
        let ptr = BodiesPtr(bodies.as_mut_ptr());
        let acc = BodiesPtr(accel.as_mut_ptr());
        let dlt = BodiesPtr(deltas.as_mut_ptr());
        let pts = PointsPtr::of(&mut self.constraints);
        let jts = SlicePtr::of(&mut self.joints.constraints);
        let sks = SlicePtr::of(&mut self.joints.sockets);
        let (bundles, masses) = (&self.constraints.bundles, &self.masses);
        // The overflow colour's bundles may share bodies: never two at a time.
        let overflow = self
            .colouring
            .bundle_starts
            .get(COLOURS)
            .copied()
            .unwrap_or(0);
        self.stages.run(threads, |job, block| match *job {
            Job::Bodies { op, bodies } => {
                let from = block * CONVERT_BLOCK;
                for i in from..(from + CONVERT_BLOCK).min(bodies) {
                    let Some(m) = masses.get(i) else { break };
                    // SAFETY: `i` is below `bodies`, at most the arrays' length (`plan`, and
                    // `solve` checked the three lengths); this block alone touches body `i` of
                    // the three arrays during this stage (see `BodiesPtr`).
                    let (v, a, d) = unsafe { (&mut *ptr.at(i), &mut *acc.at(i), &mut *dlt.at(i)) };
                    body_op(op, m, v, a, d, p.h);
                }
            }
            Job::Joints {
                pass,
                sockets,
                start,
                end,
                per_block,
            } => {
                let from = start + block * per_block;
                let to = (from + per_block).min(end);
                let ctx = joints::ctx(p, pass);
                // SAFETY: each block of a joint stage owns the disjoint range `from..to` of the
                // constraints or socket bundles (see `SlicePtr`); its joints share no dynamic
                // body with those of the other blocks of the stage (one colour; the overflow
                // colour is one block), and the deltas change only in per-body stages; `solve`
                // checked that the bodies' arrays hold every slot a joint names (`body_bound`).
                unsafe {
                    if !sockets {
                        if let Some(cons) = jts.range(from, to) {
                            joints::solve_joints(cons, ptr, dlt, &ctx);
                        }
                    } else if let Some(bundles) = sks.range(from, to) {
                        joints::socket::solve_sockets(bundles, ptr, dlt, &ctx);
                    }
                }
            }
            Job::Pass {
                pass,
                start,
                end,
                per_block,
            } => {
                let from = start + block * per_block;
                let to = (from + per_block).min(end);
                let block = bundles.get(from..to).unwrap_or_default();
                solve_bundles(block, start < overflow, ptr, dlt, pts, p, pass);
            }
        });
    }

    /// Points of colour `colour` (counting a bundle's point `k` of its four lanes as one):
    /// bundles store their points in bundle order, so a colour's points are a range.
    fn colour_points(&self, colour: usize) -> usize {
        let (start, end) = (
            self.colouring.bundle_starts[colour],
            self.colouring.bundle_starts[colour + 1],
        );
        match (
            self.constraints.bundles.get(start),
            end.checked_sub(1)
                .and_then(|l| self.constraints.bundles.get(l)),
        ) {
            (Some(f), Some(l)) if end > start => (l.first + l.len as u32 - f.first) as usize,
            _ => 0,
        }
    }

    /// [`body_op`] `op` on every body with mass properties, in parallel (each body on its
    /// own).
    fn for_each_body(
        &self,
        bodies: &mut [SolverBody],
        accel: &mut [SolverBody],
        deltas: &mut [SolverBody],
        op: BodyOp,
        h: Real,
    ) {
        bodies
            .par_iter_mut()
            .zip(accel.par_iter_mut())
            .zip(deltas.par_iter_mut())
            .zip(self.masses.par_iter())
            .with_min_len(1024)
            .for_each(|(((v, a), d), m)| body_op(op, m, v, a, d, h));
    }

    /// Calls `f(&mut items[pair], k, result)` for point `k` of the constraint of every contact
    /// pair `pair` (an index into the pairs given to [`Solver::colour`]; `items` is indexed
    /// like them), once solved. In parallel, walking the bundles in order (the points are read
    /// as the passes stored them, rather than looked up pair by pair); each pair sits in one
    /// lane of one bundle, so each item is handed to one call at a time.
    pub fn store_results<T: Send>(
        &self,
        items: &mut [T],
        f: impl Fn(&mut T, usize, PointResult) + Sync,
    ) {
        if !self.built {
            return;
        }
        let out = SlicePtr::of(items);
        self.constraints
            .bundles
            .par_chunks(STORE_CHUNK)
            .zip(self.colouring.heads.par_chunks(STORE_CHUNK))
            .for_each(|(bundles, heads)| {
                for (bundle, head) in bundles.iter().zip(heads) {
                    let first = bundle.first as usize;
                    let Some(states) = self
                        .constraints
                        .states
                        .get(first..first + bundle.len as usize)
                    else {
                        continue;
                    };
                    let [t1, t2] = tangent_lanes(&bundle.normal);
                    for l in 0..LANES {
                        // SAFETY: `items` outlives this call; `colour` put each pair in
                        // exactly one lane of one bundle (its `order` is a permutation), so no
                        // other call holds this item.
                        let Some(item) = (unsafe { out.at(head.pair[l] as usize) }) else {
                            continue;
                        };
                        let (t1, t2) = (t1.lane(l), t2.lane(l));
                        for (k, p) in states.iter().take(bundle.lens[l] as usize).enumerate() {
                            let result = PointResult {
                                normal: p.jn.to_array()[l],
                                tangent: t1 * p.jt[0].to_array()[l] + t2 * p.jt[1].to_array()[l],
                                max_normal: p.max_jn.to_array()[l],
                            };
                            f(item, k, result);
                        }
                    }
                }
            });
    }

    /// One pass over every bundle, colour after colour, on the calling thread (the caller has
    /// checked that `bodies` holds every slot the bundles name).
    fn run(
        &mut self,
        bodies: &mut [SolverBody],
        deltas: &mut [SolverBody],
        p: &SolverParams,
        pass: Pass,
    ) {
        let ptr = BodiesPtr(bodies.as_mut_ptr());
        let dlt = BodiesPtr(deltas.as_mut_ptr());
        self.joints.run(ptr, dlt, p, pass);
        let pts = PointsPtr::of(&mut self.constraints);
        for colour in 0..self.colouring.bundle_starts.len().saturating_sub(1) {
            let (start, end) = (
                self.colouring.bundle_starts[colour],
                self.colouring.bundle_starts[colour + 1],
            );
            let bundles = self.constraints.bundles.get(start..end).unwrap_or_default();
            // The overflow colour's bundles may share bodies: never two at a time.
            solve_bundles(bundles, colour < COLOURS, ptr, dlt, pts, p, pass);
        }
    }
}

#[cfg(test)]
mod tests;
