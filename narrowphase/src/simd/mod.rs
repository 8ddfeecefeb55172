//! The project's one SIMD module: every SIMD intrinsic and every `unsafe` block that exists for
//! SIMD lives in `simd/sse.rs` (this folder's only `unsafe`), each with a `// SAFETY:` note,
//! and `simd/scalar.rs` holds its plain-Rust twin. Internal: public (and hidden from the docs) only so
//! that the engine's contact solver can use [`F4`], [`M4`], [`transpose`] and [`prefetch`]; it
//! is not part of the crate's API and may change with any release.
//!
//! # One lane type family, two widths
//!
//! Both widths are one `__m128` on x86-64 (SSE2, part of the x86-64 baseline: no run-time
//! detection is needed) and plain arrays of `Real` elsewhere:
//! - four lanes, [`F4`] with its mask [`M4`]: concrete types with operators (`+ − ·`, unary
//!   `−`) and methods, for the solver, which solves four constraints of one colour at once (as
//!   Box2D v3's `contact_solver.c` does with its `b2FloatW`, and rapier with its `SimdReal`);
//! - three lanes, the `Lanes` trait: the SAT kernels (cuboid–cuboid and triangle–cuboid boolean tests,
//!   the cuboid–cuboid contact's axis search) and the ball–ball test are written once, generic over
//!   it, and run on `Fast` (the three-lane view of an [`F4`] on x86-64, lane 3 ignored) or
//!   `Scalar` (three `Real`s). Being generic lets each kernel's tests run both backends side
//!   by side on the same random inputs; the solver's code is not generic and only needs the
//!   one type.
//!
//! The three-lane SSE backend is a thin wrapper over [`F4`]: its arithmetic, comparisons and
//! masks are [`F4`]'s and [`M4`]'s, and only its loads and lane permutations (3 × 3 transpose,
//! rotations of lanes 0..3) are intrinsics of their own. The two widths stay two APIs because
//! their scalar twins differ in width on purpose (the three-lane twin computes no fourth lane,
//! and it is what runs off x86-64), and because the kernels need the trait while the solver
//! reads best with operators on one concrete type.
//!
//! # Bit-for-bit equal backends
//!
//! Every operation is one IEEE operation per lane, in the same order on both backends: no fused
//! multiply-add (SSE2 has none and Rust never contracts `a * b + c`), no reassociation, IEEE
//! division and square root. `min` and `max` follow SSE's rule on both:
//! `max(a, b) = if a > b { a } else { b }`, `min(a, b) = if a < b { a } else { b }`, so a NaN in
//! either or a ±0 tie gives `b`. Comparisons are false on NaN. So a kernel gives the same bits
//! on either backend; the tests below check every operation of both widths on awkward inputs
//! (signed zeros, NaN, infinities, denormals, ties), and each kernel's tests compare the two
//! backends on random inputs.
//!
//! Lane permutations are named after where lane `j` reads from: `Lanes::next1` puts lane
//! `(j + 1) % 3` in lane `j`, `Lanes::next2` lane `(j + 2) % 3`.

mod scalar;
#[cfg(target_arch = "x86_64")]
mod sse;

use crate::math::{Isometry, Point, Real, Vector};

/// Number of lanes of [`F4`] and [`M4`]: the constraints the solver solves together.
pub const LANES: usize = 4;

#[cfg(target_arch = "x86_64")]
pub use sse::{prefetch, transpose, F4, M4};

#[cfg(not(target_arch = "x86_64"))]
pub use scalar::{prefetch, transpose, F4, M4};

// The three-lane twin: the backend off x86-64, the reference of the tests on it.
#[cfg(any(test, not(target_arch = "x86_64")))]
pub(crate) use scalar::Scalar;

/// The three-lane backend the kernels run on for this target.
#[cfg(target_arch = "x86_64")]
pub(crate) type Fast = sse::Sse;
/// The three-lane backend the kernels run on for this target.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) type Fast = Scalar;

