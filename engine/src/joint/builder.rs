//! `JointBuilder`: what a joint is made of, checked when it is inserted.

use super::kind::{check_kind, JointKind, Motor, Spring};
use super::stored::{Joint, JointImpulses};
use crate::body::{Body, BodyKind};
use crate::error::{check_vector, WorldError};
use crate::handle::BodyHandle;
use tumble_narrowphase::math::{Real, Vector};

/// Describes a joint between bodies `a` and `b` for
/// [`World::insert_joint`](crate::World::insert_joint), in the style of
/// [`BodyBuilder`](crate::BodyBuilder). Anchors default to each body's origin, the axis to A's
/// local x; see [`crate::joint`] for frames and signs.
///
/// ```
/// use tumble::math::Vector;
/// use tumble::{BodyBuilder, JointBuilder, World, WorldConfig};
/// use tumble::narrowphase::shape::{Ball, Cuboid};
///
/// let mut world = World::new(WorldConfig::default()).unwrap();
/// let post = world.insert(BodyBuilder::fixed(Ball::new(0.1).unwrap())).unwrap();
/// let door = world
///     .insert(BodyBuilder::dynamic(Cuboid::new(Vector::new(0.5, 1.0, 0.05)).unwrap())
///         .translation(Vector::new(0.5, 0.0, 0.0)))
///     .unwrap();
/// // A hinge along y at the post, the door's edge on it; it opens at most 90° either way.
/// let hinge = world
///     .insert_joint(JointBuilder::revolute(post, door)
///         .axis(Vector::y())
///         .local_anchor_b(Vector::new(-0.5, 0.0, 0.0))
///         .limits(-std::f32::consts::FRAC_PI_2, std::f32::consts::FRAC_PI_2))
///     .unwrap();
/// world.step();
/// assert!(world.joint(hinge).is_some());
/// ```
#[derive(Clone, Debug)]
pub struct JointBuilder {
    a: BodyHandle,
    b: BodyHandle,
    kind: JointKind,
    anchor_a: Vector,
    anchor_b: Vector,
    axis: Vector,
    collide_connected: bool,
    break_force: Real,
    break_torque: Real,
    /// A distance joint's length was given (else it is measured at insert).
    length_given: bool,
}

impl JointBuilder {
    fn new(a: BodyHandle, b: BodyHandle, kind: JointKind) -> Self {
        Self {
            a,
            b,
            kind,
            anchor_a: Vector::zeros(),
            anchor_b: Vector::zeros(),
            axis: Vector::x(),
            collide_connected: false,
            break_force: Real::INFINITY,
            break_torque: Real::INFINITY,
            length_given: false,
        }
    }

    /// A weld: B keeps its position and rotation relative to A as they are at insert.
    pub fn fixed(a: BodyHandle, b: BodyHandle) -> Self {
        Self::new(a, b, JointKind::Fixed)
    }

    /// A hinge: the anchors stay together and B turns about the axis.
    pub fn revolute(a: BodyHandle, b: BodyHandle) -> Self {
        Self::new(
            a,
            b,
            JointKind::Revolute {
                limits: None,
                motor: None,
                spring: None,
                spring_target: 0.0,
            },
        )
    }

    /// A slider: B keeps its rotation relative to A and moves along the axis through A's
    /// anchor.
    pub fn prismatic(a: BodyHandle, b: BodyHandle) -> Self {
        Self::new(
            a,
            b,
            JointKind::Prismatic {
                limits: None,
                motor: None,
                spring: None,
                spring_target: 0.0,
            },
        )
    }

    /// A ball-and-socket: the anchors stay together, rotations are free (up to
    /// [`cone_limit`](Self::cone_limit) and [`twist_limits`](Self::twist_limits)).
    pub fn spherical(a: BodyHandle, b: BodyHandle) -> Self {
        Self::new(
            a,
            b,
            JointKind::Spherical {
                cone: None,
                twist: None,
            },
        )
    }

