//! What a joint keeps (`JointKind`), its motor and spring, and the checks of their
//! parameters.

use crate::error::{check_finite, WorldError};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use tumble_narrowphase::math::Real;

/// A velocity motor: drives the joint's free coordinate (the hinge angle, rad; the slider
/// translation, m) at `target_speed` (rad/s or m/s, B relative to A) with at most `max_force`
/// (N·m or N, ≥ 0).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Motor {
    /// Target speed of the free coordinate, rad/s (revolute) or m/s (prismatic).
    pub target_speed: Real,
    /// Largest torque (N·m, revolute) or force (N, prismatic) the motor applies, ≥ 0.
    pub max_force: Real,
}

/// A spring on a joint's free coordinate (or a distance joint's length), as a frequency and a
/// damping ratio: the joint oscillates at about `hertz` when its bodies' masses are as the
/// solver sees them, critically damped at `damping_ratio` = 1.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Spring {
    /// Natural frequency, Hz, > 0.
    pub hertz: Real,
    /// Damping ratio, ≥ 0.
    pub damping_ratio: Real,
}

/// What a joint keeps, and its limits, motor and spring (see the module docs for frames and
/// signs). Made through [`JointBuilder`](crate::JointBuilder).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum JointKind {
    /// Keeps the anchors together and the relative rotation of the bodies at insert.
    Fixed,
    /// Keeps the anchors together and the axis of A aligned with B's copy; B turns about it.
    Revolute {
        /// Lower and upper hinge angle, rad, `lower ≤ upper`, within `[−π, π]`.
        limits: Option<[Real; 2]>,
        /// Velocity motor on the hinge angle.
        motor: Option<Motor>,
        /// Spring pulling the hinge angle toward `spring_target`.
        spring: Option<Spring>,
        /// The angle the spring pulls toward, rad.
        spring_target: Real,
    },
    /// Keeps the relative rotation at insert and B's anchor on the line through A's anchor
    /// along the axis; B slides along it.
    Prismatic {
        /// Lower and upper translation along the axis, metres, `lower ≤ upper`.
        limits: Option<[Real; 2]>,
        /// Velocity motor along the axis.
        motor: Option<Motor>,
        /// Spring pulling the translation toward `spring_target`.
        spring: Option<Spring>,
        /// The translation the spring pulls toward, metres.
        spring_target: Real,
    },
    /// Keeps the anchors together; rotations are free, up to the limits.
    Spherical {
        /// Largest angle between A's axis and B's copy of it, rad, in `[0, π]`.
        cone: Option<Real>,
        /// Lower and upper twist of B about the axis relative to A, rad, within `[−π, π]`.
        twist: Option<[Real; 2]>,
    },
    /// Keeps the distance between the anchors: at `length` when rigid or sprung, within
    /// `[min, max]` always.
    Distance {
        /// Rest length, metres, ≥ 0.
        length: Real,
        /// Shortest allowed distance, metres, `0 ≤ min ≤ max`.
        min: Real,
        /// Longest allowed distance, metres (`Real::INFINITY` for none).
        max: Real,
        /// Whether the distance is held at `length` (a rod) rather than left free within
        /// `[min, max]` (a rope when `min` is 0). Ignored with a spring.
        rigid: bool,
        /// Spring pulling the distance toward `length`.
        spring: Option<Spring>,
    },
}

/// Checks a kind's parameters: finite, limits ordered and within range, motors and springs
/// valid.
pub(crate) fn check_kind(kind: &JointKind) -> Result<(), WorldError> {
    use std::f32::consts::PI;
    let angle_limits = |l: &Option<[Real; 2]>| -> Result<(), WorldError> {
        if let Some([lo, hi]) = l {
            check_finite("joint limit", *lo)?;
            check_finite("joint limit", *hi)?;
            if lo > hi || *lo < -PI || *hi > PI {
                return Err(WorldError::Joint(
                    "angle limits must satisfy -pi <= lower <= upper <= pi",
                ));
            }
        }
        Ok(())
    };
    let motor = |m: &Option<Motor>| -> Result<(), WorldError> {
        if let Some(m) = m {
            check_finite("motor target_speed", m.target_speed)?;
            check_finite("motor max_force", m.max_force)?;
            if m.max_force < 0.0 {
                return Err(WorldError::Negative("motor max_force", m.max_force));
            }
        }
        Ok(())
    };
    let spring = |s: &Option<Spring>| -> Result<(), WorldError> {
        if let Some(s) = s {
            check_finite("spring hertz", s.hertz)?;
            check_finite("spring damping_ratio", s.damping_ratio)?;
            if s.hertz <= 0.0 {
                return Err(WorldError::NonPositive("spring hertz", s.hertz));
            }
            if s.damping_ratio < 0.0 {
                return Err(WorldError::Negative(
                    "spring damping_ratio",
                    s.damping_ratio,
                ));
            }
        }
        Ok(())
    };
    match kind {
        JointKind::Fixed => Ok(()),
        JointKind::Revolute {
            limits,
            motor: m,
            spring: s,
            spring_target,
        } => {
            angle_limits(limits)?;
            motor(m)?;
            spring(s)?;
            check_finite("spring target", *spring_target)
        }
        JointKind::Prismatic {
            limits,
            motor: m,
            spring: s,
            spring_target,
        } => {
            if let Some([lo, hi]) = limits {
                check_finite("joint limit", *lo)?;
                check_finite("joint limit", *hi)?;
                if lo > hi {
                    return Err(WorldError::Joint("limits must satisfy lower <= upper"));
                }
            }
            motor(m)?;
            spring(s)?;
            check_finite("spring target", *spring_target)
        }
        JointKind::Spherical { cone, twist } => {
            if let Some(c) = cone {
                check_finite("cone limit", *c)?;
                if !(0.0..=PI).contains(c) {
                    return Err(WorldError::Joint("the cone limit must lie in [0, pi]"));
                }
            }
            angle_limits(twist)
        }
        JointKind::Distance {
            length,
            min,
            max,
            spring: s,
            ..
        } => {
            check_finite("distance length", *length)?;
            check_finite("distance min", *min)?;
            if max.is_nan() {
                return Err(WorldError::NonFinite("distance max"));
            }
            if *length < 0.0 || *min < 0.0 || min > max {
                return Err(WorldError::Joint(
                    "distance joint needs 0 <= length and 0 <= min <= max",
                ));
            }
            spring(s)
        }
    }
}