/// Three values processed together (see the module docs).
pub(crate) trait Lanes: Copy {
    /// The result of a lane-wise comparison.
    type Mask: Copy;
    /// Lanes `(x, y, z)`.
    fn new(x: Real, y: Real, z: Real) -> Self;
    /// Lanes `(x, y, z)` of a vector read from memory (on SSE one 8-byte load, one 4-byte
    /// load and one shuffle; building it from three `Real`s took two shuffles).
    fn load(v: &Vector) -> Self;
    /// Lanes `(x, y, z)`, `w` kept where no result reads it (SSE: lane 3), so that four
    /// values next to each other in memory (a quaternion) load in one instruction.
    fn new_w(x: Real, y: Real, z: Real, w: Real) -> Self;
    /// `b.translation − a.translation`: on SSE two loads of four values (the last quaternion
    /// entry and the translation), one subtraction and one shuffle.
    fn translation_difference(a: &Isometry, b: &Isometry) -> Self;
    /// The dot product of the two poses' rotation quaternions as 4-vectors, in every lane,
    /// summed as `(i i' + k k') + (j j' + w w')` (on SSE one product, two shuffles, two sums).
    fn rotation_dot(a: &Isometry, b: &Isometry) -> Self;
    /// `v` in every lane.
    fn splat(v: Real) -> Self;
    /// Lane-wise `self + o`.
    fn add(self, o: Self) -> Self;
    /// Lane-wise `self − o`.
    fn sub(self, o: Self) -> Self;
    /// Lane-wise `self · o`.
    fn mul(self, o: Self) -> Self;
    /// Lane-wise `self / o` (IEEE division, as the scalar `/`).
    fn div(self, o: Self) -> Self;
    /// Lane-wise square root (IEEE, as [`Real::sqrt`]).
    fn sqrt(self) -> Self;
    /// Lanes 0, 1, 2 as an array.
    fn to_array(self) -> [Real; 3];
    /// Lane-wise `|self|`.
    fn abs(self) -> Self;
    /// Lane-wise `−self` (the sign bit flipped).
    fn neg(self) -> Self;
    /// Lane-wise `if self < o { self } else { o }` (SSE `minps`; `o` when either is NaN).
    fn min(self, o: Self) -> Self;
    /// Lane-wise `if self > o { self } else { o }` (SSE `maxps`; `o` when either is NaN).
    fn max(self, o: Self) -> Self;
    /// Lane 0, lane 1 and lane 2, each in every lane.
    fn splats(self) -> [Self; 3];
    /// Lane 0 of `a`, of `b` and of `c`, in lanes 0, 1, 2.
    fn firsts(a: Self, b: Self, c: Self) -> Self;
    /// Three points `v`, each in lanes x, y, z (on SSE three loads and one shuffle).
    fn points(v: &[Point; 3]) -> [Self; 3];
    /// The 3 × 3 transpose: lane `j` of result `k` is lane `k` of `v[j]` (from three vectors,
    /// each in lanes x, y, z, to their x's, y's and z's, each in lanes 0, 1, 2, the layout in
    /// which a kernel works on three points at once; and back).
    fn transpose(v: [Self; 3]) -> [Self; 3];
    /// Lane `j` gets lane `(j + 1) % 3`.
    fn next1(self) -> Self;
    /// Lane `j` gets lane `(j + 2) % 3`.
    fn next2(self) -> Self;
    /// Lane-wise `self > o` (false on NaN).
    fn gt(self, o: Self) -> Self::Mask;
    /// Lane-wise OR of two masks.
    fn or(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// True when some lane of the mask is set.
    fn any(m: Self::Mask) -> bool;

    /// `self × o` as 3-vectors (lanes x, y, z): lane `k` is `a₍ₖ₊₁₎ b₍ₖ₊₂₎ − a₍ₖ₊₂₎ b₍ₖ₊₁₎`
    /// (indices mod 3, `a = self`, `b = o`). (The three-permutation form
    /// `(a · b.next1() − a.next1() · b).next1()` gives the same bits with one permutation
    /// fewer when several cross products share `a`, but puts a permutation after the
    /// products: in the relative pose, one uop fewer per cuboid–cuboid call ran 3 % slower in cache.)
    #[inline(always)]
    fn cross(self, o: Self) -> Self {
        self.next1().mul(o.next2()).sub(self.next2().mul(o.next1()))
    }
}

/// A vector's `x, y, z` in lanes.
#[inline(always)]
pub(crate) fn vector<L: Lanes>(v: &Vector) -> L {
    L::load(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Awkward values: signed zeros, NaN, infinities, denormals, ties.
    const AWKWARD: [Real; 12] = [
        0.0,
        -0.0,
        Real::NAN,
        Real::INFINITY,
        Real::NEG_INFINITY,
        1.0e-40,
        -1.0e-40,
        1.5,
        -2.25,
        3.0e7,
        1.0,
        1.0,
    ];

    /// Four-lane inputs mixing the awkward values.
    fn quads() -> Vec<[Real; LANES]> {
        (0..AWKWARD.len())
            .map(|i| std::array::from_fn(|l| AWKWARD[(i + 5 * l) % AWKWARD.len()]))
            .collect()
    }

    fn same<const N: usize>(x: [Real; N], y: [Real; N]) -> bool {
        x.iter().zip(&y).all(|(a, b)| a.to_bits() == b.to_bits())
    }

    /// The four-lane SIMD type and its scalar twin agree bit for bit on every operation, and
    /// the scalar twin is the scalar operation per lane.
    #[test]
    fn four_lanes_match_the_scalar_twin() {
        use scalar::{F4 as S, M4 as SM};
        for a in quads() {
            for b in quads() {
                let (fa, fb, sa, sb) = (
                    F4::from_array(a),
                    F4::from_array(b),
                    S::from_array(a),
                    S::from_array(b),
                );
                let pairs = [
                    ((fa + fb).to_array(), (sa + sb).to_array()),
                    ((fa - fb).to_array(), (sa - sb).to_array()),
                    ((fa * fb).to_array(), (sa * sb).to_array()),
                    (fa.div(fb).to_array(), sa.div(sb).to_array()),
                    (fa.max(fb).to_array(), sa.max(sb).to_array()),
                    (fa.min(fb).to_array(), sa.min(sb).to_array()),
                    (fa.sqrt().to_array(), sa.sqrt().to_array()),
                    (fa.abs().to_array(), sa.abs().to_array()),
                    ((-fa).to_array(), (-sa).to_array()),
                    (F4::splat(a[1]).to_array(), S::splat(a[1]).to_array()),
                    (
                        fa.gt(fb).select(fa, fb).to_array(),
                        sa.gt(sb).select(sa, sb).to_array(),
                    ),
                    (
                        fa.eq(fb).not().select(fa, fb).to_array(),
                        sa.eq(sb).not().select(sa, sb).to_array(),
                    ),
                    (
                        fa.gt(fb).or(fa.eq(fb)).select(fa, fb).to_array(),
                        sa.gt(sb).or(sa.eq(sb)).select(sa, sb).to_array(),
                    ),
                    (
                        fa.gt(fb).and(fb.eq(fb)).select(fa, fb).to_array(),
                        sa.gt(sb).and(sb.eq(sb)).select(sa, sb).to_array(),
                    ),
                ];
                for (i, (x, y)) in pairs.into_iter().enumerate() {
                    assert!(same(x, y), "op {i}: {a:?} {b:?}: {x:?} vs {y:?}");
                }
                let scalar_sum: [Real; LANES] = std::array::from_fn(|l| a[l] + b[l]);
                assert!(same((sa + sb).to_array(), scalar_sum));
                assert_eq!(fa.gt(fb).any(), sa.gt(sb).any());
                assert_eq!(fa.eq(fb).all(), sa.eq(sb).all());
            }
        }
        for bits in 0..16u32 {
            let m: [bool; LANES] = std::array::from_fn(|l| bits >> l & 1 == 1);
            let (fm, sm) = (M4::from_array(m), SM::from_array(m));
            assert_eq!((fm.any(), fm.all()), (sm.any(), sm.all()), "{m:?}");
            assert_eq!((fm.any(), fm.all()), (bits != 0, bits == 15), "{m:?}");
        }
        let rows = quads();
        let cols = transpose([0, 1, 2, 3].map(|i| F4::from_array(rows[i])));
        let twin = scalar::transpose([0, 1, 2, 3].map(|i| S::from_array(rows[i])));
        for c in 0..LANES {
            let mut set = F4::ZERO;
            let mut set_twin = S::ZERO;
            for (l, &x) in rows[c].iter().enumerate() {
                set.set_lane(l, x);
                set_twin.set_lane(l, x);
            }
            assert!(same(set.to_array(), rows[c]) && same(set_twin.to_array(), rows[c]));
            assert!(same(cols[c].to_array(), twin[c].to_array()));
            assert!(same(
                cols[c].to_array(),
                std::array::from_fn(|l| rows[l][c])
            ));
        }
        assert!(same(F4::default().to_array(), [0.0; LANES]));
        assert!(same(S::default().to_array(), [0.0; LANES]));
    }

    /// The three-lane backend of this target ([`Fast`]) and [`Scalar`] agree bit for bit on
    /// every operation of [`Lanes`], and [`Scalar`] is the scalar operation per lane.
    #[test]
    fn three_lanes_match_the_scalar_twin() {
        let triples: Vec<[Real; 3]> = quads().iter().map(|q| [q[0], q[1], q[2]]).collect();
        let both = |v: [Real; 3]| (Fast::new(v[0], v[1], v[2]), Scalar::new(v[0], v[1], v[2]));
        for &a in &triples {
            let (fa, sa) = both(a);
            assert!(same(sa.to_array(), a));
            let w = Fast::new_w(a[0], a[1], a[2], a[0]);
            assert!(same(
                w.to_array(),
                Scalar::new_w(a[0], a[1], a[2], a[0]).to_array()
            ));
            assert!(same(
                Fast::splat(a[2]).to_array(),
                Scalar::splat(a[2]).to_array()
            ));
            let unary = [
                (fa.sqrt(), sa.sqrt()),
                (fa.abs(), sa.abs()),
                (fa.neg(), sa.neg()),
                (fa.next1(), sa.next1()),
                (fa.next2(), sa.next2()),
            ];
            for (i, (x, y)) in unary.into_iter().enumerate() {
                assert!(same(x.to_array(), y.to_array()), "unary op {i}: {a:?}");
            }
            assert!(same(sa.abs().to_array(), a.map(Real::abs)));
            assert!(same(sa.next1().to_array(), [a[1], a[2], a[0]]));
            for (x, y) in fa.splats().into_iter().zip(sa.splats()) {
                assert!(same(x.to_array(), y.to_array()), "splats: {a:?}");
            }
            for &b in &triples {
                let (fb, sb) = both(b);
                let binary = [
                    (fa.add(fb), sa.add(sb)),
                    (fa.sub(fb), sa.sub(sb)),
                    (fa.mul(fb), sa.mul(sb)),
                    (fa.div(fb), sa.div(sb)),
                    (fa.min(fb), sa.min(sb)),
                    (fa.max(fb), sa.max(sb)),
                    (fa.cross(fb), sa.cross(sb)),
                    (Fast::firsts(fa, fb, fa), Scalar::firsts(sa, sb, sa)),
                ];
                for (i, (x, y)) in binary.into_iter().enumerate() {
                    assert!(same(x.to_array(), y.to_array()), "op {i}: {a:?} {b:?}");
                }
                // The cross product is the textbook one, lane by lane, bit for bit.
                assert!(same(
                    sa.cross(sb).to_array(),
                    std::array::from_fn(|k| {
                        let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
                        a[k1] * b[k2] - a[k2] * b[k1]
                    })
                ));
                assert!(same(
                    sa.max(sb).to_array(),
                    std::array::from_fn(|l| if a[l] > b[l] { a[l] } else { b[l] })
                ));
                let (fg, sg) = (fa.gt(fb), sa.gt(sb));
                assert_eq!(Fast::any(fg), Scalar::any(sg), "gt: {a:?} {b:?}");
                let (fo, so) = (Fast::or(fg, fb.gt(fa)), Scalar::or(sg, sb.gt(sa)));
                assert_eq!(Fast::any(fo), Scalar::any(so), "or: {a:?} {b:?}");
                assert_eq!(Scalar::any(sg), (0..3).any(|l| a[l] > b[l]));
            }
        }
        // One lane set at a time: `any` sees each of lanes 0..3 (and, on SSE, not lane 3).
        for l in 0..3 {
            let v: [Real; 3] = std::array::from_fn(|k| if k == l { 1.0 } else { 0.0 });
            let (fv, sv) = both(v);
            assert!(Fast::any(fv.gt(Fast::splat(0.5))) && Scalar::any(sv.gt(Scalar::splat(0.5))));
        }
        assert!(!Fast::any(
            Fast::new_w(0.0, 0.0, 0.0, 1.0).gt(Fast::splat(0.5))
        ));
        for t in triples.windows(3) {
            let (f, s) = (
                [t[0], t[1], t[2]].map(|v| both(v).0),
                [t[0], t[1], t[2]].map(|v| both(v).1),
            );
            for (x, y) in Fast::transpose(f).into_iter().zip(Scalar::transpose(s)) {
                assert!(same(x.to_array(), y.to_array()), "transpose: {t:?}");
            }
            assert!(same(
                Scalar::transpose(s)[1].to_array(),
                [t[0][1], t[1][1], t[2][1]]
            ));
            let points = [0, 1, 2].map(|k| Point::new(t[k][0], t[k][1], t[k][2]));
            for (k, (x, y)) in Fast::points(&points)
                .into_iter()
                .zip(Scalar::points(&points))
                .enumerate()
            {
                assert!(same(x.to_array(), y.to_array()), "points: {t:?}");
                assert!(same(y.to_array(), t[k]));
            }
            let v = Vector::new(t[0][0], t[0][1], t[0][2]);
            assert!(same(vector::<Fast>(&v).to_array(), t[0]));
            assert!(same(Fast::load(&v).to_array(), Scalar::load(&v).to_array()));
            assert!(same(Scalar::load(&v).to_array(), t[0]));
        }
    }

    /// The pose loads ([`Lanes::translation_difference`], [`Lanes::rotation_dot`]) agree with
    /// the scalar twin, which is the documented sum.
    #[test]
    fn three_lane_pose_loads_match_the_scalar_twin() {
        use crate::math::{Rotation, Translation};
        let values = [0.0, -0.0, 1.5, -2.25, 3.0e7, 1.0e-40, 0.1, -0.7];
        for k in 0..values.len() {
            let v = |i: usize| values[(k + 3 * i) % values.len()];
            let q = |o: usize| {
                Rotation::new_unchecked(nalgebra::Quaternion::new(
                    v(o),
                    v(o + 1),
                    v(o + 2),
                    v(o + 3),
                ))
            };
            let a = Isometry::from_parts(Translation::new(v(4), v(5), v(6)), q(0));
            let b = Isometry::from_parts(Translation::new(v(7), v(1), v(2)), q(5));
            let d = Scalar::translation_difference(&a, &b).to_array();
            assert!(same(Fast::translation_difference(&a, &b).to_array(), d));
            let t = b.translation.vector - a.translation.vector;
            assert!(same(d, [t.x, t.y, t.z]));
            let r = Scalar::rotation_dot(&a, &b).to_array();
            assert!(same(Fast::rotation_dot(&a, &b).to_array(), r));
            let (p, s) = (&a.rotation, &b.rotation);
            assert!(same(
                r,
                [(p.i * s.i + p.k * s.k) + (p.j * s.j + p.w * s.w); 3]
            ));
        }
    }
}
