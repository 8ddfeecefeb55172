//! One fixed step: the order of its stages and their timing. Each stage is a function over the
//! parts of the world it needs, in a file of its own; this module only calls them in turn.
//!
//! 1. [`Stage::IntegrateVelocities`] (`integrate`): the previous poses kept, the gyroscopic
//!    term of the angular velocities; a body whose velocity would not stay finite is frozen and
//!    reported;
//! 2. [`Stage::FindPairs`] (`pairs`): the broad phase returns the pairs of overlapping AABBs
//!    (grown by the speculative margin); pairs are mapped to body slots, sorted, filtered
//!    (collision groups, at least one dynamic body, sensors apart) and matched with last step's
//!    contact cache;
//! 3. [`Stage::NarrowPhase`] (`narrow`): contact manifolds of the candidate pairs in parallel
//!    (output in pair order), last step's impulses carried over by feature id, sensor overlaps;
//! 4. [`Stage::Solve`] (`solve`): solver bodies and constraints built and coloured, then the
//!    sub-stepped soft step (per substep: gravity and forces into the velocities, warm start,
//!    the passes with the push-out bias, positions, the relaxation passes; then restitution; see
//!    [`crate::solver`]); the velocities stored into the bodies, the impulses into the cache;
//! 5. [`Stage::IntegratePositions`] (`integrate`): each body moved by what the substeps summed;
//! 6. [`Stage::Ccd`] (`ccd`): time of impact for fast bodies;
//! 7. [`Stage::Finalize`] (`finalize`): the final non-finite check, contact and sensor events,
//!    the new contact cache swapped in for the next step;
//! 8. [`Stage::Islands`] ([`crate::island`]): sleep timers, the islands of this step, those
//!    that fall asleep and those that wake;
//! 9. [`Stage::UpdateBroadPhase`] (`broad`): the moving bodies' new AABBs into the broad phase
//!    (one batch), so that queries between steps see them.
//!
//! Sleeping bodies are skipped by every stage (see [`crate::island`]): pairs between two
//! inactive bodies keep their cached contacts, the solver takes only the pairs with an awake
//! dynamic body, and the broad phase is not asked for pairs when no body is active. Between
//! the narrow phase and the solve, the sleeping islands that an active body touches wake and
//! join the solve. When the last step ended with no active body and nothing has changed since
//! (every `World` call that changes the state clears the flag, [`Scratch::disturb`]), a step
//! runs no stage at all: it would change nothing.
//!
//! The whole step runs on a thread of a rayon pool ([`on_rayon_pool`]); each stage's parallel
//! sections write into slots fixed before they start, so the result does not depend on the
//! thread count.

mod broad;
mod ccd;
mod finalize;
mod integrate;
mod narrow;
mod output;
mod pairs;
mod solve;

pub(crate) use output::StepOutput;

use crate::events::StepReport;
use crate::island::{self, Islands};
use crate::parallel::on_rayon_pool;
use crate::proxies::BodyProxies;
use crate::stage::{Stage, Timer};
use crate::state::State;
use crate::step::pairs::BodyInfo;
use broad::UpdateScratch;
use ccd::CcdScratch;
use finalize::FinalizeScratch;
use integrate::PerBody;
use narrow::NarrowScratch;
use pairs::PairScratch;
use solve::SolveScratch;
use tumble_broadphase::BroadPhase;

/// Reusable buffers of the stages: nothing here survives a step in a meaningful way, nothing is
/// snapshotted.
#[derive(Default)]
pub(crate) struct Scratch {
    /// What the first stage records of each body for the others.
    per_body: PerBody,
    pairs: PairScratch,
    narrow: NarrowScratch,
    solve: SolveScratch,
    ccd: CcdScratch,
    finalize: FinalizeScratch,
    update: UpdateScratch,
    islands: Islands,
    /// Bodies woken during the step (pre-solve wake).
    woken: Vec<u32>,
    /// The last step ended with no active body, and nothing changed since: the next step has
    /// nothing to do (false after a restore, so the first step runs in full).
    quiet: bool,
    /// The most candidate pairs of a step since the buffers were last given back (see
    /// [`Scratch::give_back`]).
    high_water: usize,
}

/// Buffers grown for at least this many pairs may be given back (below, their memory does not
/// matter and reallocating would cost more than it saves).
const GIVE_BACK_MIN_PAIRS: usize = 1 << 10;
/// The buffers are given back when a step has this many times fewer pairs than they grew for.
const GIVE_BACK_RATIO: usize = 8;

