//! The contact solver: sequential impulses with accumulated, warm-started impulses and soft
//! contacts, after Catto ("Iterative Dynamics with Temporal Coherence", GDC 2005; "Fast and
//! Simple Physics using Sequential Impulses", GDC 2006) and Box2D v3's soft step ("Solver2D",
//! 2024), with one substep.
//!
//! Per step:
//! 1. **colour**: greedy graph colouring so that no two constraints of one colour share a
//!    dynamic body. Within a colour, constraints are sorted by decreasing point count and
//!    grouped four by four into `Bundle`s, solved together lane by lane with four-wide
//!    arithmetic (`lanes`: SSE2 on x86-64, a scalar twin elsewhere; the layout follows Box2D
//!    v3's `contact_solver.c` and rapier's wide constraints). Every pass below walks the
//!    colours in order, and a colour's bundles may run in parallel: they touch disjoint dynamic
//!    bodies, so the result is the same for any thread count, and the same as solving the
//!    constraints one by one (the order within a colour does not matter, and each lane does
//!    the scalar arithmetic in the scalar order). Constraints the 64 colours cannot place go to
//!    an overflow colour, one per bundle, solved serially;
//! 2. **build**: one constraint per touching pair (up to 4 points), built four at a time, one
//!    constraint per lane (the arithmetic in lanes, as in the passes below); per point and per
//!    direction (normal, two tangents) the angular Jacobians `r × d` of the anchors relative to
//!    the centres of mass in scaled form `Lᵀ(r × d)`, where `I⁻¹ = L·Lᵀ` (Cholesky) and the
//!    passes work on scaled angular velocities `L⁻¹·w` (see `BodyMass`: one vector per body and
//!    row serves both reading velocities and applying impulses, where Box2D v3 and rapier store
//!    `r × d` and `I⁻¹(r × d)`: 432 bytes per bundle point), and the
//!    effective mass (capped at `MAX_EFFECTIVE_MASS` so impulses stay finite), so that the
//!    passes below need no cross or matrix products; the approach speed `vn0` (for
//!    restitution), and last step's impulses matched by feature id (or, when the narrow phase
//!    changed reference face, by the nearest old point within 2 cm). A bundle's points live in
//!    two buffers as structures of arrays (point `k` of the four lanes), each bundle owning a
//!    disjoint range of both: the rows the passes only read (`PointW`) and, on a cache line
//!    of their own, the impulses they write (`PointState`). The passes read body velocities
//!    only (`SolverBody`, 32 bytes, loaded into lanes by one transpose); masses and inertias
//!    are folded into the constraint rows. The passes are bound by memory traffic, so a
//!    `Bundle` holds only what they read (three cache lines; the tangents are recomputed from
//!    the normal), and each pass solves two bundles of a colour in lockstep, point by point:
//!    each bundle's points are one chain of dependent operations, and two interleaved chains
//!    hide each other's latencies (each does exactly what it would alone);
//! 3. **warm start**: angular velocities to scaled form, then apply last step's accumulated
//!    impulses;
//! 4. **solve** (`solver_iterations` times): friction, clamped to the Coulomb disc
//!    `|jt| ≤ μ·jn`, then the normal impulse, accumulated and clamped `jn ≥ 0`. A point with a
//!    gap `s > 0` is speculative: the solver lets the bodies approach by at most `s` this step
//!    (`vn ≥ −s/dt`). A penetrating point is pushed out by a soft constraint (spring of
//!    `contact_hertz`, damping ratio `contact_damping_ratio`, push speed capped);
//! 5. angular velocities back to the world frame (positions are integrated by the world), and
//!    to scaled form again;
//! 6. **relax** (`relax_iterations` times): the same without the push-out bias, so the push-out
//!    velocity does not survive the step (no energy gain from overlap);
//! 7. **restitution**: for points that approached faster than `restitution_threshold` and took
//!    an impulse, `vn ← −e·vn0`; angular velocities back to the world frame;
//! 8. **store**: accumulated impulses go back into the contact cache for the next step,
//!    walking the bundles in order (each contact pair is one lane of one bundle).
//!
//! **Threads.** On a pool of one thread the passes run as plain loops. On more, each of
//! `Solver::solve_velocities` and `Solver::relax_and_restitute` is one parallel region
//! (`stages`, after Box2D v3's solver stages): its conversions of the angular velocities and
//! every colour of every pass are stages, run in order, each split into blocks (whole
//! bundles, about `CHUNK_POINTS` points; bodies, for a conversion; the overflow colour is one
//! block, so it runs on one thread) that the pool's threads claim through atomic flags. A
//! thread finishing a stage waits until every block of it is done before starting the next:
//! the count of finished blocks is raised with Release and read with Acquire, so a colour's
//! writes to the bodies and points are visible to every thread that runs the next colour (see
//! `stages` for the argument, and why no thread can wait forever). One region costs a few
//! wake-ups per step where a fork-join per colour and pass cost one each, often more than a
//! small colour's work. Each thread starts every stage at its own place, so it runs the same
//! stretch of each colour in every pass (`stages`), and `colour` sorts each colour by body-slot
//! region (one region per thread) so that this stretch touches the same bodies from colour to
//! colour: a body then mostly stays in one core's cache instead of moving to the other core
//! at every colour (boxes 10k on 2 threads: 5.2 → 4.3 ms for the solver stage). `build` builds
//! region by region too, region 0 on the calling thread. Which thread runs a block changes
//! nothing: within a colour every bundle touches its own bodies and points, and the order
//! within a colour does not matter, so results are bit-identical for any thread count.

mod lanes;
mod stages;

use crate::math::{Matrix, Real, Vector};
use crate::world::ContactPair;
use lanes::{transpose, F4, LANES, M3W, M4, V4};
use rayon::prelude::*;
use stages::Stages;

