//! The ball-and-socket joint without limits, in the solver's scaled coordinates: the anchor
//! point block with the step's Jacobians, as the contacts keep theirs.
//!
//! With the anchors `r_a`, `r_b` (from the centres of mass, world frame) and
//! `H = [r]×ᵀ·Uᵀ` (`U = Lᵀ`, `I⁻¹ = L·Lᵀ`), the point's relative velocity reads the scaled
//! angular velocities `w̃ = L⁻¹·w` directly, `Ċ = v_b − v_a + H_b·w̃_b − H_a·w̃_a`, an impulse
//! `λ` on B changes `w̃_b` by `H_bᵀ·λ`, and the block's mass matrix is
//! `K = (m_a + m_b)·1 + H_a·H_aᵀ + H_b·H_bᵀ` — consistent with the rows, so Gauss–Seidel on it
//! is stable however the anchors' directions weigh the inertia. The rows and `K` are made
//! again from the anchors as they are at the start of each substep (in its warm start): a
//! swinging chain keeps its joints twice as tight as with the step's. The position error is
//! `C = C₀ + Δx_b − Δx_a + (r_b − r⁰_b) − (r_a − r⁰_a)`, with the anchors `r` of the substep
//! turned from the step's `r⁰` by the bodies' rotations ([`turned`]). A pass then costs a few
//! 3 × 3 products and no change of coordinates, where the general path (`kinds`) turns
//! velocities to the world frame and back.

use super::rows::{invert_mass, turned, Ctx, JointBody};
use crate::solver::body::SolverBody;
use crate::solver::params::Pass;
use tumble_narrowphase::math::{Matrix, Vector};

/// The precomputed block of one ball-and-socket joint for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Socket {
    /// The anchors of the current substep, from the centres of mass, metres.
    pub ra: Vector,
    pub rb: Vector,
    /// The rows of the current substep: `[r_a]×ᵀ·U_aᵀ` of its anchors.
    pub h_a: Matrix,
    /// `[r_b]×ᵀ·U_bᵀ` of the substep's anchors.
    pub h_b: Matrix,
    /// `K⁻¹` of the substep's rows.
    pub k_inv: Matrix,
    /// `p_b − p_a` of the anchors at the start of the step, metres.
    pub c0: Vector,
    /// The anchors at the start of the step, from the centres of mass, metres.
    pub ra0: Vector,
    pub rb0: Vector,
}

/// `[r]×ᵀ·Uᵀ` of a body (`Uᵀ` is the identity for a body whose angular velocity the solver
/// does not scale).
#[inline]
fn lever(body: &JointBody, r: &Vector) -> Matrix {
    -(r.cross_matrix() * body.u.transpose())
}

impl Socket {
    /// The block of anchors `ra`, `rb` on bodies `a`, `b`, anchors `c0` apart.
    pub fn new(a: &JointBody, b: &JointBody, ra: &Vector, rb: &Vector, c0: Vector) -> Self {
        let (h_a, h_b) = (lever(a, ra), lever(b, rb));
        let mut s = Self {
            ra: *ra,
            rb: *rb,
            h_a,
            h_b,
            k_inv: Matrix::zeros(),
            c0,
            ra0: *ra,
            rb0: *rb,
        };
        s.set_rows(a, b, h_a, h_b);
        s
    }

    /// Makes `h_a`, `h_b` the rows and `k_inv` the inverse of their mass matrix.
    fn set_rows(&mut self, a: &JointBody, b: &JointBody, h_a: Matrix, h_b: Matrix) {
        let mut k = Matrix::identity() * (a.inv_mass + b.inv_mass);
        if a.spin {
            k += h_a * h_a.transpose();
        }
        if b.spin {
            k += h_b * h_b.transpose();
        }
        self.h_a = h_a;
        self.h_b = h_b;
        self.k_inv = invert_mass(&k);
    }

    /// The anchors and rows of the substep that starts with bodies moved by `da`, `db` since
    /// the step's start: the anchors turned by the bodies' rotations `Uᵀ·Δθ̃` ([`turned`]).
    fn update_rows(&mut self, a: &JointBody, b: &JointBody, da: &SolverBody, db: &SolverBody) {
        self.ra = turned(&a.unscale(da.w()), &self.ra0);
        self.rb = turned(&b.unscale(db.w()), &self.rb0);
        self.set_rows(a, b, lever(a, &self.ra), lever(b, &self.rb));
    }
}

/// One pass of a socket between bodies `a` and `b`: velocities `va`, `vb` and scaled angular
/// velocities `wa`, `wb` updated in place, `acc` the accumulated impulse on B (N·s); returns
/// the impulse applied.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn solve(
    s: &mut Socket,
    a: &JointBody,
    b: &JointBody,
    ba: &mut SolverBody,
    bb: &mut SolverBody,
    da: &SolverBody,
    db: &SolverBody,
    acc: &mut Vector,
    ctx: &Ctx,
) -> Vector {
    let (wa, wb) = (ba.w(), bb.w());
    let lambda = if ctx.pass == Pass::WarmStart {
        s.update_rows(a, b, da, db);
        *acc
    } else {
        let cdot = bb.v() - ba.v() + s.h_b * wb - s.h_a * wa;
        let (bias, ms, is) = if ctx.pass == Pass::Solve {
            let c = s.c0 + (db.v() - da.v()) + (s.rb - s.rb0) - (s.ra - s.ra0);
            ctx.rigid_vec(&c)
        } else {
            (Vector::zeros(), 1.0, 0.0)
        };
        let lambda = -(s.k_inv * (cdot + bias)) * ms - *acc * is;
        *acc += lambda;
        lambda
    };
    if a.inv_mass > 0.0 {
        let v = ba.v() - lambda * a.inv_mass;
        ba.lin[..3].copy_from_slice(v.as_slice());
        if a.spin {
            let w = wa - s.h_a.tr_mul(&lambda);
            ba.ang[..3].copy_from_slice(w.as_slice());
        }
    }
    if b.inv_mass > 0.0 {
        let v = bb.v() + lambda * b.inv_mass;
        bb.lin[..3].copy_from_slice(v.as_slice());
        if b.spin {
            let w = wb + s.h_b.tr_mul(&lambda);
            bb.ang[..3].copy_from_slice(w.as_slice());
        }
    }
    lambda
}
