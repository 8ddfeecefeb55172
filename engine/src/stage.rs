//! The named stages of a step and their timers.

use std::time::Duration;

/// The stages of one fixed step, in the order they run ([`Stage::all`]). A
/// [`CollisionWorld::update`](crate::CollisionWorld::update) runs two of them,
/// [`Stage::UpdateBroadPhase`] and then [`Stage::FindPairs`], and then [`Stage::NarrowPhase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// Previous poses kept, the gyroscopic term of the angular velocities, the non-finite check.
    IntegrateVelocities,
    /// The broad phase's pairs of overlapping boxes, mapped to bodies, filtered, sorted and
    /// matched with last step's contact cache.
    FindPairs,
    /// Exact contacts of the candidate pairs (parallel), warm-start impulses carried over,
    /// sensor overlaps.
    NarrowPhase,
    /// The sub-stepped solve: constraints built and coloured; per substep gravity and forces,
    /// warm start, the passes with the push-out bias, positions, relaxation; restitution;
    /// velocities and impulses stored.
    Solve,
    /// The bodies moved by what the substeps summed.
    IntegratePositions,
    /// Continuous collision: time of impact for fast bodies.
    Ccd,
    /// The non-finite check of the final state, contact and sensor events, counts.
    Finalize,
    /// Sleep timers, islands, the islands that fall asleep and those that wake (see
    /// [`crate::island`]).
    Islands,
    /// The moving bodies' new boxes into the broad phase, so that queries between steps see
    /// them.
    UpdateBroadPhase,
}

impl Stage {
    /// Number of stages.
    pub const COUNT: usize = 9;

    /// Every stage, in execution order.
    pub const fn all() -> [Stage; Stage::COUNT] {
        [
            Stage::IntegrateVelocities,
            Stage::FindPairs,
            Stage::NarrowPhase,
            Stage::Solve,
            Stage::IntegratePositions,
            Stage::Ccd,
            Stage::Finalize,
            Stage::Islands,
            Stage::UpdateBroadPhase,
        ]
    }

    /// A short lower-case name (for reports and benchmark output).
    pub const fn name(self) -> &'static str {
        match self {
            Stage::IntegrateVelocities => "integrate_velocities",
            Stage::FindPairs => "find_pairs",
            Stage::NarrowPhase => "narrow_phase",
            Stage::Solve => "solve",
            Stage::IntegratePositions => "integrate_positions",
            Stage::Ccd => "ccd",
            Stage::Finalize => "finalize",
            Stage::Islands => "islands",
            Stage::UpdateBroadPhase => "update_broad_phase",
        }
    }
}

/// Wall-clock time spent in each stage during the last step (or the last
/// [`CollisionWorld::update`](crate::CollisionWorld::update)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageTimes {
    times: [Duration; Stage::COUNT],
}

impl StageTimes {
    /// Time of one stage.
    #[inline]
    pub fn get(&self, stage: Stage) -> Duration {
        self.times[stage as usize]
    }

    /// Sum over all stages.
    pub fn total(&self) -> Duration {
        self.times.iter().sum()
    }

    /// (stage, time) for every stage in order.
    pub fn iter(&self) -> impl Iterator<Item = (Stage, Duration)> + '_ {
        Stage::all().into_iter().map(|s| (s, self.get(s)))
    }

    pub(crate) fn set(&mut self, stage: Stage, d: Duration) {
        self.times[stage as usize] = d;
    }

    pub(crate) fn clear(&mut self) {
        self.times = [Duration::ZERO; Stage::COUNT];
    }
}

/// Times a stage: `let t = Timer::start(); …; t.stop(&mut times, Stage::X)`.
pub(crate) struct Timer(std::time::Instant);

impl Timer {
    #[inline]
    pub(crate) fn start() -> Self {
        Self(std::time::Instant::now())
    }

    #[inline]
    pub(crate) fn stop(self, times: &mut StageTimes, stage: Stage) {
        times.set(stage, self.0.elapsed());
    }
}
