//! The rows every joint is made of, solved on the velocities of its two bodies: one-dimensional
//! rows (a limit, a motor, a spring, an equality along a direction), blocks of two rows solved
//! together, and the two blocks of three (the anchor point, the relative rotation).
//!
//! A row `Ċ = lin·(v_b − v_a) + ang_b·w_b − ang_a·w_a` takes an impulse `λ`: `+λ·lin` on B and
//! `−λ·lin` on A at their centres of mass, and the angular impulses `+λ·ang_b`, `−λ·ang_a`.
//! Velocities are in the world frame here; the passes keep scaled angular velocities
//! `w̃ = L⁻¹·w` (see [`crate::solver::BodyMass`]), so a joint reads `w = Uᵀ·w̃` when it starts
//! and adds `U·τ` of the angular impulses `τ` it applied when it ends (`U = Lᵀ`).
//!
//! Soft rows follow Box2D v3 (`b2MakeSoft`; Catto, "Solver2D", 2024):
//! `λ = −m·s_m·(Ċ + β·C) − s_i·λ_acc` with the bias rate `β`, mass scale `s_m` and impulse
//! scale `s_i` of a spring-damper; relax passes solve `Ċ = 0` rigidly (`β = 0`, `s_m = 1`,
//! `s_i = 0`).

use crate::solver::params::{Pass, Softness};
use tumble_narrowphase::math::{Matrix, Real, Vector};

/// One body of a joint, as fixed when the step starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointBody {
    /// Body slot.
    pub slot: u32,
    /// 1/kg (0 unless dynamic).
    pub inv_mass: Real,
    /// Inverse inertia about the centre of mass, world frame, 1/(kg·m²) (zero unless the
    /// solver turns the body).
    pub inv_inertia: Matrix,
    /// `U = Lᵀ` of `inv_inertia = L·Lᵀ`: an angular impulse `τ` changes the scaled angular
    /// velocity by `U·τ`. Identity for bodies the solver does not turn.
    pub u: Matrix,
    /// Whether the solver's angular velocity of this body is scaled.
    pub spin: bool,
}

impl JointBody {
    /// The world angular velocity of scaled angular velocity `ws` (rad/s).
    #[inline]
    pub fn unscale(&self, ws: Vector) -> Vector {
        if self.spin {
            self.u.tr_mul(&ws)
        } else {
            ws
        }
    }
}

/// The velocities of a joint's two bodies while it is solved, world frame, and what it applied.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vel {
    pub va: Vector,
    pub wa: Vector,
    pub vb: Vector,
    pub wb: Vector,
    /// Angular impulse applied to A during this solve, N·m·s.
    pub ta: Vector,
    /// Angular impulse applied to B during this solve, N·m·s.
    pub tb: Vector,
    /// Linear impulse applied to B during this solve (A got its opposite), N·s.
    pub pb: Vector,
}

/// A row's Jacobian: `Ċ = lin·(v_b − v_a) + ang_b·w_b − ang_a·w_a`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row {
    pub lin: Vector,
    pub ang_a: Vector,
    pub ang_b: Vector,
}

impl Row {
    /// A purely angular row about `dir`: `Ċ = dir·(w_b − w_a)`.
    #[inline]
    pub fn angular(dir: Vector) -> Self {
        Self {
            lin: Vector::zeros(),
            ang_a: dir,
            ang_b: dir,
        }
    }

    /// A linear row along `dir` between anchors at `ra` (from A's centre of mass) and `rb`
    /// (from B's): `Ċ = dir·(v_b + w_b × r_b − v_a − w_a × r_a)`.
    #[inline]
    pub fn linear(dir: Vector, ra: &Vector, rb: &Vector) -> Self {
        Self {
            lin: dir,
            ang_a: ra.cross(&dir),
            ang_b: rb.cross(&dir),
        }
    }
}

/// What a pass asks of a row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    pub pass: Pass,
    /// `1/h`, 1/s.
    pub inv_h: Real,
    /// Substep length, s.
    pub h: Real,
    /// The position-error spring of rigid rows in passes with bias.
    pub soft: Softness,
    /// Largest speed at which a position error is pushed back (m/s, or rad/s for angular
    /// rows): the contacts' `max_push_velocity`. A joint inserted far from its rest pose, or
    /// torn open, closes at this speed instead of at `bias_rate × error`, which for a metre's
    /// error is hundreds of m/s: a light body flung that fast on a long anchor overshoots by
    /// more than the error it closed, and the push-back grows from substep to substep.
    pub max_push: Real,
}

