//! World configuration.

use crate::error::WorldError;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use tumble_broadphase::BroadPhaseKind;
use tumble_narrowphase::math::{Real, Vector};

/// Smallest fixed step [`WorldConfig::validate`] accepts, seconds.
pub const MIN_DT: Real = 1e-5;
/// Largest fixed step [`WorldConfig::validate`] accepts, seconds.
pub const MAX_DT: Real = 1.0;
/// Largest [`WorldConfig::max_frame_time`] accepted, seconds: a longer frame is a stall, not
/// time to simulate.
pub const MAX_FRAME_TIME: Real = 1.0;
/// Largest [`WorldConfig::max_steps_per_frame`] accepted.
pub const MAX_STEPS_PER_FRAME: u32 = 1000;

/// Largest [`WorldConfig::max_pairs`] accepted.
pub const MAX_PAIRS: u32 = 1 << 30;
/// The default [`WorldConfig::max_pairs`] (2²⁰), also the budget of a new
/// [`CollisionWorld`](crate::CollisionWorld).
pub const DEFAULT_MAX_PAIRS: u32 = 1 << 20;

/// Largest [`WorldConfig::prediction_distance`] accepted, metres: a body's broad-phase box is
/// grown by half of it, so it must stay small beside [`MAX_COORDINATE`](crate::MAX_COORDINATE)
/// for bodies to fit in the world.
pub const MAX_PREDICTION_DISTANCE: Real = 1000.0;

