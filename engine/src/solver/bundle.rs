//! Constraint rows, bundles of four constraints solved lane by lane, and their build.

use super::lanes::{F4, LANES, M3W, M4, V4};
use tumble_narrowphase::math::Real;

/// Largest effective mass of a row, kg. An impulse is an effective mass times a speed, so
/// without a cap two very heavy bodies (masses near `Real::MAX`) would overflow to infinite
/// impulses at everyday speeds; with it, impulses stay finite below 3·10⁸ m/s. Rows of bodies
/// lighter than about 10³⁰ kg are not affected; heavier ones are solved as if that light (their
/// contacts stop them more slowly).
pub(super) const MAX_EFFECTIVE_MASS: Real = 1.0e30;

/// One row of a contact point along a unit direction `d` (the normal or a tangent), four lanes,
/// with the angular parts of its Jacobian precomputed in scaled form (see [`BodyMass`]) so that
/// the solver passes need only dot products and scaled additions (no cross products, no
/// inertia products).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RowW {
    /// `La^T·(ra × d)` and `Lb^T·(rb × d)` (1/kg^½; `ra × d`, `rb × d` in metres for bodies that
    /// do not spin): the relative velocity along `d` is `d·(vb − va) + ang_b·w̃b − ang_a·w̃a`,
    /// and an impulse `λ` along `d` changes `w̃a` by `−λ·ang_a` and `w̃b` by `+λ·ang_b` (for
    /// bodies that spin).
    pub(super) ang_a: V4,
    pub(super) ang_b: V4,
    /// Effective mass along `d`, kg (0 when both bodies are immovable).
    pub(super) mass: F4,
}

impl RowW {
    /// The row of anchors `ra`, `rb` (relative to the centres of mass, world frame) along `d`,
    /// for bodies of inverse masses summing to `inv_mass`, transposed inverse-inertia factors
    /// `ua`, `ub`, spinning in the lanes of `spin_a`, `spin_b`; zero in the lanes outside
    /// `keep`. Also returns the unscaled `ra × d` and `rb × d`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn new(
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
    pub(super) fn velocity(&self, lin: F4, wa: &V4, wb: &V4) -> F4 {
        lin + self.ang_b.dot(wb) - self.ang_a.dot(wa)
    }
}

/// The angular parts of a friction row of a contact point, four lanes (see [`RowW`]; the
/// effective masses of the two friction rows are solved together, from [`PointW::tk`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TangentW {
    pub(super) ang_a: V4,
    pub(super) ang_b: V4,
}

impl TangentW {
    /// Relative velocity along the row (see [`RowW::velocity`]).
    #[inline(always)]
    pub(super) fn velocity(&self, lin: F4, wa: &V4, wb: &V4) -> F4 {
        lin + self.ang_b.dot(wb) - self.ang_a.dot(wa)
    }
}

/// What the passes only read of point `k` of the four constraints of a [`Bundle`] (structure
/// of arrays; lanes whose constraint has fewer points are zero). What they change is in the
/// [`PointState`] of the same index.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PointW {
    pub(super) normal: RowW,
    pub(super) tangent: [TangentW; 2],
    /// The friction block `K = J·M⁻¹·Jᵀ` of the two tangent rows, 1/kg: `[k₁₁, k₂₂, k₁₂]`
    /// (how an impulse along one tangent changes the relative velocity along each).
    pub(super) tk: [F4; 3],
    /// Separation at the start of the step, metres (negative when penetrating).
    pub(super) sep: F4,
    /// Relative normal velocity at the start of the step, m/s (for restitution).
    pub(super) vn0: F4,
}

/// The accumulated impulses of point `k` of the four constraints of a [`Bundle`], N·s: what
/// the passes write, kept apart from the rows they only read ([`PointW`]) on one cache line of
/// its own, so that a pass dirties one line per point and storing the results reads one.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(crate) struct PointState {
    /// Normal impulse (≥ 0).
    pub(super) jn: F4,
    /// Friction impulses along the bundle's two tangents.
    pub(super) jt: [F4; 2],
    /// Largest normal impulse applied during this step.
    pub(super) max_jn: F4,
}