/// Velocity of a body as the solver sees it (indexed by body slot; one extra zero body at the
/// end stands for the empty lanes of a bundle). Padded to two aligned groups of four floats so
/// that four bodies load into lanes with one transpose.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct SolverBody {
    /// Linear velocity of the centre of mass, m/s, world frame; then a zero.
    lin: [Real; 4],
    /// Angular velocity, rad/s, world frame; then a zero. During the solver's passes, the
    /// scaled angular velocity `L⁻¹·w` of bodies that spin (see [`BodyMass`]).
    ang: [Real; 4],
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
    rows: [[Real; 4]; 3],
    /// 1/kg.
    pub inv_mass: Real,
    /// The body's friction and restitution coefficients (before combining with another's).
    pub friction: Real,
    pub restitution: Real,
    /// Whether the slot holds a body, and whether the solver may change its velocity.
    pub live: bool,
    pub dynamic: bool,
    /// Whether the solver may change its angular velocity (dynamic with a factored inertia).
    spin: bool,
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
        friction: 0.0,
        restitution: 0.0,
        live: false,
        dynamic: false,
        spin: false,
    };

    /// A live body of inverse mass `inv_mass` (1/kg), inverse inertia `inv_inertia` about its
    /// centre of mass `com` (both world frame), with its material's `friction` and
    /// `restitution`; `dynamic` when the solver may change its velocity.
    pub fn new(
        inv_mass: Real,
        inv_inertia: &Matrix,
        com: &Vector,
        friction: Real,
        restitution: Real,
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
            friction,
            restitution,
            live: true,
            dynamic,
            spin,
        }
    }

    /// The scaled angular velocity `L⁻¹·w` of angular velocity `w` (rad/s, world frame), by
    /// forward substitution; `w` itself unless the body spins.
    #[inline]
    fn scale_angular(&self, w: [Real; 4]) -> [Real; 4] {
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
    fn unscale_angular(&self, x: [Real; 4]) -> [Real; 4] {
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
fn cholesky_upper(m: &Matrix) -> Option<Matrix> {
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
fn mass_lanes(m: &[&BodyMass; LANES]) -> (M3W, V4) {
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
fn velocity_lanes(body: &[SolverBody; LANES]) -> (V4, V4) {
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
fn mat_mul(a: &Matrix, b: &Matrix) -> Matrix {
    let col = |j: usize| mat_vec(a, &Vector::new(b[(0, j)], b[(1, j)], b[(2, j)]));
    Matrix::from_columns(&[col(0), col(1), col(2)])
}

/// A body tensor given in its local frame, in the world frame: `R·m·Rᵀ` for the rotation
/// matrix `R` (as `Body::inv_inertia_world` computes it, without the generic loops).
#[inline]
pub(crate) fn rotate_tensor(r: &Matrix, m: &Matrix) -> Matrix {
    mat_mul(&mat_mul(r, m), &r.transpose())
}

/// One row of a contact point along a unit direction `d` (the normal or a tangent), four lanes,
/// with the angular parts of its Jacobian precomputed in scaled form (see [`BodyMass`]) so that
/// the solver passes need only dot products and scaled additions (no cross products, no
/// inertia products).
#[derive(Clone, Copy, Debug, Default)]
struct RowW {
    /// `La^T·(ra × d)` and `Lb^T·(rb × d)` (1/kg^½; `ra × d`, `rb × d` in metres for bodies that
    /// do not spin): the relative velocity along `d` is `d·(vb − va) + ang_b·w̃b − ang_a·w̃a`,
    /// and an impulse `λ` along `d` changes `w̃a` by `−λ·ang_a` and `w̃b` by `+λ·ang_b` (for
    /// bodies that spin).
    ang_a: V4,
    ang_b: V4,
    /// Effective mass along `d`, kg (0 when both bodies are immovable).
    mass: F4,
}

impl RowW {
    /// The row of anchors `ra`, `rb` (relative to the centres of mass, world frame) along `d`,
    /// for bodies of inverse masses summing to `inv_mass`, transposed inverse-inertia factors
    /// `ua`, `ub`, spinning in the lanes of `spin_a`, `spin_b`; zero in the lanes outside
    /// `keep`. Also returns the unscaled `ra × d` and `rb × d`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn new(
        ra: &V4,
        rb: &V4,
        d: &V4,
        inv_mass: F4,
        (ua, spin_a): (&M3W, M4),
        (ub, spin_b): (&M3W, M4),
        keep: M4,
    ) -> (Self, V4, V4) {
        let cross_a = ra.cross(d);
        let cross_b = rb.cross(d);
        let ang_a = ua.mul_upper_vec(&cross_a);
        let ang_b = ub.mul_upper_vec(&cross_b);
        // `(r × d)·I⁻¹·(r × d) = |Lᵀ·(r × d)|²`.
        let k = inv_mass
            + spin_a.select(ang_a.dot(&ang_a), F4::ZERO)
            + spin_b.select(ang_b.dot(&ang_b), F4::ZERO);
        let mass = k
            .gt(F4::ZERO)
            .select(F4::splat(1.0).div(k), F4::ZERO)
            .min(F4::splat(MAX_EFFECTIVE_MASS));
        if keep.all() {
            return (Self { ang_a, ang_b, mass }, cross_a, cross_b);
        }
        let z = V4::ZERO;
        (
            Self {
                ang_a: V4::select(keep, ang_a, z),
                ang_b: V4::select(keep, ang_b, z),
                mass: keep.select(mass, F4::ZERO),
            },
            cross_a,
            cross_b,
        )
    }

    /// Relative velocity along the row, given `lin = d·(vb − va)` and scaled angular
    /// velocities: `lin + ang_b·w̃b − ang_a·w̃a`.
    #[inline(always)]
    fn velocity(&self, lin: F4, wa: &V4, wb: &V4) -> F4 {
        lin + self.ang_b.dot(wb) - self.ang_a.dot(wa)
    }
}

/// What the passes only read of point `k` of the four constraints of a [`Bundle`] (structure
/// of arrays; lanes whose constraint has fewer points are zero). What they change is in the
/// [`PointState`] of the same index.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PointW {
    normal: RowW,
    tangent: [RowW; 2],
    /// Separation at the start of the step, metres (negative when penetrating).
    sep: F4,
    /// Relative normal velocity at the start of the step, m/s (for restitution).
    vn0: F4,
}

/// The accumulated impulses of point `k` of the four constraints of a [`Bundle`], N·s: what
/// the passes write, kept apart from the rows they only read ([`PointW`]) on one cache line of
/// its own, so that a pass dirties one line per point and storing the results reads one.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct PointState {
    /// Normal impulse (≥ 0).
    jn: F4,
    /// Friction impulses along the bundle's two tangents.
    jt: [F4; 2],
    /// Largest normal impulse applied during this step.
    max_jn: F4,
}

/// Marks an empty lane of a bundle.
const NO_PAIR: u32 = u32::MAX;

/// Up to four constraints of one colour, solved together lane by lane. They touch disjoint
/// dynamic bodies (graph colouring), so solving them together gives the same result as one
/// after the other.
///
/// Only what the passes read, in three cache lines (every pass reads every bundle, and the
/// passes are bound by memory traffic): the tangents are recomputed from the normal
/// ([`tangent_lanes`]) and the spin masks from bits, which costs less than loading them.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Bundle {
    /// Body slots per lane (the zero body for empty lanes).
    a: [u32; LANES],
    b: [u32; LANES],
    write_a: [bool; LANES],
    write_b: [bool; LANES],
    /// Points per lane.
    lens: [u8; LANES],
    /// The bundle's points are `Solver::points[first..first + len]`.
    first: u32,
    len: u8,
    /// Whether some lane with bodies has fewer than `len` points: its missing points must not
    /// touch its velocities (not even by adding a zero, which may turn −0 into +0).
    masked: bool,
    /// Whether both bodies of every lane spin: the passes then skip the masking of angular
    /// impulses (see [`Spin`]).
    spin_all: bool,
    /// Bit `l`: lane `l`'s body A spins (takes angular impulses); bit `4 + l`: its body B.
    spin_bits: u8,
    /// Contact normal per lane, unit, from A to B (world frame).
    normal: V4,
    friction: F4,
    restitution: F4,
    inv_mass_a: F4,
    inv_mass_b: F4,
}

impl Bundle {
    fn new(lens: [u8; LANES], first: u32) -> Self {
        Self {
            a: [0; LANES],
            b: [0; LANES],
            write_a: [false; LANES],
            write_b: [false; LANES],
            lens,
            first,
            len: lens.iter().copied().max().unwrap_or(0),
            masked: false,
            spin_all: false,
            spin_bits: 0,
            normal: V4::ZERO,
            friction: F4::ZERO,
            restitution: F4::ZERO,
            inv_mass_a: F4::ZERO,
            inv_mass_b: F4::ZERO,
        }
    }

    /// The lanes whose body A spins, and those whose body B spins.
    #[inline(always)]
    fn spin_masks(&self) -> Spin {
        let bit = |i: usize| self.spin_bits & (1 << i) != 0;
        Spin {
            a: M4::from_array(std::array::from_fn(bit)),
            b: M4::from_array(std::array::from_fn(|l| bit(LANES + l))),
        }
    }

    /// The lanes whose point `k` exists.
    #[inline(always)]
    fn active(&self, k: usize) -> M4 {
        M4::from_array(std::array::from_fn(|l| k < self.lens[l] as usize))
    }
}

/// The lanes of a bundle whose body A (B) spins: only those take angular impulses.
#[derive(Clone, Copy, Debug)]
struct Spin {
    a: M4,
    b: M4,
}

impl Spin {
    /// `x` in the lanes whose body A spins (zero elsewhere), and the same for B: the angular
    /// share of an impulse `x`. `SPIN_ALL` says that every lane's bodies spin (the bundle's
    /// `spin_all`), so that every lane keeps `x` (the same lanes, without the selects).
    #[inline(always)]
    fn split<const SPIN_ALL: bool>(&self, x: F4) -> (F4, F4) {
        if SPIN_ALL {
            return (x, x);
        }
        (self.a.select(x, F4::ZERO), self.b.select(x, F4::ZERO))
    }
}

/// What [`Solver::colour`] decides of a bundle: the contact pair and point count of each lane
/// (`NO_PAIR` and 0 for an empty lane), and where its points start. [`Solver::build`] makes the
/// [`Bundle`] from it (colouring writes these few bytes instead of whole bundles).
#[derive(Clone, Copy, Debug)]
struct BundleHead {
    pair: [u32; LANES],
    lens: [u8; LANES],
    first: u32,
}

/// Soft-constraint coefficients (Box2D v3 `b2MakeSoft`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Softness {
    pub bias_rate: Real,
    pub mass_scale: Real,
    pub impulse_scale: Real,
}

impl Softness {
    /// Spring of `hertz` with damping ratio `zeta`, stepped with `h`.
    pub fn new(hertz: Real, zeta: Real, h: Real) -> Self {
        if hertz <= 0.0 {
            return Self {
                bias_rate: 0.0,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// Parameters shared by every constraint during one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverParams {
    pub inv_h: Real,
    pub soft: Softness,
    /// Penetration left uncorrected, metres (keeps resting contacts from jittering).
    pub allowed_penetration: Real,
    pub max_push: Real,
    pub restitution_threshold: Real,
}

/// Which pass a constraint is solved in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    WarmStart,
    Solve,
    Relax,
    Restitution,
}

/// The bodies, shared by the bundles of one colour. The colouring guarantees that within a
/// colour no two constraints write the same body, and bodies that are only read (static,
/// kinematic, frozen, the zero body) are never written by anyone. Also shared by the blocks of
/// a conversion of the angular velocities, each owning a disjoint range of bodies.
#[derive(Clone, Copy)]
struct BodiesPtr(*mut SolverBody);

// SAFETY: the pointer is only dereferenced during a colour pass, on indices below
// `Solver::body_bound`, checked once per pass against the array's length; writes go to dynamic
// bodies, each owned by at most one constraint of the colour (graph colouring; the overflow
// colour has one constraint per bundle and runs on one thread), and no constraint reads a
// dynamic body owned by another constraint of the same colour (a dynamic body appearing in two
// constraints would make them share it, which the colouring forbids). During a conversion
// stage, each block reads and writes only its own range of bodies, below the array's length.
// Colours and conversions run one after the other, each finished and visible before the next
// starts (`stages`).
unsafe impl Send for BodiesPtr {}
// SAFETY: see `Send` above.
unsafe impl Sync for BodiesPtr {}

/// The bundle points (rows and states, two arrays of the same length), shared by the bundles
/// of one pass: each bundle owns the disjoint range `first..first + len` of both (prefix sums
/// of the lengths), so no two bundles touch the same point.
#[derive(Clone, Copy)]
struct PointsPtr {
    rows: *mut PointW,
    states: *mut PointState,
    /// Length of both arrays.
    len: usize,
}

// SAFETY: only dereferenced within the disjoint range each bundle owns (see above, checked
// against the vector's length), and only while the `points` vector it points into is alive
// and not resized.
unsafe impl Send for PointsPtr {}
// SAFETY: see `Send` above.
unsafe impl Sync for PointsPtr {}

impl PointsPtr {
    /// Both arrays of `solver`.
    fn of(solver: &mut Solver) -> Self {
        debug_assert_eq!(solver.points.len(), solver.states.len());
        Self {
            rows: solver.points.as_mut_ptr(),
            states: solver.states.as_mut_ptr(),
            len: solver.points.len().min(solver.states.len()),
        }
    }

    /// The rows and states of points `first..first + len`; `None` when out of bounds.
    ///
    /// # Safety
    /// No one else may access these points while the slices live (each bundle owns its
    /// range, and the arrays are neither dropped nor resized during a build or a pass).
    #[inline(always)]
    unsafe fn range<'a>(
        self,
        first: usize,
        len: usize,
    ) -> Option<(&'a mut [PointW], &'a mut [PointState])> {
        if first + len > self.len {
            return None;
        }
        // SAFETY: in bounds (checked above) of both arrays, which are `self.len` long; the
        // caller guarantees exclusive access.
        unsafe {
            Some((
                std::slice::from_raw_parts_mut(self.rows.add(first), len),
                std::slice::from_raw_parts_mut(self.states.add(first), len),
            ))
        }
    }
}

/// The items [`Solver::store_results`] writes, one per contact pair, shared by its tasks: each
/// pair belongs to one lane of one bundle, so no two tasks touch the same item.
struct ItemsPtr<T>(*mut T);

impl<T> Clone for ItemsPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ItemsPtr<T> {}

// SAFETY: only dereferenced on indices below the slice's length, each by one task (see
// `Solver::store_results`), while the slice is borrowed mutably by that call; `T: Send`, so
// handing an item to another thread is allowed.
unsafe impl<T: Send> Send for ItemsPtr<T> {}
// SAFETY: see `Send` above.
unsafe impl<T: Send> Sync for ItemsPtr<T> {}

impl<T> ItemsPtr<T> {
    /// The address of item `i` (a method, so that closures capture the whole `Sync` wrapper).
    #[inline(always)]
    fn at(self, i: usize) -> *mut T {
        self.0.wrapping_add(i)
    }
}

impl BodiesPtr {
    /// The address of body `i` (a method, so that closures capture the whole `Sync` wrapper).
    #[inline(always)]
    fn at(self, i: usize) -> *mut SolverBody {
        self.0.wrapping_add(i)
    }
}

/// When no colour has this many points (counting a bundle's point `k` of its four lanes as
/// one), the passes run on the calling thread: below it sharing a colour costs more than it
/// saves. Counted in points rather than bundles because a bundle of balls (one point per lane)
/// is a quarter of the work of a bundle of boxes (four).
const PARALLEL_MIN_POINTS: usize = 256;
/// Points per block of a colour's stage (rounded to whole bundles).
const CHUNK_POINTS: usize = 128;
/// Bodies per block of a conversion stage.
const CONVERT_BLOCK: usize = 1024;

/// Bundles per rayon task when storing the results.
const STORE_CHUNK: usize = 256;

/// Bundle heads made per rayon task by the colouring.
const HEAD_CHUNK: usize = 512;
/// Bundles built per rayon task.
const BUILD_CHUNK: usize = 64;
/// How many bundles ahead the build prefetches bodies (and twice as far, contact pairs).
const PREFETCH_AHEAD: usize = 2;

/// Number of colours tried before a constraint goes to the overflow colour (solved last).
const COLOURS: usize = 64;
// `Solver::colour` keeps a body's colours in a `u64` and finds the overflow colour as the
// trailing zeros of an all-taken mask.
const _: () = assert!(COLOURS == u64::BITS as usize);
/// Largest effective mass of a row, kg. An impulse is an effective mass times a speed, so
/// without a cap two very heavy bodies (masses near `Real::MAX`) would overflow to infinite
/// impulses at everyday speeds; with it, impulses stay finite below 3·10⁸ m/s. Rows of bodies
/// lighter than about 10³⁰ kg are not affected; heavier ones are solved as if that light (their
/// contacts stop them more slowly).
const MAX_EFFECTIVE_MASS: Real = 1.0e30;
/// Most regions a colour's constraints are sorted into (see [`Solver::colour`]).
const MAX_REGIONS: usize = 16;
/// Manifolds have at most this many points.
const MAX_POINTS: usize = 4;
/// Fewest contact pairs per task when gathering the colouring's inputs.
const GATHER_MIN: usize = 1024;

/// What a solved contact point hands back to the contact cache.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PointResult {
    /// Accumulated normal impulse, N·s (≥ 0).
    pub normal: Real,
    /// Accumulated friction impulse, N·s, world frame (orthogonal to the normal).
    pub tangent: Vector,
    /// Largest normal impulse applied during the step, N·s.
    pub max_normal: Real,
}