/// Everything a [`World`](crate::World) is made with. `Default` gives the values marked "default";
/// [`WorldConfig::validate`] (called by [`World::new`](crate::World::new)) checks them.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct WorldConfig {
    /// The fixed step, seconds, in `[MIN_DT, MAX_DT]` = `[1e-5, 1]` (default: 1/60).
    pub dt: Real,
    /// Gravitational acceleration, world frame, m/s² (default: (0, −9.81, 0)).
    pub gravity: Vector,
    /// Cap on the frame time one [`World::advance`](crate::World::advance) adds to the
    /// accumulator, seconds, in `[dt, MAX_FRAME_TIME]` = `[dt, 1]` (default: 0.1): the guard
    /// against the "spiral of death".
    pub max_frame_time: Real,
    /// Most fixed steps one [`World::advance`](crate::World::advance) runs, in
    /// `[1, MAX_STEPS_PER_FRAME]` = `[1, 1000]` (default: 8). When more whole steps than this have
    /// accumulated, the time of the steps not run is dropped (the accumulator keeps only its
    /// part of a step) and reported in [`Advance::dropped_seconds`](crate::Advance::dropped_seconds).
    /// With the default `dt` and `max_frame_time` at most 6 steps are ever due, so nothing is
    /// dropped.
    pub max_steps_per_frame: u32,
    /// Which broad phase finds candidate pairs (default: the broad-phase crate's default).
    #[cfg_attr(feature = "serde", serde(with = "kind_serde"))]
    pub broad_phase: BroadPhaseKind,
    /// The pair budget: the most candidate pairs (bodies whose broad-phase boxes overlap) one
    /// step takes, in `[1, MAX_PAIRS]` (default: 2²⁰ = 1 048 576; Jolt's `maxBodyPairs`).
    /// Beyond it, the first pairs of the broad phase's pair order are kept (by proxy slot,
    /// which follows the order the bodies took their slots; the same pairs whatever the broad
    /// phase or thread count) and the others are dropped for that step: their bodies
    /// pass through each other, and [`StepReport::dropped_pairs`](crate::StepReport::dropped_pairs)
    /// counts them. It bounds a step's memory in a pile-up (thousands of bodies at one spot
    /// overlap in millions of pairs) to about 1.3 KB per budgeted pair on top of the bodies'
    /// own (measured: 26.5 MB for 20 000 pairs of balls). The shared benchmark scenes stay
    /// far below the default.
    pub max_pairs: u32,
    /// Substeps of the contact solver per step, 1..=64 (default: 4): each integrates gravity and
    /// forces, solves the contacts with the push-out bias, moves the bodies and relaxes (Box2D
    /// v3's soft step). More substeps make stacks stiffer and heavy-on-light contacts firmer,
    /// at a cost about proportional to their number.
    pub substeps: u32,
    /// Passes with the push-out bias per substep, ≥ 1 (default: 1).
    pub solver_iterations: u32,
    /// Relaxation passes (without the push-out bias) per substep, after positions are moved,
    /// ≥ 0 (default: 1).
    pub relax_iterations: u32,
    /// Restitution passes after the last substep, ≥ 0 (default: 2): more than one lets
    /// simultaneous impacts (a ball touching a wall and another ball) share the bounce.
    pub restitution_iterations: u32,
    /// Approach speed (m/s, ≥ 0) below which restitution is not applied, so resting bodies do
    /// not micro-bounce (default: 1.0).
    pub restitution_threshold: Real,
    /// Continuous collision for bodies built with `.ccd(true)`: speculative margins grow with
    /// speed and a time-of-impact pass stops them at the first surface (default: true).
    pub ccd: bool,
    /// Stiffness of the soft contact constraint between dynamic bodies, Hz, > 0 (default: 60;
    /// capped at a quarter of the substep rate; twice as stiff against static and kinematic
    /// bodies).
    pub contact_hertz: Real,
    /// Damping ratio of the soft contact constraint, ≥ 0 (default: 10).
    pub contact_damping_ratio: Real,
    /// Stiffness with which joints push back their position error, Hz, > 0 (default: 60;
    /// capped at a quarter of the substep rate, as the contacts). Stiffer joints hold a net of
    /// balls worse, not better: at 120 Hz with 4 substeps the `joint_grid` net oscillates
    /// and tears, at 60 Hz its largest joint error is 6.5 mm.
    pub joint_hertz: Real,
    /// Damping ratio of the joints' push-back, ≥ 0 (default: 2, Box2D v3's).
    pub joint_damping_ratio: Real,
    /// Penetration left uncorrected by the push-out, metres ≥ 0 (default: 0).
    pub allowed_penetration: Real,
    /// Largest speed (m/s, > 0) at which overlapping bodies are pushed apart (default: 3).
    pub max_push_velocity: Real,
    /// Speculative contact distance, metres, in `[0, MAX_PREDICTION_DISTANCE]` = `[0, 1000]`:
    /// pairs closer than this get contact points before they touch (default: 0.02).
    pub prediction_distance: Real,
    /// Penetration tolerated before a contact counts as touching for events, metres ≥ 0 (default: 0.005).
    pub linear_slop: Real,
    /// While a step runs, the rayon pool's other threads look for work instead of falling
    /// asleep between the step's parallel sections (default: true). A thread asleep at the
    /// start of a section joins it only once woken, tens of microseconds on a virtual machine,
    /// several times a step; kept awake, the threads spin for the step's duration and compete
    /// with an embedder's own threads for their cores. Turn it off when those threads matter
    /// more than the step's latency. Results are bit-identical either way.
    pub keep_pool_awake: bool,
    /// Islands of resting bodies fall asleep (default: true): see [`crate::island`]. A
    /// sleeping body costs nothing in the stages of a step until something wakes it.
    pub sleep: bool,
    /// Speed (m/s, finite, ≥ 0) below which a body counts as resting (default: 0.05): a body
    /// rests while its velocity averaged over the last 0.1 s (which smooths out the tremor of a
    /// resting pile) stays below this and its centre of mass stays within
    /// `sleep_linear_speed × time_to_sleep` (2.5 cm by default) of where its sleep timer
    /// started. The speed alone is Box2D v3's rule; the displacement keeps a body that creeps
    /// slowly awake. The displacement alone (Jolt's rule) would put a slow pendulum to sleep at
    /// the end of a swing. The value is Box2D v3's `b2_defaultSleepThreshold` (5 cm/s);
    /// rapier's default is 0.4 m/s over 2 s, looser. At 5 cm/s a body moves less than a millimetre per step at
    /// 60 Hz.
    pub sleep_linear_speed: Real,
    /// Angular speed (rad/s, finite, ≥ 0) below which a body counts as resting (default:
    /// 0.05, about 3 °/s; Box2D v3 compares `max extent × ω` with its 5 cm/s, which for the
    /// half-metre bodies Tumble is tuned for is 0.1 rad/s; rapier's default is 0.5 rad/s): a
    /// body rests while its rotation stays within `sleep_angular_speed × time_to_sleep`
    /// radians (1.4° by default) of its rotation when its sleep timer started.
    pub sleep_angular_speed: Real,
    /// How long (seconds, finite, ≥ 0) every body of an island must rest before the island
    /// falls asleep (default: 0.5, Box2D v3's `b2_timeToSleep`).
    pub time_to_sleep: Real,
}

impl Default for WorldConfig {
    fn default() -> Self {
        Self {
            dt: 1.0 / 60.0,
            gravity: Vector::new(0.0, -9.81, 0.0),
            max_frame_time: 0.1,
            max_steps_per_frame: 8,
            broad_phase: BroadPhaseKind::default(),
            max_pairs: DEFAULT_MAX_PAIRS,
            substeps: 4,
            solver_iterations: 1,
            relax_iterations: 1,
            restitution_iterations: 2,
            restitution_threshold: 1.0,
            ccd: true,
            contact_hertz: 60.0,
            contact_damping_ratio: 10.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            allowed_penetration: 0.0,
            max_push_velocity: 3.0,
            prediction_distance: 0.02,
            linear_slop: 0.005,
            keep_pool_awake: true,
            sleep: true,
            sleep_linear_speed: 0.05,
            sleep_angular_speed: 0.05,
            time_to_sleep: 0.5,
        }
    }
}

