//! The solver's view of a body: its velocity (`SolverBody`) and mass properties with the
//! Cholesky factor of its inverse inertia (`BodyMass`), and their four-lane loads.

use super::lanes::{transpose, F4, LANES, M3W, V4};
use crate::material::Material;
use tumble_narrowphase::math::{Matrix, Real, Vector};

/// Velocity of a body as the solver sees it (indexed by body slot; one extra zero body at the
/// end stands for the empty lanes of a bundle). Padded to two aligned groups of four floats so
/// that four bodies load into lanes with one transpose.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct SolverBody {
    /// Linear velocity of the centre of mass, m/s, world frame; then a zero.
    pub(super) lin: [Real; 4],
    /// Angular velocity, rad/s, world frame; then a zero. During the solver's passes, the
    /// scaled angular velocity `L⁻¹·w` of bodies that spin (see [`BodyMass`]).
    pub(super) ang: [Real; 4],
}

impl SolverBody {
    /// At rest.
    pub const ZERO: SolverBody = SolverBody {
        lin: [0.0; 4],
        ang: [0.0; 4],
    };

    /// A body moving with linear velocity `v` (m/s) and angular velocity `w` (rad/s).
    #[inline]
    pub fn new(v: Vector, w: Vector) -> Self {
        Self {
            lin: [v.x, v.y, v.z, 0.0],
            ang: [w.x, w.y, w.z, 0.0],
        }
    }

    /// Marks an acceleration as that of a body without a contact this step (`free`): its
    /// positions then take the exact free-flight step `Δx = v₀·h + ½·a·h²` rather than the
    /// symplectic `v₁·h = v₀·h + a·h²`, which would lose `½·a·h` of height per second of flight
    /// (a bouncing ball a little lower at each apex).
    #[inline]
    pub fn set_free_flight(&mut self, free: bool) {
        self.lin[3] = if free { 1.0 } else { 0.0 };
    }

    /// Linear velocity of the centre of mass, m/s, world frame.
    #[inline]
    pub fn v(&self) -> Vector {
        Vector::new(self.lin[0], self.lin[1], self.lin[2])
    }

    /// Angular velocity, rad/s, world frame.
    #[inline]
    pub fn w(&self) -> Vector {
        Vector::new(self.ang[0], self.ang[1], self.ang[2])
    }
}

/// What building a constraint needs of a body, gathered once per step so that the build reads
/// compact arrays instead of the bodies themselves (mass properties are zero unless dynamic).
///
/// The solver works with *scaled* angular velocities `w̃ = L⁻¹·w`, where `L` is the lower
/// Cholesky factor of the body's world-frame inverse inertia `I⁻¹ = L·Lᵀ`: an angular impulse
/// `h` then changes `w̃` by `Lᵀ·h`, and reads `w·(r × d) = w̃·(Lᵀ·(r × d))`, so one vector
/// per body and row, `g = Lᵀ·(r × d)`, serves both (Box2D's and rapier's rows store two:
/// `r × d` and `I⁻¹·(r × d)`). Bodies whose angular velocity the solver does not change
/// (static, kinematic, or an inverse inertia without a usable factor) keep `L = 1` and
/// `spin = false`. `Lᵀ` and the centre of mass share three rows of four floats, so that four
/// bodies load into lanes with three 4×4 transposes.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct BodyMass {
    /// Row `i` is `[Lᵀ(i, 0), Lᵀ(i, 1), Lᵀ(i, 2), com_i]`: the transposed Cholesky factor of the
    /// inverse inertia tensor about the centre of mass (world frame, 1/(kg^½·m)), upper
    /// triangular, and the centre of mass (world frame, metres).
    pub(super) rows: [[Real; 4]; 3],
    /// 1/kg.
    pub inv_mass: Real,
    /// The body's surface: its friction and restitution and how they combine with another's.
    pub material: Material,
    /// Whether the slot holds a body, and whether the solver may change its velocity.
    pub live: bool,
    pub dynamic: bool,
    /// Whether the solver may change its angular velocity (dynamic with a factored inertia).
    pub(super) spin: bool,
}

impl BodyMass {
    /// An empty slot.
    pub const DEAD: BodyMass = BodyMass {
        rows: [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
        ],
        inv_mass: 0.0,
        material: Material::EMPTY,
        live: false,
        dynamic: false,
        spin: false,
    };

    /// A live body of inverse mass `inv_mass` (1/kg), inverse inertia `inv_inertia` about its
    /// centre of mass `com` (both world frame), with its `material`; `dynamic` when the solver
    /// may change its velocity.
    pub fn new(
        inv_mass: Real,
        inv_inertia: &Matrix,
        com: &Vector,
        material: &Material,
        dynamic: bool,
    ) -> Self {
        let factor = if dynamic {
            cholesky_upper(inv_inertia)
        } else {
            None
        };
        let spin = factor.is_some();
        let u = factor.unwrap_or_else(Matrix::identity);
        let row = |i: usize| [u[(i, 0)], u[(i, 1)], u[(i, 2)], com[i]];
        Self {
            rows: [row(0), row(1), row(2)],
            inv_mass,
            material: *material,
            live: true,
            dynamic,
            spin,
        }
    }

    /// The centre of mass, world frame, metres.
    #[inline]
    pub fn com(&self) -> Vector {
        Vector::new(self.rows[0][3], self.rows[1][3], self.rows[2][3])
    }