/// The solver's scratch: bundles stored colour by colour, and colour boundaries.
#[derive(Default)]
pub(crate) struct Solver {
    /// Mass properties per body slot, for building constraints.
    pub masses: Vec<BodyMass>,
    /// Made by `colour`, one per bundle.
    heads: Vec<BundleHead>,
    /// Made by `build` from `heads` (stale between `colour` and `build`: see `built`).
    bundles: Vec<Bundle>,
    /// Whether `bundles` holds the constraints of the last colouring.
    built: bool,
    /// Points of all bundles, in bundle order: what the passes read, and (same indices) what
    /// they write.
    points: Vec<PointW>,
    states: Vec<PointState>,
    /// `bundle_starts[c]..bundle_starts[c+1]` is colour `c` in `heads` and `bundles`.
    bundle_starts: Vec<usize>,
    /// Contact-pair indices sorted by colour, then by decreasing point count.
    order: Vec<u32>,
    /// Per contact pair, its sort key: colour, region, decreasing point count.
    key_of: Vec<u32>,
    /// Regions of the last colouring, and where region `r` of colour `c` starts (bundles from
    /// the colour's first) at `region_starts[c·regions + r]`.
    regions: usize,
    region_starts: Vec<usize>,
    /// Per contact pair, what the colouring reads (gathered by `colour`).
    inputs: Vec<ColourInput>,
    masks: Vec<u64>,
    counts: Vec<usize>,
    /// Every body slot named by a bundle is below this (checked once per pass against the
    /// velocity array instead of per bundle).
    body_bound: usize,
    /// The stages of the parallel passes (see the module docs), planned per call.
    stages: Stages<Job>,
}

/// What [`Solver::colour`] reads of one contact pair, packed (12 bytes).
#[derive(Clone, Copy, Debug, Default)]
struct ColourInput {
    /// Body slots.
    a: u32,
    b: u32,
    /// Sort key in colour 0 (region and decreasing point count); colour `c` adds `c·stride`.
    base: u16,
    /// Point count, clamped to `1..=MAX_POINTS`.
    len: u8,
    /// Bit 0: body `a` is dynamic (written by the solver); bit 1: body `b` is.
    write: u8,
}

/// One stage of the parallel passes.
#[derive(Clone, Copy, Debug)]
enum Job {
    /// The angular velocities of bodies `block·CONVERT_BLOCK..` (up to `bodies`), to scaled
    /// form (`scale`) or back (see [`BodyMass`]).
    Convert { scale: bool, bodies: usize },
    /// `pass` over the bundles `start..end` (one colour), `per_block` bundles per block.
    Pass {
        pass: Pass,
        start: usize,
        end: usize,
        per_block: usize,
    },
}

impl Solver {
    /// Greedy graph colouring of the constraints `(a, b, write_a, write_b, points)` given in
    /// pair order: each takes the lowest colour free on both of its dynamic bodies. Within a
    /// colour, constraints are sorted by region, then by decreasing point count (pair order
    /// kept among equals; the order within a colour does not change the result), and grouped
    /// four by four into bundles (one by one in the overflow colour, whose constraints may
    /// share bodies). The regions split the body slots into as many ranges as the pool has
    /// threads (a constraint goes by its first dynamic body): the parallel passes hand each
    /// thread the same stretch of every colour, so a thread keeps meeting the same bodies from
    /// colour to colour and finds them in its own cache, instead of in the core that wrote them
    /// in the colour before. `n_bodies` bounds the slot indices.
    ///
    /// A constraint's inputs (its two slots, which of them are dynamic (`dynamic(slot)`: written
    /// by the solver), its point count) are first gathered from `contacts` in parallel into a compact array, so
    /// that the serial greedy pass reads 12 bytes per constraint in order instead of the
    /// scattered contact pairs and masses. Only the greedy pass, the counting sort's scatter and
    /// a running sum over the bundles are serial; the bundle heads are filled in parallel.
    #[inline(never)]
    pub fn colour(
        &mut self,
        contacts: &[ContactPair],
        n_bodies: usize,
        dynamic: impl Fn(u32) -> bool + Sync,
    ) {
        let regions = rayon::current_num_threads().clamp(1, MAX_REGIONS);
        let stride = regions * MAX_POINTS;
        let keys = (COLOURS + 1) * stride;
        let key = |colour: usize, region: usize, len: usize| {
            colour * stride + region * MAX_POINTS + (MAX_POINTS - len)
        };
        // `slot·regions/n_bodies` by a multiply and a shift (no division per pair).
        let scale = ((regions as u64) << 32) / n_bodies.max(1) as u64;
        let region_of = |slot: u32| match regions {
            1 => 0,
            _ => (((slot as u64 * scale) >> 32) as usize).min(regions - 1),
        };
        contacts
            .par_iter()
            .with_min_len(GATHER_MIN)
            .map(|c| {
                let (a, b) = (c.a.index(), c.b.index());
                let (write_a, write_b) = (dynamic(a), dynamic(b));
                let len = c.manifold.len().clamp(1, MAX_POINTS);
                ColourInput {
                    a,
                    b,
                    base: key(0, region_of(if write_a { a } else { b }), len) as u16,
                    len: len as u8,
                    write: write_a as u8 | (write_b as u8) << 1,
                }
            })
            .collect_into_vec(&mut self.inputs);
        self.masks.clear();
        self.masks.resize(n_bodies, 0);
        // The greedy pass writes every key, the sort every place of `order`, and the bundles
        // below every head: resizing without clearing writes only the new tail.
        self.key_of.resize(self.inputs.len(), 0);
        self.counts.clear();
        self.counts.resize(keys, 0);
        let (masks, counts) = (&mut self.masks[..], &mut self.counts[..]);
        for (p, key) in self.inputs.iter().zip(&mut self.key_of) {
            let (write_a, write_b) = (p.write & 1 != 0, p.write & 2 != 0);
            let ma = if write_a { masks[p.a as usize] } else { 0 };
            let mb = if write_b { masks[p.b as usize] } else { 0 };
            let free = !(ma | mb);
            // The lowest free colour (`COLOURS`, the overflow, if none is free) and its bit
            // (0 if none).
            let colour = free.trailing_zeros() as usize;
            let bit = free & free.wrapping_neg();
            if write_a {
                masks[p.a as usize] |= bit;
            }
            if write_b {
                masks[p.b as usize] |= bit;
            }
            let k = colour * stride + p.base as usize;
            *key = k as u32;
            counts[k] += 1;
        }
        // Counting sort by (colour, region, decreasing length), stable.
        let mut start = 0;
        for n in self.counts.iter_mut() {
            let here = *n;
            *n = start;
            start += here;
        }
        // Where each region starts in its colour, in bundles (rounded up).
        self.regions = regions;
        self.region_starts.clear();
        for colour in 0..=COLOURS {
            let first = self.counts[key(colour, 0, MAX_POINTS)];
            for region in 0..regions {
                let at = self.counts[key(colour, region, MAX_POINTS)] - first;
                self.region_starts.push(at.div_ceil(LANES));
            }
        }
        self.order.resize(self.key_of.len(), 0);
        for (k, &key) in self.key_of.iter().enumerate() {
            self.order[self.counts[key as usize]] = k as u32;
            self.counts[key as usize] += 1;
        }
        // Bundles, colour by colour (`counts[key]` is now the end of bucket `key`): first
        // where each colour's bundles start, then the bundles' pairs and point counts in
        // parallel (each colour's pairs are a range of `order`), then where each bundle's
        // points start (a running sum, in bundle order).
        self.built = false;
        self.bundle_starts.clear();
        let mut jobs = Vec::with_capacity(COLOURS + 1);
        let (mut from, mut bundles) = (0, 0);
        for colour in 0..=COLOURS {
            self.bundle_starts.push(bundles);
            let to = self.counts[key(colour, regions - 1, 1)];
            let width = if colour < COLOURS { LANES } else { 1 };
            jobs.push((from..to, width));
            bundles += (to - from).div_ceil(width);
            from = to;
        }
        self.bundle_starts.push(bundles);
        let empty = BundleHead {
            pair: [NO_PAIR; LANES],
            lens: [0; LANES],
            first: 0,
        };
        self.heads.resize(bundles, empty);
        let (order, inputs) = (&self.order[..], &self.inputs[..]);
        let mut rest = &mut self.heads[..];
        let mut tasks = Vec::with_capacity(jobs.len());
        for (range, width) in jobs {
            let (heads, tail) = std::mem::take(&mut rest).split_at_mut(range.len().div_ceil(width));
            rest = tail;
            tasks.push((heads, order.get(range).unwrap_or_default(), width));
        }
        tasks.into_par_iter().for_each(|(heads, order, width)| {
            heads
                .par_chunks_mut(HEAD_CHUNK)
                .zip(order.par_chunks(HEAD_CHUNK * width))
                .for_each(|(heads, order)| {
                    for (head, group) in heads.iter_mut().zip(order.chunks(width)) {
                        *head = empty;
                        for (l, &k) in group.iter().enumerate() {
                            head.pair[l] = k;
                            head.lens[l] = inputs.get(k as usize).map_or(0, |p| p.len);
                        }
                    }
                });
        });
        let mut first = 0u32;
        for head in &mut self.heads {
            head.first = first;
            first += head.lens.iter().copied().max().unwrap_or(0) as u32;
        }
        // `build` writes every bundle: resizing writes only the new tail.
        self.bundles
            .resize(self.heads.len(), Bundle::new([0; LANES], 0));
        // Every point is written by `build`; reuse the buffer without clearing it.
        self.points.resize(first as usize, PointW::default());
        self.states.resize(first as usize, PointState::default());
    }