    /// A rod between the anchors, as long as they are apart at insert unless
    /// [`length`](Self::length) says otherwise; [`rope`](Self::rope) and
    /// [`spring`](Self::spring) make it a rope or a spring.
    pub fn distance(a: BodyHandle, b: BodyHandle) -> Self {
        Self::new(
            a,
            b,
            JointKind::Distance {
                length: 0.0,
                min: 0.0,
                max: Real::INFINITY,
                rigid: true,
                spring: None,
            },
        )
    }

    /// The anchor on A, metres, in A's frame (default: A's origin).
    pub fn local_anchor_a(mut self, p: Vector) -> Self {
        self.anchor_a = p;
        self
    }

    /// The anchor on B, metres, in B's frame (default: B's origin).
    pub fn local_anchor_b(mut self, p: Vector) -> Self {
        self.anchor_b = p;
        self
    }

    /// The axis in A's frame (any length but zero; normalised): the hinge axis, the slider
    /// axis, a spherical joint's cone and twist axis (default: x).
    pub fn axis(mut self, axis: Vector) -> Self {
        self.axis = axis;
        self
    }

    /// Limits of the free coordinate: hinge angle (rad, within `[−π, π]`) or slider
    /// translation (m), `lower ≤ upper`. Ignored by the other kinds.
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        match &mut self.kind {
            JointKind::Revolute { limits, .. } | JointKind::Prismatic { limits, .. } => {
                *limits = Some([lower, upper]);
            }
            _ => {}
        }
        self
    }

    /// A velocity motor on the free coordinate (hinge or slider): `target_speed` rad/s or m/s,
    /// at most `max_force` N·m or N. Ignored by the other kinds.
    pub fn motor(mut self, target_speed: Real, max_force: Real) -> Self {
        let m = Motor {
            target_speed,
            max_force,
        };
        match &mut self.kind {
            JointKind::Revolute { motor, .. } | JointKind::Prismatic { motor, .. } => {
                *motor = Some(m);
            }
            _ => {}
        }
        self
    }

    /// A spring on the free coordinate (hinge or slider, toward `target`, rad or m) or on a
    /// distance joint's length (toward its length; `target` ignored): `hertz` > 0, damping
    /// ratio ≥ 0.
    pub fn spring(mut self, hertz: Real, damping_ratio: Real, target: Real) -> Self {
        let s = Spring {
            hertz,
            damping_ratio,
        };
        match &mut self.kind {
            JointKind::Revolute {
                spring,
                spring_target,
                ..
            }
            | JointKind::Prismatic {
                spring,
                spring_target,
                ..
            } => {
                *spring = Some(s);
                *spring_target = target;
            }
            JointKind::Distance { spring, .. } => *spring = Some(s),
            _ => {}
        }
        self
    }

    /// A spherical joint's cone: the largest angle between A's axis and B's copy, rad, in
    /// `[0, π]`. Ignored by the other kinds.
    pub fn cone_limit(mut self, angle: Real) -> Self {
        if let JointKind::Spherical { cone, .. } = &mut self.kind {
            *cone = Some(angle);
        }
        self
    }

    /// A spherical joint's twist limits about its axis, rad, within `[−π, π]`, `lower ≤ upper`.
    /// Ignored by the other kinds.
    pub fn twist_limits(mut self, lower: Real, upper: Real) -> Self {
        if let JointKind::Spherical { twist, .. } = &mut self.kind {
            *twist = Some([lower, upper]);
        }
        self
    }

    /// A distance joint's rest length, metres ≥ 0 (default: the anchors' distance at insert).
    pub fn length(mut self, l: Real) -> Self {
        if let JointKind::Distance { length, .. } = &mut self.kind {
            *length = l;
            self.length_given = true;
        }
        self
    }

    /// Makes a distance joint a rope: free while shorter than `max` metres, never longer.
    pub fn rope(mut self, max_length: Real) -> Self {
        if let JointKind::Distance {
            min, max, rigid, ..
        } = &mut self.kind
        {
            *min = 0.0;
            *max = max_length;
            *rigid = false;
        }
        self
    }

    /// A distance joint's bounds, metres, `0 ≤ min ≤ max` (kept with a spring, or when not
    /// rigid).
    pub fn length_range(mut self, min_length: Real, max_length: Real) -> Self {
        if let JointKind::Distance { min, max, .. } = &mut self.kind {
            *min = min_length;
            *max = max_length;
        }
        self
    }

    /// Whether A and B may collide with each other (default false).
    pub fn collide_connected(mut self, on: bool) -> Self {
        self.collide_connected = on;
        self
    }

    /// The force (N, > 0) beyond which the joint breaks: it is removed at the end of the step
    /// and reported with [`Event::JointBroken`](crate::Event::JointBroken) (default: never).
    pub fn break_force(mut self, f: Real) -> Self {
        self.break_force = f;
        self
    }

    /// The torque (N·m, > 0) beyond which the joint breaks (default: never).
    pub fn break_torque(mut self, t: Real) -> Self {
        self.break_torque = t;
        self
    }

    /// The bodies named.
    pub(crate) fn bodies(&self) -> (BodyHandle, BodyHandle) {
        (self.a, self.b)
    }

    /// The joint between the live bodies `ba` (for `a`) and `bb` (for `b`) in their current
    /// poses, or the first thing wrong with the description.
    pub(crate) fn build(self, ba: &Body, bb: &Body) -> Result<Joint, WorldError> {
        if self.a == self.b {
            return Err(WorldError::Joint("a joint needs two different bodies"));
        }
        // The kind, not `is_dynamic`: a frozen dynamic body may be joined (it acts static until
        // unfrozen).
        if ba.kind != BodyKind::Dynamic && bb.kind != BodyKind::Dynamic {
            return Err(WorldError::Joint("a joint needs at least one dynamic body"));
        }
        check_vector("joint anchor a", &self.anchor_a)?;
        check_vector("joint anchor b", &self.anchor_b)?;
        check_vector("joint axis", &self.axis)?;
        let n = self.axis.norm();
        if !(n > 1e-6 && n.is_finite()) {
            return Err(WorldError::Joint("joint axis must not be zero"));
        }
        let axis_a = self.axis / n;
        for (what, v) in [
            ("break_force", self.break_force),
            ("break_torque", self.break_torque),
        ] {
            if v.is_nan() || v <= 0.0 {
                return Err(WorldError::NonPositive(what, v));
            }
        }
        let mut kind = self.kind;
        if let JointKind::Distance { length, .. } = &mut kind {
            if !self.length_given {
                let pa = ba.pose * tumble_narrowphase::math::Point::from(self.anchor_a);
                let pb = bb.pose * tumble_narrowphase::math::Point::from(self.anchor_b);
                *length = (pb - pa).norm();
            }
        }
        check_kind(&kind)?;
        let frame_b = bb.pose.rotation.inverse() * ba.pose.rotation;
        Ok(Joint {
            a: self.a,
            b: self.b,
            kind,
            anchor_a: self.anchor_a,
            anchor_b: self.anchor_b,
            axis_a,
            perp_a: perpendicular(&axis_a),
            frame_b,
            collide_connected: self.collide_connected,
            break_force: self.break_force,
            break_torque: self.break_torque,
            impulses: JointImpulses::default(),
            force: Vector::zeros(),
            torque: Vector::zeros(),
        })
    }
}

/// A unit vector orthogonal to the unit `a`, the same for the same `a` (Frisvad-style choice by
/// the smallest component, so it is well conditioned for every direction).
pub(crate) fn perpendicular(a: &Vector) -> Vector {
    let other = if a.x.abs() < 0.57735 {
        Vector::x()
    } else if a.y.abs() < 0.57735 {
        Vector::y()
    } else {
        Vector::z()
    };
    let p = other - a * a.dot(&other);
    p / p.norm()
}
