//! What the world stores of a joint: its bodies and kind, the frames fixed at insert, the
//! accumulated impulses kept for warm starting, and the last step's force and torque.

use super::kind::{check_kind, JointKind};
use crate::handle::BodyHandle;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use tumble_narrowphase::math::{is_finite_vector, Real, Rotation, Vector};

/// Accumulated impulses of a joint's rows (N·s per substep, or N·m·s), kept from step to step
/// for warm starting. Which rows use which field depends on the kind (see `solver::joints`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub(crate) struct JointImpulses {
    /// The linear rows: the anchor point's three (world frame), a slider's two perpendicular
    /// rows, or a distance joint's length row (first component).
    pub linear: Vector,
    /// The angular rows: the weld's three (world frame), or the hinge's two perpendicular rows.
    pub angular: Vector,
    /// The lower limit's row (a cone limit for a spherical joint), ≥ 0.
    pub lower: Real,
    /// The upper limit's row, ≥ 0.
    pub upper: Real,
    /// The motor's row (a spherical joint's lower twist limit).
    pub motor: Real,
    /// The spring's row (a spherical joint's upper twist limit).
    pub spring: Real,
}

impl JointImpulses {
    pub fn is_finite(&self) -> bool {
        is_finite_vector(&self.linear)
            && is_finite_vector(&self.angular)
            && [self.lower, self.upper, self.motor, self.spring]
                .iter()
                .all(|x| x.is_finite())
    }
}

/// A joint as the world keeps it.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub(crate) struct Joint {
    pub a: BodyHandle,
    pub b: BodyHandle,
    pub kind: JointKind,
    /// Anchor on A, A's body frame, metres.
    pub anchor_a: Vector,
    /// Anchor on B, B's body frame, metres.
    pub anchor_b: Vector,
    /// The joint's axis, unit, A's body frame.
    pub axis_a: Vector,
    /// A unit direction orthogonal to `axis_a` in A's frame: the zero of the hinge angle and of
    /// the twist, and the first perpendicular row of hinges and sliders.
    pub perp_a: Vector,
    /// The rotation taking A's body frame to B's joint frame: B's copy of a direction `d` of
    /// A's frame is `frame_b * d` in B's frame. Fixed at insert from the bodies' rotations
    /// (`q_b⁻¹·q_a`), so the joint is at rest in its insert pose.
    pub frame_b: Rotation,
    pub collide_connected: bool,
    /// Largest force (N) before the joint breaks (`Real::INFINITY` for never).
    pub break_force: Real,
    /// Largest torque (N·m) before the joint breaks (`Real::INFINITY` for never).
    pub break_torque: Real,
    pub impulses: JointImpulses,
    /// Force on B over the last step, N, world frame.
    pub force: Vector,
    /// Torque on B about its centre of mass over the last step, N·m, world frame.
    pub torque: Vector,
}

impl Joint {
    /// The joint's own invariants (parameters finite, axes unit and orthogonal, limits
    /// ordered): what `World::validate` and snapshot restore check.
    pub fn validate(&self) -> Result<(), String> {
        let vectors = [self.anchor_a, self.anchor_b, self.axis_a, self.perp_a];
        if !vectors.iter().all(is_finite_vector)
            || !is_finite_vector(&self.force)
            || !is_finite_vector(&self.torque)
            || !self.impulses.is_finite()
        {
            return Err("non-finite joint anchor, axis, impulse or force".into());
        }
        let q = self.frame_b.quaternion();
        if !q.coords.iter().all(|c| c.is_finite()) || (q.norm() - 1.0).abs() > 1e-3 {
            return Err("joint frame is not a unit quaternion".into());
        }
        if (self.axis_a.norm() - 1.0).abs() > 1e-3
            || (self.perp_a.norm() - 1.0).abs() > 1e-3
            || self.axis_a.dot(&self.perp_a).abs() > 1e-3
        {
            return Err("joint axis and perpendicular are not orthonormal".into());
        }
        if self.a == self.b {
            return Err("joint between a body and itself".into());
        }
        if self.break_force.is_nan()
            || self.break_force <= 0.0
            || self.break_torque.is_nan()
            || self.break_torque <= 0.0
        {
            return Err("joint breaking limits must be positive".into());
        }
        check_kind(&self.kind).map_err(|e| e.to_string())
    }
}

/// A slot of the joint arena (the same generational scheme as the bodies').
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub(crate) struct JointSlot {
    pub generation: u32,
    pub joint: Option<Joint>,
}