    /// Fills the bundles made by [`Solver::colour`], in parallel, with the constraints of the
    /// contact pairs `contacts` (the pairs given to `colour`, in the same order), four at a
    /// time (see [`build_bundle`]). `bodies` are the velocities before the solve (indexed by
    /// slot, as [`Solver::masses`]); `zero` is the index of the zero body that empty lanes
    /// point at; points approaching faster than `restitution_threshold` (m/s) may bounce.
    #[inline(never)]
    pub fn build(
        &mut self,
        contacts: &[ContactPair],
        bodies: &[SolverBody],
        restitution_threshold: Real,
        zero: u32,
    ) {
        let pts = PointsPtr::of(self);
        let ctx = BuildContext {
            contacts,
            bodies,
            masses: &self.masses,
            restitution_threshold,
            zero,
        };
        // `build_bundle` names slots found in `masses`, `zero`, or slot 0 (an emptied bundle).
        self.body_bound = self.masses.len().max(zero as usize + 1);
        self.built = self.bundles.len() == self.heads.len();
        if !self.built {
            debug_assert!(false, "building without colouring");
            return;
        }
        // The bundles of each (colour, region), region by region: rayon's first split gives
        // region 0 to the calling thread, which met those bodies and contact pairs in the
        // stages before (they are in slot and pair order) and meets them in the passes after.
        let regions = self.regions.max(1);
        let colours = self.bundle_starts.len().saturating_sub(1);
        let mut segments = Vec::with_capacity(colours * regions);
        let (mut bundles, mut heads) = (&mut self.bundles[..], &self.heads[..]);
        let mut at = 0;
        for colour in 0..colours {
            let (start, end) = (self.bundle_starts[colour], self.bundle_starts[colour + 1]);
            for region in 0..regions {
                let to = match self.region_starts.get(colour * regions + region + 1) {
                    Some(&r) if region + 1 < regions => start + r,
                    _ => end,
                }
                .clamp(at, end);
                let (b, rest) = std::mem::take(&mut bundles).split_at_mut(to - at);
                let (h, hrest) = heads.split_at(to - at);
                (bundles, heads) = (rest, hrest);
                segments.push((region, colour, b, h));
                at = to;
            }
        }
        segments.sort_unstable_by_key(|s| (s.0, s.1));
        segments.into_par_iter().for_each(|(_, _, bundles, heads)| {
            bundles
                .par_chunks_mut(BUILD_CHUNK)
                .zip(heads.par_chunks(BUILD_CHUNK))
                .for_each(|(chunk, heads)| build_chunk(chunk, heads, pts, &ctx));
        });
    }

    /// Runs the whole velocity solve that precedes position integration: warm start, then
    /// `iterations` biased passes.
    #[inline(never)]
    pub fn solve_velocities(
        &mut self,
        bodies: &mut [SolverBody],
        p: &SolverParams,
        iterations: u32,
    ) {
        let passes = std::iter::once(Pass::WarmStart).chain((0..iterations).map(|_| Pass::Solve));
        self.solve_passes(bodies, p, passes);
    }

    /// The passes after position integration: relaxation and restitution.
    #[inline(never)]
    pub fn relax_and_restitute(
        &mut self,
        bodies: &mut [SolverBody],
        p: &SolverParams,
        iterations: u32,
    ) {
        let passes = (0..iterations)
            .map(|_| Pass::Relax)
            .chain(std::iter::once(Pass::Restitution));
        self.solve_passes(bodies, p, passes);
    }

    /// Angular velocities to scaled form, then `passes` in order, then angular velocities back
    /// to the world frame: serially on a pool of one thread or when no colour is worth sharing,
    /// else in one parallel region (see the module docs).
    fn solve_passes(
        &mut self,
        bodies: &mut [SolverBody],
        p: &SolverParams,
        passes: impl Iterator<Item = Pass> + Clone,
    ) {
        if !self.built {
            debug_assert!(false, "solving before building");
            return;
        }
        if bodies.len() < self.body_bound {
            debug_assert!(false, "fewer bodies than the bundles name");
            return;
        }
        let threads = rayon::current_num_threads();
        if threads > 1 && self.plan(passes.clone(), bodies.len()) {
            self.run_stages(bodies, p, threads);
            return;
        }
        self.convert_angular(bodies, BodyMass::scale_angular);
        for pass in passes {
            self.run(bodies, p, pass);
        }
        self.convert_angular(bodies, BodyMass::unscale_angular);
    }

    /// Plans the stages of [`Solver::solve_passes`] for `passes` over `n_bodies` bodies;
    /// whether some colour is large enough to share between threads.
    fn plan(&mut self, passes: impl Iterator<Item = Pass>, n_bodies: usize) -> bool {
        let bodies = self.masses.len().min(n_bodies);
        let convert_blocks = bodies.div_ceil(CONVERT_BLOCK);
        self.stages.clear();
        self.stages.push(
            Job::Convert {
                scale: true,
                bodies,
            },
            convert_blocks,
        );
        let mut worth = false;
        for pass in passes {
            for colour in 0..self.bundle_starts.len().saturating_sub(1) {
                let (start, end) = (self.bundle_starts[colour], self.bundle_starts[colour + 1]);
                let points = self.colour_points(colour);
                if end <= start || points == 0 {
                    continue;
                }
                // The overflow colour (index COLOURS) may share bodies: one block.
                let per_block = if colour < COLOURS {
                    worth |= points >= PARALLEL_MIN_POINTS;
                    (CHUNK_POINTS * (end - start) / points).max(1)
                } else {
                    end - start
                };
                let job = Job::Pass {
                    pass,
                    start,
                    end,
                    per_block,
                };
                self.stages.push(job, (end - start).div_ceil(per_block));
            }
        }
        self.stages.push(
            Job::Convert {
                scale: false,
                bodies,
            },
            convert_blocks,
        );
        worth
    }

    /// Runs the planned stages on up to `threads` threads of the current pool (the caller
    /// has checked that `bodies` holds every slot the bundles name).
    fn run_stages(&mut self, bodies: &mut [SolverBody], p: &SolverParams, threads: usize) {
        let ptr = BodiesPtr(bodies.as_mut_ptr());
        let pts = PointsPtr::of(self);
        let (bundles, masses) = (&self.bundles, &self.masses);
        // The overflow colour's bundles may share bodies: never two at a time.
        let overflow = self.bundle_starts.get(COLOURS).copied().unwrap_or(0);
        self.stages.run(threads, |job, block| match *job {
            Job::Convert { scale, bodies } => {
                let from = block * CONVERT_BLOCK;
                for i in from..(from + CONVERT_BLOCK).min(bodies) {
                    let Some(m) = masses.get(i) else { break };
                    // SAFETY: `i` is below `bodies`, at most the array's length (`plan`);
                    // this block alone touches bodies `from..from + CONVERT_BLOCK` during this
                    // stage (see `BodiesPtr`).
                    let b = unsafe { &mut *ptr.at(i) };
                    b.ang = if scale {
                        m.scale_angular(b.ang)
                    } else {
                        m.unscale_angular(b.ang)
                    };
                }
            }
            Job::Pass {
                pass,
                start,
                end,
                per_block,
            } => {
                let from = start + block * per_block;
                let to = (from + per_block).min(end);
                let block = bundles.get(from..to).unwrap_or_default();
                solve_bundles(block, start < overflow, ptr, pts, p, pass);
            }
        });
    }

    /// Points of colour `colour` (counting a bundle's point `k` of its four lanes as one):
    /// bundles store their points in bundle order, so a colour's points are a range.
    fn colour_points(&self, colour: usize) -> usize {
        let (start, end) = (self.bundle_starts[colour], self.bundle_starts[colour + 1]);
        match (
            self.bundles.get(start),
            end.checked_sub(1).and_then(|l| self.bundles.get(l)),
        ) {
            (Some(f), Some(l)) if end > start => (l.first + l.len as u32 - f.first) as usize,
            _ => 0,
        }
    }

    /// Applies `f` (to or from scaled angular velocities, see [`BodyMass`]) to the angular
    /// velocity of every body with mass properties, in parallel (each body on its own).
    fn convert_angular(
        &self,
        bodies: &mut [SolverBody],
        f: impl Fn(&BodyMass, [Real; 4]) -> [Real; 4] + Sync,
    ) {
        bodies
            .par_iter_mut()
            .zip(self.masses.par_iter())
            .with_min_len(1024)
            .for_each(|(b, m)| b.ang = f(m, b.ang));
    }

    /// Calls `f(&mut items[pair], k, result)` for point `k` of the constraint of every contact
    /// pair `pair` (an index into the pairs given to [`Solver::colour`]; `items` is indexed
    /// like them), once solved. In parallel, walking the bundles in order (the points are read
    /// as the passes stored them, rather than looked up pair by pair); each pair sits in one
    /// lane of one bundle, so each item is handed to one call at a time.
    pub fn store_results<T: Send>(
        &self,
        items: &mut [T],
        f: impl Fn(&mut T, usize, PointResult) + Sync,
    ) {
        if !self.built {
            return;
        }
        let out = ItemsPtr(items.as_mut_ptr());
        let n = items.len();
        self.bundles
            .par_chunks(STORE_CHUNK)
            .zip(self.heads.par_chunks(STORE_CHUNK))
            .for_each(|(bundles, heads)| {
                for (bundle, head) in bundles.iter().zip(heads) {
                    let first = bundle.first as usize;
                    let Some(states) = self.states.get(first..first + bundle.len as usize) else {
                        continue;
                    };
                    let [t1, t2] = tangent_lanes(&bundle.normal);
                    for l in 0..LANES {
                        let pair = head.pair[l] as usize;
                        if pair >= n {
                            continue;
                        }
                        // SAFETY: `pair < n`, the length of `items`, which outlives this call;
                        // `colour` put each pair in exactly one lane of one bundle (its `order`
                        // is a permutation), so no other call holds this item.
                        let item = unsafe { &mut *out.at(pair) };
                        let (t1, t2) = (t1.lane(l), t2.lane(l));
                        for (k, p) in states.iter().take(bundle.lens[l] as usize).enumerate() {
                            let result = PointResult {
                                normal: p.jn.to_array()[l],
                                tangent: t1 * p.jt[0].to_array()[l] + t2 * p.jt[1].to_array()[l],
                                max_normal: p.max_jn.to_array()[l],
                            };
                            f(item, k, result);
                        }
                    }
                }
            });
    }