impl Ctx {
    /// Bias, mass scale and impulse scale of a rigid row with position error `c`; the bias
    /// within `±max_push`.
    #[inline]
    fn rigid(&self, c: Real) -> (Real, Real, Real) {
        if self.pass == Pass::Solve {
            (
                (c * self.soft.bias_rate).clamp(-self.max_push, self.max_push),
                self.soft.mass_scale,
                self.soft.impulse_scale,
            )
        } else {
            (0.0, 1.0, 0.0)
        }
    }

    /// [`Ctx::rigid`] of a block with position error `c`: the bias vector's length within
    /// `max_push`.
    #[inline]
    pub(crate) fn rigid_vec(&self, c: &Vector) -> (Vector, Real, Real) {
        if self.pass == Pass::Solve {
            let mut bias = c * self.soft.bias_rate;
            let n = bias.norm();
            if n > self.max_push {
                bias *= self.max_push / n;
            }
            (bias, self.soft.mass_scale, self.soft.impulse_scale)
        } else {
            (Vector::zeros(), 1.0, 0.0)
        }
    }
}

/// How a one-dimensional row limits its impulse.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Mode {
    /// Keep `C = 0` (a soft spring of the world's joint stiffness in passes with bias).
    Equality,
    /// Keep `C ≥ 0`: the accumulated impulse stays ≥ 0; while `C > 0` the bodies may close at
    /// most `C` within the substep (speculative).
    Lower,
    /// Drive `Ċ` to `speed` with an accumulated impulse within `±max_impulse`.
    Motor { speed: Real, max_impulse: Real },
    /// A spring-damper toward `C = 0`, in every pass.
    Spring(Softness),
}

/// The two bodies' masses, as the rows read them.
#[derive(Clone, Copy)]
pub(crate) struct Masses<'a> {
    pub a: &'a JointBody,
    pub b: &'a JointBody,
}

impl Masses<'_> {
    /// `J·M⁻¹·Jᵀ` of two rows.
    #[inline]
    fn k(&self, r: &Row, s: &Row) -> Real {
        (self.a.inv_mass + self.b.inv_mass) * r.lin.dot(&s.lin)
            + r.ang_a.dot(&(self.a.inv_inertia * s.ang_a))
            + r.ang_b.dot(&(self.b.inv_inertia * s.ang_b))
    }
}

impl Vel {
    /// `Ċ` of `row`.
    #[inline]
    pub fn rate(&self, row: &Row) -> Real {
        row.lin.dot(&(self.vb - self.va)) + row.ang_b.dot(&self.wb) - row.ang_a.dot(&self.wa)
    }

    /// Applies impulse `lambda` along `row`.
    #[inline]
    pub fn apply(&mut self, m: &Masses, row: &Row, lambda: Real) {
        let p = row.lin * lambda;
        self.va -= p * m.a.inv_mass;
        self.vb += p * m.b.inv_mass;
        self.pb += p;
        let (ta, tb) = (row.ang_a * lambda, row.ang_b * lambda);
        self.wa -= m.a.inv_inertia * ta;
        self.wb += m.b.inv_inertia * tb;
        self.ta -= ta;
        self.tb += tb;
    }
}

/// Solves (or, in the warm start, re-applies) one row with position error `c` and accumulated
/// impulse `acc`.
#[inline]
pub(crate) fn solve_row(
    vel: &mut Vel,
    m: &Masses,
    row: &Row,
    c: Real,
    mode: Mode,
    acc: &mut Real,
    ctx: &Ctx,
) {
    if ctx.pass == Pass::WarmStart {
        vel.apply(m, row, *acc);
        return;
    }
    let k = m.k(row, row);
    if k.is_nan() || k <= 0.0 {
        return;
    }
    let eff = 1.0 / k;
    let cdot = vel.rate(row);
    let new = match mode {
        Mode::Equality => {
            let (bias, ms, is) = ctx.rigid(c);
            *acc - eff * ms * (cdot + bias) - is * *acc
        }
        Mode::Spring(s) => {
            *acc - eff * s.mass_scale * (cdot + c * s.bias_rate) - s.impulse_scale * *acc
        }
        Mode::Motor { speed, max_impulse } => {
            (*acc - eff * (cdot - speed)).clamp(-max_impulse, max_impulse)
        }
        Mode::Lower => {
            let (bias, ms, is) = if c > 0.0 {
                (c * ctx.inv_h, 1.0, 0.0)
            } else {
                ctx.rigid(c)
            };
            (*acc - eff * ms * (cdot + bias) - is * *acc).max(0.0)
        }
    };
    let lambda = new - *acc;
    *acc = new;
    vel.apply(m, row, lambda);
}