/// Marks an empty lane of a bundle.
pub(super) const NO_PAIR: u32 = u32::MAX;

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
    pub(super) a: [u32; LANES],
    pub(super) b: [u32; LANES],
    pub(super) write_a: [bool; LANES],
    pub(super) write_b: [bool; LANES],
    /// Points per lane.
    pub(super) lens: [u8; LANES],
    /// The bundle's points are `Solver::points[first..first + len]`.
    pub(super) first: u32,
    pub(super) len: u8,
    /// Whether some lane with bodies has fewer than `len` points: its missing points must not
    /// touch its velocities (not even by adding a zero, which may turn −0 into +0).
    pub(super) masked: bool,
    /// Whether both bodies of every lane spin: the passes then skip the masking of angular
    /// impulses (see [`Spin`]).
    pub(super) spin_all: bool,
    /// Bit `l`: lane `l`'s body A spins (takes angular impulses); bit `4 + l`: its body B.
    pub(super) spin_bits: u8,
    /// Contact normal per lane, unit, from A to B (world frame).
    pub(super) normal: V4,
    pub(super) friction: F4,
    pub(super) restitution: F4,
    pub(super) inv_mass_a: F4,
    pub(super) inv_mass_b: F4,
}

impl Bundle {
    pub(super) fn new(lens: [u8; LANES], first: u32) -> Self {
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
    pub(super) fn spin_masks(&self) -> Spin {
        let bit = |i: usize| self.spin_bits & (1 << i) != 0;
        Spin {
            a: M4::from_array(std::array::from_fn(bit)),
            b: M4::from_array(std::array::from_fn(|l| bit(LANES + l))),
        }
    }

    /// The lanes whose point `k` exists.
    #[inline(always)]
    pub(super) fn active(&self, k: usize) -> M4 {
        M4::from_array(std::array::from_fn(|l| k < self.lens[l] as usize))
    }
}

/// The lanes of a bundle whose body A (B) spins: only those take angular impulses.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spin {
    pub(super) a: M4,
    pub(super) b: M4,
}

impl Spin {
    /// `x` in the lanes whose body A spins (zero elsewhere), and the same for B: the angular
    /// share of an impulse `x`. `SPIN_ALL` says that every lane's bodies spin (the bundle's
    /// `spin_all`), so that every lane keeps `x` (the same lanes, without the selects).
    #[inline(always)]
    pub(super) fn split<const SPIN_ALL: bool>(&self, x: F4) -> (F4, F4) {
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
pub(super) struct BundleHead {
    pub(super) pair: [u32; LANES],
    pub(super) lens: [u8; LANES],
    pub(super) first: u32,
}

/// Two unit tangents completing each lane's normal `n` to a right-handed orthonormal basis
/// `(t1, t2, n)`; deterministic in `n` (Duff et al., "Building an Orthonormal Basis,
/// Revisited", 2017). Each lane does the operations of the scalar `tangent_basis` (the test
/// oracle) in its order, so the result is the same bit for bit.
#[inline(always)]
pub(super) fn tangent_lanes(n: &V4) -> [V4; 2] {
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
pub(super) fn tangent_basis(
    n: &tumble_narrowphase::math::Vector,
) -> [tumble_narrowphase::math::Vector; 2] {
    let sign = if n.z >= 0.0 { 1.0 } else { -1.0 };
    let a = -1.0 / (sign + n.z);
    let b = n.x * n.y * a;
    [
        tumble_narrowphase::math::Vector::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x),
        tumble_narrowphase::math::Vector::new(b, sign + n.y * n.y * a, -n.y),
    ]
}

/// The bundles of the last colouring, colour by colour, and their points: what the passes read
/// (`points`) and, at the same indices, what they write (`states`).
#[derive(Default)]
pub(super) struct Constraints {
    pub(super) bundles: Vec<Bundle>,
    pub(super) points: Vec<PointW>,
    pub(super) states: Vec<PointState>,
}

impl Constraints {
    /// Room for `bundles` bundles of `points` points in all. `build` writes every bundle and
    /// every point, so resizing writes only the new tails, and the buffers are reused without
    /// clearing.
    pub(super) fn resize(&mut self, bundles: usize, points: usize) {
        self.bundles.resize(bundles, Bundle::new([0; LANES], 0));
        self.points.resize(points, PointW::default());
        self.states.resize(points, PointState::default());
    }
}
