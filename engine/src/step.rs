//! One fixed step, in named stages ([`Stage`]), each timed:
//!
//! 1. [`Stage::IntegrateVelocities`]: `v += dt·(g + F/m)`, `ω += dt·I⁻¹τ` for dynamic bodies
//!    (semi-implicit Euler); a body whose velocity is no longer finite is frozen and reported;
//! 2. [`Stage::BroadPhase`]: the broad phase returns the pairs of overlapping AABBs (grown by
//!    the speculative margin); pairs are mapped to body slots, sorted, filtered (collision
//!    groups, at least one dynamic body, sensors apart). At the very end of the step the moving
//!    bodies' new AABBs go into the broad phase (one batch), so queries between steps see them;
//! 3. [`Stage::NarrowPhase`]: contact manifolds of the candidate pairs in parallel (rayon,
//!    output in pair order), last step's impulses carried over by feature id, sensor overlaps;
//! 4. [`Stage::Solver`]: see [`crate::solver`];
//! 5. [`Stage::IntegratePositions`]: `x += dt·v`, `q += dt/2·(0, ω)·q` normalised;
//! 6. [`Stage::Ccd`]: see [`crate::ccd`];
//! 7. [`Stage::Finalize`]: contact and sensor events, the final non-finite check, the contact
//!    cache swapped in for the next step.

use crate::body::{Body, BodyKind};
use crate::broadphase::BroadPhase;
use crate::events::{Event, StepReport};
use crate::handle::BodyHandle;
use crate::math::{Matrix, Real, Rotation, Vector};
use crate::narrowphase::query::BoxFrame;
use crate::narrowphase::{query, Manifold, Shape};
use crate::solver::{rotate_tensor, BodyMass, Softness, SolverBody, SolverParams};
use crate::stage::{Stage, Timer};
use crate::world::{Candidate, ContactPair, PointImpulse, Slot, World};
use rayon::prelude::*;
use std::mem::MaybeUninit;

const NONE: u32 = u32::MAX;

/// Old and new contact points closer than this (metres) are the same point for warm starting
/// when their feature ids differ.
const MATCH_DISTANCE: Real = 0.02;

/// Broad-phase pairs per chunk when mapping them to candidates (and candidates per chunk when
/// matching them with the old contact cache). The chunks are fixed by the list alone, never by
/// the thread count.
pub(crate) const PAIR_CHUNK: usize = 2048;

/// Items per chunk of [`hits_in_order`] (candidates of the narrow phase): the smallest piece
/// the work is split into between threads, and the start of a run that another thread takes.
pub(crate) const CONTACT_CHUNK: usize = 256;

/// Slots per chunk of the broad-phase update pass (each chunk's updates stay in the core's
/// cache until they are concatenated).
pub(crate) const UPDATE_CHUNK: usize = 512;

/// New contact pairs per chunk of the contact-event merge in `finalize` (fixed by the cache
/// alone, never by the thread count).
const EVENT_CHUNK: usize = 1024;

/// What one chunk of the contact-event merge yields (buffers kept between steps).
#[derive(Default)]
pub(crate) struct EventChunk {
    events: Vec<Event>,
    /// Contact points of the chunk's new pairs.
    points: usize,
    /// Touching pairs among them.
    touching: usize,
}

/// Copies of at most this many bytes are not split between threads.
const COPY_GRAIN_BYTES: usize = 1 << 17;

/// What one chunk of broad-phase pairs yields (buffers kept between steps).
#[derive(Default)]
pub(crate) struct PairChunk {
    contacts: Vec<Candidate>,
    sensors: Vec<(u32, u32)>,
    /// Both lists are strictly increasing by body pair.
    sorted: bool,
}

/// A buffer of a [`hits_in_order`] pass, one per chunk of `CONTACT_CHUNK` items (kept between
/// steps).
pub(crate) struct HitChunk<T> {
    /// When `taken`, the hits of the run of chunks starting at this one, in item order.
    hits: Vec<T>,
    /// A run of chunks starts here whose hits are not in the output yet (see
    /// [`hits_in_order`]).
    taken: bool,
}

impl<T> Default for HitChunk<T> {
    fn default() -> Self {
        Self {
            hits: Vec::new(),
            taken: false,
        }
    }
}

/// Runs `f` over `items` in parallel and replaces `out` by the hits in item order; returns
/// the number of items `f` could not handle (its return values summed). `f` must push, for a
/// slice of items, the hits of each item in turn (so that any split of the items gives the
/// same hits): the result then does not depend on the thread count.
///
/// The items are halved recursively down to chunks of `CONTACT_CHUNK` (as rayon's `join`
/// does), the second half of each split offered to the other threads while this one does the
/// first. Hits go straight into `out` as long as this thread meets them in item order; a half
/// that another thread took (rayon reports it migrated), and whatever follows it, starts a run
/// in the buffer of its first chunk. The runs are appended to `out` at the end, in order (the
/// copy split between threads when large). On two threads about half of the hits are copied
/// once, where writing every chunk to its own buffer copied all of them; on a one-thread pool
/// `f` runs once over all the items, straight into `out`.
pub(crate) fn hits_in_order<I: Sync, T: Copy + Send + Sync>(
    items: &[I],
    chunks: &mut Vec<HitChunk<T>>,
    out: &mut Vec<T>,
    f: impl Fn(&[I], &mut Vec<T>) -> usize + Sync,
) -> usize {
    out.clear();
    if rayon::current_num_threads() == 1 || items.len() <= CONTACT_CHUNK {
        return f(items, out);
    }
    let n = items.len().div_ceil(CONTACT_CHUNK);
    if chunks.len() < n {
        chunks.resize_with(n, HitChunk::default);
    }
    let chunks = &mut chunks[..n];
    for c in chunks.iter_mut() {
        c.taken = false;
    }
    // The first chunk's buffer is never needed: `out` is the first run's.
    let (unsupported, _) = hits_of_run(&RayonJoin, items, &mut chunks[1..], out, &f);
    append_parts(chunks, |c| if c.taken { &c.hits[..] } else { &[] }, out);
    unsupported
}

/// How [`hits_of_run`] runs the two halves of a split: rayon's `join_context` in the engine,
/// a scripted order in the tests (which can make any half "taken").
trait Join: Sync {
    /// Runs `a`, and `b` told whether it runs on another thread than `a` (then possibly at
    /// the same time); returns both results.
    fn join<RA: Send, RB: Send>(
        &self,
        a: impl FnOnce() -> RA + Send,
        b: impl FnOnce(bool) -> RB + Send,
    ) -> (RA, RB);
}

/// [`Join`] by `rayon::join_context`: `b` is told whether another thread stole it.
struct RayonJoin;