    /// One pass over every bundle, colour after colour, on the calling thread (the caller has
    /// checked that `bodies` holds every slot the bundles name).
    fn run(&mut self, bodies: &mut [SolverBody], p: &SolverParams, pass: Pass) {
        let ptr = BodiesPtr(bodies.as_mut_ptr());
        let pts = PointsPtr::of(self);
        for colour in 0..self.bundle_starts.len().saturating_sub(1) {
            let (start, end) = (self.bundle_starts[colour], self.bundle_starts[colour + 1]);
            let bundles = self.bundles.get(start..end).unwrap_or_default();
            // The overflow colour's bundles may share bodies: never two at a time.
            solve_bundles(bundles, colour < COLOURS, ptr, pts, p, pass);
        }
    }
}

/// What building a bundle reads (see [`Solver::build`]).
struct BuildContext<'a> {
    contacts: &'a [ContactPair],
    bodies: &'a [SolverBody],
    masses: &'a [BodyMass],
    restitution_threshold: Real,
    zero: u32,
}

/// Builds the bundles of `chunk` from their `heads` one after the other (see
/// [`build_bundle`]), their points in `pts`. Bundles are in colour order, so
/// their contact pairs and bodies are scattered in memory: the pairs are prefetched two steps
/// ahead, then their bodies.
#[inline(never)]
fn build_chunk(chunk: &mut [Bundle], heads: &[BundleHead], pts: PointsPtr, ctx: &BuildContext) {
    let contacts_of = |h: &BundleHead| {
        h.pair
            .into_iter()
            .filter_map(|k| ctx.contacts.get(k as usize))
    };
    for (j, head) in heads.iter().enumerate().take(chunk.len()) {
        if let Some(far) = heads.get(j + 2 * PREFETCH_AHEAD) {
            contacts_of(far).for_each(lanes::prefetch);
        }
        if let Some(near) = heads.get(j + PREFETCH_AHEAD) {
            for cp in contacts_of(near) {
                for i in [cp.a.index() as usize, cp.b.index() as usize] {
                    if let Some(m) = ctx.masses.get(i) {
                        lanes::prefetch(m);
                    }
                    if let Some(b) = ctx.bodies.get(i) {
                        lanes::prefetch(b);
                    }
                }
            }
        }
        let bundle = &mut chunk[j];
        *bundle = Bundle::new(head.lens, head.first);
        let (first, len) = (bundle.first as usize, bundle.len as usize);
        // SAFETY: the range is reserved for this bundle alone by `colour`; the vectors are
        // alive and not resized during the build.
        let Some((points, states)) = (unsafe { pts.range(first, len) }) else {
            debug_assert!(false, "bundle points out of bounds");
            *bundle = Bundle::new([0; LANES], 0);
            continue;
        };
        build_bundle(bundle, head.pair, points, states, ctx);
    }
}

/// Builds the (up to four) constraints of `bd`, one per lane, and their points `points` and
/// `states` (point `k` of every lane in `points[k]` and `states[k]`). Per lane, the scalar part: bodies, normal and tangent
/// basis, friction and restitution; then per point, four lanes at once: the anchors relative
/// to the centres of mass, the normal and tangent rows ([`RowW::new`]), the separation, last
/// step's impulses (the tangent one projected on the tangents) and the approach speed `vn0`.
/// Lanes without a point `k` get zeros. Each lane does the scalar arithmetic of one constraint
/// in the scalar order, so the result does not depend on which lane a constraint lands in.
#[inline(never)]
fn build_bundle(
    bd: &mut Bundle,
    pair: [u32; LANES],
    points: &mut [PointW],
    states: &mut [PointState],
    ctx: &BuildContext,
) {
    let zero = ctx.zero;
    let mut src: [Option<&ContactPair>; LANES] = [None; LANES];
    let mut mass_a: [&BodyMass; LANES] = [&BodyMass::DEAD; LANES];
    let mut mass_b: [&BodyMass; LANES] = [&BodyMass::DEAD; LANES];
    let mut vel_a = [SolverBody::ZERO; LANES];
    let mut vel_b = [SolverBody::ZERO; LANES];
    let mut normal = [Vector::zeros(); LANES];
    let mut friction = [0.0; LANES];
    let mut restitution = [0.0; LANES];
    for l in 0..LANES {
        bd.a[l] = zero;
        bd.b[l] = zero;
        bd.write_a[l] = false;
        bd.write_b[l] = false;
        let lens = bd.lens[l];
        bd.lens[l] = 0;
        let Some(cp) = ctx.contacts.get(pair[l] as usize) else {
            continue;
        };
        let (a, b) = (cp.a.index(), cp.b.index());
        let (Some(ma), Some(mb)) = (ctx.masses.get(a as usize), ctx.masses.get(b as usize)) else {
            continue;
        };
        bd.a[l] = a;
        bd.b[l] = b;
        // Contact pairs name live bodies; an empty constraint (a no-op) otherwise.
        if !(ma.live && mb.live) {
            continue;
        }
        let len = cp.manifold.len().min(lens as usize).min(bd.len as usize);
        bd.write_a[l] = ma.dynamic;
        bd.write_b[l] = mb.dynamic;
        bd.lens[l] = len as u8;
        src[l] = Some(cp);
        (mass_a[l], mass_b[l]) = (ma, mb);
        let body = |i: u32| {
            ctx.bodies
                .get(i as usize)
                .copied()
                .unwrap_or(SolverBody::ZERO)
        };
        (vel_a[l], vel_b[l]) = (body(a), body(b));
        normal[l] = cp.manifold.normal;
        friction[l] = crate::Material::combine_friction(ma.friction, mb.friction);
        restitution[l] = crate::Material::combine_restitution(ma.restitution, mb.restitution);
    }
    let n = V4::from_lanes(|l| normal[l]);
    // `tangent_basis` of each lane's normal (the empty lanes' are not used: their rows and
    // impulses are zero).
    let t = tangent_lanes(&n);
    let inv_mass_a = F4::from_array(mass_a.map(|m| m.inv_mass));
    let inv_mass_b = F4::from_array(mass_b.map(|m| m.inv_mass));
    let inv_mass = inv_mass_a + inv_mass_b;
    let (ua, com_a) = mass_lanes(&mass_a);
    let (ub, com_b) = mass_lanes(&mass_b);
    let spin_a = M4::from_array(mass_a.map(|m| m.spin));
    let spin_b = M4::from_array(mass_b.map(|m| m.spin));
    let (va, wa) = velocity_lanes(&vel_a);
    let (vb, wb) = velocity_lanes(&vel_b);
    let dv = vb - va;
    let threshold = F4::splat(-ctx.restitution_threshold);
    let mut approaching = M4::from_array([false; LANES]);
    for (k, (w, state)) in points.iter_mut().zip(states.iter_mut()).enumerate() {
        let keep = bd.active(k);
        // Point `k` of each lane, read once: position and separation, last step's impulses
        // (zeros in lanes without one), one row per lane, then transposed into lanes.
        let mut at = [F4::ZERO; LANES];
        let mut imps = [F4::ZERO; LANES];
        for l in 0..LANES {
            let Some(cp) = src[l] else { continue };
            let (Some(q), Some(imp)) = (cp.manifold.points().get(k), cp.impulses.get(k)) else {
                continue;
            };
            at[l] = F4::from_array([q.point.x, q.point.y, q.point.z, -q.depth]);
            imps[l] = F4::from_array([imp.normal, imp.tangent.x, imp.tangent.y, imp.tangent.z]);
        }
        let [px, py, pz, sep] = transpose(at);
        let p = V4 {
            x: px,
            y: py,
            z: pz,
        };
        let [jn, jx, jy, jz] = transpose(imps);
        let jt = V4 {
            x: jx,
            y: jy,
            z: jz,
        };
        let (ra, rb) = (p - com_a, p - com_b);
        let row = |d: &V4| RowW::new(&ra, &rb, d, inv_mass, (&ua, spin_a), (&ub, spin_b), keep);
        let (normal, cross_a, cross_b) = row(&n);
        // The relative normal velocity `n·(vb − va) + (rb × n)·wb − (ra × n)·wa` (world
        // angular velocities).
        let vn0 = n.dot(&dv) + cross_b.dot(&wb) - cross_a.dot(&wa);
        approaching = approaching.or(keep.and(threshold.gt(vn0)));
        // Lanes without a point `k` are zero (no select needed when every lane has one).
        let all = keep.all();
        let kept = |x: F4| if all { x } else { keep.select(x, F4::ZERO) };
        *w = PointW {
            normal,
            tangent: [row(&t[0]).0, row(&t[1]).0],
            sep: kept(sep),
            vn0: kept(vn0),
        };
        *state = PointState {
            jn: kept(jn),
            jt: [kept(jt.dot(&t[0])), kept(jt.dot(&t[1]))],
            max_jn: F4::ZERO,
        };
    }
    bd.normal = n;
    bd.friction = F4::from_array(friction);
    // No point approaches fast enough to bounce: the restitution pass can skip the lane.
    bd.restitution = approaching.select(F4::from_array(restitution), F4::ZERO);
    bd.inv_mass_a = inv_mass_a;
    bd.inv_mass_b = inv_mass_b;
    bd.spin_bits = (0..LANES).fold(0, |bits, l| {
        bits | (mass_a[l].spin as u8) << l | (mass_b[l].spin as u8) << (LANES + l)
    });
    bd.spin_all = spin_a.and(spin_b).all();
    bd.masked = (0..LANES).any(|l| pair[l] != NO_PAIR && bd.lens[l] < bd.len);
}

/// The velocities of the two bodies of each lane.
struct Velocities {
    va: V4,
    wa: V4,
    vb: V4,
    wb: V4,
}

impl Velocities {
    /// Applies impulse `d` (per lane, N·s) along `dir` to B and its opposite to A, through
    /// `row`'s angular terms; only in the lanes of `mask` when there is one.
    #[inline(always)]
    fn apply_row<const SPIN_ALL: bool>(
        &mut self,
        b: &Bundle,
        spin: &Spin,
        dir: &V4,
        row: &RowW,
        d: F4,
        mask: Option<M4>,
    ) {
        let (da, db) = spin.split::<SPIN_ALL>(d);
        self.apply(
            b,
            dir.scale(d),
            row.ang_a.scale(da),
            row.ang_b.scale(db),
            mask,
        );
    }