/// Shrinks `v` to twice its length when it holds fewer than 1/[`GIVE_BACK_RATIO`] of a
/// capacity of at least [`GIVE_BACK_MIN_PAIRS`] items (a buffer a pile-up grew).
pub(crate) fn shrink_sparse<T>(v: &mut Vec<T>) {
    if v.capacity() >= GIVE_BACK_MIN_PAIRS && v.len().saturating_mul(GIVE_BACK_RATIO) < v.capacity()
    {
        v.shrink_to(2 * v.len());
    }
}

impl Scratch {
    /// Gives back the memory of buffers grown for far more pairs than the step had: a
    /// pile-up (thousands of bodies at one spot) grows them to its millions of pairs, and
    /// once it has scattered a world should hold about what a world of the same bodies that
    /// never met holds. `pairs` is this step's candidate count. The buffers are only scratch
    /// (see [`Scratch`]), so the next step, which reallocates what it needs, computes the
    /// same thing bit for bit.
    fn give_back(&mut self, pairs: usize, state: &mut State, proxies: &mut BodyProxies) {
        if pairs >= self.high_water {
            self.high_water = pairs;
            return;
        }
        if self.high_water < GIVE_BACK_MIN_PAIRS
            || pairs.saturating_mul(GIVE_BACK_RATIO) > self.high_water
        {
            return;
        }
        // The islands keep the bodies' sleep timers; only their per-pair buffers go.
        let mut islands = std::mem::take(&mut self.islands);
        islands.shrink_buffers();
        *self = Scratch {
            islands,
            quiet: self.quiet,
            high_water: pairs,
            ..Scratch::default()
        };
        state.contacts.shrink_to_fit();
        state.sensor_pairs.shrink_to_fit();
        proxies.broad.shrink_buffers();
    }

    /// Readies the buffers for a world restored in place ([`crate::World::restore_from`]):
    /// what they record of the last step (the islands' working state, the quiet flag, the
    /// high-water mark) is forgotten, their capacity kept.
    pub(crate) fn reset_for_restore(&mut self) {
        self.islands = Islands::default();
        self.quiet = false;
        self.high_water = 0;
    }

    /// Records that the world's state changed outside a step: the next step runs in full.
    pub(crate) fn disturb(&mut self) {
        self.quiet = false;
    }
}

/// The parts of a world a step works on.
pub(crate) struct StepContext<'a> {
    /// Everything that determines the future: bodies, contact cache, configuration, clock.
    pub state: &'a mut State,
    /// The broad phase and the mapping between its proxies and the bodies.
    pub proxies: &'a mut BodyProxies,
    pub scratch: &'a mut Scratch,
    /// Stage times, events and counts of the step.
    pub out: &'a mut StepOutput,
}

/// Runs one fixed step on a rayon pool's thread ([`on_rayon_pool`]).
pub(crate) fn step(ctx: StepContext) -> StepReport {
    on_rayon_pool(ctx.state.config.keep_pool_awake, || run(ctx))
}