/// Solves two equality rows together (a 2 × 2 block: a hinge's or a slider's two
/// perpendicular rows), position errors `c`, accumulated impulses `acc`.
#[inline]
pub(crate) fn solve_pair(
    vel: &mut Vel,
    m: &Masses,
    rows: &[Row; 2],
    c: [Real; 2],
    acc: &mut [Real; 2],
    ctx: &Ctx,
) {
    if ctx.pass == Pass::WarmStart {
        vel.apply(m, &rows[0], acc[0]);
        vel.apply(m, &rows[1], acc[1]);
        return;
    }
    let (k00, k01, k11) = (
        m.k(&rows[0], &rows[0]),
        m.k(&rows[0], &rows[1]),
        m.k(&rows[1], &rows[1]),
    );
    let det = k00 * k11 - k01 * k01;
    if det.is_nan() || det <= 1e-12 * (k00 * k11).max(Real::MIN_POSITIVE) {
        // Degenerate block: the two rows one after the other.
        solve_row(vel, m, &rows[0], c[0], Mode::Equality, &mut acc[0], ctx);
        solve_row(vel, m, &rows[1], c[1], Mode::Equality, &mut acc[1], ctx);
        return;
    }
    let (bias, ms, is) = ctx.rigid_vec(&Vector::new(c[0], c[1], 0.0));
    let rhs = [vel.rate(&rows[0]) + bias.x, vel.rate(&rows[1]) + bias.y];
    let inv = 1.0 / det;
    let sol = [
        inv * (k11 * rhs[0] - k01 * rhs[1]),
        inv * (k00 * rhs[1] - k01 * rhs[0]),
    ];
    for i in 0..2 {
        let lambda = -ms * sol[i] - is * acc[i];
        acc[i] += lambda;
        vel.apply(m, &rows[i], lambda);
    }
}

/// The anchor-point block: keeps `C = p_b − p_a = 0` (3 rows), with anchors at `ra`, `rb` from
/// the centres of mass; `acc` is its accumulated impulse (on B, N·s). Its inverse mass matrix
/// `k_inv` is made from the anchors at the start of each substep, in the warm start: it
/// depends on their directions, strongly so for a body whose inertia is small beside `m·r²` (a
/// ball on a rod), and one made at the start of the step would over-correct by that ratio once
/// the body has turned (a chain of balls flew apart).
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_point(
    vel: &mut Vel,
    m: &Masses,
    ra: &Vector,
    rb: &Vector,
    c: &Vector,
    k_inv: &mut Matrix,
    acc: &mut Vector,
    ctx: &Ctx,
) {
    let lambda = if ctx.pass == Pass::WarmStart {
        *k_inv = invert_mass(&point_mass(m, ra, rb));
        *acc
    } else {
        let cdot = vel.vb + vel.wb.cross(rb) - vel.va - vel.wa.cross(ra);
        let (bias, ms, is) = ctx.rigid_vec(c);
        let lambda = -(*k_inv * (cdot + bias)) * ms - *acc * is;
        *acc += lambda;
        lambda
    };
    vel.va -= lambda * m.a.inv_mass;
    vel.vb += lambda * m.b.inv_mass;
    vel.pb += lambda;
    let (ta, tb) = (ra.cross(&lambda), rb.cross(&lambda));
    vel.wa -= m.a.inv_inertia * ta;
    vel.wb += m.b.inv_inertia * tb;
    vel.ta -= ta;
    vel.tb += tb;
}

/// The point block's mass matrix `(m_a + m_b)·1 + [r_a]× I_a⁻¹ [r_a]×ᵀ + [r_b]× I_b⁻¹ [r_b]×ᵀ`
/// (symmetric; written out: column `k` of `I⁻¹·[r]×ᵀ` is `I⁻¹·(e_k × r)`, and `[r]×·c = r × c`).
#[inline]
pub(crate) fn point_mass(m: &Masses, ra: &Vector, rb: &Vector) -> Matrix {
    let mut k = Matrix::identity() * (m.a.inv_mass + m.b.inv_mass);
    for (r, inv) in [(ra, &m.a.inv_inertia), (rb, &m.b.inv_inertia)] {
        if inv[(0, 0)] == 0.0 && inv[(1, 1)] == 0.0 && inv[(2, 2)] == 0.0 {
            continue;
        }
        let cols = [
            Vector::new(0.0, -r.z, r.y),
            Vector::new(r.z, 0.0, -r.x),
            Vector::new(-r.y, r.x, 0.0),
        ];
        for (j, c) in cols.iter().enumerate() {
            let col = r.cross(&(inv * c));
            for i in 0..3 {
                k[(i, j)] += col[i];
            }
        }
    }
    k
}