    /// Applies an impulse `lin` (world vector, N·s) to B and its opposite to A, whose effects
    /// on the scaled angular velocities are `ang_a`, `ang_b` (zero in lanes whose body does
    /// not spin); only in the lanes of `mask` when there is one.
    #[inline(always)]
    fn apply(&mut self, b: &Bundle, lin: V4, ang_a: V4, ang_b: V4, mask: Option<M4>) {
        let va = self.va - lin.scale(b.inv_mass_a);
        let wa = self.wa - ang_a;
        let vb = self.vb + lin.scale(b.inv_mass_b);
        let wb = self.wb + ang_b;
        match mask {
            None => {
                self.va = va;
                self.wa = wa;
                self.vb = vb;
                self.wb = wb;
            }
            Some(m) => {
                self.va = V4::select(m, va, self.va);
                self.wa = V4::select(m, wa, self.wa);
                self.vb = V4::select(m, vb, self.vb);
                self.wb = V4::select(m, wb, self.wb);
            }
        }
    }
}

/// Solves the bundles `bundles` (consecutive, of one colour) for one pass, reading and writing
/// their bodies through `ptr`, whose array holds every slot the bundles name (the caller
/// checks that it is at least [`Solver::body_bound`] long). With `pairs` (any colour but the
/// overflow, whose bundles may share bodies), two bundles at a time in lockstep (see
/// [`lockstep`]); else one by one.
#[inline]
fn solve_bundles(
    bundles: &[Bundle],
    pairs: bool,
    ptr: BodiesPtr,
    pts: PointsPtr,
    p: &SolverParams,
    pass: Pass,
) {
    if !pairs {
        for bd in bundles {
            match bd.spin_all {
                true => solve_one::<true>(bd, ptr, pts, p, pass),
                false => solve_one::<false>(bd, ptr, pts, p, pass),
            }
        }
        return;
    }
    for two in bundles.chunks(2) {
        match *two {
            [ref a, ref b] => match (a.spin_all, b.spin_all) {
                (true, true) => solve_two::<true, true>(a, b, ptr, pts, p, pass),
                (true, false) => solve_two::<true, false>(a, b, ptr, pts, p, pass),
                (false, true) => solve_two::<false, true>(a, b, ptr, pts, p, pass),
                (false, false) => solve_two::<false, false>(a, b, ptr, pts, p, pass),
            },
            [ref a] => match a.spin_all {
                true => solve_one::<true>(a, ptr, pts, p, pass),
                false => solve_one::<false>(a, ptr, pts, p, pass),
            },
            _ => {}
        }
    }
}

/// One bundle for one pass ([`solve_bundles`]); `SPIN_ALL` is its `spin_all`.
#[inline(never)]
fn solve_one<const SPIN_ALL: bool>(
    bd: &Bundle,
    ptr: BodiesPtr,
    pts: PointsPtr,
    p: &SolverParams,
    pass: Pass,
) {
    // SAFETY: see `Open::new`; the bundle is alone.
    if let Some(mut a) = unsafe { Open::<SPIN_ALL>::new(bd, ptr, pts, pass) } {
        lockstep(&mut a, &mut Idle, &PassConsts::new(p, pass), pass);
        // SAFETY: see `Open::close`.
        unsafe { a.close(ptr) };
    }
}

/// Two bundles of one colour for one pass, in lockstep ([`solve_bundles`], [`lockstep`]);
/// `SA`, `SB` are their `spin_all`.
#[inline(never)]
fn solve_two<const SA: bool, const SB: bool>(
    a: &Bundle,
    b: &Bundle,
    ptr: BodiesPtr,
    pts: PointsPtr,
    p: &SolverParams,
    pass: Pass,
) {
    // SAFETY: see `Open::new`: the two bundles are of one colour (not the overflow), so they
    // touch disjoint dynamic bodies and their own points.
    let (oa, ob) = unsafe {
        (
            Open::<SA>::new(a, ptr, pts, pass),
            Open::<SB>::new(b, ptr, pts, pass),
        )
    };
    let c = PassConsts::new(p, pass);
    // SAFETY (the `close` calls): see `Open::close`.
    match (oa, ob) {
        (Some(mut x), Some(mut y)) => {
            lockstep(&mut x, &mut y, &c, pass);
            unsafe { x.close(ptr) };
            unsafe { y.close(ptr) };
        }
        (Some(mut x), None) => {
            lockstep(&mut x, &mut Idle, &c, pass);
            unsafe { x.close(ptr) };
        }
        (None, Some(mut y)) => {
            lockstep(&mut y, &mut Idle, &c, pass);
            unsafe { y.close(ptr) };
        }
        (None, None) => {}
    }
}

/// Runs one pass over two independent bundles point by point: point `k` of `a`, then point
/// `k` of `b`. Each bundle's points form one long chain of dependent operations (every
/// impulse changes the velocities the next one reads), so one bundle alone leaves the
/// processor waiting on latencies; two interleaved chains fill those waits. Each bundle does
/// exactly what it would do alone, in the same order, so the results do not change.
#[inline(always)]
fn lockstep(a: &mut impl Chain, b: &mut impl Chain, c: &PassConsts, pass: Pass) {
    let len = a.len().max(b.len());
    match pass {
        Pass::WarmStart => {
            for k in 0..len {
                a.warm(k);
                b.warm(k);
            }
        }
        // Friction first, normal last (the normal matters most).
        Pass::Solve | Pass::Relax => {
            for k in 0..len {
                a.friction(k);
                b.friction(k);
            }
            for k in 0..len {
                a.normal(k, c);
                b.normal(k, c);
            }
        }
        Pass::Restitution => {
            for k in 0..len {
                a.restitute(k, c);
                b.restitute(k, c);
            }
        }
    }
}

/// What a pass needs of [`SolverParams`], in lanes.
struct PassConsts {
    speculative_bias: F4,
    soft_bias: F4,
    soft_mass: F4,
    soft_impulse: F4,
    allowed: F4,
    max_push: F4,
    use_bias: bool,
    threshold: F4,
}

impl PassConsts {
    #[inline(always)]
    fn new(p: &SolverParams, pass: Pass) -> Self {
        let use_bias = pass == Pass::Solve;
        let (soft_bias, soft_mass, soft_impulse) = if use_bias {
            (
                F4::splat(p.soft.bias_rate),
                F4::splat(p.soft.mass_scale),
                F4::splat(p.soft.impulse_scale),
            )
        } else {
            (F4::ZERO, F4::splat(1.0), F4::ZERO)
        };
        Self {
            speculative_bias: F4::splat(p.inv_h),
            soft_bias,
            soft_mass,
            soft_impulse,
            allowed: F4::splat(p.allowed_penetration),
            max_push: F4::splat(-p.max_push),
            use_bias,
            threshold: F4::splat(-p.restitution_threshold),
        }
    }
}

/// A bundle's share of a pass, point by point (see [`lockstep`]); a point `k` beyond the
/// bundle's length is skipped.
trait Chain {
    /// Points in the bundle.
    fn len(&self) -> usize;
    /// Applies last step's impulses of point `k`.
    fn warm(&mut self, k: usize);
    /// The friction of point `k`.
    fn friction(&mut self, k: usize);
    /// The normal impulse of point `k`.
    fn normal(&mut self, k: usize, c: &PassConsts);
    /// The restitution of point `k`.
    fn restitute(&mut self, k: usize, c: &PassConsts);
}

/// No bundle (the second of [`lockstep`] when there is one only).
struct Idle;

impl Chain for Idle {
    #[inline(always)]
    fn len(&self) -> usize {
        0
    }
    #[inline(always)]
    fn warm(&mut self, _: usize) {}
    #[inline(always)]
    fn friction(&mut self, _: usize) {}
    #[inline(always)]
    fn normal(&mut self, _: usize, _: &PassConsts) {}
    #[inline(always)]
    fn restitute(&mut self, _: usize, _: &PassConsts) {}
}

/// A bundle being solved: its points, and its bodies' velocities in lanes (gathered by
/// [`Open::new`], written back by [`Open::close`]). `SPIN_ALL` is the bundle's `spin_all`.
struct Open<'a, const SPIN_ALL: bool> {
    bd: &'a Bundle,
    points: &'a [PointW],
    states: &'a mut [PointState],
    vel: Velocities,
    /// The bundle's tangents ([`tangent_lanes`] of its normal).
    tangents: [V4; 2],
    /// Which bodies spin (unused when `SPIN_ALL`).
    spin: Spin,
}

impl<'a, const SPIN_ALL: bool> Open<'a, SPIN_ALL> {
    /// Gathers the velocities of `bd`'s bodies; `None` when the pass has nothing to do for it
    /// (restitution for a bundle that cannot bounce) or its points are out of bounds.
    ///
    /// # Safety
    /// `bd`'s body slots are below the length of `ptr`'s array (the caller checked it against
    /// [`Solver::body_bound`]; only `build` sets slots, and it updates the bound), and until
    /// [`Open::close`] no other thread writes these bodies (see [`BodiesPtr`]) nor touches the
    /// bundle's points (see [`PointsPtr`]); both arrays outlive the pass.
    #[inline(always)]
    unsafe fn new(bd: &'a Bundle, ptr: BodiesPtr, pts: PointsPtr, pass: Pass) -> Option<Self> {
        if pass == Pass::Restitution && bd.restitution.eq(F4::ZERO).all() {
            return None;
        }
        // SAFETY: the caller's guarantee.
        let Some((points, states)) = (unsafe { pts.range(bd.first as usize, bd.len as usize) })
        else {
            debug_assert!(false, "bundle points out of bounds");
            return None;
        };
        let gather = |idx: &[u32; LANES]| -> (V4, V4) {
            // SAFETY: the caller's guarantee.
            velocity_lanes(&std::array::from_fn(|l| unsafe {
                *ptr.at(idx[l] as usize)
            }))
        };
        let (va, wa) = gather(&bd.a);
        let (vb, wb) = gather(&bd.b);
        let spin = if SPIN_ALL {
            Spin {
                a: M4::from_array([true; LANES]),
                b: M4::from_array([true; LANES]),
            }
        } else {
            bd.spin_masks()
        };
        Some(Self {
            bd,
            points,
            states,
            vel: Velocities { va, wa, vb, wb },
            tangents: tangent_lanes(&bd.normal),
            spin,
        })
    }

    /// Writes the velocities back into the bundle's dynamic bodies.
    ///
    /// # Safety
    /// As for [`Open::new`].
    #[inline(always)]
    unsafe fn close(self, ptr: BodiesPtr) {
        let (bd, vel) = (self.bd, &self.vel);
        // Back to one body per row (the fourth column is the zero pad).
        let rows = |v: &V4| transpose([v.x, v.y, v.z, F4::ZERO]).map(F4::to_array);
        let (va, wa, vb, wb) = (rows(&vel.va), rows(&vel.wa), rows(&vel.vb), rows(&vel.wb));
        for l in 0..LANES {
            // SAFETY: the caller's guarantee; only dynamic bodies (write_* true) are written.
            unsafe {
                if bd.write_a[l] {
                    *ptr.at(bd.a[l] as usize) = SolverBody {
                        lin: va[l],
                        ang: wa[l],
                    };
                }
                if bd.write_b[l] {
                    *ptr.at(bd.b[l] as usize) = SolverBody {
                        lin: vb[l],
                        ang: wb[l],
                    };
                }
            }
        }
    }

