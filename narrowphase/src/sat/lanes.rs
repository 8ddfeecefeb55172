//! Three-lane arithmetic for the boolean SAT kernels: the one place of the crate with SIMD.
//!
//! A kernel (e.g. [`super::box_box::overlap_poses`]) is written once, generic over [`Lanes`],
//! and runs on one of two backends:
//! - [`Scalar`], three `Real`s: the reference, and what runs on targets other than x86_64;
//! - `Sse` (x86_64 only), one `__m128` whose lanes 0..3 hold the three values (lane 3 is
//!   ignored). SSE2 is part of the x86_64 baseline: no run-time detection is needed.
//!
//! Both backends do the same IEEE operation per lane in the same order (no fused
//! multiply-add: SSE2 has none and Rust never contracts `a * b + c`), and `>` is false on NaN
//! in both, so a kernel gives bit-identical results on either; the tests of each kernel check
//! it on random inputs.
//!
//! Lane permutations are named after where lane `j` reads from: [`Lanes::next1`] puts lane
//! `(j + 1) % 3` in lane `j`, [`Lanes::next2`] lane `(j + 2) % 3`.

use crate::math::{Isometry, Real, Vector};

/// Three values processed together (see the module docs).
pub(crate) trait Lanes: Copy {
    /// The result of a lane-wise comparison.
    type Mask: Copy;
    /// Lanes `(x, y, z)`.
    fn new(x: Real, y: Real, z: Real) -> Self;
    /// `v` in every lane.
    fn splat(v: Real) -> Self;
    /// Lane-wise `self + o`.
    fn add(self, o: Self) -> Self;
    /// Lane-wise `self − o`.
    fn sub(self, o: Self) -> Self;
    /// Lane-wise `self · o`.
    fn mul(self, o: Self) -> Self;
    /// Lane-wise `|self|`.
    fn abs(self) -> Self;
    /// Lane-wise `if self < o { self } else { o }` (SSE `minps`; `o` when either is NaN).
    fn min(self, o: Self) -> Self;
    /// Lane-wise `if self > o { self } else { o }` (SSE `maxps`; `o` when either is NaN).
    fn max(self, o: Self) -> Self;
    /// `(x + y) + z`.
    fn sum(self) -> Real;
    /// Lane `j` gets lane `(j + 1) % 3`.
    fn next1(self) -> Self;
    /// Lane `j` gets lane `(j + 2) % 3`.
    fn next2(self) -> Self;
    /// Lane-wise `self > o` (false on NaN).
    fn gt(self, o: Self) -> Self::Mask;
    /// Lane-wise `self >= o` (false on NaN).
    fn ge(self, o: Self) -> Self::Mask;
    /// Lane-wise OR of two masks.
    fn or(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Lane-wise AND of two masks.
    fn and(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// Lane-wise `if m { a } else { b }`: the bits of one or the other, no arithmetic.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// True when some lane of the mask is set.
    fn any(m: Self::Mask) -> bool;

    /// `self × o` as 3-vectors (lanes x, y, z).
    #[inline(always)]
    fn cross(self, o: Self) -> Self {
        self.next1().mul(o.next2()).sub(self.next2().mul(o.next1()))
    }
}

/// The pose of B in A's frame, `A⁻¹ B`, as a quaternion `(s, w)` (vector part in lanes) and a
/// translation: `q = conj(q_a) q_b = (w_a v_b − w_b v_a − v_a × v_b, w_a w_b + v_a · v_b)`,
/// `t = conj(q_a) (t_b − t_a) = d + 2 (v_a × c − w_a c)` with `c = v_a × d`, `d = t_b − t_a`
/// (Rodrigues' form for a unit quaternion).
#[inline(always)]
pub(crate) fn relative_pose<L: Lanes>(pose_a: &Isometry, pose_b: &Isometry) -> (L, Real, L) {
    let (qa, qb) = (&pose_a.rotation, &pose_b.rotation);
    let (va, vb) = (L::new(qa.i, qa.j, qa.k), L::new(qb.i, qb.j, qb.k));
    let (wa, wb) = (qa.w, qb.w);
    let s = L::splat(wa)
        .mul(vb)
        .sub(L::splat(wb).mul(va))
        .sub(va.cross(vb));
    let w = wa * wb + (qa.i * qb.i + qa.j * qb.j + qa.k * qb.k);
    let d = vector::<L>(&pose_b.translation.vector).sub(vector(&pose_a.translation.vector));
    let c = va.cross(d);
    let t = d.add(L::splat(2.0).mul(va.cross(c).sub(L::splat(wa).mul(c))));
    (s, w, t)
}

/// `v` rotated by the unit quaternion `(s, w)`: `v + 2 (w c + s × c)` with `c = s × v`.
#[inline(always)]
pub(crate) fn rotate<L: Lanes>(s: L, w: Real, v: L) -> L {
    let c = s.cross(v);
    v.add(L::splat(2.0).mul(L::splat(w).mul(c).add(s.cross(c))))
}

/// A vector's `x, y, z` in lanes.
#[inline(always)]
pub(crate) fn vector<L: Lanes>(v: &Vector) -> L {
    L::new(v.x, v.y, v.z)
}

/// The scalar backend: plain `Real`s, the reference of every kernel. On x86_64 only the
/// tests run it (against [`Fast`]); elsewhere it is [`Fast`].
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scalar(pub [Real; 3]);

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
impl Scalar {
    #[inline(always)]
    fn map(self, f: impl Fn(Real) -> Real) -> Self {
        Scalar(self.0.map(f))
    }

    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(Real, Real) -> Real) -> Self {
        let (a, b) = (self.0, o.0);
        Scalar([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2])])
    }
}