impl Join for RayonJoin {
    fn join<RA: Send, RB: Send>(
        &self,
        a: impl FnOnce() -> RA + Send,
        b: impl FnOnce(bool) -> RB + Send,
    ) -> (RA, RB) {
        rayon::join_context(|_| a(), |ctx| b(ctx.migrated()))
    }
}

/// One run of [`hits_in_order`]: the hits of `items` (`bufs.len() + 1` chunks of
/// `CONTACT_CHUNK`, the last one possibly shorter) pushed onto `out` in order, except for the
/// runs started in `bufs` (the buffers of the chunks after the first), marked `taken`. Returns
/// the number of items not handled, and whether a run was started (then `out` does not reach
/// the end of `items`, and whatever comes after must start a run too).
fn hits_of_run<I: Sync, T: Send>(
    join: &impl Join,
    items: &[I],
    bufs: &mut [HitChunk<T>],
    out: &mut Vec<T>,
    f: &(impl Fn(&[I], &mut Vec<T>) -> usize + Sync),
) -> (usize, bool) {
    if bufs.is_empty() {
        return (f(items, out), false);
    }
    // `mid ≥ 1` chunks on the left, `bufs.len() + 1 - mid ≥ 1` on the right.
    let mid = bufs.len().div_ceil(2);
    let (left, right) = items.split_at(mid * CONTACT_CHUNK);
    let (left_bufs, rest) = bufs.split_at_mut(mid - 1);
    let Some((first, right_bufs)) = rest.split_first_mut() else {
        unreachable!("the right half has at least one chunk");
    };
    let start_run = |first: &mut HitChunk<T>, right_bufs: &mut [HitChunk<T>]| {
        first.taken = true;
        first.hits.clear();
        hits_of_run(join, right, right_bufs, &mut first.hits, f).0
    };
    let ((u, started), taken) = join.join(
        || hits_of_run(join, left, left_bufs, out, f),
        |migrated| migrated.then(|| start_run(first, right_bufs)),
    );
    match taken {
        Some(v) => (u + v, true),
        // Not taken by another thread: this thread does it now, after the left half; in a run
        // of its own if the left half's hits stop short of it.
        None if started => (u + start_run(first, right_bufs), true),
        None => {
            let (v, started) = hits_of_run(join, right, right_bufs, out, f);
            (u + v, started)
        }
    }
}

/// Replaces the contents of `out` by the concatenation, in order, of `part(p)` for every `p`
/// in `parts`; large copies are split between threads.
pub(crate) fn concat_into<P: Sync, T: Copy + Send + Sync>(
    parts: &[P],
    part: impl Fn(&P) -> &[T] + Sync,
    out: &mut Vec<T>,
) {
    out.clear();
    append_parts(parts, part, out);
}

/// Appends to `out` the concatenation, in order, of `part(p)` for every `p` in `parts`; large
/// copies are split between threads.
fn append_parts<P: Sync, T: Copy + Send + Sync>(
    parts: &[P],
    part: impl Fn(&P) -> &[T] + Sync,
    out: &mut Vec<T>,
) {
    let total: usize = parts.iter().map(|p| part(p).len()).sum();
    out.reserve(total);
    let len = out.len();
    copy_range(parts, &part, 0, &mut out.spare_capacity_mut()[..total]);
    // SAFETY: `copy_range` initialised all of `spare_capacity_mut()[..total]`, the `total`
    // elements after the first `len`: its ranges cover `dst` (halves of halves), and each
    // range is filled or the copy panics before this line; `T: Copy` has no drop to run.
    unsafe { out.set_len(len + total) };
}

/// Copies elements `start..start + dst.len()` of the concatenation of `part(p)` for every `p`
/// of `parts` to `dst`; panics if the parts hold fewer. `dst` is halved between threads down
/// to `COPY_GRAIN_BYTES`, wherever the parts begin and end (one large part is split too).
fn copy_range<P: Sync, T: Copy + Send + Sync>(
    parts: &[P],
    part: &(impl Fn(&P) -> &[T] + Sync),
    start: usize,
    dst: &mut [MaybeUninit<T>],
) {
    if dst.len() > 1 && dst.len() * std::mem::size_of::<T>() > COPY_GRAIN_BYTES {
        let half = dst.len() / 2;
        let (l, r) = dst.split_at_mut(half);
        rayon::join(
            || copy_range(parts, part, start, l),
            || copy_range(parts, part, start + half, r),
        );
        return;
    }
    let (mut skip, mut rest) = (start, dst);
    for p in parts {
        if rest.is_empty() {
            break;
        }
        let src = part(p);
        if skip >= src.len() {
            skip -= src.len();
            continue;
        }
        let src = &src[skip..src.len().min(skip + rest.len())];
        skip = 0;
        let (head, tail) = rest.split_at_mut(src.len());
        for (d, s) in head.iter_mut().zip(src) {
            d.write(*s);
        }
        rest = tail;
    }
    assert!(
        rest.is_empty(),
        "copy_range: the parts are shorter than the range"
    );
}

/// Whether each non-empty part's first key is above the last key of the non-empty parts
/// before it (with every part sorted, whether their concatenation is strictly increasing).
fn increasing_joins(
    parts: &[PairChunk],
    first: impl Fn(&PairChunk) -> Option<(u32, u32)>,
    last: impl Fn(&PairChunk) -> Option<(u32, u32)>,
) -> bool {
    let mut prev = None;
    parts.iter().all(|p| {
        let ok = match (prev, first(p)) {
            (Some(l), Some(f)) => l < f,
            _ => true,
        };
        prev = last(p).or(prev);
        ok
    })
}

/// How a pair of bodies interacts.
enum PairKind {
    Contact,
    Sensor,
}

/// What the pair filter needs of a body, packed (built once per step, read per pair).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BodyInfo {
    live: bool,
    dynamic: bool,
    moving: bool,
    sensor: bool,
    memberships: u32,
    filter: u32,
    /// Continuous-collision margin, metres.
    margin: Real,
}

impl BodyInfo {
    fn of(cfg: &crate::WorldConfig, b: &Body) -> Self {
        Self {
            live: true,
            dynamic: b.is_dynamic(),
            moving: b.is_moving(),
            sensor: b.sensor,
            memberships: b.memberships,
            filter: b.filter,
            margin: World::ccd_margin(cfg, b),
        }
    }
}

fn classify(a: &BodyInfo, b: &BodyInfo) -> Option<PairKind> {
    if !(a.live && b.live) || (a.memberships & b.filter) == 0 || (b.memberships & a.filter) == 0 {
        return None;
    }
    if a.sensor || b.sensor {
        if (a.sensor && b.sensor) || (!a.moving && !b.moving) {
            return None;
        }
        return Some(PairKind::Sensor);
    }
    if a.dynamic || b.dynamic {
        Some(PairKind::Contact)
    } else {
        None
    }
}