    /// The scaled angular velocity `L⁻¹·w` of angular velocity `w` (rad/s, world frame), by
    /// forward substitution; `w` itself unless the body spins.
    #[inline]
    pub(super) fn scale_angular(&self, w: [Real; 4]) -> [Real; 4] {
        if !self.spin {
            return w;
        }
        let u = &self.rows;
        let x0 = w[0] / u[0][0];
        let x1 = (w[1] - u[0][1] * x0) / u[1][1];
        let x2 = (w[2] - u[0][2] * x0 - u[1][2] * x1) / u[2][2];
        [x0, x1, x2, 0.0]
    }

    /// The angular velocity `L·x` (rad/s, world frame) of scaled angular velocity `x`; `x`
    /// itself unless the body spins.
    #[inline]
    pub(super) fn unscale_angular(&self, x: [Real; 4]) -> [Real; 4] {
        if !self.spin {
            return x;
        }
        let u = &self.rows;
        [
            u[0][0] * x[0],
            u[0][1] * x[0] + u[1][1] * x[1],
            u[0][2] * x[0] + u[1][2] * x[1] + u[2][2] * x[2],
            0.0,
        ]
    }
}

/// The upper-triangular `U = Lᵀ` with `m = L·Lᵀ` (Cholesky), from the lower triangle of the
/// symmetric positive definite `m`. Pivots below `1e-12` of the largest diagonal entry are
/// raised to it (a nearly singular inverse inertia, i.e. a nearly infinite inertia about some
/// axis, is solved as a very large finite one). `None` when `m` has no positive finite diagonal
/// entry or the factor is not finite.
pub(super) fn cholesky_upper(m: &Matrix) -> Option<Matrix> {
    let top = m[(0, 0)].max(m[(1, 1)]).max(m[(2, 2)]);
    if !(top > 0.0 && top.is_finite()) {
        return None;
    }
    let floor = top * 1.0e-12;
    let root = |p: Real| p.max(floor).sqrt();
    let l00 = root(m[(0, 0)]);
    let l10 = m[(1, 0)] / l00;
    let l20 = m[(2, 0)] / l00;
    let l11 = root(m[(1, 1)] - l10 * l10);
    let l21 = (m[(2, 1)] - l20 * l10) / l11;
    let l22 = root(m[(2, 2)] - l20 * l20 - l21 * l21);
    let u = Matrix::new(l00, l10, l20, 0.0, l11, l21, 0.0, 0.0, l22);
    u.iter().all(|x| x.is_finite()).then_some(u)
}

/// The transposed inverse-inertia factors `Lᵀ` and centres of mass of four bodies, in lanes.
#[inline(always)]
pub(super) fn mass_lanes(m: &[&BodyMass; LANES]) -> (M3W, V4) {
    let row = |i: usize| transpose(std::array::from_fn(|l| F4::from_array(m[l].rows[i])));
    let [r0, r1, r2] = [0, 1, 2].map(row);
    (
        M3W {
            m: [
                [r0[0], r0[1], r0[2]],
                [r1[0], r1[1], r1[2]],
                [r2[0], r2[1], r2[2]],
            ],
        },
        V4 {
            x: r0[3],
            y: r1[3],
            z: r2[3],
        },
    )
}

/// The linear and angular velocities of four bodies, in lanes (one transpose each).
#[inline(always)]
pub(super) fn velocity_lanes(body: &[SolverBody; LANES]) -> (V4, V4) {
    let [vx, vy, vz, _] = transpose(body.map(|b| F4::from_array(b.lin)));
    let [wx, wy, wz, _] = transpose(body.map(|b| F4::from_array(b.ang)));
    (
        V4 {
            x: vx,
            y: vy,
            z: vz,
        },
        V4 {
            x: wx,
            y: wy,
            z: wz,
        },
    )
}

/// `m·v`, written out: nalgebra's generic product runs loops; this sums the same products in
/// the same order (`m[i][0]·v.x + m[i][1]·v.y + m[i][2]·v.z`, left to right).
#[inline(always)]
pub(crate) fn mat_vec(m: &Matrix, v: &Vector) -> Vector {
    Vector::new(
        m[(0, 0)] * v.x + m[(0, 1)] * v.y + m[(0, 2)] * v.z,
        m[(1, 0)] * v.x + m[(1, 1)] * v.y + m[(1, 2)] * v.z,
        m[(2, 0)] * v.x + m[(2, 1)] * v.y + m[(2, 2)] * v.z,
    )
}

/// `a·b`, written out column by column with [`mat_vec`] (the same sums as nalgebra's).
#[inline(always)]
pub(super) fn mat_mul(a: &Matrix, b: &Matrix) -> Matrix {
    let col = |j: usize| mat_vec(a, &Vector::new(b[(0, j)], b[(1, j)], b[(2, j)]));
    Matrix::from_columns(&[col(0), col(1), col(2)])
}

/// A body tensor given in its local frame, in the world frame: `R·m·Rᵀ` for the rotation
/// matrix `R` (as `Body::inv_inertia_world` computes it, without the generic loops).
#[inline]
pub(crate) fn rotate_tensor(r: &Matrix, m: &Matrix) -> Matrix {
    mat_mul(&mat_mul(r, m), &r.transpose())
}