/// The relative-rotation block: keeps the rotation error `c` (a rotation vector, B relative
/// to A, world frame) at zero (3 rows, `Ċ = w_b − w_a`); `k_inv = (I_a⁻¹ + I_b⁻¹)⁻¹`.
#[inline]
pub(crate) fn solve_rotation(
    vel: &mut Vel,
    m: &Masses,
    c: &Vector,
    k_inv: &Matrix,
    acc: &mut Vector,
    ctx: &Ctx,
) {
    let lambda = if ctx.pass == Pass::WarmStart {
        *acc
    } else {
        let cdot = vel.wb - vel.wa;
        let (bias, ms, is) = ctx.rigid_vec(c);
        let lambda = -(k_inv * (cdot + bias)) * ms - *acc * is;
        *acc += lambda;
        lambda
    };
    vel.wa -= m.a.inv_inertia * lambda;
    vel.wb += m.b.inv_inertia * lambda;
    vel.ta -= lambda;
    vel.tb += lambda;
}

/// The inverse of a symmetric positive semi-definite 3 × 3 mass matrix, or the pseudo-inverse
/// of its non-singular part: a block whose rows cannot move (both bodies locked in some
/// direction) gets zero impulse there instead of an infinite one.
#[inline]
pub(crate) fn invert_mass(k: &Matrix) -> Matrix {
    let scale = k.trace().abs().max(Real::MIN_POSITIVE);
    // The adjugate of the symmetric `k` over its determinant.
    let (a, b, c) = (k[(0, 0)], k[(0, 1)], k[(0, 2)]);
    let (d, e, f) = (k[(1, 1)], k[(1, 2)], k[(2, 2)]);
    let (c00, c01, c02) = (d * f - e * e, c * e - b * f, b * e - c * d);
    let det = a * c00 + b * c01 + c * c02;
    if det.abs() > 1e-9 * scale * scale * scale {
        let inv = 1.0 / det;
        let (c11, c12, c22) = (a * f - c * c, b * c - a * e, a * d - b * b);
        let out = Matrix::new(c00, c01, c02, c01, c11, c12, c02, c12, c22) * inv;
        if out.iter().all(|x| x.is_finite()) {
            return out;
        }
    }
    invert_singular(k, scale)
}

/// [`invert_mass`] of a (nearly) singular matrix.
#[cold]
fn invert_singular(k: &Matrix, scale: Real) -> Matrix {
    // Eigen-decomposition: invert the eigenvalues that are not negligible.
    let eig = k.symmetric_eigen();
    let mut d = Matrix::zeros();
    for i in 0..3 {
        let l = eig.eigenvalues[i];
        if l > 1e-9 * scale {
            d[(i, i)] = 1.0 / l;
        }
    }
    // Exactly symmetric, as `K⁻¹` is: the product rounds its two triangles differently.
    let m = eig.eigenvectors * d * eig.eigenvectors.transpose();
    Matrix::from_fn(|i, j| m[(i.min(j), i.max(j))])
}

/// `v` turned by the rotation vector `theta` (radians): the rotation by the unit quaternion
/// `(θ/2, 1) / |(θ/2, 1)|`, the one the step's position update gives a body that turned by a
/// small `θ` (`step::integrate::integrate_rotation`), in closed form:
/// `v + s·(h × v + h × (h × v))` with `h = θ/2` and `s = 2 / (1 + |h|²)`. A rotation for any
/// `θ` (by `2·atan(|θ|/2)`), second-order exact for small ones. The first-order `v + θ × v`
/// lengthens `v` by `√(1 + |θ|²)`: a light body spinning fast on a long anchor then sees its
/// joint's error measured with anchors metres too long, and the joint's push-back drives it
/// unstable (a 16 g ball on a 2 m anchor reached 10¹⁶ rad/s in four steps).
#[inline(always)]
pub(crate) fn turned(theta: &Vector, v: &Vector) -> Vector {
    let h = theta * 0.5;
    let s = 2.0 / (1.0 + h.norm_squared());
    let hv = h.cross(v);
    v + (hv + h.cross(&hv)) * s
}