/// `query::contact` in either order (flipping the result), None for unsupported pairs. The hot
/// loops take their ball–ball (and box–box) pairs off before calling it: `contact_pair` from
/// [`PairBody`], `CollisionWorld` from its packed balls.
pub(crate) fn contact_any(
    pa: &crate::math::Isometry,
    sa: &crate::narrowphase::Shape,
    pb: &crate::math::Isometry,
    sb: &crate::narrowphase::Shape,
    prediction: Real,
) -> Result<Option<Manifold>, crate::narrowphase::UnsupportedPair> {
    match query::contact(pa, sa, pb, sb, prediction) {
        Ok(m) => Ok(m),
        Err(e) => match query::contact(pb, sb, pa, sa, prediction) {
            Ok(m) => Ok(m.map(|m| m.flipped())),
            Err(_) => Err(e),
        },
    }
}

/// `query::intersection_test` in either order.
pub(crate) fn intersects_any(
    pa: &crate::math::Isometry,
    sa: &crate::narrowphase::Shape,
    pb: &crate::math::Isometry,
    sb: &crate::narrowphase::Shape,
) -> Option<bool> {
    query::intersection_test(pa, sa, pb, sb)
        .or_else(|_| query::intersection_test(pb, sb, pa, sa))
        .ok()
}

/// Freezes a body whose state is no longer finite: back to its pose at the start of the step,
/// velocities and forces cleared.
fn freeze(b: &mut Body) {
    b.frozen = true;
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
fn report_frozen(slots: &[crate::world::Slot], flags: &[bool], report: &mut StepReport) {
    for (i, (slot, &f)) in slots.iter().zip(flags).enumerate() {
        if f {
            report
                .frozen
                .push(BodyHandle::new(i as u32, slot.generation));
        }
    }
}

/// Runs `op` on a thread of a rayon pool, the pool's other threads kept awake meanwhile
/// ([`with_pool_awake`]). Called from a pool's thread, that is where it runs; called from
/// outside every pool, `op` is handed to the global pool once (`rayon::scope` runs its body
/// there) rather than each parallel section of a step crossing into the pool and waking the
/// caller back (a futex wake-up and a context switch each: about a sixth of a 10 000-ball step
/// on one thread, by alternating runs of the stress runner). Results are the same either way:
/// the parallel sections' outputs do not depend on the thread.
pub(crate) fn on_rayon_pool<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        with_pool_awake(op)
    } else {
        rayon::scope(|_| with_pool_awake(op))
    }
}

/// Runs `op` on the current thread (a thread of a rayon pool) while the pool's other threads
/// stay awake: each looks for work (`rayon::yield_now`, then an OS yield when there is none)
/// until `op` returns, instead of falling asleep after a few dozen idle rounds as rayon's own
/// idle loop does. A step alternates parallel sections with short serial ones (between them,
/// and inside the broad phase and the solver); a thread asleep at the start of a section joins
/// it only once woken (a futex wake-up, tens of microseconds on a virtual machine), and a
/// 10 000-ball step on two threads slept and was woken about seven times. The other threads
/// get the same work as before, only sooner: results do not change. One thread: just `op`.
///
/// The keep-awake tasks are the second halves of `rayon::join`s around `op` (on the stack, no
/// allocation): pushed before anything `op` pushes, they are the first work the other threads
/// steal (rayon steals oldest first). Should this thread ever pop one itself (while waiting
/// inside `op`), it returns at once.
fn with_pool_awake<R>(op: impl FnOnce() -> R + Send) -> R
where
    R: Send,
{
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Sets the flag when dropped: the awake threads are released even if `op` panics (the
    /// `join`s around it wait for them before unwinding further).
    struct Release<'a>(&'a AtomicBool);
    impl Drop for Release<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Release);
        }
    }

    /// Looks for work until `done`; returns at once on the thread running `op`.
    fn stay_awake(done: &AtomicBool, owner: Option<usize>) {
        if rayon::current_thread_index() == owner {
            return;
        }
        while !done.load(Ordering::Acquire) {
            if rayon::yield_now() != Some(rayon::Yield::Executed) {
                std::thread::yield_now();
            }
        }
    }

    /// `op` inside `awake` nested `join`s, each offering one keep-awake task.
    fn nest<R: Send>(
        awake: usize,
        done: &AtomicBool,
        owner: Option<usize>,
        op: impl FnOnce() -> R + Send,
    ) -> R {
        if awake == 0 {
            let _release = Release(done);
            return op();
        }
        rayon::join(
            || nest(awake - 1, done, owner, op),
            || stay_awake(done, owner),
        )
        .0
    }

    let done = AtomicBool::new(false);
    let others = rayon::current_num_threads().saturating_sub(1);
    nest(others, &done, rayon::current_thread_index(), op)
}

impl World {
    /// One step, on a rayon pool's thread ([`on_rayon_pool`]).
    pub(crate) fn step_inner(&mut self) -> StepReport {
        on_rayon_pool(|| self.step_stages())
    }

    fn step_stages(&mut self) -> StepReport {
        let mut report = StepReport {
            simulated_seconds: self.state.config.dt,
            ..StepReport::default()
        };
        self.events.clear();
        self.times.clear();

        let t = Timer::start();
        self.integrate_velocities(&mut report);
        t.stop(&mut self.times, Stage::IntegrateVelocities);

        let t = Timer::start();
        self.broad_phase();
        let broad_time = t.elapsed();

        let t = Timer::start();
        self.narrow_phase(&mut report);
        t.stop(&mut self.times, Stage::NarrowPhase);

        let t = Timer::start();
        let params = self.prepare_solver();
        let iters = self.state.config.solver_iterations;
        self.scratch
            .solver
            .solve_velocities(&mut self.scratch.solver_bodies, &params, iters);
        let mut solver_time = t.elapsed();

        let t = Timer::start();
        self.integrate_positions();
        t.stop(&mut self.times, Stage::IntegratePositions);

        let t = Timer::start();
        let relax = self.state.config.relax_iterations;
        self.scratch
            .solver
            .relax_and_restitute(&mut self.scratch.solver_bodies, &params, relax);
        self.store_solver_results();
        solver_time += t.elapsed();
        self.times.set(Stage::Solver, solver_time);

        let t = Timer::start();
        // Without a body that may be swept (none frozen into one since the first stage), the
        // stage would only scan the slots to find none.
        report.ccd_hits = if self.scratch.any_ccd {
            self.continuous_collision()
        } else {
            0
        };
        t.stop(&mut self.times, Stage::Ccd);

        let t = Timer::start();
        self.finalize(&mut report);
        t.stop(&mut self.times, Stage::Finalize);

        let t = Timer::start();
        self.update_broad_phase(&mut report);
        self.times.set(Stage::BroadPhase, broad_time + t.elapsed());
        // Wrapping: a restored snapshot may hold any count, and a counter must never panic.
        self.state.step_count = self.state.step_count.wrapping_add(1);
        report
    }