    /// The lanes whose point `k` exists, when the bundle has lanes with fewer points.
    #[inline(always)]
    fn mask(&self, k: usize) -> Option<M4> {
        self.bd.masked.then(|| self.bd.active(k))
    }
}

impl<const SPIN_ALL: bool> Chain for Open<'_, SPIN_ALL> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.points.len().min(self.states.len())
    }

    #[inline(always)]
    fn warm(&mut self, k: usize) {
        let (Some(cp), Some(st)) = (self.points.get(k), self.states.get(k)) else {
            return;
        };
        let (bd, spin) = (self.bd, &self.spin);
        let [t1, t2] = &self.tangents;
        let [j1, j2] = st.jt;
        let [r1, r2] = &cp.tangent;
        let jn = st.jn;
        let ((na, nb), (j1a, j1b), (j2a, j2b)) = (
            spin.split::<SPIN_ALL>(jn),
            spin.split::<SPIN_ALL>(j1),
            spin.split::<SPIN_ALL>(j2),
        );
        let mask = self.mask(k);
        self.vel.apply(
            bd,
            bd.normal.scale(jn) + t1.scale(j1) + t2.scale(j2),
            cp.normal.ang_a.scale(na) + r1.ang_a.scale(j1a) + r2.ang_a.scale(j2a),
            cp.normal.ang_b.scale(nb) + r1.ang_b.scale(j1b) + r2.ang_b.scale(j2b),
            mask,
        );
    }

    #[inline(always)]
    fn friction(&mut self, k: usize) {
        let (Some(cp), Some(st)) = (self.points.get(k), self.states.get_mut(k)) else {
            return;
        };
        let (bd, vel, spin) = (self.bd, &mut self.vel, &self.spin);
        let [t1, t2] = &self.tangents;
        let dvl = vel.vb - vel.va;
        let [r1, r2] = &cp.tangent;
        let max_f = bd.friction * st.jn;
        let old = st.jt;
        let n0 = old[0] - r1.mass * r1.velocity(t1.dot(&dvl), &vel.wa, &vel.wb);
        let n1 = old[1] - r2.mass * r2.velocity(t2.dot(&dvl), &vel.wa, &vel.wb);
        // Clamp to the Coulomb disc `|jt| ≤ μ·jn`.
        let mag2 = n0 * n0 + n1 * n1;
        let clamp = mag2.gt(max_f * max_f);
        let s = mag2.gt(F4::ZERO).select(max_f.div(mag2.sqrt()), F4::ZERO);
        let new = [clamp.select(n0 * s, n0), clamp.select(n1 * s, n1)];
        st.jt = new;
        let (d1, d2) = (new[0] - old[0], new[1] - old[1]);
        let ((d1a, d1b), (d2a, d2b)) = (spin.split::<SPIN_ALL>(d1), spin.split::<SPIN_ALL>(d2));
        let mask = bd.masked.then(|| bd.active(k));
        vel.apply(
            bd,
            t1.scale(d1) + t2.scale(d2),
            r1.ang_a.scale(d1a) + r2.ang_a.scale(d2a),
            r1.ang_b.scale(d1b) + r2.ang_b.scale(d2b),
            mask,
        );
    }

    #[inline(always)]
    fn normal(&mut self, k: usize, c: &PassConsts) {
        let (Some(cp), Some(st)) = (self.points.get(k), self.states.get_mut(k)) else {
            return;
        };
        let (bd, vel) = (self.bd, &mut self.vel);
        let n_ = &bd.normal;
        let vn = cp
            .normal
            .velocity(n_.dot(&(vel.vb - vel.va)), &vel.wa, &vel.wb);
        let s = cp.sep;
        // A speculative point (s > 0) may close the gap this step, no more; a penetrating one
        // is pushed out softly (only in the biased passes).
        let speculative = s.gt(F4::ZERO);
        let push = if c.use_bias {
            (c.soft_bias * (s + c.allowed).min(F4::ZERO)).max(c.max_push)
        } else {
            F4::ZERO
        };
        let bias = speculative.select(s * c.speculative_bias, push);
        let mass_scale = speculative.select(F4::splat(1.0), c.soft_mass);
        let impulse_scale = speculative.select(F4::ZERO, c.soft_impulse);
        let imp = -cp.normal.mass * mass_scale * (vn + bias) - impulse_scale * st.jn;
        let new = (st.jn + imp).max(F4::ZERO);
        let d = new - st.jn;
        st.jn = new;
        st.max_jn = st.max_jn.max(d);
        let mask = bd.masked.then(|| bd.active(k));
        vel.apply_row::<SPIN_ALL>(bd, &self.spin, n_, &cp.normal, d, mask);
    }

    #[inline(always)]
    fn restitute(&mut self, k: usize, c: &PassConsts) {
        let (Some(cp), Some(st)) = (self.points.get(k), self.states.get_mut(k)) else {
            return;
        };
        let (bd, vel) = (self.bd, &mut self.vel);
        // Only points that approached fast enough and took an impulse bounce.
        let bouncy = bd.restitution.eq(F4::ZERO).not();
        let skip = cp.vn0.gt(c.threshold).or(st.max_jn.eq(F4::ZERO));
        let m = skip.not().and(bouncy).and(bd.active(k));
        if !m.any() {
            return;
        }
        let n_ = &bd.normal;
        let vn = cp
            .normal
            .velocity(n_.dot(&(vel.vb - vel.va)), &vel.wa, &vel.wb);
        let imp = -cp.normal.mass * (vn + bd.restitution * cp.vn0);
        let new = (st.jn + imp).max(F4::ZERO);
        let d = new - st.jn;
        st.jn = m.select(new, st.jn);
        st.max_jn = m.select(st.max_jn.max(d), st.max_jn);
        vel.apply_row::<SPIN_ALL>(bd, &self.spin, n_, &cp.normal, d, Some(m));
    }
}

/// Two unit tangents completing each lane's normal `n` to a right-handed orthonormal basis
/// `(t1, t2, n)`; deterministic in `n` (Duff et al., "Building an Orthonormal Basis,
/// Revisited", 2017). Each lane does the operations of the scalar `tangent_basis` (the test
/// oracle) in its order, so the result is the same bit for bit.
#[inline(always)]
fn tangent_lanes(n: &V4) -> [V4; 2] {
    let one = F4::splat(1.0);
    // `n.z >= 0` (false for NaN, true for −0).
    let up = n.z.gt(F4::ZERO).or(n.z.eq(F4::ZERO));
    let sign = up.select(one, -one);
    let a = F4::splat(-1.0).div(sign + n.z);
    let b = n.x * n.y * a;
    [
        V4 {
            x: one + sign * n.x * n.x * a,
            y: sign * b,
            z: -sign * n.x,
        },
        V4 {
            x: b,
            y: sign + n.y * n.y * a,
            z: -n.y,
        },
    ]
}