/// The stages of [`Stage::all`], in order, each timed.
fn run(ctx: StepContext) -> StepReport {
    let StepContext {
        state,
        proxies,
        scratch: sc,
        out,
    } = ctx;
    let mut report = StepReport {
        simulated_seconds: state.config.dt,
        ..StepReport::default()
    };
    out.events.clear();
    out.times.clear();
    if sc.quiet {
        // No active body and nothing changed: a full step would change nothing (the cached
        // pairs stay, no event, no count but the narrow phase's changes).
        out.counts.pairs = 0;
        state.step_count = state.step_count.wrapping_add(1);
        return report;
    }

    let t = Timer::start();
    let (any_ccd, activity) = integrate::integrate_velocities(state, &mut sc.per_body, &mut report);
    t.stop(&mut out.times, Stage::IntegrateVelocities);

    let t = Timer::start();
    out.counts.pairs = pairs::find_pairs(
        state,
        &mut proxies.broad,
        &proxies.body_of_proxy,
        &sc.per_body.info,
        activity,
        &mut sc.pairs,
    );
    if activity.any_active {
        report.dropped_pairs = proxies.broad.dropped_pairs();
    }
    t.stop(&mut out.times, Stage::FindPairs);

    let t = Timer::start();
    narrow::narrow_phase(
        state,
        &sc.per_body.shape_poses,
        &sc.pairs,
        &mut sc.narrow,
        &mut report,
    );
    if activity.any_inactive && !state.sleeping.is_empty() {
        // Sleeping islands that an active body now touches wake and join this step's solve.
        let info = &sc.per_body.info;
        let active = |i: u32| info.get(i as usize).is_some_and(|b| b.moving);
        let seeds = island::touched_sleepers(state, active, &sc.narrow.new_contacts);
        sc.woken.clear();
        for s in seeds {
            island::wake_island(state, s, &mut sc.woken);
        }
        for &w in &sc.woken {
            if let Some(b) = &state.slots[w as usize].body {
                sc.per_body.info[w as usize] = BodyInfo::of(&state.config, b);
            }
        }
    }
    t.stop(&mut out.times, Stage::NarrowPhase);

    let t = Timer::start();
    if solve::select(&sc.per_body.info, &sc.narrow.new_contacts, &mut sc.solve) {
        let params = solve::prepare(
            state,
            &sc.per_body.info,
            &sc.narrow.new_contacts,
            &mut sc.solve,
        );
        solve::solve(&mut sc.solve, &params);
        solve::store(state, &mut sc.narrow.new_contacts, &mut sc.solve);
    } else {
        // Some pairs have no awake body (kept pairs of sleeping bodies): the solver takes the
        // others, and their impulses go back into the cache.
        let mut subset = std::mem::take(&mut sc.solve.subset);
        let params = solve::prepare(state, &sc.per_body.info, &subset, &mut sc.solve);
        solve::solve(&mut sc.solve, &params);
        solve::store(state, &mut subset, &mut sc.solve);
        solve::write_back(&mut sc.narrow.new_contacts, &subset, &sc.solve);
        sc.solve.subset = subset;
    }
    t.stop(&mut out.times, Stage::Solve);

    let t = Timer::start();
    integrate::integrate_positions(state, &sc.solve.deltas, &sc.solve.linked);
    t.stop(&mut out.times, Stage::IntegratePositions);

    let t = Timer::start();
    // Without a body that may be swept (none frozen into one since the first stage), the stage
    // would only scan the slots to find none.
    report.ccd_hits = if any_ccd {
        ccd::continuous_collision(state, proxies, &mut sc.ccd)
    } else {
        0
    };
    t.stop(&mut out.times, Stage::Ccd);

    let t = Timer::start();
    finalize::finalize(
        state,
        &mut sc.narrow,
        &mut sc.finalize,
        &mut sc.per_body.flags,
        out,
        &mut report,
    );
    // Joints that broke this step leave the world now, after the step's contact events.
    for &i in &sc.solve.broken {
        let Some(slot) = state.joints.get_mut(i as usize) else {
            continue;
        };
        if let Some(j) = slot.joint.take() {
            let joint = crate::handle::JointHandle::new(i, slot.generation);
            slot.generation = slot.generation.wrapping_add(1);
            state.joint_free.push(i);
            out.events.push(crate::events::Event::JointBroken {
                joint,
                a: j.a,
                b: j.b,
            });
        }
    }
    if !sc.solve.broken.is_empty() {
        state.rebuild_joint_pairs();
    }
    t.stop(&mut out.times, Stage::Finalize);

    let t = Timer::start();
    sc.islands.clear_links();
    // Joints keep their bodies in one island.
    for j in state.joints.iter().filter_map(|s| s.joint.as_ref()) {
        sc.islands.link(j.a.index(), j.b.index());
    }
    let any_active = island::update(state, &mut sc.islands);
    t.stop(&mut out.times, Stage::Islands);

    let t = Timer::start();
    broad::update_broad_phase(
        state,
        proxies,
        &mut sc.update,
        &mut sc.per_body.flags,
        &sc.islands.slept,
        &mut report,
    );
    t.stop(&mut out.times, Stage::UpdateBroadPhase);
    // A body frozen by the broad-phase update is no longer active; the next step's first
    // stage would find it so: only the absence of any active body lets it be skipped.
    sc.quiet = !any_active && report.frozen.is_empty();
    sc.give_back(out.counts.pairs, state, proxies);
    shrink_sparse(&mut out.events);
    // Wrapping: a restored snapshot may hold any count, and a counter must never panic.
    state.step_count = state.step_count.wrapping_add(1);
    report
}
