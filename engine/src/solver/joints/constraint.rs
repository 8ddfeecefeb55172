//! A joint as the solver holds it during one step: its two bodies' masses and start poses, its
//! frames relative to the centres of mass, the mass matrices of its blocks, and where its
//! bodies are at any moment of the step (from how far the substeps have moved them).

use super::super::body::{BodyMass, SolverBody};
use super::super::params::Softness;
use super::rows::JointBody;
use crate::body::Body;
use crate::joint::{Joint, JointImpulses, JointKind};
use tumble_narrowphase::math::{Matrix, Real, Rotation, Vector};

/// One joint for one step.
#[derive(Clone, Debug)]
pub(crate) struct JointConstraint {
    /// The joint's slot in the world.
    pub joint: u32,
    pub a: JointBody,
    pub b: JointBody,
    pub kind: JointKind,
    /// The bodies' rotations at the start of the step.
    pub qa0: Rotation,
    pub qb0: Rotation,
    /// `c_b − c_a` of the centres of mass at the start of the step, world frame, metres.
    pub dc0: Vector,
    /// Anchors relative to each centre of mass, each body's frame, metres.
    pub ra_local: Vector,
    pub rb_local: Vector,
    /// Axis and reference perpendicular in A's frame, and B's copies in B's frame (unit).
    pub axis_a: Vector,
    pub perp_a: Vector,
    pub axis_b: Vector,
    pub perp_b: Vector,
    /// Rotation from B's body frame to its joint frame (see `Joint::frame_b`).
    pub frame_b: Rotation,
    /// Inverse mass matrix of the rotation block, `(I_a⁻¹ + I_b⁻¹)⁻¹`.
    pub rot_k_inv: Matrix,
    /// The joint's own spring, stepped with the substep (zero when it has none).
    pub spring: Softness,
    /// Accumulated impulses (warm-started from the last step).
    pub imp: JointImpulses,
    /// Linear impulse applied to B over the step, N·s.
    pub pb_sum: Vector,
    /// Angular impulse applied to B over the step, N·m·s.
    pub tb_sum: Vector,
}

/// Where a joint's bodies are at a moment of the step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    pub qa: Rotation,
    pub qb: Rotation,
    /// Anchors from the centres of mass, world frame.
    pub ra: Vector,
    pub rb: Vector,
    /// `p_b − p_a` of the anchors, world frame (the point block's error).
    pub d: Vector,
}

/// The joint body of slot `slot` with solver mass properties `m` (world frame at the step's
/// start).
pub(crate) fn joint_body(slot: u32, m: &BodyMass) -> JointBody {
    let r = &m.rows;
    let u = Matrix::new(
        r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2],
    );
    let (inv_inertia, u) = if m.spin {
        (u.transpose() * u, u)
    } else {
        (Matrix::zeros(), Matrix::identity())
    };
    JointBody {
        slot,
        inv_mass: if m.dynamic { m.inv_mass } else { 0.0 },
        inv_inertia,
        u,
        spin: m.spin,
    }
}

/// `q` turned by the rotation vector `theta` (world frame, radians): the first-order
/// quaternion `(1, θ/2)` normalised, accurate to `θ³/12` in the angle, ample for one step.
#[inline]
pub(crate) fn turned(q: &Rotation, theta: &Vector) -> Rotation {
    if *theta == Vector::zeros() {
        return *q;
    }
    let h = theta * 0.5;
    let dq = Rotation::new_normalize(nalgebra::Quaternion::new(1.0, h.x, h.y, h.z));
    dq * q
}

impl JointConstraint {
    /// The constraint of `joint` (slot `index`) between bodies `ba` (slot `sa`) and `bb`, with
    /// their solver masses `ma`, `mb`; the joint's spring stepped with `h`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        index: u32,
        joint: &Joint,
        (sa, ba, ma): (u32, &Body, &BodyMass),
        (sb, bb, mb): (u32, &Body, &BodyMass),
        h: Real,
    ) -> Self {
        let a = joint_body(sa, ma);
        let b = joint_body(sb, mb);
        let ra_local = joint.anchor_a - ba.com_local;
        let rb_local = joint.anchor_b - bb.com_local;
        let (qa0, qb0) = (ba.pose.rotation, bb.pose.rotation);
        let spring = match joint.kind {
            JointKind::Revolute {
                spring: Some(s), ..
            }
            | JointKind::Prismatic {
                spring: Some(s), ..
            }
            | JointKind::Distance {
                spring: Some(s), ..
            } => Softness::new(s.hertz, s.damping_ratio, h),
            _ => Softness::new(0.0, 0.0, h),
        };
        Self {
            joint: index,
            a,
            b,
            kind: joint.kind,
            qa0,
            qb0,
            dc0: bb.com() - ba.com(),
            ra_local,
            rb_local,
            axis_a: joint.axis_a,
            perp_a: joint.perp_a,
            axis_b: joint.frame_b * joint.axis_a,
            perp_b: joint.frame_b * joint.perp_a,
            frame_b: joint.frame_b,
            rot_k_inv: super::rows::invert_mass(&(a.inv_inertia + b.inv_inertia)),
            spring,
            imp: joint.impulses,
            pb_sum: Vector::zeros(),
            tb_sum: Vector::zeros(),
        }
    }

    /// Where the bodies are after moving by `da`, `db` (the solver's deltas: centre of mass
    /// displacement and scaled rotation vector).
    #[inline]
    pub fn geometry(&self, da: &SolverBody, db: &SolverBody) -> Geometry {
        let qa = turned(&self.qa0, &self.a.unscale(da.w()));
        let qb = turned(&self.qb0, &self.b.unscale(db.w()));
        let ra = qa * self.ra_local;
        let rb = qb * self.rb_local;
        let d = self.dc0 + (db.v() - da.v()) + (rb - ra);
        Geometry { qa, qb, ra, rb, d }
    }
}