/// Two unit tangents completing `n` to a right-handed orthonormal basis `(t1, t2, n)`, one
/// vector at a time: the reference for [`tangent_lanes`].
#[cfg(test)]
fn tangent_basis(n: &Vector) -> [Vector; 2] {
    let sign = if n.z >= 0.0 { 1.0 } else { -1.0 };
    let a = -1.0 / (sign + n.z);
    let b = n.x * n.y * a;
    [
        Vector::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x),
        Vector::new(b, sign + n.y * n.y * a, -n.y),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The step parameters of the solver tests: 60 Hz, contact softness 30 Hz with damping
    /// ratio 10, 5 mm allowed penetration, push-out at most 3 m/s, restitution above 1 m/s.
    fn test_params() -> SolverParams {
        SolverParams {
            inv_h: 60.0,
            soft: Softness::new(30.0, 10.0, 1.0 / 60.0),
            allowed_penetration: 0.005,
            max_push: 3.0,
            restitution_threshold: 1.0,
        }
    }

    #[test]
    fn tangent_basis_is_orthonormal() {
        let dirs = [
            Vector::x(),
            Vector::y(),
            Vector::z(),
            -Vector::z(),
            Vector::new(1.0, 2.0, -3.0).normalize(),
            Vector::new(-0.3, 0.1, -0.9).normalize(),
        ];
        for n in dirs {
            let [t1, t2] = tangent_basis(&n);
            assert!((t1.norm() - 1.0).abs() < 1e-5);
            assert!((t2.norm() - 1.0).abs() < 1e-5);
            assert!(t1.dot(&n).abs() < 1e-5 && t2.dot(&n).abs() < 1e-5 && t1.dot(&t2).abs() < 1e-5);
        }
    }

    /// The lanes' tangents are the scalar ones bit for bit, awkward normals included.
    #[test]
    fn tangent_lanes_match_tangent_basis() {
        let mut normals = vec![
            Vector::x(),
            -Vector::y(),
            Vector::z(),
            -Vector::z(),
            Vector::new(0.0, 0.0, -0.0),
            Vector::new(-0.0, 0.0, 0.0),
            Vector::zeros(),
            Vector::new(Real::NAN, 0.5, -0.5),
            Vector::new(0.3, Real::NAN, 1.0),
            Vector::new(1.0e-20, -1.0e-20, -1.0),
            Vector::new(0.0, 1.0e-45, -1.0),
        ];
        for i in 0..200 {
            let t = i as Real * 0.37;
            normals.push(Vector::new(t.sin() * t.cos(), t.cos(), (3.0 * t).sin()).normalize());
        }
        for four in normals.chunks(LANES) {
            let n = V4::from_lanes(|l| four.get(l).copied().unwrap_or_else(Vector::zeros));
            let lanes = tangent_lanes(&n);
            for (l, n) in four.iter().enumerate() {
                let scalar = tangent_basis(n);
                for i in 0..2 {
                    let (x, y) = (lanes[i].lane(l), scalar[i]);
                    let same = x
                        .iter()
                        .zip(y.iter())
                        .all(|(a, b)| a.to_bits() == b.to_bits());
                    assert!(same, "{n:?}: {x:?} vs {y:?}");
                }
            }
        }
    }

    #[test]
    fn written_out_products_match_nalgebra() {
        let m = Matrix::new(1.5, -0.25, 3.0, 0.125, 2.0, -7.5, 0.3, 0.7, -1.1);
        let r = crate::math::Rotation::from_euler_angles(0.3, -1.2, 2.0)
            .to_rotation_matrix()
            .into_inner();
        let v = Vector::new(0.2, -3.0, 1.7);
        assert_eq!(mat_vec(&m, &v), m * v);
        assert_eq!(mat_mul(&m, &r), m * r);
        assert_eq!(rotate_tensor(&r, &m), r * m * r.transpose());
    }

    /// Two bodies of 10³⁸ kg meeting at 100 m/s with 50 m/s of slip: without the effective
    /// mass cap the rows' masses (~10³⁸ kg) times those speeds overflow; with it every impulse
    /// and velocity stays finite.
    #[test]
    fn very_heavy_bodies_make_finite_impulses() {
        use crate::world::PointImpulse;
        use tumble_narrowphase::contact::{ContactPoint, Manifold};
        let heavy = |at: Vector| {
            BodyMass::new(
                1.0e-38,
                &(Matrix::identity() * 1.0e-38),
                &at,
                0.5,
                0.5,
                true,
            )
        };
        let mut solver = Solver {
            masses: vec![heavy(Vector::zeros()), heavy(Vector::new(0.0, 1.0, 0.0))],
            ..Solver::default()
        };
        let mut bodies = vec![
            SolverBody::new(Vector::new(50.0, 50.0, 0.0), Vector::zeros()),
            SolverBody::new(Vector::new(0.0, -50.0, 0.0), Vector::new(0.0, 0.0, 3.0)),
            SolverBody::ZERO,
        ];
        let mut manifold = Manifold::new(Vector::y());
        for x in [-0.5, 0.5] {
            manifold.push(ContactPoint {
                point: crate::math::Point::new(x, 0.5, 0.2),
                depth: 0.01,
                id: x.to_bits(),
            });
        }
        let pair = ContactPair {
            a: crate::BodyHandle::new(0, 0),
            b: crate::BodyHandle::new(1, 0),
            manifold,
            impulses: [PointImpulse::default(); 4],
            touching: true,
        };
        solver.colour(std::slice::from_ref(&pair), 2, |_| true);
        solver.build(&[pair], &bodies, 1.0, 2);
        let p = test_params();
        solver.solve_velocities(&mut bodies, &p, 4);
        solver.relax_and_restitute(&mut bodies, &p, 1);
        let mut seen = [0usize];
        solver.store_results(&mut seen, |seen, _, r| {
            *seen += 1;
            assert!(r.normal.is_finite() && r.normal > 0.0, "{r:?}");
            assert!(r.tangent.iter().all(|t| t.is_finite()), "{r:?}");
        });
        assert_eq!(seen, [2]);
        for b in &bodies {
            assert!(b.v().iter().chain(b.w().iter()).all(|x| x.is_finite()));
        }
    }

    /// A hub body touched by more constraints than there are colours: the last ones share it
    /// in the overflow colour, which must be solved one bundle at a time (never two in
    /// lockstep, which would lose one's write to the hub). Every impulse is equal and opposite
    /// between bodies of equal mass, so the total linear momentum must not change.
    #[test]
    fn overflow_colour_conserves_momentum() {
        use crate::world::PointImpulse;
        use tumble_narrowphase::contact::{ContactPoint, Manifold};
        let spokes = COLOURS + 9;
        let n = spokes + 1;
        let at = |i: usize| Vector::new(i as Real * 0.1, if i == 0 { 0.0 } else { 1.0 }, 0.0);
        let mut solver = Solver {
            masses: (0..n)
                .map(|i| BodyMass::new(1.0, &Matrix::identity(), &at(i), 0.5, 0.0, true))
                .collect(),
            ..Solver::default()
        };
        let mut bodies: Vec<SolverBody> = (0..n)
            .map(|i| {
                // Faster and faster, so that the overflow's spokes still push the hub.
                let v = -0.01 * (i * i) as Real;
                SolverBody::new(Vector::new(0.02 * i as Real, v, 0.0), Vector::zeros())
            })
            .collect();
        bodies.push(SolverBody::ZERO);
        let pairs: Vec<ContactPair> = (1..n)
            .map(|i| {
                let mut manifold = Manifold::new(Vector::y());
                manifold.push(ContactPoint {
                    point: crate::math::Point::new(i as Real * 0.1, 0.5, 0.0),
                    depth: 0.01,
                    id: 0,
                });
                ContactPair {
                    a: crate::BodyHandle::new(0, 0),
                    b: crate::BodyHandle::new(i as u32, 0),
                    manifold,
                    impulses: [PointImpulse::default(); 4],
                    touching: true,
                }
            })
            .collect();
        let momentum = |b: &[SolverBody]| b[..n].iter().fold(Vector::zeros(), |m, b| m + b.v());
        let before = momentum(&bodies);
        let scale: Real = bodies.iter().map(|b| b.v().norm()).sum();
        solver.colour(&pairs, n, |_| true);
        let overflow = solver.bundle_starts[COLOURS + 1] - solver.bundle_starts[COLOURS];
        assert_eq!(overflow, spokes - COLOURS);
        solver.build(&pairs, &bodies, 1.0, n as u32);
        let p = test_params();
        solver.solve_velocities(&mut bodies, &p, 4);
        solver.relax_and_restitute(&mut bodies, &p, 1);
        let after = momentum(&bodies);
        assert!(
            (after - before).norm() < 1e-5 * scale,
            "{before} -> {after}"
        );
        // The spokes pushed the hub away.
        assert!(bodies[0].v().y < -0.5, "{:?}", bodies[0].v());
    }

    /// The factor reproduces the inverse inertia (`L·Lᵀ = I⁻¹`), the rows read through it
    /// are the ones through the inverse inertia, and scaling angular velocities round-trips.
    #[test]
    fn inertia_factor_reproduces_the_tensor() {
        let r = crate::math::Rotation::from_euler_angles(0.7, -0.4, 2.2)
            .to_rotation_matrix()
            .into_inner();
        let local = Matrix::from_diagonal(&Vector::new(2.0, 0.05, 30.0));
        let world = rotate_tensor(&r, &local);
        let m = BodyMass::new(1.0, &world, &Vector::zeros(), 0.5, 0.0, true);
        assert!(m.spin);
        let u = Matrix::from_fn(|i, j| m.rows[i][j]);
        assert_eq!(u.lower_triangle(), Matrix::from_diagonal(&u.diagonal()));
        let back = u.transpose() * u;
        assert!(
            (back - world).norm() < 1e-5 * world.norm(),
            "{back} vs {world}"
        );
        let (rv, d) = (Vector::new(0.3, -0.2, 0.9), Vector::new(0.0, 0.6, 0.8));
        let c = rv.cross(&d);
        let through = c.dot(&(world * c));
        assert!(((u * c).norm_squared() - through).abs() < 1e-5 * through);
        let w = [1.5, -4.0, 0.25, 0.0];
        let round = m.unscale_angular(m.scale_angular(w));
        for i in 0..3 {
            assert!((round[i] - w[i]).abs() < 1e-5, "{round:?} vs {w:?}");
        }
        // Bodies that do not spin keep their angular velocity as it is.
        let fixed = BodyMass::new(0.0, &Matrix::zeros(), &Vector::zeros(), 0.5, 0.0, false);
        assert!(!fixed.spin);
        assert_eq!(fixed.scale_angular(w), w);
        assert_eq!(fixed.unscale_angular(w), w);
        // No usable factor: the body keeps its linear response only.
        let bad = BodyMass::new(1.0, &Matrix::zeros(), &Vector::zeros(), 0.5, 0.0, true);
        assert!(!bad.spin && bad.dynamic);
        assert!(cholesky_upper(&Matrix::from_element(Real::NAN)).is_none());
    }

    proptest::proptest! {
        /// Against a brute-force greedy colouring: every pair sits in one lane of one bundle of
        /// the colour the oracle gives it (the lowest colour free on its dynamic bodies, or the
        /// overflow), with its point count, and no two pairs of one colour (but the overflow)
        /// share a dynamic body.
        #[test]
        fn colour_matches_greedy_oracle(
            dynamic in proptest::collection::vec(proptest::bool::ANY, 2..8),
            pairs in proptest::collection::vec((0u32..8, 0u32..8, 1usize..=4), 0..300),
        ) {
            use crate::world::PointImpulse;
            use tumble_narrowphase::contact::{ContactPoint, Manifold};
            let n = dynamic.len() as u32;
            let contacts: Vec<ContactPair> = pairs
                .iter()
                .map(|&(a, b, len)| {
                    let mut manifold = Manifold::new(Vector::y());
                    for k in 0..len {
                        manifold.push(ContactPoint {
                            point: crate::math::Point::new(k as Real, 0.0, 0.0),
                            depth: 0.01,
                            id: k as u32,
                        });
                    }
                    ContactPair {
                        // Two different bodies.
                        a: crate::BodyHandle::new(a % n, 0),
                        b: crate::BodyHandle::new((a % n + 1 + b % (n - 1)) % n, 0),
                        manifold,
                        impulses: [PointImpulse::default(); 4],
                        touching: true,
                    }
                })
                .collect();
            let mut solver = Solver::default();
            solver.colour(&contacts, n as usize, |slot| dynamic[slot as usize]);
            // The oracle.
            let mut masks = vec![0u64; n as usize];
            let expected: Vec<usize> = contacts
                .iter()
                .map(|c| {
                    let bodies = [c.a.index() as usize, c.b.index() as usize];
                    let written = bodies.iter().filter(|&&i| dynamic[i]);
                    let taken = written.clone().fold(0, |m, &i| m | masks[i]);
                    let colour = (0..COLOURS).find(|&c| taken & 1 << c == 0).unwrap_or(COLOURS);
                    if colour < COLOURS {
                        written.for_each(|&i| masks[i] |= 1 << colour);
                    }
                    colour
                })
                .collect();
            let mut seen = vec![0; contacts.len()];
            for colour in 0..=COLOURS {
                let heads = &solver.heads[solver.bundle_starts[colour]..solver.bundle_starts[colour + 1]];
                let mut used = vec![false; n as usize];
                for head in heads {
                    for (l, &pair) in head.pair.iter().enumerate().filter(|(_, &p)| p != NO_PAIR) {
                        let (pair, c) = (pair as usize, &contacts[pair as usize]);
                        seen[pair] += 1;
                        proptest::prop_assert_eq!(expected[pair], colour);
                        proptest::prop_assert_eq!(head.lens[l] as usize, c.manifold.len());
                        if colour < COLOURS {
                            for i in [c.a.index() as usize, c.b.index() as usize] {
                                if dynamic[i] {
                                    proptest::prop_assert!(!used[i], "body {} twice in colour {}", i, colour);
                                    used[i] = true;
                                }
                            }
                        }
                    }
                }
            }
            proptest::prop_assert!(seen.iter().all(|&k| k == 1));
        }
    }

    #[test]
    fn softness_limits() {
        let s = Softness::new(30.0, 10.0, 1.0 / 60.0);
        assert!(s.mass_scale > 0.0 && s.mass_scale < 1.0);
        assert!(s.impulse_scale > 0.0 && s.impulse_scale < 1.0);
        assert!((s.mass_scale + s.impulse_scale - 1.0).abs() < 1e-6);
        let rigid = Softness::new(0.0, 1.0, 0.1);
        assert_eq!(rigid.mass_scale, 1.0);
    }
}