    #[inline(never)]
    fn integrate_velocities(&mut self, report: &mut StepReport) {
        let cfg = &self.state.config;
        let dt = cfg.dt;
        let g = cfg.gravity;
        let sc = &mut self.scratch;
        let n = self.state.slots.len();
        // Every element is written below: only a change of length costs a serial pass.
        sc.info.resize(n, BodyInfo::default());
        sc.shape_poses.resize(n, crate::math::Isometry::identity());
        sc.flags.resize(n, false);
        // Per body, independent of the others: parallel; the bodies frozen here are reported
        // afterwards in slot order. Also whether any body may need continuous collision.
        let (any_frozen, any_ccd) = self
            .state
            .slots
            .par_iter_mut()
            .zip(sc.info.par_iter_mut())
            .zip(sc.shape_poses.par_iter_mut().zip(sc.flags.par_iter_mut()))
            .with_min_len(256)
            .map(|((slot, info), (shape_pose, frozen))| {
                *frozen = false;
                let Some(b) = slot.body.as_mut() else {
                    *info = BodyInfo::default();
                    *shape_pose = crate::math::Isometry::identity();
                    return (false, false);
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
                    b.linvel = v;
                    b.angvel = w;
                    if !(crate::math::is_finite_vector(&v) && crate::math::is_finite_vector(&w)) {
                        freeze(b);
                        *frozen = true;
                    }
                }
                *info = BodyInfo::of(cfg, b);
                (*frozen, crate::ccd::may_sweep(b))
            })
            .reduce(|| (false, false), |x, y| (x.0 | y.0, x.1 | y.1));
        if any_frozen {
            report_frozen(&self.state.slots, &sc.flags, report);
        }
        sc.any_ccd = cfg.ccd && any_ccd;
    }

    /// Moving bodies' AABBs into the broad phase (at the end of each step, so that queries
    /// between steps see current boxes); bodies whose box is not finite are frozen.
    #[inline(never)]
    pub(crate) fn update_broad_phase(&mut self, report: &mut StepReport) {
        let cfg = &self.state.config;
        let sc = &mut self.scratch;
        let n = self.state.slots.len();
        sc.flags.clear();
        sc.flags.resize(n, false);
        // Per body, independent of the others: fixed chunks of slots in parallel, each writing
        // the updates of its bodies into its own buffer (kept between steps), concatenated in
        // slot order; the bodies frozen here are reported afterwards in slot order.
        let chunks = n.div_ceil(UPDATE_CHUNK);
        if sc.update_chunks.len() < chunks {
            sc.update_chunks.resize_with(chunks, Vec::new);
        }
        self.state
            .slots
            .par_chunks_mut(UPDATE_CHUNK)
            .zip(sc.flags.par_chunks_mut(UPDATE_CHUNK))
            .zip(self.proxies.par_chunks(UPDATE_CHUNK))
            .zip(sc.update_chunks[..chunks].par_iter_mut())
            .for_each(|(((slots, flags), proxies), out)| {
                out.clear();
                for ((slot, frozen), &proxy) in slots.iter_mut().zip(flags).zip(proxies) {
                    // Frozen bodies too: one frozen during this step lost its CCD margin (and
                    // may have moved), and every proxy must hold exactly `broad_aabb`.
                    let Some(b) = slot.body.as_mut().filter(|b| b.kind != BodyKind::Static) else {
                        continue;
                    };
                    let aabb = World::broad_aabb(cfg, b).or_else(|| {
                        // Out of the world: back to the step's start pose (within the
                        // limits), frozen and reported (once: a body frozen earlier in the
                        // step is reported already).
                        *frozen = !b.frozen;
                        b.pose = b.prev_pose;
                        freeze(b);
                        World::broad_aabb(cfg, b)
                    });
                    if let Some(aabb) = aabb {
                        out.push((proxy, aabb));
                    }
                }
            });
        if sc.flags.contains(&true) {
            report_frozen(&self.state.slots, &sc.flags, report);
        }
        concat_into(&sc.update_chunks[..chunks], |c| c, &mut sc.bp_updates);
        if self.broad.update_batch(&sc.bp_updates).is_err() {
            // Some AABB is not finite: update one by one and freeze the offenders.
            for k in 0..sc.bp_updates.len() {
                let (proxy, aabb) = sc.bp_updates[k];
                if self.broad.update(proxy, aabb).is_err() {
                    let i = self.body_of_proxy[proxy.index() as usize] as usize;
                    let slot = &mut self.state.slots[i];
                    if let Some(b) = slot.body.as_mut() {
                        freeze(b);
                        report
                            .frozen
                            .push(BodyHandle::new(i as u32, slot.generation));
                    }
                }
            }
        }
    }