impl WorldConfig {
    /// Errors naming the first invalid field (the bounds are those in each field's doc).
    pub fn validate(&self) -> Result<(), WorldError> {
        use crate::error::{check_finite, check_vector};
        let positive = |what: &'static str, v: Real| -> Result<(), WorldError> {
            check_finite(what, v)?;
            if v <= 0.0 {
                return Err(WorldError::NonPositive(what, v));
            }
            Ok(())
        };
        let non_negative = |what: &'static str, v: Real| -> Result<(), WorldError> {
            check_finite(what, v)?;
            if v < 0.0 {
                return Err(WorldError::Negative(what, v));
            }
            Ok(())
        };
        let within = |what: &'static str, v: Real, min: Real, max: Real| {
            if (min..=max).contains(&v) {
                Ok(())
            } else {
                Err(WorldError::OutOfRange {
                    what,
                    value: v,
                    min,
                    max,
                })
            }
        };
        positive("dt", self.dt)?;
        within("dt", self.dt, MIN_DT, MAX_DT)?;
        check_vector("gravity", &self.gravity)?;
        positive("max_frame_time", self.max_frame_time)?;
        within(
            "max_frame_time",
            self.max_frame_time,
            self.dt,
            MAX_FRAME_TIME,
        )?;
        if !(1..=MAX_STEPS_PER_FRAME).contains(&self.max_steps_per_frame) {
            return Err(WorldError::Config(format!(
                "max_steps_per_frame must lie in [1, {MAX_STEPS_PER_FRAME}], got {}",
                self.max_steps_per_frame
            )));
        }
        check_max_pairs(self.max_pairs)?;
        if self.solver_iterations == 0 {
            return Err(WorldError::Config(
                "solver_iterations must be at least 1".into(),
            ));
        }
        if self.solver_iterations > 1000
            || self.relax_iterations > 1000
            || self.restitution_iterations > 1000
        {
            return Err(WorldError::Config(
                "solver_iterations, relax_iterations and restitution_iterations must be at most 1000"
                    .into(),
            ));
        }
        if !(1..=64).contains(&self.substeps) {
            return Err(WorldError::Config(format!(
                "substeps must be in 1..=64, got {}",
                self.substeps
            )));
        }
        non_negative("restitution_threshold", self.restitution_threshold)?;
        positive("contact_hertz", self.contact_hertz)?;
        non_negative("contact_damping_ratio", self.contact_damping_ratio)?;
        positive("joint_hertz", self.joint_hertz)?;
        non_negative("joint_damping_ratio", self.joint_damping_ratio)?;
        positive("max_push_velocity", self.max_push_velocity)?;
        non_negative("allowed_penetration", self.allowed_penetration)?;
        non_negative("prediction_distance", self.prediction_distance)?;
        within(
            "prediction_distance",
            self.prediction_distance,
            0.0,
            MAX_PREDICTION_DISTANCE,
        )?;
        non_negative("linear_slop", self.linear_slop)?;
        non_negative("sleep_linear_speed", self.sleep_linear_speed)?;
        non_negative("sleep_angular_speed", self.sleep_angular_speed)?;
        non_negative("time_to_sleep", self.time_to_sleep)?;
        Ok(())
    }
}

/// Refuses a pair budget outside `[1, MAX_PAIRS]`.
pub(crate) fn check_max_pairs(max_pairs: u32) -> Result<(), WorldError> {
    if (1..=MAX_PAIRS).contains(&max_pairs) {
        Ok(())
    } else {
        Err(WorldError::Config(format!(
            "max_pairs must lie in [1, {MAX_PAIRS}], got {max_pairs}"
        )))
    }
}

/// `BroadPhaseKind` travels in snapshots as a small integer.
#[cfg(feature = "serde")]
mod kind_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use tumble_broadphase::BroadPhaseKind;

    pub fn serialize<S: Serializer>(k: &BroadPhaseKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(match k {
            BroadPhaseKind::BruteForce => 0,
            BroadPhaseKind::Grid => 1,
            BroadPhaseKind::SweepAndPrune => 2,
            BroadPhaseKind::Bvh => 3,
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BroadPhaseKind, D::Error> {
        match u8::deserialize(d)? {
            0 => Ok(BroadPhaseKind::BruteForce),
            1 => Ok(BroadPhaseKind::Grid),
            2 => Ok(BroadPhaseKind::SweepAndPrune),
            3 => Ok(BroadPhaseKind::Bvh),
            v => Err(serde::de::Error::custom(format!(
                "unknown broad phase kind {v}"
            ))),
        }
    }
}
