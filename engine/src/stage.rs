//! The named stages of a step and their timers.

use std::time::Duration;

/// The stages of one fixed step, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// Gravity and user forces into velocities (semi-implicit Euler), and the non-finite check.
    IntegrateVelocities,
    /// The candidate pairs from the broad phase, and (at the end of the step) the moving
    /// bodies' new AABBs into it.
    BroadPhase,
    /// Exact contacts of the candidate pairs (parallel), warm-start impulses carried over,
    /// sensor overlaps.
    NarrowPhase,
    /// The contact solver: constraint preparation, colouring, warm start, iterations,
    /// relaxation and restitution.
    Solver,
    /// Velocities into positions and rotations.
    IntegratePositions,
    /// Continuous collision: time of impact for fast bodies.
    Ccd,
    /// Events, the non-finite check of the final state, bookkeeping.
    Finalize,
}

impl Stage {
    /// Number of stages.
    pub const COUNT: usize = 7;

    /// Every stage, in execution order.
    pub const fn all() -> [Stage; Stage::COUNT] {
        [
            Stage::IntegrateVelocities,
            Stage::BroadPhase,
            Stage::NarrowPhase,
            Stage::Solver,
            Stage::IntegratePositions,
            Stage::Ccd,
            Stage::Finalize,
        ]
    }

    /// A short lower-case name (for reports and benchmark output).
    pub const fn name(self) -> &'static str {
        match self {
            Stage::IntegrateVelocities => "integrate_velocities",
            Stage::BroadPhase => "broad_phase",
            Stage::NarrowPhase => "narrow_phase",
            Stage::Solver => "solver",
            Stage::IntegratePositions => "integrate_positions",
            Stage::Ccd => "ccd",
            Stage::Finalize => "finalize",
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
    pub(crate) fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }

    #[inline]
    pub(crate) fn stop(self, times: &mut StageTimes, stage: Stage) {
        times.set(stage, self.0.elapsed());
    }
}