    /// The candidate pairs of this step: the broad phase's pairs mapped to body slots,
    /// filtered ([`classify`]), sorted by `(a, b)` and matched with last step's contact cache.
    #[inline(never)]
    fn broad_phase(&mut self) {
        let cfg = &self.state.config;
        let sc = &mut self.scratch;
        self.broad.find_pairs(&mut sc.bp_pairs);

        // Fixed chunks of the (sorted) pair list, mapped in parallel; each chunk's output is
        // the same whatever the thread count, and the chunks are concatenated in order.
        let chunks = sc.bp_pairs.len().div_ceil(PAIR_CHUNK);
        if sc.pair_chunks.len() < chunks {
            sc.pair_chunks.resize_with(chunks, PairChunk::default);
        }
        let (info, body_of_proxy) = (&sc.info, &self.body_of_proxy);
        sc.bp_pairs
            .par_chunks(PAIR_CHUNK)
            .zip(sc.pair_chunks[..chunks].par_iter_mut())
            .for_each(|(pairs, out)| {
                out.contacts.clear();
                out.sensors.clear();
                for &(pa, pb) in pairs {
                    let (Some(&ia), Some(&ib)) = (
                        body_of_proxy.get(pa.index() as usize),
                        body_of_proxy.get(pb.index() as usize),
                    ) else {
                        continue;
                    };
                    let (a, b) = if ia < ib { (ia, ib) } else { (ib, ia) };
                    let (Some(ba), Some(bb)) = (info.get(a as usize), info.get(b as usize)) else {
                        continue;
                    };
                    match classify(ba, bb) {
                        Some(PairKind::Contact) => out.contacts.push(Candidate {
                            a,
                            b,
                            prev: NONE,
                            prediction: cfg.prediction_distance + ba.margin + bb.margin,
                        }),
                        Some(PairKind::Sensor) => out.sensors.push((a, b)),
                        None => {}
                    }
                }
                out.sorted = out
                    .contacts
                    .windows(2)
                    .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b))
                    && out.sensors.windows(2).all(|w| w[0] < w[1]);
            });
        let parts = &sc.pair_chunks[..chunks];
        // Proxy order follows slot order in practice (both arenas allocate alike), so the
        // lists are usually sorted already: each chunk checked its own, the joins between
        // chunks are checked here.
        let sorted = parts.iter().all(|c| c.sorted)
            && increasing_joins(
                parts,
                |c| c.contacts.first().map(|c| (c.a, c.b)),
                |c| c.contacts.last().map(|c| (c.a, c.b)),
            )
            && increasing_joins(
                parts,
                |c| c.sensors.first().copied(),
                |c| c.sensors.last().copied(),
            );
        concat_into(parts, |c| &c.contacts, &mut sc.candidates);
        concat_into(parts, |c| &c.sensors, &mut sc.sensor_candidates);
        if !sorted {
            sc.candidates.par_sort_unstable_by_key(|c| (c.a, c.b));
            sc.sensor_candidates.sort_unstable();
        }
        // Match last step's contact cache (sorted the same way) by merge join, per chunk from
        // the first old pair not below the chunk's first key.
        let prev = &self.state.contacts;
        let slots = &self.state.slots;
        let key = |p: &ContactPair| (p.a.index(), p.b.index());
        sc.candidates.par_chunks_mut(PAIR_CHUNK).for_each(|chunk| {
            let first = (chunk[0].a, chunk[0].b);
            let mut j = prev.partition_point(|p| key(p) < first);
            for c in chunk.iter_mut() {
                let k = (c.a, c.b);
                while j < prev.len() && key(&prev[j]) < k {
                    j += 1;
                }
                if j < prev.len() && key(&prev[j]) == k {
                    let (ga, gb) = (
                        slots[c.a as usize].generation,
                        slots[c.b as usize].generation,
                    );
                    if prev[j].a.generation() == ga && prev[j].b.generation() == gb {
                        c.prev = j as u32;
                    }
                }
            }
        });
        self.counts.pairs = sc.candidates.len() + sc.sensor_candidates.len();
    }

    #[inline(never)]
    fn narrow_phase(&mut self, report: &mut StepReport) {
        let slots = &self.state.slots;
        let prev = &self.state.contacts;
        let slop = self.state.config.linear_slop;
        let sc = &mut self.scratch;
        let poses = &sc.shape_poses;
        // What the pairs read of each body, once per body rather than once per pair, packed
        // so that a pair of balls or boxes never touches the (large) slots.
        slots
            .par_iter()
            .zip(poses.par_iter())
            .with_min_len(256)
            .map(|(slot, pose)| PairBody::of(slot, pose))
            .unzip_into_vecs(&mut sc.pair_bodies, &mut sc.box_frames);
        let input = NarrowInput {
            slots,
            bodies: &sc.pair_bodies,
            frames: &sc.box_frames,
            poses,
            prev,
            slop,
        };
        let mut unsupported = hits_in_order(
            &sc.candidates,
            &mut sc.contact_chunks,
            &mut sc.new_contacts,
            |cands, out| input.run(cands, out),
        );
        // Sensors: boolean overlap tests.
        sc.sensor_out.clear();
        sc.sensor_candidates
            .par_iter()
            .with_min_len(64)
            .map(|&(a, b)| {
                let (ba, bb) = (
                    slots[a as usize].body.as_ref()?,
                    slots[b as usize].body.as_ref()?,
                );
                intersects_any(&ba.shape_pose(), &ba.shape, &bb.shape_pose(), &bb.shape)
            })
            .collect_into_vec(&mut sc.sensor_out);
        sc.new_sensor_pairs.clear();
        for (&(a, b), hit) in sc.sensor_candidates.iter().zip(&sc.sensor_out) {
            match hit {
                Some(true) => sc.new_sensor_pairs.push((
                    BodyHandle::new(a, slots[a as usize].generation),
                    BodyHandle::new(b, slots[b as usize].generation),
                )),
                Some(false) => {}
                None => unsupported += 1,
            }
        }
        report.unsupported_pairs += unsupported;
    }

    /// Builds solver bodies and constraints, colours them; returns the step's parameters.
    #[inline(never)]
    fn prepare_solver(&mut self) -> SolverParams {
        let cfg = &self.state.config;
        let slots = &self.state.slots;
        let sc = &mut self.scratch;
        let contacts = &sc.new_contacts;
        // The colouring needs only which bodies are dynamic (`info`, made by
        // `integrate_velocities`: no body is frozen between it and here), so it runs beside the
        // making of the solver bodies (taken out of the solver meanwhile, put back below).
        let mut masses = std::mem::take(&mut sc.solver.masses);
        let info = &sc.info;
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
                    .unzip_into_vecs(&mut sc.solver_bodies, &mut masses)
            },
        );
        sc.solver.masses = masses;
        // The zero body, read by the empty lanes of the solver's bundles.
        let zero = sc.solver_bodies.len() as u32;
        sc.solver_bodies.push(SolverBody::ZERO);
        sc.solver
            .build(contacts, &sc.solver_bodies, cfg.restitution_threshold, zero);
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

    #[inline(never)]
    fn integrate_positions(&mut self) {
        let dt = self.state.config.dt;
        let bodies = &self.scratch.solver_bodies;
        self.state
            .slots
            .par_iter_mut()
            .enumerate()
            .with_min_len(256)
            .for_each(|(i, slot)| {
                let Some(b) = slot.body.as_mut() else { return };
                if !b.is_moving() {
                    return;
                }
                let (v, w) = if b.is_dynamic() {
                    (bodies[i].v(), bodies[i].w())
                } else {
                    (b.linvel, b.angvel)
                };
                let com = b.com() + v * dt;
                let q = if w == Vector::zeros() {
                    b.pose.rotation
                } else {
                    integrate_rotation(&b.pose.rotation, &w, dt)
                };
                b.pose.rotation = q;
                b.pose.translation.vector = com - q * b.com_local;
            });
    }

    /// Velocities back into the bodies, impulses back into the contact cache (both in
    /// parallel: each body and each contact pair is written by one task).
    #[inline(never)]
    fn store_solver_results(&mut self) {
        let sc = &mut self.scratch;
        self.state
            .slots
            .par_iter_mut()
            .zip(sc.solver_bodies.par_iter())
            .with_min_len(256)
            .for_each(|(slot, sb)| {
                if let Some(b) = slot.body.as_mut() {
                    if b.is_dynamic() {
                        b.linvel = sb.v();
                        b.angvel = sb.w();
                    }
                }
            });
        sc.solver.store_results(&mut sc.new_contacts, |cp, k, r| {
            // An impulse that overflowed (enormous masses or velocities: the bodies it reached
            // are frozen in `finalize`) must not be kept for warm starting.
            let finite = r.normal.is_finite() && crate::math::is_finite_vector(&r.tangent);
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

    #[inline(never)]
    fn finalize(&mut self, report: &mut StepReport) {
        // Final non-finite check, per body in parallel; the frozen are reported in slot order.
        let sc = &mut self.scratch;
        sc.flags.clear();
        sc.flags.resize(self.state.slots.len(), false);
        let any_frozen = self
            .state
            .slots
            .par_iter_mut()
            .zip(sc.flags.par_iter_mut())
            .with_min_len(256)
            .map(|(slot, frozen)| {
                if let Some(b) = slot.body.as_mut() {
                    if b.is_moving() && !b.is_finite() {
                        freeze(b);
                        *frozen = true;
                    }
                }
                *frozen
            })
            .reduce(|| false, |x, y| x | y);
        if any_frozen {
            report_frozen(&self.state.slots, &sc.flags, report);
        }
        // Contact events: merge join of the old and new caches, over fixed chunks of the new
        // cache in parallel, each from the first old pair not below its first key (the first
        // chunk from the start, the last to the end of the old cache), so the chunks' events
        // concatenated in order are the serial merge's. The counts come from the same pass.
        let (old, new) = (&self.state.contacts, &sc.new_contacts);
        let key = |c: &ContactPair| (c.a.index(), c.b.index());
        let chunks = new.len().div_ceil(EVENT_CHUNK).max(1);
        if sc.event_chunks.len() < chunks {
            sc.event_chunks.resize_with(chunks, EventChunk::default);
        }
        let old_start = |j: usize| match j {
            0 => 0,
            j if j >= new.len() => old.len(),
            j => old.partition_point(|o| key(o) < key(&new[j])),
        };
        sc.event_chunks[..chunks]
            .par_iter_mut()
            .enumerate()
            .for_each(|(c, out)| {
                let (j0, j1) = (c * EVENT_CHUNK, ((c + 1) * EVENT_CHUNK).min(new.len()));
                let i1 = if c + 1 == chunks {
                    old.len()
                } else {
                    old_start(j1)
                };
                let new = &new[j0..j1];
                out.events.clear();
                contact_events(&old[old_start(j0)..i1], new, &mut out.events);
                out.points = new.iter().map(|c| c.manifold.len()).sum();
                out.touching = new.iter().filter(|c| c.touching).count();
            });
        let parts = &sc.event_chunks[..chunks];
        for part in parts {
            self.events.extend_from_slice(&part.events);
        }
        self.counts.contact_pairs = new.len();
        self.counts.contacts = parts.iter().map(|p| p.points).sum();
        self.counts.touching_pairs = parts.iter().map(|p| p.touching).sum();
        // Sensor events.
        let slots = &self.state.slots;
        let sensor_of = |a: BodyHandle, b: BodyHandle| -> (BodyHandle, BodyHandle) {
            let a_is_sensor = slots
                .get(a.index() as usize)
                .filter(|s| s.generation == a.generation())
                .and_then(|s| s.body.as_ref())
                .is_some_and(|b| b.sensor);
            if a_is_sensor {
                (a, b)
            } else {
                (b, a)
            }
        };
        let (old, new) = (&self.state.sensor_pairs, &sc.new_sensor_pairs);
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            let ord = match (old.get(i), new.get(j)) {
                (Some(o), Some(n)) => (o.0.index(), o.1.index()).cmp(&(n.0.index(), n.1.index())),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            let exit = |p: (BodyHandle, BodyHandle)| {
                let (sensor, other) = sensor_of(p.0, p.1);
                Event::SensorExit { sensor, other }
            };
            let enter = |p: (BodyHandle, BodyHandle)| {
                let (sensor, other) = sensor_of(p.0, p.1);
                Event::SensorEnter { sensor, other }
            };
            match ord {
                std::cmp::Ordering::Less => {
                    self.events.push(exit(old[i]));
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    self.events.push(enter(new[j]));
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    if old[i] != new[j] {
                        self.events.push(exit(old[i]));
                        self.events.push(enter(new[j]));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        std::mem::swap(&mut self.state.contacts, &mut sc.new_contacts);
        std::mem::swap(&mut self.state.sensor_pairs, &mut sc.new_sensor_pairs);
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

/// Appends the contact events between the old and new contact caches `old` and `new` (each
/// sorted by body-index pair) to `events`, in pair order: a pair touching only in `old`
/// stopped, one touching only in `new` started; a pair whose bodies' slots were reused
/// (other generations) counts as two different pairs.
fn contact_events(old: &[ContactPair], new: &[ContactPair], events: &mut Vec<Event>) {
    use std::cmp::Ordering;
    let key = |c: &ContactPair| (c.a.index(), c.b.index());
    let (mut i, mut j) = (0, 0);
    loop {
        // The next pair of the merge: from `old` only, from `new` only, or from both.
        let (o, n) = match (old.get(i), new.get(j)) {
            (None, None) => break,
            (Some(o), Some(n)) => match key(o).cmp(&key(n)) {
                Ordering::Less => (Some(o), None),
                Ordering::Greater => (None, Some(n)),
                Ordering::Equal => (Some(o), Some(n)),
            },
            only => only,
        };
        // Touching in both caches, with the same generations: no event.
        let kept = matches!((o, n), (Some(o), Some(n))
            if o.touching && n.touching && o.a == n.a && o.b == n.b);
        if let Some(o) = o.filter(|o| o.touching && !kept) {
            events.push(Event::ContactStopped { a: o.a, b: o.b });
        }
        if let Some(n) = n.filter(|n| n.touching && !kept) {
            events.push(Event::ContactStarted { a: n.a, b: n.b });
        }
        i += o.is_some() as usize;
        j += n.is_some() as usize;
    }
}

/// The shape of a [`PairBody`]: the pairs of balls and of boxes take a fast path that reads
/// only the packed per-body data; the other pairs read the body's shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum PairShape {
    /// A free slot.
    #[default]
    Empty,
    Ball,
    Cuboid,
    /// Any other shape: read from the slot.
    Other,
}

/// What the narrow phase reads of one body, built once per step (32 bytes, so that a pair
/// of balls or boxes reads two of these, and for boxes two [`BoxFrame`]s, instead of two
/// slots of several hundred bytes).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairBody {
    /// The shape's centre (translation of its world pose), metres.
    centre: Vector,
    /// A ball's radius in `x`, a box's half-extents (metres); zero otherwise.
    size: Vector,
    /// The slot's generation.
    generation: u32,
    shape: PairShape,
}

impl PairBody {
    /// The packed data of `slot`, whose shape is at `pose`, and the shape's frame for a box
    /// (zero otherwise).
    fn of(slot: &Slot, pose: &crate::math::Isometry) -> (Self, BoxFrame) {
        let mut p = PairBody {
            centre: pose.translation.vector,
            size: Vector::zeros(),
            generation: slot.generation,
            shape: PairShape::Other,
        };
        let mut frame = BoxFrame::default();
        match slot.body.as_ref().map(|b| &b.shape) {
            None => p.shape = PairShape::Empty,
            Some(Shape::Ball(b)) => {
                p.shape = PairShape::Ball;
                p.size.x = b.radius();
            }
            Some(Shape::Cuboid(c)) => {
                p.shape = PairShape::Cuboid;
                p.size = c.half_extents();
                frame = BoxFrame::of(pose);
            }
            Some(_) => {}
        }
        (p, frame)
    }
}

/// What the narrow phase reads besides the candidates, built once per step.
#[derive(Clone, Copy)]
struct NarrowInput<'a> {
    slots: &'a [Slot],
    /// Per slot, what a pair of balls or boxes reads.
    bodies: &'a [PairBody],
    /// Per slot, a box's frame (zero for other shapes).
    frames: &'a [BoxFrame],
    /// Per slot, the shape's world pose.
    poses: &'a [crate::math::Isometry],
    /// Last step's contact cache, which `Candidate::prev` indexes.
    prev: &'a [ContactPair],
    /// `WorldConfig::linear_slop`, metres.
    slop: Real,
}

impl NarrowInput<'_> {
    /// The narrow phase of `cands`, in order, onto `out`; returns how many are unsupported
    /// pairs of shapes.
    fn run(&self, cands: &[Candidate], out: &mut Vec<ContactPair>) -> usize {
        // One length for both per-slot tables, so that one bounds check covers both.
        let n = self.bodies.len();
        let input = NarrowInput {
            frames: &self.frames[..n],
            ..*self
        };
        let mut unsupported = 0;
        for c in cands {
            if input.contact_pair(c, out).is_err() {
                unsupported += 1;
            }
        }
        unsupported
    }

    /// The narrow phase of one candidate: pushes its manifold, with last step's impulses
    /// matched by feature id, onto `out`; pushes nothing when the shapes are farther apart
    /// than the prediction; `Err` (nothing pushed) for an unsupported pair of shapes. Balls and
    /// boxes read only `bodies` (and `frames`); what `query::contact` would run for them is
    /// called directly.
    #[inline(always)]
    fn contact_pair(&self, c: &Candidate, out: &mut Vec<ContactPair>) -> Result<(), ()> {
        let (ia, ib) = (c.a as usize, c.b as usize);
        let (pa, pb) = (&self.bodies[ia], &self.bodies[ib]);
        let m = match (pa.shape, pb.shape) {
            (PairShape::Cuboid, PairShape::Cuboid) => query::contact_cuboid_cuboid_frames(
                &self.frames[ia],
                &pa.size,
                &self.frames[ib],
                &pb.size,
                c.prediction,
            ),
            (PairShape::Ball, PairShape::Ball) => query::contact_ball_ball(
                &pa.centre.into(),
                pa.size.x,
                &pb.centre.into(),
                pb.size.x,
                c.prediction,
            ),
            (PairShape::Empty, _) | (_, PairShape::Empty) => return Ok(()),
            _ => self.contact_other(c)?,
        };
        self.push(c, pa, pb, m, out);
        Ok(())
    }

    /// The manifold of a candidate that is neither two balls nor two boxes (kept out of the
    /// loop over candidates, whose registers it would otherwise take).
    #[inline(never)]
    fn contact_other(&self, c: &Candidate) -> Result<Option<Manifold>, ()> {
        let (ia, ib) = (c.a as usize, c.b as usize);
        let (Some(ba), Some(bb)) = (self.slots[ia].body.as_ref(), self.slots[ib].body.as_ref())
        else {
            return Ok(None);
        };
        let (pa, pb) = (&self.poses[ia], &self.poses[ib]);
        contact_any(pa, &ba.shape, pb, &bb.shape, c.prediction).map_err(|_| ())
    }

    /// Pushes the contact pair of `c` (bodies `pa`, `pb`) with manifold `m` onto `out`, unless
    /// `m` is `None`, empty or not finite; its impulses are last step's, matched by feature id.
    #[inline(always)]
    fn push(
        &self,
        c: &Candidate,
        pa: &PairBody,
        pb: &PairBody,
        m: Option<Manifold>,
        out: &mut Vec<ContactPair>,
    ) {
        let Some(m) = m else { return };
        if m.is_empty() {
            return;
        }
        let Ok(depth) = crate::world::checked_max_depth(&m) else {
            return;
        };
        // Pushed first, its impulses matched in place.
        let at = out.len();
        out.push(ContactPair {
            a: BodyHandle::new(c.a, pa.generation),
            b: BodyHandle::new(c.b, pb.generation),
            touching: depth >= -self.slop,
            manifold: m,
            impulses: [PointImpulse::default(); 4],
        });
        if c.prev == NONE {
            return;
        }
        let ContactPair {
            manifold: m,
            impulses,
            ..
        } = &mut out[at];
        let old = &self.prev[c.prev as usize];
        let olds = old.manifold.points();
        for (k, p) in m.points().iter().enumerate() {
            // By feature id; failing that (the narrow phase may switch reference faces), the
            // nearest old point within `MATCH_DISTANCE`.
            let by_id = olds.iter().position(|q| q.id == p.id);
            let near = || {
                olds.iter()
                    .enumerate()
                    .map(|(i, q)| (i, (q.point - p.point).norm_squared()))
                    .filter(|&(_, d2)| d2 < MATCH_DISTANCE * MATCH_DISTANCE)
                    .min_by(|x, y| x.1.total_cmp(&y.1))
                    .map(|(i, _)| i)
            };
            if let Some(o) = by_id.or_else(near) {
                let imp = old.impulses[o];
                impulses[k] = PointImpulse {
                    normal: imp.normal,
                    tangent: imp.tangent - m.normal * m.normal.dot(&imp.tangent),
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A deterministic scramble of `x` (splitmix64's finaliser).
    fn mix(mut x: u64) -> u64 {
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    /// Item `i` of seed `s` yields 0 to 3 hits `(i, k)`, is unsupported one time in seven, and
    /// costs a varying amount of work (so that threads steal at varying places).
    fn hits_of(items: &[u64], out: &mut Vec<(u64, u64)>, seed: u64) -> usize {
        let mut unsupported = 0;
        for &i in items {
            let h = mix(i ^ seed);
            let mut spin = h % 4000;
            while spin > 0 {
                spin = std::hint::black_box(spin - 1);
            }
            if h.is_multiple_of(7) {
                unsupported += 1;
                continue;
            }
            for k in 0..(h >> 8) % 4 {
                out.push((i, k));
            }
        }
        unsupported
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// `hits_in_order` gives the serial loop's hits and count whatever the thread count,
        /// with its buffers reused from a call of another size.
        #[test]
        fn hits_in_order_matches_the_serial_loop(
            n in 0usize..12 * CONTACT_CHUNK,
            before in 0usize..12 * CONTACT_CHUNK,
            seed in any::<u64>(),
        ) {
            let items: Vec<u64> = (0..n as u64).collect();
            let mut want = Vec::new();
            let want_unsupported = hits_of(&items, &mut want, seed);
            for threads in 1..=4 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let (mut chunks, mut out) = (Vec::new(), vec![(7, 7); 3]);
                let earlier: Vec<u64> = (0..before as u64).collect();
                pool.install(|| {
                    hits_in_order(&earlier, &mut chunks, &mut out, |it, o| hits_of(it, o, !seed));
                    let u = hits_in_order(&items, &mut chunks, &mut out, |it, o| {
                        hits_of(it, o, seed)
                    });
                    prop_assert_eq!(u, want_unsupported);
                    prop_assert_eq!(&out, &want);
                    Ok(())
                })?;
            }
        }
    }

    /// A [`Join`] that runs both halves on this thread, telling the second one it was taken
    /// by another thread when the next bit of `script` is set.
    struct ScriptedJoin(std::sync::atomic::AtomicU64);

    impl Join for ScriptedJoin {
        fn join<RA: Send, RB: Send>(
            &self,
            a: impl FnOnce() -> RA + Send,
            b: impl FnOnce(bool) -> RB + Send,
        ) -> (RA, RB) {
            use std::sync::atomic::Ordering::Relaxed;
            let ra = a();
            let bits = self
                .0
                .fetch_update(Relaxed, Relaxed, |x| Some(x.rotate_right(1)));
            (ra, b(bits.unwrap_or(0) & 1 == 1))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whichever halves are taken (including those that rayon's oldest-first stealing
        /// never leaves: a half left to this thread after a steal in the half before it), the
        /// runs appended in chunk order give the serial loop's hits.
        #[test]
        fn every_pattern_of_taken_halves_keeps_the_order(
            n in 0usize..40 * CONTACT_CHUNK,
            script in any::<u64>(),
            seed in any::<u64>(),
        ) {
            let items: Vec<u64> = (0..n as u64).collect();
            let f = |it: &[u64], o: &mut Vec<(u64, u64)>| {
                it.iter()
                    .map(|&i| {
                        let h = mix(i ^ seed);
                        o.extend((0..h % 3).map(|k| (i, k)));
                        usize::from(h.is_multiple_of(5))
                    })
                    .sum::<usize>()
            };
            let mut want = Vec::new();
            let want_unsupported = f(&items, &mut want);
            let chunks = n.div_ceil(CONTACT_CHUNK).max(1);
            let mut bufs: Vec<HitChunk<(u64, u64)>> = (0..chunks).map(|_| HitChunk::default()).collect();
            let mut out = Vec::new();
            let join = ScriptedJoin(std::sync::atomic::AtomicU64::new(script));
            let (u, _) = hits_of_run(&join, &items, &mut bufs[1..], &mut out, &f);
            append_parts(&bufs, |c| if c.taken { &c.hits[..] } else { &[] }, &mut out);
            prop_assert_eq!(u, want_unsupported);
            prop_assert_eq!(out, want);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// `append_parts` appends the parts in order, whatever their sizes (one part larger than
        /// all the others together included) and the thread count.
        #[test]
        fn append_parts_concatenates_in_order(
            lens in proptest::collection::vec(0usize..20_000, 0..12),
            big in 0usize..200_000,
            kept in 0usize..100,
        ) {
            let mut lens = lens;
            lens.push(big);
            let at = kept % lens.len();
            lens.rotate_right(at);
            let parts: Vec<Vec<u64>> = lens
                .iter()
                .enumerate()
                .map(|(p, &n)| (0..n as u64).map(|i| i << 8 | p as u64).collect())
                .collect();
            let mut want: Vec<u64> = (0..kept as u64).collect();
            want.extend(parts.iter().flatten());
            for threads in 1..=3 {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let mut out: Vec<u64> = (0..kept as u64).collect();
                pool.install(|| append_parts(&parts, |p| &p[..], &mut out));
                prop_assert_eq!(&out, &want);
            }
        }
    }

    /// `with_pool_awake` returns `op`'s result on pools of 1 to 4 threads, also when `op` runs
    /// parallel work that itself keeps the pool awake (worlds stepped in parallel), and lets a
    /// panic of `op` through instead of hanging on the threads it kept awake.
    #[test]
    fn with_pool_awake_returns_nests_and_unwinds() {
        for threads in 1..=4 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let sum = pool.install(|| {
                with_pool_awake(|| {
                    (0..64u64)
                        .into_par_iter()
                        .map(|i| with_pool_awake(|| (0..1000u64).into_par_iter().sum::<u64>() + i))
                        .sum::<u64>()
                })
            });
            assert_eq!(sum, 64 * 499_500 + 63 * 64 / 2);
            let caught = pool.install(|| {
                std::panic::catch_unwind(|| {
                    with_pool_awake(|| {
                        (0..100u32)
                            .into_par_iter()
                            .for_each(|i| assert!(i != 77, "boom"));
                    })
                })
            });
            assert!(caught.is_err());
            // The pool still works afterwards.
            assert_eq!(pool.install(|| on_rayon_pool(|| 7)), 7);
        }
        assert_eq!(on_rayon_pool(|| 8), 8);
    }

    /// On several threads, runs taken by other threads do happen (so the test above covers
    /// them), and the result is still the serial one.
    #[test]
    fn hits_in_order_takes_runs_on_several_threads() {
        let items: Vec<u64> = (0..40 * CONTACT_CHUNK as u64).collect();
        let mut want = Vec::new();
        let want_unsupported = hits_of(&items, &mut want, 5);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let (mut chunks, mut out) = (Vec::new(), Vec::new());
        let mut taken = 0;
        for _ in 0..20 {
            let u = pool.install(|| {
                hits_in_order(&items, &mut chunks, &mut out, |it, o| hits_of(it, o, 5))
            });
            assert_eq!(u, want_unsupported);
            assert_eq!(out, want);
            taken += chunks.iter().filter(|c| c.taken).count();
        }
        assert!(taken > 0, "no run was ever taken by another thread");
    }
}
