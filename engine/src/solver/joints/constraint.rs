//! A joint as the solver holds it during one step: its two bodies' masses and start poses, its
//! frames relative to the centres of mass, the mass matrices of its blocks, and where its
//! bodies are at any moment of the step (from how far the substeps have moved them).

use super::rows::{turned, JointBody};
use crate::body::Body;
use crate::joint::{Joint, JointImpulses, JointKind};
use crate::solver::body::{BodyMass, SolverBody};
use crate::solver::params::Softness;
use tumble_narrowphase::math::{Matrix, Real, Rotation, Vector};

/// One joint for one step. Directions and anchors are in the world frame at the start of the
/// step; during the step they turn with their bodies (`Geometry`, by the rotation
/// `rows::turned` of how far each body turned).
#[derive(Clone, Debug)]
pub(crate) struct JointConstraint {
    /// The joint's slot in the world.
    pub joint: u32,
    pub a: JointBody,
    pub b: JointBody,
    pub kind: JointKind,
    /// `c_b − c_a` of the centres of mass at the start of the step, metres.
    pub dc0: Vector,
    /// Anchors relative to each centre of mass, metres.
    pub ra0: Vector,
    pub rb0: Vector,
    /// A's axis and reference perpendicular, and B's copies (unit).
    pub axis_a: Vector,
    pub perp_a: Vector,
    pub axis_b: Vector,
    pub perp_b: Vector,
    /// The rotation vector of the relative rotation error `F_b·F_a⁻¹` at the start of the step
    /// (radians; `F_a = q_a`, `F_b = q_b·frame_b`), the short way round.
    pub rot_err0: Vector,
    /// The twist of B relative to A about A's axis at the start of the step, radians.
    pub twist0: Real,
    /// Inverse mass matrix of the rotation block, `(I_a⁻¹ + I_b⁻¹)⁻¹` (fixed and prismatic
    /// joints).
    pub rot_k_inv: Matrix,
    /// Inverse mass matrix of the anchor-point block, made from the anchors at the start of
    /// each substep (in its warm start) and used by that substep's passes.
    pub point_k_inv: Matrix,
    /// The joint's own spring, stepped with the substep (zero when it has none).
    pub spring: Softness,
    /// Accumulated impulses (warm-started from the last step).
    pub imp: JointImpulses,
    /// Linear impulse applied to B over the step, N·s.
    pub pb_sum: Vector,
    /// Angular impulse applied to B over the step, N·m·s.
    pub tb_sum: Vector,
}

/// Where a joint's bodies are at a moment of the step: how far each has turned since its
/// start (a rotation vector, radians), its anchors, and the anchors' separation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    pub theta_a: Vector,
    pub theta_b: Vector,
    /// Anchors from the centres of mass.
    pub ra: Vector,
    pub rb: Vector,
    /// `p_b − p_a` of the anchors (the point block's error).
    pub d: Vector,
}

impl Geometry {
    /// A direction `v` of A at the start of the step, turned with A (`rows::turned`).
    #[inline]
    pub fn on_a(&self, v: &Vector) -> Vector {
        turned(&self.theta_a, v)
    }

    /// A direction `v` of B at the start of the step, turned with B (`rows::turned`).
    #[inline]
    pub fn on_b(&self, v: &Vector) -> Vector {
        turned(&self.theta_b, v)
    }
}

/// The joint body of slot `slot` with solver mass properties `m` (world frame at the step's
/// start).
pub(crate) fn joint_body(slot: u32, m: &BodyMass) -> JointBody {
    let (u, inv_mass) = factor(m);
    JointBody {
        slot,
        inv_mass,
        inv_inertia: if m.spin {
            u.transpose() * u
        } else {
            Matrix::zeros()
        },
        u,
        spin: m.spin,
    }
}

/// `U = Lᵀ` of solver mass properties `m` (the identity for a body the solver does not turn)
/// and the inverse mass (1/kg, 0 unless dynamic).
pub(crate) fn factor(m: &BodyMass) -> (Matrix, Real) {
    let r = &m.rows;
    let u = if m.spin {
        Matrix::new(
            r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2],
        )
    } else {
        Matrix::identity()
    };
    (u, if m.dynamic { m.inv_mass } else { 0.0 })
}

/// The rotation vector of `q`, the short way round (radians).
fn rotation_vector(q: &Rotation) -> Vector {
    let q = q.quaternion();
    let (w, v) = if q.w < 0.0 {
        (-q.w, -q.imag())
    } else {
        (q.w, q.imag())
    };
    let s = v.norm();
    if s < 1e-12 {
        return v * 2.0;
    }
    v * (2.0 * s.atan2(w) / s)
}

/// `x` wrapped into `(−π, π]`.
#[inline]
pub(crate) fn wrap(x: Real) -> Real {
    use std::f32::consts::{PI, TAU};
    let mut y = x % TAU;
    if y > PI {
        y -= TAU;
    } else if y <= -PI {
        y += TAU;
    }
    y
}

impl JointConstraint {
    /// The constraint of `joint` (slot `index`) between bodies `ba` (slot `sa`) and `bb`, with
    /// their solver masses `ma`, `mb`; the joint's spring stepped with `h`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        index: u32,
        joint: &Joint,
        (sa, ba, ma): (u32, &Body, BodyMass),
        (sb, bb, mb): (u32, &Body, BodyMass),
        h: Real,
    ) -> Self {
        let a = joint_body(sa, &ma);
        let b = joint_body(sb, &mb);
        let (qa, qb) = (ba.pose.rotation, bb.pose.rotation);
        let fb = qb * joint.frame_b;
        let twist0 = match joint.kind {
            JointKind::Spherical { twist: Some(_), .. } => {
                // Twist about A's axis of `F_a⁻¹·F_b`, in A's frame (swing–twist decomposition).
                let rel = (qa.inverse() * fb).into_inner();
                wrap(2.0 * rel.imag().dot(&joint.axis_a).atan2(rel.w))
            }
            _ => 0.0,
        };
        let locks_rotation = matches!(joint.kind, JointKind::Fixed | JointKind::Prismatic { .. });
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
            dc0: bb.com() - ba.com(),
            ra0: qa * (joint.anchor_a - ba.com_local),
            rb0: qb * (joint.anchor_b - bb.com_local),
            axis_a: qa * joint.axis_a,
            perp_a: qa * joint.perp_a,
            axis_b: fb * joint.axis_a,
            perp_b: fb * joint.perp_a,
            rot_err0: if locks_rotation {
                rotation_vector(&(fb * qa.inverse()))
            } else {
                Vector::zeros()
            },
            twist0,
            rot_k_inv: if locks_rotation {
                super::rows::invert_mass(&(a.inv_inertia + b.inv_inertia))
            } else {
                Matrix::zeros()
            },
            point_k_inv: Matrix::zeros(),
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
        let theta_a = self.a.unscale(da.w());
        let theta_b = self.b.unscale(db.w());
        let ra = turned(&theta_a, &self.ra0);
        let rb = turned(&theta_b, &self.rb0);
        let d = self.dc0 + (db.v() - da.v()) + (rb - ra);
        Geometry {
            theta_a,
            theta_b,
            ra,
            rb,
            d,
        }
    }
}
