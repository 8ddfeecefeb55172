//! Joints: constraints between two bodies that keep points together, axes aligned or distances
//! fixed — hinges, sliders, welds, ball-and-socket joints, rods, ropes and springs.
//!
//! A joint is made by a [`JointBuilder`] and handed to
//! [`World::insert_joint`](crate::World::insert_joint), which returns a generational
//! [`JointHandle`]. Each kind keeps some relative motion of its bodies:
//!
//! | kind | removes | free | extras |
//! |---|---|---|---|
//! | [`fixed`](JointBuilder::fixed) (weld) | all 6 | none | — |
//! | [`revolute`](JointBuilder::revolute) (hinge) | 3 linear, 2 angular | rotation about the axis | angle limits, velocity motor, angular spring |
//! | [`prismatic`](JointBuilder::prismatic) (slider) | 2 linear, 3 angular | translation along the axis | translation limits, motor, spring |
//! | [`spherical`](JointBuilder::spherical) (ball-and-socket) | 3 linear | 3 angular | cone limit of the axis, twist limits about it |
//! | [`distance`](JointBuilder::distance) (rod, rope, spring) | 1 linear (the anchors' distance) | 5 | min/max length, spring |
//!
//! **Frames.** Anchors are points in each body's own frame (metres, relative to the body's
//! origin, the frame of [`BodyBuilder::pose`](crate::BodyBuilder::pose)). The axis (revolute,
//! prismatic, spherical's cone axis) is a direction in body A's frame; body B's copy of it, and
//! the zero of the hinge angle and of the twist, are taken from the bodies' relative rotation
//! when the joint is inserted: a joint's rest pose is the pose its bodies have then (Box2D's
//! reference angle, Jolt's constraint frames in world space). Angles are positive by the right
//! hand about the axis, for B relative to A; a prismatic translation is B's anchor minus A's,
//! along the axis.
//!
//! **Solver.** Joints are solved in the sub-stepped soft step with the contacts (see
//! `solver` module): in every substep they are warm-started, solved with a soft push-back of
//! their position error (a spring of [`WorldConfig::joint_hertz`](crate::WorldConfig::joint_hertz)
//! and [`joint_damping_ratio`](crate::WorldConfig::joint_damping_ratio)), and relaxed without
//! it — Box2D v3's joints (`joint.c`, `revolute_joint.c`; Catto, "Solver2D", 2024) in three
//! dimensions. Limits are speculative (a joint nearing its limit may close at most the remaining
//! gap in a substep), motors clamp their accumulated impulse at `max_force·h`, springs are soft
//! constraints of their own frequency and damping ratio.
//!
//! **Results.** [`World::joint`](crate::World::joint) shows the force and torque a joint applied
//! to body B during the last step (N and N·m, world frame; A received their opposites, the
//! torque taken about B's centre of mass). A joint whose force or torque exceeds its breaking
//! limit is removed at the end of the step and reported with
//! [`Event::JointBroken`](crate::Event::JointBroken). Removing a body removes its joints
//! ([`World::remove`](crate::World::remove) returns their handles).
//!
//! Invariants (checked by `World::validate`): every joint names two distinct live bodies, at
//! least one of them dynamic; its anchors, axes and parameters are finite; its axes are unit and
//! its reference perpendicular is orthogonal to its axis; the joint slots follow the body
//! slots' free-list rules.

mod builder;
mod kind;
mod stored;

pub use crate::handle::JointHandle;
pub use builder::JointBuilder;
pub use kind::{JointKind, Motor, Spring};
pub(crate) use stored::{Joint, JointImpulses, JointSlot};

use tumble_narrowphase::math::Vector;

/// A read-only view of a joint (see [`World::joint`](crate::World::joint)).
#[derive(Clone, Copy, Debug)]
pub struct JointView<'a> {
    pub(crate) joint: &'a Joint,
}

impl JointView<'_> {
    /// Body A.
    pub fn body_a(&self) -> crate::handle::BodyHandle {
        self.joint.a
    }

    /// Body B.
    pub fn body_b(&self) -> crate::handle::BodyHandle {
        self.joint.b
    }

    /// What the joint keeps, with its limits, motor and spring.
    pub fn kind(&self) -> &JointKind {
        &self.joint.kind
    }

    /// The force the joint applied to body B during the last step (N, world frame; body A
    /// received its opposite), the mean over the step.
    pub fn force(&self) -> Vector {
        self.joint.force
    }

    /// The torque the joint applied to body B about its centre of mass during the last step
    /// (N·m, world frame), the mean over the step: the angular rows' torque plus the lever of
    /// the anchor force.
    pub fn torque(&self) -> Vector {
        self.joint.torque
    }

    /// Whether bodies A and B may collide (default false).
    pub fn collide_connected(&self) -> bool {
        self.joint.collide_connected
    }

    /// Anchor on body A, metres, A's frame.
    pub fn local_anchor_a(&self) -> Vector {
        self.joint.anchor_a
    }

    /// Anchor on body B, metres, B's frame.
    pub fn local_anchor_b(&self) -> Vector {
        self.joint.anchor_b
    }
}
