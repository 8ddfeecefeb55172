//! Contact and sensor events, and the per-step report.

use crate::handle::BodyHandle;
use tumble_narrowphase::math::Real;

/// Something that began or ended during a step. Reported by
/// [`World::events`](crate::World::events) step by step; within a step in a deterministic
/// order: contact events in pair order (by the lower body index, then the higher), then sensor
/// events in pair order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// Bodies `a` and `b` (`a < b` in handle order) began touching (penetration deeper than
    /// −[`linear_slop`](crate::WorldConfig::linear_slop)).
    ContactStarted {
        /// Lower handle.
        a: BodyHandle,
        /// Higher handle.
        b: BodyHandle,
    },
    /// Bodies `a` and `b` stopped touching, or one of them was removed.
    ContactStopped {
        /// Lower handle.
        a: BodyHandle,
        /// Higher handle.
        b: BodyHandle,
    },
    /// `other` began overlapping the sensor `sensor`.
    SensorEnter {
        /// The sensor body.
        sensor: BodyHandle,
        /// The body that entered.
        other: BodyHandle,
    },
    /// `other` stopped overlapping the sensor `sensor` (or one of them was removed).
    SensorExit {
        /// The sensor body.
        sensor: BodyHandle,
        /// The body that left.
        other: BodyHandle,
    },
    /// A joint's force or torque exceeded its breaking limit during the step: the joint was
    /// removed at the end of it (its handle is stale from then on).
    JointBroken {
        /// The removed joint.
        joint: crate::handle::JointHandle,
        /// Its body A.
        a: BodyHandle,
        /// Its body B.
        b: BodyHandle,
    },
}

/// What happened during one [`World::step`](crate::World::step) that the user should know of.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepReport {
    /// Bodies frozen during this step because a non-finite value reached them (an enormous
    /// force, a degenerate contact). They keep their last finite pose, lose their velocity and
    /// act as static bodies until [`World::unfreeze`](crate::World::unfreeze).
    pub frozen: Vec<BodyHandle>,
    /// Candidate pairs skipped because the narrow phase has no algorithm for their shapes.
    pub unsupported_pairs: usize,
    /// Pairs of overlapping broad-phase boxes left out because there were more than
    /// [`WorldConfig::max_pairs`](crate::WorldConfig::max_pairs) (see there): their bodies
    /// did not collide this step. 0 when every pair was taken.
    pub dropped_pairs: usize,
    /// Bodies moved back by continuous collision this step.
    pub ccd_hits: usize,
    /// Simulated time covered, seconds (dt per step).
    pub simulated_seconds: Real,
}

impl StepReport {
    /// Folds another step's report into this one (for [`World::advance`](crate::World::advance)).
    pub(crate) fn merge(&mut self, other: StepReport) {
        self.frozen.extend(other.frozen);
        self.unsupported_pairs += other.unsupported_pairs;
        self.dropped_pairs += other.dropped_pairs;
        self.ccd_hits += other.ccd_hits;
        self.simulated_seconds += other.simulated_seconds;
    }
}

/// The result of [`World::advance`](crate::World::advance).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Advance {
    /// Fixed steps run during this call.
    pub steps: u32,
    /// `accumulator / dt` after the steps, in `[0, 1)`: how far the render state lies between
    /// the last two stored states.
    pub alpha: Real,
    /// The reports of the steps, merged.
    pub report: StepReport,
    /// Simulated time dropped, seconds, ≥ 0: when more whole steps were due than
    /// [`WorldConfig::max_steps_per_frame`](crate::WorldConfig::max_steps_per_frame), the time of
    /// those not run (the simulation falls behind the wall clock instead of spiralling).
    /// 0 when every due step ran.
    pub dropped_seconds: Real,
}