impl Lanes for Scalar {
    type Mask = [bool; 3];
    #[inline(always)]
    fn new(x: Real, y: Real, z: Real) -> Self {
        Scalar([x, y, z])
    }
    #[inline(always)]
    fn splat(v: Real) -> Self {
        Scalar([v; 3])
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.zip(o, |a, b| a + b)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, |a, b| a - b)
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self.zip(o, |a, b| a * b)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        self.map(Real::abs)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        self.zip(o, |a, b| if a < b { a } else { b })
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        self.zip(o, |a, b| if a > b { a } else { b })
    }
    #[inline(always)]
    fn sum(self) -> Real {
        let a = self.0;
        a[0] + a[1] + a[2]
    }
    #[inline(always)]
    fn next1(self) -> Self {
        let a = self.0;
        Scalar([a[1], a[2], a[0]])
    }
    #[inline(always)]
    fn next2(self) -> Self {
        let a = self.0;
        Scalar([a[2], a[0], a[1]])
    }
    #[inline(always)]
    fn gt(self, o: Self) -> [bool; 3] {
        let (a, b) = (self.0, o.0);
        [a[0] > b[0], a[1] > b[1], a[2] > b[2]]
    }
    #[inline(always)]
    fn ge(self, o: Self) -> [bool; 3] {
        let (a, b) = (self.0, o.0);
        [a[0] >= b[0], a[1] >= b[1], a[2] >= b[2]]
    }
    #[inline(always)]
    fn or(a: [bool; 3], b: [bool; 3]) -> [bool; 3] {
        [a[0] | b[0], a[1] | b[1], a[2] | b[2]]
    }
    #[inline(always)]
    fn and(a: [bool; 3], b: [bool; 3]) -> [bool; 3] {
        [a[0] & b[0], a[1] & b[1], a[2] & b[2]]
    }
    #[inline(always)]
    fn select(m: [bool; 3], a: Self, b: Self) -> Self {
        let (a, b) = (a.0, b.0);
        Scalar([0, 1, 2].map(|k| if m[k] { a[k] } else { b[k] }))
    }
    #[inline(always)]
    fn any(m: [bool; 3]) -> bool {
        m[0] | m[1] | m[2]
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use sse::Sse;

/// The x86_64 backend: SSE/SSE2 intrinsics on one `__m128`.
#[cfg(target_arch = "x86_64")]
mod sse {
    use super::Lanes;
    use crate::math::Real;
    use std::arch::x86_64::*;

    /// Three lanes in an SSE register (lane 3 ignored).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Sse(__m128);

    // Every `unsafe` block below calls one SSE or SSE2 intrinsic on register values only (no
    // pointer). SAFETY, for all of them: SSE and SSE2 are baseline features of the x86_64
    // target, so every x86_64 processor executes these instructions.
    impl Lanes for Sse {
        type Mask = __m128;
        #[inline(always)]
        fn new(x: Real, y: Real, z: Real) -> Self {
            // SAFETY: SSE baseline on x86_64 (see the note above the impl).
            Sse(unsafe { _mm_setr_ps(x, y, z, 0.0) })
        }
        #[inline(always)]
        fn splat(v: Real) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_set1_ps(v) })
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_add_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_sub_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_mul_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            // Clear the sign bits.
            // SAFETY: SSE/SSE2 baseline on x86_64.
            Sse(unsafe { _mm_and_ps(self.0, _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff))) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn sum(self) -> Real {
            // (lane 0 + lane 1) + lane 2, as scalar additions.
            // SAFETY: SSE baseline on x86_64.
            unsafe {
                let y = _mm_shuffle_ps::<0b01_01_01_01>(self.0, self.0);
                let z = _mm_shuffle_ps::<0b10_10_10_10>(self.0, self.0);
                _mm_cvtss_f32(_mm_add_ss(_mm_add_ss(self.0, y), z))
            }
        }
        #[inline(always)]
        fn next1(self) -> Self {
            // Lanes (1, 2, 0, 3).
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_shuffle_ps::<0b11_00_10_01>(self.0, self.0) })
        }
        #[inline(always)]
        fn next2(self) -> Self {
            // Lanes (2, 0, 1, 3).
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_shuffle_ps::<0b11_01_00_10>(self.0, self.0) })
        }
        #[inline(always)]
        fn gt(self, o: Self) -> __m128 {
            // SAFETY: SSE baseline on x86_64.
            unsafe { _mm_cmpgt_ps(self.0, o.0) }
        }
        #[inline(always)]
        fn ge(self, o: Self) -> __m128 {
            // SAFETY: SSE baseline on x86_64.
            unsafe { _mm_cmpge_ps(self.0, o.0) }
        }
        #[inline(always)]
        fn or(a: __m128, b: __m128) -> __m128 {
            // SAFETY: SSE baseline on x86_64.
            unsafe { _mm_or_ps(a, b) }
        }
        #[inline(always)]
        fn and(a: __m128, b: __m128) -> __m128 {
            // SAFETY: SSE baseline on x86_64.
            unsafe { _mm_and_ps(a, b) }
        }
        #[inline(always)]
        fn select(m: __m128, a: Self, b: Self) -> Self {
            // (m & a) | (!m & b): SSE2 has no blend instruction.
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_or_ps(_mm_and_ps(m, a.0), _mm_andnot_ps(m, b.0)) })
        }
        #[inline(always)]
        fn any(m: __m128) -> bool {
            // Lanes 0..3 only.
            // SAFETY: SSE baseline on x86_64.
            unsafe { _mm_movemask_ps(m) & 0b111 != 0 }
        }
    }
}

/// The backend the kernels run on for this target.
#[cfg(target_arch = "x86_64")]
pub(crate) type Fast = Sse;
/// The backend the kernels run on for this target.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) type Fast = Scalar;
